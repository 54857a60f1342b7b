"""Tet '68 balance: a scenario played by the computer on both sides through the engine, seeds 1..N (the
Dinky Dau tables have ``dinkydau simulate``; docs/balance.md). Prints each game and the win rates.

    python benchmarks/tet_balance.py [--scenario hue_street] [--games 100] [--first 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine.session import Engine  # noqa: E402


def play(engine: Engine, scenario: str, seed: int) -> dict:
    r = engine.call("game.new", {"scenario": scenario, "seed": seed, "referee": True, "side": "referee",
                                 "players": {"allied": "ai", "insurgent": "ai"}})
    gid, steps, t0 = r["game"], 0, time.perf_counter()
    while not engine.call("game.step", {"game": gid, "side": "referee"})["over"]:
        steps += 1
    v = engine.call("game.view", {"game": gid, "side": "referee"})
    engine.call("game.close", {"game": gid})
    alive = Counter(f["side"] for f in v["figures"] if f["alive"])
    return {"seed": seed, "winner": v["result"]["winner"], "reason": v["result"]["reason"], "turn": v["turn"],
            "steps": steps, "cleared": len(v["result"]["cleared"]), "allied_left": alive["allied"],
            "insurgent_left": alive["insurgent"], "seconds": time.perf_counter() - t0}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="hue_street")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--first", type=int, default=1)
    a = p.parse_args(argv)
    engine = Engine()
    games = []
    for seed in range(a.first, a.first + a.games):
        g = play(engine, a.scenario, seed)
        games.append(g)
        print(f"seed {seed:4d}: {g['winner'] or 'draw':9s} turn {g['turn']:2d}, {g['cleared']} cleared, "
              f"left {g['allied_left']}/{g['insurgent_left']}, {g['seconds']:.1f} s", flush=True)
    wins = Counter(g["winner"] or "draw" for g in games)
    n = len(games)
    print(f"{a.scenario}: {n} games: Allied {100 * wins['allied'] / n:.1f} %, Insurgent "
          f"{100 * wins['insurgent'] / n:.1f} %, draw {100 * wins['draw'] / n:.1f} %; median "
          f"{statistics.median(g['seconds'] for g in games):.1f} s a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
