"""Resupply (DD-4.26, G-32): Low Ammo comes off in base contact with the Platoon HQ or a landed
helicopter; nowhere else, and never for an element that is not Low Ammo."""

from __future__ import annotations

import pytest

from game.rules import fire
from game.rules.casevac import Helicopter
from game.rules.errors import IllegalAction
from tests.rules.test_fire import SQUAD, make

# The Platoon HQ's stand sits 0.02" from the squad leader's base (base contact, DD-1.7 / G-32).
HQ_TOUCHING = ("hq", "allied", [("hq_1", "us_platoon_commander", 22, 7.5)], {"kind": "hq"})
HQ_FAR = ("hq", "allied", [("hq_1", "us_platoon_commander", 40, 4)], {"kind": "hq"})
FAR_CELL = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 22, 26)])


def offered(g, kind="resupply"):
    return [a for a in g.legal_actions("allied") if a["type"] == kind and a.get("element") == "sq"]


def test_resupply_from_the_platoon_hq_clears_low_ammo_and_restores_the_full_pool():  # DD-4.26; G-32
    g = make([SQUAD, HQ_TOUCHING, FAR_CELL])
    sq = g.state.elements["sq"]
    sq.low_ammo = True
    pool = sum(gr.dice for gr in fire.plan_fire(g, sq, "vc_a", fire.Context("t", "t"),
                                                check_target=False).groups)
    assert offered(g) and "from hq" in offered(g)[0]["label"]
    ev = g.act("allied", {"type": "resupply", "element": "sq"})
    assert not sq.low_ammo
    st = [e for e in ev if e["type"] == "status" and e["status"] == "low_ammo"]
    assert st and st[0]["on"] is False and "G-32" in st[0]["clause"]
    full = sum(gr.dice for gr in fire.plan_fire(g, sq, "vc_a", fire.Context("t", "t"),
                                                check_target=False).groups)
    assert full > pool  # G-32: Low Ammo halves the Aimed Fire pool; resupplied, it is whole again


def test_resupply_is_refused_out_of_contact_and_when_not_low_ammo():  # G-32
    g = make([SQUAD, HQ_FAR, FAR_CELL])
    g.state.elements["sq"].low_ammo = True
    assert not offered(g)
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "resupply", "element": "sq"})
    assert "base contact" in exc.value.reason and "G-32" in exc.value.clause
    g = make([SQUAD, HQ_TOUCHING, FAR_CELL])
    assert not offered(g)
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "resupply", "element": "sq"})
    assert "not Low Ammo" in exc.value.reason


def test_resupply_from_a_landed_helicopter():  # G-32, DD-6.8
    g = make([SQUAD, HQ_FAR, FAR_CELL])
    g.state.elements["sq"].low_ammo = True
    # the UH-1 waiting on its LZ, its pad's edge just touching the squad leader's base
    g.state.chapters["casevac"].helicopter = Helicopter("dustoff1", 22, 5.0, "violet", 3.0, False, 1)
    assert offered(g) and "helicopter" in offered(g)[0]["label"]
    g.act("allied", {"type": "resupply", "element": "sq"})
    assert not g.state.elements["sq"].low_ammo
