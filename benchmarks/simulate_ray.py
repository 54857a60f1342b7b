"""simulate on Ray against the local runner (issue 21: balance studies on Ray). Prints measured figures;
asserts nothing but says whether the two runners agree.

- the time to start (and stop) a local Ray of ``--cpus`` CPUs, and to import Ray
- games/s of the local runner (``--jobs`` processes) and of Ray (one game per task on that local Ray) over
  the same seeds, each wall time counted from the first game submitted to the last result in
- whether both give the same win counts, and the same per-seed results and final state hashes

    python benchmarks/simulate_ray.py [--scenario village_sweep] [--games 100] [--jobs 2] [--cpus 2]
        [--address ADDRESS]   # Ray: a running cluster instead of a local one
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.ai import simulate, simulate_ray  # noqa: E402


def counts(results: list[dict]) -> dict:
    c = Counter(r["winner"] or "draw" for r in results)
    return {k: c[k] for k in ("allied", "insurgent", "draw")}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="village_sweep")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threat", type=int, default=2)
    p.add_argument("--jobs", type=int, default=2, help="local runner processes")
    p.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray")
    p.add_argument("--address", help="a running Ray cluster instead of a local one")
    a = p.parse_args(argv)
    src = simulate.source_of(a.scenario)
    seeds = list(range(a.seed, a.seed + a.games))
    print(f"{a.scenario}, {a.games} games (seeds {seeds[0]}..{seeds[-1]}), Threat Level {a.threat}")

    t = time.perf_counter()  # the local runner first: processes forked after Ray has run here crawl
    local = simulate.run(src, a.games, jobs=a.jobs, threat=a.threat, seed=a.seed)
    t_local = time.perf_counter() - t
    print(f"  local runner, {a.jobs} process(es): {t_local:7.1f} s wall, {a.games / t_local:6.2f} games/s", flush=True)
    t = time.perf_counter()
    import ray
    t_import = time.perf_counter() - t
    t = time.perf_counter()
    simulate_ray.start(a.address, a.cpus)
    t_start = time.perf_counter() - t
    where = a.address or f"local, {a.cpus} CPUs"
    print(f"  Ray {ray.__version__}: import {t_import:.2f} s, start ({where}) {t_start:.2f} s")
    t = time.perf_counter()
    on_ray = simulate_ray.run(src, seeds, a.threat)
    t_ray = time.perf_counter() - t
    print(f"  Ray ({where}), one game a task: {t_ray:7.1f} s wall, {a.games / t_ray:6.2f} games/s", flush=True)
    t = time.perf_counter()
    ray.shutdown()
    print(f"  Ray shut down in {time.perf_counter() - t:.2f} s")

    def strip(rs):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rs]

    same = strip(on_ray) == strip(local)
    print(f"  win counts: Ray {counts(on_ray)}, local {counts(local)}: "
          f"{'the same' if counts(on_ray) == counts(local) else 'DIFFERENT'}; per-seed results and hashes "
          f"{'the same' if same else 'DIFFERENT'}")
    s = simulate.summary(local, a.scenario, simulate.options_for(src, a.threat))
    print("  " + simulate.report_text(s).splitlines()[1].strip())
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
