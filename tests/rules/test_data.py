"""The rules data tables: every record loads, cites a clause, and bad data names file and record."""

import shutil
from pathlib import Path

import pytest

from game.rules.data import DATA_DIR, DataError, load_rulebook, rulebook


def test_every_record_loads_and_cites_a_clause():
    book = rulebook()
    tables = [book.terrain, book.bases, book.qualities, book.factions, book.stands]
    assert all(len(t) > 0 for t in tables)
    for table in tables:
        for rec in table.values():
            assert rec.clause.strip(), rec.id


def test_stand_table_follows_g03_and_g20():
    book = rulebook()
    # G-03: rifle teams 3 FP, LMG 4, small stands 1; G-20: medium 2 hits, small 1 (DD-5.8).
    assert book.stands["us_rifle_team"].fp == 3 and book.stands["us_rifle_team"].hits == 2
    assert book.stands["us_mg_team"].fp == 4
    assert book.stands["vc_militia_cell"].fp == 2
    for s in book.stands.values():
        if s.vehicle:  # a vehicle's hits are its roster HP (G-06), worn down by the armour rules
            continue
        assert s.hits == (2 if s.base == "medium" else 1), s.id
    # DD-1.7: base footprints.
    assert book.bases["medium"].width == pytest.approx(1.97) and book.bases["small"].depth == pytest.approx(0.98)


def test_terrain_matrix_movement_follows_g01():
    t = rulebook().terrain
    assert t["open"].allowance(6) == 6          # G-01 T1
    assert t["light"].allowance(6) == 4         # G-01 T6: -2"
    assert t["dense"].allowance(9) == 4.5       # G-01 T9: half
    assert t["stream"].allowance(6) == 3        # DD-3.18: fording 3"
    assert t["mud"].allowance(9) == 3           # DD-9A.10: max 3"
    assert t["river"].allowance(6) == 0         # G-01 T5: impassable on foot
    assert t["dense"].los_cutoff == 3 and t["rubber"].los_cutoff == 12  # G-02


def test_quality_morale_targets_follow_dd_5_20():
    b = rulebook()
    assert {q.id: q.morale for q in b.qualities.values()} == {"militia": 5, "standard": 4, "veteran": 3}
    assert b.qualities[b.factions["nva"].quality].morale == 3
    assert b.qualities[b.factions["usmc"].quality].morale == 3


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(DATA_DIR, d)
    return d


def test_unknown_key_names_file_and_record(data_copy: Path):
    p = data_copy / "stands.toml"
    p.write_text(p.read_text().replace('id = "us_mg_team"', 'id = "us_mg_team"\nmorale_bonus = 1', 1))
    with pytest.raises(DataError, match=r"stands.toml: stand\[1\] 'us_mg_team': unknown key\(s\) morale_bonus"):
        load_rulebook(data_copy)


def test_missing_field_names_file_and_record(data_copy: Path):
    p = data_copy / "bases.toml"
    p.write_text(p.read_text().replace("depth = 1.26\n", "", 1))
    with pytest.raises(DataError, match=r"bases.toml: base\[0\] 'medium': missing required field 'depth'"):
        load_rulebook(data_copy)


def test_broken_reference_names_file_and_record(data_copy: Path):
    p = data_copy / "factions.toml"
    p.write_text(p.read_text().replace('quality = "veteran"', 'quality = "elite"', 1))
    with pytest.raises(DataError, match=r"factions.toml: faction 'usmc': quality 'elite' is not defined"):
        load_rulebook(data_copy)


def test_wrong_type_is_an_error(data_copy: Path):
    p = data_copy / "terrain.toml"
    p.write_text(p.read_text().replace("los_cutoff = 3.0", 'los_cutoff = "three"', 1))
    with pytest.raises(DataError, match=r"terrain.toml: terrain\[\d+\] 'dense': field 'los_cutoff'"):
        load_rulebook(data_copy)


# -- every table under game/data, strictly (issue 12) ------------------------------------------------

def edit(folder: Path, name: str, old: str, new: str) -> None:
    """Change the first occurrence of a passage in a copied data file (it must be there)."""
    p = folder / name
    text = p.read_text()
    assert old in text, f"{name}: {old!r}"
    p.write_text(text.replace(old, new, 1))


