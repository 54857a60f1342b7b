"""Whole AI-vs-AI games end cleanly on every shipped scenario and Threat Level; simulate reports them."""

from __future__ import annotations

import json

import pytest

from game.ai import simulate
from game.rules.scenario import shipped_scenarios


@pytest.mark.parametrize("scenario", sorted(shipped_scenarios()))
@pytest.mark.parametrize("seed, threat", [(1, 1), (2, 2), (3, 3)])
def test_full_game_ends_cleanly(scenario, seed, threat):
    r = simulate.play(scenario, seed, threat)
    assert r["reason"] != "step limit"
    assert 1 <= r["turns"] <= 6
    assert r["winner"] in ("allied", "insurgent", None)
    v = 3 if r["winner"] == "allied" else -3 if r["winner"] == "insurgent" else None
    if v is not None:
        assert (r["vp"] >= v) if v > 0 else (r["vp"] <= v)


def test_simulate_main_writes_report_and_plot(tmp_path, capsys):
    js, png = tmp_path / "r.json", tmp_path / "vp.png"
    assert simulate.main(["village_sweep", "--games", "2", "--jobs", "2", "--json", str(js), "--plot", str(png)]) == 0
    out = capsys.readouterr()
    assert "Allied wins" in out.out and "2/2 games" in out.err
    rep = json.loads(js.read_text())
    assert rep["games"] == 2 and rep["allied_wins"] + rep["insurgent_wins"] + rep["draws"] == 2
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_jobs_do_not_change_results():
    one = simulate.run("village_sweep", 2, jobs=1, seed=7)
    two = simulate.run("village_sweep", 2, jobs=2, seed=7)
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in one]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in two]
