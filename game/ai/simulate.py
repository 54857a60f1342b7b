"""Batch simulation: N seeded AI-vs-AI games in parallel processes, and their statistics (DESIGN §9).

``dinkydau simulate SCENARIO --games N [--jobs J] [--threat L] [--seed S] [--json FILE] [--plot FILE]``
plays games with seeds S, S+1, ..., S+N-1 (the Allied autopilot against the Jungle Ghost), shows a
progress bar on stderr, prints win rates (draws count for neither side), the net VP distribution, the
turns played and the casualties, writes a JSON report, and on request a PNG bar chart of the VP
distribution (drawn with a small zlib PNG writer: no plotting library needed).

Each game is independent and deterministic, so the report is the same whatever ``--jobs`` is.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import struct
import sys
import time
import zlib
from collections import Counter

MAX_STEPS = 4000


def play(scenario: str, seed: int, threat: int = 2) -> dict:
    """One AI-vs-AI game to its end; a summary of the result."""
    from game.ai import players
    from game.rules.scenario import resolve_scenario

    t0 = time.perf_counter()
    g = players.new_game(resolve_scenario(scenario), seed, threat, {"allied": "ai", "insurgent": "ai"})
    steps = 0
    while not g.state.over and steps < MAX_STEPS:
        players.take_turn(g, g.state.to_act)
        steps += 1
    s = g.state
    res = s.result or {"winner": None, "vp": 0, "reason": "step limit"}
    lost = {side: sum(1 for st in s.stands.values() if st.side == side and not st.alive
                      and st.id not in _faded(s)) for side in ("allied", "insurgent")}
    return {"seed": seed, "winner": res["winner"], "vp": res["vp"], "reason": res["reason"], "turns": s.turn,
            "steps": steps, "allied_lost": lost["allied"], "insurgent_lost": lost["insurgent"],
            "allied_kia": sum(1 for t in s.tokens if t.side == "allied" and t.state == "kia"),
            "doom": (s.solo.doom if s.solo else 0), "seconds": round(time.perf_counter() - t0, 3)}


def _faded(s) -> set[str]:
    out: set[str] = set()
    for eid in (s.solo.faded if s.solo else []):
        out.update(s.elements[eid].stands)
    return out


class SimulationError(RuntimeError):
    """A game that could not be played to its end: the scenario, seed and threat, and the fault."""


def _play_star(args: tuple) -> dict:
    try:
        return play(*args)
    except Exception as exc:
        scenario, seed, threat = args
        raise SimulationError(f"{scenario} seed {seed} threat {threat}: {type(exc).__name__}: {exc}") from exc


def run(scenario: str, games: int, jobs: int = 1, threat: int = 2, seed: int = 1, progress=None) -> list[dict]:
    """Play the games (in ``jobs`` processes); results in seed order."""
    work = [(scenario, seed + i, threat) for i in range(games)]
    out: list[dict] = []
    if jobs <= 1:
        for w in work:
            out.append(_play_star(w))
            if progress:
                progress(len(out), games)
        return out
    ctx = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork")
    with ctx.Pool(jobs) as pool:
        for r in pool.imap_unordered(_play_star, work, chunksize=max(1, min(8, games // (jobs * 4) or 1))):
            out.append(r)
            if progress:
                progress(len(out), games)
    return sorted(out, key=lambda r: r["seed"])


def summary(results: list[dict], scenario: str, threat: int) -> dict:
    n = len(results) or 1
    wins = Counter(r["winner"] for r in results)
    vp = Counter(r["vp"] for r in results)
    turns = Counter(r["turns"] for r in results)

    def mean(key):
        return round(sum(r[key] for r in results) / n, 3)

    return {
        "scenario": scenario, "threat": threat, "games": len(results),
        "allied_wins": wins.get("allied", 0), "insurgent_wins": wins.get("insurgent", 0), "draws": wins.get(None, 0),
        "allied_win_rate": round(wins.get("allied", 0) / n, 4),
        "insurgent_win_rate": round(wins.get("insurgent", 0) / n, 4),
        "draw_rate": round(wins.get(None, 0) / n, 4),
        "vp": {"mean": mean("vp"), "distribution": {str(k): vp[k] for k in sorted(vp)}},
        "turns": {"mean": mean("turns"), "distribution": {str(k): turns[k] for k in sorted(turns)}},
        "casualties": {"allied_stands_lost": mean("allied_lost"), "insurgent_stands_lost": mean("insurgent_lost"),
                       "allied_kia": mean("allied_kia")},
        "reasons": dict(sorted(Counter(r["reason"] for r in results).items())),
        "seconds_per_game": mean("seconds"),
        "results": results,
    }


def report_text(s: dict) -> str:
    lines = [f"{s['scenario']} at Threat Level {s['threat']}: {s['games']} games",
             f"  Allied wins    {s['allied_wins']:5d}  {100 * s['allied_win_rate']:5.1f}%",
             f"  Insurgent wins {s['insurgent_wins']:5d}  {100 * s['insurgent_win_rate']:5.1f}%",
             f"  Draws          {s['draws']:5d}  {100 * s['draw_rate']:5.1f}%",
             f"  Net VP mean {s['vp']['mean']:+.2f}; distribution:"]
    dist = s["vp"]["distribution"]
    top = max(dist.values(), default=1)
    for k, c in dist.items():
        lines.append(f"    {int(k):+4d} {c:5d} " + "#" * max(1, round(40 * c / top)))
    lines.append(f"  Turns played: mean {s['turns']['mean']}, " +
                 ", ".join(f"{k}: {v}" for k, v in s["turns"]["distribution"].items()))
    c = s["casualties"]
    lines.append(f"  Casualties per game: Allied stands {c['allied_stands_lost']}, Insurgent stands "
                 f"{c['insurgent_stands_lost']}, Allied KIA {c['allied_kia']}")
    lines.append("  Ends: " + ", ".join(f"{k}: {v}" for k, v in s["reasons"].items()))
    return "\n".join(lines)


# -- a tiny PNG writer ---------------------------------------------------------------------------------
def png_bytes(width: int, height: int, pixels: list[bytearray]) -> bytes:
    """An RGB PNG from rows of width*3 bytes (zlib, no dependencies)."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(row) for row in pixels)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def plot_vp(distribution: dict[str, int], win: int = 3, loss: int = -3, width: int = 640, height: int = 360) -> bytes:
    """A bar chart of the VP distribution: Insurgent wins red, draws grey, Allied wins green; a tick
    under every VP value (every 5th taller)."""
    keys = sorted(int(k) for k in distribution) or [0]
    lo, hi = min(keys + [loss - 1]), max(keys + [win + 1])
    span = hi - lo + 1
    top = max(distribution.values(), default=1)
    bg, axis = (250, 250, 245), (40, 40, 40)
    rows = [bytearray(bg * width) for _ in range(height)]
    m = 30
    bw = (width - 2 * m) / span

    def put(x, y, c):
        if 0 <= x < width and 0 <= y < height:
            rows[y][3 * x:3 * x + 3] = bytes(c)

    for v in range(lo, hi + 1):
        c = distribution.get(str(v), 0)
        colour = (200, 60, 50) if v <= loss else (60, 150, 70) if v >= win else (150, 150, 150)
        h = 0 if not c else max(1, round((height - 2 * m) * c / top))
        x0 = round(m + (v - lo) * bw + 1)
        x1 = round(m + (v - lo + 1) * bw - 1)
        for x in range(x0, max(x0 + 1, x1)):
            for y in range(height - m - h, height - m):
                put(x, y, colour)
        xc = round(m + (v - lo + 0.5) * bw)
        for y in range(height - m, height - m + (8 if v % 5 == 0 else 4)):
            put(xc, y, axis)
    for x in range(m, width - m):
        put(x, height - m, axis)
    zero = round(m + (0 - lo + 0.5) * bw)
    for y in range(m, height - m):
        put(zero, y, (90, 90, 200))
    return png_bytes(width, height, rows)


