"""Line of sight over the 3D table (DESIGN §7; DD-4.1–4.6, DD-4.41–4.42, DD-3.8, DD-5.34; G-02, G-23).

A sightline is a straight 3D segment from an eye to a target point, cast through the table's ray scenes
(``game.world.raytrace``). In order:

1. a hit on the ground (a hill) or on a building blocks it (G-01 T10/T11/T14), except the walls of
   the building an end stands inside when that end is within its wall band (1" of a hootch's or a
   masonry building's wall, terrain.toml ``wall_band``): a stand at the wall sees out, and is seen
   (G-01 T10; T11's openings read as a window). Those walls are left out of the part of the sightline
   from that end to where it leaves the building or goes deeper than the band from every wall (as a
   woodline band, step 3); the whole of a sightline between two ends inside the same building. Other
   buildings block as before; from deeper inside nothing is seen out;
2. smoke and dust circles on its plan path block it (DD-5.34, G-01 T16), and so does the box of a
   vehicle's hull or a wreck it passes through (G-01 T15; ``Conditions.hulls``, ``game.world.hulls``),
   except a hull one of its ends is at (within 0.05" of its footprint: the vehicle itself, a stand in
   contact with it);
   (burnt ground, G-19: over a burnt polygon the vegetation volumes are not there for steps 3-5, and the
   fire's edge is a new woodline; ``game.world.burnt``, carried in ``Conditions.burnt``)
3. it measures the inches it runs inside each canopy class, *in plan* (horizontal inches, as the
   rulebook measures on the table), leaving out the woodline band: the part within 1" of the edge of
   the feature that the eye or the target is itself lining (DD-4.2, G-02 step 2);
4. entering dense canopy through its top, outside a band, blocks it: no one sees into dense canopy
   from above (DD-4.41);
5. its total length, in plan and quantised to 0.01", may not exceed the lowest cutoff that applies:
   each canopy class crossed (G-02: the cutoff caps the *total* length, DD-4.4), the open limit of 24"
   (+6" when either end stands 2" or more above the table, DD-4.41), the weather (monsoon 3", DD-3.8;
   mist, G-07) and the time of day (G-23; either end inside an illuminated circle gives daylight).
   The values are data: ``game/data/sight.toml`` (``game.terrain.Sight``).

Every rule above is symmetric in the two ends, so LOS is mutual (DD-4.5). Stand to stand, rays run
from each stand's eye (on its base edge nearest the other) to sample points on the other's base and
figures (a vehicle's eye at its own ``eye`` height, its sample points on its hull top), both ways; the rule
distance is base edge to base edge (DESIGN §3).

The steps above run compiled (``game.world.sightline``, numba around Embree's own casts; loaded ahead of
time from a library where ``python -m game.warm`` built one, ``game.world.sightline_native``) for the
single path, stand-to-stand checks and batched traces alike; the Python path here gives the same answers
to the last bit and answers where the compiled code cannot run: burnt ground (G-19), no numba and no
library, no direct Embree path, or ``DINKYDAU_COMPILED_LOS=0`` (tests/world/test_compiled_sight.py holds
the two together). A single answer's evidence (inches, limit, blocker, clause, reason) is made when
first read (``_deferred``).

What this module leaves out: spotting, cover and who may act on what is seen (``game.rules``); firing
arcs; real doors and windows (a stand within the wall band sees out through any wall it is near, a
masonry building as a hootch: the engine's reading of G-01 T11).
"""

from __future__ import annotations

import gc
import math
import os
import threading
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.geometry.polygon import orient
from shapely.ops import nearest_points

from game.memory import release_freed_memory
from game.terrain import TerrainBook, terrain_book
from game.terrain import sight as sight_limits
from game.world import sightline_layout as _sl
from game.world.bake import baked_path
from game.world.burnt import Burnt, burnt_of, spans1
from game.world.features import base_rectangle
from game.world.hulls import Hulls, block1, block_many
from game.world.hulls import prepare as prepare_hulls
from game.world.raytrace import (
    _INVALID,
    BAND_SLACK,
    GRID_EPS,
    MAX_HITS,
    STEP,
    Z_MARGIN,
    PlanGrid,
    TableGeometry,
    TerrainFileError,
)

__all__ = ["Conditions", "LosResult", "Observer", "TableLOS", "TerrainFileError", "EYE_HEIGHT"]

EYE_HEIGHT = 0.6
"""A 15mm figure's eye above its base, inches (DESIGN §3: a standing figure is about 0.7")."""
LIMITS = sight_limits()
"""The visual limits before terrain (game/data/sight.toml): open, elevation, weather, time of day."""
OPEN_LIMIT = LIMITS.open.limit  # DD-4.1, DD-4.2
ELEVATION_BONUS = LIMITS.elevation.bonus  # DD-4.41
ELEVATED = LIMITS.elevation.height  # DD-4.41: 2" or more above table level
TIME_CAPS = {t.id: t.cap or None for t in LIMITS.time.values()}  # G-23: None where there is no cap
SOLID_CLEARANCE = 0.01
"""A solid hit this close to the target belongs to the target's own spot (its ground), not between."""
Q = 100.0
"""Quantisation: distances and inches that enter rules are rounded to 0.01" (DESIGN §3)."""


def quantise(x: np.ndarray | float) -> np.ndarray:
    return np.floor(np.asarray(x, float) * Q + 0.5) / Q


@dataclass(frozen=True)
class Conditions:
    """What limits sight beyond the baked terrain: weather, time of day, smoke, light, burnt ground."""

    weather: str = "clear"
    """clear | mist | monsoon (DD-3.8, G-07)."""
    time_of_day: str = "day"
    """day | dawn | dusk | night_moonlit | night_dark (G-23)."""
    smoke: tuple[tuple[float, float, float], ...] = ()
    """(x, y, radius) circles of smoke or dust that block sight through them (DD-5.34)."""
    illuminated: tuple[tuple[float, float, float], ...] = ()
    """(x, y, radius) circles lit by a flare, star shell or burning wreck (DD-9A.2, G-23)."""
    burnt: tuple[tuple[float, ...], ...] = ()
    """Polygons of napalm-burnt ground, each its (x, y) points flattened (x0, y0, x1, y1, ...): over them
    sight ignores the vegetation (G-19; ``game.world.burnt``). The table's ray scenes stay as they are."""
    turn: int = 1
    """The game turn: ground mist lifts over the game (G-07)."""
    hulls: tuple[tuple[float, float, float, float, float, float, str], ...] = ()
    """(x, y, facing, length, width, height, id) boxes of the vehicles and wrecks on the table, standing on
    the ground under their centre: a sightline through one is blocked, except from or to a point at that
    hull (G-01 T15; ``game.world.hulls``, ``game.rules.vehicles.hulls_now``)."""

    @classmethod
    def from_scenario(cls, scenario: Any) -> Conditions:
        return cls(weather=scenario.weather, time_of_day=scenario.time_of_day)

    def __post_init__(self) -> None:
        if self.weather not in LIMITS.weather:
            raise ValueError(f"unknown weather {self.weather!r} ({', '.join(LIMITS.weather)})")
        if self.time_of_day not in TIME_CAPS:
            raise ValueError(f"unknown time of day {self.time_of_day!r} ({', '.join(TIME_CAPS)})")

    def weather_cap(self) -> tuple[float | None, str, str]:
        """The weather's cap on any sightline: (inches or None, limit name, clause)."""
        w = LIMITS.weather[self.weather]
        cap = w.cap_on(self.turn)
        return (cap, w.id, w.clause) if cap is not None else (None, "", "")


@dataclass(frozen=True)
class Observer:
    """A stand as line of sight sees it: its base on the table."""

    x: float
    y: float
    facing: float = 90.0
    width: float = 1.97
    """Base width across the front, inches (DD-1.7)."""
    depth: float = 1.26
    tree: bool = False
    """A tree sniper: its eye and figure are up in the canopy (DD-4.42)."""
    eye_height: float = EYE_HEIGHT
    body_height: float = 0.0
    """A vehicle's hull top above the ground: the points a sightline aims at on its base stand there
    (0: a stand's figures, ``BODY_HEIGHTS``)."""

    def base(self):
        return base_rectangle(self.x, self.y, self.facing, self.width, self.depth)


@dataclass(frozen=True)
class LosResult:
    """The answer to one line-of-sight question, with its evidence."""

    visible: bool
    fraction: float
    """Share of the sightlines between the two that are clear (1.0 for a single clear sightline)."""
    distance: float
    """Plan distance the rules measure, inches, 0.01" quantised (stand to stand: base edge to edge)."""
    canopy_inches: dict[str, float]
    """Inches (plan) inside each canopy class along the reported sightline, woodline bands left out."""
    cutoff: float
    """The limit applied, inches (0 when something blocks outright)."""
    limit: str
    """What set the limit: open, elevated, a canopy class (dense, bamboo ...), monsoon, mist, dawn,
    dusk, night_moonlit, night_dark, ground, building, hull (a vehicle or a wreck), smoke."""
    blocker: dict | None
    """{"feature", "terrain", "at": [x, y, z]} of what stopped the sightline, or None."""
    clause: str
    reason: str
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __getattr__(self, name: str) -> Any:
        # a field an answer made by _deferred or _answer leaves out until it is first read
        d = self.__dict__
        later = d.get("_later")
        if later is not None and name in _LATER:
            del d["_later"]
            full = later[0](*later[1:]).__dict__
            for k in _LATER:
                if k in full:
                    d[k] = full[k]
            if "_why" in full:
                d["_why"] = full["_why"]
            return getattr(self, name)
        why = d.get("_why")
        if why is not None and name == "reason":
            d["reason"] = text = why[0](*why[1:])
            del d["_why"]
            return text
        raise AttributeError(f"'LosResult' object has no attribute '{name}'")

    def __getstate__(self) -> dict[str, Any]:
        # copied or pickled whole: what _deferred left out is made now (it holds the table)
        if "_later" in self.__dict__:
            self.reason  # noqa: B018
        return self.__dict__

    def to_dict(self) -> dict[str, Any]:
        return {
            "visible": self.visible, "fraction": self.fraction, "distance": self.distance,
            "canopy_inches": dict(self.canopy_inches), "cutoff": self.cutoff, "limit": self.limit,
            "blocker": self.blocker, "clause": self.clause, "reason": self.reason, **self.extra,
        }


def _answer(visible: bool, fraction: float, distance: float, inches: dict[str, float], cutoff: float, limit: str,
            blocker: dict | None, clause: str, why: tuple, extra: dict[str, Any]) -> LosResult:
    """A :class:`LosResult` whose reason is ``why[0](*why[1:])``, worded when first read: most answers
    (the AI's, a stand check's) are never read out, and wording one costs more than the rest of it. It
    equals, prints, copies and pickles as one made with the reason in hand."""
    r = object.__new__(LosResult)
    object.__setattr__(r, "__dict__", {"visible": visible, "fraction": fraction, "distance": distance,
                                       "canopy_inches": inches, "cutoff": cutoff, "limit": limit, "blocker": blocker,
                                       "clause": clause, "_why": why, "extra": extra})
    return r


_LATER = ("canopy_inches", "cutoff", "limit", "blocker", "clause", "reason", "extra")
"""The fields of a :class:`LosResult` from :func:`_deferred` made when one of them is first read."""


def _deferred(visible: bool, fraction: float, distance: float, make: tuple) -> LosResult:
    """A :class:`LosResult` with its answer (visible, fraction rounded to 4 places, distance) in hand and
    the rest of its evidence (``_LATER``) from ``make[0](*make[1:])`` (a full answer with the same three),
    made when one of those is first read: wording the evidence costs as much as the compiled sightline,
    and the computer reads the answer alone. It equals, prints, copies and pickles as the full answer."""
    r = object.__new__(LosResult)
    object.__setattr__(r, "__dict__", {"visible": visible, "fraction": fraction, "distance": distance,
                                       "_later": make})
    return r


def _why_text(text: str) -> str:
    return text


def _why_far(dist: float, cutoff: float, name: str) -> str:
    return f'{dist:.2f}" is beyond the {cutoff:g}" {name} limit, the longest any sightline may be here (terrain not traced)'


def _why_blocked(what: str, at: list[float], walls: str) -> str:
    return f"blocked by {what} at ({at[0]:.2f}, {at[1]:.2f}){walls}"


def _why_limit(visible: bool, dist: float, cutoff: float, name: str, inches: tuple, band: bool, walls: str) -> str:
    inside = ", ".join(f'{v:.2f}" in {c}' for c, v in inches) or "no canopy"
    band_text = " (woodline band ignored, DD-4.2)" if band else ""
    return f'{dist:.2f}" is {"within" if visible else "beyond"} the {cutoff:g}" {name} limit; {inside}{band_text}{walls}'


@dataclass
class Trace:
    """Per-sightline arrays from one batched cast (see :meth:`TableLOS.trace`)."""

    visible: np.ndarray
    distance: np.ndarray
    cutoff: np.ndarray
    limit: np.ndarray
    """Index into ``TableLOS.limit_names``."""
    inches: np.ndarray
    """N x classes, plan inches inside each canopy class (bands left out), quantised."""
    solid_t: np.ndarray
    solid_part: np.ndarray
    smoke: np.ndarray
    above_part: np.ndarray
    above_t: np.ndarray
    eyes: np.ndarray
    dirs: np.ndarray
    length: np.ndarray
    elevated: np.ndarray
    band: np.ndarray
    """N x 2: did the eye / the target line a woodline (DD-4.2)?"""
    far: np.ndarray
    """Longer than every limit that applies before any terrain: answered without tracing."""
    complete: np.ndarray
    """Is the evidence (inches, blocker, limit) complete? Always, except for sightlines a batched call
    dropped as soon as it knew they were not visible."""
    wall: np.ndarray | None = None
    """N x 2: the building (index into ``TableLOS.walls``) of the eye / the target one of whose walls
    was left out of the sightline, the end seeing out through it (G-01 T10/T11), else -1; None: none
    was left out of any sightline."""
    hull: np.ndarray | None = None
    """The hull (index into ``hull_ids``) that blocks each sightline, else -1; None: no hulls."""
    hull_t: np.ndarray | None = None
    """Where along each sightline it enters that hull (3D inches from the eye), else inf."""
    hull_ids: tuple[str, ...] = ()

    def row(self, i: int) -> Sight:
        band = self.band[i].tolist()
        wall = NO_WALL if self.wall is None else (int(self.wall[i, 0]), int(self.wall[i, 1]))
        hull, hull_t = "", math.inf
        if self.hull is not None and self.hull_t is not None and self.hull[i] >= 0:
            hull, hull_t = self.hull_ids[int(self.hull[i])], float(self.hull_t[i])
        return Sight(bool(self.visible[i]), float(self.distance[i]), float(self.cutoff[i]), int(self.limit[i]),
                     tuple(self.inches[i].tolist()), float(self.solid_t[i]), int(self.solid_part[i]),
                     bool(self.smoke[i]), int(self.above_part[i]), float(self.above_t[i]), tuple(self.eyes[i].tolist()),
                     tuple(self.dirs[i].tolist()), bool(self.elevated[i]), (band[0], band[1]), bool(self.far[i]),
                     bool(self.complete[i]), wall, hull, hull_t)


