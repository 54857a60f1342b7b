"""Batch simulation: N seeded AI-vs-AI games of any ruleset's scenario, and their statistics (DESIGN §9).

``dinkydau simulate SCENARIO --games N [--jobs J | --ray [ADDRESS]] [--threat L] [--seed S] [--json FILE]
[--plot FILE] [--resume]`` plays games with seeds S, S+1, ..., S+N-1, the computer on every side, through
the ruleset seam (``game.rulesets``: the scenario names its ruleset; ``new_game``, ``ai_step``, the game's
``state.over`` and ``state.result``), so a Dinky Dau table and Tet '68's ``hue_street`` run the same way.
It shows a progress bar on stderr, prints win rates with their 95 % Wilson intervals (draws count for
neither side), the turns played, and what the ruleset's tally adds (Dinky Dau: the net VP distribution and
the casualties; Tet '68: the houses cleared and the men left), writes a JSON report, and on request a PNG
(drawn with a small zlib PNG writer: no plotting library needed).

With ``--json FILE`` every finished game is appended to ``FILE``'s ``.jsonl`` stream as it arrives; a study
run again with the same path (or ``--resume``) plays only the seeds the stream lacks, so an interrupted
study keeps what finished. The games run in this process, in ``--jobs`` local processes, or one game per
task on a Ray cluster (``game.ai.simulate_ray``, ``docs/simulate.md``).

Each game is independent and deterministic, so the report is the same whatever runs it. What this module
leaves out: the rules (the rulesets answer them) and the cluster (``simulate_ray``).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import math
import multiprocessing
import struct
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

MAX_STEPS = 4000
Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the normal distribution (the Wilson intervals)."""
STREAM_FORMAT = 1


class SimulationError(RuntimeError):
    """A game that could not be played to its end: the scenario, seed and options, and the fault."""


class RunnerError(RuntimeError):
    """The games could not start: Ray missing, a cluster unreachable (what was tried, and why)."""


# -- the scenario a study plays ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Source:
    """A scenario as it travels to a worker: the reference it was asked by, its file name and its text
    (a worker on another machine needs no scenario folder)."""

    ref: str
    name: str
    text: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def source_of(ref: str | Source) -> Source:
    """The scenario file behind an id (in the shipped scenario folder) or a path (``ScenarioError``)."""
    from game.engine.store import ScenarioFolders, StoreError, read_regular
    from game.rulesets.base import Problem, ScenarioError

    if isinstance(ref, Source):
        return ref
    path = Path(ref) if ref.endswith(".toml") and Path(ref).exists() else ScenarioFolders().find(ref)
    if path is None:
        raise ScenarioError([Problem("<command line>", "scenario", f"no scenario {ref[:60]!r} (ids: "
                                     f"{', '.join(ScenarioFolders().ids())}; or the path of a .toml file)")])
    try:
        return Source(ref, path.name, read_regular(path, path.name))
    except StoreError as exc:
        raise ScenarioError([Problem(path.name, "", str(exc))]) from exc


@functools.lru_cache(maxsize=8)
def build(src: Source):
    """The scenario object and its ruleset (``ScenarioError`` with every problem), built once a process."""
    import tomllib

    from game import rulesets
    from game.engine.store import build_checked
    from game.rules.scenario import scenario_from_text

    try:
        raw = tomllib.loads(src.text)
    except tomllib.TOMLDecodeError:
        scenario_from_text(src.text, src.name)  # raises the TOML error with its line
        raise
    scenario = build_checked(raw, src.name, src.text)
    return scenario, rulesets.of_scenario(scenario)


@functools.lru_cache(maxsize=8)
def _loaded(ref: str):
    return build(source_of(ref))


def _scenario(scenario: str | Source):
    return build(scenario) if isinstance(scenario, Source) else _loaded(scenario)


def options_for(scenario: str | Source, threat: int = 2) -> dict:
    """The ruleset's own ``game.new`` options for a study (Dinky Dau: the Threat Level; others ignore it)."""
    _sc, rs = _scenario(scenario)
    return rs.options({"threat": threat})


