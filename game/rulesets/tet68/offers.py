"""What a side of Tet '68 may do now, and the rules' answer to "what if" (``game.preview``).

The offers carry what the client draws: a move's reach; a shot's targets with their chance and exposure;
a cone's aim point with its ``width`` (the fraction of the range it is wide at the aim point, TET-13), the
M79's and a grenade's aim point with their blast ``radius`` (TET-14, G-41), the grenades left; a charge's
targets with the point of base contact (G-41). After every act of the move phase the other side is asked
whether it snap fires (C-32): it is offered ``pass`` at least, whatever it can see, so the pause tells the
mover's side nothing (engine reading, DESIGN §6).

An aim point (``at``) must be on the table and within the weapon's bands (TET-11; the M79 not under 4",
G-41). A cone or an M79 round is aimed at a point where a man standing would show to the firer's eye
(TET-16); a grenade is thrown along a straight line that passes the walls only through doors and windows
(engine reading: never over a 2" wall). Thrown through a door or window onto the floor of a building the
thrower is not in, it goes into the room (G-41).

Left to the game (``game.py``): acting on them; to ``resolve.py``: rolling them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shapely.geometry import Point

from game.rules.errors import IllegalAction
from game.rulesets.tet68 import blast, fire, melee, movement
from game.rulesets.tet68.exposure import Figure, exposure
from game.rulesets.tet68.resolve import cone_members

if TYPE_CHECKING:
    from game.rulesets.tet68.game import Fig, TetGame


def other(side: str) -> str:
    return "insurgent" if side == "allied" else "allied"


def legal_actions(g: TetGame, side: str) -> list[dict]:
    s = g.state
    if s.over or side != s.to_act:
        return []
    if s.snap is not None:
        return snap_offers(g)
    poses = list(g.tables.poses)
    out = []
    for fid in s.queue:
        f = s.figures[fid]
        if f.man.side != side:
            continue
        if s.phase == "move":
            out.append({"type": "move", "figure": f.id, "params": {"to": {"kind": "point", "from": [f.x, f.y],
                                                                         "max": g.tables.movement.open},
                                                                 "pose": {"kind": "choice", "choices": poses}},
                        "reach": g.tables.movement.open, "clause": "TET-9; TET-10", "label": f"{f.man.name} moves"})
            foes = charge_targets(g, f)
            if foes:
                out.append({"type": "charge", "figure": f.id, "targets": foes,
                            "params": {"target": {"kind": "choice", "choices": [x["id"] for x in foes]}},
                            "clause": "G-41", "label": f"{f.man.name} charges into hand-to-hand"})
        else:
            out += fire_offers(g, f)
        out.append({"type": "hold", "figure": f.id, "params": {"pose": {"kind": "choice", "choices": poses}},
                    "clause": "TET-7", "label": f"{f.man.name} holds"})
    return out


def targets(g: TetGame, f: Fig, pool: list[Fig]) -> list[dict]:
    """The figures of ``pool`` ``f`` can shoot: distance, exposure, chance (and the cone's, TET-13)."""
    out = []
    for t in pool:
        e = g.exposure_of(f, t).level
        d = math.dist((f.x, f.y), (t.x, t.y))
        single = fire.chance(f.man, d, False, g.tables)[0]
        if e <= 0 or single is None:
            continue
        auto = fire.chance(f.man, d, True, g.tables)[0]
        out.append({"id": t.id, "x": t.x, "y": t.y, "distance": round(d, 3), "exposure": e, "chance": single,
                    **({"auto_chance": auto} if auto is not None else {})})
    return out


def _seen_pool(g: TetGame, f: Fig) -> list[Fig]:
    seen = g.sees(f.man.side)
    return [t for t in g.state.figures.values() if t.id in seen and t.man.alive]


def fire_offers(g: TetGame, f: Fig) -> list[dict]:
    """The fire phase (TET-11-TET-15, G-41): a single shot at a figure seen, a cone, the M79's round, a
    grenade; each aim point's param says what to draw."""
    t = g.tables
    w = t.weapons[f.man.weapon]
    pool = _seen_pool(g, f)
    here = [round(f.x, 3), round(f.y, 3)]
    name = f.man.name
    out = []
    seen = targets(g, f, pool)
    if w.blast <= 0 and seen:
        out.append({"type": "fire", "figure": f.id, "targets": seen,
                    "params": {"target": {"kind": "choice", "choices": [x["id"] for x in seen]},
                               **({"auto": {"kind": "flag"}} if w.auto else {})},
                    "clause": "TET-15; TET-16", "label": f"{name} fires"})
    if w.auto:
        out.append({"type": "cone", "figure": f.id, "targets": [x for x in seen if "auto_chance" in x],
                    "params": {"at": {"kind": "point", "from": here, "max": w.bands[-1], "width": t.fire.cone_width}},
                    "clause": "TET-13; G-41", "label": f"{name} fires a cone of automatic fire"})
    if w.blast > 0:
        out.append({"type": "launch", "figure": f.id, "targets": seen,
                    "params": {"at": {"kind": "point", "from": here, "min": w.min_range, "max": w.bands[-1],
                                      "radius": t.blast.radius}},
                    "clause": "TET-14; G-41", "label": f"{name} fires the {w.name}"})
    if f.grenades > 0:
        bands = t.weapons[t.grenade.bands].bands
        out.append({"type": "grenade", "figure": f.id, "grenades": f.grenades,
                    "targets": [x for x in targets(g, f, pool) if x["distance"] <= bands[-1]],
                    "params": {"at": {"kind": "point", "from": here, "max": bands[-1], "radius": t.blast.radius,
                                      "room_exposure": t.blast.room_exposure}},
                    "clause": "G-41", "label": f"{name} throws a grenade ({f.grenades} left)"})
    return out


def snap_offers(g: TetGame) -> list[dict]:
    """C-32: the figures of the other side that may snap fire at the figure that has just moved (higher
    Initiative, shot not spent, the mover in sight and range), and always ``pass``."""
    s = g.state
    mover = s.figures[s.snap["mover"]]
    out = []
    if s.snap.get("moved") and mover.man.alive:
        for f in s.figures.values():
            if (f.man.side == other(s.snap["side"]) and f.man.alive and not f.fired
                    and f.man.acting_initiative > mover.man.acting_initiative):
                seen = targets(g, f, [mover]) if mover.id in g.sees(f.man.side) else []
                if not seen:
                    continue
                w = g.tables.weapons[f.man.weapon]
                out.append({"type": "snap_fire", "figure": f.id, "targets": seen,
                            "params": {"target": {"kind": "choice", "choices": [mover.id]},
                                       **({"auto": {"kind": "flag"}} if w.auto else {})},
                            **({"radius": g.tables.blast.radius} if w.blast > 0 else {}),
                            "clause": "C-32; TET-19; G-41", "label": f"{f.man.name} snap fires"})
    return out + [{"type": "pass", "clause": "C-32", "label": "no snap fire"}]


def charge_targets(g: TetGame, f: Fig) -> list[dict]:
    """G-41: the enemies seen that a charge reaches, each with where the charge ends (base contact)."""
    walls = g.scenario.town.walls
    reach = g.tables.melee.contact
    out = []
    for e in _seen_pool(g, f):
        to = melee.contact_point(walls, (f.x, f.y), (e.x, e.y), reach)
        if to is None or math.dist((f.x, f.y), to) > g.tables.movement.open:
            continue
        plan = movement.cost(g.scenario.town, [(f.x, f.y), to], g.tables).to_dict()
        if plan["legal"] and not g.crowded(f.man.side, f, to, but=e.id):
            out.append({"id": e.id, "to": list(to), "share": plan["share"]})
    return out


def _crossings(walls, a, b):
    """(wall, the opening it is crossed at or None) for every wall the straight line from a to b crosses."""
    for w in walls:
        (ax, ay), (bx, by) = w.a, w.b
        dx, dy = b[0] - a[0], b[1] - a[1]
        wx, wy = bx - ax, by - ay
        den = dx * wy - dy * wx
        if abs(den) < 1e-12:
            continue
        t = ((ax - a[0]) * wy - (ay - a[1]) * wx) / den
        u = ((ax - a[0]) * dy - (ay - a[1]) * dx) / den
        if 0.0 <= t <= 1.0 and 0.0 <= u <= 1.0:
            along = u * w.length
            yield w, next((o for o in w.openings if o.start <= along <= o.end), None)


def aim(g: TetGame, f: Fig, at, kind: str) -> dict:
    """An aim point checked for ``kind`` (cone, launch, grenade, G-41): its distance, the chance of the
    roll there and its factors, and the room a grenade goes into; ``IllegalAction`` says why not."""
    t = g.tables
    if not (isinstance(at, list) and len(at) == 2 and all(isinstance(v, (int, float)) for v in at)):
        raise IllegalAction("param 'at' should be a point [x, y]", "G-41")
    x, y = float(at[0]), float(at[1])
    if not (0 <= x <= g.scenario.width and 0 <= y <= g.scenario.height):
        raise IllegalAction("that aim point is off the table", "TET-3")
    d = math.dist((f.x, f.y), (x, y))
    w = t.weapons[f.man.weapon]
    if kind == "cone" and not w.auto:
        raise IllegalAction(f"the {w.name} fires no cone", "TET-12; TET-13")
    if kind == "launch" and w.blast <= 0:
        raise IllegalAction(f"the {w.name} fires no blast", "TET-14")
    if kind == "grenade" and f.grenades <= 0:
        raise IllegalAction(f"{f.man.name} has no grenade left", "G-41")
    pct, factors = fire.chance(f.man, d, kind == "cone", t, weapon=t.grenade.bands if kind == "grenade" else None)
    if pct is None:
        raise IllegalAction(f"no shot at that point: {factors[0]['name']}", factors[0]["clause"])
    room = None
    if kind == "grenade":
        walls = g.scenario.town.walls
        crossed = list(_crossings(walls, (f.x, f.y), (x, y)))
        if any(o is None for _, o in crossed):
            raise IllegalAction("a wall stands in the way of the throw: only through a door or a window", "G-41")
        b = g.scenario.town.building_at(x, y)
        if (b is not None and not b.floor.covers(Point(f.x, f.y))
                and any(w in b.walls for w, _ in crossed)):
            room = b.id
    elif exposure(f.figure(), Figure("aim", x, y), g.scenario.town.walls, t).level <= 0:
        raise IllegalAction("that point is hidden from the firer by the walls", "TET-16; G-41")
    return {"at": [round(x, 3), round(y, 3)], "distance": round(d, 3), "chance": pct, "factors": factors, "room": room}


def _known(g: TetGame, side: str) -> set[str]:
    return {f.id for f in g.state.figures.values() if f.man.side == side} | g.sees(side)


def _cone(g: TetGame, side: str, f: Fig, at) -> dict:
    known = _known(g, side)
    members = [{"id": m.id, "side": m.man.side, "distance": round(dist, 3), "exposure": e,
                "chance": fire.chance(f.man, dist, True, g.tables)[0]}
               for m, dist, e in cone_members(g, f, (at[0], at[1])) if m.id in known]
    return {**blast.cone_shape((f.x, f.y), (at[0], at[1]), g.tables.fire.cone_width), "in_cone": members}


def _burst(g: TetGame, side: str, at, room: str | None) -> dict:
    from game.rulesets.tet68.resolve import burst_members

    t = g.tables
    known = _known(g, side)
    reached = burst_members(g, (at[0], at[1]), g.building(room) if room else None)
    return {"radius": t.blast.radius, "room": room,
            "in_blast": [{"id": c.man.id, "side": c.man.side, "distance": round(c.distance, 3),
                          "exposure": c.exposure} for c in reached if c.man.id in known],
            "scatter": {"dice": f"d{t.blast.scatter_die} + d{t.blast.direction_die}", "max": t.blast.scatter_die,
                        "direction": "a clock face: 12 o'clock straight on along the line of fire",
                        "clause": "G-41"}}


def preview(g: TetGame, side: str, action: dict) -> dict:
    """What an act would cost or its odds, asked before acting (the computer players ask it too)."""
    s = g.state
    kind = action.get("type")
    if kind in ("move", "charge"):
        f = g.acting(side, action)
        if kind == "charge":
            t = next((x for x in charge_targets(g, f) if x["id"] == action.get("target")), None)
            if t is None:
                raise IllegalAction(f"no enemy {str(action.get('target'))[:40]!r} that {f.man.name} can reach "
                                    "and see", "G-41")
            to = tuple(t["to"])
        else:
            to = g.point(action)
        plan = movement.cost(g.scenario.town, [(f.x, f.y), to], g.tables).to_dict()
        there = type(f)(f.man, to[0], to[1], f.facing, action.get("pose") or f.pose, f.lean_to)
        threat = {e: g.exposure_of(s.figures[e], there).level for e in sorted(g.sees(side))}
        if plan["legal"] and kind == "move" and g.crowded(side, f, to):
            plan = {**plan, "legal": False, "reason": "another figure stands there"}
        return {**plan, "to": list(to), "ground": g.scenario.town.ground_at(*to),
                "seen_by": {e: n for e, n in threat.items() if n > 0}}
    if kind in ("fire", "snap_fire"):
        offer = next((o for o in legal_actions(g, side) if o["type"] == kind and o["figure"] == action.get("figure")),
                     None)
        if offer is None:
            raise IllegalAction(f"no {kind} for {str(action.get('figure'))[:40]!r} now", "TET-7")
        t = next((x for x in offer["targets"] if x["id"] == action.get("target")), None)
        if t is None:
            raise IllegalAction(f"{str(action.get('target'))[:40]!r} is no target {offer['figure']} can see",
                                "TET-16; G-41")
        f, target = s.figures[offer["figure"]], s.figures[t["id"]]
        out = {**t, **g.exposure_of(f, target).to_dict()}
        w = g.tables.weapons[f.man.weapon]
        if w.blast > 0:
            out.update(_burst(g, side, [target.x, target.y], None))
        elif action.get("auto"):
            out.update(_cone(g, side, f, [target.x, target.y]))
        return out
    if kind in ("cone", "launch", "grenade"):
        f = g.acting(side, action)
        if s.phase != "fire":
            raise IllegalAction(f"no {kind} in the move phase", "TET-7")
        a = aim(g, f, action.get("at"), kind)
        out = {**a, "figure": f.id}
        if kind == "cone":
            out.update(_cone(g, side, f, a["at"]))
        else:
            out.update(_burst(g, side, a["at"], a["room"]))
            if kind == "grenade":
                out["grenades"] = f.grenades
        return out
    raise IllegalAction(f"no preview of {str(kind)[:40]!r}", "TET-15")
