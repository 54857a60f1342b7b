"""The film's sound track: the offline mixer on made-up cues (pan, fall-off, Doppler, stops, the limiter,
the same bytes twice), the cue sheet's sampling on real scene-graph nodes, and one tiny real film
carrying an AAC track."""

from __future__ import annotations

import io
import math
import re
import subprocess
import wave

import numpy as np
import panda3d.core as p3d
import pytest

from game.client import mixdown
from game.client.mixdown import CueSheet, Voice, mix
from game.client.sound import RATE, doppler, falloff, wav_bytes

TONE_HZ = 1000.0


def tone(seconds: float = 2.0, hz: float = TONE_HZ) -> np.ndarray:
    t = np.arange(int(seconds * RATE)) / RATE
    return 0.5 * np.sin(2 * math.pi * hz * t)  # a whole number of periods: a seamless loop


def sheet_with(*voices: Voice, sources=None) -> CueSheet:
    sheet = CueSheet(lambda: 0.0, sources={"tone": tone(), **(sources or {})})
    sheet.voices.extend(voices)
    return sheet


def still(name: str, distance: float, side: float, start: float = 0.0, end: float | None = None,
          loop: bool = True, seconds: float = 3.0, speed: float = 0.0) -> Voice:
    """A voice sampled at 30 frames a second, moving radially at ``speed`` inches a second."""
    v = Voice(name, start, loop=loop, end=end)
    for k in range(int(seconds * 30) + 1):
        t = k / 30
        v.place(t, distance + speed * t, side)
    return v


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(x)))) if x.size else 0.0


def peak_hz(x: np.ndarray) -> float:
    spec = np.abs(np.fft.rfft(x * np.hanning(len(x))))
    return float(np.fft.rfftfreq(len(x), 1 / RATE)[int(np.argmax(spec))])


def test_a_voice_to_the_right_is_louder_on_the_right():
    out = mix(sheet_with(still("tone", 4.0, 0.8)), 2.0)
    left, right = rms(out[:, 0]), rms(out[:, 1])
    assert right > 3 * left > 0
    centre = mix(sheet_with(still("tone", 4.0, 0.0)), 2.0)
    assert rms(centre[:, 0]) == pytest.approx(rms(centre[:, 1]), rel=1e-9)
    # equal power: the total is the same wherever the voice sits
    assert rms(out) == pytest.approx(rms(centre), rel=1e-6)


def test_farther_is_quieter_by_the_boards_fall_off():
    near = mix(sheet_with(still("tone", 3.0, 0.0)), 2.0)
    far = mix(sheet_with(still("tone", 30.0, 0.0)), 2.0)
    assert rms(far) < 0.5 * rms(near)
    assert rms(far) / rms(near) == pytest.approx(falloff(30.0) / falloff(3.0), rel=1e-6)


def test_a_receding_source_is_lower_in_pitch_and_an_approaching_one_higher():
    fixed = mix(sheet_with(still("tone", 20.0, 0.0)), 2.0)[:, 0]
    away = mix(sheet_with(still("tone", 20.0, 0.0, speed=25.0)), 2.0)[:, 0]
    near = mix(sheet_with(still("tone", 80.0, 0.0, speed=-25.0)), 2.0)[:, 0]
    assert peak_hz(fixed) == pytest.approx(TONE_HZ, abs=2)
    assert peak_hz(away) == pytest.approx(TONE_HZ * float(doppler(25.0)), abs=3)
    assert peak_hz(away) < 0.85 * TONE_HZ  # 25"/s at 3 m an inch is 75 m/s: a fifth of the speed of sound
    assert peak_hz(near) == pytest.approx(TONE_HZ * float(doppler(-25.0)), abs=3)
    assert peak_hz(near) > 1.2 * TONE_HZ


def test_a_camera_cut_does_not_bend_the_pitch():
    v = still("tone", 10.0, 0.0, seconds=2.0)
    v.distance[30:] = [60.0] * (len(v.distance) - 30)  # the director cuts to a far shot at 1 s
    again = Voice("tone", 0.0, loop=True)
    for t, d, s in zip(v.times, v.distance, v.side, strict=True):
        again.place(t, d, s)
    assert max(abs(s) for s in again.speed) == 0.0
    assert peak_hz(mix(sheet_with(again), 2.0)[:, 0]) == pytest.approx(TONE_HZ, abs=2)


def test_a_stopped_loop_goes_silent_and_a_one_shot_ends_with_its_samples():
    out = mix(sheet_with(still("tone", 5.0, 0.0, end=1.0)), 3.0)
    assert rms(out[: int(0.9 * RATE)]) > 0.01
    assert np.all(out[int((1.0 + mixdown.FADE) * RATE) + 2:] == 0.0)
    shot = mix(sheet_with(still("blip", 5.0, 0.0, start=0.5, loop=False), sources={"blip": tone(0.25)}), 3.0)
    assert np.all(shot[: int(0.5 * RATE)] == 0.0)
    assert rms(shot[int(0.55 * RATE): int(0.7 * RATE)]) > 0.01
    assert np.all(shot[int(0.76 * RATE):] == 0.0)


