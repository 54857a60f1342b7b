"""A table that changes (DD chapter 8): napalm-burnt vegetation (G-19) and craters (G-01 T12c) in the
plan-view table and in line of sight.

The ray scenes are shared and never change: burnt ground travels in ``Conditions.burnt``. The fast
paths (batched, early, single sightline, stand to stand) must still agree with the reference trace with
burnt ground on the table, and rays that never come near it must be answered as without it.
"""

import math

import numpy as np
import pytest
import shapely

from game.terrain import terrain_book
from game.world.burnt import BAND, Burnt
from game.world.features import Feature
from game.world.los import Conditions, Observer
from game.world.tablemap import TableMap
from tests.world.tables import Table, convention, los_of, random_lines
from tests.world.test_fast_paths import assert_rows_agree, assert_same_result, random_pairs, reference_check

STRIP = Table(48.0, 24.0, (
    Feature("strip", "dense", polygon=((20.0, 0.0), (26.0, 0.0), (26.0, 24.0), (20.0, 24.0))),
    Feature("ruin", "rubble", polygon=((30.0, 2.0), (37.0, 2.0), (37.0, 6.0), (30.0, 6.0))),
    Feature("hut", "hootch", point=(23.0, 20.0), size=(1.5, 1.0)),
))


def rect(x0, y0, x1, y1):
    return (x0, y0, x1, y0, x1, y1, x0, y1)


class Change:
    def __init__(self, id, kind, polygon):
        self.id, self.kind, self.polygon = id, kind, polygon


def oval(cx, cy, heading, length, width, n=24):
    h = math.radians(heading)
    pts = []
    for k in range(n):
        a = 2 * math.pi * k / n
        u, v = length / 2 * math.cos(a), width / 2 * math.sin(a)
        pts += [cx + u * math.cos(h) - v * math.sin(h), cy + u * math.sin(h) + v * math.cos(h)]
    return tuple(pts)


def test_a_burnt_strip_opens_a_sightline_through_dense_jungle():
    # G-19: napalm burns the triple canopy; G-02: dense caps the whole sightline at 3" otherwise
    los = los_of(STRIP)
    a, b = Observer(12.0, 12.0, 0.0), Observer(34.0, 12.0, 180.0)
    assert not los.check(a, b, Conditions()).visible
    burnt = Conditions(burnt=(rect(19.0, 8.0, 27.0, 16.0),))
    r = los.check(a, b, burnt)
    assert r.visible and r.limit == "open" and r.canopy_inches == {}
    assert los.check_many([(a, b)] * 6, burnt)[0] == r
    # only part of the strip burnt: the 4" of jungle left still block (G-02)
    part = Conditions(burnt=(rect(21.0, 8.0, 23.0, 16.0),))
    r = los.check(a, b, part)
    assert not r.visible and r.limit == "dense" and abs(r.canopy_inches["dense"] - 4.0) < 0.05


def test_the_fires_edge_is_a_new_woodline():
    # DD-4.2: a stand lining the edge the fire left sees out across the burnt strip and beyond
    los = los_of(STRIP)
    burnt = Conditions(burnt=(rect(23.0, 0.0, 26.5, 24.0),))  # 3" of the 6" strip left, 20" to 23"
    inside = (22.5, 12.0, 0.6)  # 0.5" into what is left of the jungle, facing the burnt ground
    far = (40.0, 12.0, 0.6)
    assert not los.check_points(inside, far, Conditions()).visible
    r = los.check_points(inside, far, burnt)
    assert r.visible and r.extra["woodline"] == [True, False] and r.canopy_inches == {}
    # 1.5" in, past the band: the 1.5" of jungle to the burnt ground count, and dense caps the line at 3"
    deep = los.check_points((21.5, 12.0, 0.6), far, burnt)
    assert not deep.visible and deep.limit == "dense" and abs(deep.canopy_inches["dense"] - 1.5) < 0.02
    assert los.check_points((21.5, 12.0, 0.6), (24.0, 12.0, 0.6), burnt).visible  # 2.5" in all
    # a stand on the burnt ground looking into the jungle left lines no woodline (DD-4.4)
    r = los.check_points((24.0, 12.0, 0.6), (14.0, 12.0, 0.6), burnt)
    assert not r.visible and r.limit == "dense" and r.extra["woodline"] == [False, False]
    assert abs(r.canopy_inches["dense"] - 3.0) < 0.02


