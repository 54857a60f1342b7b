"""The engine process: the protocol on stdin/stdout, or on a TCP port (DESIGN §4).

``dinkydau engine`` reads one JSON-RPC request per line on stdin and writes one response per line
on stdout; logs go to stderr only. ``--listen 127.0.0.1:PORT`` serves the same protocol to any number
of TCP connections, which share the engine's games; requests are answered one at a time.
"""

from __future__ import annotations

import socketserver
import sys
import threading

from game.engine.protocol import handle_line
from game.engine.session import Engine


def serve_stdio(engine: Engine | None = None, stdin=None, stdout=None) -> int:
    engine = engine or Engine()
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    for raw in stdin:
        line = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
        out = handle_line(engine, line)
        if out is not None:
            stdout.write(out + "\n")
            stdout.flush()
    return 0


def serve_tcp(host: str, port: int, engine: Engine | None = None, ready: threading.Event | None = None) -> int:
    engine = engine or Engine()
    lock = threading.Lock()

    class Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            for raw in self.rfile:
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError:
                    line = "\x00not utf-8"
                with lock:
                    out = handle_line(engine, line)
                if out is not None:
                    self.wfile.write((out + "\n").encode())
                    self.wfile.flush()

    class Server(socketserver.ThreadingTCPServer):
        allow_reuse_address = True
        daemon_threads = True

    with Server((host, port), Handler) as srv:
        print(f"dinkydau engine listening on {host}:{srv.server_address[1]}", file=sys.stderr, flush=True)
        if ready is not None:
            ready.set()
        try:
            srv.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0
