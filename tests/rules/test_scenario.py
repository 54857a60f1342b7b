"""Scenario files: the shipped ones are valid and paced; bad ones report every problem with its place."""

import math
from pathlib import Path

import pytest

from game.cli import main as cli
from game.cli import shadow_pacing_gaps
from game.rules.scenario import ScenarioError, build_scenario, load_scenario, pacing_gap, shipped_scenarios
from tests.builders import element, enemy, platoon, scenario, stand


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


@pytest.mark.parametrize(("given", "field", "words"), [
    ({"canopy_bottom": 4.0}, "canopy_bottom", 'underside (4") must be below its top (3.6")'),
    ({"canopy_bottom": 1.0, "canopy_top": 0.8}, "canopy_bottom", 'underside (1") must be below its top (0.8")'),
    ({"canopy_top": 0.0}, "canopy_top", "must stand above the ground"),
    ({"canopy_top": float("nan")}, "canopy_top", "should be a finite number of inches"),
    ({"canopy_bottom": float("inf")}, "canopy_bottom", "should be a finite number of inches"),
])
def test_a_wood_whose_foliage_is_upside_down_is_refused_by_name(given, field, words):
    # DD-4.1: a wood's canopy is a volume from its underside up to its top (dense jungle's top 3.6",
    # terrain.toml); heights that leave no foliage between them are an error naming the field
    wood = {"id": "j", "type": "dense", "polygon": [[20, 20], [30, 20], [30, 30], [20, 30]], **given}
    with pytest.raises(ScenarioError) as err:
        build_scenario(scenario(platoon() + enemy(), terrain=[wood]))
    terrain = [p for p in err.value.problems if p.field.startswith("terrain")]
    assert len(terrain) == 1 and terrain[0].field == f"terrain[0].{field}" and words in terrain[0].message
    ok = {"id": "j", "type": "dense", "polygon": wood["polygon"], "canopy_bottom": 1.0, "canopy_top": 3.0}
    built = build_scenario(scenario(platoon() + enemy(), terrain=[ok]))
    assert [(f.canopy_bottom, f.canopy_top) for f in built.features] == [(1.0, 3.0)]


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


def _overlapping_bases() -> dict:
    """Bases overlapping on the table, under a Blind and in reserve (not on the table: DD-4.7, DD-4.8),
    and one off the table."""
    els = [
        element("a1", "allied", [stand("a1_1", "us_rifle_team", 10, 10), stand("a1_2", "us_rifle_team", 11, 10),
                                 stand("a1_3", "us_rifle_team", 10.5, 10.5, 0)]),
        element("a2", "allied", [stand("a2_1", "us_rifle_team", 10.8, 10.2, 45),
                                 stand("a2_2", "us_rifle_team", 47.5, 20)]),
        element("hid", "insurgent", [stand("h1", "vc_rifle_cell", 10, 10)], blind="bl1"),
        element("res", "insurgent", [stand("r1", "vc_rifle_cell", 11, 10)], reserve=True),
        element("v", "insurgent", [stand("v1", "vc_rifle_cell", 30, 30), stand("v2", "vc_rifle_cell", 30.5, 30.4, 270),
                                   stand("v3", "vc_rifle_cell", 32.0, 30)]),
    ]
    raw = scenario(els)
    raw["blind"] = [{"id": "bl1", "side": "insurgent", "at": [10, 10]}]
    return raw


def test_overlapping_bases_are_reported_as_before():
    # DD-3.20: each stand against every stand on the table before it, in order; the spatial index that
    # finds the candidates changes nothing that is reported (these are the messages of the pairwise check).
    with pytest.raises(ScenarioError) as err:
        build_scenario(_overlapping_bases())
    assert [str(p) for p in err.value.problems] == [
        "<inline>: element[0].stand[1].at: stand 'a1_2' overlaps stand 'a1_1' (DD-3.20)",
        "<inline>: element[0].stand[2].at: stand 'a1_3' overlaps stand 'a1_1' (DD-3.20)",
        "<inline>: element[0].stand[2].at: stand 'a1_3' overlaps stand 'a1_2' (DD-3.20)",
        "<inline>: element[1].stand[0].at: stand 'a2_1' overlaps stand 'a1_1' (DD-3.20)",
        "<inline>: element[1].stand[0].at: stand 'a2_1' overlaps stand 'a1_2' (DD-3.20)",
        "<inline>: element[1].stand[0].at: stand 'a2_1' overlaps stand 'a1_3' (DD-3.20)",
        "<inline>: element[1].stand[1].at: stand 'a2_2' at [47.5, 20.0] is off the 48x48 table",
        "<inline>: element[4].stand[1].at: stand 'v2' overlaps stand 'v1' (DD-3.20)",
        "<inline>: element[4].stand[2].at: stand 'v3' overlaps stand 'v2' (DD-3.20)",
    ]


