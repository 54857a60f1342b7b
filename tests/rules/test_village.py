"""The village: the Civic Drift Engine (DD-9B.8–9B.13; G-13, G-35, G-39; C-03) with forced dice.

Each test is a tiny table: a hamlet of two hootches (h1 at (22, 12.5), h2 at (30, 12.5)), a squad beside h1,
an HQ with a Medic, civilians and caches placed by the scenario's ``[village]``.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from game.rules import template, village
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import ScenarioError, build_scenario
from game.rules.turn import start_turn
from game.rules.village_civilians import grazed, hot_sectors
from tests.builders import element, scenario, stand

H1 = {"id": "h1", "type": "hootch", "point": [22, 12.5], "size": [2.5, 2]}
H2 = {"id": "h2", "type": "hootch", "point": [30, 12.5], "size": [2.5, 2]}
FAR = {"id": "h9", "type": "hootch", "point": [44, 44], "size": [2.5, 2]}


def squad(at=(22, 10)) -> dict:
    x, y = at
    return element("sq", "allied", [stand("sq_sl", "us_squad_leader", x, y - 1.5),
                                    stand("sq_a", "us_rifle_team", x - 2, y), stand("sq_b", "us_rifle_team", x + 2, y)],
                   name="1st Squad")


def hq(at=(5, 5)) -> dict:
    x, y = at
    return element("hq", "allied", [stand("pc", "us_platoon_commander", x, y), stand("rto", "us_rto", x + 1.3, y),
                                    stand("doc", "us_medic", x + 2.6, y)], kind="hq", name="HQ")


def vc(at=(44, 4), **extra) -> dict:
    return element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", at[0], at[1], 270)], kind="cell",
                   name="VC cell", **extra)


def make(elements=None, village_section=None, terrain=(H1, H2, FAR), drift=0) -> Game:
    raw = scenario(elements or [squad(), hq(), vc()], list(terrain))
    raw["village"] = village_section if village_section is not None else {"hootches": ["h1", "h2"]}
    g = Game(build_scenario(raw), 1, start=False)
    g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    g.state.civic_drift = drift  # the track as Turn 1's Tension Phase finds it (G-13)
    start_turn(g)
    g.state.sides["allied"].cp = 9
    return g


def of(events, kind):
    return [e for e in events if e["type"] == kind]


# -- the scenario section ------------------------------------------------------------------------------------
def test_auto_civilians_one_per_village_hootch():  # G-39: one per hamlet hootch, up to 4
    g = make()
    assert [(c.id, c.x, c.y) for c in village.civilians(g)] == [("civ1", 22.0, 12.5), ("civ2", 30.0, 12.5)]
    assert village.setup(g).hootches == ("h1", "h2")  # h9 is not of the village


def test_auto_civilians_stop_at_four():  # G-39
    huts = [{"id": f"k{i}", "type": "hootch", "point": [4 + 6 * i, 30], "size": [2, 2]} for i in range(6)]
    g = make(village_section={}, terrain=huts)
    assert len(village.civilians(g)) == 4 and len(village.setup(g).hootches) == 6


def test_section_problems_name_row_and_field():  # DD-9B.8, DD-9B.13
    raw = scenario([squad(), vc()], [H1, H2])
    raw["village"] = {"hootches": ["h1", "nope"], "cache": [{"id": "k1", "kind": "opium", "at": [1, 1]},
                                                            {"id": "k2", "kind": "rice", "at": [1, 1], "feature": "h1"},
                                                            {"id": "k3", "kind": "rice", "at": [100, 1]}]}
    with pytest.raises(ScenarioError) as err:
        build_scenario(raw)
    paths = {p.field for p in err.value.problems}
    assert {"village.hootches[1]", "village.cache[0].kind", "village.cache[1].at", "village.cache[2].at"} <= paths


def test_no_village_no_chapter():  # DD-9B.8: the chapter joins only with a [village]
    raw = scenario([squad(), vc()], [H1])
    g = Game(build_scenario(raw), 1)
    assert "village" not in g.state.chapters
    assert not [m for m in g.view("allied")["markers"] if m["kind"] in ("civilian", "cache")]


# -- the track ---------------------------------------------------------------------------------------------------
def test_drift_clamps_at_both_ends():  # DD-9B.8: -5..+5
    g = make(drift=4)
    assert village.drift(g, 3, "test", "DD-9B.8") == 1 and g.state.civic_drift == 5
    ev = of(g.events, "civic_drift")[-1]
    assert ev["drift"] == 5 and ev["change"] == 1 and ev["clause"] == "DD-9B.8"
    g.state.civic_drift = -4
    assert village.drift(g, -3, "test", "DD-9B.8") == -1 and g.state.civic_drift == -5


# -- burning a hootch (DD-9B.10) -----------------------------------------------------------------------------
BURN = {"type": "burn_hootch", "element": "sq", "feature": "h1"}


def test_burning_a_hootch_without_contraband_costs_one():  # DD-9B.10; G-35
    g = make([squad(at=(22, 10.9)), hq(), vc()])
    ev = g.act("allied", BURN)
    (burn,) = of(ev, "hootch_burned")
    assert burn["contraband"] is False and g.state.structures["h1"]["state"] == "rubble"
    assert g.state.civic_drift == -1 and of(ev, "civic_drift")[0]["change"] == -1
    g.act("insurgent", {"type": "pass"})
    with pytest.raises(IllegalAction) as err:  # rubble already
        g.check("allied", BURN)
    assert "DD-9B.10" in err.value.clause


def test_burning_a_hootch_where_contraband_was_found_is_free():  # DD-9B.10; DD-9B.13
    g = make([squad(at=(22, 10.9)), hq(), vc()],
             {"hootches": ["h1", "h2"], "cache": [{"id": "k1", "kind": "weapons", "feature": "h1"}]})
    g.dice.force([5])
    ev = g.act("allied", {"type": "search", "element": "sq", "feature": "h1"})
    assert of(ev, "cache_found")[0]["cache"] == "k1"
    g.act("insurgent", {"type": "pass"})
    drift = g.state.civic_drift  # +2 if the cache was secured as the impulse opened
    ev = g.act("allied", BURN)
    assert of(ev, "hootch_burned")[0]["contraband"] is True and g.state.civic_drift == drift


def test_burning_needs_base_contact():  # G-35
    g = make([squad(at=(22, 6)), hq(), vc()])
    with pytest.raises(IllegalAction) as err:
        g.check("allied", BURN)
    assert "G-35" in err.value.clause


# -- Medcap (DD-9B.12, G-39) ----------------------------------------------------------------------------------
def medic_at_civ(enemy_at=(44, 4)) -> Game:
    return make([squad(at=(10, 30)), hq(at=(19.4 - 2.6 - 0.63 - 0.63 + 0.0, 9.5)), vc(at=enemy_at)],
                {"hootches": ["h1", "h2"], "civilian": [{"id": "c1", "at": [17.9, 9.5]}]})


MEDCAP = {"type": "medcap", "element": "hq", "civilian": "c1"}


def test_medcap_once_per_civilian():  # DD-9B.12; G-39
    g = medic_at_civ()
    assert [a for a in g.legal_actions("allied") if a["type"] == "medcap"]
    ev = g.act("allied", MEDCAP)
    assert of(ev, "medcap")[0]["civilian"] == "c1" and g.state.civic_drift == 1
    g.act("insurgent", {"type": "pass"})
    with pytest.raises(IllegalAction) as err:
        g.check("allied", MEDCAP)
    assert err.value.clause == "DD-9B.12; G-39" and "already" in str(err.value)


def test_medcap_refused_with_an_enemy_within_6():  # G-39
    g = medic_at_civ(enemy_at=(20, 14))
    with pytest.raises(IllegalAction) as err:
        g.check("allied", MEDCAP)
    assert err.value.clause == "G-39"


def test_medcap_needs_a_medic_in_contact():  # DD-9B.12
    g = medic_at_civ()
    with pytest.raises(IllegalAction) as err:
        g.check("allied", {**MEDCAP, "element": "sq"})
    assert "DD-9B.12" in err.value.clause


# -- caches (DD-9B.13, G-35) ------------------------------------------------------------------------------------
CACHE = {"hootches": ["h1", "h2"], "cache": [{"id": "k1", "kind": "rice", "feature": "h1"}]}


def test_a_hidden_cache_is_the_insurgents_secret():  # DD-9B.13; DESIGN §6
    g = make(village_section=CACHE)
    assert not [m for m in g.view("allied")["markers"] if m["kind"] == "cache"]
    (m,) = [m for m in g.view("insurgent")["markers"] if m["kind"] == "cache"]
    assert m["state"] == "hidden" and m["contents"] == "rice"
    with pytest.raises(IllegalAction) as err:  # refused as a cache that does not exist
        g.check("allied", {"type": "destroy_cache", "element": "sq", "cache": "k1"})
    assert "no found cache" in str(err.value)


def test_a_found_cache_is_secured_once_with_no_enemy_near():  # DD-9B.13; G-35
    g = make([squad(at=(22, 10.9)), hq(), vc()], CACHE)
    g.dice.force([4])
    g.act("allied", {"type": "search", "element": "sq", "feature": "h1"})
    assert [m for m in g.view("allied")["markers"] if m["kind"] == "cache"][0]["state"] in ("found", "secured")
    g.act("insurgent", {"type": "pass"})
    secured = of(g.events, "cache_secured")
    assert len(secured) == 1 and g.state.sides["allied"].vp == 1 and g.state.civic_drift == 2
    g.act("allied", {"type": "pass"})
    assert len(of(g.events, "cache_secured")) == 1  # once


def test_a_cache_is_not_secured_with_an_enemy_within_4():  # G-35
    g = make([squad(at=(22, 10.9)), hq(), vc(at=(22, 16))], CACHE)
    g.dice.force([4])
    g.act("allied", {"type": "search", "element": "sq", "feature": "h1"})
    assert not of(g.events, "cache_secured") and g.state.civic_drift == 0


def test_destroying_a_found_cache_costs_nothing():  # G-35
    g = make([squad(at=(22, 10.9)), hq(), vc(at=(22, 16))], CACHE)
    g.dice.force([4])
    g.act("allied", {"type": "search", "element": "sq", "feature": "h1"})
    g.act("insurgent", {"type": "pass"})
    ev = g.act("allied", {"type": "destroy_cache", "element": "sq", "cache": "k1"})
    assert of(ev, "cache_destroyed") and g.state.civic_drift == 0 and g.state.sides["allied"].vp == 0


def test_a_failed_search_finds_no_cache():  # G-35
    g = make([squad(at=(22, 10.9)), hq(), vc()], CACHE)
    g.dice.force([2])
    ev = g.act("allied", {"type": "search", "element": "sq", "feature": "h1"})
    assert not of(ev, "cache_found") and village.caches(g)[0].state == "hidden"


# -- civilians under fire (G-39, DD-9B.9, DD-9B.11, C-03) -----------------------------------------------------------
def test_a_template_hits_civilians_as_a_small_stand():  # G-39: -1 for a casualty not by heavy weapons
    g = make([squad(at=(10, 30)), hq(), vc()], {"hootches": ["h1", "h2"], "civilian": [{"id": "c1", "at": [26, 20]}]})
    g.dice.force([6, 1])  # 1 FP die hits; the open-ground save fails
    template.attack(g, template.circle(26, 20, 1.0, kind="booby_trap", fp=1, name="grenade"), side="insurgent")
    (hit,) = of(g.events, "civilian_hit")
    assert hit["civilian"] == "c1" and village.civilians(g)[0].state == "dead" and g.state.civic_drift == -1
    assert [m for m in g.view("allied")["markers"] if m["kind"] == "civilian"][0]["state"] == "dead"


def test_a_mortar_in_the_village_pays_dd_9b_9_once():  # G-39 "this includes the near-village rule"
    g = make([squad(at=(10, 30)), hq(), vc()], {"hootches": ["h1", "h2"], "civilian": [{"id": "c1", "at": [26, 15]}]})
    g.dice.force([6, 1])
    template.attack(g, template.circle(26, 15, 1.0, kind="mortar_81", fp=1, name="81mm"), side="allied")
    assert of(g.events, "civilian_hit") and g.state.civic_drift == 0  # the mission's own DD-9B.9 -2 pays it


def test_a_mortar_beyond_the_village_costs_two_per_casualty():  # G-39; DD-9B.9
    g = make([squad(at=(10, 30)), hq(), vc()], {"hootches": ["h1", "h2"], "civilian": [{"id": "c1", "at": [26, 30]}]})
    g.dice.force([6, 1])
    template.attack(g, template.circle(26, 30, 1.0, kind="mortar_81", fp=1, name="81mm"), side="allied")
    assert g.state.civic_drift == -2


def test_a_saved_civilian_lives():  # G-39; DD-5.6
    g = make([squad(at=(10, 30)), hq(), vc()], {"hootches": ["h1", "h2"], "civilian": [{"id": "c1", "at": [22, 12.5]}]})
    g.dice.force([6, 6])  # hit, then the hootch's save passes
    template.attack(g, template.circle(22, 12.5, 1.0, kind="booby_trap", fp=1, name="grenade"), side="insurgent")
    assert not of(g.events, "civilian_hit") and g.state.civic_drift == 0


def test_grazing_fire_hits_civilians_in_the_corridor():  # G-39; DD-5.26
    from shapely.geometry import LineString

    g = make([squad(at=(10, 30)), hq(), vc()], {"hootches": ["h1", "h2"], "civilian": [{"id": "c1", "at": [26, 20]}]})
    g.dice.force([1])  # the open-ground save fails
    grazed(g, g.state.elements["sq"], LineString([(20, 20), (40, 20)]).buffer(0.5, cap_style="flat"))
    assert of(g.events, "civilian_hit")[0]["cause"] == "grazing_fire" and g.state.civic_drift == -1


def rbf_game(civ_at) -> Game:
    raw = scenario([element("sq", "allied", [stand("sq_sl", "us_squad_leader", 10, 8.5),
                                             stand("sq_a", "us_rifle_team", 8.8, 10),
                                             stand("sq_b", "us_rifle_team", 11.2, 10)], name="sq"),
                    hq(at=(30, 40)), vc(at=(44, 4))], [H1, H2])
    raw["blind"] = [{"id": "i1", "side": "insurgent", "at": [10, 18], "dummy": True}]
    raw["village"] = {"hootches": ["h1", "h2"], "civilian": [{"id": "c1", "at": list(civ_at)}]}
    g = Game(build_scenario(raw), 1, start=False)
    g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    start_turn(g)
    g.state.blinds["i1"].state = "echo"
    g.state.sides["insurgent"].ambush_tokens = 0
    g.state.sides["allied"].cp = 9
    return g


def test_recon_by_fire_civilian_casualty_costs_three_not_one():  # DD-9B.11; C-03; DD-4.28
    g = rbf_game((11, 20))
    g.dice.force([1] + [6] * 12 + [1] * 12)
    g.act("allied", {"type": "recon_by_fire", "element": "sq", "target": "i1"})
    assert of(g.events, "civilian_hit")[0]["cause"] == "recon_by_fire"
    assert g.state.civic_drift == -3 and [e["change"] for e in of(g.events, "civic_drift")] == [-3]


def test_recon_by_fire_that_misses_the_civilians_costs_one():  # DD-4.28; C-03
    g = rbf_game((11, 20))
    g.dice.force([1] + [1] * 12)
    g.act("allied", {"type": "recon_by_fire", "element": "sq", "target": "i1"})
    assert not of(g.events, "civilian_hit") and g.state.civic_drift == -1


# -- the tiers (G-13) -----------------------------------------------------------------------------------------------
def test_hostile_gives_a_token_and_hot_sectors():  # G-13 (1); DD-2.25
    g = make(drift=-5)
    tokens = [e for e in g.events if e["type"] == "tokens"]
    assert tokens[-1]["income"] == 1 and "hostile" in tokens[-1]["text"]
    assert [p["id"] for p in hot_sectors(g)] == ["h1", "h2"]


def test_hot_sector_springs_a_reserve_near_an_allied_mover():  # G-13 (1); DD-2.25; DD-2.26
    g = make([squad(at=(22, 6)), hq(), vc(reserve=True)], drift=-5)
    assert not [a for a in g.legal_actions("insurgent") if a["type"] == "hot_sector"]
    g.state.elements["sq"].move_actions = 1  # it moved this turn, within 6" of h1
    g.state.to_act = "insurgent"
    offers = [a for a in g.legal_actions("insurgent") if a["type"] == "hot_sector"]
    assert offers and "h1" in offers[0]["params"]["feature"]["choices"]
    tokens = g.state.sides["insurgent"].ambush_tokens
    ev = g.act("insurgent", {"type": "hot_sector", "element": "vc", "feature": "h1"})
    assert of(ev, "reserve_deployed")[0]["point"] == "hot_sector" and not g.state.elements["vc"].reserve
    assert g.state.sides["insurgent"].ambush_tokens == tokens - 1


def test_no_hot_sectors_when_not_hostile():  # G-13 (3)
    g = make(drift=0)
    assert hot_sectors(g) == []
    assert village.tier(g).id == "neutral"


def test_friendly_takes_a_token_but_leaves_one():  # G-13 (5)
    g = make(drift=5)
    assert village.tier(g).id == "friendly"
    assert g.state.sides["insurgent"].ambush_tokens >= 1
    tok = [e for e in g.events if e["type"] == "tokens"]
    assert tok[-1]["income"] == -1
    assert [e for e in g.events if e["type"] == "roll" and e["purpose"] == "villagers' tip"]


@pytest.mark.parametrize("drift, vp", [(-5, -3), (-2, -1), (0, 0), (3, 1), (4, 3)])
def test_end_game_vp_by_tier(drift, vp):  # G-13
    from game.rules.turn import end_game

    g = make(drift=drift)
    end_game(g, "test", "DD-2.34")
    assert g.state.result["vp"] == vp
    if vp:
        assert any("(G-13)" in line for line in g.state.result["scoring"])


def test_near_village_means_the_village_hootches():  # DD-9B.9
    from game.rules.fire_support.missions import near_village

    g = make()
    assert near_village(g, 22, 18) and not near_village(g, 44, 38)  # h9 at (44, 44) is no part of it


def test_cooperative_tip_comes_once_a_game(monkeypatch):  # G-13 (4)
    from game.rules import village_civilians

    calls = []

    def reveal_near(g, x, y, radius, why, clause):
        calls.append((x, y, radius, clause))
        return "bt1"

    monkeypatch.setattr(village_civilians, "_optional", lambda module, name: reveal_near if "booby" in module else None)
    g = make(drift=2)
    assert village.tier(g).id == "cooperative" and calls == [(22.0, 12.5, 6.0, "G-13 (4)")]
    assert village.vstate(g).tip_used
    start_turn(g)  # the next Tension Phase: no second tip
    assert len(calls) == 1


VILLAGE_MARKERS = ("civilian", "cache")  # for tests/rules/test_markers.py's list of every marker


def test_village_markers_reach_the_views():  # DD-1.17; G-39; DD-9B.13
    from game.rules.markers import markers, shown

    g = make(village_section=CACHE)
    assert shown(g.view("allied"), markers()["civilian"]) and not shown(g.view("allied"), markers()["cache"])
    assert shown(g.view("insurgent"), markers()["civilian"]) and shown(g.view("insurgent"), markers()["cache"])
