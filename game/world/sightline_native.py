"""The compiled line of sight loaded ahead of time: ``game.world.sightline``'s code as a shared library in
the project's cache, called through ``ctypes``, so that a process that answers line of sight never
imports numba (numba and LLVM cost a process about 100 MB; the engine must stay under 150 MB).

``python -m game.warm`` (``make``) builds the library once per machine and source
(:func:`build`: numba compiles, LLVM emits position-independent code, the C compiler links it). Its name
carries a digest of the sightline sources, the numba and llvmlite versions and the CPU, so a change to any
of them finds no library and the numba path answers until the next warm. The answers are the same either
way: the same code, compiled by the same LLVM for the same CPU (``tests/world/test_sightline.py``).

``DINKYDAU_COMPILED_LOS=numba`` keeps to the numba path; ``=0`` to the plain Python path.

What it leaves out: the code itself (``game.world.sightline``), the layout (``game.world.sightline_layout``).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import struct
from importlib import metadata
from pathlib import Path

import numpy as np

from game.world.sightline_layout import (
    FR_ARGS,
    FR_CLEAR,
    FR_DIST,
    FR_EARLY,
    FR_EYES,
    FR_MANY,
    FR_NORDER,
    FR_ORDER,
    FR_QC,
    FR_QCN,
    FR_ROWS,
    FR_TARGETS,
    FR_WIDTH,
    FRAME,
    H_C,
    OUT,
    scratch,
)

CACHE = Path(__file__).resolve().parents[2] / ".cache" / "sightline"
"""Where the libraries are kept (one per digest; ``DINKYDAU_SIGHTLINE_CACHE`` overrides it)."""

_ARGS = struct.Struct("<8d")
_entry: ctypes._CFuncPtr | None = None  # type: ignore[name-defined]
_tried = False


def _cache() -> Path:
    return Path(os.environ.get("DINKYDAU_SIGHTLINE_CACHE") or CACHE)


def digest() -> str:
    """What the library depends on: the sightline sources, numba's and llvmlite's versions, the CPU."""
    h = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for name in ("sightline.py", "sightline_layout.py"):
        h.update((here / name).read_bytes())
    for pkg in ("numba", "llvmlite"):
        try:
            h.update(metadata.version(pkg).encode())
        except metadata.PackageNotFoundError:
            h.update(b"-")
    try:
        with open("/proc/cpuinfo") as fh:
            h.update("".join(sorted({line for line in fh if line.startswith(("model name", "flags"))})).encode())
    except OSError:
        h.update(b"?")
    return h.hexdigest()[:20]


def path() -> Path:
    return _cache() / f"sightline-{digest()}.so"


def build(cc: str = "cc") -> Path | None:
    """Build this machine's library (imports numba; about as long as compiling the numba path). None
    where it cannot be built (no C compiler, or the code would not compile ahead of time): the numba path
    answers then."""
    import subprocess

    from game.world import sightline

    target = path()
    try:
        symbol = sightline.build_native(target, cc)
    except (OSError, subprocess.CalledProcessError, RuntimeError, ImportError):
        return None
    target.with_suffix(".sym").write_text(symbol)
    return target


def load(so: Path) -> ctypes._CFuncPtr:  # type: ignore[name-defined]
    """The entry of the library ``so`` (its symbol beside it, ``.sym``); OSError where it cannot load."""
    try:
        symbol = so.with_suffix(".sym").read_text().strip()
        fn = ctypes.CDLL(str(so))[symbol]
    except AttributeError as exc:
        raise OSError(f"{so}: no entry ({exc})") from None
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    fn.restype = None
    return fn


def entry() -> ctypes._CFuncPtr | None:  # type: ignore[name-defined]
    """The library's entry for this process, or None where none is built for these sources and this CPU."""
    global _entry, _tried
    if not _tried:
        _tried = True
        try:
            _entry = load(path())
        except OSError:
            return None
    return _entry


class Caller:
    """``game.world.sightline.Caller`` through the library: one thread's frame, scratch and answer for one
    table. The frame holds the addresses of the arrays the call reads (kept alive here), so a single
    sightline is one ``ctypes`` call with its ends packed into the frame."""

    def __init__(self, table: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
                 fn: ctypes._CFuncPtr | None = None):  # type: ignore[name-defined]
        fn = fn or entry()
        if fn is None:
            raise LookupError("no compiled sightline library")
        self._fn = fn
        self.table = table
        self.scratch = scratch(table[2])
        self.out = np.empty(OUT + int(table[2][H_C]))
        self.frame = np.zeros(FRAME, np.int64)
        fr = self.frame
        for k, a in enumerate((*table, None, self.scratch, self.out)):
            if a is not None:
                fr[2 * k], fr[2 * k + 1] = a.ctypes.data, len(a)
        self._buf = (ctypes.c_char * (FRAME * 8)).from_buffer(fr)
        self._frame = fr.ctypes.data
        self._args = self._frame + FR_ARGS * 8
        self._qc: np.ndarray | None = None

    def _conditions(self, Qc: np.ndarray) -> None:
        if Qc is not self._qc:
            self._qc = Qc  # (kept alive while the frame points at it)
            self.frame[FR_QC], self.frame[FR_QCN] = Qc.ctypes.data, len(Qc)

    def sight(self, Qc: np.ndarray, ex: float, ey: float, ez: float, tx: float, ty: float, tz: float,
              distance: float, early: bool) -> np.ndarray:
        if Qc is not self._qc:
            self._conditions(Qc)
        self.frame[FR_ROWS] = 0
        _ARGS.pack_into(self._buf, FR_ARGS * 8, ex, ey, ez, tx, ty, tz, distance, 1.0 if early else 0.0)
        self._fn(self._frame, self._args)
        return self.out

    def sight_many(self, Qc: np.ndarray, eyes: np.ndarray, targets: np.ndarray, distance: np.ndarray, early: bool,
                   clear: bool, order: np.ndarray, out: np.ndarray) -> None:
        n = len(eyes)
        if not n:
            return
        for a, dtype in ((eyes, np.float64), (targets, np.float64), (distance, np.float64), (order, np.int64),
                         (out, np.float64)):
            if a.dtype != dtype or not a.flags.c_contiguous:
                raise TypeError("a compiled batch takes C-contiguous float64 rows and an int64 order")
        assert eyes.shape == targets.shape == (n, 3) and distance.shape == (n,) and out.shape[0] == n
        assert out.shape[1] == len(self.out) and len(order) in (0, n)
        self._conditions(Qc)
        fr = self.frame
        fr[FR_ROWS], fr[FR_EYES], fr[FR_TARGETS], fr[FR_DIST] = n, eyes.ctypes.data, targets.ctypes.data, \
            distance.ctypes.data
        fr[FR_ORDER], fr[FR_NORDER], fr[FR_MANY], fr[FR_WIDTH] = order.ctypes.data, len(order), out.ctypes.data, \
            out.shape[1]
        fr[FR_EARLY], fr[FR_CLEAR] = int(early), int(clear)
        try:
            self._fn(self._frame, self._args)
        finally:
            fr[FR_ROWS] = 0

