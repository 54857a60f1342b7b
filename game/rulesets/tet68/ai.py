"""The computer player of Tet '68, for either side (issue 19: "clears houses sensibly"). It picks among the
game's offers and asks the game (``preview``) what a move costs and who would see the figure there, and
what a shot, a cone, a round or a grenade would reach and at what chance; every rule is the game's.

* The Allies clear the buildings not yet clear, divided between them (``_goals``: the nearest, unless more
  friends are already bound there): each figure goes as far toward its own as its move allows, along the
  way round the walls' ends and through the doors (a wall's climb costs the whole move, TET-10), keeping out
  of the enemy's sight while the turns left allow it (``_caution``). The VC/NVA hold their buildings: a figure in one stays (at its window or door), one caught outside
  goes to the nearest building the Allies have not entered.
* In the fire phase both take what is likeliest to hurt the enemy (each chance x exposure / 6, a friend
  reached counting twice against): a single shot; a cone where two enemies or more stand close together; the
  M79 at a cluster; a grenade into a room where its side has seen enemies (its own events and view: where
  each enemy was last seen), only when worth ``GRENADE`` hits more than a shot. A figure charges into
  hand-to-hand (G-41) an enemy within ``ADJACENT`` inches when it is the stronger (its Weapon Skill ``STRONG``
  or more, Initiative 2 or more: the enemy's own statistics are its owner's). Snap fire (C-32) when the
  chance of a hit is worth the spent shot, else pass.

Engine readings of its own: 16 headings and 6 reaches are tried for a move, and points along the way, scored
by the way left round the walls (a 0.5" grid, doors free, windows 2" dearer, walls shut, indoors at its
TET-9 cost) plus ``CAUTION`` inches
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
SPLIT = 6.0
"""Inches of way an Allied figure goes further to a house with fewer friends bound for it (``_goals``)."""
PER_HOUSE = 2
"""Turns the Allies allow themselves for each house still to clear before they stop sparing themselves."""


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
CLEAR = 0.3
"""Inches beyond a wall's end its way keeps clear of: a figure's base does not slip round the very corner."""


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
    window (its sill), None through a wall or within ``CLEAR`` of its ends (the computer goes round: a climb
    costs the whole move)."""
    extra = 0.0
    for a, b, openings in walls:
        dx, dy = q[0] - p[0], q[1] - p[1]
        wx, wy = b[0] - a[0], b[1] - a[1]
        den = dx * wy - dy * wx
        if abs(den) < 1e-12:
            continue
        t = ((a[0] - p[0]) * wy - (a[1] - p[1]) * wx) / den
        u = ((a[0] - p[0]) * dy - (a[1] - p[1]) * dx) / den
        length = math.hypot(wx, wy)
        if not (0 <= t <= 1 and -CLEAR / length <= u <= 1 + CLEAR / length):
            continue
        along = u * length
        kind = next((k for s0, s1, k in openings if s0 <= along <= s1), None)
        if kind is None:
            return None
        extra += 2.0 if kind == "window" else 0.0
    return extra


@lru_cache(maxsize=64)
def _field(walls: tuple, floors: tuple, slow: float, width: float, height: float, goal: tuple[float, float]) -> dict:
    """Inches of open ground to ``goal`` from each cell of the table, round the walls (Dijkstra on a 0.5"
    grid): a step between two cells inside ``floors`` counts ``slow`` times (TET-9: 3" a move in a building
    against 9" in the open)."""
    nx, ny = int(width / CELL) + 1, int(height / CELL) + 1
    shapes = [Polygon(f) for f in floors]
    indoors = {(i, j) for i in range(nx) for j in range(ny)
               if any(p.covers(Point(i * CELL, j * CELL)) for p in shapes)}
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
            rate = slow if (i, j) in indoors and k in indoors else 1.0
            nd = d + CELL * math.hypot(di, dj) * rate + extra
            if nd < dist.get(k, math.inf):
                dist[k] = nd
                heapq.heappush(heap, (nd, k))
    return dist


def _at(field: dict, x: float, y: float) -> float:
    return field.get((int(round(x / CELL)), int(round(y / CELL))), 999.0)


