"""The Tunnel Rats (TUN-15–TUN-17; C-35; G-43), with the Tunnel Warfare module.

* **The team** (TUN-15): two Veteran stands of the Tunnel Rat type. They enter the table with the searching
  unit (a scenario's Allied element of ``us_tunnel_rat`` stands) or are called in by helicopter
  (``call_tunnel_rats``): G-43's mapping of "test for initiatives delay as for Dust-Off" is the DD Dustoff
  procedure (DD-6.6–6.9): a stand of the calling element in a clear 6" LZ pops coloured smoke (G-18); a
  1-turn clock (DD-6.8); when it runs out, in the next Tension phase, the Hot LZ roll is made if an unpinned
  enemy has the helicopter in sight within 12" (DD-6.9, the CASEVAC tables): a wave-off brings it back next
  turn, a shoot-down is the Dustoff's crash (``casevac.crash``) and the team is lost with it, anything else
  lands it and the team dismounts within 2" of the smoke (G-43) as a new element. One team a game (TUN-15 "a
  Tunnel Rat team"); none while the monsoon grounds the helicopters (DD-3.8).
* **The escort** (TUN-16): on the table an element with a Tunnel Rat stand may act only while at least two
  other Allied infantry stands are within 6" of one of its stands (``unescorted``, asked of every element
  action through ``game.ELEMENT_BARS``). Below, the team needs no escort; its stands go down as their own
  elements, exempt from the one-stand limit (C-35), and fight at +2 (Veteran, Tunnel Rats; C-36).
* **As engineers** (TUN-17): they set charges as Engineers do (``set_charges`` on the surface, ``tunnel_charge``
  below: the role lists of ``tunnels.toml`` and ``underground.toml``), and count as in cover against booby traps
  (TUN-23, ``booby_traps``).

What it leaves out: the team leaving by helicopter (TUN-16 "leave via helicopter": there is no extraction of
living stands in DD; they leave by the table edge as any stand would).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from shapely.geometry import Point

from game.rules import casevac
from game.rules.errors import IllegalAction
from game.rules.game import ELEMENT_BARS, ActionKind, register
from game.rules.state import Clock, Element, Stand, base_of
from game.rules.underground import active, rules, ug_state

if TYPE_CHECKING:
    from game.rules.game import Game


def team_stands(g: Game, el: Element) -> list[Stand]:
    return [st for st in g.state.living(el) if g.book.stands[st.type].role == "tunnel_rat"]


def unescorted(g: Game, el: Element) -> IllegalAction | None:
    """TUN-16: the refusal of any action of an element on the table with a Tunnel Rat stand and fewer than
    two infantry stands of its side within 6", else None (cheap: None at once in a game without the module)."""
    if el.side != "allied" or "underground" not in g.state.chapters or not active(g):
        return None
    team = team_stands(g, el)
    if not team or not g.state.on_table(el):
        return None
    r = rules(g).tunnel_rats
    reach = r.escort_radius + 1e-9
    rects = [base_of(g.book, st) for st in team]
    escort = [st for st in g.state.side_stands("allied")
              if st.element != el.id and g.book.stands[st.type].role not in r.not_escort_roles
              and any(base_of(g.book, st).distance(x) <= reach for x in rects)]
    if len(escort) >= r.escort:
        return None
    return IllegalAction(f"{el.name} has {len(escort)} infantry stand(s) within {r.escort_radius:g}\": the Tunnel Rats "
                         f"act only while escorted by at least {r.escort}", "TUN-16")


def _rats(g: Game) -> dict[str, Any]:
    return ug_state(g).rats


def in_play(g: Game) -> bool:
    """Is a Tunnel Rat team on the table, below or on its way, or used up (TUN-15: one team)?"""
    calls = _rats(g).get("calls", 0)
    return calls >= rules(g).tunnel_rats.teams or any(
        g.book.stands[st.type].role == "tunnel_rat" for st in g.state.stands.values() if st.side == "allied")


