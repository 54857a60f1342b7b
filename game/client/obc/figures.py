"""One Brain-Cell's men and choppers on the table: one 15 mm man per man of the view, and each chopper at the
height the view gives it, with its shadow on the table beneath.

A man is the figure builder's man (``game.client.tet.figures``: headgear and dress tell the sides apart, a US
helmet and flak vest, a VC's non la and black pyjamas; the base's rim in the side's colour) drawn at 15 mm
(``SCALE``), at the view's ``x``, ``y``, standing or lying as its ``posture`` says; a man aboard a chopper
or off the table is not drawn. His state is a tab over him: PINNED, STUNNED, IN COVER, PANIC, DOWN (disabled)
or a grey corpse (dead). Selecting a man rings every man of his squad and shows the squad's name.

A chopper is ``models/uh1c_gunship.glb`` (``uh1_dustoff.glb`` where the view names a dustoff) at
``height_at(x, y) + height``, turned to its ``facing``, a dark disc on the ground under it (wider and fainter
the higher it flies) and a thin line down to it while airborne.

Mortar smoke (OBC-39) stands where the view's ``smoke`` clouds are: Dinky Dau's smoke model every half
square along each cloud, from where the round landed to its downwind end, half-transparent, as wide as the
cloud; a cloud the view no longer lists is taken off.

What it leaves out: moving them (events.py animates, the view then puts them), and every rule.
"""

from __future__ import annotations

import math

import panda3d.core as p3d

from game.client import geom
from game.client.pieces import SIDE_COLORS, text_node
from game.client.tet.figures import HEIGHT as TET_HEIGHT
from game.client.tet.figures import TetFigures

SCALE = 0.36
"""The figure builder's 1.8" man at 15 mm on a 1" = 10 m table: about 0.65" tall."""
HEIGHT = TET_HEIGHT * SCALE
WEAPON = {("allied", "mg"): "m60", ("insurgent", "mg"): "rpd", ("allied", "blooper"): "m79", "smg": "smg"}
TABS = {"pinned": ("PINNED", (1.0, 0.82, 0.35, 1)), "stunned": ("STUNNED", (1.0, 0.7, 0.3, 1)),
        "cover": ("IN COVER", (0.75, 0.85, 0.95, 1)), "panic": ("PANIC", (1.0, 0.4, 0.3, 1)),
        "disabled": ("DOWN", (1.0, 0.35, 0.3, 1))}
HUEY = ("uh1c_gunship", "uh1_dustoff")
CHOPPER_SCALE = 0.55
PICK_R = 0.5
"""How near in plan a click must fall to a man, inches."""
SHADOW = (0.02, 0.03, 0.02, 0.55)


def figure_of(m: dict, leaders: set[str]) -> dict:
    """A man of the OBC view as the figure builder's record (pose, weapon, alive, facing)."""
    side = m.get("side", "allied")
    weapon = WEAPON.get((side, m.get("weapon")), WEAPON.get(m.get("weapon"), "rifle"))
    status = m.get("status", "ok")
    pose = "prone" if m.get("posture") == "lying" or status == "disabled" else "standing"
    facing = 90.0 if side == "allied" else 270.0  # toward the enemy's edge (the view gives no facing)
    return {"id": m["id"], "side": side, "name": m.get("name", m["id"]), "x": m["x"], "y": m["y"],
            "troop": "marine" if side == "allied" else "vc", "weapon": weapon, "pose": pose, "facing": facing,
            "alive": status != "dead", "leader": m["id"] in leaders}


def tab_of(m: dict) -> str | None:
    """Which state tab a man carries (the view's words: status, panicked, stunned, pending outcome)."""
    status = m.get("status", "ok")
    if status == "disabled":
        return "disabled"
    if status == "dead":
        return None
    if m.get("panicked"):
        return "panic"
    if status in TABS:
        return status
    if m.get("stunned"):
        return "stunned"
    if m.get("pending") in TABS:
        return m.get("pending")
    return None


def cloud_puffs(c: dict) -> list[tuple[float, float, float]]:
    """(x, y, radius) of the puffs that draw a smoke cloud of the view: every half width from its ``from`` to
    its ``to`` (the engine's own cloud; a drawing, not a rule)."""
    (x0, y0), (x1, y1), w = c["from"][:2], c["to"][:2], float(c.get("width", 1.0))
    n = max(1, math.ceil(math.dist((x0, y0), (x1, y1)) / (w / 2)))
    return [(x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n, w / 2) for k in range(n + 1)]


