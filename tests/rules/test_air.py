"""Air support (DD chapter 8; DD-8.5, DD-4.37, DD-3.8, DD-6.10–6.11; G-18, G-19, G-22, G-27, G-38): the
call on a heading, the Pass Deviation Roll, the napalm oval and what it burns, the VC smoke spoof,
gunships on station and the Dustoff escort, the odds, and a save that restores it all."""

from __future__ import annotations

import math

import pytest

from game.rules import odds
from game.rules.errors import IllegalAction
from game.rules.fire_support.air import Gunship, footprint
from game.rules.fire_support.missions import rules
from game.rules.game import Game
from game.rules.state import Clock
from tests.builders import element, game, platoon, scenario, stand
from tests.engine.test_contract import event_problems, offer_problems, view_problems

# A 1.6" belt of triple canopy (x 22.2-23.8) and a bunker in it, on the 1st Squad's east.
TERRAIN = [{"id": "strip", "type": "dense", "polygon": [[22.2, 0], [23.8, 0], [23.8, 48], [22.2, 48]]},
           {"id": "bunker1", "type": "bunker", "polygon": [[22.5, 11.6], [23.5, 11.6], [23.5, 12.4], [22.5, 12.4]]}]
NAPALM = {"type": "call_air", "element": "hq", "asset": "cas_napalm", "at": [23.0, 10.0], "heading": 90,
          "smoke": "red"}


def air_game(support=("cas_napalm",), terrain=TERRAIN, extra=(), **head) -> Game:
    """The platoon west of the belt (its squad at x 10.8-13.2), a VC cell east of it at (30, 10), one cell
    in the jungle (vc2, at (23, 8.5)) and one in the bunker (vc3, at (23, 12))."""
    els = platoon(pc_at=(6.0, 4.0), squad_at=(12.0, 10.0)) + [
        element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 30.0, 10.0, 180)], kind="cell"),
        element("vc2", "insurgent", [stand("vc2_a", "vc_rifle_cell", 23.0, 8.5, 180)], kind="cell"),
        element("vc3", "insurgent", [stand("vc3_a", "vc_rifle_cell", 23.0, 12.0, 180)], kind="cell"),
        *extra,
    ]
    raw = scenario(els, list(terrain), **head)
    raw["support"] = [{"side": "allied", "asset": a, "missions": 2} for a in support]
    return game(raw)


def end_turn(g: Game) -> list[dict]:
    start, turn = len(g.events), g.state.turn
    while g.state.turn == turn and not g.state.over:
        g.act(g.state.to_act, {"type": "pass"})
    return g.events[start:]


def strike(g: Game, action: dict, dice: list[int]) -> list[dict]:
    """Call on turn 1; the 2-turn clock (DD-8.7) brings it at the start of turn 3, with ``dice`` first."""
    g.act("allied", action)
    end_turn(g)
    g.dice.force(dice)
    return end_turn(g)


def of(events, etype, **match):
    return [e for e in events if e["type"] == etype and all(e.get(k) == v for k, v in match.items())]


def rolls(events, purpose):
    return [e for e in events if e["type"] == "roll" and e["purpose"] == purpose]


