"""Refusals and events leak nothing (DESIGN §6: fog of war is a security boundary; issue 11, part 6).

* A refusal never tells a hidden thing from a made-up id: an enemy element under a Blind (DD-4.7) or in
  the Reserve Hand (DD-4.8), or one of its stands, is refused in the same words and clause as an id
  that names nothing, naming only the id sent (game.act, game.preview, the co-op seat check).
* A reveal or an echo names a spotter that stays under its own Blind only by the marker (DD-4.11,
  DD-4.14, DD-4.15); the Jungle Ghost's reaction roll names an Allied Blind, not what is under it.
* Event numbers are each side's own: 1, 2, 3, ... over the events it may see, with no gap that would
  count the enemy's hidden events; the view's ``seq`` and ``game.events`` ``since`` use them.
"""

from __future__ import annotations

import re

import pytest

from game.engine.client import EngineError, InProcessEngine
from game.rules import coop, odds
from game.rules import jungle_ghost as jg
from game.rules.blinds import place_blind
from game.rules.errors import IllegalAction
from game.rules.game import SIDE_ACTIONS, Game, action_types
from game.rules.scenario import build_scenario
from game.rules.turn import start_turn
from tests.builders import enemy, platoon, scenario
from tests.rules.test_blinds import HQ, JUNGLE, POINT, make_fog, squad

RPD = "NVA RPD team"
CELL = "Local cell"
ZULU = "Recon Team Zulu"


def refused(fn, *args) -> tuple[str, str]:
    with pytest.raises(IllegalAction) as err:
        fn(*args)
    return err.value.reason, err.value.clause


def alike(a: tuple[str, str], sent_a: str, b: tuple[str, str], sent_b: str) -> bool:
    """The same refusal apart from the id each was sent."""
    def blank(r, sent):
        return re.sub(r"(?<![\w])" + re.escape(sent) + r"(?![\w])", "<id>", r[0]), r[1]
    return blank(a, sent_a) == blank(b, sent_b)


def hidden_enemies() -> Game:
    """The Allied HQ and a squad on the table; an Insurgent RPD team under Blind i1 (8" from the squad)
    and a cell in the Reserve Hand, with a secret ambush point."""
    return make_fog([HQ, squad("sq", "allied", 10, 10), {**squad("rpd", "insurgent", 10, 18, "i1"), "name": RPD},
                     {**squad("gg", "insurgent", 30, 30, reserve=True), "name": CELL}],
                    [{"id": "i1", "side": "insurgent", "at": [10, 18]}], terrain=JUNGLE, points=POINT, dice=[4])


ELEMENT_ACTIONS = [t for t in action_types() if t not in SIDE_ACTIONS and t != "pass"] + ["spring_reserve"]


@pytest.mark.parametrize("kind", ELEMENT_ACTIONS)
@pytest.mark.parametrize("hidden, fake", [("rpd", "rpq"), ("gg", "gq")])
def test_an_enemy_element_under_a_blind_or_in_reserve_is_refused_as_a_made_up_id(kind, hidden, fake):
    """DESIGN §6, DD-4.7, DD-4.8: acting with an enemy element the side cannot see answers exactly as an
    id that names nothing; it never names the element ("NVA RPD team belongs to the insurgent side")."""
    g = hidden_enemies()
    before = g.hash()
    act = {"type": kind, "mode": "patrol", "to": [10, 12], "target": "rpd_a", "point": "amb1"}
    a = refused(g.act, "allied", {**act, "element": hidden})
    b = refused(g.act, "allied", {**act, "element": fake})
    assert alike(a, hidden, b, fake), (a, b)
    assert RPD not in a[0] and CELL not in a[0] and "insurgent" not in a[0]
    assert g.hash() == before


@pytest.mark.parametrize("kind", odds.PREVIEWABLE)
def test_a_preview_with_a_hidden_element_or_target_is_refused_as_a_made_up_id(kind):
    """DESIGN §6: game.preview refuses as game.act does, a hidden id as a made-up one."""
    g = hidden_enemies()
    base = {"type": kind, "to": [10, 12], "at": [10, 18]}
    a = refused(odds.preview, g, "allied", {**base, "element": "rpd", "target": "sq_a"})
    b = refused(odds.preview, g, "allied", {**base, "element": "rpq", "target": "sq_a"})
    assert alike(a, "rpd", b, "rpq") and RPD not in a[0]
    a = refused(odds.preview, g, "allied", {**base, "element": "sq", "target": "rpd_a"})
    b = refused(odds.preview, g, "allied", {**base, "element": "sq", "target": "rpd_q"})
    assert alike(a, "rpd_a", b, "rpd_q")


