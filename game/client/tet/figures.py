"""Tet '68's figures on the table: one 20 mm man per figure of the view, placed and turned by its ``x``, ``y``,
``facing`` and ``pose``, his side shown by shape as well as colour.

A figure's model is ``models/tet_<troop>_<weapon>_<pose>.glb`` or ``tet_<troop>_<pose>.glb`` where the
library has it (``models/build_tet_figures.py``: facing +x, 1.8" tall; the troop from the view's ``troop``
or ``faction``, else the side's: Marines, VC); where it has none, a man is built here from simple solids in
the pose. The side reads by shape as well as colour: the troops' headgear and dress (a Marine's helmet and
flak vest, a VC's bare head and black pyjamas, an NVA's pith helmet), and the base's rim in the side's
colour-blind-safe colour. Names show on
hover and selection (and for the figures whose go it is); a ducked figure carries a "DUCKED" tab, a dead
one lies down, grey.

What it leaves out: moving them (the presenter walks a figure, then the view puts it), and every rule.
``TetFigures`` offers what the app asks of a scene's pieces (kits.py): ``selected``, ``elements``,
``element_centre``, ``labels_visible``, ``set_labels_visible``, ``pick``, ``view``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import panda3d.core as p3d
import trimesh
import trimesh.creation as tc

from game.client import geom
from game.client.pieces import SELECTED_COLOR, SIDE_COLORS, stand_bin, text_node

HEIGHT = 1.8
"""A standing man's height on the table, inches (the rules' figure: 1.8 m at 1" = 1 m)."""
EYE = 1.68
PICK_R = 0.45
BASE_R = 0.3
"""A figure's base, inches (the models' 0.6" round base: he stands 0.3" behind a wall at a window)."""
FACTION = {"allied": "marine", "insurgent": "vc"}
UNIFORM = {"marine": (0.30, 0.34, 0.20, 1), "arvn": (0.36, 0.40, 0.26, 1), "vc": (0.10, 0.10, 0.11, 1),
           "nva": (0.42, 0.44, 0.30, 1)}
HAT = {"marine": (0.26, 0.30, 0.18, 1), "arvn": (0.26, 0.30, 0.18, 1), "vc": (0.74, 0.64, 0.40, 1),
       "nva": (0.50, 0.52, 0.34, 1)}
SKIN = (0.76, 0.58, 0.44, 1)
WOOD = (0.30, 0.20, 0.12, 1)
STEEL = (0.16, 0.16, 0.17, 1)
BASE = (0.30, 0.27, 0.22, 1)
DEAD = (0.42, 0.40, 0.38, 1)
AT_WINDOW_BACK = 0.25
"""How far a man at a window is drawn back from his place, inches: the model's boots reach 0.44" ahead of
its centre, and he stands 0.3" behind the wall's plane (a wall 0.15" thick), so drawn where he stands his
toes would show through the foot of the wall outside; drawn back, only his rifle and shoulders clear the sill."""
LABEL = 0.26
"""A name's letters over a figure, inches high, seen from the distance the camera frames a figure at
(``LABEL_AT``); closer, they shrink with the distance (to a third), so close to a window they do not
cover the men."""
LABEL_AT = 22.0
PLACE_LABEL = 0.2
"""A body place's name beside its mark when a player aims ('head', 'chest'), inches high from LABEL_AT."""
POSE_LEAN = {"at_window": 12.0, "leaning": 20.0}
"""How far the man's upper body is tipped (degrees, a drawing): over a sill forward, out past a jamb sideways."""


def _at(x, y, z):
    return trimesh.transformations.translation_matrix((x, y, z))


def _box(ex, ey, ez, x, y, z):
    return tc.box(extents=(ex, ey, ez), transform=_at(x, y, z))


