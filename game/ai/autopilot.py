"""The Allied autopilot: a platoon that plays itself, sensibly.

Each impulse it scores one candidate action per element and takes the best, or passes:

* **Fire** when the odds are good (the engine's exact preview: expected stands removed, hits and the
  chance to pin), the MG grazing when that is better; a second activation only to shoot.
* **Rally** a Pinned element near the enemy; **Take Five** when Winded and nothing presses.
* **Tend the wounded**: the element with the medic moves a stand onto a wounded casualty token so the
  medic stabilizes it in Phase 3 (DD-6.5); otherwise the nearest element puts a man beside it so it does
  not bleed (DD-6.4); Buddy Aid, a Litter Team, smoke for a Dustoff and the carry to the helicopter
  follow (chapter 6, docs/casevac.md).
* **Capture** an abandoned Communist casualty token when no enemy stands within 2" of it (DD-3.14).
* **Bounding overwatch**: while enemy stands or markers are within reach, the MG team (and one rifle
  element at most) sets Overwatch toward them before the others move (DD-2.13).
* **Advance in formation**: toward the nearest known enemy (to about 9", a good firing distance) or
  marker (close enough to make it show itself), ending in the best cover it can reach, spaced from
  friends, and never beyond the commander's radius (the view's ``in_command``); the HQ follows the
  squads; an element out of command closes on the commander first.
* **Spotting** the nearest enemy marker within 10" before moving on, Recon by Fire within 6".
* **Blinds** (DD-4.7) move toward the enemy to about 7", or to the objective; in the last two turns the
  platoon makes for its objectives.
* **Fire support** (DD chapter 8, ``game.ai.support``): with a mission on call, the HQ calls it on a seen
  enemy stand or Echo, a cluster and targets in the open first, when its worth is good and no own stand
  would be within the engine's danger-close distance of the template (DD-8.9); the 60mm team fires at
  seen enemies at range (G-37); air only on a heading the engine accepts (DD-8.5). While a mission is on
  its way, the squads keep out of its Danger Close ring.

It sees only its SideView and draws only from the ``ai`` stream.
"""

from __future__ import annotations

import math

from game.ai import armour, support, tunnels, tunnels_allied
from game.ai.facade import SideView
from game.ai.tactics import Picture, bearing, dist, expected, move_action, p_pin, ring_points, strip

FIRE_AT = 9.0
CLEAR_AT = 4.5
COMMAND_REACH = 6.5
SPACING = 3.0
PASS_BELOW = 0.25
ENGAGE_NEAR = 12.0
"""A known enemy stand nearer than this is fought before the scenario objective is taken."""
SPOT_AT = 10.0
"""Spot the nearest enemy marker within this (the rubber rows' 12" sight, less a margin)."""
RECON_AT = 6.0
"""Recon by Fire an enemy marker this close (inside its ambush trigger: better shoot than walk on)."""
SEARCH_CLEAR = 6.0
"""Search a hootch only with no known enemy this close (DD-2.15: a squad searching is not shooting)."""
SEARCH_WALK = 8.0
"""Walk to an unsearched hootch of an objective this close, to search it next (DD-2.15)."""
SEARCHED = ("hootch", "bunker", "spider_hole")
"""The features a Search / Pacify is made at (search.toml's list, DD-2.15)."""
TOKEN_REACH = 14.0
"""An abandoned Communist token this close is worth the detour (+1 VP, DD-3.14)."""


def decide(f: SideView) -> dict:
    pic = Picture(f)
    cands: list[tuple[float, str, dict]] = []
    for eid in sorted(pic.mine):
        if not pic.by_element.get(eid):
            continue
        for score, action in element_options(pic, eid):
            cands.append((score, eid, action))
    cands += blind_options(pic)
    cands += tunnels_allied.below_options(pic)  # our stands in the tunnels (TUN module): none in other games
    if not cands:
        return {"type": "pass"}
    cands.sort(key=lambda c: (-c[0], c[1]))
    cp = f.view["sides"].get(f.side, {}).get("cp", 99)
    for score, _, action in cands:
        if score < PASS_BELOW:
            break
        # Keep a reserve of CP for the casualties the enemy's next volley makes (DD-6.4: a wounded man
        # nobody reaches bleeds), unless the shot or the move is worth more than that.
        if cp - action.get("cost", 0) < CP_RESERVE and score < 2.0 and action["type"] in RESERVE_FOR \
                and not closing(Picture(f)):
            continue
        if action["type"] in ("move",) and f.check(action) is not None:
            continue
        return action
    return {"type": "pass"}


