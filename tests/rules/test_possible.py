"""``ActionKind.possible``: a kind a listing never asks of an element (its side, the kinds of its stands)
must be one whose ``offers`` list nothing for that element, at any point of any game, on the table or
from under its Blind (``blinds.BlindMove``). Random games on every shipped Dinky Dau table ask each such
kind's ``offers`` at every step."""

from __future__ import annotations

import pytest

from game.rules.game import ACTION_KINDS, Game
from game.rules.scenario import resolve_scenario, shipped_scenarios
from game.rules.turn import start_turn
from tests.rules.test_changes import random_play


def _types(g: Game, el) -> frozenset[str]:
    return frozenset(g.state.stands[s].type for s in el.stands)


def _nothing_where_never(g: Game) -> None:
    for el in g.state.elements.values():
        under = g.state.blinds.get(el.blind) if el.blind is not None else None
        if g.state.on_table(el):
            common = {"element": el.id, "cost": 1, "tokens": 0, "emergency": False, "cost_clause": "G-28"}
        elif under is not None and not under.dummy and not el.reserve and g.state.living(el):
            common = {"element": el.id, "cost": 1, "tokens": 0, "emergency": False, "cost_clause": "G-28",
                      "from_blind": under.id}  # what a Blind's elements are offered from under it
        else:
            continue
        for kind in ACTION_KINDS.values():
            if not kind.possible(g, el.side, _types(g, el)):
                assert kind.offers(g, el, common, "1 CP") == [], (kind.type, el.id)


@pytest.mark.parametrize("sid", sorted(shipped_scenarios()))
def test_a_kind_never_asked_offers_nothing(sid):
    g = Game(resolve_scenario(sid), 7, start=False)
    start_turn(g)
    _nothing_where_never(g)
    random_play(g, 7, 80, each=_nothing_where_never)


def test_the_kinds_an_element_is_never_offered():
    g = Game(resolve_scenario("village_sweep"), 1)
    squad, hq, vc = (g.never_offered(g.state.elements[e]) for e in ("sq1", "hq", "vc1"))
    assert "search" in vc and "search" not in squad  # DD-2.15: an Allied element searches
    assert "recon_sweep" in squad and "recon_sweep" not in hq  # DD-4.19: the Platoon Commander's
    assert "treat_wounded" in squad and "treat_wounded" not in hq  # DD-3.16: the Medic (in the HQ)
    assert "call_fire" in hq  # DD-8.6: no off-board battery in this scenario
    fb = Game(resolve_scenario("firebase_relief"), 1)
    callers = [e for e in fb.state.elements.values() if "call_fire" not in fb.never_offered(e)]
    assert callers and all(e.side == "allied" for e in callers)  # its batteries are the Allied side's
