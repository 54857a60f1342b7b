"""Record, or compare with a recording, every ``TableLOS.check_points`` answer on a fixed set of sightlines.

A change meant to make single sightlines faster must leave every answer as it was: record the answers
before the change, then compare after it. The set: the first 2000 sightlines of ``benchmarks/los.py``
on its 72" x 48" table under four conditions (day; dusk with a lit circle; monsoon; two smoke clouds),
2000 random ones over that table with ends raised or lowered (``tests.world.tables.random_lines``, the
mix the fast-path tests use), and on each shipped scenario's table 2000 random sightlines by day and at
dusk plus 500 given as (x, y) ends. An answer is ``LosResult.to_dict()`` in full (visible, fraction, distance, inches, cutoff, limit,
blocker, clause, reason, elevated, woodline, traced), compared exactly. The batched path
(``TableLOS.batch``, which drops a sightline as soon as it is known to be blocked) is recorded beside it:
each set's visible answers, and all 20,000 of the benchmark's under each condition.

    PYTHONPATH=. python benchmarks/los_answers.py record answers.json
    PYTHONPATH=. python benchmarks/los_answers.py compare answers.json   # exit status 1 on any difference
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from benchmarks.los import convention_table, sightlines
from game.rules.scenario import load_scenario, shipped_scenarios
from game.world import bake
from game.world.los import Conditions, TableLOS
from tests.world.tables import random_lines

CONDITIONS = (
    Conditions(),
    Conditions(time_of_day="dusk", illuminated=((20.0, 18.0, 4.0),)),
    Conditions(weather="monsoon"),
    Conditions(smoke=((12.0, 12.0, 2.0), (30.0, 20.0, 3.0))),
)


def answers(los: TableLOS, eyes: np.ndarray, targets: np.ndarray, conditions: Conditions) -> list:
    return [json.loads(json.dumps(los.check_points(tuple(e), tuple(t), conditions).to_dict()))
            for e, t in zip(eyes.tolist(), targets.tolist(), strict=True)]


def batched(los: TableLOS, eyes: np.ndarray, targets: np.ndarray, conditions: Conditions) -> list:
    return [bool(v) for v in los.batch(eyes, targets, conditions)]


def collect() -> dict[str, list]:
    out: dict[str, list] = {}
    table = convention_table()
    los = TableLOS.from_glb(bake.bake_glb(table), table.width, table.height)
    eyes, targets = sightlines(los, 20000)
    for k, cond in enumerate(CONDITIONS):
        out[f"benchmark/{k}"] = answers(los, eyes[:2000], targets[:2000], cond)
        out[f"batch/benchmark/{k}"] = batched(los, eyes, targets, cond)
    eyes, targets = random_lines(los, 2000, 7)
    out["benchmark/random"] = answers(los, eyes, targets, CONDITIONS[0])
    out["batch/benchmark/random"] = batched(los, eyes, targets, CONDITIONS[0])
    for path in shipped_scenarios().values():  # (Dinky Dau's: another ruleset's table is its own)
        los = TableLOS.from_scenario(load_scenario(path))
        eyes, targets = random_lines(los, 2000, 11)
        for k, cond in enumerate(CONDITIONS[:2]):
            out[f"{path.stem}/{k}"] = answers(los, eyes, targets, cond)
            out[f"batch/{path.stem}/{k}"] = batched(los, eyes, targets, cond)
        out[f"{path.stem}/xy"] = answers(los, eyes[:500, :2], targets[:500, :2], CONDITIONS[0])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["record", "compare"])
    ap.add_argument("path")
    args = ap.parse_args()
    got = collect()
    total = sum(len(v) for v in got.values())
    if args.mode == "record":
        Path(args.path).write_text(json.dumps(got))
        print(f"recorded {total} answers to {args.path}")
        return
    old = json.loads(Path(args.path).read_text())
    differ = 0
    for key, rows in old.items():
        for i, (a, b) in enumerate(zip(rows, got[key], strict=True)):
            if a != b:
                differ += 1
                if differ <= 5:
                    print(f"differs: {key} #{i}\n  before {a}\n  now    {b}")
    print(f"compared {total} answers: {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
