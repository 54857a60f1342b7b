"""The Tunnel Warfare module underground (TUN-8–TUN-14, TUN-18, TUN-21, TUN-24; C-35; G-43).

Active when the scenario's ``[tunnels]`` says ``module = true`` (the network is ``game.rules.tunnels``').
G-43 maps TUN's "initiative" onto a DD activation, and the rules here follow it:

* **Going down** (``descend``, TUN-8, TUN-13, C-35): a stand of an element on the table whose base lies
  within 2" of a known, open hatch goes down into that surface section. An underground stand is its own
  element (G-43: a stand of a larger element is split off, ``detach``). At most one Free World stand is below
  at a time (TUN-13 "one per company": engine reading, the Allied force of a DD game is at most a company);
  the Tunnel Rats are exempt (C-35). Of the Insurgent side only the VC Tunnel Garrison goes down (TUN-13:
  the elements that start ``underground`` and the stands split from them; they are Veteran, the scenario
  reader checks, and never NVA). Heavy weapons may go down (TUN-14); nothing fires below (TUN-18).
* **One action per activation** (TUN-9, G-43): an underground stand activates as its own element (1 CP for an
  Allied one; the garrison's first activation of a turn free, a second for an Ambush Token, G-28 (4)) and
  takes exactly one action: ``crawl`` one section along a link (TUN-8: a stand enters a section, it never
  enters and leaves one in an action), ``tunnel_search``, ``tunnel_fight``, ``tunnel_charge``,
  ``tunnel_carry``, or ``surface`` at a surface section. A failed action ends only that activation (TUN-10):
  the side's next impulse comes as after any action. The TUN-11 lock as G-43 maps it: a side that took an
  underground action this turn, then activated something on the surface and then passed, may not act
  underground again this turn.
* **Sight** (TUN-12, TUN-24): a stand sees its own section and the adjacent ones. The Allied side learns
  (``tunnels`` ``found``) every section one of its stands is in or next to; a side sees an enemy stand below
  only in those sections (``shown_section``: the view's ``underground`` field). The enemy reads an underground
  stand's events only where it sees it.
* **Casualties** (TUN-21, G-43): a Free World stand destroyed below leaves a Casualty Token in its section;
  while one is below, no Free World stand starts a fight or crawls deeper (further, in sections, from the
  nearest open surface section). A stand takes it up (``tunnel_carry``, an action) and carries it as it
  crawls; coming up with it puts it on the table as a casualty its bearer carries (a Litter Team, DD-6.2).
  One left below at the end scores as a KIA (DD-3.17).

Close combat (TUN-19, TUN-20, C-36), the charges set from below (TUN-22, C-28) and the booby traps of the
network (TUN-7, TUN-23) are ``game.rules.tunnel_fight``; the Tunnel Rats' call and escort (TUN-15–TUN-17)
``game.rules.tunnel_rats``.

What it leaves out: a section's own capacity beyond a dug-out's (TUN-3: only dug-outs are sized; a length
of tunnel holds whoever crawls in), a detached stand rejoining its element when it comes up (it stays its own
element, as a detached specialist, DD-1.12), the points system (TUN-3, TUN-4: no points-buy in the engine),
the Surface and Underground Maps as paper (TUN-24: the engine keeps them, and shows each side its own).
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.rules import tunnels
from game.rules.chapters import Chapter, Step, register_chapter, state_of, tables
from game.rules.data import DATA_DIR, DataError, load_sections
from game.rules.errors import IllegalAction
from game.rules.state import Element, Stand

if TYPE_CHECKING:
    from game.rules.game import Game

CHAPTER = "underground"


# -- the tables (game/data/underground.toml) ----------------------------------------------------------
@dataclass(frozen=True)
class DescendRules:
    clause: str
    reach: float
    free_world_limit: int
    exempt_roles: list[str]
    barred_roles: list[str]
    pinned: bool


@dataclass(frozen=True)
class ActivationRules:
    clause: str
    allied_cp: int


@dataclass(frozen=True)
class LockRules:
    clause: str
    sides: list[str]


@dataclass(frozen=True)
class SightRules:
    clause: str
    hops: int


@dataclass(frozen=True)
class SurfaceRules:
    clause: str
    radius: float


@dataclass(frozen=True)
class SearchRules:
    clause: str
    target: int
    bonus_roles: list[str]
    bonus: int
    fumble: int


@dataclass(frozen=True)
class FightRules:
    clause: str
    vc_defending: int
    veteran: int
    tunnel_rats: int
    heavy_weapon: int
    heavy_roles: list[str]
    veteran_roles: list[str]
    destroyed: int
    withdraw_allied: str
    withdraw_insurgent: str


@dataclass(frozen=True)
class CasualtyRules:
    clause: str
    state: str


@dataclass(frozen=True)
class ChargeRules:
    clause: str
    roles: list[str]
    hops: int
    target: int


@dataclass(frozen=True)
class TrapRules:
    clause: str
    careful_roles: list[str]
    careful: int


@dataclass(frozen=True)
class GarrisonRules:
    clause: str
    per_capacity: int
    most: int
    level_one: float


@dataclass(frozen=True)
class RatRules:
    clause: str
    stand_type: str
    stands: int
    quality: str
    teams: int
    clock: int
    dismount: float
    escort: int
    escort_radius: float
    not_escort_roles: list[str]


@dataclass(frozen=True)
class UndergroundTables:
    descend: DescendRules
    activation: ActivationRules
    lock: LockRules
    sight: SightRules
    surface: SurfaceRules
    search: SearchRules
    fight: FightRules
    casualty: CasualtyRules
    charges: ChargeRules
    traps: TrapRules
    garrison: GarrisonRules
    tunnel_rats: RatRules


WITHDRAWALS = ("out", "deeper")
"""How a side's loser picks the section it withdraws to (G-43 "chosen by the loser"): towards the nearest open
surface section, or away from it."""


def load_underground(directory: Path = DATA_DIR) -> UndergroundTables:
    """Load ``underground.toml`` strictly: every section, known keys, a clause in each."""
    name = "underground.toml"
    built, _ = load_sections(name, typing.get_type_hints(UndergroundTables), directory)
    t = UndergroundTables(**built)
    for side in ("allied", "insurgent"):
        if getattr(t.fight, f"withdraw_{side}") not in WITHDRAWALS:
            raise DataError(name, "[fight]", f"withdraw_{side} must be one of {', '.join(WITHDRAWALS)}")
    if any(s not in ("allied", "insurgent") for s in t.lock.sides):
        raise DataError(name, "[lock]", "sides must name allied or insurgent")
    if not 1 <= t.fight.destroyed <= 6 or not 1 <= t.charges.target <= 6:
        raise DataError(name, "[fight]/[charges]", "a d6 score must be 1..6")
    return t


def rules(g: Game) -> UndergroundTables:
    return tables(g.book, CHAPTER)


# -- its state -----------------------------------------------------------------------------------------
@dataclass
class TunnelCasualty:
    """A Casualty Token left below by a Free World stand destroyed underground (TUN-21, G-43)."""

    id: str
    stand: str
    section: str
    carrier: str | None = None
    """The stand carrying it out (``tunnel_carry``); it travels with its bearer."""


@dataclass
class UndergroundState:
    """The module's state underground (``GameState.chapters["underground"]``); where each element is, is
    ``tunnels`` ``where``."""

    garrison: list[str] = field(default_factory=list)
    """The VC Tunnel Garrison's elements (TUN-13): those that start underground and the stands split from them."""
    casualties: list[TunnelCasualty] = field(default_factory=list)
    came_from: dict[str, str] = field(default_factory=dict)
    """Element id -> the section it last crawled in from (a loser withdraws away from the winner, G-43)."""
    below: list[str] = field(default_factory=list)
    """The sides that took an underground action this turn (TUN-11)."""
    switched: list[str] = field(default_factory=list)
    """The sides that then activated something on the surface (TUN-11)."""
    locked: list[str] = field(default_factory=list)
    """The sides that switched and passed: no more underground actions this turn (TUN-11, G-43)."""
    last_below: dict[str, int] = field(default_factory=dict)
    """Side -> the ``seq`` of its last underground activation (the TUN-11 bookkeeping)."""
    seen: int = 0
    """The last event ``seq`` the TUN-11 bookkeeping has read."""
    lost: list[str] = field(default_factory=list)
    """Free World stands (and casualties) buried in a collapsed section: KIA, never recovered (TUN-22, DD-3.17)."""
    rats: dict[str, Any] = field(default_factory=dict)
    """The Tunnel Rats' call (``game.rules.tunnel_rats``): calls made, the smoke waiting for the helicopter."""


