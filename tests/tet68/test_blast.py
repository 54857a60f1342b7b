"""Tet '68's cone of automatic fire (TET-13), the M79's blast (TET-14), grenades and hand-to-hand (G-41),
played through the game on a street set by hand: one house north of it (front wall y = 15 from x 4 to 12,
its door at x 7..8, a window at x 4.8..6.2), the figures in the open at y about 12 unless said."""

from __future__ import annotations

import math

import pytest

from game.dice import Dice, seed_streams
from game.rules.errors import IllegalAction
from game.rulesets.tet68 import blast
from game.rulesets.tet68.game import TetGame
from game.rulesets.tet68.scenario import build

HOUSE = {"id": "t1", "at": [4, 15], "turned": True, "building": {
    "id": "house", "floor": [[4, 15], [12, 15], [12, 23], [4, 23]],
    "walls": [{"id": "front", "from": [4, 15], "to": [12, 15], "openings": [{"kind": "door", "start": 3, "end": 4},
                                                                      {"kind": "window", "start": 0.8, "end": 2.2}]}]}}


def street(*figures: tuple) -> TetGame:
    """A game whose figures are (id, side, weapon, [x, y], Initiative, WS), with the fire phase begun at the
    highest Initiative (or the move phase with ``move`` as the first id)."""
    raw = {"scenario": {"ruleset": "tet68", "id": "street", "title": "A street", "turns": 3,
                        "table": {"width": 36, "height": 24}},
           "side": [{"id": "allied", "name": "Marines"}, {"id": "insurgent", "name": "VC"}],
           "tile": [HOUSE],
           "figure": [{"id": i, "side": s, "name": i.upper(), "weapon": w, "at": at} for i, s, w, at, _, _ in figures]}
    g = TetGame(build(raw, "street"), 11)
    for i, _, _, _, ini, ws in figures:
        g.state.figures[i].man.initiative, g.state.figures[i].man.ws = ini, ws
    return g


def fire_phase(g: TetGame) -> TetGame:
    g.state.phase, g.state.step, g.state.last, g.state.snap = "fire", 4, None, None
    for f in g.state.figures.values():
        f.moved = True
    g._fill()
    return g


def move_phase(g: TetGame) -> TetGame:
    g.state.phase, g.state.step, g.state.last, g.state.snap = "move", 1, None, None
    g._fill()
    return g


def rolls(events: list[dict], purpose: str) -> list[dict]:
    return [e for e in events if e["type"] == "roll" and e["purpose"] == purpose]


def test_a_cone_rolls_each_figure_in_it_at_half_its_own_band():  # TET-13, TET-15, TET-16, G-41
    g = fire_phase(street(("gunner", "allied", "m16", [2, 12], 3, 100),
                          ("friend", "allied", "m16", [6, 12.3], 1, 60),  # 4": Full, in the cone
                          ("near", "insurgent", "ak47", [8, 11.6], 1, 60),  # 6": x1/2, 0.4" off the line
                          ("far", "insurgent", "ak47", [12, 12], 1, 60),  # the aim point, 10": x1/2
                          ("wide", "insurgent", "ak47", [8, 14], 1, 60)))  # 2" off the line: outside
    offer = next(o for o in g.legal_actions("allied") if o["type"] == "cone")
    assert offer["params"]["at"] == {"kind": "point", "from": [2, 12], "max": 25.0, "width": 0.25}
    plan = g.preview("allied", {"type": "cone", "figure": "gunner", "at": [12, 12]})
    assert plan["width"] == pytest.approx(2.5) and plan["apex"] == [2, 12] and plan["aim"] == [12, 12]
    assert [(m["id"], m["chance"], m["exposure"]) for m in plan["in_cone"]] == [
        ("friend", 50, 5), ("near", 25, 5), ("far", 25, 5)]
    g.dice.force([30, 1, 2, 90, 20, 6], faces=100)  # friend: hit, cover 1, effect 2; near: miss; far: hit, cover 6
    events = g.act("allied", {"type": "cone", "figure": "gunner", "at": [12, 12]})
    hits = rolls(events, "to hit")
    assert [(r["target"], r["target_number"], r["result"], r["success"]) for r in hits] == [
        ("friend", 50, 30, True), ("near", 25, 90, False), ("far", 25, 20, True)]
    assert all(r["cone"] and r["modifiers"][-1]["clause"] == "TET-13" for r in hits)
    covers = rolls(events, "cover")
    assert [(c["target"], c["target_number"], c["success"]) for c in covers] == [("friend", 5, True), ("far", 5, False)]
    assert g.state.figures["friend"].man.initiative == 0  # friend or foe alike (G-41)
    assert g.state.figures["far"].man.initiative == 1 and g.state.figures["wide"].man.initiative == 1
    cone = next(e for e in events if e["type"] == "cone")
    assert cone["apex"] == [2, 12] and cone["aim"] == [12, 12] and cone["width"] == pytest.approx(2.5)


