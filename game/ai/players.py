"""Computer players: who chooses an AI side's next action.

An AI side plays from its own view and its legal actions only (DESIGN §6): it is handed
``game.view(side)`` and ``game.legal_actions(side)``, never the state. Its choices draw from the
``ai`` dice stream, so its thinking never shifts a combat die (DESIGN §5).

The player here is the interim *patrol* policy: it spends its activations moving elements toward the
nearest enemy it can see (Allied) or holding and concealing in cover until the enemy is close
(Insurgent), and passes when nothing is worth doing. It is a baseline for batch play and tests, not
the Jungle Ghost of DD chapter 10.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.rules.game import Game


def choose(game: Game, side: str, game_id: str = "") -> dict:
    """The next action for an AI side, chosen from its view."""
    view = game.view(side)
    actions = game.legal_actions(side)
    return choose_from(view, actions, lambda n: game.dice.below(n, "ai"))


def choose_from(view: dict, actions: list[dict], below) -> dict:
    side = view["side"]
    enemies = [s for s in view["stands"] if s["side"] != side]
    targets = [(s["x"], s["y"]) for s in enemies] + [(b["x"], b["y"]) for b in view["blinds"] if b["side"] != side]
    mine = {e["id"]: e for e in view["elements"] if e["side"] == side}
    stands = {s["id"]: s for s in view["stands"]}
    moves = [a for a in actions if a["type"] == "move" and a.get("mode") == "patrol" and not a.get("emergency")]
    holds = [a for a in actions if a["type"] in ("hold", "rally", "take_five") and not a.get("emergency")]
    rallies = [a for a in holds if a["type"] in ("rally", "take_five")]
    if rallies:
        return _strip(rallies[below(len(rallies))])
    if side == "allied" and moves and targets:
        # Advance on the nearest known enemy, element by element, one move each per turn.
        a = moves[below(len(moves))]
        fx, fy = a["params"]["to"]["from"]
        tx, ty = min(targets, key=lambda t: math.hypot(t[0] - fx, t[1] - fy))
        d = math.hypot(tx - fx, ty - fy)
        if d > 8.0:
            step = min(a["params"]["to"]["max"], d - 8.0) * 0.9
            out = _strip(a)
            out["to"] = [round(fx + (tx - fx) * step / d, 2), round(fy + (ty - fy) * step / d, 2)]
            return out
    if side == "insurgent":
        unconcealed = [a for a in holds if a["type"] == "hold" and not mine.get(a["element"], {}).get("conceal")]
        if unconcealed:
            return _strip(unconcealed[below(len(unconcealed))])
    del stands
    return {"type": "pass"}


def _strip(action: dict) -> dict:
    return {k: v for k, v in action.items() if k not in ("params", "label")}


def take_turn(game: Game, side: str) -> tuple[dict, list[dict]]:
    """Choose and carry out an AI side's action; a refused plan becomes a pass.

    Saves replay AI moves through this same function, so the ``ai`` stream advances identically.
    """
    from game.rules.errors import IllegalAction

    action = choose(game, side)
    try:
        return action, game.act(side, action)
    except IllegalAction:
        action = {"type": "pass"}
        return action, game.act(side, action)
