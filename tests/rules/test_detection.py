"""Spotting, Critical Spots, scouts, fireteams, the Recon Sweep, Recon by Fire and the reveals of
muzzle flash and bloom (DD-4.12–4.31, DD-4.38–4.40; C-03, C-04, C-07, C-16, C-20; G-32, G-34), each
with forced dice and stubbed LOS."""

from __future__ import annotations

import pytest

from game.rules import detection
from game.rules.errors import IllegalAction
from tests.rules.test_blinds import HQ, make_fog, squad


def spot_roll(events):
    return [e for e in events if e["type"] == "roll" and e["purpose"].startswith("Spotting")]


def mods(ev) -> dict[str, int]:
    return {m["name"]: m["value"] for m in ev["modifiers"]}


def echo_game(*, target_at=(10.0, 18.0), dummy=False, terrain=(), extra=(), blinds_extra=(), los=12.0,
              time="day", allied=None):
    """The 1st Squad at (10, 10) facing north (+y), an Insurgent Echo at ``target_at``."""
    els = [HQ, allied or squad("sq", "allied", 10, 10), *extra]
    if not dummy:
        els.append(squad("vc", "insurgent", *target_at, "i1"))
    g = make_fog(els, [{"id": "i1", "side": "insurgent", "at": list(target_at), "dummy": dummy}, *blinds_extra],
                 terrain=terrain, los=los, time=time, dice=[4])
    for b in g.state.blinds.values():
        b.state = "echo"
    g.state.sides["insurgent"].ambush_tokens = 0  # no ambush from the Blind in these tests (DD-2.25)
    return g


def test_a_spotting_test_reveals_a_real_echo_on_4_plus():
    """DD-4.12, DD-4.23, DD-4.24: one die for the squad, 4+; the stands are placed."""
    g = echo_game()
    cp = g.state.sides["allied"].cp
    g.dice.force([4])
    ev = g.act("allied", {"type": "spot", "element": "sq", "target": "i1"})
    (roll,) = spot_roll(ev)
    assert roll["need"] == 4 and roll["dice"] == [4] and roll["result"] == "pass" and roll["clause"].startswith("DD-4.12")
    assert g.state.sides["allied"].cp == cp - 1
    assert "i1" not in g.state.blinds and g.state.on_table(g.state.elements["vc"])
    assert any(s["element"] == "vc" for s in g.view("allied")["stands"])


def test_a_failed_spotting_test_leaves_the_echo():
    """DD-4.24: on a failure the Echo stays."""
    g = echo_game()
    g.dice.force([3])
    g.act("allied", {"type": "spot", "element": "sq", "target": "i1"})
    assert g.state.blinds["i1"].state == "echo"


def test_a_spotted_dummy_is_discarded():
    """DD-4.24: a Dummy is discarded."""
    g = echo_game(dummy=True)
    g.dice.force([5])
    ev = g.act("allied", {"type": "spot", "element": "sq", "target": "i1"})
    assert any(e["type"] == "blind_removed" and e["dummy"] for e in ev) and "i1" not in g.state.blinds


def test_only_echoes_in_line_of_sight_can_be_spotted():
    """DD-4.11, DD-4.13: a Blind that is not an Echo, or an Echo out of sight, cannot be named."""
    g = echo_game()
    g.state.blinds["i1"].state = "blind"
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "spot", "element": "sq", "target": "i1"})
    g.state.blinds["i1"].state = "echo"
    g.los_override = lambda a, b: type("R", (), {"visible": False})()
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "spot", "element": "sq", "target": "i1"})
    assert not any(a["type"] == "spot" for a in g.legal_actions("allied"))


def test_spot_offers_name_echoes_not_their_contents():
    """DESIGN §6: a spot action lists Echo ids, never what is under them."""
    g = echo_game()
    (a,) = [a for a in g.legal_actions("allied") if a["type"] == "spot"]
    assert a["params"]["target"]["choices"] == ["i1"] and "vc" not in repr(a)


