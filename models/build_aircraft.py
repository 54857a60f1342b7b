"""Generate the set pieces' models as glTF binaries: the aircraft of Dustoff and fire support, smoke
grenades, craters and a wreck (``models/*.glb``).

Deterministic like the figures (``build_models.py``, whose primitives and glTF writer it shares): the
same script writes the same files, so the .glb files are committed. Run it again after changing it:

    python models/build_aircraft.py

Scale: the figures' 1:100 (DESIGN.md §3), so 1 m of airframe is 0.3937" of table. Frame: inches, z up,
the nose toward +x (heading 0 = east, as stands face), the model's origin on the ground under its
centre for the helicopters (skids at z = 0) and at the centre of the airframe for the fixed-wing aircraft.

Parts that turn are separate glTF nodes the client spins: ``rotor_main`` (about z), ``rotor_tail``
(about y) and ``prop`` (about x), each mesh centred on its hub and placed by its node's translation
(the AC-47's second propeller is ``prop_starboard``).
Everything else is one ``body`` node. No textures: vertex colours, like the figures.

Sources for the sizes (m): UH-1H fuselage 12.77, main rotor 14.63, tail rotor 2.59, cabin 2.6 wide;
AH-1G fuselage 13.6, rotor 13.41, 0.99 wide, stub wings 3.28; A-1H 11.84 long, 15.25 span; F-4E 19.2 long,
11.7 span; O-1E 7.85 long, 10.97 span; AC-47D 19.43 long, 28.96 span, props 3.5; M18 smoke grenade 0.064 x 0.145; crater of an 82 mm bomb about 2.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import trimesh
import trimesh.creation as tc
from trimesh import transformations as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_models import Z_UP_TO_Y_UP, _c, _with_material, ball, box, cone, cyl, rot_y, rot_z  # noqa: E402

OUT = Path(__file__).resolve().parent
M = 100.0 / 2.54 / 100.0  # metres of the real machine -> inches of a 1:100 model (0.3937)

OD = (74, 80, 50)  # olive drab
OD_DARK = (52, 56, 36)
GLASS = (70, 100, 110)
WHITE = (236, 236, 230)
RED = (200, 30, 26)
BLACK = (24, 24, 26)
METAL = (90, 92, 96)
GREY = (150, 152, 150)
TAN = (170, 146, 104)
GREEN = (74, 96, 60)
BROWN = (92, 74, 52)
SOOT = (30, 28, 26)
RUST = (96, 58, 36)
ORANGE = (220, 110, 30)


def rot_x(deg):
    return tf.rotation_matrix(math.radians(deg), [1, 0, 0])


def pod(length, radius, at, rgb, axis="x", scale=(1, 1, 1)) -> trimesh.Trimesh:
    """A streamlined body (a stretched sphere) along ``axis``."""
    m = tc.icosphere(subdivisions=2, radius=1.0)
    sx, sy, sz = {"x": (length / 2, radius, radius), "y": (radius, length / 2, radius),
                  "z": (radius, radius, length / 2)}[axis]
    m.apply_scale((sx * scale[0], sy * scale[1], sz * scale[2]))
    m.apply_translation(at)
    return _c(m, rgb, smooth=True)


def wing(span, root, tip, thick, at, rgb, sweep=0.0, dihedral=0.0) -> trimesh.Trimesh:
    """A straight-tapered wing pair (both halves), chord ``root`` at the centre and ``tip`` at the ends."""
    half = span / 2
    parts = []
    for side in (1, -1):
        pts = [(root / 2, 0), (-root / 2, 0), (-tip / 2 - sweep, half), (tip / 2 - sweep, half)]
        from shapely.geometry import Polygon

        slab = tc.extrude_polygon(Polygon(pts), thick)
        slab.apply_translation((0, 0, -thick / 2))
        slab.apply_transform(rot_x(dihedral))
        if side < 0:
            slab.apply_transform(np.diag([1, -1, 1, 1]))
            slab.invert()
        parts.append(slab)
    m = trimesh.util.concatenate(parts)
    m.apply_translation(at)
    return _c(m, rgb)


def red_cross(size, at, normal: str) -> list[trimesh.Trimesh]:
    """A white square with a red cross, laid on a surface facing ``normal`` (+y, -y, +z, +x)."""
    t = 0.012
    bar = size * 0.62
    w = size * 0.2
    dims = {"+y": ((size, t, size), (bar, t * 1.6, w), (w, t * 1.6, bar)),
            "-y": ((size, t, size), (bar, t * 1.6, w), (w, t * 1.6, bar)),
            "+z": ((size, size, t), (bar, w, t * 1.6), (w, bar, t * 1.6)),
            "+x": ((t, size, size), (t * 1.6, bar, w), (t * 1.6, w, bar))}[normal]
    sign = -1 if normal.startswith("-") else 1
    lift = {"+y": (0, t * 0.4 * sign, 0), "-y": (0, t * 0.4 * sign, 0), "+z": (0, 0, t * 0.4),
            "+x": (t * 0.4, 0, 0)}[normal]
    out = [box(dims[0], at, WHITE)]
    for d in dims[1:]:
        out.append(box(d, tuple(a + b for a, b in zip(at, lift, strict=True)), RED))
    return out


def rotor(diameter, blades, chord, rgb=BLACK, hub=0.08) -> trimesh.Trimesh:
    """A rotor centred on its hub in the xy plane (the client spins it about z)."""
    parts = [cyl(hub, 0.05, (0, 0, 0), METAL, sections=10)]
    for k in range(blades):
        b = box((diameter / 2, chord, 0.018), (diameter / 4, 0, 0), rgb)
        b.apply_transform(rot_z(360.0 * k / blades))
        parts.append(b)
    return trimesh.util.concatenate(parts)


def prop(diameter, blades) -> trimesh.Trimesh:
    """A propeller centred on its hub in the yz plane (the client spins it about x)."""
    m = rotor(diameter, blades, 0.06 * diameter, BLACK, hub=0.06)
    m.apply_transform(rot_y(90))
    spinner = cone(0.09, 0.14, (0.0, 0, 0), METAL, sections=10)
    spinner.apply_transform(rot_y(90))
    return trimesh.util.concatenate([m, spinner])


# --- helicopters -----------------------------------------------------------------------------------
def huey(gunship: bool = False) -> dict[str, tuple[trimesh.Trimesh, tuple]]:
    """UH-1H Dustoff (red crosses on white: nose, both cabin doors, roof and belly) or UH-1C gunship."""
    L = 12.77 * M if not gunship else 11.7 * M
    cab_w = 2.6 * M
    cab_h = 1.75 * M
    skid_h = 0.75 * M
    z0 = skid_h + cab_h / 2
    parts = [
        pod(L * 0.50, cab_h / 2, (L * 0.18, 0, z0), OD, scale=(1, cab_w / cab_h, 1)),        # cabin
        box((L * 0.28, cab_w * 0.92, cab_h * 0.95), (L * 0.02, 0, z0), OD),                   # cargo bay
        pod(L * 0.22, cab_h * 0.42, (L * 0.36, 0, z0 + cab_h * 0.06), GLASS,
            scale=(1, cab_w / cab_h * 0.95, 1)),                                             # windscreen
        box((L * 0.22, cab_w * 0.55, cab_h * 0.35), (-L * 0.04, 0, z0 + cab_h * 0.62), OD_DARK),  # engine
        cyl(0.16, 0.3, (-L * 0.2, 0, z0 + cab_h * 0.6), BLACK, sections=8, rot=rot_y(90)),   # exhaust
        cyl(0.07, 0.26, (0, 0, z0 + cab_h * 0.9), METAL, sections=8),                        # mast
    ]
    boom = tc.cylinder(radius=0.22, height=L * 0.5, sections=10)
    boom.apply_transform(rot_y(90))
    boom.apply_scale((1, 1, 1))
    boom.apply_translation((-L * 0.38, 0, z0 + cab_h * 0.18))
    # taper: squeeze the tail end
    v = boom.vertices
    k = np.clip((-L * 0.13 - v[:, 0]) / (L * 0.5), 0, 1)
    v[:, 1] *= 1 - 0.55 * k
    v[:, 2] = z0 + cab_h * 0.18 + (v[:, 2] - (z0 + cab_h * 0.18)) * (1 - 0.55 * k) + k * cab_h * 0.2
    boom.vertices = v
    parts.append(_c(boom, OD))
    tail_x = -L * 0.62
    fin = box((0.5, 0.05, 0.9), (tail_x, 0, z0 + cab_h * 0.55), OD, rot=rot_y(-25))
    parts.append(fin)
    parts.append(box((0.45, 1.0, 0.04), (-L * 0.45, 0, z0 + cab_h * 0.25), OD))          # elevators
    for side in (1, -1):  # skids and cross tubes
        parts.append(box((L * 0.55, 0.06, 0.06), (L * 0.1, side * cab_w * 0.55, 0.03), METAL))
        parts.append(box((0.05, 0.05, skid_h), (L * 0.25, side * cab_w * 0.48, skid_h / 2), METAL,
                         rot=tf.rotation_matrix(math.radians(side * 10), [1, 0, 0])))
        parts.append(box((0.05, 0.05, skid_h), (-L * 0.05, side * cab_w * 0.48, skid_h / 2), METAL,
                         rot=tf.rotation_matrix(math.radians(side * 10), [1, 0, 0])))
    if not gunship:
        size = cab_h * 0.62
        parts += red_cross(size, (L * 0.04, cab_w * 0.47, z0), "+y")
        parts += red_cross(size, (L * 0.04, -cab_w * 0.47, z0), "-y")
        parts += red_cross(size * 0.8, (L * 0.02, 0, z0 + cab_h * 0.49), "+z")
        parts += red_cross(size * 0.55, (L * 0.44, 0, z0 - cab_h * 0.12), "+x")
    else:
        for side in (1, -1):  # M21 armament: a minigun and a 7-tube rocket pod each side
            parts.append(cyl(0.14, 0.8, (L * 0.08, side * cab_w * 0.72, z0 - cab_h * 0.15), OD_DARK,
                             sections=8, rot=rot_y(90)))
            parts.append(cyl(0.04, 0.5, (L * 0.3, side * cab_w * 0.62, z0 - cab_h * 0.3), BLACK,
                             sections=6, rot=rot_y(90)))
            parts.append(box((0.3, cab_w * 0.25, 0.05), (L * 0.08, side * cab_w * 0.6, z0 - cab_h * 0.05), METAL))
        parts.append(box((0.5, 0.02, 0.25), (L * 0.36, 0, z0 + cab_h * 0.05), (230, 200, 60)))  # shark nose band
    hub_z = z0 + cab_h * 1.05
    return {"body": (trimesh.util.concatenate(parts), (0, 0, 0)),
            "rotor_main": (rotor(14.63 * M if not gunship else 13.41 * M, 2, 0.53 * M), (0, 0, hub_z)),
            "rotor_tail": (_tail_rotor(2.59 * M), (tail_x - 0.08, 0.14, z0 + cab_h * 0.75))}


def _tail_rotor(d) -> trimesh.Trimesh:
    m = rotor(d, 2, 0.1, BLACK, hub=0.04)
    m.apply_transform(rot_x(90))  # turn about y
    return m


def cobra() -> dict[str, tuple[trimesh.Trimesh, tuple]]:
    """AH-1G HueyCobra: the narrow gunship, tandem canopy, stub wings with rocket pods and a chin turret."""
    L = 13.6 * M
    w = 0.99 * M
    z0 = 1.1 * M + 0.35
    parts = [
        pod(L * 0.55, w * 0.9, (L * 0.12, 0, z0), OD, scale=(1, 0.6, 1.25)),
        pod(L * 0.28, w * 0.62, (L * 0.22, 0, z0 + 0.32), GLASS, scale=(1, 0.6, 0.9)),
        box((L * 0.2, w * 0.7, 0.3), (-L * 0.05, 0, z0 + 0.38), OD_DARK),
        cyl(0.06, 0.22, (0, 0, z0 + 0.58), METAL, sections=8),
        ball(0.11, (L * 0.36, 0, z0 - 0.24), BLACK),  # chin turret
        cyl(0.02, 0.35, (L * 0.42, 0, z0 - 0.26), BLACK, sections=6, rot=rot_y(90)),
    ]
    boom = pod(L * 0.55, w * 0.35, (-L * 0.36, 0, z0 + 0.12), OD, scale=(1, 0.7, 1.1))
    parts.append(boom)
    tail_x = -L * 0.62
    parts.append(box((0.55, 0.05, 0.75), (tail_x, 0, z0 + 0.42), OD, rot=rot_y(-30)))
    parts.append(box((0.35, 0.9, 0.04), (-L * 0.42, 0, z0 + 0.1), OD))
    parts.append(wing(3.28 * M, 0.45, 0.35, 0.06, (0, 0, z0 - 0.02), OD))
    for side in (1, -1):
        for y in (0.42, 0.6):
            parts.append(cyl(0.09, 0.55, (0.05, side * y, z0 - 0.14), OD_DARK, sections=8, rot=rot_y(90)))
        parts.append(box((L * 0.5, 0.05, 0.05), (L * 0.05, side * 0.36, 0.03), METAL))
        parts.append(box((0.05, 0.05, z0 - 0.2), (L * 0.12, side * 0.3, (z0 - 0.2) / 2), METAL))
        parts.append(box((0.05, 0.05, z0 - 0.2), (-L * 0.08, side * 0.3, (z0 - 0.2) / 2), METAL))
    return {"body": (trimesh.util.concatenate(parts), (0, 0, 0)),
            "rotor_main": (rotor(13.41 * M, 2, 0.69 * M), (0, 0, z0 + 0.72)),
            "rotor_tail": (_tail_rotor(2.59 * M), (tail_x - 0.1, 0.1, z0 + 0.55))}


# --- fixed wing ------------------------------------------------------------------------------------
def skyraider() -> dict[str, tuple[trimesh.Trimesh, tuple]]:
    """A-1H Skyraider: a big radial-engine attack aircraft, bombs under the wings, grey and white."""
    L = 11.84 * M
    parts = [
        pod(L * 0.95, 0.34, (0, 0, 0), GREY, scale=(1, 0.85, 1.05)),
        cyl(0.33, 0.45, (L * 0.42, 0, 0), GREY, sections=14, rot=rot_y(90)),  # cowling
        pod(L * 0.22, 0.17, (L * 0.08, 0, 0.3), GLASS),
        wing(15.25 * M, 1.0, 0.55, 0.09, (L * 0.06, 0, -0.14), GREY, sweep=0.05, dihedral=5),
        wing(4.9 * M, 0.55, 0.35, 0.05, (-L * 0.42, 0, 0.05), GREY),
        box((0.55, 0.04, 0.6), (-L * 0.44, 0, 0.32), GREY, rot=rot_y(-15)),
    ]
    for side in (1, -1):
        for y in (0.9, 1.35, 1.8):
            parts.append(pod(0.5, 0.07, (L * 0.08, side * y, -0.3), OD_DARK))   # 250 lb bombs
        parts.append(box((0.3, 0.2, 0.25), (L * 0.1, side * 0.6, -0.3), BLACK))   # gear fairing
    parts.append(box((0.4, 0.05, 0.03), (L * 0.3, 0, 0.36), BLACK))  # anti-glare
    return {"body": (trimesh.util.concatenate(parts), (0, 0, 0)),
            "prop": (prop(4.1 * M, 4), (L * 0.5 + 0.02, 0, 0))}


def phantom() -> dict[str, tuple[trimesh.Trimesh, tuple]]:
    """F-4E Phantom II: SEA camouflage, cranked wing, drooped tail, napalm canisters under the wings."""
    L = 19.2 * M
    parts = [
        pod(L * 0.98, 0.3, (0, 0, 0), GREEN, scale=(1, 1.35, 0.9)),
        cone(0.22, L * 0.12, (0, 0, 0), TAN, sections=12),
        pod(L * 0.26, 0.18, (L * 0.2, 0, 0.26), GLASS),
        box((0.8, 0.05, 0.95), (-L * 0.4, 0, 0.45), TAN, rot=rot_y(-35)),
        wing(11.7 * M * 0.72, 2.2, 0.8, 0.07, (-L * 0.05, 0, -0.05), TAN, sweep=1.0),
        cyl(0.16, 0.3, (-L * 0.5, 0.17, 0), BLACK, sections=10, rot=rot_y(90)),
        cyl(0.16, 0.3, (-L * 0.5, -0.17, 0), BLACK, sections=10, rot=rot_y(90)),
    ]
    nose = parts[1]
    nose.apply_transform(rot_y(90))
    nose.apply_translation((L * 0.44, 0, -0.02))
    for side in (1, -1):  # outer panels with 12 degrees of dihedral, stabilators drooped 23
        tip = box((0.9, 0.9, 0.05), (-L * 0.1, side * 2.05, 0.1), GREEN,
                  rot=tf.rotation_matrix(math.radians(side * 12), [1, 0, 0]))
        parts.append(tip)
        parts.append(box((0.8, 0.9, 0.04), (-L * 0.45, side * 0.6, -0.12), GREEN,
                         rot=tf.rotation_matrix(math.radians(-side * 23), [1, 0, 0])))
        parts.append(pod(0.9, 0.1, (-L * 0.02, side * 1.3, -0.28), METAL))   # napalm canister
        parts.append(box((0.6, 0.1, 0.3), (-L * 0.02, side * 0.5, -0.25), TAN))  # intake ramp
    return {"body": (trimesh.util.concatenate(parts), (0, 0, 0))}


def bird_dog() -> dict[str, tuple[trimesh.Trimesh, tuple]]:
    """O-1E Bird Dog: the FAC's high-wing spotter with white-phosphorus marking rockets."""
    L = 7.85 * M
    parts = [
        pod(L * 0.9, 0.2, (0, 0, 0), GREY, scale=(1, 0.85, 1.2)),
        pod(L * 0.2, 0.16, (L * 0.16, 0, 0.18), GLASS, scale=(1, 0.9, 0.9)),
        wing(10.97 * M, 0.65, 0.45, 0.05, (L * 0.12, 0, 0.34), GREY),
        wing(3.4 * M, 0.4, 0.28, 0.04, (-L * 0.45, 0, 0.05), GREY),
        box((0.4, 0.03, 0.45), (-L * 0.47, 0, 0.24), GREY, rot=rot_y(-20)),
        box((0.04, 0.04, 0.5), (L * 0.1, 0.35, 0.12), GREY, rot=tf.rotation_matrix(math.radians(35), [1, 0, 0])),
        box((0.04, 0.04, 0.5), (L * 0.1, -0.35, 0.12), GREY, rot=tf.rotation_matrix(math.radians(-35), [1, 0, 0])),
    ]
    for side in (1, -1):
        parts.append(cyl(0.03, 0.38, (L * 0.14, side * 1.2, 0.26), WHITE, sections=6, rot=rot_y(90)))
        parts.append(box((0.04, 0.04, 0.35), (L * 0.2, side * 0.3, -0.3), BLACK,
                         rot=tf.rotation_matrix(math.radians(side * 25), [1, 0, 0])))
    return {"body": (trimesh.util.concatenate(parts), (0, 0, 0)),
            "prop": (prop(2.3 * M, 2), (L * 0.46, 0, 0))}


