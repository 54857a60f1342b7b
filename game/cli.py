"""The ``dinkydau`` command (DESIGN §9).

    dinkydau play [SCENARIO] [--offscreen --screenshot FILE --size WxH]   the 3D table
    dinkydau play SCENARIO --coop "Ames,Brody,Cruz"                      co-op on one screen (docs/coop.md)
    dinkydau play --connect HOST:PORT --game g1 --seat Brody             join a co-op game over TCP
    dinkydau engine [--listen 127.0.0.1:PORT]                             the headless engine process
    dinkydau validate FILE...                                            check scenario files
    dinkydau bake SCENARIO [--out FILE]                                  bake a table to glTF
    dinkydau simulate SCENARIO --games N [--jobs J | --ray [ADDR]]       batch AI-vs-AI statistics, any ruleset
    dinkydau demo [SCENARIO]                                             convention attract mode
    dinkydau film SCENARIO --showcase dustoff --out d.mp4                the set pieces of a real game on film
"""

from __future__ import annotations

import argparse
import sys


def _engine(args: argparse.Namespace) -> int:
    from game.engine.server import parse_listen, serve_stdio, serve_tcp, tls_context
    from game.engine.session import Engine

    engine = Engine(save_dir=args.saves, scenario_dirs=args.scenarios)
    if not args.listen:
        if args.tls_cert or args.tls_key:
            print("dinkydau engine: --tls-cert/--tls-key are for --listen", file=sys.stderr)
            return 2
        return serve_stdio(engine)
    try:
        host, port = parse_listen(args.listen)
    except ValueError as exc:
        print(f"dinkydau engine: {exc}", file=sys.stderr)
        return 2
    tls = None
    if args.tls_cert or args.tls_key:
        if not (args.tls_cert and args.tls_key):
            print("dinkydau engine: TLS needs both --tls-cert and --tls-key", file=sys.stderr)
            return 2
        try:
            tls = tls_context(args.tls_cert, args.tls_key)
        except (OSError, ValueError) as exc:
            print(f"dinkydau engine: cannot load the TLS certificate or key: {exc}", file=sys.stderr)
            return 2
    return serve_tcp(host, port, engine, tls=tls)


SHADOW_SEEDS = range(1, 6)
"""Seeds for the pacing of a solo table: only a quarter roll (G-40) moves a Shadow Blind between games."""


def shadow_pacing_gaps(sc, seeds=SHADOW_SEEDS) -> list[float]:
    """DD-3.4 on a solo table seeded with Shadow Blinds only (DD-10.3): per seed, the closest distance
    between the Allied start and the Shadow Blinds the Jungle Ghost places (DD-10.4), inches, each
    marker a 28 mm disc as in ``pacing_gap``."""
    import math

    from shapely.geometry import Point

    from game.ai.players import new_game
    from game.rules.state import base_of

    out = []
    for seed in seeds:
        g = new_game(sc, seed, 2, {"allied": "human", "insurgent": "ai"})
        allied = [base_of(g.book, st) for st in g.state.side_stands("allied")]
        marks = [Point(b.x, b.y).buffer(0.55) for b in g.state.blinds.values() if b.side == "insurgent"]
        out.append(min((a.distance(m) for a in allied for m in marks), default=math.inf))
    return out


def _validate(args: argparse.Namespace) -> int:
    """Check scenario files, each read by the ruleset it names (``[scenario] ruleset``), as the engine reads it;
    every problem with its file, line and field."""
    import tomllib
    from pathlib import Path

    from game import rulesets
    from game.engine.store import build_checked
    from game.rules.scenario import Scenario, ScenarioError, load_scenario

    bad = 0
    for path in args.files:
        try:
            text = Path(path).read_text(encoding="utf-8")
            tomllib.loads(text)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            text = None  # Dinky Dau's loader words the unreadable file or the TOML error, with its line
        try:
            sc = load_scenario(path) if text is None else build_checked(tomllib.loads(text), str(path), text)
        except ScenarioError as exc:
            bad += 1
            for p in exc.problems:
                print(p)
            continue
        if isinstance(sc, Scenario):
            print(_dinky_dau_summary(path, sc))
        else:
            rs = rulesets.of_scenario(sc)
            row = rs.describe(sc)
            table = row.get("table") or {}
            print(f"{path}: ok: {row.get('title')}, {table.get('width', 0):g}\"x{table.get('height', 0):g}\", "
                  f"{row.get('turns')} turns ({rs.title})")
    return 1 if bad else 0


