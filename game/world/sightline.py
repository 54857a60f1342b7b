"""Compiled sightlines: the rules of ``game.world.los`` for one sightline at a time, in numba, around
Embree's own casts (issue 21).

``TableLOS._sight`` (one sightline, full evidence), ``TableLOS.check`` (a stand's twelve) and
``TableLOS.trace`` (many at once, the AI's batched path, cast in ``sightline_layout.locality``'s order)
all run :func:`_sight` here: the steps of the plain-Python single path, in the same order with the same
arithmetic, so a batched row and a single answer are the same to the last bit, and both are the answers
the Python path gave (``benchmarks/los_answers.py`` compares them). The casts are ``rtcIntersect1`` /
``rtcOccluded1`` called from the compiled code on the scenes embreex built (the addresses
``game.world.raytrace._Direct`` found and checked), the same float32 rays the Python path packs, so the
same hits.

A table is handed over as flat arrays (``game.world.sightline_layout``: floats, ints, offsets, Embree's
addresses), the sight conditions as one, and the calling thread's scratch (the ray and the lists a
sightline fills), so the compiled code allocates nothing and runs without numba's reference counting.

Two ways to run it, the same code: :class:`Caller` through numba's dispatcher (compiled on first use,
cached under ``.cache/numba``; ``NUMBA_CACHE_DIR`` overrides it), or ahead of time, compiled into a shared
library that ``game.world.sightline_native`` builds and loads without numba. numba and LLVM cost a process about 100 MB (the engine would be ~230 MB, over its
150 MB), so the engine runs the library wherever ``python -m game.warm`` (or a first process) could build
it; ``DINKYDAU_COMPILED_LOS=0`` leaves both out (the Python path answers, the same answers, two to three
times slower a sightline).

What it leaves out: burnt ground (G-19, ``Conditions.burnt``), which the Python path answers (its
polygons are shapely's); the evidence words (``TableLOS._full_result``); off-table checks (the caller's).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numba
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from game.world.sightline_layout import (
    C_HTOP,
    C_NHULL,
    C_NLIT,
    C_NSMOKE,
    C_REACH,
    C_SIZE,
    C_TCAP,
    C_TLIM,
    C_WCAP,
    C_WLIM,
    CELL,
    F_BONUS,
    F_ELEV,
    F_EYE,
    F_H,
    F_HT,
    F_KILL,
    F_OPEN,
    F_Q,
    F_SOLIDC,
    F_STEP,
    F_TOP,
    F_TOUCH,
    F_W,
    F_ZM,
    FACE,
    H_C,
    H_CCODE,
    H_CCUT,
    H_CELL,
    H_CELLS,
    H_CFACE,
    H_CLEAR,
    H_HCOUNT,
    H_HULLP,
    H_KFACE,
    H_LEVELS,
    H_LIM_ELEV,
    H_LIM_OPEN,
    H_MAXHITS,
    H_MULTI,
    H_NLEVELS,
    H_NX,
    H_NY,
    H_P,
    H_PBOX,
    H_PCLASS,
    H_PCUT,
    H_PWALLS,
    H_SOWN,
    H_WALLP,
    H_WBAND,
    H_WCOUNT,
    H_WZ,
    INV,
    K_CPART,
    K_FLAT,
    K_GMAX,
    K_INHI,
    K_INLO,
    K_OUTHI,
    K_OUTLO,
    K_WCELL,
    LOCAL_SIDE,
    O_ABOVE_P,
    O_ABOVE_T,
    O_BAND_E,
    O_BAND_T,
    O_COMPLETE,
    O_CUT,
    O_DIST,
    O_ELEV,
    O_FAR,
    O_HULL,
    O_HULL_T,
    O_INCHES,
    O_LEN,
    O_LIM,
    O_SMOKE,
    O_SOLID_P,
    O_SOLID_T,
    O_UX,
    O_UY,
    O_UZ,
    O_VIS,
    O_WALL_E,
    O_WALL_T,
    O_ZERO,
    OUT,
    P_CANOPY,
    P_CORE,
    P_GROUND,
    P_ISECT,
    P_OCCL,
    P_SOLID,
    RAY_SCRATCH,
    scratch,
)

if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(Path(__file__).resolve().parents[2] / ".cache" / "numba")

_jit = njit(cache=True, nogil=True, _nrt=False)
"""Compiled without numba's reference counting: nothing here allocates (the scratch comes from the caller),
so no array needs counting, and an array argument costs its call less than half as much."""
_jit_inline = njit(cache=True, nogil=True, _nrt=False, inline="always")
INF = math.inf


@intrinsic
def _embree(typingctx, fn, scene, ray):
    """Call ``fn(scene, ray, NULL)``: rtcIntersect1 or rtcOccluded1 at the address ``fn``."""
    def codegen(context, builder, signature, args):
        i8p = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i8p, i8p])
        f = builder.inttoptr(args[0], fnty.as_pointer())
        builder.call(f, [builder.inttoptr(args[1], i8p), builder.inttoptr(args[2], i8p), ir.Constant(i8p, None)])
        return context.get_dummy_value()
    return types.void(fn, scene, ray), codegen


@intrinsic
def _prefetch(typingctx, addr):
    """Ask the CPU to bring the memory at ``addr`` into the cache (no effect on any value)."""
    def codegen(context, builder, signature, args):
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch.p0")
        builder.call(fn, [builder.inttoptr(args[0], i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.void(addr), codegen


@_jit
def _ray_buffer(S):
    """A 16-byte aligned RTCRayHit in the scratch's head: (floats, the same memory as uint32, offset in
    items, its address)."""
    raw = S[:RAY_SCRATCH].view(np.float32)
    bits = raw.view(np.uint32)
    addr = raw.ctypes.data
    off = ((16 - addr % 16) % 16) // 4
    return raw, bits, off, addr + off * 4


@_jit
def _first(P, which, R, ox, oy, oz, dx, dy, dz, tmax):
    """The first hit within tmax: (t or inf, face or -1); as ``_Direct.casters``' first."""
    scene = P[which]
    if scene == 0:
        return INF, -1
    raw, bits, o, addr = R
    raw[o] = np.float32(ox)
    raw[o + 1] = np.float32(oy)
    raw[o + 2] = np.float32(oz)
    raw[o + 3] = np.float32(0.0)
    raw[o + 4] = np.float32(dx)
    raw[o + 5] = np.float32(dy)
    raw[o + 6] = np.float32(dz)
    raw[o + 7] = np.float32(0.0)
    raw[o + 8] = np.float32(tmax)
    bits[o + 9] = INV
    bits[o + 10] = 0
    bits[o + 11] = 0
    for k in range(12, 17):
        raw[o + k] = np.float32(0.0)
    bits[o + 17] = INV
    bits[o + 18] = INV
    bits[o + 19] = INV
    _embree(P[P_ISECT], scene, addr)
    prim = bits[o + 17]
    if prim == INV:
        return INF, -1
    return np.float64(raw[o + 8]), np.int64(prim)


