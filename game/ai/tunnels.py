"""The computer players in the war underneath (DD chapter 9B; the Tunnel Warfare module TUN-8–TUN-22; G-35,
G-39, G-43): what the Jungle Ghost and the Allied autopilot do with tunnels, traps and the village.

Both sides pick among the engine's offers only (``SideView.actions``) and ask the engine (``check``,
``preview``) before they act; every rule is the engine's (``game.rules.tunnels``, ``tunnel_actions``,
``underground``, ``village``). Nothing here answers anything in a game without tunnel, village or trap offers,
so the other scenarios play exactly as before.

**The Jungle Ghost** (DD-10.2 "vanishing into tunnels before heavy firepower can be brought to bear"):

* *Dive* (:func:`dive`, in the ladder after Recover): a hurt element (a stand lost or hit), or one out-gunned
  by the Allied stands within 12", goes down an open entrance it is in base contact with (``enter_tunnel``,
  DD-9B.4), or makes a Patrol Move onto one within a move (it goes down next activation).
* *Below* (:func:`below`): an element in the network picks where to come up: the open surface section that
  lies behind or beside the Allied line (behind the mean Allied stand along the way the sweep is heading,
  and 5"–12" from the nearest Allied stand: close enough to shoot, too far to be swamped), the garrison
  waiting in its dug-outs until the sweep comes within 14" of an entrance. With the TUN module it crawls
  one section a turn toward it (``crawl``) and comes up there (``surface``), and fights an intruder in its
  own section (the engine's fight offer) before anything else; without it, it emerges at the linked
  entrance (``emerge_tunnel``, G-35).

**The Allied autopilot**:

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
Hot Sectors (the Jungle Ghost holds no Ambush Tokens, G-29); a human-like memory of where the ground was
searched (the AI keeps no state between decisions: it searches where it stands, once a turn).
"""

from __future__ import annotations

import math
from collections import deque

from game.ai.tactics import Picture, dist, move_action, strip

SECTION = "tunnel_section"
"""The marker kind of a tunnel section (game.rules.tunnels.markers)."""
SURFACE_KINDS = ("entrance", "spider_hole", "bunker", "trench")
"""Sections that open on the table (tunnels.toml ``surface``)."""
NOTICE = 12.0
"""Allied stands this close count when the Ghost weighs whether to dive (the open-ground sight, DD-4.1)."""
EMERGE_NEAR = 5.0
EMERGE_FAR = 12.0
"""The Ghost comes up this far (centre to centre) from the nearest Allied stand: inside its own rifles'
range, outside the 4" at which it could not fade again (DD-10.14, C-10)."""
WAKE = 14.0
"""The garrison leaves its dug-outs once an Allied stand is this close to an open surface section."""
HATCH_REACH = 2.0
"""An Allied stand this close (base edge to hatch, DD-9B.3, DD-9B.6) can work an entrance; the AI walks
to 1.2" of it, centre to hatch, to be sure."""


# -- the network as a side's view shows it -----------------------------------------------------------
def sections(pic: Picture) -> dict[str, dict]:
    """The tunnel sections this side knows (its view's ``tunnel_section`` markers), by id."""
    return {m["id"]: m for m in pic.f.view.get("markers", []) if m.get("kind") == SECTION}


def is_surface(sec: dict) -> bool:
    if "surface" in sec:
        return bool(sec["surface"])
    return sec.get("section_kind", sec.get("kind")) in SURFACE_KINDS


def usable(sec: dict) -> bool:
    return sec.get("state", "open") == "open"


def hops(net: dict[str, dict], start: str, through_closed: bool = False) -> dict[str, tuple[int, str]]:
    """Breadth-first distances from ``start`` along the known links: section -> (hops, first step)."""
    out: dict[str, tuple[int, str]] = {start: (0, start)}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for nxt in sorted(net.get(here, {}).get("links", [])):
            if nxt in out or nxt not in net:
                continue
            if not through_closed and net[nxt].get("state") == "collapsed":
                continue
            out[nxt] = (out[here][0] + 1, nxt if here == start else out[here][1])
            todo.append(nxt)
    return out


