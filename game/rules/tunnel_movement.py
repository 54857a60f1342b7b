"""Movement underground with the Tunnel Warfare module (TUN-8–TUN-10, TUN-13, TUN-21; C-35; G-43): the
actions of a stand in the network, and going down into it.

* ``descend`` (TUN-8, TUN-13, C-35): a stand of an Allied element on the table whose base lies within 2" of
  a known, open hatch goes down into that surface section, as its own element (G-43). At most one Free World
  stand is below at a time, the Tunnel Rats apart; a vehicle's never; a Pinned element's never (DD-9B.4); a
  Litter Team's never. Heavy weapons may go down (TUN-14). The garrison goes down by ``enter_tunnel``
  (DD-9B.4, ``game.rules.tunnel_actions``).
* ``crawl`` (TUN-8): one section along a link; never into a collapsed one (DD-9B.7, TUN-22), a gassed one
  (G-35) or a full dug-out (TUN-3); a Free World stand never deeper (further from the nearest open surface
  section) while a Free World casualty is below (TUN-21). A Free World stand entering a trapped section
  springs its trap (TUN-7, TUN-23, G-43).
* ``surface`` (TUN-8; G-43 replaces DD-9B.5): at a surface section, not gassed (G-35), the stand is placed
  within 2" of the hatch on a legal spot; a casualty it carries comes up with it (TUN-21, a Litter Team).
* ``tunnel_carry`` (TUN-21, G-43): a Free World stand takes up a casualty in its section (an action).

Each is one activation of the stand as its own element (``Below``: 1 CP Allied; the garrison's first free,
a second for an Ambush Token), refused under the TUN-11 lock; a failed one ends only that activation
(TUN-10). Events of a stand below go to its side, and to the enemy where TUN-12 lets it see.

What it leaves out: a multi-stand element going down whole (one stand an action: G-43's "each underground
stand is its own element").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shapely.geometry import Point

from game.rules import tunnels
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, SideActionKind, register, register_side
from game.rules.state import Element, Stand, Token, base_of
from game.rules.underground import (
    TunnelCasualty,
    _net,
    active,
    capacity_left,
    casualty_below,
    detach,
    hops_out,
    learn,
    mark_below,
    pay,
    place,
    price,
    refuse_locked,
    rules,
    sees,
    ug_state,
    underground,
    visibility,
)

if TYPE_CHECKING:
    from game.rules.game import Game


# -- the actions of a stand below --------------------------------------------------------------------------
@dataclass(frozen=True)
class BelowPlan:
    stand: Stand
    element: Element
    section: str
    cost: dict
    detail: Any = None


def own_stand_below(g: Game, side: str, action: dict) -> tuple[Stand, Element, str]:
    """The acting stand of ``side`` below, its element and section; refused as an id naming nothing when it
    is not one (DESIGN §6)."""
    if not active(g):
        raise IllegalAction("no tunnel network is played with the TUN module in this game", "TUN-8; G-43")
    sid_ = action.get("stand")
    st = g.state.stands.get(sid_) if isinstance(sid_, str) else None
    if st is None or st.side != side or not st.alive:
        raise IllegalAction(f"no {side} stand {sid_!r} underground", "TUN-8")
    el = g.state.elements[st.element]
    sec = tunnels.section_of(g, el.id)
    if sec is None:
        raise IllegalAction(f"{st.id} is not underground", "TUN-8")
    return st, el, sec


class Below(SideActionKind):
    """An action of one stand in the network (TUN-9: one action per activation; G-43)."""

    clause = "TUN-9; G-43"
    verb = ""
    opens_impulse = True
    """A side with stands below is never passed for want of elements on the table (``Game._opens``)."""

    def params(self, g: Game, st: Stand, el: Element, sid: str) -> dict | None:
        """The offer's params for this stand now, or None when it cannot take the action."""
        return {}

    def plan(self, g: Game, st: Stand, el: Element, sid: str, action: dict) -> Any:
        """Every check of the action's own (raise IllegalAction); its detail for ``carry_out``."""
        return None

    def carry_out(self, g: Game, st: Stand, el: Element, sid: str, detail: Any) -> None:
        raise NotImplementedError

    def offers(self, g: Game, side: str) -> list[dict]:
        if not active(g) or side in ug_state(g).locked:
            return []
        out = []
        for el, sid in underground(g, side):
            cost = price(g, el)
            if cost is None:
                continue
            for st in g.state.living(el):
                params = self.params(g, st, el, sid)
                if params is None:
                    continue
                price_text = f"{cost['cost']} CP" if side == "allied" else (
                    f"{cost['tokens']} Ambush Token" if cost["tokens"] else "free")
                out.append({"type": self.type, "side": side, "element": el.id, "stand": st.id, "cost": cost["cost"],
                            "tokens": cost["tokens"], "clause": self.clause,
                            "label": f"{st.id} ({sid}): {self.verb} ({price_text})", "params": params})
        return out

    def check(self, g: Game, side: str, action: dict) -> BelowPlan:
        st, el, sid = own_stand_below(g, side, action)
        refuse_locked(g, side)
        cost = price(g, el)
        if cost is None:
            pool = g.state.sides[side]
            raise IllegalAction(f"{el.name} cannot activate again this turn, or its side cannot pay ({pool.cp} CP, "
                                f"{pool.ambush_tokens} Ambush Tokens)", "G-28 (2); G-43")
        return BelowPlan(st, el, sid, cost, self.plan(g, st, el, sid, action))

    def act(self, g: Game, side: str, action: dict) -> None:
        self.resolve(g, side, action, self.check(g, side, action))

    def resolve(self, g: Game, side: str, action: dict, plan: BelowPlan) -> None:
        el = detach(g, plan.stand)
        pay(g, el, plan.cost, plan.section)
        self.carry_out(g, plan.stand, el, plan.section, plan.detail)


