"""The Jungle Ghost's decisions (DD-10.2, DD-10.9–10.10; G-10, G-11, G-28 (5)).

Each impulse the Ghost activates one revealed element, nearest to a player element first (G-28 (5)),
once per turn, and works down the four-step ladder (G-10), taking the first step that applies:

1. **Recover / Vanish**: a Pinned element rallies; a hurt or out-gunned one goes down a tunnel entrance it
   touches or makes for one (DD-10.2, DD-9B.4; ``game.ai.tunnels``, which also moves the elements in the
   network and brings them up behind the sweep).
2. **Hug the Belt**: a Confirmed player element within 6" (4" in dense terrain) that the element
   out-guns, or that is Pinned, or a lone Small stand, is close-assaulted. Threat Level 1 assaults only
   Pinned targets; Level 3 ignores the firepower comparison.
3. **Fire** at the target the priority hierarchy picks (G-11): snipers hunt RTO, commander, medic,
   squad leader, MG; MGs graze when the odds are better; riflemen take the closest stand (DD-5.28),
   ties going to a Pinned stand, then the one in worse cover, then the one with fewest hits left.
4. **Infiltrate**: a Patrol Move toward the nearest known player element, by its flank with more
   cover, ending in the best cover reachable; with nothing known within 24", Hold/Conceal.

Against an enemy with fire support (the scenario's rows for the other side, or an enemy mortar team it
has seen; ``game.ai.support``), three steps join the ladder, each answering nothing otherwise: after
Recover, a revealed element slips out of marking smoke or star-shell light it can see (DD-10.2: it fades
before heavy firepower arrives); after Hug the Belt, one with no good shot closes inside the enemy's
Danger Close belt (DD-10.2, DD-10.14: where the guns cannot be used); before Fire, its own 60mm or a
mission on call, never Danger Close to its own men (DD-8.9).

On the river (``game.ai.riverine``), a team in a spider bunker at the waterline keeps to it while an
Allied boat is afloat (DD-9A.13): its Blind does not creep out to lie up, and once revealed it does not
infiltrate; on a table without water this changes nothing.

It sees only its SideView (facade.py) and draws only from the ``ai`` stream. The Ghost's rules with
dice (reaction rolls, reveals, fade, Doom Clock) are in ``game.rules.jungle_ghost``; here it only
chooses.
"""

from __future__ import annotations

import math

from game.ai import armour, riverine, support, tunnels
from game.ai.facade import SideView
from game.ai.tactics import Picture, bearing, dist, expected, move_action, p_pin, ring_points, strip
from game.terrain import sight

HUG = 6.0
HUG_DENSE = 4.0
def notice() -> float:
    """How far the Ghost notices a foe: the open-ground sight limit (DD-4.1, sight.toml)."""
    return sight().open.limit


SNIPER_PRIORITY = ("rto", "commander", "medic", "squad_leader", "mg")
STANDOFF = 5.0
"""Infiltration stops this far (centre to centre) from the enemy: close enough to deny the guns
(DD-10.2), far enough not to walk into point-blank fire."""


def decide(f: SideView) -> dict:
    """The Ghost's action for this impulse (or a pass)."""
    pic = Picture(f)
    ready = [eid for eid, e in pic.mine.items() if e.get("activations", 0) == 0 and pic.by_element.get(eid)]
    if not ready:
        # The garrison and the faded cells in the tunnels (game.ai.tunnels; none in a game without them).
        return tunnels.below(pic) or {"type": "pass"}

    def closeness(eid: str):
        _, d = pic.nearest_foe(pic.centre(eid), include_markers=False)
        return (d, eid)

    for eid in sorted(ready, key=closeness):
        action = ladder(pic, eid)
        if action is not None:
            return action
    action = tunnels.below(pic)
    if action is not None:
        return action
    action = lay_ambush(pic)
    if action is not None:
        return action
    return {"type": "pass"}


AMBUSH_AT = 5.0
"""A Blind lies up this far (centre to centre) from the Allied marker or stand it stalks: inside the 6"
Ambush Reaction trigger of its next move (DD-10.7), beside its path, not in its face."""


