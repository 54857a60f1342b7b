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
