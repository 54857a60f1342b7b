"""Heliborne insertions (DD-3.5, G-27): the slicks on the LZ on Turn 1, the troops on the LZ, the lift-off
at the end of the landing impulse; the scenario's ``[scenario.insertion]`` validated field by field.

Rule / actions / expected end state in each test's docstring or comments.
"""

from __future__ import annotations

import math

import pytest

from game.rules.data import rulebook
from game.rules.game import Game
from game.rules.insertion import heliborne_rules, slicks_needed
from game.rules.scenario import ScenarioError, build_scenario
from tests.builders import element, enemy, game, platoon, scenario, stand

LZ = [22.0, 9.0]


def one_squad() -> list[dict]:
    """A rifle squad (a Small squad leader, two Medium fireteams): one slick's load (G-27)."""
    return [element("sq1", "allied", [stand("sl", "us_squad_leader", 22, 7.5), stand("a", "us_rifle_team", 20.8, 9),
                                      stand("b", "us_rifle_team", 23.2, 9)], name="1st Squad")]


def heliborne(force, first="allied", **ins) -> dict:
    raw = scenario(force + enemy((30.0, 40.0)), first_side=first)
    raw["scenario"]["insertion"] = {"kind": "heliborne", "lz": LZ, **ins}
    return raw


def slicks(view: dict) -> list[dict]:
    return [m for m in view["markers"] if m["kind"] == "helicopter" and m.get("purpose") == "insertion"]


def test_one_slick_sits_at_the_lz_in_the_turn_1_view():  # DD-3.5; G-27 (2 Medium + 1 Small)
    g = game(heliborne(one_squad()), dice=[4])
    assert g.state.turn == 1 and g.state.phase == "engagement"
    for side in ("allied", "insurgent"):  # public, as the landed Dustoff is
        view = g.view(side)
        assert slicks(view) == [{"id": "slick1", "kind": "helicopter", "purpose": "insertion",
                                 "model": heliborne_rules().model, "x": 22.0, "y": 9.0,
                                 "radius": heliborne_rules().footprint}]
    note = [e for e in g.events if e["type"] == "note" and "Heliborne insertion" in e["text"]]
    assert note and note[0]["clause"] == "DD-3.5; G-27" and note[0]["elements"] == ["sq1"]


def test_a_bigger_lift_spreads_its_slicks_inside_the_lz_and_the_troops_stand_on_it():  # DD-3.5; G-27
    raw = heliborne(platoon(pc_at=(20.0, 8.0), squad_at=(24.0, 10.0)))
    g = game(raw, dice=[4])
    r = heliborne_rules()
    # HQ (PC, RTO: Small) and a squad (SL Small, 2 Medium): 5 stands, 3 places a slick -> 2 slicks
    marks = slicks(g.view("allied"))
    assert [m["id"] for m in marks] == ["slick1", "slick2"]
    for m in marks:
        assert math.hypot(m["x"] - LZ[0], m["y"] - LZ[1]) + m["radius"] <= r.lz_radius + 1e-9
    mine = [st for st in g.view("allied")["stands"] if st["side"] == "allied"]
    assert len(mine) == 5
    for st in mine:
        assert math.hypot(st["x"] - LZ[0], st["y"] - LZ[1]) <= r.lz_radius  # DD-3.5: they start on the LZ


def test_the_slicks_leave_at_the_end_of_the_allied_landing_impulse():  # G-27 "at the end of that impulse"
    g = game(heliborne(one_squad()), dice=[4])
    ev = g.act("allied", {"type": "hold", "element": "sq1"})
    assert not slicks(g.view("insurgent"))
    off = [e for e in ev if e["type"] == "note" and "lifts off" in e["text"]]
    assert off and off[0]["clause"] == "G-27"


def test_when_the_insurgent_moves_first_the_slicks_wait_for_the_allied_impulse():  # G-27; DD-2.5
    g = game(heliborne(one_squad(), first="insurgent"), dice=[4])
    assert g.state.to_act == "insurgent"
    g.act("insurgent", {"type": "hold", "element": "vc"})
    assert slicks(g.view("allied"))  # the Insurgent's impulse is not the landing impulse
    g.act("allied", {"type": "hold", "element": "sq1"})
    assert not slicks(g.view("allied"))


