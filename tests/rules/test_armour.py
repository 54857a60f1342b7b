"""Armour (DD-5.7, DD-5.12–5.18, DD-7.2–7.10; G-04, G-05, G-31, G-34; C-06, C-08) with forced dice.

The table is tests/fixtures/scenarios/armour_road.toml: an M113 ACAV (acav_1) carrying 1st Squad and an
M48A3 (tank_1) on a road, an NVA RPG-7 team (rpg_a) and riflemen (nva_a, nva_b) to the north. Sight is
forced open (``los_override``) so each test is about the armour rule alone.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from game.rules import armour, crew, odds, vehicles
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import load_scenario
from game.rules.state import base_of

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "scenarios" / "armour_road.toml"


def make(side: str = "insurgent", seed: int = 1) -> Game:
    g = Game(load_scenario(FIXTURE), seed)
    g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    g.state.to_act = side
    g.state.sides["allied"].cp = 6
    return g


def W(wid: str) -> armour.Weapon:
    return armour.tables().weapons[wid]


def V(vid: str) -> vehicles.VehicleType:
    return vehicles.roster()[vid]


def events(evs, kind):
    return [e for e in evs if e["type"] == kind]


def rec(g: Game, sid: str) -> vehicles.VehicleRec:
    return vehicles.vstate(g).vehicles[sid]


# -- the tables ------------------------------------------------------------------------------------------
def test_worked_examples_of_dd_7_7():
    # DD-7.7: an M113 (4+) hit by an RPG-7 (AP 2) saves on a 6 only; an M48A3 (3+) on 5+
    assert armour.save_need(W("rpg7"), V("m113_acav")) == 6
    assert armour.save_need(W("rpg7"), V("m48a3")) == 5


def test_save_edges_above_six_is_no_save():
    # G-31: a need above 6 is no save; G-05: AP 3 leaves the M48 a 6, AP 4 nothing
    assert armour.save_need(W("gun90"), V("m113_acav")) is None
    assert armour.save_need(W("gun90"), V("m48a3")) == 6
    assert armour.save_need(W("sagger"), V("m48a3")) is None
    assert armour.save_need(W("hmg50"), V("m113_acav")) == 5  # G-05: .50 vs M113 5+


def test_slat_armour_lowers_rpg_ap_only():
    # DD-7.5: slat armour takes 1 from the AP of RPG-2 and RPG-7 warheads, not of a LAW or a gun
    assert armour.save_need(W("rpg7"), V("tango")) == 5
    assert armour.save_need(W("rpg2"), V("tango")) == 4
    assert armour.save_need(W("m72_law"), V("tango")) == 6
    assert armour.save_need(W("gun76"), V("tango")) == 6


def test_which_weapons_hurt_which_classes():
    # DD-7.2, G-04 procedure 3
    assert not armour.can_damage(W("m60"), 2)
    assert armour.can_damage(W("m60"), 1)
    assert armour.can_damage(W("hmg50"), 2) and not armour.can_damage(W("hmg50"), 3)
    assert armour.can_damage(W("rpg2"), 4)
    he1 = armour.Weapon("he105", "105mm", "he", 0, 0.0, 1, "G-05")
    he2 = armour.Weapon("he155", "155mm", "he", 0, 0.0, 2, "G-05")
    assert not armour.can_damage(he1, 3) and armour.can_damage(he1, 2)
    assert armour.can_damage(he2, 4)  # G-04: any weapon with AP >= 2 damages every class


def test_damage_table_clamps_and_names_every_face():
    # DD-5.13-5.18; G-31: vehicle table results are clamped to 1-6
    t = armour.tables()
    assert [t.result(n).id for n in range(1, 7)] == list(armour.RESULTS)
    assert t.result(0).id == "scrape" and t.result(9).id == "brewed_up"


# -- AT fire through the game ------------------------------------------------------------------------------
RPG_AT_ACAV = {"type": "at_fire", "element": "rpg", "stand": "rpg_a", "weapon": "rpg7", "target": "acav_1"}


def test_rpg_hit_that_the_m113_saves_on_a_six():
    g = make()
    g.dice.force([4, 6])  # DD-7.6 to hit 4+; DD-7.7 the M113 saves on a 6
    evs = g.act("insurgent", RPG_AT_ACAV)
    shot = events(evs, "at_fire")[0]
    assert shot["hit"] is True and (shot["x0"], shot["y0"], shot["x1"], shot["y1"]) == (13, 16, 10, 6)
    save = [e for e in evs if e["type"] == "roll" and e["purpose"] == "Armour save"][0]
    assert save["need"] == 6
    assert events(evs, "armour")[0]["result"] == "ricochet"
    assert rec(g, "acav_1").hp == 2


def test_rpg_penetrates_the_m113_on_a_five_and_scrapes_it():
    g = make()
    g.dice.force([4, 5, 1])  # hit; save 5 fails (needs 6); Damage Table 1: Superficial Scrape
    evs = g.act("insurgent", RPG_AT_ACAV)
    assert events(evs, "armour")[0]["result"] == "penetration"
    dmg = events(evs, "vehicle_damage")[0]
    assert dmg["result"] == "scrape" and dmg["hp"] == 1 and dmg["clause"] == "DD-5.13"
    assert rec(g, "acav_1").passengers == ["sq1"]  # C-08: a scrape leaves the passengers aboard


def test_a_miss_rolls_no_save():
    g = make()
    g.dice.force([3])  # DD-7.6: 4+ needed
    evs = g.act("insurgent", RPG_AT_ACAV)
    assert events(evs, "at_fire")[0]["hit"] is False and not events(evs, "armour")


def test_at_fire_odds_preview():
    # DD-7.6: the Patton stands on the open road (no cover modifier): 4+ to hit, then its 3+ save against
    # the RPG-7's AP 2 is 5+ (DD-7.7); the preview gives P(hit) x P(save fails) = 1/2 x 4/6
    g = make()
    res = odds.preview(g, "insurgent", {**RPG_AT_ACAV, "target": "tank_1"})
    assert res["need"] == 4 and res["save"] == 5
    assert res["p_penetration"] == pytest.approx(0.5 * (4 / 6))


def test_small_arms_cannot_target_an_armoured_hull():
    g = make()
    with pytest.raises(IllegalAction) as err:
        g.check("insurgent", {"type": "fire", "element": "riflemen", "target": "acav_1"})
    assert "DD-7.2" in err.value.clause


def test_at_fire_refuses_a_target_out_of_range():
    g = make()
    g.state.stands["rpg_a"].x, g.state.stands["rpg_a"].y = 29.0, 23.0  # about 24" off: the RPG-7 reaches 18"
    with pytest.raises(IllegalAction) as err:
        g.check("insurgent", RPG_AT_ACAV)
    assert "G-05" in err.value.clause


# -- the Vehicle Damage Table, row by row --------------------------------------------------------------------
def apply(g: Game, sid: str, roll: int) -> None:
    armour.apply_result(g, g.state.stands[sid], armour.tables().result(roll))


def test_mobility_kill_stops_the_vehicle():
    g = make("allied")
    apply(g, "tank_1", 2)  # DD-5.14
    with pytest.raises(IllegalAction) as err:
        g.check("allied", {"type": "move", "element": "tank", "mode": "patrol", "to": [20, 6]})
    assert err.value.clause == "DD-5.14"
    assert not [a for a in g.legal_actions("allied") if a["type"] == "move" and a.get("element") == "tank"]


def test_weapons_knockout_loses_the_main_weapon():
    g = make()
    acav = g.state.stands["acav_1"]
    assert vehicles.vehicle_fp(g, acav) == 13  # G-06: .50 (5) + 2x M60 (4)
    apply(g, "acav_1", 3)  # DD-5.15: the primary weapon (.50) is destroyed
    assert vehicles.vehicle_fp(g, acav) == 8
    tank = g.state.stands["tank_1"]
    apply(g, "tank_1", 3)
    assert armour.at_weapons(g, tank) == []  # the 90 mm is gone


def test_bailout_hits_passengers_on_a_one_and_sets_them_down_pinned():
    # DD-5.16, C-08: Hasty Bailout (DD-3.22): each stand hit on a 1; survivors Pinned within 2"
    g = make()
    g.dice.force([1, 2, 6])
    apply(g, "acav_1", 4)
    r = rec(g, "acav_1")
    assert r.abandoned and not r.wreck and r.passengers == []
    sq = g.state.elements["sq1"]
    assert not sq.reserve and sq.pinned
    hull = base_of(g.book, g.state.stands["acav_1"])
    for s in g.state.living(sq):
        assert hull.distance(base_of(g.book, s)) <= 2.0 + 1e-9
    # the element's order: the Squad Leader rolls the 1 (a Small stand: removed), the teams 2 and 6
    assert not g.state.stands["sq1_sl"].alive
    assert g.state.stands["sq1_a"].hits == 0 and g.state.stands["sq1_b"].hits == 0


def test_knocked_out_leaves_a_wreck_that_blocks_sight():
    g = make()
    g.dice.force([4, 4, 4])  # passengers 4-6: unhurt (hit on 1-3)
    evs_before = len(g.events)
    apply(g, "acav_1", 5)  # DD-5.17
    evs = g.events[evs_before:]
    assert events(evs, "wreck")[0]["vehicle"] == "acav_1"
    assert not g.state.stands["acav_1"].alive
    assert any(h[6] == "acav_1" for h in vehicles.hulls_now(g))  # the wreck stays on the table
    assert all(s.alive for s in g.state.living(g.state.elements["sq1"]))
    assert g.state.elements["sq1"].pinned


def test_brewed_up_kills_everyone_aboard_and_blasts_within_two_inches():
    # DD-5.18: all aboard KIA; a 3 FP blast on every unit within 2"
    g = make()
    g.state.stands["nva_a"].x, g.state.stands["nva_a"].y = 10.0, 8.5  # 1.5" from the hull
    start = len(g.events)
    g.dice.force([4, 4, 4, 6, 6, 6])  # the blast's three dice on nva_a, then its saves
    apply(g, "acav_1", 6)
    evs = g.events[start:]
    assert all(not g.state.stands[s].alive for s in ("sq1_sl", "sq1_a", "sq1_b"))
    assert [t.state for t in g.state.tokens if t.id.startswith("cas_sq1")] == ["kia"] * 3
    assert events(evs, "brew_up")[0]["vehicle"] == "acav_1"
    blast = [e for e in evs if e["type"] == "roll" and e["purpose"] == "to hit"]
    assert blast and blast[0]["stand"] == "nva_a" and blast[0]["result"] == 3


def test_scrapes_to_zero_hp_knock_the_vehicle_out():
    # G-04 procedure 2
    g = make()
    g.dice.force([4, 4, 4])
    apply(g, "acav_1", 1)
    apply(g, "acav_1", 1)
    assert rec(g, "acav_1").hp == 0 and rec(g, "acav_1").wreck


# -- Punch-Drunk (DD-7.9-7.10) ------------------------------------------------------------------------------
RPG_AT_TANK = {**RPG_AT_ACAV, "target": "tank_1"}


def test_punch_drunk_after_two_non_penetrating_hits_stuns_a_heavy_tank():
    g = make()
    g.dice.force([4, 6])  # hit, the Patton saves (5+)
    g.act("insurgent", RPG_AT_TANK)
    assert not rec(g, "tank_1").stunned
    g.state.to_act = "insurgent"
    g.state.elements["rpg"].activations = 0
    g.dice.force([4, 5, 1])  # hit, saved, Crew Morale test rolls 1: Stunned (DD-7.9, C-06)
    evs = g.act("insurgent", RPG_AT_TANK)
    assert rec(g, "tank_1").stunned
    assert events(evs, "crew")[0]["state"] == "stunned"
    tank = g.state.stands["tank_1"]
    assert vehicles.vehicle_fp(g, tank) == 0 and armour.at_weapons(g, tank) == []  # DD-7.10
    # Rally the Crew (1 CP, DD-7.10)
    g.state.to_act = "allied"
    g.act("allied", {"type": "rally_crew", "element": "tank"})
    assert not rec(g, "tank_1").stunned


def test_light_armour_is_never_punch_drunk():
    g = make()
    r = rec(g, "acav_1")
    for _ in range(3):
        armour.punch_drunk(g, g.state.stands["acav_1"], r, V("m113_acav"))
    assert r.at_hits == 0 and not r.stunned  # DD-7.9: cast-steel tanks only


# -- the exposed crewman (DD-7.3, G-34) --------------------------------------------------------------------
def test_crew_shot_buttons_up_the_crew_and_silences_the_pintle():
    g = make()
    g.dice.force([6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])  # 6 FP at -2 (6+): one hit; morale 1 fails
    evs = g.act("insurgent", {"type": "crew_shot", "element": "riflemen", "target": "tank_1"})
    roll = [e for e in evs if e["type"] == "roll" and e["purpose"] == "to hit"][0]
    assert roll["need"] == 6 and roll["result"] == 1
    assert rec(g, "tank_1").buttoned
    assert vehicles.vehicle_fp(g, g.state.stands["tank_1"]) == 4  # the coax; the cupola .50 is silent
    g.state.to_act = "allied"
    g.act("allied", {"type": "unbutton", "element": "tank"})
    assert not rec(g, "tank_1").buttoned


def test_crew_shot_needs_an_exposed_crewman():
    g = make()
    rec(g, "tank_1").buttoned = True
    with pytest.raises(IllegalAction) as err:
        g.check("insurgent", {"type": "crew_shot", "element": "riflemen", "target": "tank_1"})
    assert err.value.clause == "DD-7.3"


def test_stunned_crew_recovers_on_a_phase_three_pass():
    g = make()
    rec(g, "tank_1").stunned = True
    g.dice.force([5])  # the crew's Morale: US Army, standard 4+ (DD-7.10, C-06): a 5 passes
    crew.consolidation(g)
    assert not rec(g, "tank_1").stunned


# -- HE templates on hulls (G-04, G-05) ---------------------------------------------------------------------
def test_light_he_cannot_hurt_the_patton_but_may_the_acav():
    from game.rules import template

    g = make()
    start = len(g.events)
    g.dice.force([5, 5, 5, 6, 6, 6, 5, 5, 5])  # the ACAV: 3 hits, its 4+ saves hold; the Patton: 3 hits
    t = template.circle(13, 6, 4.0, kind="mortar", fp=3, ap=0, name="81 mm mortar")
    template.attack(g, t, side="allied")
    evs = g.events[start:]
    results = [(e["vehicle"], e["result"]) for e in events(evs, "armour")]
    # G-04: HE with AP 1 or less hurts Class 1-2 only: the ACAV saves, the Patton shrugs it off
    assert results == [("acav_1", "ricochet")] * 3 + [("tank_1", "no_effect")] * 3
    assert g.dice.forced_left == 0
