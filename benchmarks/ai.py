"""AI benchmarks: a whole six-turn AI-vs-AI game on one core, and simulate with 2 jobs against 1.

The game is the Allied autopilot against the Jungle Ghost (Threat Level 2) on a shipped scenario,
played to its end; the figure includes line of sight (cached per table in the process, so the first
game on a table pays for the cold cache: both are printed). Goal: a game under 2 s.

Run: python benchmarks/ai.py [GAMES]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.ai import simulate  # noqa: E402
from game.rules.scenario import shipped_scenarios  # noqa: E402


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    for sc in sorted(shipped_scenarios()):
        t = time.perf_counter()
        first = simulate.play(sc, 1)
        cold = time.perf_counter() - t
        times, turns = [], []
        for seed in range(2, n + 2):
            r = simulate.play(sc, seed)
            times.append(r["seconds"])
            turns.append(r["turns"])
        print(f"{sc}: first game (cold LOS cache) {cold:.2f} s ({first['turns']} turns); "
              f"then {n} games: median {statistics.median(times):.2f} s, max {max(times):.2f} s, "
              f"mean turns {statistics.mean(turns):.1f}")
    games = max(4, n)
    for jobs in (1, 2):
        t = time.perf_counter()
        simulate.run("village_sweep", games, jobs=jobs, seed=100)
        dt = time.perf_counter() - t
        print(f"simulate village_sweep --games {games} --jobs {jobs}: {dt:.2f} s ({dt / games:.2f} s/game)")


if __name__ == "__main__":
    main()
