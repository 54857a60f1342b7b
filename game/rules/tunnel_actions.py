"""Tunnels on the surface (DD-9B.3–9B.7; G-35; C-28; TUN-5, TUN-7, TUN-17, TUN-22, TUN-23): the actions.

The network, its state and its reading are ``game.rules.tunnels``; this module is what the two sides do at
its entrances, all numbers in ``game/data/tunnels.toml``:

* **Finding an entrance** (DD-9B.3, TUN-5): a concealed entrance or spider hole is found only by a
  successful Search (DD-2.15, 4+; the search's finder seam): one whose hatch lies in the searched feature
  (or is placed in it by the scenario) or in the ground searched, within 2" of the searching stands. It
  joins the Allied side's ``found`` and a public ``tunnel_found`` event lifts its marker. A found trapped
  entrance is disarmed (G-35 "booby trap (disarmed)"); a natural 1 sets its trap off (G-35). An unconcealed
  entrance of a bunker or trench (TUN-4) is known to both sides from the start (``tunnels.starting_state``).
* **Going down** (``enter_tunnel``, DD-9B.4): an unpinned Insurgent element on the table with a stand in
  base contact with an open entrance of its network spends an action; it goes into the network (off the
  table, ``Element.reserve``; ``TunnelState.where`` the entrance). With the TUN module an NVA side cannot go
  down (TUN-13).
* **Coming up** (``emerge_tunnel``, DD-9B.5, G-35, without the module): at the start of its activation,
  never the turn it went down, a unit in the network is placed within 2" of any other open entrance linked
  to the one it used; it may then act normally (a free side action: the impulse goes on, one emergence an
  impulse). Within 6" of an Allied element it may pay 1 Ambush Token to come up as an Ambush (DD-2.27–2.30:
  it fires first, then the Allied Discipline Check). With the module, coming up is ``game.rules.underground``'s.
* **At a found entrance** (DD-9B.6, G-35), an Allied element with a stand within 2":
  ``gas_tunnel`` (CS: nothing enters or emerges there until the end of the next turn; with Insurgent stands
  below, the Insurgent loses 1 Ambush Token); ``tunnel_satchel`` (a satchel charge: 3+ collapses it, G-35 is
  silent on the roll, so DD-9B.7's); and, without the module, ``tunnel_rat`` (a Small stand goes down and
  rolls G-35's table: 1 lost, 2–3 nothing, 4–5 another linked entrance revealed, 6 a cache, Drift +2, VP +1,
  and the entrance may be collapsed).
* **Destroying it** (DD-9B.7, TUN-22, C-28): ``destroy_tunnel`` (any stand, the activation's CP, 3+) and,
  for Engineers, Sappers and Tunnel Rats (TUN-17), ``set_charges``: announced, the whole activation, the
  enemy's Overwatch may fire on the charging stands (G-43: TUN's "reactive fire"), and at the end of the
  initiative (as the next impulse opens) 2+ destroys it; on a 1 it may be tried again. The collapse itself is
  ``tunnels.collapse`` (the underground half of TUN-22 calls it too): permanent, public, +1 VP (G-30).

Fog (DESIGN §6, docs/fog.md): the network and who is in it are the Insurgent's secret. An element going down
or coming up is seen on the table: the Allied side sees it vanish or appear (events without the section);
only the Insurgent reads which entrance. Gas, charges and collapses are at known entrances: public.

What it leaves out: a Tunnel Rat really going down with the module (``game.rules.underground``); a cache
found by a Tunnel Rat as a table piece (``game.rules.village`` owns caches: the roll scores it); Hot Sectors.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shapely.geometry import Point

from game.rules import search, tunnels
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, SideActionKind, register, register_side
from game.rules.state import Element, Stand, base_of
from game.rules.tunnels import SectionSetup, TunnelState, network, rules

if TYPE_CHECKING:
    from game.rules.game import Game


# -- helpers ----------------------------------------------------------------------------------------------
def _st(g: Game) -> TunnelState:
    st = tunnels.state(g)
    assert st is not None, "the tunnels chapter is not active in this game"
    return st


def hatch_gap(g: Game, stand: Stand, sec: SectionSetup) -> float:
    """From a stand's base edge to the hatch marker's edge (DD-9B.3: a 20 mm marker)."""
    return max(0.0, base_of(g.book, stand).distance(Point(sec.x, sec.y)) - rules(g).enter.hatch)


def _surface(g: Game) -> list[SectionSetup]:
    net = network(g)
    return [] if net is None else [net.sections[s] for s in net.surface()]


def _near(g: Game, el: Element, reach: float, found_only: bool) -> list[tuple[SectionSetup, list[Stand]]]:
    """The open surface sections within ``reach`` of ``el``'s stands (those the Allied side knows, when
    ``found_only``), each with the stands within reach."""
    if tunnels.state(g) is None or not g.state.on_table(el):
        return []
    known = set(tunnels.known(g, "allied")) if found_only else None
    # what the Insurgent uses must be open; the Allied side may still blow or gas a gassed one (G-35:
    # the gas stops what "enters or emerges" there)
    usable = set(tunnels.open_sections(g)) if not found_only else \
        {s.id for s in _surface(g) if not tunnels.is_collapsed(g, s.id)}
    out = []
    for sec in _surface(g):
        if sec.id not in usable or (known is not None and sec.id not in known):
            continue
        near = [s for s in g.state.living(el) if hatch_gap(g, s, sec) <= reach + 1e-9]
        if near:
            out.append((sec, near))
    return out


def _pick(g: Game, el: Element, action: dict, reach: float, clause: str, what: str) -> tuple[SectionSetup, list[Stand]]:
    """The found open entrance an Allied action names, within reach of the element (refusals cite
    ``clause``); a section the Allied side does not know reads like no section at all (fog)."""
    if el.side != "allied":
        raise IllegalAction(f"only the Allied side can {what} a tunnel entrance", clause)
    sid = action.get("section")
    st = _st(g)
    if not isinstance(sid, str) or sid not in tunnels.known(g, "allied"):
        raise IllegalAction(f"no tunnel entrance {sid!r} found by the Allied side", f"{clause}; DD-9B.3")
    if sid in st.collapsed:
        raise IllegalAction(f"tunnel entrance {sid} has collapsed: it is unusable for the rest of the game",
                            "DD-9B.7")
    near = dict((s.id, (s, stands)) for s, stands in _near(g, el, reach, True))
    if sid not in near:
        if tunnels.is_gassed(g, sid):
            raise IllegalAction(f"tunnel entrance {sid} is full of CS gas until the end of turn "
                                f"{st.gassed[sid]}", "DD-9B.6; G-35")
        raise IllegalAction(f"{el.name} has no stand within {reach:g}\" of tunnel entrance {sid}", clause)
    return near[sid]


def _params(sections: list[SectionSetup], doc: str) -> dict:
    return {"section": {"kind": "choice", "choices": [s.id for s in sections], "doc": doc}}


def _public_point(stands: list[Stand]) -> tuple[float, float]:
    return (round(sum(s.x for s in stands) / len(stands), 3), round(sum(s.y for s in stands) / len(stands), 3))


def in_network(g: Game, side: str = "insurgent") -> list[Element]:
    """The elements of ``side`` in the network with living stands, by id."""
    st = tunnels.state(g)
    if st is None:
        return []
    return [g.state.elements[e] for e in sorted(st.where)
            if g.state.elements[e].side == side and g.state.living(g.state.elements[e])]


# -- DD-9B.3: the Search finder ---------------------------------------------------------------------------
def _hidden_in(g: Game, area: Any, feature_id: str | None) -> list[SectionSetup]:
    st = tunnels.state(g)
    if st is None:
        return []
    hatch = rules(g).enter.hatch
    out = []
    for sec in _surface(g):
        if sec.id in st.found or not sec.concealed:
            continue
        inside = area is not None and area.distance(Point(sec.x, sec.y)) <= hatch + 1e-9
        if inside or (feature_id is not None and sec.feature == feature_id):
            out.append(sec)
    return out


def finder(g: Game, el: Element, area: Any, stands: list[Stand], feature_id: str | None) -> list[str]:
    """DD-9B.3, TUN-5: a successful Search finds every concealed entrance in the area searched."""
    st = _st(g)
    out = []
    for sec in _hidden_in(g, area, feature_id):
        reveal(g, sec, el.id, "search", "DD-9B.3; TUN-5; G-35")
        if sec.trapped and sec.id not in st.disarmed:
            st.disarmed = sorted({*st.disarmed, sec.id})  # G-35: a booby trap found is disarmed (TUN-7)
            out.append(f"a booby-trapped {rules(g).kinds[sec.kind].name} (disarmed)")
        else:
            out.append(f"a {rules(g).kinds[sec.kind].name}")
    return out


def fumble(g: Game, el: Element, area: Any, stands: list[Stand], feature_id: str | None) -> None:
    """G-35: a natural 1 sets off any booby trap there: a trapped hidden entrance (TUN-7)."""
    st = _st(g)
    for sec in _hidden_in(g, area, feature_id):
        if sec.trapped and sec.id not in st.disarmed:
            spring_trap(g, el, sec, "G-35; TUN-7")


def spring_trap(g: Game, el: Element, sec: SectionSetup, clause: str) -> str | None:
    """A trapped section's booby trap goes off under ``el`` (TUN-7, G-43: the G-08 table, rolled by
    ``booby_traps.spring``); it is spent (disarmed) after. Returns the result, or None."""
    st = _st(g)
    st.disarmed = sorted({*st.disarmed, sec.id})
    try:
        from game.rules import booby_traps
    except ImportError:  # pragma: no cover - the booby trap chapter ships with this one
        return None
    return booby_traps.spring(g, el, sec.x, sec.y, 0, f"tunnel {sec.id}", clause)


def reveal(g: Game, sec: SectionSetup, by: str, how: str, clause: str) -> None:
    """The Allied side learns of a section (``tunnel_found``, public; it joins ``found``)."""
    st = _st(g)
    if sec.id in st.found:
        return
    st.found = sorted({*st.found, sec.id})
    name = rules(g).kinds[sec.kind].name
    g.emit({"type": "tunnel_found", "section": sec.id, "kind": sec.kind, "x": sec.x, "y": sec.y, "by": by,
            "how": how, "clause": clause, "text": f"A {name} is found at ({sec.x:g}, {sec.y:g})"})


search.register_finder(tunnels.CHAPTER, finder)
search.register_fumble(tunnels.CHAPTER, fumble)


# -- DD-9B.4: going down ----------------------------------------------------------------------------------
def _entrances_in_contact(g: Game, el: Element) -> list[SectionSetup]:
    contact = g.book.command.base_contact
    return [sec for sec, _ in _near(g, el, contact, False)]


class EnterTunnel(ActionKind):
    """DD-9B.4: an unpinned Insurgent element in base contact with an open entrance goes down (1 action)."""

    type = "enter_tunnel"
    chapter = "tunnels"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        if el.side != "insurgent" or el.pinned or _refused_garrison(g) or tunnels.state(g) is None:
            return []
        secs = _entrances_in_contact(g, el)
        if not secs:
            return []
        return [{"type": self.type, **common, "clause": "DD-9B.4",
                 "label": f"{el.name}: go down the tunnel ({price})",
                 "params": _params(secs, "an open entrance of the network in base contact with a stand")}]

    def check(self, g: Game, el: Element, action: dict) -> SectionSetup:
        if el.side != "insurgent":
            raise IllegalAction("only the Insurgent side goes down its tunnels", "DD-9B.4")
        if tunnels.state(g) is None:
            raise IllegalAction("this scenario has no tunnels", "DD-9B.4")
        if el.pinned:
            raise IllegalAction(f"{el.name} is Pinned: only an unpinned unit enters a tunnel", "DD-9B.4")
        why = _refused_garrison(g)
        if why:
            raise IllegalAction(why, "TUN-13")
        sid = action.get("section")
        net = network(g)
        sec = net.sections.get(sid) if net is not None and isinstance(sid, str) else None
        if sec is None or not tunnels.is_surface(sec):
            raise IllegalAction(f"no tunnel entrance {sid!r}", "DD-9B.4")
        if tunnels.is_collapsed(g, sid):
            raise IllegalAction(f"tunnel entrance {sid} has collapsed", "DD-9B.7")
        if tunnels.is_gassed(g, sid):
            raise IllegalAction(f"tunnel entrance {sid} is full of CS gas: nothing enters until the end of turn "
                                f"{_st(g).gassed[sid]}", "DD-9B.6; G-35")
        if sec not in _entrances_in_contact(g, el):
            raise IllegalAction(f"{el.name} has no stand in base contact with tunnel entrance {sid}", "DD-9B.4")
        return sec

    def resolve(self, g: Game, el: Element, action: dict, plan: SectionSetup) -> None:
        go_down(g, el, plan, "DD-9B.4")


def _refused_garrison(g: Game) -> str | None:
    """TUN-13: with the TUN module, NVA cannot provide a tunnel garrison."""
    net = network(g)
    fac = g.state.sides["insurgent"].faction
    if net is not None and net.module and fac not in rules(g).network.garrison_factions:
        return f"a {fac} side cannot go underground: only the VC Tunnel Garrison can (TUN-13)"
    return None


def go_down(g: Game, el: Element, sec: SectionSetup, clause: str) -> None:
    """An element goes into the network at ``sec`` (off the table, hidden; its stands keep their x, y). The
    Allied side sees it vanish; the Insurgent reads where."""
    st = _st(g)
    stands = g.state.living(el)
    px, py = _public_point(stands)
    el.reserve = True
    el.conceal = False
    el.overwatch = None
    st.where = dict(sorted({**st.where, el.id: sec.id}.items()))
    st.entered = dict(sorted({**st.entered, el.id: g.state.turn}.items()))
    g.emit({"type": "tunnel_enter", "element": el.id, "x": px, "y": py, "clause": clause,
            "text": f"{el.name} vanishes from the table"}, visible="allied")
    g.emit({"type": "tunnel_enter", "element": el.id, "section": sec.id, "x": sec.x, "y": sec.y,
            "clause": clause, "text": f"{el.name} goes down tunnel entrance {sec.id}"}, visible="insurgent")


# -- DD-9B.5 / G-35: coming up (without the module) -------------------------------------------------------
def exits(g: Game, el: Element) -> list[SectionSetup]:
    """The entrances ``el`` may come up at now (G-35): other open entrances linked to the one it used."""
    net = network(g)
    st = tunnels.state(g)
    if net is None or st is None or net.module or el.id not in st.where:
        return []
    at = st.where[el.id]
    usable = set(tunnels.open_sections(g))
    surface = set(net.surface())
    return [net.sections[s] for s in net.linked(at) if s in usable and s in surface]


def emerge_placement(g: Game, el: Element, sec: SectionSetup) -> dict[str, tuple[float, float, float]] | None:
    """Where ``el``'s stands come up at ``sec`` (G-35): the element's layout kept, every base within 2" of
    the hatch, on a legal spot (the nearest, in 0.5" rings); None when it cannot."""
    stands = g.state.living(el)
    if not stands:
        return None
    reach = rules(g).emerge.radius
    cx, cy = _public_point(stands)
    steps = [(0.0, 0.0)]
    for r in (0.5, 1.0, 1.5, 2.0):
        n = max(8, int(round(2 * math.pi * r / 0.5)))
        steps += [(r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n)) for k in range(n)]
    for ox, oy in steps:
        moved = {s.id: Stand(**{**s.__dict__, "x": round(s.x - cx + sec.x + ox, 4),
                                "y": round(s.y - cy + sec.y + oy, 4)}) for s in stands}
        if all(hatch_gap(g, m, sec) <= reach + 1e-9 for m in moved.values()) and g.placement_ok(el, moved):
            return {sid: (m.x, m.y, m.facing) for sid, m in moved.items()}
    return None


