"""The river (DD chapter 9A §2: DD-9A.6–9A.14; G-14, G-36, G-30; C-22, C-25, C-26) with forced dice.

The table is tests/fixtures/scenarios/river_canal.toml: a 4" canal (y 10–14, a canal: under 8", DD-9A.7),
a muddy south bank, nipa-palm foliage (secondary jungle) on the north bank, a Tango boat (tango_1) with 1st
Squad aboard, a PBR (pbr_1), a VC sampan (sampan_1), a VC RPG team in a spider bunker at the north
waterline (rpg_a), a VC rifle cell in the palms (vc_a) and one secret river mine rm1 at (20, 12). Sight is
forced open (``los_override``) unless a test is about sight; the river's own rule is applied on top.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from shapely.geometry import Point

from game.rules import armour, crew, fire, riverine, vehicles
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import ScenarioError, build_scenario, load_scenario
from game.rules.state import base_of
from tests import builders as b

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "scenarios" / "river_canal.toml"


def open_sight(distance: float = 0.0):
    return lambda a, c: SimpleNamespace(visible=True, fraction=1.0, distance=distance, canopy_inches={}, limit="open")


def make(side: str = "allied", seed: int = 1) -> Game:
    g = Game(load_scenario(FIXTURE), seed)
    g.los_override = open_sight()
    g.state.to_act = side
    g.state.sides["allied"].cp = 6
    return g


def events(evs, kind):
    return [e for e in evs if e["type"] == kind]


def rec(g: Game, sid: str) -> vehicles.VehicleRec:
    return vehicles.vstate(g).vehicles[sid]


def score(g: Game) -> int:
    """The chapters' end-of-game VP lines (G-30: lost vehicles and boats)."""
    from game.rules.chapters import chapters

    return sum(d for ch in chapters(g) for d, _ in getattr(ch, "score", lambda g: [])(g))


def boat(g: Game, sid: str) -> riverine.Boat:
    return riverine.rstate(g).boats[sid]


def move(g: Game, el: str, to, side: str = "allied", facing: float | None = None):
    g.state.to_act = side
    act = {"type": "move", "mode": "patrol", "element": el, "to": list(to)}
    if facing is not None:
        act["facing"] = facing
    return g.act(side, act)


def river_table(width: float = 12.0, crafts=(("tango", "tango_1", 20.0, 24.0),), **head) -> dict:
    """A 48x48 table with a main river (``width`` inches, east-west, centred on y = 24) and the given craft."""
    els = [b.element(f"el_{sid}", "insurgent" if t == "sampan" else "allied", [b.stand(sid, t, x, y, 0)], kind="vehicle")
           for t, sid, x, y in crafts]
    els += b.platoon(pc_at=(4.0, 4.0), squad_at=(10.0, 6.0)) + b.enemy(at=(40.0, 44.0))
    return b.scenario(els, terrain=[{"id": "river", "type": "river", "path": [[0, 24], [48, 24]], "width": width}],
                      **head)


# -- the tables ------------------------------------------------------------------------------------------------
def test_the_mine_table_has_a_row_for_every_face_and_craft():
    t = riverine.load_riverine()
    # DD-9A.12: 1-2 premature, 3-5 hull breach (every craft); 6: the PBR sinks, the Tango 2 hits and beached
    for craft in ("pbr", "tango", "aspb", "monitor", "ccb", "sampan"):
        klass = vehicles.roster()[craft].klass
        assert [t.mine_result(craft, klass, d).id for d in range(1, 7)] == (
            ["premature"] * 2 + ["hull_breach"] * 3 + ["catastrophic"])
    assert t.mine_result("pbr", 1, 6).sink and t.mine_result("sampan", 1, 6).sink  # G-36: Class 1 sinks
    tango = t.mine_result("tango", 2, 6)
    assert (tango.hits, tango.beach, tango.sink) == (2, "always", False)  # DD-9A.12
    aspb = t.mine_result("aspb", 2, 6)
    assert (aspb.hits, aspb.beach) == (2, "near")  # G-36: Class 2 beached if within 2" of a bank
    assert (t.mine_result("monitor", 3, 6).hits, t.mine_result("monitor", 3, 6).beach) == (2, "")  # G-36 Class 3
    assert t.mine_result("pbr", 1, 3).hits == 1 and t.mine_result("pbr", 1, 3).morale  # DD-9A.12
    assert t.mine_result("pbr", 1, 2).stun and not t.mine_result("pbr", 1, 2).hits


