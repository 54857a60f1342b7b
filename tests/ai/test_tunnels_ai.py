"""The computer players in the tunnels (game/ai/tunnels.py; DD chapter 9B §2, TUN module, DD-10.2, DD-10.11).

The Jungle Ghost goes down an entrance when it is out-gunned and comes up at another one behind the sweep;
it fades down an entrance in Phase 3 (DD-10.11: "within 4" of ... tunnel entrance"); the autopilot blows
a found entrance (engineers with TUN-22's charges, a rifle squad with DD-9B.7's), gasses one in the last
turn (DD-9B.6, G-35), sends a Tunnel Rat down an unexplored entrance with its escort (TUN-15, TUN-16), and a
whole cu_chi game plays to its end. Every choice is among the engine's offers and checked by it."""

from __future__ import annotations

import tomllib
from types import SimpleNamespace

from game.ai import autopilot, ghost
from game.ai import tunnels as ai_tunnels
from game.ai import tunnels_allied as ai_allied
from game.ai.facade import SideView
from game.rules import jungle_ghost, tunnels
from game.rules.game import Game
from game.rules.scenario import build_scenario, shipped_scenarios
from game.rules.turn import consolidation, start_turn
from tests.builders import element, scenario, stand

E1, E2, E3 = (20.0, 20.0), (26.0, 6.0), (6.0, 42.0)


def squad(at=(20.0, 12.0), eid: str = "sq1") -> dict:
    x, y = at
    return element(eid, "allied", [stand(f"{eid}_sl", "us_squad_leader", x, y - 1.5),
                                   stand(f"{eid}_a", "us_rifle_team", x - 1.2, y),
                                   stand(f"{eid}_b", "us_rifle_team", x + 1.2, y)], name="1st Squad")


def engineers(at) -> dict:
    return element("eng", "allied", [stand("eng_1", "us_engineer_team", *at)], kind="team", name="Engineers")


def rats(at) -> dict:
    x, y = at
    return element("rats", "allied", [stand("rat_1", "us_tunnel_rat", x - 0.7, y),
                                      stand("rat_2", "us_tunnel_rat", x + 0.7, y)], kind="team",
                   quality="veteran", name="Tunnel Rats")


def cell(at=(20.0, 20.9), eid: str = "vc") -> dict:
    return element(eid, "insurgent", [stand(f"{eid}_a", "vc_rifle_cell", at[0], at[1], 270)], kind="cell",
                   name="VC cell")


def dd_net() -> dict:
    """Three linked entrances (no module, G-35: all linked): one by the cell, one behind the squad, one far off."""
    return {"module": False, "section": [
        {"id": "e1", "kind": "entrance", "at": list(E1)},
        {"id": "e2", "kind": "spider_hole", "at": list(E2)},
        {"id": "e3", "kind": "bunker", "at": list(E3)}]}


def module_net() -> dict:
    return {"module": True, "section": [
        {"id": "b1", "kind": "bunker", "at": [20.0, 20.0]},
        {"id": "t1", "kind": "tunnel", "at": [22.0, 22.0]},
        {"id": "d1", "kind": "dugout", "at": [24.0, 24.0], "capacity": 4, "use": "command_post"},
        {"id": "t2", "kind": "tunnel", "at": [26.0, 26.0]},
        {"id": "e1", "kind": "entrance", "at": [30.0, 30.0]}],
        "link": [{"between": ["b1", "t1"]}, {"between": ["t1", "d1"]}, {"between": ["d1", "t2"]},
                 {"between": ["t2", "e1"]}]}


def make(elements, net: dict, turns: int = 6, **extra) -> Game:
    raw = scenario(elements, [], turns=turns, first_side="allied", **extra)
    raw["tunnels"] = net
    g = Game(build_scenario(raw), 1, start=False)
    g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    start_turn(g)
    g.state.sides["allied"].cp = 6
    g.state.to_act = "allied"
    return g


def next_turn(g: Game) -> None:
    """Phase 3 (activations reset) and the next turn's Engagement phase."""
    consolidation(g)
    start_turn(g)
    g.state.sides["allied"].cp = 6


