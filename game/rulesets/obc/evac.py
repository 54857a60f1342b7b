"""Evacuating One Brain-Cell's disabled (OBC-42, G-42): picking a disabled man up, alone or as the second of
two, carrying him, and putting him aboard a landed vehicle or off his side's table edge: a mixin of
``game.ObcGame``.

* ``carry``: a man who has not moved, beside a disabled man of his side (within two base contacts), picks him
  up; a second man beside him joins the first (two carriers at most). Either costs the man his act.
* A carrier's ``move`` takes the disabled man with him. One man carries him at half speed; two carry him
  between them, each losing 2" of his move (OBC-42), and move together: the partner keeps his place beside
  the carrier, and the move must be within both men's allowances (engine reading: the pair moves as the
  carrier's one act, the partner drawing on no authority of his own). A partner who may not
  move now (he moved, holds, or is pinned) drops out of the carry, and the carrier goes alone at half speed.
* ``load``: a carrier within his move of a landed, stationary vehicle of his side with room puts the
  disabled man aboard (entering a vehicle, -2", OBC-4, counts as one of OBC-11's embussed men); he and his
  partner end beside the vehicle. A disabled man is never set down again by ``debus``.
* A disabled man carried to his own side's edge, or flown off the table aboard a chopper, is evacuated
  (G-42's victory no longer counts him as left behind).

What it leaves out: the move's price over the ground (``movement``), the chopper's flight (``acts``).
"""

from __future__ import annotations

import math

from game.rules.errors import IllegalAction
from game.rulesets.obc import movement
from game.rulesets.obc.state import DISABLED, Man, Vehicle, dist