def ac47() -> dict[str, tuple[trimesh.Trimesh, tuple]]:
    """AC-47D "Spooky": the C-47 gunship, twin radials, three GAU-2 miniguns firing from the port windows and
    door (a pylon turn to the left), camouflage over a black belly."""
    L = 19.43 * M
    r = 1.2 * M
    parts = [
        pod(L * 0.96, r, (0, 0, 0), GREEN, scale=(1, 1, 1.05)),
        pod(L * 0.6, r * 0.98, (-L * 0.02, 0, -0.04), BLACK, scale=(1, 1, 0.8)),   # the black belly
        pod(L * 0.12, r * 0.55, (L * 0.4, 0, r * 0.55), GLASS),                   # cockpit glazing
        wing(28.96 * M, 1.9, 0.7, 0.1, (L * 0.08, 0, -r * 0.45), TAN, sweep=0.35, dihedral=5),
        wing(8.5 * M, 1.1, 0.5, 0.06, (-L * 0.43, 0, r * 0.2), TAN),
        box((1.2, 0.06, 1.45), (-L * 0.45, 0, r + 0.6), GREEN, rot=rot_y(-22)),   # fin and rudder
    ]
    for side in (1, -1):
        parts.append(pod(1.5, 0.3, (L * 0.14, side * 2.2, -r * 0.35), GREEN))     # nacelle
        parts.append(cyl(0.32, 0.3, (L * 0.14 + 0.72, side * 2.2, -r * 0.35), METAL, sections=14, rot=rot_y(90)))
    for k in range(3):  # GAU-2 miniguns out of the port side (+y), two windows and the cargo door
        parts.append(cyl(0.035, 0.5, (L * (0.05 - 0.12 * k), r + 0.2, -0.05), BLACK, sections=6, rot=rot_x(90)))
    hub = (L * 0.14 + 0.9, 2.2, -r * 0.35)
    return {"body": (trimesh.util.concatenate(parts), (0, 0, 0)),
            "prop": (prop(3.5 * M, 3), hub),
            "prop_starboard": (prop(3.5 * M, 3), (hub[0], -hub[1], hub[2]))}


