"""The real engine process for boundary tests: on stdio with byte pipes, and serving TCP (or TLS).

``StdioEngine`` writes raw bytes to ``python -m game engine`` and reads its answer lines (the text-mode
``EngineProcess`` cannot send bytes that are not UTF-8). ``TcpEngine`` starts ``--listen`` and reads the
port from the stderr line ``dinkydau engine listening on HOST:PORT ...``. Each process's stderr goes
to a file, never a pipe nobody reads (a traceback must not fill it and block the engine).
"""

from __future__ import annotations

import json
import os
import re
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "XDG_DATA_HOME": str(home), "PYTHONPATH": str(ROOT)}


def rss_kb(pid: int, key: str = "VmHWM") -> int:
    """A process's resident memory from /proc (``VmHWM``: its peak, ``VmRSS``: now), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


class StdioEngine:
    """``python -m game engine`` with byte pipes."""

    def __init__(self, home: Path, *args: str):
        home.mkdir(parents=True, exist_ok=True)
        self.stderr_path = home / "engine-stderr.txt"
        self._err = open(self.stderr_path, "wb")  # closed in close()
        self.proc = subprocess.Popen([sys.executable, "-m", "game", "engine", *args], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err,
                                     env=_env(home), bufsize=0)
        self._buf = b""

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def write(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def readline(self, timeout: float = 30.0) -> bytes:
        """One answer line (without its newline); EOFError when the process is gone or says nothing."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EOFError(f"no answer in {timeout} s")
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
                if not chunk:
                    raise EOFError(f"the engine closed its output (exit code {self.proc.poll()})")
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    def send(self, line: bytes) -> bytes:
        """Send one line (a newline is added) and read one answer line."""
        self.write(line + b"\n")
        return self.readline()

    def call(self, method: str, **params) -> dict:
        return json.loads(self.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": method,
                                                "params": params}).encode()))

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        self._err.close()

    def __enter__(self) -> StdioEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


LISTENING = re.compile(rb"dinkydau engine listening on (\S+):(\d+)")


class TcpEngine:
    """``python -m game engine --listen ...``: ``host``, ``port`` and the stderr ``banner`` once up."""

    def __init__(self, home: Path, listen: str = "127.0.0.1:0", *args: str, timeout: float = 60.0):
        home.mkdir(parents=True, exist_ok=True)
        self.stderr_path = home / "engine-stderr.txt"
        self._err = open(self.stderr_path, "wb")  # closed in close()
        self.proc = subprocess.Popen([sys.executable, "-m", "game", "engine", "--listen", listen, *args],
                                     cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=self._err, env=_env(home))
        deadline = time.monotonic() + timeout
        while True:
            m = LISTENING.search(self.stderr_path.read_bytes())
            if m:
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"the engine did not listen: {self.stderr_path.read_text()[-2000:]}")
            time.sleep(0.05)
        self.host, self.port = m.group(1).decode(), int(m.group(2))
        self.banner = next(x for x in self.stderr_path.read_text().splitlines() if "listening on" in x)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._err.close()

    def __enter__(self) -> TcpEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RawSocket:
    """Bytes to a TCP engine, answer lines back."""

    def __init__(self, host: str, port: int, timeout: float = 30.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self._buf = b""

    def send(self, line: bytes) -> bytes:
        self.sock.sendall(line + b"\n")
        return self.readline()

    def readline(self) -> bytes:
        while b"\n" not in self._buf:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError("the engine closed the connection")
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> RawSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
