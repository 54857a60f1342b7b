"""The point being chosen on Tet '68's table, drawn as the offer describes it and as the engine answers.

A ``point`` parameter carries where it is measured ``from``, its ``max`` (and ``min``) reach, and what to
draw there: a ``radius`` (a grenade's or an M79 round's blast) or a ``width`` (a cone of automatic fire,
as wide at the aim point as that fraction of the range). The ghost draws those round the mouse; when the
engine's preview comes back it is redrawn from the answer: red where the engine says the move is not
legal, the cone's own corners, the figures a blast or cone would catch ringed.
"""

from __future__ import annotations

import math

from game.client import geom

OK, BAD, CAUGHT = (0.45, 0.9, 0.5, 1.0), (1.0, 0.35, 0.3, 1.0), (1.0, 0.55, 0.15, 1.0)
SPOT = 0.42
"""The radius of the plain spot drawn at the mouse (a figure's base and a little), inches."""


class Ghost:
    def __init__(self, scene, origin: tuple[float, float] | None, spec: dict, pieces):
        self.scene = scene
        self.pieces = pieces
        self.origin = tuple(spec["from"][:2]) if spec.get("from") else origin
        self.spec = spec
        self.root = scene.overlays.attach_new_node("ghost")
        self.at = self.origin or (0.0, 0.0)
        self.answer: dict = {}
        self._draw()

    def follow(self, x: float, y: float) -> tuple[float, float]:
        self.at = (x, y)
        self.answer = {}
        self._draw()
        return x, y

    def tell(self, result: dict) -> None:
        self.answer = result
        self._draw()

    def _z(self, x: float, y: float) -> float:
        return self.scene.table.height_at(x, y) + 0.2

    def _draw(self) -> None:
        for c in self.root.get_children():
            c.remove_node()
        ans, spec = self.answer, self.spec
        color = BAD if ans.get("legal") is False else OK
        x, y = self.at
        z = self._z(x, y)
        r = float(spec.get("radius") or ans.get("radius") or SPOT)
        disc = geom.disc("spot", r, (*color[:3], 0.25 if spec.get("radius") else 0.35))
        disc.reparent_to(self.root)
        disc.set_pos(x, y, z)
        geom.lines("edge", [geom.circle_points(x, y, r, z, 48)], color, 3.0).reparent_to(self.root)
        if self.origin is not None:
            ox, oy = self.origin
            oz = self._z(ox, oy)
            corners = ans.get("corners")
            if corners is None and spec.get("width"):
                d = math.hypot(x - ox, y - oy) or 1e-6
                ux, uy, w = (x - ox) / d, (y - oy) / d, float(spec["width"]) * d
                corners = [[x - uy * w / 2, y + ux * w / 2], [x + uy * w / 2, y - ux * w / 2]]
            if corners:
                pts = [(ox, oy, oz), (corners[0][0], corners[0][1], z), (corners[1][0], corners[1][1], z), (ox, oy, oz)]
                geom.lines("cone", [pts], CAUGHT, 3.0).reparent_to(self.root)
            else:
                geom.lines("path", [[(ox, oy, oz), (x, y, z)]], color, 3.0).reparent_to(self.root)
            for name, dim in (("max", 0.35), ("min", 0.25)):
                if spec.get(name):
                    pts = geom.circle_points(ox, oy, float(spec[name]), oz - 0.05, 96)
                    geom.lines(f"reach-{name}", [pts], (1, 1, 1, dim), 1.5).reparent_to(self.root)
        for row in (ans.get("in_blast") or []) + (ans.get("in_cone") or []):
            p = self.pieces.position(row.get("id", ""))
            if p is not None:
                geom.lines("caught", [geom.circle_points(p.x, p.y, 0.7, p.z + 0.12, 40)], CAUGHT, 4.0) \
                    .reparent_to(self.root)

    def destroy(self) -> None:
        self.root.remove_node()
