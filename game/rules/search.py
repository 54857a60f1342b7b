"""Search / Pacify (DD-2.15; G-35, G-13, G-12, C-10): an Allied element searches a hootch, bunker or
spider hole within 2".

DD-2.15 lists the action and nothing more; G-35 proposes the test, and the numbers are data
(``game/data/search.toml``): one activation (1 CP In Command), a target feature whose footprint lies
within 2" of a stand's base, 1d6 on 4+; +1 when a Scout is among the stands within reach (Engineers and
Tunnel Rats have no stands yet), the Civic Drift tier's modifier for a search in the village (G-13: its
hootches; the tier the track stood at in the last Tension Phase), Night -1. A success reveals what is
hidden in the feature (a marker's disc touching its footprint, a stand's centre as close):

* an Insurgent Blind there is revealed as a Spotting Test reveals it (``detection.reveal``: a Dummy is
  discarded, a real unit's stands go down in a legal formation); a Jungle Ghost Shadow Blind rolls the
  Contact Reveal Table with no ambush (DD-10.8), so a booby trap found there is disarmed (G-09, G-35);
* an Insurgent element on the table in Hold/Conceal there loses its concealment (G-32);
* the feature is marked searched (``SearchState.searched``, a ``searched`` marker in every view): the
  Jungle Ghost no longer regenerates a Shadow Blind in it (DD-10.13 "an unsearched hootch", C-10), and a
  success counts as the player searching a hootch for the Doom Clock (G-12).

Engine readings (docs/fog.md "Search / Pacify"): only a success marks a feature searched; a searched
feature may be searched again (a Blind may move in later); the stands within reach are the searchers.

Fog (DESIGN §6): the roll is public, as any test of an element on the table; a failed search rolls
nothing more and says nothing of what is there, so it reads the same over an empty hootch and a full
one; a success reveals only what it finds.

The chapter seam for what is hidden (DD chapter 9B): a chapter with secrets a search can find registers a
**finder** (:func:`register_finder`: booby traps, tunnel entrances, caches), called on a success with the
area searched, and a **fumble** (:func:`register_fumble`), called on a natural 1 (G-35 "a natural 1 sets off
any booby trap there"); :func:`register_modifier` adds a chapter's modifiers to the test. While such a
chapter is active, an element may also search the **ground** within 2" of its stands (``feature =
"ground"``, DD-9B.3: "an active Allied stand within 2" ... Search Test (4+)"), for an entrance or a trap in
the open; a game without one lists the same actions as before.

What it leaves out: the secret ambush points and trapdoors of the Reserve Hand (DD-2.26) are not searched
(G-35: Hot Sectors are exposed only when used).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shapely.geometry import Point
from shapely.ops import unary_union

from game.rules import detection
from game.rules.chapters import Chapter, Step, register_chapter, set_state, state_of, tables
from game.rules.data import (
    DATA_DIR,
    ROLES,
    DataError,
    Rulebook,
    build,
    check_chapter_refs,
    load_sections,
    one_of,
    refers,
    rulebook,
)
from game.rules.dice import Modifier, need, p_success, resolve_test
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.memo import table_memo
from game.rules.state import Blind, Element, Stand, base_of, bounds_of
from game.terrain import sight
from game.world.features import apart, apart_by, around

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.world.tablemap import TerrainHit

CLAUSE = "DD-2.15; G-35"
GROUND = "ground"
"""The ``feature`` of a search of the ground within reach of the element's stands (DD-9B.3)."""

Finder = Callable[..., list[str]]
FINDERS: dict[str, Finder] = {}
"""Chapter id -> ``fn(g, el, area, stands, feature_id) -> list[str]``: on a successful search, reveal what of
the chapter's lies in ``area`` (its own events) and say it in a few words for the search's note."""
FUMBLES: dict[str, Callable[..., None]] = {}
"""Chapter id -> ``fn(g, el, area, stands, feature_id)``: a natural 1 (G-35: it sets off a booby trap there)."""
MODIFIERS: dict[str, Callable[..., list[Modifier]]] = {}
"""Chapter id -> ``fn(g, area, stands, feature_id) -> list[Modifier]``: a chapter's modifiers to the test."""


