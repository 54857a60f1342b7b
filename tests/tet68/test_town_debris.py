"""The baked town's debris stays off the walls (TET-3): a scorched beam scattered over a floor or a yard
never runs into a wall, where its end showed on the wall's far face as a dark block."""

from __future__ import annotations

import tomllib

import numpy as np
import shapely
from shapely.geometry import LineString
from shapely.ops import unary_union

from game.rules.scenario import SCENARIO_DIR
from game.rulesets.tet68.scenario import build
from game.world.ruin_walls import THICK
from game.world.ruins import town_nodes


def test_no_debris_inside_a_wall():  # TET-3: walls 2" high, the rubble and debris about them
    sc = build(tomllib.loads((SCENARIO_DIR / "hue_street.toml").read_text()), "hue_street")
    slabs = unary_union([LineString([w.a, w.b]).buffer(THICK / 2, cap_style="flat") for w in sc.town.walls])
    debris = [p for p in town_nodes(sc) if p.extras.get("tet") == "debris"]
    assert len(debris) > 4
    inside = []
    for p in debris:
        v = np.asarray(p.mesh.vertices)
        hit = shapely.contains_xy(slabs, v[:, 0], v[:, 1])
        inside += [(p.name, tuple(np.round(v[i], 2))) for i in np.flatnonzero(hit)]
    assert inside == [], inside[:5]