def test_rubble_and_buildings_do_not_burn():
    # G-01 T10/T12: napalm takes vegetation, not ruins or a hootch's walls
    los = los_of(STRIP)
    everything = Conditions(burnt=(rect(0.0, 0.0, 48.0, 24.0),))
    ruin = los.check_points((29.0, 4.0, 0.6), (38.5, 4.0, 0.6), everything)
    assert not ruin.visible and ruin.limit == "rubble"
    hut = los.check_points((23.0, 17.0, 0.6), (23.0, 23.0, 0.6), everything)
    assert not hut.visible and hut.limit == "building"
    assert los.terrain_at(23.0, 6.0) == "dense" and los.terrain_at(23.0, 6.0, everything.burnt) == "burnt"
    assert los.terrain_at(33.0, 4.0, everything.burnt) == "rubble"


def test_dense_canopy_seen_from_above_once_burnt():
    # DD-4.41: no one sees into dense canopy from above -- unless the canopy is burnt off (G-19)
    table = Table(48.0, 24.0, (Feature("knoll", "hill", polygon=((2, 8), (10, 8), (10, 16), (2, 16)), height=4.0),
                               Feature("jungle", "dense", polygon=((14, 0), (30, 0), (30, 24), (14, 24)),
                                       canopy_top=1.5)))
    los = los_of(table)
    eye, target = (6.0, 12.0, los.elevation(6.0, 12.0) + 0.6), (18.5, 12.0, 0.6)
    r = los.check_points(eye, target, Conditions())
    assert not r.visible and r.clause == "DD-4.41" and r.cutoff == 0.0
    burnt = Conditions(burnt=(rect(13.0, 6.0, 20.0, 18.0),))
    r = los.check_points(eye, target, burnt)
    assert r.visible and r.blocker is None and r.limit == "elevated"
    tr = los.trace(np.array([eye] * 3), np.array([target] * 3), burnt)
    assert tr.visible.all() and (tr.above_part < 0).all()


def test_clear_circle_once_the_trees_burn():
    # DD-6.6: a Dustoff LZ needs 6" clear of dense trees and buildings; burnt trees are gone (G-19)
    los = los_of(STRIP)
    assert not los.clear_circle(23.0, 8.0, 3.0)
    assert los.clear_circle(23.0, 8.0, 3.0, (rect(19.0, 4.0, 27.0, 12.0),))
    assert not los.clear_circle(23.0, 8.0, 3.0, (rect(21.0, 4.0, 27.0, 12.0),))  # a sliver left
    assert not los.clear_circle(23.0, 19.0, 3.0, (rect(19.0, 14.0, 27.0, 24.0),))  # the hootch stands


BURNT = (oval(14.0, 12.0, 30.0, 14.0, 3.0), oval(30.0, 24.0, 100.0, 10.0, 2.5), rect(36.0, 4.0, 44.0, 9.0))


@pytest.fixture(scope="module")
def crowded():
    return los_of(convention())


def test_fast_paths_agree_with_the_reference_on_burnt_ground(crowded):
    # G-19: every path answers the same burnt table (tests/world/test_fast_paths.py, with burnt ground)
    los, cond = crowded, Conditions(burnt=BURNT)
    eyes, targets = random_lines(los, 3000, seed=21)
    ref = los.trace_reference(eyes, targets, cond)
    full = los.trace(eyes, targets, cond)
    assert_rows_agree(full, ref, np.arange(len(eyes)))
    early = los.trace(eyes, targets, cond, early=True)
    assert (early.visible == ref.visible).all()
    assert_rows_agree(early, ref, np.nonzero(early.complete)[0])
    burnt = Burnt(BURNT)
    near = burnt.near(eyes[:, :2], targets[:, :2])
    assert near.sum() > 300
    plain = los.trace_reference(eyes, targets, Conditions())
    assert (plain.visible[near] != ref.visible[near]).sum() > 20  # the burning changes answers
    for i, (e, t) in enumerate(zip(eyes.tolist(), targets.tolist(), strict=True)):
        assert los._sight(tuple(e), tuple(t), cond) == full.row(i), i
        s = los._sight(tuple(e), tuple(t), cond, early=True)
        assert s.visible == early.visible[i], i
        if s.complete and early.complete[i]:
            assert s == early.row(i), i


