"""The leak test at its full volume (DESIGN §6): 180 random games in process and 20 through the real
engine subprocess, every message each side receives scanned for hidden facts, with refusal probes
(``tests/engine/test_fog.py``; ``make test`` plays 24 and 4 of them). Prints the counts; exits 1 on a leak.

    python benchmarks/leak.py [--games 180] [--process-games 20]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=180)
    p.add_argument("--process-games", type=int, default=20)
    a = p.parse_args(argv)
    env = {**os.environ, "DINKYDAU_LEAK_GAMES": str(a.games), "DINKYDAU_LEAK_PROCESS_GAMES": str(a.process_games)}
    t0 = time.monotonic()
    rc = subprocess.call([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:randomly",
                          "tests/engine/test_fog.py", "-k", "in_process or subprocess or counted"], cwd=ROOT, env=env)
    print(f"leak test: {a.games} games in process, {a.process_games} through the subprocess, "
          f"{time.monotonic() - t0:.0f} s, {'no leak' if rc == 0 else 'FAILED'}")
    return 0 if rc == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
