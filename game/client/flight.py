"""Flight paths and fall lines for the set pieces, as plain geometry (numpy; no Panda3D, no rules).

Every path starts from what the engine's event says (the LZ, the wreck, an air strike's entry and exit,
release points, footprint, corridor) and the table's size; nothing here decides an outcome. A path is a
``fx.Track``-shaped triple: sample times, positions (x, y, z) in table inches, and heading/pitch/roll in
degrees (heading 0 = east, counter-clockwise, as stands face; models point their nose along +x).

Keyframes are joined by cubic Hermite curves with Catmull-Rom tangents, so an aircraft keeps its speed
through a keyframe instead of stopping at each; the last keyframe of a landing has zero speed.

Heights are at "scale height": a Huey runs in 10" over the table (100 m at ground scale), fast movers
lower than real (a real 300 m pass would leave the screen).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

RATE = 30.0  # samples a second
HUEY_CRUISE = 10.0  # inches above the ground
HUEY_SPEED = 9.0  # inches a second on screen
OUTSIDE = 10.0  # inches beyond the table edge where aircraft appear and vanish


@dataclass
class Path:
    t: np.ndarray
    xyz: np.ndarray
    hpr: np.ndarray

    @property
    def duration(self) -> float:
        return float(self.t[-1] - self.t[0])

    def at(self, t: float) -> np.ndarray:
        return np.array([np.interp(t, self.t, self.xyz[:, k]) for k in range(3)])

    def time_nearest(self, x: float, y: float) -> float:
        """When the path passes nearest the ground point (x, y) (a release point, an aim point)."""
        d = np.hypot(self.xyz[:, 0] - x, self.xyz[:, 1] - y)
        return float(self.t[int(np.argmin(d))])

    def then(self, other: Path) -> Path:
        """This path followed by ``other`` (whose times start at 0)."""
        t = np.concatenate([self.t, other.t[1:] + self.t[-1]])
        return Path(t, np.vstack([self.xyz, other.xyz[1:]]), np.vstack([self.hpr, other.hpr[1:]]))


def hermite(keys: list[tuple], rate: float = RATE, stop_at_end: bool = True) -> Path:
    """Sample keyframes ``(t, x, y, z, h, p, r)`` on Catmull-Rom curves. Headings are taken as given, so a
    spin of several turns is written as a growing angle (``_near`` keeps a plain turn under 180 degrees)."""
    k = np.array(keys, dtype=float)
    t = k[:, 0]
    v = k[:, 1:].copy()
    n = len(t)
    m = np.zeros_like(v)
    for i in range(n):
        a, b = max(0, i - 1), min(n - 1, i + 1)
        m[i] = (v[b] - v[a]) / max(t[b] - t[a], 1e-9)
    if stop_at_end:
        m[-1, :3] = 0.0
    ts = np.arange(t[0], t[-1] + 1e-9, 1.0 / rate)
    if ts[-1] < t[-1]:
        ts = np.append(ts, t[-1])
    out = np.zeros((len(ts), 6))
    for j, tt in enumerate(ts):
        i = min(int(np.searchsorted(t, tt, side="right")) - 1, n - 2)
        h = t[i + 1] - t[i]
        u = (tt - t[i]) / h
        h00, h10 = 2 * u ** 3 - 3 * u ** 2 + 1, u ** 3 - 2 * u ** 2 + u
        h01, h11 = -2 * u ** 3 + 3 * u ** 2, u ** 3 - u ** 2
        out[j] = h00 * v[i] + h10 * h * m[i] + h01 * v[i + 1] + h11 * h * m[i + 1]
    out[-1] = v[-1]
    return Path(ts - ts[0], out[:, :3], out[:, 3:])


def nearest_edge(x: float, y: float, width: float, height: float) -> tuple[float, float]:
    """The unit vector from (x, y) toward the nearest table edge."""
    options = [(x, (-1.0, 0.0)), (width - x, (1.0, 0.0)), (y, (0.0, -1.0)), (height - y, (0.0, 1.0))]
    return min(options, key=lambda o: o[0])[1]


def _heading(dx: float, dy: float) -> float:
    return math.degrees(math.atan2(dy, dx))


def _near(h: float, ref: float) -> float:
    """The heading ``h`` written within 180 degrees of ``ref`` (the short way round)."""
    return ref + ((h - ref + 180) % 360 - 180)


def entry_point(x: float, y: float, width: float, height: float, out: float = OUTSIDE) -> tuple[float, float]:
    """Where an aircraft coming to (x, y) from the nearest edge appears: ``out`` inches beyond that edge."""
    ux, uy = nearest_edge(x, y, width, height)
    if ux:
        return (-out if ux < 0 else width + out), y
    return x, (-out if uy < 0 else height + out)


def huey_approach(x: float, y: float, ground: float, width: float, height: float, settle: bool = True) -> Path:
    """A Dustoff from the nearest table edge to the LZ: cruise at 10", descend, flare nose-up over the
    smoke, hover, settle with the skids on the ground at (x, y) (``settle=False`` stops in the hover)."""
    sx, sy = entry_point(x, y, width, height)
    dist = math.hypot(x - sx, y - sy)
    ux, uy = (x - sx) / dist, (y - sy) / dist
    h = _heading(ux, uy)
    cruise = ground + HUEY_CRUISE
    t1 = max(0.5, (dist - 14.0) / HUEY_SPEED)
    keys = [(0.0, sx, sy, cruise, h, -8, 0),
            (t1, x - ux * 14, y - uy * 14, cruise, h, -6, 0),
            (t1 + 2.2, x - ux * 4.5, y - uy * 4.5, ground + 3.0, h, 4, 0),
            (t1 + 3.6, x - ux * 0.8, y - uy * 0.8, ground + 1.4, h + 6, 12, -2),  # the flare
            (t1 + 4.8, x, y, ground + 1.0, h + 10, 2, 0)]
    if settle:
        keys.append((t1 + 6.6, x, y, ground, h + 12, 0, 0))
    return hermite(keys)


def huey_departure(x: float, y: float, ground: float, heading: float, width: float, height: float) -> Path:
    """Lift off from the LZ to a hover, turn toward the nearest edge, dip the nose and climb away."""
    ux, uy = nearest_edge(x, y, width, height)
    h_out = _heading(ux, uy)
    turn = _near(h_out, heading)
    ex, ey = entry_point(x, y, width, height)
    dist = math.hypot(ex - x, ey - y)
    keys = [(0.0, x, y, ground, heading, 0, 0),
            (1.6, x, y, ground + 1.6, heading, 0, 0),
            (3.2, x, y, ground + 2.2, turn, -4, 0),
            (4.6, x + ux * 3, y + uy * 3, ground + 3.5, turn, -14, 0),
            (4.6 + dist / HUEY_SPEED, ex, ey, ground + HUEY_CRUISE, turn, -10, 0)]
    return hermite(keys, stop_at_end=False)


def huey_wave_off(x: float, y: float, ground: float, width: float, height: float) -> Path:
    """The approach, then no flare: the pilot pulls power short of the LZ, climbs over the smoke, banks
    round it once at 8" and leaves by the edge he came from."""
    app = huey_approach(x, y, ground, width, height, settle=False)
    cut = app.time_nearest(*(app.xyz[0, :2] + (np.array([x, y]) - app.xyz[0, :2]) * 0.8))
    keep = app.t <= cut
    first = Path(app.t[keep], app.xyz[keep], app.hpr[keep])
    p0 = first.xyz[-1]
    h0 = first.hpr[-1, 0]
    r = 9.0
    a0 = math.atan2(p0[1] - y, p0[0] - x)
    keys = [(0.0, *p0, h0, -4, 0)]
    # around the LZ counter-clockwise, banked 25 degrees
    for i in range(1, 9):
        a = a0 + math.radians(45 * i)
        keys.append((1.4 * i + 0.8, x + r * math.cos(a), y + r * math.sin(a), ground + 8.0,
                     _near(math.degrees(a) + 90, keys[-1][4]), -4, 25))
    ex, ey = entry_point(x, y, width, height)
    last = keys[-1]
    keys.append((last[0] + math.hypot(ex - last[1], ey - last[2]) / HUEY_SPEED, ex, ey, ground + HUEY_CRUISE,
                 _near(_heading(ex - last[1], ey - last[2]), last[4]), -8, 0))
    return first.then(hermite(keys, stop_at_end=False))


