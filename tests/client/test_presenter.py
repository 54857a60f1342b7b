"""The presenter plays batches recorded from real games: every event type the engine emits is handled or
declared log-only; set pieces play on a timeline, the view comes last, Space finishes, speeds change, and
nothing is left behind; a Dustoff settles on the LZ the engine names; the presenter shows a side nothing
beyond its own events."""

from __future__ import annotations

import gzip
import json
import math
import re
from pathlib import Path

import pytest

from game.client import presenter as pr

from .fake_engine import FakeEngine

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "events"


def recording(name: str) -> dict:
    return json.loads(gzip.decompress((FIXTURES / f"{name}.json.gz").read_bytes()))


def all_recordings() -> list[dict]:
    return [json.loads(gzip.decompress(p.read_bytes())) for p in sorted(FIXTURES.glob("*.json.gz"))]


def table_from(make_app, rec: dict):
    app = make_app(FakeEngine, size=(320, 180))
    app.viewing, app.mode = "referee", "watch"
    app._on_new(rec["start"], advance=False)
    app.base.win.set_active(False)  # the timelines run; no pictures are needed here
    return app


def run(app, limit: int = 10 * 60) -> int:
    n = 0
    while app.presenter.busy and n < limit:
        app.base.task_mgr.step()
        n += 1
    return n


def test_every_recorded_event_type_is_handled_or_log_only():
    types = set()
    for rec in all_recordings():
        for events, _ in rec["batches"]:
            types |= {e["type"] for e in events}
        types |= {e["type"] for e in rec["start"]["events"]}
    # the recordings hold the set pieces the engine issues today
    assert {"impact", "dustoff", "fire", "move", "casualty", "litter"} <= types, types
    phases = {e.get("phase") for rec in all_recordings() for evs, _ in rec["batches"] for e in evs
              if e["type"] == "dustoff"}
    assert {"inbound", "touchdown", "departure"} <= phases
    assert pr.unhandled(types) == []


def test_every_event_type_in_the_engine_source_is_handled_or_log_only():
    # a new event type in the rules shows up here before any game records it
    from game.rules.contract import contract

    emitted = set()
    for path in (ROOT / "game" / "rules").rglob("*.py"):
        if path.name == "contract.py":
            continue  # it declares the contract's wire kinds ({"type": "id"}), it emits nothing
        emitted |= set(re.findall(r'"type":\s*"([a-z_]+)"', path.read_text()))
    assert "dustoff" in emitted and "impact" in emitted
    assert pr.unhandled(emitted) == []
    # and every event the engine's contract declares (game/data/contract.toml)
    assert pr.unhandled(contract().events) == []


def test_a_recorded_dustoff_plays_settles_on_the_lz_and_cleans_up(make_app, frame_clock):
    """DD-6.8: the UH-1 touches down on the smoke; the Huey on screen settles within 0.5" of it."""
    rec = recording("dustoff")
    app = table_from(make_app, rec)
    pres = app.presenter
    before = app.render.find_all_matches("**").get_num_paths()
    huey_xy: list[tuple[float, float]] = []
    phases = []
    for i, (events, view) in enumerate(rec["batches"]):
        story = i in rec["story"]
        pres.set_speed(1.0 if story else pr.INSTANT)
        applied = []
        app.handle_events(events, view, after=lambda applied=applied: applied.append(True))
        if not story:
            app.base.task_mgr.step()
            assert applied, "an instant batch applies its view at once"
            continue
        phases += [e["phase"] for e in events if e["type"] == "dustoff"]
        seen = []
        while pres.busy:
            cur = pres.current
            if cur is not None and cur.root is not None:
                for m in cur.root.find_all_matches("**/=setpiece=uh1_dustoff"):
                    if not m.is_hidden():
                        seen.append(m.get_pos(app.render))
                assert not applied, "the view waits for the timeline"
            app.base.task_mgr.step()
        assert applied
        if "touchdown" in phases[-1:]:
            huey_xy.append((seen[-1].x, seen[-1].y))
            lz = next(e for e in events if e.get("phase") == "touchdown")
            assert math.hypot(seen[-1].x - lz["x"], seen[-1].y - lz["y"]) <= 0.5
            assert min(p.x for p in seen) < 0 or max(p.x for p in seen) > app.scene.table.width \
                or min(p.y for p in seen) < 0 or max(p.y for p in seen) > app.scene.table.height, \
                "the Huey comes in from beyond the table edge"
            # the landed marker's idling Huey stands where the flown one settled
            (holder, _, xy), = [v for k, v in pres.landed.items.items() if k.startswith("dustoff")]
            assert math.hypot(xy[0] - lz["x"], xy[1] - lz["y"]) <= 0.5
    assert phases[:3] == ["inbound", "touchdown", "departure"], phases
    assert huey_xy
    assert app.scene.effects.count() == 0, "every sequence removes its nodes"
    assert app.render.find_all_matches("**").get_num_paths() <= before + 5


