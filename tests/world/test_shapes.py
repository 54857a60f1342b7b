"""``game.world.shapes`` gives what shapely's own calls give, to the last bit (the rules' gaps, sweeps and
watched zones are measured through it)."""

from __future__ import annotations

import random
from itertools import pairwise

import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from game.world import shapes
from game.world.features import base_corners


def _rects(n: int = 40, seed: int = 3) -> list[Polygon]:
    rng = random.Random(seed)
    return [Polygon(base_corners(rng.uniform(0, 20), rng.uniform(0, 20), rng.uniform(0, 360), rng.uniform(0.5, 2),
                                 rng.uniform(0.5, 2))) for _ in range(n)]


def _same(a, b) -> bool:
    return type(a) is type(b) and a.wkb == b.wkb


def test_constructors_match_shapely() -> None:
    rng = random.Random(1)
    for _ in range(200):
        x, y, x1, y1 = (rng.uniform(-5, 50) for _ in range(4))
        assert _same(shapes.point(x, y), Point(x, y))
        assert _same(shapes.segment(x, y, x1, y1), shapely.linestrings([(x, y), (x1, y1)]))
        corners = base_corners(x, y, rng.uniform(0, 360), 1.0, 0.75)
        assert _same(shapes.polygon(corners), shapely.polygons(corners))
        assert _same(shapes.polygon(list(corners)), Polygon(corners))
    assert _same(shapes.point(3, 4), Point(3, 4))  # whole numbers as well as floats


def test_measures_match_shapely() -> None:
    rects = _rects()
    for a in rects:
        for b in rects[:10]:
            assert _same(shapes.shortest_line(a, b), shapely.shortest_line(a, b))
            assert _same(shapes.intersection(a, b), a.intersection(b))
            assert shapes.overlap(a, b) == a.intersection(b).area
        assert shapes.bounds(a) == a.bounds
        assert shapes.coords(a.exterior) == list(a.exterior.coords)


def test_paths_and_zones_match_shapely() -> None:
    rects = _rects(12, seed=5)
    zone = unary_union(rects)
    assert _same(shapes.union_all(rects), zone)
    line = LineString([(0, 0), (20, 17)])
    for r in rects:
        p = Point(r.centroid)
        assert shapes.locate(line, p) == line.project(p)
        assert type(shapes.locate(line, p)) is float
    for radius, quad in ((0.5, 8), (1.25, 16)):
        assert _same(shapes.buffer(Point(2, 3), radius, quad), Point(2, 3).buffer(radius, quad_segs=quad))
        assert _same(shapes.buffer(line, radius, quad), line.buffer(radius, quad_segs=quad))
    assert _same(shapes.buffer(line, 0.7, flat=True), line.buffer(0.7, cap_style="flat"))


def test_features_at_a_point_match_shapely_on_every_shipped_table() -> None:
    # DD-3.2, G-01: the terrain under a point is every feature its shape meets, edges and corners included;
    # ``TableMap.features_at`` asks the prepared shapes with ``intersects_xy``, without making the point
    from game.rules.game import Game
    from game.rules.scenario import load_scenario, shipped_scenarios

    rng = random.Random(9)
    for path in shipped_scenarios().values():
        g = Game(load_scenario(path), 1, start=False)
        table = g.table
        points = [(rng.uniform(0, table.width), rng.uniform(0, table.height)) for _ in range(300)]
        for h in table.hits[:40]:  # each feature's corners and the middles of its edges: on the boundary
            ring = list(getattr(h.shape, "exterior", h.shape).coords) if h.shape.geom_type == "Polygon" else []
            points += ring[:8] + [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in pairwise(ring[:9])]
        for x, y in points:
            want = [h for h in table.hits if h.shape.intersects(Point(x, y))]
            assert table.features_at(x, y) == want, (path.stem, x, y)
            assert table.point_on_trail(x, y) == table.on_trail(Point(x, y)), (path.stem, x, y)
