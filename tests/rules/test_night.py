"""Night and the light (DD-9A.1–9A.4; G-23, G-38, C-04): time of day, trip flares, star shells' circles
and Muzzle Bloom, played through a Game, and the trip flares' fog of war.

Each test is a tiny table (tests.builders): the rule under test, the actions, the end state checked.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from game.rules import detection, night
from game.rules.data import load_rulebook
from game.rules.errors import IllegalAction
from game.rules.fire_support.air import air_on_call
from game.rules.fire_support.missions import Light, fs_state
from game.rules.game import Game
from game.rules.scenario import ScenarioError, build_scenario
from game.rules.turn import start_turn
from tests.builders import element, game, platoon, scenario, stand

FLARE = (30.0, 34.5)
"""A flare 2.5" short of where the VC cell ends its move (its base's near edge 1.87" from it)."""


def cell(at=(30.0, 40.0), eid: str = "vc", **extra) -> dict:
    return element(eid, "insurgent", [stand(f"{eid}_a", "vc_rifle_cell", at[0], at[1], 270)], kind="cell", **extra)


def watcher(at=(30.0, 26.0)) -> dict:
    return element("ob", "allied", [stand("ob_a", "us_rifle_team", at[0], at[1], 90)], name="Listening post")


def night_game(elements=None, flares=(FLARE,), to_place=None, time="night_dark", first="insurgent", blinds=(),
               width=48, height=48) -> Game:
    els = platoon() + [watcher()] + [cell()] if elements is None else elements
    head = {"time_of_day": time, "first_side": first}
    if to_place is not None:
        head["trip_flares"] = to_place
    raw = scenario(els, width=width, height=height, **head)
    raw["trip_flare"] = [{"at": list(at)} for at in flares]
    raw["blind"] = list(blinds)
    g = game(raw)
    g.state.sides["insurgent"].ambush_tokens = 0  # no ambush in these tests (DD-2.25)
    return g


def of(events, etype: str) -> list[dict]:
    return [e for e in events if e["type"] == etype]


def vc_move(g: Game, to=(30.0, 37.0)) -> list[dict]:
    return g.act("insurgent", {"type": "move", "element": "vc", "mode": "patrol", "to": list(to)})


def end_turn(g: Game) -> None:
    turn = g.state.turn
    while g.state.turn == turn:
        g.act(g.state.to_act, {"type": "pass"})


# -- the tables and the scenario ----------------------------------------------------------------------------
def test_the_g38_count_by_table():  # G-38: 3 on a 4'x4' table, 4 on a 6'x4'
    t = night.load_night()
    assert (t.flares_for(48, 48), t.flares_for(72, 48), t.flares_for(96, 48), t.flares_for(24, 24)) == (3, 4, 4, 3)
    assert t.flare.trigger == 2.0 and t.flare.radius == 3.0  # DD-9A.2: within 2"; a 6" circle


def test_a_scenario_may_not_hold_more_flares_than_g38_allows():  # G-38
    raw = scenario(platoon() + [cell()], trip_flares=2)
    raw["trip_flare"] = [{"at": [10, 30]}, {"at": [20, 30]}]
    with pytest.raises(ScenarioError, match=r"scenario\.trip_flares.*at most 3 \(G-38\)"):
        build_scenario(raw)
    raw["scenario"]["table"] = {"width": 72, "height": 48}
    assert len(build_scenario(raw).trip_flares) == 2  # a 6'x4' table holds 4


def test_a_flare_off_the_table_is_named_by_its_field():  # DD-9A.2
    raw = scenario(platoon() + [cell()])
    raw["trip_flare"] = [{"at": [10, 30]}, {"id": "wire", "at": [60, 30]}]
    with pytest.raises(ScenarioError, match=r"trip_flare\[1\]\.at.*off the 48x48 table"):
        build_scenario(raw)


def test_a_game_without_flares_keeps_its_state():  # the goldens: no chapter state appears
    g = game(scenario(platoon() + [cell()], time_of_day="night_dark"))
    assert "night" not in g.state.chapters and "weather" not in g.state.chapters


# -- placing flares at setup ------------------------------------------------------------------------------
def test_the_allied_side_places_its_flares_at_setup_free_and_secret():  # DD-9A.2; G-38
    g = night_game(flares=(), to_place=2, first="allied")
    (offer,) = [a for a in g.legal_actions("allied") if a["type"] == "place_trip_flare"]
    assert offer["cost"] == 0 and offer["clause"] == "DD-9A.2; G-38"
    ev = g.act("allied", {"type": "place_trip_flare", "at": [30, 34.5]})
    assert g.state.to_act == "allied"  # free: the impulse goes on
    assert g.events_for("insurgent", ev) == []  # the Insurgent hears nothing
    g.act("allied", {"type": "place_trip_flare", "at": [12, 30]})
    with pytest.raises(IllegalAction, match="no trip flares left"):
        g.act("allied", {"type": "place_trip_flare", "at": [20, 30]})
    assert [m["id"] for m in g.view("allied")["markers"] if m["kind"] == "trip_flare"] == ["placed1", "placed2"]
    assert not [m for m in g.view("insurgent")["markers"] if m["kind"] == "trip_flare"]


def test_flares_are_placed_only_before_the_allied_side_first_activates():  # DD-9A.2 "at setup"
    g = night_game(flares=(), to_place=1, first="allied")
    g.act("allied", {"type": "hold", "element": "ob"})
    g.act("insurgent", {"type": "pass"})
    assert not [a for a in g.legal_actions("allied") if a["type"] == "place_trip_flare"]
    with pytest.raises(IllegalAction) as err:
        g.act("allied", {"type": "place_trip_flare", "at": [30, 30]})
    assert "at setup" in err.value.reason and err.value.clause == "DD-9A.2; G-38"


def test_the_insurgent_places_no_flares():  # DD-9A.2: Free World perimeters and ambushes
    g = night_game(flares=(), to_place=1, first="insurgent")
    with pytest.raises(IllegalAction) as err:
        g.act("insurgent", {"type": "place_trip_flare", "at": [30, 30]})
    assert err.value.clause == "DD-9A.2"


# -- a flare fires ----------------------------------------------------------------------------------------
def test_an_enemy_stand_moving_within_2_inches_sets_it_off():  # DD-9A.2; G-38
    g = night_game()
    ev = vc_move(g)
    (fl,) = of(ev, "trip_flare")
    assert (fl["x"], fl["y"], fl["radius"], fl["by"], fl["flare"]) == (30.0, 34.5, 3.0, "vc_a", "flare1")
    assert [(e["x"], e["y"]) for e in of(g.events_for("insurgent", ev), "trip_flare")] == [FLARE]  # public now
    assert (30.0, 34.5, 3.0) in g.conditions().illuminated
    for side in ("allied", "insurgent"):
        lit = [m for m in g.view(side)["markers"] if m["kind"] == "illumination"]
        assert lit == [{"id": "flare1", "kind": "illumination", "x": 30.0, "y": 34.5, "radius": 3.0}]
    assert not [m for m in g.view("allied")["markers"] if m["kind"] == "trip_flare"]  # spent


def test_a_move_that_stays_beyond_2_inches_does_not():  # DD-9A.2: the edge
    g = night_game(flares=((30.0, 34.2),))  # the base's near edge stops 2.17" short
    assert not of(vc_move(g), "trip_flare") and g.conditions().illuminated == ()


def test_an_allied_move_sets_off_no_allied_flare():  # DD-9A.2: an enemy stand or Blind
    g = night_game(flares=((30.0, 24.0),), first="allied")
    assert not of(g.act("allied", {"type": "move", "element": "ob", "mode": "patrol", "to": [30, 25]}), "trip_flare")


def test_the_light_shows_the_intruder_by_daylight():  # DD-9A.2: LOS becomes standard daylight in the circle
    g = night_game()
    look = lambda: g.line_of_sight(g.state.stands["ob_a"], g.state.stands["vc_a"])  # noqa: E731
    g.state.stands["vc_a"].y = 37.0  # where the move will end, 11" off: dark night sees 3"
    assert not look().visible and look().limit == "night_dark"
    g.state.stands["vc_a"].y = 40.0
    vc_move(g)
    assert look().visible


def test_the_light_lasts_the_rest_of_the_turn_and_fires_once():  # G-38; DD-9A.2
    g = night_game()
    vc_move(g)
    end_turn(g)
    assert g.conditions().illuminated == () and not of(vc_move(g, (30.0, 36.0)), "trip_flare")


def test_a_blind_that_trips_a_flare_becomes_an_echo():  # DD-9A.2; DD-4.9 (b)
    els = platoon() + [watcher(), cell(blind="i1")]
    g = night_game(els, blinds=[{"id": "i1", "side": "insurgent", "at": [30, 40]}], flares=((30.0, 35.0),))
    ev = g.act("insurgent", {"type": "blind_move", "blind": "i1", "mode": "patrol", "to": [30, 37.5]})
    (fl,) = of(ev, "trip_flare")
    assert fl["by"] == "Blind i1" and g.state.blinds["i1"].state == "echo"
    assert "vc_a" not in json.dumps(g.events_for("allied", ev))  # the marker, never what is under it


def test_units_moving_in_the_light_lose_their_cover():  # DD-9A.2: "moving units lose cover bonuses"
    g = night_game()
    vc, ob = g.state.stands["vc_a"], g.state.stands["ob_a"]
    assert not night.loses_cover(g, vc)  # no light yet
    vc_move(g)
    assert night.loses_cover(g, vc)  # it moved, and stands in the light
    g.state.elements["ob"].move_actions = 1
    assert not night.loses_cover(g, ob)  # moved, but outside the circle


# -- fog of war --------------------------------------------------------------------------------------------------
def _secret_game(with_flares: bool) -> Game:
    g = night_game(flares=((12.0, 30.0),) if with_flares else (), to_place=2 if with_flares else 0, first="allied")
    if with_flares:
        g.act("allied", {"type": "place_trip_flare", "at": [20.25, 33.75]})
    g.act("allied", {"type": "move", "element": "sq1", "mode": "patrol", "to": [14, 12]})
    vc_move(g, (36.0, 40.0))  # the cell moves, far from every flare
    return g


def test_the_insurgent_never_learns_of_an_unfired_flare():  # DD-9A.2; DESIGN §6
    secret, plain = _secret_game(True), _secret_game(False)
    assert secret.view("insurgent") == plain.view("insurgent")  # its view, hash included
    assert secret.events_for("insurgent", secret.events) == plain.events_for("insurgent", plain.events)
    assert secret.legal_actions("allied") != [] and \
        secret.legal_actions("insurgent") == plain.legal_actions("insurgent")
    seen = json.dumps([secret.view("insurgent"), secret.events_for("insurgent", secret.events)])
    assert "tf1" not in seen and "placed1" not in seen and "20.25" not in seen and "33.75" not in seen
    for g in (secret, plain):  # a refusal says the same with or without flares on the table
        g.act("allied", {"type": "pass"})
    refusals = []
    for g in (secret, plain):
        with pytest.raises(IllegalAction) as err:
            g.act("insurgent", {"type": "place_trip_flare", "at": [12.0, 30.0]})
        refusals.append((err.value.reason, err.value.clause))
    assert refusals[0] == refusals[1]


def test_a_fired_flare_is_public_and_its_name_counts_only_the_fired():  # DD-9A.2; DESIGN §6
    g = night_game(flares=((5.0, 45.0), (6.0, 45.0), FLARE))
    ev = g.events_for("insurgent", vc_move(g))
    (fl,) = of(ev, "trip_flare")
    assert fl["flare"] == "flare1" and "tf3" not in json.dumps(ev)


# -- time of day (DD-9A.1, G-23) --------------------------------------------------------------------------------
def _poor(time: str, target_at, lit=False) -> set[str]:
    from tests.rules.test_detection import echo_game

    g = echo_game(time=time, target_at=target_at)
    if lit:
        fs_state(g).lights.append(Light("light_t", target_at[0], target_at[1], 3.0, g.state.turn))
    sq = g.state.elements["sq"]
    return {m.name for m in detection.spot_modifiers(g, sq, g.state.living(sq), g.state.blinds["i1"])}


def test_dawn_and_dusk_spotting_is_harder_only_beyond_6_inches():  # G-23; DD-9A.1
    assert _poor("dusk", (10.0, 16.0)) == set()  # 5.45" from the nearest base to the marker's edge
    assert _poor("dawn", (10.0, 18.0)) == {"poor light (dawn)"}  # 7.45"
    assert _poor("night_moonlit", (10.0, 16.0)) == {"poor light (night_moonlit)"}  # at night at any range


def test_no_night_penalty_into_a_lit_circle():  # G-23; DD-9A.3: spotted as if in daylight
    assert _poor("night_dark", (10.0, 18.0), lit=True) == set()


def test_by_night_only_the_ac47_and_gunships_fly():  # G-23; DD-9A.1
    from tests.rules import test_air

    g = test_air.air_game(time_of_day="night_dark")
    assert air_on_call(g, "allied") == []
    with pytest.raises(IllegalAction) as err:
        g.act("allied", test_air.NAPALM)
    assert err.value.clause == "G-23; DD-9A.1"
    assert [a.id for a, _ in air_on_call(test_air.air_game(support=("gunship", "spooky"), time_of_day="night_dark"),
                                         "allied")] == ["gunship", "spooky"]
    assert [a.id for a, _ in air_on_call(test_air.air_game(time_of_day="dusk"), "allied")] == ["cas_napalm"]


def test_the_view_says_what_the_night_does():  # DD-9A.1; G-23
    cond = night_game().view("insurgent")["scenario"]["conditions"]["time_of_day"]
    assert cond["id"] == "night_dark" and "command radius 4\"" in cond["effects"]


# -- Muzzle Bloom (DD-9A.4, DD-4.40, C-04) --------------------------------------------------------------------
MG = element("wpn", "allied", [stand("wpn_mg", "us_mg_team", 10, 10)], kind="weapons", name="M60")
RIFLES = element("sq", "allied", [stand("sq_a", "us_rifle_team", 10, 10)], name="Rifles")


def _fire(shooter: dict, time: str = "night_dark", book=None) -> tuple[Game, list[dict]]:
    els = [element("hq", "allied", [stand("pc", "us_platoon_commander", 4, 4)], kind="hq"), shooter,
           cell(at=(10.0, 12.5))]
    g = Game(build_scenario(scenario(els, time_of_day=time), book=book), 1, book=book, start=False)
    g.dice.force([4])
    start_turn(g)
    g.dice.force([1] * 12)
    ev = g.act("allied", {"type": "fire", "element": shooter["id"], "target": "vc_a"})
    return g, ev


def bloomed(ev) -> bool:
    return any(e.get("status") == "illuminated" for e in ev)


def test_a_night_machine_gun_blooms_and_its_base_is_lit():  # DD-9A.4; C-04: to the end of the turn
    g, ev = _fire(MG)
    assert bloomed(ev)
    (x, y, r) = night.bloom_lights(g)[0]
    assert (x, y) == (10, 10) and r == pytest.approx(1.17, abs=0.01) and (x, y, r) in g.conditions().illuminated
    end_turn(g)
    assert night.bloom_lights(g) == ()


@pytest.mark.parametrize("shooter, time", [(MG, "day"), (MG, "dusk"), (RIFLES, "night_dark")])
def test_no_bloom_by_day_or_without_an_automatic_weapon(shooter, time):  # DD-9A.4: at night, automatic weapons
    assert not bloomed(_fire(shooter, time)[1])


def test_a_flash_suppressor_stops_the_bloom():  # DD-9A.4: "without a flash suppressor"
    book = load_rulebook()
    t = night.load_night(book=book)
    book.extra.setdefault("chapters", {})["night"] = dataclasses.replace(
        t, bloom=dataclasses.replace(t.bloom, suppressed=["us_mg_team"]))
    assert not bloomed(_fire(MG, book=book)[1])


def test_a_saved_game_keeps_its_flares_and_its_weather():  # DD-9A.2; DD-9A.5: the state restores whole
    raw = scenario(platoon() + [watcher(), cell()], time_of_day="night_dark", first_side="insurgent", weather="roll")
    raw["trip_flare"] = [{"at": list(FLARE)}]
    g = game(raw)
    back = Game.restore(g.scenario, g.snapshot())
    assert back.hash() == g.hash() and back.state.chapters == g.state.chapters
    assert of(vc_move(back), "trip_flare") and back.state.chapters["night"].flares[0].fired == 1
