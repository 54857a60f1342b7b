"""A game of Tet '68 (TET-7, TET-8, C-32, G-41): the turn, who sees whom, and every act, explained.

A turn (TET-7): the move phase takes the figures by ascending Initiative (1 to 4; at 0 a figure does not
move, TET-17), the fire phase by descending Initiative (4 to 0). Within one Initiative the two sides take
their figures in turn, the Allies first in odd turns (engine reading). In the move phase each figure moves
(``move``: a straight line to a point, its cost from ``movement.py``; it may take a new pose), charges an
enemy it sees into base contact (``charge``, G-41: ``melee.py``) or holds (``hold``). After every one of
these acts the other side is asked (engine reading of C-32, so that the pause tells the mover's side
nothing): a figure of higher Initiative that sees the mover and has not fired this turn may snap fire at
it (``snap_fire``: a shot, a cone at it, or the M79 at its place), which spends its fire-phase shot; a d100
hit the cover roll saves makes the mover duck back (TET-19); or the side passes (``pass``), which ends the
decision. In the fire phase each figure fires at a figure (``fire``), fires a cone at a point (``cone``,
TET-13), the M79 at a point (``launch``, TET-14), throws a grenade (``grenade``, G-41) or holds; figures in
base contact fight hand-to-hand instead (G-41). The shots and blows of one Initiative are declared, then
rolled and applied together (TET-8; ``resolve.py`` rolls them, ``offers.py`` says what may be done).

Fog (DESIGN §6): a side sees an enemy figure that one of its own figures' eyes reaches (exposure 1 or more,
``exposure.py``) or that fired or fought this turn. An event about a figure the other side does not see
(a cover roll in a burst, its wound) is its owner's alone; an enemy's copy of a roll or a wound leaves out
the owner's roster (``fog.py``). Victory (G-41): a building is clear at the end of a turn in which it holds
an Allied figure and no enemy, and stays clear until an enemy is in it at a turn's end (engine reading); the
Allies win when all are clear, or when no enemy is left; the VC/NVA win when no Allied figure is left, or
when at the end they hold half the buildings or more; anything else is a draw.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from game.dice import Dice, seed_streams
from game.rules.errors import IllegalAction
from game.rulesets.record import Record
from game.rulesets.tet68 import fire, fog, melee, movement, offers, resolve
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
    grenades: int = 0
    """Grenades left (G-41: two each at the start); its owner's to read."""
    struck: bool = False
    """It has fought hand-to-hand this turn (G-41)."""

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
    """The other side's decision after an act of the move phase (C-32): {mover, side, moved}."""
    revealed: list[str] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)
    last: str | None = None
    """The side that acted last at this Initiative: the other goes next (engine reading)."""