def test_a_mine_table_missing_a_face_is_refused(tmp_path):
    import shutil

    from game.rules.data import DATA_DIR, DataError

    for f in DATA_DIR.glob("*.toml"):
        shutil.copy(f, tmp_path / f.name)
    p = tmp_path / "riverine.toml"
    p.write_text(p.read_text().replace("low = 3\nhigh = 5", "low = 4\nhigh = 5"))
    with pytest.raises(DataError, match=r"no row for a 3 against the pbr"):  # G-36: every face, every craft
        riverine.load_riverine(tmp_path)


def test_a_game_without_craft_or_mines_has_no_river_state():
    g = Game(build_scenario(b.scenario(b.platoon() + b.enemy())), 1)  # the hash of such games is unchanged
    assert "riverine" not in g.state.chapters


# -- the water (DD-9A.7–9A.8) --------------------------------------------------------------------------------
def test_canal_and_main_river_by_width():
    g = make()
    assert riverine.on_canal(g, 10, 12)  # DD-9A.8: the 4" canal
    big = Game(build_scenario(river_table(width=10.0)), 1)
    assert not riverine.on_canal(big, 20, 24)  # DD-9A.7: 8" or more is a main river
    narrow = Game(build_scenario(river_table(width=7.9)), 1)
    assert riverine.on_canal(narrow, 20, 24)
    from shapely.geometry import box

    assert riverine.strip_width(box(0, 0, 40, 10)) == pytest.approx(10.0)


def test_a_pbr_moves_its_canal_speed_on_the_water_only():
    g = make()
    evs = move(g, "pbr", (26, 11.5))  # G-14: the PBR's canal speed is 12"; the mine is held off below
    assert events(evs, "move")
    g2 = make()
    with pytest.raises(IllegalAction) as err:
        g2.check("allied", {"type": "move", "mode": "patrol", "element": "pbr", "to": [26.5, 11.5]})
    assert "12.00\"" in str(err.value) and "canal" in str(err.value)
    with pytest.raises(IllegalAction) as err:  # a craft cannot leave the water
        g2.check("allied", {"type": "move", "mode": "patrol", "element": "pbr", "to": [14, 5]})
    assert err.value.clause == "G-14; DD-9A.6"


def test_main_river_speed_and_stunned_half_speed():
    g = b.game(river_table(crafts=(("pbr", "pbr_1", 6.0, 24.0),)))
    g.state.to_act = "allied"
    g.check("allied", {"type": "move", "mode": "patrol", "element": "el_pbr_1", "to": [24, 24]})  # 18": river
    with pytest.raises(IllegalAction):
        g.check("allied", {"type": "move", "mode": "patrol", "element": "el_pbr_1", "to": [24.5, 24]})
    rec(g, "pbr_1").stunned = True  # G-14: a Stunned boat moves at half speed
    g.check("allied", {"type": "move", "mode": "patrol", "element": "el_pbr_1", "to": [15, 24]})
    with pytest.raises(IllegalAction) as err:
        g.check("allied", {"type": "move", "mode": "patrol", "element": "el_pbr_1", "to": [15.5, 24]})
    assert "stunned" in str(err.value)


