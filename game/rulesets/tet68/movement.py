"""Movement in Tet '68 (TET-9, TET-10, G-41): what a move along a path costs, as a share of the figure's
move (1 is all of it), with every wall it climbs and every kind of ground it crosses said, each with its
clause. A figure at Initiative 0 (or ducked back) does not move (TET-17, TET-19): ``fire.Man.may_move``."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from shapely.geometry import LineString

from game.rulesets.tet68.exposure import Wall
from game.rulesets.tet68.tables import Tables, tables
from game.rulesets.tet68.town import Town

STRIDE = 0.5
"""Inches either side of a wall climbed that belong to the climb, not to the ground (engine reading: a
full move's climb still sets the figure down on the far side)."""


@dataclass
class MoveCost:
    share: float = 0.0
    legal: bool = True
    parts: list[dict] = field(default_factory=list)
    reason: str | None = None

    def to_dict(self) -> dict:
        return {"share": round(self.share, 4), "legal": self.legal and self.share <= 1 + 1e-9,
                "parts": self.parts, **({"reason": self.reason} if self.reason else {}), "clause": "TET-9; TET-10"}


def _crossing(wall: Wall, a: tuple[float, float], b: tuple[float, float]) -> float | None:
    """Where (inches along the wall) the path from ``a`` to ``b`` crosses it, or None."""
    seg, line = LineString([wall.a, wall.b]), LineString([a, b])
    hit = seg.intersection(line)
    if hit.is_empty or hit.geom_type != "Point":
        return None
    return math.dist(wall.a, (hit.x, hit.y))


def climb(wall: Wall, along: float, t: Tables) -> tuple[float, float]:
    """(the height climbed where the path crosses ``wall`` at ``along``): a door's 0, a window's sill, or
    the wall; and the share of a move it costs (TET-10; inf: it cannot be climbed, G-41)."""
    opening = next((o for o in wall.openings if o.start <= along <= o.end), None)
    height = wall.height if opening is None else opening.bottom
    figure = t.figure.height
    if height <= 1e-9:
        return 0.0, 0.0
    if height <= t.movement.chest * figure:
        return height, t.movement.low_wall
    if height <= t.movement.limit * figure:
        return height, t.movement.high_wall
    return height, math.inf


def ground(town: Town, a: tuple[float, float], b: tuple[float, float]) -> dict[str, float]:
    """TET-9: the inches of the straight line from ``a`` to ``b`` in buildings, on tiles outside them, and
    in the open (exact: the line cut by the floors' and tiles' outlines)."""
    line = LineString([a, b])
    length = line.length
    if length <= 0:
        return {"open": 0.0, "tile": 0.0, "building": 0.0}
    floors, tiles = town.outlines()
    inb = line.intersection(floors).length if floors is not None else 0.0
    ont = max(0.0, (line.intersection(tiles).length if tiles is not None else 0.0) - inb)
    return {"open": max(0.0, length - inb - ont), "tile": ont, "building": inb}


def cost(town: Town, path: list[tuple[float, float]], t: Tables | None = None) -> MoveCost:
    """The share of a move the path takes (TET-9 ground by ground, TET-10 wall by wall)."""
    t = t or tables()
    m = t.movement
    rate = {"open": m.open, "tile": m.tile, "building": m.building}
    out = MoveCost()
    inches = {"open": 0.0, "tile": 0.0, "building": 0.0}
    for a, b in zip(path, path[1:], strict=False):
        length = math.dist(a, b)
        climbed: list[float] = []  # where along this leg (inches from a) a wall is climbed
        for wall in town.walls:
            along = _crossing(wall, a, b)
            if along is None:
                continue
            height, share = climb(wall, along, t)
            wx = wall.a[0] + (wall.b[0] - wall.a[0]) * along / wall.length
            wy = wall.a[1] + (wall.b[1] - wall.a[1]) * along / wall.length
            if share == 0.0:
                out.parts.append({"wall": wall.id, "through": "door", "share": 0.0, "clause": "TET-10"})
                continue
            climbed.append(math.dist(a, (wx, wy)))
            if math.isinf(share):
                out.legal = False
                out.reason = (f"wall {wall.id} is {height:g}\" high, over {m.limit:g} times a figure's height: "
                              f"only through a door or a breach")
                out.parts.append({"wall": wall.id, "height": height, "share": None, "clause": "TET-10; G-41"})
                continue
            out.share += share
            out.parts.append({"wall": wall.id, "height": height, "share": share, "clause": "TET-10",
                              "text": f"climbing {height:g}\" at {wall.id}: {'half' if share < 1 else 'a full'} move"})
        for kind, n in ground(town, a, b).items():
            inches[kind] += n
        for c in climbed:  # the stride over a wall climbed belongs to the climb
            lo, hi = max(0.0, c - STRIDE), min(length, c + STRIDE)
            if hi > lo and length > 0:
                pa = (a[0] + (b[0] - a[0]) * lo / length, a[1] + (b[1] - a[1]) * lo / length)
                pb = (a[0] + (b[0] - a[0]) * hi / length, a[1] + (b[1] - a[1]) * hi / length)
                for kind, n in ground(town, pa, pb).items():
                    inches[kind] -= n
    for kind, n in inches.items():
        if n > 1e-6:
            out.share += n / rate[kind]
            out.parts.append({"ground": kind, "inches": round(n, 3), "share": round(n / rate[kind], 4),
                              "clause": "TET-9", "text": f"{n:.1f}\" {'in a building' if kind == 'building' else 'on a tile' if kind == 'tile' else 'in the open'} of {rate[kind]:g}\""})
    if out.legal and out.share > 1 + 1e-9:
        out.legal = False
        out.reason = f"the move takes {out.share:.2f} of a figure's move (TET-9, TET-10)"
    return out
