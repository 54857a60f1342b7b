"""One Brain-Cell behind the ruleset seam (game.rulesets.base): its scenarios, games, computer player and line
of sight (a man's eye, or a chopper's at its height, by the Dinky Dau world's ray casts)."""

from __future__ import annotations

from typing import Any

from game.rulesets import register
from game.rulesets.base import OfferRuleset, ParamError


class OneBrainCell(OfferRuleset):
    id = "obc"
    title = "The One Brain-Cell Vietnam rules"
    sides = ("allied", "insurgent")
    default_players = {"allied": "human", "insurgent": "ai"}

    def build_scenario(self, raw: dict, where: str, text: str | None = None) -> Any:
        from game.rulesets.obc.scenario import build

        return build(raw, where, text)

    def owns(self, scenario: Any) -> bool:
        from game.rulesets.obc.scenario import ObcScenario

        return isinstance(scenario, ObcScenario)

    def action_fields(self) -> dict[str, str]:
        return {"type": "id", "squad": "id", "man": "id", "vehicle": "id", "target": "id", "into": "id", "call": "id",
                "to": "point", "at": "point", "posture": "id", "run": "flag", "smoke": "flag", "height": "angle"}

    def new_game(self, scenario: Any, seed: int, options: dict, players: dict[str, str]) -> Any:
        from game.rulesets.obc.game import ObcGame

        return ObcGame(scenario, seed)

    def choose(self, game: Any, side: str) -> dict:
        from game.rulesets.obc.ai import choose

        return choose(game, side)

    def line_of_sight(self, game: Any, side: str, a: Any, b: Any) -> dict:
        """From a man or a vehicle of the side (by id; a man aboard sees from its height), or from a point (an
        eye standing there, or at [x, y, z] over the ground), to an enemy it sees
        (by id) or to a point ([x, y]: a man standing there; [x, y, z]: that height over the ground), by the
        world's ray casts (``sight.check``). ``ParamError`` names ``from`` or ``to``; a hidden enemy reads as
        no one."""
        from game.rulesets.obc import sight

        s = game.state
        f = game.t.figure

        def eye(ref: Any) -> tuple[float, float, float]:
            if isinstance(ref, str):
                m, v = s.men.get(ref), s.vehicles.get(ref)
                if m is not None and m.side == side and game.on_table(m) and not m.down:
                    return game.eye_of(m)
                if v is not None and v.side == side and v.able:
                    return (v.x, v.y, v.height + f.eye_standing)
                raise ParamError("from", f"param 'from': no man or vehicle '{ref[:60]}' of the {side} side")
            if len(ref) == 3:
                return (float(ref[0]), float(ref[1]), float(ref[2]))
            return (float(ref[0]), float(ref[1]), f.eye_standing)

        def target(ref: Any) -> tuple[float, float, float]:
            if isinstance(ref, str):
                seen = game.sees(side)
                m, v = s.men.get(ref), s.vehicles.get(ref)
                if m is not None and (m.side == side or ref in seen) and game.on_table(m):
                    return game.body_of(m)
                if v is not None and (v.side == side or ref in seen):
                    return (v.x, v.y, v.height + 0.5)
                raise ParamError("to", f"param 'to': no man or vehicle '{ref[:60]}' that the side can see")
            if len(ref) == 3:
                return (float(ref[0]), float(ref[1]), float(ref[2]))
            return (float(ref[0]), float(ref[1]), f.body_standing)

        e, q = eye(a), target(b)
        for name, p in (("from", e), ("to", q)):
            if not (0 <= p[0] <= game.scenario.width and 0 <= p[1] <= game.scenario.height):
                raise ParamError(name, f"param '{name}': off the table")
        out = sight.check(sight.table(game.scenario), e, q, game.conditions())
        out["eye"], out["target"] = [round(c, 3) for c in e], [round(c, 3) for c in q]
        return out

    def table_file(self, game: Any) -> str | None:
        """The scenario's Dinky Dau features baked to glTF for the client (game.world.bake), cached by hash."""
        from game.world.bake import baked_path

        return str(baked_path(game.scenario))

    def previewable(self) -> tuple[str, ...]:
        return ("move", "fire")


OBC = register(OneBrainCell())
