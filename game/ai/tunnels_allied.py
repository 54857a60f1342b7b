"""The Allied autopilot in the war underneath (DD chapter 9B; the Tunnel Warfare module TUN-8–TUN-22; G-35,
G-39, G-43): what it does with tunnels, traps and the village. It reads the network through
``game.ai.tunnels`` (which also holds the Jungle Ghost's side), picks among the engine's offers only and asks
the engine before it acts; nothing here answers anything in a game without tunnel, village or trap offers.

* *Search* (:func:`search_ground`): the Tunnel Rats and the engineers (G-35 +1) search the ground where they
  stand for entrances and traps (DD-9B.3) when nothing is close and nothing is worth shooting, at most once a
  turn each (the view's ``activations``), inside or near an objective.
* *At a found entrance* (:func:`entrance_options`): engineers and Tunnel Rats set charges (TUN-22, 2+, the
  whole activation); another element blows it with a demolition charge (DD-9B.7, 3+, 1 CP) or a satchel, or
  gasses it (DD-9B.6, G-35: nothing comes up there until the end of the next turn) when it cannot blow it;
  a collapse is +1 VP (G-30). An element walks a stand to within 2" of a found entrance first.
* *Tunnel Rats* (TUN-15, TUN-16, C-35): with the module they go down a found open entrance while escorted
  (the engine refuses otherwise), crawl toward the sections nobody has explored, fight only at the engine's
  even odds or better, carry a casualty out first (TUN-21) and come up again; without the module, the G-35
  Tunnel Rat roll.
* *The village* (:func:`village_options`): a found cache is secured (a stand in contact, no enemy within 4":
  +2 Drift, +1 VP, G-35), the medic treats a civilian (Medcap, DD-9B.12) when no enemy stand is within 8",
  and no hootch is ever burned (DD-9B.10: without contraband it costs Drift, and a found cache is secured
  rather than burned).

What it leaves out: the Tunnel Rats called in by helicopter (TUN-15's second way: the scenario fields them);
a human-like memory of where the ground was searched (it keeps no state between decisions: it searches where
it stands, once a turn).
"""

from __future__ import annotations

import math

from game.ai.tactics import Picture, dist, move_action, strip
from game.ai.tunnels import (
    CRAWL_TYPES,
    FIGHT_TYPES,
    SURFACE_TYPES,
    choices,
    filled,
    first_offer,
    hops,
    is_surface,
    last_turn,
    sections,
    stand_to,
    underground_elements,
    usable,
)

SPECIALISTS = ("sapper", "tunnel_rat")
"""Roles that blow entrances as engineers (TUN-22, TUN-17, C-28) and search with +1 (G-35)."""
SEARCH_CLEAR = 6.0
"""No ground search with a known enemy stand this close."""


def roles(pic: Picture, eid: str) -> set[str]:
    return {pic.f.stand_type(s["type"])["role"] for s in pic.own_stands(eid)}


def specialist(pic: Picture, eid: str) -> bool:
    return bool(roles(pic, eid) & set(SPECIALISTS))


ESCORT_KEEP = 2.5
"""A specialist element keeps this far (centre to centre) behind the rifle squad it follows."""


def _squads(pic: Picture) -> list[str]:
    from game.ai.autopilot import hq_id

    hq = hq_id(pic)
    return [e for e in sorted(pic.mine) if e != hq and not specialist(pic, e)
            and "rifle" in roles(pic, e)]


def escort_goal(pic: Picture, eid: str) -> tuple[tuple[float, float], float] | None:
    """In a tunnel sweep, where a specialist element marches: close behind the nearest rifle squad. None
    for any other element, and in a game without tunnels."""
    if not sections(pic) or not specialist(pic, eid):
        return None
    me = pic.centre(eid)
    squads = _squads(pic)
    if not squads:
        return None
    sq = min(squads, key=lambda e: (dist(me, pic.centre(e)), e))
    return pic.centre(sq), ESCORT_KEEP


def trailing(pic: Picture, eid: str, other: str) -> bool:
    """In a tunnel sweep a rifle squad or the HQ does not keep its spacing from the specialists that
    trail it (they keep theirs): else the platoon jams round the commander."""
    return bool(sections(pic)) and not specialist(pic, eid) and specialist(pic, other)


