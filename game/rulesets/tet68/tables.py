"""The Tet '68 tables (``data/tet68.toml``), loaded strictly (game.tables): every row cites its clause."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from game.tables import DataError, build, load_rows, one_of, read_toml

DATA = Path(__file__).resolve().parent / "data"
FILE = "tet68.toml"


@dataclass(frozen=True)
class DiceRules:
    clause: str
    d3: str = field(metadata=one_of(("half_up",)))


@dataclass(frozen=True)
class FigureRules:
    clause: str
    height: float
    eye: float


@dataclass(frozen=True)
class BodyPoint:
    id: str
    height: float
    clause: str


@dataclass(frozen=True)
class Pose:
    id: str
    scale: float
    lean: float
    clause: str


@dataclass(frozen=True)
class Stat:
    id: str
    initiative_dice: int
    initiative_plus: int
    ws_dice: int
    clause: str


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    bands: list[float]
    clause: str
    auto: bool = False
    min_range: float = 0.0
    blast: float = 0.0


@dataclass(frozen=True)
class FireRules:
    clause: str
    multipliers: list[float]
    auto_factor: float
    cone_width: float


@dataclass(frozen=True)
class BlastRules:
    clause: str
    radius: float
    height: float
    scatter_die: int
    direction_die: int
    room_exposure: int


@dataclass(frozen=True)
class GrenadeRules:
    clause: str
    per_figure: int
    bands: str


@dataclass(frozen=True)
class MeleeRules:
    clause: str
    contact: float


@dataclass(frozen=True)
class MoveRules:
    clause: str
    open: float
    tile: float
    building: float
    chest: float
    low_wall: float
    high_wall: float
    limit: float


@dataclass(frozen=True)
class Tables:
    dice: DiceRules
    figure: FigureRules
    fire: FireRules
    movement: MoveRules
    blast: BlastRules
    grenade: GrenadeRules
    melee: MeleeRules
    body: dict[str, BodyPoint]
    poses: dict[str, Pose]
    stats: dict[str, Stat]
    weapons: dict[str, Weapon]


@cache
def tables(directory: Path = DATA) -> Tables:
    doc = read_toml(FILE, directory)
    known = {"dice", "figure", "fire", "movement", "blast", "grenade", "melee", "body", "pose", "stat", "weapon"}
    extra = sorted(set(doc) - known)
    if extra:
        raise DataError(FILE, "(file)", f"unknown section(s) {', '.join(extra)}")
    out = Tables(
        dice=build(DiceRules, doc.get("dice"), FILE, "[dice]"),
        figure=build(FigureRules, doc.get("figure"), FILE, "[figure]"),
        fire=build(FireRules, doc.get("fire"), FILE, "[fire]"),
        movement=build(MoveRules, doc.get("movement"), FILE, "[movement]"),
        blast=build(BlastRules, doc.get("blast"), FILE, "[blast]"),
        grenade=build(GrenadeRules, doc.get("grenade"), FILE, "[grenade]"),
        melee=build(MeleeRules, doc.get("melee"), FILE, "[melee]"),
        body=load_rows(FILE, "body", BodyPoint, doc),
        poses=load_rows(FILE, "pose", Pose, doc),
        stats=load_rows(FILE, "stat", Stat, doc),
        weapons=load_rows(FILE, "weapon", Weapon, doc),
    )
    for w in out.weapons.values():
        if len(w.bands) != len(out.fire.multipliers) or list(w.bands) != sorted(w.bands):
            raise DataError(FILE, f"weapon '{w.id}'", "field 'bands': one rising band top per multiplier (TET-11)")
    if out.grenade.bands not in out.weapons:
        raise DataError(FILE, "[grenade]", f"field 'bands': no weapon {out.grenade.bands!r} (G-41: the SMG's)")
    heights = [b.height for b in out.body.values()]
    if list(out.body) != ["head", "chest", "stomach", "groin", "boots"] or heights != sorted(heights, reverse=True):
        raise DataError(FILE, "body", "the five places of TET-16, head down")
    return out
