"""Generate Tet '68's 20 mm figures in their poses as glTF binaries (``models/tet_*.glb``).

    python models/build_tet_figures.py          # writes the models and prints where each body place sits

Deterministic, committed like the other models (``build_models.py``: the same primitives, palette and
glTF style: one mesh with vertex colours, a white material, y-up). One figure a model, on a round 0.6"
base (``BASE_R``, ``BASE_T`` thick) whose underside is at z = 0, centred on the origin, facing +x
(facing 0 = east).

Scale (``game/rulesets/tet68/data/tet68.toml`` ``[figure]``, G-41: 1" = 1 m): a man is 1.8" tall, his eye at
1.68". Each pose puts his head, chest, stomach, groin and boots where the engine's ``[[body]]`` fractions and
``[[pose]]`` rows put them (``exposure.points``), measured from the base's underside (the floor the engine
measures from), so what a player sees is what the exposure rays reach: ``places()`` gives the model's own,
``main`` prints both. The poses:

* ``standing``: upright, the rifle at the shoulder;
* ``kneeling``: down on the right knee, sitting back on the heel, the rifle aimed (the engine's 0.62);
* ``prone``: on his belly, his head raised to the sights (0.22), the base under his chest;
* ``at_window``: standing, the upper body carried forward over a sill, the rifle across it (0.25");
* ``leaning``: standing behind a jamb, the upper body carried out to his LEFT (+y, 0.48" at the head)
  while he aims along +x; ``leaning_right`` is the same man mirrored, out to his right (-y), the rifle on
  his left shoulder. The engine leans toward ``lean_to``: take ``leaning`` when ``lean_to`` is to the left
  of ``facing`` (``leaning_right`` when to the right) and turn it to ``facing``.

Troops: ``marine`` (OG-107, M1 helmet in its cover, M1955 flak vest, M16), ``arvn`` (lighter fatigues, bare
painted helmet, a scarf, M16), ``vc`` (black pyjamas, bare-headed with a krama, chest rig, AK-47), ``nva``
(khaki, pith helmet, chest rig, AK-47). Files: ``tet_<troop>_<pose>.glb`` with the troop's rifle, and
``tet_<troop>_<weapon>_<pose>.glb`` for the weapon variants (``WEAPON_VARIANTS``: the Marines' M79, M60 and
SMG, the VC's SMG); each with its ``..._leaning_right``. The base's rim is painted in the side's colour (Okabe-Ito), as on Dinky Dau's stands.

What it leaves out: no textures, no rigs or animation, no wounded or dead figures (the client's business).
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
from build_models import (  # noqa: E402
    HEADGEAR,
    METAL,
    NVA,
    OLIVE,
    SIDE_EDGE,
    SKIN,
    VC,
    WEB,
    Z_UP_TO_Y_UP,
    Dress,
    _arm,
    _c,
    _kit,
    _prone,
    _with_material,
    aimed,
    ball,
    box,
    cyl,
    dome,
    frame,
    limb,
    moved,
    ring,
    rot_x,
    rot_y,
    weld,
)

OUT = Path(__file__).resolve().parent
HEIGHT, EYE = 1.8, 1.68
"""tet68.toml [figure]: a man's height and his eye, inches (G-41: 1" = 1 m)."""
BODY = {"head": 0.93, "chest": 0.74, "stomach": 0.60, "groin": 0.49, "boots": 0.04}
"""tet68.toml [[body]]: the five places of TET-16, as fractions of the height."""
POSES = {"standing": (1.0, 0.0), "kneeling": (0.62, 0.0), "prone": (0.22, 0.0), "at_window": (1.0, 0.25),
         "leaning": (1.0, 0.55)}
