"""The computer players and fire support (DD chapter 8; game/ai/support.py, autopilot.py, ghost.py):
the autopilot calls missions clear of Danger Close (DD-8.9), the Ghost hugs the belt and slips out of
marking smoke (DD-10.2, DD-10.14), the firebase_relief scenario plays to its end with missions called,
and the shipped scenarios (no support) play as they did."""

from __future__ import annotations

import math

import pytest

from game.ai import autopilot, ghost, players, support
from game.ai.facade import SideView
from game.ai.tactics import Picture
from game.rules import template
from game.rules.chapters import tables
from game.rules.fire import combat
from game.rules.scenario import load_scenario, resolve_scenario
from game.rules.state import Clock, base_of
from tests.builders import element, game, scenario, stand


def _hq_with_fo(at=(10.0, 5.0)) -> dict:
    x, y = at
    return element("hq", "allied", [stand("pc", "us_platoon_commander", x, y), stand("rto", "us_rto", x + 1.3, y),
                                     stand("fo", "us_forward_observer", x - 1.3, y)], kind="hq", name="HQ")


def _squad(at=(10.0, 10.0), eid="sq1") -> dict:
    x, y = at
    return element(eid, "allied", [stand(f"{eid}_sl", "us_squad_leader", x, y - 1.5),
                                   stand(f"{eid}_a", "us_rifle_team", x - 1.2, y),
                                   stand(f"{eid}_b", "us_rifle_team", x + 1.2, y)], name=eid)


def _cell(eid, at) -> dict:
    x, y = at
    return element(eid, "insurgent", [stand(f"{eid}_a", "vc_rifle_cell", x, y, 270),
                                      stand(f"{eid}_b", "vc_rifle_cell", x + 2.2, y, 270)], kind="cell")


def _support_game(elements, support_rows, insurgent_to_act=False):
    raw = scenario(elements)
    raw["support"] = support_rows
    g = game(raw)
    if insurgent_to_act:
        g.act("allied", {"type": "pass"})
        assert g.state.to_act == "insurgent"
    return g


BATTERY = [{"side": "allied", "asset": "battery_105", "missions": 2}]


def _clear_of_danger_close(g, side, at, asset_id) -> bool:
    """The engine's own measure (template.gap, combat.toml [danger_close]): every stand of ``side``
    more than the danger-close distance from the template's edge, none under it."""
    r = tables(g.book, "fire_support")
    a = r.assets[asset_id]
    tpl = template.circle(at[0], at[1], a.radius)
    return all(tpl.gap(base_of(g.book, s)) > combat().danger_close.reach for s in g.state.side_stands(side))


def test_the_autopilot_calls_fire_only_clear_of_danger_close():  # DD-8.6, DD-8.9
    # A cell close to the squad (inside the danger-close ring) and a cell out in the open 14" off: only
    # the far one may be shelled; and the call keeps every US stand outside 4" of the template.
    g = _support_game([_hq_with_fo(), _squad(), _cell("near", (11.0, 14.5)), _cell("far", (21.0, 20.0))], BATTERY)
    f = SideView.of(g, "allied")
    assert {s["element"] for s in f.view["stands"] if s["side"] == "insurgent"} == {"near", "far"}
    pic = Picture(f)
    calls = support.call_options(pic, "hq")
    assert calls, "a battery on call and an enemy in the open: a mission is planned"
    for _, action in calls:
        assert action["type"] == "call_fire"
        assert _clear_of_danger_close(g, "allied", action["at"], action["asset"]), action
        assert f.check(action) is None
        assert math.dist(action["at"], (21.0, 20.0)) < 3.0  # the far cell, not the near one
    assert calls[0][1]["stand"] == "fo"  # the Forward Observer calls it
    choice = autopilot.decide(f)
    if choice["type"] == "call_fire":
        assert _clear_of_danger_close(g, "allied", choice["at"], choice["asset"])


def test_no_call_when_every_target_is_danger_close():  # DD-8.9, DD-10.14
    g = _support_game([_hq_with_fo(), _squad(), _cell("near", (11.0, 14.5))], BATTERY)
    f = SideView.of(g, "allied")
    assert not support.call_options(Picture(f), "hq")
    assert autopilot.decide(f)["type"] != "call_fire"


