"""Blinds that move, Echoes from proximity and noise, reveals, and the Green Ghost Reserve Hand
(DD-4.7–4.11, DD-4.24, DD-4.33–4.35, DD-2.26; C-14, G-17, G-28) with forced dice and stubbed LOS."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
from shapely.geometry import Point

from game.rules import blinds, detection
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import build_scenario
from game.rules.state import base_of
from game.rules.turn import start_turn


def squad(eid: str, side: str, x: float, y: float, blind: str | None = None, **extra) -> dict:
    if side == "allied":
        st = [("sl", "us_squad_leader", 0, -1.5), ("a", "us_rifle_team", -1.2, 0), ("b", "us_rifle_team", 1.2, 0)]
    else:
        st = [("a", "vc_rifle_cell", -1.1, 0), ("b", "vc_rifle_cell", 1.1, 0)]
    return {"id": eid, "side": side, "name": eid, "kind": "squad" if side == "allied" else "cell",
            **({"blind": blind} if blind else {}), **extra,
            "stand": [{"id": f"{eid}_{sid}", "type": t, "at": [x + dx, y + dy], "facing": 90 if side == "allied" else 270}
                      for sid, t, dx, dy in st]}


def los_within(r: float):
    """LOS stub: visible within ``r`` inches, centre to centre (the visual cutoff, DD-4.9)."""
    return lambda a, b: SimpleNamespace(visible=math.hypot(a.x - b.x, a.y - b.y) <= r + 1e-9,
                                        fraction=1.0, distance=math.hypot(a.x - b.x, a.y - b.y))


def make_fog(elements, blind_list=(), terrain=(), tokens=2, first="allied", los=12.0, points=(), time="day",
             dice=None, seed=1) -> Game:
    raw = {
        "scenario": {"id": "t", "title": "t", "table": {"width": 48, "height": 48}, "turns": 6,
                     "weather": "clear", "time_of_day": time, "first_side": first},
        "terrain": list(terrain),
        "side": [{"id": "allied", "faction": "us_army", "name": "A"},
                 {"id": "insurgent", "faction": "vc_main_force", "name": "I", "ambush_tokens": tokens}],
        "element": list(elements),
        "blind": list(blind_list),
        "ambush_point": list(points),
    }
    g = Game(build_scenario(raw), seed, start=False)
    g.los_override = los_within(los) if isinstance(los, (int, float)) else los
    if dice:
        g.dice.force(dice)
    start_turn(g)
    return g


HQ = {"id": "hq", "side": "allied", "name": "HQ", "kind": "hq",
      "stand": [{"id": "pc", "type": "us_platoon_commander", "at": [4, 4], "facing": 90}]}


def test_a_blind_moves_with_its_contents_and_the_enemy_sees_only_the_marker():
    """DD-4.7, G-17: the owner pays 1 CP; the marker and its stands move; the enemy learns the marker."""
    g = make_fog([HQ, squad("sq", "allied", 10, 10, "a1"), squad("vc", "insurgent", 40, 40)],
                 [{"id": "a1", "side": "allied", "at": [10, 10]}], dice=[4])
    cp = g.state.sides["allied"].cp
    ev = g.act("allied", {"type": "blind_move", "blind": "a1", "mode": "patrol", "to": [14, 13]})
    assert g.state.sides["allied"].cp == cp - 1
    assert (g.state.blinds["a1"].x, g.state.blinds["a1"].y) == (14, 13)
    assert (g.state.stands["sq_a"].x, g.state.stands["sq_a"].y) == (14 - 1.2, 13)
    seen = g.events_for("insurgent", ev)
    assert [e["type"] for e in seen] == ["activate", "blind_move"]
    assert "sq" not in repr(seen) and "cost" not in seen[0]
    view = g.view("insurgent")
    assert [b for b in view["blinds"] if b["id"] == "a1"] == [
        {"id": "a1", "side": "allied", "x": 14, "y": 13, "state": "blind", "conceal": False}]
    assert not any(e["id"] == "sq" for e in view["elements"]) and not any(s["element"] == "sq" for s in view["stands"])


def test_a_blind_pays_the_slowest_terrain_and_cannot_overrun_its_allowance():
    """DD-2.8, G-01: a 6" Patrol Move; dense terrain halves it."""
    dense = {"id": "d", "type": "dense", "polygon": [[20, 0], [30, 0], [30, 48], [20, 48]]}
    g = make_fog([HQ, squad("vc", "insurgent", 40, 40)], [{"id": "a1", "side": "allied", "at": [10, 10], "dummy": True}],
                 terrain=[dense], dice=[4])
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "blind_move", "blind": "a1", "mode": "patrol", "to": [16.5, 10]})
    assert "DD-2.8" in exc.value.clause
    b = g.state.blinds["a1"]
    b.x = 19.0
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "blind_move", "blind": "a1", "mode": "patrol", "to": [24, 10]})
    g.act("allied", {"type": "blind_move", "blind": "a1", "mode": "patrol", "to": [22, 10]})


