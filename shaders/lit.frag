#version 330
// See lit.vert. Shadows: percentage-closer filtering over a 2x2 kernel of the hardware shadow sampler.

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

in vec3 v_view_pos;
in vec3 v_view_normal;
in vec3 v_world_pos;
in vec4 v_color;
in vec2 v_uv;

out vec4 o_color;

void main() {
    vec4 base = p3d_Material.baseColor * v_color * p3d_ColorScale * texture(p3d_Texture0, v_uv);
    vec3 n = normalize(v_view_normal);
    if (!gl_FrontFacing) n = -n;
    vec3 l = normalize(p3d_LightSource[0].position.xyz);
    float ndl = max(dot(n, l), 0.0);

    float lit = 1.0;
    if (u_shadows > 0.5) {
        vec4 sc = p3d_LightSource[0].shadowViewMatrix * vec4(v_view_pos + n * 0.03, 1.0);
        float t = u_shadow_texel * sc.w;
        lit = 0.25 * (textureProj(p3d_LightSource[0].shadowMap, sc + vec4(-t, -t, 0, 0))
                    + textureProj(p3d_LightSource[0].shadowMap, sc + vec4( t, -t, 0, 0))
                    + textureProj(p3d_LightSource[0].shadowMap, sc + vec4(-t,  t, 0, 0))
                    + textureProj(p3d_LightSource[0].shadowMap, sc + vec4( t,  t, 0, 0)));
    }
    // hemisphere ambient, by the world-space up component of the normal
    vec3 world_up_view = normalize(mat3(p3d_ViewMatrix) * vec3(0.0, 0.0, 1.0));
    float up = dot(n, world_up_view) * 0.5 + 0.5;
    vec3 ambient = mix(u_ground, u_sky, up);
    // world-space detail: two octaves of noise on upward faces, so the mat reads as flock, not plastic
    float upness = clamp(dot(n, world_up_view), 0.0, 1.0);
    float grain = texture(u_noise, v_world_pos.xy / 9.0).r * 0.6 + texture(u_noise, v_world_pos.xy / 3.3).r * 0.4;
    base.rgb *= 1.0 + (grain - 0.5) * u_detail * upness;
    vec3 rgb = base.rgb * (ambient + p3d_LightSource[0].color.rgb * ndl * lit);
    rgb += u_highlight.rgb * u_highlight.a;
    o_color = vec4(rgb, base.a);
}