@dataclass(frozen=True)
class EmergePlan:
    element: Element
    section: SectionSetup
    spots: dict[str, tuple[float, float, float]]
    ambush: Element | None


class EmergeTunnel(SideActionKind):
    """DD-9B.5, G-35: a unit in the network comes up within 2" of another linked entrance (free: it then
    acts normally); within 6" of an Allied element, for 1 Ambush Token, as an Ambush."""

    type = "emerge_tunnel"
    free = True
    opens_impulse = True
    """The side does not pass for want of elements on the table while one can come up (G-28 (6))."""

    def offers(self, g: Game, side: str) -> list[dict]:
        if side != "insurgent" or tunnels.state(g) is None or _emerged_this_impulse(g):
            return []
        out = []
        for el in in_network(g):
            if not self._ready(g, el):
                continue
            secs = [s for s in exits(g, el) if emerge_placement(g, el, s) is not None]
            if not secs:
                continue
            out.append({"type": self.type, "element": el.id, "side": side, "cost": 0, "tokens": 0,
                        "clause": "DD-9B.5; G-35", "label": f"{el.name}: come up from the tunnels (free; then act)",
                        "params": {**_params(secs, "another open entrance linked to the one it went down"),
                                   "ambush": {"kind": "flag", "optional": True,
                                              "doc": f"come up as an Ambush ({rules(g).emerge.ambush_cost} Ambush "
                                                     f"Token): an Allied element within "
                                                     f"{rules(g).emerge.ambush_range:g}\""}}})
        return out

    def _ready(self, g: Game, el: Element) -> bool:
        st = _st(g)
        return rules(g).emerge.same_turn or st.entered.get(el.id, -1) < g.state.turn

    def check(self, g: Game, side: str, action: dict) -> EmergePlan:
        clause = "DD-9B.5; G-35"
        if side != "insurgent":
            raise IllegalAction("only the Insurgent side comes up from its tunnels", clause)
        net = network(g)
        if net is None or tunnels.state(g) is None:
            raise IllegalAction("this scenario has no tunnels", clause)
        eid = action.get("element")
        el = g.state.elements.get(eid) if isinstance(eid, str) else None
        if el is None or el not in in_network(g):
            raise IllegalAction(f"no Insurgent element {eid!r} in the tunnels", clause)
        if net.module:
            raise IllegalAction("with the Tunnel Warfare module a unit crawls section by section and comes up "
                                "where it has crawled to", "G-43; TUN-8")
        if _emerged_this_impulse(g):
            raise IllegalAction("a unit has already come up this impulse: one comes up at the start of its "
                                "activation", clause)
        if not self._ready(g, el):
            raise IllegalAction(f"{el.name} went down this turn: a unit cannot enter and emerge in the same "
                                "turn", clause)
        sid = action.get("section")
        secs = {s.id: s for s in exits(g, el)}
        if sid not in secs:
            why = "gassed" if isinstance(sid, str) and tunnels.is_gassed(g, sid) else \
                "collapsed" if isinstance(sid, str) and tunnels.is_collapsed(g, sid) else None
            raise IllegalAction(f"{el.name} cannot come up at {sid!r}" + (f": it is {why}" if why else
                                ": not another open entrance linked to the one it went down"),
                                "DD-9B.6; G-35" if why == "gassed" else "DD-9B.7" if why else clause)
        spots = emerge_placement(g, el, secs[sid])
        if spots is None:
            raise IllegalAction(f"no room within {rules(g).emerge.radius:g}\" of {sid} for {el.name}",
                                f"{clause}; DD-3.20")
        target = None
        if action.get("ambush"):
            e = rules(g).emerge
            if g.state.sides[side].ambush_tokens < e.ambush_cost:
                raise IllegalAction(f"an Ambush costs {e.ambush_cost} Ambush Token; "
                                    f"{g.state.sides[side].ambush_tokens} left", "G-35; DD-2.26")
            target = _ambush_target(g, el, spots)
            if target is None:
                raise IllegalAction(f"no Allied element within {e.ambush_range:g}\" of where {el.name} comes up",
                                    "G-35")
        return EmergePlan(el, secs[sid], spots, target)

    def act(self, g: Game, side: str, action: dict) -> None:
        self.resolve(g, side, action, self.check(g, side, action))

    def resolve(self, g: Game, side: str, action: dict, plan: EmergePlan) -> None:
        come_up(g, plan.element, plan.section, plan.spots, "DD-9B.5; G-35")
        if plan.ambush is not None:
            emerge_ambush(g, plan.element, plan.ambush)


