"""Weather (DD-9A.5, DD-3.8; G-07, C-25): the Tropical Weather Table rolled at setup, and every effect of
each of its rows, each at its edge, played through a Game.

Each test is a tiny table (tests.builders): the rule under test, the actions, the end state checked.
"""

from __future__ import annotations

import shutil

import pytest

from game.rules import fire_support, weather
from game.rules.data import DATA_DIR, DataError
from game.rules.errors import IllegalAction
from game.rules.fire_support.air import delay_of
from game.rules.game import Game
from game.rules.scenario import ScenarioError, build_scenario
from game.rules.turn import start_turn
from game.terrain import sight
from tests.builders import element, enemy, game, platoon, scenario, stand

G07 = {1: "monsoon", 2: "rain", 3: "mist", 4: "overcast", 5: "clear", 6: "heat"}
"""G-07: the d6 face of each weather."""
STREAM = {"id": "s1", "type": "stream", "polygon": [[8, 13], [40, 13], [40, 14], [8, 14]]}
WET = {"id": "s2", "type": "stream", "polygon": [[30, 41], [45, 41], [45, 42], [30, 42]]}


def squad_game(weather_id: str = "clear", terrain=(), **head) -> Game:
    """The platoon (its squad at (10, 10)) and a VC cell far off at (40, 40)."""
    return game(scenario(platoon() + enemy(), list(terrain), weather=weather_id, **head))


def rolled_game(seed: int, **head) -> Game:
    return Game(build_scenario(scenario(platoon() + enemy(), weather="roll", **head)), seed)


def weather_rolls(g: Game) -> list[dict]:
    return [e for e in g.events if e["type"] == "roll" and e["purpose"] == "Tropical Weather"]


def winded(events) -> list[dict]:
    return [e for e in events if e["type"] == "status" and e.get("status") == "winded" and e["on"]]


# -- the table ------------------------------------------------------------------------------------------
def test_the_table_has_each_face_once_and_a_row_for_each_sight_weather():  # DD-9A.5; G-07
    t = weather.load_weather()
    assert {t.rolled(face).id: face for face in range(1, 7)} == {w: f for f, w in G07.items()}
    assert set(t.weather) == set(sight().weather)  # one place for each thing: the caps are sight.toml's
    assert all(w.clause.strip() for w in t.weather.values())


def test_a_table_missing_a_face_is_refused_naming_the_file(tmp_path):  # DD-9A.5; G-07
    shutil.copy(DATA_DIR / "weather.toml", tmp_path / "weather.toml")
    p = tmp_path / "weather.toml"
    p.write_text(p.read_text().replace("roll = 6", "roll = 5"))
    with pytest.raises(DataError, match=r"weather\.toml.*each d6 face once"):
        weather.load_weather(tmp_path)


# -- the roll at setup ---------------------------------------------------------------------------------------
def test_a_rolled_weather_is_an_explained_roll_before_the_first_turn():  # DD-9A.5; G-07
    g = rolled_game(3)
    (roll,) = weather_rolls(g)
    assert g.events[0] is roll and g.events[1]["type"] == "turn"  # at setup, before turn 1
    face = roll["dice"][0]
    assert g.state.weather == G07[face] == roll["result"] and "DD-9A.5" in roll["clause"]
    assert roll["modifiers"] == [] and f"rolled {face}" in roll["text"]
    again = rolled_game(3)  # determinism: the same seed rolls the same weather and the same game
    assert again.state.weather == g.state.weather and again.hash() == g.hash()


def test_the_seeds_roll_every_face_of_the_table():  # DD-9A.5: 1d6 from the game's rules stream
    seen = {weather_rolls(rolled_game(seed))[0]["dice"][0] for seed in range(1, 40)}
    assert seen == set(G07)


@pytest.mark.parametrize("face", sorted(G07))
def test_each_face_gives_its_row(face):  # G-07 (1)-(6)
    g = Game(build_scenario(scenario(platoon() + enemy(), weather="roll")), 1, start=False)
    g.state.weather = "roll"
    g.dice.force([face])
    weather.roll_at_setup(g)
    assert g.state.weather == G07[face] and weather.rolled(g) == face