def test_a_dummy_blind_moves_and_insurgent_blinds_pay_tokens_for_a_second_activation():
    """G-17 (a Dummy moves like any Blind), G-28 (4): the first Insurgent activation is free, the
    second costs an Ambush Token; at most one move a turn (G-28 (2))."""
    g = make_fog([HQ, squad("vc", "insurgent", 40, 40, "i1")],
                 [{"id": "i1", "side": "insurgent", "at": [40, 40]},
                  {"id": "i2", "side": "insurgent", "at": [40, 30], "dummy": True}], first="insurgent", tokens=2)
    tokens = g.state.sides["insurgent"].ambush_tokens
    g.act("insurgent", {"type": "blind_move", "blind": "i2", "mode": "patrol", "to": [40, 25]})
    assert g.state.sides["insurgent"].ambush_tokens == tokens
    g.act("allied", {"type": "pass"})
    with pytest.raises(IllegalAction):
        g.act("insurgent", {"type": "blind_move", "blind": "i2", "mode": "patrol", "to": [40, 22]})
    g.act("insurgent", {"type": "blind_hold", "blind": "i2"})
    assert g.state.sides["insurgent"].ambush_tokens == tokens - 1
    assert g.state.blinds["i2"].conceal


def test_an_enemy_within_visual_cutoff_turns_a_blind_into_an_echo():
    """DD-4.9 (a): in LOS within the cutoff (the stub sees 12")."""
    g = make_fog([HQ, squad("sq", "allied", 10, 10), squad("vc", "insurgent", 40, 40, "i1")],
                 [{"id": "i1", "side": "insurgent", "at": [40, 40]}], dice=[4])
    assert g.state.blinds["i1"].state == "blind"
    g.state.blinds["i1"].x, g.state.blinds["i1"].y = 26, 10
    ev = g.act("allied", {"type": "move", "element": "sq", "mode": "patrol", "to": [15, 10]})
    echo = [e for e in ev if e["type"] == "echo"]
    assert echo and echo[0]["blind"] == "i1" and echo[0]["clause"] == "DD-4.9 (a)"
    assert g.state.blinds["i1"].state == "echo"


def test_enemy_markers_raise_echoes_too_dummy_or_not():
    """DD-4.9 (a) with DD-10.1: a Dummy marker watching raises an Echo just as a real one does."""
    g = make_fog([HQ, squad("vc", "insurgent", 40, 40, "i1")],
                 [{"id": "i1", "side": "insurgent", "at": [40, 40]}, {"id": "a9", "side": "allied", "at": [30, 40],
                                                                        "dummy": True}], dice=[4])
    assert g.state.blinds["i1"].state == "echo" and g.state.blinds["a9"].state == "echo"


def test_sprinting_is_noise_and_a_sprinting_echo_is_confirmed():
    """DD-4.9 (b), C-14: a Sprint makes a Blind an Echo; an Echo that sprints is Confirmed."""
    g = make_fog([HQ, squad("vc", "insurgent", 40, 40, "i1")], [{"id": "i1", "side": "insurgent", "at": [40, 40]}],
                 first="insurgent", los=1.0)
    g.act("insurgent", {"type": "blind_move", "blind": "i1", "mode": "sprint", "to": [40, 32]})
    b = g.state.blinds["i1"]
    assert b.state == "echo" and b.sprint_turn == 1
    g.act("allied", {"type": "pass"})
    ev = g.act("insurgent", {"type": "blind_hold", "blind": "i1"})
    assert "i1" in g.state.blinds
    g.state.turn += 1  # a new turn for the test: the Blind may move again
    g.state.elements["vc"].activations = g.state.elements["vc"].move_actions = 0
    g.state.to_act = "insurgent"
    ev = g.act("insurgent", {"type": "blind_move", "blind": "i1", "mode": "sprint", "to": [40, 24]})
    rev = [e for e in ev if e["type"] == "reveal"]
    assert rev and rev[0]["element"] == "vc" and "C-14" in rev[0]["clause"]
    assert "i1" not in g.state.blinds and g.state.on_table(g.state.elements["vc"])


