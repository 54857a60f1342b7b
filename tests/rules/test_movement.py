"""Movement (DD-2.8–2.10, DD-3.2, DD-3.6–3.7, DD-3.18, DD-3.20–3.21, DD-5.21, G-01, G-28)."""

import pytest

from game.rules.errors import IllegalAction
from tests.builders import element, enemy, game, platoon, scenario, stand

TRAIL = {"id": "trail", "type": "trail", "path": [[0, 10], [48, 10]], "width": 1.2}
PADDY = {"id": "paddy", "type": "paddy", "polygon": [[20, 0], [30, 0], [30, 30], [20, 30]]}
STREAM = {"id": "stream", "type": "stream", "path": [[20, 0], [20, 48]], "width": 6}
SCRUB = {"id": "scrub", "type": "light", "polygon": [[15, 0], [48, 0], [48, 30], [15, 30]]}


def team(x=10.0, y=10.0, facing=0.0):
    """A single fireteam element 'ft' (one stand 'ft1') and the platoon HQ far behind it."""
    return [element("hq", "allied", [stand("pc", "us_platoon_commander", x, y - 4, facing)], kind="hq"),
            element("ft", "allied", [stand("ft1", "us_rifle_team", x, y, facing)], kind="team")]


def move(g, eid, mode, to, **kw):
    return g.act("allied", {"type": "move", "mode": mode, "element": eid, "to": list(to), **kw})


def test_patrol_move_is_six_inches_dd_2_8():
    g = game(scenario(team() + enemy()), dice=[6])
    with pytest.raises(IllegalAction) as err:
        move(g, "ft", "patrol", (16.5, 10))
    assert "allows 6.00" in err.value.reason and "DD-2.8" in err.value.clause
    move(g, "ft", "patrol", (16, 10))
    assert g.state.stands["ft1"].x == 16


def test_sprint_is_nine_inches_dd_2_10():
    g = game(scenario(team() + enemy()), dice=[6])
    move(g, "ft", "sprint", (19, 10))
    assert g.state.stands["ft1"].x == 19


def test_trail_rush_only_entirely_along_a_trail_dd_3_2():
    g = game(scenario(team() + enemy(), terrain=[TRAIL]), dice=[6])
    assert any(a.get("mode") == "trail_rush" for a in g.legal_actions("allied") if a.get("element") == "ft")
    with pytest.raises(IllegalAction) as err:
        move(g, "ft", "trail_rush", (17, 14))
    assert err.value.clause == "DD-3.2"
    move(g, "ft", "trail_rush", (18, 10))
    assert g.state.stands["ft1"].x == 18


def test_trail_rush_not_offered_off_the_trail_dd_3_2():
    g = game(scenario(team(y=20) + enemy(), terrain=[TRAIL]), dice=[6])
    assert not any(a.get("mode") == "trail_rush" for a in g.legal_actions("allied"))


def test_fording_a_stream_at_three_inches_dd_3_18():
    g = game(scenario(team(x=15) + enemy(), terrain=[STREAM]), dice=[6])
    with pytest.raises(IllegalAction) as err:
        move(g, "ft", "patrol", (19, 10))
    assert "allows 3.00" in err.value.reason and "stream" in err.value.reason


def test_light_vegetation_costs_two_inches_g01():
    g = game(scenario(team() + enemy(), terrain=[SCRUB]), dice=[6])
    with pytest.raises(IllegalAction):
        move(g, "ft", "patrol", (14.5, 10))
    move(g, "ft", "patrol", (14, 10))


def test_sprint_through_paddy_winds_and_halves_the_next_move_dd_3_6_3_7():
    g = game(scenario(team(x=17) + enemy(), terrain=[PADDY]), dice=[6])
    move(g, "ft", "sprint", (21.5, 10))          # paddy halves 9" to 4.5"
    el = g.state.elements["ft"]
    assert el.winded and el.winded_slow
    assert any(e["type"] == "status" and e["status"] == "winded" and e["clause"] == "DD-3.6" for e in g.events)
    g.act("insurgent", {"type": "pass"})
    g.act("allied", {"type": "pass"})
    # Next turn: half movement on this activation (DD-3.7): patrol 6" -> 3", paddy halves again -> 1.5".
    acts = [a for a in g.legal_actions("allied") if a.get("element") == "ft" and a.get("mode") == "patrol"]
    assert acts[0]["params"]["to"]["max"] == 3


def test_take_five_clears_winded_dd_3_7():
    g = game(scenario(team() + enemy()), dice=[6])
    g.state.elements["ft"].winded = True
    g.act("allied", {"type": "take_five", "element": "ft"})
    assert not g.state.elements["ft"].winded


def test_winded_is_minus_one_on_morale_dd_3_7():
    from game.rules.morale import morale_test

    g = game(scenario(team() + enemy()), dice=[6])
    g.state.elements["ft"].winded = True
    g.dice.force([4])
    assert morale_test(g, g.state.elements["ft"], "test", "DD-5.20") is False


