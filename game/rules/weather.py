"""Weather (DD-9A.5, DD-3.8; G-07, C-25): the scenario's weather, or the Tropical Weather Table rolled at
setup, and every effect of it, from data.

A scenario names its weather (``weather = "monsoon"``) or sets ``weather = "roll"``: then, as the game is
made and before the first turn, the engine rolls 1d6 on the Tropical Weather Table (G-07) as an explained
``roll`` event from the game's rules stream, and the game plays the weather rolled (``GameState.weather``;
the face is kept in this chapter's state, so the view can say it was rolled). The weather lasts all game.

Where each effect of a G-07 row is applied (``game/data/weather.toml`` and ``sight.toml``):

* line-of-sight caps, the mist's by turn: ``sight.toml`` rows, applied by ``game.world.los`` through
  ``Game.conditions`` (weather caps override terrain, C-25);
* air grounded (DD-3.8): ``fire_support.air_grounded``; the air delay +1 (the mist's only while it
  caps sight below 24"): ``fire_support.air.delay_of``;
* streams unfordable: :func:`unfordable`, asked by ``movement.stand_allowance``;
* open ground as Mud for Sprint, and Scorching Heat's Winded after any Sprint: :func:`sprint_winds`,
  asked by ``movement.plan_move``;
* artillery scatter on target only on a 1: ``fire_support.missions.scatter``;
* noise masked (a Sprint turns no Blind into an Echo): ``detection.noise``.

Each asks one query, :func:`effect` (``effect(g, "noise_masked")``), and nothing here changes the state
but the roll at setup.

What it leaves out: weather that changes during a game (G-07 rolls once); a Blind's own moves (the
marker's allowance and its Sprint fatigue are ``game.rules.blinds``', which does not ask the weather yet:
a Blind fords a stream in the monsoon and is Winded only by two Sprints running); boats and vehicles
(no weather rules for them in G-07).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.rules.chapters import Chapter, register_chapter, set_state, state_of, tables
from game.rules.data import (
    DATA_DIR,
    DataError,
    Rulebook,
    build,
    check_chapter_refs,
    load_sections,
    refers,
    rulebook,
)
from game.terrain import sight

if TYPE_CHECKING:
    from game.rules.game import Game

ROLL = "roll"
"""The scenario's ``weather`` that asks for the Tropical Weather Table (DD-9A.5)."""
EFFECTS = ("air_grounded", "air_delay", "unfordable", "sprint_mud", "scatter_on_target", "noise_masked",
           "sprint_winds")
"""The effects a row may have (``effect``'s names)."""


# -- the table (game/data/weather.toml) -----------------------------------------------------------------
@dataclass(frozen=True)
class RollRules:
    clause: str
    purpose: str


@dataclass(frozen=True)
class Weather:
    """One row of the Tropical Weather Table (G-07): its d6 face and its effects beyond sight."""

    id: str
    name: str
    clause: str
    roll: int
    air_grounded: bool = False
    air_delay: int = 0
    air_delay_while_capped: bool = False
    unfordable: list[str] = field(default_factory=list, metadata=refers("terrain"))
    sprint_mud: list[str] = field(default_factory=list, metadata=refers("terrain"))
    scatter_on_target: int = 0
    noise_masked: bool = False
    sprint_winds: bool = False


@dataclass(frozen=True)
class WeatherTables:
    roll: RollRules
    weather: dict[str, Weather]

    def rolled(self, face: int) -> Weather:
        return next(w for w in self.weather.values() if w.roll == face)


def load_weather(directory: Path = DATA_DIR, book: Rulebook | None = None) -> WeatherTables:
    """Load ``weather.toml`` strictly: the faces 1-6 once each, the same weathers as ``sight.toml``'s rows
    (one place for each thing: the caps there, the rest here), terrain types the rulebook has."""
    name = "weather.toml"
    built, doc = load_sections(name, {"roll": RollRules}, directory, also=("weather",))
    raw = doc.get("weather", [])
    rows: dict[str, Weather] = {}
    for i, r in enumerate(raw if isinstance(raw, list) else []):
        rec = f"weather[{i}]" + (f" '{r.get('id')}'" if isinstance(r, dict) else "")
        w = build(Weather, r, name, rec)
        if not w.clause.strip():
            raise DataError(name, rec, "field 'clause' must cite a clause or gap id")
        if w.id in rows:
            raise DataError(name, rec, f"duplicate id '{w.id}'")
        if w.air_delay < 0 or not 0 <= w.scatter_on_target <= 6:
            raise DataError(name, rec, "air_delay is turns (0 or more), scatter_on_target a d6 face (0: none)")
        rows[w.id] = w
    faces = sorted(w.roll for w in rows.values())
    if faces != [1, 2, 3, 4, 5, 6]:
        raise DataError(name, "[[weather]]", f"the Tropical Weather Table needs each d6 face once, has {faces}")
    known = set(sight().weather)
    if set(rows) != known:
        raise DataError(name, "[[weather]]", f"the rows must be sight.toml's weathers {sorted(known)}, "
                                             f"are {sorted(rows)}")
    check_chapter_refs(name, {f"weather '{w.id}'": w for w in rows.values()}, book or rulebook())
    return WeatherTables(roll=built["roll"], weather=rows)


def rules(g: Game) -> WeatherTables:
    """The weather table as this game's rulebook has it (``chapters.tables``)."""
    return tables(g.book, "weather")


# -- its state: the face rolled ------------------------------------------------------------------------
@dataclass
class WeatherState:
    """The Tropical Weather Table roll (``GameState.chapters["weather"]``): only in a game that rolled."""

    rolled: int = 0
    """The d6 face rolled at setup (DD-9A.5)."""


