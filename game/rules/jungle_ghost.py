"""The Jungle Ghost: the solo Insurgent engine's rules with dice (DD chapter 10; G-09, G-12, G-24, G-40).

When the Jungle Ghost plays the Insurgent side, :func:`enable` seeds the Shadow Blinds before the first
turn (DD-10.3–10.4: 6 on a 4'x4' table, 8 on a 6'x4'; one in each hootch or bunker, one along each tree
line, the rest by the G-40 quarter roll), keeps its own state in ``GameState.solo`` and installs its
turn-phase parts as ``Game.hooks``:

* ``tension`` (Phase 1): the Doom Clock (DD-10.15, G-12) and its effects (Stirring, Reinforcements,
  Mortar Harassment, Lights Out); the AI holds no Ambush Tokens (G-29, C-23).
* ``move`` (inside and after an Allied move; see :func:`on_move`): the three detection phases (G-24): Sensing
  turns a Shadow Blind into an Echo, the Ambush Reaction Roll (DD-10.7) and the Contact Reveal Table
  (DD-10.8, G-09), with the ambush volley and the Allied Discipline Check (DD-2.27–2.30).
* ``fade`` (Phase 3): the Disengagement Check (DD-10.11), Snatch & Fade (DD-10.12, DD-3.13),
  regeneration (DD-10.13, G-40), Clinging to the Belt (DD-10.14, C-10 adopts 4"), and the capture of
  abandoned Communist Casualty Tokens (DD-3.14, G-33 (4)) which the fade contends with.

Every die is an explained ``roll`` event; every table is data (``game/data/jungle_ghost.toml``).

Wiring (docs/ai.md): ``reactions.interrupt`` calls ``hooks['move']`` (:func:`on_move`) from inside an
Allied move, so the Ambush Reaction Roll freezes the move at the trigger point (DD-10.7); a Spotting
Test or Recon by Fire that flips a Shadow Blind rolls the Contact Reveal Table through
:func:`reveal_spotted` (DD-4.24 note, DD-10.8); :func:`watch` runs from the AI's turn and at the start
of Phase 3 to catch Sensing at the end of a move. The Shadow Blinds make up the scenario's own
Insurgent force to the DD-10.3 count (:func:`shadow_count`).

What it leaves out: the AI's decisions (game/ai/ghost.py chooses; this module only rolls), Shadow
Blinds moving (they wait where placed until the Green Fog's moving blinds land), spider holes, bunkers,
RPGs and the level-3 mortar marker in reveal results (not modelled: no such terrain or stand types
yet), searching hootches. A stand that fades by an open tunnel entrance goes down it (``fade_below``,
DD-10.11, DD-10.13); moving in the network is the AI's choice (game/ai/tunnels.py) among the tunnels chapters'
actions.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shapely.geometry import Point, box
from shapely.ops import nearest_points, unary_union

from game.rules import fade, fire, reactions
from game.rules.chapters import Chapter, Step, register_chapter, set_state, tables
from game.rules.data import (
    DATA_DIR,
    DataError,
    Rulebook,
    build,
    check_chapter_refs,
    load_sections,
    one_of,
    refers,
    rulebook,
)
from game.rules.dice import Modifier, resolve_test
from game.rules.scenario import ELEMENT_KINDS
from game.rules.state import Blind, Element, Stand, base_of
from game.terrain import sight
from game.world import shapes

if TYPE_CHECKING:
    from game.rules.game import Game


# -- the tables (game/data/jungle_ghost.toml) -------------------------------------------------------
REVEAL_KINDS = ("false_alarm", "booby_trap", "force")
GROUP_PLACES = ("echo", "rear")
QUARTERS = ("far_left", "far_right", "near_left", "near_right")
"""The table quarters of the G-40 roll (far/near, left/right: where a Shadow Blind goes)."""


@dataclass(frozen=True)
class Setup:
    clause: str
    blinds_small: int
    blinds_large: int
    small_area: float
    large_area: float
    min_from_player: float
    min_between: float
    structures: list[str] = field(metadata=refers("terrain"))
    treelines: list[str] = field(metadata=refers("terrain"))
    cover: list[str] = field(metadata=refers("terrain"))
    quarters: list[str] = field(metadata=one_of(QUARTERS))


@dataclass(frozen=True)
class Sensing:
    """Sensing (G-24 A): within the cutoff of the marker's terrain, at most the open limit (sight.toml)."""

    clause: str


@dataclass(frozen=True)
class Reaction:
    clause: str
    trigger_open: float
    trigger_dense: float
    wait_max: int
    wait_max_stirring: int
    place_within: float
    rear_within: float


@dataclass(frozen=True)
class Fade:
    clause: str
    need: int
    shelter: float
    shelters: list[str] = field(metadata=refers("terrain"))
    cling: float
    snatch: float
    hootch_need: int
    active: str = field(metadata=one_of(("all", "engaged", "hurt")))
    """Which AI elements on the table count as "active" for the Disengagement Check (DD-10.11)."""
    capture_enemy_free: float
    capture_vp: int


@dataclass(frozen=True)
class Doom:
    clause: str
    start_turn: int
    tick: int
    no_progress: int
    stirring: int
    reinforcements: int
    reinforcement_blinds: int
    mortar: int
    lights_out: int
    mortar_fp: int
    mortar_radius: float
    reveal_bonus: int
    names: dict[str, str]
    """The clock's named levels (G-12): threshold field -> name."""
    quiet: str
    """The clock's name below every level."""

    def level(self, doom: int) -> str:
        """The Doom Clock's name at ``doom``: the highest level it has reached (G-12)."""
        reached = [(getattr(self, key), name) for key, name in self.names.items() if doom >= getattr(self, key)]
        return max(reached)[1] if reached else self.quiet


@dataclass(frozen=True)
class RevealRow:
    level: int
    roll: int
    clause: str
    kind: str = field(metadata=one_of(REVEAL_KINDS))
    text: str
    groups: list[dict] = field(default_factory=list)
    tunnel: bool = False
    trap_bonus: int = 0


@dataclass(frozen=True)
class GhostRules:
    setup: Setup
    sensing: Sensing
    reaction: Reaction
    fade: Fade
    doom: Doom
    reveal: dict
    """(level, roll) -> RevealRow"""
    trap: dict
    """roll -> ``booby_traps.TrapRow``: the one G-08 table (game/data/booby_traps.toml)"""


