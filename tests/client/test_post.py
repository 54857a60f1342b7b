"""The post passes: the low tier installs none; the high tier builds its GLSL passes and draws a frame
through them, with the interface left out of the filtering."""

from __future__ import annotations

import panda3d.core as p3d
import pytest

from game.client import post
from game.client.settings import ClientSettings

from .fake_engine import FakeEngine


@pytest.fixture
def app_at(tmp_path, monkeypatch):
    monkeypatch.setenv("DINKYDAU_CACHE", str(tmp_path / "cache"))
    made = []

    def make(quality: str):
        from game.client.app import DinkyDauApp

        app = DinkyDauApp(ClientSettings(size=(320, 180), offscreen=True, shadows=False, quality=quality),
                          engine_factory=FakeEngine)
        made.append(app)
        return app

    yield make
    post.remove()
    for app in made:
        app.shutdown()


def _mean(path) -> tuple[float, float]:
    img = p3d.PNMImage()
    assert img.read(p3d.Filename.from_os_specific(str(path)))
    total, n, spread = 0.0, 0, 0.0
    for y in range(0, img.get_y_size(), 6):
        for x in range(0, img.get_x_size(), 6):
            v = img.get_bright(x, y)
            total += v
            spread += abs(v - 0.5)
            n += 1
    return total / n, spread / n


def test_low_tier_installs_nothing(app_at):
    app = app_at("low")
    app.open_game_sync("fake_patrol")
    assert app.settings.quality == "low"
    assert post.installed() is None
    assert app.base.cam.node().get_display_region(0).get_window() == app.base.win


def test_high_tier_builds_passes_and_draws_a_frame(app_at, tmp_path):
    app = app_at("high")
    app.open_game_sync("fake_patrol")
    passes = post.installed()
    assert passes is not None and len(passes.passes) == 3
    for quad in passes.passes:
        assert quad.get_shader() is not None
    # the scene camera now draws into an offscreen buffer, not the window; the 2D region is the window's
    assert app.base.cam.node().get_display_region(0).get_window() != app.base.win
    assert app.base.cam2d.node().get_display_region(0).get_window() == app.base.win
    app.frame_camera("top")
    app.settle()
    shot = tmp_path / "high.png"
    app.screenshot(str(shot))
    mean, spread = _mean(shot)
    assert 0.05 < mean < 0.95 and spread > 0.02, "the filtered frame should show the table, not a flat colour"
    # a new table keeps the same passes, following the new camera
    assert post.install(app.base, app.settings, app.camera) is passes
    post.remove()
    assert post.installed() is None
    assert app.base.cam.node().get_display_region(0).get_window() == app.base.win
