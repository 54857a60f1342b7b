"""Standing Ambush orders: when a human Insurgent springs its ambush on an Allied move (DD-2.25,
DD-2.26, DD-2.28; C-23; G-28 (7)), with forced dice."""

from __future__ import annotations

import pytest

from game.rules import fire
from game.rules.ambush_orders import order_of
from game.rules.errors import IllegalAction
from game.rules.state import GameState
from tests.rules.test_fire import make

# The 1st Squad (a leader and a rifle team, facing east) walks 6" east along y = 14 past a VC cell
# lying in ambush at (16, 17.5). Edge to edge, the cell is 2.47" from the rifle team after 1", 1.77"
# after 2", 1.37" after 4" (the closest) and 2.12" at the end. Every sightline is open.
SQ = ("sq", "allied", [("sq_sl", "us_squad_leader", 11, 12.3, 0), ("sq_a", "us_rifle_team", 12, 14, 0)])
VC = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 16, 17.5, 315)])
WALK = {"type": "move", "mode": "patrol", "element": "sq", "to": [17.5, 13.15]}  # the centre, 6" east


def near(xy):
    """A freeze point: fractions of a move are kept to 4 places (``reactions.interrupt``)."""
    return pytest.approx(xy, abs=1e-3)


def lying_in_ambush(terrain=(), **order):
    """The Insurgent gives ``order`` (if any) to its concealed cell and passes; the Allies are to move."""
    g = make([SQ, VC], terrain=terrain, tokens=1, first="insurgent")
    g.state.elements["vc"].conceal = True  # Hold/Conceal (G-32): waiting in ambush
    if order:
        g.act("insurgent", {"type": "set_ambush", "element": "vc", **order})
    g.act("insurgent", {"type": "pass"})
    return g


def walk_into(g):
    """The Allied move; the ambush volley (the cell's 3 FP dice) all miss and the Discipline Check
    fails (2), so the squad is Pinned where it was frozen (DD-2.30)."""
    g.dice.force([1, 1, 1] + [2])
    return g.act("allied", WALK)


def frozen_at(ev):
    (move,) = [e for e in ev if e["type"] == "move"]
    assert move["frozen"] and move["reaction"] == "ambush"  # DD-2.27: frozen at the ambush point
    return {s["id"]: s["to"][:2] for s in move["stands"]}


def test_first_springs_at_the_first_point_as_without_an_order():  # DD-2.25, C-23
    for order in ({}, {"trigger": "first"}):
        g = lying_in_ambush(**order)
        tokens = g.state.sides["insurgent"].ambush_tokens
        ev = walk_into(g)
        assert frozen_at(ev)["sq_a"] == near([13, 14])  # after the first inch
        assert g.state.sides["insurgent"].ambush_tokens == tokens - 1  # DD-2.26: 1 token as it springs
        assert g.dice.forced_left == 0 and g.state.elements["sq"].pinned


def test_closest_lets_them_walk_into_the_kill_zone():  # DD-2.25: the Insurgent chooses the moment
    g = lying_in_ambush(trigger="closest")
    tokens = g.state.sides["insurgent"].ambush_tokens
    assert [e for e in g.events if e["type"] == "ambush_order"] and not [e for e in g.events if e["type"] == "tokens"
                                                                      and e.get("spent")]  # DD-2.26: the order is free
    ev = walk_into(g)
    at = frozen_at(ev)
    assert at["sq_a"] == near([16, 14]) and at["sq_sl"] == near([15, 12.3])  # 4" on, not 1"
    assert fire.gap(g, g.state.stands["vc_a"], g.state.stands["sq_a"]) == 1.37  # nearer than 2.47 at the first
    (volley,) = [e for e in ev if e["type"] == "roll" and e["purpose"] == "to hit"]
    assert volley["element"] == "vc" and volley["need"] == 3  # DD-2.28: +1 within 3"
    assert g.state.sides["insurgent"].ambush_tokens == tokens - 1 and g.dice.forced_left == 0
    assert order_of(g, g.state.elements["vc"]).trigger == "first"  # the order is used up


def test_within_springs_when_they_first_come_that_close():  # DD-2.25, DD-2.28
    g = lying_in_ambush(trigger="within", distance="2")
    at = frozen_at(walk_into(g))
    assert at["sq_a"] == near([14, 14])  # 1.77" after 2"; 2.47" after 1" is too far


def test_open_waits_for_the_target_to_leave_the_trees():  # DD-2.18 the open kill zone, DD-2.20
    trees = {"id": "rb", "type": "rubber", "polygon": [[0, 13], [14.5, 13], [14.5, 15], [0, 15]]}
    g = lying_in_ambush(terrain=[trees], trigger="open")
    at = frozen_at(walk_into(g))
    assert at["sq_a"] == near([15, 14])  # the rifle team, its target, is out of the rubber trees at x 15
    g2 = lying_in_ambush(terrain=[trees])
    assert frozen_at(walk_into(g2))["sq_a"] == near([13, 14])  # `first` fires into the trees