BLIND_KEEP = 7.0
"""A Blind closes to about this far from the nearest enemy marker or stand: inside spotting range and
the rubber rows' 12" sight, outside the 6" ambush trigger (DD-10.7)."""


def blind_options(pic: Picture) -> list[tuple[float, str, dict]]:
    """Our own Blinds (DD-4.7, DD-4.35) move as markers: a Patrol Move toward the nearest enemy marker
    or stand (to about 7") or, with none known, toward the scenario objective; a Dummy leads."""
    f = pic.f
    out = []
    own = [b for b in f.view["blinds"] if b["side"] == pic.side]
    for b in sorted(own, key=lambda b: b["id"]):
        offer = pic.blind_move(b["id"])
        if offer is None:
            continue
        me = (b["x"], b["y"])
        goal, d = pic.nearest_foe(me, include_markers=True)
        keep = BLIND_KEEP
        if closing(pic) and not inside_objective(pic, me):
            goal = None
        if goal is None:
            goal = objective_point(pic, me)
            keep = 0.0
            if goal is None:
                continue
            d = dist(me, goal)
        if d <= keep + 0.5:
            continue
        step = min(offer["params"]["to"]["max"] - 0.05, d - keep)
        to = (me[0] + (goal[0] - me[0]) * step / d, me[1] + (goal[1] - me[1]) * step / d)
        action = move_action(offer, to)
        if f.check(action) is not None:
            continue
        score = (0.85 if not b.get("elements") else 0.7) + min(0.1, step / 60)
        out.append((score, b["id"], action))
    return out


def hq_id(pic: Picture) -> str | None:
    """The element of the commander who projects the command radius (DD-1.10): the first with a
    commander stand; with several (a company), the one the view says holds the command."""
    found = []
    for eid in sorted(pic.mine):
        roles = {pic.f.stand_type(s["type"])["role"] for s in pic.own_stands(eid)}
        if "commander" in roles:
            found.append(eid)
    if len(found) > 1:
        holds = [e for e in found if "holds the commander" in str((pic.mine[e].get("command") or {}).get("reason", ""))]
        if holds:
            return holds[0]
    return found[0] if found else None


COMPANY_LEAD = 0.0
"""In a company the HQ keeps this far ahead of its fighting elements' middle on the march (with seven
elements round it, keeping to their middle froze the column in the paddies)."""
MORTAR_TRAIL = 3.0
"""In a company the mortar team follows the HQ this far back."""


def is_mortar(pic: Picture, eid: str) -> bool:
    return any(pic.f.stand_type(s["type"])["role"] == "mortar" for s in pic.own_stands(eid))


RADIO_ROLES = ("rto", "fo")
"""Stands that carry a radio (stands.toml ``radio``; the view gives roles): an element with one keeps in
command by radio wherever it goes, while an RTO is in base contact with the commander (DD-2.6, G-16)."""


def company(pic: Picture) -> bool:
    """More than one element with a commander stand (a company: its platoon HQs, DD-1.10)."""
    return sum(1 for eid in pic.mine if any(pic.f.stand_type(s["type"])["role"] == "commander"
                                            for s in pic.own_stands(eid))) > 1


def radio_elements(pic: Picture) -> set[str]:
    """In a company, the elements other than the commander's that carry a radio (a platoon HQ's RTO, the
    FO): they need not keep within the commander's radius (DD-2.6, G-16). Empty for a platoon, so a
    platoon's play is as it was."""
    if not company(pic):
        return set()
    hq = hq_id(pic)
    return {eid for eid in pic.mine if eid != hq
            and any(pic.f.stand_type(s["type"])["role"] in RADIO_ROLES for s in pic.own_stands(eid))}


def followers(pic: Picture, hq: str) -> list[str]:
    """The elements the HQ keeps to the middle of: every other element; in a company, its fighting
    elements only (not the platoon HQs on the radio, nor the mortar team that stays back: G-37)."""
    others = [e for e in pic.mine if e != hq]
    if tunnels.sections(pic):
        # In a tunnel sweep the engineers and the Tunnel Rats work the entrances: the HQ keeps to the
        # middle of the rifle squads (with them too the platoon crowded round it and stalled).
        others = [e for e in others if not tunnels_allied.specialist(pic, e)] or others
    if not company(pic):
        return others
    radio = radio_elements(pic)
    keep = [e for e in others if e not in radio and not is_mortar(pic, e)]
    return keep or others


