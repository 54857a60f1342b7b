"""Balance table: N seeded AI-vs-AI games of each scenario at one Threat Level, and the median game time.

For each scenario it runs ``dinkydau simulate SCENARIO --games N --jobs J --threat L`` (``game.ai.simulate.run``,
seeds 1..N: the same games whatever J is) and then times ``--timing`` games on one core in this process,
after one warm-up game (the line-of-sight cache is per table and per process, as in ``benchmarks/ai.py``).
It prints a Markdown table for docs/balance.md: scenario, games, Allied / Insurgent / draw %, median game
seconds, mean net VP, the command.

The goal (docs/balance.md): each side wins 35-65% at Threat Level 2, and a game takes 0.5 s or less.

Run: python benchmarks/balance.py [--games 500] [--jobs 8] [--threat 2] [--timing 20] [SCENARIO ...]
(``--games 0``: the one-core timing only.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.ai import simulate  # noqa: E402
from game.rules.scenario import shipped_scenarios  # noqa: E402

BAND = (0.35, 0.65)


def timing(scenario: str, games: int, threat: int) -> float:
    """The median seconds of ``games`` AI-vs-AI games on one core (seeds 1001...), after a warm-up."""
    simulate.play(scenario, 1000, threat)
    return statistics.median(simulate.play(scenario, 1001 + i, threat)["seconds"] for i in range(games))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scenarios", nargs="*", help="scenario ids (default: every shipped scenario)")
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1))
    p.add_argument("--threat", type=int, default=2, choices=(1, 2, 3))
    p.add_argument("--timing", type=int, default=20, help="games timed on one core (0: none)")
    a = p.parse_args(argv)
    names = a.scenarios or sorted(shipped_scenarios())
    rows, outside = [], []
    for sc in names:
        if a.games <= 0:  # timing only
            print(f"{sc}: median game {timing(sc, a.timing or 20, a.threat):.2f} s on one core")
            continue
        t0 = time.perf_counter()
        s = simulate.summary(simulate.run(sc, a.games, jobs=a.jobs, threat=a.threat), sc, a.threat)
        wall = time.perf_counter() - t0
        med = timing(sc, a.timing, a.threat) if a.timing else statistics.median(r["seconds"] for r in s["results"])
        ar, ir = s["allied_win_rate"], s["insurgent_win_rate"]
        if not (BAND[0] <= ar <= BAND[1] and BAND[0] <= ir <= BAND[1]):
            outside.append(sc)
        rows.append(f"| {sc} | {s['games']} | {100 * ar:.1f} | {100 * ir:.1f} | {100 * s['draw_rate']:.1f} | "
                    f"{med:.2f} | {s['vp']['mean']:+.2f} | `dinkydau simulate {sc} --games {a.games} --jobs {a.jobs} "
                    f"--threat {a.threat} --quiet` |")
        print(f"{sc}: {wall:.0f} s wall", file=sys.stderr)
    if a.games <= 0:
        return 0
    print("| scenario | games | Allied win % | Insurgent win % | draw % | median game s | mean net VP | command |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if outside:
        print(f"\noutside {100 * BAND[0]:.0f}-{100 * BAND[1]:.0f}%: {', '.join(outside)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
