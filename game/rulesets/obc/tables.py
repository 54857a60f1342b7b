"""The One Brain-Cell tables (``data/obc.toml``), loaded strictly (game.tables) into frozen dataclasses:
every row cites its clause or G-42, and the lookups below are the only readers of the printed tables.

What it leaves out: when a table is consulted and what its answer does (``firing``, ``morale``, ``game``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from game.tables import DataError, build, load_rows, one_of, read_toml

DATA = Path(__file__).resolve().parent / "data"
FILE = "obc.toml"
POSTURES = ("lying", "standing")
COLUMNS = ("lying", "standing", "soft", "hard", "soft_blind")
MG_ENTRIES = ("2d6", "1d6", "half_d6", "5+", "6+", "-")
BANDS = ("short", "medium", "long")


@dataclass(frozen=True)
class DiceRules:
    clause: str
    half_d6: str = field(metadata=one_of(("half_up",)))


@dataclass(frozen=True)
class FigureRules:
    clause: str
    eye_standing: float
    eye_lying: float
    body_standing: float
    body_lying: float
    contact: float
    spacing: float


@dataclass(frozen=True)
class Ground:
    id: str
    going: str = field(metadata=one_of(("road", "country", "rough", "impassable")))
    cover: str = field(metadata=one_of(("none", "soft", "hard")))
    clause: str = ""


@dataclass(frozen=True)
class Rate:
    id: str
    road: float
    country: float
    rough: float
    clause: str

    def on(self, going: str) -> float:
        return 0.0 if going == "impassable" else getattr(self, going)


@dataclass(frozen=True)
class MoveRules:
    clause: str
    enter: float
    hedge: float
    one_crew: float
    fire_move: float
    run: float
    retreat: float
    wounded: float
    carry_one: float
    carry_two: float
    tracked_wall: float
    tank_wall: float
    tank_fast: float
    chopper_climb: float
    height_step: float
    chopper_fast: float
    vehicle_fast: float
    debus_per_sixth: int
    embus_per: float
    step_off: float


@dataclass(frozen=True)
class Weapon:
    id: str
    kind: str = field(metadata=one_of(("small_arms", "mg", "bomb", "large_calibre", "radio", "none")))
    short: float = 0.0
    medium: float = 0.0
    long: float = 0.0
    clause: str = ""
    least: float = 0.0

    def band(self, distance: float) -> str | None:
        """The range band a distance falls in (OBC-20, OBC-25), or None: out of range."""
        if distance < self.least:
            return None
        for b in BANDS:
            if distance <= getattr(self, b):
                return b
        return None


@dataclass(frozen=True)
class RifleRow:
    id: str
    lying: int
    standing: int
    soft: int
    hard: int
    soft_blind: int
    clause: str


@dataclass(frozen=True)
class RifleMods:
    clause: str
    fleeting: int
    still: int
    out_of_command: int
    wounded: int


@dataclass(frozen=True)
class MgRow:
    id: str
    lying: str = field(metadata=one_of(MG_ENTRIES))
    standing: str = field(metadata=one_of(MG_ENTRIES))
    soft: str = field(metadata=one_of(MG_ENTRIES))
    hard: str = field(metadata=one_of(MG_ENTRIES))
    soft_blind: str = field(metadata=one_of(MG_ENTRIES))
    hard_blind: str = field(metadata=one_of(MG_ENTRIES))
    clause: str = ""


@dataclass(frozen=True)
class MgRules:
    clause: str
    burst: float
    cap: int
    half_single: int


@dataclass(frozen=True)
class Band:
    """A row keyed by the top of its d6 scores (fire effects, morale effects, HTH results)."""

    id: str
    high: int
    clause: str


@dataclass(frozen=True)
class SoftVehicle:
    clause: str
    hits: int
    hits_one_move: int
    occupant_dead: int
    per_occupant_hits: int


@dataclass(frozen=True)
class Bombs:
    clause: str
    square: float
    hit_faces: int
    directions: int
    adjacent_pinned: float
    smoke_drift: float


@dataclass(frozen=True)
class LargeCalibre:
    clause: str
    step: float
    reach: float


@dataclass(frozen=True)
class ArmourRow:
    id: str
    range: float
    none: int
    immobilised: int
    clause: str


@dataclass(frozen=True)
class ArmourMods:
    clause: str
    rear: int
    front: int
    fast_tank: int
    immobilised_moves: int


@dataclass(frozen=True)
class Need:
    id: str
    need: int
    clause: str


@dataclass(frozen=True)
class GrenadeRules:
    clause: str
    touch: float
    moved: float
    room: float


@dataclass(frozen=True)
class MoraleRules:
    clause: str
    elite: int
    civilian: int
    effect_elite: int
    effect_civilian: int
    effect_out_of_command: int
    friend_down: float
    rally_pinned: int


@dataclass(frozen=True)
class Authority:
    clause: str
    zone: float
    least: int
    most: int
    successor: int


@dataclass(frozen=True)
class Radio:
    clause: str
    levels_per_turn: int


@dataclass(frozen=True)
class Mod:
    id: str
    value: int
    clause: str


@dataclass(frozen=True)
class Victory:
    clause: str
    objective: int
    enemy_down: int
    left_behind: int


@dataclass(frozen=True)
class Tables:
    dice: DiceRules
    figure: FigureRules
    movement: MoveRules
    rifle_mods: RifleMods
    mg_rules: MgRules
    soft_vehicle: SoftVehicle
    bombs: Bombs
    large_calibre: LargeCalibre
    armour_mods: ArmourMods
    grenade_rules: GrenadeRules
    morale: MoraleRules
    authority: Authority
    radio: Radio
    victory: Victory
    ground: dict[str, Ground]
    rates: dict[str, Rate]
    weapons: dict[str, Weapon]
    rifle: dict[str, RifleRow]
    mg: dict[str, MgRow]
    effects: dict[str, Band]
    armour: dict[str, ArmourRow]
    grenades: dict[str, Need]
    morale_checks: dict[str, Need]
    morale_effects: dict[str, Band]
    hth_mods: dict[str, Mod]
    hth_results: dict[str, Band]

    # -- the lookups ---------------------------------------------------------------------------------
    def rifle_need(self, band: str, column: str) -> int:
        """OBC-21: the score a rifle or SMG needs at this band against this posture or cover (0: none)."""
        return getattr(self.rifle[band], column)

    def mg_entry(self, band: str, column: str) -> str:
        """OBC-26: the MG table's entry at this band for this column ("-": a blank)."""
        return getattr(self.mg[band], column)

    def effect(self, score: int) -> Band:
        """OBC-29: the fire effect of a d6."""
        return _banded(self.effects, score)

    def morale_effect(self, score: int) -> Band:
        """OBC-45: the failed-morale effect of a d6 after its modifiers (below 1 the first row, above 6 the last)."""
        return _banded(self.morale_effects, score)

    def hth_result(self, difference: int) -> Band | None:
        """OBC-51: what the loser suffers by the difference of the scores; None: a tie, deadlock."""
        return None if difference <= 0 else _banded(self.hth_results, difference)

    def lcg_need(self, distance: float) -> int | None:
        """OBC-34 as C-33 reads it: floor(range / 6) + 1 on a d6 (1: sure); None past the reach."""
        lc = self.large_calibre
        return None if distance > lc.reach else int(distance // lc.step) + 1

    def armour_row(self, distance: float) -> ArmourRow | None:
        """OBC-35: the row for a range (the last row's range is the table's reach)."""
        return next((r for r in self.armour.values() if distance <= r.range), None)

    def armour_effect(self, distance: float, score: int) -> str | None:
        """OBC-35: none, immobilised or destroyed for a modified d6 at a range; None out of the table."""
        row = self.armour_row(distance)
        if row is None:
            return None
        return "none" if score <= row.none else "immobilised" if score <= row.immobilised else "destroyed"


def _banded(rows: dict[str, Band], score: int) -> Band:
    for r in rows.values():
        if score <= r.high:
            return r
    return list(rows.values())[-1]


SECTIONS = {"dice": DiceRules, "figure": FigureRules, "movement": MoveRules, "rifle_mods": RifleMods,
            "mg_rules": MgRules, "soft_vehicle": SoftVehicle, "bombs": Bombs, "large_calibre": LargeCalibre,
            "armour_mods": ArmourMods, "grenade_rules": GrenadeRules, "morale": MoraleRules,
            "authority": Authority, "radio": Radio, "victory": Victory}
ROWS = {"ground": ("ground", Ground), "rates": ("rate", Rate), "weapons": ("weapon", Weapon),
        "rifle": ("rifle", RifleRow), "mg": ("mg", MgRow), "effects": ("effect", Band),
        "armour": ("armour", ArmourRow), "grenades": ("grenade", Need), "morale_checks": ("morale_check", Need),
        "morale_effects": ("morale_effect", Band), "hth_mods": ("hth_mod", Mod), "hth_results": ("hth_result", Band)}


@cache
def tables(directory: Path = DATA) -> Tables:
    doc = read_toml(FILE, directory)
    known = set(SECTIONS) | {key for key, _ in ROWS.values()}
    extra = sorted(set(doc) - known)
    if extra:
        raise DataError(FILE, "(file)", f"unknown section(s) {', '.join(extra)}")
    kw = {name: build(cls, doc.get(name), FILE, f"[{name}]") for name, cls in SECTIONS.items()}
    for name in SECTIONS:
        if not kw[name].clause.strip():
            raise DataError(FILE, f"[{name}]", "field 'clause' must cite a clause or gap id")
    kw.update({name: load_rows(FILE, key, cls, doc) for name, (key, cls) in ROWS.items()})
    out = Tables(**kw)
    for key in ("rifle", "mg"):
        if list(getattr(out, key)) != list(BANDS):
            raise DataError(FILE, key, f"the three range bands {', '.join(BANDS)}, in order (OBC-21, OBC-26)")
    for key in ("effects", "morale_effects", "hth_results"):
        highs = [r.high for r in getattr(out, key).values()]
        if highs != sorted(highs) or len(set(highs)) != len(highs):
            raise DataError(FILE, key, "rows rising by their top score")
    for w in out.weapons.values():
        if not w.short <= w.medium <= w.long:
            raise DataError(FILE, f"weapon '{w.id}'", "bands short <= medium <= long")
    for need in list(out.grenades.values()) + list(out.morale_checks.values()):
        if not 1 <= need.need <= 7:
            raise DataError(FILE, need.id, "field 'need': a d6 score 1..7")
    for going in {"road", "country", "rough"}:
        if any(r.on(going) < 0 for r in out.rates.values()):
            raise DataError(FILE, "rate", "no negative rate")
    return out
