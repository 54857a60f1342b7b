"""The Master Terrain Effects Matrix (DD-3.1; G-01): game/data/terrain.toml read row by row against the
G-01 proposal the engine adopts, and the engine's moves, to-hit modifiers and saves answering it."""

from __future__ import annotations

import pytest

from game.rules import fire
from game.rules.data import rulebook
from tests.builders import element, stand
from tests.rules.test_template import table

PATROL, SPRINT = 6.0, 9.0
# G-01, column by column: (its row, Patrol and Sprint allowance, LOS cutoff (0 blocks), Spot, To-hit, Save,
# dense: the 4" command radius / AI trigger band). The LOS of an overlay ("that of the terrain", "as the
# surroundings") is the open 24": the terrain under it adds its own cutoff.
G01 = {
    "open": ("T1", 6.0, 9.0, 24.0, 0, 0, 6, False),
    "trail": ("T1r", 6.0, 9.0, 24.0, 0, 0, 6, False),
    "paddy": ("T2", 3.0, 4.5, 24.0, 0, 0, 5, False),
    "bund": ("T2", 6.0, 9.0, 24.0, 0, 0, 5, False),
    "mud": ("T3", 3.0, 3.0, 24.0, 0, 0, 6, False),
    "stream": ("T4", 3.0, 3.0, 24.0, 0, 0, 6, False),
    "river": ("T5", 0.0, 0.0, 24.0, 0, 0, 6, False),
    "light": ("T6", 4.0, 7.0, 6.0, -1, 0, 5, False),
    "rubber": ("T7", 6.0, 9.0, 12.0, 0, 0, 5, False),
    "secondary": ("T8", 4.0, 7.0, 6.0, -1, -1, 5, False),
    "dense": ("T9", 3.0, 4.5, 3.0, -2, -1, 5, True),
    "bamboo": ("T9", 3.0, 4.5, 3.0, -2, -1, 5, True),
    "mangrove": ("T9", 3.0, 4.5, 3.0, -2, -1, 5, True),
    "hootch": ("T10", 3.0, 4.5, 0.0, -2, -1, 5, False),
    "masonry": ("T11", 3.0, 4.5, 0.0, -2, -2, 4, True),
    "rubble": ("T12", 3.0, 4.5, 6.0, -1, -1, 5, False),
    "crater": ("T12c", 6.0, 9.0, 24.0, 0, 0, 5, False),
    "bunker": ("T13", 3.0, 4.5, 24.0, -2, -2, 4, False),
    "trench": ("T13", 3.0, 4.5, 24.0, -2, -2, 4, False),
    "spider_hole": ("T13", 6.0, 9.0, 24.0, -2, -2, 4, False),
    "hill": ("T14", 6.0, 9.0, 24.0, 0, 0, 6, False),
    "wreck": ("T15", 0.0, 0.0, 0.0, -1, -1, 5, False),
}
"""Rows the engine has beyond G-01's: ``burnt`` (napalm's burnt ground, G-19), read as open ground with
the craters' light cover."""


def test_every_terrain_row_is_a_row_of_the_matrix():  # DD-3.1; G-01
    terrain = rulebook().terrain
    assert set(terrain) - set(G01) == {"burnt"}
    assert set(G01) <= set(terrain)
    for t in terrain.values():
        assert "G-01" in t.clause, t.id


@pytest.mark.parametrize("tid", sorted(G01))
def test_a_terrain_row_reads_as_g01(tid):  # DD-3.1; G-01
    t = rulebook().terrain[tid]
    row, patrol, sprint, los, spot, to_hit, save, dense = G01[tid]
    assert f"G-01 {row}" in t.clause
    assert (t.allowance(PATROL), t.allowance(SPRINT)) == (patrol, sprint)  # the engine's allowance, G-01 move
    assert (t.los_cutoff, t.spot, t.to_hit, t.save, t.dense) == (los, spot, to_hit, save, dense)


def test_g01s_special_columns():  # DD-3.1; G-01 T2, T3, T4, T14, T1r
    terrain = rulebook().terrain
    assert terrain["paddy"].sprint_winds and terrain["mud"].sprint_winds  # a Sprint makes the unit Winded
    assert terrain["paddy"].noisy and terrain["stream"].noisy  # a Blind crossing is noisy
    assert terrain["hill"].uphill_half and terrain["hill"].elevation  # half uphill; +6" of sight
    assert terrain["trail"].trail and terrain["trail"].overlay  # Trail Rush along it, over any terrain
    assert terrain["bund"].overlay and terrain["bund"].trail  # bund-top paths count as trail


@pytest.mark.parametrize("tid", ["open", "paddy", "light", "rubber", "secondary", "dense", "bamboo", "rubble",
                                 "crater", "trench"])
def test_a_target_inside_takes_the_matrixs_to_hit_and_save(tid):  # DD-3.1; G-01; DD-5.4; DD-5.6
    patch = {"id": "patch", "type": tid, "polygon": [[25, 25], [35, 25], [35, 35], [25, 35]]}
    g = table([element("al", "allied", [stand("al_a", "us_rifle_team", 30, 12)]),
               element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 30, 30, 270)], kind="cell")],
              terrain=[patch])
    target, firer = g.state.stands["vc_a"], g.state.elements["al"]
    _, _, _, _, _, to_hit, save, _ = G01[tid]
    assert fire.cover_of(g, target).id == tid
    ctx = fire.Context()
    mods = fire.to_hit_modifiers(g, firer, g.state.stands["al_a"], target, ctx)
    assert sum(m.value for m in mods) == to_hit
    assert fire.save_need(g, target, ctx, 18.0)[0] == save
