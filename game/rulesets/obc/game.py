"""A game of One Brain-Cell (OBC-2, OBC-14 - OBC-18, OBC-47, G-42): the turn of alternate squad moves, who
sees whom, what each side is offered, and the end. The acts themselves are ``acts`` and ``harm``.

The turn (OBC-14, G-42): each side rolls a d6 (ties rolled again), the higher activates a squad first, then
the sides alternate (a side with no squad left to move lets the other move the rest); the turn ends when
every squad has moved. A squad's move (``activate``): its men's morale outcomes first (OBC-14, OBC-44;
rallies, OBC-46), a new leader if the old one is down (OBC-18), the ½d6 of independent men (OBC-16); then its
men act one by one, each at most once, and ``done`` ends it. A man in his leader's zone acts under
authority, as many as the level (OBC-15); the others only as one of the ½d6 independent men, out of command
(OBC-17: -1 to fire, +1 to morale effects); those out of command that neither lets act may only retreat
toward the table edge at half speed (``command``). A man pinned or wounded misses his squad's
next move (OBC-30, read per squad move).

Fog (DESIGN §6): a side sees the enemy men and vehicles its men's eyes reach by the world's ray casts
(``sight``; a man aboard a chopper sees from its height), and the men that fired this turn. Victory (G-42):
at the end of the last turn, or when a side has no able man on the table and none to come, each side scores
5 for each of its squads whose order is achieved, 1 for each enemy dead or disabled, -2 for each of its
disabled men not evacuated; the higher score wins, equal scores draw.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass, field

from game.dice import Dice, seed_streams
from game.rules.views import _feature as feature_of
from game.rulesets.obc import firing, sight
from game.rulesets.obc.acts import Acts
from game.rulesets.obc.command import Command
from game.rulesets.obc.evac import Evac
from game.rulesets.obc.harm import Harm
from game.rulesets.obc.scenario import SIDES, ObcScenario
from game.rulesets.obc.smoke import Smoke
from game.rulesets.obc.state import ABLE, DISABLED, GONE, Man, Squad, Vehicle
from game.rulesets.obc.tables import tables
from game.rulesets.record import Record

READERS = ("allied", "insurgent", "referee", "all")


def other(side: str) -> str:
    return "insurgent" if side == "allied" else "allied"


@dataclass
class ObcState:
    seed: int
    streams: dict[str, int]
    turn: int = 0
    to_act: str | None = None
    over: bool = False
    result: dict | None = None
    active: str | None = None
    first: str | None = None
    men: dict[str, Man] = field(default_factory=dict)
    vehicles: dict[str, Vehicle] = field(default_factory=dict)
    squads: dict[str, Squad] = field(default_factory=dict)
    revealed: list[str] = field(default_factory=list)
    messages: list[dict] = field(default_factory=list)
    wind: float = 0.0
    """The heading the wind blows smoke toward, degrees (east 0, north 90; OBC-39, G-42)."""
    smoke: list[dict] = field(default_factory=list)
    """The smoke clouds standing (OBC-39): id, from, to, width, squad, turn."""
    reserves: list[str] = field(default_factory=list)
    """Squads off the table until a radio call brings them (OBC-49)."""

    def __deepcopy__(self, memo: dict) -> ObcState:
        """A full copy, quicker than copy's generic walk (the engine takes one before every act)."""
        new = copy.copy(self)
        new.streams = dict(self.streams)
        new.result = copy.deepcopy(self.result)
        new.men = {k: copy.copy(m) for k, m in self.men.items()}
        new.vehicles = {k: copy.copy(v) for k, v in self.vehicles.items()}
        for v in new.vehicles.values():
            v.crew, v.passengers = list(v.crew), list(v.passengers)
        new.squads = {k: copy.copy(q) for k, q in self.squads.items()}
        for q in new.squads.values():
            q.aim, q.sitting = copy.deepcopy(q.aim), list(q.sitting)
        new.revealed, new.reserves = list(self.revealed), list(self.reserves)
        new.messages = [dict(x) for x in self.messages]
        new.smoke = copy.deepcopy(self.smoke)
        return new


