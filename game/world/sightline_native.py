"""The compiled line of sight loaded ahead of time: ``game.world.sightline``'s code as a shared library in
the project's cache, called through ``ctypes``, so that a process that answers line of sight never
imports numba (numba and LLVM cost a process about 100 MB; the engine must stay under 150 MB).

``python -m game.warm`` (``make``) builds the library once per machine and source (:func:`build`,
:func:`compile_library`: numba compiles the C entry :func:`_c_entry` around ``game.world.sightline``'s
code, LLVM emits it position independent, the C compiler links it with the few helpers numba's error
paths name). Its name carries a digest of the sightline sources (and this module's build code), the numba
and llvmlite versions and the CPU, so a change to any of them finds no library: that process answers
through numba and starts a build in a process of its own (:func:`build_later`) for the processes after
it. The answers are the same either way: the same code, compiled by the same LLVM for the same CPU
(``tests/world/test_sightline.py`` holds the two together bit for bit).

``DINKYDAU_COMPILED_LOS=numba`` keeps to the numba path; ``=0`` to the plain Python path.

What it leaves out: the code itself (``game.world.sightline``), the layout (``game.world.sightline_layout``);
machines without a C compiler (the numba path answers there, at numba's cost in memory).
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
    FR_F,
    FR_FN,
    FR_H,
    FR_HN,
    FR_MANY,
    FR_N,
    FR_NN,
    FR_NORDER,
    FR_ORDER,
    FR_OUT,
    FR_OUTN,
    FR_P,
    FR_PN,
    FR_QC,
    FR_QCN,
    FR_ROWS,
    FR_S,
    FR_SN,
    FR_TARGETS,
    FR_WIDTH,
    FRAME,
    H_C,
    O_VIS,
    OUT,
    scratch,
)

CACHE = Path(__file__).resolve().parents[2] / ".cache" / "sightline"
"""Where the libraries are kept (one per digest; ``DINKYDAU_SIGHTLINE_CACHE`` overrides it)."""

KEEP = 4
"""Libraries kept in the cache (the newest: a checkout moving between versions does not rebuild at once)."""
_ARGS = struct.Struct("<8d")
_BATCH = struct.Struct("<10q")
"""A batch's slots of the frame, FR_ROWS to FR_CLEAR."""
SMALL = 64
"""Batches of up to this many rows (and no order) go through the caller's own buffers."""
_entry: ctypes._CFuncPtr | None = None  # type: ignore[name-defined]
_tried = False


def _cache() -> Path:
    return Path(os.environ.get("DINKYDAU_SIGHTLINE_CACHE") or CACHE)


def digest() -> str:
    """What the library depends on: the sightline sources, numba's and llvmlite's versions, the CPU."""
    h = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for name in ("sightline.py", "sightline_layout.py", "sightline_native.py"):
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


def build(cc: str = "cc", wait: bool = False) -> Path | None:
    """Build this machine's library (imports numba; about as long as compiling the numba path). None
    where it cannot be built (no C compiler ``cc``, or the code would not compile ahead of time): the numba
    path answers then. A failure is remembered for these sources (``.failed`` beside the library, its
    reason inside; delete it to try again), so each process does not try again. ``wait``: while another
    process builds it, wait for that one (else give up at once)."""
    try:
        return _build(cc, wait)
    except OSError:  # (a read-only cache, no locks: the numba path answers)
        return None


