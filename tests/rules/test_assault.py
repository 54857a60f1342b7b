"""Close assault and special weapons (DD-5.22, DD-5.30–5.36) with forced dice."""

from __future__ import annotations

import pytest

from game.rules import assault, fire, odds
from game.rules.errors import IllegalAction
from tests.rules.test_fire import SQUAD, make

NEAR = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 20, 17), ("vc_b", "vc_rifle_cell", 24, 17)])


def test_assault_volley_melee_and_fall_back():
    g = make([SQUAD, NEAR])
    # Move 4" to y=14 (1.74" from the cell). DD-5.22 (1): defensive volley 6 dice all miss.
    # (2): attacker 7 dice: 3 hits; defender 6 dice: 1 hit; no saves. (3): the cell falls back 4".
    g.dice.force([1] * 6 + [4, 5, 6, 1, 1, 1, 1] + [4, 1, 1, 1, 1, 1])
    ev = g.act("allied", {"type": "assault", "element": "sq", "to": [22, 13.5], "target": "vc_a"})
    res = [e for e in ev if e["type"] == "assault_result"][0]
    assert res["loser"] == "vc" and res["hits_on_defender"] == 3 and res["hits_on_attacker"] == 1
    assert not [e for e in ev if e["type"] == "roll" and e["purpose"] == "save"]  # no saves
    assert g.state.elements["vc"].pinned
    assert [e for e in ev if e["type"] == "retreat" and e["element"] == "vc"]


def test_assault_tie_goes_against_the_attacker_and_pinned_cannot_assault():
    g = make([SQUAD, NEAR])
    g.dice.force([1] * 6 + [4, 1, 1, 1, 1, 1, 1] + [4, 1, 1, 1, 1, 1])
    ev = g.act("allied", {"type": "assault", "element": "sq", "to": [22, 13.5], "target": "vc_a"})
    assert [e for e in ev if e["type"] == "assault_result"][0]["loser"] == "sq"  # G-34
    g = make([SQUAD, NEAR])
    g.state.elements["sq"].pinned = True
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "assault", "element": "sq", "to": [22, 11], "target": "vc_a"})
    g = make([SQUAD, NEAR])
    with pytest.raises(IllegalAction) as exc:  # must end within 2"
        g.act("allied", {"type": "assault", "element": "sq", "to": [22, 10.5], "target": "vc_a"})
    assert "DD-5.22" in exc.value.clause


def test_assault_odds_sum_to_one():
    g = make([SQUAD, NEAR])
    r = odds.preview(g, "allied", {"type": "assault", "element": "sq", "to": [22, 13.5], "target": "vc_a"})
    assert r["p_stall"] + r["p_attacker_wins"] + r["p_defender_wins"] == pytest.approx(1.0)


HOOTCH = {"id": "h1", "type": "hootch", "point": [22, 14], "size": [5, 2.5]}


def test_frag_grenade_lands_and_defender_tests():
    inside = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 22, 13)])
    g = make([SQUAD, inside], terrain=[HOOTCH])
    # DD-5.30: lands on 4+; 2 dice 4+; no cover save (6); the defender tests Morale anyway.
    g.dice.force([4] + [4, 1] + [1] + [2])
    g.act("allied", {"type": "frag_grenade", "element": "sq", "target": "vc_a"})
    assert g.state.stands["vc_a"].hits == 1 and g.state.elements["vc"].pinned
    g = make([SQUAD, inside], terrain=[HOOTCH])
    g.dice.force([3])
    ev = g.act("allied", {"type": "frag_grenade", "element": "sq", "target": "vc_a"})
    assert any("G-34" in e.get("clause", "") for e in ev if e["type"] == "note")  # a dud: no effect
    r = odds.preview(make([SQUAD, inside], terrain=[HOOTCH]), "allied",
                     {"type": "frag_grenade", "element": "sq", "target": "vc_a"})
    assert r["p_lands"] == pytest.approx(0.5)


