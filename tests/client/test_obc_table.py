"""One Brain-Cell on the 3D table: hot_lz played through the real engine process by the paths a click takes,
the men and choppers where the view puts them (a chopper at its height, OBC-13), a Huey flown in and set down
by the composer with the engine's preview (OBC-13, OBC-11), a man moved by a click (OBC-3), and every event
type of the ruleset known to the presenter."""

from __future__ import annotations

import math
import os
from pathlib import Path

import panda3d.core as p3d

from game.client import presenter as pr

from .test_session import real_engine_or_skip

STILLS = os.environ.get("DINKYDAU_OBC_STILLS")
"""A folder: the tests leave their pictures there too (docs/screenshots/obc_* are made so)."""


def click_world(app, x, y, z):
    px = app.project((x, y, z))
    assert px is not None, "the point is off the screen"
    w, h = app.base.win.get_x_size(), app.base.win.get_y_size()
    app.click_at(app.ray_at(p3d.LPoint2(px[0] / w * 2 - 1, 1 - px[1] / h * 2)))


def open_lz(make_app, size=(480, 270)):
    real_engine_or_skip()
    app = make_app(size=size)
    app.open_game_sync("hot_lz", seed=3)
    app.presenter.set_speed(pr.INSTANT)
    app.frame_camera("overview")
    app.settle()
    for _ in range(40):  # the computer's squads move until it is the Allies' move (G-42's first mover)
        if app.actions:
            break
        app.advance()
        app.settle()
    return app


def offer(app, kind, **match):
    return next((a for a in app.actions if a["type"] == kind and all(a.get(k) == v for k, v in match.items())), None)


def where_the_view_says(app):
    pieces = app.scene.pieces
    drawn = [m for m in app.view["men"] if m.get("on_table", True) and not m.get("aboard")
             and m.get("status") != "gone" and not m.get("evacuated")]
    for m in drawn:
        p = pieces.position(m["id"])
        assert p is not None, m["id"]
        assert math.hypot(p.x - m["x"], p.y - m["y"]) < 1e-3, (m["id"], p, m["x"], m["y"])
    for m in app.view["men"]:
        if m.get("aboard"):
            assert m["id"] not in pieces.figures, m["id"]  # aboard: inside the Huey, not on the table
    for v in app.view["vehicles"]:
        if v.get("status") in ("gone", "left") or not v.get("on_table", True):  # (a chopper on call, OBC-49)
            continue
        p = pieces.chopper_pos(v["id"])
        assert p is not None, v["id"]
        ground = app.scene.table.height_at(v["x"], v["y"])
        assert math.hypot(p.x - v["x"], p.y - v["y"]) < 1e-3 and abs(p.z - ground - v["height"]) < 1e-3, (v, p)


def still(app, name):
    if STILLS:
        app.settle(frames=4)
        app.screenshot(str(Path(STILLS) / f"{name}.png"))
        app.screenshot(str(Path(STILLS) / f"{name}-nohud.png"), hud=False)


def test_the_table_the_men_and_the_choppers_at_their_height(make_app):
    # OBC-13: a chopper flies at its height; the men aboard are not on the table (OBC-11)
    app = open_lz(make_app)
    assert app.kit.ruleset == "obc"
    assert app.scene.table.source == "glb"  # the Dinky Dau table baked for the scenario's features
    assert app.scene.flora.root.find_all_matches("**/+GeomNode").get_num_paths() > 0  # the trees stand
    hueys = [v for v in app.view["vehicles"] if v["kind"] == "chopper"]
    assert hueys and all(v["height"] > 0 for v in hueys)
    where_the_view_says(app)
    assert "Turn 1/8" in app.hud.status.getText()
    still(app, "overview")


def test_a_huey_flown_in_by_the_composer_lands_and_sets_its_men_down(make_app):
    # OBC-13: the chopper's move (32", at most 12" of height change), previewed by the engine; OBC-11: debus
    app = open_lz(make_app)
    act = offer(app, "activate", squad="chalk_1")
    assert act is not None, [a["type"] for a in app.actions]
    app.choose_action(act)
    app.settle()
    assert app.view["active"] == "chalk_1"
    move = offer(app, "move", vehicle="huey_1")
    assert move is not None
    app.choose_action(move)
    click_world(app, 16.0, 14.0, app.scene.table.height_at(16.0, 14.0))  # the point, on the LZ
    assert app.kit.play.pending["todo"][0][0] == "height"
    app.kit.play.fill(0.0)  # the height: set down (the button's callback)
    app.settle()
    body = app.hud.panel_body.getText()
    assert "of 32\"" in body and "OBC-13" in body, body  # the engine's preview, with its clause
    if STILLS:
        app.presenter.set_speed(1.0)
        app.confirm()
        app.settle(seconds=1.2, frames=2)
        still(app, "coming_in")
        app.presenter.set_speed(pr.INSTANT)
    else:
        app.confirm()
    app.settle()
    huey = next(v for v in app.view["vehicles"] if v["id"] == "huey_1")
    assert math.hypot(huey["x"] - 16.0, huey["y"] - 14.0) < 0.5 and huey["height"] == 0.0, huey
    where_the_view_says(app)
    app.choose_action(offer(app, "debus", vehicle="huey_1"))
    app.settle()
    down = [m for m in app.view["men"] if m.get("squad") == "squad_1" and not m.get("aboard")]
    assert down, "the squad is down"
    where_the_view_says(app)
    # OBC-3: a man of the squad moved by a click, once the chopper's move is done and the squad's comes
    app.choose_action(offer(app, "done"))
    app.settle()
    for _ in range(40):  # the computer's squad moves, then the Allies choose again (OBC-14)
        if offer(app, "activate", squad="squad_1"):
            break
        app.advance()
        app.settle()
    act = offer(app, "activate", squad="squad_1")
    assert act is not None, [(a["type"], a.get("squad")) for a in app.actions]
    app.choose_action(act)
    app.settle()
    move = next(a for a in app.actions if a["type"] == "move" and a.get("man"))
    man = next(m for m in app.view["men"] if m["id"] == move["man"])
    p = app.scene.pieces.position(man["id"])
    click_world(app, p.x, p.y, p.z + 0.3)
    assert app.scene.pieces.selected == man["id"]
    app.choose_action(move)
    click_world(app, man["x"], man["y"] + 2.0, p.z)
    values = {"run": False, "posture": "lying"}  # walk, and lie down at the end (the panel's buttons)
    while app.kit.play.pending and app.kit.play.pending["todo"]:
        app.kit.play.fill(values[app.kit.play.pending["todo"][0][0]])
    app.settle()
    assert "OBC-3" in app.hud.panel_body.getText()
    app.confirm()
    app.settle()
    moved = next(m for m in app.view["men"] if m["id"] == man["id"])
    assert math.hypot(moved["x"] - man["x"], moved["y"] - (man["y"] + 2.0)) < 0.3 and moved["posture"] == "lying"
    where_the_view_says(app)
    still(app, "squad")


