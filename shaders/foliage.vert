#version 330
// Dinky Dau 3D: instanced trees (game/client/vegetation.py). One prototype tree (crown radius 1, height 1)
// drawn once per tree; each tree's columns are three texels of the buffer texture u_inst:
//   0: x, y, ground z, heading (radians)   1: crown radius, height, lean, -   2: leaf rgb, burnt (0/1).
// Vertex alpha marks the prototype's parts: 1 leaf (takes the tree's tint, goes when burnt), 0 wood.
// Round u_clear0/u_clear1 (x, y, radius, on) the trees are lifted: leaves gone, trunks cut to stumps.

uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelViewMatrix;
uniform mat3 p3d_NormalMatrix;
uniform mat4 p3d_ModelMatrix;
uniform samplerBuffer u_inst;
uniform vec4 u_clear0;
uniform vec4 u_clear1;

in vec4 p3d_Vertex;
in vec3 p3d_Normal;
in vec4 p3d_Color;

out vec3 v_view_pos;
out vec3 v_view_normal;
out vec3 v_world_pos;
out vec4 v_color;
out float v_leaf;
out float v_low;
out vec3 v_world_normal;

float cleared(vec4 c, vec2 p) {
    if (c.w < 0.5) return 0.0;
    return 1.0 - smoothstep(0.8, 1.0, length(p - c.xy) / max(c.z, 0.01));
}

void main() {
    int i = gl_InstanceID * 3;
    vec4 a = texelFetch(u_inst, i);
    vec4 b = texelFetch(u_inst, i + 1);
    vec4 t = texelFetch(u_inst, i + 2);
    float leaf = step(0.5, p3d_Color.a);
    vec3 p = p3d_Vertex.xyz;
    float lift = max(cleared(u_clear0, a.xy), cleared(u_clear1, a.xy));
    float gone = max(step(0.5, lift), t.a) * leaf;
    p *= 1.0 - gone;                                       // leaves collapse to the root: no triangles
    float cut = 0.2 / max(b.y, 0.01);                      // stumps, 0.2" tall, where trees are lifted
    if (lift > 0.5 && p.z > cut) p = vec3(0.0, 0.0, cut);
    vec3 s = vec3(b.x, b.x, b.y);
    p.x += b.z * p.z;                                      // lean
    float c = cos(a.w), sn = sin(a.w);
    vec3 q = vec3(c * p.x * s.x - sn * p.y * s.y, sn * p.x * s.x + c * p.y * s.y, p.z * s.z) + a.xyz;
    vec3 n = p3d_Normal / s;
    n = vec3(c * n.x - sn * n.y, sn * n.x + c * n.y, n.z);
    vec4 world = vec4(q, 1.0);
    gl_Position = p3d_ModelViewProjectionMatrix * world;
    v_view_pos = (p3d_ModelViewMatrix * world).xyz;
    v_view_normal = normalize(p3d_NormalMatrix * n);
    v_world_pos = (p3d_ModelMatrix * world).xyz;
    v_world_normal = mat3(p3d_ModelMatrix) * n;
    vec3 rgb = leaf > 0.5 ? p3d_Color.rgb * t.rgb : p3d_Color.rgb;
    if (t.a > 0.5) rgb = vec3(0.05, 0.045, 0.04) * (0.6 + 0.8 * p3d_Color.r);  // charred
    v_color = vec4(rgb, 1.0);
    v_leaf = leaf * (1.0 - t.a);
    v_low = 1.0 - smoothstep(0.2, 2.5, q.z - a.z);
}