def huey_crash(x: float, y: float, ground: float, width: float, height: float) -> tuple[Path, float]:
    """Hit on the approach 7" out: the tail rotor goes, the Huey spins as it autorotates down and comes to
    rest, rolled on its side, at the wreck the engine placed (x, y). Returns the path and the time of the hit."""
    app = huey_approach(x, y, ground, width, height, settle=False)
    hit = app.time_nearest(*(np.array([x, y]) + (app.xyz[0, :2] - np.array([x, y]))
                             / max(np.linalg.norm(app.xyz[0, :2] - np.array([x, y])), 1e-6) * 7.0))
    keep = app.t <= hit
    first = Path(app.t[keep], app.xyz[keep], app.hpr[keep])
    p0, h0 = first.xyz[-1], first.hpr[-1, 0]
    keys = [(0.0, *p0, h0, -6, 0)]
    for i in range(1, 6):
        k = i / 5
        keys.append((0.7 * i, p0[0] + (x - p0[0]) * k + 0.6 * math.sin(3 * k), p0[1] + (y - p0[1]) * k,
                     p0[2] + (ground - p0[2]) * k ** 1.6, h0 + 260 * i, -6 + 10 * k, 18 * k))
    keys.append((3.9, x, y, ground, h0 + 1400, 0, 28))  # rolled onto its side like the wreck
    return first.then(hermite(keys)), float(first.t[-1])


