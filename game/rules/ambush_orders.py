"""Standing Ambush orders: when a human Insurgent's ambush springs (DD-2.25, DD-2.26, DD-2.28; C-23;
G-28 (7)).

DD-2.25: when an Allied element moves within line of sight of, or within 6" of, a hidden Insurgent
element, "the Insurgent player MAY shout AMBUSH!": the Insurgent picks the moment. The engine carries
out a move whole and never asks a player anything in the middle of it (docs/combat.md), so the Insurgent
makes the choice beforehand, as a **standing order** on an element that lies in ambush (Hold/Conceal,
or under a Blind). ``set_ambush`` (``element``, ``trigger``, ``distance``) gives the order. The readings,
listed in combat.toml ``[ambush] orders`` (the first is what an element with no order does):

* ``first``: at the first inch-step of the move where the trigger holds and the ambushers can fire.
  This is the engine's behaviour without orders.
* ``closest``: at the inch-step where the mover comes closest to the ambushers (base edge to base
  edge; the earliest of equal ones), so the ambushers let the column walk into the kill zone.
* ``within``: at the first inch-step where the mover comes within ``distance`` inches (one of
  ``[ambush] within``, 1-6" up to the 6" trigger; default 3", the Point-Blank Ferocity range of DD-2.28).
* ``open``: at the first inch-step where the stand the ambushers would fire at stands in the open
  (DD-2.18 "the open kill zone"; the open ground of DD-2.20 and C-15, combat.toml ``[overwatch]
  open_ground``).
* ``hold``: never against this element's moves. The column passes and the ambushers stay hidden.

Engine policy (docs/combat.md, "Ambush orders"):

* Every reading still needs the DD-2.25 trigger at its point (in LOS, or within 6") and a stand of the
  mover that an ambusher can see and reach. An order whose point never comes does not spring. A move
  that an earlier reaction ends (Opportunity Fire that pins the mover) never reaches a later point.
* The points are the move's inch-steps (``reactions.samples``), so the choice is deterministic and
  costs no more than the first-point search.
* Giving an order is free and does not end the impulse: reactions cost nothing (G-28 (7)). The
  Ambush Token is spent only when the ambush springs (DD-2.26). An order stands until it is changed or
  its ambush springs. The ``first`` order clears it.
* An order is the Insurgent's secret. Its event goes to the Insurgent side only, and neither the Allied
  view nor the Allied offers show it. The view's state hash changes, as it does for any hidden change.
* The Jungle Ghost's ambush (DD-10.7, C-23) is its own roll and takes no orders. No orders are
  offered or accepted while it plays the Insurgent side.

What it leaves out: orders for Green Ghost reserves (they spring by ``spring_reserve``, DD-2.26) and
for Hot Sectors (G-35); a table marker for an order (the Insurgent's offers show each element's order).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.rules import fire
from game.rules.chapters import Chapter, register_chapter, set_state, state_of
from game.rules.data import DataError
from game.rules.errors import IllegalAction
from game.rules.game import SideActionKind, register_side
from game.rules.offers import freeze
from game.rules.state import Element, bounds_of
from game.world.features import apart_by, around, base_bounds

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.rules.movement import Plan

CHAPTER_ID = "ambush_orders"


@dataclass
class AmbushOrder:
    """One element's standing order (DD-2.25): a reading of ``[ambush] orders`` and, for ``within``, the
    distance in inches."""

    trigger: str
    distance: float | None = None


@dataclass
class AmbushOrders:
    """The Insurgent's standing orders by element id (``GameState.chapters["ambush_orders"]``)."""

    orders: dict[str, AmbushOrder] = field(default_factory=dict)


_checked: list = [None, None]
"""The ``[ambush]`` table checked last and the order an element without one has (``first``): a listing
asks for every Insurgent element, and the tables change only when they are loaded again."""


