"""The computer player of Tet '68, for either side (issue 19: "clears houses sensibly"). It picks among the
game's offers and asks the game (``preview``) what a move costs and who would see the figure there, and
what a shot, a cone, a round or a grenade would reach and at what chance; every rule is the game's.

* The Allies clear the nearest building not yet clear: each figure goes as far toward it as its move allows,
  through the doors (a wall's climb costs the whole move, TET-10), keeping out of the enemy's sight where it
  can. The VC/NVA hold their buildings: a figure in one stays (at its window or door), one caught outside
  goes to the nearest building the Allies have not entered.
* In the fire phase both take what is likeliest to hurt the enemy (each chance x exposure / 6, a friend
  reached counting twice against): a single shot; a cone where two enemies or more stand close together; the
  M79 at a cluster; a grenade into a room where its side has seen enemies (its own events and view: where
  each enemy was last seen), only when worth ``GRENADE`` hits more than a shot. A figure charges into
  hand-to-hand (G-41) an enemy within ``ADJACENT`` inches when it is the stronger (its Weapon Skill ``STRONG``
  or more, Initiative 2 or more: the enemy's own statistics are its owner's). Snap fire (C-32) when the
  chance of a hit is worth the spent shot, else pass.

Engine readings of its own: 16 headings and 6 reaches are tried for a move (and staying), scored by the
way left round the walls (a 0.5" grid, doors free, windows 2" dearer, walls shut) plus ``CAUTION`` inches
for each exposure level an enemy it sees would have of it there; a snap shot is taken at 6 % of a hit or
better; aim points are the enemies seen (or remembered, for a grenade) and the midpoints of two within 4".
"""

from __future__ import annotations

import heapq
import math
from functools import lru_cache

from shapely.geometry import Point, Polygon

HEADINGS = 16
REACH = (1.0, 2.0, 3.0, 4.5, 6.0, 8.5)
SNAP = 0.06
CAUTION = 0.6
"""Inches of way a figure gives up to be seen by one exposure level less of one enemy it sees."""
PRESS = 3
"""Turns before the end from which the Allies spare themselves no longer (``CAUTION`` 0): the houses must be
clear by the last turn (G-41), and a lone defender left in the last house is otherwise never rushed."""
FRIENDLY = 2.0
"""A friend hurt in a cone or a burst counts as much as two enemies hurt, against it."""
GRENADE = 0.15
"""The hits a grenade must be worth beyond a shot: there are two of them (G-41)."""
STRONG = 120
"""The Weapon Skill a figure needs to charge: above the 105 a common man rolls on average (TET-6)."""
ADJACENT = 3.0
"""Inches to the enemy within which the computer charges."""


def _expect(t: dict, auto: bool) -> float:
    pct = t.get("auto_chance", 0) if auto else t["chance"]
    return min(pct, 100) / 100 * t["exposure"] / 6 + max(0, pct - 100) / 100


def _best_shot(offers: list[dict], single: bool = False) -> tuple[float, dict] | None:
    best = None
    for o in offers:
        for t in o["targets"]:
            for auto in (False, True) if "auto_chance" in t and not single else (False,):
                e = _expect(t, auto)
                if best is None or e > best[0]:
                    best = (e, {"type": o["type"], "figure": o["figure"], "target": t["id"], "auto": auto})
    return best


def choose(game, side: str) -> dict | None:
    offers = game.legal_actions(side)
    if not offers:
        return None
    if any(o["type"] == "pass" for o in offers):  # the snap decision after an enemy's act (C-32)
        best = _best_shot([o for o in offers if o["type"] == "snap_fire"])
        return best[1] if best and best[0] >= SNAP else {"type": "pass"}
    if any(o["type"] in ("fire", "cone", "launch", "grenade") for o in offers):
        best = _best_fire(game, side, offers)
        if best is not None:
            return best
    charge = _charge(game, side, [o for o in offers if o["type"] == "charge"])
    if charge is not None:
        return charge
    moves = [o for o in offers if o["type"] == "move"]
    if moves:
        return _move(game, side, moves[0])
    return _hold(offers)


def _worth(members: list[dict], side: str, key: str = "chance") -> float:
    """The hits a cone or a burst is worth: each enemy's chance of being hurt, less twice each friend's."""
    total = 0.0
    for m in members:
        p = min(m.get(key, 100), 100) / 100 * m["exposure"] / 6
        total += p if m["side"] != side else -FRIENDLY * p
    return total


