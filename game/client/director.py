"""The camera director for a crowd (attract mode, films): calm shots, ranked look-ahead, glides and cuts.

After broadcast directors (PRESENCE.md): a shot lasts several seconds (``MIN_SHOT`` before any cut but a
set piece's, ``SHOT`` by default); an establishing shot of the whole table opens, and returns every few
shots or 45 s. The director reads each batch as the presenter queues it (its events) and as it starts
(the handlers' focus hints: where to look, when, how important: set pieces 9, assault, ambush and
artillery 8, casualty 7, fire 6, moves 3). Each hint due is scored: its rank, plus a little for the
hints clustered round it (in place and time), less ``RECENT_PENALTY`` where one of the last ``RECENT``
shots already showed that ground (a set piece's own scripted shots excepted), less what the trees hide
of it from the best pose the director can find. It cuts only when the shot is old enough and something
clearly better is due (``CLEARLY`` more), or when a set piece starts. Armour's moments (``SET_PIECES``: an
anti-tank shot, a bail-out, a brew-up) are set pieces whatever rank their hints carry, and a bail-out's or
a brew-up's close-up takes over the shot of the round that caused it after ``FOLLOW_ON`` s.

Shot types (``framing.py``): a two-shot square across the line of fire (both firer and target in
frame), a follow with lead for a move (the target runs ahead of the mover along its path), a close-up
for a casualty, a bail-out or a brew-up (``framing.CLOSE_UPS``), the handlers' scripted hero shots for set pieces (their heading and pitch), and an
aircraft followed in with a cut to the impact.

The trees: from the shot's pose, a few rays to the subject are tested against the crowns as drawn. If
they do not see it, other headings and pitches are tried (the smallest change that sees it wins; a
two-shot keeps to its two sides of the line of fire). Where no pose sees it (a stand deep under triple
canopy, whose crowns close over it from every side) the trees round the subject are lifted for the
shot, as they clear round a player's selection (``Flora.focus``): a high shot down through a gap reads
worse than the table's own familiar clearing.

Motion: a change of framing the caps allow (25 degrees a second of heading, 15 of pitch, the target at
most a third of the camera distance a second) glides over ``BLEND`` s, eased in and out; anything
bigger is a hard cut, never a long sweep. Within a shot the camera follows its subject at that speed and
drifts slowly round it (``ORBIT``; a two-shot holds its angle). The director owns the camera's pose
while it is enabled (it sets the orbit camera's goal and state each frame, so the camera's own easing
adds nothing); the camera shake (``fx.Shake``) rides on the lens, never on this framing.

Hand-over: ``enabled = False`` (a walk-up player pressed a key) freezes the camera where it is, and the
player's new table (the same scenario) opens with the camera in exactly that pose.
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field, replace

import panda3d.core as p3d

from game.client import framing
from game.client.camera import Orbit

MIN_SHOT = 4.0
SHOT = 6.0
ESTABLISH_EVERY = (6, 45.0)  # shots, seconds
BLEND = 1.5  # seconds of an eased glide between two framings the caps allow
YAW_RATE, PITCH_RATE = 25.0, 15.0
ORBIT = 2.5  # degrees a second of slow drift in a calm shot
RECENT = 4  # shots remembered
RECENT_RADIUS = 8.0  # inches: a subject this near one of the last shots' was just shown
RECENT_PENALTY = 1.5  # off the score of a subject the last shot showed (less for older ones)
HIDDEN_PENALTY = 2.0  # off the score of a subject no pose sees, times the share of rays hidden
LIFT_PENALTY = 0.5  # off the score of a subject seen only with the trees lifted round it
CLEARLY = 1.5  # how much better a hint must score to cut a shot before its hold is over
CLUSTER_RADIUS, CLUSTER_SECONDS, CLUSTER_MAX = 10.0, 3.0, 1.0  # hints together score more, up to this
LIFT_RADIUS = 3.5  # inches round a hidden subject whose trees are lifted for its shot
HFOV = 50.0  # degrees, when the camera has no lens to ask
HEADINGS = (0, 20, -20, 40, -40, 60, -60, 90, -90, 120, -120, 150, -150, 180)  # tried off a pose's heading
PITCHES = (0, 12, 24, 36)  # and added to its pitch (never past MAX_PITCH)
MAX_PITCH = 75.0
SET_PIECES = ("at_fire", "bailout", "brew_up")  # armour's moments, ranked as set pieces (9) whatever their hint says
FOLLOW_ON = 1.0  # seconds: a set piece's close-up (a bail-out, a brew-up) takes over another set piece's shot


def _aloft(f) -> bool:
    """A hint that follows a node with no path on the ground: an aircraft (nothing on the table hides it)."""
    return f is not None and getattr(f, "node", None) is not None and not getattr(f, "path", None)


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
    focus: object | None = None
    score: float = 0.0
    pose: Orbit | None = None  # the framing (the camera glides or cuts to it, then follows it)
    lift: tuple[float, float, float] | None = None  # trees lifted round (x, y, radius) for this shot
    drift: float = ORBIT
    subjects: list = field(default_factory=list)


class Director:
    """Drives ``app.camera`` (an ``OrbitCamera``) from the presenter's batches; ``stop()`` lets go."""

    def __init__(self, app, clock=time.monotonic, establish: bool = True):
        self.app = app
        self.clock = clock
        self.plan: list = []  # (absolute time, Focus)
        self.shot: Shot | None = None
        self.shots = 0
        self.cuts = 0  # hard cuts
        self.glides = 0  # eased blends
        self.last_establish = -1e9
        self.establish = establish
        self.coming: int = 0  # the rank of the best event queued and not yet started (look-ahead)
        self.max_yaw_rate = 0.0  # the fastest turn applied between cuts (benchmarks and tests)
        self.max_pitch_rate = 0.0
        self.recent: deque = deque(maxlen=RECENT)  # the subjects (x, y) of the last shots
        self._hooked = None
        self._last: Orbit | None = None  # the pose applied last frame
        self._blend: tuple[Orbit, float] | None = None  # (from, started)
        self._canopy: tuple[tuple, framing.Canopy] | None = None
        self._framed: dict[int, tuple] = {}  # id(hint) -> (share seen, lift) of its best pose, for scoring
        self.clamped = 0  # frames the caps had to hold back (a glide or a follow asked for more)
        self._lifted = False
        self._kept: tuple[Orbit, object] | None = None  # the pose handed over, and the camera it was on
        self._enabled = True
        app.base.task_mgr.add(self._tick, "director", sort=40)

    # -- hand-over -------------------------------------------------------------------------------------
    @property
    def enabled(self) -> bool:
        return self._enabled

    @enabled.setter
    def enabled(self, on: bool) -> None:
        """Off while a walk-up player has the table: the camera is theirs, and stays exactly where it is
        (on this table, and on the new one their game opens); on again, the director frames as before."""
        on = bool(on)
        if on == self._enabled:
            return
        self._enabled = on
        cam = self.app.camera
        if on:
            self._kept = None
            self.shot, self._blend, self._last = None, None, None
            return
        self._release_trees()
        self._blend = None
        if cam is not None:
            cam.goal = cam.now.copy()  # nothing glides on after the key
            self._kept = (cam.now.copy(), cam)

    def _keep(self) -> None:
        """The player's new table opens with the camera where the crowd's left it."""
        pose, old = self._kept
        cam = self.app.camera
        if cam is None or cam is old:
            return
        p = pose.copy()
        p.x = min(cam.table_w, max(0.0, p.x))
        p.y = min(cam.table_h, max(0.0, p.y))
        cam.goal = p
        cam.snap()
        self._kept = None

    # -- following the presenter --------------------------------------------------------------------
    def hook(self) -> None:
        """Follow the presenter of the table on screen (a new table has a new presenter)."""
        pres = self.app.presenter
        if pres is None or pres is self._hooked:
            return
        pres.watchers.append(self.on_queue)
        pres.starters.append(self.on_start)
        pres.auto_cutaway = True  # the tunnels' events open the cutaway for their beat (tunnels_fx.peek)
        self._hooked = pres
        self.plan.clear()
        self.recent.clear()
        self.shot, self._blend, self._last = None, None, None
        self._canopy = None
        self._framed.clear()
        self._lifted = False

    def stop(self) -> None:
        self._release_trees()
        self.app.base.task_mgr.remove("director")

    def on_queue(self, batch) -> None:
        set_piece = {"dustoff", "impact", "air_pass", "illumination", "gunship"} | set(SET_PIECES)
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
            if f.kind in SET_PIECES and f.rank < 9:  # armour's set pieces, framed as the rest are
                f = replace(f, rank=9)
            self.plan.append((now + f.t, f))
        self.plan.sort(key=lambda p: p[0])
        del self.plan[:-40]

    # -- scoring ----------------------------------------------------------------------------------------
    def canopy(self) -> framing.Canopy:
        """The crowns on the table now (rebuilt when the flora, its burnt trees or its showing change)."""
        flora = getattr(self.app.scene, "flora", None)
        burnt = getattr(getattr(self.app.scene, "changes", None), "burnt", None)
        key = (id(flora), getattr(flora, "visible", False), tuple(burnt or ()))
        if self._canopy is None or self._canopy[0] != key:
            self._canopy = (key, framing.Canopy.of(flora))
        return self._canopy[1]

    def score(self, f, t: float) -> float:
        """A hint's worth now: rank, its cluster, less the just-shown and the hidden (module docstring)."""
        s = float(f.rank)
        p = f.point
        if p is None and f.node is not None and not f.node.is_empty():
            q = f.node.get_pos(self.app.render)
            p = (q.x, q.y, q.z)
        if p is None:
            return s
        cluster = sum(0.2 * g.rank / 9.0 for tg, g in self.plan if g is not f and g.point is not None
                      and abs(tg - t) <= CLUSTER_SECONDS and math.dist(g.point[:2], p[:2]) <= CLUSTER_RADIUS)
        s += min(CLUSTER_MAX, cluster)
        if f.rank < 9:  # a set piece's scripted shots follow on from each other by design
            for age, q in enumerate(reversed(self.recent)):
                if math.dist(q, p[:2]) <= RECENT_RADIUS:
                    s -= RECENT_PENALTY * (1.0 - age / RECENT)
                    break
        if not _aloft(f):
            key = id(f)
            if key not in self._framed:
                self._framed[key] = self.frame(self._shot_of(f, t))[1:]
            seen, lift = self._framed[key]
            s -= LIFT_PENALTY if lift else HIDDEN_PENALTY * (1.0 - seen)
        return s

    def _due(self, now: float):
        """The best hint due now (started, not yet stale), by score; the later of equals."""
        best = None
        for t, f in self.plan:
            if t <= now + 0.2 and now - t < max(1.5, f.hold * 0.7):
                s = self.score(f, t)
                if best is None or s > best[2] or (s == best[2] and t > best[0]):
                    best = (t, f, s)
        return best

    # -- framing ----------------------------------------------------------------------------------------
    def _shot_of(self, f, now: float, score: float = 0.0) -> Shot:
        pitch = f.pitch if getattr(f, "pitch", None) is not None else 30.0 if f.rank >= 9 else 40.0
        return Shot(f.kind, f.rank, now, max(MIN_SHOT, f.hold), f.point, f.node, f.distance, pitch,
                    getattr(f, "heading", None), f, score)

    def _hfov(self) -> float:
        lens = getattr(self.app.camera, "lens", None)
        return float(lens.get_fov()[0]) if lens is not None else HFOV

    def frame(self, shot: Shot) -> tuple[Orbit, float, tuple | None]:
        """The pose for ``shot`` by its type, turned or raised until its rays see the subject: (pose, share
        of rays seen, trees lifted round (x, y, r) or None)."""
        cam = self.app.camera
        now = cam.now if cam is not None else Orbit(0, 0, 0, 0, 40, 40)
        f = shot.focus
        subjects = [tuple(p) for p in (getattr(f, "subjects", None) or ())]
        target = self._target(shot) or (now.x, now.y, now.z)
        heading, pitch, distance = now.heading, shot.pitch, shot.distance
        sides = None  # headings a shot keeps to (a two-shot's two sides of the line)
        if shot.kind == "establish":
            return Orbit(*target, now.heading if shot.heading is None else shot.heading, pitch, distance), 1.0, None
        if shot.heading is not None:  # a set piece's scripted hero shot
            heading = shot.heading
        elif len(subjects) >= 2:
            a, b = subjects[0], subjects[1]
            target = tuple((pa + pb) / 2 for pa, pb in zip(a, b, strict=True))
            sides = framing.across(a, b)
            heading = min(sides, key=lambda h: abs(framing.turn(now.heading, h)))
            pitch, distance = framing.TWO_SHOT_PITCH, framing.two_shot_distance(a, b, self._hfov())
            shot.drift = 0.0
        elif getattr(f, "path", None):
            a, b = f.path
            heading = framing.look(b[0] - a[0], b[1] - a[1])
            side = framing.FOLLOW_SIDE if framing.turn(now.heading, heading) < 0 else -framing.FOLLOW_SIDE
            heading, pitch = heading + side, framing.FOLLOW_PITCH
        elif shot.kind in framing.CLOSE_UPS:
            distance, pitch = framing.CLOSE_UPS[shot.kind]
        elif shot.kind in ("fire", "ambush", "assault"):
            heading = now.heading + 35.0  # a fresh angle on the fight
        if _aloft(f) or shot.heading is not None:  # an aircraft, or a set piece's scripted angle: kept
            return Orbit(*target, heading, pitch, distance), 1.0, None
        subjects = subjects or [target]
        canopy = self.canopy()
        pose = Orbit(*target, heading, pitch, distance)
        if not len(canopy):
            return pose, 1.0, None
        share, best = self._search(canopy, pose, sides, subjects, ())
        if share >= 0.5:
            return best, share, None
        # no pose sees it: the trees round it are lifted for the shot (the table's own clearing), and the
        # pose is the least change that looks down into the clearing
        c = (sum(p[0] for p in subjects) / len(subjects), sum(p[1] for p in subjects) / len(subjects))
        lift = (c[0], c[1], LIFT_RADIUS + max(math.dist(c, p[:2]) for p in subjects))
        share, best = self._search(canopy, pose, sides, subjects, (lift,))
        return best, share, lift

    @staticmethod
    def _search(canopy, pose: Orbit, sides, subjects, clear) -> tuple[float, Orbit]:
        """The least turn and lift off ``pose`` whose rays see the subjects (``framing.SEEN`` of them), or
        failing that the pose that sees most: (share seen, pose). A two-shot keeps to its ``sides``."""
        tries = []
        for base in (sides or (pose.heading,)):
            for dh in ((0, 15, -15) if sides else HEADINGS):
                for dp in PITCHES:
                    p = Orbit(pose.x, pose.y, pose.z, base + dh, min(MAX_PITCH, pose.pitch + dp), pose.distance)
                    cost = abs(framing.turn(pose.heading, p.heading)) / 90.0 + (p.pitch - pose.pitch) / 30.0
                    tries.append((canopy.seen(p, subjects, clear), cost, p))
        good = [t for t in tries if t[0] >= framing.SEEN]
        share, _, best = min(good, key=lambda t: t[1]) if good else max(tries, key=lambda t: (t[0], -t[1]))
        return share, best

    def _target(self, shot: Shot, now: float | None = None):
        if shot.node is not None and not shot.node.is_empty():
            if shot.node.is_hidden():
                return None  # it has flown off: the frame stays where it was
            p = shot.node.get_pos(self.app.render)
            path = getattr(shot.focus, "path", None)
            if path:
                return framing.lead_point(path, (p.x, p.y, p.z))  # a move: run ahead of the mover
            return (p.x, p.y, max(0.0, p.z * 0.8))
        return shot.point

    def establishing(self, now: float) -> Shot:
        cam = self.app.camera
        o = cam.overview()
        self.last_establish = now
        return Shot("establish", 1, now, SHOT, (o.x, o.y, o.z), None, o.distance, o.pitch, o.heading)

    # -- cutting ----------------------------------------------------------------------------------------
    def _cut_to(self, shot: Shot, now: float) -> None:
        """Frame ``shot``: a glide of ``BLEND`` s where the caps allow it, a hard cut otherwise."""
        cam = self.app.camera
        self._release_trees()
        self.shot = shot
        self.shots += 1
        pose, _, lift = self.frame(shot)
        shot.pose, shot.lift = pose, lift
        if shot.kind != "establish" and shot.point is not None:
            self.recent.append((pose.x, pose.y))
        if lift is not None:
            self._lift(lift)
        here = cam.now.copy()
        pose.heading = here.heading + framing.turn(here.heading, pose.heading)  # the short way round
        if self._last is not None and framing.glides(here, pose, BLEND, YAW_RATE - ORBIT, PITCH_RATE):
            self._blend = (here, now)
            self.glides += 1
        else:
            self._blend = None
            self.cuts += 1
            self._apply(pose.copy(), cut=True)

    def _apply(self, o: Orbit, cut: bool = False, dt: float = 0.0) -> None:
        cam = self.app.camera
        last = self._last
        if not cut and last is not None and dt > 0:  # the caps, whatever asked for more
            yaw, tilt = YAW_RATE * dt, PITCH_RATE * dt
            if abs(o.heading - last.heading) > yaw + 1e-9 or abs(o.pitch - last.pitch) > tilt + 1e-9:
                self.clamped += 1
            o.heading = last.heading + max(-yaw, min(yaw, o.heading - last.heading))
            o.pitch = last.pitch + max(-tilt, min(tilt, o.pitch - last.pitch))
            self.max_yaw_rate = max(self.max_yaw_rate, abs(o.heading - last.heading) / dt)
            self.max_pitch_rate = max(self.max_pitch_rate, abs(o.pitch - last.pitch) / dt)
        o.pitch = min(cam.MAX_PITCH, max(cam.MIN_PITCH, o.pitch))
        cam.goal = o.copy()
        cam.snap()
        self._last = o.copy()

    # -- the trees --------------------------------------------------------------------------------------
    def _flora(self):
        return getattr(self.app.scene, "flora", None) if self.app.scene is not None else None

    def _lift(self, lift: tuple[float, float, float]) -> None:
        flora = self._flora()
        if flora is not None and hasattr(flora, "focus"):
            flora.focus((lift[0], lift[1]), getattr(flora, "pointer", None), radius=lift[2])
            self._lifted = True

    def _release_trees(self) -> None:
        flora = self._flora()
        if self._lifted and flora is not None and hasattr(flora, "focus"):
            flora.focus(None, getattr(flora, "pointer", None))
        self._lifted = False

    # -- per frame --------------------------------------------------------------------------------------
    def _tick(self, task):
        app = self.app
        if self._kept is not None:
            self._keep()
        if not self._enabled or app.camera is None or app.scene is None:
            return task.cont
        self.hook()
        now = self.clock()
        dt = min(app.base.clock.get_dt(), 0.1)
        self.plan = [(t, f) for t, f in self.plan if now - t < max(1.5, f.hold)]
        live = {id(f) for _, f in self.plan}
        self._framed = {k: v for k, v in self._framed.items() if k in live}
        shot = self.shot
        if shot is not None and shot.pose is None:  # a shot set from outside (the loop's last overview)
            self._cut_to(shot, now)
        age = now - shot.started if shot else 1e9
        due = self._due(now)
        if shot is None and self.establish:
            self._cut_to(self.establishing(now), now)
        elif due is not None:
            t, f, s = due
            fresh = shot is None or s > shot.score + CLEARLY or (age >= (shot.hold if shot else 0) and s >= 1)
            if self.coming >= 9 and f.rank < 9:
                fresh = False  # a set piece is queued: hold the shot for it
            set_piece_starts = f.rank >= 9 and (shot is None or shot.rank < 9 or age >= MIN_SHOT or (
                f.kind in framing.CLOSE_UPS and f.kind != shot.kind and age >= FOLLOW_ON))
            if ((age >= MIN_SHOT and fresh) or set_piece_starts) and (shot is None or f is not shot.focus):
                self._cut_to(self._shot_of(f, now, s), now)
        elif shot is not None and age >= shot.hold + 2.0 and self.establish:
            n, secs = ESTABLISH_EVERY
            if self.shots % n == 0 or now - self.last_establish > secs:
                self._cut_to(self.establishing(now), now)
        self._move(now, dt)
        return task.cont

    def _move(self, now: float, dt: float) -> None:
        """Within a shot: follow the subject (at most a third of the distance a second; farther is a cut),
        drift slowly round it, finish any glide, and hold the result to the caps."""
        shot = self.shot
        if shot is None or shot.pose is None:
            return
        pose = shot.pose
        target = self._target(shot, now)
        if target is not None:
            dx, dy, dz = target[0] - pose.x, target[1] - pose.y, target[2] - pose.z
            d = math.sqrt(dx * dx + dy * dy + dz * dz)
            if d > pose.distance * 0.8:
                pose.x, pose.y, pose.z = target  # too far to glide: cut
                self._blend = None
                self.cuts += 1
                self._apply(pose.copy(), cut=True)
                return
            if d > 1e-6:
                k = min(1.0, pose.distance / 3.0 * dt / d)
                pose.x, pose.y, pose.z = pose.x + dx * k, pose.y + dy * k, pose.z + dz * k
        pose.heading += shot.drift * dt
        out = pose.copy()
        if self._blend is not None:
            start, t0 = self._blend
            k = (now - t0) / BLEND
            if k >= 1.0:
                self._blend = None
            else:
                out = framing.blend(start, pose, framing.ease(k))
        if shot.lift is not None:
            self._lift(shot.lift)  # held against the pointer's own clearing
        self._apply(out, dt=dt)
