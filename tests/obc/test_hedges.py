"""Hedges and low walls in One Brain-Cell (OBC-4, OBC-10, OBC-12): the Dinky Dau table's bunds and hedgerows
(line features) are crossed at 2" for a man; a wheeled vehicle cannot cross, a tracked one loses half its
move, a tank 3"."""

from __future__ import annotations

import pytest

from game.rules.errors import IllegalAction
from game.rulesets.obc import movement
from game.rulesets.obc.sight import Ground
from game.rulesets.obc.tables import tables
from game.world.features import Feature
from tests.obc.test_rules import activate, game, man, table

BUND = {"id": "dyke", "type": "bund", "path": [[0, 20], [48, 20]], "width": 0.6}
HEDGEROW = {"id": "hedge", "type": "light", "path": [[0, 20], [48, 20]], "width": 0.8}
T = tables()


def ground(*features: dict) -> Ground:
    return Ground([Feature(id=f["id"], type=f["type"], path=tuple(map(tuple, f["path"])), width=f["width"])
                   for f in features])


@pytest.mark.parametrize("hedge", [BUND, HEDGEROW])
@pytest.mark.parametrize(("to", "ok"), [([10, 21.5], True), ([10, 21.6], False)])
def test_a_man_loses_2_inches_crossing_a_bund_or_a_hedgerow(hedge, to, ok):  # OBC-4
    g = game(table([man("ldr", [10, 17.5])], [man("v", [40, 45])], [hedge]))
    activate(g, "us")
    plan = g.preview("allied", {"type": "move", "man": "ldr", "to": to})
    assert plan["legal"] is ok and plan["allowance"] == 4.0  # 6" across country, less 2" (not a hedgerow's rough 4")
    assert {"name": "crossing a hedge or low wall", "inches": -2.0, "clause": "OBC-4"} in plan["deductions"]
    if not ok:
        with pytest.raises(IllegalAction) as exc:
            g.act("allied", {"type": "move", "man": "ldr", "to": to})
        assert exc.value.clause == "OBC-3"


def test_stepping_onto_a_bund_or_walking_along_it_is_no_crossing():  # OBC-4, OBC-3
    gr = ground(BUND)
    assert gr.hedges_crossed((10, 17), (10, 20)) == []  # onto its centre line
    assert gr.hedges_crossed((10, 20), (16, 20)) == []  # along it
    assert gr.hedges_crossed((10, 17), (10, 23)) == ["dyke"]
    plan = movement.man_move(T, gr, (10, 20), (16, 20))
    assert plan.legal and plan.going == "country"


def test_a_move_over_two_walls_pays_twice():  # OBC-4
    gr = ground(BUND, {"id": "dyke2", "type": "bund", "path": [[0, 22], [48, 22]], "width": 0.6})
    plan = movement.man_move(T, gr, (10, 19), (10, 23))
    assert plan.allowance == 2.0 and not movement.man_move(T, gr, (10, 19), (10, 23.5)).legal


def test_wheeled_vehicles_cannot_cross_tracked_lose_half_and_tanks_3_inches():  # OBC-10, OBC-12
    gr = ground(BUND)
    lorry = movement.vehicle_move(T, gr, "lorry", (10, 15), (10, 24))
    assert not lorry.legal and lorry.clause == "OBC-10"
    assert movement.vehicle_move(T, gr, "lorry", (10, 15), (10, 19)).legal  # short of the dyke
    apc = movement.vehicle_move(T, gr, "apc", (10, 16), (10, 21))
    assert apc.legal and apc.allowance == 5.0  # 10" across country, halved
    assert not movement.vehicle_move(T, gr, "apc", (10, 16), (10, 21.1)).legal
    tank = movement.vehicle_move(T, gr, "tank", (10, 15), (10, 24))
    assert tank.legal and tank.allowance == 9.0  # 12" less 3"
    assert {"name": "crossing a low wall or ditch", "inches": -3.0, "clause": "OBC-12"} in tank.steps
    assert not movement.vehicle_move(T, gr, "tank", (10, 15), (10, 24.1)).legal


def test_a_chopper_flies_over_hedges():  # OBC-13
    plan = movement.vehicle_move(T, ground(BUND), "chopper", (10, 10), (10, 30), 12.0, 12.0)
    assert plan.legal and plan.allowance == 32.0


def test_a_move_is_paid_at_the_ground_on_top():  # OBC-3: a field laid over a paddy is the field there
    gr = Ground([Feature(id="pd", type="paddy", polygon=((0, 0), (48, 0), (48, 24), (0, 24))),
                 Feature(id="lz", type="open", polygon=((10, 5), (30, 5), (30, 15), (10, 15)))])
    assert movement.man_move(T, gr, (12, 10), (18, 10)).going == "country"  # on the field
    assert movement.man_move(T, gr, (12, 10), (12, 16)).going == "rough"  # off it into the paddy


@pytest.mark.parametrize(("hedges", "y"), [([], 4.0), ([{**BUND, "path": [[0, 8], [48, 8]]}], 6.0)])
def test_a_man_who_flees_pays_for_the_hedge_on_his_way(hedges, y):  # OBC-45, OBC-4
    g = game(table([man("ldr", [20, 20]), man("a", [24, 10])], [man("v", [40, 45])], hedges))
    a = g.state.men["a"]
    g._outcome(a, "blind_panic")  # toward the nearest edge (the south): 6" across the open, less 2" for the dyke
    assert (a.x, a.y) == (24, y) and a.fleeing