class TetGame(Record):
    """The game object the engine drives (game.rulesets.base)."""

    def __init__(self, scenario: TetScenario, seed: int):
        self.scenario = scenario
        self.tables = tables()
        self.state = TetState(seed, seed_streams(seed))
        self.dice = Dice(self.state.streams)
        self.events: list[dict] = []
        for f in scenario.figures:  # TET-5, TET-6: each figure's statistics, rolled by its owner
            man, evs = fire.roll_man(self.dice, f.id, f.side, f.name, f.weapon, f.leader, self.tables)
            self.state.figures[f.id] = Fig(man, f.x, f.y, f.facing, f.pose, f.lean_to,
                                           grenades=self.tables.grenade.per_figure)
            for ev in evs:
                self.emit(ev, f.side)
        self._begin_turn()

    # -- the record ----------------------------------------------------------------------------------
    def snapshot(self) -> dict:
        return asdict(self.state)

    # -- the turn (TET-7) ----------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        s = self.state
        s.turn += 1
        for f in s.figures.values():
            f.fired, f.moved, f.aimed, f.struck, f.man.ducked = False, False, False, False, False
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
            else:  # a figure in base contact fights instead (G-41)
                fighting = self._in_contact()
                ids = [f.id for f in s.figures.values() if f.man.alive and not f.fired and not f.aimed
                       and f.man.acting_initiative == s.step and f.id not in fighting]
            lead = self._first() if s.last is None else other(s.last)
            a = sorted(i for i in ids if s.figures[i].man.side == lead)
            b = sorted(i for i in ids if s.figures[i].man.side != lead)
            s.queue = [x for pair in zip(a, b, strict=False) for x in pair] + a[len(b):] + b[len(a):]
            if s.queue:
                s.to_act = s.figures[s.queue[0]].man.side
                return
            s.last = None
            if s.phase == "fire" and (s.declared or self._fights(s.step)):
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
        """TET-8: the shots and hand-to-hand blows of one Initiative, rolled together, the losses applied after."""
        s = self.state
        shots, s.declared = s.declared, []
        for d in shots:
            self._reveal(d["firer"])
        self._fire(shots, self._fights(s.step))
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
        troops = {f.id: f.troop for f in self.scenario.figures}
        figures = []
        for f in s.figures.values():
            mine = referee or f.man.side == side
            if not mine and (f.id not in seen or not f.man.alive):
                continue
            d = {"id": f.id, "side": f.man.side, "name": f.man.name, "weapon": f.man.weapon, "x": f.x, "y": f.y,
                 "facing": f.facing, "pose": f.pose, "lean_to": f.lean_to, "troop": troops[f.id],
                 "alive": f.man.alive}  # his dress and where he leans: what anyone who sees him sees
            if mine:
                d.update({"initiative": f.man.initiative, "ws": f.man.ws, "ducked": f.man.ducked, "fired": f.fired,
                          "may_move": f.man.may_move, "grenades": f.grenades})
            figures.append(d)
        sc = self.scenario
        return {
            "side": side, "ruleset": "tet68", "turn": s.turn, "turns": sc.turns, "phase": s.phase, "step": s.step,
            "to_act": s.to_act,
            "acting": [q for q in s.queue if referee or s.figures[q].man.side == side]
            if (s.to_act in (side, None) and s.snap is None) or referee else [],  # a snap decision: see ``snap``
            "over": s.over, "result": s.result, "hash": self.hash(), "seq": len(self.events_for(side, self.events)),
            "scenario": {"id": sc.id, "title": sc.title, "briefing": sc.briefing,
                         "table": {"width": sc.width, "height": sc.height}, "sides": dict(sc.sides),
                         "buildings": [{"id": b.id, "floor": [list(p) for p in b.floor.exterior.coords][:-1],
                                        "walls": [{"id": w.id, "from": list(w.a), "to": list(w.b), "height": w.height,
                                                   "openings": [asdict(o) for o in w.openings]} for w in b.walls]}
                                       for b in self._buildings()]},
            "figures": figures, "cleared": list(s.cleared),
            **({"snap": {"mover": s.snap["mover"] if referee or (s.snap["moved"] and s.snap["mover"] in seen) else None}}
               if s.snap and (referee or side == other(s.snap["side"])) else {}),
        }

    def legal_actions(self, side: str) -> list[dict]:
        return offers.legal_actions(self, side)

    def preview(self, side: str, action: dict) -> dict:
        """What an act would cost, or its odds and who it reaches: the rules' answer, asked before acting."""
        return offers.preview(self, side, action)

    # -- acting --------------------------------------------------------------------------------------------
    def building(self, bid: str):
        return next(b for b in self._buildings() if b.id == bid)

    def acting(self, side: str, action: dict) -> Fig:
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

    def point(self, action: dict) -> tuple[float, float]:
        to = action.get("to")
        if not (isinstance(to, list) and len(to) == 2 and all(isinstance(v, (int, float)) for v in to)):
            raise IllegalAction("param 'to' should be a point [x, y]", "TET-9")
        x, y = float(to[0]), float(to[1])
        if not (0 <= x <= self.scenario.width and 0 <= y <= self.scenario.height):
            raise IllegalAction("that point is off the table", "TET-3")
        return x, y

    def crowded(self, side: str, f: Fig, to: tuple[float, float], but: str | None = None) -> bool:
        """Whether a figure the side knows of (its own, or an enemy it sees) but ``but`` stands where ``f``
        would: never a hidden enemy, whose place a refusal would tell (DESIGN §6)."""
        seen = self.sees(side)
        return any(g.man.alive and g.id not in (f.id, but) and (g.man.side == side or g.id in seen)
                   and math.dist((g.x, g.y), to) < SPACE - 0.01 for g in self.state.figures.values())

    def act(self, side: str, action: dict) -> list[dict]:
        start = len(self.events)
        s = self.state
        kind = action.get("type") if isinstance(action, dict) else None
        if s.snap is not None:
            self._act_snap(side, action, kind)
        elif kind in ("move", "charge") and s.phase == "move":
            self._act_move(side, action, kind)
        elif kind == "hold":
            f = self.acting(side, action)
            self._pose(f, action)
            self.emit({"type": "hold", "figure": f.id, "pose": f.pose, "clause": "TET-7",
                       "text": f"{f.man.name} holds ({f.pose})"}, f.man.side)
            if s.phase == "move":
                f.moved = True
                self._after_move(f, False)
            else:
                f.aimed = True
                self._advance(side)
        elif kind in ("fire", "cone", "launch", "grenade") and s.phase == "fire":
            self._declare(side, action, kind)
        else:
            raise IllegalAction(f"no action {str(kind)[:40]!r} now (the {s.phase} phase)", "TET-7")
        return self.events[start:]

    def _pose(self, f: Fig, action: dict) -> None:
        pose = action.get("pose")
        if pose is None:
            return
        if pose not in self.tables.poses:
            raise IllegalAction(f"no pose {str(pose)[:40]!r} ({', '.join(self.tables.poses)})", "TET-16")
        f.pose = pose

    def _target_of(self, f: Fig, action: dict, found: list[dict]) -> dict:
        t = next((x for x in found if x["id"] == action.get("target")), None)
        if t is None:  # the same words for a hidden figure and a made-up id (DESIGN §6)
            raise IllegalAction(f"no target {str(action.get('target'))[:40]!r} that {f.man.name} can see", "TET-16; G-41")
        if action.get("auto") and "auto_chance" not in t:
            raise IllegalAction(f"the {self.tables.weapons[f.man.weapon].name} fires no cone", "TET-12; TET-13")
        return t

    def _declare(self, side: str, action: dict, kind: str) -> None:
        """The fire phase: a shot declared, rolled with the others of its Initiative (TET-8)."""
        f = self.acting(side, action)
        w = self.tables.weapons[f.man.weapon]
        if kind == "fire":
            if w.blast > 0:
                raise IllegalAction(f"the {w.name} is fired at a point ('launch')", "TET-14; G-41")
            t = self._target_of(f, action, offers.targets(self, f, [g for g in self.state.figures.values()
                                                                   if g.id in self.sees(side) and g.man.alive]))
            d = ({"kind": "cone", "firer": f.id, "at": [t["x"], t["y"]]} if action.get("auto") else
                 {"kind": "fire", "firer": f.id, "target": t["id"], "distance": t["distance"], "exposure": t["exposure"]})
        else:
            a = offers.aim(self, f, action.get("at"), kind)
            d = {"kind": kind, "firer": f.id, "at": a["at"], "room": a["room"]}
            if kind == "grenade":
                f.grenades -= 1
        self.state.declared.append(d)
        f.fired = f.aimed = True
        self.emit({"type": "declare", "figure": f.id, "kind": d["kind"], "clause": "TET-8",
                   "text": f"{f.man.name} takes aim"}, f.man.side)
        self._advance(side)

    def _act_move(self, side: str, action: dict, kind: str) -> None:
        f = self.acting(side, action)
        foe = None
        if kind == "charge":
            t = next((x for x in offers.charge_targets(self, f) if x["id"] == action.get("target")), None)
            if t is None:
                raise IllegalAction(f"no enemy {str(action.get('target'))[:40]!r} that {f.man.name} can reach "
                                    "and see", "G-41")
            to, foe = (t["to"][0], t["to"][1]), t["id"]
        else:
            to = self.point(action)
        plan = movement.cost(self.scenario.town, [(f.x, f.y), to], self.tables)
        if not plan.to_dict()["legal"]:
            raise IllegalAction(plan.reason or "too far", "TET-9; TET-10")
        if self.crowded(side, f, to, but=foe):
            raise IllegalAction("another figure stands there", "TET-9")
        self._pose(f, action)
        if (f.x, f.y) != to:
            f.facing = math.degrees(math.atan2(to[1] - f.y, to[0] - f.x))
        before = (f.x, f.y)
        watchers = self.sees(other(f.man.side))
        f.x, f.y = to
        f.moved = True
        ev = {"type": "move", "figure": f.id, "from": list(before), "to": list(to), "pose": f.pose,
              "share": round(plan.share, 3), **({"charge": foe} if foe else {}),
              "clause": "G-41; TET-9; TET-10" if foe else "TET-9; TET-10",
              "text": f"{f.man.name} charges into hand-to-hand" if foe else f"{f.man.name} moves"}
        self.emit(ev, f.man.side)
        if f.id in self.sees(other(f.man.side)):
            shown = {k: v for k, v in ev.items() if k not in ("share",)}
            if f.id not in watchers:
                shown["from"] = None  # it came from where the enemy could not see
            self.emit(shown, other(f.man.side))
        self._after_move(f, True)

    def _after_move(self, f: Fig, moved: bool) -> None:
        """C-32: after every act of the move phase the other side may snap fire at a figure that moved into
        its sight, or pass; it is always asked, so the pause tells the mover's side nothing (DESIGN §6)."""
        s = self.state
        s.snap = {"mover": f.id, "side": f.man.side, "moved": moved}
        s.last = f.man.side
        s.to_act = other(f.man.side)

    def _act_snap(self, side: str, action: dict, kind: str | None) -> None:
        s = self.state
        if side != s.to_act:
            raise IllegalAction(f"it is not the {side} side's turn to act", "TET-7")
        if kind == "pass":
            s.snap = None
            self._advance()
            return
        if kind != "snap_fire":
            raise IllegalAction("the enemy has acted: snap fire at a figure that moved into sight, or pass", "C-32")
        fid = action.get("figure")
        offer = next((o for o in offers.snap_offers(self) if o.get("figure") == fid), None)
        if offer is None:
            raise IllegalAction(f"{str(fid)[:40]!r} may not snap fire now", "C-32")
        f, mover = s.figures[fid], s.figures[s.snap["mover"]]
        t = self._target_of(f, {**action, "target": action.get("target", mover.id)}, offer["targets"])
        if self.tables.weapons[f.man.weapon].blast > 0:
            d = {"kind": "launch", "firer": f.id, "at": [mover.x, mover.y], "room": None}
        elif action.get("auto"):
            d = {"kind": "cone", "firer": f.id, "at": [mover.x, mover.y]}
        else:
            d = {"kind": "fire", "firer": f.id, "target": mover.id, "distance": t["distance"], "exposure": t["exposure"]}
        f.fired = True
        self._reveal(f.id)
        self._fire([d], [], mover.id)
        if self._check_end():
            return
        if not mover.man.alive:
            s.snap = None
            self._advance()
        # else the other side keeps the decision until it passes (how many may still shoot stays its own)

    # -- rolling and telling (TET-8; DESIGN §6) ----------------------------------------------------------------
    def _fights(self, step: int) -> list[tuple[str, str]]:
        """G-41: the pairs in base contact that fight in this fire step, someone in them yet to strike."""
        s = self.state
        live = [(f.id, f.man.side, f.man.acting_initiative, (f.x, f.y)) for f in s.figures.values() if f.man.alive]
        return [(a, b) for n, a, b in melee.pairs(live, self.scenario.town.walls, self.tables.melee.contact)
                if n == step and not (s.figures[a].struck and s.figures[b].struck)]

    def _in_contact(self) -> set[str]:
        s = self.state
        live = [(f.id, f.man.side, f.man.acting_initiative, (f.x, f.y)) for f in s.figures.values() if f.man.alive]
        return {x for _, a, b in melee.pairs(live, self.scenario.town.walls, self.tables.melee.contact) for x in (a, b)}

    def _fire(self, declared: list[dict], fights: list[tuple[str, str]], mover: str | None = None) -> None:
        """Shots and blows rolled together, every event told to whom it may be, the losses applied after all
        (TET-8): an event about a figure the other side cannot see is its owner's alone (DESIGN §6)."""
        s = self.state
        rolled: list[tuple[list[dict], list[fire.Shot]]] = [resolve.roll(self, d, mover) for d in declared]
        for a, b in fights:
            for me, foe in ((a, b), (b, a)):
                fm = s.figures[me]
                if fm.struck or not fm.man.alive:
                    continue
                fm.struck = fm.fired = fm.aimed = True
                self._reveal(me)
                rolled.append(([], [fire.strike(self.dice, fm.man, s.figures[foe].man, self.tables)]))
        known = {side: self.sees(side) for side in SIDES}

        def tell(ev: dict, about: fire.Man | None) -> None:
            owner = s.figures[ev["firer"]].man.side if ev.get("firer") else None
            if about is not None and about.id not in known[other(about.side)]:
                self.emit(ev, about.side)
            elif ev["type"] == "wound":
                self.emit(ev, "all", about.side, fog.wound_seen_by_enemy(ev))
            else:
                self.emit(ev, "all", owner, fog.roll_seen_by_enemy(ev))

        for head, shots in rolled:
            for ev in head:
                tell(ev, None)
            for shot in shots:
                for ev in shot.events:
                    tell(ev, shot.target)
        for _, shots in rolled:
            for shot in shots:
                for ev in fire.apply(shot):
                    tell(ev, shot.target)


def _pt(f: Fig):
    from shapely.geometry import Point

    return Point(f.x, f.y)

