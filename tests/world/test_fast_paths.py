"""The fast line-of-sight paths give the answers of the plain Embree path (DESIGN §7; docs/terrain.md).

``TableLOS.trace_reference`` casts every sightline in full through Embree, every end included, and skips
nothing. The batched call, the single-sightline path, stand-to-stand checks, ``check_many`` and the
plan grid must agree with it on thousands of random sightlines over a crowded table: the same visible
flags, the same distances, inches within 0.01".
"""

import math
from functools import cache

import numpy as np
import pytest
import shapely
from shapely.ops import nearest_points

from game.world.los import BODY_HEIGHTS, BODY_LOCAL, Conditions, Observer, TableLOS
from game.world.raytrace import RayScene
from tests.world.tables import convention, los_of, random_lines

CONDITIONS = {
    "day": Conditions(),
    "dusk, a flare": Conditions(time_of_day="dusk", illuminated=((20.0, 18.0, 4.0),)),
    "night": Conditions(time_of_day="night_dark"),
    "monsoon": Conditions(weather="monsoon"),
    "mist": Conditions(weather="mist", turn=3),
    "smoke": Conditions(smoke=((12.0, 12.0, 2.0), (30.0, 20.0, 3.0))),
    # G-01 T15: sixteen vehicle hulls and wrecks standing about the table (game.world.hulls)
    "hulls": Conditions(hulls=tuple((float(x), float(y), float(f), 2.4, 1.3, float(h), f"v{i}") for i, (x, y, f, h)
                                    in enumerate(np.random.default_rng(21).uniform([2, 2, 0, 0.5], [46, 34, 360, 1.3],
                                                                                    size=(16, 4))))),
}


@cache
def table() -> TableLOS:
    return los_of(convention())


def assert_rows_agree(fast, ref, rows: np.ndarray) -> None:
    assert (fast.visible[rows] == ref.visible[rows]).all()
    assert (fast.distance[rows] == ref.distance[rows]).all()
    traced = rows[~fast.far[rows]]
    assert np.abs(fast.inches[traced] - ref.inches[traced]).max(initial=0.0) <= 0.01 + 1e-9
    for name in ("limit", "cutoff", "solid_part", "above_part", "band", "elevated"):
        assert (getattr(fast, name)[traced] == getattr(ref, name)[traced]).all(), name
    # untraced: longer than every limit before terrain, so not visible whatever the terrain
    far = rows[fast.far[rows]]
    assert not ref.visible[far].any()
    assert (ref.distance[far] > fast.cutoff[far]).all()


@pytest.mark.parametrize("name", list(CONDITIONS))
def test_trace_and_batch_agree_with_the_reference(name):
    los, cond = table(), CONDITIONS[name]
    eyes, targets = random_lines(los, 3000, seed=11)
    ref = los.trace_reference(eyes, targets, cond)
    full = los.trace(eyes, targets, cond)
    assert_rows_agree(full, ref, np.arange(len(eyes)))
    assert (los.batch(eyes, targets, cond) == ref.visible).all()
    early = los.trace(eyes, targets, cond, early=True)
    kept = np.nonzero(early.complete)[0]
    assert_rows_agree(early, ref, kept)
    assert 0.05 < ref.visible.mean() < 0.95 or name in ("night", "monsoon")


@pytest.mark.parametrize("name", ["day", "dusk, a flare", "smoke", "hulls"])
def test_single_sightlines_are_the_batched_rows(name):
    # the scalar path repeats the batched arithmetic: the same answer to the last bit
    los, cond = table(), CONDITIONS[name]
    eyes, targets = random_lines(los, 1500, seed=12)
    full = los.trace(eyes, targets, cond)
    early = los.trace(eyes, targets, cond, early=True)
    for i, (e, t) in enumerate(zip(eyes.tolist(), targets.tolist(), strict=True)):
        assert los._sight(tuple(e), tuple(t), cond) == full.row(i), i
        s = los._sight(tuple(e), tuple(t), cond, early=True)
        assert s.visible == early.visible[i] and s.complete == early.complete[i], i
        if s.complete:
            assert s == early.row(i), i


def assert_same_result(r, ref) -> None:
    """A fast LosResult against the reference's: the same answer; inches within 0.01"."""
    assert (r.visible, r.fraction, r.distance) == (ref.visible, ref.fraction, ref.distance)
    if not r.extra["traced"]:
        # longer than every limit before terrain: answered from that limit, terrain not traced
        assert not ref.visible and r.fraction == 0.0 and "not traced" in r.reason
        assert r.limit in ("open", "elevated", "monsoon", "mist", "dawn", "dusk", "night_moonlit", "night_dark")
        assert r.distance > r.cutoff
        return
    assert (r.limit, r.cutoff, r.clause, r.blocker, r.extra) == (ref.limit, ref.cutoff, ref.clause, ref.blocker, ref.extra)
    assert r.canopy_inches.keys() == ref.canopy_inches.keys()
    assert all(abs(r.canopy_inches[c] - v) <= 0.01 + 1e-9 for c, v in ref.canopy_inches.items())
    if r.canopy_inches == ref.canopy_inches:
        assert r.reason == ref.reason