def underground_elements(pic: Picture) -> list[dict]:
    """Own elements in the network (their view carries ``underground``: the section), by id."""
    return sorted((e for e in pic.f.view["elements"] if e["side"] == pic.side and e.get("underground")
                   and (e.get("reserve_stands") or e.get("stands"))), key=lambda e: e["id"])


def offers_of(pic: Picture, kind: str, eid: str | None = None) -> list[dict]:
    return [a for a in pic.f.actions if a["type"] == kind and (eid is None or a.get("element") == eid)]


def _choices(offer: dict, name: str) -> list:
    return list(((offer.get("params") or {}).get(name) or {}).get("choices") or [])


def allied_points(pic: Picture) -> list[tuple[float, float]]:
    """The Allied stands the Ghost can see (its enemy)."""
    return pic.foe_points()


def advance_axis(pic: Picture) -> tuple[float, float] | None:
    """The way the Allied sweep is heading, as the Ghost reckons it: from the mean Allied stand toward the
    table's far side from the edge they are nearest (their entry edge)."""
    pts = allied_points(pic)
    if not pts:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    edges = {(0.0, 1.0): my, (0.0, -1.0): pic.h - my, (1.0, 0.0): mx, (-1.0, 0.0): pic.w - mx}
    return min(edges, key=lambda k: (edges[k], k))


# -- the Jungle Ghost ------------------------------------------------------------------------------------
def _hurt(pic: Picture, eid: str) -> bool:
    el = pic.mine[eid]
    stands = pic.own_stands(eid)
    return any(s.get("hits") for s in stands) or len(stands) < len(el.get("stands_all", el["stands"]))


def _outgunned(pic: Picture, eid: str) -> bool:
    me = pic.centre(eid)
    near = {s["element"] for s in pic.foes if dist(me, (s["x"], s["y"])) <= NOTICE}
    return bool(near) and sum(pic.fp(e) for e in sorted(near) if e in pic.elements) >= 2 * max(1, pic.fp(eid))


def dive(pic: Picture, eid: str) -> dict | None:
    """DD-10.2, DD-9B.4: a hurt or out-gunned element on the table goes down an open entrance it touches,
    or makes for one within a Patrol Move (it goes down next activation)."""
    net = sections(pic)
    if not net or pic.mine[eid].get("pinned"):
        return None
    if not (_hurt(pic, eid) or _outgunned(pic, eid)):
        return None
    enter = pic.offer(eid, "enter_tunnel")
    if enter is not None:
        ids = [s for s in _choices(enter, "section") if s in net and usable(net[s])]
        if ids:
            action = strip(enter)
            action["section"] = sorted(ids)[0]
            return action
    move = pic.offer(eid, "move", mode="patrol")
    if move is None:
        return None
    me = pic.centre(eid)
    reach = move["params"]["to"]["max"]
    hatches = sorted((dist(me, (s["x"], s["y"])), sid) for sid, s in net.items() if is_surface(s) and usable(s))
    for d, sid in hatches:
        if d > reach + 1.0:
            break
        act = _stand_to(pic, eid, move, (net[sid]["x"], net[sid]["y"]), 0.5)
        if act is not None:
            return act
    return None


def _stand_to(pic: Picture, eid: str, move: dict, point, within: float) -> dict | None:
    """A move that puts the element's stand nearest ``point`` within ``within`` of it (centre to point)."""
    me = pic.centre(eid)
    own = pic.own_stands(eid)
    if not own:
        return None
    st = min(own, key=lambda s: (dist((s["x"], s["y"]), point), s["id"]))
    d = dist((st["x"], st["y"]), point)
    if d <= within:
        return None
    reach = move["params"]["to"]["max"] - 0.1
    for off in (within, within * 0.5, 0.0):
        k = (d - off) / d
        dx, dy = (point[0] - st["x"]) * k, (point[1] - st["y"]) * k
        if math.hypot(dx, dy) > reach:
            continue
        action = move_action(move, (me[0] + dx, me[1] + dy))
        if pic.f.check(action) is None:
            return action
    return None


