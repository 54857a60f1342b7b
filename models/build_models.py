"""Generate the client's 15mm stand models and rules markers as glTF binaries (``models/*.glb``).

Deterministic: the same script writes the same files (no randomness beyond a fixed-seed jitter of
figure poses), so the .glb files are committed and ``make play`` needs no build step. Run it again after
changing it:

    python models/build_models.py

Frame and scale (DESIGN.md §3): inches, x east, y north, z up; a stand model faces +x (facing 0 = east),
its base centred on the origin with its underside at z = 0. Figures are 1:100 (a standing man is about
0.7" tall). Each model is one mesh with vertex colours, so the client draws it as a single Geom.

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

# Base footprints, inches (DD-1.7; game/data/bases.toml).
BASES = {"medium": (1.97, 1.26), "small": (1.26, 0.98)}
BASE_H = 0.08

# Palette (RGB 0-255).
GROUND = (96, 84, 52)
GRASS = (88, 110, 46)
SKIN = (214, 170, 128)
SKIN_DARK = (168, 120, 84)
OLIVE = (84, 92, 52)
OLIVE_LIGHT = (104, 112, 66)
ANZAC_GREEN = (66, 88, 58)
BLACK_PJ = (36, 36, 40)
VC_GREY = (70, 72, 70)
NVA_KHAKI = (122, 120, 74)
NVA_HELMET = (110, 118, 70)
STRAW = (196, 172, 110)
METAL = (44, 44, 46)
WOOD = (104, 68, 38)
WEB = (120, 112, 80)
WHITE = (236, 236, 230)
RED = (196, 32, 28)


def _c(mesh: trimesh.Trimesh, rgb, smooth: bool = False) -> trimesh.Trimesh:
    """Colour a part; unmerge its vertices for flat shading unless it is meant to look smooth."""
    if not smooth:
        mesh = mesh.copy()
        mesh.unmerge_vertices()
    rgba = np.array([*rgb, 255], dtype=np.uint8)
    mesh.visual = trimesh.visual.ColorVisuals(mesh, vertex_colors=np.tile(rgba, (len(mesh.vertices), 1)))
    return mesh


def box(size, at, rgb, rot=None) -> trimesh.Trimesh:
    m = tc.box(extents=size)
    if rot is not None:
        m.apply_transform(rot)
    m.apply_translation(at)
    return _c(m, rgb)


def ball(r, at, rgb, scale=(1, 1, 1)) -> trimesh.Trimesh:
    m = tc.icosphere(subdivisions=1, radius=r)
    m.apply_scale(scale)
    m.apply_translation(at)
    return _c(m, rgb, smooth=True)


def cyl(r, h, at, rgb, sections=8, rot=None) -> trimesh.Trimesh:
    m = tc.cylinder(radius=r, height=h, sections=sections)
    if rot is not None:
        m.apply_transform(rot)
    m.apply_translation(at)
    return _c(m, rgb)


def cone(r, h, at, rgb, sections=10) -> trimesh.Trimesh:
    m = tc.cone(radius=r, height=h, sections=sections)
    m.apply_translation(at)
    return _c(m, rgb)


def rot_z(deg):
    return tf.rotation_matrix(math.radians(deg), [0, 0, 1])


def rot_y(deg):
    return tf.rotation_matrix(math.radians(deg), [0, 1, 0])


def place(parts, x=0.0, y=0.0, z=0.0, heading=0.0):
    """Turn a list of parts about z by ``heading`` degrees and move them to (x, y, z)."""
    out = []
    m = tf.translation_matrix([x, y, z]) @ rot_z(heading)
    for p in parts:
        q = p.copy()
        q.apply_transform(m)
        out.append(q)
    return out


# --- figures -------------------------------------------------------------------------------------


HEADGEAR = {
    # name: builder(head_top_z) -> parts
    "m1": lambda z: [ball(0.075, (0, 0, z - 0.02), OLIVE, scale=(1.1, 1.05, 0.7))],
    "boonie": lambda z: [cyl(0.10, 0.012, (0, 0, z - 0.03), OLIVE_LIGHT, sections=10),
                         ball(0.06, (0, 0, z - 0.02), OLIVE_LIGHT, scale=(1, 1, 0.8))],
    "slouch": lambda z: [cyl(0.11, 0.012, (0, 0, z - 0.03), ANZAC_GREEN, sections=10),
                         ball(0.06, (0, 0, z - 0.01), ANZAC_GREEN, scale=(1, 1, 0.9))],
    "conical": lambda z: [cone(0.13, 0.07, (0, 0, z - 0.05), STRAW, sections=12)],
    "pith": lambda z: [cyl(0.10, 0.012, (0, 0, z - 0.035), NVA_HELMET, sections=10),
                       ball(0.07, (0, 0, z - 0.02), NVA_HELMET, scale=(1.05, 1, 0.85))],
    "cap": lambda z: [ball(0.062, (0, 0, z - 0.02), NVA_KHAKI, scale=(1.1, 1, 0.6))],
    "bare": lambda z: [ball(0.058, (0, 0, z - 0.03), BLACK_PJ, scale=(1, 1, 0.6))],
}


def figure(pose: str, uniform, trousers, headgear: str, weapon: str = "rifle", kit: str = "",
           skin=SKIN) -> list[trimesh.Trimesh]:
    """One 15mm figure facing +x, feet at z = 0. pose: stand | kneel | prone | crouch."""
    parts: list[trimesh.Trimesh] = []
    if pose == "prone":
        parts.append(box((0.42, 0.14, 0.07), (-0.12, 0, 0.04), trousers))
        parts.append(box((0.26, 0.17, 0.09), (0.18, 0, 0.05), uniform))
        parts.append(ball(0.055, (0.36, 0, 0.09), skin))
        parts += [p.copy() for p in HEADGEAR[headgear](0.16)]
        for p in parts[-len(HEADGEAR[headgear](0.16)):]:
            p.apply_translation((0.36, 0, -0.02))
        if weapon:
            parts.append(box((0.34, 0.025, 0.03), (0.50, -0.03, 0.06), METAL))
            parts.append(box((0.1, 0.03, 0.04), (0.33, -0.03, 0.05), WOOD))
        if kit == "radio":
            parts.append(box((0.10, 0.12, 0.08), (0.12, 0, 0.13), OLIVE))
        return parts
    if pose == "kneel":
        hip, leg_h = 0.22, 0.2
        parts.append(box((0.2, 0.07, 0.07), (0.06, 0.05, 0.14), trousers))    # thigh forward
        parts.append(box((0.07, 0.07, 0.14), (0.15, 0.05, 0.07), trousers))   # shin down
        parts.append(box((0.26, 0.07, 0.06), (-0.05, -0.05, 0.05), trousers))  # kneeling leg
    elif pose == "crouch":
        hip, leg_h = 0.26, 0.26
        parts.append(box((0.08, 0.07, leg_h), (0.02, 0.05, leg_h / 2), trousers, rot=rot_y(12)))
        parts.append(box((0.08, 0.07, leg_h), (-0.04, -0.05, leg_h / 2), trousers, rot=rot_y(-12)))
    else:
        hip, leg_h = 0.32, 0.32
        parts.append(box((0.08, 0.07, leg_h), (0.03, 0.05, leg_h / 2), trousers, rot=rot_y(8)))
        parts.append(box((0.08, 0.07, leg_h), (-0.03, -0.05, leg_h / 2), trousers, rot=rot_y(-8)))
    lean = 12 if pose in ("crouch", "kneel") else 4
    torso_h = 0.24
    parts.append(box((0.1, 0.17, torso_h), (0.02, 0, hip + torso_h / 2), uniform, rot=rot_y(lean)))
    neck = hip + torso_h
    head_x = 0.02 + math.sin(math.radians(lean)) * torso_h
    parts.append(ball(0.055, (head_x, 0, neck + 0.06), skin))
    for p in HEADGEAR[headgear](neck + 0.12):
        p.apply_translation((head_x, 0, 0))
        parts.append(p)
    # arms forward to the weapon
    sh = neck - 0.03
    parts.append(box((0.2, 0.05, 0.05), (0.1, 0.09, sh - 0.05), uniform, rot=rot_y(25)))
    parts.append(box((0.2, 0.05, 0.05), (0.12, -0.09, sh - 0.06), uniform, rot=rot_y(30)))
    if weapon == "rifle":
        parts.append(box((0.36, 0.025, 0.035), (0.2, 0, sh - 0.08), METAL, rot=rot_y(-8)))
        parts.append(box((0.1, 0.03, 0.05), (0.02, 0, sh - 0.06), WOOD, rot=rot_y(-8)))
    elif weapon == "long":
        parts.append(box((0.5, 0.025, 0.03), (0.24, 0, sh - 0.07), WOOD, rot=rot_y(-6)))
        parts.append(cyl(0.02, 0.12, (0.2, 0, sh - 0.02), METAL, sections=6, rot=rot_y(90)))
    elif weapon == "mg":
        parts.append(box((0.44, 0.04, 0.05), (0.2, 0, sh - 0.1), METAL, rot=rot_y(-4)))
        parts.append(box((0.06, 0.1, 0.02), (0.12, 0, sh - 0.15), WEB))
    elif weapon == "pistol":
        parts.append(box((0.06, 0.08, 0.05), (0.06, 0.0, sh - 0.18), WEB))
        parts.append(box((0.08, 0.12, 0.015), (0.2, 0, sh - 0.06), WHITE, rot=rot_y(-30)))  # map
    elif weapon == "satchel":
        parts.append(box((0.1, 0.08, 0.08), (0.18, 0, sh - 0.12), WEB))
    # kit on the back
    if kit == "radio":
        parts.append(box((0.09, 0.13, 0.16), (-0.07, 0, neck - 0.08), OLIVE))
        parts.append(cyl(0.006, 0.42, (-0.09, 0.05, neck + 0.15), METAL, sections=4))
    elif kit == "pack":
        parts.append(box((0.07, 0.13, 0.12), (-0.07, 0, neck - 0.08), WEB))
    elif kit == "medic":
        parts.append(box((0.08, 0.12, 0.1), (-0.07, 0, neck - 0.09), WHITE))
        parts.append(box((0.02, 0.08, 0.025), (-0.115, 0, neck - 0.08), RED))
        parts.append(box((0.02, 0.025, 0.08), (-0.115, 0, neck - 0.08), RED))
    elif kit == "ammo":
        parts.append(box((0.08, 0.1, 0.06), (-0.06, 0, hip + 0.02), OLIVE))
    return parts


def mg_team(uniform, trousers, headgear, skin=SKIN):
    """A machine gun on its bipod, the gunner prone behind it, his loader kneeling beside."""
    parts = place(figure("prone", uniform, trousers, headgear, weapon="", skin=skin), -0.25, 0.12)
    parts.append(box((0.46, 0.035, 0.045), (0.3, 0.12, 0.07), METAL))
    parts.append(box((0.14, 0.05, 0.06), (0.12, 0.12, 0.06), WOOD))
    parts.append(box((0.015, 0.1, 0.07), (0.44, 0.12, 0.035), METAL))
    parts.append(box((0.1, 0.07, 0.05), (0.18, 0.02, 0.025), OLIVE))  # ammo box
    parts += place(figure("kneel", uniform, trousers, headgear, kit="ammo", skin=skin), -0.15, -0.3, 0, 20)
    return parts


# --- bases ---------------------------------------------------------------------------------------


def base(size: str) -> list[trimesh.Trimesh]:
    """A bevelled base with an earth top and a few grass tufts."""
    w, d = BASES[size]
    outline = [(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2)]
    from shapely.geometry import Polygon

    poly = Polygon(outline).buffer(-0.04, join_style="mitre")
    body = tc.extrude_polygon(Polygon(outline), BASE_H - 0.02)
    top = tc.extrude_polygon(poly, 0.02)
    top.apply_translation((0, 0, BASE_H - 0.02))
    parts = [_c(body, GROUND), _c(top, GROUND)]
    rng = np.random.default_rng(1000 + int(w * 100))
    for _ in range(5 if size == "medium" else 3):
        x = rng.uniform(-w / 2 + 0.12, w / 2 - 0.12)
        y = rng.uniform(-d / 2 + 0.1, d / 2 - 0.1)
        parts.append(cone(0.06, 0.09, (x, y, BASE_H), GRASS, sections=5))
    return parts


def stand(size: str, figures: list[list[trimesh.Trimesh]]) -> trimesh.Trimesh:
    parts = base(size)
    for f in figures:
        for p in f:
            q = p.copy()
            q.apply_translation((0, 0, BASE_H))
            parts.append(q)
    return trimesh.util.concatenate(parts)


def team(size, specs, jitter_seed=0):
    """specs: list of (x, y, heading, figure-parts)."""
    rng = np.random.default_rng(jitter_seed)
    figs = []
    for x, y, h, parts in specs:
        figs.append(place(parts, x + rng.uniform(-0.02, 0.02), y + rng.uniform(-0.02, 0.02), 0,
                          h + rng.uniform(-8, 8)))
    return stand(size, figs)


def us(pose="stand", **kw):
    kw.setdefault("headgear", "m1")
    return figure(pose, OLIVE, OLIVE, **kw)


def vc(pose="stand", **kw):
    kw.setdefault("headgear", "conical")
    return figure(pose, BLACK_PJ, BLACK_PJ, skin=SKIN_DARK, **kw)


def nva(pose="stand", **kw):
    kw.setdefault("headgear", "pith")
    return figure(pose, NVA_KHAKI, NVA_KHAKI, skin=SKIN_DARK, **kw)


def stand_models() -> dict[str, trimesh.Trimesh]:
    m = {}
    m["us_rifle_team"] = team("medium", [
        (0.55, 0.25, 0, us(kit="pack")), (0.05, -0.3, -10, us("kneel")),
        (-0.35, 0.28, 15, us(kit="pack")), (-0.6, -0.2, 5, us("crouch", headgear="boonie"))], 1)
    m["us_mg_team"] = team("medium", [(0.1, 0.0, 0, mg_team(OLIVE, OLIVE, "m1")),
                                      (-0.65, 0.3, 10, us(kit="pack"))], 2)
    m["us_officer"] = team("small", [(0.15, 0.12, 0, us(weapon="pistol", headgear="m1")),
                                     (-0.3, -0.18, 20, us("kneel"))], 3)
    m["us_squad_leader"] = team("small", [(0.1, 0.0, 0, us(kit="pack")),
                                          (-0.3, 0.15, 10, us("kneel"))], 4)
    m["us_rto"] = team("small", [(0.15, 0.05, 0, us(kit="radio")),
                                 (-0.3, -0.15, 10, us("kneel"))], 5)
    m["us_medic"] = team("small", [(0.2, 0.0, 0, us("kneel", kit="medic")),
                                   (-0.25, -0.05, 90, us("prone", weapon="", headgear="bare"))], 6)
    m["us_scout"] = team("small", [(0.15, 0.1, 0, us("crouch", headgear="boonie")),
                                   (-0.3, -0.15, 10, us(headgear="boonie"))], 7)
    m["us_sniper"] = team("small", [(0.05, 0.15, 0, us("prone", weapon="long", headgear="boonie")),
                                    (-0.2, -0.2, 0, us("kneel", headgear="boonie"))], 8)
    anzac = dict(headgear="slouch")
    m["anzac_rifle_team"] = team("medium", [
        (0.55, 0.22, 0, figure("stand", ANZAC_GREEN, ANZAC_GREEN, kit="pack", **anzac)),
        (0.05, -0.3, -10, figure("kneel", ANZAC_GREEN, ANZAC_GREEN, **anzac)),
        (-0.4, 0.28, 12, figure("stand", ANZAC_GREEN, ANZAC_GREEN, kit="pack", **anzac)),
        (-0.62, -0.22, 5, figure("crouch", ANZAC_GREEN, ANZAC_GREEN, **anzac))], 9)
    m["vc_rifle_cell"] = team("medium", [
        (0.5, 0.25, 0, vc()), (0.0, -0.28, -10, vc("crouch")),
        (-0.45, 0.2, 15, vc("kneel", headgear="bare"))], 10)
    m["vc_militia_cell"] = team("medium", [
        (0.5, 0.2, 0, figure("stand", VC_GREY, BLACK_PJ, "conical", skin=SKIN_DARK)),
        (0.0, -0.25, -12, figure("crouch", BLACK_PJ, VC_GREY, "bare", skin=SKIN_DARK)),
        (-0.5, 0.22, 8, figure("stand", VC_GREY, VC_GREY, "conical", weapon="long", skin=SKIN_DARK))], 11)
    m["vc_rpd_team"] = team("medium", [(0.1, 0.0, 0, mg_team(BLACK_PJ, BLACK_PJ, "conical", SKIN_DARK)),
                                       (-0.6, 0.3, 10, vc("crouch"))], 12)
    m["vc_sniper"] = team("small", [(0.05, 0.0, 0, vc("prone", weapon="long", headgear="bare"))], 13)
    m["vc_cadre"] = team("small", [(0.15, 0.1, 0, figure("stand", NVA_KHAKI, BLACK_PJ, "cap",
                                                         weapon="pistol", skin=SKIN_DARK)),
                                   (-0.3, -0.15, 15, vc("kneel"))], 14)
    m["vc_sapper_cell"] = team("medium", [
        (0.5, 0.2, 0, vc("crouch", headgear="bare", weapon="satchel")),
        (0.0, -0.25, -8, vc("prone", headgear="bare", weapon="satchel")),
        (-0.55, 0.15, 12, vc("crouch", headgear="bare"))], 15)
    m["nva_rifle_team"] = team("medium", [
        (0.55, 0.25, 0, nva(kit="pack")), (0.05, -0.3, -10, nva("kneel")),
        (-0.35, 0.28, 15, nva(kit="pack")), (-0.6, -0.22, 5, nva("crouch"))], 16)
    m["nva_mg_team"] = team("medium", [(0.1, 0.0, 0, mg_team(NVA_KHAKI, NVA_KHAKI, "pith", SKIN_DARK)),
                                       (-0.65, 0.3, 10, nva(kit="pack"))], 17)
    m["nva_officer"] = team("small", [(0.15, 0.1, 0, nva(weapon="pistol", headgear="cap")),
                                      (-0.3, -0.15, 15, nva("kneel"))], 18)
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
    # Side tokens (shape as well as colour): Allied a blue square, insurgent a red triangle.
    m["side_allied"] = trimesh.util.concatenate([box((0.26, 0.26, 0.06), (0, 0, 0.03), (40, 90, 200)),
                                                 box((0.14, 0.14, 0.02), (0, 0, 0.07), WHITE)])
    tri = tc.cylinder(radius=0.19, height=0.06, sections=3)
    tri.apply_translation((0, 0, 0.03))
    tri2 = tc.cylinder(radius=0.09, height=0.02, sections=3)
    tri2.apply_translation((0, 0, 0.07))
    m["side_insurgent"] = trimesh.util.concatenate([_c(tri, (200, 40, 30)), _c(tri2, WHITE)])
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
    for name, mesh in {**stand_models(), **marker_models()}.items():
        path = out / f"{name}.glb"
        mesh = mesh.copy()
        mesh.apply_transform(Z_UP_TO_Y_UP)
        scene = trimesh.Scene()
        scene.add_geometry(mesh, node_name=name, geom_name=name)
        path.write_bytes(_with_material(scene.export(file_type="glb"), name))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    files = build(Path(argv[0]) if argv else OUT)
    total = sum(p.stat().st_size for p in files)
    print(f"wrote {len(files)} models, {total / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
