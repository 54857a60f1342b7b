"""Every write to a state is counted (game.rules.changes): the listing cache keeps a listing while the
counters stand still, and the engine's rollback journal puts back exactly what an action wrote."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import pickle

import pytest

from game.rules import changes, memo
from game.rules.changes import TrackedDict, TrackedList
from game.rules.dice import Dice, seed_streams
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import resolve_scenario
from game.rules.state import GameState, Stand, Token
from game.rules.turn import start_turn

SCENARIOS = ("village_sweep", "rubber_plantation", "firebase_relief", "canal_assault", "cu_chi",
             "search_and_destroy", "thunder_road")


def random_play(g: Game, seed: int, steps: int, each=None) -> None:
    """Random listed actions, moves and points filled at random (the engine benchmark's playout)."""
    rng = Dice(seed_streams(seed + 99))
    for _ in range(steps):
        if g.state.over:
            return
        side = g.state.to_act
        acts = g.legal_actions(side)
        pick = acts[rng.below(len(acts))]
        a = {k: v for k, v in pick.items() if k not in ("params", "label")}
        to = pick.get("params", {}).get("to")
        if to and to.get("kind") == "point" and "from" in to:
            r, th = to["max"] * rng.uniform("ai"), rng.uniform("ai") * 2 * math.pi
            a["to"] = [to["from"][0] + r * math.cos(th), to["from"][1] + r * math.sin(th)]
        try:
            g.act(side, a)
        except IllegalAction:
            pass
        if each is not None:
            each(g)


def _walk(obj, path="state"):
    """Every mutable object in a state with where it is: each must be tracked and in a state."""
    if isinstance(obj, (str, int, float, bool, type(None))):
        return
    if isinstance(obj, tuple):
        for i, v in enumerate(obj):
            yield from _walk(v, f"{path}[{i}]")
        return
    yield obj, path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _walk(v, f"{path}[{k!r}]")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _walk(v, f"{path}[{i}]")
    else:
        for f in dataclasses.fields(obj):
            yield from _walk(getattr(obj, f.name), f"{path}.{f.name}")


def _assert_all_tracked(g: Game) -> None:
    for obj, path in _walk(g.state):
        if isinstance(obj, (list, dict)):
            assert type(obj) in (TrackedList, TrackedDict) and obj.part is not None, path
        else:
            assert dataclasses.is_dataclass(obj), f"{path}: a {type(obj).__name__} in the state"
            assert type(obj).__setattr__ in (changes.tracked_setattr, changes.record_setattr), path
            assert changes._own(obj) is not None, f"{path}: not attached"


@pytest.mark.parametrize("sid", SCENARIOS)
def test_every_write_of_a_random_game_is_counted(sid, monkeypatch):
    """The counters against images of the state at every listing (``memo.verify``): a write the
    counters missed fails here, on every shipped Dinky Dau table."""
    monkeypatch.setattr(memo, "VERIFY", True)
    g = Game(resolve_scenario(sid), 11, start=False)
    start_turn(g)
    random_play(g, 11, 120, each=lambda g: g.legal_actions("allied"))
    _assert_all_tracked(g)


def test_a_write_moves_its_part_and_a_stand_not_in_play_moves_nothing():
    g = Game(resolve_scenario("village_sweep"), 3)
    st = next(iter(g.state.stands.values()))
    el = g.state.elements[st.element]
    before = list(changes.versions)
    Stand(**{**st.__dict__, "x": 1.0})  # a placement tried by a rule: not in the state
    assert changes.versions == before
    st.x += 0.5  # DD-1.5: where a stand stands is the table's
    assert changes.versions == [before[0] + 1, before[1]]
    el.pinned = True  # DD-2.16: a mark, not the table
    assert changes.versions == [before[0] + 1, before[1] + 1]
    g.state.tokens.append(Token("t9", "allied", 1.0, 1.0, "wounded"))  # DD-6.1: a token on the table
    assert changes.versions[0] == before[0] + 2
    g.state.tokens[-1].state = "stabilized"
    assert changes.versions[0] == before[0] + 3
    g.state.rng["ai"] = 7  # a die rolled: the rest
    assert changes.versions == [before[0] + 3, before[1] + 2]


def test_a_list_put_in_the_state_is_tracked_and_reads_the_same():
    g = Game(resolve_scenario("village_sweep"), 3)
    s = g.state
    s.smoke = [{"id": "d1", "x": 1.0, "y": 2.0, "radius": 1.0, "turn": s.turn, "impulse": s.impulse}]
    assert type(s.smoke) is TrackedList and type(s.smoke[0]) is TrackedDict
    before = list(changes.versions)
    s.smoke[0]["radius"] = 2.0  # DD-5.34: a cloud grows; the nested dict counts too
    assert changes.versions[1] == before[1] + 1
    assert json.dumps(s.to_dict(), sort_keys=True) == json.dumps(
        GameState.from_dict(copy.deepcopy(s.to_dict())).to_dict(), sort_keys=True)
    again = pickle.loads(pickle.dumps(s, pickle.HIGHEST_PROTOCOL))
    assert again == s and again.hash() == s.hash()
    _assert_all_tracked(g)


def test_the_journal_puts_back_exactly_what_an_action_wrote():
    """A fault mid-resolution (game.engine.session): the journal writes back every object the actions
    touched, and the game then plays on exactly as one that never faulted."""
    sc = resolve_scenario("rubber_plantation")
    g, twin = Game(sc, 5, start=False), Game(sc, 5, start=False)
    start_turn(g)
    start_turn(twin)
    random_play(g, 5, 30)
    random_play(twin, 5, 30)
    assert g.hash() == twin.hash()
    before = g.hash()
    journal = changes.open_journal()
    assert journal is not None and changes.open_journal() is None  # one at a time
    try:
        random_play(g, 77, 25)  # moves, fire, casualties, a new turn: all of it undone
        assert g.hash() != before
        journal.undo()
    finally:
        journal.close()
    g.put_back(g.state)
    assert g.hash() == before
    random_play(g, 9, 40)
    random_play(twin, 9, 40)
    assert g.hash() == twin.hash()


def test_living_stands_follow_every_write_and_are_the_callers_own():
    """``GameState.living`` keeps its answers while the table stands still: a stand that falls (DD-5.11)
    or comes back by an undo leaves or rejoins at once, and a caller that changes its list changes no one
    else's."""
    g = Game(resolve_scenario("village_sweep"), 3)
    el = next(e for e in g.state.elements.values() if len(g.state.living(e)) > 1)
    first = g.state.living(el)
    first.clear()  # the caller's own list
    assert len(g.state.living(el)) == len(el.stands)
    st = g.state.stands[el.stands[0]]
    journal = changes.open_journal()
    st.alive = False  # DD-5.11: the stand is removed
    assert [s.id for s in g.state.living(el)] == el.stands[1:]
    journal.undo()
    journal.close()
    assert [s.id for s in g.state.living(el)] == el.stands
    other = Game(resolve_scenario("village_sweep"), 3)  # another state: its own stands
    assert all(s is other.state.stands[s.id] for s in other.state.living(other.state.elements[el.id]))