@pytest.mark.parametrize("terrain_type", ["light", "dense", "bamboo", "open"])
def test_target_terrain_modifiers(terrain_type):
    """DD-4.23: secondary jungle/scrub -1; dense triple canopy/bamboo/hootch -2 (terrain.toml `spot`)."""
    from game.rules.data import rulebook

    if terrain_type not in rulebook().terrain:
        pytest.skip(f"no terrain type {terrain_type}")
    patch = {"id": "t", "type": terrain_type, "polygon": [[6, 16], [14, 16], [14, 22], [6, 22]]}
    g = echo_game(terrain=[patch])
    want = rulebook().terrain[terrain_type].spot
    m = detection.spot_modifiers(g, g.state.elements["sq"], g.state.living(g.state.elements["sq"]), g.state.blinds["i1"])
    got = [x.value for x in m if x.name.startswith("target in")]
    assert got == ([want] if want else [])


def test_sprinting_or_firing_target_this_turn_or_last():
    """DD-4.23, DD-4.38, C-07: +1 against a target that Sprinted or fired this turn or the previous one,
    and not for one that only made a Patrol Move."""
    g = echo_game()
    sq, b = g.state.elements["sq"], g.state.blinds["i1"]
    st = g.state.living(sq)
    assert "target Sprinted" not in {m.name for m in detection.spot_modifiers(g, sq, st, b)}
    b.sprint_turn = g.state.turn - 1
    assert {m.name: m.value for m in detection.spot_modifiers(g, sq, st, b)}["target Sprinted"] == 1
    b.sprint_turn = g.state.turn - 2
    g.state.elements["vc"].fired_turn = g.state.turn
    assert {m.name: m.value for m in detection.spot_modifiers(g, sq, st, b)}["target fired"] == 1


def test_patrol_move_helps_the_mover_spot():
    """DD-2.8, C-07: after a Patrol Move the element's own Spotting Tests get +1."""
    g = echo_game(target_at=(10.0, 24.0))
    g.act("allied", {"type": "move", "element": "sq", "mode": "patrol", "to": [10, 13]})
    g.act("insurgent", {"type": "pass"})
    g.dice.force([3])
    ev = g.act("allied", {"type": "spot", "element": "sq", "target": "i1"})
    (roll,) = spot_roll(ev)
    assert mods(roll) == {"Patrol Move: cautious": 1} and roll["need"] == 3 and roll["result"] == "pass"


def test_hold_conceal_target_is_harder_to_spot():
    """DD-4.38, G-32: -1 against a target in Hold/Conceal."""
    g = echo_game()
    g.state.blinds["i1"].conceal = True
    g.dice.force([4])
    ev = g.act("allied", {"type": "spot", "element": "sq", "target": "i1"})
    (roll,) = spot_roll(ev)
    assert mods(roll) == {"target in Hold/Conceal": -1} and roll["need"] == 5 and roll["result"] == "fail"


def test_scout_or_officer_optics_and_hq_leader_optics():
    """DD-4.23: scout or officer binoculars +1; DD-4.16 with C-20: the HQ (PC + RTO in base contact)
    spots with Leader Optics +1 (not both)."""
    scout = {"id": "pt", "side": "allied", "name": "Point", "kind": "team",
             "stand": [{"id": "pt_1", "type": "us_scout", "at": [20, 10], "facing": 90}]}
    g = echo_game(extra=[scout])
    pt = g.state.elements["pt"]
    assert {m.name: m.value for m in detection.spot_modifiers(g, pt, g.state.living(pt), g.state.blinds["i1"])} == {
        "scout or officer with binoculars": 1}
    hq = {"id": "hq2", "side": "allied", "name": "HQ2", "kind": "hq",
          "stand": [{"id": "pc2", "type": "us_platoon_commander", "at": [30, 10], "facing": 90},
                    {"id": "rto2", "type": "us_rto", "at": [31.3, 10], "facing": 90}]}
    g = echo_game(extra=[hq])
    h = g.state.elements["hq2"]
    assert {m.name: m.value for m in detection.spot_modifiers(g, h, g.state.living(h), g.state.blinds["i1"])} == {
        "Leader Optics (Platoon HQ)": 1}