def test_the_m79_bursts_on_the_mark_and_the_wall_shields():  # TET-14, TET-16, TET-17, G-41
    g = fire_phase(street(("grenadier", "allied", "m79", [2, 12], 3, 100),
                          ("open", "insurgent", "ak47", [11, 13.8], 1, 60),  # 1" from the burst, in the open
                          ("inside", "insurgent", "ak47", [10, 15.6], 1, 60),  # 1.8" away, behind the front wall
                          ("beyond", "insurgent", "ak47", [13, 13.8], 1, 60)))  # 3" away
    offer = next(o for o in g.legal_actions("allied") if o["type"] == "launch")
    assert offer["params"]["at"]["radius"] == 2.0 and offer["params"]["at"]["min"] == 4.0
    assert not any(o["type"] == "fire" for o in g.legal_actions("allied"))  # the M79 is fired at a point
    plan = g.preview("allied", {"type": "launch", "figure": "grenadier", "at": [10, 13.8]})
    assert plan["chance"] == 50 and [(m["id"], m["exposure"]) for m in plan["in_blast"]] == [("open", 5)]
    assert plan["scatter"]["max"] == 6
    with pytest.raises(IllegalAction, match="arming") as refused:  # below 4" it cannot fire (G-41)
        g.act("allied", {"type": "launch", "figure": "grenadier", "at": [5, 12]})
    assert "G-41" in refused.value.clause
    g.dice.force([40, 2, 5], faces=100)  # on the mark; "open" fails its cover roll (2 <= 5); effect d6 5: d3 3
    events = g.act("allied", {"type": "launch", "figure": "grenadier", "at": [10, 13.8]})
    burst = next(e for e in events if e["type"] == "burst")
    assert burst["at"] == [10, 13.8] and burst["on_mark"] and burst["radius"] == 2.0 and burst["room"] is None
    assert [(c["target"], c["target_number"]) for c in rolls(events, "cover")] == [("open", 5)]
    assert not g.state.figures["open"].man.alive
    assert [w["state"] for w in events if w["type"] == "wound"] == ["dead"]
    assert g.state.figures["inside"].man.initiative == 1 and g.state.figures["beyond"].man.initiative == 1


def test_a_miss_scatters_a_d6_toward_the_d12_clock():  # TET-14, G-41
    g = fire_phase(street(("grenadier", "allied", "m79", [2, 12], 3, 100),
                          ("beyond", "insurgent", "ak47", [13, 13.8], 1, 60)))
    g.dice.force([90, 3, 12, 6], faces=100)  # a miss; 3", 12 o'clock: straight on; "beyond" saved (6)
    events = g.act("allied", {"type": "launch", "figure": "grenadier", "at": [10, 13.8]})
    scatter = rolls(events, "scatter")[0]
    way = math.atan2(1.8, 8)
    assert scatter["rolls"] == [3, 12] and scatter["from"] == [10, 13.8]
    assert scatter["to"] == pytest.approx([10 + 3 * math.cos(way), 13.8 + 3 * math.sin(way)], abs=1e-3)
    assert next(e for e in events if e["type"] == "burst")["at"] == scatter["to"]
    assert [c["target"] for c in rolls(events, "cover")] == ["beyond"]  # 0.7" from where it fell
    # 3 o'clock is to the right of the line of fire
    d = Dice(seed_streams(1))
    d.force([4, 3], faces=12)
    to, ev = blast.scatter(d, (0.0, 0.0), (10.0, 0.0))
    assert to == pytest.approx((10.0, -4.0)) and ev["direction"] == 3 and ev["clause"] == "TET-14; G-41"


