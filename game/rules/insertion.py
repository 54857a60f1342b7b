"""Assault insertions (DD-3.5; G-27): a heliborne mission starts with its UH-1 slicks on the LZ on Turn 1.

A scenario declares the insertion (``[scenario.insertion]``, validated by ``game.rules.scenario``,
docs/scenarios.md): ``kind = "heliborne"``, the LZ (a point, or a terrain feature's centre), its radius
(default ``insertion.toml [heliborne] lz_radius``) and the Allied elements that insert (default: every
Allied element on the table at the start). Every stand of those elements starts with its centre inside
the LZ: DD-3.5 puts the landing already made, the troops dismounted on the LZ (G-27 "Landing troops
dismount free within 2""). Data: ``game/data/insertion.toml``.

* **Turn 1, Tension phase**: the slicks sit on the LZ, as many as the lift needs (G-27: a slick carries
  2 Medium and 1 Small stands; a Small may take a free Medium place), one at the LZ's centre or spread
  on a ring inside it. Each is a public ``helicopter`` marker in every view (``purpose: "insertion"``,
  the model key from the data), as the Dustoff's landed UH-1 is (``casevac.Helicopter``).
* **They lift off** at the end of the landing impulse (G-27 "The slick leaves at the end of that
  impulse"). Engine reading: the landing impulse is the first Allied impulse of Turn 1 (the Allies'
  own, whoever moves first; a pass ends it too). Turn 1's Consolidation phase sends off any slick still
  there (the phase ended on two passes first). ``leaves = "consolidation"`` in the data keeps them to the
  end of Turn 1 instead.

A ``riverine`` insertion (DD-3.5: Tango boats beached or within 12" of the canal bank) is refused by the
scenario validation: the boats are not built yet.

What it leaves out: the Hot LZ roll (DD-6.9) and the door guns' free reaction (G-27) for the Turn-1
landing: DD-3.5 starts the game with the landing made (the troops on the ground, the pacing rule DD-3.4
keeping the enemy 12"+ off), so a wave-off or a shoot-down with stands embarked has nothing to act on;
later insertions and extractions (G-27: the Dustoff procedure, smoke and a clock), and the slick as a
Resupply source (G-32 names a landed helicopter: the slicks are gone after one impulse).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.rules.chapters import Chapter, Step, register_chapter, state_of
from game.rules.data import DATA_DIR, DataError, Rulebook, load_sections, one_of

if TYPE_CHECKING:
    from game.rules.game import Game

CLAUSE = "DD-3.5; G-27"
LEAVES = ("landing_impulse", "consolidation")
"""When the slicks lift off (G-27): at the end of the landing impulse, or in Turn 1's Consolidation."""


# -- the tables (game/data/insertion.toml) -------------------------------------------------------------
@dataclass(frozen=True)
class HeliborneRules:
    clause: str
    lz_radius: float
    medium: int
    small: int
    footprint: float
    model: str
    leaves: str = field(metadata=one_of(LEAVES))


@dataclass(frozen=True)
class InsertionRules:
    heliborne: HeliborneRules


def load_insertion(directory: Path = DATA_DIR) -> InsertionRules:
    """Load ``insertion.toml`` strictly: known sections and keys, a clause in each, sensible sizes."""
    name = "insertion.toml"
    built, _ = load_sections(name, {"heliborne": HeliborneRules}, directory)
    h = built["heliborne"]
    if h.lz_radius <= 0 or h.footprint <= 0 or h.medium < 1 or h.small < 0:
        raise DataError(name, "[heliborne]", "lz_radius and footprint must be positive, medium at least 1, "
                                             "small not negative")
    return InsertionRules(**built)


@cache
def heliborne_rules() -> HeliborneRules:
    """The shipped heliborne table, loaded once per process (the scenario validation's default LZ)."""
    return load_insertion().heliborne


def rules(g: Game) -> HeliborneRules:
    """The heliborne table as this game's rulebook has it (``chapters.tables``)."""
    from game.rules.chapters import tables

    return tables(g.book, "insertion").heliborne


def slicks_needed(book: Rulebook, stand_types: list[str], h: HeliborneRules) -> int:
    """The UH-1 slicks a lift needs (G-27: 2 Medium + 1 Small stands each; a Small may fill a Medium
    place): enough Medium places for the Medium stands, and enough places in all."""
    small = sum(1 for t in stand_types if book.stands[t].base == "small")
    medium = len(stand_types) - small
    return max(1, math.ceil(medium / h.medium), math.ceil((medium + small) / (h.medium + h.small)))


