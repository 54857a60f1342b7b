"""Set pieces from geometry: flight paths start at the table edge and end where the engine says (the fire
support the engine really sends is test_fire_support's); sounds work with no sound device; the models are
built deterministically with turning parts."""

from __future__ import annotations

import math

import numpy as np
import panda3d.core as p3d
from shapely.geometry import Point, Polygon

from game.client import flight

from .fake_engine import FakeEngine

W, H = 72.0, 48.0


def outside(p) -> bool:
    return p[0] < 0 or p[0] > W or p[1] < 0 or p[1] > H


def test_huey_paths_run_from_the_edge_to_the_engines_points():
    for lz in ((30.0, 20.0), (6.0, 40.0), (70.0, 3.0)):
        app = flight.huey_approach(*lz, 0.4, W, H)
        assert outside(app.xyz[0]) and math.hypot(*(app.xyz[-1, :2] - lz)) < 1e-6
        assert app.xyz[-1, 2] == 0.4 and app.xyz[:, 2].max() <= 0.4 + flight.HUEY_CRUISE + 0.5
        assert app.hpr[:, 1].max() > 8  # the nose comes up in the flare
        dep = flight.huey_departure(*lz, 0.4, app.hpr[-1, 0], W, H)
        assert math.hypot(*(dep.xyz[0, :2] - lz)) < 1e-6 and outside(dep.xyz[-1])
        wave = flight.huey_wave_off(*lz, 0.4, W, H)
        assert wave.xyz[:, 2].min() > 0.4 + 1.5 and outside(wave.xyz[-1])  # never lands
        crash, hit = flight.huey_crash(*lz, 0.4, W, H)
        assert math.hypot(*(crash.xyz[-1, :2] - lz)) < 1e-6 and 0 < hit < crash.duration
        assert crash.hpr[-1, 0] - crash.hpr[np.searchsorted(crash.t, hit), 0] > 720  # it spins down


def test_strike_geometry():
    run = flight.strike_run((-10, 10), (82, 30), [(0, 12), (0.5, 4), (1, 14)])
    mid = run.at(run.duration / 2)
    assert 0 < mid[0] < W and 0 < mid[1] < H and abs(mid[2] - 4) < 0.5  # over the table, low
    assert run.hpr[-1, 2] > 30  # banking off
    t = run.time_nearest(40, 20.9)  # a release point on the run's line
    assert math.hypot(*(run.at(t)[:2] - (40, 20.9))) < 0.5
    drop = flight.fall((40, 17, 6), (20, 5, 0), 0.5)
    assert drop.xyz[-1, 2] == 0.5 and drop.xyz[-1, 0] > 40
    poly = [(30, 20), (44, 22), (44, 26), (30, 24)]
    pts = flight.footprint_points(poly, 10.0)
    assert pts and all(Polygon(poly).contains(Point(x, y)) for x, y, _ in pts)
    assert [s for *_, s in pts] == sorted(s for *_, s in pts) and pts[0][2] == 0 and pts[-1][2] == 1
    corridor = flight.corridor_points((10, 10), (30, 10), 2.0, 8, seed=1)
    assert all(9 <= y <= 11 and 10 <= x <= 30 for x, y, _ in corridor)


def test_sound_with_no_device(make_app, monkeypatch):
    from game.client import sound

    monkeypatch.setenv("ALSOFT_DRIVERS", "null")
    for name in sound.SOUNDS:
        x = sound.synth(name)
        assert len(x) > 0.5 * sound.RATE and 0.5 < np.abs(x).max() <= 1.0
    assert np.array_equal(sound.synth("m60"), sound.synth("m60"))  # deterministic
    # small arms are told apart by rhythm: an M60's stream has more shots than an M16's burst
    def shots(x):
        env = np.abs(x) > 0.5
        return int(np.sum(env[1:] & ~env[:-1]))
    assert shots(sound.synth("m60")) > shots(sound.synth("m16")) >= 2
    app = make_app(FakeEngine, size=(160, 90))
    board = sound.SoundBoard(app.base, app.base.camera)
    assert board.live, board.problem  # OpenAL (with its null driver here), not Panda's null manager
    node = app.render.attach_new_node("huey")
    snd = board.play("rotor", node, loop=True)
    assert snd is not None and snd.length() > 1.5
    assert board.play("explosion", (10, 10, 0)).length() > 2
    assert board.toggle_mute() and board.manager.get_volume() == 0
    assert not board.toggle_mute() and board.manager.get_volume() > 0
    board.stop_all()
    assert not board.playing
    board.destroy()


def test_shake_never_rolls_or_bobs_much():
    from game.client.fx import Shake

    cam = p3d.NodePath("cam")
    sh = Shake(cam)
    for _ in range(5):
        sh.add(1.0)
    peak = [0.0, 0.0, 0.0]
    for _ in range(200):
        sh.update(1 / 60)
        peak = [max(a, abs(b)) for a, b in zip(peak, cam.get_hpr(), strict=True)]
        assert cam.get_pos() == p3d.LPoint3(0, 0, 0)  # no bob
    assert 0.5 < peak[0] <= Shake.MAX_YAW and peak[2] <= Shake.MAX_ROLL
    for _ in range(120):
        sh.update(1 / 60)
    assert cam.get_hpr() == p3d.LVecBase3(0, 0, 0)  # it dies away


def test_models_are_deterministic_and_rotors_are_separate_nodes(tmp_path):
    import importlib.util
    import sys

    from game.client.settings import MODELS_DIR

    spec = importlib.util.spec_from_file_location("build_aircraft", MODELS_DIR / "build_aircraft.py")
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(MODELS_DIR))
    try:
        spec.loader.exec_module(mod)
        files = mod.build(tmp_path)
    finally:
        sys.path.remove(str(MODELS_DIR))
    for f in files:
        assert f.read_bytes() == (MODELS_DIR / f.name).read_bytes(), f"{f.name} is stale: run models/build_aircraft.py"
    from game.client.assets import load_glb

    huey = load_glb(MODELS_DIR / "uh1_dustoff.glb")
    assert not huey.find("**/rotor_main").is_empty() and not huey.find("**/rotor_tail").is_empty()
    lo, hi = huey.get_tight_bounds()
    assert 5.5 < hi.x - lo.x < 6.6  # a 1:100 UH-1H: 12.8 m of fuselage (5.0") and its tail rotor
    assert 1.3 < hi.z - lo.z < 1.8
