"""The autopilot searches the hootches of its objectives (DD-2.15; game/ai/autopilot.py ``search``,
``to_search``): in reach and with nothing to shoot, it searches; a few inches off, it walks up first; a
hootch already searched (the view's public marker) is left alone."""

from __future__ import annotations

import math

from game.ai import autopilot
from game.ai.facade import SideView
from game.rules import search
from tests.builders import element, game, scenario, stand


def _squad(at=(10.0, 10.0)) -> dict:
    x, y = at
    return element("sq1", "allied", [stand("sq1_sl", "us_squad_leader", x, y - 1.5),
                                     stand("sq1_a", "us_rifle_team", x - 1.2, y),
                                     stand("sq1_b", "us_rifle_team", x + 1.2, y)], name="1st Squad")


def _far_cell() -> dict:
    return element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 44.0, 44.0, 270)], kind="cell")


def _game(hootch_at):
    raw = scenario([_squad(), _far_cell()],
                   terrain=[{"id": "h1", "type": "hootch", "point": list(hootch_at), "size": [2.0, 1.6]}])
    raw["objective"] = [{"id": "ville", "name": "Sweep the ville", "side": "allied", "kind": "hold", "vp": 3,
                         "polygon": [[0, 0], [24, 0], [24, 24], [0, 24]]}]
    return game(raw)


def test_a_squad_beside_an_unsearched_hootch_searches_it():  # DD-2.15
    g = _game((10.0, 12.6))
    choice = autopilot.decide(SideView.of(g, "allied"))
    assert choice["type"] == "search" and choice["feature"] == "h1" and choice["element"] == "sq1"


def test_a_hootch_a_few_inches_off_is_walked_up_to_then_searched():  # DD-2.15: within 2"
    g = _game((10.0, 15.5))
    f = SideView.of(g, "allied")
    assert not [a for a in f.actions if a["type"] == "search"]  # out of reach: not offered
    choice = autopilot.decide(f)
    assert choice["type"] == "move" and choice["element"] == "sq1"
    g.act("allied", choice)
    near = min(math.dist((s.x, s.y), (10.0, 15.5)) for s in g.state.living(g.state.elements["sq1"]))
    assert near < 3.0  # outside the hootch's wall on the near side
    reach = search.in_reach(g, g.state.elements["sq1"])  # what the next activation is offered
    assert [hit.feature.id for hit, _ in reach] == ["h1"]


def test_a_searched_hootch_is_left_alone():  # DD-2.15: the public "searched" marker
    g = _game((10.0, 12.6))
    g.dice.force([6])
    g.act("allied", {"type": "search", "element": "sq1", "feature": "h1"})
    assert any(m["kind"] == "searched" for m in g.view("allied")["markers"])
    pic_choice = autopilot.search(autopilot.Picture(SideView.of(g, "allied")), "sq1", 0.0, 99.0)
    assert pic_choice is None
