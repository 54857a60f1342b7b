"""Attract mode: the AI plays itself, the loop cycles to a new game, a key hands over, idle comes back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from game.client.demo import AttractMode, parse_args

from .test_session import real_engine_or_skip

REPO = Path(__file__).resolve().parents[2]


def run_until(app, cond, seconds):
    end = time.monotonic() + seconds
    while not cond() and time.monotonic() < end:
        app.base.task_mgr.step()
        time.sleep(0.002)
    return cond()


def test_demo_plays_cycles_hands_over_and_returns(make_app):
    real_engine_or_skip()
    app = make_app(size=(320, 180))
    demo = AttractMode(app, ["village_sweep"], idle_s=600, pace=0.0, seed=11, max_game_s=6.0)
    demo.start()
    assert run_until(app, lambda: demo.games >= 2 and demo.steps >= 3, 40), demo.summary()
    assert demo.state == "demo" and app.viewing == "referee"
    assert app.players == {"allied": "ai", "insurgent": "ai"}
    assert len(set(demo.seeds)) == len(demo.seeds) >= 2  # a new seed each loop
    assert len(app.render.find_all_matches("**/scene")) == 1  # the old table went with the old game
    assert app.hud.log_frame.is_hidden() and app.hud.panel.is_hidden()  # a crowd sees the table

    demo.on_button("space")  # a walk-up player
    assert demo.state == "player"
    assert run_until(app, lambda: app.game is not None and app.view.get("side") == "allied", 20)
    assert app.players == {"allied": "human", "insurgent": "ai"} and app.mode == "solo"
    games = demo.games
    demo.idle_s = 0.0  # nobody touched anything: back to the loop
    assert run_until(app, lambda: demo.state == "demo" and demo.games == games + 1, 5)
    assert run_until(app, lambda: app.viewing == "referee" and app.game is not None, 20)
    demo.stop()


def test_demo_offscreen_command_advances_and_cycles(warm_cache):
    real_engine_or_skip()
    # one scenario (its table baked once a run, conftest.warm_cache): the command's loop, not the bakes, is timed
    code = ("import sys; from game.client.app import main; sys.exit(main(['--demo', 'village_sweep', '--offscreen', "
            "'--frames', '300', '--size', '160x90', '--no-shadows', '--pace', '0', '--max-game-minutes', '0.04', "
            "'--seed', '5']))")
    env = dict(os.environ, DINKYDAU_CACHE=str(warm_cache))
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["games"] >= 2 and summary["steps"] >= 3 and summary["events"] > 10, summary


def test_demo_args():
    a = parse_args(["rubber_plantation", "--offscreen", "--frames", "300", "--idle-minutes", "2"])
    assert a.scenario == "rubber_plantation" and a.frames == 300 and a.idle_minutes == 2.0
    assert parse_args([]).idle_minutes == 3.0


def test_demo_soak_runs_a_simulated_stretch_and_exits(warm_cache):
    # issue 11: `dinkydau demo --soak HOURS --offscreen` plays the loop on a simulated clock, the
    # presenter instant, printing the games and the memory as it goes, and exits 0 at the end.
    real_engine_or_skip()
    code = ("import sys; from game.client.app import main; sys.exit(main(['--demo', 'village_sweep', '--offscreen', "
            "'--soak', '0.005', '--soak-report', '0.1', '--size', '160x90', '--no-shadows', '--seed', '5']))")
    env = dict(os.environ, DINKYDAU_CACHE=str(warm_cache))
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.strip().splitlines()
    reports = [x for x in lines if x.startswith("soak: ")]
    assert len(reports) >= 3 and "games" in reports[-1] and "engine RSS" in reports[-1], lines
    summary = json.loads(lines[-1])
    assert summary["soak_hours"] == 0.005 and summary["frames"] == 18  # 18 s simulated, a second a frame
    assert summary["games"] >= 1 and summary["steps"] >= 1 and summary["client_rss_mb"] > 0, summary


def test_demo_soak_args():
    a = parse_args(["--soak", "24", "--offscreen"])
    assert a.soak == 24.0 and a.soak_step == 1.0 and a.soak_report == 60.0
    assert parse_args([]).soak is None