def support_options(pic: Picture, eid: str) -> list[tuple[float, dict]]:
    """The element's fire-support plans (game.ai.support), each (worth, action): only where the engine
    offers call_fire, mortar_fire or an air action to it."""
    kinds = {a["type"] for a in pic.by_element.get(eid, [])}
    out: list[tuple[float, dict]] = []
    if "call_fire" in kinds:
        out += support.call_options(pic, eid)
    if "mortar_fire" in kinds:
        out += support.mortar_options(pic, eid)
    if kinds & set(support.AIR_TYPES):
        out += support.air_options(pic, eid)
    return out


def element_options(pic: Picture, eid: str) -> list[tuple[float, dict]]:
    f = pic.f
    el = pic.mine[eid]
    me = pic.centre(eid)
    out: list[tuple[float, dict]] = []
    _, foe_d = pic.nearest_foe(me)
    second = el.get("activations", 0) >= 1
    # Fire with good odds (a second activation only for this).
    best_fire = 0.0
    for kind in ("fire", "grazing_fire"):
        offer = pic.offer(eid, kind)
        if offer is None:
            continue
        choices = offer["params"]["target"]["choices"]
        choices = sorted(choices, key=lambda t: (dist(me, (pic.stands[t]["x"], pic.stands[t]["y"])), t))[:3]
        for tid in choices:
            action = strip(offer)
            action["target"] = tid
            res = f.preview(action)
            if res is None:
                if not offer.get("from_blind"):
                    continue
                # The engine gives no odds for fire from under a Blind (the stands are not on the table
                # yet): open fire on a Confirmed enemy close by, which reveals us (DD-4.11).
                t = pic.stands[tid]
                d = dist(me, (t["x"], t["y"]))
                value = 0.9 if d <= 8 else 0.55 if d <= 12 else 0.0
            else:
                value = 3 * expected(res, "stands_lost") + expected(res, "hits") + 1.5 * p_pin(res)
            best_fire = max(best_fire, value)
            if value >= 0.5:
                out.append((1.0 + value - 0.2 * action.get("cost", 1), action))
    # Fire support (DD chapter 8): a mission on a seen enemy, the 60mm on one at range, an air strike,
    # each only where no own stand would be Danger Close (game.ai.support). Without support on call
    # (no such offers) nothing here changes the platoon's play.
    for value, action in support_options(pic, eid):
        out.append((1.0 + value - 0.2 * action.get("cost", 1), action))
        best_fire = max(best_fire, value)
    if second:
        return out
    if armour.is_vehicle(pic, eid):
        return out + armour.vehicle_options(pic, eid, best_fire)
    if el.get("pinned"):
        rally = pic.offer(eid, "rally")
        if rally is not None:
            out.append((1.6 if foe_d < 15 else 0.6, strip(rally)))
    if el.get("winded"):
        t5 = pic.offer(eid, "take_five")
        if t5 is not None:
            out.append((0.35 if foe_d > 12 else 0.2, strip(t5)))
    if el.get("low_ammo"):
        # G-32: a Low Ammo element beside the Platoon HQ (or a landed helicopter) takes its ammunition;
        # the engine offers it only there
        resupply = pic.offer(eid, "resupply")
        if resupply is not None:
            out.append((0.9 if foe_d > 8 else 0.5, strip(resupply)))
    # Spot the nearest Echo in range before moving on (DD-4.12, DD-4.23); an Echo close by that will
    # not show itself is reconned by fire (DD-4.25).
    out += spotting(pic, eid, me, best_fire, (1.05, 0.98))
    act = search(pic, eid, best_fire, foe_d)
    if act is not None:
        out.append(act)
    # Tunnels, traps and the village (DD chapter 9B, TUN): nothing without their offers (game.ai.tunnels_allied).
    out += tunnels_allied.allied_options(pic, eid, best_fire, foe_d)
    out += casevac(pic, eid, foe_d)
    move = pic.offer(eid, "move", mode="patrol")
    if (covering(pic, eid) or carrying(pic, eid)) and not closing(pic):
        move = None
    if carrying(pic, eid):
        act = to_dustoff(pic, eid)
        if act is not None:
            out.append(act)
    if move is not None and not el.get("pinned"):
        act = tend(pic, eid, move)
        if act is not None:
            out.append(act)
        act = capture(pic, eid, move)
        if act is not None:
            out.append(act)
        act = to_search(pic, eid, move, best_fire, foe_d)
        if act is not None:
            out.append(act)
    ow = pic.offer(eid, "set_overwatch")
    if ow is not None and not el.get("overwatch") and not el.get("moved") and best_fire < 0.5:
        act = overwatch(pic, eid, ow)
        if act is not None:
            out.append(act)
    if move is not None and not el.get("pinned"):
        act = advance(pic, eid, move)
        if act is not None:
            out.append(act)
    sprint = pic.offer(eid, "move", mode="sprint")
    if sprint is not None and move is not None and closing(pic) and not inside_objective(pic, me) and not el.get("winded"):
        # The last turns: sprint for the objective (DD-2.10), the squads first.
        act = advance(pic, eid, sprint)
        if act is not None:
            out.append((act[0] + 0.05, act[1]))
    return out


