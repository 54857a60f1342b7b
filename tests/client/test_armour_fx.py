"""Armour and boats on the table: every armour event has a handler; the vehicle models are built
deterministically at 1:100 with the parts the client moves; a brew-up plays and leaves nothing behind,
the hull a burnt wreck; turrets traverse toward what they shoot at; the view's crew and passenger state
shows; a boat that moves leaves a wake."""

from __future__ import annotations

import copy
import math

import numpy as np
import panda3d.core as p3d
import pytest

from game.client import presenter as pr
from game.client import vehicles

from .fake_engine import FakeEngine

ARMOUR_EVENTS = ("at_fire", "armour", "vehicle_damage", "brew_up", "wreck", "bailout", "mount", "dismount",
                 "crew", "mine")
FOOTPRINT = {"m113_acav": (1.06, 1.91), "m48a3": (1.43, 2.53), "t54": (1.29, 2.38), "pbr": (1.38, 3.74)}


def vehicle(eid: str, side: str, roster: str, x: float, y: float, facing: float, **state):
    w, d = FOOTPRINT[roster]
    v = {"roster": roster, "hp": 2, "hp_max": 2, "class": 2, "buttoned": False, "stunned": False,
         "mobility_kill": False, "weapons_out": False, "wreck": False, "passengers": [], **state}
    s = {"id": f"{eid}.1", "element": eid, "side": side, "type": roster, "name": roster, "model": roster,
         "base": {"width": w, "depth": d}, "x": x, "y": y, "facing": facing, "hits": 0, "wounded": False,
         "vehicle": v}
    e = {"id": eid, "side": side, "name": roster, "kind": "vehicle", "stands": [s["id"]], "in_command": True,
         "pinned": False, "winded": False, "activations": 0, "moved": False, "hold": False}
    return s, e


def armoured(view: dict, *vehicles) -> dict:
    view = copy.deepcopy(view)
    for s, e in vehicles:
        view["stands"].append(s)
        view["elements"].append(e)
    return view


@pytest.fixture
def table(make_app):
    """The fake table with an ACAV and an M48 (Allied), a T-54 (insurgent) and a PBR on the stream."""
    clock = p3d.ClockObject.get_global_clock()
    clock.set_mode(p3d.ClockObject.M_non_real_time)
    clock.set_frame_rate(10)
    app = make_app(FakeEngine, size=(320, 180))
    app.open_game_sync("fake_patrol")
    app.base.win.set_active(False)
    view = armoured(app.view, vehicle("acav", "allied", "m113_acav", 30, 20, 0),
                    vehicle("m48", "allied", "m48a3", 20, 20, 0), vehicle("t54", "insurgent", "t54", 50, 20, 180),
                    vehicle("pbr", "allied", "pbr", 58, 38, -80))
    app._on_view(view)
    yield app, view
    clock.set_mode(p3d.ClockObject.M_normal)


def play(app, events, view, limit: int = 600) -> list[int]:
    """Play one batch to its end; the live effect nodes seen on each frame."""
    pres = app.presenter
    pres.set_speed(1.0)
    app.handle_events(events, view)
    seen = []
    for _ in range(limit):
        if not pres.busy:
            break
        seen.append(app.scene.effects.root.find_all_matches("**").get_num_paths())
        app.base.task_mgr.step()
    assert not pres.busy, "the batch ends"
    return seen


def test_every_armour_event_has_a_handler():
    assert pr.unhandled(ARMOUR_EVENTS) == []


def test_vehicle_models_are_deterministic_to_scale_with_their_moving_parts(tmp_path):
    import importlib.util
    import sys

    from game.client.assets import load_glb
    from game.client.settings import MODELS_DIR

    spec = importlib.util.spec_from_file_location("build_vehicles", MODELS_DIR / "build_vehicles.py")
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(MODELS_DIR))
    sys.modules["build_vehicles"] = mod  # its dataclass looks its module up
    try:
        spec.loader.exec_module(mod)
        files = mod.build(tmp_path)
        hulls = {name: next(p for p in parts if p.name == "hull").mesh for name, parts in mod.models().items()}
    finally:
        sys.path.remove(str(MODELS_DIR))
        sys.modules.pop("build_vehicles", None)
    assert {f.stem for f in files} >= {"m113_acav", "m113_apc", "m48a3", "m50a1_ontos", "t54", "m35_truck", "pbr",
                                       "tango", "sampan"}
    for f in files:
        assert f.read_bytes() == (MODELS_DIR / f.name).read_bytes(), f"{f.name} is stale: run models/build_vehicles.py"
    lo, hi = hulls["m113_acav"].bounds
    assert hi[0] - lo[0] == pytest.approx(4.86 * 0.3937, abs=0.06)  # an M113 at 1:100: 1.91" x 1.06"
    assert hi[1] - lo[1] == pytest.approx(2.69 * 0.3937, abs=0.05)
    acav = load_glb(MODELS_DIR / "m113_acav.glb")
    for part in ("hull", "turret", "gun", "crew", "m60_left", "m60_right"):
        assert not acav.find(f"**/{part}").is_empty(), part
    assert not acav.find("**/turret/gun").is_empty(), "the gun rides on the turret"
    for name in ("m48a3", "t54", "m50a1_ontos", "pbr", "tango"):
        model = load_glb(MODELS_DIR / f"{name}.glb")
        assert not model.find("**/hull/turret/gun").is_empty(), name
    assert not load_glb(MODELS_DIR / "tango.glb").find("**/ramp").is_empty()


