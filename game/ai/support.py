"""Fire support for the computer players (DD chapter 8): where to call a mission, where to drop a mortar
bomb, which air heading to fly. Shared by the Allied autopilot and the Jungle Ghost; all from a SideView.

The rules' numbers are the engine's, never this module's: the danger-close distance, the scatter die and
each asset's template are the published fire-support tables the SideView carries
(``view["fire_support"]``, ``game/data/fire_support.toml``); what a side has on call is in the offers
(``call_fire``, ``mortar_fire``; ``call_air`` and ``gunship_run`` where the engine has them) and the
engine checks every plan (``SideView.check``). The engine's exact odds of a mission
(``SideView.preview``: the template's odds at every landing point of the scatter, DD-8.8) cost about
half a second each, the budget of a whole AI-vs-AI game, so the plan is weighed with a planning estimate
from the same tables instead (below), like the distances in ``tactics``.

* **Targets** are what the side has seen: enemy stands on the table (Confirmed) and Echoes (a sensed
  marker: worth less, its stands cannot be hit under the Blind, only pinned, G-34). A cluster under one
  template, and targets in the open, score more (a planning estimate: each target counts
  ``1 / (1 + cover)``, the cover scale of ``tactics.COVER_VALUE``).
* **Danger Close** (DD-8.9): no own stand may be within the danger-close distance of the template's edge
  where it is aimed, nor under it (``friends_clear``). The autopilot also keeps its stands out of that
  ring around its own pending Target markers while the clock runs (``pending_danger``).
* **The clock** (DD-8.7): a mission that would land after the last turn is not called; a delayed one is
  worth less against targets that can move (Pinned ones stay put).
* **Air** (DD-8.5): only where the engine offers it; a heading is used only if no own stand would be
  Danger Close whichever way the Pass Deviation Roll shifts or yaws the footprint (G-22), and only if the
  engine's check accepts it (it refuses any heading toward friendly troops).

Nothing here draws a die; the choices are deterministic for a given view.
"""

from __future__ import annotations

import math
from itertools import product

from game.ai.tactics import COVER_VALUE, Picture, dist, strip

CALL_TYPES = ("call_fire",)
AIR_TYPES = ("call_air", "gunship_run")
ECHO_WEIGHT = 0.35
"""An Echo's worth as a target, against a Confirmed stand's 1 (it may be a Dummy; under a Blind its stands
are only pinned, G-34)."""
DELAY_KEEP = 0.7
"""Per turn of delay, the share of a target's worth that is still there when the rounds land (it moves)."""
PIN_WEIGHT = 0.5
"""Worth of each element under the template beyond its hits (every element under it tests Morale,
DD-8.10)."""
CALLER_ROLES = ("fo", "rto", "commander")
"""Who calls first: the Forward Observer, then the RTO, then an officer (the HQ keeps its commander's
attention on command)."""


# -- the published tables --------------------------------------------------------------------------------
def tables(pic: Picture) -> dict | None:
    return pic.f.view.get("fire_support")


def danger_close(pic: Picture) -> float | None:
    """DD-8.9: the engine's danger-close distance (combat.toml ``[danger_close] reach``, published with the
    fire-support tables)."""
    t = tables(pic)
    return None if t is None else float(t["mission"]["danger_close"])


def asset(pic: Picture, aid: str) -> dict | None:
    t = tables(pic)
    return None if t is None else t["assets"].get(aid)


def footprint(a: dict) -> float:
    """The template's reach from its aim point: a circle's radius, half an air footprint's length."""
    return float(a.get("radius") or 0.0) or float(a.get("length") or 0.0) / 2.0


def enemy_support(pic: Picture) -> list[dict]:
    """The enemy's fire support on call as the scenario prints it (DD-8.3), and its on-board mortar
    teams this side has seen (G-37): the asset rows."""
    out = []
    for row in pic.f.view["scenario"].get("support", []):
        if row["side"] != pic.side:
            a = asset(pic, row["asset"])
            if a is not None:
                out.append(a)
    t = tables(pic)
    if t is not None:
        seen = {s["type"] for s in pic.foes}
        out += [a for a in t["assets"].values() if set(a.get("teams") or ()) & seen]
    return out


