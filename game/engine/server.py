"""The engine process: the protocol on stdin/stdout, or on a TCP port (DESIGN §4).

``dinkydau engine`` reads one JSON-RPC request per line on stdin and writes one response per line
on stdout; logs go to stderr only. ``--listen [HOST:]PORT`` serves the same protocol to any number of
TCP connections (on the loopback address unless a host is named); each is its own
:class:`~game.engine.access.Connection` and reads and acts only as the tokens it holds allow;
requests are answered one at a time. ``--tls-cert``/``--tls-key`` wrap every connection in TLS.
No line is ever buffered past ``wire.MAX_LINE`` bytes: a longer one is read in pieces, thrown away
and answered -32600.
"""

from __future__ import annotations

import ipaddress
import socket
import socketserver
import ssl
import sys
import threading
from typing import BinaryIO

from game.engine import wire
from game.engine.protocol import handle_line, too_long
from game.engine.session import Engine


def read_lines(stream: BinaryIO):
    """Yield each line of a byte stream, or None for a line past the limit (skipped unread)."""
    while True:
        raw = stream.readline(wire.MAX_LINE + 1)
        if not raw:
            return
        if len(raw) > wire.MAX_LINE and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # drop the rest of the line, a piece at a time
                raw = stream.readline(1 << 20)
            yield None
            continue
        yield raw


def serve_stdio(engine: Engine | None = None, stdin=None, stdout=None) -> int:
    engine = engine or Engine()
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    for raw in read_lines(stdin):
        out = too_long() if raw is None else handle_line(engine, raw)
        if out is not None:
            stdout.write(out + "\n")
            stdout.flush()
    return 0


def is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_listen(text: str) -> tuple[str, int]:
    """``PORT`` (loopback) or ``HOST:PORT``; ValueError with the reason otherwise."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "127.0.0.1", text
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--listen {text!r}: expected PORT or HOST:PORT")
    return host, int(port)


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(cert, key)
    return ctx


MAX_CONNECTIONS = 64
"""Connections served at once; one more is told so and closed."""
HANDSHAKE_SECONDS = 10.0
"""How long a TLS handshake may take."""
IDLE_SECONDS = 3600.0
"""A connection that sends nothing for this long is closed (its games stay, for the tokens' holders)."""


def too_many() -> str:
    from game.engine.protocol import _error, _send
    from game.engine.session import LIMIT

    return _send(_error(None, LIMIT, f"the engine serves {MAX_CONNECTIONS} connections at most: try again later",
                        {"limit": "connections", "max": MAX_CONNECTIONS}))


def serve_tcp(host: str, port: int, engine: Engine | None = None, ready: threading.Event | None = None,
              tls: ssl.SSLContext | None = None, bound: list | None = None) -> int:
    engine = engine or Engine()
    lock = threading.Lock()

    slots = threading.BoundedSemaphore(MAX_CONNECTIONS)

    class Handler(socketserver.StreamRequestHandler):
        def setup(self) -> None:
            # Each answer is one small write: sent at once, not held back for the ack of the last (Nagle).
            self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.counted = slots.acquire(blocking=False)
            if not self.counted:  # no thread of the engine is held by a crowd of idle sockets
                self.request.sendall((too_many() + "\n").encode())
                raise ConnectionRefusedError(f"more than {MAX_CONNECTIONS} connections")
            try:
                self.request.settimeout(HANDSHAKE_SECONDS)
                if tls is not None:
                    self.request = tls.wrap_socket(self.request, server_side=True)
                self.request.settimeout(IDLE_SECONDS)  # a silent client is let go; its games wait for it
                super().setup()
            except BaseException:
                slots.release()  # finish() never runs for a connection whose setup failed
                raise

        def finish(self) -> None:
            try:
                super().finish()
            finally:
                if tls is not None:
                    self.request.close()  # the TLS wrapper: the server closes only the socket it accepted
                if self.counted:
                    slots.release()

        def handle(self) -> None:
            with lock:
                conn = engine.connect()
            try:
                for raw in read_lines(self.rfile):
                    with lock:
                        out = too_long() if raw is None else handle_line(engine, raw, conn)
                    if out is not None:
                        self.wfile.write((out + "\n").encode())
                        self.wfile.flush()
            except (OSError, ssl.SSLError):
                pass  # the client went away
            finally:
                with lock:
                    engine.disconnect(conn)

    class Server(socketserver.ThreadingTCPServer):
        allow_reuse_address = True
        daemon_threads = True

        def handle_error(self, request, client_address) -> None:  # a failed handshake is the client's
            print(f"dinkydau engine: connection from {client_address[0]} dropped: {sys.exc_info()[1]}",
                  file=sys.stderr)

    with Server((host, port), Handler) as srv:
        where = f"{host}:{srv.server_address[1]}"
        scope = ("loopback only: other machines cannot connect (name a host, e.g. --listen 0.0.0.0:PORT, "
                 "to serve the network)") if is_loopback(host) else (
            "open to the network: a game is read and played only with its tokens"
            + ("" if tls else "; without --tls-cert/--tls-key they travel in clear text"))
        print(f"dinkydau engine listening on {where}{' (TLS)' if tls else ''}, {scope}", file=sys.stderr, flush=True)
        if bound is not None:
            bound.append(srv.server_address[1])
        if ready is not None:
            ready.set()
        try:
            srv.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0