def test_move_offers_show_a_crafts_best_speed():
    g = make()
    offer = next(a for a in g.legal_actions("allied") if a["type"] == "move" and a["element"] == "pbr"
                 and a["mode"] == "patrol")
    assert offer["params"]["to"]["max"] == 18.0  # G-14: its river speed, the most any water allows


# -- sight (DD-9A.7–9A.8, DD-9A.13; C-25) ----------------------------------------------------------------------
def test_from_the_canal_only_three_inches_into_the_foliage():
    g = make()
    pbr, vc = g.state.stands["pbr_1"], g.state.stands["vc_a"]
    res = g.line_of_sight(pbr, vc)  # vc_a at y 18: its base 3.4" inside the palms
    assert not res.visible and res.limit == "canal" and res.clause.startswith("DD-9A.8")
    assert not g.line_of_sight(vc, pbr).visible  # DD-4.5: mutual
    vc.y = 16.0  # 1.4" into the palms
    assert g.line_of_sight(pbr, vc).visible and g.line_of_sight(vc, pbr).visible
    hq = g.state.stands["hq_pc"]
    vc.y = 18.0
    assert g.line_of_sight(hq, vc).visible  # not from the water: the rule does not apply


def test_the_spider_bunker_sees_down_the_canal():
    g = make()
    pbr, rpg = g.state.stands["pbr_1"], g.state.stands["rpg_a"]
    assert g.line_of_sight(pbr, rpg).visible and g.line_of_sight(rpg, pbr).visible  # DD-9A.13: at the waterline
    cover = fire.cover_of(g, rpg)  # DD-9A.13, C-12: 4+ save, -2 to hit
    assert (cover.save, cover.to_hit, cover.fortification) == (4, -2, True)


def test_along_a_main_river_the_open_limit_does_not_apply():
    raw = river_table(crafts=(("pbr", "pbr_1", 4.0, 24.0), ("pbr", "pbr_2", 40.0, 22.0)))
    g = b.game(raw)
    beyond = lambda a, c: SimpleNamespace(visible=False, fraction=0.0, distance=32.1, canopy_inches={}, limit="open")  # noqa: E731
    g.los_override = beyond
    res = g.line_of_sight(g.state.stands["pbr_1"], g.state.stands["pbr_2"])
    assert res.visible and res.limit == "river"  # DD-9A.7: unrestricted along the river axis
    monsoon = lambda a, c: SimpleNamespace(visible=False, fraction=0.0, distance=32.1, canopy_inches={}, limit="monsoon")  # noqa: E731
    g.los_override = monsoon
    assert not g.line_of_sight(g.state.stands["pbr_1"], g.state.stands["pbr_2"]).visible  # C-25: weather wins
    g.los_override = beyond
    assert not g.line_of_sight(g.state.stands["pbr_1"], g.state.stands["pc"]).visible  # the bank is not the axis


def test_rpg_plus_one_at_a_boat_within_six_inches():
    g = make("insurgent")
    el, rpg, pbr = g.state.elements["rpg"], g.state.stands["rpg_a"], g.state.stands["pbr_1"]
    pbr.x = 24.0  # DD-9A.14, G-34: within 6" of the bunker
    mods = armour.at_modifiers(g, el, rpg, pbr)
    assert any(m.value == 1 and "DD-9A.14" in m.clause for m in mods)
    pbr.x = 14.0  # 10" away: no bonus
    assert not any("DD-9A.14" in m.clause for m in armour.at_modifiers(g, el, rpg, pbr))


# -- beaching, the ramp and the mud (DD-9A.9–9A.10; C-22; G-36) ---------------------------------------------------
def beach_tango(g: Game) -> None:
    move(g, "atc", (6, 12.9))  # DD-9A.9: the hull's north side touches the bank (y 14)
    g.state.to_act = "allied"


