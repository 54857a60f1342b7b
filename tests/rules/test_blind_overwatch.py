"""An unrevealed Blind that moves at speed or in the open draws Opportunity Fire (DD-2.17, DD-2.18–2.23,
DD-4.24), with forced dice and stubbed LOS."""

from __future__ import annotations

import pytest

from game.rules.reactions import overwatch_active  # before test_blinds: game.rules.game loads first
from tests.rules.test_blinds import HQ, make_fog, squad

# The 1st Squad (10, 10) watches a corridor along y = 20 from x 2 to x 20: the watched band is
# y 19–21 (DD-2.13, a 2" corridor). Its pool is 7 dice: the leader 1, two rifle teams 3 each (DD-2.19).
CORRIDOR = [[2, 20], [20, 20]]


def watched(start, dummy=False, terrain=()):
    """An Insurgent Blind at ``start`` (a VC cell under it, or a Dummy); the squad sets Overwatch."""
    els = [HQ, squad("sq", "allied", 10, 10)] + ([] if dummy else [squad("vc", "insurgent", *start, "i1")])
    g = make_fog(els, [{"id": "i1", "side": "insurgent", "at": list(start), "dummy": dummy}], terrain=terrain,
                 dice=[4])
    g.act("allied", {"type": "set_overwatch", "element": "sq", "corridor": CORRIDOR})  # DD-2.13
    return g


def blind_move(g, mode, to):
    return g.act("insurgent", {"type": "blind_move", "blind": "i1", "mode": mode, "to": to})


def xy(g, sid):
    s = g.state.stands[sid]
    return [s.x, s.y]


def test_a_sprinting_blind_is_frozen_flipped_and_fired_on_then_completes_its_move():
    """DD-2.17 (at speed), DD-2.18 (the midpoint of the crossing), DD-2.19 (the full pool), DD-2.22
    (no hit: it completes its move), DD-2.23 (the marker is spent)."""
    g = watched((6, 13))
    g.dice.force([1] * 7)
    ev = blind_move(g, "sprint", [6, 22])  # 9": in the band from y 19 to 21, so frozen at y 20
    (moved,) = [e for e in ev if e["type"] == "blind_move"]
    assert moved["to"] == pytest.approx([6, 20])
    (rev,) = [e for e in ev if e["type"] == "reveal"]
    assert rev["element"] == "vc" and "Opportunity Fire" in rev["reason"] and rev["clause"].startswith("DD-2.17")
    assert {s["id"]: [s["x"], s["y"]] for s in rev["stands"]} == {"vc_a": [4.9, 20], "vc_b": [7.1, 20]}
    (roll,) = [e for e in ev if e["type"] == "roll" and e["purpose"] == "to hit"]
    assert roll["element"] == "sq" and len(roll["dice"]) == 7 and roll["need"] == 4  # DD-2.20: in the open, 4+
    assert g.dice.forced_left == 0
    assert "i1" not in g.state.blinds and g.state.elements["sq"].overwatch is None
    assert xy(g, "vc_a") == pytest.approx([4.9, 22]) and xy(g, "vc_b") == pytest.approx([7.1, 22])
    assert [e for e in ev if e["type"] == "move" and e["element"] == "vc"][-1]["clause"] == "DD-2.22"


def test_a_blind_caught_that_fails_morale_is_pinned_at_the_freeze_point():
    """DD-2.21 (saves where it was frozen: the open, 6), DD-2.22 (a hit, Morale fails: Pinned, the move
    ends at the freeze point)."""
    g = watched((6, 13))
    g.dice.force([4, 1, 1, 1, 1, 1, 1] + [1] + [1])  # one hit; the save (6 in the open) fails; Morale 1
    blind_move(g, "sprint", [6, 22])
    assert g.dice.forced_left == 0
    vc = g.state.elements["vc"]
    assert vc.pinned and sum(s.hits for s in g.state.living(vc)) == 1
    assert xy(g, "vc_a") == pytest.approx([4.9, 20]) and xy(g, "vc_b") == pytest.approx([7.1, 20])


def test_a_patrol_move_draws_fire_only_in_the_open_where_it_enters_the_kill_zone():
    """DD-2.17 ("in the open"), DD-2.18 ("the moment it enters the open kill zone"): a walking Blind
    in the open is frozen where it enters the band; under the rubber trees it is not seen moving."""
    g = watched((6, 15))
    g.dice.force([1] * 7)
    ev = blind_move(g, "patrol", [6, 21])
    assert [e for e in ev if e["type"] == "blind_move"][0]["to"] == pytest.approx([6, 19])
    assert "i1" not in g.state.blinds and g.dice.forced_left == 0
    trees = {"id": "rb", "type": "rubber", "polygon": [[0, 17], [24, 17], [24, 23], [0, 23]]}
    g2 = watched((6, 15), terrain=[trees])
    ev = blind_move(g2, "patrol", [6, 21])
    assert not [e for e in ev if e["type"] in ("reveal", "roll")]
    assert (g2.state.blinds["i1"].x, g2.state.blinds["i1"].y) == (6, 21)
    assert overwatch_active(g2, g2.state.elements["sq"]) is not None  # it never fired
    # at speed the trees do not hide it: frozen at the midpoint, fired on as fleeting (DD-2.20: 5+)
    g3 = watched((6, 13), terrain=[trees])
    g3.dice.force([1] * 7)
    ev = blind_move(g3, "sprint", [6, 22])
    (roll,) = [e for e in ev if e["type"] == "roll" and e["purpose"] == "to hit"]
    assert roll["need"] == 5 and any(m["clause"].startswith("DD-2.20") for m in roll["modifiers"])


def test_a_dummy_blind_draws_the_fire_and_is_discarded():
    """DD-2.17, DD-4.24 (a Dummy is discarded), DD-2.23: the watchers have fired at shadows and their
    marker is gone; no die is rolled."""
    g = watched((6, 13), dummy=True)
    ev = blind_move(g, "sprint", [6, 22])
    (gone,) = [e for e in ev if e["type"] == "blind_removed"]
    assert gone["dummy"] is True and gone["blind"] == "i1"
    assert not [e for e in ev if e["type"] == "roll"]
    assert g.state.elements["sq"].overwatch is None
    off = [e for e in ev if e["type"] == "status" and e["status"] == "overwatch"]
    assert off and off[0]["on"] is False and off[0]["clause"] == "DD-2.23"


def test_no_fire_at_a_blind_the_overwatch_cannot_see():
    """DD-2.17: only "within Line of Sight" (the stub sees 12"; from y 10 the band at x 30 is out of it)."""
    g = watched((26, 13))
    ev = blind_move(g, "sprint", [26, 22])
    assert not [e for e in ev if e["type"] in ("reveal", "roll")]
    assert "i1" in g.state.blinds and overwatch_active(g, g.state.elements["sq"]) is not None