def lay_ambush(pic: Picture) -> dict | None:
    """DD-10.2 (hug the enemy, ambush from the flanks): a Blind nearest the enemy first makes a Patrol
    Move toward a flank of the nearest Allied marker or stand, the flank with more cover, ahead of its
    line of advance, and lies up there; a Blind already in place, or with nothing within 24", holds."""
    f = pic.f
    own = [b for b in f.view["blinds"] if b["side"] == pic.side]
    allied = pic.known()
    if not own or not allied:
        return None
    ax = sum(p[0] for p in allied) / len(allied)
    ay = sum(p[1] for p in allied) / len(allied)
    mx = sum(b["x"] for b in own) / len(own)
    my = sum(b["y"] for b in own) / len(own)
    ahead = math.atan2(my - ay, mx - ax)  # the way the Allies are heading: toward us
    opts = []
    for b in own:
        offer = pic.blind_move(b["id"])
        if offer is None:
            continue
        me = (b["x"], b["y"])
        if riverine.waterline_bunker(pic, me):
            continue  # DD-9A.13: a spider bunker at the waterline waits for the boats (game.ai.riverine)
        foe, d = pic.nearest_foe(me, include_markers=True)
        if foe is None or d > notice() or d <= AMBUSH_AT + 1.0:
            continue
        spots = []
        for turn in (math.pi / 3, -math.pi / 3, math.pi / 2, -math.pi / 2):
            px = min(max(foe[0] + AMBUSH_AT * math.cos(ahead + turn), 2.0), pic.w - 2.0)
            py = min(max(foe[1] + AMBUSH_AT * math.sin(ahead + turn), 2.0), pic.h - 2.0)
            if min(dist((px, py), q) for q in allied) < AMBUSH_AT - 1.0:
                continue
            spots.append((-1.5 * pic.cover_at(px, py) + 0.3 * dist(me, (px, py)), (px, py)))
        if not spots:
            continue
        spots.sort()
        aim = spots[0][1]
        reach = offer["params"]["to"]["max"] - 0.05
        step = min(reach, dist(me, aim))
        if step < 0.5:
            continue
        to = (me[0] + (aim[0] - me[0]) * step / dist(me, aim), me[1] + (aim[1] - me[1]) * step / dist(me, aim))
        action = move_action(offer, to)
        if f.check(action) is not None:
            continue
        opts.append((d, b["id"], action))
    if not opts:
        return None
    opts.sort(key=lambda o: (o[0], o[1]))
    return opts[0][2]


def ladder(pic: Picture, eid: str) -> dict | None:
    el = pic.mine[eid]
    # 1. Recover / Vanish (G-10 step 1)
    if el.get("pinned"):
        rally = pic.offer(eid, "rally")
        if rally is not None:
            return strip(rally)
    # 1b. Vanish (DD-10.2, DD-10.11): a hurt element out of reach of the Allied guns' close embrace
    # makes for shelter (a jungle edge or a hootch) so it can fade in Phase 3, like a guerrilla.
    # 1a. Vanish into the tunnels (DD-10.2, DD-9B.4): a hurt or out-gunned element goes down an entrance.
    act = tunnels.dive(pic, eid)
    if act is not None:
        return act
    act = withdraw(pic, eid)
    if act is not None:
        return act
    # 1c. Slip away (DD-10.2: it fades before heavy firepower arrives): out of smoke marking a target or
    # a star shell's light, unless it already clings to the belt (only against an enemy with support).
    act = slip(pic, eid)
    if act is not None:
        return act
    # 1d. An RPG team with a shot at a track takes it (DD-7.6; the engine's odds of a penetration).
    at = armour.at_shot(pic, eid)
    if at is not None:
        return at[1]
    # 2. Hug the Belt (G-10 step 2)
    act = hug(pic, eid)
    if act is not None:
        return act
    # 2b. Against artillery, close inside the Danger Close belt rather than trade shots from beyond it
    # (DD-10.2, DD-10.14; only against an enemy with fire support).
    shot = best_shot(pic, eid)
    act = close_belt(pic, eid, shot[0] if shot else 0.0)
    if act is not None:
        return act
    # 2c. Its own mortar or fire mission (DD chapter 8, game.ai.support), where it has one.
    act = bombard(pic, eid)
    if act is not None:
        return act
    # 3. Fire (G-10 step 3, G-11)
    if shot is not None:
        return shot[1]
    # Spot (or recon by fire) the nearest Allied marker when no Allied stand is known close by: the
    # Ghost must find the patrol before it can hug it (DD-10.2, DD-4.12, DD-4.25).
    act = seek(pic, eid)
    if act is not None:
        return act
    # 4. Infiltrate (G-10 step 4); a team in a spider bunker at the waterline stays in it (DD-9A.13)
    act = None if riverine.holds_bunker(pic, eid) else infiltrate(pic, eid)
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
    shot = best_shot(pic, eid)
    return shot[1] if shot else None