def test_sprinting_two_turns_running_winds_dd_3_6():
    g = game(scenario(team() + enemy()), dice=[6])
    move(g, "ft", "sprint", (18, 10))
    assert not g.state.elements["ft"].winded
    g.act("insurgent", {"type": "pass"})
    g.act("allied", {"type": "pass"})
    g.dice.force([6])
    move(g, "ft", "sprint", (26, 10))
    assert g.state.elements["ft"].winded


def test_one_move_per_turn_g28():
    g = game(scenario(team() + enemy()), dice=[6])
    move(g, "ft", "patrol", (12, 10))
    g.act("insurgent", {"type": "pass"})
    with pytest.raises(IllegalAction) as err:
        move(g, "ft", "patrol", (14, 10))
    assert err.value.clause == "G-28 (2)"


def test_bases_may_pass_through_friends_but_not_end_on_them_dd_3_20():
    raw = scenario(team() + [element("ft2", "allied", [stand("ft2a", "us_rifle_team", 13, 10, 0)], kind="team")]
                   + enemy())
    g = game(raw, dice=[6])
    with pytest.raises(IllegalAction) as err:
        move(g, "ft", "patrol", (13.5, 10))
    assert err.value.clause == "DD-3.20"
    move(g, "ft", "patrol", (16, 10))          # straight through ft2
    assert g.state.stands["ft1"].x == 16


def test_never_through_an_enemy_base_dd_3_20():
    raw = scenario(team() + [element("vc", "insurgent", [stand("v1", "vc_rifle_cell", 13, 10, 180)], kind="cell")])
    g = game(raw, dice=[6])
    with pytest.raises(IllegalAction) as err:
        move(g, "ft", "patrol", (16, 10))
    assert "enemy" in err.value.reason and err.value.clause == "DD-3.20"


def test_moving_through_a_pinned_friend_tests_both_dd_3_21():
    raw = scenario(team() + [element("ft2", "allied", [stand("ft2a", "us_rifle_team", 13, 10, 0)], kind="team")]
                   + enemy())
    g = game(raw, dice=[6])
    g.state.elements["ft2"].pinned = True
    g.dice.force([2, 5])   # ft fails (pinned), ft2 passes
    move(g, "ft", "patrol", (16, 10))
    tests = [e for e in g.events if e["type"] == "roll" and "DD-3.21" in e["clause"]]
    assert [t["element"] for t in tests] == ["ft", "ft2"]
    assert g.state.elements["ft"].pinned and g.state.elements["ft2"].pinned


def test_pinned_never_moves_toward_the_enemy_dd_5_21():
    g = game(scenario(team() + enemy(at=(30, 10))), dice=[6])
    g.state.elements["ft"].pinned = True
    with pytest.raises(IllegalAction) as err:
        move(g, "ft", "patrol", (13, 10))
    assert err.value.clause == "DD-5.21"
    with pytest.raises(IllegalAction) as err:
        move(g, "ft", "sprint", (5, 10))
    assert err.value.clause == "G-32"
    move(g, "ft", "patrol", (6, 10))           # moving away is allowed
    assert g.state.stands["ft1"].x == 6


def test_off_the_table_is_refused():
    g = game(scenario(team(x=3) + enemy()), dice=[6])
    with pytest.raises(IllegalAction) as err:
        move(g, "ft", "patrol", (0.2, 10))
    assert "off the table" in err.value.reason


def test_coherency_at_the_end_of_a_move_dd_1_8():
    g = game(scenario(platoon() + enemy()), dice=[6])
    placed = {"sl": [10, 8.5], "a": [8.8, 10], "b": [15.5, 10]}
    with pytest.raises(IllegalAction) as err:
        g.act("allied", {"type": "move", "mode": "patrol", "element": "sq1", "stands": placed})
    assert err.value.clause == "DD-1.8"
    placed["b"] = [12.5, 11]
    g.act("allied", {"type": "move", "mode": "patrol", "element": "sq1", "stands": placed})
    assert g.state.stands["b"].x == 12.5


def test_a_refused_move_changes_nothing():
    g = game(scenario(team() + enemy()), dice=[6])
    before = g.hash()
    with pytest.raises(IllegalAction):
        move(g, "ft", "patrol", (30, 10))
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "move", "mode": "patrol", "element": "ft", "to": ["x", 1]})
    assert g.hash() == before


def test_uphill_on_a_steep_slope_is_half_speed_g01_t14():
    hill = {"id": "hill", "type": "hill", "polygon": [[18, 0], [34, 0], [34, 20], [18, 20]], "height": 3.0}
    g = game(scenario(team(x=20) + enemy(), terrain=[hill]), dice=[6])
    assert g.elevation(26, 10) > g.elevation(20, 10) + 0.25
    with pytest.raises(IllegalAction) as err:
        move(g, "ft", "patrol", (24, 10))         # 4" uphill: only 3" allowed
    assert "uphill" in err.value.reason and "G-01" in err.value.clause
    move(g, "ft", "patrol", (23, 10))
    assert g.state.stands["ft1"].x == 23