def paint(node) -> np.ndarray:
    """The mean vertex colour (rgb) of a model's largest part (its hull), as its vertex data holds it."""
    parts = [g.node().get_geom(i).get_vertex_data() for g in node.find_all_matches("**/+GeomNode")
             if "shadow" not in g.get_name() for i in range(g.node().get_num_geoms())]
    data = max(parts, key=lambda d: d.get_num_rows())
    r = p3d.GeomVertexReader(data, "color")
    return np.mean([tuple(r.get_data4())[:3] for _ in range(data.get_num_rows())], axis=0)


def is_scorched(rgb, live) -> bool:
    """Burnt paint: darker than the live hull's, yet not black (its shape still reads); a warmer grey-brown
    (red over green over blue, redder against blue than the live paint)."""
    lum = lambda c: float(np.dot(c, (0.3, 0.59, 0.11)))  # noqa: E731
    return (0.12 < lum(rgb) < lum(live) and rgb[0] > rgb[1] > rgb[2]
            and rgb[0] - rgb[2] > live[0] - live[2] + 0.02)


def test_a_brew_up_plays_and_leaves_nothing_behind(table):
    """An RPG penetrates the ACAV, which brews up and becomes a wreck; the crew bails out."""
    app, view = table
    kit = app.scene.pieces.stands["acav.1"].kit
    assert kit is not None and not kit.wreck and not kit.crew.is_hidden()
    events = [
        {"seq": 1, "type": "at_fire", "side": "insurgent", "element": "i_c2", "stand": "i_c2.1", "target": "acav.1",
         "weapon": "rpg7", "x0": 36, "y0": 40, "x1": 30, "y1": 20, "hit": True, "clause": "DD-7.7"},
        {"seq": 2, "type": "armour", "vehicle": "acav.1", "weapon": "rpg7", "result": "penetration", "clause": "DD-7.8"},
        {"seq": 3, "type": "vehicle_damage", "vehicle": "acav.1", "result": "brewed_up", "hp": 0, "clause": "DD-7.9"},
        # the engine tells the wreck, then its brew-up (game/rules/armour.py make_wreck)
        {"seq": 4, "type": "wreck", "vehicle": "acav.1", "x": 30, "y": 20, "facing": 0, "clause": "DD-5.17"},
        {"seq": 5, "type": "brew_up", "vehicle": "acav.1", "x": 30, "y": 20, "radius": 2.0, "clause": "DD-5.18"},
        {"seq": 6, "type": "bailout", "vehicle": "acav.1", "elements": ["acav"], "clause": "DD-7.10"},
    ]
    after = copy.deepcopy(view)
    next(s for s in after["stands"] if s["id"] == "acav.1")["vehicle"]["wreck"] = True
    before = app.render.find_all_matches("**").get_num_paths()
    seen = play(app, events, after)
    assert max(seen) > 100, "the fireball, the fire and the smoke column are drawn"
    assert len(seen) > 30, "the brew-up takes its time"
    assert app.scene.effects.count() == 0 and app.presenter.live_nodes() == 1, "no effect node is left"
    assert kit.wreck and kit.crew.is_hidden()
    live = paint(vehicles.prototype(app.scene.pieces.library, "m113_acav"))
    burnt = paint(kit.root) * np.array(kit.root.get_color_scale())[:3]
    assert is_scorched(burnt, live), (burnt, live)
    assert kit.node.find("side-token").is_hidden() and kit.node.find("rim").is_hidden(), "a wreck is nobody's"
    assert kit.smoke is not None, "and smokes for a while"
    assert app.render.find_all_matches("**").get_num_paths() <= before + 30  # the wreck's own smoke alone
    # the view keeps saying wreck: no second smoke
    app._on_view(after)
    assert len(app.scene.pieces.stands["acav.1"].node.find_all_matches("wreck-smoke")) == 1
    # the engine's next view: the stand gone, its wreck a marker drawn by its own hull, burnt and turned
    gone = copy.deepcopy(after)
    gone["stands"] = [s for s in gone["stands"] if s["id"] != "acav.1"]
    gone["elements"] = [e for e in gone["elements"] if e["id"] != "acav"]
    gone["markers"] = [{"id": "wreck_acav.1", "kind": "wreck", "x": 30, "y": 20, "facing": 30, "model": "m113_acav"}]
    app._on_view(gone)
    assert kit.smoke is None, "the stand's own smoke goes with it"
    marker = app.scene.pieces.markers["wreck_acav.1"]
    model = marker.get_child(0)
    assert marker.get_h() == pytest.approx(30.0)
    assert is_scorched(paint(model) * np.array(model.get_color_scale())[:3], live)
    assert paint(vehicles.prototype(app.scene.pieces.library, "m113_acav")) == pytest.approx(live)  # live hulls keep theirs
    lo, hi = marker.get_tight_bounds(marker)
    assert 1.8 < hi.x - lo.x < 2.6, "an M113's hull (and its shadow), not a crashed Huey"