class Sight(NamedTuple):
    """One row of a :class:`Trace`: one sightline's answer and evidence."""

    visible: bool
    distance: float
    cutoff: float
    limit: int
    inches: tuple[float, ...]
    solid_t: float
    solid_part: int
    smoke: bool
    above_part: int
    above_t: float
    eye: tuple[float, ...]
    dir: tuple[float, ...]
    elevated: bool
    band: tuple[bool, bool]
    far: bool
    complete: bool
    wall: tuple[int, int] = (-1, -1)
    """The building of each end one of whose walls was left out, the end seeing out through it (index
    into ``TableLOS.walls``), else -1."""
    hull: str = ""
    """The id of the vehicle or wreck whose hull blocks the sightline (G-01 T15), else ""."""
    hull_t: float = math.inf
    """Where the sightline enters that hull, 3D inches from the eye."""


@dataclass(frozen=True)
class Walls:
    """A building a stand inside sees out of (G-01 T10/T11; terrain.toml ``wall_band``), in plan.

    Each outline is convex and kept as its edges' half-planes: (nx, ny, x0, y0), the inward unit normal
    and a corner; a point p is inside when nx * (px - x0) + ny * (py - y0) >= 0 for every edge."""

    feature: str
    terrain: str
    parts: tuple[int, ...]
    """The building's solid parts (walls, roof ...)."""
    hull: tuple[tuple[float, float, float, float], ...]
    """The outline of all its parts, eaves included: an end over it (between ``zlo`` and ``zhi``) is inside."""
    wall: tuple[tuple[float, float, float, float], ...]
    """Its wall line: the outline of the parts that reach down to its lowest point (the walls, not an
    overhanging roof)."""
    band: float
    """The wall band plus ``BAND_SLACK``: a point further than this from every wall is deep inside."""
    zlo: float
    zhi: float


KILL_PLAN = 0.0051
"""Plan inches inside a volume that are sure to count: more than the 0.005" that quantises to 0.01"."""
CACHE_LIMIT = 1_500
MEMO_LIMIT = 3_000
"""Per-observer (and per sightline end) entries a table keeps before its caches start over: a few games'
worth, so a table kept warm between games stops growing early (issue 11)."""