def test_the_ramp_only_at_a_bank_and_troops_debark_within_four_inches():
    g = make()
    with pytest.raises(IllegalAction) as err:
        g.check("allied", {"type": "drop_ramp", "element": "atc"})
    assert err.value.clause == "DD-9A.9"
    with pytest.raises(IllegalAction):  # the ordinary dismount is refused away from a bank too
        g.check("allied", {"type": "dismount", "element": "atc", "passenger": "sq1"})
    beach_tango(g)
    assert riverine.at_bank(g, g.state.stands["tango_1"])
    cp = g.state.sides["allied"].cp
    g.dice.force([5])  # DD-9A.10: the Mud roll, 4-6 firm
    evs = g.act("allied", {"type": "drop_ramp", "element": "atc"})
    assert [e["type"] for e in evs if e["type"] in ("ramp", "roll", "dismount", "move")] == [
        "ramp", "roll", "dismount", "move"]
    assert g.state.sides["allied"].cp == cp - 1  # DD-9A.9: 1 CP
    x, y = riverine.landing_point(g, g.state.stands["tango_1"])
    sq = g.state.elements["sq1"]
    assert not sq.reserve and boat(g, "tango_1").ramp
    land = riverine.water(g).land
    for s in g.state.living(sq):
        assert ((s.x - x) ** 2 + (s.y - y) ** 2) ** 0.5 <= 4.0 + 1e-9 and land.covers(Point(s.x, s.y))
    assert riverine.mud_cap(g, sq) is None
    atc = g.state.elements["atc"]
    atc.activations = atc.move_actions = 0  # a new turn's activation
    move(g, "atc", (6, 12.3))  # DD-9A.9: the ramp comes up as the boat moves
    assert not boat(g, "tango_1").ramp


def test_mud_caps_the_debark_and_the_turn_at_three_inches():
    g = make()
    beach_tango(g)
    g.dice.force([3])  # G-36: 1-3 is mud
    g.act("allied", {"type": "drop_ramp", "element": "atc"})
    sq = g.state.elements["sq1"]
    x, y = riverine.landing_point(g, g.state.stands["tango_1"])
    assert all(((s.x - x) ** 2 + (s.y - y) ** 2) ** 0.5 <= 3.0 + 1e-9 for s in g.state.living(sq))  # C-22
    assert riverine.mud_cap(g, sq) == 3.0
    g.state.to_act = "allied"
    cx = sum(s.x for s in g.state.living(sq)) / 3
    cy = sum(s.y for s in g.state.living(sq)) / 3
    with pytest.raises(IllegalAction) as err:  # DD-9A.10: at most 3" this turn
        g.check("allied", {"type": "move", "mode": "patrol", "element": "sq1", "to": [cx + 3.5, cy]})
    assert "mud" in str(err.value)
    g.check("allied", {"type": "move", "mode": "patrol", "element": "sq1", "to": [cx + 2.9, cy]})
    g.state.turn += 1
    assert riverine.mud_cap(g, sq) is None  # only its first turn ashore


def test_no_mud_roll_with_engineers_on_the_bank():
    raw = b.scenario([
        b.element("atc", "allied", [b.stand("tango_1", "tango", 6, 12.9, 0)], kind="vehicle"),
        b.element("sq1", "allied", [b.stand("sq1_a", "us_rifle_team", 6, 12.9)], embarked="tango_1"),
        b.element("eng", "allied", [b.stand("eng_a", "us_engineer_team", 9, 16.5)], kind="team"),
        *b.enemy(at=(40, 40))],
        terrain=[{"id": "canal", "type": "river", "path": [[0, 12], [48, 12]], "width": 4.0}])
    g = b.game(raw)
    g.state.to_act = "allied"
    g.state.sides["allied"].cp = 6
    start = len(g.events)
    g.act("allied", {"type": "drop_ramp", "element": "atc"})  # DD-9A.10, G-36: secured by engineers
    assert not [e for e in g.events[start:] if e["type"] == "roll" and e["purpose"] == "Mud"]
    assert not g.state.elements["sq1"].reserve


