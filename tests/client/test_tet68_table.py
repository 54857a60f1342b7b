"""Tet '68 on the 3D table: hue_street played through the real engine process by the paths a click takes,
the figures where the view puts them, the exposure the engine measures shown when a player aims, and every
event type of the ruleset known to the presenter (TET-7, TET-9, TET-15, TET-16, G-41)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import panda3d.core as p3d
import pytest

from game.client import presenter as pr
from tools.tet_stills import fire_phase_save  # TET-7: hue_street at the Allies' first shot

from .test_session import real_engine_or_skip

ROOT = Path(__file__).resolve().parents[2]


def click_world(app, x, y, z):
    px = app.project((x, y, z))
    assert px is not None, "the point is off the screen"
    w, h = app.base.win.get_x_size(), app.base.win.get_y_size()
    app.click_at(app.ray_at(p3d.LPoint2(px[0] / w * 2 - 1, 1 - px[1] / h * 2)))


def click_figure(app, fid):
    p = app.scene.pieces.position(fid)
    click_world(app, p.x, p.y, p.z + 0.9)


def open_hue(make_app, size=(400, 225)):
    real_engine_or_skip()
    app = make_app(size=size)
    app.open_game_sync("hue_street", seed=3)
    app.presenter.set_speed(pr.INSTANT)
    app.frame_camera("overview")
    app.settle()
    return app


def offer(app, kind, fid=None):
    return next((a for a in app.actions if a["type"] == kind and (fid is None or a.get("figure") == fid)), None)


def figures_where_the_view_says(app):
    for f in app.view["figures"]:
        p = app.scene.pieces.position(f["id"])
        assert p is not None, f["id"]
        assert math.hypot(p.x - f["x"], p.y - f["y"]) < 1e-3, (f["id"], p, f["x"], f["y"])


def test_a_move_by_click_goes_through_the_engine_and_the_figure_stands_where_the_view_says(make_app):
    # TET-7: the lowest Initiative moves first; TET-9: the engine's preview prices the move before Confirm
    app = open_hue(make_app)
    assert app.kit.ruleset == "tet68"
    figures_where_the_view_says(app)
    assert app.view["to_act"] == "allied" and app.view["acting"]
    fid = app.view["acting"][0]
    name = next(f["name"] for f in app.view["figures"] if f["id"] == fid)
    assert f"Initiative {app.view['step']}" in app.hud.status.getText() and name in app.hud.status.getText()
    click_figure(app, fid)
    assert app.scene.pieces.selected == fid
    move = offer(app, "move", fid)
    assert move is not None
    x0, y0 = next((f["x"], f["y"]) for f in app.view["figures"] if f["id"] == fid)
    app.choose_action(move)
    click_world(app, x0 + 3.0, y0, 0.0)  # the point
    app.confirm()  # the pose: keep it
    app.settle()
    body = app.hud.panel_body.getText()
    assert "of his move" in body and "[TET-9" in body, body  # the engine's preview, with its clause
    app.confirm()
    app.settle()  # the presenter at instant speed: the link idle is the move made
    moved = next(f for f in app.view["figures"] if f["id"] == fid)
    assert math.hypot(moved["x"] - (x0 + 3.0), moved["y"] - y0) < 0.3, moved
    figures_where_the_view_says(app)
    assert any("moves" in line for line in app.log_history)


def test_aiming_shows_the_engines_exposure_on_the_target(make_app):
    # TET-16: the places the firer's eye reaches, from the engine's ray casts; the cover roll's number
    real_engine_or_skip()
    app = make_app(size=(400, 225))
    app._load_save(fire_phase_save())
    app.settle()
    app.presenter.set_speed(pr.INSTANT)
    app.frame_camera("overview")
    app.settle()
    fire = offer(app, "snap_fire") or offer(app, "fire")
    assert fire is not None, app.hud.prompt.getText()
    target = fire["targets"][0]["id"]
    snap = app.view.get("snap")
    assert snap is None or snap["mover"] == target
    assert (f"{app.view['snap']}" and "snap fire" in app.hud.status.getText()) if snap else True
    app.choose_action(fire)
    click_figure(app, target)  # the target, by a click on the ringed man
    if app.kit.play.pending and app.kit.play.pending["todo"]:
        app.kit.play.fill(False)  # single shots
    app.settle()
    expected = app.link.call("los.check", game=app.game, side="allied", **{"from": fire["figure"], "to": target})
    body = app.hud.panel_body.getText().replace("\n", " ")
    assert expected["text"].replace("\n", " ") in body, (expected["text"], body)
    assert f"needs {expected['needs']} or less" in body
    lit = [n for n in app.scene.pieces.marks.find_all_matches("**/place-*")]
    assert len(lit) == len(expected["places"])
    app.confirm()
    app.settle()  # the presenter at instant speed: the link idle is the move made
    assert any("takes aim" in line for line in app.log_history)


def tet_event_types() -> set[str]:
    found = set()
    for path in (ROOT / "game" / "rulesets" / "tet68").rglob("*.py"):
        if path.name in ("offers.py", "ai.py"):  # they write actions (offers and choices), not events
            continue
        found |= set(re.findall(r'"type":\s*"([a-z_]+)"', path.read_text()))
    return found - {"id"}  # ruleset.py types its action fields ({"type": "id"}): no event


def test_every_tet_event_type_is_handled_or_log_only():
    from game.client.tet.events import HANDLERS, LOG_ONLY

    types = tet_event_types()
    assert {"move", "roll", "wound", "duckback", "clearing", "game_over"} <= types
    assert pr.unhandled(types, HANDLERS, LOG_ONLY) == []


def test_a_computer_game_plays_on_the_table_without_a_fault(make_app, frame_clock):
    # TET-7, G-41: four turns of the computer against itself, each turn's events one batch on the table
    # (shown instantly): no handler fails, and the figures stand where the last view says; the set pieces
    # at full speed run on the frame clock (a tenth of a second a frame), so they end in a few frames
    from game.client.tet.events import HANDLERS, LOG_ONLY
    from game.engine.client import InProcessEngine

    eng = InProcessEngine()
    r = eng.call("game.new", scenario="hue_street", seed=2, players={"allied": "ai", "insurgent": "ai"},
                 side="referee", referee=True)
    app = make_app(size=(320, 180))
    faults = []
    app.report_fault = faults.append
    app._build_table(r["view"])
    app._on_view(r["view"])
    app.presenter.set_speed(pr.INSTANT)
    seen, batch = set(), []
    for _ in range(400):
        step = eng.call("game.step", game=r["game"], side="referee")
        batch += step["events"]
        if any(e["type"] in ("clearing", "game_over") for e in step["events"]):
            seen |= {e["type"] for e in batch}
            app.handle_events(batch, step["view"])
            app.base.task_mgr.step()
            batch = []
        if step["view"]["over"] or step["view"]["turn"] > 4:
            break
    app.settle()
    assert faults == [], faults[:3]
    assert {"move", "roll", "declare", "clearing"} <= seen
    assert pr.unhandled(seen, HANDLERS, LOG_ONLY) == []
    figures_where_the_view_says(app)
    for f in app.view["figures"]:  # a dead man lies down, greyed
        assert app.scene.pieces.figures[f["id"]].key[3] is f["alive"]
    # TET-13, TET-14, G-41: a cone, a grenade's burst after its scatter, hand-to-hand, as docs/protocol.md
    # words them, played at full speed to their end
    marine, vc = "sgt_ames", "hoy_loc"
    others = [
        {"seq": 9001, "type": "cone", "firer": marine, "apex": [1.2, 12.0], "aim": [10.2, 15.3], "width": 2.2,
         "corners": [[9.7, 16.3], [10.7, 14.3]], "clause": "TET-13; G-41"},
        {"seq": 9002, "type": "roll", "purpose": "to hit", "firer": marine, "target": vc, "cone": True, "hits": 1},
        {"seq": 9003, "type": "roll", "purpose": "scatter", "firer": marine, "from": [10, 15], "to": [11, 17]},
        {"seq": 9004, "type": "burst", "firer": marine, "weapon": "grenade", "at": [11, 17], "aim": [10, 15],
         "on_mark": False, "radius": 2.0, "room": "noodle_shop"},
        {"seq": 9005, "type": "roll", "purpose": "cover", "firer": marine, "target": vc, "burst": [11, 17],
         "success": True},
        {"seq": 9006, "type": "roll", "purpose": "hand-to-hand", "figure": marine, "target": vc},
    ]
    app.presenter.set_speed(1.0)
    app.handle_events(others, None)
    app.settle()
    assert faults == [], faults[:3]


def test_the_table_renders_with_and_without_the_interface(make_app, tmp_path):
    app = open_hue(make_app, size=(640, 360))
    for hud in (True, False):
        app.screenshot(str(tmp_path / f"t{hud}.png"), hud=hud)
        assert (tmp_path / f"t{hud}.png").stat().st_size > 10_000
    assert app.scene.geom_count() > 20
    app.toggle_briefing()  # the card: the scenario's words, its turns, no Victory Points (G-41 has none)
    assert app.briefing is not None and app.briefing.open
    app.toggle_briefing()
    app._game_over({"winner": "insurgent", "reason": "they hold 2 of 4 buildings at the end (G-41)",
                    "cleared": ["noodle_shop"]})
    assert app.hud.overlay is not None


def test_the_cutaway_cuts_the_walls_between_the_camera_and_the_selected_figure(make_app):
    # TET-3: walls 2" high hide the rooms; the table cuts down those in the way of the man looked at
    from game.client.tet.scene import STUB

    app = open_hue(make_app)
    inside = next(f for f in app.view["figures"] if f["id"] == "nguyen_ba")  # in the pharmacy, north side
    app.select_element("nguyen_ba")
    cam = app.camera
    cam.focus(inside["x"], inside["y"], 1.0, distance=8.0)  # the camera over the street
    cam.goal.heading, cam.goal.pitch = 0.0, 25.0  # from the street to the south, looking north
    cam.snap()
    app.kit.pointer(app, None)
    walls = {wid: node.get_sz() for wid, (node, _, _) in app.scene.walls.items()}
    assert walls["pharmacy_front"] == pytest.approx(STUB), walls
    assert all(sz == pytest.approx(1.0) for wid, sz in walls.items() if wid != "pharmacy_front"), walls
    app.select_element(None)
    app.kit.pointer(app, None)
    assert all(node.get_sz() == pytest.approx(1.0) for node, _, _ in app.scene.walls.values())
    app.kit.lift(app)  # C: every wall down
    assert all(node.get_sz() == pytest.approx(STUB) for node, _, _ in app.scene.walls.values())


def _points_below(node, render, top: float):
    """The world points of every vertex drawn under ``node`` lower than ``top`` (inches above the table)."""
    out = []
    for gnp in node.find_all_matches("**/+GeomNode"):
        mat = gnp.get_mat(render)
        for geom in gnp.node().get_geoms():
            reader = p3d.GeomVertexReader(geom.get_vertex_data(), "vertex")
            while not reader.is_at_end():
                p = mat.xform_point(reader.get_data3())
                if p.z < top:
                    out.append(p)
    return out


def test_a_man_at_a_window_shows_nothing_through_the_foot_of_the_wall(make_app):
    # TET-16: a figure at a window stands behind the wall (0.3" behind its plane); below the sill nothing of
    # him may come out through the wall's face (his boots once showed there as a black block)
    from game.world.ruin_walls import THICK

    app = open_hue(make_app)
    at_window = [f for f in app.view["figures"] if f.get("pose") == "at_window"]
    assert at_window
    for f in at_window:
        ahead = (math.cos(math.radians(f["facing"])), math.sin(math.radians(f["facing"])))
        piece = app.scene.pieces.figures[f["id"]]
        low = _points_below(piece.man, app.render, app.scene.pieces.height_at(f["x"], f["y"]) + 1.1)
        assert low, f["id"]
        reach = max((p.x - f["x"]) * ahead[0] + (p.y - f["y"]) * ahead[1] for p in low)
        assert reach < 0.3 - THICK / 2, (f["id"], reach)


def test_the_names_shrink_close_to_so_they_do_not_cover_the_men(make_app):
    from game.client.tet.figures import LABEL

    app = open_hue(make_app)
    scales = lambda: [p.label.get_scale().x for p in app.scene.pieces.figures.values()]  # noqa: E731
    assert min(scales()) == pytest.approx(LABEL)  # the overview: the names at their size
    man = app.scene.pieces.position("hoy_loc")
    o = app.camera.goal
    o.x, o.y, o.z, o.heading, o.pitch, o.distance = man.x, man.y - 1.2, man.z + 1.0, 0, 14, 4.5
    app.camera.snap()
    app.settle()
    label = app.scene.pieces.figures["hoy_loc"].label
    assert label.get_scale().x < 0.4 * LABEL  # a few inches off, a third of the size
    assert max(scales()) <= LABEL + 1e-6


def test_the_title_menu_lists_the_tet_table():
    from game.client.menu import drawable_scenarios

    hello = {"scenarios": [{"id": "village_sweep", "ruleset": "dinky_dau"}, {"id": "hue_street", "ruleset": "tet68"},
                           {"id": "elsewhere", "ruleset": "no_such_rules"}]}
    assert [s["id"] for s in drawable_scenarios(hello)] == ["village_sweep", "hue_street"]


def test_the_title_menu_offers_only_what_the_scenarios_rules_take():
    # DD-10.5 (Threat Levels), DD-10.16 (co-op) are Dinky Dau's; Tet '68 takes neither (engine.hello's rows)
    from game.client.menu import takes
    from game.engine.client import InProcessEngine

    hello = InProcessEngine().call("engine.hello")
    by_id = {s["id"]: s for s in hello["scenarios"]}
    assert takes(hello, by_id["village_sweep"]) == (True, {"threat"})
    assert takes(hello, by_id["hue_street"]) == (False, set())
    assert takes({"rulesets": [{"id": "tet68"}]}, by_id["hue_street"]) == (True, None)  # an engine that says nothing


def test_the_title_menu_names_the_jungle_ghost_only_in_dinky_dau():  # DD chapter 10 is Dinky Dau's own
    from game.client.menu import modes_for

    assert dict(modes_for({"id": "village_sweep", "ruleset": "dinky_dau"}, True))["solo"].endswith("Jungle Ghost AI")
    tet = dict(modes_for({"id": "hue_street", "ruleset": "tet68"}, False))
    assert tet["solo"] == "Solo against the computer" and "coop" not in tet


def test_the_line_of_sight_tool_gives_the_engines_exposure_between_two_figures(make_app):
    # TET-16 through los.check: from a Marine to a man at a window, the places seen in the engine's words
    app = open_hue(make_app)
    app.toggle_tool("los")
    click_figure(app, "sgt_ames")
    click_figure(app, "hoy_loc")
    app.settle()
    expected = app.link.call("los.check", game=app.game, side="allied", **{"from": "sgt_ames", "to": "hoy_loc"})
    assert expected["text"] in app.hud.prompt.getText().replace("  |  ", "\n")


def test_the_opening_rolls_caption_says_what_was_rolled():  # TET-5, TET-6: each figure's statistics, rolled
    from game.client.captions import caption_parts
    from game.dice import Dice, seed_streams
    from game.rulesets.tet68.fire import roll_man

    _man, events = roll_man(Dice(seed_streams(7)), "pfc_flores", "allied", "PFC Flores", "m79", False)
    sentences = [caption_parts(e)[0] for e in events]
    assert sentences[0].startswith("PFC Flores rolls Initiative ") and sentences[1].startswith(
        "PFC Flores rolls Weapon Skill ")


def test_the_title_menu_names_each_side_as_its_scenario_does():  # engine.hello's scenario rows (docs/protocol.md)
    from game.client.menu import side_names
    from game.engine.client import InProcessEngine

    by_id = {s["id"]: s for s in InProcessEngine().call("engine.hello")["scenarios"]}
    assert by_id["hue_street"]["sides"] == {"allied": "US Marines", "insurgent": "VC and NVA"}
    assert side_names(by_id["hue_street"]) == {"allied": "US Marines", "insurgent": "VC and NVA"}
    assert by_id["canal_assault"]["sides"]["allied"] == "2nd Platoon, C Company, 3/47th Infantry (Riverine)"
    assert side_names(by_id["canal_assault"])["allied"] == "2nd Platoon"  # the head: two buttons side by side
    assert side_names(by_id["cu_chi"])["insurgent"] == "The Jungle Ghost"
    assert side_names({"id": "x"}) == {"allied": "Allied", "insurgent": "Insurgent"}  # an engine that says nothing