def register_finder(chapter_id: str, fn: Finder) -> None:
    FINDERS[chapter_id] = fn


def register_fumble(chapter_id: str, fn: Callable[..., None]) -> None:
    FUMBLES[chapter_id] = fn


def register_modifier(chapter_id: str, fn: Callable[..., list[Modifier]]) -> None:
    MODIFIERS[chapter_id] = fn


def _hooks(g: Game, registry: dict[str, Callable[..., Any]]) -> list[Callable[..., Any]]:
    """The registered hooks of the chapters active in this game, in chapter-id order."""
    from game.rules.chapters import CHAPTERS

    return [fn for cid, fn in sorted(registry.items()) if cid in CHAPTERS and CHAPTERS[cid].active(g)]


def ground_searchable(g: Game) -> bool:
    """May the ground be searched (DD-9B.3)? Only while a chapter with something to find there is active."""
    return bool(_hooks(g, FINDERS))


# -- the tables (game/data/search.toml) ----------------------------------------------------------------
@dataclass(frozen=True)
class SearchRules:
    clause: str
    target: int
    reach: float
    features: list[str] = field(metadata=refers("terrain"))
    """The terrain types that may be searched (DD-2.15)."""
    bonus_roles: list[str] = field(metadata=one_of(ROLES))
    bonus: int
    night: int
    contents_margin: float
    """What is "in" a feature: within this of its footprint (a marker's centre, a stand's centre)."""
    village: list[str] = field(metadata=refers("terrain"))
    """The terrain types where the Civic Drift tier modifies a search (G-13 "in the village")."""


@dataclass(frozen=True)
class CivicTier:
    """One G-13 tier of the Civic Drift track (DD-9B.8) and its Search modifier."""

    low: int
    high: int
    tier: str
    value: int
    clause: str


@dataclass(frozen=True)
class SearchTables:
    search: SearchRules
    civic: tuple[CivicTier, ...]

    def tier(self, drift: int) -> CivicTier:
        for row in self.civic:
            if row.low <= drift <= row.high:
                return row
        raise KeyError(drift)


def load_search(directory: Path = DATA_DIR, book: Rulebook | None = None) -> SearchTables:
    """Load ``search.toml`` strictly: known keys, a clause everywhere, terrain types the rulebook has,
    and Civic tiers that cover the track (DD-9B.8, the bounds ``detection.toml`` clamps it to) once."""
    name = "search.toml"
    built, doc = load_sections(name, {"search": SearchRules}, directory, also=("civic",))
    rows = tuple(build(CivicTier, raw, name, f"[[civic]] {i}") for i, raw in enumerate(doc.get("civic", [])))
    rb = detection.rules().recon_by_fire
    covered = sorted(d for r in rows for d in range(r.low, r.high + 1))
    if covered != list(range(rb.drift_min, rb.drift_max + 1)):
        raise DataError(name, "[[civic]]", f"the tiers must cover the track {rb.drift_min}..{rb.drift_max} exactly "
                                           f"once, they cover {covered}")
    for i, r in enumerate(rows):
        if not r.clause.strip():
            raise DataError(name, f"[[civic]] {i}", "field 'clause' must cite a clause")
    s = built["search"]
    if s.reach <= 0 or s.contents_margin < 0:
        raise DataError(name, "[search]", "reach must be positive and contents_margin not negative")
    check_chapter_refs(name, {"[search]": s}, book or rulebook())
    return SearchTables(search=s, civic=rows)


def rules(g: Game) -> SearchTables:
    """The search tables as this game's rulebook has them (``chapters.tables``)."""
    return tables(g.book, "search")


# -- its state ----------------------------------------------------------------------------------------
@dataclass
class SearchState:
    """Search / Pacify's state (``GameState.chapters["search"]``), made by the first thing it records."""

    searched: list[str] = field(default_factory=list)
    """The features searched with success, in order (G-35; C-10's "unsearched hootch")."""
    drift: int = 0
    """The Civic Drift track as the last Tension Phase left it: the G-13 tier in force (DD-9B.8)."""


