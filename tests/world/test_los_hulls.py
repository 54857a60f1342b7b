"""Vehicle hulls and wrecks in line of sight (G-01 T15; docs/terrain.md; ``game.world.hulls``).

A hull is a box on the ground under its centre (``Conditions.hulls``): a sightline through it is blocked,
except from or to a point at that hull (the vehicle itself, a stand in base contact). A vehicle sees from
its crew's eye and is seen at its hull top (``Observer.eye_height``, ``Observer.body_height``). The
batched and single-sightline paths give the same answers, and the reference's.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest

from game.world.features import Feature
from game.world.hulls import HULL_TOUCH, block1, block_many, prepare
from game.world.los import Conditions, Observer, TableLOS
from tests.world.tables import Table, convention, los_of, random_lines

M48 = {"width": 1.44, "depth": 2.76, "eye_height": 1.22, "body_height": 1.14}
"""An M48A3 as line of sight sees it: its hull plan (bases.toml hull_m48), eye and hull top (vehicles.toml)."""

OPEN = Table(36.0, 24.0, (
    Feature("knoll", "hill", polygon=((1.0, 16.0), (9.0, 16.0), (9.0, 23.0), (1.0, 23.0)), height=3.0),
    Feature("lip", "hill", polygon=((17.0, 1.0), (19.0, 1.0), (19.0, 12.0), (17.0, 12.0)), height=0.8),
))
"""Open ground with a 3" knoll (north-west) and a low crest 0.8" high (x 17-19, y 1-12)."""


def hull(x: float, y: float, facing: float = 90.0, length: float = 2.76, width: float = 1.44,
         height: float = 1.14, hid: str = "tank") -> tuple:
    return (x, y, facing, length, width, height, hid)


def open_table() -> TableLOS:
    return los_of(OPEN)


# -- blocking -------------------------------------------------------------------------------------------
def test_a_hull_between_two_stands_blocks_and_names_the_vehicle():
    # G-01 T15: a hull (a wreck, and a vehicle the same) blocks a sightline through it
    los = open_table()
    a, b = Observer(24.0, 18.0, 0.0), Observer(34.0, 18.0, 180.0)
    clear = los.check(a, b, Conditions())
    assert clear.visible and clear.fraction == 1.0
    r = los.check(a, b, Conditions(hulls=(hull(29.0, 18.0, hid="t1"),)))
    assert not r.visible and r.fraction == 0.0
    assert (r.limit, r.clause, r.cutoff) == ("hull", "G-01 T15", 0.0)
    assert r.blocker["feature"] == "t1" and r.blocker["terrain"] == "hull"
    x, y, z = r.blocker["at"]
    assert abs(x - (29.0 - 0.72)) < 0.02 and 0.0 < z < 1.14  # where it enters the hull's near side
    assert "t1" in r.reason
    assert r.distance == clear.distance  # the rule distance is unchanged


def test_a_hull_beside_the_line_does_not_block():
    # G-01 T15: only a sightline through the box is blocked
    los = open_table()
    a, b = Observer(24.0, 18.0, 0.0), Observer(34.0, 18.0, 180.0)
    clear = los.check(a, b, Conditions())
    beside = los.check(a, b, Conditions(hulls=(hull(29.0, 21.0), hull(29.0, 15.0, hid="t2"))))
    assert beside == clear and beside.extra == clear.extra


def test_a_sightline_from_a_hill_passes_over_a_low_hull():
    # DD-4.41, G-01 T15: a stand on the 3" knoll sees over a jeep; a box as tall as the knoll blocks
    los = open_table()
    up, down = Observer(5.0, 19.5, 0.0), Observer(25.0, 19.5, 180.0)
    assert los.elevation(5.0, 19.5) > 2.5
    jeep = hull(12.0, 19.5, 0.0, 1.3, 0.65, 0.55, "jeep")
    r = los.check(up, down, Conditions(hulls=(jeep,)))
    assert r.visible and r.fraction == 1.0
    wall = hull(12.0, 19.5, 90.0, 6.0, 1.0, 3.5, "tall")
    r = los.check(up, down, Conditions(hulls=(wall,)))
    assert not r.visible and r.limit == "hull" and r.blocker["feature"] == "tall"


def test_a_vehicle_sees_over_a_low_hull_a_man_on_foot_does_not():
    # G-01 T15: a tank's eye (1.22") and hull top (1.14") stand above an M113's hull (0.72", broadside
    # on); a man's eye (0.6") and figures do not
    los = open_table()
    apc = (hull(29.0, 18.0, 90.0, 2.08, 1.1, 0.72, "apc"),)
    men = Observer(24.0, 18.0, 0.0), Observer(34.0, 18.0, 180.0)
    tanks = Observer(24.0, 18.0, 0.0, **M48), Observer(34.0, 18.0, 180.0, **M48)
    r = los.check(*men, Conditions(hulls=apc))
    assert not r.visible and r.blocker["feature"] == "apc"
    r = los.check(*tanks, Conditions(hulls=apc))
    assert r.visible and r.fraction == 1.0 and r.limit == "open"


def test_a_vehicle_sees_over_a_low_crest_a_man_on_foot_does_not():
    # G-01 T14: the 0.8" crest blocks men on foot (eyes 0.6") on either side; the tanks' eyes (1.22")
    # and hull tops (1.14") clear it, and a man sees the tank's hull top over it
    los = open_table()
    assert abs(los.elevation(18.0, 6.0) - 0.8) < 1e-6
    men = Observer(10.0, 6.0, 0.0), Observer(26.0, 6.0, 180.0)
    tanks = Observer(10.0, 6.0, 0.0, **M48), Observer(26.0, 6.0, 180.0, **M48)
    r = los.check(*men, Conditions())
    assert not r.visible and r.limit == "ground"
    r = los.check(*tanks, Conditions())
    assert r.visible and r.fraction == 1.0
    r = los.check(men[0], tanks[1], Conditions())
    assert r.visible and 0.0 < r.fraction < 1.0  # the man's eye sees the hull top, not the tank his figures


def test_a_vehicle_is_not_blocked_by_its_own_hull():
    # G-01 T15: a sightline from or to a hull is not blocked by that hull: the tank sees and is seen as
    # if its box were not there
    los = open_table()
    tank, man = Observer(29.0, 18.0, 90.0, **M48), Observer(34.0, 20.0, 180.0)
    own = Conditions(hulls=(hull(29.0, 18.0, 90.0, M48["depth"], M48["width"], M48["body_height"], "t1"),))
    for a, b in ((tank, man), (man, tank)):
        r, clear = los.check(a, b, own), los.check(a, b, Conditions())
        assert r == clear and r.visible and r.fraction == 1.0


def test_a_stand_in_base_contact_sees_past_the_hull():
    # G-01 T15 ("a stand may shelter in contact"), the engine's reading: an end within HULL_TOUCH of a
    # hull's footprint is at it, so the eye of a stand in contact sees past it (all six of its
    # sightlines, and the other's sightline to that eye); the other's lines to its figures are blocked
    los = open_table()
    tank = hull(28.0, 18.0, 90.0, 2.76, 1.44, 1.14, "t1")  # broadside on: x 27.28-28.72, y 16.62-19.38
    contact = Observer(27.28 - 0.63, 18.0, 0.0)  # depth 1.26 along x: its east edge on the hull's west side
    target = Observer(34.0, 18.0, 180.0)
    cond = Conditions(hulls=(tank,))
    r = los.check(contact, target, cond)
    assert r.visible and r.fraction == round(7 / 12, 4)
    assert los.check(target, contact, cond).fraction == r.fraction  # mutual (DD-4.5)
    apart = Observer(27.28 - 0.63 - 2 * HULL_TOUCH, 18.0, 0.0)  # a tenth of an inch away: not at the hull
    r = los.check(apart, target, cond)
    assert not r.visible and r.blocker["feature"] == "t1"


def test_a_wreck_blocks_as_a_hull_does():
    # G-01 T15: a wreck blocks LOS; it travels in the conditions as any hull (game.rules.vehicles)
    los = open_table()
    a, b = Observer(24.0, 10.0, 0.0), Observer(34.0, 10.0, 180.0)
    r = los.check(a, b, Conditions(hulls=(hull(29.0, 10.0, 45.0, hid="wreck_t1"),)))
    assert not r.visible and r.blocker["feature"] == "wreck_t1"


def test_a_hull_on_a_crest_stands_on_the_ground_there():
    # the box's base is the ground under its centre: on the 0.8" crest a 0.55" jeep's top is at 1.35",
    # above the tanks' eyes (1.22"), and blocks them
    los = open_table()
    tanks = Observer(10.0, 6.0, 0.0, **M48), Observer(26.0, 6.0, 180.0, **M48)
    r = los.check(*tanks, Conditions(hulls=(hull(18.0, 6.0, 90.0, 1.3, 0.65, 0.55, "jeep"),)))
    assert not r.visible and r.blocker["feature"] == "jeep"
    assert r.blocker["at"][2] > 0.8


# -- the slab test ----------------------------------------------------------------------------------------
def test_the_slab_test_by_hand():
    # a box 2" long (along y, facing north), 1" wide, 1" high, on ground 0
    h = prepare((hull(10.0, 10.0, 90.0, 2.0, 1.0, 1.0, "b"),), lambda x, y: 0.0)
    cases = [
        ((5.0, 10.0, 0.5), (15.0, 10.0, 0.5), 0, 0.45),  # straight through: enters at x 9.5
        ((5.0, 10.0, 1.5), (15.0, 10.0, 1.5), -1, None),  # over its top
        ((5.0, 10.0, 1.5), (15.0, 10.0, 0.5), 0, None),  # down into it
        ((5.0, 11.2, 0.5), (15.0, 11.2, 0.5), -1, None),  # past its end (y 9-11)
        ((5.0, 10.0, 1.0), (15.0, 10.0, 1.0), -1, None),  # along its top face only: a touch, not through
        ((9.5 - HULL_TOUCH / 2, 10.0, 0.5), (15.0, 10.0, 0.5), -1, None),  # from a point at the hull
        ((5.0, 10.0, 0.5), (10.0, 10.0, 0.5), -1, None),  # to a point on it
        ((10.0, 5.0, 0.5), (10.0, 15.0, 0.5), 0, 0.4),  # along its length
    ]
    for e, t, k, s in cases:
        k1, s1 = block1(h, *e, *t)
        km, sm = block_many(h, np.array([e]), np.array([t]))
        assert (k1, s1) == (int(km[0]), float(sm[0])), (e, t)
        assert k1 == k, (e, t)
        if s is not None:
            assert abs(s1 - s) < 1e-12


def test_the_first_hull_along_the_sightline_is_named():
    h = prepare((hull(20.0, 10.0, hid="far"), hull(12.0, 10.0, hid="near")), lambda x, y: 0.0)
    k, _ = block1(h, 5.0, 10.0, 0.5, 25.0, 10.0, 0.5)
    assert h.ids[k] == "near"
    k, _ = block1(h, 25.0, 10.0, 0.5, 5.0, 10.0, 0.5)
    assert h.ids[k] == "far"


# -- the fast paths agree, with hulls ----------------------------------------------------------------------
@cache
def crowded() -> TableLOS:
    return los_of(convention())


def hulls_on(los: TableLOS, n: int, seed: int) -> tuple:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        x, y = rng.uniform([2.0, 2.0], [los.width - 2, los.height - 2])
        out.append(hull(float(x), float(y), float(rng.uniform(0, 360)), float(rng.uniform(1.2, 3.0)),
                        float(rng.uniform(0.6, 1.5)), float(rng.uniform(0.5, 1.3)), f"v{i}"))
    return tuple(out)


@pytest.mark.parametrize("count", [4, 16])
def test_trace_single_and_reference_agree_with_hulls(count):
    # the batched trace, the early trace and the single path answer as the reference, hull for hull
    los = crowded()
    cond = Conditions(hulls=hulls_on(los, count, seed=30 + count))
    eyes, targets = random_lines(los, 1500, seed=31)
    ref = los.trace_reference(eyes, targets, cond)
    full = los.trace(eyes, targets, cond)
    early = los.trace(eyes, targets, cond, early=True)
    traced = ~full.far
    assert ((ref.hull >= 0) & traced).sum() > 20  # the hulls do block a share of the sightlines
    assert (full.visible == ref.visible).all() and (early.visible == ref.visible).all()
    assert (full.hull[traced] == ref.hull[traced]).all()
    assert (full.hull_t[traced] == ref.hull_t[traced]).all()
    assert (los.batch(eyes, targets, cond) == ref.visible).all()
    for i, (e, t) in enumerate(zip(eyes.tolist(), targets.tolist(), strict=True)):
        assert los._sight(tuple(e), tuple(t), cond) == full.row(i), i
        s = los._sight(tuple(e), tuple(t), cond, early=True)
        assert s.visible == early.visible[i] and s.complete == early.complete[i], i
        if s.complete:
            assert s == early.row(i), i
    # without the hulls, the rows the hulls did not block are the same answers
    plain = los.trace(eyes, targets, Conditions())
    free = traced & (full.hull < 0)
    assert (plain.visible[free] == full.visible[free]).all()
    assert not full.visible[full.hull >= 0].any()


def pairs_with_vehicles(los: TableLOS, n: int, seed: int) -> list[tuple[Observer, Observer]]:
    rng = np.random.default_rng(seed)
    pairs: list[tuple[Observer, Observer]] = []
    while len(pairs) < n:
        x, y = rng.uniform([3.0, 3.0], [los.width - 3, los.height - 3])
        ang, dist = rng.uniform(0, 2 * math.pi), rng.uniform(3.0, 16.0)
        x2, y2 = x + dist * math.cos(ang), y + dist * math.sin(ang)
        if not (3.0 <= x2 <= los.width - 3 and 3.0 <= y2 <= los.height - 3):
            continue
        kinds = rng.integers(0, 2, 2)
        a = Observer(float(x), float(y), float(rng.uniform(0, 360)), **(M48 if kinds[0] else {}))
        b = Observer(float(x2), float(y2), float(rng.uniform(0, 360)), **(M48 if kinds[1] else {}))
        if not a.base().intersects(b.base()):
            pairs.append((a, b))
    return pairs


def test_check_many_is_check_with_vehicles_and_hulls():
    # stand to stand, vehicles among them and their own hulls on the table: check_many == check
    los = crowded()
    pairs = pairs_with_vehicles(los, 200, seed=32)
    own = tuple(hull(o.x, o.y, o.facing, o.depth, o.width, o.body_height, f"o{i}")
                for i, (a, b) in enumerate(pairs[:20]) for o in (a, b) if o.body_height)
    cond = Conditions(hulls=own + hulls_on(los, 8, seed=33))
    many = los.check_many(pairs, cond)
    for (a, b), r in zip(pairs, many, strict=True):
        one = los.check(a, b, cond)
        assert one == r and one.extra == r.extra
    assert any(r.limit == "hull" for r in many)
    assert 0.1 < np.mean([r.visible for r in many]) < 0.9


def test_hulls_are_part_of_the_conditions_key():
    # a cached answer never serves another position of the hulls: the conditions differ, and hash apart
    a, b = Conditions(hulls=(hull(10.0, 10.0),)), Conditions(hulls=(hull(10.0, 10.5),))
    assert a != b and hash(a) != hash(b) and a != Conditions()
    assert Conditions(hulls=(hull(10.0, 10.0),)) == a
    los = open_table()
    m, n = Observer(24.0, 18.0, 0.0), Observer(34.0, 18.0, 180.0)
    cache_ = {(m, n, c): los.check(m, n, c) for c in (Conditions(hulls=(hull(29.0, 18.0),)),
                                                    Conditions(hulls=(hull(29.0, 21.0),)))}
    assert [r.visible for r in cache_.values()] == [False, True]


# -- in a game (game.rules.game: sight_key, conditions, observer) -------------------------------------------
def tank_game():
    from tests.builders import element, game, scenario, stand

    return game(scenario([
        element("hq", "allied", [stand("pc", "us_platoon_commander", 10.0, 10.0)], kind="hq"),
        element("tank", "allied", [stand("t1", "m48a3", 20.0, 10.0, 90)], kind="vehicle"),
        element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 30.0, 10.0, 180)], kind="cell"),
    ], width=48, height=24))


def test_a_game_lists_its_hulls_in_the_sight_conditions():
    # G-01 T15: the tank's hull stands between the platoon commander and the cell; the tank itself sees
    # the cell from its crew's eye (vehicles.toml m48a3: eye 1.22", hull 1.14")
    from game.rules import vehicles

    g = tank_game()
    s = g.state.stands
    assert g.conditions().hulls == vehicles.hulls_now(g) and len(g.conditions().hulls) == 1
    o = g.observer(s["t1"])
    assert (o.eye_height, o.body_height) == (vehicles.eye_of(g, s["t1"]), vehicles.roster()["m48a3"].height)
    r = g.line_of_sight(s["pc"], s["vc_a"])
    assert not r.visible and r.limit == "hull" and r.blocker["feature"] == "t1"
    assert g.line_of_sight(s["t1"], s["vc_a"]).visible and g.line_of_sight(s["vc_a"], s["t1"]).visible
    # the tank drives off the line: new conditions, a new answer (none kept from the old position)
    s["t1"].y = 18.0
    assert g.conditions().hulls[0][1] == 18.0
    assert g.line_of_sight(s["pc"], s["vc_a"]).visible


def test_a_game_without_vehicles_has_no_hulls():
    # a game with no vehicle keeps exactly its conditions (and its sightlines) of before
    from game.rules import vehicles
    from tests.builders import enemy, game, platoon, scenario

    g = game(scenario(platoon() + enemy(at=(20.0, 30.0))))
    assert vehicles.hulls_now(g) == () and g.conditions().hulls == ()
    assert g.conditions() == Conditions(weather=g.state.weather, time_of_day=g.state.time_of_day,
                                        turn=g.conditions().turn)
    assert g.observer(g.state.stands["a"]).eye_height == 0.6 and g.observer(g.state.stands["a"]).body_height == 0.0
