"""Every One Brain-Cell offer the table's composer sends as it stands (no parameter to fill in) is an action the
engine takes: what the offer fixes (the man, the vehicle, the disabled man to carry) goes back with it
(OBC-42's carry, OBC-17's retreat, OBC-11's debus and the rest)."""

from __future__ import annotations

import copy

from game.client.obc.play import action_of
from tests.obc.test_evac import two_carriers


def test_a_carry_sent_as_offered_is_taken():  # OBC-42
    g = two_carriers()
    (offer,) = [o for o in g.legal_actions("allied") if o["type"] == "carry" and o["man"] == "a"]
    g.act("allied", action_of(offer, {}))
    assert g.state.men["a"].carrying == "d"


def test_every_offer_without_parameters_is_taken_as_sent():  # OBC-17, OBC-42, OBC-11
    g = two_carriers()
    seen = set()
    for o in g.legal_actions("allied"):
        if o.get("params"):
            continue
        state, events = copy.deepcopy(g.state), len(g.events)
        g.act("allied", action_of(o, {}))  # refused: IllegalAction names what is missing
        seen.add(o["type"])
        g.state = state
        del g.events[events:]
    assert "carry" in seen
