"""Generate the client's 15mm stand models and rules markers as glTF binaries (``models/*.glb``).

Deterministic: the same script writes the same files (no randomness beyond fixed-seed jitter of figure
poses and base scenery), so the .glb files are committed and ``make play`` needs no build step. Run it
again after changing it:

    python models/build_models.py

Frame and scale (DESIGN.md §3, game/world/features.py ``base_corners``): inches, x east, y north, z up;
a stand model faces +x (facing 0 = east), its base centred on the origin with its underside at z = 0,
its ``width`` (the frontage) along y and its ``depth`` along x. Figures are 1:100 (a standing man is
about 0.7" tall). Each model is one mesh with vertex colours, so the client draws it as a single Geom.

A stand is painted as a club player paints one: US fatigues with covered M1 helmets or boonie hats,
rucksacks and M16s; ANZAC slouch hats; VC in black pyjamas with non la or bare heads, AKs and SKSs;
NVA in khaki with pith helmets; leaders point or hold a map. The base is earth with flock, static grass
tufts and a stone, its edge painted in the side's colour (Okabe-Ito, safe for colour-blind eyes).
Under the base lies a soft shadow: the mesh's first faces, black with a falling alpha, which the client
draws blended (pieces.py) — in the same Geom, so it costs no draw call.

What it leaves out: no textures, no animation rigs. Markers are plain shapes whose colour and outline
tell them apart; the client adds text (blind "?", delay die pips) where a shape cannot carry it.
"""

from __future__ import annotations

import json
import math
import struct
import sys
from pathlib import Path

import numpy as np
import trimesh
import trimesh.creation as tc
from trimesh import transformations as tf

OUT = Path(__file__).resolve().parent

# Base footprints, inches (DD-1.7; game/data/bases.toml): (width across the front, depth front to back).
BASES = {"medium": (1.97, 1.26), "small": (1.26, 0.98)}
BASE_H = 0.08
BLOB = 0.22  # how far the soft shadow reaches past the base edge, inches
BLOB_ALPHA = 175  # its darkness at the base edge (0-255)
MAX_STAND_TRIANGLES = 3000

# Palette (RGB 0-255).
EARTH = (104, 84, 54)
EARTH_DARK = (78, 62, 40)
FLOCK = (76, 94, 40)
FLOCK_DRY = (118, 112, 58)
TUFT = ((112, 132, 50), (150, 146, 70), (92, 116, 42))
STONE = (128, 124, 116)
SKIN = (214, 170, 128)
SKIN_DARK = (172, 124, 86)
OLIVE = (82, 92, 50)          # OG-107 jungle fatigues
OLIVE_LIGHT = (108, 116, 70)  # faded boonie hat
HELMET = (74, 86, 48)         # M1 helmet cover
BAND = (34, 36, 28)           # the helmet's rubber band
ANZAC_GREEN = (66, 86, 58)
PUGGAREE = (140, 128, 92)
BLACK_PJ = (44, 44, 54)  # black, highlighted blue-grey as a painter would, so folds read
VC_GREY = (72, 74, 72)
NVA_KHAKI = (128, 124, 76)
NVA_HELMET = (112, 120, 72)
STRAW = (200, 176, 112)
STRAW_DARK = (160, 136, 80)
METAL = (40, 40, 44)
WOOD = (116, 72, 38)
WEB = (112, 106, 72)          # webbing and pouches
BOOT = (30, 26, 22)
HAIR = (24, 22, 20)
WHITE = (236, 236, 230)
RED = (196, 32, 28)
STAR = (220, 190, 40)
# The sides' colours (Okabe-Ito): the base edge, as on painted club stands.
SIDE_EDGE = {"allied": (0x56, 0xB4, 0xE9), "insurgent": (0xE6, 0x9F, 0x00)}


def _c(mesh: trimesh.Trimesh, rgb, smooth: bool = False, alpha: int = 255) -> trimesh.Trimesh:
    """Colour a part; unmerge its vertices for flat shading unless it is meant to look smooth."""
    mesh = mesh.copy()
    if not smooth:
        mesh.unmerge_vertices()
    rgba = np.array([*rgb, alpha], dtype=np.uint8)
    mesh.visual = trimesh.visual.ColorVisuals(mesh, vertex_colors=np.tile(rgba, (len(mesh.vertices), 1)))
    return mesh


def box(size, at, rgb, rot=None) -> trimesh.Trimesh:
    m = tc.box(extents=size)
    if rot is not None:
        m.apply_transform(rot)
    m.apply_translation(at)
    return _c(m, rgb)


def ball(r, at, rgb, scale=(1, 1, 1), subdivisions: int = 1) -> trimesh.Trimesh:
    m = tc.icosphere(subdivisions=subdivisions, radius=r)
    m.apply_scale(scale)
    m.apply_translation(at)
    return _c(m, rgb, smooth=True)


def cyl(r, h, at, rgb, sections=8, rot=None, top: float = 1.0) -> trimesh.Trimesh:
    """A cylinder standing on z (``top`` < 1 narrows its top into a frustum)."""
    m = tc.cylinder(radius=r, height=h, sections=sections)
    if top != 1.0:
        v = m.vertices.copy()
        up = v[:, 2] > 0
        v[up, :2] *= top
        m.vertices = v
    if rot is not None:
        m.apply_transform(rot)
    m.apply_translation(at)
    return _c(m, rgb)


def cone(r, h, at, rgb, sections=10) -> trimesh.Trimesh:
    m = tc.cone(radius=r, height=h, sections=sections)
    m.apply_translation(at)
    return _c(m, rgb)


def _open(m: trimesh.Trimesh) -> trimesh.Trimesh:
    """The mesh without its flat caps (faces facing straight up or down): for parts whose ends lie
    hidden inside another (a hat band round a crown, a grass blade in the flock)."""
    keep = np.abs(m.face_normals[:, 2]) < 0.999
    return trimesh.Trimesh(m.vertices, m.faces[keep], process=False)


def ring(r_in, r_out, h, at, rgb, sections=12) -> trimesh.Trimesh:
    """A band round something, ``r_out`` across: its outer wall only (the inside never shows)."""
    m = _open(tc.cylinder(radius=r_out, height=h, sections=sections))
    m.apply_translation(at)
    return _c(m, rgb)


def rot_z(deg):
    return tf.rotation_matrix(math.radians(deg), [0, 0, 1])


def rot_y(deg):
    return tf.rotation_matrix(math.radians(deg), [0, 1, 0])


def rot_x(deg):
    return tf.rotation_matrix(math.radians(deg), [1, 0, 0])


def moved(parts, matrix) -> list[trimesh.Trimesh]:
    out = []
    for p in parts:
        q = p.copy()
        q.apply_transform(matrix)
        out.append(q)
    return out


def place(parts, x=0.0, y=0.0, z=0.0, heading=0.0):
    """Turn a list of parts about z by ``heading`` degrees and move them to (x, y, z)."""
    return moved(parts, tf.translation_matrix([x, y, z]) @ rot_z(heading))