def _descent(walls: tuple, field: dict, x: float, y: float, reach: float) -> list[tuple[float, float]]:
    """Points along the shortest way (down the field, step by step between cells that the walls let through)
    from ``x, y``, up to ``reach`` inches of way: a figure sent to one goes round a wall's end, not against it."""
    cell = (int(round(x / CELL)), int(round(y / CELL)))
    out, walked = [], 0.0
    while walked < reach and field.get(cell, 0) > 0:
        here = (cell[0] * CELL, cell[1] * CELL)
        steps = []
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                k = (cell[0] + di, cell[1] + dj)
                extra = _blocked(walls, here, (k[0] * CELL, k[1] * CELL)) if (di or dj) and k in field else None
                if extra is not None:
                    steps.append((field[k] + CELL * math.hypot(di, dj) + extra, k))
        if not steps or min(steps)[0] > field[cell] + 1e-9 or field[min(steps)[1]] >= field[cell]:
            break
        k = min(steps)[1]
        walked += CELL * math.hypot(k[0] - cell[0], k[1] - cell[1])
        cell = k
        out.append((cell[0] * CELL, cell[1] * CELL))
    return out[1::2] + out[-1:]


def _goals(view: dict, side: str, buildings: dict[str, Polygon], fields: dict) -> dict[str, str]:
    """Which building each Allied figure that may move makes for: the nearest by the way round the walls,
    less ``SPLIT`` inches for each friend already sent there beyond the first, so the team divides between the
    houses left (taken figure by figure in the order of the view: the same state always gives the same
    division)."""
    sent: dict[str, int] = {b: 0 for b in fields}
    out = {}
    for f in sorted((f for f in view["figures"] if f["side"] == side and f["alive"] and f["may_move"]),
                    key=lambda f: f["id"]):
        here = Point(f["x"], f["y"])
        inside = next((b for b in fields if buildings[b].covers(here)), None)
        goal = inside or min(fields, key=lambda b: (_at(fields[b], f["x"], f["y"]) + SPLIT * max(0, sent[b] - 1), b))
        sent[goal] += 1
        out[f["id"]] = goal
    return out


def _caution(view: dict, side: str, open_: int) -> float:
    """The inches a figure gives up to be seen less: none for the Allies once the turns left are no more
    than ``PRESS`` and ``PER_HOUSE`` for each house still to clear (G-41: all must be clear by the last)."""
    if side == "allied" and view["turns"] - view["turn"] < PRESS + PER_HOUSE * open_:
        return 0.0
    return CAUTION


def _move(game, side: str, offer: dict) -> dict:
    view = game.view(side)
    me = next(f for f in view["figures"] if f["id"] == offer["figure"])
    buildings = {b["id"]: Polygon(b["floor"]) for b in view["scenario"]["buildings"]}
    here = Point(me["x"], me["y"])
    inside = next((bid for bid, p in buildings.items() if p.covers(here)), None)
    if side == "insurgent" and inside is not None:
        return {"type": "hold", "figure": me["id"]}
    walls = _walls(view)
    table = view["scenario"]["table"]
    floors = tuple(tuple(map(tuple, b["floor"])) for b in view["scenario"]["buildings"])
    slow = game.tables.movement.open / game.tables.movement.building

    def field_of(b: str) -> dict:
        return _field(walls, floors, slow, table["width"], table["height"], _middle(buildings[b]))

    if side == "allied":
        open_ = [bid for bid in buildings if bid not in view["cleared"]]
        if inside is not None and inside in open_:
            floor = buildings[inside]
            foes = [f for f in view["figures"] if f["side"] != side and floor.covers(Point(f["x"], f["y"]))]
            if foes or here.distance(floor.centroid) < 1.5:
                return {"type": "hold", "figure": me["id"]}  # an enemy in sight in here, or the room is held
        fields = {b: field_of(b) for b in open_ or list(buildings)}
        goal = _goals(view, side, buildings, fields).get(me["id"]) or min(fields, key=lambda b: _at(fields[b], here.x,
                                                                                                      here.y))
        caution = _caution(view, side, len(open_))
    else:
        allied_in = {bid for bid, p in buildings.items()
                     if any(f["side"] == "allied" and p.covers(Point(f["x"], f["y"])) for f in view["figures"])}
        fields = {b: field_of(b) for b in [bid for bid in buildings if bid not in allied_in] or list(buildings)}
        goal = min(fields, key=lambda b: _at(fields[b], here.x, here.y))
        caution = CAUTION
    dist_field = fields[goal]
    spots = [(me["x"] + r * math.cos(2 * math.pi * k / HEADINGS), me["y"] + r * math.sin(2 * math.pi * k / HEADINGS))
             for k in range(HEADINGS) for r in REACH]
    spots += _descent(walls, dist_field, me["x"], me["y"], max(REACH))
    best, best_score = None, None
    for x, y in spots:
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
