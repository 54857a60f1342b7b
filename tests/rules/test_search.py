"""Search / Pacify (DD-2.15, G-35; G-13, G-12, C-10) with forced dice.

Each test is a tiny table: a squad beside a hootch (its footprint 0.5" from the rifle teams' bases), what
is hidden in it, the dice forced, the end state checked.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from shapely.geometry import Point

from game.rules import jungle_ghost as jg
from game.rules import odds
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import build_scenario
from game.rules.search import contents, feature_hit, load_search, searched
from game.rules.turn import start_turn
from tests.builders import element, scenario, stand

HOOTCH = {"id": "h1", "type": "hootch", "point": [22, 12.5], "size": [2.5, 2]}
FAR_HOOTCH = {"id": "h2", "type": "hootch", "point": [40, 30], "size": [2.5, 2]}
JUNGLE = {"id": "j1", "type": "dense", "polygon": [[14, 8], [17, 8], [17, 12], [14, 12]]}


def squad(scout: bool = False) -> dict:
    stands = [stand("sq_sl", "us_squad_leader", 22, 8.5), stand("sq_a", "us_rifle_team", 20, 10),
              stand("sq_b", "us_rifle_team", 24, 10)]
    if scout:
        stands.append(stand("sq_s", "us_scout", 25.7, 11.2))
    return element("sq", "allied", stands, name="1st Squad")


def cell(at=(22, 12.5), **extra) -> dict:
    return element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", at[0], at[1], 270)], kind="cell",
                   name="VC cell", **extra)


def make(elements, terrain=(HOOTCH, FAR_HOOTCH, JUNGLE), blinds=(), drift: int = 0, **head) -> Game:
    raw = scenario(elements, list(terrain), **head)
    raw["blind"] = list(blinds)
    g = Game(build_scenario(raw), 1, start=False)
    g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    g.state.civic_drift = drift  # the track as Turn 1's Tension Phase finds it (G-13)
    start_turn(g)
    g.state.sides["allied"].cp = 6
    return g


BLIND_IN_HOOTCH = {"id": "b1", "side": "insurgent", "at": [22, 12.5]}
BLIND_FAR = {"id": "b1", "side": "insurgent", "at": [40, 40]}
SEARCH = {"type": "search", "element": "sq", "feature": "h1"}


def rolls(events, purpose="Search"):
    return [e for e in events if e["type"] == "roll" and e["purpose"] == purpose]


def test_a_success_reveals_the_blind_in_the_hootch_and_marks_it_searched():  # DD-2.15; G-35
    g = make([squad(), cell(blind="b1")], blinds=[BLIND_IN_HOOTCH])
    g.dice.force([4])
    ev = g.act("allied", SEARCH)
    roll = rolls(ev)[0]
    assert roll["need"] == 4 and roll["target"] == 4 and roll["modifiers"] == [] and roll["result"] == "pass"
    assert roll["_visible"] == "all" and "DD-2.15" in roll["clause"]
    assert "b1" not in g.state.blinds and g.state.elements["vc"].blind is None  # DD-4.24: Confirmed
    assert [e for e in ev if e["type"] == "reveal" and e["element"] == "vc"]
    assert searched(g, "h1") and not searched(g, "h2")
    for side in ("allied", "insurgent"):  # public: both sides saw the search succeed
        assert {"id": "searched_h1", "kind": "searched", "x": 22.0, "y": 12.5} in g.view(side)["markers"]


def test_a_dummy_blind_found_in_the_hootch_is_discarded():  # DD-2.15; G-35; DD-4.24
    g = make([squad(), cell(at=(40, 40))], blinds=[{**BLIND_IN_HOOTCH, "dummy": True}])
    g.dice.force([6])
    ev = g.act("allied", SEARCH)
    assert "b1" not in g.state.blinds
    assert [e for e in ev if e["type"] == "blind_removed" and e["dummy"]]


def test_a_failed_search_tells_nothing_of_what_is_there():  # G-35; DESIGN §6 (fog)
    seen = {}
    for name, blind in (("full", BLIND_IN_HOOTCH), ("empty", BLIND_FAR)):
        g = make([squad(), cell(at=(40, 40) if name == "empty" else (22, 12.5), blind="b1")], blinds=[blind])
        g.dice.force([3])
        ev = g.act("allied", SEARCH)
        assert rolls(ev)[0]["result"] == "fail"
        assert "b1" in g.state.blinds and not searched(g, "h1")
        seen[name] = [(e["type"], e["text"]) for e in g.events_for("allied", ev)]
        assert g.dice.forced_left == 0  # nothing else was rolled
    assert seen["full"] == seen["empty"]
    assert [t for t, _ in seen["full"]] == ["activate", "roll"]


def test_a_natural_one_fails_and_a_natural_six_passes_whatever_the_need():  # G-31; G-35
    g = make([squad(), cell(at=(40, 40))], time_of_day="night_dark", drift=-4)  # Night -1, Hostile -1: 6+
    g.dice.force([1])
    ev = g.act("allied", SEARCH)
    assert rolls(ev)[0]["need"] == 6 and rolls(ev)[0]["result"] == "fail"
    g.act("insurgent", {"type": "pass"})
    g.dice.force([6])
    ev = g.act("allied", SEARCH)
    assert rolls(ev)[0]["result"] == "pass" and searched(g, "h1")
    assert "nothing hidden there" in next(e["text"] for e in ev if e["type"] == "note")


def test_the_modifiers_scout_night_and_civic_tier():  # G-35: Scouts +1, Night -1; G-13 tiers
    g = make([squad(scout=True), cell(at=(40, 40))], time_of_day="night_moonlit", drift=2)
    pre = odds.preview(g, "allied", SEARCH)
    names = {m["name"]: m["value"] for m in pre["modifiers"]}
    assert names == {"scout searching": 1, "Civic Drift Cooperative (+2)": 1, "night": -1}
    assert pre["need"] == 3 and pre["p_success"] == pytest.approx(4 / 6)  # 4 - 1 - 1 + 1
    g.dice.force([3])
    ev = g.act("allied", SEARCH)
    assert rolls(ev)[0]["need"] == 3 and rolls(ev)[0]["result"] == "pass"
    assert {m["clause"] for m in rolls(ev)[0]["modifiers"]} >= {"G-35", "G-13 (4); DD-9B.8"}


def test_the_civic_tier_counts_in_the_village_only_and_from_the_next_tension_phase():  # G-13
    bunker = {"id": "bk", "type": "bunker", "point": [17, 10], "size": [2, 2]}
    g = make([squad(), cell(at=(40, 40))], terrain=(HOOTCH, bunker), drift=-2)
    assert odds.preview(g, "allied", SEARCH)["need"] == 5  # Sullen -1 in the village (a hootch)
    assert odds.preview(g, "allied", {**SEARCH, "feature": "bk"})["need"] == 4  # a bunker: no tier
    g.state.civic_drift = 4  # moved this turn: the Friendly tier applies from the next Tension Phase
    assert odds.preview(g, "allied", SEARCH)["need"] == 5
    g.act("allied", {"type": "pass"})
    g.act("insurgent", {"type": "pass"})  # the turn ends; Turn 2's Tension Phase reads the track
    assert g.state.turn == 2
    g.state.sides["allied"].cp = 6
    assert odds.preview(g, "allied", SEARCH)["need"] == 3  # Friendly +1


def test_a_concealed_element_in_the_hootch_is_found():  # G-35; G-32 Hold/Conceal
    g = make([squad(), cell()])
    vc = g.state.elements["vc"]
    vc.conceal = True
    assert contents(g, feature_hit(g, "h1"))[1] == [vc]
    g.dice.force([5])
    ev = g.act("allied", SEARCH)
    assert not vc.conceal
    st = [e for e in ev if e["type"] == "status" and e["element"] == "vc"]
    assert st and st[0]["status"] == "conceal" and st[0]["on"] is False


def test_offers_list_the_features_within_reach():  # DD-2.15: within 2"
    g = make([squad(), cell(at=(40, 40))])
    offers = [a for a in g.legal_actions("allied") if a["type"] == "search"]
    assert len(offers) == 1 and offers[0]["params"]["feature"]["choices"] == ["h1"]
    assert offers[0]["clause"] == "DD-2.15; G-35" and offers[0]["cost"] == 1
    g = make([squad(), cell(at=(21, 14.5))], first_side="insurgent")  # an Insurgent beside the hootch
    assert g.legal_actions("insurgent") and not [a for a in g.legal_actions("insurgent") if a["type"] == "search"]


@pytest.mark.parametrize("action, words, clause", [
    ({**SEARCH, "feature": "h2"}, "within 2\"", "DD-2.15; G-35"),  # out of range
    ({**SEARCH, "feature": "j1"}, "only a hootch, bunker or spider hole", "DD-2.15; G-35"),  # not searchable
    ({**SEARCH, "feature": "nope"}, "no terrain feature 'nope'", "DD-2.15"),
])
def test_refusals_cite_the_clause_and_change_nothing(action, words, clause):  # DD-2.15; G-35
    g = make([squad(), cell(at=(40, 40))])
    before = g.hash()
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", action)
    assert words in exc.value.reason and exc.value.clause == clause
    assert g.hash() == before


def test_no_action_left_and_the_insurgent_side_are_refused():  # G-28 (2); DD-2.15
    g = make([squad(), cell(at=(40, 40))])
    g.state.elements["sq"].activations = g.book.turn.max_activations
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", SEARCH)
    assert exc.value.clause == "G-28 (2)"
    g = make([squad(), cell(at=(21, 14.5))], first_side="insurgent")
    with pytest.raises(IllegalAction) as exc:
        g.act("insurgent", {"type": "search", "element": "vc", "feature": "h1"})
    assert exc.value.clause == "DD-2.15" and "Allied action" in exc.value.reason


# -- the Jungle Ghost (DD-10.8, DD-10.13, C-10, G-12) --------------------------------------------------
def solo(terrain=(HOOTCH,)) -> Game:
    raw = scenario([squad(), cell(at=(44, 44))], list(terrain))
    g = Game(build_scenario(raw), 1, start=False)
    g.los_override = lambda a, b: SimpleNamespace(visible=False, fraction=0.0, distance=99.0)
    for sid in ("sq_sl", "sq_a", "sq_b"):  # 6"+ off while the Shadow Blinds go down (G-40)
        g.state.stands[sid].y -= 6.0
    jg.enable(g)
    for sid in ("sq_sl", "sq_a", "sq_b"):
        g.state.stands[sid].y += 6.0
    start_turn(g)
    g.state.sides["allied"].cp = 6
    return g


def test_a_shadow_blind_in_the_hootch_is_resolved_with_no_ambush():  # DD-10.4 (1); DD-10.8; G-09; G-35
    g = solo()
    hut = feature_hit(g, "h1").shape
    inside = [b for b in g.state.blinds.values() if b.id in g.state.solo.shadows and hut.covers(Point(b.x, b.y))]
    assert inside  # DD-10.4 (1): one inside each hootch
    g.dice.force([5, 2])  # the search passes; the Contact Reveal rolls 2 at Threat Level 2: a booby trap
    ev = g.act("allied", SEARCH)
    assert inside[0].id not in g.state.blinds
    assert rolls(ev, "Contact Reveal")[0]["result"] == 2
    assert any("found and disarmed" in e["text"] for e in ev)  # G-35: a booby trap found is disarmed
    assert not rolls(ev, "Booby Trap")
    assert searched(g, "h1") and g.state.solo.progress == g.state.turn  # G-12: a hootch searched


def test_the_jungle_ghost_regenerates_only_in_an_unsearched_hootch():  # DD-10.13; C-10; G-40
    far = {"id": "h1", "type": "hootch", "point": [30, 36], "size": [2.5, 2]}
    wood = {"id": "w", "type": "dense", "polygon": [[0, 42], [48, 42], [48, 48], [0, 48]]}
    for mark in (False, True):
        g = solo(terrain=(far, wood))
        if mark:
            from game.rules.search import _state

            _state(g, make=True).searched.append("h1")
        el = g.state.elements["vc"]
        g.dice.force([6, 6])
        jg.fade_out(g, el)
        regen = rolls(g.events, "Regenerate in a hootch")
        assert bool(regen) is not mark  # a searched hootch is not offered the 4+ roll (G-40)


def test_the_tables_are_loaded_strictly(tmp_path):  # G-13 tiers cover the track -5..+5 (DD-9B.8)
    import shutil

    from game.rules.data import DATA_DIR, DataError

    for f in DATA_DIR.glob("*.toml"):
        shutil.copy(f, tmp_path / f.name)
    p, text = tmp_path / "search.toml", (DATA_DIR / "search.toml").read_text()
    assert load_search(tmp_path).tier(0).tier == "Neutral"
    p.write_text(text.replace("low = 2\nhigh = 3", "low = 3\nhigh = 3"))
    with pytest.raises(DataError, match=r"search.toml: \[\[civic\]\]: the tiers must cover"):
        load_search(tmp_path)
    p.write_text(text.replace('"tunnel_rat"]', '"frogman"]'))
    with pytest.raises(DataError, match=r"search.toml: \[search\]: bonus_roles 'frogman'"):
        load_search(tmp_path)