def test_a_grenade_through_the_door_reaches_everyone_in_the_room():  # G-41
    g = fire_phase(street(("thrower", "allied", "m16", [7.5, 12], 3, 100),
                          ("corner", "insurgent", "ak47", [5, 21], 1, 60),
                          ("window", "insurgent", "ak47", [11, 16], 1, 60),
                          ("outside", "insurgent", "ak47", [9, 13], 1, 60)))
    offer = next(o for o in g.legal_actions("allied") if o["type"] == "grenade")
    assert offer["grenades"] == 2 and offer["params"]["at"]["max"] == 10.0 and offer["params"]["at"]["radius"] == 2.0
    plan = g.preview("allied", {"type": "grenade", "figure": "thrower", "at": [7.5, 18]})
    assert plan["room"] == "house" and plan["chance"] == 25  # 6": the SMG's x1/4 (G-41)
    assert {m["id"] for m in plan["in_blast"]} <= {"corner", "window"}  # only those the Marines see are told
    g.dice.force([20, 5, 1, 6], faces=100)  # in through the door; corner: cover 5 (hit), effect d3 1; window: 6
    events = g.act("allied", {"type": "grenade", "figure": "thrower", "at": [7.5, 18]})
    assert next(e for e in events if e["type"] == "burst")["room"] == "house"
    covers = rolls(g.events, "cover")
    assert [(c["target"], c["target_number"], c["success"]) for c in covers] == [("corner", 5, True), ("window", 5, False)]
    assert g.state.figures["corner"].man.initiative == 0 and g.state.figures["outside"].man.initiative == 1
    assert g.state.figures["thrower"].grenades == 1  # two a figure (G-41): the owner's to read
    assert next(f for f in g.view("allied")["figures"] if f["id"] == "thrower")["grenades"] == 1
    assert all("grenades" not in f for f in g.view("insurgent")["figures"] if f["side"] == "allied")


def test_a_grenade_is_never_thrown_over_a_wall_nor_past_the_smg_bands():  # G-41
    g = fire_phase(street(("thrower", "allied", "m16", [10, 12], 3, 100),
                          ("foe", "insurgent", "ak47", [30, 2], 1, 60)))
    with pytest.raises(IllegalAction, match="wall stands in the way"):
        g.preview("allied", {"type": "grenade", "figure": "thrower", "at": [10, 18]})
    with pytest.raises(IllegalAction, match="beyond the SMG"):
        g.preview("allied", {"type": "grenade", "figure": "thrower", "at": [21, 12]})
    g.state.figures["thrower"].grenades = 0
    assert not any(o["type"] == "grenade" for o in g.legal_actions("allied"))
    with pytest.raises(IllegalAction, match="no grenade left"):
        g.act("allied", {"type": "grenade", "figure": "thrower", "at": [12, 12]})


def test_a_charge_ends_in_base_contact_and_both_fight_hand_to_hand():  # G-41
    g = move_phase(street(("brute", "allied", "m16", [2, 12], 2, 150), ("vc", "insurgent", "ak47", [4, 12], 1, 80)))
    g.act("insurgent", {"type": "hold", "figure": "vc"})
    g.act("allied", {"type": "pass"})
    offer = next(o for o in g.legal_actions("allied") if o["type"] == "charge")
    assert offer["targets"][0]["id"] == "vc" and offer["targets"][0]["to"] == pytest.approx([3.4, 12])
    g.act("allied", {"type": "charge", "figure": "brute", "target": "vc"})
    assert g.state.figures["brute"].x == pytest.approx(3.4)
    # 150: one sure hit and 50 or less for another (TET-15); the VC's 80 needs 80 or less
    g.dice.force([30, 2, 3, 90], faces=100)
    events = g.act("insurgent", {"type": "pass"})  # the move phase ends; step 2: the two fight (G-41)
    fights = rolls(events, "hand-to-hand")
    assert [(r["firer"], r["target_number"], r["automatic_hits"], r["hits"]) for r in fights] == [
        ("brute", 50, 1, 2), ("vc", 80, 0, 0)]
    assert not rolls(events, "cover")  # no cover roll in hand-to-hand
    assert [r["result"] for r in rolls(events, "effect")] == [1, 2] and not g.state.figures["vc"].man.alive
    assert g.state.figures["brute"].fired and g.state.figures["brute"].struck


def test_a_charge_is_not_offered_through_a_wall():  # G-41: a window's sill keeps them apart
    g = move_phase(street(("brute", "allied", "m16", [5.5, 13.5], 2, 150),
                          ("vc", "insurgent", "ak47", [5.5, 15.4], 1, 80)))
    g.state.figures["vc"].pose, g.state.figures["vc"].facing = "at_window", -90.0
    assert "vc" in g.sees("allied")  # at the window, in sight
    g.act("insurgent", {"type": "hold", "figure": "vc"})
    g.act("allied", {"type": "pass"})
    assert not any(o["type"] == "charge" for o in g.legal_actions("allied"))
    with pytest.raises(IllegalAction, match="G-41|reach"):
        g.act("allied", {"type": "charge", "figure": "brute", "target": "vc"})
