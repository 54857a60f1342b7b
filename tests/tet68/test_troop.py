"""A Tet '68 figure's troop (his dress: Marine, ARVN, VC or NVA) and where he leans: read from the scenario,
checked, and shown in the view to anyone who sees him, never for a figure out of sight (TET-4, TET-16)."""

from __future__ import annotations

import copy
import tomllib

import pytest

from game.rules.scenario import SCENARIO_DIR
from game.rulesets.base import ScenarioError
from game.rulesets.tet68.game import TetGame
from game.rulesets.tet68.scenario import build

RAW = tomllib.loads((SCENARIO_DIR / "hue_street.toml").read_text())


def test_troops_by_side_and_the_nva_named():  # TET-4: Marines or ARVN against VC and NVA
    sc = build(RAW, "hue_street")
    troop = {f.id: f.troop for f in sc.figures}
    assert troop["nguyen_ba"] == troop["tran_van"] == "nva"
    assert {troop[f.id] for f in sc.figures if f.side == "allied"} == {"marine"}
    assert {troop[f.id] for f in sc.figures if f.side == "insurgent" and f.id not in ("nguyen_ba", "tran_van")} == {"vc"}


@pytest.mark.parametrize("value,why", [("nva", "for the allied side"), ("ranger", "unknown troop"), (3, "should be str")])
def test_a_bad_troop_is_named_with_file_and_field(value, why):  # TET-4
    raw = copy.deepcopy(RAW)
    first = next(i for i, f in enumerate(raw["figure"]) if f["side"] == "allied")
    raw["figure"][first]["troop"] = value
    with pytest.raises(ScenarioError) as exc:
        build(raw, "bad.toml")
    hits = [p for p in exc.value.problems if p.field == f"figure[{first}].troop"]
    assert hits and all(p.file == "bad.toml" for p in hits) and why in hits[0].message


def test_the_view_shows_troop_and_lean_of_a_seen_figure_only():  # TET-16: what anyone seeing him sees
    raw = copy.deepcopy(RAW)
    leaner = next(f for f in raw["figure"] if f["side"] == "insurgent")
    leaner["pose"], leaner["lean_to"] = "leaning", float(leaner.get("facing", 0)) - 90
    hidden = next(f for f in raw["figure"] if f["id"] == "nguyen_ba")
    hidden["pose"], hidden["at"] = "prone", [30.0, 22.0]  # down behind the far houses, out of every Marine's eye
    game = TetGame(build(raw, "hue_street"), 3)
    ref = {f["id"]: f for f in game.view("referee")["figures"]}
    assert ref["nguyen_ba"]["troop"] == "nva" and ref[leaner["id"]]["lean_to"] == leaner["lean_to"]
    assert all(f["troop"] == "marine" for f in ref.values() if f["side"] == "allied")
    allied = {f["id"]: f for f in game.view("allied")["figures"]}
    seen = game.sees("allied")
    for fid, f in ref.items():
        if f["side"] == "insurgent":
            assert (fid in allied) == (fid in seen)
            if fid in allied:
                assert allied[fid]["troop"] == f["troop"] and allied[fid]["lean_to"] == f["lean_to"]
    assert "nguyen_ba" not in seen and "nguyen_ba" not in allied
    assert [f["id"] for f in allied.values() if f.get("troop") == "nva"] == ["tran_van"]  # the NVA in sight only