def frame(origin, along, hint=(0.0, 1.0, 0.0)) -> np.ndarray:
    """A 4x4 frame at ``origin`` whose x runs ``along``, y as near ``hint`` as it can, z = x × y."""
    d = np.asarray(along, float)
    d = d / np.linalg.norm(d)
    s = np.asarray(hint, float) - d * float(np.dot(hint, d))
    s = s / np.linalg.norm(s)
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = d, s, np.cross(d, s), origin
    return m


def limb(p0, p1, w, t, rgb, hint=(0.0, 1.0, 0.0), ends: bool = False) -> trimesh.Trimesh:
    """A box from point ``p0`` to ``p1``, ``w`` wide (toward ``hint``) and ``t`` thick; its ends are
    left open (they lie inside the joint or the part it meets) unless ``ends``."""
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    length = float(np.linalg.norm(p1 - p0))
    m = tc.box(extents=(length + 0.6 * min(w, t), w, t))  # a little long, so joints close
    if not ends:
        m = trimesh.Trimesh(m.vertices, m.faces[np.abs(m.face_normals[:, 0]) < 0.5], process=False)
    m.apply_transform(frame((p0 + p1) / 2, p1 - p0, hint))
    return _c(m, rgb)


def dome(r, at, rgb, scale=(1, 1, 1)) -> trimesh.Trimesh:
    """The top half of a ball (a helmet's shell): the lower half pressed flat onto the equator."""
    m = tc.icosphere(subdivisions=1, radius=r)
    v = m.vertices.copy()
    v[:, 2] = np.maximum(v[:, 2], 0.0)
    keep = ~np.all(v[m.faces][:, :, 2] <= 0.0, axis=1)  # the pressed half lies inside the head: drop it
    m = trimesh.Trimesh(v, m.faces[keep], process=False)
    m.apply_scale(scale)
    m.apply_translation(at)
    return _c(m, rgb, smooth=True)


# --- headgear: each builder takes the head's centre and dresses it ----------------------------------


def _m1(h):
    """The M1 helmet in its cloth cover, with the rubber band round it and a bottle tucked in."""
    x, y, z = h
    return [dome(0.068, (x - 0.004, y, z + 0.004), HELMET, scale=(1.08, 1.03, 0.86)),
            _c(_open(cyl(0.075, 0.012, (x - 0.004, y, z + 0.006), HELMET, sections=10, top=0.94)), HELMET),
            ring(0.062, 0.072, 0.012, (x - 0.004, y, z + 0.03), BAND, sections=10),
            box((0.014, 0.012, 0.03), (x - 0.01, y + 0.07, z + 0.036), WHITE)]


def _boonie(h):
    x, y, z = h
    return [cyl(0.056, 0.042, (x, y, z + 0.034), OLIVE_LIGHT, sections=10, top=0.86),
            _c(_open(cyl(0.102, 0.022, (x, y, z + 0.012), OLIVE_LIGHT, sections=12, top=0.58)), OLIVE_LIGHT)]


def _slouch(h):
    """The Australian bush hat: a wide brim pinned up on the left, a puggaree round the crown."""
    x, y, z = h
    brim = tc.cylinder(radius=0.12, height=0.008, sections=14)
    v = brim.vertices.copy()
    v[:, 2] += np.maximum(v[:, 1] - 0.045, 0.0) * 0.7
    brim.vertices = v
    brim.apply_translation((x, y, z + 0.014))
    return [cyl(0.058, 0.045, (x, y, z + 0.036), ANZAC_GREEN, sections=10, top=0.8),
            ring(0.056, 0.062, 0.014, (x, y, z + 0.024), PUGGAREE, sections=10), _c(brim, ANZAC_GREEN)]


def _conical(h):
    """The non la, the conical palm-leaf hat."""
    x, y, z = h
    return [_c(_open(cone(0.135, 0.08, (x, y, z + 0.014), STRAW, sections=12)), STRAW),
            ring(0.124, 0.136, 0.006, (x, y, z + 0.016), STRAW_DARK, sections=12)]


def _pith(h):
    """The NVA pith helmet: a tall rounded shell, a brim all round, a star badge."""
    x, y, z = h
    return [dome(0.066, (x, y, z + 0.006), NVA_HELMET, scale=(1.1, 1.0, 1.0)),
            _c(_open(cyl(0.086, 0.012, (x, y, z + 0.008), NVA_HELMET, sections=12, top=0.82)), NVA_HELMET),
            ball(0.012, (x, y, z + 0.07), NVA_HELMET, subdivisions=0),
            box((0.008, 0.022, 0.022), (x + 0.07, y, z + 0.032), STAR)]


def _cap(h):
    """An officer's soft peaked cap, badge in front."""
    x, y, z = h
    return [cyl(0.06, 0.032, (x - 0.005, y, z + 0.036), NVA_KHAKI, sections=10, top=1.06),
            box((0.04, 0.07, 0.006), (x + 0.06, y, z + 0.022), NVA_KHAKI, rot=rot_y(-12)),
            box((0.006, 0.018, 0.018), (x + 0.058, y, z + 0.04), STAR)]


def _bare(h):
    x, y, z = h
    return [dome(0.06, (x - 0.012, y, z + 0.004), HAIR, scale=(1.0, 1.0, 0.92))]


HEADGEAR = {"m1": _m1, "boonie": _boonie, "slouch": _slouch, "conical": _conical, "pith": _pith,
            "cap": _cap, "bare": _bare}

# --- weapons: built along +x with the firing hand's grip at the origin; (parts, fore-grip distance) -----

BRASS = (176, 146, 60)


