"""The presenter (DESIGN §10): each batch from the engine, its events and the view after them, played as
one timeline of Panda3D intervals, the view applied as its last step.

A registry maps each event type to a handler ``(stage, event) -> Beat | None``. A ``Beat`` is the event's
interval and its *lead*: how long after it starts the next event may begin (a fire starts the hits it
caused while its tracers are still flying; a Dustoff holds the table until the Huey has settled). Event
types with nothing to show are declared in ``LOG_ONLY``; the HUD's log already prints every event.
``unhandled(types)`` names what is in neither, and a test runs events recorded from real games through
it.

The presenter never asks the engine anything and never reads beyond the batch it is given and the table
the last view built: each side's screen plays only its own events (DESIGN §6). Cosmetic randomness (the
spread of a burst, a tracer's scatter) comes from a ``random.Random`` seeded by the event's ``seq``.

Playing: one batch at a time, the rest wait in order. ``finish()`` (Space) ends the current batch at once,
its view applied and its nodes gone; ``speed`` is 1, 2 or ``INSTANT`` (timelines are finished as soon as
they are built). The interface stays live throughout: intervals run on the task loop. A sequence's nodes
live under one root that is removed when it ends; ``clear()`` drops everything when the table goes.

``watchers`` are told of each batch as it is queued (its events: the attract-mode director reads ahead)
and ``starters`` as it starts (with the handlers' focus hints: where to look, and when).
"""

from __future__ import annotations

import random
import sys
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import panda3d.core as p3d
from direct.interval.IntervalGlobal import Func, Parallel, Sequence, Wait

INSTANT = 0.0
SPEEDS = (1.0, 2.0, INSTANT)


@dataclass
class Beat:
    interval: object | None
    lead: float = 0.0


@dataclass
class Focus:
    """A hint for the camera: at ``t`` seconds into the batch, look at ``point`` (or follow ``node``) for
    ``hold`` seconds. ``rank``: set pieces 9, assault/ambush/artillery 8, casualty 7, fire 6, moves 3."""

    t: float
    rank: int
    kind: str
    point: tuple[float, float, float] | None = None
    node: p3d.NodePath | None = None
    hold: float = 4.0
    distance: float = 40.0
    heading: float | None = None  # the camera's heading (0 looks north), for a scripted hero shot
    pitch: float | None = None  # degrees below the horizon
    subjects: tuple | None = None  # points a two-shot holds in frame (the firer, the target)
    path: tuple | None = None  # (from, to) of a move: the camera leads ``node`` along it


Handler = Callable[["Stage", dict], Beat | None]
HANDLERS: dict[str, Handler] = {}
LOG_ONLY = frozenset({
    "turn", "phase", "roll", "tokens", "clock", "cp", "note", "pass", "activate", "game_over", "doom_clock",
    "jungle_ghost", "civic_drift", "status", "rally", "take_five", "hold", "blind_hold", "sweep", "capture",
    "reserve_deployed", "ambush_order", "fade_declared", "fade_into", "survival",
    "trip_flare_placed", "mine_order",  # a side's own secrets: its markers show them (DD-9A.2, DD-9A.11)
})
# fire support (DD chapter 8) has handlers: air_pass, fire_mission, gunship, illumination, smoke, terrain


def registrar(handlers: dict[str, Handler]):
    """The ``handles(*types)`` decorator that registers a handler in ``handlers`` for event ``types`` (Dinky
    Dau's registry below; a ruleset's own: game.client.kits)."""
    def handles(*types: str):
        def register(fn: Handler) -> Handler:
            for t in types:
                handlers[t] = fn
            return fn
        return register
    return handles


handles = registrar(HANDLERS)
"""Register a handler for event ``types`` in Dinky Dau's registry."""


def _load_handlers() -> None:
    # they register their handlers on import (tunnels_fx, village_fx: DD chapter 9B and the TUN module)
    from game.client import airstrike, armour_fx, effects, riverine_fx, setpieces, tunnels_fx, village_fx  # noqa: F401