def test_mortar_rounds_shriek_before_they_land_and_shake_within_limits(make_app, frame_clock):
    rec = recording("mortar")
    app = table_from(make_app, rec)
    pres = app.presenter
    cues = []
    real = pr.Stage.cue

    def spy(self, name, where, **kw):
        f = real(self, name, where, **kw)
        cues.append(name)
        return f

    pr.Stage.cue = spy
    try:
        for i, (events, view) in enumerate(rec["batches"]):
            pres.set_speed(1.0 if i in rec["story"] else pr.INSTANT)
            app.handle_events(events, view)
            if i in rec["story"]:
                app.shake.peak = 0.0
                frames = run(app)
                assert frames > 10 * 2, "the rounds take their time"
            else:
                app.base.task_mgr.step()
    finally:
        pr.Stage.cue = real
    assert cues.count("shriek") >= 3 and cues.count("explosion_small") >= 3
    assert 0.0 < app.shake.peak <= max(app.shake.MAX_YAW, app.shake.MAX_PITCH)
    assert app.base.cam.get_r() == pytest.approx(0.0, abs=app.shake.MAX_ROLL)


def test_space_finishes_speed_two_and_instant(make_app, frame_clock):
    rec = recording("mortar")
    app = table_from(make_app, rec)
    pres = app.presenter
    i = rec["story"][0]
    for events, view in rec["batches"][:i]:
        pres.set_speed(pr.INSTANT)
        app.handle_events(events, view)
        app.base.task_mgr.step()
    events, view = rec["batches"][i]
    pres.set_speed(1.0)
    applied = []
    app.handle_events(events, view, after=lambda: applied.append(1))
    for _ in range(10):
        app.base.task_mgr.step()
    assert pres.busy and not applied and app.scene.effects.count() > 0
    app.skip_or_focus()  # Space
    assert applied and app.scene.effects.count() == 0
    app.base.task_mgr.step()
    assert not pres.busy
    # twice as fast takes about half the frames
    pres.set_speed(1.0)
    app.handle_events(events, view)
    one = run(app)
    pres.set_speed(2.0)
    app.handle_events(events, view)
    two = run(app)
    assert 0.4 * one <= two <= 0.6 * one + 2
    pres.set_speed(pr.INSTANT)
    app.handle_events(events, view)
    assert run(app) <= 2


def test_the_presenter_shows_a_side_nothing_beyond_its_own_events(make_app, frame_clock):
    """DESIGN §6: each side's screen plays only what its events contain: replaying a game as the Allies,
    no node of any sequence stands where only a hidden insurgent stood, and the engine is never asked."""
    rec = recording("full_search_and_destroy")
    batches = rec["sides"]["allied"]
    app = make_app(FakeEngine, size=(320, 180))
    app.viewing, app.mode = "allied", "watch"
    start = {"game": "g1", "view": batches[0][1], "events": batches[0][0]}
    app._on_new(start, advance=False)
    app.link.call = app.link.request = lambda *a, **k: pytest.fail("the presenter asked the engine")
    pres = app.presenter
    pres.set_speed(pr.INSTANT)  # every node a sequence makes is made when it is built
    leaks = []
    hidden: list[dict] = []

    def check(batch) -> None:
        for node in batch.root.find_all_matches("**/+GeomNode"):
            p = node.get_pos(app.render)
            leaks.extend((batch.events, s["id"]) for s in hidden if math.hypot(p.x - s["x"], p.y - s["y"]) < 0.05)

    pres.starters.append(check)
    for k, (events, view) in enumerate(batches[1:]):
        allied_ids = {s["id"] for s in view.get("stands", [])} | {s["id"] for s in app.view.get("stands", [])}
        hidden[:] = [s for s in rec["batches"][k][1].get("stands", []) if s["side"] == "insurgent"
                     and s["id"] not in allied_ids]
        app.handle_events(events, view)
        app.base.task_mgr.step()
    assert not leaks
    assert all(e.get("side") in (None, "allied", "insurgent") for evs, _ in batches for e in evs)
