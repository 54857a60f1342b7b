"""The client's line to the engine process: calls run on a worker thread, answers come back on the
Panda3D task loop, so the window never freezes while the engine thinks.

``EngineLink`` takes a factory that makes an engine object with ``call(method, **params)`` and
``close()`` (``game.engine.client.EngineProcess`` in play; a fake in tests). An error that carries a
JSON-RPC ``code`` is the engine saying no (an illegal action, an unknown method): the game goes on.
Any other exception means the engine process is gone; the link reports it as ``EngineDied`` and can be
restarted.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

METHOD_NOT_FOUND = -32601


@dataclass
class EngineFault:
    """A JSON-RPC error from a living engine."""

    code: int
    message: str
    data: Any = None

    @property
    def reason(self) -> str:
        if isinstance(self.data, dict) and self.data.get("reason"):
            clause = self.data.get("clause")
            return f"{self.data['reason']}" + (f" ({clause})" if clause else "")
        return self.message


@dataclass
class EngineDied:
    """The engine process stopped answering (it exited, crashed or its pipe broke)."""

    message: str


def default_factory():
    from game.engine.client import EngineProcess  # the protocol client; never game.rules

    return EngineProcess()


def classify(exc: BaseException) -> EngineFault | EngineDied:
    code = getattr(exc, "code", None)
    if type(exc).__name__ == "EngineDied" or code == -1:
        return EngineDied(str(getattr(exc, "message", exc)))
    if isinstance(code, int):
        return EngineFault(code, str(getattr(exc, "message", exc)), getattr(exc, "data", None))
    return EngineDied(f"{type(exc).__name__}: {exc}")


class EngineLink:
    """Queue engine calls on a worker thread; deliver results with ``poll()`` on the main thread."""

    def __init__(self, factory: Callable[[], Any] = default_factory):
        self.factory = factory
        self.engine: Any = None
        self.dead: EngineDied | None = None
        self._requests: queue.Queue = queue.Queue()
        self._results: queue.Queue = queue.Queue()
        self._pending = 0
        self._generation = 0  # which engine process the answers come from; restart() starts the next
        self._lock = threading.Lock()
        self._starting = threading.Lock()  # one engine made, whichever thread asks first
        self._thread = threading.Thread(target=self._work, name="engine-link", daemon=True)
        self._thread.start()

    @property
    def busy(self) -> bool:
        return self._pending > 0

    def request(self, method: str, params: dict | None = None,
                on_result: Callable[[Any], None] | None = None,
                on_error: Callable[[EngineFault | EngineDied], None] | None = None) -> None:
        with self._lock:
            self._pending += 1
        self._requests.put((method, dict(params or {}), on_result, on_error))

    def start(self) -> None:
        """Start the engine now (its process loads while the window opens), not at the first call. A
        failure here is left for the first call to report, as it would have been without this."""
        try:
            self._engine()
        except Exception:  # noqa: BLE001 - reported by the first call, through classify
            pass

    def _engine(self) -> Any:
        with self._starting:
            if self.engine is None:
                self.engine = self.factory()
            return self.engine

    def call(self, method: str, **params) -> Any:
        """Blocking call, for scripts and offscreen screenshots; raises the engine's own exceptions."""
        return self._engine().call(method, **params)

    def poll(self) -> int:
        """Run the callbacks of finished calls (on the caller's thread); returns how many ran."""
        n = 0
        while True:
            try:
                on_done, value, generation = self._results.get_nowait()
            except queue.Empty:
                return n
            with self._lock:
                self._pending -= 1
            n += 1
            if isinstance(value, EngineDied) and generation != self._generation:
                continue  # the death of an engine already replaced: the player was told once
            if on_done is not None:
                on_done(value)

    def _work(self) -> None:
        while True:
            item = self._requests.get()
            if item is None:
                return
            method, params, on_result, on_error = item
            generation = self._generation
            try:
                if self.dead is not None:
                    raise ConnectionError(self.dead.message)
                result = self._engine().call(method, **params)
            except Exception as exc:  # noqa: BLE001 - every failure is reported to the player
                fault = classify(exc)
                if isinstance(fault, EngineDied) and generation == self._generation:
                    self.dead = fault
                self._results.put((on_error, fault, generation))
            else:
                self._results.put((on_result, result, generation))

    def restart(self) -> None:
        """Drop the dead engine; the next request starts a fresh process."""
        old, self.engine, self.dead = self.engine, None, None
        self._generation += 1
        if old is not None:
            try:
                old.close()
            except Exception:  # noqa: BLE001 - it is already dead
                pass

    def close(self) -> None:
        self._requests.put(None)
        self._thread.join(timeout=5)
        if self.engine is not None:
            try:
                self.engine.close()
            except Exception:  # noqa: BLE001
                pass
            self.engine = None
