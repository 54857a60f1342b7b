// Dinky Dau 3D: the room around the table and the final grade, shared by lit.frag and water.frag
// (Panda3D's "#pragma include"). The table stands in a dim hall under a lamp: light falls off beyond
// the table's edges into the room, a little toward the table's rim too; then a slight lift in saturation
// and contrast, as a photograph of a good miniatures table has. Cheap: no post pass.

uniform vec4 u_table;   // table width, height (inches); room brightness beyond the pool; its falloff (inches)
uniform vec4 u_grade;   // saturation, contrast (1 = none), lamp vignette on the table, unused

// where on the table's painted textures (mat, baked light) a world point lies
vec2 table_uv(vec3 p) {
    return p.xy / u_table.xy;
}

// the lamp's pool: 1 over the middle of the table, a little less at its rim, u_table.z far beyond
float pool_light(vec3 p) {
    vec2 half_size = 0.5 * u_table.xy;
    vec2 d = max(abs(p.xy - half_size) - half_size, 0.0);
    float outside = dot(d, d) + max(-p.z - 1.5, 0.0) * 4.0;   // the floor below darkens too
    float pool = mix(u_table.z, 1.0, exp(-outside / (u_table.w * u_table.w)));
    float r = length((p.xy - half_size) / half_size);
    return pool * (1.0 - u_grade.z * smoothstep(0.35, 1.3, r));
}

// the cutaway (game/client/underground.py): over the opened pit the surface is a ghost of itself
uniform vec4 u_cut;        // x0, y0, x1, y1 of the pit (an empty box when it is shut)
uniform float u_cut_alpha; // how much of the surface still shows over it
float cut_alpha(vec3 p) {
    vec2 inside = step(u_cut.xy, p.xy) * step(p.xy, u_cut.zw);
    return mix(1.0, u_cut_alpha, inside.x * inside.y);
}

vec3 grade(vec3 rgb) {
    float luma = dot(rgb, vec3(0.299, 0.587, 0.114));
    rgb = max(mix(vec3(luma), rgb, u_grade.x), 0.0);
    vec3 s = clamp(rgb, 0.0, 1.0);
    return mix(rgb, s * s * (3.0 - 2.0 * s), u_grade.y - 1.0);
}