def test_an_air_strike_flies_a_heading_the_engine_accepts_clear_of_our_men():  # DD-8.5, DD-8.9, G-22
    g = _support_game([_hq_with_fo(), _squad(), _cell("far", (21.0, 20.0))],
                      [{"side": "allied", "asset": "cas_napalm", "missions": 1}])
    f = SideView.of(g, "allied")
    pic = Picture(f)
    plans = support.air_options(pic, "hq")
    assert plans, "napalm on call and a cell in the open: a strike is planned"
    _, action = plans[0]
    assert action["type"] == "call_air" and f.check(action) is None  # G-22: never toward friendly troops
    a = f.view["fire_support"]["assets"]["cas_napalm"]
    assert support.air_clear(pic, a, action["at"][0], action["at"][1], action["heading"])
    # Every heading that would bring a deviated footprint within 4" of our men is left out.
    refused = [h for h in support.COMPASS if not support.air_clear(pic, a, action["at"][0], action["at"][1], h)]
    assert action["heading"] not in refused


def test_the_danger_close_distance_is_the_engines():  # DD-8.9: from combat.toml, not the AI
    g = _support_game([_hq_with_fo(), _squad(), _cell("far", (21.0, 20.0))], BATTERY)
    pic = Picture(SideView.of(g, "allied"))
    assert support.danger_close(pic) == combat().danger_close.reach
    assert support.belt(pic) is None  # the Insurgent has no support here: nothing to hug against


def test_the_ghost_closes_inside_the_belt_against_artillery():  # DD-10.2, DD-10.14
    # A revealed cell 9" from the US squad, out of the belt of the US battery's Danger Close: with no
    # good shot it moves in, to within the belt of the nearest US stand.
    g = _support_game([_hq_with_fo(), _squad(), _cell("vc", (10.0, 19.5))], BATTERY, insurgent_to_act=True)
    pic = Picture(SideView.of(g, "insurgent"))
    belt = support.belt(pic)
    assert belt == pytest.approx(support.danger_close(pic) + tables(g.book, "fire_support").assets["battery_105"].radius
                                 + support.BELT_BASE)
    act = ghost.close_belt(pic, "vc", 0.0)
    assert act is not None and act["type"] == "move"
    to = act["to"]
    near = min(math.dist(to, (s.x, s.y)) for s in g.state.side_stands("allied"))
    assert ghost.STANDOFF - 1.0 <= near <= belt
    # Without enemy support it does not (the shipped scenarios' Ghost is unchanged).
    g2 = _support_game([_hq_with_fo(), _squad(), _cell("vc", (10.0, 19.5))], [], insurgent_to_act=True)
    assert ghost.close_belt(Picture(SideView.of(g2, "insurgent")), "vc", 0.0) is None


def test_the_ghost_slips_out_of_smoke_it_can_see():  # DD-10.2; WP smoke is public (G-19, G-38)
    g = _support_game([_hq_with_fo(), _squad(), _cell("vc", (30.0, 30.0))], BATTERY, insurgent_to_act=True)
    g.state.clocks.append(Clock("wp1", "wp_smoke", 2, "WP smoke", "all", 31.0, 30.0, 1.5, blocks_sight=True))
    pic = Picture(SideView.of(g, "insurgent"))
    act = ghost.slip(pic, "vc")
    assert act is not None and act["type"] == "move"
    assert math.dist(act["to"], (31.0, 30.0)) > 1.5 + ghost.SLIP_MARGIN


def test_firebase_relief_loads_and_plays_to_the_end_with_fire_missions():
    sc = load_scenario("scenarios/firebase_relief.toml")
    assert sc.width == 72 and sc.height == 48  # DD-1.2: a 6'x4' table
    assert {(s.side, s.asset) for s in sc.support} >= {("allied", "battery_105"), ("allied", "mortar_81")}
    g = players.new_game(resolve_scenario("firebase_relief"), 3, 2, {"allied": "ai", "insurgent": "ai"})
    steps = 0
    while not g.state.over and steps < 4000:
        players.take_turn(g, g.state.to_act)
        steps += 1
    assert g.state.over and g.state.result["winner"] in ("allied", "insurgent", None)
    calls = [e for e in g.events if e["type"] == "fire_mission" and e["phase"] == "call"]
    assert calls, "at least one fire mission was called"
    assert any(e["type"] == "fire_mission" and e["phase"] == "impact" for e in g.events)


@pytest.mark.parametrize("scenario_id", ["village_sweep", "rubber_plantation"])
def test_without_support_the_ai_plays_as_before(scenario_id, monkeypatch):
    # The shipped scenarios have no fire support: with the fire-support planning switched off, the game
    # is the same, move for move.
    def play():
        g = players.new_game(resolve_scenario(scenario_id), 5, 2, {"allied": "ai", "insurgent": "ai"})
        for _ in range(60):
            if g.state.over:
                break
            players.take_turn(g, g.state.to_act)
        return g.hash()

    with_support = play()
    monkeypatch.setattr(autopilot, "support_options", lambda pic, eid: [])
    for name in ("close_belt", "slip", "bombard"):
        monkeypatch.setattr(ghost, name, lambda *a, **k: None)
    assert play() == with_support
