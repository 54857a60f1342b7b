"""Tet '68 movement (TET-9, TET-10, G-41) in a ruined town of tiles (TET-3)."""

from __future__ import annotations

import pytest
from shapely.geometry import box

from game.rulesets.tet68.exposure import Opening, Wall
from game.rulesets.tet68.movement import cost
from game.rulesets.tet68.town import Building, Tile, Town, tile

# One tile at (10, 0)-(18, 12); its building's floor the southern 8" x 8"; two walls of 2" (TET-3): the
# west wall with a door (y 2..3) and a window (y 5..6.2, sill 1.2"), the north wall plain.
WEST = Wall("west", (10.0, 0.0), (10.0, 8.0), 2.0, (Opening("door", 2.0, 3.0, 0.0, 1.9),
                                                    Opening("window", 5.0, 6.2, 1.2, 1.9)))
NORTH = Wall("north", (10.0, 8.0), (18.0, 8.0), 2.0)
TOWN = Town((Tile("t1", tile("t1", 10.0, 0.0), Building("b1", box(10.0, 0.0, 18.0, 8.0), (WEST, NORTH))),))


def test_ground_kinds():  # TET-9
    assert [TOWN.ground_at(*p) for p in ((5, 5), (14, 10), (14, 4))] == ["open", "tile", "building"]


def test_the_three_rates():  # TET-9: 9" in the open, 6" on a tile, 3" in a building
    assert cost(TOWN, [(0.0, 20.0), (9.0, 20.0)]).to_dict()["share"] == pytest.approx(1.0)
    assert not cost(TOWN, [(0.0, 20.0), (9.5, 20.0)]).to_dict()["legal"]
    assert cost(TOWN, [(11.0, 10.0), (17.0, 10.0)]).share == pytest.approx(1.0)  # along the tile's yard
    assert cost(TOWN, [(11.0, 4.0), (14.0, 4.0)]).share == pytest.approx(1.0)  # inside
    mixed = cost(TOWN, [(5.5, 2.5), (11.5, 2.5)])  # 4.5" of road, through the door, 1.5" inside
    assert mixed.share == pytest.approx(4.5 / 9 + 1.5 / 3, abs=0.02) and mixed.to_dict()["legal"]
    assert {"wall": "west", "through": "door", "share": 0.0, "clause": "TET-10"} in mixed.parts


def test_walls_cost_half_or_a_whole_move():  # TET-10, G-41
    sill = cost(TOWN, [(8.0, 5.5), (11.0, 5.5)])  # over the window's 1.2" sill: up to chest height
    assert [p["share"] for p in sill.parts if "wall" in p] == [0.5]
    assert sill.share == pytest.approx(0.5 + 1.5 / 9 + 0.5 / 3, abs=0.03) and sill.to_dict()["legal"]
    over = cost(TOWN, [(9.7, 4.0), (10.3, 4.0)])  # over the 2" wall itself: higher than a man, a full move
    assert [p["share"] for p in over.parts if "wall" in p] == [1.0] and over.to_dict()["legal"]
    assert not cost(TOWN, [(8.0, 4.0), (12.0, 4.0)]).to_dict()["legal"]  # and nothing more that move
    tall = Town((Tile("t2", tile("t2", 10.0, 0.0), Building("b2", box(10, 0, 18, 8),
                                                              (Wall("keep", (10.0, 0.0), (10.0, 8.0), 3.0),))),))
    refused = cost(tall, [(9.7, 4.0), (10.3, 4.0)]).to_dict()  # 3" is over 1.5 x 1.8": only through a door
    assert not refused["legal"] and "only through a door" in refused["reason"]