def belt(pic: Picture) -> float | None:
    """How close (centre to centre) a stand must stay to the enemy's stands for the enemy's fire support
    to be Danger Close (DD-8.9, DD-10.2, DD-10.14): the danger-close distance plus the largest enemy
    template's reach, plus half a base (the distance is measured to the base's edge); None when the enemy
    has none."""
    dc = danger_close(pic)
    sup = enemy_support(pic)
    if dc is None or not sup:
        return None
    return dc + max(footprint(a) for a in sup) + BELT_BASE


BELT_BASE = 0.5
"""Half the depth of the smallest base (a planning estimate): the belt is measured centre to centre."""


# -- geometry ---------------------------------------------------------------------------------------------
def half_base(s: dict) -> float:
    """Half the larger side of a stand's base: its reach from its centre (a safe over-estimate)."""
    b = s.get("base") or {}
    return max(float(b.get("width", 1.0)), float(b.get("depth", 1.0))) / 2.0


def friends_clear(pic: Picture, x: float, y: float, reach: float) -> bool:
    """DD-8.9: no stand of this side (on the table or under its own Blind) within the danger-close
    distance of a template reaching ``reach`` from (x, y), nor under it."""
    dc = danger_close(pic)
    if dc is None:
        return False
    return all(dist((s["x"], s["y"]), (x, y)) - half_base(s) > reach + dc
               for s in pic.stands.values() if s["side"] == pic.side)


def pending_danger(pic: Picture) -> list[tuple[float, float, float]]:
    """This side's own pending Target markers (DD-8.6) and the ring around each that its stands should
    keep out of while the clock runs: (x, y, radius + danger-close distance)."""
    dc = danger_close(pic)
    if dc is None:
        return []
    out = []
    for m in pic.f.view.get("markers", []):
        if m.get("kind") == "target" and m.get("side") == pic.side:
            a = asset(pic, m.get("asset", ""))
            out.append((m["x"], m["y"], (footprint(a) if a else 2.0) + dc))
    return out


# -- targets and their worth ------------------------------------------------------------------------------
def targets(pic: Picture) -> list[dict]:
    """What this side has seen of the enemy: stands (Confirmed) and Echo markers."""
    out = []
    for s in pic.foes:
        el = pic.elements.get(s["element"], {})
        out.append({"x": s["x"], "y": s["y"], "w": 1.0, "element": s["element"], "half": half_base(s),
                    "pinned": bool(el.get("pinned"))})
    for b in pic.markers:
        if b.get("state") == "echo":
            out.append({"x": b["x"], "y": b["y"], "w": ECHO_WEIGHT, "element": b["id"], "half": 0.75,
                        "pinned": False})
    return out


def _p_within(n: int, reach: float) -> float:
    """The chance that n d6 of drift total ``reach`` inches or less."""
    if n <= 0:
        return 1.0
    hits = sum(1 for faces in product(range(1, 7), repeat=n) if sum(faces) <= reach)
    return hits / 6 ** n


def p_land(pic: Picture, a: dict, slack: float) -> float:
    """The chance the template still covers a stand at the aim point after the scatter (DD-8.8): on
    target, or a drift shorter than the template's reach plus ``slack`` (the stand's half base)."""
    m = tables(pic)["mission"]
    on = int(a.get("on_target") or m["on_target"]) / 6.0
    n = int(a.get("drift_dice") or m["drift_dice"])
    return on + (1.0 - on) * _p_within(n, footprint(a) + slack)


def worth(pic: Picture, tg: list[dict], x: float, y: float, a: dict, delay: int) -> float:
    """The planning worth of a template from asset ``a`` aimed at (x, y): hit dice landing on what is
    under it, weighted by cover, plus each element's Morale test (DD-8.10); discounted by the delay."""
    r = footprint(a)
    fp = float(a.get("fp", 0))
    total, elements = 0.0, set()
    for t in tg:
        if dist((t["x"], t["y"]), (x, y)) > r + t["half"]:
            continue
        keep = 1.0 if t["pinned"] else DELAY_KEEP ** delay
        cover = COVER_VALUE.get(pic.f.terrain(t["x"], t["y"])["cover"], 0.0)
        total += t["w"] * keep * fp / (2.0 * (1.0 + max(0.0, cover)))
        if t["element"] not in elements:
            elements.add(t["element"])
            total += PIN_WEIGHT * t["w"] * keep
    return total * p_land(pic, a, 0.5)


