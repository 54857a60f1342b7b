"""One Brain-Cell's chopper heights on the 3D table: the buttons are the heights the engine offers in the
move's params (OBC-13), one each, the chopper's own height the Enter key's; nothing is chosen by the table."""

from __future__ import annotations

import os
from pathlib import Path

from game.client.obc.play import height_words

from .test_obc_table import click_world, offer, open_lz

STILLS = os.environ.get("DINKYDAU_OBC_STILLS")


def test_the_height_buttons_are_the_engines_offer(make_app):  # OBC-13
    app = open_lz(make_app, size=(1280, 720))
    app.choose_action(offer(app, "activate", squad="chalk_1"))
    app.settle()
    move = offer(app, "move", vehicle="huey_1")
    spec = move["params"]["height"]
    assert spec["kind"] == "choice" and spec["default"] == 12.0 and 0.0 in spec["choices"]
    shown = []
    real = app.hud.show_panel
    app.hud.show_panel = lambda title, body, rows, **kw: (shown.append([r[0] for r in rows]), real(title, body, rows, **kw))
    app.choose_action(move)
    click_world(app, 16.0, 14.0, app.scene.table.height_at(16.0, 14.0))
    assert app.kit.play.pending["todo"][0][0] == "height"
    assert shown[-1] == [height_words(h, 12.0) for h in spec["choices"]] + ["Cancel"]
    assert shown[-1][0] == 'set down (0")' and 'as it is (12") (Enter)' in shown[-1]
    if STILLS:
        app.settle(frames=4)
        app.screenshot(str(Path(STILLS) / "heights.png"))
    assert app.kit.play.confirm()  # Enter: as it is
    assert app.kit.play.pending is None or app.kit.play.pending["values"].get("height") == 12.0
