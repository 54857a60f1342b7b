"""Vehicle crews (DD-7.3, DD-7.9–7.10; G-34; C-06): the exposed crewman, Buttoned Up, Stunned.

Actions: ``crew_shot`` (infantry fire at an exposed cupola or pintle crewman: the element's FP at -2;
any hit, a crew Morale test at the vehicle element's quality target, C-06; a failure Buttons Up the crew),
``unbutton`` (the vehicle's activation, 1 CP, DD-7.3), ``rally_crew`` (1 CP, DD-7.10) and ``unbog`` (the
vehicle's activation, 1 CP and 4+: a Bogged vehicle is freed, G-01 rule 3). Phase 3: each
Stunned crew tests Morale and recovers on a pass (DD-7.10; ``vehicles`` runs it). The tables are
``armour.toml``'s ``[crew_shot]`` and ``[punch_drunk]``; Punch-Drunk itself is ``armour.punch_drunk``.

Also ``reaction_fire``: a reaction's fire at a hull small arms cannot hurt (an ambush, Opportunity Fire,
Desperate Return Fire) becomes the element's AT shot, or its rifles at the exposed crewman (DD-7.2–7.3).

What it leaves out: the mine stun of DD-9A.12 is the river rules' (``riverine``, C-26).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.rules.armour import _emit_crew, muzzle_flash, tables, vehicle_targets
from game.rules.dice import Modifier, need, p_success
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.state import Element, Stand

if TYPE_CHECKING:
    from game.rules.game import Game


def exposed(g: Game, vstand: Stand) -> bool:
    """Does the vehicle show an exposed crewman (DD-7.3): a cupola or open top, not Buttoned Up?"""
    from game.rules import vehicles

    vt = vehicles.vehicle_type(g, vstand)
    rec = vehicles.rec_of(g, vstand)
    return bool(vt and rec and vt.cupola and not rec.buttoned and not rec.abandoned and not rec.wreck)


@dataclass(frozen=True)
class CrewPlan:
    target: Stand
    shooters: list[Stand]
    dice: int
    modifiers: list[Modifier]
    need: int


class CrewShot(ActionKind):
    """Shooting at an exposed crewman (DD-7.3, G-34): the element's FP at -2; any hit: crew Morale test,
    a failure Buttons Up the crew."""

    type = "crew_shot"

    def _shooters(self, g: Game, el: Element, target: Stand) -> list[Stand]:
        from game.rules import fire, vehicles

        return [s for s in g.state.living(el) if fire.can_shoot(g, s) and not vehicles.is_vehicle(g, s)
                and fire.gap(g, s, target) <= g.book.stands[s.type].range and g.line_of_sight(s, target).visible]

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        from game.rules import vehicles

        if vehicles.vehicle_of(g, el) is not None:
            return []
        targets = [t.id for t in vehicle_targets(g, el.side) if exposed(g, t) and self._shooters(g, el, t)]
        if not targets:
            return []
        return [{"type": self.type, **common, "clause": "DD-7.3; G-34",
                 "label": f"{el.name}: fire at an exposed crewman ({tables().crew_shot.modifier:+d} to hit) ({price})",
                 "params": {"target": {"kind": "stand", "choices": targets, "doc": "an enemy vehicle with an exposed crewman"}}}]

    def check(self, g: Game, el: Element, action: dict) -> CrewPlan:
        from game.rules import fire, vehicles

        tid = action.get("target")
        target = g.state.stands.get(tid) if isinstance(tid, str) else None
        if target is None or not target.alive or not g.knows_stand(el.side, target) or target.side == el.side:
            raise IllegalAction(f"no Confirmed enemy vehicle {tid!r} on the table", "DD-5.1; DD-7.3")
        if not vehicles.is_vehicle(g, target):
            raise IllegalAction(f"'{tid}' is not a vehicle", "DD-7.3")
        if not exposed(g, target):
            raise IllegalAction(f"'{tid}' shows no exposed crewman (Buttoned Up or no cupola)", "DD-7.3")
        shooters = self._shooters(g, el, target)
        if not shooters:
            raise IllegalAction(f"no stand of {el.name} sees '{tid}' within its range", "DD-5.1; G-26")
        cs = tables().crew_shot
        mods = [Modifier("exposed crewman behind the hatch", cs.modifier, cs.clause)]
        if el.pinned:
            mods.append(Modifier("firer Pinned", fire.combat().fire.pinned_firer, "DD-5.4"))
        dice = sum(fire.stand_fp(g, s) for s in shooters)
        return CrewPlan(target, shooters, dice, mods, need(fire.combat().fire.to_hit, mods))

    def resolve(self, g: Game, el: Element, action: dict, plan: CrewPlan) -> None:
        from game.rules import fire, vehicles
        from game.rules.dice import succeeds
        from game.rules.morale import morale_test

        dice = g.dice.roll(plan.dice)
        hits = sum(1 for d in dice if succeeds(d, plan.need))
        g.emit({"type": "fire", "kind": "crew_shot", "side": el.side, "element": el.id,
                "stands": [s.id for s in plan.shooters], "target": plan.target.id,
                "target_element": plan.target.element, "dice": plan.dice, "clause": "DD-7.3; G-34",
                "text": f"{el.name} fires at the exposed crewman of {plan.target.id}"})
        g.emit({"type": "roll", "purpose": "to hit", "side": el.side, "element": el.id,
                "stands": [s.id for s in plan.shooters], "dice": dice, "target": fire.combat().fire.to_hit,
                "modifiers": [m.to_dict() for m in plan.modifiers], "need": plan.need, "result": hits,
                "clause": "DD-7.3; G-34; G-31",
                "text": f"{el.name} at the crewman: {plan.dice} FP dice, needs {plan.need}+; rolled {dice}: {hits} hit(s)"})
        muzzle_flash(g, el)
        el.conceal = False
        el.fired_turn = g.state.turn
        if not hits:
            return
        vel = g.state.elements[plan.target.element]
        rec = vehicles.rec_of(g, plan.target)
        assert rec is not None
        if not morale_test(g, vel, "exposed crewman hit", "DD-7.3; G-34"):
            rec.buttoned = True
            _emit_crew(g, plan.target, "buttoned", "DD-7.3",
                       f"{vel.name} buttons up: its pintle weapons are silent until it pays to unbutton")

    def odds(self, g: Game, el: Element, action: dict, plan: CrewPlan) -> dict:
        p = p_success(plan.need)
        return {"target": plan.target.id, "dice": plan.dice, "need": plan.need,
                "modifiers": [m.to_dict() for m in plan.modifiers], "p_any_hit": 1.0 - (1.0 - p) ** plan.dice}


class CrewAction(ActionKind):
    """Unbutton (DD-7.3) or Rally the Crew (DD-7.10): the vehicle's activation (1 CP)."""

    chapter = "vehicles"

    def __init__(self, type_: str, flag: str, clause: str, label: str, state: str):
        self.type, self.flag, self.clause, self.label, self.state = type_, flag, clause, label, state

    def _rec(self, g: Game, el: Element):
        from game.rules import vehicles

        v = vehicles.vehicle_of(g, el)
        rec = vehicles.rec_of(g, v) if v is not None else None
        return v, rec

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        v, rec = self._rec(g, el)
        if rec is None or not getattr(rec, self.flag) or rec.abandoned:
            return []
        return [{"type": self.type, **common, "clause": self.clause, "params": {},
                 "label": f"{el.name}: {self.label} ({price})"}]

    def check(self, g: Game, el: Element, action: dict) -> Stand:
        v, rec = self._rec(g, el)
        if rec is None:
            raise IllegalAction(f"{el.name} is not a vehicle", self.clause)
        if not getattr(rec, self.flag) or rec.abandoned:
            raise IllegalAction(f"{el.name}'s crew is not {self.flag.replace('buttoned', 'Buttoned Up').replace('stunned', 'Stunned')}",
                                self.clause)
        return v

    def resolve(self, g: Game, el: Element, action: dict, plan: Stand) -> None:
        from game.rules import vehicles

        rec = vehicles.rec_of(g, plan)
        setattr(rec, self.flag, False)
        _emit_crew(g, plan, self.state, self.clause, f"{el.name}: {self.label}")