def aim_points(tg: list[dict], r: float) -> list[tuple[float, float]]:
    """Each target, and the middle of each pair one template covers (a cluster)."""
    pts = [(round(t["x"], 2), round(t["y"], 2)) for t in tg]
    for i, a in enumerate(tg):
        for b in tg[i + 1:]:
            if dist((a["x"], a["y"]), (b["x"], b["y"])) <= 2 * r + 0.5:
                pts.append((round((a["x"] + b["x"]) / 2, 2), round((a["y"] + b["y"]) / 2, 2)))
    return sorted(set(pts))


def _caller(pic: Picture, offer: dict, at) -> str | None:
    choices = ((offer.get("params") or {}).get("stand") or {}).get("choices") or []
    if not choices:
        return None

    def key(sid: str):
        s = pic.stands.get(sid, {})
        role = pic.f.stand_type(s["type"])["role"] if s else ""
        rank = CALLER_ROLES.index(role) if role in CALLER_ROLES else len(CALLER_ROLES)
        return (rank, round(dist((s.get("x", 0), s.get("y", 0)), at), 1), sid)

    return min(choices, key=key)


def _best(pic: Picture, offer: dict, a: dict, delay: int, limit: float, origin=None, min_range: float = 0.0):
    """The best aim point for ``offer`` and its worth: (worth, (x, y)) or None."""
    tg = targets(pic)
    if not tg:
        return None
    r = footprint(a)
    busy = pending_danger(pic)
    best = None
    for p in aim_points(tg, r):
        if origin is not None and dist(origin, p) < min_range + 0.3:
            continue
        if any(dist(p, (bx, by)) < 2 * r for bx, by, _ in busy):
            continue  # a mission is already on its way there
        if not friends_clear(pic, p[0], p[1], r):
            continue  # DD-8.9: our own stands would be Danger Close
        w = worth(pic, tg, p[0], p[1], a, delay)
        if w >= limit and (best is None or w > best[0] + 1e-9):
            best = (w, p)
    return best


# -- the options --------------------------------------------------------------------------------------------
CALL_AT = 0.6
"""A call is made when its planning worth reaches this (about one stand in the open, landing on time)."""
LATE_TURNS = 2
LATE_SHARE = 0.5
"""With fewer than LATE_TURNS turns left after the rounds land, a call is made at LATE_SHARE of CALL_AT."""
MORTAR_AT = 0.4
"""An on-board mortar fires at a lower worth: it has no clock and no mission count (G-37)."""


def call_options(pic: Picture, eid: str) -> list[tuple[float, dict]]:
    """``call_fire`` (DD-8.6) from this element: for each asset on call, the best aim point whose
    template keeps every own stand outside the danger-close distance; (worth, action)."""
    view = pic.f.view
    turns_left = view.get("turns", 6) - view.get("turn", 1)
    out = []
    for offer in pic.by_element.get(eid, []):
        if offer["type"] not in CALL_TYPES or offer.get("emergency"):
            continue
        a = asset(pic, offer.get("asset", ""))
        if a is None or a.get("kind") != "battery":
            continue
        delay = int(a.get("delay", 0))
        if delay > turns_left:
            continue  # DD-8.7: it would land after the last turn
        # A mission not fired by the end is wasted (DD-8.3): with little time left, a smaller target will do.
        limit = CALL_AT if turns_left - delay >= LATE_TURNS else CALL_AT * LATE_SHARE
        best = _best(pic, offer, a, delay, limit)
        if best is None:
            continue
        w, p = best
        action = strip(offer)
        action["asset"] = a["id"]
        action["round"] = "he" if "he" in a.get("rounds", ["he"]) else a["rounds"][0]
        action["at"] = [p[0], p[1]]
        who = _caller(pic, offer, p)
        if who is not None:
            action["stand"] = who
        if pic.f.check(action) is not None:
            continue
        out.append((w, action))
    return out