def weapon_parts(kind: str) -> tuple[list[trimesh.Trimesh], float]:
    if kind in ("m16", "slr"):
        long_ = kind == "slr"
        furniture = WOOD if long_ else METAL
        return [box((0.10, 0.02, 0.035), (-0.075, 0, -0.005), furniture),
                box((0.13 if long_ else 0.12, 0.022, 0.034), (0.045, 0, 0.004), METAL),
                box((0.022, 0.016, 0.05 if long_ else 0.055), (0.055, 0, -0.035), METAL),
                box((0.10, 0.024, 0.024), (0.16, 0, 0.004), furniture),
                box((0.10 if long_ else 0.08, 0.008, 0.008), (0.25 if long_ else 0.24, 0, 0.006),
                     METAL)], 0.15
    if kind == "m79":
        return [box((0.10, 0.02, 0.035), (-0.06, 0, -0.005), WOOD),
                box((0.05, 0.02, 0.03), (0.02, 0, 0.004), METAL),
                box((0.13, 0.034, 0.034), (0.1, 0, 0.012), METAL)], 0.1
    if kind in ("m60", "rpd"):
        wood = kind == "rpd"
        parts = [box((0.11, 0.022, 0.04), (-0.08, 0, -0.004), WOOD if wood else METAL),
                 box((0.16, 0.03, 0.045), (0.05, 0, 0.004), METAL),
                 box((0.22, 0.012, 0.012), (0.24, 0, 0.01), METAL),
                 box((0.07, 0.026, 0.026), (0.16, 0, 0.008), WOOD if wood else METAL)]
        if wood:  # the RPD's drum under the receiver
            parts.append(cyl(0.032, 0.026, (0.04, 0, -0.036), METAL, sections=8, rot=rot_x(90)))
        else:  # the M60's belt hanging from the left
            parts.append(box((0.03, 0.012, 0.07), (0.04, 0.024, -0.04), BRASS))
        return parts, 0.16
    if kind == "ak":
        return [box((0.10, 0.02, 0.034), (-0.075, 0, -0.008), WOOD),
                box((0.12, 0.022, 0.032), (0.04, 0, 0.002), METAL),
                box((0.02, 0.016, 0.06), (0.068, 0, -0.04), METAL, rot=rot_y(-22)),  # the curved magazine
                box((0.08, 0.024, 0.026), (0.14, 0, 0.002), WOOD),
                box((0.09, 0.008, 0.008), (0.22, 0, 0.004), METAL)], 0.13
    if kind == "sks":
        return [box((0.34, 0.022, 0.03), (0.02, 0, -0.002), WOOD),
                box((0.09, 0.008, 0.008), (0.23, 0, 0.008), METAL),
                box((0.10, 0.004, 0.006), (0.2, 0, -0.016), (150, 150, 150))], 0.12
    if kind == "scoped":
        return [box((0.42, 0.022, 0.032), (0.03, 0, -0.002), WOOD),
                box((0.08, 0.008, 0.008), (0.27, 0, 0.006), METAL),
                cyl(0.012, 0.11, (0.04, 0, 0.032), METAL, sections=6, rot=rot_y(90))], 0.14
    if kind == "pistol":
        return [box((0.05, 0.014, 0.026), (0.02, 0, 0.006), METAL),
                box((0.014, 0.014, 0.03), (0.0, 0, -0.012), METAL)], 0.0
    if kind == "satchel":
        return [box((0.08, 0.05, 0.07), (0.03, 0, -0.04), WEB),
                box((0.01, 0.01, 0.05), (0.0, 0, -0.0), WEB)], 0.0
    if kind == "map":
        return [box((0.09, 0.12, 0.008), (0.04, 0.04, 0), WHITE, rot=rot_y(-10))], 0.0
    if kind in ("rpg2", "rpg7"):
        return _launcher(kind == "rpg7"), 0.1
    if kind == "detector":  # the AN/PRS-4 mine detector: a pole swept low, its search head flat on a yoke
        return [box((0.05, 0.018, 0.02), (0.0, 0, 0.0), METAL),
                limb((0.02, 0, 0), (0.44, 0, 0), 0.012, 0.012, OLIVE_LIGHT),
                box((0.05, 0.03, 0.03), (0.12, 0, -0.018), (62, 70, 44)),                # the amplifier
                cyl(0.07, 0.012, (0.47, 0, 0.0), (62, 70, 44), sections=10, rot=rot_y(-40))], 0.14
    return [], 0.0


def _launcher(rpg7: bool) -> list[trimesh.Trimesh]:
    """An RPG on the shoulder: the tube along +x over the firing hand (the grip under it), the warhead
    in front. The RPG-2 (B-40) is a plain 40 mm tube with a smaller round head; the RPG-7 (B-41) has a
    flared venturi at the back, a wooden heat guard, the optical sight, and the long-nosed PG-7 warhead."""
    tube_z, olive = 0.045, (72, 80, 52)
    parts = [cyl(0.017, 0.36, (0.0, 0, tube_z), olive if not rpg7 else METAL, sections=8, rot=rot_y(90)), box((0.018, 0.014, 0.05), (0.0, 0, 0.018), METAL),                    # the pistol grip
             box((0.016, 0.014, 0.04), (0.1, 0, 0.022), METAL)]                           # the fore-grip
    head_x = 0.18
    if rpg7:
        parts += [cyl(0.03, 0.05, (-0.19, 0, tube_z), METAL, sections=8, rot=rot_y(90), top=0.55),  # venturi
                  cyl(0.024, 0.1, (0.02, 0, tube_z), WOOD, sections=8, rot=rot_y(90)),   # the heat guard
                  box((0.04, 0.012, 0.028), (0.0, 0.03, tube_z + 0.025), METAL),          # PGO-7 sight
                  cyl(0.034, 0.05, (head_x + 0.025, 0, tube_z), olive, sections=8, rot=rot_y(90)),
                  cyl(0.034, 0.09, (head_x + 0.095, 0, tube_z), olive, sections=8, rot=rot_y(90), top=0.25)]
    else:
        parts += [cyl(0.022, 0.08, (0.02, 0, tube_z), WOOD, sections=8, rot=rot_y(90)),
                  ball(0.034, (head_x + 0.03, 0, tube_z), olive, scale=(1.5, 1, 1), subdivisions=1)]
    return parts


def aimed(kind: str, grip, yaw: float = 0.0, pitch: float = 0.0):
    """A weapon with its grip at ``grip``, turned ``yaw`` degrees left and ``pitch`` up; and where the
    off hand holds it."""
    parts, fore = weapon_parts(kind)
    m = tf.translation_matrix(grip) @ rot_z(yaw) @ rot_y(-pitch)
    return moved(parts, m), (m @ np.array([fore, 0, 0.0, 1]))[:3]


# --- figures -------------------------------------------------------------------------------------

# Legs by pose: pelvis height, forward lean of the spine (degrees), and (knee, foot) for the left (+y)
# and the right (-y) leg, in the figure's frame (facing +x, feet at z = 0).
LEGS = {
    "walk": (0.31, 6, [((0.05, 0.045, 0.16), (0.10, 0.045, 0.0)),
                       ((-0.02, -0.045, 0.16), (-0.09, -0.045, 0.01))]),
    "stand": (0.32, 3, [((0.03, 0.055, 0.16), (0.06, 0.065, 0.0)),
                        ((-0.02, -0.05, 0.16), (-0.06, -0.065, 0.0))]),
    "kneel": (0.19, 8, [((0.15, 0.05, 0.16), (0.15, 0.05, 0.0)),
                        ((0.02, -0.05, 0.025), (-0.15, -0.05, 0.015))]),
    "crouch": (0.24, 26, [((0.12, 0.05, 0.14), (0.08, 0.06, 0.0)),
                          ((0.04, -0.05, 0.12), (-0.10, -0.06, 0.0))]),
}


class Dress:
    """What a figure wears: shirt, trousers, skin, footwear, webbing, and whether he wears a chest rig."""

    def __init__(self, shirt, trousers=None, skin=SKIN, feet=BOOT, web=WEB, chest_rig=False):
        self.shirt, self.trousers, self.skin = shirt, trousers or shirt, skin
        self.feet, self.web, self.chest_rig = feet, web, chest_rig


US = Dress(OLIVE)
ANZAC = Dress(ANZAC_GREEN)
VC = Dress(BLACK_PJ, skin=SKIN_DARK, feet=HAIR, web=(96, 90, 60), chest_rig=True)
NVA = Dress(NVA_KHAKI, skin=SKIN_DARK, feet=(70, 74, 50), web=(98, 96, 62), chest_rig=True)


