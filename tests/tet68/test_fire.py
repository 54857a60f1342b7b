"""Tet '68 fire and exposure (game/rulesets/tet68): the rulebook's worked fire fight (TET-18) with both
figures placed by hand among real walls, the exposure of each coming from the ray casts."""

from __future__ import annotations

import math
import shutil

import pytest

from game.dice import Dice, seed_streams
from game.rulesets.tet68 import fire
from game.rulesets.tet68.exposure import Figure, Opening, Wall, exposure
from game.rulesets.tet68.tables import DATA, tables
from game.tables import DataError

# Davies's ruin: a wall along y = 0 with a door 1" wide (x 3..4); Loc's, 6.4" south, with a window
# (x 2.3..3.5, sill 1.2", lintel 1.9"). Walls 2" high (TET-3).
DOOR_WALL = Wall("davies_wall", (0.0, 0.0), (8.0, 0.0), 2.0, (Opening("door", 3.0, 4.0, 0.0, 1.9),))
WINDOW_WALL = Wall("loc_wall", (0.0, -6.4), (8.0, -6.4), 2.0, (Opening("window", 2.3, 3.5, 1.2, 1.9),))
WALLS = [DOOR_WALL, WINDOW_WALL]
LOC = Figure("loc", 2.9, -6.7, "at_window", facing=90.0)  # behind his window, looking north
DAVIES = Figure("davies", 2.9, 0.3, "leaning", facing=-90.0, lean_to=0.0)  # behind the jamb, leaning east


def forced(*values: int) -> Dice:
    d = Dice(seed_streams(1))
    d.force(list(values), faces=100)
    return d


def test_the_worked_fire_fight_loc_and_davies():  # TET-18, TET-8, TET-15, TET-16, TET-17; C-30, C-31
    seen_loc = exposure(DAVIES, LOC, WALLS)
    seen_davies = exposure(LOC, DAVIES, WALLS)
    assert seen_loc.level == 2 and [p["place"] for p in seen_loc.places if p["seen"]] == ["head", "chest"]
    assert seen_davies.level == 3 and [p["place"] for p in seen_davies.places if p["seen"]] == ["head", "chest", "stomach"]
    assert {p["wall"] for p in seen_loc.places if not p["seen"]} == {"loc_wall"}  # the sill hides the rest
    assert {p["wall"] for p in seen_davies.places if not p["seen"]} == {"davies_wall"}  # the jamb
    distance = math.dist((LOC.x, LOC.y), (DAVIES.x, DAVIES.y))
    assert distance == pytest.approx(7.0)
    loc = fire.Man("loc", "insurgent", "Hoy Loc", 2, 110, "ak47")
    davies = fire.Man("davies", "allied", "Private Davies", 2, 160, "smg")
    # equal Initiative: they fire together (TET-8); Loc rolls 78, Davies 07, then a cover 1 and an effect 2
    dice = forced(78, 7, 1, 3)
    events = fire.volley(dice, [
        {"firer": loc, "target": davies, "distance": distance, "exposure": seen_davies.level, "auto": False},
        {"firer": davies, "target": loc, "distance": distance, "exposure": seen_loc.level, "auto": False},
    ])
    rolls = [e for e in events if e["type"] == "roll"]
    assert [(r["purpose"], r["target_number"] if "target_number" in r else None, r["result"]) for r in rolls] == [
        ("to hit", 55, 78), ("to hit", 20, 7), ("cover", 2, 1), ("effect", None, 2)]
    assert rolls[0]["success"] is False and rolls[1]["success"] and rolls[2]["success"]
    assert all(r["clause"] and r["text"] for r in rolls)  # every die explained
    assert loc.initiative == 0 and loc.alive and not loc.may_move  # "Loc is now down to initiative 0"
    assert davies.initiative == 2
    assert [e["state"] for e in events if e["type"] == "wound"] == ["may fire, not move"]
    assert dice.forced_left == 0


def test_the_hit_chance_vector():  # TET-15: WS 120, M16 at 13" is x1/4: 30%
    pct, factors = fire.chance(fire.Man("m", "allied", "M", 2, 120, "m16"), 13.0)
    assert pct == 30 and [f["clause"] for f in factors] == ["TET-6", "TET-11"]


def test_range_bands_and_the_arming_distance():  # TET-11, G-41
    m16, m79 = tables().weapons["m16"], tables().weapons["m79"]
    assert [fire.band(m16, d) for d in (0.5, 5.0, 5.01, 13.0, 25.0, 25.01)] == [0, 0, 1, 2, 4, None]
    assert [fire.band(m79, d) for d in (3.9, 4.0, 6.0, 12.0, 30.0, 31.0)] == [None, 0, 0, 1, 4, None]
    man = fire.Man("g", "allied", "Grenadier", 2, 100, "m79")
    assert fire.chance(man, 3.0)[0] is None and "arming" in fire.chance(man, 3.0)[1][0]["name"]


