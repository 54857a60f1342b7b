"""The Fade of a human Insurgent (DD-2.32, C-10), Snatch & Fade (DD-3.13), the body-count dilemma (DD-3.14,
G-33 (4), G-30), no litter drag for the NVA/VC (DD-3.12) and the abandoned Allied casualty (DD-3.9, C-02).

Each test is a tiny table with forced positions: a VC cell of two Medium stands at y = 36 facing south, a
strip of dense jungle along the north edge (y 42-48), the platoon far to the south. The Insurgent's set-up
is nearest the north edge, so that is its designated jungle edge (engine policy, docs/fade.md).
"""

from __future__ import annotations

import pytest

from game.rules import fade, fire
from game.rules import jungle_ghost as jg
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import build_scenario
from game.rules.state import Token
from game.rules.turn import end_game, start_turn
from tests.builders import element, game, platoon, scenario, stand

WOOD = [{"id": "wood", "type": "dense", "polygon": [[0, 42], [48, 42], [48, 48], [0, 48]]}]
HALF = 0.63
"""Half a Medium base's depth (bases.toml: 1.26"): the cell's and the probe's bases face north or south."""


def cell(x: float = 24.0, y: float = 36.0, eid: str = "vc") -> dict:
    return element(eid, "insurgent", [stand(f"{eid}_a", "vc_rifle_cell", x, y, 270),
                                      stand(f"{eid}_b", "vc_rifle_cell", x + 2.2, y, 270)], kind="cell", name="VC cell")


def probe(gap: float, x: float = 24.0) -> dict:
    """An Allied rifle team straight south of the cell's first stand, ``gap`` inches base edge to base edge."""
    return element("pr", "allied", [stand("pr_a", "us_rifle_team", x, 36.0 - 2 * HALF - gap, 90)], name="Probe")


def table(*extra: dict, points: list[dict] | None = None) -> Game:
    """The Insurgent's impulse of turn 1 (the Allies have passed)."""
    raw = scenario(platoon() + [cell(), *extra], WOOD)
    if points:
        raw["ambush_point"] = points
    g = game(raw)
    g.act("allied", {"type": "pass"})
    assert g.state.to_act == "insurgent"
    return g


def offers(g: Game, eid: str = "vc") -> list[dict]:
    return [a for a in g.legal_actions("insurgent") if a["type"] == "fade" and a["element"] == eid]


def phase_three(g: Game) -> list[dict]:
    """The Insurgent passes: the Engagement phase ends and Phase 3 runs (DD-2.1)."""
    start = len(g.events)
    g.act("insurgent", {"type": "pass"})
    return g.events[start:]


def test_an_eligible_cell_fades_to_a_blind_on_the_jungle_edge():  # DD-2.32; C-10
    g = table()
    el = g.state.elements["vc"]
    assert fade.home_edge(g) == "north"
    (offer,) = offers(g)
    assert offer["cost"] == 0 and offer["clause"] == "DD-2.32; C-10"
    assert offer["params"]["into"]["choices"] == ["edge", "off"]
    ev = g.act("insurgent", {"type": "fade", "element": "vc", "into": "edge"})
    assert [e["type"] for e in ev] == ["fade_declared"]
    assert not g.events_for("allied", ev)  # the order is the Insurgent's secret (DESIGN §6)
    assert g.state.to_act == "insurgent"  # free: the impulse goes on
    assert g.state.chapters["fade"].orders == {"vc": "edge"}
    events = phase_three(g)
    # C-10: no roll for a human Insurgent; the marker goes on the jungle within 3" of the north edge,
    # at the point nearest the cell's centre (25.1, 36): (25.1, 45)
    assert not [e for e in events if e["type"] == "roll" and e.get("element") == "vc"]
    assert el.blind is not None and not g.state.on_table(el)
    b = g.state.blinds[el.blind]
    assert (b.x, b.y) == (25.1, 45.0) and b.side == "insurgent" and not b.dummy and b.elements == ["vc"]
    assert {(st.x, st.y) for st in g.state.living(el)} == {(24.0, 45.0), (26.2, 45.0)}  # carried under it
    allied = g.events_for("allied", events)
    assert [e["type"] for e in allied if e["type"] in ("fade", "blind_placed", "fade_into")] == ["fade", "blind_placed"]
    assert [e for e in g.events_for("insurgent", events) if e["type"] == "fade_into"][0]["blind"] == b.id
    view = g.view("allied")
    assert "vc" not in {e["id"] for e in view["elements"]}
    assert {k for bl in view["blinds"] if bl["id"] == b.id for k in bl} == {"id", "side", "x", "y", "state", "conceal"}
    assert g.state.sides["allied"].vp == 0  # a Blind scores no survival point (G-30)
    # the Blind machinery has it now (DD-4.7, G-17): in the next turn it may move like any Blind
    g.act("allied", {"type": "pass"})
    assert [a for a in g.legal_actions("insurgent") if a["type"] == "blind_move" and a["blind"] == b.id]