def found_entrances(pic: Picture) -> list[dict]:
    """Open surface sections the Allied side knows (collapsed ones are done; a gassed one waits)."""
    return [s for _, s in sorted(sections(pic).items()) if is_surface(s) and s.get("state") != "collapsed"]


def rats_below(pic: Picture) -> list[str]:
    """The sections our own stands are in (the Tunnel Rats, a Free World stand: TUN-13)."""
    return [e["underground"] for e in underground_elements(pic)]


def entrance_options(pic: Picture, eid: str, best_fire: float, foe_d: float) -> list[tuple[float, dict]]:
    """Work a found entrance within reach (TUN-22, DD-9B.6, DD-9B.7), or walk up to one."""
    out: list[tuple[float, dict]] = []
    hatches = found_entrances(pic)
    if not hatches or best_fire >= 1.5:
        return out
    below_now = set(rats_below(pic))
    net = sections(pic)

    def protects(sid: str) -> bool:
        """Our own men are down there: no charge, no gas at this entrance (TUN-21: they come out first)."""
        return any(sid == b or sid in net.get(b, {}).get("links", []) for b in below_now)

    for kind, score in (("set_charges", 1.9), ("destroy_tunnel", 1.6), ("tunnel_satchel", 1.55),
                        ("gas_tunnel", 1.7)):
        offer = pic.offer(eid, kind)
        if offer is None:
            continue
        ids = [s for s in choices(offer, "section") if not protects(s)]
        if not ids:
            continue
        if kind == "gas_tunnel" and not _gas_now(pic, eid):
            continue  # blow it rather than gas it: a collapse is for good (+1 VP); gas holds a turn
        if kind != "set_charges" and not specialist(pic, eid) and _specialist_coming(pic, eid, ids):
            continue
        action = strip(offer)
        action["section"] = sorted(ids)[0]
        out.append((score, action))
    if out or foe_d < 4.0:
        return out
    move = pic.offer(eid, "move", mode="patrol")
    if move is None or pic.mine[eid].get("pinned"):
        return out
    me = pic.centre(eid)
    targets = sorted((dist(me, (s["x"], s["y"])), s["id"], s) for s in hatches
                     if usable(s) and not protects(s["id"]))
    for d, _, s in targets[:2]:
        if d > 12.0:
            break
        if not specialist(pic, eid) and _specialist_coming(pic, eid, [s["id"]]):
            continue
        act = stand_to(pic, eid, move, (s["x"], s["y"]), 1.2)
        if act is not None:
            out.append((1.2 if specialist(pic, eid) else 1.0, act))
            break
    return out


def _gas_now(pic: Picture, eid: str) -> bool:
    """CS gas (DD-9B.6, G-35) is sure and holds to the end of the next turn; a demolition (DD-9B.7, 3+) is
    for good and +1 VP, so a rifle element blows an entrance, except in the last turn: then gas certainly
    shuts it till the whistle (nobody comes up there to contest the objective); an engineer or Tunnel Rat
    always sets charges (2+)."""
    return last_turn(pic) and not specialist(pic, eid)


def _specialist_coming(pic: Picture, eid: str, ids: list[str]) -> bool:
    """An engineer or Tunnel Rat element that has not acted this turn is within 8" of one of these
    entrances: let it set the charges (2+ against 3+)."""
    net = sections(pic)
    for other in sorted(pic.mine):
        if other == eid or not specialist(pic, other) or pic.mine[other].get("activations", 0):
            continue
        c = pic.centre(other)
        if any(s in net and dist(c, (net[s]["x"], net[s]["y"])) <= 8.0 for s in ids):
            return True
    return False


SUSPECT = ("hootch", "bunker", "light", "secondary", "dense", "bamboo", "trail", "bund")
"""Where a spider hole or a tripwire may hide (DD-9B.1, DD-9B.3): the ground by cover, trails and bunds."""


def suspect(pic: Picture, p) -> bool:
    """Is the ground round ``p`` worth a search: by a hootch, scrub or a woodline, or on a trail or bund?"""
    f = pic.f
    for r in (0.0, 2.0, 3.5):
        for k in range(1 if r == 0.0 else 8):
            ang = 2 * math.pi * k / 8
            q = (p[0] + r * math.cos(ang), p[1] + r * math.sin(ang))
            if not (0 <= q[0] <= pic.w and 0 <= q[1] <= pic.h):
                continue
            t = f.terrain(*q)
            if t["id"] in SUSPECT or t.get("trail"):
                return True
    return False


