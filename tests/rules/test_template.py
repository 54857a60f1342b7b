"""One template attack (game/rules/template.py; DD-8.10, DD-5.9, DD-5.19, DD-5.27, DD-8.9; G-19, G-25, G-34)
with forced dice. Each test is a tiny table: the clause in its comment, the dice forced, the result."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from game.rules import fire, template
from game.rules.blinds import place_blind
from game.rules.contract import COMMON_EVENT_FIELDS, contract
from game.rules.game import Game
from game.rules.scenario import build_scenario
from game.rules.state import base_of
from game.rules.turn import start_turn
from tests.builders import element, scenario, stand


def table(elements, terrain=None, los=False) -> Game:
    """A 48" table, the Allies to act first; a side with nothing on it gets one stand far away."""
    for side, x in (("allied", 2.0), ("insurgent", 46.0)):
        if not any(e["side"] == side for e in elements):
            elements = elements + [element(f"{side}_far", side, [stand(f"{side}_far_a", "us_rifle_team"
                                                                      if side == "allied" else "vc_rifle_cell", x, 46)],
                                           kind="squad" if side == "allied" else "cell")]
    g = Game(build_scenario(scenario(elements, terrain, first_side="allied")), 1, start=False)
    if los:  # every stand sees every other (turn 1's offers look at LOS)
        g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    start_turn(g)
    return g


def declared(g: Game, since: int) -> None:
    """Every event has only the fields game/data/contract.toml declares for its type (docs/protocol.md)."""
    c = contract()
    for ev in g.events_for("referee", g.events[since:]):
        assert not set(ev) - set(COMMON_EVENT_FIELDS) - set(c.events[ev["type"]].fields), ev


def rolls(g: Game, since: int, purpose: str) -> list[dict]:
    return [e for e in g.events[since:] if e["type"] == "roll" and e["purpose"] == purpose]


def mortar(x: float, y: float, **what) -> template.Template:
    """A Medium (2") blast, 3 FP per stand (G-25, G-19 81/82mm)."""
    return template.from_table("medium", x, y, **{"kind": "mortar", "fp": 3, "clause": "DD-8.10; G-19; G-25",
                                                  "name": "82mm mortar", **what})


def test_a_circle_on_two_sides_rolls_each_stand_its_own_fp_and_save():
    # DD-8.10: every stand touched, friend or foe, takes the listed FP; each saves by its own cover
    # (DD-5.6: open ground 6); stands outside the template are untouched.
    g = table([element("al", "allied", [stand("al_a", "us_rifle_team", 10, 10)]),
               element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 12.5, 10)], kind="cell"),
               element("far", "allied", [stand("far_a", "us_rifle_team", 30, 30)])])
    t = mortar(11.25, 10)
    assert [s.id for s in template.touched(g, t)] == ["al_a", "vc_a"]
    n = len(g.events)
    # al_a: 3 dice 4,5,1 -> 2 hits; saves 6 (saved), 2 (not). vc_a: 3,3,6 -> 1 hit; save 1 (not).
    # Morale (DD-8.10, 4+): al 5 passes, vc 1 fails -> Pinned.
    g.dice.force([4, 5, 1] + [6, 2] + [3, 3, 6] + [1] + [5, 1])
    out = template.attack(g, t, side="insurgent")
    assert g.dice.forced_left == 0
    ev = g.events[n:]
    assert ev[0]["type"] == "template" and ev[0]["kind"] == "mortar" and ev[0]["radius"] == 1.0
    to_hit = rolls(g, n, "to hit")
    assert [(r["stand"], r["dice"], r["result"]) for r in to_hit] == [("al_a", [4, 5, 1], 2), ("vc_a", [3, 3, 6], 1)]
    assert [(r["stand"], r["result"]) for r in rolls(g, n, "save")] == [("al_a", "pass"), ("al_a", "fail"),
                                                                        ("vc_a", "fail")]
    assert g.state.stands["al_a"].hits == 1 and g.state.stands["vc_a"].hits == 1
    assert out.pinned == ["vc"] and out.passed == ["al"]
    assert g.state.elements["vc"].pinned and not g.state.elements["al"].pinned
    assert g.state.stands["far_a"].hits == 0
    assert not any("far" in (e.get("element") or "") or e.get("stand") == "far_a" for e in ev)
    declared(g, n)