def spotting(pic: Picture, eid: str, me, best_fire: float, scores: tuple[float, float]) -> list[tuple[float, dict]]:
    """A Spotting Test at the nearest enemy marker within ``SPOT_AT`` (DD-4.12, DD-4.23) and Recon by Fire
    at one within ``RECON_AT`` (DD-4.25), scored ``scores``; none when it has a good shot or has moved."""
    out: list[tuple[float, dict]] = []
    if best_fire >= 0.5 or pic.mine[eid].get("moved"):
        return out
    for (kind, reach), score in zip((("spot", SPOT_AT), ("recon_by_fire", RECON_AT)), scores, strict=True):
        offer = pic.offer(eid, kind)
        if offer is None:
            continue
        tgt = (offer.get("params", {}).get("target") or {}).get("choices") or []
        marks = sorted((dist(me, (b["x"], b["y"])), b["id"]) for b in pic.markers if b["id"] in tgt)
        if not marks or marks[0][0] > reach:
            continue
        action = strip(offer)
        action["target"] = marks[0][1]
        out.append((score, action))
    return out


def search(pic: Picture, eid: str, best_fire: float, foe_d: float) -> tuple[float, dict] | None:
    """Search / Pacify (DD-2.15) a hootch, bunker or spider hole in reach that nobody has searched yet
    (the view's public ``searched`` markers), when there is nothing better to shoot and no enemy close:
    what hides there is found, and the Jungle Ghost can no longer come back into it (DD-10.13, G-40)."""
    offer = pic.offer(eid, "search")
    if offer is None or best_fire >= 0.5 or foe_d < SEARCH_CLEAR:
        return None
    done = {m["id"] for m in pic.f.view.get("markers", []) if m.get("kind") == "searched"}
    # The ground (DD-9B.3) is searched by the specialists where they stand (game.ai.tunnels_allied.search_ground).
    todo = [fid for fid in offer["params"]["feature"]["choices"] if f"searched_{fid}" not in done and fid != "ground"]
    if not todo:
        return None
    action = strip(offer)
    action["feature"] = sorted(todo)[0]
    return (1.15, action)


def unsearched(pic: Picture) -> list[tuple[str, tuple[float, float], float]]:
    """The hootches and bunkers inside our objectives that nobody has searched yet (the view's public
    ``searched`` markers), with their centres and half their longest side."""
    done = {m["id"] for m in pic.f.view.get("markers", []) if m.get("kind") == "searched"}
    polys = [o["polygon"] for o in our_objectives(pic)]
    out = []
    for feat in pic.f.view["scenario"].get("features", []):
        if feat.get("type") not in SEARCHED or f"searched_{feat['id']}" in done or "point" not in feat:
            continue
        c = (float(feat["point"][0]), float(feat["point"][1]))
        if any(inside(poly, c) for poly in polys):
            out.append((feat["id"], c, max(feat.get("size") or [0.0]) / 2))
    return out


def to_search(pic: Picture, eid: str, move: dict, best_fire: float, foe_d: float) -> tuple[float, dict] | None:
    """Walk a stand up to the nearest unsearched hootch of an objective (DD-2.15: within 2"), when no
    enemy is close and nothing is worth shooting: the next activation searches it (``search``)."""
    if best_fire >= 0.5 or foe_d < SEARCH_CLEAR or pic.offer(eid, "search") is not None:
        return None
    me = pic.centre(eid)
    todo = sorted((dist(me, c), fid, c, half) for fid, c, half in unsearched(pic))
    for d, _, c, half in todo[:2]:
        if d > SEARCH_WALK:
            break
        # outside its wall on our side, well within the 2" reach
        k = (half + 0.8) / max(d, 1e-6)
        act = _stand_onto(pic, eid, move, (c[0] + (me[0] - c[0]) * k, c[1] + (me[1] - c[1]) * k))
        if act is not None:
            return (1.1, act)  # above a plain advance (at most about 1.1), below a capture or a volley
    return None


