"""Fire missions (DD chapter 8): the call, its clock, the scatter and the template on landing."""

from __future__ import annotations

import pytest

from game.rules.errors import IllegalAction
from tests.builders import element, enemy, game, platoon, scenario, stand


def support_scenario(support, elements=None, **head):
    raw = scenario(elements or (platoon() + enemy((10.0, 30.0))), **head)
    raw["support"] = support
    return raw


def battery(missions=2, asset="battery_105"):
    return [{"side": "allied", "asset": asset, "missions": missions}]


def act(g, side, action):
    return g.act(side, action)


def test_a_call_pays_the_activation_and_starts_the_delay_clock():  # DD-8.6, DD-8.7
    g = game(support_scenario(battery()))
    cp = g.state.sides["allied"].cp
    ev = act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "battery_105", "round": "he",
                           "at": [10.0, 30.0], "stand": "rto"})
    call = [e for e in ev if e["type"] == "fire_mission" and e["phase"] == "call"][0]
    assert call["turns"] == 2 and call["caller"] == "rto"  # DD-8.7: "2" for a 105mm battery
    assert g.state.sides["allied"].cp == cp - 1            # DD-8.6: 1 CP (In Command)
    clock = [c for c in g.state.clocks if c.kind == "fire_mission"][0]
    assert clock.turns == 2 and clock.side == "allied"
    # The call is the caller's side's secret (a radio call is not heard across the table).
    assert all(e.get("_visible") == "allied" for e in ev if e["type"] == "fire_mission")


def test_only_an_fo_officer_or_rto_calls_fire():  # DD-8.6
    g = game(support_scenario(battery()))
    with pytest.raises(IllegalAction) as exc:
        act(g, "allied", {"type": "call_fire", "element": "sq1", "asset": "battery_105", "at": [10, 30]})
    assert "DD-8.6" in exc.value.clause


def test_no_mission_without_support_on_call():  # DD-8.3
    g = game(support_scenario([]))
    with pytest.raises(IllegalAction) as exc:
        act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "battery_105", "at": [10, 30]})
    assert "DD-8.3" in exc.value.clause
    assert not [a for a in g.legal_actions("allied") if a["type"] == "call_fire"]


def test_missions_run_out():  # DD-8.3
    g = game(support_scenario(battery(missions=1)))
    act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "battery_105", "at": [10, 30]})
    act(g, "insurgent", {"type": "pass"})
    with pytest.raises(IllegalAction):
        act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "battery_105", "at": [12, 30]})


def _end_turn(g):
    out = []
    while g.state.turn == g.state.turn and not g.state.over:
        turn = g.state.turn
        out += g.act(g.state.to_act, {"type": "pass"})
        if g.state.turn != turn:
            break
    return out


def test_the_mission_lands_when_its_clock_runs_out_and_every_stand_under_it_takes_the_fp():  # DD-8.7, DD-8.10
    g = game(support_scenario(battery(asset="mortar_81")))
    act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "mortar_81", "at": [10.0, 30.0],
                      "stand": "rto"})
    g.dice.force([1])  # DD-8.8: 1-2 on target
    ev = _end_turn(g)
    impact = [e for e in ev if e["type"] == "fire_mission" and e["phase"] == "impact"][0]
    assert (impact["x"], impact["y"]) == (10.0, 30.0) and len(impact["impacts"]) == 3
    scat = [e for e in ev if e["type"] == "roll" and e["purpose"] == "Scatter"][0]
    assert scat["result"] == "on target" and scat["clause"] == "DD-8.8"
    tpl = [e for e in ev if e["type"] == "template"][0]
    assert tpl["radius"] == 1.0  # G-25: Medium 2"
    to_hit = [e for e in ev if e["type"] == "roll" and e["purpose"] == "to hit"]
    assert to_hit and all(len(e["dice"]) == 3 for e in to_hit)  # G-19: 3 FP for each stand touched
    assert [e for e in ev if e["type"] == "roll" and e["purpose"].startswith("Morale")]  # DD-8.10


def test_scatter_drifts_on_3_to_6():  # DD-8.8
    g = game(support_scenario(battery(asset="mortar_81")))
    ev = act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "mortar_81", "at": [20.0, 20.0],
                           "stand": "rto"})
    assert [e for e in ev if e["type"] == "fire_mission"][0]["observed"]
    g.dice.force([4, 3, 3])  # scatter 4: drift 1d6 = 3" toward d8 3 (east)
    ev = _end_turn(g)
    impact = [e for e in ev if e["type"] == "fire_mission" and e["phase"] == "impact"][0]
    assert (impact["x"], impact["y"]) == (23.0, 20.0)