def test_a_small_stand_hit_passes_it_to_a_medium_stand_of_its_squad_on_2_to_6():
    # DD-5.9, G-25 (every explosive template), G-34: a Small stand hit by a template rolls Look Out,
    # Sir!; on 2-6 the hit moves to a Medium stand of its squad within 2" (here outside the template).
    def squad():
        return table([element("sq", "allied", [stand("sl", "us_squad_leader", 20, 20),
                                               stand("rt", "us_rifle_team", 22, 20)])])

    g = squad()
    t = template.from_table("small", 20, 20, kind="booby_trap", fp=2, clause="G-08 3")
    assert [s.id for s in template.touched(g, t)] == ["sl"]
    assert fire.gap(g, g.state.stands["sl"], g.state.stands["rt"]) <= 2.0
    n = len(g.events)
    g.dice.force([5, 1] + [3] + [2] + [6])  # 1 hit; Look Out, Sir! 3 passes; rt's save 2 fails; morale 6
    template.attack(g, t, side="insurgent")
    los = rolls(g, n, "Look Out, Sir!")
    assert [(r["stand"], r["result"]) for r in los] == [("sl", "pass")]
    assert [r["stand"] for r in rolls(g, n, "save")] == ["rt"]
    assert g.state.stands["sl"].alive and g.state.stands["rt"].hits == 1
    g = squad()
    g.dice.force([5, 1] + [1] + [2] + [6])  # Look Out, Sir! 1 fails: the Small stand takes it (C-19: 1 HP)
    template.attack(g, t, side="insurgent")
    assert not g.state.stands["sl"].alive and g.state.stands["rt"].hits == 0


def test_every_survivor_tests_morale_even_unhit_and_is_pinned_on_a_fail():
    # DD-8.10: "Survivors test Morale or are Pinned" — every element touched, hit or not.
    g = table([element("al", "allied", [stand("al_a", "us_rifle_team", 10, 10)])])
    n = len(g.events)
    g.dice.force([1, 2, 3] + [2])  # no hit; Morale 4+ rolled 2: Pinned
    out = template.attack(g, mortar(10, 10), side="insurgent")
    assert out.hits == 0 and out.pinned == ["al"] and g.state.elements["al"].pinned
    assert len([r for r in g.events[n:] if r["type"] == "roll" and r["purpose"].startswith("Morale")]) == 1


def test_a_hidden_element_inside_is_not_hit_and_pins_in_secret():
    # G-34: a hidden (Blind) unit inside takes the pin test secretly and cannot be hit (docs/fog.md).
    g = table([element("al", "allied", [stand("al_a", "us_rifle_team", 10, 10)]),
               element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 30, 30)], kind="cell")])
    place_blind(g, "insurgent", 12.4, 10, ["vc"])
    t = mortar(11.25, 10)
    assert [s.id for s in template.touched(g, t)] == ["al_a"]
    assert template.hidden_under(g, t) == ["vc"]
    n = len(g.events)
    g.dice.force([1, 1, 1] + [5] + [1])  # al_a missed; al's Morale 5 passes; vc's secret test 1 fails
    out = template.attack(g, t, side="allied")
    assert g.dice.forced_left == 0
    assert [r["stand"] for r in rolls(g, n, "to hit")] == ["al_a"]
    assert g.state.stands["vc_a"].hits == 0 and out.pinned == ["vc"] and g.state.elements["vc"].pinned
    secret = [e for e in g.events[n:] if e.get("element") == "vc"]
    assert secret and all(e["_visible"] == "insurgent" for e in secret)
    seen = g.events_for("allied", g.events[n:])
    assert not any(e.get("element") == "vc" or "vc" in str(e.get("stands", "")) for e in seen)
    declared(g, n)


