"""The computer player of One Brain-Cell, for either side: each squad follows its one-line order (OBC-47, the
squad's ``aim``), and every rule is the game's: it picks among the offers (``legal_actions``, with each shot's
need and chance) and asks ``preview`` whether a move is allowed and how far it may go.

* ``land`` (a chopper): fly to its point on the LZ at 12", set down when it can reach it, put its men down,
  and fly off its own table edge the next turn; its door gunners fire at what they see.
* ``take``: each man fires at the target he most likely hurts if he has one; the others advance toward the
  objective (running while no enemy is seen and it is still far), lying down once the enemy is in sight.
* ``hold``: each man fires at the best target, or holds where he is.
* ``support`` (a mortar): a bomb on the seen enemy with the most men round him; otherwise it holds. A mortar
  that supports a squad (OBC-48: the scenario's ``supports``) engages that squad's opponents: the enemies
  within ``OPPONENTS`` of its men, when any is in reach, before any other.
* ``evac`` (a chopper called by radio, OBC-49): fly in at 12" and set down on clear ground in its area, as
  near its side's disabled men as the engine allows, wait there while they are carried to it, and fly them
  off its own edge when none is left on the way (or in the last turn); it moves after the infantry while it
  waits, so that the men loaded in a turn fly off in it.
* The wounded (OBC-42): a man beside a disabled friend picks him up when where he would take him (a landed
  evac chopper, else the area of one on its way or on call, else the own table edge within the turns left at
  a carrier's half speed) is within ``NEAR``, carries him there and puts him aboard; a carrier out of
  command retreats with him when the nearest edge is his own (OBC-17).
* The radio (OBC-7, OBC-49): a radio operator makes the calls the engine offers him: an evac chopper once a
  man of his side is disabled, any other reserve at once.

Engine readings of its own: a man without a shot worth ``WORTH`` of a hit advances; squads move in the order
choppers, mortars, the rest, by id.
"""

from __future__ import annotations

import math

WORTH = 0.15
MEAN = {"2d6": 7.0, "1d6": 3.5, "half_d6": 2.0, "5+": 1 / 3, "6+": 1 / 6, "-": 0.0}
ORDER = {"chopper": 0, "lorry": 0, "apc": 0, "tank": 0, "mortar": 1, "infantry": 2}
WAITING = 3
"""An evac chopper on the ground moves after the infantry (``ORDER``)."""
OPPONENTS = 12.0
"""Inches from a man of the squad a mortar supports within which an enemy is that squad's opponent (OBC-48;
a rifle's long range, engine reading of its own)."""
NEAR = 6.0
"""A man leaves the fight to carry a disabled friend only this close to where he would take him (two moves at
a carrier's half speed): the rest fight on (engine reading of its own)."""


def choose(game, side: str) -> dict:
    offers = game.legal_actions(side)
    s = game.state
    if s.active is None:
        squads = sorted((o["squad"] for o in offers), key=lambda q: (_rank(game, s.squads[q]), q))
        return {"type": "activate", "squad": squads[0]}
    q = s.squads[s.active]
    for o in offers:
        if o["type"] == "debus":
            return {"type": "debus", "vehicle": o["vehicle"]}
    for o in offers:
        if o["type"] == "move" and "vehicle" in o:
            v = s.vehicles[o["vehicle"]]
            act = _evac_fly(game, q, v) if q.aim.get("kind") == "evac" else _fly(game, q, v)
            if act is not None:
                return act
    by_man: dict[str, list[dict]] = {}
    for o in offers:
        if "man" in o:
            by_man.setdefault(o["man"], []).append(o)
    first = ("load", "radio", "carry")  # the wounded and the radio before the fight
    for mid, mine in sorted(by_man.items(), key=lambda kv: (not (s.men[kv[0]].carrying or any(
            o["type"] in first for o in kv[1])), list(by_man).index(kv[0]))):
        m = s.men[mid]
        if m.acted and not (m.carrying and not m.moved):
            continue  # (a man who has just picked a man up carries him on)
        if all(o["type"] == "retreat" for o in mine):
            if m.carrying and _at_own_edge(game, side, mine[0]["edge"]):
                return {"type": "retreat", "man": m.id}  # out of command (OBC-17), toward his own edge
            continue  # out of command: he stays where he is
        return _man(game, side, q, m, mine)
    return {"type": "done"}


def _expect(t: dict) -> float:
    if "chance" in t and "entry" not in t:
        return t["chance"]
    mean = MEAN[t["entry"]]
    return mean / 2 if t.get("half") else mean


def _rank(game, q) -> int:
    if q.aim.get("kind") == "evac" and any(v.squad == q.id and not v.flying for v in game.state.vehicles.values()):
        return WAITING
    return ORDER.get(q.kind, 3)


def _man(game, side: str, q, m, offers: list[dict]) -> dict:
    act = _wounded(game, side, m, offers)
    if act is not None:
        return act
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
    def tries():
        for step in (reach, reach * 0.75, reach * 0.5, reach * 0.3):
            f = min(1.0, step / d)
            to = [round(m.x + (goal[0] - m.x) * f + 0.3 * ((k % 3) - 1), 2), round(m.y + (goal[1] - m.y) * f, 2)]
            to = [min(max(to[0], 0.0), game.scenario.width), min(max(to[1], 0.0), game.scenario.height)]
            yield {"type": "move", "man": m.id, "to": to, "run": run, "posture": posture}

    return _first_allowed(game, side, m, tries())