# -- the strike ---------------------------------------------------------------------------------------------
def test_napalm_on_a_legal_heading_burns_its_oval_and_opens_the_canopy():  # G-19, G-25, G-38, DD-8.5
    g = air_game()
    a, vc = g.state.stands["a"], g.state.stands["vc_a"]
    assert not g.line_of_sight(a, vc).visible  # DD-4.4, G-02: the triple canopy cuts it
    # the deviation 1 (on line); vc2_a (jungle) 4 dice, one hit, save 1; vc3_a (bunker) the same
    ev = strike(g, NAPALM, [1] + [6, 1, 1, 1] + [1] + [6, 1, 1, 1] + [1])
    dev = rolls(ev, "Pass Deviation")[0]
    assert dev["result"] == "on line" and dev["_visible"] == "allied" and "G-22" in dev["clause"]
    pas = of(ev, "air_pass")[0]
    assert pas["_visible"] == "all" and pas["aircraft"] == "a1_skyraider" and pas["heading"] == 90
    assert pas["entry"][1] < 0 and pas["exit"][1] > 48  # it flies in and out beyond the table's edges
    tpl = of(ev, "template")[0]
    assert pas["shape"] == "oval" and (tpl["length"], tpl["width"]) == (6.0, 2.0)  # G-19: 2" x 6"
    to_hit = {e["stand"]: e for e in rolls(ev, "to hit")}
    assert sorted(to_hit) == ["vc2_a", "vc3_a"] and all(len(e["dice"]) == 4 for e in to_hit.values())  # 4 FP
    saves = {e["stand"]: e["need"] for e in rolls(ev, "save")}
    assert saves == {"vc2_a": 6, "vc3_a": 5}  # G-19: no jungle save (6); a bunker still 5+
    burnt = of(ev, "terrain", kind="burnt")
    assert burnt and burnt[0]["_visible"] == "all"
    assert not g.line_of_sight(a, vc).visible  # G-19, G-38: the fire blocks sight until the end of the turn
    assert g.line_of_sight(a, vc).limit == "smoke"
    end_turn(g)
    assert not [c for c in g.state.clocks if c.kind == "burning"]
    assert g.line_of_sight(a, vc).visible  # G-19: the canopy is gone


def test_bombs_crater_and_spooky_lights_the_night():  # G-19, G-25, G-01 T12c, DD-9A.3
    g = air_game(support=("cas_bombs",), terrain=())
    ev = strike(g, {**NAPALM, "asset": "cas_bombs"}, [1])
    assert of(ev, "template")[0]["radius"] == 2.0 and of(ev, "terrain", kind="crater")  # Heavy 4", a crater
    assert len(of(ev, "air_pass")[0]["impacts"]) == 2  # the stick of two, inside the one template
    assert all(len(e["dice"]) == 5 for e in rolls(ev, "to hit"))  # 5 FP
    g = air_game(support=("spooky",), terrain=(), time_of_day="night_dark")
    ev = strike(g, {**NAPALM, "asset": "spooky"}, [1])
    assert of(ev, "air_pass")[0]["aircraft"] == "ac47" and of(ev, "illumination")[0]["radius"] == 3.0
    assert of(ev, "template")[0]["radius"] == 1.5 and all(len(e["dice"]) == 3 for e in rolls(ev, "to hit"))
    assert not footprint(rules(g).assets["spooky"], 23, 10, 90).look_out_sir  # miniguns, not a blast
    assert {e["element"] for e in rolls(ev, "Morale (AC-47 Spooky)")} >= {"vc2", "vc3"}  # all in the zone test


def test_the_call_and_the_deviation_are_the_callers_secret():  # docs/fog.md, G-18
    g = air_game()
    strike(g, NAPALM, [1])
    theirs = g.events_for("insurgent", g.events)
    assert not [e for e in theirs if e["type"] == "fire_mission" or e.get("purpose") == "Pass Deviation"]
    assert [e for e in theirs if e["type"] == "air_pass"] and [e for e in theirs if e["type"] == "template"]
    assert not [e for e in theirs if e.get("colour")]  # the plume went up; its colour is not theirs


def test_napalm_near_a_village_moves_civic_drift():  # DD-9B.9
    hut = {"id": "hut", "type": "hootch", "polygon": [[26, 14], [28, 14], [28, 16], [26, 16]]}
    g = air_game(terrain=[*TERRAIN, hut])
    ev = strike(g, NAPALM, [1])
    assert of(ev, "civic_drift")[0]["drift"] == -2


def test_a_heading_toward_friendly_stands_is_refused():  # G-22, DD-8.5
    g = air_game()
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {**NAPALM, "heading": 200})  # toward the 1st Squad, 11" west of the point
    assert "G-22" in exc.value.clause and "sl" in exc.value.reason
    offer = [o for o in g.legal_actions("allied") if o["type"] == "call_air"][0]
    head = offer["params"]["heading"]
    assert head["arc"] == 45 and head["reach"] == 12 and [12.0, 8.5] in head["friendly"]
    assert (head["length"], head["width"]) == (6.0, 2.0)
    g.act("allied", {**NAPALM, "heading": 90})  # parallel to the line: legal


