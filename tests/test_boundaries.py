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


def absolute_imports(folder: Path, package: str) -> list[tuple[str, str]]:
    """(file name, imported module) for every import under a folder, relative imports resolved."""
    out = []
    for path in sorted(folder.rglob("*.py")):
        here = ".".join([package, *path.relative_to(folder).parent.parts])
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                out += [(path.name, a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = here.rsplit(".", node.level - 1)[0] if node.level else ""
                module = ".".join(p for p in (base, node.module or "") if p)
                out += [(path.name, module)] if node.module else [(path.name, f"{module}.{a.name}") for a in node.names]
    return out


def test_world_never_imports_the_rules():
    """The world sits below the rules (DESIGN §2, §10): the terrain vocabulary both need is game.terrain."""
    offenders = [f"{f}: {m}" for f, m in absolute_imports(ROOT / "game" / "world", "game.world")
                 if m == "game.rules" or m.startswith("game.rules.")]
    assert not offenders
    assert not [m for m in imported_modules("game.world") if m.startswith("game.rules")]


def test_the_terrain_vocabulary_sits_below_rules_and_world():
    """game.terrain and the loader it shares (game.tables) import nothing of the rules, world or above
    (the package's own finder for the compiled modules, game.compiled, comes with ``import game``)."""
    code = "import sys, game.terrain, game.tables; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    game_mods = [m for m in out.stdout.split() if m.startswith("game.")]
    assert sorted(game_mods) == ["game.compiled", "game.tables", "game.terrain"]