def man_parts(faction: str, pose: str, weapon: str) -> list[tuple[trimesh.Trimesh, tuple]]:
    """The solids of one man facing +y, feet at z 0, each with its colour."""
    cloth, hat = UNIFORM.get(faction, UNIFORM["vc"]), HAT.get(faction, HAT["vc"])
    kneel = pose == "kneeling"
    hip = 0.5 if kneel else 0.86
    parts: list[tuple[trimesh.Trimesh, tuple]] = []
    if kneel:  # one knee down, the other thigh forward
        parts += [(_box(0.16, 0.5, 0.16, -0.11, -0.1, 0.08), cloth), (_box(0.16, 0.16, 0.42, -0.11, -0.3, 0.25), cloth),
                  (_box(0.16, 0.45, 0.16, 0.11, 0.15, hip - 0.05), cloth), (_box(0.16, 0.16, 0.45, 0.11, 0.35, 0.22), cloth)]
    else:
        parts += [(_box(0.17, 0.2, hip, dx, 0, hip / 2), cloth) for dx in (-0.11, 0.11)]
        parts += [(_box(0.19, 0.27, 0.1, dx, 0.04, 0.05), STEEL) for dx in (-0.11, 0.11)]  # boots
    torso = 0.62
    parts.append((_box(0.48, 0.27, torso, 0, 0, hip + torso / 2), cloth))
    if faction == "marine":  # the flak jacket
        parts.append((_box(0.5, 0.3, 0.36, 0, 0, hip + torso - 0.22), (0.22, 0.26, 0.16, 1)))
    head_z = hip + torso + 0.16
    parts.append((tc.icosphere(1, 0.13).apply_transform(_at(0, 0, head_z)), SKIN))
    if faction in ("marine", "arvn"):  # the round steel helmet
        dome = tc.icosphere(1, 0.19).apply_transform(np.diag([1.0, 1.05, 0.7, 1.0]))
        parts.append((dome.apply_transform(_at(0, 0, head_z + 0.05)), hat))
    elif faction == "nva":  # the pith helmet
        dome = tc.icosphere(1, 0.2).apply_transform(np.diag([1.0, 1.1, 0.75, 1.0]))
        parts.append((dome.apply_transform(_at(0, 0, head_z + 0.06)), hat))
    else:  # the conical non la
        parts.append((tc.cone(0.34, 0.2, sections=12).apply_transform(_at(0, 0, head_z + 0.06)), hat))
    # arms and the weapon held at the shoulder, pointing ahead
    long_gun = 0.95 if weapon in ("m60", "rpd") else 0.5 if weapon == "smg" else 0.8
    arm_z = hip + torso - 0.12
    parts += [(_box(0.12, 0.42, 0.12, dx, 0.18, arm_z), cloth) for dx in (-0.2, 0.2)]
    parts.append((_box(0.07, long_gun, 0.09, 0.06, 0.2 + long_gun / 2 - 0.2, arm_z + 0.02), STEEL))
    parts.append((_box(0.08, 0.25, 0.12, 0.06, 0.05, arm_z - 0.04), WOOD))
    if weapon == "m79":
        parts.append((tc.cylinder(0.07, 0.3, sections=8).apply_transform(
            trimesh.transformations.rotation_matrix(math.pi / 2, (1, 0, 0))).apply_transform(
            _at(0.06, 0.45, arm_z + 0.02)), STEEL))
    return parts


def build_man(name: str, faction: str, pose: str, weapon: str) -> p3d.NodePath:
    """A man in a pose as one node (facing +x as the models do, feet at the origin), on a plain base."""
    root = p3d.NodePath(name)
    turned = root.attach_new_node("turned")
    turned.set_h(-90)  # built facing +y
    base = tc.cylinder(BASE_R, 0.08, sections=24)
    base.apply_translation((0, 0, 0.04))
    turned.attach_new_node(geom.trimesh_node("base", base, BASE))
    upper = turned.attach_new_node("body")
    for k, (mesh, color) in enumerate(man_parts(faction, pose, weapon)):
        upper.attach_new_node(geom.trimesh_node(f"{name}-{k}", mesh, color))
    upper.flatten_strong()
    if pose == "prone":  # laid along the facing, head forward
        upper.set_p(-90)
        upper.set_pos(0, -0.7, 0.16)
    elif pose == "at_window":  # over the sill
        upper.set_p(-POSE_LEAN["at_window"])
    elif pose == "leaning":  # out past the jamb
        upper.set_r(POSE_LEAN["leaning"])
    return root


@dataclass
class FigurePiece:
    id: str
    side: str
    node: p3d.NodePath
    man: p3d.NodePath
    label: p3d.NodePath
    ring: p3d.NodePath
    key: tuple
    tab: p3d.NodePath | None = None
    width: float = 2 * BASE_R  # (the tape measures from a figure's base as from a stand's)
    depth: float = 2 * BASE_R


