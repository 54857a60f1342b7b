"""Reactions at a hull (DD-7.2, DD-7.3, DD-7.6; DD-2.19, DD-2.27, DD-10.7): an ambush, Opportunity Fire or
Desperate Return Fire whose closest target is an armoured vehicle fires the element's anti-tank weapons at
it, or with none its rifles at the exposed crewman, and never puts a small-arms hit on the hull
(``crew.reaction_fire``). The table is tests/fixtures/scenarios/armour_road.toml (see test_armour.py)."""

from __future__ import annotations

from game.rules import crew, fire
from tests.rules.test_armour import events, make, rec


def test_an_ambush_at_a_hull_fires_the_rpg():  # DD-7.6; DD-10.7
    g = make()
    start = len(g.events)
    g.dice.force([4, 5, 1])  # DD-7.6 hit on 4+; DD-7.7 the ACAV needs a 6 (RPG-7, AP 2): 5 fails; damage 1
    out = crew.reaction_fire(g, g.state.elements["rpg"], g.state.stands["acav_1"],
                             fire.Context("ambush", "DD-10.7"), "RPG-7 team ambushes ACAV A-12")
    evs = g.events[start:]
    assert [e["hit"] for e in events(evs, "at_fire")] == [True]
    assert [e["result"] for e in events(evs, "armour")] == ["penetration"]
    assert [e["result"] for e in events(evs, "vehicle_damage")] == ["scrape"]  # DD-5.13: -1 HP
    assert rec(g, "acav_1").hp == 1
    assert out.hits == 0 and not events(evs, "hit")  # no small-arms hit on a hull (DD-7.2)


def test_riflemen_without_an_at_weapon_shoot_the_exposed_crewman():  # DD-7.2; DD-7.3; G-34
    g = make()
    start = len(g.events)
    riflemen = g.state.elements["riflemen"]
    g.dice.force([6] * 6 + [1])  # six FP dice hit at 4+ -2 (needs 6); the crew's Morale test fails on a 1
    crew.reaction_fire(g, riflemen, g.state.stands["acav_1"], fire.Context("ambush", "DD-10.7"),
                       "NVA rifle squad ambushes ACAV A-12")
    evs = g.events[start:]
    assert [e["kind"] for e in events(evs, "fire")] == ["crew_shot"]
    assert not events(evs, "at_fire") and not events(evs, "hit")
    assert rec(g, "acav_1").buttoned  # DD-7.3: a failed test Buttons Up the crew


def test_with_no_at_weapon_and_no_crewman_showing_the_reaction_holds_its_fire():  # DD-7.2; DD-7.3
    g = make()
    rec(g, "acav_1").buttoned = True
    start = len(g.events)
    before = g.dice.streams["rules"]
    crew.reaction_fire(g, g.state.elements["riflemen"], g.state.stands["acav_1"], fire.Context("ambush", "DD-10.7"),
                       "NVA rifle squad ambushes ACAV A-12")
    evs = g.events[start:]
    assert [e["type"] for e in evs] == ["note"] and "holds its fire" in evs[0]["text"]
    assert g.dice.streams["rules"] == before  # no die rolled


def test_a_reaction_at_infantry_is_the_ordinary_fire():  # DD-2.27; DD-5.1
    g = make()
    g.state.elements["sq1"].reserve = False  # not needed: fire at the riflemen from the tank
    start = len(g.events)
    crew.reaction_fire(g, g.state.elements["tank"], g.state.stands["nva_a"], fire.Context("desperate", "DD-2.30"),
                       "Patton A-31: Desperate Return Fire")
    assert [e["kind"] for e in events(g.events[start:], "fire")] == ["desperate"]
