"""The terrain vocabulary both the rules and the world use (DESIGN §10 "Table"): terrain types, their
closed vocabularies, and the visual limits on a sightline.

* :class:`TerrainType` is one row of the Master Terrain Effects Matrix (``game/data/terrain.toml``,
  G-01): movement, cover, spotting, LOS cutoff, and what the 3D table bakes.
* :class:`Sight` holds the limits on any sightline before terrain (``game/data/sight.toml``): the 24"
  open limit (DD-4.1), elevation (DD-4.41), the woodline band (DD-4.2), weather (DD-3.8, G-07) and time
  of day (G-23).
* :class:`TerrainBook` is what ``game.world`` asks of a rulebook: its terrain table. The rules'
  ``Rulebook`` is one; :func:`terrain_book` is the shipped table on its own.

It sits below ``game.rules`` and ``game.world`` and imports nothing of either. What it leaves out: the
rest of the rulebook (``game.rules.data``) and geometry (``game.world``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Protocol

from game.tables import DATA_DIR, DataError, load_rows, load_sections, load_table, one_of

MOVES = ("normal", "half", "minus", "fixed", "impassable")
"""How a terrain changes a move (G-01): in full, half, minus ``move_value``, fixed at it, or not at all."""
COVER_ORDER = {"open": 0, "water": 0, "light": 1, "medium": 2, "heavy": 3}
"""The cover classes (DD-5.4, DD-5.6), ranked: a stand takes the best cover at its centre (G-01 rule 1)."""
COVERS = tuple(COVER_ORDER)
CANOPIES = ("none", "light", "rubber", "secondary", "dense", "bamboo")
GOINGS = ("road", "cross", "half", "paddy", "swim", "impassable")
"""How a vehicle goes over a terrain (G-01 "Tracked / Wheeled"): its roster's road, cross-country, paddy
or swimming speed, half its cross-country speed, or not at all."""
"""The foliage classes a canopy volume is baked as (DD-4.1, G-02); ``none``: no canopy."""


@dataclass(frozen=True)
class TerrainType:
    """One row of the Master Terrain Effects Matrix (G-01)."""

    id: str
    name: str
    clause: str
    move: str = field(metadata=one_of(MOVES))
    """normal | half | minus | fixed | impassable"""
    cover: str = field(metadata=one_of(COVERS))
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
    wall_band: float = 0.0
    """A building a stand inside sees out of: within this many inches of its wall, the building's own
    walls do not block its sightlines, out or in (G-01 T10; T11 read as a stand at a window); 0: none,
    the building blocks whole."""
    fortification: bool = False
    elevation: bool = False
    uphill_half: bool = False
    """Steep slopes: half speed uphill (G-01 T14)."""
    canopy: str = field(default="none", metadata=one_of(CANOPIES))
    canopy_bottom: float = 0.0
    canopy_top: float = 0.0
    tracked: str = field(default="cross", metadata=one_of(GOINGS))
    """How a tracked vehicle goes here (G-01 "Tracked / Wheeled"): a speed of its roster row (road, cross,
    paddy, swim), half its cross-country speed, or impassable (``game.rules.vehicles``)."""
    wheeled: str = field(default="cross", metadata=one_of(GOINGS))
    """How a wheeled vehicle goes here (G-01), as ``tracked``."""
    vehicle_cap: float = 0.0
    """Inches a vehicle may move at most through this terrain (G-01 T9: 3"), 0: no cap."""

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


def load_terrain(directory: Path = DATA_DIR) -> dict[str, TerrainType]:
    """Load ``terrain.toml`` strictly (known keys, types, vocabularies, a clause in each row)."""
    table = load_table("terrain.toml", "terrain", TerrainType, directory)
    for t in table.values():
        if not 2 <= t.save <= 6:
            raise DataError("terrain.toml", f"terrain '{t.id}'", f"save {t.save} is outside 2..6")
        if t.wall_band < 0 or (t.wall_band > 0 and not t.building):
            raise DataError("terrain.toml", f"terrain '{t.id}'", "field 'wall_band' is inches >= 0, on a building only")
    return table


class TerrainBook(Protocol):
    """What the world needs of a rulebook: the terrain table by id."""

    @property
    def terrain(self) -> dict[str, TerrainType]: ...


@dataclass(frozen=True)
class TerrainTable:
    """The terrain table on its own: a :class:`TerrainBook` without the rest of the rules."""

    terrain: dict[str, TerrainType]


@cache
def terrain_book() -> TerrainTable:
    """The shipped terrain table, loaded once per process (the world's default)."""
    return TerrainTable(load_terrain())


# -- the limits on a sightline (game/data/sight.toml) ----------------------------------------------
@dataclass(frozen=True)
class OpenLimit:
    clause: str
    limit: float


@dataclass(frozen=True)
class Elevation:
    clause: str
    height: float
    bonus: float


@dataclass(frozen=True)
class Woodline:
    clause: str
    band: float


@dataclass(frozen=True)
class WeatherLimit:
    """One weather's cap on every sightline (DD-3.8, G-07)."""

    id: str
    clause: str
    cap: float = 0.0
    """Inches on every turn (after the last of ``through_turn``); 0: none."""
    caps: list[float] = field(default_factory=list)
    through_turn: list[int] = field(default_factory=list)
    """``caps[i]`` applies up to and including turn ``through_turn[i]`` (ground mist lifting, G-07)."""

    def cap_on(self, turn: int) -> float | None:
        """The cap on this turn, or None."""
        for last, cap in zip(self.through_turn, self.caps, strict=True):
            if turn <= last:
                return cap
        return self.cap or None


@dataclass(frozen=True)
class TimeLimit:
    """A time of day's cap on sight outside an illuminated circle (G-23)."""

    id: str
    clause: str
    cap: float = 0.0
    """Inches; 0: none."""
    night: bool = False
    """Night (G-16, DD-4.40, DD-9A): the night rules apply."""

    @property
    def poor_light(self) -> bool:
        """Dawn, dusk and night: sight is capped (G-23), and spotting is harder."""
        return self.cap > 0


@dataclass(frozen=True)
class Sight:
    """The visual limits on any sightline before terrain."""

    open: OpenLimit
    elevation: Elevation
    woodline: Woodline
    weather: dict[str, WeatherLimit]
    time: dict[str, TimeLimit]


def load_sight(directory: Path = DATA_DIR) -> Sight:
    """Load ``sight.toml`` strictly: the three sections, a row per weather and per time of day (the
    default conditions, ``clear`` and ``day``, among them), caps that make sense."""
    name = "sight.toml"
    sections = {"open": OpenLimit, "elevation": Elevation, "woodline": Woodline}
    built, doc = load_sections(name, sections, directory, also=("weather", "time"))
    weather = load_rows(name, "weather", WeatherLimit, doc)
    time = load_rows(name, "time", TimeLimit, doc)
    for i, w in enumerate(weather.values()):
        rec = f"weather[{i}] '{w.id}'"
        if len(w.caps) != len(w.through_turn):
            raise DataError(name, rec, "fields 'caps' and 'through_turn' must have one entry each")
        if w.through_turn != sorted(set(w.through_turn)):
            raise DataError(name, rec, "field 'through_turn' must rise turn by turn")
        if w.cap < 0 or any(c <= 0 for c in w.caps):
            raise DataError(name, rec, "a cap is inches above 0 (field 'cap': 0 for none)")
    for i, t in enumerate(time.values()):
        if t.cap < 0:
            raise DataError(name, f"time[{i}] '{t.id}'", "field 'cap' is inches, 0 for none")
    for key, rows, default in (("weather", weather, "clear"), ("time", time, "day")):
        if default not in rows:
            raise DataError(name, key, f"no [[{key}]] row '{default}' (the default conditions)")
    return Sight(weather=weather, time=time, **built)


@cache
def sight() -> Sight:
    """The shipped visual limits, loaded once per process."""
    return load_sight()