def _emerged_this_impulse(g: Game) -> bool:
    st = tunnels.state(g)
    return st is not None and st.emerged == [g.state.turn, g.state.impulse]


def _ambush_target(g: Game, el: Element, spots: dict[str, tuple[float, float, float]]) -> Element | None:
    """The Allied element nearest the emerging stands within 6" (G-35), or None."""
    reach = rules(g).emerge.ambush_range
    placed = [Stand(**{**g.state.stands[sid].__dict__, "x": x, "y": y, "facing": f}) for sid, (x, y, f) in spots.items()]
    best = None
    for other in sorted(g.state.side_stands("allied"), key=lambda s: s.id):
        d = min(base_of(g.book, p).distance(base_of(g.book, other)) for p in placed)
        if d <= reach + 1e-9 and (best is None or d < best[0]):
            best = (d, other.element)
    return g.state.elements[best[1]] if best else None


def come_up(g: Game, el: Element, sec: SectionSetup, spots: dict[str, tuple[float, float, float]],
            clause: str) -> None:
    """An element leaves the network at ``sec``: its stands go down on the table at ``spots`` (public: the
    miniatures appear; the Insurgent reads which entrance). ``underground`` calls it too."""
    st = _st(g)
    el.reserve = False
    placed = []
    for s in g.state.living(el):
        s.x, s.y, s.facing = spots[s.id]
        placed.append({"id": s.id, "type": s.type, "x": s.x, "y": s.y, "facing": s.facing})
    st.where = {k: v for k, v in st.where.items() if k != el.id}
    st.entered = {k: v for k, v in st.entered.items() if k != el.id}
    st.emerged = [g.state.turn, g.state.impulse]
    px, py = _public_point(g.state.living(el))
    g.emit({"type": "tunnel_emerge", "element": el.id, "x": px, "y": py, "stands": placed, "clause": clause,
            "text": f"{el.name} appears from the ground"}, visible="allied")
    g.emit({"type": "tunnel_emerge", "element": el.id, "section": sec.id, "x": sec.x, "y": sec.y,
            "stands": placed, "clause": clause, "text": f"{el.name} comes up at tunnel entrance {sec.id}"},
           visible="insurgent")


