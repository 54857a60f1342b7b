"""What an AI side may look at: its view, its legal actions, and the questions a human may ask.

``SideView`` is the only thing the AI's decision code (``ghost.py``, ``autopilot.py``) receives. It is
built from ``game.view(side)`` and ``game.legal_actions(side)`` (DESIGN §6), plus:

* ``preview(action)``: the exact odds of one of the side's own candidate fire or assault actions
  (``odds.preview``, what a player gets from ``game.preview``);
* ``check(action)``: whether a proposed action would be accepted, and why not: the rules' own check,
  ``Game.check``, which ``Game.act`` makes first and which changes nothing (a client's move ghost asks
  the same). The AI holds no copy of the rules; a refusal says only what the side may know (DESIGN §6:
  the engine refuses a hidden enemy id exactly as an id that names nothing);
* ``terrain(x, y)`` and ``stand_type(type)``: the table's printed terrain and the published stand
  cards, both public scenario and rulebook data;
* ``below(n)`` / ``uniform()``: draws from the game's ``ai`` dice stream only, so the AI's thinking
  never shifts a combat die (DESIGN §5).

It holds no reference to the game state as an attribute: the engine is reached only through the
closures above, and the test suite checks that nothing the AI receives carries a hidden fact.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game.rules.offers import thaw

if TYPE_CHECKING:
    from game.rules.game import Game


class SideView:
    """One AI side's window on a game, for one decision."""

    __slots__ = ("side", "view", "actions", "threat", "_preview", "_check", "_terrain", "_stand", "_below",
                 "_uniform")

    def __init__(self, side: str, view: dict, actions: list[dict], threat: int,
                 preview: Callable[[dict], dict], check: Callable[[dict], str | None],
                 terrain: Callable[[float, float], dict], stand: Callable[[str], dict],
                 below: Callable[[int], int], uniform: Callable[[], float]):
        self.side = side
        self.view = view
        """``game.view(side)``: what this side knows now."""
        self.actions = actions
        """``game.legal_actions(side)``."""
        self.threat = threat
        """The Threat Level the game was set up with (DD-10.5), a public game setting."""
        self._preview, self._check = preview, check
        self._terrain, self._stand = terrain, stand
        self._below, self._uniform = below, uniform

    @classmethod
    def of(cls, game: Game, side: str) -> SideView:
        from game.rules import odds
        from game.rules.errors import IllegalAction

        def preview(action: dict) -> dict:
            return odds.preview(game, side, action)

        def check(action: dict) -> str | None:
            try:
                game.check(side, action)  # the rules' one check (game/rules/game.py), nothing changed
            except IllegalAction as exc:
                return exc.reason
            return None

        def terrain(x: float, y: float) -> dict:
            hits = game.table.features_at(x, y)
            ground = [h.terrain for h in hits if not h.terrain.overlay]
            t = ground[-1] if ground else game.table.open
            over = [h.terrain for h in hits if h.terrain.overlay]
            best = max([t, *over], key=lambda tt: ("open", "water", "light", "medium", "heavy").index(tt.cover))
            return {"id": t.id, "cover": best.cover, "dense": t.dense, "save": best.save, "move": t.move,
                    "trail": any(o.trail for o in over), "water": t.water}

        def stand(type_id: str) -> dict:
            t = game.book.stands[type_id]
            return {"fp": t.fp, "range": t.range, "hits": t.hits, "role": t.role, "base": t.base}

        # Both are the AI's own: ``game.view`` builds a view that shares nothing with the state, and
        # ``game.legal_actions`` hands out read-only offers the engine keeps: the AI gets its own copy of
        # them (``offers.thaw``), to change as it likes (tests/ai/test_boundary.py).
        view = game.view(side)
        # The scenario's objectives are printed in the scenario (public), like its terrain.
        view["scenario"]["objectives"] = [
            {"id": o.id, "name": o.name, "side": o.side, "kind": o.kind, "vp": o.vp,
             "polygon": [list(p) for p in o.polygon]} for o in getattr(game.scenario, "objectives", ())]
        # So are its fire support rows (DD-8.3: what each side has on call; the calls themselves stay
        # secret), and the fire-support tables are the published rulebook (G-19, DD-8.6-8.9).
        view["scenario"]["support"] = [{"side": s.side, "asset": s.asset, "missions": s.missions}
                                       for s in getattr(game.scenario, "support", ())]
        view["fire_support"] = fire_support_tables(game)
        return cls(side, view, thaw(game.legal_actions(side)),
                   int(getattr(game.state, "threat", 2)), preview, check, terrain, stand,
                   lambda n: game.dice.below(n, "ai"), lambda: game.dice.uniform("ai"))

    # -- asking the engine, like a player ------------------------------------------------------------
    def preview(self, action: dict) -> dict | None:
        """The odds of a candidate fire/assault action, or None if the engine refuses it."""
        from game.rules.errors import IllegalAction

        try:
            return self._preview(action)
        except IllegalAction:
            return None

    def check(self, action: dict) -> str | None:
        """None if the engine would accept the action now, else its reason."""
        return self._check(action)

    def terrain(self, x: float, y: float) -> dict:
        return self._terrain(x, y)

    def stand_type(self, type_id: str) -> dict:
        return self._stand(type_id)

    def below(self, n: int) -> int:
        return self._below(n)

    def uniform(self) -> float:
        return self._uniform()


_FS_TABLES: dict[int, tuple] = {}


def fire_support_tables(game: Game) -> dict:
    """The published fire-support tables (``game/data/fire_support.toml``: DD-8.6-8.9, G-19, G-37), as
    plain data the AI may read: each section (``mission``: ``danger_close``, the scatter die; ``air``:
    the Pass Deviation Roll...) and the rows of the assets the scenario has on call and of the on-board
    mortars. Built fresh for each view (the AI may scribble on its copy) from a frozen cache per rulebook."""
    import dataclasses

    from game.rules.chapters import tables

    r = tables(game.book, "fire_support")
    frozen = _FS_TABLES.get(id(r))
    if frozen is None or frozen[0] is not r:
        def deep(v):
            return tuple(deep(x) for x in v) if isinstance(v, (list, tuple)) else v

        def freeze(obj) -> tuple:
            return tuple((k, deep(v)) for k, v in dataclasses.asdict(obj).items())

        sections = tuple((fd.name, freeze(getattr(r, fd.name))) for fd in dataclasses.fields(r)
                         if fd.name != "assets" and dataclasses.is_dataclass(getattr(r, fd.name)))
        frozen = (r, sections, tuple((a.id, freeze(a)) for a in r.assets.values()))
        _FS_TABLES[id(r)] = frozen

    def melt(v):
        return [melt(x) for x in v] if isinstance(v, tuple) else v

    def thaw(items: tuple) -> dict:
        return {k: melt(v) for k, v in items}

    # The asset rows this game can use: those the scenario puts on call, and the on-board mortars (G-37).
    wanted = {sup.asset for sup in getattr(game.scenario, "support", ())}
    out = {name: thaw(items) for name, items in frozen[1]}
    out["assets"] = {aid: thaw(items) for aid, items in frozen[2]
                     if aid in wanted or dict(items).get("kind") == "onboard"}
    from game.rules.fire import combat

    out["mission"]["danger_close"] = combat().danger_close.reach  # DD-8.9: combat.toml [danger_close]
    return out


def facade_fields(f: SideView) -> dict[str, Any]:
    """Every data field the AI receives (for the boundary test)."""
    return {"side": f.side, "view": f.view, "actions": f.actions, "threat": f.threat}