def strike_run(entry: tuple[float, float], exit_: tuple[float, float], profile: list[tuple[float, float]],
               speed: float = 28.0, break_turn: float = 60.0) -> Path:
    """A fast mover's pass from ``entry`` to ``exit_`` (table x, y), its height along the way from ``profile``
    [(share of the way 0..1, z)], nose pitched along its climb or dive, then a banked break at the exit."""
    (x0, y0), (x1, y1) = entry, exit_
    dist = math.hypot(x1 - x0, y1 - y0) or 1e-6
    h = _heading(x1 - x0, y1 - y0)
    prof = sorted(profile)
    shares = [s for s, _ in prof]
    zs = [z for _, z in prof]
    n = max(8, int(dist / 3))
    keys = []
    for i in range(n + 1):
        s = i / n
        z = float(np.interp(s, shares, zs))
        dz = float(np.interp(min(1, s + 0.02), shares, zs) - np.interp(max(0, s - 0.02), shares, zs))
        pitch = math.degrees(math.atan2(dz, 0.04 * dist))
        roll = break_turn * max(0.0, (s - 0.8) / 0.2) ** 2  # the break begins as it pulls off the target
        keys.append((s * dist / speed, x0 + (x1 - x0) * s, y0 + (y1 - y0) * s, z, h + roll * 0.3, pitch, roll))
    return hermite(keys, stop_at_end=False)


def fall(release: tuple[float, float, float], velocity: tuple[float, float, float], ground: float,
         gravity: float = 38.0) -> Path:
    """A bomb or canister from its release point and the aircraft's velocity (inches/s) to the ground:
    a ballistic arc, its nose following its velocity."""
    x, y, z = release
    vx, vy, vz = velocity
    # z + vz t - g t^2 / 2 = ground
    disc = vz * vz + 2 * gravity * max(0.0, z - ground)
    tf = (vz + math.sqrt(disc)) / gravity
    ts = np.linspace(0, tf, max(3, int(tf * RATE) + 1))
    xyz = np.stack([x + vx * ts, y + vy * ts, z + vz * ts - 0.5 * gravity * ts ** 2], axis=1)
    hpr = np.zeros_like(xyz)
    hpr[:, 0] = math.degrees(math.atan2(vy, vx))
    hpr[:, 1] = np.degrees(np.arctan2(vz - gravity * ts, math.hypot(vx, vy) or 1e-6))
    return Path(ts, xyz, hpr)