def _memory(game, side: str, view: dict) -> dict[str, tuple[float, float]]:
    """Where the side last saw each enemy figure still standing, as far as its own events and view tell."""
    seen: dict[str, tuple[float, float]] = {}
    enemy = {f["id"] for f in view["figures"] if f["side"] != side}
    for e in game.events_for(side, game.events):
        if e["type"] == "move" and e.get("to") and game.state.figures[e["figure"]].man.side != side:
            seen[e["figure"]] = (e["to"][0], e["to"][1])
        elif e["type"] == "wound" and e.get("state") == "dead":
            seen.pop(e["figure"], None)
    seen.update({f["id"]: (f["x"], f["y"]) for f in view["figures"] if f["id"] in enemy})
    return seen


def _best_fire(game, side: str, offers: list[dict]) -> dict | None:
    """The shot likeliest to hurt the enemy: a single shot; a cone where two or more stand close together (as
    good as a shot is enough: it spreads the hits); the M79 at a cluster; a grenade into a room where enemies
    were seen, only well ahead of a shot (there are two)."""
    best = _best_shot([o for o in offers if o["type"] == "fire"], single=True)
    choice = (best[0], best[1]) if best else (0.0, None)
    view = game.view(side)
    floors = {b["id"]: Polygon(b["floor"]) for b in view["scenario"]["buildings"]}
    memory = _memory(game, side, view) if any(o["type"] == "grenade" for o in offers) else {}
    for o in offers:
        if o["type"] not in ("cone", "launch", "grenade"):
            continue
        spots = [(t["x"], t["y"]) for t in o["targets"]]
        if o["type"] == "grenade":
            spots += [p for p in memory.values() if p not in spots]
        spots += [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for i, a in enumerate(spots) for b in spots[i + 1:]
                  if math.dist(a, b) <= 4.0]
        for x, y in spots[:10]:
            action = {"type": o["type"], "figure": o["figure"], "at": [round(x, 2), round(y, 2)]}
            if math.dist((x, y), tuple(o["params"]["at"]["from"])) > o["params"]["at"]["max"]:
                continue
            try:
                plan = game.preview(side, action)
            except Exception:  # noqa: BLE001 - an aim point the rules refuse is no candidate
                continue
            tie = 0.0
            if o["type"] == "cone":
                enemies = sum(m["side"] != side for m in plan["in_cone"])
                worth = _worth(plan["in_cone"], side) if enemies >= 2 else 0.0
                tie = 1e-6
            else:
                reached = plan["in_blast"]
                if plan.get("room"):  # those seen in the room before count as in it still
                    known = {m["id"] for m in reached}
                    reached = reached + [{"id": i, "side": "enemy", "exposure": o["params"]["at"]["room_exposure"]}
                                         for i, p in memory.items() if i not in known
                                         and floors[plan["room"]].covers(Point(*p))]
                worth = min(plan["chance"], 100) / 100 * _worth(reached, side, "none")
                if o["type"] == "grenade":
                    worth -= GRENADE
            if worth + tie > choice[0] + 1e-9:
                choice = (worth, action)
    return choice[1]


def _charge(game, side: str, offers: list[dict]) -> dict | None:
    """Hand-to-hand (G-41) when an enemy is close and the figure is the stronger: its own Weapon Skill well
    above the common man's and Initiative to spare (the enemy's statistics are its owner's)."""
    view = game.view(side)
    mine = {f["id"]: f for f in view["figures"] if f["side"] == side}
    for o in offers:
        me = mine.get(o["figure"])
        if me is None or me["ws"] < STRONG or me["initiative"] < 2:
            continue
        close = [t for t in o["targets"] if math.dist((me["x"], me["y"]), t["to"]) <= ADJACENT]
        if close:
            return {"type": "charge", "figure": o["figure"], "target": close[0]["id"]}
    return None


def _hold(offers: list[dict]) -> dict:
    o = next(o for o in offers if o["type"] == "hold")
    return {"type": "hold", "figure": o["figure"]}


CELL = 0.5
"""Inches of the grid the computer measures its way round the walls on."""


def _walls(view: dict) -> tuple:
    """The walls as the view gives them: (a, b, the spans of its doors and windows) each."""
    return tuple((tuple(w["from"]), tuple(w["to"]),
                  tuple((o["start"], o["end"], o["kind"]) for o in w["openings"]))
                 for b in view["scenario"]["buildings"] for w in b["walls"])


def _middle(floor: Polygon) -> tuple[float, float]:
    c = floor.representative_point() if not floor.covers(floor.centroid) else floor.centroid
    return (round(c.x, 2), round(c.y, 2))


