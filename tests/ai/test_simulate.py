"""simulate through the ruleset seam (DESIGN §9): any ruleset's scenario, the same games the engine plays,
Wilson intervals on every rate, and a stream of finished games that an interrupted study resumes from."""

from __future__ import annotations

import json
import math
import re
import tomllib

import pytest

from game.ai import simulate
from game.engine.session import Engine
from game.rules.scenario import SCENARIO_DIR
from game.rulesets.base import ScenarioError


def strip(results: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in results]


# -- Wilson intervals ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("k, n, lo, hi", [
    (5, 10, 0.236593, 0.763407),   # the textbook half: statsmodels proportion_confint(5, 10, method="wilson")
    (0, 10, 0.0, 0.277533),        # no successes: the interval still reaches 27.8 %, not zero width
    (10, 10, 0.722467, 1.0),
    (1, 2, 0.094531, 0.905469),
    (81, 263, 0.2553, 0.3662),     # Newcombe (1998), Statistics in Medicine 17, 857: method 3, to 4 places
])
def test_wilson_intervals_match_known_values(k, n, lo, hi):
    got = simulate.wilson(k, n)
    assert got == pytest.approx((lo, hi), abs=2e-6 if n != 263 else 5e-5)


@pytest.mark.parametrize("k, n", [(3, 17), (81, 263), (0, 1), (499, 500)])
def test_wilson_bounds_are_where_the_score_test_just_accepts(k, n):
    # the Wilson interval is the set of p whose score test accepts k/n at 95 %: |k/n - p| = z sqrt(p(1-p)/n)
    lo, hi = simulate.wilson(k, n)
    for p in (lo, hi):
        if 0 < p < 1:
            assert abs(k / n - p) == pytest.approx(simulate.Z95 * math.sqrt(p * (1 - p) / n), abs=1e-9)
    assert lo <= k / n <= hi


def test_every_rate_of_the_report_has_its_interval():
    rs = [{"seed": i, "winner": w, "reason": "r", "turns": 6, "steps": 1, "seconds": 0.1}
          for i, w in enumerate(["allied"] * 39 + ["insurgent"] * 37 + [None] * 24)]
    s = simulate.summary(rs, "x", {}, "other")
    rates = [k for k in s if k.endswith("_rate")]
    assert sorted(rates) == ["allied_win_rate", "draw_rate", "insurgent_win_rate"]
    assert s["ci95"] == {k: [round(x, 4) for x in simulate.wilson(c, 100)] for k, c in
                         (("allied_win_rate", 39), ("insurgent_win_rate", 37), ("draw_rate", 24))}
    assert "39.0%  (95% CI 30.0-48.8)" in simulate.report_text(s)