def _arm(shoulder, elbow, hand, dress: Dress, band=None) -> list[trimesh.Trimesh]:
    parts = [limb(shoulder, elbow, 0.046, 0.046, dress.shirt), limb(elbow, hand, 0.04, 0.04, dress.shirt),
             box((0.032, 0.03, 0.03), hand, dress.skin)]
    if band is not None:  # an armband on the upper arm
        mid = (np.asarray(shoulder) + np.asarray(elbow)) / 2
        parts.append(limb(mid - (0, 0, 0.012), mid + (0, 0, 0.012), 0.054, 0.054, band))
    return parts


def _kit(kind: str, dress: Dress) -> list[trimesh.Trimesh]:
    """Kit in the torso's frame: x up the spine, y to the left, z out of the back (-z: the chest)."""
    parts = [box((0.035, 0.17, 0.11), (0.025, 0, 0), dress.web),                   # belt
             box((0.04, 0.13, 0.03), (0.03, 0, -0.065), dress.web)]                # ammunition pouches
    if dress.chest_rig:
        parts.append(box((0.07, 0.14, 0.028), (0.14, 0, -0.062), dress.web))
    if kind == "pack":  # a rucksack with a poncho roll on top
        parts += [box((0.13, 0.13, 0.07), (0.14, 0, 0.085), dress.web),
                  box((0.045, 0.15, 0.05), (0.22, 0, 0.08), OLIVE_LIGHT)]
    elif kind == "radio":  # a PRC-25 on its frame with the whip antenna
        parts += [box((0.15, 0.11, 0.075), (0.12, 0, 0.088), (62, 70, 44)),
                  limb((0.2, -0.04, 0.1), (0.62, -0.06, 0.12), 0.007, 0.007, METAL)]
    elif kind == "medic":  # the aid bag with its red cross
        parts += [box((0.11, 0.12, 0.065), (0.13, 0, 0.085), OLIVE_LIGHT),
                  box((0.066, 0.02, 0.006), (0.13, 0, 0.12), RED),
                  box((0.02, 0.066, 0.006), (0.13, 0, 0.12), RED)]
    elif kind == "light":  # a small pack
        parts.append(box((0.1, 0.11, 0.055), (0.14, 0, 0.075), dress.web))
    elif kind == "rockets":  # the RPG loader's back-pack: three spare rounds, warheads up over the shoulders
        parts.append(box((0.13, 0.14, 0.06), (0.13, 0, 0.08), dress.web))
        for y in (-0.045, 0.0, 0.045):
            parts += [cyl(0.012, 0.12, (0.2, y, 0.09), METAL, sections=6, rot=rot_y(90)),
                      ball(0.03, (0.29, y, 0.09), (72, 80, 52), scale=(1.6, 1, 1), subdivisions=0)]
    elif kind == "engineer":  # a rucksack with the entrenching tool strapped on and a coil of det cord
        parts += [box((0.13, 0.13, 0.07), (0.14, 0, 0.085), dress.web),
                  limb((0.06, 0.05, 0.13), (0.3, 0.05, 0.13), 0.014, 0.014, WOOD),
                  box((0.06, 0.05, 0.01), (0.06, 0.05, 0.13), METAL),
                  ring(0.03, 0.04, 0.02, (0.12, -0.07, 0.09), (200, 190, 150), sections=8)]
    return parts


def figure(pose: str, dress: Dress, headgear: str, weapon: str = "m16", hold: str = "aim",
           kit: str = "") -> list[trimesh.Trimesh]:
    """One 15mm figure facing +x, feet at z = 0.

    pose: walk | stand | kneel | crouch | prone. hold: aim (at the shoulder; an RPG on it) | low (ready,
    muzzle down) | hip (a machine gun from the hip) | point (the off arm points ahead: a leader) | map |
    phone (the handset at the ear) | sweep (a mine detector swept low) | none."""
    if pose == "prone":
        return _prone(dress, headgear, weapon, kit)
    pz, lean, legs = LEGS[pose]
    spine = np.array([math.sin(math.radians(lean)), 0.0, math.cos(math.radians(lean))])
    pelvis = np.array([0.0, 0.0, pz])
    neck = pelvis + spine * 0.23
    head = neck + (0.012, 0, 0.066)
    parts: list[trimesh.Trimesh] = []
    for (knee, foot), side in zip(legs, (1, -1), strict=True):
        hip = pelvis + (0, 0.045 * side, 0)
        parts += [limb(hip, knee, 0.062, 0.066, dress.trousers),
                  limb(knee, foot, 0.052, 0.056, dress.trousers),
                  box((0.085, 0.05, 0.035), np.asarray(foot) + (0.025, 0, 0.017), dress.feet)]
    parts.append(limb(pelvis, neck - spine * 0.03, 0.16, 0.1, dress.shirt, ends=True))  # ends at the neck
    torso = frame(pelvis, spine)
    parts += moved(_kit(kit, dress), torso)
    parts += [limb(neck - spine * 0.01, head - (0, 0, 0.03), 0.04, 0.04, dress.skin),
              ball(0.054, head, dress.skin, subdivisions=0)]
    parts += HEADGEAR[headgear](head)
    if kit == "medic":  # a red cross on white on the helmet's front, to find the medic across the table
        parts += [box((0.008, 0.05, 0.04), head + (0.072, 0, 0.028), WHITE),
                  box((0.01, 0.036, 0.012), head + (0.075, 0, 0.028), RED),
                  box((0.01, 0.012, 0.032), head + (0.075, 0, 0.028), RED)]
    sl, sr = neck - spine * 0.035 + (0, 0.085, 0), neck - spine * 0.035 + (0, -0.085, 0)
    band = WHITE if kit == "medic" else None
    if hold == "aim":
        grip = neck + (0.085, -0.035, -0.045)
        w, fore = aimed(weapon, grip)
        parts += w + _arm(sr, sr + (0.02, -0.05, -0.08), grip, dress)
        parts += _arm(sl, (sl + fore) / 2 + (0, -0.01, -0.07), fore, dress, band)
    elif hold in ("low", "hip"):
        grip = neck + ((0.1, -0.06, -0.17) if hold == "hip" else (0.09, -0.04, -0.12))
        w, fore = aimed(weapon, grip, yaw=8 if hold == "hip" else 22, pitch=4 if hold == "hip" else -22)
        parts += w + _arm(sr, sr + (0.0, -0.03, -0.12), grip, dress)
        parts += _arm(sl, (sl + fore) / 2 + (-0.02, 0.03, -0.04), fore, dress, band)
    elif hold == "point":  # the off arm points the way; the weapon hand held low
        hand = sl + (0.2, 0.04, 0.06)
        parts += _arm(sl, (sl + hand) / 2 + (0, 0.01, -0.01), hand, dress, band)
        grip = sr + (0.08, -0.02, -0.16)
        w, _ = aimed(weapon, grip, yaw=0, pitch=-60 if weapon != "pistol" else 10)
        parts += w + _arm(sr, sr + (0.02, -0.02, -0.12), grip, dress)
    elif hold == "sweep":  # a mine detector swept low ahead, both hands on its pole
        grip = neck + (0.1, -0.06, -0.16)
        w, fore = aimed(weapon, grip, yaw=6, pitch=-40)
        parts += w + _arm(sr, sr + (0.0, -0.03, -0.12), grip, dress)
        parts += _arm(sl, (sl + fore) / 2 + (-0.02, 0.03, -0.04), fore, dress, band)
    elif hold == "map":
        grip = neck + (0.12, -0.04, -0.1)
        w, _ = aimed("map", grip, yaw=10)
        parts += w + _arm(sr, sr + (0.04, -0.03, -0.1), grip, dress)
        parts += _arm(sl, sl + (0.05, 0.02, -0.1), grip + (0, 0.09, 0), dress, band)
    elif hold == "phone":  # the radio handset to the ear, the rifle hanging from the other hand
        ear = head + (-0.005, 0.055, -0.01)
        parts += _arm(sl, sl + (0.04, 0.05, -0.1), ear, dress, band)
        parts.append(box((0.02, 0.02, 0.06), ear + (0.01, 0.015, 0), METAL))
        grip = sr + (0.06, -0.02, -0.2)
        w, _ = aimed(weapon, grip, pitch=-70)
        parts += w + _arm(sr, sr + (0.02, -0.02, -0.11), grip, dress)
    else:
        for s, side in ((sl, 1), (sr, -1)):
            parts += _arm(s, s + (0.0, 0.01 * side, -0.12), s + (0.03, 0.01 * side, -0.22), dress, None)
    return parts


