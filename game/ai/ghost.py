"""The Jungle Ghost's decisions (DD-10.2, DD-10.9–10.10; G-10, G-11, G-28 (5)).

Each impulse the Ghost activates one revealed element, nearest to a player element first (G-28 (5)),
once per turn, and works down the four-step ladder (G-10), taking the first step that applies:

1. **Recover / Vanish**: a Pinned element rallies. (Entering a tunnel waits for tunnels.)
2. **Hug the Belt**: a Confirmed player element within 6" (4" in dense terrain) that the element
   out-guns, or that is Pinned, or a lone Small stand, is close-assaulted. Threat Level 1 assaults only
   Pinned targets; Level 3 ignores the firepower comparison.
3. **Fire** at the target the priority hierarchy picks (G-11): snipers hunt RTO, commander, medic,
   squad leader, MG; MGs graze when the odds are better; riflemen take the closest stand (DD-5.28),
   ties going to a Pinned stand, then the one in worse cover, then the one with fewest hits left.
4. **Infiltrate**: a Patrol Move toward the nearest known player element, by its flank with more
   cover, ending in the best cover reachable; with nothing known within 24", Hold/Conceal.

It sees only its SideView (facade.py) and draws only from the ``ai`` stream. The Ghost's rules with
dice (reaction rolls, reveals, fade, Doom Clock) are in ``game.rules.jungle_ghost``; here it only
chooses.
"""

from __future__ import annotations

import math

from game.ai.facade import SideView
from game.ai.tactics import Picture, bearing, dist, expected, move_action, p_pin, ring_points, strip

HUG = 6.0
HUG_DENSE = 4.0
NOTICE = 24.0
SNIPER_PRIORITY = ("rto", "commander", "medic", "squad_leader", "mg")
STANDOFF = 5.0
"""Infiltration stops this far (centre to centre) from the enemy: close enough to deny the guns
(DD-10.2), far enough not to walk into point-blank fire."""


def decide(f: SideView) -> dict:
    """The Ghost's action for this impulse (or a pass)."""
    pic = Picture(f)
    ready = [eid for eid, e in pic.mine.items() if e.get("activations", 0) == 0 and pic.by_element.get(eid)]
    if not ready:
        return {"type": "pass"}

    def closeness(eid: str):
        _, d = pic.nearest_foe(pic.centre(eid), include_markers=False)
        return (d, eid)

    for eid in sorted(ready, key=closeness):
        action = ladder(pic, eid)
        if action is not None:
            return action
    return {"type": "pass"}


def ladder(pic: Picture, eid: str) -> dict | None:
    el = pic.mine[eid]
    # 1. Recover / Vanish (G-10 step 1)
    if el.get("pinned"):
        rally = pic.offer(eid, "rally")
        if rally is not None:
            return strip(rally)
    # 2. Hug the Belt (G-10 step 2)
    act = hug(pic, eid)
    if act is not None:
        return act
    # 3. Fire (G-10 step 3, G-11)
    act = shoot(pic, eid)
    if act is not None:
        return act
    # 4. Infiltrate (G-10 step 4)
    act = infiltrate(pic, eid)
    if act is not None:
        return act
    hold = pic.offer(eid, "hold")
    if hold is not None and not el.get("conceal"):
        return strip(hold)
    return None


def hug(pic: Picture, eid: str) -> dict | None:
    f = pic.f
    offer = pic.offer(eid, "assault")
    if offer is None:
        return None
    me = pic.centre(eid)
    my_fp = pic.fp(eid)
    best = None
    for tid in offer["params"]["target"]["choices"]:
        t = pic.stands.get(tid)
        if t is None:
            continue
        reach = HUG_DENSE if f.terrain(t["x"], t["y"])["dense"] else HUG
        tel = pic.elements[t["element"]]
        tstands = [pic.stands[s] for s in tel["stands"] if s in pic.stands]
        gap = min(dist(me, (s["x"], s["y"])) for s in tstands) - 1.5
        if gap > reach:
            continue
        lone_small = len(tstands) == 1 and f.stand_type(tstands[0]["type"])["base"] == "small"
        pinned = bool(tel.get("pinned"))
        if f.threat == 1:
            ok = pinned
        elif f.threat >= 3:
            ok = True
        else:
            ok = my_fp >= pic.fp(tel["id"]) or pinned or lone_small
        if not ok:
            continue
        to = _close_on(me, (t["x"], t["y"]), offer["params"]["to"]["max"])
        action = move_action(offer, to, bearing(me, (t["x"], t["y"])))
        action["target"] = tid
        res = f.preview(action)
        if res is None:
            continue
        p_win = res.get("p_attacker_wins", res.get("attacker_wins", 0.5))
        if best is None or p_win > best[0]:
            best = (p_win, action)
    if best is not None and best[0] >= 0.3:
        return best[1]
    return None


