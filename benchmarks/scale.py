"""Cost as the work grows: line of sight, the rules and a whole computer game on larger tables with larger
forces. Prints measured figures; asserts nothing.

* **Line of sight**: the benchmark table of ``benchmarks/los.py`` (72" x 48", 6'x4') and tables of 8'x4'
  and 12'x4' with the same mix of features at the same density (hills, woods of every class, hootches
  and masonry: ``convention_table(width=...)``): the batched call's sightlines per second (CPU, median
  of ``--repeat``) and the single ``check_points`` median, on the same kind of random sightlines.
* **The rules**: the village sweep (4'x4') and the same scenario laid twice and three times side by
  side (8'x4', 12'x4': every feature, objective and element again, east of the last, so twice and three
  times the forces): random legal playouts' accepted actions per second (``benchmarks/engine.py``'s
  playout, CPU seconds), and a whole game the computer plays on both sides (the Allied autopilot against
  the Jungle Ghost, Threat Level 2), median wall seconds of ``--games``.

The machine may be shared: CPU time is used where it can be, and medians throughout.

    PYTHONPATH=. python benchmarks/scale.py [--n 20000] [--singles 1000] [--seconds 4] [--games 3]
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.los import convention_table, median_cpu, per_call, sightlines  # noqa: E402
from benchmarks.playout import random_step  # noqa: E402
from game.rules.dice import Dice, seed_streams  # noqa: E402
from game.rules.scenario import SCENARIO_DIR, build_scenario  # noqa: E402
from game.world import bake  # noqa: E402
from game.world.los import Conditions, TableLOS  # noqa: E402

LOS_TABLES = ((72.0, "6'x4' (the benchmark table)"), (96.0, "8'x4'"), (144.0, "12'x4'"))
TILES = ((1, "4'x4' (village_sweep)"), (2, "8'x4' (x2 forces)"), (3, "12'x4' (x3 forces)"))
MAX_STEPS = 5000


def _shift(points, dx: float):
    if points and isinstance(points[0], (int, float)):
        return [points[0] + dx, *points[1:]]
    return [_shift(p, dx) for p in points]


def tiled(copies: int, base: str = "village_sweep") -> dict:
    """The scenario laid ``copies`` times side by side, each copy ``width`` further east, its ids
    suffixed: a table ``copies`` times as wide with as many times the forces."""
    raw = tomllib.loads((SCENARIO_DIR / f"{base}.toml").read_text(encoding="utf-8"))
    width = float(raw["scenario"]["table"]["width"])
    out = copy.deepcopy(raw)
    out["scenario"]["id"] = f"{base}_x{copies}"
    out["scenario"]["table"] = {**raw["scenario"]["table"], "width": width * copies}
    for key in ("terrain", "objective", "element"):
        out[key] = []
        for k in range(copies):
            for item in copy.deepcopy(raw.get(key, [])):
                suffix, dx = ("" if k == 0 else f"_x{k}"), width * k
                item["id"] += suffix
                for field in ("point", "path", "polygon"):
                    if field in item:
                        item[field] = _shift(item[field], dx)
                for st in item.get("stand", []):
                    st["id"] += suffix
                    st["at"] = _shift(st["at"], dx)
                out[key].append(item)
    return out


def los_figures(width: float, n: int, singles: int, repeat: int) -> tuple[float, float, int]:
    table = convention_table(width=width)
    los = TableLOS.from_glb(bake.bake_glb(table), table.width, table.height)
    cond = Conditions()
    eyes, targets = sightlines(los, n)
    los.batch(eyes, targets, cond)
    cpu, _ = median_cpu(lambda: los.batch(eyes, targets, cond), repeat)
    calls = [(tuple(e), tuple(t), cond) for e, t in zip(eyes[:singles].tolist(), targets[:singles].tolist(),
                                                         strict=True)]
    single = statistics.median(per_call(los.check_points, calls))
    return n / cpu, single, len(table.features)


def playouts(scenario, seconds: float) -> tuple[float, int]:
    """``benchmarks/engine.py``'s random legal playouts on one scenario: accepted actions per CPU second."""
    from game.rules.game import Game
    from game.rules.turn import start_turn

    done = 0
    t0 = time.process_time()
    seed = 0
    while time.process_time() - t0 < seconds:
        seed += 1
        g = Game(scenario, seed, start=False)
        start_turn(g)
        rng = Dice(seed_streams(seed + 99))
        while not g.state.over and time.process_time() - t0 < seconds:
            done += random_step(g, rng)
    return done / (time.process_time() - t0), seed


def ai_game(scenario, seed: int) -> tuple[float, int]:
    """One game, the computer on both sides, to its end: wall seconds and turns."""
    from game import rulesets

    rs = rulesets.of_scenario(scenario)
    t0 = time.perf_counter()
    g = rs.new_game(scenario, seed, rs.options({"threat": 2}), {side: "ai" for side in rs.sides})
    steps = 0
    while not g.state.over and steps < MAX_STEPS:
        rs.ai_step(g, g.state.to_act)
        steps += 1
    return time.perf_counter() - t0, g.state.turn


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=20000, help="sightlines per batched call")
    ap.add_argument("--singles", type=int, default=1000, help="single check_points calls")
    ap.add_argument("--repeat", type=int, default=5, help="batched runs (median)")
    ap.add_argument("--seconds", type=float, default=4.0, help="CPU seconds of random playouts per table")
    ap.add_argument("--games", type=int, default=3, help="computer games per table (median)")
    args = ap.parse_args()

    print("line of sight (the benchmark table's feature mix at the same density; one core):")
    base = None
    for width, name in LOS_TABLES:
        rate, single, feats = los_figures(width, args.n, args.singles, args.repeat)
        base = base or (rate, single)
        print(f"  {name:28} {feats:4} features: batched {rate:>10,.0f} sightlines/s ({rate / base[0]:.2f}x), "
              f"single check_points median {single * 1e6:5.1f} us ({single / base[1]:.2f}x)")

    print("the rules (village_sweep laid side by side; forces grow with the table):")
    base = None
    for copies, name in TILES:
        sc = build_scenario(tiled(copies), f"<village_sweep x{copies}>")
        stands = sum(len(el.stands) for el in sc.elements)
        rate, games = playouts(sc, args.seconds)
        ai_game(sc, 1)  # the first game on a table bakes it and warms its caches
        times, turns = zip(*(ai_game(sc, seed) for seed in range(2, 2 + args.games)), strict=True)
        t = statistics.median(times)
        base = base or (rate, t)
        print(f"  {name:28} {stands:3} stands: random playouts {rate:>6,.0f} accepted actions/s "
              f"({rate / base[0]:.2f}x; {games} games), a computer game median {t:6.2f} s ({t / base[1]:.2f}x; "
              f"{args.games} games, mean {statistics.mean(turns):.1f} turns)")


if __name__ == "__main__":
    main()
