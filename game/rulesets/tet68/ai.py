"""The computer player of Tet '68, for either side (issue 19: "clears houses sensibly"). It picks among the
game's offers and asks the game (``preview``) what a move costs and who would see the figure there, and
what a shot's chance and cover roll are; every rule is the game's.

* The Allies clear the nearest building not yet clear: each figure goes as far toward it as its move allows,
  through the doors (a wall's climb costs the whole move, TET-10), keeping out of the enemy's sight where it
  can; in the fire phase each shoots the enemy it most likely hurts (chance x exposure / 6).
* The VC/NVA hold their buildings: a figure in one stays (at its window or door), one caught outside goes to
  the nearest building the Allies have not entered; they shoot like the Allies, and snap fire (C-32) when the
  chance of a hit is worth the spent shot.

Engine readings of its own: 16 headings and 6 reaches are tried for a move (and staying); a snap shot is
taken at 6 % of a hit or better.
"""

from __future__ import annotations

import math

from shapely.geometry import Point, Polygon

HEADINGS = 16
REACH = (1.0, 2.0, 3.0, 4.5, 6.0, 8.5)
SNAP = 0.06


def _expect(t: dict, auto: bool) -> float:
    pct = t.get("auto_chance", 0) if auto else t["chance"]
    return min(pct, 100) / 100 * t["exposure"] / 6 + max(0, pct - 100) / 100


def _best_shot(offers: list[dict]) -> tuple[float, dict] | None:
    best = None
    for o in offers:
        for t in o["targets"]:
            for auto in (False, True) if "auto_chance" in t else (False,):
                e = _expect(t, auto)
                if best is None or e > best[0]:
                    best = (e, {"type": o["type"], "figure": o["figure"], "target": t["id"], "auto": auto})
    return best


def choose(game, side: str) -> dict | None:
    offers = game.legal_actions(side)
    if not offers:
        return None
    if any(o["type"] == "snap_fire" for o in offers):
        best = _best_shot([o for o in offers if o["type"] == "snap_fire"])
        return best[1] if best and best[0] >= SNAP else {"type": "pass"}
    fires = [o for o in offers if o["type"] == "fire"]
    if fires:
        best = _best_shot(fires)
        if best is not None:
            return best[1]
    moves = [o for o in offers if o["type"] == "move"]
    if moves:
        return _move(game, side, moves[0])
    return _hold(offers)


def _hold(offers: list[dict]) -> dict:
    o = next(o for o in offers if o["type"] == "hold")
    return {"type": "hold", "figure": o["figure"]}


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
            return {"type": "hold", "figure": me["id"]}  # in the house it is clearing: hold it
        goals = open_ or list(buildings)
    else:
        allied_in = {bid for bid, p in buildings.items()
                     if any(f["side"] == "allied" and p.covers(Point(f["x"], f["y"])) for f in view["figures"])}
        goals = [bid for bid in buildings if bid not in allied_in] or list(buildings)
    goal = min(goals, key=lambda b: buildings[b].distance(here))
    centre = buildings[goal].centroid
    table = view["scenario"]["table"]
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
            score = Point(x, y).distance(centre) + 1.5 * sum(plan["seen_by"].values())
            if buildings[goal].covers(Point(x, y)):
                score -= 3.0
            if best_score is None or score < best_score:
                best, best_score = action, score
    return best or {"type": "hold", "figure": me["id"]}
