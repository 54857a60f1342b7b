"""``python -m game.compiled_training``: the play the compiled rules are optimised for (``game.compiled``).

GCC's profile-guided optimisation builds each module twice: first with counters compiled in, then again
laid out for what the counters saw run. This is the run they count: the computer playing both sides of
every shipped Dinky Dau scenario to the end, ``GAMES`` games each, from fixed seeds (the Jungle Ghost
and the Allied autopilot, ``game.ai.simulate.play``), as a solo game or the convention table's attract
mode plays. The same seeds each time, so the same play is counted on every machine.

It changes no answer: a profile moves code about within a module, never what the code does
(``tests/test_compiled.py`` plays the same games with the builds as without them).
"""

from __future__ import annotations

import sys
import time

GAMES = 2
"""Games played on each shipped scenario."""
FIRST_SEED = 910_001
"""The seeds played: from this one on (none of the benchmarks' or the tests' own)."""


def main() -> int:
    from game.ai.simulate import play
    from game.rules.scenario import shipped_scenarios

    t0 = time.process_time()
    names = list(shipped_scenarios())
    for name in names:
        for seed in range(FIRST_SEED, FIRST_SEED + GAMES):
            play(name, seed)
    print(f"training: {GAMES} games on each of {len(names)} scenarios "
          f"({time.process_time() - t0:.1f} CPU s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
