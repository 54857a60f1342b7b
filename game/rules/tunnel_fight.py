"""Underground combat and the engineers below (TUN-7, TUN-18–TUN-23; C-28, C-36; G-43).

* **No firing below** (TUN-18): a stand in the network is off the table (``Element.reserve``), so no fire,
  Ambush, Opportunity Fire or Recon by Fire reaches into the tunnels or out of them; SMGs do not exist in DD
  (G-43: ignore). Heavy weapons go down but never fire (TUN-14): their crews fight at -2.
* **Close combat** (``tunnel_fight``, TUN-19, TUN-20, C-36, G-43): a stand attacks one enemy stand in its
  own section: one stand a side. Each rolls 1d6: +1 VC defending, +1 Veteran (the garrison always, TUN-13;
  the Tunnel Rats, TUN-15), +1 Tunnel Rats, -2 heavy-weapon crew, all stacking (C-36); a tie is rolled
  again at once (G-43). The loser rolls 1d6: 5–6 destroyed; otherwise it withdraws to an adjacent section
  away from the winner (not the one the winner came in from, nor one with an enemy stand, a full dug-out,
  gas or a collapse), chosen by its side's standing rule (``underground.toml [fight]``); with none, it is
  destroyed (G-43). A Free World stand destroyed below leaves a Casualty Token there (TUN-21). A Free World
  stand may not start a fight while one is below (TUN-21).
* **Searching** (``tunnel_search``, G-43: the DD Search, 4+, Tunnel Rats, Engineers and Scouts +1): its
  own section or an adjacent one (TUN-12); a success finds its booby trap, disarmed; a natural 1 sets it
  off (G-35). Without a trap, a success finds nothing, and says so only as "nothing" (a trap is the
  Insurgent's secret until found).
* **Charges from below** (``tunnel_charge``, TUN-22, TUN-17, C-28): an Engineer, Sapper or Tunnel Rat stand
  sets charges on its own or an adjacent section that is an entrance or the first section next to one; the
  whole activation, announced; at the end of the initiative (as the next impulse opens,
  ``tunnel_clearing.resolve_charges``) 2+ collapses it (``tunnels.collapse``). Stands in a section that
  collapses are buried (``buried``): destroyed, a Free World one lost for good (KIA, DD-3.17).
* **Booby traps below** (TUN-7, TUN-23): a trapped section springs its trap on the first Free World stand to
  enter it (``tunnel_movement.spring_section``: the G-08 table, Engineers and Tunnel Rats -1).

What it leaves out: the garrison setting charges on its own tunnels (TUN-22 is the Free World engineers').
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.rules import tunnels
from game.rules.dice import Modifier, resolve_test
from game.rules.errors import IllegalAction
from game.rules.game import register_side
from game.rules.state import Element, Stand
from game.rules.tunnel_movement import Below
from game.rules.underground import (
    TunnelCasualty,
    _net,
    casualty_below,
    detach,
    hops_out,
    learn,
    place,
    rules,
    stands_in,
    ug_state,
    underground,
    visibility,
)

if TYPE_CHECKING:
    from game.rules.game import Game


# -- close combat (TUN-19, TUN-20) ---------------------------------------------------------------------
def veteran(g: Game, st: Stand) -> bool:
    """TUN-13, TUN-15, TUN-19: Veteran troops: a Veteran element, the garrison, the Tunnel Rats."""
    el = g.state.elements[st.element]
    return (el.quality == "veteran" or el.id in ug_state(g).garrison
            or g.book.stands[st.type].role in rules(g).fight.veteran_roles)


def fight_modifiers(g: Game, st: Stand, defending: bool) -> list[Modifier]:
    """Every modifier of one side's fight roll (TUN-19; C-36: they all stack)."""
    f = rules(g).fight
    t = g.book.stands[st.type]
    mods: list[Modifier] = []
    if st.side == "insurgent" and defending:
        mods.append(Modifier("VC defending", f.vc_defending, "TUN-19"))
    if veteran(g, st):
        mods.append(Modifier("Veteran", f.veteran, "TUN-19; TUN-13; C-36"))
    if t.role == "tunnel_rat":
        mods.append(Modifier("Tunnel Rats", f.tunnel_rats, "TUN-19; C-36"))
    if t.heavy_weapon or t.role in f.heavy_roles:
        mods.append(Modifier("heavy weapon crew", f.heavy_weapon, "TUN-19; TUN-14"))
    return mods


