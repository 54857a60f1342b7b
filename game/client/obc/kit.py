"""The One Brain-Cell table kit (game.client.kits): Dinky Dau's table for the scenario, OBC's men and choppers
on it, its events and the composer.

The app builds the table with ``scene`` (``ObcScene``: the Dinky Dau table, trees and buildings as Dinky Dau
draws them), plays events with a presenter that knows OBC's handlers (``events.HANDLERS``), shows the turn,
whose move it is and which squad is moving in the status line, and hands the mouse and the offers to
``ObcPlay``. ``C`` lifts the trees off the table, as on the Dinky Dau table; the trees clear round the
selected man and the mouse. No first-turn guide and no tunnels here.
"""

from __future__ import annotations

from game.client.hud import INK, SIDE_INK
from game.client.kits import ComposerKit
from game.client.obc.play import ObcPlay
from game.client.obc.words import status_line


class ObcKit(ComposerKit):
    ruleset = "obc"
    title = "One Brain-Cell"

    def __init__(self):
        self.play: ObcPlay | None = None

    def scene(self, app, view: dict):
        from game.client.obc.scene import ObcScene

        scene = ObcScene(app.render, view, app.settings, app.library)
        scene.banner = lambda text, color: app.hud.banner(text, color) if app.hud is not None else None
        self.play = ObcPlay(app)
        return scene

    def apply_view(self, app, view: dict) -> None:
        app.scene.pieces.apply_view(view)
        app.hud.tray_rows = lambda events: self.tray_rows(app, events)  # d6s against a need (tray.py)
        to_act = view.get("to_act")
        app.hud.show_status(status_line(view, app.viewing), SIDE_INK.get(to_act, INK) if to_act == app.viewing else INK)

    def handlers(self) -> dict:
        from game.client.obc.events import HANDLERS

        return HANDLERS

    def briefing(self, view: dict) -> dict:
        sc = view.get("scenario", {})
        orders = "; ".join(f"{q['name']}: {q['order']}" for q in view.get("squads") or [] if q.get("order"))
        return {**sc, "victory": f"{view.get('turns', '?')} turns. 5 for each order achieved, 1 for each enemy "
                                 f"down, -2 for each own man left disabled (G-42). Orders: {orders}"}

    def side_names(self, view: dict) -> dict[str, str] | None:
        return (view.get("scenario") or {}).get("sides") or None

    def result_text(self, result: dict) -> str:
        score = result.get("score") or {}
        parts = [f"{side} {s.get('total', '?')}" for side, s in score.items()]
        return f"{result.get('reason', '')}\n{', '.join(parts)}"

    def tray_rows(self, app, events: list[dict]) -> list[dict]:
        """The rolls as OBC reads them: d6s against a need, half a d6, a scatter's inches (tray.py)."""
        from game.client.obc.tray import tray_rows

        view = app.view or {}
        people = (view.get("men") or []) + (view.get("vehicles") or [])
        return tray_rows(events, {m["id"]: m.get("name", m["id"]) for m in people},
                         {m["id"]: m.get("side") for m in people})

    def prompt(self, app) -> str:
        if not app.actions:
            return ""
        if any(a["type"] == "activate" for a in app.actions):
            return "Your move: choose a squad in the panel"
        return "Click one of the squad's men or choppers (ringed when selected), or Done in the panel"

    def pointer(self, app, at) -> None:
        scene = app.scene
        if scene is None:
            return
        sel = scene.pieces.position(scene.pieces.selected) if scene.pieces.selected else None
        scene.flora.set_pointer(*((sel.x, sel.y) if sel is not None else (at or (None, None))))

    def lift(self, app) -> None:
        app.scene.flora.toggle()
