"""Bursts in Tet '68: the M79's blast (TET-14) and thrown grenades, as G-41 resolves them; and the cone
of automatic fire's shape (TET-13, G-41). Every die an explained ``roll`` event.

* Landing (G-41): a percentage roll at the aim point (the firer's Weapon Skill times the range band's
  multiplier: the M79's own bands, a grenade the SMG's, ``fire.chance``); a hit bursts at the aim point, a
  miss scatters: a d6 for the inches and a d12 for the way, read as a clock face with 12 o'clock straight
  on along the line of fire and 3 o'clock to its right (engine reading).
* The burst (G-41): every figure, friend or foe, within the radius (2") of the burst point makes its cover
  roll (TET-16) at its exposure toward the burst: rays from the burst point, ``[blast] height`` above the
  ground, to its head, chest, stomach, groin and boots past the walls (``exposure.exposure_from``); a figure
  wholly behind a wall is untouched. A grenade thrown in through a door or window that bursts on that
  building's floor is in the room: every figure in the building (a ruin is one room, engine reading) makes
  the cover roll at exposure 5. A cover roll at or under the exposure is a hit and costs d3 Initiative.
* The cone (TET-13, G-41): from the muzzle to the aim point, ``cone_width`` (1/4) of the range wide there;
  a figure is in it when its centre is (engine reading: the cone ends at its wide end, the aim point).

Left to the game (``game.py``): who may fire or throw, where from, and who sees which event.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.dice import Dice
from game.rulesets.tet68.exposure import Figure, Wall, exposure_from
from game.rulesets.tet68.fire import Man, Shot, d3
from game.rulesets.tet68.tables import Tables, tables


@dataclass
class Caught:
    """A figure in a burst: who, where, and the exposure its cover roll needs."""

    man: Man
    figure: Figure
    exposure: int
    distance: float


def _heading(origin: tuple[float, float], aim: tuple[float, float]) -> float:
    if math.dist(origin, aim) < 1e-9:
        return 0.0
    return math.atan2(aim[1] - origin[1], aim[0] - origin[0])


def scatter(dice: Dice, origin: tuple[float, float], aim: tuple[float, float], t: Tables | None = None
            ) -> tuple[tuple[float, float], dict]:
    """G-41: a miss scatters 1d6" in a random direction (a d12 clock face, 12 o'clock along the line of fire
    from ``origin`` through ``aim``): where it lands, and the roll event."""
    t = t or tables()
    inches = dice.die(t.blast.scatter_die)
    hour = dice.die(t.blast.direction_die)
    way = _heading(origin, aim) - 2 * math.pi * (hour % 12) / 12  # clockwise from straight on
    to = (round(aim[0] + inches * math.cos(way), 3), round(aim[1] + inches * math.sin(way), 3))
    return to, {"type": "roll", "purpose": "scatter", "dice": f"d{t.blast.scatter_die} + d{t.blast.direction_die}",
                "rolls": [inches, hour], "result": inches, "direction": hour,
                "heading": round(math.degrees(way) % 360, 1), "from": [round(aim[0], 3), round(aim[1], 3)],
                "to": list(to), "modifiers": [], "clause": "TET-14; G-41",
                "text": f"it scatters {inches}\" toward {hour} o'clock (12 o'clock straight on)"}


def land(dice: Dice, firer: Man, origin: tuple[float, float], aim: tuple[float, float], pct: int,
         factors: list[dict], what: str, t: Tables | None = None) -> tuple[tuple[float, float], bool, list[dict]]:
    """G-41: the percentage roll at the aim point and, on a miss, the scatter: (the burst point, whether
    it landed where aimed, the events)."""
    t = t or tables()
    roll = dice.die(100)
    hit = roll <= pct
    events = [{"type": "roll", "purpose": "to hit", "firer": firer.id, "dice": "d100", "target_number": min(pct, 100),
               "automatic_hits": 0, "modifiers": factors, "result": roll, "success": hit, "hits": int(hit),
               "at": [round(aim[0], 3), round(aim[1], 3)], "clause": "TET-15; G-41",
               "text": f"{firer.name}'s {what} needs {min(pct, 100)} or less on the d100 to land where aimed, "
                       f"rolls {roll:02d}: {'on the mark' if hit else 'a miss'}"}]
    if hit:
        return (round(aim[0], 3), round(aim[1], 3)), True, events
    to, ev = scatter(dice, origin, aim, t)
    return to, False, events + [ev]


def caught(burst: tuple[float, float], people: list[tuple[Man, Figure]], walls: list[Wall], room=None,
           t: Tables | None = None) -> list[Caught]:
    """Who the burst at ``burst`` reaches, nearest first: in the room (``room``, a building the grenade
    went into), every figure on its floor at exposure 5; else every figure within the radius with an
    exposure toward the burst above 0."""
    t = t or tables()
    eye = (burst[0], burst[1], t.blast.height)
    out = []
    for man, fig in people:
        if not man.alive:
            continue
        d = math.dist(burst, (fig.x, fig.y))
        if room is not None:
            from shapely.geometry import Point

            if room.floor.covers(Point(fig.x, fig.y)):
                out.append(Caught(man, fig, t.blast.room_exposure, d))
            continue
        if d > t.blast.radius + 1e-9:
            continue
        level = exposure_from(eye, fig, walls, t).level
        if level > 0:
            out.append(Caught(man, fig, level, d))
    return sorted(out, key=lambda c: (round(c.distance, 6), c.man.id))


def burst(dice: Dice, firer: Man, point: tuple[float, float], reached: list[Caught], on_mark: bool,
          mover: str | None = None, room: str | None = None, t: Tables | None = None) -> list[Shot]:
    """G-41: each figure reached makes its cover roll at its exposure; at or under it, a hit and a d3 loss.
    ``mover``: the figure a snap shot was aimed at (C-32): landed on the mark and saved by the cover roll,
    it ducks back if the firer's Initiative is the higher (TET-19)."""
    t = t or tables()
    shots = []
    where = f"in the room ({room})" if room else f"{t.blast.radius:g}\" burst"
    for c in reached:
        shot = Shot(firer, c.man)
        cover = dice.d6()
        through = cover <= c.exposure
        shot.events.append({"type": "roll", "purpose": "cover", "firer": firer.id, "target": c.man.id, "dice": "d6",
                            "target_number": c.exposure, "modifiers": [], "result": cover, "success": through,
                            "burst": [point[0], point[1]], "distance": round(c.distance, 3),
                            "clause": "TET-16; G-41" if room is None else "G-41",
                            "text": f"{c.man.name} in the {where}: cover roll needs {c.exposure} or less, rolls "
                                    f"{cover}: {'hit' if through else 'saved by cover'}"})
        if through:
            shot.hits = 1
            loss, d6 = d3(dice)
            shot.losses.append(loss)
            shot.events.append({"type": "roll", "purpose": "effect", "firer": firer.id, "target": c.man.id,
                                "dice": "d3", "rolls": [d6], "modifiers": [], "result": loss,
                                "clause": "TET-17; G-41", "text": f"{c.man.name} loses {loss} Initiative"})
        elif on_mark and c.man.id == mover and firer.acting_initiative > c.man.acting_initiative:
            shot.duckback = True  # TET-19, C-32: on the mark, saved by the cover roll
        shots.append(shot)
    return shots


