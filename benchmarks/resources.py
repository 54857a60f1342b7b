"""Engine resources (issue 11): scenario validation against the number of stands, and what a process
keeps of the distinct tables it has played on. Prints measured figures; asserts nothing.

    python benchmarks/resources.py [--tables 12] [--keep-all]

- time to validate a scenario of 500, 2,000 and 8,000 stands (none overlapping: every pair is checked,
  through a spatial index), and of 3,000 stands stacked on one spot (millions of overlapping pairs: the
  first ``MAX_PROBLEMS`` are reported);
- resident memory, tables held and baked files on disk after opening ``--tables`` distinct inline
  tables one after another (each a game that traces a few sightlines, then closes). ``--keep-all``
  keeps every table as the engine did before (for the figure to compare with).
"""

from __future__ import annotations

import argparse
import copy
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.rules.scenario import ScenarioError, build_scenario, resolve_scenario  # noqa: E402


def rss_mb() -> float:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def crowd(n: int, stacked: bool = False) -> dict:
    """``n`` stands in elements of 4 on a 240"x240" table, 2.6" apart (or all on one spot)."""
    cols, elements = 90, []
    for e in range(0, n, 4):
        side = "allied" if (e // 4) % 2 == 0 else "insurgent"
        kind = "us_rifle_team" if side == "allied" else "vc_rifle_cell"
        stands = []
        for i in range(e, min(e + 4, n)):
            at = [120.0, 120.0] if stacked else [2 + (i % cols) * 2.6, 2 + (i // cols) * 2.6]
            stands.append({"id": f"s{i}", "type": kind, "at": at, "facing": 90})
        elements.append({"id": f"e{e}", "side": side, "name": f"e{e}", "kind": "squad", "stand": stands})
    return {"scenario": {"id": "crowd", "title": "crowd", "table": {"width": 240, "height": 240}},
            "side": [{"id": "allied", "faction": "us_army"}, {"id": "insurgent", "faction": "vc_main_force"}],
            "element": elements}


def validation() -> None:
    for n in (500, 2000, 8000):
        raw = crowd(n)
        t = time.perf_counter()
        build_scenario(raw)
        print(f"validate {n:>5} stands (none overlapping): {time.perf_counter() - t:7.3f} s")
    raw = crowd(3000, stacked=True)
    t = time.perf_counter()
    try:
        build_scenario(raw)
    except ScenarioError as exc:
        n = len(exc.problems)
    print(f"validate  3000 stands on one spot (4.5 million overlapping pairs): {time.perf_counter() - t:7.3f} s, "
          f"{n} problems reported")


def distinct_tables(count: int, keep_all: bool) -> None:
    from game.rules import game as game_mod
    from game.rules.game import Game, live_tables
    from game.world import bake

    if keep_all:
        game_mod.KEEP_TABLES = 10**9
        bake.KEEP_BAKES = 10**9
    cache = Path(tempfile.mkdtemp(prefix="dinkydau-resources-"))
    os.environ["DINKYDAU_CACHE"] = str(cache)
    base = resolve_scenario("village_sweep").raw
    print(f"distinct inline tables ({'every one kept, as before' if keep_all else 'bounded'}; "
          f"KEEP_TABLES={game_mod.KEEP_TABLES}, KEEP_BAKES={bake.KEEP_BAKES}):")
    start = rss_mb()
    for k in range(count):
        raw = copy.deepcopy(base)
        raw["scenario"]["id"] = f"inline-{k}"
        poly = next(f["polygon"] for f in raw["terrain"] if "polygon" in f)
        poly[0] = [poly[0][0] + 0.01 * (k + 1), poly[0][1]]  # one corner moved: a table of its own
        g = Game(build_scenario(raw), k + 1)
        stands = [s for s in g.state.stands.values() if s.alive]
        allied = [s for s in stands if s.side == "allied"][:4]
        insurgent = [s for s in stands if s.side == "insurgent"][:4]
        for a in allied:
            for b in insurgent:
                g.line_of_sight(a, b)
        bake.baked_path(g.scenario, g.book)
        del g
        gc.collect()
        if (k + 1) % 4 == 0 or k + 1 == count:
            bakes = len(list(cache.glob("table-*.glb")))
            print(f"  after {k + 1:>3} tables: RSS {rss_mb():7.1f} MB ({rss_mb() - start:+7.1f}), "
                  f"tables held {len(live_tables())}, baked files {bakes}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=12)
    p.add_argument("--keep-all", action="store_true", help="keep every table and bake (the old behaviour)")
    p.add_argument("--skip-validation", action="store_true")
    args = p.parse_args(argv)
    if not args.skip_validation:
        validation()
    if args.tables:
        distinct_tables(args.tables, args.keep_all)
    return 0


if __name__ == "__main__":
    sys.exit(main())
