"""Burnt ground on a sightline: where napalm has burnt the vegetation (G-19), sight ignores it.

The table's ray scenes (``game.world.raytrace``) are shared by every game on the table and never
change. A burnt area travels instead with the sight conditions (``Conditions.burnt``: each polygon's
coordinates flattened, x0, y0, x1, y1, ...), and line of sight (``game.world.los``) cuts the burnt
stretches out of what it measures:

* the inches inside a *vegetation* volume (scrub, rubber, secondary, dense, bamboo, mangrove) over a
  burnt polygon do not count (rubble, not vegetation, still does), so no canopy cutoff comes of them;
* an entry onto the top of dense canopy over burnt ground does not block (DD-4.41: there is no canopy);
* an end standing on burnt ground lines no woodline; an end in vegetation within the woodline band
  (1", DD-4.2) of a burnt area lines the new woodline the fire made: its band runs on at least until
  the sightline leaves that band.

Ground, hills and buildings block as before. Everything is in plan: a sightline's stretch over a
polygon is found by crossing its plan segment with the polygon's edges, so a sightline that comes no
nearer a burnt area than the band is answered exactly as without it.

:class:`Burnt` holds the areas of one set of conditions (``burnt_of`` keeps them per process); its
``cut`` works on arrays of sightlines (``TableLOS.trace``), ``cut1`` on one (``TableLOS._sight``), with
the same arithmetic in the same order.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from game.world.raytrace import BAND_SLACK, WOODLINE_BAND

BAND = WOODLINE_BAND + BAND_SLACK
"""A burnt area's new woodline band: the depth of a volume's band (its core starts just past it)."""
BOX_SLACK = 1e-6
"""Boxes are grown by this much: a sightline that crosses a piece always meets its box."""


def _polygons(flat: tuple[tuple[float, ...], ...]) -> BaseGeometry:
    polys = []
    for coords in flat:
        if len(coords) < 6 or len(coords) % 2:
            raise ValueError(f"a burnt polygon needs 3 or more (x, y) points, flattened: got {len(coords)} numbers")
        p = Polygon(list(zip(coords[0::2], coords[1::2], strict=True)))
        polys.append(p if p.is_valid else p.buffer(0))
    return shapely.union_all(polys)


def _rings(geom: BaseGeometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every ring of a polygonal geometry as vertices (x, y) and edges (start, end vertex index)."""
    xs: list[np.ndarray] = []
    starts, ends = [], []
    n = 0
    for poly in getattr(geom, "geoms", [geom]):
        if poly.is_empty or poly.geom_type != "Polygon":
            continue
        for ring in (poly.exterior, *poly.interiors):
            pts = np.asarray(ring.coords, float)[:-1]
            k = len(pts)
            xs.append(pts)
            idx = np.arange(n, n + k)
            starts.append(idx)
            ends.append(np.roll(idx, -1))
            n += k
    if not xs:
        return np.zeros((0, 2)), np.zeros(0, int), np.zeros(0, int)
    return np.concatenate(xs), np.concatenate(starts), np.concatenate(ends)


