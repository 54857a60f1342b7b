"""The attract-mode director (PRESENCE.md, "An attract-mode director") and the stick's timing on screen.

Most tests drive the director on a stand-in app (an orbit camera on a bare node, a frame clock, no
window): it frames what the focus hints ask for, exactly as on the table. One builds a real table (the
test engine's, its triple canopy planted by ``vegetation.Flora``) and hands it to a walk-up player.
The air strike's drops are timed on the recorded A-1 napalm strike the real engine played."""

from __future__ import annotations

import gzip
import json
import math
import random
import time
from pathlib import Path
from types import SimpleNamespace as NS

import numpy as np
import panda3d.core as p3d
import pytest

from game.client import airstrike, flight, framing
from game.client import director as dr
from game.client.camera import Orbit, OrbitCamera
from game.client.presenter import Focus

FIXTURES = Path(__file__).resolve().parent / "fixtures"


class Tasks:
    def __init__(self):
        self.tasks = {}

    def add(self, fn, name, sort=0):
        self.tasks[name] = fn

    def remove(self, name):
        self.tasks.pop(name, None)


class Clock:
    def __init__(self, dt=1 / 30):
        self.t, self.dt = 100.0, dt

    def get_dt(self):
        return self.dt


def stand_in(flora=None):
    clock = Clock()
    render = p3d.NodePath("render")
    cam = OrbitCamera(render.attach_new_node("camera"), 72.0, 48.0)
    app = NS(base=NS(task_mgr=Tasks(), clock=clock), camera=cam, render=render,
             scene=NS(flora=flora, changes=None), presenter=None)
    return app, dr.Director(app, clock=lambda: clock.t), clock


def run(app, d, clock, seconds, watch=None):
    for _ in range(round(seconds / clock.dt)):
        clock.t += clock.dt
        d._tick(NS(cont=1))
        if watch is not None:
            watch()