def test_the_limiter_keeps_a_bomb_stick_from_clipping():
    bangs = [still(name, 1.0, s, start=0.2 * k, loop=False)
             for k, (name, s) in enumerate([("explosion_big", -0.5), ("explosion_big", 0.0), ("explosion", 0.5),
                                            ("explosion_big", 0.2), ("explosion", -0.2)])]
    sheet = sheet_with(*bangs)
    raw = sum(np.max(np.abs(sheet.source(v.name))) for v in bangs)
    assert raw > 2.0  # the sum would clip several times over
    out = mix(sheet, 4.0)
    assert np.max(np.abs(out)) <= mixdown.CEILING + 1e-9
    assert rms(out) > 0.05
    # a quiet passage goes through untouched
    quiet = mix(sheet_with(still("tone", 20.0, 0.0)), 1.0)
    assert np.allclose(quiet, mixdown._voice(still("tone", 20.0, 0.0), tone(), int(RATE), 1.0)[1][:, None]
                       * [[1.0, 1.0]], atol=1e-12)


def test_the_same_cues_give_the_same_bytes():
    def one() -> bytes:
        voices = [still("rotor", 40.0, -0.3, speed=-8.0), still("shriek", 12.0, 0.6, start=0.4, loop=False),
                  still("explosion", 12.0, 0.6, start=1.7, loop=False)]
        return wav_bytes(mix(sheet_with(*voices), 3.0))

    first = one()
    assert first == one()
    with wave.open(io.BytesIO(first)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes()) == (2, 2, RATE, 3 * RATE)


def test_the_cue_sheet_samples_nodes_and_points_from_the_camera():
    render = p3d.NodePath("render")
    camera = render.attach_new_node("camera")
    camera.set_pos(0, -40, 20)
    camera.look_at(0, 0, 0)
    huey = render.attach_new_node("huey")
    now = [0.0]
    sheet = CueSheet(lambda: now[0])
    rotor = sheet.start("rotor", huey, loop=True)
    bang = sheet.start("explosion", (10.0, 0.0, 0.0))
    for k in range(10):
        now[0] = k / 10
        huey.set_pos(-20 + 4 * k, 0, 5)
        sheet.sample(camera, render)
    assert rotor.side[0] < -0.3 < 0.0 < rotor.side[-1]  # flew from the left across to the right
    assert bang.side[0] > 0.2 and bang.distance[0] == pytest.approx((p3d.LPoint3(10, 0, 0) - camera.get_pos()).length())
    now[0] = 1.0
    sheet.stop(rotor)
    assert rotor.end == 1.0
    huey.remove_node()
    now[0] = 1.1
    sheet.sample(camera, render)  # a removed node holds its last place; a stopped loop takes no more samples
    assert len(rotor.times) == 10


def test_a_tiny_film_carries_an_aac_track(tmp_path, warm_cache, capsys, monkeypatch):
    """End to end: the real engine finds an air strike (the A-1's engine and the O-1 overhead, the napalm),
    the film renders it at 160x90 and 2 fps with its track muxed in; ffmpeg reads an AAC stream."""
    import imageio_ffmpeg

    from game.client.film import film_main

    monkeypatch.setenv("DINKYDAU_CACHE", str(warm_cache))
    out = tmp_path / "d.mp4"
    assert film_main(["firebase_relief", "--showcase", "airstrike", "--out", str(out), "--size", "160x90",
                      "--fps", "2", "--tail", "0.5"]) == 0
    said = capsys.readouterr().out
    m = re.search(r"sound ([\d.]+) s stereo, peak (-?[\d.]+) dBFS, (\d+) cues", said)
    assert m, said
    assert float(m.group(1)) > 5 and -30 < float(m.group(2)) <= 0 and int(m.group(3)) >= 2
    info = subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-i", str(out)],
                          capture_output=True, text=True).stderr
    assert re.search(r"Stream #0:\d.*Audio: aac.*22050 Hz, stereo", info), info
    assert re.search(r"Stream #0:\d.*Video: h264", info), info
    assert not list(tmp_path.glob(".d.*"))  # the side files are gone


def test_the_sound_board_writes_its_plays_and_stops_to_the_cue_sheet(make_app):
    """Live or silent (no OpenAL), every play and stop reaches the sheet with the film's time."""
    from game.client.sound import SoundBoard
    from tests.client.fake_engine import FakeEngine

    app = make_app(FakeEngine, size=(160, 90))
    board = SoundBoard(app.base, app.base.camera)
    now = [1.5]
    board.cues = CueSheet(lambda: now[0])
    huey = app.render.attach_new_node("huey")
    rotor = board.play("rotor", huey, loop=True, gain=0.7)
    board.play("explosion", (10.0, 10.0, 0.0))
    now[0] = 4.0
    board.stop(rotor)
    got = [(v.name, v.start, v.end, v.loop, v.gain, v.node is not None) for v in board.cues.voices]
    assert got == [("rotor", 1.5, 4.0, True, 0.7, True), ("explosion", 1.5, None, False, 1.0, False)]
    board.cues = None
    assert board.play("m16", (0.0, 0.0, 0.0)) is None or board.live  # not recording: silent is None again
    board.destroy()
