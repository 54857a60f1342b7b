"""The compiled line of sight's data: how a table, the sight conditions, a thread's scratch and an answer
are laid out as flat arrays (``game.world.sightline`` reads them, compiled), how a table and its
conditions are packed, and the order a batch is taken in. Plain numpy, no compiler: the engine loads the
compiled code ahead of time (``game.world.sightline_native``) without importing numba.

What it leaves out: the rules (``game.world.sightline``, after ``game.world.los``) and the casts.
"""

from __future__ import annotations

import ctypes
import math

import numpy as np

INF = math.inf

# -- the flat table: offsets into F (floats) and N (ints), and scalars, held in H --------------------
(H_CELL, H_CFACE, H_KFACE, H_PCUT, H_CCUT, H_HULLP, H_WALLP, H_WZ, H_WBAND, H_LEVELS,
 H_CLEAR, H_MULTI, H_PWALLS, H_SOWN, H_PCLASS, H_HCOUNT, H_WCOUNT,
 H_NX, H_NY, H_C, H_P, H_NLEVELS, H_LIM_OPEN, H_LIM_ELEV, H_CELLS, H_MAXHITS, H_CCODE, H_PBOX) = range(28)
H_SIZE = 28
# a cell of the plan grid (H_CELL), one record of CELL floats in F, on a cache line of its own: the ground's
# level there (NaN: not level) and highest point, the canopy heights certainly inside and outside, the
# canopy volume (-1 none, -2 several) and the building (-1 none, -2 several: H_MULTI)
(K_FLAT, K_GMAX, K_INLO, K_INHI, K_OUTLO, K_OUTHI, K_CPART, K_WCELL, CELL) = range(9)
# a face of the canopy (H_CFACE) or core (H_KFACE) scene, one record of FACE floats in F: its unit normal, then
# its volume (canopy: twice the volume, plus 1 for a dense top), so that a hit reads one cache line, not four
FACE = 4
# scalars at the head of F
(F_H, F_W, F_HT, F_TOP, F_OPEN, F_BONUS, F_ELEV, F_EYE, F_SOLIDC, F_Q, F_STEP, F_KILL, F_ZM, F_TOUCH,
 F_SIZE) = range(15)
# pointers: P[0] rtcIntersect1, P[1] rtcOccluded1, then the scenes (0: empty)
P_ISECT, P_OCCL, P_SOLID, P_CANOPY, P_CORE, P_GROUND = range(6)
# the conditions: Qc[0..8] scalars, then the circles and hulls
C_TCAP, C_TLIM, C_WCAP, C_WLIM, C_NLIT, C_NSMOKE, C_NHULL, C_REACH, C_HTOP, C_SIZE = range(10)

# one answer: out[...] (ints and flags as floats), inches from O_INCHES on
(O_VIS, O_DIST, O_CUT, O_LIM, O_SOLID_T, O_SOLID_P, O_SMOKE, O_ABOVE_P, O_ABOVE_T, O_ELEV, O_BAND_E, O_BAND_T,
 O_FAR, O_COMPLETE, O_WALL_E, O_WALL_T, O_HULL, O_HULL_T, O_UX, O_UY, O_UZ, O_LEN, O_ZERO, O_INCHES) = range(24)
OUT = O_INCHES
"""Width of an answer before its inches (one per canopy class)."""

INV = 0xFFFFFFFF
RAY_SCRATCH = 32
"""float64 items at the scratch's head for one RTCRayHit (48 float32 and room to align it to 16 bytes)."""


def scratch(H: np.ndarray) -> np.ndarray:
    """The scratch one thread's sightlines write as they go: the ray Embree reads and writes, the lists of
    :func:`_workspace`, a batch's counts for its order (one a square of :func:`locality`'s grid), and last
    an answer's row for a batch that keeps only each row's ``visible`` (made once per thread and table,
    handed to every call)."""
    maxh = int(H[H_MAXHITS])
    return np.zeros(RAY_SCRATCH + 6 * maxh + 9 * (2 * maxh + 4) + LOCAL_SIDE * LOCAL_SIDE + 1 + OUT + int(H[H_C]))


LOCAL = 64
"""From this many sightlines on, a batch is taken in :func:`locality`'s order."""


LOCAL_SIDE = 64
"""The Z-order's grid over the table, squares a side (finer grids ordered no better: 64, 128 and 256 ran
the same batch within 1 %)."""


