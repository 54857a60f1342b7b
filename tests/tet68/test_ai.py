"""The Tet '68 computer player uses the cone, the M79, grenades and hand-to-hand where they pay (issue 19;
TET-13, TET-14, G-41), choosing among the game's offers and previews."""

from __future__ import annotations

import tomllib
from collections import Counter

from shapely.geometry import Polygon

from game.rules.scenario import SCENARIO_DIR
from game.rulesets.tet68 import ai
from game.rulesets.tet68.ai import choose
from game.rulesets.tet68.game import TetGame
from game.rulesets.tet68.scenario import build
from tests.tet68.test_blast import fire_phase, move_phase, street


def idle(g, until) -> None:
    """Hold and pass until ``until(g)``: nobody does anything meanwhile."""
    for _ in range(50):
        if until(g):
            return
        side = g.state.to_act
        offers = g.legal_actions(side)
        o = next((o for o in offers if o["type"] == "pass"), None) or next(o for o in offers if o["type"] == "hold")
        g.act(side, {"type": o["type"], **({"figure": o["figure"]} if "figure" in o else {})})
    raise AssertionError("never came")


def test_a_cone_at_two_figures_close_together():  # TET-13, G-41
    g = fire_phase(street(("gunner", "allied", "m16", [2, 12], 3, 100),
                          ("a", "insurgent", "ak47", [10, 12], 1, 60), ("b", "insurgent", "ak47", [10.3, 12.5], 1, 60)))
    action = choose(g, "allied")
    assert action["type"] == "cone"
    assert {m["id"] for m in g.preview("allied", action)["in_cone"]} == {"a", "b"}
    lone = fire_phase(street(("gunner", "allied", "m16", [2, 12], 3, 100), ("a", "insurgent", "ak47", [10, 12], 1, 60)))
    assert choose(lone, "allied")["type"] == "fire"  # one man: a single shot at full chance


def test_the_m79_at_a_cluster():  # TET-14, G-41
    g = fire_phase(street(("grenadier", "allied", "m79", [2, 12], 3, 100),
                          ("a", "insurgent", "ak47", [12, 12], 1, 60), ("b", "insurgent", "ak47", [13, 12.5], 1, 60)))
    action = choose(g, "allied")
    assert action["type"] == "launch"
    assert {m["id"] for m in g.preview("allied", action)["in_blast"]} == {"a", "b"}


def test_a_grenade_into_the_room_where_an_enemy_was_seen():  # G-41
    g = move_phase(street(("thrower", "allied", "m16", [7.5, 12.5], 2, 100),
                          ("vc", "insurgent", "ak47", [9.8, 18.8], 1, 60)))  # in the house, out of sight
    assert "vc" not in g.sees("allied")
    g.act("insurgent", {"type": "move", "figure": "vc", "to": [7.6, 17.5]})  # into the doorway's view
    assert "vc" in g.sees("allied")
    idle(g, lambda g: g.state.turn == 2 and g.state.to_act == "insurgent" and g.state.snap is None)
    g.act("insurgent", {"type": "move", "figure": "vc", "to": [9.8, 18.8]})  # back out of sight
    assert "vc" not in g.sees("allied")
    idle(g, lambda g: g.state.phase == "fire" and g.state.to_act == "allied")
    action = choose(g, "allied")
    assert action["type"] == "grenade" and action["at"] == [7.6, 17.5]
    assert g.preview("allied", action)["room"] == "house"


def test_hand_to_hand_when_close_and_the_stronger():  # G-41
    for ws, wanted in ((150, "charge"), (80, "move")):
        g = move_phase(street(("brute", "allied", "m16", [2, 12], 2, ws), ("vc", "insurgent", "ak47", [4, 12], 1, 80)))
        idle(g, lambda g: g.state.step == 2 and g.state.to_act == "allied" and g.state.snap is None)
        assert choose(g, "allied")["type"] == wanted


def _hue(figures: list[dict]) -> TetGame:
    """hue_street's town with only ``figures`` on it, in the move phase of turn 1."""
    raw = {**tomllib.loads((SCENARIO_DIR / "hue_street.toml").read_text()), "figure": figures}
    return move_phase(TetGame(build(raw, "hue_street"), 5))


def _marine(i: str, at: list[float]) -> dict:
    return {"id": i, "side": "allied", "name": i, "weapon": "m16", "at": at}


def test_the_marines_divide_between_the_houses():  # G-41: every house must be clear by the last turn
    marines = [_marine(f"m{k}", [1.2, 10.0 + 0.8 * k]) for k in range(6)]
    g = _hue(marines + [{"id": "vc", "side": "insurgent", "name": "VC", "weapon": "ak47", "at": [25.7, 15.3]}])
    view = g.view("allied")
    buildings = {b["id"]: Polygon(b["floor"]) for b in view["scenario"]["buildings"]}
    table = view["scenario"]["table"]
    floors = tuple(tuple(map(tuple, b["floor"])) for b in view["scenario"]["buildings"])
    fields = {b: ai._field(ai._walls(view), floors, 3.0, table["width"], table["height"], ai._middle(buildings[b]))
              for b in buildings}
    goals = Counter(ai._goals(view, "allied", buildings, fields).values())
    assert set(goals) == {"noodle_shop", "school"} and min(goals.values()) >= 2  # the two nearest, each a team
    assert ai._goals(view, "allied", buildings, fields) == ai._goals(g.view("allied"), "allied", buildings, fields)


def test_a_marine_goes_round_the_end_of_a_wall():  # TET-9, TET-10: a wall without a door costs the whole move
    # PFC Flores stands against the noodle shop's side wall (x = 4, y 15..23) with the pharmacy to clear: the
    # way the computer offers him lies round the wall's north end, each step clear of the walls
    g = _hue([_marine("flores", [3.83, 22.93]),
              {"id": "vc", "side": "insurgent", "name": "VC", "weapon": "ak47", "at": [20.4, 19.5]}])
    view = g.view("allied")
    walls = ai._walls(view)
    pharmacy = next(Polygon(b["floor"]) for b in view["scenario"]["buildings"] if b["id"] == "pharmacy")
    floors = tuple(tuple(map(tuple, b["floor"])) for b in view["scenario"]["buildings"])
    field = ai._field(walls, floors, 3.0, 36, 24, ai._middle(pharmacy))
    way = ai._descent(walls, field, 3.83, 22.93, 8.5)
    assert len(way) >= 4 and way[-1][0] > 8.0  # well on its way east
    assert all(ai._blocked(walls, a, b) == 0.0 for a, b in zip(way, way[1:], strict=False))
    assert next(y for x, y in way if x > 4.0) > 23.0  # past the wall's line only beyond its end
    g.state.cleared = ["noodle_shop", "school", "tailor"]
    move = ai.choose(g, "allied")
    assert move["type"] == "move" and move["to"][0] > 4.0 and g.preview("allied", move)["legal"]