class CallTunnelRats(ActionKind):
    """Call the Tunnel Rats by helicopter (TUN-15, G-43: the DD Dustoff procedure): pop smoke in a clear LZ."""

    type = "call_tunnel_rats"
    chapter = "underground"

    def _ready(self, g: Game, el: Element) -> bool:
        r = rules(g).tunnel_rats
        return (el.side == "allied" and active(g) and r.stand_type in g.book.stands and not in_play(g)
                and not casevac.grounded(g))

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        if not self._ready(g, el):
            return []
        d = casevac.casevac(g).dustoff
        st = g.state.living(el)[0]
        return [{"type": self.type, **common, "clause": "TUN-15; G-43; DD-6.7",
                 "label": f"{el.name}: pop smoke and call the Tunnel Rats by helicopter ({price})",
                 "params": {"at": {"kind": "point", "max": d.smoke_reach, "from": [st.x, st.y], "radius": d.lz_radius,
                                   "doc": "the LZ centre: a clear 6\" circle with a stand of the element in it"},
                            "colour": {"kind": "choice", "optional": True, "choices": list(d.colours),
                                       "default": d.default_colour, "doc": "smoke colour (G-18)"}}}]

    def check(self, g: Game, el: Element, action: dict) -> dict:
        if el.side != "allied" or not active(g):
            raise IllegalAction("the Allies call the Tunnel Rats, in a game with the TUN module", "TUN-15")
        if rules(g).tunnel_rats.stand_type not in g.book.stands:
            raise IllegalAction("this rulebook has no Tunnel Rat stands", "TUN-15")
        if in_play(g):
            raise IllegalAction("the Tunnel Rat team is already in the game (one team)", "TUN-15")
        if casevac.grounded(g):
            raise IllegalAction("the monsoon grounds all helicopters", "DD-3.8")
        if casevac.dustoff_busy(g):
            raise IllegalAction("a Dustoff is using the LZ procedure now: one helicopter call at a time", "G-33 (7)")
        return casevac.PopSmoke.check(casevac.PopSmoke(), g, el, action)  # DD-6.6-6.7, G-18: the same LZ

    def resolve(self, g: Game, el: Element, action: dict, plan: dict) -> None:
        r = rules(g).tunnel_rats
        rats = _rats(g)
        rats["calls"] = rats.get("calls", 0) + 1
        n = rats["calls"]
        rats["smoke"] = {"id": f"smoke_rats{n}", "x": plan["x"], "y": plan["y"], "colour": plan["colour"]}
        g.state.clocks.append(Clock(f"tunnel_rats{n}", "tunnel_rats", r.clock, "Tunnel Rats inbound", "all",
                                    plan["x"], plan["y"], colour=plan["colour"]))
        g.emit({"type": "tunnel_rats", "phase": "inbound", "x": plan["x"], "y": plan["y"], "colour": plan["colour"],
                "stand": plan["stand"], "turns": r.clock, "clause": "TUN-15; G-43; DD-6.7; G-18",
                "text": f"{plan['stand']} pops {plan['colour']} smoke: the Tunnel Rats are inbound in {r.clock} turn(s)"})


def hot_lz(g: Game, x: float, y: float) -> str:
    """DD-6.9 as for a Dustoff (the CASEVAC tables): the nearest unpinned enemy in sight within 12" fires."""
    from game.rules.dice import Modifier, natural_success
    from game.rules.fire_support import gunship

    h = casevac.casevac(g).hot_lz
    firers = casevac.eligible_firers(g, casevac.helicopter_stand(g, x, y))
    if not firers:
        g.emit({"type": "note", "clause": "DD-6.9", "text": "Cold LZ: no unsuppressed enemy has the helicopter in sight"})
        return "scratches"
    _, firer = firers[0]
    if firer.hidden:
        from game.rules.detection import reveal_element

        reveal_element(g, firer, f"{firer.name} opens fire on the helicopter (muzzle flash)", "DD-6.9; G-33 (5)")
    escort = casevac.escorted(g) or gunship.escort_on_station(g)
    die = g.dice.d6()
    mods = [Modifier("gunship escort on station", h.escort, "DD-6.10; C-11")] if escort else []
    score = (die if natural_success(die) else max(h.escort_floor, die + h.escort)) if escort else die
    result = h.results[max(1, min(6, score)) - 1]
    g.emit({"type": "roll", "purpose": "Hot LZ", "side": "insurgent", "element": firer.id, "dice": [die],
            "target": None, "modifiers": [m.to_dict() for m in mods], "need": None, "result": result, "score": score,
            "clause": "DD-6.9; G-43", "text": f"Hot LZ: {firer.name} fires on the Tunnel Rats' helicopter; rolled {die}"
            + (f", escort {h.escort:+d} = {score}" if mods else "") + f": {result.replace('_', ' ')}"})
    return result


