"""Booby traps and tripwires (DD chapter 9B §1: DD-9B.1–9B.2; G-08; TUN-7, TUN-23; G-35; G-09).

* **Setup** (DD-9B.1): the scenario's ``[[booby_trap]]`` rows, 2 to 4 secret Insurgent tokens (booby_traps.toml
  ``[setup]``), each an ``at`` [x, y] point chit (a trail, a bund, open ground) or a ``feature`` (a trapped
  hootch or bunker doorway). :func:`read_scenario` is the ``booby_trap`` section reader (``scenario.SECTIONS``).
* **The trigger** (DD-9B.2): an on-move listener (``Chapter.on_move``, asked by ``reactions.interrupt`` at each
  inch-step of an Allied move): the first step where an Allied stand's base touches a hidden chit (a 1" disc,
  ``[trigger] chit``) or enters a trapped feature's footprint freezes the move there, and the trap springs.
  Every result but a dud stops the move at the trap (G-08, last line); a dud lets it go on.
* **The table** (G-08): :func:`spring` is the ONE place the Booby Trap Hazard Table is rolled: a scenario
  token, the Jungle Ghost's reveal-table trap (G-09; ``jungle_ghost.booby_trap`` calls it), a trapped tunnel
  section (TUN-7; the tunnels chapters call it), a fumbled search (G-35). One ``roll`` event with every
  modifier by name and clause (G-08 -1 for Engineers, Sappers and Tunnel Rats, -1 after a Patrol Move, at
  least 1), a public ``booby_trap`` event, then the row's effect through the one template attack
  (``game.rules.template``): punji stakes 1 hit, no save, and Morale; a grenade's Small blast, 2 FP; a
  shell's Medium blast, 3 FP; the claymore's 5" 60° fan toward the element, 3 FP, no vegetation save
  (G-25). TUN-23: an Engineer or Tunnel Rat stand under a blast counts as in cover: one FP die fewer.
* **The alarm** (G-08 5): the Insurgent gains 1 Ambush Token and a waiting ambusher (standing order not
  ``hold``, ``game.rules.ambush_orders``) that can see and reach the element springs at once, spending it
  (DD-2.25: free); with the Jungle Ghost (which holds no tokens, G-29) the Contact Reveal Table is rolled
  at the trap as an ambush (DD-10.8). After a claymore (G-08 6) a ready ambusher may spring for 1 token
  (the Ghost: on 3-6).
* **Finding them** (G-35, TUN-23, G-13): a successful Search (a hootch, a bunker or the ground within 2",
  ``search.register_finder``) lifts and disarms every hidden trap in the area searched (``trap_found``); a
  natural 1 (``search.register_fumble``) sets off any trap there. :func:`reveal_near` lifts one for the
  village's tips (G-13; ``game.rules.village`` calls it). TUN-23's "Engineers are assumed to search for
  booby traps" is G-08's -1: a dud ("spotted in time") is likelier.

Fog (DESIGN §6, docs/fog.md): a hidden trap is the Insurgent's secret: its ``booby_trap`` marker is in the
Insurgent (and referee) view only; nothing the Allied side sends is refused or answered by it; a move is
frozen only where a trap springs. Once found or sprung it is public, under a public name counted over the
traps revealed (``trap1``, ...), so the name says nothing of how many are still out.

What it leaves out: an Allied Blind's move (its stands travel unseen with the marker, ``blinds.BlindMove``)
and vehicle hulls do not set traps off; the "noise" of G-08's last line changes nothing for an element
already on the table (DD-4.9 makes Blinds Echoes, and the trigger is never a Blind); the Insurgent laying new
traps during play; a trapped tunnel section's own rules (the tunnels chapters decide when to call
:func:`spring`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shapely.geometry import Point

from game.rules import fire, search
from game.rules.chapters import Chapter, register_chapter, state_of, tables
from game.rules.data import DATA_DIR, ROLES, DataError, Rulebook, build, load_sections, one_of, rulebook
from game.rules.dice import Modifier
from game.rules.state import Blind, Element, Stand, base_of, disc

if TYPE_CHECKING:
    from game.rules.game import Game

CHAPTER = "booby_traps"
SECTION = "booby_trap"
"""The scenario section this chapter reads (``scenario.SECTIONS``)."""
OWNER = "insurgent"
ALLIED = "allied"
CLAUSE = "DD-9B.1; DD-9B.2; G-08"
RESULTS = ("dud", "punji", "grenade", "mine", "alarm", "claymore")
KINDS = ("dud", "hits", "alarm")


# -- the tables (game/data/booby_traps.toml) -------------------------------------------------------------
@dataclass(frozen=True)
class SetupRules:
    clause: str
    fewest: int
    most: int
    features: list[str]


@dataclass(frozen=True)
class TriggerRules:
    clause: str
    chit: float
    roles_exempt: list[str] = field(metadata=one_of(ROLES))


@dataclass(frozen=True)
class RollRules:
    clause: str
    careful_roles: list[str] = field(metadata=one_of(ROLES))
    careful: int
    patrol_modes: list[str]
    patrol: int
    lowest: int
    highest: int


@dataclass(frozen=True)
class CoverRules:
    clause: str
    roles: list[str] = field(metadata=one_of(ROLES))
    dice: int


@dataclass(frozen=True)
class AlarmRules:
    clause: str
    tokens: int
    claymore_ambush: bool
    ghost_claymore_need: int


@dataclass(frozen=True)
class TrapRow:
    """A row of the Booby Trap Hazard Table (G-08)."""

    roll: int
    clause: str
    result: str = field(metadata=one_of(RESULTS))
    kind: str = field(metadata=one_of(KINDS))
    text: str
    dice: int = 0
    auto_hits: int = 0
    save: bool = True


@dataclass(frozen=True)
class BoobyTrapTables:
    setup: SetupRules
    trigger: TriggerRules
    roll: RollRules
    cover: CoverRules
    alarm: AlarmRules
    trap: dict
    """roll -> TrapRow (G-08 1-6)"""


def load_booby_traps(directory: Path = DATA_DIR, book: Rulebook | None = None) -> BoobyTrapTables:
    """Load ``booby_traps.toml`` strictly: known sections and keys, a clause in each, vocabularies, the six
    rows of G-08, feature types the rulebook (by default the shipped one) has."""
    name = "booby_traps.toml"
    book = book or rulebook()
    sections = {"setup": SetupRules, "trigger": TriggerRules, "roll": RollRules, "cover": CoverRules,
                "alarm": AlarmRules}
    built, doc = load_sections(name, sections, directory, also=("trap",))
    s = built["setup"]
    if not 0 < s.fewest <= s.most:
        raise DataError(name, "[setup]", "fewest and most: 0 < fewest <= most (DD-9B.1: 2 to 4)")
    for t in s.features:
        if t not in book.terrain:
            raise DataError(name, "[setup]", f"features {t!r} is not defined in terrain.toml")
    r = built["roll"]
    if not 1 <= r.lowest <= r.highest:
        raise DataError(name, "[roll]", "lowest and highest: 1 <= lowest <= highest")
    trap: dict[int, TrapRow] = {}
    for i, raw in enumerate(doc.get("trap", [])):
        row = build(TrapRow, raw, name, f"trap[{i}]")
        if not row.clause.strip():
            raise DataError(name, f"trap[{i}]", "field 'clause' must cite a clause or gap id")
        if row.roll in trap:
            raise DataError(name, f"trap[{i}]", f"duplicate row roll {row.roll}")
        trap[row.roll] = row
    if sorted(trap) != list(range(r.lowest, r.highest + 1)):
        raise DataError(name, "trap", f"the booby trap table needs rows {r.lowest}-{r.highest} (G-08)")
    return BoobyTrapTables(trap=trap, **built)


def rules(g: Game) -> BoobyTrapTables:
    """This game's booby trap tables (``chapters.tables``), whether or not the chapter is active."""
    return tables(g.book, CHAPTER)


