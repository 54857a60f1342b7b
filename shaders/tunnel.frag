#version 330
// Dinky Dau 3D: the war underneath (game/client/underground.py), with lit.vert. Earthen walls by vertex
// colour and a world-space grain from the shared noise. Two lights: the cutaway's diagram light (a soft
// key from above and an ambient, u_dim) and the rat's torch (u_torch_*): a warm cone from the camera,
// falling off with distance, computed per pixel. Cheap: two texture fetches and a handful of ALU, no
// shadow, no light object (a Panda3D spotlight would light the whole table's shader too).

uniform mat4 p3d_ViewMatrix;
uniform vec4 p3d_ColorScale;
uniform sampler2D u_noise;
uniform vec3 u_dim;          // ambient of the diagram light (the cutaway); near black in the crawl
uniform float u_key;         // strength of the diagram's key light from above
uniform vec4 u_torch_pos;    // world position of the torch, w: 1 when it is on
uniform vec4 u_torch_dir;    // world direction of its beam, w: cosine of the cone's half angle

in vec3 v_view_pos;
in vec3 v_view_normal;
in vec3 v_world_pos;
in vec4 v_color;
in vec2 v_uv;

out vec4 o_color;

void main() {
    vec3 base = v_color.rgb * p3d_ColorScale.rgb;
    vec3 p = v_world_pos;
    float grain = texture(u_noise, p.xy / 2.1 + p.z * 0.31).r * 0.55 + texture(u_noise, vec2(p.x + p.y, p.z) / 0.9).r * 0.45;
    base *= 0.72 + 0.56 * grain;
    vec3 n = normalize(v_view_normal);
    if (!gl_FrontFacing) n = -n;
    vec3 key = normalize(mat3(p3d_ViewMatrix) * vec3(-0.35, -0.45, 0.82));
    vec3 rgb = base * (u_dim + u_key * max(dot(n, key), 0.0));
    if (u_torch_pos.w > 0.5) {
        vec3 to = p - u_torch_pos.xyz;
        float d = max(length(to), 1e-3);
        vec3 l = to / d;
        float cone = smoothstep(u_torch_dir.w, u_torch_dir.w + 0.12, dot(l, u_torch_dir.xyz));
        float spill = 0.12 * exp(-d * 0.8);
        vec3 lv = normalize(mat3(p3d_ViewMatrix) * -l);
        float lam = 0.35 + 0.65 * max(dot(n, lv), 0.0);
        float fall = 1.0 / (1.0 + 0.09 * d * d);
        rgb += base * vec3(1.0, 0.74, 0.46) * 2.4 * (cone + spill) * fall * lam;
    }
    o_color = vec4(rgb, v_color.a * p3d_ColorScale.a);
}
