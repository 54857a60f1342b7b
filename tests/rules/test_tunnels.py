"""Tunnels on the surface and the network model (DD-9B.3–9B.7; G-35; C-28; TUN-1–TUN-7, TUN-13, TUN-15,
TUN-17, TUN-22, TUN-24) with forced dice on tiny tables."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from game.rules import tunnels
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import ScenarioError, build_scenario
from game.rules.tunnels import load_tunnels
from game.rules.turn import start_turn
from tests.builders import element, scenario, stand

E1, E2, E3 = (20.0, 20.0), (40.0, 40.0), (6.0, 40.0)


def squad(at=(20.0, 17.6), rat: bool = False, engineer: bool = False) -> dict:
    x, y = at
    stands = [stand("sq_a", "us_rifle_team", x - 1.2, y), stand("sq_b", "us_rifle_team", x + 1.2, y)]
    if rat:
        stands.append(stand("sq_r", "us_tunnel_rat", x, y - 1.3))
    if engineer:
        stands = [stand("sq_e", "us_engineer_team", x, y)]
    return element("sq", "allied", stands, name="1st Squad")


def cell(at=(20.0, 21.0), **extra) -> dict:
    return element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", at[0], at[1], 270)], kind="cell",
                   name="VC cell", **extra)


def dd_tunnels(concealed=True, trap=False) -> dict:
    return {"module": False, "section": [
        {"id": "e1", "kind": "entrance", "at": list(E1), "concealed": concealed, "trap": trap},
        {"id": "e2", "kind": "spider_hole", "at": list(E2)},
        {"id": "e3", "kind": "bunker", "at": list(E3)}]}


def make(elements, tun: dict | None = None, tokens: int = 2, faction: str = "vc_main_force", **extra) -> Game:
    raw = scenario(elements, [], turns=6, first_side="allied")
    raw["side"][1]["faction"] = faction
    raw["side"][1]["ambush_tokens"] = tokens
    raw["tunnels"] = tun if tun is not None else dd_tunnels()
    raw.update(extra)
    g = Game(build_scenario(raw), 1, start=False)
    g.los_override = lambda a, b: SimpleNamespace(visible=True, fraction=1.0, distance=0.0)
    start_turn(g)
    g.state.sides["allied"].cp = 6
    g.state.sides["insurgent"].ambush_tokens = tokens
    g.state.to_act = "allied"
    return g


def problems(tun: dict, elements=None) -> list[str]:
    raw = scenario(elements or [squad(), cell()], [])
    raw["tunnels"] = tun
    with pytest.raises(ScenarioError) as exc:
        build_scenario(raw)
    return [f"{p.field}: {p.message}" for p in exc.value.problems]


def to(g: Game, side: str) -> None:
    g.state.to_act = side


def next_turn(g: Game) -> None:
    """The next turn's Engagement phase (the Insurgent's Ambush Tokens kept as they are)."""
    tokens = g.state.sides["insurgent"].ambush_tokens
    start_turn(g)
    g.state.sides["insurgent"].ambush_tokens = tokens


def module_net() -> dict:
    return {"module": True, "section": [
        {"id": "e1", "kind": "entrance", "at": list(E1)},
        {"id": "t1", "kind": "tunnel", "at": [22, 22]},
        {"id": "j1", "kind": "junction", "at": [24, 24]},
        {"id": "t2", "kind": "tunnel", "at": [26, 26]},
        {"id": "t3", "kind": "tunnel", "at": [24, 28]},
        {"id": "d1", "kind": "dugout", "at": [28, 28], "capacity": 6, "use": "hospital", "trap": True},
        {"id": "b1", "kind": "bunker", "at": [30, 20]}],
        "link": [{"between": ["e1", "t1"]}, {"between": ["t1", "j1"]}, {"between": ["j1", "t2"]},
                 {"between": ["t2", "d1"]}, {"between": ["j1", "t3"]}, {"between": ["t3", "b1"]}]}


# -- the network (TUN-1–TUN-7, TUN-24) -------------------------------------------------------------------
def test_the_tables_are_data_with_the_tun_numbers():  # TUN-1; TUN-3; TUN-6; G-35
    t = load_tunnels()
    assert set(t.kinds) == {"tunnel", "dugout", "junction", "bunker", "trench", "entrance", "spider_hole"}  # TUN-1
    assert t.network.capacities == [2, 4, 6, 8]  # TUN-3
    assert t.network.junction_links == 3  # TUN-6
    assert {"barracks", "kitchen", "workshop", "hospital", "command_post", "armoury", "storeroom"} == set(t.network.uses)
    assert t.tunnel_rat.results == ["lost", "nothing", "nothing", "intel", "intel", "cache"]  # G-35
    assert (t.destroy.target, t.charges.target) == (3, 2)  # DD-9B.7; TUN-22; C-28


def test_a_module_network_is_read_as_a_graph():  # TUN-1; TUN-24; TUN-3; TUN-7
    g = make([squad(at=(40, 10)), cell(at=(10, 10))], module_net())
    net = tunnels.network(g)
    assert net is not None and net.module
    assert net.links["j1"] == ("t1", "t2", "t3")  # TUN-6: three sections meet at a junction
    assert net.sections["d1"].capacity == 6 and net.sections["d1"].use == "hospital"  # TUN-3
    assert net.sections["d1"].trapped  # TUN-7: any section may be trapped
    assert net.sections["t1"].depth == 0.4 and net.sections["e1"].depth == 0.0  # depth by kind (tunnels.toml)
    assert tunnels.adjacent(g, "t1") == ["e1", "j1"]
    assert sorted(net.surface()) == ["b1", "e1"]


def test_concealment_defaults_by_kind():  # TUN-4; TUN-5
    g = make([squad(at=(40, 10)), cell(at=(10, 10))], module_net())
    net = tunnels.network(g)
    assert net.sections["e1"].concealed  # TUN-5: an entrance is camouflaged
    assert not net.sections["b1"].concealed  # TUN-4: a bunker's entrance is unconcealed unless marked
    assert tunnels.known(g, "allied") == ["b1"]  # TUN-4: the unconcealed one is on the table for both
    assert tunnels.known(g, "insurgent") == sorted(net.sections)  # TUN-24: the VC player's maps


def test_a_tunnel_length_runs_between_two_other_sections():  # TUN-2
    tun = module_net()
    tun["link"] = [{"between": ["e1", "t1"]}, {"between": ["t1", "t2"]}, {"between": ["t2", "d1"]},
                   {"between": ["j1", "t3"]}, {"between": ["t3", "b1"]}, {"between": ["j1", "d1"]},
                   {"between": ["j1", "e1"]}]
    found = problems(tun)
    assert any("tunnel 't1' ends at tunnel 't2'" in p and "TUN-2" in p for p in found)


def test_a_junction_joins_three_or_more():  # TUN-6
    tun = module_net()
    tun["link"] = [{"between": ["e1", "t1"]}, {"between": ["t1", "j1"]}, {"between": ["j1", "t2"]},
                   {"between": ["t2", "d1"]}, {"between": ["d1", "t3"]}, {"between": ["t3", "b1"]}]
    assert any("junction 'j1' joins 2" in p and "TUN-6" in p for p in problems(tun))


def test_a_dugout_holds_2_4_6_or_8_and_has_a_known_use():  # TUN-3
    tun = module_net()
    tun["section"][5] = {**tun["section"][5], "capacity": 5, "use": "bar"}
    found = problems(tun)
    assert any(p.startswith("tunnels.section[5].capacity") and "TUN-3" in p for p in found)
    assert any(p.startswith("tunnels.section[5].use") for p in found)


def test_links_name_two_sections_and_rows_are_checked():  # TUN-1; TUN-24
    tun = dd_tunnels()
    tun["link"] = [{"between": ["e1", "nope"]}, {"between": ["e1", "e1"]}]
    tun["section"].append({"id": "x", "kind": "cave", "at": [1, 1]})
    found = problems(tun)
    assert any(p.startswith("tunnels.link[0].between") and "no section 'nope'" in p for p in found)
    assert any(p.startswith("tunnels.link[1].between") and "itself" in p for p in found)
    assert any(p.startswith("tunnels.section[3].kind") for p in found)


def test_without_the_module_only_surface_sections_and_all_are_linked():  # G-35; DD-9B.5
    tun = dd_tunnels()
    tun["section"].append({"id": "d1", "kind": "dugout", "at": [1, 1]})
    assert any("needs the TUN module" in p for p in problems(tun))
    g = make([squad(at=(40, 10)), cell(at=(10, 10))])
    assert tunnels.network(g).links == {"e1": ("e2", "e3"), "e2": ("e1", "e3"), "e3": ("e1", "e2")}


def test_a_garrison_is_vc_and_veteran():  # TUN-13
    tun = module_net()
    green = cell(at=(10, 10), underground="d1")
    assert any("always veteran" in p and "TUN-13" in p for p in problems(tun, [squad(), green]))
    assert any("no tunnel section 'zz'" in p
               for p in problems(tun, [squad(), cell(at=(10, 10), underground="zz", quality="veteran")]))
    g = make([squad(at=(40, 10)), cell(at=(10, 10), underground="d1", quality="veteran")], module_net())
    assert tunnels.section_of(g, "vc") == "d1" and g.state.elements["vc"].reserve


def test_older_trapdoors_are_dd_level_entrances():  # DD-2.26; DD-9B.5; G-35
    raw = scenario([squad(at=(40, 10)), cell(at=(10, 10))], [])
    raw["ambush_point"] = [{"id": "tp1", "at": [30, 30], "kind": "tunnel"}, {"id": "tp2", "at": [5, 30],
                                                                             "kind": "tunnel"}]
    g = Game(build_scenario(raw), 1, start=False)
    net = tunnels.network(g)
    assert net is not None and not net.module and net.links["tp1"] == ("tp2",)
    assert tunnels.known(g, "allied") == []


# -- DD-9B.3: finding an entrance -------------------------------------------------------------------------
def test_a_search_of_the_ground_finds_a_concealed_entrance():  # DD-9B.3; TUN-5; G-35
    g = make([squad(at=(20, 17.0)), cell(at=(10, 10))])
    assert tunnels.known(g, "allied") == ["e3"]
    g.dice.force([4])
    ev = g.act("allied", {"type": "search", "element": "sq", "feature": "ground"})
    found = [e for e in ev if e["type"] == "tunnel_found"]
    assert found and found[0]["section"] == "e1" and found[0]["_visible"] == "all"
    assert tunnels.known(g, "allied") == ["e1", "e3"]
    assert [m["id"] for m in g.view("allied")["markers"] if m["kind"] == "tunnel_section"] == ["e1", "e3"]


def test_a_failed_search_finds_nothing():  # DD-9B.3; TUN-5
    g = make([squad(at=(20, 17.0)), cell(at=(10, 10))])
    g.dice.force([3])
    ev = g.act("allied", {"type": "search", "element": "sq", "feature": "ground"})
    assert not [e for e in ev if e["type"] == "tunnel_found"] and tunnels.known(g, "allied") == ["e3"]


# -- DD-9B.4 / DD-9B.5: going down and coming up ------------------------------------------------------------
def test_an_insurgent_goes_down_and_comes_up_at_another_entrance_next_turn():  # DD-9B.4; DD-9B.5; G-35
    g = make([squad(at=(40, 10)), cell(at=(20, 20.9))])
    to(g, "insurgent")
    offers = [a for a in g.legal_actions("insurgent") if a["type"] == "enter_tunnel"]
    assert offers and offers[0]["params"]["section"]["choices"] == ["e1"]
    ev = g.act("insurgent", {"type": "enter_tunnel", "element": "vc", "section": "e1"})
    assert g.state.elements["vc"].reserve and tunnels.section_of(g, "vc") == "e1"
    allied = g.events_for("allied", ev)
    assert [e for e in allied if e["type"] == "tunnel_enter"] and all("section" not in e for e in allied)
    to(g, "insurgent")
    with pytest.raises(IllegalAction) as exc:  # G-35: not the same turn
        g.act("insurgent", {"type": "emerge_tunnel", "element": "vc", "section": "e2"})
    assert "same turn" in str(exc.value)
    next_turn(g)
    to(g, "insurgent")
    with pytest.raises(IllegalAction):  # DD-9B.5: any OTHER linked entrance
        g.act("insurgent", {"type": "emerge_tunnel", "element": "vc", "section": "e1"})
    ev = g.act("insurgent", {"type": "emerge_tunnel", "element": "vc", "section": "e2"})
    st = g.state.stands["vc_a"]
    assert not g.state.elements["vc"].reserve and tunnels.section_of(g, "vc") is None
    assert ((st.x - 40) ** 2 + (st.y - 40) ** 2) ** 0.5 <= 2 + 2  # G-35: within 2" of the hatch (base edge)
    assert g.state.to_act == "insurgent"  # free: it may then act normally


def test_a_pinned_unit_cannot_go_down():  # DD-9B.4
    g = make([squad(at=(40, 10)), cell(at=(20, 20.9))])
    to(g, "insurgent")
    g.state.elements["vc"].pinned = True
    with pytest.raises(IllegalAction) as exc:
        g.act("insurgent", {"type": "enter_tunnel", "element": "vc", "section": "e1"})
    assert exc.value.clause == "DD-9B.4"


def test_emerging_near_the_allies_may_be_an_ambush():  # G-35; DD-2.26
    g = make([squad(at=(40, 36)), cell(at=(20, 20.9))])
    to(g, "insurgent")
    g.act("insurgent", {"type": "enter_tunnel", "element": "vc", "section": "e1"})
    next_turn(g)
    to(g, "insurgent")
    g.state.sides["insurgent"].ambush_tokens = 1
    g.dice.force([6] * 10)
    ev = g.act("insurgent", {"type": "emerge_tunnel", "element": "vc", "section": "e2", "ambush": True})
    assert [e for e in ev if e["type"] == "ambush"] and g.state.sides["insurgent"].ambush_tokens == 0


# -- DD-9B.6: at a found entrance ---------------------------------------------------------------------------
def test_cs_gas_shuts_the_entrance_and_costs_a_token_if_someone_is_below():  # DD-9B.6; G-35
    g = make([squad(at=(6, 37.6)), cell(at=(20, 20.9))])
    to(g, "insurgent")
    g.act("insurgent", {"type": "enter_tunnel", "element": "vc", "section": "e1"})
    tokens = g.state.sides["insurgent"].ambush_tokens
    to(g, "allied")
    ev = g.act("allied", {"type": "gas_tunnel", "element": "sq", "section": "e3"})
    gas = [e for e in ev if e["type"] == "tunnel_gas"][0]
    assert gas["until_turn"] == g.state.turn + 1 and gas["_visible"] == "all"
    assert g.state.sides["insurgent"].ambush_tokens == tokens - 1
    next_turn(g)
    to(g, "insurgent")
    with pytest.raises(IllegalAction) as exc:  # nothing emerges there until the end of the next turn
        g.act("insurgent", {"type": "emerge_tunnel", "element": "vc", "section": "e3"})
    assert "gassed" in str(exc.value)


def test_an_unfound_entrance_reads_like_none():  # DD-9B.3; fog
    g = make([squad(at=(20, 17.6)), cell(at=(10, 10))])
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "gas_tunnel", "element": "sq", "section": "e1"})
    assert "found" in str(exc.value)


def test_a_satchel_charge_collapses_on_3_plus():  # DD-9B.6; DD-9B.7; G-35
    g = make([squad(at=(6, 37.6)), cell(at=(10, 10))])
    vp = g.state.sides["allied"].vp
    g.dice.force([3])
    ev = g.act("allied", {"type": "tunnel_satchel", "element": "sq", "section": "e3"})
    assert [e for e in ev if e["type"] == "tunnel_collapse"][0]["how"] == "satchel"
    assert tunnels.is_collapsed(g, "e3") and g.state.sides["allied"].vp == vp + 1  # G-30


def test_destroy_tunnel_needs_3_plus():  # DD-9B.7; C-28
    g = make([squad(at=(6, 37.6)), cell(at=(10, 10))])
    g.dice.force([2])
    g.act("allied", {"type": "destroy_tunnel", "element": "sq", "section": "e3"})
    assert not tunnels.is_collapsed(g, "e3")
    to(g, "allied")
    g.dice.force([3])
    g.act("allied", {"type": "destroy_tunnel", "element": "sq", "section": "e3"})
    assert tunnels.is_collapsed(g, "e3")
    to(g, "allied")
    g.state.elements["sq"].activations = 0
    with pytest.raises(IllegalAction) as exc:  # DD-9B.7: unusable for the rest of the game
        g.act("allied", {"type": "destroy_tunnel", "element": "sq", "section": "e3"})
    assert exc.value.clause == "DD-9B.7"


def test_engineers_set_charges_and_roll_2_plus_at_the_end_of_the_initiative():  # TUN-22; C-28; TUN-17
    g = make([squad(at=(6, 37.6), engineer=True), cell(at=(10, 10))])
    g.dice.force([2])
    ev = g.act("allied", {"type": "set_charges", "element": "sq", "section": "e3"})
    assert [e for e in ev if e["type"] == "tunnel_charge"]
    assert tunnels.is_collapsed(g, "e3")


def test_only_specialists_set_charges():  # TUN-22; C-28
    g = make([squad(at=(6, 37.6)), cell(at=(10, 10))])
    assert not [a for a in g.legal_actions("allied") if a["type"] == "set_charges"]
    with pytest.raises(IllegalAction) as exc:
        g.act("allied", {"type": "set_charges", "element": "sq", "section": "e3"})
    assert "TUN-22" in exc.value.clause


@pytest.mark.parametrize("die,result", [(1, "lost"), (2, "nothing"), (4, "intel"), (6, "cache")])
def test_the_tunnel_rat_roll(die, result):  # DD-9B.6; G-35
    g = make([squad(at=(6, 38.9), rat=True), cell(at=(10, 10))])
    vp = g.state.sides["allied"].vp
    g.dice.force([die])
    ev = g.act("allied", {"type": "tunnel_rat", "element": "sq", "section": "e3", "stand": "sq_r"})
    assert [e for e in ev if e["type"] == "tunnel_rat"][0]["result"] == result
    if result == "lost":
        assert not g.state.stands["sq_r"].alive and "sq_r" in tunnels.state(g).rats_lost
        assert not [t for t in g.state.tokens if t.id == "cas_sq_r"]  # cannot be recovered
    if result == "intel":
        assert "e1" in tunnels.known(g, "allied")  # the nearest other linked entrance
    if result == "cache":
        assert g.state.sides["allied"].vp == vp + 1 + 1 and tunnels.is_collapsed(g, "e3")  # cache +1, collapse +1


# -- fog (TUN-24) ------------------------------------------------------------------------------------------
def test_the_network_is_the_insurgents_secret():  # TUN-24; TUN-7
    g = make([squad(at=(40, 10)), cell(at=(10, 10), underground="d1", quality="veteran")], module_net())
    allied = g.view("allied")
    secs = [m for m in allied["markers"] if m["kind"] == "tunnel_section"]
    assert [m["id"] for m in secs] == ["b1"] and secs[0]["links"] == [] and "trapped" not in secs[0]
    ins = [m for m in g.view("insurgent")["markers"] if m["kind"] == "tunnel_section"]
    assert len(ins) == 7 and any(m["trapped"] for m in ins)
    assert "d1" not in str(allied)


# -- fade (DD-2.32) -------------------------------------------------------------------------------------------
def test_fade_may_use_an_open_entrance_but_not_a_collapsed_one():  # DD-2.32; DD-9B.7
    from game.rules.fade import destinations

    g = make([squad(at=(6, 37.6)), cell(at=(10, 10))])
    assert {"e1", "e2", "e3"} <= set(destinations(g))
    g.dice.force([6])
    g.act("allied", {"type": "destroy_tunnel", "element": "sq", "section": "e3"})
    assert "e3" not in destinations(g)


def test_the_tunnel_markers_reach_the_views():  # DD-1.17; G-15; DD-9B.6; DD-9B.7
    from game.rules.markers import load_markers, shown

    m = load_markers()
    g = make([squad(at=(6, 37.6)), cell(at=(10, 10))])
    assert [r["id"] for r in shown(g.view("allied"), m["tunnel_section"])] == ["e3"]
    g.act("allied", {"type": "gas_tunnel", "element": "sq", "section": "e3"})
    assert [r["id"] for r in shown(g.view("insurgent"), m["tunnel_gassed"])] == ["e3"]
    to(g, "allied")
    g.dice.force([6])
    g.act("allied", {"type": "destroy_tunnel", "element": "sq", "section": "e3"})
    for side in ("allied", "insurgent"):
        assert [r["id"] for r in shown(g.view(side), m["tunnel_collapsed"])] == ["e3"]


def test_same_actions_same_hash():  # determinism (DESIGN §5): the tunnel state is in the hash
    def play() -> str:
        g = make([squad(at=(6, 38.9), rat=True), cell(at=(20, 20.9))], tokens=3)
        to(g, "insurgent")
        g.act("insurgent", {"type": "enter_tunnel", "element": "vc", "section": "e1"})
        to(g, "allied")
        g.act("allied", {"type": "tunnel_rat", "element": "sq", "section": "e3", "stand": "sq_r"})
        return g.hash()

    assert play() == play()