def _prone(dress: Dress, headgear: str, weapon: str, kit: str) -> list[trimesh.Trimesh]:
    """Lying on the belly, weapon aimed, on its bipod if it has one."""
    pelvis, neck = np.array([0.0, 0, 0.05]), np.array([0.24, 0, 0.075])
    head = neck + (0.06, 0, 0.048)
    parts: list[trimesh.Trimesh] = []
    for side in (1, -1):
        hip, knee, foot = (0, 0.045 * side, 0.045), (-0.16, 0.06 * side, 0.035), (-0.32, 0.085 * side, 0.035)
        parts += [limb(hip, knee, 0.062, 0.062, dress.trousers),
                  limb(knee, foot, 0.052, 0.052, dress.trousers),
                  box((0.03, 0.05, 0.07), np.asarray(foot) + (-0.02, 0, 0.02), dress.feet)]
    spine = neck - pelvis
    parts.append(limb(pelvis - spine * 0.1, neck, 0.16, 0.09, dress.shirt, ends=True))
    parts += moved(_kit(kit, dress), frame(pelvis, spine))
    parts += [ball(0.052, head, dress.skin, subdivisions=0)] + HEADGEAR[headgear](head)
    if weapon:
        grip = neck + (0.05, -0.035, 0.0)
        w, fore = aimed(weapon, grip, pitch=2)
        parts += w
        if weapon in ("m60", "rpd"):  # the bipod legs
            tip = grip + (0.27, 0, 0)
            parts += [limb(tip, tip + (0.02, 0.04, -0.08), 0.008, 0.008, METAL),
                      limb(tip, tip + (0.02, -0.04, -0.08), 0.008, 0.008, METAL)]
        for s, hand, side in ((neck + (-0.02, 0.08, 0), fore, 1), (neck + (-0.02, -0.08, 0), grip, -1)):
            elbow = (s + hand) / 2 + (0, 0.04 * side, -0.04)
            elbow[2] = 0.03
            parts += _arm(s, elbow, hand, dress)
    else:  # a wounded man, arms by his sides
        for side in (1, -1):
            s = neck + (-0.02, 0.08 * side, 0)
            parts += _arm(s, s + (-0.1, 0.02 * side, -0.02), s + (-0.2, 0.03 * side, -0.03), dress)
    return parts


# --- bases ---------------------------------------------------------------------------------------


def _rounded_rect(hx: float, hy: float, r: float, k: int = 4) -> np.ndarray:
    """Points round a rectangle of half-sizes (hx, hy) with corners of radius ``r``, counter-clockwise."""
    pts = []
    for i, (cx, cy) in enumerate(((hx - r, hy - r), (-hx + r, hy - r),
                                     (-hx + r, -hy + r), (hx - r, -hy + r))):
        for j in range(k + 1):
            a = math.pi / 2 * (i + j / k)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts)


def blob_shadow(size: str) -> trimesh.Trimesh:
    """The soft shadow a stand throws on the table: a dark rounded rectangle under the base whose alpha
    falls to nothing ``BLOB`` inches past its edge (three rings, so the falloff is soft, not linear)."""
    w, d = BASES[size]
    rings = [(0.0, BLOB_ALPHA), (0.4, int(BLOB_ALPHA * 0.38)), (1.0, 0)]
    hx, hy = d / 2 - 0.03, w / 2 - 0.03
    loops = [_rounded_rect(hx + t * BLOB, hy + t * BLOB, 0.05 + t * BLOB, 2) for t, _ in rings]
    n = len(loops[0])
    verts = [(0.0, 0.0)] + [tuple(p) for loop in loops for p in loop]
    alpha = [BLOB_ALPHA] + [a for _, a in rings for _ in range(n)]
    faces = [(0, 1 + i, 1 + (i + 1) % n) for i in range(n)]
    for r in range(len(loops) - 1):
        a0, b0 = 1 + r * n, 1 + (r + 1) * n
        for i in range(n):
            j = (i + 1) % n
            faces += [(a0 + i, b0 + i, b0 + j), (a0 + i, b0 + j, a0 + j)]
    v = np.array([(x, y, 0.012) for x, y in verts])
    m = trimesh.Trimesh(v, np.array(faces), process=False)
    colors = np.zeros((len(v), 4), dtype=np.uint8)
    colors[:, 3] = alpha
    m.visual = trimesh.visual.ColorVisuals(m, vertex_colors=colors)
    return m


def _noise(rng, xy: np.ndarray, octaves: int = 3) -> np.ndarray:
    """Smooth seeded noise in [0, 1] over points: a few random plane waves (enough for a 2" base)."""
    total = np.zeros(len(xy))
    for o in range(octaves):
        for _ in range(3):
            k = rng.normal(size=2) * (3.0 * 2 ** o)
            total += np.sin(xy @ k + rng.uniform(0, 2 * math.pi)) / 2 ** o
    return 0.5 + 0.5 * total / (3 * 1.75)


def _tuft(rng, at, rgb) -> list[trimesh.Trimesh]:
    """A static-grass tuft: a few thin blades splayed from one point."""
    blades = []
    for _ in range(3):
        b = _open(tc.cone(radius=0.012, height=rng.uniform(0.07, 0.12), sections=3))
        b.apply_transform(rot_z(rng.uniform(0, 360)) @ rot_y(rng.uniform(10, 35)))
        b.apply_translation(at)
        blades.append(_c(b, rgb))
    return blades


