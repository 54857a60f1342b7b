"""CASEVAC (DD chapter 6; DD-2.16, DD-3.8, DD-3.10, DD-3.17; G-18, G-27, G-30, G-33; C-01, C-02, C-11)
with forced dice on tiny tables."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from game.rules import fire
from game.rules.casevac import Helicopter
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import build_scenario
from game.rules.state import Token
from game.rules.turn import end_game, start_turn


def make(elements, terrain=(), weather="clear", special=(), los=True) -> Game:
    els = []
    for eid, side, stands in elements:
        els.append({"id": eid, "side": side, "name": eid, "kind": "squad" if side == "allied" else "cell",
                    "stand": [{"id": s[0], "type": s[1], "at": [s[2], s[3]],
                               "facing": 90 if side == "allied" else 270} for s in stands]})
    raw = {
        "scenario": {"id": "t", "title": "t", "table": {"width": 48, "height": 48}, "turns": 6,
                     "weather": weather, "time_of_day": "day", "first_side": "allied",
                     "special_rules": list(special)},
        "terrain": list(terrain),
        "side": [{"id": "allied", "faction": "us_army", "name": "A"},
                 {"id": "insurgent", "faction": "vc_main_force", "name": "I"}],
        "element": els,
    }
    g = Game(build_scenario(raw), 1, start=False)
    if los:
        g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    start_turn(g)
    g.state.sides["allied"].cp = 20
    return g


SQUAD = ("sq", "allied", [("sq_sl", "us_squad_leader", 22, 8.5), ("sq_a", "us_rifle_team", 20, 10),
                          ("sq_b", "us_rifle_team", 24, 10)])
FAR_CELL = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 40, 44), ("vc_b", "vc_rifle_cell", 43, 44)])
NEAR_CELL = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 22, 20), ("vc_b", "vc_rifle_cell", 25, 20)])


def token(g: Game, tid: str, x: float, y: float, state: str = "wounded") -> dict:
    tok = Token(tid, "allied", x, y, state)
    g.state.tokens.append(tok)
    return tok


def allied(g: Game, action: dict) -> list[dict]:
    ev = g.act("allied", action)
    if g.state.to_act == "insurgent":
        ev += g.act("insurgent", {"type": "pass"})
    return ev


def end_turn(g: Game) -> list[dict]:
    start = len(g.events)
    turn = g.state.turn
    while g.state.turn == turn and not g.state.over:
        g.act(g.state.to_act, {"type": "pass"})
    return g.events[start:]


def dustoff(events, phase):
    return [e for e in events if e["type"] == "dustoff" and e["phase"] == phase]


def markers(g: Game, kind: str, side: str = "insurgent"):
    return [m for m in g.view(side)["markers"] if m["kind"] == kind]


# -- Buddy Aid ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("die,state", [(4, "stabilized"), (3, "wounded")])
def test_buddy_aid_non_medic_stabilizes_on_4(die, state):
    g = make([SQUAD, FAR_CELL])
    tok = token(g, "cas1", 20, 11.1)  # in base contact with sq_a
    g.dice.force([die])
    ev = allied(g, {"type": "buddy_aid", "element": "sq", "token": "cas1", "stand": "sq_a"})
    roll = [e for e in ev if e["type"] == "roll" and e["purpose"] == "Buddy Aid"][0]
    assert roll["target"] == 4 and "G-33 (2)" in roll["clause"]  # DD-2.16, G-33 (2)
    assert tok.state == state


def test_buddy_aid_medic_is_automatic_and_needs_contact():
    g = make([("med", "allied", [("m", "us_medic", 20, 10), ("m_sl", "us_squad_leader", 22, 10)]), FAR_CELL])
    tok = token(g, "cas1", 20, 10.95)
    far = token(g, "cas2", 30, 30)
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "buddy_aid", "element": "med", "token": "cas2"})
    assert "DD-2.16" in exc.value.clause
    ev = allied(g, {"type": "buddy_aid", "element": "med", "token": "cas1"})
    assert not [e for e in ev if e["type"] == "roll"]  # G-33 (2): a Medic needs no roll
    assert tok.state == "stabilized" and far.state == "wounded"
    with pytest.raises(IllegalAction):  # G-33 (3): stabilized already
        g.act("allied", {"type": "buddy_aid", "element": "med", "token": "cas1"})


# -- Litter Teams ------------------------------------------------------------------------------------
def test_litter_drag_caps_the_move_at_3_inches_and_the_token_follows():
    g = make([SQUAD, FAR_CELL])
    tok = token(g, "cas1", 20, 11.1)
    allied(g, {"type": "litter", "element": "sq", "token": "cas1", "stand": "sq_a"})  # DD-6.2
    assert tok.carrier == "sq_a"
    with pytest.raises(IllegalAction) as exc:  # DD-6.3: at most 3" per move
        g.act("allied", {"type": "move", "mode": "patrol", "element": "sq", "to": [22, 5.5]})
    assert "DD-6.3" in exc.value.clause
    allied(g, {"type": "move", "mode": "patrol", "element": "sq", "to": [22, 6.5]})
    a = g.state.stands["sq_a"]
    assert (tok.x, tok.y) == (a.x, a.y)  # the token travels with the Litter Team
    view = g.view("insurgent")
    assert [s for s in view["stands"] if s["id"] == "sq_a"][0]["litter"] == "cas1"
    assert [m for m in view["markers"] if m["id"] == "cas1"][0]["carried_by"] == "sq_a"


def test_litter_team_ignores_coherency_and_drop_is_free():
    g = make([SQUAD, FAR_CELL])
    tok = token(g, "cas1", 20, 11.1)
    allied(g, {"type": "litter", "element": "sq", "token": "cas1", "stand": "sq_a"})
    # G-33 (1): the Litter Team 3" behind the squad breaks 2" coherency, and that is allowed.
    allied(g, {"type": "move", "mode": "patrol", "element": "sq",
               "stands": {"sq_sl": [22, 8.5], "sq_a": [17.5, 8.5], "sq_b": [24, 10]}})
    cp, impulse = g.state.sides["allied"].cp, g.state.impulse
    g.act("allied", {"type": "litter_drop", "token": "cas1"})
    assert tok.carrier is None and g.state.sides["allied"].cp == cp  # G-33 (1): free
    assert g.state.to_act == "allied" and g.state.impulse == impulse  # the impulse goes on


def test_ringed_medium_stand_is_not_healthy():
    g = make([SQUAD, FAR_CELL])
    g.state.stands["sq_a"].hits = 1
    token(g, "cas1", 20, 11.1)
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "litter", "element": "sq", "token": "cas1", "stand": "sq_a"})
    assert "G-33 (1)" in exc.value.clause


def test_litter_team_cannot_shoot():
    g = make([("lt", "allied", [("lt_a", "us_rifle_team", 22, 10)]),
              ("hq", "allied", [("hq_sl", "us_squad_leader", 10, 5)]), NEAR_CELL])
    token(g, "cas1", 22, 11.1)
    assert any(a["type"] == "fire" and a["element"] == "lt" for a in g.legal_actions("allied"))
    allied(g, {"type": "litter", "element": "lt", "token": "cas1", "stand": "lt_a"})
    assert not any(a["type"] == "fire" and a["element"] == "lt" for a in g.legal_actions("allied"))  # DD-6.3
    assert fire.legal_targets(g, g.state.elements["lt"], [g.state.stands["lt_a"]]) == []
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "fire", "element": "lt", "target": "vc_a"})


# -- Pop Smoke ---------------------------------------------------------------------------------------
def test_pop_smoke_refused_where_the_lz_is_not_clear():
    dense = {"id": "d", "type": "dense", "polygon": [[25, 0], [30, 0], [30, 20], [25, 20]]}
    g = make([SQUAD, FAR_CELL], terrain=[dense])
    token(g, "cas1", 20, 11.1)
    with pytest.raises(IllegalAction) as exc:  # DD-6.6: dense trees within 3" of (23, 10)
        g.act("allied", {"type": "pop_smoke", "element": "sq", "at": [23, 10]})
    assert exc.value.clause == "DD-6.6"
    ev = allied(g, {"type": "pop_smoke", "element": "sq", "at": [20, 9]})  # clear: nearest tree 5" off
    assert dustoff(ev, "inbound")[0]["colour"] == "violet"  # G-18


def test_pop_smoke_needs_a_stand_in_the_lz_and_one_dustoff_at_a_time():
    g = make([SQUAD, FAR_CELL])
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "pop_smoke", "element": "sq", "at": [30, 20]})
    assert exc.value.clause == "DD-6.7"
    allied(g, {"type": "pop_smoke", "element": "sq", "at": [22, 9], "colour": "yellow"})
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "pop_smoke", "element": "sq", "at": [22, 9]})
    assert exc.value.clause == "G-33 (7)"


def test_monsoon_grounds_the_dustoff():
    g = make([SQUAD, FAR_CELL], weather="monsoon")
    token(g, "cas1", 20, 11.1)
    assert not any(a["type"] == "pop_smoke" for a in g.legal_actions("allied"))
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "pop_smoke", "element": "sq", "at": [22, 9]})
    assert exc.value.clause == "DD-3.8"


# -- Clock, touchdown, extraction ----------------------------------------------------------------------
def test_clock_touchdown_and_extraction_scores_2_vp():
    g = make([SQUAD, FAR_CELL])
    tok = token(g, "cas1", 20, 11.1)
    allied(g, {"type": "litter", "element": "sq", "token": "cas1", "stand": "sq_a"})
    # The squad's second activation this turn (G-28): the turn then ends by itself.
    ev = allied(g, {"type": "pop_smoke", "element": "sq", "at": [21, 12.6], "colour": "violet"})
    assert dustoff(ev, "inbound")[0]["turns"] == 1  # DD-6.7: a 1-turn clock
    assert markers(g, "smoke")[0]["colour"] == "violet"  # public smoke marker
    assert [e for e in ev if e["type"] == "clock" and e["turns"] == 0]
    td = dustoff(ev, "touchdown")[0]  # DD-6.8: the start of the next turn, on the smoke
    assert (td["x"], td["y"]) == (21, 12.6) and g.state.turn == 2
    assert not [e for e in ev if e["type"] == "roll" and e["purpose"] == "Hot LZ"]  # a cold LZ
    assert markers(g, "helicopter")
    # The Litter Team walks into contact with the UH-1 (3" move), which leaves in Phase 3.
    start = len(g.events)
    allied(g, {"type": "move", "mode": "patrol", "element": "sq",
               "stands": {"sq_sl": [22, 8.5], "sq_a": [20.5, 10.5], "sq_b": [24, 10]}})
    if g.state.turn == 2:
        end_turn(g)
    ev = g.events[start:]
    dep = dustoff(ev, "departure")[0]
    assert dep["tokens"] == ["cas1"] and dep["vp_gained"] == 2  # DD-6.12, DD-3.10
    assert tok.state == "extracted" and g.state.sides["allied"].vp == 2
    assert not markers(g, "helicopter") and not markers(g, "smoke")
    end_game(g, "test", "DD-2.34")
    assert g.state.result["vp"] == 2  # C-02: an extracted casualty is not left on the table


def test_kia_extracted_scores_0_and_capacity_is_3():
    g = make([("a", "allied", [(f"s{i}", "us_scout", 10 + 3 * i, 10) for i in range(4)]), FAR_CELL])
    for i in range(4):
        tok = token(g, f"cas{i}", 10 + 3 * i, 10, state="kia" if i == 0 else "stabilized")
        tok.carrier = f"s{i}"
    g.state.chapters["casevac"].helicopter = Helicopter("dustoff1", 14.5, 12.3, "violet", 1.5, False, 1)
    # Four scouts, each carrying a token, touch the UH-1's 1.5" circle (DD-6.12).
    for i, (x, y) in enumerate([(14.5, 10.31), (14.5, 14.29), (12.37, 12.3), (16.63, 12.3)]):
        st = g.state.stands[f"s{i}"]
        st.x, st.y = x, y
    from game.rules.casevac import departure

    departure(g)
    ev = dustoff(g.events, "departure")[0]
    assert len(ev["tokens"]) == 3 and "cas0" not in ev["tokens"]  # G-33 (6): living first, 3 max
    assert ev["vp_gained"] == 6
    g.state.chapters["casevac"].helicopter = Helicopter("dustoff2", 14.5, 12.3, "violet", 1.5, False, 1)
    departure(g)
    kia = g.state.tokens[0]
    assert kia.extracted and kia.state == "kia" and g.state.sides["allied"].vp == 6  # 0 VP
    end_game(g, "test", "DD-2.34")
    assert g.state.result["vp"] == 6 - 3  # C-02: the KIA's -3 stands


# -- Hot LZ ------------------------------------------------------------------------------------------
def hot(die: int, special=()) -> tuple[Game, list[dict]]:
    g = make([SQUAD, NEAR_CELL], special=special)
    token(g, "cas1", 20, 11.1)
    allied(g, {"type": "litter", "element": "sq", "token": "cas1", "stand": "sq_a"})
    g.dice.force([die])
    # The squad's second activation: the turn ends, and the next begins with the touchdown.
    return g, allied(g, {"type": "pop_smoke", "element": "sq", "at": [20, 12.1]})  # the UH-1 touches sq_a


def test_hot_lz_waved_off_returns_next_tension():
    g, ev = hot(1)
    roll = [e for e in ev if e["type"] == "roll" and e["purpose"] == "Hot LZ"][0]
    assert roll["result"] == "wave_off" and roll["element"] == "vc" and "DD-6.9" in roll["clause"]
    assert dustoff(ev, "wave_off") and g.state.chapters["casevac"].helicopter is None
    assert [c for c in g.state.clocks if c.kind == "dustoff" and c.turns == 1]
    g.dice.force([3])  # G-33 (7): a new Hot LZ roll on the return
    ev = end_turn(g)
    assert dustoff(ev, "touchdown") and g.state.chapters["casevac"].helicopter


@pytest.mark.parametrize("die", [2, 3, 4])
def test_hot_lz_scratches_loading_proceeds(die):
    g, ev = hot(die)
    assert dustoff(ev, "touchdown") and not g.state.chapters["casevac"].helicopter.damaged  # DD-6.9 2-4


def test_hot_lz_copilot_hit_extracts_at_once_and_a_new_call_may_follow():
    g, ev = hot(5)
    td = dustoff(ev, "touchdown")[0]
    assert td["damaged"]
    dep = dustoff(ev, "departure")[0]  # DD-6.9 5: lands, extracts, leaves
    assert dep["tokens"] == ["cas1"] and g.state.sides["allied"].vp == 2
    assert g.state.chapters["casevac"].helicopter is None
    token(g, "cas9", 23, 11.1)
    allied(g, {"type": "pop_smoke", "element": "sq", "at": [21, 12.6]})  # G-33 (7): a new call


def test_hot_lz_shot_down_crashes_with_two_casualties_and_a_2_turn_clock():
    g, ev = hot(6)
    crash = dustoff(ev, "crash")[0]
    assert crash["x"] == 20 and len(crash["tokens"]) == 2  # DD-6.9 6
    new = [t for t in g.state.tokens if t.id in crash["tokens"]]
    assert all(abs(t.x - 20) <= 2 and abs(t.y - 12.1) <= 2 for t in new)  # G-33 (8)
    assert g.state.sides["allied"].vp == -3  # G-30
    assert markers(g, "wreck") and not markers(g, "smoke")
    ev = allied(g, {"type": "pop_smoke", "element": "sq", "at": [21, 12.6]})
    assert dustoff(ev, "inbound")[0]["turns"] == 2  # G-33 (7)


def test_hot_lz_escort_c11():
    g, ev = hot(5, special=["gunship_on_station"])
    roll = [e for e in ev if e["type"] == "roll" and e["purpose"] == "Hot LZ"][0]
    assert roll["score"] == 3 and roll["result"] == "scratches"  # DD-6.10: 5 drops to 3
    g, ev = hot(1, special=["gunship_on_station"])
    assert [e for e in ev if e["type"] == "roll" and e["purpose"] == "Hot LZ"][0]["score"] == 2  # C-11 floor
    g, ev = hot(6, special=["gunship_on_station"])
    assert dustoff(ev, "crash")  # C-11: a natural 6 is unmodified


def test_pinned_enemy_does_not_fire_on_the_dustoff():
    g = make([SQUAD, NEAR_CELL])
    g.state.elements["vc"].pinned = True
    allied(g, {"type": "pop_smoke", "element": "sq", "at": [21, 12.6]})
    g.state.elements["vc"].pinned = True
    g.dice.force([1])  # the Pinned cell fails its end-of-turn rally (DD-2.33) and stays Pinned
    ev = end_turn(g)
    assert not [e for e in ev if e["type"] == "roll" and e["purpose"] == "Hot LZ"]  # DD-6.9 unsuppressed


# -- walking wounded (DD-3.16) --------------------------------------------------------------------------------
def _ringed():
    g = make([("med", "allied", [("m", "us_medic", 20, 10), ("m_sl", "us_squad_leader", 22, 10)]),
              ("sq2", "allied", [("r", "us_rifle_team", 20, 11.15)]), FAR_CELL])
    g.state.stands["r"].hits = 1  # a Red Casualty Ring (DD-5.11)
    return g


@pytest.mark.parametrize("die, ring", [(5, False), (4, True)])
def test_a_medic_removes_a_red_ring_on_5_plus(die, ring):  # DD-3.16
    g = _ringed()
    offer = [a for a in g.legal_actions("allied") if a["type"] == "treat_wounded"]
    assert offer and offer[0]["params"]["stand"]["choices"] == ["r"]
    g.dice.force([die])
    cp = g.state.sides["allied"].cp
    ev = allied(g, {"type": "treat_wounded", "element": "med", "stand": "r"})
    roll = [e for e in ev if e["type"] == "roll" and e["purpose"] == "Walking wounded"][0]
    assert roll["need"] == 5 and roll["clause"] == "DD-3.16"
    assert (g.state.stands["r"].hits == 1) is ring and g.state.sides["allied"].cp < cp


def test_walking_wounded_needs_a_medic_in_contact():  # DD-3.16
    g = _ringed()
    g.state.stands["r"].y = 14.0
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "treat_wounded", "element": "med", "stand": "r"})
    assert exc.value.clause == "DD-3.16"