def test_turrets_traverse_crews_button_up_passengers_ride_and_boats_leave_a_wake(table):
    app, view = table
    pieces = app.scene.pieces
    m48 = pieces.stands["m48.1"].kit
    assert m48.turret.get_h() == pytest.approx(0.0)
    # the M48 at (20, 20) facing east fires its 90 mm at the T-54 due east, then north at a stand at (20, 32)
    shot = {"seq": 1, "type": "at_fire", "side": "allied", "element": "m48", "stand": "m48.1", "target": "t54.1",
            "weapon": "90mm", "x0": 20, "y0": 20, "x1": 50, "y1": 20, "hit": False, "clause": "DD-7.7"}
    play(app, [shot], view)
    assert m48.turret.get_h() == pytest.approx(0.0, abs=1.0)
    aim = copy.deepcopy(view)
    aim["stands"].append({**copy.deepcopy(next(s for s in view["stands"] if s["id"] == "i_c1.1")),
                          "id": "i_c1.9", "x": 20.0, "y": 32.0})
    next(e for e in aim["elements"] if e["id"] == "i_c1")["stands"].append("i_c1.9")
    app._on_view(aim)
    mg = {"seq": 2, "type": "fire", "kind": "aimed", "side": "allied", "element": "m48", "stands": ["m48.1"],
          "target": "i_c1.9", "target_element": "i_c1", "dice": 4, "text": "the M48 fires its coax"}
    app.presenter.set_speed(1.0)
    app.handle_events([mg], aim)
    root = app.presenter.current.root
    streaks = [n for n in root.find_all_matches("**/streak")]
    assert streaks, "the coax's tracers fly"
    for _ in range(600):
        if not app.presenter.busy:
            break
        app.base.task_mgr.step()
    assert m48.turret.get_h() == pytest.approx(90.0, abs=1.5), "the turret turned north, toward the target"
    muzzle = m48.muzzle()
    assert muzzle.y > 20.5 and muzzle.z > 0.8, "the gun points north from the turret, up off the ground"
    # the crew buttons up: the man in the hatch goes, and the view keeps him inside
    acav = pieces.stands["acav.1"].kit
    play(app, [{"seq": 3, "type": "crew", "vehicle": "acav.1", "state": "buttoned", "clause": "DD-7.3"}], aim)
    shut = copy.deepcopy(aim)
    next(s for s in shut["stands"] if s["id"] == "acav.1")["vehicle"]["buttoned"] = True
    app._on_view(shut)
    assert acav.crew.is_hidden()
    # passengers ride inside: the squad the ACAV carries is hidden, and shown when it is out again
    ride = copy.deepcopy(shut)
    next(s for s in ride["stands"] if s["id"] == "acav.1")["vehicle"]["passengers"] = ["a_sq1"]
    app._on_view(ride)
    assert all(pieces.stands[s].node.is_hidden() for s in ("a_sq1.1", "a_sq1.2", "a_sq1.3"))
    app._on_view(shut)
    assert not any(pieces.stands[s].node.is_hidden() for s in ("a_sq1.1", "a_sq1.2", "a_sq1.3"))
    # the PBR moves down the stream and leaves a wake
    move = {"seq": 4, "type": "move", "element": "pbr", "mode": "move",
            "stands": [{"id": "pbr.1", "from": [58, 38, -80], "to": [57, 30, -95]}]}
    moved = copy.deepcopy(shut)
    s = next(s for s in moved["stands"] if s["id"] == "pbr.1")
    s["x"], s["y"], s["facing"] = 57, 30, -95
    app.presenter.set_speed(1.0)
    app.handle_events([move], moved)
    wake = app.presenter.current.root.find_all_matches("**/burst-puff")
    assert len(wake) >= 6, "foam from the stern and the bow"
    for _ in range(600):
        if not app.presenter.busy:
            break
        app.base.task_mgr.step()
    p = pieces.stands["pbr.1"].node.get_pos()
    assert math.hypot(p.x - 57, p.y - 30) < 0.05 and app.scene.effects.count() == 0
