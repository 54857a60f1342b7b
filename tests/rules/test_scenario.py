"""Scenario files: the shipped ones are valid and paced; bad ones report every problem with its place."""

import math
from pathlib import Path

import pytest

from game.cli import main as cli
from game.cli import shadow_pacing_gaps
from game.rules.scenario import ScenarioError, build_scenario, load_scenario, pacing_gap, shipped_scenarios
from tests.builders import enemy, platoon, scenario


def test_at_least_two_shipped_scenarios_load():
    shipped = shipped_scenarios()
    assert {"village_sweep", "rubber_plantation"} <= set(shipped)
    for path in shipped.values():
        sc = load_scenario(path)
        assert sc.elements and sc.features


@pytest.mark.parametrize("sid", sorted(shipped_scenarios()))
def test_shipped_scenarios_follow_the_pacing_standard(sid):
    # DD-3.4: forces or starting blinds 12"-18" apart. A solo table seeded with Shadow Blinds only
    # (DD-10.3) has no Insurgent start of its own: the Shadow Blinds the Jungle Ghost places are its
    # starting Blinds, measured for a few seeds (a quarter roll, G-40, may move some).
    sc = load_scenario(shipped_scenarios()[sid])
    gaps = [pacing_gap(sc)]
    if math.isinf(gaps[0]):
        assert sc.shadow_blinds
        gaps = shadow_pacing_gaps(sc)
    assert all(12.0 <= gap <= 18.0 for gap in gaps), gaps


def test_a_solo_table_may_hold_shadow_blinds_only():
    # DD-10.3: the Jungle Ghost's Shadow Blinds are the whole Insurgent force; otherwise an Insurgent side
    # with nothing on the table is a mistake.
    raw = scenario(platoon())
    with pytest.raises(ScenarioError) as err:
        build_scenario(raw)
    assert "side 'insurgent' has no elements or blinds" in str(err.value)
    raw["scenario"]["shadow_blinds"] = 6
    sc = build_scenario(raw)
    assert not [e for e in sc.elements if e.side == "insurgent"] and math.isinf(pacing_gap(sc))


def test_table_sizes_of_dd_1_2():
    sizes = {(s.width, s.height) for s in map(load_scenario, shipped_scenarios().values())}
    assert (48.0, 48.0) in sizes and (72.0, 48.0) in sizes


def test_every_problem_is_reported_with_its_location():
    bad = Path(__file__).resolve().parent.parent / "fixtures" / "scenarios" / "four_problems.toml"
    text = bad.read_text()
    with pytest.raises(ScenarioError) as err:
        load_scenario(bad)
    msgs = [str(p) for p in err.value.problems]
    assert len(msgs) == 4, msgs
    joined = "\n".join(msgs)
    assert "unknown stand type 'us_rifel_team'" in joined
    assert "unknown terrain type 'bambo'" in joined
    assert "is off the 48x48 table" in joined
    assert "overlaps stand" in joined and "DD-3.20" in joined
    lines = text.splitlines()
    for p in err.value.problems:
        assert p.line is not None and p.file == str(bad)
    off = next(p for p in err.value.problems if "off the" in p.message)
    assert "47.5" in lines[off.line - 1] and off.field.endswith(".at")


def test_unknown_fields_and_missing_sides():
    raw = scenario(platoon() + enemy())
    raw["scenario"]["wheather"] = "clear"
    raw["side"] = raw["side"][:1]
    with pytest.raises(ScenarioError) as err:
        build_scenario(raw)
    text = str(err.value)
    assert "scenario.wheather: unknown field" in text
    assert "side 'insurgent' is missing" in text


def test_toml_syntax_error_names_the_line(tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text('[scenario]\nid = "x"\ntitle = \n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(bad)
    assert err.value.problems[0].line == 3


def test_validate_command(tmp_path, capsys):
    assert cli(["validate", str(shipped_scenarios()["village_sweep"])]) == 0
    assert "ok: Village Sweep" in capsys.readouterr().out
    assert cli(["validate", str(shipped_scenarios()["search_and_destroy"])]) == 0
    assert "6 Shadow Blinds (DD-10.3) 15.3\" from the start" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text('[scenario]\nid = "x"\ntitle = "x"\n')
    assert cli(["validate", str(bad)]) == 1
    assert "side 'allied' is missing" in capsys.readouterr().out