# -- any ruleset ---------------------------------------------------------------------------------------------
def test_hue_street_simulated_is_the_game_the_engine_plays(tmp_path, capsys):
    # TET-7, G-41: the Tet '68 scenario, shortened to 3 turns, simulated through the ruleset seam gives the
    # winner, turn and final state hash the engine's own game.step loop gives for the same seed
    text = (SCENARIO_DIR / "hue_street.toml").read_text()
    short = tmp_path / "hue_short.toml"
    short.write_text(re.sub(r"(?m)^turns = \d+", "turns = 3", text))
    js, png = tmp_path / "h.json", tmp_path / "h.png"
    assert simulate.main([str(short), "--games", "1", "--seed", "4", "--json", str(js), "--plot", str(png),
                          "--quiet"]) == 0
    rep = json.loads(js.read_text())
    assert rep["ruleset"] == "tet68" and "threat" not in rep and "vp" not in rep
    (mine,) = rep["results"]
    eng = Engine()
    gid = eng.call("game.new", {"scenario": tomllib.loads(short.read_text()), "seed": 4, "referee": True,
                                "side": "referee", "players": {"allied": "ai", "insurgent": "ai"}})["game"]
    steps = 0
    while not eng.call("game.step", {"game": gid, "side": "referee"})["over"]:
        steps += 1
    v = eng.call("game.view", {"game": gid, "side": "referee"})
    assert (mine["winner"], mine["reason"], mine["turns"], mine["hash"]) == \
        (v["result"]["winner"], v["result"]["reason"], v["turn"], v["hash"])
    assert mine["turns"] == 3 and mine["steps"] == steps + 1  # the step that ended the game is counted
    assert mine["cleared"] == len(v["result"]["cleared"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Allied wins" in capsys.readouterr().out


def test_a_bad_scenario_is_named():
    with pytest.raises(ScenarioError, match="no scenario 'nowhere'"):
        simulate.source_of("nowhere")
    assert simulate.main(["nowhere", "--games", "1", "--quiet"]) == 2


# -- the stream --------------------------------------------------------------------------------------------
def test_an_interrupted_study_keeps_its_games_and_resumes(tmp_path, monkeypatch, capsys):
    js = tmp_path / "study.json"
    args = ["village_sweep", "--games", "4", "--seed", "3", "--json", str(js), "--quiet"]
    real_write, played = simulate.Stream.write, []

    def write(self, rec):  # the study is interrupted as its third game arrives
        if "seed" in rec and len([r for r in played if "seed" in r]) == 2:
            raise KeyboardInterrupt
        played.append(rec)
        real_write(self, rec)

    monkeypatch.setattr(simulate.Stream, "write", write)
    assert simulate.main(args) == 130
    assert "run the same command again to resume" in capsys.readouterr().err
    lines = simulate.stream_path(js).read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["study"]["ruleset"] == "dinky_dau"
    assert [json.loads(x)["seed"] for x in lines[1:]] == [3, 4]
    monkeypatch.setattr(simulate.Stream, "write", real_write)
    with open(simulate.stream_path(js), "a") as fh:
        fh.write('{"seed": 5, "winn')  # a write cut short by the interruption
    calls = []
    real_play = simulate.play
    monkeypatch.setattr(simulate, "play", lambda *a: calls.append(a[1]) or real_play(*a))
    assert simulate.main(args) == 0
    assert calls == [5, 6]  # only the seeds the stream lacks are played
    assert "resuming" in capsys.readouterr().err
    rep = json.loads(js.read_text())
    assert rep["games"] == 4 and rep["resumed"] == 2
    assert strip(rep["results"]) == strip(simulate.run("village_sweep", 4, seed=3))
    lines = simulate.stream_path(js).read_text().splitlines()
    assert [json.loads(x)["seed"] for x in lines[1:]] == [3, 4, 5, 6]
    calls.clear()
    assert simulate.main(args) == 0 and calls == []  # the same out path again: nothing left to play


def test_a_stream_of_another_study_is_refused(tmp_path, capsys):
    js = tmp_path / "s.json"
    assert simulate.main(["village_sweep", "--games", "1", "--threat", "3", "--json", str(js), "--quiet"]) == 0
    assert simulate.main(["village_sweep", "--games", "1", "--threat", "2", "--json", str(js), "--quiet"]) == 2
    assert "s.jsonl:1: the stream is of another study" in capsys.readouterr().err
    with open(simulate.stream_path(js), "a") as fh:
        fh.write("not json\n")
    assert simulate.main(["village_sweep", "--games", "1", "--threat", "3", "--json", str(js), "--quiet"]) == 2
    assert "s.jsonl:3: not a JSON line" in capsys.readouterr().err
    assert simulate.main(["village_sweep", "--games", "1", "--resume", "--json", str(tmp_path / "new.json")]) == 2
    assert "no stream" in capsys.readouterr().err


def test_ray_missing_is_said_with_how_to_install_it(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # as on a machine without the [ray] extra
    assert simulate.main(["village_sweep", "--games", "1", "--ray", "--quiet"]) == 2
    assert "--ray needs Ray: pip install -e '.[ray]'" in capsys.readouterr().err
