"""One Brain-Cell movement (OBC-3 - OBC-13, OBC-17, OBC-30, OBC-42): how far a man or a vehicle may go on a
straight move over the table's ground, with each deduction named by its clause.

A move over several kinds of going is paid at the slowest (G-01 rule 2, the Dinky Dau world's reading, kept):
the road rate only when the whole move is on a trail (OBC-3). Entering a hootch or a masonry building
counts as entering by a window (OBC-4, engine reading: the table has no doors or windows).

Hedges and low walls (OBC-4, OBC-10, OBC-12), engine reading: the Dinky Dau table's line features, a paddy
bund (its dyke) and a hedgerow (``light`` scrub drawn as a ``path``), are OBC's low walls and hedges
(``sight.HEDGES``). Each time a straight move crosses one's centre line a man loses 2", a wheeled vehicle
may not cross at all, a tracked vehicle loses half its move and a tank 3" (its "low walls, ditches etc.").
The going is what lies under the line, save that a move all along a bund or a hedgerow goes at its own going.
The table has no high walls (OBC-4's full move is in the tables, not met on it), and no ditch besides.

What it leaves out: who may move (``game``), where a morale outcome takes a man (``acts``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from game.rulesets.obc.sight import HEDGES, Ground
from game.rulesets.obc.tables import Tables

BUILDINGS = ("hootch", "masonry")
OBSTACLES = ("hootch", "masonry", "wreck", "dense", "bamboo", "mangrove", "bunker")
"""What a wheeled vehicle cannot cross (OBC-10: obstacles), engine reading; tracked vehicles and tanks go
through all but buildings and wrecks."""
LANDING = ("open", "trail", "paddy", "bund", "mud", "burnt", "crater", "hill")
"""Where a chopper may set down (engine reading: ground clear of trees, water and buildings)."""


@dataclass
class Plan:
    legal: bool
    allowance: float
    distance: float
    going: str
    steps: list[dict] = field(default_factory=list)
    reason: str = ""
    clause: str = ""

    def to_dict(self) -> dict:
        return {"legal": self.legal, "allowance": round(self.allowance, 3), "distance": round(self.distance, 3),
                "going": self.going, "deductions": self.steps, "reason": self.reason, "clause": self.clause}


def going_of(t: Tables, ground: Ground, a: tuple[float, float], b: tuple[float, float]) -> str:
    """OBC-3: road when the whole move is on a trail, else the slowest going crossed."""
    for kind in HEDGES:
        if ground.all_along(a, b, kind):
            return t.ground[kind].going
    kinds = ground.crossed(a, b)
    goings = {t.ground[k].going if k in t.ground else "country" for k in kinds}
    if "impassable" in goings:
        return "impassable"
    if ground.all_along(a, b, "trail"):
        return "road"
    return "rough" if "rough" in goings else "country"


def man_allowance(t: Tables, going: str, *, wounded: bool, one_crew: bool, run: bool, carrying: int,
                  entering: bool, retreat: bool = False, hedges: int = 0) -> tuple[float, list[dict]]:
    """A man's inches for this move and the deductions, by clause (``carrying``: how many carry the disabled
    man he carries, 0, 1 or 2, OBC-42)."""
    m = t.movement
    base = t.rates["infantry"].on(going)
    steps = [{"name": f"infantry, {going}", "inches": base, "clause": t.rates["infantry"].clause}]
    inches = base
    if run:
        inches *= m.run
        steps.append({"name": "running", "factor": m.run, "clause": "OBC-8"})
    if one_crew:
        inches *= m.one_crew
        steps.append({"name": "one crewman left", "factor": m.one_crew, "clause": "OBC-5"})
    if retreat:
        inches *= m.retreat
        steps.append({"name": "retreat out of command", "factor": m.retreat, "clause": "OBC-17"})
    if carrying == 2:
        inches -= m.carry_two
        steps.append({"name": "two men carrying one", "inches": -m.carry_two, "clause": "OBC-42"})
    elif carrying:
        inches *= m.carry_one
        steps.append({"name": "carrying a man", "factor": m.carry_one, "clause": "OBC-42"})
    if wounded:
        inches -= m.wounded
        steps.append({"name": "wounded", "inches": -m.wounded, "clause": "OBC-30"})
    if hedges:
        inches -= m.hedge * hedges
        steps.append({"name": "crossing a hedge or low wall" + (f" x{hedges}" if hedges > 1 else ""),
                      "inches": -m.hedge * hedges, "clause": "OBC-4"})
    if entering:
        inches -= m.enter
        steps.append({"name": "entering a building or a vehicle", "inches": -m.enter, "clause": "OBC-4"})
    return max(0.0, inches), steps


def man_move(t: Tables, ground: Ground, a: tuple[float, float], b: tuple[float, float], *, wounded: bool = False,
             one_crew: bool = False, run: bool = False, carrying: int = 0, vehicle: bool = False,
             limit: float | None = None, retreat: bool = False) -> Plan:
    """A man's straight move from a to b: legal when within his allowance (``limit``: a lower cap, as half
    distance when he fires too, OBC-6)."""
    going = going_of(t, ground, a, b)
    d = math.dist(a, b)
    if going == "impassable":
        return Plan(False, 0.0, d, going, reason="impassable ground on the way", clause="OBC-3")
    entering = vehicle or (ground.at(*b) in BUILDINGS and ground.at(*a) != ground.at(*b))
    inches, steps = man_allowance(t, going, wounded=wounded, one_crew=one_crew, run=run, carrying=carrying,
                                  entering=entering, retreat=retreat, hedges=len(ground.hedges_crossed(a, b)))
    if limit is not None and limit < inches:
        inches = limit
        steps.append({"name": "half distance to fire", "inches": limit, "clause": "OBC-6"})
    if d > inches + 1e-9:
        return Plan(False, inches, d, going, steps, f"{d:.2f}\" is beyond the {inches:.2f}\" allowed", "OBC-3")
    return Plan(True, inches, d, going, steps)


def vehicle_move(t: Tables, ground: Ground, kind: str, a: tuple[float, float], b: tuple[float, float],
                 h0: float = 0.0, h1: float = 0.0) -> Plan:
    """A vehicle's straight move (OBC-9 - OBC-13): a chopper flies 32" with at most 12" of height change
    inside it, and sets down only on clear ground; a ground vehicle goes at its rate over the going."""
    m = t.movement
    d = math.dist(a, b)
    if kind == "chopper":
        climb = abs(h1 - h0)
        total = d + climb
        steps = [{"name": "chopper", "inches": t.rates["chopper"].road, "clause": "OBC-13"}]
        if h1 < 0:
            return Plan(False, 0.0, total, "air", steps, "a chopper flies at 0\" (landed) or higher", "OBC-13")
        if climb > m.chopper_climb + 1e-9:
            return Plan(False, t.rates["chopper"].road, total, "air", steps,
                        f"{climb:.2f}\" of height change is more than {m.chopper_climb:g}\"", "OBC-13")
        if h1 == 0 and ground.at(*b) not in LANDING:
            return Plan(False, t.rates["chopper"].road, total, "air", steps, "no chopper sets down there", "OBC-13; G-42")
        if total > t.rates["chopper"].road + 1e-9:
            return Plan(False, t.rates["chopper"].road, total, "air", steps,
                        f"{total:.2f}\" (height change included) is beyond 32\"", "OBC-13")
        return Plan(True, t.rates["chopper"].road, total, "air", steps)
    kinds = ground.crossed(a, b)
    blocked = OBSTACLES if kind == "lorry" else ("hootch", "masonry", "wreck")
    if kinds & set(blocked) or going_of(t, ground, a, b) == "impassable":
        return Plan(False, 0.0, d, "impassable", reason=f"a {kind} cannot cross {', '.join(sorted(kinds & set(blocked))) or 'that'}",
                    clause="OBC-10")
    going = going_of(t, ground, a, b)
    inches = t.rates[kind].on(going)
    steps = [{"name": f"{kind}, {going}", "inches": inches, "clause": t.rates[kind].clause}]
    walls = ground.hedges_crossed(a, b)
    if walls and kind == "lorry":
        return Plan(False, 0.0, d, going, steps, f"a wheeled vehicle cannot cross the {walls[0]}", "OBC-10")
    if walls and kind == "tank":
        inches -= m.tank_wall * len(walls)
        steps.append({"name": "crossing a low wall or ditch", "inches": -m.tank_wall * len(walls), "clause": "OBC-12"})
    elif walls:
        inches *= m.tracked_wall
        steps.append({"name": "a tracked vehicle crossing a low wall or hedge", "factor": m.tracked_wall,
                      "clause": "OBC-10"})
    inches = max(0.0, inches)
    if d > inches + 1e-9:
        return Plan(False, inches, d, going, steps, f"{d:.2f}\" is beyond the {inches:.2f}\" allowed", "OBC-9")
    return Plan(True, inches, d, going, steps)


def debus_limit(t: Tables, allowance: float, moved: float) -> int:
    """OBC-11: a vehicle that moved debusses 2 men per sixth of its move used; a stationary one embusses (and,
    engine reading, debusses) 2 men per 2" of its move allowance."""
    m = t.movement
    if moved > 0:
        return m.debus_per_sixth * max(1, math.ceil(6 * moved / allowance - 1e-9))
    return int(m.embus_per * (allowance // 2))