def build_later() -> None:
    """:func:`build` in a process of its own, not waited for (the caller answers through numba meanwhile,
    and the processes after it load the library): a build takes numba's compile and more, seconds to
    a minute on a loaded machine, too long to keep a game waiting."""
    import subprocess
    import sys

    target = path()
    if target.exists() or target.with_suffix(".failed").exists():
        return
    try:
        subprocess.Popen([sys.executable, "-m", "game.world.sightline_native"], cwd=Path(__file__).resolve().parents[2],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    except OSError:
        pass


def _build(cc: str, wait: bool) -> Path | None:
    import fcntl
    import shutil

    target = path()
    failed = target.with_suffix(".failed")
    if shutil.which(cc) is None or failed.exists():  # (tried once for these sources: not again each process)
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / "build.lock", "w") as lock:
        try:  # one process builds at a time (test workers start together); the others keep to numba
            fcntl.flock(lock, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return None
        if target.exists() and target.with_suffix(".sym").exists():
            return target
        try:
            symbol = compile_library(target, cc)
        except Exception as exc:  # (numba, LLVM or the linker refusing: a cache step, never an answer)
            failed.write_text(f"{type(exc).__name__}: {exc}\n")
            return None
        target.with_suffix(".sym").write_text(symbol)
        old = sorted(target.parent.glob("sightline-*.so"), key=lambda p: p.stat().st_mtime)[:-KEEP]
        for so in old:  # (earlier sources' libraries)
            for p in (so, so.with_suffix(".sym"), so.with_suffix(".failed")):
                p.unlink(missing_ok=True)
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


def _view(dtype, ndim: int):
    """An intrinsic ``view(address, n[, k])``: the memory at an address as a C-contiguous array, not owned."""
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic
    from numba.np.arrayobj import make_array, populate_array

    aryty = types.Array(dtype, ndim, "C")

    def codegen(context, builder, sig, args):
        ary = make_array(aryty)(context, builder)
        item = context.get_abi_sizeof(context.get_data_type(dtype))
        dims = list(args[1:])
        strides = [context.get_constant(types.intp, item)]
        for d in reversed(dims[1:]):
            strides.insert(0, builder.mul(strides[0], d))
        populate_array(ary, data=builder.inttoptr(args[0], context.get_data_type(dtype).as_pointer()),
                       shape=cgutils.pack_array(builder, dims), strides=cgutils.pack_array(builder, strides),
                       itemsize=context.get_constant(types.intp, item), meminfo=None)
        return ary._getvalue()

    if ndim == 1:
        @intrinsic
        def view(typingctx, addr, n):
            return aryty(types.int64, types.int64), codegen
    else:
        @intrinsic
        def view(typingctx, addr, n, k):
            return aryty(types.int64, types.int64, types.int64), codegen

    return view


def _c_entry():
    """The C entry ``entry(frame, args)`` (see ``sightline_layout.FRAME``): one sightline, or a batch, run
    by ``game.world.sightline``'s :func:`sight` and :func:`sight_many` (imports numba)."""
    from numba import cfunc, types

    from game.world.sightline import sight, sight_many

    f64, i64, u64, rows = (_view(types.float64, 1), _view(types.int64, 1), _view(types.uint64, 1),
                           _view(types.float64, 2))

    @cfunc(types.void(types.CPointer(types.int64), types.CPointer(types.float64)), nopython=True,
           error_model="numpy", _nrt=False)
    def entry(fr, a):
        F, N, H, P = f64(fr[FR_F], fr[FR_FN]), i64(fr[FR_N], fr[FR_NN]), i64(fr[FR_H], fr[FR_HN]), u64(fr[FR_P], fr[FR_PN])
        Qc, S = f64(fr[FR_QC], fr[FR_QCN]), f64(fr[FR_S], fr[FR_SN])
        n = fr[FR_ROWS]
        if n == 0:
            sight(F, N, H, P, Qc, S, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7] != 0.0, f64(fr[FR_OUT], fr[FR_OUTN]))
        else:
            sight_many(F, N, H, P, Qc, S, rows(fr[FR_EYES], n, 3), rows(fr[FR_TARGETS], n, 3), f64(fr[FR_DIST], n),
                       fr[FR_EARLY] != 0, (fr[FR_CLEAR] & 1) != 0, i64(fr[FR_ORDER], fr[FR_NORDER]),
                       rows(fr[FR_MANY], n, fr[FR_WIDTH]), (fr[FR_CLEAR] & 2) != 0)

    return entry


_ERROR_PATHS = """
/* what numba's code calls on its error paths, none of which the sightline code takes */
extern int PyGILState_Ensure(void);
extern void PyGILState_Release(int);
extern void PyErr_SetString(void *, const char *);
extern void *PyExc_RuntimeError;
void numba_gil_ensure(int *state) { *state = PyGILState_Ensure(); }
void numba_gil_release(int *state) { PyGILState_Release(*state); }
int numba_do_raise(void *info) { PyErr_SetString(PyExc_RuntimeError, "compiled sightline: unexpected error"); return 0; }
void *numba_runtime_build_excinfo_struct(void *a, void *b) { return 0; }
void *numba_unpickle(const char *data, int n, const char *hash) { return 0; }
"""


