"""The table's terrain in plan view: what terrain lies under a base or along a path.

This is the small terrain interface the rules use (DESIGN §2): terrain type and cover under a base,
the terrain a move passes through, whether a line crosses dense terrain (command radius, DD-1.13),
whether a base stays on a trail (DD-3.2). Line of sight and elevation over the baked 3D table live in
``game.world.los``.

Features are found by their bounding boxes (a table holds a few dozen). Overlay terrain (trails, bunds, trenches, hills) lies on
top of the ground terrain; where two ground features overlap, the later one in the scenario wins.

A table changed in play (DD chapter 8: craters, napalm-burnt jungle) is another ``TableMap``:
:meth:`TableMap.changed` lays the changes over this one and answers with fresh caches.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Protocol

import shapely
from shapely.geometry import LineString, Polygon, box
from shapely.geometry.base import BaseGeometry

from game.terrain import COVER_ORDER, TerrainBook, TerrainType
from game.world import shapes
from game.world.features import Feature, apart

_intersects_xy = shapely.lib.intersects_xy_scalar
"""Does a prepared shape meet the point (x, y)? (``shapely.intersects_xy`` for one shape, which prepares it
first: every feature's shape here is prepared when the map is set up)."""

__all__ = ["COVER_ORDER", "Change", "TableMap", "TerrainHit"]


@dataclass(frozen=True)
class TerrainHit:
    feature: Feature
    terrain: TerrainType
    shape: BaseGeometry

    @functools.cached_property
    def box(self) -> tuple[float, float, float, float]:
        """The shape's bounds (min x, min y, max x, max y), worked out once."""
        return self.shape.bounds


class Change(Protocol):
    """A change to the table made in play, as ``game.rules.state.TerrainChange`` holds it."""

    id: str
    kind: str
    """crater | burnt"""
    polygon: list[list[float]]


CHANGE_KINDS = ("crater", "burnt")
"""What a change lays over the table: a crater (an overlay, G-01 T12c) or burnt ground (G-19)."""


def change_shape(polygon: Iterable[Iterable[float]]) -> BaseGeometry:
    """A change's polygon as a valid shapely polygon (self-crossing outlines are mended)."""
    poly = Polygon([(float(x), float(y)) for x, y in polygon])
    return poly if poly.is_valid else poly.buffer(0)


def _areal(geom: BaseGeometry) -> BaseGeometry | None:
    """The polygonal part of an overlay's result (a touching edge or corner dropped), or None if none."""
    if geom.is_empty:
        return None
    if geom.geom_type not in ("Polygon", "MultiPolygon"):
        parts = [g for g in getattr(geom, "geoms", ()) if g.geom_type in ("Polygon", "MultiPolygon")]
        if not parts:
            return None
        geom = shapely.union_all(parts)
    return geom if geom.area > 1e-9 else None


class TableMap:
    """Plan-view terrain lookups for one table."""

    def __init__(self, width: float, height: float, features: tuple[Feature, ...], book: TerrainBook):
        self._setup(width, height, book, [TerrainHit(f, book.terrain[f.type], f.shape()) for f in features])

    def _setup(self, width: float, height: float, book: TerrainBook, hits: list[TerrainHit]) -> None:
        self.width = width
        self.height = height
        self.book = book
        self.bounds = box(0, 0, width, height)
        shapely.prepare(self.bounds)
        self.hits = hits
        for h in self.hits:
            shapely.prepare(h.shape)
        self._boxes = [h.shape.bounds for h in self.hits]
        self._trails = [i for i, h in enumerate(self.hits) if h.terrain.trail]
        self.open = book.terrain["open"]
        self._trail_cache: dict[bytes, bool] = {}
        self._path_trail: dict[tuple[float, float, float, float], bool] = {}
        self._trail_areas: dict[tuple[int, ...], BaseGeometry] = {}
        self._unions: dict[tuple[int, ...], BaseGeometry] = {}
        self._along: dict[Hashable, list[TerrainType]] = {}
        self._at: dict[tuple[float, float], tuple[TerrainHit, ...]] = {}
        self._of: dict[tuple[str, ...], tuple[TerrainHit, ...]] = {}

    # -- changes made in play (DD chapter 8) ------------------------------------------------------
    def changed(self, changes: Iterable[Change]) -> TableMap:
        """A new table: this one with the changes laid over, in order (this one is left as it is).

        * ``burnt`` (napalm, G-19): inside the polygon, every vegetation feature (scrub, rubber,
          secondary, dense, bamboo, mangrove) is replaced by ``burnt`` ground, in its place in the
          scenario order (so what lay on top of it still does); water, buildings, fortifications,
          rubble and overlays stay.
        * ``crater`` (G-01 T12c): the polygon is laid over as a crater overlay: a stand in it takes the
          better of the crater's cover and the ground's (G-01 rule 1).

        The burnt pieces are features named ``<feature>/<change>`` of type ``burnt``; a crater is a
        feature named after its change. Shapes already built are shared, so a change costs the
        features it touches only; the new table's caches start empty."""
        hits = list(self.hits)
        for c in changes:
            if c.kind not in CHANGE_KINDS:
                raise ValueError(f"unknown terrain change {c.kind!r} ({', '.join(CHANGE_KINDS)})")
            area = change_shape(c.polygon)
            outline = tuple((float(x), float(y)) for x, y in c.polygon)
            if c.kind == "crater":
                hits.append(TerrainHit(Feature(c.id, "crater", polygon=outline), self.book.terrain["crater"], area))
                continue
            burnt = self.book.terrain["burnt"]
            shapely.prepare(area)
            bounds = area.bounds
            out: list[TerrainHit] = []
            for h in hits:
                t = h.terrain
                if not t.vegetation or t.overlay or apart(h.shape.bounds, bounds) or not area.intersects(h.shape):
                    out.append(h)
                    continue
                rest = _areal(h.shape.difference(area))
                if rest is not None:
                    out.append(TerrainHit(h.feature, t, rest))
                inside = _areal(h.shape.intersection(area))
                if inside is not None:
                    out.append(TerrainHit(Feature(f"{h.feature.id}/{c.id}", "burnt", polygon=outline), burnt, inside))
            hits = out
        new = TableMap.__new__(TableMap)
        new._setup(self.width, self.height, self.book, hits)
        return new

    # -- basic queries ---------------------------------------------------------------------------
    def _indices(self, geom: BaseGeometry, among: list[int] | None = None,
                 box: tuple[float, float, float, float] | None = None) -> list[int]:
        """The features (as indices into ``hits``, in scenario order) that ``geom`` touches: of all of them,
        or of those ``among`` (indices in scenario order). ``box``: ``geom``'s bounds, where the caller
        has them."""
        box, boxes, hits = shapes.bounds(geom) if box is None else box, self._boxes, self.hits
        return [i for i in (range(len(hits)) if among is None else among)
                if not apart(boxes[i], box) and hits[i].shape.intersects(geom)]

    def _indices_at(self, x: float, y: float) -> list[int]:
        """:meth:`_indices` of the point (x, y), asked of each feature's prepared shape without making the
        point (``intersects_xy``: the same answer as ``intersects(Point(x, y))``)."""
        boxes, hits, at = self._boxes, self.hits, _intersects_xy
        return [i for i in range(len(hits))
                if boxes[i][0] <= x <= boxes[i][2] and boxes[i][1] <= y <= boxes[i][3] and at(hits[i].shape, x, y)]

    def _candidates(self, geom: BaseGeometry) -> list[TerrainHit]:
        return [self.hits[i] for i in self._indices(geom)]

    def of_terrain(self, ids: Iterable[str]) -> tuple[TerrainHit, ...]:
        """The features of these terrain types, in scenario order (kept per table: a rule that looks for
        a hootch or a wall near a stand need not walk the whole table)."""
        key = tuple(ids)
        hits = self._of.get(key)
        if hits is None:
            hits = self._of[key] = tuple(h for h in self.hits if h.terrain.id in key)
        return hits

    def features_at(self, x: float, y: float) -> list[TerrainHit]:
        """Every feature under a point, in scenario order. Cached by position: the rules ask about the
        same stands again and again."""
        key = (x, y)
        hits = self._at.get(key)
        if hits is None:
            if len(self._at) > 50_000:
                self._at.clear()
            hits = self._at[key] = tuple(self.hits[i] for i in self._indices_at(x, y))
        return list(hits)

    def ground_at(self, x: float, y: float) -> TerrainType:
        """The ground terrain under a point (the last non-overlay feature there, else open)."""
        ground = [h for h in self.features_at(x, y) if not h.terrain.overlay]
        return ground[-1].terrain if ground else self.open

    def terrain_under(self, base: Polygon) -> list[TerrainType]:
        """Terrain at the centre of a base: the ground and any overlays (G-01 rule 1)."""
        c = base.centroid
        hits = self.features_at(c.x, c.y)
        ground = [h.terrain for h in hits if not h.terrain.overlay]
        overlays = [h.terrain for h in hits if h.terrain.overlay]
        return [ground[-1] if ground else self.open, *overlays]

    def cover_under(self, base: Polygon) -> TerrainType:
        """The terrain that gives a stand its cover: the best cover at its centre (G-01 rule 1)."""
        terrains = self.terrain_under(base)
        return max(terrains, key=lambda t: (COVER_ORDER[t.cover], -t.save, -t.to_hit))

    def terrain_along(self, swept: BaseGeometry, key: Hashable = None) -> list[TerrainType]:
        """Every terrain type a moving base passes through, ground included (G-01 rule 2). Cached by
        the swept area's shape (``key``: a cheaper exact name for it, when the caller has one): the
        rules ask again and again while listing moves."""
        key = swept.wkb if key is None else key
        if key not in self._along:
            if len(self._along) > 50_000:
                self._along.clear()
            self._along[key] = self._terrain_along(swept)
        return list(self._along[key])

    def _terrain_along(self, swept: BaseGeometry) -> list[TerrainType]:
        found = self._indices(swept)
        types: dict[str, TerrainType] = {}
        for i in found:
            types.setdefault(self.hits[i].terrain.id, self.hits[i].terrain)
        ground = tuple(i for i in found if not self.hits[i].terrain.overlay)
        if not ground or not self._ground_union(ground).covers(swept):
            types.setdefault("open", self.open)
        return list(types.values())

    def _ground_union(self, ground: tuple[int, ...]) -> BaseGeometry:
        """The union of these ground features' shapes, in their order, made once for each set and prepared
        (``_terrain_along`` asks whether it covers a swept area: a few sets serve every move)."""
        covered = self._unions.get(ground)
        if covered is None:
            covered = self.hits[ground[0]].shape
            for i in ground[1:]:
                covered = covered.union(self.hits[i].shape)
            if len(ground) > 1:
                shapely.prepare(covered)
            if len(self._unions) > 4096:
                self._unions.clear()
            self._unions[ground] = covered
        return covered

    def crosses_dense(self, line: LineString) -> bool:
        """Does a measuring line pass through dense terrain (DD-1.13, G-16)?"""
        return any(h.terrain.dense and h.shape.intersection(line).length > 1e-6 for h in self._candidates(line))

    def on_trail(self, centre_path: BaseGeometry) -> bool:
        """Does a stand's centre path (a point or a line) stay entirely on trail features (DD-3.2)?

        A base moving along a 1" trail overhangs its verges, so the test is on the base's centre.
        """
        key = centre_path.wkb
        if key not in self._trail_cache:
            if len(self._trail_cache) > 50_000:  # bounded like the other caches of the game's table
                self._trail_cache.clear()
            self._trail_cache[key] = self._covered_by_trails(centre_path)
        return self._trail_cache[key]

    def _covered_by_trails(self, centre_path: BaseGeometry, box: tuple[float, float, float, float] | None = None
                           ) -> bool:
        trails = tuple(self._indices(centre_path, self._trails, box))
        if not trails:
            return False
        area = self._trail_areas.get(trails)  # the trails it touches, grown by 0.02": a few serve every query
        if area is None:
            area = self._trail_areas[trails] = shapely.union_all([self.hits[i].shape for i in trails]).buffer(0.02)
        return area.covers(centre_path)

    def path_on_trail(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Does a stand's centre path from (x0, y0) to (x1, y1) (a point when they are the same) stay
        on trail features (DD-3.2)? Cached by its ends."""
        key = (x0, y0, x1, y1)
        hit = self._path_trail.get(key)
        if hit is None:
            if len(self._path_trail) > 50_000:
                self._path_trail.clear()
            path = shapes.point(x0, y0) if (x0, y0) == (x1, y1) else shapes.segment(x0, y0, x1, y1)
            box = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))  # (the path's bounds)
            hit = self._path_trail[key] = self._covered_by_trails(path, box)
        return hit

    def point_on_trail(self, x: float, y: float) -> bool:
        """Is this point on a trail (DD-3.2)? Cached by position."""
        return self.path_on_trail(x, y, x, y)

    def within_table(self, geom: BaseGeometry) -> bool:
        return self.bounds.covers(geom)  # (the table's rectangle is prepared: some 0.1 µs)