def loaders():
    """Each data file and what loads it strictly, from a folder."""
    from game.clauses import load_clauses, load_out_of_scope
    from game.rules import (
        armour,
        booby_traps,
        casevac,
        contract,
        detection,
        fade,
        fire,
        insertion,
        jungle_ghost,
        markers,
        night,
        riverine,
        search,
        tunnels,
        underground,
        vehicles,
        village,
        weather,
    )
    from game.rules.fire_support.tables import load_fire_support
    from game.terrain import load_sight, load_terrain

    return {
        "rules.toml": load_rulebook, "bases.toml": load_rulebook, "qualities.toml": load_rulebook,
        "factions.toml": load_rulebook, "stands.toml": load_rulebook, "terrain.toml": load_terrain,
        "sight.toml": load_sight, "combat.toml": fire.load_combat, "casevac.toml": casevac.load_casevac,
        "detection.toml": detection.load_detection, "jungle_ghost.toml": jungle_ghost.load_ghost,
        "fire_support.toml": load_fire_support, "fade.toml": fade.load_fade,
        "search.toml": search.load_search, "insertion.toml": insertion.load_insertion,
        "markers.toml": markers.load_markers,
        "armour.toml": armour.load_armour, "vehicles.toml": vehicles.load_roster,
        "night.toml": night.load_night, "weather.toml": weather.load_weather,  # DD chapter 9A §1
        "riverine.toml": riverine.load_riverine,  # DD chapter 9A §2
        "booby_traps.toml": booby_traps.load_booby_traps, "tunnels.toml": tunnels.load_tunnels,  # DD chapter 9B
        "underground.toml": underground.load_underground, "village.toml": village.load_village,  # TUN, DD-9B.8
        "contract.toml": lambda folder: contract.contract(),  # the engine's contract: game.rules.contract
        "clauses.toml": load_clauses, "out_of_scope.toml": load_out_of_scope,  # the coverage report's
    }


def test_every_data_file_has_a_strict_loader():
    assert sorted(loaders()) == sorted(p.name for p in DATA_DIR.glob("*.toml"))
    for load in loaders().values():
        assert load(DATA_DIR)


def test_a_string_where_a_list_belongs_names_file_and_field(data_copy: Path):
    from game.rules.fire import load_combat

    edit(data_copy, "combat.toml", 'roles = ["mg", "hmg"]       # DD-5.26', 'roles = "hmg"       # DD-5.26')
    with pytest.raises(DataError, match=r"combat.toml: \[grazing\]: field 'roles' should be list\[str\], got 'hmg'"):
        load_combat(data_copy)


def test_a_list_of_the_wrong_things_names_file_and_field(data_copy: Path):
    from game.terrain import load_sight

    edit(data_copy, "sight.toml", "caps = [6.0, 12.0]", 'caps = [6.0, "twelve"]')
    with pytest.raises(DataError, match=r"sight.toml: weather\[1\] 'mist': field 'caps' should be list\[float\]"):
        load_sight(data_copy)


@pytest.mark.parametrize("name, old, new, error", [
    ("stands.toml", 'role = "mg"', 'role = "laser"',
     r"stands.toml: stand\[1\] 'us_mg_team': role 'laser' is not one of \["),
    ("terrain.toml", 'canopy = "bamboo"', 'canopy = "palm"',
     r"terrain.toml: terrain\[\d+\] 'bamboo': canopy 'palm' is not one of \["),
    ("combat.toml", 'roles = ["sapper"]', 'roles = ["sapper", "engineer"]',
     r"combat.toml: \[satchel\]: roles 'engineer' is not one of \["),
    ("casevac.toml", '"damaged", "shot_down"]', '"damaged", "explodes"]',
     r"casevac.toml: \[hot_lz\]: results 'explodes' is not one of \["),
    ("detection.toml", 'id = "empty_jungle"', 'id = "empty_jungel"',
     r"detection.toml: \[\[result\]\] 1: id 'empty_jungel' is not one of \["),
    ("jungle_ghost.toml", 'quarters = ["far_left",', 'quarters = ["far_middle",',
     r"jungle_ghost.toml: \[setup\]: quarters 'far_middle' is not one of \["),
    ("jungle_ghost.toml", 'kind = "cell", quality = "militia"', 'kind = "platoon", quality = "militia"',
     r"jungle_ghost.toml: reveal\[3\] groups\[0\]: kind 'platoon' is not one of \["),
])
def test_a_value_outside_its_vocabulary_names_file_record_and_field(data_copy: Path, name, old, new, error):
    edit(data_copy, name, old, new)
    with pytest.raises(DataError, match=error):
        loaders()[name](data_copy)


