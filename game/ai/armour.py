"""Vehicles for the computer players (DD chapter 7): tracks that carry their squads to the fight and stay
with them, and RPG teams that hunt the tracks.

The autopilot's vehicles (``vehicle_options``, asked by ``game.ai.autopilot`` for an element of kind
``vehicle``; its own fire offers are scored by the autopilot as for any element):

* **Drive the road** to the objective while nothing is known close by: candidate points ahead, scored by
  the ground they gain toward the goal, a bonus for the road (full speed, G-06), spacing from the other
  tracks; the engine's ``check`` answers whether the track can get there (the going, a wreck, DD-5.14).
* **Dismount** its squad (DD-7.12) when an enemy stand or marker is known within ``DISMOUNT_AT``, or it
  has reached the objective, or its hull has been hit: infantry dig an ambush out of the scrub, and a
  brewed-up track kills everyone inside (DD-5.18, DD-7.13).
* **Stay with the infantry**: once its squad is out, a track keeps within ``ESCORT`` of its own dismounted
  infantry, a little ahead toward the enemy, so its guns cover them and it is not left alone among the
  RPGs (G-06: the tracks and the squads fight together).
* **Crew**: unbutton (DD-7.3) when no enemy is within ``UNBUTTON_CLEAR``; rally a Stunned crew (DD-7.10).
* **AT fire** at an enemy vehicle when the engine's odds of a penetration are worth the shot.

The Ghost's RPG teams (``at_shot``, asked by ``game.ai.ghost``): an element with an ``at_fire`` offer takes
the shot with the best chance of a penetration (the engine's preview), when that chance is worth it.

It sees only its SideView and draws only from the ``ai`` stream. What it leaves out: no route planning
around wrecks beyond what the candidate points find, no riders, no boats (the river's computer players
belong with its rules).
"""

from __future__ import annotations

import math

from game.ai.tactics import Picture, bearing, dist, move_action, ring_points, strip

DISMOUNT_AT = 6.0
"""A known enemy stand this close (centre to centre): the squad gets out to dig it out of the scrub. Until
then the column fights mounted, as armoured cavalry did (its guns outrange the ambush's rifles, and a
squad in the open is what the ambush wants to shoot)."""
ESCORT = 5.0
"""With its squad out, a track keeps within this of its nearest own dismounted infantry."""
UNBUTTON_CLEAR = 10.0
"""A Buttoned Up crew opens up again when no known enemy stand is this close."""
TRACK_SPACING = 4.0
"""Tracks keep this apart: one RPG, one brew-up, not two (DD-5.18's blast)."""
AT_WORTH = 0.12
"""The least chance of a penetration an AT shot is taken for."""
STANDOFF = 7.0
"""With no squad of its own out, a track fighting stops this far from the nearest known enemy stand: in
its guns' reach, outside an RPG team's rush."""


def is_vehicle(pic: Picture, eid: str) -> bool:
    return pic.mine[eid].get("kind") == "vehicle"


def _hull(pic: Picture, eid: str) -> dict | None:
    st = pic.own_stands(eid)
    return st[0] if st and st[0].get("vehicle") else None


def _infantry(pic: Picture) -> list[tuple[float, float]]:
    """Centres of our dismounted infantry elements on the table."""
    return [pic.centre(e) for e, el in pic.mine.items()
            if el.get("kind") != "vehicle" and not el.get("embarked") and pic.own_stands(e)]


def vehicle_options(pic: Picture, eid: str, best_fire: float) -> list[tuple[float, dict]]:
    """Scored candidate actions for one of our vehicles (its fire is scored by the autopilot)."""
    from game.ai import autopilot

    hull = _hull(pic, eid)
    if hull is None:
        return []
    v = hull["vehicle"]
    if v.get("wreck") or v.get("abandoned"):
        return []
    if "aground" in v or "ramp" in v:  # a craft on the water: the river's own computer player
        from game.ai import riverine

        return riverine.craft_options(pic, eid, best_fire)
    me = (hull["x"], hull["y"])
    out: list[tuple[float, dict]] = []
    _, foe_d = pic.nearest_foe(me)
    hit = v.get("hp", 0) < v.get("hp_max", 0) or v.get("mobility_kill") or v.get("weapons_out")
    out += crew_options(pic, eid, foe_d)
    at = at_shot(pic, eid)
    if at is not None:
        out.append(at)
    dis = pic.offer(eid, "dismount")
    if dis is not None:
        arrived = autopilot.inside_objective(pic, me)
        if foe_d <= DISMOUNT_AT or arrived or hit:
            action = strip(dis)
            action["passenger"] = sorted(dis["params"]["passenger"]["choices"])[0]
            # Before it shoots: a squad inside a hit track is a squad at risk (DD-7.13).
            out.append((2.2 if foe_d <= DISMOUNT_AT or hit else 1.2, action))
    move = pic.offer(eid, "move", mode="patrol")
    if move is not None and not v.get("mobility_kill"):
        act = drive(pic, eid, me, move, best_fire, carrying=bool(v.get("passengers")))
        if act is not None:
            out.append(act)
    return out


