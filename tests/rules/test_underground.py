"""The Tunnel Warfare module underground (TUN-8–TUN-24; C-28, C-35, C-36; G-43) with forced dice.

Each test is one tiny table: a squad and a Tunnel Rat team beside an open entrance ``e1``, a network beneath
it (e1 - t1 - j1 - t2 - d1, with j1 - t3 - e2: a junction, a two-stand dug-out and a spider hole), the VC
garrison in it; the actions taken, the dice forced, the end state checked.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from game.rules import tunnel_fight, tunnels, underground
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import build_scenario
from game.rules.turn import start_turn
from tests.builders import element, scenario, stand

SECTIONS = [
    {"id": "e1", "kind": "entrance", "at": [10, 8], "concealed": False},
    {"id": "t1", "kind": "tunnel", "at": [14, 8]},
    {"id": "j1", "kind": "junction", "at": [18, 8]},
    {"id": "t2", "kind": "tunnel", "at": [22, 8]},
    {"id": "d1", "kind": "dugout", "at": [26, 8], "capacity": 2, "use": "barracks"},
    {"id": "t3", "kind": "tunnel", "at": [18, 14]},
    {"id": "e2", "kind": "spider_hole", "at": [18, 30]},
]
LINKS = [["e1", "t1"], ["t1", "j1"], ["j1", "t2"], ["t2", "d1"], ["j1", "t3"], ["t3", "e2"]]


def squad(*extra) -> dict:
    return element("sq", "allied", [stand("sq_sl", "us_squad_leader", 12, 14), stand("sq_a", "us_rifle_team", 10, 11),
                                    stand("sq_b", "us_rifle_team", 12.5, 11.5), *extra], name="1st Squad")


def rats(at=(9, 9)) -> dict:
    x, y = at
    return element("rats", "allied", [stand("rat1", "us_tunnel_rat", x, y), stand("rat2", "us_tunnel_rat", x + 1.6, y)],
                   kind="team", quality="veteran", name="Tunnel Rats")


def garrison(eid: str, sid: str, n: int = 1, stype: str = "vc_rifle_cell") -> dict:
    return element(eid, "insurgent", [stand(f"{eid}_{i}", stype, 40 + 2 * i, 44, 270) for i in range(n)],
                   kind="cell", quality="veteran", underground=sid)


SURFACE_CELL = element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 40, 30, 270)], kind="cell")


def make(elements=None, traps=(), sections=None, faction="vc_main_force", cp=20, tokens=4) -> Game:
    els = elements if elements is not None else [squad(), rats(), garrison("g1", "d1"), SURFACE_CELL]
    raw = scenario(els, [], first_side="allied", turns=6)
    raw["side"][1]["faction"] = faction
    secs = [dict(s, trap=True) if s["id"] in traps else dict(s) for s in (sections or SECTIONS)]
    raw["tunnels"] = {"module": True, "section": secs, "link": [{"between": p} for p in LINKS]}
    g = Game(build_scenario(raw), 1, start=False)
    g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    start_turn(g)
    g.state.sides["allied"].cp = cp
    g.state.sides["insurgent"].ambush_tokens = tokens
    return g


def act(g: Game, side: str, action: dict) -> list[dict]:
    """``side`` acts; then, if it is the other side's impulse, the other side holds its surface cell (or
    passes), so the turn goes on."""
    ev = g.act(side, action)
    other = g.state.other(side)
    if g.state.to_act == other and not g.state.over:
        ev += idle(g, other)
    return ev


def idle(g: Game, side: str) -> list[dict]:
    for a in g.legal_actions(side):
        if a["type"] == "hold" and a.get("cost", 0) == 0 and a.get("tokens", 0) == 0 and side == "insurgent":
            return g.act(side, {"type": "hold", "element": a["element"]})
    return g.act(side, {"type": "pass"})


def down(g: Game, stand_id: str = "rat1", element_id: str = "rats") -> list[dict]:
    return act(g, "allied", {"type": "descend", "element": element_id, "stand": stand_id, "section": "e1"})


def crawl(g: Game, stand_id: str, to: str, side: str = "allied") -> list[dict]:
    el = g.state.stands[stand_id].element
    return act(g, side, {"type": "crawl", "element": el, "stand": stand_id, "section": to})


def where(g: Game, stand_id: str) -> str | None:
    return tunnels.section_of(g, g.state.stands[stand_id].element)


def of(events, kind, **match):
    return [e for e in events if e["type"] == kind and all(e.get(k) == v for k, v in match.items())]


def listed(g: Game, side: str, kind: str) -> list[dict]:
    return [a for a in g.legal_actions(side) if a["type"] == kind]


# -- going down (TUN-8, TUN-13, C-35) ------------------------------------------------------------------
def test_a_tunnel_rat_goes_down_as_its_own_element_and_sees_the_next_section():
    g = make()
    ev = down(g)
    # G-43: each underground stand is its own element; TUN-8: it enters the entrance section
    el = g.state.elements[g.state.stands["rat1"].element]
    assert el.id == "rats-rat1" and el.stands == ["rat1"] and el.reserve and el.quality == "veteran"
    assert g.state.elements["rats"].stands == ["rat2"]
    assert where(g, "rat1") == "e1"
    assert of(ev, "tunnel_enter", element="rats-rat1", section="e1")
    # TUN-12: from e1 it sees into t1; the Allied side learns it (and only it)
    assert tunnels.known(g, "allied") == ["e1", "t1"]
    view = g.view("allied")
    assert {e["id"]: e.get("underground") for e in view["elements"]}["rats-rat1"] == "e1"


def test_one_free_world_stand_per_company_below_but_the_tunnel_rats_are_exempt():
    g = make()
    g.state.stands["sq_b"].x, g.state.stands["sq_b"].y = 12.6, 8.0
    down(g, "sq_b", "sq")
    g.state.stands["sq_a"].x, g.state.stands["sq_a"].y = 10, 6.5
    with pytest.raises(IllegalAction) as e:  # TUN-13: at most one Free World stand below
        g.check("allied", {"type": "descend", "element": "sq", "stand": "sq_a", "section": "e1"})
    assert e.value.clause == "TUN-13; C-35"
    down(g, "rat1")  # C-35: the Tunnel Rats are exempt from the limit
    assert where(g, "rat1") == "e1" and where(g, "sq_b") == "e1"


def test_going_down_needs_a_known_open_hatch_within_2_inches():
    g = make()
    with pytest.raises(IllegalAction) as e:  # TUN-5: the spider hole e2 is concealed and not found
        g.check("allied", {"type": "descend", "element": "rats", "stand": "rat1", "section": "e2"})
    assert e.value.clause == "DD-9B.3; TUN-5"
    with pytest.raises(IllegalAction) as e:  # TUN-8: sq_sl stands 6" from the hatch
        g.check("allied", {"type": "descend", "element": "sq", "stand": "sq_sl", "section": "e1"})
    assert e.value.clause == "TUN-8"
    tunnels.state(g).gassed["e1"] = g.state.turn
    with pytest.raises(IllegalAction) as e:  # G-35: CS gas, nothing enters
        g.check("allied", {"type": "descend", "element": "rats", "stand": "rat1", "section": "e1"})
    assert e.value.clause == "G-35"


def test_the_garrison_is_veteran_and_an_nva_side_cannot_provide_one():
    g = make()
    # TUN-13, C-36: the garrison is always Veteran, and defending adds VC defending
    mods = tunnel_fight.fight_modifiers(g, g.state.stands["g1_0"], defending=True)
    assert [(m.name, m.value) for m in mods] == [("VC defending", 1), ("Veteran", 1)]
    with pytest.raises(Exception) as e:  # TUN-13: NVA cannot provide a tunnel garrison
        make(faction="nva")
    assert "TUN-13" in str(e.value)


def test_heavy_weapons_go_down_but_never_fire_and_fight_at_minus_2():
    g = make([squad(stand("sq_mg", "us_mg_team", 7.4, 9.0)), rats((30, 40)), garrison("g1", "d1"), SURFACE_CELL])
    down(g, "sq_mg", "sq")  # TUN-14: a machine gun may be carried underground
    assert where(g, "sq_mg") == "e1"
    mg_el = g.state.stands["sq_mg"].element
    # TUN-14, TUN-18: no fire action for a stand below (it is off the table), -2 in a fight
    assert not [a for a in g.legal_actions("allied") if a.get("element") == mg_el and "fire" in a["type"]]
    mods = tunnel_fight.fight_modifiers(g, g.state.stands["sq_mg"], defending=False)
    assert [(m.name, m.value) for m in mods] == [("heavy weapon crew", -2)]


# -- movement: one section, one action per activation (TUN-8–TUN-10) ----------------------------------
def test_a_crawl_enters_one_linked_section_and_is_the_whole_activation():
    g = make()
    down(g)
    with pytest.raises(IllegalAction) as e:  # TUN-8: enter a section, never enter and exit in one action
        g.check("allied", {"type": "crawl", "element": "rats-rat1", "stand": "rat1", "section": "j1"})
    assert e.value.clause == "TUN-8"
    ev = g.act("allied", {"type": "crawl", "element": "rats-rat1", "stand": "rat1", "section": "t1"})
    # TUN-9: one action, then the impulse goes to the other side; the stand has activated twice this turn
    assert where(g, "rat1") == "t1" and g.state.to_act == "insurgent"
    assert g.state.elements["rats-rat1"].activations == 2
    assert of(ev, "activate", element="rats-rat1", cost=1)
    assert tunnels.known(g, "allied") == ["e1", "j1", "t1"]
    idle(g, "insurgent")
    with pytest.raises(IllegalAction) as e:  # G-28 (2): two activations a turn, below as above
        g.check("allied", {"type": "crawl", "element": "rats-rat1", "stand": "rat1", "section": "j1"})
    assert e.value.clause == "G-28 (2); G-43"


def test_a_failed_underground_action_ends_only_that_activation():
    g = make()
    down(g)
    g.state.elements["rats-rat1"].activations = 0  # a new turn's activations for the stand below
    g.dice.force([2])  # the search fails
    ev = g.act("allied", {"type": "tunnel_search", "element": "rats-rat1", "stand": "rat1", "section": "t1"})
    assert of(ev, "roll", purpose="Search")[0]["result"] == "fail"
    # TUN-10: the initiative is not lost: the Allied side has its next impulse and the stand acts again
    idle(g, "insurgent")
    assert g.state.to_act == "allied"
    assert listed(g, "allied", "crawl")
    g.act("allied", {"type": "crawl", "element": "rats-rat1", "stand": "rat1", "section": "t1"})
    assert where(g, "rat1") == "t1"


def test_switching_to_the_surface_and_passing_locks_the_tunnels_for_the_turn():
    g = make([squad(), rats(), garrison("g1", "d1"), garrison("g2", "d1"), SURFACE_CELL,
              element("vc2", "insurgent", [stand("vc2_a", "vc_rifle_cell", 44, 30, 270)], kind="cell")])
    down(g)  # an underground action
    g.act("allied", {"type": "hold", "element": "sq"}) if g.state.to_act == "allied" else None
    if g.state.to_act == "insurgent":
        g.act("insurgent", {"type": "hold", "element": "vc2"})
    g.act("allied", {"type": "pass"})  # TUN-11: switched to the surface, then lost the initiative
    assert "allied" in underground.ug_state(g).locked
    g.act("insurgent", {"type": "crawl", "element": "g1", "stand": "g1_0", "section": "t2"})
    assert g.state.to_act == "allied"
    with pytest.raises(IllegalAction) as e:
        g.check("allied", {"type": "crawl", "element": "rats-rat1", "stand": "rat1", "section": "t1"})
    assert e.value.clause == "TUN-11; G-43"
    assert not listed(g, "allied", "crawl") and not listed(g, "allied", "descend")


def test_the_lock_lifts_with_the_next_turn():
    g = make()
    u = underground.ug_state(g)
    u.locked = ["allied"]
    underground.new_turn(g)  # TUN-11: "until he regains the initiative": the next turn
    assert u.locked == []


# -- sight underground (TUN-12, TUN-24) ----------------------------------------------------------------
def test_the_allied_side_sees_the_garrison_only_from_the_next_section():
    g = make()
    down(g)
    seq0 = g.seq_for("allied")
    assert "g1" not in {e["id"] for e in g.view("allied")["elements"]}  # TUN-12: d1 is far out of sight
    crawl(g, "rat1", "t1")
    g.state.elements["rats-rat1"].activations = 0
    crawl(g, "rat1", "j1")
    g.state.elements["rats-rat1"].activations = 0
    assert "g1" not in {e["id"] for e in g.view("allied")["elements"]}
    crawl(g, "rat1", "t2")  # t2 is next to d1: now it sees in
    shown = {e["id"]: e for e in g.view("allied")["elements"]}
    assert shown["g1"]["underground"] == "d1" and "quality" not in shown["g1"]
    # what its stands are, not where: `below` records, no stand on the table (DD-4.8 shape)
    assert [b["type"] for b in shown["g1"]["below"]] == [g.state.stands[s].type for s in shown["g1"]["reserve_stands"]]
    assert not {b["id"] for b in shown["g1"]["below"]} & {s["id"] for s in g.view("allied")["stands"]}
    assert all(set(b) == {"id", "type", "name", "model", "side", "wounded"} for b in shown["g1"]["below"])
    own = {e["id"]: e for e in g.view("allied")["elements"]}["rats-rat1"]
    assert [b["id"] for b in own["below"]] == ["rat1"]  # its owner's too, so its figures stand in t2
    # TUN-24: the Insurgent sees its whole network; the Allied side what it has found
    ins = {m["id"] for m in g.view("insurgent")["markers"] if m["kind"] == "tunnel_section"}
    ally = {m["id"] for m in g.view("allied")["markers"] if m["kind"] == "tunnel_section"}
    assert ins == {s["id"] for s in SECTIONS} and ally == {"e1", "t1", "j1", "t2", "t3", "d1"}
    assert all("trapped" not in m for m in g.view("allied")["markers"] if m["kind"] == "tunnel_section")
    # DESIGN §6: the Allied events stay numbered without gaps
    seqs = [e["seq"] for e in g.events_for("allied", g.events)]
    assert seqs == list(range(1, len(seqs) + 1)) and seqs[-1] > seq0


def test_a_garrison_move_out_of_sight_is_the_insurgent_secret():
    g = make([squad(), rats(), garrison("g1", "t2"), SURFACE_CELL])
    down(g)
    start = len(g.events)
    g.act("allied", {"type": "pass"}) if g.state.to_act == "allied" else None
    g.act("insurgent", {"type": "crawl", "element": "g1", "stand": "g1_0", "section": "d1"})
    new = g.events[start:]
    assert of(g.events_for("insurgent", new), "tunnel_move", element="g1", to="d1")
    assert not of(g.events_for("allied", new), "tunnel_move")  # TUN-12: from e1 the rat sees t1 only
    assert not of(g.events_for("allied", new), "activate", element="g1")


def test_a_refusal_names_an_unseen_garrison_as_nothing():
    g = make([squad(), rats(), garrison("g1", "t1"), SURFACE_CELL])
    down(g)
    g.state.elements["rats-rat1"].activations = 0
    with pytest.raises(IllegalAction) as seen_far:  # the garrison in t1 is seen but not in e1
        g.check("allied", {"type": "tunnel_fight", "element": "rats-rat1", "stand": "rat1", "target": "g1_0"})
    with pytest.raises(IllegalAction) as nothing:
        g.check("allied", {"type": "tunnel_fight", "element": "rats-rat1", "stand": "rat1", "target": "zz"})
    assert seen_far.value.clause == nothing.value.clause == "TUN-19"
    assert "g1_0" in seen_far.value.reason and "in e1" in seen_far.value.reason


# -- close combat (TUN-19, TUN-20, C-36, G-43) ------------------------------------------------------------
def fight_game(garrison_at: str = "t1", loser_die: int = 6) -> Game:
    g = make([squad(), rats(), garrison("g1", garrison_at), SURFACE_CELL])
    down(g)
    g.state.elements["rats-rat1"].activations = 0
    if garrison_at != "e1":
        crawl(g, "rat1", garrison_at)
        g.state.elements["rats-rat1"].activations = 0
    return g


def test_worked_fight_a_tunnel_rat_beats_the_garrison_which_is_destroyed():
    g = fight_game()
    g.dice.force([4, 3, 5])  # rat 4 +2 = 6; garrison 3 +2 = 5; the loser rolls 5: destroyed
    ev = g.act("allied", {"type": "tunnel_fight", "element": "rats-rat1", "stand": "rat1", "target": "g1_0"})
    rolls = of(ev, "roll", purpose="tunnel fight")
    # TUN-19, C-36: Veteran +1 and Tunnel Rats +1 stack; VC defending +1 and Veteran +1 stack
    assert [(r["stand"], r["dice"], r["result"]) for r in rolls] == [("rat1", [4], 6), ("g1_0", [3], 5)]
    assert [m["name"] for m in rolls[0]["modifiers"]] == ["Veteran", "Tunnel Rats"]
    assert [m["name"] for m in rolls[1]["modifiers"]] == ["VC defending", "Veteran"]
    fight = of(ev, "tunnel_fight")[0]
    assert (fight["winner"], fight["loser"], fight["result"], fight["to"]) == ("rat1", "g1_0", "destroyed", None)
    assert not g.state.stands["g1_0"].alive  # TUN-20: 5-6 destroyed
    assert underground.ug_state(g).casualties == []  # no Free World casualty


def test_a_tie_is_rolled_again_at_once():
    g = fight_game()
    g.dice.force([3, 3, 2, 5, 6])  # 5 all: reroll; rat 2+2 = 4, garrison 5+2 = 7; the rat rolls 6
    ev = g.act("allied", {"type": "tunnel_fight", "element": "rats-rat1", "stand": "rat1", "target": "g1_0"})
    fight = of(ev, "tunnel_fight")[0]
    assert fight["rolls"] == [[5, 5], [4, 7]] and fight["winner"] == "g1_0"  # G-43: a tie rerolls
    assert not g.state.stands["rat1"].alive
    # TUN-21: a destroyed Free World stand leaves a Casualty Token in the section
    cas = underground.ug_state(g).casualties
    assert [(c.id, c.section) for c in cas] == [("cas_rat1", "t1")]
    assert [m["id"] for m in g.view("allied")["markers"] if m["kind"] == "tunnel_casualty"] == ["cas_rat1"]


def test_the_loser_withdraws_away_from_the_winner():
    g = fight_game()
    g.dice.force([6, 1, 2])  # the garrison loses and rolls 2: it withdraws
    ev = g.act("allied", {"type": "tunnel_fight", "element": "rats-rat1", "stand": "rat1", "target": "g1_0"})
    fight = of(ev, "tunnel_fight")[0]
    # TUN-20, G-43: never back into e1, where the rat came in from: j1 is the only way
    assert (fight["result"], fight["to"]) == ("withdrew", "j1")
    assert where(g, "g1_0") == "j1"


def test_a_loser_with_nowhere_to_withdraw_is_destroyed():
    g = fight_game("e1")
    g.dice.force([1, 6, 2])  # the rat loses in e1 and rolls 2, but the garrison came from nowhere: t1 open...
    tunnels.state(g).collapsed = ["t1"]  # ... unless t1 is gone: e1 is a dead end
    ev = g.act("allied", {"type": "tunnel_fight", "element": "rats-rat1", "stand": "rat1", "target": "g1_0"})
    fight = of(ev, "tunnel_fight")[0]
    assert (fight["loser"], fight["result"]) == ("rat1", "destroyed")  # G-43: no section to withdraw to


# -- casualties below (TUN-21) ---------------------------------------------------------------------------
def test_a_casualty_below_bars_fights_and_going_deeper_until_carried_out():
    g = make([squad(), rats(), garrison("g1", "t1"), garrison("g2", "t3"), SURFACE_CELL])
    down(g)
    g.state.elements["rats-rat1"].activations = 0
    crawl(g, "rat1", "t1")
    g.state.elements["rats-rat1"].activations = 0
    g.dice.force([1, 6, 6])  # rat1 loses and is destroyed in t1
    act(g, "allied", {"type": "tunnel_fight", "element": "rats-rat1", "stand": "rat1", "target": "g1_0"})
    assert underground.casualty_below(g)
    g.state.stands["g1_0"].alive = False  # the garrison in t1 is gone (whatever took it)
    down(g, "rat2")
    rat2 = g.state.stands["rat2"].element
    for el in g.state.elements.values():
        el.activations = 0
    crawl(g, "rat2", "t1")  # as deep as the casualty: allowed, to fetch it (engine reading of TUN-21)
    assert where(g, "rat2") == "t1"
    g.state.elements[rat2].activations = 0
    with pytest.raises(IllegalAction) as e:  # TUN-21: no deeper while a Free World casualty is below
        g.check("allied", {"type": "crawl", "element": rat2, "stand": "rat2", "section": "j1"})
    assert e.value.clause == "TUN-21"
    act(g, "allied", {"type": "tunnel_carry", "element": rat2, "stand": "rat2", "token": "cas_rat1"})
    g.state.elements[rat2].activations = 0
    crawl(g, "rat2", "e1")  # the casualty goes with its bearer
    assert underground.ug_state(g).casualties[0].section == "e1"
    g.state.elements[rat2].activations = 0
    ev = act(g, "allied", {"type": "surface", "element": rat2, "stand": "rat2"})
    # carried out: a casualty on the table, its bearer a Litter Team (DD-6.2); the tunnels are clear of it
    assert of(ev, "tunnel_emerge", element=rat2, section="e1")
    tok = next(t for t in g.state.tokens if t.id == "cas_rat1")
    assert tok.carrier == "rat2" and tok.state == "wounded" and not underground.casualty_below(g)
    assert not g.state.elements[rat2].reserve and where(g, "rat2") is None


def test_a_free_world_stand_starts_no_fight_while_a_casualty_is_below():
    g = make([squad(), rats(), garrison("g1", "e1"), SURFACE_CELL])
    underground.ug_state(g).casualties.append(underground.TunnelCasualty("cas_x", "x", "d1"))
    down(g)
    g.state.elements["rats-rat1"].activations = 0
    assert not listed(g, "allied", "tunnel_fight")
    with pytest.raises(IllegalAction) as e:  # TUN-21
        g.check("allied", {"type": "tunnel_fight", "element": "rats-rat1", "stand": "rat1", "target": "g1_0"})
    assert e.value.clause == "TUN-21"


def test_a_casualty_left_below_scores_as_a_kia():
    g = make()
    underground.ug_state(g).casualties.append(underground.TunnelCasualty("cas_x", "x", "d1"))
    # TUN-21, DD-3.17: the chapter's VP lines at the end
    assert underground.score(g) == [(g.book.victory.kia, "casualty cas_x left in the tunnels "
                                     f"{g.book.victory.kia:+d} (TUN-21, DD-3.17)")]


# -- charges from below (TUN-22, TUN-17, C-28) ------------------------------------------------------------
def test_a_tunnel_rat_blows_the_entrance_from_the_first_section():
    g = make()
    down(g)
    g.state.elements["rats-rat1"].activations = 0
    crawl(g, "rat1", "t1")
    g.state.elements["rats-rat1"].activations = 0
    offer = listed(g, "allied", "tunnel_charge")[0]
    # TUN-22: only the entrance or the first adjacent section (j1 is neither)
    assert offer["params"]["section"]["choices"] == ["e1", "t1"]
    with pytest.raises(IllegalAction) as e:
        g.check("allied", {"type": "tunnel_charge", "element": "rats-rat1", "stand": "rat1", "section": "j1"})
    assert e.value.clause == "TUN-22"
    g.dice.force([2])  # TUN-22: destroyed on anything but a 1, at the end of the initiative
    ev = g.act("allied", {"type": "tunnel_charge", "element": "rats-rat1", "stand": "rat1", "section": "e1"})
    assert of(ev, "tunnel_charge", section="e1")
    assert of(ev, "roll", purpose="Tunnel charges")[0]["result"] == "pass"
    assert tunnels.is_collapsed(g, "e1") and of(ev, "tunnel_collapse", section="e1")


def test_a_charge_failing_on_a_1_may_be_set_again():
    g = make()
    down(g)
    g.state.elements["rats-rat1"].activations = 0
    g.dice.force([1])
    g.act("allied", {"type": "tunnel_charge", "element": "rats-rat1", "stand": "rat1", "section": "e1"})
    assert not tunnels.is_collapsed(g, "e1")  # TUN-22: on a 1 the section stands ...
    idle(g, "insurgent")
    assert listed(g, "allied", "tunnel_charge")  # ... and the procedure may be repeated


def test_only_engineers_sappers_and_tunnel_rats_set_charges():
    g = make()
    g.state.stands["sq_b"].x, g.state.stands["sq_b"].y = 12.6, 8.0
    down(g, "sq_b", "sq")
    el = g.state.stands["sq_b"].element
    g.state.elements[el].activations = 0
    with pytest.raises(IllegalAction) as e:  # C-28: a rifle team uses DD-9B.7 on the surface
        g.check("allied", {"type": "tunnel_charge", "element": el, "stand": "sq_b", "section": "e1"})
    assert e.value.clause == "TUN-22; TUN-17; C-28"


def test_stands_in_a_section_that_collapses_are_buried():
    g = make([squad(), rats(), garrison("g1", "t1"), SURFACE_CELL])
    tunnels.collapse(g, "t1", "charge", "TUN-22")
    tunnel_fight.buried(g)  # after the act that blew it
    assert not g.state.stands["g1_0"].alive


# -- booby traps below (TUN-7, TUN-23) --------------------------------------------------------------------
def test_a_trapped_section_springs_on_the_first_free_world_stand_to_enter_with_tun23():
    g = make(traps=("t1",))
    down(g)
    g.state.elements["rats-rat1"].activations = 0
    g.dice.force([1])  # the G-08 roll: 1 -1 (a tunnel rat looks for traps) -> the table's lowest row
    ev = crawl(g, "rat1", "t1")
    roll = of(ev, "roll", purpose="Booby Trap")[0]
    assert [m["value"] for m in roll["modifiers"]] == [-1] and "TUN-23" in roll["modifiers"][0]["clause"]
    assert of(ev, "booby_trap", element="rats-rat1")
    assert "t1" in tunnels.state(g).disarmed  # spent: it goes off once


def test_a_search_below_finds_and_disarms_the_trap_ahead():
    g = make(traps=("t1",))
    down(g)
    g.state.elements["rats-rat1"].activations = 0
    g.dice.force([3])  # 3 + 1 (Tunnel Rats search, G-43) = 4: found
    ev = g.act("allied", {"type": "tunnel_search", "element": "rats-rat1", "stand": "rat1", "section": "t1"})
    roll = of(ev, "roll", purpose="Search")[0]
    assert roll["result"] == "pass" and roll["modifiers"][0]["value"] == 1
    assert of(ev, "trap_found", trap="t1", how="search") and "t1" in tunnels.state(g).disarmed
    idle(g, "insurgent")
    g.state.elements["rats-rat1"].activations = 0
    ev = crawl(g, "rat1", "t1")
    assert not of(ev, "booby_trap")


def test_a_fumbled_search_sets_the_trap_off():
    g = make(traps=("t1",))
    down(g)
    g.state.elements["rats-rat1"].activations = 0
    g.dice.force([1, 4])  # G-35: a natural 1; then the G-08 roll
    ev = g.act("allied", {"type": "tunnel_search", "element": "rats-rat1", "stand": "rat1", "section": "t1"})
    assert of(ev, "booby_trap", element="rats-rat1")


# -- coming up (TUN-8, G-43, G-35) --------------------------------------------------------------------------
def test_the_garrison_comes_up_at_a_spider_hole_but_not_through_gas():
    g = make([squad(), rats(), garrison("g1", "e2"), SURFACE_CELL])
    g.act("allied", {"type": "hold", "element": "sq"})
    tunnels.state(g).gassed["e2"] = g.state.turn
    with pytest.raises(IllegalAction) as e:
        g.check("insurgent", {"type": "surface", "element": "g1", "stand": "g1_0"})
    assert e.value.clause == "G-35"
    tunnels.state(g).gassed.clear()
    ev = g.act("insurgent", {"type": "surface", "element": "g1", "stand": "g1_0"})
    st = g.state.stands["g1_0"]
    assert of(ev, "tunnel_emerge", element="g1", section="e2")
    assert ((st.x - 18) ** 2 + (st.y - 30) ** 2) ** 0.5 <= 2.0 and not g.state.elements["g1"].reserve


def test_a_stand_comes_up_only_at_a_surface_section():
    g = make([squad(), rats(), garrison("g1", "d1"), SURFACE_CELL])
    g.act("allied", {"type": "hold", "element": "sq"})
    with pytest.raises(IllegalAction) as e:  # TUN-8, TUN-1: a dug-out lies beneath the table
        g.check("insurgent", {"type": "surface", "element": "g1", "stand": "g1_0"})
    assert e.value.clause == "TUN-8; TUN-1"


def test_a_garrison_element_of_several_stands_acts_one_stand_at_a_time():
    g = make([squad(), rats(), garrison("g1", "d1", n=2), SURFACE_CELL])
    g.act("allied", {"type": "hold", "element": "sq"})
    g.act("insurgent", {"type": "crawl", "element": "g1", "stand": "g1_1", "section": "t2"})
    # G-43: the stand that acts is split off as its own element; the other stays in d1
    assert g.state.stands["g1_1"].element == "g1-g1_1" and where(g, "g1_1") == "t2" and where(g, "g1_0") == "d1"
    assert "g1-g1_1" in underground.ug_state(g).garrison


def test_a_dug_out_holds_its_capacity():
    g = make([squad(), rats(), garrison("g1", "d1", n=2), garrison("g2", "t2"), SURFACE_CELL])
    g.act("allied", {"type": "hold", "element": "sq"})
    with pytest.raises(IllegalAction) as e:  # TUN-3: a dug-out of 2 holds 2 stands
        g.check("insurgent", {"type": "crawl", "element": "g2", "stand": "g2_0", "section": "d1"})
    assert e.value.clause == "TUN-3"


# -- no fire into or out of the tunnels (TUN-18) --------------------------------------------------------
def test_nothing_fires_into_the_tunnels():
    g = make([squad(), rats(), garrison("g1", "d1"), element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 10, 20, 270)],
                                                            kind="cell")])
    down(g)
    # TUN-18: the stand below is off the table: no enemy fire offer names it
    fire_targets = [a for a in g.legal_actions("insurgent") if a["type"] in ("fire", "fire_maneuver")]
    assert all("rat1" not in str(a.get("params", {})) for a in fire_targets)


# -- the Tunnel Rats (TUN-15–TUN-17) ------------------------------------------------------------------------
def test_tunnel_rats_called_by_helicopter_arrive_as_two_veteran_stands():
    g = make([squad(), garrison("g1", "d1"), SURFACE_CELL])
    offer = listed(g, "allied", "call_tunnel_rats")
    assert offer
    ev = act(g, "allied", {"type": "call_tunnel_rats", "element": "sq", "at": [12, 12]})
    assert of(ev, "tunnel_rats", phase="inbound") and [c.kind for c in g.state.clocks] == ["tunnel_rats"]
    with pytest.raises(IllegalAction) as e:  # TUN-15: one team
        g.check("allied", {"type": "call_tunnel_rats", "element": "sq", "at": [12, 12]})
    assert e.value.clause == "TUN-15"
    turn = g.state.turn
    while g.state.turn == turn:  # G-43: a 1-turn clock, then the Hot LZ (cold here) and the team dismounts
        g.act(g.state.to_act, {"type": "pass"})
    team = g.state.elements["tunnel_rats1"]
    assert team.quality == "veteran" and len(g.state.living(team)) == 2
    assert all(g.book.stands[s.type].role == "tunnel_rat" for s in g.state.living(team))
    assert all(((s.x - 12) ** 2 + (s.y - 12) ** 2) ** 0.5 <= 2.0 + 1e-9 for s in g.state.living(team))
    assert of(g.events, "tunnel_rats", phase="touchdown")


def test_tunnel_rats_without_their_escort_may_not_act():
    g = make([squad(), rats((30, 40)), garrison("g1", "d1"), SURFACE_CELL])
    # TUN-16: no two infantry stands within 6": the team may not act at all
    assert not [a for a in g.legal_actions("allied") if a.get("element") == "rats"]
    with pytest.raises(IllegalAction) as e:
        g.check("allied", {"type": "hold", "element": "rats"})
    assert e.value.clause == "TUN-16"
    g2 = make()
    assert [a for a in g2.legal_actions("allied") if a.get("element") == "rats"]  # escorted: it acts


# -- determinism and the seams -----------------------------------------------------------------------------
def test_the_same_actions_give_the_same_hash():
    def play() -> str:
        g = make()
        down(g)
        g.state.elements["rats-rat1"].activations = 0
        crawl(g, "rat1", "t1")
        g.view("allied")
        g.legal_actions("allied")
        return g.hash()

    assert play() == play()


def test_reading_the_tables_and_the_default_garrison():
    g = make()
    t = underground.rules(g)
    assert t.fight.destroyed == 5 and t.charges.target == 2 and t.descend.free_world_limit == 1
    # G-43: one stand per 2 of dug-out capacity, at most 4: the 2-stand dug-out gives 1
    assert underground.garrison_size(g, tunnels.network(g)) == 1


def test_the_underground_markers_reach_the_views():  # DD-1.17; G-15; TUN-21; TUN-15
    from game.rules.markers import markers as table
    from game.rules.markers import shown

    g = make([squad(), garrison("g1", "d1"), SURFACE_CELL])
    underground.ug_state(g).casualties.append(underground.TunnelCasualty("cas_x", "x", "d1"))
    act(g, "allied", {"type": "call_tunnel_rats", "element": "sq", "at": [12, 12]})
    allied, insurgent = g.view("allied"), g.view("insurgent")
    assert shown(allied, table()["tunnel_casualty"]) and shown(allied, table()["tunnel_rats_smoke"])
    assert shown(insurgent, table()["tunnel_casualty"])  # the garrison in d1 sees its own dug-out (TUN-12)
    underground.ug_state(g).casualties[0].section = "e2"
    assert not shown(g.view("insurgent"), table()["tunnel_casualty"])  # out of the garrison's sight


def test_a_trap_sprung_below_hits_the_section_never_the_table_above():
    # TUN-7, TUN-23: the blast of a trapped section is in the section; rat2, still on the table beside rat1's
    # last table position (1.6" away), is not under it (G-08 4: a shell IED, a 2" template)
    g = make(traps=("t1",))
    down(g)
    g.state.elements["rats-rat1"].activations = 0
    g.dice.force([5])  # the G-08 roll: 5 -1 (a tunnel rat looks for traps) = 4, the shell IED
    ev = crawl(g, "rat1", "t1")
    assert of(ev, "booby_trap", element="rats-rat1")
    assert of(ev, "template")
    hit_rolls = [e for e in ev if e["type"] == "roll" and "IED" in e.get("purpose", "") + e.get("text", "")]
    assert hit_rolls and all("rat2" not in e["text"] and "sq_" not in e["text"] for e in hit_rolls)
    assert g.state.stands["rat2"].hits == 0
