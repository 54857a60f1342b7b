"""Ground, figure and time scale, and game length (DD-1.1, DD-1.3, DD-1.4; DD-1.2, DD-1.7, DD-2.34, C-29):
the engine measures in inches, a side's view says what an inch and a turn stand for, and every shipped
scenario lasts 5 to 7 turns."""

from __future__ import annotations

import math
import shutil
import tomllib
from pathlib import Path

import pytest
import trimesh

from game.rules.data import DATA_DIR, DataError, load_rulebook, rulebook
from game.rules.errors import IllegalAction
from game.rules.scenario import load_scenario, shipped_scenarios
from tests.builders import enemy, game, platoon, scenario

MODELS = Path(__file__).resolve().parents[2] / "models"
MM_PER_INCH = 25.4
MAN_M = 1.75
"""A standing man, metres: at 1:100 about 0.7" (DD-1.1; models/build_models.py)."""


def test_the_scale_is_inches_10_m_each_1_to_100_figures_and_2_to_3_minute_turns():  # DD-1.1; DD-1.3
    sc = rulebook().scale
    assert (sc.unit, sc.metres_per_inch, sc.figure_scale, sc.turn_minutes) == ("inch", 10.0, 100, [2, 3])
    view = game(scenario(platoon() + enemy()), dice=[4]).view("allied")
    assert view["scenario"]["scale"] == {"unit": "inch", "metres_per_inch": 10.0, "figure_scale": 100,
                                         "turn_minutes": [2, 3], "clause": "DD-1.1; DD-1.3"}


@pytest.mark.parametrize("name", sorted(shipped_scenarios()))
def test_the_views_table_is_the_scenarios_inches(name):  # DD-1.1; DD-1.2
    path = shipped_scenarios()[name]
    raw = tomllib.loads(path.read_text())["scenario"]["table"]
    g = game(tomllib.loads(path.read_text()))
    view = g.view("allied")
    table, scale = view["scenario"]["table"], view["scenario"]["scale"]
    assert (table["width"], table["height"]) == (raw["width"], raw["height"])
    # DD-1.2: a 4'x4' table is 480 m x 480 m, a 6'x4' one 720 m x 480 m
    metres = (table["width"] * scale["metres_per_inch"], table["height"] * scale["metres_per_inch"])
    assert metres in ((480.0, 480.0), (720.0, 480.0))


def test_a_patrol_move_is_six_table_units():  # DD-1.1; DD-2.8
    g = game(scenario(platoon() + enemy()), dice=[4])
    before = {s: (g.state.stands[s].x, g.state.stands[s].y) for s in ("sl", "a", "b")}
    g.act("allied", {"type": "move", "element": "sq1", "mode": "patrol", "to": [10.0, 10.0 - 0.5 + 6.0]})
    for s, (x, y) in before.items():
        st = g.state.stands[s]
        assert (st.x, math.isclose(st.y - y, 6.0)) == (x, True)  # 6" of the engine's coordinates
    g = game(scenario(platoon() + enemy()), dice=[4])
    with pytest.raises(IllegalAction) as exc:  # 6.1": a tenth of an inch too far
        g.act("allied", {"type": "move", "element": "sq1", "mode": "patrol", "to": [10.0, 10.0 - 0.5 + 6.1]})
    assert exc.value.clause.startswith("DD-2.8")


def test_bases_are_the_15mm_standard_sizes_in_inches():  # DD-1.1; DD-1.7
    bases = rulebook().bases
    # DD-1.7: Medium 50 x 32 mm, Small 32 x 25 mm, at 25.4 mm to the inch (to the hundredth)
    assert (bases["medium"].width, bases["medium"].depth) == (round(50 / MM_PER_INCH, 2), round(32 / MM_PER_INCH, 2))
    assert (bases["small"].width, bases["small"].depth) == (round(32 / MM_PER_INCH, 2), round(25 / MM_PER_INCH, 2))


@pytest.mark.parametrize("model", ["us_rifle_team", "anzac_rifle_team", "vc_rifle_cell", "nva_rifle_team"])
def test_the_figures_are_1_to_100(model):  # DD-1.1: 15mm figures, 1:100
    # glTF is y-up: the model's height over its 0.08" base (models/build_models.py BASE_H) is its tallest figure
    height = trimesh.load(MODELS / f"{model}.glb").bounds[1][1] - 0.08
    man = MAN_M / rulebook().scale.figure_scale / (MM_PER_INCH / 1000)  # 0.69"
    assert abs(height - man) < 0.1, (model, height, man)


def test_the_scale_table_is_loaded_strictly(tmp_path):  # DD-1.3; DD-1.1
    for f in DATA_DIR.glob("*.toml"):
        shutil.copy(f, tmp_path / f.name)
    rules = tmp_path / "rules.toml"
    text = rules.read_text()
    rules.write_text(text.replace("turn_minutes = [2, 3]", "turn_minutes = [3, 2]"))
    with pytest.raises(DataError, match="turn_minutes"):
        load_rulebook(tmp_path)
    rules.write_text(text.replace('unit = "inch"', 'unit = "cm"'))
    with pytest.raises(DataError, match="unit"):
        load_rulebook(tmp_path)


def test_every_shipped_scenario_lasts_5_to_7_turns():  # DD-1.4; DD-2.34; C-29
    turns = {name: load_scenario(path).turns for name, path in shipped_scenarios().items()}
    assert turns and all(5 <= t <= 7 for t in turns.values()), turns
    # a scenario that names no limit gets the rulebook's "typically 6" (C-29), inside 5-7 too
    assert rulebook().turn.default_turns == 6
    g = game(scenario(platoon() + enemy()), dice=[4])
    assert g.view("allied")["turns"] == 6