def test_danger_close_one_die_at_3_inches_none_at_5():
    # DD-8.9, G-34: friendly stands within 4" of the final edge, not under it, each take 1 FP die
    # (normal to-hit and save); any hit means a Pinning test.
    g = table([element("near", "allied", [stand("near_a", "us_rifle_team", 14.985, 10)]),
               element("far", "allied", [stand("far_a", "us_rifle_team", 10 - 6.985, 10)]),
               element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 10, 13.63)], kind="cell")])
    t = mortar(10, 10)
    assert t.gap(base_of(g.book, g.state.stands["near_a"])) == pytest.approx(3.0)
    assert t.gap(base_of(g.book, g.state.stands["far_a"])) == pytest.approx(5.0)
    n = len(g.events)
    g.dice.force([5] + [6] + [1])  # near_a: 1 die hits; saved on 6; the hit still pins (Morale 1 fails)
    out = template.danger_close(g, t, "allied")
    assert g.dice.forced_left == 0
    assert [(r["stand"], len(r["dice"])) for r in rolls(g, n, "to hit")] == [("near_a", 1)]
    assert out.saved == 1 and out.pinned == ["near"] and not g.state.elements["far"].pinned
    assert not any(e.get("stand") == "vc_a" for e in g.events[n:])  # the enemy is not "friendly"
    declared(g, n)


def test_the_weapons_own_save_rule():
    # G-19 napalm: no vegetation or hootch saves (6) but bunkers and trenches 5+; G-25 claymore: no
    # vegetation saves, a bunker's own 4+ still applies.
    jungle = {"id": "j", "type": "dense", "polygon": [[0, 0], [20, 0], [20, 20], [0, 20]]}
    bunker = {"id": "b", "type": "bunker", "polygon": [[25, 0], [28, 0], [28, 3], [25, 3]]}
    g = table([element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 10, 10)], kind="cell"),
               element("vb", "insurgent", [stand("vb_a", "vc_rifle_cell", 26.5, 1.5)], kind="cell")],
              terrain=[jungle, bunker])
    j, b = g.state.stands["vc_a"], g.state.stands["vb_a"]
    napalm = template.context(template.from_table("napalm", 10, 10, heading=0, kind="napalm", fp=4))
    claymore = template.context(template.from_table("claymore", 6, 10, heading=0, kind="booby_trap", fp=3))
    assert fire.save_need(g, j, fire.Context(), 10)[0] == 5
    assert fire.save_need(g, j, napalm, 10)[0] == 6 and fire.save_need(g, b, napalm, 10)[0] == 5
    assert fire.save_need(g, j, claymore, 10)[0] == 6 and fire.save_need(g, b, claymore, 10)[0] == 4


def test_shapes_touch_what_they_cover():
    # G-25: napalm 2" x 6" oval along the heading, claymore 5" 60-degree fan; G-19 strafe 2" x 6" strip.
    g = table([element("vc", "insurgent", [stand("v1", "vc_rifle_cell", 12.5, 10), stand("v2", "vc_rifle_cell", 10, 13)],
                       kind="cell")])
    along_x = template.from_table("napalm", 10, 10, heading=0)
    along_y = template.from_table("napalm", 10, 10, heading=90)
    assert [s.id for s in template.touched(g, along_x)] == ["v1"]
    assert [s.id for s in template.touched(g, along_y)] == ["v2"]
    fan = template.from_table("claymore", 8, 10, heading=0)
    assert [s.id for s in template.touched(g, fan)] == ["v1"]
    ev = along_x.to_event()
    assert ev["facing"] == 0 and ev["length"] == 6.0 and ev["width"] == 2.0 and len(ev["points"]) > 8
    n = len(g.events)
    template.attack(g, dataclasses.replace(fan, fp=3), side="allied")  # G-08 6: 3 FP to each stand in the fan
    assert [r["stand"] for r in rolls(g, n, "to hit")] == ["v1"]
    declared(g, n)