# -- reading the scenario ([[booby_trap]]) ------------------------------------------------------------------
@dataclass(frozen=True)
class TrapSetup:
    """A Booby Trap token from the scenario (DD-9B.1): a point chit, or a trapped feature's doorway."""

    id: str
    x: float
    y: float
    feature: str | None = None


def read_scenario(r: Any, raw: Any, ctx: Any) -> tuple[TrapSetup, ...]:
    """``[[booby_trap]]`` rows: ``id`` (optional, default ``bt1``, ...) and either ``at`` [x, y] on the table or
    ``feature`` (a hootch or bunker of the scenario); 2 to 4 of them (DD-9B.1). Problems go to ``r``, each
    naming the section, row and field."""
    t = load_booby_traps(book=ctx.book)
    if not isinstance(raw, list):
        r.problem(SECTION, f"should be a list of [[{SECTION}]] tables")
        return ()
    features = {f.id: f for f in ctx.features}
    out: list[TrapSetup] = []
    seen: set[str] = set()
    trapped: set[str] = set()
    for i, row in enumerate(raw):
        p = f"{SECTION}[{i}]."
        if not isinstance(row, dict):
            r.problem(f"{SECTION}[{i}]", "should be a table")
            continue
        r.unknown(row, {"id", "at", "feature"}, p)
        tid = r.get(row, "id", p, str, f"bt{i + 1}")
        if tid is not None and tid in seen:
            r.problem(p + "id", f"duplicate booby trap id '{tid}'")
            continue
        if tid is not None:
            seen.add(tid)
        if ("at" in row) == ("feature" in row):
            r.problem(p + "at", "a booby trap has either `at` [x, y] or `feature` (a trapped doorway), not both "
                                "and not neither (DD-9B.1)")
            continue
        if "feature" in row:
            fid = r.get(row, "feature", p, str)
            f = features.get(fid) if fid is not None else None
            if fid is not None and f is None:
                r.problem(p + "feature", f"no terrain feature '{fid}' in this scenario")
            elif f is not None and f.type not in t.setup.features:
                r.problem(p + "feature", f"'{fid}' is {f.type}: a trapped doorway is a "
                                         f"{' or '.join(t.setup.features)} (DD-9B.1)")
            elif f is not None and fid in trapped:
                r.problem(p + "feature", f"'{fid}' is already trapped")
            elif f is not None and tid is not None:
                trapped.add(fid)
                c = f.shape().representative_point()
                out.append(TrapSetup(tid, round(c.x, 3), round(c.y, 3), fid))
            continue
        at = r.point(row.get("at"), p + "at")
        if at is None or tid is None:
            continue
        if not (0 <= at[0] <= ctx.width and 0 <= at[1] <= ctx.height):
            r.problem(p + "at", f"booby trap at {list(at)} is off the {ctx.width:g}x{ctx.height:g} table")
            continue
        out.append(TrapSetup(tid, at[0], at[1]))
    if not t.setup.fewest <= len(raw) <= t.setup.most:
        r.problem(SECTION, f"{len(raw)} booby trap(s): the Insurgent places {t.setup.fewest} to {t.setup.most} "
                           f"(DD-9B.1)")
    return tuple(out)


