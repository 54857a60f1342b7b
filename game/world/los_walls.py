"""The buildings a stand inside sees out of (G-01 T10/T11; terrain.toml ``wall_band``): each as convex
half-planes (``Walls``), which hold a point, and how far a sightline runs inside before the walls
count again, for one sightline and for many (``WallSight``, a part of ``game.world.los.TableLOS``).

What it leaves out: the rest of line of sight (``game.world.los``).
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry.polygon import orient

from game.terrain import TerrainBook
from game.world.los_terms import (
    INF,
    SOLID_CLEARANCE,
)
from game.world.raytrace import (
    BAND_SLACK,
    GRID_EPS,
    MAX_HITS,
    STEP,
    PlanGrid,
    TableGeometry,
)


@dataclass(frozen=True)
class Walls:
    """A building a stand inside sees out of (G-01 T10/T11; terrain.toml ``wall_band``), in plan.

    Each outline is convex and kept as its edges' half-planes: (nx, ny, x0, y0), the inward unit normal
    and a corner; a point p is inside when nx * (px - x0) + ny * (py - y0) >= 0 for every edge."""

    feature: str
    terrain: str
    parts: tuple[int, ...]
    """The building's solid parts (walls, roof ...)."""
    hull: tuple[tuple[float, float, float, float], ...]
    """The outline of all its parts, eaves included: an end over it (between ``zlo`` and ``zhi``) is inside."""
    wall: tuple[tuple[float, float, float, float], ...]
    """Its wall line: the outline of the parts that reach down to its lowest point (the walls, not an
    overhanging roof)."""
    band: float
    """The wall band plus ``BAND_SLACK``: a point further than this from every wall is deep inside."""
    zlo: float
    zhi: float