class Unbog(ActionKind):
    """Free a Bogged vehicle (G-01 rule 3): the vehicle's activation (1 CP) and a d6, 4+."""

    type = "unbog"
    chapter = "vehicles"

    def _rec(self, g: Game, el: Element):
        from game.rules import vehicles

        v = vehicles.vehicle_of(g, el)
        return v, vehicles.rec_of(g, v) if v is not None else None

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        v, rec = self._rec(g, el)
        if rec is None or not rec.bogged or rec.abandoned or rec.wreck:
            return []
        return [{"type": self.type, **common, "clause": tables().bog.clause, "params": {},
                 "label": f"{el.name}: free the Bogged vehicle, {tables().bog.free_on}+ ({price})"}]

    def check(self, g: Game, el: Element, action: dict) -> Stand:
        v, rec = self._rec(g, el)
        if v is None or rec is None or not rec.bogged or rec.abandoned or rec.wreck:
            raise IllegalAction(f"{el.name} is not a Bogged vehicle", tables().bog.clause)
        return v

    def resolve(self, g: Game, el: Element, action: dict, plan: Stand) -> None:
        from game.rules import vehicles
        from game.rules.dice import resolve_test

        bog = tables().bog
        ev = resolve_test(g.dice, purpose="unbog", target=bog.free_on, modifiers=[], clause=bog.clause,
                          side=el.side, element=el.id, subject=el.name)
        ev["stand"] = plan.id
        g.emit(ev)
        if ev["result"] == "pass":
            vehicles.rec_of(g, plan).bogged = False  # type: ignore[union-attr]
            g.emit({"type": "status", "element": el.id, "status": "bogged", "on": False, "clause": bog.clause,
                    "text": f"{el.name} churns free of the mud"})