@dataclass(frozen=True)
class RevealGroup:
    """One group a reveal result places (G-09). Checked as a record; the table keeps it as a dict."""

    name: str
    kind: str = field(metadata=one_of(ELEMENT_KINDS))
    quality: str = field(metadata=refers("qualities"))
    stands: list[str] = field(metadata=refers("stands"))
    place: str = field(metadata=one_of(GROUP_PLACES))


def load_ghost(directory: Path = DATA_DIR, book: Rulebook | None = None) -> GhostRules:
    """Load ``jungle_ghost.toml`` strictly: known sections and keys, a clause in each, a full table,
    vocabularies, and terrain, qualities and (insurgent) stand types that ``book`` (by default the
    shipped rulebook) has."""
    name = "jungle_ghost.toml"
    book = book or rulebook()
    sections = {"setup": Setup, "sensing": Sensing, "reaction": Reaction, "fade": Fade, "doom": Doom}
    built, doc = load_sections(name, sections, directory, also=("reveal",))
    refs: dict[str, Any] = {f"[{k}]": v for k, v in built.items()}
    doom = built["doom"]
    thresholds = {f.name for f in dataclasses.fields(Doom) if isinstance(getattr(doom, f.name), int)}
    for key in doom.names:
        if key not in thresholds:
            raise DataError(name, "[doom]", f"names {key!r} is not one of the clock's levels {sorted(thresholds)}")
    reveal: dict[tuple[int, int], RevealRow] = {}
    for i, raw in enumerate(doc.get("reveal", [])):
        rec = f"reveal[{i}]"
        row = build(RevealRow, raw, name, rec)
        for j, grp in enumerate(row.groups):
            group = build(RevealGroup, grp, name, f"{rec} groups[{j}]")
            refs[f"{rec} groups[{j}]"] = group
            for t in group.stands:
                if t in book.stands and book.stands[t].side != "insurgent":
                    raise DataError(name, f"{rec} groups[{j}]",
                                    f"stands {t!r} is not an insurgent stand type (the Jungle Ghost places insurgents)")
        if row.kind == "force" and not row.groups:
            raise DataError(name, rec, "a force result needs groups")
        if (row.level, row.roll) in reveal:
            raise DataError(name, rec, f"duplicate row level {row.level} roll {row.roll}")
        reveal[(row.level, row.roll)] = row
    for level in (1, 2, 3):
        for roll in range(1, 7):
            if (level, roll) not in reveal:
                raise DataError(name, "reveal", f"missing row level {level} roll {roll} (G-09)")
    from game.rules.booby_traps import load_booby_traps

    check_chapter_refs(name, refs, book)
    return GhostRules(reveal=reveal, trap=load_booby_traps(directory, book).trap, **built)  # G-08: the one table


def rules(g: Game) -> GhostRules:
    """The Jungle Ghost's tables as this game's rulebook has them (``chapters.tables``)."""
    return tables(g.book, "jungle_ghost")


def check_references(book) -> list[str]:
    """Stand types and qualities named by the reveal table that the rulebook lacks."""
    out = []
    for (lv, r), row in sorted(tables(book, "jungle_ghost").reveal.items()):
        for grp in row.groups:
            if grp["quality"] not in book.qualities:
                out.append(f"reveal level {lv} roll {r}: unknown quality {grp['quality']!r}")
            out += [f"reveal level {lv} roll {r}: unknown stand type {t!r}" for t in grp["stands"]
                    if t not in book.stands]
    return out


# -- its state ------------------------------------------------------------------------------------
@dataclass
class GhostState:
    """The Jungle Ghost's own state while it plays the Insurgent side (``GameState.chapters``)."""

    entry: str = "south"
    """The table edge its forces come from (DD-10.4): its "far" side."""
    doom: int = 0
    """The Doom Clock (DD-10.15, G-12)."""
    progress: int = 0
    """The last turn the Allies made progress (G-12: a turn without it adds to the clock)."""
    stirring: bool = False
    reinforced: bool = False
    next: int = 1
    """The number of the next Shadow Blind (``sb01``, ...)."""
    spawned: int = 0
    """Elements it has placed so far (``jg01``, ...)."""
    shadows: dict[str, str] = field(default_factory=dict)
    """Its Shadow Blinds by id: "shadow" or "echo" (DD-10.3, G-24)."""
    reacted: dict[str, list] = field(default_factory=dict)
    """The Allied move each Echo last reacted to (one reaction roll per move, DD-10.7)."""
    faded: list[str] = field(default_factory=list)
    """Elements gone back into the jungle (DD-10.12): not Allied kills."""
    pos: dict[str, list] = field(default_factory=dict)
    """Where the Allied stands stood when it last looked (Sensing after a move, G-24)."""
    bpos: dict[str, list] = field(default_factory=dict)
    """Where the Allied Blind markers stood when it last looked."""
    cleared: list = field(default_factory=list)
    """[Insurgent markers, Insurgent stands put down] at the last Tension Phase (G-12 progress)."""


# -- enabling -------------------------------------------------------------------------------------
def active(g: Game) -> bool:
    return g.state.solo is not None


def enable(g: Game) -> None:
    """Make the Jungle Ghost play the Insurgent side: seed the Shadow Blinds (DD-10.3–10.4) and install
    the hooks. Call before the first Engagement phase; a second call does nothing."""
    if active(g):
        return
    s = g.state
    set_state(g, "jungle_ghost", GhostState(entry=entry_edge(g)))
    count, why = shadow_count(g)
    g.emit({"type": "jungle_ghost", "threat": s.threat, "blinds": count, "clause": "DD-10.3; DD-10.5",
            "text": f"The Jungle Ghost takes the Insurgent side at Threat Level {s.threat}: "
                    f"{count} Shadow Blinds ({why})"})
    placed = 0
    for x, y, why in _priority_spots(g):
        if placed >= count:
            break
        if _spot_ok(g, x, y):
            _place_shadow(g, x, y, why)
            placed += 1
    tries = 0
    while placed < count and tries < 40:
        tries += 1
        spot = _quarter_spot(g)
        if spot is not None:
            _place_shadow(g, *spot, "DD-10.4 (3); G-40")
            placed += 1
    s.solo.pos = _allied_positions(g)
    s.solo.cleared = list(_cleared(g))
    if s.turn >= 1 and s.phase in ("tension", "engagement"):
        _drop_tokens(g)


def table_count(g: Game) -> int:
    """DD-10.3: 6 Shadow Blinds on a 4'x4' table, 8 on a 6'x4' (in between: the nearer)."""
    r = rules(g).setup
    area = g.scenario.width * g.scenario.height
    return r.blinds_small if abs(area - r.small_area) <= abs(area - r.large_area) else r.blinds_large