# -- command line ----------------------------------------------------------------------------------------
def _bar(done: int, total: int, t0: float) -> None:
    w = 30
    k = round(w * done / max(total, 1))
    el = time.perf_counter() - t0
    eta = el / done * (total - done) if done else math.inf
    sys.stderr.write(f"\r[{'#' * k}{'.' * (w - k)}] {done}/{total} games  {el:5.1f}s"
                     + (f"  eta {eta:4.0f}s" if done < total else "      ") )
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="dinkydau simulate", description="N seeded AI-vs-AI games and their statistics")
    p.add_argument("scenario", help="scenario id or path")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--jobs", type=int, default=1, help="parallel processes")
    p.add_argument("--threat", type=int, default=2, choices=(1, 2, 3), help="Jungle Ghost Threat Level (DD-10.5)")
    p.add_argument("--seed", type=int, default=1, help="first seed")
    p.add_argument("--json", help="write the JSON report here")
    p.add_argument("--plot", help="write a PNG of the VP distribution here")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    a = p.parse_args(argv)
    if a.games < 1 or a.jobs < 1:
        p.error("--games and --jobs must be at least 1")
    from game.rules.scenario import ScenarioError, resolve_scenario

    try:
        resolve_scenario(a.scenario)
    except ScenarioError as exc:
        print(f"dinkydau simulate: bad scenario {a.scenario!r}: " + "; ".join(map(str, exc.problems)), file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        results = run(a.scenario, a.games, a.jobs, a.threat, a.seed,
                      None if a.quiet else (lambda d, n: _bar(d, n, t0)))
    except SimulationError as exc:
        print(f"\ndinkydau simulate: a game failed: {exc}", file=sys.stderr)
        return 1
    s = summary(results, a.scenario, a.threat)
    s["jobs"] = a.jobs
    s["wall_seconds"] = round(time.perf_counter() - t0, 2)
    print(report_text(s))
    print(f"  {s['wall_seconds']}s wall with {a.jobs} job(s)")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(s, fh, indent=1)
    if a.plot:
        with open(a.plot, "wb") as fh:
            fh.write(plot_vp(s["vp"]["distribution"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