def _blocked(walls: tuple, p: tuple[float, float], q: tuple[float, float]) -> float | None:
    """The extra inches a step from ``p`` to ``q`` is worth: 0 through a door or none crossed, 2 through a
    window (its sill), None through a wall (the computer goes round: a climb costs the whole move)."""
    extra = 0.0
    for a, b, openings in walls:
        dx, dy = q[0] - p[0], q[1] - p[1]
        wx, wy = b[0] - a[0], b[1] - a[1]
        den = dx * wy - dy * wx
        if abs(den) < 1e-12:
            continue
        t = ((a[0] - p[0]) * wy - (a[1] - p[1]) * wx) / den
        u = ((a[0] - p[0]) * dy - (a[1] - p[1]) * dx) / den
        if not (0 <= t <= 1 and 0 <= u <= 1):
            continue
        along = u * math.hypot(wx, wy)
        kind = next((k for s0, s1, k in openings if s0 <= along <= s1), None)
        if kind is None:
            return None
        extra += 2.0 if kind == "window" else 0.0
    return extra


@lru_cache(maxsize=64)
def _field(walls: tuple, width: float, height: float, goal: tuple[float, float]) -> dict:
    """Inches to ``goal`` from each cell of the table, round the walls (Dijkstra on a 0.5" grid)."""
    nx, ny = int(width / CELL) + 1, int(height / CELL) + 1
    start = (min(nx - 1, int(goal[0] / CELL)), min(ny - 1, int(goal[1] / CELL)))
    dist = {start: 0.0}
    heap = [(0.0, start)]
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    while heap:
        d, (i, j) = heapq.heappop(heap)
        if d > dist.get((i, j), math.inf):
            continue
        for di, dj in steps:
            k = (i + di, j + dj)
            if not (0 <= k[0] < nx and 0 <= k[1] < ny):
                continue
            extra = _blocked(walls, (i * CELL, j * CELL), (k[0] * CELL, k[1] * CELL))
            if extra is None:
                continue
            nd = d + CELL * math.hypot(di, dj) + extra
            if nd < dist.get(k, math.inf):
                dist[k] = nd
                heapq.heappush(heap, (nd, k))
    return dist


def _at(field: dict, x: float, y: float) -> float:
    return field.get((int(round(x / CELL)), int(round(y / CELL))), 999.0)


def _move(game, side: str, offer: dict) -> dict:
    view = game.view(side)
    me = next(f for f in view["figures"] if f["id"] == offer["figure"])
    buildings = {b["id"]: Polygon(b["floor"]) for b in view["scenario"]["buildings"]}
    here = Point(me["x"], me["y"])
    inside = next((bid for bid, p in buildings.items() if p.covers(here)), None)
    if side == "insurgent" and inside is not None:
        return {"type": "hold", "figure": me["id"]}
    if side == "allied":
        open_ = [bid for bid in buildings if bid not in view["cleared"]]
        if inside is not None and inside in open_:
            floor = buildings[inside]
            foes = [f for f in view["figures"] if f["side"] != side and floor.covers(Point(f["x"], f["y"]))]
            if foes or here.distance(floor.centroid) < 1.5:
                return {"type": "hold", "figure": me["id"]}  # an enemy in sight in here, or the room is held
            goals = [inside]  # sweep the room: on to its middle
        goals = open_ or list(buildings)
    else:
        allied_in = {bid for bid, p in buildings.items()
                     if any(f["side"] == "allied" and p.covers(Point(f["x"], f["y"])) for f in view["figures"])}
        goals = [bid for bid in buildings if bid not in allied_in] or list(buildings)
    caution = 0.0 if side == "allied" and view["turns"] - view["turn"] < PRESS else CAUTION
    walls = _walls(view)
    table = view["scenario"]["table"]
    fields = {b: _field(walls, table["width"], table["height"], _middle(buildings[b])) for b in goals}
    goal = min(goals, key=lambda b: _at(fields[b], here.x, here.y))
    dist_field = fields[goal]
    best, best_score = None, None
    for k in range(HEADINGS):
        a = 2 * math.pi * k / HEADINGS
        for r in REACH:
            x, y = me["x"] + r * math.cos(a), me["y"] + r * math.sin(a)
            if not (0.3 <= x <= table["width"] - 0.3 and 0.3 <= y <= table["height"] - 0.3):
                continue
            action = {"type": "move", "figure": me["id"], "to": [round(x, 2), round(y, 2)]}
            try:
                plan = game.preview(side, action)
            except Exception:  # noqa: BLE001 - a spot the rules refuse is no candidate
                continue
            if not plan["legal"]:
                continue
            score = _at(dist_field, x, y) + caution * sum(plan["seen_by"].values())
            if buildings[goal].covers(Point(x, y)):
                score -= 3.0
            if best_score is None or score < best_score:
                best, best_score = action, score
    return best or {"type": "hold", "figure": me["id"]}