def test_rays_that_never_come_near_burnt_ground_are_answered_as_before(crowded):
    # G-19: the burnt conditions change nothing away from the burnt ground
    los, cond = crowded, Conditions(burnt=BURNT)
    eyes, targets = random_lines(los, 3000, seed=22)
    grown = shapely.union_all([shapely.Polygon(np.reshape(p, (-1, 2))) for p in BURNT]).buffer(BAND + 0.01)
    lines = shapely.linestrings(np.stack([eyes[:, :2], targets[:, :2]], axis=1))
    away = np.nonzero(~shapely.intersects(lines, grown))[0]
    assert len(away) > 1000
    before, after = los.trace(eyes[away], targets[away], Conditions()), los.trace(eyes[away], targets[away], cond)
    for name in ("visible", "distance", "cutoff", "limit", "inches", "solid_part", "above_part", "band"):
        assert (getattr(before, name) == getattr(after, name)).all(), name
    for i in away[:300].tolist():
        e, t = tuple(eyes[i]), tuple(targets[i])
        assert los._sight(e, t, cond) == los._sight(e, t, Conditions())


def test_stand_checks_agree_with_the_reference_on_burnt_ground(crowded):
    los, cond = crowded, Conditions(burnt=BURNT)
    pairs = random_pairs(los, 200, seed=23)
    many = los.check_many(pairs, cond)
    for (a, b), r in zip(pairs, many, strict=True):
        assert los.check(a, b, cond) == r
        tr, pick, fraction = reference_check(los, a, b, cond)
        assert_same_result(r, los._result(tr.row(pick), fraction))


# -- the plan-view table -----------------------------------------------------------------------------

def test_the_plan_view_table_burns_vegetation_only():
    # G-19: inside the burnt area vegetation becomes burnt ground; the hootch stays (G-01 T10)
    book = terrain_book()
    table = TableMap(STRIP.width, STRIP.height, STRIP.features, book)
    burnt = table.changed([Change("tc1", "burnt", [[19.0, 4.0], [27.0, 4.0], [27.0, 24.0], [19.0, 24.0]])])
    assert table.ground_at(23.0, 10.0).id == "dense"  # the original is left as it was
    assert burnt.ground_at(23.0, 10.0).id == "burnt"
    assert burnt.ground_at(23.0, 2.0).id == "dense"  # outside the polygon
    assert burnt.ground_at(23.0, 20.0).id == "hootch"
    assert burnt.ground_at(33.0, 4.0).id == "rubble"
    assert not burnt.crosses_dense(shapely.LineString([(21.0, 10.0), (25.0, 10.0)]))  # DD-1.13
    assert table.crosses_dense(shapely.LineString([(21.0, 10.0), (25.0, 10.0)]))
    assert {t.id for t in burnt.terrain_along(shapely.Point(23.0, 4.0).buffer(0.5))} == {"dense", "burnt"}
    ids = [h.feature.id for h in burnt.features_at(23.0, 10.0)]
    assert ids == ["strip/tc1"]


def test_a_crater_is_an_overlay_with_a_5_save():
    # G-01 T12c: craters: move normal, LOS 24", save 5+; G-01 rule 1: the better cover at the centre
    book = terrain_book()
    table = TableMap(STRIP.width, STRIP.height, STRIP.features, book)
    holes = table.changed([Change("tc1", "crater", [[10 + math.cos(a), 10 + math.sin(a)]
                                                    for a in np.linspace(0, 2 * math.pi, 17)[:-1]])])
    base = shapely.box(9.5, 9.5, 10.5, 10.5)
    assert table.cover_under(base).id == "open"
    assert holes.cover_under(base).id == "crater" and holes.cover_under(base).save == 5
    assert holes.ground_at(10.0, 10.0).id == "open"
    assert all(t.move == "normal" for t in holes.terrain_along(base))