def emerge_ambush(g: Game, amb: Element, mover: Element) -> None:
    """G-35: it comes up as an Ambush (DD-2.26–2.30): 1 Ambush Token; it fires first, then the Allied
    Discipline Check (pass: prone and Desperate Return Fire; fail: Pinned)."""
    from game.rules import fire
    from game.rules.crew import reaction_fire
    from game.rules.morale import morale_test, pin
    from game.rules.reactions import closest_target

    cost = rules(g).emerge.ambush_cost
    side = g.state.sides["insurgent"]
    side.ambush_tokens -= cost
    g.emit({"type": "tokens", "side": "insurgent", "spent": cost, "tokens": side.ambush_tokens, "clause": "G-35",
            "text": f"{cost} Ambush Token spent ({side.ambush_tokens} left)"}, visible="insurgent")
    g.emit({"type": "ambush", "element": amb.id, "target_element": mover.id, "clause": "G-35; DD-2.26; DD-9B.5",
            "text": f"AMBUSH! {amb.name} comes up out of the ground at {mover.name}"})
    target = closest_target(g, amb, mover)
    if target is None:
        g.emit({"type": "note", "element": amb.id, "clause": "G-35",
                "text": f"{amb.name} cannot see {mover.name} to fire"})
        return
    ctx = fire.Context("ambush", "G-35; DD-2.27-2.29", column=fire.in_column(g, mover), morale=False)
    reaction_fire(g, amb, target, ctx, f"{amb.name} ambushes {mover.name}")
    if not g.state.living(mover):
        return
    if morale_test(g, mover, "ambush Discipline Check", "DD-2.30; C-24"):
        back = closest_target(g, mover, amb) if g.state.living(amb) else None
        if back is not None:
            reaction_fire(g, mover, back, fire.Context("desperate", "DD-2.30"),
                          f"{mover.name}: Desperate Return Fire at {amb.name}")
    else:
        pin(g, mover, "DD-2.30")


register(EnterTunnel())
register_side(EmergeTunnel())
