"""Fire resolution throughput: 10,000 Aimed Fire resolutions in process (DD-5.1–5.21).

A rifle squad (7 FP dice) fires at a VC cell in the open on a tiny inline table; each resolution
restores the state, rolls to hit, allocates, saves, applies casualties and tests Morale, exactly as
``Game.act`` does (without the activation bookkeeping). Line of sight is stubbed (always clear) so
the figure measures the rules, not the ray caster (see benchmarks/los.py for that).

Run: python benchmarks/fire.py [N]
"""

from __future__ import annotations

import copy
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.rules import fire, odds  # noqa: E402
from game.rules.dice import Dice  # noqa: E402
from game.rules.game import Game  # noqa: E402
from game.rules.scenario import build_scenario  # noqa: E402
from game.rules.state import GameState  # noqa: E402
from game.rules.turn import start_turn  # noqa: E402

RAW = {
    "scenario": {"id": "bench", "title": "bench", "table": {"width": 48, "height": 48}, "turns": 6,
                 "weather": "clear", "time_of_day": "day", "first_side": "allied"},
    "side": [{"id": "allied", "faction": "us_army", "name": "A"},
             {"id": "insurgent", "faction": "vc_main_force", "name": "I"}],
    "element": [
        {"id": "sq", "side": "allied", "name": "sq", "kind": "squad", "stand": [
            {"id": "sq_sl", "type": "us_squad_leader", "at": [22, 8.5], "facing": 90},
            {"id": "sq_a", "type": "us_rifle_team", "at": [20, 10], "facing": 90},
            {"id": "sq_b", "type": "us_rifle_team", "at": [24, 10], "facing": 90}]},
        {"id": "vc", "side": "insurgent", "name": "vc", "kind": "cell", "stand": [
            {"id": "vc_a", "type": "vc_rifle_cell", "at": [20, 20], "facing": 270},
            {"id": "vc_b", "type": "vc_rifle_cell", "at": [24, 20], "facing": 270},
            {"id": "vc_c", "type": "vc_cadre", "at": [22, 21.5], "facing": 270}]},
    ],
}


def main(n: int = 10_000) -> None:
    g = Game(build_scenario(RAW), 7, start=False)
    g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    start_turn(g)
    snap = copy.deepcopy(g.state.to_dict())
    t0 = time.perf_counter()
    for i in range(n):
        g.state = GameState.from_dict(copy.deepcopy(snap))
        g.state.rng["rules"] = i
        g.dice = Dice(g.state.rng)
        g.events = []
        attack = fire.plan_fire(g, g.state.elements["sq"], "vc_a", fire.Context())
        fire.resolve_attack(g, attack)
    dt = time.perf_counter() - t0
    print(f"fire: {n} Aimed Fire resolutions (check + roll + allocate + save + morale) in {dt:.2f} s: "
          f"{n / dt:,.0f} per second")
    t0 = time.perf_counter()
    for _ in range(200):
        odds.preview(g, "allied", {"type": "fire", "element": "sq", "target": "vc_a"})
    dt = time.perf_counter() - t0
    print(f"odds: 200 exact previews in {dt:.2f} s: {dt / 200 * 1000:.1f} ms each")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