@_jit
def _blocked(P, which, R, ox, oy, oz, dx, dy, dz, tmax):
    """Does the ray hit anything within tmax? (as ``_Direct.casters``' blocked)"""
    scene = P[which]
    if scene == 0:
        return False
    raw, bits, o, addr = R
    raw[o] = np.float32(ox)
    raw[o + 1] = np.float32(oy)
    raw[o + 2] = np.float32(oz)
    raw[o + 3] = np.float32(0.0)
    raw[o + 4] = np.float32(dx)
    raw[o + 5] = np.float32(dy)
    raw[o + 6] = np.float32(dz)
    raw[o + 7] = np.float32(0.0)
    raw[o + 8] = np.float32(tmax)
    bits[o + 9] = INV
    bits[o + 10] = 0
    bits[o + 11] = 0
    _embree(P[P_OCCL], scene, addr)
    return raw[o + 8] == -np.inf


@_jit_inline
def _faces(F, R, f, dx, dy, dz):
    """The sign of (face normal . direction) for the hit just cast, +1 or -1 (0 never): read off the
    geometric normal Embree returns with the hit (parallel to the face's own, same way round), so that
    the face's record is not fetched; a hit too near grazing for float32 to be sure of the sign reads
    the record's float64 normal at ``F[f:f + 3]``, as before (Embree's normal, worked in float32, is the
    face's own to a few millionths of a radian: tests/world/test_sightline.py)."""
    raw, bits, o, addr = R
    gx, gy, gz = np.float64(raw[o + 12]), np.float64(raw[o + 13]), np.float64(raw[o + 14])
    d = gx * dx + gy * dy + gz * dz
    if abs(d) > 1e-4 * math.sqrt(gx * gx + gy * gy + gz * gz):
        return 1 if d > 0 else -1
    return 1 if F[f] * dx + F[f + 1] * dy + F[f + 2] * dz > 0 else -1


@_jit_inline
def _in_box(F, b, x, y):
    """Is the plan point within the box at ``F[b:b + 4]`` (x0, y0, x1, y1)?"""
    return F[b] <= x <= F[b + 2] and F[b + 1] <= y <= F[b + 3]


@_jit_inline
def _pmax(a, b):
    """Python's max(a, b): a unless b is greater."""
    return b if b > a else a


@_jit_inline
def _pmin(a, b):
    """Python's min(a, b): a unless b is smaller."""
    return b if b < a else a


@_jit
def _cell(F, H, x, y):
    h = F[F_H]
    nx, ny = H[H_NX], H[H_NY]
    i, j = int(x / h), int(y / h)
    i = 0 if i < 0 else nx - 1 if i >= nx else i
    j = 0 if j < 0 else ny - 1 if j >= ny else j
    return j * nx + i


@_jit
def _ground1(F, H, P, R, x, y):
    """``TableLOS._ground1``: the grid's level cell, else a cast down."""
    g = F[H[H_CELL] + CELL * _cell(F, H, x, y) + K_FLAT]
    if g == g:
        return g
    top = F[F_TOP]
    t, prim = _first(P, P_GROUND, R, x, y, top, 0.0, 0.0, -1.0, 1e6)
    if prim < 0:
        return 0.0
    v = np.rint((top - t) * 10000.0)
    return (v if v != 0.0 else math.copysign(0.0, top - t)) / 10000.0


