"""The One Brain-Cell rules in play (game.rulesets.obc.game): small tables set up by hand, the dice forced,
and each act's real outcome checked against its clause."""

from __future__ import annotations

import pytest

from game.rules.errors import IllegalAction
from game.rulesets.obc.game import ObcGame
from game.rulesets.obc.scenario import build


def man(mid: str, at: list[float], weapon: str = "rifle", **kw) -> dict:
    return {"id": mid, "name": mid.upper(), "weapon": weapon, "at": at, **kw}


def table(allied: list[dict], insurgent: list[dict], terrain: list[dict] | None = None, extra: list[dict] | None = None,
          authority: int = 5) -> dict:
    return {"scenario": {"ruleset": "obc", "id": "t", "title": "t", "turns": 5, "table": {"width": 48, "height": 48}},
            "side": [{"id": "allied", "name": "US", "edge": "south"}, {"id": "insurgent", "name": "VC", "edge": "north"}],
            "terrain": terrain or [],
            "squad": [{"id": "us", "side": "allied", "name": "US squad", "kind": "infantry", "order": "Clear the village",
                       "aim": {"kind": "take", "at": [24, 40], "radius": 4}, "leader": allied[0]["id"],
                       "authority": authority, "men": allied},
                      {"id": "vc", "side": "insurgent", "name": "VC cell", "kind": "infantry", "order": "Hold",
                       "aim": {"kind": "hold", "at": [24, 40], "radius": 4}, "leader": insurgent[0]["id"],
                       "authority": 4, "men": insurgent}] + (extra or [])}


def game(raw: dict, side: str = "allied") -> ObcGame:
    g = ObcGame(build(raw, "t"), 1)
    g.state.first = g.state.to_act = side  # the first mover (G-42), set by hand for the test
    return g


def activate(g: ObcGame, squad: str, independent_d6: int = 1) -> None:
    g.dice.force([independent_d6])
    g.act(g.state.squads[squad].side, {"type": "activate", "squad": squad})


def rolls(events: list[dict], purpose: str) -> list[dict]:
    return [e for e in events if e["type"] == "roll" and e["purpose"] == purpose]


def test_authority_and_the_independent_men():  # OBC-15, OBC-16, G-42
    us = [man("ldr", [10, 10]), man("a", [11, 10]), man("b", [12, 10]), man("c", [13, 10]), man("far", [30, 10])]
    g = game(table(us, [man("v", [40, 45])], authority=1))
    activate(g, "us", independent_d6=2)  # ½d6 of a 2 is 1 (G-42)
    ev = rolls(g.events, "independent men")[-1]
    assert ev["result"] == 1 and ev["clause"] == "OBC-16; G-42"
    for mid in ("a", "b"):  # one under authority (level 1), one independent
        g.act("allied", {"type": "hold", "man": mid})
    assert {m.id for m in g.actors()} == {"ldr"}  # c and the man far out of the zone may not act
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "hold", "man": "c"})
    assert "OBC-15" in exc.value.clause


@pytest.mark.parametrize(("to", "ok"), [([16, 10], True), ([16.1, 10], False)])
def test_infantry_moves_6_inches_across_country(to, ok):  # OBC-3
    g = game(table([man("ldr", [10, 10])], [man("v", [40, 45])]))
    activate(g, "us")
    if ok:
        g.act("allied", {"type": "move", "man": "ldr", "to": to})
        assert (g.state.men["ldr"].x, g.state.men["ldr"].y) == (16, 10)
    else:
        with pytest.raises(IllegalAction) as exc:
            g.act("allied", {"type": "move", "man": "ldr", "to": to})
        assert exc.value.clause == "OBC-3"


def test_roads_and_paddies_and_running():  # OBC-3, OBC-8
    terrain = [{"id": "rd", "type": "trail", "path": [[0, 10], [48, 10]], "width": 1.2},
               {"id": "pd", "type": "paddy", "polygon": [[0, 20], [48, 20], [48, 30], [0, 30]]}]
    g = game(table([man("ldr", [2, 10]), man("p", [2, 22]), man("r", [2, 15])], [man("v", [40, 45])], terrain))
    activate(g, "us")
    g.act("allied", {"type": "move", "man": "ldr", "to": [10, 10]})  # 8" along the road
    assert g.preview("allied", {"type": "move", "man": "p", "to": [6.01, 22]})["legal"] is False  # paddy: 4"
    g.act("allied", {"type": "move", "man": "r", "to": [11, 15], "run": True})  # 6" x 1.5
    assert g.state.men["r"].fleeting_turn == 1  # G-42: a man who ran is a fleeting target