def decide_for(g: Game, side: str) -> dict:
    g.state.to_act = side
    f = SideView.of(g, side)
    return ghost.decide(f) if side == "insurgent" else autopilot.decide(f)


# -- the Jungle Ghost ----------------------------------------------------------------------------------
def test_an_outgunned_ghost_cell_goes_down_and_comes_up_behind_the_sweep():  # DD-9B.4; DD-9B.5; G-35; DD-10.2
    g = make([squad(), cell()], dd_net())
    choice = decide_for(g, "insurgent")
    assert choice == {**choice, "type": "enter_tunnel", "element": "vc", "section": "e1"}
    g.act("insurgent", choice)
    assert g.state.elements["vc"].reserve and tunnels.section_of(g, "vc") == "e1"
    next_turn(g)  # G-35: a unit cannot enter and emerge in the same turn
    choice = decide_for(g, "insurgent")
    # e2 lies behind the squad (south of it, 6" off); e3 far beyond the hamlet: the Ghost takes e2
    assert choice["type"] == "emerge_tunnel" and choice["section"] == "e2" and not choice.get("ambush")  # G-29
    g.act("insurgent", choice)
    st = g.state.stands["vc_a"]
    assert not g.state.elements["vc"].reserve and abs(st.x - E2[0]) + abs(st.y - E2[1]) <= 4.0


def test_the_ghost_stays_below_when_no_entrance_is_worth_coming_up_at():  # DD-9B.5; G-35; DD-10.2
    g = make([squad(at=(20.0, 12.0)), cell()], {"module": False, "section": [
        {"id": "e1", "kind": "entrance", "at": list(E1)}, {"id": "e3", "kind": "bunker", "at": list(E3)}]})
    g.act("insurgent", decide_for(g, "insurgent"))
    assert tunnels.section_of(g, "vc") == "e1"
    next_turn(g)
    # only e3 is left to come up at: 30" ahead of the squad, no use; the Ghost waits below (a pass)
    assert decide_for(g, "insurgent")["type"] == "pass"


def test_a_ghost_cell_fades_down_a_tunnel_entrance_in_phase_3():  # DD-10.11; DD-10.13; DD-9B.4
    g = make([squad(at=(20.0, 5.0)), cell(at=(20.0, 21.5))], dd_net())
    jungle_ghost.enable(g)
    g.state.stands["vc_a"].hits = 1  # hurt: "active" (jungle_ghost.toml [fade])
    el = g.state.elements["vc"]
    assert jungle_ghost._sheltered(g, g.state.stands["vc_a"])  # within 4" of entrance e1, in the open
    g.dice.force([6])  # the Disengagement Check passes
    jungle_ghost.consolidation(g)
    assert el.reserve and tunnels.section_of(g, "vc") == "e1" and g.state.stands["vc_a"].alive
    assert "vc" not in g.state.solo.faded  # it is in the network, not off the table for good
    allied = g.events_for("allied", g.events)
    assert all("section" not in e for e in allied if e["type"] == "tunnel_enter")  # fog: not where


def test_the_garrison_crawls_toward_an_entrance_behind_the_sweep():  # TUN-8; TUN-9; G-43; DD-10.2
    net = module_net()
    cell_el = element("g1", "insurgent", [stand("g1_a", "vc_rifle_cell", 24.0, 24.0)], kind="cell",
                      quality="veteran", underground="d1")
    # the squad has passed the bunker b1 (south of the squad's line: behind it) and heads north
    g = make([squad(at=(21.0, 27.0)), cell_el], net)
    g.state.elements["sq1"].activations = 0
    choice = decide_for(g, "insurgent")
    assert choice["type"] == "crawl" and choice["section"] == "t1"  # d1 -> t1 -> b1
    g.act("insurgent", choice)
    assert tunnels.section_of(g, "g1") == "t1"


# -- the Allied autopilot ---------------------------------------------------------------------------------
def test_engineers_set_charges_at_a_found_entrance():  # TUN-22; C-28; DD-9B.6
    g = make([squad(at=(14.0, 12.0)), engineers((20.0, 18.5)), cell(at=(44.0, 44.0))],
             {"module": False, "section": [{"id": "e1", "kind": "bunker", "at": list(E1)}]})
    assert tunnels.known(g, "allied") == ["e1"]  # TUN-4: a bunker's entrance is open to see
    choice = decide_for(g, "allied")
    assert choice["type"] == "set_charges" and choice["element"] == "eng" and choice["section"] == "e1"


