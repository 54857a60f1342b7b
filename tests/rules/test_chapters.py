"""The chapter seam (game.rules.chapters): steps in order, clocks by kind, typed state, tables per book."""

from __future__ import annotations

import dataclasses

import pytest

from game.rules import chapters, turn
from game.rules.chapters import CHAPTERS
from game.rules.data import load_rulebook
from game.rules.game import Game
from game.rules.scenario import build_scenario
from game.rules.state import Clock, GameState, Token
from tests.builders import enemy, game, platoon, scenario


def test_consolidation_runs_the_chapters_steps_at_their_places():  # DD-6.12, DD-2.31, DD-2.33
    names = [(st.order, st.chapter, st.run.__name__)
             for st in chapters.steps(game(scenario(platoon() + enemy())), "consolidation", turn.CORE_STEPS)]
    order = [n for _, _, n in names]
    # The Dustoff leaves before the Bleed (DD-6.12), the Pinned rally after it (DD-2.33).
    assert order.index("consolidation") < order.index("bleed") < order.index("rally_pinned")
    assert "casevac" in {c for _, c, _ in names}
    assert all(o1 <= o2 for (o1, _, _), (o2, _, _) in zip(names, names[1:], strict=False))


def test_the_jungle_ghost_takes_part_only_when_it_plays():  # DD chapter 10
    g = game(scenario(platoon() + enemy()))
    assert "jungle_ghost" not in [c.id for c in chapters.chapters(g)]
    from game.rules import jungle_ghost

    jungle_ghost.enable(g)
    assert "jungle_ghost" in [c.id for c in chapters.chapters(g)]
    assert isinstance(g.state.solo, jungle_ghost.GhostState)


def test_a_clock_goes_to_the_chapter_that_owns_its_kind():  # DD-2.2
    assert chapters.clock_owner("dustoff").id == "casevac"
    assert chapters.clock_owner("fire_mission").id == "fire_support"
    with pytest.raises(ValueError):
        chapters.clock_owner("no_such_kind")  # never a silent no-op


def test_an_unknown_clock_kind_stops_the_turn_loudly():  # DD-2.2
    g = game(scenario(platoon() + enemy()))
    g.state.clocks.append(Clock("x1", "no_such_kind", 1, "test"))
    with pytest.raises(ValueError):
        turn.tick_clocks(g)


def test_clock_kinds_belong_to_one_chapter():
    kinds = [k for c in CHAPTERS.values() for k in c.clock_kinds]
    assert len(kinds) == len(set(kinds))


def test_typed_state_round_trips_through_a_save():
    g = game(scenario(platoon() + enemy()))
    g.state.tokens.append(Token("t1", "allied", 20.0, 20.0, "wounded", carrier="a"))
    g.state.clocks.append(Clock("dustoff1", "dustoff", 1, "Dustoff inbound", x=20.0, y=20.0, colour="violet"))
    from game.rules import jungle_ghost

    jungle_ghost.enable(g)
    again = GameState.from_dict(g.snapshot())
    assert again == g.state and again.hash() == g.state.hash()
    assert isinstance(again.tokens[0], Token) and isinstance(again.clocks[0], Clock)
    assert isinstance(again.chapters["jungle_ghost"], jungle_ghost.GhostState)
    assert dataclasses.is_dataclass(again.chapters["casevac"])


def test_a_saved_state_of_an_unknown_chapter_is_refused():
    g = game(scenario(platoon() + enemy()))
    snap = g.snapshot()
    snap["chapters"]["no_such_chapter"] = {}
    with pytest.raises(ValueError, match="no_such_chapter"):
        GameState.from_dict(snap)
    snap = g.snapshot()
    snap["chapters"]["casevac"]["bogus"] = 1
    with pytest.raises(ValueError, match="bogus"):
        GameState.from_dict(snap)


def test_a_view_does_not_make_chapter_state():  # DESIGN §5: a read never changes a result
    g = game(scenario(platoon() + enemy()))
    before = g.hash()
    for side in ("allied", "insurgent", "referee"):
        g.view(side)
        g.legal_actions(side) if side == g.state.to_act else None
    assert g.hash() == before


def test_a_chapters_tables_are_the_rulebooks_own():
    """Tables load into the Rulebook a game receives, not a process-wide cache."""
    book = load_rulebook()
    g = Game(build_scenario(scenario(platoon() + enemy())), 1, book=book)
    from game.rules.casevac import casevac

    assert casevac(g) is chapters.tables(book, "casevac")
    other = Game(build_scenario(scenario(platoon() + enemy())), 1, book=load_rulebook())
    assert casevac(other) is not casevac(g) and casevac(other) == casevac(g)


def test_a_chapter_that_owns_clock_kinds_must_resolve_them():  # DD-2.2
    class Silent(chapters.Chapter):
        id = "silent_test"
        clock_kinds = ("silent_kind",)

    with pytest.raises(ValueError, match="resolves none"):
        chapters.register_chapter(Silent())
    assert "silent_test" not in CHAPTERS