# -- one game ---------------------------------------------------------------------------------------------
def play(scenario: str | Source, seed: int, threat: int = 2) -> dict:
    """One game, the computer on every side, to its end (or ``MAX_STEPS`` actions): a summary of the result."""
    sc, rs = _scenario(scenario)
    t0 = time.perf_counter()
    g = rs.new_game(sc, seed, rs.options({"threat": threat}), {side: "ai" for side in rs.sides})
    steps = 0
    while not g.state.over and steps < MAX_STEPS:
        rs.ai_step(g, g.state.to_act)
        steps += 1
    res = g.state.result or {"winner": None, "reason": "step limit"}
    tally = TALLIES.get(rs.id)
    return {"seed": seed, "winner": res.get("winner"), **({"vp": res["vp"]} if "vp" in res else {}),
            "reason": res.get("reason", ""), "turns": g.state.turn, "steps": steps,
            **(tally(g) if tally else {}), "hash": g.hash(), "seconds": round(time.perf_counter() - t0, 3)}


def _dinky_dau_tally(g) -> dict:
    """Stands lost (those that faded, DD-2.32, are not lost), Allied KIA tokens, the Doom Clock."""
    s = g.state
    faded = {sid for eid in (s.solo.faded if s.solo else []) for sid in s.elements[eid].stands}
    lost = {side: sum(1 for st in s.stands.values() if st.side == side and not st.alive and st.id not in faded)
            for side in ("allied", "insurgent")}
    return {"vp": (s.result or {}).get("vp", 0), "allied_lost": lost["allied"], "insurgent_lost": lost["insurgent"],
            "allied_kia": sum(1 for t in s.tokens if t.side == "allied" and t.state == "kia"),
            "doom": (s.solo.doom if s.solo else 0)}


def _tet68_tally(g) -> dict:
    """Houses cleared (G-41) and the men of each side still alive."""
    s = g.state
    alive = Counter(f.man.side for f in s.figures.values() if f.man.alive)
    return {"cleared": len((s.result or {}).get("cleared", [])), "allied_left": alive["allied"],
            "insurgent_left": alive["insurgent"]}


TALLIES: dict[str, Callable] = {"dinky_dau": _dinky_dau_tally, "tet68": _tet68_tally}
"""What a game's summary adds, by ruleset id; a ruleset without one reports the winner, reason and turns."""


def label(scenario: str | Source, seed: int, threat: int = 2) -> str:
    """A game named in a fault: scenario, seed, and the options its ruleset took."""
    ref = scenario.ref if isinstance(scenario, Source) else scenario
    try:
        opts = options_for(scenario, threat)
    except Exception:
        opts = {}
    return " ".join([ref, f"seed {seed}", *(f"{k} {v}" for k, v in opts.items())])


def _play_star(args: tuple) -> dict:
    try:
        return play(*args)
    except Exception as exc:
        raise SimulationError(f"{label(*args)}: {type(exc).__name__}: {exc}") from exc


