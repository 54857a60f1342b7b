"""The rules' busiest modules compiled with Cython, loaded in place of their source while they match it.

A random playout spends most of its time in some thirty modules of plain Python (the listing, fire,
the state's change tracking, Blinds, moves, line of sight's front end). Cython compiles each one, as
written (pure-Python mode, its annotations not read as C types), into a C extension that runs the same
code without the interpreter's loop: the same answers, the same games, about a tenth quicker a playout
(``benchmarks/compare.py``; docs/memory.md).

Where the builds live and when they are used:

* ``python -m game.warm`` (``make`` runs it after installing) builds them into ``.cache/compiled``
  (``DINKYDAU_COMPILED_CACHE`` overrides it), one file per module and digest: the module's source,
  Cython's version, the interpreter and the flags. It needs a C compiler (``cc``) and the interpreter's
  headers; without them nothing is built and every module runs as source.
* :func:`install` (``game/__init__.py``) puts a finder first on ``sys.meta_path`` that loads a listed
  module from its build only when a build of the source as it is now exists. An edited module runs as
  source until the next build, so a build never runs in place of newer code; ``__file__`` stays the
  source's.
* ``DINKYDAU_COMPILED_RULES=0`` leaves every build out (plain Python throughout).

A build that fails (the compiler refusing) is remembered beside it (``.failed``) so no process tries
it again for that source. Nothing here changes an answer: a missing build only costs time.
"""

from __future__ import annotations

import _imp
import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
from collections.abc import Iterable
from pathlib import Path

MODULES = (
    "game.dice",
    "game.rules.ambush_orders",
    "game.rules.assault",
    "game.rules.blinds",
    "game.rules.casevac",
    "game.rules.changes",
    "game.rules.chapters",
    "game.rules.command",
    "game.rules.crew",
    "game.rules.data",
    "game.rules.detection",
    "game.rules.fade",
    "game.rules.fire",
    "game.rules.fire_support.missions",
    "game.rules.fire_support.spoof",
    "game.rules.game",
    "game.rules.memo",
    "game.rules.movement",
    "game.rules.night",
    "game.rules.offers",
    "game.rules.reactions",
    "game.rules.river_mines",
    "game.rules.search",
    "game.rules.state",
    "game.rules.tunnels",
    "game.rules.turn",
    "game.rules.vehicles",
    "game.rules.weather",
    "game.world.features",
    "game.world.los",
    "game.world.los_single",
    "game.world.los_terms",
    "game.world.raytrace",
    "game.world.shapes",
    "game.world.tablemap",
)
"""The modules compiled: those a random playout spends 0.2 % or more of its time in (py-spy, docs/memory.md)."""

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "compiled"
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True}
"""Cython's settings: Python 3 semantics, annotations left as Python's (a ``dict`` annotation would
refuse the listing's read-only offers), functions that introspect as Python's do."""
CFLAGS = ("-shared", "-fPIC", "-O2", "-g0", "-fwrapv", "-fno-strict-aliasing", "-DNDEBUG")
"""The C compiler's flags: the interpreter's own optimisation and wrapping, no debug information (it
would cost the engine's memory)."""


def _cache() -> Path:
    return Path(os.environ.get("DINKYDAU_COMPILED_CACHE") or CACHE)


def source(name: str) -> Path:
    """The source file of a listed module."""
    return ROOT.joinpath(*name.split(".")).with_suffix(".py")


def _cython() -> str:
    """Cython's version, read off its installed metadata's folder name (importing it costs 15 ms a process)."""
    spec = importlib.util.find_spec("Cython")
    if spec is None or spec.origin is None:
        return "-"
    site = Path(spec.origin).parent.parent
    found = sorted(p.name for p in site.glob("[cC]ython-*.dist-info"))
    return found[-1][len("cython-"):-len(".dist-info")] if found else "?"


def _tag() -> bytes:
    cython = _cython()
    return f"{cython} {sys.implementation.cache_tag} {sysconfig.get_config_var('EXT_SUFFIX')} {CFLAGS} {DIRECTIVES}".encode()


_TAG: bytes | None = None


def target(name: str, text: bytes | None = None) -> Path:
    """Where the build of ``name`` as its source is now (``text``, read if not given) is kept."""
    global _TAG
    if _TAG is None:
        _TAG = _tag()
    h = hashlib.sha256(_TAG)
    h.update(source(name).read_bytes() if text is None else text)
    return _cache() / f"{name}-{h.hexdigest()[:20]}.so"


class _Loader(importlib.machinery.ExtensionFileLoader):
    """Loads a module's build while the module keeps its source's name and ``__file__``."""

    def __init__(self, name: str, so: str, src: str):
        super().__init__(name, so)
        self.src = src

    def create_module(self, spec):
        return _imp.create_dynamic(importlib.machinery.ModuleSpec(spec.name, self, origin=self.path))

    def exec_module(self, module) -> None:
        module.__file__ = self.src  # (the module's own code reads its source's place, as when run as source)
        _imp.exec_dynamic(module)

    def get_source(self, fullname: str) -> str | None:
        """The module's source (a traceback's lines, ``inspect``), as the source's own loader gives it."""
        try:
            return Path(self.src).read_text(encoding="utf-8")
        except OSError:
            return None