def _stand_onto(pic: Picture, eid: str, move: dict, point, role: str | None = None) -> dict | None:
    """Move the element so its nearest stand (of ``role``, if given) sits on ``point`` (base contact
    with a token)."""
    me = pic.centre(eid)
    own = [s for s in pic.own_stands(eid) if role is None or pic.f.stand_type(s["type"])["role"] == role]
    if not own:
        return None
    st = min(own, key=lambda s: (dist((s["x"], s["y"]), point), s["id"]))
    d = dist((st["x"], st["y"]), point)
    if d <= 0.6:
        return None  # already there
    # Beside the token (base contact), from the side the stand comes from; or onto it.
    for off in (0.6, 0.3, 0.0):
        px = point[0] + (st["x"] - point[0]) * off / d
        py = point[1] + (st["y"] - point[1]) * off / d
        dx, dy = px - st["x"], py - st["y"]
        if math.hypot(dx, dy) > move["params"]["to"]["max"] - 0.1:
            continue
        action = move_action(move, (me[0] + dx, me[1] + dy))
        if pic.f.check(action) is None:
            return action
    return None


def tend(pic: Picture, eid: str, move: dict) -> tuple[float, dict] | None:
    wounded = [m for m in pic.f.view["markers"] if m["kind"] == "casualty_token" and m.get("side") == pic.side
               and m.get("state") == "wounded"]
    if not wounded:
        return None
    roles = {pic.f.stand_type(s["type"])["role"] for s in pic.own_stands(eid)}
    medic = "medic" in roles
    for tok in sorted(wounded, key=lambda t: (dist(pic.centre(eid), (t["x"], t["y"])), t["id"])):
        near = [s for s in pic.stands.values() if s["side"] == pic.side
                and dist((s["x"], s["y"]), (tok["x"], tok["y"])) <= CONTACT]
        if any(pic.f.stand_type(s["type"])["role"] == "medic" for s in near):
            continue  # the medic is on it: stabilized at the end of the turn (DD-6.5)
        if near and not medic:
            continue  # a friend is on it: it does not bleed (DD-6.4)
        act = _stand_onto(pic, eid, move, (tok["x"], tok["y"]), "medic" if medic else None)
        if act is not None:
            # An untended casualty bleeds out on 1-2 each turn (DD-6.4): a KIA costs 3 VP, a tended
            # one 2 (0 once extracted, +2), so covering it outranks a shot.
            return (2.6 if medic else 2.4, act)
        if medic and not near:
            # Out of reach this move: the medic's element closes on it (the next move gets there).
            st = min((s for s in pic.own_stands(eid) if pic.f.stand_type(s["type"])["role"] == "medic"),
                     key=lambda s: s["id"])
            d = dist((st["x"], st["y"]), (tok["x"], tok["y"]))
            step = min(move["params"]["to"]["max"] - 0.2, d - 0.8)
            me = pic.centre(eid)
            for fr in (1.0, 0.7, 0.5):
                dx = (tok["x"] - st["x"]) * step * fr / d
                dy = (tok["y"] - st["y"]) * step * fr / d
                action = move_action(move, (me[0] + dx, me[1] + dy))
                if pic.f.check(action) is None:
                    return (2.0, action)
    return None


# -- CASEVAC (chapter 6, docs/casevac.md) -------------------------------------------------------------
CP_RESERVE = 0
"""CP kept back (after an ordinary shot or move) for tending the wounded the enemy's fire makes."""
RESERVE_FOR = ("fire", "grazing_fire", "move", "set_overwatch", "spot", "recon_by_fire", "blind_move")
CONTACT = 0.95
"""Centre to centre, a stand this close to a casualty token touches it (a 0.5" token, DD-6.4)."""
"""An LZ with no known enemy within this (the Hot LZ reach, DD-6.9) is worth a longer look."""


def _our_tokens(pic: Picture, states=("wounded", "stabilized")) -> list[dict]:
    return [m for m in pic.f.view["markers"] if m["kind"] == "casualty_token" and m.get("side") == pic.side
            and m.get("state") in states]


def carrying(pic: Picture, eid: str) -> bool:
    return any(s.get("litter") for s in pic.own_stands(eid))


def dustoff_called(pic: Picture) -> dict | None:
    """Our smoke or helicopter on the table: the Dustoff is inbound or on the LZ."""
    for m in pic.f.view["markers"]:
        if m["kind"] in ("helicopter", "smoke") and m.get("purpose", "dustoff") in ("dustoff", "casevac", "lz"):
            return m
    return None