def test_a_phase_ended_on_two_passes_still_sends_them_off_at_the_end_of_turn_1():  # G-27
    g = game(heliborne(one_squad(), first="insurgent"), dice=[4])
    g.act("insurgent", {"type": "pass"})
    g.act("allied", {"type": "pass"})  # two passes: straight to Phase 3, no impulse opened after it
    assert g.state.turn == 2 and not slicks(g.view("allied"))
    assert [e for e in g.events if e["type"] == "note" and "end of Turn 1" in e["text"]]


def test_the_slicks_survive_a_save_and_a_game_without_an_insertion_has_no_state():  # DESIGN §5
    g = game(heliborne(one_squad()), dice=[4])
    back = Game.restore(g.scenario, g.snapshot())
    assert slicks(back.view("allied")) == slicks(g.view("allied")) and back.hash() == g.hash()
    plain = game(scenario(one_squad() + enemy((30.0, 40.0))), dice=[4])
    assert "insertion" not in plain.state.chapters and not slicks(plain.view("allied"))


def test_the_lift_needs_slicks_by_medium_and_small_places():  # G-27: 2 Medium + 1 Small each
    book, r = rulebook(), heliborne_rules()
    assert slicks_needed(book, ["us_rifle_team"] * 2 + ["us_squad_leader"], r) == 1
    assert slicks_needed(book, ["us_rifle_team"] * 3, r) == 2  # two Medium places a slick
    assert slicks_needed(book, ["us_squad_leader"] * 3, r) == 1  # Smalls fill the free Medium places
    assert slicks_needed(book, ["us_squad_leader"] * 4, r) == 2


def test_a_feature_names_the_lz_and_a_radius_narrows_it():  # DD-3.5; docs/scenarios.md
    raw = heliborne(one_squad(), lz="lz", radius=3)
    raw["terrain"] = [{"id": "lz", "type": "open", "polygon": [[19, 6], [25, 6], [25, 12], [19, 12]]}]
    sc = build_scenario(raw)
    assert (sc.insertion.x, sc.insertion.y, sc.insertion.radius, sc.insertion.feature) == (22.0, 9.0, 3.0, "lz")


def problems(raw) -> list[str]:
    with pytest.raises(ScenarioError) as exc:
        build_scenario(raw)
    return [str(p) for p in exc.value.problems]


def test_a_riverine_insertion_is_refused_until_boats_exist():  # DD-3.5 (Tango boats)
    raw = heliborne(one_squad())
    raw["scenario"]["insertion"]["kind"] = "riverine"
    (p,) = problems(raw)
    assert "scenario.insertion.kind" in p and "boats are not built yet" in p and "DD-3.5" in p


def test_a_stand_off_the_lz_is_named_by_its_field():  # DD-3.5
    els = one_squad()
    els[0]["stand"][2]["at"] = [30.0, 9.0]
    (p,) = problems(heliborne(els))
    assert p.startswith("<inline>: element[0].stand[2].at: stand 'b' of inserted element 'sq1' starts 8.00\"")
    assert "DD-3.5" in p


@pytest.mark.parametrize("change, where, words", [
    ({"elements": ["nobody"]}, "scenario.insertion.elements[0]", "no Allied element 'nobody'"),
    ({"lz": [2.0, 2.0]}, "scenario.insertion.lz", "runs off the 48x48 table"),
    ({"lz": "nowhere"}, "scenario.insertion.lz", "no terrain feature 'nowhere'"),
    ({"radius": -1}, "scenario.insertion.radius", "must be positive"),
    ({"helicopters": 3}, "scenario.insertion.helicopters", "unknown field"),
])
def test_bad_insertion_fields_are_named(change, where, words):  # docs/scenarios.md
    found = problems(heliborne(one_squad(), **change))
    assert any(where in p and words in p for p in found), found


def test_no_heliborne_insertion_in_the_monsoon():  # DD-3.8: the monsoon grounds all air support
    raw = heliborne(one_squad())
    raw["scenario"]["weather"] = "monsoon"
    assert any("scenario.insertion.kind" in p and "DD-3.8" in p for p in problems(raw))
