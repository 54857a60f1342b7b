"""Reading never changes a game (DESIGN §5; issue 11): the long run of ``tests/engine/test_readonly.py``.

Random games on every shipped scenario, each in two engines side by side: one asks every read-only
method before each act (views of both sides and the referee, both sides' listings, previews, events,
line of sight, saves), the other asks nothing; both get the same actions. Prints the games, acts,
AI steps and reads compared, and every divergence (the first differing event). The plain engine keeps
process-wide caches of its own (ray scenes, sightlines), as a second engine process would, and loads
the reader's save after each game. Asserts nothing; exits 1 if anything diverged.

    .venv/bin/python benchmarks/readonly_determinism.py              # 20 games a scenario, 120 acts each
    .venv/bin/python benchmarks/readonly_determinism.py --games 60 --acts 300 --seed 1000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.engine.test_readonly import SCENARIOS, Process, Tally, play  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per scenario (default 20)")
    ap.add_argument("--acts", type=int, default=120, help="acts and AI steps per game at most (default 120)")
    ap.add_argument("--seed", type=int, default=100, help="the first game's seed (default 100)")
    ap.add_argument("--scenario", action="append", choices=sorted(SCENARIOS), help="only these (repeatable)")
    args = ap.parse_args(argv)
    reader, plain = Process(), Process(isolated=True)
    total = Tally()
    t0 = time.perf_counter()
    for sid in args.scenario or sorted(SCENARIOS):
        tally = Tally()
        t = time.perf_counter()
        for k in range(args.games):
            play(sid, args.seed + k, args.acts, tally, reader, plain)
        dt = time.perf_counter() - t
        print(f"{sid:20s} {tally.games:4d} games  {tally.acts:6d} acts ({tally.refused} refused)  "
              f"{tally.steps:5d} AI steps  {sum(tally.reads.values()):7d} reads  "
              f"{len(tally.divergences)} divergences  {dt:6.1f} s", flush=True)
        for d in tally.divergences:
            print("  DIVERGED", d)
        total.games += tally.games
        total.acts += tally.acts
        total.steps += tally.steps
        total.refused += tally.refused
        total.divergences += tally.divergences
        for m, n in tally.reads.items():
            total.reads[m] = total.reads.get(m, 0) + n
    print(f"{'all':20s} {total.games:4d} games  {total.acts:6d} acts ({total.refused} refused)  "
          f"{total.steps:5d} AI steps  {sum(total.reads.values()):7d} reads  "
          f"{len(total.divergences)} divergences  {time.perf_counter() - t0:6.1f} s")
    print("reads: " + ", ".join(f"{m} {n}" for m, n in sorted(total.reads.items())))
    return 1 if total.divergences else 0


if __name__ == "__main__":
    sys.exit(main())