def test_a_man_who_moved_over_half_may_not_fire():  # OBC-6
    g = game(table([man("ldr", [10, 10]), man("a", [12, 10])], [man("v", [12, 18])]))
    activate(g, "us")
    g.act("allied", {"type": "move", "man": "ldr", "to": [10, 13]})  # half of 6"
    g.act("allied", {"type": "move", "man": "a", "to": [12, 13.5]})  # over half
    offers = g.legal_actions("allied")
    assert any(o["type"] == "fire" and o["man"] == "ldr" and "targets" in o for o in offers)
    assert not any(o["type"] == "fire" and o["man"] == "a" and "targets" in o for o in offers)


def test_rifle_fire_by_range_and_posture_then_its_effect():  # OBC-19, OBC-21, OBC-29
    g = game(table([man("ldr", [10, 10])], [man("v", [10, 15])]))
    activate(g, "us")
    shot = g.preview("allied", {"type": "fire", "man": "ldr", "target": "v"})
    assert (shot["band"], shot["need"], shot["column"]) == ("short", 4, "standing")
    assert shot["modifiers"][0]["name"] == "firer has not moved" and shot["chance"] == pytest.approx(4 / 6, abs=1e-3)
    g.dice.force([3, 6, 6])  # 3 + 1 = 4: a hit; effect 6: dead; a friend down... none near
    evs = g.act("allied", {"type": "fire", "man": "ldr", "target": "v"})
    assert rolls(evs, "to hit")[0]["success"] and rolls(evs, "fire effect")[0]["effect"] == "dead"
    assert g.state.men["v"].status == "dead"


def test_the_mg_burst_hits_one_man_each_nearest_first():  # OBC-23, OBC-26, G-42
    vc = [man("v1", [20, 20]), man("v2", [21, 20]), man("v3", [19.2, 21.2]), man("v4", [23, 20])]
    g = game(table([man("ldr", [20, 12], "mg")], vc))
    activate(g, "us")
    g.dice.force([1, 2, 3, 6, 3, 6, 3, 6, 6, 6, 6])  # 8": short, standing: 2d6 = 3; each wounded (3), his check 6
    evs = g.act("allied", {"type": "fire", "man": "ldr", "target": "v1"})
    burst = rolls(evs, "MG burst")[0]
    assert burst["entry"] == "2d6" and burst["result"] == 3
    hit = [e["man"] for e in rolls(evs, "fire effect")]
    assert hit == ["v1", "v2", "v3"]  # v4 is outside the 3" square
    assert all(g.state.men[m].wounds == 1 for m in hit)


def test_a_bomb_kills_in_its_square_and_pins_half_beside_it():  # OBC-27, OBC-36, G-42
    terrain = [{"id": "tr", "type": "trench", "path": [[20, 29.1], [27, 29.1]], "width": 1.0}]
    vc = [man("v1", [20, 30]), man("v2", [21, 30]), man("v3", [20, 31.2]), man("v4", [26, 30]), man("v5", [20.4, 29.2])]
    raw = table([man("ldr", [20, 20], "blooper")], vc, terrain)
    g = game(raw)
    activate(g, "us")
    g.dice.force([1] + [6] * 20)  # the scatter die shows a hit; every morale check passes
    evs = g.act("allied", {"type": "fire", "man": "ldr", "at": [20, 30]})
    assert rolls(evs, "scatter")[0]["success"]
    assert g.state.men["v1"].status == "dead"  # in the square
    assert not g.state.men["v5"].stunned  # beside it, in the trench: protected from the blast
    pinned = [m for m in ("v2", "v3") if g.state.men[m].stunned]
    assert len(pinned) == 1 and pinned == ["v2"]  # half (one of two) beside it, the nearest
    assert g.state.men["v4"].status == "ok"


def test_wounded_twice_is_disabled():  # OBC-30, G-42
    g = game(table([man("ldr", [10, 10])], [man("v", [10, 15])]))
    v = g.state.men["v"]
    g.dice.force([6] * 10)
    g.hurt(v, "wounded", "allied", "test")
    assert v.wounds == 1 and v.stunned == 1 and v.able
    g.hurt(v, "wounded", "allied", "test")
    assert v.status == "disabled"


