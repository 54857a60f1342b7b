"""Soak: thousands of AI-vs-AI games in one engine process, and whether its memory stays flat.

    python benchmarks/soak.py [--games 2000] [--every 100] [--scenario ID ...] [--tolerance 0.10] [--trim]

Each game goes through the in-process ``Engine`` the way a convention machine's engine plays them all day:
``game.new`` with both sides ``ai``, ``game.step`` until the game is over, ``game.close``. The shipped
scenarios take turns (or the ``--scenario`` ones); seeds run 1, 2, 3 ... Prints the resident memory
(RSS, from ``/proc/self/statm``) every ``--every`` games, then the memory after 200 games against the
memory at the end and whether the end is within ``--tolerance`` (10 %) of it (issue 11: the caches are
bounded, so after the first tables are warm the process stops growing). ``--trim`` hands the heap freed
by each game back to the system (glibc ``malloc_trim``), to tell what the allocator keeps from what is
still in use. Exits 0 either way; it is a figure, not a test.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine.session import Engine  # noqa: E402
from game.rules.scenario import shipped_scenarios  # noqa: E402

BASELINE = 200
"""The game after which the process counts as warm (every shipped table loaded, the caches filled)."""


def rss_mb() -> float:
    """Resident memory now, MB (``/proc/self/statm``; elsewhere the peak, from ``resource``)."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def _malloc_trim():
    import ctypes
    import ctypes.util

    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def play(engine: Engine, scenario: str, seed: int, max_steps: int = 5000) -> int:
    """One AI-vs-AI game from start to end, closed after; the steps it took."""
    r = engine.call("game.new", {"scenario": scenario, "seed": seed, "players": {"allied": "ai", "insurgent": "ai"}})
    gid, steps = r["game"], 0
    try:
        while steps < max_steps:
            steps += 1
            if engine.call("game.step", {"game": gid})["over"]:
                break
    finally:
        engine.call("game.close", {"game": gid})
    return steps


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--every", type=int, default=100, help="print the memory every this many games")
    p.add_argument("--scenario", action="append", help="a scenario id (repeat; default: every shipped one)")
    p.add_argument("--tolerance", type=float, default=0.10)
    p.add_argument("--trim", action="store_true", help="hand freed heap back after every game (glibc "
                   "malloc_trim): tells memory the allocator keeps from memory still in use")
    args = p.parse_args(argv)
    trim = _malloc_trim() if args.trim else None
    scenarios = args.scenario or sorted(shipped_scenarios())
    engine = Engine()
    t0 = time.perf_counter()
    marks: dict[int, float] = {0: rss_mb()}
    steps = 0
    print(f"soak: {args.games} AI-vs-AI games through the engine, scenarios {', '.join(scenarios)}"
          + (" (freed heap handed back after each game)" if trim else ""))
    print(f"{'games':>6} {'RSS MB':>8} {'steps':>8} {'seconds':>8}")
    print(f"{0:>6} {marks[0]:>8.1f} {0:>8} {0.0:>8.1f}", flush=True)
    for n in range(1, args.games + 1):
        steps += play(engine, scenarios[(n - 1) % len(scenarios)], n)
        if trim:
            trim(0)
        if n % args.every == 0 or n == BASELINE or n == args.games:
            gc.collect()
            marks[n] = rss_mb()
            print(f"{n:>6} {marks[n]:>8.1f} {steps:>8} {time.perf_counter() - t0:>8.1f}", flush=True)
    end = marks[args.games]
    if args.games > BASELINE:
        base = marks[BASELINE]
        growth = (end - base) / base
        verdict = "within" if abs(growth) <= args.tolerance else "NOT within"
        print(f"memory after {BASELINE} games: {base:.1f} MB; after {args.games}: {end:.1f} MB "
              f"({growth:+.1%}, {verdict} {args.tolerance:.0%})")
    print(f"games left open: {len(engine.sessions)}; {steps / max(args.games, 1):.1f} steps a game; "
          f"{(time.perf_counter() - t0) / max(args.games, 1):.2f} s a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
