"""Generate the war underneath's pieces as glTF binaries (``models/*.glb``): tunnel hatches and spider-hole
lids, civilians, caches, trap chits, a punji pit, the rubble of a blown entrance and a burnt hootch.

Deterministic like the figures (``build_models.py``, whose primitives, welding and glTF writer it uses):
the same script writes the same files, which are committed, so ``make play`` needs no build step. Run it
again after changing it:

    python models/build_underground.py

Frame and scale as ``build_models.py``: inches, z up, 1:100. The hatch's lid is its own model
(``hatch_lid``, hinged on its -x edge at the origin), so the client can swing it open (game/client/
tunnels_fx.py); the spider hole's lid (``spider_lid``) likewise, hinged on its -x edge.

What it leaves out: no textures (vertex colours only), no animation rigs; the burning of a hootch is
the client's fire, this model is only what is left.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import trimesh

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_models import (  # noqa: E402
    SKIN_DARK,
    STRAW,
    STRAW_DARK,
    WHITE,
    Z_UP_TO_Y_UP,
    Dress,
    _c,
    _with_material,
    ball,
    box,
    cone,
    cyl,
    figure,
    place,
    rot_y,
    weld,
)

OUT = Path(__file__).resolve().parent
MAX_TRIANGLES = 1500  # a marker costs less than a stand

LID = (92, 70, 44)           # the lid's planks
LID_DARK = (62, 46, 30)
LEAF = ((70, 92, 38), (96, 110, 48), (120, 112, 56))  # the leaves and grass a camouflaged lid wears
EARTH = (92, 72, 48)
EARTH_DARK = (54, 42, 28)
HOLE = (14, 11, 8)
SACK = (186, 168, 120)
SACK_DARK = (150, 132, 92)
CRATE = (104, 96, 58)
CRATE_DARK = (70, 64, 38)
STENCIL = (226, 214, 150)
BAMBOO = (168, 150, 86)
CHIT = (238, 222, 120)       # a found trap's chit: yellow, with a dark border (dice hit colour, PRESENCE.md)
CHIT_EDGE = (40, 36, 30)
CHAR = (34, 30, 26)
ASH = (96, 92, 86)
PEASANT_TOP = (168, 150, 118)    # a farmer's faded brown shirt
PEASANT_WHITE = (212, 206, 188)  # an old woman's white ao ba ba
PEASANT = Dress(PEASANT_TOP, trousers=(58, 52, 46), skin=SKIN_DARK, feet=SKIN_DARK, web=PEASANT_TOP)
PEASANT_W = Dress(PEASANT_WHITE, trousers=(44, 42, 40), skin=SKIN_DARK, feet=SKIN_DARK, web=PEASANT_WHITE)
CIV_BASE = (120, 118, 112)   # a civilian's round base: neutral grey, neither side's colour


def _leaves(rng, n: int, r: float, z: float) -> list[trimesh.Trimesh]:
    """Flat scraps of leaf and grass strewn over a lid (fixed seed)."""
    out = []
    for _ in range(n):
        a, d = rng.uniform(0, 2 * np.pi), r * np.sqrt(rng.uniform(0, 1))
        c = LEAF[int(rng.integers(len(LEAF)))]
        leaf = box((rng.uniform(0.08, 0.16), rng.uniform(0.04, 0.07), 0.012), (0, 0, 0), c)
        out += place([leaf], d * np.cos(a), d * np.sin(a), z + rng.uniform(0, 0.01), float(rng.uniform(0, 180)))
    return out


def hatch() -> trimesh.Trimesh:
    """A camouflaged tunnel entrance's frame: a square of dark earth round the black hole, a log sill."""
    rng = np.random.default_rng(91)
    parts = [box((0.9, 0.9, 0.03), (0, 0, 0.015), EARTH_DARK), box((0.56, 0.56, 0.035), (0, 0, 0.02), HOLE)]
    for sx, sy, ex, ey in ((0, 0.31, 0.66, 0.06), (0, -0.31, 0.66, 0.06), (0.31, 0, 0.06, 0.56),
                           (-0.31, 0, 0.06, 0.56)):
        parts.append(box((ex, ey, 0.05), (sx, sy, 0.03), LID_DARK))
    parts += _leaves(rng, 10, 0.45, 0.03)
    return trimesh.util.concatenate(parts)


def hatch_lid() -> trimesh.Trimesh:
    """The lid: planks under a layer of earth and leaves, hinged on its -x edge (at the origin)."""
    rng = np.random.default_rng(92)
    parts = []
    for k in range(4):
        parts.append(box((0.6, 0.14, 0.04), (0.3, -0.21 + 0.14 * k, 0.02), LID if k % 2 else LID_DARK))
    parts.append(box((0.58, 0.56, 0.02), (0.3, 0, 0.05), EARTH))
    parts += [p for p in _leaves(rng, 12, 0.28, 0.06)]
    for p in parts[-12:]:
        p.apply_translation((0.3, 0, 0))
    return trimesh.util.concatenate(parts)