# -- its state -------------------------------------------------------------------------------------------------
@dataclass
class Trap:
    """A Booby Trap token (DD-9B.1): the Insurgent's secret until found or sprung."""

    id: str
    x: float
    y: float
    feature: str | None = None
    state: str = "hidden"
    """hidden | found (lifted and disarmed) | sprung"""
    name: str = ""
    """Its public name once found or sprung (``trap1``, ...: counted over the traps revealed, DESIGN §6)."""
    result: str = ""
    """The G-08 result it gave when it sprang."""
    turn: int = 0


@dataclass
class BoobyTrapState:
    """The booby traps of a game that has them (``GameState.chapters["booby_traps"]``)."""

    traps: list[Trap] = field(default_factory=list)
    revealed: int = 0
    """How many traps have been found or sprung (their public names)."""


def _state(g: Game) -> BoobyTrapState | None:
    return state_of(g, CHAPTER)


def hidden(g: Game) -> list[Trap]:
    st = _state(g)
    return [tr for tr in st.traps if tr.state == "hidden"] if st is not None else []


def _reveal(g: Game, tr: Trap, state: str) -> str:
    """The trap leaves the Insurgent's secret: its public name, its new state."""
    st = _state(g)
    assert st is not None
    st.revealed += 1
    tr.name, tr.state, tr.turn = f"trap{st.revealed}", state, g.state.turn
    return tr.name


def _footprint(g: Game, tr: Trap):
    """What sets a trap off: its chit's disc, or the trapped feature's footprint (DD-9B.2)."""
    if tr.feature is not None:
        hit = search.feature_hit(g, tr.feature)
        if hit is not None:
            return hit.shape
    return disc(tr.x, tr.y, rules(g).trigger.chit)