def _dinky_dau_summary(path: str, sc) -> str:
    """A Dinky Dau scenario's line: its table, forces, and how far apart they start (DD-3.4)."""
    import math

    from game.rules.scenario import pacing_gap

    gaps = [pacing_gap(sc)]
    what = "forces start"
    if math.isinf(gaps[0]) and sc.shadow_blinds:
        gaps, what = shadow_pacing_gaps(sc), "the Shadow Blinds are placed"
    lo, hi = min(gaps), max(gaps)
    span = f"{lo:.1f}\"" if hi - lo < 0.05 else f"{lo:.1f}\"-{hi:.1f}\""
    note = ""
    if "pacing_exempt" not in sc.special_rules and not all(12.0 <= gap <= 18.0 for gap in gaps):
        note = f" (note: {what} {span} apart; DD-3.4 asks for 12\"-18\")"
    elif what != "forces start":
        note = f", {sc.shadow_blinds} Shadow Blinds (DD-10.3) {span} from the start"
    return (f"{path}: ok: {sc.title}, {sc.width:g}\"x{sc.height:g}\", {len(sc.features)} features, "
            f"{len(sc.elements)} elements{note}")


def _bake(args: argparse.Namespace) -> int:
    """Bake any ruleset's table: a Dinky Dau scenario by ``game.world.bake``, a Tet '68 town by
    ``game.world.ruins`` (the scenario read by the ruleset it names, as the engine reads it)."""
    from game.rules.scenario import ScenarioError

    try:
        from game.world.bake import main_bake
        from game.world.ruins import main_bake_town
    except ImportError as exc:
        print(f"dinkydau bake: the terrain baker is not available: {exc}", file=sys.stderr)
        return 1
    try:
        scenario = _bake_scenario(args.scenario)
        from game.rulesets.tet68.scenario import TetScenario

        out = (main_bake_town if isinstance(scenario, TetScenario) else main_bake)(scenario, args.out)
    except ScenarioError as exc:
        for p in exc.problems:
            print(p, file=sys.stderr)
        return 1
    print(out)
    return 0


def _bake_scenario(ref: str):
    """A shipped scenario by id, or a scenario file, read by the ruleset it names."""
    import tomllib
    from pathlib import Path

    from game.engine.store import ScenarioFolders, build_checked
    from game.rules.scenario import Problem, ScenarioError, scenario_from_text

    if not ref.endswith(".toml") or ScenarioFolders().find(ref) is not None:
        return ScenarioFolders().resolve(ref)
    try:
        text = Path(ref).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError([Problem(ref, "", f"cannot read: {exc}")]) from exc
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return scenario_from_text(text, ref)
    return build_checked(raw, ref, text)


def _play(argv: list[str]) -> int:
    try:
        from game.client.app import main as client_main
    except ImportError as exc:
        print(f"dinkydau play: the 3D client could not start: {exc}", file=sys.stderr)
        return 1
    return client_main(argv)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "play":
        return _play(argv[1:])
    if argv and argv[0] == "simulate":
        from game.ai.simulate import main as simulate_main

        return simulate_main(argv[1:])
    if argv and argv[0] == "demo":
        from game.client.demo import demo_main

        return demo_main(argv[1:])
    if argv and argv[0] == "film":
        from game.client.film import film_main

        return film_main(argv[1:])
    parser = argparse.ArgumentParser(prog="dinkydau", description="Dinky Dau 3D: Vietnam tabletop wargame")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("play", help="play on the 3D table (dinkydau play --help)")
    sub.add_parser("demo", help="attract mode for a convention table: AI against AI until someone takes command")
    sub.add_parser("film", help="render artillery, Dustoff, air strikes (and an armour brew-up) of a real game to "
                   "MP4 or PNGs (dinkydau film --help)")
    sub.add_parser("simulate", help="N seeded AI-vs-AI games in parallel or on a Ray cluster, with statistics "
                   "(dinkydau simulate --help)")
    p = sub.add_parser("engine", help="run the headless engine (JSON-RPC 2.0 on stdio, or TCP)")
    p.add_argument("--listen", metavar="[HOST:]PORT",
                   help="serve on TCP instead of stdio: PORT alone is the loopback address (this machine only); "
                        "name a host, e.g. 0.0.0.0:7777, to serve the network")
    p.add_argument("--tls-cert", metavar="PEM", help="with --listen: serve TLS with this certificate chain")
    p.add_argument("--tls-key", metavar="PEM", help="with --listen: the certificate's private key")
    p.add_argument("--saves", metavar="DIR", help="the folder of save slots (default: $XDG_DATA_HOME/dinkydau/saves)")
    p.add_argument("--scenarios", metavar="DIR", action="append",
                   help="a folder of scenario files the engine may load by id, besides the shipped ones")
    p = sub.add_parser("validate", help="check scenario files and report every problem")
    p.add_argument("files", nargs="+")
    p = sub.add_parser("bake", help="bake a scenario's table to a glTF binary (.glb)")
    p.add_argument("scenario", help="a shipped scenario id or a scenario file")
    p.add_argument("--out", help="where to write the .glb (default: the cache)")
    args = parser.parse_args(argv)
    return {"engine": _engine, "validate": _validate, "bake": _bake}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
