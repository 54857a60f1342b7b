"""Mortar smoke in One Brain-Cell (OBC-39, G-42): the round drifts 4" downwind with the scenario's wind (or the
wind rolled at setup), blocks line of sight through the world's ray casts, and lasts one turn."""

from __future__ import annotations

import pytest

from game.rules.errors import IllegalAction
from game.rulesets.obc.ruleset import OBC
from tests.obc.test_rules import activate, game, man, table


def smoky(wind: str | None = "south", weapon: str = "mortar60"):
    raw = table([man("ldr", [20, 10])], [man("v", [20, 30], weapon), man("v2", [30, 30])])
    if wind:
        raw["scenario"]["wind_from"] = wind
    return raw


def test_the_scenarios_wind_carries_the_smoke_4_inches_downwind():  # OBC-39
    g = game(smoky("south"), "insurgent")
    assert g.state.wind == 90.0  # from the south: toward the north
    activate(g, "vc")
    offer = next(o for o in g.legal_actions("insurgent") if o.get("smoke"))
    assert offer["clause"] == "OBC-27; OBC-39" and offer["drift"] == 4.0
    g.dice.force([1])  # the scatter die's hit face: on target (G-42)
    g.act("insurgent", {"type": "fire", "man": "v", "at": [20, 20], "smoke": True})
    (cloud,) = g.view("allied")["smoke"]
    assert cloud["from"] == [20, 20] and cloud["to"] == [20, 24] and cloud["width"] == 1.0
    assert any(e["type"] == "smoke" and e["clause"] == "OBC-39" for e in g.events)


def test_without_a_wind_in_the_scenario_it_is_rolled_at_setup():  # OBC-39, G-42
    g = game(smoky(None))
    (roll,) = [e for e in g.events if e["type"] == "roll" and e["purpose"] == "wind"]
    assert roll["clause"] == "OBC-39; G-42" and roll["dice"] == "d8"
    assert g.state.wind == {1: 180.0, 2: 225.0, 3: 270.0, 4: 315.0, 5: 0.0, 6: 45.0, 7: 90.0, 8: 135.0}[roll["rolls"][0]]


def test_smoke_blocks_sight_and_clears_after_one_turn():  # OBC-39; DD-5.34
    g = game(smoky("south"), "insurgent")
    assert "v" in g.sees("allied")
    activate(g, "vc")
    g.dice.force([1])
    g.act("insurgent", {"type": "fire", "man": "v", "at": [20, 20], "smoke": True})
    assert "v" not in g.sees("allied") and "v2" in g.sees("allied")  # the cloud stands between ldr and v only
    g.act("insurgent", {"type": "done"})
    g.dice.force([1])
    g.act("allied", {"type": "activate", "squad": "us"})
    g.act("allied", {"type": "done"})  # the turn ends: the smoke stands on into the next
    assert g.state.turn == 2 and g.state.smoke
    g.state.to_act = "insurgent"
    activate(g, "vc")  # its mortar's squad moves again: a turn has passed
    assert g.state.smoke == [] and "v" in g.sees("allied")
    assert any(e["type"] == "smoke_clears" for e in g.events)


def test_a_blooper_fires_no_smoke():  # OBC-39
    g = game(smoky("south", "blooper"), "insurgent")
    activate(g, "vc")
    assert not any(o.get("smoke") for o in g.legal_actions("insurgent"))
    with pytest.raises(IllegalAction) as exc:
        g.act("insurgent", {"type": "fire", "man": "v", "at": [20, 20], "smoke": True})
    assert exc.value.clause == "OBC-39"


def test_los_check_reports_the_smoke():  # OBC-39; DD-5.34: the ruleset's los.check answer
    g = game(smoky("south"), "insurgent")
    activate(g, "vc")
    g.dice.force([1])
    g.act("insurgent", {"type": "fire", "man": "v", "at": [20, 20], "smoke": True})
    out = OBC.line_of_sight(g, "allied", "ldr", [20, 30])
    assert out["visible"] is False and out["limit"] == "smoke" and out["clause"] == "DD-5.34"
    assert OBC.line_of_sight(g, "allied", "ldr", [30, 30])["visible"] is True


def test_a_cloud_does_not_name_the_mortar_that_laid_it():  # OBC-39; DESIGN §6: the mortar fires unseen
    g = game(smoky("south"), "insurgent")
    activate(g, "vc")
    g.dice.force([1])
    g.act("insurgent", {"type": "fire", "man": "v", "at": [20, 20], "smoke": True})
    (cloud,) = g.view("allied")["smoke"]
    assert "v" not in cloud["id"].split("_") and cloud["id"] == "smoke_1_1"
    assert all("v" not in str(e.get("id", "")).split("_") for e in g.events if e["type"] == "smoke")