def ug_state(g: Game) -> UndergroundState:
    return state_of(g, CHAPTER)


def active(g: Game) -> bool:
    net = tunnels.network(g)
    return net is not None and net.module and state_of(g, CHAPTER) is not None


def _net(g: Game) -> tunnels.Network:
    net = tunnels.network(g)
    assert net is not None
    return net


# -- who is where --------------------------------------------------------------------------------------
def underground(g: Game, side: str | None = None) -> list[tuple[Element, str]]:
    """(element, section) of every living element in the network, of ``side`` (or both), by element id."""
    ts = tunnels.state(g)
    if ts is None:
        return []
    out = []
    for eid, sid in sorted(ts.where.items()):
        el = g.state.elements.get(eid)
        if el is not None and (side is None or el.side == side) and g.state.living(el):
            out.append((el, sid))
    return out


def stands_in(g: Game, sid: str, side: str | None = None) -> list[Stand]:
    """The living stands in a section, of ``side`` (or both), by id."""
    return sorted((st for el, s in underground(g, side) if s == sid for st in g.state.living(el)),
                  key=lambda st: st.id)


def sees(g: Game, side: str) -> set[str]:
    """The sections ``side`` sees into now (TUN-12): those its stands are in and the adjacent ones."""
    hops = rules(g).sight.hops
    out: set[str] = set()
    for _, sid in underground(g, side):
        ring = {sid}
        for _ in range(hops):
            ring |= {o for s in ring for o in tunnels.adjacent(g, s)}
        out |= ring
    return out


