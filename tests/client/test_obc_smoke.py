"""One Brain-Cell's mortar smoke on the 3D table (OBC-39): a cloud the view lists stands from where the round
landed to its downwind end, and goes when the view no longer lists it; the round's ``smoke`` event billows
along the same line."""

from __future__ import annotations

import math

from game.client import presenter as pr
from game.client.obc.events import HANDLERS, LOG_ONLY
from game.client.obc.figures import cloud_puffs

from .test_obc_table import open_lz, still


def test_a_smoke_cloud_stands_where_the_view_puts_it_and_clears(make_app):  # OBC-39
    app = open_lz(make_app)
    pieces = app.scene.pieces
    cloud = {"id": "smoke_1_1", "from": [20.0, 10.0], "to": [23.0, 12.0], "width": 1.0}
    pieces.apply_view({**app.view, "smoke": [cloud]})
    node = pieces.clouds["smoke_1_1"]
    puffs = node.get_children()
    want = cloud_puffs(cloud)
    assert len(want) == math.ceil(math.dist((20, 10), (23, 12)) / 0.5) + 1 == puffs.get_num_paths()
    first, last = puffs[0].get_pos(app.render), puffs[puffs.get_num_paths() - 1].get_pos(app.render)
    assert (round(first.x, 3), round(first.y, 3)) == (20.0, 10.0) and (round(last.x, 3), round(last.y, 3)) == (23.0, 12.0)
    assert abs(first.z - app.scene.table.height_at(20.0, 10.0)) < 1e-3  # on the ground there
    assert puffs[0].get_scale().x == 0.5  # half the cloud's width either side of its line
    if app.view.get("men"):  # a look at it, beside the Allies' first man (DINKYDAU_OBC_STILLS)
        m = next(m for m in app.view["men"] if m.get("side") == "allied" and m.get("on_table", True))
        pieces.apply_view({**app.view, "smoke": [{**cloud, "id": "look", "from": [m["x"] + 2, m["y"]],
                                                   "to": [m["x"] + 5, m["y"] + 2]}]})
        app.frame_camera(m["id"])
        still(app, "smoke")
    pieces.apply_view({**app.view, "smoke": []})
    assert "smoke_1_1" not in pieces.clouds and node.is_empty()


def test_a_smoke_round_billows_along_its_drift(make_app):  # OBC-39
    assert "smoke" in HANDLERS and "smoke" not in LOG_ONLY
    app = open_lz(make_app)
    stage = pr.Stage(app.presenter, app.scene.effects.root.attach_new_node("test"))
    stage.seed({"type": "smoke"})
    beat = HANDLERS["smoke"](stage, {"type": "smoke", "id": "smoke_1_1", "from": [20.0, 10.0],
                                                   "to": [23.0, 12.0], "width": 1.0, "clause": "OBC-39"})
    assert beat is not None and beat.interval.get_duration() > 1.5  # puffs rise and thin over a second or two
    assert len(beat.interval.ivals) == len(cloud_puffs({"from": [20.0, 10.0], "to": [23.0, 12.0], "width": 1.0})) == 9  # along the drift
