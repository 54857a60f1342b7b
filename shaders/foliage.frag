#version 330
// See foliage.vert. The lighting is lit.frag's (sun with its shadow map, sky/ground hemisphere ambient),
// with two leaf terms: light wraps round a crown (leaves scatter it) and a crown lit from behind glows.
// The baked light map (sun and sky the ground sees under the woods) darkens what stands low in a wood,
// trunks and undergrowth, not the crowns above it; then the room's pool of light and the grade.
#pragma include "mood.glsl"

uniform struct p3d_LightSourceParameters {
    vec4 color;
    vec4 position;
    sampler2DShadow shadowMap;
    mat4 shadowViewMatrix;
} p3d_LightSource[1];

uniform mat4 p3d_ViewMatrix;
uniform vec4 p3d_ColorScale;

uniform vec3 u_sky;
uniform vec3 u_ground;
uniform float u_shadows;
uniform float u_shadow_texel;
uniform vec4 u_highlight;
uniform sampler2D u_noise;   // tileable grey noise (scene.py): leaf clusters and their gaps
uniform sampler2D u_light;   // baked light by world x/y: r sunlight, g sky seen (lit.frag's)

in vec3 v_view_pos;
in vec3 v_view_normal;
in vec3 v_world_pos;
in vec4 v_color;
in float v_leaf;
in float v_low;
in vec3 v_world_normal;              // 1 at the ground, 0 from 2.5" up: how much of the baked light applies

out vec4 o_color;

void main() {
    vec4 base = v_color * p3d_ColorScale;
    // leaves in clusters: two octaves of noise projected along the face's main axis (no streaks down
    // the sides of a crown), the deep gaps between clusters darker
    vec3 w = v_world_pos;
    vec3 an = abs(v_world_normal);
    vec2 pl = an.z > max(an.x, an.y) ? w.xy : (an.x > an.y ? w.yz : w.xz);
    float n1 = texture(u_noise, pl * 0.45).r;
    float n2 = texture(u_noise, pl.yx * 1.4 + 0.37).r;
    float leafy = 0.62 + 0.75 * (0.45 * n1 + 0.55 * n2);
    leafy *= 1.0 - 0.35 * smoothstep(0.42, 0.3, n2);
    base.rgb *= mix(1.0, leafy, v_leaf);
    vec3 n = normalize(v_view_normal);
    if (!gl_FrontFacing) n = -n;
    vec3 l = normalize(p3d_LightSource[0].position.xyz);
    float d = dot(n, l);
    float ndl = mix(max(d, 0.0), max(d * 0.6 + 0.4, 0.0), v_leaf);

    vec3 baked = texture(u_light, table_uv(v_world_pos)).rgb;
    float lit = mix(1.0, baked.r, v_low);
    float sky_seen = mix(1.0, baked.g, v_low);
    if (u_shadows > 0.5) {
        vec4 sc = p3d_LightSource[0].shadowViewMatrix * vec4(v_view_pos + n * 0.05, 1.0);
        float t = u_shadow_texel * sc.w;
        lit = min(lit, 0.25 * (textureProj(p3d_LightSource[0].shadowMap, sc + vec4(-t, -t, 0, 0))
                    + textureProj(p3d_LightSource[0].shadowMap, sc + vec4( t, -t, 0, 0))
                    + textureProj(p3d_LightSource[0].shadowMap, sc + vec4(-t,  t, 0, 0))
                    + textureProj(p3d_LightSource[0].shadowMap, sc + vec4( t,  t, 0, 0))));
    }
    vec3 world_up_view = normalize(mat3(p3d_ViewMatrix) * vec3(0.0, 0.0, 1.0));
    float up = dot(n, world_up_view) * 0.5 + 0.5;
    vec3 ambient = mix(u_ground, u_sky, up) * sky_seen;
    vec3 view = normalize(-v_view_pos);
    float back = pow(max(dot(-view, l), 0.0), 4.0) * 0.35 * v_leaf;
    vec3 rgb = base.rgb * (ambient + p3d_LightSource[0].color.rgb * (ndl * lit + back));
    rgb = grade(rgb * pool_light(v_world_pos));
    rgb += u_highlight.rgb * u_highlight.a;
    o_color = vec4(rgb, 1.0);
}