def _score_roll(g: Game, st: Stand, mods: list[Modifier], sid: str, attempt: int) -> int:
    die = g.dice.d6()
    score = die + sum(m.value for m in mods)
    text = ", ".join(f"{m.name} {m.value:+d} ({m.clause})" for m in mods)
    g.emit({"type": "roll", "purpose": "tunnel fight", "side": st.side, "element": st.element, "stand": st.id,
            "dice": [die], "target": None, "modifiers": [m.to_dict() for m in mods], "need": None, "result": score,
            "score": score, "clause": "TUN-19; C-36" + ("; G-43" if attempt > 1 else ""),
            "text": f"{st.id} fights in {sid}: rolled {die}" + (f", {text}" if text else "") + f" = {score}"
                    + (f" (roll {attempt}, after a tie)" if attempt > 1 else "")})
    return score


def withdrawal(g: Game, loser: Stand, winner: Stand, sid: str) -> str | None:
    """Where the loser withdraws (G-43), or None: no way away from the winner."""
    u = ug_state(g)
    barred = u.came_from.get(winner.element)
    options = []
    for o in tunnels.adjacent(g, sid):
        if o == barred or tunnels.is_collapsed(g, o) or tunnels.is_gassed(g, o):
            continue
        if stands_in(g, o, winner.side):
            continue
        cap = _net(g).sections[o].capacity
        if cap is not None and len(stands_in(g, o)) >= cap:
            continue
        options.append(o)
    if not options:
        return None
    rule = getattr(rules(g).fight, f"withdraw_{loser.side}")
    far = 10_000

    def key(o: str) -> tuple:
        h = hops_out(g, o)
        h = far if h is None else h
        return (h if rule == "out" else -h, o)

    return min(options, key=key)


def destroy_below(g: Game, st: Stand, sid: str, clause: str, recoverable: bool = True) -> None:
    """A stand destroyed in the network: gone, no token on the table; a Free World one leaves a Casualty Token
    in the section (TUN-21), or, buried in a collapse, is lost (KIA)."""
    el = g.state.elements[st.element]
    st.alive = False
    st.hits = max(st.hits, g.book.stands[st.type].hits)
    u = ug_state(g)
    for cas in u.casualties:
        if cas.carrier == st.id:
            cas.carrier = None  # the casualty it carried lies where it fell
    if st.side == "allied":
        if recoverable:
            u.casualties.append(TunnelCasualty(f"cas_{st.id}", st.id, sid))
        else:
            u.lost = sorted(set(u.lost) | {st.id})
    if not g.state.living(el):
        place(g, el, None)
        el.reserve = True  # out of the network and off the table: gone
        g.emit({"type": "eliminated", "element": el.id, "clause": clause, "text": f"{el.name} is destroyed below"},
               visible=visibility(g, el.side, sid))


@dataclass(frozen=True)
class FightPlan:
    target: Stand


class TunnelFight(Below):
    """Close combat underground (TUN-19, TUN-20, C-36, G-43): one stand a side, in one section."""

    type = "tunnel_fight"
    clause = "TUN-19; TUN-20; C-36; G-43"
    verb = "close combat with an enemy stand in this section"

    def params(self, g: Game, st: Stand, el: Element, sid: str) -> dict | None:
        if st.side == "allied" and casualty_below(g):
            return None
        foes = stands_in(g, sid, g.state.other(st.side))
        if not foes:
            return None
        return {"target": {"kind": "stand", "choices": [f.id for f in foes], "doc": "an enemy stand in this section"}}

    def plan(self, g: Game, st: Stand, el: Element, sid: str, action: dict) -> FightPlan:
        if st.side == "allied" and casualty_below(g):
            raise IllegalAction("a Free World casualty is still in the tunnels: carry it out before any further "
                                "offensive action below", "TUN-21")
        tid = action.get("target")
        foe = next((f for f in stands_in(g, sid, g.state.other(st.side)) if f.id == tid), None)
        if foe is None:  # DESIGN §6: an enemy stand out of sight reads as one that does not exist
            raise IllegalAction(f"no enemy stand {tid!r} in {sid}", "TUN-19")
        return FightPlan(foe)

    def carry_out(self, g: Game, st: Stand, el: Element, sid: str, plan: FightPlan) -> None:
        fight(g, st, plan.target, sid)