def test_monsoon_and_daylight_refuse_the_call():  # DD-3.8, G-19
    g = air_game(support=("cas_napalm", "spooky"), weather="monsoon")
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", NAPALM)
    assert exc.value.clause == "DD-3.8"
    assert not [o for o in g.legal_actions("allied") if o["type"] == "call_air"]
    g = air_game(support=("spooky",))
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {**NAPALM, "asset": "spooky"})
    assert exc.value.clause == "G-19"  # AC-47: night only


def test_only_a_radio_calls_and_missions_run_out():  # DD-8.6, DD-8.3
    g = air_game(support=("cas_napalm",))
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {**NAPALM, "element": "sq1"})
    assert exc.value.clause == "DD-8.6"  # no FO, officer or RTO in the squad
    g.act("allied", NAPALM)
    g.act("insurgent", {"type": "pass"})
    g.act("allied", {**NAPALM, "at": [30.0, 30.0]})
    end_turn(g)
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {**NAPALM, "at": [30.0, 20.0]})
    assert exc.value.clause == "DD-8.3"  # 2 missions given, 2 used
    assert not [o for o in g.legal_actions("allied") if o["type"] == "call_air"]


# -- the Pass Deviation Roll (G-22) -----------------------------------------------------------------------------
@pytest.mark.parametrize("dice, where, heading", [
    ([4, 3], (23.0, 7.0), 90.0),     # 4: short, 1d6 = 3" back along the heading
    ([5, 2], (23.0, 12.0), 90.0),    # 5: long, 2" forward
    ([6, 2], (23.0, 10.0), 135.0),   # 6: yaw, 1-3 left (counter-clockwise) 45 degrees
    ([6, 5], (23.0, 10.0), 45.0),    # 6: yaw, 4-6 right
])
def test_short_long_and_yaw_move_the_footprint(dice, where, heading):  # G-22
    g = air_game(terrain=())
    ev = strike(g, NAPALM, dice)
    tpl = of(ev, "template")[0]
    assert (tpl["x"], tpl["y"]) == where and tpl["facing"] == heading
    pas = of(ev, "air_pass")[0]
    assert (pas["x"], pas["y"], pas["heading"]) == (*where, heading)
    dev = rolls(ev, "Pass Deviation")[0]
    assert dev["dice"] == dice and dev["drift"] == [round(where[0] - 23.0, 2), round(where[1] - 10.0, 2)]


def test_an_unmarked_target_rolls_twice_and_a_fac_marks_it():  # G-22, DD-8.5, G-18
    g = air_game(terrain=())
    ev = strike(g, {**NAPALM, "smoke": "none"}, [4, 2, 5, 3])  # short 2", then long 3"
    dev = rolls(ev, "Pass Deviation")[0]
    assert [leg["result"] for leg in dev["legs"]] == ["short", "long"]
    assert any("unmarked" in m["name"] and m["clause"] == "G-22" for m in dev["modifiers"])
    assert (of(ev, "template")[0]["x"], of(ev, "template")[0]["y"]) == (23.0, 11.0)
    g = air_game(support=("cas_napalm", "fac_o1"), terrain=())
    ev = strike(g, {**NAPALM, "smoke": "none"}, [4, 2])
    dev = rolls(ev, "Pass Deviation")[0]
    assert len(dev["legs"]) == 1 and any(m["clause"] == "DD-8.5; G-18" for m in dev["modifiers"])


