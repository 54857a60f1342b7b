"""The ruleset seam below the protocol: what the engine process asks of a rule system.

The engine (``game.engine.session``, ``game.engine.saves``) knows no rule. A scenario names its ruleset
(``[scenario] ruleset``, default ``dinky_dau``); the registry (``game.rulesets``) finds the ruleset, which
reads the scenario, makes the game, and answers everything the protocol asks that depends on the rules:
the parameters of ``game.new`` beyond the common ones, the computer player's step and its replay from a
save, the co-op seats, the odds previews, line of sight, the 3D table. Each ruleset keeps its own action
registries, tables and dice conventions behind it.

A ruleset's game object answers the engine's calls directly (DESIGN §4, docs/protocol.md):

* ``scenario`` with ``id`` and ``raw`` (the scenario object a save carries);
* ``state`` with ``seed``, ``turn``, ``to_act`` (a side or None) and ``over``;
* ``events`` (every event, in order) and ``events_for(reader, events, since=0)`` (what a side, the referee
  or the public may see, in the reader's own numbering, DESIGN §6);
* ``view(side)``, ``legal_actions(side)``, ``act(side, action)`` (events; ``IllegalAction`` for a refusal,
  which changes nothing), ``hash()`` and ``snapshot()`` (DESIGN §5).

What is common to every ruleset stays in the engine: games, tokens and grants, limits, the wire, the
action log and the save document with its hashes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario, with where it is."""

    file: str
    field: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class ScenarioError(ValueError):
    """A scenario failed validation; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class ParamError(ValueError):
    """A request parameter (or a save field) the ruleset refuses: ``field`` names it, ``message`` says why."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(message)


class Ruleset(ABC):
    """One rule system behind the engine. Subclasses set ``id``, ``title`` and ``sides`` and answer the
    abstract methods below; the ones with a default body are optional capabilities."""

    id: str = ""
    title: str = ""
    sides: tuple[str, ...] = ()
    default_players: dict[str, str] = {}
    """``game.new`` without ``players``: who plays each side."""

    # -- scenarios -------------------------------------------------------------------------------------
    @abstractmethod
    def build_scenario(self, raw: dict, where: str, text: str | None = None) -> Any:
        """A scenario object read from ``raw`` (``text``: the file, for line numbers), or ``ScenarioError``."""
        ...

    @abstractmethod
    def owns(self, scenario: Any) -> bool:
        """Whether ``scenario`` was built by this ruleset."""
        ...

    @abstractmethod
    def describe(self, scenario: Any) -> dict:
        """The scenario's row in ``engine.hello``: id, title, briefing, source, table, turns, and ``sides``: each
        side's id and the scenario's name for it (what a menu calls it: "Command the US Marines")."""
        ...

    def action_fields(self) -> dict[str, str] | None:
        """Every field an action of these rules reads, with its wire kind (``game.engine.wire.WIRE_CHECKS``:
        id, point, angle, flag, ...): the wire types them and drops the rest. None: Dinky Dau's contract."""
        return None

    # -- games -----------------------------------------------------------------------------------------
    def options(self, params: dict) -> dict:
        """The ruleset's own ``game.new`` parameters, checked (``ParamError`` naming the field)."""
        return {}

    def takes(self) -> dict:
        """What a game of these rules may be asked for beyond the common ``game.new`` parameters, for a
        menu to offer (``engine.hello``): ``options``, the names of the ruleset's own parameters (those
        ``options`` fills in when given none), and ``coop``, whether a side may be a co-op team."""
        try:
            names = sorted(self.options({}))
        except ParamError:
            names = []
        return {"options": names, "coop": type(self).assign_team is not Ruleset.assign_team}

    def check_players(self, scenario: Any, players: dict[str, str]) -> None:
        """Refuse (``ParamError``) a choice of players the scenario cannot be played with."""
        return None

    @abstractmethod
    def new_game(self, scenario: Any, seed: int, options: dict, players: dict[str, str]) -> Any:
        """A game at its start (the game object of the module docstring)."""

    def save_options(self, game: Any) -> dict:
        """The options a save records beside the seed (and ``load_options`` reads back)."""
        return {}

    def load_options(self, doc: dict) -> dict:
        """The options of a save document (``ParamError`` naming the field)."""
        return {}

    # -- the computer player -----------------------------------------------------------------------------
    @abstractmethod
    def ai_step(self, game: Any, side: str) -> tuple[dict | None, list[dict], int | None]:
        """The computer takes one action for ``side``: (the action or None, its events, the state of
        the computer's own dice stream once it had chosen, which the save logs)."""
        ...

    @abstractmethod
    def ai_replay(self, game: Any, side: str, action: dict | None, stream: int) -> None:
        """Replay a logged computer action as it happened, without running the computer player (DESIGN §5);
        ``ParamError`` (field ``action``) if the game does not allow it on replay."""
        ...

    # -- co-op (optional) --------------------------------------------------------------------------------
    def assign_team(self, side: str, scenario: Any, spec: dict) -> Any:
        """A co-op team for ``side`` from ``{"seats": [...]}`` (``ParamError`` naming the field)."""
        raise ParamError("seats", f"the {self.title} rules have no co-op play")

    def check_seat(self, team: Any, game: Any, side: str, seat: str | None, action: Any) -> None:
        """Refuse (``IllegalAction``) an action the seat does not command."""
        return None

    def seats(self, team: Any, game: Any) -> list[dict]:
        return []

    def acting_seat(self, team: Any, game: Any, offer: dict) -> str | None:
        return None

    def team_spec(self, team: Any) -> list:
        return []

    def team_names(self, team: Any) -> list[str]:
        return []

    def has_seat(self, team: Any, seat: str) -> bool:
        return False

    # -- answers beside the game's own (optional) ----------------------------------------------------------
    def previewable(self) -> tuple[str, ...]:
        """The action types ``game.preview`` answers."""
        return ()

    def preview(self, game: Any, side: str, action: dict) -> dict:
        raise LookupError(f"the {self.title} rules preview no odds")

    def line_of_sight(self, game: Any, side: str, a: Any, b: Any) -> dict:
        """``los.check`` between two stand ids or points (``ParamError`` naming ``from`` or ``to``)."""
        raise LookupError(f"line of sight is not available for the {self.title} rules")

    def table_file(self, game: Any) -> str | None:
        """The baked 3D table (.glb) for the client, or None."""
        return None


