"""Terrain features of a table, as the scenario describes them, and their 2D footprints.

A feature is one piece of terrain: a type from ``game/data/terrain.toml`` and one of three shapes:

* an area: ``polygon`` (a list of [x, y] points, inches, table frame);
* a line with a width: ``path`` plus ``width`` (trails, streams, bunds, trenches, hedgerows);
* a point with a size: ``point`` plus ``size`` ([width, depth]) or ``radius``, turned by ``rotation``
  degrees (hootches, bunkers, spider holes, craters).

Hills carry a ``height`` (inches above the table at the crest); wooded features may set their canopy
``canopy_bottom`` / ``canopy_top`` heights (defaults come from the terrain data). Buildings carry a
``height`` too.

This module is pure geometry over shapely. It knows nothing of rules; ``game.world.tablemap`` answers
the terrain questions the rules ask.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from shapely import affinity
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from game.world import shapes

Vec2 = tuple[float, float]


@dataclass(frozen=True)
class Feature:
    """One terrain feature of a scenario table."""

    id: str
    """Unique within the scenario; carried into the baked glTF's extras."""
    type: str
    """A terrain type id from ``game/data/terrain.toml``."""
    polygon: tuple[Vec2, ...] | None = None
    """Outline of an area feature, counter-clockwise or not, not closed."""
    path: tuple[Vec2, ...] | None = None
    """Centre line of a linear feature."""
    width: float = 0.0
    """Full width of a linear feature, inches."""
    point: Vec2 | None = None
    """Centre of a point feature."""
    size: Vec2 | None = None
    """[width, depth] of a rectangular point feature, inches."""
    radius: float = 0.0
    """Radius of a round point feature, inches."""
    rotation: float = 0.0
    """Degrees, counter-clockwise, of a point feature."""
    height: float = 0.0
    """Hill crest or building height, inches."""
    canopy_bottom: float | None = None
    """Height of the underside of the foliage, inches (None: the terrain type's default)."""
    canopy_top: float | None = None
    """Height of the top of the foliage, inches (None: the terrain type's default)."""

    @property
    def kind(self) -> str:
        if self.polygon is not None:
            return "polygon"
        if self.path is not None:
            return "path"
        return "point"

    def shape(self) -> BaseGeometry:
        """The feature's footprint on the table as a shapely polygon."""
        if self.polygon is not None:
            poly = Polygon(self.polygon)
            if not poly.is_valid:
                poly = poly.buffer(0)
            return poly
        if self.path is not None:
            return LineString(self.path).buffer(self.width / 2.0, cap_style="flat", join_style="round")
        assert self.point is not None
        if self.radius > 0:
            return Point(self.point).buffer(self.radius, quad_segs=8)
        w, d = self.size if self.size is not None else (1.0, 1.0)
        x, y = self.point
        rect = Polygon([(x - w / 2, y - d / 2), (x + w / 2, y - d / 2), (x + w / 2, y + d / 2), (x - w / 2, y + d / 2)])
        return affinity.rotate(rect, self.rotation, origin=(x, y))


BASES_KEPT = 1 << 12
"""Base footprints each of the caches below keeps (the most recently asked): a few turns' worth of the
places stands stand and the AI tries. Bounded small, so that a process playing game after game stops
growing once they are full (issue 11), not after hundreds of games."""


@lru_cache(maxsize=BASES_KEPT)
def base_corners(x: float, y: float, facing: float, width: float, depth: float) -> tuple[Vec2, ...]:
    """The four corners of a stand's base (DD-1.7), counter-clockwise.

    ``width`` runs across the stand's front, ``depth`` front to back; ``facing`` is the direction the
    front faces in degrees (0 = east, counter-clockwise).
    """
    hd, hw = depth / 2.0, width / 2.0
    c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    return tuple((x + lx * c - ly * s, y + lx * s + ly * c) for lx, ly in ((-hd, -hw), (hd, -hw), (hd, hw), (-hd, hw)))


def apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Are two bounding boxes (min x, min y, max x, max y) apart? Then the shapes in them cannot meet."""
    return a[0] > b[2] or a[2] < b[0] or a[1] > b[3] or a[3] < b[1]


def around(boxes: list[tuple[float, float, float, float]], margin: float = 0.0) -> tuple[float, float, float, float]:
    """The box round all these boxes, grown by ``margin`` on every side: a box :func:`apart` from it is
    more than ``margin`` apart from each of them."""
    return (min(b[0] for b in boxes) - margin, min(b[1] for b in boxes) - margin,
            max(b[2] for b in boxes) + margin, max(b[3] for b in boxes) + margin)


def apart_by(a: tuple[float, float, float, float], b: tuple[float, float, float, float], margin: float) -> bool:
    """Are two bounding boxes more than ``margin`` apart along x or y? Then the shapes in them are
    further apart than ``margin``: the cheap test before a distance is worked out."""
    return b[0] - a[2] > margin or a[0] - b[2] > margin or b[1] - a[3] > margin or a[1] - b[3] > margin


@lru_cache(maxsize=BASES_KEPT)
def base_bounds(x: float, y: float, facing: float, width: float, depth: float) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of a stand's base: the bounds of :func:`base_rectangle`."""
    corners = base_corners(x, y, facing, width, depth)
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


@lru_cache(maxsize=BASES_KEPT)
def base_rectangle(x: float, y: float, facing: float, width: float, depth: float) -> Polygon:
    """A stand's base as a rotated rectangle (see :func:`base_corners`). Shapely geometries are
    immutable, so the rectangles are cached: the rules ask for the same bases many times per action.
    """
    return shapes.polygon(base_corners(x, y, facing, width, depth))  # (quicker than Polygon(...), the same shape)


def canopy_heights(feature: Feature, bottom: float, top: float) -> tuple[float, float]:
    """The foliage's underside and top over the ground, inches: the feature's own ``canopy_bottom`` /
    ``canopy_top``, else the terrain's (``bottom``, ``top``); a top of 0 (a terrain that limits sight
    without foliage, as rubble) stands 1" high."""
    low = feature.canopy_bottom if feature.canopy_bottom is not None else bottom
    high = feature.canopy_top if feature.canopy_top is not None else top
    return low, (high if high > 0 else 1.0)


def canopy_problem(feature: Feature, bottom: float, top: float) -> tuple[str, str] | None:
    """What is wrong with the canopy heights a feature gives, as (field, message), or None (the terrain's
    ``bottom`` and ``top`` stand in for a height it leaves out)."""
    for key in ("canopy_bottom", "canopy_top"):
        value = getattr(feature, key)
        if value is not None and not math.isfinite(value):
            return key, f"should be a finite number of inches, got {value!r}"
    if feature.canopy_top is not None and feature.canopy_top <= 0:
        return "canopy_top", f"the foliage's top must stand above the ground, got {feature.canopy_top:g}"
    low, high = canopy_heights(feature, bottom, top)
    if low >= high:
        key = "canopy_bottom" if feature.canopy_bottom is not None else "canopy_top"
        return key, f'the foliage\'s underside ({low:g}") must be below its top ({high:g}")'
    return None