def test_the_view_says_which_weather_was_rolled_and_what_it_does():  # DD-9A.5; G-07
    g = next(g for g in (rolled_game(s) for s in range(1, 40)) if g.state.weather == "monsoon")
    sc = g.view("insurgent")["scenario"]
    assert sc["weather"] == "monsoon"
    cond = sc["conditions"]["weather"]
    assert cond["rolled"] == 1 and cond["name"] == "Monsoon Downpour"
    assert any("grounded" in t for t in cond["effects"]) and any("3\"" in t for t in cond["effects"])


def test_a_clear_day_view_is_as_it_was():  # the goldens: nothing added where nothing changes
    sc = squad_game().view("allied")["scenario"]
    assert sc["weather"] == "clear" and "conditions" not in sc


def test_a_scenario_may_roll_but_not_name_an_unknown_weather():  # DD-9A.5
    with pytest.raises(ScenarioError, match=r"scenario\.weather.*unknown weather 'drizzle'"):
        build_scenario(scenario(platoon() + enemy(), weather="drizzle"))
    assert build_scenario(scenario(platoon() + enemy(), weather="roll")).weather == "roll"


def test_a_heliborne_insertion_does_not_roll_the_weather():  # DD-3.8: a rolled monsoon would ground it
    raw = scenario(platoon() + enemy(), weather="roll")
    raw["scenario"]["insertion"] = {"kind": "heliborne", "lz": [10, 8]}
    with pytest.raises(ScenarioError, match=r"insertion\.kind.*rolled weather"):
        build_scenario(raw)


# -- line of sight ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("wid, cap", [("monsoon", 3.0), ("rain", 12.0), ("overcast", None), ("clear", None),
                                      ("heat", None)])
def test_each_weathers_sight_cap(wid, cap):  # DD-3.8; G-07 (1)-(6)
    g = squad_game(wid)
    assert g.conditions().weather_cap()[0] == cap


def test_heavy_rain_sees_12_inches_and_no_further():  # G-07 (2)
    near = [element("vc", "insurgent", [stand("v", "vc_rifle_cell", 10, 22.5, 270)], kind="cell")]
    far = [element("vc", "insurgent", [stand("v", "vc_rifle_cell", 10, 23.5, 270)], kind="cell")]
    seen = []
    for els in (near, far):
        g = game(scenario(platoon() + els, weather="rain"))
        seen.append(g.line_of_sight(g.state.stands["a"], g.state.stands["v"]))
    assert seen[0].visible and not seen[1].visible and seen[1].limit == "rain"


def test_the_mist_lifts_turn_by_turn():  # G-07 (3): 6" on turns 1-2, 12" on 3-4, then clear
    g = squad_game("mist")
    caps = {}
    for turn in range(1, 7):
        g.state.turn = turn
        caps[turn] = g.conditions().weather_cap()[0]
    assert caps == {1: 6.0, 2: 6.0, 3: 12.0, 4: 12.0, 5: None, 6: None}


def test_weather_caps_override_terrain():  # C-25: the monsoon's 3" holds along a river's open axis too
    g = squad_game("monsoon")
    a, b = g.state.stands["a"], g.state.stands["b"]  # 2.4" apart, centre to centre: in sight
    assert g.line_of_sight(a, b).visible
    assert not g.line_of_sight(a, g.state.stands["pc"]).visible  # 5" away


# -- air support ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("wid", sorted(G07.values()))
def test_only_the_monsoon_grounds_the_air(wid):  # DD-3.8; G-07 (1)
    assert fire_support.air_grounded(squad_game(wid)) is (wid == "monsoon")


def test_a_grounded_strike_is_refused():  # DD-3.8
    from tests.rules import test_air

    g = test_air.air_game(weather="monsoon")
    with pytest.raises(IllegalAction) as err:
        g.act("allied", test_air.NAPALM)
    assert err.value.clause == "DD-3.8"


@pytest.mark.parametrize("wid, extra", [("rain", 1), ("overcast", 1), ("mist", 1), ("clear", 0), ("heat", 0)])
def test_the_air_delay_clock(wid, extra):  # G-07 (2), (3), (4): +1
    from tests.rules import test_air

    g = test_air.air_game(weather=wid)
    a = fire_support.missions.rules(g).assets["cas_napalm"]
    ev = g.act("allied", test_air.NAPALM)
    call = [e for e in ev if e["type"] == "fire_mission" and e["phase"] == "call"][0]
    assert call["turns"] == a.delay + extra == delay_of(g, a)
    assert [c.turns for c in g.state.clocks if c.id == call["mission"]] == [a.delay + extra]


