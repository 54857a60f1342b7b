"""Who plays each side, as far as the rules care (DD chapter 10).

A game whose Insurgent side is played by the computer is a Jungle Ghost game: its Shadow Blinds are
placed before the first turn (DD-10.3), and before each of its actions the Ghost's detection catches
up with the moves made since it last looked (DD-10.6–10.8). Both are rules, not choices, so they live
here, where creating a game, replaying a save and letting an AI act all find them; the computer
players (``game.ai``) only choose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.rules.scenario import Scenario


def new_game(scenario: Scenario, seed: int, threat: int = 2, players: dict[str, str] | None = None) -> Game:
    """A game at turn 1; with an AI Insurgent side, the Jungle Ghost's (DD-10.3)."""
    from game.rules import jungle_ghost
    from game.rules.game import Game
    from game.rules.turn import start_turn

    players = players or {"allied": "human", "insurgent": "ai"}
    g = Game(scenario, seed, threat=threat, start=False)
    if players.get("insurgent") == "ai":
        jungle_ghost.enable(g)
    start_turn(g)
    return g


def before_ai_acts(g: Game) -> None:
    """What the rules do before a computer side chooses: the Jungle Ghost's detection has caught up with the moves since it last looked (DD-10.6–10.8).

    It stays at this point, not in a hook at the end of each Allied move: catching up there (as the
    Ghost's impulse opens) gives the same final state and the same event sequence, but a different
    state between the Allied act and the Ghost's step (its look-up bookkeeping, ``GhostState.pos``), so
    the snapshot hashes of saves made before would no longer replay, and it moves the detection's
    events from ``game.step``'s answer into ``game.act``'s (issue 12)."""
    from game.rules import jungle_ghost

    jungle_ghost.watch(g)


def ai_may_act(g: Game, side: str) -> bool:
    return not g.state.over and g.state.to_act == side