def test_a_failed_check_is_carried_out_in_the_next_move():  # OBC-43, OBC-44, OBC-45, OBC-14
    g = game(table([man("ldr", [10, 10])], [man("v", [10, 15]), man("w", [24, 40])]))
    activate(g, "us")
    g.dice.force([1, 2, 6])  # miss (1 + 1 < 4); first time under fire: 2 fails 3+; effect 6: blind panic
    g.act("allied", {"type": "fire", "man": "ldr", "target": "v"})
    v = g.state.men["v"]
    assert v.pending == "blind_panic" and (v.x, v.y) == (10, 15)  # not yet (OBC-44)
    g.act("allied", {"type": "done"})
    g.dice.force([6])  # the ½d6
    g.act("insurgent", {"type": "activate", "squad": "vc"})
    assert v.panicked and v.fleeing and v.pending is None
    assert v.x == pytest.approx(10 - 6) and v.y == 15  # his full move toward the nearest edge (west)


def test_a_panicked_man_rallies_in_his_leaders_zone():  # OBC-46, G-42
    g = game(table([man("ldr", [10, 10]), man("a", [12, 10])], [man("v", [40, 45])]))
    a = g.state.men["a"]
    a.panicked = True
    g.dice.force([4, 1])  # rally 4+: passes; then the ½d6
    g.act("allied", {"type": "activate", "squad": "us"})
    assert not a.panicked and a.stunned == 2 and a.id in g.state.squads["us"].sitting  # pinned for two moves
    g.act("allied", {"type": "done"})
    assert a.stunned == 1


def test_hand_to_hand_in_base_contact():  # OBC-50, OBC-51
    g = game(table([man("ldr", [10, 10])], [man("v", [10, 14])]))
    activate(g, "us")
    g.dice.force([6, 2, 6, 6, 6])  # 6 against 2 - 1 (surprised? he saw him coming: no) = 4: wounded
    g.act("allied", {"type": "move", "man": "ldr", "to": [10, 13.5]})
    hth = [e for e in g.events if e["type"] == "hth"][-1]
    assert hth["loser"] == "v" and hth["result"] == "wounded" and g.state.men["v"].wounds == 1


def test_the_leader_down_another_takes_over_one_level_lower():  # OBC-18
    g = game(table([man("ldr", [10, 10]), man("a", [12, 10]), man("b", [20, 10])], [man("v", [40, 45])]))
    g.state.men["ldr"].status = "dead"
    activate(g, "us")
    q = g.state.squads["us"]
    assert q.leader == "a" and q.authority == 4


def chopper(at: list[float], height: float, aboard: bool = True) -> list[dict]:
    return [{"id": "ch", "side": "allied", "name": "Huey", "kind": "chopper", "order": "Put them down",
             "aim": {"kind": "land", "at": [20, 20], "radius": 3}, "authority": 4,
             "vehicle": {"id": "h", "name": "Huey", "at": at, "height": height},
             "men": [man("dg", at, "mg")]}]


def test_a_chopper_flies_32_inches_with_at_most_12_of_height_change():  # OBC-13
    g = game(table([man("ldr", [10, 10])], [man("v", [40, 45])], extra=chopper([20, 2], 12)))
    activate(g, "ch")
    with pytest.raises(IllegalAction, match="beyond 32") as exc:  # 21" and 12" down: 33"
        g.act("allied", {"type": "move", "vehicle": "h", "to": [20, 23], "height": 0})
    assert exc.value.clause == "OBC-13"
    g.act("allied", {"type": "move", "vehicle": "h", "to": [20, 22], "height": 0})  # 20" and land: the rulebook's example
    v = g.state.vehicles["h"]
    assert (v.y, v.height, v.moved) == (22, 0, 32)
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "move", "vehicle": "h", "to": [20, 30], "height": 0})  # it moved this turn


def test_a_chopper_climbs_no_more_than_12_inches_and_sets_down_only_on_clear_ground():  # OBC-13, G-42
    terrain = [{"id": "j", "type": "dense", "polygon": [[30, 0], [40, 0], [40, 10], [30, 10]]}]
    g = game(table([man("ldr", [10, 10])], [man("v", [40, 45])], terrain, extra=chopper([20, 2], 0)))
    activate(g, "ch")
    with pytest.raises(IllegalAction, match="height change"):
        g.act("allied", {"type": "move", "vehicle": "h", "to": [20, 4], "height": 12.5})
    with pytest.raises(IllegalAction, match="sets down"):
        g.act("allied", {"type": "move", "vehicle": "h", "to": [35, 5], "height": 0})