"""tet68.toml [[pose]]: (scale, lean) of each pose. tests/world/test_tet_figures.py checks both copies agree."""
HIP = 0.45
"""exposure.HIP: where a lean starts, as a fraction of the height."""
BASE_R, BASE_T = 0.3, 0.04
K = (HEIGHT * BODY["head"] - BASE_T) / 0.617
"""From the 15 mm figures' units (build_models: a standing man's head centre at 0.617) to 20 mm on the
base: the figure is built in those units and scaled, so the head sits at the engine's."""
MAX_TRIANGLES = 4000

FLAK = (70, 78, 52)
FLAK_RIB = (58, 64, 42)
ARVN_OLIVE = (100, 106, 66)
ARVN_HELMET = (88, 96, 62)
SCARF = (196, 150, 60)
KRAMA = ((200, 196, 184), (150, 50, 46))
RUBBLE = ((120, 112, 100), (150, 140, 124), (138, 80, 58))

MARINE = Dress(OLIVE)
ARVN = Dress(ARVN_OLIVE, skin=SKIN)
TROOPS = {
    "marine": ("allied", MARINE, "m1", "m16"),
    "arvn": ("allied", ARVN, "arvn", "m16"),
    "vc": ("insurgent", VC, "krama", "ak"),
    "nva": ("insurgent", NVA, "pith", "ak"),
}
WEAPON_VARIANTS = {"marine": ("m79", "m60", "smg"), "vc": ("smg",)}


def _arvn_helmet(h):
    """The M1 helmet bare, painted, with its chin strap hanging; a scarf at the neck."""
    x, y, z = h
    return [dome(0.068, (x - 0.004, y, z + 0.004), ARVN_HELMET, scale=(1.08, 1.03, 0.86)),
            _c(cyl(0.075, 0.012, (x - 0.004, y, z + 0.006), ARVN_HELMET, sections=10, top=0.94), ARVN_HELMET),
            box((0.008, 0.1, 0.008), (x + 0.01, y, z - 0.055), WEB),
            ring(0.03, 0.05, 0.022, (x - 0.01, y, z - 0.078), SCARF, sections=8)]


def _krama(h):
    """Bare-headed, the checked krama scarf knotted at the neck."""
    x, y, z = h
    return [*HEADGEAR["bare"](h), ring(0.03, 0.05, 0.025, (x - 0.01, y, z - 0.075), KRAMA[0], sections=8),
            box((0.02, 0.03, 0.04), (x + 0.04, y - 0.01, z - 0.09), KRAMA[1])]


HEADGEAR_TET = {**HEADGEAR, "arvn": _arvn_helmet, "krama": _krama}


def smg_parts() -> tuple[list[trimesh.Trimesh], float]:
    """A sub-machine gun (the M3 'grease gun' the Marines had, the K-50 the VC had): a short round body,
    its magazine down, a wire stock; grip at the origin."""
    return [cyl(0.018, 0.13, (0.05, 0, 0.004), METAL, sections=8, rot=rot_y(90)),
            box((0.06, 0.006, 0.006), (0.14, 0, 0.004), METAL),
            box((0.016, 0.014, 0.07), (0.06, 0, -0.044), METAL),
            box((0.016, 0.014, 0.04), (0.0, 0, -0.022), METAL),
            limb((-0.01, 0, 0.0), (-0.11, 0, -0.01), 0.006, 0.006, METAL),
            box((0.008, 0.03, 0.03), (-0.11, 0, -0.01), METAL)], 0.09


def _weapon(kind: str, grip, yaw: float = 0.0, pitch: float = 0.0):
    if kind == "smg":
        parts, fore = smg_parts()
        m = tf.translation_matrix(grip) @ tf.rotation_matrix(math.radians(yaw), [0, 0, 1]) @ rot_y(-pitch)
        return moved(parts, m), (m @ np.array([fore, 0, 0.0, 1]))[:3]
    return aimed(kind, grip, yaw, pitch)


