"""The vehicle rules beyond the armour path (DD chapter 7, DD-5.33-5.34, DD-2.3, DD-3.22; G-01, G-04, G-06,
G-30) with forced dice: lost vehicles on the VP track, small arms against soft-skins, riders, a vehicle's
half-speed fire, the Ontos's salvo and backblast, wrecks as ground, bogging, and an embarked officer's CP.

The table is tests/fixtures/scenarios/armour_road.toml (an ACAV carrying 1st Squad and an M48A3 on a road,
NVA RPG-7 team and riflemen in the treeline), with the extra elements each test needs added to its text.
Sight is forced open (``los_override``) so each test is about its rule alone.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from game.rules import armour, fire, turn, vehicles
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import load_scenario
from game.rules.state import base_of

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "scenarios" / "armour_road.toml"


def element(eid: str, side: str, kind: str, stands: list[tuple[str, str, float, float, float]],
            embarked: str | None = None) -> str:
    out = f'\n[[element]]\nid = "{eid}"\nside = "{side}"\nname = "{eid}"\nkind = "{kind}"\n'
    if embarked:
        out += f'embarked = "{embarked}"\n'
    for sid, stype, x, y, f in stands:
        out += f'[[element.stand]]\nid = "{sid}"\ntype = "{stype}"\nat = [{x}, {y}]\nfacing = {f}\n'
    return out


TRUCK = element("truck", "allied", "vehicle", [("truck_1", "m35_truck", 26, 3, 0)])
JEEP = element("jeep", "allied", "vehicle", [("jeep_1", "m151_jeep", 26, 3, 0)])
PT76 = element("pt", "insurgent", "vehicle", [("pt_1", "pt76", 6, 16, 270)])
ONTOS = element("ontos", "allied", "vehicle", [("ontos_1", "m50a1_ontos", 6, 9, 90)])
RIDERS = element("riders", "allied", "squad", [("rd_a", "us_rifle_team", 16, 6, 0),
                                                ("rd_b", "us_rifle_team", 16, 6, 0)], embarked="tank_1")


def make(tmp_path: Path, *extra: str, side: str = "insurgent") -> Game:
    path = tmp_path / "table.toml"
    path.write_text(FIXTURE.read_text() + "".join(extra))
    g = Game(load_scenario(path), 1)
    g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    g.state.to_act = side
    g.state.sides["allied"].cp = 6
    return g


def events(evs, kind):
    return [e for e in evs if e["type"] == kind]


def rolls(evs, purpose):
    return [e for e in evs if e["type"] == "roll" and e["purpose"] == purpose]


def rec(g: Game, sid: str) -> vehicles.VehicleRec:
    return vehicles.vstate(g).vehicles[sid]


def apply(g: Game, sid: str, roll: int) -> None:
    armour.apply_result(g, g.state.stands[sid], armour.tables().result(roll))


# -- 1. VP for lost vehicles (G-30) -------------------------------------------------------------------------
def test_an_allied_vehicle_knocked_out_costs_two_vp(tmp_path):
    # G-30: an Allied vehicle or boat Knocked Out, Brewed Up or sunk: -2, listed in the breakdown
    g = make(tmp_path, PT76)
    apply(g, "tank_1", 5)  # DD-5.17: no passengers aboard the Patton
    turn.end_game(g, "test", "DD-2.34")
    assert g.state.result["vp"] == -2
    assert "Allied M48A3 Patton tank_1 lost -2 (G-30)" in g.state.result["scoring"]


def test_an_insurgent_vehicle_lost_and_an_abandoned_one_score_nothing(tmp_path):
    # G-30 is silent on Insurgent vehicles: armour.toml [victory] insurgent_lost = 0 (no line);
    # a Spall & Bailout (DD-5.16) abandons the hull but does not destroy it: no VP either
    g = make(tmp_path, PT76)
    apply(g, "pt_1", 5)
    g.dice.force([6, 6, 6])  # the ACAV's passengers: unhurt on the bailout's 1
    apply(g, "acav_1", 4)
    assert rec(g, "pt_1").wreck and rec(g, "acav_1").abandoned and not rec(g, "acav_1").wreck
    turn.end_game(g, "test", "DD-2.34")
    assert g.state.result["vp"] == 0
    assert not [line for line in g.state.result["scoring"] if "G-30" in line and "lost" in line]


# -- 2. small arms against soft-skins (DD-7.2, G-04) -------------------------------------------------------
def test_riflemen_may_fire_at_a_truck_and_its_six_save_then_the_damage_table(tmp_path):
    # DD-7.2 names only Classes 2-4 as immune: a Class 1 truck is a legal small-arms target. G-04 procedure 1:
    # each hit rolls the armour save (6, soft-skin), a failure the Vehicle Damage Table (1: Scrape, -1 HP)
    g = make(tmp_path, TRUCK)
    assert "truck_1" in [t.id for t in fire.legal_targets(g, g.state.elements["riflemen"],
                                                         g.state.living(g.state.elements["riflemen"]))]
    g.dice.force([6, 6, 1, 1, 1, 1,  # 6 FP (2 NVA rifle teams): two hits at 4+
                  6,                 # the first hit: saved on the 6
                  3, 1])             # the second: not saved, Damage Table 1: Superficial Scrape
    evs = g.act("insurgent", {"type": "fire", "element": "riflemen", "target": "truck_1"})
    assert rolls(evs, "to hit")[0]["result"] == 2
    saves = rolls(evs, "Armour save")
    assert [s["need"] for s in saves] == [6, 6]
    assert [e["result"] for e in events(evs, "armour")] == ["ricochet", "penetration"]
    dmg = events(evs, "vehicle_damage")[0]
    assert dmg["result"] == "scrape" and dmg["hp"] == 1
    assert rec(g, "truck_1").hp == 1
    assert not g.state.elements["truck"].pinned  # its hits are the armour rules', not a Pinning test
    assert g.dice.forced_left == 0


def test_a_jeep_scraped_to_nothing_is_a_wreck(tmp_path):
    # G-04 procedure 2: 0 HP from Scrapes is Knocked Out (the jeep has 1 HP, G-06)
    g = make(tmp_path, JEEP)
    g.dice.force([5, 1, 1, 1, 1, 1, 2, 1])  # one hit; save fails on 2; Damage Table 1
    g.act("insurgent", {"type": "fire", "element": "riflemen", "target": "jeep_1"})
    assert rec(g, "jeep_1").wreck and not g.state.stands["jeep_1"].alive


def test_small_arms_still_cannot_hurt_the_acav(tmp_path):
    # DD-7.2: Class 2-4 hulls stay immune; the closest-target rule skips them
    g = make(tmp_path, TRUCK)
    with pytest.raises(IllegalAction) as err:
        g.check("insurgent", {"type": "fire", "element": "riflemen", "target": "acav_1"})
    assert "DD-7.2" in err.value.clause
    before = len(g.events)
    assert vehicles.small_arms_hit(g, g.state.stands["acav_1"], "DD-5.11") is False
    assert g.events[before]["result"] == "no_effect"


# -- 3. riders (G-06 "Riders", DD-3.22) ----------------------------------------------------------------------
RPG_AT_TANK = {"type": "at_fire", "element": "rpg", "stand": "rpg_a", "weapon": "rpg7", "target": "tank_1"}


def test_riders_bail_out_when_the_tank_is_hit_even_without_penetration(tmp_path):
    # G-06: riders ride in the open (save 6); the tank is hit: Hasty Bailout (DD-3.22: hit on a 1), Pinned
    g = make(tmp_path, RIDERS)
    assert rec(g, "tank_1").passengers == ["riders"]
    g.dice.force([4,     # DD-7.6: the RPG hits
                  1, 3,  # the riders: rd_a hit on the 1, rd_b unhurt
                  2,     # rd_a's save in the open (6): fails
                  6])    # the Patton's armour save 5+: holds
    evs = g.act("insurgent", RPG_AT_TANK)
    assert events(evs, "armour")[0]["result"] == "ricochet"
    assert rolls(evs, "save")[0]["need"] == 6
    r = rec(g, "tank_1")
    assert r.passengers == [] and not r.abandoned and r.hp == 3  # the crew stays; the tank is unhurt
    sq = g.state.elements["riders"]
    assert not sq.reserve and sq.pinned
    assert g.state.stands["rd_a"].hits == 1 and g.state.stands["rd_b"].hits == 0
    hull = base_of(g.book, g.state.stands["tank_1"])
    assert all(hull.distance(base_of(g.book, s)) <= 2.0 + 1e-9 for s in g.state.living(sq))
    assert "riders" in events(evs, "bailout")[0]["text"]
    assert g.dice.forced_left == 0


def test_passengers_inside_an_acav_stay_aboard_a_ricochet(tmp_path):
    # C-08: a non-penetrating hit leaves passengers inside an APC aboard (only riders bail)
    g = make(tmp_path)
    g.dice.force([4, 6])
    g.act("insurgent", {**RPG_AT_TANK, "target": "acav_1"})
    assert rec(g, "acav_1").passengers == ["sq1"]


# -- 4. vehicle activation: half speed and fire at -1 (G-06) -------------------------------------------------
def test_a_vehicle_moving_at_half_speed_fires_its_whole_pool_at_minus_one(tmp_path):
    # G-06: "half speed and fire at -1 to hit" in place of the infantry's halved pool (DD-2.12)
    g = make(tmp_path, side="allied")
    with pytest.raises(IllegalAction):  # half of the Patton's 12" road speed
        g.check("allied", {"type": "fire_maneuver", "element": "tank", "to": [23, 6], "target": "nva_a"})
    g.dice.force([1] * 9)
    evs = g.act("allied", {"type": "fire_maneuver", "element": "tank", "to": [21, 6], "target": "nva_a"})
    roll = rolls(evs, "to hit")[0]
    assert len(roll["dice"]) == 9  # coax 4 + cupola .50 5: not halved
    assert {"name": "vehicle at half speed fires", "value": -1, "clause": "G-06"} in roll["modifiers"]
    assert roll["need"] == 5


# -- 5. the Ontos: 2 rifles an activation, 6 a game, backblast and dust (G-06, DD-5.33-5.34) -------------------
ONTOS_AT_PT = {"type": "at_fire", "element": "ontos", "stand": "ontos_1", "weapon": "rr106_ontos", "target": "pt_1"}


def test_the_ontos_fires_a_two_rifle_salvo_with_one_backblast_and_dust(tmp_path):
    g = make(tmp_path, ONTOS, PT76, side="allied")
    g.state.stands["hq_pc"].x, g.state.stands["hq_pc"].y = 6.0, 7.2  # just behind the Ontos's breech
    g.state.stands["hq_rto"].x, g.state.stands["hq_rto"].y = 7.3, 7.2
    offer = [a for a in g.legal_actions("allied") if a["type"] == "at_fire" and a.get("element") == "ontos"][0]
    assert "salvo" in offer["params"]
    g.dice.force([4, 1,    # shot 1 hits (4+); no save for a PT-76 against AP 3; Damage Table 1: Scrape
                  3,       # shot 2 misses
                  1, 1])   # the backblast's 2 FP on the HQ: both miss
    evs = g.act("allied", {**ONTOS_AT_PT, "salvo": True})
    assert [e["hit"] for e in events(evs, "at_fire")] == [True, False]
    assert rec(g, "pt_1").hp == 1
    assert rec(g, "ontos_1").fired == {"rr106_ontos": 2}
    blast = [e for e in events(evs, "template") if e["kind"] == "backblast"]
    assert len(blast) == 1  # DD-5.33: one cone behind the hull for the salvo
    assert any(e["stands"] == ["ontos_1"] and len(e["dice"]) == 2 for e in rolls(evs, "to hit"))
    assert [e["kind"] for e in events(evs, "smoke")] == ["dust"]  # DD-5.34
    assert g.dice.forced_left == 0


def test_the_ontos_has_six_rounds_a_game(tmp_path):
    # G-06: up to 2 an activation, 6 a game
    g = make(tmp_path, ONTOS, PT76, side="allied")
    rec(g, "ontos_1").fired["rr106_ontos"] = 5
    with pytest.raises(IllegalAction) as err:
        g.check("allied", {**ONTOS_AT_PT, "salvo": True})
    assert err.value.clause == "G-06"
    g.check("allied", ONTOS_AT_PT)  # the last round may still go
    rec(g, "ontos_1").fired["rr106_ontos"] = 6
    assert armour.at_weapons(g, g.state.stands["ontos_1"]) == []
    with pytest.raises(IllegalAction):
        g.check("allied", ONTOS_AT_PT)


def test_a_tank_gun_fires_no_salvo(tmp_path):
    g = make(tmp_path, PT76, side="allied")
    with pytest.raises(IllegalAction) as err:
        g.check("allied", {"type": "at_fire", "element": "tank", "weapon": "gun90", "target": "pt_1", "salvo": True})
    assert err.value.clause == "G-06"


# -- 6. wrecks as ground, bogging (G-01 T15, T9, rule 3) -----------------------------------------------------
def test_a_wreck_shelters_a_stand_in_contact_with_medium_cover(tmp_path):
    # G-01 T15: "a stand may shelter in contact"; DD-5.17: Medium cover
    g = make(tmp_path)
    nva = g.state.stands["nva_a"]
    nva.x, nva.y = 16.0, 8.0  # the rifle team's base 2" from the Patton's centre line
    assert fire.cover_of(g, nva).id != "wreck"
    apply(g, "tank_1", 5)
    hull = base_of(g.book, g.state.stands["tank_1"])
    nva.y -= hull.distance(base_of(g.book, nva))  # slide the base south until it touches the hull
    assert hull.distance(base_of(g.book, nva)) <= g.book.command.base_contact
    cover = fire.cover_of(g, nva)
    assert cover.id == "wreck" and cover.to_hit == -1 and cover.save == 5
    nva.y += 2.0
    assert fire.cover_of(g, nva).id != "wreck"


def test_a_vehicle_cannot_drive_through_a_wreck(tmp_path):
    # G-01 T15: a wreck is impassable to tracked and wheeled vehicles
    g = make(tmp_path, side="allied")
    move = {"type": "move", "element": "acav", "mode": "patrol", "to": [22, 6]}
    g.check("allied", move)  # past the living Patton: a friend's base is passed through (DD-3.20)
    apply(g, "tank_1", 5)
    with pytest.raises(IllegalAction) as err:
        g.check("allied", move)
    assert "wreck" in err.value.reason


def test_tracks_bog_in_dense_jungle_on_a_one_and_unbog_on_four(tmp_path):
    # G-01 T9: "bog check (1 on d6 = Bogged)"; rule 3: a temporary Mobility Kill, 1 CP and 4+ to free
    g = make(tmp_path, side="allied")
    tank = g.state.stands["tank_1"]
    tank.x, tank.y, tank.facing = 16.0, 15.5, 90.0
    g.dice.force([1])
    evs = g.act("allied", {"type": "move", "element": "tank", "mode": "patrol", "to": [16, 17.5]})
    assert rolls(evs, "bog check")[0]["result"] == "fail"
    assert rec(g, "tank_1").bogged
    g.state.to_act, g.state.elements["tank"].activations = "allied", 0
    g.state.elements["tank"].move_actions = 0
    with pytest.raises(IllegalAction) as err:
        g.check("allied", {"type": "move", "element": "tank", "mode": "patrol", "to": [16, 16.5]})
    assert "G-01" in err.value.clause
    g.dice.force([3])
    g.act("allied", {"type": "unbog", "element": "tank"})
    assert rec(g, "tank_1").bogged  # 3: still stuck
    g.state.to_act, g.state.elements["tank"].activations = "allied", 0
    g.dice.force([4])
    g.act("allied", {"type": "unbog", "element": "tank"})
    assert not rec(g, "tank_1").bogged


def test_no_bog_check_off_the_jungle(tmp_path):
    g = make(tmp_path, side="allied")
    evs = g.act("allied", {"type": "move", "element": "tank", "mode": "patrol", "to": [22, 6]})
    assert not rolls(evs, "bog check")


# -- 7. an embarked officer's CP die (DD-2.3, G-06, G-16) -----------------------------------------------------
def test_an_officer_aboard_a_vehicle_rolls_his_cp_die(tmp_path):
    # DD-2.3: 1d6 per active officer, +1 per surviving Squad Leader; an element in a vehicle is on the table
    # inside it, with the vehicle's radio (G-06, G-16): the officer aboard the truck rolls, sq1's Squad
    # Leader aboard the ACAV counts
    text = FIXTURE.read_text().replace('id = "hq"\nside = "allied"', 'id = "hq"\nembarked = "truck_1"\nside = "allied"')
    path = tmp_path / "hq_aboard.toml"
    path.write_text(text + TRUCK)
    g = Game(load_scenario(path), 1)
    assert g.state.elements["hq"].reserve and vehicles.carrier_of(g, g.state.elements["hq"]).id == "truck_1"
    g.dice.force([3])
    start = len(g.events)
    turn.allied_cp(g)
    cp = rolls(g.events[start:], "Command Points")[0]
    assert cp["dice"] == [3]
    assert [m["name"] for m in cp["modifiers"]] == ["Squad Leader sq1_sl"]
    assert g.state.sides["allied"].cp == 4
