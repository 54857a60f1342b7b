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


def imports_in(folder: Path) -> list[tuple[str, str]]:
    """(file name, imported module) for every import statement under a folder."""
    out = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                out += [(path.name, a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                out.append((path.name, node.module))
    return out


def test_client_never_imports_the_rules():
    offenders = [f"{f}: {m}" for f, m in imports_in(ROOT / "game" / "client") if m.startswith("game.rules")]
    assert not offenders


def test_rules_never_touch_random_or_the_clock():
    banned = ("random", "time", "datetime", "secrets")
    offenders = [f"{f}: {m}" for f, m in imports_in(ROOT / "game" / "rules")
                 if m.split(".")[0] in banned or m == "numpy.random"]
    assert not offenders