def _state(g: Game, make: bool = False) -> SearchState | None:
    st = state_of(g, "search")
    if st is None and make:
        st = SearchState()
        set_state(g, "search", st)
    return st


def searched(g: Game, feature_id: str) -> bool:
    """Has this feature been searched with success (G-35)? For the Jungle Ghost (DD-10.13, C-10) and the
    cache and booby-trap rules."""
    st = _state(g)
    return st is not None and feature_id in st.searched


def civic_drift_in_force(g: Game) -> int:
    """The Civic Drift the G-13 tier is read from: the track at the last Tension Phase."""
    st = _state(g)
    return st.drift if st is not None else 0


def tension(g: Game) -> None:
    """Phase 1: the Civic Drift tier in force from now (G-13 "tier effects apply from the next Tension
    Phase"). Nothing is recorded while the track has stayed Neutral at 0."""
    drift = g.state.civic_drift
    st = _state(g, make=drift != 0)
    if st is not None:
        st.drift = drift


# -- what may be searched ------------------------------------------------------------------------------
def searchable(g: Game) -> list[TerrainHit]:
    """The features on the table a search may target (DD-2.15), in scenario order."""
    return list(g.table.of_terrain(rules(g).search.features))  # (a feature's terrain is its type)


def feature_hit(g: Game, feature_id: Any) -> TerrainHit | None:
    if not isinstance(feature_id, str):
        return None
    return next((h for h in g.table.hits if h.feature.id == feature_id), None)


def _near(g: Game, stands: list[Stand], hit: TerrainHit) -> list[Stand]:
    reach = rules(g).search.reach + 1e-9
    m = reach + 1e-6  # boxes further apart than this: the shapes are out of reach, nothing to work out
    return [st for st in stands if not apart_by(bounds_of(g.book, st), hit.box, m)
            and base_of(g.book, st).distance(hit.shape) <= reach]


@table_memo(lambda el: el.id)
def in_reach(g: Game, el: Element) -> list[tuple[TerrainHit, list[Stand]]]:
    """Each searchable feature within 2" of the element, with its stands within reach (DD-2.15)."""
    stands = g.state.living(el)
    if not stands:
        return []
    reach = rules(g).search.reach + 1e-9
    m = reach + 1e-6  # boxes further apart than this: the shapes are out of reach (as ``_near``)
    zone = around([bounds_of(g.book, st) for st in stands], m)
    out = []
    for h in searchable(g):
        if apart(h.box, zone):
            continue  # apart from every stand's box: none is near (``_near``)
        near = _near(g, stands, h)
        if near:
            out.append((h, near))
    return out


def _what(g: Game, hit: TerrainHit | None) -> str:
    if hit is None:
        return "the ground around it"
    return f"{g.book.terrain[hit.feature.type].name.split(' (')[0].lower()} {hit.feature.id}"


def ground_area(g: Game, stands: list[Stand]):
    """The ground a search of ``feature = "ground"`` covers: within 2" of the searching stands' bases."""
    reach = rules(g).search.reach
    return unary_union([base_of(g.book, st).buffer(reach, quad_segs=8) for st in stands])


def search_modifiers(g: Game, hit: TerrainHit | None, stands: list[Stand], area: Any = None) -> list[Modifier]:
    """Every modifier to a search of ``hit`` (None: the ground ``area``) by these stands (G-35, G-13, and
    each active chapter's own)."""
    t = rules(g)
    r = t.search
    mods: list[Modifier] = []
    roles = sorted({g.book.stands[s.type].role for s in stands} & set(r.bonus_roles))
    if roles:
        mods.append(Modifier(f"{roles[0].replace('_', ' ')} searching", r.bonus, "G-35"))
    for fn in _hooks(g, MODIFIERS):
        mods += fn(g, area if hit is None else hit.shape, stands, None if hit is None else hit.feature.id)
    if hit is not None and hit.feature.type in r.village:
        drift = civic_drift_in_force(g)
        tier = t.tier(drift)
        if tier.value:
            mods.append(Modifier(f"Civic Drift {tier.tier} ({drift:+d})", tier.value, f"{tier.clause}; DD-9B.8"))
    if sight().time[g.state.time_of_day].night:
        mods.append(Modifier("night", r.night, "G-35"))
    return mods


