"""Chapter 10 rules with forced dice (game/rules/jungle_ghost.py; DD-10.3–10.15, G-09, G-12, G-24, G-33, G-40).

Each test is a tiny table: the rule under test in its docstring, the dice forced, the end state checked.
"""

from __future__ import annotations

import pytest

from game.rules import jungle_ghost as jg
from game.rules.game import Game
from game.rules.scenario import build_scenario
from game.rules.state import Token
from game.rules.turn import start_turn
from tests.builders import element, enemy, platoon, scenario, stand


def solo_game(elements, terrain=None, dice=None, threat=2, width=48, height=48, seed=1) -> Game:
    if not any(e["side"] == "insurgent" for e in elements):
        elements = elements + enemy((width - 5, 3.0))
    g = Game(build_scenario(scenario(elements, terrain, width=width, height=height)), seed, start=False, threat=threat)
    if dice:
        g.dice.force(dice)
    jg.enable(g)
    start_turn(g)
    return g


def shadows(g):
    return [b for b in g.state.blinds.values() if b.id in g.state.solo.shadows]


def test_shadow_blind_count_by_table_size():  # DD-10.3
    """6 Shadow Blinds on a 4'x4' table, 8 on a 6'x4'; none within 6" of a player stand (G-40). The
    test scenario fields one Insurgent element, which the Shadow Blinds make up the difference to."""
    small = solo_game(platoon(), width=48, height=48)
    large = solo_game(platoon(), width=72, height=48)
    assert jg.table_count(small) == 6 and jg.table_count(large) == 8
    assert len(shadows(small)) == 6 - 1
    assert len(shadows(large)) == 8 - 1
    for g in (small, large):
        for b in shadows(g):
            assert not jg._near_player(g, b.x, b.y, 6.0)


def _solo_raw(raw, threat=2) -> Game:
    g = Game(build_scenario(raw), 1, start=False, threat=threat)
    jg.enable(g)
    start_turn(g)
    return g


def test_shadow_blinds_make_up_the_scenario_force():  # DD-10.3, engine policy (docs/ai.md)
    """The scenario's Insurgent order of battle is the Jungle Ghost's: each of its Blinds (Dummy or not)
    and each element not under a Blind counts once, and Shadow Blinds make up the difference to 6."""
    els = platoon() + enemy((40, 40), "v1") + enemy((30, 44), "v2") + enemy((20, 44), "v3")
    raw = scenario(els)
    raw["element"][-1]["blind"] = "X1"
    raw["blind"] = [{"id": "X1", "side": "insurgent", "at": [20, 44]},
                    {"id": "X2", "side": "insurgent", "at": [10, 44], "dummy": True}]
    g = _solo_raw(raw)
    assert jg.scenario_force(g) == 4  # v1, v2 loose; X1 (holding v3) and the Dummy X2
    assert len(shadows(g)) == 6 - 4
    big = scenario(platoon() + [e for i in range(7) for e in enemy((6 + 6 * i, 44), f"v{i}")])
    assert len(shadows(_solo_raw(big))) == 0  # never fewer than none


@pytest.mark.parametrize("n", [0, 3, 9])
def test_scenario_sets_shadow_blinds(n):  # DD-10.3; [scenario] shadow_blinds (docs/scenarios.md)
    raw = scenario(platoon() + enemy())
    raw["scenario"]["shadow_blinds"] = n
    g = _solo_raw(raw)
    assert len(shadows(g)) == n


def test_shadow_blinds_field_is_validated():  # docs/scenarios.md
    from game.rules.scenario import ScenarioError

    for bad in (-1, 17, "six", True):
        raw = scenario(platoon() + enemy())
        raw["scenario"]["shadow_blinds"] = bad
        with pytest.raises(ScenarioError):
            build_scenario(raw)


def test_placement_priority_hootch_then_treeline():  # DD-10.4
    """One inside each hootch, one along each tree line, before any quarter roll."""
    terrain = [{"id": "h1", "type": "hootch", "point": [30, 30], "size": [3, 3]},
               {"id": "wood", "type": "dense", "polygon": [[0, 40], [48, 40], [48, 48], [0, 48]]}]
    g = solo_game(platoon(), terrain)
    first, second = shadows(g)[:2]
    assert abs(first.x - 30) < 1.6 and abs(first.y - 30) < 1.6
    assert g.table.ground_at(second.x, second.y).id == "dense"