def scenario_force(g: Game) -> int:
    """The scenario's own Insurgent contacts: each Insurgent Blind (Dummy or not) once, and each
    Insurgent element not under a Blind (on the table or in the Reserve Hand) once."""
    s = g.state
    blinds = sum(1 for b in s.blinds.values() if b.side == "insurgent" and b.id not in (s.solo.shadows if s.solo else {}))
    loose = sum(1 for el in s.elements.values() if el.side == "insurgent" and el.blind is None and el.stands)
    return blinds + loose


def shadow_count(g: Game) -> tuple[int, str]:
    """Engine policy (docs/ai.md): the scenario's Insurgent order of battle is the Jungle Ghost's, and
    Shadow Blinds only make up the difference to the DD-10.3 count, unless the scenario sets
    ``shadow_blinds``."""
    own = getattr(g.scenario, "shadow_blinds", None)
    if own is not None:
        return own, "set by the scenario"
    full = table_count(g)
    force = scenario_force(g)
    if not force:
        return full, "DD-10.3"
    return max(0, full - force), f"DD-10.3's {full} less the scenario's {force} Insurgent contacts"


# -- geometry -------------------------------------------------------------------------------------
def entry_edge(g: Game) -> str:
    """The Allied entry edge (G-40): the table edge nearest the mean Allied position."""
    st = [x for x in g.state.stands.values() if x.side == "allied"]
    w, h = g.scenario.width, g.scenario.height
    if not st:
        return "south"
    mx = sum(s.x for s in st) / len(st)
    my = sum(s.y for s in st) / len(st)
    d = {"south": my, "north": h - my, "west": mx, "east": w - mx}
    return min(d, key=lambda k: (d[k], k))


def to_table(g: Game, u: float, v: float) -> tuple[float, float]:
    """A point given across (u: left 0 -> right 1) and deep (v: near 0 -> far 1) from the entry edge."""
    w, h = g.scenario.width, g.scenario.height
    edge = g.state.solo.entry if g.state.solo else "south"
    if edge == "south":
        return u * w, v * h
    if edge == "north":
        return (1 - u) * w, (1 - v) * h
    if edge == "west":
        return v * w, (1 - u) * h
    return (1 - v) * w, u * h


def _features(g: Game, types) -> list:
    return [h for h in g.table.hits if h.feature.type in types]


def _allied_positions(g: Game) -> dict:
    return {s.id: [s.x, s.y] for s in g.state.side_stands("allied")}


def _near_player(g: Game, x: float, y: float, dist: float) -> bool:
    p = Point(x, y)
    return any(base_of(g.book, s).distance(p) < dist for s in g.state.side_stands("allied"))


def _spot_ok(g: Game, x: float, y: float) -> bool:
    r = rules(g).setup
    if not (1.0 <= x <= g.scenario.width - 1.0 and 1.0 <= y <= g.scenario.height - 1.0):
        return False
    if _near_player(g, x, y, r.min_from_player):
        return False
    return all(math.hypot(b.x - x, b.y - y) >= r.min_between for b in g.state.blinds.values())


def _inside(shape, towards: Point) -> Point:
    """A point 1" inside a feature, on the side facing ``towards`` (its edge, in cover)."""
    inner = shape.buffer(-1.0)
    if inner.is_empty:
        return shape.representative_point()
    return nearest_points(inner, towards)[0]


def _priority_spots(g: Game) -> list[tuple[float, float, str]]:
    """DD-10.4 (1) one inside each hootch or bunker, (2) one along each tree line, in scenario order."""
    r = rules(g).setup
    centre = Point(g.scenario.width / 2, g.scenario.height / 2)
    out = []
    for h in _features(g, r.structures):
        c = h.shape.representative_point()
        out.append((round(c.x, 2), round(c.y, 2), "DD-10.4 (1)"))
    for h in _features(g, r.treelines):
        p = _inside(h.shape, centre)
        out.append((round(p.x, 2), round(p.y, 2), "DD-10.4 (2)"))
    return out


