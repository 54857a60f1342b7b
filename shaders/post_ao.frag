#version 330
// Screen-space ambient occlusion from the depth buffer alone (game/client/post.py), at half size.
// Each pixel's view-space point and normal come from the depth; a spiral of nearby points within
// u_radius inches occludes it by how far each rises above its tangent plane (the cosine of the angle),
// so open ground seen at a slant stays unoccluded while figures on a base, the foot of a wall and the
// edge of a wood darken.

uniform sampler2D u_depth;
uniform vec2 u_near_far;
uniform vec2 u_tan_half;   // tan(fov / 2), x and y
uniform float u_radius;    // inches

in vec2 v_uv;
out vec4 o_color;

float view_depth(vec2 uv) {
    float d = texture(u_depth, uv).r * 2.0 - 1.0;
    float n = u_near_far.x, f = u_near_far.y;
    return 2.0 * n * f / (f + n - d * (f - n));
}

vec3 view_pos(vec2 uv) {
    float z = view_depth(uv);
    return vec3((uv * 2.0 - 1.0) * u_tan_half * z, z);
}

void main() {
    vec3 p = view_pos(v_uv);
    if (p.z > u_near_far.y * 0.9) { o_color = vec4(1.0); return; }  // the room beyond: nothing to occlude
    vec3 n = normalize(cross(dFdx(p), dFdy(p)));
    if (n.z > 0.0) n = -n;  // toward the eye
    vec2 r = u_radius / (p.z * u_tan_half) * 0.5;  // the radius in texture units at this depth
    ivec2 cell = ivec2(gl_FragCoord.xy) & 3;       // a 4x4 pattern of spiral turns, smoothed by the blur after
    float spin = float(cell.x * 4 + cell.y) * (6.2831853 / 16.0);
    float occlusion = 0.0;
    const int N = 12;
    for (int i = 0; i < N; ++i) {
        float t = (float(i) + 0.5) / float(N);
        float a = spin + float(i) * 2.39996323;  // the golden angle
        vec3 v = view_pos(v_uv + vec2(cos(a), sin(a)) * t * r) - p;
        float len = length(v) + 1e-4;
        float falloff = 1.0 - smoothstep(u_radius, 2.0 * u_radius, len);
        // a rise of a few hundredths of an inch (a decal, a shadow sheet) occludes nothing
        occlusion += max((dot(v, n) - 0.05 * u_radius) / len - 0.15, 0.0) * falloff;
    }
    o_color = vec4(vec3(clamp(1.0 - 1.6 * occlusion / float(N), 0.0, 1.0)), 1.0);
}