class WallSight:
    """``TableLOS``'s questions about the buildings an end stands in (its tables built in its ``__init__``)."""

    # -- the walls a stand inside sees out of (G-01 T10/T11) ----------------------------------------
    def _walls_of1(self, x: float, y: float, z: float) -> int:
        """The building of ``walls`` a point is inside (-1: none); the grid answers where none can be."""
        cell = self.grid.cell(x, y)
        code = self._walls_cell[cell]
        if code == -1:
            return -1
        for k in (self._walls_multi[cell] if code == -2 else (code,)):
            if _inside_walls(self.walls[k], x, y, z):
                return k
        return -1

    def _walls_of(self, pts: np.ndarray) -> np.ndarray:
        """:meth:`_walls_of1` for each point: the grid names the one building that may hold it (the
        points of a cell several may hold are asked one by one)."""
        out = np.full(len(pts), -1)
        if not self.walls or not len(pts):
            return out
        g = self.grid  # grid.cells, for points on the table (as the trace has checked them)
        i = (pts[:, 0] / g.h).astype(np.int32)
        j = (pts[:, 1] / g.h).astype(np.int32)
        np.minimum(i, g.nx - 1, out=i)
        np.minimum(j, g.ny - 1, out=j)
        code = self._walls_cell_np[j * g.nx + i]
        cand = np.flatnonzero(code != -1)
        if not len(cand):
            return out
        k = code[cand]
        one, k = cand[k >= 0], k[k >= 0]
        if len(one):  # :func:`_inside_walls`, every point against its building's edges at once
            pt = pts[one]
            pl = self._hull_planes[k]
            f = pl[:, :, 0] * (pt[:, 0:1] - pl[:, :, 2]) + pl[:, :, 1] * (pt[:, 1:2] - pl[:, :, 3])
            z = self._walls_z[k]
            inside = (z[:, 0] <= pt[:, 2]) & (pt[:, 2] <= z[:, 1]) & (f >= 0.0).all(axis=1)
            out[one[inside]] = k[inside]
        for c in cand[code[cand] == -2].tolist():
            x, y, z = pts[c].tolist()
            out[c] = self._walls_of1(x, y, z)
        return out

    @staticmethod
    def _inside_walls_many(w: Walls, pts: np.ndarray) -> np.ndarray:
        """:func:`_inside_walls` for each point (the same arithmetic)."""
        x, y, z = pts[:, 0], pts[:, 1], pts[:, 2]
        inside = (w.zlo <= z) & (z <= w.zhi)
        for nx, ny, x0, y0 in w.hull:
            inside &= nx * (x - x0) + ny * (y - y0) >= 0.0
        return inside

    def _walls_cast(self, pts: np.ndarray) -> np.ndarray:
        """:meth:`_walls_of` without the grid: every point held against every building (the reference)."""
        out = np.full(len(pts), -1)
        for k, w in enumerate(self.walls):
            out[(out == -1) & self._inside_walls_many(w, pts)] = k
        return out

    def _wall_windows(self, be: int, bt: int, ex: float, ey: float, tx: float, ty: float, length: float
                      ) -> tuple[float, float]:
        """(te, tb) for a sightline whose eye is inside building ``be`` and whose target is inside ``bt``
        (-1: none): hits on be's parts before te along it, and on bt's after tb, are left out (G-01
        T10/T11). From an end within the wall band up to where the sightline goes deeper than the band
        (the whole of it if it never does: a building is convex, so it never comes back in); nothing from
        an end deeper inside; the whole of a sightline between two ends inside the same building."""
        if be >= 0 and be == bt:
            return INF, -INF
        te, tb = 0.0, INF
        if be >= 0:
            s = _wall_reach(self.walls[be], ex, ey, tx - ex, ty - ey)
            te = INF if s == INF else s * length
        if bt >= 0:
            s = _wall_reach(self.walls[bt], tx, ty, ex - tx, ey - ty)
            tb = -INF if s == INF else length - s * length
        return te, tb

    def _wall_windows_many(self, be: np.ndarray, bt: np.ndarray, e: np.ndarray, q: np.ndarray, ln: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_wall_windows` for many sightlines at once (the same arithmetic)."""
        n = len(be)
        te, tb = np.zeros(n), np.full(n, np.inf)
        same = (be >= 0) & (be == bt)
        te[same], tb[same] = np.inf, -np.inf
        for end, b, p, o, out in ((0, be, e, q, te), (1, bt, q, e, tb)):
            rows = np.nonzero((b >= 0) & ~same)[0]
            if not len(rows):
                continue
            k = b[rows]
            s = _wall_reach_many(self._wall_planes[k], self._walls_band[k], p[rows, 0], p[rows, 1],
                                 o[rows, 0] - p[rows, 0], o[rows, 1] - p[rows, 1])
            length = ln[rows]
            never = np.isinf(s)
            s = np.where(never, 0.0, s)
            out[rows] = np.where(never, np.inf, s * length) if end == 0 else np.where(never, -np.inf, length - s * length)
        return te, tb

    def _past_walls(self, e: np.ndarray, d: np.ndarray, tmax: np.ndarray, be: np.ndarray, te: np.ndarray,
                    bt: np.ndarray, tb: np.ndarray, t: np.ndarray, part: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`_solid_past_walls` for many sightlines, from the first hit of a plain cast from each eye
        (``t``, its ``part`` or -1): each hit that is a wall an end sees out through is cast past, in
        rounds. Returns (t, part) of the first hit that blocks, and whether a wall of the eye's / the
        target's building was left out (N x 2)."""
        solid = self.geo.solid
        t, part = t.copy(), part.copy()
        used = np.zeros((len(t), 2), bool)
        for rounds in range(MAX_HITS):
            k = self._part_walls_np[part]  # (part -1 is the last entry: -1)
            by_e, by_t = (k >= 0) & (k == be) & (t < te), (k >= 0) & (k == bt) & (t > tb)
            used[:, 0] |= by_e
            used[:, 1] |= by_t
            skip = np.nonzero(by_e | by_t)[0]
            if not len(skip):
                break
            start = t[skip] + STEP
            t[skip], part[skip] = np.inf, -1
            if rounds == MAX_HITS - 1:
                break  # as many casts as the single path makes, all left out: no hit
            go = start < tmax[skip]
            r, start = skip[go], start[go]
            if len(r):
                t2, p2 = solid.first(e[r] + d[r] * start[:, None], d[r], tmax[r] - start)
                t[r] = np.where(p2 >= 0, start + t2, np.inf)
                part[r] = np.where(p2 >= 0, solid.owner[np.maximum(p2, 0)], -1)
        return t, part, used

    def _solid_walls(self, rows: np.ndarray, eyes: np.ndarray, targets: np.ndarray, dirs: np.ndarray,
                     length: np.ndarray, t0: np.ndarray | None = None, part0: np.ndarray | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """Ground and buildings for those of the sightlines ``rows`` with an end inside a building of
        ``walls``, cast past the walls their ends see out through (G-01 T10/T11), from their plain first
        hits (``t0``, ``part0``, one per row; cast here when not given). Returns (their positions in
        ``rows``, t, part of the first hit that blocks, the wall evidence: m x 2, the eye's / the target's
        building where one of its walls was left out, else -1), or None when no sightline has such an end."""
        m = len(rows)
        both = self._walls_of(np.concatenate([eyes[rows], targets[rows]]))
        be, bt = both[:m], both[m:]
        w = np.nonzero((be >= 0) | (bt >= 0))[0]
        if not len(w):
            return None
        r = rows[w]
        be, bt = be[w], bt[w]
        te, tb = self._wall_windows_many(be, bt, eyes[r], targets[r], length[r])
        tmax = length[r] - SOLID_CLEARANCE
        if t0 is None:
            t0, prim = self.geo.solid.first(eyes[r], dirs[r], tmax)
            part0 = np.where(prim >= 0, self.geo.solid.owner[np.maximum(prim, 0)], -1)
        else:
            t0, part0 = t0[w], part0[w]
        t, part, used = self._past_walls(eyes[r], dirs[r], tmax, be, te, bt, tb, t0, part0)
        return w, t, part, np.column_stack([np.where(used[:, 0], be, -1), np.where(used[:, 1], bt, -1)])

    def _wall_rays(self, e: np.ndarray, q: np.ndarray, ln: np.ndarray) -> list[tuple[int, int, float, int, float]]:
        """The reference's sightlines with an end inside a building of ``walls``: (row, be, te, bt, tb),
        one by one as :meth:`_wall_windows` gives them."""
        if not self.walls or not len(e):
            return []
        be, bt = self._walls_cast(e), self._walls_cast(q)
        out = []
        for j in np.nonzero((be >= 0) | (bt >= 0))[0].tolist():
            ex, ey, _ = e[j].tolist()
            tx, ty, _ = q[j].tolist()
            a, b = int(be[j]), int(bt[j])
            te, tb = self._wall_windows(a, b, ex, ey, tx, ty, float(ln[j]))
            out.append((j, a, te, b, tb))
        return out

    def _solid_past_walls(self, ex: float, ey: float, ez: float, ux: float, uy: float, uz: float, tmax: float,
                          be: int, te: float, bt: int, tb: float) -> tuple[float, int, tuple[int, int]]:
        """The first ground or building hit within ``tmax`` that is not a wall an end sees out through
        (:meth:`_wall_windows`): (t or inf, face or -1, the wall evidence: the eye's / the target's
        building where one of its walls was left out, else -1). Each hit left out is cast past, one
        after another along the ray, as the canopy crossings are."""
        first = self._casters()[0][0]
        owner, of = self._solid_owner, self._part_walls
        s = 0.0
        used_e = used_t = False
        for _ in range(MAX_HITS):
            t, prim = first(ex + ux * s, ey + uy * s, ez + uz * s, ux, uy, uz, tmax - s)
            if prim < 0:
                break
            t_abs = s + t
            k = of[owner[prim]]
            by_e = k >= 0 and k == be and t_abs < te
            by_t = k >= 0 and k == bt and t_abs > tb
            used_e, used_t = used_e or by_e, used_t or by_t
            if not (by_e or by_t):
                return t_abs, prim, (be if used_e else -1, bt if used_t else -1)
            s = t_abs + STEP
            if s >= tmax:
                break
        return INF, -1, (be if used_e else -1, bt if used_t else -1)

    def _walls_through(self, walls: list, rows: np.ndarray, eyes: np.ndarray, dirs: np.ndarray,
                       length: np.ndarray, n: int, solid_t: np.ndarray, solid_part: np.ndarray) -> np.ndarray | None:
        """The reference: cast again, one by one (:meth:`_solid_past_walls`), each sightline of ``walls``
        (rows into ``rows``), into ``solid_t`` and ``solid_part``. Returns the N x 2 wall evidence (None
        when no sightline has an end inside such a building)."""
        if not walls:
            return None
        wall = np.full((n, 2), -1)
        owner = self._solid_owner
        for j, be, te, bt, tb in walls:
            i = int(rows[j])
            ex, ey, ez = eyes[i].tolist()
            ux, uy, uz = dirs[i].tolist()
            ln = float(length[i])
            t, prim, wall[i] = self._solid_past_walls(ex, ey, ez, ux, uy, uz, ln - SOLID_CLEARANCE, be, te, bt, tb)
            solid_t[i] = t
            solid_part[i] = owner[prim] if prim >= 0 else -1
        return wall if (wall >= 0).any() else None


def _planes(poly: Any) -> tuple[tuple[float, float, float, float], ...]:
    """A convex polygon's edges as half-planes (inward unit normal, a corner): see :class:`Walls`."""
    ring = list(orient(poly, 1.0).exterior.coords)[:-1]
    out = []
    for i, (x0, y0) in enumerate(ring):
        x1, y1 = ring[(i + 1) % len(ring)]
        ex, ey = x1 - x0, y1 - y0
        length = math.hypot(ex, ey)
        if length > 1e-9:
            out.append((-ey / length, ex / length, float(x0), float(y0)))
    return tuple(out)


def _table_walls(geometry: TableGeometry, book: TerrainBook, grid: PlanGrid
                 ) -> tuple[list[Walls], np.ndarray, array, dict[int, tuple[int, ...]]]:
    """The buildings of a table whose terrain has a ``wall_band`` (G-01 T10/T11), in the order of their
    first part; each part's building; per grid cell the building that may hold a point there (-1 none,
    -2 several, listed in the dict by cell)."""
    parts = geometry.parts
    part_walls = np.full(len(parts) + 1, -1)
    multi: dict[int, tuple[int, ...]] = {}
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(parts):
        if p.role == "building" and p.footprint is not None and book.terrain[p.terrain].wall_band > 0:
            groups.setdefault(p.feature, []).append(i)
    if not groups:
        return [], part_walls, array("i", [-1]) * (grid.nx * grid.ny), multi
    solid = geometry.solid
    z = solid.tris32[:, :, 2]
    zlo_f, zhi_f = z.min(axis=1).astype(np.float64), z.max(axis=1).astype(np.float64)
    walls: list[Walls] = []
    for feature, members in groups.items():
        lo = {i: float(zlo_f[solid.owner == i].min()) for i in members}
        hi = {i: float(zhi_f[solid.owner == i].max()) for i in members}
        zlo, zhi = min(lo.values()), max(hi.values())
        hull = shapely.union_all([parts[i].footprint for i in members]).convex_hull
        wall = shapely.union_all([parts[i].footprint for i in members if lo[i] <= zlo + 0.01]).convex_hull
        if hull.geom_type != "Polygon" or wall.geom_type != "Polygon":
            continue  # a building with no plan area: it blocks whole
        terrain = book.terrain[parts[members[0]].terrain]
        k = len(walls)
        walls.append(Walls(feature, terrain.id, tuple(members), _planes(hull), _planes(wall),
                           terrain.wall_band + BAND_SLACK, zlo, zhi))
        part_walls[members] = k
    codes = np.full(grid.ny * grid.nx, -1, np.int32)
    for k, w in enumerate(walls):
        x0, y0, x1, y1 = shapely.MultiPoint([(x, y) for _, _, x, y in w.hull]).bounds
        i0, i1 = (min(max(int(math.floor(v / grid.h)), 0), grid.nx - 1) for v in (x0 - GRID_EPS, x1 + GRID_EPS))
        j0, j1 = (min(max(int(math.floor(v / grid.h)), 0), grid.ny - 1) for v in (y0 - GRID_EPS, y1 + GRID_EPS))
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                c = j * grid.nx + i
                if codes[c] == -1:
                    codes[c] = k
                else:
                    multi[c] = multi.get(c, (int(codes[c]),)) + (k,)
                    codes[c] = -2
    return walls, part_walls, array("i", codes.tobytes()), multi


def _inside_walls(w: Walls, x: float, y: float, z: float) -> bool:
    """Is the point inside the building: over its outline, eaves included, between its lowest and
    highest point?"""
    if not w.zlo <= z <= w.zhi:
        return False
    for nx, ny, x0, y0 in w.hull:
        if nx * (x - x0) + ny * (y - y0) < 0.0:
            return False
    return True


def _plane_table(planes: list[tuple[tuple[float, float, float, float], ...]]) -> np.ndarray:
    """Buildings' half-planes as one W x P x 4 array, each padded with its first (a half-plane twice
    changes nothing)."""
    width = max(len(p) for p in planes)
    return np.array([list(p) + [p[0]] * (width - len(p)) for p in planes])


def _wall_reach_many(pl: np.ndarray, band: np.ndarray, px: np.ndarray, py: np.ndarray, dx: np.ndarray,
                     dy: np.ndarray) -> np.ndarray:
    """:func:`_wall_reach` for many segments, each with its building's wall half-planes (m x P x 4) and
    band: the same arithmetic, INF where it gives INF."""
    nx, ny = pl[:, :, 0], pl[:, :, 1]
    f = nx * (px[:, None] - pl[:, :, 2]) + ny * (py[:, None] - pl[:, :, 3]) - band[:, None]
    g = nx * dx[:, None] + ny * dy[:, None]
    never = ((g == 0.0) & (f < 0.0)).any(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = -f / g
    lo = np.where(g > 0.0, s, 0.0).max(axis=1, initial=0.0)
    hi = np.where(g < 0.0, s, 1.0).min(axis=1, initial=1.0)
    return np.where(never | (lo > hi), INF, lo)


def _wall_reach(w: Walls, px: float, py: float, dx: float, dy: float) -> float:
    """How far along the plan segment P + s D (s from 0 to 1) a sightline from P, inside the building,
    stays within its wall band: the s at which it goes deeper than the band from every wall (clipping
    the segment to the wall line shrunk by the band), INF when it never does, 0 when P is deeper."""
    lo, hi, band = 0.0, 1.0, w.band
    for nx, ny, x0, y0 in w.wall:
        f = nx * (px - x0) + ny * (py - y0) - band
        g = nx * dx + ny * dy
        if g == 0.0:
            if f < 0.0:
                return INF
        elif g > 0.0:
            s = -f / g
            if s > lo:
                lo = s
        else:
            s = -f / g
            if s < hi:
                hi = s
        if lo > hi:
            return INF
    return lo