class TableLOS:
    """Line of sight and terrain queries over one baked (or hand-made) table."""

    def __init__(self, geometry: TableGeometry, book: TerrainBook | None = None):
        self.geo = geometry
        self.book = book or terrain_book()
        self.width, self.height = geometry.width, geometry.height
        parts = geometry.parts
        self.classes: list[str] = sorted({p.canopy for p in parts if p.canopy})
        self.class_index = {c: i for i, c in enumerate(self.classes)}
        cut = {c: min(self.book.terrain[p.terrain].los_cutoff for p in parts if p.canopy == c) for c in self.classes}
        self.class_cutoff = np.array([cut[c] for c in self.classes] + [np.inf])
        self.class_dense = np.array([any(self.book.terrain[p.terrain].dense for p in parts if p.canopy == c)
                                     for c in self.classes] + [False])
        self.part_class = np.array([self.class_index[p.canopy] if p.canopy else -1 for p in parts] + [-1])
        self.part_cutoff = self.class_cutoff[self.part_class]
        self.part_veg = np.array([self.book.terrain[p.terrain].vegetation for p in parts] + [False])
        """Per part (and -1, none, last): is it vegetation, which burns (G-19; rubble does not)?"""
        self._part_veg_list = self.part_veg.tolist()
        self._burnt_last: tuple = ((), None)
        self._hulls_last: tuple = ((), None)
        """The hulls last prepared (``game.world.hulls``): (``Conditions.hulls``, ``Hulls``)."""
        self.limit_names = [*self.classes, "open", "elevated", *LIMITS.weather, *LIMITS.time,
                            "ground", "building", "smoke"]
        self._limit = {n: i for i, n in enumerate(self.limit_names)}
        self.dense_plan = shapely.union_all(
            [p.footprint for p in parts if p.footprint is not None
             and (p.role == "building" or (p.canopy and self.book.terrain[p.terrain].dense))])
        self.grid = PlanGrid(self.width, self.height, geometry.ground, geometry.solid, geometry.canopy,
                             self._elevations_cast)
        self._ground_max = self.grid.ground_max.ravel()
        self._ground_flat = self.grid.ground_flat.ravel()
        self._canopy_part = self.grid.canopy_part.ravel()
        self._inside_lo = self.grid.inside_lo.ravel() + Z_MARGIN
        self._inside_hi = self.grid.inside_hi.ravel() - Z_MARGIN
        self._outside_lo = self.grid.outside_lo.ravel() - Z_MARGIN
        self._outside_hi = self.grid.outside_hi.ravel() + Z_MARGIN
        # compact mirrors for the single-sightline path: indexing an array.array gives a plain Python number
        # (as fast as a list, 8 bytes an item instead of a pointer to a float object)
        self._flat_list = _darray(self._ground_flat)
        self._max_list = _darray(self._ground_max)
        self._part_list = array("i", self._canopy_part.astype(np.int32).tobytes())
        self._in_lo_list = _darray(self._inside_lo)
        self._in_hi_list = _darray(self._inside_hi)
        self._out_lo_list = _darray(self._outside_lo)
        self._out_hi_list = _darray(self._outside_hi)
        self._part_cutoff_list = self.part_cutoff.tolist()
        self._part_class_list = self.part_class.tolist()
        self._part_dense_list = self.class_dense[self.part_class].tolist()
        self._class_cutoff_list = self.class_cutoff.tolist()
        canopy = geometry.canopy
        self._canopy_owner = canopy.owner_list
        self._canopy_nx, self._canopy_ny, self._canopy_nz = canopy.nx_list, canopy.ny_list, canopy.nz_list
        self._canopy_top = bytes((self.class_dense[self.part_class][canopy.owner] & (canopy.normal[:, 2] > 0.3))
                                 .astype(np.uint8)) if len(canopy.owner) else b""
        """Per canopy face: is it the top of a dense volume (DD-4.41)? (1 or 0)"""
        self._core_owner = geometry.core.owner_list
        self._core_normal = (geometry.core.nx_list, geometry.core.ny_list, geometry.core.nz_list)
        self._solid_owner = geometry.solid.owner_list
        self.walls, part_walls, self._walls_cell, self._walls_multi = _table_walls(geometry, self.book, self.grid)
        """The buildings a stand inside sees out of (G-01 T10/T11), and per cell which of them may hold a
        point there: -1 none, k the one, -2 several (``_walls_multi``)."""
        self._part_walls = part_walls.tolist()
        """Per part: the building of ``walls`` it belongs to, else -1 (and -1 for part -1, last)."""
        self._part_walls_np = part_walls
        if self.walls:  # the half-planes of every building as arrays, for the batched path
            self._hull_planes, self._wall_planes = (_plane_table([getattr(w, a) for w in self.walls])
                                                    for a in ("hull", "wall"))
            self._walls_z = np.array([[w.zlo, w.zhi] for w in self.walls])
            self._walls_band = np.array([w.band for w in self.walls])
        self._walls_cell_np = np.frombuffer(self._walls_cell, np.int32) if self.walls else None
        self._limit_open, self._limit_elevated = self._limit["open"], self._limit["elevated"]
        self._zeros = (0.0,) * len(self.classes)
        self._class_feature = {c: [p.feature for p in parts if p.canopy == c] for c in self.classes}
        self._local = threading.local()
        self._top = geometry.top + 10.0
        self._memo: dict[tuple[float, ...], list] = {}
        """Per sightline end (x, y, z): [elevated (DD-4.41), the canopy volume it is in, once asked]."""
        self._bodies: dict[Observer, np.ndarray] = {}
        self._bases: dict[Observer, Any] = {}
        self._trees: dict[Observer, float] = {}
        self._fast = _compiled(self)
        """The table as ``game.world.sightline`` reads it (None: the Python path answers)."""
        self._fast_cond: dict[Conditions, np.ndarray] = {}
        self._fast_last: tuple = (None, None)
        gc.collect()  # the load's trimesh meshes hold reference cycles
        release_freed_memory()

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def from_glb(cls, path: str | Path | bytes, width: float, height: float, book: TerrainBook | None = None
                 ) -> TableLOS:
        """A table from any .glb following ``docs/terrain.md`` (a baked one, or one made in Blender)."""
        book = book or terrain_book()
        return cls(TableGeometry.load(path, width, height, book), book)

    @classmethod
    def from_scenario(cls, scenario: Any, book: TerrainBook | None = None) -> TableLOS:
        """The scenario's table, baked on demand and cached (``game.world.bake.baked_path``)."""
        return cls.from_glb(baked_path(scenario, book), scenario.width, scenario.height, book)

    # -- terrain queries ---------------------------------------------------------------------------
    def _on_table(self, xy: np.ndarray, what: str) -> None:
        bad = (xy[:, 0] < -1e-6) | (xy[:, 0] > self.width + 1e-6) | (xy[:, 1] < -1e-6) | (xy[:, 1] > self.height + 1e-6)
        if bad.any():
            x, y = xy[int(np.argmax(bad))]
            raise ValueError(f"{what} ({x:.2f}, {y:.2f}) is off the {self.width:g}x{self.height:g} table")

    def _elevations_cast(self, xy: np.ndarray) -> np.ndarray:
        """Ground height under each plan point, cast straight down onto the ground (the reference)."""
        top = self.geo.top + 10.0
        origins = np.column_stack([xy, np.full(len(xy), top)])
        t, prim = self.geo.ground.first(origins, np.tile([0.0, 0.0, -1.0], (len(xy), 1)))
        return np.round(np.where(prim >= 0, top - t, 0.0), 4)

    def _ground(self, xy: np.ndarray) -> np.ndarray:
        """Ground height under each plan point: read off the grid where the ground there is level,
        else cast down (the same value either way)."""
        g = self._ground_flat[self.grid.cells(xy)]
        rest = np.isnan(g)
        if rest.any():
            g[rest] = self._elevations_cast(xy[rest])
        return g

    def elevations(self, xy: np.ndarray) -> np.ndarray:
        """Ground height under each plan point, inches (hills; buildings are not ground)."""
        xy = np.asarray(xy, float).reshape(-1, 2)
        self._on_table(xy, "point")
        return self._ground(xy)

    def elevation(self, x: float, y: float) -> float:
        """Ground height at a point, inches."""
        x, y = float(x), float(y)
        if self._off_table(x, y):
            raise ValueError(f"point ({x:.2f}, {y:.2f}) is off the {self.width:g}x{self.height:g} table")
        return self._ground1(x, y)

    def clear_circle(self, x: float, y: float, radius: float = 3.0, burnt: tuple[tuple[float, ...], ...] = ()
                     ) -> bool:
        """Is a circle clear of dense trees and buildings? A Dustoff LZ needs 6" across (DD-6.6). Dense
        trees burnt by napalm (``burnt``, as ``Conditions.burnt``; G-19) are gone; buildings stay."""
        self._on_table(np.array([[x, y]]), "LZ centre")
        circle = Point(x, y).buffer(radius, quad_segs=16)
        if not burnt or not self.dense_plan.intersects(circle):
            return not self.dense_plan.intersects(circle)
        area = burnt_of(burnt).geom
        parts = self.geo.parts
        for p in parts:
            if p.footprint is None or not p.footprint.intersects(circle):
                continue
            if p.role == "building":
                return False
            if p.canopy and self.book.terrain[p.terrain].dense:
                left = p.footprint.intersection(circle)
                if not self.book.terrain[p.terrain].vegetation or not left.difference(area).is_empty:
                    return False
        return True

    def terrain_at(self, x: float, y: float, burnt: tuple[tuple[float, ...], ...] = ()) -> str:
        """The terrain of the canopy volume containing a point at eye height, else 'open'; 'burnt' where
        that volume is vegetation burnt by napalm (``burnt``, as ``Conditions.burnt``; G-19)."""
        z = self.elevation(x, y) + EYE_HEIGHT
        part = self._inside(np.array([[x, y, z]]))[0]
        if part < 0:
            return "open"
        if burnt and self._part_veg_list[part] and shapely.intersects_xy(burnt_of(burnt).geom, x, y):
            return "burnt"
        return self.geo.parts[part].terrain

    def _burnt(self, conditions: Conditions) -> Burnt | None:
        """The burnt ground of the conditions, prepared (None when there is none)."""
        flat = conditions.burnt
        if not flat:
            return None
        last = self._burnt_last
        if last[0] is flat:
            return last[1]
        b = burnt_of(flat)
        self._burnt_last = (flat, b)
        return b

    def _hulls(self, conditions: Conditions) -> Hulls | None:
        """The vehicles and wrecks of the conditions, each on the ground under its centre (None: none)."""
        flat = conditions.hulls
        if not flat:
            return None
        last = self._hulls_last
        if last[0] is flat or last[0] == flat:
            return last[1]
        w, h = self.width, self.height
        hulls = prepare_hulls(flat, lambda x, y: self._ground1(min(max(x, 0.0), w), min(max(y, 0.0), h)))
        self._hulls_last = (flat, hulls)
        return hulls

    def _hull_block(self, conditions: Conditions, eyes: np.ndarray, targets: np.ndarray, length: np.ndarray,
                    rows: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None, tuple[str, ...]]:
        """The hull that blocks each of the sightlines ``rows`` (G-01 T15), -1 elsewhere, and where it
        enters it (3D inches from the eye); (None, None, ()) when the conditions have no hulls."""
        hulls = self._hulls(conditions)
        if hulls is None:
            return None, None, ()
        n = len(eyes)
        hull, hull_t = np.full(n, -1), np.full(n, np.inf)
        k, s = block_many(hulls, eyes[rows], targets[rows])
        hull[rows] = k
        hit = k >= 0
        t = np.full(len(k), np.inf)
        t[hit] = s[hit] * length[rows][hit]  # only where a hull blocks: elsewhere ``s`` is no distance
        hull_t[rows] = t
        return hull, hull_t, hulls.ids

    def _inside_cast(self, pts: np.ndarray) -> np.ndarray:
        """The canopy part containing each point (-1: none): the first face straight up is an exit."""
        if len(self.geo.canopy.owner) == 0 or not len(pts):  # a table with no canopy at all
            return np.full(len(pts), -1)
        up = np.tile([0.0, 0.0, 1.0], (len(pts), 1))
        _, prim = self.geo.canopy.first(pts, up)
        ok = prim >= 0
        inside = np.zeros(len(pts), bool)
        inside[ok] = self.geo.canopy.normal[prim[ok], 2] > 0
        return np.where(inside, self.geo.canopy.owner[np.maximum(prim, 0)], -1)

    def _inside(self, pts: np.ndarray) -> np.ndarray:
        """:meth:`_inside_cast`, read off the plan grid where a single volume (or none) covers the
        point's cell and the point is clear of its top and bottom; cast elsewhere."""
        cell = self.grid.cells(pts)
        code = self._canopy_part[cell]
        z = pts[:, 2]
        known = (code >= 0) & (z > self._inside_lo[cell]) & (z < self._inside_hi[cell])
        out = np.where(known, code, -1)
        known |= (code == -1) | ((code >= 0) & ((z < self._outside_lo[cell]) | (z > self._outside_hi[cell])))
        rest = np.nonzero(~known)[0]
        if len(rest):
            out[rest] = self._inside_cast(pts[rest])
        return out

    def _elevated(self, pts: np.ndarray) -> np.ndarray:
        """Does each end stand 2" or more above the table (DD-4.41)? Its stand is the higher of the
        ground under it and its eye less the eye height."""
        out = pts[:, 2] - EYE_HEIGHT >= ELEVATED - 1e-6
        rest = np.nonzero(~out)[0]
        if len(rest):
            unsure = self._ground_max[self.grid.cells(pts[rest])] + 1e-4 >= ELEVATED - 1e-6
            rest = rest[unsure]
            if len(rest):
                out[rest] = self._ground(pts[rest, :2]) >= ELEVATED - 1e-6
        return out

    def _band_span(self, pts: np.ndarray, dirs: np.ndarray, part: np.ndarray, exit_t: np.ndarray) -> np.ndarray:
        """How far from each end a sightline stays in the woodline band of the part it starts in
        (DD-4.2): up to where it leaves the part or enters the part's core. 0 when not lining."""
        span = np.zeros(len(pts))
        todo = np.nonzero(part >= 0)[0]
        if not len(todo):
            return span
        t, prim = self.geo.core.first(pts[todo], dirs[todo])
        core = self.geo.core
        hit = prim >= 0
        own = np.zeros(len(todo), bool)
        own[hit] = core.owner[prim[hit]] == part[todo][hit]
        leaving = np.zeros(len(todo), bool)
        leaving[hit] = _dot(core.normal[prim[hit]], dirs[todo][hit]) > 0
        in_core = own & leaving
        entry = np.where(own & ~leaving, t, np.inf)
        span[todo] = np.where(in_core, 0.0, np.minimum(exit_t[todo], entry))
        return span

    def _open_limits(self, eyes: np.ndarray, targets: np.ndarray, elevated: np.ndarray, conditions: Conditions
                     ) -> tuple[np.ndarray, np.ndarray]:
        """The lowest limit of each sightline before terrain: open or elevated (DD-4.1, DD-4.41), time of
        day (G-23), weather (DD-3.8, G-07). Terrain can only lower it."""
        n = len(eyes)
        cutoff = np.where(elevated, OPEN_LIMIT + ELEVATION_BONUS, OPEN_LIMIT)
        limit = np.where(elevated, self._limit["elevated"], self._limit["open"])
        tcap = TIME_CAPS[conditions.time_of_day]
        if tcap is not None:
            lit = np.zeros(n, bool)
            for cx, cy, r in conditions.illuminated:
                lit |= np.hypot(eyes[:, 0] - cx, eyes[:, 1] - cy) <= r
                lit |= np.hypot(targets[:, 0] - cx, targets[:, 1] - cy) <= r
            lower = ~lit & (tcap < cutoff)
            cutoff = np.where(lower, tcap, cutoff)
            limit = np.where(lower, self._limit[conditions.time_of_day], limit)
        wcap, wname, _ = conditions.weather_cap()
        if wcap is not None:
            lower = wcap < cutoff
            cutoff = np.where(lower, wcap, cutoff)
            limit = np.where(lower, self._limit[wname], limit)
        return cutoff, limit

    # -- the walls a stand inside sees out of (G-01 T10/T11) ----------------------------------------
    def _walls_of1(self, x: float, y: float, z: float) -> int:
        """The building of ``walls`` a point is inside (-1: none); the grid answers where none can be."""
        cell = self.grid.cell(x, y)
        code = self._walls_cell[cell]
        if code == -1:
            return -1
        for k in (self._walls_multi[cell] if code == -2 else (code,)):
            if _inside_walls(self.walls[k], x, y, z):
                return k
        return -1

    def _walls_of(self, pts: np.ndarray) -> np.ndarray:
        """:meth:`_walls_of1` for each point: the grid names the one building that may hold it (the
        points of a cell several may hold are asked one by one)."""
        out = np.full(len(pts), -1)
        if not self.walls or not len(pts):
            return out
        g = self.grid  # grid.cells, for points on the table (as the trace has checked them)
        i = (pts[:, 0] / g.h).astype(np.int32)
        j = (pts[:, 1] / g.h).astype(np.int32)
        np.minimum(i, g.nx - 1, out=i)
        np.minimum(j, g.ny - 1, out=j)
        code = self._walls_cell_np[j * g.nx + i]
        cand = np.flatnonzero(code != -1)
        if not len(cand):
            return out
        k = code[cand]
        one, k = cand[k >= 0], k[k >= 0]
        if len(one):  # :func:`_inside_walls`, every point against its building's edges at once
            pt = pts[one]
            pl = self._hull_planes[k]
            f = pl[:, :, 0] * (pt[:, 0:1] - pl[:, :, 2]) + pl[:, :, 1] * (pt[:, 1:2] - pl[:, :, 3])
            z = self._walls_z[k]
            inside = (z[:, 0] <= pt[:, 2]) & (pt[:, 2] <= z[:, 1]) & (f >= 0.0).all(axis=1)
            out[one[inside]] = k[inside]
        for c in cand[code[cand] == -2].tolist():
            x, y, z = pts[c].tolist()
            out[c] = self._walls_of1(x, y, z)
        return out

    @staticmethod
    def _inside_walls_many(w: Walls, pts: np.ndarray) -> np.ndarray:
        """:func:`_inside_walls` for each point (the same arithmetic)."""
        x, y, z = pts[:, 0], pts[:, 1], pts[:, 2]
        inside = (w.zlo <= z) & (z <= w.zhi)
        for nx, ny, x0, y0 in w.hull:
            inside &= nx * (x - x0) + ny * (y - y0) >= 0.0
        return inside

    def _walls_cast(self, pts: np.ndarray) -> np.ndarray:
        """:meth:`_walls_of` without the grid: every point held against every building (the reference)."""
        out = np.full(len(pts), -1)
        for k, w in enumerate(self.walls):
            out[(out == -1) & self._inside_walls_many(w, pts)] = k
        return out

    def _wall_windows(self, be: int, bt: int, ex: float, ey: float, tx: float, ty: float, length: float
                      ) -> tuple[float, float]:
        """(te, tb) for a sightline whose eye is inside building ``be`` and whose target is inside ``bt``
        (-1: none): hits on be's parts before te along it, and on bt's after tb, are left out (G-01
        T10/T11). From an end within the wall band up to where the sightline goes deeper than the band
        (the whole of it if it never does: a building is convex, so it never comes back in); nothing from
        an end deeper inside; the whole of a sightline between two ends inside the same building."""
        if be >= 0 and be == bt:
            return INF, -INF
        te, tb = 0.0, INF
        if be >= 0:
            s = _wall_reach(self.walls[be], ex, ey, tx - ex, ty - ey)
            te = INF if s == INF else s * length
        if bt >= 0:
            s = _wall_reach(self.walls[bt], tx, ty, ex - tx, ey - ty)
            tb = -INF if s == INF else length - s * length
        return te, tb

    def _wall_windows_many(self, be: np.ndarray, bt: np.ndarray, e: np.ndarray, q: np.ndarray, ln: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_wall_windows` for many sightlines at once (the same arithmetic)."""
        n = len(be)
        te, tb = np.zeros(n), np.full(n, np.inf)
        same = (be >= 0) & (be == bt)
        te[same], tb[same] = np.inf, -np.inf
        for end, b, p, o, out in ((0, be, e, q, te), (1, bt, q, e, tb)):
            rows = np.nonzero((b >= 0) & ~same)[0]
            if not len(rows):
                continue
            k = b[rows]
            s = _wall_reach_many(self._wall_planes[k], self._walls_band[k], p[rows, 0], p[rows, 1],
                                 o[rows, 0] - p[rows, 0], o[rows, 1] - p[rows, 1])
            length = ln[rows]
            never = np.isinf(s)
            s = np.where(never, 0.0, s)
            out[rows] = np.where(never, np.inf, s * length) if end == 0 else np.where(never, -np.inf, length - s * length)
        return te, tb

    def _past_walls(self, e: np.ndarray, d: np.ndarray, tmax: np.ndarray, be: np.ndarray, te: np.ndarray,
                    bt: np.ndarray, tb: np.ndarray, t: np.ndarray, part: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`_solid_past_walls` for many sightlines, from the first hit of a plain cast from each eye
        (``t``, its ``part`` or -1): each hit that is a wall an end sees out through is cast past, in
        rounds. Returns (t, part) of the first hit that blocks, and whether a wall of the eye's / the
        target's building was left out (N x 2)."""
        solid = self.geo.solid
        t, part = t.copy(), part.copy()
        used = np.zeros((len(t), 2), bool)
        for rounds in range(MAX_HITS):
            k = self._part_walls_np[part]  # (part -1 is the last entry: -1)
            by_e, by_t = (k >= 0) & (k == be) & (t < te), (k >= 0) & (k == bt) & (t > tb)
            used[:, 0] |= by_e
            used[:, 1] |= by_t
            skip = np.nonzero(by_e | by_t)[0]
            if not len(skip):
                break
            start = t[skip] + STEP
            t[skip], part[skip] = np.inf, -1
            if rounds == MAX_HITS - 1:
                break  # as many casts as the single path makes, all left out: no hit
            go = start < tmax[skip]
            r, start = skip[go], start[go]
            if len(r):
                t2, p2 = solid.first(e[r] + d[r] * start[:, None], d[r], tmax[r] - start)
                t[r] = np.where(p2 >= 0, start + t2, np.inf)
                part[r] = np.where(p2 >= 0, solid.owner[np.maximum(p2, 0)], -1)
        return t, part, used

    def _solid_walls(self, rows: np.ndarray, eyes: np.ndarray, targets: np.ndarray, dirs: np.ndarray,
                     length: np.ndarray, t0: np.ndarray | None = None, part0: np.ndarray | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """Ground and buildings for those of the sightlines ``rows`` with an end inside a building of
        ``walls``, cast past the walls their ends see out through (G-01 T10/T11), from their plain first
        hits (``t0``, ``part0``, one per row; cast here when not given). Returns (their positions in
        ``rows``, t, part of the first hit that blocks, the wall evidence: m x 2, the eye's / the target's
        building where one of its walls was left out, else -1), or None when no sightline has such an end."""
        m = len(rows)
        both = self._walls_of(np.concatenate([eyes[rows], targets[rows]]))
        be, bt = both[:m], both[m:]
        w = np.nonzero((be >= 0) | (bt >= 0))[0]
        if not len(w):
            return None
        r = rows[w]
        be, bt = be[w], bt[w]
        te, tb = self._wall_windows_many(be, bt, eyes[r], targets[r], length[r])
        tmax = length[r] - SOLID_CLEARANCE
        if t0 is None:
            t0, prim = self.geo.solid.first(eyes[r], dirs[r], tmax)
            part0 = np.where(prim >= 0, self.geo.solid.owner[np.maximum(prim, 0)], -1)
        else:
            t0, part0 = t0[w], part0[w]
        t, part, used = self._past_walls(eyes[r], dirs[r], tmax, be, te, bt, tb, t0, part0)
        return w, t, part, np.column_stack([np.where(used[:, 0], be, -1), np.where(used[:, 1], bt, -1)])

    def _wall_rays(self, e: np.ndarray, q: np.ndarray, ln: np.ndarray) -> list[tuple[int, int, float, int, float]]:
        """The reference's sightlines with an end inside a building of ``walls``: (row, be, te, bt, tb),
        one by one as :meth:`_wall_windows` gives them."""
        if not self.walls or not len(e):
            return []
        be, bt = self._walls_cast(e), self._walls_cast(q)
        out = []
        for j in np.nonzero((be >= 0) | (bt >= 0))[0].tolist():
            ex, ey, _ = e[j].tolist()
            tx, ty, _ = q[j].tolist()
            a, b = int(be[j]), int(bt[j])
            te, tb = self._wall_windows(a, b, ex, ey, tx, ty, float(ln[j]))
            out.append((j, a, te, b, tb))
        return out

    def _solid_past_walls(self, ex: float, ey: float, ez: float, ux: float, uy: float, uz: float, tmax: float,
                          be: int, te: float, bt: int, tb: float) -> tuple[float, int, tuple[int, int]]:
        """The first ground or building hit within ``tmax`` that is not a wall an end sees out through
        (:meth:`_wall_windows`): (t or inf, face or -1, the wall evidence: the eye's / the target's
        building where one of its walls was left out, else -1). Each hit left out is cast past, one
        after another along the ray, as the canopy crossings are."""
        first = self._casters()[0][0]
        owner, of = self._solid_owner, self._part_walls
        s = 0.0
        used_e = used_t = False
        for _ in range(MAX_HITS):
            t, prim = first(ex + ux * s, ey + uy * s, ez + uz * s, ux, uy, uz, tmax - s)
            if prim < 0:
                break
            t_abs = s + t
            k = of[owner[prim]]
            by_e = k >= 0 and k == be and t_abs < te
            by_t = k >= 0 and k == bt and t_abs > tb
            used_e, used_t = used_e or by_e, used_t or by_t
            if not (by_e or by_t):
                return t_abs, prim, (be if used_e else -1, bt if used_t else -1)
            s = t_abs + STEP
            if s >= tmax:
                break
        return INF, -1, (be if used_e else -1, bt if used_t else -1)

    def _walls_through(self, walls: list, rows: np.ndarray, eyes: np.ndarray, dirs: np.ndarray,
                       length: np.ndarray, n: int, solid_t: np.ndarray, solid_part: np.ndarray) -> np.ndarray | None:
        """The reference: cast again, one by one (:meth:`_solid_past_walls`), each sightline of ``walls``
        (rows into ``rows``), into ``solid_t`` and ``solid_part``. Returns the N x 2 wall evidence (None
        when no sightline has an end inside such a building)."""
        if not walls:
            return None
        wall = np.full((n, 2), -1)
        owner = self._solid_owner
        for j, be, te, bt, tb in walls:
            i = int(rows[j])
            ex, ey, ez = eyes[i].tolist()
            ux, uy, uz = dirs[i].tolist()
            ln = float(length[i])
            t, prim, wall[i] = self._solid_past_walls(ex, ey, ez, ux, uy, uz, ln - SOLID_CLEARANCE, be, te, bt, tb)
            solid_t[i] = t
            solid_part[i] = owner[prim] if prim >= 0 else -1
        return wall if (wall >= 0).any() else None

    # -- the core: many sightlines at once ---------------------------------------------------------
    def trace(self, eyes: np.ndarray, targets: np.ndarray, conditions: Conditions,
              distance: np.ndarray | None = None, early: bool = False) -> Trace:
        """Cast N sightlines (eyes and targets Nx3, table frame) and apply the rules to each.

        ``distance`` overrides the plan length as the rule distance (stands: base edge to edge).
        A sightline longer than every limit that applies before terrain (open or elevated, time of day,
        weather) is answered without tracing (``far``): no terrain lengthens a limit.
        ``early`` drops a sightline as soon as its answer is known to be no (the batched path): only its
        ``visible`` is then exact, its evidence partial (``complete`` False). The answers are those of
        :meth:`trace_reference`; the plan grid (``game.world.raytrace.PlanGrid``) only spares casts.
        """
        if self._fast is not None and not conditions.burnt:
            return self._trace_fast(eyes, targets, conditions, distance, early)
        eyes, targets, n, length, dirs, plan, hfac, dist = self._segments(eyes, targets, distance)
        C = len(self.classes)
        geo = self.geo

        # 5 (first): the limits before terrain; a sightline longer than them is not traced. (Dropping
        # early, whether an end is elevated matters only past 24" until the answer is known.)
        if early:
            elevated = np.zeros(n, bool)
            cutoff, limit = self._open_limits(eyes, targets, elevated, conditions)
            asked = dist > cutoff + 1e-9
            todo = np.nonzero(asked)[0]
            elevated[todo] = self._elevated(eyes[todo]) | self._elevated(targets[todo])
            cutoff[todo], limit[todo] = self._open_limits(eyes[todo], targets[todo], elevated[todo], conditions)
        else:
            elevated = self._elevated(eyes) | self._elevated(targets)
            cutoff, limit = self._open_limits(eyes, targets, elevated, conditions)
        far = dist > cutoff + 1e-9

        # 2. smoke and dust circles, in plan
        smoke = np.zeros(n, bool)
        for cx, cy, r in conditions.smoke:
            smoke |= _segment_near(eyes[:, :2], targets[:, :2], cx, cy, r)
        # 2. vehicle hulls and wrecks (G-01 T15; game.world.hulls), a box each
        hull, hull_t, hull_ids = self._hull_block(conditions, eyes, targets, length, np.flatnonzero(~far))
        stop = smoke if hull is None else smoke | (hull >= 0)
        live = np.nonzero(~far & ~stop if early else ~far)[0]

        # 1. ground and buildings
        solid_t = np.full(n, np.inf)
        solid_part = np.full(n, -1)
        cast = live[length[live] > SOLID_CLEARANCE]
        # (an end inside a hootch or masonry building, within its wall band, sees out: G-01 T10/T11; only
        # a sightline that something blocks needs asking, early)
        walled = None
        if early:
            hit = geo.solid.blocked(eyes[cast], dirs[cast], length[cast] - SOLID_CLEARANCE)
            if self.walls and hit.any():
                held = np.nonzero(hit)[0]
                walled = self._solid_walls(cast[held], eyes, targets, dirs, length)
                if walled is not None:
                    w = held[walled[0]]
                    hit[w] = walled[2] >= 0
                    walled = (cast[w], walled[3])
            if hit.any():
                live = np.setdiff1d(live, cast[hit], assume_unique=True)
        elif len(cast):
            t, prim = geo.solid.first(eyes[cast], dirs[cast], length[cast] - SOLID_CLEARANCE)
            solid_t[cast] = t
            solid_part[cast] = np.where(prim >= 0, geo.solid.owner[np.maximum(prim, 0)], -1)
            if self.walls:  # only a sightline whose first hit is a building with a wall band can change
                near = cast[self._part_walls_np[solid_part[cast]] >= 0]
                walled = self._solid_walls(near, eyes, targets, dirs, length, solid_t[near], solid_part[near])
                if walled is not None:
                    r = near[walled[0]]
                    solid_t[r], solid_part[r] = walled[1], walled[2]
                    walled = (r, walled[3])
        wall = None
        if walled is not None and (walled[1] >= 0).any():
            wall = np.full((n, 2), -1)
            wall[walled[0]] = walled[1]

        # 3. canopy: every boundary crossed (the target's volume first: a ray dropped early must not be
        # dropped for the band of its own end), then where the eye is
        e, d, ln, hf = eyes[live], dirs[live], length[live], hfac[live]
        part_t = self._inside(targets[live])
        burnt = self._burnt(conditions)
        dl = dist[live]
        cut = None
        if burnt is not None:  # G-19: burnt ground; a canopy cutoff over it is not sure: no early drop
            cut = burnt.cut(e[:, :2], targets[live, :2], ln)
            if not len(cut.near):
                cut = None  # no sightline comes near it
            elif early:
                dl = np.where(cut.crossed(len(live)), -np.inf, dl)
        ray, t, prim, dropped = self._crossings(e, d, ln, hf, dl, part_t, early)
        if dropped.any():
            keep = ~dropped
            remap = np.cumsum(keep) - 1
            hit_keep = keep[ray]
            ray, t, prim = remap[ray[hit_keep]], t[hit_keep], prim[hit_keep]
            live, e, d, ln, hf, part_t = live[keep], e[keep], d[keep], ln[keep], hf[keep], part_t[keep]
            if cut is not None:
                cut = cut.take(keep)
        part_e = self._inside(e)
        m = len(live)
        part = geo.canopy.owner[prim]
        entering = _dot(geo.canopy.normal[prim], d[ray]) < 0
        exit_e = np.full(m, np.inf)
        first_exit = (~entering) & (part == part_e[ray])
        np.minimum.at(exit_e, ray[first_exit], t[first_exit])
        exit_e = np.minimum(exit_e, ln)
        exit_t = np.full(m, -np.inf)
        last_entry = entering & (part == part_t[ray])
        np.maximum.at(exit_t, ray[last_entry], t[last_entry])
        exit_t = np.where(np.isfinite(exit_t), ln - exit_t, ln)
        span_e = self._band_span(e, d, part_e, exit_e)
        span_t = self._band_span(targets[live], -d, part_t, exit_t)
        if cut is not None:  # G-19: the woodlines the fire made, and none on burnt ground
            span_e = cut.spans(span_e, 0, part_e, self.part_veg, exit_e)
            span_t = cut.spans(span_t, 1, part_t, self.part_veg, exit_t)

        # inches inside each class: the union of the intervals inside its volumes, bands clipped off
        iv_ray, iv_part, iv_t0, iv_t1 = _intervals(ray, part, t, entering, part_e, part_t, ln)
        at_eye = (iv_part == part_e[iv_ray]) & (iv_t0 <= 0.0)
        iv_t0 = np.where(at_eye, np.maximum(iv_t0, span_e[iv_ray]), iv_t0)
        at_target = (iv_part == part_t[iv_ray]) & (iv_t1 >= ln[iv_ray])
        iv_t1 = np.where(at_target, np.minimum(iv_t1, ln[iv_ray] - span_t[iv_ray]), iv_t1)
        if cut is not None:  # G-19: no vegetation over burnt ground
            iv_ray, iv_part, iv_t0, iv_t1 = cut.clip(iv_ray, iv_part, iv_t0, iv_t1, self.part_veg, m)
        sub = np.zeros((m, C + 1))
        _union_add(sub, iv_ray, self.part_class[iv_part], iv_t0, iv_t1)
        inches = np.zeros((n, C))
        inches[live] = quantise(sub * hf[:, None])[:, :C]

        # 4. dense canopy entered from above, outside the bands (DD-4.41)
        top_entry = entering & self.class_dense[self.part_class[part]] & (geo.canopy.normal[prim, 2] > 0.3)
        top_entry &= (t > span_e[ray] + 1e-6) & (t < ln[ray] - span_t[ray] - 1e-6)
        if cut is not None and top_entry.any():  # G-19: no canopy top over burnt ground
            w = np.nonzero(top_entry)[0]
            top_entry[w[cut.over(ray[w], t[w], m) & self.part_veg[part[w]]]] = False
        above_t = np.full(n, np.inf)
        above_part = np.full(n, -1)
        if top_entry.any():
            first = np.full(m, np.inf)
            np.minimum.at(first, ray[top_entry], t[top_entry])
            above_t[live] = first
            first_above = top_entry & (t == first[ray])
            above_part[live[ray[first_above]]] = part[first_above]

        # 5. each canopy class crossed caps the total length (G-02); ties go to the terrain
        if early:
            todo = live[~asked[live]]
            elevated[todo] = self._elevated(eyes[todo]) | self._elevated(targets[todo])
            cutoff[todo], limit[todo] = self._open_limits(eyes[todo], targets[todo], elevated[todo], conditions)
        crossed = inches[live] > 0
        cut, lim = cutoff[live], limit[live]
        for c in range(C):
            lower = crossed[:, c] & (self.class_cutoff[c] <= cut)
            cut = np.where(lower, self.class_cutoff[c], cut)
            lim = np.where(lower, c, lim)
        cutoff[live], limit[live] = cut, lim
        alive = np.zeros(n, bool)
        alive[live] = True
        blocked = (solid_part >= 0) | smoke | (above_part >= 0)
        if hull is not None:
            blocked |= hull >= 0
        visible = ~blocked & alive & (dist <= cutoff + 1e-9)
        band = np.zeros((n, 2), bool)
        band[live, 0] = (part_e >= 0) & (span_e > 0)
        band[live, 1] = (part_t >= 0) & (span_t > 0)
        complete = alive | far if early else np.ones(n, bool)
        return Trace(visible, dist, cutoff, limit, inches, solid_t, solid_part, smoke, above_part, above_t,
                     eyes, dirs, length, elevated, band, far, complete, wall, hull, hull_t, hull_ids)

    def _crossings(self, eyes: np.ndarray, dirs: np.ndarray, length: np.ndarray, hfac: np.ndarray,
                   dist: np.ndarray, part_t: np.ndarray, early: bool
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every canopy boundary each sightline crosses: (ray, t, face), and the rays dropped.

        The casts are :meth:`RayScene.all_hits`'s, one after another along each ray. With ``early``, a
        ray is dropped once it is sure to fail a canopy cutoff: it entered a volume (not the target's,
        whose band may not count) of a class whose cutoff is below its length, and an occlusion query
        from where its next cast would start finds nothing for 0.005" in plan (or up to its end): that
        class's inches are then at least 0.01" and its cutoff applies.
        """
        sc = self.geo.canopy
        n = len(eyes)
        dropped = np.zeros(n, bool)
        if sc.empty or not n:
            return np.zeros(0, int), np.zeros(0), np.zeros(0, int), dropped
        rays, ts, prims = [], [], []
        # the live rays, compacted after every round: index, eye, direction (and as Embree takes it),
        # length, where the next cast starts
        idx = np.nonzero(length > 0)[0]
        e, d, ln, start = eyes[idx], dirs[idx], length[idx], np.zeros(len(idx))
        d32 = d.astype(np.float32)
        if early:
            hf, lim, pt = hfac[idx], dist[idx] - 1e-9, part_t[idx]
        normal, owner_of, cut = sc.normal, sc.owner, self.part_cutoff
        for rounds in range(MAX_HITS):
            if not len(idx):
                break
            if len(idx) <= TAIL_RAYS:
                # the last few rays: one at a time is quicker than another round of array work
                if not early:
                    hf, lim, pt = hfac[idx], dist[idx] - 1e-9, part_t[idx]
                tail = self._crossings_tail(idx, e, d, ln, start, hf, lim, pt, MAX_HITS - rounds, early, dropped)
                rays.append(tail[0])
                ts.append(tail[1])
                prims.append(tail[2])
                break
            t, prim = sc.first(e + d * start[:, None], d32, ln - start, dirs32=True)
            hit = prim >= 0
            if not hit.all():
                idx, e, d, d32, ln, start, t, prim = (idx[hit], e[hit], d[hit], d32[hit], ln[hit], start[hit],
                                                      t[hit], prim[hit])
                if early:
                    hf, lim, pt = hf[hit], lim[hit], pt[hit]
            t_abs = start + t
            rays.append(idx)
            ts.append(t_abs)
            prims.append(prim)
            start += t + STEP
            if early and len(idx):
                owner = owner_of[prim]
                arm = (_dot(normal[prim], d) < 0) & (owner != pt) & (cut[owner] < lim) & (t_abs > 0)
                if arm.any():
                    a = np.nonzero(arm)[0]
                    s2, h2 = start[a], hf[a]
                    reach = np.minimum(KILL_PLAN * 1.01 / np.maximum(h2, 1e-12), ln[a] - s2)
                    clear = ~sc.blocked(e[a] + d[a] * s2[:, None], d32[a], reach, dirs32=True)
                    sure = clear & ((s2 + reach - t_abs[a]) * h2 >= KILL_PLAN)
                    if sure.any():
                        dropped[idx[a[sure]]] = True
                        keep = np.ones(len(idx), bool)
                        keep[a[sure]] = False
                        idx, e, d, d32, ln, start = idx[keep], e[keep], d[keep], d32[keep], ln[keep], start[keep]
                        hf, lim, pt = hf[keep], lim[keep], pt[keep]
        if not rays:
            return np.zeros(0, int), np.zeros(0), np.zeros(0, int), dropped
        return np.concatenate(rays), np.concatenate(ts), np.concatenate(prims), dropped

    def _crossings_tail(self, idx: np.ndarray, e: np.ndarray, d: np.ndarray, ln: np.ndarray, start: np.ndarray,
                        hf: np.ndarray, lim: np.ndarray, pt: np.ndarray, rounds: int, early: bool,
                        dropped: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`_crossings` for its last few rays, each on its own: the same casts, the same sums."""
        _, cast, blocked, _, _ = self._casters()
        owner, f_nx, f_ny, f_nz = self._canopy_owner, self._canopy_nx, self._canopy_ny, self._canopy_nz
        cut = self._part_cutoff_list
        rays: list[int] = []
        ts: list[float] = []
        prims: list[int] = []
        for i, (ex, ey, ez), (ux, uy, uz), length, s, h, lm, p_t in zip(
                idx.tolist(), e.tolist(), d.tolist(), ln.tolist(), start.tolist(), hf.tolist(), lim.tolist(),
                pt.tolist(), strict=True):
            for _ in range(rounds):
                t, prim = cast(ex + ux * s, ey + uy * s, ez + uz * s, ux, uy, uz, length - s)
                if prim < 0:
                    break
                t_abs = s + t
                rays.append(i)
                ts.append(t_abs)
                prims.append(prim)
                s += t + STEP
                p = owner[prim]
                if early and p != p_t and cut[p] < lm and t_abs > 0:
                    if f_nx[prim] * ux + f_ny[prim] * uy + f_nz[prim] * uz < 0:
                        reach = min(KILL_PLAN * 1.01 / max(h, 1e-12), length - s)
                        if (not blocked(ex + ux * s, ey + uy * s, ez + uz * s, ux, uy, uz, reach)
                                and (s + reach - t_abs) * h >= KILL_PLAN):
                            dropped[i] = True
                            break
        return np.array(rays, dtype=np.int64), np.array(ts), np.array(prims, dtype=np.int64)

    # -- one sightline at a time ----------------------------------------------------------------------
    def _inside1(self, x: float, y: float, z: float) -> int:
        """:meth:`_inside` for one point."""
        cell = self.grid.cell(x, y)
        code = self._part_list[cell]
        if code == -1:
            return -1
        if code >= 0:
            if self._in_lo_list[cell] < z < self._in_hi_list[cell]:
                return code
            if z < self._out_lo_list[cell] or z > self._out_hi_list[cell]:
                return -1
        _, prim = self._casters()[1](x, y, z, 0.0, 0.0, 1.0, 1e6)  # RayScene.first1 up, by the thread's caster
        return self._canopy_owner[prim] if prim >= 0 and self._canopy_nz[prim] > 0 else -1

    def _ground1(self, x: float, y: float) -> float:
        """:meth:`_ground` for one point."""
        g = self._flat_list[self.grid.cell(x, y)]
        if g == g:
            return g
        top = self._top
        t, prim = self._casters()[4](x, y, top, 0.0, 0.0, -1.0, 1e6)
        if prim < 0:
            return 0.0
        v = round((top - t) * 10000.0)  # np.round(x, 4): scale, round half to even, keep the sign of zero
        return (float(v) if v else math.copysign(0.0, top - t)) / 10000.0

    def _end1(self, x: float, y: float, z: float) -> list:
        """What the single path keeps per sightline end: [does it stand 2" or more up (DD-4.41), its
        canopy volume (None until asked), the building of ``walls`` it is inside (-1: none)]."""
        cell = self.grid.cell(x, y)
        code = self._walls_cell[cell]
        wall = -1 if code == -1 else self._walls_of1(x, y, z)
        if z - EYE_HEIGHT >= ELEVATED - 1e-6:
            return [True, None, wall]
        if self._max_list[cell] + 1e-4 < ELEVATED - 1e-6:
            return [False, None, wall]
        g = self._flat_list[cell]
        return [(g if g == g else self._ground1(x, y)) >= ELEVATED - 1e-6, None, wall]

    def _on_table1(self, ex: float, ey: float, tx: float, ty: float) -> None:
        """:meth:`_on_table` for one sightline's ends."""
        w, h = self.width + 1e-6, self.height + 1e-6
        if ex < -1e-6 or ex > w or ey < -1e-6 or ey > h:  # _off_table
            raise ValueError(f"sightline from ({ex:.2f}, {ey:.2f}) is off the {self.width:g}x{self.height:g} table")
        if tx < -1e-6 or tx > w or ty < -1e-6 or ty > h:
            raise ValueError(f"sightline to ({tx:.2f}, {ty:.2f}) is off the {self.width:g}x{self.height:g} table")

    def _sight_fast(self, e: tuple[float, float, float], q: tuple[float, float, float], conditions: Conditions,
                    distance: float | None = None, early: bool = False) -> list[float]:
        """One sightline through the compiled path (``self._fast``; not under burnt ground): its answer as
        the list ``game.world.sightline`` writes (:meth:`_fast_row` reads it)."""
        ex, ey, ez = e
        tx, ty, tz = q
        self._on_table1(ex, ey, tx, ty)
        return self._caller.sight(self._fast_conditions(conditions), ex, ey, ez, tx, ty, tz,
                                  math.nan if distance is None else distance, early).tolist()

    def _evidence(self, v: list[float], e: tuple[float, float, float], conditions: Conditions) -> LosResult:
        """The full answer of :meth:`check_points` from the compiled path's list ``v``."""
        s = self._fast_row(v, e, conditions)
        return self._full_result(s, float(s.visible))

    def _off_table(self, x: float, y: float) -> bool:
        return x < -1e-6 or x > self.width + 1e-6 or y < -1e-6 or y > self.height + 1e-6

    def _sight(self, e: tuple[float, float, float], q: tuple[float, float, float], conditions: Conditions,
               distance: float | None = None, early: bool = False) -> Sight:
        """:meth:`trace` for one sightline, in plain Python around single Embree casts: the same
        arithmetic, in the same order, so the same answer to the last bit."""
        ex, ey, ez = e
        tx, ty, tz = q
        if self._fast is not None and not conditions.burnt:  # compiled (game.world.sightline)
            return self._fast_row(self._sight_fast(e, q, conditions, distance, early), e, conditions)
        self._on_table1(ex, ey, tx, ty)
        dx, dy, dz = tx - ex, ty - ey, tz - ez
        length = math.sqrt(dx * dx + dy * dy + dz * dz)
        plan = math.sqrt(dx * dx + dy * dy)
        safe = max(length, 1e-12)
        if length > 0:
            ux, uy, uz = dx / safe, dy / safe, dz / safe
            hfac = plan / safe
        else:
            ux, uy, uz, hfac = 1.0, 0.0, 0.0, 0.0
        d = (ux, uy, uz)
        dist = math.floor((plan if distance is None else distance) * Q + 0.5) / Q
        C = len(self.classes)

        # 5 (first): the limits before terrain
        memo = self._memo
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        end_e = memo.get(e)
        if end_e is None:
            end_e = memo[e] = self._end1(ex, ey, ez)
        end_t = memo.get(q)
        if end_t is None:
            end_t = memo[q] = self._end1(tx, ty, tz)
        elevated = end_e[0] or end_t[0]
        cutoff = OPEN_LIMIT + ELEVATION_BONUS if elevated else OPEN_LIMIT
        limit = self._limit_elevated if elevated else self._limit_open
        tcap = TIME_CAPS[conditions.time_of_day]
        if tcap is not None:
            lit = False
            for cx, cy, r in conditions.illuminated:
                lit = lit or bool(np.hypot(ex - cx, ey - cy) <= r) or bool(np.hypot(tx - cx, ty - cy) <= r)
            if not lit and tcap < cutoff:
                cutoff, limit = tcap, self._limit[conditions.time_of_day]
        wcap, wname, _ = conditions.weather_cap()
        if wcap is not None and wcap < cutoff:
            cutoff, limit = wcap, self._limit[wname]
        far = dist > cutoff + 1e-9
        smoke = False
        if conditions.smoke:
            a, b = np.array([[ex, ey]]), np.array([[tx, ty]])
            for cx, cy, r in conditions.smoke:
                smoke = smoke or bool(_segment_near(a, b, cx, cy, r)[0])
        zeros = self._zeros
        if far or (early and smoke):
            return Sight(False, dist, cutoff, limit, zeros, INF, -1, smoke, -1, INF, e, d, elevated, NO_BAND, far, far)
        hull, hull_t = "", INF  # 2. vehicle hulls and wrecks (G-01 T15; game.world.hulls)
        if conditions.hulls:
            hulls = self._hulls(conditions)
            assert hulls is not None
            k, at = block1(hulls, ex, ey, ez, tx, ty, tz)
            if k >= 0:
                if early:
                    return Sight(False, dist, cutoff, limit, zeros, INF, -1, smoke, -1, INF, e, d, elevated,
                                 NO_BAND, False, False)
                hull, hull_t = hulls.ids[k], at * length
        if self.grid.clear(ex, ey, tx, ty, min(ez, tz)):
            # nothing but open ground under the whole sightline: no cast could hit anything
            return Sight(not smoke and not hull and dist <= cutoff + 1e-9, dist, cutoff, limit, zeros, INF, -1, smoke,
                         -1, INF, e, d, elevated, NO_BAND, False, True, NO_WALL, hull, hull_t)
        solid, canopy_cast, canopy_blocked, core_cast, _ = self._casters()

        # 1. ground and buildings (an end inside a hootch or masonry building, within its wall band, sees
        # out: G-01 T10/T11)
        solid_t, solid_part = INF, -1
        wall, walled = NO_WALL, False
        be, bt = end_e[2], end_t[2]
        if (be >= 0 or bt >= 0) and length > SOLID_CLEARANCE:
            te, tb = self._wall_windows(be, bt, ex, ey, tx, ty, length)
            solid_t, prim, wall = self._solid_past_walls(ex, ey, ez, ux, uy, uz, length - SOLID_CLEARANCE,
                                                         be, te, bt, tb)
            if prim >= 0:
                if early:
                    return Sight(False, dist, cutoff, limit, zeros, INF, -1, smoke, -1, INF, e, d, elevated,
                                 NO_BAND, False, False)
                solid_part = self._solid_owner[prim]
            walled = True
        if length > SOLID_CLEARANCE and not walled:
            if early:
                if solid[1](ex, ey, ez, ux, uy, uz, length - SOLID_CLEARANCE):
                    return Sight(False, dist, cutoff, limit, zeros, INF, -1, smoke, -1, INF, e, d, elevated,
                                 NO_BAND, False, False)
            else:
                solid_t, prim = solid[0](ex, ey, ez, ux, uy, uz, length - SOLID_CLEARANCE)
                solid_part = self._solid_owner[prim] if prim >= 0 else -1
        # burnt ground (G-19); over it a canopy cutoff is not sure: no early drop
        burnt = self._burnt(conditions) if conditions.burnt else None
        cut = burnt.cut1(ex, ey, tx, ty, length) if burnt is not None else None
        kill = early and (cut is None or not cut.stretches)

        # 3. canopy: every boundary crossed, in order; as each is found, the intervals it closes inside its
        # volume (as _intervals has them): an exit closes the one from the entry just before it (from 0
        # when it is the volume's first crossing; an exit after an exit spans nothing); an entry followed
        # by another entry, or by nothing, opens one to that entry or to the end.
        part_t = end_t[1]
        if part_t is None:
            part_t = end_t[1] = self._inside1(tx, ty, tz)
        part_e = end_e[1]
        if part_e is None:
            part_e = end_e[1] = self._inside1(ex, ey, ez)
        f_owner, f_nx, f_ny, f_nz, f_top = (self._canopy_owner, self._canopy_nx, self._canopy_ny, self._canopy_nz,
                                            self._canopy_top)
        part_cutoff = self._part_cutoff_list
        pending: dict[int, float | None] = {}  # per volume crossed: the t of an entry not yet closed, or None
        ivs: list[tuple[int, int, float, float]] = []  # (kind: 0 closed by an exit, 1 by an entry or the end; volume, t0, t1)
        tops: list[tuple[float, int]] = []  # (t, volume) of each entry onto the top of a dense volume
        exit_e = last_entry_t = None  # the eye's volume's first exit, the target's volume's last entry
        if length > 0 and not self.geo.canopy.empty:
            raw = self._raw_canopy()
            if raw is not None:
                pack, buf, off, isect, scene, ptr, read, at = raw
            inv, step = _INVALID, STEP
            start = 0.0
            for _ in range(MAX_HITS):
                if raw is not None:  # canopy_cast, inline: the same ray into the same scene
                    pack(buf, off, ex + ux * start, ey + uy * start, ez + uz * start, 0.0, ux, uy, uz, 0.0,
                         length - start, inv, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, inv, inv, inv)
                    isect(scene, ptr, None)
                    t, prim = read(buf, at)
                    if prim == inv:
                        break
                else:
                    t, prim = canopy_cast(ex + ux * start, ey + uy * start, ez + uz * start, ux, uy, uz,
                                          length - start)
                    if prim < 0:
                        break
                t_abs = start + t
                p = f_owner[prim]
                entering = f_nx[prim] * ux + f_ny[prim] * uy + f_nz[prim] * uz < 0
                if entering:
                    t0 = pending.get(p)
                    if t0 is not None:
                        ivs.append((1, p, t0, t_abs))
                    pending[p] = t_abs
                    if p == part_t:
                        last_entry_t = t_abs
                    if f_top[prim]:
                        tops.append((t_abs, p))
                else:
                    if p in pending:
                        t0 = pending[p]
                        if t0 is not None:
                            ivs.append((0, p, t0, t_abs))
                            pending[p] = None
                    else:
                        ivs.append((0, p, 0.0, t_abs))
                        pending[p] = None
                    if p == part_e and exit_e is None:
                        exit_e = t_abs
                start += t + step
                if kill and entering and p != part_t and part_cutoff[p] < dist - 1e-9 and t_abs > 0:
                    reach = min(KILL_PLAN * 1.01 / max(hfac, 1e-12), length - start)
                    if (not canopy_blocked(ex + ux * start, ey + uy * start, ez + uz * start, ux, uy, uz, reach)
                            and (start + reach - t_abs) * hfac >= KILL_PLAN):
                        return Sight(False, dist, cutoff, limit, zeros, INF, -1, smoke, -1, INF, e, d, elevated,
                                     NO_BAND, False, False)
        span_e = span_t = 0.0
        if part_e >= 0:
            span_e = self._band_span1(core_cast, ex, ey, ez, ux, uy, uz, part_e,
                                      length if exit_e is None else min(exit_e, length))
        if part_t >= 0:
            span_t = self._band_span1(core_cast, tx, ty, tz, -ux, -uy, -uz, part_t,
                                      length if last_entry_t is None else length - last_entry_t)
        if cut is not None:  # G-19: the woodlines the fire made, and none on burnt ground
            veg = self._part_veg_list
            span_e = spans1(span_e, veg[part_e], cut.on_e, cut.band_e, cut.reach_e,
                            length if exit_e is None else min(exit_e, length))
            span_t = spans1(span_t, veg[part_t], cut.on_t, cut.band_t, cut.reach_t,
                            length if last_entry_t is None else length - last_entry_t)

        # inches inside each class: the intervals of _intervals, united as _union_add does, in its order
        # (its order: closed by an exit before opened, by volume, by t; then the ends' own volumes)
        inches = zeros
        if pending or part_e >= 0 or part_t >= 0:
            for p, t0 in pending.items():
                if t0 is not None:
                    ivs.append((1, p, t0, length))
            if part_e >= 0 and part_e not in pending:
                ivs.append((2, part_e, 0.0, length))
            if part_t >= 0 and part_t not in pending and part_e != part_t:
                ivs.append((3, part_t, 0.0, length))
            cls_of = self._part_class_list
            spans = []
            for kind, p, t0, t1 in ivs:
                if p == part_e and t0 <= 0.0:
                    t0 = max(t0, span_e)
                if p == part_t and t1 >= length:
                    t1 = min(t1, length - span_t)
                if cut is not None and cut.stretches and self._part_veg_list[p]:  # G-19: none over burnt ground
                    spans.extend((cls_of[p], a, kind, p, b) for a, b in cut.clip(t0, t1))
                elif t1 > t0:
                    spans.append((cls_of[p], t0, kind, p, t1))
            if spans:
                if len(spans) > 1:
                    spans.sort()  # by class and start, then as _intervals lists them: no two spans tie on all four
                total = [0.0] * (C + 1)
                group, reach = -2, -INF
                for c, t0, _, _, t1 in spans:
                    if c == group:
                        total[c] += max(t1 - max(t0, reach), 0.0)
                        reach = max(reach, t1)
                    else:
                        total[c] += t1 - t0  # t1 > t0: what max(t1 - max(t0, -inf), 0.0) gives
                        group, reach = c, t1
                inches = tuple([math.floor(v * hfac * Q + 0.5) / Q for v in total[:C]])

        # 4. dense canopy entered from above, outside the bands (DD-4.41)
        above_t, above_part = INF, -1
        for t, p in tops:
            if t > span_e + 1e-6 and t < length - span_t - 1e-6 and t < above_t:
                if cut is not None and self._part_veg_list[p] and cut.over(t):
                    continue  # G-19: no canopy top over burnt ground
                above_t, above_part = t, p

        # 5. each canopy class crossed caps the total length (G-02); ties go to the terrain
        if inches is not zeros:
            for c in range(C):
                if inches[c] > 0 and self._class_cutoff_list[c] <= cutoff:
                    cutoff, limit = self._class_cutoff_list[c], c
        blocked = solid_part >= 0 or smoke or above_part >= 0 or bool(hull)
        band = (part_e >= 0 and span_e > 0, part_t >= 0 and span_t > 0)
        return Sight(not blocked and dist <= cutoff + 1e-9, dist, cutoff, limit, inches, solid_t, solid_part, smoke,
                     above_part, above_t, e, d, elevated, band, False, True, wall, hull, hull_t)

    # -- the compiled path (game.world.sightline) ----------------------------------------------------
    @property
    def _fast_width(self) -> int:
        return _sl.OUT + len(self.classes)

    @property
    def _caller(self) -> Any:
        """This thread's calls into the compiled path (``Caller`` of ``game.world.sightline_native`` or
        ``game.world.sightline``): its scratch, and its buffer for one answer (read out before the next)."""
        got = getattr(self._local, "caller", None)
        if got is None:
            got = self._local.caller = _kernel.Caller(self._fast)
        return got

    def _fast_conditions(self, conditions: Conditions) -> np.ndarray:
        """The conditions packed for the compiled path (kept per conditions, a few at a time)."""
        last = self._fast_last
        if last[0] is conditions:
            return last[1]
        got = self._fast_cond.get(conditions)
        if got is None:
            wcap, wname, _ = conditions.weather_cap()
            tod = conditions.time_of_day
            got = _sl.pack_conditions(TIME_CAPS[tod], self._limit[tod], wcap, self._limit[wname] if wname else -1,
                                      conditions.illuminated, conditions.smoke, self._hulls(conditions))
            if len(self._fast_cond) > 64:
                self._fast_cond.clear()
            self._fast_cond[conditions] = got
        self._fast_last = (conditions, got)
        return got

    def _fast_row(self, v: list, e: tuple, conditions: Conditions) -> Sight:
        """A :class:`Sight` from one answer of the compiled path."""
        sl = _sl
        k = int(v[sl.O_HULL])
        hull = self._hulls(conditions).ids[k] if k >= 0 else ""  # type: ignore[union-attr]
        return Sight(v[sl.O_VIS] != 0.0, v[sl.O_DIST], v[sl.O_CUT], int(v[sl.O_LIM]),
                     self._zeros if v[sl.O_ZERO] else tuple(v[sl.O_INCHES:]), v[sl.O_SOLID_T], int(v[sl.O_SOLID_P]),
                     v[sl.O_SMOKE] != 0.0, int(v[sl.O_ABOVE_P]), v[sl.O_ABOVE_T], e, tuple(v[sl.O_UX:sl.O_UZ + 1]),
                     v[sl.O_ELEV] != 0.0, (v[sl.O_BAND_E] != 0.0, v[sl.O_BAND_T] != 0.0), v[sl.O_FAR] != 0.0,
                     v[sl.O_COMPLETE] != 0.0, (int(v[sl.O_WALL_E]), int(v[sl.O_WALL_T])), hull, v[sl.O_HULL_T])

    def _trace_fast(self, eyes: np.ndarray, targets: np.ndarray, conditions: Conditions,
                    distance: np.ndarray | None, early: bool) -> Trace:
        """:meth:`trace` through the compiled path: each row the answer of :meth:`_sight`."""
        sl = _sl
        eyes, targets, out = self._rows_fast(eyes, targets, conditions, distance, early)
        hulls = self._hulls(conditions)
        wall = out[:, [sl.O_WALL_E, sl.O_WALL_T]].astype(int)
        return Trace(out[:, sl.O_VIS] != 0.0, out[:, sl.O_DIST], out[:, sl.O_CUT], out[:, sl.O_LIM].astype(int),
                     out[:, sl.O_INCHES:], out[:, sl.O_SOLID_T], out[:, sl.O_SOLID_P].astype(int),
                     out[:, sl.O_SMOKE] != 0.0, out[:, sl.O_ABOVE_P].astype(int), out[:, sl.O_ABOVE_T], eyes,
                     out[:, sl.O_UX:sl.O_UZ + 1], out[:, sl.O_LEN], out[:, sl.O_ELEV] != 0.0,
                     out[:, [sl.O_BAND_E, sl.O_BAND_T]] != 0.0, out[:, sl.O_FAR] != 0.0, out[:, sl.O_COMPLETE] != 0.0,
                     wall if (wall >= 0).any() else None, None if hulls is None else out[:, sl.O_HULL].astype(int),
                     None if hulls is None else out[:, sl.O_HULL_T], hulls.ids if hulls is not None else ())

    def _rows_fast(self, eyes: np.ndarray, targets: np.ndarray, conditions: Conditions,
                   distance: np.ndarray | None, early: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The compiled answers, one row each (``sightline_layout.O_*``), with the eyes and targets as
        arrays: (eyes, targets, rows)."""
        sl = _sl
        eyes = np.ascontiguousarray(np.asarray(eyes, float).reshape(-1, 3))
        targets = np.ascontiguousarray(np.asarray(targets, float).reshape(-1, 3))
        self._on_table(eyes[:, :2], "sightline from")
        self._on_table(targets[:, :2], "sightline to")
        n = len(eyes)
        dist = np.full(n, np.nan) if distance is None else np.ascontiguousarray(np.asarray(distance, float).reshape(n))
        out = np.empty((n, self._fast_width))
        Qc = self._fast_conditions(conditions)
        if n >= sl.LOCAL:  # the rows taken in locality's order, each answer written to its own row
            order = sl.locality(eyes, targets, self.width, self.height)
            self._caller.sight_many(Qc, eyes, targets, dist, early, False, order, out)
        else:
            self._caller.sight_many(Qc, eyes, targets, dist, early, False, _NO_ORDER, out)
        return eyes, targets, out

    def _casters(self) -> tuple:
        fns = getattr(self._local, "casters", None)
        if fns is None:
            geo = self.geo
            fns = self._local.casters = (geo.solid.casters(), *geo.canopy.casters(), geo.core.casters()[0],
                                         geo.ground.casters()[0])
        return fns

    def _raw_canopy(self) -> tuple | None:
        """The canopy scene's direct cast in pieces (:meth:`RayScene.raw_first`) for this thread, or None."""
        loc = self._local
        try:
            return loc.raw_canopy
        except AttributeError:
            raw = loc.raw_canopy = self.geo.canopy.raw_first()
            return raw

    def _band_span1(self, cast: Any, x: float, y: float, z: float, dx: float, dy: float, dz: float, part: int,
                    exit_t: float) -> float:
        """:meth:`_band_span` for one end."""
        t, prim = cast(x, y, z, dx, dy, dz, 1e6)
        if prim < 0 or self._core_owner[prim] != part:
            return exit_t
        fx, fy, fz = self._core_normal
        if fx[prim] * dx + fy[prim] * dy + fz[prim] * dz > 0:
            return 0.0
        return min(exit_t, t)

    def batch(self, eyes: np.ndarray, targets: np.ndarray, conditions: Conditions) -> np.ndarray:
        """Can each eye see its target? Eyes and targets are Nx3 points, table frame (the AI's fast path)."""
        if self._fast is not None and not conditions.burnt:  # (the answers alone, no Trace built round them)
            return self._rows_fast(eyes, targets, conditions, None, True)[2][:, _sl.O_VIS] != 0.0
        return self.trace(eyes, targets, conditions, early=True).visible

    # -- single questions --------------------------------------------------------------------------
    def _point1(self, p: tuple[float, ...]) -> tuple[float, float, float]:
        if len(p) == 3:
            return (float(p[0]), float(p[1]), float(p[2]))
        x, y = float(p[0]), float(p[1])
        return (x, y, self.elevation(x, y) + EYE_HEIGHT)

    def _point(self, p: tuple[float, ...]) -> np.ndarray:
        if len(p) == 3:
            return np.array(p, float)
        x, y = float(p[0]), float(p[1])
        return np.array([x, y, self.elevation(x, y) + EYE_HEIGHT])

    def check_points(self, p: tuple[float, ...], q: tuple[float, ...], conditions: Conditions) -> LosResult:
        """LOS from point p to point q: (x, y) stands an eye 0.6" above the ground there, (x, y, z) is exact."""
        e, t = self._point1(p), self._point1(q)
        if self._fast is not None and not conditions.burnt:  # the evidence made when first read (_deferred)
            v = self._sight_fast(e, t, conditions)
            visible = v[_sl.O_VIS] != 0.0
            return _deferred(visible, 1.0 if visible else 0.0, v[_sl.O_DIST], (self._evidence, v, e, conditions))
        s = self._sight(e, t, conditions)
        return self._result(s, float(s.visible))

    def eye(self, o: Observer, toward: Observer | None = None) -> np.ndarray:
        """An observer's eye: on its base edge nearest ``toward`` (or its centre), eye height above the
        ground; a tree sniper's eye is up in the canopy over its base (DD-4.42)."""
        if toward is None:
            x, y = o.x, o.y
        else:
            a, _ = nearest_points(o.base(), toward.base())
            x, y = a.x, a.y
        return self._figure_points(o, np.array([[x, y]]), np.array([o.eye_height]))[0]

    def _tree_z(self, o: Observer) -> float:
        """Height of a tree sniper's eye: 80% of the way up the canopy over its base (DD-4.42)."""
        z = self._trees.get(o)
        if z is None:
            top = self.geo.top + 10.0
            centre = np.array([[o.x, o.y, top]])
            t, prim = self.geo.canopy.first(centre, np.array([[0.0, 0.0, -1.0]]))
            if prim[0] < 0:
                raise ValueError(f"a tree sniper at ({o.x:.2f}, {o.y:.2f}) has no canopy over it (DD-4.42)")
            g0 = self.elevation(o.x, o.y)
            z = g0 + 0.8 * (top - float(t[0]) - g0)
            if len(self._trees) > CACHE_LIMIT:
                self._trees.clear()
            self._trees[o] = z
        return z

    def _figure_points(self, o: Observer, xy: np.ndarray, heights: np.ndarray) -> np.ndarray:
        if not o.tree:
            return np.column_stack([xy, self.elevations(xy) + heights])
        return np.column_stack([xy, np.full(len(xy), self._tree_z(o)) - (o.eye_height - heights) * 0.5])

    def _base(self, o: Observer) -> Any:
        """A stand's base as a polygon (``Observer.base``), made once per stand and position."""
        base = self._bases.get(o)
        if base is None:
            if len(self._bases) > CACHE_LIMIT:
                self._bases.clear()
            base = self._bases[o] = o.base()
        return base

    def _body(self, o: Observer) -> np.ndarray:
        """The centre and four points inset on a stand's base, at figure heights (cached per stand)."""
        body = self._bodies.get(o)
        if body is None:
            c, s = math.cos(math.radians(o.facing)), math.sin(math.radians(o.facing))
            pts = []
            for (u, v), h in zip(BODY_LOCAL.tolist(), BODY_HEIGHTS.tolist(), strict=True):
                lx, ly = u * o.depth, v * o.width
                pts.append((o.x + lx * c - ly * s, o.y + lx * s + ly * c, o.body_height or h))
            if o.tree:
                z = self._tree_z(o)
                body = np.array([(x, y, z - (o.eye_height - h) * 0.5) for x, y, h in pts])
            else:
                for x, y, _ in pts:
                    if self._off_table(x, y):
                        raise ValueError(f"point ({x:.2f}, {y:.2f}) is off the {self.width:g}x{self.height:g} table")
                body = np.array([(x, y, self._ground1(x, y) + h) for x, y, h in pts])
            if len(self._bodies) > CACHE_LIMIT:
                self._bodies.clear()
            self._bodies[o] = body
        return body

    def samples(self, o: Observer, toward: Observer) -> np.ndarray:
        """Points a sightline aims at on a stand: its eye toward the other, its centre and four points
        inset on its base, at figure heights (DESIGN §7)."""
        return np.vstack([self.eye(o, toward)[None], self._body(o)])

    def check(self, a: Observer, b: Observer, conditions: Conditions) -> LosResult:
        """LOS between two stands: sightlines from each eye to the other's sample points (DD-4.5).

        Stand to stand, the rule distance is base edge to base edge; the result reports the first clear
        sightline (eye to eye first), or the eye-to-eye one when none is clear, and the share clear.
        """
        base_a, base_b = self._base(a), self._base(b)
        edge = float(shapely.distance(base_a, base_b))
        xa = shapely.get_coordinates(shapely.shortest_line(base_a, base_b))[0]
        xb = shapely.get_coordinates(shapely.shortest_line(base_b, base_a))[0]
        if self._off_table(float(xa[0]), float(xa[1])) or self._off_table(float(xb[0]), float(xb[1])):
            bad = xa if self._off_table(float(xa[0]), float(xa[1])) else xb
            raise ValueError(f"point ({bad[0]:.2f}, {bad[1]:.2f}) is off the {self.width:g}x{self.height:g} table")
        eye_a = (float(xa[0]), float(xa[1]), self._eye_z(a, float(xa[0]), float(xa[1])))
        eye_b = (float(xb[0]), float(xb[1]), self._eye_z(b, float(xb[0]), float(xb[1])))
        body_a = [tuple(v) for v in self._body(a).tolist()]
        body_b = [tuple(v) for v in self._body(b).tolist()]
        if math.floor(edge * Q + 0.5) / Q > _longest_limit(conditions) + 1e-9:
            return self._result(self._sight(eye_a, eye_b, conditions, edge, early=True), 0.0)
        lines = [(eye_a, q) for q in [eye_b, *body_b]] + [(eye_b, q) for q in [eye_a, *body_a]]
        if self._fast is not None and not conditions.burnt:  # the twelve in one compiled call
            src, dst = np.array([e for e, _ in lines]), np.array([q for _, q in lines])
            self._on_table(src[:, :2], "sightline from")
            self._on_table(dst[:, :2], "sightline to")
            out = np.empty((SIGHTLINES, self._fast_width))
            self._caller.sight_many(self._fast_conditions(conditions), src, dst, np.full(SIGHTLINES, edge), True, True,
                                    _NO_ORDER, out)
            vis = out[:, _sl.O_VIS] != 0.0
            count = int(vis.sum())
            pick = int(np.argmax(vis)) if count else 0
            s = self._fast_row(out[pick].tolist(), lines[pick][0], conditions)
        else:
            sights = [self._sight(e, q, conditions, edge, early=True) for e, q in lines]
            count = sum(s.visible for s in sights)
            pick = next((k for k, s in enumerate(sights) if s.visible), 0)
            s = sights[pick]
        if not s.complete:
            s = self._sight(*lines[pick], conditions, edge)
        return self._result(s, count / SIGHTLINES)

    def _eye_z(self, o: Observer, x: float, y: float) -> float:
        return self._tree_z(o) if o.tree else self._ground1(x, y) + o.eye_height

    def check_many(self, pairs: Sequence[tuple[Observer, Observer]], conditions: Conditions) -> list[LosResult]:
        """:meth:`check` for many pairs of stands in one batched trace: the same answer for each pair.

        A pair whose base edge distance exceeds the longest limit the conditions allow (30" elevated,
        less in weather or at night) is answered without tracing its sightlines. Fewer than
        ``BATCH_PAIRS`` pairs are checked one at a time, which is quicker for so few.
        """
        n = len(pairs)
        if n < BATCH_PAIRS:
            # too few to pay for the array work: one pair at a time (the same answers, tests/world)
            return [self.check(a, b, conditions) for a, b in pairs]
        ga = np.array([self._base(a) for a, _ in pairs], dtype=object)
        gb = np.array([self._base(b) for _, b in pairs], dtype=object)
        edge = shapely.distance(ga, gb)
        eye_a = shapely.get_coordinates(shapely.shortest_line(ga, gb))[0::2]
        eye_b = shapely.get_coordinates(shapely.shortest_line(gb, ga))[0::2]
        eyes = np.empty((n, 2, 3))
        eyes[:, 0, :2], eyes[:, 1, :2] = eye_a, eye_b
        self._on_table(np.vstack([eye_a, eye_b]), "point")
        g = self._ground(np.vstack([eye_a, eye_b]))
        for k, (a, b) in enumerate(pairs):
            eyes[k, 0, 2] = self._tree_z(a) if a.tree else g[k] + a.eye_height
            eyes[k, 1, 2] = self._tree_z(b) if b.tree else g[n + k] + b.eye_height
        body_a = np.array([self._body(a) for a, _ in pairs])
        body_b = np.array([self._body(b) for _, b in pairs])
        near = np.nonzero(quantise(edge) <= _longest_limit(conditions) + 1e-9)[0]
        far = np.setdiff1d(np.arange(n), near)
        out: list[LosResult | None] = [None] * n
        if len(far):
            tr = self.trace(eyes[far, 0], eyes[far, 1], conditions, distance=edge[far], early=True)
            for i, k in enumerate(far.tolist()):
                out[k] = self._result(tr.row(i), 0.0)
        if len(near):
            # per pair: the eye of a to b's eye and body points, then the eye of b to a's (DD-4.5)
            m, half = len(near), SIGHTLINES // 2
            src = np.repeat(eyes[near], half, axis=1)
            dst = np.concatenate([eyes[near, 1:2], body_b[near], eyes[near, 0:1], body_a[near]], axis=1)
            src, dst = src.reshape(-1, 3), dst.reshape(-1, 3)
            tr = self.trace(src, dst, conditions, distance=np.repeat(edge[near], SIGHTLINES), early=True)
            vis = tr.visible.reshape(m, SIGHTLINES)
            count = vis.sum(axis=1).tolist()
            pick = (np.arange(m) * SIGHTLINES + np.where(vis.any(axis=1), np.argmax(vis, axis=1), 0))
            redo = np.nonzero(~tr.complete[pick])[0]
            rows = {int(i): tr.row(int(pick[i])) for i in np.nonzero(tr.complete[pick])[0]}
            if len(redo):
                lines = pick[redo]
                full = self.trace(src[lines], dst[lines], conditions, distance=edge[near[redo]])
                rows.update({int(i): full.row(j) for j, i in enumerate(redo)})
            for i, k in enumerate(near.tolist()):
                out[k] = self._result(rows[i], count[i] / SIGHTLINES)
        return out  # type: ignore[return-value]

    # -- evidence ----------------------------------------------------------------------------------
    def _result(self, s: Sight, fraction: float) -> LosResult:
        """The answer for the sightline ``s`` (the share ``fraction`` of a stand's sightlines clear), its
        evidence made when first read (:func:`_deferred`; :meth:`_full_result`)."""
        assert s.complete, "evidence of a sightline the batched trace dropped"
        return _deferred(s.visible and fraction > 0, round(fraction, 4), s.distance, (self._full_result, s, fraction))

    def _full_result(self, s: Sight, fraction: float) -> LosResult:
        inches = {c: v for c, v in zip(self.classes, s.inches, strict=True) if v > 0} if s.inches is not self._zeros else {}
        dist = s.distance
        parts = self.geo.parts
        fraction = round(fraction, 4)
        extra = {"elevated": s.elevated, "woodline": list(s.band), "traced": not s.far}
        walls = ""
        if s.wall != NO_WALL and not s.far:  # G-01 T10/T11: an end at a building's wall sees out through it
            extra["wall"] = [self.walls[k].feature if k >= 0 else None for k in s.wall]
            walls = "; " + ", ".join(
                f"the {end} at the wall of {self.walls[k].terrain} '{self.walls[k].feature}' sees out "
                f"({_WALL_CLAUSE.get(self.walls[k].terrain, 'G-01 T10')})"
                for end, k in zip(("eye", "target"), s.wall, strict=True) if k >= 0)
        name = self.limit_names[s.limit]
        cutoff = s.cutoff
        clause = _LIMIT_CLAUSE.get(name, "")
        if s.far:
            return _answer(False, fraction, dist, {}, cutoff, name, None, clause, (_why_far, dist, cutoff, name), extra)
        if s.solid_part >= 0 and not (s.hull and s.hull_t < s.solid_t):  # the nearer of it and a hull
            at = [round(e + d * s.solid_t, 2) for e, d in zip(s.eye, s.dir, strict=True)]
            p = parts[s.solid_part]
            kind = "ground" if p.role == "ground" else "building"
            clause = "G-01 T14" if kind == "ground" else "G-02"
            what = "the ground (a hill)" if kind == "ground" else f"a building ({p.terrain} '{p.feature}')"
            return _answer(False, fraction, dist, inches, 0.0, kind, {"feature": p.feature, "terrain": p.terrain, "at": at},
                           clause, (_why_blocked, what, at, walls), extra)
        if s.hull:
            at = [round(e + d * s.hull_t, 2) for e, d in zip(s.eye, s.dir, strict=True)]
            return _answer(False, fraction, dist, inches, 0.0, "hull", {"feature": s.hull, "terrain": "hull", "at": at},
                           "G-01 T15", (_why_blocked, f"the hull of '{s.hull}'", at, ""), extra)
        if s.smoke:
            return _answer(False, fraction, dist, inches, 0.0, "smoke", {"feature": "smoke", "terrain": "smoke", "at": None},
                           "DD-5.34", (_why_text, "blocked by a smoke or dust cloud"), extra)
        if s.above_part >= 0:
            p = parts[s.above_part]
            pos = [round(e + d * s.above_t, 2) for e, d in zip(s.eye, s.dir, strict=True)]
            return _answer(False, fraction, dist, inches, 0.0, p.canopy or p.terrain,
                           {"feature": p.feature, "terrain": p.terrain, "at": pos}, "DD-4.41",
                           (_why_text, f"no one sees into dense canopy from above ({p.terrain} '{p.feature}')"), extra)
        blocker = None
        if name in self.class_index:
            k = self.class_index[name]
            clause = "DD-4.4" if self.class_dense[k] else "G-02"
            deep = self._class_feature[name]
            blocker = {"feature": deep[0] if len(deep) == 1 else None, "terrain": name, "at": None}
        if s.visible:
            blocker = None
        why = (_why_limit, s.visible, dist, cutoff, name, tuple(inches.items()), s.band[0] or s.band[1], walls)
        return _answer(s.visible and fraction > 0, fraction, dist, inches, cutoff, name, blocker, clause, why, extra)

    def _segments(self, eyes: np.ndarray, targets: np.ndarray, distance: np.ndarray | None) -> tuple:
        """The sightlines as arrays, checked to lie on the table: eyes, targets, count, 3D lengths,
        unit directions, plan lengths, plan/3D ratio, and the quantised distance each reports."""
        eyes = np.asarray(eyes, float).reshape(-1, 3)
        targets = np.asarray(targets, float).reshape(-1, 3)
        self._on_table(eyes[:, :2], "sightline from")
        self._on_table(targets[:, :2], "sightline to")
        seg = targets - eyes
        length = np.linalg.norm(seg, axis=1)
        safe = np.maximum(length, 1e-12)
        dirs = np.where(length[:, None] > 0, seg / safe[:, None], np.array([1.0, 0.0, 0.0]))
        plan = np.linalg.norm(seg[:, :2], axis=1)
        hfac = np.where(length > 0, plan / safe, 0.0)
        dist = quantise(plan if distance is None else distance)
        return eyes, targets, len(eyes), length, dirs, plan, hfac, dist

    # -- the reference ------------------------------------------------------------------------------
    def trace_reference(self, eyes: np.ndarray, targets: np.ndarray, conditions: Conditions,
                        distance: np.ndarray | None = None) -> Trace:
        """Every sightline cast in full through Embree, every end cast for, nothing skipped: the plain
        path that :meth:`trace` and the single-sightline path must agree with (tests/world)."""
        eyes, targets, n, length, dirs, plan, hfac, dist = self._segments(eyes, targets, distance)
        C = len(self.classes)
        geo = self.geo

        solid_t, solid_prim = geo.solid.first(eyes, dirs, np.maximum(length - SOLID_CLEARANCE, 0.0))
        solid_part = np.where(solid_prim >= 0, geo.solid.owner[np.maximum(solid_prim, 0)], -1)
        solid_part[length <= SOLID_CLEARANCE] = -1
        cast = np.nonzero(length > SOLID_CLEARANCE)[0]
        walls = self._wall_rays(eyes[cast], targets[cast], length[cast])
        wall = self._walls_through(walls, cast, eyes, dirs, length, n, solid_t, solid_part)
        smoke = np.zeros(n, bool)
        for cx, cy, r in conditions.smoke:
            smoke |= _segment_near(eyes[:, :2], targets[:, :2], cx, cy, r)
        part_e = self._inside_cast(eyes)
        part_t = self._inside_cast(targets)
        ray, t, prim = geo.canopy.all_hits(eyes, dirs, length)
        part = geo.canopy.owner[prim]
        entering = np.einsum("ij,ij->i", geo.canopy.normal[prim], dirs[ray]) < 0
        exit_e = np.full(n, np.inf)
        first_exit = (~entering) & (part == part_e[ray])
        np.minimum.at(exit_e, ray[first_exit], t[first_exit])
        exit_e = np.minimum(exit_e, length)
        exit_t = np.full(n, -np.inf)
        last_entry = entering & (part == part_t[ray])
        np.maximum.at(exit_t, ray[last_entry], t[last_entry])
        exit_t = np.where(np.isfinite(exit_t), length - exit_t, length)
        span_e = self._band_span(eyes, dirs, part_e, exit_e)
        span_t = self._band_span(targets, -dirs, part_t, exit_t)
        cut = burnt_of(conditions.burnt).cut(eyes[:, :2], targets[:, :2], length) if conditions.burnt else None
        if cut is not None:
            span_e = cut.spans(span_e, 0, part_e, self.part_veg, exit_e)
            span_t = cut.spans(span_t, 1, part_t, self.part_veg, exit_t)
        iv_ray, iv_part, iv_t0, iv_t1 = _intervals(ray, part, t, entering, part_e, part_t, length)
        at_eye = (iv_part == part_e[iv_ray]) & (iv_t0 <= 0.0)
        iv_t0 = np.where(at_eye, np.maximum(iv_t0, span_e[iv_ray]), iv_t0)
        at_target = (iv_part == part_t[iv_ray]) & (iv_t1 >= length[iv_ray])
        iv_t1 = np.where(at_target, np.minimum(iv_t1, length[iv_ray] - span_t[iv_ray]), iv_t1)
        if cut is not None:
            iv_ray, iv_part, iv_t0, iv_t1 = cut.clip(iv_ray, iv_part, iv_t0, iv_t1, self.part_veg, n)
        inches = np.zeros((n, C + 1))
        _union_add(inches, iv_ray, self.part_class[iv_part], iv_t0, iv_t1)
        inches = quantise(inches * hfac[:, None])[:, :C]
        top_entry = entering & self.class_dense[self.part_class[part]] & (geo.canopy.normal[prim, 2] > 0.3)
        top_entry &= (t > span_e[ray] + 1e-6) & (t < length[ray] - span_t[ray] - 1e-6)
        if cut is not None:
            top_entry &= ~(cut.over(ray, t, n) & self.part_veg[part])
        above_t = np.full(n, np.inf)
        np.minimum.at(above_t, ray[top_entry], t[top_entry])
        above_part = np.full(n, -1)
        if np.isfinite(above_t).any():
            first_above = top_entry & (t == above_t[ray])
            above_part[ray[first_above]] = part[first_above]
        g = self._elevations_cast(np.vstack([eyes[:, :2], targets[:, :2]]))
        stand_e = np.maximum(g[:n], eyes[:, 2] - EYE_HEIGHT)
        stand_t = np.maximum(g[n:], targets[:, 2] - EYE_HEIGHT)
        elevated = (np.maximum(stand_e, stand_t) >= ELEVATED - 1e-6)
        cutoff, limit = self._open_limits(eyes, targets, elevated, conditions)
        crossed = inches > 0
        for c in range(C):
            lower = crossed[:, c] & (self.class_cutoff[c] <= cutoff)
            cutoff = np.where(lower, self.class_cutoff[c], cutoff)
            limit = np.where(lower, c, limit)
        hull, hull_t, hull_ids = self._hull_block(conditions, eyes, targets, length, np.arange(n))
        blocked = (solid_part >= 0) | smoke | (above_part >= 0)
        if hull is not None:
            blocked |= hull >= 0
        visible = ~blocked & (dist <= cutoff + 1e-9)
        band = np.column_stack([(part_e >= 0) & (span_e > 0), (part_t >= 0) & (span_t > 0)])
        return Trace(visible, dist, cutoff, limit, inches, solid_t, solid_part, smoke, above_part, above_t,
                     eyes, dirs, length, elevated, band, np.zeros(n, bool), np.ones(n, bool), wall,
                     hull, hull_t, hull_ids)


def _compiled(los: TableLOS) -> tuple | None:
    """The table packed for the compiled path (``game.world.sightline_layout.pack``), or None where it
    cannot run (no direct Embree path; neither the library built ahead of time nor numba), and then the
    Python path answers. ``DINKYDAU_COMPILED_LOS``: 0 the Python path; numba the numba path (not the
    library); anything else the library where built (``game.world.sightline_native``), else numba, while
    a process of its own builds the library for the processes after (``DINKYDAU_SIGHTLINE_BUILD=0``: not)."""
    global _kernel
    mode = os.environ.get("DINKYDAU_COMPILED_LOS", "1")
    if mode == "0":
        return None
    if _kernel is None:
        from game.world import sightline_native

        if mode != "numba" and sightline_native.entry() is not None:
            _kernel = sightline_native
        else:
            try:  # (numba costs a process about 100 MB of memory: see game.world.sightline_native)
                from game.world import sightline
            except (ImportError, RuntimeError, OSError):  # no numba, or nowhere to keep its compiled code
                return None
            _kernel = sightline
            if mode != "numba" and os.environ.get("DINKYDAU_SIGHTLINE_BUILD", "1") != "0":
                sightline_native.build_later()  # once per machine and source: the processes after load it
    return _sl.pack(los, {"open": OPEN_LIMIT, "bonus": ELEVATION_BONUS, "elevated": ELEVATED, "eye": EYE_HEIGHT,
                          "solid_clearance": SOLID_CLEARANCE, "q": Q, "step": STEP, "kill": KILL_PLAN,
                          "z_margin": Z_MARGIN, "max_hits": MAX_HITS})


_kernel: Any = None
"""The module whose ``Caller`` runs the compiled path in this process: ``game.world.sightline_native``
(ahead of time) or ``game.world.sightline`` (numba), once a table has chosen."""
_NO_ORDER = np.zeros(0, np.int64)
"""A compiled batch taken in the order its rows come."""

INF = math.inf
NO_BAND = (False, False)
NO_WALL = (-1, -1)


def _planes(poly: Any) -> tuple[tuple[float, float, float, float], ...]:
    """A convex polygon's edges as half-planes (inward unit normal, a corner): see :class:`Walls`."""
    ring = list(orient(poly, 1.0).exterior.coords)[:-1]
    out = []
    for i, (x0, y0) in enumerate(ring):
        x1, y1 = ring[(i + 1) % len(ring)]
        ex, ey = x1 - x0, y1 - y0
        length = math.hypot(ex, ey)
        if length > 1e-9:
            out.append((-ey / length, ex / length, float(x0), float(y0)))
    return tuple(out)


def _table_walls(geometry: TableGeometry, book: TerrainBook, grid: PlanGrid
                 ) -> tuple[list[Walls], np.ndarray, array, dict[int, tuple[int, ...]]]:
    """The buildings of a table whose terrain has a ``wall_band`` (G-01 T10/T11), in the order of their
    first part; each part's building; per grid cell the building that may hold a point there (-1 none,
    -2 several, listed in the dict by cell)."""
    parts = geometry.parts
    part_walls = np.full(len(parts) + 1, -1)
    multi: dict[int, tuple[int, ...]] = {}
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(parts):
        if p.role == "building" and p.footprint is not None and book.terrain[p.terrain].wall_band > 0:
            groups.setdefault(p.feature, []).append(i)
    if not groups:
        return [], part_walls, array("i", [-1]) * (grid.nx * grid.ny), multi
    solid = geometry.solid
    z = solid.tris32[:, :, 2]
    zlo_f, zhi_f = z.min(axis=1).astype(np.float64), z.max(axis=1).astype(np.float64)
    walls: list[Walls] = []
    for feature, members in groups.items():
        lo = {i: float(zlo_f[solid.owner == i].min()) for i in members}
        hi = {i: float(zhi_f[solid.owner == i].max()) for i in members}
        zlo, zhi = min(lo.values()), max(hi.values())
        hull = shapely.union_all([parts[i].footprint for i in members]).convex_hull
        wall = shapely.union_all([parts[i].footprint for i in members if lo[i] <= zlo + 0.01]).convex_hull
        if hull.geom_type != "Polygon" or wall.geom_type != "Polygon":
            continue  # a building with no plan area: it blocks whole
        terrain = book.terrain[parts[members[0]].terrain]
        k = len(walls)
        walls.append(Walls(feature, terrain.id, tuple(members), _planes(hull), _planes(wall),
                           terrain.wall_band + BAND_SLACK, zlo, zhi))
        part_walls[members] = k
    codes = np.full(grid.ny * grid.nx, -1, np.int32)
    for k, w in enumerate(walls):
        x0, y0, x1, y1 = shapely.MultiPoint([(x, y) for _, _, x, y in w.hull]).bounds
        i0, i1 = (min(max(int(math.floor(v / grid.h)), 0), grid.nx - 1) for v in (x0 - GRID_EPS, x1 + GRID_EPS))
        j0, j1 = (min(max(int(math.floor(v / grid.h)), 0), grid.ny - 1) for v in (y0 - GRID_EPS, y1 + GRID_EPS))
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                c = j * grid.nx + i
                if codes[c] == -1:
                    codes[c] = k
                else:
                    multi[c] = multi.get(c, (int(codes[c]),)) + (k,)
                    codes[c] = -2
    return walls, part_walls, array("i", codes.tobytes()), multi


def _inside_walls(w: Walls, x: float, y: float, z: float) -> bool:
    """Is the point inside the building: over its outline, eaves included, between its lowest and
    highest point?"""
    if not w.zlo <= z <= w.zhi:
        return False
    for nx, ny, x0, y0 in w.hull:
        if nx * (x - x0) + ny * (y - y0) < 0.0:
            return False
    return True


def _plane_table(planes: list[tuple[tuple[float, float, float, float], ...]]) -> np.ndarray:
    """Buildings' half-planes as one W x P x 4 array, each padded with its first (a half-plane twice
    changes nothing)."""
    width = max(len(p) for p in planes)
    return np.array([list(p) + [p[0]] * (width - len(p)) for p in planes])


def _wall_reach_many(pl: np.ndarray, band: np.ndarray, px: np.ndarray, py: np.ndarray, dx: np.ndarray,
                     dy: np.ndarray) -> np.ndarray:
    """:func:`_wall_reach` for many segments, each with its building's wall half-planes (m x P x 4) and
    band: the same arithmetic, INF where it gives INF."""
    nx, ny = pl[:, :, 0], pl[:, :, 1]
    f = nx * (px[:, None] - pl[:, :, 2]) + ny * (py[:, None] - pl[:, :, 3]) - band[:, None]
    g = nx * dx[:, None] + ny * dy[:, None]
    never = ((g == 0.0) & (f < 0.0)).any(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = -f / g
    lo = np.where(g > 0.0, s, 0.0).max(axis=1, initial=0.0)
    hi = np.where(g < 0.0, s, 1.0).min(axis=1, initial=1.0)
    return np.where(never | (lo > hi), INF, lo)


def _wall_reach(w: Walls, px: float, py: float, dx: float, dy: float) -> float:
    """How far along the plan segment P + s D (s from 0 to 1) a sightline from P, inside the building,
    stays within its wall band: the s at which it goes deeper than the band from every wall (clipping
    the segment to the wall line shrunk by the band), INF when it never does, 0 when P is deeper."""
    lo, hi, band = 0.0, 1.0, w.band
    for nx, ny, x0, y0 in w.wall:
        f = nx * (px - x0) + ny * (py - y0) - band
        g = nx * dx + ny * dy
        if g == 0.0:
            if f < 0.0:
                return INF
        elif g > 0.0:
            s = -f / g
            if s > lo:
                lo = s
        else:
            s = -f / g
            if s < hi:
                hi = s
        if lo > hi:
            return INF
    return lo


def _darray(values: np.ndarray) -> array:
    """A float64 array as an ``array('d')`` (the same values)."""
    return array("d", np.ascontiguousarray(values, np.float64).tobytes())




_LIMIT_CLAUSE = {"open": LIMITS.open.clause, "elevated": LIMITS.elevation.clause,
                 **{w.id: w.clause for w in LIMITS.weather.values()}, **{t.id: t.clause for t in LIMITS.time.values()}}
"""The clause of each limit that is not terrain (sight.toml); a canopy class's is set where it applies."""
_WALL_CLAUSE = {"hootch": "G-01 T10", "masonry": "G-01 T11"}
"""The clause an answer cites for a building an end sees out of (any other terrain with a wall band: T10)."""


TAIL_RAYS = 24
"""A batched trace casts its last this-many rays one at a time."""
BATCH_PAIRS = 5
"""From this many pairs on, :meth:`TableLOS.check_many` traces them all in one batch."""
SIGHTLINES = 12
"""Sightlines per stand-to-stand check: each eye to the other's eye and four base points and centre."""
BODY_LOCAL = np.array([[0.0, 0.0], [0.3, 0.3], [0.3, -0.3], [-0.3, 0.3], [-0.3, -0.3]])
"""A stand's centre and four points inset on its base, as shares of (depth, width)."""
BODY_HEIGHTS = np.array([0.45, 0.3, 0.3, 0.3, 0.3])


def _longest_limit(conditions: Conditions) -> float:
    """The longest any sightline may be under the conditions, before terrain: 30" elevated (DD-4.41), the
    weather's cap, the time of day's where no circle is lit (G-23)."""
    bound = OPEN_LIMIT + ELEVATION_BONUS
    wcap = conditions.weather_cap()[0]
    if wcap is not None:
        bound = min(bound, wcap)
    tcap = TIME_CAPS[conditions.time_of_day]
    if tcap is not None and not conditions.illuminated:
        bound = min(bound, tcap)
    return bound


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise dot products of two n x 3 arrays, summed left to right as plain Python would."""
    return a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1] + a[:, 2] * b[:, 2]


def _segment_near(a: np.ndarray, b: np.ndarray, cx: float, cy: float, r: float) -> np.ndarray:
    """Does each plan segment a-b pass within r of (cx, cy)?"""
    ab = b - a
    ac = np.array([cx, cy]) - a
    denom = np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-12)
    u = np.clip(np.einsum("ij,ij->i", ac, ab) / denom, 0.0, 1.0)
    closest = a + ab * u[:, None]
    return np.hypot(closest[:, 0] - cx, closest[:, 1] - cy) <= r


def _intervals(ray: np.ndarray, part: np.ndarray, t: np.ndarray, entering: np.ndarray, part_e: np.ndarray,
               part_t: np.ndarray, length: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Intervals [t0, t1] of each ray inside each volume, from its boundary crossings.

    A volume whose first crossing is an exit held the eye; one whose last is an entry holds the target;
    the volume the eye (or target) is in with no crossing at all holds the whole sightline.
    """
    order = np.lexsort((t, part, ray))
    r, p, tt, ent = ray[order], part[order], t[order], entering[order]
    same_prev = np.zeros(len(r), bool)
    same_prev[1:] = (r[1:] == r[:-1]) & (p[1:] == p[:-1])
    same_next = np.append(same_prev[1:], False)
    prev_t = np.concatenate([[0.0], tt[:-1]])
    prev_ent = np.concatenate([[False], ent[:-1]])
    next_t = np.append(tt[1:], 0.0)
    next_ent = np.append(ent[1:], False)
    ex = ~ent
    ex_t0 = np.where(same_prev, np.where(prev_ent, prev_t, tt), 0.0)
    open_entry = ent & ~(same_next & ~next_ent)
    en_t1 = np.where(same_next, next_t, length[r])
    rays = [r[ex], r[open_entry]]
    parts_ = [p[ex], p[open_entry]]
    t0s = [ex_t0[ex], tt[open_entry]]
    t1s = [tt[ex], en_t1[open_entry]]
    for held in (part_e, part_t):
        crossed = np.zeros(len(held), bool)
        crossed[r[p == held[r]]] = True
        w = np.nonzero((held >= 0) & ~crossed)[0]
        if held is part_t:
            w = w[part_e[w] != part_t[w]]
        rays.append(w)
        parts_.append(held[w])
        t0s.append(np.zeros(len(w)))
        t1s.append(length[w])
    return np.concatenate(rays), np.concatenate(parts_), np.concatenate(t0s), np.concatenate(t1s)


def _union_add(out: np.ndarray, ray: np.ndarray, cls: np.ndarray, t0: np.ndarray, t1: np.ndarray) -> None:
    """Add to out[ray, cls] the length of the union of the intervals of each (ray, class)."""
    keep = t1 > t0
    ray, cls, t0, t1 = ray[keep], cls[keep], t0[keep], t1[keep]
    if not len(ray):
        return
    order = np.lexsort((t0, cls, ray))
    ray, cls, t0, t1 = ray[order], cls[order], t0[order], t1[order]
    start = np.concatenate([[True], (ray[1:] != ray[:-1]) | (cls[1:] != cls[:-1])])
    group = np.cumsum(start)
    # running maximum of t1 within each group, exactly (a segmented scan in doubling steps)
    reach = t1.copy()
    step = 1
    while step < len(reach):
        same = group[step:] == group[:-step]
        if not same.any():
            break
        reach[step:] = np.where(same, np.maximum(reach[step:], reach[:-step]), reach[step:])
        step *= 2
    before = np.concatenate([[-np.inf], reach[:-1]])
    before[start] = -np.inf
    np.add.at(out, (ray, cls), np.maximum(t1 - np.maximum(t0, before), 0.0))
