"""Record real games for the presenter's tests: ``tests/fixtures/events/*.json.gz``.

Each recording is a game driven through the real engine (``InProcessEngine``, the same methods the
process serves), found the way ``dinkydau film`` finds its situations: a Dustoff (the Allies' offered
``pop_smoke`` taken, then the game runs until the Huey leaves), the Jungle Ghost's mortar, and whole
AI-against-AI games on each shipped scenario. It keeps the referee's batches (events and the view after
each) and, for the fog test, what each side was sent. The fire-support games (DD chapter 8: the Allied
AI's 155 mm mission and its A-1 napalm strike under an O-1 FAC, on an in-memory copy of
firebase_relief with those ``[[support]]`` rows) go to ``tests/client/fixtures``. Regenerate after the
engine's events change:

    python -m tests.client.record_events
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "events"
FIRE_OUT = Path(__file__).resolve().parent / "fixtures"
GAMES = [("dustoff", "village_sweep", "dustoff", 20), ("mortar", "rubber_plantation", "harassment", 3)]
FIRE = [("airstrike", "firebase_relief", "airstrike", 1), ("artillery", "firebase_relief", "artillery", 1)]
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


# scripted Allied calls (the Allies human, the Insurgent the AI): (name, scenario, time of day, seed, support
# added, calls [(action type, asset, extra params)]), for the fire support the Allied AI seldom calls
SCRIPTED = [
    ("fire_variety", "firebase_relief", "day", 4, ("cas_bombs", "cas_rockets", "gunship", "fac_o1"),
     [("call_air", "cas_bombs", {}), ("call_fire", "battery_105", {"round": "wp"}), ("call_air", "gunship", {}),
      ("call_air", "cas_rockets", {}), ("call_fire", "battery_105", {"round": "illumination"})]),
    ("fire_night", "firebase_relief", "night_dark", 4, ("spooky", "gunship", "fac_o1"),
     [("call_air", "spooky", {}), ("call_fire", "battery_105", {"round": "illumination"}),
      ("call_air", "gunship", {})]),
]


def scripted_ref(scenario: str, tod: str, assets) -> dict:
    import tomllib

    from game.client.settings import REPO

    raw = tomllib.loads((REPO / "scenarios" / f"{scenario}.toml").read_text())
    raw["scenario"]["time_of_day"] = tod
    have = {(r.get("side"), r.get("asset")) for r in raw.get("support") or []}
    raw["support"] = list(raw.get("support") or []) + [{"side": "allied", "asset": a, "missions": 2} for a in assets
                                                       if ("allied", a) not in have]
    return raw


def _scripted(engine, ref: dict, seed: int, calls: list, name: str, side: str = "referee"):
    """Play ``ref`` with the Allies making ``calls`` (each on the nearest enemy they see 8" or more from
    the caller, at the first heading the engine accepts) and one strafing run once a gunship is on
    station, passing otherwise; the Insurgent is the AI. The batches ``side`` is sent."""
    import math

    from game.client.film import Situation
    from game.engine.client import EngineError

    r = engine.call("game.new", scenario=ref, seed=seed, threat=3, referee=True, side=side,
                    players={"allied": "human", "insurgent": "ai"})
    g = r["game"]
    sit = Situation(ref["scenario"]["id"], seed, name, r)
    last = max([e.get("seq", 0) for e in r["events"]], default=0)
    plan, ran = list(calls), False
    kinds = ("fire_mission", "smoke", "air_pass", "gunship", "illumination", "terrain")
    for _ in range(1500):
        view = engine.call("game.view", game=g, side="referee")
        if view.get("over"):
            break
        if view.get("to_act") != "allied":
            step = engine.call("game.step", game=g, side=side)
            sit.batches.append((step["events"], step["view"]))
        else:
            acts = engine.call("game.actions", game=g, side="allied")["actions"]
            seen = engine.call("game.view", game=g, side="allied")
            foes = [(b["x"], b["y"]) for b in seen.get("blinds", [])]
            foes += [(s["x"], s["y"]) for s in seen["stands"] if s["side"] == "insurgent"]
            tries = []
            run = next((a for a in acts if a["type"] == "gunship_run"), None)
            if run is not None and not ran:
                frm = run["params"]["at"]["from"]
                tries = [{"type": "gunship_run", "element": run["element"], "at": [x, y], "heading": h,
                          "gunship": run["params"]["gunship"]["default"]}
                         for x, y in sorted(foes, key=lambda p: math.dist(p, frm)) for h in range(0, 360, 30)]
            while not tries and plan:
                kind, asset, extra = plan.pop(0)
                offer = next((a for a in acts if a["type"] == kind and a.get("asset") == asset), None)
                if offer is None:
                    continue
                frm = (offer["params"].get("at") or {}).get("from") or [0, 0]
                for x, y in sorted(foes, key=lambda p: math.dist(p, frm)):
                    if math.dist((x, y), frm) >= 8:
                        for h in range(0, 360, 30) if kind == "call_air" else [None]:
                            a = {"type": kind, "element": offer["element"], "asset": asset, "at": [x, y], **extra}
                            tries.append(a if h is None else {**a, "heading": h})
            for action in [*tries, {"type": "pass"}]:
                try:
                    engine.call("game.act", game=g, side="allied", action=action)
                except EngineError:
                    continue
                ran = ran or action["type"] == "gunship_run"
                break
            events = engine.call("game.events", game=g, side=side, since=last)["events"]
            sit.batches.append((events, engine.call("game.view", game=g, side=side)))
        last = max([e.get("seq", 0) for e in sit.batches[-1][0]], default=last)
        if any(e["type"] in kinds for e in sit.batches[-1][0]):
            sit.story.append(len(sit.batches) - 1)
        if not plan and ran and sit.story and len(sit.batches) - sit.story[-1] > 30:
            break
    engine.call("game.close", game=g)
    return sit


def record(out: Path = OUT, fire_out: Path = FIRE_OUT, only: tuple[str, ...] = ()) -> list[Path]:
    from game.client.film import find, scenario_with_support
    from game.engine.client import InProcessEngine

    engine = InProcessEngine()
    out.mkdir(parents=True, exist_ok=True)
    fire_out.mkdir(parents=True, exist_ok=True)
    written = []
    jobs = [(name, out, sc, lambda sc=sc, show=show, seed=seed: find(engine, sc, show, seed, 1, log=lambda *_: None))
            for name, sc, show, seed in GAMES]
    jobs += [(name, fire_out, scenario_with_support(sc, show),
              lambda sc=sc, show=show, seed=seed: find(engine, sc, show, seed, 8, log=lambda *_: None))
             for name, sc, show, seed in FIRE]
    jobs += [(name, out, sc, lambda sc=sc, seed=seed: _full_game(engine, sc, seed)[0]) for name, sc, seed in FULL]
    scripted = {}
    for name, sc, tod, seed, assets, calls in SCRIPTED:
        ref = scripted_ref(sc, tod, assets)
        scripted[name] = (ref, seed, calls)
        jobs.append((name, fire_out, ref, lambda ref=ref, seed=seed, calls=calls, name=name:
                     _scripted(engine, ref, seed, calls, name)))
    for name, where, ref, make in jobs:
        if only and name not in only:
            continue
        sit = make()
        if sit is None:
            raise SystemExit(f"record_events: {name} no longer happens at its seed; pick another")
        # what each side was sent in the same AI game, replayed from its start (the engine is deterministic)
        sides = {}
        if name in scripted:  # a scripted game replayed for each side makes the same calls (the engine is deterministic)
            ref_, seed_, calls_ = scripted[name]
            sides = {side: [(s_.start["events"], s_.start["view"]), *s_.batches]
                     for side in ("allied", "insurgent")
                     for s_ in [_scripted(engine, ref_, seed_, calls_, name, side)]}
        for side in ("allied", "insurgent") if (name.startswith("full") or where is fire_out) and not sides else ():
            r = engine.call("game.new", scenario=ref, seed=sit.seed, threat=3, referee=True,
                            side=side, players={"allied": "ai", "insurgent": "ai"})
            batches = [(r["events"], r["view"])]
            for _ in sit.batches:
                step = engine.call("game.step", game=r["game"], side=side)
                batches.append((step["events"], step["view"]))
            sides[side] = batches
            engine.call("game.close", game=r["game"])
        doc = {"scenario": sit.scenario, "seed": sit.seed, "showcase": sit.showcase, "start": sit.start,
               "batches": sit.batches, "story": sit.story, "sides": sides}
        path = where / f"{name}.json.gz"
        path.write_bytes(gzip.compress(json.dumps(doc, sort_keys=True).encode(), mtime=0))
        written.append(path)
    return written


if __name__ == "__main__":
    import sys

    for p in record(only=tuple(sys.argv[1:])):
        print(p, p.stat().st_size)