def test_an_isolated_medic_spots_at_minus_one():
    """DD-4.17, DD-4.23: a detached Medic or RTO stand alone is Encumbered, -1."""
    medic = {"id": "doc", "side": "allied", "name": "Doc", "kind": "team",
             "stand": [{"id": "doc_1", "type": "us_medic", "at": [20, 10], "facing": 90}]}
    g = echo_game(extra=[medic])
    d = g.state.elements["doc"]
    assert {m.name: m.value for m in detection.spot_modifiers(g, d, g.state.living(d), g.state.blinds["i1"])} == {
        "isolated Medic or RTO (Encumbered)": -1}


def test_the_rear_blind_spot_and_tail_end_charlie():
    """DD-4.20–4.22: the front 180° has no penalty; the rear is -1 unless one stand faces a flank or
    the rear (DD-4.21), which gives 360° security."""
    g = echo_game(target_at=(10.0, 2.0))  # south of a squad marching north
    sq, b = g.state.elements["sq"], g.state.blinds["i1"]
    st = g.state.living(sq)
    assert {m.name: m.value for m in detection.spot_modifiers(g, sq, st, b)} == {"Blind Spot: unmonitored rear": -1}
    g.state.stands["sq_b"].facing = 270  # Tail-End Charlie
    assert detection.rear_guard(st).id == "sq_b"
    assert detection.spot_modifiers(g, sq, st, b) == []
    g = echo_game(target_at=(18.0, 10.0))  # due east: a flank, inside the 180° patrol arc
    assert detection.spot_modifiers(g, g.state.elements["sq"], g.state.living(g.state.elements["sq"]),
                                    g.state.blinds["i1"]) == []


def test_night_and_dusk_spotting():
    """G-23: -1 to spot at dawn, dusk or night."""
    g = echo_game(time="dusk")
    sq = g.state.elements["sq"]
    assert {m.name for m in detection.spot_modifiers(g, sq, g.state.living(sq), g.state.blinds["i1"])} == {
        "poor light (dusk)"}


def test_a_natural_six_reveals_a_second_echo_within_4_inches():
    """DD-4.14: Critical Spot, the nearest other Echo within 4" of the primary."""
    g = echo_game(blinds_extra=[{"id": "i2", "side": "insurgent", "at": [13, 18], "dummy": True},
                                {"id": "i3", "side": "insurgent", "at": [10, 30], "dummy": True}])
    g.dice.force([6])
    ev = g.act("allied", {"type": "spot", "element": "sq", "target": "i1"})
    assert "i1" not in g.state.blinds and "i2" not in g.state.blinds and "i3" in g.state.blinds
    assert any(e.get("clause") == "DD-4.14" for e in ev)


def test_a_modified_pass_is_not_critical():
    """DD-4.14: only an unmodified natural 6."""
    g = echo_game(blinds_extra=[{"id": "i2", "side": "insurgent", "at": [13, 18], "dummy": True}])
    g.dice.force([5])
    g.act("allied", {"type": "spot", "element": "sq", "target": "i1"})
    assert "i1" not in g.state.blinds and "i2" in g.state.blinds


def test_a_scout_makes_a_free_second_test_after_a_success():
    """DD-4.15: after revealing its primary, a scout's element tests once more, free, against another
    Echo in LOS."""
    scout = {"id": "pt", "side": "allied", "name": "Point", "kind": "team",
             "stand": [{"id": "pt_1", "type": "us_scout", "at": [16, 10], "facing": 90}]}
    g = echo_game(extra=[scout], blinds_extra=[{"id": "i2", "side": "insurgent", "at": [24, 18], "dummy": True}])
    cp = g.state.sides["allied"].cp
    (offer,) = [a for a in g.legal_actions("allied") if a["type"] == "spot" and a["element"] == "pt"
                and not a["emergency"]]
    g.dice.force([4, 3])
    ev = g.act("allied", {"type": "spot", "element": "pt", "target": "i1", "second": "i2"})
    rolls = spot_roll(ev)
    assert [r["result"] for r in rolls] == ["pass", "pass"] and rolls[1]["clause"].startswith("DD-4.15")
    assert "i2" not in g.state.blinds and g.state.sides["allied"].cp == cp - offer["cost"]  # one activation


