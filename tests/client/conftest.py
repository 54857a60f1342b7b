"""Headless fixtures: one offscreen DinkyDauApp at a time (Panda3D allows one ShowBase per process)."""

from __future__ import annotations

import pytest

from game.client.settings import ClientSettings


@pytest.fixture
def make_app(tmp_path, monkeypatch):
    monkeypatch.setenv("DINKYDAU_CACHE", str(tmp_path / "cache"))
    apps = []

    def make(factory=None, size=(640, 360), shadows=False):
        from game.client.app import DinkyDauApp

        app = DinkyDauApp(ClientSettings(size=size, offscreen=True, shadows=shadows), engine_factory=factory)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.shutdown()