def fight(g: Game, attacker: Stand, defender: Stand, sid: str) -> str:
    """TUN-19, TUN-20, G-43: the fight and its loser's fate; returns ``destroyed`` or ``withdrew``."""
    f = rules(g).fight
    a_mods, d_mods = fight_modifiers(g, attacker, False), fight_modifiers(g, defender, True)
    attempt = 0
    rolls = []
    while True:
        attempt += 1
        a, d = _score_roll(g, attacker, a_mods, sid, attempt), _score_roll(g, defender, d_mods, sid, attempt)
        rolls.append([a, d])
        if a != d:
            break
        g.emit({"type": "note", "clause": "G-43", "text": f"A tie in {sid} ({a} all): both roll again at once"})
    winner, loser = (attacker, defender) if a > d else (defender, attacker)
    die = g.dice.d6()
    to = None if die >= f.destroyed else withdrawal(g, loser, winner, sid)
    result = "withdrew" if to is not None else "destroyed"
    why = (f"{die}: destroyed (TUN-20)" if die >= f.destroyed else
           f"{die}: withdraws to {to} (TUN-20; G-43)" if to is not None else
           f"{die}: nowhere to withdraw away from the winner, destroyed (G-43)")
    g.emit({"type": "roll", "purpose": "tunnel fight loser", "side": loser.side, "element": loser.element,
            "stand": loser.id, "dice": [die], "target": f.destroyed, "modifiers": [], "need": f.destroyed,
            "result": result, "clause": "TUN-20; G-43", "text": f"{loser.id} loses the fight and rolls {why}"})
    g.emit({"type": "tunnel_fight", "section": sid, "allied": attacker.id if attacker.side == "allied" else defender.id,
            "insurgent": attacker.id if attacker.side == "insurgent" else defender.id, "rolls": rolls,
            "winner": winner.id, "loser": loser.id, "result": result, "to": to, "clause": "TUN-19; TUN-20; G-43",
            "text": f"Close combat in {sid}: {winner.id} beats {loser.id}, who "
                    + (f"withdraws to {to}" if to else "is destroyed")})
    if to is None:
        destroy_below(g, loser, sid, "TUN-20; G-43")
    else:
        from game.rules.tunnel_movement import move_below, spring_section

        lel = detach(g, loser)
        move_below(g, lel, sid, to, "TUN-20; G-43", "withdraws")
        spring_section(g, lel, to)
    if attacker.side == "allied" or defender.side == "allied":
        learn(g, "the fight")
    return result


# -- searching a section (G-43, G-35) -------------------------------------------------------------------
class TunnelSearch(Below):
    """Search the stand's own section or an adjacent one for its booby trap (G-43: the DD Search, 4+)."""

    type = "tunnel_search"
    clause = "TUN-9; TUN-12; G-43; G-35"
    verb = "search a section for booby traps"

    def params(self, g: Game, st: Stand, el: Element, sid: str) -> dict | None:
        if st.side != "allied":
            return None
        return {"section": {"kind": "choice", "choices": sorted({sid, *tunnels.adjacent(g, sid)}),
                            "doc": "this section or one linked to it (TUN-12)"}}

    def plan(self, g: Game, st: Stand, el: Element, sid: str, action: dict) -> tuple[str, list[Modifier]]:
        if st.side != "allied":
            raise IllegalAction("the garrison knows its own traps", "TUN-24")
        to = action.get("section")
        if to != sid and to not in tunnels.adjacent(g, sid):
            raise IllegalAction(f"{st.id} sees only into its own section and the adjacent ones", "TUN-12")
        r = rules(g).search
        mods = []
        if g.book.stands[st.type].role in r.bonus_roles:
            mods.append(Modifier(f"{g.book.stands[st.type].role.replace('_', ' ')} searching", r.bonus, "G-35; G-43"))
        return to, mods

    def carry_out(self, g: Game, st: Stand, el: Element, sid: str, plan: tuple[str, list[Modifier]]) -> None:
        to, mods = plan
        vis = visibility(g, "allied", sid)
        ev = resolve_test(g.dice, purpose="Search", target=rules(g).search.target, modifiers=mods,
                          clause=self.clause, side="allied", element=el.id, subject=f"{st.id} searches {to}")
        g.emit(ev, visible=vis)
        sec = _net(g).sections[to]
        ts = tunnels.state(g)
        armed = sec.trapped and to not in ts.disarmed
        if ev["result"] != "pass":
            if armed and ev["dice"][0] == rules(g).search.fumble:  # G-35: a natural 1 sets it off
                from game.rules.tunnel_actions import spring_trap

                spring_trap(g, el, sec, "G-35; TUN-7; TUN-23")
            return
        if armed:
            ts.disarmed = sorted({*ts.disarmed, to})
            g.emit({"type": "trap_found", "trap": to, "x": sec.x, "y": sec.y, "by": st.id,
                    "how": "search", "clause": "TUN-7; G-35",
                    "text": f"{st.id} finds a booby trap in {to} and disarms it"}, visible=vis)
        else:
            g.emit({"type": "note", "element": el.id, "clause": self.clause,
                    "text": f"{st.id} searches {to}: nothing found"}, visible=vis)