def test_odds_are_exact_for_one_stand():
    # DD-8.10 with DD-5.3/5.6: 3 dice at 4+ (1/2), each unsaved on open ground 5/6 -> p = 5/12 a die;
    # a Medium stand (2 HP) is removed by 2 or more, ringed by exactly 1; Morale 4+ fails 1/2.
    g = table([element("al", "allied", [stand("al_a", "us_rifle_team", 10, 10)])])
    res = template.odds(g, mortar(10, 10), side="insurgent")
    p = 5 / 12
    row = res["stands"]["al_a"]
    assert row["expected_hits"] == pytest.approx(1.5)
    assert row["p_removed"] == pytest.approx(3 * p * p * (1 - p) + p ** 3)
    assert row["p_ring"] == pytest.approx(3 * p * (1 - p) ** 2)
    assert res["elements"]["al"]["p_pinned"] == pytest.approx((1 - row["p_removed"]) * 0.5)
    assert template.expected_hits(g, mortar(10, 10), side="insurgent")["al_a"]["expected_damage"] == \
        pytest.approx(row["p_ring"] + 2 * row["p_removed"])  # a 2-HP stand takes at most 2


def test_beaten_zone_is_a_pooled_template_and_its_preview_matches():
    # DD-5.27, G-34: one pool of 3 dice, no cover modifier, hits nearest the firer first.
    from game.rules import odds

    g = table([element("mg", "allied", [stand("mg_1", "us_mg_team", 22, 10)]),
               element("hq", "allied", [stand("pc", "us_platoon_commander", 22, 4)], kind="hq"),  # CP (DD-2.3)
               element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 21, 20), stand("vc_b", "vc_rifle_cell", 23.2, 20)],
                       kind="cell")],
              terrain=[{"id": "j", "type": "dense", "polygon": [[15, 15], [30, 15], [30, 25], [15, 25]]}], los=True)
    plan = fire.plan_beaten_zone(g, g.state.elements["mg"], [22, 20])
    assert isinstance(plan, template.Plan) and len(plan.pools) == 1 and plan.pools[0].groups[0].need == 4
    res = odds.preview(g, "allied", {"type": "area_fire", "element": "mg", "at": [22, 20]})
    assert res["expected_hits"] == pytest.approx(1.5)
    assert res["elements"]["vc"]["p_tested"] == pytest.approx(1.0 - res["elements"]["vc"]["p_eliminated"])


# -- the Jungle Ghost's blasts go through the one template attack (G-12, G-08) ---------------------------
def solo(elements, terrain=None) -> Game:
    from game.rules import jungle_ghost as jg

    g = Game(build_scenario(scenario(elements, terrain, first_side="allied")), 1, start=False, threat=2)
    jg.enable(g)
    start_turn(g)
    return g


def test_mortar_harassment_is_a_per_stand_template_with_danger_close():
    # G-12: 82mm harassment, Medium blast (G-25: 2" across), 3 FP, 2d6 drift; DD-8.10: every stand under
    # it, friend or foe; DD-8.9, G-34: Insurgent stands within 4" take Danger Close.
    from game.rules import jungle_ghost as jg

    g = solo([element("sq", "allied", [stand("a", "us_rifle_team", 8, 10), stand("b", "us_rifle_team", 12, 10)]),
              element("hq", "allied", [stand("pc", "us_platoon_commander", 10, 2)], kind="hq"),
              element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 14.3, 10)], kind="cell")])
    assert jg.rules(g).doom.mortar_radius == template.from_table("medium", 0, 0).radius
    n = len(g.events)
    # aimed at sq (centre 10,10): 2d6 = 1+1, d6 1 = 0 degrees -> lands at (12, 10), on b only.
    # b: 3 dice 4,4,1 -> 2 hits, saves 2,2 -> removed; sq's Morale 5 passes. Danger Close on vc_a: 1 die
    # 6 hits, save 1 fails -> ring; vc's pin test 1 fails -> Pinned.
    g.dice.force([1, 1, 1] + [4, 4, 1] + [2, 2] + [5] + [6] + [1] + [1])
    jg.mortar(g)
    assert g.dice.forced_left == 0
    tpl = [e for e in g.events[n:] if e["type"] == "template"]
    assert tpl and tpl[0]["kind"] == "mortar" and (tpl[0]["x"], tpl[0]["y"]) == (12, 10)
    assert [(r["stand"], len(r["dice"])) for r in rolls(g, n, "to hit")] == [("b", 3), ("vc_a", 1)]
    assert not g.state.stands["b"].alive and g.state.stands["a"].hits == 0
    assert g.state.stands["vc_a"].hits == 1 and g.state.elements["vc"].pinned
    declared(g, n)


