"""One Brain-Cell balance: a scenario played by the computer on both sides through the engine, seeds
first..first+N-1 (docs/rulesets.md). Prints each game, then the win rates and the median seconds a game.

    python benchmarks/obc_balance.py [--scenario hot_lz] [--games 100] [--first 1] [--jobs 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine.session import Engine  # noqa: E402


def play(scenario: str, seed: int) -> dict:
    engine = Engine()
    r = engine.call("game.new", {"scenario": scenario, "seed": seed, "referee": True, "side": "referee",
                                 "players": {"allied": "ai", "insurgent": "ai"}})
    gid, steps, t0 = r["game"], 0, time.perf_counter()
    while not engine.call("game.step", {"game": gid, "side": "referee"})["over"]:
        steps += 1
    v = engine.call("game.view", {"game": gid, "side": "referee"})
    engine.call("game.close", {"game": gid})
    down = Counter(m["side"] for m in v["men"] if m["status"] in ("dead", "disabled"))
    saved = Counter(m["side"] for m in v["men"] if m.get("evacuated"))
    called = any(not q["reserve"] for q in v["squads"] if q["aim"].get("kind") == "evac")
    score = v["result"]["score"]
    return {"seed": seed, "winner": v["result"]["winner"], "reason": v["result"]["reason"], "turn": v["turn"],
            "steps": steps, "vp": (score["allied"]["total"], score["insurgent"]["total"]),
            "orders": (len(score["allied"]["orders"]), len(score["insurgent"]["orders"])),
            "down": (down["allied"], down["insurgent"]), "evacuated": (saved["allied"], saved["insurgent"]),
            "left": (score["allied"]["left_behind"], score["insurgent"]["left_behind"]), "called": called,
            "seconds": time.perf_counter() - t0}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="hot_lz")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--first", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    a = p.parse_args(argv)
    seeds = range(a.first, a.first + a.games)
    games = []
    with ProcessPoolExecutor(a.jobs) as pool:
        for g in pool.map(play, [a.scenario] * a.games, seeds):
            games.append(g)
            print(f"seed {g['seed']:4d}: {g['winner'] or 'draw':9s} turn {g['turn']:2d}, VP {g['vp'][0]}-{g['vp'][1]}, "
                  f"orders {g['orders'][0]}/{g['orders'][1]}, down {g['down'][0]}/{g['down'][1]}, "
                  f"evacuated {g['evacuated'][0]}/{g['evacuated'][1]}, left {g['left'][0]}/{g['left'][1]}"
                  f"{', evac called' if g['called'] else ''}, {g['seconds']:.1f} s", flush=True)
    wins = Counter(g["winner"] or "draw" for g in games)
    n = len(games)
    print(f"{a.scenario}: {n} games: Allied {100 * wins['allied'] / n:.1f} %, Insurgent "
          f"{100 * wins['insurgent'] / n:.1f} %, draw {100 * wins['draw'] / n:.1f} %; mean VP "
          f"{statistics.mean(g['vp'][0] for g in games):.1f}-{statistics.mean(g['vp'][1] for g in games):.1f}; "
          f"median {statistics.median(g['seconds'] for g in games):.1f} s a game")
    print(f"the wounded (OBC-42): evacuated {sum(g['evacuated'][0] for g in games) / n:.2f} / "
          f"{sum(g['evacuated'][1] for g in games) / n:.2f} a game, left behind {sum(g['left'][0] for g in games) / n:.2f} / "
          f"{sum(g['left'][1] for g in games) / n:.2f}; evac called in {sum(g['called'] for g in games)} of {n} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
