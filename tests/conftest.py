"""What every test process shares: compiled bytecode.

A run starts many Python processes (two pytest workers, an engine process for most client and engine
tests, the demo, film and subprocess tests); with ``PYTHONDONTWRITEBYTECODE`` set each of them would
compile the game's modules from source again (about 0.3 s of CPU an engine process, a second a worker).
So the run writes the bytecode of ``game/`` once, before the workers start, and the test modules'
rewritten bytecode is cached as pytest caches it by default. Nothing else is shared here: the bakes'
store is ``tests/client/conftest.py``'s.
"""

from __future__ import annotations

import compileall
import sys
from pathlib import Path

GAME = Path(__file__).resolve().parent.parent / "game"

sys.dont_write_bytecode = False  # this process's imports and pytest's rewritten tests are cached


def pytest_configure(config) -> None:
    if not hasattr(config, "workerinput"):  # the main process: once a run, before the xdist workers start
        compileall.compile_dir(GAME, quiet=1)