class ObcGame(Record, Command, Evac, Smoke, Acts, Harm):
    """The game object the engine drives (game.rulesets.base)."""

    def __init__(self, scenario: ObcScenario, seed: int):
        self.scenario = scenario
        self.t = tables()
        self.ground = sight.Ground(scenario.features)
        self.buildings = [(f.id, f.type, f.shape()) for f in scenario.features if f.type in ("hootch", "masonry")]
        self.state = ObcState(seed, seed_streams(seed))
        self.dice = Dice(self.state.streams)
        self.events: list[dict] = []
        s = self.state
        for sq in scenario.squads:
            s.squads[sq.id] = Squad(sq.id, sq.side, sq.name, sq.kind, sq.leader, sq.authority, sq.zone, sq.order,
                                    dict(sq.aim), sq.answers_to, sq.supports)
            if sq.vehicle:
                v = sq.vehicle
                s.vehicles[v.id] = Vehicle(v.id, sq.side, sq.id, sq.kind, v.name, v.x, v.y, v.facing, v.height,
                                           capacity=v.capacity)
            for m in sq.men:
                s.men[m.id] = Man(m.id, sq.side, sq.id, m.name, m.weapon, m.x, m.y, m.posture, sq.elite, sq.civilian,
                                  m.team)
                if sq.vehicle:  # a vehicle squad's men are its crew
                    s.men[m.id].aboard = sq.vehicle.id
                    s.vehicles[sq.vehicle.id].crew.append(m.id)
            if sq.reserve:
                s.reserves.append(sq.id)
        for sq in scenario.squads:
            if sq.aboard:
                v = s.vehicles[sq.aboard]
                for m in sq.men:
                    s.men[m.id].aboard, (s.men[m.id].x, s.men[m.id].y) = v.id, (v.x, v.y)
                    v.passengers.append(m.id)
        self._set_wind()
        for sid, sq in s.squads.items():
            self.emit({"type": "orders", "squad": sid, "order": sq.order, "aim": sq.aim, "clause": "OBC-47",
                       "text": f"{sq.name}: {sq.order}"}, sq.side)
        self._begin_turn()

    # -- the record ------------------------------------------------------------------------------------
    def _dump(self) -> str:
        return json.dumps(self.state, default=vars, sort_keys=True)

    def snapshot(self) -> dict:
        return json.loads(self._dump())

    @property
    def los(self):
        """The scenario's table for line of sight (``sight.table``), held by the game."""
        if self.__dict__.get("_los") is None:
            self.__dict__["_los"] = sight.table(self.scenario)
        return self.__dict__["_los"]

    # -- the turn (OBC-14, G-42) -----------------------------------------------------------------------
    def _begin_turn(self) -> None:
        s = self.state
        s.turn += 1
        s.revealed, s.active = [], None
        for m in s.men.values():
            m.fired = m.acted = m.done = False
            m.moved = m.allowance = 0.0
        for v in s.vehicles.values():
            v.moved, v.hits_move, v.exchanged = 0.0, 0, 0
        self.emit({"type": "turn", "turn": s.turn, "turns": self.scenario.turns, "clause": "OBC-14",
                   "text": f"Turn {s.turn} of {self.scenario.turns}"})
        self.clear_smoke()
        for msg in s.messages:
            if msg["arrives"] == s.turn and msg["call"] in s.reserves:
                self._arrive(msg)
        self._contacts()
        while True:  # G-42: the higher d6 moves a squad first; ties rolled again
            a, b = self.dice.d6(), self.dice.d6()
            self.emit({"type": "roll", "purpose": "first mover", "dice": "2d6", "rolls": [a, b], "modifiers": [],
                       "result": a - b, "clause": "G-42",
                       "text": f"first mover: allied {a}, insurgent {b}" + (", again" if a == b else "")})
            if a != b:
                break
        s.first = "allied" if a > b else "insurgent"
        s.to_act = s.first
        self._next(None)

    def _arrive(self, msg: dict) -> None:
        s = self.state
        s.reserves.remove(msg["call"])
        sq = s.squads[msg["call"]]
        self.emit({"type": "arrival", "squad": sq.id, "clause": "OBC-49; G-42",
                   "text": f"{sq.name} comes in from the table edge, called by radio"}, sq.side)

    def movable(self, side: str) -> list[str]:
        """The squads of ``side`` still to move this turn (one with nothing left on the table moves too, at once)."""
        s = self.state
        return [q.id for q in s.squads.values() if q.side == side and q.moved_turn < s.turn
                and q.id not in s.reserves and self._present(q)]

    def _present(self, q: Squad) -> bool:
        s = self.state
        return any(m.squad == q.id and m.able for m in s.men.values()) or \
            any(v.squad == q.id and v.able for v in s.vehicles.values())

    def _next(self, last: str | None) -> None:
        """After a squad's move: the other side, if it has a squad to move, else this one; the turn ends when
        every squad has moved (OBC-14)."""
        s = self.state
        if self._check_end():
            return
        order = [other(last), last] if last else [s.first, other(s.first)]
        for side in order:
            if self.movable(side):
                s.to_act = side
                return
        self._end_turn()

    def _end_turn(self) -> None:
        s = self.state
        if s.turn >= self.scenario.turns:
            self._finish("the last turn is over (G-42)")
        else:
            self._begin_turn()

    def _check_end(self) -> bool:
        s = self.state
        if s.over:
            return True
        for side in SIDES:
            on = any(m.side == side and m.able for m in s.men.values())
            coming = any(s.squads[q].side == side for q in s.reserves)
            if not on and not coming:
                self._finish(f"no able {self.scenario.sides.get(side, side)} man is left on the table (G-42)")
                return True
        return False

    def _finish(self, reason: str) -> None:
        s = self.state
        score = {side: self.score(side) for side in SIDES}
        vp = {side: score[side]["total"] for side in SIDES}
        winner = None if vp["allied"] == vp["insurgent"] else max(vp, key=vp.get)
        s.over, s.to_act, s.active = True, None, None
        s.result = {"winner": winner, "reason": reason, "score": score}
        self.emit({"type": "game_over", **s.result, "clause": "G-42",
                   "text": f"{reason}: allied {vp['allied']}, insurgent {vp['insurgent']}"})

    def score(self, side: str) -> dict:
        """G-42's victory points for ``side``."""
        s, v = self.state, self.t.victory
        orders = [q.id for q in s.squads.values() if q.side == side and self.achieved(q)]
        down = sum(1 for m in s.men.values() if m.side != side and m.down)
        left = sum(1 for m in s.men.values() if m.side == side and m.status == DISABLED and not m.evacuated)
        total = v.objective * len(orders) + v.enemy_down * down + v.left_behind * left
        return {"orders": orders, "enemy_down": down, "left_behind": left, "total": total}

    def achieved(self, q: Squad) -> bool:
        """OBC-47, G-42: whether a squad's one-line order is achieved now (``aim``): take (an able man of the
        side in the area and no able enemy), hold (the same, for the holders), land (it set its men down
        and the chopper is still flying). An evac order scores by the disabled it saves (G-42's -2 each),
        never as an objective (engine reading)."""
        s, aim = self.state, q.aim
        if aim.get("kind") == "land":
            v = next((v for v in s.vehicles.values() if v.squad == q.id), None)
            return q.achieved and v is not None and v.status in (ABLE, GONE)
        if aim.get("kind") in ("take", "hold"):
            def inside(m: Man) -> bool:
                return m.able and m.aboard is None and math.hypot(m.x - aim["at"][0], m.y - aim["at"][1]) <= aim["radius"]
            mine = any(inside(m) for m in s.men.values() if m.side == q.side)
            theirs = any(inside(m) for m in s.men.values() if m.side != q.side)
            return mine and not theirs
        return False

    # -- sight -------------------------------------------------------------------------------------------
    def eye_of(self, m: Man) -> tuple[float, float, float]:
        f = self.t.figure
        v = self.state.vehicles.get(m.aboard) if m.aboard else None
        if v is not None:
            return (v.x, v.y, v.height + f.eye_standing)
        return (m.x, m.y, f.eye_lying if m.posture == "lying" else f.eye_standing)

    def body_of(self, m: Man) -> tuple[float, float, float]:
        f = self.t.figure
        return (m.x, m.y, f.body_lying if m.posture == "lying" else f.body_standing)

    def sees(self, side: str) -> set[str]:
        """The enemy men and vehicles ``side`` sees now (cached for the positions as they are)."""
        s = self.state
        key = (side, s.turn, tuple(s.revealed), self.smoke_circles(),
               tuple((m.id, m.x, m.y, m.posture, m.status, m.aboard) for m in s.men.values()),
               tuple((v.id, v.x, v.y, v.height, v.status) for v in s.vehicles.values()))
        cache = self.__dict__.setdefault("_sight", {})
        if key not in cache:
            if len(cache) > 64:
                cache.clear()
            cache[key] = frozenset(self._sees(side))
        return set(cache[key])

    def on_table(self, m: Man) -> bool:
        return m.status != GONE and m.squad not in self.state.reserves

    def _sees(self, side: str) -> set[str]:
        s = self.state
        eyes = sorted({self.eye_of(m) for m in s.men.values() if m.side == side and m.able and self.on_table(m)
                       and (m.aboard is None or s.vehicles[m.aboard].able)})
        things: list[tuple[str, tuple[float, float, float]]] = []
        for m in s.men.values():
            if m.side != side and m.aboard is None and self.on_table(m):
                things.append((m.id, self.body_of(m)))
        for v in s.vehicles.values():
            if v.side != side and v.status != GONE and v.squad not in s.reserves:
                things.append((v.id, (v.x, v.y, v.height + 0.5)))
        out = {x for x in s.revealed if s.men.get(x) and s.men[x].side != side}
        todo = [(tid, p) for tid, p in things if tid not in out]
        if not eyes or not todo:
            return out
        los = self.los
        pairs = [(e, p, tid) for tid, p in todo for e in eyes]
        ok = sight.visible(los, [e for e, _, _ in pairs], [p for _, p, _ in pairs], self.conditions())
        out |= {tid for (_, _, tid), v in zip(pairs, ok, strict=True) if v}
        return out

    # -- what a side reads -------------------------------------------------------------------------------
    def view(self, side: str) -> dict:
        s = self.state
        referee = side == "referee"
        seen = set(s.men) | set(s.vehicles) if referee else self.sees(side)
        men, vehicles = [], []
        for m in s.men.values():
            mine = referee or m.side == side
            if not self.on_table(m) and not mine:
                continue
            if not mine and m.id not in seen:
                continue
            d = {"id": m.id, "side": m.side, "name": m.name, "weapon": m.weapon, "x": m.x, "y": m.y,
                 "posture": m.posture, "status": m.status, "aboard": m.aboard}
            if mine:
                d.update({"squad": m.squad, "wounds": m.wounds, "stunned": m.stunned, "panicked": m.panicked,
                          "pending": m.pending, "acted": m.acted, "fired": m.fired, "moved": m.moved,
                          "carrying": m.carrying, "locked": m.locked, "evacuated": m.evacuated,
                          "on_table": self.on_table(m)})
            men.append(d)
        for v in s.vehicles.values():
            mine = referee or v.side == side
            if not mine and (v.id not in seen or v.status == GONE):
                continue
            d = {"id": v.id, "side": v.side, "kind": v.kind, "name": v.name, "x": v.x, "y": v.y, "facing": v.facing,
                 "height": v.height, "status": v.status}
            if mine:
                d.update({"squad": v.squad, "crew": list(v.crew), "passengers": list(v.passengers), "hits": v.hits,
                          "moved": v.moved, "capacity": v.capacity, "on_table": v.squad not in s.reserves})
            vehicles.append(d)
        sc = self.scenario
        squads = [{"id": q.id, "side": q.side, "name": q.name, "kind": q.kind, "leader": q.leader,
                   "authority": q.authority, "zone": q.zone, "order": q.order, "aim": q.aim,
                   "moved": q.moved_turn == s.turn, "reserve": q.id in s.reserves,
                   "in_command_left": q.in_command_left, "independent_left": q.independent_left}
                  for q in s.squads.values() if referee or q.side == side]
        active = s.active if s.active and (referee or s.squads[s.active].side == side) else None
        return {
            "side": side, "ruleset": "obc", "turn": s.turn, "turns": sc.turns, "to_act": s.to_act, "active": active,
            "over": s.over, "result": s.result, "hash": self.hash(), "seq": self.seen_count(side),
            "scenario": {"id": sc.id, "title": sc.title, "briefing": sc.briefing, "sides": dict(sc.sides),
                         "edges": dict(sc.edges), "table": {"width": sc.width, "height": sc.height},
                         "terrain": [{"id": f.id, "type": f.type} for f in sc.features],
                         "features": [feature_of(f) for f in sc.features]},  # the 3D table draws them
            "men": men, "vehicles": vehicles, "squads": squads, "wind": s.wind,
            "smoke": [{k: c[k] for k in ("id", "from", "to", "width")} for c in s.smoke],  # public (OBC-39)
        }

    # -- the offers --------------------------------------------------------------------------------------
    def legal_actions(self, side: str) -> list[dict]:
        s = self.state
        if s.over or side != s.to_act:
            return []
        if s.active is None:
            return [{"type": "activate", "squad": q, "clause": "OBC-2; OBC-14",
                     "label": f"move {s.squads[q].name}"} for q in self.movable(side)]
        out = []
        for m in self.actors():
            out += self.man_offers(m)
        for m in self.retreaters():
            offer = self.retreat_offer(m)
            out += [offer] if offer else []
        for v in s.vehicles.values():
            if v.squad == s.active and v.able and v.immobilised_until < s.turn:
                out += self.vehicle_offers(v)
        out.append({"type": "done", "clause": "OBC-14", "label": f"{s.squads[s.active].name} has moved"})
        return out

    def man_offers(self, m: Man) -> list[dict]:
        s, w = self.state, self.t.weapons[m.weapon]
        out = []
        label = m.name
        if self.may_move(m):
            out.append({"type": "move", "man": m.id, "reach": round(self.reach(m, False), 3),
                        "run_reach": round(self.reach(m, True), 3) if self.may_run(m) else None,
                        "params": {"to": {"kind": "point"}, "run": {"kind": "flag"},
                                   "posture": {"kind": "choice", "choices": ["lying", "standing"]}},
                        "clause": "OBC-3; OBC-6; OBC-8", "label": f"{label} moves"})
        if not m.fired and self.may_fire(m):
            if w.kind in ("small_arms", "mg", "large_calibre"):
                targets = self.targets(m)
                if targets:
                    out.append({"type": "fire", "man": m.id, "targets": targets,
                                "params": {"target": {"kind": "choice", "choices": [t["id"] for t in targets]}},
                                "clause": "OBC-19 - OBC-26; OBC-34", "label": f"{label} fires"})
            if w.kind in ("small_arms", "mg"):
                out.append({"type": "fire", "man": m.id, "blind": True, "params": {"at": {"kind": "point"}},
                            "clause": "OBC-21; OBC-22; OBC-26", "label": f"{label} fires into cover"})
            if w.kind == "bomb":
                out.append({"type": "fire", "man": m.id, "range": [w.least, w.long], "params": {"at": {"kind": "point"}},
                            "clause": "OBC-27; OBC-36", "label": f"{label} fires a bomb"})
                if self.may_smoke(m):
                    out.append({"type": "fire", "man": m.id, "range": [w.least, w.long], "smoke": True,
                                "params": {"at": {"kind": "point"}}, "wind": s.wind,
                                "drift": self.t.bombs.smoke_drift, "clause": "OBC-27; OBC-39",
                                "label": f"{label} fires a smoke round"})
        if w.kind == "radio" and not m.moved and not m.fired and m.aboard is None:
            calls = [q for q in s.reserves if s.squads[q].side == m.side
                     and not any(x["call"] == q for x in s.messages)]
            if calls:
                out.append({"type": "radio", "man": m.id, "params": {"call": {"kind": "choice", "choices": calls}},
                            "clause": "OBC-7; OBC-49", "label": f"{label} calls on the radio"})
        if m.aboard is None and not m.fired and m.moved <= self.t.grenade_rules.moved:
            for obj in self.grenade_objects(m):
                out.append({"type": "grenade", "man": m.id, "into": obj, "clause": "OBC-40; OBC-41",
                            "label": f"{label} throws a grenade into {obj}"})
        out += self.carry_offers(m) + self.load_offers(m)
        if m.aboard is None and not m.moved:
            for v in s.vehicles.values():
                if v.side == m.side and v.able and not v.flying and v.moved == 0 and self.may_move(m) \
                        and len(v.passengers) + (2 if m.carrying else 1) <= v.capacity \
                        and math.hypot(v.x - m.x, v.y - m.y) <= self.reach(m, False) - self.t.movement.enter:
                    out.append({"type": "embus", "man": m.id, "vehicle": v.id, "clause": "OBC-4; OBC-11",
                                "label": f"{label} boards {v.name}"})
        if not m.acted:
            out.append({"type": "hold", "man": m.id, "params": {"posture": {"kind": "choice", "choices": ["lying", "standing"]}},
                        "clause": "OBC-6", "label": f"{label} holds"})
        return out

    def targets(self, m: Man) -> list[dict]:
        """The enemy men and vehicles ``m`` sees in range, with what a shot needs (OBC-20 - OBC-26, OBC-34)."""
        seen = self.sees(m.side)
        mine = self.sees_one(m)
        out = []
        for tid in sorted(seen & mine):
            shot = self.shot(m, tid)
            if shot is not None:
                out.append(shot)
        return out

    def sees_one(self, m: Man) -> set[str]:
        """What this one man sees (he fires only at what he sees himself)."""
        s = self.state
        key = ("one", m.id, self.hash_positions())
        cache = self.__dict__.setdefault("_one", {})
        if key not in cache:
            if len(cache) > 512:
                cache.clear()
            eye = self.eye_of(m)
            things = [(x.id, self.body_of(x)) for x in s.men.values()
                      if x.side != m.side and x.aboard is None and self.on_table(x) and not x.down]
            things += [(v.id, (v.x, v.y, v.height + 0.5)) for v in s.vehicles.values()
                       if v.side != m.side and v.able and v.squad not in s.reserves]
            ok = sight.visible(self.los, [eye] * len(things), [p for _, p in things], self.conditions()) if things else []
            cache[key] = frozenset(t for (t, _), v in zip(things, ok, strict=True) if v)
        return set(cache[key])

    def hash_positions(self) -> tuple:
        s = self.state
        return (self.smoke_circles(), tuple((m.x, m.y, m.posture, m.status, m.aboard) for m in s.men.values()),
                tuple((v.x, v.y, v.height, v.status) for v in s.vehicles.values()))

    def vehicle_offers(self, v: Vehicle) -> list[dict]:
        out = []
        if v.moved == 0:
            heights = {"height": {"kind": "choice", "choices": self.heights(v), "default": v.height}} \
                if v.kind == "chopper" else {}
            out.append({"type": "move", "vehicle": v.id, "reach": self.t.rates[v.kind].road,
                        "params": {"to": {"kind": "point"}, **heights},
                        "clause": "OBC-9; OBC-12; OBC-13", "label": f"{v.name} moves"})
        if self.able_aboard(v) and not v.flying:
            out.append({"type": "debus", "vehicle": v.id, "limit": self.debus_left(v), "clause": "OBC-11",
                        "label": f"{v.name} sets its men down"})
        return out

    def heights(self, v: Vehicle) -> list[float]:
        """OBC-13: the heights a chopper may fly this move to (its own, and every ``height_step`` within its 12"
        of change, 0 set down); where it may set down is the point's to judge."""
        mv = self.t.movement
        lo, hi = max(0.0, v.height - mv.chopper_climb), v.height + mv.chopper_climb
        marks = {round(k * mv.height_step, 3) for k in range(int(lo // mv.height_step), int(hi // mv.height_step) + 1)}
        return sorted({v.height} | {h for h in marks if lo - 1e-9 <= h <= hi + 1e-9})

    def fire_range(self, m: Man, x: float, y: float, z: float = 0.0) -> float:
        """G-42: range to or from a chopper includes its height."""
        e = self.eye_of(m)
        h = e[2] - self.t.figure.eye_standing if m.aboard else 0.0
        return math.sqrt((m.x - x) ** 2 + (m.y - y) ** 2 + (h - z) ** 2) if m.aboard is None else \
            math.sqrt((e[0] - x) ** 2 + (e[1] - y) ** 2 + (h - z) ** 2)

    def cover_at(self, x: float, y: float) -> str:
        kind = self.ground.at(x, y)
        return self.t.ground[kind].cover if kind in self.t.ground else "none"

    def fleeting(self, tid: str) -> bool:
        """G-42: a target that ran, or moved over half its move in the open, this turn."""
        x = self.state.men.get(tid)
        return x is not None and x.fleeting_turn == self.state.turn

    def shot(self, m: Man, tid: str) -> dict | None:
        s, w = self.state, self.t.weapons[m.weapon]
        x = s.men.get(tid)
        v = s.vehicles.get(tid)
        if x is not None:
            d = self.fire_range(m, x.x, x.y)
            col = "standing" if x.aboard else firing.column(self.cover_at(x.x, x.y), x.posture)
        elif v is not None:
            d = self.fire_range(m, v.x, v.y, v.height)
            col = "standing"  # OBC-22: vehicles count as standing targets
        else:
            return None
        out = {"id": tid, "distance": round(d, 2), "column": col}
        if w.kind == "small_arms":
            need = firing.rifle_need(self.t, m.weapon, d, col)
            if need is None or (v is not None and not v.soft):
                return None
            mods = self.rifle_mods(m, tid)
            return {**out, "band": need[0], "need": need[1], "modifiers": mods,
                    "chance": round(firing.chance(need[1], mods), 4)}
        if w.kind == "mg":
            band = w.band(d)
            if band is None or self.t.mg_entry(band, col) == "-" or (v is not None and not v.soft):
                return None
            return {**out, "band": band, "entry": self.t.mg_entry(band, col), "half": self.mg_half(m, tid)}
        if w.kind == "large_calibre":
            need = self.t.lcg_need(d)
            if need is None or (x is not None and m.weapon == "rpg"):
                return None  # G-42 fires tanks and howitzers at men; a rocket launcher fires at vehicles
            return {**out, "need": need, "chance": round(firing.chance(max(need, 1), []), 4)}
        return None
