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

The module is the table (``TableLOS``: its construction, terrain queries, the compiled path's glue, the
stand-to-stand questions and the answers' evidence) and four parts beside it: ``los_terms`` (the limits,
``Conditions``, ``Observer``, ``LosResult``, the rows the paths fill), ``los_walls`` (the buildings an end
stands in), ``los_arrays`` (many sightlines in numpy, and the plain reference) and ``los_single`` (one
sightline in Python).

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
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely import lib as _lib
from shapely.geometry import Point
from shapely.ops import nearest_points

from game.memory import release_freed_memory
from game.terrain import TerrainBook, terrain_book
from game.world import sightline_layout as _sl
from game.world.bake import baked_path
from game.world.burnt import Burnt, burnt_of
from game.world.hulls import Hulls
from game.world.hulls import prepare as prepare_hulls
from game.world.los_arrays import (
    ArrayTrace,
    _longest_limit,
)
from game.world.los_single import SingleSight
from game.world.los_terms import (
    CACHE_LIMIT,
    ELEVATED,
    ELEVATION_BONUS,
    EYE_HEIGHT,
    KILL_PLAN,
    LIMITS,
    NO_WALL,
    OPEN_LIMIT,
    SOLID_CLEARANCE,
    TIME_CAPS,
    Conditions,
    LosResult,
    Observer,
    Q,
    Sight,
    Trace,
    _answer,
    _deferred,
    _why_blocked,
    _why_far,
    _why_limit,
    _why_text,
    quantise,
)
from game.world.los_walls import (
    WallSight,
    _plane_table,
    _table_walls,
)
from game.world.raytrace import (
    MAX_HITS,
    STEP,
    Z_MARGIN,
    PlanGrid,
    TableGeometry,
    TerrainFileError,
)

__all__ = ["Conditions", "LosResult", "Observer", "TableLOS", "TerrainFileError", "EYE_HEIGHT"]