def test_hold_lets_the_column_pass_and_keeps_its_token():  # DD-2.25: the Insurgent "may" declare
    g = lying_in_ambush(trigger="hold")
    tokens = g.state.sides["insurgent"].ambush_tokens
    ev = g.act("allied", WALK)
    assert not [e for e in ev if e["type"] == "ambush"] and not [e for e in ev if e.get("frozen")]
    assert g.state.stands["sq_a"].x == pytest.approx(18)  # the whole move
    assert g.state.sides["insurgent"].ambush_tokens == tokens and g.state.elements["vc"].conceal
    assert order_of(g, g.state.elements["vc"]).trigger == "hold"  # it stands for the next move too


def test_the_order_is_free_and_the_insurgents_secret():  # G-28 (7), DESIGN §6
    g = make([SQ, VC], tokens=1, first="insurgent")
    g.state.elements["vc"].conceal = True
    impulse, allied_seen = g.state.impulse, len(g.events_for("allied", g.events))
    before, state_before = g.view("allied"), g.hash()
    ev = g.act("insurgent", {"type": "set_ambush", "element": "vc", "trigger": "closest"})
    # the state changed, yet the Allies' view, its hash included, is exactly as it was (DESIGN §6)
    assert g.hash() != state_before and g.view("allied") == before
    assert g.state.to_act == "insurgent" and g.state.impulse == impulse  # free: the impulse goes on
    assert [e["type"] for e in g.events_for("insurgent", ev)] == ["ambush_order"]
    assert g.events_for("allied", ev) == [] and len(g.events_for("allied", g.events)) == allied_seen
    assert "closest" not in repr(g.view("allied")) and "ambush_order" not in repr(g.view("allied"))
    (offer,) = [a for a in g.legal_actions("insurgent") if a["type"] == "set_ambush"]
    assert offer["element"] == "vc" and offer["cost"] == 0 and offer["tokens"] == 0
    assert offer["params"]["trigger"]["choices"] == ["first", "closest", "within", "open", "hold"]
    assert offer["params"]["trigger"]["default"] == "closest"  # the order it stands under now
    assert offer["params"]["distance"]["choices"] == ["1", "2", "3", "4", "5", "6"]
    assert offer["params"]["distance"]["default"] == "3"  # DD-2.28: point blank
    g.act("insurgent", {"type": "pass"})
    assert not [a for a in g.legal_actions("allied") if a["type"] == "set_ambush"]
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "set_ambush", "element": "vc", "trigger": "hold"})
    assert exc.value.clause == "DD-2.25" and "vc" not in str(exc.value)
    # the sprung ambush is public; the order behind it never is
    ev = walk_into(g)
    seen = g.events_for("allied", ev)
    assert [e for e in seen if e["type"] == "ambush"] and not [e for e in seen if e["type"] == "ambush_order"]
    assert "closest" not in repr(seen)


def test_refusals_cite_the_clause_and_name_nothing_hidden():  # DD-2.25, DD-2.26
    g = make([SQ, VC], tokens=1, first="insurgent")
    cases = [
        ({"element": "sq", "trigger": "hold"}, "DD-2.25"),  # an Allied element reads as a made-up id
        ({"element": "sz", "trigger": "hold"}, "DD-2.25"),
        ({"element": "vc", "trigger": "later"}, "DD-2.25"),
        ({"element": "vc", "trigger": "within", "distance": "7"}, "DD-2.25"),  # beyond the 6" trigger
        ({"element": "vc", "trigger": "within", "distance": 2.5}, "DD-2.25"),
    ]
    for fields, clause in cases:
        with pytest.raises(IllegalAction) as exc:
            g.act("insurgent", {"type": "set_ambush", **fields})
        assert exc.value.clause == clause
    msgs = []
    for eid in ("sq", "sz"):
        with pytest.raises(IllegalAction) as exc:
            g.act("insurgent", {"type": "set_ambush", "element": eid, "trigger": "hold"})
        msgs.append(str(exc.value).replace(repr(eid), "<id>"))
    assert msgs[0] == msgs[1]
    g.state.elements["vc"].reserve = True
    with pytest.raises(IllegalAction) as exc:
        g.act("insurgent", {"type": "set_ambush", "element": "vc", "trigger": "hold"})
    assert exc.value.clause == "DD-2.26; DD-4.8"  # a reserve springs from the Reserve Hand


def test_orders_survive_a_save_and_a_game_without_orders_hashes_as_before():  # DESIGN §5
    g = make([SQ, VC], tokens=1, first="insurgent")
    assert "ambush_orders" not in g.state.chapters
    g.act("insurgent", {"type": "set_ambush", "element": "vc", "trigger": "within", "distance": 4})
    again = GameState.from_dict(g.snapshot())
    assert again == g.state and again.hash() == g.state.hash()
    assert again.chapters["ambush_orders"].orders["vc"].distance == 4.0