def rules() -> fire.AmbushRules:
    """combat.toml ``[ambush]``, with the order readings checked against each other (once for each time
    the tables are loaded)."""
    a = fire.combat().ambush
    if a is _checked[0]:
        return a
    if not a.orders or a.orders[0] != "first":
        raise DataError("combat.toml", "[ambush]", "orders must start with 'first', what an element with no "
                                                   "order does (DD-2.25)")
    if not a.within or any(not 0 < d <= a.trigger for d in a.within) or a.within_default not in a.within:
        raise DataError("combat.toml", "[ambush]", f"within: distances in (0, {a.trigger:g}], the trigger "
                                                   "range, with within_default among them (DD-2.25)")
    _checked[:] = [a, AmbushOrder(a.orders[0])]
    return a


def order_of(g: Game, el: Element) -> AmbushOrder:
    """The standing order of an Insurgent element (``first`` when it has none)."""
    st = state_of(g, CHAPTER_ID)
    found = st.orders.get(el.id) if st is not None else None
    if found is not None:
        return found
    rules()
    return _checked[1]  # (shared: an order is never changed in place, a new one replaces it)


def spent(g: Game, el: Element) -> None:
    """The element's ambush has sprung: its order is used up (DD-2.26)."""
    st = state_of(g, CHAPTER_ID)
    if st is not None and el.id in st.orders:
        del st.orders[el.id]


def _inches(d: float) -> str:
    return f"{d:g}"


def describe(order: AmbushOrder) -> str:
    return {"first": "at the first chance", "closest": "where they come closest",
            "within": f"when they come within {_inches(order.distance or 0.0)}\"",
            "open": "when they stand in the open", "hold": "hold fire, let them pass"}[order.trigger]


def _eligible(g: Game) -> list[Element]:
    """Insurgent elements an order may be given to: living, on the table or under a Blind."""
    return [el for el in g.state.elements.values()
            if el.side == "insurgent" and not el.reserve and g.state.living(el)]


# -- where the ambush springs ---------------------------------------------------------------------
def _nearest(g: Game, el: Element, mover: Element) -> float:
    """How close the mover is to the ambushers: the shortest base-to-base gap (DD-2.25)."""
    return min(fire.gap(g, s, m) for s in g.state.living(el) for m in g.state.living(mover))


def _triggered(g: Game, el: Element, mover: Element) -> bool:
    """DD-2.25, C-23: the mover is within 6" of the ambushers or in their line of sight, and they can see
    and reach one of its stands. A stand they can see and reach (``closest_target``) is in their line of
    sight, so whenever the second half holds so does the first: the second half alone answers."""
    from game.rules.reactions import closest_target

    return closest_target(g, el, mover) is not None


def _springs_here(g: Game, el: Element, mover: Element, order: AmbushOrder, d: float) -> bool:
    """Does an order that springs at the first point where it holds (``first``, ``within``, ``open``)
    spring here?"""
    from game.rules.reactions import closest_target, in_open

    if order.trigger == "within" and d > (order.distance or 0.0):
        return False
    if not _triggered(g, el, mover):
        return False
    if order.trigger == "open":
        target = closest_target(g, el, mover)
        return target is not None and in_open(g, target.x, target.y)
    return True


def _path_box(g: Game, plan: Plan) -> tuple[float, float, float, float] | None:
    """A box round every place the mover's stands stand in along the move (``reactions.Placed``: each
    base slides along its path at its first facing, and turns to its last facing at the end); None for
    a move of no living stand."""
    boxes = []
    for sid, (x, y, f) in plan.moves.items():
        s = g.state.stands[sid]
        if not s.alive:
            continue
        b, base = bounds_of(g.book, s), g.book.base_of(s.type)
        dx, dy = x - s.x, y - s.y
        boxes += [b, (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy), base_bounds(x, y, f, base.width, base.depth)]
    # (a placed stand's position is rounded to 4 decimals, ``reactions._positions``: a little slack)
    return around(boxes, 1e-3) if boxes else None


