#version 330
// FXAA (after Timothy Lottes' FXAA, the compact "PC" form): find an edge by the luma of the four
// diagonal neighbours, blur along it, keep the blur only if it stays within the local luma range.
// The last post pass (game/client/post.py), drawn into the window under the interface.

uniform sampler2D u_color;

in vec2 v_uv;
out vec4 o_color;

const float REDUCE_MIN = 1.0 / 128.0;
const float REDUCE_MUL = 1.0 / 8.0;
const float SPAN_MAX = 8.0;

float luma(vec3 c) { return dot(c, vec3(0.299, 0.587, 0.114)); }

void main() {
    vec2 texel = 1.0 / vec2(textureSize(u_color, 0));
    vec3 nw = texture(u_color, v_uv + vec2(-1.0, -1.0) * texel).rgb;
    vec3 ne = texture(u_color, v_uv + vec2(1.0, -1.0) * texel).rgb;
    vec3 sw = texture(u_color, v_uv + vec2(-1.0, 1.0) * texel).rgb;
    vec3 se = texture(u_color, v_uv + vec2(1.0, 1.0) * texel).rgb;
    vec3 m = texture(u_color, v_uv).rgb;
    float l_nw = luma(nw), l_ne = luma(ne), l_sw = luma(sw), l_se = luma(se), l_m = luma(m);
    float l_min = min(l_m, min(min(l_nw, l_ne), min(l_sw, l_se)));
    float l_max = max(l_m, max(max(l_nw, l_ne), max(l_sw, l_se)));
    vec2 dir = vec2(-((l_nw + l_ne) - (l_sw + l_se)), (l_nw + l_sw) - (l_ne + l_se));
    float reduce = max((l_nw + l_ne + l_sw + l_se) * 0.25 * REDUCE_MUL, REDUCE_MIN);
    float scale = 1.0 / (min(abs(dir.x), abs(dir.y)) + reduce);
    dir = clamp(dir * scale, vec2(-SPAN_MAX), vec2(SPAN_MAX)) * texel;
    vec3 a = 0.5 * (texture(u_color, v_uv + dir * (1.0 / 3.0 - 0.5)).rgb
                  + texture(u_color, v_uv + dir * (2.0 / 3.0 - 0.5)).rgb);
    vec3 b = a * 0.5 + 0.25 * (texture(u_color, v_uv - dir * 0.5).rgb + texture(u_color, v_uv + dir * 0.5).rgb);
    float l_b = luma(b);
    o_color = vec4((l_b < l_min || l_b > l_max) ? a : b, 1.0);
}