@_jit
def _inside_walls(F, N, H, k, x, y, z):
    wz = H[H_WZ] + 2 * k
    if not (F[wz] <= z <= F[wz + 1]):
        return False
    base = H[H_HULLP] + k * H[H_P] * 4
    for m in range(N[H[H_HCOUNT] + k]):
        b = base + 4 * m
        if F[b] * (x - F[b + 2]) + F[b + 1] * (y - F[b + 3]) < 0.0:
            return False
    return True


@_jit
def _walls_of1(F, N, H, x, y, z):
    """``TableLOS._walls_of1``: the building a point is inside, -1 none."""
    cell = _cell(F, H, x, y)
    code = int(F[H[H_CELL] + CELL * cell + K_WCELL])
    if code == -1:
        return -1
    if code >= 0:
        return code if _inside_walls(F, N, H, code, x, y, z) else -1
    start = N[H[H_MULTI] + cell]
    lst = H[H_MULTI] + H[H_CELLS]
    for m in range(N[lst + start]):
        k = N[lst + start + 1 + m]
        if _inside_walls(F, N, H, k, x, y, z):
            return k
    return -1


@_jit
def _end(F, N, H, P, R, x, y, z):
    """``TableLOS._end1``: (does it stand 2" or more up (DD-4.41), the building it is inside)."""
    cell = _cell(F, H, x, y)
    r = H[H_CELL] + CELL * cell
    wall = -1 if F[r + K_WCELL] == -1 else _walls_of1(F, N, H, x, y, z)
    elev = F[F_ELEV] - 1e-6
    if z - F[F_EYE] >= elev:
        return True, wall
    if F[r + K_GMAX] + 1e-4 < elev:
        return False, wall
    g = F[r + K_FLAT]
    return (g if g == g else _ground1(F, H, P, R, x, y)) >= elev, wall


@_jit
def _inside1(F, N, H, P, R, x, y, z):
    """``TableLOS._inside1``: the canopy volume a point is in, -1 none."""
    cell = _cell(F, H, x, y)
    r = H[H_CELL] + CELL * cell
    code = int(F[r + K_CPART])
    if code == -1:
        return -1
    if code >= 0:
        if F[r + K_INLO] < z < F[r + K_INHI]:
            return code
        if z < F[r + K_OUTLO] or z > F[r + K_OUTHI]:
            return -1
    _, prim = _first(P, P_CANOPY, R, x, y, z, 0.0, 0.0, 1.0, 1e6)
    if prim >= 0:
        if _faces(F, R, H[H_CFACE] + FACE * prim, 0.0, 0.0, 1.0) > 0:  # (F[f + 2] > 0: a face seen from below)
            return N.view(np.int32)[2 * H[H_CCODE] + prim] >> 1
    return -1


@_jit
def _clear(F, N, H, ex, ey, tx, ty, zmin):
    """``PlanGrid.clear``: certain that the plan segment meets nothing up to ``zmin``."""
    v = zmin - F[F_ZM]
    level = -1
    for k in range(H[H_NLEVELS]):
        if F[H[H_LEVELS] + k] < v:
            level += 1
    if level < 0:
        return False
    rows = H[H_CLEAR] + level * H[H_CELLS]
    if N[rows + _cell(F, H, ex, ey)] <= 1:
        return False
    dx, dy = tx - ex, ty - ey
    plan = math.sqrt(dx * dx + dy * dy)
    if plan <= 0.0:
        return True
    ux, uy = dx / plan, dy / plan
    h, nx, ny, width = F[F_H], H[H_NX] - 1, H[H_NY] - 1, H[H_NX]
    t = 0.0
    for _ in range(48):
        x, y = ex + ux * t, ey + uy * t
        i, j = int(x / h), int(y / h)
        i = 0 if i < 0 else nx if i > nx else i
        j = 0 if j < 0 else ny if j > ny else j
        k = N[rows + j * width + i]
        if k <= 1:
            return False
        t += (k - 1) * h * 0.999
        if t > plan:
            return True
    return False


@_jit
def _near(ax, ay, bx, by, cx, cy, r):
    """``los_arrays._segment_near`` for one plan segment."""
    abx, aby = bx - ax, by - ay
    acx, acy = cx - ax, cy - ay
    denom = _pmax(abx * abx + aby * aby, 1e-12)
    u = (acx * abx + acy * aby) / denom
    u = 0.0 if u < 0.0 else 1.0 if u > 1.0 else u
    return np.hypot(ax + abx * u - cx, ay + aby * u - cy) <= r


