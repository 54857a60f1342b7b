"""Two versions of the engine side by side: the same random playouts, game by game (prints; asserts nothing).

    python benchmarks/compare.py OLD_TREE NEW_TREE [--games 40] [--rounds 3] [--core 0]

``--pythons OLD_PYTHON NEW_PYTHON`` runs each tree in its own interpreter (the same tree twice compares two
interpreters). Each tree is a checkout of the project (``git worktree add /tmp/old <commit>``; copy ``.cache`` into it
so its line of sight is compiled already). One worker process a tree, both on one core, play the same
fixed games (``benchmarks/engine.py``'s playout: a random listed action, a move's point at random)
alternately, game by game: ``--games`` seeds in each of ``--rounds`` rounds, every game a new seed, as
in ``engine.py`` (a game played again would find its sightlines kept, ``TableCache``, and read faster
than a new one). The machine's speed drifts over minutes, more than one change to the engine moves it;
game by game, both trees see the same drift. Prints each tree's accepted actions per CPU second and
whether the two played the same games (their final state hashes).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import time
from pathlib import Path

SCENARIOS = ("village_sweep", "rubber_plantation")


def worker(tree: str) -> None:
    """Play the game of each seed read from stdin; write its CPU seconds, accepted actions and hash."""
    sys.path.insert(0, tree)  # that checkout's engine; the playout itself is this one's (beside this file)
    from playout import random_step

    from game.rules.dice import Dice, seed_streams
    from game.rules.game import Game
    from game.rules.scenario import resolve_scenario
    from game.rules.turn import start_turn

    scenarios = [resolve_scenario(s) for s in SCENARIOS]
    for sc in scenarios:  # each table's ray scene, built once a process
        Game(sc, 0, start=False).los_table()
    print("ready", flush=True)
    for line in sys.stdin:
        seed = int(line)
        t0 = time.process_time()
        g = Game(scenarios[seed % 2], seed, start=False)
        start_turn(g)
        rng, done = Dice(seed_streams(seed + 99)), 0
        while not g.state.over:
            done += random_step(g, rng)
        print(f"{time.process_time() - t0} {done} {g.hash()}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--core", default="0", help="the CPU core both workers share (taskset)")
    ap.add_argument("--pythons", nargs=2, metavar=("OLD_PYTHON", "NEW_PYTHON"),
                    default=[sys.executable, sys.executable],
                    help="the interpreter each tree runs in (each with the project's packages installed)")
    args = ap.parse_args()
    trees = [str(Path(t).resolve()) for t in (args.old, args.new)]
    pin = ["taskset", "-c", args.core] if shutil.which("taskset") else []  # else: wherever the system puts them
    procs = [subprocess.Popen([*pin, exe, str(Path(__file__).resolve()), "--worker", t], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
             for exe, t in zip(args.pythons, trees, strict=True)]
    for p in procs:
        if p.stdout.readline().strip() != "ready":
            sys.exit(f"a worker did not start (run it alone to see why): {' '.join(p.args)}")
    played: list[dict[int, tuple[float, int, str]]] = [{}, {}]
    for r in range(args.rounds):
        for seed in range(r * args.games + 1, (r + 1) * args.games + 1):
            for k in ((0, 1) if (seed + r) % 2 else (1, 0)):  # who goes first alternates
                procs[k].stdin.write(f"{seed}\n")
                procs[k].stdin.flush()
                secs, done, digest = procs[k].stdout.readline().split()
                played[k][seed] = (float(secs), int(done), digest)
    for p in procs:
        p.stdin.close()
        p.wait()
    for tree, runs in zip(trees, played, strict=True):
        secs, done = sum(v[0] for v in runs.values()), sum(v[1] for v in runs.values())
        games = hashlib.sha256("".join(v[2] for _, v in sorted(runs.items())).encode()).hexdigest()[:12]
        print(f"{tree}: {done / secs:,.0f} accepted actions/s ({done} in {secs:.2f} CPU s, {len(runs)} games); "
              f"its games' hashes {games}")
    same = all(played[0][s][2] == played[1][s][2] for s in played[0])
    ratio = (sum(v[1] for v in played[1].values()) / sum(v[0] for v in played[1].values())) / \
        (sum(v[1] for v in played[0].values()) / sum(v[0] for v in played[0].values()))
    print(f"new / old: {ratio:.3f}x; {'the same games' if same else 'DIFFERENT games (a change of behaviour)'}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main()
