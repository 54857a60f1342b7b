"""Combat on the table: effects driven by engine events appear and clean up; the dice tray reads a pool;
the odds in plain words; every parameter kind filled with the mouse against the real engine process."""

from __future__ import annotations

import panda3d.core as p3d

from game.client.hud import describe_odds, roll_rows

from .fake_engine import FakeEngine
from .test_session import click_world, real_engine_or_skip

COMBAT = [
    {"seq": 1, "type": "fire", "kind": "aimed", "side": "allied", "element": "a_sq1", "target": "i_c1.1",
     "target_element": "i_c1", "dice": 4, "text": "1st Squad fires at VC Cell 1"},
    {"seq": 2, "type": "roll", "purpose": "to hit", "side": "allied", "element": "a_sq1", "dice": [4, 2, 6, 5],
     "target": 4, "need": 4, "result": 3, "modifiers": [], "text": "4 FP dice, 4+: rolled [4, 2, 6, 5]: 3 hits"},
    {"seq": 3, "type": "roll", "purpose": "save", "side": "insurgent", "element": "i_c1", "stand": "i_c1.1",
     "dice": [2], "target": 6, "need": 6, "result": "fail", "modifiers": [], "text": "not saved"},
    {"seq": 4, "type": "roll", "purpose": "save", "side": "insurgent", "element": "i_c1", "stand": "i_c1.2",
     "dice": [6], "target": 6, "need": 6, "result": "pass", "modifiers": [], "text": "saved"},
    {"seq": 5, "type": "hit", "stand": "i_c1.1", "element": "i_c1", "hits": 1, "ring": True, "text": "ring"},
    {"seq": 6, "type": "casualty", "stand": "i_c1.2", "element": "i_c1", "token": "cas", "state": "communist",
     "x": 47, "y": 31, "text": "removed"},
    {"seq": 7, "type": "template", "kind": "beaten_zone", "element": "a_sq2", "x": 36, "y": 40, "radius": 1.5,
     "text": "Beaten zone"},
    {"seq": 8, "type": "template", "kind": "backblast", "element": "a_sq2",
     "polygon": [[8, 16], [6, 15], [6, 17]], "text": "Backblast"},
    {"seq": 9, "type": "template", "kind": "grazing_corridor", "element": "a_sq2", "from": [8, 16], "to": [36, 40],
     "width": 1.0, "text": "Grazing"},
    {"seq": 10, "type": "smoke", "kind": "dust", "id": "d1", "x": 7, "y": 15, "radius": 1.0, "text": "dust"},
    {"seq": 11, "type": "structure", "feature": "hootch1", "state": "rubble", "x": 46, "y": 38, "text": "rubble"},
    {"seq": 12, "type": "ambush", "element": "i_c2", "target_element": "a_sq1", "tokens": 1, "text": "AMBUSH!"},
    {"seq": 13, "type": "assault", "element": "a_sq1", "target_element": "i_c2", "text": "Close assault"},
    {"seq": 14, "type": "assault_result", "winner": "a_sq1", "loser": "i_c2", "text": "won"},
    {"seq": 15, "type": "move", "element": "a_sq2", "mode": "patrol", "frozen": True, "reaction": "overwatch",
     "stands": [{"id": "a_sq2.1", "from": [8, 16, 30], "to": [9, 17, 30]}], "text": "frozen"},
    {"seq": 16, "type": "eliminated", "element": "i_c2", "text": "NVA Section is eliminated"},
]


def test_events_make_effects_that_clean_up(make_app):
    app = make_app(FakeEngine)
    app.open_game_sync("fake_patrol")
    clock = p3d.ClockObject.get_global_clock()
    clock.set_mode(p3d.ClockObject.M_non_real_time)
    clock.set_frame_rate(10)
    try:
        for _ in range(2):
            app.base.task_mgr.step()  # the opening batch (its turn event) is done
        applied = []
        app.handle_events(COMBAT, app.view, after=lambda: applied.append(True))
        pres = app.presenter
        assert pres.busy and pres.current.duration > 1.0  # the next step waits for the firefight to play
        root = pres.current.root
        kinds = {n.get_name() for n in root.find_all_matches("**")}
        assert {"streak", "ring", "fallen", "corridor", "backblast", "burst-puff"} <= kinds, kinds
        for _ in range(5):
            app.base.task_mgr.step()
        assert any(not n.is_hidden() for n in root.find_all_matches("**/streak*"))
        assert app.hud.dice_frame is not None and app.hud.banner_text.getText()
        assert not applied, "the view comes after the timeline"
        app.base.win.set_active(False)  # the rest of the timeline plays on the frame clock; no pictures needed
        for _ in range(200):
            app.base.task_mgr.step()
            if not pres.busy:
                break
        assert applied and not pres.busy
        assert app.scene.effects.count() == 0, "every effect leaves the table"
    finally:
        clock.set_mode(p3d.ClockObject.M_normal)


