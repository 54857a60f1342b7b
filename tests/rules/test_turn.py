
"""The turn sequence (DD-2.1–2.5, DD-2.33–2.34, G-21, G-28, G-29)."""

import pytest

from game.rules.errors import IllegalAction
from game.rules.state import Token
from tests.builders import element, enemy, game, platoon, scenario, stand


def rolls(g, purpose):
    return [e for e in g.events if e["type"] == "roll" and e["purpose"].startswith(purpose)]


def test_allied_cp_roll_dd_2_3():
    # DD-2.3: 1d6 per active officer, +1 RTO in base contact with the commander, +1 per squad leader.
    g = game(scenario(platoon() + enemy()), dice=[4])
    ev = rolls(g, "Command Points")[0]
    assert ev["dice"] == [4] and ev["result"] == 6
    assert {m["name"] for m in ev["modifiers"]} == {"RTO in base contact with the commander", "Squad Leader sl"}
    assert g.state.sides["allied"].cp == 6


def test_no_rto_bonus_without_base_contact():
    # DD-2.3: the RTO must be in base contact with the commander.
    raw = scenario(platoon(rto_contact=False) + enemy())
    raw["element"][0]["stand"].append(stand("rto", "us_rto", 14, 5))
    g = game(raw, dice=[2])
    assert g.state.sides["allied"].cp == 3


def test_ambush_tokens_dd_2_4_g29():
    g = game(scenario(platoon() + enemy()))
    assert g.state.sides["insurgent"].ambush_tokens == 4       # start 2 + income 2 (G-29)
    raw = scenario(platoon() + enemy())
    raw["side"][1]["tunnel_entrances"] = 2
    raw["side"][1]["ambush_tokens"] = 5
    assert game(raw).state.sides["insurgent"].ambush_tokens == 6   # +1 for tunnels, capped at 6


def test_impulses_alternate_one_element_at_a_time_dd_2_5():
    g = game(scenario(platoon() + enemy()), dice=[6])
    assert g.state.phase == "engagement" and g.state.to_act == "allied"
    g.act("allied", {"type": "hold", "element": "sq1"})
    assert g.state.to_act == "insurgent"
    with pytest.raises(IllegalAction) as err:
        g.act("allied", {"type": "hold", "element": "hq"})
    assert err.value.clause == "DD-2.5"
    g.act("insurgent", {"type": "hold", "element": "vc"})
    assert g.state.to_act == "allied"


def test_two_passes_end_the_phase_and_consolidation_runs_g28():
    g = game(scenario(platoon() + enemy()), dice=[6])
    assert g.state.turn == 1
    g.act("allied", {"type": "pass"})
    g.act("insurgent", {"type": "pass"})
    assert g.state.turn == 2 and g.state.phase == "engagement"
    lost = [e for e in g.events if e["type"] == "cp" and e.get("lost")]
    assert lost and lost[0]["lost"] == 8                   # G-28 (3): unspent CP is lost


def test_a_side_with_nothing_to_do_passes_automatically():
    g = game(scenario(platoon() + enemy()), dice=[1])   # 1 + 1 + 1 = 3 CP
    g.act("allied", {"type": "hold", "element": "sq1"})
    g.act("insurgent", {"type": "pass"})
    g.act("allied", {"type": "hold", "element": "hq"})
    g.act("insurgent", {"type": "pass"})
    g.act("allied", {"type": "hold", "element": "sq1"})  # sq1's second activation (G-28 (2))
    # Allied: 0 CP left, so the insurgent passing ends the phase at once.
    assert g.state.sides["allied"].cp == 0
    g.act("insurgent", {"type": "pass"})
    assert g.state.turn == 2
    assert any(e["type"] == "pass" and e.get("automatic") for e in g.events)


def test_an_element_activates_at_most_twice_g28():
    g = game(scenario(platoon() + enemy()), dice=[6])
    for _ in range(2):
        g.act("allied", {"type": "hold", "element": "sq1"})
        g.act("insurgent", {"type": "pass"})
    with pytest.raises(IllegalAction) as err:
        g.act("allied", {"type": "hold", "element": "sq1"})
    assert err.value.clause == "G-28 (2)"


def test_insurgent_second_activation_costs_an_ambush_token_g28():
    g = game(scenario(platoon() + enemy()), dice=[6])
    g.act("allied", {"type": "pass"})
    g.act("insurgent", {"type": "hold", "element": "vc"})
    g.act("allied", {"type": "hold", "element": "sq1"})
    g.act("insurgent", {"type": "hold", "element": "vc"})
    assert g.state.sides["insurgent"].ambush_tokens == 3


