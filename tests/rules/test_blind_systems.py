"""The two blind systems (DD-4.32; G-17; DD-4.7–4.9, DD-4.8, DD-2.26): a conventional Blind is a marker
on the table that moves for CP or tokens and turns into an Echo; a Green Ghost reserve is nothing on the
table, never moves and never echoes, and is sprung by an Ambush Token straight to Confirmed."""

from __future__ import annotations

from game.rules.game import Game
from game.rules.markers import markers, shown
from tests.rules.test_blinds import HQ, JUNGLE, POINT, make_fog, squad


def both_systems() -> Game:
    """An Allied squad at (10, 10); the conventional Blind i1 at (26, 10), a Dummy (G-17: "one element, or
    a Dummy"; a Dummy springs no ambush on the squad that comes to look); a Green Ghost cell in the
    Reserve Hand, with a secret ambush point in the jungle at (30, 30)."""
    return make_fog([HQ, squad("sq", "allied", 10, 10), squad("gg", "insurgent", 5, 40, reserve=True)],
                    [{"id": "i1", "side": "insurgent", "at": [26, 10], "dummy": True}], terrain=JUNGLE,
                    points=POINT, tokens=2, dice=[4])


def test_a_conventional_blind_is_a_marker_a_green_ghost_reserve_is_nothing():  # DD-4.32; G-17; DD-4.7; DD-4.8
    g = both_systems()
    allied = g.view("allied")
    assert [b["id"] for b in allied["blinds"]] == ["i1"]  # the disc on the table, its contents unknown
    assert set(allied["blinds"][0]) == {"id", "side", "x", "y", "state", "conceal"}
    assert "gg" not in repr(allied) and not [e for e in allied["elements"] if e["side"] == "insurgent"]
    assert "dummy" not in allied["blinds"][0] and g.view("insurgent")["blinds"][0]["dummy"] is True
    assert "amb1" not in repr(allied)  # the reserve's secret map point


def test_only_the_conventional_blind_echoes_and_moves():  # DD-4.32; G-17; DD-4.9; DD-2.8
    g = both_systems()
    ev = g.act("allied", {"type": "move", "element": "sq", "mode": "patrol", "to": [15, 10]})
    echoes = [e for e in ev if e["type"] == "echo"]
    assert [e["blind"] for e in echoes] == ["i1"]  # within the 12" cutoff: the Blind is an Echo now
    assert shown(g.view("allied"), markers()["echo"])
    assert "gg" not in repr(g.events_for("allied", ev)) and "gg" not in repr(g.view("allied"))
    offers = g.legal_actions("insurgent")
    assert any(o["type"] == "blind_move" and o.get("blind") == "i1" for o in offers)
    # the reserve cannot move: it is only ever sprung (G-17 "Do not move; they appear by Ambush")
    assert [o["type"] for o in offers if o.get("element") == "gg"] == ["spring_reserve"]


def test_the_reserve_is_sprung_by_a_token_straight_to_confirmed():  # DD-4.32; G-17; DD-2.26; DD-4.8
    g = both_systems()
    g.act("allied", {"type": "move", "element": "sq", "mode": "patrol", "to": [15, 10]})
    tokens = g.state.sides["insurgent"].ambush_tokens
    ev = g.act("insurgent", {"type": "spring_reserve", "element": "gg", "point": "amb1"})
    assert g.state.sides["insurgent"].ambush_tokens == tokens - 1  # its activation is an Ambush Token
    seen = g.events_for("allied", ev)
    assert [e["type"] for e in seen if e["type"] in ("echo", "reveal", "reserve_deployed")] == ["reserve_deployed"]
    allied = g.view("allied")
    assert {s["id"] for s in allied["stands"] if s["element"] == "gg"} == {"gg_a", "gg_b"}  # Confirmed, on the table
    assert [b["id"] for b in allied["blinds"]] == ["i1"]  # no marker ever stood for it
