"""Seeing out of a hootch or a masonry building (G-01 T10/T11; issue 16), on small tables in code.

G-01 T10: a hootch "blocks LOS through the building; a stand within 1" of a wall sees out", and so can be
seen from outside through that wall (DD-4.5: LOS is mutual). T11: masonry "blocks LOS except through
openings"; the engine reads a stand within 1" of a masonry wall as at a window (docs/terrain.md).
The band is terrain.toml's ``wall_band``.
"""

from __future__ import annotations

import dataclasses
import math
from functools import cache

import numpy as np
import pytest

from game.terrain import TerrainTable, terrain_book
from game.world import bake
from game.world.features import Feature
from game.world.los import Conditions, Observer, TableLOS
from tests.world.tables import Table, convention, los_of

DAY = Conditions()
DEPTH = 1.26
"""A Medium base's depth (DD-1.7): its centre is 0.63" behind its front edge."""

HAMLET = Table(48.0, 30.0, (
    Feature("hut", "hootch", point=(10.0, 6.0), size=(2.5, 2.0)),       # walls x 8.75-11.25, y 5-7
    Feature("big", "hootch", point=(30.0, 7.0), size=(8.0, 6.0)),        # walls x 26-34, y 4-10
    Feature("west", "hootch", point=(6.0, 20.0), size=(2.5, 2.0)),       # walls x 4.75-7.25
    Feature("middle", "hootch", point=(12.0, 20.0), size=(2.5, 2.0)),    # walls x 10.75-13.25
    Feature("east", "hootch", point=(18.0, 20.0), size=(2.5, 2.0)),      # walls x 16.75-19.25
    Feature("villa", "masonry", point=(40.0, 20.0), size=(6.0, 5.0)),    # walls x 37-43, y 17.5-22.5
))


def los() -> TableLOS:
    return los_of(HAMLET)


def facing_east(x: float, y: float) -> Observer:
    return Observer(x, y, 0.0)


def facing_west(x: float, y: float) -> Observer:
    return Observer(x, y, 180.0)


def in_east_wall(wall: float, y: float, inside: float) -> Observer:
    """A Medium stand facing out of a building's east wall (x = ``wall``), its front edge ``inside``
    inches in from it: the whole base inside."""
    return facing_east(wall - inside - DEPTH / 2, y)


def in_west_wall(wall: float, y: float, inside: float) -> Observer:
    return facing_west(wall + inside + DEPTH / 2, y)


def east_of(a: Observer, gap: float) -> Observer:
    """A stand facing west, ``gap`` inches base edge to base edge east of a stand facing east."""
    return facing_west(a.x + DEPTH / 2 + gap + DEPTH / 2, a.y)


def west_of(a: Observer, gap: float) -> Observer:
    return facing_east(a.x - DEPTH / 2 - gap - DEPTH / 2, a.y)


def test_a_team_half_an_inch_inside_a_hootch_wall_sees_out_and_is_seen():
    # G-01 T10: within 1" of the wall it sees out; DD-4.5: and is seen, 10" away in the open
    team = in_east_wall(11.25, 6.0, 0.5)
    squad = east_of(team, 10.0)
    out, back = los().check(team, squad, DAY), los().check(squad, team, DAY)
    assert out.visible and back.visible and out.fraction == back.fraction == 1.0  # all twelve sightlines
    assert out.distance == back.distance == 10.0 and out.limit == "open"
    assert los().check_many([(team, squad), (squad, team)] * 3, DAY) == [out, back] * 3
    assert closed().check(squad, team, DAY).fraction < 1.0  # with the hut whole, some are blocked
    # the evidence: a sightline from its centre out through the wall, and back
    centre, eye = (team.x, team.y, 0.45), los().samples(squad, team)[0]
    r = los().check_points(centre, tuple(eye), DAY)
    assert r.visible and r.extra["wall"] == ["hut", None]
    assert "the eye at the wall of hootch 'hut' sees out (G-01 T10)" in r.reason
    assert los().check_points(tuple(eye), centre, DAY).extra["wall"] == [None, "hut"]


