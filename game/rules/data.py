"""The rulebook's tables, loaded from ``game/data/*.toml`` into frozen dataclasses.

Every record must name the clause (or GAPS entry) it comes from. A field without a default is
required; a key the dataclass does not know is an error; references between tables (a stand's base, a
faction's quality) are checked in a second pass. Every error names the file and the record.

What this module leaves out: the values themselves live in the TOML files, not here.
"""

from __future__ import annotations

import dataclasses
import tomllib
import types
import typing
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


class DataError(ValueError):
    """A rules data file is malformed; the message names file, record and field."""

    def __init__(self, file: str, record: str, message: str):
        self.file = file
        self.record = record
        super().__init__(f"{file}: {record}: {message}")


@dataclass(frozen=True)
class TerrainType:
    """One row of the Master Terrain Effects Matrix (G-01)."""

    id: str
    name: str
    clause: str
    move: str
    """normal | half | minus | fixed | impassable"""
    cover: str
    """open | light | medium | heavy | water (DD-5.4, DD-5.6)"""
    to_hit: int
    save: int
    spot: int
    los_cutoff: float
    """Maximum sightline length through this terrain, inches (G-02); 0 blocks sight."""
    dense: bool
    """Dense terrain: 4" command radius (DD-1.13) and 4" AI trigger (DD-10.7)."""
    move_value: float = 0.0
    move_cap: float = 0.0
    overlay: bool = False
    """Laid over other terrain (trail, bund, trench, hill): the base terrain still applies."""
    trail: bool = False
    sprint_winds: bool = False
    noisy: bool = False
    water: bool = False
    vegetation: bool = False
    building: bool = False
    building_height: float = 0.0
    fortification: bool = False
    elevation: bool = False
    uphill_half: bool = False
    """Steep slopes: half speed uphill (G-01 T14)."""
    canopy: str = "none"
    canopy_bottom: float = 0.0
    canopy_top: float = 0.0

    def allowance(self, base: float) -> float:
        """The movement allowance left from ``base`` inches in this terrain (G-01)."""
        if self.move == "impassable":
            return 0.0
        if self.move == "half":
            value = base / 2.0
        elif self.move == "minus":
            value = max(0.0, base - self.move_value)
        elif self.move == "fixed":
            value = min(base, self.move_value)
        else:
            value = base
        if self.move_cap > 0:
            value = min(value, self.move_cap)
        return value


@dataclass(frozen=True)
class BaseSize:
    """A base footprint (DD-1.7)."""

    id: str
    name: str
    clause: str
    width: float
    depth: float


@dataclass(frozen=True)
class Quality:
    """Troop quality and its morale target (DD-5.20)."""

    id: str
    name: str
    clause: str
    morale: int


@dataclass(frozen=True)
class Faction:
    id: str
    name: str
    side: str
    quality: str
    clause: str


@dataclass(frozen=True)
class StandType:
    """A kind of stand: base, firepower and role (G-03, G-20)."""

    id: str
    name: str
    side: str
    base: str
    role: str
    fp: int
    range: float
    hits: int
    model: str
    clause: str
    officer: bool = False
    squad_leader: bool = False
    radio: bool = False
    heavy_weapon: bool = False


@dataclass(frozen=True)
class CommandRules:
    clause: str
    radius_open: float
    radius_dense: float
    radius_night: float
    coherency: float
    base_contact: float
    cost_in_command: int
    cost_out_of_command: int
    cost_emergency: int


@dataclass(frozen=True)
class MovementRules:
    clause: str
    patrol: float
    trail_rush: float
    sprint: float
    fire_maneuver: float
    pinned_retreat: float


@dataclass(frozen=True)
class TurnRules:
    clause: str
    default_turns: int
    max_activations: int
    max_move_actions: int
    first_side: str
    ambush_tokens_start: int
    ambush_tokens_income: int
    ambush_tokens_tunnel_bonus: int
    ambush_tokens_max: int
    second_activation_tokens: int


@dataclass(frozen=True)
class VictoryRules:
    clause: str
    allied_win: int
    insurgent_win: int


SIDES = ("allied", "insurgent")
ROLES = {
    "rifle", "mg", "hmg", "commander", "squad_leader", "rto", "medic", "scout", "sniper", "sapper",
    "mortar", "recoilless", "flamethrower", "fo",
}
MOVES = {"normal", "half", "minus", "fixed", "impassable"}
COVERS = {"open", "light", "medium", "heavy", "water"}