TARGETED = ("fire", "fire_maneuver", "grazing_fire", "assault", "frag_grenade", "recoilless_fire", "spot",
            "recon_by_fire")


@pytest.mark.parametrize("kind", TARGETED)
@pytest.mark.parametrize("hidden, fake", [("rpd_a", "rpd_q"), ("gg_b", "gg_q"), ("rpd", "rpq")])
def test_a_hidden_target_is_refused_as_a_made_up_one(kind, hidden, fake):
    """DESIGN §6, DD-5.1, DD-5.22, DD-4.10: a stand under a Blind or in the Reserve Hand named as a target
    gets the refusal an id that names nothing gets (before the fix: "'rpd_a' is not a Confirmed target on
    the table" against "no target stand 'rpd_q'")."""
    g = hidden_enemies()
    act = {"type": kind, "element": "sq", "to": [10, 12]}
    a = refused(g.act, "allied", {**act, "target": hidden})
    b = refused(g.act, "allied", {**act, "target": fake})
    assert alike(a, hidden, b, fake), (a, b)
    assert RPD not in a[0] and CELL not in a[0]


def test_an_enemy_on_the_table_is_still_named():
    """DD-2.5: an enemy element the side can see is refused by name, as before."""
    g = make_fog([HQ, squad("sq", "allied", 10, 10), {**squad("vc", "insurgent", 10, 30), "name": RPD}], dice=[4])
    reason, clause = refused(g.act, "allied", {"type": "hold", "element": "vc"})
    assert reason == f"{RPD} belongs to the insurgent side" and clause == "DD-2.5"


def test_a_coop_seat_naming_a_hidden_enemy_element_learns_nothing():
    """DD-10.16, DESIGN §6: the seat check answers only for the side's own elements and Blinds; a hidden
    enemy element goes on to the rules like a made-up id (before the fix: "Brody does not command NVA RPD
    team (rpd): Ames does")."""
    g = hidden_enemies()
    team = coop.assign("allied", g.scenario.elements, {"seats": ["Ames", "Brody"]})
    assert coop.commander_of(team, g, "sq").name == "Brody"
    for eid in ("rpd", "rpq", "gg"):
        coop.check(team, g, "allied", "Brody", {"type": "hold", "element": eid})  # not refused here
    coop.check(team, g, "allied", "Brody", {"type": "blind_hold", "blind": "i1"})  # an enemy marker, likewise
    a = refused(g.act, "allied", {"type": "hold", "element": "rpd"})
    b = refused(g.act, "allied", {"type": "hold", "element": "rpq"})
    assert alike(a, "rpd", b, "rpq")
    with pytest.raises(IllegalAction, match="Ames does"):  # the side's own elements are still checked
        coop.check(team, g, "allied", "Brody", {"type": "hold", "element": "hq"})


# -- what a reveal says of a hidden spotter ------------------------------------------------------------
def spotter_under_blind(extra=(), blinds=()) -> Game:
    """The squad "Recon Team Zulu" under its Blind a1 at (10, 10); an Insurgent Echo i1 8" north."""
    g = make_fog([HQ, {**squad("zulu", "allied", 10, 10, "a1"), "name": ZULU}, *extra,
                  {**squad("vc", "insurgent", 10, 18, "i1"), "name": RPD}],
                 [{"id": "a1", "side": "allied", "at": [10, 10]}, {"id": "i1", "side": "insurgent", "at": [10, 18]},
                  *blinds])
    for b in g.state.blinds.values():
        if b.side == "insurgent":
            b.state = "echo"
    g.state.sides["insurgent"].ambush_tokens = 0
    return g


def strings(x) -> list[str]:
    if isinstance(x, dict):
        return [s for k, v in x.items() for s in [k, *strings(v)]]
    if isinstance(x, list):
        return [s for v in x for s in strings(v)]
    return [x] if isinstance(x, str) else []