def test_quarter_roll_rerolls_five_and_six():  # G-40
    g = Game(build_scenario(scenario(platoon() + enemy())), 1, start=False)
    g.dice.force([6, 1])
    g.state.chapters["jungle_ghost"] = jg.GhostState(entry="south")
    spot = jg._quarter_spot(g)
    assert spot is None  # the 6 rerolls
    spot = jg._quarter_spot(g)
    assert spot is not None and spot[0] < 24 and spot[1] > 24  # 1: far left from a south entry


def _echo_next_to_squad(threat=2, terrain=None):
    g = solo_game(platoon(squad_at=(10, 10)), terrain, threat=threat)
    for bid in list(g.state.solo.shadows):
        del g.state.blinds[bid]
    g.state.solo.shadows = {}
    g.state.solo.doom = 0
    bid = jg._place_shadow(g, 10.0, 15.0, "test")
    return g, bid


@pytest.mark.parametrize("die, ambush", [(1, False), (2, False), (3, True), (6, True)])
def test_ambush_reaction_roll(die, ambush):  # DD-10.7, G-24 B
    """Within 6" of an Echo in the open: 1–2 the Spider Waits, 3–6 AMBUSH! and the Reveal Table."""
    g, bid = _echo_next_to_squad()
    g.dice.force([die, 1])  # the reaction roll, then the reveal (1: false alarm at level 2)
    sq = g.state.elements["sq1"]
    jg.on_move(g, sq)
    assert g.state.solo.shadows.get(bid) is None if ambush else g.state.solo.shadows[bid] == "echo"
    texts = [e["text"] for e in g.events if e.get("purpose") == "Ambush Reaction"]
    assert texts and ("AMBUSH" in texts[-1]) == ambush


def test_reaction_only_once_per_activation():  # G-24 B
    g, bid = _echo_next_to_squad()
    g.dice.force([2])
    sq = g.state.elements["sq1"]
    jg.on_move(g, sq)
    jg.on_move(g, sq)
    assert sum(1 for e in g.events if e.get("purpose") == "Ambush Reaction") == 1


def test_trigger_distance_dense_is_four_inches():  # DD-10.7
    terrain = [{"id": "bam", "type": "bamboo", "polygon": [[5, 14], [15, 14], [15, 20], [5, 20]]}]
    g, bid = _echo_next_to_squad(terrain=terrain)
    assert jg.trigger_distance(g, g.state.blinds[bid]) == 4.0
    g2, bid2 = _echo_next_to_squad()
    assert jg.trigger_distance(g2, g2.state.blinds[bid2]) == 6.0


def test_stirring_spider_waits_only_on_one():  # DD-10.7 with G-12 at 3
    g, bid = _echo_next_to_squad()
    g.state.solo.doom = 3
    g.dice.force([2, 1])
    assert jg.reaction_roll(g, bid, g.state.elements["sq1"]) is True


def test_reveal_false_alarm_removes_the_echo():  # DD-10.8, G-09 L2-1
    g, bid = _echo_next_to_squad()
    g.dice.force([1])
    jg.reveal(g, bid, g.state.elements["sq1"], ambush=False)
    assert bid not in g.state.blinds and g.state.solo.progress == g.state.turn


@pytest.mark.parametrize("threat, stands", [(1, ["vc_militia_cell", "vc_militia_cell"]),
                                            (2, ["vc_cadre", "vc_rifle_cell", "vc_rifle_cell"]),
                                            (3, ["nva_officer", "nva_rifle_team", "nva_rifle_team"])])
def test_reveal_table_per_threat_level(threat, stands):  # DD-10.8, DD-10.5, G-09 row 5
    """A spotted contact (no ambush) is placed within 2" of the Echo and does not fire."""
    g, bid = _echo_next_to_squad(threat=threat)
    b = g.state.blinds[bid]
    g.dice.force([5])
    jg.reveal(g, bid, g.state.elements["sq1"], ambush=False)
    new = [e for e in g.state.elements.values() if e.id.startswith("jg")]
    assert [g.state.stands[s].type for s in new[0].stands] == stands
    for sid in new[0].stands:
        st = g.state.stands[sid]
        assert ((st.x - b.x) ** 2 + (st.y - b.y) ** 2) ** 0.5 <= 2.0 + 2.3 * len(stands) / 2
    assert not any(e["type"] == "ambush" for e in g.events)


def test_reveal_bonus_at_stirring():  # G-09, G-12
    g, bid = _echo_next_to_squad()
    g.state.solo.doom = 3
    g.dice.force([4])
    jg.reveal(g, bid, None, ambush=False)
    ev = [e for e in g.events if e.get("purpose") == "Contact Reveal"][-1]
    assert ev["result"] == 5 and ev["modifiers"][0]["value"] == 1