def test_a_pbr_sets_troops_ashore_with_dismount_at_a_bank():
    raw = b.scenario([
        b.element("pbr", "allied", [b.stand("pbr_1", "pbr", 10, 13.2, 0)], kind="vehicle"),
        b.element("seal", "allied", [b.stand("seal_a", "us_scout", 10, 13.2)], kind="team", embarked="pbr_1"),
        *b.enemy(at=(40, 40))],
        terrain=[{"id": "canal", "type": "river", "path": [[0, 12], [48, 12]], "width": 4.0}])
    g = b.game(raw, dice=None)
    g.state.to_act = "allied"
    g.state.sides["allied"].cp = 6
    g.dice.force([6])  # the Mud roll: firm (G-36)
    g.act("allied", {"type": "dismount", "element": "pbr", "passenger": "seal"})  # DD-7.12 onto the bank
    s = g.state.stands["seal_a"]
    assert s.y > 14.0 and not g.state.elements["seal"].reserve


# -- river mines (DD-9A.11–9A.12; G-36; C-26) ------------------------------------------------------------------
def test_a_pbr_passing_within_two_inches_sets_off_the_mine_and_sinks():
    g = make()
    tokens = g.state.sides["insurgent"].ambush_tokens
    g.dice.force([6])  # DD-9A.12: 6, the PBR is sunk instantly
    evs = move(g, "pbr", (26, 11.5))
    mine = events(evs, "mine")
    assert mine and mine[0]["result"] == "catastrophic" and mine[0]["mine"] == "mine1"
    assert (mine[0]["x"], mine[0]["y"], mine[0]["vehicle"]) == (20.0, 12.0, "pbr_1")
    frozen = [e for e in evs if e["type"] == "move" and e.get("reaction") == "mine"]
    assert frozen and frozen[0]["stands"][0]["to"][0] < 26.0  # the blast ends its move there
    assert events(evs, "beached")  # the canal is narrow: within 2" of a bank, beached and burning (G-14)
    assert g.state.sides["insurgent"].ambush_tokens == tokens - 1
    assert score(g) == -2  # G-30: a boat lost
    assert riverine.rstate(g).mines[0].fired == 1


def test_a_premature_blast_stuns_until_the_next_turns_phase_three():
    g = make()
    g.dice.force([2])  # DD-9A.12: 1-2 premature, the boat is rocked
    move(g, "pbr", (26, 11.5))
    r = rec(g, "pbr_1")
    assert r.stunned and boat(g, "pbr_1").mine_stun == 1 and r.hp == 2
    assert vehicles.working_weapons(g, g.state.stands["pbr_1"]) == []  # G-14: no fire
    g.dice.force([1])  # the crew's own Phase 3 test fails (DD-7.10)
    crew.consolidation(g)
    riverine.consolidation(g)
    assert r.stunned  # C-26: not yet, the end of the *next* turn's Phase 3
    g.state.turn = 2
    g.dice.force([1])
    crew.consolidation(g)
    evs_start = len(g.events)
    riverine.consolidation(g)
    assert not r.stunned and boat(g, "pbr_1").mine_stun == 0
    assert g.events[evs_start]["type"] == "crew" and g.events[evs_start]["clause"].startswith("C-26")


def test_a_hull_breach_holes_the_tango_and_tests_the_troops():
    g = make()
    g.state.stands["tango_1"].x = 9.0
    g.state.stands["pbr_1"].x = 27.0  # out of the way
    g.dice.force([4, 1])  # DD-9A.12: 3-5 hull breach; 1st Squad's Morale roll 1 fails
    evs = move(g, "atc", (17, 12.3))
    assert events(evs, "mine")[0]["result"] == "hull_breach"
    assert rec(g, "tango_1").hp == 2
    assert g.state.elements["sq1"].pinned
    morale = [e for e in g.events if e["type"] == "roll" and e.get("element") == "sq1"]
    assert morale and morale[0]["_visible"] == "allied"  # who is aboard stays the Allied side's


