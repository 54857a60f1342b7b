"""Transport (DD-7.12–7.13, DD-3.22; G-06; C-08): mounting, dismounting and passengers' fate.

An infantry element mounts a vehicle of its side (``mount``, its activation: 1 CP In Command) when every
one of its stands is within 2" of the hull and the vehicle has room (G-06 capacity: stands, and how many
of them may be Medium). Embarked, it is off the table (``Element.reserve``, the state's flag for an
element with no miniatures down) and listed in the vehicle's ``passengers``: the enemy's view shows the
vehicle, never who is in it (DESIGN §6), the owner's view lists the passengers. The vehicle's activation
``dismount`` sets one embarked element down within 2" of the hull, in a legal formation.

Passengers' fate (C-08: the damage table governs): a non-penetrating hit, a Superficial Scrape, a
Mobility Kill or a Weapons Knockout leave them aboard (DD-7.13); Spall & Bailout (4) runs the Hasty
Bailout (each stand is hit on a 1, DD-3.22) and Knocked Out (5) hits each stand on 1–3; the survivors
are placed within 2" of the hull, Pinned (DD-5.16–5.17); Brewed Up (6) kills every one (DD-5.18).

Boats (``game.rules.riverine``, DD-9A.9): troops leave a craft only at a bank (a Tango with its ramp
down), onto the bank with a Mud roll; a craft's passengers set down in an emergency go to the bank.

Riders (G-06, a roster row with ``riders``): carried as passengers, but outside: when the tank is hit,
penetrated or not, they make the Hasty Bailout at once (:func:`riders_bail`: hit on a 1, saved on a 6 in
the open, set down Pinned).

What it leaves out: shooting at riders while they ride (the enemy's view does not list them), and moving
the passengers' stands with the hull (they are off the table and placed afresh when they leave).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.state import Element, Stand, base_of

if TYPE_CHECKING:
    from game.rules.armour import DamageResult
    from game.rules.game import Game

CLAUSE = "DD-7.12; G-06"
REACH = 2.0
"""DD-7.12: troops mount and dismount within 2" of the hull."""


def _vehicles():
    from game.rules import vehicles

    return vehicles


def room_for(g: Game, vstand: Stand, el: Element) -> str | None:
    """Why ``el`` cannot fit in the vehicle (G-06 capacity), or None if it fits."""
    v = _vehicles()
    vt = v.vehicle_type(g, vstand)
    rec = v.rec_of(g, vstand)
    assert vt is not None and rec is not None
    aboard = [s for eid in rec.passengers for s in g.state.living(g.state.elements[eid])]
    new = g.state.living(el)
    if len(aboard) + len(new) > vt.capacity:
        return f"the {vt.name} carries {vt.capacity} stand(s); {len(aboard)} aboard, {el.name} has {len(new)}"
    if vt.capacity_medium >= 0:
        medium = sum(1 for s in aboard + new if g.book.stands[s.type].base == "medium")
        if medium > vt.capacity_medium:
            return f"the {vt.name} takes at most {vt.capacity_medium} Medium stand(s)"
    return None


def _is_craft(g: Game, vstand: Stand) -> bool:
    vt = _vehicles().vehicle_type(g, vstand)
    return vt is not None and vt.kind == "craft"


def usable(g: Game, vstand: Stand) -> bool:
    rec = _vehicles().rec_of(g, vstand)
    return rec is not None and vstand.alive and not rec.wreck and not rec.abandoned


def within_reach(g: Game, vstand: Stand, el: Element) -> bool:
    hull = base_of(g.book, vstand)
    return all(hull.distance(base_of(g.book, s)) <= REACH + 1e-9 for s in g.state.living(el))


def mountable(g: Game, el: Element) -> list[Stand]:
    """The vehicles of its side this element may mount now (DD-7.12)."""
    v = _vehicles()
    if v.vstate(g) is None or v.vehicle_of(g, el) is not None or el.pinned:
        return []
    return [s for s in g.state.side_stands(el.side)
            if v.is_vehicle(g, s) and usable(g, s) and within_reach(g, s, el) and room_for(g, s, el) is None]