def test_a_cell_fades_off_the_table_for_survival_points():  # DD-2.32; G-30
    g = table()
    g.act("insurgent", {"type": "fade", "element": "vc", "into": "off"})
    events = phase_three(g)
    el = g.state.elements["vc"]
    assert not g.state.living(el) and el.blind is None
    assert g.state.chapters["fade"].faded == ["vc"]
    # G-30: -1 on the net VP track for each of its two stands
    assert g.state.sides["allied"].vp == -2 and g.view("allied")["sides"]["allied"]["vp"] == -2
    (surv,) = [e for e in events if e["type"] == "survival"]
    assert surv["vp"] == -2 and surv["stands"] == ["vc_a", "vc_b"] and "G-30" in surv["clause"]
    end_game(g, "test", "DD-2.34")
    assert g.state.result["vp"] == -2  # the score carries it (G-30)


def test_a_pinned_cell_may_not_fade():  # DD-2.32
    g = table()
    g.state.elements["vc"].pinned = True
    assert not offers(g)
    with pytest.raises(IllegalAction) as exc:
        g.act("insurgent", {"type": "fade", "element": "vc", "into": "edge"})
    assert "Pinned" in exc.value.reason and exc.value.clause == "DD-2.32; C-10"


def test_an_order_is_checked_again_in_phase_three():  # DD-2.32; C-10
    g = table()
    el = g.state.elements["vc"]
    g.act("insurgent", {"type": "fade", "element": "vc", "into": "edge"})
    el.pinned = True  # pinned after the order was given
    events = phase_three(g)
    note = [e for e in events if e["type"] == "note" and e.get("element") == "vc"]
    assert note and note[0]["clause"] == "DD-2.32; C-10" and "Pinned" in note[0]["text"]
    assert not g.events_for("allied", note)
    assert g.state.on_table(el) and el.blind is None and not [e for e in events if e["type"] == "fade"]


def test_a_cell_within_four_inches_of_an_enemy_may_not_fade():  # DD-2.32; C-10
    g = table(probe(3.9))
    assert fire.gap(g, g.state.stands["vc_a"], g.state.stands["pr_a"]) == pytest.approx(3.9)
    assert not offers(g)
    with pytest.raises(IllegalAction) as exc:
        g.act("insurgent", {"type": "fade", "element": "vc", "into": "off"})
    assert "within 4\"" in exc.value.reason and exc.value.clause == "DD-2.32; C-10"
    g = table(probe(4.2))  # just outside 4": it may
    assert offers(g)
    g.act("insurgent", {"type": "fade", "element": "vc", "into": "off"})
    phase_three(g)
    assert not g.state.living(g.state.elements["vc"])


def test_an_enemy_arriving_within_four_inches_stops_the_fade():  # DD-2.32; C-10
    g = table(probe(6.0))
    g.act("insurgent", {"type": "fade", "element": "vc", "into": "off"})
    g.state.stands["pr_a"].y += 3.0  # the probe closes to 3" before Phase 3
    events = phase_three(g)
    assert g.state.living(g.state.elements["vc"]) and g.state.sides["allied"].vp == 0
    assert any(e["type"] == "note" and "within 4\"" in e["text"] for e in events)