def compile_library(target: Path, cc: str = "cc") -> str:
    """Compile :func:`_c_entry` ahead of time (numba's code, through LLVM, position independent) and link it
    with ``cc`` into the shared library ``target``; returns the entry's symbol. Raises
    ``subprocess.CalledProcessError`` or ``OSError`` where it cannot (no compiler)."""
    import subprocess
    import tempfile

    import llvmlite.binding as llvm

    from game.world import sightline  # noqa: F401 (numba's cache directory, set there)

    entry = _c_entry()
    mod = llvm.parse_assembly(entry._library.get_llvm_str())
    mod.verify()
    tm = llvm.Target.from_triple(mod.triple).create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(), opt=3, reloc="pic",
        codemodel="default")
    # numba optimised each function alone: with the entry the only symbol the library exports, LLVM may
    # inline across them (and no call goes through the PLT)
    for fn in mod.functions:
        if not fn.is_declaration and fn.name != entry.native_name:
            fn.linkage = "internal"
    for gv in mod.global_variables:
        if not gv.is_declaration:
            gv.linkage = "internal"
    pto = llvm.PipelineTuningOptions(speed_level=3)
    pto.inlining_threshold = 1000
    llvm.PassBuilder(tm, pto).getModulePassManager().run(mod, llvm.PassBuilder(tm, pto))
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        obj, errors, so = Path(tmp, "sight.o"), Path(tmp, "error_paths.c"), Path(tmp, "sight.so")
        obj.write_bytes(tm.emit_object(mod))
        errors.write_text(_ERROR_PATHS)
        subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(so), str(obj), str(errors), "-lm"], check=True,
                       capture_output=True)
        os.replace(so, target)
    return entry.native_name


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
        self._small: tuple | None = None
        self._small_at: tuple = ()

    def _conditions(self, Qc: np.ndarray) -> None:
        if Qc is not self._qc:
            self._qc = Qc  # (kept alive while the frame points at it)
            self.frame[FR_QC], self.frame[FR_QCN] = Qc.ctypes.data, len(Qc)

    def sight(self, Qc: np.ndarray, ex: float, ey: float, ez: float, tx: float, ty: float, tz: float,
              distance: float, early: bool) -> np.ndarray:
        if Qc is not self._qc:
            self._conditions(Qc)
        _ARGS.pack_into(self._buf, FR_ARGS * 8, ex, ey, ez, tx, ty, tz, distance, 1.0 if early else 0.0)
        self._fn(self._frame, self._args)
        return self.out

    def sight_many(self, Qc: np.ndarray, eyes: np.ndarray, targets: np.ndarray, distance: np.ndarray, early: bool,
                   clear: bool, order: np.ndarray, out: np.ndarray, sort: bool = False) -> None:
        n = len(eyes)
        if not n:
            return
        if n > SMALL or len(order):
            for a, dtype in ((eyes, np.float64), (targets, np.float64), (distance, np.float64), (order, np.int64),
                             (out, np.float64)):
                if a.dtype != dtype or not a.flags.c_contiguous:
                    raise TypeError("a compiled batch takes C-contiguous float64 rows and an int64 order")
            if not (eyes.shape == targets.shape == (n, 3) and distance.shape == (n,) and len(order) in (0, n)
                    and out.shape in ((n, len(self.out)), (n, 1))):
                raise ValueError("a compiled batch's arrays do not match")
            where = (eyes.ctypes.data, targets.ctypes.data, distance.ctypes.data, order.ctypes.data, len(order),
                     out.ctypes.data)
            into = None
        else:  # a few rows (a stand check's twelve): copied through buffers made once, whose addresses are known
            if self._small is None:
                self._small = (np.empty((SMALL, 3)), np.empty((SMALL, 3)), np.empty(SMALL),
                               np.empty((SMALL, len(self.out))))
                e, t, d, o = self._small
                self._small_at = (e.ctypes.data, t.ctypes.data, d.ctypes.data, 0, 0, o.ctypes.data)
            e, t, d, into = self._small
            e[:n], t[:n], d[:n] = eyes, targets, distance
            where = self._small_at
        self._conditions(Qc)
        _BATCH.pack_into(self._buf, FR_ROWS * 8, n, *where, out.shape[1] if into is None else len(self.out),
                         int(early), int(clear) | (2 if sort and len(order) else 0))  # (the clear slot: clear, sort)
        try:
            self._fn(self._frame, self._args)
        finally:
            self.frame[FR_ROWS] = 0
        if into is not None:  # (a batch keeping visible alone takes that column of the full rows)
            out[:n] = into[:n] if out.shape[1] == into.shape[1] else into[:n, O_VIS:O_VIS + 1]


if __name__ == "__main__":  # (build_later)
    build()