@cache
def closed() -> TableLOS:
    """HAMLET with no wall band on any building: they block whole, as before issue 16."""
    book = terrain_book()
    rows = dict(book.terrain, **{t: dataclasses.replace(book.terrain[t], wall_band=0.0) for t in ("hootch", "masonry")})
    return TableLOS.from_glb(bake.bake_glb(HAMLET), HAMLET.width, HAMLET.height, TerrainTable(rows))


def test_without_a_wall_band_the_hootch_blocks_whole():
    # G-01 T10: terrain.toml wall_band is the rule's data: 0 and the building blocks whole
    inside, out = (10.75, 6.0, 0.45), (21.0, 6.0, 0.6)       # 0.5" in from the east wall; 9.75" out
    r = closed().check_points(out, inside, DAY)
    assert not r.visible and r.limit == "building" and r.blocker["feature"] == "hut" and "wall" not in r.extra
    r = los().check_points(out, inside, DAY)
    assert r.visible and r.extra["wall"] == [None, "hut"]


def test_two_inches_inside_a_big_hootch_sees_nothing_out():
    # G-01 T10: more than 1" from every wall, the hootch blocks sight both ways
    deep = in_east_wall(34.0, 7.0, 2.0)
    squad = east_of(deep, 10.0)
    for a, b in ((deep, squad), (squad, deep)):
        r = los().check(a, b, DAY)
        assert not r.visible and r.fraction == 0.0 and r.limit == "building" and r.blocker["feature"] == "big"
        assert r.clause == "G-02" and "wall" not in r.extra
    # the same team at 0.5" from that wall sees out
    near = in_east_wall(34.0, 7.0, 0.5)
    r = los().check(east_of(near, 10.0), near, DAY)
    assert r.visible and r.fraction == 0.75  # not to its centre and two rear base points, over 1" in


def test_from_the_wall_it_sees_out_on_its_own_side_not_across_the_deep_inside():
    # G-01 T10, read as the woodline band (DD-4.2): the band runs from the stand to where the line
    # goes deeper than 1" from every wall; a line across the big hootch's deep inside is blocked
    at_west = in_west_wall(26.0, 7.0, 0.5)
    out_east = facing_west(34.0 + 4.0, 7.0)                   # in the open, 4" east of the east wall
    r = los().check(at_west, out_east, DAY)
    assert not r.visible and r.fraction == 0.0 and r.blocker["feature"] == "big"
    r = los().check(at_west, west_of(at_west, 4.0), DAY)
    assert r.visible and r.fraction == 0.75  # not to its centre and two rear base points, over 1" in


def test_a_hootch_between_two_hootches_still_blocks():
    # G-01 T10: each end sees out of its own hootch; the one between still blocks LOS through it
    a = in_east_wall(7.25, 20.0, 0.5)                         # at the east wall of 'west'
    b = in_west_wall(16.75, 20.0, 0.5)                        # at the west wall of 'east'
    for r in (los().check(a, b, DAY), los().check(b, a, DAY), *los().check_many([(a, b), (b, a)] * 3, DAY)):
        assert not r.visible and r.fraction == 0.0 and r.limit == "building"
        assert r.blocker["feature"] == "middle"
    r = los().check_points((a.x, a.y, 0.45), (b.x, b.y, 0.45), DAY)  # centre to centre
    assert not r.visible and r.blocker["feature"] == "middle" and r.extra["wall"] == ["west", None]


