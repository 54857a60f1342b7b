"""Computer players: who chooses an AI side's next action.

An AI side plays from its own view and its legal actions only (DESIGN §6): ``choose`` hands the
decision code a :class:`game.ai.facade.SideView`, never the state. Its choices draw from the ``ai``
dice stream, so its thinking never shifts a combat die (DESIGN §5).

* The Insurgent side is the **Jungle Ghost** (DD chapter 10): ``game.ai.ghost`` decides;
  ``game.rules.jungle_ghost`` rolls its dice (enable it with :func:`new_game` or
  ``jungle_ghost.enable`` before the first turn).
* The Allied side is the **autopilot** (``game.ai.autopilot``).

``take_turn`` first lets the rules do what they do before a computer side acts (the Jungle Ghost's
detection catches up, ``game.rules.players.before_ai_acts``), then chooses and acts. Games are made
by ``game.rules.players.new_game`` (re-exported here for the AI's own callers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from game.ai import autopilot, ghost
from game.ai.facade import SideView
from game.rules.players import ai_may_act, before_ai_acts, new_game

__all__ = ["new_game", "choose", "choose_from", "take_turn", "Turn"]

if TYPE_CHECKING:
    from game.rules.game import Game


def choose(game: Game, side: str, game_id: str = "") -> dict:
    """The next action for an AI side, chosen from its view."""
    return choose_from(SideView.of(game, side))


def choose_from(f: SideView) -> dict:
    if not f.actions:
        return {"type": "pass"}
    if f.side == "insurgent":
        return ghost.decide(f)
    return autopilot.decide(f)


class Turn(NamedTuple):
    action: dict | None
    """What the side did (None when it no longer had the move once the rules had caught up)."""
    events: list[dict]
    """Every event since the turn began, the Jungle Ghost's detection included."""
    ai_stream: int
    """The ``ai`` dice stream once the choice was made: a save records it with the action and replays
    both with no AI code (DESIGN §5)."""


def take_turn(game: Game, side: str) -> Turn:
    """Choose and carry out an AI side's action; a refused plan becomes a pass."""
    from game.rules.errors import IllegalAction

    start = len(game.events)
    before_ai_acts(game)
    if not ai_may_act(game, side):
        return Turn(None, game.events[start:], game.dice.streams["ai"])
    action = choose(game, side)
    stream = game.dice.streams["ai"]
    try:
        game.act(side, action)
    except IllegalAction:
        action = {"type": "pass"}
        game.act(side, action)
    return Turn(action, game.events[start:], stream)