def _flak(torso) -> list[trimesh.Trimesh]:
    """The M1955 flak vest over the shirt: a bulkier olive shell with its ribbed collar, open at the front."""
    parts = [box((0.17, 0.175, 0.12), (0.13, 0, 0.0), FLAK),
             box((0.03, 0.14, 0.115), (0.215, 0, 0.005), FLAK_RIB)]
    parts += [box((0.01, 0.178, 0.122), (0.07 + 0.04 * k, 0, 0.0), FLAK_RIB) for k in range(3)]
    return moved(parts, torso)


# Legs by pose (15 mm units, facing +x): the pelvis (its height, or where it is), (knee, foot) for the left
# (+y) and the right (-y) leg. Leaning, his weight shifts onto the left foot stepped out toward the lean.
LEGS = {
    "standing": (0.32, [((0.03, 0.055, 0.16), (0.06, 0.065, 0.0)), ((-0.02, -0.05, 0.16), (-0.06, -0.065, 0.0))]),
    "kneeling": (0.099, [((0.15, 0.05, 0.17), (0.18, 0.05, 0.0)), ((0.13, -0.05, 0.025), (-0.02, -0.05, 0.015))]),
    "at_window": (0.32, [((0.06, 0.055, 0.16), (0.1, 0.065, 0.0)), ((-0.03, -0.05, 0.16), (-0.08, -0.065, 0.0))]),
    "leaning": ((0.0, 0.056, 0.335), [((0.01, 0.14, 0.165), (0.02, 0.17, 0.0)),
                                      ((-0.01, 0.0, 0.165), (-0.03, -0.05, 0.0))]),
}
SPINE = {"standing": (3.0, 0.0), "kneeling": (20.0, 0.0), "at_window": (13.7, 0.0), "leaning": (4.0, 25.0)}
"""(forward, leftward) tilt of the spine from upright, degrees: the lean the engine's pose carries."""


def _upright(pose: str, dress: Dress, headgear: str, weapon: str, flak: bool):
    """A figure on its feet or knees, facing +x, in 15 mm units (feet at z = 0); returns the parts and
    its places (head, chest, stomach, groin, boots) as the model holds them."""
    pz, legs = LEGS[pose]
    fwd, left = (math.radians(a) for a in SPINE[pose])
    spine = np.array([math.sin(fwd) * math.cos(left), math.sin(left), math.cos(fwd) * math.cos(left)])
    spine /= np.linalg.norm(spine)
    side = np.cross(spine, [1.0, 0.0, 0.0])
    side = side / np.linalg.norm(side)  # the figure's left, square to the spine
    pelvis = np.array([0.0, 0.0, pz]) if np.isscalar(pz) else np.array(pz, float)
    neck = pelvis + spine * 0.23
    head = neck + spine * 0.066 + (0.012, 0.0, 0.0)
    parts: list[trimesh.Trimesh] = []
    for (knee, foot), s in zip(legs, (1, -1), strict=True):
        hip = pelvis + side * 0.045 * s
        parts += [limb(hip, knee, 0.062, 0.066, dress.trousers), limb(knee, foot, 0.052, 0.056, dress.trousers),
                  box((0.085, 0.05, 0.035), np.asarray(foot) + (0.025, 0, 0.017), dress.feet)]
    torso = frame(pelvis, spine, hint=side)
    parts.append(limb(pelvis, neck - spine * 0.03, 0.16, 0.1, dress.shirt, hint=side, ends=True))
    parts += moved(_kit("", dress), torso)
    if flak:
        parts += _flak(torso)
    parts += [limb(neck - spine * 0.01, head - spine * 0.03, 0.04, 0.04, dress.skin),
              ball(0.054, head, dress.skin, subdivisions=1)]
    parts += HEADGEAR_TET[headgear](head)
    sl, sr = neck - spine * 0.035 + side * 0.085, neck - spine * 0.035 - side * 0.085
    grip = head + (0.073, 0.0, -0.112) - side * 0.035       # the stock under his right cheek
    pitch = {"at_window": -6.0, "kneeling": 2.0}.get(pose, 0.0)
    w, fore = _weapon(weapon, grip, pitch=pitch)
    parts += w + _arm(sr, sr + (0.02, 0, -0.08) - side * 0.05, grip, dress)
    parts += _arm(sl, (sl + fore) / 2 + (0, 0, -0.07) - side * 0.01, fore, dress)
    if weapon == "m60":  # the belt hanging from the gun, the bipod folded
        parts.append(box((0.03, 0.012, 0.07), np.asarray(grip) + (0.04, 0.024, -0.04), (176, 146, 60)))
    places = {"head": head, "chest": pelvis + spine * 0.165, "stomach": pelvis + spine * 0.07,
              "groin": pelvis.copy(), "boots": np.array([0.0, 0.0, 0.012])}
    # the whole man moved so his head is where the engine carries it (over the base's centre unless he leans)
    carry = engine_places(pose)["head"][:2] / K
    shift = np.array([carry[0] - head[0], carry[1] - head[1], 0.0])
    parts = moved(parts, tf.translation_matrix(shift))
    places = {k: v + shift if k != "boots" else v for k, v in places.items()}
    return parts, places