def spider_hole() -> trimesh.Trimesh:
    """A sniper's spider hole: a round black pit in a ring of disturbed earth."""
    ring_ = cyl(0.42, 0.03, (0, 0, 0.015), EARTH_DARK, sections=14)
    hole = cyl(0.24, 0.035, (0, 0, 0.02), HOLE, sections=14)
    return trimesh.util.concatenate([ring_, hole])


def spider_lid() -> trimesh.Trimesh:
    """Its woven lid, a disc of bamboo under grass, hinged on its -x edge (at the origin)."""
    rng = np.random.default_rng(93)
    parts = [cyl(0.27, 0.04, (0.27, 0, 0.02), BAMBOO, sections=14), cyl(0.25, 0.02, (0.27, 0, 0.05), EARTH,
                                                                       sections=14)]
    leaves = _leaves(rng, 9, 0.22, 0.06)
    for p in leaves:
        p.apply_translation((0.27, 0, 0))
    return trimesh.util.concatenate(parts + leaves)


def civilian(down: bool = False, woman: bool = False) -> trimesh.Trimesh:
    """A villager on a small round grey base: a farmer in a conical hat (standing), or lying hurt."""
    dress = PEASANT_W if woman else PEASANT
    parts = [cyl(0.3, 0.05, (0, 0, 0.025), CIV_BASE, sections=16)]
    if down:
        parts += place(figure("prone", dress, "conical", ""), 0.05, 0, 0.05, 20)
    else:
        parts += place(figure("stand", dress, "conical", "", "none"), 0, 0, 0.05)
    return trimesh.util.concatenate(parts)


def rice_sacks() -> trimesh.Trimesh:
    """A rice cache: a stack of tied sacks."""
    parts = []
    for k, (x, y, z) in enumerate(((-0.17, -0.1, 0), (0.17, -0.1, 0), (0, 0.16, 0), (0, -0.02, 0.17))):
        c = SACK if k % 2 else SACK_DARK
        parts.append(ball(0.16, (x, y, z + 0.1), c, scale=(1.25, 0.9, 0.7), subdivisions=1))
        parts.append(cyl(0.035, 0.05, (x + 0.18, y, z + 0.1), c, sections=6, rot=rot_y(90)))
    return trimesh.util.concatenate(parts)


def weapons_crate() -> trimesh.Trimesh:
    """A weapons cache: two ammunition crates, stencilled, and a rifle laid across them."""
    parts = [box((0.62, 0.34, 0.22), (0, -0.12, 0.11), CRATE), box((0.5, 0.3, 0.2), (0.04, 0.22, 0.1), CRATE_DARK)]
    for x in (-0.2, 0.2):
        parts.append(box((0.04, 0.35, 0.225), (x, -0.12, 0.112), CRATE_DARK))
    parts.append(box((0.2, 0.12, 0.005), (0, -0.12, 0.224), STENCIL))
    parts.append(box((0.72, 0.04, 0.03), (0, 0.05, 0.26), (40, 40, 44)))
    parts.append(box((0.24, 0.05, 0.04), (-0.3, 0.05, 0.26), (116, 72, 38)))
    return trimesh.util.concatenate(parts)


def punji_pit() -> trimesh.Trimesh:
    """A sprung punji pit: the cover fallen in, sharpened bamboo stakes standing in the black hole."""
    rng = np.random.default_rng(94)
    parts = [box((0.9, 0.7, 0.03), (0, 0, 0.015), EARTH_DARK), box((0.7, 0.5, 0.035), (0, 0, 0.02), HOLE)]
    for _ in range(14):
        x, y = rng.uniform(-0.3, 0.3), rng.uniform(-0.2, 0.2)
        parts.append(cone(0.022, rng.uniform(0.16, 0.24), (x, y, 0.03), BAMBOO, sections=5))
    for k in range(3):  # the cover's broken sticks
        parts.append(box((0.5, 0.03, 0.03), (rng.uniform(-0.1, 0.1), -0.3 + 0.3 * k, 0.04), STRAW_DARK,
                         rot=None))
    return trimesh.util.concatenate(parts)