def slick_spots(x: float, y: float, radius: float, n: int, footprint: float) -> list[tuple[float, float]]:
    """Where ``n`` slicks sit on an LZ: one at its centre; more on a ring inside it, the first due north."""
    if n == 1:
        return [(round(x, 3), round(y, 3))]
    ring = max(0.0, radius - footprint)
    return [(round(x + ring * math.cos(math.radians(90 + 360 * k / n)), 3),
             round(y + ring * math.sin(math.radians(90 + 360 * k / n)), 3)) for k in range(n)]


# -- its state ----------------------------------------------------------------------------------------
@dataclass
class Slick:
    """A UH-1 slick on the LZ (G-27)."""

    id: str
    x: float
    y: float
    radius: float


@dataclass
class InsertionState:
    """The insertion's state (``GameState.chapters["insertion"]``), in a game whose scenario has one."""

    slicks: list[Slick] = field(default_factory=list)
    landed: bool = False
    """The slicks have landed (Turn 1's Tension phase): they never land again."""
    landing_impulse: int | None = None
    """The number of the landing impulse (the first Allied impulse of Turn 1), once it opens."""


def _insertion(g: Game) -> Any:
    return getattr(g.scenario, "insertion", None)


def _state(g: Game) -> InsertionState:
    return state_of(g, "insertion")


def land(g: Game) -> None:
    """Turn 1, Tension phase (DD-3.5): the landing Hueys are on the LZ with the troops they brought."""
    ins, st = _insertion(g), _state(g)
    if g.state.turn != 1 or st.landed:
        return
    h = rules(g)
    types = [g.state.stands[sid].type for eid in ins.elements for sid in g.state.elements[eid].stands]
    n = slicks_needed(g.book, types, h)
    st.slicks = [Slick(f"slick{k + 1}", x, y, h.footprint)
                 for k, (x, y) in enumerate(slick_spots(ins.x, ins.y, ins.radius, n, h.footprint))]
    st.landed = True
    names = ", ".join(g.state.elements[eid].name for eid in ins.elements)
    g.emit({"type": "note", "elements": list(ins.elements), "clause": CLAUSE,
            "text": f"Heliborne insertion: {n} UH-1 slick{'s' if n > 1 else ''} on the LZ at "
                    f"({ins.x:g}, {ins.y:g}); {names} dismount onto it"})


def lift_off(g: Game, why: str) -> None:
    """G-27: the slicks leave the LZ."""
    st = _state(g)
    if not st.slicks:
        return
    n = len(st.slicks)
    st.slicks = []
    g.emit({"type": "note", "clause": "G-27",
            "text": f"The UH-1 slick{'s' if n > 1 else ''} lift{'' if n > 1 else 's'} off the LZ: {why}"})


def after_act(g: Game) -> None:
    """Each time an impulse opens: note the landing impulse as it opens, and when it is over the slicks
    leave (G-27 "at the end of that impulse")."""
    st = _state(g)
    if not st.slicks or rules(g).leaves != "landing_impulse":
        return
    s = g.state
    if st.landing_impulse is None:
        if s.to_act == "allied":
            st.landing_impulse = s.impulse + 1  # the impulse about to open is the Allies' landing impulse
        return
    if s.impulse >= st.landing_impulse:
        lift_off(g, "the landing impulse is over")


def consolidation(g: Game) -> None:
    """Turn 1's Consolidation phase: any slick still on the LZ leaves (G-27)."""
    lift_off(g, "the end of Turn 1")


class InsertionChapter(Chapter):
    """DD-3.5 on the chapter seam: in a game whose scenario declares an insertion."""

    id = "insertion"
    title = "DD chapter 3: assault insertions"
    state_type = InsertionState

    def active(self, g: Game) -> bool:
        return _insertion(g) is not None

    def new_state(self, g: Game) -> InsertionState | None:
        return InsertionState() if _insertion(g) is not None else None

    def load_tables(self, book: Rulebook) -> InsertionRules:
        return load_insertion()

    def steps(self) -> tuple[Step, ...]:
        return (Step("tension", 5, land, "DD-3.5", self.id),
                Step("after_act", 10, after_act, "G-27", self.id),
                Step("consolidation", 5, consolidation, "G-27", self.id))

    def markers(self, g: Game, side: str) -> list[dict]:
        """Public: the slicks on the LZ (a ``helicopter`` marker each, as the landed Dustoff's)."""
        h = rules(g)
        return [{"id": s.id, "kind": "helicopter", "purpose": "insertion", "model": h.model, "x": s.x, "y": s.y,
                 "radius": s.radius} for s in _state(g).slicks]


CHAPTER = register_chapter(InsertionChapter())