GOOD = 1.0
"""A surface section scoring this (behind or beside the line, within reach of it) is worth coming up at."""


def emerge_score(pic: Picture, sec: dict) -> float | None:
    """How good a surface section is to come up at (higher is better; ``GOOD`` or more: come up now), or
    None when it is no use: closed, or too near an Allied stand (it would be swamped, and could not fade
    again, DD-10.14)."""
    pts = allied_points(pic)
    if not pts or not is_surface(sec) or not usable(sec):
        return None
    p = (sec["x"], sec["y"])
    near = min(dist(p, q) for q in pts)
    if near < EMERGE_NEAR - 1.0:
        return None
    score = -abs(min(max(near, EMERGE_NEAR), EMERGE_FAR) - near) * 0.25
    axis = advance_axis(pic)
    if axis is not None:
        mx = sum(q[0] for q in pts) / len(pts)
        my = sum(q[1] for q in pts) / len(pts)
        along = (p[0] - mx) * axis[0] + (p[1] - my) * axis[1]
        score += 2.0 if along < 0 else 1.0 if along < 3.0 else -1.0  # behind, beside, ahead of the line
    score += 0.25 * pic.cover_at(*p)
    return score


def last_turn(pic: Picture) -> bool:
    v = pic.f.view
    return v.get("turn", 0) >= v.get("turns", 99)


def awake(pic: Picture) -> bool:
    """The sweep is near the network: an Allied stand within ``WAKE`` of an open surface section."""
    pts = allied_points(pic)
    return any(min((dist((s["x"], s["y"]), q) for q in pts), default=99.0) <= WAKE
               for s in sections(pic).values() if is_surface(s) and usable(s))


def below(pic: Picture) -> dict | None:
    """The Ghost's action for an element in the network, or None (nothing to do below this impulse)."""
    net = sections(pic)
    if not net:
        return None
    for el in underground_elements(pic):
        if el.get("activations", 0):
            continue
        act = _below_one(pic, el, net)
        if act is not None:
            return act
    return None


FIGHT_TYPES = ("tunnel_fight",)
CRAWL_TYPES = ("crawl",)
SURFACE_TYPES = ("surface",)


def _first(pic: Picture, types, eid: str) -> dict | None:
    for t in types:
        got = offers_of(pic, t, eid)
        if got:
            return got[0]
    return None


def _below_one(pic: Picture, el: dict, net: dict[str, dict]) -> dict | None:
    eid, here = el["id"], el["underground"]
    fight = _first(pic, FIGHT_TYPES, eid)
    if fight is not None:
        action = _filled(fight)
        if action is not None and pic.f.check(action) is None:
            return action
    if not awake(pic):
        return None
    best = None
    route = hops(net, here)
    for sid, (n, step) in route.items():
        sc = emerge_score(pic, net[sid])
        if sc is None:
            continue
        sc -= 0.6 * n  # a section a turn (TUN-8, TUN-9): a long crawl arrives late
        if best is None or sc > best[0] or (sc == best[0] and sid < best[1]):
            best = (sc, sid, step, n)
    emerge = offers_of(pic, "emerge_tunnel", eid)
    if emerge:  # without the module (G-35): come up at the best linked entrance straight away
        ids = [s for s in _choices(emerge[0], "section") if s in net]
        scored = sorted(((emerge_score(pic, net[s]) or -99.0, s) for s in ids), key=lambda t: (-t[0], t[1]))
        if scored and (scored[0][0] >= GOOD or (last_turn(pic) and scored[0][0] > -99.0)):
            action = strip(emerge[0])
            action["section"] = scored[0][1]
            action.pop("ambush", None)  # G-29: the Jungle Ghost holds no Ambush Tokens
            return action
        return None
    if best is None:
        return None
    _, target, step, n = best
    if n == 0:
        if best[0] < GOOD and not last_turn(pic):
            return None  # wait below until the sweep has passed the hatch (or the game runs out)
        up = _first(pic, SURFACE_TYPES, eid)
        if up is not None:
            action = _filled(up, section=here)
            if action is not None and pic.f.check(action) is None:
                return action
        return None
    crawl = _first(pic, CRAWL_TYPES, eid)
    if crawl is not None:
        action = _filled(crawl, to=step, section=step)
        if action is not None and pic.f.check(action) is None:
            return action
    return None