def fall_to(release: tuple[float, float, float], target: tuple[float, float], ground: float,
            gravity: float = 38.0) -> Path:
    """A bomb or canister from its release point onto the ground point the engine names: a ballistic arc
    (no vertical speed at release) whose horizontal speed carries it there."""
    x, y, z = release
    tf = math.sqrt(2 * max(0.01, z - ground) / gravity)
    return fall(release, ((target[0] - x) / tf, (target[1] - y) / tf, 0.0), ground, gravity)


def orbit(centre: tuple[float, float], radius: float, z: float, period: float = 12.0, turns: float = 1.0,
          start: float = 0.0) -> Path:
    """The FAC's circle (counter-clockwise) over a target, banked into the turn."""
    ts = np.arange(0, period * turns + 1e-9, 1.0 / RATE)
    a = math.radians(start) + 2 * math.pi * ts / period
    xyz = np.stack([centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a), np.full_like(ts, z)], axis=1)
    hpr = np.stack([np.degrees(a) + 90, np.zeros_like(ts), np.full_like(ts, -20.0)], axis=1)
    return Path(ts, xyz, hpr)


def footprint_points(polygon: list[tuple[float, float]], heading: float, spacing: float = 1.2) -> list[tuple]:
    """Points filling a napalm or bomb footprint, ordered along ``heading`` (the way the fire rolls), each
    with its share of the way (0 where the canister struck, 1 at the far end): [(x, y, share)]."""
    from shapely.geometry import Point, Polygon

    poly = Polygon(polygon)
    if not poly.is_valid or poly.area <= 0:
        return []
    ux, uy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
    minx, miny, maxx, maxy = poly.bounds
    pts = []
    for gx in np.arange(minx + spacing / 2, maxx, spacing):
        for gy in np.arange(miny + spacing / 2, maxy, spacing):
            if poly.contains(Point(gx, gy)):
                pts.append((float(gx), float(gy)))
    if not pts:
        c = poly.representative_point()
        pts = [(c.x, c.y)]
    along = [px * ux + py * uy for px, py in pts]
    lo, hi = min(along), max(along)
    span = (hi - lo) or 1.0
    return sorted(((px, py, (a - lo) / span) for (px, py), a in zip(pts, along, strict=True)), key=lambda p: p[2])


def corridor_points(start: tuple[float, float], end: tuple[float, float], width: float, n: int,
                    seed: int = 0) -> list[tuple[float, float, float]]:
    """``n`` strike points scattered down a gunship's corridor, with their share of the way: [(x, y, share)]."""
    import random

    rng = random.Random(seed)
    (x0, y0), (x1, y1) = start, end
    dist = math.hypot(x1 - x0, y1 - y0) or 1e-6
    nx, ny = -(y1 - y0) / dist, (x1 - x0) / dist
    out = []
    for i in range(n):
        s = (i + rng.random()) / n
        w = rng.uniform(-width / 2, width / 2)
        out.append((x0 + (x1 - x0) * s + nx * w, y0 + (y1 - y0) * s + ny * w, s))
    return out


def _smooth(u: float) -> float:
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


def off_table(x: float, y: float, width: float, height: float, margin: float = OUTSIDE) -> bool:
    return x < -margin or x > width + margin or y < -margin or y > height + margin


