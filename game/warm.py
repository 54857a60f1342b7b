"""``python -m game.warm``: what ``make`` does once after installing, so the first game does not wait.

It bakes the shipped Dinky Dau tables into the project's cache (``game.world.bake.baked_path``) and, where
the compiled line of sight loads (``game.world.sightline``; ``DINKYDAU_COMPILED_LOS=0`` leaves it out), has
numba compile it into ``.cache/numba`` with one single and one batched sightline on the first table. With a
warm cache a process reads the compiled code (about a second) instead of compiling it (10-15 s on a 2-core
machine). Nothing here changes an answer: a cold cache only costs time.
"""

from __future__ import annotations

import sys
import time


def main() -> int:
    from game.rules.scenario import load_scenario, shipped_scenarios
    from game.world.los import Conditions, TableLOS

    t0 = time.perf_counter()
    first = None
    for path in shipped_scenarios().values():
        los = TableLOS.from_scenario(load_scenario(path))
        first = first or los
    if first is not None:
        eye = (first.width * 0.25, first.height * 0.5, 1.0)
        target = (first.width * 0.75, first.height * 0.5, 0.5)
        first.check_points(eye, target, Conditions())
        first.batch([eye, eye], [target, target], Conditions())
    compiled = first is not None and first._fast is not None
    print(f"warm: the shipped tables baked, line of sight {'compiled' if compiled else 'in Python'} "
          f"({time.perf_counter() - t0:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