class TableLOS(WallSight, ArrayTrace, SingleSight):
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
            at = np.flatnonzero(rest)
            if len(at) <= FEW_CASTS:  # a few: one compiled cast each (``_ground1``), not a batch's arrays
                for k in at.tolist():
                    g[k] = self._ground1(float(xy[k, 0]), float(xy[k, 1]))
            else:
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
        return self._trace_arrays(eyes, targets, conditions, distance, early)

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
                   distance: np.ndarray | None, early: bool, lean: bool = False, on_table: bool = False
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The compiled answers, one row each (``sightline_layout.O_*``), with the eyes and targets as
        arrays: (eyes, targets, rows). ``lean``: a batch taken in locality's order may keep each answer's
        ``visible`` alone, a row one column wide (a full row is 30-odd floats written to memory a
        sightline). ``on_table``: the caller has checked every end is on the table already."""
        sl = _sl
        eyes = np.ascontiguousarray(np.asarray(eyes, float).reshape(-1, 3))
        targets = np.ascontiguousarray(np.asarray(targets, float).reshape(-1, 3))
        if not on_table:
            self._on_table(eyes[:, :2], "sightline from")
            self._on_table(targets[:, :2], "sightline to")
        n = len(eyes)
        dist = np.full(n, np.nan) if distance is None else np.ascontiguousarray(np.asarray(distance, float).reshape(n))
        Qc = self._fast_conditions(conditions)
        if n >= sl.LOCAL:  # the rows taken in locality's order, each answer written to its own row
            out = np.empty((n, 1 if lean else self._fast_width))
            order = np.empty(n, np.int64)  # (filled by the compiled batch: sightline_layout.locality's order)
            self._caller.sight_many(Qc, eyes, targets, dist, early, False, order, out, sort=True)
        else:
            out = np.empty((n, self._fast_width))
            self._caller.sight_many(Qc, eyes, targets, dist, early, False, _NO_ORDER, out)
        return eyes, targets, out

    def batch(self, eyes: np.ndarray, targets: np.ndarray, conditions: Conditions) -> np.ndarray:
        """Can each eye see its target? Eyes and targets are Nx3 points, table frame (the AI's fast path)."""
        if self._fast is not None and not conditions.burnt:  # (each row's visible alone, no Trace built round it)
            rows = self._rows_fast(eyes, targets, conditions, None, True, lean=True)[2]
            return rows[:, 0 if rows.shape[1] == 1 else _sl.O_VIS] != 0.0
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
            for x, y, _ in pts:
                if self._off_table(x, y):
                    raise ValueError(f"point ({x:.2f}, {y:.2f}) is off the {self.width:g}x{self.height:g} table")
            if o.tree:
                z = self._tree_z(o)
                body = np.array([(x, y, z - (o.eye_height - h) * 0.5) for x, y, h in pts])
            else:
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
        edge = float(_lib.distance(base_a, base_b))
        pair = np.empty(2, object)
        pair[0], pair[1] = base_a, base_b
        (xa, ya), (xb, yb) = _nearest_both(pair[:1], pair[1:]).tolist()
        if self._off_table(xa, ya) or self._off_table(xb, yb):
            bad = (xa, ya) if self._off_table(xa, ya) else (xb, yb)
            raise ValueError(f"point ({bad[0]:.2f}, {bad[1]:.2f}) is off the {self.width:g}x{self.height:g} table")
        eye_a = (xa, ya, self._eye_z(a, xa, ya))
        eye_b = (xb, yb, self._eye_z(b, xb, yb))
        body_a, body_b = self._body(a), self._body(b)  # (off the table, an error even for a pair out of sight)
        if math.floor(edge * Q + 0.5) / Q > _longest_limit(conditions) + 1e-9:
            return self._result(self._sight(eye_a, eye_b, conditions, edge, early=True), 0.0)
        if self._fast is not None and not conditions.burnt:  # the twelve in one compiled call
            # (every end is on the table: the eyes were checked above, the bodies by _body): the eye of a to
            # b's eye and body points, then the eye of b to a's (DD-4.5), as the plain path's ``lines`` below
            src = np.empty((SIGHTLINES, 3))
            src[:SIGHTLINES // 2], src[SIGHTLINES // 2:] = eye_a, eye_b
            dst = np.empty((SIGHTLINES, 3))
            dst[0], dst[1:SIGHTLINES // 2], dst[SIGHTLINES // 2], dst[SIGHTLINES // 2 + 1:] = eye_b, body_b, eye_a, body_a
            out = np.empty((SIGHTLINES, self._fast_width))
            self._caller.sight_many(self._fast_conditions(conditions), src, dst, np.full(SIGHTLINES, edge), True, True,
                                    _NO_ORDER, out)
            vis = out[:, _sl.O_VIS].tolist()
            count = SIGHTLINES - vis.count(0.0)
            pick = next(k for k, v in enumerate(vis) if v != 0.0) if count else 0
            v = out[pick].tolist()
            eye = eye_a if pick < SIGHTLINES // 2 else eye_b
            if v[_sl.O_COMPLETE] != 0.0:  # the evidence read off the row when first asked
                return self._fast_result(v, eye, conditions, count / SIGHTLINES)
            s = self._fast_row(v, eye, conditions)
            line = (eye, tuple(dst[pick].tolist()))
        else:
            lines = [(eye_a, q) for q in [eye_b, *map(tuple, body_b.tolist())]] + \
                [(eye_b, q) for q in [eye_a, *map(tuple, body_a.tolist())]]
            sights = [self._sight(e, q, conditions, edge, early=True) for e, q in lines]
            count = sum(s.visible for s in sights)
            pick = next((k for k, s in enumerate(sights) if s.visible), 0)
            s = sights[pick]
            line = lines[pick]
        if not s.complete:
            s = self._sight(*line, conditions, edge)
        return self._result(s, count / SIGHTLINES)

    def _eye_z(self, o: Observer, x: float, y: float) -> float:
        return self._tree_z(o) if o.tree else self._ground1(x, y) + o.eye_height

    def check_many(self, pairs: Sequence[tuple[Observer, Observer]], conditions: Conditions) -> list[LosResult]:
        """:meth:`check` for many pairs of stands in one batched trace: the same answer for each pair.

        A pair whose base edge distance exceeds the longest limit the conditions allow (30" elevated,
        less in weather or at night) is answered without tracing its sightlines. Fewer than
        ``BATCH_PAIRS`` pairs are checked one at a time, which is quicker for so few. A pair asked both
        ways, (a, b) and (b, a), is traced once: the two checks cast the same twelve sightlines (each eye
        to the other's eye and body, DD-4.5), in the other order, so each answer is read off the same
        casts in its own order.
        """
        n = len(pairs)
        if n < BATCH_PAIRS:
            # too few to pay for the array work: one pair at a time (the same answers, tests/world)
            return [self.check(a, b, conditions) for a, b in pairs]
        first: dict[tuple[Observer, Observer], int] = {}
        ends: list[tuple[Observer, Observer]] = []  # each pair once, in the order it was first asked
        of, flip = [0] * n, [False] * n  # each asked pair's row in ``ends``, and whether it is turned round
        for k, (a, b) in enumerate(pairs):
            j = first.get((b, a))
            if j is not None:
                of[k], flip[k] = j, True
                continue
            j = first.get((a, b))
            if j is None:
                j = first[(a, b)] = len(ends)
                ends.append((a, b))
            of[k] = j
        m = len(ends)
        ga = np.array([self._base(a) for a, _ in ends], dtype=object)
        gb = np.array([self._base(b) for _, b in ends], dtype=object)
        edge = _lib.distance(ga, gb)
        both = _nearest_both(ga, gb)  # the eyes of every a, then of every b
        self._on_table(both, "point")
        eyes = np.empty((m, 2, 3))
        eyes[:, 0, :2], eyes[:, 1, :2] = both[:m], both[m:]
        z = self._ground(both)
        z += [o.eye_height for o in (*(a for a, _ in ends), *(b for _, b in ends))]
        eyes[:, 0, 2], eyes[:, 1, 2] = z[:m], z[m:]
        for k, (a, b) in enumerate(ends):  # a tree sniper's eye is up in the canopy (DD-4.42)
            if a.tree:
                eyes[k, 0, 2] = self._tree_z(a)
            if b.tree:
                eyes[k, 1, 2] = self._tree_z(b)
        within = (quantise(edge) <= _longest_limit(conditions) + 1e-9).tolist()
        rows_of = np.array(of)
        turned = np.array(flip)
        near = [k for k in range(n) if within[of[k]]]
        far = [k for k in range(n) if not within[of[k]]]
        out: list[LosResult | None] = [None] * n
        if far:  # the one sightline eye to eye, from the asking end
            f = np.array(far)
            fr, ft = rows_of[f], turned[f].astype(np.intp)
            tr = self.trace(eyes[fr, ft], eyes[fr, 1 - ft], conditions, distance=edge[fr], early=True)
            for k, row in zip(far, tr.rows(np.arange(len(far))), strict=True):
                out[k] = self._result(row, 0.0)
        if near:
            # per pair: the eye of a to b's eye and body points, then the eye of b to a's (DD-4.5); turned
            # round, the same twelve with the halves swapped
            traced = sorted({of[k] for k in near})
            at = {j: i for i, j in enumerate(traced)}
            t = np.array(traced)
            body_a = np.array([self._body(ends[j][0]) for j in traced])
            body_b = np.array([self._body(ends[j][1]) for j in traced])
            half = SIGHTLINES // 2
            src = np.repeat(eyes[t], half, axis=1)
            dst = np.concatenate([eyes[t, 1:2], body_b, eyes[t, 0:1], body_a], axis=1)
            src, dst = src.reshape(-1, 3), dst.reshape(-1, 3)
            dist = np.repeat(edge[t], SIGHTLINES)
            fast = self._fast is not None and not conditions.burnt
            if fast:  # the compiled answers as they come, one row each: each picked row read when needed
                # (every end is on the table: the eyes were checked above, the bodies by _body)
                raw = self._rows_fast(src, dst, conditions, dist, True, on_table=True)[2]
                vis = (raw[:, _sl.O_VIS] != 0.0).reshape(len(traced), SIGHTLINES)
            else:
                tr = self.trace(src, dst, conditions, distance=dist, early=True)
                vis = tr.visible.reshape(len(traced), SIGHTLINES)
            order = np.arange(SIGHTLINES)
            swapped = (order + half) % SIGHTLINES  # a turned pair's k-th sightline is the pair's (k + 6) % 12-th
            base = np.array([at[of[k]] for k in near]) * SIGHTLINES
            lines = np.where(turned[near][:, None], swapped, order)  # each asked pair's sightlines, in its order
            seen = vis.reshape(-1)[base[:, None] + lines]
            count = seen.sum(axis=1).tolist()
            pick = base + lines[np.arange(len(near)), np.where(seen.any(axis=1), np.argmax(seen, axis=1), 0)]
            if fast:
                picked = raw[pick]
                redo = np.nonzero(picked[:, _sl.O_COMPLETE] == 0.0)[0]
                if len(redo):  # dropped early: cast again in full for the evidence
                    again = pick[redo]
                    picked[redo] = self._rows_fast(src[again], dst[again], conditions, dist[again], False,
                                                   on_table=True)[2]
                for k, v, e, c in zip(near, picked.tolist(), src[pick].tolist(), count, strict=True):
                    out[k] = self._fast_result(v, tuple(e), conditions, c / SIGHTLINES)
            else:
                rows = tr.rows(pick)
                redo = np.nonzero(~tr.complete[pick])[0]
                if len(redo):
                    again = pick[redo]
                    full = self.trace(src[again], dst[again], conditions, distance=dist[again])
                    for i, row in zip(redo.tolist(), full.rows(np.arange(len(redo))), strict=True):
                        rows[i] = row
                for k, row, c in zip(near, rows, count, strict=True):
                    out[k] = self._result(row, c / SIGHTLINES)
        return out  # type: ignore[return-value]

    # -- evidence ----------------------------------------------------------------------------------
    def _result(self, s: Sight, fraction: float) -> LosResult:
        """The answer for the sightline ``s`` (the share ``fraction`` of a stand's sightlines clear), its
        evidence made when first read (:func:`_deferred`; :meth:`_full_result`)."""
        assert s.complete, "evidence of a sightline the batched trace dropped"
        return _deferred(s.visible and fraction > 0, round(fraction, 4), s.distance, (self._full_result, s, fraction))

    def _fast_result(self, v: list[float], e: tuple[float, float, float], conditions: Conditions,
                     fraction: float) -> LosResult:
        """:meth:`_result` for the compiled path's answer ``v`` (a complete row, from the eye ``e``): the
        :class:`Sight` itself made only when the evidence is first read."""
        visible = v[_sl.O_VIS] != 0.0
        return _deferred(visible and fraction > 0, round(fraction, 4), v[_sl.O_DIST],
                         (self._fast_evidence, v, e, conditions, fraction))

    def _fast_evidence(self, v: list[float], e: tuple[float, float, float], conditions: Conditions,
                       fraction: float) -> LosResult:
        return self._full_result(self._fast_row(v, e, conditions), fraction)

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


def _darray(values: np.ndarray) -> array:
    """A float64 array as an ``array('d')`` (the same values)."""
    return array("d", np.ascontiguousarray(values, np.float64).tobytes())


_LIMIT_CLAUSE = {"open": LIMITS.open.clause, "elevated": LIMITS.elevation.clause,
                 **{w.id: w.clause for w in LIMITS.weather.values()}, **{t.id: t.clause for t in LIMITS.time.values()}}
"""The clause of each limit that is not terrain (sight.toml); a canopy class's is set where it applies."""
_WALL_CLAUSE = {"hootch": "G-01 T10", "masonry": "G-01 T11"}
"""The clause an answer cites for a building an end sees out of (any other terrain with a wall band: T10)."""


def _nearest_both(ga: np.ndarray, gb: np.ndarray) -> np.ndarray:
    """Each base's point nearest the other's, for the bases ``ga[k]`` and ``gb[k]``: those of ``ga`` and then
    those of ``gb`` (2m x 2), in one call to GEOS. Each is the start of the shortest line from its base,
    asked both ways: GEOS may pick another of equally near points the other way round."""
    return _lib.get_coordinates(_lib.shortest_line(np.concatenate([ga, gb]), np.concatenate([gb, ga])),
                                False, False, False)[0::2]


BATCH_PAIRS = 3
"""From this many pairs on, :meth:`TableLOS.check_many` traces them all in one batch."""
FEW_CASTS = 16
"""Up to this many ground heights cast down in one ask are cast one at a time (``_ground``): a batch's
arrays cost more than a few compiled casts."""
SIGHTLINES = 12
"""Sightlines per stand-to-stand check: each eye to the other's eye and four base points and centre."""
BODY_LOCAL = np.array([[0.0, 0.0], [0.3, 0.3], [0.3, -0.3], [-0.3, 0.3], [-0.3, -0.3]])
"""A stand's centre and four points inset on its base, as shares of (depth, width)."""
BODY_HEIGHTS = np.array([0.45, 0.3, 0.3, 0.3, 0.3])