@_jit
def _block1(F, Qc, ex, ey, ez, tx, ty, tz):
    """``game.world.hulls.block1``: the first hull the segment enters that no end is at."""
    n = int(Qc[C_NHULL])
    first_k, first_s = -1, INF
    zmin = ez if ez < tz else tz
    if zmin >= Qc[C_HTOP]:
        return first_k, first_s
    dx, dy, dz = tx - ex, ty - ey, tz - ez
    xlo, xhi = (ex, tx) if ex <= tx else (tx, ex)
    ylo, yhi = (ey, ty) if ey <= ty else (ty, ey)
    base = C_SIZE + 3 * int(Qc[C_NLIT]) + 3 * int(Qc[C_NSMOKE])
    xs, order = base + 9 * n, base + 10 * n
    reach_all, touch = Qc[C_REACH], F[F_TOUCH]
    lo_x, hi_x = xlo - reach_all, xhi + reach_all
    for j in range(n):
        x = Qc[xs + j]
        if x < lo_x or x > hi_x:  # bisect_left(xs, lo_x) <= j < bisect_right(xs, hi_x)
            continue
        k = int(Qc[order + j])
        r = base + 9 * k
        cx, cy, c, s, hl, hw, z0, z1, reach = (Qc[r], Qc[r + 1], Qc[r + 2], Qc[r + 3], Qc[r + 4], Qc[r + 5],
                                               Qc[r + 6], Qc[r + 7], Qc[r + 8])
        if not (zmin < z1 and xlo <= cx + reach and xhi >= cx - reach and ylo <= cy + reach and yhi >= cy - reach):
            continue
        px, py = ex - cx, ey - cy
        qx, qy = tx - cx, ty - cy
        pu, pv = px * c + py * s, py * c - px * s
        qu, qv = qx * c + qy * s, qy * c - qx * s
        lu, lv = hl + touch, hw + touch
        if (abs(pu) <= lu and abs(pv) <= lv) or (abs(qu) <= lu and abs(qv) <= lv):
            continue
        du, dv = dx * c + dy * s, dy * c - dx * s
        lo, hi = 0.0, 1.0
        out = False
        for axis in range(3):
            if axis == 0:
                p, d, b0, b1 = pu, du, -hl, hl
            elif axis == 1:
                p, d, b0, b1 = pv, dv, -hw, hw
            else:
                p, d, b0, b1 = ez, dz, z0, z1
            if d == 0.0:
                if p <= b0 or p >= b1:
                    out = True
                    break
                continue
            a0 = (b0 - p) / d
            a1 = (b1 - p) / d
            lo = _pmax(lo, _pmin(a0, a1))
            hi = _pmin(hi, _pmax(a0, a1))
        if not out and lo < hi and (lo < first_s or (lo == first_s and k < first_k)):
            first_k, first_s = k, lo
    return first_k, first_s


@_jit
def _wall_reach(F, N, H, k, px, py, dx, dy):
    """``los_walls._wall_reach`` for building k."""
    lo, hi, band = 0.0, 1.0, F[H[H_WBAND] + k]
    base = H[H_WALLP] + k * H[H_P] * 4
    for m in range(N[H[H_WCOUNT] + k]):
        b = base + 4 * m
        nx, ny, x0, y0 = F[b], F[b + 1], F[b + 2], F[b + 3]
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


@_jit
def _past_walls(F, N, H, P, R, ex, ey, ez, ux, uy, uz, tmax, be, te, bt, tb):
    """``TableLOS._solid_past_walls``: (t, face, wall of the eye, wall of the target)."""
    s = 0.0
    used_e = used_t = False
    for _ in range(H[H_MAXHITS]):
        t, prim = _first(P, P_SOLID, R, ex + ux * s, ey + uy * s, ez + uz * s, ux, uy, uz, tmax - s)
        if prim < 0:
            break
        t_abs = s + t
        k = N[H[H_PWALLS] + N[H[H_SOWN] + prim]]
        by_e = k >= 0 and k == be and t_abs < te
        by_t = k >= 0 and k == bt and t_abs > tb
        used_e = used_e or by_e
        used_t = used_t or by_t
        if not (by_e or by_t):
            return t_abs, prim, be if used_e else -1, bt if used_t else -1
        s = t_abs + F[F_STEP]
        if s >= tmax:
            break
    return INF, -1, be if used_e else -1, bt if used_t else -1


@_jit
def _band_span1(F, N, H, P, R, x, y, z, dx, dy, dz, part, exit_t):
    """``TableLOS._band_span1``: how far from an end the sightline stays in its woodline band."""
    t, prim = _first(P, P_CORE, R, x, y, z, dx, dy, dz, 1e6)
    f = H[H_KFACE] + FACE * prim
    if prim < 0 or int(F[f + 3]) != part:
        return exit_t
    if F[f] * dx + F[f + 1] * dy + F[f + 2] * dz > 0:
        return 0.0
    return _pmin(exit_t, t)


@_jit
def _answer(out, visible, dist, cutoff, limit, solid_t, solid_part, smoke, above_part, above_t, elevated,
            band_e, band_t, far, complete, wall_e, wall_t, hull, hull_t, ux, uy, uz, length):
    out[O_VIS], out[O_DIST], out[O_CUT], out[O_LIM] = visible, dist, cutoff, limit
    out[O_SOLID_T], out[O_SOLID_P], out[O_SMOKE] = solid_t, solid_part, smoke
    out[O_ABOVE_P], out[O_ABOVE_T], out[O_ELEV] = above_part, above_t, elevated
    out[O_BAND_E], out[O_BAND_T], out[O_FAR], out[O_COMPLETE] = band_e, band_t, far, complete
    out[O_WALL_E], out[O_WALL_T], out[O_HULL], out[O_HULL_T] = wall_e, wall_t, hull, hull_t
    out[O_UX], out[O_UY], out[O_UZ], out[O_LEN] = ux, uy, uz, length