def test_debus_two_men_per_sixth_of_the_move():  # OBC-11
    raw = table([man(f"u{k}", [20, 2]) for k in range(10)], [man("v", [40, 45])], extra=chopper([20, 2], 12))
    raw["squad"][0]["aboard"] = "h"
    g = game(raw)
    activate(g, "ch")
    g.act("allied", {"type": "move", "vehicle": "h", "to": [20, 10], "height": 0})  # 8" + 12" = 20" of 32
    evs = g.act("allied", {"type": "debus", "vehicle": "h"})
    assert len(evs[0]["men"]) == 8 and len(g.state.vehicles["h"].passengers) == 2  # 2 x ceil(6 x 20/32)


def test_a_radio_call_crosses_two_levels_a_turn():  # OBC-49, G-42
    rto = man("rto", [12, 10], "radio")
    extra = [{"id": "dustoff", "side": "allied", "name": "Dustoff", "kind": "chopper", "order": "Evacuate",
              "reserve": True, "levels": 3, "authority": 4,
              "vehicle": {"id": "d", "name": "Dustoff", "at": [24, 0.5], "height": 12}, "men": [man("dp", [24, 0.5])]}]
    g = game(table([man("ldr", [10, 10]), rto], [man("v", [40, 45])], extra=extra))
    activate(g, "us")
    evs = g.act("allied", {"type": "radio", "man": "rto", "call": "dustoff"})
    assert evs[-1]["arrives"] == 3  # 3 levels: crossed by the end of turn 2, in at the start of turn 3
    assert "dustoff" in g.state.reserves and "dustoff" not in g.movable("allied")


def test_hits_destroy_a_chopper_and_those_aboard_roll():  # OBC-31, G-42
    g = game(table([man("ldr", [10, 10])], [man("v", [40, 45])], extra=chopper([20, 20], 0)))
    v = g.state.vehicles["h"]
    g.dice.force([1])  # the door gunner: 1 - dead
    g.vehicle_hits(v, 5, "insurgent")  # five in one move
    assert v.status == "dead" and g.state.men["dg"].status == "dead"


def test_a_rocket_destroys_a_landed_chopper():  # OBC-33, OBC-34, C-33
    g = game(table([man("ldr", [10, 10])], [man("v", [20, 28], "rpg")], extra=chopper([20, 20], 0)), "insurgent")
    activate(g, "vc")
    shot = g.preview("insurgent", {"type": "fire", "man": "v", "target": "h"})
    assert shot["need"] == 2  # 8": floor(8 / 6) + 1
    g.dice.force([2, 4])  # hits; the door gunner escapes
    g.act("insurgent", {"type": "fire", "man": "v", "target": "h"})
    assert g.state.vehicles["h"].status == "dead" and g.state.men["dg"].status == "ok"


def test_a_grenade_into_a_hootch_kills_those_inside():  # OBC-40, OBC-41
    terrain = [{"id": "hut", "type": "hootch", "point": [20, 30], "size": [2.5, 2.5]}]
    g = game(table([man("ldr", [20, 28.2])], [man("v", [20, 30])], terrain))
    activate(g, "us")
    assert any(o["type"] == "grenade" and o["into"] == "hut" for o in g.legal_actions("allied"))
    g.dice.force([4] + [6] * 5)
    g.act("allied", {"type": "grenade", "man": "ldr", "into": "hut"})
    assert g.state.men["v"].status == "dead"


def test_one_man_carries_a_disabled_man_at_half_speed():  # OBC-42
    g = game(table([man("ldr", [10, 10]), man("a", [10.5, 10])], [man("v", [40, 45])]))
    g.state.men["a"].status = "disabled"
    activate(g, "us")
    g.act("allied", {"type": "carry", "man": "ldr", "target": "a"})
    assert g.preview("allied", {"type": "move", "man": "ldr", "to": [10, 13]})["legal"]  # half of 6"
    assert not g.preview("allied", {"type": "move", "man": "ldr", "to": [10, 13.1]})["legal"]
    g.act("allied", {"type": "move", "man": "ldr", "to": [10, 13]})
    assert (g.state.men["a"].x, g.state.men["a"].y) == (10, 13)


def test_a_flying_chopper_cannot_be_aimed_at_by_a_mortar():  # OBC-28, G-42
    g = game(table([man("ldr", [10, 10])], [man("v", [20, 30], "mortar60")], extra=chopper([20, 20], 6)), "insurgent")
    activate(g, "vc")
    assert g.preview("insurgent", {"type": "fire", "man": "v", "at": [20, 20]})["legal"] is False
    with pytest.raises(IllegalAction) as exc:
        g.act("insurgent", {"type": "fire", "man": "v", "at": [20, 20]})
    assert exc.value.clause == "OBC-28; G-42"
    with pytest.raises(IllegalAction, match="range"):
        g.act("insurgent", {"type": "fire", "man": "v", "at": [20, 25]})  # 5": inside the 60 mm's 6" (G-42)