# --- on the ground ---------------------------------------------------------------------------------
def smoke_grenade(rgb) -> dict[str, tuple[trimesh.Trimesh, tuple]]:
    """An M18 coloured-smoke grenade lying on its side, its colour band showing (1:100)."""
    can = cyl(0.064 * M * 0.5 * 2, 0.145 * M * 2, (0, 0, 0.03), OD, sections=10, rot=rot_y(90))
    band = cyl(0.066 * M, 0.03, (0.05, 0, 0.03), rgb, sections=10, rot=rot_y(90))
    return {"body": (trimesh.util.concatenate([can, band]), (0, 0, 0))}


def crater(seed: int = 7) -> dict[str, tuple[trimesh.Trimesh, tuple]]:
    """A shell crater of unit radius (the client scales it to the calibre): a raised rim of thrown earth
    around a dark bowl, a little irregular."""
    rng = np.random.default_rng(seed)
    n = 36
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
    wob = 1.0 + 0.08 * np.sin(3 * ang + 0.7) + rng.uniform(-0.05, 0.05, n)
    # the table cannot be dug: the bowl is a dark disc just above the ground inside a raised rim
    rings = [(0.0, 0.02, SOOT), (0.55, 0.03, (58, 46, 34)), (0.9, 0.09, BROWN), (1.1, 0.11, (120, 96, 64)),
             (1.45, 0.02, (110, 92, 62))]
    verts, cols = [], []
    for r, z, c in rings:
        for a, w in zip(ang, wob, strict=True):
            verts.append((r * w * math.cos(a), r * w * math.sin(a), z))
            cols.append((*c, 255))
    faces = []
    for i in range(len(rings) - 1):
        for j in range(n):
            a, b = i * n + j, i * n + (j + 1) % n
            c, d = a + n, b + n
            faces += [(a, c, b), (b, c, d)]
    mesh = trimesh.Trimesh(np.array(verts), np.array(faces), process=False)
    mesh.visual = trimesh.visual.ColorVisuals(mesh, vertex_colors=np.array(cols, dtype=np.uint8))
    clods = [ball(rng.uniform(0.04, 0.09), (r * math.cos(a), r * math.sin(a), 0.05), BROWN)
             for a, r in zip(rng.uniform(0, 2 * np.pi, 10), rng.uniform(1.1, 1.7, 10), strict=True)]
    return {"body": (trimesh.util.concatenate([mesh, *clods]), (0, 0, 0))}


