"""What fire, bombs and fists do to One Brain-Cell men and vehicles, and what it does to their nerve
(OBC-14, OBC-18, OBC-29 - OBC-38, OBC-43 - OBC-46, OBC-50, OBC-51, G-42): a mixin of ``game.ObcGame``.

Readings taken here: a bomb kills every man in its 1" square, in the open or in cover (a direct hit on a
trench is a direct hit); half the men in the eight adjacent squares, the nearest first and rounded up, are
pinned unless protected from the blast: in hard cover (a trench, a bunker, a spider hole) or a building. A lorry's or a chopper's cab is its centre (OBC-38). "In one move" (OBC-31) is one
squad's move. A morale check's effect waits for the man's next squad move (OBC-44); a worse one replaces a
milder one. Men in base contact fight at once, and again at each turn's start while in contact (OBC-50).

What it leaves out: who may act (``game``, ``acts``); the dice and the tables (``firing``, ``morale``).
"""

from __future__ import annotations

import math

from shapely.geometry import Point

from game.rulesets.obc import firing, morale, movement
from game.rulesets.obc.dice import half_d6
from game.rulesets.obc.state import ABLE, DEAD, DISABLED, GONE, Man, Squad, Vehicle, dist

SEVERITY = {None: 0, "pinned": 1, "cover": 2, "panic": 3, "blind_panic": 4}


