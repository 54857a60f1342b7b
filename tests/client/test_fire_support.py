"""Fire support on the table (DD chapter 8), from games the real engine played (``record_events``: the
Allied AI's A-1 napalm strike under an O-1 FAC and its 155 mm mission; scripted calls for bombs, rockets,
WP, illumination, a gunship on station and its run, and Spooky at night): every event type is handled;
the aircraft flies in over the table and its canisters land on the engine's impacts; shells land at the
engine's points at its time offsets after their shriek; craters and burnt ground appear where the engine
says, also on a table built from a saved view; each sequence cleans up after itself; the Insurgent's
screen never shows the Allied call or its Target marker; the film finds its situations in real games."""

from __future__ import annotations

import gzip
import json
import math
import time
from pathlib import Path

import numpy as np
import panda3d.core as p3d
import pytest
import shapely
from shapely.geometry import Point, Polygon

from game.client import flight, fx
from game.client import presenter as pr
from game.client import setpieces as sp

from .fake_engine import FakeEngine

FIXTURES = Path(__file__).resolve().parent / "fixtures"
FIRE_TYPES = {"air_pass", "fire_mission", "terrain", "smoke", "gunship", "illumination"}


def recording(name: str) -> dict:
    return json.loads(gzip.decompress((FIXTURES / f"{name}.json.gz").read_bytes()))


def table(make_app, rec: dict, side: str = "referee", start=None):
    app = make_app(FakeEngine, size=(320, 180))
    app.viewing, app.mode = side, "watch"
    app._on_new(start or rec["start"], advance=False)
    app.base.win.set_active(False)  # the timelines run; no pictures are needed here
    app.faults = []
    app.presenter.on_error = app.faults.append
    return app


def apply_all(app, batches) -> None:
    app.presenter.set_speed(pr.INSTANT)
    for events, view in batches:
        app.handle_events(events, view)
        app.base.task_mgr.step()


def play(app, events, view, watch=None, limit: int = 10 * 120) -> int:
    pres = app.presenter
    pres.set_speed(1.0)
    app.handle_events(events, view)
    n = 0
    while pres.busy and n < limit:
        if watch is not None:
            watch(n / 10.0)
        app.base.task_mgr.step()
        n += 1
    assert not pres.busy, "the batch ends"
    return n


def _sky(app) -> p3d.LVector3:
    """The scene's ambient sky colour now, copied while its shader input is held (the vector
    ``get_vector`` hands back lives inside the input: read through a dropped input, it is garbage)."""
    held = app.scene.root.get_shader_input("u_sky")
    return p3d.LVector3(held.get_vector().get_xyz())


def nodes(app) -> int:
    """The scene's node count once the set piece's sounds have played out (a sound at a fixed point has
    an anchor node until it ends; the sounds run in real time, the presenter on the test's clock)."""
    end = time.monotonic() + 10.0
    while app.sound is not None and app.sound.playing and time.monotonic() < end:
        app.base.task_mgr.step()
        time.sleep(0.02)
    assert app.sound is None or not app.sound.playing, "every sound of the sequence ends"
    return app.render.find_all_matches("**").get_num_paths()


def canopy_triangles(table):
    """Each canopy primitive's triangles as (n, 3, 2) plan points, read straight from the vertex arrays."""
    out = []
    for gnp in table.canopy.find_all_matches("**/+GeomNode"):
        for gi in range(gnp.node().get_num_geoms()):
            g = gnp.node().get_geom(gi)
            vdata = g.get_vertex_data()
            fmt = vdata.get_format()
            col = fmt.get_column(p3d.InternalName.get_vertex())
            ai = fmt.get_array_with(p3d.InternalName.get_vertex())
            raw = np.frombuffer(memoryview(vdata.get_array(ai)), dtype=np.uint8).reshape(-1, fmt.get_array(ai).get_stride())
            xyz = raw[:, col.get_start():col.get_start() + 12].copy().view(np.float32).reshape(-1, 3)
            for pi in range(g.get_num_primitives()):
                prim = g.get_primitive(pi)
                kind = np.uint32 if prim.get_index_type() == p3d.GeomEnums.NT_uint32 else np.uint16
                idx = np.frombuffer(memoryview(prim.get_vertices()), dtype=kind).reshape(-1, 3)
                out.append(xyz[idx][:, :, :2])
    return out


