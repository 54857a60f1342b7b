"""What the loader reads into a canopy volume (docs/terrain.md, "What the loader reads into a canopy
volume"): a wood that stands on the ground reaches through it, a wood clipped at the table's edge reaches
past it, and two woods that share a border each keep their own inches (DD-4.1, DD-4.2, DD-4.4, G-02)."""

import numpy as np
import pytest
from shapely.geometry import LineString, Polygon

from game.world import canopy_reading
from game.world.features import Feature
from game.world.los import Conditions
from tests.world.tables import WOODS, Table, los_of

DAY = Conditions()

BAMBOO = ((10.0, 2.0), (16.0, 2.0), (16.0, 10.0), (10.0, 10.0))
DENSE = ((16.0, 2.0), (22.0, 2.0), (22.0, 10.0), (16.0, 10.0))
BORDER = Table(36.0, 12.0, (
    Feature("grove", "bamboo", polygon=BAMBOO),
    Feature("jungle", "dense", polygon=DENSE),
))
"""A bamboo grove against dense jungle, their border x = 16 one wall in each wood."""

HILL_WOOD = ((10.0, 2.0), (26.0, 2.0), (26.0, 14.0), (10.0, 14.0))
UNDER = Table(36.0, 16.0, (
    Feature("rise", "hill", polygon=((13.0, 4.0), (23.0, 4.0), (23.0, 12.0), (13.0, 12.0)), height=3.0),
    Feature("jungle", "dense", polygon=HILL_WOOD),
    Feature("plantation", "rubber", polygon=((28.0, 2.0), (34.0, 2.0), (34.0, 14.0), (28.0, 14.0)),
            canopy_bottom=1.0, canopy_top=3.5),
))
"""Dense jungle over a 3" rise, and a rubber plantation whose crowns stand 1" up on their trunks."""


@pytest.mark.parametrize(("eye", "target"), [
    ((8.0, 6.0), (24.0, 6.0)),
    ((24.0, 6.0), (8.0, 6.0)),
    ((8.0, 3.0), (25.0, 9.0)),
    ((24.0, 8.5), (8.0, 4.0)),
])
def test_two_woods_that_share_a_border_each_count_their_own_inches(eye, target):
    # DD-4.4, G-02: the inches in each wood a sightline crosses are held against that wood's cutoff.
    # At the shared border the sightline leaves the bamboo and enters the jungle; it must count both
    # crossings, not the one wall Embree happens to return of two in one place.
    r = los_of(BORDER).check_points(eye, target, DAY)
    line = LineString([eye, target])
    want = {"bamboo": line.intersection(Polygon(BAMBOO)).length, "dense": line.intersection(Polygon(DENSE)).length}
    assert r.canopy_inches == {k: pytest.approx(v, abs=0.011) for k, v in want.items()}
    assert not r.visible and r.limit == "dense"  # DD-4.4: 6" of dense is past its 3" cutoff


def test_shared_border_walls_are_set_apart_by_the_later_wood():
    # the later volume's wall (by node name: canopy:jungle after canopy:grove) moves into its own volume
    los = los_of(BORDER)
    canopy = los.geo.canopy
    walls = np.abs(canopy.normal[:, 2]) < 1e-9
    x = canopy.tris[:, :, 0]
    name = np.array([los.geo.parts[o].feature for o in canopy.owner])
    near = walls & (np.abs(x - 16.0).max(axis=1) < 0.01)
    assert set(name[near]) == {"grove", "jungle"}
    assert np.abs(x[near & (name == "grove")] - 16.0).max() < 1e-5
    assert np.abs(x[near & (name == "jungle")] - (16.0 + canopy_reading.SHARED_WALL_GAP)).max() < 1e-5


