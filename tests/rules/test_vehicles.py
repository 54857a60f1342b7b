"""Vehicles (DD chapter 7; DD-5.14; G-01, G-04, G-06, G-14, G-16, G-34): the roster, hulls for line of
sight, movement over the goings, command, views and the vehicle's own fire."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from game.rules import fire, vehicles
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import build_scenario
from tests.builders import element, scenario, stand
from tests.rules.test_armour import make, rec


def test_roster_has_every_vehicle_and_craft_of_g06_and_g14():
    ids = set(vehicles.roster())
    assert {"m113_acav", "m113_apc", "m48a3", "m67_zippo", "m50a1_ontos", "m551_sheridan", "m42_duster", "m41",
            "centurion", "lvtp5", "v100", "m35_truck", "m151_jeep", "pt76", "type63", "t54", "btr50", "btr152",
            "zsu57", "zil_truck", "pbr", "tango", "aspb", "monitor", "ccb", "sampan"} <= ids
    acav = vehicles.roster()["m113_acav"]
    assert (acav.klass, acav.save, acav.hp, acav.capacity) == (2, 4, 2, 3)  # G-06 A
    assert vehicles.roster()["tango"].slat  # DD-7.5


def test_a_game_without_vehicles_keeps_no_vehicle_state():
    raw = scenario([element("sq", "allied", [stand("a", "us_rifle_team", 10, 10)]),
                    element("vc", "insurgent", [stand("v", "vc_rifle_cell", 30, 30)], kind="cell")])
    g = Game(build_scenario(raw), 1)
    assert "vehicles" not in g.state.chapters and vehicles.hulls_now(g) == ()


def test_hulls_now_and_eye_of():
    g = make()
    hulls = {h[6]: h for h in vehicles.hulls_now(g)}
    assert hulls["acav_1"] == (10.0, 6.0, 0.0, 1.91, 1.06, 0.72, "acav_1")  # length along the facing
    assert vehicles.eye_of(g, g.state.stands["tank_1"]) == vehicles.roster()["m48a3"].eye
    assert vehicles.eye_of(g, g.state.stands["rpg_a"]) is None


def test_allied_vehicles_are_always_in_command():
    from game.rules.command import command_status

    g = make("allied")
    st = command_status(g, g.state.elements["tank"])
    assert st["in_command"] and st["clause"] == "G-06; G-16"


MOVE = {"type": "move", "element": "tank", "mode": "patrol"}


def test_road_speed_on_the_road():
    g = make("allied")
    g.act("allied", {**MOVE, "to": [28, 6]})  # G-06: the M48's 12" road speed
    assert g.state.stands["tank_1"].x == 28


def test_paddy_is_the_roster_paddy_figure():
    g = make("allied")  # G-01 T2, G-06: the M48 crosses paddy at 4"
    with pytest.raises(IllegalAction) as err:
        g.check("allied", {**MOVE, "to": [16, 11]})
    assert "G-06" in err.value.clause or "G-01" in err.value.clause
    g.act("allied", {**MOVE, "to": [16, 9.5]})
    assert g.state.stands["tank_1"].y == 9.5


def test_wheels_stop_at_paddy_and_jungle():
    raw = scenario([element("hq", "allied", [stand("pc", "us_platoon_commander", 2, 2)], kind="hq"),
                    element("truck", "allied", [stand("tr", "m35_truck", 10, 5, 0)], kind="vehicle"),
                    element("vc", "insurgent", [stand("v", "vc_rifle_cell", 40, 40)], kind="cell")],
                   [{"id": "p", "type": "paddy", "polygon": [[0, 8], [48, 8], [48, 14], [0, 14]]}])
    g = Game(build_scenario(raw), 1)
    g.state.sides["allied"].cp = 6
    with pytest.raises(IllegalAction) as err:  # G-01 T2: paddy is impassable to wheels
        g.check("allied", {"type": "move", "element": "truck", "mode": "patrol", "to": [10, 10]})
    assert "impassable" in err.value.reason


def test_vehicles_do_not_sprint():
    g = make("allied")
    with pytest.raises(IllegalAction) as err:
        g.check("allied", {**MOVE, "mode": "sprint", "to": [20, 6]})
    assert err.value.clause == "G-06"
    assert not [a for a in g.legal_actions("allied") if a.get("element") == "tank" and a.get("mode") == "sprint"]


def test_moving_fast_makes_it_harder_to_hit():
    # G-34: a target vehicle that moved more than half its speed this turn: -1 to the AT shot
    g = make("allied")
    g.act("allied", {**MOVE, "to": [25, 6]})
    from game.rules import armour

    mods = armour.at_modifiers(g, g.state.elements["rpg"], g.state.stands["rpg_a"], g.state.stands["tank_1"])
    assert [m.clause for m in mods] == ["G-34"]


def test_vehicle_fires_its_roster_weapons_at_infantry():
    # G-06: the ACAV's .50 (5 FP) and two M60s (4 FP each) through the ordinary fire path
    g = make("allied")
    plan = g.check("allied", {"type": "fire", "element": "acav", "target": "rpg_a"}).detail  # the closest
    assert plan.dice == 13
    assert fire.stand_fp(g, g.state.stands["acav_1"]) == 13


def test_views_hide_the_passengers_from_the_enemy():
    # DESIGN §6, DD-7.12: the enemy sees the hull, never who is inside
    g = make("allied")
    mine = g.view("allied")
    theirs = g.view("insurgent")
    acav_mine = next(s for s in mine["stands"] if s["id"] == "acav_1")
    acav_theirs = next(s for s in theirs["stands"] if s["id"] == "acav_1")
    assert acav_mine["vehicle"]["passengers"] == ["sq1"]
    assert "passengers" not in acav_theirs["vehicle"] and acav_theirs["vehicle"]["hp"] == 2
    assert next(e for e in mine["elements"] if e["id"] == "sq1")["embarked"] == "acav_1"
    assert not any(e["id"] == "sq1" for e in theirs["elements"])
    assert not any(s["element"] == "sq1" for s in theirs["stands"])
    assert "sq1" not in str(theirs)


def test_a_wreck_is_a_public_marker():
    g = make()
    rec(g, "acav_1").wreck = True
    g.state.stands["acav_1"].alive = False
    view = g.view("insurgent")
    assert [m["kind"] for m in view["markers"] if m["id"] == "wreck_acav_1"] == ["wreck"]


def test_scenario_refuses_a_vehicle_stand_outside_a_vehicle_element():
    from game.rules.scenario import ScenarioError

    raw = scenario([element("sq", "allied", [stand("t", "m48a3", 10, 10)]),
                    element("vc", "insurgent", [stand("v", "vc_rifle_cell", 30, 30)], kind="cell")])
    with pytest.raises(ScenarioError):
        build_scenario(raw)


def test_a_read_changes_nothing():
    g = make("allied")
    before = g.hash()
    g.legal_actions("allied")
    g.view("insurgent")
    vehicles.hulls_now(g)
    assert g.hash() == before


def _unused() -> SimpleNamespace:
    return SimpleNamespace()


def test_four_armour_classes_and_every_roster_row_names_one():  # DD-7.1; DD-5.7; DD-7.11; G-04; G-06
    from game.rules import armour

    classes = armour.tables().classes
    assert sorted(classes) == [1, 2, 3, 4]  # DD-7.1: four Armor Classes
    assert [classes[c].save for c in (1, 2, 3, 4)] == [6, 4, 4, 3]  # DD-5.7: Light 4+, Medium 4+, Heavy 3+
    for vt in vehicles.roster().values():  # DD-7.11: the rosters (G-06 A and B, G-14), each row classed
        assert vt.klass in classes and vt.hp >= 1 and vt.clause
        assert vt.save == classes[vt.klass].save, vt.id
    assert {vt.side for vt in vehicles.roster().values()} == {"allied", "insurgent"}  # both rosters, A and B
