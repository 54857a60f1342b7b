"""The camera director for a crowd (attract mode, films): calm shots, ranked look-ahead, hard cuts.

After broadcast directors (PRESENCE.md): a shot lasts several seconds (``MIN_SHOT`` before any cut but a
set piece's, 6 s by default); an establishing shot of the whole table opens, and returns every few shots
or 45 s. The director reads each batch as the presenter queues it (its events) and as it starts (the
handlers' focus hints: where to look, when, how important: set pieces 9, assault, ambush and artillery 8,
casualty 7, fire 6, moves 3), and cuts only when the shot is old enough and something clearly better is
due, or when a set piece starts. It follows an aircraft with a lead and cuts to the impact.

Motion is capped (25 degrees a second of heading, 15 of pitch, and the target moves at most a third of
the camera distance a second); a change bigger than those caps allow in a second is a hard cut, never a
long sweep. The camera shake (``fx.Shake``) rides on the lens, never on this framing.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import panda3d.core as p3d

MIN_SHOT = 4.0
SHOT = 6.0
ESTABLISH_EVERY = (6, 45.0)  # shots, seconds
YAW_RATE, PITCH_RATE = 25.0, 15.0
ORBIT = 2.5  # degrees a second of slow drift in a calm shot


@dataclass
class Shot:
    kind: str
    rank: int
    started: float
    hold: float
    point: tuple[float, float, float] | None = None
    node: p3d.NodePath | None = None
    distance: float = 40.0
    pitch: float = 38.0
    heading: float | None = None


class Director:
    """Drives ``app.camera`` (an ``OrbitCamera``) from the presenter's batches; ``stop()`` lets go."""

    def __init__(self, app, clock=time.monotonic, establish: bool = True):
        self.app = app
        self.clock = clock
        self.plan: list = []  # (absolute time, Focus)
        self.shot: Shot | None = None
        self.shots = 0
        self.cuts = 0
        self.last_establish = -1e9
        self.establish = establish
        self.coming: int = 0  # the rank of the best event queued and not yet started (look-ahead)
        self.max_yaw_rate = 0.0  # the fastest turn applied between cuts (benchmarks and tests)
        self._hooked = None
        self._last: tuple[float, float] | None = None
        self.enabled = True  # off while a walk-up player has the table: the camera is theirs
        app.base.task_mgr.add(self._tick, "director", sort=40)

    def hook(self) -> None:
        """Follow the presenter of the table on screen (a new table has a new presenter)."""
        pres = self.app.presenter
        if pres is None or pres is self._hooked:
            return
        pres.watchers.append(self.on_queue)
        pres.starters.append(self.on_start)
        self._hooked = pres
        self.plan.clear()
        self.shot = None

    def stop(self) -> None:
        self.app.base.task_mgr.remove("director")

    # -- reading ahead ------------------------------------------------------------------------------
    def on_queue(self, batch) -> None:
        set_piece = {"dustoff", "impact", "air_pass", "illumination", "gunship"}
        kinds = {"impact" if ev.get("type") == "fire_mission" and ev.get("phase") == "impact" else str(ev.get("type"))
                 for ev in batch.events}
        self.coming = max(self.coming, 9 if kinds & set_piece else 8 if kinds & {"ambush", "assault"} else 0)

    def on_start(self, batch) -> None:
        from game.client.presenter import INSTANT

        now = self.clock()
        self.coming = 0
        if self._hooked is not None and self._hooked.speed == INSTANT:
            return  # nothing of it will be seen
        for f in batch.focus:
            self.plan.append((now + f.t, f))
        self.plan.sort(key=lambda p: p[0])
        del self.plan[:-40]

    # -- shots ----------------------------------------------------------------------------------------
    def _due(self, now: float):
        """The best hint due now (started, not yet stale)."""
        best = None
        for t, f in self.plan:
            if t <= now + 0.2 and now - t < max(1.5, f.hold * 0.7):
                if best is None or f.rank > best[1].rank or (f.rank == best[1].rank and t > best[0]):
                    best = (t, f)
        return best

    def _cut_to(self, shot: Shot) -> None:
        cam = self.app.camera
        self.shot = shot
        self.shots += 1
        self.cuts += 1
        g = cam.goal
        target = self._target(shot)
        if target is not None:
            g.x, g.y, g.z = target
        g.distance = shot.distance
        g.pitch = shot.pitch
        if shot.heading is not None:
            g.heading = g.heading + ((shot.heading - g.heading + 180.0) % 360.0 - 180.0)
        elif shot.point is not None and shot.kind in ("fire", "ambush", "assault"):
            g.heading = g.heading + 35.0  # a fresh angle across the line of fire
        cam.snap()  # a hard cut
        self._last = (cam.now.heading, cam.now.pitch)

    def _target(self, shot: Shot):
        if shot.node is not None and not shot.node.is_empty():
            if shot.node.is_hidden():
                return None  # it has flown off: the frame stays where it was
            p = shot.node.get_pos(self.app.render)
            return (p.x, p.y, max(0.0, p.z * 0.8))
        return shot.point

    def establishing(self, now: float) -> Shot:
        cam = self.app.camera
        o = cam.overview()
        self.last_establish = now
        return Shot("establish", 1, now, SHOT, (o.x, o.y, o.z), None, o.distance, o.pitch)

    def _tick(self, task):
        app = self.app
        if not self.enabled or app.camera is None or app.scene is None:
            return task.cont
        self.hook()
        now = self.clock()
        dt = min(app.base.clock.get_dt(), 0.1)
        self.plan = [(t, f) for t, f in self.plan if now - t < max(1.5, f.hold)]
        shot = self.shot
        age = now - shot.started if shot else 1e9
        due = self._due(now)
        if shot is None and self.establish:
            self._cut_to(self.establishing(now))
        elif due is not None:
            t, f = due
            fresh = shot is None or f.rank > shot.rank + 1 or (age >= (shot.hold if shot else 0) and f.rank >= 1)
            if self.coming >= 9 and f.rank < 9:
                fresh = False  # a set piece is queued: hold the shot for it
            set_piece_starts = f.rank >= 9 and (shot is None or shot.rank < 9 or age >= MIN_SHOT)
            if (age >= MIN_SHOT and fresh) or set_piece_starts:
                if shot is None or f is not getattr(shot, "focus", None):
                    new = Shot(f.kind, f.rank, now, max(MIN_SHOT, f.hold), f.point, f.node, f.distance,
                               f.pitch if getattr(f, "pitch", None) is not None else 30.0 if f.rank >= 9 else 40.0,
                               getattr(f, "heading", None))
                    new.focus = f
                    self._cut_to(new)
        elif shot is not None and age >= shot.hold + 2.0 and self.establish:
            n, secs = ESTABLISH_EVERY
            if self.shots % n == 0 or now - self.last_establish > secs:
                self._cut_to(self.establishing(now))
        self._move(dt)
        return task.cont

    def _move(self, dt: float) -> None:
        """Within a shot: follow the subject and drift slowly round it. The orbit camera eases toward its
        goal in the app's own tick (which runs before this task); here that motion is held to the caps."""
        shot = self.shot
        if shot is None:
            return
        cam = self.app.camera
        g = cam.goal
        target = self._target(shot)
        if target is not None:
            dx, dy, dz = target[0] - g.x, target[1] - g.y, target[2] - g.z
            d = math.sqrt(dx * dx + dy * dy + dz * dz)
            if d > g.distance * 0.8:
                g.x, g.y, g.z = target  # too far to glide: cut
                cam.snap()
                self.cuts += 1
                self._last = (cam.now.heading, cam.now.pitch)
            elif d > 1e-6:
                k = min(1.0, g.distance / 3.0 * dt / d)
                g.x, g.y, g.z = g.x + dx * k, g.y + dy * k, g.z + dz * k
        g.heading += ORBIT * dt
        last = self._last
        if last is not None and dt > 0:
            n = cam.now
            turn, tilt = n.heading - last[0], n.pitch - last[1]
            yaw_cap, pitch_cap = YAW_RATE * dt, PITCH_RATE * dt
            if abs(turn) > yaw_cap or abs(tilt) > pitch_cap:
                n.heading = last[0] + max(-yaw_cap, min(yaw_cap, turn))
                n.pitch = last[1] + max(-pitch_cap, min(pitch_cap, tilt))
                cam.apply(n)
            self.max_yaw_rate = max(self.max_yaw_rate, abs(n.heading - last[0]) / dt)
        self._last = (cam.now.heading, cam.now.pitch)
