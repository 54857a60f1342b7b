"""Each view carries its own copy of the scenario summary (DESIGN §6: views are plain data the client may
keep and change): the features and the scenario card (G-30) are made once a game, never shared."""

from game.rules.game import Game
from game.rules.scenario import resolve_scenario


def test_each_view_has_its_own_summary():
    g = Game(resolve_scenario("village_sweep"), 3)
    first = g.view("allied")
    first["scenario"]["features"][0]["id"] = "changed"
    first["scenario"]["objectives"][0]["vp"] = 99
    first["scenario"]["scale"]["unit"] = "furlong"
    again = g.view("allied")
    assert again["scenario"]["features"][0]["id"] == g.scenario.features[0].id != "changed"
    assert again["scenario"]["objectives"][0]["vp"] == g.scenario.objectives[0].vp  # G-30
    assert again["scenario"]["scale"]["unit"] == g.book.scale.unit
    assert again == g.view("allied") and again["hash"] == g.view("allied")["hash"]