def mortar_options(pic: Picture, eid: str) -> list[tuple[float, dict]]:
    """``mortar_fire`` (G-37): the team's best aim point 4" or more away (the offer's ``min``) with every
    own stand outside the danger-close distance; (worth, action)."""
    offer = next((o for o in pic.by_element.get(eid, []) if o["type"] == "mortar_fire"
                  and not o.get("emergency")), None)
    if offer is None:
        return []
    team_types = {s["type"] for s in pic.own_stands(eid)}
    t = tables(pic)
    a = next((x for x in (t["assets"].values() if t else ()) if set(x.get("teams") or ()) & team_types), None)
    if a is None:
        return []
    at = (offer.get("params") or {}).get("at") or {}
    origin = tuple(at.get("from") or pic.centre(eid))
    best = _best(pic, offer, a, 0, MORTAR_AT, origin=origin, min_range=float(at.get("min", a.get("min_range", 0))))
    if best is None:
        return []
    w, p = best
    action = strip(offer)
    action["round"] = "he"
    action["at"] = [p[0], p[1]]
    if pic.f.check(action) is not None:
        return []
    return [(w, action)]


COMPASS = tuple(float(h) for h in range(0, 360, 45))
"""Headings tried for an air pass (degrees, 0 along +x): the engine's check refuses those toward friendly
troops (DD-8.5, G-22)."""
GUNSHIP_CALL = 0.8
"""Worth of bringing a gunship on station (G-27) while there is something seen to strafe: its runs are
weighed when they are offered."""


def covers(a: dict, x: float, y: float, heading: float, t: dict) -> bool:
    """Does the footprint of ``a`` laid at (x, y) along ``heading`` touch a target (a planning estimate:
    the target's half base added to the shape)?"""
    if (a.get("shape") or "circle") == "circle" or not a.get("length"):
        return dist((t["x"], t["y"]), (x, y)) <= footprint(a) + t["half"]
    h = math.radians(heading)
    dx, dy = t["x"] - x, t["y"] - y
    u = dx * math.cos(h) + dy * math.sin(h)
    v = -dx * math.sin(h) + dy * math.cos(h)
    lu, lv = a["length"] / 2.0 + t["half"], a["width"] / 2.0 + t["half"]
    if a.get("shape") == "strip":
        return abs(u) <= lu and abs(v) <= lv
    return (u / lu) ** 2 + (v / lv) ** 2 <= 1.0


def p_pass(pic: Picture, a: dict) -> float:
    """The chance a centred target stays under the footprint after one Pass Deviation Roll (G-22): on line,
    a short or long shift within half the footprint, or a yaw about the centre (a planning estimate)."""
    air = (tables(pic) or {}).get("air")
    if not air:
        return 0.5
    dev = air["deviation"]
    p = (dev.count("on_line") + dev.count("yaw")) / len(dev)
    for kind, n in (("short", air.get("short_dice", 1)), ("long", air.get("long_dice", 1))):
        p += dev.count(kind) / len(dev) * _p_within(int(n), footprint(a))
    return p


def _gap(a: dict, x: float, y: float, h: float, px: float, py: float) -> float:
    """From a point to the edge of the footprint of ``a`` at (x, y) along ``h`` (an oval measured as its
    bounding strip: never nearer than the oval itself)."""
    if (a.get("shape") or "circle") == "circle" or not a.get("length"):
        return dist((px, py), (x, y)) - footprint(a)
    r = math.radians(h)
    dx, dy = px - x, py - y
    u = dx * math.cos(r) + dy * math.sin(r)
    v = -dx * math.sin(r) + dy * math.cos(r)
    return math.hypot(max(0.0, abs(u) - a["length"] / 2.0), max(0.0, abs(v) - a["width"] / 2.0))


def air_clear(pic: Picture, a: dict, x: float, y: float, h: float) -> bool:
    """DD-8.9 with the Pass Deviation Roll (G-22): no own stand within the danger-close distance of the
    footprint laid on line, shifted short or long by as much as its dice can, or yawed either way."""
    dc = danger_close(pic)
    air = (tables(pic) or {}).get("air") or {}
    if dc is None:
        return False
    shift = 6.0 * max(int(air.get("short_dice", 1)), int(air.get("long_dice", 1)))
    yaw = float(air.get("yaw", 45.0))
    variants = [(s, dh) for s in (-shift, -shift / 2, 0.0, shift / 2, shift) for dh in (-yaw, 0.0, yaw)]
    reach = footprint(a) + shift + dc + 2.0
    own = [s for s in pic.stands.values() if s["side"] == pic.side and dist((s["x"], s["y"]), (x, y)) <= reach]
    for s_, dh in variants:
        r = math.radians(h)
        cx, cy = x + s_ * math.cos(r), y + s_ * math.sin(r)
        for st in own:
            if _gap(a, cx, cy, h + dh, st["x"], st["y"]) - half_base(st) <= dc:
                return False
    return True


