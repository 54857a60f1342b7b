"""Generate the armour and the river craft as glTF binaries (``models/<roster id>.glb``).

Deterministic like the figures and the aircraft (``build_models.py``, whose primitives, welding and glTF
writer it shares): the same script writes the same files, so the .glb files are committed. Run it again
after changing it:

    python models/build_vehicles.py

Scale and frame: 1:100 (1 m of the real machine is 0.3937" of table), inches, z up, the front toward +x
(facing 0 = east, as stands face), the hull centred on the origin with its tracks, wheels or waterline at
z = 0. Each model is a small tree of named glTF nodes the client moves (``game/client/vehicles.py``):

* ``shadow``: a soft shadow on the ground (black, its alpha falling off past the footprint) that the
  client draws blended, as the stands' bases;
* ``hull``: the hull, running gear and fixed fittings;
* ``turret`` (child of ``hull``, its origin on the turret ring): what traverses; on an M113 the
  commander's cupola with its .50 and (ACAV) its shield;
* ``gun`` (child of ``turret``, its origin at the trunnions): the main armament, which recoils along -x;
* ``crew`` (a head and shoulders out of the commander's hatch: hidden when the vehicle is buttoned up),
  ``hatch`` (the open hatch lid, laid flat when the crew buttons up);
* the ACAV's ``m60_left`` / ``m60_right`` (side M60s behind their shields), the T-54's ``dshk``, the
  Tango's ``ramp`` (its origin on the ramp's hinge).

Painted as a modeller weathers a 15 mm vehicle: olive drab for the US, dark green for the NVA, each
face a shade apart, dust and mud darkening toward the ground and on the running gear; the PBR's
fibreglass hull a lighter green; the sampan's planks brown and its roof woven palm.

Sizes (m, length x width; hull top / overall height): M113 4.86 x 2.69 (1.85 / 2.5); M48A3 6.42 hull,
8.69 with the gun, x 3.63 (1.6 / 3.09); M50A1 Ontos 3.83 x 2.6 (1.4 / 2.13); T-54 6.04 hull, 9.0 with the
gun, x 3.27 (1.4 / 2.4); M35 6.71 x 2.41 (cab 2.1 / bows 2.84); PBR Mk II 9.5 x 3.5; ATC "Tango" 17.1 x
5.3; a river sampan 5.5 x 1.2.

What it leaves out: no textures, no animation rigs (the client turns nodes), no interiors; road wheels
are discs on the track run, not turning parts.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import trimesh
import trimesh.creation as tc
from shapely.geometry import MultiPoint, Polygon
from trimesh import transformations as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_models import (  # noqa: E402
    Z_UP_TO_Y_UP,
    _c,
    _rounded_rect,
    _with_material,
    ball,
    box,
    cyl,
    rot_x,
    rot_y,
    rot_z,
    weld,
)

OUT = Path(__file__).resolve().parent
M = 100.0 / 2.54 / 100.0  # metres of the real machine -> inches of a 1:100 model (0.3937)
MAX_TRIANGLES = 4000  # a vehicle on the software renderer costs about a squad's stands

OD = (78, 84, 52)            # US olive drab
OD_DARK = (58, 62, 40)
NVA_GREEN = (60, 74, 48)     # PAVN dark green
NVA_DARK = (44, 54, 36)
KHAKI = (124, 116, 78)
CANVAS = (104, 100, 66)
TRACK = (46, 42, 36)
RUBBER = (30, 30, 30)
MUD = (96, 78, 54)
STEEL = (70, 72, 74)
GUNMETAL = (42, 42, 46)
GLASS = (70, 96, 104)
GLASS_FIBRE = (96, 112, 80)  # a PBR's green fibreglass hull
DECK = (80, 84, 66)
PLANK = (104, 72, 44)
PLANK_DARK = (76, 52, 32)
PALM = (150, 128, 80)
SKIN = (190, 146, 108)
HELMET = (74, 86, 48)
PITH = (112, 120, 72)
SHIELD = (70, 76, 50)


@dataclass
class Part:
    """A named node: its mesh in the node's own frame, its origin in its parent's frame."""

    name: str
    mesh: trimesh.Trimesh
    at: tuple[float, float, float] = (0.0, 0.0, 0.0)
    parent: str | None = None
    shadow: tuple[float, float] | None = None  # the hull's: the footprint its soft shadow is cast from


def join(parts: list[trimesh.Trimesh]) -> trimesh.Trimesh:
    return trimesh.util.concatenate(parts)


def profile(points, width: float, rgb, y: float = 0.0) -> trimesh.Trimesh:
    """A side profile (x, z points, counter-clockwise) extruded ``width`` across y, centred on ``y``."""
    m = tc.extrude_polygon(Polygon(points), width)
    m.apply_transform(np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]], dtype=float))
    m.invert()  # the swap of y and z mirrors the solid: turn its faces out again
    m.apply_translation((0, y - width / 2, 0))
    return _c(m, rgb)


def plan(points, height: float, rgb, z: float = 0.0) -> trimesh.Trimesh:
    """A plan outline (x, y points) extruded ``height`` up from ``z``."""
    m = tc.extrude_polygon(Polygon(points), height)
    m.apply_translation((0, 0, z))
    return _c(m, rgb)


def circle(cx, cz, r, n=10):
    return [(cx + r * math.cos(2 * math.pi * k / n), cz + r * math.sin(2 * math.pi * k / n)) for k in range(n)]


def track_run(length: float, front_r: float, rear_r: float, front_z: float, rear_z: float, width: float,
              y: float, wheels: list[float], wheel_r: float, rgb=TRACK) -> list[trimesh.Trimesh]:
    """One side's track: the belt round the sprocket, the idler and the ground run (the convex hull of
    the three), and the road wheels as discs on its outer face."""
    ground = [(-length / 2 + rear_r * 1.2, 0.0), (length / 2 - front_r * 1.2, 0.0)]
    pts = circle(length / 2 - front_r, front_z, front_r) + circle(-length / 2 + rear_r, rear_z, rear_r) + ground
    hull = MultiPoint(pts).convex_hull
    belt = profile(list(hull.exterior.coords)[:-1], width, rgb, y)
    side = 1 if y > 0 else -1
    out = [belt]
    for wx in wheels:
        out.append(cyl(wheel_r, 0.02, (wx, y + side * (width / 2 + 0.006), wheel_r + 0.01), RUBBER, sections=10,
                       rot=rot_x(90)))
        out.append(cyl(wheel_r * 0.55, 0.026, (wx, y + side * (width / 2 + 0.009), wheel_r + 0.01), STEEL,
                       sections=8, rot=rot_x(90)))
    return out


def wheel(x: float, y: float, r: float, w: float) -> list[trimesh.Trimesh]:
    return [cyl(r, w, (x, y, r), RUBBER, sections=12, rot=rot_x(90)),
            cyl(r * 0.5, w + 0.01, (x, y, r), STEEL, sections=8, rot=rot_x(90))]


def figure(at, helmet=HELMET, body=OD, scale: float = 1.0) -> trimesh.Trimesh:
    """Head and shoulders of a crewman standing in a hatch (1:100: a head is about 0.09" across)."""
    x, y, z = at
    s = scale
    return join([box((0.09 * s, 0.15 * s, 0.14 * s), (x, y, z + 0.07 * s), body),
                 ball(0.045 * s, (x + 0.005, y, z + 0.19 * s), SKIN, subdivisions=1),
                 ball(0.052 * s, (x, y, z + 0.215 * s), helmet, scale=(1.05, 1.0, 0.7), subdivisions=1)])


def shadow(length: float, width: float, reach: float = 0.3, alpha: int = 170) -> trimesh.Trimesh:
    """The soft shadow under a hull: a dark rounded rectangle whose alpha falls to nothing ``reach``
    inches past the footprint (as the stands' blob shadow)."""
    rings = [(0.0, alpha), (0.45, int(alpha * 0.35)), (1.0, 0)]
    hx, hy = length / 2 - 0.05, width / 2 - 0.05
    loops = [_rounded_rect(hx + t * reach, hy + t * reach, 0.08 + t * reach, 2) for t, _ in rings]
    n = len(loops[0])
    verts = [(0.0, 0.0)] + [tuple(p) for loop in loops for p in loop]
    alphas = [alpha] + [a for _, a in rings for _ in range(n)]
    faces = [(0, 1 + i, 1 + (i + 1) % n) for i in range(n)]
    for r in range(len(loops) - 1):
        a0, b0 = 1 + r * n, 1 + (r + 1) * n
        for i in range(n):
            j = (i + 1) % n
            faces += [(a0 + i, b0 + i, b0 + j), (a0 + i, b0 + j, a0 + j)]
    m = trimesh.Trimesh(np.array([(x, y, 0.015) for x, y in verts]), np.array(faces), process=False)
    colors = np.zeros((len(verts), 4), dtype=np.uint8)
    colors[:, 3] = alphas
    m.visual = trimesh.visual.ColorVisuals(m, vertex_colors=colors)
    return m


def weathered(mesh: trimesh.Trimesh, seed: int, mud_z: float = 0.35, mud: float = 0.4) -> trimesh.Trimesh:
    """Each face a shade apart (as dry-brushing leaves it), mud and dust rising from the ground."""
    mesh = mesh.copy()
    rng = np.random.default_rng(seed)
    cols = mesh.visual.vertex_colors.astype(float)
    shade = np.repeat(rng.uniform(0.9, 1.07, len(mesh.faces)), 3)
    corner = mesh.faces.reshape(-1)
    c = cols[corner, :3] * shade[:, None]
    z = mesh.vertices[corner, 2]
    k = (np.clip(1.0 - z / max(mud_z, 1e-6), 0.0, 1.0) ** 1.5 * (mud if mud_z > 0 else 0.0))[:, None]
    c = c * (1 - k) + np.array(MUD) * k
    out = trimesh.Trimesh(mesh.vertices[corner], np.arange(len(corner)).reshape(-1, 3), process=False)
    rgba = np.column_stack([np.clip(c, 0, 255), cols[corner, 3]]).astype(np.uint8)
    out.visual = trimesh.visual.ColorVisuals(out, vertex_colors=rgba)
    return out


def hull_part(parts: list[trimesh.Trimesh], length: float, width: float, seed: int,
              mud_z: float = 0.35) -> Part:
    """The weathered hull node (its shadow is the ``shadow`` node the builder adds beside it)."""
    part = Part("hull", weathered(join(parts), seed, mud_z))
    part.shadow = (length, width)
    return part


# --- US tracks ------------------------------------------------------------------------------------
def m113(acav: bool) -> list[Part]:
    """M113: the aluminium box on five road wheels, trim vane on the glacis, rear ramp; the ACAV with the
    cupola .50 behind its shield and an M60 behind a shield either side of the cargo hatch."""
    L, W, top = 4.86 * M, 2.69 * M, 1.85 * M
    tw = 0.38 * M
    belly = 0.42 * M
    side = [(-L / 2, belly), (L / 2 - 0.35 * M, belly), (L / 2, 1.05 * M), (L / 2 - 1.25 * M, top),
            (-L / 2, top)]
    hull = [profile(side, W - 0.02, OD)]
    for y in (1, -1):
        hull += track_run(L * 0.98, 0.3 * M, 0.3 * M, 0.62 * M, 0.55 * M, tw, y * (W / 2 - tw / 2),
                          [L * f for f in (-0.34, -0.17, 0.0, 0.17, 0.32)], 0.3 * M)
    hull += [box((0.02, W * 0.8, 0.5 * M), (L / 2 - 0.55 * M, 0, 1.38 * M), OD_DARK, rot=rot_y(-58)),  # trim vane
             box((0.03, W * 0.7, top - belly - 0.1), (-L / 2 - 0.01, 0, (top + belly) / 2), OD),  # ramp
             box((0.55 * M, 0.5 * M, 0.04), (L / 2 - 1.45 * M, W * 0.22, top + 0.02), OD_DARK),  # driver's hatch
             box((1.6 * M, 1.5 * M, 0.03), (-L * 0.2, 0, top + 0.015), OD_DARK),  # cargo hatch
             cyl(0.04, 0.03, (L / 2 - 0.3 * M, W * 0.38, 1.0 * M), GLASS, sections=6, rot=rot_y(90)),
             cyl(0.04, 0.03, (L / 2 - 0.3 * M, -W * 0.38, 1.0 * M), GLASS, sections=6, rot=rot_y(90)),
             box((0.9 * M, 0.25 * M, 0.3 * M), (-L * 0.1, W / 2 - 0.1, top + 0.06), CANVAS)]  # stowage
    cx, cy = 0.05 * M, -0.28 * M  # the commander's cupola, a little right of the centre line
    turret = [cyl(0.38 * M, 0.32 * M, (0, 0, 0.16 * M), OD, sections=12),
              cyl(0.3 * M, 0.05, (0, 0, 0.34 * M), OD_DARK, sections=12)]
    gun = [box((0.35 * M, 0.16 * M, 0.18 * M), (0.0, 0, 0), GUNMETAL),
           cyl(0.05 * M, 1.45 * M, (0.85 * M, 0, 0.02), GUNMETAL, sections=6, rot=rot_y(90)),
           box((0.12 * M, 0.1 * M, 0.2 * M), (-0.05, 0, -0.12 * M), (150, 128, 60))]  # ammunition can
    if acav:
        turret += [box((0.05, 1.05 * M, 0.62 * M), (0.42 * M, 0, 0.62 * M), SHIELD),
                   box((0.5 * M, 0.05, 0.5 * M), (0.2 * M, 0.5 * M, 0.58 * M), SHIELD, rot=rot_z(-25)),
                   box((0.5 * M, 0.05, 0.5 * M), (0.2 * M, -0.5 * M, 0.58 * M), SHIELD, rot=rot_z(25))]
    parts = [hull_part(hull, L, W, 113 + acav),
             Part("turret", weathered(join(turret), 7, 0.0, 0.0), (cx, cy, top), "hull"),
             Part("gun", join(gun), (0.1 * M, 0, 0.62 * M), "turret"),
             Part("crew", figure((-0.1 * M, 0, 0.12)), (0, 0, 0), "turret"),
             Part("hatch", box((0.5 * M, 0.5 * M, 0.03), (0, 0, 0.015), OD_DARK), (-0.42 * M, 0, 0.34 * M),
                  "turret")]
    if acav:
        for name, y in (("m60_left", 1), ("m60_right", -1)):
            m60 = [box((0.05, 0.85 * M, 0.55 * M), (0.1 * M, 0, 0.3 * M), SHIELD),
                   box((0.4 * M, 0.08 * M, 0.1 * M), (0.05 * M, 0, 0.3 * M), GUNMETAL),
                   cyl(0.035 * M, 0.9 * M, (0.6 * M, 0, 0.32 * M), GUNMETAL, sections=6, rot=rot_y(90)),
                   cyl(0.05 * M, 0.3 * M, (0, 0, 0.1 * M), GUNMETAL, sections=6)]
            mesh = join(m60)
            mesh.apply_transform(rot_z(y * 70))  # the side guns look out over the flanks
            parts.append(Part(name, weathered(mesh, 9 + y, 0.0, 0.0), (-L * 0.28, y * (W / 2 - 0.25 * M), top),
                              "hull"))
    return parts


def m48a3() -> list[Part]:
    """M48A3 Patton: the cast boat hull on five road wheels with return rollers, fenders and stowage, the
    round cast turret with its 90 mm and T-shaped blast deflector, the M1 cupola's .50 on the right."""
    L, W, top = 6.42 * M, 3.63 * M, 1.6 * M
    tw = 0.71 * M
    belly = 0.45 * M
    inner = W - 2 * tw
    side = [(-L / 2, belly + 0.2 * M), (-L / 2 + 0.3 * M, belly), (L / 2 - 0.9 * M, belly), (L / 2, 1.05 * M),
            (L / 2 - 0.9 * M, top), (-L / 2, top)]
    hull = [profile(side, inner + 0.04, OD)]
    for y in (1, -1):
        hull += track_run(L * 0.96, 0.34 * M, 0.34 * M, 0.7 * M, 0.7 * M, tw, y * (W / 2 - tw / 2),
                          [L * f for f in (-0.3, -0.15, 0.0, 0.15, 0.3)], 0.33 * M)
        hull += [box((L * 0.9, tw + 0.04, 0.04), (-L * 0.02, y * (W / 2 - tw / 2), 1.16 * M), OD),  # fender
                 box((1.2 * M, tw * 0.8, 0.3 * M), (-L * 0.22, y * (W / 2 - tw / 2), 1.35 * M), OD_DARK),
                 box((0.8 * M, tw * 0.8, 0.25 * M), (L * 0.12, y * (W / 2 - tw / 2), 1.32 * M), CANVAS)]
    hull += [box((1.5 * M, inner * 0.8, 0.06), (-L * 0.36, 0, top + 0.03), OD_DARK),  # engine deck grille
             box((0.03, inner * 0.9, 0.5 * M), (-L / 2 - 0.01, 0, top - 0.35 * M), OD)]
    turret = [ball(1.0, (0, 0, 0), OD, scale=(1.55 * M, 1.2 * M, 0.95 * M), subdivisions=2),
              box((0.9 * M, 1.9 * M, 0.5 * M), (-1.45 * M, 0, 0.28 * M), OD_DARK),  # bustle rack
              box((0.85 * M, 1.5 * M, 0.2 * M), (-1.5 * M, 0, 0.6 * M), CANVAS)]
    turret = [t for t in turret]
    v = turret[0].vertices
    v[:, 2] = np.maximum(v[:, 2], -0.05)  # the dome's lower half sits in the ring
    turret[0].vertices = v
    gun = [box((0.5 * M, 0.9 * M, 0.6 * M), (0.1 * M, 0, 0), OD),  # mantlet
           cyl(0.085 * M, 4.7 * M, (2.5 * M, 0, 0), OD, sections=8, rot=rot_y(90)),
           box((0.25 * M, 0.5 * M, 0.16 * M), (4.85 * M, 0, 0), GUNMETAL)]  # the T blast deflector
    cupola = [cyl(0.45 * M, 0.55 * M, (0, 0, 0.27 * M), OD, sections=10),
              cyl(0.05 * M, 1.3 * M, (0.7 * M, 0, 0.38 * M), GUNMETAL, sections=6, rot=rot_y(90))]
    return [hull_part(hull, L, W, 48, 0.45),
            Part("turret", weathered(join(turret), 481, 0.0, 0.0), (0.15 * M, 0, top + 0.05), "hull"),
            Part("gun", weathered(join(gun), 482, 0.0, 0.0), (1.45 * M, 0, 0.35 * M), "turret"),
            Part("cupola", join(cupola), (-0.35 * M, -0.55 * M, 0.6 * M), "turret"),
            Part("crew", figure((-0.05 * M, 0, 0.2)), (-0.35 * M, -0.55 * M, 0.6 * M), "turret"),
            Part("hatch", box((0.55 * M, 0.55 * M, 0.03), (0, 0, 0.015), OD_DARK), (-0.35 * M, 0.35 * M, 0.82 * M),
                 "turret")]


def ontos() -> list[Part]:
    """M50A1 Ontos: the small tracked hull with six 106 mm recoilless rifles, three a side on the turret,
    the upper ones with their .50 spotting rifles."""
    L, W, top = 3.83 * M, 2.6 * M, 1.4 * M
    tw = 0.4 * M
    belly = 0.38 * M
    side = [(-L / 2, belly), (L / 2 - 0.4 * M, belly), (L / 2, 0.9 * M), (L / 2 - 1.1 * M, top), (-L / 2, top)]
    hull = [profile(side, W - 2 * tw + 0.04, OD)]
    for y in (1, -1):
        hull += track_run(L * 0.98, 0.25 * M, 0.25 * M, 0.55 * M, 0.5 * M, tw, y * (W / 2 - tw / 2),
                          [L * f for f in (-0.3, -0.1, 0.1, 0.3)], 0.27 * M)
        hull.append(box((L * 0.9, tw + 0.03, 0.03), (0, y * (W / 2 - tw / 2), 0.78 * M), OD))
    turret = [cyl(0.55 * M, 0.55 * M, (0, 0, 0.27 * M), OD, sections=10, top=0.8),
              box((0.35 * M, 1.9 * M, 0.2 * M), (0, 0, 0.35 * M), OD_DARK)]  # the arms that carry the rifles
    gun = []
    for y in (1, -1):
        for dy, dz, spot in ((0.78, 0.5, True), (0.78, 0.08, False), (0.55, 0.3, False)):
            gun.append(cyl(0.1 * M, 3.4 * M, (0.7 * M, y * dy * M, dz * M), OD, sections=8, rot=rot_y(90)))
            gun.append(cyl(0.14 * M, 0.5 * M, (-0.9 * M, y * dy * M, dz * M), OD_DARK, sections=8,
                           rot=rot_y(90)))  # the breech's venturi
            if spot:
                gun.append(cyl(0.03 * M, 1.3 * M, (0.5 * M, y * dy * M, (dz + 0.17) * M), GUNMETAL, sections=5,
                               rot=rot_y(90)))
    return [hull_part(hull, L, W, 50),
            Part("turret", weathered(join(turret), 501, 0.0, 0.0), (-0.05 * M, 0, top), "hull"),
            Part("gun", weathered(join(gun), 502, 0.0, 0.0), (0.0, 0, 0.3 * M), "turret"),
            Part("crew", figure((0, 0, 0)), (-0.3 * M, 0.0, 0.55 * M), "turret"),
            Part("hatch", box((0.5 * M, 0.5 * M, 0.03), (0, 0, 0.015), OD_DARK), (-0.75 * M, 0, 0.55 * M),
                 "turret")]


def m35() -> list[Part]:
    """M35 2½-ton: bonnet and open cab with its windscreen up, the cargo bed under canvas on bows, a single
    front axle and two rear axles on dual wheels."""
    L, W = 6.71 * M, 2.41 * M
    r = 0.55 * M
    frame_z = 1.0 * M
    hull = [box((L * 0.94, W * 0.55, 0.25 * M), (0, 0, frame_z), GUNMETAL),  # chassis
            box((1.5 * M, W * 0.82, 0.75 * M), (L / 2 - 0.85 * M, 0, frame_z + 0.45 * M), OD),  # bonnet
            box((0.12 * M, W * 0.6, 0.55 * M), (L / 2 - 0.06 * M, 0, frame_z + 0.35 * M), OD_DARK),  # grille
            box((1.0 * M, W, 0.85 * M), (L / 2 - 2.05 * M, 0, frame_z + 0.55 * M), OD),  # cab
            box((0.04, W * 0.9, 0.5 * M), (L / 2 - 1.58 * M, 0, frame_z + 1.25 * M), GLASS, rot=rot_y(-8)),
            box((1.0 * M, W + 0.02, 0.05), (L / 2 - 2.05 * M, 0, frame_z + 1.55 * M), CANVAS),  # cab top
            box((4.2 * M, W, 0.5 * M), (-L / 2 + 2.1 * M, 0, frame_z + 0.35 * M), OD)]  # the bed's sides
    # the canvas on its bows: straight sides, the roof rounded only at its shoulders
    bows = tc.cylinder(radius=W / 2, height=4.0 * M, sections=16)
    bows.apply_transform(rot_y(90))
    v = bows.vertices
    v[:, 2] = np.maximum(v[:, 2], 0.0) * 0.45 + np.where(v[:, 2] > 0, 0.35 * M, 0.0)
    bows.vertices = v
    bows.apply_translation((-L / 2 + 2.1 * M, 0, frame_z + 0.6 * M))
    hull.append(_c(bows, CANVAS))
    for x, duals in ((L / 2 - 1.1 * M, False), (-L / 2 + 2.4 * M, True), (-L / 2 + 1.2 * M, True)):
        for y in (1, -1):
            hull += wheel(x, y * (W / 2 - 0.2 * M), r, 0.35 * M if duals else 0.26 * M)
    return [hull_part(hull, L, W, 35, 0.5),
            Part("crew", figure((0, 0, 0), helmet=HELMET, scale=0.9), (L / 2 - 2.05 * M, 0.35 * M, frame_z + 0.7 * M),
                 "hull")]


# --- the NVA's tank ---------------------------------------------------------------------------------
def t54() -> list[Part]:
    """T-54: the low hull on five big road wheels with the gap behind the first, fuel drums at the rear,
    the flat dome turret with the 100 mm and its bore evacuator, the DShK over the loader's hatch."""
    L, W, top = 6.04 * M, 3.27 * M, 1.4 * M
    tw = 0.58 * M
    belly = 0.42 * M
    inner = W - 2 * tw
    side = [(-L / 2, belly + 0.15 * M), (-L / 2 + 0.2 * M, belly), (L / 2 - 0.5 * M, belly), (L / 2, 0.8 * M),
            (L / 2 - 1.3 * M, top), (-L / 2, top)]
    hull = [profile(side, inner + 0.04, NVA_GREEN)]
    for y in (1, -1):
        hull += track_run(L * 0.97, 0.33 * M, 0.33 * M, 0.55 * M, 0.55 * M, tw, y * (W / 2 - tw / 2),
                          [L * f for f in (-0.33, -0.17, -0.02, 0.13, 0.33)], 0.41 * M, TRACK)
        hull.append(box((L * 0.92, tw + 0.04, 0.03), (-L * 0.02, y * (W / 2 - tw / 2), 0.98 * M), NVA_GREEN))
        hull.append(cyl(0.3 * M, 0.85 * M, (-L / 2 - 0.05, y * 0.6 * M, top - 0.15 * M), NVA_DARK, sections=10,
                        rot=rot_x(90)))  # the external fuel drums
        hull.append(box((1.5 * M, 0.3 * M, 0.3 * M), (-L * 0.05, y * (W / 2 - tw / 2), 1.15 * M), NVA_DARK))
    turret = ball(1.0, (0, 0, 0), NVA_GREEN, scale=(1.35 * M, 1.25 * M, 0.85 * M), subdivisions=2)
    v = turret.vertices
    v[:, 2] = np.maximum(v[:, 2], -0.04)
    turret.vertices = v
    star = box((0.05, 0.3 * M, 0.3 * M), (0.4 * M, 1.1 * M, 0.35 * M), (180, 40, 30), rot=rot_z(60))
    gun = [box((0.45 * M, 0.7 * M, 0.45 * M), (0.1 * M, 0, 0), NVA_GREEN),
           cyl(0.08 * M, 5.3 * M, (2.8 * M, 0, 0), NVA_GREEN, sections=8, rot=rot_y(90)),
           cyl(0.13 * M, 0.6 * M, (4.2 * M, 0, 0), NVA_DARK, sections=8, rot=rot_y(90))]  # bore evacuator
    dshk = [cyl(0.06 * M, 0.4 * M, (0, 0, 0.2 * M), GUNMETAL, sections=6),
            box((0.5 * M, 0.12 * M, 0.15 * M), (0.05 * M, 0, 0.45 * M), GUNMETAL),
            cyl(0.04 * M, 1.3 * M, (0.9 * M, 0, 0.47 * M), GUNMETAL, sections=6, rot=rot_y(90))]
    return [hull_part(hull, L, W, 54, 0.45),
            Part("turret", weathered(join([turret, star]), 541, 0.0, 0.0), (0.2 * M, 0, top + 0.04), "hull"),
            Part("gun", weathered(join(gun), 542, 0.0, 0.0), (1.25 * M, 0, 0.3 * M), "turret"),
            Part("dshk", join(dshk), (-0.2 * M, 0.55 * M, 0.72 * M), "turret"),
            Part("crew", figure((0, 0, 0), helmet=PITH, body=KHAKI), (-0.4 * M, -0.5 * M, 0.7 * M), "turret"),
            Part("hatch", box((0.5 * M, 0.5 * M, 0.03), (0, 0, 0.015), NVA_DARK), (-0.9 * M, -0.5 * M, 0.72 * M),
                 "turret")]


# --- the river ---------------------------------------------------------------------------------------
def boat_hull(length: float, beam: float, freeboard: float, rgb, bow: float = 0.35, draught: float = 0.12,
              stern: float = 0.9) -> trimesh.Trimesh:
    """A hull in plan: a transom ``stern`` of the beam wide, full beam amidships, a bow drawn to a point
    over its last ``bow`` share of the length; from ``draught`` under the water to ``freeboard`` above."""
    hx = length / 2
    n = 8
    pts = [(-hx, -beam * stern / 2), (hx * (1 - 2 * bow), -beam / 2)]
    for k in range(1, n):
        t = k / n
        pts.append((hx * (1 - 2 * bow) + 2 * bow * hx * t, -beam / 2 * (1 - t ** 1.8)))
    pts.append((hx, 0.0))
    pts += [(x, -y) for x, y in reversed(pts[1:-1])]
    pts.append((-hx, beam * stern / 2))
    m = tc.extrude_polygon(Polygon(pts), freeboard + draught)
    m.apply_translation((0, 0, -draught))
    v = m.vertices
    up = v[:, 2] > 0
    v[up, 2] += np.clip(v[up, 0] / hx - 0.3, 0, None) * freeboard * 0.5  # the sheer rises to the bow
    m.vertices = v
    return _c(m, rgb)


def pbr() -> list[Part]:
    """PBR Mk II: the green fibreglass hull, the coxswain's flat with its radar mast and canopy, the twin
    .50 in the bow tub, a .50 aft; shields grey-green."""
    L, W = 9.5 * M, 3.5 * M
    fb = 0.75 * M
    hull = [boat_hull(L, W, fb, GLASS_FIBRE, bow=0.3),
            box((L * 0.85, W * 0.7, 0.02), (-L * 0.05, 0, fb + 0.01), DECK),
            box((1.6 * M, 1.8 * M, 0.8 * M), (-0.1 * M, 0, fb + 0.4 * M), GLASS_FIBRE),  # the coxswain's flat
            box((1.9 * M, 2.4 * M, 0.05), (-0.2 * M, 0, fb + 1.6 * M), CANVAS),  # canopy
            cyl(0.04 * M, 1.6 * M, (0.6 * M, 0.95 * M, fb + 0.8 * M), GUNMETAL, sections=4),
            cyl(0.04 * M, 1.6 * M, (0.6 * M, -0.95 * M, fb + 0.8 * M), GUNMETAL, sections=4),
            cyl(0.04 * M, 1.6 * M, (-1.0 * M, 0.95 * M, fb + 0.8 * M), GUNMETAL, sections=4),
            cyl(0.04 * M, 1.6 * M, (-1.0 * M, -0.95 * M, fb + 0.8 * M), GUNMETAL, sections=4),
            box((0.6 * M, 0.3 * M, 0.2 * M), (-0.2 * M, 0, fb + 1.75 * M), GUNMETAL),  # radar
            cyl(0.06 * M, 0.9 * M, (-L / 2 + 0.9 * M, 0, fb + 0.45 * M), GUNMETAL, sections=6),  # aft mount
            box((0.05, 0.7 * M, 0.4 * M), (-L / 2 + 1.05 * M, 0, fb + 1.0 * M), SHIELD),
            cyl(0.04 * M, 1.2 * M, (-L / 2 + 1.6 * M, 0, fb + 0.95 * M), GUNMETAL, sections=6, rot=rot_y(90))]
    tub = [cyl(0.55 * M, 0.6 * M, (0, 0, 0.3 * M), GLASS_FIBRE, sections=12),
           box((0.05, 1.0 * M, 0.45 * M), (0.5 * M, 0, 0.85 * M), SHIELD)]
    gun = [box((0.45 * M, 0.45 * M, 0.25 * M), (0, 0, 0), GUNMETAL),
           cyl(0.05 * M, 1.5 * M, (0.85 * M, 0.12 * M, 0.03), GUNMETAL, sections=6, rot=rot_y(90)),
           cyl(0.05 * M, 1.5 * M, (0.85 * M, -0.12 * M, 0.03), GUNMETAL, sections=6, rot=rot_y(90))]
    return [hull_part(hull, L * 0.9, W * 0.9, 31, 0.0),
            Part("turret", weathered(join(tub), 311, 0.0, 0.0), (L / 2 - 2.3 * M, 0, fb + 0.1 * M), "hull"),
            Part("gun", join(gun), (0.1 * M, 0, 0.75 * M), "turret"),
            Part("crew", figure((0, 0, 0)), (-0.5 * M, 0, fb + 0.2 * M), "hull")]


def tango() -> list[Part]:
    """ATC "Tango" (armoured troop carrier): the long blunt hull with its bow ramp, the well deck under
    bar armour and a canvas awning, the armoured deckhouse aft with a 20 mm turret and .50 tubs."""
    L, W = 17.1 * M, 5.3 * M
    fb = 1.2 * M
    hull = [boat_hull(L, W, fb, OD, bow=0.08, stern=0.95, draught=0.1),
            box((L * 0.62, W * 0.82, 0.02), (L * 0.07, 0, fb + 0.01), DECK),
            box((L * 0.6, 0.08, 1.3 * M), (L * 0.07, W / 2 - 0.1, fb + 0.65 * M), OD),  # the well's walls
            box((L * 0.6, 0.08, 1.3 * M), (L * 0.07, -W / 2 + 0.1, fb + 0.65 * M), OD),
            box((3.5 * M, W * 0.8, 1.6 * M), (-L / 2 + 2.2 * M, 0, fb + 0.8 * M), OD),  # deckhouse
            cyl(0.6 * M, 0.7 * M, (-L / 2 + 3.0 * M, 1.4 * M, fb + 1.9 * M), OD_DARK, sections=10),  # .50 tubs
            cyl(0.6 * M, 0.7 * M, (-L / 2 + 3.0 * M, -1.4 * M, fb + 1.9 * M), OD_DARK, sections=10)]
    awning = tc.cylinder(radius=W * 0.46, height=L * 0.56, sections=14)
    awning.apply_transform(rot_y(90))
    v = awning.vertices
    v[:, 2] = np.maximum(v[:, 2], 0.0) * 0.32
    awning.vertices = v
    awning.apply_translation((L * 0.07, 0, fb + 1.55 * M))
    hull.append(_c(awning, CANVAS))
    for k in range(17):  # bar armour: vertical bars standing off the well's walls
        x = -L * 0.22 + k * L * 0.036
        for y in (1, -1):
            hull.append(box((0.05, 0.05, 1.6 * M), (x, y * (W / 2 + 0.06), fb + 0.6 * M), STEEL))
    for z in (0.5, 1.3):
        for y in (1, -1):
            hull.append(box((L * 0.6, 0.04, 0.04), (L * 0.07, y * (W / 2 + 0.06), fb + z * M), STEEL))
    turret = [cyl(0.7 * M, 0.6 * M, (0, 0, 0.3 * M), OD, sections=10, top=0.85)]
    gun = [box((0.4 * M, 0.4 * M, 0.3 * M), (0, 0, 0), GUNMETAL),
           cyl(0.06 * M, 1.9 * M, (1.1 * M, 0, 0), GUNMETAL, sections=6, rot=rot_y(90))]
    ramp = box((0.12, W * 0.78, 1.3 * M), (0.06, 0, 0.65 * M), OD, rot=None)
    return [hull_part(hull, L * 0.92, W * 0.92, 32, 0.0),
            Part("turret", weathered(join(turret), 321, 0.0, 0.0), (-L / 2 + 2.0 * M, 0, fb + 1.6 * M), "hull"),
            Part("gun", join(gun), (0.2 * M, 0, 0.35 * M), "turret"),
            Part("ramp", weathered(ramp, 322, 0.0, 0.0), (L / 2 - 0.1, 0, fb * 0.6), "hull"),
            Part("crew", figure((0, 0, 0)), (-0.2 * M, 0, 0.5 * M), "turret")]


def sampan() -> list[Part]:
    """A river sampan: planked hull, its sheer rising fore and aft, a woven palm roof amidships, a boatman
    in a non la at the stern oar."""
    L, W = 5.5 * M, 1.2 * M
    fb = 0.45 * M
    hull = boat_hull(L, W, fb, PLANK, bow=0.28, stern=0.45, draught=0.06)
    v = hull.vertices
    up = v[:, 2] > 0
    v[up, 2] += np.clip(-v[up, 0] / (L / 2) - 0.4, 0, None) * fb * 0.8  # and to the stern
    hull.vertices = v
    roof = tc.cylinder(radius=W * 0.55, height=1.8 * M, sections=12)
    roof.apply_transform(rot_y(90))
    rv = roof.vertices
    rv[:, 2] = np.maximum(rv[:, 2], 0.0)
    roof.vertices = rv
    roof.apply_translation((-0.1 * M, 0, fb + 0.1 * M))
    parts = [hull, _c(roof, PALM), box((L * 0.7, W * 0.8, 0.02), (0, 0, fb * 0.7), PLANK_DARK),
             box((0.04, 0.04, 1.8 * M), (-L / 2 + 0.25 * M, -0.2 * M, fb + 0.5 * M), PLANK_DARK, rot=rot_x(25)),
             figure((-L / 2 + 0.55 * M, 0, fb * 0.7), helmet=(200, 176, 112), body=(44, 44, 54), scale=0.95)]
    return [hull_part(parts, L * 0.85, W * 0.9, 6, 0.0)]


def models() -> dict[str, list[Part]]:
    return {"m113_acav": m113(True), "m113_apc": m113(False), "m48a3": m48a3(), "m50a1_ontos": ontos(),
            "t54": t54(), "m35_truck": m35(), "pbr": pbr(), "tango": tango(), "sampan": sampan()}


def node_mesh(part: Part) -> trimesh.Trimesh:
    """A node's mesh welded (shared corners once: the software renderer pays by the vertex) and turned to
    glTF's y-up by hand, its normals along with it."""
    mesh = weld(part.mesh)
    turn = Z_UP_TO_Y_UP[:3, :3]
    out = trimesh.Trimesh(mesh.vertices @ turn.T, mesh.faces, vertex_normals=mesh.vertex_normals @ turn.T,
                          process=False)
    out.visual = trimesh.visual.ColorVisuals(out, vertex_colors=mesh.visual.vertex_colors)
    return out


def build(out: Path = OUT) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, parts in models().items():
        tris = sum(len(p.mesh.faces) for p in parts)  # the shadow's few faces aside
        if tris > MAX_TRIANGLES:
            raise ValueError(f"{name}: {tris} triangles, more than {MAX_TRIANGLES}")
        scene = trimesh.Scene()
        hull = next(p for p in parts if p.name == "hull")
        parts = [Part("shadow", shadow(*hull.shadow)), *parts]  # drawn first, blended (the client's stand bin)
        for part in parts:
            t = Z_UP_TO_Y_UP @ np.array([*part.at, 1.0])
            scene.add_geometry(node_mesh(part), node_name=part.name, geom_name=f"{name}_{part.name}",
                               parent_node_name=part.parent, transform=tf.translation_matrix(t[:3]))
        path = out / f"{name}.glb"
        path.write_bytes(_with_material(scene.export(file_type="glb", include_normals=True), name))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    files = build(Path(argv[0]) if argv else OUT)
    total = sum(p.stat().st_size for p in files)
    print(f"wrote {len(files)} vehicle models, {total / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
