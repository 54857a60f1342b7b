"""Reactions: Overwatch and Opportunity Fire, the Ambush, the water scramble (DD-2.13, DD-2.17–2.30,
DD-3.3, DD-3.19, DD-5.23–5.24) with forced dice."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from game.rules import fire
from game.rules.errors import IllegalAction
from tests.rules.test_fire import CELL, SQUAD, make


def ys(g, *ids):
    return [g.state.stands[i].y for i in ids]


def overwatch_game():
    g = make([SQUAD, CELL], first="insurgent")
    g.act("insurgent", {"type": "set_overwatch", "element": "vc", "facing": 270})  # DD-2.13
    assert g.state.elements["vc"].overwatch["kind"] == "arc"
    return g


def test_opportunity_fire_misses_and_the_move_completes():
    g = overwatch_game()
    g.dice.force([1] * 7)  # DD-2.19: the full pool, 3 + 3 + 1
    ev = g.act("allied", {"type": "move", "mode": "patrol", "element": "sq", "to": [22, 13.5]})
    moves = [e for e in ev if e["type"] == "move"]
    assert moves[0].get("frozen") and moves[0]["reaction"] == "overwatch"  # DD-2.18: midpoint
    assert moves[0]["stands"][1]["to"][1] == pytest.approx(12)
    assert len([e for e in ev if e["type"] == "roll" and e["purpose"] == "to hit"][0]["dice"]) == 7
    assert ys(g, "sq_a")[0] == pytest.approx(14)  # no hit: it completes its move (DD-2.22)
    assert g.state.elements["vc"].overwatch is None  # DD-2.23: removed once it has fired


def test_opportunity_fire_pins_and_halts_at_the_freeze_point():
    g = overwatch_game()
    g.dice.force([5, 1, 1, 1, 1, 1, 1] + [6] + [2])  # a hit, saved; Morale fails
    ev = g.act("allied", {"type": "move", "mode": "patrol", "element": "sq", "to": [22, 13.5]})
    assert g.state.elements["sq"].pinned
    assert ys(g, "sq_a")[0] == pytest.approx(12)  # DD-2.22: the move ends at the freeze point
    assert len([e for e in ev if e["type"] == "move"]) == 1


def test_fleeting_target_in_brush_is_minus_one():
    brush = {"id": "b", "type": "light", "polygon": [[15, 10.5], [30, 10.5], [30, 13], [15, 13]]}
    g = make([SQUAD, CELL], terrain=[brush], first="insurgent")
    g.act("insurgent", {"type": "set_overwatch", "element": "vc", "facing": 270})
    g.dice.force([1] * 7)
    ev = g.act("allied", {"type": "move", "mode": "patrol", "element": "sq", "to": [22, 13.5]})
    roll = [e for e in ev if e["type"] == "roll" and e["purpose"] == "to hit"][0]
    assert any(m["clause"].startswith("DD-2.20") for m in roll["modifiers"]) and roll["need"] == 5


def test_loss_of_sights_and_pinned_cannot_set_overwatch():
    g = overwatch_game()
    from game.rules.morale import pin
    pin(g, g.state.elements["vc"], "DD-5.21")
    assert g.state.elements["vc"].overwatch is None  # DD-2.24, DD-5.24
    g2 = make([SQUAD, CELL], first="insurgent")
    g2.state.elements["vc"].pinned = True
    with pytest.raises(IllegalAction) as exc:  # G-32
        g2.act("insurgent", {"type": "set_overwatch", "element": "vc"})
    assert exc.value.clause == "G-32"


def test_overwatch_ends_when_the_unit_activates_again():
    from game.rules.reactions import overwatch_active
    g = overwatch_game()
    el = g.state.elements["vc"]
    assert overwatch_active(g, el) is not None
    el.activations += 1  # G-32: its next activation ends the marker
    assert overwatch_active(g, el) is None


def near_los(a, b):
    return SimpleNamespace(visible=abs(a.y - b.y) <= 8.0, fraction=1.0, distance=0.0)


AMBUSH_CELL = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 20, 22), ("vc_b", "vc_rifle_cell", 24, 22),
                                   ("vc_c", "vc_cadre", 22, 22)])


def ambush_game():
    g = make([SQUAD, AMBUSH_CELL], tokens=1, los=near_los)
    g.state.elements["vc"].conceal = True  # Hold/Conceal (G-32): waiting in ambush
    return g


def test_ambush_fires_first_then_discipline_pass_fires_back():
    g = ambush_game()
    tokens = g.state.sides["insurgent"].ambush_tokens
    # DD-2.27: ambushers fire first (7 dice, all miss); DD-2.30: Discipline 4+ passes (5); Desperate
    # Return Fire at -1 from the two rifle teams that see the ambushers (6 dice, all miss).
    g.dice.force([1] * 7 + [5] + [1] * 6)
    ev = g.act("allied", {"type": "move", "mode": "patrol", "element": "sq", "to": [22, 15]})
    assert [e for e in ev if e["type"] == "ambush"]
    assert g.state.sides["insurgent"].ambush_tokens == tokens - 1  # DD-2.26
    hits = [e for e in ev if e["type"] == "roll" and e["purpose"] == "to hit"]
    assert hits[0]["element"] == "vc" and hits[1]["element"] == "sq"
    assert hits[1]["need"] == 5 and len(hits[1]["dice"]) == 6  # DD-2.30: -1
    assert g.dice.forced_left == 0
    assert ys(g, "sq_a")[0] < 15  # the move ends at the ambush point
    assert not g.state.elements["sq"].pinned
    assert not g.state.elements["vc"].conceal


def test_ambush_discipline_fail_pins_and_ends_the_activation():
    g = ambush_game()
    g.dice.force([1] * 7 + [2])
    ev = g.act("allied", {"type": "move", "mode": "patrol", "element": "sq", "to": [22, 15]})
    assert g.state.elements["sq"].pinned
    assert len([e for e in ev if e["type"] == "roll" and e["purpose"] == "to hit"]) == 1


def test_no_ambush_without_a_token_or_concealment():
    g = ambush_game()
    g.state.sides["insurgent"].ambush_tokens = 0
    ev = g.act("allied", {"type": "move", "mode": "patrol", "element": "sq", "to": [22, 15]})
    assert not [e for e in ev if e["type"] == "ambush"]


def test_column_on_trail_plus_one_and_save_six():
    g = make([SQUAD, CELL])
    el, st, tgt = g.state.elements["vc"], g.state.stands["vc_a"], g.state.stands["sq_a"]
    ctx = fire.Context("ambush", "DD-2.29", column=True)
    mods = fire.to_hit_modifiers(g, el, st, tgt, ctx)
    assert any(m.clause.startswith("DD-3.3") and m.value == 1 for m in mods)  # DD-3.3, C-17
    assert fire.save_need(g, tgt, ctx, 9.0)[0] == 6  # DD-2.29
    g.state.elements["sq"].last_move = "trail_rush"
    assert fire.in_column(g, g.state.elements["sq"])  # G-34


def test_water_scramble_back_to_the_bank():
    stream = {"id": "s", "type": "stream", "path": [[0, 12], [48, 12]], "width": 2.0}
    g = make([SQUAD, CELL], terrain=[stream])
    g.act("allied", {"type": "move", "mode": "patrol", "element": "sq", "to": [22, 11]})
    assert g.state.elements["sq"].bank is not None
    g.dice.force([4, 1, 1, 1, 1, 1, 1] + [6] + [2])  # a hit, saved (6); Morale fails
    ev = g.act("insurgent", {"type": "fire", "element": "vc", "target": "sq_a"})
    back = [e for e in ev if e["type"] == "retreat"]
    assert back and "DD-3.19" in back[0]["clause"]
    assert ys(g, "sq_a")[0] == pytest.approx(10)


def test_ambushers_placed_at_their_blind_out_of_sight_do_not_fire_and_the_move_goes_on():
    """DD-2.26, DD-4.24, DD-2.27: ambushers under a Blind are placed at its marker as it is revealed.
    On rubber_plantation (seed 1, the engine benchmark's random play) an RPD team judged from under Blind
    N3 to see the Patrol HQ is placed at the marker where it sees no stand of the HQ in range: it cannot
    fire, no Discipline Check follows, and the HQ's move goes on (before, the engine stopped on an
    assertion here)."""
    from game.rules.game import Game
    from game.rules.scenario import resolve_scenario
    from game.rules.turn import start_turn
    from tests.rules.test_changes import random_play

    g = Game(resolve_scenario("rubber_plantation"), 1, start=False)
    start_turn(g)
    random_play(g, 1, 150)
    at = next(i for i, e in enumerate(g.events) if e.get("clause") == "DD-2.27; DD-4.24")
    held = g.events[at]
    assert held["type"] == "note" and held["element"] == "nva4"
    assert [e["type"] for e in g.events[at - 3:at]] == ["reveal", "tokens", "ambush"]  # DD-2.26: spent, revealed
    after = g.events[at + 1]
    assert after["type"] == "move" and not after.get("frozen")  # the HQ's move goes on to its end
    assert not any(e["type"] == "roll" and "Discipline" in e.get("purpose", "") for e in g.events[at - 3:at + 2])