# -- the VC smoke spoof (DD-4.37) ------------------------------------------------------------------------------------
def test_a_spoof_with_a_failed_radio_check_drifts_2d6_toward_the_spoof():  # DD-4.37, G-18, G-22
    lurk = element("vcs", "insurgent", [stand("vcs_a", "vc_rifle_cell", 7.0, 7.0, 270)], kind="cell")
    g = air_game(terrain=(), extra=[lurk])
    g.act("allied", {**NAPALM, "at": [30.0, 30.0], "heading": 0})  # the red plume goes up at the PC (6, 4)
    plume = [m for m in g.view("insurgent")["markers"] if m.get("purpose") == "marking"][0]
    assert "colour" not in plume  # G-18: chosen secretly
    offer = [o for o in g.legal_actions("insurgent") if o["type"] == "smoke_spoof"][0]
    assert offer["element"] == "vcs" and offer["params"]["plume"]["choices"] == [plume["id"]]
    tokens = g.state.sides["insurgent"].ambush_tokens
    ev = g.act("insurgent", {"type": "smoke_spoof", "element": "vcs", "plume": plume["id"]})
    assert g.state.sides["insurgent"].ambush_tokens == tokens - 1
    assert all(e["_visible"] == "insurgent" for e in ev if e["type"] in ("smoke", "tokens"))
    assert not [m for m in g.view("allied")["markers"] if m.get("purpose") == "spoof"]  # secret from the Allies
    end_turn(g)
    g.dice.force([1, 2, 3, 4])  # on line; Radio Check 2 fails (4+); drift 2d6 = 3 + 4 = 7" toward the spoof
    ev = end_turn(g)
    check = rolls(ev, "RTO Radio Check")[0]
    assert check["result"] == "fail" and check["need"] == 4 and check["_visible"] == "all"
    drift = rolls(ev, "Spoof drift")[0]
    assert drift["distance"] == 7 and "DD-4.37" in drift["clause"]
    sx, sy = 7.0, 7.0
    d = math.hypot(sx - 30.0, sy - 30.0)
    want = (round(30.0 + 7 * (sx - 30.0) / d, 2), round(30.0 + 7 * (sy - 30.0) / d, 2))
    pas = of(ev, "air_pass")[0]
    assert (pas["x"], pas["y"]) == want
    assert not g.state.chapters["fire_support"].plumes and not g.state.chapters["fire_support"].spoofs


# -- gunships (G-27) and the Dustoff escort (DD-6.10-6.11) -------------------------------------------------------
def test_a_gunship_comes_on_station_and_makes_two_runs():  # G-27, G-19, G-22
    g = air_game(support=("gunship",), terrain=())
    g.act("allied", {"type": "call_air", "element": "hq", "asset": "gunship", "at": [23.0, 10.0]})
    ev = end_turn(g)  # G-27: a 1-turn clock
    on = of(ev, "gunship", phase="on_station")[0]
    assert on["turns"] == 3 and on["attacks"] == 2 and on["aircraft"] == "ah1_cobra"
    gid = on["mission"]
    run = {"type": "gunship_run", "element": "hq", "gunship": gid, "at": [23.0, 10.0], "heading": 90}
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {**run, "heading": 180})
    assert "G-22" in exc.value.clause
    g.dice.force([1] + [6, 6, 1, 1] + [1, 1])
    ev = g.act("allied", run)
    dev = rolls(ev, "Pass Deviation")[0]
    assert len(dev["legs"]) == 1 and "DD-8.5" in dev["modifiers"][0]["clause"]  # tracers and clock calls
    tpl = of(ev, "template")[0]
    assert of(ev, "air_pass")[0]["shape"] == "strip" and (tpl["length"], tpl["width"]) == (6.0, 2.0)  # G-19
    hit = [e for e in rolls(ev, "to hit") if e["stand"] == "vc2_a"][0]
    assert len(hit["dice"]) == 4 and hit["need"] == 4 and hit["text"]  # 4 FP, explained
    assert g.state.chapters["fire_support"].gunships[0].attacks == 1
    end_turn(g)
    ev = g.act("allied", run)
    assert of(ev, "gunship", phase="leaves")  # G-27: 2 attacks
    assert not g.state.chapters["fire_support"].gunships


def test_the_gunship_leaves_after_three_turns():  # G-27
    g = air_game(support=("gunship",), terrain=())
    g.act("allied", {"type": "call_air", "element": "hq", "asset": "gunship", "at": [23.0, 10.0]})
    end_turn(g)
    arrived = g.state.turn
    left = []
    while not left and g.state.turn < arrived + 5:
        left = of(end_turn(g), "gunship", phase="leaves")
    assert left and g.state.turn == arrived + 3  # on station turns 2, 3, 4; gone in turn 4's Phase 3