def test_no_free_test_without_a_scout_or_after_a_failure():
    """DD-4.15: only a scout, only after a success."""
    g = echo_game(blinds_extra=[{"id": "i2", "side": "insurgent", "at": [12, 18], "dummy": True}])
    g.dice.force([4])
    ev = g.act("allied", {"type": "spot", "element": "sq", "target": "i1"})
    assert len(spot_roll(ev)) == 1


def test_split_fireteams_spot_each_in_its_own_sector():
    """DD-4.18: a squad split into fireteams in separate features spots as two elements."""
    woods = [{"id": "w1", "type": "light", "polygon": [[0, 0], [14, 0], [14, 20], [0, 20]]},
             {"id": "w2", "type": "light", "polygon": [[20, 0], [40, 0], [40, 20], [20, 20]]}]
    split = {"id": "sq", "side": "allied", "name": "1st Squad", "kind": "squad",
             "stand": [{"id": "sq_sl", "type": "us_squad_leader", "at": [10, 10], "facing": 90},
                       {"id": "sq_a", "type": "us_rifle_team", "at": [11, 12], "facing": 90},
                       {"id": "sq_b", "type": "us_rifle_team", "at": [25, 10], "facing": 90}]}
    g = echo_game(allied=split, terrain=woods, target_at=(25.0, 18.0), los=9.0)
    offers = [a for a in g.legal_actions("allied") if a["type"] == "spot" and not a["emergency"]]
    assert [a["team"] for a in offers] == [["sq_b"]]  # only the east team sees the Echo
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "spot", "element": "sq", "target": "i1"})
    g.dice.force([5])  # 4+, -1 for the scrub the Echo is in
    ev = g.act("allied", {"type": "spot", "element": "sq", "target": "i1", "team": ["sq_b"]})
    assert spot_roll(ev)[0]["result"] == "pass"


def test_the_platoon_recon_sweep():
    """DD-4.19, C-16: the PC pays 2 CP; up to 3 squads In Command each test one Echo in their sector,
    with Critical Spots."""
    pc = {"id": "hq", "side": "allied", "name": "HQ", "kind": "hq",
          "stand": [{"id": "pc", "type": "us_platoon_commander", "at": [20, 6], "facing": 90}]}
    sqs = [squad("s1", "allied", 14, 10), squad("s2", "allied", 20, 10), squad("s3", "allied", 26, 10),
           squad("s4", "allied", 40, 40)]
    g = make_fog([pc, *sqs], [{"id": f"i{k}", "side": "insurgent", "at": [x, 18], "dummy": True}
                              for k, x in ((1, 14), (2, 20), (3, 26))], los=9.0, dice=[6])
    for b in g.state.blinds.values():
        b.state = "echo"
    cp = g.state.sides["allied"].cp
    (offer,) = [a for a in g.legal_actions("allied") if a["type"] == "recon_sweep"]
    assert offer["cost"] == 2 and sorted(offer["params"]["assign"]["keys"]) == ["s1", "s2", "s3"]
    g.dice.force([4, 2, 5])
    ev = g.act("allied", {"type": "recon_sweep", "element": "hq", "assign": {"s1": "i1", "s3": "i3"}})
    assert g.state.sides["allied"].cp == cp - 2
    rolls = spot_roll(ev)
    assert [r["element"] for r in rolls] == ["s1", "s3", "s2"] and [r["result"] for r in rolls] == ["pass", "fail", "pass"]
    assert sorted(g.state.blinds) == ["i3"]
    assert g.state.elements["s1"].activations == 0  # the squads spend no activation of their own