def test_a_rifle_squad_blows_a_found_entrance_and_it_collapses():  # DD-9B.7; C-28; G-30
    g = make([squad(at=(20.0, 17.0)), cell(at=(44.0, 44.0))],
             {"module": False, "section": [{"id": "e1", "kind": "bunker", "at": list(E1)}]})
    choice = decide_for(g, "allied")
    assert choice["type"] == "destroy_tunnel" and choice["section"] == "e1"
    g.dice.force([6])
    g.act("allied", choice)
    assert tunnels.is_collapsed(g, "e1")


def test_in_the_last_turn_a_rifle_squad_gasses_the_entrance_instead():  # DD-9B.6; G-35
    g = make([squad(at=(20.0, 17.0)), cell(at=(44.0, 44.0))],
             {"module": False, "section": [{"id": "e1", "kind": "bunker", "at": list(E1)}]}, turns=1)
    choice = decide_for(g, "allied")
    assert choice["type"] == "gas_tunnel" and choice["section"] == "e1"
    g.act("allied", choice)
    assert tunnels.is_gassed(g, "e1")


def test_a_tunnel_rat_goes_down_an_unexplored_entrance_with_its_escort():  # TUN-15; TUN-16; C-35; TUN-8
    g = make([squad(at=(20.0, 15.0)), rats((20.0, 18.4)), cell(at=(44.0, 44.0))], module_net())
    choice = decide_for(g, "allied")
    assert choice["type"] == "descend" and choice["section"] == "b1" and choice["stand"] in ("rat_1", "rat_2")
    g.act("allied", choice)
    rat = g.state.stands[choice["stand"]]
    assert tunnels.section_of(g, rat.element) == "b1"
    assert "t1" in tunnels.known(g, "allied")  # TUN-12: it sees into the adjacent section


def test_without_tunnel_offers_the_module_proposes_nothing():  # the other scenarios play as before
    g = make([squad(), cell(at=(44.0, 44.0))], {"module": False, "section": [
        {"id": "e1", "kind": "entrance", "at": [40.0, 4.0]}]})  # concealed, not found: nothing to work
    from game.ai.tactics import Picture

    pic = Picture(SideView.of(g, "allied"))
    assert ai_tunnels.sections(pic) == {}  # fog: the Allied view has no hidden section
    assert ai_allied.entrance_options(pic, "sq1", 0.0, 99.0) == []
    assert ai_allied.below_options(pic) == []


# -- the scenario --------------------------------------------------------------------------------------------
def test_a_short_cu_chi_game_plays_to_its_end():  # DD-9B; TUN-13; DD-10.3
    from game.ai import players

    raw = tomllib.loads(shipped_scenarios()["cu_chi"].read_text())
    raw["scenario"]["turns"] = 3
    g = players.new_game(build_scenario(raw), 7, 2, {"allied": "ai", "insurgent": "ai"})
    steps = 0
    while not g.state.over and steps < 2000:
        players.take_turn(g, g.state.to_act)
        steps += 1
    assert g.state.over and g.state.result["reason"].startswith("the turn limit")
    kinds = {e["type"] for e in g.events}
    assert "tunnel_move" in kinds  # TUN-8: the garrison crawled through its network
    for ev in g.events:
        if ev["type"] == "roll":  # every die is explained
            assert ev["clause"] and ev["text"] and "modifiers" in ev


def test_the_tunnel_players_touch_only_the_facade():  # the AI never decides a rule (DESIGN §6)
    from pathlib import Path

    for module in (ai_tunnels, ai_allied):
        check_facade(Path(module.__file__).read_text())


def check_facade(src: str) -> None:
    import ast

    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mod = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
            assert not (mod or "").startswith(("game.rules", "game.engine", "random")), mod
        if isinstance(node, ast.Attribute):
            assert node.attr not in ("state", "dice", "rng", "_preview"), node.attr
