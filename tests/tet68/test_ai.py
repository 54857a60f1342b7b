"""The Tet '68 computer player uses the cone, the M79, grenades and hand-to-hand where they pay (issue 19;
TET-13, TET-14, G-41), choosing among the game's offers and previews."""

from __future__ import annotations

from game.rulesets.tet68.ai import choose
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