class TetFigures:
    """The figures of the last view (see the module docstring)."""

    def __init__(self, parent: p3d.NodePath, library, height_at):
        self.root = parent.attach_new_node("figures")
        self.library = library
        self.height_at = height_at
        self.figures: dict[str, FigurePiece] = {}
        self.elements: dict[str, dict] = {}  # each figure's view record, by id (the app's name for pieces)
        self.blinds: dict = {}
        self.stands = self.figures  # the line-of-sight tool and the tape take a figure as they take a stand
        self.view: dict = {}
        self.selected: str | None = None
        self.hovered: str | None = None
        self.acting: set[str] = set()
        self.labels_visible = True
        self.marks = self.root.attach_new_node("marks")

    # -- the view ------------------------------------------------------------------------------------
    def apply_view(self, view: dict) -> None:
        self.view = view
        figs = {f["id"]: f for f in view.get("figures") or []}
        for gone in [k for k in self.figures if k not in figs]:
            self.figures.pop(gone).node.remove_node()
        self.elements = figs
        self.acting = set(view.get("acting") or [])
        for fid, f in figs.items():
            faction = str(f.get("troop") or f.get("faction") or FACTION.get(f.get("side"), "vc"))
            alive = f.get("alive", True)
            lean = f.get("lean_to")
            key = (faction, f.get("pose", "standing"), f.get("weapon", ""), alive,
                   None if lean is None else float(lean))
            piece = self.figures.get(fid)
            if piece is None or piece.key != key:
                if piece is not None:
                    piece.node.remove_node()
                piece = self._make(f, faction, key)
                self.figures[fid] = piece
            self.place(fid, float(f["x"]), float(f["y"]), float(f.get("facing", 0.0)))
            ducked = bool(f.get("ducked")) and alive
            if ducked and piece.tab is None:
                piece.tab = text_node("DUCKED", 0.26, (1.0, 0.82, 0.35, 1), parent=piece.node)
                piece.tab.set_pos(0, 0, HEIGHT + 0.75)
            elif not ducked and piece.tab is not None:
                piece.tab.remove_node()
                piece.tab = None
        self._labels()

    def _make(self, f: dict, faction: str, key: tuple) -> FigurePiece:
        fid, side = f["id"], f.get("side", "allied")
        pose, weapon, alive = key[1], key[2], key[3]  # key[4]: where he leans to (the view's lean_to)
        node = self.root.attach_new_node(f"figure-{fid}")
        node.set_tag("figure", fid)
        shown = pose if alive else "prone"  # the dead lie where they fell, greyed
        if shown == "leaning" and key[4] is not None:  # out to his right: the mirrored model
            shown = "leaning_right" if ((key[4] - float(f.get("facing", 0.0)) + 540) % 360) - 180 < 0 else shown
        keys = [f"tet_{faction}_{weapon}_{shown}", f"tet_{faction}_{shown}"]
        key_found = next((k for k in keys if self.library is not None and self.library.has(k)), None)
        if key_found is not None:
            man = self.library.instance(key_found, node)
            # its first faces are its soft shadow (models/build_models.py): blended, after the table
            man.set_transparency(p3d.TransparencyAttrib.M_alpha, 1)
            man.set_bin(stand_bin(), 0)
        else:
            man = build_man(f"man-{fid}", faction, shown, weapon)
            man.reparent_to(node)
        if not alive:
            man.set_color_scale(*DEAD)
        color = SIDE_COLORS.get(side, (0.8, 0.8, 0.8, 1))
        geom.lines("rim", [geom.circle_points(0, 0, BASE_R + 0.02, 0.085, 32)], color, 3.0).reparent_to(man)
        ring = geom.lines("ring", [geom.circle_points(0, 0, BASE_R + 0.15, 0.1, 40)], SELECTED_COLOR, 4.0)
        ring.reparent_to(node)
        ring.hide()
        name = f.get("name", fid)
        label = text_node(name, LABEL, color, parent=self.root)
        return FigurePiece(fid, side, node, man, label, ring, key)

    def place(self, fid: str, x: float, y: float, facing: float) -> None:
        """Put a figure at (x, y) facing ``facing`` degrees (0 east, 90 north: the view's convention)."""
        piece = self.figures.get(fid)
        if piece is None:
            return
        z = self.height_at(x, y)
        piece.node.set_pos(x, y, z)
        piece.man.set_h(facing)  # facing 0 is east, as the models are built
        back = AT_WINDOW_BACK if piece.key[1] == "at_window" and piece.key[3] else 0.0
        piece.man.set_pos(-back * math.cos(math.radians(facing)), -back * math.sin(math.radians(facing)), 0)
        piece.label.set_pos(x, y, z + HEIGHT + 0.45)

    def fit_labels(self, eye: p3d.LPoint3) -> None:
        """Each name at a size for the camera at ``eye``: LABEL from LABEL_AT or farther, smaller closer."""
        for piece in self.figures.values():
            d = (piece.label.get_pos() - eye).length()
            piece.label.set_scale(LABEL * min(1.0, max(0.33, d / LABEL_AT)))
        for tag in self.marks.find_all_matches("=place-label"):  # 'head', 'chest' beside the marks
            d = (tag.get_pos() - eye).length()
            tag.set_scale(PLACE_LABEL * min(1.0, max(0.4, d / LABEL_AT)))

    def position(self, fid: str) -> p3d.LPoint3 | None:
        piece = self.figures.get(fid)
        return None if piece is None else piece.node.get_pos()

    def eye(self, fid: str) -> tuple[float, float, float] | None:
        p = self.position(fid)
        pose = (self.elements.get(fid) or {}).get("pose", "standing")
        h = {"kneeling": 0.62, "prone": 0.22}.get(pose, 0.93) * HEIGHT
        return None if p is None else (p.x, p.y, p.z + h)

    def element_centre(self, fid: str) -> p3d.LPoint3 | None:
        p = self.position(fid)
        return None if p is None else p3d.LPoint3(p.x, p.y, p.z + HEIGHT / 2)

    # -- selection, hover and names ------------------------------------------------------------------
    def select(self, fid: str | None) -> None:
        self.selected = fid if fid in self.figures else None
        self._labels()

    def hover(self, fid: str | None) -> None:
        if fid != self.hovered:
            self.hovered = fid
            self._labels()

    def set_labels_visible(self, visible: bool) -> None:
        self.labels_visible = visible
        self._labels()

    def _labels(self) -> None:
        for fid, piece in self.figures.items():
            shown = self.labels_visible and (fid in (self.selected, self.hovered) or fid in self.acting)
            piece.label.show() if shown else piece.label.hide()
            piece.ring.show() if fid == self.selected else piece.ring.hide()

    # -- picking -------------------------------------------------------------------------------------
    def pick(self, origin: p3d.LPoint3, direction: p3d.LVector3, only=None) -> tuple[str, str] | None:
        """The figure nearest along a ray: ('stand', id) as the app's tools name a piece, by an upright
        cylinder round each man."""
        best = None
        o = np.array([origin.x, origin.y, origin.z])
        d = np.array([direction.x, direction.y, direction.z])
        for fid, piece in self.figures.items():
            p = piece.node.get_pos()
            c = np.array([p.x, p.y])
            # the closest approach of the ray to the figure's axis, in plan
            dd = d[:2]
            a = float(dd @ dd)
            t = float((c - o[:2]) @ dd / a) if a > 1e-9 else 0.0
            if t <= 0:
                continue
            q = o + d * t
            if np.hypot(*(q[:2] - c)) <= PICK_R and p.z - 0.2 <= q[2] <= p.z + HEIGHT + 0.3:
                if best is None or t < best[0]:
                    best = (t, fid)
        return None if best is None else ("stand", best[1])

    # -- marks drawn on the figures ------------------------------------------------------------------
    def clear_marks(self) -> None:
        for child in self.marks.get_children():
            child.remove_node()

    def mark_places(self, places: list[dict]) -> None:
        """The body places a firer's eye reaches (bright) and those the walls hide (dim), from ``los.check``."""
        self.clear_marks()
        for pl in places:
            pt = pl.get("point")
            if not pt or len(pt) < 3:
                continue
            seen = bool(pl.get("seen"))
            color = (1.0, 0.3, 0.2, 1) if seen else (0.55, 0.55, 0.6, 0.8)
            z = self.height_at(pt[0], pt[1]) + float(pt[2])
            node = geom.disc(f"place-{pl.get('place')}", 0.16 if seen else 0.1, color)
            node.reparent_to(self.marks)
            node.set_pos(pt[0], pt[1], z)
            node.set_billboard_point_eye()
            geom.overlay(node)
            node.set_depth_test(False)
            node.set_bin("fixed", 40)
            if seen:
                tag = text_node(str(pl.get("place", "")), PLACE_LABEL, (1, 0.85, 0.8, 1), parent=self.marks)
                tag.set_pos(pt[0] + 0.45, pt[1], z)
                tag.set_tag("place-label", "1")

    def destroy(self) -> None:
        self.root.remove_node()