# -- springing a trap: the one G-08 roll ------------------------------------------------------------------------
def roll_modifiers(g: Game, trigger: Element, bonus: int = 0) -> list[Modifier]:
    """G-08's modifiers to the roll: the caller's bonus (the Jungle Ghost's well-laid trap, G-09), -1 when the
    element has an Engineer, Sapper or Tunnel Rat stand (TUN-23), -1 after a Patrol Move this activation."""
    r = rules(g).roll
    mods: list[Modifier] = []
    if bonus:
        mods.append(Modifier("well laid", bonus, "G-09"))
    roles = sorted({g.book.stands[s.type].role for s in g.state.living(trigger)} & set(r.careful_roles))
    if roles:
        mods.append(Modifier(f"{roles[0].replace('_', ' ')} looks for traps", r.careful, f"{r.clause}; TUN-23"))
    if trigger.last_move in r.patrol_modes:
        mods.append(Modifier("Patrol Move", r.patrol, f"{r.clause}; DD-2.8"))
    return mods


def spring(g: Game, trigger: Element, x: float, y: float, bonus: int = 0, source: str = "a booby trap",
           clause: str | None = None, *, name: str | None = None, stand: Stand | None = None,
           alarm: Callable[[], str | None] | None = None) -> str | None:
    """A booby trap at (x, y) goes off under ``trigger`` (G-08): roll 1d6 with :func:`roll_modifiers` (one
    ``roll`` event; its clause the row's, after ``clause`` when given), the public ``booby_trap`` event, then
    the row's effect on ``stand`` (default: the element's stand nearest the trap). ``name`` is the trap's
    public name in the event; ``source`` says in words what it was. ``alarm``: what an alarm does for the
    caller (the Jungle Ghost's own reveal-table trap); without it, :func:`_alarm`, and a claymore may be
    followed by an ambush. Returns None when nothing went off (a dud; an alarm that drew nothing), else
    "activation_over" as the Jungle Ghost reads it."""
    return _spring(g, trigger, x, y, bonus, source, clause, name, stand, alarm)[1]


def _spring(g: Game, trigger: Element, x: float, y: float, bonus: int, source: str, clause: str | None,
            name: str | None, stand: Stand | None, alarm: Callable[[], str | None] | None
            ) -> tuple[TrapRow, str | None]:
    t = rules(g)
    p = Point(x, y)
    living = sorted(g.state.living(trigger), key=lambda st: (base_of(g.book, st).distance(p), st.id))
    victim = stand if stand is not None and stand.alive else (living[0] if living else None)
    mods = roll_modifiers(g, trigger, bonus)
    die = g.dice.d6()
    roll = max(t.roll.lowest, min(t.roll.highest, die + sum(m.value for m in mods)))
    row: TrapRow = t.trap[roll]
    g.emit({"type": "roll", "purpose": "Booby Trap", "side": ALLIED, "element": trigger.id, "dice": [die],
            "target": None, "modifiers": [m.to_dict() for m in mods], "need": None, "result": roll,
            "clause": f"{clause}; {row.clause}" if clause else row.clause,
            "text": f"Booby trap on {trigger.name}: rolled {die}" + "".join(f" {m.value:+d}" for m in mods)
                    + f": {row.text}"})
    heading = _heading(g, row, x, y, trigger, victim)
    g.emit({"type": "booby_trap", "trap": name or "booby trap", "x": x, "y": y, "result": row.result,
            "element": trigger.id, "stand": victim.id if victim is not None else None, "heading": heading,
            "clause": f"{clause}; {row.clause}" if clause else f"DD-9B.2; {row.clause}",
            "text": f"{source[:1].upper()}{source[1:]} goes off under {trigger.name}: {row.text}"})
    if row.kind == "dud":
        return row, None
    if row.kind == "alarm":
        return row, alarm() if alarm is not None else _alarm(g, trigger, x, y, name or "trap")
    if victim is None:
        return row, "activation_over"
    _blast(g, row, trigger, victim, x, y, heading)
    if row.result == "claymore" and alarm is None and t.alarm.claymore_ambush and g.state.living(trigger):
        _claymore_ambush(g, trigger, x, y, name or "trap")
    return row, "activation_over"


