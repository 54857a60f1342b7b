"""Clients of the engine: the real subprocess, and the same interface in process.

``EngineProcess`` starts ``python -m game engine`` as a child process and speaks JSON-RPC to it over
its stdin/stdout; ``EngineSocket`` speaks it to an engine serving TCP (``dinkydau engine --listen``),
whose games every connection shares (co-op players on separate machines, each sending its ``seat``);
``InProcessEngine`` answers the same calls from an ``Engine`` in this process (faster, for tests and
batch play). All three pass every param through as given (``seat`` included). Both raise :class:`EngineError` for a JSON-RPC error, with its
code, message and data (``data["reason"]`` and ``data["clause"]`` for a refused action), and
:class:`EngineDied` when the process is gone.

The 3D client uses ``EngineProcess`` only, and calls it from a worker thread so the window never
waits on the engine; calls are serialised by a lock.
"""

from __future__ import annotations

import json
import os
import socket
import ssl
import subprocess
import sys
import threading
from abc import ABC, abstractmethod
from typing import Any, Self

import orjson


class EngineError(Exception):
    """The engine answered with a JSON-RPC error."""

    def __init__(self, code: int, message: str, data: Any = None):
        self.code = code
        self.message = message
        self.data = data
        super().__init__(f"[{code}] {message}" + (f" {data}" if data else ""))

    @property
    def reason(self) -> str:
        return (self.data or {}).get("reason", self.message) if isinstance(self.data, dict) else self.message

    @property
    def clause(self) -> str | None:
        return self.data.get("clause") if isinstance(self.data, dict) else None


class EngineDied(EngineError):
    """The engine process exited or closed its pipe."""

    def __init__(self, message: str):
        super().__init__(-1, message)


class InProcessEngine:
    """The protocol's methods on an Engine in this process, with the subprocess client's interface."""

    def __init__(self, engine: Any = None):
        # Imported here: a process that only drives the engine subprocess (the 3D client) must
        # never load the rules (DESIGN §2).
        from game.engine.session import Engine

        self.engine = engine or Engine()

    def call(self, method: str, **params: Any) -> Any:
        from game.engine.session import RpcError

        # Round-trip through JSON so in-process callers see exactly what the wire would carry.
        try:
            result = self.engine.call(method, json.loads(json.dumps(params)))
        except RpcError as exc:
            raise EngineError(exc.code, exc.message, exc.data) from exc
        return json.loads(json.dumps(result))

    def close(self) -> None:
        pass

    def __enter__(self) -> InProcessEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _LineClient(ABC):
    """JSON-RPC over one line out, one line back; subclasses supply ``_exchange`` and ``close``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next = 0

    @abstractmethod
    def _exchange(self, line: str) -> str:
        """Write one line to the engine and read its one-line answer."""

    def send_raw(self, line: str) -> str:
        """Send one raw line and read one line back (tests of malformed input)."""
        with self._lock:
            return self._exchange(line)

    def call(self, method: str, **params: Any) -> Any:
        with self._lock:
            self._next += 1
            rid = self._next
            answer = self._exchange(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}))
        try:
            msg = orjson.loads(answer)  # strict JSON, a fraction of the standard library's time
        except json.JSONDecodeError as exc:  # orjson's error is one
            raise EngineError(-32700, f"the engine sent a line that is not JSON: {answer[:200]!r}") from exc
        if msg.get("id") != rid:
            raise EngineError(-32600, f"the engine answered request {msg.get('id')!r}, expected {rid}")
        if "error" in msg:
            e = msg["error"]
            raise EngineError(e.get("code", 0), e.get("message", ""), e.get("data"))
        return msg.get("result")

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def close(self) -> None:
        """Let the engine go."""


class EngineSocket(_LineClient):
    """An engine serving TCP (``dinkydau engine --listen [HOST:]PORT``): several players on separate
    machines can play one game, each reading and acting only as the tokens it holds allow. ``token``
    is sent with every call that names a game (a seat's token, handed over by the game's creator);
    ``tls`` is an ``ssl.SSLContext`` for an engine serving TLS (``ssl.create_default_context(cafile=...)``)."""

    def __init__(self, host: str, port: int, timeout: float = 120.0, token: str | None = None,
                 tls: ssl.SSLContext | None = None):
        super().__init__()
        self.token = token
        try:
            sock = socket.create_connection((host, port), timeout=timeout)
            self.sock = tls.wrap_socket(sock, server_hostname=host) if tls is not None else sock
        except (OSError, ssl.SSLError) as exc:
            raise EngineDied(f"cannot reach the engine at {host}:{port}: {exc}") from exc
        self.file = self.sock.makefile("rw", encoding="utf-8", newline="\n")

    def call(self, method: str, **params: Any) -> Any:
        if self.token is not None and "game" in params and "token" not in params:
            params["token"] = self.token
        return super().call(method, **params)

    def _exchange(self, line: str) -> str:
        try:
            self.file.write(line.rstrip("\n") + "\n")
            self.file.flush()
            answer = self.file.readline()
        except OSError as exc:
            raise EngineDied(f"lost the connection to the engine: {exc}") from exc
        if not answer:
            raise EngineDied("the engine closed the connection")
        return answer

    def close(self) -> None:
        for thing in (self.file, self.sock):
            try:
                thing.close()
            except OSError:
                pass


class EngineProcess(_LineClient):
    """The engine as a child process (DESIGN §4)."""

    def __init__(self, argv: list[str] | None = None, env: dict[str, str] | None = None):
        super().__init__()
        cmd = argv or [sys.executable, "-m", "game", "engine"]
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None,
            env={**os.environ, **(env or {})}, text=True, encoding="utf-8", bufsize=1,
        )

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def _exchange(self, line: str) -> str:
        if not self.alive or self.proc.stdin is None or self.proc.stdout is None:
            raise EngineDied(f"the engine process has exited (code {self.proc.poll()})")
        try:
            self.proc.stdin.write(line.rstrip("\n") + "\n")
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline()
        except (BrokenPipeError, OSError) as exc:
            raise EngineDied(f"lost the engine process: {exc}") from exc
        if not answer:
            raise EngineDied(f"the engine process closed its output (exit code {self.proc.poll()})")
        return answer

    def close(self) -> None:
        if self.proc.stdin:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
