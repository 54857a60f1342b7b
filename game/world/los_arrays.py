"""Line of sight for many sightlines at once in numpy (``TableLOS.trace`` where the compiled path cannot
run: burnt ground, nothing compiled), and the plain reference every path answers as
(``trace_reference``): ``ArrayTrace``, a part of ``game.world.los.TableLOS``.

What it leaves out: the compiled path (``game.world.sightline``) and the single sightline in Python
(``game.world.los_single``).
"""

from __future__ import annotations

import numpy as np

from game.world.burnt import Cut, burnt_of
from game.world.hulls import block_many
from game.world.los_terms import (
    ELEVATED,
    ELEVATION_BONUS,
    EYE_HEIGHT,
    KILL_PLAN,
    OPEN_LIMIT,
    SOLID_CLEARANCE,
    TIME_CAPS,
    Conditions,
    Trace,
    quantise,
)
from game.world.raytrace import (
    MAX_HITS,
    STEP,
)

TAIL_RAYS = 24
"""A batched trace casts its last this-many rays one at a time."""


class ArrayTrace:
    """``TableLOS``'s numpy paths (its tables built in its ``__init__``)."""

    def _hull_block(self, conditions: Conditions, eyes: np.ndarray, targets: np.ndarray, length: np.ndarray,
                    rows: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None, tuple[str, ...]]:
        """The hull that blocks each of the sightlines ``rows`` (G-01 T15), -1 elsewhere, and where it
        enters it (3D inches from the eye); (None, None, ()) when the conditions have no hulls."""
        hulls = self._hulls(conditions)
        if hulls is None:
            return None, None, ()
        n = len(eyes)
        hull, hull_t = np.full(n, -1), np.full(n, np.inf)
        k, s = block_many(hulls, eyes[rows], targets[rows])
        hull[rows] = k
        hit = k >= 0
        t = np.full(len(k), np.inf)
        t[hit] = s[hit] * length[rows][hit]  # only where a hull blocks: elsewhere ``s`` is no distance
        hull_t[rows] = t
        return hull, hull_t, hulls.ids

    def _inside_cast(self, pts: np.ndarray) -> np.ndarray:
        """The canopy part containing each point (-1: none): the first face straight up is an exit."""
        if len(self.geo.canopy.owner) == 0 or not len(pts):  # a table with no canopy at all
            return np.full(len(pts), -1)
        up = np.tile([0.0, 0.0, 1.0], (len(pts), 1))
        _, prim = self.geo.canopy.first(pts, up)
        ok = prim >= 0
        inside = np.zeros(len(pts), bool)
        inside[ok] = self.geo.canopy.normal[prim[ok], 2] > 0
        return np.where(inside, self.geo.canopy.owner[np.maximum(prim, 0)], -1)

    def _inside(self, pts: np.ndarray) -> np.ndarray:
        """:meth:`_inside_cast`, read off the plan grid where a single volume (or none) covers the
        point's cell and the point is clear of its top and bottom; cast elsewhere."""
        cell = self.grid.cells(pts)
        code = self._canopy_part[cell]
        z = pts[:, 2]
        known = (code >= 0) & (z > self._inside_lo[cell]) & (z < self._inside_hi[cell])
        out = np.where(known, code, -1)
        known |= (code == -1) | ((code >= 0) & ((z < self._outside_lo[cell]) | (z > self._outside_hi[cell])))
        rest = np.nonzero(~known)[0]
        if len(rest):
            out[rest] = self._inside_cast(pts[rest])
        return out

    def _elevated(self, pts: np.ndarray) -> np.ndarray:
        """Does each end stand 2" or more above the table (DD-4.41)? Its stand is the higher of the
        ground under it and its eye less the eye height."""
        out = pts[:, 2] - EYE_HEIGHT >= ELEVATED - 1e-6
        rest = np.nonzero(~out)[0]
        if len(rest):
            unsure = self._ground_max[self.grid.cells(pts[rest])] + 1e-4 >= ELEVATED - 1e-6
            rest = rest[unsure]
            if len(rest):
                out[rest] = self._ground(pts[rest, :2]) >= ELEVATED - 1e-6
        return out

    def _band_span(self, pts: np.ndarray, dirs: np.ndarray, part: np.ndarray, exit_t: np.ndarray) -> np.ndarray:
        """How far from each end a sightline stays in the woodline band of the part it starts in
        (DD-4.2): up to where it leaves the part or enters the part's core. 0 when not lining."""
        span = np.zeros(len(pts))
        todo = np.nonzero(part >= 0)[0]
        if not len(todo):
            return span
        t, prim = self.geo.core.first(pts[todo], dirs[todo])
        core = self.geo.core
        hit = prim >= 0
        own = np.zeros(len(todo), bool)
        own[hit] = core.owner[prim[hit]] == part[todo][hit]
        leaving = np.zeros(len(todo), bool)
        leaving[hit] = _dot(core.normal[prim[hit]], dirs[todo][hit]) > 0
        in_core = own & leaving
        entry = np.where(own & ~leaving, t, np.inf)
        span[todo] = np.where(in_core, 0.0, np.minimum(exit_t[todo], entry))
        return span

    def _canopy_inside(self, ray: np.ndarray, t: np.ndarray, part: np.ndarray, entering: np.ndarray,
                       part_e: np.ndarray, part_t: np.ndarray, length: np.ndarray, eyes: np.ndarray,
                       dirs: np.ndarray, targets: np.ndarray, cut: Cut | None, n: int) -> tuple:
        """Where each of ``n`` sightlines is inside canopy, from its boundary crossings (``ray``, ``t``,
        ``part``, ``entering``): the woodline band at each end (DD-4.2, ``_band_span``), and the
        intervals inside each volume with those bands clipped off; with ``cut``, none over burnt ground
        (G-19). Returns (band span at the eye, at the target, and the intervals: ray, part, t0, t1)."""
        exit_e, exit_t = _band_exits(ray, t, part, entering, part_e, part_t, length)
        span_e = self._band_span(eyes, dirs, part_e, exit_e)
        span_t = self._band_span(targets, -dirs, part_t, exit_t)
        if cut is not None:  # G-19: the woodlines the fire made, and none on burnt ground
            span_e = cut.spans(span_e, 0, part_e, self.part_veg, exit_e)
            span_t = cut.spans(span_t, 1, part_t, self.part_veg, exit_t)
        iv_ray, iv_part, iv_t0, iv_t1 = _intervals(ray, part, t, entering, part_e, part_t, length)
        at_eye = (iv_part == part_e[iv_ray]) & (iv_t0 <= 0.0)
        iv_t0 = np.where(at_eye, np.maximum(iv_t0, span_e[iv_ray]), iv_t0)
        at_target = (iv_part == part_t[iv_ray]) & (iv_t1 >= length[iv_ray])
        iv_t1 = np.where(at_target, np.minimum(iv_t1, length[iv_ray] - span_t[iv_ray]), iv_t1)
        if cut is not None:  # G-19: no vegetation over burnt ground
            iv_ray, iv_part, iv_t0, iv_t1 = cut.clip(iv_ray, iv_part, iv_t0, iv_t1, self.part_veg, n)
        return span_e, span_t, (iv_ray, iv_part, iv_t0, iv_t1)

    def _open_limits(self, eyes: np.ndarray, targets: np.ndarray, elevated: np.ndarray, conditions: Conditions
                     ) -> tuple[np.ndarray, np.ndarray]:
        """The lowest limit of each sightline before terrain: open or elevated (DD-4.1, DD-4.41), time of
        day (G-23), weather (DD-3.8, G-07). Terrain can only lower it."""
        n = len(eyes)
        cutoff = np.where(elevated, OPEN_LIMIT + ELEVATION_BONUS, OPEN_LIMIT)
        limit = np.where(elevated, self._limit["elevated"], self._limit["open"])
        tcap = TIME_CAPS[conditions.time_of_day]
        if tcap is not None:
            lit = np.zeros(n, bool)
            for cx, cy, r in conditions.illuminated:
                lit |= np.hypot(eyes[:, 0] - cx, eyes[:, 1] - cy) <= r
                lit |= np.hypot(targets[:, 0] - cx, targets[:, 1] - cy) <= r
            lower = ~lit & (tcap < cutoff)
            cutoff = np.where(lower, tcap, cutoff)
            limit = np.where(lower, self._limit[conditions.time_of_day], limit)
        wcap, wname, _ = conditions.weather_cap()
        if wcap is not None:
            lower = wcap < cutoff
            cutoff = np.where(lower, wcap, cutoff)
            limit = np.where(lower, self._limit[wname], limit)
        return cutoff, limit

    def _trace_arrays(self, eyes: np.ndarray, targets: np.ndarray, conditions: Conditions,
                      distance: np.ndarray | None, early: bool) -> Trace:
        """:meth:`TableLOS.trace` in numpy, many sightlines a cast (the answers of :meth:`trace_reference`)."""
        eyes, targets, n, length, dirs, plan, hfac, dist = self._segments(eyes, targets, distance)
        C = len(self.classes)
        geo = self.geo

        # 5 (first): the limits before terrain; a sightline longer than them is not traced. (Dropping
        # early, whether an end is elevated matters only past 24" until the answer is known.)
        if early:
            elevated = np.zeros(n, bool)
            cutoff, limit = self._open_limits(eyes, targets, elevated, conditions)
            asked = dist > cutoff + 1e-9
            todo = np.nonzero(asked)[0]
            elevated[todo] = self._elevated(eyes[todo]) | self._elevated(targets[todo])
            cutoff[todo], limit[todo] = self._open_limits(eyes[todo], targets[todo], elevated[todo], conditions)
        else:
            elevated = self._elevated(eyes) | self._elevated(targets)
            cutoff, limit = self._open_limits(eyes, targets, elevated, conditions)
        far = dist > cutoff + 1e-9

        # 2. smoke and dust circles, in plan
        smoke = np.zeros(n, bool)
        for cx, cy, r in conditions.smoke:
            smoke |= _segment_near(eyes[:, :2], targets[:, :2], cx, cy, r)
        # 2. vehicle hulls and wrecks (G-01 T15; game.world.hulls), a box each
        hull, hull_t, hull_ids = self._hull_block(conditions, eyes, targets, length, np.flatnonzero(~far))
        stop = smoke if hull is None else smoke | (hull >= 0)
        live = np.nonzero(~far & ~stop if early else ~far)[0]

        # 1. ground and buildings
        solid_t = np.full(n, np.inf)
        solid_part = np.full(n, -1)
        cast = live[length[live] > SOLID_CLEARANCE]
        # (an end inside a hootch or masonry building, within its wall band, sees out: G-01 T10/T11; only
        # a sightline that something blocks needs asking, early)
        walled = None
        if early:
            hit = geo.solid.blocked(eyes[cast], dirs[cast], length[cast] - SOLID_CLEARANCE)
            if self.walls and hit.any():
                held = np.nonzero(hit)[0]
                walled = self._solid_walls(cast[held], eyes, targets, dirs, length)
                if walled is not None:
                    w = held[walled[0]]
                    hit[w] = walled[2] >= 0
                    walled = (cast[w], walled[3])
            if hit.any():
                live = np.setdiff1d(live, cast[hit], assume_unique=True)
        elif len(cast):
            t, prim = geo.solid.first(eyes[cast], dirs[cast], length[cast] - SOLID_CLEARANCE)
            solid_t[cast] = t
            solid_part[cast] = np.where(prim >= 0, geo.solid.owner[np.maximum(prim, 0)], -1)
            if self.walls:  # only a sightline whose first hit is a building with a wall band can change
                near = cast[self._part_walls_np[solid_part[cast]] >= 0]
                walled = self._solid_walls(near, eyes, targets, dirs, length, solid_t[near], solid_part[near])
                if walled is not None:
                    r = near[walled[0]]
                    solid_t[r], solid_part[r] = walled[1], walled[2]
                    walled = (r, walled[3])
        wall = None
        if walled is not None and (walled[1] >= 0).any():
            wall = np.full((n, 2), -1)
            wall[walled[0]] = walled[1]

        # 3. canopy: every boundary crossed (the target's volume first: a ray dropped early must not be
        # dropped for the band of its own end), then where the eye is
        e, d, ln, hf = eyes[live], dirs[live], length[live], hfac[live]
        part_t = self._inside(targets[live])
        burnt = self._burnt(conditions)
        dl = dist[live]
        cut = None
        if burnt is not None:  # G-19: burnt ground; a canopy cutoff over it is not sure: no early drop
            cut = burnt.cut(e[:, :2], targets[live, :2], ln)
            if not len(cut.near):
                cut = None  # no sightline comes near it
            elif early:
                dl = np.where(cut.crossed(len(live)), -np.inf, dl)
        ray, t, prim, dropped = self._crossings(e, d, ln, hf, dl, part_t, early)
        if dropped.any():
            keep = ~dropped
            remap = np.cumsum(keep) - 1
            hit_keep = keep[ray]
            ray, t, prim = remap[ray[hit_keep]], t[hit_keep], prim[hit_keep]
            live, e, d, ln, hf, part_t = live[keep], e[keep], d[keep], ln[keep], hf[keep], part_t[keep]
            if cut is not None:
                cut = cut.take(keep)
        part_e = self._inside(e)
        m = len(live)
        part = geo.canopy.owner[prim]
        entering = _dot(geo.canopy.normal[prim], d[ray]) < 0
        # inches inside each class: the union of the intervals inside its volumes, bands clipped off
        span_e, span_t, (iv_ray, iv_part, iv_t0, iv_t1) = self._canopy_inside(
            ray, t, part, entering, part_e, part_t, ln, e, d, targets[live], cut, m)
        sub = np.zeros((m, C + 1))
        _union_add(sub, iv_ray, self.part_class[iv_part], iv_t0, iv_t1)
        inches = np.zeros((n, C))
        inches[live] = quantise(sub * hf[:, None])[:, :C]

        # 4. dense canopy entered from above, outside the bands (DD-4.41)
        top_entry = entering & self.class_dense[self.part_class[part]] & (geo.canopy.normal[prim, 2] > 0.3)
        top_entry &= (t > span_e[ray] + 1e-6) & (t < ln[ray] - span_t[ray] - 1e-6)
        if cut is not None and top_entry.any():  # G-19: no canopy top over burnt ground
            w = np.nonzero(top_entry)[0]
            top_entry[w[cut.over(ray[w], t[w], m) & self.part_veg[part[w]]]] = False
        above_t = np.full(n, np.inf)
        above_part = np.full(n, -1)
        if top_entry.any():
            first = np.full(m, np.inf)
            np.minimum.at(first, ray[top_entry], t[top_entry])
            above_t[live] = first
            first_above = top_entry & (t == first[ray])
            above_part[live[ray[first_above]]] = part[first_above]

        # 5. each canopy class crossed caps the total length (G-02); ties go to the terrain
        if early:
            todo = live[~asked[live]]
            elevated[todo] = self._elevated(eyes[todo]) | self._elevated(targets[todo])
            cutoff[todo], limit[todo] = self._open_limits(eyes[todo], targets[todo], elevated[todo], conditions)
        crossed = inches[live] > 0
        cut, lim = cutoff[live], limit[live]
        for c in range(C):
            lower = crossed[:, c] & (self.class_cutoff[c] <= cut)
            cut = np.where(lower, self.class_cutoff[c], cut)
            lim = np.where(lower, c, lim)
        cutoff[live], limit[live] = cut, lim
        alive = np.zeros(n, bool)
        alive[live] = True
        blocked = (solid_part >= 0) | smoke | (above_part >= 0)
        if hull is not None:
            blocked |= hull >= 0
        visible = ~blocked & alive & (dist <= cutoff + 1e-9)
        band = np.zeros((n, 2), bool)
        band[live, 0] = (part_e >= 0) & (span_e > 0)
        band[live, 1] = (part_t >= 0) & (span_t > 0)
        complete = alive | far if early else np.ones(n, bool)
        return Trace(visible, dist, cutoff, limit, inches, solid_t, solid_part, smoke, above_part, above_t,
                     eyes, dirs, length, elevated, band, far, complete, wall, hull, hull_t, hull_ids)

    def _crossings(self, eyes: np.ndarray, dirs: np.ndarray, length: np.ndarray, hfac: np.ndarray,
                   dist: np.ndarray, part_t: np.ndarray, early: bool
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every canopy boundary each sightline crosses: (ray, t, face), and the rays dropped.

        The casts are :meth:`RayScene.all_hits`'s, one after another along each ray. With ``early``, a
        ray is dropped once it is sure to fail a canopy cutoff: it entered a volume (not the target's,
        whose band may not count) of a class whose cutoff is below its length, and an occlusion query
        from where its next cast would start finds nothing for 0.005" in plan (or up to its end): that
        class's inches are then at least 0.01" and its cutoff applies.
        """
        sc = self.geo.canopy
        n = len(eyes)
        dropped = np.zeros(n, bool)
        if sc.empty or not n:
            return np.zeros(0, int), np.zeros(0), np.zeros(0, int), dropped
        rays, ts, prims = [], [], []
        # the live rays, compacted after every round: index, eye, direction (and as Embree takes it),
        # length, where the next cast starts
        idx = np.nonzero(length > 0)[0]
        e, d, ln, start = eyes[idx], dirs[idx], length[idx], np.zeros(len(idx))
        d32 = d.astype(np.float32)
        if early:
            hf, lim, pt = hfac[idx], dist[idx] - 1e-9, part_t[idx]
        normal, owner_of, cut = sc.normal, sc.owner, self.part_cutoff
        for rounds in range(MAX_HITS):
            if not len(idx):
                break
            if len(idx) <= TAIL_RAYS:
                # the last few rays: one at a time is quicker than another round of array work
                if not early:
                    hf, lim, pt = hfac[idx], dist[idx] - 1e-9, part_t[idx]
                tail = self._crossings_tail(idx, e, d, ln, start, hf, lim, pt, MAX_HITS - rounds, early, dropped)
                rays.append(tail[0])
                ts.append(tail[1])
                prims.append(tail[2])
                break
            t, prim = sc.first(e + d * start[:, None], d32, ln - start, dirs32=True)
            hit = prim >= 0
            if not hit.all():
                idx, e, d, d32, ln, start, t, prim = (idx[hit], e[hit], d[hit], d32[hit], ln[hit], start[hit],
                                                      t[hit], prim[hit])
                if early:
                    hf, lim, pt = hf[hit], lim[hit], pt[hit]
            t_abs = start + t
            rays.append(idx)
            ts.append(t_abs)
            prims.append(prim)
            start += t + STEP
            if early and len(idx):
                owner = owner_of[prim]
                arm = (_dot(normal[prim], d) < 0) & (owner != pt) & (cut[owner] < lim) & (t_abs > 0)
                if arm.any():
                    a = np.nonzero(arm)[0]
                    s2, h2 = start[a], hf[a]
                    reach = np.minimum(KILL_PLAN * 1.01 / np.maximum(h2, 1e-12), ln[a] - s2)
                    clear = ~sc.blocked(e[a] + d[a] * s2[:, None], d32[a], reach, dirs32=True)
                    sure = clear & ((s2 + reach - t_abs[a]) * h2 >= KILL_PLAN)
                    if sure.any():
                        dropped[idx[a[sure]]] = True
                        keep = np.ones(len(idx), bool)
                        keep[a[sure]] = False
                        idx, e, d, d32, ln, start = idx[keep], e[keep], d[keep], d32[keep], ln[keep], start[keep]
                        hf, lim, pt = hf[keep], lim[keep], pt[keep]
        if not rays:
            return np.zeros(0, int), np.zeros(0), np.zeros(0, int), dropped
        return np.concatenate(rays), np.concatenate(ts), np.concatenate(prims), dropped

    def _crossings_tail(self, idx: np.ndarray, e: np.ndarray, d: np.ndarray, ln: np.ndarray, start: np.ndarray,
                        hf: np.ndarray, lim: np.ndarray, pt: np.ndarray, rounds: int, early: bool,
                        dropped: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`_crossings` for its last few rays, each on its own: the same casts, the same sums."""
        _, cast, blocked, _, _ = self._casters()
        owner, f_nx, f_ny, f_nz = self._canopy_owner, self._canopy_nx, self._canopy_ny, self._canopy_nz
        cut = self._part_cutoff_list
        rays: list[int] = []
        ts: list[float] = []
        prims: list[int] = []
        for i, (ex, ey, ez), (ux, uy, uz), length, s, h, lm, p_t in zip(
                idx.tolist(), e.tolist(), d.tolist(), ln.tolist(), start.tolist(), hf.tolist(), lim.tolist(),
                pt.tolist(), strict=True):
            for _ in range(rounds):
                t, prim = cast(ex + ux * s, ey + uy * s, ez + uz * s, ux, uy, uz, length - s)
                if prim < 0:
                    break
                t_abs = s + t
                rays.append(i)
                ts.append(t_abs)
                prims.append(prim)
                s += t + STEP
                p = owner[prim]
                if early and p != p_t and cut[p] < lm and t_abs > 0:
                    if f_nx[prim] * ux + f_ny[prim] * uy + f_nz[prim] * uz < 0:
                        reach = min(KILL_PLAN * 1.01 / max(h, 1e-12), length - s)
                        if (not blocked(ex + ux * s, ey + uy * s, ez + uz * s, ux, uy, uz, reach)
                                and (s + reach - t_abs) * h >= KILL_PLAN):
                            dropped[i] = True
                            break
        return np.array(rays, dtype=np.int64), np.array(ts), np.array(prims, dtype=np.int64)

    def _segments(self, eyes: np.ndarray, targets: np.ndarray, distance: np.ndarray | None) -> tuple:
        """The sightlines as arrays, checked to lie on the table: eyes, targets, count, 3D lengths,
        unit directions, plan lengths, plan/3D ratio, and the quantised distance each reports."""
        eyes = np.asarray(eyes, float).reshape(-1, 3)
        targets = np.asarray(targets, float).reshape(-1, 3)
        self._on_table(eyes[:, :2], "sightline from")
        self._on_table(targets[:, :2], "sightline to")
        seg = targets - eyes
        length = np.linalg.norm(seg, axis=1)
        safe = np.maximum(length, 1e-12)
        dirs = np.where(length[:, None] > 0, seg / safe[:, None], np.array([1.0, 0.0, 0.0]))
        plan = np.linalg.norm(seg[:, :2], axis=1)
        hfac = np.where(length > 0, plan / safe, 0.0)
        dist = quantise(plan if distance is None else distance)
        return eyes, targets, len(eyes), length, dirs, plan, hfac, dist

    # -- the reference ------------------------------------------------------------------------------
    def trace_reference(self, eyes: np.ndarray, targets: np.ndarray, conditions: Conditions,
                        distance: np.ndarray | None = None) -> Trace:
        """Every sightline cast in full through Embree, every end cast for, nothing skipped: the plain
        path that :meth:`trace` and the single-sightline path must agree with (tests/world)."""
        eyes, targets, n, length, dirs, plan, hfac, dist = self._segments(eyes, targets, distance)
        C = len(self.classes)
        geo = self.geo

        solid_t, solid_prim = geo.solid.first(eyes, dirs, np.maximum(length - SOLID_CLEARANCE, 0.0))
        solid_part = np.where(solid_prim >= 0, geo.solid.owner[np.maximum(solid_prim, 0)], -1)
        solid_part[length <= SOLID_CLEARANCE] = -1
        cast = np.nonzero(length > SOLID_CLEARANCE)[0]
        walls = self._wall_rays(eyes[cast], targets[cast], length[cast])
        wall = self._walls_through(walls, cast, eyes, dirs, length, n, solid_t, solid_part)
        smoke = np.zeros(n, bool)
        for cx, cy, r in conditions.smoke:
            smoke |= _segment_near(eyes[:, :2], targets[:, :2], cx, cy, r)
        part_e = self._inside_cast(eyes)
        part_t = self._inside_cast(targets)
        ray, t, prim = geo.canopy.all_hits(eyes, dirs, length)
        part = geo.canopy.owner[prim]
        entering = np.einsum("ij,ij->i", geo.canopy.normal[prim], dirs[ray]) < 0
        cut = burnt_of(conditions.burnt).cut(eyes[:, :2], targets[:, :2], length) if conditions.burnt else None
        span_e, span_t, (iv_ray, iv_part, iv_t0, iv_t1) = self._canopy_inside(
            ray, t, part, entering, part_e, part_t, length, eyes, dirs, targets, cut, n)
        inches = np.zeros((n, C + 1))
        _union_add(inches, iv_ray, self.part_class[iv_part], iv_t0, iv_t1)
        inches = quantise(inches * hfac[:, None])[:, :C]
        top_entry = entering & self.class_dense[self.part_class[part]] & (geo.canopy.normal[prim, 2] > 0.3)
        top_entry &= (t > span_e[ray] + 1e-6) & (t < length[ray] - span_t[ray] - 1e-6)
        if cut is not None:
            top_entry &= ~(cut.over(ray, t, n) & self.part_veg[part])
        above_t = np.full(n, np.inf)
        np.minimum.at(above_t, ray[top_entry], t[top_entry])
        above_part = np.full(n, -1)
        if np.isfinite(above_t).any():
            first_above = top_entry & (t == above_t[ray])
            above_part[ray[first_above]] = part[first_above]
        g = self._elevations_cast(np.vstack([eyes[:, :2], targets[:, :2]]))
        stand_e = np.maximum(g[:n], eyes[:, 2] - EYE_HEIGHT)
        stand_t = np.maximum(g[n:], targets[:, 2] - EYE_HEIGHT)
        elevated = (np.maximum(stand_e, stand_t) >= ELEVATED - 1e-6)
        cutoff, limit = self._open_limits(eyes, targets, elevated, conditions)
        crossed = inches > 0
        for c in range(C):
            lower = crossed[:, c] & (self.class_cutoff[c] <= cutoff)
            cutoff = np.where(lower, self.class_cutoff[c], cutoff)
            limit = np.where(lower, c, limit)
        hull, hull_t, hull_ids = self._hull_block(conditions, eyes, targets, length, np.arange(n))
        blocked = (solid_part >= 0) | smoke | (above_part >= 0)
        if hull is not None:
            blocked |= hull >= 0
        visible = ~blocked & (dist <= cutoff + 1e-9)
        band = np.column_stack([(part_e >= 0) & (span_e > 0), (part_t >= 0) & (span_t > 0)])
        return Trace(visible, dist, cutoff, limit, inches, solid_t, solid_part, smoke, above_part, above_t,
                     eyes, dirs, length, elevated, band, np.zeros(n, bool), np.ones(n, bool), wall,
                     hull, hull_t, hull_ids)


def _longest_limit(conditions: Conditions) -> float:
    """The longest any sightline may be under the conditions, before terrain: 30" elevated (DD-4.41), the
    weather's cap, the time of day's where no circle is lit (G-23)."""
    bound = OPEN_LIMIT + ELEVATION_BONUS
    wcap = conditions.weather_cap()[0]
    if wcap is not None:
        bound = min(bound, wcap)
    tcap = TIME_CAPS[conditions.time_of_day]
    if tcap is not None and not conditions.illuminated:
        bound = min(bound, tcap)
    return bound


def _band_exits(ray: np.ndarray, t: np.ndarray, part: np.ndarray, entering: np.ndarray, part_e: np.ndarray,
                part_t: np.ndarray, length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How far each sightline runs inside the canopy part its eye stands in (its first exit from that
    part, at most its length), and inside the part its target stands in (back from the target to its
    last entry into it): the stretches the woodline band may leave out (DD-4.2). ``ray``, ``t``, ``part``
    and ``entering``: every canopy hit's sightline, distance, part and whether it enters the part."""
    n = len(length)
    exit_e = np.full(n, np.inf)
    first_exit = (~entering) & (part == part_e[ray])
    np.minimum.at(exit_e, ray[first_exit], t[first_exit])
    exit_e = np.minimum(exit_e, length)
    exit_t = np.full(n, -np.inf)
    last_entry = entering & (part == part_t[ray])
    np.maximum.at(exit_t, ray[last_entry], t[last_entry])
    return exit_e, np.where(np.isfinite(exit_t), length - exit_t, length)


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise dot products of two n x 3 arrays, summed left to right as plain Python would."""
    return a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1] + a[:, 2] * b[:, 2]


def _segment_near(a: np.ndarray, b: np.ndarray, cx: float, cy: float, r: float) -> np.ndarray:
    """Does each plan segment a-b pass within r of (cx, cy)?"""
    ab = b - a
    ac = np.array([cx, cy]) - a
    denom = np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-12)
    u = np.clip(np.einsum("ij,ij->i", ac, ab) / denom, 0.0, 1.0)
    closest = a + ab * u[:, None]
    return np.hypot(closest[:, 0] - cx, closest[:, 1] - cy) <= r


def _intervals(ray: np.ndarray, part: np.ndarray, t: np.ndarray, entering: np.ndarray, part_e: np.ndarray,
               part_t: np.ndarray, length: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Intervals [t0, t1] of each ray inside each volume, from its boundary crossings.

    A volume whose first crossing is an exit held the eye; one whose last is an entry holds the target;
    the volume the eye (or target) is in with no crossing at all holds the whole sightline.
    """
    order = np.lexsort((t, part, ray))
    r, p, tt, ent = ray[order], part[order], t[order], entering[order]
    same_prev = np.zeros(len(r), bool)
    same_prev[1:] = (r[1:] == r[:-1]) & (p[1:] == p[:-1])
    same_next = np.append(same_prev[1:], False)
    prev_t = np.concatenate([[0.0], tt[:-1]])
    prev_ent = np.concatenate([[False], ent[:-1]])
    next_t = np.append(tt[1:], 0.0)
    next_ent = np.append(ent[1:], False)
    ex = ~ent
    ex_t0 = np.where(same_prev, np.where(prev_ent, prev_t, tt), 0.0)
    open_entry = ent & ~(same_next & ~next_ent)
    en_t1 = np.where(same_next, next_t, length[r])
    rays = [r[ex], r[open_entry]]
    parts_ = [p[ex], p[open_entry]]
    t0s = [ex_t0[ex], tt[open_entry]]
    t1s = [tt[ex], en_t1[open_entry]]
    for held in (part_e, part_t):
        crossed = np.zeros(len(held), bool)
        crossed[r[p == held[r]]] = True
        w = np.nonzero((held >= 0) & ~crossed)[0]
        if held is part_t:
            w = w[part_e[w] != part_t[w]]
        rays.append(w)
        parts_.append(held[w])
        t0s.append(np.zeros(len(w)))
        t1s.append(length[w])
    return np.concatenate(rays), np.concatenate(parts_), np.concatenate(t0s), np.concatenate(t1s)


def _union_add(out: np.ndarray, ray: np.ndarray, cls: np.ndarray, t0: np.ndarray, t1: np.ndarray) -> None:
    """Add to out[ray, cls] the length of the union of the intervals of each (ray, class)."""
    keep = t1 > t0
    ray, cls, t0, t1 = ray[keep], cls[keep], t0[keep], t1[keep]
    if not len(ray):
        return
    order = np.lexsort((t0, cls, ray))
    ray, cls, t0, t1 = ray[order], cls[order], t0[order], t1[order]
    start = np.concatenate([[True], (ray[1:] != ray[:-1]) | (cls[1:] != cls[:-1])])
    group = np.cumsum(start)
    # running maximum of t1 within each group, exactly (a segmented scan in doubling steps)
    reach = t1.copy()
    step = 1
    while step < len(reach):
        same = group[step:] == group[:-step]
        if not same.any():
            break
        reach[step:] = np.where(same, np.maximum(reach[step:], reach[:-step]), reach[step:])
        step *= 2
    before = np.concatenate([[-np.inf], reach[:-1]])
    before[start] = -np.inf
    np.add.at(out, (ray, cls), np.maximum(t1 - np.maximum(t0, before), 0.0))