def first(events, etype, **match) -> dict:
    return next(e for e in events if e["type"] == etype and all(e.get(k) == v for k, v in match.items()))


def test_every_fire_support_event_the_engine_sent_is_handled():
    types = set()
    for name in ("airstrike", "artillery", "fire_variety", "fire_night"):
        rec = recording(name)
        for batches in [rec["batches"], *rec["sides"].values()]:
            for events, _ in batches:
                types |= {e["type"] for e in events}
    assert FIRE_TYPES <= types, types
    assert pr.unhandled(types) == []
    assert {h for t, h in pr.HANDLERS.items() if t in FIRE_TYPES}  # handlers, not log-only
    assert not FIRE_TYPES & pr.LOG_ONLY


def test_a_recorded_napalm_strike_flies_over_the_table_lands_on_the_impacts_and_cleans_up(make_app, frame_clock):
    rec = recording("airstrike")
    app = table(make_app, rec)
    k = rec["story"][-1]
    apply_all(app, rec["batches"][:k])
    events, view = rec["batches"][k]
    ev = first(events, "air_pass")
    burnt = first(events, "terrain", kind="burnt")
    w, h = app.scene.table.width, app.scene.table.height
    plane_at, fac_at, landed = [], [], {}
    burnt_seen = []

    def watch(t):
        root = app.presenter.current.root if app.presenter.current else None
        if root is None or root.is_empty():
            return
        for m in root.find_all_matches(f"**/=setpiece={ev['aircraft']}"):
            if not m.is_hidden():
                plane_at.append((t, m.get_pos(app.render), m.get_quat(app.render)))
        for m in root.find_all_matches("**/=setpiece=o1_bird_dog"):
            if not m.is_hidden():
                fac_at.append(m.get_pos(app.render))
        for m in root.find_all_matches("**/=setpiece=ordnance:napalm"):
            if not m.is_hidden():
                landed[m.node().this] = m.get_pos(app.render)  # its last place before it bursts
        holder = app.scene.changes.items.get(burnt["change"])
        if holder is not None and not holder.is_hidden():
            burnt_seen.append(t)

    play(app, events, view, watch)
    assert not app.faults
    # in from beyond one edge, out beyond the other, over the table in between, at the engine's heights
    xs = [p.x for _, p, _ in plane_at]
    assert min(xs) < 0 or max(xs) > w or min(p.y for _, p, _ in plane_at) < 0 or max(p.y for _, p, _ in plane_at) > h
    over = [p for _, p, _ in plane_at if 0 < p.x < w and 0 < p.y < h]
    assert over, "mid-run the aircraft is over the table"
    assert max(p.z for p in over) <= max(z for _, z in ev["altitude"]) + 1.0
    # the FAC's Bird Dog circled the mark first
    assert fac_at and min(math.dist((p.x, p.y), ev["mark"]) for p in fac_at) < 12.0
    # each canister ends on the impact the engine paired with its release point
    assert len(landed) == len(ev["release"])
    hits = sorted(min(range(len(ev["impacts"])), key=lambda i: math.hypot(p.x - ev["impacts"][i]["x"],
                                                                          p.y - ev["impacts"][i]["y"]))
                  for p in landed.values())
    assert hits == list(range(len(ev["impacts"])))  # one canister on each impact
    for p in landed.values():  # seen at most a frame (0.1 s) before it bursts
        assert min(math.hypot(p.x - i["x"], p.y - i["y"]) for i in ev["impacts"]) < 1.0 and p.z < 1.5
        assert Polygon(ev["footprint"]).buffer(1.0).contains(Point(p.x, p.y))
    # the burnt ground appears as the fire lands, before the view comes, and stays
    t_land = min(t for t, p, _ in plane_at if min(math.dist((p.x, p.y), r) for r in ev["release"]) < 1.0)
    assert burnt_seen and t_land <= burnt_seen[0] <= t_land + 1.5, "the ground burns as the canisters land"
    assert not app.scene.changes.items[burnt["change"]].is_hidden()
    # nothing of the sequence is left: played again, the table has exactly the same nodes
    assert app.scene.effects.count() == 0
    after = nodes(app)
    play(app, events, view)
    assert nodes(app) == after