def assert_hidden_from_insurgent(g: Game, events: list[dict], names: tuple[str, ...], ids: tuple[str, ...]) -> None:
    for text in strings(g.events_for("insurgent", events)):
        for name in names:
            assert name not in text, f"the hidden spotter {name!r} is named to the Insurgent: {text!r}"
        for ident in ids:
            assert not re.search(r"(?<![\w])" + re.escape(ident) + r"(?![\w])", text), (ident, text)


def test_a_reveal_names_a_spotter_under_its_blind_only_by_the_marker():
    """DD-4.11, DD-4.24, DESIGN §6: a squad spotting from under its Blind stays hidden; the reveal (a
    public event) says "spotted by Blind a1", never the squad's name or id."""
    g = spotter_under_blind()
    g.dice.force([4])
    ev = g.act("allied", {"type": "spot", "element": "zulu", "target": "i1"})
    reveal = [e for e in g.events_for("insurgent", ev) if e["type"] == "reveal"]
    assert reveal and reveal[0]["reason"] == "spotted by Blind a1" and g.state.elements["zulu"].blind == "a1"
    assert_hidden_from_insurgent(g, ev, (ZULU,), ("zulu", "zulu_a", "zulu_b", "zulu_sl"))


def test_a_critical_spot_names_a_hidden_spotter_only_by_the_marker():
    """DD-4.14, DESIGN §6: the second Echo a natural 6 flips is revealed "by Blind a1"."""
    g = spotter_under_blind(blinds=[{"id": "i2", "side": "insurgent", "at": [12, 19], "dummy": True}])
    g.state.blinds["i2"].state = "echo"
    g.dice.force([6])
    ev = g.act("allied", {"type": "spot", "element": "zulu", "target": "i1"})
    removed = [e for e in g.events_for("insurgent", ev) if e["type"] == "blind_removed" and e["blind"] == "i2"]
    assert removed and removed[0]["reason"] == "Critical Spot by Blind a1"
    assert_hidden_from_insurgent(g, ev, (ZULU,), ("zulu", "zulu_a", "zulu_b", "zulu_sl"))


def test_a_hidden_scouts_free_test_is_a_plain_spotting_roll_to_the_enemy():
    """DD-4.15, DD-4.7, DESIGN §6: the enemy hears that Blind a1 spotted, and the result; not that a scout
    made a free test (the purpose and clause of the enemy's copy are a plain Spotting Test's)."""
    scout = {"id": "pt", "side": "allied", "name": "Point man", "kind": "team", "blind": "a1",
             "stand": [{"id": "pt_1", "type": "us_scout", "at": [11, 11], "facing": 90}]}
    g = spotter_under_blind(extra=[scout], blinds=[{"id": "i2", "side": "insurgent", "at": [14, 18],
                                                    "dummy": True}])
    g.state.blinds["i2"].state = "echo"
    g.dice.force([4, 4])
    ev = g.act("allied", {"type": "spot", "element": "pt", "target": "i1", "second": "i2"})
    theirs = [e for e in g.events_for("insurgent", ev) if e["type"] == "roll" and e.get("spotter_blind")]
    assert len(theirs) == 2 and {(e["purpose"], e["clause"]) for e in theirs} == {("Spotting", "DD-4.12; DD-4.23")}
    assert_hidden_from_insurgent(g, ev, ("Point man", "scout"), ("pt", "pt_1"))
    assert [e["purpose"] for e in g.events_for("allied", ev) if e["type"] == "roll"][-1] == "Spotting (scout's free test)"


def test_the_jungle_ghost_reaction_roll_names_an_allied_blind_not_its_contents():
    """DD-10.7, DD-4.7, DESIGN §6: an Allied Blind that moves near an Echo takes the Ambush Reaction Roll;
    the roll (public) names the marker, never the squad under it."""
    g = Game(build_scenario(scenario(platoon(squad_at=(10, 10)) + enemy((43, 3)))), 1, start=False)
    jg.enable(g)
    start_turn(g)
    for bid in list(g.state.solo.shadows):
        del g.state.blinds[bid]
    g.state.solo.shadows = {}
    g.state.solo.doom = 0
    echo = jg._place_shadow(g, 10.0, 15.0, "test")
    g.state.solo.shadows[echo] = "echo"
    ab = place_blind(g, "allied", 10.0, 11.0, elements=["sq1"])
    g.state.solo.bpos = {ab.id: [10.0, 4.0]}  # it has just moved up
    start = len(g.events)
    g.dice.force([2])  # the Spider Waits
    jg.watch_blinds(g)
    (roll,) = [e for e in g.events[start:] if e.get("purpose") == "Ambush Reaction"]
    assert f"Blind {ab.id}" in roll["text"] and "1st Squad" not in roll["text"]


