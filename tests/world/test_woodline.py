"""The woodline and jungle cutoff rules on a straight dense woodline (DD-4.2–4.6, G-02).

Table WOODS: dense jungle east of x = 20; the rule examples measure along y = 6.
"""

import pytest

from game.world.los import Conditions, Observer
from tests.world.tables import WOODLINE, WOODS, los_of

DAY = Conditions()


def sight(inside: float, outside: float):
    """From a point ``inside`` inches into the jungle to a point ``outside`` inches out of it."""
    los = los_of(WOODS)
    return los.check_points((WOODLINE + inside, 6.0), (WOODLINE - outside, 6.0), DAY)


@pytest.mark.parametrize(("inside", "outside", "seen"), [
    (2.0, 1.0, True),     # DD-4.4: 2" inside sees 1" out
    (2.0, 1.01, False),
    (2.5, 0.5, True),     # DD-4.4: 2.5" inside sees 0.5" out
    (2.5, 0.51, False),
    (2.0, 4.0, False),    # DD-4.4: the enemy 4" out from the edge
])
def test_dense_cutoff_caps_the_total_sightline(inside, outside, seen):
    # DD-4.4, G-02: the 3" cutoff caps the whole sightline, inside and outside together
    r = sight(inside, outside)
    assert r.visible is seen
    assert r.distance == pytest.approx(inside + outside)
    assert r.canopy_inches == {"dense": pytest.approx(inside)}
    assert r.limit == "dense" and r.cutoff == 3.0 and r.clause == "DD-4.4"


@pytest.mark.parametrize(("inside", "outside"), [(2.0, 1.0), (2.0, 4.0), (2.5, 0.5), (0.5, 12.0), (3.5, 0.2)])
def test_line_of_sight_is_mutual(inside, outside):
    # DD-4.5: if A cannot see B, B cannot see A
    los = los_of(WOODS)
    a, b = (WOODLINE + inside, 6.0), (WOODLINE - outside, 6.0)
    assert los.check_points(a, b, DAY).visible == los.check_points(b, a, DAY).visible


def test_stand_2_inside_and_enemy_4_out_cannot_see_each_other():
    # DD-4.4 test case, DD-4.5: stands, base edge to base edge, both ways
    los = los_of(WOODS)
    ours = Observer(x=WOODLINE + 2.0 + 0.63, y=6.0, facing=180.0)   # front edge 2" inside
    theirs = Observer(x=WOODLINE - 4.0 - 0.63, y=6.0, facing=0.0)   # front edge 4" out
    assert not los.check(ours, theirs, DAY).visible
    assert not los.check(theirs, ours, DAY).visible
    near = Observer(x=WOODLINE - 1.0 - 0.63, y=6.0, facing=0.0)     # front edge 1" out
    r = los.check(ours, near, DAY)
    assert r.visible and r.distance == pytest.approx(3.0)
    assert los.check(near, ours, DAY).visible
    assert 0 < r.fraction <= 1


@pytest.mark.parametrize("inside", [0.3, 0.9, 1.0])
def test_woodline_band_sees_out_to_24(inside):
    # DD-4.2: a stand within 1" of the edge lines the woodline and sees out to the open limit
    r = sight(inside, 23.9 - inside)
    assert r.visible and r.limit == "open" and r.canopy_inches == {}
    assert r.extra["woodline"] == [True, False]
    assert not sight(inside, 24.2 - inside).visible


def test_band_is_only_the_edge_not_deeper_jungle():
    # DD-4.2, G-02 step 2: looking inward from the band, the jungle past the band still counts
    los = los_of(WOODS)
    r = los.check_points((WOODLINE + 0.5, 6.0), (WOODLINE + 4.5, 6.0), DAY)
    assert not r.visible and r.canopy_inches == {"dense": pytest.approx(3.5, abs=0.01)}
    # just past the 1" band the discontinuity of G-02 applies as written
    assert not sight(1.1, 2.0).visible


def test_deep_in_the_jungle_sees_only_3_inches_inside():
    # DD-4.6: more than 3" inside: nothing outside, but targets within 3" inside the same feature
    los = los_of(WOODS)
    deep = (WOODLINE + 5.0, 6.0)
    assert not los.check_points(deep, (WOODLINE - 0.1, 6.0), DAY).visible
    assert los.check_points(deep, (WOODLINE + 5.0, 9.0), DAY).visible
    assert los.check_points(deep, (WOODLINE + 7.0, 8.0), DAY).visible
    assert not los.check_points(deep, (WOODLINE + 5.0, 9.5), DAY).visible


def test_open_ground_limit():
    # DD-4.1: 24" in the open
    los = los_of(WOODS)
    assert los.check_points((0.5, 3.0), (18.5, 3.0), DAY).visible
    r = los.check_points((0.5, 1.0), (19.5, 17.0), DAY)
    assert r.distance > 24 and not r.visible and r.limit == "open" and r.clause == "DD-4.1"
