"""Hills, buildings, elevation, tree snipers, weather, night, smoke and the batched call
(DD-3.8, DD-4.41, DD-4.42, DD-5.34, DD-6.6, G-02, G-23)."""

import numpy as np
import pytest

from game.world.los import Conditions, Observer
from tests.world.tables import MIXED, WOODLINE, WOODS, los_of

DAY = Conditions()


def test_hill_blocks_and_gives_elevation():
    # G-01 T14: the knoll (crest 3") stands between the two points
    los = los_of(WOODS)
    assert los.elevation(6.0, 18.0) == pytest.approx(3.0, abs=1e-3)
    assert los.elevation(1.0, 1.0) == pytest.approx(0.0, abs=1e-3)
    r = los.check_points((1.0, 10.0), (6.0, 23.0), DAY)
    assert not r.visible and r.limit == "ground" and r.blocker["feature"] == "table"
    assert r.fraction == 0.0


def test_elevated_observer_sees_30_inches_but_not_into_dense_from_above():
    # DD-4.41: 2" or more above table level: +6" over open ground; no view into dense canopy from above
    los = los_of(WOODS)
    crest = (6.0, 18.0)
    far = los.check_points(crest, (33.0, 18.0), DAY)
    assert far.visible and far.limit == "elevated" and far.cutoff == 30.0 and far.clause == "DD-4.41"
    assert los.check_points((33.0, 18.0), crest, DAY).visible  # mutual (DD-4.5)
    assert not los.check_points(crest, (36.5, 18.0), DAY).visible
    assert not los.check_points((2.0, 2.0), (28.5, 2.0), DAY).visible  # 26.5" on the flat
    tower = (6.0, 18.0, 20.0)
    into = los.check_points(tower, (13.5, 21.5), DAY)
    assert not into.visible and into.clause == "DD-4.41" and into.blocker["feature"] == "copse"
    # a stand lining the woodline is seen from above (DD-4.3)
    assert los.check_points(tower, (12.5, 22.0), DAY).visible


def test_tree_sniper_eye_is_in_the_canopy():
    # DD-4.42: the sniper's eye is up in the trees; at the woodline it sees out over the open
    los = los_of(WOODS)
    sniper = Observer(x=WOODLINE + 0.6, y=8.0, facing=180.0, width=1.26, depth=1.26, tree=True)
    eye = los.eye(sniper)
    assert eye[2] > 2.0
    assert los.terrain_at(WOODLINE + 0.6, 8.0) == "dense"
    target = Observer(x=WOODLINE - 20.0, y=8.0, facing=0.0)
    r = los.check(sniper, target, DAY)
    assert r.visible and r.limit == "elevated"
    assert los.check(target, sniper, DAY).visible
    # deep in the jungle the sniper is still inside dense terrain (DD-4.6)
    deep = Observer(x=WOODLINE + 6.0, y=8.0, facing=180.0, tree=True)
    assert not los.check(deep, target, DAY).visible
    with pytest.raises(ValueError, match="no canopy"):
        los.eye(Observer(x=5.0, y=5.0, tree=True))


def test_monsoon_caps_every_sightline_at_3():
    # DD-3.8
    los = los_of(WOODS)
    wet = Conditions(weather="monsoon")
    assert los.check_points((2.0, 2.0), (5.0, 2.0), wet).visible
    r = los.check_points((2.0, 2.0), (5.1, 2.0), wet)
    assert not r.visible and r.limit == "monsoon" and r.cutoff == 3.0 and r.clause == "DD-3.8"