def _lying(dress: Dress, headgear: str, weapon: str, flak: bool):
    """Prone (build_models' own figure), moved back so the base and the engine's point lie under his chest."""
    parts = _prone(dress, headgear if headgear in HEADGEAR else "bare", "" if weapon == "smg" else weapon, "")
    if headgear not in HEADGEAR:  # this script's own headgear, on the prone head (build_models': neck + ...)
        parts += HEADGEAR_TET[headgear](np.array([0.3, 0, 0.123]))
    if weapon == "smg":
        grip = np.array([0.29, -0.035, 0.075])
        w, _ = _weapon("smg", grip, pitch=2)
        parts += w
    if flak:
        parts += _flak(frame(np.array([0.0, 0, 0.05]), np.array([0.24, 0, 0.025])))
    shift = tf.translation_matrix((-0.14, 0.0, 0.0))
    parts = moved(parts, shift)
    places = {"head": np.array([0.2, 0, 0.123]), "chest": np.array([0.04, 0, 0.075]),
              "stomach": np.array([-0.04, 0, 0.065]), "groin": np.array([-0.13, 0, 0.055]),
              "boots": np.array([-0.46, 0, 0.04])}
    return parts, places


def figure(pose: str, troop: str, weapon: str | None = None):
    """One 20 mm figure on its base, in table inches (base underside at z = 0, facing +x); and the places
    of its body as built (inches)."""
    side, dress, headgear, rifle = TROOPS[troop]
    weapon = weapon or rifle
    flak = troop == "marine"
    if pose == "prone":
        parts, places = _lying(dress, headgear, weapon, flak)
    else:
        parts, places = _upright(pose, dress, headgear, weapon, flak)
    scale = tf.translation_matrix((0, 0, BASE_T)) @ tf.scale_matrix(K)
    body = moved(parts, scale)
    for part in body:  # the joints' overlaps (a shin's end, a belt lying down) never poke under the base
        v = part.vertices.copy()
        v[:, 2] = np.maximum(v[:, 2], BASE_T)
        part.vertices = v
    places = {k: (scale @ np.append(v, 1.0))[:3] for k, v in places.items()}
    return body + _base(side, f"{troop}/{pose}/{weapon}"), places


