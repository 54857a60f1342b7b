"""The rules' compiled modules (game.compiled): loaded only while they match their source, and the same
games either way."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

from game import compiled

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A listed module of its own (``toypkg.mod``) under a scratch root, with a scratch cache."""
    pkg = tmp_path / "toypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text("def answer():\n    return 41 + 1\n\nWHERE = __file__\n\n\n"
                                "def fails():\n    return {}['no such key']  # the line a traceback shows\n")
    monkeypatch.setattr(compiled, "ROOT", tmp_path)
    monkeypatch.setattr(compiled, "_LISTED", frozenset({"toypkg.mod"}))
    monkeypatch.setenv("DINKYDAU_COMPILED_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("DINKYDAU_COMPILED_RULES", "1")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "meta_path", [compiled._Finder, *sys.meta_path])
    yield pkg / "mod.py"
    for name in ("toypkg.mod", "toypkg"):
        sys.modules.pop(name, None)


def _fresh(name: str):
    sys.modules.pop(name, None)
    importlib.invalidate_caches()
    return importlib.import_module(name)


def test_a_build_runs_in_place_of_its_source_only_while_it_matches(toy):
    if compiled._headers() is None:
        pytest.skip("no Python headers to compile against")
    assert compiled.build(["toypkg.mod"], jobs=1) == {}
    mod = _fresh("toypkg.mod")
    assert isinstance(mod.__loader__, compiled._Loader)  # the build
    assert mod.answer() == 42
    assert mod.WHERE == str(toy) == mod.__file__  # it reads its source's place, as the source would
    with pytest.raises(KeyError) as caught:
        mod.fails()
    shown = "".join(traceback.format_exception(caught.value))
    assert "mod.py\", line 8, in toypkg.mod.fails" in shown and "the line a traceback shows" in shown
    toy.write_text("def answer():\n    return 7\n\nWHERE = __file__\n")  # edited: its build is stale now
    mod = _fresh("toypkg.mod")
    assert not isinstance(mod.__loader__, compiled._Loader)
    assert mod.answer() == 7  # the source as it is now, never the older build
    assert compiled.build(["toypkg.mod"], jobs=1) == {}  # built again; the stale build is gone
    assert [p.name for p in (Path(os.environ["DINKYDAU_COMPILED_CACHE"])).glob("toypkg.mod-*")] == \
        [compiled.target("toypkg.mod").name]
    assert _fresh("toypkg.mod").answer() == 7


def test_a_module_that_will_not_compile_runs_as_source_and_is_not_tried_again(toy):
    if compiled._headers() is None:
        pytest.skip("no Python headers to compile against")
    toy.write_text("def answer():\n    return 1\n")
    failing = compiled.build(["toypkg.mod"], cc="false", jobs=1)  # a compiler that always refuses
    assert list(failing) == ["toypkg.mod"]
    assert compiled.target("toypkg.mod").with_suffix(".failed").exists()
    assert compiled.build(["toypkg.mod"], jobs=1) == {"toypkg.mod": compiled.target("toypkg.mod").with_suffix(
        ".failed").read_text().strip()}  # remembered: not tried again for this source
    assert not isinstance(_fresh("toypkg.mod").__loader__, compiled._Loader)


def test_switched_off_nothing_loads_from_a_build(toy, monkeypatch):
    monkeypatch.setenv("DINKYDAU_COMPILED_RULES", "0")
    assert compiled.build(["toypkg.mod"]) == {}
    assert not compiled.target("toypkg.mod").exists()


_PLAY = """
import json, sys
from game import compiled
from game.rules.dice import Dice, seed_streams
from game.rules.game import Game
from game.rules.scenario import resolve_scenario
from game.rules.turn import start_turn
sys.path.insert(0, "benchmarks")
from playout import random_step
hashes = []
for seed, sid in ((3, "rubber_plantation"), (4, "village_sweep")):
    g = Game(resolve_scenario(sid), seed, start=False)
    start_turn(g)
    rng = Dice(seed_streams(seed + 99))
    while not g.state.over:
        random_step(g, rng)
    hashes.append(g.hash())
print(json.dumps({"hashes": hashes, "compiled": compiled.compiled()}))
"""


def test_the_compiled_rules_play_the_same_games_as_the_source():
    """DESIGN §5 (determinism): two random playouts give the same final states with the builds as without."""
    if not all(compiled.target(n).is_file() for n in compiled.MODULES):
        pytest.skip("the rules are not compiled here (python -m game.warm builds them)")
    runs = {}
    for switch in ("1", "0"):
        env = {**os.environ, "DINKYDAU_COMPILED_RULES": switch, "DINKYDAU_COMPILED_CACHE": str(compiled._cache())}
        out = subprocess.run([sys.executable, "-c", _PLAY], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=300, check=True)
        runs[switch] = json.loads(out.stdout.strip().splitlines()[-1])
    assert sorted(runs["1"]["compiled"]) == sorted(compiled.MODULES)  # every listed module from its build
    assert runs["0"]["compiled"] == []
    assert runs["1"]["hashes"] == runs["0"]["hashes"]


def test_a_cache_that_cannot_be_written_leaves_the_modules_as_source(toy, tmp_path, monkeypatch):
    """Bad ground under the cache (a file where its folder should be): no build, no error, the source runs."""
    if compiled._headers() is None:
        pytest.skip("no Python headers to compile against")
    (tmp_path / "blocked").write_text("a file, not a folder")
    monkeypatch.setenv("DINKYDAU_COMPILED_CACHE", str(tmp_path / "blocked" / "compiled"))
    for train in (None, [sys.executable, "-c", "pass"]):  # plain, or guided by a profile
        failing = compiled.build(["toypkg.mod"], jobs=1, train=train)
        assert list(failing) == ["toypkg.mod"] and "NotADirectoryError" in failing["toypkg.mod"]
    assert _fresh("toypkg.mod").answer() == 42


@pytest.fixture
def gcc(toy):
    """The toy module, where GCC and the interpreter's headers are here to build it guided by a profile."""
    if compiled._headers() is None or not compiled._gcc("cc"):
        pytest.skip("no Python headers, or no GCC for a profile")
    return toy


_TOY_TRAINING = """
import glob, importlib.util, os
path, = glob.glob(os.path.join(os.environ["DINKYDAU_COMPILED_CACHE"], "toypkg.mod-*.so"))
spec = importlib.util.spec_from_file_location("toypkg.mod", path)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
assert [mod.answer() for _ in range(1000)] == [42] * 1000
"""


def test_a_build_guided_by_a_profile_reads_what_its_training_counted(gcc, monkeypatch):
    """The counting build is what the training loads, and the final build reads its counts: with a missing
    profile made an error, the build still succeeds, and it answers as the source does."""
    use = tuple(f for f in compiled.PROFILE["use"] if f != "-Wno-missing-profile") + ("-Werror=missing-profile",)
    monkeypatch.setitem(compiled.PROFILE, "use", use)
    assert compiled.build(["toypkg.mod"], jobs=1, train=[sys.executable, "-c", _TOY_TRAINING]) == {}
    mod = _fresh("toypkg.mod")
    assert isinstance(mod.__loader__, compiled._Loader)
    assert mod.answer() == 42
    cache = Path(os.environ["DINKYDAU_COMPILED_CACHE"])
    assert [p.name for p in cache.iterdir()] == [compiled.target("toypkg.mod").name]  # (the training's folder gone)


def test_a_training_folder_left_by_a_killed_build_is_cleared_a_day_on(gcc):
    cache = Path(os.environ["DINKYDAU_COMPILED_CACHE"])
    stale, recent = cache / "profile-stale", cache / "profile-recent"
    for d in (stale, recent):
        (d / "toypkg.mod").mkdir(parents=True)
    os.utime(stale, (0, 0))  # (a build killed long ago)
    assert compiled.build(["toypkg.mod"], jobs=1, train=[sys.executable, "-c", "pass"]) == {}
    assert not stale.exists() and recent.exists()  # (a recent one may be another build's, still running)


def test_a_training_that_fails_leaves_plain_builds(gcc, capfd):
    assert compiled.build(["toypkg.mod"], jobs=1, train=[sys.executable, "-c", "raise SystemExit('no table')"]) == {}
    assert "the training run failed (exit 1: no table)" in capfd.readouterr().err
    assert _fresh("toypkg.mod").answer() == 42


def test_a_source_edited_while_its_training_runs_is_not_built_from_its_older_text(gcc):
    """The C made before the training is of the older text: no build of it is kept under the new text's
    name (a build never runs in place of newer code); the module runs as its source until built again."""
    edit = f"open({str(gcc)!r}, 'w').write('def answer():\\n    return 7\\n')"
    failing = compiled.build(["toypkg.mod"], jobs=1, train=[sys.executable, "-c", edit])
    assert failing == {"toypkg.mod": "the source changed while it was built"}
    assert not compiled.target("toypkg.mod").exists()
    mod = _fresh("toypkg.mod")
    assert not isinstance(mod.__loader__, compiled._Loader) and mod.answer() == 7
    assert compiled.build(["toypkg.mod"], jobs=1) == {}  # built again, of the text as it is now
    assert _fresh("toypkg.mod").answer() == 7


def test_a_profile_the_compiler_refuses_leaves_a_plain_build(gcc, monkeypatch):
    monkeypatch.setitem(compiled.PROFILE, "use", ("-fprofile-use", "-fno-such-option-here"))
    assert compiled.build(["toypkg.mod"], jobs=1, train=[sys.executable, "-c", _TOY_TRAINING]) == {}
    mod = _fresh("toypkg.mod")
    assert isinstance(mod.__loader__, compiled._Loader) and mod.answer() == 42
    assert not compiled.target("toypkg.mod").with_suffix(".failed").exists()
