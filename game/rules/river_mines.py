"""River mines (DD-9A.11–9A.12; G-36; C-26): the Insurgent's secret tokens in the canals.

* **Setup** (DD-9A.11): the scenario's ``[[river_mine]]`` rows (``id``, ``at`` [x, y] on the water), at most
  2 (riverine.toml ``[mine] most``). They are the Insurgent's secret: in the Insurgent (and referee) view
  only, as ``river_mine`` markers.
* **The trigger** (DD-9A.12): when an Allied craft moves, its hull is followed along the move's inch-steps
  (``reactions.samples``); at the first step where it is within 2" of a mine whose standing order is
  ``detonate`` (the default) while the Insurgent holds an Ambush Token, the mine goes off: the craft's move
  is frozen there, the token spent, and its move ends there. Anything the reactions would do earlier on
  the same move (Overwatch, an ambush) is resolved first, on the part of the move before the mine
  (``reactions.interrupt``), and a craft stopped there never reaches the mine.
* **Standing orders** (as ``set_ambush``'s, DD-2.25): the engine never asks a player in the middle of a move,
  so the Insurgent decides beforehand with ``set_mine`` (free, the impulse goes on): ``detonate`` or ``hold``
  (let the boats pass). The order's event is the Insurgent's only.
* **The blast** (DD-9A.12, G-36): 1d6 on riverine.toml's ``[[mine_result]]`` for the craft's class: 1–2 the
  boat is Stunned until the end of the next turn's Phase 3 (C-26; earlier by Rally the Crew or a Phase 3
  pass, DD-7.10); 3–5 one Hit (1 HP) and every element aboard tests Morale (a failure Pins it); 6 a
  Class 1 boat sinks, the Tango takes 2 Hits and is beached, other Class 2 boats take 2 Hits and are beached
  within 2" of a bank, Class 3 boats take 2 Hits. A boat at 0 HP is lost (``riverine.boat_lost``). Single
  use (G-36). The ``mine`` event {x, y, result, vehicle} is public, under a public name counted over the
  mines fired (``mine1``, ...), so nothing says how many are still out.

Fog (DESIGN §6): an unfired mine is in no Allied view, event, refusal or numbering: a craft's move is never
refused for it, and a mine that does not go off (held, or no token) leaves no trace.

What it leaves out: floating mines that drift, Dac Cong swimmers placing mines during play, the ASPB's
minesweeping (G-14), mines against Insurgent sampans, and the Jungle Ghost's own mine rule (G-24: it
detonates as the default order does, when it holds a token).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from shapely.geometry import Point

from game.rules.errors import IllegalAction
from game.rules.game import SideActionKind, register_side
from game.rules.state import Stand
from game.world.features import base_rectangle

if TYPE_CHECKING:
    from game.rules.data import Rulebook
    from game.rules.game import Game
    from game.rules.movement import Plan
    from game.rules.riverine import RiverMine

OWNER = "insurgent"
CLAUSE = "DD-9A.11; DD-9A.12; G-36"


@dataclass(frozen=True)
class RiverMineSetup:
    """A River Mine token from the scenario (``[[river_mine]]``, DD-9A.11)."""

    id: str
    x: float
    y: float


def read_river_mines(r: Any, rows: Any, features: list, width: float, height: float, book: Rulebook
                     ) -> tuple[RiverMineSetup, ...]:
    """``[[river_mine]]`` rows: ``id`` (optional) and ``at`` [x, y] on a river, canal or stream; at most
    ``[mine] most``. Problems go to the scenario reader ``r``, naming the field."""
    from shapely.ops import unary_union

    from game.rules.riverine import load_riverine

    if isinstance(rows, list) and not rows:
        return ()
    t = load_riverine()
    wet = [f.shape() for f in features if f.type in t.water.types]
    water = unary_union(wet).buffer(1e-6) if wet else None
    out: list[RiverMineSetup] = []
    for mid, at, p in r.placed(rows, "river_mine", "river mine", "rm", width, height):
        if water is None or not water.covers(Point(at)):
            r.problem(p + "at", f"river mine at {list(at)} is not on a river, canal or stream (DD-9A.11)")
            continue
        out.append(RiverMineSetup(mid, float(at[0]), float(at[1])))
    if len(out) > t.mine.most:
        r.problem("river_mine", f"{len(out)} river mines: the Insurgent places at most {t.mine.most} (DD-9A.11)")
    return tuple(out)


def check_afloat(r: Any, elements: list, features: list, book: Rulebook) -> None:
    """G-14: every craft stand starts with its centre on a river, canal or stream."""
    from shapely.ops import unary_union

    from game.rules.riverine import load_riverine
    from game.rules.vehicles import roster

    craft = [(i, j, st) for i, el in enumerate(elements) for j, st in enumerate(el.stands)
             if book.stands[st.type].vehicle and roster()[book.stands[st.type].vehicle].kind == "craft"]
    if not craft:
        return
    types = load_riverine().water.types
    wet = [f.shape() for f in features if f.type in types]
    water = unary_union(wet).buffer(1e-6) if wet else None
    for i, j, st in craft:
        if water is None or not water.covers(Point(st.x, st.y)):
            r.problem(f"element[{i}].stand[{j}].at", f"'{st.id}' is a boat: it starts on a river, canal or stream (G-14)")


# -- the trigger ---------------------------------------------------------------------------------------------
def _positions(g: Game, plan: Plan, t: float) -> dict[str, tuple[float, float, float]]:
    from game.rules.reactions import _positions as positions

    return positions(g, plan, t)


def mine_point(g: Game, plan: Plan, boat: Stand) -> tuple[float, RiverMine] | None:
    """The first inch-step of an Allied craft's move where its hull is within 2" of a live mine that will
    go off (its order ``detonate``, a token in hand), and that mine; None if none will."""
    from game.rules.reactions import samples
    from game.rules.riverine import rstate, rules

    st = rstate(g)
    m = rules(g).mine
    if st is None or boat.side == OWNER or g.state.sides[OWNER].ambush_tokens < m.tokens:
        return None
    live = [mn for mn in st.mines if not mn.fired and mn.order == "detonate"]
    if not live:
        return None
    b = g.book.base_of(boat.type)
    for t in samples(g, plan):
        x, y, f = _positions(g, plan, t)[boat.id]
        hull = base_rectangle(x, y, f, b.width, b.depth)
        near = [mn for mn in live if hull.distance(Point(mn.x, mn.y)) <= m.trigger + 1e-9]
        if near:
            return round(t, 4), min(near, key=lambda mn: (hull.distance(Point(mn.x, mn.y)), mn.id))
    return None


def boat_move(g: Game, plan: Plan) -> str | None:
    """``movement.apply_move`` for a vehicle in a river game: the reactions (``reactions.interrupt``) on the
    stretch before a mine that will go off, then the mine. Returns the move's ``halted`` as ``interrupt``."""
    from game.rules.beaching import after_boat_move
    from game.rules.reactions import interrupt
    from game.rules.riverine import boat_of
    from game.rules.vehicles import vehicle_of

    v = vehicle_of(g, plan.element)
    if v is None or boat_of(g, v) is None:
        return interrupt(g, plan)
    after_boat_move(g, v)
    found = mine_point(g, plan, v)
    if found is None:
        return interrupt(g, plan)
    t, mine = found
    halted = interrupt(g, replace(plan, moves=_positions(g, plan, t)))
    if halted is not None or not v.alive:
        return halted or "frozen"  # stopped before it reached the mine
    moved = []
    for sid, (x, y, f) in _positions(g, plan, t).items():
        s = g.state.stands[sid]
        moved.append({"id": sid, "from": [s.x, s.y, s.facing], "to": [x, y, f]})
        s.x, s.y, s.facing = x, y, f
    g.emit({"type": "move", "element": plan.element.id, "mode": plan.mode, "stands": moved, "frozen": True,
            "reaction": "mine", "clause": "DD-9A.12",
            "text": f"{plan.element.name} is stopped by a mine blast part-way through its move"},
           visible=g.visibility_of_element(plan.element))
    detonate(g, mine, v)
    return "frozen"