def test_the_aircraft_is_wings_level_through_its_release_points():
    rec = recording("airstrike")
    ev = first(rec["batches"][rec["story"][-1]][0], "air_pass")
    path = flight.pass_path(tuple(ev["entry"]), tuple(ev["exit"]), ev["altitude"], 0.0, 17.0, 72.0, 48.0,
                            [tuple(r) for r in ev["release"]], turn=40.0)
    for rx, ry in ev["release"]:
        t = path.time_nearest(rx, ry)
        assert math.dist(path.at(t)[:2], (rx, ry)) < 0.5
        assert abs(np.interp(t, path.t, path.hpr[:, 2])) < 2.0  # wings level
        z = float(np.interp(math.dist((rx, ry), ev["entry"]), [a for a, _ in ev["altitude"]],
                            [b for _, b in ev["altitude"]]))
        assert abs(path.at(t)[2] - z) < 0.5  # the engine's height at that point of the run
    t_last = max(path.time_nearest(*r) for r in ev["release"])
    assert abs(path.hpr[path.t > t_last, 2]).max() > 40  # it breaks off banked
    assert abs(path.hpr[path.t > t_last, 0] - ev["heading"]).max() > 20  # and turns away
    assert flight.off_table(*path.xyz[0, :2], 72, 48, 0) and flight.off_table(*path.xyz[-1, :2], 72, 48, 0)
    # a model's nose lies along +x: pitch raises the nose, roll drops the right wing
    node, ref = p3d.NodePath("plane"), p3d.NodePath("world")
    fx.aim(node, 0.0, 30.0, 0.0)
    assert ref.get_relative_point(node, (4, 0, 0)).z > 1.9
    fx.aim(node, 0.0, 0.0, 30.0)
    assert ref.get_relative_point(node, (0, -2, 0)).z < -0.9 and ref.get_relative_point(node, (4, 0, 0)).z == pytest.approx(0)