class ObcFigures(TetFigures):
    """The men of the last view (see the module docstring); what the app asks of a scene's pieces."""

    def __init__(self, parent: p3d.NodePath, library, height_at):
        super().__init__(parent, library, height_at)
        self.men: dict[str, dict] = {}
        self.squads: dict[str, dict] = {}
        self.choppers: dict[str, tuple[p3d.NodePath, p3d.NodePath, p3d.NodePath]] = {}
        self.vehicles: dict[str, dict] = {}
        self.tabs: dict[str, p3d.NodePath] = {}
        self.squad_marks = self.root.attach_new_node("squad")
        self.clouds: dict[str, p3d.NodePath] = {}

    def apply_view(self, view: dict) -> None:
        men = [m for m in view.get("men") or [] if m.get("on_table", True) and not m.get("aboard")
               and m.get("status") != "gone" and not m.get("evacuated")]
        self.men = {m["id"]: m for m in view.get("men") or []}
        self.squads = {q["id"]: q for q in view.get("squads") or []}
        leaders = {q.get("leader") for q in self.squads.values() if q.get("leader")}
        # names show on hover and selection only: the selected man's squad is ringed and named instead
        super().apply_view({**view, "figures": [figure_of(m, leaders) for m in men], "acting": []})
        for fid, piece in self.figures.items():
            piece.node.set_scale(SCALE)
            piece.label.set_scale(0.26)
            self.place(fid, float(self.elements[fid]["x"]), float(self.elements[fid]["y"]),
                       float(self.elements[fid]["facing"]))
        self._tabs()
        self._choppers(view.get("vehicles") or [])
        self._smoke(view.get("smoke") or [])
        self._labels()

    def place(self, fid: str, x: float, y: float, facing: float) -> None:
        super().place(fid, x, y, facing)
        piece = self.figures.get(fid)
        if piece is not None:
            piece.label.set_pos(x, y, piece.node.get_z() + HEIGHT + 0.35)
            tab = self.tabs.get(fid)
            if tab is not None:
                tab.set_pos(x, y, piece.node.get_z() + HEIGHT + 0.7)

    def _tabs(self) -> None:
        for tab in self.tabs.values():
            tab.remove_node()
        self.tabs = {}
        for fid, piece in self.figures.items():
            which = tab_of(self.men.get(fid, {}))
            if which is None:
                continue
            words, color = TABS[which]
            tab = text_node(words, 0.22, color, parent=self.marks.get_parent())
            p = piece.node.get_pos()
            tab.set_pos(p.x, p.y, p.z + HEIGHT + 0.7)
            if not self.labels_visible:
                tab.hide()
            self.tabs[fid] = tab

    def set_labels_visible(self, visible: bool) -> None:
        """Names, state tabs, chopper names and the squad's ring are interface: all shown or hidden."""
        super().set_labels_visible(visible)
        for node in list(self.tabs.values()) + [parts[0].find("label") for parts in self.choppers.values()]:
            if not node.is_empty():
                node.show() if visible else node.hide()

    # -- choppers --------------------------------------------------------------------------------------
    def _choppers(self, vehicles: list[dict]) -> None:
        here = {v["id"]: v for v in vehicles if v.get("status") not in ("gone", "left") and v.get("on_table", True)}
        self.vehicles = here
        for gone in [k for k in self.choppers if k not in here]:
            for n in self.choppers.pop(gone):
                n.remove_node()
        for vid, v in here.items():
            if vid not in self.choppers:
                self.choppers[vid] = self._make_chopper(v)
            self.put_chopper(vid, float(v["x"]), float(v["y"]), float(v.get("height", 0.0)),
                             float(v.get("facing", 90.0)))
            node = self.choppers[vid][0]
            node.set_color_scale((0.35, 0.33, 0.3, 1) if v.get("status") == "destroyed" else (1, 1, 1, 1))

    def _smoke(self, clouds: list[dict]) -> None:
        """The view's smoke clouds (OBC-39) on the table; those it no longer lists, off."""
        here = {c["id"]: c for c in clouds}
        for gone in [k for k in self.clouds if k not in here]:
            self.clouds.pop(gone).remove_node()
        for cid, c in here.items():
            if cid not in self.clouds:
                self.clouds[cid] = self._make_cloud(c)

    def _make_cloud(self, c: dict) -> p3d.NodePath:
        node = self.root.attach_new_node(f"smoke-{c['id']}")
        node.set_tag("smoke", c["id"])
        for x, y, r in cloud_puffs(c):
            puff = node.attach_new_node("puff")
            puff.set_pos(x, y, self.height_at(x, y))
            if self.library is not None and self.library.has("smoke"):
                self.library.instance("smoke", puff)
            else:
                geom.disc("smoke", 1.0, (0.85, 0.85, 0.82, 1)).reparent_to(puff)
            puff.set_scale(r)
        node.set_transparency(p3d.TransparencyAttrib.M_alpha)
        node.set_alpha_scale(0.6)
        node.set_bin("transparent", 10)
        node.set_depth_write(False)
        return node

    def _make_chopper(self, v: dict):
        node = self.root.attach_new_node(f"chopper-{v['id']}")
        node.set_tag("vehicle", v["id"])
        key = HUEY[1] if "dustoff" in str(v.get("name", "")).lower() else HUEY[0]
        if self.library is not None and self.library.has(key):
            body = self.library.instance(key, node)
            body.set_scale(CHOPPER_SCALE)
        else:
            body = geom.disc("huey", 1.2, (0.3, 0.34, 0.24, 1))
            body.reparent_to(node)
        shadow = geom.disc(f"shadow-{v['id']}", 1.6, SHADOW)
        shadow.reparent_to(self.root)
        shadow.set_transparency(p3d.TransparencyAttrib.M_alpha)
        shadow.set_depth_offset(2)
        shadow.set_light_off(1)
        plumb = geom.lines("plumb", [[(0, 0, 0), (0, 0, -1)]], (*SIDE_COLORS.get(v.get("side"), (1, 1, 1, 1))[:3], 0.5), 1.5)
        plumb.reparent_to(self.root)
        label = text_node(v.get("name", v["id"]), 0.3, SIDE_COLORS.get(v.get("side"), (1, 1, 1, 1)), parent=node)
        label.set_pos(0, 0, 1.6)
        return node, shadow, plumb

    def put_chopper(self, vid: str, x: float, y: float, height: float, facing: float) -> None:
        """A chopper at (x, y), ``height`` inches over the table there, nose to ``facing`` degrees."""
        parts = self.choppers.get(vid)
        if parts is None:
            return
        node, shadow, plumb = parts
        ground = self.height_at(x, y)
        node.set_pos(x, y, ground + height)
        node.set_h(facing)
        spread = 1.0 + 0.04 * height
        shadow.set_pos(x, y, ground + 0.06)
        shadow.set_scale(spread)
        shadow.set_alpha_scale(max(0.25, 1.0 - 0.05 * height))
        if height > 0.3:
            plumb.show()
            plumb.set_pos(x, y, ground + height)
            plumb.set_sz(height)
        else:
            plumb.hide()

    def chopper_pos(self, vid: str) -> p3d.LPoint3 | None:
        parts = self.choppers.get(vid)
        return None if parts is None else parts[0].get_pos()

    def position(self, fid: str) -> p3d.LPoint3 | None:
        p = super().position(fid)
        return p if p is not None else self.chopper_pos(fid)

    def eye(self, fid: str):
        piece = self.figures.get(fid)
        if piece is None:
            p = self.chopper_pos(fid)
            return None if p is None else (p.x, p.y, p.z + 0.5)
        p = piece.node.get_pos()
        lying = (self.elements.get(fid) or {}).get("pose") == "prone"
        return (p.x, p.y, p.z + (0.15 if lying else 0.9 * HEIGHT))

    def element_centre(self, fid: str) -> p3d.LPoint3 | None:
        p = self.position(fid)
        return None if p is None else p3d.LPoint3(p.x, p.y, p.z + HEIGHT / 2)

    # -- the squad of the selected man ------------------------------------------------------------------
    def _labels(self) -> None:
        super()._labels()
        if not hasattr(self, "squad_marks"):
            return
        for child in self.squad_marks.get_children():
            child.remove_node()
        sel = self.men.get(self.selected or "")
        if not sel or not self.labels_visible:
            return
        squad = sel.get("squad")
        color = SIDE_COLORS.get(sel.get("side"), (1, 1, 1, 1))
        for fid, piece in self.figures.items():
            if self.men.get(fid, {}).get("squad") == squad:
                p = piece.node.get_pos()
                geom.lines("squad", [geom.circle_points(p.x, p.y, 0.42, p.z + 0.05, 24)], color,
                           2.5).reparent_to(self.squad_marks)
        q = self.squads.get(squad, {})
        p = self.figures[self.selected].node.get_pos() if self.selected in self.figures else None
        if p is not None and q:
            words = q.get("name", squad) + (f": {q['order']}" if q.get("order") else "")
            tag = text_node(words, 0.28, color, parent=self.squad_marks)
            tag.set_pos(p.x, p.y, p.z + HEIGHT + 1.0)

    def pick(self, origin, direction, only=None):
        """The man (or else the chopper) the ray passes through: where the ray crosses the height of a man's
        middle, within ``PICK_R`` of him in plan (15 mm men stand close: the nearest there wins)."""
        import numpy as np

        o = np.array([origin.x, origin.y, origin.z])
        d = np.array([direction.x, direction.y, direction.z])
        best = None
        for fid, piece in self.figures.items():
            p = piece.node.get_pos()
            for lift in (HEIGHT * 0.5, 0.12):  # his middle, or lying on the ground
                if abs(d[2]) < 1e-6:
                    continue
                t = (p.z + lift - o[2]) / d[2]
                q = o + d * t
                off = math.hypot(q[0] - p.x, q[1] - p.y)
                if t > 0 and off <= PICK_R and (best is None or off < best[0]):
                    best = (off, fid)
        if best is not None:
            return ("stand", best[1])
        for vid, (node, _s, _p) in self.choppers.items():
            c = np.array(node.get_pos())
            t = float((c - o) @ d / (d @ d))
            if t > 0 and np.linalg.norm(o + d * t - c) < 1.6 and (best is None or t < best[0]):
                best = (t, vid)
        return None if best is None else ("stand", best[1])

    def destroy(self) -> None:
        self.root.remove_node()
