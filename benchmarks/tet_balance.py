"""Tet '68 balance: a scenario played by the computer on both sides, seeds F..F+N-1, through the one batch
runner every ruleset shares (``game.ai.simulate``: the same games as ``dinkydau simulate hue_street``).
Prints each game as it finishes, then the win rates with their 95 % Wilson intervals (docs/balance.md).

    python benchmarks/tet_balance.py [--scenario hue_street] [--games 100] [--first 1] [--jobs 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.ai import simulate  # noqa: E402


def show(g: dict) -> None:
    print(f"seed {g['seed']:4d}: {g['winner'] or 'draw':9s} turn {g['turns']:2d}, {g['cleared']} cleared, "
          f"left {g['allied_left']}/{g['insurgent_left']}, {g['seconds']:.1f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="hue_street")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--first", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    a = p.parse_args(argv)
    games = simulate.run(a.scenario, a.games, jobs=a.jobs, seed=a.first, on_result=show)
    s = simulate.summary(games, a.scenario, simulate.options_for(a.scenario), "tet68")

    def rate(key: str) -> str:
        lo, hi = s["ci95"][key]
        return f"{100 * s[key]:.1f} % ({100 * lo:.1f}-{100 * hi:.1f})"

    print(f"{a.scenario}: {s['games']} games: Allied {rate('allied_win_rate')}, Insurgent "
          f"{rate('insurgent_win_rate')}, draw {rate('draw_rate')} (95 % Wilson intervals); median "
          f"{statistics.median(g['seconds'] for g in games):.1f} s a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