@pytest.mark.parametrize("y", [float(y) for y in np.linspace(1.5, 22.5, 22)])
def test_a_point_on_the_table_edge_under_the_trees_is_in_the_wood(y):
    # DD-4.2: the jungle of WOODS runs to the table's east edge (x = 72); a stand there is inside it,
    # on its woodline band: a sightline 10" in from it counts the inches past the band alone
    los = los_of(WOODS)
    r = los.check_points((72.0, y), (62.0, y), DAY)
    assert r.extra["woodline"][0] is True
    assert r.canopy_inches == {"dense": pytest.approx(10.0 - 1.0, abs=0.011)}
    back = los.check_points((62.0, y), (72.0, y), DAY)  # DD-4.5: the same both ways
    assert back.canopy_inches == r.canopy_inches and back.extra["woodline"] == r.extra["woodline"][::-1]


def test_a_sightline_along_the_table_edge_lines_the_woodline():
    # DD-4.2: along the jungle's edge on the table's edge a sightline stays in the woodline band from end
    # to end: it lines the woodline, and no inch of it is held against the cutoff
    r = los_of(WOODS).check_points((72.0, 4.0), (72.0, 20.0), DAY)
    assert r.extra["woodline"] == [True, True]
    assert r.canopy_inches == {} and r.visible


def test_a_wood_reaches_down_through_the_ground_beneath_it():
    # DD-4.1: all that lies under the jungle's canopy, within its footprint, is in the jungle. A sightline
    # through the rise under it is blocked by the ground (G-01 T14); the jungle it passes through, above
    # the ground and under it, is its whole crossing of the footprint.
    los = los_of(UNDER)
    r = los.check_points((7.0, 8.0), (29.0, 8.0), DAY)
    assert not r.visible and r.limit == "ground"
    assert r.canopy_inches == {"dense": pytest.approx(16.0, abs=0.011)}
    # a point under the table within the footprint is in the wood (explicit heights: x, y, z)
    under = los.check_points((12.0, 8.0, -0.5), (24.0, 8.0, -0.5), DAY)
    assert under.canopy_inches == {"dense": pytest.approx(12.0, abs=0.011)}  # (both ends 2" in: no band)


def test_the_floor_goes_down_only_where_the_wood_stands_on_the_ground():
    los = los_of(UNDER)
    canopy = los.geo.canopy
    name = np.array([los.geo.parts[o].feature for o in canopy.owner])
    z = canopy.tris[:, :, 2]
    floor = los.geo.ground.tris[:, :, 2].min() - canopy_reading.CANOPY_DEPTH
    assert z[name == "jungle"].min() == pytest.approx(floor, abs=1e-4)
    # the plantation's crowns stand on trunks: their floor stays 1" up, and a man sees under them
    assert z[name == "plantation"].min() == pytest.approx(1.0, abs=1e-4)
    r = los.check_points((28.5, 8.0), (33.5, 3.0), DAY)
    assert r.canopy_inches == {} and r.visible


def test_crowns_raised_on_their_trunks_stay_above_their_underside_at_the_rim():
    # DD-4.1: a rubber plantation's crowns 1.5" up on their trunks (its top 2.6", lower at the rim): the
    # foliage at the rim keeps a quarter of its depth above the underside, so the volume is the crowns
    from game.world import bake

    raised = Table(24.0, 16.0, (Feature("rows", "rubber", polygon=((4.0, 4.0), (20.0, 4.0), (20.0, 12.0), (4.0, 12.0)),
                                        canopy_bottom=1.5),))
    node = next(n for n in bake.build_nodes(raised) if n.name == "canopy:rows")
    v = node.mesh.vertices
    top, under = v[: len(v) // 2, 2], v[len(v) // 2:, 2]
    assert under == pytest.approx(np.full(len(under), 1.5))
    assert top.min() >= 1.5 + bake.CROWN_RIM * (2.6 - 1.5) - 1e-9
    los = los_of(raised)
    assert los.check_points((5.0, 8.0), (19.0, 8.0), DAY).canopy_inches == {}  # a man sees under the crowns
    inside = los.check_points((6.0, 8.0, 1.7), (18.0, 8.0, 1.7), DAY)  # (under the lowest of the crowns' top)
    assert inside.canopy_inches == {"rubber": pytest.approx(12.0, abs=0.011)}