@_jit
def _find(keys, n, p):
    for i in range(n):
        if keys[i] == p:
            return i
    return -1


@_jit
def _sight(F, N, H, P, Qc, R, W, ex, ey, ez, tx, ty, tz, distance, early, clear, out):
    """``TableLOS._sight`` for one sightline, written into ``out`` (see ``O_*``); burnt ground left out.
    ``clear``: first ask the plan grid whether the sightline runs over open ground alone (the same
    answer either way; it spares the casts of a lone sightline, and costs a batch more than it saves)."""
    C = H[H_C]
    for c in range(C):
        out[O_INCHES + c] = 0.0
    out[O_ZERO] = 1.0
    dx, dy, dz = tx - ex, ty - ey, tz - ez
    length = math.sqrt(dx * dx + dy * dy + dz * dz)
    plan = math.sqrt(dx * dx + dy * dy)
    safe = _pmax(length, 1e-12)
    if length > 0:
        ux, uy, uz = dx / safe, dy / safe, dz / safe
        hfac = plan / safe
    else:
        ux, uy, uz, hfac = 1.0, 0.0, 0.0, 0.0
    Q = F[F_Q]
    dist = math.floor((plan if distance != distance else distance) * Q + 0.5) / Q

    # 5 (first): the limits before terrain
    elev_e, be = _end(F, N, H, P, R, ex, ey, ez)
    elev_t, bt = _end(F, N, H, P, R, tx, ty, tz)
    elevated = elev_e or elev_t
    cutoff = F[F_OPEN] + F[F_BONUS] if elevated else F[F_OPEN]
    limit = H[H_LIM_ELEV] if elevated else H[H_LIM_OPEN]
    tcap = Qc[C_TCAP]
    if tcap == tcap:
        lit = False
        for k in range(int(Qc[C_NLIT])):
            b = C_SIZE + 3 * k
            cx, cy, r = Qc[b], Qc[b + 1], Qc[b + 2]
            lit = lit or np.hypot(ex - cx, ey - cy) <= r or np.hypot(tx - cx, ty - cy) <= r
        if not lit and tcap < cutoff:
            cutoff, limit = tcap, int(Qc[C_TLIM])
    wcap = Qc[C_WCAP]
    if wcap == wcap and wcap < cutoff:
        cutoff, limit = wcap, int(Qc[C_WLIM])
    far = dist > cutoff + 1e-9
    smoke = False
    base = C_SIZE + 3 * int(Qc[C_NLIT])
    for k in range(int(Qc[C_NSMOKE])):
        b = base + 3 * k
        smoke = smoke or _near(ex, ey, tx, ty, Qc[b], Qc[b + 1], Qc[b + 2])
    if far or (early and smoke):
        _answer(out, False, dist, cutoff, limit, INF, -1, smoke, -1, INF, elevated, False, False, far, far,
                -1, -1, -1, INF, ux, uy, uz, length)
        return
    hull, hull_t = -1, INF  # 2. vehicle hulls and wrecks (G-01 T15)
    if Qc[C_NHULL] > 0:
        k, at = _block1(F, Qc, ex, ey, ez, tx, ty, tz)
        if k >= 0:
            if early:
                _answer(out, False, dist, cutoff, limit, INF, -1, smoke, -1, INF, elevated, False, False, False,
                        False, -1, -1, -1, INF, ux, uy, uz, length)
                return
            hull, hull_t = k, at * length
    if clear and _clear(F, N, H, ex, ey, tx, ty, _pmin(ez, tz)):
        _answer(out, not smoke and hull < 0 and dist <= cutoff + 1e-9, dist, cutoff, limit, INF, -1, smoke, -1,
                INF, elevated, False, False, False, True, -1, -1, hull, hull_t, ux, uy, uz, length)
        return

    # 1. ground and buildings (an end at a hootch's or masonry building's wall sees out: G-01 T10/T11)
    sc = F[F_SOLIDC]
    solid_t, solid_part = INF, -1
    wall_e, wall_t = -1, -1
    walled = False
    if (be >= 0 or bt >= 0) and length > sc:
        if be >= 0 and be == bt:
            te, tb = INF, -INF
        else:
            te, tb = 0.0, INF
            if be >= 0:
                s = _wall_reach(F, N, H, be, ex, ey, tx - ex, ty - ey)
                te = INF if s == INF else s * length
            if bt >= 0:
                s = _wall_reach(F, N, H, bt, tx, ty, ex - tx, ey - ty)
                tb = -INF if s == INF else length - s * length
        solid_t, prim, wall_e, wall_t = _past_walls(F, N, H, P, R, ex, ey, ez, ux, uy, uz, length - sc,
                                                    be, te, bt, tb)
        if prim >= 0:
            if early:
                _answer(out, False, dist, cutoff, limit, INF, -1, smoke, -1, INF, elevated, False, False, False,
                        False, -1, -1, -1, INF, ux, uy, uz, length)
                return
            solid_part = N[H[H_SOWN] + prim]
        walled = True
    if length > sc and not walled:
        if early:
            if _blocked(P, P_SOLID, R, ex, ey, ez, ux, uy, uz, length - sc):
                _answer(out, False, dist, cutoff, limit, INF, -1, smoke, -1, INF, elevated, False, False, False,
                        False, -1, -1, -1, INF, ux, uy, uz, length)
                return
        else:
            solid_t, prim = _first(P, P_SOLID, R, ex, ey, ez, ux, uy, uz, length - sc)
            solid_part = N[H[H_SOWN] + prim] if prim >= 0 else -1

    # 3. canopy: every boundary crossed, in order (see TableLOS._sight). The target's volume is asked when
    # first needed: a volume whose plan box the target is outside of is not the target's (-2: not asked)
    part_t = -2
    pbox = H[H_PBOX]
    maxh = H[H_MAXHITS]
    pend_p, pend_t, pend_open, pend_x, iv_kind, iv_p, iv_t0, iv_t1, top_t, top_p, sp_c, sp_t0, sp_kind, sp_p, sp_t1 = W
    npend = niv = ntop = 0
    exit_e = np.nan
    last_entry_t = np.nan
    step, kill_plan = F[F_STEP], F[F_KILL]
    cface, pcut = H[H_CFACE], H[H_PCUT]
    codes, ccode = N.view(np.int32), 2 * H[H_CCODE]  # each canopy face's code, 4 bytes (in the L2 cache)
    if length > 0 and P[P_CANOPY] != 0:
        start = 0.0
        for _ in range(maxh):
            t, prim = _first(P, P_CANOPY, R, ex + ux * start, ey + uy * start, ez + uz * start, ux, uy, uz,
                             length - start)
            if prim < 0:
                break
            t_abs = start + t
            code = codes[ccode + prim]
            p = code >> 1
            entering = _faces(F, R, cface + FACE * prim, ux, uy, uz) < 0
            i = _find(pend_p, npend, p)
            if entering:
                if i >= 0 and pend_open[i]:
                    iv_kind[niv], iv_p[niv], iv_t0[niv], iv_t1[niv] = 1, p, pend_t[i], t_abs
                    niv += 1
                if i < 0:
                    i = npend
                    npend += 1
                    pend_p[i], pend_x[i] = p, np.nan
                pend_t[i], pend_open[i] = t_abs, True
                if part_t == -2 and _in_box(F, pbox + 4 * p, tx, ty):
                    part_t = _inside1(F, N, H, P, R, tx, ty, tz)
                if p == part_t:
                    last_entry_t = t_abs
                if code & 1:
                    top_t[ntop], top_p[ntop] = t_abs, p
                    ntop += 1
            else:
                if i >= 0:
                    if pend_open[i]:
                        iv_kind[niv], iv_p[niv], iv_t0[niv], iv_t1[niv] = 0, p, pend_t[i], t_abs
                        niv += 1
                        pend_open[i] = False
                    if pend_x[i] != pend_x[i]:
                        pend_x[i] = t_abs
                else:
                    iv_kind[niv], iv_p[niv], iv_t0[niv], iv_t1[niv] = 0, p, 0.0, t_abs
                    niv += 1
                    i = npend
                    npend += 1
                    pend_p[i], pend_open[i], pend_x[i] = p, False, t_abs
            start += t + step
            if early and entering and p != part_t and F[pcut + p] < dist - 1e-9 and t_abs > 0:
                reach = _pmin(kill_plan * 1.01 / _pmax(hfac, 1e-12), length - start)
                if ((start + reach - t_abs) * hfac >= kill_plan
                        and not _blocked(P, P_CANOPY, R, ex + ux * start, ey + uy * start, ez + uz * start, ux, uy, uz,
                                         reach)):
                    _answer(out, False, dist, cutoff, limit, INF, -1, smoke, -1, INF, elevated, False, False, False,
                            False, -1, -1, -1, INF, ux, uy, uz, length)
                    return
    if part_t == -2:
        part_t = _inside1(F, N, H, P, R, tx, ty, tz)
    # the eye's volume, asked only now (a sightline dropped above never needs it), and its first exit
    part_e = _inside1(F, N, H, P, R, ex, ey, ez)
    if part_e >= 0:
        i = _find(pend_p, npend, part_e)
        if i >= 0:
            exit_e = pend_x[i]
    span_e = span_t = 0.0
    if part_e >= 0:
        span_e = _band_span1(F, N, H, P, R, ex, ey, ez, ux, uy, uz, part_e,
                             length if exit_e != exit_e else _pmin(exit_e, length))
    if part_t >= 0:
        span_t = _band_span1(F, N, H, P, R, tx, ty, tz, -ux, -uy, -uz, part_t,
                             length if last_entry_t != last_entry_t else length - last_entry_t)

    # inches inside each class: the intervals, bands clipped off, united per class in a fixed order
    zero = True
    if npend > 0 or part_e >= 0 or part_t >= 0:
        for i in range(npend):
            if pend_open[i]:
                iv_kind[niv], iv_p[niv], iv_t0[niv], iv_t1[niv] = 1, pend_p[i], pend_t[i], length
                niv += 1
        if part_e >= 0 and _find(pend_p, npend, part_e) < 0:
            iv_kind[niv], iv_p[niv], iv_t0[niv], iv_t1[niv] = 2, part_e, 0.0, length
            niv += 1
        if part_t >= 0 and _find(pend_p, npend, part_t) < 0 and part_e != part_t:
            iv_kind[niv], iv_p[niv], iv_t0[niv], iv_t1[niv] = 3, part_t, 0.0, length
            niv += 1
        pclass = H[H_PCLASS]
        ns = 0
        for m in range(niv):
            p, t0, t1 = iv_p[m], iv_t0[m], iv_t1[m]
            if p == part_e and t0 <= 0.0:
                t0 = _pmax(t0, span_e)
            if p == part_t and t1 >= length:
                t1 = _pmin(t1, length - span_t)
            if t1 > t0:
                # insertion by (class, t0, kind, volume, t1), as Python sorts the tuples
                c, kind = N[pclass + p], iv_kind[m]
                j = ns
                while j > 0:
                    a = j - 1
                    if sp_c[a] != c:
                        later = sp_c[a] > c
                    elif sp_t0[a] != t0:
                        later = sp_t0[a] > t0
                    elif sp_kind[a] != kind:
                        later = sp_kind[a] > kind
                    elif sp_p[a] != p:
                        later = sp_p[a] > p
                    else:
                        later = sp_t1[a] > t1
                    if not later:
                        break
                    sp_c[j], sp_t0[j], sp_kind[j], sp_p[j], sp_t1[j] = sp_c[a], sp_t0[a], sp_kind[a], sp_p[a], sp_t1[a]
                    j = a
                sp_c[j], sp_t0[j], sp_kind[j], sp_p[j], sp_t1[j] = c, t0, kind, p, t1
                ns += 1
        if ns:
            total = out[O_INCHES:]  # (zeroed above; every canopy volume has a class, 0 <= c < C)
            group, reach = -2, -INF
            for m in range(ns):
                c, t0, t1 = sp_c[m], sp_t0[m], sp_t1[m]
                if c == group:
                    total[c] += _pmax(t1 - _pmax(t0, reach), 0.0)
                    reach = _pmax(reach, t1)
                else:
                    total[c] += t1 - t0
                    group, reach = c, t1
            for c in range(C):
                out[O_INCHES + c] = math.floor(total[c] * hfac * Q + 0.5) / Q
            zero = False

    # 4. dense canopy entered from above, outside the bands (DD-4.41)
    above_t, above_part = INF, -1
    for m in range(ntop):
        t = top_t[m]
        if t > span_e + 1e-6 and t < length - span_t - 1e-6 and t < above_t:
            above_t, above_part = t, top_p[m]

    # 5. each canopy class crossed caps the total length (G-02); ties go to the terrain
    if not zero:
        ccut = H[H_CCUT]
        for c in range(C):
            if out[O_INCHES + c] > 0 and F[ccut + c] <= cutoff:
                cutoff, limit = F[ccut + c], c
    out[O_ZERO] = 1.0 if zero else 0.0
    blocked = solid_part >= 0 or smoke or above_part >= 0 or hull >= 0
    _answer(out, not blocked and dist <= cutoff + 1e-9, dist, cutoff, limit, solid_t, solid_part, smoke,
            above_part, above_t, elevated, part_e >= 0 and span_e > 0, part_t >= 0 and span_t > 0, False, True,
            wall_e, wall_t, hull, hull_t, ux, uy, uz, length)