def _pairwise(sc_raw: dict) -> list[str]:
    """The overlap and off-table problems as the plain pairwise check finds them (the reference)."""
    from game.rules.data import rulebook
    from game.world.features import base_rectangle

    book, out, placed = rulebook(), [], []
    for i, el in enumerate(sc_raw["element"]):
        for j, st in enumerate(el["stand"]):
            b = book.base_of(st["type"])
            (x, y), facing = st["at"], float(st["facing"])
            rect = base_rectangle(float(x), float(y), facing, b.width, b.depth)
            minx, miny, maxx, maxy = rect.bounds
            path = f"<inline>: element[{i}].stand[{j}].at: stand '{st['id']}'"
            if minx < 0 or miny < 0 or maxx > 48 or maxy > 48:
                out.append(f"{path} at {[float(x), float(y)]} is off the 48x48 table")
            if "blind" not in el and not el.get("reserve"):
                out += [f"{path} overlaps stand '{o}' (DD-3.20)" for o, other in placed
                        if rect.intersection(other).area > 1e-6]
                placed.append((st["id"], rect))
    return out


def test_a_crowded_table_reports_what_the_pairwise_check_reports():
    import random

    rng = random.Random(11)
    els = []
    for e in range(60):
        side = "allied" if e % 2 else "insurgent"
        kind = "us_rifle_team" if side == "allied" else "vc_rifle_cell"
        sts = [stand(f"s{e}_{k}", kind, round(rng.uniform(-0.5, 48.5), 2), round(rng.uniform(-0.5, 48.5), 2),
                     rng.choice([0, 30, 90, 135, 270])) for k in range(4)]
        els.append(element(f"e{e}", side, sts, **({"reserve": True} if e % 6 == 0 else {})))
    with pytest.raises(ScenarioError) as err:
        build_scenario(scenario(els))
    got = [str(p) for p in err.value.problems]
    assert len(got) > 50 and got == _pairwise(scenario(els))


def test_thousands_of_stacked_stands_report_the_first_problems_quickly():
    # Every pair of 3,000 stands on one spot overlaps: 4.5 million problems. The first MAX_PROBLEMS are
    # listed (the same as ever), then a line saying more were left out; the check stops looking.
    import time

    from game.rules.scenario import MAX_PROBLEMS

    raw = scenario([element(f"e{e}", "allied" if e % 2 else "insurgent",
                            [stand(f"s{e}_{k}", "us_rifle_team" if e % 2 else "vc_rifle_cell", 20, 20)
                             for k in range(3)]) for e in range(1000)])
    t = time.perf_counter()
    with pytest.raises(ScenarioError) as err:
        build_scenario(raw)
    assert time.perf_counter() - t < 3.0
    problems = err.value.problems
    assert len(problems) == MAX_PROBLEMS + 1
    assert str(problems[0]) == "<inline>: element[0].stand[1].at: stand 's0_1' overlaps stand 's0_0' (DD-3.20)"
    assert problems[-1].message.startswith("more problems not listed")


def test_problems_of_a_big_file_name_their_lines(tmp_path):
    # Each problem's line is found through an index of the file's lines, not a scan of the file each.
    rows = ['[scenario]\nid = "big"\ntitle = "big"\ntable = { width = 48, height = 48 }\n',
            '[[side]]\nid = "allied"\nfaction = "us_army"\n[[side]]\nid = "insurgent"\nfaction = "vc_main_force"\n']
    for e in range(40):
        rows.append(f'[[element]]\nid = "e{e}"\nside = "allied"\n')
        for k in range(3):
            rows.append(f'  [[element.stand]]\n  id = "s{e}_{k}"\n  type = "us_rifle_team"\n'
                        f'  at = [{4 + e},  {10 + 0.5 * k}]\n')
    path = tmp_path / "big.toml"
    path.write_text("".join(rows))
    lines = path.read_text().splitlines()
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    problems = [p for p in err.value.problems if "overlaps" in p.message]
    assert len(problems) >= 80
    for p in problems:
        stand_id = p.message.split("'")[1]
        assert lines[p.line - 1].lstrip().startswith("at = ") and f'"{stand_id}"' in lines[p.line - 3]


def test_validate_reads_each_file_by_the_ruleset_it_names(tmp_path, capsys):
    """`dinkydau validate` reads a Tet '68 or One Brain-Cell scenario as the engine does (TET-3, TET-4), not as a
    Dinky Dau one: the shipped files pass, and a town with no building is named by its field."""
    root = Path(__file__).resolve().parents[2] / "scenarios"
    assert cli(["validate", str(root / "hue_street.toml"), str(root / "hot_lz.toml")]) == 0
    out = capsys.readouterr().out
    assert "(Tet '68 house clearing)" in out and "(The One Brain-Cell Vietnam rules)" in out
    bad = tmp_path / "town.toml"
    bad.write_text('[scenario]\nruleset = "tet68"\nid = "town"\ntitle = "A town"\n')
    assert cli(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "tile: a town needs a building to clear (TET-3, TET-4)" in out and "faction" not in out
