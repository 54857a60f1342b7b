"""The table kits: what the client draws and how it plays, one kit per ruleset the engine hosts.

The view names its ruleset (``view["ruleset"]``; a Dinky Dau view from before the seam names none). The
app asks ``kit_for(ruleset)`` for the kit when it builds a table and from then on asks the kit for what
differs between rule systems: the scene (the table, its pieces, its effects layer), what a view changes on
it, the presenter's handlers for the ruleset's events, the HUD's status line and prompt, the first-turn
guide, the dice tray's rows, the mouse pointer's use over the table, and the keys that lift things off the table.

Interaction hooks (``click``, ``hover``, ``choose``, ``confirm``, ``cancel``, ``select``, ``refresh_panel``,
``clear``) return True when the kit took the input; Dinky Dau's kit takes none, so the app's own composer
(app.py: offers into actions by their parameters' kinds) plays it. A kit for another ruleset brings its own
composer (``game.client.tet.play`` for Tet '68; ``ComposerKit`` hands it the input). A kit never decides a
rule: it asks the engine through the app's link like everything else in the client.

A scene a kit builds offers what the app and the presenter use: ``root``, ``table`` (``width``,
``height``, ``height_at``), ``pieces`` (``selected``, ``elements``, ``element_centre``, ``labels_visible``,
``set_labels_visible``, ``pick``, ``view``, ``library``, ``blinds``), ``overlays``, ``effects.root``,
``background``, ``apply_view``, ``geom_count`` and ``destroy``.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable


class TableKit(ABC):
    """The hooks the app asks of a ruleset's table; the defaults take no input and draw nothing extra."""

    ruleset = ""
    title = ""

    # -- the table ---------------------------------------------------------------------------------
    @abstractmethod
    def scene(self, app, view: dict):
        """The table's scene for the game's first view."""

    def apply_view(self, app, view: dict) -> None:
        """What a view changes on the table (the pieces, the markers), and the HUD's status line."""
        return None  # an optional hook: by default nothing

    @abstractmethod
    def presenter(self, app):
        """The presenter that plays this ruleset's events on the app's scene."""

    def guide(self, app):
        """The first-turn hints, or None."""
        return None

    def briefing(self, view: dict) -> dict:
        """What the briefing card reads (briefing.py): the view's scenario."""
        return view.get("scenario", {})

    def side_names(self, view: dict) -> dict[str, str] | None:
        """The sides' names for the end of the game (None: the HUD's)."""
        return None

    def result_text(self, result: dict) -> str:
        """The end of the game in words, under who won."""
        return f"{result.get('reason', '')}\nVP {json.dumps(result.get('vp', {}))}"

    def tray_rows(self, app, events: list[dict]) -> list[dict]:
        """The dice tray's rows for a batch of events (hud.roll_rows: Dinky Dau's dice, need N+); a kit
        whose rolls read otherwise overrides it, and ``apply_view`` hands it to the HUD (``Hud.tray_rows``)."""
        from game.client.hud import roll_rows

        return roll_rows(events)

    def prompt(self, app) -> str:
        """The prompt when the side on screen gets its offers."""
        return f"{app.viewing.capitalize()}: your go" if app.actions else ""

    def pointer(self, app, at: tuple[float, float] | None) -> None:
        """The mouse is over the table at ``at`` (None: off the window), every frame."""
        return None  # an optional hook: by default nothing

    def lift(self, app) -> None:
        """C: lift what hides the pieces off the table, or put it back."""
        return None  # an optional hook: by default nothing

    def below(self, app) -> str | None:
        """U: the view below the table, where the ruleset has one; the prompt to show."""
        return None

    # -- interaction: True when the kit took it ------------------------------------------------------
    def click(self, app, ray) -> bool:
        return False

    def hover(self, app) -> bool:
        return False

    def choose(self, app, action: dict) -> bool:
        return False

    def confirm(self, app) -> bool:
        return False

    def cancel(self, app) -> bool:
        return False

    def select(self, app, ident: str | None) -> bool:
        return False

    def refresh_panel(self, app) -> bool:
        return False

    def clear(self, app) -> None:
        """The game is going: drop whatever is being composed."""
        return None  # an optional hook: by default nothing


