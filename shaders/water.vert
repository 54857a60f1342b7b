#version 330
// Dinky Dau 3D: streams and flooded paddies (water.frag). The same varyings as lit.vert: the water is
// shaded in view space and patterned by world x/y, so the baked sheets need no texture coordinates.

uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelViewMatrix;
uniform mat3 p3d_NormalMatrix;
uniform mat4 p3d_ModelMatrix;

in vec4 p3d_Vertex;
in vec3 p3d_Normal;
in vec4 p3d_Color;
in vec2 p3d_MultiTexCoord0;

out vec3 v_view_pos;
out vec3 v_view_normal;
out vec3 v_world_pos;
out vec4 v_color;
out vec2 v_uv;

void main() {
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
    v_view_pos = (p3d_ModelViewMatrix * p3d_Vertex).xyz;
    v_view_normal = normalize(p3d_NormalMatrix * p3d_Normal);
    v_world_pos = (p3d_ModelMatrix * p3d_Vertex).xyz;
    v_color = p3d_Color;
    v_uv = p3d_MultiTexCoord0;
}
