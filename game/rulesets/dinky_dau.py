"""Dinky Dau (DD chapters 1-10 and the Tunnel Warfare module) behind the ruleset seam: the engine's
calls answered by ``game.rules`` as they always were (``game.rules.game.Game`` is the game object)."""

from __future__ import annotations

from typing import Any

from game.rulesets import register
from game.rulesets.base import ParamError, Ruleset


class DinkyDau(Ruleset):
    id = "dinky_dau"
    title = "Dinky Dau"
    sides = ("allied", "insurgent")
    default_players = {"allied": "human", "insurgent": "ai"}

    # -- scenarios -------------------------------------------------------------------------------------
    def build_scenario(self, raw: dict, where: str, text: str | None = None) -> Any:
        from game.rules.scenario import build_scenario

        return build_scenario(raw, where, text)

    def owns(self, scenario: Any) -> bool:
        from game.rules.scenario import Scenario

        return isinstance(scenario, Scenario)

    def describe(self, sc: Any) -> dict:
        return {"id": sc.id, "title": sc.title, "briefing": sc.briefing, "source": sc.source,
                "table": {"width": sc.width, "height": sc.height}, "turns": sc.turns,
                "sides": {sid: side.name for sid, side in sc.sides.items()}}

    # -- games -----------------------------------------------------------------------------------------
    def options(self, params: dict) -> dict:
        threat = params.get("threat", 2)
        if not isinstance(threat, int) or isinstance(threat, bool):
            raise ParamError("threat", f"param 'threat' should be int, got {type(threat).__name__}")
        if threat not in (1, 2, 3):
            raise ParamError("threat", f"param 'threat' must be 1, 2 or 3 (DD-10.5), got {threat}")
        return {"threat": threat}

    def check_players(self, scenario: Any, players: dict[str, str]) -> None:
        if scenario.solo_only and players["insurgent"] != "ai":
            raise ParamError("players.insurgent",
                             f"players.insurgent: '{scenario.id}' is a solo table: its only Insurgent force is the "
                             f"Jungle Ghost's Shadow Blinds (DD-10.3), so the Insurgent side must be 'ai'")

    def new_game(self, scenario: Any, seed: int, options: dict, players: dict[str, str]) -> Any:
        from game.rules.players import new_game

        return new_game(scenario, seed, options.get("threat", 2), players)

    def save_options(self, game: Any) -> dict:
        return {"threat": game.state.threat}

    def load_options(self, doc: dict) -> dict:
        threat = doc.get("threat", 2)
        if threat not in (1, 2, 3) or isinstance(threat, bool):
            raise ParamError("threat", f"field 'threat' must be 1, 2 or 3, got {threat!r}")
        return {"threat": threat}

    # -- the computer player -----------------------------------------------------------------------------
    def ai_step(self, game: Any, side: str) -> tuple[dict | None, list[dict], int | None]:
        from game.ai import players as ai_players

        return ai_players.take_turn(game, side)

    def ai_replay(self, game: Any, side: str, action: dict | None, stream: int) -> None:
        from game.rules.players import ai_may_act, before_ai_acts

        before_ai_acts(game)  # the rules' own steps before a computer side chooses (DD-10.6-10.8)
        if action is None:
            if ai_may_act(game, side):
                raise ParamError("action", f"the save says the {side} side had no move, but it has")
            game.dice.streams["ai"] = stream
            return
        if not ai_may_act(game, side):
            raise ParamError("action", f"the {side} side does not have the move on replay")
        game.dice.streams["ai"] = stream
        game.act(side, action)

    # -- co-op (DD-10.16) ----------------------------------------------------------------------------------
    def assign_team(self, side: str, scenario: Any, spec: dict) -> Any:
        from game.rules import coop

        try:
            return coop.assign(side, scenario.elements, spec)
        except coop.CoopError as exc:
            raise ParamError(exc.field, exc.message) from exc

    def check_seat(self, team: Any, game: Any, side: str, seat: str | None, action: Any) -> None:
        from game.rules import coop

        coop.check(team, game, side, seat, action)

    def seats(self, team: Any, game: Any) -> list[dict]:
        from game.rules import coop

        return coop.describe(team, game)

    def acting_seat(self, team: Any, game: Any, offer: dict) -> str | None:
        from game.rules import coop

        who = coop.acting(team, game, offer)
        return who[0].name if who else None

    def team_spec(self, team: Any) -> list:
        return team.spec()

    def team_names(self, team: Any) -> list[str]:
        return team.names()

    def has_seat(self, team: Any, seat: str) -> bool:
        return team.seat(seat) is not None

    # -- answers beside the game's own -------------------------------------------------------------------
    def previewable(self) -> tuple[str, ...]:
        """The core's and each chapter action with its own odds (``odds.previewable()``)."""
        from game.rules import odds

        return odds.previewable()

    def preview(self, game: Any, side: str, action: dict) -> dict:
        from game.rules import odds

        return odds.preview(game, side, action)

    def line_of_sight(self, game: Any, side: str, a: Any, b: Any) -> dict:
        """DD-4.1: between stands the side can see (by id) or points [x, y]."""

        def point(name: str, ref: Any):
            if isinstance(ref, str):
                st = game.state.stands.get(ref)
                visible_ids = {x["id"] for x in game.view(side)["stands"]}
                if st is None or not st.alive or ref not in visible_ids:
                    raise ParamError(name, f"param '{name}': no stand '{ref[:60]}' that the {side} side can see")
                return ("stand", st)
            if isinstance(ref, tuple):
                return ("point", ref)
            raise ParamError(name, f"param '{name}' should be a stand id or a point [x, y]")

        pa, pb = point("from", a), point("to", b)
        try:
            if pa[0] == "stand" and pb[0] == "stand":
                res = game.line_of_sight(pa[1], pb[1])
            else:
                def xy(p):
                    return (p[1].x, p[1].y) if p[0] == "stand" else p[1]

                res = game.los_table().check_points(xy(pa), xy(pb), game.conditions())
        except ValueError as exc:
            raise ParamError("to", str(exc)) from exc
        return res.to_dict()

    def table_file(self, game: Any) -> str | None:
        from game.world.bake import baked_path

        return str(baked_path(game.scenario, game.book))


DINKY_DAU = register(DinkyDau())