def unhandled(types, handlers: dict[str, Handler] | None = None, log_only=None) -> list[str]:
    """The event types in ``types`` that have neither a handler nor a log-only declaration (Dinky Dau's
    registry, or another ruleset's ``handlers`` and ``log_only``: game.client.kits)."""
    if handlers is None:
        _load_handlers()
    return sorted({str(t) for t in types} - set(HANDLERS if handlers is None else handlers)
                  - (LOG_ONLY if log_only is None else frozenset(log_only)))


class Stage:
    """What a handler builds with: the table as the last view left it, a root for its nodes, cosmetic dice,
    sound cues, the camera shake and the director's focus hints. ``now`` is the batch time at which the
    event being handled starts (handlers give times relative to it)."""

    def __init__(self, presenter: Presenter, root: p3d.NodePath):
        self.presenter = presenter
        self.scene = presenter.scene
        self.pieces = presenter.scene.pieces
        self.height_at = presenter.scene.table.height_at
        self.width = presenter.scene.table.width
        self.height = presenter.scene.table.height
        self.root = root
        self.now = 0.0
        self.focus_hints: list[Focus] = []
        self.rng = random.Random(0)
        # what one handler leaves for the next in the same batch: ``landed`` (the batch time the ordnance
        # lands, for the terrain change and the fire it leaves), ``smoke_colour`` (the call's, G-18)
        self.notes: dict = {}

    def seed(self, ev: dict) -> random.Random:
        self.rng = random.Random(f"{ev.get('seq', 0)}:{ev.get('type', '')}")
        return self.rng

    def ground(self, x: float, y: float, lift: float = 0.0) -> tuple[float, float, float]:
        return (float(x), float(y), float(self.height_at(x, y)) + lift)

    def stand_pos(self, sid) -> p3d.LPoint3 | None:
        piece = self.pieces.stands.get(sid) if isinstance(sid, str) else None
        return None if piece is None else piece.node.get_pos()

    def element_stands(self, element) -> list[str]:
        e = self.pieces.elements.get(element or "") or {}
        return [s for s in e.get("stands", []) if s in self.pieces.stands]

    def model(self, key: str) -> p3d.NodePath:
        """A set-piece model (its hierarchy kept: rotors turn) under this sequence's root."""
        node = self.presenter.models.instance(key, self.root)
        node.set_tag("setpiece", key)
        return node

    def cue(self, name: str, where, loop: bool = False, gain: float = 1.0, keep: list | None = None) -> Func:
        """A Func that plays a sound when the timeline reaches it (never while skipping)."""
        def play():
            board = self.presenter.sound
            if board is None or self.presenter.skipping or self.presenter.speed == INSTANT:
                return
            snd = board.play(name, where, loop=loop, rate=max(1.0, self.presenter.speed) ** 0.15, gain=gain)
            if keep is not None:
                keep.append(snd)
                self.presenter.loops.append(snd)
        return Func(play)

    def stop(self, keep: list) -> Func:
        """A Func that stops the loops a ``cue(..., keep=...)`` started."""
        def stop():
            board = self.presenter.sound
            for snd in keep:
                if board is not None:
                    board.stop(snd)
                if snd in self.presenter.loops:
                    self.presenter.loops.remove(snd)
            keep.clear()
        return Func(stop)

    def shake(self, amount: float, at: tuple[float, float, float]) -> Func:
        """A Func that shakes the camera by ``amount`` (0..1, a heavy round close by is ~0.8), less with
        the camera's distance from ``at``."""
        def go():
            sh = self.presenter.shake
            cam = self.presenter.camera_np
            if sh is None or self.presenter.skipping:
                return
            d = 40.0
            if cam is not None and not cam.is_empty():
                d = (cam.get_pos(self.scene.root.get_parent()) - p3d.LPoint3(*at)).length()
            sh.add(amount / (1.0 + (d / 45.0) ** 2))
        return Func(go)

    def focus(self, dt: float, rank: int, kind: str, point=None, node=None, hold: float = 4.0,
              distance: float = 40.0, heading: float | None = None, pitch: float | None = None,
              subjects=None, path=None) -> None:
        pt = None if point is None else (float(point[0]), float(point[1]), float(point[2]))
        subjects = None if not subjects else tuple(tuple(float(c) for c in p) for p in subjects)
        path = None if not path else tuple(tuple(float(c) for c in p) for p in path)
        self.focus_hints.append(Focus(self.now + dt, rank, kind, pt, node, hold, distance, heading, pitch,
                                      subjects, path))