def until(app, cond, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not cond() and time.monotonic() < end:
        app.base.task_mgr.step()
        time.sleep(0.002)


def wood(x0, x1, y0, y1, step=2.0, radius=1.5, height=3.6):
    """Flora-shaped columns (x, y, ground z, heading | crown radius, height, lean, - | rgb, burnt) for a
    closed wood of broad crowns on a grid, as ``vegetation.Planting`` lays a triple canopy's upper storey."""
    xs, ys = np.meshgrid(np.arange(x0, x1, step), np.arange(y0, y1, step))
    rows = np.zeros((xs.size, 12), np.float32)
    rows[:, 0], rows[:, 1], rows[:, 4], rows[:, 5] = xs.ravel(), ys.ravel(), radius, height
    return rows


class FakeFlora:
    def __init__(self, rows):
        self.visible, self.rows, self.pointer, self.cleared = True, {"broadleaf_a": rows}, None, []

    def focus(self, selected=None, pointer=None, radius=3.0):
        self.cleared.append((selected, radius))


def test_a_fire_event_is_a_two_shot_square_across_the_line_of_fire():
    app, d, clock = stand_in()
    run(app, d, clock, 5.0)  # the opening overview, old enough to cut
    firer, target = (10.0, 8.0, 0.0), (34.0, 26.0, 0.0)
    d.on_start(NS(focus=[Focus(0.0, 6, "fire", (22.0, 17.0, 0.0), hold=4.0, subjects=(firer, target))]))
    run(app, d, clock, 0.1)
    assert d.shot.kind == "fire"
    n = app.camera.now
    view = (-math.sin(math.radians(n.heading)), math.cos(math.radians(n.heading)))
    line = np.subtract(target[:2], firer[:2]) / math.dist(target[:2], firer[:2])
    assert abs(float(np.dot(view, line))) < math.sin(math.radians(3))  # perpendicular, within 3 degrees
    assert (n.x, n.y) == pytest.approx((22.0, 17.0), abs=0.05)  # the middle of the line
    # both in frame: the line's half-length is within the lens's half-width at that distance
    half_width = n.distance * math.tan(math.radians(dr.HFOV / 2))
    assert 0.5 * math.dist(firer[:2], target[:2]) < half_width * 0.7
    # farther apart, farther back (the distance comes from the separation)
    assert framing.two_shot_distance(firer, target, 50) < framing.two_shot_distance((0, 0, 0), (60, 40, 0), 50)
    run(app, d, clock, 3.0)
    assert abs(app.camera.now.heading - n.heading) < 1e-6  # a two-shot holds its angle


def test_a_just_shown_subject_loses_to_a_fresh_one_of_equal_rank():
    app, d, clock = stand_in()
    run(app, d, clock, 5.0)
    d.on_start(NS(focus=[Focus(0.0, 6, "fire", (20.0, 20.0, 0.0), hold=4.0)]))
    run(app, d, clock, 6.0)
    assert d.shot.point == (20.0, 20.0, 0.0) and d.recent[-1] == pytest.approx((20.0, 20.0))
    # two fights of equal rank due at once, far apart: the one away from the last shot wins ...
    again, fresh = Focus(0.0, 6, "fire", (22.0, 21.0, 0.0), hold=4.0), Focus(0.0, 6, "fire", (55.0, 36.0, 0.0), hold=4.0)
    d.on_start(NS(focus=[again, fresh]))
    assert d.score(fresh, clock.t) - d.score(again, clock.t) == pytest.approx(dr.RECENT_PENALTY)
    run(app, d, clock, 0.1)
    assert d.shot.focus is fresh
    # ... and with nothing shown there lately, the same two tie
    d.recent.clear()
    assert d.score(fresh, clock.t) == d.score(again, clock.t)


def test_a_subject_under_triple_canopy_is_framed_from_a_pose_that_sees_it_or_the_trees_are_lifted():
    rows = wood(0, 30, 0, 30)
    flora = FakeFlora(rows)
    app, d, clock = stand_in(flora)
    canopy = framing.Canopy.of(flora)
    assert len(canopy) == len(rows)
    # just outside the wood's north edge: the default close-up (from the south, through the wood) is
    # blind; the director turns the camera until its rays see the stand, and lifts nothing
    edge = (15.0, 31.0, 0.0)
    blind = Orbit(*edge, app.camera.now.heading, framing.CLOSE_PITCH, framing.CLOSE_DISTANCE)
    assert canopy.seen(blind, [edge]) == 0.0
    pose, seen, lift = d.frame(dr.Shot("casualty", 7, 0.0, 4.0, edge, None, 22.0, 40.0))
    assert lift is None and seen >= framing.SEEN and canopy.seen(pose, [edge]) == seen
    assert abs(framing.turn(blind.heading, pose.heading)) >= 20  # it had to turn to see it
    # deep in the wood no pose sees it: the trees round it are lifted for the shot, and the pose looks
    # down into the clearing
    deep = (15.0, 15.0, 0.0)
    assert all(canopy.seen(Orbit(*deep, h, p, 13.0), [deep]) < 0.5 for h in range(0, 360, 30) for p in (20, 45, 70))
    pose, seen, lift = d.frame(dr.Shot("casualty", 7, 0.0, 4.0, deep, None, 22.0, 40.0))
    assert lift is not None and math.dist(lift[:2], deep[:2]) < 1e-6 and lift[2] >= dr.LIFT_RADIUS
    assert canopy.seen(pose, [deep], [lift]) >= framing.SEEN
    # on the table: the trees are lifted while the shot lasts, and put back when the next shot comes
    run(app, d, clock, 5.0)
    d.on_start(NS(focus=[Focus(0.0, 7, "casualty", deep, hold=3.0)]))
    run(app, d, clock, 0.5)
    assert d.shot.lift == lift and flora.cleared[-1] == ((15.0, 15.0), lift[2])
    d.on_start(NS(focus=[Focus(0.0, 9, "dustoff", (60.0, 40.0, 0.0), hold=5.0)]))
    run(app, d, clock, 4.5)
    assert d.shot.kind == "dustoff" and flora.cleared[-1] == (None, 3.0)
    # burnt trees have no leaves, and lifted-off trees none: they hide nothing
    rows[:, 11] = 1.0
    assert len(framing.Canopy.of(flora)) == 0
    rows[:, 11] = 0.0
    flora.visible = False
    assert len(framing.Canopy.of(flora)) == 0


def test_the_camera_never_turns_faster_than_the_caps_in_a_sequence_of_shots():
    app, d, clock = stand_in()
    yaw, pitch = [], []
    last = [app.camera.now.copy(), d.cuts]

    def watch():
        n = app.camera.now
        if d.cuts == last[1]:  # a hard cut is a cut, not a turn
            yaw.append(abs(n.heading - last[0].heading) / clock.dt)
            pitch.append(abs(n.pitch - last[0].pitch) / clock.dt)
        last[0], last[1] = n.copy(), d.cuts

    run(app, d, clock, 5.0, watch)
    rng = random.Random(3)
    for k in range(18):
        # a fight that goes on (its next exchange a few inches on, the line a few degrees round: small
        # enough to glide), now and then somewhere else on the table or a casualty's close-up (cuts)
        near = d.shot.pose if d.shot is not None and d.shot.pose is not None else app.camera.now
        far = k % 4 == 0
        x = rng.uniform(8, 64) if far else min(64.0, max(8.0, near.x + rng.uniform(-2, 2)))
        y = rng.uniform(8, 40) if far else min(40.0, max(8.0, near.y + rng.uniform(-2, 2)))
        a = math.radians(rng.uniform(0, 180) if far else 20 + rng.uniform(-8, 8))
        half = (9 * math.cos(a), 9 * math.sin(a))
        if k % 6 == 5:
            hint = Focus(0.0, 7, "casualty", (x, y, 0.0), hold=3.0, distance=22.0)
        else:
            hint = Focus(0.0, 6, "fire", (x, y, 0.0), hold=4.0, distance=34.0,
                         subjects=((x - half[0], y - half[1], 0.0), (x + half[0], y + half[1], 0.0)))
        d.recent.clear()  # (each exchange is fresh here: the test is of the motion)
        d.on_start(NS(focus=[hint]))
        run(app, d, clock, 4.5, watch)
    assert d.shots >= 12 and d.glides >= 1 and d.cuts >= 1  # it glided and it cut
    assert max(yaw) <= dr.YAW_RATE + 1e-6 and max(pitch) <= dr.PITCH_RATE + 1e-6
    assert d.clamped == 0  # the glides kept to the caps on their own: nothing had to be held back
    # a glide eases in and out: slow at its ends, fastest in its middle
    assert framing.ease(0.1) < 0.1 and framing.ease(0.5) == 0.5 and framing.ease(0.9) > 0.9
    a, b = Orbit(10, 10, 0, 0, 40, 30), Orbit(12, 10, 0, 20, 45, 30)
    assert framing.glides(a, b, dr.BLEND, dr.YAW_RATE, dr.PITCH_RATE)
    assert not framing.glides(a, Orbit(12, 10, 0, 60, 45, 30), dr.BLEND, dr.YAW_RATE, dr.PITCH_RATE)


def test_a_move_is_followed_with_the_target_running_ahead_of_the_mover():
    app, d, clock = stand_in()
    run(app, d, clock, 5.0)
    mover = app.render.attach_new_node("stand")
    a, b = (10.0, 10.0, 0.0), (30.0, 10.0, 0.0)
    mover.set_pos(*a)
    d.on_start(NS(focus=[Focus(0.0, 3, "move", b, node=mover, hold=3.0, distance=34.0, path=(a, b))]))
    run(app, d, clock, 0.1)
    assert d.shot.kind == "move"
    n = app.camera.now
    assert n.x - mover.get_x() == pytest.approx(framing.LEAD_MAX, abs=0.05)  # ahead, along the way
    view = (-math.sin(math.radians(n.heading)), math.cos(math.radians(n.heading)))
    assert view[0] > math.cos(math.radians(framing.FOLLOW_SIDE + 5))  # looking the way it goes
    for k in range(1, 11):  # the stand moves on; the camera's target keeps ahead of it, then stops at the end
        mover.set_x(10.0 + 2.0 * k)
        run(app, d, clock, 0.2)
        assert app.camera.now.x > mover.get_x() or k == 10
    run(app, d, clock, 1.0)
    assert app.camera.now.x == pytest.approx(30.0, abs=0.1)


def test_a_key_hands_over_the_camera_exactly_where_it_is():
    app, d, clock = stand_in()
    run(app, d, clock, 5.0)
    d.on_start(NS(focus=[Focus(0.0, 6, "fire", (30.0, 20.0, 0.0), hold=4.0, subjects=((24, 18, 0), (36, 22, 0)))]))
    run(app, d, clock, 0.7)
    cam = app.camera
    cam.goal.heading += 50  # something left the camera wanting to move on
    pose = cam.now.copy()
    d.enabled = False  # any key
    run(app, d, clock, 1.0)
    cam.update(0.5)  # the camera's own easing goes nowhere: its goal is where it is
    assert cam.now == pose
    # the player's game opens a new table with a new camera (at the overview): it starts in that pose
    app.camera = OrbitCamera(app.render.attach_new_node("camera2"), 72.0, 48.0)
    run(app, d, clock, 0.1)
    assert app.camera.now == pose and app.camera.goal == pose
    assert app.camera.camera.get_pos() == cam.camera.get_pos() and app.camera.camera.get_hpr() == cam.camera.get_hpr()
    app.camera.orbit(10, 0)  # the player's from here on: the director stays out of it
    run(app, d, clock, 1.0)
    assert app.camera.goal.heading == pytest.approx(pose.heading + 10)
    d.enabled = True  # back to the loop
    run(app, d, clock, 0.1)
    assert d.shot is not None and d.shot.kind == "establish"


def test_the_attract_mode_hands_the_camera_to_a_walk_up_player_exactly_where_it_is(make_app):
    from game.client.demo import AttractMode

    from .fake_engine import FakeEngine

    class Engine(FakeEngine):  # the AI steps both sides: the attract mode's game.step names the viewer
        def m_game_step(self, game, **_):
            return super().m_game_step(game)

    app = make_app(Engine, size=(320, 180))
    app.base.win.set_active(False)
    demo = AttractMode(app, ["fake_patrol"], idle_s=600, pace=0.0, seed=3)
    demo.start()
    until(app, lambda: app.camera is not None and demo.director.shots >= 1)
    d = demo.director
    assert app.camera is not None and d.shots >= 1
    d.on_start(NS(focus=[Focus(0.0, 9, "dustoff", (50.0, 30.0, 0.0), hold=5.0, heading=70.0, pitch=28.0)]))
    for _ in range(5):
        app.base.task_mgr.step()
    crowd, pose = app.camera, app.camera.now.copy()
    assert pose.heading != crowd.overview().heading  # the director's shot, not the table's opening view
    demo.on_button("a")  # any key: a solo game on the same scenario, on a new table
    assert demo.state == "player" and not d.enabled
    until(app, lambda: app.camera is not crowd and app.view.get("side") == "allied")
    assert app.camera is not crowd
    for _ in range(5):
        app.base.task_mgr.step()
    assert app.camera.now == pose and app.camera.goal == pose  # the player starts where the crowd was
    demo.stop()


def test_the_real_table_s_trees_hide_a_stand_in_the_jungle_and_the_director_lifts_them(make_app):
    from .fake_engine import FakeEngine

    app = make_app(FakeEngine, size=(320, 180))
    app.open_game_sync("fake_patrol", "allied")
    flora = app.scene.flora
    canopy = framing.Canopy.of(flora)
    assert len(canopy) > 50
    d = dr.Director(app, clock=lambda: 0.0)
    deep = (8.0, 42.0, float(app.scene.table.height_at(8.0, 42.0)))  # inside jungle1, triple canopy
    pose, seen, lift = d.frame(dr.Shot("casualty", 7, 0.0, 4.0, deep, None, 22.0, 40.0))
    assert seen >= framing.SEEN
    assert lift is not None or canopy.seen(pose, [deep]) >= framing.SEEN
    if lift is not None:
        d._lift(lift)
        held = flora.root.get_shader_input("u_clear0")  # held while its vector is read (it lives inside)
        v = p3d.LVector4(held.get_vector())
        assert (v[0], v[1], v[2], v[3]) == pytest.approx((deep[0], deep[1], lift[2], 1.0))
        d._release_trees()
        held = flora.root.get_shader_input("u_clear0")
        assert held.get_vector()[3] == 0.0
    d.stop()


def recorded_strike() -> dict:
    rec = json.loads(gzip.decompress((FIXTURES / "airstrike.json.gz").read_bytes()))
    return next(e for e in rec["batches"][rec["story"][-1]][0] if e["type"] == "air_pass")


def test_the_stick_lands_on_the_engines_clock():
    # DD-8.5: the engine's air_pass names each impact's t, seconds after the first (fire_support.toml
    # salvo_spread_s); on screen each canister lands at the first's time plus that t
    ev = recorded_strike()
    assert [p["t"] for p in ev["impacts"]] == [0.0, 0.35, 0.7, 1.05]
    stage = NS(height_at=lambda x, y: 0.0, root=p3d.NodePath("root"), rng=random.Random(1))
    path = flight.pass_path(tuple(ev["entry"]), tuple(ev["exit"]), ev["altitude"], 0.0, airstrike.SPEED[ev["aircraft"]],
                            72.0, 48.0, [tuple(r) for r in ev["release"]], turn=40.0)
    delay = 2.0
    falling, landings = airstrike.drops(stage, path, ev, delay, "napalm")
    t0 = landings[0][2]
    for (x, y, t), p in zip(landings, ev["impacts"], strict=True):
        assert (x, y) == (p["x"], p["y"]) and t - t0 == pytest.approx(p["t"], abs=1e-9)
    # the first falls freely from the aircraft at its release point
    z0 = path.at(path.time_nearest(*ev["release"][0]))[2]
    assert t0 - delay - path.time_nearest(*ev["release"][0]) == pytest.approx(math.sqrt(2 * (z0 - 0.1) / 38.0), rel=1e-6)
    # each canister leaves the aircraft as it passes its release point, and is on the ground at its time
    models = stage.root.find_all_matches("**/=setpiece=ordnance:napalm")
    assert models.get_num_paths() == len(ev["release"])
    for k, (seq, (x, y, t)) in enumerate(zip(falling, landings, strict=True)):
        shown = seq.ivals[0].getDuration()  # when it is let go (the Wait before it shows)
        assert shown + seq.ivals[2].getDuration() == pytest.approx(t)
        seq.setT(shown + 1e-4)
        node = next(m for m in models if not m.is_hidden())  # the one canister of this sequence
        at = node.get_pos()
        plane = path.at(shown - delay)
        assert math.dist((at.x, at.y, at.z), plane) < 0.05  # it leaves the aircraft
        assert math.dist(plane[:2], ev["release"][k]) < 0.6  # over the engine's release point
        seq.setT(t - 1e-4)
        at = node.get_pos()
        assert math.dist((at.x, at.y), (x, y)) < 0.05 and at.z == pytest.approx(0.1, abs=0.05)
        seq.setT(seq.getDuration())
        assert node.is_hidden()  # gone as it bursts


def test_a_bail_out_and_a_brew_up_are_set_pieces_filmed_close_up_not_from_the_ambush_s_wide_shot():
    # the ambush on thunder_road (seed 10, the batch where acav_2 is hit and its crew bails out): the
    # ambush's wide hint, the RPG's two-shot, the damage word, then the crew jumping clear (DD-5.16)
    app, d, clock = stand_in()
    run(app, d, clock, 5.0)
    hull, rpg = (34.6, 18.3, 0.5), (42.8, 19.1, 0.0)
    d.on_queue(NS(events=[{"type": "ambush"}, {"type": "at_fire"}, {"type": "bailout"}]))
    assert d.coming == 9  # a set piece is queued: the director holds its shot for it
    d.on_start(NS(focus=[Focus(0.0, 8, "ambush", (41.0, 18.5, 0.0), hold=5.0, distance=40.0),
                         Focus(0.1, 8, "at_fire", (38.7, 18.7, 0.3), hold=3.5, distance=34.0, subjects=(rpg, hull)),
                         Focus(0.8, 7, "vehicle_damage", (34.6, 18.3, 1.2), hold=3.0, distance=24.0),
                         Focus(2.5, 7, "bailout", hull, hold=3.0, distance=20.0)]))
    run(app, d, clock, 0.3)
    assert d.shot.kind == "at_fire" and d.shot.rank == 9  # the rocket's two-shot, not the ambush's wide one
    run(app, d, clock, 2.4)
    assert d.shot.kind == "bailout" and d.shot.rank == 9  # it takes over, though the two-shot is young
    run(app, d, clock, dr.BLEND)  # (it may glide there from the two-shot)
    n = app.camera.now
    assert (n.distance, n.pitch) == pytest.approx(framing.CLOSE_UPS["bailout"]) and n.distance < 20
    assert (n.x, n.y) == pytest.approx(hull[:2], abs=0.05)
    # the next batch: the second rocket, and 0.9 s later the hull brews up (DD-7.13): its close-up follows
    run(app, d, clock, 5.0)
    d.on_start(NS(focus=[Focus(0.0, 8, "at_fire", (38.7, 18.7, 0.3), hold=3.5, distance=34.0, subjects=(rpg, hull)),
                         Focus(0.9, 9, "brew_up", (34.6, 18.3, 0.05), hold=6.0, distance=26.0)]))
    run(app, d, clock, 0.5)
    assert d.shot.kind == "at_fire"
    run(app, d, clock, dr.FOLLOW_ON - 0.4)
    assert d.shot.kind == "brew_up" and (d.shot.pose.distance, d.shot.pose.pitch) == framing.CLOSE_UPS["brew_up"]
    # a casualty is no set piece: it waits for the brew-up's shot to be old enough
    d.on_start(NS(focus=[Focus(0.0, 7, "casualty", (20.0, 30.0, 0.0), hold=3.0)]))
    run(app, d, clock, 0.5)
    assert d.shot.kind == "brew_up"