class OfferRuleset(Ruleset):
    """A ruleset whose game offers its moves and answers its previews itself (One Brain-Cell, Tet '68): the
    game's ``state`` has ``over``, ``to_act`` and ``streams["ai"]``, and its computer picks one of the offers
    (``choose``) without rolling, so the ``ai`` stream is logged as it stands and restored on replay."""

    @abstractmethod
    def choose(self, game: Any, side: str) -> dict:
        """The computer's action for ``side``, which has the move."""
        ...

    def describe(self, sc: Any) -> dict:
        return {"id": sc.id, "title": sc.title, "briefing": sc.briefing, "source": sc.source,
                "table": {"width": sc.width, "height": sc.height}, "turns": sc.turns, "sides": dict(sc.sides)}

    def ai_step(self, game: Any, side: str) -> tuple[dict | None, list[dict], int | None]:
        """The computer's choice among the offers (``choose``), carried out; the ``ai`` stream is untouched
        (the choice rolls nothing), and logged as it stands."""
        if game.state.over or game.state.to_act != side:
            return None, [], game.state.streams["ai"]
        action = self.choose(game, side)
        return action, game.act(side, action), game.state.streams["ai"]

    def ai_replay(self, game: Any, side: str, action: dict | None, stream: int) -> None:
        if action is None:
            if not game.state.over and game.state.to_act == side:
                raise ParamError("action", f"the save says the {side} side had no move, but it has")
            return
        if game.state.over or game.state.to_act != side:
            raise ParamError("action", f"the {side} side does not have the move on replay")
        game.state.streams["ai"] = stream
        game.act(side, action)

    def preview(self, game: Any, side: str, action: dict) -> dict:
        return game.preview(side, action)
