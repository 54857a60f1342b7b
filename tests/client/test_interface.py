"""The screen a walk-up player reads: the grouped menu beside the selection, Blinds picked on the table,
the briefing card, the first-turn guide, captions, colour-blind-safe colours and ``--no-hud``.

The grouping and caption tests run on offer and event dicts shaped as the engine sends them; the app
tests drive a real engine game through the methods a click uses (``click_at`` via ``click_world``)."""

from __future__ import annotations

import panda3d.core as p3d

from game.client.actions_menu import group_actions, menu_rows
from game.client.captions import caption_parts, short_sentence
from game.client.hud import DIE_HIT, DIE_MISS, SIDE_INK
from game.client.pieces import SIDE_COLORS

from .test_session import click_world, real_engine_or_skip

HQ = [
    {"type": "move", "mode": "patrol", "element": "hq", "cost": 1, "label": "Platoon HQ: Patrol Move up to 6\" (1 CP)"},
    {"type": "move", "mode": "sprint", "element": "hq", "cost": 1, "label": "Platoon HQ: Sprint up to 9\" (1 CP)"},
    {"type": "area_fire", "element": "hq", "cost": 1, "preview": True, "label": "Platoon HQ: Area Suppression (1 CP)"},
    {"type": "spot", "element": "hq", "cost": 1, "label": "Platoon HQ: Spotting Test (1 CP)"},
    {"type": "recon_sweep", "element": "hq", "cost": 2, "label": "Platoon HQ: Platoon Recon Sweep (2 CP)"},
    {"type": "hold", "element": "hq", "cost": 1, "label": "Platoon HQ: Hold / Conceal (1 CP)"},
]
PASS = {"type": "pass", "cost": 0, "label": "Pass the impulse", "params": {}}


def test_offers_group_into_move_fire_spot_special_with_their_price():
    groups = group_actions(HQ + [PASS])
    assert list(groups) == ["Move", "Fire", "Spot", "Special"]
    assert [a["type"] for a in groups["Spot"]] == ["spot", "recon_sweep"]
    rows = menu_rows(HQ, [PASS], choose=lambda a: None, open_group=lambda g: None)
    entries = [(r.label, r.cost, r.note) for r in rows if r.kind == "action"]
    assert ("Patrol Move up to 6\"", "1 CP", "") in entries  # the actor's name and the price in brackets go
    assert ("Area Suppression", "1 CP", "odds") in entries  # the engine previews it: odds before confirming
    assert [r.kind for r in rows][-1] == "side" and rows[-1].label.startswith("Pass the impulse")


def test_a_big_group_collapses_into_one_entry_that_opens():
    moves = [{"type": "blind_move", "blind": f"A{i}", "cost": 1, "label": f"Blind A{i}: Patrol Move (1 CP)"}
             for i in range(9)]
    opened: list = []
    rows = menu_rows(moves, [], choose=lambda a: None, open_group=opened.append)
    assert len(rows) == 1 and rows[0].kind == "group" and "9 ways" in rows[0].label and rows[0].cost == "1 CP"
    rows[0].callback()
    assert opened == ["Move"]
    rows = menu_rows(moves, [], choose=lambda a: None, open_group=opened.append, expanded="Move")
    assert sum(r.kind == "action" for r in rows) == 9 and rows[-1].label.startswith("fewer")


def test_captions_are_short_with_the_number_apart():
    ev = {"type": "roll", "text": "1st Squad spots Blind sb02: needs 5+ on 2d6 after modifiers for the cover "
          "and the range", "need": 5, "clause": "DD-4.12; DD-4.13"}
    sentence, number, clause = caption_parts(ev)
    assert sentence == "1st Squad spots Blind sb02" and number == "needs 5+" and clause == "DD-4.12"
    long = short_sentence("word " * 40)
    assert len(long) <= 60 and long.endswith("…")


def test_sides_and_dice_use_colour_blind_safe_colours():
    def hexed(c):
        return "#" + "".join(f"{round(v * 255):02X}" for v in c[:3])

    assert hexed(SIDE_INK["allied"]) == hexed(SIDE_COLORS["allied"]) == "#56B4E9"
    assert hexed(SIDE_INK["insurgent"]) == hexed(SIDE_COLORS["insurgent"]) == "#E69F00"
    assert hexed(DIE_HIT) == "#F0E442" and hexed(DIE_MISS) == "#4D4D4D"


def _open(make_app, scenario="search_and_destroy", size=(640, 360)):
    from game.client.presenter import INSTANT

    app = make_app(size=size)
    app.open_game_sync(scenario, seed=3)
    app.autosave_enabled = False
    app.presenter.set_speed(INSTANT)
    app.frame_camera("overview")
    app.settle()
    return app


