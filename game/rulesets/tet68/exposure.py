"""Exposure by ray casts (TET-16, G-41): how much of a figure a firer's eye sees past the walls.

A ruined building's wall (TET-3: 2" high, with doors and windows) is a vertical face over a plan segment
with its openings; a figure stands at a point in a pose (``data/tet68.toml [[pose]]``): standing,
kneeling, prone, at a window (its head and shoulders carried over the sill) or leaning from a door (carried
sideways past the jamb). Rays go from the firer's eye to the target's head, chest, stomach, groin and
boots; a ray is stopped where it meets a wall's face outside every opening. The exposure is the number of
those five places the firer sees: the number the cover roll needs or less (TET-16: head 1, head and chest
2, ... head to boots 5; C-31: the roll is always made); 0, a figure wholly behind the walls, cannot be
shot at (G-41). The evidence (which place, seen or stopped by which wall) comes with it, as ``los.check``
gives Dinky Dau's.

Engine readings: the places are counted as seen, not head down (a man seen from the chest down past a
low lintel is as hard to hit as one seen from the head to the chest); a ray that grazes a wall's top or
an opening's edge passes; a wall is as thin as its plane (the tiles' 3 mm card).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from game.rulesets.tet68.tables import Tables, tables

HIP = 0.45
"""Where a lean starts, as a fraction of the height: the hips stay put, the head goes furthest."""


@dataclass(frozen=True)
class Opening:
    """A door or window in a wall: from ``start`` to ``end`` along it (inches from its first end), from
    ``bottom`` to ``top`` above the floor."""

    kind: str
    start: float
    end: float
    bottom: float
    top: float


@dataclass(frozen=True)
class Wall:
    id: str
    a: tuple[float, float]
    b: tuple[float, float]
    height: float = 2.0
    openings: tuple[Opening, ...] = ()

    @property
    def length(self) -> float:
        return math.dist(self.a, self.b)


@dataclass(frozen=True)
class Figure:
    """A figure where it stands: ``facing`` and ``lean_to`` are headings in degrees (0 east, counter-
    clockwise); a pose that leans carries the upper body toward ``lean_to`` (default: where it faces)."""

    id: str
    x: float
    y: float
    pose: str = "standing"
    facing: float = 0.0
    lean_to: float | None = None
    floor: float = 0.0


@dataclass
class Exposure:
    level: int
    places: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        seen = [p["place"] for p in self.places if p["seen"]]
        return {"exposure": self.level, "seen": seen, "places": self.places, "clause": "TET-16; C-31; G-41",
                "needs": None if self.level == 0 else self.level,
                "text": "not to be seen: no shot" if self.level == 0 else
                        f"{' and '.join(seen)}: the cover roll needs {self.level} or less"}


def points(fig: Figure, t: Tables | None = None) -> dict[str, tuple[float, float, float]]:
    """The five places of the figure (and ``eye``), in table inches, as its pose holds them."""
    t = t or tables()
    pose = t.poses[fig.pose]
    h = t.figure.height * pose.scale
    lean = math.radians(fig.facing if fig.lean_to is None else fig.lean_to)
    ux, uy = math.cos(lean), math.sin(lean)

    def at(frac: float) -> tuple[float, float, float]:
        carry = pose.lean * max(0.0, (frac - HIP) / (1.0 - HIP))
        return (fig.x + ux * carry, fig.y + uy * carry, fig.floor + h * frac)

    out = {b.id: at(b.height) for b in t.body.values()}
    out["eye"] = at(t.figure.eye / t.figure.height)
    return out


def stops(wall: Wall, p: tuple[float, float, float], q: tuple[float, float, float]) -> bool:
    """Whether the segment from ``p`` to ``q`` meets the wall's face outside its openings."""
    (ax, ay), (bx, by) = wall.a, wall.b
    dx, dy = q[0] - p[0], q[1] - p[1]
    wx, wy = bx - ax, by - ay
    den = dx * wy - dy * wx
    if abs(den) < 1e-12:
        return False  # along the wall's line: it meets no face
    t = ((ax - p[0]) * wy - (ay - p[1]) * wx) / den
    s = ((ax - p[0]) * dy - (ay - p[1]) * dx) / den
    eps = 1e-9
    if not (eps < t < 1 - eps and -eps <= s <= 1 + eps):
        return False
    z = p[2] + (q[2] - p[2]) * t
    if not (0.0 <= z < wall.height):
        return False
    u = s * wall.length
    return not any(o.start <= u <= o.end and o.bottom <= z <= o.top for o in wall.openings)


def exposure(firer: Figure, target: Figure, walls: list[Wall], t: Tables | None = None) -> Exposure:
    """TET-16: the exposure of ``target`` to ``firer``'s eye past ``walls``, with the evidence."""
    t = t or tables()
    return exposure_from(points(firer, t)["eye"], target, walls, t)


def exposure_from(eye: tuple[float, float, float], target: Figure, walls: list[Wall],
                  t: Tables | None = None) -> Exposure:
    """TET-16 from a point rather than a firer's eye: a burst's exposure toward a figure (TET-14, G-41:
    "exposure toward the burst"), 0 when the walls hide it all."""
    t = t or tables()
    places = []
    for name, pt in points(target, t).items():
        if name == "eye":
            continue
        wall = next((w for w in walls if stops(w, eye, pt)), None)
        places.append({"place": name, "point": [round(v, 3) for v in pt], "seen": wall is None,
                       **({"wall": wall.id} if wall is not None else {})})
    return Exposure(sum(p["seen"] for p in places), places)