def consolidation(g: Game) -> None:
    """Phase 3 (DD-7.10): each Stunned crew tests Morale; a pass removes the marker."""
    from game.rules import vehicles
    from game.rules.morale import morale_test

    st = vehicles.vstate(g)
    if st is None:
        return
    for sid, rec in st.vehicles.items():
        if not rec.stunned or rec.wreck or rec.abandoned:
            continue
        s = g.state.stands[sid]
        if morale_test(g, g.state.elements[s.element], "Stunned crew recovers", "DD-7.10"):
            rec.stunned = False
            _emit_crew(g, s, "rallied", "DD-7.10", f"{g.state.elements[s.element].name}'s crew shakes off the stun")


ACTIONS = ("crew_shot", "unbutton", "rally_crew", "unbog")
for _kind in (CrewShot(), Unbog(),
              CrewAction("unbutton", "buttoned", "DD-7.3", "unbutton, the pintle weapons may fire again", "unbuttoned"),
              CrewAction("rally_crew", "stunned", "DD-7.10", "Rally the Crew, remove the Stunned marker", "rallied")):
    register(_kind)



def reaction_fire(g: Game, el: Element, target: Stand, ctx, label: str):
    """A reaction's fire (Opportunity Fire, an ambush, Desperate Return Fire: DD-2.19, DD-2.27, DD-10.7,
    DD-2.30) at ``target``: the ordinary fire path, except at an armoured hull (Class 2-4), which small
    arms cannot hurt (DD-7.2). Then each stand of the element with an anti-tank weapon in reach and sight
    shoots it (DD-7.6), and with none, its small arms fire at the exposed crewman if there is one (DD-7.3,
    G-34); with neither, the reaction holds its fire (a note says why). The fire path's Outcome, or an
    empty one at a hull (a hull takes no Pinning test)."""
    from game.rules import fire, vehicles
    from game.rules.armour import at_weapons, plan_at, resolve_at

    if not vehicles.is_vehicle(g, target) or vehicles.soft_skin(g, target):
        attack = fire.plan_fire(g, el, target.id, ctx, check_target=False)
        attack.label = label
        return fire.resolve_attack(g, attack)
    fired = False
    for s in g.state.living(el):
        for w in at_weapons(g, s):
            try:
                plan = plan_at(g, el, {"stand": s.id, "weapon": w.id, "target": target.id})
            except IllegalAction:
                continue
            resolve_at(g, el, plan)
            fired = True
            break
    if not fired and exposed(g, target):
        kind = CrewShot()
        try:
            plan = kind.check(g, el, {"target": target.id})
        except IllegalAction:
            plan = None
        if plan is not None:
            kind.resolve(g, el, {"target": target.id}, plan)
            fired = True
    if not fired:
        g.emit({"type": "note", "element": el.id, "clause": "DD-7.2; DD-7.3",
                "text": f"{label}: small arms cannot hurt {target.id}'s hull and no crewman shows: it holds its fire"},
               visible="all")
    return fire.Outcome()