def _boxes_at(g: Game, plan: Plan, t: float) -> list[tuple[float, float, float, float]]:
    """The boxes of the mover's living stands where ``reactions.Placed`` puts them at ``t``."""
    from game.rules.reactions import _positions

    at = _positions(g, plan, t)
    out = []
    for s in g.state.living(plan.element):
        x, y, f = at.get(s.id, (s.x, s.y, s.facing))
        b = g.book.base_of(s.type)
        out.append(base_bounds(x, y, f, b.width, b.depth))
    return out


def _reaches(g: Game, el: Element, boxes: list[tuple[float, float, float, float]]) -> bool:
    """Might a stand of the ambusher reach one of these boxes (``_triggered``: a stand of the mover within
    a shooter's range)? Not when every pair of boxes is further apart than the shooter's range: then it
    cannot be triggered there, and its sightlines are never asked."""
    stands = g.book.stands
    for s in g.state.living(el):
        sb, m = bounds_of(g.book, s), stands[s.type].range + 0.02
        if any(not apart_by(sb, b, m) for b in boxes):
            return True
    return False


def spring_point(g: Game, plan: Plan, ambushers: list[Element]) -> tuple[float, str] | None:
    """(t, element id): the fraction of the move at which one of ``ambushers`` springs, each at the
    point its order names (never on ``hold``); the earliest such point, ties by element id. None if no
    order finds its point. Walks the move's inch-steps once (``reactions.samples``); an order that springs
    where it first holds stops the walk, and after that only a ``closest`` order whose point so far is
    no later is still looked at."""
    from game.rules.reactions import Placed, samples

    mover = plan.element
    orders = {el.id: order_of(g, el) for el in ambushers}
    box = _path_box(g, plan)  # an ambusher that reaches no point of the move is not walked at all
    live = sorted((el for el in ambushers
                   if orders[el.id].trigger != "hold" and box is not None and _reaches(g, el, [box])),
                  key=lambda e: e.id)
    first: tuple[float, str] | None = None  # the earliest point of an order that springs where it first holds
    closest: dict[str, tuple[float, float]] = {}  # each `closest` order's nearest point so far: (gap, t)
    for t in samples(g, plan) if live else ():
        if first is not None:
            live = [el for el in live if el.id in closest and closest[el.id][1] <= first[0]]
            if not live:
                break
        boxes = _boxes_at(g, plan, t)
        here = [el for el in live if _reaches(g, el, boxes)]  # the others cannot be triggered here
        if not here:
            continue
        with Placed(g, plan, t):
            for el in here:
                order = orders[el.id]
                d = _nearest(g, el, mover)
                if order.trigger == "closest":
                    if (el.id not in closest or d < closest[el.id][0]) and _triggered(g, el, mover):
                        closest[el.id] = (d, t)
                elif first is None and _springs_here(g, el, mover, order, d):
                    first = (t, el.id)
    found = ([first] if first is not None else []) + [(t, eid) for eid, (_, t) in closest.items()]
    if not found:
        return None
    t, eid = min(found)
    return round(t, 4), eid


