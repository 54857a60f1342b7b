"""Small scenarios built in code for rules tests (a Wesnoth-style tiny scenario per rule)."""

from __future__ import annotations

from game.rules.game import Game
from game.rules.scenario import build_scenario


def stand(sid: str, stype: str, x: float, y: float, facing: float = 90) -> dict:
    return {"id": sid, "type": stype, "at": [x, y], "facing": facing}


def element(eid: str, side: str, stands: list[dict], kind: str = "squad", **extra) -> dict:
    return {"id": eid, "side": side, "name": extra.pop("name", eid), "kind": kind, "stand": stands, **extra}


def scenario(elements: list[dict], terrain: list[dict] | None = None, width: float = 48, height: float = 48,
             **head) -> dict:
    return {
        "scenario": {"id": "test", "title": "test", "table": {"width": width, "height": height}, **head},
        "terrain": terrain or [],
        "side": [{"id": "allied", "faction": "us_army"}, {"id": "insurgent", "faction": "vc_main_force"}],
        "element": elements,
    }


def platoon(pc_at=(10.0, 5.0), squad_at=(10.0, 10.0), rto_contact=True) -> list[dict]:
    """A platoon HQ (PC, RTO, medic) and one squad (SL + 2 rifle teams), facing north."""
    px, py = pc_at
    sx, sy = squad_at
    hq = [stand("pc", "us_platoon_commander", px, py)]
    if rto_contact:
        hq.append(stand("rto", "us_rto", px + 1.3, py))
    return [
        element("hq", "allied", hq, kind="hq", name="HQ"),
        element("sq1", "allied", [stand("sl", "us_squad_leader", sx, sy - 1.5),
                                  stand("a", "us_rifle_team", sx - 1.2, sy),
                                  stand("b", "us_rifle_team", sx + 1.2, sy)], name="1st Squad"),
    ]


def enemy(at=(40.0, 40.0), eid: str = "vc") -> list[dict]:
    x, y = at
    return [element(eid, "insurgent", [stand(f"{eid}_a", "vc_rifle_cell", x, y, 270),
                                       stand(f"{eid}_b", "vc_rifle_cell", x + 2.2, y, 270)], kind="cell")]


def game(raw: dict, seed: int = 1, dice: list[int] | None = None) -> Game:
    """A game at the start of turn 1's Engagement phase; ``dice`` forces the first rules rolls
    (turn 1's Allied CP dice come first)."""
    from game.rules.turn import start_turn

    g = Game(build_scenario(raw), seed, start=False)
    if dice:
        g.dice.force(dice)
    start_turn(g)
    return g
