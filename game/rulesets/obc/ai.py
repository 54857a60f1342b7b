"""The computer player of One Brain-Cell, for either side: each squad follows its one-line order (OBC-47, the
squad's ``aim``), and every rule is the game's: it picks among the offers (``legal_actions``, with each shot's
need and chance) and asks ``preview`` whether a move is allowed and how far it may go.

* ``land`` (a chopper): fly to its point on the LZ at 12", set down when it can reach it, put its men down,
  and fly off its own table edge the next turn; its door gunners fire at what they see.
* ``take``: each man fires at the target he most likely hurts if he has one; the others advance toward the
  objective (running while no enemy is seen and it is still far), lying down once the enemy is in sight.
* ``hold``: each man fires at the best target, or holds where he is.
* ``support`` (a mortar): a bomb on the seen enemy with the most men round him; otherwise it holds.

Engine readings of its own: a man without a shot worth ``WORTH`` of a hit advances; squads move in the order
choppers, mortars, the rest, by id.
"""

from __future__ import annotations

import math

WORTH = 0.15
MEAN = {"2d6": 7.0, "1d6": 3.5, "half_d6": 2.0, "5+": 1 / 3, "6+": 1 / 6, "-": 0.0}
ORDER = {"chopper": 0, "lorry": 0, "apc": 0, "tank": 0, "mortar": 1, "infantry": 2}


def choose(game, side: str) -> dict:
    offers = game.legal_actions(side)
    s = game.state
    if s.active is None:
        squads = sorted((o["squad"] for o in offers), key=lambda q: (ORDER.get(s.squads[q].kind, 3), q))
        return {"type": "activate", "squad": squads[0]}
    q = s.squads[s.active]
    for o in offers:
        if o["type"] == "debus":
            return {"type": "debus", "vehicle": o["vehicle"]}
    for o in offers:
        if o["type"] == "move" and "vehicle" in o:
            act = _fly(game, q, s.vehicles[o["vehicle"]])
            if act is not None:
                return act
    by_man: dict[str, list[dict]] = {}
    for o in offers:
        if "man" in o:
            by_man.setdefault(o["man"], []).append(o)
    for mid, mine in by_man.items():
        m = s.men[mid]
        if m.acted or all(o["type"] == "retreat" for o in mine):
            continue  # out of command (OBC-17): he stays where he is
        return _man(game, side, q, m, mine)
    return {"type": "done"}


def _expect(t: dict) -> float:
    if "chance" in t and "entry" not in t:
        return t["chance"]
    mean = MEAN[t["entry"]]
    return mean / 2 if t.get("half") else mean


def _man(game, side: str, q, m, offers: list[dict]) -> dict:
    fire = next((o for o in offers if o["type"] == "fire" and "targets" in o), None)
    bomb = next((o for o in offers if o["type"] == "fire" and "range" in o), None)
    if fire is not None:
        best = max(fire["targets"], key=lambda t: (_expect(t), -t["distance"], t["id"]))
        if _expect(best) >= WORTH:
            return {"type": "fire", "man": m.id, "target": best["id"]}
    if bomb is not None:
        at = _bomb_point(game, side, m, bomb["range"])
        if at is not None:
            return {"type": "fire", "man": m.id, "at": at}
    move = next((o for o in offers if o["type"] == "move"), None)
    if q.aim.get("kind") == "take" and move is not None:
        act = _advance(game, side, q, m, move)
        if act is not None:
            return act
    return {"type": "hold", "man": m.id}


def _advance(game, side: str, q, m, offer: dict) -> dict | None:
    goal = q.aim["at"]
    d = math.dist((m.x, m.y), goal)
    if d <= q.aim["radius"] * 0.5:
        return None
    enemy = bool(game.sees(side))
    run = not enemy and offer.get("run_reach") is not None and d > 12
    posture = "lying" if enemy else "standing"
    reach = offer["run_reach"] if run else offer["reach"]
    # a place beside the squad's line, so that the men do not end on one spot
    k = int(m.id[-1]) if m.id[-1].isdigit() else 0
    for step in (reach, reach * 0.75, reach * 0.5, reach * 0.3):
        f = min(1.0, step / d)
        to = [round(m.x + (goal[0] - m.x) * f + 0.3 * ((k % 3) - 1), 2), round(m.y + (goal[1] - m.y) * f, 2)]
        to = [min(max(to[0], 0.0), game.scenario.width), min(max(to[1], 0.0), game.scenario.height)]
        act = {"type": "move", "man": m.id, "to": to, "run": run, "posture": posture}
        try:
            if game.preview(side, act)["legal"] and not _crowded(game, m, to):
                return act
        except Exception:  # noqa: BLE001 - a refused preview: try shorter
            continue
    return None


def _crowded(game, m, to) -> bool:
    return any(x.side == m.side and x.id != m.id and x.able and x.aboard is None and game.on_table(x)
               and math.dist((x.x, x.y), to) < game.t.figure.spacing for x in game.state.men.values())


def _bomb_point(game, side: str, m, rng: list[float]) -> list[float] | None:
    s = game.state
    seen = [s.men[x] for x in game.sees(side) if x in s.men and s.men[x].able and s.men[x].aboard is None]
    best, score = None, 0
    for x in seen:
        d = game.fire_range(m, x.x, x.y)
        if not rng[0] <= d <= rng[1]:
            continue
        near = sum(1 for y in seen if math.dist((x.x, x.y), (y.x, y.y)) <= 1.5)
        if near >= score and not game.preview(side, {"type": "fire", "man": m.id, "at": [x.x, x.y]})["legal"]:
            continue
        if near > score or (near == score and best is not None and x.id < best.id):
            best, score = x, near
    return [best.x, best.y] if best is not None else None


def _fly(game, q, v) -> dict | None:
    """A chopper's move: to its LZ point at 12", down when in reach; empty, off its own edge."""
    sc = game.scenario
    climb = game.t.movement.chopper_climb
    speed = game.t.rates["chopper"].road
    if q.aim.get("kind") != "land":
        return None
    if v.passengers:
        goal = q.aim["at"]
        d = math.dist((v.x, v.y), goal)
        if d + v.height <= speed and v.height <= climb:
            return {"type": "move", "vehicle": v.id, "to": list(goal), "height": 0.0}
        f = min(1.0, (speed - abs(climb - v.height)) / d) if d else 0.0
        return {"type": "move", "vehicle": v.id, "to": [round(v.x + (goal[0] - v.x) * f, 2),
                                                        round(v.y + (goal[1] - v.y) * f, 2)], "height": climb}
    if v.moved_turn == game.state.turn:
        return None
    edge = sc.edges[v.side]
    goal = {"south": (v.x, 0.0), "north": (v.x, sc.height), "west": (0.0, v.y), "east": (sc.width, v.y)}[edge]
    h = min(climb, v.height + climb)
    d = math.dist((v.x, v.y), goal)
    room = speed - abs(h - v.height)
    if d <= room:
        return {"type": "move", "vehicle": v.id, "to": list(goal), "height": h}
    f = room / d
    return {"type": "move", "vehicle": v.id, "to": [round(v.x + (goal[0] - v.x) * f, 2), round(v.y + (goal[1] - v.y) * f, 2)],
            "height": h}