def in_cone(apex: tuple[float, float], aim: tuple[float, float], at: tuple[float, float], factor: float) -> bool:
    """TET-13, G-41: whether ``at`` is in the cone from ``apex`` to ``aim``, ``factor`` of the range wide
    at its wide end (the aim point), where it ends."""
    d = math.dist(apex, aim)
    if d < 1e-9:
        return False
    ux, uy = (aim[0] - apex[0]) / d, (aim[1] - apex[1]) / d
    rx, ry = at[0] - apex[0], at[1] - apex[1]
    along = rx * ux + ry * uy
    across = abs(-rx * uy + ry * ux)
    return 1e-9 < along <= d + 1e-9 and across <= factor * along / 2 + 1e-9


def cone_shape(apex: tuple[float, float], aim: tuple[float, float], factor: float) -> dict:
    """The cone as the client draws it: its apex, aim point, width at the aim point and the two corners."""
    d = math.dist(apex, aim)
    ux, uy = ((aim[0] - apex[0]) / d, (aim[1] - apex[1]) / d) if d > 1e-9 else (1.0, 0.0)
    w = factor * d
    corners = [[round(aim[0] - uy * w / 2, 3), round(aim[1] + ux * w / 2, 3)],
               [round(aim[0] + uy * w / 2, 3), round(aim[1] - ux * w / 2, 3)]]
    return {"apex": [round(apex[0], 3), round(apex[1], 3)], "aim": [round(aim[0], 3), round(aim[1], 3)],
            "width": round(w, 3), "corners": corners}