def test_outside_a_hootch_nothing_new_is_seen_through_it():
    # G-01 T10: from outside (beyond the eaves) every answer is the one with the buildings whole
    r = los().check_points((8.45, 6.0), (22.0, 6.0), DAY)     # 0.3" west of the hut's wall, across it
    assert not r.visible and r.blocker["feature"] == "hut" and "wall" not in r.extra
    outside = [west_of(in_west_wall(8.75, 6.0, 0.0), 0.2),    # front edge 0.2" west of the hut
               facing_west(11.25 + 10.0, 6.0), facing_east(2.0, 13.0), facing_west(12.0, 13.0),
               facing_east(9.0, 20.0), facing_west(15.0, 20.0),  # between the three hootches
               facing_east(30.0, 12.5), facing_west(30.0, 1.5), facing_east(35.0, 20.0)]
    pairs = [(a, b) for a in outside for b in outside if a is not b and not a.base().intersects(b.base())]
    for (a, b), r in zip(pairs, los().check_many(pairs, DAY), strict=True):
        assert r == closed().check(a, b, DAY) and "wall" not in r.extra and "wall" not in r.reason
    # and random sightlines with no end inside a building
    eyes, targets = building_lines(los(), 3000, seed=20)
    keep = (los()._walls_cast(eyes) < 0) & (los()._walls_cast(targets) < 0)
    assert keep.sum() > 1000
    ref, now = closed().trace_reference(eyes[keep], targets[keep], DAY), los().trace(eyes[keep], targets[keep], DAY)
    assert (now.visible == ref.visible).all() and now.wall is None
    assert (now.solid_part[~now.far] == ref.solid_part[~now.far]).all()


def test_a_stand_at_a_masonry_window_sees_out():
    # G-01 T11 "except through openings": the engine reads within 1" of a masonry wall as at a window
    team = in_west_wall(37.0, 20.0, 0.5)
    squad = west_of(team, 10.0)
    r = los().check(squad, team, DAY)
    assert r.visible and r.distance == 10.0 and r.extra["wall"] == [None, "villa"]
    assert "masonry 'villa' sees out (G-01 T11)" in r.reason
    deep = in_west_wall(37.0, 20.0, 2.0)                       # more than 1" from every wall
    r = los().check(west_of(deep, 10.0), deep, DAY)
    assert not r.visible and r.blocker["feature"] == "villa"


def test_inside_one_building_its_walls_do_not_block():
    # engine reading: a sightline that never leaves a building is not through it (deep inside too)
    low, high = (28.5, 7.0, 0.3), (31.5, 7.0, 0.6)  # it crosses the underside of the thatch
    r = los().check_points(low, high, DAY)
    assert r.visible and r.extra["wall"] == ["big", "big"]
    assert not closed().check_points(low, high, DAY).visible


# -- every path gives the reference's answer ------------------------------------------------------