# -- the local runner ---------------------------------------------------------------------------------------
def run(scenario: str | Source, games: int, jobs: int = 1, threat: int = 2, seed: int = 1, progress=None,
        seeds: Iterable[int] | None = None, on_result: Callable[[dict], None] | None = None) -> list[dict]:
    """Play the games (``seeds``, or ``seed``..``seed+games-1``) here or in ``jobs`` processes; results in
    seed order. ``on_result`` sees each game as it finishes, ``progress(done, total)`` counts them."""
    work = [(scenario, s, threat) for s in (list(seeds) if seeds is not None else range(seed, seed + games))]
    out: list[dict] = []

    def take(r: dict) -> None:
        out.append(r)
        if on_result:
            on_result(r)
        if progress:
            progress(len(out), len(work))

    if jobs <= 1 or len(work) <= 1:
        for w in work:
            take(_play_star(w))
        return out
    ctx = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork")
    with ctx.Pool(min(jobs, len(work))) as pool:
        for r in pool.imap_unordered(_play_star, work, chunksize=max(1, min(8, len(work) // (jobs * 4) or 1))):
            take(r)
    return sorted(out, key=lambda r: r["seed"])


# -- statistics ---------------------------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``k`` in ``n`` (95 % by default); (0, 1) with no games."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def summary(results: list[dict], scenario: str, options: dict | int | None = None, ruleset: str = "") -> dict:
    """The report of a study: counts, rates with their 95 % Wilson intervals, distributions, means."""
    if isinstance(options, int):  # the Threat Level alone, as Dinky Dau studies were described
        options = {"threat": options}
    options = dict(options or {})
    n = len(results)
    wins = Counter(r["winner"] for r in results)
    turns = Counter(r["turns"] for r in results)

    def mean(key):
        return round(sum(r.get(key, 0) for r in results) / (n or 1), 3)

    counts = {"allied": wins.get("allied", 0), "insurgent": wins.get("insurgent", 0), "draw": wins.get(None, 0)}
    rates = {"allied_win_rate": counts["allied"], "insurgent_win_rate": counts["insurgent"],
             "draw_rate": counts["draw"]}
    tallied = [k for k in (results[0] if results else {}) if k not in
               ("seed", "winner", "vp", "reason", "turns", "steps", "hash", "seconds")]
    out = {
        "scenario": scenario, **({"ruleset": ruleset} if ruleset else {}), **options, "options": options,
        "games": n, "allied_wins": counts["allied"], "insurgent_wins": counts["insurgent"], "draws": counts["draw"],
        **{k: round(c / (n or 1), 4) for k, c in rates.items()},
        "ci95": {k: [round(x, 4) for x in wilson(c, n)] for k, c in rates.items()},
        "turns": {"mean": mean("turns"), "distribution": {str(k): turns[k] for k in sorted(turns)}},
        "means": {k: mean(k) for k in tallied},
        "reasons": dict(sorted(Counter(r["reason"] for r in results).items())),
        "seconds_per_game": mean("seconds"),
    }
    if results and all("vp" in r for r in results):
        vp = Counter(r["vp"] for r in results)
        out["vp"] = {"mean": mean("vp"), "distribution": {str(k): vp[k] for k in sorted(vp)}}
    if ruleset in ("", "dinky_dau") and "allied_lost" in out["means"]:
        out["casualties"] = {"allied_stands_lost": mean("allied_lost"), "insurgent_stands_lost":
                             mean("insurgent_lost"), "allied_kia": mean("allied_kia")}
    out["results"] = results
    return out


def _rate(s: dict, key: str) -> str:
    lo, hi = s["ci95"][key]
    return f"{100 * s[key]:5.1f}%  (95% CI {100 * lo:4.1f}-{100 * hi:4.1f})"


def report_text(s: dict) -> str:
    opts = ", ".join(f"{'Threat Level' if k == 'threat' else k} {v}" for k, v in s.get("options", {}).items())
    lines = [f"{s['scenario']}{' at ' + opts if opts else ''}: {s['games']} games",
             f"  Allied wins    {s['allied_wins']:5d}  {_rate(s, 'allied_win_rate')}",
             f"  Insurgent wins {s['insurgent_wins']:5d}  {_rate(s, 'insurgent_win_rate')}",
             f"  Draws          {s['draws']:5d}  {_rate(s, 'draw_rate')}"]
    if "vp" in s:
        lines.append(f"  Net VP mean {s['vp']['mean']:+.2f}; distribution:")
        dist = s["vp"]["distribution"]
        top = max(dist.values(), default=1)
        for k, c in dist.items():
            lines.append(f"    {int(k):+4d} {c:5d} " + "#" * max(1, round(40 * c / top)))
    lines.append(f"  Turns played: mean {s['turns']['mean']}, " +
                 ", ".join(f"{k}: {v}" for k, v in s["turns"]["distribution"].items()))
    if "casualties" in s:
        c = s["casualties"]
        lines.append(f"  Casualties per game: Allied stands {c['allied_stands_lost']}, Insurgent stands "
                     f"{c['insurgent_stands_lost']}, Allied KIA {c['allied_kia']}")
    elif s["means"]:
        lines.append("  Per game: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in s["means"].items()))
    lines.append("  Ends: " + ", ".join(f"{k}: {v}" for k, v in s["reasons"].items()))
    return "\n".join(lines)


# -- the stream of finished games ----------------------------------------------------------------------------
class StreamError(ValueError):
    """A results stream that cannot be resumed: the file and line, and why."""


def stream_path(report: str | Path) -> Path:
    """The stream beside a JSON report: ``study.json`` -> ``study.jsonl``."""
    return Path(report).with_suffix(".jsonl")


def study_header(src: Source, ruleset: str, options: dict) -> dict:
    """The stream's first line: what was played, so a resume never mixes two studies."""
    return {"study": {"format": STREAM_FORMAT, "scenario": src.ref, "ruleset": ruleset, "options": options,
                      "scenario_sha256": src.sha256}}


def read_stream(path: Path, header: dict) -> dict[int, dict]:
    """The games a stream already holds, by seed (``StreamError`` naming the file and line). A last line
    cut short by an interrupted write is dropped from the file."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        with open(path, "r+b") as fh:
            fh.truncate(cut)
        data = data[:cut]
    done: dict[int, dict] = {}
    for i, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise StreamError(f"{path}:{i}: not a JSON line ({exc.msg})") from exc
        if i == 1:
            if not _same_study(rec, header):
                raise StreamError(f"{path}:1: the stream is of another study ({json.dumps(rec.get('study', rec))[:200]});"
                                  f" write this one to another --json path, or remove the stream")
            continue
        if not isinstance(rec, dict) or not isinstance(rec.get("seed"), int) or "winner" not in rec:
            raise StreamError(f"{path}:{i}: not a game's result (no 'seed' or 'winner')")
        done[rec["seed"]] = rec
    return done


def _same_study(a: object, b: dict) -> bool:
    """Two study lines of the same scenario text, ruleset and options (asked by id or by path alike)."""
    def key(h: object) -> object:
        return {k: v for k, v in h["study"].items() if k != "scenario"} if isinstance(h, dict) and \
            isinstance(h.get("study"), dict) else h

    return key(a) == key(b)


class Stream:
    """Appends each finished game to the stream, one JSON line, flushed as it arrives."""

    def __init__(self, path: Path, header: dict, fresh: bool):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = open(path, "a", encoding="utf-8")
        if fresh:
            self.write(header)

    def write(self, rec: dict) -> None:
        self.fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


# -- a tiny PNG writer ---------------------------------------------------------------------------------
def png_bytes(width: int, height: int, pixels: list[bytearray]) -> bytes:
    """An RGB PNG from rows of width*3 bytes (zlib, no dependencies)."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(row) for row in pixels)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _canvas(width: int, height: int):
    rows = [bytearray((250, 250, 245) * width) for _ in range(height)]

    def put(x, y, c):
        if 0 <= x < width and 0 <= y < height:
            rows[y][3 * x:3 * x + 3] = bytes(c)

    return rows, put


def plot_vp(distribution: dict[str, int], win: int = 3, loss: int = -3, width: int = 640, height: int = 360) -> bytes:
    """A bar chart of the VP distribution: Insurgent wins red, draws grey, Allied wins green; a tick
    under every VP value (every 5th taller)."""
    keys = sorted(int(k) for k in distribution) or [0]
    lo, hi = min(keys + [loss - 1]), max(keys + [win + 1])
    span = hi - lo + 1
    top = max(distribution.values(), default=1)
    axis = (40, 40, 40)
    rows, put = _canvas(width, height)
    m = 30
    bw = (width - 2 * m) / span
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


def plot_outcomes(s: dict, width: int = 480, height: int = 360) -> bytes:
    """Allied wins (green), draws (grey) and Insurgent wins (red) as bars on a 0-100 % scale, each with
    its 95 % Wilson interval as a whisker; a faint line every 10 %."""
    rows, put = _canvas(width, height)
    m = 30
    span = height - 2 * m

    def y_of(rate: float) -> int:
        return round(height - m - rate * span)

    for tenth in range(11):
        for x in range(m, width - m, 1 if tenth in (0, 10) else 3):
            put(x, y_of(tenth / 10), (40, 40, 40) if tenth == 0 else (200, 200, 200))
    bars = (("allied_win_rate", (60, 150, 70)), ("draw_rate", (150, 150, 150)),
            ("insurgent_win_rate", (200, 60, 50)))
    bw = (width - 2 * m) / len(bars)
    for i, (key, colour) in enumerate(bars):
        x0, x1 = round(m + i * bw + bw * 0.2), round(m + (i + 1) * bw - bw * 0.2)
        for x in range(x0, x1):
            for y in range(y_of(s[key]), height - m):
                put(x, y, colour)
        lo, hi = s["ci95"][key]
        xc = (x0 + x1) // 2
        for y in range(y_of(hi), y_of(lo) + 1):
            put(xc, y, (20, 20, 20))
        for yy in (y_of(hi), y_of(lo)):
            for x in range(xc - 8, xc + 9):
                put(x, yy, (20, 20, 20))
    return png_bytes(width, height, rows)


def plot(s: dict) -> bytes:
    """The study's chart: the VP distribution where the games score VP, else the outcomes."""
    return plot_vp(s["vp"]["distribution"]) if "vp" in s else plot_outcomes(s)


# -- command line ----------------------------------------------------------------------------------------
def _bar(done: int, total: int, t0: float) -> None:
    w = 30
    k = round(w * done / max(total, 1))
    el = time.perf_counter() - t0
    eta = el / done * (total - done) if done else math.inf
    sys.stderr.write(f"\r[{'#' * k}{'.' * (w - k)}] {done}/{total} games  {el:5.1f}s"
                     + (f"  eta {eta:4.0f}s" if done < total else "      "))
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="dinkydau simulate", description="N seeded AI-vs-AI games and their statistics")
    p.add_argument("scenario", help="scenario id (any ruleset's) or the path of a scenario file")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--jobs", type=int, default=None,
                   help="parallel processes (default 1); with --ray and no address, the local Ray's CPUs")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="one game per task on a Ray cluster: ADDRESS (host:6379, ray://host:10001, auto) "
                        "or, with none, a local Ray started for the study (docs/simulate.md)")
    p.add_argument("--ray-ship", action="store_true",
                   help="with --ray ADDRESS: send this checkout's code to the workers (Ray runtime_env py_modules)")
    p.add_argument("--threat", type=int, default=2, choices=(1, 2, 3), help="Jungle Ghost Threat Level (DD-10.5)")
    p.add_argument("--seed", type=int, default=1, help="first seed")
    p.add_argument("--json", help="write the JSON report here, and stream each game to the .jsonl beside it")
    p.add_argument("--resume", action="store_true", help="continue the study in the --json path's stream")
    p.add_argument("--plot", help="write a PNG here: the VP distribution, or the outcomes with their intervals")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    a = p.parse_args(argv)
    jobs = a.jobs if a.jobs is not None else 1
    if a.games < 1 or jobs < 1:
        p.error("--games and --jobs must be at least 1")
    if a.resume and not a.json:
        p.error("--resume continues the stream beside a --json report: name it")
    if a.ray_ship and not a.ray:
        p.error("--ray-ship sends the code to a cluster named by --ray ADDRESS")
    from game.rulesets.base import ScenarioError

    try:
        src = source_of(a.scenario)
        _sc, rs = build(src)
        options = rs.options({"threat": a.threat})
    except ScenarioError as exc:
        print(f"dinkydau simulate: bad scenario {a.scenario!r}: " + "; ".join(map(str, exc.problems)), file=sys.stderr)
        return 2
    seeds = list(range(a.seed, a.seed + a.games))
    header = study_header(src, rs.id, options)
    done: dict[int, dict] = {}
    stream = None
    if a.json:
        spath = stream_path(a.json)
        if a.resume and not spath.exists():
            print(f"dinkydau simulate: --resume: no stream {spath} to continue", file=sys.stderr)
            return 2
        try:
            done = read_stream(spath, header) if spath.exists() else {}
        except (StreamError, OSError) as exc:
            print(f"dinkydau simulate: cannot resume: {exc}", file=sys.stderr)
            return 2
        stream = Stream(spath, header, fresh=not spath.exists() or spath.stat().st_size == 0)
        if done:
            kept = sum(1 for s in seeds if s in done)
            print(f"resuming {spath}: {kept} of {len(seeds)} games already played", file=sys.stderr)
    todo = [s for s in seeds if s not in done]
    t0 = time.perf_counter()
    base = len(seeds) - len(todo)
    progress = None if a.quiet else (lambda d, n: _bar(base + d, len(seeds), t0))
    try:
        if a.ray is not None:
            from game.ai import simulate_ray

            fresh = simulate_ray.run(src, todo, a.threat, address=a.ray or None, cpus=a.jobs,
                                     ship=a.ray_ship, progress=progress, on_result=stream.write if stream else None)
        else:
            fresh = run(src, len(todo), jobs, a.threat, seeds=todo, progress=progress,
                        on_result=stream.write if stream else None)
    except SimulationError as exc:
        print(f"\ndinkydau simulate: a game failed: {exc}", file=sys.stderr)
        return 1
    except RunnerError as exc:
        print(f"dinkydau simulate: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\ndinkydau simulate: interrupted; the finished games are in {stream_path(a.json)}: run the same "
              f"command again to resume" if stream else "\ndinkydau simulate: interrupted", file=sys.stderr)
        return 130
    finally:
        if stream:
            stream.close()
    results = sorted([done[s] for s in seeds if s in done] + fresh, key=lambda r: r["seed"])
    s = summary(results, a.scenario, options, rs.id)
    s["runner"] = {"ray": a.ray or "local"} if a.ray is not None else {"jobs": jobs}
    s["resumed"] = base
    s["wall_seconds"] = round(time.perf_counter() - t0, 2)
    print(report_text(s))
    where = f"Ray ({a.ray or 'local'})" if a.ray is not None else f"{jobs} job(s)"
    print(f"  {s['wall_seconds']}s wall with {where}" + (f", {base} games from the stream" if base else ""))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(s, fh, indent=1)
    if a.plot:
        with open(a.plot, "wb") as fh:
            fh.write(plot(s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
