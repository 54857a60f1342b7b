"""Men out of command in One Brain-Cell (OBC-17): the retreat to the table edge at half speed that the engine
offers them, the refusal of anything else, and their -1 to fire and +1 on morale effects."""

from __future__ import annotations

import pytest

from game.rules.errors import IllegalAction
from game.rulesets.obc import morale
from tests.obc.test_rules import activate, game, man, rolls, table


def out_of_command_game():
    # the leader at (10, 10), authority 1 for "a" beside him; "far" at (30, 8) is outside the 6" zone and the
    # ½d6 (a 1: one man) goes to "ind": "far" is not under authority
    us = [man("ldr", [10, 10]), man("a", [11, 10]), man("ind", [30, 20]), man("far", [30, 8])]
    g = game(table(us, [man("v", [40, 45])], authority=1))
    activate(g, "us", independent_d6=1)
    g.act("allied", {"type": "hold", "man": "ind"})
    return g


def test_a_man_out_of_command_is_offered_only_the_retreat_to_the_nearest_edge():  # OBC-17
    g = out_of_command_game()
    offers = [o for o in g.legal_actions("allied") if o.get("man") == "far"]
    assert [o["type"] for o in offers] == ["retreat"]
    (r,) = offers
    assert r["clause"] == "OBC-17" and r["edge"] == [30.0, 0.0]  # the south edge is 8" away, the nearest
    assert r["to"] == [30.0, 5.0] and r["reach"] == 3.0  # half of 6" across country
    assert r["path"] == [[30.0, 8.0], [30.0, 5.0]]
    assert {"name": "retreat out of command", "factor": 0.5, "clause": "OBC-17"} in r["deductions"]


def test_the_retreat_moves_him_half_speed_toward_the_edge():  # OBC-17
    g = out_of_command_game()
    g.act("allied", {"type": "retreat", "man": "far"})
    far = g.state.men["far"]
    assert (far.x, far.y) == (30.0, 5.0) and far.done
    assert not any(o.get("man") == "far" for o in g.legal_actions("allied"))


def test_the_retreat_is_paid_at_the_going():  # OBC-17, OBC-3
    terrain = [{"id": "pd", "type": "paddy", "polygon": [[20, 0], [40, 0], [40, 12], [20, 12]]}]
    us = [man("ldr", [10, 10]), man("a", [11, 10]), man("ind", [30, 20]), man("far", [30, 8])]
    g = game(table(us, [man("v", [40, 45])], terrain, authority=1))
    activate(g, "us", independent_d6=1)
    g.act("allied", {"type": "hold", "man": "ind"})
    (r,) = [o for o in g.legal_actions("allied") if o.get("man") == "far"]
    assert r["to"] == [30.0, 6.0]  # half of the paddy's 4"


@pytest.mark.parametrize("action", [{"type": "move", "to": [30, 9]}, {"type": "hold"}, {"type": "fire", "at": [30, 20]}])
def test_a_man_out_of_command_may_do_nothing_but_retreat(action):  # OBC-17
    g = out_of_command_game()
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {**action, "man": "far"})
    assert exc.value.clause == "OBC-17" and "retreat" in exc.value.reason
    assert (g.state.men["far"].x, g.state.men["far"].y) == (30, 8)


def test_a_man_under_authority_has_no_retreat():  # OBC-17, OBC-15
    g = out_of_command_game()
    assert not any(o["type"] == "retreat" and o["man"] == "a" for o in g.legal_actions("allied"))
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "retreat", "man": "a"})
    assert exc.value.clause == "OBC-17"


def test_out_of_command_adds_one_to_the_morale_effect():  # OBC-17, OBC-45
    g = out_of_command_game()
    far = g.state.men["far"]
    g.dice.force([1, 4])  # the check fails (1 against 3+), the effect roll 4 + 1 = 5: panic
    effect, evs = morale.check(g.dice, g.t, far, "first_fire", g.out_of_command(far))
    assert effect == "panic"
    assert evs[1]["modifiers"] == [{"name": "out of command", "value": 1, "clause": "OBC-17"}]
    g.dice.force([1, 4])
    effect, _ = morale.check(g.dice, g.t, g.state.men["a"], "first_fire", g.out_of_command(g.state.men["a"]))
    assert effect == "cover"  # 4: run for cover, in command


@pytest.mark.parametrize(("ind_at", "hits"), [([30, 20], 6), ([10, 14], 7)])
def test_an_mg_out_of_command_fires_one_hit_short(ind_at, hits):  # OBC-17, OBC-23
    # "ind" acts on the ½d6: outside the leader's 6" zone he is out of command (-1 to all firing), inside not
    us = [man("ldr", [10, 10]), man("a", [11, 10]), man("ind", ind_at, "mg"), man("far", [30, 8])]
    vc = [man(f"v{k}", [ind_at[0] + k, ind_at[1] + 8]) for k in range(3)]
    g = game(table(us, vc, authority=1))
    activate(g, "us", independent_d6=1)
    g.dice.force([3, 4] + [6] * 20)  # 8": short, standing: 2d6 = 7; every effect and check a 6
    burst = rolls(g.act("allied", {"type": "fire", "man": "ind", "target": "v0"}), "MG burst")[0]
    assert burst["entry"] == "2d6" and burst["result"] == hits
    assert (hits == 6) == ({"name": "out of command", "value": -1, "clause": "OBC-17"} in burst["modifiers"])