def shown_section(g: Game, side: str, el: Element) -> str | None:
    """The section an element is in, as ``side``'s view shows it (the ``underground`` field): its owner's and
    the referee's always; the enemy's only where TUN-12 lets it see (with the module). None: not shown."""
    sid = tunnels.section_of(g, el.id)
    if sid is None or not g.state.living(el):
        return None
    if side in ("referee", el.side):
        return sid
    if not active(g):
        return None
    return sid if sid in sees(g, side) else None


def capacity_left(g: Game, sid: str) -> int | None:
    """Stands a dug-out still holds (TUN-3), or None for a section that is not sized."""
    cap = _net(g).sections[sid].capacity
    return None if cap is None else cap - len(stands_in(g, sid))


def hops_out(g: Game, sid: str) -> int | None:
    """Sections from ``sid`` to the nearest open surface section (TUN-21 "deeper"; G-43 withdrawal), along
    links through sections not collapsed; None when no way out is left."""
    net = _net(g)
    surface = {s for s in net.surface() if not tunnels.is_collapsed(g, s)}
    seen, ring, n = {sid}, [sid], 0
    while ring:
        if any(s in surface for s in ring):
            return n
        nxt = []
        for s in ring:
            for o in net.links.get(s, ()):
                if o not in seen and not tunnels.is_collapsed(g, o):
                    seen.add(o)
                    nxt.append(o)
        ring, n = sorted(nxt), n + 1
    return None


def casualty_below(g: Game) -> bool:
    """TUN-21: is a Free World casualty still in the tunnel system?"""
    st = state_of(g, CHAPTER)
    return st is not None and bool(st.casualties)


def learn(g: Game, by: str) -> None:
    """TUN-12, TUN-24: the Allied side learns every section its stands below see; each new one is announced
    to it (``tunnel_found``)."""
    ts = tunnels.state(g)
    net = _net(g)
    new = sorted(sees(g, "allied") - set(ts.found))
    if not new:
        return
    ts.found = sorted(set(ts.found) | set(new))
    for sid in new:
        sec = net.sections[sid]
        g.emit({"type": "tunnel_found", "section": sid, "kind": sec.kind, "x": sec.x, "y": sec.y, "by": by,
                "clause": "TUN-12; TUN-24",
                "text": f"{by} sees into a {tunnels.rules(g).kinds[sec.kind].name} ({sid})"}, visible="allied")


def visibility(g: Game, side: str, *sections: str | None) -> str:
    """Who reads an event of ``side``'s stand in these sections: both sides when the enemy sees one of them
    (TUN-12), else the owner only."""
    seen = sees(g, g.state.other(side))
    return "all" if any(s in seen for s in sections if s is not None) else side