def wreck() -> dict[str, tuple[trimesh.Trimesh, tuple]]:
    """A shot-down Huey on its side in the LZ: burnt hull, the tail boom broken off, blades bent."""
    parts = []
    for name, (mesh, at) in huey().items():
        m = mesh.copy()
        m.apply_translation(at)
        if name == "rotor_tail":
            continue
        if name == "rotor_main":
            v = m.vertices  # the blades droop and bend where they struck the ground
            r = np.hypot(v[:, 0], v[:, 1])
            v[:, 2] -= 0.12 * r ** 1.5
            m.vertices = v
        parts.append(m)
    body = trimesh.util.concatenate(parts)
    cols = body.visual.vertex_colors.astype(float)
    cols[:, :3] = cols[:, :3] * 0.35 + np.array(SOOT) * 0.65  # burnt
    body.visual.vertex_colors = cols.astype(np.uint8)
    keep = body.vertices[body.faces].mean(axis=1)[:, 0] > -2.0  # the boom breaks off behind the cabin
    hull = body.submesh([np.nonzero(keep)[0]], append=True)
    boom = body.submesh([np.nonzero(~keep)[0]], append=True)
    hull.apply_transform(rot_x(-28))  # rolled onto its side on the skids
    hull.apply_translation((0, 0, 0.25))
    boom.apply_transform(rot_z(35))
    boom.apply_translation((-0.6, -0.9, -0.35))
    fire = [ball(0.22, (0.2 * k, 0.1 * k, 0.9 + 0.1 * k), ORANGE) for k in range(-1, 2)]
    scorch = cyl(2.2, 0.01, (0, 0, 0.005), SOOT, sections=20)
    return {"body": (trimesh.util.concatenate([scorch, hull, boom, *fire]), (0, 0, 0))}