def _inside_window(app) -> bool:
    """The menu's frame lies inside the window (aspect2d: x within the aspect ratio, y within 1)."""
    w, h = app.base.win.get_x_size(), app.base.win.get_y_size()
    aspect = w / h
    lo, hi = p3d.LPoint3(), p3d.LPoint3()
    app.hud.panel.calc_tight_bounds(lo, hi, app.base.aspect2d)
    return -aspect - 0.01 <= lo.x and hi.x <= aspect + 0.01 and -1.01 <= lo.z and hi.z <= 1.01


def test_the_menu_stands_beside_the_selected_element_inside_the_window(make_app):
    real_engine_or_skip()
    app = _open(make_app)
    hq = app.scene.pieces.stands[app.scene.pieces.elements["hq"]["stands"][0]].node.get_pos()
    click_world(app, hq.x, hq.y, hq.z + 0.1)
    assert app.scene.pieces.selected is not None
    app.settle()
    texts = [b["text"] for b in app.hud.buttons]
    assert any("Spotting Test" in t for t in texts) and any(t.startswith("Pass the impulse") for t in texts)
    assert not any(":" in t.split("\n")[0][:20] for t in texts if "Blind" not in t)  # no actor's name in front
    assert _inside_window(app)
    px = app._menu_anchor()
    lo, hi = p3d.LPoint3(), p3d.LPoint3()
    app.hud.panel.calc_tight_bounds(lo, hi, app.base.render2d)
    w = app.base.win.get_x_size()
    left, right = (lo.x + 1) / 2 * w, (hi.x + 1) / 2 * w
    assert right < px[0] or left > px[0], (left, right, px)  # beside the element, not over it
    # a move shows its ring on the table: the menu steps aside
    move = next(a for a in app.element_actions(app.scene.pieces.selected) if a["type"] == "move")
    app.choose_action(move)
    assert app.hud.panel.is_hidden() and app.pending["ghost"] is not None


def test_a_blind_marker_is_picked_on_the_table_like_a_stand(make_app):
    real_engine_or_skip()
    app = _open(make_app, "rubber_plantation")
    own = [b for b in app.view["blinds"] if b.get("side") == app.viewing]
    empty = [b for b in own if not any(e.get("blind") == b["id"] for e in app.view["elements"])]
    assert empty, "the scenario has a Dummy among the Allied Blinds"
    for b in (empty[0], next(b for b in own if b not in empty)):
        app.select_element(None)
        p = app.scene.pieces.blinds[b["id"]].get_pos()
        click_world(app, p.x, p.y, p.z + 0.05)
        texts = [t["text"] for t in app.hud.buttons]
        assert any("Patrol Move" in t for t in texts), (b["id"], texts)
        assert app.selected_blind == b["id"] or app.scene.pieces.elements[app.scene.pieces.selected]["blind"] == b["id"]
        assert app.scene.pieces.selection is not None  # ringed on the table
        assert _inside_window(app)


def test_briefing_card_first_turn_guide_and_a_clean_screenshot(make_app, tmp_path):
    real_engine_or_skip()
    app = _open(make_app)
    app.toggle_briefing()
    assert app.briefing.open
    assert not app.hud.panel.is_hidden()
    app.on_click()  # "Click to begin"
    assert not app.briefing.open
    app.toggle_briefing()
    app.confirm()  # a key puts it away too
    assert not app.briefing.open

    guide = app.guide
    assert guide.hint()[0] == "Click one of your squads"
    lead = app.scene.pieces.stands[app.scene.pieces.elements["sq1"]["stands"][0]].node.get_pos()
    click_world(app, lead.x, lead.y, lead.z + 0.1)
    assert app.scene.pieces.selected == "sq1"
    assert guide.hint()[0].startswith("Spot")  # an Echo is in sight: spot it before crossing
    move = next(a for a in app.element_actions("sq1") if a["type"] == "move")
    app.choose_action(move)
    assert guide.hint()[0] == "Click a point inside the ring"
    app.cancel()
    guide.note("acted", {"type": "spot"})
    assert guide.hint()[0].startswith("Move")
    guide.toggle()
    guide.refresh()
    assert guide.root.is_hidden()  # G: skipped

    app.screenshot(str(tmp_path / "clean.png"), hud=False)
    assert not app.base.render2d.is_hidden()  # one picture without the interface, then it is back


def test_no_hud_draws_nothing_in_aspect2d(make_app, tmp_path):
    real_engine_or_skip()
    from game.client.app import DinkyDauApp
    from game.client.settings import ClientSettings

    app = DinkyDauApp(ClientSettings(size=(320, 180), offscreen=True, hud=False))
    try:
        app.open_game_sync("search_and_destroy", seed=3)
        app.select_element("hq")
        app.settle()
        assert app.hud is not None and app.base.render2d.is_hidden()  # the interface is built, never drawn
        assert not app.base.aspect2d.find_all_matches("**/hud").is_empty()  # it is there, under a hidden root
        assert all(label.is_hidden() for label in app.scene.pieces.labels.values())  # no names on the table
        app.screenshot(str(tmp_path / "clean.png"))
        assert (tmp_path / "clean.png").stat().st_size > 0
    finally:
        app.shutdown()
