"""The chapter seam: the one way a chapter of the rulebook joins a game.

The core of the engine (``game.rules.game`` and ``game.rules.turn``) plays activations, impulses and
the three phases of a turn (DD-2.1–2.34). Everything else arrives as a :class:`Chapter`, registered
with :func:`register_chapter` when its module is imported, which contributes:

* **action kinds**: its ``ActionKind`` and ``SideActionKind`` classes (``game.rules.game.register`` and
  ``register_side``), listed in ``actions`` so a reader sees what the chapter adds;
* **steps** in the turn sequence (:class:`Step`): ``tension`` (Phase 1), ``after_act`` (each time an
  impulse opens, after an act) and ``consolidation`` (Phase 3), each with an ``order`` among the core's
  own steps (``turn.CORE_STEPS``), so a chapter's step runs exactly where its rule says;
* **clock kinds**: the handler for each kind of clock it starts (DD-2.2: a clock that runs out in the
  Tension phase is resolved by the chapter that owns its kind; an unknown kind is an error, never a
  silent no-op);
* **typed state**: a dataclass kept in ``GameState.chapters[chapter.id]`` (made by ``new_state``,
  restored from a save by ``state_type``), with the fields that listings read named in
  ``table_fields`` (``game.rules.memo``);
* **tables**: ``load_tables(book)`` reads its TOML, loaded once per ``Rulebook`` (:func:`tables`), so a
  game played with another rulebook gets that rulebook's tables;
* **markers**: what its state puts on the table for a side to see (``views.render_view``);
* **listeners**: ``on_move`` (asked at each inch-step of a move by ``reactions.interrupt``).

A chapter is ``active`` in a game when its rules take part (the Jungle Ghost only when it plays a side);
an inactive chapter's steps, markers and listeners are skipped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.rules.data import Rulebook
    from game.rules.game import Game
    from game.rules.state import Clock

PHASES = ("tension", "after_act", "consolidation")


@dataclass(frozen=True)
class Step:
    """One step of the turn sequence: in ``phase``, at ``order`` (lower first; ties by chapter id)."""

    phase: str
    order: int
    run: Callable[[Game], None]
    clause: str
    chapter: str = "core"


class Chapter:
    """A chapter of the rulebook as the engine plays it. Subclass and register one instance."""

    id: str = ""
    title: str = ""
    """``DD chapter 6: CASEVAC``: how the docs and errors name it."""
    actions: tuple[str, ...] = ()
    """The action types it registers (``game.rules.game.ACTION_KINDS`` / ``SIDE_ACTIONS``)."""
    state_type: type | None = None
    """The dataclass of its state in ``GameState.chapters``, or None for a chapter without state."""
    table_fields: tuple[str, ...] = ()
    """The fields of its state that listings of legal actions read (``memo.state_images``); the rest
    of its state goes with the orders and marks."""
    clock_kinds: tuple[str, ...] = ()
    """The clock kinds it owns; :meth:`on_clock` resolves one that runs out."""

    def active(self, g: Game) -> bool:
        """Does this chapter take part in the game?"""
        return True

    def new_state(self, g: Game) -> Any:
        """Its state in a new game (None: it has none until its rules make one, as the Jungle Ghost's
        when it takes a side)."""
        return self.state_type() if self.state_type is not None else None

    def load_tables(self, book: Rulebook) -> Any:
        """Read and check its tables for ``book`` (called once per rulebook, see :func:`tables`)."""
        return None

    def steps(self) -> tuple[Step, ...]:
        """Its steps of the turn sequence (fixed for the chapter: asked once per phase and set of active
        chapters)."""
        return ()

    def on_clock(self, g: Game, clock: Clock) -> None:
        """Resolve a clock of one of its ``clock_kinds`` that ran out (DD-2.2). A chapter that owns clock
        kinds overrides it (``register_chapter`` checks)."""

    def markers(self, g: Game, side: str) -> list[dict]:
        """The markers of its state that ``side`` may see (DESIGN §6)."""
        return []

    on_move: Callable[..., Any] | None = None
    """``on_move(g, mover, probe=False)``: asked at each inch-step of a move (``reactions.interrupt``)."""


CHAPTERS: dict[str, Chapter] = {}
"""Every registered chapter, by id."""


def register_chapter(chapter: Chapter) -> Chapter:
    if not chapter.id or chapter.id in CHAPTERS:
        raise ValueError(f"a chapter needs a new id, got {chapter.id!r}")
    if chapter.clock_kinds and type(chapter).on_clock is Chapter.on_clock:
        raise ValueError(f"chapter {chapter.id} owns clock kinds {list(chapter.clock_kinds)} but resolves none")
    kinds = {k for c in CHAPTERS.values() for k in c.clock_kinds}
    clash = kinds & set(chapter.clock_kinds)
    if clash:
        raise ValueError(f"chapter {chapter.id}: clock kinds {sorted(clash)} already belong to another chapter")
    CHAPTERS[chapter.id] = chapter
    _IN_ORDER[:] = [c for _, c in sorted(CHAPTERS.items())]
    return chapter


_IN_ORDER: list[Chapter] = []
"""Every registered chapter in id order (``register_chapter`` keeps it)."""


def chapters(g: Game) -> list[Chapter]:
    """The chapters active in a game, in id order (stable whatever the import order)."""
    return [c for c in _IN_ORDER if c.active(g)]


def state_of(g: Game, chapter_id: str) -> Any:
    """A chapter's typed state in this game, or None. Never made here: a read must not change the
    state (its hash), so states are made with the game (:func:`new_states`) or by the chapter's rules."""
    return g.state.chapters.get(chapter_id)