def test_dice_tray_reads_a_pool():
    rows = roll_rows(COMBAT)
    assert [r["purpose"] for r in rows] == ["to hit", "save"]
    hit = rows[0]
    assert [ok for _, ok in hit["dice"]] == [True, False, True, True]
    assert hit["summary"] == "3 hits of 4 dice" and hit["need"].startswith("need 4+")
    assert rows[1]["summary"] == "1 of 2 saved"  # two stands' saves share one row


def test_odds_in_plain_words():
    r = {"groups": [{"dice": 7, "need": 4, "modifiers": [{"name": "Medium cover", "value": -1}]}],
         "expected_hits": 3.5, "hits": {"0": 0.0078, "1": 0.5, "2": 0.4922}, "rings": {"0": 0.6, "1": 0.4},
         "stands_lost": {"0": 0.14, "1": 0.54, "2": 0.32},
         "elements": {"vc1": {"p_pinned": 0.48, "p_eliminated": 0.02, "already_pinned": False}}}
    text = describe_odds(r, {"vc1": "Cell Ba"})
    for words in ("7 dice at 4+", "3.5 hits expected", "Medium cover -1", "At least one hit: >99%",
                  "A casualty ring: 40%", "A stand lost: 86%", "two or more: 32%", "Cell Ba pinned: 48%"):
        assert words in text, (words, text)
    assault = describe_odds({"p_stall": 0.1, "p_attacker_wins": 0.6, "p_defender_wins": 0.3})
    assert "You win the melee: 60%" in assault


def test_overwatch_arc_dust_and_rubble_from_the_view(make_app):
    app = make_app(FakeEngine)
    app.open_game_sync("fake_patrol")
    view = dict(app.view)
    view["elements"] = [dict(e) for e in view["elements"]]
    view["elements"][1]["overwatch"] = {"kind": "arc", "facing": 45.0}
    view["elements"][2]["overwatch"] = {"kind": "corridor", "from": [8, 16], "to": [20, 30]}
    view["elements"][2]["low_ammo"] = True
    view["markers"] = view["markers"] + [{"id": "dust_1", "kind": "dust_cloud", "x": 10, "y": 10, "radius": 1.0}]
    view["structures"] = {"hootch1": {"state": "rubble"}}
    app._on_view(view)
    pieces = app.scene.pieces
    assert set(pieces.overwatch) == {"a_sq1", "a_sq2"}
    assert pieces.markers["dust_1"].get_num_children() > 0
    assert "hootch1" in pieces.structures
    view["elements"][1]["overwatch"] = None
    view["structures"] = {}
    app._on_view(view)
    assert set(pieces.overwatch) == {"a_sq2"} and not pieces.structures


def _action(app, element, kind):
    return next((a for a in app.element_actions(element) if a["type"] == kind), None)