SMOKE_COLOURS = {"green": (60, 170, 70), "yellow": (230, 200, 40), "red": (200, 40, 30), "violet": (140, 70, 170),
                 "white": (235, 235, 230)}


def models() -> dict[str, dict[str, tuple[trimesh.Trimesh, tuple]]]:
    out = {"uh1_dustoff": huey(), "uh1c_gunship": huey(gunship=True), "ah1_cobra": cobra(),
           "a1_skyraider": skyraider(), "f4_phantom": phantom(), "o1_bird_dog": bird_dog(), "ac47": ac47(),
           "crater": crater(), "wreck": wreck()}
    for name, rgb in SMOKE_COLOURS.items():
        out[f"smoke_grenade_{name}"] = smoke_grenade(rgb)
    return out


def build(out: Path = OUT) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, nodes in models().items():
        scene = trimesh.Scene()
        for node, (mesh, at) in nodes.items():
            m = mesh.copy()
            m.apply_transform(Z_UP_TO_Y_UP)
            t = Z_UP_TO_Y_UP @ np.array([*at, 1.0])
            scene.add_geometry(m, node_name=node, geom_name=f"{name}_{node}",
                               transform=tf.translation_matrix(t[:3]))
        path = out / f"{name}.glb"
        path.write_bytes(_with_material(scene.export(file_type="glb"), name))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    files = build(Path(argv[0]) if argv else OUT)
    total = sum(p.stat().st_size for p in files)
    print(f"wrote {len(files)} set-piece models, {total / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
