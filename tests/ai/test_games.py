"""Whole AI-vs-AI games end cleanly on every shipped scenario and at every Threat Level; simulate reports them."""

from __future__ import annotations

import json
import os

import pytest

from game.ai import simulate
from game.rules.scenario import shipped_scenarios

LEVELS = [(1, 1), (2, 2), (3, 3)]
"""(seed, Threat Level): a game at each level (DD-10.5)."""
ALL_LEVELS = os.environ.get("DINKYDAU_FULL_VOLUME") == "1"
"""``make test`` plays each scenario once, the levels taking turns over the scenarios in order (1, 2, 3,
1, ...: each level on two or three tables); ``benchmarks/full_volume.py`` (DINKYDAU_FULL_VOLUME=1) plays
every scenario at every level."""
GAMES = [(sc, *lv) for i, sc in enumerate(sorted(shipped_scenarios()))
         for lv in (LEVELS if ALL_LEVELS else [LEVELS[i % len(LEVELS)]])]


@pytest.mark.parametrize("scenario, seed, threat", GAMES)
def test_full_game_ends_cleanly(scenario, seed, threat):
    from game.rules.scenario import resolve_scenario

    r = simulate.play(scenario, seed, threat)
    assert r["reason"] != "step limit"
    assert 1 <= r["turns"] <= resolve_scenario(scenario).turns  # DD-2.34: the scenario's turn limit
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


def test_ambush_fires_at_the_stand_it_chose():
    # DD-10.7, DD-5.1: a Shadow Blind's militia springs an ambush whose allocation would start on a
    # stand none of its shooters can see within range; the volley is aimed at the closest stand it does
    # see (this game raised "no stand of Militia cell can see ..." and stopped).
    from game.ai import players
    from game.rules.scenario import resolve_scenario

    g = players.new_game(resolve_scenario("search_and_destroy"), 63, 1, {"allied": "ai", "insurgent": "ai"})
    steps = 0
    while not g.state.over and steps < simulate.MAX_STEPS:
        players.take_turn(g, g.state.to_act)
        steps += 1
    assert g.state.over
    volleys = [e for e in g.events if e["type"] == "fire" and e.get("kind") == "ambush"]
    assert volleys, "the game's ambush volleys were fired"


def test_a_failed_game_names_its_seed(monkeypatch, capsys):
    # A game that cannot be played to its end stops the run with its seed, from a worker process too.
    from game.rules.errors import IllegalAction

    real = simulate.play

    def play(scenario, seed, threat=2):
        if seed == 2:
            raise IllegalAction("a refused action", "DD-5.1")
        return real(scenario, seed, threat)

    monkeypatch.setattr(simulate, "play", play)
    with pytest.raises(simulate.SimulationError, match="village_sweep seed 2 threat 2: IllegalAction: a refused"):
        simulate.run("village_sweep", 2, jobs=2)
    assert simulate.main(["village_sweep", "--games", "2", "--jobs", "1", "--quiet"]) == 1
    assert "seed 2" in capsys.readouterr().err