# -- charges from below (TUN-22, TUN-17, C-28) --------------------------------------------------------
def charge_targets(g: Game, sid: str) -> list[str]:
    """The sections a stand in ``sid`` may set charges on: its own or an adjacent one that is an entrance or
    the first section next to one (TUN-22), not collapsed."""
    net = _net(g)
    hops = rules(g).charges.hops
    surface = set(net.surface())
    out = []
    for o in sorted({sid, *tunnels.adjacent(g, sid)}):
        if tunnels.is_collapsed(g, o):
            continue
        near = {o} | set(tunnels.adjacent(g, o)) if hops >= 1 else {o}
        if near & surface:
            out.append(o)
    return out


class TunnelCharge(Below):
    """TUN-22 from below: an Engineer, Sapper or Tunnel Rat sets charges (the whole activation, announced)."""

    type = "tunnel_charge"
    clause = "TUN-22; TUN-17; C-28; G-43"
    verb = "set charges on a section (2+ at the end of the initiative)"

    def params(self, g: Game, st: Stand, el: Element, sid: str) -> dict | None:
        r = rules(g).charges
        if st.side != "allied" or g.book.stands[st.type].role not in r.roles or el.id in tunnels.state(g).charging:
            return None
        targets = charge_targets(g, sid)
        if not targets:
            return None
        return {"section": {"kind": "choice", "choices": targets,
                            "doc": "this or an adjacent section: an entrance or the first section next to one"}}

    def plan(self, g: Game, st: Stand, el: Element, sid: str, action: dict) -> str:
        r = rules(g).charges
        if st.side != "allied" or g.book.stands[st.type].role not in r.roles:
            raise IllegalAction(f"{st.id} is no Engineer, Sapper or Tunnel Rat", "TUN-22; TUN-17; C-28")
        if el.id in tunnels.state(g).charging:
            raise IllegalAction(f"{el.name} is already setting charges", "TUN-22")
        to = action.get("section")
        if to not in charge_targets(g, sid):
            raise IllegalAction(f"{to!r}: only the entrance or the first adjacent section, in or next to "
                                f"{st.id}'s own, may be destroyed", "TUN-22")
        return to

    def carry_out(self, g: Game, st: Stand, el: Element, sid: str, to: str) -> None:
        from game.rules.tunnel_clearing import start_charges

        start_charges(g, el, to)


def buried(g: Game) -> None:
    """After each act: the stands in a section that has collapsed are buried, destroyed (TUN-22; engine
    reading, as G-34 has a bunker's occupants lost with it); a casualty lying there is lost with them."""
    ts = tunnels.state(g)
    if ts is None or not ts.collapsed:
        return
    gone = set(ts.collapsed)
    for el, sid in underground(g):
        if sid not in gone:
            continue
        for st in g.state.living(el):
            g.emit({"type": "note", "element": el.id, "clause": "TUN-22; G-43",
                    "text": f"{st.id} is buried as {sid} collapses"}, visible=visibility(g, el.side, sid))
            destroy_below(g, st, sid, "TUN-22; G-43", recoverable=False)
    u = ug_state(g)
    for cas in [c for c in u.casualties if c.section in gone and c.carrier is None]:
        u.casualties.remove(cas)
        u.lost = sorted(set(u.lost) | {cas.stand})


for _kind in (TunnelFight(), TunnelSearch(), TunnelCharge()):
    register_side(_kind)