# -- event numbers are each side's own ---------------------------------------------------------------
def test_each_side_numbers_its_own_events_without_gaps():
    """DESIGN §6: a hidden activation is its owner's event only; the other side's numbers run on without
    a gap (a gap would count the enemy's hidden events), and so do the view's seq and since."""
    g = make_fog([HQ, squad("sq", "allied", 10, 10, "a1"), squad("vc", "insurgent", 40, 40, "i1")],
                 [{"id": "a1", "side": "allied", "at": [10, 10]}, {"id": "i1", "side": "insurgent", "at": [40, 40]}],
                 dice=[4])
    g.act("allied", {"type": "blind_hold", "blind": "a1"})
    g.act("insurgent", {"type": "blind_hold", "blind": "i1"})
    assert any(e["_visible"] == "allied" for e in g.events) and any(e["_visible"] == "insurgent" for e in g.events)
    for side in ("allied", "insurgent", "referee", "all"):
        seqs = [e["seq"] for e in g.events_for(side, g.events)]
        assert seqs == list(range(1, len(seqs) + 1)), side
        if side != "all":
            assert g.view(side)["seq"] == len(seqs)
        assert [e["seq"] for e in g.events_for(side, g.events, since=2)] == seqs[2:]
    assert len(g.events_for("referee", g.events)) == g.state.seq  # the referee sees every event
    assert len(g.events_for("allied", g.events)) < g.state.seq


def test_game_events_since_and_a_rolled_back_call_keep_each_side_numbering(monkeypatch):
    """DESIGN §4, §6: over the protocol each side reads its own numbers (game.events since, the view's
    seq); a call undone by an internal fault takes its numbers with it, so none is skipped."""
    eng = InProcessEngine()
    gid = eng.call("game.new", scenario="rubber_plantation", seed=3,
                   players={"allied": "human", "insurgent": "human"})["game"]
    game = eng.engine.sessions[gid].game
    n = {s: len(eng.call("game.events", game=gid, side=s)["events"]) for s in ("allied", "insurgent")}
    assert n["allied"] < game.state.seq  # the Insurgent's tokens are its own (G-29): no gap for them

    original = Game._end_impulse

    def fault(self):
        monkeypatch.setattr(Game, "_end_impulse", original)
        raise RuntimeError("a fault in the middle of a resolution")

    monkeypatch.setattr(Game, "_end_impulse", fault)
    blind = next(b for b in game.state.blinds.values() if b.side == "allied")
    with pytest.raises(EngineError):
        eng.call("game.act", game=gid, side="allied", action={"type": "blind_hold", "blind": blind.id})
    out = eng.call("game.act", game=gid, side="allied", action={"type": "blind_hold", "blind": blind.id})
    assert [e["seq"] for e in out["events"]] == list(range(n["allied"] + 1, n["allied"] + 1 + len(out["events"])))
    for side in ("allied", "insurgent"):
        got = eng.call("game.events", game=gid, side=side, since=n[side])["events"]
        assert got and [e["seq"] for e in got] == list(range(n[side] + 1, n[side] + 1 + len(got)))
        assert eng.call("game.view", game=gid, side=side)["seq"] == n[side] + len(got)


def test_a_dust_cloud_id_does_not_count_hidden_events(monkeypatch):
    """DD-5.34, DESIGN §6: the dust cloud's id is public (views, events); made of the engine's event
    count it would tell how many hidden events there have been. Hidden events before the shot leave it
    as it is."""
    from game.rules import assault
    from tests.rules.test_fire import SQUAD, make

    monkeypatch.setattr(assault.RecoillessFire, "_guns", lambda self, g, el: g.state.living(el)[1:2])
    ids = []
    for hidden in (0, 3):
        g = make([SQUAD, ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 20, 17), ("vc_b", "vc_rifle_cell", 24, 17)])])
        for _ in range(hidden):
            g.emit({"type": "note", "text": "a hidden event"}, visible="insurgent")
        g.act("allied", {"type": "recoilless_fire", "element": "sq", "target": "vc_a"})
        ids.append([m["id"] for m in g.state.smoke])
    assert ids[0] and ids[0] == ids[1]
