"""The Tet '68 table kit (game.client.kits): the ruined street, its figures, its events and its composer.

The app builds the table with ``scene`` (``TetScene``), plays events with a presenter that knows Tet's
handlers (``events.HANDLERS``), shows the Initiative phase and whose go it is in the status line ("Move
phase, Initiative 2: Sgt Ames to move"), and hands the mouse and the offers to ``TetPlay``. Every frame
the pointer cuts away the walls between the camera and what is looked at (the selected figure, else the
mouse); ``C`` cuts them all. No first-turn guide and no tunnels here.
"""

from __future__ import annotations

from game.client.hud import INK, SIDE_INK
from game.client.kits import ComposerKit
from game.client.tet.play import TetPlay
from game.client.tet.words import go_line, turn_line


class TetKit(ComposerKit):
    ruleset = "tet68"
    title = "Tet '68 house clearing"

    def __init__(self):
        self.play: TetPlay | None = None

    # -- the table ---------------------------------------------------------------------------------
    def scene(self, app, view: dict):
        from game.client.tet.scene import TetScene

        scene = TetScene(app.render, view, app.settings, app.library)
        scene.banner = lambda text, color: app.hud.banner(text, color) if app.hud is not None else None
        self.play = TetPlay(app)

        def labels(task):  # every frame: the names no bigger than the men close to (figures.fit_labels)
            if app.scene is not scene:  # this table is gone
                return task.done
            scene.pieces.fit_labels(app.base.camera.get_pos(app.render))
            return task.cont

        app.base.task_mgr.add(labels, f"tet-labels-{id(scene)}")
        return scene

    def apply_view(self, app, view: dict) -> None:
        app.scene.apply_view(view)
        app.scene.pieces.apply_view(view)
        app.hud.tray_rows = lambda events: self.tray_rows(app, events)  # d100 and d6 "or less" (tray.py)
        to_act = view.get("to_act")
        app.hud.show_status(turn_line(view), SIDE_INK.get(to_act, INK) if to_act == app.viewing else INK)
        self.pointer(app, None)

    def handlers(self) -> dict:
        from game.client.tet.events import HANDLERS

        return HANDLERS

    def briefing(self, view: dict) -> dict:
        """The scenario's own words say how it is won (G-41); the card adds the turns, not VP."""
        sc = view.get("scenario", {})
        return {**sc, "victory": f"{view.get('turns', '?')} turns. {len(sc.get('buildings') or [])} houses to clear."}

    def side_names(self, view: dict) -> dict[str, str] | None:
        return (view.get("scenario") or {}).get("sides") or None

    def result_text(self, result: dict) -> str:
        cleared = [str(b).replace("_", " ") for b in result.get("cleared") or []]
        return f"{result.get('reason', '')}\nhouses cleared: {', '.join(cleared) or 'none'}"

    def tray_rows(self, app, events: list[dict]) -> list[dict]:
        """The rolls as Tet '68 reads them: a d100 or a d6 against a number or less (tray.py)."""
        from game.client.tet.tray import tray_rows

        figures = (app.view or {}).get("figures") or []
        return tray_rows(events, {f["id"]: f.get("name", f["id"]) for f in figures},
                         {f["id"]: f.get("side") for f in figures})

    def prompt(self, app) -> str:
        if not app.actions:
            return ""
        names = {f["id"]: f.get("name", f["id"]) for f in app.view.get("figures") or []}
        acting = [a for a in app.view.get("acting") or [] if any(o.get("figure") == a for o in app.actions)]
        hint = f"   click {names.get(acting[0], acting[0])}" if acting else "   choose in the panel"
        return go_line(app.view, names) + hint

    def pointer(self, app, at) -> None:
        scene = app.scene
        if scene is None or self.play is None:
            return
        from game.client.tet.scene import AT_OPENING

        sel = scene.pieces.selected
        p = scene.pieces.position(sel) if sel else None
        target = (p.x, p.y) if p is not None else at
        pose = (scene.pieces.elements.get(sel) or {}).get("pose") if p is not None else None
        behind = AT_OPENING if pose in ("at_window", "leaning") else 0.05  # he keeps the wall he looks out of
        scene.cut_toward(target, app.base.camera.get_pos(app.render), behind)

    def lift(self, app) -> None:
        cut = app.scene.toggle_cut_all()
        app.hud.set_prompt("Walls cut down (C: stand them up)" if cut else "Walls standing, cut only toward the "
                           "selected figure or the mouse (C)")
        self.pointer(app, None)