def casevac(pic: Picture, eid: str, foe_d: float) -> list[tuple[float, dict]]:
    """Buddy Aid on a wounded friend in contact (DD-2.16), a Litter Team picks up a casualty (DD-6.2)
    once no enemy is close, and the element with the casualty pops smoke for a Dustoff (DD-6.6) where no
    known enemy is near the LZ (DD-6.9): each extracted casualty is +2 VP and no longer -2 (DD-3.17)."""
    f = pic.f
    out: list[tuple[float, dict]] = []
    aid = pic.offer(eid, "buddy_aid")
    if aid is not None:
        toks = aid["params"]["token"]["choices"]
        if toks:
            action = strip(aid)
            action["token"] = toks[0]
            out.append((1.65, action))
    lit = pic.offer(eid, "litter")
    if lit is not None and foe_d > 6.0 and not carrying(pic, eid):
        toks = [t for t in lit["params"]["token"]["choices"]]
        stands = lit["params"]["stand"]["choices"]
        states = {m["id"]: m.get("state") for m in _our_tokens(pic, ("wounded", "stabilized", "kia"))}
        toks = sorted(toks, key=lambda t: ({"stabilized": 0, "wounded": 1}.get(states.get(t), 2), t))
        if toks and stands and states.get(toks[0]) in ("stabilized", "wounded"):
            roles = {s["id"]: f.stand_type(s["type"])["role"] for s in pic.own_stands(eid)}
            # The medic and the commander keep their jobs; a rifleman or the RTO carries.
            stand = sorted(stands, key=lambda x: (roles.get(x) in ("medic", "commander", "mg"), x))[0]
            action = strip(lit)
            action["token"], action["stand"] = toks[0], stand
            out.append((1.3, action))
    smoke = pic.offer(eid, "pop_smoke")
    if smoke is not None and dustoff_called(pic) is None and carrying(pic, eid):
        at = lz_point(pic, eid, smoke)
        if at is not None:
            action = strip(smoke)
            action["at"] = [round(at[0], 2), round(at[1], 2)]
            out.append((1.45, action))
    return out


def lz_point(pic: Picture, eid: str, offer: dict) -> tuple[float, float] | None:
    """A clear 6" circle within 3" of one of our stands, as far from known enemies as can be found."""
    f = pic.f
    foes = pic.known()
    best = None
    for st in pic.own_stands(eid):
        for p in ring_points((st["x"], st["y"]), 2.8, pic.w, pic.h, n=8, fractions=(1.0, 0.5)) + [(st["x"], st["y"])]:
            far = min((dist(p, q) for q in foes), default=99.0)
            score = min(far, 18.0)
            if best is not None and score <= best[0]:
                continue
            action = strip(offer)
            action["at"] = [round(p[0], 2), round(p[1], 2)]
            if f.check(action) is None:
                best = (score, p)
    return best[1] if best else None


def to_dustoff(pic: Picture, eid: str) -> tuple[float, dict] | None:
    """The Litter Team carries its casualty into contact with the helicopter's footprint (or the smoke,
    to be there when it lands): DD-6.12."""
    lz = dustoff_called(pic)
    move = pic.offer(eid, "move", mode="patrol")
    if lz is None or move is None:
        return None
    carrier = next(s for s in pic.own_stands(eid) if s.get("litter"))
    here = (carrier["x"], carrier["y"])
    d = dist(here, (lz["x"], lz["y"]))
    want = lz.get("radius", 1.5) + 0.6 if lz["kind"] == "helicopter" else 2.0
    if d <= want + 0.3:
        return None
    step = min(d - want, 2.9)
    dx, dy = (lz["x"] - here[0]) * step / d, (lz["y"] - here[1]) * step / d
    me = pic.centre(eid)
    action = move_action(move, (me[0] + dx, me[1] + dy))
    if pic.f.check(action) is not None:
        return None
    return (1.5, action)


def covering(pic: Picture, eid: str) -> bool:
    """Does a stand of this element sit on a wounded friend that no other stand covers (DD-6.4)? Then
    the element stays put: walking off lets the casualty bleed."""
    own = pic.own_stands(eid)
    ids = {s["id"] for s in own}
    for tok in pic.f.view["markers"]:
        if tok["kind"] != "casualty_token" or tok.get("side") != pic.side or tok.get("state") != "wounded":
            continue
        near = [s for s in pic.stands.values() if s["side"] == pic.side
                and dist((s["x"], s["y"]), (tok["x"], tok["y"])) <= CONTACT]
        if near and all(s["id"] in ids for s in near):
            return True
    return False