def _crawl_choices(g: Game, st: Stand, sid: str) -> tuple[list[str], dict[str, tuple[str, str]]]:
    """The sections ``st`` may crawl into from ``sid`` and, for the others linked to it, why not (reason,
    clause)."""
    ok, why = [], {}
    deeper_barred = st.side == "allied" and casualty_below(g)
    here = None
    if deeper_barred:  # engine reading of TUN-21: a stand may go as deep as the casualty, to fetch it, no deeper
        depths = [hops_out(g, c.section) for c in ug_state(g).casualties]
        here = max([hops_out(g, sid) or 0] + [d for d in depths if d is not None])
    for o in tunnels.adjacent(g, sid):
        if tunnels.is_collapsed(g, o):
            why[o] = (f"section {o} has collapsed", "TUN-22; DD-9B.7")
        elif tunnels.is_gassed(g, o):
            why[o] = (f"CS gas fills {o}: nothing enters it until it clears", "G-35")
        elif (left := capacity_left(g, o)) is not None and left < 1:
            why[o] = (f"the dug-out {o} is full", "TUN-3")
        elif deeper_barred and here is not None and (hops_out(g, o) or 0) > here:
            why[o] = ("a Free World casualty is still in the tunnels: carry it out before going deeper than it lies",
                      "TUN-21")
        else:
            ok.append(o)
    return ok, why


class Crawl(Below):
    """Crawl one section along a link (TUN-8: a stand enters a section in an action, never enters and leaves one)."""

    type = "crawl"
    clause = "TUN-8; TUN-9; G-43"
    verb = "crawl into an adjacent section"

    def params(self, g: Game, st: Stand, el: Element, sid: str) -> dict | None:
        ok, _ = _crawl_choices(g, st, sid)
        if not ok:
            return None
        known = set(tunnels.known(g, st.side))
        return {"section": {"kind": "choice", "choices": [o for o in ok if o in known or st.side == "allied"],
                            "doc": "a section linked to this one (TUN-8)"}}

    def plan(self, g: Game, st: Stand, el: Element, sid: str, action: dict) -> str:
        to = action.get("section")
        ok, why = _crawl_choices(g, st, sid)
        if to in why:
            raise IllegalAction(*why[to])
        if to not in ok:
            raise IllegalAction(f"section {to!r} is not linked to {sid}", "TUN-8")
        return to

    def carry_out(self, g: Game, st: Stand, el: Element, sid: str, to: str) -> None:
        move_below(g, el, sid, to, "TUN-8; G-43", "crawls")
        spring_section(g, el, to)


