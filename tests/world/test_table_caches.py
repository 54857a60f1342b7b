"""What a long-running engine keeps of the tables it has played on (issue 11): a table's ray scene and
its sightlines live while a game uses it, or while it is one of the few tables opened last; the baked
files on disk are bounded too, and nothing but a bake is ever deleted."""

from __future__ import annotations

import gc
import os
import time
import weakref
from collections import OrderedDict

import pytest

from game.rules import game as game_mod
from game.rules.game import Game, Recent, live_tables, scenario_key
from game.rules.scenario import build_scenario, resolve_scenario
from game.world import bake
from tests.builders import element, scenario, stand


@pytest.fixture
def registry(monkeypatch):
    """An empty table registry that keeps the 2 tables opened last."""
    monkeypatch.setattr(game_mod, "_TABLES", weakref.WeakValueDictionary())
    monkeypatch.setattr(game_mod, "_RECENT", OrderedDict())
    monkeypatch.setattr(game_mod, "KEEP_TABLES", 2)


@pytest.fixture
def fresh_tables(registry, monkeypatch, tmp_path):
    """The empty registry, and a bake cache folder of the test's own."""
    monkeypatch.setenv("DINKYDAU_CACHE", str(tmp_path))
    return tmp_path


def tiny(k: int):
    """A 12"x12" table with a wood whose corner moves with ``k``: a distinct table for each ``k``."""
    raw = scenario([element("a", "allied", [stand("a1", "us_rifle_team", 2, 2)]),
                    element("v", "insurgent", [stand("v1", "vc_rifle_cell", 10, 10)])],
                   terrain=[{"id": "w", "type": "dense", "polygon": [[4, 4], [8 + 0.1 * k, 4], [8, 8], [4, 8]]}],
                   width=12, height=12)
    return build_scenario(raw)


def test_distinct_inline_tables_are_not_kept(fresh_tables):
    scenarios = [tiny(k) for k in range(4)]
    keys = [scenario_key(s) for s in scenarios]
    assert len(set(keys)) == 4
    scenes = []
    for sc in scenarios:
        g = Game(sc, 1, start=False)
        scenes.append(weakref.ref(g.los_table()))
        del g
    gc.collect()
    # only the two opened last are kept; the others' ray scenes are gone with their last game
    assert sorted(live_tables()) == sorted(keys[-2:])
    assert [r() is None for r in scenes] == [True, True, False, False]


def test_a_table_lives_while_a_game_uses_it(fresh_tables):
    first = Game(tiny(0), 1, start=False)
    scene = first.los_table()
    for k in range(1, 3):  # more tables than are kept
        Game(tiny(k), 1, start=False).los_table()
    gc.collect()
    assert scenario_key(first.scenario) in live_tables()
    again = Game(tiny(0), 2, start=False)
    assert again.los_table() is scene  # the same ray scene, not a second one


def test_a_shipped_table_is_reused_between_games(registry):
    sc = resolve_scenario("village_sweep")
    g = Game(sc, 1, start=False)
    scene = weakref.ref(g.los_table())
    del g
    gc.collect()
    g2 = Game(resolve_scenario("village_sweep"), 2, start=False)
    assert scene() is not None and g2.los_table() is scene()


def test_sightlines_and_heights_are_shared_and_bounded(fresh_tables, monkeypatch):
    monkeypatch.setattr(game_mod, "SIGHTLINES_KEPT", 3)
    sc = tiny(0)
    g, h = Game(sc, 1, start=False), Game(sc, 2, start=False)
    assert g.shared is h.shared
    a, v = g.state.stands["a1"], g.state.stands["v1"]
    first = g.line_of_sight(a, v)
    assert h.line_of_sight(a, v) is first  # traced once for both games
    results = g.shared.results
    for x in range(8):
        g.trace_sightlines([(a, v.__class__(**{**v.__dict__, "x": 9.0 - 0.1 * x}))])
    assert len(results) <= 2 * 3


def test_recent_keeps_the_latest_and_what_is_asked():
    r = Recent(2)
    for k in "abc":
        r.put(k, k.upper())
    assert r.get("a") == "A" and r.get("b") == "B"  # "a" was in the old generation: carried over
    r.put("d", "D")
    r.put("e", "E")
    assert len(r) <= 4 and r.get("e") == "E" and r.get("c") is None


def _file(path, age: float = 0.0, size: int = 8) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    stamp = time.time() - age
    os.utime(path, (stamp, stamp))


def test_prune_deletes_only_old_bakes_in_the_cache_folder(tmp_path):
    cache = tmp_path / "cache"
    outside = tmp_path / "outside" / f"table-{'f' * 24}.glb"
    _file(outside, age=10_000)
    bakes = [cache / f"table-{i:024x}.glb" for i in range(6)]
    for i, p in enumerate(bakes):
        _file(p, age=100.0 * (6 - i))  # the last is the newest
    others = [cache / "notes.glb", cache / f"table-{'a' * 23}.glb", cache / "bam" / f"table-{'b' * 24}.glb",
              cache / "saves" / "autosave.json", cache / f"table-{'c' * 24}.glb.keep"]
    for p in others:
        _file(p, age=10_000)
    (cache / f"table-{'d' * 24}.glb").symlink_to(outside)
    _file(cache / f"table-{'e' * 24}.glb.x1.tmp", age=2 * bake.STALE_TMP)  # a write that died long ago
    _file(cache / f"table-{'e' * 24}.glb.x2.tmp", age=1.0)  # one being written now
    removed = bake.prune_bakes(cache, keep=2)
    assert sorted(p.name for p in removed) == sorted([p.name for p in bakes[:4]] + [f"table-{'e' * 24}.glb.x1.tmp"])
    assert all(p.exists() for p in bakes[4:] + others) and outside.exists()
    assert (cache / f"table-{'d' * 24}.glb").is_symlink() and (cache / f"table-{'e' * 24}.glb.x2.tmp").exists()


def test_the_bake_cache_keeps_the_latest_tables(fresh_tables, monkeypatch):
    monkeypatch.setattr(bake, "KEEP_BAKES", 2)
    monkeypatch.setattr(bake, "_HANDED", OrderedDict())
    _file(fresh_tables / "client" / "bam" / "hootch-1.bam", age=10_000)
    paths = [bake.baked_path(tiny(k)) for k in range(4)]
    kept = sorted(p.name for p in fresh_tables.glob("table-*.glb"))
    assert kept == sorted(p.name for p in paths[-2:])
    assert (fresh_tables / "client" / "bam" / "hootch-1.bam").exists()
    assert bake.baked_path(tiny(3)) == paths[3]  # still there: not baked again