def capture(pic: Picture, eid: str, move: dict) -> tuple[float, dict] | None:
    tokens = [m for m in pic.f.view["markers"] if m["kind"] == "casualty_token" and m.get("side") != pic.side
              and m.get("state") == "communist"]
    for tok in sorted(tokens, key=lambda t: (dist(pic.centre(eid), (t["x"], t["y"])), t["id"])):
        if any(dist((s["x"], s["y"]), (tok["x"], tok["y"])) <= 3.0 for s in pic.foes):
            continue
        act = _stand_onto(pic, eid, move, (tok["x"], tok["y"]))
        if act is not None:
            return (1.3, act)
    return None


def overwatch(pic: Picture, eid: str, offer: dict) -> tuple[float, dict] | None:
    me = pic.centre(eid)
    goal, d = pic.nearest_foe(me, include_markers=True)
    if goal is None or d > 22:
        return None
    roles = {pic.f.stand_type(s["type"])["role"] for s in pic.own_stands(eid)}
    watching = sum(1 for e in pic.mine.values() if e.get("overwatch"))
    if "mg" in roles:
        score = 0.95
    elif "commander" in roles or watching >= 1:
        return None
    else:
        score = 0.45
    action = strip(offer)
    action["facing"] = round(bearing(me, goal), 1)
    return (score, action)


def inside(poly, p) -> bool:
    """Point in polygon (ray casting)."""
    x, y = p
    res = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            res = not res
    return res


def our_objectives(pic: Picture) -> list[dict]:
    return [o for o in pic.f.view["scenario"].get("objectives", []) if o["side"] == pic.side]


def objective_point(pic: Picture, me) -> tuple[float, float] | None:
    """The scenario objective this element should take: a point in the nearest area not yet held by
    this element (the middle of it, a little spread by element so the squads do not bunch)."""
    best = None
    for o in our_objectives(pic):
        poly = o["polygon"]
        if inside(poly, me):
            continue
        cx = sum(p[0] for p in poly) / len(poly)
        cy = sum(p[1] for p in poly) / len(poly)
        d = dist(me, (cx, cy))
        if best is None or d < best[0]:
            best = (d, (cx, cy))
    return best[1] if best else None


MARCH_LEAD = 0.0
"""On the march to the objective the HQ keeps to its squads' centre (leading got it shot)."""
CLOSING_TURNS = 2
"""In the last turns the platoon makes for the objective whatever is shooting at it: it is scored at
the end (G-30), and a wargamer grabs it before the whistle."""


def closing(pic: Picture) -> bool:
    v = pic.f.view
    return bool(our_objectives(pic)) and v.get("turns", 99) - v.get("turn", 0) < CLOSING_TURNS


def inside_objective(pic: Picture, p) -> bool:
    return any(inside(o["polygon"], p) for o in our_objectives(pic))


def abandoned_token(pic: Picture, me) -> tuple[float, float] | None:
    """The nearest abandoned Communist casualty token with no known enemy stand within 3" (DD-3.14)."""
    toks = [(m["x"], m["y"]) for m in pic.f.view["markers"] if m["kind"] == "casualty_token"
            and m.get("side") != pic.side and m.get("state") == "communist"
            and not any(dist((s["x"], s["y"]), (m["x"], m["y"])) <= 3.0 for s in pic.foes)]
    return min(toks, key=lambda p: (dist(me, p), p)) if toks else None


def objective(pic: Picture, me) -> tuple[tuple[float, float], float]:
    """Where this element is heading, and the distance it wants to keep from it: a known enemy close
    by is fought first; otherwise the scenario objective; otherwise the nearest enemy or marker."""
    foe, d = pic.nearest_foe(me)
    if closing(pic) and not inside_objective(pic, me):
        goal = objective_point(pic, me)
        if goal is not None:
            return goal, 0.0
    if foe is None or d > ENGAGE_NEAR:
        tok = abandoned_token(pic, me)
        if tok is not None and dist(me, tok) <= TOKEN_REACH:
            return tok, 0.0
        goal = objective_point(pic, me)
        if goal is not None:
            return goal, 0.0
    marks = [(b["x"], b["y"]) for b in pic.markers]
    mark = min(marks, key=lambda p: (dist(me, p), p)) if marks else None
    if foe is not None and (mark is None or d <= dist(me, mark) + 6):
        return foe, FIRE_AT
    if mark is not None:
        return mark, CLEAR_AT
    own = [(s["x"], s["y"]) for s in pic.stands.values() if s["side"] == pic.side]
    cx = sum(p[0] for p in own) / len(own)
    cy = sum(p[1] for p in own) / len(own)
    return (pic.w - cx, pic.h - cy) if dist((cx, cy), (pic.w / 2, pic.h / 2)) > 6 else (pic.w / 2, pic.h * 0.8), 0.0