@_jit
def _workspace(H, S):
    """The lists one sightline fills as it goes (volumes open, intervals, tops, spans), views into the
    scratch after the ray (see :func:`scratch`)."""
    maxh = H[H_MAXHITS]
    cap = 2 * maxh + 4
    ints = S.view(np.int64)
    m = RAY_SCRATCH  # maxh-long lists first, then cap-long ones
    c = m + 6 * maxh
    return (ints[m:m + maxh], S[m + maxh:m + 2 * maxh], ints[m + 2 * maxh:m + 3 * maxh], S[m + 3 * maxh:m + 4 * maxh],
            ints[c:c + cap], ints[c + cap:c + 2 * cap], S[c + 2 * cap:c + 3 * cap], S[c + 3 * cap:c + 4 * cap],
            S[m + 4 * maxh:m + 5 * maxh], ints[m + 5 * maxh:m + 6 * maxh],
            ints[c + 4 * cap:c + 5 * cap], S[c + 5 * cap:c + 6 * cap], ints[c + 6 * cap:c + 7 * cap],
            ints[c + 7 * cap:c + 8 * cap], S[c + 8 * cap:c + 9 * cap])


@_jit
def sight(F, N, H, P, Qc, S, ex, ey, ez, tx, ty, tz, distance, early, out):
    """One sightline (``distance`` NaN: its plan length) into ``out``; ``S``: the thread's :func:`scratch`."""
    _sight(F, N, H, P, Qc, _ray_buffer(S), _workspace(H, S), ex, ey, ez, tx, ty, tz, distance, early, True, out)