# -- the order ------------------------------------------------------------------------------------
class SetAmbush(SideActionKind):
    """Give a standing Ambush order (DD-2.25; G-28 (7): free, the impulse goes on)."""

    type = "set_ambush"
    free = True

    def offers(self, g: Game, side: str) -> list[dict]:
        if side != "insurgent" or g.state.solo is not None:
            return []
        out = []
        for el in _eligible(g):
            now = order_of(g, el)
            # the same element, name and order: the same offer, made and made read-only once a game
            out.append(g.measure(("set_ambush", el.id, el.name, now.trigger, now.distance),
                                 lambda el=el, now=now: freeze(self._offer(el, now))))
        return out

    def _offer(self, el: Element, now: AmbushOrder) -> dict:
        a = rules()
        return {
            "type": self.type, "element": el.id, "cost": 0, "tokens": 0, "clause": "DD-2.25; G-28 (7)",
            "label": f"{el.name}: ambush order, now {describe(now)} (free)",
            "params": {
                "trigger": {"kind": "choice", "choices": list(a.orders), "default": now.trigger,
                            "doc": "when the ambush springs on an Allied move: first, closest (the "
                                   "nearest point), within (a distance), open (a target in the open), "
                                   "hold (not at all)"},
                "distance": {"kind": "choice", "choices": [_inches(d) for d in a.within], "optional": True,
                             "default": _inches(now.distance if now.distance is not None else a.within_default),
                             "doc": "for 'within': inches, up to the 6\" trigger (3\": point blank, DD-2.28)"},
            }}

    def check(self, g: Game, side: str, action: dict) -> tuple[Element, AmbushOrder]:
        """Every check of an order, nothing changed: the element and the order it gets."""
        if side != "insurgent":
            raise IllegalAction("only the Insurgent side lays ambushes", "DD-2.25")
        if g.state.solo is not None:
            raise IllegalAction("the Jungle Ghost springs its own ambushes and takes no orders", "DD-10.7; C-23")
        eid = action.get("element")
        el = g.state.elements.get(eid) if isinstance(eid, str) else None
        if el is None or el.side != "insurgent" or not g.state.living(el):
            # an Allied element (hidden or not) is refused as an id that names nothing (DESIGN §6)
            raise IllegalAction(f"no Insurgent element {eid!r} to lay in ambush", "DD-2.25")
        if el.reserve:
            raise IllegalAction(f"{el.name} is in the Reserve Hand: it springs with spring_reserve", "DD-2.26; DD-4.8")
        a = rules()
        trigger = action.get("trigger", a.orders[0])
        if trigger not in a.orders:
            raise IllegalAction(f"unknown ambush order {trigger!r} (one of: {', '.join(a.orders)})", "DD-2.25")
        if trigger != "within":
            return el, AmbushOrder(trigger)
        raw = action.get("distance", _inches(a.within_default))
        by_name = {_inches(d): d for d in a.within}
        if isinstance(raw, str):
            dist = by_name.get(raw)
        elif isinstance(raw, (int, float)) and not isinstance(raw, bool) and float(raw) in a.within:
            dist = float(raw)
        else:
            dist = None
        if dist is None:
            raise IllegalAction(f"'distance' must be one of {', '.join(by_name)} inches", "DD-2.25")
        return el, AmbushOrder(trigger, dist)

    def act(self, g: Game, side: str, action: dict) -> None:
        self.resolve(g, side, action, self.check(g, side, action))

    def resolve(self, g: Game, side: str, action: dict, plan: tuple[Element, AmbushOrder]) -> None:
        el, order = plan
        st = state_of(g, CHAPTER_ID)
        if st is None:
            st = AmbushOrders()
            set_state(g, CHAPTER_ID, st)
        if order.trigger == rules().orders[0]:
            st.orders.pop(el.id, None)
        else:
            st.orders[el.id] = order
        st.orders = dict(sorted(st.orders.items()))
        # the order is the Insurgent's secret (DESIGN §6): its event goes to its side only
        g.emit({"type": "ambush_order", "element": el.id, "trigger": order.trigger, "distance": order.distance,
                "clause": "DD-2.25; G-28 (7)", "text": f"{el.name} will ambush {describe(order)}"},
               visible="insurgent")


register_side(SetAmbush())


class AmbushOrdersChapter(Chapter):
    """DD chapter 2 §3 (the Insurgent Reaction) on the chapter seam: the standing orders' state. It has
    no state until the first order is given, so a game without orders hashes as it always did."""

    id = CHAPTER_ID
    title = "DD chapter 2 §3: standing Ambush orders"
    actions = ("set_ambush",)
    state_type = AmbushOrders

    def new_state(self, g: Game) -> None:
        return None


CHAPTER = register_chapter(AmbushOrdersChapter())
