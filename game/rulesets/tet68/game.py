"""A game of Tet '68 (TET-7, TET-8, C-32, G-41): the turn, who sees whom, and every act, explained.

A turn (TET-7): the move phase takes the figures by ascending Initiative (1 to 4; at 0 a figure does not
move, TET-17), the fire phase by descending Initiative (4 to 0). Within one Initiative the two sides take
their figures in turn, the Allies first in odd turns (engine reading). Each figure moves (``move``: a
straight line to a point, its cost from ``movement.py``; it may take a new pose) or holds (``hold``, a pose
too). After each move, an enemy figure of higher Initiative that sees the mover and has not fired this
turn may snap fire at it (``snap_fire``, C-32, G-41), which uses up its fire-phase shot; a d100 hit the
cover roll saves makes the mover duck back (TET-19). In the fire phase each figure fires (``fire``) or holds;
the shots of one Initiative are declared, then rolled and applied together (TET-8).

Fog (DESIGN §6): a side sees an enemy figure that one of its own figures' eyes reaches (exposure 1 or more,
``exposure.py``) or that fired this turn. Its statistics are its owner's: the enemy reads them only from
the dice of its shots. Victory (G-41): a building is clear at the end of a turn in which it holds an Allied
figure and no enemy, and stays clear until an enemy is in it at a turn's end (engine reading); the Allies win
when all are clear, or when no enemy is left; the VC/NVA win when no
Allied figure is left, or when at the end they hold half the buildings or more; anything else is a draw.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
from dataclasses import asdict, dataclass, field

from game.dice import Dice, seed_streams
from game.rules.errors import IllegalAction
from game.rulesets.tet68 import fire, movement
from game.rulesets.tet68.exposure import Figure, exposure
from game.rulesets.tet68.scenario import SIDES, TetScenario
from game.rulesets.tet68.tables import tables

READERS = ("allied", "insurgent", "referee", "all")
SPACE = 0.6
"""Inches between two figures' centres at least (a 20 mm figure's base, engine reading)."""


def other(side: str) -> str:
    return "insurgent" if side == "allied" else "allied"


@dataclass
class Fig:
    man: fire.Man
    x: float
    y: float
    facing: float
    pose: str
    lean_to: float | None = None
    fired: bool = False
    """Its shot of this turn is spent (declared in the fire phase, or a snap, C-32)."""
    moved: bool = False
    """It has moved or held in this turn's move phase."""
    aimed: bool = False
    """It has fired or held in this turn's fire phase."""

    @property
    def id(self) -> str:
        return self.man.id

    def figure(self) -> Figure:
        return Figure(self.man.id, self.x, self.y, self.pose, self.facing, self.lean_to)


@dataclass
class TetState:
    seed: int
    streams: dict[str, int]
    turn: int = 0
    phase: str = "move"
    step: int = 1
    to_act: str | None = None
    over: bool = False
    result: dict | None = None
    figures: dict[str, Fig] = field(default_factory=dict)
    queue: list[str] = field(default_factory=list)
    declared: list[dict] = field(default_factory=list)
    snap: dict | None = None
    """A move the other side may snap fire at (C-32): {mover, side}."""
    revealed: list[str] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)
    last: str | None = None
    """The side that acted last at this Initiative: the other goes next (engine reading)."""