def advance(pic: Picture, eid: str, move: dict) -> tuple[float, dict] | None:
    f = pic.f
    el = pic.mine[eid]
    me = pic.centre(eid)
    hq = hq_id(pic)
    reach = move["params"]["to"]["max"]
    pc = pic.centre(hq) if hq is not None else None
    if hq == eid:
        others = [pic.centre(e) for e in followers(pic, eid)]
        marching = False
        if not others:
            goal, keep = objective(pic, me)
        else:
            # The HQ follows: to the middle of its squads, a little behind them.
            gx = sum(p[0] for p in others) / len(others)
            gy = sum(p[1] for p in others) / len(others)
            tgt, tkeep = objective(pic, (gx, gy))
            # The HQ follows its squads, a little behind them in a fight; on the march to the objective
            # (nothing known close by) it leads a little, so the squads can close up on it within the
            # command radius.
            lead = -2.5 if tkeep else (COMPANY_LEAD if company(pic) else MARCH_LEAD)
            if dist((gx, gy), tgt) < abs(lead):
                lead = 0.0
            ang = math.atan2(tgt[1] - gy, tgt[0] - gx)
            goal, keep = (gx + lead * math.cos(ang), gy + lead * math.sin(ang)), 0.0
            marching = not tkeep
    elif pc is not None and company(pic) and is_mortar(pic, eid) and not closing(pic):
        # G-37: the company's mortar team follows a little behind the commander (it fires from anywhere
        # on the table, 4" or more away; a move spends its turn's fire).
        goal, keep = pc, MORTAR_TRAIL
        marching = False
    elif (escort := tunnels_allied.escort_goal(pic, eid)) is not None:
        # A tunnel sweep: the engineers and the Tunnel Rats keep close behind a rifle squad (TUN-16: the
        # Rats' escort), until an entrance or a search gives them work (game.ai.tunnels_allied).
        goal, keep = escort
        marching = False
    else:
        goal, keep = objective(pic, me)
        marching = False
    want = goal
    d = dist(me, goal)
    if keep and d > keep:
        want = (goal[0] + (me[0] - goal[0]) * keep / d, goal[1] + (me[1] - goal[1]) * keep / d)
    elif keep and d <= keep:
        return None
    if dist(me, want) < 1.0:
        return None
    out_of_command = el.get("in_command") is False
    radioed = eid in radio_elements(pic)
    friends = [pic.centre(e) for e in pic.mine if e != eid and not tunnels_allied.trailing(pic, eid, e)]
    foes = pic.foe_points()
    cands = ring_points(me, reach, pic.w, pic.h, fractions=(1.0, 0.75, 0.5, 0.33))
    # DD-8.9: keep out of the Danger Close ring of our own missions on their way (none without support).
    barrage = support.pending_danger(pic)

    def shelled(p) -> float:
        return sum(3.0 for bx, by, r in barrage if dist(p, (bx, by)) <= r + 0.75)

    scored = []
    for p in cands:
        s = -0.45 * dist(p, want) + 0.6 * pic.cover_at(*p) - (shelled(p) if barrage else 0.0)
        if pc is not None and hq != eid and not closing(pic) and not radioed and \
                dist(p, pc) > COMMAND_REACH + (2.0 if out_of_command else 0.0):
            s -= 3.0 + dist(p, pc)
        s -= sum(1.0 for q in friends if dist(p, q) < SPACING)
        if foes:
            nearest = min(dist(p, q) for q in foes)
            if nearest < 4.0:
                s -= 2.0
        t = f.terrain(*p)
        if t["water"] and t["id"] != "paddy":
            s -= 1.0  # a stream or a river; a paddy is crossed, by the bunds where they lead (below)
        if t["trail"]:
            s += 0.4  # a bund or a trail: full speed (G-01), the way a platoon crosses paddies
        scored.append((s, p))
    scored.sort(key=lambda x: (-x[0], x[1]))
    here = -0.45 * dist(me, want) + 0.6 * pic.cover_at(*me) - (shelled(me) if barrage else 0.0)
    for s, p in scored[:24]:
        if s <= here + 0.2:
            break
        action = move_action(move, p, bearing(p, goal))
        if f.check(action) is None:
            base = 0.8 if hq != eid else (0.95 if marching else 0.5)
            if closing(pic) and not inside_objective(pic, me):
                base = 1.45
            return (base + min(0.3, (s - here) / 10), action)
    return None
