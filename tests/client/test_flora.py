"""Trees in the canopy volumes, and buildings drawn over the baked solids (game.client.vegetation,
game.client.buildings): the same planting on every run, trees inside their woods and under the canopy
top, the tier's triangle budget, one draw call per prototype, and what the player can do with them
(lift them, clear them round a point, burn them, see the volumes in the line-of-sight tool)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from shapely.geometry import Polygon

from game.client.table import CANOPY, feature_shape
from game.client.vegetation import (
    KEEP_CLEAR,
    PROTOTYPES,
    RUBBER_ACROSS,
    TREE_BUDGET,
    Planting,
    prototype_extent,
    prototype_mesh,
    prototype_triangles,
)

from .fake_engine import FakeEngine

WOODS = [
    {"id": "jungle", "type": "dense", "polygon": [[0, 0], [20, 0], [24, 14], [10, 20], [0, 16]]},
    {"id": "second", "type": "secondary", "polygon": [[30, 0], [44, 0], [44, 10], [30, 12]]},
    {"id": "canes", "type": "bamboo", "polygon": [[50, 0], [56, 0], [56, 6], [50, 6]]},
    {"id": "scrub", "type": "light", "polygon": [[60, 0], [70, 0], [70, 6], [60, 6]]},
    {"id": "rows", "type": "rubber", "point": [36, 32], "size": [24, 12], "rotation": 30},
    {"id": "swamp", "type": "mangrove", "polygon": [[0, 30], [10, 30], [10, 40], [0, 40]]},
    {"id": "hut", "type": "hootch", "point": [60, 30], "size": [2.5, 2]},
]


def flat(xs, ys):
    return np.zeros(len(np.asarray(xs)))


def tops(xs, ys, ftype):
    return np.full(len(np.asarray(xs)), CANOPY[ftype][1])


def plant(features=WOODS, quality="low") -> Planting:
    return Planting(features, 72, 48, flat, tops, quality)


def test_planting_is_the_same_on_every_run():
    a, b = plant(), plant()
    assert [s.prototype for s in a.stands] == [s.prototype for s in b.stands]
    for sa, sb in zip(a.stands, b.stands, strict=True):
        assert np.array_equal(sa.rows, sb.rows)
    # and a feature's own planting does not move when another feature is added
    c = plant(WOODS + [{"id": "more", "type": "dense", "polygon": [[40, 40], [50, 40], [50, 47], [40, 47]]}])
    jungle = [s.rows for s in a.stands if s.feature == "jungle"]
    assert all(np.array_equal(x, y) for x, y in zip(jungle, [s.rows for s in c.stands if s.feature == "jungle"],
                                                    strict=True))


def test_every_canopy_class_is_planted_with_its_own_trees():
    protos = {}
    for s in plant().stands:
        protos.setdefault(s.feature, set()).add(s.prototype)
    assert {"giant", "broadleaf_a", "bush"} <= protos["jungle"]
    assert protos["rows"] == {"rubber"}
    assert "bamboo" in protos["canes"]
    assert "grass" in protos["scrub"]
    assert protos["swamp"] == {"mangrove"}
    assert {"coconut", "banana"} <= protos["yards"]


def test_trees_stand_inside_their_footprint_and_under_the_canopy_top():
    shapes = {f["id"]: feature_shape(f) for f in WOODS}
    types = {f["id"]: f["type"] for f in WOODS}
    for s in plant().stands:
        if s.feature == "yards":
            continue
        x, y, r, h, lean = s.rows[:, 0], s.rows[:, 1], s.rows[:, 4], s.rows[:, 5], s.rows[:, 6]
        reach, ztop = prototype_extent(s.prototype)
        poly = shapes[s.feature]
        assert shapely.contains_xy(poly, x, y).all(), s.feature
        # the whole crown in plan: its reach no more than the distance to the wood's edge
        edge = shapely.distance(poly.boundary, shapely.points(x, y))
        assert (r * reach + np.abs(lean) * h <= edge + 1e-3).all(), (s.feature, s.prototype)
        assert (h * ztop <= CANOPY[types[s.feature]][1] + 1e-3).all(), (s.feature, s.prototype)
        assert (h > 0.05).all()


def test_no_trunk_stands_on_a_trail_or_in_a_clearing_through_a_wood():
    trail = {"id": "path", "type": "trail", "path": [[0, 8], [24, 8]], "width": 1.5}
    clearing = {"id": "glade", "type": "open", "polygon": [[4, 2], [10, 2], [10, 6], [4, 6]]}
    assert "trail" in KEEP_CLEAR
    p = plant(WOODS[:1] + [trail, clearing])
    rows = np.vstack([s.rows for s in p.stands if s.feature == "jungle"])
    for f in (trail, clearing):
        assert not shapely.intersects_xy(feature_shape(f), rows[:, 0], rows[:, 1]).any(), f["id"]
    # an open feature listed before the wood is under it: the wood wins there
    before = plant([clearing] + WOODS[:1])
    rows = np.vstack([s.rows for s in before.stands if s.feature == "jungle"])
    assert shapely.intersects_xy(feature_shape(clearing), rows[:, 0], rows[:, 1]).any()


def test_palms_keep_out_of_the_hootch_and_the_woods():
    woods = shapely.union_all([feature_shape(f) for f in WOODS])
    for s in plant().stands:
        if s.feature == "yards":
            assert not shapely.intersects_xy(woods, s.rows[:, 0], s.rows[:, 1]).any()
            d = np.hypot(s.rows[:, 0] - 60, s.rows[:, 1] - 30)
            assert ((d > 1.4) & (d < 3.7)).all()


def test_rubber_trees_stand_in_rows_along_the_plantation():
    rows = np.vstack([s.rows for s in plant().stands if s.prototype == "rubber"])
    ang = math.radians(30)  # the plantation's long axis
    across = -rows[:, 0] * math.sin(ang) + rows[:, 1] * math.cos(ang)
    phase = np.mod(across - across.min() + RUBBER_ACROSS / 2, RUBBER_ACROSS) - RUBBER_ACROSS / 2
    assert np.abs(phase).max() < 0.25 * RUBBER_ACROSS, "the trees should line up in straight rows"


@pytest.mark.parametrize("quality", ["low", "high"])
def test_a_table_of_jungle_keeps_to_the_tiers_triangle_budget(quality):
    everything = [{"id": "all", "type": "dense", "polygon": [[0, 0], [72, 0], [72, 48], [0, 48]]}]
    p = plant(everything, quality)
    assert 0.3 * TREE_BUDGET[quality] < p.triangles() <= TREE_BUDGET[quality]
    if quality == "high":
        assert p.triangles() > plant(everything, "low").triangles()


def test_prototypes_are_cheap_and_the_palm_about_150_triangles():
    assert 100 <= prototype_triangles("coconut") <= 180
    for name in PROTOTYPES:
        v, n, c, f = prototype_mesh(name)
        assert f.max() < len(v) and np.isfinite(v).all() and np.isfinite(n).all()
        assert set(np.unique(c[:, 3])) <= {0.0, 1.0}  # vertex alpha: wood or leaf
        assert prototype_triangles(name) <= 400  # the emergent giant, the dearest, is rare


def _screen_mean(app, path, box):
    import panda3d.core as p3d

    app.settle()
    app.screenshot(str(path))
    img = p3d.PNMImage()
    assert img.read(p3d.Filename.from_os_specific(str(path)))
    (x0, y0), (x1, y1) = box
    px = [img.get_xel(x, y) for x in range(int(x0), int(x1), 3) for y in range(int(y0), int(y1), 3)]
    return np.array([[c.x, c.y, c.z] for c in px]).mean(axis=0)


def test_the_scene_draws_trees_by_instancing_and_the_player_can_lift_clear_and_burn_them(make_app, tmp_path):
    app = make_app(FakeEngine)
    app.open_game_sync("fake_patrol")
    scene = app.scene
    flora = scene.flora
    # one Geom per prototype, whatever the number of trees; the table within its draw calls
    assert len(flora.nodes) <= len(PROTOTYPES)
    assert flora.instances() > 10 * len(flora.nodes)
    assert scene.geom_count() <= 150
    # the canopy volumes are the rules' truth, not drawn in normal play
    assert scene.table.canopy.is_hidden()

    app.hud.root.hide()
    for node in getattr(app.hud, "anchors", []):
        node.hide()
    app.camera.focus(10, 40, 0, 30)
    app.camera.goal.pitch = 80
    app.settle()
    centre = app.project((10.0, 40.0, 0.0))
    box = ((centre[0] - 40, centre[1] - 40), (centre[0] + 40, centre[1] + 40))
    wooded = _screen_mean(app, tmp_path / "a.png", box)
    flora.set_visible(False)
    lifted = _screen_mean(app, tmp_path / "b.png", box)
    assert np.abs(wooded - lifted).sum() > 0.05, "lifting the trees should show the ground under them"
    flora.set_visible(True)
    flora.set_pointer(10.0, 40.0)
    cleared = _screen_mean(app, tmp_path / "c.png", box)
    assert np.abs(cleared - lifted).sum() < np.abs(wooded - lifted).sum(), "a clearing shows the ground"
    flora.set_pointer(None)

    # napalm: the trees in the burnt polygon char, and those whose crowns reach over it by half their
    # radius; the others keep their leaves; a withdrawn change heals
    burnt = [{"id": "n1", "kind": "burnt", "polygon": [[0, 36], [12, 36], [12, 46], [0, 46]]}]
    count = flora.apply_changes(burnt)
    poly = Polygon(burnt[0]["polygon"])
    inside = sum(int((shapely.distance(poly, shapely.points(r[:, 0], r[:, 1])) <= 0.5 * r[:, 4]).sum())
                 for r in flora.rows.values())
    assert count == inside > 0
    for r in flora.rows.values():
        assert r[shapely.contains_xy(poly, r[:, 0], r[:, 1]), 11].all()  # every tree standing in it
        assert not r[shapely.distance(poly, shapely.points(r[:, 0], r[:, 1])) > r[:, 4], 11].any()
    assert flora.apply_changes([]) == 0
    # the same, followed from the table's drawn changes (the scorch and the charred trees appear together)
    scene.changes.sync(burnt)
    app.settle()
    assert sum(int(r[:, 11].sum()) for r in flora.rows.values()) == inside
    scene.changes.sync([])
    app.settle()
    assert sum(int(r[:, 11].sum()) for r in flora.rows.values()) == 0


def test_the_line_of_sight_tool_shows_the_canopy_volume_and_puts_it_away(make_app):
    from game.client.tools import CanopyOverlay

    app = make_app(FakeEngine)
    app.open_game_sync("fake_patrol")
    canopy = app.scene.table.canopy
    assert canopy.is_hidden()
    overlay = CanopyOverlay(app.scene.table)
    assert not canopy.is_hidden()
    assert canopy.get_color_scale()[3] < 0.6  # translucent
    overlay.destroy()
    assert canopy.is_hidden()
    # ... as the player meets it: L brings the volumes out with the tool and puts them away with it; C
    # lifts the trees off the table
    app.toggle_tool("los")
    assert not canopy.is_hidden()
    app.toggle_tool("los")
    assert canopy.is_hidden()
    app.toggle_canopy()
    assert app.scene.flora.root.is_hidden()
    app.toggle_canopy()
    assert not app.scene.flora.root.is_hidden()


def test_buildings_are_drawn_in_one_geom_over_hidden_solids(make_app):
    app = make_app(FakeEngine)
    app.open_game_sync("fake_patrol")
    b = app.scene.buildings
    assert set(b.drawn) == {"hootch1", "hootch2"}
    assert b.root.find_all_matches("**/+GeomNode").get_num_paths() == 1
    assert b.triangles > 200  # walls woven, roofs in courses: not a box and a pyramid
    for fid in ("hootch1", "hootch2"):
        for np_ in app.scene.table.root.find_all_matches(f"**/{fid}-*"):
            assert np_.is_hidden()
    lo, hi = b.root.get_tight_bounds(app.scene.table.root)
    assert 0.6 < hi.z - lo.z < 1.6