def test_a_catastrophic_blast_beaches_the_tango():
    g = make()
    g.state.stands["tango_1"].x = 9.0
    g.state.stands["pbr_1"].x = 27.0  # out of the way
    g.dice.force([6])
    move(g, "atc", (17, 12.3))
    assert rec(g, "tango_1").hp == 1 and boat(g, "tango_1").aground  # DD-9A.12: 2 Hits and beached
    atc = g.state.elements["atc"]
    atc.activations = atc.move_actions = 0  # a new turn's activation
    g.state.to_act = "allied"
    with pytest.raises(IllegalAction) as err:
        g.check("allied", {"type": "move", "mode": "patrol", "element": "atc", "to": [12, 12.3]})
    assert err.value.clause == "DD-9A.12; G-36"


def test_a_held_mine_or_no_tokens_lets_the_boat_pass():
    g = make()
    g.state.to_act = "insurgent"
    g.act("insurgent", {"type": "set_mine", "mine": "rm1", "order": "hold"})
    evs = move(g, "pbr", (26, 11.5))
    assert not events(evs, "mine") and g.state.stands["pbr_1"].x == 26
    g2 = make()
    g2.state.sides["insurgent"].ambush_tokens = 0
    assert not events(move(g2, "pbr", (26, 11.5)), "mine")


def test_the_allied_side_never_learns_an_unexploded_mine():
    g = make()
    g.state.to_act = "insurgent"
    allied_seq = g.seq_for("allied")
    g.act("insurgent", {"type": "set_mine", "mine": "rm1", "order": "hold"})
    assert g.seq_for("allied") == allied_seq  # no gap in the Allied numbering
    view = json.dumps(g.view("allied"))
    assert "rm1" not in view and "river_mine" not in view
    assert any(m["kind"] == "river_mine" for m in g.view("insurgent")["markers"])
    assert "rm1" not in json.dumps(g.events_for("allied", g.events))
    move(g, "pbr", (26, 11.5))  # a boat over a held mine is never refused nor stopped
    with pytest.raises(IllegalAction) as err:
        g.check("allied", {"type": "set_mine", "mine": "rm1", "order": "detonate"})
    assert "rm1" not in str(err.value)
    g.state.to_act = "allied"
    assert not [a for a in g.legal_actions("allied") if a["type"] == "set_mine"]
    assert "rm1" not in json.dumps(g.legal_actions("allied"))


def test_river_mines_are_on_the_water_and_at_most_two():
    raw = b.scenario(b.platoon() + b.enemy(), terrain=[{"id": "c", "type": "river", "path": [[0, 24], [48, 24]],
                                                        "width": 4.0}])
    raw["river_mine"] = [{"id": "m1", "at": [10, 10]}]
    with pytest.raises(ScenarioError, match="not on a river"):  # DD-9A.11: canal choke points
        build_scenario(raw)
    raw["river_mine"] = [{"at": [10, 24]}, {"at": [20, 24]}, {"at": [30, 24]}]
    with pytest.raises(ScenarioError, match="at most 2"):
        build_scenario(raw)


# -- sinking (G-14; G-30) -------------------------------------------------------------------------------------------
def test_a_tango_lost_mid_river_sinks_and_its_troops_swim_or_drown():
    raw = river_table(crafts=(("tango", "tango_1", 20.0, 24.0),))
    raw["element"].append(b.element("sq9", "allied", [b.stand("sq9_a", "us_rifle_team", 20, 24),
                                                      b.stand("sq9_b", "us_scout", 20, 24)], embarked="tango_1"))
    g = b.game(raw)
    v = g.state.stands["tango_1"]
    g.dice.force([4, 1])  # G-14: the rifle team unhurt (4), the scout hit (1)
    row = next(r for r in armour.tables().results if r.id == "knocked_out")
    armour.apply_result(g, v, row)
    assert riverine.rstate(g).boats["tango_1"].sunk and not v.alive  # 5" from either bank: it sinks
    assert not [h for h in vehicles.hulls_now(g) if h[6] == "tango_1"]  # no hull left on the table
    kia = [t for t in g.state.tokens if t.state == "kia"]
    assert sorted(t.id for t in kia) == ["cas_sq9_a", "cas_sq9_b"]  # no bank within 4": lost (KIA, G-30)
    assert score(g) == -2  # G-30: a boat lost


