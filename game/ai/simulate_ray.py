"""Batch simulation on a Ray cluster: one game per Ray task (``dinkydau simulate --ray [ADDRESS]``).

The driver sends each task the scenario's text (``simulate.Source``, put in the object store once), a seed
and the Threat Level; the task plays the game with ``simulate.play`` (the same code as the local runner, so
the same seed gives the same result and final state hash) and returns its summary, or the fault. Results
come back as they finish and go to ``on_result`` (the study's stream) at once; at most a few tasks per CPU
are in flight, so a study of 10^5 games never floods the cluster and an interrupted one leaves little
running. With no address a small local Ray is started for the study (no dashboard, quiet logs, its files in
the temp folder) and shut down after; an address joins a running cluster (``docs/simulate.md``).

What this module leaves out: the games and their statistics (``game.ai.simulate``), the rules (the
rulesets), and setting up a cluster (``ray start``).
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from game.ai import simulate
from game.ai.simulate import RunnerError, SimulationError, Source

IN_FLIGHT_PER_CPU = 4
"""Tasks kept submitted per CPU of the cluster: enough to keep every worker busy, few enough to stop fast."""


def _ray():
    try:
        import ray
    except ImportError as exc:
        raise RunnerError("--ray needs Ray: pip install -e '.[ray]' in the checkout (make test and make play "
                              "install it)") from exc
    return ray


def temp_dir() -> str:
    """Where a local Ray keeps its sessions and sockets (short: Unix socket paths are limited)."""
    return os.path.join(tempfile.gettempdir(), f"dinkydau-ray-{os.getuid() if hasattr(os, 'getuid') else 0}")


def code_env() -> dict:
    """The runtime_env that ships this checkout's ``game`` package to the workers (``--ray-ship``)."""
    import game

    return {"py_modules": [str(Path(game.__file__).resolve().parent)], "excludes": ["__pycache__", "*.pyc"]}


def start(address: str | None = None, cpus: int | None = None, ship: bool = False) -> bool:
    """Connect to the cluster at ``address``, or start a local Ray with ``cpus`` CPUs (default: up to 4 of
    this machine's); False when Ray was already connected (the caller's cluster, left running)."""
    ray = _ray()
    if ray.is_initialized():
        return False
    quiet = {"include_dashboard": False, "logging_level": logging.ERROR, "log_to_driver": False}
    try:
        if address:
            ray.init(address=address, runtime_env=code_env() if ship else None, **quiet)
        else:
            ray.init(address="local", num_cpus=cpus or max(1, min(4, os.cpu_count() or 1)), _temp_dir=temp_dir(),
                     **quiet)  # "local": a new Ray of its own, whatever RAY_ADDRESS or a `ray start` here says
    except Exception as exc:  # a wrong address, a cluster of another Ray or Python version, a refused token
        raise RunnerError(f"cannot {'reach the Ray cluster at ' + address if address else 'start a local Ray'}: "
                              f"{type(exc).__name__}: {exc}") from exc
    return True


def play_task(src: Source, seed: int, threat: int) -> dict:
    """One game in a Ray worker: its summary, or ``{"seed", "error"}`` naming the game and the fault."""
    try:
        return simulate.play(src, seed, threat)
    except Exception as exc:
        return {"seed": seed, "error": f"{simulate.label(src, seed, threat)}: {type(exc).__name__}: {exc}"}


def run(src: Source, seeds: list[int], threat: int = 2, address: str | None = None, cpus: int | None = None,
        ship: bool = False, progress: Callable[[int, int], None] | None = None,
        on_result: Callable[[dict], None] | None = None) -> list[dict]:
    """Play ``seeds`` one task each; results in seed order (``SimulationError`` for the first game that
    fails, the rest cancelled). A local Ray started here is shut down after, whatever happens."""
    ray = _ray()
    started = start(address, cpus, ship) if seeds else False
    out: list[dict] = []
    pending: list = []
    try:
        if not seeds:
            return out
        task = ray.remote(num_cpus=1, max_retries=2)(play_task)
        src_ref = ray.put(src)
        window = max(2, IN_FLIGHT_PER_CPU * int(ray.cluster_resources().get("CPU", 1)))
        todo = iter(seeds)
        for s in todo:
            pending.append(task.remote(src_ref, s, threat))
            if len(pending) >= window:
                break
        while pending:
            ready, pending = ray.wait(pending, num_returns=len(pending), timeout=0.25)
            for r in ray.get(ready):
                if "error" in r:
                    raise SimulationError(r["error"])
                out.append(r)
                if on_result:
                    on_result(r)
                if progress:
                    progress(len(out), len(seeds))
                nxt = next(todo, None)
                if nxt is not None:
                    pending.append(task.remote(src_ref, nxt, threat))
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started:
            ray.shutdown()
    return sorted(out, key=lambda r: r["seed"])
