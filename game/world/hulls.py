"""Vehicle hulls and wrecks in line of sight (G-01 T15: a wreck blocks LOS; issue 17).

A hull is a box standing on the table: (x, y, facing, length, width, height, id) as
``game.rules.vehicles.hulls_now`` lists them (plan centre, length along the facing in degrees, 0 = east,
counter-clockwise, as a stand's base; ``height`` above the ground under its centre, where its base
stands). A sightline whose 3D segment passes through a box is blocked by it, the first box it enters
being the one reported, except a box one of whose ends is *at* the hull: an end whose plan point lies
within the hull's footprint grown by ``HULL_TOUCH`` (the vehicle's own eye and sample points, and a stand
in base contact with the hull seeing past it, as a man at a hootch's wall sees out, G-01 T10). That
reading is the engine's: T15 says only that a wreck blocks LOS and that a stand may shelter in contact;
a live vehicle's hull blocks the same way (the engine's reading of a vehicle as a standing object).

The test is the slab test of a segment against a box, in the box's own frame: the segment is blocked
when the parameter interval inside all three slabs is not empty (strictly: a segment that only touches
a face, an edge or a corner is not blocked). :func:`block_many` (numpy, every sightline against every
hull) and :func:`block1` (plain Python, one sightline) do the same arithmetic in the same order, so the
batched and the single-sightline paths of ``game.world.los`` give the same answer to the last bit.

What it leaves out: the hull's real shape (a box from the ground to its top: the gap under a truck, a
turret narrower than the hull, a hull on a slope tilted with it), hull-down positions (cover is the
rules'), a vehicle's own passengers (they ride inside its box).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["HULL_TOUCH", "Hulls", "prepare", "block_many", "block1"]

HULL_TOUCH = 0.05
"""Inches: an end within this of a hull's footprint is at the hull (the vehicle itself, whose eye stands
on its base edge, or a stand in base contact with it), and that hull does not block its sightlines."""
INF = math.inf


@dataclass(frozen=True)
class Hulls:
    """The hulls of a conditions' ``hulls``, prepared for the slab test, each on the ground at its centre."""

    ids: tuple[str, ...]
    rows: tuple[tuple[float, ...], ...]
    """Per hull: (cx, cy, cos, sin, half length, half width, base z, top z, plan reach), plain floats for
    :func:`block1`; the plan reach (half diagonal plus ``HULL_TOUCH``) bounds the footprint for a quick
    reject that never drops a segment the box test would block."""
    cols: np.ndarray
    """The same as an H x 9 array, for :func:`block_many`."""
    xs: tuple[float, ...] = ()
    """The centres' x, ascending, and ``order`` the hull of each: :func:`block1` asks only the hulls whose
    centre lies within ``reach`` (the largest plan reach) of the sightline's x span."""
    order: tuple[int, ...] = ()
    reach: float = 0.0
    top: float = -math.inf
    """The highest top: a sightline that stays at or above it meets no hull."""

    def __len__(self) -> int:
        return len(self.ids)


def prepare(hulls: tuple[tuple, ...], ground: Callable[[float, float], float]) -> Hulls:
    """The hulls of ``Conditions.hulls`` ready for the slab test; ``ground(x, y)`` gives the height the
    base of a hull stands at (the ground under its centre)."""
    rows = []
    for x, y, facing, length, width, height, _ in hulls:
        x, y = float(x), float(y)
        a = math.radians(float(facing))
        hl, hw = float(length) / 2.0, float(width) / 2.0
        z0 = float(ground(x, y))
        rows.append((x, y, math.cos(a), math.sin(a), hl, hw, z0, z0 + float(height),
                     math.hypot(hl, hw) + HULL_TOUCH))
    order = sorted(range(len(rows)), key=lambda k: (rows[k][0], k))
    return Hulls(tuple(str(h[6]) for h in hulls), tuple(rows), np.array(rows, float).reshape(-1, 9),
                 tuple(rows[k][0] for k in order), tuple(order), max((r[8] for r in rows), default=0.0),
                 max((r[7] for r in rows), default=-math.inf))