def test_a_tango_lost_by_the_bank_beaches_burning_and_its_troops_get_ashore():
    g = make()
    v = g.state.stands["tango_1"]
    g.dice.force([4, 5, 6])  # G-14: each stand aboard hit on 1-3: all unhurt
    row = next(r for r in armour.tables().results if r.id == "knocked_out")
    evs_start = len(g.events)
    armour.apply_result(g, v, row)
    evs = g.events[evs_start:]
    assert events(evs, "beached")[0]["burning"] and events(evs, "wreck")  # within 2" of a bank
    sq = g.state.elements["sq1"]
    assert sq.pinned and not sq.reserve
    land = riverine.water(g).land
    assert all(land.covers(Point(s.x, s.y)) for s in g.state.living(sq))
    assert any(h[6] == "tango_1" for h in vehicles.hulls_now(g))  # the burning wreck stays
    assert any(m["kind"] == "beached" for m in g.view("insurgent")["markers"])
    assert score(g) == -2  # G-30: a boat lost


def test_a_brewed_up_boat_kills_everyone_aboard():
    g = make()
    row = next(r for r in armour.tables().results if r.id == "brewed_up")
    g.dice.force([6] * 12)  # the blast's dice, if any stand is near
    armour.apply_result(g, g.state.stands["tango_1"], row)
    assert sorted(t.id for t in g.state.tokens if t.state == "kia") == ["cas_sq1_a", "cas_sq1_b", "cas_sq1_sl"]


def test_a_sampan_lost_scores_nothing():
    g = make()
    armour.apply_result(g, g.state.stands["sampan_1"], next(r for r in armour.tables().results if r.id == "knocked_out"))
    assert score(g) == 0  # G-30 scores Allied boats only


def test_views_show_the_ramp_and_aground():
    g = make()
    st = next(s for s in g.view("insurgent")["stands"] if s["id"] == "tango_1")
    assert st["vehicle"]["ramp"] is False and st["vehicle"]["aground"] is False
    assert "passengers" not in st["vehicle"]


def test_the_fixture_hull_plans():
    g = make()
    hull = base_of(g.book, g.state.stands["tango_1"])
    assert riverine.water(g).water.covers(hull)  # G-14: it starts on the water


RIVER_MARKERS = ("river_mine", "beached_boat")
"""The G-15 markers this chapter puts on the table (markers.toml)."""


def test_river_markers_reach_the_views_that_may_see_them():  # DD-1.17; G-15; DD-9A.11
    from game.rules.markers import markers, shown

    g = make()
    mine = markers()["river_mine"]
    assert shown(g.view("insurgent"), mine) and not shown(g.view("allied"), mine)  # the Insurgent's secret
    g.dice.force([6])
    g.state.stands["tango_1"].x = 9.0
    g.state.stands["pbr_1"].x = 27.0
    move(g, "atc", (17, 12.3))  # the Tango is driven aground (DD-9A.12)
    assert shown(g.view("allied"), markers()["beached_boat"]) and shown(g.view("insurgent"), markers()["beached_boat"])
    assert not shown(g.view("insurgent"), mine)  # single use (G-36): gone once fired


def test_a_craft_starts_on_the_water():  # G-14
    raw = river_table(crafts=(("pbr", "pbr_1", 20.0, 5.0),))
    with pytest.raises(ScenarioError, match="it starts on a river, canal or stream"):
        build_scenario(raw)