def best_shot(pic: Picture, eid: str) -> tuple[float, dict] | None:
    """G-11: the element's best shot and its previewed worth."""
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
    return options[0][0], options[0][2]


# -- against fire support (DD-10.2, DD-10.14; DD chapter 8) ------------------------------------------------
CLOSE_OVER = 1.0
"""A shot worth less than this gives way to closing inside the belt when the enemy has fire support."""
SLIP_MARGIN = 1.5
"""A stand this close to the edge of marking smoke or a lit circle slips out of it."""


def _reveal_state(pic: Picture, eid: str) -> bool:
    """The element is on the table (not under a Blind): the enemy can see it, and call fire on it."""
    return pic.mine[eid].get("blind") is None and bool(pic.own_stands(eid))


def _gap_to_foes(pic: Picture, eid: str) -> float:
    foes = pic.foe_points()
    return min((dist((s["x"], s["y"]), q) for s in pic.own_stands(eid) for q in foes), default=math.inf)


def close_belt(pic: Picture, eid: str, shot_worth: float) -> dict | None:
    """DD-10.2, DD-10.14: the enemy has artillery or air on call (the scenario's rows, its seen mortar
    teams); a revealed element outside the Danger Close belt of the enemy's stands, with no good shot,
    makes a Patrol Move into the belt (no nearer than the standoff), in the best cover it reaches."""
    belt = support.belt(pic)
    if belt is None or shot_worth >= CLOSE_OVER or not _reveal_state(pic, eid) or pic.mine[eid].get("pinned"):
        return None
    offer = pic.offer(eid, "move", mode="patrol")
    if offer is None:
        return None
    gap = _gap_to_foes(pic, eid)
    reach = offer["params"]["to"]["max"]
    if gap <= belt or gap > belt + reach + 2.0:
        return None
    me = pic.centre(eid)
    foes = pic.foe_points()
    goal, _ = pic.nearest_foe(me)
    scored = []
    for p in ring_points(me, reach, pic.w, pic.h, fractions=(1.0, 0.75, 0.5, 0.33)):
        near = min(dist(p, q) for q in foes)
        if near < STANDOFF - 1.0 or near > belt - 0.5:
            continue
        scored.append((-2.0 * pic.cover_at(*p) + 0.2 * near, p))
    scored.sort()
    for _, p in scored[:8]:
        action = move_action(offer, p, bearing(p, goal))
        if pic.f.check(action) is None:
            return action
    return None


def _exposures(pic: Picture) -> list[tuple[float, float, float]]:
    """What marks the Ghost's men for the enemy's guns, as its view shows it: smoke on the table that is
    not a Dustoff's (marking smoke, WP: DD-8.5, G-19) and star-shell light (DD-9A.3)."""
    v = pic.f.view
    out = []
    for m in v.get("markers", []):
        if m.get("kind") in ("smoke", "illumination") and m.get("purpose", "marking") not in ("dustoff", "spoof"):
            out.append((m["x"], m["y"], float(m.get("radius") or 1.0)))
    for c in v.get("clocks", []):
        if c.get("kind") == "wp_smoke" and c.get("x") is not None:
            out.append((c["x"], c["y"], float(c.get("radius") or 1.0)))
    return out


