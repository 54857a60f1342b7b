"""Line of sight over the 3D table (DESIGN §7; DD-4.1–4.6, DD-4.41–4.42, DD-3.8, DD-5.34; G-02, G-23).

A sightline is a straight 3D segment from an eye to a target point, cast through the table's ray scenes
(``game.world.raytrace``). In order:

1. a hit on the ground (a hill) or on a building blocks it (G-01 T10/T11/T14);
2. smoke and dust circles on its plan path block it (DD-5.34, G-01 T16);
3. it measures the inches it runs inside each canopy class, *in plan* (horizontal inches, as the
   rulebook measures on the table), leaving out the woodline band: the part within 1" of the edge of
   the feature that the eye or the target is itself lining (DD-4.2, G-02 step 2);
4. entering dense canopy through its top, outside a band, blocks it: no one sees into dense canopy
   from above (DD-4.41);
5. its total length, in plan and quantised to 0.01", may not exceed the lowest cutoff that applies:
   each canopy class crossed (G-02: the cutoff caps the *total* length, DD-4.4), the open limit of 24"
   (+6" when either end stands 2" or more above the table, DD-4.41), the weather (monsoon 3", DD-3.8;
   mist, G-07) and the time of day (G-23; either end inside an illuminated circle gives daylight).

Every rule above is symmetric in the two ends, so LOS is mutual (DD-4.5). Stand to stand, rays run
from each stand's eye (on its base edge nearest the other) to sample points on the other's base and
figures, both ways; the rule distance is base edge to base edge (DESIGN §3).

What this module leaves out: spotting, cover and who may act on what is seen (``game.rules``); firing
arcs; partial views through windows (buildings block whole).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.ops import nearest_points

from game.rules.data import Rulebook, rulebook
from game.world.bake import baked_path
from game.world.features import base_rectangle
from game.world.raytrace import TableGeometry, TerrainFileError

__all__ = ["Conditions", "LosResult", "Observer", "TableLOS", "TerrainFileError", "EYE_HEIGHT"]

EYE_HEIGHT = 0.6
"""A 15mm figure's eye above its base, inches (DESIGN §3: a standing figure is about 0.7")."""
OPEN_LIMIT = 24.0  # DD-4.1, DD-4.2
ELEVATION_BONUS = 6.0  # DD-4.41
ELEVATED = 2.0  # DD-4.41: 2" or more above table level
TIME_CAPS = {"day": None, "dawn": 12.0, "dusk": 12.0, "night_moonlit": 6.0, "night_dark": 3.0}  # G-23
TIME_LIMIT = {"dawn": "dawn", "dusk": "dusk", "night_moonlit": "night_moonlit", "night_dark": "night_dark"}
MONSOON = 3.0  # DD-3.8
SOLID_CLEARANCE = 0.01
"""A solid hit this close to the target belongs to the target's own spot (its ground), not between."""
Q = 100.0
"""Quantisation: distances and inches that enter rules are rounded to 0.01" (DESIGN §3)."""


def quantise(x: np.ndarray | float) -> np.ndarray:
    return np.floor(np.asarray(x, float) * Q + 0.5) / Q