def test_complete_hundreds_are_sure_hits_each_with_its_own_cover_roll():  # TET-15, G-41
    man = fire.Man("r", "allied", "Rambo", 4, 240, "pistol")
    tgt = fire.Man("t", "insurgent", "Target", 3, 60, "ak47")
    shot = fire.shoot(forced(30, 5, 1, 6, 2, 4), man, tgt, 1.0, 5)  # 240%: 2 sure, 30 <= 40 one more
    assert shot.hits == 3
    covers = [e for e in shot.events if e.get("purpose") == "cover"]
    assert [c["result"] for c in covers] == [5, 6, 2] and [c["success"] for c in covers] == [True, False, True]
    assert shot.losses == [1, 2]  # effect d6 1 -> d3 1, d6 4 -> d3 2 (a d6 halved, up)
    assert shot.events[0]["automatic_hits"] == 2 and shot.events[0]["target_number"] == 40


def test_a_cone_halves_the_chance_and_only_automatic_weapons_fire_one():  # TET-12, TET-13
    assert fire.chance(fire.Man("a", "insurgent", "A", 2, 110, "ak47"), 4.0, auto=True)[0] == 55
    assert fire.chance(fire.Man("b", "allied", "B", 2, 110, "carbine"), 4.0, auto=True)[0] is None


def test_duckback_in_a_move_phase():  # TET-19, C-32
    firer = fire.Man("f", "allied", "Sgt", 4, 150, "m16")
    mover = fire.Man("m", "insurgent", "Runner", 2, 90, "ak47")
    shot = fire.shoot(forced(10, 6), firer, mover, 3.0, 2, move_phase=True)  # hit on the d100, saved by cover
    events = fire.apply(shot)
    assert shot.duckback and mover.ducked and mover.acting_initiative == 0 and not mover.may_move
    assert events[-1]["type"] == "duckback" and mover.initiative == 2
    # not in the fire phase, and not from a lower-Initiative firer
    calm = fire.Man("c", "insurgent", "Calm", 2, 90, "ak47")
    assert not fire.shoot(forced(10, 6), firer, calm, 3.0, 2, move_phase=False).duckback
    assert not fire.shoot(forced(10, 6), calm, firer, 3.0, 2, move_phase=True).duckback


def test_d3_is_a_d6_halved_up():  # TET-2, G-41
    got = []
    for face in range(1, 7):
        d = Dice(seed_streams(2))
        d.force([face])
        got.append(fire.d3(d)[0])
    assert got == [1, 1, 2, 2, 3, 3]


def test_statistics_span_their_ranges_and_are_explained():  # TET-5, TET-6
    dice = Dice(seed_streams(3))
    leaders = [fire.roll_man(dice, f"l{i}", "allied", "L", "m16", True)[0] for i in range(400)]
    others = [fire.roll_man(dice, f"o{i}", "allied", "O", "m16", False)[0] for i in range(400)]
    assert {m.initiative for m in leaders} == {2, 3, 4} and {m.initiative for m in others} == {1, 2, 3}
    assert min(m.ws for m in leaders) >= 40 and max(m.ws for m in leaders) <= 240
    assert min(m.ws for m in others) >= 30 and max(m.ws for m in others) <= 180
    assert all(m.ws % 10 == 0 for m in leaders + others)
    _, events = fire.roll_man(dice, "x", "allied", "X", "m16", True)
    assert [e["purpose"] for e in events] == ["Initiative", "Weapon Skill"] and events[0]["modifiers"][0]["clause"] == "TET-5"


def test_exposure_in_the_open_behind_a_wall_and_kneeling_behind_a_low_one():  # TET-16, G-41, C-31
    shooter = Figure("s", 0.0, -10.0, "standing", facing=90.0)
    assert exposure(shooter, Figure("t", 0.0, 0.0), []).level == 5  # head to boots
    wall = Wall("w", (-4.0, -1.0), (4.0, -1.0), 2.0)
    assert exposure(shooter, Figure("t", 0.0, 0.0), [wall]).level == 0  # wholly behind 2": no shot
    low = Wall("low", (-4.0, -1.0), (4.0, -1.0), 1.0)  # a waist-high rubble wall
    standing = exposure(shooter, Figure("t", 0.0, 0.0), [low])
    kneeling = exposure(shooter, Figure("t", 0.0, 0.0, "kneeling"), [low])
    assert standing.level == 3 and kneeling.level < standing.level
    assert standing.to_dict()["text"].startswith("head and chest and stomach")
    man = fire.Man("s", "allied", "S", 2, 100, "m16")
    shot = fire.shoot(forced(1), man, fire.Man("t", "insurgent", "T", 2, 90, "ak47"), 10.0, 0)
    assert shot.hits == 0 and shot.events[0]["type"] == "no_shot"


def test_a_bad_table_names_its_file_and_field(tmp_path):
    shutil.copy(DATA / "tet68.toml", tmp_path / "tet68.toml")
    text = (tmp_path / "tet68.toml").read_text().replace("bands = [5.0, 10.0, 15.0, 20.0, 25.0]\nauto = true\n"
                                                        "clause = \"TET-11; TET-12\"\n[[weapon]]\nid = \"ak47\"",
                                                        "bands = [5.0, 10.0]\nauto = true\nclause = \"TET-11; TET-12\"\n"
                                                        "[[weapon]]\nid = \"ak47\"")
    (tmp_path / "tet68.toml").write_text(text)
    with pytest.raises(DataError, match=r"tet68.toml: weapon 'm16': field 'bands'"):
        tables.__wrapped__(tmp_path)
    assert all(row.clause for row in tables().weapons.values())