def _heading(g: Game, row: TrapRow, x: float, y: float, trigger: Element, victim: Stand | None) -> float:
    """The claymore's fan points from the trap at the element's centre (G-08 6); any other blast is laid
    along the triggering stand's facing."""
    from game.rules import template

    stands = g.state.living(trigger)
    shape = template.for_clause(row.clause)
    if shape is not None and shape.shape == "fan" and stands:
        cx = sum(st.x for st in stands) / len(stands)
        cy = sum(st.y for st in stands) / len(stands)
        return math.degrees(math.atan2(cy - y, cx - x))
    return victim.facing if victim is not None else 0.0


def _blast(g: Game, row: TrapRow, trigger: Element, victim: Stand, x: float, y: float, heading: float) -> None:
    """The row's damage: punji stakes' hits on the triggering stand and its Morale test (DD-5.19), or one
    template attack (the G-25 template whose ``used_by`` names the row), with TUN-23's cover."""
    from game.rules import template
    from game.rules.morale import test_or_pin

    shape = template.for_clause(row.clause)
    if shape is None:  # G-08 2, punji stakes: no template
        for _ in range(row.auto_hits):
            if victim.alive:
                fire.apply_hit(g, victim, row.clause)
        if g.state.living(trigger):
            test_or_pin(g, trigger, row.text, f"DD-5.19; {row.clause}")
        return
    saves = None if row.save else (template.save_rule(shape) or fire.SaveOverride(("all",), None, clause=row.clause))
    at = (x, y) if shape.shape == "fan" else (victim.x, victim.y)
    blast = template.from_table(shape.id, at[0], at[1], heading, kind="booby_trap", fp=row.dice,
                                auto_hits=row.auto_hits, save_override=saves, name=row.text,
                                clause=f"{row.clause}; {shape.clause}; DD-5.9")
    below = _in_section(g, trigger)
    template.attack(g, in_cover(g, template.plan(g, blast, side=OWNER, stands=below)))


def _in_section(g: Game, trigger: Element) -> list[Stand] | None:
    """TUN-7, TUN-23: a trap sprung in a tunnel section hits the stands in that section, never the table
    above it (the stands below keep their last table position); None on the surface."""
    from game.rules import tunnels

    sid = tunnels.section_of(g, trigger.id)
    if sid is None:
        return None
    where = tunnels.state(g).where
    return [st for eid, at in sorted(where.items()) if at == sid for st in g.state.living(g.state.elements[eid])]


def in_cover(g: Game, p: Any) -> Any:
    """TUN-23: each Engineer or Tunnel Rat stand under the blast counts as in cover: its pool rolls one FP die
    fewer (never below 0), said in the pool's label (so in its ``roll`` event)."""
    c = rules(g).cover
    pools = []
    changed = False
    for pool in p.pools:
        st = g.state.stands.get(pool.target) if pool.target is not None else None
        if st is None or g.book.stands[st.type].role not in c.roles or not pool.groups:
            pools.append(pool)
            continue
        changed = True
        groups = [dataclasses.replace(gr, dice=max(0, gr.dice + c.dice)) for gr in pool.groups]
        pools.append(dataclasses.replace(pool, groups=[gr for gr in groups if gr.dice > 0],
                                         label=f"{pool.label} (in cover, {c.dice:+d} die: {c.clause})"))
    if not changed:
        return p
    groups = [gr for pool in pools for gr in pool.groups] or [fire.Group([], 0, [], 0)]
    return dataclasses.replace(p, pools=pools, volley=dataclasses.replace(p.volley, groups=groups))


# -- what an alarm or a claymore brings (G-08 5, 6; DD-2.25; G-29) ---------------------------------------------
def _ghost(g: Game) -> bool:
    from game.rules import jungle_ghost

    return g.state.solo is not None and jungle_ghost.active(g)


def _ghost_reveal(g: Game, trigger: Element, x: float, y: float, name: str) -> str | None:
    """The Jungle Ghost holds no Ambush Tokens (G-29): "roll on the Contact Reveal Table at this point as if
    an ambush had triggered" (G-08 5), from a marker put down at the trap for the roll."""
    from game.rules import jungle_ghost

    g.state.blinds[name] = Blind(name, OWNER, x, y, False, [])
    g.state.blinds = dict(sorted(g.state.blinds.items()))
    return jungle_ghost.reveal(g, name, trigger, ambush=True, depth=1)