class Harm:
    # -- men -----------------------------------------------------------------------------------------
    def shown_to(self, m: Man, firer_side: str | None) -> str:
        """Who reads what happens to ``m``: everyone when the firing side sees him, else his own side."""
        if firer_side is None or m.id in self.sees(firer_side):
            return "all"
        return m.side

    def hurt(self, m: Man, effect: str | None, firer_side: str | None, why: str) -> None:
        """Apply a fire effect or an HTH result to a man (OBC-29, OBC-30, OBC-51, G-42)."""
        if effect is None or not m.able:
            return
        vis = self.shown_to(m, firer_side)
        if effect == "pinned":
            m.stunned = max(m.stunned, 1)
        elif effect == "wounded":
            m.wounds += 1
            if m.wounds >= 2:
                effect = "disabled"
            else:
                m.stunned = max(m.stunned, 1)
        if effect in ("disabled", "dead"):
            m.status = DISABLED if effect == "disabled" else DEAD
            m.locked = None
            for x in self.state.men.values():
                if x.carrying == m.id or x.locked == m.id:
                    x.carrying = None if x.carrying == m.id else x.carrying
                    x.locked = None if x.locked == m.id else x.locked
            m.carrying = None  # a carrier down lets go (OBC-42)
        self.emit({"type": "casualty", "man": m.id, "effect": effect, "status": m.status, "wounds": m.wounds,
                   "clause": "OBC-29; OBC-30", "text": f"{m.name} is {effect} ({why})"}, vis)
        if effect == "wounded":
            self.morale_check(m, "first_wound")
        if m.down:
            self.went_down(m)

    def went_down(self, m: Man) -> None:
        """OBC-43: every friend within 4" who sees a man go down checks his morale (engine reading: within
        4" is seeing it)."""
        for x in list(self.state.men.values()):
            if x.side == m.side and x.able and x.id != m.id and x.aboard is None and self.on_table(x) \
                    and dist(x, m) <= self.t.morale.friend_down:
                self.morale_check(x, "friend_down")

    def under_fire(self, ids: list[str]) -> None:
        """OBC-43: the first time under fire, or under fire out of command, each man checks."""
        for mid in ids:
            m = self.state.men.get(mid)
            if m is None or not m.able:
                continue
            if not m.under_fire:
                m.under_fire = True
                self.morale_check(m, "first_fire")
            elif self.out_of_command(m):
                self.morale_check(m, "out_of_command")

    def morale_check(self, m: Man, cause: str) -> None:
        effect, evs = morale.check(self.dice, self.t, m, cause, self.out_of_command(m))
        for ev in evs:
            self.emit(ev, m.side)
        if effect and SEVERITY[effect] > SEVERITY[m.pending]:
            m.pending = effect

    # -- a squad's move begins (OBC-14, OBC-16, OBC-18, OBC-44 - OBC-46) ----------------------------------
    def begin_squad(self, q: Squad) -> None:
        s = self.state
        q.moved_turn, s.active = s.turn, q.id
        self.clear_smoke(q.id)
        for v in s.vehicles.values():
            v.hits_move = 0
        self.emit({"type": "activate", "squad": q.id, "clause": "OBC-2; OBC-14", "text": f"{q.name} moves"}, q.side)
        self._succession(q)
        men = [m for m in s.men.values() if m.squad == q.id and m.able and self.on_table(m)]
        for m in men:
            if m.pending:
                effect, m.pending = m.pending, None
                self._outcome(m, effect)
            elif m.panicked:
                if self.in_zone(m):
                    ok, evs = morale.rally(self.dice, self.t, m)
                    for ev in evs:
                        self.emit(ev, m.side)
                    if ok:
                        m.panicked = m.fleeing = False
                        m.stunned = max(m.stunned, self.t.morale.rally_pinned)
                        continue
                self._outcome(m, "blind_panic" if m.fleeing else "panic")
        self._succession(q)
        n, d6 = half_d6(self.dice)
        q.independent, q.independent_left = n, n
        lead = s.men.get(q.leader) if q.leader else None
        q.in_command_left = q.authority if lead is not None and lead.able else 0
        self.emit({"type": "roll", "purpose": "independent men", "squad": q.id, "dice": "half_d6", "rolls": [d6],
                   "modifiers": [], "result": n, "clause": "OBC-16; G-42",
                   "text": f"{q.name}: {n} {'man' if n == 1 else 'men'} may act on their own; authority {q.in_command_left}"}, q.side)
        q.sitting = [m.id for m in men if m.stunned > 0]

    def end_squad(self, q: Squad) -> None:
        for mid in q.sitting:
            m = self.state.men[mid]
            m.stunned = max(0, m.stunned - 1)
        q.sitting = []
        for m in self.state.men.values():
            if m.squad == q.id:
                m.done = True

    def _succession(self, q: Squad) -> None:
        """OBC-18: a squad whose leader is down takes the nearest able man as leader, one level lower."""
        s = self.state
        lead = s.men.get(q.leader) if q.leader else None
        if q.leader is None or (lead is not None and lead.able):
            return
        pool = [m for m in s.men.values() if m.squad == q.id and m.able and not m.panicked and self.on_table(m)]
        if not pool:
            return
        new = min(pool, key=lambda m: (dist(m, lead), m.id) if lead else (0, m.id))
        q.leader, q.authority = new.id, max(0, q.authority + self.t.authority.successor)
        self.emit({"type": "leader", "squad": q.id, "leader": new.id, "authority": q.authority, "clause": "OBC-18",
                   "text": f"{new.name} takes over {q.name} (authority {q.authority})"}, q.side)

    def _outcome(self, m: Man, effect: str) -> None:
        """OBC-45: carry out a failed morale check's effect at the start of the man's squad's move."""
        if effect == "pinned":
            m.stunned = max(m.stunned, 1)
            to = None
        elif effect == "cover":
            to = self._nearest_cover(m)
            m.posture, m.stunned = "lying", max(m.stunned, 1)
        elif effect == "panic":
            m.panicked = True
            q = self.state.squads[m.squad]
            lead = self.state.men.get(q.leader) if q.leader else None
            mg = [x for x in self.state.men.values() if x.side == m.side and x.able and x.weapon == "mg" and x.id != m.id]
            goal = lead if lead is not None and lead.able and lead.id != m.id else (min(mg, key=lambda x: dist(x, m)) if mg else None)
            to = None if goal is None else self._toward(m, (goal.x, goal.y), stop=1.0)
        else:
            m.panicked = m.fleeing = True
            to = self._toward(m, self.edge_point(m), stop=0.0)
        self.emit({"type": "morale_outcome", "man": m.id, "effect": effect, "clause": "OBC-45; OBC-14",
                   "text": f"{m.name}: {effect.replace('_', ' ')}"}, m.side)
        if to is not None and m.aboard is None:
            self.place(m, to)
            w, h = self.scenario.width, self.scenario.height
            if effect == "blind_panic" and (m.x <= 0.01 or m.y <= 0.01 or m.x >= w - 0.01 or m.y >= h - 0.01):
                m.status = GONE
                self.emit({"type": "fled", "man": m.id, "clause": "OBC-45", "text": f"{m.name} flees the table"},
                          self.shown_to(m, self.other_side(m.side)))

    def _toward(self, m: Man, goal: tuple[float, float], stop: float) -> tuple[float, float]:
        """Where a man a morale outcome moves (OBC-45) ends: straight toward ``goal`` as far as his move goes
        over the going, a hedge or low wall on the way costing its 2" as any move's does (OBC-4)."""
        a = (m.x, m.y)
        d = math.dist(a, goal)
        if d < 1e-9:
            return a
        going = movement.going_of(self.t, self.ground, a, goal)

        def end(hedges: int) -> tuple[float, float]:
            reach, _ = movement.man_allowance(self.t, going if going != "impassable" else "rough",
                                              wounded=m.wounds > 0, one_crew=False, run=False, carrying=0,
                                              entering=False, hedges=hedges)
            step = max(0.0, min(reach, d - stop))
            return (round(a[0] + (goal[0] - a[0]) * step / d, 3), round(a[1] + (goal[1] - a[1]) * step / d, 3))

        free = end(0)
        return end(len(self.ground.hedges_crossed(a, free))) if free != a else a

    def _nearest_cover(self, m: Man) -> tuple[float, float] | None:
        if self.cover_at(m.x, m.y) != "none":
            return None
        reach = self.t.rates["infantry"].rough
        best = None
        for r in range(1, int(reach) + 1):
            for k in range(16):
                a = 2 * math.pi * k / 16
                p = (round(m.x + r * math.cos(a), 3), round(m.y + r * math.sin(a), 3))
                if 0 <= p[0] <= self.scenario.width and 0 <= p[1] <= self.scenario.height and self.cover_at(*p) != "none":
                    best = p
                    break
            if best:
                break
        return best

    def place(self, m: Man, to: tuple[float, float]) -> None:
        """Move a man (and whom he carries) to a point, and let the enemy see it if it does."""
        watchers = self.sees(self.other_side(m.side))
        before = (m.x, m.y)
        m.x, m.y = to
        if m.carrying:
            c = self.state.men[m.carrying]
            c.x, c.y = to
        ev = {"type": "move", "man": m.id, "from": list(before), "to": list(to), "posture": m.posture,
              "clause": "OBC-3", "text": f"{m.name} moves"}
        self.emit(ev, m.side)
        if m.id in self.sees(self.other_side(m.side)):
            self.emit({**ev, "from": list(before) if m.id in watchers else None}, self.other_side(m.side))
        self.contacts(m, m.id not in watchers)

    def vehicle_shown(self, v: Vehicle) -> str:
        """Who reads what happens to a vehicle: everyone when the other side sees it, else its own side."""
        return "all" if v.id in self.sees(self.other_side(v.side)) else v.side

    @staticmethod
    def other_side(side: str) -> str:
        return "insurgent" if side == "allied" else "allied"

    # -- hand to hand (OBC-50, OBC-51) ---------------------------------------------------------------------
    def contacts(self, mover: Man | None = None, unseen: bool = False) -> None:
        s = self.state
        reach = self.t.figure.contact
        men = [m for m in s.men.values() if m.able and m.aboard is None and self.on_table(m)]
        for a in men:
            if mover is not None and a.id != mover.id:
                continue
            for b in men:
                if b.side == a.side or (mover is None and b.id < a.id) or not a.able or not b.able:
                    continue
                if math.dist((a.x, a.y), (b.x, b.y)) <= reach:
                    loser, result, evs = morale.hth(self.dice, self.t, a, b, False, unseen and mover is not None)
                    for ev in evs:
                        self.emit(ev)
                    if loser is None:
                        a.locked, b.locked = b.id, a.id
                    else:
                        a.locked = b.locked = None
                        self.hurt(loser, result, None, "hand to hand")

    def _contacts(self) -> None:
        self.contacts(None)

    # -- vehicles ----------------------------------------------------------------------------------------
    def vehicle_hits(self, v: Vehicle, n: int, firer_side: str) -> None:
        """OBC-31, OBC-32, G-42: hits on a lorry or a chopper; 10 in all or 5 in one move destroy it; the
        rest have half effect on those aboard (one roll per two hits, pins ignored)."""
        sv = self.t.soft_vehicle
        v.hits += n
        v.hits_move += n
        self.emit({"type": "vehicle_hit", "vehicle": v.id, "hits": n, "total": v.hits, "clause": "OBC-31; G-42",
                   "text": f"{v.name} takes {n} hit{'s' * (n != 1)} ({v.hits} in all)"})
        if v.hits >= sv.hits or v.hits_move >= sv.hits_one_move:
            self.destroy(v, "OBC-31")
            return
        aboard = [self.state.men[x] for x in v.aboard() if self.state.men[x].able]
        for m in aboard[: n // sv.per_occupant_hits]:
            effect, ev = firing.effect(self.dice, self.t, m.id, m.name, ignore_pin=True, clause="OBC-32")
            self.emit(ev)
            self.hurt(m, effect, firer_side, f"hit aboard {v.name}")

    def destroy(self, v: Vehicle, clause: str) -> None:
        """A vehicle destroyed: those aboard a soft one roll 1-3 dead, 4-6 escape beside it (OBC-31, OBC-33)."""
        vis = self.vehicle_shown(v)
        v.status = DEAD
        self.emit({"type": "destroyed", "vehicle": v.id, "clause": clause, "text": f"{v.name} is destroyed"}, vis)
        aboard = list(v.aboard())
        v.crew, v.passengers = [], []
        for k, mid in enumerate(aboard):
            m = self.state.men[mid]
            m.aboard = None
            ang = 2 * math.pi * k / max(1, len(aboard))
            m.x = min(max(v.x + math.cos(ang), 0.0), self.scenario.width)
            m.y = min(max(v.y + math.sin(ang), 0.0), self.scenario.height)
            m.posture = "lying"
            if not m.able:
                continue
            dead, ev = firing.occupants(self.dice, self.t, m.id, m.name)
            self.emit(ev, vis)
            if dead:
                self.hurt(m, "dead", None, f"aboard {v.name}")

    # -- bombs (OBC-36 - OBC-38) ---------------------------------------------------------------------------
    def blast(self, at: tuple[float, float], firer_side: str, what: str) -> None:
        s, b = self.state, self.t.bombs
        kind = self.ground.at(*at)
        killed, pinned = [], []
        men = [m for m in s.men.values() if m.able and m.aboard is None and self.on_table(m)]
        if kind in movement.BUILDINGS:
            shape = next(f.shape() for f in reversed(self.scenario.features) if f.type == kind
                         and f.shape().covers(Point(at)))
            for m in men:
                if shape.buffer(0.05).covers(Point(m.x, m.y)):
                    if kind == "hootch" or math.dist((m.x, m.y), at) <= self.t.grenade_rules.room:
                        killed.append(m)
                    else:
                        pinned.append(m)
            clause = "OBC-37"
        else:
            near = []
            for m in men:
                if firing.in_square(at[0], at[1], b.square, m.x, m.y):
                    killed.append(m)
                elif firing.in_square(at[0], at[1], 3 * b.square, m.x, m.y) and self.cover_at(m.x, m.y) != "hard" \
                        and self.ground.at(m.x, m.y) not in movement.BUILDINGS:
                    near.append(m)
            near.sort(key=lambda m: (math.dist((m.x, m.y), at), m.id))
            pinned += near[: math.ceil(len(near) * b.adjacent_pinned)]
            clause = "OBC-36"
        self.emit({"type": "blast", "at": list(at), "by": what, "ground": kind, "clause": clause, "square": b.square,
                   "text": f"the {what} bursts at ({at[0]:.1f}, {at[1]:.1f})"})
        for v in s.vehicles.values():
            if not v.able or v.flying or not v.soft:
                continue
            if firing.in_square(at[0], at[1], b.square, v.x, v.y):
                self.destroy(v, "OBC-38")
            elif firing.in_square(at[0], at[1], 3 * b.square, v.x, v.y) and v.kind == "lorry":
                v.immobilised_until = s.turn + self.t.armour_mods.immobilised_moves
        for m in killed:
            self.hurt(m, "dead", firer_side, f"the {what}")
        for m in pinned:
            self.hurt(m, "pinned", firer_side, f"the {what}")
        self.under_fire([m.id for m in men if firing.in_square(at[0], at[1], 3 * b.square, m.x, m.y) and m.able])


__all__ = ["ABLE", "GONE", "Harm"]