def test_ambush_fires_first_then_discipline_check():  # DD-10.7, DD-2.27, DD-2.30, C-24
    g, bid = _echo_next_to_squad()
    g.los_override = lambda a, b: type("L", (), {"visible": True})()
    g.dice.force([3, 5] + [1] * 7 + [6] + [1] * 9)  # reaction 3, reveal 5 (VC squad), its dice miss; check passes
    res = jg.on_move(g, g.state.elements["sq1"])
    types = [e["type"] for e in g.events]
    assert res == "activation_over"
    assert types.index("ambush") < max(i for i, e in enumerate(g.events) if e.get("purpose", "").startswith("Morale"))


def _hurt_cell(g, at=(10.0, 40.0)):
    el = next(e for e in g.state.elements.values() if e.side == "insurgent")
    for st in g.state.living(el):
        st.x, st.y = at[0] + (st.x - g.state.living(el)[0].x), at[1]
    g.state.living(el)[0].hits = 1
    return el


WOOD = [{"id": "wood", "type": "dense", "polygon": [[0, 42], [48, 42], [48, 48], [0, 48]]}]


def _with_cell():
    return platoon() + [element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 10, 40, 270),
                                                    stand("vc_b", "vc_rifle_cell", 12.2, 40, 270)], kind="cell")]


def test_disengagement_fades_on_three(monkeypatch):  # DD-10.11, DD-10.13
    g = solo_game(_with_cell(), WOOD)
    el = _hurt_cell(g)
    n = len(shadows(g))
    g.dice.force([3, 1])  # the disengagement roll; no hootch so no hootch roll
    jg.consolidation(g)
    assert not g.state.living(el) and "vc" in g.state.solo.faded
    assert len(shadows(g)) == n + 1  # regenerated at the far edge (DD-10.13, G-40)
    newest = shadows(g)[-1]
    assert newest.y > 30


def test_which_elements_are_active_for_the_disengagement_check():  # DD-10.11; jungle_ghost.toml [fade]
    # The three readings of "active": every element on the table; one that fired this turn or is hurt;
    # only a hurt one (the shipped policy). A Pinned element never rolls.
    g = solo_game(_with_cell(), WOOD)
    el = next(e for e in g.state.elements.values() if e.side == "insurgent")
    assert jg._active(g, el, "all") and not jg._active(g, el, "engaged") and not jg._active(g, el, "hurt")
    el.fired_turn = g.state.turn
    assert jg._active(g, el, "engaged") and not jg._active(g, el, "hurt")
    g.state.living(el)[0].hits = 1
    assert jg._active(g, el, "hurt")
    assert jg.rules(g).fade.active == "hurt"
    g = solo_game(_with_cell(), WOOD)  # shipped: an unhurt cell, even one that fired, does not roll
    next(e for e in g.state.elements.values() if e.side == "insurgent").fired_turn = g.state.turn
    jg.consolidation(g)
    assert not [e for e in g.events if e.get("purpose") == "Disengagement"]
    g = solo_game(_with_cell(), WOOD)
    el = _hurt_cell(g)
    el.pinned = True
    jg.consolidation(g)
    assert not [e for e in g.events if e.get("purpose") == "Disengagement"]


def test_disengagement_fails_on_two():  # DD-10.11
    g = solo_game(_with_cell(), WOOD)
    el = _hurt_cell(g)
    g.dice.force([2])
    jg.consolidation(g)
    assert g.state.living(el)


def test_snatch_and_fade_takes_tokens_within_four():  # DD-10.12, DD-3.13
    g = solo_game(_with_cell(), WOOD)
    _hurt_cell(g)
    g.state.tokens += [Token("near", "insurgent", 12, 37, "communist"),
                       Token("far", "insurgent", 30, 30, "communist")]
    g.dice.force([4])
    jg.consolidation(g)
    assert [t.id for t in g.state.tokens] == ["far"]


def test_clinging_to_the_belt():  # DD-10.14, C-10 (4")
    g = solo_game(_with_cell(), WOOD)
    el = _hurt_cell(g)
    sq = g.state.elements["sq1"]
    for st in g.state.living(sq):
        st.y += 26.5  # squad now about 3" from the cell
    g.dice.force([6])
    jg.consolidation(g)
    assert g.state.living(el)
    assert any(e.get("clause") == "DD-10.14; C-10" for e in g.events)
    assert g.dice.forced_left == 1