def test_snatch_and_fade_takes_tokens_within_four_inches_not_at_four_and_a_half():  # DD-3.13
    g = table()
    top = 36.0 + HALF  # the cell's north base edge; a token is a 0.5" disc (G-15)
    g.state.tokens += [Token("near", "insurgent", 24.0, top + 3.9 + 0.5, "communist"),
                       Token("far", "insurgent", 24.0, top + 4.5 + 0.5, "communist")]
    g.act("insurgent", {"type": "fade", "element": "vc", "into": "edge"})
    events = phase_three(g)
    (ev,) = [e for e in events if e["type"] == "fade"]
    assert ev["tokens"] == ["near"] and "DD-3.13" in ev["clause"]
    assert [t.id for t in g.state.tokens] == ["far"]
    assert g.state.sides["allied"].vp == 0  # DD-3.14: a token the VC drag away scores nothing
    end_game(g, "test", "DD-2.34")
    assert g.state.result["vp"] == 0


def test_an_allied_stand_captures_an_abandoned_token_for_one_vp():  # DD-3.14; G-33 (4); G-30
    g = table()
    sl = g.state.stands["a"]  # a rifle team of the platoon, far from the cell
    g.state.tokens.append(Token("c1", "insurgent", sl.x, sl.y + HALF + 0.5, "communist"))  # in base contact
    events = phase_three(g)
    (cap,) = [e for e in events if e["type"] == "capture"]
    assert cap["token"] == "c1" and cap["vp"] == 1 and "DD-3.14" in cap["clause"]
    assert not g.state.tokens and g.view("insurgent")["sides"]["allied"]["vp"] == 1
    end_game(g, "test", "DD-2.34")
    assert g.state.result["vp"] == 1


def test_a_guarded_token_is_not_captured():  # G-33 (4)
    g = table(probe(6.0))
    # the token touches the probe's north base edge; the cell's first stand stands 1.5" from the token:
    # an unpinned Insurgent stand within 2" keeps it from the Allies
    pr = g.state.stands["pr_a"]
    g.state.tokens.append(Token("c1", "insurgent", pr.x, pr.y + HALF + 0.5, "communist"))
    g.state.stands["vc_a"].y = pr.y + HALF + 1.0 + 1.5 + HALF
    phase_three(g)
    assert [t.id for t in g.state.tokens] == ["c1"] and g.state.sides["allied"].vp == 0


def test_a_tunnel_entrance_takes_the_blind_and_stays_secret():  # DD-2.32; DD-2.26
    g = table(points=[{"id": "trap1", "at": [40.0, 30.0], "kind": "tunnel"}])
    assert offers(g)[0]["params"]["into"]["choices"] == ["edge", "trap1", "off"]
    g.act("insurgent", {"type": "fade", "element": "vc", "into": "trap1"})
    events = phase_three(g)
    b = g.state.blinds[g.state.elements["vc"].blind]
    assert (b.x, b.y) == (40.0, 30.0)
    assert "trap1" not in str(g.events_for("allied", events))


def test_an_order_may_be_withdrawn():  # DD-2.32
    g = table()
    g.act("insurgent", {"type": "fade", "element": "vc", "into": "off"})
    assert offers(g)[0]["params"]["into"]["choices"] == ["edge", "stay"]
    g.act("insurgent", {"type": "fade", "element": "vc", "into": "stay"})
    phase_three(g)
    assert g.state.on_table(g.state.elements["vc"]) and g.state.sides["allied"].vp == 0


