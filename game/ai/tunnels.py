"""The computer players in the war underneath (DD chapter 9B; the Tunnel Warfare module TUN-8–TUN-22; G-35,
G-39, G-43): what the Jungle Ghost does with tunnels, traps and the village, and the network as a side's
view shows it (shared with the Allied autopilot).

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

The Allied autopilot's side of it is ``game.ai.tunnels_allied``.

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


def choices(offer: dict, name: str) -> list:
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
        ids = [s for s in choices(enter, "section") if s in net and usable(net[s])]
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
        act = stand_to(pic, eid, move, (net[sid]["x"], net[sid]["y"]), 0.5)
        if act is not None:
            return act
    return None


def stand_to(pic: Picture, eid: str, move: dict, point, within: float) -> dict | None:
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


def first_offer(pic: Picture, types, eid: str) -> dict | None:
    for t in types:
        got = offers_of(pic, t, eid)
        if got:
            return got[0]
    return None


def _below_one(pic: Picture, el: dict, net: dict[str, dict]) -> dict | None:
    eid, here = el["id"], el["underground"]
    fight = first_offer(pic, FIGHT_TYPES, eid)
    if fight is not None:
        action = filled(fight)
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
        ids = [s for s in choices(emerge[0], "section") if s in net]
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
        up = first_offer(pic, SURFACE_TYPES, eid)
        if up is not None:
            action = filled(up, section=here)
            if action is not None and pic.f.check(action) is None:
                return action
        return None
    crawl = first_offer(pic, CRAWL_TYPES, eid)
    if crawl is not None:
        action = filled(crawl, to=step, section=step)
        if action is not None and pic.f.check(action) is None:
            return action
    return None


def filled(offer: dict, **want) -> dict | None:
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