def test_every_param_kind_by_mouse_against_the_engine(make_app):
    real_engine_or_skip()
    app = make_app()
    app.open_game_sync("village_sweep", seed=3)
    app.frame_camera("top")
    app.settle()
    sent = []
    real_send = app.send_action

    def fake_send(action):
        sent.append(action)
        app._clear_pending()

    app.send_action = fake_send

    # stand: the legal targets are ringed; clicking one picks it, and the odds come from game.preview
    fire = _action(app, "sq1", "fire")
    app.choose_action(fire)
    assert app.scene.pieces.highlight_choices is not None
    target = fire["params"]["target"]["choices"][0]
    p = app.scene.pieces.stands[target].node.get_pos()
    click_world(app, p.x, p.y, p.z + 0.1)
    app.settle()
    assert app.pending["final"]["target"] == target and app.pending.get("confirm")
    assert "At least one hit" in app.hud.panel_body.getText()
    app.cancel()

    # point (not a move): the beaten zone's centre, held inside the range
    area = next(a for e in ("wpn",) for a in app.element_actions(e) if a["type"] == "area_fire")
    app.choose_action(area)
    cx, cy = area["params"]["at"]["from"]
    app.hover_at(cx, cy + 12)
    click_world(app, cx, cy + 12)
    app.settle()
    at = app.pending["final"]["at"]
    assert abs(at[0] - cx) < 0.6 and abs(at[1] - (cy + 12)) < 0.6
    app.cancel()

    # angle: a 90° arc aimed by the mouse
    ow = _action(app, "sq2", "set_overwatch")
    app.choose_action(ow)
    c = app.scene.pieces.element_centre("sq2")
    app.hover_at(c.x, c.y + 10)
    click_world(app, c.x, c.y + 10)
    assert app.pending is None and 80 < sent[-1]["facing"] < 100 and "corridor" not in sent[-1]

    # segment: an Overwatch corridor by two clicks, instead of the arc
    app.choose_action(ow)
    app._corridor_instead()
    click_world(app, c.x, c.y + 2)
    app.hover_at(c.x + 6, c.y + 14)
    click_world(app, c.x + 6, c.y + 14)
    corridor = sent[-1]["corridor"]
    assert "facing" not in sent[-1] and len(corridor) == 2 and corridor[1][1] > corridor[0][1] + 10

    # the engine takes what the mouse made: the corridor marker comes back in the view
    app.send_action = real_send
    seen = []
    app.listeners.append(lambda events: seen.extend(events))
    views = []
    real_on_view = app._on_view
    app._on_view = lambda view, first=False: (views.append(view), real_on_view(view, first))
    app.send_action(sent[-1])
    app.settle()
    assert any(ev.get("type") == "status" and ev.get("status") == "overwatch" for ev in seen), seen
    drawn = [v for v in views if (next(e for e in v["elements"] if e["id"] == "sq2").get("overwatch") or {})
             .get("kind") == "corridor"]
    assert drawn, "the view after the action carries the corridor"
    marker = next(e for e in drawn[-1]["elements"] if e["id"] == "sq2")["overwatch"]
    assert marker["width"] == 2.0  # the view says how wide to draw it (DD-2.13), the client does not

    # feature: a building picked by a click inside it (a satchel/mousehole parameter)
    app.send_action = fake_send
    hootch = next(f for f in app.view["scenario"]["features"] if f.get("type") == "hootch")
    fake = {"type": "mousehole", "element": "sq1", "label": "Mousehole", "cost": 1,
            "params": {"wall": {"kind": "feature", "choices": [hootch["id"]]}}}
    app.choose_action(fake)
    assert app.overlay_nodes, "the legal buildings are outlined"
    from game.client.table import feature_shape

    cc = feature_shape(hootch).centroid
    click_world(app, cc.x, cc.y, app.scene.table.height_at(cc.x, cc.y))
    assert sent[-1]["wall"] == hootch["id"] and not app.overlay_nodes


def test_geoms_and_nodes_do_not_grow_over_many_views(make_app):
    app = make_app(FakeEngine)
    app.open_game_sync("fake_patrol")
    app.handle_events(COMBAT)
    before = app.render.find_all_matches("**").get_num_paths()
    for _ in range(20):
        app._on_view(app.view)
    assert app.render.find_all_matches("**").get_num_paths() <= before
    assert isinstance(app.scene.pieces.root, p3d.NodePath)


def test_the_log_shows_whole_entries(make_app):
    # Every event's text is read whole: the box never opens on the tail of a wrapped entry.
    from game.client.hud import LOG_ROWS

    app = make_app(FakeEngine)
    app.open_game_sync("fake_patrol")
    long = "Spotting Test against Blind N3: " + "the Echo stays hidden in the rubber rows " * 4 + "[DD-4.9 (a)]"
    for i in range(12):
        app.hud.log(f"entry {i}: {long}")
    rows = app.hud.log_text.getText().splitlines()
    assert rows[0].startswith("entry ") and len(rows) <= LOG_ROWS
    assert rows[-1].endswith("[DD-4.9 (a)]") and "entry 11:" in "\n".join(rows)


def test_a_roll_with_many_modifiers_shows_them_all_on_screen(make_app):
    # every die is explained (each modifier by name and clause): a long list wraps inside the tray, which
    # stays on the screen, instead of running off its right edge or being cut short
    app = make_app(FakeEngine)
    app.open_game_sync("fake_patrol")
    mods = [{"name": f"Squad Leader sq{k}_sl in command distance", "value": 1, "clause": "DD-2.3"} for k in range(1, 4)]
    roll = {"seq": 1, "type": "roll", "purpose": "command points", "side": "allied", "dice": [4], "target": 0,
            "result": 7, "modifiers": mods, "text": "Command Points: 4 + 3 = 7"}
    app.hud.show_rolls([roll])
    frame = app.hud.dice_frame
    lo, hi = frame.get_tight_bounds(app.base.aspect2d)
    right = app.base.get_aspect_ratio()
    assert hi.x <= right + 1e-3 and lo.x >= -right - 1e-3
    shown = " ".join(t.node().get_text() for t in frame.find_all_matches("**/+TextNode")).replace("\n", " ")
    for k in range(1, 4):
        assert f"sq{k}_sl" in shown, shown
