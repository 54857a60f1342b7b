"""The cost of vehicle hulls in line of sight (G-01 T15; ``game.world.hulls``): prints measured figures.

On the convention table of ``benchmarks/los.py`` (72" x 48", hills, 300 woods, 20 buildings), with 0, 4
and 16 hulls standing about it (``Conditions.hulls``: tank- and truck-sized boxes at random places and
facings, 0.7" to 1.2" high), it times:

* the batched call ``TableLOS.batch`` (the AI's path): sightlines per second, median of ``--repeat``
  runs in process CPU time;
* single ``check_points`` calls (full evidence): median microseconds per call;
* ``check_many`` over stand pairs (12 sightlines each): microseconds per pair;

the three conditions in turn, run after run, and says what share of the sightlines the hulls block; then
the hull test alone (``block_many`` and ``block1``) per sightline, which is what the hulls add. One core: run it with ``OMP_NUM_THREADS=1``.

    python benchmarks/los_hulls.py [--n 20000] [--singles 2000] [--stands 500]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.los import convention_table, median_cpu, per_call, sightlines, us
from game.world import bake
from game.world.hulls import block1, block_many
from game.world.los import Conditions, Observer, TableLOS


def hulls(los: TableLOS, count: int, seed: int = 5) -> tuple:
    """``count`` hull boxes at random on the table: (x, y, facing, length, width, height, id)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        x, y = rng.uniform([3.0, 3.0], [los.width - 3, los.height - 3])
        length, width = (2.76, 1.44) if i % 2 else (2.08, 1.1)
        out.append((float(x), float(y), float(rng.uniform(0, 360)), length, width, float(rng.uniform(0.7, 1.2)),
                    f"v{i}"))
    return tuple(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=20000, help="sightlines in the batch")
    ap.add_argument("--singles", type=int, default=2000, help="check_points calls")
    ap.add_argument("--stands", type=int, default=500, help="stand pairs for check_many")
    ap.add_argument("--repeat", type=int, default=7, help="runs of each timing (median)")
    args = ap.parse_args()
    table = convention_table()
    los = TableLOS.from_glb(bake.bake_glb(table), table.width, table.height)
    eyes, targets = sightlines(los, args.n)
    obs = [Observer(float(e[0]), float(e[1]), 0.0) for e in eyes[:args.stands]]
    tgt = [Observer(float(t[0]), float(t[1]), 180.0) for t in targets[:args.stands]]
    pairs = list(zip(obs, tgt, strict=True))
    print(f"table: 72x48, {len(table.features)} features; {args.n} sightlines, mean length "
          f"{np.linalg.norm(targets - eyes, axis=1).mean():.1f}\"; {len(pairs)} stand pairs")
    counts = (0, 4, 16)
    conds = {k: Conditions(hulls=hulls(los, k)) for k in counts}
    calls = {k: [(tuple(e), tuple(t), c) for e, t in zip(eyes[:args.singles].tolist(), targets[:args.singles].tolist(),
                                                         strict=True)] for k, c in conds.items()}

    def many(cond: Conditions) -> None:
        los._bodies.clear()
        los._memo.clear()
        los.check_many(pairs, cond)

    batch: dict[int, list[float]] = {k: [] for k in counts}
    single: dict[int, list[float]] = {k: [] for k in counts}
    pair: dict[int, list[float]] = {k: [] for k in counts}
    for k in counts:  # warm up
        los.batch(eyes, targets, conds[k])
        many(conds[k])
    # the three conditions in turn, run after run: a shared machine's drift falls on all of them alike
    for _ in range(args.repeat):
        for k in counts:
            batch[k].append(median_cpu(lambda k=k: los.batch(eyes, targets, conds[k]), 1)[0])
            pair[k].append(median_cpu(lambda k=k: many(conds[k]), 1)[0])
            single[k].append(statistics.median(per_call(los.check_points, calls[k])))
    for k in counts:
        full = los.trace(eyes, targets, conds[k])
        blocked = 0.0 if full.hull is None else float((full.hull >= 0).mean())
        rate = args.n / statistics.median(batch[k])
        print(f"{k:2d} hulls: batch {rate:,.0f} sightlines/s CPU ({us(1 / rate)} each); single check_points median "
              f"{us(statistics.median(single[k]))}; check_many {us(statistics.median(pair[k]) / len(pairs))} per pair; "
              f"{blocked:.1%} of the sightlines blocked by a hull")
    # the hull test alone (what the hulls add to every traced sightline), steadier than the totals above
    lines = [(*e, *t) for e, t in zip(eyes.tolist(), targets.tolist(), strict=True)]
    for k in counts[1:]:
        prepared = los._hulls(conds[k])
        assert prepared is not None
        vec, _ = median_cpu(lambda prepared=prepared: block_many(prepared, eyes, targets), args.repeat)
        one, _ = median_cpu(lambda prepared=prepared: [block1(prepared, *a) for a in lines], 3)
        print(f"{k:2d} hulls, the hull test alone: batched {us(vec / args.n)} per sightline, single "
              f"{us(one / args.n)} per sightline")


if __name__ == "__main__":
    main()
