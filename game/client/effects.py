"""Short-lived combat effects on the table, driven only by engine events (they never decide a rule).

``Effects.play(event, at)`` turns one event into nodes that appear ``at`` seconds from now and fade out:
muzzle flashes and tracers for ``fire``, a red pulse for ``hit``, a falling copy of the removed stand
for ``casualty``, a flash of the ambushers for ``ambush``, crossed strikes for ``assault``, the beaten
zone / backblast / grazing corridor for ``template``, a billowing cloud for ``smoke``, a burst for
``structure``, and a "stopped here" mark for a ``move`` the engine ``frozen``. Every node lives under
one root and is removed when it has faded (``update`` each frame), so a game of hours leaks nothing.

Timing uses ``clock()`` (seconds, monotonic by default) so tests can drive it by hand.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import panda3d.core as p3d

from game.client import geom
from game.client.pieces import SIDE_COLORS, Pieces, text_node

FLASH = (1.0, 0.92, 0.55, 1.0)
TRACER = {"allied": (1.0, 0.35, 0.25, 1.0), "insurgent": (0.55, 1.0, 0.45, 1.0)}  # US red, VC/NVA green
HIT = (1.0, 0.12, 0.08, 1.0)
ZONE = (1.0, 0.55, 0.15, 1.0)
DUST = (0.72, 0.64, 0.50, 1.0)
MAX_EFFECTS = 400  # a hard cap: the oldest go first


@dataclass
class Effect:
    node: p3d.NodePath
    start: float
    end: float
    fade: float  # seconds of fade-out at the end
    grow: float = 0.0  # scale added over the life (pulses, clouds)
    animate: object = None  # called with the fraction of the life gone, each frame it shows
    shown: bool = False


class Effects:
    def __init__(self, parent: p3d.NodePath, pieces: Pieces, height_at, clock=time.monotonic):
        self.root = parent.attach_new_node("effects")
        self.pieces = pieces
        self.height_at = height_at
        self.clock = clock
        self.live: list[Effect] = []
        self.zone_of: dict[str, tuple[float, float]] = {}  # element -> last beaten zone centre

    # -- bookkeeping -----------------------------------------------------------------------------
    def add(self, node: p3d.NodePath, at: float, life: float, fade: float = 0.4, grow: float = 0.0,
            animate=None) -> Effect:
        node.reparent_to(self.root)
        node.set_transparency(p3d.TransparencyAttrib.M_alpha)
        node.hide()
        now = self.clock()
        e = Effect(node, now + at, now + at + life, min(fade, life), grow, animate)
        self.live.append(e)
        while len(self.live) > MAX_EFFECTS:
            self.live.pop(0).node.remove_node()
        return e

    def update(self) -> None:
        now = self.clock()
        keep = []
        for e in self.live:
            if now >= e.end:
                e.node.remove_node()
                continue
            keep.append(e)
            if now < e.start:
                continue
            if not e.shown:
                e.node.show()
                e.shown = True
            left = e.end - now
            if left < e.fade:
                e.node.set_alpha_scale(max(0.0, left / e.fade))
            k = (now - e.start) / max(e.end - e.start, 1e-6)
            if e.grow:
                e.node.set_scale(max(0.05, 1.0 + e.grow * k))
            if e.animate is not None:
                e.animate(k)
        self.live = keep

    def count(self) -> int:
        return len(self.live)

    def clear(self) -> None:
        for e in self.live:
            e.node.remove_node()
        self.live = []

    def destroy(self) -> None:
        self.clear()
        self.root.remove_node()

    # -- geometry helpers ------------------------------------------------------------------------
    def _stand_pos(self, sid: str | None) -> p3d.LPoint3 | None:
        piece = self.pieces.stands.get(sid) if sid else None
        return None if piece is None else piece.node.get_pos()

    def _element_stands(self, element: str | None) -> list[str]:
        e = self.pieces.elements.get(element or "")
        return [s for s in (e or {}).get("stands", []) if s in self.pieces.stands]

    def _ground(self, x: float, y: float, lift: float = 0.08) -> p3d.LPoint3:
        return p3d.LPoint3(x, y, self.height_at(x, y) + lift)

    def _flash(self, pos: p3d.LPoint3, at: float, size: float = 0.55, color=FLASH, life: float = 0.35) -> None:
        star = geom.lines("flash", [[(-size, 0, 0), (size, 0, 0)], [(0, 0, -size), (0, 0, size)],
                                    [(-size * 0.6, 0, -size * 0.6), (size * 0.6, 0, size * 0.6)],
                                    [(-size * 0.6, 0, size * 0.6), (size * 0.6, 0, -size * 0.6)]], color, 4)
        holder = p3d.NodePath("muzzle")
        star.reparent_to(holder)
        star.set_billboard_point_eye()
        holder.set_pos(pos.x, pos.y, pos.z + 0.45)
        self.add(holder, at, life, fade=0.2)

    def _ring(self, x: float, y: float, r: float, color, at: float, life: float, grow: float = 0.0,
              width: float = 4.0, fill: float = 0.0) -> p3d.NodePath:
        z = self.height_at(x, y) + 0.12
        node = p3d.NodePath("ring")
        geom.lines("ring-line", [geom.circle_points(0, 0, r, 0, 48)], color, width).reparent_to(node)
        if fill:
            geom.disc("ring-fill", r, (*color[:3], fill)).reparent_to(node)
        node.set_pos(x, y, z)
        self.add(node, at, life, fade=min(1.0, life / 2), grow=grow)
        return node

    def _banner_text(self, text: str, pos: p3d.LPoint3, color, at: float, life: float = 2.5,
                     scale: float = 0.9) -> None:
        node = text_node(text, scale, color)
        node.set_pos(pos.x, pos.y, pos.z + 2.2)
        self.add(node, at, life, fade=0.6)

    # -- events ----------------------------------------------------------------------------------
    def play(self, ev: dict, at: float = 0.0) -> float:
        """Show one event from ``at`` seconds on; returns the seconds until the next event should start."""
        handler = getattr(self, "_on_" + str(ev.get("type", "")), None)
        return handler(ev, at) if handler is not None else 0.0

    def _on_fire(self, ev: dict, at: float) -> float:
        shooters = [s for s in (ev.get("stands") or self._element_stands(ev.get("element")))
                    if s in self.pieces.stands]
        target = self._stand_pos(ev.get("target"))
        if target is None and ev.get("element") in self.zone_of:
            x, y = self.zone_of[ev["element"]]
            target = self._ground(x, y, 0.1)
        color = TRACER.get(ev.get("side"), FLASH)
        lines = []
        for k, sid in enumerate(shooters):
            p = self._stand_pos(sid)
            for burst in range(3):
                self._flash(p, at + 0.12 * burst + 0.03 * k)
            if target is not None:
                # a little spread so each stand's stream reads as its own
                off = ((k % 3) - 1) * 0.25
                lines.append([(p.x, p.y, p.z + 0.45), (target.x + off, target.y - off, target.z + 0.3)])
        if lines:
            tracers = geom.lines("tracers", lines, color, 2.5)
            self.add(tracers, at + 0.05, 0.9, fade=0.5)
        return 0.6

    def _on_hit(self, ev: dict, at: float) -> float:
        p = self._stand_pos(ev.get("stand"))
        if p is None:
            return 0.0
        self._ring(p.x, p.y, 1.2, HIT, at, 1.6, grow=0.6, fill=0.25)
        return 0.25

    def _on_casualty(self, ev: dict, at: float) -> float:
        piece = self.pieces.stands.get(ev.get("stand"))
        x, y = ev.get("x"), ev.get("y")
        if piece is not None:
            p = piece.node.get_pos()
            x, y = p.x, p.y
            # the stand leaves the table when the view comes; a copy topples and fades where it stood
            ghost = piece.node.copy_to(self.root)
            ghost.set_transparency(p3d.TransparencyAttrib.M_alpha)
            ghost.set_bin("transparent", 25)
            holder = p3d.NodePath("fallen")
            ghost.reparent_to(holder)
            ghost.set_pos(0, 0, 0)
            holder.set_pos(p)
            holder.set_h(piece.node.get_h())
            self.add(holder, at, 2.2, fade=1.4, animate=lambda k: ghost.set_r(80 * min(1.0, k * 3.5) ** 2))
        if x is None or y is None:
            return 0.0
        self._ring(x, y, 1.4, HIT, at, 2.0, grow=0.8, width=5)
        self._banner_text("X", self._ground(x, y), HIT, at, life=1.8, scale=0.7)
        return 0.35

    def _on_eliminated(self, ev: dict, at: float) -> float:
        return 0.3

    def _on_ambush(self, ev: dict, at: float) -> float:
        for sid in self._element_stands(ev.get("element")):
            p = self._stand_pos(sid)
            self._ring(p.x, p.y, 1.3, SIDE_COLORS["insurgent"], at, 1.5, grow=1.0, width=6, fill=0.3)
            for burst in range(4):
                self._flash(p, at + 0.1 * burst, size=0.8)
        stands = self._element_stands(ev.get("element"))
        if stands:
            self._banner_text("AMBUSH!", self._stand_pos(stands[0]), (1.0, 0.3, 0.2, 1), at, life=3.0,
                              scale=1.4)
        return 0.8

    def _on_assault(self, ev: dict, at: float) -> float:
        a = self.pieces.element_centre(ev.get("element") or "")
        d = self.pieces.element_centre(ev.get("target_element") or "")
        if a is None or d is None:
            return 0.0
        mid = (a + d) / 2
        for k in range(4):
            self._flash(mid, at + 0.15 * k, size=1.0, color=(1.0, 0.75, 0.3, 1))
        self._ring(mid.x, mid.y, 2.0, (1.0, 0.75, 0.3, 1), at, 1.6, grow=0.5, width=5)
        self._banner_text("CLOSE ASSAULT", mid, (1.0, 0.82, 0.35, 1), at, life=2.5, scale=1.0)
        return 0.8

    def _on_assault_result(self, ev: dict, at: float) -> float:
        w = self.pieces.element_centre(ev.get("winner") or "")
        if w is not None:
            self._ring(w.x, w.y, 2.5, (1.0, 0.9, 0.4, 1), at, 2.0, grow=0.3, width=5)
        return 0.5

    def _on_surrounded(self, ev: dict, at: float) -> float:
        c = self.pieces.element_centre(ev.get("element") or "")
        if c is not None:
            self._ring(c.x, c.y, 3.0, HIT, at, 2.0, grow=-0.5, width=6)
        return 0.3

    def _on_template(self, ev: dict, at: float) -> float:
        kind = ev.get("kind")
        if kind == "beaten_zone" and "x" in ev:
            x, y, r = float(ev["x"]), float(ev["y"]), float(ev.get("radius", 1.5))
            if ev.get("element"):
                self.zone_of[ev["element"]] = (x, y)
            self._ring(x, y, r, ZONE, at, 4.0, width=4, fill=0.28)
        elif kind == "backblast" and ev.get("polygon"):
            pts = [(float(px), float(py)) for px, py in ev["polygon"]]
            z = max(self.height_at(px, py) for px, py in pts) + 0.12
            node = _polygon_fill("backblast", pts, z, (*ZONE[:3], 0.35))
            geom.lines("backblast-edge", [[(px, py, z) for px, py in pts + pts[:1]]], ZONE, 3).reparent_to(node)
            self.add(node, at, 3.5, fade=1.5)
        elif kind == "grazing_corridor" and ev.get("from") and ev.get("to"):
            (x0, y0), (x1, y1) = ev["from"][:2], ev["to"][:2]
            node = corridor_node(x0, y0, x1, y1, float(ev.get("width", 1.0)), self.height_at, (*ZONE[:3], 0.3))
            self.add(node, at, 3.0, fade=1.5)
        return 0.3

    def _on_smoke(self, ev: dict, at: float) -> float:
        if "x" not in ev:
            return 0.0
        x, y, r = float(ev["x"]), float(ev["y"]), float(ev.get("radius", 1.0))
        for k in range(5):
            a = 2 * math.pi * k / 5
            puff = self._ring(x + 0.4 * r * math.cos(a), y + 0.4 * r * math.sin(a), r * 0.5, DUST, at + 0.1 * k,
                              2.5, grow=1.2, width=3, fill=0.45)
            puff.set_z(puff.get_z() + 0.3 + 0.2 * k)
        return 0.4

    def _on_structure(self, ev: dict, at: float) -> float:
        x, y = ev.get("x"), ev.get("y")
        if x is None or y is None:
            return 0.0
        p = self._ground(float(x), float(y))
        for k in range(5):
            self._flash(p, at + 0.08 * k, size=1.4, color=(1.0, 0.6, 0.2, 1), life=0.5)
        self._ring(p.x, p.y, 2.0, DUST, at, 2.5, grow=1.0, width=4, fill=0.4)
        self._banner_text(str(ev.get("state", "")).upper(), p, (1.0, 0.75, 0.4, 1), at, life=2.5, scale=0.8)
        return 0.6

    def _on_move(self, ev: dict, at: float) -> float:
        if not ev.get("frozen"):
            return 0.0
        stops = [s["to"] for s in ev.get("stands", []) if s.get("to")]
        if not stops:
            return 0.0
        x = sum(s[0] for s in stops) / len(stops)
        y = sum(s[1] for s in stops) / len(stops)
        p = self._ground(x, y)
        why = "AMBUSH!" if ev.get("reaction") == "ambush" else "OPPORTUNITY FIRE"
        self._ring(x, y, 2.6, (1.0, 0.85, 0.2, 1), at, 4.0, width=5)
        self._banner_text(f"STOPPED HERE\n{why}", p, (1.0, 0.85, 0.2, 1), at, life=4.0, scale=0.7)
        return 0.4


def _polygon_fill(name: str, pts: list[tuple[float, float]], z: float, color) -> p3d.NodePath:
    """A flat convex-ish fan over ``pts`` (templates are convex: cones, corridors)."""
    fmt = p3d.GeomVertexFormat.get_v3c4()
    vdata = p3d.GeomVertexData(name, fmt, p3d.Geom.UH_static)
    vw = p3d.GeomVertexWriter(vdata, "vertex")
    cw = p3d.GeomVertexWriter(vdata, "color")
    for x, y in pts:
        vw.add_data3(x, y, z)
        cw.add_data4(*color)
    tris = p3d.GeomTriangles(p3d.Geom.UH_static)
    for i in range(1, len(pts) - 1):
        tris.add_vertices(0, i, i + 1)
    g = p3d.Geom(vdata)
    g.add_primitive(tris)
    node = p3d.GeomNode(name)
    node.add_geom(g)
    np_ = geom.overlay(p3d.NodePath(node))
    np_.set_two_sided(True)
    return np_


def corridor_node(x0: float, y0: float, x1: float, y1: float, width: float, height_at, color) -> p3d.NodePath:
    """A flat strip ``width`` wide from (x0, y0) to (x1, y1): grazing fire, an Overwatch corridor."""
    length = math.hypot(x1 - x0, y1 - y0) or 1e-6
    nx, ny = -(y1 - y0) / length * width / 2, (x1 - x0) / length * width / 2
    z = max(height_at(x0, y0), height_at(x1, y1), height_at((x0 + x1) / 2, (y0 + y1) / 2)) + 0.1
    pts = [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)]
    node = _polygon_fill("corridor", pts, z, color)
    geom.lines("corridor-edge", [[(px, py, z) for px, py in pts + pts[:1]]], (*color[:3], 1.0), 2.5).reparent_to(node)
    return node