def test_refusals_name_nothing_hidden():  # DESIGN §6; DD-2.32
    g = table()
    g.state.elements["sq1"].blind = "X"  # an Allied element under a Blind: unknown to the Insurgent
    with pytest.raises(IllegalAction) as hidden:
        g.act("insurgent", {"type": "fade", "element": "sq1", "into": "off"})
    with pytest.raises(IllegalAction) as made_up:
        g.act("insurgent", {"type": "fade", "element": "zz9", "into": "off"})
    assert hidden.value.reason.replace("sq1", "?") == made_up.value.reason.replace("zz9", "?")
    assert hidden.value.clause == made_up.value.clause == "DD-2.32"
    g.act("insurgent", {"type": "pass"})
    with pytest.raises(IllegalAction) as exc:  # the Allies' impulse: only the Insurgent side Fades
        g.act("allied", {"type": "fade", "element": "vc", "into": "off"})
    assert exc.value.clause == "DD-2.32"


def test_the_jungle_ghost_fades_by_its_own_check():  # C-10; DD-10.11
    raw = scenario(platoon() + [cell()], WOOD)
    g = Game(build_scenario(raw), 1, start=False)
    jg.enable(g)
    start_turn(g)
    g.act("allied", {"type": "pass"})
    assert not [a for a in g.legal_actions("insurgent") if a["type"] == "fade"]
    with pytest.raises(IllegalAction) as exc:
        g.act("insurgent", {"type": "fade", "element": "vc", "into": "off"})
    assert exc.value.clause == "DD-10.11; C-10"


def test_nva_and_vc_never_stop_to_drag_their_casualties():  # DD-3.12
    """No Litter Drag for the Insurgent (casevac.LitterLink refuses it, citing DD-3.12): a cell with a
    fallen comrade's token in base contact keeps its full 6" Patrol Move and its full FP."""
    g = table(probe(10.0))
    el = g.state.elements["vc"]

    def reach_and_pool():
        move = next(a for a in g.legal_actions("insurgent") if a["type"] == "move" and a["element"] == "vc"
                    and a["mode"] == "patrol")
        pool = sum(gr.dice for gr in fire.plan_fire(g, el, "pr_a", fire.Context("t", "t"), check_target=False).groups)
        return move["params"]["to"]["max"], pool

    before = reach_and_pool()
    g.state.tokens.append(Token("cas_x", "insurgent", 24.0, 36.0 + HALF + 0.5, "communist"))
    assert reach_and_pool() == before == (g.book.movement.patrol, before[1]) and before[1] > 0
    assert not [a for a in g.legal_actions("insurgent") if a["type"] == "litter"]
    with pytest.raises(IllegalAction) as exc:
        g.act("insurgent", {"type": "litter", "element": "vc", "token": "cas_x", "stand": "vc_a"})
    assert exc.value.clause == "DD-3.12"
    g.act("insurgent", {"type": "move", "mode": "patrol", "element": "vc", "to": [25.1, 30.1]})  # the full 6"
    assert g.state.stands["vc_a"].y == pytest.approx(30.1)


def test_each_allied_casualty_left_at_the_end_costs_vp():  # DD-3.9; C-02; G-30
    """DD-3.9 as C-02 reads it (rules.toml [victory]): a KIA token left on the table -3, a living one -2."""
    g = table()
    g.state.tokens.append(Token("k1", "allied", 10.0, 20.0, "kia"))
    end_game(g, "test", "DD-2.34")
    assert g.state.result["vp"] == -3
    assert any("k1 -3" in line for line in g.state.result["scoring"])
    g = table()
    g.state.tokens += [Token("k1", "allied", 10.0, 20.0, "kia"), Token("w1", "allied", 12.0, 20.0, "wounded")]
    end_game(g, "test", "DD-2.34")
    assert g.state.result["vp"] == -5


def test_an_order_survives_a_save_and_replays_the_same():  # DD-2.32; DESIGN §5
    g = table()
    g.act("insurgent", {"type": "fade", "element": "vc", "into": "edge"})
    back = Game.restore(g.scenario, g.snapshot())
    assert back.hash() == g.hash() and back.state.chapters["fade"].orders == {"vc": "edge"}
    phase_three(g)
    phase_three(back)
    assert back.hash() == g.hash()