def trap_chit() -> trimesh.Trimesh:
    """A found booby trap's chit: a yellow triangle with a dark border and a dark ``!``."""
    import trimesh.creation as tc

    edge = tc.cylinder(radius=0.34, height=0.04, sections=3)
    edge.apply_translation((0, 0, 0.02))
    face = tc.cylinder(radius=0.27, height=0.02, sections=3)
    face.apply_translation((0, 0, 0.05))
    parts = [_c(edge, CHIT_EDGE), _c(face, CHIT), box((0.05, 0.16, 0.012), (0.0, 0.02, 0.065), CHIT_EDGE, rot=None),
             box((0.05, 0.045, 0.012), (0.0, -0.1, 0.065), CHIT_EDGE)]
    for p in parts[2:]:
        p.apply_transform(np.array([[0, -1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=float))
    return trimesh.util.concatenate(parts)


def rubble() -> trimesh.Trimesh:
    """A blown entrance: a low mound of broken earth and splintered lid."""
    rng = np.random.default_rng(95)
    parts = [cyl(0.6, 0.05, (0, 0, 0.025), EARTH_DARK, sections=12, top=0.8)]
    for _ in range(12):
        a, d = rng.uniform(0, 2 * np.pi), 0.45 * np.sqrt(rng.uniform(0, 1))
        r = rng.uniform(0.07, 0.14)
        parts.append(ball(r, (d * np.cos(a), d * np.sin(a), 0.05 + r * 0.3), EARTH if rng.uniform() < 0.6 else
                          EARTH_DARK, scale=(1.2, 1.0, 0.6), subdivisions=0))
    for _ in range(4):
        parts += place([box((0.3, 0.05, 0.03), (0, 0, 0), LID_DARK)], rng.uniform(-0.3, 0.3),
                       rng.uniform(-0.3, 0.3), 0.09, float(rng.uniform(0, 180)))
    return trimesh.util.concatenate(parts)


def burnt_hootch() -> trimesh.Trimesh:
    """What a burnt hootch leaves (3" x 2" footprint): a black scorch, ash, charred stilts and beams."""
    rng = np.random.default_rng(96)
    parts = [box((3.3, 2.3, 0.02), (0, 0, 0.01), CHAR), box((2.6, 1.6, 0.03), (0, 0, 0.02), ASH)]
    for sx in (-1.35, 0, 1.35):
        for sy in (-0.85, 0.85):
            h = rng.uniform(0.2, 0.7)
            parts.append(cyl(0.06, h, (sx, sy, h / 2), CHAR, sections=6))
    for _ in range(9):
        parts += place([box((rng.uniform(0.8, 1.8), 0.08, 0.07), (0, 0, 0), CHAR)], rng.uniform(-1, 1),
                       rng.uniform(-0.6, 0.6), 0.06, float(rng.uniform(0, 180)))
    for _ in range(6):
        parts.append(ball(rng.uniform(0.1, 0.2), (rng.uniform(-1.2, 1.2), rng.uniform(-0.8, 0.8), 0.04), ASH,
                          scale=(1.4, 1.0, 0.4), subdivisions=0))
    parts.append(cone(0.3, 0.25, (0.9, -0.4, 0.03), STRAW, sections=8))  # a scrap of unburnt thatch
    return trimesh.util.concatenate(parts)


def medcap_cross() -> trimesh.Trimesh:
    """A treated villager's token: a white square with a red cross."""
    return trimesh.util.concatenate([box((0.32, 0.32, 0.04), (0, 0, 0.02), WHITE),
                                     box((0.22, 0.07, 0.012), (0, 0, 0.045), (196, 32, 28)),
                                     box((0.07, 0.22, 0.012), (0, 0, 0.045), (196, 32, 28))])


def models() -> dict[str, trimesh.Trimesh]:
    return {"hatch": hatch(), "hatch_lid": hatch_lid(), "spider_hole": spider_hole(), "spider_lid": spider_lid(),
            "civilian": civilian(), "civilian_woman": civilian(woman=True), "civilian_down": civilian(down=True),
            "rice_sacks": rice_sacks(), "weapons_crate": weapons_crate(), "punji_pit": punji_pit(),
            "trap_chit": trap_chit(), "rubble": rubble(), "burnt_hootch": burnt_hootch(),
            "medcap_cross": medcap_cross()}


def build(out: Path = OUT) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, mesh in models().items():
        mesh = weld(mesh)
        if len(mesh.faces) > MAX_TRIANGLES:
            raise ValueError(f"{name}: {len(mesh.faces)} triangles, more than {MAX_TRIANGLES}")
        turn = Z_UP_TO_Y_UP[:3, :3]
        colors = mesh.visual.vertex_colors
        mesh = trimesh.Trimesh(mesh.vertices @ turn.T, mesh.faces, vertex_normals=mesh.vertex_normals @ turn.T,
                               process=False)
        mesh.visual = trimesh.visual.ColorVisuals(mesh, vertex_colors=colors)
        scene = trimesh.Scene()
        scene.add_geometry(mesh, node_name=name, geom_name=name)
        path = out / f"{name}.glb"
        path.write_bytes(_with_material(scene.export(file_type="glb", include_normals=True), name))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    files = build(Path(argv[0]) if argv else OUT)
    total = sum(p.stat().st_size for p in files)
    print(f"wrote {len(files)} underground models, {total / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
