"""``python -m game.warm``: what ``make`` does once after installing, so the first game does not wait.

It bakes the shipped Dinky Dau tables into the project's cache (``game.world.bake.baked_path``) and, where
the compiled line of sight runs (``game.world.sightline``; ``DINKYDAU_COMPILED_LOS=0`` leaves it out), has
numba compile it into ``.cache/numba`` and builds it ahead of time into a library in ``.cache/sightline``
(``game.world.sightline_native``), with one single and one batched sightline on the first table. With the
library built a process loads it (milliseconds, and without numba's 100 MB) instead of compiling (10-15 s
on a 2-core machine). Then it builds the rules' busiest modules with Cython into ``.cache/compiled``
(``game.compiled``; a process loads a build only while it matches its module's source), optimised for
the computer's play of the shipped scenarios (``game.compiled_training``, which plays on the tables and
the line of sight made ready first). Nothing here changes an answer: a cold cache only costs time and
memory.
"""

from __future__ import annotations

import os
import sys
import time


def main() -> int:
    os.environ["DINKYDAU_SIGHTLINE_BUILD"] = "0"  # (built below, here and now, not in the background)
    from game.rules.scenario import load_scenario, shipped_scenarios
    from game.world.los import Conditions, TableLOS

    t0 = time.perf_counter()
    first = None
    for path in shipped_scenarios().values():
        table = TableLOS.from_scenario(load_scenario(path))
        first = first or table
    if first is not None:
        eye = (first.width * 0.25, first.height * 0.5, 1.0)
        target = (first.width * 0.75, first.height * 0.5, 0.5)
        first.check_points(eye, target, Conditions())
        first.batch([eye, eye], [target, target], Conditions())
    from game.world import sightline_native

    how = "in Python"
    if first is not None and first._fast is not None:
        sightline_native.build(wait=True)
        how = "compiled ahead of time" if sightline_native.path().exists() else "compiled by numba (no library)"
    print(f"warm: the shipped tables baked, line of sight {how} ({time.perf_counter() - t0:.1f} s)", file=sys.stderr)
    from game import compiled

    t0 = time.perf_counter()
    compiled.main()  # (its training plays on the tables baked above)
    built = sum(compiled.target(n).is_file() for n in compiled.MODULES)
    print(f"warm: {built} of {len(compiled.MODULES)} rules modules compiled ({time.perf_counter() - t0:.1f} s)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