def test_recon_sweep_needs_2_cp_and_a_commander():
    """DD-4.19: 2 CP; only the Platoon Commander's element."""
    g = echo_game()
    g.state.sides["allied"].cp = 1
    assert not any(a["type"] == "recon_sweep" for a in g.legal_actions("allied"))
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "recon_sweep", "element": "sq"})


# -- Recon by Fire ---------------------------------------------------------------------------------
def rbf(g, die, target="i1"):
    g.dice.force([die])
    return g.act("allied", {"type": "recon_by_fire", "element": "sq", "target": target})


def test_recon_by_fire_costs_low_ammo_and_exposes_the_firer():
    """DD-4.25–4.27, G-32: no Spotting Test needed; Low Ammo; Exposed; then no more Recon by Fire,
    Area Suppression or Grazing Fire until resupplied."""
    g = echo_game(dummy=True)
    ev = rbf(g, 2)
    sq = g.state.elements["sq"]
    assert sq.low_ammo and sq.exposed_turn == g.state.turn and sq.fired_turn == g.state.turn
    assert g.view("insurgent")["elements"][0]["exposed"] is True or any(
        e["exposed"] for e in g.view("insurgent")["elements"] if e["id"] == "sq")
    assert [e["result"] for e in ev if e["type"] == "roll"] == ["empty_jungle"]
    g.act("insurgent", {"type": "pass"})
    assert not any(a["type"] == "recon_by_fire" for a in g.legal_actions("allied"))


def test_recon_by_fire_1_friendly_fire_and_civic_drift():
    """DD-4.28, G-34, C-03: on a 1, the firer's full FP goes at the nearest friendly stand within 4" of
    the marker; Civic Drift -1."""
    friend = squad("sq2", "allied", 14, 18)
    g = echo_game(dummy=True, extra=[friend])
    g.dice.force([1] + [4] * 7 + [1] * 10 + [6])
    g.act("allied", {"type": "recon_by_fire", "element": "sq", "target": "i1"})
    fire_ev = [e for e in g.events if e["type"] == "fire" and e.get("target_element") == "sq2"]
    assert fire_ev and fire_ev[0]["dice"] == 7
    assert g.state.civic_drift == -1
    assert g.events[-1]["type"] == "civic_drift" or any(e["type"] == "civic_drift" for e in g.events)


def test_recon_by_fire_1_with_nobody_near_does_nothing_more():
    """DD-4.28: only if civilians or friendlies are within 4"."""
    g = echo_game(dummy=True)
    rbf(g, 1)
    assert g.state.civic_drift == 0 and g.state.blinds["i1"].state == "echo"


def test_recon_by_fire_2_3_empty_jungle_the_echo_fades_real_or_dummy():
    """DD-4.29, G-34: the Echo goes back to State 0 in place, real or Dummy alike (DD-10.1)."""
    for dummy in (True, False):
        g = echo_game(dummy=dummy, los=9.0)
        g.state.stands["sq_b"].x += 0  # the squad still sees it: DD-4.9 (a) makes it an Echo again at once
        ev = rbf(g, 3)
        assert [e["type"] for e in ev if e.get("blind") == "i1"][-2:] == ["echo_lost", "echo"]
        assert "i1" in g.state.blinds


def test_recon_by_fire_4_5_suppressive_hit_pins_and_tests_in_secret():
    """DD-4.30: a real enemy is Pinned and tests Morale out of the firer's sight; pass: holds."""
    g = echo_game()
    g.dice.force([4, 6])
    ev = g.act("allied", {"type": "recon_by_fire", "element": "sq", "target": "i1"})
    assert g.state.elements["vc"].pinned and g.state.blinds["i1"].state == "echo"
    allied = g.events_for("allied", ev)
    assert not any(e.get("element") == "vc" for e in allied)
    assert any(e["type"] == "roll" and e["purpose"].startswith("Morale") for e in g.events_for("insurgent", ev))


