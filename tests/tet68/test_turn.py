"""The Tet '68 turn (TET-7, TET-8, TET-19, C-32) and G-41's clearing, on a small table set by hand."""

from __future__ import annotations

import pytest

from game.rules.errors import IllegalAction
from game.rulesets.tet68.game import TetGame
from game.rulesets.tet68.scenario import build

RAW = {
    "scenario": {"ruleset": "tet68", "id": "two_houses", "title": "Two houses", "turns": 3,
                 "table": {"width": 36, "height": 24}},
    "side": [{"id": "allied", "name": "Marines"}, {"id": "insurgent", "name": "VC"}],
    "tile": [{"id": "t1", "at": [4, 15], "turned": True, "building": {
        "id": "house", "floor": [[4, 15], [12, 15], [12, 23], [4, 23]],
        "walls": [{"id": "front", "from": [4, 15], "to": [12, 15], "openings": [{"kind": "door", "start": 3, "end": 4}]}]}},
             {"id": "t2", "at": [20, 1], "turned": True, "building": {"id": "shed", "floor": [[20, 1], [28, 1], [28, 9], [20, 9]],
                                                                       "walls": []}}],
    "figure": [
        {"id": "m1", "side": "allied", "name": "Ames", "weapon": "m16", "at": [2.0, 12.0]},
        {"id": "v1", "side": "insurgent", "name": "Loc", "weapon": "ak47", "at": [20.0, 12.0]},
    ],
}


def game(**init) -> TetGame:
    g = TetGame(build(RAW, "two_houses"), 5)
    for fid, ini in init.items():  # the rolled Initiative set by hand (TET-5), the turn begun again
        g.state.figures[fid].man.initiative = ini
    g.state.phase, g.state.step, g.state.last = "move", 1, None
    g._fill()
    return g


def test_moves_go_by_ascending_initiative_and_fire_by_descending():  # TET-7
    g = game(m1=2, v1=1)
    assert g.state.phase == "move" and g.state.step == 1 and g.state.to_act == "insurgent"
    g.act("insurgent", {"type": "hold", "figure": "v1"})
    assert g.state.to_act == "allied" and g.legal_actions("allied") == [{"type": "pass", "clause": "C-32",
                                                                         "label": "no snap fire"}]
    g.act("allied", {"type": "pass"})  # C-32: asked after every act of the move phase, here nothing to shoot
    assert g.state.step == 2 and g.state.to_act == "allied"
    with pytest.raises(IllegalAction, match="TET-7|no figure"):
        g.act("allied", {"type": "hold", "figure": "v1"})  # not the Allies' figure
    g.act("allied", {"type": "move", "figure": "m1", "to": [6.0, 12.0]})
    # a lower-Initiative enemy never snaps (C-32): the decision is a pass alone
    assert [o["type"] for o in g.legal_actions("insurgent")] == ["pass"]
    g.act("insurgent", {"type": "pass"})
    assert g.state.phase == "fire" and g.state.step == 2 and g.state.to_act == "allied"


def test_snap_fire_at_a_mover_and_duckback():  # C-32, TET-19
    g = game(m1=1, v1=4)
    g.dice.force([40, 6], faces=100)  # 40 on the d100 (WS 200 x 1/4 at 11": 50 or less), 6 on the cover roll (5)
    g.state.figures["v1"].man.ws = 200
    g.act("allied", {"type": "move", "figure": "m1", "to": [9.0, 12.0]})  # into Loc's sight, 11" away
    offers = g.legal_actions("insurgent")
    assert [o["type"] for o in offers] == ["snap_fire", "pass"] and offers[0]["targets"][0]["id"] == "m1"
    events = g.act("insurgent", {"type": "snap_fire", "figure": "v1", "target": "m1"})
    assert [e["type"] for e in events][-1] == "duckback"
    ames = g.state.figures["m1"].man
    assert ames.ducked and ames.acting_initiative == 0 and g.state.figures["v1"].fired  # its shot is spent


def test_a_house_is_cleared_and_lost_again():  # G-41
    g = game(m1=1, v1=1)
    g.state.figures["m1"].x, g.state.figures["m1"].y = 8.0, 19.0  # in the house, nobody else there
    g._end_turn()
    assert g.state.cleared == ["house"] and not g.state.over
    g.state.figures["v1"].x, g.state.figures["v1"].y = 6.0, 21.0  # an enemy back in it at a turn's end
    g._end_turn()
    assert g.state.cleared == []


def test_every_house_clear_is_an_allied_win():  # G-41
    g = game(m1=1, v1=1)
    g.state.cleared = ["shed"]  # cleared before, and nobody in it now
    g.state.figures["m1"].x, g.state.figures["m1"].y = 8.0, 19.0
    g._end_turn()
    assert g.state.over and g.state.result["winner"] == "allied" and g.state.cleared == ["house", "shed"]
