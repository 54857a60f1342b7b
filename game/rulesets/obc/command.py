"""Who in a moving One Brain-Cell squad may act, and the men out of command (OBC-15 - OBC-17): a mixin of
``game.ObcGame``.

A man within his leader's zone acts under authority, as many as the leader's level (OBC-15); the others act
only as one of the squad's ½d6 independent men (OBC-16). A man out of command, outside the leader's zone
(or with no leader, a vehicle's crew excepted), is -1 to fire and +1 on his morale-effect rolls (OBC-17).

Engine reading of OBC-17's "men not under authority": a man outside the leader's zone whom neither the
authority nor the ½d6 lets act. He may not move, fire or do anything else, except retreat: a straight move
toward the nearest table edge (the nearest point of it) at half his speed over the going, paid as any move
(wounded, carrying, hedges), as far as that allows; he stops at the edge. The engine offers the retreat
with the point it reaches (``to``) and the path to draw; moves and other acts of his are refused with
OBC-17. A morale outcome's flight or closing on the squad (OBC-45) is carried out by ``harm`` at the start
of his squad's move, in or out of command.

What it leaves out: the morale outcomes themselves (``harm``), a move's price (``movement``).
"""

from __future__ import annotations

import math

from game.rules.errors import IllegalAction
from game.rulesets.obc import movement
from game.rulesets.obc.state import Man, dist


class Command:
    def in_zone(self, m: Man) -> bool:
        """OBC-15: within the squad leader's zone of authority (the leader himself is)."""
        q = self.state.squads[m.squad]
        lead = self.state.men.get(q.leader) if q.leader else None
        if lead is None or not lead.able:
            return False
        return m.id == lead.id or dist(m, lead) <= q.zone

    def crew(self, m: Man) -> bool:
        v = self.state.vehicles.get(m.aboard or "")
        return v is not None and m.id in v.crew

    def out_of_command(self, m: Man) -> bool:
        """OBC-17: outside the leader's zone (a vehicle's crew answer to their vehicle, engine reading)."""
        return not self.crew(m) and not self.in_zone(m)

    def _may_stir(self, m: Man) -> bool:
        """Able, on the table, of the moving squad, and held by nothing: no panic, pin, deadlock or hold."""
        s = self.state
        return (s.active is not None and m.squad == s.active and m.able and not m.panicked and not m.stunned
                and not m.locked and not m.done and self.on_table(m))

    def actors(self) -> list[Man]:
        """The men of the active squad who may still act now (OBC-15 - OBC-17, OBC-30, OBC-45)."""
        s = self.state
        out = []
        for m in s.men.values():
            if not self._may_stir(m):
                continue
            if m.aboard and m.id not in s.vehicles[m.aboard].crew:
                continue  # a passenger waits for the vehicle to set him down (OBC-11)
            if not m.acted and not self.budget(m):
                continue
            out.append(m)
        return out

    def budget(self, m: Man) -> str | None:
        """Which count a man's first act this move comes from: authority, or the independent ½d6."""
        q = self.state.squads[m.squad]
        if self.crew(m):
            return "crew"
        if m.id == q.leader:
            return "leader"
        if self.in_zone(m) and q.in_command_left > 0:
            return "authority"
        return "independent" if q.independent_left > 0 else None

    # -- OBC-17: the retreat of the men out of command -------------------------------------------------------
    def retreaters(self) -> list[Man]:
        """The men of the moving squad out of command whom nothing lets act: they may only retreat."""
        return [m for m in self.state.men.values() if self._may_stir(m) and m.aboard is None and not m.acted
                and self.out_of_command(m) and not self.budget(m)]

    def refuse_out_of_command(self, mid: object) -> None:
        """A man of the moving squad out of command, who may only retreat, is refused with OBC-17."""
        m = self.state.men.get(mid) if isinstance(mid, str) else None
        if m is not None and m in self.retreaters():
            raise IllegalAction(f"{m.name} is out of his leader's command: he may only retreat toward the nearest "
                                "table edge at half speed", "OBC-17")

    def edge_point(self, m: Man) -> tuple[float, float]:
        """The nearest point of the table's edge (its first in west, east, south, north order on a tie)."""
        w, h = self.scenario.width, self.scenario.height
        return min(((0.0, m.y), (w, m.y), (m.x, 0.0), (m.x, h)), key=lambda p: math.dist(p, (m.x, m.y)))

    def retreat_plan(self, m: Man) -> tuple[tuple[float, float], movement.Plan] | None:
        """OBC-17: his straight retreat toward the nearest edge at half speed, as far as it takes him: (where
        he ends, the move's plan), or None: at the edge already, or nothing passable that way."""
        goal = self.edge_point(m)
        a = (m.x, m.y)
        d = math.dist(a, goal)
        if d < 1e-6:
            return None
        step = min(d, self.t.rates["infantry"].road * self.t.movement.retreat)
        plan = None
        for _ in range(4):  # the going depends on how far he goes: shorten until the move pays for itself
            to = (round(a[0] + (goal[0] - a[0]) * step / d, 3), round(a[1] + (goal[1] - a[1]) * step / d, 3))
            plan = self.move_plan(m, to, False, retreat=True)
            if plan.going == "impassable" or plan.allowance <= 0:
                return None
            if plan.legal:
                return to, plan
            step = plan.allowance if step > plan.allowance + 1e-6 else step - 1e-3  # else a rounding
        return None

    def retreat_offer(self, m: Man) -> dict | None:
        found = self.retreat_plan(m)
        if found is None:
            return None
        to, plan = list(found[0]), found[1]
        return {"type": "retreat", "man": m.id, "to": to, "path": [[m.x, m.y], to], "edge": list(self.edge_point(m)),
                "reach": round(plan.allowance, 3), "deductions": plan.steps, "clause": "OBC-17",
                "label": f"{m.name} retreats toward the table edge (out of command)"}

    def _act_retreat(self, side: str, action: dict) -> None:
        mid = action.get("man")
        m = self.state.men.get(mid) if isinstance(mid, str) else None
        offer = self.retreat_offer(m) if m is not None and m in self.retreaters() else None
        if offer is None:
            raise IllegalAction(f"no man {str(mid)[:40]!r} of the moving squad out of command who may retreat",
                                "OBC-17")
        m.acted = m.done = True
        m.moved = max(math.dist((m.x, m.y), offer["to"]), 1e-6)
        self.carry_along(m, (offer["to"][0], offer["to"][1]))
        self.place(m, (offer["to"][0], offer["to"][1]))
        self._evacuate_at_edge(m)