def air_worth(pic: Picture, tg: list[dict], x: float, y: float, h: float, a: dict, delay: int) -> float:
    fp = float(a.get("fp", 0))
    total, elements = 0.0, set()
    for t in tg:
        if not covers(a, x, y, h, t):
            continue
        keep = 1.0 if t["pinned"] else DELAY_KEEP ** delay
        cover = 0.0 if a.get("save") else COVER_VALUE.get(pic.f.terrain(t["x"], t["y"])["cover"], 0.0)
        total += t["w"] * keep * fp / (2.0 * (1.0 + max(0.0, cover)))
        if t["element"] not in elements:
            elements.add(t["element"])
            total += PIN_WEIGHT * t["w"] * keep
    return total * p_pass(pic, a)


def _air_plans(pic: Picture, a: dict, delay: int, limit: float) -> list[tuple[float, tuple[float, float], float]]:
    """Aim points and headings worth ``limit`` or more, best first, with every own stand clear of Danger
    Close (DD-8.9)."""
    tg = targets(pic)
    r = footprint(a)
    busy = pending_danger(pic)
    plans = []
    for p in aim_points(tg, max(r, float(a.get("width") or 0.0))):
        if any(dist(p, (bx, by)) < 2 * r for bx, by, _ in busy):
            continue
        if not friends_clear(pic, p[0], p[1], r):
            continue  # DD-8.9 on line, whatever the heading
        for h in COMPASS:
            w = air_worth(pic, tg, p[0], p[1], h, a, delay)
            if w >= limit and air_clear(pic, a, p[0], p[1], h):
                plans.append((w, p, h))
    plans.sort(key=lambda x: (-x[0], x[1], x[2]))
    return plans


def air_options(pic: Picture, eid: str) -> list[tuple[float, dict]]:
    """Air support where the engine offers it (DD-8.5, G-22, G-27): an air strike (``call_air``) on the
    best aim point and heading the engine accepts (never toward friendly troops, DD-8.5) with every own
    stand outside the danger-close distance of the footprint (DD-8.9); a gunship brought on station
    while something is seen; a gunship's strafing run (``gunship_run``) as a strike with no clock;
    (worth, action)."""
    view = pic.f.view
    turns_left = view.get("turns", 6) - view.get("turn", 1)
    out = []
    for offer in pic.by_element.get(eid, []):
        if offer["type"] not in AIR_TYPES or offer.get("emergency"):
            continue
        params = offer.get("params") or {}
        if offer["type"] == "gunship_run":
            gid = (params.get("gunship") or {}).get("default")
            on_station = next((m for m in view.get("markers", []) if m.get("id") == gid), {})
            guns = [x for x in ((tables(pic) or {}).get("assets") or {}).values() if x.get("kind") == "gunship"]
            a = next((x for x in guns if x.get("model") == on_station.get("model")), guns[0] if guns else None)
            delay = 0
        else:
            a = asset(pic, offer.get("asset", ""))
            delay = int(a.get("delay", 0)) if a else 0
            if a is None or delay > turns_left:
                continue
        if a is None:
            continue
        base = strip(offer)
        for name in ("asset", "gunship", "smoke"):
            if name in params and params[name].get("default") is not None:
                base[name] = params[name]["default"]
        if offer["type"] == "call_air" and a.get("kind") == "gunship":
            tg = targets(pic)
            if not tg or turns_left <= delay:
                continue
            t = min(tg, key=lambda t: (-t["w"], t["x"], t["y"]))
            action = dict(base, at=[round(t["x"], 2), round(t["y"], 2)])
            who = _caller(pic, offer, (t["x"], t["y"]))
            if who is not None:
                action["stand"] = who
            if pic.f.check(action) is None:
                out.append((GUNSHIP_CALL, action))
            continue
        # A gunship on station strafes at the mortar's lower worth: its runs are lost when it leaves (G-27).
        limit = MORTAR_AT if offer["type"] == "gunship_run" else CALL_AT
        for w, p, h in _air_plans(pic, a, delay, limit)[:6]:
            action = dict(base, at=[p[0], p[1]], heading=h)
            who = _caller(pic, offer, p)
            if who is not None:
                action["stand"] = who
            if pic.f.check(action) is None:
                out.append((w, action))
                break
    return out