def test_a_blind_ending_a_sprint_in_enemy_sight_is_confirmed():
    """C-14: a Blind that ends its sprint within the visual cutoff and LOS of an enemy is Confirmed."""
    g = make_fog([HQ, squad("sq", "allied", 10, 30), squad("vc", "insurgent", 40, 30, "i1")],
                 [{"id": "i1", "side": "insurgent", "at": [40, 30]}], first="insurgent", los=26.0)
    g.state.blinds["i1"].state = "blind"
    g.state.blinds["i1"].x = 45
    for s in ("vc_a", "vc_b"):
        g.state.stands[s].x += 5
    ev = g.act("insurgent", {"type": "blind_move", "blind": "i1", "mode": "sprint", "to": [36, 30]})
    assert any(e["type"] == "reveal" for e in ev) and "i1" not in g.state.blinds


def test_crossing_water_is_noise():
    """DD-4.9 (b): a Blind that crosses water becomes an Echo."""
    stream = {"id": "s", "type": "stream", "path": [[30, 0], [30, 48]], "width": 1.5}
    g = make_fog([HQ, squad("vc", "insurgent", 40, 40)], [{"id": "a1", "side": "allied", "at": [28.5, 10], "dummy": True}],
                 terrain=[stream], los=1.0, dice=[4])
    ev = g.act("allied", {"type": "blind_move", "blind": "a1", "mode": "patrol", "to": [31.4, 10]})
    assert [e["reason"] for e in ev if e["type"] == "echo"] == ["noise: crossing water"]


def test_firing_from_a_blind_reveals_it_first():
    """DD-4.11, DD-4.39: an element under a Blind may fire; its stands are placed and it is Confirmed."""
    g = make_fog([HQ, squad("sq", "allied", 10, 10), squad("vc", "insurgent", 10, 20, "i1")],
                 [{"id": "i1", "side": "insurgent", "at": [10, 20]}], first="insurgent")
    offers = [a for a in g.legal_actions("insurgent") if a["type"] == "fire" and a.get("element") == "vc"]
    assert offers and offers[0]["from_blind"] == "i1"
    g.dice.force([1] * 12)
    ev = g.act("insurgent", {"type": "fire", "element": "vc", "target": offers[0]["params"]["target"]["choices"][0]})
    types = [e["type"] for e in ev]
    assert types.index("reveal") < types.index("fire")
    assert "i1" not in g.state.blinds and g.state.elements["vc"].fired_turn == 1
    assert any(e["id"] == "vc" for e in g.view("allied")["elements"])


def test_a_revealed_unit_is_placed_in_a_legal_formation():
    """DD-4.24: the stands go at the marker; where a base would overlap another, the body shifts."""
    g = make_fog([HQ, squad("sq", "allied", 20, 20), squad("vc", "insurgent", 40, 40, "i1")],
                 [{"id": "i1", "side": "insurgent", "at": [40, 40]}], los=1.0, dice=[4])
    b = g.state.blinds["i1"]
    b.x, b.y = 20, 20
    detection.reveal(g, b, "test", "DD-4.24")
    assert g.placement_ok(g.state.elements["vc"], {s.id: s for s in g.state.living(g.state.elements["vc"])})
    assert all(math.hypot(s.x - 20, s.y - 20) <= 6 for s in g.state.living(g.state.elements["vc"]))


def test_a_dummy_is_discarded_when_revealed():
    """DD-4.24: a Dummy is discarded, and the event says so."""
    g = make_fog([HQ, squad("vc", "insurgent", 40, 40)], [{"id": "i9", "side": "insurgent", "at": [30, 30],
                                                            "dummy": True}], los=1.0, dice=[4])
    detection.reveal(g, g.state.blinds["i9"], "test", "DD-4.24")
    assert "i9" not in g.state.blinds
    assert g.events[-1]["type"] == "blind_removed" and g.events[-1]["dummy"] is True