def move_below(g: Game, el: Element, frm: str, to: str, clause: str, verb: str) -> None:
    """Move an element one section, with what it carries; the events each side may read (TUN-12)."""
    u = ug_state(g)
    seen_before = sees(g, g.state.other(el.side))
    place(g, el, to)
    u.came_from[el.id] = frm
    u.came_from = dict(sorted(u.came_from.items()))
    for cas in u.casualties:
        if cas.carrier in el.stands:
            cas.section = to
    g.emit({"type": "tunnel_move", "element": el.id, "from": frm, "to": to, "clause": clause,
            "text": f"{el.name} {verb} from {frm} to {to}"}, visible=el.side)
    seen = seen_before | sees(g, g.state.other(el.side))
    if frm in seen or to in seen:
        shown_from, shown_to = (frm if frm in seen else None), (to if to in seen else None)
        g.emit({"type": "tunnel_move", "element": el.id, "from": shown_from, "to": shown_to, "clause": "TUN-12",
                "text": f"{el.name} " + (f"{verb} from {frm} to {to}" if shown_from and shown_to else
                                         f"moves out of sight from {frm}" if shown_from else f"crawls into {to}")},
               visible=g.state.other(el.side))
    if el.side == "allied":
        learn(g, el.name)


def spring_section(g: Game, el: Element, sid: str) -> None:
    """TUN-7, TUN-23, G-43: a Free World stand entering a trapped section springs its trap (the G-08 table,
    Engineers and Tunnel Rats -1: ``booby_traps.spring`` through ``tunnel_actions.spring_trap``)."""
    from game.rules.tunnel_actions import spring_trap

    sec = _net(g).sections[sid]
    ts = tunnels.state(g)
    if el.side == "allied" and sec.trapped and sid not in ts.disarmed and g.state.living(el):
        spring_trap(g, el, sec, "TUN-7; TUN-23; G-43")


class Surface(Below):
    """Come up at a surface section (TUN-8; G-43 replaces DD-9B.5: section by section): the stands are placed
    within 2" of its hatch; not through a gassed (G-35) or collapsed (DD-9B.7, TUN-22) one."""

    type = "surface"
    clause = "TUN-8; G-43; G-35"
    verb = "come up onto the table"

    def params(self, g: Game, st: Stand, el: Element, sid: str) -> dict | None:
        try:
            self.plan(g, st, el, sid, {})
        except IllegalAction:
            return None
        return {}

    def plan(self, g: Game, st: Stand, el: Element, sid: str, action: dict) -> dict:
        sec = _net(g).sections[sid]
        if not tunnels.is_surface(sec):
            raise IllegalAction(f"{sid} is a {sec.kind} beneath the table: only an entrance, spider hole, bunker "
                                "or trench opens onto it", "TUN-8; TUN-1")
        if tunnels.is_gassed(g, sid):
            raise IllegalAction(f"CS gas fills {sid}: nothing emerges there until it clears", "G-35")
        spots = placement(g, st, sec.x, sec.y, rules(g).surface.radius)
        if spots is None:
            raise IllegalAction(f"no room within {rules(g).surface.radius:g}\" of the hatch at {sid}", "G-35; DD-3.20")
        return spots

    def carry_out(self, g: Game, st: Stand, el: Element, sid: str, spots: dict) -> None:
        sec = _net(g).sections[sid]
        st.x, st.y, st.facing = spots[st.id]
        place(g, el, None)
        ug_state(g).came_from.pop(el.id, None)
        placed = [{"id": st.id, "type": st.type, "x": st.x, "y": st.y, "facing": st.facing}]
        ev = {"type": "tunnel_emerge", "element": el.id, "section": sid, "x": sec.x, "y": sec.y, "stands": placed,
              "clause": self.clause, "text": f"{el.name} comes up out of the ground at {sid}"}
        if el.side == "allied" or sid in tunnels.known(g, "allied"):
            g.emit(ev)
        else:  # a hatch the Allies have not found stays unfound (TUN-5): they see a stand come up, not where from
            g.emit({**{k: v for k, v in ev.items() if k != "section"}, "x": st.x, "y": st.y,
                    "text": f"{el.name} comes up out of the ground"}, visible="allied")
            g.emit(ev, visible="insurgent")
        carry_up(g, st)


