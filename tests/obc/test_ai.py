"""One Brain-Cell's computer player and the wounded (OBC-42, OBC-47, OBC-49): it calls the evac chopper by radio
once a man is down, carries the disabled to the landed chopper and puts them aboard, and the chopper flies
them off its own edge."""

from __future__ import annotations

import math

import pytest

from game.rulesets.obc import ai
from tests.obc.test_rules import activate, game, man, table


def dustoff(at: list[float], height: float, reserve: bool) -> dict:
    return {"id": "dust", "side": "allied", "name": "Dustoff", "kind": "chopper", "order": "Take out the wounded",
            "aim": {"kind": "evac", "at": [20, 14], "radius": 3}, "authority": 4, "reserve": reserve, "levels": 3,
            "vehicle": {"id": "hd", "name": "Dustoff", "at": at, "height": height, "capacity": 6},
            "men": [man("dm", at, "none")]}


def test_the_radio_operator_calls_the_evac_chopper_once_a_man_is_disabled():  # OBC-49, OBC-7
    us = [man("ldr", [10, 10]), man("rto", [11, 10], "radio"), man("d", [12, 10])]
    g = game(table(us, [man("v", [40, 45])], extra=[dustoff([20, 0], 12, True)]))
    activate(g, "us", independent_d6=6)
    assert ai.choose(g, "allied")["type"] != "radio"  # nobody to take out yet
    g.state.men["d"].status = "disabled"
    assert ai.choose(g, "allied") == {"type": "radio", "man": "rto", "call": "dust"}


def test_a_man_picks_up_a_disabled_friend_and_carries_him_to_the_landed_chopper():  # OBC-42, OBC-47
    us = [man("ldr", [20, 9]), man("a", [20, 10]), man("d", [20.5, 10])]
    g = game(table(us, [man("v", [40, 45])], extra=[dustoff([20, 14], 0, False)]))
    g.state.men["d"].status = "disabled"
    activate(g, "us", independent_d6=6)
    acts = []
    while g.state.active == "us" and len(acts) < 12:
        act = ai.choose(g, "allied")
        acts.append(act)
        g.act("allied", act)
    assert {"type": "carry", "man": "ldr", "target": "d"} in acts or {"type": "carry", "man": "a", "target": "d"} in acts
    carrier = next(m for m in g.state.men.values() if m.carrying == "d")
    start = {"ldr": (20, 9), "a": (20, 10)}[carrier.id]
    assert abs(math.dist(start, (20, 14)) - math.dist((carrier.x, carrier.y), (20, 14)) - 3.0) < 0.01  # half of 6"
    assert (g.state.men["d"].x, g.state.men["d"].y) == (carrier.x, carrier.y)


def test_the_carrier_puts_him_aboard_and_the_chopper_flies_him_off():  # OBC-42, OBC-11, G-42
    us = [man("ldr", [20, 13.3]), man("d", [20.3, 13.3])]
    g = game(table(us, [man("v", [40, 45])], extra=[dustoff([20, 14], 0, False)]))
    g.state.men["d"].status = "disabled"
    activate(g, "us", independent_d6=6)
    g.act("allied", {"type": "carry", "man": "ldr", "target": "d"})
    assert ai.choose(g, "allied") == {"type": "load", "man": "ldr", "vehicle": "hd"}
    g.act("allied", {"type": "load", "man": "ldr", "vehicle": "hd"})
    g.act("allied", {"type": "done"})
    g.state.to_act, g.state.active = "allied", None  # the chopper's move (set by hand)
    assert ai.choose(g, "allied") == {"type": "activate", "squad": "dust"}
    activate(g, "dust")
    act = ai.choose(g, "allied")
    assert act["type"] == "move" and act["to"][1] == 0.0 and act["height"] == 12.0  # off the south edge
    g.act("allied", act)
    assert g.state.men["d"].evacuated and g.score("allied")["left_behind"] == 0


def test_a_chopper_on_call_is_off_the_table_in_its_sides_view():  # OBC-49: the table draws what is on it
    g = game(table([man("ldr", [10, 10])], [man("v", [40, 45])], extra=[dustoff([20, 0], 12, True)]))
    (v,) = [v for v in g.view("allied")["vehicles"] if v["id"] == "hd"]
    assert v["on_table"] is False
    assert not any(v["id"] == "hd" for v in g.view("insurgent")["vehicles"])


def _mortar_table(supports: str | None) -> dict:
    mortars = {"id": "mortars", "side": "allied", "name": "Mortar section", "kind": "mortar", "order": "Support 1st",
               "aim": {"kind": "support", "at": [24, 24], "radius": 4}, "leader": "mo", "authority": 5,
               "men": [man("mo", [40, 4], "mortar60")], **({"supports": supports} if supports else {})}
    cluster = [man(f"c{k}", [20 + 0.8 * k, 32]) for k in range(3)]  # three together, 15" and more from the squad
    return table([man("ldr", [36, 20])], [man("lone", [36, 28]), *cluster], extra=[mortars])


@pytest.mark.parametrize(("supports", "aim"), [("us", [36, 28]), (None, [20.8, 32])])
def test_a_mortar_engages_the_opponents_of_the_squad_it_supports(supports, aim):  # OBC-48
    g = game(_mortar_table(supports))
    activate(g, "mortars")
    mo = g.state.men["mo"]
    assert {"lone", "c0", "c1", "c2"} <= set(g.sees("allied"))
    assert ai._bomb_point(g, "allied", mo, [6.0, 48.0]) == aim  # the lone man 8" from the squad, else the cluster
