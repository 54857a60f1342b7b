"""Headless fixtures: one offscreen DinkyDauApp at a time (Panda3D allows one ShowBase per process), a
cache folder of its own for each test that starts warm with the bakes, and a clock driven by frames.

Each test's cache folder (``$DINKYDAU_CACHE``: saves, autosaves, bakes) is its own, as before; what is
shared is only what a bake writes under a content hash (the table's .glb, its light map, the painted mat,
the models converted to .bam): hard-linked in from the store (``.cache/test-bakes``) before the test, and
what the test baked linked back after it, so a table is baked once, not once a test. The store outlives the
run, as the game's own cache does (a key holds the bake's inputs and its code's hash: a changed table or
bake is baked again); it starts with the tables ``game.warm`` baked at install, and keeps the newest
``KEEP`` files of each kind. The bakes themselves, cold, are tested in tests/world (test_bake.py,
test_lightmap.py, test_table_caches.py) on folders of their own.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from game.client.settings import ClientSettings

BAKED = ("*.glb", "*.npy", "bam/*.bam")
"""What a bake leaves in a cache folder under a content hash (never saves, never a half-written file)."""
STORE = Path(__file__).resolve().parents[2] / ".cache" / "test-bakes"
KEEP = 64
"""The store keeps the newest this many of each kind of bake (by pattern): some 40 MB at most."""


def _baked(folder: Path) -> list[Path]:
    return [p.relative_to(folder) for pattern in BAKED for p in folder.glob(pattern)
            if ".tmp" not in p.name and p.is_file() and not p.is_symlink()]


def _link_all(src: Path, dst: Path) -> None:
    """Hard-link what ``src`` has baked into ``dst`` where it is missing."""
    for rel in _baked(src):
        target = dst / rel
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):  # another worker linked it first, or a file system without links
            os.link(src / rel, target)


def _prune(store: Path) -> None:
    """Keep the ``KEEP`` newest files of each pattern in the store (a bake's file is as old as the bake)."""
    for pattern in BAKED:
        found = []
        for p in store.glob(pattern):
            with contextlib.suppress(OSError):
                found.append((p.stat().st_mtime_ns, p))
        for _, p in sorted(found, reverse=True)[KEEP:]:
            with contextlib.suppress(OSError):
                p.unlink()


@pytest.fixture(scope="session")
def bake_store() -> Path:
    """The bakes: one folder shared by the xdist workers of a run and by the runs after it."""
    from game.world.bake import cache_dir

    STORE.mkdir(parents=True, exist_ok=True)
    _link_all(cache_dir(), STORE)  # the shipped tables game.warm baked at install
    _prune(STORE)
    return STORE


@pytest.fixture
def warm_cache(tmp_path, bake_store) -> Path:
    """A cache folder of the test's own (``tmp_path/cache``) holding the run's bakes so far; what the
    test bakes joins the store when it ends."""
    cache = tmp_path / "cache"
    cache.mkdir()
    _link_all(bake_store, cache)
    yield cache
    _link_all(cache, bake_store)


@pytest.fixture
def make_app(warm_cache, monkeypatch):
    monkeypatch.setenv("DINKYDAU_CACHE", str(warm_cache))
    apps = []

    def make(factory=None, size=(320, 180), shadows=False):
        from game.client.app import DinkyDauApp

        app = DinkyDauApp(ClientSettings(size=size, offscreen=True, shadows=shadows), engine_factory=factory)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.shutdown()


@pytest.fixture
def frame_clock():
    """Each frame advances the clock by exactly 1/10 s (as ``dinkydau film`` does at its frame rate;
    ``frame_clock.set_frame_rate`` changes it); back to real time at the end."""
    import panda3d.core as p3d

    clock = p3d.ClockObject.get_global_clock()
    clock.set_mode(p3d.ClockObject.M_non_real_time)
    clock.set_frame_rate(10)
    yield clock
    clock.set_mode(p3d.ClockObject.M_normal)
