"""The random legal playout the engine benchmarks share (``engine.py``, ``scale.py``, ``compare.py``).

One step: a random action from the side's listing, sent with what the listing gives it (a move's ``to``
drawn at random within its reach; the other parameters left out, as the issue's first figures were
measured). Imports nothing of the game at load: ``compare.py`` runs it against another checkout's.
"""

from __future__ import annotations

import math
from typing import Any


def random_step(g: Any, rng: Any) -> bool:
    """Send one random listed action for the side to act; True if the engine accepted it."""
    from game.rules.errors import IllegalAction

    side = g.state.to_act
    acts = g.legal_actions(side)
    a = {k: v for k, v in acts[rng.below(len(acts))].items() if k not in ("params", "label")}
    if a["type"] == "move":
        spec = next(x for x in acts if x.get("element") == a["element"] and x["type"] == "move")
        fx, fy = spec["params"]["to"]["from"]
        r, th = spec["params"]["to"]["max"] * rng.uniform("ai"), rng.uniform("ai") * 2 * math.pi
        a["to"] = [fx + r * math.cos(th), fy + r * math.sin(th)]
    try:
        g.act(side, a)
    except IllegalAction:
        return False
    return True