def slip(pic: Picture, eid: str) -> dict | None:
    """DD-10.2 (it fades before heavy firepower arrives): against an enemy with fire support, a revealed
    element with a stand in or beside marking smoke or a lit circle, or lit itself, and not clinging to
    the belt, makes a Patrol Move out of it, into cover, away from the marks."""
    belt = support.belt(pic)
    if belt is None or not _reveal_state(pic, eid) or pic.mine[eid].get("pinned"):
        return None
    marks = _exposures(pic)
    stands = pic.own_stands(eid)
    marked = [m for m in marks if any(dist((s["x"], s["y"]), (m[0], m[1])) <= m[2] + SLIP_MARGIN for s in stands)]
    if not marked and not pic.mine[eid].get("illuminated"):
        return None
    if _gap_to_foes(pic, eid) <= belt:
        return None  # clinging to the belt: the guns cannot fire on it (DD-10.14)
    offer = pic.offer(eid, "move", mode="patrol")
    if offer is None:
        return None
    me = pic.centre(eid)
    reach = offer["params"]["to"]["max"]
    scored = []
    for p in ring_points(me, reach, pic.w, pic.h, fractions=(1.0, 0.66)):
        if any(dist(p, (m[0], m[1])) <= m[2] + SLIP_MARGIN + 0.5 for m in marks):
            continue
        away = min((dist(p, (m[0], m[1])) for m in marked), default=0.0)
        scored.append((-2.0 * pic.cover_at(*p) - 0.2 * min(away, 8.0), p))
    scored.sort()
    for _, p in scored[:8]:
        action = move_action(offer, p, bearing(me, p))
        if pic.f.check(action) is None:
            return action
    return None


def bombard(pic: Picture, eid: str) -> dict | None:
    """The element's own fire support (game.ai.support): its on-board mortar (G-37) or a mission on
    call (DD-8.6), only with no own stand within the danger-close distance (DD-8.9)."""
    opts = support.mortar_options(pic, eid) + support.call_options(pic, eid)
    if not opts:
        return None
    opts.sort(key=lambda o: (-o[0], o[1]["type"]))
    return opts[0][1]


def infiltrate(pic: Picture, eid: str) -> dict | None:
    f = pic.f
    offer = pic.offer(eid, "move", mode="patrol")
    if offer is None:
        return None
    me = pic.centre(eid)
    goal, d = pic.nearest_foe(me, include_markers=True)
    if goal is None or d > notice():
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


def seek(pic: Picture, eid: str) -> dict | None:
    me = pic.centre(eid)
    _, foe_d = pic.nearest_foe(me)
    if foe_d <= 12.0:
        return None
    for kind, reach in (("spot", 10.0), ("recon_by_fire", 6.0)):
        offer = pic.offer(eid, kind)
        if offer is None:
            continue
        tgt = (offer.get("params", {}).get("target") or {}).get("choices") or []
        marks = sorted((dist(me, (b["x"], b["y"])), b["id"]) for b in pic.markers if b["id"] in tgt)
        if marks and marks[0][0] <= reach:
            action = strip(offer)
            action["target"] = marks[0][1]
            return action
    return None


SHELTERS = ("dense", "secondary", "bamboo", "mangrove", "hootch", "bunker")
"""Terrain a stand must be within 4" of to fade (DD-10.11; jungle_ghost.toml [fade] shelters)."""
SHELTER_REACH = 3.5


def _sheltered(pic: Picture, p) -> bool:
    f = pic.f
    if f.terrain(*p)["id"] in SHELTERS:
        return True
    for k in range(8):
        ang = 2 * math.pi * k / 8
        for r in (1.5, SHELTER_REACH):
            q = (p[0] + r * math.cos(ang), p[1] + r * math.sin(ang))
            if 0 <= q[0] <= pic.w and 0 <= q[1] <= pic.h and f.terrain(*q)["id"] in SHELTERS:
                return True
    return False


def withdraw(pic: Picture, eid: str) -> dict | None:
    f = pic.f
    el = pic.mine[eid]
    stands = pic.own_stands(eid)
    hurt = any(s.get("hits") for s in stands) or len(stands) < len(el.get("stands_all", el["stands"]))
    if not hurt or el.get("pinned"):
        return None
    if all(_sheltered(pic, (s["x"], s["y"])) for s in stands):
        return None
    offer = pic.offer(eid, "move", mode="patrol")
    if offer is None:
        return None
    me = pic.centre(eid)
    reach = offer["params"]["to"]["max"]
    foes = pic.foe_points()
    scored = []
    for p in ring_points(me, reach, pic.w, pic.h, fractions=(1.0, 0.66, 0.33)):
        if not _sheltered(pic, p):
            continue
        far = min((dist(p, q) for q in foes), default=30.0)
        scored.append((-min(far, 20.0) - 2.0 * pic.cover_at(*p), p))
    scored.sort()
    for _, p in scored[:8]:
        action = move_action(offer, p, bearing(me, p))
        if f.check(action) is None:
            return action
    return None