@dataclass(frozen=True)
class Conditions:
    """What limits sight beyond the terrain: weather, time of day, smoke, light."""

    weather: str = "clear"
    """clear | mist | monsoon (DD-3.8, G-07)."""
    time_of_day: str = "day"
    """day | dawn | dusk | night_moonlit | night_dark (G-23)."""
    smoke: tuple[tuple[float, float, float], ...] = ()
    """(x, y, radius) circles of smoke or dust that block sight through them (DD-5.34)."""
    illuminated: tuple[tuple[float, float, float], ...] = ()
    """(x, y, radius) circles lit by a flare, star shell or burning wreck (DD-9A.2, G-23)."""
    turn: int = 1
    """The game turn: ground mist lifts over the game (G-07)."""

    @classmethod
    def from_scenario(cls, scenario: Any) -> Conditions:
        return cls(weather=scenario.weather, time_of_day=scenario.time_of_day)

    def __post_init__(self) -> None:
        if self.weather not in ("clear", "mist", "monsoon"):
            raise ValueError(f"unknown weather {self.weather!r} (clear, mist, monsoon)")
        if self.time_of_day not in TIME_CAPS:
            raise ValueError(f"unknown time of day {self.time_of_day!r} ({', '.join(TIME_CAPS)})")

    def weather_cap(self) -> tuple[float | None, str, str]:
        """The weather's cap on any sightline: (inches or None, limit name, clause)."""
        if self.weather == "monsoon":
            return MONSOON, "monsoon", "DD-3.8"
        if self.weather == "mist":
            if self.turn <= 2:
                return 6.0, "mist", "G-07"
            if self.turn <= 4:
                return 12.0, "mist", "G-07"
        return None, "", ""


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
    dusk, night_moonlit, night_dark, ground, building, smoke."""
    blocker: dict | None
    """{"feature", "terrain", "at": [x, y, z]} of what stopped the sightline, or None."""
    clause: str
    reason: str
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "visible": self.visible, "fraction": self.fraction, "distance": self.distance,
            "canopy_inches": dict(self.canopy_inches), "cutoff": self.cutoff, "limit": self.limit,
            "blocker": self.blocker, "clause": self.clause, "reason": self.reason, **self.extra,
        }


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


class TableLOS:
    """Line of sight and terrain queries over one baked (or hand-made) table."""

    def __init__(self, geometry: TableGeometry, book: Rulebook | None = None):
        self.geo = geometry
        self.book = book or rulebook()
        self.width, self.height = geometry.width, geometry.height
        parts = geometry.parts
        self.classes: list[str] = sorted({p.canopy for p in parts if p.canopy})
        self.class_index = {c: i for i, c in enumerate(self.classes)}
        cut = {c: min(self.book.terrain[p.terrain].los_cutoff for p in parts if p.canopy == c) for c in self.classes}
        self.class_cutoff = np.array([cut[c] for c in self.classes] + [np.inf])
        self.class_dense = np.array([any(self.book.terrain[p.terrain].dense for p in parts if p.canopy == c)
                                     for c in self.classes] + [False])
        self.part_class = np.array([self.class_index[p.canopy] if p.canopy else -1 for p in parts] + [-1])
        self.limit_names = [*self.classes, "open", "elevated", "monsoon", "mist", "dawn", "dusk", "night_moonlit",
                            "night_dark", "ground", "building", "smoke"]
        self._limit = {n: i for i, n in enumerate(self.limit_names)}
        self.dense_plan = shapely.union_all(
            [p.footprint for p in parts if p.footprint is not None
             and (p.role == "building" or (p.canopy and self.book.terrain[p.terrain].dense))])

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def from_glb(cls, path: str | Path | bytes, width: float, height: float, book: Rulebook | None = None) -> TableLOS:
        """A table from any .glb following ``docs/terrain.md`` (a baked one, or one made in Blender)."""
        book = book or rulebook()
        return cls(TableGeometry.load(path, width, height, book), book)

    @classmethod
    def from_scenario(cls, scenario: Any, book: Rulebook | None = None) -> TableLOS:
        """The scenario's table, baked on demand and cached (``game.world.bake.baked_path``)."""
        return cls.from_glb(baked_path(scenario, book), scenario.width, scenario.height, book)

    # -- terrain queries ---------------------------------------------------------------------------
    def _on_table(self, xy: np.ndarray, what: str) -> None:
        bad = (xy[:, 0] < -1e-6) | (xy[:, 0] > self.width + 1e-6) | (xy[:, 1] < -1e-6) | (xy[:, 1] > self.height + 1e-6)
        if bad.any():
            x, y = xy[int(np.argmax(bad))]
            raise ValueError(f"{what} ({x:.2f}, {y:.2f}) is off the {self.width:g}x{self.height:g} table")

    def elevations(self, xy: np.ndarray) -> np.ndarray:
        """Ground height under each plan point, inches (hills; buildings are not ground)."""
        xy = np.asarray(xy, float).reshape(-1, 2)
        self._on_table(xy, "point")
        top = self.geo.top + 10.0
        origins = np.column_stack([xy, np.full(len(xy), top)])
        t, prim = self.geo.ground.first(origins, np.tile([0.0, 0.0, -1.0], (len(xy), 1)))
        return np.round(np.where(prim >= 0, top - t, 0.0), 4)

    def elevation(self, x: float, y: float) -> float:
        """Ground height at a point, inches."""
        return float(self.elevations(np.array([[x, y]]))[0])

    def clear_circle(self, x: float, y: float, radius: float = 3.0) -> bool:
        """Is a circle clear of dense trees and buildings? A Dustoff LZ needs 6" across (DD-6.6)."""
        self._on_table(np.array([[x, y]]), "LZ centre")
        return not self.dense_plan.intersects(Point(x, y).buffer(radius, quad_segs=16))

    def terrain_at(self, x: float, y: float) -> str:
        """The terrain of the canopy volume containing a point at eye height, else 'open'."""
        z = self.elevation(x, y) + EYE_HEIGHT
        part = self._inside(np.array([[x, y, z]]))[0]
        return self.geo.parts[part].terrain if part >= 0 else "open"

    def _inside(self, pts: np.ndarray) -> np.ndarray:
        """The canopy part containing each point (-1: none): the first face straight up is an exit."""
        if len(self.geo.canopy.owner) == 0:  # a table with no canopy at all
            return np.full(len(pts), -1)
        up = np.tile([0.0, 0.0, 1.0], (len(pts), 1))
        _, prim = self.geo.canopy.first(pts, up)
        ok = prim >= 0
        inside = np.zeros(len(pts), bool)
        inside[ok] = self.geo.canopy.normal[prim[ok], 2] > 0
        return np.where(inside, self.geo.canopy.owner[np.maximum(prim, 0)], -1)

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
        leaving[hit] = np.einsum("ij,ij->i", core.normal[prim[hit]], dirs[todo][hit]) > 0
        in_core = own & leaving
        entry = np.where(own & ~leaving, t, np.inf)
        span[todo] = np.where(in_core, 0.0, np.minimum(exit_t[todo], entry))
        return span

    # -- the core: many sightlines at once ---------------------------------------------------------
    def trace(self, eyes: np.ndarray, targets: np.ndarray, conditions: Conditions,
              distance: np.ndarray | None = None, early: bool = False) -> Trace:
        """Cast N sightlines (eyes and targets Nx3, table frame) and apply the rules to each.

        ``distance`` overrides the plan length as the rule distance (stands: base edge to edge).
        ``early`` stops measuring a sightline as soon as its answer is known to be no (the batched
        path): its evidence (inches, limit) is then partial, its ``visible`` exact.
        """
        eyes = np.asarray(eyes, float).reshape(-1, 3)
        targets = np.asarray(targets, float).reshape(-1, 3)
        n = len(eyes)
        self._on_table(eyes[:, :2], "sightline from")
        self._on_table(targets[:, :2], "sightline to")
        seg = targets - eyes
        length = np.linalg.norm(seg, axis=1)
        safe = np.maximum(length, 1e-12)
        dirs = np.where(length[:, None] > 0, seg / safe[:, None], np.array([1.0, 0.0, 0.0]))
        plan = np.linalg.norm(seg[:, :2], axis=1)
        hfac = np.where(length > 0, plan / safe, 0.0)
        dist = quantise(plan if distance is None else distance)
        C = len(self.classes)
        geo = self.geo

        # 1. ground and buildings
        solid_t, solid_prim = geo.solid.first(eyes, dirs, np.maximum(length - SOLID_CLEARANCE, 0.0))
        solid_part = np.where(solid_prim >= 0, geo.solid.owner[np.maximum(solid_prim, 0)], -1)
        solid_part[length <= SOLID_CLEARANCE] = -1

        # 2. smoke and dust circles, in plan
        smoke = np.zeros(n, bool)
        for cx, cy, r in conditions.smoke:
            smoke |= _segment_near(eyes[:, :2], targets[:, :2], cx, cy, r)

        # 3. canopy: where each end is, then every boundary crossed
        alive = np.ones(n, bool)
        stop = None
        if early:
            bound = OPEN_LIMIT + ELEVATION_BONUS
            wcap = conditions.weather_cap()[0]
            bound = min(bound, wcap) if wcap is not None else bound
            if TIME_CAPS[conditions.time_of_day] is not None and not conditions.illuminated:
                bound = min(bound, TIME_CAPS[conditions.time_of_day])
            alive = (solid_part < 0) & ~smoke & (dist <= bound + 1e-9)
        part_e = np.full(n, -1)
        part_t = np.full(n, -1)
        part_e[alive] = self._inside(eyes[alive])
        part_t[alive] = self._inside(targets[alive])
        stopped = np.zeros(n, bool)
        if early:
            def stop(rays: np.ndarray, prims: np.ndarray) -> np.ndarray:
                # entering a volume other than the ends' own, whose cutoff the sightline already exceeds
                p = geo.canopy.owner[prims]
                into = np.einsum("ij,ij->i", geo.canopy.normal[prims], dirs[rays]) < 0
                done = into & (p != part_e[rays]) & (p != part_t[rays])
                done &= self.class_cutoff[self.part_class[p]] < dist[rays] - 1e-9
                stopped[rays[done]] = True
                return done
        ray, t, prim = geo.canopy.all_hits(eyes, dirs, np.where(alive, length, 0.0), stop)
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

        # inches inside each class: the union of the intervals inside its volumes, bands clipped off
        iv_ray, iv_part, iv_t0, iv_t1 = _intervals(ray, part, t, entering, part_e, part_t, length)
        at_eye = (iv_part == part_e[iv_ray]) & (iv_t0 <= 0.0)
        iv_t0 = np.where(at_eye, np.maximum(iv_t0, span_e[iv_ray]), iv_t0)
        at_target = (iv_part == part_t[iv_ray]) & (iv_t1 >= length[iv_ray])
        iv_t1 = np.where(at_target, np.minimum(iv_t1, length[iv_ray] - span_t[iv_ray]), iv_t1)
        inches = np.zeros((n, C + 1))
        _union_add(inches, iv_ray, self.part_class[iv_part], iv_t0, iv_t1)
        inches = quantise(inches * hfac[:, None])[:, :C]

        # 4. dense canopy entered from above, outside the bands (DD-4.41)
        top_entry = entering & self.class_dense[self.part_class[part]] & (geo.canopy.normal[prim, 2] > 0.3)
        top_entry &= (t > span_e[ray] + 1e-6) & (t < length[ray] - span_t[ray] - 1e-6)
        above_t = np.full(n, np.inf)
        np.minimum.at(above_t, ray[top_entry], t[top_entry])
        above_part = np.full(n, -1)
        hit_above = np.isfinite(above_t)
        if hit_above.any():
            first_above = top_entry & (t == above_t[ray])
            above_part[ray[first_above]] = part[first_above]

        # 5. limits
        g = self.elevations(np.vstack([eyes[:, :2], targets[:, :2]]))
        stand_e = np.maximum(g[:n], eyes[:, 2] - EYE_HEIGHT)
        stand_t = np.maximum(g[n:], targets[:, 2] - EYE_HEIGHT)
        elevated = (np.maximum(stand_e, stand_t) >= ELEVATED - 1e-6)
        cutoff = np.where(elevated, OPEN_LIMIT + ELEVATION_BONUS, OPEN_LIMIT)
        limit = np.where(elevated, self._limit["elevated"], self._limit["open"])

        def cap(value: float | np.ndarray, name: str, where: np.ndarray | bool = True) -> None:
            nonlocal cutoff, limit
            lower = np.asarray(where) & (value < cutoff)
            cutoff = np.where(lower, value, cutoff)
            limit = np.where(lower, self._limit[name], limit)

        tcap = TIME_CAPS[conditions.time_of_day]
        if tcap is not None:
            lit = np.zeros(n, bool)
            for cx, cy, r in conditions.illuminated:
                lit |= np.hypot(eyes[:, 0] - cx, eyes[:, 1] - cy) <= r
                lit |= np.hypot(targets[:, 0] - cx, targets[:, 1] - cy) <= r
            cap(tcap, TIME_LIMIT[conditions.time_of_day], ~lit)
        wcap, wname, _ = conditions.weather_cap()
        if wcap is not None:
            cap(wcap, wname)
        crossed = inches > 0
        for c in range(C):
            # ties go to the terrain: it is the more specific reason
            lower = crossed[:, c] & (self.class_cutoff[c] <= cutoff)
            cutoff = np.where(lower, self.class_cutoff[c], cutoff)
            limit = np.where(lower, c, limit)
        blocked = (solid_part >= 0) | smoke | (above_part >= 0)
        visible = ~blocked & ~stopped & alive & (dist <= cutoff + 1e-9)
        band = np.column_stack([(part_e >= 0) & (span_e > 0), (part_t >= 0) & (span_t > 0)])
        return Trace(visible, dist, cutoff, limit, inches, solid_t, solid_part, smoke, above_part, above_t,
                     eyes, dirs, length, elevated, band)

    def batch(self, eyes: np.ndarray, targets: np.ndarray, conditions: Conditions) -> np.ndarray:
        """Can each eye see its target? Eyes and targets are Nx3 points, table frame (the AI's fast path)."""
        return self.trace(eyes, targets, conditions, early=True).visible

    # -- single questions --------------------------------------------------------------------------
    def _point(self, p: tuple[float, ...]) -> np.ndarray:
        if len(p) == 3:
            return np.array(p, float)
        x, y = float(p[0]), float(p[1])
        return np.array([x, y, self.elevation(x, y) + EYE_HEIGHT])

    def check_points(self, p: tuple[float, ...], q: tuple[float, ...], conditions: Conditions) -> LosResult:
        """LOS from point p to point q: (x, y) stands an eye 0.6" above the ground there, (x, y, z) is exact."""
        tr = self.trace(self._point(p)[None], self._point(q)[None], conditions)
        return self._result(tr, 0, float(tr.visible[0]))

    def eye(self, o: Observer, toward: Observer | None = None) -> np.ndarray:
        """An observer's eye: on its base edge nearest ``toward`` (or its centre), eye height above the
        ground; a tree sniper's eye is up in the canopy over its base (DD-4.42)."""
        if toward is None:
            x, y = o.x, o.y
        else:
            a, _ = nearest_points(o.base(), toward.base())
            x, y = a.x, a.y
        return self._figure_points(o, np.array([[x, y]]), np.array([o.eye_height]))[0]

    def _figure_points(self, o: Observer, xy: np.ndarray, heights: np.ndarray) -> np.ndarray:
        g = self.elevations(xy)
        if not o.tree:
            return np.column_stack([xy, g + heights])
        top = self.geo.top + 10.0
        centre = np.array([[o.x, o.y, top]])
        t, prim = self.geo.canopy.first(centre, np.array([[0.0, 0.0, -1.0]]))
        if prim[0] < 0:
            raise ValueError(f"a tree sniper at ({o.x:.2f}, {o.y:.2f}) has no canopy over it (DD-4.42)")
        g0 = self.elevation(o.x, o.y)
        z = g0 + 0.8 * (top - float(t[0]) - g0)
        return np.column_stack([xy, np.full(len(xy), z) - (o.eye_height - heights) * 0.5])

    def samples(self, o: Observer, toward: Observer) -> np.ndarray:
        """Points a sightline aims at on a stand: its eye toward the other, its centre and four points
        inset on its base, at figure heights (DESIGN §7)."""
        eye = self.eye(o, toward)
        c, s = math.cos(math.radians(o.facing)), math.sin(math.radians(o.facing))
        local = np.array([[0.0, 0.0], [0.3, 0.3], [0.3, -0.3], [-0.3, 0.3], [-0.3, -0.3]])
        local = local * np.array([o.depth, o.width])
        xy = np.column_stack([o.x + local[:, 0] * c - local[:, 1] * s, o.y + local[:, 0] * s + local[:, 1] * c])
        body = self._figure_points(o, xy, np.array([0.45, 0.3, 0.3, 0.3, 0.3]))
        return np.vstack([eye[None], body])

    def check(self, a: Observer, b: Observer, conditions: Conditions) -> LosResult:
        """LOS between two stands: sightlines from each eye to the other's sample points (DD-4.5)."""
        base_a, base_b = a.base(), b.base()
        sa, sb = self.samples(a, b), self.samples(b, a)
        edge = float(base_a.distance(base_b))
        eyes = np.vstack([np.repeat(sa[:1], len(sb), axis=0), np.repeat(sb[:1], len(sa), axis=0)])
        targets = np.vstack([sb, sa])
        tr = self.trace(eyes, targets, conditions, distance=np.full(len(eyes), edge))
        clear = np.nonzero(tr.visible)[0]
        pick = int(clear[0]) if len(clear) else 0
        return self._result(tr, pick, float(len(clear)) / len(eyes))

    # -- evidence ----------------------------------------------------------------------------------
    def _result(self, tr: Trace, i: int, fraction: float) -> LosResult:
        inches = {c: float(tr.inches[i, k]) for k, c in enumerate(self.classes) if tr.inches[i, k] > 0}
        dist = float(tr.distance[i])
        at = [round(float(v), 2) for v in (tr.eyes[i] + tr.dirs[i] * tr.solid_t[i])] if tr.solid_part[i] >= 0 else None
        parts = self.geo.parts
        fraction = round(fraction, 4)
        extra = {"elevated": bool(tr.elevated[i]), "woodline": [bool(tr.band[i, 0]), bool(tr.band[i, 1])]}
        if tr.solid_part[i] >= 0:
            p = parts[tr.solid_part[i]]
            kind = "ground" if p.role == "ground" else "building"
            clause = "G-01 T14" if kind == "ground" else "G-02"
            what = "the ground (a hill)" if kind == "ground" else f"a building ({p.terrain} '{p.feature}')"
            return LosResult(False, fraction, dist, inches, 0.0, kind,
                             {"feature": p.feature, "terrain": p.terrain, "at": at}, clause,
                             f"blocked by {what} at ({at[0]:.2f}, {at[1]:.2f})", extra)  # type: ignore[index]
        if tr.smoke[i]:
            return LosResult(False, fraction, dist, inches, 0.0, "smoke",
                             {"feature": "smoke", "terrain": "smoke", "at": None}, "DD-5.34",
                             "blocked by a smoke or dust cloud", extra)
        if tr.above_part[i] >= 0:
            p = parts[tr.above_part[i]]
            pos = [round(float(v), 2) for v in tr.eyes[i] + tr.dirs[i] * tr.above_t[i]]
            return LosResult(False, fraction, dist, inches, 0.0, p.canopy or p.terrain,
                             {"feature": p.feature, "terrain": p.terrain, "at": pos}, "DD-4.41",
                             f"no one sees into dense canopy from above ({p.terrain} '{p.feature}')", extra)
        name = self.limit_names[int(tr.limit[i])]
        cutoff = float(tr.cutoff[i])
        clause = {"open": "DD-4.1", "elevated": "DD-4.41", "monsoon": "DD-3.8", "mist": "G-07"}.get(name, "G-23")
        blocker = None
        if name in self.class_index:
            k = self.class_index[name]
            clause = "DD-4.4" if self.class_dense[k] else "G-02"
            deep = [p for p in parts if p.canopy == name]
            blocker = {"feature": deep[0].feature if len(deep) == 1 else None, "terrain": name, "at": None}
        band = " (woodline band ignored, DD-4.2)" if tr.band[i].any() else ""
        inside = ", ".join(f'{v:.2f}" in {c}' for c, v in inches.items()) or "no canopy"
        if tr.visible[i]:
            reason = f'{dist:.2f}" is within the {cutoff:g}" {name} limit; {inside}{band}'
            blocker = None
        else:
            reason = f'{dist:.2f}" is beyond the {cutoff:g}" {name} limit; {inside}{band}'
        return LosResult(bool(tr.visible[i]) and fraction > 0, fraction, dist, inches, cutoff, name, blocker,
                         clause, reason, extra)


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
    parts = [p[ex], p[open_entry]]
    t0s = [ex_t0[ex], tt[open_entry]]
    t1s = [tt[ex], en_t1[open_entry]]
    crossed = set(zip(r.tolist(), p.tolist(), strict=True)) if len(r) else set()
    for held in (part_e, part_t):
        whole = [i for i in np.nonzero(held >= 0)[0] if (int(i), int(held[i])) not in crossed]
        if held is part_t:
            whole = [i for i in whole if part_e[i] != part_t[i]]
        w = np.asarray(whole, dtype=int)
        rays.append(w)
        parts.append(held[w])
        t0s.append(np.zeros(len(w)))
        t1s.append(length[w])
    return np.concatenate(rays), np.concatenate(parts), np.concatenate(t0s), np.concatenate(t1s)


def _union_add(out: np.ndarray, ray: np.ndarray, cls: np.ndarray, t0: np.ndarray, t1: np.ndarray) -> None:
    """Add to out[ray, cls] the length of the union of the intervals of each (ray, class)."""
    keep = t1 > t0
    ray, cls, t0, t1 = ray[keep], cls[keep], t0[keep], t1[keep]
    if not len(ray):
        return
    order = np.lexsort((t0, cls, ray))
    ray, cls, t0, t1 = ray[order], cls[order], t0[order], t1[order]
    group = np.cumsum(np.concatenate([[True], (ray[1:] != ray[:-1]) | (cls[1:] != cls[:-1])]))
    shift = group * 1e6  # keeps the running maximum inside its group
    reach = np.maximum.accumulate(t1 + shift) - shift
    before = np.concatenate([[-np.inf], reach[:-1]])
    before[np.concatenate([[True], group[1:] != group[:-1]])] = -np.inf
    np.add.at(out, (ray, cls), np.maximum(t1 - np.maximum(t0, before), 0.0))
