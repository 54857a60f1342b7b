"""The leak test's sample against planted leaks: each plant makes the views show one hidden fact (DESIGN §6),
and the in-process volume of ``tests/engine/test_fog.py`` (``leak_games``) must catch it within the games
``make test`` plays. Prints the games each plant took; exits 1 if one went uncaught.

Plants: a pending fire mission's Target marker shown to the enemy (DD-8.6); an unfired trip flare shown to
the Insurgent (DD-9A.2); a hidden Blind's dummy flag (DD-4.7); a hidden element's stands once it acted;
the enemy's CP from turn 2. It changes no file: the views are wrapped in this process only.

    python benchmarks/leak_plants.py [--games 24] [PLANT ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def plant(name: str, original):
    """``render_view`` with the leak ``name`` in every side's view (the referee's left as it is)."""

    def leaky(g, side: str) -> dict:
        v = original(g, side)
        if side == "referee":
            return v
        enemy = "insurgent" if side == "allied" else "allied"
        ref = original(g, "referee")
        if name == "target":
            v["markers"] += [m for m in ref["markers"] if m.get("kind") == "target" and m.get("side") == enemy]
        elif name == "flare" and side == "insurgent":
            v["markers"] += [m for m in ref["markers"] if m.get("kind") == "trip_flare"]
        elif name == "dummy":
            for b, rb in zip(v["blinds"], ref["blinds"], strict=True):
                if rb["side"] == enemy:
                    b["dummy"] = rb["dummy"]
        elif name == "acted":
            shown = {s["id"] for s in v["stands"]}
            hidden = {e["id"] for e in ref["elements"] if e["side"] == enemy and e.get("blind")
                      and e.get("activations", 0) > 0}
            v["stands"] += [s for s in ref["stands"] if s["element"] in hidden and s["id"] not in shown]
        elif name == "cp" and ref["turn"] >= 2:
            v["sides"][enemy]["cp"] = ref["sides"][enemy]["cp"]
        return v

    return leaky


PLANTS = ("target", "flare", "dummy", "acted", "cp")


def main(argv: list[str] | None = None) -> int:
    import game.rules.views as views
    from game.engine.client import InProcessEngine
    from tests.engine import test_fog

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=test_fog.IN_PROCESS_GAMES)
    p.add_argument("plants", nargs="*", help=f"some of {', '.join(PLANTS)} (all when none)")
    a = p.parse_args(argv)
    unknown = sorted(set(a.plants) - set(PLANTS))
    if unknown:
        p.error(f"no plant named {', '.join(unknown)} (the plants: {', '.join(PLANTS)})")
    original = views.render_view
    missed = []
    for name in a.plants or PLANTS:
        views.render_view = plant(name, original)
        eng = InProcessEngine()
        test_fog.STATS["games"] = 0
        t0 = time.monotonic()
        try:
            test_fog.leak_games(eng.call, lambda gid, eng=eng: eng.engine.sessions[gid].game, a.games)
        except AssertionError as exc:
            print(f"{name}: caught in game {test_fog.STATS['games']} ({time.monotonic() - t0:.0f} s): "
                  f"{str(exc).splitlines()[0][:100]}")
        else:
            print(f"{name}: NOT caught in {a.games} games")
            missed.append(name)
        finally:
            views.render_view = original
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