def set_state(g: Game, chapter_id: str, value: Any) -> None:
    g.state.chapters[chapter_id] = value
    g.state.chapters = dict(sorted(g.state.chapters.items()))


def new_states(g: Game) -> dict[str, Any]:
    """Every chapter's state in a new game, by id."""
    out = {}
    for cid, ch in sorted(CHAPTERS.items()):
        st = ch.new_state(g)
        if st is not None:
            out[cid] = st
    return out


def state_type(chapter_id: str) -> type | None:
    ch = CHAPTERS.get(chapter_id)
    return ch.state_type if ch is not None else None


def restore_states(raw: dict[str, Any]) -> dict[str, Any]:
    """``GameState.from_dict``: each chapter's state from its saved fields (unknown chapter: an error)."""
    from game.rules.state import build_dataclass

    out = {}
    for cid, fields in sorted(raw.items()):
        cls = state_type(cid)
        if cls is None:
            raise ValueError(f"state.chapters: no chapter {cid!r} in this engine")
        out[cid] = build_dataclass(cls, fields)
    return out


def tables(book: Rulebook, chapter_id: str) -> Any:
    """A chapter's tables as ``book`` has them: loaded on first use, then kept with the book."""
    store = book.extra.setdefault("chapters", {})
    if chapter_id not in store:
        store[chapter_id] = CHAPTERS[chapter_id].load_tables(book)
    return store[chapter_id]


def steps(g: Game, phase: str, core: tuple[Step, ...]) -> list[Step]:
    """The steps of ``phase`` in this game: the core's and every active chapter's, in order (worked out
    once for each phase, core and set of active chapters: a chapter's steps are fixed)."""
    active = tuple(chapters(g))
    key = (phase, core, active)
    out = _ordered.get(key)
    if out is None:
        out = [st for st in core if st.phase == phase]
        for ch in active:
            out += [st for st in ch.steps() if st.phase == phase]
        out = _ordered[key] = sorted(out, key=lambda st: (st.order, st.chapter))
    return out


_ordered: dict[tuple, list[Step]] = {}
"""``steps``' answers by phase, core steps and active chapters."""


def run_steps(g: Game, phase: str, core: tuple[Step, ...]) -> None:
    for st in steps(g, phase, core):
        if g.state.over:
            return
        st.run(g)


def clock_owner(kind: str) -> Chapter:
    for ch in CHAPTERS.values():
        if kind in ch.clock_kinds:
            return ch
    raise ValueError(f"no chapter resolves clocks of kind {kind!r}")


def move_listeners(g: Game) -> list[Callable[..., Any]]:
    return [ch.on_move for ch in chapters(g) if ch.on_move is not None]


def markers(g: Game, side: str) -> list[dict]:
    out: list[dict] = []
    for ch in chapters(g):
        out += ch.markers(g, side)
    return out


def fields_of(obj: Any) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(obj))