def touchdown(g: Game, clock: Clock) -> None:
    """The Tunnel Rats' clock runs out (DD-2.2): the Hot LZ roll, then the team dismounts (TUN-15, G-43)."""
    rats = _rats(g)
    x, y, colour = clock.x, clock.y, clock.colour
    if casevac.grounded(g):
        rats.pop("smoke", None)
        g.emit({"type": "tunnel_rats", "phase": "wave_off", "x": x, "y": y, "colour": colour, "clause": "DD-3.8",
                "text": "Monsoon: the Tunnel Rats' helicopter turns back"})
        return
    result = hot_lz(g, x, y)
    if result == "wave_off":
        g.state.clocks.append(Clock(clock.id, clock.kind, 1, clock.name, clock.side, x, y, colour=colour))
        g.emit({"type": "tunnel_rats", "phase": "wave_off", "x": x, "y": y, "colour": colour, "turns": 1,
                "clause": "DD-6.9; G-43", "text": "Waved off: the Tunnel Rats' helicopter tries again next turn"})
        return
    rats.pop("smoke", None)
    if result == "shot_down":
        casevac.crash(g, x, y, colour)
        g.emit({"type": "tunnel_rats", "phase": "crash", "x": x, "y": y, "colour": colour, "clause": "DD-6.9; G-43",
                "text": "The Tunnel Rats' helicopter is shot down: the team is lost with it"})
        return
    el = dismount(g, x, y, rats["calls"])
    g.emit({"type": "tunnel_rats", "phase": "touchdown", "x": x, "y": y, "colour": colour,
            "element": el.id if el else None,
            "stands": [{"id": s.id, "type": s.type, "x": s.x, "y": s.y, "facing": s.facing}
                       for s in (g.state.living(el) if el else [])],
            "clause": "TUN-15; G-43", "text": "The Tunnel Rats dismount at the smoke" if el else
            "The helicopter finds no room to set the Tunnel Rats down and turns back"})


def dismount(g: Game, x: float, y: float, n: int) -> Element | None:
    """The team as a new Allied element, its two stands side by side within 2" of the smoke (G-43), on the
    nearest legal spot (rings of 0.5"); None when there is none."""
    r = rules(g).tunnel_rats
    s = g.state
    eid = f"tunnel_rats{n}"
    el = Element(eid, "allied", "Tunnel Rats", "team", r.quality, [f"{eid}_{i + 1}" for i in range(r.stands)])
    width = g.book.base_of(r.stand_type).width
    offsets = [((i - (r.stands - 1) / 2) * (width + 0.1), 0.0) for i in range(r.stands)]
    rings = [(0.0, 0.0)]
    rad = 0.5
    while rad <= r.dismount + 1e-9:
        k = max(8, int(round(2 * math.pi * rad / 0.5)))
        rings += [(rad * math.cos(2 * math.pi * j / k), rad * math.sin(2 * math.pi * j / k)) for j in range(k)]
        rad += 0.5
    smoke = Point(x, y)
    for ox, oy in rings:
        moved = {sid: Stand(sid, r.stand_type, eid, "allied", round(x + ox + dx, 4), round(y + oy + dy, 4), 90.0)
                 for sid, (dx, dy) in zip(el.stands, offsets, strict=True)}
        if any(Point(m.x, m.y).distance(smoke) > r.dismount + 1e-9 for m in moved.values()):
            continue
        probe = Element(eid, "allied", el.name, el.kind, el.quality, [])  # not yet in the state: no stands to read
        if g.placement_ok(probe, moved):
            s.stands.update(moved)
            s.stands = dict(sorted(s.stands.items()))
            s.elements[eid] = el
            s.elements = dict(sorted(s.elements.items()))
            return el
    return None


def markers(g: Game) -> list[dict]:
    """The smoke the Tunnel Rats' helicopter flies to (public, as the Dustoff's, DD-6.7)."""
    sm = _rats(g).get("smoke")
    if not sm:
        return []
    return [{"id": sm["id"], "kind": "smoke", "purpose": "tunnel_rats", "x": sm["x"], "y": sm["y"],
             "colour": sm["colour"], "radius": casevac.casevac(g).dustoff.lz_radius}]


register(CallTunnelRats())
ELEMENT_BARS.append(unescorted)  # TUN-16