def _alarm(g: Game, trigger: Element, x: float, y: float, name: str) -> str | None:
    """G-08 5: the Insurgent gains the token and may spring an Ambush at once, free (the token is spent)."""
    if _ghost(g):
        return _ghost_reveal(g, trigger, x, y, name)
    a = rules(g).alarm
    side = g.state.sides[OWNER]
    side.ambush_tokens += a.tokens
    g.emit({"type": "tokens", "side": OWNER, "income": a.tokens, "tokens": side.ambush_tokens, "clause": a.clause,
            "text": f"The alarm tripwire brings {a.tokens} Ambush Token ({side.ambush_tokens} held)"}, visible=OWNER)
    return ambush_now(g, trigger)


def _claymore_ambush(g: Game, trigger: Element, x: float, y: float, name: str) -> str | None:
    """G-08 6: "Then the Insurgent may make an ambush at this element for 1 token (AI: 3-6 on a d6)"."""
    from game.rules.dice import resolve_test

    if not _ghost(g):
        return ambush_now(g, trigger)
    a = rules(g).alarm
    ev = resolve_test(g.dice, purpose="Claymore Ambush", target=a.ghost_claymore_need, modifiers=[],
                      clause="G-08 6; G-29", side=OWNER, element=None, subject=f"the Jungle Ghost at {trigger.name}")
    g.emit(ev)
    return _ghost_reveal(g, trigger, x, y, name) if ev["result"] == "pass" else None


def ambush_now(g: Game, mover: Element) -> str | None:
    """A waiting Insurgent ambusher (concealed or under a Blind, its standing order not ``hold``) that can see
    and reach ``mover`` now springs its Ambush on it (DD-2.25–2.30), the nearest first, ties by id, if the
    Insurgent holds the token. Returns the ambush's result, or None when none springs."""
    from game.rules import ambush_orders, reactions
    from game.rules.movement import Plan

    ready = [el for el in reactions._ambushers(g, mover)
             if ambush_orders.order_of(g, el).trigger != "hold"
             and ambush_orders._triggered(g, el, mover)]
    if not ready:
        return None
    amb = min(ready, key=lambda el: (ambush_orders._nearest(g, el, mover), el.id))
    return reactions._spring_ambush(g, Plan(mover, mover.last_move or "", {}, 0.0, [], None), amb)


# -- the trigger: an Allied move ------------------------------------------------------------------------------
def touched(g: Game, mover: Element) -> list[tuple[Trap, Stand]]:
    """The hidden traps an Allied element's stands touch where they stand now, each with the first stand (by
    id) on it, in the order of the traps (DD-9B.2). A read: no dice, no state."""
    t = rules(g).trigger
    stands = [s for s in g.state.living(mover) if g.book.stands[s.type].role not in t.roles_exempt]
    if mover.side != ALLIED or mover.hidden or not stands:
        return []
    out = []
    for tr in hidden(g):
        foot = _footprint(g, tr)
        on = next((s for s in stands if base_of(g.book, s).intersects(foot)), None)
        if on is not None:
            out.append((tr, on))
    return out


def trip(g: Game, tr: Trap, trigger: Element, stand: Stand | None = None, clause: str = "DD-9B.2") -> str | None:
    """A scenario token goes off (DD-9B.2, G-08): revealed under its public name, then :func:`spring`."""
    name = _reveal(g, tr, "sprung")
    where = f"hootch {tr.feature}" if tr.feature is not None else f"({tr.x:g}, {tr.y:g})"
    row, out = _spring(g, trigger, tr.x, tr.y, 0, f"a booby trap at {where}", clause, name, stand, None)
    tr.result = row.result
    if tr.result == "dud":
        tr.state = "found"  # G-08 1: spotted in time, disarmed
    return out


def on_move(g: Game, mover: Element, probe: bool = False) -> Any:
    """The chapter's move listener (``reactions.interrupt``): probing, the ids of the hidden traps the mover
    touches here (no dice); otherwise the first of them springs. Returns None (a dud: the move goes on),
    "frozen" (G-08: the move stops at the trap) or "activation_over" (an ambush struck, DD-2.30)."""
    if _state(g) is None or mover.side != ALLIED or g.state.over:
        return [] if probe else None
    found = touched(g, mover)
    if probe:
        return [tr.id for tr, _ in found]
    if not found:
        return None
    tr, stand = found[0]
    before = sum(1 for e in g.events if e["type"] == "ambush")
    out = trip(g, tr, mover, stand)
    if out is None and tr.result == "dud":
        return None
    ambushed = sum(1 for e in g.events if e["type"] == "ambush") > before
    return "activation_over" if ambushed or not g.state.living(mover) else "frozen"


