"""Every act of a One Brain-Cell game, checked and carried out (OBC-3 - OBC-13, OBC-19 - OBC-28, OBC-33 -
OBC-35, OBC-40 - OBC-42, OBC-49): a mixin of ``game.ObcGame``. A refusal is an ``IllegalAction`` with the
clause, and changes nothing (the engine restores the state it took before).

Readings taken here: a man moves once in his squad's move, in a straight line, and fires once; a rifleman,
SMG gunner or MG gunner who fired may still move half distance, and one who moved more than half may not fire
(OBC-6); mortars, bloopers, rocket launchers and radios move or act (OBC-7). A thrower who moved over 3" is
refused (OBC-40: no rule gives him the fire he must take first). Blind fire is aimed at a point of soft or
hard cover he sees: a rifle hits the nearest enemy there he does not see, within 1"; an MG's blind entry
falls on the unseen enemy in the 3" square. A disabled man carried to his own side's table edge, or aboard a
chopper that flies off it, is evacuated (OBC-42, G-42). A radio call to a reserve crosses its levels of
authority two a turn and the squad comes in at the start of the turn after it arrives (OBC-49, G-42).
A man who fires a rifle, an SMG, an MG, a rocket or a grenade is seen by the enemy for the rest of the turn;
a mortar or blooper bomb, fired from out of sight, does not show where it came from.

What it leaves out: what the turn and the offers are (``game``); what a hit does (``harm``).
"""

from __future__ import annotations

import math

from game.rules.errors import IllegalAction
from game.rulesets.obc import firing, movement
from game.rulesets.obc.dice import scatter
from game.rulesets.obc.state import DISABLED, GONE, Man, Vehicle
from game.terrain import terrain_book


