#version 330
// Dinky Dau 3D: water that holds the sky's colour, without a reflection pass. A fresnel mix of the
// water's own colour and the sky's by the view angle; the surface rippled by two scrolling noise normals
// (along the stream's flow, u_flow); a sun glint; shallows that show the mud bed toward the shore (the
// mat's alpha is the depth, game/client/mat.py). A flooded paddy (u_rows.w > 0) carries rice in rows
// across its long side, fading to their average colour where the rows are finer than a pixel.
#pragma include "mood.glsl"

uniform struct p3d_LightSourceParameters {
    vec4 color;
    vec4 position;
} p3d_LightSource[1];

uniform mat4 p3d_ViewMatrix;
uniform float osg_FrameTime;
uniform vec3 u_sky;
uniform vec4 u_highlight;
uniform sampler2D u_noise;
uniform sampler2D u_mat;     // rgb: the bed's colour; a: depth, 0 at the shore to 1 inside
uniform sampler2D u_light;   // baked light: r sunlight, g sky seen
uniform vec3 u_water;        // the water's own colour
uniform vec2 u_flow;         // flow direction and speed, inches per second (0 for still water)
uniform vec4 u_rows;         // rice rows: direction (xy), spacing (inches), strength (0: no rice)
uniform vec3 u_rice;         // colour of the rice

in vec3 v_view_pos;
in vec3 v_view_normal;
in vec3 v_world_pos;
in vec4 v_color;
in vec2 v_uv;

out vec4 o_color;

void main() {
    vec2 p = v_world_pos.xy;
    vec2 tuv = table_uv(v_world_pos);
    vec4 bed = texture(u_mat, tuv);
    vec3 baked = texture(u_light, tuv).rgb;
    float t = osg_FrameTime;

    // two ripple layers drifting with the flow (and across it, slower), as gradients of the noise
    vec2 flow = u_flow * t;
    vec2 q1 = p / 2.7 - flow / 2.7;
    vec2 q2 = p.yx / 1.3 - flow * 1.4 / 1.3 + vec2(0.37, 0.11) * t * 0.05;
    float e = 1.0 / 256.0;
    float a = texture(u_noise, q1).r, b = texture(u_noise, q2).r;
    vec2 g = vec2(texture(u_noise, q1 + vec2(e, 0)).r - a, texture(u_noise, q1 + vec2(0, e)).r - a) * 9.0
           + vec2(texture(u_noise, q2 + vec2(e, 0)).r - b, texture(u_noise, q2 + vec2(0, e)).r - b) * 6.0;
    vec3 n_world = normalize(vec3(-g * 0.35, 1.0));
    vec3 n = normalize(mat3(p3d_ViewMatrix) * n_world);
    vec3 v = normalize(-v_view_pos);
    vec3 l = normalize(p3d_LightSource[0].position.xyz);
    vec3 sun = p3d_LightSource[0].color.rgb;
    vec3 up = normalize(mat3(p3d_ViewMatrix) * vec3(0.0, 0.0, 1.0));

    float depth = bed.a;
    float nv = clamp(dot(n, v), 0.0, 1.0);
    float fresnel = 0.06 + 0.94 * pow(1.0 - nv, 5.0);
    vec3 light_in = u_sky * mix(1.0, baked.g, 0.8) + sun * max(dot(up, l), 0.0) * baked.r;
    // the body: the bed's mud in the shallows, the water's colour where it is deep
    vec3 body = mix(bed.rgb * 0.8, u_water, smoothstep(0.0, 0.9, depth)) * light_in;
    // the sky it holds: brighter toward the horizon, the lamp's warmth from above
    vec3 sky = u_sky * mix(1.9, 1.3, dot(reflect(-v, n), up) * 0.5 + 0.5) * mix(0.7, 1.0, baked.g);
    vec3 rgb = mix(body, sky, clamp(fresnel * (0.4 + 0.6 * depth), 0.0, 1.0));
    // the glint
    vec3 r = reflect(-l, n);
    float glint = pow(max(dot(r, v), 0.0), 90.0) * 1.6 + pow(max(dot(r, v), 0.0), 12.0) * 0.12;
    rgb += sun * glint * baked.r * (0.3 + 0.7 * depth);

    if (u_rows.w > 0.0) {
        vec2 dir = u_rows.xy;
        float along = dot(p, dir), across = dot(p, vec2(-dir.y, dir.x));
        float k = across / u_rows.z;
        float m = along / (u_rows.z * 0.75);
        // planted tufts: one per cell of the row grid, jittered and sized by the noise
        float jit = texture(u_noise, vec2(floor(m) * 0.131, floor(k) * 0.173)).r;
        vec2 f = vec2(fract(m + 0.3 * jit) - 0.5, (fract(k) - 0.5) * 1.2);
        float ragged = texture(u_noise, p * 2.3).r - 0.5;   // leaves, not discs
        float tuft = 1.0 - smoothstep(0.16 + 0.14 * jit, 0.46, length(f * vec2(0.8, 1.0)) + 0.45 * ragged);
        float fine = clamp(max(fwidth(k), fwidth(m)) * 1.5, 0.0, 1.0);
        float rice = mix(tuft, 0.38, fine) * u_rows.w * smoothstep(0.15, 0.6, depth);
        vec3 leaf_light = u_sky * baked.g + sun * (0.45 + 0.4 * max(dot(up, l), 0.0)) * baked.r;
        vec3 leaf = u_rice * (0.75 + 0.5 * jit) * (0.85 + 0.3 * b) * leaf_light;
        rgb = mix(rgb, leaf, rice);
    }
    rgb = grade(rgb * pool_light(v_world_pos));
    rgb += u_highlight.rgb * u_highlight.a;
    o_color = vec4(rgb, cut_alpha(v_world_pos));
}