# -- finding them (G-35, G-13) ------------------------------------------------------------------------------------
def _found(g: Game, tr: Trap, by: str, how: str, clause: str) -> str:
    name = _reveal(g, tr, "found")
    g.emit({"type": "trap_found", "trap": name, "x": tr.x, "y": tr.y, "by": by, "how": how, "clause": clause,
            "text": f"A booby trap is found at ({tr.x:g}, {tr.y:g}) and disarmed ({by})"})
    return name


def _in_area(g: Game, area: Any, feature_id: str | None) -> list[Trap]:
    return [tr for tr in hidden(g)
            if (feature_id is not None and tr.feature == feature_id) or _footprint(g, tr).intersects(area)]


def finder(g: Game, el: Element, area: Any, stands: list[Stand], feature_id: str | None) -> list[str]:
    """``search.register_finder``: a successful Search lifts and disarms every hidden trap in the area
    searched (G-35: the doorway of the hootch searched, a chit on the ground searched)."""
    out = []
    for tr in _in_area(g, area, feature_id):
        _found(g, tr, el.name, "search", "DD-2.15; G-35; DD-9B.1")
        out.append("a booby trap (disarmed)")
    return out


def fumble(g: Game, el: Element, area: Any, stands: list[Stand], feature_id: str | None) -> None:
    """``search.register_fumble``: G-35 "a natural 1 sets off any booby trap there", each on the searcher's
    stand nearest it."""
    for tr in _in_area(g, area, feature_id):
        if not g.state.living(el):
            return
        trip(g, tr, el, None, "G-35")


def reveal_near(g: Game, x: float, y: float, radius: float, why: str, clause: str, how: str = "tip") -> str | None:
    """Lift and disarm the hidden trap nearest (x, y) within ``radius`` (G-13: a villager's tip, a Friendly
    village); returns its public name, or None when there is none (and then nothing is said)."""
    p = Point(x, y)
    near = sorted((tr for tr in hidden(g) if _footprint(g, tr).distance(p) <= radius + 1e-9),
                  key=lambda tr: (_footprint(g, tr).distance(p), tr.id))
    return _found(g, near[0], why, how, clause) if near else None


search.register_finder(CHAPTER, finder)
search.register_fumble(CHAPTER, fumble)


# -- the chapter --------------------------------------------------------------------------------------------------
def markers(g: Game, side: str) -> list[dict]:
    """``booby_trap`` markers: the Insurgent (and the referee) see every trap, hidden ones too (with the
    scenario's id as ``token``); the Allied side only the found and sprung ones (DESIGN §6)."""
    st = _state(g)
    if st is None:
        return []
    owner = side in (OWNER, "referee")
    out = []
    for tr in st.traps:
        if tr.state == "hidden" and not owner:
            continue
        m = {"id": tr.name or tr.id, "kind": "booby_trap", "side": OWNER, "x": tr.x, "y": tr.y, "state": tr.state}
        if owner:
            m["token"] = tr.id
        out.append(m)
    return out


class BoobyTrapChapter(Chapter):
    """Booby traps (DD chapter 9B §1) on the chapter seam: active in a game whose scenario has them."""

    id = CHAPTER
    title = "DD chapter 9B: Booby Traps & Tripwires"
    state_type = BoobyTrapState

    def active(self, g: Game) -> bool:
        return _state(g) is not None

    def new_state(self, g: Game) -> BoobyTrapState | None:
        rows = getattr(g.scenario, "sections", {}).get(SECTION)
        if not rows:
            return None  # a game without booby traps keeps the state it had
        return BoobyTrapState(traps=[Trap(r.id, r.x, r.y, r.feature) for r in rows])

    def load_tables(self, book: Rulebook) -> BoobyTrapTables:
        return load_booby_traps(book=book)

    def markers(self, g: Game, side: str) -> list[dict]:
        return markers(g, side)

    on_move = staticmethod(on_move)
    freeze = ("DD-9B.2; G-08", "a booby trap")
    """What ``reactions`` says of a move it freezes for this chapter's listener (clause, why)."""


CHAPTER_OBJ = register_chapter(BoobyTrapChapter())