class Mount(ActionKind):
    """Mount a vehicle (DD-7.12): 1 CP, every stand within 2" of the hull, room aboard."""

    type = "mount"
    chapter = "vehicles"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        found = mountable(g, el)
        if not found:
            return []
        return [{"type": self.type, **common, "clause": CLAUSE, "label": f"{el.name}: mount a vehicle ({price})",
                 "params": {"vehicle": {"kind": "stand", "choices": [s.id for s in found],
                                        "doc": "a vehicle of its side within 2\" with room"}}}]

    def check(self, g: Game, el: Element, action: dict) -> Stand:
        v = _vehicles()
        vid = action.get("vehicle")
        vs = g.state.stands.get(vid) if isinstance(vid, str) else None
        if vs is None or vs.side != el.side or not v.is_vehicle(g, vs) or not g.state.on_table(g.state.elements[vs.element]):
            raise IllegalAction(f"no vehicle {vid!r} of the {el.side} side on the table", CLAUSE)
        if v.vehicle_of(g, el) is not None:
            raise IllegalAction(f"{el.name} is a vehicle", CLAUSE)
        if el.pinned:
            raise IllegalAction(f"{el.name} is Pinned", "DD-7.12; G-32")
        if not usable(g, vs):
            raise IllegalAction(f"{vid} is abandoned or a wreck", "DD-5.16; DD-5.17")
        if not within_reach(g, vs, el):
            raise IllegalAction(f"every stand of {el.name} must be within {REACH:g}\" of the hull", "DD-7.12")
        why = room_for(g, vs, el)
        if why is not None:
            raise IllegalAction(why, CLAUSE)
        return vs

    def resolve(self, g: Game, el: Element, action: dict, plan: Stand) -> None:
        rec = _vehicles().rec_of(g, plan)
        assert rec is not None
        rec.passengers.append(el.id)
        el.reserve = True
        el.conceal = False
        g.emit({"type": "mount", "element": el.id, "vehicle": plan.id, "clause": CLAUSE,
                "text": f"{el.name} mounts {g.state.elements[plan.element].name}"}, visible=el.side)
        g.emit({"type": "note", "element": plan.element, "clause": CLAUSE,
                "text": f"troops climb aboard {g.state.elements[plan.element].name}"}, visible=g.state.other(el.side))


def place_near(g: Game, vstand: Stand, el: Element, reach: float = REACH) -> dict[str, tuple[float, float, float]] | None:
    """A legal formation for ``el`` with every stand within ``reach`` of the hull: the stands side by side
    in a line, tried on rings round the hull (0.25" steps, 16 bearings, the rear first), the nearest first."""
    stands = g.state.living(el)
    hull = base_of(g.book, vstand)
    b = g.book.base_of(vstand.type)
    r0 = max(b.width, b.depth) / 2
    gap = max(g.book.base_of(s.type).width for s in stands) + 0.1  # side by side, bases apart
    for ring in range(0, 9):
        r = r0 + 0.75 + ring * 0.25
        for k in range(16):
            ang = vstand.facing + 180.0 + 22.5 * k  # the rear door first
            cx, cy = vstand.x + r * math.cos(math.radians(ang)), vstand.y + r * math.sin(math.radians(ang))
            moved = {}
            for i, s in enumerate(stands):
                off = (i - (len(stands) - 1) / 2) * gap
                px = cx - off * math.sin(math.radians(ang))
                py = cy + off * math.cos(math.radians(ang))
                moved[s.id] = Stand(**{**s.__dict__, "x": round(px, 4), "y": round(py, 4), "facing": round(ang % 360, 4)})
            if any(hull.distance(base_of(g.book, m)) > reach + 1e-9 for m in moved.values()):
                continue
            if g.placement_ok(el, moved):
                return {sid: (m.x, m.y, m.facing) for sid, m in moved.items()}
    return None