@_jit
def _locality(F, eyes, targets, order, counts):
    """``sightline_layout.locality`` into ``order``: the same codes, counted and placed (a stable counting
    sort, so the same order as numpy's stable sort); ``counts``: ``LOCAL_SIDE ** 2 + 1`` of scratch."""
    n = eyes.shape[0]
    sx = LOCAL_SIDE / _pmax(F[F_W], 1e-9)
    sy = LOCAL_SIDE / _pmax(F[F_HT], 1e-9)
    for c in range(counts.shape[0]):
        counts[c] = 0
    for k in range(n):
        counts[_zcode(eyes, targets, k, sx, sy) + 1] += 1
    for c in range(1, counts.shape[0]):
        counts[c] += counts[c - 1]
    for k in range(n):
        c = _zcode(eyes, targets, k, sx, sy)
        order[counts[c]] = k
        counts[c] += 1


@_jit_inline
def _zcode(eyes, targets, k, sx, sy):
    """The Z-order code of sightline k's midpoint (``sightline_layout.locality``'s, to the bit)."""
    code = 0
    for axis in range(2):
        v = (eyes[k, axis] + targets[k, axis]) * 0.5 * (sx if axis == 0 else sy)
        v = 0.0 if v < 0.0 else LOCAL_SIDE - 1.0 if v > LOCAL_SIDE - 1 else v
        b = int(v)
        b = (b | (b << 4)) & 0x0F0F
        b = (b | (b << 2)) & 0x3333
        b = (b | (b << 1)) & 0x5555
        code |= b << axis
    return code