def base(size: str, side: str, seed: int) -> list[trimesh.Trimesh]:
    """A base as a club player finishes one: earth with patches of flock, tufts of static grass and a
    stone, the edge painted in the side's colour. Width runs along y (the front), depth along x."""
    from shapely.geometry import Polygon

    w, d = BASES[size]
    rng = np.random.default_rng(seed)
    body = tc.extrude_polygon(Polygon(_rounded_rect(d / 2, w / 2, 0.05, 2)), BASE_H - 0.012)
    body.unmerge_vertices()
    up = np.repeat(np.abs(body.face_normals[:, 2]) > 0.5, 3)
    colors = np.tile(np.array([*SIDE_EDGE[side], 255], np.uint8), (len(body.vertices), 1))
    colors[up] = (*EARTH_DARK, 255)
    body.visual = trimesh.visual.ColorVisuals(body, vertex_colors=colors)
    # the ground work: a gently lumpy sheet, earth showing through flock
    nx, ny = (6, 9) if size == "medium" else (5, 6)
    gx, gy = np.meshgrid(np.linspace(-d / 2 + 0.045, d / 2 - 0.045, nx),
                         np.linspace(-w / 2 + 0.045, w / 2 - 0.045, ny))
    xy = np.column_stack([gx.ravel(), gy.ravel()])
    edge = (np.abs(gx.ravel()) >= d / 2 - 0.046) | (np.abs(gy.ravel()) >= w / 2 - 0.046)
    lump = _noise(rng, xy)
    z = np.where(edge, BASE_H - 0.012, BASE_H + 0.014 * lump)
    faces = []
    for j in range(ny - 1):
        for i in range(nx - 1):
            a = j * nx + i
            faces += [(a, a + 1, a + nx + 1), (a, a + nx + 1, a + nx)]
    top = trimesh.Trimesh(np.column_stack([xy, z]), np.array(faces), process=False)
    flock = _noise(rng, xy * 1.3)
    mix = np.clip((flock - 0.42) * 4.0, 0, 1)[:, None]
    dry = np.clip((lump - 0.55) * 3.0, 0, 1)[:, None]
    rgb = (1 - mix) * np.array(EARTH) + mix * ((1 - dry) * np.array(FLOCK) + dry * np.array(FLOCK_DRY))
    top.visual = trimesh.visual.ColorVisuals(top, vertex_colors=np.column_stack(
        [rgb.astype(np.uint8), np.full(len(xy), 255, np.uint8)]))
    parts = [blob_shadow(size), body, top]
    for _ in range(6 if size == "medium" else 4):
        at = (rng.uniform(-d / 2 + 0.1, d / 2 - 0.1), rng.uniform(-w / 2 + 0.1, w / 2 - 0.1), BASE_H)
        parts += _tuft(rng, at, TUFT[int(rng.integers(len(TUFT)))])
    sx, sy = rng.uniform(-d / 2 + 0.12, d / 2 - 0.12), rng.uniform(-w / 2 + 0.12, w / 2 - 0.12)
    parts.append(ball(0.05, (sx, sy, BASE_H), STONE, scale=(1.2, 0.9, 0.55), subdivisions=0))
    return parts


def weld(mesh: trimesh.Trimesh) -> trimesh.Trimesh:
    """One vertex for each corner that shares its place, normal and colour with another: a flat box
    keeps its hard edges with 24 vertices instead of 36, which the software renderer feels (its cost
    goes with vertices more than with pixels at a stand's size)."""
    corners = mesh.faces.reshape(-1)
    pos = mesh.vertices[corners]
    normal = np.repeat(mesh.face_normals, 3, axis=0)
    summed = np.zeros_like(mesh.vertices)
    np.add.at(summed, mesh.faces, mesh.face_normals[:, None, :])  # smooth parts: the faces' mean
    smooth = (summed / np.maximum(np.linalg.norm(summed, axis=1, keepdims=True), 1e-9))[corners]
    flat = np.repeat(_flat_faces(mesh), 3)
    normal = np.where(flat[:, None], normal, smooth)
    color = mesh.visual.vertex_colors[corners]
    key = np.column_stack([np.round(pos, 5), np.round(normal, 3), color])
    _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
    out = trimesh.Trimesh(pos[first], inverse.reshape(-1, 3), vertex_normals=normal[first], process=False)
    out.visual = trimesh.visual.ColorVisuals(out, vertex_colors=color[first])
    return out


def _flat_faces(mesh: trimesh.Trimesh) -> np.ndarray:
    """Which faces are flat-shaded: those whose corners are theirs alone (the parts were unmerged)."""
    counts = np.bincount(mesh.faces.reshape(-1), minlength=len(mesh.vertices))
    return np.all(counts[mesh.faces] == 1, axis=1)


def stand(size: str, side: str, figures: list[list[trimesh.Trimesh]], seed: int) -> trimesh.Trimesh:
    """The base (its shadow first: the client blends the mesh in order) with the figures on it."""
    parts = base(size, side, 1000 + seed)
    for f in figures:
        parts += moved(f, tf.translation_matrix((0, 0, BASE_H)))
    return weld(trimesh.util.concatenate(parts))


def team(size: str, side: str, specs, seed: int) -> trimesh.Trimesh:
    """specs: (x, y, heading, figure parts) each, x toward the front, y across it; each figure is jittered
    a little in place and heading by a fixed seed, so no two stands of a kind stand quite alike."""
    rng = np.random.default_rng(seed)
    figs = [place(parts, x + rng.uniform(-0.025, 0.025), y + rng.uniform(-0.025, 0.025), 0,
                  h + rng.uniform(-9, 9))
            for x, y, h, parts in specs]
    return stand(size, side, figs, seed)


