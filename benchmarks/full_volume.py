"""The sampled tests at their full volume: ``make test`` plays a slice of each, this plays all of it
(DINKYDAU_FULL_VOLUME=1). Prints each part's time; exits 1 if any failed.

* ``tests/ai/test_games.py``: every shipped scenario at every Threat Level (``make test``: each scenario
  once, the levels taking turns);
* ``tests/rules/test_listing.py``: each table with real and clear sight, both seeds (``make test``: one
  seed for each table and sight);
* ``tests/rules/test_check.py``: 30 impulses a game (``make test``: 16);
* ``tests/engine/test_readonly.py``: every seed of each scenario (``make test``: the first);
* ``tests/engine/test_fog.py``: six games on each of the armour and river tables (``make test``: four).

The leak test has its own (``benchmarks/leak.py``), as has the wire fuzz (``benchmarks/fuzz.py``).

    python benchmarks/full_volume.py [-k EXPR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = {
    "AI games": ["tests/ai/test_games.py", "-k", "full_game_ends_cleanly"],
    "listings": ["tests/rules/test_listing.py", "-k", "every_listing_of_a_random_game"],
    "check": ["tests/rules/test_check.py", "-k", "check_refuses_exactly"],
    "read-only": ["tests/engine/test_readonly.py", "-k", "reading_everything"],
    "fog, vehicles": ["tests/engine/test_fog.py", "-k", "vehicles_and_boats"],
}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-k", default=None, help="only the parts whose name contains this")
    a = p.parse_args(argv)
    env = {**os.environ, "DINKYDAU_FULL_VOLUME": "1"}
    failed = []
    for name, args in PARTS.items():
        if a.k and a.k not in name:
            continue
        t0 = time.monotonic()
        rc = subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:xdist", *args],
                             cwd=ROOT, env=env)
        print(f"full volume, {name}: {time.monotonic() - t0:.0f} s, {'passed' if rc == 0 else 'FAILED'}")
        if rc != 0:
            failed.append(name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