def block_many(h: Hulls, eyes: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each sightline (N x 3 eyes and targets): the first hull it enters that no end is at (index,
    -1: none) and where, as the share of the segment from the eye (inf: none)."""
    n = len(eyes)
    first_k = np.full(n, -1)
    first_s = np.full(n, np.inf)
    if not n:
        return first_k, first_s
    ex, ey, ez = eyes[:, 0], eyes[:, 1], eyes[:, 2]
    tx, ty, tz = targets[:, 0], targets[:, 1], targets[:, 2]
    dx, dy, dz = tx - ex, ty - ey, tz - ez
    zmin = np.minimum(ez, tz)
    xlo, xhi = np.minimum(ex, tx), np.maximum(ex, tx)
    ylo, yhi = np.minimum(ey, ty), np.maximum(ey, ty)
    for k, (cx, cy, c, s, hl, hw, z0, z1, reach) in enumerate(h.rows):
        rows = np.flatnonzero((zmin < z1) & (xlo <= cx + reach) & (xhi >= cx - reach)
                              & (ylo <= cy + reach) & (yhi >= cy - reach))
        if not len(rows):
            continue
        px, py = ex[rows] - cx, ey[rows] - cy
        qx, qy = tx[rows] - cx, ty[rows] - cy
        pu, pv = px * c + py * s, py * c - px * s
        qu, qv = qx * c + qy * s, qy * c - qx * s
        lu, lv = hl + HULL_TOUCH, hw + HULL_TOUCH
        at = ((np.abs(pu) <= lu) & (np.abs(pv) <= lv)) | ((np.abs(qu) <= lu) & (np.abs(qv) <= lv))
        ddx, ddy = dx[rows], dy[rows]
        du, dv = ddx * c + ddy * s, ddy * c - ddx * s
        lo = np.zeros(len(rows))
        hi = np.ones(len(rows))
        out = at.copy()
        for p, d, b0, b1 in ((pu, du, -hl, hl), (pv, dv, -hw, hw), (ez[rows], dz[rows], z0, z1)):
            flat = d == 0.0
            out |= flat & ((p <= b0) | (p >= b1))
            with np.errstate(divide="ignore", invalid="ignore"):
                a0 = (b0 - p) / d
                a1 = (b1 - p) / d
            lo = np.where(flat, lo, np.maximum(lo, np.minimum(a0, a1)))
            hi = np.where(flat, hi, np.minimum(hi, np.maximum(a0, a1)))
        hit = ~out & (lo < hi)
        better = hit & (lo < first_s[rows])
        w = rows[better]
        first_k[w] = k
        first_s[w] = lo[better]
    return first_k, first_s


def block1(h: Hulls, ex: float, ey: float, ez: float, tx: float, ty: float, tz: float) -> tuple[int, float]:
    """:func:`block_many` for one sightline, in plain Python: the same arithmetic, the same answer."""
    first_k, first_s = -1, INF
    zmin = ez if ez < tz else tz
    if zmin >= h.top:
        return first_k, first_s
    dx, dy, dz = tx - ex, ty - ey, tz - ez
    xlo, xhi = (ex, tx) if ex <= tx else (tx, ex)
    ylo, yhi = (ey, ty) if ey <= ty else (ty, ey)
    xs, order, rows = h.xs, h.order, h.rows
    for j in range(bisect_left(xs, xlo - h.reach), bisect_right(xs, xhi + h.reach)):
        k = order[j]
        cx, cy, c, s, hl, hw, z0, z1, reach = rows[k]
        if not (zmin < z1 and xlo <= cx + reach and xhi >= cx - reach and ylo <= cy + reach and yhi >= cy - reach):
            continue
        px, py = ex - cx, ey - cy
        qx, qy = tx - cx, ty - cy
        pu, pv = px * c + py * s, py * c - px * s
        qu, qv = qx * c + qy * s, qy * c - qx * s
        lu, lv = hl + HULL_TOUCH, hw + HULL_TOUCH
        if (abs(pu) <= lu and abs(pv) <= lv) or (abs(qu) <= lu and abs(qv) <= lv):
            continue  # an end is at this hull
        du, dv = dx * c + dy * s, dy * c - dx * s
        lo, hi = 0.0, 1.0
        out = False
        for p, d, b0, b1 in ((pu, du, -hl, hl), (pv, dv, -hw, hw), (ez, dz, z0, z1)):
            if d == 0.0:
                if p <= b0 or p >= b1:
                    out = True
                    break
                continue
            a0 = (b0 - p) / d
            a1 = (b1 - p) / d
            lo = max(lo, min(a0, a1))
            hi = min(hi, max(a0, a1))
        if not out and lo < hi and (lo < first_s or (lo == first_s and k < first_k)):
            first_k, first_s = k, lo  # (ties to the first hull listed, as block_many)
    return first_k, first_s
