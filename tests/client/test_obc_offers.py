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


def test_a_retreat_shows_its_way_before_it_is_confirmed(make_app):  # OBC-17: the engine's path, drawn
    from .test_obc_table import open_lz

    app = open_lz(make_app)
    man = next(m for m in app.view["men"] if m["id"] in app.scene.pieces.elements)
    path = [[man["x"], man["y"]], [man["x"], max(0.0, man["y"] - 3.0)]]
    app.kit.play.choose({"type": "retreat", "man": man["id"], "to": path[-1], "path": path, "clause": "OBC-17",
                     "label": "retreats toward the table edge (out of command)"})
    assert [n.get_name() for n in app.kit.play.nodes] == ["way", "way-end"], app.kit.play.pending
    way = app.kit.play.nodes[0]
    lo, hi = way.get_tight_bounds()
    assert abs(lo.x - man["x"]) < 0.05 and abs(lo.y - path[-1][1]) < 0.05 and abs(hi.y - man["y"]) < 0.05
    assert app.kit.play.pending["final"] == {"type": "retreat", "man": man["id"]}  # sent as offered: the engine's way
    app.kit.play.cancel()
    assert not app.kit.play.nodes