def set_down(g: Game, vstand: Stand, el: Element, clause: str,
             spots: dict[str, tuple[float, float, float]] | None = None) -> bool:
    """Put an embarked element on the table within 2" of the hull, or at ``spots`` (a boat's bank, the
    river rules); False: no room, it stays aboard."""
    if spots is None and "riverine" in g.state.chapters and _is_craft(g, vstand):
        from game.rules.beaching import bank_spots
        from game.rules.riverine import rules

        spots = bank_spots(g, vstand, el, rules(g).sinking.bank_range)  # G-14: off a boat onto the bank
    spots = spots if spots is not None else place_near(g, vstand, el)
    if spots is None:
        return False
    rec = _vehicles().rec_of(g, vstand)
    assert rec is not None
    rec.passengers.remove(el.id)
    el.reserve = False
    placed = []
    for s in g.state.living(el):
        s.x, s.y, s.facing = spots[s.id]
        placed.append({"id": s.id, "from": [vstand.x, vstand.y, vstand.facing], "to": [s.x, s.y, s.facing]})
    g.emit({"type": "dismount", "element": el.id, "vehicle": vstand.id, "clause": clause,
            "text": f"{el.name} dismounts from {g.state.elements[vstand.element].name}"})
    g.emit({"type": "move", "element": el.id, "mode": "dismount", "stands": placed, "clause": clause,
            "text": f"{el.name} deploys beside the hull"})
    return True


class Dismount(ActionKind):
    """The vehicle's activation: one embarked element dismounts within 2" of the hull (DD-7.12)."""

    type = "dismount"
    chapter = "vehicles"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        v = _vehicles()
        vs = v.vehicle_of(g, el)
        rec = v.rec_of(g, vs) if vs is not None else None
        if rec is None or not rec.passengers:
            return []
        if _is_craft(g, vs) and _debark_refused(g, vs) is not None:
            return []  # DD-9A.9: off a boat only at a bank
        return [{"type": self.type, **common, "clause": CLAUSE, "label": f"{el.name}: dismount troops ({price})",
                 "params": {"passenger": {"kind": "element", "choices": list(rec.passengers),
                                          "doc": "an embarked element"}}}]

    def check(self, g: Game, el: Element, action: dict) -> tuple[Stand, Element]:
        v = _vehicles()
        vs = v.vehicle_of(g, el)
        rec = v.rec_of(g, vs) if vs is not None else None
        if vs is None or rec is None:
            raise IllegalAction(f"{el.name} is not a vehicle", CLAUSE)
        pid = action.get("passenger")
        if not isinstance(pid, str) or pid not in rec.passengers:
            raise IllegalAction(f"{pid!r} is not aboard {el.name}", CLAUSE)
        pel = g.state.elements[pid]
        if _is_craft(g, vs):  # DD-9A.9: onto the bank (game.rules.riverine)
            why = _debark_refused(g, vs)
            if why is not None:
                raise IllegalAction(why, "DD-9A.9")
            return vs, pel
        if place_near(g, vs, pel) is None:
            raise IllegalAction(f"no clear ground within {REACH:g}\" of {el.name} for {pel.name}", "DD-7.12; DD-3.20")
        return vs, pel

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[Stand, Element]) -> None:
        if _is_craft(g, plan[0]):
            from game.rules.beaching import debark

            debark(g, plan[0], plan[1], "DD-9A.9; DD-7.12")  # the Mud roll, then onto the bank
            return
        set_down(g, plan[0], plan[1], CLAUSE)


def _debark_refused(g: Game, vs: Stand) -> str | None:
    from game.rules.beaching import refuse_debark

    return refuse_debark(g, vs)


# -- passengers' fate on the Damage Table (C-08) ----------------------------------------------------------
@dataclass(frozen=True)
class _Hit:
    stand: Stand
    die: int