def _close_on(me, target, reach: float):
    d = dist(me, target)
    step = min(reach, max(0.0, d - 1.9))
    if d <= 1e-9:
        return me
    return (me[0] + (target[0] - me[0]) * step / d, me[1] + (target[1] - me[1]) * step / d)


def target_priority(pic: Picture, eid: str, choices: list[str]) -> list[str]:
    """G-11: the choices in the order this element would rather shoot them."""
    f = pic.f
    me = pic.centre(eid)
    roles = [f.stand_type(s["type"])["role"] for s in pic.own_stands(eid)]
    sniper = roles and all(r == "sniper" for r in roles)

    def key(tid: str):
        t = pic.stands[tid]
        role = f.stand_type(t["type"])["role"]
        tel = pic.elements.get(t["element"], {})
        cover = f.terrain(t["x"], t["y"])["cover"]
        worse = ("open", "water", "light", "medium", "heavy").index(cover)
        left = f.stand_type(t["type"])["hits"] - t.get("hits", 0)
        rank = SNIPER_PRIORITY.index(role) if sniper and role in SNIPER_PRIORITY else len(SNIPER_PRIORITY)
        return (rank, round(dist(me, (t["x"], t["y"])), 1), 0 if tel.get("pinned") else 1, worse, left, tid)

    return sorted((c for c in choices if c in pic.stands), key=key)


def shoot(pic: Picture, eid: str) -> dict | None:
    f = pic.f
    options = []
    for kind in ("fire", "grazing_fire"):
        offer = pic.offer(eid, kind)
        if offer is None:
            continue
        ranked = target_priority(pic, eid, offer["params"]["target"]["choices"])
        if not ranked:
            continue
        action = strip(offer)
        action["target"] = ranked[0]
        res = f.preview(action)
        if res is None:
            continue
        value = 3 * expected(res, "stands_lost") + expected(res, "hits") + p_pin(res)
        options.append((value, kind, action))
    if not options:
        return None
    options.sort(key=lambda o: (-o[0], o[1]))
    return options[0][2]


def infiltrate(pic: Picture, eid: str) -> dict | None:
    f = pic.f
    offer = pic.offer(eid, "move", mode="patrol")
    if offer is None:
        return None
    me = pic.centre(eid)
    goal, d = pic.nearest_foe(me, include_markers=True)
    if goal is None or d > NOTICE:
        return None
    if d <= STANDOFF + 0.5 and f.terrain(*me)["cover"] != "open":
        return None
    # The flank with more cover (G-10 step 4; a tie: 1-3 left, 4-6 right).
    ang = math.atan2(goal[1] - me[1], goal[0] - me[0])
    flanks = []
    for side in (1, -1):
        fx = goal[0] + STANDOFF * math.cos(ang + side * math.pi / 2)
        fy = goal[1] + STANDOFF * math.sin(ang + side * math.pi / 2)
        fx = min(max(fx, 2.0), pic.w - 2.0)
        fy = min(max(fy, 2.0), pic.h - 2.0)
        flanks.append((pic.cover_at(fx, fy), side, (fx, fy)))
    if flanks[0][0] == flanks[1][0]:
        aim = flanks[0][2] if f.below(6) < 3 else flanks[1][2]
    else:
        aim = max(flanks)[2]
    reach = offer["params"]["to"]["max"]
    cands = ring_points(me, reach, pic.w, pic.h)
    scored = []
    for p in cands:
        foe_d = min((dist(p, q) for q in pic.known()), default=99.0)
        if foe_d < STANDOFF - 1.0:
            continue
        cover = pic.cover_at(*p)
        score = 2.0 * cover - 0.35 * dist(p, aim) + 0.05 * f.uniform()
        scored.append((score, p))
    scored.sort(key=lambda s: (-s[0], s[1]))
    stay = 2.0 * pic.cover_at(*me) - 0.35 * dist(me, aim)
    for score, p in scored[:6]:
        if score <= stay + 0.3:
            break
        action = move_action(offer, p, bearing(p, goal))
        if f.check(action) is None:
            return action
    return None
