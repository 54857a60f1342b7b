"""Coloured smoke for ground-to-air signalling (DD-4.36; G-18, DD-6.7, DD-8.5, DD-4.37): the colours a
stand may pop, what each marks, who learns the colour, and the VC spoof that copies it."""

from __future__ import annotations

import pytest

from game.rules.casevac import load_casevac
from game.rules.errors import IllegalAction
from game.rules.fire_support.missions import rules
from tests.builders import element, stand
from tests.rules import test_air, test_casevac

G18_SIGNALS = ["violet", "yellow", "green", "red"]
"""G-18's coloured marker smokes; white (HC, WP) is screening smoke, not a signal."""


def test_the_signal_colours_are_g18s_in_both_chapters():  # DD-4.36; G-18
    dustoff = load_casevac().dustoff
    assert dustoff.colours == G18_SIGNALS and dustoff.default_colour == "violet"  # violet marks the touchdown
    g = test_air.air_game()
    assert rules(g).air.smoke_colours == G18_SIGNALS
    offer = [o for o in g.legal_actions("allied") if o["type"] == "call_air"][0]
    smoke = offer["params"]["smoke"]
    assert smoke["choices"] == [*G18_SIGNALS, "none"] and smoke["default"] == "red"  # red marks the target


def test_the_dustoff_lands_on_the_colour_the_lz_popped():  # DD-4.36; G-18; DD-6.7; DD-6.8
    g = test_casevac.make([test_casevac.SQUAD, test_casevac.FAR_CELL])
    test_casevac.token(g, "cas1", 20, 11.1)  # a casualty to lift out: the Dustoff is offered
    offer = [o for o in g.legal_actions("allied") if o["type"] == "pop_smoke"][0]
    assert offer["params"]["colour"]["choices"] == G18_SIGNALS and offer["params"]["colour"]["default"] == "violet"
    with pytest.raises(IllegalAction) as exc:  # white is screening smoke: no signal to a pilot
        g.act("allied", {"type": "pop_smoke", "element": "sq", "at": [22, 9], "colour": "white"})
    assert exc.value.clause == "G-18"
    ev = test_casevac.allied(g, {"type": "pop_smoke", "element": "sq", "at": [22, 9], "colour": "green"})
    inbound = [e for e in ev if e["type"] == "dustoff" and e["phase"] == "inbound"]
    assert inbound[0]["colour"] == "green" and "G-18" in inbound[0]["clause"]
    smoke = [m for m in g.view("insurgent")["markers"] if m["kind"] == "smoke"]
    assert smoke[0]["colour"] == "green"  # the LZ smoke is public, its colour too (docs/casevac.md)
    test_casevac.allied(g, {"type": "pass"})  # the turn ends; the 1-turn clock brings the UH-1 onto the smoke
    heli = [m for m in g.view("allied")["markers"] if m["kind"] == "helicopter"]
    assert heli and heli[0]["colour"] == "green" and (heli[0]["x"], heli[0]["y"]) == (22, 9)


def test_a_strikes_marking_colour_is_the_callers_secret_and_a_spoof_copies_it():  # DD-4.36; DD-4.37; G-18
    lurk = element("vcs", "insurgent", [stand("vcs_a", "vc_rifle_cell", 7.0, 7.0, 270)], kind="cell")
    g = test_air.air_game(terrain=(), extra=[lurk])
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {**test_air.NAPALM, "at": [30.0, 30.0], "heading": 0, "smoke": "white"})
    assert exc.value.clause == "G-18"
    g.act("allied", {**test_air.NAPALM, "at": [30.0, 30.0], "heading": 0, "smoke": "yellow"})
    mine = [m for m in g.view("allied")["markers"] if m.get("purpose") == "marking"]
    theirs = [m for m in g.view("insurgent")["markers"] if m.get("purpose") == "marking"]
    assert mine[0]["colour"] == "yellow" and "colour" not in theirs[0]  # G-18: chosen secretly
    ev = g.act("insurgent", {"type": "smoke_spoof", "element": "vcs", "plume": theirs[0]["id"]})
    spoof = [e for e in ev if e["type"] == "smoke" and e["kind"] == "spoof"]
    assert spoof and spoof[0]["colour"] == "yellow"  # DD-4.37: the same colour as the Allied plume