def test_an_unobserved_mission_drifts_2d6():  # DD-8.6, DD-8.8
    g = game(support_scenario(battery(asset="mortar_81")))
    ev = act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "mortar_81", "at": [40.0, 40.0],
                           "stand": "rto"})
    assert not [e for e in ev if e["type"] == "fire_mission"][0]["observed"]  # 40" away: beyond sight
    g.dice.force([4, 3, 2, 5])  # drift 2d6 = 5" toward d8 5 (south)
    ev = _end_turn(g)
    scat = [e for e in ev if e["type"] == "roll" and e["purpose"] == "Scatter"][0]
    assert scat["distance"] == 5 and scat["modifiers"][0]["clause"] == "DD-8.8"
    impact = [e for e in ev if e["type"] == "fire_mission" and e["phase"] == "impact"][0]
    assert (impact["x"], impact["y"]) == (40.0, 35.0)


# -- the on-board 60mm mortar (G-37) ------------------------------------------------------------------------
def mortar_scenario(enemy_at=(10.0, 22.0), **head):
    els = platoon() + [element("mtr", "allied", [stand("tube", "us_mortar_team", 20.0, 6.0)], kind="weapons",
                               name="Mortar team")] + enemy(enemy_at)
    return support_scenario([], elements=els, **head)


def test_the_mortar_team_fires_in_its_own_activation_on_target_on_1_to_3_when_it_sees():  # G-37
    g = game(mortar_scenario())
    g.dice.force([3])
    ev = act(g, "allied", {"type": "mortar_fire", "element": "mtr", "at": [10.0, 22.0]})
    scat = [e for e in ev if e["type"] == "roll" and e["purpose"] == "Scatter"][0]
    assert scat["result"] == "on target" and scat["target"] == 3  # G-37: 1-3 when the team sees it
    assert [e for e in ev if e["type"] == "template"][0]["radius"] == 1.0  # G-25 Medium 2"
    assert not [c for c in g.state.clocks if c.kind == "fire_mission"]  # G-37: no delay clock


def test_the_mortar_has_a_minimum_range_and_does_not_fire_after_moving():  # G-37, G-19
    g = game(mortar_scenario())
    with pytest.raises(IllegalAction) as exc:
        act(g, "allied", {"type": "mortar_fire", "element": "mtr", "at": [21.0, 8.0]})
    assert "G-37" in exc.value.clause and "minimum range" in exc.value.reason
    act(g, "allied", {"type": "move", "mode": "patrol", "element": "mtr", "to": [21.0, 6.0]})
    act(g, "insurgent", {"type": "pass"})
    with pytest.raises(IllegalAction) as exc:
        act(g, "allied", {"type": "mortar_fire", "element": "mtr", "at": [10.0, 22.0]})
    assert "moved" in exc.value.reason


def test_an_illumination_round_lights_a_6_inch_circle_for_the_rest_of_the_turn():  # DD-9A.3, G-38
    g = game(mortar_scenario(time_of_day="night_dark"))
    g.dice.force([1])
    ev = act(g, "allied", {"type": "mortar_fire", "element": "mtr", "round": "illumination", "at": [10.0, 22.0]})
    light = [e for e in ev if e["type"] == "illumination"][0]
    assert light["radius"] == 3.0 and not [e for e in ev if e["type"] == "template"]
    assert g.conditions().illuminated == ((10.0, 22.0, 3.0),)
    assert [m for m in g.view("insurgent")["markers"] if m["kind"] == "illumination"]
    _end_turn(g)
    assert g.conditions().illuminated == ()  # G-38: the rest of the current turn only


def test_wp_smoke_blocks_sight_until_the_end_of_the_next_turn():  # G-19, G-38
    g = game(support_scenario(battery()))
    act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "battery_105", "round": "wp",
                      "at": [10.0, 30.0], "stand": "rto"})
    g.dice.force([1])
    _end_turn(g)
    g.dice.force([1])
    ev = _end_turn(g)  # the 105mm lands after 2 turns (DD-8.7)
    assert [e for e in ev if e["type"] == "smoke" and e["kind"] == "wp"]
    assert (10.0, 30.0, 1.5) in g.conditions().smoke
    _end_turn(g)
    assert (10.0, 30.0, 1.5) in g.conditions().smoke  # still there through the next turn
    _end_turn(g)
    assert (10.0, 30.0, 1.5) not in g.conditions().smoke