def test_shells_shriek_then_land_on_the_engines_points_at_its_offsets_and_leave_its_crater(make_app, frame_clock,
                                                                                             monkeypatch):
    rec = recording("artillery")
    app = table(make_app, rec)
    k = rec["story"][-1]
    apply_all(app, rec["batches"][:k])
    events, view = rec["batches"][k]
    ev = first(events, "fire_mission", phase="impact")
    change = first(events, "terrain", kind="crater")
    blasts, cues = [], []
    real_blast, real_cue = sp.blast, pr.Stage.cue
    monkeypatch.setattr(sp, "blast", lambda stage, x, y, calibre="mortar", delay=0.0, **kw:
                        blasts.append((x, y, calibre, stage.now + delay)) or real_blast(stage, x, y, calibre, delay, **kw))
    monkeypatch.setattr(pr.Stage, "cue", lambda self, name, where, **kw: cues.append(name) or real_cue(self, name, where, **kw))
    crater_at = []
    app.shake.peak = 0.0
    shown = app.scene.changes.items.get

    play(app, events, view, lambda t: crater_at.append(t) if shown(change["change"]) is not None
         and not shown(change["change"]).is_hidden() else None)
    assert not app.faults
    mine = [b for b in blasts if b[2] == "155"]
    assert [(x, y) for x, y, *_ in mine] == [(p["x"], p["y"]) for p in ev["impacts"]]
    t0 = mine[0][3]
    assert [round(t - t0, 3) for *_, t in mine] == [p["t"] for p in ev["impacts"]]  # the engine's stagger
    assert t0 >= sp.SHRIEK and cues.count("shriek") >= len(ev["impacts"])  # heard before they land
    assert crater_at and crater_at[0] >= t0 - 0.2, "the crater forms as the rounds land"
    assert 0.0 < app.shake.peak <= max(fx.Shake.MAX_YAW, fx.Shake.MAX_PITCH)
    assert app.base.cam.get_r() == pytest.approx(0.0, abs=fx.Shake.MAX_ROLL)
    # the craters stand inside the engine's polygon
    poly = Polygon(change["polygon"])
    holes = app.scene.changes.items[change["change"]].find_all_matches("**/=crater")
    assert len(holes) >= 2
    assert all(poly.contains(Point(m.get_pos(app.render).x, m.get_pos(app.render).y)) for m in holes)
    assert app.scene.effects.count() == 0
    after = nodes(app)
    play(app, events, view)
    assert nodes(app) == after


def test_a_loaded_game_shows_the_craters_and_burnt_ground_and_no_canopy_over_it(make_app):
    for name in ("airstrike", "artillery"):
        rec = recording(name)
        view = rec["batches"][-1][1]
        app = table(make_app, rec, start={**rec["start"], "view": view, "events": []})
        changes = app.scene.changes
        assert set(changes.items) == {c["id"] for c in view["terrain_changes"]} and changes.items
        for c in view["terrain_changes"]:
            assert changes.kinds[c["id"]] == c["kind"]
            holder = changes.items[c["id"]]
            lo, hi = holder.get_tight_bounds(app.render)
            poly = Polygon(c["polygon"])
            minx, miny, maxx, maxy = poly.bounds  # drawn over the engine's polygon (and the canopy it opened)
            assert minx - 2.6 <= lo.x < hi.x <= maxx + 2.6 and miny - 2.6 <= lo.y < hi.y <= maxy + 2.6
            assert poly.buffer(0.5).contains(Point((lo.x + hi.x) / 2, (lo.y + hi.y) / 2)) or c["kind"] == "burnt"
            if c["kind"] == "burnt":
                inner = poly.buffer(-0.3)
                for xy in canopy_triangles(app.scene.table):
                    centres = xy.mean(axis=1)
                    assert not shapely.contains_xy(inner, centres[:, 0], centres[:, 1]).any(), "no canopy over burnt ground"
        app.shutdown()


@pytest.mark.parametrize("name", ["airstrike", "artillery", "fire_variety"])
def test_the_insurgent_screen_never_shows_the_allied_call_or_its_target_marker(make_app, frame_clock, monkeypatch,
                                                                                name):
    """docs/fog.md, DD-8.6: the call, the Target marker and the smoke's colour are the caller's side's."""
    rec = recording(name)
    calls = []
    real = sp._call
    monkeypatch.setattr(sp, "_call", lambda stage, ev, *a: calls.append(stage.presenter.scene) or real(stage, ev, *a))
    seen = {}
    for side in ("insurgent", "allied"):
        # the side's screen from the view it had just before the call (its batch i + 1 is the referee's i)
        k = rec["story"][0]
        batches = rec["sides"][side][k:]
        app = table(make_app, rec, side, start={"game": "g1", "view": batches[0][1], "events": []})
        app.link.call = app.link.request = lambda *a, **k: pytest.fail("the presenter asked the engine")
        calls.clear()
        targets, colours = 0, set()
        app.presenter.set_speed(pr.INSTANT)
        for events, view in batches[1:]:
            app.handle_events(events, view)
            app.base.task_mgr.step()
            assert not [e for e in events if e["type"] == "fire_mission" and e.get("phase") == "call"] or side == "allied"
            targets += sum(1 for m in app.scene.pieces.view.get("markers", []) if m.get("kind") == "target")
            targets += app.scene.pieces.root.find_all_matches("**/target_marker*").get_num_paths()
            colours |= {m.get("colour") for m in app.scene.pieces.view.get("markers", [])
                        if m.get("kind") == "smoke" and m.get("purpose") == "marking"}
        seen[side] = (len(calls), targets, colours)
        assert not app.faults
        app.shutdown()
    assert seen["insurgent"][:2] == (0, 0), "no call played, no Target marker drawn on the Insurgent's screen"
    assert seen["allied"][0] > 0 and seen["allied"][1] > 0, "the Allies see their own"
    assert seen["insurgent"][2] <= {None}