def test_an_mg_with_one_crewman_left_moves_half():  # OBC-5
    us = [man("ldr", [10, 10], "mg", team="m60"), man("ab", [11, 10], team="m60")]
    g = game(table(us, [man("v", [40, 45])]))
    assert g.reach(g.state.men["ldr"], False) == 6
    g.state.men["ab"].status = "dead"
    assert g.reach(g.state.men["ldr"], False) == 3


def test_running_lasts_one_turn():  # OBC-8
    g = game(table([man("ldr", [10, 10])], [man("v", [40, 45])]))
    activate(g, "us")
    g.act("allied", {"type": "move", "man": "ldr", "to": [10, 19], "run": True})
    g.state.turn += 1  # the next turn (set by hand)
    g.state.men["ldr"].moved, g.state.men["ldr"].acted, g.state.men["ldr"].done = 0.0, False, False
    assert g.may_run(g.state.men["ldr"]) is False
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "move", "man": "ldr", "to": [10, 21], "run": True})
    assert exc.value.clause == "OBC-8"


def test_a_man_out_of_command_fires_at_minus_one():  # OBC-17
    g = game(table([man("ldr", [10, 10]), man("far", [30, 10])], [man("v", [30, 15])]))
    activate(g, "us", independent_d6=1)
    mods = g.preview("allied", {"type": "fire", "man": "far", "target": "v"})["modifiers"]
    assert {"name": "out of command", "value": -1, "clause": "OBC-17"} in mods


def test_a_man_boards_a_landed_chopper():  # OBC-4, OBC-11
    g = game(table([man("ldr", [20, 16])], [man("v", [40, 45])], extra=chopper([20, 20], 0)))
    activate(g, "us")
    assert g.preview("allied", {"type": "move", "man": "ldr", "to": [20, 20]})["legal"]
    g.act("allied", {"type": "embus", "man": "ldr", "vehicle": "h"})  # 4" + 2" for getting in
    assert g.state.men["ldr"].aboard == "h" and g.state.vehicles["h"].passengers == ["ldr"]


def test_a_bomb_on_a_hootch_kills_all_inside_it():  # OBC-37
    terrain = [{"id": "hut", "type": "hootch", "point": [20, 30], "size": [2.5, 2.5]}]
    vc = [man("v1", [19.2, 29.2]), man("v2", [20.8, 30.8]), man("v3", [20, 32.5])]
    g = game(table([man("ldr", [20, 20], "blooper")], vc, terrain))
    activate(g, "us")
    g.dice.force([2] + [6] * 10)  # on target
    g.act("allied", {"type": "fire", "man": "ldr", "at": [20, 30]})
    assert [g.state.men[m].status for m in ("v1", "v2", "v3")] == ["dead", "dead", "ok"]


def test_a_bomb_destroys_a_landed_chopper_in_its_square():  # OBC-36, OBC-38, G-42
    g = game(table([man("ldr", [10, 10])], [man("v", [40, 45])], extra=chopper([20, 20], 0)))
    g.dice.force([6, 6])
    g.blast((20.2, 20.3), "insurgent", "mortar bomb")
    assert g.state.vehicles["h"].status == "dead"


def test_the_game_previews_a_chopper_move():  # OBC-13
    g = game(table([man("ldr", [10, 10])], [man("v", [40, 45])], extra=chopper([20, 2], 12)))
    plan = g.preview("allied", {"type": "move", "vehicle": "h", "to": [20, 23], "height": 0})
    assert not plan["legal"] and plan["clause"] == "OBC-13" and plan["distance"] == 33


def test_the_engine_offers_the_heights_a_chopper_may_fly_to():  # OBC-13
    g = game(table([man("ldr", [10, 10])], [man("v", [40, 45])], extra=chopper([20, 2], 12)))
    activate(g, "ch")
    (offer,) = [o for o in g.legal_actions("allied") if o["type"] == "move" and o.get("vehicle") == "h"]
    assert offer["params"]["height"] == {"kind": "choice", "choices": [0.0, 3.0, 6.0, 9.0, 12.0, 15.0, 18.0, 21.0, 24.0],
                                         "default": 12.0}
    g.state.vehicles["h"].height = 4.5
    assert g.heights(g.state.vehicles["h"]) == [0.0, 3.0, 4.5, 6.0, 9.0, 12.0, 15.0]  # 12" either way, and its own
