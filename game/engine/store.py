"""The engine's own folders (DESIGN §4): no path ever comes from the wire.

Saves are named slots in the engine's save folder (``--saves DIR``; by default the user's data folder,
``$XDG_DATA_HOME/dinkydau/saves``); a slot name is a few plain characters, never a path. Scenario
files come from the scenario folders (the shipped ``scenarios/`` and any ``--scenarios DIR``), named
by id or file name, never by path. Only regular files are read (a FIFO or a device named ``.toml``
would freeze the engine), no link is followed, and nothing is read past ``MAX_FILE`` bytes.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from game.engine import wire

SLOT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,47}")
MAX_FILE = wire.MAX_LINE


class StoreError(ValueError):
    """A slot or scenario name refused, or a file that cannot be read; the message says which."""


def default_save_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "dinkydau" / "saves"


def slot_name(name: object) -> str:
    if not isinstance(name, str) or not SLOT.fullmatch(name):
        raise StoreError(f"param 'slot': {str(name)[:60]!r} is not a save slot name (1-48 letters, digits, "
                         f"'-' or '_', starting with a letter or digit)")
    return name


def read_regular(path: Path, what: str) -> str:
    """The text of a regular file, read without following a link or waiting on a pipe."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise StoreError(f"{what}: cannot read: {exc.strerror}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(f"{what}: not a regular file")
        if info.st_size > MAX_FILE:
            raise StoreError(f"{what}: {info.st_size} bytes, more than the {MAX_FILE} a file may have")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_FILE + 1)
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StoreError(f"{what}: not UTF-8 (byte {exc.start})") from exc


class SaveSlots:
    """Named saves in one folder."""

    def __init__(self, folder: Path | str | None = None):
        self.folder = Path(folder) if folder is not None else default_save_dir()

    def path(self, name: object) -> Path:
        return self.folder / f"{slot_name(name)}.json"

    def write(self, name: object, doc: dict) -> Path:
        from game.engine.saves import write_save

        path = self.path(name)
        self.folder.mkdir(parents=True, exist_ok=True)
        return write_save(path, doc)  # a new file renamed over the slot: a link there is replaced, not followed

    def read(self, name: object) -> dict:
        path = self.path(name)
        text = read_regular(path, f"save slot '{name}'") if path.exists() or path.is_symlink() else None
        if text is None:
            raise StoreError(f"no save in slot '{name}'")
        try:
            return wire.parse(text)
        except wire.WireError as exc:
            raise StoreError(f"save slot '{name}': not a valid save file: {exc.message}") from exc

    def names(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.stem for p in self.folder.glob("*.json") if SLOT.fullmatch(p.stem) and p.is_file())


class ScenarioFolders:
    """The folders scenario files are taken from: the shipped one first, then the engine's own."""

    def __init__(self, extra: list[Path | str] | None = None):
        from game.rules.scenario import SCENARIO_DIR

        self.folders = [Path(SCENARIO_DIR), *(Path(p) for p in extra or [])]

    def find(self, ref: str) -> Path | None:
        """The file for an id (``village_sweep``) or a file name (``village_sweep.toml``); never a path."""
        name = ref[:-5] if ref.endswith(".toml") else ref
        if not SLOT.fullmatch(name):
            return None
        for folder in self.folders:
            p = folder / f"{name}.toml"
            if p.is_file() and not p.is_symlink():
                return p
        return None

    def ids(self) -> list[str]:
        seen: list[str] = []
        for folder in self.folders:
            for p in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
                if SLOT.fullmatch(p.stem) and p.stem not in seen and p.is_file() and not p.is_symlink():
                    seen.append(p.stem)  # only what ``find`` takes: no link, no FIFO listed as a scenario
        return seen

    def resolve(self, ref: object):
        """A scenario by id, by file name in a scenario folder, or inline (an object)."""
        import tomllib

        from game.rules.scenario import Problem, ScenarioError, scenario_from_text

        if isinstance(ref, dict):
            return build_checked(ref, "<inline>")
        if not isinstance(ref, str):
            raise ScenarioError([Problem("<request>", "scenario", "should be a scenario id or an inline object")])
        path = self.find(ref)
        if path is None:
            raise ScenarioError([Problem("<request>", "scenario",
                                         f"no scenario {ref[:60]!r} in the scenario folders (ids: "
                                         f"{', '.join(self.ids())}); a scenario is named by id, or sent inline")])
        try:
            text = read_regular(path, path.name)
        except StoreError as exc:
            raise ScenarioError([Problem(path.name, "", str(exc))]) from exc
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return scenario_from_text(text, path.name)  # the TOML error, with its line
        return build_checked(raw, path.name, text)


ARRAYS = ("terrain", "side", "element", "blind", "ambush_point", "objective")
"""The top-level arrays of tables of a scenario (docs/scenarios.md: ``[[terrain]]``, ``[[side]]``, ...)."""


def build_checked(raw: object, where: str, text: str | None = None):
    """A scenario object from outside (the wire, a save, a folder's file) read by the ruleset it names
    (``game.rulesets``), its top-level arrays checked first: a number where the builder iterates an array of tables is a
    problem reported (error 2), never an internal fault (DESIGN §4)."""
    from game import rulesets
    from game.rulesets.base import Problem, ScenarioError

    if not isinstance(raw, dict):
        raise ScenarioError([Problem(where, "", "a scenario must be a table/object")])
    bad = [Problem(where, key, f"should be an array of tables ([[{key}]]), got {type(raw[key]).__name__}")
           for key in ARRAYS if key in raw and not isinstance(raw[key], list)]
    if bad:
        raise ScenarioError(bad)
    return rulesets.named_by(raw, where).build_scenario(raw, where, text)  # the ruleset it names reads it