def contents(g: Game, hit: TerrainHit) -> tuple[list[Blind], list[Element]]:
    """What an Allied search of ``hit`` finds (G-35): the Insurgent Blind markers in it (real, Dummy or a
    Jungle Ghost Shadow Blind) and the Insurgent elements on the table in Hold/Conceal in it."""
    margin = rules(g).search.contents_margin
    shape = hit.shape

    def inside(x: float, y: float) -> bool:
        return shape.distance(Point(x, y)) <= margin + 1e-9

    s = g.state
    blinds = [b for b in s.blinds.values() if b.side == "insurgent" and inside(b.x, b.y)]
    hiding = [el for el in s.elements.values()
              if el.side == "insurgent" and el.conceal and s.on_table(el)
              and any(inside(st.x, st.y) for st in s.living(el))]
    return blinds, hiding


# -- the action ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SearchPlan:
    hit: TerrainHit | None
    """The feature searched, or None for the ground (DD-9B.3)."""
    stands: list[Stand]
    modifiers: list[Modifier]
    area: Any
    """The area searched: the feature's footprint, or the ground within reach of the stands."""

    @property
    def feature_id(self) -> str | None:
        return None if self.hit is None else self.hit.feature.id


class Search(ActionKind):
    """Search / Pacify (DD-2.15, G-35): an Allied element searches one feature within 2"."""

    type = "search"

    def possible(self, g: Game, side: str, types: frozenset[str]) -> bool:
        return side == "allied"  # DD-2.15: an Allied element searches

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        if el.side != "allied":
            return []
        found = in_reach(g, el)
        ground = ground_searchable(g)
        if not found and not ground:
            return []
        r = rules(g).search
        choices = [h.feature.id for h, _ in found] + ([GROUND] if ground else [])
        what = "a hootch, bunker or spider hole" + (" or the ground" if ground else "")
        return [{"type": self.type, **common, "clause": CLAUSE + ("; DD-9B.3" if ground else ""),
                 "label": f"{el.name}: Search / Pacify {what} within {r.reach:g}\", {r.target}+ ({price})",
                 "params": {"feature": {"kind": "feature", "choices": choices,
                                        "doc": f"{what} within {r.reach:g}\""}}}]

    def check(self, g: Game, el: Element, action: dict) -> SearchPlan:
        r = rules(g).search
        if el.side != "allied":
            raise IllegalAction("Search / Pacify is an Allied action", "DD-2.15")
        fid = action.get("feature")
        if fid == GROUND and ground_searchable(g):
            stands = g.state.living(el)
            if not stands:
                raise IllegalAction(f"{el.name} has no stand on the table to search with", CLAUSE)
            area = ground_area(g, stands)
            return SearchPlan(None, stands, search_modifiers(g, None, stands, area), area)
        hit = feature_hit(g, fid)
        if hit is None:
            raise IllegalAction(f"no terrain feature {fid!r} on the table", "DD-2.15")
        if hit.feature.type not in r.features:
            raise IllegalAction(f"{fid} is {g.book.terrain[hit.feature.type].name.lower()}: only a hootch, bunker "
                                f"or spider hole is searched", CLAUSE)
        near = _near(g, g.state.living(el), hit)
        if not near:
            raise IllegalAction(f"no stand of {el.name} is within {r.reach:g}\" of {_what(g, hit)}", CLAUSE)
        return SearchPlan(hit, near, search_modifiers(g, hit, near), hit.shape)

    def resolve(self, g: Game, el: Element, action: dict, plan: SearchPlan) -> None:
        hit = plan.hit
        what = _what(g, hit)
        ev = resolve_test(g.dice, purpose="Search", target=rules(g).search.target, modifiers=plan.modifiers,
                          clause=CLAUSE, side=el.side, element=el.id, subject=f"{el.name} searches {what}")
        g.emit(ev, visible=g.visibility_of_element(el))
        if ev["result"] != "pass":
            if ev["dice"][0] == 1:  # G-35: a natural 1 sets off any booby trap there
                for fn in _hooks(g, FUMBLES):
                    fn(g, el, plan.area, plan.stands, plan.feature_id)
            return  # G-35, DESIGN §6: nothing more, whatever is there
        if hit is None:
            self._found(g, el, plan, what, [])
            return
        blinds, hiding = contents(g, hit)
        st = _state(g, make=True)
        if hit.feature.id not in st.searched:
            st.searched.append(hit.feature.id)
        if g.state.solo is not None:  # G-12: the player searched a hootch this turn
            g.state.solo.progress = max(g.state.solo.progress, g.state.turn)
        found = [f"Blind {b.id}" for b in blinds] + [f"{h.name} in Hold/Conceal" for h in hiding]
        self._found(g, el, plan, what, found)
        for b in blinds:
            detection.reveal(g, b, f"found by {el.name}'s search of {hit.feature.id}", CLAUSE, by=el)
        for h in hiding:
            h.conceal = False
            g.emit({"type": "status", "element": h.id, "status": "conceal", "on": False, "clause": f"{CLAUSE}; G-32",
                    "text": f"{h.name} is found in {what}: no longer concealed"})

    def _found(self, g: Game, el: Element, plan: SearchPlan, what: str, found: list[str]) -> None:
        """The search's note, after each active chapter's finder has revealed what of its lies there."""
        hooks = _hooks(g, FINDERS)
        if not hooks:
            g.emit({"type": "note", "element": el.id, "clause": CLAUSE,
                    "text": f"{el.name} searches {what}: " + (f"found {', '.join(found)}" if found
                                                               else "nothing hidden there")})
            return
        more: list[str] = []
        for fn in hooks:
            more += fn(g, el, plan.area, plan.stands, plan.feature_id)
        found = found + more
        g.emit({"type": "note", "element": el.id, "clause": CLAUSE if plan.hit is not None else f"{CLAUSE}; DD-9B.3",
                "text": f"{el.name} searches {what}: " + (f"found {', '.join(found)}" if found
                                                           else "nothing hidden there")})

    def odds(self, g: Game, el: Element, action: dict, plan: SearchPlan) -> dict:
        """The chance of the search (G-31 naturals), from what the searcher may know: its modifiers."""
        base = rules(g).search.target
        needed = need(base, plan.modifiers)
        return {"feature": plan.feature_id or GROUND, "base": base, "need": needed,
                "modifiers": [m.to_dict() for m in plan.modifiers], "p_success": p_success(needed)}