class Acts:
    # -- what a man may do -------------------------------------------------------------------------------
    def kind(self, m: Man) -> str:
        return self.t.weapons[m.weapon].kind

    def one_crew(self, m: Man) -> bool:
        """OBC-5: an MG or a mortar with one crewman left."""
        if not m.team or self.kind(m) not in ("mg", "bomb"):
            return False
        return sum(1 for x in self.state.men.values() if x.team == m.team and x.able) <= 1

    def may_run(self, m: Man) -> bool:
        """OBC-8: running lasts one turn; the next he walks."""
        return m.ran_turn != self.state.turn - 1 or self.state.turn == 1

    def reach(self, m: Man, run: bool) -> float:
        inches, _ = movement.man_allowance(self.t, "country", wounded=m.wounds > 0, one_crew=self.one_crew(m),
                                           run=run, carrying=self.carry_count(m), entering=False)
        return inches * self.t.movement.fire_move if m.fired else inches

    def may_move(self, m: Man) -> bool:
        if m.moved or m.aboard is not None or m.done:
            return False
        return not m.fired or self.kind(m) in ("small_arms", "mg")

    def may_fire(self, m: Man) -> bool:
        if m.fired or m.done:
            return False
        if m.aboard is not None:
            v = self.state.vehicles[m.aboard]
            return v.able and m.id in v.crew
        if not m.moved:
            return True
        if self.kind(m) not in ("small_arms", "mg"):
            return False
        return m.moved <= m.allowance * self.t.movement.fire_move + 1e-9

    def rifle_mods(self, m: Man, tid: str) -> list[dict]:
        v = self.state.vehicles.get(m.aboard) if m.aboard else None
        still = m.moved == 0 and (v is None or v.moved == 0)
        crew = v is not None
        return firing.rifle_mods(self.t, still, self.fleeting(tid), not crew and self.out_of_command(m), m.wounds > 0)

    def mg_half(self, m: Man, tid: str | None) -> list[str]:
        v = self.state.vehicles.get(m.aboard) if m.aboard else None
        return firing.mg_half(self.t, bool(tid) and self.fleeting(tid), m.moved > 0, v.kind if v else None,
                              v.moved if v else 0.0)

    def grenade_objects(self, m: Man) -> list[str]:
        """OBC-40: what he touches to throw into: a hootch or a building, or a stationary enemy vehicle."""
        touch = self.t.grenade_rules.touch
        from shapely.geometry import Point

        p = Point(m.x, m.y)
        out = [fid for fid, _, shape in self.buildings if shape.distance(p) <= touch]
        seen = self.sees(m.side)
        for v in self.state.vehicles.values():
            if v.side != m.side and v.able and v.id in seen and not v.flying and v.moved == 0 \
                    and math.hypot(v.x - m.x, v.y - m.y) <= touch + 1.0:
                if v.soft or v.immobilised_until >= self.state.turn:
                    out.append(v.id)
        return out

    def able_aboard(self, v: Vehicle) -> list[str]:
        """The able men riding in ``v`` (its passengers, not its crew)."""
        return [x for x in v.passengers if self.state.men[x].able]

    def debus_left(self, v: Vehicle) -> int:
        allowance = self.t.rates[v.kind].road
        return max(0, movement.debus_limit(self.t, allowance, v.moved) - v.exchanged)

    # -- acting ------------------------------------------------------------------------------------------
    def act(self, side: str, action: dict) -> list[dict]:
        start = len(self.events)
        s = self.state
        kind = action.get("type") if isinstance(action, dict) else None
        if s.over:
            raise IllegalAction("the game is over", "G-42")
        if side != s.to_act:
            raise IllegalAction(f"it is not the {side} side's move", "OBC-2; OBC-14")
        if kind == "activate":
            if s.active is not None:
                raise IllegalAction(f"{s.squads[s.active].name} is moving: finish it first", "OBC-2")
            sq = action.get("squad")
            if sq not in self.movable(side):
                raise IllegalAction(f"no squad {str(sq)[:40]!r} of the {side} side still to move", "OBC-2; OBC-14")
            self.begin_squad(s.squads[sq])
            return self.events[start:]
        if s.active is None:
            raise IllegalAction("choose a squad to move first (activate)", "OBC-2")
        handler = {"move": self._act_move, "fire": self._act_fire, "hold": self._act_hold, "done": self._act_done,
                   "grenade": self._act_grenade, "carry": self._act_carry, "embus": self._act_embus,
                   "debus": self._act_debus, "radio": self._act_radio, "retreat": self._act_retreat,
                   "load": self._act_load}.get(kind)
        if handler is None:
            raise IllegalAction(f"no action {str(kind)[:40]!r} (activate, move, fire, hold, grenade, carry, load, "
                                "embus, debus, radio, retreat, done)", "OBC-2")
        handler(side, action)
        return self.events[start:]

    def _man(self, action: dict) -> Man:
        mid = action.get("man")
        m = self.state.men.get(mid) if isinstance(mid, str) else None
        if m is None or m not in self.actors():  # a hidden enemy's id reads as a made-up one
            self.refuse_out_of_command(mid)
            raise IllegalAction(f"no man {str(mid)[:40]!r} of the moving squad who may act now", "OBC-15; OBC-16; OBC-30")
        return m

    def _start(self, m: Man) -> None:
        """A man's first act this move uses one of his squad's authority or the ½d6 (OBC-15, OBC-16)."""
        if m.acted:
            return
        q = self.state.squads[m.squad]
        b = self.budget(m)
        if b == "authority":
            q.in_command_left -= 1
        elif b == "independent":
            q.independent_left -= 1
        m.acted = True
        if not m.allowance:
            m.allowance = self.reach(m, False)

    def _point(self, action: dict, key: str = "to") -> tuple[float, float]:
        p = action.get(key)
        if not (isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in p)):
            raise IllegalAction(f"param '{key}' should be a point [x, y]", "OBC-3")
        x, y = float(p[0]), float(p[1])
        if not (0 <= x <= self.scenario.width and 0 <= y <= self.scenario.height):
            raise IllegalAction("that point is off the table", "OBC-3")
        return x, y

    def _act_done(self, side: str, action: dict) -> None:
        q = self.state.squads[self.state.active]
        self.end_squad(q)
        self.state.active = None
        self._next(side)

    def _act_hold(self, side: str, action: dict) -> None:
        m = self._man(action)
        posture = action.get("posture", m.posture)
        if posture not in ("lying", "standing"):
            raise IllegalAction("a posture is lying or standing", "OBC-21")
        self._start(m)
        m.posture, m.done = posture, True
        self.emit({"type": "hold", "man": m.id, "posture": posture, "clause": "OBC-6", "text": f"{m.name} holds"}, side)

    def _act_move(self, side: str, action: dict) -> None:
        if "vehicle" in action:
            return self._vehicle_move(side, action)
        m = self._man(action)
        if not self.may_move(m):
            raise IllegalAction(f"{m.name} may not move now", "OBC-6; OBC-7")
        to = self._point(action)
        run = bool(action.get("run"))
        if run and (m.fired or not self.may_run(m)):
            raise IllegalAction(f"{m.name} ran last turn, or has fired: he walks", "OBC-8")
        plan = self.move_plan(m, to, run)
        if not plan.legal:
            raise IllegalAction(plan.reason, plan.clause)
        partner = self.partner(m)
        for x in self.state.men.values():
            if x.id not in (m.id, m.carrying, partner.id if partner else None) and x.side == side and x.able and x.aboard is None and self.on_table(x) \
                    and math.dist((x.x, x.y), to) < self.t.figure.spacing:
                raise IllegalAction(f"{x.name} stands there", "OBC-3")
        posture = action.get("posture", m.posture)
        if posture not in ("lying", "standing"):
            raise IllegalAction("a posture is lying or standing", "OBC-21")
        self._start(m)
        m.allowance = plan.allowance / (self.t.movement.run if run else 1.0) if not m.fired else m.allowance
        m.moved, m.posture = max(plan.distance, 1e-6), posture
        if run:
            m.ran_turn = self.state.turn
        if run or (plan.distance > m.allowance * self.t.movement.fire_move and self.cover_at(*to) == "none"):
            m.fleeting_turn = self.state.turn  # G-42: a fleeting target this turn
        self.carry_along(m, to)
        self.place(m, to)
        self._evacuate_at_edge(m)

    def move_plan(self, m: Man, to: tuple[float, float], run: bool, retreat: bool = False) -> movement.Plan:
        limit = m.allowance * self.t.movement.fire_move if m.fired else None
        plan = movement.man_move(self.t, self.ground, (m.x, m.y), to, wounded=m.wounds > 0, one_crew=self.one_crew(m),
                                 run=run, carrying=self.carry_count(m), limit=limit, retreat=retreat)
        return self.carry_plan(m, to, plan)

    def _vehicle_move(self, side: str, action: dict) -> None:
        s = self.state
        v = s.vehicles.get(action.get("vehicle")) if isinstance(action.get("vehicle"), str) else None
        if v is None or v.squad != s.active or not v.able or v.moved or v.immobilised_until >= s.turn:
            raise IllegalAction(f"no vehicle {str(action.get('vehicle'))[:40]!r} of the moving squad that may move",
                                "OBC-2; OBC-35")
        to = self._point(action)
        h1 = action.get("height", v.height)
        if v.kind != "chopper":
            h1 = 0.0
        if not isinstance(h1, (int, float)) or isinstance(h1, bool):
            raise IllegalAction("param 'height' should be a number of inches", "OBC-13")
        plan = movement.vehicle_move(self.t, self.ground, v.kind, (v.x, v.y), to, v.height, float(h1))
        if not plan.legal:
            raise IllegalAction(plan.reason, plan.clause)
        watchers = self.sees(self.other_side(side))
        before = [v.x, v.y, v.height]
        if (v.x, v.y) != to:
            v.facing = round(math.degrees(math.atan2(to[1] - v.y, to[0] - v.x)), 3)
        v.x, v.y, v.height = to[0], to[1], float(h1)
        v.moved, v.moved_turn = max(plan.distance, 1e-6), s.turn
        for mid in v.aboard():
            s.men[mid].x, s.men[mid].y = to
        ev = {"type": "vehicle_move", "vehicle": v.id, "from": before, "to": [to[0], to[1], v.height],
              "clause": plan.steps[0]["clause"], "text": f"{v.name} moves"}
        self.emit(ev, side)
        if v.id in self.sees(self.other_side(side)):
            self.emit({**ev, "from": before if v.id in watchers else None}, self.other_side(side))
        w, h = self.scenario.width, self.scenario.height
        if v.flying and (to[0] in (0.0, w) or to[1] in (0.0, h)):
            self._leave(v)

    def _leave(self, v: Vehicle) -> None:
        """A chopper flies off the table, and with it everyone aboard; its disabled are evacuated (OBC-42)."""
        vis = self.vehicle_shown(v)
        v.status = GONE
        for mid in v.aboard():
            m = self.state.men[mid]
            if m.status == DISABLED:
                m.evacuated = True
            elif m.able:
                m.status = GONE
        self.emit({"type": "left", "vehicle": v.id, "evacuated": [x for x in v.aboard() if self.state.men[x].evacuated],
                   "clause": "OBC-13; OBC-42", "text": f"{v.name} leaves the table"}, vis)

    def _act_debus(self, side: str, action: dict) -> None:
        s = self.state
        v = s.vehicles.get(action.get("vehicle")) if isinstance(action.get("vehicle"), str) else None
        able = [x for x in v.passengers if s.men[x].able] if v is not None else []
        if v is None or v.squad != s.active or not v.able or not able or v.flying:
            raise IllegalAction("no landed vehicle of the moving squad with men aboard", "OBC-11; OBC-13")
        n = min(self.debus_left(v), len(able))
        if n <= 0:
            raise IllegalAction(f"{v.name} has set down all the men its move allows", "OBC-11")
        out = able[:n]  # the disabled stay aboard (OBC-42)
        v.passengers = [x for x in v.passengers if x not in out]
        v.exchanged += n
        r = self.t.movement.step_off
        for k, mid in enumerate(out):
            m = s.men[mid]
            ang = math.radians(v.facing + 90 + 360 * k / max(n, 1))
            m.aboard = None
            m.x = round(min(max(v.x + r * math.cos(ang), 0.0), self.scenario.width), 3)
            m.y = round(min(max(v.y + r * math.sin(ang), 0.0), self.scenario.height), 3)
        self.emit({"type": "debus", "vehicle": v.id, "men": out, "clause": "OBC-11",
                   "text": f"{v.name} sets down {n} men"}, side)
        q = s.squads[v.squad]
        if q.aim.get("kind") == "land" and not self.able_aboard(v) and \
                math.hypot(v.x - q.aim["at"][0], v.y - q.aim["at"][1]) <= q.aim["radius"]:
            q.achieved = True
        for mid in out:
            if s.men[mid].id in self.sees(self.other_side(side)):
                m = s.men[mid]
                self.emit({"type": "move", "man": m.id, "from": None, "to": [m.x, m.y], "posture": m.posture,
                           "clause": "OBC-11", "text": f"{m.name} jumps down"}, self.other_side(side))
        for mid in out:
            self.contacts(s.men[mid])

    def _act_embus(self, side: str, action: dict) -> None:
        m = self._man(action)
        offer = next((o for o in self.man_offers(m) if o["type"] == "embus" and o["vehicle"] == action.get("vehicle")), None)
        if offer is None:
            raise IllegalAction("no stationary vehicle of the side with room within his move", "OBC-4; OBC-11")
        v = self.state.vehicles[offer["vehicle"]]
        if self.debus_left(v) <= 0:
            raise IllegalAction(f"{v.name} takes no more men this turn", "OBC-11")
        self._start(m)
        m.moved = max(math.hypot(v.x - m.x, v.y - m.y), 1e-6)
        for x in [m] + ([self.state.men[m.carrying]] if m.carrying else []):
            x.aboard, x.x, x.y = v.id, v.x, v.y
            v.passengers.append(x.id)
            v.exchanged += 1
        for x in self.carriers(m.carrying) if m.carrying else []:
            x.carrying = None  # a partner lets go: the man they carried is aboard (OBC-42)
        self.emit({"type": "embus", "man": m.id, "vehicle": v.id, "clause": "OBC-4; OBC-11",
                   "text": f"{m.name} boards {v.name}"}, side)

    def _act_radio(self, side: str, action: dict) -> None:
        m = self._man(action)
        offer = next((o for o in self.man_offers(m) if o["type"] == "radio"), None)
        call = action.get("call")
        if offer is None or call not in offer["params"]["call"]["choices"]:
            raise IllegalAction("no radio call he can make to that", "OBC-7; OBC-49")
        self._start(m)
        m.fired = True
        levels = self.scenario_squad(call).levels
        per = self.t.radio.levels_per_turn
        arrives = self.state.turn + math.ceil(levels / per)
        self.state.messages.append({"call": call, "by": m.id, "sent": self.state.turn, "levels": levels, "arrives": arrives})
        self.emit({"type": "radio", "man": m.id, "call": call, "levels": levels, "arrives": arrives,
                   "clause": "OBC-49; G-42", "text": f"{m.name} calls {self.state.squads[call].name}: "
                                                   f"{levels} levels, in at turn {arrives}"}, side)

    def scenario_squad(self, sid: str):
        return next(q for q in self.scenario.squads if q.id == sid)

    def _act_grenade(self, side: str, action: dict) -> None:
        m = self._man(action)
        if m.moved > self.t.grenade_rules.moved:
            raise IllegalAction(f"{m.name} moved over {self.t.grenade_rules.moved:g}\": he must take fire first",
                                "OBC-40")
        into = action.get("into")
        if m.fired or into not in self.grenade_objects(m):
            raise IllegalAction(f"nothing {str(into)[:40]!r} he touches to throw into", "OBC-40")
        self._start(m)
        m.fired = True
        self.state.revealed.append(m.id)
        v = self.state.vehicles.get(into)
        feat = next((f for f in self.scenario.features if f.id == into), None)
        what = ("lorry" if v.soft else "armour") if v is not None else ("hootch" if feat.type == "hootch" else "room")
        ok, evs = firing.grenade(self.dice, self.t, m.id, what)
        evs[0]["text"] = evs[0]["text"].replace(m.id, m.name, 1)
        for ev in evs:
            self.emit(ev)
        if not ok:
            return
        if v is not None:
            self.destroy(v, "OBC-41")
            return
        from shapely.geometry import Point

        shape = feat.shape().buffer(0.05)
        inside = [x for x in self.state.men.values() if x.able and x.aboard is None and self.on_table(x)
                  and shape.covers(Point(x.x, x.y)) and x.id != m.id
                  and (what == "hootch" or math.dist((x.x, x.y), (m.x, m.y)) <= self.t.grenade_rules.room + self.t.grenade_rules.touch)]
        self.emit({"type": "blast", "at": [m.x, m.y], "by": "grenade", "ground": feat.type, "clause": "OBC-41",
                   "text": f"{m.name}'s grenade clears the {what}"})
        for x in inside:
            self.hurt(x, "dead", side, "a grenade")

    # -- fire ----------------------------------------------------------------------------------------------
    def _act_fire(self, side: str, action: dict) -> None:
        m = self._man(action)
        if not self.may_fire(m):
            raise IllegalAction(f"{m.name} may not fire now", "OBC-6; OBC-7")
        kind = self.kind(m)
        if kind == "bomb":
            if action.get("smoke") and not self.may_smoke(m):
                raise IllegalAction(f"only a mortar fires smoke rounds, not the {m.weapon}", "OBC-39")
            return self._fire_bomb(side, m, self._point(action, "at"), bool(action.get("smoke")))
        if "at" in action and kind in ("small_arms", "mg"):
            return self._fire_blind(side, m, self._point(action, "at"))
        tid = action.get("target")
        shot = next((t for t in self.targets(m) if t["id"] == tid), None)
        if shot is None:  # the same words for a hidden man and a made-up id (DESIGN §6)
            raise IllegalAction(f"no target {str(tid)[:40]!r} that {m.name} sees in range", "OBC-20; OBC-21; OBC-25")
        self._start(m)
        m.fired = True
        self.state.revealed.append(m.id)
        s = self.state
        x, v = s.men.get(tid), s.vehicles.get(tid)
        if kind == "small_arms":
            hit, evs = firing.rifle_shot(self.dice, m.id, tid, shot["band"], shot["need"], shot["modifiers"], m.name)
            for ev in evs:
                self.emit(ev)
            if hit and x is not None:
                effect, ev = firing.effect(self.dice, self.t, x.id, x.name)
                self.emit(ev, self.shown_to(x, side))
                self.hurt(x, effect, side, f"shot by {m.name}")
            elif hit and v is not None:
                self.vehicle_hits(v, 1, side)
            if x is not None:
                self.under_fire([x.id])
        elif kind == "mg":
            self._burst(side, m, (x.x, x.y) if x else (v.x, v.y), shot["column"], shot["band"], shot["half"], v, False)
        else:
            self._fire_lcg(side, m, shot, x, v)

    def _burst(self, side, m: Man, at, col: str, band: str, half: list[str], v: Vehicle | None, blind: bool) -> None:
        """OBC-23, OBC-26: one MG burst on the 3" square round the aim, the hits one per man, nearest first."""
        hits, evs = firing.mg_burst(self.dice, self.t, m.id, band, col, half, m.name,
                                    out_of_command=m.aboard is None and self.out_of_command(m))
        for ev in evs:  # where the burst falls, for the table to draw (the square's side, OBC-23)
            self.emit({**ev, "at": [round(at[0], 2), round(at[1], 2)], "square": self.t.mg_rules.burst})
        if v is not None:
            if hits:
                self.vehicle_hits(v, hits, side)
            return
        seen = self.sees(side)
        side_ = self.t.mg_rules.burst
        men = sorted((x for x in self.state.men.values() if x.side != m.side and x.able and x.aboard is None
                      and self.on_table(x) and firing.in_square(at[0], at[1], side_, x.x, x.y)
                      and (not blind or x.id not in seen)),
                     key=lambda x: (math.dist((x.x, x.y), at), x.id))
        for mid in firing.allocate(hits, [x.id for x in men], self.t.mg_rules.cap):
            x = self.state.men[mid]
            effect, ev = firing.effect(self.dice, self.t, x.id, x.name)
            self.emit(ev, self.shown_to(x, side))
            self.hurt(x, effect, side, f"{m.name}'s MG")
        self.under_fire([x.id for x in men])

    def _fire_blind(self, side: str, m: Man, at: tuple[float, float]) -> None:
        cover = self.cover_at(*at)
        d = self.fire_range(m, at[0], at[1])
        from game.rulesets.obc import sight

        sees = sight.visible(self.los, [self.eye_of(m)], [(at[0], at[1], self.t.figure.body_standing)],
                             self.conditions())
        if cover == "none" or not bool(sees[0]):
            raise IllegalAction("blind fire goes into cover he sees (bushes, a hootch, a trench)", "OBC-22")
        col = firing.column(cover, "standing", blind=True)
        kind = self.kind(m)
        if kind == "mg":
            band = self.t.weapons[m.weapon].band(d)
            if band is None or self.t.mg_entry(band, col) == "-":
                raise IllegalAction("no blind MG fire at that range", "OBC-26")
            self._start(m)
            m.fired = True
            self.state.revealed.append(m.id)
            return self._burst(side, m, at, col, band, self.mg_half(m, None), None, True)
        need = firing.rifle_need(self.t, m.weapon, d, col)
        if need is None:
            raise IllegalAction("no blind fire at that range", "OBC-21")
        self._start(m)
        m.fired = True
        self.state.revealed.append(m.id)
        mods = firing.rifle_mods(self.t, m.moved == 0, False, self.out_of_command(m), m.wounds > 0)
        hit, evs = firing.rifle_shot(self.dice, m.id, "cover", need[0], need[1], mods, m.name)
        for ev in evs:
            self.emit(ev)
        seen = self.sees(side)
        hidden = sorted((x for x in self.state.men.values() if x.side != side and x.able and x.aboard is None
                         and self.on_table(x) and x.id not in seen and math.dist((x.x, x.y), at) <= 1.0),
                        key=lambda x: (math.dist((x.x, x.y), at), x.id))
        if hit and hidden:
            x = hidden[0]
            effect, ev = firing.effect(self.dice, self.t, x.id, x.name)
            self.emit(ev, x.side)
            self.hurt(x, effect, side, f"blind fire by {m.name}")
        self.under_fire([x.id for x in hidden[:1]])

    def bomb_refusal(self, side: str, m: Man, at: tuple[float, float]) -> IllegalAction | None:
        """OBC-27, OBC-28, G-42: why a bomb may not be aimed there (None: it may): out of range, a point no man of
        the side sees, a vehicle seen moving or flying."""
        from game.rulesets.obc import sight

        w = self.t.weapons[m.weapon]
        d = self.fire_range(m, at[0], at[1])
        if w.band(d) is None:
            return IllegalAction(f"{d:.1f}\" is outside the {m.weapon}'s range", "OBC-27; G-42")
        eyes = [self.eye_of(x) for x in self.state.men.values() if x.side == side and x.able and self.on_table(x)]
        kind = self.ground.at(*at)
        z = terrain_book().terrain[kind].building_height + 0.1 if kind in movement.BUILDINGS else 0.1  # its roof
        ok = sight.visible(self.los, eyes, [(at[0], at[1], z)] * len(eyes), self.conditions())
        if not ok.any():
            return IllegalAction("no man of the side sees where the bomb is to fall", "G-42")
        seen = self.sees(side)
        for v in self.state.vehicles.values():
            if v.id in seen and v.able and (v.flying or v.moved_turn == self.state.turn and v.moved) \
                    and firing.in_square(at[0], at[1], 3 * self.t.bombs.square, v.x, v.y):
                return IllegalAction(f"{v.name} is moving or flying: it cannot be aimed at", "OBC-28; G-42")
        return None

    def _fire_bomb(self, side: str, m: Man, at: tuple[float, float], smoke: bool = False) -> None:
        """A bomb where ``bomb_refusal`` allows: it scatters, then bursts (``harm.blast``) or, a smoke round,
        lays its smoke (``smoke``, OBC-39)."""
        why = self.bomb_refusal(side, m, at)
        if why is not None:
            raise why
        self._start(m)
        m.fired = True  # fired from out of sight, a bomb does not show where it came from (engine reading)
        land, evs = scatter(self.dice, self.t, at, f"the {m.weapon}")
        for ev in evs:
            self.emit(ev)
        land = (min(max(land[0], 0.0), self.scenario.width), min(max(land[1], 0.0), self.scenario.height))
        if smoke:
            return self.lay_smoke(land, m)
        self.blast(land, side, "blooper grenade" if m.weapon == "blooper" else "mortar bomb")

    def _fire_lcg(self, side: str, m: Man, shot: dict, x: Man | None, v: Vehicle | None) -> None:
        """OBC-33 - OBC-35, G-42: a large-calibre gun or rocket: to hit; a soft vehicle is destroyed, armour
        rolls its effect (riders: 1d6 killed); a man takes the HE burst on his square."""
        hit, evs = firing.lcg_hit(self.dice, self.t, m.id, shot["distance"], m.name)
        for ev in evs:
            self.emit(ev)
        if not hit:
            return
        if x is not None:
            return self.blast((x.x, x.y), side, "shell")
        if v.soft:
            return self.destroy(v, "OBC-33")
        rel = (math.degrees(math.atan2(m.y - v.y, m.x - v.x)) - v.facing) % 360
        aspect = "front" if rel < 45 or rel > 315 else "rear" if 135 < rel < 225 else "side"
        fv = self.state.vehicles.get(m.aboard) if m.aboard else None
        fast = fv is not None and fv.kind == "tank" and fv.moved > self.t.movement.tank_fast
        result, evs = firing.armour_effect(self.dice, self.t, m.id, shot["distance"], aspect, fast)
        for ev in evs:
            self.emit(ev)
        riders = [self.state.men[r] for r in v.passengers if self.state.men[r].able]
        if riders:
            n, ev = firing.riders_killed(self.dice, len(riders), v.id)
            self.emit(ev)
            for r in riders[:n]:
                self.hurt(r, "dead", side, f"riding on {v.name}")
        if result == "destroyed":
            self.destroy(v, "OBC-35")
        elif result == "immobilised":
            v.immobilised_until = self.state.turn + self.t.armour_mods.immobilised_moves

    # -- the rules' answers before acting ------------------------------------------------------------------
    def preview(self, side: str, action: dict) -> dict:
        """A move's allowance and deductions, the cover there and which seen enemies would see the man there;
        a shot's need, modifiers and chance (the computer player asks it too)."""
        kind = action.get("type")
        if kind == "move" and "vehicle" in action:
            v = self.state.vehicles.get(action.get("vehicle")) if isinstance(action.get("vehicle"), str) else None
            if v is None or v.side != side:
                raise IllegalAction(f"no vehicle {str(action.get('vehicle'))[:40]!r} of the side", "OBC-2")
            to = self._point(action)
            h = action.get("height", v.height) if v.kind == "chopper" else 0.0
            return movement.vehicle_move(self.t, self.ground, v.kind, (v.x, v.y), to, v.height, float(h)).to_dict()
        if kind == "move" and "man" in action:
            m = self._man(action)
            to = self._point(action)
            plan = self.move_plan(m, to, bool(action.get("run"))).to_dict()
            return {**plan, "cover": self.cover_at(*to), "ground": self.ground.at(*to)}
        if kind == "fire" and "at" in action and self.kind(self._man(action)) == "bomb":
            why = self.bomb_refusal(side, self._man(action), self._point(action, "at"))
            return {"legal": why is None, "reason": why.reason if why else "", "clause": why.clause if why else ""}
        if kind == "fire":
            m = self._man(action)
            shot = next((t for t in self.targets(m) if t["id"] == action.get("target")), None)
            if shot is None:
                raise IllegalAction(f"no target {str(action.get('target'))[:40]!r} that {m.name} sees in range", "OBC-21")
            return shot
        raise IllegalAction(f"no preview of {str(kind)[:40]!r}", "OBC-2")