def test_place_blind_puts_elements_under_a_new_marker():
    """The Jungle Ghost's entry point (docs/fog.md): elements go under a new marker, off the table."""
    g = make_fog([HQ, squad("sq", "allied", 10, 10), squad("vc", "insurgent", 40, 40)], los=1.0, dice=[4])
    b = blinds.place_blind(g, "insurgent", 30, 30, ["vc"])
    assert g.state.elements["vc"].blind == b.id and not g.state.on_table(g.state.elements["vc"])
    assert abs(detection.centre_of(g.state.living(g.state.elements["vc"]))[0] - 30) < 1e-6
    assert g.events[-1] == {**g.events[-1], "type": "blind_placed", "blind": b.id}
    assert "vc" not in repr(g.events_for("allied", [g.events[-1]]))


POINT = [{"id": "amb1", "at": [30, 30], "kind": "ambush"}]
JUNGLE = [{"id": "j", "type": "dense", "polygon": [[26, 26], [34, 26], [34, 34], [26, 34]]}]


def test_a_green_ghost_reserve_is_invisible_until_sprung():
    """DD-4.8: no marker at all; DD-2.26: 1 Ambush Token springs it into cover within 2" of an ambush
    marker or trapdoor."""
    g = make_fog([HQ, squad("sq", "allied", 10, 10), squad("gg", "insurgent", 5, 40, reserve=True)],
                 terrain=JUNGLE, points=POINT, first="insurgent", tokens=2)
    allied = g.view("allied")
    assert "gg" not in repr(allied) and "amb1" not in repr(allied) and "ambush_points" not in allied
    assert g.view("insurgent")["reserves"] == ["gg"]
    offers = [a for a in g.legal_actions("insurgent") if a["type"] == "spring_reserve"]
    assert offers and offers[0]["params"]["point"]["choices"] == ["amb1"]
    ev = g.act("insurgent", {"type": "spring_reserve", "element": "gg", "point": "amb1"})
    assert g.state.sides["insurgent"].ambush_tokens == 3  # 2 + 2 income - 1 (G-29, DD-2.26)
    dep = [e for e in g.events_for("allied", ev) if e["type"] == "reserve_deployed"]
    assert dep and dep[0]["element"] == "gg"
    assert not any(e["type"] == "tokens" for e in g.events_for("allied", ev))
    for s in g.state.living(g.state.elements["gg"]):
        assert base_of(g.book, s).distance(Point(30, 30)) <= 2.0
    assert g.state.on_table(g.state.elements["gg"])


def test_a_reserve_is_not_in_play_before_it_is_sprung():
    """DD-4.8: a reserve's stands block nothing, cannot be hit, and are not targets."""
    g = make_fog([HQ, squad("sq", "allied", 10, 10), squad("vc", "insurgent", 10, 16, reserve=True)], dice=[4])
    assert not any(a["type"] == "fire" for a in g.legal_actions("allied"))
    g.act("allied", {"type": "move", "element": "sq", "mode": "patrol", "to": [10, 15.5]})


def test_a_reserve_needs_a_token_and_cover():
    """DD-2.26: no token, no spring; no cover within 2", no spring."""
    g = make_fog([HQ, squad("vc", "insurgent", 5, 40, reserve=True)], points=POINT, first="insurgent", tokens=0)
    g.state.sides["insurgent"].ambush_tokens = 0
    with pytest.raises(IllegalAction):
        g.act("insurgent", {"type": "spring_reserve", "element": "vc", "point": "amb1"})
    g.state.sides["insurgent"].ambush_tokens = 1
    assert not any(a["type"] == "spring_reserve" for a in g.legal_actions("insurgent"))  # open ground


def test_allied_stealth_blinds_are_blinds_like_any_other():
    """DD-4.33–4.34: ANZAC patrols and LRRP/SEAL teams move as (stealth) Blinds."""
    g = make_fog([HQ, squad("lrrp", "allied", 10, 10, "a1"), squad("vc", "insurgent", 40, 40)],
                 [{"id": "a1", "side": "allied", "at": [10, 10], "stealth": True}], los=1.0, dice=[4])
    assert g.view("allied")["blinds"][0]["stealth"] is True
    assert "stealth" not in g.view("insurgent")["blinds"][0]
    g.act("allied", {"type": "blind_move", "blind": "a1", "mode": "patrol", "to": [14, 10]})