# -- the blast -----------------------------------------------------------------------------------------------
def detonate(g: Game, mine: RiverMine, vstand: Stand) -> None:
    """DD-9A.12: spend the Ambush Token, roll the d6 and apply the craft's row (G-36)."""
    from game.rules.armour import _emit_crew
    from game.rules.riverine import bank_gap, boat_lost, boat_of, rstate, rules
    from game.rules.vehicles import rec_of, vehicle_type

    st = rstate(g)
    t = rules(g)
    vt = vehicle_type(g, vstand)
    rec, boat = rec_of(g, vstand), boat_of(g, vstand)
    assert st is not None and vt is not None and rec is not None and boat is not None
    side = g.state.sides[OWNER]
    side.ambush_tokens -= t.mine.tokens
    st.fired += 1
    mine.fired, mine.name = g.state.turn, f"mine{st.fired}"
    g.emit({"type": "tokens", "side": OWNER, "spent": t.mine.tokens, "tokens": side.ambush_tokens,
            "clause": "DD-9A.12", "text": f"{t.mine.tokens} Ambush Token spent on a mine ({side.ambush_tokens} left)"},
           visible=OWNER)
    die = g.dice.d6()
    row = t.mine_result(vt.id, vt.klass, die)
    g.emit({"type": "roll", "purpose": "River Mine", "side": OWNER, "element": None, "stand": vstand.id,
            "dice": [die], "target": None, "modifiers": [], "need": None, "result": row.id,
            "clause": f"DD-9A.12; {row.clause}", "text": f"a mine goes off under the {vt.name}: rolled {die}: {row.name}"})
    rec.hp = max(0, rec.hp - row.hits)
    g.emit({"type": "mine", "mine": mine.name, "x": mine.x, "y": mine.y, "result": row.id, "vehicle": vstand.id,
            "hp": rec.hp, "clause": row.clause, "text": f"a water geyser at ({mine.x:g}, {mine.y:g}): {row.name}"})
    if row.sink or (row.hits and rec.hp <= 0):
        boat_lost(g, vstand, None, "DD-9A.12")
        return
    if row.stun and not rec.stunned:
        rec.stunned = True
        boat.mine_stun = g.state.turn
        _emit_crew(g, vstand, "stunned", "DD-9A.12; C-26",
                   f"the {vt.name} is rocked: Stunned until the end of the next turn's Consolidation")
    if row.morale:
        _passengers_test(g, rec.passengers, row.clause)
    if row.beach == "always" or (row.beach == "near" and bank_gap(g, vstand) <= t.sinking.beach_range + 1e-9):
        boat.aground = True
        boat.ramp = False
        g.emit({"type": "beached", "vehicle": vstand.id, "x": vstand.x, "y": vstand.y, "burning": False,
                "clause": row.clause, "text": f"the {vt.name} is driven aground"})