def building_lines(table: TableLOS, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Sightlines with ends inside buildings (at the wall, deep, under the eaves, just outside) and
    in the open, at figure heights and above the roofs."""
    rng = np.random.default_rng(seed)
    boxes = list(table.walls)

    def end() -> tuple[float, float]:
        if rng.random() < 0.3:
            return float(rng.uniform(0.5, table.width - 0.5)), float(rng.uniform(0.5, table.height - 0.5))
        w = boxes[int(rng.integers(len(boxes)))]
        xs = [x for _, _, x, _ in w.hull]
        ys = [y for _, _, _, y in w.hull]
        return (float(rng.uniform(min(xs) - 0.4, max(xs) + 0.4)), float(rng.uniform(min(ys) - 0.4, max(ys) + 0.4)))

    pts = np.array([[*end(), *end()] for _ in range(n)])
    pts = np.clip(pts, 0.0, [table.width, table.height, table.width, table.height])
    lift = rng.choice([0.3, 0.45, 0.6, 0.6, 1.2], size=(2, n))
    eyes = np.column_stack([pts[:, :2], table._elevations_cast(pts[:, :2]) + lift[0]])
    targets = np.column_stack([pts[:, 2:], table._elevations_cast(pts[:, 2:]) + lift[1]])
    return eyes, targets


def walls_of(tr, rows: np.ndarray) -> np.ndarray:
    return np.full((len(rows), 2), -1) if tr.wall is None else tr.wall[rows]


@pytest.mark.parametrize("which", ["hamlet", "convention"])
def test_every_path_agrees_with_the_reference_at_the_walls(which):
    table = los() if which == "hamlet" else los_of(convention())
    eyes, targets = building_lines(table, 1500, seed=21)
    ref = table.trace_reference(eyes, targets, DAY)
    full = table.trace(eyes, targets, DAY)
    early = table.trace(eyes, targets, DAY, early=True)
    rows = np.arange(len(eyes))
    assert (full.visible == ref.visible).all() and (early.visible == ref.visible).all()
    rows = rows[~full.far]  # longer than every limit: not traced
    assert (full.solid_part[rows] == ref.solid_part[rows]).all()
    assert (walls_of(full, rows) == walls_of(ref, rows)).all()
    kept = np.nonzero(early.complete & ~early.far)[0]
    assert (walls_of(early, kept) == walls_of(ref, kept)).all()
    assert (walls_of(ref, rows) >= 0).any(axis=1).mean() > 0.1   # many seeing out through a wall
    assert 0.05 < ref.visible.mean() < 0.9
    for i, (e, t) in enumerate(zip(eyes.tolist(), targets.tolist(), strict=True)):
        assert table._sight(tuple(e), tuple(t), DAY) == full.row(i), i
        s = table._sight(tuple(e), tuple(t), DAY, early=True)
        assert s.visible == early.visible[i], i
        if s.complete and early.complete[i]:
            assert s == early.row(i), i


def test_stand_checks_agree_one_by_one_and_batched_at_the_walls():
    rng = np.random.default_rng(22)
    pairs = []
    for w in los().walls:
        xs = [x for _, _, x, _ in w.hull]
        ys = [y for _, _, _, y in w.hull]
        for _ in range(30):
            x, y = rng.uniform(min(xs) + 0.2, max(xs) - 0.2), rng.uniform(min(ys) + 0.2, max(ys) - 0.2)
            ang = rng.uniform(0, 2 * math.pi)
            d = rng.uniform(3.0, 14.0)
            x2 = min(max(x + d * math.cos(ang), 1.0), HAMLET.width - 1.0)
            y2 = min(max(y + d * math.sin(ang), 1.0), HAMLET.height - 1.0)
            a = Observer(float(x), float(y), float(rng.uniform(0, 360)))
            b = Observer(float(x2), float(y2), float(rng.uniform(0, 360)))
            if not a.base().intersects(b.base()):
                pairs += [(a, b), (b, a)]
    many = los().check_many(pairs, DAY)
    one = [los().check(a, b, DAY) for a, b in pairs]
    assert many == one and [r.extra for r in many] == [r.extra for r in one]
    assert 0.1 < np.mean([r.visible for r in many]) < 0.9
    assert sum("wall" in r.extra for r in many) > len(pairs) // 10
    # DD-4.5: mutual
    assert [r.visible for r in one[0::2]] == [r.visible for r in one[1::2]]


def test_the_grid_finds_the_buildings_the_casts_do():
    table = los_of(convention())
    rng = np.random.default_rng(23)
    pts = np.column_stack([rng.uniform([0, 0], [table.width, table.height], (20000, 2)),
                           rng.uniform(0.0, 1.6, 20000)])
    for w in table.walls:  # and many inside or near each building
        xs = [x for _, _, x, _ in w.hull]
        ys = [y for _, _, _, y in w.hull]
        near = rng.uniform([min(xs) - 0.3, min(ys) - 0.3, 0.0], [max(xs) + 0.3, max(ys) + 0.3, 1.6], (300, 3))
        pts = np.vstack([pts, near])
    assert (table._walls_of(pts) == table._walls_cast(pts)).all()
    assert [table._walls_of1(*p) for p in pts.tolist()] == table._walls_cast(pts).tolist()
    assert {w.terrain for w in table.walls} == {"hootch", "masonry"}   # not bunkers, not wrecks