def test_pinned_elements_test_morale_at_the_end_of_the_turn_dd_2_33():
    g = game(scenario(platoon() + enemy()), dice=[6])
    g.state.elements["sq1"].pinned = True
    g.state.elements["vc"].pinned = True
    g.dice.force([4, 3])   # sq1 (4+) passes on 4; vc (4+) fails on 3 — in id order: sq1, vc
    g.act("allied", {"type": "pass"})
    g.act("insurgent", {"type": "pass"})
    assert not g.state.elements["sq1"].pinned
    assert g.state.elements["vc"].pinned
    tests = [e for e in rolls(g, "Morale") if "DD-2.33" in e["clause"]]
    assert [e["element"] for e in tests] == ["sq1", "vc"]


def test_turn_limit_ends_the_game_dd_2_34():
    raw = scenario(platoon() + enemy(), turns=2)
    g = game(raw)
    for _ in range(2):
        g.act("allied", {"type": "pass"})
        g.act("insurgent", {"type": "pass"})
    assert g.state.over and g.state.phase == "over"
    assert g.state.result["reason"].startswith("the turn limit")
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "pass"})


def test_casualty_left_on_the_table_scores_c02():
    raw = scenario(platoon() + enemy(), turns=1)
    g = game(raw)
    g.state.tokens.append(Token("t1", "allied", 30.0, 30.0, "wounded"))
    g.dice.force([5])  # the bleed roll: clings to life (DD-6.4)
    g.act("allied", {"type": "pass"})
    g.act("insurgent", {"type": "pass"})
    assert g.state.result["vp"] == -2     # C-02: a living casualty left on the table is -2


def test_bleed_kills_an_untended_casualty_on_1_or_2_dd_6_4():
    raw = scenario(platoon() + enemy(), turns=1)
    g = game(raw)
    g.state.tokens.append(Token("t1", "allied", 30.0, 30.0, "wounded"))
    g.dice.force([2])
    g.act("allied", {"type": "pass"})
    g.act("insurgent", {"type": "pass"})
    assert g.state.tokens[0].state == "kia" and g.state.result["vp"] == -3   # DD-3.17


def test_medic_in_contact_stabilises_c01():  # DD-3.15, DD-6.5, C-01
    raw = scenario([element("med", "allied", [stand("m", "us_medic", 30, 31.0)], kind="team")]
                   + platoon() + enemy(), turns=1)
    g = game(raw)
    g.state.tokens.append(Token("t1", "allied", 30.0, 30.0, "wounded"))
    g.act("allied", {"type": "pass"})
    g.act("insurgent", {"type": "pass"})
    assert g.state.tokens[0].state == "stabilized"


HAMLET = {"id": "h", "name": "the hamlet", "side": "allied", "kind": "hold", "vp": 3,
          "polygon": [[30, 30], [46, 30], [46, 46], [30, 46]]}


def end_turn_one(raw):
    g = game(raw)
    g.act("allied", {"type": "pass"})
    g.act("insurgent", {"type": "pass"})
    return g


def test_a_held_objective_scores_its_vp_g30():
    raw = scenario(platoon() + [element("ft", "allied", [stand("f", "us_rifle_team", 35, 35)], kind="team")]
                   + enemy(at=(10, 40)), turns=1)
    raw["objective"] = [HAMLET]
    g = end_turn_one(raw)
    assert g.state.result["vp"] == 3 and g.state.result["winner"] == "allied"
    assert any("the hamlet" in line for line in g.state.result["scoring"])


def test_an_objective_with_an_enemy_inside_is_not_held_g30():
    raw = scenario(platoon() + [element("ft", "allied", [stand("f", "us_rifle_team", 35, 35)], kind="team")]
                   + enemy(at=(40, 40)), turns=1)
    raw["objective"] = [HAMLET]
    assert end_turn_one(raw).state.result["vp"] == 0


def test_an_insurgent_objective_counts_against_the_allies_g30():
    raw = scenario(platoon() + enemy(at=(40, 40)), turns=1)
    raw["objective"] = [{**HAMLET, "side": "insurgent", "kind": "clear"}]
    g = end_turn_one(raw)
    assert g.state.result["vp"] == -3 and g.state.result["winner"] == "insurgent"


def test_bad_objectives_are_reported():
    from game.rules.scenario import ScenarioError, build_scenario

    raw = scenario(platoon() + enemy())
    raw["objective"] = [{"id": "x", "side": "allied", "kind": "capture", "polygon": [[0, 0], [60, 0], [0, 5]]}]
    with pytest.raises(ScenarioError) as err:
        build_scenario(raw)
    text = str(err.value)
    assert "unknown objective kind 'capture'" in text


def test_a_side_with_only_a_shadow_blind_left_is_not_wiped_out():
    from game.rules.state import Blind
    from game.rules.turn import check_wipeout

    g = game(scenario(platoon() + enemy()))
    for st in g.state.stands.values():
        if st.side == "insurgent":
            st.alive = False
    g.state.blinds["shadow"] = Blind("shadow", "insurgent", 30, 30, dummy=False, elements=[])
    assert not check_wipeout(g)
    del g.state.blinds["shadow"]
    assert check_wipeout(g) and g.state.result["reason"] == "the insurgent side has no stands left"
