"""Engine benchmarks (issue: the headless engine). Prints measured figures; asserts nothing.

- time for a fresh engine process to answer engine.hello
- random legal playouts in process: actions per second (refused actions counted separately), after a
  first game on each table (its ray scene is built once a process, ``Game.los_table``: not a cost of
  the actions timed). Five runs of 3 CPU seconds each, every game a new seed; the figure is the best
  run, every run printed beside it: the machine is shared, and another tenant's load only ever slows
  a run (the reasoning of ``timeit``, which reports the least time for the same reason)
- game.act round trip through the subprocess: median and 95th percentile
- resident memory of the engine process with a 6'x4' scenario loaded
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.playout import random_step  # noqa: E402
from game.engine.client import EngineProcess  # noqa: E402
from game.rules.dice import Dice, seed_streams  # noqa: E402
from game.rules.game import Game  # noqa: E402
from game.rules.scenario import resolve_scenario  # noqa: E402


def hello_time(runs: int = 5) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        with EngineProcess() as p:
            p.call("engine.hello")
            out.append(time.perf_counter() - t)
    return out


class _ClearSight:
    """Every sightline clear: isolates the rules from the line-of-sight module."""

    visible = True
    fraction = 1.0
    distance = 0.0


RUNS = 5
"""Runs of each playout figure (the best is the figure)."""
RUN_SECONDS = 3.0
"""CPU seconds of each run (some 60 games)."""


def playouts(seconds: float = 5.0, real_los: bool = True, first_seed: int = 0) -> tuple[int, int, float, int]:
    """Random legal playouts, the games of seeds after ``first_seed``; CPU seconds (the machine may be
    shared)."""
    from game.rules.turn import start_turn

    scenarios = [resolve_scenario("village_sweep"), resolve_scenario("rubber_plantation")]
    for sc in scenarios:  # each table's ray scene, built once a process
        Game(sc, 0, start=False).los_table()
    done = refused = games = 0
    t0 = time.process_time()
    seed = first_seed
    while time.process_time() - t0 < seconds:
        seed += 1
        g = Game(scenarios[seed % 2], seed, start=False)
        if not real_los:
            g.los_override = lambda a, b: _ClearSight
        start_turn(g)
        games += 1
        rng = Dice(seed_streams(seed + 99))
        while not g.state.over:
            if random_step(g, rng):
                done += 1
            else:
                refused += 1
    return done, refused, time.process_time() - t0, games


def round_trips(n: int = 300) -> tuple[list[float], int]:
    with EngineProcess() as p:
        gid = p.call("game.new", scenario="rubber_plantation", seed=1,
                     players={"allied": "human", "insurgent": "human"})["game"]
        times = []
        for _ in range(n):
            view = p.call("game.view", game=gid, side="allied")
            if view["over"]:
                gid = p.call("game.new", scenario="rubber_plantation", seed=len(times),
                             players={"allied": "human", "insurgent": "human"})["game"]
                view = p.call("game.view", game=gid, side="allied")
            side = view["to_act"] or "allied"
            acts = p.call("game.actions", game=gid, side=side)["actions"]
            hold = next((a for a in acts if a["type"] == "hold"), {"type": "pass"})
            t = time.perf_counter()
            p.call("game.act", game=gid, side=side, action={k: v for k, v in hold.items() if k != "params"})
            times.append(time.perf_counter() - t)
        rss = 0
        status = Path(f"/proc/{p.proc.pid}/status")
        if status.exists():
            for line in status.read_text().splitlines():
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        return times, rss


def _static() -> bool:
    """Whether this interpreter's executable holds libpython itself (a distribution's build) rather than
    loading the shared library (a plain source build with --enable-shared)."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return False
    return "libpython" not in maps


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs (CPU seconds are timed; a loaded "
          f"machine still reads slower)")
    print(f"interpreter: Python {platform.python_version()}, {sys._base_executable} "  # tools/pick-python
          f"({'libpython linked in' if _static() else 'libpython loaded as a shared library'})")
    h = hello_time()
    print(f"engine.hello from a fresh process: median {statistics.median(h) * 1000:.0f} ms "
          f"(min {min(h) * 1000:.0f}, max {max(h) * 1000:.0f}) over {len(h)} starts   [target < 1000 ms]")
    for real, what in ((False, "rules alone (every sightline clear)"), (True, "on the real table (ray-cast LOS)")):
        runs, seed = [], 0
        for _ in range(RUNS):  # each run new games (a game played again would find its sightlines kept)
            done, refused, secs, games = playouts(RUN_SECONDS, real_los=real, first_seed=seed)
            runs.append((done / secs, done, refused, secs, games))
            seed += games
        rate, done, refused, secs, games = max(runs)
        others = ", ".join(f"{r[0]:,.0f}" for r in runs)
        print(f"random legal playouts in process, {what}: {rate:,.0f} actions/s accepted, the best of {RUNS} runs "
              f"({others}; median {statistics.median(r[0] for r in runs):,.0f}); that run "
              f"{(done + refused) / secs:,.0f}/s incl. {refused} refused, {games} games in {secs:.1f} CPU s   "
              f"[target >= 2,000/s]")
    times, rss = round_trips()
    times.sort()
    print(f"game.act round trip through the subprocess: median {statistics.median(times) * 1000:.2f} ms, "
          f"p95 {times[int(len(times) * 0.95)] * 1000:.2f} ms over {len(times)}   [target median <= 1 ms]")
    print(f"engine resident memory with a 6'x4' scenario loaded: {rss / 1024:.1f} MB   [target < 150 MB]")


if __name__ == "__main__":
    main()
