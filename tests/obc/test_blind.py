"""One Brain-Cell's targets (OBC-22): fire into cover where an enemy may be hidden ("Soft/Blind") goes only into
cover the firer sees, and a vehicle is shot at as a standing target."""

from __future__ import annotations

import pytest

from game.rules.errors import IllegalAction
from tests.obc.test_rules import activate, chopper, game, man, rolls, table

WOOD = {"id": "copse", "type": "light", "polygon": [[20, 26], [28, 26], [28, 32], [20, 32]]}


def test_blind_fire_goes_into_cover_only():  # OBC-22, OBC-21
    g = game(table([man("ldr", [24, 22.5])], [man("v", [44, 45])], [WOOD]))
    activate(g, "us")
    offer = next(o for o in g.legal_actions("allied") if o["type"] == "fire" and o.get("blind"))
    assert "OBC-22" in offer["clause"]
    with pytest.raises(IllegalAction) as exc:  # open ground: no bush for an enemy to hide in
        g.act("allied", {"type": "fire", "man": "ldr", "blind": True, "at": [30, 22]})
    assert exc.value.clause == "OBC-22"
    g.dice.force([6])
    events = g.act("allied", {"type": "fire", "man": "ldr", "blind": True, "at": [24, 27]})  # 1" into the copse, 4.5" off: short range
    (roll,) = rolls(events, "to hit")
    assert (roll["band"], roll["target_number"], roll["result"]) == ("short", 7, 7)  # the Soft/Blind column: 7+


def test_a_vehicle_is_a_standing_target():  # OBC-22
    g = game(table([man("ldr", [5, 5])], [man("v", [20, 24])], extra=chopper([20, 20], 0.0, aboard=False)),
             side="insurgent")
    activate(g, "vc")
    shot = g.preview("insurgent", {"type": "fire", "man": "v", "target": "h"})
    assert shot["column"] == "standing"  # landed in the open: a man lying there would be "lying"
