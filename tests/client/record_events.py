"""Record real games for the presenter's tests: ``tests/fixtures/events/*.json.gz``.

Each recording is a game driven through the real engine (``InProcessEngine``, the same methods the
process serves), found the way ``dinkydau film`` finds its situations: a Dustoff (the Allies' offered
``pop_smoke`` taken, then the game runs until the Huey leaves), the Jungle Ghost's mortar, and whole
AI-against-AI games on each shipped scenario. It keeps the referee's batches (events and the view after
each) and, for the fog test, what each side was sent. Regenerate after the engine's events change:

    python -m tests.client.record_events
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "events"
GAMES = [("dustoff", "village_sweep", "dustoff", 20), ("mortar", "rubber_plantation", "artillery", 3)]
FULL = [("full_search_and_destroy", "search_and_destroy", 2), ("full_village_sweep", "village_sweep", 26),
        ("full_rubber_plantation", "rubber_plantation", 1)]


def _full_game(engine, scenario: str, seed: int):
    from game.client.film import Situation

    r = engine.call("game.new", scenario=scenario, seed=seed, threat=3, referee=True, side="referee",
                    players={"allied": "ai", "insurgent": "ai"})
    sit = Situation(scenario, seed, "full", r)
    while True:
        step = engine.call("game.step", game=r["game"], side="referee")
        sit.batches.append((step["events"], step["view"]))
        if step["over"]:
            break
    return sit, r["game"]


def record(out: Path = OUT) -> list[Path]:
    from game.client.film import find
    from game.engine.client import InProcessEngine

    engine = InProcessEngine()
    out.mkdir(parents=True, exist_ok=True)
    written = []
    jobs = [(name, lambda sc=sc, show=show, seed=seed: find(engine, sc, show, seed, 1, log=lambda *_: None))
            for name, sc, show, seed in GAMES]
    jobs += [(name, lambda sc=sc, seed=seed: _full_game(engine, sc, seed)[0]) for name, sc, seed in FULL]
    for name, make in jobs:
        sit = make()
        if sit is None:
            raise SystemExit(f"record_events: {name} no longer happens at its seed; pick another")
        # what each side was sent in the same AI game, replayed from its start (the engine is deterministic)
        sides = {}
        for side in ("allied", "insurgent") if name.startswith("full") else ():
            r = engine.call("game.new", scenario=sit.scenario, seed=sit.seed, threat=3, referee=True,
                            side=side, players={"allied": "ai", "insurgent": "ai"})
            batches = [(r["events"], r["view"])]
            for _ in sit.batches:
                step = engine.call("game.step", game=r["game"], side=side)
                batches.append((step["events"], step["view"]))
            sides[side] = batches
            engine.call("game.close", game=r["game"])
        doc = {"scenario": sit.scenario, "seed": sit.seed, "showcase": sit.showcase, "start": sit.start,
               "batches": sit.batches, "story": sit.story, "sides": sides}
        path = out / f"{name}.json.gz"
        path.write_bytes(gzip.compress(json.dumps(doc, sort_keys=True).encode(), mtime=0))
        written.append(path)
    return written


if __name__ == "__main__":
    for p in record():
        print(p, p.stat().st_size)
