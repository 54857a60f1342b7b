"""One sightline in plain Python around single Embree casts (``TableLOS._sight``): the steps of the
compiled path, in the same order with the same arithmetic, so the same answer to the last bit; it
answers where the compiled code cannot run (burnt ground, G-19; nothing compiled). ``SingleSight``,
a part of ``game.world.los.TableLOS``.

What it leaves out: the compiled path (``game.world.sightline``) and many at once (``game.world.los_arrays``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from game.world.burnt import spans1
from game.world.hulls import block1
from game.world.los_arrays import (
    _segment_near,
)
from game.world.los_terms import (
    ELEVATED,
    ELEVATION_BONUS,
    EYE_HEIGHT,
    INF,
    KILL_PLAN,
    MEMO_LIMIT,
    NO_BAND,
    NO_WALL,
    OPEN_LIMIT,
    SOLID_CLEARANCE,
    TIME_CAPS,
    Conditions,
    Q,
    Sight,
)
from game.world.raytrace import (
    _INVALID,
    MAX_HITS,
    STEP,
)


class SingleSight:
    """``TableLOS``'s single sightline in Python (its tables built in its ``__init__``)."""

    # -- one sightline at a time ----------------------------------------------------------------------
    def _inside1(self, x: float, y: float, z: float) -> int:
        """:meth:`_inside` for one point."""
        cell = self.grid.cell(x, y)
        code = self._part_list[cell]
        if code == -1:
            return -1
        if code >= 0:
            if self._in_lo_list[cell] < z < self._in_hi_list[cell]:
                return code
            if z < self._out_lo_list[cell] or z > self._out_hi_list[cell]:
                return -1
        _, prim = self._casters()[1](x, y, z, 0.0, 0.0, 1.0, 1e6)  # RayScene.first1 up, by the thread's caster
        return self._canopy_owner[prim] if prim >= 0 and self._canopy_nz[prim] > 0 else -1

    def _ground1(self, x: float, y: float) -> float:
        """:meth:`_ground` for one point."""
        g = self._flat_list[self.grid.cell(x, y)]
        if g == g:
            return g
        top = self._top
        t, prim = self._casters()[4](x, y, top, 0.0, 0.0, -1.0, 1e6)
        if prim < 0:
            return 0.0
        v = round((top - t) * 10000.0)  # np.round(x, 4): scale, round half to even, keep the sign of zero
        return (float(v) if v else math.copysign(0.0, top - t)) / 10000.0

    def _end1(self, x: float, y: float, z: float) -> list:
        """What the single path keeps per sightline end: [does it stand 2" or more up (DD-4.41), its
        canopy volume (None until asked), the building of ``walls`` it is inside (-1: none)]."""
        cell = self.grid.cell(x, y)
        code = self._walls_cell[cell]
        wall = -1 if code == -1 else self._walls_of1(x, y, z)
        if z - EYE_HEIGHT >= ELEVATED - 1e-6:
            return [True, None, wall]
        if self._max_list[cell] + 1e-4 < ELEVATED - 1e-6:
            return [False, None, wall]
        g = self._flat_list[cell]
        return [(g if g == g else self._ground1(x, y)) >= ELEVATED - 1e-6, None, wall]

    def _on_table1(self, ex: float, ey: float, tx: float, ty: float) -> None:
        """:meth:`_on_table` for one sightline's ends."""
        w, h = self.width + 1e-6, self.height + 1e-6
        if ex < -1e-6 or ex > w or ey < -1e-6 or ey > h:  # _off_table
            raise ValueError(f"sightline from ({ex:.2f}, {ey:.2f}) is off the {self.width:g}x{self.height:g} table")
        if tx < -1e-6 or tx > w or ty < -1e-6 or ty > h:
            raise ValueError(f"sightline to ({tx:.2f}, {ty:.2f}) is off the {self.width:g}x{self.height:g} table")

    def _off_table(self, x: float, y: float) -> bool:
        return x < -1e-6 or x > self.width + 1e-6 or y < -1e-6 or y > self.height + 1e-6

    def _sight(self, e: tuple[float, float, float], q: tuple[float, float, float], conditions: Conditions,
               distance: float | None = None, early: bool = False) -> Sight:
        """:meth:`trace` for one sightline, in plain Python around single Embree casts: the same
        arithmetic, in the same order, so the same answer to the last bit."""
        ex, ey, ez = e
        tx, ty, tz = q
        if self._fast is not None and not conditions.burnt:  # compiled (game.world.sightline)
            return self._fast_row(self._sight_fast(e, q, conditions, distance, early), e, conditions)
        self._on_table1(ex, ey, tx, ty)
        dx, dy, dz = tx - ex, ty - ey, tz - ez
        length = math.sqrt(dx * dx + dy * dy + dz * dz)
        plan = math.sqrt(dx * dx + dy * dy)
        safe = max(length, 1e-12)
        if length > 0:
            ux, uy, uz = dx / safe, dy / safe, dz / safe
            hfac = plan / safe
        else:
            ux, uy, uz, hfac = 1.0, 0.0, 0.0, 0.0
        d = (ux, uy, uz)
        dist = math.floor((plan if distance is None else distance) * Q + 0.5) / Q
        C = len(self.classes)

        # 5 (first): the limits before terrain
        memo = self._memo
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        end_e = memo.get(e)
        if end_e is None:
            end_e = memo[e] = self._end1(ex, ey, ez)
        end_t = memo.get(q)
        if end_t is None:
            end_t = memo[q] = self._end1(tx, ty, tz)
        elevated = end_e[0] or end_t[0]
        cutoff = OPEN_LIMIT + ELEVATION_BONUS if elevated else OPEN_LIMIT
        limit = self._limit_elevated if elevated else self._limit_open
        tcap = TIME_CAPS[conditions.time_of_day]
        if tcap is not None:
            lit = False
            for cx, cy, r in conditions.illuminated:
                lit = lit or bool(np.hypot(ex - cx, ey - cy) <= r) or bool(np.hypot(tx - cx, ty - cy) <= r)
            if not lit and tcap < cutoff:
                cutoff, limit = tcap, self._limit[conditions.time_of_day]
        wcap, wname, _ = conditions.weather_cap()
        if wcap is not None and wcap < cutoff:
            cutoff, limit = wcap, self._limit[wname]
        far = dist > cutoff + 1e-9
        smoke = False
        if conditions.smoke:
            a, b = np.array([[ex, ey]]), np.array([[tx, ty]])
            for cx, cy, r in conditions.smoke:
                smoke = smoke or bool(_segment_near(a, b, cx, cy, r)[0])
        zeros = self._zeros
        if far or (early and smoke):
            return Sight(False, dist, cutoff, limit, zeros, INF, -1, smoke, -1, INF, e, d, elevated, NO_BAND, far, far)
        hull, hull_t = "", INF  # 2. vehicle hulls and wrecks (G-01 T15; game.world.hulls)
        if conditions.hulls:
            hulls = self._hulls(conditions)
            assert hulls is not None
            k, at = block1(hulls, ex, ey, ez, tx, ty, tz)
            if k >= 0:
                if early:
                    return Sight(False, dist, cutoff, limit, zeros, INF, -1, smoke, -1, INF, e, d, elevated,
                                 NO_BAND, False, False)
                hull, hull_t = hulls.ids[k], at * length
        if self.grid.clear(ex, ey, tx, ty, min(ez, tz)):
            # nothing but open ground under the whole sightline: no cast could hit anything
            return Sight(not smoke and not hull and dist <= cutoff + 1e-9, dist, cutoff, limit, zeros, INF, -1, smoke,
                         -1, INF, e, d, elevated, NO_BAND, False, True, NO_WALL, hull, hull_t)
        solid, canopy_cast, canopy_blocked, core_cast, _ = self._casters()

        # 1. ground and buildings (an end inside a hootch or masonry building, within its wall band, sees
        # out: G-01 T10/T11)
        solid_t, solid_part = INF, -1
        wall, walled = NO_WALL, False
        be, bt = end_e[2], end_t[2]
        if (be >= 0 or bt >= 0) and length > SOLID_CLEARANCE:
            te, tb = self._wall_windows(be, bt, ex, ey, tx, ty, length)
            solid_t, prim, wall = self._solid_past_walls(ex, ey, ez, ux, uy, uz, length - SOLID_CLEARANCE,
                                                         be, te, bt, tb)
            if prim >= 0:
                if early:
                    return Sight(False, dist, cutoff, limit, zeros, INF, -1, smoke, -1, INF, e, d, elevated,
                                 NO_BAND, False, False)
                solid_part = self._solid_owner[prim]
            walled = True
        if length > SOLID_CLEARANCE and not walled:
            if early:
                if solid[1](ex, ey, ez, ux, uy, uz, length - SOLID_CLEARANCE):
                    return Sight(False, dist, cutoff, limit, zeros, INF, -1, smoke, -1, INF, e, d, elevated,
                                 NO_BAND, False, False)
            else:
                solid_t, prim = solid[0](ex, ey, ez, ux, uy, uz, length - SOLID_CLEARANCE)
                solid_part = self._solid_owner[prim] if prim >= 0 else -1
        # burnt ground (G-19); over it a canopy cutoff is not sure: no early drop
        burnt = self._burnt(conditions) if conditions.burnt else None
        cut = burnt.cut1(ex, ey, tx, ty, length) if burnt is not None else None
        kill = early and (cut is None or not cut.stretches)

        # 3. canopy: every boundary crossed, in order; as each is found, the intervals it closes inside its
        # volume (as _intervals has them): an exit closes the one from the entry just before it (from 0
        # when it is the volume's first crossing; an exit after an exit spans nothing); an entry followed
        # by another entry, or by nothing, opens one to that entry or to the end.
        part_t = end_t[1]
        if part_t is None:
            part_t = end_t[1] = self._inside1(tx, ty, tz)
        part_e = end_e[1]
        if part_e is None:
            part_e = end_e[1] = self._inside1(ex, ey, ez)
        f_owner, f_nx, f_ny, f_nz, f_top = (self._canopy_owner, self._canopy_nx, self._canopy_ny, self._canopy_nz,
                                            self._canopy_top)
        part_cutoff = self._part_cutoff_list
        pending: dict[int, float | None] = {}  # per volume crossed: the t of an entry not yet closed, or None
        ivs: list[tuple[int, int, float, float]] = []  # (kind: 0 closed by an exit, 1 by an entry or the end; volume, t0, t1)
        tops: list[tuple[float, int]] = []  # (t, volume) of each entry onto the top of a dense volume
        exit_e = last_entry_t = None  # the eye's volume's first exit, the target's volume's last entry
        if length > 0 and not self.geo.canopy.empty:
            raw = self._raw_canopy()
            if raw is not None:
                pack, buf, off, isect, scene, ptr, read, at = raw
            inv, step = _INVALID, STEP
            start = 0.0
            for _ in range(MAX_HITS):
                if raw is not None:  # canopy_cast, inline: the same ray into the same scene
                    pack(buf, off, ex + ux * start, ey + uy * start, ez + uz * start, 0.0, ux, uy, uz, 0.0,
                         length - start, inv, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, inv, inv, inv)
                    isect(scene, ptr, None)
                    t, prim = read(buf, at)
                    if prim == inv:
                        break
                else:
                    t, prim = canopy_cast(ex + ux * start, ey + uy * start, ez + uz * start, ux, uy, uz,
                                          length - start)
                    if prim < 0:
                        break
                t_abs = start + t
                p = f_owner[prim]
                entering = f_nx[prim] * ux + f_ny[prim] * uy + f_nz[prim] * uz < 0
                if entering:
                    t0 = pending.get(p)
                    if t0 is not None:
                        ivs.append((1, p, t0, t_abs))
                    pending[p] = t_abs
                    if p == part_t:
                        last_entry_t = t_abs
                    if f_top[prim]:
                        tops.append((t_abs, p))
                else:
                    if p in pending:
                        t0 = pending[p]
                        if t0 is not None:
                            ivs.append((0, p, t0, t_abs))
                            pending[p] = None
                    else:
                        ivs.append((0, p, 0.0, t_abs))
                        pending[p] = None
                    if p == part_e and exit_e is None:
                        exit_e = t_abs
                start += t + step
                if kill and entering and p != part_t and part_cutoff[p] < dist - 1e-9 and t_abs > 0:
                    reach = min(KILL_PLAN * 1.01 / max(hfac, 1e-12), length - start)
                    if (not canopy_blocked(ex + ux * start, ey + uy * start, ez + uz * start, ux, uy, uz, reach)
                            and (start + reach - t_abs) * hfac >= KILL_PLAN):
                        return Sight(False, dist, cutoff, limit, zeros, INF, -1, smoke, -1, INF, e, d, elevated,
                                     NO_BAND, False, False)
        span_e = span_t = 0.0
        if part_e >= 0:
            span_e = self._band_span1(core_cast, ex, ey, ez, ux, uy, uz, part_e,
                                      length if exit_e is None else min(exit_e, length))
        if part_t >= 0:
            span_t = self._band_span1(core_cast, tx, ty, tz, -ux, -uy, -uz, part_t,
                                      length if last_entry_t is None else length - last_entry_t)
        if cut is not None:  # G-19: the woodlines the fire made, and none on burnt ground
            veg = self._part_veg_list
            span_e = spans1(span_e, veg[part_e], cut.on_e, cut.band_e, cut.reach_e,
                            length if exit_e is None else min(exit_e, length))
            span_t = spans1(span_t, veg[part_t], cut.on_t, cut.band_t, cut.reach_t,
                            length if last_entry_t is None else length - last_entry_t)

        # inches inside each class: the intervals of _intervals, united as _union_add does, in its order
        # (its order: closed by an exit before opened, by volume, by t; then the ends' own volumes)
        inches = zeros
        if pending or part_e >= 0 or part_t >= 0:
            for p, t0 in pending.items():
                if t0 is not None:
                    ivs.append((1, p, t0, length))
            if part_e >= 0 and part_e not in pending:
                ivs.append((2, part_e, 0.0, length))
            if part_t >= 0 and part_t not in pending and part_e != part_t:
                ivs.append((3, part_t, 0.0, length))
            cls_of = self._part_class_list
            spans = []
            for kind, p, t0, t1 in ivs:
                if p == part_e and t0 <= 0.0:
                    t0 = max(t0, span_e)
                if p == part_t and t1 >= length:
                    t1 = min(t1, length - span_t)
                if cut is not None and cut.stretches and self._part_veg_list[p]:  # G-19: none over burnt ground
                    spans.extend((cls_of[p], a, kind, p, b) for a, b in cut.clip(t0, t1))
                elif t1 > t0:
                    spans.append((cls_of[p], t0, kind, p, t1))
            if spans:
                if len(spans) > 1:
                    spans.sort()  # by class and start, then as _intervals lists them: no two spans tie on all four
                total = [0.0] * (C + 1)
                group, reach = -2, -INF
                for c, t0, _, _, t1 in spans:
                    if c == group:
                        total[c] += max(t1 - max(t0, reach), 0.0)
                        reach = max(reach, t1)
                    else:
                        total[c] += t1 - t0  # t1 > t0: what max(t1 - max(t0, -inf), 0.0) gives
                        group, reach = c, t1
                inches = tuple([math.floor(v * hfac * Q + 0.5) / Q for v in total[:C]])

        # 4. dense canopy entered from above, outside the bands (DD-4.41)
        above_t, above_part = INF, -1
        for t, p in tops:
            if t > span_e + 1e-6 and t < length - span_t - 1e-6 and t < above_t:
                if cut is not None and self._part_veg_list[p] and cut.over(t):
                    continue  # G-19: no canopy top over burnt ground
                above_t, above_part = t, p

        # 5. each canopy class crossed caps the total length (G-02); ties go to the terrain
        if inches is not zeros:
            for c in range(C):
                if inches[c] > 0 and self._class_cutoff_list[c] <= cutoff:
                    cutoff, limit = self._class_cutoff_list[c], c
        blocked = solid_part >= 0 or smoke or above_part >= 0 or bool(hull)
        band = (part_e >= 0 and span_e > 0, part_t >= 0 and span_t > 0)
        return Sight(not blocked and dist <= cutoff + 1e-9, dist, cutoff, limit, inches, solid_t, solid_part, smoke,
                     above_part, above_t, e, d, elevated, band, False, True, wall, hull, hull_t)

    def _casters(self) -> tuple:
        fns = getattr(self._local, "casters", None)
        if fns is None:
            geo = self.geo
            fns = self._local.casters = (geo.solid.casters(), *geo.canopy.casters(), geo.core.casters()[0],
                                         geo.ground.casters()[0])
        return fns

    def _raw_canopy(self) -> tuple | None:
        """The canopy scene's direct cast in pieces (:meth:`RayScene.raw_first`) for this thread, or None."""
        loc = self._local
        try:
            return loc.raw_canopy
        except AttributeError:
            raw = loc.raw_canopy = self.geo.canopy.raw_first()
            return raw

    def _band_span1(self, cast: Any, x: float, y: float, z: float, dx: float, dy: float, dz: float, part: int,
                    exit_t: float) -> float:
        """:meth:`_band_span` for one end."""
        t, prim = cast(x, y, z, dx, dy, dz, 1e6)
        if prim < 0 or self._core_owner[prim] != part:
            return exit_t
        fx, fy, fz = self._core_normal
        if fx[prim] * dx + fy[prim] * dy + fz[prim] * dz > 0:
            return 0.0
        return min(exit_t, t)
