"""Recon by Fire as an action of the Chapter 2 list (DD-2.14): spray an Echo, spend the ammunition,
risk friendly fire (DD-4.25–4.28; C-03; G-32, G-34), with forced dice and stubbed LOS."""

from __future__ import annotations

from game.rules.reactions import overwatch_active  # noqa: F401 - loads game.rules.game before test_blinds
from tests.rules.test_blinds import squad
from tests.rules.test_detection import echo_game


def test_recon_by_fire_sprays_an_echo_uses_ammunition_and_can_hit_friends():  # DD-2.14
    """The 1st Squad sprays a suspected Echo 8" ahead; a second squad stands 3" beside the marker. The
    result roll is a 1: the rounds stray into the friendly squad (DD-4.28), which loses a stand."""
    g = echo_game(dummy=True, extra=[squad("sq2", "allied", 13, 18)])
    offer = [a for a in g.legal_actions("allied") if a["type"] == "recon_by_fire" and a["element"] == "sq"]
    assert offer and offer[0]["params"]["target"]["choices"] == ["i1"]  # no Spotting Test needed (DD-4.25)
    # result 1; the firer's 7 FP dice at sq2 hit twice (4, 4); both saves fail in the open (1, 1); Morale 6
    g.dice.force([1] + [4, 4, 1, 1, 1, 1, 1] + [1, 1] + [6])
    ev = g.act("allied", {"type": "recon_by_fire", "element": "sq", "target": "i1"})
    assert g.dice.forced_left == 0
    sq = g.state.elements["sq"]
    assert sq.low_ammo and sq.exposed_turn == g.state.turn  # "it uses up ammunition" (DD-4.26, DD-4.27)
    (stray,) = [e for e in ev if e["type"] == "fire" and e.get("target_element") == "sq2"]
    assert stray["dice"] == 7
    assert not g.state.stands["sq2_a"].alive and [e for e in ev if e["type"] == "casualty"][0]["stand"] == "sq2_a"
    assert g.state.civic_drift == -1  # C-03
    # and no second spray until resupplied (G-32)
    g.act("insurgent", {"type": "pass"})
    assert not [a for a in g.legal_actions("allied") if a["type"] == "recon_by_fire" and a["element"] == "sq"]