def search_ground(pic: Picture, eid: str, best_fire: float, foe_d: float) -> tuple[float, dict] | None:
    """DD-9B.3: search the ground within 2" of the element's stands, at most once a turn (its first
    activation), with no enemy stand close and nothing worth shooting, where the ground is suspect or
    inside an objective: the engineers and the Tunnel Rats (G-35 +1) before moving on; any other element
    only when it has nothing better to do (the platoon halted under the commander's radius)."""
    offer = pic.offer(eid, "search")
    if offer is None or best_fire >= 0.5 or foe_d < SEARCH_CLEAR:
        return None
    if "ground" not in choices(offer, "feature") or pic.mine[eid].get("activations", 0):
        return None
    me = pic.centre(eid)
    from game.ai.autopilot import inside, our_objectives

    if not (any(inside(o["polygon"], me) for o in our_objectives(pic)) or suspect(pic, me)):
        return None
    action = strip(offer)
    action["feature"] = "ground"
    return (0.85 if specialist(pic, eid) else 0.5, action)


def village_options(pic: Picture, eid: str, foe_d: float) -> list[tuple[float, dict]]:
    """Medcap (DD-9B.12) and securing a found cache (G-35: a stand in contact, no enemy within 4")."""
    out: list[tuple[float, dict]] = []
    med = pic.offer(eid, "medcap")
    if med is not None and foe_d > 8.0:
        action = filled(med)
        if action is not None:
            out.append((1.0, action))
    move = pic.offer(eid, "move", mode="patrol")
    if move is None or pic.mine[eid].get("pinned") or foe_d < 6.0:
        return out
    me = pic.centre(eid)
    caches = [m for m in pic.f.view.get("markers", []) if m.get("kind") == "cache" and m.get("state") == "found"]
    for c in sorted(caches, key=lambda c: (dist(me, (c["x"], c["y"])), c["id"])):
        if dist(me, (c["x"], c["y"])) > 12.0:
            break
        act = stand_to(pic, eid, move, (c["x"], c["y"]), 0.9)
        if act is not None:
            out.append((1.25, act))
            break
    if "medic" in roles(pic, eid) and foe_d > 10.0 and not any(
            m.get("kind") == "casualty_token" and m.get("side") == pic.side and m.get("state") == "wounded"
            for m in pic.f.view.get("markers", [])):
        civs = [m for m in pic.f.view.get("markers", []) if m.get("kind") == "civilian"
                and m.get("state", "alive") != "dead" and not m.get("treated")]
        for c in sorted(civs, key=lambda c: (dist(me, (c["x"], c["y"])), c["id"]))[:1]:
            if dist(me, (c["x"], c["y"])) > 8.0:
                break
            medic = [s for s in pic.own_stands(eid) if pic.f.stand_type(s["type"])["role"] == "medic"]
            if not medic:
                break
            act = _medic_to(pic, eid, move, medic[0], (c["x"], c["y"]))
            if act is not None:
                out.append((0.9, act))
    return out


def _medic_to(pic: Picture, eid: str, move: dict, medic: dict, point) -> dict | None:
    d = dist((medic["x"], medic["y"]), point)
    if d <= 0.9:
        return None
    me = pic.centre(eid)
    for off in (0.8, 0.5):
        k = (d - off) / d
        dx, dy = (point[0] - medic["x"]) * k, (point[1] - medic["y"]) * k
        if math.hypot(dx, dy) > move["params"]["to"]["max"] - 0.1:
            continue
        action = move_action(move, (me[0] + dx, me[1] + dy))
        if pic.f.check(action) is None:
            return action
    return None


def allied_options(pic: Picture, eid: str, best_fire: float, foe_d: float) -> list[tuple[float, dict]]:
    """Everything this module proposes for one Allied element on the table (nothing in a game without
    tunnels, traps or a village)."""
    out = entrance_options(pic, eid, best_fire, foe_d)
    act = search_ground(pic, eid, best_fire, foe_d)
    if act is not None:
        out.append(act)
    out += rat_options(pic, eid, foe_d)
    out += village_options(pic, eid, foe_d)
    return out


DESCEND_TYPES = ("descend",)
RAT_TURNS_LEFT = 2
"""The Tunnel Rats go down only with at least this many turns left (to explore and come up again)."""