def _quarter_spot(g: Game) -> tuple[float, float] | None:
    """G-40: roll for the table quarter (5–6 reroll); the medium or dense cover nearest its centre."""
    r = rules(g).setup
    die = g.dice.d6()
    if die > len(r.quarters):
        g.emit({"type": "roll", "purpose": "Shadow Blind quarter", "side": "insurgent", "element": None,
                "dice": [die], "target": None, "modifiers": [], "need": None, "result": "reroll",
                "clause": "DD-10.4 (3); G-40", "text": f"Shadow Blind quarter: rolled {die}, reroll"})
        return None
    quarter = r.quarters[die - 1]
    u0 = 0.0 if quarter.endswith("left") else 0.5
    v0 = 0.5 if quarter.startswith("far") else 0.0
    a, b = to_table(g, u0, v0), to_table(g, u0 + 0.5, v0 + 0.5)
    qbox = box(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
    centre = qbox.centroid
    g.emit({"type": "roll", "purpose": "Shadow Blind quarter", "side": "insurgent", "element": None,
            "dice": [die], "target": None, "modifiers": [], "need": None, "result": quarter,
            "clause": "DD-10.4 (3); G-40", "text": f"Shadow Blind quarter: rolled {die}, {quarter.replace('_', ' ')}"})
    cover = [h.shape.intersection(qbox) for h in _features(g, r.cover)]
    cover = [c for c in cover if not c.is_empty and c.area > 0]
    start = nearest_points(unary_union(cover), centre)[0] if cover else centre
    return _search(g, start.x, start.y, inside=qbox)


def _search(g: Game, x: float, y: float, inside=None, limit: float = 12.0) -> tuple[float, float] | None:
    """The nearest valid spot to (x, y), spiralling out 1" at a time (deterministic)."""
    for ring in range(0, int(limit) + 1):
        steps = 1 if ring == 0 else 8 * ring
        for k in range(steps):
            ang = 2 * math.pi * k / steps
            px, py = round(x + ring * math.cos(ang), 2), round(y + ring * math.sin(ang), 2)
            if inside is not None and not inside.covers(Point(px, py)):
                continue
            if _spot_ok(g, px, py):
                return px, py
    return None


def _place_shadow(g: Game, x: float, y: float, clause: str) -> str:
    s = g.state
    bid = f"sb{s.solo.next:02d}"
    s.solo.next += 1
    s.blinds[bid] = Blind(bid, "insurgent", x, y, dummy=False, elements=[])
    s.blinds = dict(sorted(s.blinds.items()))
    s.solo.shadows[bid] = "shadow"
    s.solo.shadows = dict(sorted(s.solo.shadows.items()))
    g.emit({"type": "blind", "blind": bid, "side": "insurgent", "x": x, "y": y, "shadow": True,
            "clause": clause, "text": f"A Shadow Blind is placed ({bid})"})
    return bid


def _drop_tokens(g: Game) -> None:
    """G-29: the solo AI uses no Ambush Tokens; its ambushes use the Reaction Roll (C-23)."""
    side = g.state.sides["insurgent"]
    if side.ambush_tokens:
        side.ambush_tokens = 0
        g.emit({"type": "tokens", "side": "insurgent", "income": 0, "tokens": 0, "clause": "G-29; C-23",
                "text": "The Jungle Ghost holds no Ambush Tokens: it ambushes by the Reaction Roll"},
               visible="insurgent")


# -- Phase 1: the Doom Clock (DD-10.15, G-12) --------------------------------------------------------


def tension(g: Game) -> None:
    """The Doom Clock ticks (G-12), then its effects apply; the AI's tokens are dropped (G-29)."""
    s = g.state
    if not active(g):
        return
    _drop_tokens(g)
    d = rules(g).doom
    solo = s.solo
    if s.turn < d.start_turn:
        return
    mods = [Modifier("Tension Phase from turn 2", d.tick, "G-12")]
    _note_progress(g)
    if solo.progress < s.turn - 1:
        mods.append(Modifier("no Echo, Blind or marker revealed or cleared last turn", d.no_progress, "G-12"))
    before = solo.doom
    solo.doom = before + sum(m.value for m in mods)
    level = d.level(solo.doom)
    g.emit({"type": "doom_clock", "doom": solo.doom, "before": before, "modifiers": [m.to_dict() for m in mods],
            "level": level, "clause": "DD-10.15; G-12",
            "text": f"Doom Clock {before} -> {solo.doom}" + "".join(f", {m.name} {m.value:+d}" for m in mods)
                    + f": {level}"})
    if solo.doom >= d.stirring and not solo.stirring:
        solo.stirring = True
        g.emit({"type": "note", "clause": "G-12", "text": "Stirring: the Spider Waits only on a 1; "
                "Contact Reveal +1"})
    if solo.doom >= d.reinforcements and not solo.reinforced:
        solo.reinforced = True
        for _ in range(d.reinforcement_blinds):
            spot = _edge_spot(g, far=False)
            if spot is not None:
                _place_shadow(g, *spot, "G-12 Reinforcements")
    if solo.doom >= d.mortar:
        mortar(g)
    if solo.doom >= d.lights_out and s.turns > s.turn:
        s.turns = s.turn
        g.emit({"type": "note", "clause": "G-12", "text": "Lights Out: the game ends at the end of this turn"})


def _cleared(g: Game) -> tuple[list, int]:
    s = g.state
    faded = {sid for eid in s.solo.faded for sid in s.elements[eid].stands}
    markers = sorted(b.id for b in s.blinds.values() if b.side == "insurgent")
    dead = sum(1 for st in s.stands.values() if st.side == "insurgent" and not st.alive and st.id not in faded)
    return markers, dead


def _note_progress(g: Game) -> None:
    """G-12 "reveal, search or clear at least one Echo, Shadow Blind, hootch or marker": besides the
    Shadow Blinds resolved (:func:`reveal`), any Insurgent marker gone since the last Tension Phase
    (spotted, revealed, Recon by Fire) or Insurgent stand put down by the Allies counts. Engine reading:
    a platoon clearing the enemy in a firefight is not crawling (DD-10.15)."""
    s = g.state
    markers, dead = _cleared(g)
    last = s.solo.cleared
    if last is not None and (set(last[0]) - set(markers) or dead > last[1]):
        s.solo.progress = max(s.solo.progress, s.turn - 1)
    s.solo.cleared = [markers, dead]


def _edge_spot(g: Game, far: bool) -> tuple[float, float] | None:
    """G-40: jungle nearest the midpoint of the far edge (regeneration) or of the entry edge
    (G-12 Reinforcements), at least 6" from any player stand."""
    mid = Point(*to_table(g, 0.5, 1.0 if far else 0.0))
    jungle = [h.shape for h in _features(g, rules(g).fade.shelters) if h.feature.type not in ("hootch", "bunker")]
    start = nearest_points(unary_union(jungle), mid)[0] if jungle else mid
    spot = _search(g, start.x, start.y, limit=16.0)
    if spot is None:
        g.emit({"type": "note", "clause": "G-40", "text": "No room for a new Shadow Blind"})
    return spot


def mortar(g: Game) -> None:
    """G-12 Mortar Harassment: an 82mm mission (Medium blast, 3 FP, unobserved 2d6 drift, no delay) on the
    player element with the most stands in open or light terrain. The blast is one template attack
    (``game.rules.template``, DD-8.10): 3 FP on every stand under it, friend or foe, each with its own
    save and Look Out, Sir! (DD-5.9, G-25), then Morale or Pinned; Insurgent stands within 4" of it
    take Danger Close (DD-8.9, G-34)."""
    from game.rules import template

    d = rules(g).doom
    s = g.state
    best = None
    for el in s.elements.values():
        if el.side != "allied" or not s.on_table(el):
            continue
        n = sum(1 for st in s.living(el) if fire.cover_of(g, st).cover in ("open", "light"))
        if best is None or n > best[0]:
            best = (n, el)
    if best is None:
        return
    el = best[1]
    stands = s.living(el)
    cx = sum(st.x for st in stands) / len(stands)
    cy = sum(st.y for st in stands) / len(stands)
    drift = g.dice.roll(2)
    direction = g.dice.d6()
    ang = math.radians((direction - 1) * 60.0)
    dist = float(sum(drift))
    x = min(max(cx + dist * math.cos(ang), 0.0), g.scenario.width)
    y = min(max(cy + dist * math.sin(ang), 0.0), g.scenario.height)
    x, y = round(x, 2), round(y, 2)
    g.emit({"type": "roll", "purpose": "Mortar drift", "side": "insurgent", "element": None,
            "dice": drift + [direction], "target": None, "modifiers": [], "need": None, "result": dist,
            "clause": "G-12; G-25", "text": f"82mm harassment aimed at {el.name}: drifts {dist:g}\" "
                                             f"(2d6 {drift}) toward {(direction - 1) * 60}° (d6 {direction})"})
    g.emit({"type": "impact", "kind": "mortar", "x": x, "y": y, "radius": d.mortar_radius, "clause": "G-12; G-25",
            "text": f"82mm rounds land at ({x:g}, {y:g})"})
    blast = template.circle(x, y, d.mortar_radius, kind="mortar", fp=d.mortar_fp, name="82mm harassment",
                            clause="G-12; G-25; DD-8.10")
    template.attack(g, blast, side="insurgent")
    template.danger_close(g, blast, "insurgent")


# -- detection (G-24) -------------------------------------------------------------------------------
def _sense_range(g: Game, b: Blind) -> float:
    t = g.table.ground_at(b.x, b.y)
    cut = t.los_cutoff if t.los_cutoff > 0 else rules(g).reaction.trigger_dense
    return min(sight().open.limit, cut)


def sense(g: Game) -> None:
    """G-24 A, Sensing: a Shadow Blind with a player stand within its visual cutoff becomes an Echo
    (the Green Fog's Echo, ``detection.make_echo``, so the player may spot it or Recon by Fire)."""
    from game.rules.detection import make_echo

    s = g.state
    for bid, state in list(s.solo.shadows.items()):
        b = s.blinds.get(bid)
        if b is None:
            continue
        if state != "shadow":
            continue
        if b.state == "echo" or _near_player(g, b.x, b.y, _sense_range(g, b) + 1e-9):
            s.solo.shadows[bid] = "echo"
            make_echo(g, b, f"movement in the undergrowth: Shadow Blind {bid}", "G-24 A; DD-4.9")


def _echoes(g: Game, probe: bool) -> list[str]:
    """The Shadow Blinds that are Echoes (probe: or that Sensing would make Echoes here and now), then
    the scenario's own Insurgent Blinds that are Echoes (engine policy, docs/ai.md: DD-10.7 says "an
    Echo"; the Jungle Ghost's scenario Echoes take the Ambush Reaction Roll like Shadow Blind Echoes)."""
    s = g.state
    out = []
    for bid, state in s.solo.shadows.items():
        b = s.blinds.get(bid)
        if b is None:
            continue
        if state == "echo" or b.state == "echo" or (
                probe and _near_player(g, b.x, b.y, _sense_range(g, b) + 1e-9)):
            out.append(bid)
    for bid in sorted(s.blinds):
        b = s.blinds[bid]
        if b.side != "insurgent" or bid in s.solo.shadows:
            continue
        if b.state == "echo" or (probe and _near_player(g, b.x, b.y, _sense_range(g, b) + 1e-9)):
            out.append(bid)
    return out


def spring(g: Game, bid: str, mover: Element) -> str | None:
    """AMBUSH! from one of the scenario's own Insurgent Blinds (engine policy, docs/ai.md): the Blind is
    revealed where it stands (a Dummy: a false alarm, nothing there) and its force fires first."""
    from game.rules.detection import reveal as reveal_blind

    s = g.state
    b = s.blinds.get(bid)
    if b is None:
        return None
    s.solo.reacted.pop(bid, None)
    s.solo.progress = s.turn
    placed = reveal_blind(g, b, "ambush", "DD-10.7; G-24 B", by=mover)
    els = [s.elements[e] for e in placed if s.living(s.elements[e])]
    if not els:
        return None
    return ambush_volley(g, els, mover)


def trigger_distance(g: Game, b: Blind) -> float:
    """DD-10.7: 6" in open or scrub, 4" in dense jungle or bamboo (the terrain at the Echo)."""
    r = rules(g).reaction
    return r.trigger_dense if g.table.ground_at(b.x, b.y).dense else r.trigger_open


def triggered(g: Game, mover: Element, probe: bool = False) -> list[str]:
    """The Echoes whose trigger distance (DD-10.7) the mover's stands are now within and that have not
    reacted to this activation yet (G-24 B: at most once per Echo per player activation)."""
    s = g.state
    key = f"{s.turn}:{mover.id}:{mover.activations}"
    out = []
    for bid in _echoes(g, probe):
        b = s.blinds[bid]
        if s.solo.reacted.get(bid) == key:
            continue
        if any(base_of(g.book, st).distance(Point(b.x, b.y)) <= trigger_distance(g, b) for st in s.living(mover)):
            out.append(bid)
    return out


def on_move(g: Game, mover: Element, probe: bool = False) -> Any:
    """``hooks['move']``, from inside an Allied move (``reactions.interrupt`` walks the path and calls it
    at each sample point with ``probe=True``: which Echoes would react here, no dice) and after it
    (:func:`watch`). Not probing: Sensing (G-24 A), then one Ambush Reaction Roll (DD-10.7) per Echo
    the mover is within trigger distance of, at most once per Echo per activation; an AMBUSH! rolls the
    Contact Reveal Table and the force fires first (G-24 C). Returns "activation_over" when an ambush
    struck the mover."""
    s = g.state
    if not active(g) or mover.side != "allied" or s.over:
        return [] if probe else None
    if probe:
        return triggered(g, mover, probe=True) if s.living(mover) else []
    sense(g)
    key = f"{s.turn}:{mover.id}:{mover.activations}"
    result = None
    for bid in triggered(g, mover):
        if bid not in s.blinds or not s.living(mover):
            continue
        s.solo.reacted[bid] = key
        if reaction_roll(g, bid, mover):
            if bid in s.solo.shadows:
                result = reveal(g, bid, mover, ambush=True) or result
            else:
                result = spring(g, bid, mover) or result
    s.solo.pos = _allied_positions(g)
    return result


def watch(g: Game) -> None:
    """Engine policy until moves call ``hooks['move']``: every Allied element that has moved since the
    last look gets :func:`on_move`, in id order."""
    s = g.state
    if not active(g) or s.over:
        return
    before = s.solo.pos
    movers = sorted({st.element for st in s.side_stands("allied")
                     if before.get(st.id) is not None and before[st.id] != [st.x, st.y]})
    for eid in movers:
        on_move(g, s.elements[eid])
    s.solo.pos = _allied_positions(g)
    watch_blinds(g)


def _allied_blinds(g: Game) -> dict:
    return {b.id: [b.x, b.y] for b in g.state.blinds.values() if b.side == "allied"}


def watch_blinds(g: Game) -> None:
    """Engine policy (docs/ai.md): an Allied Blind that moved within the trigger distance of an Echo
    (DD-10.7, measured from the marker) takes the Ambush Reaction Roll like a moving element, at most
    once per Echo per activation. AMBUSH! reveals the Allied Blind (DD-4.24: a Dummy is discarded and
    the Echo keeps waiting) and the Echo's force fires first on the element nearest it."""
    from game.rules.detection import reveal as reveal_blind

    s = g.state
    before = s.solo.bpos
    moved = sorted(bid for bid, xy in _allied_blinds(g).items() if before.get(bid) not in (None, xy))
    if moved:
        sense(g)
    for abid in moved:
        ab = s.blinds.get(abid)
        if ab is None or s.over:
            continue
        key = f"{s.turn}:{abid}:{ab.activations}"
        for bid in _echoes(g, False):
            b = s.blinds.get(bid)
            if b is None or abid not in s.blinds or s.solo.reacted.get(bid) == key:
                continue
            if math.hypot(b.x - ab.x, b.y - ab.y) > trigger_distance(g, b):
                continue
            s.solo.reacted[bid] = key
            # The roll is public and the Blind is not revealed yet: it names the marker, never the
            # element under it (DESIGN §6, DD-4.7).
            if not reaction_roll(g, bid, _BlindName(ab.id)):
                continue
            placed = reveal_blind(g, ab, "ambushed", "DD-10.7; DD-4.24")
            live = [s.elements[e] for e in placed if s.living(s.elements[e])]
            if not live:
                continue
            mover = min(live, key=lambda el: (min(math.hypot(st.x - b.x, st.y - b.y) for st in s.living(el)),
                                              el.id))
            if bid in s.solo.shadows:
                reveal(g, bid, mover, ambush=True)
            else:
                spring(g, bid, mover)
            break
    s.solo.bpos = _allied_blinds(g)
    s.solo.pos = _allied_positions(g)


class _BlindName:
    """What a reaction roll names when the mover is an Allied Blind: the marker, whatever is under it."""

    def __init__(self, bid: str):
        self.name = f"Blind {bid}"


def reaction_roll(g: Game, bid: str, mover: Element) -> bool:
    """DD-10.7: 1d6, 1–2 the Spider Waits, 3–6 AMBUSH! (G-12 Stirring: waits only on a 1)."""
    r = rules(g).reaction
    stirring = g.state.solo.doom >= rules(g).doom.stirring
    target = (r.wait_max_stirring if stirring else r.wait_max) + 1
    ev = resolve_test(g.dice, purpose="Ambush Reaction", target=target, modifiers=[],
                      clause="DD-10.7; G-24 B" + ("; G-12" if stirring else ""), side="insurgent",
                      element=None, subject=f"Echo {bid} near {mover.name}")
    ok = ev["result"] == "pass"
    ev["text"] += ": AMBUSH!" if ok else ": the Spider Waits"
    ev["blind"] = bid
    g.emit(ev)
    return ok


def reveal(g: Game, bid: str, trigger: Element | None, ambush: bool, bonus: int = 0, depth: int = 0) -> str | None:
    """G-24 C, the Contact Reveal Table (DD-10.8, G-09): 1d6 on the Threat Level's column (+1 at Doom
    Clock 3, max 6). An ambush fires first; a spotted contact does not."""
    s = g.state
    b = s.blinds.get(bid)
    if b is None:
        return None
    d = rules(g).doom
    mods = []
    if s.solo.doom >= d.stirring:
        mods.append(Modifier("Doom Clock Stirring", d.reveal_bonus, "G-12; G-09"))
    die = g.dice.d6()
    roll = min(6, die + sum(m.value for m in mods) + bonus)
    row = rules(g).reveal[(s.threat, roll)]
    g.emit({"type": "roll", "purpose": "Contact Reveal", "side": "insurgent", "element": None, "dice": [die],
            "target": None, "modifiers": [m.to_dict() for m in mods], "need": None, "result": roll,
            "blind": bid, "threat": s.threat, "clause": f"DD-10.8; {row.clause}",
            "text": f"Contact Reveal (Threat Level {s.threat}): rolled {die}"
                    + "".join(f", {m.name} {m.value:+d}" for m in mods) + f" = {roll}: {row.text}"})
    del s.blinds[bid]
    s.solo.shadows.pop(bid, None)
    s.solo.reacted.pop(bid, None)
    s.solo.progress = s.turn
    g.emit({"type": "blind_removed", "blind": bid, "clause": "G-24 C", "text": f"Blind {bid} is resolved"})
    if row.kind == "false_alarm":
        return None
    if row.kind == "booby_trap":
        if trigger is None or not ambush:
            g.emit({"type": "note", "clause": "G-09", "text": "A booby trap is found and disarmed"})
            return None
        return booby_trap(g, trigger, b, row.trap_bonus, depth)
    if row.tunnel:
        s.sides["insurgent"].tunnel_entrances += 1
        g.emit({"type": "note", "clause": "G-09; G-29", "text": "A tunnel entrance is revealed"})
    spawned = spawn(g, row, b, trigger)
    if ambush and trigger is not None and spawned:
        return ambush_volley(g, spawned, trigger)
    return None


def reveal_spotted(g: Game, bid: str, spotter: Element | None, reason: str = "spotted") -> list[str]:
    """DD-4.24 (solo note), DD-10.8, G-24 C: a Shadow Blind flipped by the player (a Spotting Test, a
    Critical Spot, Recon by Fire's Direct Hit) rolls on the Contact Reveal Table with no ambush: a force
    is placed and waits for its own activation, a booby trap is found and disarmed (G-09). Returns the
    ids of the elements placed."""
    s = g.state
    if bid not in s.blinds:
        return []
    g.emit({"type": "note", "blind": bid, "clause": "DD-4.24; DD-10.8",
            "text": f"Shadow Blind {bid} is flipped ({reason}): the Contact Reveal Table decides what is there"})
    before = set(s.elements)
    reveal(g, bid, spotter, ambush=False)
    return sorted(set(s.elements) - before)


def booby_trap(g: Game, trigger: Element, b: Blind, bonus: int, depth: int = 0) -> str | None:
    """G-08 at the Echo ``b`` (G-09 level 3, 1: +1 "well laid"), rolled by ``booby_traps.spring``, the one
    place the Booby Trap Hazard Table is rolled (its blasts, punji stakes and TUN-23's cover are there). An
    alarm tripwire rolls the Contact Reveal Table again at once, as an ambush (G-08 5: the Ghost holds no
    Ambush Tokens), but not from inside such a roll (``depth``)."""
    from game.rules.booby_traps import spring

    def alarm() -> str | None:
        if depth:
            return None
        g.state.blinds[b.id] = Blind(b.id, "insurgent", b.x, b.y, False, [])
        g.state.blinds = dict(sorted(g.state.blinds.items()))
        return reveal(g, b.id, trigger, ambush=True, depth=depth + 1)

    return spring(g, trigger, b.x, b.y, bonus, f"a booby trap at Echo {b.id}", None, name=b.id, alarm=alarm)


def spawn(g: Game, row: RevealRow, b: Blind, trigger: Element | None) -> list[Element]:
    """Place the revealed force within 2" of the Echo (Dac Cong: within 6" in the trigger's rear arc),
    facing the trigger element (G-09)."""
    s = g.state
    r = rules(g).reaction
    out = []
    tx, ty, tf = b.x, b.y, 0.0
    if trigger is not None and s.living(trigger):
        ts = s.living(trigger)
        tx = sum(st.x for st in ts) / len(ts)
        ty = sum(st.y for st in ts) / len(ts)
        tf = ts[0].facing
    for grp in row.groups:
        s.solo.spawned += 1
        eid = f"jg{s.solo.spawned:02d}"
        if grp["place"] == "rear" and trigger is not None:
            back = math.radians(tf + 180.0)
            ax, ay, reach = tx + 4.0 * math.cos(back), ty + 4.0 * math.sin(back), r.rear_within - 4.0
        else:
            ax, ay, reach = b.x, b.y, r.place_within
        facing = round(math.degrees(math.atan2(ty - ay, tx - ax)) % 360, 1) if (tx, ty) != (ax, ay) else 270.0
        el = Element(eid, "insurgent", grp["name"], grp["kind"], grp["quality"],
                     [f"{eid}_{k + 1}" for k in range(len(grp["stands"]))])
        stands = {sid: Stand(sid, typ, eid, "insurgent", ax, ay, facing)
                  for sid, typ in zip(el.stands, grp["stands"], strict=True)}
        spot = _formation(g, el, stands, ax, ay, facing, reach)
        if spot is None:
            g.emit({"type": "note", "clause": "G-09", "text": f"No room to place {grp['name']}: it stays hidden"})
            continue
        s.elements[eid] = el
        s.elements = dict(sorted(s.elements.items()))
        s.stands.update(spot)
        s.stands = dict(sorted(s.stands.items()))
        out.append(el)
        g.emit({"type": "reveal", "blind": b.id, "element": eid, "name": el.name, "quality": el.quality,
                "stands": [{"id": st.id, "type": st.type, "x": st.x, "y": st.y, "facing": st.facing}
                           for st in spot.values()],
                "clause": f"DD-10.8; {row.clause}", "text": f"{el.name} is revealed"})
    return out


def _formation(g: Game, el: Element, stands: dict, ax: float, ay: float, facing: float,
               reach: float) -> dict | None:
    """A line abreast across ``facing`` near (ax, ay): the first legal spot within ``reach``."""
    n = len(stands)
    across = math.radians(facing + 90.0)
    gapw = 2.2
    for ring in range(0, 5):
        radius = reach * ring / 4
        steps = 1 if ring == 0 else 8 * ring
        for k in range(steps):
            ang = 2 * math.pi * k / steps
            cx, cy = ax + radius * math.cos(ang), ay + radius * math.sin(ang)
            moved = {}
            for i, (sid, st) in enumerate(stands.items()):
                off = (i - (n - 1) / 2) * gapw
                moved[sid] = Stand(**{**st.__dict__, "x": round(cx + off * math.cos(across), 2),
                                      "y": round(cy + off * math.sin(across), 2)})
            if _place_ok(g, el, moved):
                return moved
    return None


def _place_ok(g: Game, el: Element, moved: dict) -> bool:
    rects = {sid: base_of(g.book, st) for sid, st in moved.items()}
    for sid, rect in rects.items():
        if not g.table.within_table(rect) or g.table.ground_at(moved[sid].x, moved[sid].y).move == "impassable":
            return False
        for o in g.state.stands.values():
            if o.alive and g.state.elements[o.element].blind is None and \
                    shapes.overlap(rect, base_of(g.book, o)) > 1e-6:
                return False
        for oid, other in rects.items():
            if oid < sid and shapes.overlap(rect, other) > 1e-6:
                return False
    return True


def ambush_volley(g: Game, ambushers: list[Element], mover: Element) -> str:
    """AMBUSH! (DD-10.7, DD-2.27–2.30): the revealed force fires first (+1 within 3", a trail column
    saves on 6), then one Allied Discipline Check (C-24): pass, prone and Desperate Return Fire at −1;
    fail, Pinned. The mover's activation ends."""
    from game.rules.crew import reaction_fire
    from game.rules.morale import morale_test, pin

    g.emit({"type": "ambush", "element": ambushers[0].id, "target_element": mover.id, "tokens": 0,
            "clause": "DD-10.7; DD-2.27; C-23", "text": f"AMBUSH! The jungle opens fire on {mover.name}"})
    fired = []
    for amb in ambushers:
        if not g.state.living(mover):
            break
        target = reactions.closest_target(g, amb, mover)
        if target is None:
            continue
        ctx = fire.Context("ambush", "DD-10.7; DD-2.27-2.29; DD-3.3; C-17", column=fire.in_column(g, mover),
                           morale=False)
        reaction_fire(g, amb, target, ctx, f"{amb.name} ambushes {mover.name}")
        fired.append(amb)
    if not fired or not g.state.living(mover):
        return "activation_over"
    if morale_test(g, mover, "ambush Discipline Check", "DD-2.30; C-24"):
        for amb in fired:
            back = reactions.closest_target(g, mover, amb) if g.state.living(amb) else None
            if back is not None:
                reaction_fire(g, mover, back, fire.Context("desperate", "DD-2.30"),
                              f"{mover.name}: Desperate Return Fire at {amb.name}")
                break
    else:
        pin(g, mover, "DD-2.30")
    return "activation_over"


# -- Phase 3: fade and regeneration (DD-10.11–10.14, C-10) -------------------------------------------
def consolidation(g: Game) -> None:
    """The Fade step of Phase 3 for the Jungle Ghost: pending detection, the capture of abandoned
    Communist tokens (G-33 (4)), then each AI element's Disengagement Check (DD-10.11)."""
    if not active(g):
        return
    watch(g)
    capture(g)
    f = rules(g).fade
    s = g.state
    for el in list(s.elements.values()):
        if el.side != "insurgent" or not s.on_table(el) or el.pinned:
            continue
        stands = s.living(el)
        if not _active(g, el, f.active):
            continue
        if not all(_sheltered(g, st) for st in stands):
            continue
        if clinging(g, el):
            g.emit({"type": "note", "element": el.id, "clause": "DD-10.14; C-10",
                    "text": f"{el.name} clings to the belt: it will not fade"})
            continue
        ev = resolve_test(g.dice, purpose="Disengagement", target=f.need, modifiers=[], clause="DD-10.11; C-10",
                          side="insurgent", element=el.id, subject=el.name)
        if f.active != "all":  # the reading is the engine's, and the table says so when it applies
            ev["text"] += f" (engine policy: \"active\" read as {f.active}, jungle_ghost.toml [fade])"
        g.emit(ev)
        if ev["result"] == "pass":
            fade_out(g, el)


def _active(g: Game, el: Element, reading: str) -> bool:
    """DD-10.11 "each active AI infantry stand" (jungle_ghost.toml [fade] active): "all" on the table;
    "engaged": it fired this turn or is hurt (lost a stand, or carries a Red Ring); "hurt" only."""
    stands = g.state.living(el)
    hurt = len(stands) < len(el.stands) or any(st.hits for st in stands)
    if reading == "all" or hurt:
        return True
    return reading == "engaged" and el.fired_turn == g.state.turn


def _sheltered(g: Game, st: Stand) -> bool:
    """DD-10.11: within 4" of a jungle edge, hootch or tunnel entrance (an open entrance of the game's
    tunnel network, :func:`_entrance_near`)."""
    f = rules(g).fade
    rect = base_of(g.book, st)
    return any(h.shape.distance(rect) <= f.shelter for h in _features(g, f.shelters)) or \
        _entrance_near(g, [st]) is not None


def _entrance_near(g: Game, stands: list[Stand]) -> Any:
    """DD-10.11 "within 4\" of a ... tunnel entrance": the open surface section of the game's tunnel
    network (``game.rules.tunnels``: not collapsed, not gassed) with every one of ``stands`` within the
    fade's shelter distance of its hatch, the nearest first; None in a game without a network, or where the
    side may not go down (TUN-13: NVA provide no tunnel garrison)."""
    from game.rules import tunnel_actions, tunnels

    net = tunnels.network(g)
    if net is None or tunnels.state(g) is None or tunnel_actions._refused_garrison(g):
        return None
    reach = rules(g).fade.shelter
    usable = set(tunnels.open_sections(g))
    best = None
    for sid in net.surface():
        if sid not in usable:
            continue
        sec = net.sections[sid]
        gaps = [base_of(g.book, st).distance(Point(sec.x, sec.y)) for st in stands]
        if gaps and max(gaps) <= reach and (best is None or (round(sum(gaps), 6), sid) < best[0]):
            best = ((round(sum(gaps), 6), sid), sec)
    return best[1] if best else None


def clinging(g: Game, el: Element) -> bool:
    """DD-10.14 Clinging to the Belt (C-10: 4"): an AI stand this close to a player stand never fades."""
    f = rules(g).fade
    foes = g.state.side_stands("allied")
    return any(fire.gap(g, a, b) <= f.cling for a in g.state.living(el) for b in foes)


def fade_out(g: Game, el: Element) -> None:
    """DD-10.12–10.13: take every Communist Casualty Token within 4", remove the stands, and place a new
    Shadow Blind in an unsearched hootch (G-40, 4+) or at the far jungle edge."""
    s = g.state
    f = rules(g).fade
    entrance = _entrance_near(g, s.living(el))
    if entrance is not None:
        fade_below(g, el, entrance)
        return
    stands, _ = fade.slip_away(g, el, f.snatch, "DD-10.11; DD-10.12; DD-3.13")  # Snatch & Fade, shared
    for st in stands:
        st.alive = False
    s.solo.faded.append(el.id)
    from game.rules.search import searched  # C-10, DD-10.13: only an unsearched hootch (DD-2.15, G-35)

    free = [h for h in _features(g, rules(g).setup.structures) if not searched(g, h.feature.id)
            and not _near_player(g, h.shape.representative_point().x, h.shape.representative_point().y, 6.0)]
    spot = None
    if free:
        ev = resolve_test(g.dice, purpose="Regenerate in a hootch", target=f.hootch_need, modifiers=[],
                          clause="DD-10.13; G-40", side="insurgent", element=None, subject="Jungle Ghost")
        g.emit(ev)
        if ev["result"] == "pass":
            c = free[0].shape.representative_point()
            spot = _search(g, c.x, c.y, limit=3.0)
    if spot is None:
        spot = _edge_spot(g, far=True)
    if spot is not None:
        _place_shadow(g, *spot, "DD-10.13; G-40")


def fade_below(g: Game, el: Element, entrance: Any) -> None:
    """DD-10.11–10.13 with a tunnel network (DD chapter 9B §2): a stand that fades by a tunnel entrance
    takes its casualties (DD-10.12) and goes down it (DD-9B.4: ``tunnel_actions.go_down``) instead of leaving
    the table: "the guerrillas have slipped through tunnels to strike from another direction" (DD-10.13) --
    the element itself is the regeneration, and comes up again where the Jungle Ghost's play takes it
    (``game.ai.tunnels``), so no new Shadow Blind is placed. The Allied side sees it fade, not where."""
    from game.rules import tunnel_actions

    fade.slip_away(g, el, rules(g).fade.snatch, "DD-10.11; DD-10.12; DD-3.13")
    tunnel_actions.go_down(g, el, entrance, "DD-10.11; DD-10.13; DD-9B.4")


def capture(g: Game) -> None:
    """DD-3.14, G-33 (4): a Communist Casualty Token in base contact with an Allied stand and with no
    unpinned Insurgent stand within 2" is captured: removed, +1 VP (``fade.capture``, shared with the
    Fade of a human Insurgent)."""
    f = rules(g).fade
    fade.capture(g, f.capture_enemy_free, f.capture_vp)


class JungleGhostChapter(Chapter):
    """DD chapter 10 on the chapter seam: active while the Jungle Ghost plays the Insurgent side."""

    id = "jungle_ghost"
    title = "DD chapter 10: the Jungle Ghost"
    state_type = GhostState

    def active(self, g: Game) -> bool:
        return active(g)

    def new_state(self, g: Game) -> None:
        return None  # made by ``enable`` when it takes a side

    def load_tables(self, book: Rulebook) -> GhostRules:
        return load_ghost(book=book)

    def steps(self) -> tuple[Step, ...]:
        return (Step("tension", 40, tension, "DD-10.15; G-12", self.id),
                Step("consolidation", 30, consolidation, "DD-10.11–10.14", self.id))

    on_move = staticmethod(on_move)


CHAPTER = register_chapter(JungleGhostChapter())