def _check_type(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint in (str, bool):
        return isinstance(value, hint)
    if origin in (typing.Union, types.UnionType):
        return any(_check_type(value, a) for a in typing.get_args(hint))
    if hint is type(None):
        return value is None
    return True


def build(cls: type, raw: Any, file: str, record: str) -> Any:
    """Build one frozen dataclass from a TOML table, strictly."""
    if not isinstance(raw, dict):
        raise DataError(file, record, f"expected a table, got {type(raw).__name__}")
    hints = typing.get_type_hints(cls)
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
            raise DataError(file, record, f"field '{f.name}' should be {hints[f.name]}, got {value!r}")
        if hints[f.name] is float and isinstance(value, int):
            value = float(value)
        values[f.name] = value
    return cls(**values)


def load_table(filename: str, key: str, cls: type, directory: Path = DATA_DIR) -> dict[str, Any]:
    """Load ``[[key]]`` records of one file into a dict by id, in file order."""
    doc = read_toml(filename, directory)
    extra = sorted(set(doc) - {key})
    if extra:
        raise DataError(filename, "(file)", f"unknown top-level key(s) {', '.join(extra)}")
    out: dict[str, Any] = {}
    for i, raw in enumerate(doc.get(key, [])):
        record = f"{key}[{i}]" + (f" '{raw.get('id')}'" if isinstance(raw, dict) and "id" in raw else "")
        item = build(cls, raw, filename, record)
        if not item.clause.strip():
            raise DataError(filename, record, "field 'clause' must cite a clause or gap id")
        if item.id in out:
            raise DataError(filename, record, f"duplicate id '{item.id}'")
        out[item.id] = item
    if not out:
        raise DataError(filename, "(file)", f"no [[{key}]] records")
    return out


@dataclass(frozen=True)
class Rulebook:
    """All of the core rules data, checked as a whole."""

    terrain: dict[str, TerrainType]
    bases: dict[str, BaseSize]
    qualities: dict[str, Quality]
    factions: dict[str, Faction]
    stands: dict[str, StandType]
    command: CommandRules
    movement: MovementRules
    turn: TurnRules
    victory: VictoryRules
    extra: dict[str, Any] = field(default_factory=dict)

    def base_of(self, stand_type: str) -> BaseSize:
        return self.bases[self.stands[stand_type].base]


def _check_references(book: Rulebook) -> None:
    for t in book.terrain.values():
        rec = f"terrain '{t.id}'"
        if t.move not in MOVES:
            raise DataError("terrain.toml", rec, f"move '{t.move}' is not one of {sorted(MOVES)}")
        if t.cover not in COVERS:
            raise DataError("terrain.toml", rec, f"cover '{t.cover}' is not one of {sorted(COVERS)}")
        if not 2 <= t.save <= 6:
            raise DataError("terrain.toml", rec, f"save {t.save} is outside 2..6")
    for q in book.qualities.values():
        if not 2 <= q.morale <= 6:
            raise DataError("qualities.toml", f"quality '{q.id}'", f"morale {q.morale} is outside 2..6")
    for f in book.factions.values():
        rec = f"faction '{f.id}'"
        if f.side not in SIDES:
            raise DataError("factions.toml", rec, f"side '{f.side}' is not one of {SIDES}")
        if f.quality not in book.qualities:
            raise DataError("factions.toml", rec, f"quality '{f.quality}' is not defined in qualities.toml")
    for s in book.stands.values():
        rec = f"stand '{s.id}'"
        if s.base not in book.bases:
            raise DataError("stands.toml", rec, f"base '{s.base}' is not defined in bases.toml")
        if s.side not in SIDES:
            raise DataError("stands.toml", rec, f"side '{s.side}' is not one of {SIDES}")
        if s.role not in ROLES:
            raise DataError("stands.toml", rec, f"role '{s.role}' is not one of {sorted(ROLES)}")
        if s.hits < 1:
            raise DataError("stands.toml", rec, "hits must be at least 1")
    if book.turn.first_side not in SIDES:
        raise DataError("rules.toml", "[turn]", f"first_side '{book.turn.first_side}' is not a side")


def read_toml(filename: str, directory: Path = DATA_DIR) -> dict[str, Any]:
    """Parse one data file; a syntax error names the file and the parser's line."""
    try:
        with open(directory / filename, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(filename, "(file)", f"not valid TOML: {exc}") from exc


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


def load_rulebook(directory: Path = DATA_DIR) -> Rulebook:
    """Load and cross-check every core table."""
    sections = {"command": CommandRules, "movement": MovementRules, "turn": TurnRules, "victory": VictoryRules}
    built, _ = load_sections("rules.toml", sections, directory)
    book = Rulebook(
        terrain=load_table("terrain.toml", "terrain", TerrainType, directory),
        bases=load_table("bases.toml", "base", BaseSize, directory),
        qualities=load_table("qualities.toml", "quality", Quality, directory),
        factions=load_table("factions.toml", "faction", Faction, directory),
        stands=load_table("stands.toml", "stand", StandType, directory),
        **built,
    )
    _check_references(book)
    return book


@cache
def rulebook() -> Rulebook:
    """The shipped rulebook, loaded once per process."""
    return load_rulebook()