def test_check_points_agrees_with_the_reference():
    los, cond = table(), CONDITIONS["day"]
    eyes, targets = random_lines(los, 2000, seed=13)
    ref = los.trace_reference(eyes, targets, cond)
    for i, (e, t) in enumerate(zip(eyes.tolist(), targets.tolist(), strict=True)):
        assert_same_result(los.check_points(tuple(e), tuple(t), cond), los._result(ref.row(i), float(ref.visible[i])))
    # (x, y) points stand an eye 0.6" over the ground, as before
    for p, q in [((3.0, 3.0), (7.0, 5.0)), ((20.0, 10.0), (26.0, 19.0)), ((40.0, 30.0), (33.0, 33.0))]:
        e, t = (np.array([[*v, los._elevations_cast(np.array([v]))[0] + 0.6]]) for v in (p, q))
        ref = los.trace_reference(e, t, cond)
        assert_same_result(los.check_points(p, q, cond), los._result(ref.row(0), float(ref.visible[0])))


def random_pairs(los: TableLOS, n: int, seed: int) -> list[tuple[Observer, Observer]]:
    rng = np.random.default_rng(seed)
    pairs = []
    while len(pairs) < n:
        x, y = rng.uniform([2.0, 2.0], [los.width - 2, los.height - 2])
        ang, dist = rng.uniform(0, 2 * math.pi), rng.choice([rng.uniform(2.0, 12.0), rng.uniform(2.0, 36.0)])
        x2, y2 = x + dist * math.cos(ang), y + dist * math.sin(ang)
        if not (2.0 <= x2 <= los.width - 2 and 2.0 <= y2 <= los.height - 2):
            continue
        a = Observer(float(x), float(y), float(rng.uniform(0, 360)))
        b = Observer(float(x2), float(y2), float(rng.uniform(0, 360)), width=1.26, depth=1.26)
        if a.base().intersects(b.base()):
            continue
        pairs.append((a, b))
    return pairs


def reference_check(los: TableLOS, a: Observer, b: Observer, cond: Conditions):
    """The stand-to-stand check as first written: every sightline through the reference trace."""

    def samples(o: Observer, toward: Observer) -> np.ndarray:
        p, _ = nearest_points(o.base(), toward.base())
        c, s = math.cos(math.radians(o.facing)), math.sin(math.radians(o.facing))
        local = BODY_LOCAL * np.array([o.depth, o.width])
        xy = np.vstack([[p.x, p.y], np.column_stack([o.x + local[:, 0] * c - local[:, 1] * s,
                                                     o.y + local[:, 0] * s + local[:, 1] * c])])
        return np.column_stack([xy, los._elevations_cast(xy) + np.concatenate([[o.eye_height], BODY_HEIGHTS])])

    sa, sb = samples(a, b), samples(b, a)
    edge = float(a.base().distance(b.base()))
    eyes = np.vstack([np.repeat(sa[:1], 6, axis=0), np.repeat(sb[:1], 6, axis=0)])
    tr = los.trace_reference(eyes, np.vstack([sb, sa]), cond, distance=np.full(12, edge))
    clear = np.nonzero(tr.visible)[0]
    return tr, int(clear[0]) if len(clear) else 0, len(clear) / 12


@pytest.mark.parametrize("name", ["day", "dusk, a flare", "smoke", "hulls"])
def test_check_many_is_check_and_agrees_with_the_reference(name):
    los, cond = table(), CONDITIONS[name]
    pairs = random_pairs(los, 250, seed=14)
    many = los.check_many(pairs, cond)
    for (a, b), r in zip(pairs, many, strict=True):
        one = los.check(a, b, cond)
        assert one == r and one.extra == r.extra
        tr, pick, fraction = reference_check(los, a, b, cond)
        assert_same_result(r, los._result(tr.row(pick), fraction))
    assert 0.1 < np.mean([r.visible for r in many]) < 0.9 or name == "smoke"


def test_far_pairs_answer_from_the_limit_without_tracing():
    # DD-4.1, DD-4.41: nothing is seen beyond 30"; a pair further apart is answered from the limit alone
    los = table()
    a, b = Observer(2.5, 2.5, 0.0), Observer(45.0, 33.0, 180.0)
    r = los.check(a, b, Conditions())
    assert not r.visible and r.fraction == 0.0 and r.distance > 30 and r.limit in ("open", "elevated")
    assert r.clause in ("DD-4.1", "DD-4.41") and "not traced" in r.reason and r.extra["traced"] is False
    assert los.check_many([(a, b)], Conditions()) == [r]
    night = los.check(a, Observer(12.0, 2.5, 180.0), Conditions(time_of_day="night_dark"))
    assert not night.visible and night.limit == "night_dark" and night.cutoff == 3.0 and night.clause == "G-23"
    assert los.check_many([], Conditions()) == []