def test_heavy_shells_leave_a_crater():  # G-01 T12c, G-19
    g = game(support_scenario(battery(asset="heavy_155")))
    act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "heavy_155", "at": [20.0, 20.0],
                      "stand": "rto"})
    g.dice.force([1])
    _end_turn(g)
    g.dice.force([1])
    ev = _end_turn(g)
    change = [e for e in ev if e["type"] == "terrain"][0]
    assert change["kind"] == "crater" and g.state.terrain_changes[0].kind == "crater"
    assert g.view("insurgent")["terrain_changes"][0]["kind"] == "crater"  # everyone sees the crater


def test_danger_close_fires_on_friendly_stands_within_4_inches():  # DD-8.9, G-34
    g = game(support_scenario(battery(asset="mortar_81")))
    act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "mortar_81", "at": [10.0, 14.0],
                      "stand": "rto"})
    g.dice.force([1])
    ev = _end_turn(g)
    dc = [e for e in ev if e["type"] == "roll" and e["purpose"] == "to hit" and "Danger Close" in e["text"]]
    assert len(dc) == 2 and all(len(e["dice"]) == 1 and "DD-8.9" in e["clause"] for e in dc)  # G-34: 1 FP die each


def test_a_mission_near_a_village_lowers_its_civic_drift():  # DD-9B.9
    hut = {"id": "hut", "type": "hootch", "point": [14.0, 30.0], "size": [2.0, 2.0]}
    raw = support_scenario(battery(asset="mortar_81"))
    raw["terrain"] = [hut]
    g = game(raw)
    act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "mortar_81", "at": [10.0, 30.0],
                      "stand": "rto"})
    g.dice.force([1])
    ev = _end_turn(g)
    drift = [e for e in ev if e["type"] == "civic_drift"][0]
    assert drift["drift"] == -2 and g.state.civic_drift == -2


def test_the_enemy_learns_nothing_of_the_call():  # DESIGN §6
    g = game(support_scenario(battery()))
    seq = g.seq_for("insurgent")
    act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "battery_105", "at": [10.0, 30.0],
                      "stand": "rto"})
    seen = g.events_for("insurgent", g.events, seq)
    assert not [e for e in seen if e["type"] in ("fire_mission", "clock")]
    view = g.view("insurgent")
    assert not [m for m in view["markers"] if m["kind"] == "target"] and not view["clocks"]
    assert [m for m in g.view("allied")["markers"] if m["kind"] == "target"]


# -- the scenario's support (DD-8.3) -----------------------------------------------------------------------
@pytest.mark.parametrize("row, words", [
    ({"side": "allied", "asset": "no_gun", "missions": 1}, "unknown asset"),
    ({"side": "insurgent", "asset": "battery_105", "missions": 1}, "has no 105mm"),
    ({"side": "allied", "asset": "mortar_60", "missions": 1}, "team on the table"),
    ({"side": "allied", "asset": "battery_105", "missions": 0}, "at least 1"),
])
def test_support_rows_are_checked(row, words):  # DD-8.3, G-19, G-37
    from game.rules.scenario import ScenarioError, build_scenario

    with pytest.raises(ScenarioError) as exc:
        build_scenario(support_scenario([row]))
    assert words in str(exc.value) and "support[0]" in str(exc.value)


def test_no_artillery_leaves_heavy_guns_out():  # DD-8.3
    from game.rules.scenario import ScenarioError, build_scenario

    with pytest.raises(ScenarioError) as exc:
        build_scenario(support_scenario(battery(), special_rules=["no_artillery"]))
    assert "DD-8.3" in str(exc.value)
    build_scenario(support_scenario(battery(asset="mortar_81"), special_rules=["no_artillery"]))  # mortars stay


def test_a_call_from_under_a_blind_keeps_the_blind():  # DD-4.11, DD-8.6: a radio call gives nothing away
    raw = support_scenario(battery(asset="mortar_81"))
    raw["blind"] = [{"id": "B1", "side": "allied", "at": [10.6, 5.0]}]
    for el in raw["element"]:
        if el["id"] == "hq":
            el["blind"] = "B1"
    g = game(raw)
    ev = act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "mortar_81", "at": [20.0, 20.0],
                           "stand": "rto"})
    assert g.state.elements["hq"].blind == "B1" and "B1" in g.state.blinds
    assert not [e for e in ev if e["type"] in ("reveal", "blind_removed")]


def test_a_point_on_the_table_edge_may_be_called():  # DD-8.6: the whole table is a target
    g = game(support_scenario(battery(asset="mortar_81")))
    ev = act(g, "allied", {"type": "call_fire", "element": "hq", "asset": "mortar_81", "at": [20.0, 48.0],
                           "stand": "rto"})
    assert [e for e in ev if e["type"] == "fire_mission"][0]["y"] == 48.0