def test_booby_trap_grenade_is_a_small_blast_with_look_out_sir():
    # G-08 3: Small blast (1") on the triggering stand, 2 FP, normal saves, Look Out, Sir! (DD-5.9).
    from game.rules import jungle_ghost as jg
    from game.rules.state import Blind

    g = solo([element("sq", "allied", [stand("sl", "us_squad_leader", 20, 21), stand("rt", "us_rifle_team", 22, 21)]),
              element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 44, 44)], kind="cell")])
    trap = Blind("bt", "insurgent", 20, 23, False, [])
    n = len(g.events)
    # trap 3; 2 dice 4,5 -> 2 hits on sl: Look Out, Sir! 2 passes -> rt saves 6; then 1 fails -> sl's
    # save 3 fails: removed. sq's Morale 6 passes.
    g.dice.force([3] + [4, 5] + [2, 6] + [1, 3] + [6])
    assert jg.booby_trap(g, g.state.elements["sq"], trap, 0) == "activation_over"
    assert g.dice.forced_left == 0
    tpl = [e for e in g.events[n:] if e["type"] == "template"]
    assert tpl[0]["kind"] == "booby_trap" and tpl[0]["radius"] == 0.5
    assert [r["result"] for r in rolls(g, n, "Look Out, Sir!")] == ["pass", "fail"]
    assert not g.state.stands["sl"].alive and g.state.stands["rt"].hits == 0
    declared(g, n)


def test_every_booby_trap_blast_row_has_its_template():
    # G-08 3, 4, 6 and G-25: the blast rows put down the Small, Medium and Claymore-fan templates.
    from game.rules import jungle_ghost as jg

    rows = [r for r in jg.load_ghost().trap.values() if r.kind == "hits" and r.dice]
    assert {r.roll: template.for_clause(r.clause).id for r in rows} == {3: "small", 4: "medium", 6: "claymore"}


def test_booby_trap_claymore_fans_toward_the_element_and_strips_vegetation_saves():
    # G-08 6, G-25: the claymore's 5" 60-degree fan from the trap toward the element, 3 FP to each stand
    # inside, cover to hit (DD-5.4: dense jungle -1) but no vegetation save (6, not 5+).
    from game.rules import jungle_ghost as jg
    from game.rules.state import Blind

    jungle = {"id": "j", "type": "dense", "polygon": [[15, 15], [25, 15], [25, 30], [15, 30]]}
    g = solo([element("sq", "allied", [stand("rt", "us_rifle_team", 20, 21)]),
              element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 44, 44)], kind="cell")], [jungle])
    trap = Blind("bt", "insurgent", 20, 24, False, [])
    n = len(g.events)
    g.dice.force([6] + [5, 4, 1] + [5] + [6])  # trap 6; needs 5: one hit; the save needs 6: 5 fails
    jg.booby_trap(g, g.state.elements["sq"], trap, 0)
    assert g.dice.forced_left == 0
    tpl = [e for e in g.events[n:] if e["type"] == "template"][0]
    assert tpl["facing"] == pytest.approx(-90) and tpl["length"] == 5.0 and tpl["points"]
    assert rolls(g, n, "to hit")[0]["need"] == 5 and rolls(g, n, "save")[0]["need"] == 6
    assert g.state.stands["rt"].hits == 1
    declared(g, n)