class _Rings:
    """One polygonal area's edges, for crossing plan segments with it (arrays and plain lists)."""

    def __init__(self, geom: BaseGeometry):
        self.geom = geom
        v, i, j = _rings(geom)
        self.vx, self.vy, self.ei, self.ej = v[:, 0].copy(), v[:, 1].copy(), i, j
        self.px, self.py, self.qx, self.qy = v[i, 0], v[i, 1], v[j, 0], v[j, 1]
        # per ring, its vertices as plain floats, for the single path
        self.rings1: list[list[tuple[float, float]]] = []
        for poly in getattr(geom, "geoms", [geom]):
            if poly.is_empty or poly.geom_type != "Polygon":
                continue
            for ring in (poly.exterior, *poly.interiors):
                self.rings1.append([(float(x), float(y)) for x, y in list(ring.coords)[:-1]])
        x0, y0, x1, y1 = geom.bounds if not geom.is_empty else (np.inf, np.inf, -np.inf, -np.inf)
        self.box = (x0 - BOX_SLACK, y0 - BOX_SLACK, x1 + BOX_SLACK, y1 + BOX_SLACK)
        """The piece's plan box, grown by ``BOX_SLACK``."""
        self.axes: list[tuple[float, float, float, float]] = []
        """(nx, ny, lo, hi): the piece's extent across each side of its smallest turned rectangle."""
        rect = np.asarray(geom.minimum_rotated_rectangle.exterior.coords, float)[:-1] if geom.area > 0 else []
        if len(rect) == 4:
            for k in (0, 1):
                ex, ey = rect[k + 1] - rect[k]
                norm = float(np.hypot(ex, ey))
                if norm > 1e-9:
                    nx, ny = float(-ey / norm), float(ex / norm)
                    proj = v[:, 0] * nx + v[:, 1] * ny
                    self.axes.append((nx, ny, float(proj.min()) - BOX_SLACK, float(proj.max()) + BOX_SLACK))
        shapely.prepare(geom)

    def meets(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Might each plan segment a-b cross the piece? (It meets the piece's box and turned rectangle.)"""
        out = _meets_box(a, b, self.box)
        w = np.nonzero(out)[0]
        for nx, ny, lo, hi in self.axes if len(w) else ():
            pa, pb = a[w, 0] * nx + a[w, 1] * ny, b[w, 0] * nx + b[w, 1] * ny
            out[w] &= (np.maximum(pa, pb) >= lo) & (np.minimum(pa, pb) <= hi)
        return out

    def meets1(self, ax: float, ay: float, bx: float, by: float) -> bool:
        """:meth:`meets` for one segment."""
        if not _meets_box1(ax, ay, bx, by, self.box):
            return False
        for nx, ny, lo, hi in self.axes:
            pa, pb = ax * nx + ay * ny, bx * nx + by * ny
            if (pa < lo and pb < lo) or (pa > hi and pb > hi):
                return False
        return True

    def crossings(self, ax: np.ndarray, ay: np.ndarray, dx: np.ndarray, dy: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where each plan line a + u d crosses the rings: (line, u0, u1) of the stretches inside, in the
        line's parameter u (unclipped), in order along each line. A vertex counts on the side it is
        strictly left of the line or not, so every line crosses a ring an even number of times and the
        sorted crossings pair up, entry and exit (the rule a point-in-polygon test uses)."""
        s = dx[:, None] * (self.vy[None, :] - ay[:, None]) - dy[:, None] * (self.vx[None, :] - ax[:, None])
        sp, sq = s[:, self.ei], s[:, self.ej]
        line, edge = np.nonzero((sp > 0) != (sq > 0))
        if not len(line):
            return np.zeros(0, int), np.zeros(0), np.zeros(0)
        u = _param(sp[line, edge], sq[line, edge], self.px[edge], self.py[edge], self.qx[edge], self.qy[edge],
                   ax[line], ay[line], dx[line], dy[line])
        order = np.lexsort((u, line))
        line, u = line[order], u[order]
        return line[0::2], u[0::2], u[1::2]

    def crossings1(self, ax: float, ay: float, dx: float, dy: float) -> list[tuple[float, float]]:
        """:meth:`crossings` for one line: [(u0, u1), ...] in order."""
        us: list[float] = []
        for ring in self.rings1:
            qx, qy = ring[-1]
            sq = dx * (qy - ay) - dy * (qx - ax)
            for px, py in ring:
                # the edge from the previous vertex (q) to this one (p), started at q as crossings() has it
                sp = dx * (py - ay) - dy * (px - ax)
                if (sq > 0) != (sp > 0):
                    us.append(_param1(sq, sp, qx, qy, px, py, ax, ay, dx, dy))
                qx, qy, sq = px, py, sp
        us.sort()
        return list(zip(us[0::2], us[1::2], strict=True))


def _param(sp, sq, px, py, qx, qy, ax, ay, dx, dy):
    """The line's parameter u where it crosses the edge p -> q (whose ends lie sp and sq to its left)."""
    v = sp / (sp - sq)
    return ((px + v * (qx - px) - ax) * dx + (py + v * (qy - py) - ay) * dy) / (dx * dx + dy * dy)


def _param1(sp: float, sq: float, px: float, py: float, qx: float, qy: float, ax: float, ay: float, dx: float,
            dy: float) -> float:
    v = sp / (sp - sq)
    return ((px + v * (qx - px) - ax) * dx + (py + v * (qy - py) - ay) * dy) / (dx * dx + dy * dy)


class Cut(NamedTuple):
    """What burnt ground does to a set of sightlines (indices into the sightlines given to ``cut``).

    Distances are along each sightline (its 3D parameter t, 0 at the eye, ``length`` at the target). The
    per-sightline fields are for the sightlines ``near`` a burnt area only (the rest meet none of it)."""

    near: np.ndarray
    """The sightlines that come near a burnt area (whose plan box meets its band's), in order."""
    ray: np.ndarray
    t0: np.ndarray
    t1: np.ndarray
    """The stretches over burnt ground, in order along each sightline."""
    on_e: np.ndarray
    on_t: np.ndarray
    """Does the eye / the target stand on burnt ground?"""
    band_e: np.ndarray
    band_t: np.ndarray
    """How far from the eye / the target the sightline stays within a burnt area's band (0: not in it)."""
    reach_e: np.ndarray
    reach_t: np.ndarray
    """How far from the eye / the target the sightline runs before it first reaches burnt ground (inf:
    never)."""

    def take(self, keep: np.ndarray) -> Cut:
        """The cut of the sightlines ``keep`` marks, renumbered in order."""
        remap = np.cumsum(keep) - 1
        k, w = keep[self.ray], keep[self.near]
        return Cut(remap[self.near[w]], remap[self.ray[k]], self.t0[k], self.t1[k], self.on_e[w], self.on_t[w],
                   self.band_e[w], self.band_t[w], self.reach_e[w], self.reach_t[w])

    def crossed(self, m: int) -> np.ndarray:
        """Does each sightline run over burnt ground?"""
        out = np.zeros(m, bool)
        out[self.ray] = True
        return out

    def spans(self, span: np.ndarray, end: int, part: np.ndarray, veg: np.ndarray, exit_t: np.ndarray) -> np.ndarray:
        """The woodline band spans from one end (0 the eye, 1 the target) with the burnt areas' woodlines:
        none for an end on burnt ground; for an end in vegetation, at least to the edge of a burnt area's
        band it stands in (never past where the sightline leaves the end's volume), and never onto burnt
        ground (there the sightline has left the vegetation)."""
        on, band, reach = (self.on_e, self.band_e, self.reach_e) if end == 0 else (self.on_t, self.band_t, self.reach_t)
        w = self.near
        out = span.copy()
        out[w] = _spans(span[w], veg[part[w]], on, band, reach, exit_t[w])
        return out

    def clip(self, ray: np.ndarray, part: np.ndarray, t0: np.ndarray, t1: np.ndarray, veg: np.ndarray,
             m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Intervals (ray, volume, t0, t1) inside volumes, less their stretches over burnt ground where the
        volume is vegetation: each such interval is split into what lies between the burnt stretches. The
        intervals left whole come first, in their order, then the pieces, in theirs (so the intervals of
        one sightline and class keep their order: a class is vegetation or not)."""
        if not len(self.ray) or not len(ray):
            return ray, part, t0, t1
        nb = np.bincount(self.ray, minlength=m)
        cut = (nb[ray] > 0) & veg[part]
        if not cut.any():
            return ray, part, t0, t1
        first = np.concatenate([[0], np.cumsum(nb)[:-1]])  # each ray's first burnt stretch
        w = np.nonzero(cut)[0]
        pieces = nb[ray[w]] + 1
        idx = np.repeat(w, pieces)
        k = np.arange(len(idx)) - np.repeat(np.cumsum(pieces) - pieces, pieces)  # which gap of the ray
        r = ray[idx]
        b = first[r] + k  # the burnt stretch after the gap (k == nb: none)
        lo = np.where(k > 0, self.t1[np.maximum(b - 1, 0)], -np.inf)
        hi = np.where(k < nb[r], self.t0[np.minimum(b, len(self.t0) - 1)], np.inf)
        n0, n1 = np.maximum(t0[idx], lo), np.minimum(t1[idx], hi)
        keep = n1 > n0
        whole = np.nonzero(~cut)[0]
        return (np.concatenate([ray[whole], r[keep]]), np.concatenate([part[whole], part[idx][keep]]),
                np.concatenate([t0[whole], n0[keep]]), np.concatenate([t1[whole], n1[keep]]))

    def over(self, ray: np.ndarray, t: np.ndarray, m: int) -> np.ndarray:
        """Is each point (ray, t) over a burnt stretch?"""
        out = np.zeros(len(ray), bool)
        if not len(self.ray) or not len(ray):
            return out
        nb = np.bincount(self.ray, minlength=m)
        first = np.concatenate([[0], np.cumsum(nb)[:-1]])
        hit = np.nonzero(nb[ray] > 0)[0]
        for j in range(int(nb.max())):
            w = hit[nb[ray[hit]] > j]
            b = first[ray[w]] + j
            out[w] |= (t[w] >= self.t0[b]) & (t[w] <= self.t1[b])
        return out


def _spans(span, inveg, on, band, reach, exit_t):
    grown = inveg & (band > 0) & ~on
    span = np.where(grown, np.maximum(span, np.minimum(exit_t, band)), span)
    span = np.where(inveg & ~on, np.minimum(span, reach), span)
    return np.where(inveg & on, 0.0, span)


def spans1(span: float, inveg: bool, on: bool, band: float, reach: float, exit_t: float) -> float:
    """:meth:`Cut.spans` for one end of one sightline."""
    if not inveg:
        return span
    if on:
        return 0.0
    if band > 0:
        span = max(span, min(exit_t, band))
    return min(span, reach)


class Burnt:
    """The burnt areas of one set of conditions, and the band of the woodlines they made."""

    def __init__(self, flat: tuple[tuple[float, ...], ...]):
        self.flat = flat
        area = _polygons(flat)
        self.geom = area
        shapely.prepare(area)
        # each connected piece on its own, with its box: a sightline is crossed only with the pieces whose
        # box it passes through
        self.areas = [_Rings(p) for p in _pieces(area)]
        grown = area.buffer(BAND, quad_segs=4)
        self.grown = [_Rings(p) for p in _pieces(grown)]
        self.grown_geom = grown
        """Within the band of a burnt area: only a sightline with an end in it has a new woodline band."""
        shapely.prepare(grown)
        self.grown_box = grown.bounds

    def near(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Might each plan segment a-b come within the band of a burnt area? (It meets a piece's box.)"""
        out = np.zeros(len(a), bool)
        for g in self.grown:
            out |= g.meets(a, b)
        return out

    def cut(self, a: np.ndarray, b: np.ndarray, length: np.ndarray) -> Cut:
        """What the burnt areas do to the sightlines with plan ends a and b (n x 2) and 3D lengths."""
        x0, y0, x1, y1 = self.grown_box
        ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
        w = np.nonzero((np.minimum(ax, bx) <= x1) & (np.maximum(ax, bx) >= x0)
                       & (np.minimum(ay, by) <= y1) & (np.maximum(ay, by) >= y0))[0]  # the few near any
        n = len(w)
        on_e, on_t = np.zeros(n, bool), np.zeros(n, bool)
        band_e, band_t = np.zeros(n), np.zeros(n)
        reach_e, reach_t = np.full(n, np.inf), np.full(n, np.inf)
        rays, t0s, t1s = [], [], []
        if not n:
            return Cut(w, np.zeros(0, int), np.zeros(0), np.zeros(0), on_e, on_t, band_e, band_t, reach_e, reach_t)
        a, b, length = a[w], b[w], length[w]
        plan = (a[:, 0] != b[:, 0]) | (a[:, 1] != b[:, 1])  # else a plumb sightline: over burnt ground or not
        for piece in self.areas:
            near = np.nonzero(piece.meets(a, b) & plan)[0]
            if not len(near):
                continue
            ax, ay = a[near, 0], a[near, 1]
            line, u0, u1 = piece.crossings(ax, ay, b[near, 0] - ax, b[near, 1] - ay)
            r = near[line]
            on_e[r[(u0 <= 0.0) & (u1 > 0.0)]] = True
            on_t[r[(u0 < 1.0) & (u1 >= 1.0)]] = True
            c0, c1 = np.maximum(u0, 0.0), np.minimum(u1, 1.0)
            keep = c1 > c0
            rays.append(r[keep])
            t0s.append(c0[keep] * length[r[keep]])
            t1s.append(c1[keep] * length[r[keep]])
        banded = plan & (((a[:, 0] >= x0) & (a[:, 0] <= x1) & (a[:, 1] >= y0) & (a[:, 1] <= y1))
                         | ((b[:, 0] >= x0) & (b[:, 0] <= x1) & (b[:, 1] >= y0) & (b[:, 1] <= y1)))
        v = np.nonzero(banded)[0]
        if len(v):
            banded[v] = (shapely.intersects_xy(self.grown_geom, a[v, 0], a[v, 1])
                         | shapely.intersects_xy(self.grown_geom, b[v, 0], b[v, 1]))
        for piece in self.grown if banded.any() else ():
            near = np.nonzero(piece.meets(a, b) & banded)[0]
            if not len(near):
                continue
            ax, ay = a[near, 0], a[near, 1]
            line, u0, u1 = piece.crossings(ax, ay, b[near, 0] - ax, b[near, 1] - ay)
            r = near[line]
            at_e = (u0 <= 0.0) & (u1 > 0.0)
            band_e[r[at_e]] = np.minimum(u1[at_e], 1.0) * length[r[at_e]]
            at_t = (u0 < 1.0) & (u1 >= 1.0)
            band_t[r[at_t]] = (1.0 - np.maximum(u0[at_t], 0.0)) * length[r[at_t]]
        plumb = np.nonzero(~plan)[0]
        if len(plumb):
            on = shapely.intersects_xy(self.geom, a[plumb, 0], a[plumb, 1])  # inside or on its edge
            on_e[plumb], on_t[plumb] = on, on
            rays.append(plumb[on])
            t0s.append(np.zeros(int(on.sum())))
            t1s.append(length[plumb[on]])
        if not rays:
            return Cut(w, np.zeros(0, int), np.zeros(0), np.zeros(0), on_e, on_t, band_e, band_t, reach_e, reach_t)
        ray, t0, t1 = np.concatenate(rays), np.concatenate(t0s), np.concatenate(t1s)
        order = np.lexsort((t0, ray))
        ray, t0, t1 = ray[order], t0[order], t1[order]
        if len(ray):
            start = np.concatenate([[True], ray[1:] != ray[:-1]])
            end = np.append(ray[1:] != ray[:-1], True)
            reach_e[ray[start]] = t0[start]
            reach_t[ray[end]] = length[ray[end]] - t1[end]
        return Cut(w, w[ray], t0, t1, on_e, on_t, band_e, band_t, reach_e, reach_t)

    def cut1(self, ax: float, ay: float, bx: float, by: float, length: float) -> Cut1 | None:
        """:meth:`cut` for one sightline, or None when it comes nowhere near burnt ground."""
        grown = [g for g in self.grown if g.meets1(ax, ay, bx, by)]
        if not grown:
            return None
        dx, dy = bx - ax, by - ay
        if dx == 0.0 and dy == 0.0:
            if not shapely.intersects_xy(self.geom, ax, ay):
                return None
            return Cut1([(0.0, length)], True, True, 0.0, 0.0, 0.0, 0.0)
        stretches: list[tuple[float, float]] = []
        on_e = on_t = False
        for piece in self.areas:
            if not piece.meets1(ax, ay, bx, by):
                continue
            for u0, u1 in piece.crossings1(ax, ay, dx, dy):
                if u0 <= 0.0 < u1:
                    on_e = True
                if u0 < 1.0 <= u1:
                    on_t = True
                c0, c1 = max(u0, 0.0), min(u1, 1.0)
                if c1 > c0:
                    stretches.append((c0 * length, c1 * length))
        band_e = band_t = 0.0
        for piece in grown if self._banded1(ax, ay, bx, by) else ():
            for u0, u1 in piece.crossings1(ax, ay, dx, dy):
                if u0 <= 0.0 < u1:
                    band_e = min(u1, 1.0) * length
                if u0 < 1.0 <= u1:
                    band_t = (1.0 - max(u0, 0.0)) * length
        if not stretches and not band_e and not band_t:
            return None
        if len(stretches) > 1:
            stretches.sort()
        reach_e = stretches[0][0] if stretches else INF
        reach_t = length - stretches[-1][1] if stretches else INF
        return Cut1(stretches, on_e, on_t, band_e, band_t, reach_e, reach_t)


    def _banded1(self, ax: float, ay: float, bx: float, by: float) -> bool:
        """Does an end of the sightline stand within the band of a burnt area?"""
        x0, y0, x1, y1 = self.grown_box
        return ((x0 <= ax <= x1 and y0 <= ay <= y1 and bool(shapely.intersects_xy(self.grown_geom, ax, ay)))
                or (x0 <= bx <= x1 and y0 <= by <= y1 and bool(shapely.intersects_xy(self.grown_geom, bx, by))))


def _pieces(geom: BaseGeometry) -> list[BaseGeometry]:
    return [p for p in getattr(geom, "geoms", [geom]) if p.geom_type == "Polygon" and not p.is_empty]


def _meets_box(a: np.ndarray, b: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """Does each plan segment a-b meet the box (grown by ``BOX_SLACK``)? (Separating axes: the box's two
    and the segment's normal.)"""
    x0, y0, x1, y1 = box
    ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    out = ((np.minimum(ax, bx) <= x1) & (np.maximum(ax, bx) >= x0)
           & (np.minimum(ay, by) <= y1) & (np.maximum(ay, by) >= y0))
    w = np.nonzero(out)[0]
    if len(w):
        dx, dy = bx[w] - ax[w], by[w] - ay[w]
        s = [dx * (cy - ay[w]) - dy * (cx - ax[w]) for cx, cy in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        hi = np.maximum(np.maximum(s[0], s[1]), np.maximum(s[2], s[3]))
        lo = np.minimum(np.minimum(s[0], s[1]), np.minimum(s[2], s[3]))
        out[w] = (hi >= 0.0) & (lo <= 0.0)
    return out


def _meets_box1(ax: float, ay: float, bx: float, by: float, box: tuple[float, float, float, float]) -> bool:
    """:func:`_meets_box` for one segment (``box`` already grown by ``BOX_SLACK``)."""
    x0, y0, x1, y1 = box
    if (ax > x1 and bx > x1) or (ax < x0 and bx < x0) or (ay > y1 and by > y1) or (ay < y0 and by < y0):
        return False
    dx, dy = bx - ax, by - ay
    v0 = dx * (y0 - ay) - dy * (x0 - ax)
    v1 = dx * (y0 - ay) - dy * (x1 - ax)
    v2 = dx * (y1 - ay) - dy * (x1 - ax)
    v3 = dx * (y1 - ay) - dy * (x0 - ax)
    return not ((v0 > 0.0 and v1 > 0.0 and v2 > 0.0 and v3 > 0.0) or (v0 < 0.0 and v1 < 0.0 and v2 < 0.0 and v3 < 0.0))


class Cut1(NamedTuple):
    """:class:`Cut` for one sightline: its burnt stretches [(t0, t1), ...] and the rest as plain values."""

    stretches: list[tuple[float, float]]
    on_e: bool
    on_t: bool
    band_e: float
    band_t: float
    reach_e: float
    reach_t: float

    def over(self, t: float) -> bool:
        return any(t0 <= t <= t1 for t0, t1 in self.stretches)

    def clip(self, t0: float, t1: float) -> list[tuple[float, float]]:
        """:meth:`Cut.clip` for one interval: its pieces between the burnt stretches."""
        out = []
        lo = -INF
        for b0, b1 in self.stretches:
            n0, n1 = max(t0, lo), min(t1, b0)
            if n1 > n0:
                out.append((n0, n1))
            lo = b1
        n0, n1 = max(t0, lo), min(t1, INF)
        if n1 > n0:
            out.append((n0, n1))
        return out


INF = float("inf")


@lru_cache(maxsize=64)
def burnt_of(flat: tuple[tuple[float, ...], ...]) -> Burnt:
    """The burnt areas of ``Conditions.burnt``, prepared once per process."""
    return Burnt(flat)