def rolled(g: Game) -> int | None:
    st = state_of(g, "weather")
    return st.rolled if st is not None else None


def roll_at_setup(g: Game) -> None:
    """DD-9A.5, G-07: roll 1d6 on the Tropical Weather Table before the first turn; the game plays it."""
    t = rules(g)
    face = g.dice.d6()
    w = t.rolled(face)
    g.state.weather = w.id
    set_state(g, "weather", WeatherState(rolled=face))
    g.emit({"type": "roll", "purpose": t.roll.purpose, "side": None, "element": None, "dice": [face],
            "target": None, "modifiers": [], "need": None, "result": w.id, "clause": f"{t.roll.clause}; {w.clause}",
            "text": f"Tropical Weather Table: rolled {face}: {w.name} ({'; '.join(texts(g, w)) or 'no effect'})"})


# -- the one query -----------------------------------------------------------------------------------------
def current(g: Game) -> Weather:
    """The weather the game plays (a scenario's ``roll`` is rolled as the game is made)."""
    return rules(g).weather[g.state.weather]


def sight_cap(g: Game, weather_id: str | None = None, turn: int | None = None) -> float | None:
    """The weather's cap on sight this turn (sight.toml), or None."""
    w = sight().weather[weather_id or g.state.weather]
    return w.cap_on(g.state.turn if turn is None else turn)


def sight_turn(g: Game) -> int:
    """The turn the weather's sight caps are read at (``Game.sight_key``, ``Conditions.turn``): the turn
    itself while the caps still change (the mist lifting, G-07 (3)), else 1, so that the conditions (and
    every sightline answered under them) stay the same from turn to turn where the weather does."""
    w = sight().weather.get(g.state.weather)
    if w is None or not w.through_turn:
        return 1
    return min(g.state.turn, w.through_turn[-1] + 1) if g.state.turn > 0 else 1


def effect(g: Game, name: str) -> Any:
    """What the weather does about ``name`` now (one of ``EFFECTS``): a flag, a number, or a list of
    terrain types. The mist's air delay holds only while it caps sight below the open limit (G-07 (3))."""
    if name not in EFFECTS:
        raise KeyError(f"no weather effect {name!r} ({', '.join(EFFECTS)})")
    w = current(g)
    if name == "air_delay" and w.air_delay_while_capped:
        cap = sight_cap(g)
        return w.air_delay if cap is not None and cap < sight().open.limit else 0
    return getattr(w, name)


def clause(g: Game) -> str:
    return current(g).clause


def unfordable(g: Game, terrain_ids: Iterable[str]) -> list[str]:
    """The terrain types among these that the weather makes impassable (G-07 (1): streams)."""
    shut = effect(g, "unfordable")
    return [t for t in terrain_ids if t in shut]


def sprint_winds(g: Game, terrain_ids: Iterable[str]) -> str | None:
    """Why a Sprint across these terrain types leaves an element Winded in this weather, or None:
    Scorching Heat after any Sprint (G-07 (6)), the monsoon's open ground as Mud (G-07 (1), DD-3.6)."""
    w = current(g)
    if w.sprint_winds:
        return f"sprinted in {w.name.split(' (')[0]}"
    mud = [t for t in terrain_ids if t in w.sprint_mud]
    if mud:
        return f"sprinted through {', '.join(dict.fromkeys(mud))} ground, Mud in the {w.name}"
    return None


# -- what the view says ------------------------------------------------------------------------------------
def texts(g: Game, w: Weather) -> list[str]:
    """What a weather does, in words (the view and the roll's text)."""
    s = sight().weather[w.id]
    out = []
    if s.cap:
        out.append(f"sight at most {s.cap:g}\"")
    for last, cap in zip(s.through_turn, s.caps, strict=True):
        out.append(f"sight at most {cap:g}\" to turn {last}")
    if s.caps and not s.cap:
        out.append(f"clear after turn {s.through_turn[-1]}")
    if w.air_grounded:
        out.append("air support grounded")
    if w.air_delay:
        out.append(f"air support delay +{w.air_delay}" + (" while the mist caps sight" if w.air_delay_while_capped
                                                          else ""))
    if w.unfordable:
        out.append(f"{', '.join(w.unfordable)} unfordable")
    if w.sprint_mud:
        out.append(f"{', '.join(w.sprint_mud)} ground is Mud for a Sprint (Winded)")
    if w.scatter_on_target:
        out.append(f"artillery on target only on {'a 1' if w.scatter_on_target == 1 else f'1-{w.scatter_on_target}'}")
    if w.noise_masked:
        out.append("noise masked: a Sprint turns no Blind into an Echo")
    if w.sprint_winds:
        out.append("any Sprint leaves infantry Winded")
    return out


def describe(g: Game) -> dict:
    """The weather for the view: which, whether it was rolled, and what it does (with its clause)."""
    w = current(g)
    return {"id": w.id, "name": w.name, "clause": w.clause, "rolled": rolled(g), "effects": texts(g, w)}


class WeatherChapter(Chapter):
    """The weather (DD-9A.5) on the chapter seam: its table, and the roll kept in a game that rolled."""

    id = "weather"
    title = "DD chapter 9A: Weather & Monsoon Conditions"
    state_type = WeatherState

    def new_state(self, g: Game) -> None:
        return None  # made by the roll at setup (a game with the scenario's weather stays as it was)

    def load_tables(self, book: Rulebook) -> WeatherTables:
        return load_weather(book=book)


CHAPTER = register_chapter(WeatherChapter())