def test_doom_clock_ticks_and_lights_out():  # DD-10.15, G-12
    g = solo_game(platoon())
    g.state.turn = 2
    g.state.solo.progress = 0
    jg.tension(g)
    assert g.state.solo.doom == 2  # +1 from turn 2, +1 no progress
    g.state.solo.progress = 2
    g.state.turn = 3
    jg.tension(g)
    assert g.state.solo.doom == 3 and g.state.solo.stirring
    g.state.solo.doom = 8
    g.state.turn = 4
    g.dice.force([1, 1, 1] + [6] * 12)
    jg.tension(g)
    assert g.state.solo.doom >= 9 and g.state.turns == 4
    assert any(e.get("kind") == "mortar" for e in g.events)
    assert g.state.solo.reinforced


def test_ai_holds_no_ambush_tokens():  # G-29, C-23
    g = solo_game(platoon())
    assert g.state.sides["insurgent"].ambush_tokens == 0


def test_capture_abandoned_token():  # DD-3.14, G-33 (4)
    g = solo_game(platoon())
    sl = g.state.stands["a"]
    g.state.tokens.append(Token("c1", "insurgent", sl.x, sl.y + 0.9, "communist"))
    jg.consolidation(g)
    assert g.state.sides["allied"].vp == 1 and not g.state.tokens


def test_tables_load_and_reference_real_stands():  # DD-10.8, G-09, G-08 as data
    r = jg.load_ghost()
    assert len(r.reveal) == 18 and sorted(r.trap) == [1, 2, 3, 4, 5, 6]
    g = solo_game(platoon())
    assert jg.check_references(g.book) == []


def test_every_die_is_an_explained_roll():  # DESIGN §5
    g, bid = _echo_next_to_squad()
    g.dice.force([3, 2, 3])  # ambush, reveal 2 = booby trap, trap 3 = grenade
    jg.on_move(g, g.state.elements["sq1"])
    rolls = [e for e in g.events if e["type"] == "roll"]
    assert all(e.get("clause") and e.get("text") for e in rolls)
    assert any(e["purpose"] == "Booby Trap" for e in rolls)


# -- wiring into the Green Fog and the move (DD-4.24 note, DD-4.25, DD-10.7, DD-10.8) ----------------
def _spot_ready(threat=2):
    """An Echo (Green Fog state and the Ghost's) 5" ahead of the squad, the Allies to act."""
    from game.rules.detection import make_echo

    g, bid = _echo_next_to_squad(threat=threat)
    make_echo(g, g.state.blinds[bid], "test", "DD-4.9")
    assert g.state.to_act == "allied"
    return g, bid


def test_spotting_a_shadow_blind_rolls_the_contact_reveal_table():  # DD-4.24 (solo note), DD-10.8, G-24 C
    """A successful Spotting Test on a Shadow Blind does not discard it as a Dummy: the Contact Reveal
    Table places the force (level 2, 5: a VC squad), which does not fire (no ambush)."""
    g, bid = _spot_ready()
    g.dice.force([5, 5])  # the Spotting Test (4+), then the Contact Reveal roll
    ev = g.act("allied", {"type": "spot", "element": "sq1", "target": bid})
    assert bid not in g.state.blinds and bid not in g.state.solo.shadows
    reveal = [e for e in ev if e.get("purpose") == "Contact Reveal"]
    assert reveal and reveal[0]["result"] == 5
    new = [e for e in g.state.elements.values() if e.id.startswith("jg")]
    assert [g.state.stands[s].type for s in new[0].stands] == ["vc_cadre", "vc_rifle_cell", "vc_rifle_cell"]
    assert not any(e["type"] in ("ambush", "fire") for e in ev)
    assert g.state.solo.progress == g.state.turn


def test_a_spotted_booby_trap_is_disarmed():  # G-09 (a trap found by a Spotting Test is disarmed)
    g, bid = _spot_ready()
    g.dice.force([5, 2])  # spot passes; reveal 2: booby trap
    ev = g.act("allied", {"type": "spot", "element": "sq1", "target": bid})
    assert any("disarmed" in e.get("text", "") for e in ev)
    assert not any(e.get("purpose") == "Booby Trap" for e in ev)


def test_recon_by_fire_direct_hit_on_a_shadow_blind():  # DD-4.25, DD-4.31, DD-10.8
    """Recon by Fire's 6 reveals a Shadow Blind through the Contact Reveal Table and rings the force."""
    g, bid = _spot_ready()
    g.dice.force([6, 4])  # Recon by Fire 6: Direct Hit; reveal 4: a VC fireteam
    g.act("allied", {"type": "recon_by_fire", "element": "sq1", "target": bid})
    new = [e for e in g.state.elements.values() if e.id.startswith("jg")]
    assert len(new) == 1 and any(g.state.stands[s].hits or not g.state.stands[s].alive for s in new[0].stands)


