"""A squad in a hootch can be seen, shot at and spotted (issue 16; G-01 T10), on the real line of sight of
small tables in code: medium cover, -1 to hit (DD-5.4), save 5+ (DD-5.6), spotting -2 (DD-4.23)."""

from __future__ import annotations

import pytest

from game.rules.errors import IllegalAction
from tests.rules.test_detection import echo_game, mods, spot_roll
from tests.rules.test_fire import make, rolls

HALF = 0.63
"""Half a Medium base's depth (DD-1.7)."""
HUT = {"id": "hut", "type": "hootch", "point": [20, 20], "size": [2.5, 2.0]}  # walls y 19-21
BIG = {"id": "big", "type": "hootch", "point": [20, 23], "size": [8.0, 8.0]}  # walls y 19-27


def hootch_game(hootch: dict, inside: float, first: str = "insurgent"):
    """A US rifle team facing out of the south wall (y = 19) of ``hootch``, its front edge ``inside``
    inches in (and its squad leader behind it, within 2", DD-1.8, for the Command Points); a VC cell of
    two rifle stands 10" south of it in the open, facing it. ``first`` acts first."""
    team = ("tm", "allied", [("tm_a", "us_rifle_team", 20.0, 19.0 + inside + HALF, 270),
                             ("tm_sl", "us_squad_leader", 20.0, 19.0 + inside + HALF + 2.0, 270)])
    y = 19.0 + inside - 10.0 - HALF
    cell = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 19.0, y, 90), ("vc_b", "vc_rifle_cell", 21.2, y, 90)])
    return make([team, cell], terrain=[hootch], first=first, los=None)


def test_a_team_at_a_hootch_wall_is_seen_shot_at_minus_1_and_saves_on_5():
    # G-01 T10: 0.5" inside the wall it is seen from 10" in the open; DD-5.4 -1 to hit; DD-5.6 save 5+
    g = hootch_game(HUT, 0.5)
    los = g.line_of_sight(g.state.stands["vc_a"], g.state.stands["tm_a"])
    assert los.visible and los.distance == 10.0 and los.extra["wall"] == [None, "hut"]
    (offer,) = [a for a in g.legal_actions("insurgent") if a["type"] == "fire"]
    assert offer["params"]["target"]["choices"] == ["tm_a"]
    g.dice.force([5, 5, 4, 6, 1, 1] + [5, 4, 3] + [6])
    ev = g.act("insurgent", {"type": "fire", "element": "vc", "target": "tm_a"})
    (hit,) = rolls(ev, "to hit")
    assert hit["need"] == 5 and hit["result"] == 3
    assert [(m["value"], m["clause"]) for m in hit["modifiers"]] == [(-1, "DD-5.4")]
    saves = rolls(ev, "save")
    assert [s["need"] for s in saves] == [5, 5, 5] and all(s["clause"] == "DD-5.6" for s in saves)
    assert g.state.stands["tm_a"].hits == 2


def test_from_the_wall_the_team_shoots_out():
    # G-01 T10: a stand within 1" of a wall sees out, so it can fire out (DD-5.1); the cell in the open saves 6
    g = hootch_game(HUT, 0.5, first="allied")
    (offer,) = [a for a in g.legal_actions("allied") if a["type"] == "fire"]
    assert set(offer["params"]["target"]["choices"]) == {"vc_a", "vc_b"}
    g.dice.force([4, 4, 4] + [1, 1, 1] + [6])
    ev = g.act("allied", {"type": "fire", "element": "tm", "target": "vc_a"})
    assert rolls(ev, "to hit")[0]["need"] == 4 and {s["need"] for s in rolls(ev, "save")} == {6}


def test_two_inches_inside_a_big_hootch_it_is_not_seen():
    # G-01 T10: more than 1" from every wall the hootch blocks sight: no fire offered, none allowed (DD-5.1)
    g = hootch_game(BIG, 2.0)
    los = g.line_of_sight(g.state.stands["vc_a"], g.state.stands["tm_a"])
    assert not los.visible and los.limit == "building" and los.blocker["feature"] == "big"
    assert not [a for a in g.legal_actions("insurgent") if a["type"] == "fire"]
    with pytest.raises(IllegalAction) as exc:
        g.act("insurgent", {"type": "fire", "element": "vc", "target": "tm_a"})
    assert exc.value.clause.startswith("DD-5.1")
    # at 0.5" from the same wall it is seen
    g = hootch_game(BIG, 0.5)
    assert g.line_of_sight(g.state.stands["vc_a"], g.state.stands["tm_a"]).visible


def test_an_echo_at_a_hootch_wall_is_spotted_at_minus_2():
    # G-01 T10: the Echo 0.5" inside the wall is in LOS; DD-4.23: a target in a hootch -2, so 6+
    marker = 0.55  # DD-4.7: the 28 mm disc's radius (detection.toml marker_radius)
    hut = {"id": "hut", "type": "hootch", "point": [10.0, 18.0 - marker - 0.5 + 1.0], "size": [2.5, 2.0]}
    g = echo_game(terrain=[hut], los=None)
    assert g.line_of_sight(g.state.stands["sq_a"], g.state.blinds["i1"]).extra["wall"] == [None, "hut"]
    assert [a for a in g.legal_actions("allied") if a["type"] == "spot" and a["element"] == "sq"]
    g.dice.force([5])
    (roll,) = spot_roll(g.act("allied", {"type": "spot", "element": "sq", "target": "i1"}))
    assert mods(roll) == {"target in Hootch (thatch and bamboo)": -2} and roll["need"] == 6 and roll["result"] == "fail"


def test_an_echo_deep_in_a_big_hootch_cannot_be_spotted():
    # G-01 T10; DD-4.13: an Echo out of sight cannot be named
    big = {"id": "big", "type": "hootch", "point": [10.0, 18.45], "size": [8.0, 8.0]}  # the Echo 3" in
    g = echo_game(terrain=[big], los=None)
    assert not g.line_of_sight(g.state.stands["sq_a"], g.state.blinds["i1"]).visible
    assert not [a for a in g.legal_actions("allied") if a["type"] == "spot"]