def test_every_obc_event_type_is_played_or_declared_log_only():
    # every event type the OBC engine writes (its modules' event dicts; the offers and the computer's actions
    # left out) has a handler on this table or is declared log-only
    import re

    from game.client.obc import events

    emitted = set()
    for f in (Path(__file__).resolve().parents[2] / "game" / "rulesets" / "obc").glob("*.py"):
        if f.name in ("ai.py", "ruleset.py"):
            continue
        for line in f.read_text().splitlines():
            if "out.append" not in line and '"params"' not in line:
                emitted |= set(re.findall(r'"type": "([a-z_]+)"', line))
    assert {"move", "vehicle_move", "roll", "blast", "casualty", "left", "turn"} <= emitted
    assert pr.unhandled(emitted, events.HANDLERS, events.LOG_ONLY) == []
    assert {"move", "vehicle_move", "roll", "blast", "casualty", "left"} <= set(events.HANDLERS)


def test_a_computer_game_plays_on_the_table_without_a_fault(make_app):
    # OBC-14, G-42: the computer against itself for two turns, each act's events one batch on the table (shown
    # instantly): no handler fails, the men and choppers stand where the last view says; then a mortar bomb's
    # scatter and blast (OBC-27, OBC-36) and an MG burst on its 3" square (OBC-23) at full speed to their end
    from game.client.obc.events import HANDLERS, LOG_ONLY
    from game.engine.client import InProcessEngine

    eng = InProcessEngine()
    r = eng.call("game.new", scenario="hot_lz", seed=3, players={"allied": "ai", "insurgent": "ai"},
                 side="referee", referee=True)
    app = make_app(size=(480, 270) if STILLS else (320, 180))
    faults = []
    app.report_fault = faults.append
    app._build_table(r["view"])
    app._on_view(r["view"])
    app.presenter.set_speed(pr.INSTANT)
    seen, batch, bomb = set(), [], None
    for _ in range(600):
        step = eng.call("game.step", game=r["game"], side="referee")
        batch += step["events"]
        bomb = bomb or next((e for e in step["events"] if e["type"] == "blast" and e.get("square")), None)
        seen |= {e["type"] for e in batch}
        app.handle_events(batch, step["view"])  # each of the computer's acts a batch, as the app plays them
        app.base.task_mgr.step()
        batch = []
        if step["view"]["over"] or step["view"]["turn"] > 2:
            break
    app.settle()
    assert faults == [], faults[:3]
    assert {"move", "vehicle_move", "roll", "casualty"} <= seen, seen
    assert pr.unhandled(seen, HANDLERS, LOG_ONLY) == []
    where_the_view_says(app)
    for m in app.view["men"]:  # the dead lie greyed; the disabled lie with a DOWN tab
        if m["id"] in app.scene.pieces.figures and m["status"] == "dead":
            assert app.scene.pieces.figures[m["id"]].key[3] is False
        if m["id"] in app.scene.pieces.figures and m["status"] == "disabled":
            assert m["id"] in app.scene.pieces.tabs
    assert bomb is not None, "no bomb in two turns of seed 3"
    x, y = bomb["at"]
    others = [
        {"seq": 9001, "type": "roll", "purpose": "scatter", "dice": "d6+d8+d6", "rolls": [3, 5, 6], "result": 4,
         "success": False, "heading": 90.0, "landed": [x, y], "clause": "OBC-27; G-42"},
        {**bomb, "seq": 9002},
        {"seq": 9003, "type": "roll", "purpose": "MG burst", "firer": next(iter(app.scene.pieces.figures)),
         "at": [x + 4, y - 3], "square": 3.0, "result": 2, "clause": "OBC-23"},
    ]
    app.presenter.set_speed(1.0)
    app.handle_events(others, None)
    if STILLS:
        app.camera.focus(x, y - 2, 0.0, distance=26)
        app.camera.goal.pitch = 40
        app.camera.snap()
        app.settle(seconds=0.75, frames=2)
        app.screenshot(str(Path(STILLS) / "mortar.png"))
    app.settle()
    assert faults == [], faults[:3]
    app.frame_camera("overview")
    still(app, "turn2")


def test_the_title_menu_lists_hot_lz():
    # the engine's own hello: hot_lz is listed under obc, and this client draws it
    from game.client.menu import drawable_scenarios
    from game.engine.client import InProcessEngine

    hello = InProcessEngine().call("engine.hello")
    assert "hot_lz" in [s["id"] for s in drawable_scenarios(hello)]
