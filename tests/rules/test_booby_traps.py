"""Booby traps (DD-9B.1–9B.2; G-08; TUN-7, TUN-23; G-35; G-13; G-09) with forced dice.

Each test is a tiny table: a squad (a leader and a rifle team) walking north past the Insurgent's secret
tokens, what is hidden where, the dice forced, the end state checked.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from shapely.geometry import Point, box

from game.rules import booby_traps as bt
from game.rules import jungle_ghost as jg
from game.rules.game import Game
from game.rules.scenario import ScenarioError, build_scenario
from game.rules.state import Blind, base_of, disc
from game.rules.turn import start_turn
from tests.builders import element, scenario, stand

HOOTCH = {"id": "h1", "type": "hootch", "point": [16.5, 13], "size": [2.5, 2]}  # beside the squad's way north
ON_THE_WAY = {**HOOTCH, "point": [12, 13]}  # across the rifle team's way
JUNGLE = {"id": "j1", "type": "dense", "polygon": [[30, 30], [40, 30], [40, 40], [30, 40]]}
CHIT = {"id": "path", "at": [12, 13]}  # on the rifle team's way north (its base touches it after ~1.5")
FAR = {"id": "far", "at": [40, 5]}
MOVE = {"type": "move", "mode": "patrol", "element": "sq", "to": [10, 14]}  # the centre (11, 9.25): 4.75" north, 1" west


def squad(kind: str = "us_rifle_team") -> dict:
    return element("sq", "allied", [stand("sl", "us_squad_leader", 10, 8.5), stand("a", kind, 12, 10)],
                   name="1st Squad")


def cell(at=(12, 20), **extra) -> dict:
    return element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", at[0], at[1], 270)], kind="cell",
                   name="VC cell", **extra)


def raw_of(traps, elements=None, terrain=(HOOTCH, JUNGLE)) -> dict:
    raw = scenario(elements or [squad(), cell(at=(44, 44))], list(terrain), first_side="allied", weather="clear",
                   time_of_day="day", turns=6)
    if traps is not None:
        raw["booby_trap"] = list(traps)
    return raw


def make(traps=(CHIT, FAR), elements=None, terrain=(HOOTCH, JUNGLE), tokens: int = 0) -> Game:
    g = Game(build_scenario(raw_of(traps, elements, terrain)), 1, start=False)
    g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    start_turn(g)
    g.state.sides["allied"].cp = 6
    g.state.sides["insurgent"].ambush_tokens = tokens
    assert g.state.to_act == "allied"
    return g


def rolls(events, purpose):
    return [e for e in events if e["type"] == "roll" and e["purpose"] == purpose]


def of(events, kind):
    return [e for e in events if e["type"] == kind]


def trap(g, tid):
    return next(t for t in bt._state(g).traps if t.id == tid)


def spring_on(g, die_rolls, *, stand_id="a", at=(12, 12)):
    """Spring a trap at ``at`` under the squad with these dice; the events it made."""
    n = len(g.events)
    g.dice.force(die_rolls)
    out = bt.spring(g, g.state.elements["sq"], at[0], at[1], 0, "a test trap", "DD-9B.2", name="trap9",
                    stand=g.state.stands[stand_id])
    return out, g.events[n:]


# -- the table (G-08) ------------------------------------------------------------------------------------------
def test_the_hazard_table_is_g08_and_the_ghost_reads_the_same_rows():  # G-08; DD-9B.1; G-09
    t = bt.load_booby_traps()
    assert [t.trap[r].result for r in range(1, 7)] == ["dud", "punji", "grenade", "mine", "alarm", "claymore"]
    assert all(t.trap[r].clause == f"G-08 {r}" for r in range(1, 7))
    assert (t.setup.fewest, t.setup.most) == (2, 4)  # DD-9B.1: 2 to 4 tokens
    assert jg.load_ghost().trap == t.trap  # one table: the Jungle Ghost's reveal-table traps roll it too


# -- reading the scenario (DD-9B.1) ---------------------------------------------------------------------------
def test_tokens_are_read_on_a_path_or_a_hootch_doorway():  # DD-9B.1
    sc = build_scenario(raw_of([{"at": [12, 13]}, {"id": "door", "feature": "h1"}]))
    a, b = sc.sections["booby_trap"]
    assert (a.id, a.x, a.y, a.feature) == ("bt1", 12.0, 13.0, None)  # default ids bt1, bt2, ...
    assert b.id == "door" and b.feature == "h1"
    assert box(15.25, 12, 17.75, 14).contains(Point(b.x, b.y))  # its chit marks the hootch


@pytest.mark.parametrize("rows, where, says", [
    ([{"at": [5, 5]}], "booby_trap", "1 booby trap(s): the Insurgent places 2 to 4"),  # DD-9B.1
    ([{"at": [i, 5]} for i in range(1, 6)], "booby_trap", "5 booby trap(s)"),  # DD-9B.1
    ([{"at": [5, 5], "feature": "h1"}, {"at": [6, 6]}], "booby_trap[0].at", "either `at`"),
    ([{"feature": "h9"}, {"at": [6, 6]}], "booby_trap[0].feature", "no terrain feature 'h9'"),
    ([{"feature": "j1"}, {"at": [6, 6]}], "booby_trap[0].feature", "a trapped doorway is a hootch or bunker"),
    ([{"at": [60, 5]}, {"at": [6, 6]}], "booby_trap[0].at", "off the 48x48 table"),
    ([{"id": "x", "at": [1, 1]}, {"id": "x", "at": [2, 2]}], "booby_trap[1].id", "duplicate booby trap id 'x'"),
    ([{"at": [1, 1], "colour": "red"}, {"at": [2, 2]}], "booby_trap[0].colour", "unknown field"),
    ([{"feature": "h1"}, {"feature": "h1"}], "booby_trap[1].feature", "already trapped"),
    ([{"at": "here"}, {"at": [2, 2]}], "booby_trap[0].at", "should be a point"),
])
def test_a_bad_token_names_its_row_and_field(rows, where, says):  # DD-9B.1
    with pytest.raises(ScenarioError) as err:
        build_scenario(raw_of(rows))
    assert any(p.field == where and says in p.message for p in err.value.problems), err.value.problems


def test_a_scenario_without_tokens_has_no_chapter():  # DD-9B.1 (older scenarios keep their state)
    g = make(traps=None)
    assert bt._state(g) is None and not bt.CHAPTER_OBJ.active(g)
    assert "booby_traps" not in g.state.chapters


# -- the trigger (DD-9B.2) and the stop (G-08) -------------------------------------------------------------------
def test_a_stand_that_walks_over_a_chit_springs_it_and_the_move_stops_there():  # DD-9B.2; G-08 3; G-08
    g = make()
    g.dice.force([4] + [1, 1] + [6])  # 4 - 1 (Patrol Move) = 3: a grenade; both FP dice miss; Morale 6
    ev = g.act("allied", MOVE)
    frozen = of(ev, "move")
    assert len(frozen) == 1 and frozen[0]["frozen"] and frozen[0]["reaction"] == "booby_traps"  # G-08: it stops
    a = g.state.stands["a"]
    assert base_of(g.book, a).intersects(disc(12, 13, bt.rules(g).trigger.chit)) and a.y < 13  # at the trap
    roll = rolls(ev, "Booby Trap")[0]
    assert roll["dice"] == [4] and roll["result"] == 3 and "DD-9B.2" in roll["clause"]
    assert roll["modifiers"] == [{"name": "Patrol Move", "value": -1, "clause": "G-08; DD-2.8"}]  # G-08
    boom = of(ev, "booby_trap")[0]
    assert (boom["trap"], boom["result"], boom["stand"], boom["_visible"]) == ("trap1", "grenade", "a", "all")
    tpl = of(ev, "template")[0]
    assert tpl["kind"] == "booby_trap" and tpl["radius"] == 0.5 and (tpl["x"], tpl["y"]) == (a.x, a.y)  # G-25
    assert len(rolls(ev, "to hit")[0]["dice"]) == 2  # G-08 3: 2 FP
    assert trap(g, "path").state == "sprung" and trap(g, "far").state == "hidden"


def test_a_dud_is_disarmed_and_the_move_goes_on():  # G-08 1
    g = make()
    g.dice.force([1])
    ev = g.act("allied", MOVE)
    assert of(ev, "booby_trap")[0]["result"] == "dud"
    assert (g.state.stands["a"].x, g.state.stands["a"].y) == (11, 14.75)  # the whole move
    assert trap(g, "path").state == "found"
    assert {"id": "trap1", "kind": "booby_trap", "side": "insurgent", "x": 12.0, "y": 13.0,
            "state": "found"} in g.view("allied")["markers"]


def test_a_trapped_hootch_springs_when_a_stand_enters_it():  # DD-9B.1; DD-9B.2; G-08 2
    g = make(traps=[{"id": "door", "feature": "h1"}, FAR], terrain=[ON_THE_WAY])
    g.dice.force([3] + [6] * 4)  # 3 - 1 = 2: punji stakes; Morale 6
    ev = g.act("allied", {**MOVE, "to": [11, 11.5]})  # 2.25" north, into the hootch's footprint
    assert of(ev, "move")[0]["reaction"] == "booby_traps"
    a = g.state.stands["a"]
    assert base_of(g.book, a).intersects(bt._footprint(g, trap(g, "door")))
    boom = of(ev, "booby_trap")[0]
    assert boom["result"] == "punji" and boom["stand"] == "a"
    assert not rolls(ev, "save") and not of(ev, "template")  # G-08 2: 1 hit, no save, no template
    assert a.hits == 1 or not a.alive
    assert [r for r in of(ev, "roll") if r["purpose"].startswith("Morale")]  # G-08 2: its element tests


def test_an_insurgent_move_never_springs_a_trap():  # DD-9B.2: an Allied stand
    g = make(elements=[squad(), cell(at=(12, 13))])  # a VC cell standing on the chit
    assert bt.on_move(g, g.state.elements["vc"], probe=True) == []
    assert bt.touched(g, g.state.elements["vc"]) == []
    g.state.stands["a"].y = 12.6  # an Allied stand there would
    assert bt.on_move(g, g.state.elements["sq"], probe=True) == ["path"]


def test_probing_a_move_reads_nothing_into_the_state():  # house rule 3: reads never change state
    g = make()
    g.state.stands["a"].y = 12.6
    before = g.hash()
    assert bt.on_move(g, g.state.elements["sq"], probe=True) == ["path"]
    g.view("allied"), g.view("insurgent")
    assert g.hash() == before and trap(g, "path").state == "hidden"


# -- the rows' effects (G-08 2-6) with fixed dice ---------------------------------------------------------------
@pytest.mark.parametrize("die, radius, fp", [(3, 0.5, 2), (4, 1.0, 3)])
def test_grenade_and_shell_are_blasts_on_the_triggering_stand(die, radius, fp):  # G-08 3; G-08 4; G-25
    g = make()
    out, ev = spring_on(g, [die] + [1] * 6)
    assert out == "activation_over"
    tpl = of(ev, "template")[0]
    a = g.state.stands["a"]
    assert tpl["radius"] == radius and (tpl["x"], tpl["y"]) == (a.x, a.y)
    assert len(rolls(ev, "to hit")[0]["dice"]) == fp


def test_the_claymore_fans_at_the_element_without_vegetation_saves():  # G-08 6; G-25
    jungle = {"id": "j", "type": "dense", "polygon": [[5, 5], [20, 5], [20, 20], [5, 20]]}
    g = make(terrain=[jungle, HOOTCH])
    # the fan from (12, 15) south at the squad; 3 FP on 'a' (5+ in jungle): 5, 4, 1: one hit; its save
    # needs 6 (no vegetation save): 5 fails.
    out, ev = spring_on(g, [6] + [5, 4, 1] + [5] + [6] * 6, at=(12, 15))
    tpl = of(ev, "template")[0]
    assert tpl["facing"] == pytest.approx(of(ev, "booby_trap")[0]["heading"]) and tpl["length"] == 5.0
    assert -135 < tpl["facing"] < -45  # toward the squad, south of the trap
    a_roll = [r for r in rolls(ev, "to hit") if r.get("stand") == "a"][0]
    assert len(a_roll["dice"]) == 3 and a_roll["need"] == 5
    assert [r["need"] for r in rolls(ev, "save") if r["stand"] == "a"][0] == 6


def test_engineers_roll_one_less_and_count_as_in_cover():  # G-08; TUN-23
    g = make(elements=[squad("us_engineer_team"), cell(at=(44, 44))])
    out, ev = spring_on(g, [4] + [1] * 6)  # 4 - 1 (Engineers) = 3: a grenade, 2 FP
    roll = rolls(ev, "Booby Trap")[0]
    assert roll["result"] == 3
    assert {"name": "sapper looks for traps", "value": -1, "clause": "G-08; TUN-23"} in roll["modifiers"]
    on_a = [r for r in rolls(ev, "to hit") if r.get("stand") == "a"][0]
    assert len(on_a["dice"]) == 1 and "TUN-23" in on_a["text"]  # TUN-23: in cover, -1 die


def test_a_trapped_tunnel_section_rolls_the_one_table_and_tunnel_rats_take_cover():  # TUN-7; TUN-23; G-08
    g = make(elements=[squad("us_tunnel_rat"), cell(at=(44, 44))])
    n = len(g.events)
    g.dice.force([5] + [1] * 8)  # 5 - 1 (Tunnel Rats) = 4: a shell, 3 FP, on the rat: one die fewer
    out = bt.spring(g, g.state.elements["sq"], 12, 12, 0, "a trapped tunnel section", "TUN-7; G-43", name="s3",
                    stand=g.state.stands["a"])
    ev = g.events[n:]
    roll = rolls(ev, "Booby Trap")[0]
    assert roll["clause"] == "TUN-7; G-43; G-08 4" and roll["modifiers"][0]["value"] == -1
    assert (of(ev, "booby_trap")[0]["trap"], of(ev, "booby_trap")[0]["result"]) == ("s3", "mine")
    on_a = [r for r in rolls(ev, "to hit") if r.get("stand") == "a"][0]
    assert len(on_a["dice"]) == 2 and "TUN-23" in on_a["text"]  # TUN-23: 3 FP - 1 die
    assert out == "activation_over"


def test_the_roll_never_goes_below_one():  # G-08: minimum 1
    g = make(elements=[squad("us_engineer_team"), cell(at=(44, 44))])
    g.state.elements["sq"].last_move = "patrol"
    out, ev = spring_on(g, [2])  # 2 - 1 - 1 = 0 -> 1: a dud
    assert out is None and rolls(ev, "Booby Trap")[0]["result"] == 1
    assert len(rolls(ev, "Booby Trap")[0]["modifiers"]) == 2


def test_an_alarm_gives_a_token_and_a_waiting_ambusher_springs_free():  # G-08 5; DD-2.25; DD-2.26
    g = make(elements=[squad(), cell(at=(12, 16))])
    g.state.elements["vc"].conceal = True
    out, ev = spring_on(g, [5] + [6] * 20)
    tok = of(ev, "tokens")
    assert tok[0]["income"] == 1 and tok[0]["_visible"] == "insurgent"  # the pool is private
    assert of(ev, "ambush") and of(ev, "ambush")[0]["element"] == "vc"
    assert g.state.sides["insurgent"].ambush_tokens == 0  # gained and spent: "without paying"
    assert out == "activation_over"


def test_an_alarm_with_no_ambusher_ready_keeps_the_token():  # G-08 5
    g = make()
    out, ev = spring_on(g, [5])
    assert not of(ev, "ambush") and g.state.sides["insurgent"].ambush_tokens == 1


def test_a_claymore_may_be_followed_by_an_ambush_for_a_token():  # G-08 6
    g = make(elements=[squad(), cell(at=(12, 16))], tokens=1)
    g.state.elements["vc"].conceal = True
    out, ev = spring_on(g, [6] + [1] * 30, at=(12, 12.5))
    assert of(ev, "template") and of(ev, "ambush")
    assert g.state.sides["insurgent"].ambush_tokens == 0


# -- finding and disarming them (G-35, G-13) -----------------------------------------------------------------------
def test_a_search_of_the_hootch_lifts_its_trap():  # G-35; DD-9B.1; DD-2.15
    g = make(traps=[{"id": "door", "feature": "h1"}, FAR])
    g.state.stands["a"].x = 14  # 0.25" from the hootch
    g.dice.force([4])
    ev = g.act("allied", {"type": "search", "element": "sq", "feature": "h1"})
    found = of(ev, "trap_found")
    assert found and (found[0]["trap"], found[0]["how"], found[0]["_visible"]) == ("trap1", "search", "all")
    assert trap(g, "door").state == "found" and trap(g, "far").state == "hidden"
    assert "a booby trap (disarmed)" in of(ev, "note")[-1]["text"]
    g.state.stands["a"].x = 16.5  # walking into the hootch now sets nothing off
    assert bt.touched(g, g.state.elements["sq"]) == []


def test_a_ground_search_finds_a_chit_within_two_inches():  # G-35; DD-9B.3 (the ground)
    g = make()
    offer = next(o for o in g.legal_actions("allied") if o["type"] == "search" and o["element"] == "sq")
    assert "ground" in offer["params"]["feature"]["choices"]  # offered while the chapter is active
    g.dice.force([5])
    ev = g.act("allied", {"type": "search", "element": "sq", "feature": "ground"})
    assert [f["trap"] for f in of(ev, "trap_found")] == ["trap1"]
    assert trap(g, "path").state == "found" and trap(g, "far").state == "hidden"


def test_a_natural_one_sets_off_the_trap_there():  # G-35
    g = make()
    g.dice.force([1] + [3] + [1] * 10)  # the search fumbles; the trap rolls 3: a grenade
    ev = g.act("allied", {"type": "search", "element": "sq", "feature": "ground"})
    boom = of(ev, "booby_trap")
    assert boom and boom[0]["result"] == "grenade" and "G-35" in boom[0]["clause"]
    assert trap(g, "path").state == "sprung"


def test_a_failed_search_says_nothing_of_the_trap():  # G-35; DESIGN §6
    g = make()
    g.dice.force([3])
    ev = g.act("allied", {"type": "search", "element": "sq", "feature": "ground"})
    assert not of(ev, "trap_found") and not of(ev, "booby_trap") and trap(g, "path").state == "hidden"


def test_a_villagers_tip_lifts_the_nearest_trap():  # G-13
    g = make()
    n = len(g.events)
    assert bt.reveal_near(g, 30, 30, 1.0, "a villager's tip", "G-13") is None and len(g.events) == n
    assert bt.reveal_near(g, 12, 14, 3.0, "a villager's tip", "G-13") == "trap1"
    ev = of(g.events[n:], "trap_found")[0]
    assert (ev["how"], ev["by"], ev["clause"]) == ("tip", "a villager's tip", "G-13")
    assert trap(g, "path").state == "found"


# -- fog (DESIGN §6) ------------------------------------------------------------------------------------------------
def test_hidden_traps_reach_no_allied_view_event_or_numbering():  # DD-9B.1; DESIGN §6
    plain, trapped = make(traps=None), make(traps=[FAR, {"id": "far2", "at": [44, 10]}])
    for g in (plain, trapped):
        g.dice.force([4, 4, 4])
        g.act("allied", MOVE)  # nowhere near the traps
    assert plain.events_for("allied", plain.events) == trapped.events_for("allied", trapped.events)  # and numbers
    view = trapped.view("allied")
    assert {k: v for k, v in view.items() if k != "hash"} == {k: v for k, v in plain.view("allied").items()
                                                             if k != "hash"}
    assert not [m for m in view["markers"] if m["kind"] == "booby_trap"]
    mine = [m for m in trapped.view("insurgent")["markers"] if m["kind"] == "booby_trap"]
    assert [(m["token"], m["state"]) for m in mine] == [("far", "hidden"), ("far2", "hidden")]


def test_a_public_name_counts_only_the_traps_revealed():  # DESIGN §6: the second token, named trap1
    g = make(traps=[FAR, CHIT])
    g.dice.force([1])
    g.act("allied", MOVE)
    assert trap(g, "path").name == "trap1" and [m["id"] for m in g.view("allied")["markers"]
                                                if m["kind"] == "booby_trap"] == ["trap1"]


# -- the Jungle Ghost delegates (G-09, G-08) -------------------------------------------------------------------------
def solo(traps=None) -> Game:
    raw = raw_of(traps, [element("sq", "allied", [stand("sl", "us_squad_leader", 20, 21),
                                                  stand("rt", "us_rifle_team", 22, 21)]),
                         element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 44, 44)], kind="cell")], [])
    g = Game(build_scenario(raw), 1, start=False, threat=2)
    jg.enable(g)
    start_turn(g)
    return g


def test_the_ghosts_trap_rolls_as_it_did_and_says_booby_trap():  # G-09; G-08 3
    g = solo()
    n = len(g.events)
    g.dice.force([3, 4, 5, 3, 2, 6, 1, 3])
    assert jg.booby_trap(g, g.state.elements["sq"], Blind("bt", "insurgent", 20, 23, False, []), 0) == "activation_over"
    ev = [{k: v for k, v in e.items() if k != "seq"} for e in g.events[n:]]
    assert ev[0] == {"_visible": "all", "clause": "G-08 3", "dice": [3], "element": "sq", "modifiers": [], "need": None,
                     "purpose": "Booby Trap", "result": 3, "side": "allied", "target": None, "type": "roll",
                     "text": "Booby trap on sq: rolled 3: Grenade on a tripwire"}  # as before the one table
    assert [e["type"] for e in ev] == ["roll", "booby_trap", "template", "roll", "roll", "roll", "roll", "roll",
                                       "hit", "casualty", "roll", "status"]
    assert (ev[1]["trap"], ev[1]["result"], ev[1]["stand"]) == ("bt", "grenade", "sl")


def test_the_ghosts_alarm_rolls_the_contact_reveal_table_again():  # G-08 5; G-09
    g = solo()
    g.dice.force([5, 4, 5, 3, 2, 6, 1, 3])
    n = len(g.events)
    jg.booby_trap(g, g.state.elements["sq"], Blind("bt", "insurgent", 20, 23, False, []), 0)
    assert [e["purpose"] for e in g.events[n:] if e["type"] == "roll"][:2] == ["Booby Trap", "Contact Reveal"]
    assert not of(g.events[n:], "tokens")  # G-29: the Ghost holds no Ambush Tokens


def test_a_token_in_a_ghost_game_springs_on_the_move_and_its_alarm_reveals():  # DD-9B.2; G-08 5; G-29
    g = solo(traps=[{"id": "t1", "at": [22, 22.5]}, {"id": "t2", "at": [2, 2]}])
    assert bt.CHAPTER_OBJ.active(g) and jg.active(g)
    n = len(g.events)
    g.dice.force([5] + [4] * 20)
    bt.trip(g, trap(g, "t1"), g.state.elements["sq"])
    purposes = [e["purpose"] for e in g.events[n:] if e["type"] == "roll"]
    assert purposes[:2] == ["Booby Trap", "Contact Reveal"] and not of(g.events[n:], "tokens")
    assert "trap1" not in g.state.blinds  # the marker put down for the roll is resolved


def test_after_a_tokens_claymore_the_ghost_ambushes_on_three_or_more():  # G-08 6 (AI: 3-6)
    g = solo(traps=[{"id": "t1", "at": [22, 23.5]}, {"id": "t2", "at": [2, 2]}])
    n = len(g.events)
    g.dice.force([6] + [1] * 6 + [2] * 5)  # a claymore; its dice miss; Morale 2; the follow-up 2: none
    bt.trip(g, trap(g, "t1"), g.state.elements["sq"])
    follow = rolls(g.events[n:], "Claymore Ambush")
    assert follow and follow[0]["need"] == 3 and follow[0]["result"] == "fail"
    assert not rolls(g.events[n:], "Contact Reveal")


def test_with_the_ghost_both_move_listeners_are_heard():  # DD-9B.2; DD-10.7 (reactions.interrupt)
    from game.rules.detection import make_echo

    g = solo(traps=[{"id": "t1", "at": [22, 23.5]}, {"id": "t2", "at": [2, 2]}])
    g.state.sides["allied"].cp = 6
    g.dice.force([4] + [1] * 10)  # the trap on the way: 4 - 1 = 3, a grenade
    ev = g.act("allied", {"type": "move", "mode": "patrol", "element": "sq", "to": [21, 25]})
    assert of(ev, "move")[0]["reaction"] == "booby_traps" and of(ev, "booby_trap")[0]["result"] == "grenade"
    g = solo(traps=[{"id": "t1", "at": [2, 40]}, {"id": "t2", "at": [2, 2]}])  # traps far off, an Echo ahead
    g.state.sides["allied"].cp = 6
    b = g.state.blinds["sb03"]
    b.x, b.y = 22.0, 31.0
    make_echo(g, b, "test", "DD-4.9")
    g.dice.force([1])  # the Spider Waits
    ev = g.act("allied", {"type": "move", "mode": "patrol", "element": "sq", "to": [21, 25]})
    assert of(ev, "move")[0]["reaction"] == "ghost" and rolls(ev, "Ambush Reaction")
    assert not of(ev, "booby_trap")


def test_the_traps_survive_a_save():  # DD-9B.1 (the state restores)
    g = make()
    g.dice.force([1])
    g.act("allied", MOVE)
    back = Game.restore(g.scenario, g.snapshot())
    assert bt._state(back) == bt._state(g) and back.hash() == g.hash()
