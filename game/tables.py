"""The strict loader every data file under ``game/data`` shares: TOML tables into frozen dataclasses.

A field without a default is required; a key the dataclass does not know is an error; a value must
have the field's type, element by element for a list (``roles = "hmg"`` where ``list[str]`` belongs is
refused, not read as a string of letters). A field may declare a closed vocabulary (:func:`one_of`,
checked as the record is built) or name another table its values refer to (:func:`refers`, checked in a
second pass by :func:`check_refs` once every table is loaded). Every error names the file, the record
and the field.

It sits below both ``game.rules`` and ``game.world`` and imports nothing of either. What it leaves out:
what the tables mean (``game.terrain``, ``game.rules.data`` and each chapter's module) and the values
themselves, which live in the TOML files.
"""

from __future__ import annotations

import dataclasses
import functools
import tomllib
import types
import typing
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"
"""The shipped tables. Every loader takes a ``directory`` too, so a test can load a changed copy."""


class DataError(ValueError):
    """A rules data file is malformed; the message names file, record and field."""

    def __init__(self, file: str, record: str, message: str):
        self.file = file
        self.record = record
        super().__init__(f"{file}: {record}: {message}")


def one_of(values: Iterable[str]) -> dict[str, Any]:
    """Field metadata: the value (or each element of a list) must be one of a closed vocabulary."""
    return {"one_of": frozenset(values)}


def refers(table: str) -> dict[str, Any]:
    """Field metadata: the value (or each element of a list) is the id of a record of ``table`` (a name
    the caller of :func:`check_refs` maps to the file and its ids)."""
    return {"refers": table}


def _check_type(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint in (str, bool):
        return isinstance(value, hint)
    if hint is type(None):
        return value is None
    if origin in (typing.Union, types.UnionType):
        return any(_check_type(value, a) for a in typing.get_args(hint))
    if hint is list or origin is list:
        args = typing.get_args(hint)
        return isinstance(value, list) and (not args or all(_check_type(v, args[0]) for v in value))
    if hint is dict or origin is dict:
        args = typing.get_args(hint)
        return isinstance(value, dict) and (
            not args or all(_check_type(k, args[0]) and _check_type(v, args[1]) for k, v in value.items()))
    if hint is tuple or origin is tuple:
        return isinstance(value, (list, tuple))
    return True


def _items(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


@functools.cache
def field_types(cls: type) -> dict[str, Any]:
    """A record class's resolved field types, once a class (``typing.get_type_hints`` is slow; read-only)."""
    return typing.get_type_hints(cls)


def build(cls: type, raw: Any, file: str, record: str) -> Any:
    """Build one frozen dataclass from a TOML table, strictly: known keys, required fields present,
    types (list elements included) and closed vocabularies checked."""
    if not isinstance(raw, dict):
        raise DataError(file, record, f"expected a table, got {type(raw).__name__}")
    hints = field_types(cls)
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise DataError(file, record, f"unknown key(s) {', '.join(unknown)}")
    values = {}
    for f in dataclasses.fields(cls):
        if f.name not in raw:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise DataError(file, record, f"missing required field '{f.name}'")
            continue
        value = raw[f.name]
        if not _check_type(value, hints[f.name]):
            raise DataError(file, record, f"field '{f.name}' should be {_hint_name(hints[f.name])}, got {value!r}")
        allowed = f.metadata.get("one_of")
        if allowed is not None:
            for v in _items(value):
                if v not in allowed:
                    raise DataError(file, record, f"{f.name} {v!r} is not one of {sorted(allowed)}")
        if hints[f.name] is float and isinstance(value, int):
            value = float(value)
        elif hints[f.name] == list[float]:
            value = [float(v) for v in value]
        values[f.name] = value
    return cls(**values)


def _hint_name(hint: Any) -> str:
    return hint.__name__ if isinstance(hint, type) and not typing.get_args(hint) else str(hint)


def check_refs(item: Any, file: str, record: str, known: Mapping[str, tuple[str, Collection[str]]]) -> None:
    """The second pass: every field declared with :func:`refers` names a record that exists. ``known``
    maps a table name to (the file that defines it, its ids)."""
    for f in dataclasses.fields(item):
        table = f.metadata.get("refers")
        if table is None:
            continue
        where, ids = known[table]
        for v in _items(getattr(item, f.name)):
            if v not in ids:
                raise DataError(file, record, f"{f.name} {v!r} is not defined in {where}")


def read_toml(filename: str, directory: Path = DATA_DIR) -> dict[str, Any]:
    """Parse one data file; a syntax error names the file and the parser's line."""
    try:
        with open(directory / filename, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(filename, "(file)", f"not valid TOML: {exc}") from exc


def record_name(key: str, i: int, raw: Any) -> str:
    """How an error names the ``i``-th ``[[key]]`` record: ``stand[1] 'us_mg_team'``."""
    return f"{key}[{i}]" + (f" '{raw.get('id')}'" if isinstance(raw, dict) and "id" in raw else "")


def load_rows(filename: str, key: str, cls: type, doc: dict[str, Any]) -> dict[str, Any]:
    """Build the ``[[key]]`` records of a parsed file into a dict by id, in file order: each cites a
    clause, no id twice, at least one record."""
    rows = doc.get(key, [])
    if not isinstance(rows, list):
        raise DataError(filename, key, f"expected [[{key}]] records, got {type(rows).__name__}")
    out: dict[str, Any] = {}
    for i, raw in enumerate(rows):
        record = record_name(key, i, raw)
        item = build(cls, raw, filename, record)
        if not item.clause.strip():
            raise DataError(filename, record, "field 'clause' must cite a clause or gap id")
        if item.id in out:
            raise DataError(filename, record, f"duplicate id '{item.id}'")
        out[item.id] = item
    if not out:
        raise DataError(filename, "(file)", f"no [[{key}]] records")
    return out


def load_table(filename: str, key: str, cls: type, directory: Path = DATA_DIR) -> dict[str, Any]:
    """Load ``[[key]]`` records of one file into a dict by id, in file order."""
    doc = read_toml(filename, directory)
    extra = sorted(set(doc) - {key})
    if extra:
        raise DataError(filename, "(file)", f"unknown top-level key(s) {', '.join(extra)}")
    return load_rows(filename, key, cls, doc)


def load_sections(filename: str, sections: dict[str, type], directory: Path = DATA_DIR,
                  also: tuple[str, ...] = ()) -> tuple[dict[str, Any], dict[str, Any]]:
    """Load the single-valued ``[section]`` tables of a data file strictly: every section present,
    no unknown section (apart from the array tables named in ``also``), known keys only, a clause in
    each. Returns (the built sections by name, the parsed document for the caller's array tables)."""
    doc = read_toml(filename, directory)
    extra = sorted(set(doc) - set(sections) - set(also))
    if extra:
        raise DataError(filename, "(file)", f"unknown section(s) {', '.join(extra)}")
    built: dict[str, Any] = {}
    for sec, cls in sections.items():
        if sec not in doc:
            raise DataError(filename, f"[{sec}]", "section is missing")
        item = build(cls, doc[sec], filename, f"[{sec}]")
        if hasattr(item, "clause") and not item.clause.strip():
            raise DataError(filename, f"[{sec}]", "field 'clause' must cite a clause or gap id")
        built[sec] = item
    return built, doc