class _Finder:
    """First on ``sys.meta_path``: a listed module whose build matches its source loads from the build."""

    @staticmethod
    def find_spec(name: str, path=None, target_module=None):
        if name not in _LISTED:
            return None
        src = source(name)
        try:
            so = target(name)
        except OSError:
            return None
        if not so.is_file():
            return None
        spec = importlib.machinery.ModuleSpec(name, _Loader(name, str(so), str(src)), origin=str(src))
        spec.has_location = True
        return spec


_LISTED = frozenset(MODULES)


def install() -> None:
    """Load the listed modules from their builds from now on, where they match (``DINKYDAU_COMPILED_RULES=0``:
    never). Modules imported already stay as they are."""
    if os.environ.get("DINKYDAU_COMPILED_RULES", "1") == "0":
        return
    if not any(isinstance(f, _Finder) or f is _Finder for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder)


def compiled() -> list[str]:
    """The listed modules imported now that run from a build."""
    return [n for n in MODULES if isinstance(getattr(sys.modules.get(n), "__loader__", None), _Loader)]


def _headers() -> Path | None:
    inc = sysconfig.get_paths().get("include")
    return Path(inc) if inc and Path(inc, "Python.h").is_file() else None


def _build_one(name: str, cc: str) -> str | None:
    """Build one module (Cython to C, then ``cc``); None when built or already there, else why not. A
    failure of any kind is a build step's, never an answer's: the module runs as source."""
    try:
        return _build(name, cc)
    except Exception as exc:  # (a cache that cannot be written, a compiler that crashed, ...)
        return f"{type(exc).__name__}: {exc}"


def _build(name: str, cc: str) -> str | None:
    import subprocess
    import tempfile

    text = source(name).read_bytes()
    so = target(name, text)
    failed = so.with_suffix(".failed")
    if so.is_file():
        return None
    if failed.exists():
        return failed.read_text().strip()
    from Cython.Compiler.Main import CompilationOptions, compile_single

    so.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=so.parent) as tmp:
        c = Path(tmp, "module.c")
        options = CompilationOptions(compiler_directives=DIRECTIVES, output_file=str(c), language_level=3)
        try:
            # compiled from its own file: a traceback names it and its line, as from the source
            result = compile_single(str(source(name)), options, full_module_name=name)
            if result.num_errors:
                raise RuntimeError(f"Cython: {result.num_errors} errors")
            out = Path(tmp, "module.so")
            subprocess.run([cc, *CFLAGS, f"-I{_headers()}", "-o", str(out), str(c)], check=True, capture_output=True)
        except Exception as exc:  # (Cython or the compiler refusing these sources: remembered, not tried again)
            why = exc.stderr.decode(errors="replace")[-2000:] if isinstance(exc, subprocess.CalledProcessError) else str(exc)
            failed.write_text(f"{type(exc).__name__}: {why}\n")
            return why
        if source(name).read_bytes() != text:  # (edited while it was built: this build is of neither)
            return "the source changed while it was built"
        os.replace(out, so)
    for old in so.parent.glob(f"{name}-*"):  # (builds of earlier sources)
        if old != so and old.suffix in (".so", ".failed"):
            old.unlink(missing_ok=True)
    return None


def build(names: Iterable[str] = MODULES, cc: str = "cc", jobs: int | None = None) -> dict[str, str]:
    """Build the listed modules missing a build of their source as it is now, ``jobs`` at a time (one a
    core). Returns each module that could not be built, with why; none where every one was."""
    import shutil

    if os.environ.get("DINKYDAU_COMPILED_RULES", "1") == "0":
        return {}
    names = list(names)
    if shutil.which(cc) is None or _headers() is None:
        return dict.fromkeys(names, "no C compiler or no Python headers")
    try:
        import Cython  # noqa: F401
    except ImportError:
        return dict.fromkeys(names, "Cython is not installed")
    todo = [n for n in names if not target(n).is_file()]
    if not todo:
        return {}
    from concurrent.futures import ProcessPoolExecutor

    workers = jobs or os.cpu_count() or 1
    results: dict[str, str | None] | None = None
    if workers > 1:
        try:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                results = dict(zip(todo, pool.map(_build_one, todo, [cc] * len(todo)), strict=True))
        except (OSError, NotImplementedError, RuntimeError):  # (worker processes refused, or broken: one at a time)
            results = None
    if results is None:
        results = {n: _build_one(n, cc) for n in todo}
    return {n: why for n, why in results.items() if why is not None}


def main() -> int:
    """Build what is missing, saying which modules could not be built (``make bench`` runs it first)."""
    for n, why in build().items():
        print(f"{n}: not compiled, it runs as Python ({why.strip().splitlines()[-1] if why.strip() else '?'})",
              file=sys.stderr)
    return 0