def locality(eyes: np.ndarray, targets: np.ndarray, width: float, height: float) -> np.ndarray:
    """An order of the sightlines in which neighbours on the table come together (their midpoints along a
    Z-order curve over a ``LOCAL_SIDE``-square grid of the table), so that consecutive casts walk the same
    parts of Embree's trees while they are still in the cache: a random batch runs about a tenth quicker.
    Only the order of the work changes; each answer is its own. The compiled batch orders itself the same
    way (``sightline._locality``, a counting sort: the same order); this is its definition in numpy."""
    mid = (eyes[:, :2] + targets[:, :2]) * 0.5
    scale = np.array([LOCAL_SIDE / max(width, 1e-9), LOCAL_SIDE / max(height, 1e-9)])
    q = np.clip(mid * scale, 0, LOCAL_SIDE - 1).astype(np.uint32)
    code = np.zeros(len(q), np.uint32)
    for axis in (0, 1):
        v = q[:, axis]
        v = (v | (v << 4)) & 0x0F0F
        v = (v | (v << 2)) & 0x3333
        v = (v | (v << 1)) & 0x5555
        code |= v << axis
    return np.argsort(code.astype(np.uint16), kind="stable")


# -- packing ------------------------------------------------------------------------------------------


def _scene_ptr(scene) -> int:
    if scene.empty:
        return 0
    direct = scene._direct
    if direct is None:
        raise LookupError("no direct Embree path")
    return int(direct.scene.value)