def stand_models() -> dict[str, trimesh.Trimesh]:
    """Every stand model by key (game/data/stands.toml names them), figures laid out across the front."""
    F = figure
    A, V = "allied", "insurgent"
    m = {}
    m["us_rifle_team"] = team("medium", A, [
        (0.2, 0.6, 8, F("walk", US, "m1", "m16", "low", "pack")),
        (0.22, -0.05, -6, F("kneel", US, "m1", "m16", "aim", "pack")),
        (-0.22, 0.2, 12, F("walk", US, "boonie", "m79", "low", "light")),
        (-0.18, -0.6, -4, F("stand", US, "m1", "m16", "aim", "pack"))], 1)
    m["us_mg_team"] = team("medium", A, [
        (0.12, 0.3, 0, F("prone", US, "m1", "m60", kit="light")),
        (0.05, -0.35, -15, F("kneel", US, "m1", "m16", "aim", "pack")),
        (-0.3, 0.55, 10, F("walk", US, "boonie", "", "none", "pack"))], 2)
    m["us_officer"] = team("small", A, [
        (0.15, 0.2, 0, F("stand", US, "m1", "m16", "point", "light")),
        (-0.18, -0.25, 20, F("kneel", US, "m1", "m16", "phone", "radio"))], 3)
    m["us_squad_leader"] = team("small", A, [
        (0.12, 0.18, 0, F("walk", US, "boonie", "m16", "point", "pack")),
        (-0.15, -0.28, 10, F("kneel", US, "m1", "m16", "aim", "pack"))], 4)
    m["us_rto"] = team("small", A, [
        (0.1, 0.2, 0, F("stand", US, "m1", "m16", "phone", "radio")),
        (-0.15, -0.28, 10, F("kneel", US, "m1", "m16", "aim", "pack"))], 5)
    m["us_medic"] = team("small", A, [
        (0.2, -0.1, 170, F("kneel", US, "m1", "", "none", "medic")),
        (-0.05, 0.25, -80, F("prone", US, "bare", ""))], 6)
    m["us_scout"] = team("small", A, [
        (0.2, 0.2, 0, F("crouch", US, "boonie", "m16", "low", "light")),
        (-0.15, -0.25, 10, F("walk", US, "boonie", "m16", "low", "light"))], 7)
    m["us_sniper"] = team("small", A, [
        (0.1, 0.25, 0, F("prone", US, "boonie", "scoped")),
        (-0.1, -0.25, 0, F("kneel", US, "boonie", "m16", "map", "light"))], 8)
    m["anzac_rifle_team"] = team("medium", A, [
        (0.2, 0.6, 5, F("walk", ANZAC, "slouch", "slr", "low", "pack")),
        (0.22, -0.05, -8, F("kneel", ANZAC, "slouch", "slr", "aim", "pack")),
        (-0.2, 0.2, 10, F("walk", ANZAC, "slouch", "m60", "hip", "light")),
        (-0.2, -0.6, 0, F("crouch", ANZAC, "slouch", "slr", "low", "pack"))], 9)
    m["vc_rifle_cell"] = team("medium", V, [
        (0.2, 0.5, 0, F("walk", VC, "conical", "ak", "low")),
        (0.2, -0.2, -10, F("crouch", VC, "conical", "ak", "low")),
        (-0.2, 0.05, 15, F("kneel", VC, "bare", "sks", "aim"))], 10)
    grey = Dress(VC_GREY, BLACK_PJ, skin=SKIN_DARK, feet=HAIR, web=(96, 90, 60))
    m["vc_militia_cell"] = team("medium", V, [
        (0.2, 0.5, 0, F("walk", grey, "conical", "sks", "low")),
        (0.15, -0.25, -12, F("crouch", VC, "bare", "sks", "low")),
        (-0.25, 0.1, 8, F("stand", grey, "conical", "scoped", "aim"))], 11)
    m["vc_rpd_team"] = team("medium", V, [
        (0.12, 0.25, 0, F("prone", VC, "conical", "rpd")),
        (-0.05, -0.4, 10, F("crouch", VC, "conical", "ak", "low")),
        (-0.3, 0.6, 0, F("kneel", VC, "bare", "sks", "aim"))], 12)
    m["vc_sniper"] = team("small", V, [(0.1, 0.0, 0, F("prone", VC, "bare", "scoped"))], 13)
    cadre = Dress(NVA_KHAKI, BLACK_PJ, skin=SKIN_DARK, feet=HAIR, web=(98, 96, 62))
    m["vc_cadre"] = team("small", V, [
        (0.15, 0.2, 0, F("stand", cadre, "pith", "pistol", "point")),
        (-0.15, -0.25, 15, F("kneel", VC, "conical", "ak", "aim"))], 14)
    m["vc_sapper_cell"] = team("medium", V, [
        (0.2, 0.5, 0, F("crouch", VC, "bare", "satchel", "low")),
        (0.1, -0.2, -8, F("prone", VC, "bare", "ak")),
        (-0.25, 0.1, 12, F("crouch", VC, "bare", "ak", "low"))], 15)
    m["nva_rifle_team"] = team("medium", V, [
        (0.2, 0.6, 5, F("walk", NVA, "pith", "ak", "low", "light")),
        (0.22, -0.05, -10, F("kneel", NVA, "pith", "ak", "aim", "light")),
        (-0.2, 0.22, 12, F("stand", NVA, "pith", "sks", "aim", "light")),
        (-0.2, -0.6, 4, F("crouch", NVA, "pith", "ak", "low", "light"))], 16)
    m["nva_mg_team"] = team("medium", V, [
        (0.12, 0.3, 0, F("prone", NVA, "pith", "rpd", kit="light")),
        (0.05, -0.35, -12, F("kneel", NVA, "pith", "ak", "aim", "light")),
        (-0.3, 0.55, 10, F("walk", NVA, "pith", "ak", "low", "pack"))], 17)
    m["nva_officer"] = team("small", V, [
        (0.15, 0.2, 0, F("stand", NVA, "cap", "pistol", "point")),
        (-0.15, -0.25, 15, F("kneel", NVA, "pith", "ak", "aim", "light"))], 18)
    # anti-tank teams (G-20): the gunner with the launcher on his shoulder, the loader with the spare rounds
    m["vc_rpg_team"] = team("medium", V, [
        (0.18, 0.3, 0, F("kneel", VC, "bare", "rpg2", "aim")),
        (-0.12, -0.35, 15, F("crouch", VC, "conical", "ak", "low", "rockets")),
        (-0.3, 0.62, 5, F("kneel", VC, "conical", "sks", "aim"))], 19)
    m["nva_rpg_team"] = team("medium", V, [
        (0.18, 0.3, 0, F("kneel", NVA, "pith", "rpg7", "aim", "light")),
        (-0.12, -0.35, 12, F("crouch", NVA, "pith", "ak", "low", "rockets")),
        (-0.3, 0.62, 6, F("stand", NVA, "pith", "ak", "aim", "light"))], 20)
    # combat engineers (DD-9A.10): the sweep with his detector, a man laying a charge, two covering
    m["us_engineer_team"] = team("medium", A, [
        (0.16, 0.35, 0, F("walk", US, "boonie", "detector", "sweep", "light")),
        (0.15, -0.4, -10, F("kneel", US, "m1", "satchel", "low", "engineer")),
        (-0.22, 0.05, 10, F("stand", US, "m1", "m16", "aim", "engineer")),
        (-0.25, -0.7, -5, F("walk", US, "m1", "m16", "low", "pack"))], 21)
    # a Tunnel Rat (TUN-15, DD-9B.6): bare-headed, stripped of his pack, pistol and flashlight at the hatch
    m["us_tunnel_rat"] = team("small", A, [
        (0.12, 0.15, 0, F("crouch", US, "bare", "pistol", "aim", "light")),
        (-0.15, -0.25, 15, F("kneel", US, "bare", "pistol", "low", "light"))], 22)
    return m


# --- markers -------------------------------------------------------------------------------------