def test_the_escort_strafes_the_hot_lz_firer():  # DD-6.11, DD-6.10, G-27
    from game.rules import casevac

    g = air_game(terrain=())
    fs = g.state.chapters["fire_support"]
    fs.gunships.append(Gunship("fm9", "allied", "gunship", 20.0, 20.0, g.state.turn + 2, 2))
    g.dice.force([5] + [6, 6, 1, 1])  # Hot LZ 5 -> 3 with the escort (DD-6.10); the volley's 4 dice
    start = len(g.events)
    casevac.touchdown(g, Clock("dustoff1", "dustoff", 0, "Dustoff inbound", "all", 23.0, 16.0, colour="violet"))
    ev = g.events[start:]
    hot = rolls(ev, "Hot LZ")[0]
    assert hot["score"] == 3 and "DD-6.10" in hot["clause"]
    assert of(ev, "air_pass", kind="escort")
    volley = rolls(ev, "to hit")[0]
    assert len(volley["dice"]) == 4 and volley["dice"] == [6, 6, 1, 1] and "DD-6.11" in volley["clause"]
    assert fs.gunships[0].attacks == 2  # G-27: the escort is free


# -- the odds (DESIGN §4) --------------------------------------------------------------------------------------
def test_the_odds_weigh_every_deviation_outcome():  # G-22, DD-8.9
    g = air_game(terrain=())
    marked = odds.preview(g, "allied", NAPALM)
    assert marked["p_on_line"] == pytest.approx(0.5) and marked["rolls"] == 1
    assert sum(o["p"] for o in marked["outcomes"]) == pytest.approx(1.0)
    assert marked["stands"]["vc2_a"]["p_under"] > 0.5 and marked["stands"]["vc2_a"]["expected_hits"] > 0
    unmarked = odds.preview(g, "allied", {**NAPALM, "smoke": "none"})
    # both on line 1/4, a short and a long of the same length 12/1296, a left and a right yaw 2/144
    assert unmarked["p_on_line"] == pytest.approx(1 / 4 + 12 / 1296 + 2 / 144)
    near = odds.preview(g, "allied", {**NAPALM, "at": [16.5, 10.0], "heading": 90})
    assert "b" in near["danger_close"] or "b" in near["stands"]  # friend and foe alike
    assert g.events[-1]["type"] != "roll"  # nothing rolled


def test_call_fire_odds_from_the_scatter_die():  # DD-8.8
    g = air_game(support=("battery_105",), terrain=())
    res = odds.preview(g, "allied", {"type": "call_fire", "element": "hq", "asset": "battery_105",
                                      "at": [23.0, 10.0], "round": "he"})
    assert res["p_on_target"] == pytest.approx(2 / 6)
    assert sum(o["p"] for o in res["outcomes"]) == pytest.approx(1.0)
    assert "vc2_a" in res["stands"]


# -- the contract and the save ------------------------------------------------------------------------------------
def test_offers_events_and_views_are_declared():
    lurk = element("vcs", "insurgent", [stand("vcs_a", "vc_rifle_cell", 7.0, 7.0, 270)], kind="cell")
    g = air_game(support=("cas_napalm", "gunship", "cas_bombs"), extra=[lurk])
    problems = [p for o in g.legal_actions("allied") for p in offer_problems(o)]
    g.act("allied", NAPALM)
    problems += [p for o in g.legal_actions("insurgent") for p in offer_problems(o)]
    g.act("insurgent", {"type": "smoke_spoof", "element": "vcs", "plume": g.state.chapters["fire_support"].plumes[0].id})
    g.act("allied", {"type": "call_air", "element": "hq", "asset": "gunship", "at": [30.0, 30.0]})
    for side in ("allied", "insurgent", "referee"):
        problems += view_problems(g.view(side))
    end_turn(g)
    end_turn(g)
    problems += [p for o in g.legal_actions("allied") for p in offer_problems(o)]
    problems += [p for e in g.events_for("referee", g.events) for p in event_problems(e)]
    assert sorted(set(problems)) == []


def test_a_restored_game_after_a_strike_is_the_same():  # DESIGN §5
    g = air_game()
    strike(g, NAPALM, [1])
    a, vc = g.state.stands["a"], g.state.stands["vc_a"]
    h = Game.restore(g.scenario, g.snapshot())
    assert h.hash() == g.hash()
    assert h.line_of_sight(h.state.stands["a"], h.state.stands["vc_a"]).visible == g.line_of_sight(a, vc).visible
    end_turn(g)
    end_turn(h)
    assert h.hash() == g.hash() and h.line_of_sight(h.state.stands["a"], h.state.stands["vc_a"]).visible
