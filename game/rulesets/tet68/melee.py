"""Hand-to-hand in Tet '68 (G-41): base contact and who fights whom in which fire step.

How base contact arises (engine reading): a figure charges (``charge``, in the move phase) an enemy figure
its side sees and its move reaches, and is set down in base contact with it: ``[melee] contact`` - 0.05"
from its centre, on the side it came from. Two enemy figures are in base contact while their centres are at
most ``[melee] contact`` apart with no wall between them but through a door's opening (a window's sill
keeps them apart); it ends when one moves away or falls.

Figures in base contact fight instead of firing: in the fire step of the higher Initiative of the two
(acting Initiative: a ducked-back figure's is 0, TET-19), each rolls a d100 against its full Weapon Skill,
no cover roll, a hit a d3 loss (``fire.strike``); the blows are struck with the shots of that step and
the losses applied after all of them (TET-8). A figure strikes once a turn, at the first enemy it is in
contact with (by the step of the pair, then the ids); it may be struck by several.

Left to the game (``game.py``): the charge move itself and its cost (``movement.py``).
"""

from __future__ import annotations

import math

from game.rulesets.tet68.exposure import Wall


def apart(walls: list[Wall], a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether a wall stands between ``a`` and ``b`` anywhere but at a door."""
    for w in walls:
        (ax, ay), (bx, by) = w.a, w.b
        dx, dy = b[0] - a[0], b[1] - a[1]
        wx, wy = bx - ax, by - ay
        den = dx * wy - dy * wx
        if abs(den) < 1e-12:
            continue
        t = ((ax - a[0]) * wy - (ay - a[1]) * wx) / den
        u = ((ax - a[0]) * dy - (ay - a[1]) * dx) / den
        if not (0.0 <= t <= 1.0 and 0.0 <= u <= 1.0):
            continue
        along = u * w.length
        if not any(o.kind == "door" and o.start <= along <= o.end for o in w.openings):
            return True
    return False


def in_contact(walls: list[Wall], a: tuple[float, float], b: tuple[float, float], reach: float) -> bool:
    return math.dist(a, b) <= reach + 1e-9 and not apart(walls, a, b)


def pairs(figures: list[tuple[str, str, int, tuple[float, float]]], walls: list[Wall], reach: float
          ) -> list[tuple[int, str, str]]:
    """Every two enemy figures in base contact: (the step they fight in, one id, the other), in the order
    they fight. ``figures``: (id, side, acting Initiative, where) of the living."""
    out = []
    for i, (ia, sa, na, pa) in enumerate(figures):
        for ib, sb, nb, pb in figures[i + 1:]:
            if sa != sb and in_contact(walls, pa, pb, reach):
                x, y = sorted((ia, ib))
                out.append((max(na, nb), x, y))
    return sorted(out, key=lambda p: (-p[0], p[1], p[2]))


def contact_point(walls: list[Wall], frm: tuple[float, float], foe: tuple[float, float], reach: float
                  ) -> tuple[float, float] | None:
    """Where a charge from ``frm`` ends in base contact with the enemy at ``foe`` (on the side it came
    from), or None: already there, or a wall between the two there."""
    d = math.dist(frm, foe)
    gap = reach - 0.05
    if d <= gap:
        return None
    to = (round(foe[0] + (frm[0] - foe[0]) * gap / d, 3), round(foe[1] + (frm[1] - foe[1]) * gap / d, 3))
    return None if not in_contact(walls, to, foe, reach) else to
