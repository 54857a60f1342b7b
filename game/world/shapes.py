"""Shapely's calls for the rules' busiest questions (a base's rectangle, the gap between two bases, a
path through a watched zone), made straight to ``shapely.lib``.

Each function here is the GEOS call that shapely's own function or property makes (shapely 2.2:
``shapely.polygons``, ``Point(x, y)``, ``LineString.project`` ...), without the argument handling
around it: the deprecation wrapper, the checks of what was passed, the arrays made to unpack a
scalar (``lib``'s ``*_scalar`` calls, where there is one). That handling cost a random playout
several per cent of its time; the answers are the same geometries and numbers, to the last bit
(``tests/world/test_shapes.py`` holds each beside shapely's own call). A geometry's own methods
(``distance``, ``intersects``, ``intersection``) already take the scalar path and need nothing here.

They take only what the rules pass: one geometry, not arrays.
"""

from __future__ import annotations

import numpy as np
from shapely import lib
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

_ALLOW_NAN = np.intc(0)
"""``HandleNaN.allow``, what ``shapely.points`` and its kin pass by default."""
_NO_HOLES = np.empty((0,), dtype=object)
"""``shapely.polygons``' holes for a polygon with none."""
_COLLECTION = np.intc(7)
"""``GeometryType.GEOMETRYCOLLECTION``, as ``shapely.union_all`` gathers its parts."""
_ROUND = np.intc(1)
"""``BufferCapStyle.round`` and ``BufferJoinStyle.round``: a buffer's defaults."""
_FLAT = np.intc(2)
"""``BufferCapStyle.flat``."""
_ONE_SIDED = np.bool_(False)


def polygon(corners) -> Polygon:
    """``shapely.polygons(corners)``: a polygon from its outline's corners, (x, y) pairs, no holes."""
    return lib.polygons(lib.linearrings(np.array(corners, dtype=np.float64), _ALLOW_NAN), _NO_HOLES)


def point(x: float, y: float) -> Point:
    """``Point(x, y)``."""
    return lib.points(np.array((x, y), dtype=np.float64), _ALLOW_NAN)


def segment(x0: float, y0: float, x1: float, y1: float) -> LineString:
    """``shapely.linestrings([(x0, y0), (x1, y1)])``: a straight path."""
    return lib.linestrings(np.array(((x0, y0), (x1, y1)), dtype=np.float64), _ALLOW_NAN)


def bounds(g: BaseGeometry) -> tuple[float, float, float, float]:
    """``g.bounds``: (min x, min y, max x, max y)."""
    return tuple(lib.bounds(g).tolist())


def coords(g: BaseGeometry) -> list[tuple[float, float]]:
    """``list(g.coords)`` of a flat geometry (no z, no m): its points as (x, y)."""
    return [tuple(p) for p in lib.get_coordinates(np.asarray(g, dtype=object), False, False, False).tolist()]


def locate(line: BaseGeometry, p: BaseGeometry) -> float:
    """``line.project(p)``: how far along the line its nearest point to ``p`` lies."""
    return lib.line_locate_point_scalar(line, p)


def shortest_line(a: BaseGeometry, b: BaseGeometry) -> LineString:
    """``shapely.shortest_line(a, b)``: from the nearest point of ``a`` to the nearest point of ``b``."""
    return lib.shortest_line_scalar(a, b)


def buffer(g: BaseGeometry, radius: float, quad_segs: int = 16, flat: bool = False) -> BaseGeometry:
    """``g.buffer(radius, quad_segs=quad_segs)`` with round joins, and round ends unless ``flat``
    (``cap_style="flat"``)."""
    return lib.buffer(g, radius, np.intc(quad_segs), _FLAT if flat else _ROUND, _ROUND, 5.0, _ONE_SIDED)


def union_all(parts) -> BaseGeometry:
    """``shapely.union_all(parts)`` (``shapely.ops.unary_union``) of a list of geometries."""
    return lib.unary_union_scalar(lib.create_collection(np.asarray(parts, dtype=object).ravel(), _COLLECTION))


def intersection(a: BaseGeometry, b: BaseGeometry) -> BaseGeometry:
    """``a.intersection(b)`` (the method's own scalar call, without its deprecation wrapper)."""
    return lib.intersection_scalar(a, b)


def overlap(a: BaseGeometry, b: BaseGeometry) -> float:
    """``a.intersection(b).area``: how much of the table two shapes share (a base on a base, a path
    through a base)."""
    return lib.area_scalar(lib.intersection_scalar(a, b))