@pytest.mark.parametrize("name", ["fire_variety", "fire_night"])
def test_bombs_rockets_wp_flares_gunships_and_spooky_play_and_clean_up(make_app, name):
    rec = recording(name)
    clock = p3d.ClockObject.get_global_clock()
    clock.set_mode(p3d.ClockObject.M_non_real_time)
    clock.set_frame_rate(5)
    try:
        app = table(make_app, rec)
        pres = app.presenter
        sky0 = _sky(app)
        done = 0
        lifted = []
        for i, (events, view) in enumerate(rec["batches"]):
            if i not in rec["story"]:
                apply_all(app, [(events, view)])
                continue
            kinds = {(e["type"], e.get("kind") or e.get("phase")) for e in events}
            over = []

            def watch(t, events=events, over=over):
                root = pres.current.root if pres.current else None
                if root is None or root.is_empty():
                    return
                for e in events:
                    if e["type"] == "air_pass":
                        for m in root.find_all_matches(f"**/=setpiece={e['aircraft']}"):
                            p = m.get_pos(app.render)
                            if not m.is_hidden() and 0 < p.x < 72 and 0 < p.y < 48:
                                over.append(e["aircraft"])
                lifted.append(_sky(app).x)

            pres.set_speed(1.0)
            app.handle_events(events, view)
            n = 0
            while pres.busy and n < 5 * 150:
                watch(n / 5)
                app.base.task_mgr.step()
                n += 1
            assert not pres.busy and not app.faults, app.faults
            assert app.scene.effects.count() == 0
            for e in events:
                if e["type"] == "air_pass":
                    assert e["aircraft"] in over, f"the {e['aircraft']} flies over the table"
            if ("gunship", "on_station") in kinds:  # it stays, circling its station
                assert [k for _, _, k in pres.support.items.values() if k == "gunship"]
            done += 1
        assert done >= 5
        if name == "fire_night":  # star shells and Spooky's light lift the dark table while they burn
            assert max(lifted) > sky0.x + 0.1
    finally:
        clock.set_mode(p3d.ClockObject.M_normal)


def test_the_film_finds_real_strikes_and_missions(tmp_path):
    from game.client import film
    from game.engine.client import InProcessEngine

    ref = film.scenario_with_support("firebase_relief", "airstrike")
    assert ("allied", "fac_o1") in {(r["side"], r["asset"]) for r in ref["support"]}
    assert len({(r["side"], r["asset"]) for r in ref["support"]}) == len(ref["support"])  # none twice
    engine = InProcessEngine()
    for show, etype in (("airstrike", "air_pass"), ("artillery", "fire_mission")):
        sit = film.find(engine, "firebase_relief", show, 1, 12, log=lambda *_: None)
        assert sit is not None, show
        story = [e for i in sit.story for e in sit.batches[i][0]]
        assert any(e["type"] == etype and e.get("phase", "impact") == "impact" for e in story)
        assert any(e["type"] == "fire_mission" and e.get("phase") == "call" for e in story)