def placement(g: Game, st: Stand, x: float, y: float, radius: float) -> dict | None:
    """Where a stand coming up goes: on a legal spot (DD-3.20) with its centre within ``radius`` of the hatch,
    the nearest first (rings of 0.5")."""
    el = g.state.elements[st.element]
    rings = [(0.0, 0.0)]
    r = 0.5
    while r <= radius + 1e-9:
        n = max(8, int(round(2 * math.pi * r / 0.5)))
        rings += [(r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n)) for k in range(n)]
        r += 0.5
    for ox, oy in rings:
        moved = Stand(**{**st.__dict__, "x": round(x + ox, 4), "y": round(y + oy, 4)})
        if g.placement_ok(el, {st.id: moved}):
            return {st.id: (moved.x, moved.y, moved.facing)}
    return None


def carry_up(g: Game, st: Stand) -> None:
    """TUN-21: a casualty carried up becomes a Casualty Token on the table, its bearer a Litter Team (DD-6.2)."""
    u = ug_state(g)
    for cas in [c for c in u.casualties if c.carrier == st.id]:
        u.casualties.remove(cas)
        tok = Token(cas.id, "allied", st.x, st.y, rules(g).casualty.state, carrier=st.id)
        g.state.tokens.append(tok)
        g.emit({"type": "litter", "stand": st.id, "element": st.element, "token": tok.id, "on": True, "x": st.x,
                "y": st.y, "clause": "TUN-21; G-43; DD-6.2",
                "text": f"{st.id} brings casualty {tok.id} out of the tunnels as a Litter Team"})


class Carry(Below):
    """Take up a Free World casualty in the section (TUN-21, G-43: an action; then it goes with its bearer)."""

    type = "tunnel_carry"
    clause = "TUN-21; G-43"
    verb = "take up a casualty"

    def _free(self, g: Game, st: Stand, sid: str) -> list[TunnelCasualty]:
        u = ug_state(g)
        if st.side != "allied" or any(c.carrier == st.id for c in u.casualties):
            return []
        return [c for c in u.casualties if c.section == sid and c.carrier is None]

    def params(self, g: Game, st: Stand, el: Element, sid: str) -> dict | None:
        free = self._free(g, st, sid)
        if not free:
            return None
        return {"token": {"kind": "token", "choices": [c.id for c in free], "doc": "a casualty in this section"}}

    def plan(self, g: Game, st: Stand, el: Element, sid: str, action: dict) -> TunnelCasualty:
        tid = action.get("token")
        if st.side != "allied":
            raise IllegalAction("NVA/VC squads never stop to drag casualties", "DD-3.12")
        if any(c.carrier == st.id for c in ug_state(g).casualties):
            raise IllegalAction(f"{st.id} already carries a casualty", "G-33 (1)")
        match = [c for c in self._free(g, st, sid) if c.id == tid]
        if not match:
            raise IllegalAction(f"no casualty {tid!r} lies free in {sid}", "TUN-21")
        return match[0]

    def carry_out(self, g: Game, st: Stand, el: Element, sid: str, cas: TunnelCasualty) -> None:
        cas.carrier = st.id
        g.emit({"type": "tunnel_casualty", "token": cas.id, "section": sid, "stand": st.id, "clause": self.clause,
                "text": f"{st.id} takes up casualty {cas.id} to carry it out"}, visible=visibility(g, "allied", sid))


# -- going down (TUN-8, TUN-13, C-35) ------------------------------------------------------------------
def tunnel_rat(g: Game, st: Stand) -> bool:
    return g.book.stands[st.type].role in rules(g).descend.exempt_roles


def hatches(g: Game, st: Stand) -> list[str]:
    """The known, open surface sections whose hatch lies within reach of the stand's base."""
    net = _net(g)
    reach = rules(g).descend.reach + 1e-9
    rect = base_of(g.book, st)
    out = []
    for sid in tunnels.known(g, st.side):
        sec = net.sections[sid]
        if tunnels.is_surface(sec) and not tunnels.is_collapsed(g, sid) and rect.distance(Point(sec.x, sec.y)) <= reach:
            out.append(sid)
    return out


