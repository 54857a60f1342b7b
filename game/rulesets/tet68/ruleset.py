"""Tet '68 behind the ruleset seam (game.rulesets.base): its scenarios, games and computer player."""

from __future__ import annotations

from typing import Any

from game.rulesets import register
from game.rulesets.base import OfferRuleset, ParamError


class Tet68(OfferRuleset):
    id = "tet68"
    title = "Tet '68 house clearing"
    sides = ("allied", "insurgent")
    default_players = {"allied": "human", "insurgent": "ai"}

    def build_scenario(self, raw: dict, where: str, text: str | None = None) -> Any:
        from game.rulesets.tet68.scenario import build

        return build(raw, where, text)

    def owns(self, scenario: Any) -> bool:
        from game.rulesets.tet68.scenario import TetScenario

        return isinstance(scenario, TetScenario)

    def action_fields(self) -> dict[str, str]:
        return {"type": "id", "figure": "id", "to": "point", "pose": "id", "target": "id", "auto": "flag", "at": "point"}

    def new_game(self, scenario: Any, seed: int, options: dict, players: dict[str, str]) -> Any:
        from game.rulesets.tet68.game import TetGame

        return TetGame(scenario, seed)

    def choose(self, game: Any, side: str) -> dict:
        from game.rulesets.tet68.ai import choose

        return choose(game, side)

    def line_of_sight(self, game: Any, side: str, a: Any, b: Any) -> dict:
        """TET-16 by ray casts: from a figure of the side (by id) to a figure it can see (its exposure, the
        level the cover roll needs, with the places seen and the walls that hide the rest), or to a point
        (a man standing there). ``ParamError`` names ``from`` or ``to``; a hidden enemy reads as no figure."""
        from game.rulesets.tet68.game import Fig

        figs = game.state.figures
        seen = game.sees(side)

        def figure(name: str, ref: Any, own_only: bool) -> Any:
            if isinstance(ref, str):
                f = figs.get(ref)
                if f is None or not f.man.alive or (f.man.side != side and (own_only or ref not in seen)):
                    what = "of the side" if own_only else "that the side can see"
                    raise ParamError(name, f"param '{name}': no figure '{ref[:60]}' {what}")
                return f
            if own_only:
                raise ParamError(name, f"param '{name}': a figure of the {side} side, by id")
            return Fig(figs[next(iter(figs))].man, float(ref[0]), float(ref[1]), 0.0, "standing")

        firer, target = figure("from", a, True), figure("to", b, False)
        out = game.exposure_of(firer, target).to_dict()
        out["distance"] = round(((firer.x - target.x) ** 2 + (firer.y - target.y) ** 2) ** 0.5, 3)
        out["visible"] = out["exposure"] > 0
        return out

    def previewable(self) -> tuple[str, ...]:
        return ("move", "charge", "fire", "snap_fire", "cone", "launch", "grenade")

    def table_file(self, game: Any) -> str | None:
        """The town baked to glTF (``game.world.ruins``: walls with their doors and windows, the sheets
        that block sight as ``exposure.stops`` does), cached by content hash."""
        from game.world.ruins import town_path

        return str(town_path(game.scenario))


TET68 = register(Tet68())
