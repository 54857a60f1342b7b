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
* With GCC, ``game.warm`` and ``make bench`` build them guided by a profile (:func:`build`'s ``train``):
  each module first with counters compiled in, then ``game.compiled_training`` (the computer playing
  every shipped scenario) run on those builds, then each module again, laid out for what was counted:
  some 7-9 % quicker a playout than the plain builds, for about twice the build time (docs/memory.md).
  Without GCC, or when the training fails (said on stderr), the builds are plain.

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
CFLAGS = ("-fPIC", "-O2", "-g0", "-fwrapv", "-fno-strict-aliasing", "-DNDEBUG")
"""The C compiler's flags: the interpreter's own optimisation and wrapping, no debug information (it
would cost the engine's memory). Each module is compiled (``-c``), then linked (``-shared``)."""
PROFILE = {
    "generate": ("-fprofile-generate", "-fprofile-update=single"),
    "use": ("-fprofile-use", "-fprofile-partial-training", "-Wno-missing-profile"),
}
"""GCC's flags for a build guided by a profile (:func:`build` with ``train``): counters compiled in, then
the build that reads them. ``-fprofile-partial-training``: code the training never ran is optimised as
without a profile, not as cold."""
TRAIN_TIMEOUT = 900
"""Seconds the training may take before the builds go ahead without its profile."""


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
    return (f"{cython} {sys.implementation.cache_tag} {sysconfig.get_config_var('EXT_SUFFIX')} {CFLAGS} {PROFILE} "
            f"{DIRECTIVES}").encode()


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


def _build_one(name: str, cc: str, stage: str = "plain", work: str | None = None) -> str | None:
    """Build one module (Cython to C, then ``cc``); None when built or already there, else why not. A
    failure of any kind is a build step's, never an answer's: the module runs as source. ``stage``:
    "plain"; "generate" (a build with the profile's counters, left in ``work`` for the training);
    "use" (from ``work``'s C, reading the profile the training left there)."""
    try:
        why = _build(name, cc, stage, None if work is None else Path(work))
        if why is not None and stage == "use":  # (the profile refused, a stale one say: the plain build)
            why = _build(name, cc, "plain", Path(work))  # type: ignore[arg-type]
        return why
    except Exception as exc:  # (a cache that cannot be written, a compiler that crashed, ...)
        return f"{type(exc).__name__}: {exc}"


def _build(name: str, cc: str, stage: str, work: Path | None) -> str | None:
    import contextlib
    import subprocess
    import tempfile

    text = source(name).read_bytes()
    so = target(name, text)
    failed = so.with_suffix(".failed")
    if so.is_file() and stage != "generate":
        return None
    if failed.exists():
        return failed.read_text().strip()
    so.parent.mkdir(parents=True, exist_ok=True)
    place = contextlib.nullcontext(str(work)) if work is not None else tempfile.TemporaryDirectory(dir=so.parent)
    with place as tmp:
        # absolute paths: a profile's counters are kept beside the object file, found there by its path
        c, obj, out = (Path(tmp, f).resolve() for f in ("module.c", "module.o", "module.so"))
        of = Path(tmp, "module.py")  # the source the C was made from: a later stage builds only that
        if c.is_file() and of.read_bytes() != text:
            return "the source changed while it was built"
        flags = PROFILE.get(stage, ())
        try:
            if not c.is_file():
                from Cython.Compiler.Main import CompilationOptions, compile_single

                of.write_bytes(text)
                options = CompilationOptions(compiler_directives=DIRECTIVES, output_file=str(c), language_level=3)
                # compiled from its own file: a traceback names it and its line, as from the source
                result = compile_single(str(source(name)), options, full_module_name=name)
                if result.num_errors:
                    raise RuntimeError(f"Cython: {result.num_errors} errors")
            subprocess.run([cc, *CFLAGS, *flags, f"-I{_headers()}", "-c", "-o", str(obj), str(c)], check=True,
                           capture_output=True)
            subprocess.run([cc, "-shared", *flags, "-o", str(out), str(obj)], check=True, capture_output=True)
        except Exception as exc:  # (Cython or the compiler refusing these sources: remembered, not tried again)
            why = exc.stderr.decode(errors="replace")[-2000:] if isinstance(exc, subprocess.CalledProcessError) else str(exc)
            if stage == "plain" or not c.is_file():  # (a profile's flags refused: the plain build is still to try)
                failed.write_text(f"{type(exc).__name__}: {why}\n")
            return why
        if stage == "generate":
            return None  # (the counting build stays in ``work`` for the training)
        if source(name).read_bytes() != text:  # (edited while it was built: this build is of neither)
            return "the source changed while it was built"
        os.replace(out, so)
    for old in so.parent.glob(f"{name}-*"):  # (builds of earlier sources)
        if old != so and old.suffix in (".so", ".failed"):
            old.unlink(missing_ok=True)
    return None


def _each(todo: list[str], cc: str, workers: int, stages: dict[str, str], works: dict[str, Path]
          ) -> dict[str, str | None]:
    """:func:`_build_one` for each module (its stage and work folder), ``workers`` at a time."""
    args = [(n, cc, stages[n], str(works[n]) if n in works else None) for n in todo]
    if workers > 1 and len(todo) > 1:
        from concurrent.futures import ProcessPoolExecutor

        try:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                return dict(zip(todo, pool.map(_build_one, *zip(*args, strict=True)), strict=True))
        except (OSError, NotImplementedError, RuntimeError):  # (worker processes refused, or broken: one at a time)
            pass
    return {a[0]: _build_one(*a) for a in args}


def _gcc(cc: str) -> bool:
    """Is ``cc`` GCC (whose profile flags :data:`PROFILE` names)?"""
    import subprocess

    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out and "clang" not in out.lower()


def _profiled(todo: list[str], cc: str, workers: int, train: list[str]) -> dict[str, str | None]:
    """Build ``todo`` guided by a profile: each with counters, then ``train`` run with those builds loaded
    (and every other listed module's build as it is), then each again, reading what was counted. A module
    whose counting build failed, or all of them when the training failed, are built plain."""
    import shutil
    import subprocess
    import tempfile
    import time

    cache = _cache()
    cache.mkdir(parents=True, exist_ok=True)
    for old in cache.glob("profile-*"):  # (left by a build that was killed: a day on, no build is using it)
        if time.time() - old.stat().st_mtime > 86_400:
            shutil.rmtree(old, ignore_errors=True)
    with tempfile.TemporaryDirectory(dir=cache, prefix="profile-") as tmp:
        works = {n: Path(tmp, n) for n in todo}
        for w in works.values():
            w.mkdir()
        counted = _each(todo, cc, workers, dict.fromkeys(todo, "generate"), works)
        load = Path(tmp, "load")
        load.mkdir()
        for n in _LISTED | set(todo):
            built = works[n] / "module.so" if n in works and counted[n] is None else target(n)
            if built.is_file():
                (load / target(n).name).symlink_to(built.resolve())
        env = {**os.environ, "DINKYDAU_COMPILED_CACHE": str(load), "DINKYDAU_COMPILED_RULES": "1",
               "DINKYDAU_SIGHTLINE_BUILD": "0"}  # (the line of sight's library is built by game.warm, not here)
        try:
            run = subprocess.run(train, cwd=ROOT, env=env, capture_output=True, timeout=TRAIN_TIMEOUT)
            why = "" if run.returncode == 0 else f"exit {run.returncode}: " + (
                run.stderr.decode(errors="replace").strip().splitlines() or ["?"])[-1]
        except (OSError, subprocess.SubprocessError) as exc:
            why = f"{type(exc).__name__}: {exc}"
        trained = not why
        if why:  # (said, not raised: the builds go ahead without a profile, a little slower, the same answers)
            print(f"compiled: the training run failed ({why}); the modules are built without its profile",
                  file=sys.stderr)
        stages = {n: "use" if trained and counted[n] is None else "plain" for n in todo}
        return _each(todo, cc, workers, stages, works)


def build(names: Iterable[str] = MODULES, cc: str = "cc", jobs: int | None = None,
          train: list[str] | None = None) -> dict[str, str]:
    """Build the listed modules missing a build of their source as it is now, ``jobs`` at a time (one a
    core). ``train``: a command whose run the builds are optimised for (GCC's profile-guided
    optimisation; without GCC, or if the training fails, the builds are plain). Returns each module that
    could not be built, with why; none where every one was."""
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
    workers = jobs or os.cpu_count() or 1
    results = None
    if train and _gcc(cc):
        try:
            results = _profiled(todo, cc, workers, train)
        except OSError:  # (no room for the training's folder, or no links in it: the builds are plain)
            results = None
    if results is None:
        results = _each(todo, cc, workers, dict.fromkeys(todo, "plain"), {})
    return {n: why for n, why in results.items() if why is not None}


TRAINING = [sys.executable, "-m", "game.compiled_training"]
"""What the builds are optimised for: the computer playing every shipped scenario (``game.compiled_training``)."""


def main() -> int:
    """Build what is missing, saying which modules could not be built (``make bench`` runs it first)."""
    for n, why in build(train=TRAINING).items():
        print(f"{n}: not compiled, it runs as Python ({why.strip().splitlines()[-1] if why.strip() else '?'})",
              file=sys.stderr)
    return 0