def _passengers_test(g: Game, passengers: list[str], clause: str) -> None:
    """DD-9A.12: each embarked element tests Morale; a failure Pins it (its events are its own side's)."""
    from game.rules.morale import morale_test

    for eid in list(passengers):
        el = g.state.elements[eid]
        if g.state.living(el) and not morale_test(g, el, "hull breach", clause) and not el.pinned:
            el.pinned = True
            g.emit({"type": "status", "element": el.id, "status": "pinned", "on": True, "clause": clause,
                    "text": f"{el.name} is Pinned"}, visible=g.visibility_of_element(el))


# -- the standing order -----------------------------------------------------------------------------------------
class SetMine(SideActionKind):
    """A river mine's standing order (DD-9A.12; as set_ambush, G-28 (7): free, the impulse goes on)."""

    type = "set_mine"
    free = True

    def offers(self, g: Game, side: str) -> list[dict]:
        from game.rules.riverine import rstate, rules

        st = rstate(g)
        if side != OWNER or st is None:
            return []
        orders = rules(g).mine.orders
        return [{"type": self.type, "side": side, "mine": mn.id, "cost": 0, "tokens": 0, "clause": "DD-9A.12; G-28 (7)",
                 "label": f"River mine {mn.id}: standing order, now {mn.order} (free)",
                 "params": {"order": {"kind": "choice", "choices": list(orders), "default": mn.order,
                                      "doc": "detonate: at the first Allied boat within 2\" (1 Ambush Token); "
                                             "hold: let the boats pass"}}}
                for mn in st.mines if not mn.fired]

    def check(self, g: Game, side: str, action: dict) -> tuple[RiverMine, str]:
        from game.rules.riverine import rstate, rules

        if side != OWNER:
            raise IllegalAction("river mines are the Insurgent side's", "DD-9A.11")
        st = rstate(g)
        mid = action.get("mine")
        mine = next((mn for mn in st.mines if mn.id == mid and not mn.fired), None) if st is not None else None
        if mine is None:
            raise IllegalAction(f"no river mine {mid!r} waiting in the water", "DD-9A.11")
        order = action.get("order", rules(g).mine.orders[0])
        if order not in rules(g).mine.orders:
            raise IllegalAction(f"unknown mine order {order!r} (one of: {', '.join(rules(g).mine.orders)})", "DD-9A.12")
        return mine, order

    def act(self, g: Game, side: str, action: dict) -> None:
        self.resolve(g, side, action, self.check(g, side, action))

    def resolve(self, g: Game, side: str, action: dict, plan: tuple[RiverMine, str]) -> None:
        mine, order = plan
        mine.order = order
        g.emit({"type": "mine_order", "mine": mine.id, "order": order, "clause": "DD-9A.12; G-28 (7)",
                "text": f"river mine {mine.id} will {order}"}, visible=OWNER)


register_side(SetMine())


def mine_markers(g: Game, side: str) -> list[dict]:
    """The unfired mines for the Insurgent and the referee only (DESIGN §6)."""
    from game.rules.riverine import rstate

    st = rstate(g)
    if st is None or side not in (OWNER, "referee"):
        return []
    return [{"id": mn.id, "kind": "river_mine", "side": OWNER, "x": mn.x, "y": mn.y, "state": mn.order}
            for mn in st.mines if not mn.fired]