def test_night_caps_and_illumination():
    # G-23: dark night 3", moonlit 6", dawn 12"; a lit target is seen at daylight range
    los = los_of(WOODS)
    a, b = (2.0, 2.0), (10.0, 2.0)
    assert not los.check_points(a, b, Conditions(time_of_day="night_dark")).visible
    assert los.check_points(a, b, Conditions(time_of_day="dawn")).visible
    r = los.check_points(a, b, Conditions(time_of_day="night_moonlit"))
    assert not r.visible and r.limit == "night_moonlit" and r.clause == "G-23"
    lit = Conditions(time_of_day="night_dark", illuminated=((10.0, 2.0, 3.0),))
    assert los.check_points(a, b, lit).visible
    assert los.check_points(b, a, lit).visible  # DD-4.5


def test_smoke_blocks():
    # DD-5.34: a dust cloud or smoke blocks sight through it
    los = los_of(WOODS)
    smoky = Conditions(smoke=((6.0, 2.0, 1.0),))
    r = los.check_points((2.0, 2.0), (10.0, 2.0), smoky)
    assert not r.visible and r.limit == "smoke" and r.clause == "DD-5.34"
    assert los.check_points((2.0, 4.0), (10.0, 4.0), smoky).visible


def test_buildings_block_and_lz_needs_a_clear_circle():
    # G-02: hootches and masonry block sight; DD-6.6: a Dustoff LZ needs 6" clear of dense trees and buildings
    los = los_of(MIXED)
    r = los.check_points((22.0, 17.0), (22.0, 21.0), DAY)
    assert not r.visible and r.limit == "building" and r.blocker["feature"] == "hootch1"
    assert not los.clear_circle(21.0, 10.0)   # in the jungle
    assert not los.clear_circle(23.0, 20.0)   # by the hootch and the villa
    assert los.clear_circle(7.0, 6.0)         # on the open ridge


def test_canopy_classes_have_their_own_cutoffs():
    # G-02: rubber 12", scrub 6", bamboo 3"
    los = los_of(MIXED)
    r = los.check_points((6.0, 15.0), (6.0, 22.5), DAY)
    assert r.visible and r.canopy_inches == {"rubber": pytest.approx(6.0, abs=0.02)}
    assert r.limit == "rubber" and r.cutoff == 12.0 and r.clause == "G-02"
    assert not los.check_points((6.0, 15.0), (17.0, 23.0), DAY).visible
    scrub = los.check_points((17.0, 18.5), (17.0, 23.5), DAY)
    assert scrub.visible and scrub.limit == "light" and scrub.cutoff == 6.0


def test_off_table_is_an_error():
    los = los_of(WOODS)
    with pytest.raises(ValueError, match="off the 72x24 table"):
        los.check_points((-1.0, 2.0), (3.0, 2.0), DAY)


def test_batch_agrees_with_single_sightlines():
    # the AI's fast path gives the same answers as one question at a time
    los = los_of(MIXED)
    rng = np.random.default_rng(7)
    xy = rng.uniform([0.5, 0.5], [35.5, 23.5], size=(400, 2))
    xy2 = rng.uniform([0.5, 0.5], [35.5, 23.5], size=(400, 2))
    eyes = np.column_stack([xy, los.elevations(xy) + 0.6])
    targets = np.column_stack([xy2, los.elevations(xy2) + 0.6])
    fast = los.batch(eyes, targets, DAY)
    slow = [los.check_points(tuple(e), tuple(t), DAY).visible for e, t in zip(eyes, targets, strict=True)]
    assert fast.tolist() == slow
    back = los.batch(targets, eyes, DAY)
    assert (back == fast).mean() > 0.99  # DD-4.5, up to grazing hits on the float32 mesh
    assert 0.05 < fast.mean() < 0.95


def test_result_serialises():
    los = los_of(WOODS)
    d = los.check_points((WOODLINE + 2.0, 6.0), (WOODLINE - 1.0, 6.0), DAY).to_dict()
    assert d["visible"] is True and d["canopy_inches"] == {"dense": 2.0} and d["clause"] == "DD-4.4"
    assert set(d) >= {"visible", "fraction", "distance", "canopy_inches", "cutoff", "limit", "blocker", "clause",
                      "reason"}
