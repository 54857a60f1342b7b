"""Rolling one declared shot of Tet '68 (TET-8, TET-13-TET-19, G-41): a single shot at a figure, a cone of
automatic fire at an aim point, the M79's round, a thrown grenade, or a hand-to-hand blow.

Each roll answers (the firer's events: the d100 at the aim point and the scatter; the shots: one per figure
reached, its cover roll and effect among its events, to be applied later, TET-8). Who is in a cone or a
burst is worked out here from where every figure stands when the shot is rolled, friend or foe (G-41).

Left to the game (``game.py``): which shots are declared, who reads which event, applying the losses.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.rulesets.tet68 import blast, fire

if TYPE_CHECKING:
    from game.rulesets.tet68.game import TetGame


def cone_members(g: TetGame, firer, at: tuple[float, float]) -> list[tuple]:
    """TET-13, G-41: every living figure but the firer with its centre in the cone and some of it seen from
    the firer's eye: (figure, distance, exposure), nearest first."""
    apex = (firer.x, firer.y)
    out = []
    for f in g.state.figures.values():
        if f.id == firer.id or not f.man.alive:
            continue
        if not blast.in_cone(apex, at, (f.x, f.y), g.tables.fire.cone_width):
            continue
        e = g.exposure_of(firer, f).level
        if e > 0:
            out.append((f, math.dist(apex, (f.x, f.y)), e))
    return sorted(out, key=lambda m: (round(m[1], 6), m[0].id))


def burst_members(g: TetGame, point: tuple[float, float], room) -> list[blast.Caught]:
    people = [(f.man, f.figure()) for f in g.state.figures.values() if f.man.alive]
    return blast.caught(point, people, g.scenario.town.walls, room, g.tables)


def roll(g: TetGame, d: dict, mover: str | None = None) -> tuple[list[dict], list[fire.Shot]]:
    """One declared shot (``d``: kind, firer, target or at, ...), rolled: (the firer's events, the shots)."""
    s, t, dice = g.state, g.tables, g.dice
    firer = s.figures[d["firer"]]
    kind = d["kind"]
    if kind == "fire":
        target = s.figures[d["target"]]
        shot = fire.shoot(dice, firer.man, target.man, d["distance"], d["exposure"], False,
                          move_phase=mover == target.id, t=t)
        head = [e for e in shot.events if e.get("purpose") == "to hit" or e["type"] == "no_shot"]
        shot.events = [e for e in shot.events if e not in head]
        return head, [shot]
    at = (float(d["at"][0]), float(d["at"][1]))
    origin = (firer.x, firer.y)
    if kind == "cone":
        shape = blast.cone_shape(origin, at, t.fire.cone_width)
        members = cone_members(g, firer, at)
        head = [{"type": "cone", "firer": firer.id, **shape, "clause": "TET-13; G-41",
                 "text": f"{firer.man.name} fires a cone {shape['width']:g}\" wide at {math.dist(origin, at):.1f}\""
                         f": {len(members)} figure{'s' * (len(members) != 1)} in it"}]
        shots = []
        for f, dist, e in members:
            shot = fire.shoot(dice, firer.man, f.man, dist, e, True, move_phase=mover == f.id, t=t)
            for ev in shot.events:
                ev["cone"] = True
            shots.append(shot)
        return head, shots
    # the M79's round or a grenade (G-41): the roll at the aim point, the scatter, the burst
    what = "grenade" if kind == "grenade" else "M79 round"
    pct, factors = fire.chance(firer.man, math.dist(origin, at), False, t,
                               weapon=t.grenade.bands if kind == "grenade" else None)
    point, on_mark, head = blast.land(dice, firer.man, origin, at, pct or 0, factors, what, t)
    building = g.building(d["room"]) if d.get("room") else None
    room = building if building is not None and building.floor.covers(_point(point)) else None
    reached = burst_members(g, point, room)
    head.append({"type": "burst", "firer": firer.id, "weapon": "grenade" if kind == "grenade" else firer.man.weapon,
                 "at": list(point), "aim": [round(at[0], 3), round(at[1], 3)], "on_mark": on_mark,
                 "radius": t.blast.radius, "room": room.id if room else None,
                 "clause": "TET-14; G-41",
                 "text": f"the {what} bursts " + (f"in {room.id}: everyone in the room rolls for cover at "
                                                  f"{t.blast.room_exposure}" if room else
                                                  f"with a {t.blast.radius:g}\" blast")})
    return head, blast.burst(dice, firer.man, point, reached, on_mark, mover, room.id if room else None, t)


def _point(p):
    from shapely.geometry import Point

    return Point(p[0], p[1])
