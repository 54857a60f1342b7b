"""Evacuating the disabled in One Brain-Cell (OBC-42, G-42): one man carries a disabled man at half speed, two
carry him between them at 2" less, and a carrier puts him aboard a landed chopper that flies him off."""

from __future__ import annotations

import pytest

from game.rules.errors import IllegalAction
from tests.obc.test_rules import activate, chopper, game, man, table


def two_carriers(**kw):
    us = [man("ldr", [10, 10]), man("a", [10.5, 10]), man("b", [11, 10]), man("d", [10.5, 10.6])]
    g = game(table(us, [man("v", [40, 45])], **kw))
    g.state.men["d"].status = "disabled"
    activate(g, "us", independent_d6=6)
    return g


def test_a_second_man_joins_the_carry():  # OBC-42
    g = two_carriers()
    g.act("allied", {"type": "carry", "man": "a", "target": "d"})
    (offer,) = [o for o in g.legal_actions("allied") if o["type"] == "carry" and o["man"] == "b"]
    assert offer["carriers"] == 2 and offer["clause"] == "OBC-42"
    g.act("allied", {"type": "carry", "man": "b", "target": "d"})
    assert [m.id for m in g.carriers("d")] == ["a", "b"]
    assert not any(o["type"] == "carry" and o["target"] == "d" for o in g.legal_actions("allied"))  # two at most


@pytest.mark.parametrize(("to", "ok"), [([10.5, 14], True), ([10.5, 14.1], False)])
def test_two_men_carrying_one_lose_2_inches(to, ok):  # OBC-42
    g = two_carriers()
    g.act("allied", {"type": "carry", "man": "a", "target": "d"})
    g.act("allied", {"type": "carry", "man": "b", "target": "d"})
    plan = g.preview("allied", {"type": "move", "man": "a", "to": to})
    assert plan["legal"] is ok
    assert {"name": "two men carrying one", "inches": -2.0, "clause": "OBC-42"} in plan["deductions"]
    if ok:
        g.act("allied", {"type": "move", "man": "a", "to": to})
        a, b, d = (g.state.men[x] for x in "abd")
        assert (d.x, d.y) == (a.x, a.y) == (10.5, 14)
        assert abs(b.x - 11.0) < 1e-6 and abs(b.y - 14) < 1e-6  # the partner kept his side
        assert b.moved > 0 and d.carrying is None
    else:
        with pytest.raises(IllegalAction) as exc:
            g.act("allied", {"type": "move", "man": "a", "to": to})
        assert exc.value.clause == "OBC-3"


def test_a_wounded_partner_holds_the_pair_back():  # OBC-42, OBC-30
    g = two_carriers()
    g.state.men["b"].wounds = 1
    g.act("allied", {"type": "carry", "man": "a", "target": "d"})
    g.act("allied", {"type": "carry", "man": "b", "target": "d"})
    plan = g.preview("allied", {"type": "move", "man": "a", "to": [10.5, 13]})  # 3": within a's 4", not b's 2"
    assert not plan["legal"] and plan["clause"] == "OBC-42" and "carrying with him" in plan["reason"]


def test_a_partner_who_moved_lets_go_and_one_carries_at_half_speed():  # OBC-42
    g = two_carriers()
    g.act("allied", {"type": "carry", "man": "a", "target": "d"})
    g.act("allied", {"type": "carry", "man": "b", "target": "d"})
    g.state.men["b"].moved = 1.0  # he moved (set by hand)
    plan = g.preview("allied", {"type": "move", "man": "a", "to": [10.5, 13]})
    assert plan["legal"] and {"name": "carrying a man", "factor": 0.5, "clause": "OBC-42"} in plan["deductions"]
    g.act("allied", {"type": "move", "man": "a", "to": [10.5, 13]})
    assert g.state.men["b"].carrying is None and g.state.men["a"].carrying == "d"


def test_a_carrier_puts_the_disabled_man_aboard_and_the_chopper_flies_him_off():  # OBC-42, OBC-11, G-42
    us = [man("ldr", [20, 17]), man("d", [20, 16.5])]
    g = game(table(us, [man("v", [40, 45])], extra=chopper([20, 18], 0, aboard=False)))
    g.state.men["d"].status = "disabled"
    activate(g, "us")
    g.act("allied", {"type": "carry", "man": "ldr", "target": "d"})
    # 1" from the chopper: half of his 6" is 3", less 2" to get in (OBC-4) leaves 1"
    (load,) = [o for o in g.legal_actions("allied") if o["type"] == "load"]
    assert load["vehicle"] == "h" and load["clause"] == "OBC-42; OBC-4; OBC-11"
    g.act("allied", {"type": "load", "man": "ldr", "vehicle": "h"})
    assert g.state.men["d"].aboard == "h" and g.state.vehicles["h"].passengers == ["d"]
    assert g.state.men["ldr"].aboard is None and g.state.men["ldr"].carrying is None
    assert g.score("allied")["left_behind"] == 1  # aboard, but still on the table
    g.act("allied", {"type": "done"})
    g.state.to_act, g.state.active = "allied", None  # the chopper's move (set by hand)
    g.dice.force([1])
    g.act("allied", {"type": "activate", "squad": "ch"})
    assert not any(o["type"] == "debus" for o in g.legal_actions("allied"))  # the disabled are not set down
    g.act("allied", {"type": "move", "vehicle": "h", "to": [20, 0], "height": 12})
    assert g.state.men["d"].evacuated and g.score("allied")["left_behind"] == 0


def test_no_load_beyond_the_carriers_move():  # OBC-42, OBC-4
    us = [man("ldr", [20, 16.9]), man("d", [20, 16.5])]  # 1.1" from the chopper: beyond his 1"
    g = game(table(us, [man("v", [40, 45])], extra=chopper([20, 18], 0, aboard=False)))
    g.state.men["d"].status = "disabled"
    activate(g, "us")
    g.act("allied", {"type": "carry", "man": "ldr", "target": "d"})
    assert not any(o["type"] == "load" for o in g.legal_actions("allied"))
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "load", "man": "ldr", "vehicle": "h"})
    assert "OBC-42" in exc.value.clause
