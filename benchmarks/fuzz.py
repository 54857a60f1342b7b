"""A long seeded fuzz of the engine's wire through the real process (DESIGN §4; docs/protocol.md,
"Errors" and "Limits"). Prints its counts; exits 1 if anything failed.

    python benchmarks/fuzz.py [--messages 50000] [--seed 1] [--transports stdio,tcp] [--no-big]

The messages (``tests/engine/wirefuzz.py``) mutate valid requests of every method on a hot-seat, a
solo (Jungle Ghost) and a co-op game: wrong types for every param and action field, missing params,
huge and deeply nested values, 5,000-digit numbers, ``1e999``, ``NaN``, invalid UTF-8, lone surrogates,
control characters, oversized batches, ids of every type, random bytes; with ``big`` (the default)
also lines of megabytes. They go to ``python -m game engine`` on stdio and ``--listen`` on TCP, split
evenly. Counted: messages, answers by code, crashes (the process died: restarted, and the run goes
on), undocumented codes, -32603 (never for bad input), -32602 without ``data.field``, answers that
are not strict JSON, and games changed by a refused call (their hashes are checked after every call
that may change one, and every 25th message otherwise). Then the real-size line check: 64 MiB in one
line (MAX_LINE is 8 MiB) on each transport, and the engine's peak memory before and after.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine import wire  # noqa: E402
from tests.engine.procs import RawSocket, StdioEngine, TcpEngine, rss_kb  # noqa: E402
from tests.engine.wirefuzz import Fuzzer, synced  # noqa: E402

HASH_EVERY = 25


def _open(transport: str, home: Path):
    """(the process, send, close) for one engine on ``transport``."""
    if transport == "stdio":
        proc = StdioEngine(home)
        return proc, synced(proc.write, proc.readline), proc.close
    srv = TcpEngine(home)
    sock = RawSocket(srv.host, srv.port, timeout=120)

    def close() -> None:
        sock.close()
        srv.close()

    return srv, synced(sock.sock.sendall, sock.readline), close


def fuzz(transport: str, n: int, seed: int, big: bool) -> tuple[Counter, list[str], float]:
    counts: Counter = Counter()
    failures: list[str] = []
    home = Path(tempfile.mkdtemp(prefix=f"dinkydau-fuzz-{transport}-"))
    t0 = time.perf_counter()
    done = restarts = 0
    while done < n:
        proc, send, close = _open(transport, home)
        f = Fuzzer(send, seed=seed * 1000 + restarts, big=big)
        try:
            f.run(n - done, hash_every=HASH_EVERY)
        except EOFError as exc:
            restarts += 1  # a fresh engine takes over
            if not f.counts["crashes"]:  # it died between messages (a hash check, a tidy-up)
                f.counts["crashes"] += 1
                f.failures.append(f"the engine died: {exc}")
        finally:
            if not f.counts["crashes"]:
                try:  # the process is fine afterwards: a normal call still works
                    f.rpc("engine.hello", {})
                except Exception as exc:  # counted and reported
                    f.counts["failures"] += 1
                    f.failures.append(f"engine.hello after the run: {exc}")
            if not proc.alive:
                f.counts["dead_at_end"] += 1
            close()
        done += f.counts["messages"]
        counts.update(f.counts)
        failures += f.failures
        if restarts > 20:
            break
    return counts, failures, time.perf_counter() - t0


def long_line(transport: str, mib: int = 64) -> str:
    """One line of ``mib`` MiB in 1 MiB pieces; the engine's peak memory before and after."""
    home = Path(tempfile.mkdtemp(prefix=f"dinkydau-line-{transport}-"))
    chunk = b"z" * (1 << 20)
    if transport == "stdio":
        with StdioEngine(home) as proc:
            proc.call("engine.hello")
            before = rss_kb(proc.proc.pid)
            t = time.perf_counter()
            for _ in range(mib):
                proc.write(chunk)
            answer = proc.send(b"")
            took = time.perf_counter() - t
            after, alive = rss_kb(proc.proc.pid), proc.alive and "result" in proc.call("engine.hello")
    else:
        with TcpEngine(home) as srv, RawSocket(srv.host, srv.port, timeout=120) as sock:
            sock.send(b'{"jsonrpc":"2.0","id":1,"method":"engine.hello"}')
            before = rss_kb(srv.proc.pid)
            t = time.perf_counter()
            for _ in range(mib):
                sock.sock.sendall(chunk)
            answer = sock.send(b"")
            took = time.perf_counter() - t
            after = rss_kb(srv.proc.pid)
            alive = srv.alive and b"result" in sock.send(b'{"jsonrpc":"2.0","id":2,"method":"game.list"}')
    ok = b'"code":-32600' in answer and f'"max":{wire.MAX_LINE}'.encode() in answer
    return (f"{transport}: a {mib} MiB line in {took:.2f} s: {'-32600' if ok else answer[:120]!r}; peak memory "
            f"{before / 1024:.0f} MiB before, {after / 1024:.0f} MiB after (+{(after - before) / 1024:.1f} MiB); "
            f"{'alive' if alive else 'DEAD'}"), ok and alive and (after - before) < mib * 1024 // 2


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--transports", default="stdio,tcp")
    ap.add_argument("--no-big", action="store_true", help="no lines of megabytes (faster)")
    args = ap.parse_args(argv)
    transports = args.transports.split(",")
    bad = False
    total: Counter = Counter()
    for i, transport in enumerate(transports):
        n = args.messages // len(transports) + (1 if i < args.messages % len(transports) else 0)
        counts, failures, took = fuzz(transport, n, args.seed + i, not args.no_big)
        total.update(counts)
        print(f"== {transport}: {counts['messages']} messages in {took:.0f} s ({counts['messages'] / took:.0f}/s)")
        report(counts)
        for f in failures[:10]:
            print("   FAILURE:", f[:400])
        bad |= bool(counts["failures"] or counts["crashes"] or counts["dead_at_end"])
    if len(transports) > 1:
        print("== all transports")
        report(total)
    print("== lines past the limit")
    for transport in transports:
        line, ok = long_line(transport)
        print("  ", line)
        bad |= not ok
    print("FAILED" if bad else "ok: every answer strict JSON with a documented code, no crash, no game changed")
    return 1 if bad else 0


def report(c: Counter) -> None:
    answers = sorted(((k.split(":", 1)[1], v) for k, v in c.items() if k.startswith("answers:")),
                     key=lambda kv: (kv[0] != "result", int(kv[0]) if kv[0] != "result" else 0))
    print(f"   messages {c['messages']}; answers by code: " + ", ".join(f"{k} {v}" for k, v in answers))
    print(f"   crashes {c['crashes']}, undocumented codes {c['undocumented']}, -32603 {c['answers:-32603']}, "
          f"-32602 without data.field {c['no_field']}, not strict JSON {c['not_strict_json']}, "
          f"changed games {c['changed_games']}, failures {c['failures']}")


if __name__ == "__main__":
    sys.exit(main())