def pack(los, limits: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """A table (``TableLOS``) as the flat arrays :func:`sight` reads: (F, N, H, P), or None where the
    direct Embree path is not in use (the Python path answers then). ``limits``: the constants of
    ``game.world.los`` (open, bonus, elevated, eye, solid_clearance, q, step, kill, z_margin, touch,
    max_hits)."""
    from game.world.hulls import HULL_TOUCH
    from game.world.raytrace import CLEAR_LEVELS, _Direct

    lib = _Direct.library()
    geo = los.geo
    try:
        ptrs = [_scene_ptr(s) for s in (geo.solid, geo.canopy, geo.core, geo.ground)]
    except LookupError:
        return None
    if lib is None or not ptrs[0] or not ptrs[3]:
        return None
    P = np.array([ctypes.cast(lib.rtcIntersect1, ctypes.c_void_p).value,
                  ctypes.cast(lib.rtcOccluded1, ctypes.c_void_p).value, *ptrs], np.uint64)
    g = los.grid
    cells = g.nx * g.ny
    floats: list[np.ndarray] = [np.array([g.h, los.width, los.height, los._top, limits["open"], limits["bonus"],
                                          limits["elevated"], limits["eye"], limits["solid_clearance"],
                                          limits["q"], limits["step"], limits["kill"], limits["z_margin"],
                                          HULL_TOUCH, 0.0, 0.0], float)]  # (to 16: the cells start on a line)
    ints: list[np.ndarray] = []
    H = np.zeros(H_SIZE, np.int64)
    nf = [16]
    ni = [0]

    def f(slot: int, values) -> None:
        a = np.ascontiguousarray(values, np.float64).ravel()
        H[slot] = nf[0]
        floats.append(a)
        nf[0] += len(a)

    def i(slot: int, values) -> None:
        a = np.ascontiguousarray(values).ravel().astype(np.int64)
        H[slot] = ni[0]
        ints.append(a)
        ni[0] += len(a)

    canopy, core = geo.canopy, geo.core
    f(H_CELL, np.column_stack([los._ground_flat, los._ground_max, los._inside_lo, los._inside_hi, los._outside_lo,
                               los._outside_hi, los._canopy_part, np.frombuffer(los._walls_cell, np.int32)]))
    top = np.frombuffer(los._canopy_top, np.uint8) if los._canopy_top else np.zeros(len(canopy.owner), np.uint8)
    f(H_CFACE, np.column_stack([canopy.normal, canopy.owner * 2.0 + top]) if len(canopy.owner) else np.zeros(0))
    f(H_KFACE, np.column_stack([core.normal, core.owner.astype(float)]) if len(core.owner) else np.zeros(0))
    f(H_PCUT, los.part_cutoff)
    # each part's canopy faces' plan box (x0, y0, x1, y1), grown by 1e-4 (no faces: empty): a point outside
    # it is in no volume of that part
    box = np.tile([np.inf, np.inf, -np.inf, -np.inf], (len(los.part_cutoff), 1))
    if len(canopy.owner):
        t = canopy.tris32.astype(np.float64)
        np.minimum.at(box[:, 0], canopy.owner, t[:, :, 0].min(axis=1) - 1e-4)
        np.minimum.at(box[:, 1], canopy.owner, t[:, :, 1].min(axis=1) - 1e-4)
        np.maximum.at(box[:, 2], canopy.owner, t[:, :, 0].max(axis=1) + 1e-4)
        np.maximum.at(box[:, 3], canopy.owner, t[:, :, 1].max(axis=1) + 1e-4)
    f(H_PBOX, box)
    f(H_CCUT, los.class_cutoff)
    walls = los.walls
    width = max([len(w.hull) for w in walls] + [len(w.wall) for w in walls] + [1])
    hullp = np.zeros((max(len(walls), 1), width, 4))
    wallp = np.zeros((max(len(walls), 1), width, 4))
    for k, w in enumerate(walls):
        hullp[k, :len(w.hull)] = w.hull
        wallp[k, :len(w.wall)] = w.wall
    f(H_HULLP, hullp)
    f(H_WALLP, wallp)
    f(H_WZ, [[w.zlo, w.zhi] for w in walls] or [[0.0, 0.0]])
    f(H_WBAND, [w.band for w in walls] or [0.0])
    f(H_LEVELS, CLEAR_LEVELS)
    i(H_CLEAR, g.clearance)
    # the cells several buildings may hold: per cell an index into the list after it (count, k ...)
    index = np.full(cells, -1, np.int64)
    lst: list[int] = []
    for cell, ks in sorted(los._walls_multi.items()):
        index[cell] = len(lst)
        lst.extend([len(ks), *ks])
    i(H_MULTI, np.concatenate([index, np.array(lst, np.int64)]))
    i(H_PWALLS, los._part_walls_np)
    i(H_SOWN, geo.solid.owner)
    i(H_PCLASS, los.part_class)
    # the canopy faces' codes again as int32, two to an item of N (read as N.view(int32)[2 * H[H_CCODE] + face])
    codes = np.zeros(2 * ((len(canopy.owner) + 1) // 2), np.int32)
    codes[:len(canopy.owner)] = canopy.owner * 2 + top if len(canopy.owner) else 0
    i(H_CCODE, codes.view(np.int64))
    i(H_HCOUNT, [len(w.hull) for w in walls] or [0])
    i(H_WCOUNT, [len(w.wall) for w in walls] or [0])
    H[H_NX], H[H_NY], H[H_C], H[H_P] = g.nx, g.ny, len(los.classes), width
    H[H_NLEVELS], H[H_CELLS], H[H_MAXHITS] = len(CLEAR_LEVELS), cells, limits["max_hits"]
    H[H_LIM_OPEN], H[H_LIM_ELEV] = los._limit_open, los._limit_elevated
    return _aligned(np.concatenate(floats)), np.concatenate(ints), H, P


def _aligned(a: np.ndarray, to: int = 64) -> np.ndarray:
    """A copy of ``a`` starting on a ``to``-byte boundary (a cache line)."""
    buf = np.empty(len(a) + to // a.itemsize, a.dtype)
    k = (-buf.ctypes.data % to) // a.itemsize
    out = buf[k:k + len(a)]
    out[:] = a
    return out


def pack_conditions(tcap: float | None, tlim: int, wcap: float | None, wlim: int, lit: tuple, smoke: tuple,
                    hulls) -> np.ndarray:
    """The sight conditions as :func:`sight` reads them: the time of day's cap (None: none) and its limit
    index, the weather's, the lit and smoke circles, the hulls (``game.world.hulls.Hulls`` or None)."""
    n = len(hulls) if hulls is not None else 0
    head = [math.nan if tcap is None else tcap, tlim, math.nan if wcap is None else wcap, wlim, len(lit),
            len(smoke), n, hulls.reach if n else 0.0, hulls.top if n else -INF]
    parts = [np.array(head, float), np.array(lit, float).reshape(-1), np.array(smoke, float).reshape(-1)]
    if n:
        parts += [hulls.cols.reshape(-1), np.array(hulls.xs, float), np.array(hulls.order, float)]
    return np.concatenate(parts)


# -- one call: what the compiled entry reads (game.world.sightline_native; int64 slots, then floats) --------
(FR_F, FR_FN, FR_N, FR_NN, FR_H, FR_HN, FR_P, FR_PN, FR_QC, FR_QCN, FR_S, FR_SN, FR_OUT, FR_OUTN,
 FR_ROWS, FR_EYES, FR_TARGETS, FR_DIST, FR_ORDER, FR_NORDER, FR_MANY, FR_WIDTH, FR_EARLY, FR_CLEAR,
 FR_ARGS) = range(25)
"""The frame: the table's arrays (address, length), the conditions', the scratch's, one answer's; then a
batch (rows, 0 for one sightline; its arrays; the answers' width; early and clear), and from FR_ARGS on
one sightline's ends, distance and early as float64."""
FRAME = FR_ARGS + 8