def _first_allowed(game, side: str, m, moves) -> dict | None:
    """The first of ``moves`` (longest first) the engine allows and no friend stands at."""
    for act in moves:
        try:
            if game.preview(side, act)["legal"] and not _crowded(game, m, act["to"]):
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
    best = _bomb_among(game, side, m, rng, seen, _opponents(game, m, seen))
    return best if best is not None else _bomb_among(game, side, m, rng, seen, seen)


def _opponents(game, m, seen: list) -> list:
    """The seen enemies who are the opponents of the squad ``m``'s squad supports (OBC-48), if any."""
    q = game.state.squads.get(m.squad)
    friends = [y for y in game.state.men.values() if q is not None and q.supports and y.squad == q.supports
               and y.able and y.aboard is None]
    return [x for x in seen if any(math.dist((x.x, x.y), (y.x, y.y)) <= OPPONENTS for y in friends)]


def _bomb_among(game, side: str, m, rng: list[float], seen: list, aims: list) -> list[float] | None:
    """The aim among ``aims`` with the most seen enemies round him, in range, where the engine allows."""
    best, score = None, 0
    for x in aims:
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
    climb = game.t.movement.chopper_climb
    speed = game.t.rates["chopper"].road
    if q.aim.get("kind") != "land":
        return None
    if game.able_aboard(v):
        goal = q.aim["at"]
        d = math.dist((v.x, v.y), goal)
        if d + v.height <= speed and v.height <= climb:
            return {"type": "move", "vehicle": v.id, "to": list(goal), "height": 0.0}
        f = min(1.0, (speed - abs(climb - v.height)) / d) if d else 0.0
        return {"type": "move", "vehicle": v.id, "to": [round(v.x + (goal[0] - v.x) * f, 2),
                                                        round(v.y + (goal[1] - v.y) * f, 2)], "height": climb}
    if v.moved_turn == game.state.turn:
        return None
    return _leave(game, v)


# -- the wounded and the radio (OBC-42, OBC-49) -------------------------------------------------------------
def _at_own_edge(game, side: str, p) -> bool:
    sc = game.scenario
    return {"south": p[1] <= 0.01, "north": p[1] >= sc.height - 0.01, "west": p[0] <= 0.01,
            "east": p[0] >= sc.width - 0.01}[sc.edges[side]]


def _disabled(game, side: str) -> list:
    """The side's disabled men still on the ground, to be evacuated."""
    return [x for x in game.state.men.values() if x.side == side and x.status == "disabled" and x.aboard is None
            and not x.evacuated]


def _evac_squads(game, side: str) -> list:
    return [q for q in game.state.squads.values() if q.side == side and q.aim.get("kind") == "evac"]


def _carry_to(game, side: str, m) -> tuple[tuple[float, float], bool] | None:
    """Where a carrier takes a disabled man: (the point, whether it is a landed chopper), or None."""
    s = game.state
    landed = [v for v in s.vehicles.values() if v.side == side and v.able and v.kind == "chopper" and not v.flying
              and v.squad not in s.reserves and s.squads[v.squad].aim.get("kind") == "evac"]
    if landed:
        v = min(landed, key=lambda v: (math.dist((v.x, v.y), (m.x, m.y)), v.id))
        return (v.x, v.y), True
    for q in _evac_squads(game, side):
        v = next((v for v in s.vehicles.values() if v.squad == q.id), None)
        if v is not None and v.able:
            return tuple(q.aim["at"]), False
    sc = game.scenario
    edge = {"south": (m.x, 0.0), "north": (m.x, sc.height), "west": (0.0, m.y), "east": (sc.width, m.y)}[sc.edges[side]]
    speed = game.t.rates["infantry"].country * game.t.movement.carry_one
    if math.dist(edge, (m.x, m.y)) <= speed * (sc.turns - s.turn + 1):
        return edge, False
    return None


def _wounded(game, side: str, m, offers: list[dict]) -> dict | None:
    radio = next((o for o in offers if o["type"] == "radio"), None)
    if radio is not None:
        for call in radio["params"]["call"]["choices"]:
            if game.state.squads[call].aim.get("kind") != "evac" or _disabled(game, side):
                return {"type": "radio", "man": m.id, "call": call}
    load = next((o for o in offers if o["type"] == "load"), None)
    if load is not None:
        return {"type": "load", "man": m.id, "vehicle": load["vehicle"]}
    if m.carrying:
        dest = _carry_to(game, side, m)
        move = next((o for o in offers if o["type"] == "move"), None)
        if dest is None or move is None:
            return None
        return _toward(game, side, m, dest[0], move["reach"], 0.8 if dest[1] else 0.0)
    pick = next((o for o in offers if o["type"] == "carry" and o["carriers"] == 1), None)
    dest = _carry_to(game, side, m) if pick is not None else None
    if dest is not None and math.dist(dest[0], (m.x, m.y)) <= NEAR:
        return {"type": "carry", "man": m.id, "target": pick["target"]}
    return None


