#version 330
// See lit.vert. Shadows: the baked light map (sun and sky seen, game/world/lightmap.py) on the ground and
// on what stands on it, and on a GPU also the real-time shadow map, percentage-closer filtered over a 2x2
// kernel of the hardware shadow sampler. The mat (game/client/mat.py) is the ground's colour, laid by
// world x/y. Then the room's pool of light and the grade (mood.glsl).
#pragma include "mood.glsl"

uniform struct p3d_LightSourceParameters {
    vec4 color;
    vec4 position;
    sampler2DShadow shadowMap;
    mat4 shadowViewMatrix;
} p3d_LightSource[1];

uniform struct p3d_MaterialParameters {
    vec4 baseColor;
} p3d_Material;

uniform mat4 p3d_ViewMatrix;
uniform vec4 p3d_ColorScale;
uniform sampler2D p3d_Texture0;

uniform vec3 u_sky;          // ambient from above
uniform vec3 u_ground;       // ambient from below
uniform float u_shadows;     // 1.0 with a shadow map, 0.0 without
uniform float u_shadow_texel;
uniform vec4 u_highlight;    // rgb added, a = strength (selection glow)
uniform sampler2D u_noise;   // tileable grey noise: the mat's flock and grit, in table inches
uniform float u_detail;      // strength of that detail (0 for none)
uniform sampler2D u_mat;     // the painted mat: rgb over the table by world x/y
uniform sampler2D u_light;   // baked light by world x/y: r sunlight, g sky seen
uniform float u_paint;       // 1: this surface is the mat (ground, trails, bunds): its colour is u_mat's
uniform float u_baked;       // how much of the baked light applies (1 on the ground, less on pieces)
uniform float u_wood;        // 1: the table's wooden frame, grained along its boards
uniform float u_backlight;   // foliage: light through the leaves when the sun is behind them

in vec3 v_view_pos;
in vec3 v_view_normal;
in vec3 v_world_pos;
in vec4 v_color;
in vec2 v_uv;

out vec4 o_color;

void main() {
    vec4 base = p3d_Material.baseColor * v_color * p3d_ColorScale * texture(p3d_Texture0, v_uv);
    vec2 tuv = table_uv(v_world_pos);
    if (u_paint > 0.5) {
        base.rgb = texture(u_mat, tuv).rgb * p3d_ColorScale.rgb;
        // the flock's fine speckle, close up
        base.rgb *= 0.9 + 0.2 * texture(u_noise, v_world_pos.xy / 0.7).r;
    }
    if (u_wood > 0.5) {
        // boards run along the table's sides: grain stretched along them, rings across
        vec2 p = v_world_pos.xy;
        bool ns = p.y < 0.0 || p.y > u_table.y;
        float along = ns ? p.x : p.y;
        float across = (ns ? p.y : p.x) + v_world_pos.z;
        float g = texture(u_noise, vec2(along / 31.0, across / 2.3)).r;
        float rings = 0.5 + 0.5 * sin(across * 23.0 + g * 9.0 + along * 0.15);
        base.rgb *= 0.78 + 0.22 * rings + 0.25 * (g - 0.5);
    }
    vec3 n = normalize(v_view_normal);
    if (!gl_FrontFacing) n = -n;
    vec3 l = normalize(p3d_LightSource[0].position.xyz);
    float ndl = max(dot(n, l), 0.0);

    vec3 baked = u_baked > 0.0 ? texture(u_light, tuv).rgb : vec3(1.0);
    float lit = mix(1.0, baked.r, u_baked);
    float sky_seen = mix(1.0, baked.g, u_baked);
    if (u_shadows > 0.5) {
        // offset along the normal by about a shadow-map texel (a 90" map over 1024 texels): no acne
        float bias = 0.04 + 1.5 * u_shadow_texel * 90.0;
        vec4 sc = p3d_LightSource[0].shadowViewMatrix * vec4(v_view_pos + n * bias, 1.0);
        float t = u_shadow_texel * sc.w;
        float map = 0.25 * (textureProj(p3d_LightSource[0].shadowMap, sc + vec4(-t, -t, 0, 0))
                          + textureProj(p3d_LightSource[0].shadowMap, sc + vec4( t, -t, 0, 0))
                          + textureProj(p3d_LightSource[0].shadowMap, sc + vec4(-t,  t, 0, 0))
                          + textureProj(p3d_LightSource[0].shadowMap, sc + vec4( t,  t, 0, 0)));
        lit = min(lit, map);
    }
    // hemisphere ambient, by the world-space up component of the normal
    vec3 world_up_view = normalize(mat3(p3d_ViewMatrix) * vec3(0.0, 0.0, 1.0));
    float up = dot(n, world_up_view) * 0.5 + 0.5;
    vec3 ambient = mix(u_ground, u_sky, up) * sky_seen;
    // world-space detail: two octaves of noise on upward faces, so the mat reads as flock, not plastic
    float upness = clamp(dot(n, world_up_view), 0.0, 1.0);
    float grain = texture(u_noise, v_world_pos.xy / 9.0).r * 0.6
                + texture(u_noise, v_world_pos.xy / 3.3).r * 0.4;
    base.rgb *= 1.0 + (grain - 0.5) * u_detail * upness;
    vec3 sun = p3d_LightSource[0].color.rgb;
    vec3 rgb = base.rgb * (ambient + sun * ndl * lit);
    if (u_backlight > 0.0) {
        // leaves lit from behind glow a little (looking toward the sun through foliage)
        float back = pow(max(dot(normalize(v_view_pos), l), 0.0), 3.0);
        rgb += base.rgb * sun * back * u_backlight * lit;
    }
    rgb = grade(rgb * pool_light(v_world_pos));
    rgb += u_highlight.rgb * u_highlight.a;
    o_color = vec4(rgb, base.a * cut_alpha(v_world_pos));
}
