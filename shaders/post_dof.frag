#version 330
// Ambient occlusion laid on the scene, then depth of field like a photograph of miniatures
// (game/client/post.py): sharp at the focus distance (the camera's target), blurred by how far a
// point lies in front of it or behind, relative to that distance, so the table reads as a model.

uniform sampler2D u_color;
uniform sampler2D u_depth;
uniform sampler2D u_ao;
uniform vec2 u_near_far;
uniform vec2 u_tan_half;
uniform float u_ao_strength;
uniform float u_focus;        // view depth in focus; 0: the depth at the middle of the screen
uniform float u_focus_range;  // fraction of the focus distance at which the blur is full
uniform float u_max_blur;     // pixels

in vec2 v_uv;
out vec4 o_color;

float view_depth(vec2 uv) {
    float d = texture(u_depth, uv).r * 2.0 - 1.0;
    float n = u_near_far.x, f = u_near_far.y;
    return 2.0 * n * f / (f + n - d * (f - n));
}

float blur_of(float z, float focus) {
    return clamp(abs(z - focus) / (focus * u_focus_range), 0.0, 1.0);
}

vec3 shaded(vec2 uv) {
    return texture(u_color, uv).rgb * mix(1.0, texture(u_ao, uv).r, u_ao_strength);
}

void main() {
    float focus = u_focus > 0.0 ? u_focus : view_depth(vec2(0.5));
    vec2 texel = 1.0 / vec2(textureSize(u_color, 0));
    float coc = blur_of(view_depth(v_uv), focus) * u_max_blur;
    vec3 sum = shaded(v_uv);
    float weight = 1.0;
    if (coc > 0.5) {
        const int N = 16;
        for (int i = 0; i < N; ++i) {
            float r = sqrt((float(i) + 0.5) / float(N));
            float a = float(i) * 2.39996323;
            vec2 uv = v_uv + vec2(cos(a), sin(a)) * r * coc * texel;
            // a sample counts where its own blur reaches this pixel: sharp things keep their edges
            float reach = blur_of(view_depth(uv), focus) * u_max_blur;
            float w = clamp(reach - r * coc + 1.0, 0.0, 1.0);
            sum += shaded(uv) * w;
            weight += w;
        }
    }
    o_color = vec4(sum / weight, 1.0);
}