register(Search())


# -- the chapter ---------------------------------------------------------------------------------------
def markers(g: Game) -> list[dict]:
    """Public: each feature searched with success (both sides saw the search)."""
    st = _state(g)
    if st is None:
        return []
    out = []
    for fid in st.searched:
        hit = feature_hit(g, fid)
        if hit is None:
            continue
        c = hit.shape.representative_point() if hit.feature.point is None else Point(hit.feature.point)
        out.append({"id": f"searched_{fid}", "kind": "searched", "x": round(c.x, 3), "y": round(c.y, 3)})
    return out


class SearchChapter(Chapter):
    """Search / Pacify (DD-2.15) on the chapter seam: in every game."""

    id = "search"
    title = "DD chapter 2: Search / Pacify"
    actions = ("search",)
    state_type = SearchState
    table_fields = ("searched",)

    def new_state(self, g: Game) -> None:
        return None  # made by the first success or Civic Drift it records (a game without stays as it was)

    def load_tables(self, book: Rulebook) -> SearchTables:
        return load_search(book=book)

    def steps(self) -> tuple[Step, ...]:
        return (Step("tension", 35, tension, "G-13", self.id),)

    def markers(self, g: Game, side: str) -> list[dict]:
        return markers(g)


CHAPTER = register_chapter(SearchChapter())