@_jit
def sight_many(F, N, H, P, Qc, S, eyes, targets, distance, early, clear, order, out, sort=False):
    """Each sightline (rows of eyes and targets; ``distance`` per row, NaN: its plan length) into its row of
    ``out``, taken in the order ``order`` (row ``order[k]`` k-th; ``order`` empty: row by row) (``clear``: as
    :func:`_sight`). An ``out`` one column wide gets each answer's ``visible`` alone (the answer is written
    in the scratch's last row, which stays in the cache, instead of a row of ``out`` each). ``sort``: first
    fill ``order`` with :func:`_locality`'s order."""
    R = _ray_buffer(S)
    W = _workspace(H, S)
    n = eyes.shape[0]
    ordered = order.shape[0] == n
    lean = out.shape[1] == 1
    row = S[S.shape[0] - (OUT + H[H_C]):]
    if sort and ordered:
        cells = LOCAL_SIDE * LOCAL_SIDE + 1
        _locality(F, eyes, targets, order, S[S.shape[0] - (OUT + H[H_C]) - cells:S.shape[0] - (OUT + H[H_C])].view(np.int64))
    cells = F.ctypes.data + 8 * H[H_CELL]
    for k in range(n):
        i = order[k] if ordered else k
        if ordered and k + 4 < n:  # the ends of the sightline four on, and the row its answer goes to
            j = order[k + 4]
            _prefetch(eyes.ctypes.data + 24 * j)
            _prefetch(targets.ctypes.data + 24 * j)
            _prefetch(distance.ctypes.data + 8 * j)
            _prefetch(out.ctypes.data + out.strides[0] * j)
        if k + 1 < n:  # the next sightline's ends' grid cells, fetched while this one is cast
            j = order[k + 1] if ordered else k + 1
            _prefetch(cells + 8 * CELL * _cell(F, H, eyes[j, 0], eyes[j, 1]))
            _prefetch(cells + 8 * CELL * _cell(F, H, targets[j, 0], targets[j, 1]))
        _sight(F, N, H, P, Qc, R, W, eyes[i, 0], eyes[i, 1], eyes[i, 2], targets[i, 0], targets[i, 1], targets[i, 2],
               distance[i], early, clear, row if lean else out[i])
        if lean:
            out[i, 0] = row[O_VIS]




class Caller:
    """One thread's calls into the compiled code for one table (``TableLOS``): its scratch and the
    buffer one answer is written to. ``game.world.sightline_native.Caller`` is the same, ahead of time."""

    def __init__(self, table: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]):
        self.table = table
        self.scratch = scratch(table[2])
        self.out = np.empty(OUT + int(table[2][H_C]))

    def sight(self, Qc: np.ndarray, ex: float, ey: float, ez: float, tx: float, ty: float, tz: float,
              distance: float, early: bool) -> np.ndarray:
        """One sightline (``distance`` NaN: its plan length) into :attr:`out`, which it returns."""
        F, N, H, P = self.table
        sight(F, N, H, P, Qc, self.scratch, ex, ey, ez, tx, ty, tz, distance, early, self.out)
        return self.out

    def sight_many(self, Qc: np.ndarray, eyes: np.ndarray, targets: np.ndarray, distance: np.ndarray, early: bool,
                   clear: bool, order: np.ndarray, out: np.ndarray, sort: bool = False) -> None:
        """:func:`sight_many` (C-contiguous float64 rows; ``order`` int64)."""
        F, N, H, P = self.table
        sight_many(F, N, H, P, Qc, self.scratch, eyes, targets, distance, early, clear, order, out, sort)
