"""Beaching and debarkation (DD-9A.9–9A.10; G-36; C-22): a craft at a bank, the Tango's ramp, troops
ashore and the shoreline mud.

* A craft whose hull is within 0.25" of dry land is at a bank (``riverine.at_bank``). ``drop_ramp`` (a
  Tango's activation, 1 CP, DD-9A.9) lowers the ramp onto the bank and every element aboard debarks; other
  craft at a bank set troops ashore with the ordinary ``dismount`` (``game.rules.transport`` asks
  :func:`refuse_debark` and :func:`debark`). A craft that moves raises its ramp.
* Troops go ashore in a line facing inland, every stand's centre on dry land within 4" of the landing
  point (the dry land nearest the hull): "moving up to 4\" into the brush" (:func:`bank_spots`).
* Shoreline mud (DD-9A.10, G-36, C-22): a d6 for each debarking element, 1–3 mud: its debark and every move
  it makes the rest of the turn at most 3" (``riverine.mud_cap``, asked by ``movement.plan_move``). No roll
  onto a trail (a paved landing) or with an Engineer stand (``us_engineer_team``, riverine.toml ``[mud]
  engineers``) of its side on the bank within 4".

What it leaves out: a landing point the player chooses (the engine sets troops down nearest the ramp, the
first legal line straight inland); the ramp model's own footprint; mud anywhere but the bank.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shapely.geometry import Point

from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.riverine import at_bank, bank_gap, boat_of, landing_point, rstate, rules, water
from game.rules.state import Element, Stand, base_of
from game.world import shapes

if TYPE_CHECKING:
    from game.rules.game import Game


# -- the bank: placing troops ashore (DD-9A.9) ------------------------------------------------------------------
def bank_spots(g: Game, vstand: Stand, el: Element, reach: float) -> dict[str, tuple[float, float, float]] | None:
    """A legal formation for ``el`` on dry land, every stand's centre within ``reach`` of the landing point
    (the nearest dry land to the hull), facing inland: the stands side by side, tried on rings out from
    the landing point (0.25" steps, 16 bearings, straight inland first)."""
    w = water(g)
    if w.land.is_empty or bank_gap(g, vstand) > reach + 1e-9:
        return None
    ox, oy = landing_point(g, vstand)
    inland = math.degrees(math.atan2(oy - vstand.y, ox - vstand.x))
    stands = g.state.living(el)
    gap = max(g.book.base_of(s.type).width for s in stands) + 0.1
    steps = int(round((reach - 0.5) / 0.25))
    for ring in range(0, steps + 1):
        r = 0.5 + ring * 0.25
        for k in range(16):
            ang = inland + 22.5 * ((k + 1) // 2) * (1 if k % 2 else -1)
            cx, cy = ox + r * math.cos(math.radians(ang)), oy + r * math.sin(math.radians(ang))
            moved = {}
            for i, s in enumerate(stands):
                off = (i - (len(stands) - 1) / 2) * gap
                px, py = cx - off * math.sin(math.radians(ang)), cy + off * math.cos(math.radians(ang))
                moved[s.id] = Stand(**{**s.__dict__, "x": round(px, 4), "y": round(py, 4), "facing": round(ang % 360, 4)})
            if any(math.hypot(m.x - ox, m.y - oy) > reach + 1e-9 for m in moved.values()):
                continue
            if any(shapes.overlap(w.water, base_of(g.book, m)) > 1e-4 for m in moved.values()):
                continue
            if g.placement_ok(el, moved):
                return {sid: (m.x, m.y, m.facing) for sid, m in moved.items()}
    return None


def _engineers_near(g: Game, side: str, x: float, y: float) -> Stand | None:
    m = rules(g).mud
    land = water(g).land
    for s in g.state.side_stands(side):
        if s.type in m.engineers and land.covers(Point(s.x, s.y)) \
                and base_of(g.book, s).distance(Point(x, y)) <= m.engineer_range + 1e-9:
            return s
    return None


def roll_mud(g: Game, vstand: Stand, el: Element) -> bool:
    """DD-9A.10, G-36: the Mud roll for an element leaving a craft onto the bank. True: mud (3" this turn).
    No roll onto a trail (a paved landing) or with an Engineer stand of its side on the bank within 4"."""
    m = rules(g).mud
    x, y = landing_point(g, vstand)
    if g.table.point_on_trail(x, y):
        return False
    eng = _engineers_near(g, el.side, x, y)
    if eng is not None:
        g.emit({"type": "note", "element": el.id, "clause": "DD-9A.10; G-36",
                "text": f"{el.name} lands where the engineers ({eng.id}) have secured the bank: no Mud roll"})
        return False
    die = g.dice.d6()
    mud = die <= m.mud_on
    g.emit({"type": "roll", "purpose": "Mud", "side": el.side, "element": el.id, "dice": [die], "target": m.mud_on,
            "modifiers": [], "need": m.mud_on, "result": "fail" if mud else "pass", "clause": m.clause,
            "text": f"{el.name} leaves the {vstand.id} onto the bank: Mud on {m.mud_on} or less, rolled {die}: "
                    + (f"mud, at most {m.cap:g}\" this turn" if mud else "firm ground")})
    return mud


def debark(g: Game, vstand: Stand, el: Element, clause: str) -> bool:
    """One element leaves a craft at a bank (DD-9A.9–9A.10): the Mud roll, then its stands set down on the
    bank within 4" of the landing point (3" in mud, C-22). False: no room ashore, it stays aboard."""
    from game.rules.transport import set_down

    r = rules(g)
    mud = roll_mud(g, vstand, el)
    reach = min(r.bank.debark, r.mud.cap) if mud else r.bank.debark
    spots = bank_spots(g, vstand, el, reach)
    if spots is None or not set_down(g, vstand, el, clause, spots=spots):
        g.emit({"type": "note", "element": el.id, "clause": clause,
                "text": f"no clear ground on the bank for {el.name}: it stays aboard"}, visible=el.side)
        return False
    st = rstate(g)
    assert st is not None
    if mud:
        st.mud[el.id] = g.state.turn
        st.mud = dict(sorted(st.mud.items()))
    return True


def refuse_debark(g: Game, vstand: Stand) -> str | None:
    """Why troops cannot leave this craft now (``transport.Dismount`` asks), or None: a craft sets troops
    ashore at a bank only (DD-9A.9), a ramp craft with its ramp down."""
    if not at_bank(g, vstand):
        return f"{vstand.id} is not at a bank: troops leave a boat onto the bank (DD-9A.9)"
    boat = boat_of(g, vstand)
    if vstand_ramp_craft(g, vstand) and (boat is None or not boat.ramp):
        return f"{vstand.id}'s ramp is up: drop the ramp first (drop_ramp, DD-9A.9)"
    return None


def vstand_ramp_craft(g: Game, vstand: Stand) -> bool:
    from game.rules.vehicles import vehicle_type

    vt = vehicle_type(g, vstand)
    return vt is not None and vt.id in rules(g).bank.ramp_craft


class DropRamp(ActionKind):
    """Dropping the Ramp (DD-9A.9): a ramp craft at a bank, its activation (1 CP); the ramp touches the
    bank and every element aboard debarks, each with its Mud roll (DD-9A.10, C-22)."""

    type = "drop_ramp"
    chapter = "vehicles"

    def _boat(self, g: Game, el: Element) -> Stand | None:
        from game.rules.vehicles import rec_of, vehicle_of

        v = vehicle_of(g, el)
        if v is None or boat_of(g, v) is None or not vstand_ramp_craft(g, v):
            return None
        rec = rec_of(g, v)
        return v if rec is not None and not rec.wreck and not rec.abandoned else None

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        v = self._boat(g, el)
        if v is None or not at_bank(g, v):
            return []
        return [{"type": self.type, **common, "clause": "DD-9A.9; DD-9A.10; C-22", "params": {},
                 "label": f"{el.name}: drop the ramp, troops debark onto the bank ({price})"}]

    def check(self, g: Game, el: Element, action: dict) -> Stand:
        v = self._boat(g, el)
        if v is None:
            raise IllegalAction(f"{el.name} is not a boat with a ramp (a Tango)", "DD-9A.9")
        if not at_bank(g, v):
            raise IllegalAction(f"{el.name} is not at a bank: the ramp must touch it", "DD-9A.9")
        return v

    def resolve(self, g: Game, el: Element, action: dict, plan: Stand) -> None:
        from game.rules.vehicles import rec_of

        boat = boat_of(g, plan)
        rec = rec_of(g, plan)
        assert boat is not None and rec is not None
        boat.ramp = True
        x, y = landing_point(g, plan)
        g.emit({"type": "ramp", "vehicle": plan.id, "x": x, "y": y, "down": True, "clause": "DD-9A.9",
                "text": f"{el.name} drops its ramp onto the bank"})
        for eid in list(rec.passengers):
            debark(g, plan, g.state.elements[eid], "DD-9A.9; C-22")


register(DropRamp())


def after_boat_move(g: Game, vstand: Stand) -> None:
    """A craft that moves raises its ramp (DD-9A.9)."""
    boat = boat_of(g, vstand)
    if boat is not None:
        boat.ramp = False
