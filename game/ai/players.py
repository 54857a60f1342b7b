"""Computer players: who chooses an AI side's next action.

An AI side plays from its own view and its legal actions only (DESIGN §6): ``choose`` hands the
decision code a :class:`game.ai.facade.SideView`, never the state. Its choices draw from the ``ai``
dice stream, so its thinking never shifts a combat die (DESIGN §5).

* The Insurgent side is the **Jungle Ghost** (DD chapter 10): ``game.ai.ghost`` decides;
  ``game.rules.jungle_ghost`` rolls its dice (enable it with :func:`new_game` or
  ``jungle_ghost.enable`` before the first turn).
* The Allied side is the **autopilot** (``game.ai.autopilot``).

``take_turn`` first lets the Jungle Ghost's detection catch up with the moves made since it last
looked (``jungle_ghost.watch``, engine policy until moves call ``hooks['move']``), then chooses and acts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.ai import autopilot, ghost
from game.ai.facade import SideView

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.rules.scenario import Scenario


def new_game(scenario: Scenario, seed: int, threat: int = 2, players: dict[str, str] | None = None) -> Game:
    """A game whose Insurgent side, when played by the AI, is the Jungle Ghost (DD-10.3: its Shadow
    Blinds are placed before the first turn)."""
    from game.rules import jungle_ghost
    from game.rules.game import Game
    from game.rules.turn import start_turn

    players = players or {"allied": "human", "insurgent": "ai"}
    g = Game(scenario, seed, threat=threat, start=False)
    if players.get("insurgent") == "ai":
        jungle_ghost.enable(g)
    start_turn(g)
    return g


def choose(game: Game, side: str, game_id: str = "") -> dict:
    """The next action for an AI side, chosen from its view."""
    return choose_from(SideView.of(game, side))


def choose_from(f: SideView) -> dict:
    if not f.actions:
        return {"type": "pass"}
    if f.side == "insurgent":
        return ghost.decide(f)
    return autopilot.decide(f)


def take_turn(game: Game, side: str) -> tuple[dict, list[dict]]:
    """Choose and carry out an AI side's action; a refused plan becomes a pass.

    Saves replay AI moves through this same function, so the ``ai`` stream advances identically.
    Returns the action and every event since the call began (the Jungle Ghost's detection included).
    """
    from game.rules import jungle_ghost
    from game.rules.errors import IllegalAction

    start = len(game.events)
    jungle_ghost.install(game)
    jungle_ghost.watch(game)
    if game.state.over or game.state.to_act != side:
        return {"type": "pass"}, game.events[start:]
    action = choose(game, side)
    try:
        game.act(side, action)
    except IllegalAction:
        action = {"type": "pass"}
        game.act(side, action)
    return action, game.events[start:]
