"""Shooting (DD-5.1–5.11, DD-5.19–5.21, DD-5.25–5.29, DD-2.11–2.12, DD-4.42) with forced dice."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from game.rules import fire
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import build_scenario
from game.rules.turn import start_turn


def make(elements, terrain=(), tokens=0, seed=1, first="allied", los=True) -> Game:
    """A tiny game: ``elements`` is [(id, side, [(stand id, type, x, y[, facing]), ...], extra dict)]."""
    els = []
    for spec in elements:
        eid, side, stands = spec[0], spec[1], spec[2]
        extra = spec[3] if len(spec) > 3 else {}
        els.append({"id": eid, "side": side, "name": eid, "kind": "squad" if side == "allied" else "cell",
                    **extra,
                    "stand": [{"id": s[0], "type": s[1], "at": [s[2], s[3]],
                               "facing": s[4] if len(s) > 4 else (90 if side == "allied" else 270)}
                              for s in stands]})
    raw = {
        "scenario": {"id": "t", "title": "t", "table": {"width": 48, "height": 48}, "turns": 6,
                     "weather": "clear", "time_of_day": "day", "first_side": first},
        "terrain": list(terrain),
        "side": [{"id": "allied", "faction": "us_army", "name": "A"},
                 {"id": "insurgent", "faction": "vc_main_force", "name": "I", "ambush_tokens": tokens}],
        "element": els,
    }
    g = Game(build_scenario(raw), seed, start=False)
    if los is True:
        g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    elif callable(los):
        g.los_override = los
    start_turn(g)  # turn 1 starts after the LOS override is in place (offers look at LOS)
    return g


SQUAD = ("sq", "allied", [("sq_sl", "us_squad_leader", 22, 8.5), ("sq_a", "us_rifle_team", 20, 10),
                          ("sq_b", "us_rifle_team", 24, 10)])
CELL = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 20, 20), ("vc_b", "vc_rifle_cell", 24, 20),
                            ("vc_c", "vc_cadre", 22, 21.5)])


def rolls(events, purpose):
    return [e for e in events if e["type"] == "roll" and e["purpose"] == purpose]


def test_aimed_fire_full_pool_allocation_saves_casualties_and_pinning():
    g = make([SQUAD, CELL])
    cp = g.state.sides["allied"].cp
    # DD-5.2: 3 + 3 + 1 = 7 dice. DD-5.3: 4+ hits -> 4,4,6,5 = 4 hits (natural 1 misses, G-31).
    # DD-5.6: open ground saves on 6: 6 saves, then 1,1,1 fail. DD-5.19/5.20: morale 4+, rolled 3.
    g.dice.force([4, 4, 1, 2, 3, 6, 5] + [6, 1, 1, 1] + [3])
    ev = g.act("allied", {"type": "fire", "element": "sq", "target": "vc_a"})
    assert g.state.sides["allied"].cp == cp - 1
    hit = rolls(ev, "to hit")
    assert len(hit) == 1 and hit[0]["need"] == 4 and hit[0]["result"] == 4 and len(hit[0]["dice"]) == 7
    saves = rolls(ev, "save")
    assert [s["stand"] for s in saves] == ["vc_a", "vc_a", "vc_a", "vc_b"]  # DD-5.28: closest first
    s = g.state.stands
    assert not s["vc_a"].alive and s["vc_b"].hits == 1 and s["vc_b"].alive  # DD-5.11
    tok = [t for t in g.state.tokens if t.id == "cas_vc_a"][0]
    assert tok.side == "insurgent" and tok.state == "communist"  # DD-3.11, C-19
    assert g.state.elements["vc"].pinned  # DD-5.21
    assert fire.stand_fp(g, s["vc_b"]) == 2  # DD-5.2: ringed Medium stand halves, rounded up


def test_every_hit_saved_still_tests_morale():
    g = make([SQUAD, CELL])
    # DD-5.19: a unit that takes a hit tests even if every hit is saved.
    g.dice.force([6, 1, 1, 1, 1, 1, 1] + [6] + [4])
    ev = g.act("allied", {"type": "fire", "element": "sq", "target": "vc_a"})
    assert g.state.stands["vc_a"].hits == 0
    assert len([e for e in ev if e["type"] == "roll" and e["purpose"].startswith("Morale")]) == 1
    assert not g.state.elements["vc"].pinned


def test_no_hits_no_morale():
    g = make([SQUAD, CELL])
    g.dice.force([1] * 7)
    ev = g.act("allied", {"type": "fire", "element": "sq", "target": "vc_a"})
    assert not [e for e in ev if e["type"] == "roll" and e["purpose"].startswith("Morale")]


def test_closest_target_rule_and_refusals_change_nothing():
    far = ("vc2", "insurgent", [("vc2_a", "vc_rifle_cell", 40, 30)])
    g = make([SQUAD, CELL, far])
    before = g.hash()
    with pytest.raises(IllegalAction) as exc:  # DD-5.28
        g.act("allied", {"type": "fire", "element": "sq", "target": "vc2_a"})
    assert "DD-5.28" in exc.value.clause
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "fire", "element": "sq", "target": "sq_a"})
    assert g.hash() == before
    # The offer lists only the closest element's stands.
    offer = [a for a in g.legal_actions("allied") if a["type"] == "fire"][0]
    assert set(offer["params"]["target"]["choices"]) == {"vc_a", "vc_b", "vc_c"}


def test_no_line_of_sight_and_range():
    g = make([SQUAD, CELL], los=lambda a, b: SimpleNamespace(visible=False, fraction=0.0, distance=0.0))
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "fire", "element": "sq", "target": "vc_a"})
    assert exc.value.clause.startswith("DD-5.1")
    g = make([SQUAD, ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 20, 40)])])
    with pytest.raises(IllegalAction):  # G-26: 24" rifle range
        g.act("allied", {"type": "fire", "element": "sq", "target": "vc_a"})


def _mods(g, target):
    el = g.state.elements["sq"]
    st = g.state.stands["sq_a"]
    return {m.name.split(" (")[0]: m.value for m in fire.to_hit_modifiers(g, el, st, g.state.stands[target],
                                                                         fire.Context())}


def test_cover_modifiers_and_saves():
    jungle = {"id": "j", "type": "secondary", "polygon": [[18, 18], [26, 18], [26, 23], [18, 23]]}
    g = make([SQUAD, CELL], terrain=[jungle])
    assert _mods(g, "vc_a") == {"target in Medium Cover": -1}  # DD-5.4
    sv, _ = fire.save_need(g, g.state.stands["vc_a"], fire.Context(), 9.0)
    assert sv == 5  # DD-5.6
    bunker = {"id": "bk", "type": "bunker", "point": [20, 20], "size": [3, 2]}
    g = make([SQUAD, CELL], terrain=[bunker])
    assert _mods(g, "vc_a") == {"target in Heavy Cover": -2}  # DD-5.4, C-12
    assert fire.save_need(g, g.state.stands["vc_a"], fire.Context(), 9.0)[0] == 4  # DD-5.6
    stream = {"id": "s", "type": "stream", "path": [[10, 20], [30, 20]], "width": 2}
    g = make([SQUAD, CELL], terrain=[stream])
    assert fire.save_need(g, g.state.stands["vc_a"], fire.Context(), 9.0)[0] == 6  # DD-5.6, C-15: water


def test_heavy_cover_and_pinned_firer_need_7_but_natural_6_hits():
    bunker = {"id": "bk", "type": "bunker", "point": [20, 20], "size": [3, 2]}
    g = make([SQUAD, CELL], terrain=[bunker])
    g.state.elements["sq"].pinned = True
    # DD-5.4: -2 heavy, -1 pinned firer -> 7+; G-31: a natural 6 still hits.
    g.dice.force([6, 5, 5, 5, 5, 5, 5] + [1] + [6])
    ev = g.act("allied", {"type": "fire", "element": "sq", "target": "vc_a"})
    hit = rolls(ev, "to hit")[0]
    assert hit["need"] == 7 and hit["result"] == 1


def test_point_blank_bonus_cap_and_strips_vegetation():
    # DD-5.5, DD-5.25, C-18: within 3", +1, and scrub gives neither to-hit nor save benefit.
    scrub = {"id": "j", "type": "secondary", "polygon": [[18, 11], [26, 11], [26, 16], [18, 16]]}
    close = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 20, 13)])
    g = make([SQUAD, close], terrain=[scrub])
    mods = _mods(g, "vc_a")
    assert mods["point blank"] == 1 and mods["point blank strips vegetation cover"] == 0
    assert fire.save_need(g, g.state.stands["vc_a"], fire.Context(), 1.0)[0] == 6
    from game.rules.dice import Modifier, need
    assert need(4, [Modifier("a", 1, "x"), Modifier("b", 1, "x"), Modifier("c", 1, "x")]) == 2  # DD-5.5


def test_body_shield_and_look_out_sir():
    # The cadre stands closest, but a Medium stand of its cell is within 2": the hit goes there (DD-5.8).
    cell = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 20, 21), ("vc_c", "vc_cadre", 22, 18)])
    g = make([SQUAD, cell])
    g.dice.force([4, 1, 1, 1, 1, 1, 1] + [1] + [6])
    ev = g.act("allied", {"type": "fire", "element": "sq", "target": "vc_c"})
    assert rolls(ev, "save")[0]["stand"] == "vc_a"
    # Once the Medium stand is gone, a hit on the cadre rolls Look Out, Sir! (DD-5.9); 2-6 and no
    # Medium stand left within 2": the hit is lost (G-34).
    g = make([SQUAD, cell])
    g.state.stands["vc_a"].alive = False
    g.dice.force([4, 1, 1, 1, 1, 1, 1] + [2] + [6])
    ev = g.act("allied", {"type": "fire", "element": "sq", "target": "vc_c"})
    los = rolls(ev, "Look Out, Sir!")
    assert len(los) == 1 and los[0]["result"] == "pass" and g.state.stands["vc_c"].alive
    g = make([SQUAD, cell])
    g.state.stands["vc_a"].alive = False
    g.dice.force([4, 1, 1, 1, 1, 1, 1] + [1, 1])  # Look Out, Sir! fails, save fails: eliminated (C-19)
    g.act("allied", {"type": "fire", "element": "sq", "target": "vc_c"})
    assert not g.state.stands["vc_c"].alive


def test_allied_casualty_token_is_wounded():
    g = make([SQUAD, CELL], first="insurgent")
    g.dice.force([4, 4, 4, 1, 1, 1] + [1, 1, 1] + [6])  # 3+3 dice from the two cells + cadre 1 = 7
    g.dice.force([1])
    g.act("insurgent", {"type": "fire", "element": "vc", "target": "sq_a"})
    tok = [t for t in g.state.tokens if t.id == "cas_sq_a"][0]
    assert tok.side == "allied" and tok.state == "wounded"  # DD-5.11, DD-6.1


def test_sniper_picks_small_stand():
    hq = ("hq", "allied", [("pc", "us_platoon_commander", 22, 8), ("rto", "us_rto", 24, 8)])
    riflemen = ("sq", "allied", [("sq_sl", "us_squad_leader", 10, 8.5), ("sq_a", "us_rifle_team", 21, 10)])
    snp = ("snp", "insurgent", [("snp_1", "vc_sniper", 22, 30)])
    g = make([hq, riflemen, snp], first="insurgent")
    offer = [a for a in g.legal_actions("insurgent") if a["type"] == "fire"][0]
    assert "pc" in offer["params"]["target"]["choices"]  # DD-5.29: not only the closest
    g.dice.force([5, 1])  # DD-5.10: no Body Shield, no Look Out, Sir!; the PC saves on 6 only
    ev = g.act("insurgent", {"type": "fire", "element": "snp", "target": "pc"})
    assert not g.state.stands["pc"].alive
    assert not rolls(ev, "Look Out, Sir!")


def test_fire_and_maneuver_moves_then_fires_half_pool():
    g = make([SQUAD, CELL])
    g.dice.force([1, 1, 1, 1])  # DD-2.12: 7 dice halved, rounded up: 4
    ev = g.act("allied", {"type": "fire_maneuver", "element": "sq", "to": [22, 12.5], "target": "vc_a"})
    assert [e["type"] for e in ev if e["type"] in ("move", "fire")] == ["move", "fire"]
    assert len(rolls(ev, "to hit")[0]["dice"]) == 4
    assert g.state.elements["sq"].move_actions == 1
    with pytest.raises(IllegalAction):  # more than 4"
        g2 = make([SQUAD, CELL])
        g2.act("allied", {"type": "fire_maneuver", "element": "sq", "to": [22, 15.5], "target": "vc_a"})


def test_pinned_unit_failing_again_retreats():
    g = make([SQUAD, CELL])
    g.state.elements["vc"].pinned = True
    g.dice.force([4, 1, 1, 1, 1, 1, 1] + [6] + [2])
    ev = g.act("allied", {"type": "fire", "element": "sq", "target": "vc_a"})
    assert [e for e in ev if e["type"] == "retreat"]  # DD-5.21


def test_veteran_and_militia_targets():
    g = make([SQUAD, CELL])
    g.state.elements["vc"].quality = "veteran"
    g.dice.force([4, 1, 1, 1, 1, 1, 1] + [6] + [3])  # DD-5.20: veterans pass on 3+
    g.act("allied", {"type": "fire", "element": "sq", "target": "vc_a"})
    assert not g.state.elements["vc"].pinned
    g = make([SQUAD, CELL])
    g.state.elements["vc"].quality = "militia"
    g.dice.force([4, 1, 1, 1, 1, 1, 1] + [6] + [4])  # militia need 5+
    g.act("allied", {"type": "fire", "element": "sq", "target": "vc_a"})
    assert g.state.elements["vc"].pinned


def test_tree_sniper_heavy_cover_and_falls_when_pinned():
    wood = {"id": "w", "type": "rubber", "polygon": [[15, 25], [30, 25], [30, 35], [15, 35]]}
    snp = ("snp", "insurgent", [("snp_1", "vc_sniper", 22, 30)])
    g = make([SQUAD, snp], terrain=[wood])
    st = g.state.stands["snp_1"]
    assert fire.in_tree(g, st)
    assert _mods(g, "snp_1") == {"tree sniper in Heavy Cover": -2}  # DD-4.42
    assert fire.save_need(g, st, fire.Context(), 10.0)[0] == 4
    g.dice.force([6, 1, 1, 1, 1, 1, 1] + [4] + [1])  # saved on 4+, but fails morale: Pinned -> falls
    g.act("allied", {"type": "fire", "element": "sq", "target": "snp_1"})
    assert not st.alive  # DD-4.42


def test_beaten_zone_pins_everyone_inside():
    mg = ("mg", "allied", [("mg_1", "us_mg_team", 22, 10)])
    sl = ("hq", "allied", [("pc", "us_platoon_commander", 30, 5)])
    g = make([mg, sl, CELL])
    # DD-5.27: 3 dice, 4+ with no cover modifier; every unit inside tests even without hits.
    g.dice.force([1, 1, 1] + [3])
    ev = g.act("allied", {"type": "area_fire", "element": "mg", "at": [22, 20.5]})
    assert len(rolls(ev, "to hit")[0]["dice"]) == 3
    assert g.state.elements["vc"].pinned
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "area_fire", "element": "mg", "at": [22, 45]})


def test_grazing_fire_hits_friend_in_corridor():
    mg = ("mg", "allied", [("mg_1", "us_mg_team", 22, 10)])
    friend = ("sq", "allied", [("sq_sl", "us_squad_leader", 25.5, 8), ("sq_a", "us_rifle_team", 22, 14)])
    target = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 22, 20)])
    g = make([mg, friend, target])
    with pytest.raises(IllegalAction):  # DD-5.28: the friend is not a target; the closest enemy is vc_a
        g.act("allied", {"type": "grazing_fire", "element": "mg", "target": "sq_a"})
    # DD-5.26, G-34: 4 dice at vc_a, then sq_a in the corridor takes 1 hit and saves on 6.
    g.dice.force([1, 1, 1, 1] + [1] + [6])
    ev = g.act("allied", {"type": "grazing_fire", "element": "mg", "target": "vc_a"})
    assert g.state.stands["sq_a"].hits == 1
    assert any(e["type"] == "roll" and e.get("element") == "sq" and e["purpose"].startswith("Morale") for e in ev)
    paddy_bad = {"id": "j", "type": "secondary", "polygon": [[20, 15], [24, 15], [24, 17], [20, 17]]}
    g = make([mg, ("hq", "allied", [("sl", "us_squad_leader", 25.5, 8)]), target], terrain=[paddy_bad])
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "grazing_fire", "element": "mg", "target": "vc_a"})
    assert "G-34" in exc.value.clause


def test_combat_tables_are_strict(tmp_path):
    import shutil

    from game.rules.data import DataError
    shutil.copy(fire.DATA_DIR / "combat.toml", tmp_path / "combat.toml")
    assert fire.load_combat(tmp_path).beaten_zone.fp == 3
    (tmp_path / "combat.toml").write_text((tmp_path / "combat.toml").read_text().replace("fp = 3 ", "fpx = 3 "))
    with pytest.raises(DataError):
        fire.load_combat(tmp_path)


# -- DD-3.18: no heavy weapons fire from the water --------------------------------------------------------
STREAM = [{"id": "creek", "type": "stream", "path": [[0, 20], [48, 20]], "width": 3.0}]


def _mg_in(y: float) -> Game:
    from tests.builders import element, enemy, platoon, scenario, stand

    els = platoon() + [element("gun", "allied", [stand("m60", "us_mg_team", 20.0, y)], kind="team", name="M60")]
    g = Game(build_scenario(scenario(els + enemy((20.0, 30.0)), STREAM)), 1, start=False)
    start_turn(g)
    return g


def test_an_m60_in_a_stream_cannot_fire():  # DD-3.18
    g = _mg_in(20.0)
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "fire", "element": "gun", "target": "vc_a"})
    assert exc.value.clause == "DD-3.18" and "fording" in exc.value.reason
    assert not [a for a in g.legal_actions("allied") if a.get("element") == "gun" and a["type"] in
                ("fire", "grazing_fire", "area_fire")]


def test_the_same_m60_on_the_bank_fires():  # DD-3.18
    g = _mg_in(17.0)
    assert [a for a in g.legal_actions("allied") if a.get("element") == "gun" and a["type"] == "fire"]
    g.act("allied", {"type": "fire", "element": "gun", "target": "vc_a"})