def _base(side: str, key: str) -> list[trimesh.Trimesh]:
    """A round base of rubble and dust, its rim in the side's colour."""
    rng = np.random.default_rng(sum(key.encode()) * 7919)
    rim = tc.cylinder(radius=BASE_R, height=BASE_T, sections=20)
    rim.apply_translation((0, 0, BASE_T / 2))
    parts = [_c(rim, SIDE_EDGE[side])]
    top = tc.cylinder(radius=BASE_R - 0.02, height=0.006, sections=20)
    top.apply_translation((0, 0, BASE_T + 0.003))
    parts.append(_c(top, (132, 124, 110)))
    for _ in range(7):
        r = rng.uniform(0.03, BASE_R - 0.06)
        a = rng.uniform(0, math.tau)
        at = (r * math.cos(a), r * math.sin(a), BASE_T + 0.01)
        parts.append(box((rng.uniform(0.03, 0.06), rng.uniform(0.02, 0.04), 0.02), at,
                         RUBBLE[int(rng.integers(len(RUBBLE)))], rot=rot_x(rng.uniform(-20, 20))))
    return parts


def engine_places(pose: str) -> dict[str, np.ndarray]:
    """Where the engine puts the places of a figure at the origin facing +x (lean toward +x, or +y for
    ``leaning``: see the module docstring), as ``exposure.points`` computes them."""
    scale, lean = POSES[pose]
    h = HEIGHT * scale
    toward = np.array([0.0, 1.0, 0.0]) if pose == "leaning" else np.array([1.0, 0.0, 0.0])
    out = {}
    for name, frac in BODY.items():
        carry = lean * max(0.0, (frac - HIP) / (1.0 - HIP))
        out[name] = toward * carry + (0, 0, h * frac)
    return out


def models() -> dict[str, tuple[trimesh.Trimesh, dict]]:
    out = {}
    for troop in TROOPS:
        for weapon in (None, *WEAPON_VARIANTS.get(troop, ())):
            for pose in POSES:
                parts, places = figure(pose, troop, weapon)
                name = f"tet_{troop}_{pose}" if weapon is None else f"tet_{troop}_{weapon}_{pose}"
                out[name] = (weld(trimesh.util.concatenate(parts)), places)
                if pose == "leaning":
                    out[name + "_right"] = (mirrored(out[name][0]), {k: v * (1, -1, 1) for k, v in places.items()})
    return out


def mirrored(mesh: trimesh.Trimesh) -> trimesh.Trimesh:
    """The figure mirrored in y: leaning to his right past a jamb, the rifle on his left shoulder (as a
    soldier switches shoulders to shoot round a corner on his right)."""
    colors = mesh.visual.vertex_colors
    flip = np.array([1.0, -1.0, 1.0])
    out = trimesh.Trimesh(mesh.vertices * flip, mesh.faces[:, ::-1], vertex_normals=mesh.vertex_normals * flip,
                          process=False)
    out.visual = trimesh.visual.ColorVisuals(out, vertex_colors=colors)
    return out


def build(out: Path = OUT) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    turn = Z_UP_TO_Y_UP[:3, :3]
    for name, (mesh, _) in models().items():
        if len(mesh.faces) > MAX_TRIANGLES:
            raise ValueError(f"{name}: {len(mesh.faces)} triangles, more than {MAX_TRIANGLES}")
        colors = mesh.visual.vertex_colors
        m = trimesh.Trimesh(mesh.vertices @ turn.T, mesh.faces, vertex_normals=mesh.vertex_normals @ turn.T,
                            process=False)
        m.visual = trimesh.visual.ColorVisuals(m, vertex_colors=colors)
        scene = trimesh.Scene()
        scene.add_geometry(m, node_name=name, geom_name=name)
        path = out / f"{name}.glb"
        path.write_bytes(_with_material(scene.export(file_type="glb", include_normals=True), name))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    files = build(Path(argv[0]) if argv else OUT)
    print(f"wrote {len(files)} models, {sum(p.stat().st_size for p in files) / 1024:.0f} KiB")
    print("place heights, model / engine (inches):")
    for pose in POSES:
        _, places = figure(pose, "marine")
        want = engine_places(pose)
        print(f"  {pose:10s}", "  ".join(f"{k} {places[k][2]:.2f}/{want[k][2]:.2f}" for k in BODY))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