def test_recon_by_fire_empty_jungle_on_a_shadow_blind():  # DD-4.29, G-34
    g, bid = _spot_ready()
    g.dice.force([2])
    ev = g.act("allied", {"type": "recon_by_fire", "element": "sq1", "target": bid})
    assert any(e["type"] == "echo_lost" and e["blind"] == bid for e in ev)
    assert bid in g.state.blinds and not any(e.get("purpose") == "Contact Reveal" for e in ev)
    assert g.state.solo.shadows[bid] == "shadow"  # the squad's next look may make it an Echo again


def _march_on_echo():
    g, bid = _echo_next_to_squad()
    for bid2 in list(g.state.blinds):
        if bid2 != bid:
            del g.state.blinds[bid2]
    b = g.state.blinds[bid]
    b.x, b.y = 10.0, 21.0
    g.state.solo.shadows[bid] = "echo"
    return g, bid


def test_ambush_reaction_interrupts_the_move():  # DD-10.7 "interrupt the move", G-24 B
    """The roll is made where the mover first comes within 6" of the Echo: an AMBUSH! freezes it there."""
    g, bid = _march_on_echo()
    g.los_override = lambda a, b: type("L", (), {"visible": True})()
    g.dice.force([4, 4])  # AMBUSH!, then reveal 4: a VC fireteam, which fires first
    ev = g.act("allied", {"type": "move", "element": "sq1", "mode": "patrol", "to": [10, 15.5], "facing": 90})
    frozen = [e for e in ev if e["type"] == "move" and e.get("frozen")]
    assert frozen and frozen[0]["reaction"] == "ghost"
    sl = g.state.stands["sl"]
    assert sl.y < 14.5  # stopped short: the destination puts the squad leader at 14.5
    assert any(e.get("purpose") == "Ambush Reaction" for e in ev)
    moves = [e for e in ev if e["type"] == "move"]
    assert moves[-1].get("frozen")  # the move did not go on
    assert [e["type"] for e in ev].index("ambush") > ev.index(frozen[0])


def test_a_false_alarm_lets_the_move_go_on():  # DD-10.7, G-09 L2-1
    g, bid = _march_on_echo()
    g.dice.force([4, 1])
    g.act("allied", {"type": "move", "element": "sq1", "mode": "patrol", "to": [10, 15.5], "facing": 90})
    assert g.state.stands["sl"].y == pytest.approx(14.5) and bid not in g.state.blinds


def test_spider_waits_lets_the_move_go_on():  # DD-10.7 "1-2 The Spider Waits"
    g, bid = _march_on_echo()
    g.dice.force([2])
    ev = g.act("allied", {"type": "move", "element": "sq1", "mode": "patrol", "to": [10, 15.5], "facing": 90})
    assert g.state.stands["sl"].y == pytest.approx(14.5)
    assert [e for e in ev if e.get("purpose") == "Ambush Reaction"][0]["result"] == "fail"
    assert bid in g.state.blinds
    jg.watch(g)  # nothing rolls twice for the same activation
    assert sum(1 for e in g.events if e.get("purpose") == "Ambush Reaction") == 1


def _scenario_echo_next_to_squad(dummy=False):
    """A Blind of the scenario's own Insurgent force (not a Shadow Blind), an Echo 5" from 1st Squad."""
    from game.rules.blinds import place_blind

    g = solo_game(platoon(squad_at=(10, 10)) + enemy((40, 40), "v1"))
    for bid in list(g.state.solo.shadows):
        del g.state.blinds[bid]
    g.state.solo.shadows = {}
    g.state.solo.doom = 0
    b = place_blind(g, "insurgent", 10.0, 15.0, elements=() if dummy else ["v1"], dummy=dummy, state="echo")
    return g, b.id


@pytest.mark.parametrize("dummy", [False, True])
def test_scenario_echo_springs_an_ambush(dummy):  # DD-10.7 "an Echo"; engine policy (docs/ai.md)
    """The Ghost's scenario Echoes take the Ambush Reaction Roll like Shadow Blind Echoes: AMBUSH!
    reveals the Blind where it stands and its force fires first; a Dummy is a false alarm."""
    g, bid = _scenario_echo_next_to_squad(dummy)
    g.dice.force([3])
    jg.on_move(g, g.state.elements["sq1"])
    assert bid not in g.state.blinds
    ambushes = [e for e in g.events if e["type"] == "ambush"]
    assert bool(ambushes) == (not dummy)
    if not dummy:
        assert g.state.elements["v1"].blind is None and ambushes[-1]["element"] == "v1"