def unexplored(sec: dict) -> bool:
    """A known section the Allied side knows no onward link from (its view lists links to known sections
    only, TUN-24): nobody has been down there yet."""
    return len(sec.get("links", [])) <= (0 if is_surface(sec) else 1)


def rat_options(pic: Picture, eid: str, foe_d: float) -> list[tuple[float, dict]]:
    """The Tunnel Rats go down a found open entrance nobody has explored (TUN-15, TUN-16: the engine checks
    the escort; C-35), one stand at a time, with turns enough left to come up again; without the module,
    the G-35 Tunnel Rat roll at a found entrance."""
    out: list[tuple[float, dict]] = []
    if "tunnel_rat" not in roles(pic, eid):
        return out
    net = sections(pic)
    roll = pic.offer(eid, "tunnel_rat")
    if roll is not None:
        ids = choices(roll, "section")
        if ids:
            action = strip(roll)
            action["section"] = sorted(ids)[0]
            out.append((1.3, action))
    down = first_offer(pic, DESCEND_TYPES, eid)
    v = pic.f.view
    if down is None or rats_below(pic) or v.get("turns", 99) - v.get("turn", 0) < RAT_TURNS_LEFT - 1:
        return out
    ids = [sid for sid in choices(down, "section") if sid in net and unexplored(net[sid])]
    stands = [s for s in choices(down, "stand")
              if pic.stands.get(s) and pic.f.stand_type(pic.stands[s]["type"])["role"] == "tunnel_rat"]
    if ids and stands:
        action = strip(down)
        action["section"], action["stand"] = sorted(ids)[0], sorted(stands)[0]
        out.append((2.0, action))
    return out


def below_options(pic: Picture) -> list[tuple[float, str, dict]]:
    """Our stands in the network (the Tunnel Rats, TUN-15): carry a casualty out first (TUN-21), fight what
    they meet (TUN-19: Veteran and Tunnel Rats +2 against the garrison's +2 defending), blow the command
    post when it is next to them (TUN-22: an entrance or the first section beside one), crawl toward the
    sections nobody has explored (TUN-8, TUN-12: each crawl shows the sections beside it, entrances
    included), and come up when there is nothing left to explore or the game is ending."""
    out: list[tuple[float, str, dict]] = []
    net = sections(pic)
    v = pic.f.view
    ending = v.get("turns", 99) - v.get("turn", 0) < 1
    for el in underground_elements(pic):
        eid, here = el["id"], el["underground"]
        if el.get("activations", 0):
            continue
        options = [a for a in pic.f.actions if a.get("element") == eid]
        carrying = False
        for a in options:
            if a["type"] == "tunnel_carry":
                action = filled(a)
                if action is not None:
                    out.append((2.2, eid, action))
        if any(m.get("kind") == "tunnel_casualty" and m.get("carried_by") in (el.get("reserve_stands") or [])
               for m in v.get("markers", [])):
            carrying = True
        fight = first_offer(pic, FIGHT_TYPES, eid)
        if fight is not None and not carrying:
            action = filled(fight)
            if action is not None:
                out.append((1.8, eid, action))
        charge = first_offer(pic, ("tunnel_charge",), eid)
        if charge is not None and not carrying:
            cps = [sid for sid in choices(charge, "section") if sid != here and sid in net
                   and net[sid].get("use") == "command_post"]
            if cps:
                action = strip(charge)
                action["section"] = sorted(cps)[0]
                out.append((1.9, eid, action))
        route = hops(net, here)
        frontier = sorted((n, sid, step) for sid, (n, step) in route.items()
                          if n > 0 and not is_surface(net[sid]) and unexplored(net[sid]))
        up = first_offer(pic, SURFACE_TYPES, eid)
        crawl = first_offer(pic, CRAWL_TYPES, eid)
        if frontier and not carrying and not ending and crawl is not None:
            action = filled(crawl, section=frontier[0][2])
            if action is not None:
                out.append((1.1, eid, action))
        elif up is not None:
            action = filled(up)
            if action is not None:
                out.append((1.2, eid, action))
        elif crawl is not None:
            exits = sorted((n, sid, step) for sid, (n, step) in route.items()
                           if n > 0 and is_surface(net[sid]) and usable(net[sid]))
            if exits:
                action = filled(crawl, section=exits[0][2])
                if action is not None:
                    out.append((1.15, eid, action))
    return out