class ComposerKit(TableKit):
    """A kit that brings its own composer (``self.play``, made with the scene: ``click``, ``hover``,
    ``choose``, ``confirm``, ``cancel``, ``select``, ``refresh_panel``) and its presenter's ``handlers``;
    the app's line-of-sight tool and tape keep the mouse while one is out (``app.tool``)."""

    play = None

    @abstractmethod
    def handlers(self) -> dict:
        """The presenter's handlers for the ruleset's events."""

    def presenter(self, app):
        from game.client.presenter import Presenter

        return Presenter(app.scene, app.library, app.sound, app.shake, app.base.camera,
                         on_error=app.report_fault, handlers=self.handlers())

    def click(self, app, ray) -> bool:
        if app.tool is not None:
            return False
        self.play.click(ray)
        return True

    def hover(self, app) -> bool:
        if app.tool is not None:
            return False
        self.play.hover()
        return True

    def choose(self, app, action: dict) -> bool:
        self.play.choose(action)
        return True

    def confirm(self, app) -> bool:
        return self.play.confirm()

    def cancel(self, app) -> bool:
        if self.play.cancel():
            return True
        if app.scene is not None and app.scene.pieces.selected:
            self.select(app, None)
            return True
        return False

    def select(self, app, ident: str | None) -> bool:
        self.play.select(ident)
        return True

    def refresh_panel(self, app) -> bool:
        self.play.refresh_panel()
        return True

    def clear(self, app) -> None:
        if self.play is not None and app.scene is not None:
            self.play.cancel(keep_prompt=True)


class DinkyDauKit(TableKit):
    """Dinky Dau: the flocked table with its terrain, stands and set pieces; the app's composer plays it."""

    ruleset = "dinky_dau"
    title = "Dinky Dau"

    def scene(self, app, view: dict):
        from game.client.scene import TableScene

        return TableScene(app.render, view.get("scenario", {}), app.settings, app.library)

    def apply_view(self, app, view: dict) -> None:
        app.scene.apply_view(view)
        app.scene.pieces.apply_view(view)
        app.scene.underground.apply_view(view)  # the tunnels beneath (DD chapter 9B, TUN)
        from game.client.underground import sync_button

        sync_button(app)
        app.hud.set_status(view, app.viewing, app.mode)

    def presenter(self, app):
        from game.client.presenter import Presenter

        return Presenter(app.scene, app.library, app.sound, app.shake, app.base.camera,
                         on_error=app.report_fault)

    def guide(self, app):
        from game.client.guide import FirstTurnGuide
        from game.client.hud import ACCENT, DIM, INK

        return FirstTurnGuide(app, app.hud.top_centre, app.hud.font, INK, DIM, ACCENT)

    def prompt(self, app) -> str:
        return f"{app.viewing.capitalize()}: your impulse - click one of your elements" if app.actions else ""

    def pointer(self, app, at) -> None:
        # the trees clear round the mouse pointer, so a stand in a wood is found
        app.scene.flora.set_pointer(*(at or (None, None)))

    def lift(self, app) -> None:
        app.scene.flora.toggle()

    def below(self, app) -> str | None:
        from game.client.underground import cycle

        return cycle(app)


KITS: dict[str, Callable[[], TableKit]] = {}


def register(ruleset: str, make: Callable[[], TableKit]) -> None:
    KITS[ruleset] = make


def _tet68() -> TableKit:
    from game.client.tet.kit import TetKit

    return TetKit()


register("dinky_dau", DinkyDauKit)
register("tet68", _tet68)
register("obc", lambda: __import__("game.client.obc.kit", fromlist=["ObcKit"]).ObcKit())

DRAWS = tuple(KITS)
"""The rulesets this client draws (the engine may host more: engine.hello lists them)."""


def kit_for(ruleset: str | None) -> TableKit:
    """The kit for a view's ruleset (a view naming none is Dinky Dau's); KeyError names one not drawn."""
    name = ruleset or "dinky_dau"
    if name not in KITS:
        raise KeyError(f"this client draws no {name!r} table (it draws {', '.join(DRAWS)})")
    return KITS[name]()
