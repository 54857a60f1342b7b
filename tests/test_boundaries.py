"""Architecture boundaries (DESIGN §2, STYLE): the rules, world and engine never import panda3d;
the client never imports the rules; nothing under game/rules touches random state or the clock."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(package: str) -> str:
    code = (
        "import sys, importlib, pkgutil\n"
        f"import {package}\n"
        f"for m in pkgutil.walk_packages({package}.__path__, '{package}.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_rules_world_engine_ai_never_import_panda3d():
    for package in ("game.rules", "game.world", "game.engine", "game.ai"):
        mods = imported_modules(package)
        assert not [m for m in mods if m.split(".")[0] in ("panda3d", "direct", "gltf", "simplepbr")], package


def test_client_never_imports_the_rules():
    offenders = []
    for path in (ROOT / "game" / "client").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.startswith("game.rules")]
    assert not offenders


def test_rules_never_touch_random_or_the_clock():
    offenders = []
    for path in (ROOT / "game" / "rules").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names
                          if n.split(".")[0] in ("random", "time", "datetime", "secrets") or n == "numpy.random"]
    assert not offenders