@dataclass
class Batch:
    events: list[dict]
    apply_view: Callable[[], None] | None = None
    after: list[Callable[[], None]] = field(default_factory=list)
    sequence: object | None = None
    root: p3d.NodePath | None = None
    duration: float = 0.0
    focus: list[Focus] = field(default_factory=list)
    done: bool = False


class ModelShelf:
    """Set-piece models by key, loaded once with their hierarchy (rotor nodes), copied per use."""

    def __init__(self, library):
        self.library = library
        self._cache: dict[str, p3d.NodePath] = {}

    def instance(self, key: str, parent: p3d.NodePath) -> p3d.NodePath:
        if key not in self._cache:
            from game.client.assets import load_glb

            path = self.library.models_dir / f"{key}.glb"
            np_ = load_glb(path) if path.exists() else p3d.NodePath(p3d.PandaNode(key))
            for part in np_.find_all_matches("**/+GeomNode"):
                part.flatten_light()
            self._cache[key] = np_
        return self._cache[key].copy_to(parent)


class Presenter:
    """Plays batches of events on one table (``scene``); see the module docstring."""

    def __init__(self, scene, library=None, sound=None, shake=None, camera_np: p3d.NodePath | None = None,
                 on_error: Callable[[str], None] | None = None, handlers: dict[str, Handler] | None = None):
        if handlers is None:
            _load_handlers()
        self.handlers = HANDLERS if handlers is None else handlers  # a ruleset's own: game.client.kits
        self.scene = scene
        self.models = ModelShelf(library or scene.pieces.library)
        self.sound = sound
        self.shake = shake
        self.camera_np = camera_np
        self.on_error = on_error
        self.speed = 1.0
        self.skipping = False
        self.queue: deque[Batch] = deque()
        self.current: Batch | None = None
        self.loops: list = []
        self.zones: dict[str, tuple[float, float]] = {}  # element -> its last beaten zone (where it fires)
        self.after_view: list[Callable[[], None]] = []  # told after each view is applied (landed Hueys)
        self.watchers: list[Callable[[Batch], None]] = []
        self.starters: list[Callable[[Batch], None]] = []
        self.played = 0
        from game.client.airstrike import Standing
        from game.client.setpieces import Landed

        self.landed = Landed(self)
        self.support = Standing(self)

    # -- the public face ---------------------------------------------------------------------------
    def present(self, events: list[dict], apply_view: Callable[[], None] | None = None,
                after: Callable[[], None] | None = None) -> Batch:
        """Queue a batch: its events play in order, then ``apply_view``, then ``after``."""
        batch = Batch(list(events), apply_view, [after] if after is not None else [])
        self.queue.append(batch)
        for w in list(self.watchers):
            w(batch)
        if self.current is None:
            self._next()
        return batch

    @property
    def busy(self) -> bool:
        return self.current is not None or bool(self.queue)

    def finish(self) -> bool:
        """Space: end the current batch now (its view applied); False if nothing was playing."""
        cur = self.current
        if cur is None or cur.sequence is None:
            return False
        self.skipping = True
        try:
            cur.sequence.finish()
        finally:
            self.skipping = False
        return True

    def set_speed(self, speed: float) -> None:
        self.speed = speed
        cur = self.current
        if cur is not None and cur.sequence is not None:
            if speed == INSTANT:
                self.finish()
            else:
                cur.sequence.set_play_rate(speed)

    def cycle_speed(self) -> float:
        i = SPEEDS.index(self.speed) if self.speed in SPEEDS else 0
        self.set_speed(SPEEDS[(i + 1) % len(SPEEDS)])
        return self.speed

    def clear(self) -> None:
        """Forget everything (the table is going): no views are applied, nothing is left behind."""
        self.queue.clear()
        cur, self.current = self.current, None
        if cur is not None:
            if cur.sequence is not None:
                cur.sequence.pause()
            if cur.root is not None:
                cur.root.remove_node()
        self._stop_loops()
        self.landed.clear()
        self.support.clear()
        if self.shake is not None:
            self.shake.stop()

    def live_nodes(self) -> int:
        root = self.scene.effects.root
        return 0 if root.is_empty() else len(root.find_all_matches("**"))

    def standing_nodes(self) -> int:
        """Nodes of what stays between batches (landed Hueys, plumes, gunships on station, flares, fires)."""
        return sum(0 if r.is_empty() else len(r.find_all_matches("**"))
                   for r in (self.landed.root, self.support.root))

    # -- building and running ----------------------------------------------------------------------
    def build(self, batch: Batch) -> None:
        root = self.scene.effects.root.attach_new_node(f"batch-{self.played}")
        stage = Stage(self, root)
        parts = []
        t = 0.0
        for ev in batch.events:
            fn = self.handlers.get(str(ev.get("type")))
            if fn is None:
                continue
            stage.now = t
            stage.seed(ev)
            try:
                beat = fn(stage, ev)
            except Exception:  # noqa: BLE001 - a bad event never stops the game: its view still comes
                self._report(f"could not show a {ev.get('type')} event:\n{traceback.format_exc(limit=4)}")
                continue
            if beat is None:
                continue
            if beat.interval is not None:
                parts.append(Sequence(Wait(t), beat.interval) if t > 0 else beat.interval)
            t += max(0.0, beat.lead)
        body = Parallel(*parts, name=f"batch-{self.played}") if parts else Wait(0.0)
        batch.root = root
        batch.focus = sorted(stage.focus_hints, key=lambda f: f.t)
        batch.sequence = Sequence(body, Func(self._end, batch), name=f"present-{self.played}")
        batch.duration = max(t, body.get_duration())
        self.played += 1

    def _next(self) -> None:
        while self.queue and self.current is None:
            batch = self.queue.popleft()
            self.current = batch
            if self.scene.root.is_empty():
                self.current = None
                continue
            self.build(batch)
            for s in list(self.starters):
                s(batch)
            if self.speed == INSTANT or batch.sequence.get_duration() <= 0.0:
                batch.sequence.start()
                self.finish()
            else:
                batch.sequence.start(playRate=self.speed)

    def _end(self, batch: Batch) -> None:
        if batch.done:
            return
        batch.done = True
        self._stop_loops()
        if batch.root is not None:
            batch.root.remove_node()
        for fn in [batch.apply_view, *(self.after_view if batch.apply_view else []), *batch.after]:
            if fn is None:
                continue
            try:
                fn()
            except Exception:  # noqa: BLE001 - keep the queue moving; the app reports its own faults
                self._report(traceback.format_exc(limit=4))
        if self.current is batch:
            self.current = None
            # the next batch starts on the next frame, never inside this one's finish()
            from direct.showbase.MessengerGlobal import messenger  # noqa: F401 - ensures the task manager
            from direct.task.TaskManagerGlobal import taskMgr

            taskMgr.do_method_later(0, lambda task: self._next(), "presenter-next")

    def _stop_loops(self) -> None:
        for snd in self.loops:
            if self.sound is not None:
                self.sound.stop(snd)
        self.loops.clear()

    def _report(self, text: str) -> None:
        if self.on_error is not None:
            self.on_error(text)
        else:
            print(f"presenter: {text}", file=sys.stderr)