def riders_bail(g: Game, vstand: Stand, clause: str) -> None:
    """G-06 "Riders": troops riding outside a tank that is hit (penetrated or not) make the Hasty Bailout
    of DD-3.22 at once: each stand is hit on a 1, saved on a 6 (in the open), and the survivors are set
    down Pinned within 2" (``armour.toml`` ``[riders]``). The crew stays in its tank."""
    from game.rules.armour import DamageResult, tables

    r = tables().riders
    row = DamageResult(roll=0, id="bailout", name="Hasty Bailout", clause=clause, passengers_hit_on=r.hit_on,
                       bailout=True)
    emergency_exit(g, vstand, row, save=r.save, who="riders")


def emergency_exit(g: Game, vstand: Stand, row: DamageResult, save: int | None = None, who: str = "crew") -> None:
    """C-08, DD-7.13, DD-3.22: each embarked stand is hit on ``passengers_hit_on`` or less (6: all KIA),
    saved on ``save`` where one is given (riders in the open, G-06); with a bailout, the survivors (and
    the crew) leave the hull, placed Pinned within 2"."""
    from game.rules.fire import apply_hit, remove_stand
    from game.rules.morale import pin

    v = _vehicles()
    rec = v.rec_of(g, vstand)
    assert rec is not None
    out = []
    for eid in list(rec.passengers):
        pel = g.state.elements[eid]
        for s in g.state.living(pel):
            s.x, s.y = vstand.x, vstand.y  # where its casualty token falls, if it falls
            if row.passengers_hit_on >= 6:
                remove_stand(g, s, "is killed aboard the burning hull", row.clause)
                if s.side == "allied":
                    g.state.tokens[-1].state = "kia"  # DD-5.18: everyone aboard is KIA
                continue
            die = g.dice.d6()
            hit = die <= row.passengers_hit_on
            g.emit({"type": "roll", "purpose": "passenger hit", "side": pel.side, "element": eid, "stand": s.id,
                    "dice": [die], "target": row.passengers_hit_on, "modifiers": [], "need": row.passengers_hit_on,
                    "result": "fail" if hit else "pass", "clause": f"{row.clause}; C-08",
                    "text": f"{s.id} aboard the {v.roster()[rec.roster].name}: hit on {row.passengers_hit_on} "
                            f"or less, rolled {die}: " + ("hit" if hit else "unhurt")}, visible=pel.side)
            if hit and save is not None:
                hit = not _save(g, s, save, row.clause)
            if hit:
                apply_hit(g, s, row.clause)
        if not g.state.living(pel):
            rec.passengers.remove(eid)
            pel.reserve = False
            continue
        if row.bailout:
            if set_down(g, vstand, pel, row.clause):
                if not pel.pinned:
                    pin(g, pel, row.clause)
                out.append(eid)
    if row.bailout:
        g.emit({"type": "bailout", "vehicle": vstand.id, "elements": out, "clause": row.clause,
                "text": (f"the crew of the {v.roster()[rec.roster].name} bails out" if who == "crew" else
                         f"the riders jump off the {v.roster()[rec.roster].name}")
                        + (f"; {len(out)} element(s) dismount Pinned" if out else "")})


def _save(g: Game, s: Stand, save: int, clause: str) -> bool:
    """A rider's save in the open (G-06: 6)."""
    from game.rules.dice import succeeds

    die = g.dice.d6()
    ok = succeeds(die, save)
    g.emit({"type": "roll", "purpose": "save", "side": s.side, "element": s.element, "stand": s.id, "dice": [die],
            "target": save, "modifiers": [], "need": save, "result": "pass" if ok else "fail", "clause": clause,
            "text": f"{s.id} saves on {save}+ (in the open, riding outside): rolled {die}, "
                    + ("saved" if ok else "not saved")}, visible=s.side)
    return ok


for _kind in (Mount(), Dismount()):
    register(_kind)