def refuse_descent(g: Game, el: Element, st: Stand) -> None:
    """Every check of who may go down (TUN-13, C-35, DD-9B.4)."""
    d = rules(g).descend
    if g.book.stands[st.type].role in d.barred_roles:
        raise IllegalAction(f"{st.id} is a vehicle: only troops operate in tunnels", "TUN-13")
    if el.pinned and not d.pinned:
        raise IllegalAction(f"{el.name} is Pinned", "DD-9B.4")
    from game.rules.casevac import is_bearer

    if is_bearer(g, st):
        raise IllegalAction(f"{st.id} is a Litter Team", "DD-6.2")
    if el.side != "allied":
        raise IllegalAction("the garrison goes down by its own entrances (enter_tunnel, DD-9B.4)", "TUN-13; DD-9B.4")
    if tunnel_rat(g, st):
        return  # C-35: the Tunnel Rats are exempt
    below = [s for e, _ in underground(g, "allied") for s in g.state.living(e) if not tunnel_rat(g, s)]
    if len(below) >= d.free_world_limit:
        raise IllegalAction(f"{below[0].id} is already underground: at most {d.free_world_limit} Free World stand "
                            "per company below (the Tunnel Rats apart)", "TUN-13; C-35")


class Descend(ActionKind):
    """Go down a known, open hatch within 2" (TUN-8, TUN-13): one stand of the element, as its own element."""

    type = "descend"
    chapter = "underground"

    def offers(self, g: Game, el: Element, common: dict, price_text: str) -> list[dict]:
        if el.side != "allied" or not active(g) or el.side in ug_state(g).locked:
            return []
        pairs = []
        for st in g.state.living(el):
            try:
                refuse_descent(g, el, st)
            except IllegalAction:
                continue
            ok = [s for s in hatches(g, st) if not tunnels.is_gassed(g, s)]
            if ok:
                pairs.append((st.id, ok))
        if not pairs:
            return []
        return [{"type": self.type, **common, "clause": "TUN-8; TUN-13; C-35",
                 "label": f"{el.name}: a stand goes down a tunnel entrance ({price_text})",
                 "params": {"stand": {"kind": "stand", "choices": [p[0] for p in pairs],
                                      "doc": "the stand that goes down (it becomes its own element, G-43)"},
                            "section": {"kind": "choice", "choices": sorted({s for p in pairs for s in p[1]}),
                                        "doc": "a known, open hatch within 2\" of the stand"}}}]

    def check(self, g: Game, el: Element, action: dict) -> tuple[Stand, str]:
        if not active(g):
            raise IllegalAction("no tunnel network is played with the TUN module in this game", "TUN-8; G-43")
        refuse_locked(g, el.side)
        sid_ = action.get("stand")
        st = g.state.stands.get(sid_) if isinstance(sid_, str) else None
        if st is None or st.element != el.id or not st.alive:
            raise IllegalAction(f"{el.name} has no living stand {sid_!r}", "TUN-8")
        refuse_descent(g, el, st)
        sec = action.get("section")
        if sec not in tunnels.known(g, el.side):
            raise IllegalAction(f"no known tunnel entrance {sec!r}", "DD-9B.3; TUN-5")
        if not tunnels.is_surface(_net(g).sections[sec]):
            raise IllegalAction(f"{sec} lies beneath the table: go down by an entrance", "TUN-8")
        if tunnels.is_collapsed(g, sec):
            raise IllegalAction(f"{sec} has collapsed", "DD-9B.7; TUN-22")
        if tunnels.is_gassed(g, sec):
            raise IllegalAction(f"CS gas fills {sec}: nothing enters it until it clears", "G-35")
        if sec not in hatches(g, st):
            raise IllegalAction(f"{st.id} is not within {rules(g).descend.reach:g}\" of the hatch at {sec}", "TUN-8")
        return st, sec

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[Stand, str]) -> None:
        st, sid = plan
        paid = next((ev for ev in reversed(g.events) if ev["type"] == "activate" and "cost" in ev
                     and ev.get("element") == el.id), None)
        mine = detach(g, st)
        seen = g.knows_element(g.state.other(el.side), el)
        place(g, mine, sid)
        sec = _net(g).sections[sid]
        g.emit({"type": "tunnel_enter", "element": mine.id, "section": sid, "x": sec.x, "y": sec.y,
                "clause": "TUN-8; TUN-13", "text": f"{st.id} goes down into the tunnels at {sid}"},
               visible="all" if seen else el.side)
        if paid is not None:
            mark_below(g, el.side, paid["seq"])
        if mine.side == "allied":
            learn(g, mine.name)
        spring_section(g, mine, sid)


for _kind in (Crawl(), Surface(), Carry()):
    register_side(_kind)
register(Descend())