def _toward(game, side: str, m, goal, reach: float, short: float) -> dict | None:
    """A move straight toward ``goal``, ending ``short`` of it, as far as the engine allows."""
    d = math.dist((m.x, m.y), goal) - short
    if d <= 0.05:
        return None
    fractions = (min(1.0, step / d) * d / (d + short) for step in (reach, reach * 0.75, reach * 0.5, reach * 0.25))
    return _first_allowed(game, side, m, ({"type": "move", "man": m.id,
                                           "to": [round(m.x + (goal[0] - m.x) * f, 3), round(m.y + (goal[1] - m.y) * f, 3)],
                                           "posture": "standing"} for f in fractions))


def _evac_fly(game, q, v) -> dict | None:
    """An evac chopper: in at 12" to a clear spot of its area nearest its side's disabled, down; off its own
    edge when it has them aboard and no carrier is on his way, or in the last turn."""
    s, sc = game.state, game.scenario
    if v.moved_turn == s.turn:
        return None
    aboard = [x for x in v.passengers if s.men[x].status == "disabled"]
    carried = [x for x in s.men.values() if x.side == v.side and x.carrying and x.able]
    waiting = [x for x in _disabled(game, v.side) if not any(c.carrying == x.id for c in carried)]
    last = s.turn >= sc.turns
    if aboard and (last or not carried) or (not v.flying and last):
        return _leave(game, v)
    if not v.flying:
        return None
    climb, speed = game.t.movement.chopper_climb, game.t.rates["chopper"].road
    near = [(x.x, x.y) for x in carried + waiting] or [tuple(q.aim["at"])]
    r = int(q.aim["radius"])

    spots = [(q.aim["at"][0] + dx, q.aim["at"][1] + dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)
             if dx * dx + dy * dy <= r * r and 0 <= q.aim["at"][0] + dx <= sc.width and 0 <= q.aim["at"][1] + dy <= sc.height]
    danger = _watched(game, v.side, spots)

    def far(p) -> float:  # how far the carriers have to come (a hedge or wall on the way as 4"), and who watches
        return sum(math.dist(p, a) + 4.0 * len(game.ground.hedges_crossed(a, p)) for a in near) + danger[p]

    spots.sort(key=lambda p: (far(p), p))
    seen = game.sees(v.side)
    about = [(x.x, x.y) for x in s.men.values() if x.able and x.aboard is None and game.on_table(x)
             and (x.side == v.side or x.id in seen)]
    for p in spots:
        act = {"type": "move", "vehicle": v.id, "to": [float(p[0]), float(p[1])], "height": 0.0}
        if not any(math.dist(a, p) < 1.0 for a in about) and game.preview(v.side, act)["legal"]:
            return act
    goal = spots[0] if spots else tuple(q.aim["at"])
    d = math.dist((v.x, v.y), goal)
    f = min(1.0, (speed - abs(climb - v.height)) / d) if d else 0.0
    return {"type": "move", "vehicle": v.id, "to": [round(v.x + (goal[0] - v.x) * f, 2), round(v.y + (goal[1] - v.y) * f, 2)],
            "height": climb}


def _watched(game, side: str, spots: list) -> dict:
    """How dangerous each landing spot looks: the seen enemy who would see a chopper set down there (by the
    world's ray casts), a rocket launcher or gun most of all (it destroys a chopper outright, OBC-33)."""
    from game.rulesets.obc import sight

    s, f = game.state, game.t.figure
    foes = [s.men[x] for x in game.sees(side) if x in s.men and s.men[x].able and s.men[x].aboard is None]
    out = {p: 0.0 for p in spots}
    if not foes or not spots:
        return out
    pairs = [(p, x) for p in spots for x in foes]
    ok = sight.visible(game.los, [game.eye_of(x) for _, x in pairs], [(p[0], p[1], f.eye_standing) for p, _ in pairs],
                       game.conditions())
    for (p, x), seen in zip(pairs, ok, strict=True):
        if seen:
            out[p] += 40.0 if game.t.weapons[x.weapon].kind == "large_calibre" else 2.0
    return out


def _leave(game, v) -> dict:
    """Up and off the side's own table edge (as far as one move takes it)."""
    sc = game.scenario
    climb, speed = game.t.movement.chopper_climb, game.t.rates["chopper"].road
    goal = {"south": (v.x, 0.0), "north": (v.x, sc.height), "west": (0.0, v.y), "east": (sc.width, v.y)}[sc.edges[v.side]]
    h = min(climb, v.height + climb)
    d = math.dist((v.x, v.y), goal)
    room = speed - abs(h - v.height)
    if d <= room:
        return {"type": "move", "vehicle": v.id, "to": list(goal), "height": h}
    f = room / d
    return {"type": "move", "vehicle": v.id, "to": [round(v.x + (goal[0] - v.x) * f, 2), round(v.y + (goal[1] - v.y) * f, 2)],
            "height": h}
