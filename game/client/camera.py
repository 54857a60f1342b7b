"""An orbit camera over the table: orbit, pan, zoom, focus, top-down, with smoothed motion.

State is a target point on the table, a heading, a pitch and a distance; the camera eases toward the
wanted state every frame, so every change (keys, mouse, focus on a selection) glides instead of jumping.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import panda3d.core as p3d


@dataclass
class Orbit:
    x: float
    y: float
    z: float
    heading: float  # degrees; 0 looks north
    pitch: float  # degrees below the horizon
    distance: float

    def copy(self) -> Orbit:
        return Orbit(self.x, self.y, self.z, self.heading, self.pitch, self.distance)


class OrbitCamera:
    MIN_PITCH, MAX_PITCH = 12.0, 89.5
    MIN_DIST, MAX_DIST = 4.0, 220.0

    def __init__(self, camera: p3d.NodePath, table_w: float, table_h: float, lens: p3d.Lens | None = None):
        self.camera = camera
        self.lens = lens
        self.table_w, self.table_h = table_w, table_h
        self.goal = self.overview()
        self.now = self.goal.copy()
        self._saved: Orbit | None = None
        self.apply(self.now)

    def overview(self) -> Orbit:
        d = max(self.table_w * 1.12, self.table_h * 1.75) * 0.6
        o = Orbit(self.table_w / 2, self.table_h / 2, 0, 0, 55, d)
        return self.fit(self.lens, o) if self.lens is not None else o

    def top_down(self) -> Orbit:
        d = max(self.table_w / 1.6, self.table_h) * 0.8
        o = Orbit(self.table_w / 2, self.table_h / 2, 0, 0, 89.5, d)
        return self.fit(self.lens, o) if self.lens is not None else o

    # -- commands --------------------------------------------------------------------------------
    def reset(self) -> None:
        self.goal = self.overview()

    def toggle_top_down(self) -> None:
        if self.goal.pitch > 85 and self._saved is not None:
            self.goal, self._saved = self._saved, None
        else:
            self._saved = self.goal.copy()
            self.goal = self.top_down()

    def focus(self, x: float, y: float, z: float = 0.0, distance: float | None = None) -> None:
        self.goal.x, self.goal.y, self.goal.z = x, y, z
        if distance is not None:
            self.goal.distance = distance

    def orbit(self, d_heading: float, d_pitch: float) -> None:
        self.goal.heading = self.goal.heading + d_heading
        self.goal.pitch = min(self.MAX_PITCH, max(self.MIN_PITCH, self.goal.pitch + d_pitch))

    def zoom(self, factor: float) -> None:
        self.goal.distance = min(self.MAX_DIST, max(self.MIN_DIST, self.goal.distance * factor))

    def pan(self, right: float, forward: float) -> None:
        """Pan in screen directions, in inches scaled by the distance (so it feels the same at any zoom)."""
        h = math.radians(self.goal.heading)
        scale = self.goal.distance / 40.0
        dx = (math.cos(h) * right - math.sin(h) * forward) * scale
        dy = (math.sin(h) * right + math.cos(h) * forward) * scale
        margin = 6.0
        self.goal.x = min(self.table_w + margin, max(-margin, self.goal.x + dx))
        self.goal.y = min(self.table_h + margin, max(-margin, self.goal.y + dy))

    # -- per frame -------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        k = 1.0 - math.exp(-dt * 9.0)
        n, g = self.now, self.goal
        n.x += (g.x - n.x) * k
        n.y += (g.y - n.y) * k
        n.z += (g.z - n.z) * k
        n.heading += (g.heading - n.heading) * k
        n.pitch += (g.pitch - n.pitch) * k
        n.distance *= math.exp(math.log(g.distance / n.distance) * k)
        self.apply(n)

    def fit(self, lens: p3d.Lens, orbit: Orbit, margin: float = 0.92) -> Orbit:
        """Move ``orbit`` out (and its target) until the whole table is on screen."""
        corners = [(x, y, 0.0) for x in (-1.0, self.table_w + 1) for y in (-1.0, self.table_h + 1)]
        probe = p3d.NodePath("probe")
        for _ in range(60):
            self.apply(orbit, probe)
            ok = True
            ys = []
            for c in corners:
                p = probe.get_relative_point(p3d.NodePath(), p3d.LPoint3(*c))
                film = p3d.LPoint2()
                if not lens.project(p, film) or abs(film.x) > margin or abs(film.y) > margin:
                    ok = False
                ys.append(film.y)
            if ok:
                # centre the table vertically on the screen
                shift = (max(ys) + min(ys)) / 2
                if abs(shift) < 0.04:
                    break
                orbit.y += shift * 6
                continue
            orbit.distance *= 1.04
        return orbit

    def snap(self) -> None:
        self.now = self.goal.copy()
        self.apply(self.now)

    def apply(self, o: Orbit, node: p3d.NodePath | None = None) -> None:
        h, p = math.radians(o.heading), math.radians(o.pitch)
        back = o.distance * math.cos(p)
        cx = o.x + math.sin(h) * back
        cy = o.y - math.cos(h) * back
        cz = o.z + o.distance * math.sin(p)
        node = node if node is not None else self.camera
        node.set_pos(cx, cy, cz)
        node.set_hpr(o.heading, -o.pitch, 0)