class Evac:
    def carriers(self, tid: str) -> list[Man]:
        """The men carrying ``tid`` (at most two), by id."""
        return sorted((m for m in self.state.men.values() if m.carrying == tid), key=lambda m: m.id)

    def carried(self, mid: str) -> bool:
        return any(m.carrying == mid for m in self.state.men.values())

    def partner(self, m: Man) -> Man | None:
        """The other man carrying the one ``m`` carries, if he may move with him now."""
        if m.carrying is None:
            return None
        for x in self.carriers(m.carrying):
            if x.id != m.id and x.able and not x.stunned and not x.locked and not x.panicked and not x.done \
                    and x.aboard is None and not x.moved and not x.fired and self.on_table(x):
                return x
        return None

    def carry_offers(self, m: Man) -> list[dict]:
        if m.aboard is not None or m.moved or m.carrying is not None:
            return []
        out = []
        for d in self.state.men.values():
            if d.side != m.side or d.status != DISABLED or d.aboard is not None or d.evacuated \
                    or dist(d, m) > self.t.figure.contact * 2:
                continue
            now = self.carriers(d.id)
            if len(now) >= 2:
                continue
            out.append({"type": "carry", "man": m.id, "target": d.id, "carriers": len(now) + 1, "clause": "OBC-42",
                        "label": f"{m.name} picks up {d.name}" if not now else
                        f"{m.name} helps {now[0].name} carry {d.name}"})
        return out

    def _act_carry(self, side: str, action: dict) -> None:
        m = self._man(action)
        offer = next((o for o in self.carry_offers(m) if o["target"] == action.get("target")), None)
        if offer is None:
            raise IllegalAction("no disabled man of the side beside him for him to carry", "OBC-42")
        self._start(m)
        m.carrying = offer["target"]
        d = self.state.men[m.carrying]
        two = offer["carriers"] == 2
        self.emit({"type": "carry", "man": m.id, "target": d.id, "carriers": [x.id for x in self.carriers(d.id)],
                   "clause": "OBC-42", "text": f"{m.name} {'helps carry' if two else 'picks up'} {d.name}"}, side)

    def carry_count(self, m: Man) -> int:
        """How many carry the man ``m`` carries, as they would move now: 0, 1 (half speed) or 2 (-2")."""
        if m.carrying is None:
            return 0
        return 2 if self.partner(m) is not None else 1

    def carry_plan(self, m: Man, to: tuple[float, float], plan: movement.Plan) -> movement.Plan:
        """OBC-42: a two-man carry goes no farther than the partner may from where he stands."""
        p = self.partner(m)
        if p is None or not plan.legal:
            return plan
        theirs = movement.man_move(self.t, self.ground, (m.x, m.y), to, wounded=p.wounds > 0,
                                   one_crew=self.one_crew(p), carrying=2)
        if not theirs.legal:
            return movement.Plan(False, min(plan.allowance, theirs.allowance), plan.distance, plan.going,
                                 plan.steps, f"{p.name}, carrying with him: {theirs.reason}", "OBC-42")
        return plan

    def carry_along(self, m: Man, to: tuple[float, float]) -> None:
        """Before ``m`` moves to ``to`` carrying: his partner moves with him, keeping his side; a partner who
        may not move drops out of the carry."""
        if m.carrying is None:
            return
        p = self.partner(m)
        for x in self.carriers(m.carrying):
            if x.id != m.id and x is not p:
                x.carrying = None
                self.emit({"type": "carry", "man": x.id, "target": None, "clause": "OBC-42",
                           "text": f"{x.name} lets go of {self.state.men[m.carrying].name}"}, m.side)
        if p is None:
            return
        self._beside(p, (m.x, m.y), to)

    def _beside(self, p: Man, anchor: tuple[float, float], to: tuple[float, float]) -> None:
        """Move the partner ``p`` to keep his place beside ``anchor`` as it goes to ``to``."""
        dx, dy = p.x - anchor[0], p.y - anchor[1]
        d = math.hypot(dx, dy) or 1.0
        gap = self.t.figure.spacing
        at = (round(min(max(to[0] + dx / d * gap, 0.0), self.scenario.width), 3),
              round(min(max(to[1] + dy / d * gap, 0.0), self.scenario.height), 3))
        p.moved = max(math.dist((p.x, p.y), at), 1e-6)
        p.acted = True
        carrying, p.carrying = p.carrying, None  # the carrier places the man they carry
        self.place(p, at)
        p.carrying = carrying

    # -- aboard ----------------------------------------------------------------------------------------
    def load_offers(self, m: Man) -> list[dict]:
        """OBC-42, OBC-4, OBC-11: a carrier puts the man he carries aboard a landed vehicle within his move."""
        if m.carrying is None or not self.may_move(m) or m.aboard is not None:
            return []
        out = []
        for v in self.state.vehicles.values():
            if v.side == m.side and v.able and not v.flying and v.moved == 0 and len(v.passengers) < v.capacity \
                    and self.debus_left(v) > 0:
                plan = self.load_plan(m, v)
                if plan.legal:
                    out.append({"type": "load", "man": m.id, "target": m.carrying, "vehicle": v.id,
                                "to": [v.x, v.y], "reach": round(plan.allowance, 3), "clause": "OBC-42; OBC-4; OBC-11",
                                "label": f"{m.name} puts {self.state.men[m.carrying].name} aboard {v.name}"})
        return out

    def load_plan(self, m: Man, v: Vehicle) -> movement.Plan:
        to = (v.x, v.y)
        plan = movement.man_move(self.t, self.ground, (m.x, m.y), to, wounded=m.wounds > 0, one_crew=self.one_crew(m),
                                 carrying=self.carry_count(m), vehicle=True)
        return self.carry_plan(m, to, plan)

    def _act_load(self, side: str, action: dict) -> None:
        m = self._man(action)
        offer = next((o for o in self.load_offers(m) if o["vehicle"] == action.get("vehicle")), None)
        if offer is None:
            raise IllegalAction("no landed vehicle of the side with room within his move for the man he carries",
                                "OBC-42; OBC-11")
        v = self.state.vehicles[offer["vehicle"]]
        d = self.state.men[m.carrying]
        p = self.partner(m)
        self._start(m)
        r = self.t.movement.step_off
        for x in [m] + ([p] if p else []):
            gap = math.dist((x.x, x.y), (v.x, v.y)) or 1.0
            f = max(0.0, (gap - r) / gap)
            at = (round(x.x + (v.x - x.x) * f, 3), round(x.y + (v.y - x.y) * f, 3))
            x.moved, x.acted = max(math.dist((x.x, x.y), at), 1e-6), True
            x.carrying = None
            self.place(x, at)
        d.aboard, d.x, d.y = v.id, v.x, v.y
        v.passengers.append(d.id)
        v.exchanged += 1
        self.emit({"type": "load", "man": m.id, "target": d.id, "vehicle": v.id, "clause": "OBC-42; OBC-11",
                   "text": f"{m.name} puts {d.name} aboard {v.name}"}, side)

    def _evacuate_at_edge(self, m: Man) -> None:
        edge = self.scenario.edges.get(m.side)
        w, h = self.scenario.width, self.scenario.height
        at = {"south": m.y <= 0.01, "north": m.y >= h - 0.01, "west": m.x <= 0.01, "east": m.x >= w - 0.01}
        if m.carrying and at.get(edge):
            c = self.state.men[m.carrying]
            c.evacuated, c.status = True, DISABLED
            for x in self.carriers(c.id):
                x.carrying = None
            self.emit({"type": "evacuated", "man": c.id, "clause": "OBC-42; G-42", "text": f"{c.name} is evacuated"},
                      m.side)