def marker_models() -> dict[str, trimesh.Trimesh]:
    """Rules markers, each sized in inches. The client scales rings to the base they surround."""
    m: dict[str, trimesh.Trimesh] = {}
    # Pinned (DD-5): a red octagonal counter with a white downward chevron, standing on a short post.
    oct_ = cyl(0.22, 0.05, (0, 0, 0.025), RED, sections=8)
    chev = [box((0.2, 0.05, 0.02), (-0.05, 0.05, 0.06), WHITE, rot=rot_z(45)),
            box((0.2, 0.05, 0.02), (-0.05, -0.05, 0.06), WHITE, rot=rot_z(-45))]
    m["pinned"] = trimesh.util.concatenate([oct_, *chev])
    # Casualty ring: a ring of unit inner size; the client scales it to the base.
    ring = tc.annulus(r_min=0.5, r_max=0.58, height=0.03, sections=32)
    ring.apply_translation((0, 0, 0.015))
    m["casualty_ring"] = _c(ring, RED)
    # Casualty token: a small black disc with a red cross.
    m["casualty_token"] = trimesh.util.concatenate([
        cyl(0.16, 0.04, (0, 0, 0.02), (20, 20, 20), sections=12),
        box((0.2, 0.05, 0.015), (0, 0, 0.045), RED), box((0.05, 0.2, 0.015), (0, 0, 0.045), RED)])
    # Blind: a 1.5" disc with a raised rim; the client prints a "?" over it.
    disc = cyl(0.75, 0.06, (0, 0, 0.03), (46, 58, 40), sections=24)
    rim = tc.annulus(r_min=0.66, r_max=0.75, height=0.03, sections=24)
    rim.apply_translation((0, 0, 0.075))
    m["blind"] = trimesh.util.concatenate([disc, _c(rim, (170, 150, 90))])
    # Echo chit: a small square chit, bevelled.
    m["echo"] = trimesh.util.concatenate([box((0.6, 0.6, 0.05), (0, 0, 0.025), (150, 140, 120)),
                                          box((0.4, 0.4, 0.02), (0, 0, 0.06), (90, 84, 70))])
    # Overwatch: an eye-shaped lozenge token; the client draws the arc.
    lz = cyl(0.22, 0.05, (0, 0, 0.025), (40, 110, 200), sections=12)
    lz.apply_scale((1.4, 0.8, 1))
    m["overwatch"] = trimesh.util.concatenate([lz, cyl(0.07, 0.03, (0, 0, 0.06), WHITE, sections=10)])
    # Winded: a blue hexagonal counter.
    m["winded"] = trimesh.util.concatenate([cyl(0.2, 0.05, (0, 0, 0.025), (70, 150, 220), sections=6),
                                            cyl(0.1, 0.02, (0, 0, 0.06), WHITE, sections=6)])
    # Low ammo: an ammunition box, yellow lid.
    m["low_ammo"] = trimesh.util.concatenate([box((0.32, 0.18, 0.16), (0, 0, 0.08), OLIVE),
                                              box((0.33, 0.19, 0.03), (0, 0, 0.17), (230, 190, 40))])
    # Smoke: a puffy cluster of balls, 2" across.
    rng = np.random.default_rng(42)
    puffs = []
    for _ in range(9):
        r = rng.uniform(0.35, 0.6)
        puffs.append(ball(r, (rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), rng.uniform(0.3, 1.0)),
                          (225, 225, 220)))
    m["smoke"] = trimesh.util.concatenate(puffs)
    # Target marker: a crosshair ring with the delay die socket.
    tr = tc.annulus(r_min=0.42, r_max=0.5, height=0.03, sections=24)
    tr.apply_translation((0, 0, 0.015))
    m["target_marker"] = trimesh.util.concatenate([
        _c(tr, (240, 120, 20)), box((1.2, 0.06, 0.03), (0, 0, 0.015), (240, 120, 20)),
        box((0.06, 1.2, 0.03), (0, 0, 0.015), (240, 120, 20))])
    # Delay die: a white d6.
    m["delay_die"] = box((0.3, 0.3, 0.3), (0, 0, 0.15), WHITE)
    # Side tokens (shape as well as colour, in the sides' Okabe-Ito pair): Allied a sky-blue square,
    # insurgent an orange triangle.
    m["side_allied"] = trimesh.util.concatenate([box((0.26, 0.26, 0.06), (0, 0, 0.03), SIDE_EDGE["allied"]),
                                                 box((0.14, 0.14, 0.02), (0, 0, 0.07), WHITE)])
    tri = tc.cylinder(radius=0.19, height=0.06, sections=3)
    tri.apply_translation((0, 0, 0.03))
    tri2 = tc.cylinder(radius=0.09, height=0.02, sections=3)
    tri2.apply_translation((0, 0, 0.07))
    m["side_insurgent"] = trimesh.util.concatenate([_c(tri, SIDE_EDGE["insurgent"]), _c(tri2, WHITE)])
    return m


# glTF is y-up; our models are z-up. (x, y, z) -> (x, z, -y), which panda3d-gltf turns back.
Z_UP_TO_Y_UP = np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0], [0, 0, 0, 1]], dtype=float)


def _with_material(glb: bytes, name: str) -> bytes:
    """Give every primitive a plain white PBR material, so vertex colours show as they are."""
    length = struct.unpack_from("<I", glb, 12)[0]
    doc = json.loads(glb[20:20 + length])
    doc["materials"] = [{"name": name, "pbrMetallicRoughness": {
        "baseColorFactor": [1, 1, 1, 1], "metallicFactor": 0.0, "roughnessFactor": 0.9}}]
    for mesh in doc.get("meshes", []):
        for prim in mesh["primitives"]:
            prim["material"] = 0
    text = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
    text += b" " * (-len(text) % 4)
    rest = glb[20 + length:]
    body = struct.pack("<II", len(text), 0x4E4F534A) + text + rest
    return struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body


def build(out: Path = OUT) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    stands = stand_models()
    for name, mesh in stands.items():  # modest meshes: forty stands on the table cost ~100k triangles
        if len(mesh.faces) > MAX_STAND_TRIANGLES:
            raise ValueError(f"{name}: {len(mesh.faces)} triangles, more than {MAX_STAND_TRIANGLES}")
    markers = {name: weld(mesh) for name, mesh in marker_models().items()}
    for name, mesh in {**stands, **markers}.items():
        path = out / f"{name}.glb"
        # turned to glTF's y-up by hand, so the welded normals travel along instead of being recomputed
        turn = Z_UP_TO_Y_UP[:3, :3]
        colors = mesh.visual.vertex_colors
        mesh = trimesh.Trimesh(mesh.vertices @ turn.T, mesh.faces, vertex_normals=mesh.vertex_normals @ turn.T,
                               process=False)
        mesh.visual = trimesh.visual.ColorVisuals(mesh, vertex_colors=colors)
        scene = trimesh.Scene()
        scene.add_geometry(mesh, node_name=name, geom_name=name)
        path.write_bytes(_with_material(scene.export(file_type="glb", include_normals=True), name))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    files = build(Path(argv[0]) if argv else OUT)
    total = sum(p.stat().st_size for p in files)
    print(f"wrote {len(files)} models, {total / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