def test_satchel_collapses_bunker_and_kills_occupants():
    bunker = {"id": "bk", "type": "bunker", "point": [22, 20], "size": [3, 2]}
    sap = ("sap", "insurgent", [("sap_1", "vc_sapper_cell", 22, 18.36)])
    us = ("us", "allied", [("us_sl", "us_squad_leader", 10, 8), ("us_a", "us_rifle_team", 22, 20)])
    g = make([sap, us], terrain=[bunker], first="insurgent")
    g.dice.force([3])  # DD-5.32: 3+
    g.act("insurgent", {"type": "satchel_charge", "element": "sap", "bunker": "bk"})
    assert g.state.structures["bk"]["state"] == "rubble"
    assert not g.state.stands["us_a"].alive  # G-34: 2 hits on every stand inside
    assert fire.cover_of(g, g.state.stands["us_a"]).id == "rubble"


def test_mousehole_breach_and_indoor_surprise():
    house = {"id": "m1", "type": "masonry", "point": [22, 12.63], "size": [6, 4]}
    inside = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 22, 12.8)])
    g = make([SQUAD, inside], terrain=[house])
    # DD-5.35: 4+ breaches; DD-5.36: no defensive fire; melee 7 dice vs 3.
    g.dice.force([4] + [4, 4, 1, 1, 1, 1, 1] + [1, 1, 1])
    ev = g.act("allied", {"type": "mousehole", "element": "sq", "wall": "m1"})
    assert g.state.structures["m1"]["state"] == "breached"
    assert any(e.get("clause") == "DD-5.36" for e in ev)
    assert not [e for e in ev if e["type"] == "fire"]
    assert not g.state.stands["vc_a"].alive


def test_backblast_cone_lies_behind_the_breech():
    g = make([SQUAD, NEAR])
    st = g.state.stands["sq_a"]  # facing 90: the breech points to -y
    cone = assault.backblast_cone(g, st)
    assert cone.bounds[3] <= st.y and cone.bounds[1] == pytest.approx(st.y - 0.63 - 2.0)


def test_an_attacker_pinned_by_the_volley_still_fights_the_melee():
    # DD-5.22: (1) the volley, (2) both sides roll, (3) the loser falls back: the steps run in order.
    g = make([SQUAD, NEAR])
    # Volley: 6 dice at 3+ (point blank), one hit; the save in the open (6) fails; Morale 4+ fails on
    # a 1: the squad is Pinned. It has closed, so the melee goes on: the squad's 6 dice (the ringed
    # team halved, DD-5.11) score 3, the cell's 6 score none, and the cell falls back (3).
    g.dice.force([6] + [1] * 5 + [1] + [1] + [1, 4, 5, 6, 1, 1] + [1] * 6)
    ev = g.act("allied", {"type": "assault", "element": "sq", "to": [22, 13.5], "target": "vc_a"})
    assert g.state.elements["sq"].pinned
    assert any(e.get("clause") == "DD-5.22 (2)" for e in ev if e["type"] == "note")
    melee = [e for e in ev if e["type"] == "roll" and e["purpose"] == "to hit"][1:]
    assert [len(e["dice"]) for e in melee] == [6, 6]
    res = [e for e in ev if e["type"] == "assault_result"][0]
    assert (res["loser"], res["hits_on_defender"], res["hits_on_attacker"]) == ("vc", 3, 0)
    assert g.dice.forced_left == 0


def test_the_odds_stall_only_when_the_volley_wipes_the_attacker_out():
    # DD-5.22: being Pinned by the volley no longer stops the assault (about half the time, when the
    # volley scores and the squad fails its Morale); only the volley killing all three stands does.
    g = make([SQUAD, NEAR])
    r = odds.preview(g, "allied", {"type": "assault", "element": "sq", "to": [22, 13.5], "target": "vc_a"})
    assert 0.0 < r["p_stall"] < 0.1
    assert r["p_stall"] + r["p_attacker_wins"] + r["p_defender_wins"] == pytest.approx(1.0)
