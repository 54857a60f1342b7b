"""Transport (DD-7.12–7.13, DD-3.22; G-06; C-08): mounting and dismounting, capacity, hidden passengers."""

from __future__ import annotations

import pytest

from game.rules import transport
from game.rules.errors import IllegalAction
from game.rules.state import base_of
from tests.rules.test_armour import make, rec


def test_dismount_sets_the_squad_down_within_two_inches():
    g = make("allied")
    evs = g.act("allied", {"type": "dismount", "element": "acav", "passenger": "sq1"})  # DD-7.12: 1 CP
    assert [e["type"] for e in evs if e["type"] in ("dismount", "move")] == ["dismount", "move"]
    sq = g.state.elements["sq1"]
    assert not sq.reserve and rec(g, "acav_1").passengers == []
    hull = base_of(g.book, g.state.stands["acav_1"])
    assert all(hull.distance(base_of(g.book, s)) <= transport.REACH + 1e-9 for s in g.state.living(sq))
    assert g.state.sides["allied"].cp == 5


def test_mount_within_two_inches_and_room_aboard():
    g = make("allied")
    g.act("allied", {"type": "dismount", "element": "acav", "passenger": "sq1"})
    g.state.to_act = "allied"
    offers = [a for a in g.legal_actions("allied") if a["type"] == "mount"]
    # G-06: the ACAV takes 2 Medium + 1 Small; the Patton's two riders are too few for the squad's 3 stands
    assert [a["params"]["vehicle"]["choices"] for a in offers] == [["acav_1"]]
    g.act("allied", {"type": "mount", "element": "sq1", "vehicle": "acav_1"})
    assert g.state.elements["sq1"].reserve and rec(g, "acav_1").passengers == ["sq1"]


def test_mount_refuses_a_vehicle_too_far_or_full():
    g = make("allied")
    with pytest.raises(IllegalAction) as err:  # the HQ is 6" off the ACAV
        g.check("allied", {"type": "mount", "element": "hq", "vehicle": "acav_1"})
    assert err.value.clause == "DD-7.12"
    hq = g.state.elements["hq"]
    for s in g.state.living(hq):
        s.x, s.y = s.x + 6.0, 4.4  # beside the ACAV
    with pytest.raises(IllegalAction) as err:  # G-06: 3 stands aboard already, room for 3
        g.check("allied", {"type": "mount", "element": "hq", "vehicle": "acav_1"})
    assert err.value.clause == "DD-7.12; G-06" and "carries 3" in err.value.reason


def test_the_enemy_is_not_told_who_mounts():
    g = make("allied")
    g.act("allied", {"type": "dismount", "element": "acav", "passenger": "sq1"})
    g.state.to_act = "allied"
    evs = g.act("allied", {"type": "mount", "element": "sq1", "vehicle": "acav_1"})
    seen = g.events_for("insurgent", evs)
    assert not [e for e in seen if e["type"] == "mount"]
    assert all("sq1" not in str(e) for e in seen if e["type"] == "note")