@pytest.mark.parametrize("name, old, new, error", [
    ("stands.toml", 'base = "small"', 'base = "tiny"', r"stands.toml: stand 'us_platoon_commander': base 'tiny' is not defined in bases.toml"),
    ("combat.toml", '"masonry", "spider_hole"]', '"masonry", "pagoda"]',
     r"combat.toml: \[grenade\]: structures 'pagoda' is not defined in terrain.toml"),
    ("jungle_ghost.toml", 'shelters = ["dense",', 'shelters = ["swamp",',
     r"jungle_ghost.toml: \[fade\]: shelters 'swamp' is not defined in terrain.toml"),
    ("jungle_ghost.toml", 'stands = ["vc_militia_cell"], place', 'stands = ["vc_ghost"], place',
     r"jungle_ghost.toml: reveal\[3\] groups\[0\]: stands 'vc_ghost' is not defined in stands.toml"),
    ("jungle_ghost.toml", 'quality = "militia", stands = ["vc_sniper"]', 'quality = "elite", stands = ["vc_sniper"]',
     r"jungle_ghost.toml: reveal\[2\] groups\[0\]: quality 'elite' is not defined in qualities.toml"),
    ("jungle_ghost.toml", 'stands = ["vc_militia_cell"], place', 'stands = ["us_rifle_team"], place',
     r"jungle_ghost.toml: reveal\[3\] groups\[0\]: stands 'us_rifle_team' is not an insurgent stand type"),
])
def test_an_unknown_reference_names_file_record_and_field(data_copy: Path, name, old, new, error):
    edit(data_copy, name, old, new)
    with pytest.raises(DataError, match=error):
        loaders()[name](data_copy)


def test_chapter_references_are_checked_against_the_rulebook_of_the_same_folder(data_copy: Path):
    from game.rules.fire import load_combat

    edit(data_copy, "terrain.toml", 'id = "spider_hole"', 'id = "foxhole"')
    book = load_rulebook(data_copy)
    assert "foxhole" in book.terrain
    with pytest.raises(DataError, match=r"combat.toml: \[grenade\]: structures 'spider_hole' is not defined"):
        load_combat(data_copy, book)


def test_sight_caps_must_pair_with_their_turns(data_copy: Path):
    from game.terrain import load_sight

    edit(data_copy, "sight.toml", "through_turn = [2, 4]", "through_turn = [2]")
    with pytest.raises(DataError, match=r"sight.toml: weather\[1\] 'mist': fields 'caps' and 'through_turn'"):
        load_sight(data_copy)


def test_doom_clock_names_are_the_table_s(data_copy: Path):
    from game.rules.jungle_ghost import load_ghost

    doom = load_ghost().doom  # G-12: 3 Stirring, 5 Reinforcements, 7 Mortar Harassment, 9 Lights Out
    assert [doom.level(n) for n in (0, 2, 3, 4, 5, 7, 9, 12)] == [
        "quiet", "quiet", "Stirring", "Stirring", "Reinforcements", "Mortar Harassment", "Lights Out", "Lights Out"]
    edit(data_copy, "jungle_ghost.toml", 'mortar = "Mortar Harassment"', 'mortars = "Mortar Harassment"')
    with pytest.raises(DataError, match=r"jungle_ghost.toml: \[doom\]: names 'mortars' is not one of the clock's levels"):
        load_ghost(data_copy)


def test_rule_values_come_from_the_tables():
    """The dice convention (G-31), the bleed (DD-6.4), casualty VP (DD-3.17, C-02) and the visual limits
    (DD-4.1, DD-4.41, DD-3.8, G-07, G-23) are rows of game/data, and the code reads them there."""
    from game.rules import dice, fire
    from game.terrain import sight
    from game.world import los

    book = rulebook()
    assert (book.dice.natural_success, book.dice.natural_failure, book.dice.best_need) == (6, 1, 2)
    assert book.bleed.survives_on == 3 and (book.victory.kia, book.victory.left_on_table) == (-3, -2)
    for needed in range(-2, 10):  # naturals included: never below 1/6, never above 5/6
        assert fire.p_success(needed) == dice.p_success(needed) == min(5, max(1, 7 - needed)) / 6.0
        assert [dice.succeeds(d, needed) for d in range(1, 7)] == [d == 6 or (d != 1 and d >= needed)
                                                                   for d in range(1, 7)]
    s = sight()
    assert (los.OPEN_LIMIT, los.ELEVATION_BONUS, los.ELEVATED) == (s.open.limit, s.elevation.bonus, s.elevation.height)
    assert [los.Conditions(weather="mist", turn=t).weather_cap()[0] for t in (1, 2, 3, 4, 5)] == [6, 6, 12, 12, None]
    assert los.Conditions(weather="monsoon").weather_cap() == (3.0, "monsoon", "DD-3.8")
    assert los.TIME_CAPS == {"day": None, "dawn": 12.0, "dusk": 12.0, "night_moonlit": 6.0, "night_dark": 3.0}