def test_recon_by_fire_4_5_a_failed_test_slips_into_a_spider_hole():
    """DD-4.30, G-34: on a fail the Insurgent unit goes back to the Reserve Hand; the marker goes."""
    g = echo_game()
    g.dice.force([5, 1])
    g.act("allied", {"type": "recon_by_fire", "element": "sq", "target": "i1"})
    assert "i1" not in g.state.blinds and g.state.elements["vc"].reserve
    assert "vc" not in repr(g.view("allied")["elements"])


def test_recon_by_fire_4_5_on_a_dummy_does_nothing():
    g = echo_game(dummy=True)
    rbf(g, 5)
    assert g.state.blinds["i1"].state == "echo"


def test_recon_by_fire_6_direct_hit_reveals_and_rings():
    """DD-4.31: revealed, and one casualty ring."""
    g = echo_game()
    rbf(g, 6)
    assert "i1" not in g.state.blinds and g.state.on_table(g.state.elements["vc"])
    assert sum(s.hits for s in g.state.living(g.state.elements["vc"])) == 1


def test_low_ammo_halves_aimed_fire():
    """G-32 (DD-4.26): Low Ammo halves the Aimed Fire pool, rounded up (fire.fire_groups)."""
    g = make_fog([HQ, squad("sq", "allied", 10, 10), squad("vc", "insurgent", 10, 16)], dice=[4])
    g.state.elements["sq"].low_ammo = True
    g.dice.force([1] * 4)
    ev = g.act("allied", {"type": "fire", "element": "sq", "target": "vc_a"})
    assert [e["dice"] for e in ev if e["type"] == "fire"] == [4]  # 7 FP -> 4


# -- reveals ----------------------------------------------------------------------------------------
def test_night_muzzle_bloom_illuminates_automatic_weapons_to_the_end_of_the_turn():
    """DD-4.39–4.40, C-04: a night MG firer is Illuminated this turn only."""
    mg = {"id": "wpn", "side": "allied", "name": "M60", "kind": "weapons",
          "stand": [{"id": "wpn_mg", "type": "us_mg_team", "at": [10, 10], "facing": 90}]}
    g = make_fog([HQ, mg, squad("vc", "insurgent", 10, 16)], time="night_dark", dice=[4])
    g.dice.force([1] * 12)
    ev = g.act("allied", {"type": "fire", "element": "wpn", "target": "vc_a"})
    bloom = [e for e in ev if e.get("status") == "illuminated"]
    assert bloom and bloom[0]["clause"] == "DD-4.40; C-04"
    view = {e["id"]: e for e in g.view("insurgent")["elements"]}
    assert view["wpn"]["illuminated"] is True
    g.state.turn += 1
    assert {e["id"]: e for e in g.view("insurgent")["elements"]}["wpn"]["illuminated"] is False


def test_no_bloom_by_day_or_for_rifles():
    """DD-4.40: night and automatic weapons only."""
    g = make_fog([HQ, squad("sq", "allied", 10, 10), squad("vc", "insurgent", 10, 16)], time="night_dark", dice=[4])
    g.dice.force([1] * 12)
    ev = g.act("allied", {"type": "fire", "element": "sq", "target": "vc_a"})
    assert not any(e.get("status") == "illuminated" for e in ev)
    assert g.state.elements["sq"].fired_turn == 1  # DD-4.39: it fired, +1 to spot it (C-07)


def test_the_detection_table_is_data_with_clauses():
    """STYLE: the Recon by Fire table is TOML, each row citing its clause, covering 1–6."""
    r = detection.rules()
    assert [detection.rules().recon_result(d).id for d in range(1, 7)] == [
        "friendly_fire", "empty_jungle", "empty_jungle", "suppressive_hit", "suppressive_hit", "direct_hit"]
    assert all(row.clause.startswith("DD-4.") for row in r.result)
