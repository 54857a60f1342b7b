"""Gunships on station (G-27, G-19; DD-6.10–6.11; DD-8.5).

A gunship called with ``call_air`` (``air.arrive``) stays on station for 3 turns or 2 attacks, whichever
comes first (G-27). Each attack is a ``gunship_run`` (an activation, 1 CP In Command) by an element with
an FO, officer or RTO: a strafe 2" wide and 6" long along a heading (G-19), under the same heading
restriction (G-22) and Pass Deviation Roll as a strike, rolled once (DD-8.5: gunships follow tracers and
clock calls, so the target is marked). With a gunship on station the Dustoff is escorted (DD-6.10:
``casevac.touchdown`` asks :func:`escort_on_station`), and the enemy that fires on it is strafed with a
free 4 FP volley (DD-6.11, :func:`escort_strafe`); the escort is free (G-27). In the monsoon no gunship
flies (DD-3.8). What it leaves out: the ground fire at a gunship (G-27: an HMG, ZPU or LMG within 24"
damages it on a 6) and the 4 FP volley at one target in LOS as a run of its own (G-19).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.rules.errors import IllegalAction
from game.rules.fire_support.air import (
    AirCall,
    Gunship,
    _air_pass,
    _at_param,
    _grounded,
    _heading,
    _heading_param,
    check_heading,
    strike,
)
from game.rules.fire_support.missions import _point, caller_of, callers, fs_state, may_call, rules, sees_point
from game.rules.game import ActionKind, register
from game.rules.memo import table_memo
from game.rules.state import Element, Stand

if TYPE_CHECKING:
    from game.rules.game import Game


@table_memo(lambda side: side)
def gunships(g: Game, side: str) -> list[Gunship]:
    fs = fs_state(g)
    if fs is None or _grounded(g):
        return []
    return [gs for gs in fs.gunships if gs.side == side]


class GunshipRun(ActionKind):
    """A gunship on station strafes a strip along a heading (G-27, G-19: 2" x 6", 4 FP): 1 activation."""

    type = "gunship_run"

    def possible(self, g: Game, side: str, types: frozenset[str]) -> bool:
        return may_call(g, types)  # G-27, DD-8.6 (a gunship on station: any the side's calls bring)

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        guns, who = gunships(g, el.side), callers(g, el)
        if not guns or not who:
            return []
        out = []
        for gs in guns:
            a = rules(g).assets[gs.asset]
            out.append({"type": self.type, **common, "clause": "G-27; G-19; G-22",
                        "label": f"{el.name}: call a {a.name} strafing run, {gs.attacks} attack(s) left ({price})",
                        "params": {"gunship": {"kind": "choice", "choices": [gs.id], "default": gs.id, "doc": a.name},
                                   "at": _at_param(g, who[0], a), "heading": _heading_param(g, el.side, a),
                                   "stand": {"kind": "stand", "choices": sorted(s.id for s in who),
                                             "default": who[0].id, "optional": True,
                                             "doc": "the FO, officer or RTO who calls it"}}})
        return out

    def check(self, g: Game, el: Element, action: dict) -> tuple[Gunship, AirCall]:
        if _grounded(g):
            raise IllegalAction("the monsoon grounds all air support", "DD-3.8")
        gs = next((x for x in gunships(g, el.side) if x.id == action.get("gunship")), None)
        if gs is None:
            raise IllegalAction(f"no gunship {action.get('gunship')!r} on station", "G-27")
        caller = caller_of(g, el, action, "the run")
        x, y = _point(g, action.get("at"), "at", "G-27")
        heading = _heading(action.get("heading"), "DD-8.5")
        check_heading(g, el.side, x, y, heading)
        return gs, AirCall(gs.asset, caller.id, x, y, heading, "none", x, y, sees_point(g, caller, x, y))

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[Gunship, AirCall]) -> None:
        gs, call = plan
        a = rules(g).assets[gs.asset]
        gs.attacks -= 1
        g.emit({"type": "fire_mission", "phase": "call", "mission": gs.id, "asset": a.id, "round": a.rounds[0],
                "caller": call.caller, "x": call.x, "y": call.y, "observed": call.observed, "turns": 0,
                "heading": call.heading, "aircraft": a.model, "clause": "G-27",
                "text": f"{call.caller} calls the {a.name} onto ({call.x:g}, {call.y:g}), heading {call.heading:g}°"},
               visible=el.side)
        strike(g, el.side, a, gs.id, call.x, call.y, call.heading, caller=call.caller, kind="run")
        if gs.attacks <= 0:
            _leave(g, gs, "its attacks are spent")

    def odds(self, g: Game, el: Element, action: dict, plan: tuple[Gunship, AirCall]) -> dict:
        """The preview (``odds.preview``): the pass's deviation outcomes and what each does (``air_odds``)."""
        from game.rules.fire_support import air_odds

        return air_odds.run_odds(g, el, plan)


def _leave(g: Game, gs: Gunship, why: str) -> None:
    fs = fs_state(g)
    fs.gunships = [x for x in fs.gunships if x is not gs]
    a = rules(g).assets[gs.asset]
    g.emit({"type": "gunship", "phase": "leaves", "mission": gs.id, "asset": a.id, "aircraft": a.model,
            "side": gs.side, "x": gs.x, "y": gs.y, "clause": "G-27", "text": f"The {a.name} leaves: {why}"})


def escort_on_station(g: Game) -> bool:
    """DD-6.10, G-27: an Allied gunship on station escorts the Dustoff."""
    return bool(gunships(g, "allied"))


def escort_strafe(g: Game, firer: Element, target: Stand) -> None:
    """DD-6.11: the enemy that fired on the Dustoff (at ``target``, the helicopter) is strafed by the escort
    with a free 4 FP volley (G-19: a gunship's volley at one target): the firer's stand nearest the
    helicopter, hits given nearest first, normal cover and saves; an element hit tests Morale (DD-5.19)."""
    from game.rules import template

    stands = g.state.living(firer)
    if not stands:
        return
    near = min(stands, key=lambda s: (math.hypot(s.x - target.x, s.y - target.y), s.id))
    guns = gunships(g, "allied")
    a = rules(g).assets[guns[0].asset if guns else "gunship"]
    ref = guns[0].id if guns else "escort"
    heading = round(math.degrees(math.atan2(near.y - target.y, near.x - target.x)) % 360.0, 2)
    tpl = template.circle(near.x, near.y, 0.5, kind="escort_volley", fp=a.fp, ap=a.ap, per_stand=False,
                          name=f"{a.name} escort volley", clause="DD-6.11; G-19; G-27", heading=heading)
    _air_pass(g, "allied", a, ref, tpl, "escort")
    p = template.plan(g, tpl, side="allied", stands=stands, test_all=False, label=f"{a.name} strafes {firer.name}")
    template.resolve(g, p)


def consolidation(g: Game) -> None:
    """Phase 3: a gunship whose time on station is up leaves (G-27: 3 turns)."""
    fs = fs_state(g)
    for gs in [x for x in fs.gunships if x.until <= g.state.turn]:
        _leave(g, gs, "its time on station is up")


register(GunshipRun())
