"""Command and control (DD-1.8–1.16, DD-2.6–2.7, G-16)."""

import pytest

from game.rules.command import command_status
from game.rules.errors import IllegalAction
from tests.builders import element, enemy, game, platoon, scenario, stand

DENSE_STRIP = {"id": "jungle", "type": "dense", "polygon": [[0, 7], [48, 7], [48, 9], [0, 9]]}


def status(g, eid):
    return command_status(g, g.state.elements[eid])


def test_in_command_within_six_inches_in_the_open_dd_1_13():
    g = game(scenario(platoon(squad_at=(10, 13)) + enemy()))
    st = status(g, "sq1")
    assert st["in_command"] and st["radius"] == 6 and st["distance"] == pytest.approx(5.52)


def test_four_inches_through_dense_terrain_dd_1_13():
    g = game(scenario(platoon(squad_at=(10, 13)) + enemy(), terrain=[DENSE_STRIP]))
    st = status(g, "sq1")
    assert st["in_command"] is False and st["radius"] == 4 and "dense" in st["clause"]


def test_beyond_the_radius_is_out_of_command_and_costs_two_cp_dd_1_14():
    g = game(scenario(platoon(squad_at=(10, 20)) + enemy()), dice=[6])
    assert status(g, "sq1")["in_command"] is False
    acts = [a for a in g.legal_actions("allied") if a.get("element") == "sq1" and a["type"] == "hold"]
    assert sorted((a["cost"], a["emergency"]) for a in acts) == [(1, True), (2, False)]
    cp = g.state.sides["allied"].cp
    g.act("allied", {"type": "hold", "element": "sq1"})
    assert g.state.sides["allied"].cp == cp - 2


def test_emergency_initiative_pass_acts_normally_dd_1_15():
    g = game(scenario(platoon(squad_at=(10, 20)) + enemy()), dice=[6])
    g.dice.force([4])
    cp = g.state.sides["allied"].cp
    g.act("allied", {"type": "move", "mode": "patrol", "element": "sq1", "to": [10, 22], "emergency": True})
    assert g.state.sides["allied"].cp == cp - 1
    assert g.state.stands["a"].y == pytest.approx(22.5)  # the centre moved 2.5"
    roll = [e for e in g.events if e["type"] == "roll" and "emergency" in e["purpose"]][0]
    assert roll["result"] == "pass" and "DD-1.15" in roll["clause"]


def test_emergency_initiative_failure_holds_position_dd_1_16():
    g = game(scenario(platoon(squad_at=(10, 20)) + enemy()), dice=[6])
    g.dice.force([3])
    g.act("allied", {"type": "move", "mode": "patrol", "element": "sq1", "to": [10, 22], "emergency": True})
    el = g.state.elements["sq1"]
    assert g.state.stands["a"].y == pytest.approx(10 + 10)  # did not move
    assert el.hold_position and el.activations == 1


def test_emergency_check_is_refused_when_in_command():
    g = game(scenario(platoon() + enemy()), dice=[6])
    with pytest.raises(IllegalAction) as err:
        g.act("allied", {"type": "hold", "element": "sq1", "emergency": True})
    assert err.value.clause == "DD-1.15"


def test_radio_link_puts_a_distant_element_in_command_g16():
    raw = scenario(platoon() + enemy())
    raw["element"].append(element("lrrp", "allied", [stand("l1", "us_rifle_team", 40, 20),
                                                      stand("l2", "us_rto", 40, 21.8)], kind="team"))
    g = game(raw)
    st = status(g, "lrrp")
    assert st["in_command"] and "radio" in st["reason"]
    # Without the RTO in base contact with the commander, no link (G-16).
    g.state.stands["rto"].x = 14.0
    assert status(g, "lrrp")["in_command"] is False


def test_detached_specialist_measures_from_its_own_stand_dd_1_12():
    raw = scenario(platoon() + enemy())
    raw["element"].append(element("snp", "allied", [stand("s1", "us_sniper", 16.5, 5)], kind="team"))
    g = game(raw)
    assert status(g, "snp")["in_command"]
    g.state.stands["s1"].x = 17.5
    assert status(g, "snp")["in_command"] is False


def test_out_of_coherency_is_out_of_command_dd_1_11():
    g = game(scenario(platoon() + enemy()))
    g.state.stands["b"].x = 20.0
    st = status(g, "sq1")
    assert st["in_command"] is False and st["clause"] == "DD-1.11"


def test_acting_commander_when_the_pc_is_lost_g16():
    g = game(scenario(platoon() + enemy()))
    g.state.stands["pc"].alive = False
    assert status(g, "sq1")["in_command"] and "holds the commander" in status(g, "sq1")["reason"]


def test_insurgents_never_use_command_rules_g16():
    g = game(scenario(platoon() + enemy()))
    assert status(g, "vc")["in_command"] is None


def test_an_activation_costs_the_same_whatever_was_asked_before_dd_2_6():
    """DESIGN §5 (issue 11): asking a question never changes a later answer. The command cache was keyed
    on where the stands stand, not on which are hidden: asked while the HQ and the squad were under a
    Blind (no commander on the table, G-16), it kept "Out of Command" after the Blind lifted with nothing
    moved, and the squad's activation cost 2 CP (DD-1.14) instead of 1 CP (DD-2.6)."""
    asked, fresh = game(scenario(platoon() + enemy()), dice=[6]), game(scenario(platoon() + enemy()), dice=[6])
    for g in (asked, fresh):
        for eid in ("hq", "sq1"):
            g.state.elements[eid].blind = "A1"
    assert status(asked, "sq1")["reason"] == "no commander or squad leader survives"  # G-16; only one asks
    for g in (asked, fresh):
        for eid in ("hq", "sq1"):
            g.state.elements[eid].blind = None  # the Blind lifts where it stands
    for g in (asked, fresh):
        cp = g.state.sides["allied"].cp
        g.act("allied", {"type": "hold", "element": "sq1"})
        assert g.state.sides["allied"].cp == cp - 1  # In Command: 1 CP (DD-2.6)
    assert asked.events == fresh.events and asked.hash() == fresh.hash()


@pytest.mark.parametrize("change", ["under a Blind", "Blind lifted", "in reserve", "out of reserve", "killed", "night"])
def test_the_command_cache_sees_every_change_it_depends_on(change):
    """Whatever changes, the cached status equals the rules' answer worked out afresh (DD-1.10–1.13,
    DD-2.6, G-16), for every Allied element."""
    from game.rules.command import _command_status

    raw = scenario(platoon() + enemy())
    raw["element"].append(element("sq2", "allied", [stand("sl2", "us_squad_leader", 30, 30),
                                                     stand("c", "us_rifle_team", 31.2, 31.5)], name="2nd Squad"))
    g = game(raw)
    s = g.state
    if change == "Blind lifted":
        s.elements["hq"].blind = "A1"
    elif change == "out of reserve":
        s.elements["hq"].reserve = True
    for eid in ("hq", "sq1", "sq2"):
        status(g, eid)
    if change == "under a Blind":
        s.elements["hq"].blind = "A1"
    elif change == "Blind lifted":
        s.elements["hq"].blind = None
    elif change == "in reserve":
        s.elements["hq"].reserve = True
    elif change == "out of reserve":
        s.elements["hq"].reserve = False
    elif change == "killed":
        s.stands["pc"].alive = False
    elif change == "night":
        s.time_of_day = "night_dark"
    for eid in ("hq", "sq1", "sq2"):
        el = s.elements[eid]
        if s.living(el):
            assert status(g, eid) == _command_status(g, el), (change, eid)