class TetGame:
    """The game object the engine drives (game.rulesets.base)."""

    def __init__(self, scenario: TetScenario, seed: int):
        self.scenario = scenario
        self.tables = tables()
        self.state = TetState(seed, seed_streams(seed))
        self.dice = Dice(self.state.streams)
        self.events: list[dict] = []
        for f in scenario.figures:  # TET-5, TET-6: each figure's statistics, rolled by its owner
            man, evs = fire.roll_man(self.dice, f.id, f.side, f.name, f.weapon, f.leader, self.tables)
            self.state.figures[f.id] = Fig(man, f.x, f.y, f.facing, f.pose, f.lean_to)
            for ev in evs:
                self.emit(ev, f.side)
        self._begin_turn()

    # -- the record ----------------------------------------------------------------------------------
    def emit(self, event: dict, visible: str = "all") -> dict:
        ev = {"seq": len(self.events) + 1, **event, "_visible": visible}
        self.events.append(ev)
        return ev

    def events_for(self, reader: str, events: list[dict], since: int = 0) -> list[dict]:
        """What ``reader`` may see, numbered in its own sequence (1, 2, 3, ... with no gaps, DESIGN §6)."""
        out, n = [], 0
        wanted = {id(e) for e in events}
        for ev in self.events:
            vis = ev["_visible"]
            if not (reader == "referee" or vis == "all" or vis == reader):
                continue
            n += 1
            if n > since and id(ev) in wanted:
                out.append({**{k: copy.deepcopy(v) for k, v in ev.items() if k != "_visible"}, "seq": n})
        return out

    def put_back(self, state: TetState) -> None:
        """Restore a state taken before an act that failed (the engine keeps the game unchanged)."""
        self.state = state
        self.dice = Dice(state.streams)

    def snapshot(self) -> dict:
        return asdict(self.state)

    def hash(self) -> str:
        return hashlib.sha256(json.dumps(self.snapshot(), sort_keys=True).encode()).hexdigest()

    # -- the turn (TET-7) ----------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        s = self.state
        s.turn += 1
        for f in s.figures.values():
            f.fired, f.moved, f.aimed, f.man.ducked = False, False, False, False
        s.revealed = []
        self.emit({"type": "turn", "turn": s.turn, "turns": self.scenario.turns, "clause": "TET-7",
                   "text": f"Turn {s.turn} of {self.scenario.turns}"})
        s.phase, s.step = "move", 1
        self._fill()

    def _first(self) -> str:
        return "allied" if self.state.turn % 2 else "insurgent"

    def _fill(self) -> None:
        """The figures of this phase and Initiative, the two sides in turn; on to the next when none."""
        s = self.state
        while not s.over:
            if s.phase == "move":
                ids = [f.id for f in s.figures.values() if f.man.alive and f.man.may_move and not f.moved
                       and f.man.acting_initiative == s.step]
            else:
                ids = [f.id for f in s.figures.values() if f.man.alive and not f.fired and not f.aimed
                       and f.man.acting_initiative == s.step]
            lead = self._first() if s.last is None else other(s.last)
            a = sorted(i for i in ids if s.figures[i].man.side == lead)
            b = sorted(i for i in ids if s.figures[i].man.side != lead)
            s.queue = [x for pair in zip(a, b, strict=False) for x in pair] + a[len(b):] + b[len(a):]
            if s.queue:
                s.to_act = s.figures[s.queue[0]].man.side
                return
            s.last = None
            if s.phase == "fire" and s.declared:
                self._resolve_fire()  # TET-8: all of this Initiative have declared
                continue
            if s.phase == "move" and s.step < 4:
                s.step += 1
            elif s.phase == "move":
                s.phase, s.step = "fire", 4
                self.emit({"type": "phase", "phase": "fire", "clause": "TET-7", "text": "Fire phase"})
            elif s.step > 0:
                s.step -= 1
            else:
                self._end_turn()
                return

    def _advance(self, side: str | None = None) -> None:
        if side is not None:
            self.state.last = side
        self._fill()

    def _resolve_fire(self) -> None:
        """TET-8: the shots of one Initiative, rolled together, the losses applied after all have fired."""
        s = self.state
        shots, s.declared = s.declared, []
        for d in shots:
            self._reveal(d["firer"])
        events = fire.volley(self.dice, [{"firer": s.figures[d["firer"]].man, "target": s.figures[d["target"]].man,
                                          "distance": d["distance"], "exposure": d["exposure"], "auto": d["auto"]}
                                         for d in shots], self.tables)
        for ev in events:
            self.emit(ev)
        self._check_end()

    def _end_turn(self) -> None:
        s = self.state
        held = self._held()  # G-41: clear once it held Marines and no enemy at a turn's end; an enemy back in undoes it
        s.cleared = sorted((set(s.cleared) | self._clear_buildings()) - held)
        self.emit({"type": "clearing", "cleared": s.cleared, "held": sorted(held), "clause": "G-41",
                   "text": f"end of turn {s.turn}: {len(s.cleared)} of {len(self._buildings())} buildings cleared"})
        if self._check_end():
            return
        if len(s.cleared) == len(self._buildings()):
            self._finish("allied", "every building is cleared (G-41)")
        elif s.turn >= self.scenario.turns:
            if len(held) * 2 >= len(self._buildings()):
                self._finish("insurgent", f"they hold {len(held)} of {len(self._buildings())} buildings at the end (G-41)")
            else:
                self._finish(None, "the turn limit is reached (G-41)")
        else:
            self._begin_turn()

    def _check_end(self) -> bool:
        for side in SIDES:
            if not any(f.man.alive and f.man.side == side for f in self.state.figures.values()):
                self._finish(other(side), f"no {self.scenario.sides.get(side, side)} figure is left (G-41)")
                return True
        return False

    def _finish(self, winner: str | None, reason: str) -> None:
        s = self.state
        s.over, s.to_act, s.queue = True, None, []
        s.result = {"winner": winner, "reason": reason, "cleared": list(s.cleared)}
        self.emit({"type": "game_over", **s.result, "clause": "G-41", "text": reason})

    def _buildings(self):
        return [t.building for t in self.scenario.town.tiles if t.building is not None]

    def _occupants(self, b) -> set[str]:
        return {f.man.side for f in self.state.figures.values() if f.man.alive and b.floor.covers(_pt(f))}

    def _clear_buildings(self) -> set[str]:
        return {b.id for b in self._buildings() if self._occupants(b) == {"allied"}}

    def _held(self) -> set[str]:
        return {b.id for b in self._buildings() if "insurgent" in self._occupants(b)}

    # -- sight -----------------------------------------------------------------------------------------
    def exposure_of(self, firer: Fig, target: Fig):
        walls = self.scenario.town.walls
        return exposure(firer.figure(), target.figure(), walls, self.tables)

    def sees(self, side: str) -> set[str]:
        """The enemy figures ``side`` sees now: in some own figure's eye, or revealed by its fire (kept for
        the figures' places and poses as they are: asking twice casts nothing new)."""
        s = self.state
        key = (side, tuple(s.revealed), tuple((f.id, f.x, f.y, f.pose, f.facing, f.lean_to, f.man.alive)
                                              for f in s.figures.values()))
        cache = self.__dict__.setdefault("_sight", {})
        if key in cache:
            return set(cache[key])
        if len(cache) > 256:
            cache.clear()
        cache[key] = frozenset(self._sees(side))
        return set(cache[key])

    def _sees(self, side: str) -> set[str]:
        s = self.state
        mine = [f for f in s.figures.values() if f.man.side == side and f.man.alive]
        out = set()
        for f in s.figures.values():
            if f.man.side == side or not f.man.alive:
                continue
            if f.id in s.revealed or any(self.exposure_of(m, f).level > 0 for m in mine):
                out.add(f.id)
        return out

    def _reveal(self, fid: str) -> None:
        if fid not in self.state.revealed:
            self.state.revealed.append(fid)

    # -- what a side reads --------------------------------------------------------------------------------
    def view(self, side: str) -> dict:
        s = self.state
        referee = side == "referee"
        seen = set(s.figures) if referee else self.sees(side)
        figures = []
        for f in s.figures.values():
            mine = referee or f.man.side == side
            if not mine and (f.id not in seen or not f.man.alive):
                continue
            d = {"id": f.id, "side": f.man.side, "name": f.man.name, "weapon": f.man.weapon, "x": f.x, "y": f.y,
                 "facing": f.facing, "pose": f.pose, "alive": f.man.alive}
            if mine:
                d.update({"initiative": f.man.initiative, "ws": f.man.ws, "ducked": f.man.ducked, "fired": f.fired,
                          "may_move": f.man.may_move})
            figures.append(d)
        sc = self.scenario
        return {
            "side": side, "ruleset": "tet68", "turn": s.turn, "turns": sc.turns, "phase": s.phase, "step": s.step,
            "to_act": s.to_act, "acting": [q for q in s.queue if referee or s.figures[q].man.side == side] if s.to_act in (side, None) or referee else [],
            "over": s.over, "result": s.result, "hash": self.hash(), "seq": len(self.events_for(side, self.events)),
            "scenario": {"id": sc.id, "title": sc.title, "briefing": sc.briefing,
                         "table": {"width": sc.width, "height": sc.height}, "sides": dict(sc.sides),
                         "buildings": [{"id": b.id, "floor": [list(p) for p in b.floor.exterior.coords][:-1],
                                        "walls": [{"id": w.id, "from": list(w.a), "to": list(w.b), "height": w.height,
                                                   "openings": [asdict(o) for o in w.openings]} for w in b.walls]}
                                       for b in self._buildings()]},
            "figures": figures, "cleared": list(s.cleared),
            **({"snap": {"mover": s.snap["mover"]}} if s.snap and (referee or side == other(s.snap["side"])) else {}),
        }

    def legal_actions(self, side: str) -> list[dict]:
        s = self.state
        if s.over or side != s.to_act:
            return []
        if s.snap is not None:
            return self._snap_offers()
        poses = list(self.tables.poses)
        out = []
        for fid in s.queue:
            f = s.figures[fid]
            if f.man.side != side:
                continue
            hold = {"type": "hold", "figure": f.id, "params": {"pose": {"kind": "choice", "choices": poses}},
                    "clause": "TET-7", "label": f"{f.man.name} holds"}
            if s.phase == "move":
                out.append({"type": "move", "figure": f.id, "params": {"to": {"kind": "point"},
                                                                     "pose": {"kind": "choice", "choices": poses}},
                            "reach": self.tables.movement.open, "clause": "TET-9; TET-10",
                            "label": f"{f.man.name} moves"})
            else:
                out += self._fire_offers(f, "fire")
            out.append(hold)
        return out

    def _targets(self, f: Fig, pool: list[Fig]) -> list[dict]:
        out = []
        for t in pool:
            e = self.exposure_of(f, t).level
            d = math.dist((f.x, f.y), (t.x, t.y))
            single = fire.chance(f.man, d, False, self.tables)[0]
            if e <= 0 or single is None:
                continue
            auto = fire.chance(f.man, d, True, self.tables)[0]
            out.append({"id": t.id, "distance": round(d, 3), "exposure": e, "chance": single,
                        **({"auto_chance": auto} if auto is not None else {})})
        return out

    def _fire_offers(self, f: Fig, kind: str) -> list[dict]:
        seen = self.sees(f.man.side)
        pool = [t for t in self.state.figures.values() if t.id in seen and t.man.alive]
        targets = self._targets(f, pool)
        if not targets:
            return []
        return [{"type": kind, "figure": f.id, "targets": targets,
                 "params": {"target": {"kind": "choice", "choices": [t["id"] for t in targets]},
                            "auto": {"kind": "flag"}}, "clause": "TET-15; TET-16", "label": f"{f.man.name} fires"}]

    def _snap_offers(self) -> list[dict]:
        s = self.state
        mover = s.figures[s.snap["mover"]]
        out = []
        for f in s.figures.values():
            if (f.man.side == other(s.snap["side"]) and f.man.alive and not f.fired
                    and f.man.acting_initiative > mover.man.acting_initiative):
                for o in self._fire_offers(f, "snap_fire"):
                    o["targets"] = [t for t in o["targets"] if t["id"] == mover.id]
                    if o["targets"]:
                        o["params"]["target"]["choices"] = [mover.id]
                        o["clause"] = "C-32; TET-19; G-41"
                        out.append(o)
        return out + ([{"type": "pass", "clause": "C-32", "label": "let it move"}] if out else [])

    # -- acting --------------------------------------------------------------------------------------------
    def preview(self, side: str, action: dict) -> dict:
        """What a move would cost, or a shot's chance, exposure and what the cover roll needs: the rules'
        answer, asked before acting (the computer players ask it too)."""
        s = self.state
        if action.get("type") == "move":
            f = self._acting(side, action, "move")
            to = self._point(action)
            plan = movement.cost(self.scenario.town, [(f.x, f.y), to], self.tables).to_dict()
            # how much of it the enemy figures this side sees would see there (TET-16), standing
            there = Fig(f.man, to[0], to[1], f.facing, action.get("pose") or f.pose, f.lean_to)
            seen = self.sees(side)
            threat = {e: self.exposure_of(s.figures[e], there).level for e in sorted(seen)}
            if plan["legal"] and self._crowded(side, f, to):
                plan = {**plan, "legal": False, "reason": "another figure stands there"}
            return {**plan, "ground": self.scenario.town.ground_at(*to),
                    "seen_by": {e: n for e, n in threat.items() if n > 0}}
        if action.get("type") in ("fire", "snap_fire"):
            offers = self.legal_actions(side)
            fid = action.get("figure")
            offer = next((o for o in offers if o["type"] == action["type"] and o["figure"] == fid), None)
            if offer is None:
                raise IllegalAction(f"no {action['type']} for {fid!r} now", "TET-7")
            t = next((x for x in offer["targets"] if x["id"] == action.get("target")), None)
            if t is None:
                raise IllegalAction(f"{action.get('target')!r} is no target {fid} can see", "TET-16; G-41")
            ev = self.exposure_of(s.figures[fid], s.figures[t["id"]]).to_dict()
            return {**t, **ev}
        raise IllegalAction(f"no preview of {action.get('type')!r}", "TET-15")

    def _acting(self, side: str, action: dict, kind: str) -> Fig:
        s = self.state
        if s.over:
            raise IllegalAction("the game is over", "G-41")
        if side != s.to_act:
            raise IllegalAction(f"it is not the {side} side's turn to act", "TET-7")
        fid = action.get("figure")
        if fid not in s.queue or s.figures[fid].man.side != side:  # a hidden enemy's id reads as a made-up one
            raise IllegalAction(f"no figure {str(fid)[:40]!r} of the {side} side to act at Initiative {s.step} "
                                f"in the {s.phase} phase", "TET-7")
        return s.figures[fid]

    def _point(self, action: dict) -> tuple[float, float]:
        to = action.get("to")
        if not (isinstance(to, list) and len(to) == 2 and all(isinstance(v, (int, float)) for v in to)):
            raise IllegalAction("param 'to' should be a point [x, y]", "TET-9")
        x, y = float(to[0]), float(to[1])
        if not (0 <= x <= self.scenario.width and 0 <= y <= self.scenario.height):
            raise IllegalAction("that point is off the table", "TET-3")
        return x, y

    def act(self, side: str, action: dict) -> list[dict]:
        start = len(self.events)
        kind = action.get("type") if isinstance(action, dict) else None
        if self.state.snap is not None:
            self._act_snap(side, action, kind)
        elif kind == "move":
            self._act_move(side, action)
        elif kind == "hold":
            f = self._acting(side, action, kind)
            self._pose(f, action)
            if self.state.phase == "move":
                f.moved = True
            else:
                f.aimed = True
            self.emit({"type": "hold", "figure": f.id, "pose": f.pose, "clause": "TET-7",
                       "text": f"{f.man.name} holds ({f.pose})"}, f.man.side)
            self._advance(side)
        elif kind == "fire" and self.state.phase == "fire":
            f = self._acting(side, action, kind)
            target = self._target_of(f, action, "fire")
            self.state.declared.append({"firer": f.id, "target": target["id"], "distance": target["distance"],
                                        "exposure": target["exposure"], "auto": bool(action.get("auto"))})
            f.fired = f.aimed = True
            self.emit({"type": "declare", "figure": f.id, "clause": "TET-8",
                       "text": f"{f.man.name} takes aim"}, f.man.side)
            self._advance(side)
        else:
            raise IllegalAction(f"no action {str(kind)[:40]!r} now (the {self.state.phase} phase)", "TET-7")
        return self.events[start:]

    def _crowded(self, side: str, f: Fig, to: tuple[float, float]) -> bool:
        """Whether a figure the side knows of (its own, or an enemy it sees) stands where ``f`` would: never
        a hidden enemy, whose place a refusal would tell (DESIGN §6)."""
        seen = self.sees(side)
        return any(g.man.alive and g.id != f.id and (g.man.side == side or g.id in seen)
                   and math.dist((g.x, g.y), to) < SPACE for g in self.state.figures.values())

    def _pose(self, f: Fig, action: dict) -> None:
        pose = action.get("pose")
        if pose is None:
            return
        if pose not in self.tables.poses:
            raise IllegalAction(f"no pose {str(pose)[:40]!r} ({', '.join(self.tables.poses)})", "TET-16")
        f.pose = pose

    def _target_of(self, f: Fig, action: dict, kind: str) -> dict:
        offers = self._fire_offers(f, kind)
        targets = offers[0]["targets"] if offers else []
        t = next((x for x in targets if x["id"] == action.get("target")), None)
        if t is None:  # the same words for a hidden figure and a made-up id (DESIGN §6)
            raise IllegalAction(f"no target {str(action.get('target'))[:40]!r} that {f.man.name} can see", "TET-16; G-41")
        if action.get("auto") and "auto_chance" not in t:
            raise IllegalAction(f"the {self.tables.weapons[f.man.weapon].name} fires no cone", "TET-12; TET-13")
        return t

    def _act_move(self, side: str, action: dict) -> None:
        s = self.state
        f = self._acting(side, action, "move")
        to = self._point(action)
        plan = movement.cost(self.scenario.town, [(f.x, f.y), to], self.tables)
        if not plan.to_dict()["legal"]:
            raise IllegalAction(plan.reason or "too far", "TET-9; TET-10")
        if self._crowded(side, f, to):
            raise IllegalAction("another figure stands there", "TET-9")
        self._pose(f, action)
        if (f.x, f.y) != to:
            f.facing = math.degrees(math.atan2(to[1] - f.y, to[0] - f.x))
        before = (f.x, f.y)
        watchers = self.sees(other(f.man.side))
        f.x, f.y = to
        f.moved = True
        ev = {"type": "move", "figure": f.id, "from": list(before), "to": list(to), "pose": f.pose,
              "share": round(plan.share, 3), "clause": "TET-9; TET-10", "text": f"{f.man.name} moves"}
        self.emit(ev, f.man.side)
        if f.id in self.sees(other(f.man.side)):
            shown = {k: v for k, v in ev.items() if k not in ("share",)}
            if f.id not in watchers:
                shown["from"] = None  # it came from where the enemy could not see
            self.emit(shown, other(f.man.side))
        s.snap = {"mover": f.id, "side": f.man.side}
        s.last = f.man.side
        if self._snap_offers():
            s.to_act = other(f.man.side)
        else:
            s.snap = None
            self._advance()

    def _act_snap(self, side: str, action: dict, kind: str | None) -> None:
        s = self.state
        if side != s.to_act:
            raise IllegalAction(f"it is not the {side} side's turn to act", "TET-7")
        if kind == "pass":
            s.snap = None
            self._advance()
            return
        if kind != "snap_fire":
            raise IllegalAction("the enemy has moved in sight: snap fire at it, or pass", "C-32")
        fid = action.get("figure")
        offer = next((o for o in self._snap_offers() if o.get("figure") == fid), None)
        if offer is None:
            raise IllegalAction(f"{str(fid)[:40]!r} may not snap fire now", "C-32")
        f, mover = s.figures[fid], s.figures[s.snap["mover"]]
        t = self._target_of(f, {**action, "target": mover.id}, "snap_fire")
        f.fired = True
        self._reveal(f.id)
        shot = fire.shoot(self.dice, f.man, mover.man, t["distance"], t["exposure"], bool(action.get("auto")),
                          move_phase=True, t=self.tables)
        for ev in shot.events + fire.apply(shot):
            self.emit(ev)
        if self._check_end():
            return
        if not mover.man.alive or not self._snap_offers():
            s.snap = None
            self._advance()


def _pt(f: Fig):
    from shapely.geometry import Point

    return Point(f.x, f.y)