def crew_options(pic: Picture, eid: str, foe_d: float, rally_score: float = 1.5) -> list[tuple[float, dict]]:
    """Rally a Stunned crew (DD-7.10); unbutton (DD-7.3) when no known enemy is within ``UNBUTTON_CLEAR``."""
    out: list[tuple[float, dict]] = []
    rally = pic.offer(eid, "rally_crew")
    if rally is not None:
        out.append((rally_score, strip(rally)))
    unbutton = pic.offer(eid, "unbutton")
    if unbutton is not None and foe_d > UNBUTTON_CLEAR:
        out.append((0.7, strip(unbutton)))
    return out


def _goal(pic: Picture, me, carrying: bool) -> tuple[tuple[float, float], float]:
    """Where the track is heading and how far from it it stops."""
    from game.ai import autopilot

    foot = _infantry(pic)
    foe, d = pic.nearest_foe(me)
    if not carrying and foot:
        # With the squads: their centre nearest us, a little ahead toward the enemy or the objective.
        c = min(foot, key=lambda p: (dist(me, p), p))
        tgt, _ = autopilot.objective(pic, c)
        ang = math.atan2(tgt[1] - c[1], tgt[0] - c[0])
        return (c[0] + 2.5 * math.cos(ang), c[1] + 2.5 * math.sin(ang)), 0.0
    if foe is not None and d <= autopilot.ENGAGE_NEAR and not autopilot.closing(pic):
        return foe, STANDOFF
    goal = autopilot.objective_point(pic, me)
    if goal is not None:
        return goal, 0.0
    return autopilot.objective(pic, me)


def drive(pic: Picture, eid: str, me, move: dict, best_fire: float, carrying: bool) -> tuple[float, dict] | None:
    """A move toward the goal, on the road where it can, spaced from the other tracks."""
    f = pic.f
    goal, keep = _goal(pic, me, carrying)
    d = dist(me, goal)
    want = goal
    if keep:
        if d <= keep + 0.5:
            return None
        want = (goal[0] + (me[0] - goal[0]) * keep / d, goal[1] + (me[1] - goal[1]) * keep / d)
    if dist(me, want) < 1.0:
        return None
    reach = move["params"]["to"]["max"]
    tracks = [(s["x"], s["y"]) for s in pic.stands.values()
              if s["side"] == pic.side and s.get("vehicle") and s["element"] != eid]
    foot = _infantry(pic)
    foes = pic.foe_points()

    def score(p) -> float:
        s = -0.5 * dist(p, want)
        t = f.terrain(*p)
        if t.get("trail"):
            s += 1.0
        s -= sum(1.5 for q in tracks if dist(p, q) < TRACK_SPACING)
        if foes and min(dist(p, q) for q in foes) < 4.0:
            s -= 3.0  # inside an RPG team's reach and a rush into close assault
        if foot and not carrying and min(dist(p, q) for q in foot) > ESCORT:
            s -= 2.0 + min(dist(p, q) for q in foot) - ESCORT
        return s

    here = score(me)
    cands = ring_points(me, reach, pic.w, pic.h, n=24, fractions=(1.0, 0.85, 0.7, 0.5, 0.35))
    scored = sorted(((score(p), p) for p in cands), key=lambda x: (-x[0], x[1]))
    for s, p in scored[:30]:
        if s <= here + 0.3:
            break
        action = move_action(move, p, bearing(me, p))
        if f.check(action) is None:
            base = 1.1 if carrying else 0.75
            if best_fire >= 0.5 and not carrying:
                base = 0.6  # a track with a good shot shoots rather than drives
            return (base + min(0.4, (s - here) / 10), action)
    return None


def at_shot(pic: Picture, eid: str) -> tuple[float, dict] | None:
    """The element's best anti-tank shot (DD-7.6) and its worth, from the engine's odds."""
    f = pic.f
    best = None
    for offer in pic.by_element.get(eid, []):
        if offer["type"] != "at_fire" or offer.get("emergency"):
            continue
        for tid in sorted(offer["params"]["target"]["choices"]):
            action = strip(offer)
            action["stand"] = offer["params"]["stand"]["choices"][0]
            action["weapon"] = offer["params"]["weapon"]["choices"][0]
            action["target"] = tid
            if "salvo" in offer["params"]:
                action["salvo"] = True
            res = f.preview(action)
            if res is None:
                continue
            p = res.get("p_penetration", 0.0)
            worth = 3.0 * p
            if p >= AT_WORTH and (best is None or worth > best[0]):
                best = (worth, action)
    if best is None:
        return None
    return (1.4 + best[0], best[1])