def _filled(offer: dict, **want) -> dict | None:
    """An offer with its choice parameters filled: ``want`` where it is among the choices, else the first
    choice; None when a required choice has none."""
    action = strip(offer)
    for name, spec in (offer.get("params") or {}).items():
        choices = spec.get("choices")
        if choices is None:
            continue
        if name in want and want[name] in choices:
            action[name] = want[name]
        elif name in want:
            return None
        elif choices:
            action[name] = sorted(choices)[0]
        elif not spec.get("optional"):
            return None
    return action


# -- the Allied autopilot ----------------------------------------------------------------------------------
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
        ids = [s for s in _choices(offer, "section") if not protects(s)]
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
        act = _stand_to(pic, eid, move, (s["x"], s["y"]), 1.2)
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
    if "ground" not in _choices(offer, "feature") or pic.mine[eid].get("activations", 0):
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
        action = _filled(med)
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
        act = _stand_to(pic, eid, move, (c["x"], c["y"]), 0.9)
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
        ids = _choices(roll, "section")
        if ids:
            action = strip(roll)
            action["section"] = sorted(ids)[0]
            out.append((1.3, action))
    down = _first(pic, DESCEND_TYPES, eid)
    v = pic.f.view
    if down is None or rats_below(pic) or v.get("turns", 99) - v.get("turn", 0) < RAT_TURNS_LEFT - 1:
        return out
    ids = [sid for sid in _choices(down, "section") if sid in net and unexplored(net[sid])]
    stands = [s for s in _choices(down, "stand")
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
                action = _filled(a)
                if action is not None:
                    out.append((2.2, eid, action))
        if any(m.get("kind") == "tunnel_casualty" and m.get("carried_by") in (el.get("reserve_stands") or [])
               for m in v.get("markers", [])):
            carrying = True
        fight = _first(pic, FIGHT_TYPES, eid)
        if fight is not None and not carrying:
            action = _filled(fight)
            if action is not None:
                out.append((1.8, eid, action))
        charge = _first(pic, ("tunnel_charge",), eid)
        if charge is not None and not carrying:
            cps = [sid for sid in _choices(charge, "section") if sid != here and sid in net
                   and net[sid].get("use") == "command_post"]
            if cps:
                action = strip(charge)
                action["section"] = sorted(cps)[0]
                out.append((1.9, eid, action))
        route = hops(net, here)
        frontier = sorted((n, sid, step) for sid, (n, step) in route.items()
                          if n > 0 and not is_surface(net[sid]) and unexplored(net[sid]))
        up = _first(pic, SURFACE_TYPES, eid)
        crawl = _first(pic, CRAWL_TYPES, eid)
        if frontier and not carrying and not ending and crawl is not None:
            action = _filled(crawl, section=frontier[0][2])
            if action is not None:
                out.append((1.1, eid, action))
        elif up is not None:
            action = _filled(up)
            if action is not None:
                out.append((1.2, eid, action))
        elif crawl is not None:
            exits = sorted((n, sid, step) for sid, (n, step) in route.items()
                           if n > 0 and is_surface(net[sid]) and usable(net[sid]))
            if exits:
                action = _filled(crawl, section=exits[0][2])
                if action is not None:
                    out.append((1.15, eid, action))
    return out