def test_plan_grid_answers_are_the_casts():
    los = table()
    rng = np.random.default_rng(15)
    xy = rng.uniform([0.0, 0.0], [los.width, los.height], size=(20000, 2))
    xy[:200, 0] = 0.0  # the table's edges
    xy[200:400, 1] = los.height
    ground = los._elevations_cast(xy)
    assert (los.elevations(xy) == ground).all()
    assert np.isfinite(los.grid.ground_flat).mean() > 0.5  # most of the table is read off the grid
    pts = np.column_stack([xy, ground + rng.choice([0.05, 0.3, 0.6, 1.0, 2.0, 3.5], len(xy))])
    assert (los._inside(pts) == los._inside_cast(pts)).all()
    stand = np.maximum(ground, pts[:, 2] - 0.6) >= 2.0 - 1e-6
    assert (los._elevated(pts) == stand).all()


def test_clear_lines_meet_nothing():
    los = table()
    eyes, targets = random_lines(los, 4000, seed=16)
    clear = np.array([los.grid.clear(e[0], e[1], t[0], t[1], min(e[2], t[2]))
                      for e, t in zip(eyes, targets, strict=True)])
    assert clear.sum() > 50
    ref = los.trace_reference(eyes[clear], targets[clear], Conditions())
    assert (ref.solid_part < 0).all() and (ref.inches == 0).all() and (ref.band == 0).all()
    assert (los._inside_cast(eyes[clear]) < 0).all() and (los._inside_cast(targets[clear]) < 0).all()


def test_direct_embree_calls_match_embreex():
    # single rays go straight to Embree through ctypes when the layout checks out; same rays, same hits
    los = table()
    rng = np.random.default_rng(17)
    for scene in (los.geo.ground, los.geo.solid, los.geo.canopy, los.geo.core):
        assert isinstance(scene, RayScene)
        if scene._direct is None:
            pytest.skip("the direct path did not attach (embreex layout changed?)")
        first, blocked = scene.casters()
        for o, d in zip(rng.uniform([0, 0, -1], [48, 36, 6], (300, 3)).tolist(),
                        rng.normal(size=(300, 3)).tolist(), strict=True):
            n = math.sqrt(sum(v * v for v in d))
            d = [v / n for v in d]
            assert first(*o, *d, 20.0) == scene._first1_embreex(tuple(o), tuple(d), 20.0)
            assert blocked(*o, *d, 3.0) == scene._blocked1_embreex(tuple(o), tuple(d), 3.0)


def test_a_table_without_canopy_or_buildings():
    from game.world import bake
    from game.world.features import Feature
    from tests.world.tables import Table

    bare = Table(24.0, 24.0, (Feature("knoll", "hill", polygon=((4, 4), (12, 4), (12, 12), (4, 12)), height=3.0),))
    los = TableLOS.from_glb(bake.bake_glb(bare), 24.0, 24.0)
    eyes, targets = random_lines(los, 500, seed=18)
    ref = los.trace_reference(eyes, targets, Conditions())
    assert (los.batch(eyes, targets, Conditions()) == ref.visible).all()
    for i in range(50):
        assert los.check_points(tuple(eyes[i]), tuple(targets[i]), Conditions()).visible == ref.visible[i]
    assert shapely.is_empty(los.dense_plan) or los.dense_plan.area == 0


def test_single_elevations_are_the_casts():
    los = table()
    rng = np.random.default_rng(19)
    xy = rng.uniform([0.0, 0.0], [los.width, los.height], size=(3000, 2))
    ground = los._elevations_cast(xy)
    single = np.array([los.elevation(x, y) for x, y in xy.tolist()])
    assert (single == ground).all() and (np.signbit(single) == np.signbit(ground)).all()
    with pytest.raises(ValueError, match="off the 48x36 table"):
        los.elevation(-0.5, 3.0)


def test_single_path_mirrors_are_compact_and_exact():
    """The single-sightline path reads array.array mirrors (not lists of Python floats, for memory):
    they hold exactly the values of the numpy arrays the batched path reads."""
    from array import array

    los = table()
    geo = los.geo
    for scene in (geo.ground, geo.solid, geo.canopy, geo.core):
        assert isinstance(scene.owner_list, array) and list(scene.owner_list) == scene.owner.tolist()
        for k, mirror in enumerate((scene.nx_list, scene.ny_list, scene.nz_list)):
            assert isinstance(mirror, array) and list(mirror) == scene.normal[:, k].tolist()
        assert scene.tris.dtype == np.float64 and np.array_equal(scene.tris, scene.tris32)
    top = los.class_dense[los.part_class][geo.canopy.owner] & (geo.canopy.normal[:, 2] > 0.3)
    assert list(los._canopy_top) == top.astype(int).tolist()
    for mirror, ref in ((los._flat_list, los._ground_flat), (los._max_list, los._ground_max),
                        (los._in_lo_list, los._inside_lo), (los._in_hi_list, los._inside_hi),
                        (los._out_lo_list, los._outside_lo), (los._out_hi_list, los._outside_hi)):
        assert isinstance(mirror, array)
        np.testing.assert_array_equal(np.array(mirror), ref)
    assert list(los._part_list) == los._canopy_part.tolist()
    assert [list(r) for r in los.grid._clear_rows] == [m.ravel().tolist() for m in los.grid.clearance]
