"""The rulebook's tables, loaded from ``game/data/*.toml`` into frozen dataclasses.

Every record must name the clause (or GAPS entry) it comes from. A field without a default is
required; a key the dataclass does not know is an error; a value must have its field's type, each
element of a list too; a closed vocabulary (a stand's role, a side) is declared on its field and checked
as the record is built; references between tables (a stand's base, a faction's quality) are declared on
their fields and checked in a second pass. Every error names the file, the record and the field. The
strict loader itself is ``game.tables``; the terrain table and its vocabulary are ``game.terrain`` (below
both the rules and the world). Every loader takes a ``directory``, so a test can load a changed copy.

What this module leaves out: the values themselves live in the TOML files, not here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from game.tables import (
    DATA_DIR,
    DataError,
    build,
    check_refs,
    load_sections,
    load_table,
    one_of,
    read_toml,
    refers,
)
from game.terrain import COVERS, MOVES, TerrainType, load_terrain

__all__ = [
    "DATA_DIR", "DataError", "build", "check_refs", "load_sections", "load_table", "read_toml", "one_of",
    "refers", "COVERS", "MOVES", "TerrainType", "SIDES", "ROLES", "Rulebook", "load_rulebook", "rulebook",
    "check_chapter_refs",
]

SIDES = ("allied", "insurgent")
ROLES = (
    "rifle", "mg", "hmg", "commander", "squad_leader", "rto", "medic", "scout", "sniper", "sapper",
    "mortar", "recoilless", "flamethrower", "fo", "vehicle", "at", "tunnel_rat",
)
"""What a stand does (G-03, G-20): the rules ask a stand's role, so the roles are a closed vocabulary."""


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
    side: str = field(metadata=one_of(SIDES))
    quality: str = field(metadata=refers("qualities"))
    clause: str


@dataclass(frozen=True)
class StandType:
    """A kind of stand: base, firepower and role (G-03, G-20). ``hits`` is its durability (DD-1.6, G-20):
    the hits that remove it, 2 for a Medium stand and 1 for a Small one; a Medium stand with one hit
    wears the Red Casualty Ring (wounded: half its firepower, DD-5.11)."""

    id: str
    name: str
    side: str = field(metadata=one_of(SIDES))
    base: str = field(metadata=refers("bases"))
    role: str = field(metadata=one_of(ROLES))
    fp: int
    range: float
    hits: int
    model: str
    clause: str
    officer: bool = False
    squad_leader: bool = False
    radio: bool = False
    heavy_weapon: bool = False
    vehicle: str = ""
    """A vehicle's stand: its roster id in ``vehicles.toml`` (DD chapter 7, G-06; ``game.rules.vehicles``)."""
    at: str = ""
    """An infantry anti-tank weapon it carries: a weapon id of ``armour.toml`` (DD-7.4, G-05)."""


@dataclass(frozen=True)
class ScaleRules:
    """Ground, figure and time scale (DD-1.1, DD-1.3): what a table inch and a Game Turn stand for. The
    engine measures every distance in inches and counts time in turns; the view's scenario summary
    carries these so a client can say a distance in metres and a turn in minutes."""

    clause: str
    unit: str = field(metadata=one_of(("inch",)))
    metres_per_inch: float
    figure_scale: int
    """Figures are 1:``figure_scale`` (15mm)."""
    turn_minutes: list[int]
    """A Game Turn's tactical time, [fewest, most] minutes."""


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
    first_side: str = field(metadata=one_of(SIDES))
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
    kia: int
    """VP for each Allied casualty that is KIA at the end, extracted or not (DD-3.17, C-02)."""
    left_on_table: int
    """VP for each living Allied casualty still on the table at the end (DD-3.17, C-02)."""


@dataclass(frozen=True)
class DiceRules:
    """The dice convention of Dinky Dau's tests (G-31), read by ``game.rules.dice``."""

    clause: str
    natural_success: int
    """The face that always succeeds, whatever the modifiers."""
    natural_failure: int
    """The face that always fails."""
    best_need: int
    """The best a modified target can be (DD-5.5): never better than this score."""


@dataclass(frozen=True)
class BleedRules:
    """Bleed & Triage (DD-2.31, DD-6.4, C-01)."""

    clause: str
    survives_on: int
    """An untended casualty's 1d6: below this it is KIA, on this or more it clings to life."""


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
    dice: DiceRules
    bleed: BleedRules
    scale: ScaleRules
    extra: dict[str, Any] = field(default_factory=dict)

    def base_of(self, stand_type: str) -> BaseSize:
        return self.bases[self.stands[stand_type].base]

    def tables(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """The tables a field may refer to (``game.tables.refers``): name -> (its file, its records)."""
        return {"terrain": ("terrain.toml", self.terrain), "bases": ("bases.toml", self.bases),
                "qualities": ("qualities.toml", self.qualities), "factions": ("factions.toml", self.factions),
                "stands": ("stands.toml", self.stands)}


CORE_TABLES = (("terrain.toml", "terrain"), ("bases.toml", "bases"), ("qualities.toml", "qualities"),
               ("factions.toml", "factions"), ("stands.toml", "stands"))
"""(file, Rulebook field) of each [[record]] table, for the second pass."""
RECORD_NAMES = {"terrain": "terrain", "bases": "base", "qualities": "quality", "factions": "faction",
                "stands": "stand"}


def _check_references(book: Rulebook) -> None:
    known = book.tables()
    for filename, attr in CORE_TABLES:
        for item in getattr(book, attr).values():
            check_refs(item, filename, f"{RECORD_NAMES[attr]} '{item.id}'", known)
    for q in book.qualities.values():
        if not 2 <= q.morale <= 6:
            raise DataError("qualities.toml", f"quality '{q.id}'", f"morale {q.morale} is outside 2..6")
    for s in book.stands.values():
        if s.hits < 1:
            raise DataError("stands.toml", f"stand '{s.id}'", "hits must be at least 1")
    d = book.dice
    if not 1 <= d.natural_failure < d.natural_success <= 6 or not 1 <= d.best_need <= 6:
        raise DataError("rules.toml", "[dice]", "natural_failure < natural_success and best_need must be d6 faces")
    sc = book.scale
    if sc.metres_per_inch <= 0 or sc.figure_scale < 1 or len(sc.turn_minutes) != 2 \
            or not 0 < sc.turn_minutes[0] <= sc.turn_minutes[1]:
        raise DataError("rules.toml", "[scale]", "metres_per_inch > 0, figure_scale >= 1 and turn_minutes "
                                                 "[fewest, most] with 0 < fewest <= most")
    if not 1 <= book.bleed.survives_on <= 6:
        raise DataError("rules.toml", "[bleed]", f"survives_on {book.bleed.survives_on} is not a d6 face")


RULES_SECTIONS = {"command": CommandRules, "movement": MovementRules, "turn": TurnRules, "victory": VictoryRules,
                  "dice": DiceRules, "bleed": BleedRules, "scale": ScaleRules}


def load_rulebook(directory: Path = DATA_DIR) -> Rulebook:
    """Load and cross-check every core table."""
    built, _ = load_sections("rules.toml", RULES_SECTIONS, directory)
    book = Rulebook(
        terrain=load_terrain(directory),
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


def check_chapter_refs(filename: str, records: dict[str, Any], book: Rulebook | None = None) -> None:
    """The second pass for a chapter's tables: each built record (by how errors name it, ``[grazing]``)
    may only refer to records that ``book`` (by default the shipped rulebook) has."""
    known = (book or rulebook()).tables()
    for record, item in records.items():
        check_refs(item, filename, record, known)
