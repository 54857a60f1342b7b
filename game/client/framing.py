"""Framing for the camera director (``director.py``): where each kind of shot puts the camera, how two
poses blend, and what the trees hide. Presentation only: plain geometry on the orbit camera's state
(``camera.Orbit``: a target point, a heading, a pitch, a distance), never a rule.

Shot types (PRESENCE.md, "An attract-mode director"):

* the **two-shot** across the line of fire: the camera looks square across the line from the firer to
  the target (its heading perpendicular to it, from either side), at a distance that holds both in the
  lens's width with a margin;
* the **follow with lead** for a move: the camera's target runs ``LEAD`` of the way ahead of the mover
  along its path (never past its end), the camera behind the mover's shoulder looking the way it goes;
* the **close-up** for a casualty, a bail-out or a brew-up (``CLOSE_UPS``): short distance, low pitch.

What the canopy hides: a few rays from the camera to the subject (its centre, either side of it, above
it) against the trees as drawn (``vegetation.Flora``'s instances: one ellipsoid per crown, the shape of
the prototype's leaves; burnt trees have none, lifted trees none). The engine's line of sight is for the
rules; this is only where the camera can see from.

Blends: a change of pose the caps allow is a ``BLEND`` s glide, eased in and out (smoothstep: its
fastest rate is 1.5 times its mean, so a glide of ``d`` degrees in 1.5 s turns at most ``d`` degrees a
second); anything bigger is a hard cut.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from game.client.camera import Orbit

LEAD = 0.3  # the share of a move's path the camera's target runs ahead of the mover
LEAD_MAX = 4.0  # inches, at most
TWO_SHOT_FILL = 0.55  # the share of the screen's width the firer-to-target line takes
TWO_SHOT_MIN, TWO_SHOT_MAX = 16.0, 90.0  # inches from the camera to the middle of the line
TWO_SHOT_PITCH = 34.0
CLOSE_DISTANCE, CLOSE_PITCH = 13.0, 20.0  # a casualty's close-up
CLOSE_UPS = {"casualty": (CLOSE_DISTANCE, CLOSE_PITCH),
             "bailout": (18.0, 26.0),  # the crew jumping clear of the hull, its damage word above it
             "brew_up": (24.0, 24.0)}  # the fireball, the blast ring and the foot of the smoke column
"""Kinds framed close up: (distance, pitch)."""
FOLLOW_PITCH = 32.0
FOLLOW_SIDE = 30.0  # degrees off the mover's line: over its shoulder, not straight behind it
SEEN = 0.75  # the share of a subject's rays that must reach the camera for a pose to see it
CLEARED = 0.9  # the share of a clearing's radius inside which the foliage shader takes the trees off
CROWN_FILL = {"bamboo": 0.7, "grass": 0.6, "coconut": 0.7, "banana": 0.7}  # sparse leaves let some light by


def ease(k: float) -> float:
    """Smoothstep: 0 to 1 with zero speed at both ends."""
    k = min(1.0, max(0.0, k))
    return k * k * (3.0 - 2.0 * k)


def turn(a: float, b: float) -> float:
    """The signed shortest turn from heading ``a`` to ``b``, degrees in (-180, 180]."""
    return -((a - b + 180.0) % 360.0 - 180.0)


def eye(o: Orbit) -> np.ndarray:
    """Where the camera stands for an orbit pose (as ``OrbitCamera.apply`` places it)."""
    h, p = math.radians(o.heading), math.radians(o.pitch)
    back = o.distance * math.cos(p)
    return np.array([o.x + math.sin(h) * back, o.y - math.cos(h) * back, o.z + o.distance * math.sin(p)])


def look(dx: float, dy: float) -> float:
    """The heading that looks along (dx, dy) on the table (heading 0 looks north, +y)."""
    return math.degrees(math.atan2(-dx, dy)) % 360.0


def across(a, b) -> tuple[float, float]:
    """The two headings that look square across the line from ``a`` to ``b``."""
    h = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360.0  # looks along +x rotated: perpendicular
    return h, (h + 180.0) % 360.0


def two_shot_distance(a, b, hfov: float) -> float:
    """How far back a two-shot stands so the line from ``a`` to ``b`` fills ``TWO_SHOT_FILL`` of the width."""
    sep = math.dist(a[:2], b[:2])
    d = sep / (2.0 * math.tan(math.radians(hfov) / 2.0) * TWO_SHOT_FILL)
    return min(TWO_SHOT_MAX, max(TWO_SHOT_MIN, d))


def lead_point(path, at) -> tuple[float, float, float]:
    """The follow shot's target: ``LEAD`` of the path (at most ``LEAD_MAX``) ahead of where the mover is
    now (``at``, projected on the path), never past its end."""
    a, b = np.asarray(path[0], float), np.asarray(path[1], float)
    d = b - a
    length = float(np.hypot(d[0], d[1]))
    if length < 1e-6:
        return tuple(float(c) for c in b)
    s = float(np.dot(np.asarray(at, float)[:2] - a[:2], d[:2]) / length ** 2)
    s = min(1.0, max(0.0, s) + min(LEAD, LEAD_MAX / length))
    return tuple(float(c) for c in a + d * s)


def blend(a: Orbit, b: Orbit, k: float) -> Orbit:
    """The pose ``k`` (already eased) of the way from ``a`` to ``b``: the shortest turn, distance in ratio."""
    return Orbit(a.x + (b.x - a.x) * k, a.y + (b.y - a.y) * k, a.z + (b.z - a.z) * k,
                 a.heading + turn(a.heading, b.heading) * k, a.pitch + (b.pitch - a.pitch) * k,
                 a.distance * (b.distance / a.distance) ** k)


def glides(a: Orbit, b: Orbit, seconds: float, yaw_rate: float, pitch_rate: float) -> bool:
    """Whether an eased glide from ``a`` to ``b`` over ``seconds`` stays within the caps: turn and tilt
    at their fastest (1.5 times the mean) under the rates, the target moving at most a third of the
    distance a second, the distance changing at most by half."""
    fast = 1.5 / seconds
    shift = math.dist((a.x, a.y, a.z), (b.x, b.y, b.z))
    return (abs(turn(a.heading, b.heading)) * fast <= yaw_rate and abs(b.pitch - a.pitch) * fast <= pitch_rate
            and shift * fast <= min(a.distance, b.distance) / 3.0 and 2 / 3 <= b.distance / a.distance <= 1.5)


def ray_ends(subject, pose: Orbit, lift: float = 0.35) -> np.ndarray:
    """The points of a subject the camera should see: its middle, either side of it across the view,
    and above it (inches over the ground point ``subject``)."""
    x, y, z = (float(c) for c in subject)
    h = math.radians(pose.heading)
    sx, sy = math.cos(h) * 0.6, math.sin(h) * 0.6  # across the view
    return np.array([(x, y, z + lift), (x + sx, y + sy, z + lift), (x - sx, y - sy, z + lift),
                     (x, y, z + lift + 0.6)])


@cache
def crown(prototype: str) -> tuple[float, float, float]:
    """A unit prototype's leaves as an ellipsoid: (centre height, half height, plan radius), from its
    leaf vertices (the 5th to 95th percentile of their heights, the 85th of their reach)."""
    from game.client.trees import LEAF, prototype_mesh

    v, _, c, _ = prototype_mesh(prototype)
    leaf = v[c[:, 3] >= LEAF - 1e-6]
    if not len(leaf):
        return 0.5, 0.01, 0.01
    lo, hi = np.percentile(leaf[:, 2], [5, 95])
    reach = float(np.percentile(np.hypot(leaf[:, 0], leaf[:, 1]), 85))
    fill = CROWN_FILL.get(prototype, 0.9)
    return float(lo + hi) / 2, max(0.02, float(hi - lo) / 2 * fill), max(0.02, reach * fill)


class Canopy:
    """The trees' crowns as ellipsoids (centres and semi-axes, table inches), for rays camera-subject."""

    def __init__(self, centres: np.ndarray, axes: np.ndarray):
        self.centres = np.asarray(centres, float).reshape(-1, 3)
        self.axes = np.asarray(axes, float).reshape(-1, 3)

    @classmethod
    def of(cls, flora) -> Canopy:
        """The crowns ``flora`` draws now: none while the trees are lifted off (``visible``), none for a
        burnt tree (column 11); columns x, y, ground z, heading, crown radius, height, lean."""
        cs, ax = [np.zeros((0, 3))], [np.zeros((0, 3))]
        if flora is not None and getattr(flora, "visible", True):
            for name, rows in getattr(flora, "rows", {}).items():
                rows = rows[rows[:, 11] < 0.5]
                if not len(rows):
                    continue
                zc, zh, r = crown(name)
                lean = rows[:, 6] * zc * rows[:, 4]
                cs.append(np.c_[rows[:, 0] + lean * np.cos(rows[:, 3]), rows[:, 1] + lean * np.sin(rows[:, 3]),
                                rows[:, 2] + zc * rows[:, 5]])
                ax.append(np.c_[r * rows[:, 4], r * rows[:, 4], zh * rows[:, 5]])
        return cls(np.vstack(cs), np.vstack(ax))

    def __len__(self) -> int:
        return len(self.centres)

    def blocked(self, starts: np.ndarray, ends: np.ndarray, clear=()) -> np.ndarray:
        """For each segment start-end, whether a crown lies across it (an end inside a crown counts);
        crowns standing within a ``clear`` circle (x, y, radius) are lifted and block nothing."""
        starts, ends = np.asarray(starts, float).reshape(-1, 3), np.asarray(ends, float).reshape(-1, 3)
        out = np.zeros(len(starts), bool)
        c, ax = self.centres, self.axes
        for x, y, r in clear:
            keep = np.hypot(c[:, 0] - x, c[:, 1] - y) > r * CLEARED
            c, ax = c[keep], ax[keep]
        if not len(c) or not len(starts):
            return out
        reach = float(ax[:, :2].max())
        lo = np.minimum(starts, ends).min(axis=0) - reach
        hi = np.maximum(starts, ends).max(axis=0) + reach
        near = np.all((c[:, :2] >= lo[:2]) & (c[:, :2] <= hi[:2]), axis=1)
        c, ax = c[near], ax[near]
        if not len(c):
            return out
        q0 = (starts[:, None, :] - c[None]) / ax[None]  # segments in each crown's unit sphere
        dq = (ends - starts)[:, None, :] / ax[None]
        a = np.einsum("ijk,ijk->ij", dq, dq)
        b = 2.0 * np.einsum("ijk,ijk->ij", q0, dq)
        cc = np.einsum("ijk,ijk->ij", q0, q0) - 1.0
        disc = b * b - 4.0 * a * cc
        root = np.sqrt(np.maximum(disc, 0.0))
        t0 = (-b - root) / np.maximum(2.0 * a, 1e-12)
        t1 = (-b + root) / np.maximum(2.0 * a, 1e-12)
        hit = (disc >= 0.0) & (t1 >= 0.0) & (t0 <= 1.0)
        return hit.any(axis=1)

    def seen(self, pose: Orbit, subjects, clear=()) -> float:
        """The share of the subjects' rays (``ray_ends``) that reach the camera at ``pose``."""
        ends = np.vstack([ray_ends(s, pose) for s in subjects])
        starts = np.repeat(eye(pose)[None], len(ends), axis=0)
        return 1.0 - float(self.blocked(starts, ends, clear).mean())