def test_the_mist_delays_the_air_only_while_it_caps_sight():  # G-07 (3): "while LOS is below 24\""
    g = squad_game("mist")
    g.state.turn = 4
    assert weather.effect(g, "air_delay") == 1
    g.state.turn = 5
    assert weather.effect(g, "air_delay") == 0


# -- movement -------------------------------------------------------------------------------------------------
SPRINT_OPEN = {"type": "move", "element": "sq1", "mode": "sprint", "to": [18, 9.5]}


def test_the_monsoon_makes_streams_unfordable():  # G-07 (1)
    across = {"type": "move", "element": "sq1", "mode": "patrol", "to": [10, 12.5]}
    g = squad_game("clear", terrain=[STREAM])
    g.act("allied", across)  # a stream is fordable: 3" (G-01)
    assert g.state.stands["a"].y == 13.0  # the element's centre moved 3"
    g = squad_game("monsoon", terrain=[STREAM])
    with pytest.raises(IllegalAction) as err:
        g.act("allied", across)
    assert "stream" in err.value.reason and err.value.clause == "DD-3.8; G-07 (1)"
    g.act("allied", {"type": "move", "element": "sq1", "mode": "patrol", "to": [14, 10]})  # dry ground: a move


def test_open_ground_is_mud_for_a_sprint_in_the_monsoon():  # G-07 (1); DD-3.6
    assert not winded(squad_game("clear").act("allied", SPRINT_OPEN))
    g = squad_game("monsoon")
    (ev,) = winded(g.act("allied", SPRINT_OPEN))
    assert "Mud" in ev["text"] and g.state.elements["sq1"].winded


def test_scorching_heat_winds_any_single_sprint():  # G-07 (6); DD-3.6
    g = squad_game("heat")
    assert winded(g.act("allied", SPRINT_OPEN)) and g.state.elements["sq1"].winded_slow
    g = squad_game("heat")
    assert not winded(g.act("allied", {**SPRINT_OPEN, "mode": "patrol", "to": [14, 10]}))  # a Patrol Move: no


# -- artillery ------------------------------------------------------------------------------------------------
def _mortar(wid: str, dice: list[int]) -> dict:
    from tests.rules.test_fire_support import mortar_scenario

    g = game(mortar_scenario(weather=wid))
    g.dice.force(dice)
    ev = g.act("allied", {"type": "mortar_fire", "element": "mtr", "at": [10.0, 22.0]})
    return [e for e in ev if e["type"] == "roll" and e["purpose"] == "Scatter"][0]


def test_monsoon_artillery_is_on_target_only_on_a_1():  # G-07 (1); DD-8.8
    assert _mortar("clear", [2])["result"] == "on target"
    wet = _mortar("monsoon", [2, 3, 3, 3])
    assert wet["result"] == "drift" and wet["target"] == 1
    assert wet["modifiers"][0]["clause"] == "DD-3.8; G-07 (1)"
    assert _mortar("monsoon", [1])["result"] == "on target"


# -- noise ----------------------------------------------------------------------------------------------------
def _blind_sprint(wid: str, to=(40, 32)) -> Game:
    raw = scenario(platoon() + [element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 40, 40, 270)],
                                        kind="cell", blind="i1")], [WET], weather=wid, first_side="insurgent")
    raw["blind"] = [{"id": "i1", "side": "insurgent", "at": [40, 40]}]
    g = Game(build_scenario(raw), 1, start=False)
    start_turn(g)
    g.act("insurgent", {"type": "blind_move", "blind": "i1", "mode": "sprint", "to": list(to)})
    return g


@pytest.mark.parametrize("wid, masked", [("monsoon", True), ("rain", True), ("clear", False), ("mist", False)])
def test_rain_masks_a_sprints_noise(wid, masked):  # G-07 (1), (2); DD-4.9 (b)
    g = _blind_sprint(wid)
    assert g.state.blinds["i1"].state == ("blind" if masked else "echo")


def test_crossing_water_still_makes_noise_in_the_rain():  # G-07 (2) masks a Sprint only; DD-4.9 (b)
    g = _blind_sprint("rain", to=(40, 42.5))
    assert g.state.blinds["i1"].state == "echo"