def garrison_size(g: Game, net: tunnels.Network) -> int:
    """G-43's default garrison: one Veteran stand per 2 of dug-out capacity, at most 4 (Threat Level 2), half
    at Threat Level 1 (a scenario that lists no garrison: for its author and the computer player)."""
    r = rules(g).garrison
    cap = sum(s.capacity or 0 for s in net.sections.values())
    n = min(r.most, cap // r.per_capacity)
    if g.state.threat == 1:
        n = max(1, int(n * r.level_one)) if n else 0
    return n


# -- an underground stand as its own element (G-43) ---------------------------------------------------
def detach(g: Game, st: Stand) -> Element:
    """The element ``st`` acts as below: its own, when it is its element's only living stand; otherwise split
    off as a new element (G-43 "each underground stand is its own element") that keeps the element's quality,
    activations this turn and marks, in the same section."""
    s = g.state
    el = s.elements[st.element]
    if [x.id for x in s.living(el)] == [st.id]:
        return el
    new = Element(f"{el.id}-{st.id}", el.side, f"{el.name} ({st.id})", el.kind, el.quality, [st.id],
                  activations=el.activations, move_actions=el.move_actions, pinned=el.pinned, winded=el.winded,
                  reserve=el.reserve, sprinted_this_turn=el.sprinted_this_turn,
                  sprinted_last_turn=el.sprinted_last_turn, fired_turn=el.fired_turn)
    el.stands = [x for x in el.stands if x != st.id]
    st.element = new.id
    s.elements[new.id] = new
    s.elements = dict(sorted(s.elements.items()))
    ts = tunnels.state(g)
    if el.id in ts.where:
        ts.where[new.id] = ts.where[el.id]
        ts.entered[new.id] = ts.entered.get(el.id, s.turn)
        ts.where, ts.entered = dict(sorted(ts.where.items())), dict(sorted(ts.entered.items()))
    u = ug_state(g)
    if el.id in u.garrison:
        u.garrison = sorted(set(u.garrison) | {new.id})
    if el.id in u.came_from:
        u.came_from[new.id] = u.came_from[el.id]
        u.came_from = dict(sorted(u.came_from.items()))
    g.emit({"type": "note", "element": new.id, "elements": [el.id, new.id], "clause": "G-43",
            "text": f"{st.id} goes on as its own element, {new.name}"}, visible=el.side)
    return new


def place(g: Game, el: Element, sid: str | None) -> None:
    """Put an element in a section (None: out of the network, on the table)."""
    ts = tunnels.state(g)
    if sid is None:
        ts.where.pop(el.id, None)
        ts.entered.pop(el.id, None)
        el.reserve = False
        return
    if el.id not in ts.where:
        ts.entered[el.id] = g.state.turn
    ts.where[el.id] = sid
    ts.where, ts.entered = dict(sorted(ts.where.items())), dict(sorted(ts.entered.items()))
    el.reserve = True
    el.overwatch = None
    el.conceal = False


# -- paying for an activation below (TUN-9, G-43) -----------------------------------------------------
def price(g: Game, el: Element) -> dict | None:
    """What activating an underground element costs now, or None if it cannot activate (G-28 (2), G-43)."""
    if el.activations >= g.book.turn.max_activations:
        return None
    pool = g.state.sides[el.side]
    if el.side == "allied":
        cost = rules(g).activation.allied_cp
        return {"cost": cost, "tokens": 0, "clause": "TUN-9; G-43"} if pool.cp >= cost else None
    tokens = 0 if el.activations == 0 else g.book.turn.second_activation_tokens
    return {"cost": 0, "tokens": tokens, "clause": "TUN-9; G-43; G-28 (4)"} if pool.ambush_tokens >= tokens else None


def pay(g: Game, el: Element, cost: dict, sid: str) -> None:
    pool = g.state.sides[el.side]
    el.activations += 1
    pool.cp -= cost["cost"]
    pool.ambush_tokens -= cost["tokens"]
    text = f"{el.name} activates underground"
    if cost["cost"]:
        text += f" for {cost['cost']} CP ({pool.cp} left)"
    if cost["tokens"]:
        text += f" for {cost['tokens']} Ambush Token ({pool.ambush_tokens} left)"
    ev = g.emit({"type": "activate", "element": el.id, "side": el.side, "cost": cost["cost"], "tokens": cost["tokens"],
                 "emergency": False, "clause": cost["clause"], "text": text}, visible=el.side)
    if visibility(g, el.side, sid) == "all":
        g.emit({"type": "activate", "element": el.id, "side": el.side, "clause": "DD-2.5; TUN-12",
                "text": f"{el.name} activates"}, visible=g.state.other(el.side))
    mark_below(g, el.side, ev["seq"])


def mark_below(g: Game, side: str, seq: int) -> None:
    """TUN-11 bookkeeping: ``side`` acted underground (its activation event's ``seq``)."""
    u = ug_state(g)
    u.below = sorted(set(u.below) | {side})
    u.switched = [s for s in u.switched if s != side]
    u.last_below[side] = seq


def refuse_locked(g: Game, side: str) -> None:
    if side in ug_state(g).locked:
        raise IllegalAction(f"the {side} side switched to the surface and passed: no more underground actions "
                            "this turn", "TUN-11; G-43")


def read_lock(g: Game) -> None:
    """After each act (TUN-11, G-43): a side that acted below, then activated on the surface, then passed, is
    locked out of the tunnels for the rest of the turn."""
    u = ug_state(g)
    lock = set(rules(g).lock.sides)
    new = []
    for ev in reversed(g.events):
        if ev["seq"] <= u.seen:
            break
        new.append(ev)
    if g.events:
        u.seen = max(u.seen, g.events[-1]["seq"])
    for ev in reversed(new):
        side = ev.get("side")
        if side not in lock:
            continue
        if ev["type"] == "activate" and "cost" in ev and ev["seq"] != u.last_below.get(side):
            if side in u.below and side not in u.switched:
                u.switched = sorted(u.switched + [side])
        elif ev["type"] == "pass" and side in u.switched and side not in u.locked:
            u.locked = sorted(u.locked + [side])
            g.emit({"type": "note", "clause": "TUN-11; G-43",
                    "text": f"The {side} side switched to the surface and passed: no more underground actions "
                            "this turn"}, visible=side)


def new_turn(g: Game) -> None:
    """Phase 1: the TUN-11 lock lasts the turn."""
    u = ug_state(g)
    u.below, u.switched, u.locked = [], [], []


# -- the chapter --------------------------------------------------------------------------------------
def markers(g: Game, side: str) -> list[dict]:
    """The Casualty Tokens below (TUN-21): the Allied side's own; the Insurgent's where it sees (TUN-12)."""
    u = ug_state(g)
    seen = None if side in ("allied", "referee") else sees(g, side)
    out = []
    for c in u.casualties:
        if seen is not None and c.section not in seen:
            continue
        sec = _net(g).sections[c.section]
        out.append({"id": c.id, "kind": "tunnel_casualty", "side": "allied", "section": c.section, "x": sec.x,
                    "y": sec.y, "state": "below", **({"carried_by": c.carrier} if c.carrier else {})})
    return out


def score(g: Game) -> list[tuple[int, str]]:
    """A casualty left in the tunnels at the end, or a stand buried in one, scores as a KIA (TUN-21; DD-3.17)."""
    v = g.book.victory
    u = ug_state(g)
    return ([(v.kia, f"casualty {c.id} left in the tunnels {v.kia:+d} (TUN-21, DD-3.17)") for c in u.casualties]
            + [(v.kia, f"{sid} buried in a collapsed tunnel {v.kia:+d} (TUN-22, DD-3.17)") for sid in u.lost])


def starting_garrison(g: Game) -> list[str]:
    return sorted(e.id for e in g.scenario.elements if getattr(e, "underground", None) is not None)


class UndergroundChapter(Chapter):
    """The TUN module underground: active when the scenario's ``[tunnels]`` has ``module = true``."""

    id = CHAPTER
    title = "The Tunnel Warfare module: underground"
    actions = ("descend", "crawl", "surface", "tunnel_carry", "tunnel_search", "tunnel_fight", "tunnel_charge",
               "call_tunnel_rats")
    state_type = UndergroundState
    table_fields = ("garrison", "casualties", "came_from", "locked")
    clock_kinds = ("tunnel_rats",)

    def active(self, g: Game) -> bool:
        return active(g)

    def new_state(self, g: Game) -> UndergroundState | None:
        net = tunnels.network(g)
        if net is None or not net.module:
            return None
        return UndergroundState(garrison=starting_garrison(g))

    def load_tables(self, book: Any) -> UndergroundTables:
        return load_underground()

    def steps(self) -> tuple[Step, ...]:
        from game.rules.tunnel_fight import buried

        return (Step("tension", 36, new_turn, "TUN-11; G-43", self.id),
                Step("after_act", 40, read_lock, "TUN-11; G-43", self.id),
                Step("after_act", 41, buried, "TUN-22; G-43", self.id))

    def on_clock(self, g: Game, clock: Any) -> None:

        tunnel_rats.touchdown(g, clock)

    def markers(self, g: Game, side: str) -> list[dict]:

        return markers(g, side) + tunnel_rats.markers(g)

    def score(self, g: Game) -> list[tuple[int, str]]:
        return score(g)


register_chapter(UndergroundChapter())

from game.rules import tunnel_fight, tunnel_movement, tunnel_rats  # noqa: E402,F401,I001  (the module's actions)