def pass_path(entry: tuple[float, float], exit_: tuple[float, float], altitude: list, ground: float, speed: float,
              width: float, height: float, releases: list[tuple[float, float]] = (), turn: float = 40.0,
              bank: float = 55.0, roll_in: float = 30.0, step: float = 1.5) -> Path:
    """An aircraft's pass as the engine's ``air_pass`` gives it: from ``entry`` along the line to ``exit_``
    (both beyond the table's edges) at the ``altitude`` profile [[inches from the entry, height], ...]
    above ``ground``, at ``speed`` inches a second. It rolls out of a banked turn-in (``roll_in`` degrees)
    well before the first release point, flies wings level through every release point, and once past
    the last pulls off: a break turn of ``turn`` degrees (positive: to the left) banked ``bank`` degrees,
    climbing as the profile says, until it is beyond the table's edge. Pitch follows the climb or dive."""
    (x0, y0), (x1, y1) = entry, exit_
    dist = math.hypot(x1 - x0, y1 - y0) or 1e-6
    h0 = _heading(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / dist, (y1 - y0) / dist
    prof = sorted((float(s), float(z)) for s, z in altitude) if altitude else [(0.0, 12.0), (dist, 12.0)]
    ps, pz = [s for s, _ in prof], [z for _, z in prof]
    along = [(rx - x0) * ux + (ry - y0) * uy for rx, ry in releases]
    first = min(along) if along else dist / 2
    last = max(along) if along else dist / 2
    s_break = last + 3.0
    s_roll = max(0.0, first - 14.0)
    length_turn = 26.0

    def z_at(s: float) -> float:
        return float(np.interp(s, ps, pz)) + ground

    keys = []
    x, y, s = x0, y0, 0.0
    psi = h0
    while True:
        u = (s - s_break) / length_turn
        psi = h0 + turn * _smooth(u)
        # into the bank over the first part of the turn, held, rolled out once the turn is done
        roll = -math.copysign(1.0, turn) * bank * _smooth((u + 0.15) * 2.5) * (1 - _smooth((u - 1.0) * 2.0)) \
            if turn else 0.0
        if s < s_roll:
            roll += roll_in * (1 - _smooth(s / max(1e-6, s_roll)))
        dz = z_at(s + 1.0) - z_at(s - 1.0)
        pitch = math.degrees(math.atan2(dz, 2.0))
        keys.append((s / speed, x, y, z_at(s), psi, pitch, roll))
        if s >= dist and off_table(x, y, width, height, OUTSIDE * 0.5):
            break
        if s > dist * 2 + 60:
            break
        x += step * math.cos(math.radians(psi))
        y += step * math.sin(math.radians(psi))
        s += step
    return hermite(keys, stop_at_end=False)


def circuit(centre: tuple[float, float], entry: tuple[float, float], exit_: tuple[float, float], radius: float,
            z: float, speed: float, sweep: float = 220.0, bank: float = 25.0) -> tuple[Path, float, float]:
    """A pylon turn (the AC-47's): in from ``entry`` to a left-hand circle of ``radius`` round ``centre``
    at height ``z``, round it ``sweep`` degrees with the left wing down toward the target, then out to
    ``exit_``. Returns the path and the times it starts and ends the circle."""
    cx, cy = centre
    ex, ey = entry
    a0 = math.atan2(ey - cy, ex - cx) - math.pi / 2 + 0.35  # joins the circle near where it comes in
    p_in = (cx + radius * math.cos(a0), cy + radius * math.sin(a0))
    keys = []
    d_in = math.hypot(p_in[0] - ex, p_in[1] - ey)
    h_in = _heading(p_in[0] - ex, p_in[1] - ey)
    keys.append((0.0, ex, ey, z, h_in, 0.0, 0.0))
    t = d_in / speed
    n = max(6, int(sweep / 20))
    t_start = t
    h_prev = h_in
    for i in range(n + 1):
        a = a0 + math.radians(sweep) * i / n
        hh = _near(math.degrees(a) + 90.0, h_prev)
        h_prev = hh
        keys.append((t + (radius * math.radians(sweep) * i / n) / speed, cx + radius * math.cos(a),
                     cy + radius * math.sin(a), z, hh, 0.0, -bank if i else -bank * 0.5))
    t_end = keys[-1][0]
    lx, ly = keys[-1][1], keys[-1][2]
    h_out = _near(_heading(exit_[0] - lx, exit_[1] - ly), h_prev)
    keys.append((t_end + math.hypot(exit_[0] - lx, exit_[1] - ly) / speed, exit_[0], exit_[1], z, h_out, 0.0, 0.0))
    return hermite(keys, stop_at_end=False), t_start, t_end
