"""Blinds that move, and the Green Ghost Reserve Hand (DD-4.7–4.9, DD-4.33–4.35, DD-2.26; C-14,
G-17, G-28): the two blind systems of DD-4.32, conventional (a marker on the table) and Green Ghost
(nothing on the table until sprung), as G-17 compares them.

A conventional Blind (DD-4.7) is activated as one body: its owner pays for it like an element (Allied:
1 CP, the In Command price, for any Blind, real or Dummy, so the price never tells which; Insurgent:
the first activation of a turn free, a second for an Ambush Token, G-28 (4)), at most two activations
and one move a turn (G-28 (2)). Actions (registered in ``game.SIDE_ACTIONS``):

* ``blind_move`` — Patrol Move (6"), Trail Rush (8", only along a trail) or Sprint (9") of the marker
  (G-17). The marker is a point: it pays the slowest terrain along its path (G-01); its elements'
  stands travel with it, unseen. A Sprint is noise (DD-4.9 (b)): a Blind becomes an Echo; an Echo,
  or a Blind that ends its sprint in an enemy's LOS within the visual cutoff, is Confirmed (C-14).
  Crossing water is noise too (DD-4.9 (b)).
* ``blind_hold`` — Hold/Conceal (DD-4.38, G-32): -1 to spot it until it moves.
* ``spring_reserve`` — the Insurgent spends 1 Ambush Token to place a reserve element from the Reserve
  Hand into cover within 2" of a secret ambush marker or tunnel trapdoor (DD-2.26, DD-4.8); it is on
  the table, Confirmed, at once.

A real Blind's elements may also fire or assault from under it (``game.FROM_BLIND``): they are revealed
first (DD-4.11). ANZAC patrols and LRRP, SEAL or MACV-SOG teams (DD-4.33–4.34) are Allied Blinds like
any other (``stealth = true`` marks a team in the scenario); a meeting engagement puts both sides on
Blinds (DD-4.35, C-21).

The Jungle Ghost builds its Shadow Blinds on :func:`place_blind`.

A Blind that moves at speed (Trail Rush or Sprint) or in the open inside a live enemy Overwatch zone
draws Opportunity Fire (DD-2.17; ``reactions.blind_overwatch``): it freezes there (DD-2.18), is flipped
for the shot, and the rest of its move is its elements' (``reactions.blind_opportunity_fire``).

What it leaves out: an Allied Blind walking into an Insurgent ambush (DD-2.25 names Allied elements;
ambushes watch elements on the table), Fade back to a Blind at the end of a turn (DD-2.32, the fade
hook), Hot Sectors (G-35).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shapely.geometry import LineString, Point

from game.rules import detection
from game.rules.command import activation_costs
from game.rules.errors import IllegalAction
from game.rules.game import ACTION_KINDS, FROM_BLIND, QUIET_FROM_BLIND, SideActionKind, register_side
from game.rules.memo import table_memo
from game.rules.movement import MODES
from game.rules.offers import Items, Offer
from game.rules.state import Blind, Element, Stand, base_of, disc
from game.world import shapes

if TYPE_CHECKING:
    from game.rules.game import Game


# -- the Blind as an activation unit --------------------------------------------------------------------
def counts(g: Game, b: Blind) -> tuple[int, int]:
    """(activations, moves) this turn (G-28 (2))."""
    if b.act_turn != g.state.turn:
        return 0, 0
    return b.activations, b.move_actions


@table_memo(lambda b: b.id)
def contents(g: Game, b: Blind) -> list[Element]:
    return [g.state.elements[e] for e in b.elements if e in g.state.elements and g.state.living(g.state.elements[e])]


def price(g: Game, b: Blind) -> dict | None:
    """What activating this Blind costs now, or None if it cannot activate (G-28)."""
    return _price(g, b, counts(g, b)[0], contents(g, b))


def _price(g: Game, b: Blind, acts: int, els: list[Element]) -> dict | None:
    """:func:`price` from the Blind's activations this turn and the elements under it."""
    acts = max([acts] + [e.activations for e in els])
    if acts >= g.book.turn.max_activations:
        return None
    pool = g.state.sides[b.side]
    if b.side == "allied":
        cost = g.book.command.cost_in_command
        if pool.cp < cost:
            return None
        return {"cost": cost, "tokens": 0, "clause": "DD-2.6; G-17"}
    tokens = 0 if acts == 0 else g.book.turn.second_activation_tokens
    if tokens > pool.ambush_tokens:
        return None
    return {"cost": 0, "tokens": tokens, "clause": "G-28 (4); G-17"}


def can_act(g: Game, side: str) -> bool:
    """Can the side do anything with its Blinds or Reserve Hand now? (Game.can_activate)"""
    if any(b.side == side and price(g, b) is not None for b in g.state.blinds.values()):
        return True
    return bool(SpringReserve().offers(g, side))


def _pay(g: Game, b: Blind, cost: dict, move: bool) -> None:
    pool = g.state.sides[b.side]
    turn = g.state.turn
    if b.act_turn != turn:
        b.act_turn, b.activations, b.move_actions = turn, 0, 0
    b.activations += 1
    b.move_actions += int(move)
    for el in contents(g, b):
        el.activations += 1
        el.move_actions += int(move)
    pool.cp -= cost["cost"]
    pool.ambush_tokens -= cost["tokens"]
    text = f"Blind {b.id} activates"
    if cost["cost"]:
        text += f" for {cost['cost']} CP ({pool.cp} left)"
    if cost["tokens"]:
        text += f" for {cost['tokens']} Ambush Token ({pool.ambush_tokens} left)"
    g.emit({"type": "activate", "blind": b.id, "side": b.side, "cost": cost["cost"], "tokens": cost["tokens"],
            "clause": cost["clause"], "text": text}, visible=b.side)
    g.emit({"type": "activate", "blind": b.id, "side": b.side, "clause": "DD-2.5; G-17",
            "text": f"Blind {b.id} activates"}, visible=g.state.other(b.side))


def _own_blind(g: Game, side: str, action: dict) -> Blind:
    bid = action.get("blind")
    b = g.state.blinds.get(bid) if isinstance(bid, str) else None
    if b is None or b.side != side:
        raise IllegalAction(f"no {side} Blind {bid!r}", "DD-4.7")
    return b


def _price_or_raise(g: Game, b: Blind) -> dict:
    cost = price(g, b)
    if cost is None:
        pool = g.state.sides[b.side]
        raise IllegalAction(f"Blind {b.id} cannot activate again this turn, or its side cannot pay "
                            f"({pool.cp} CP, {pool.ambush_tokens} Ambush Tokens)", "G-28 (2); G-28 (4)")
    return cost


def place_blind(g: Game, side: str, x: float, y: float, elements: list[str] | tuple[str, ...] = (),
                dummy: bool = False, state: str = "blind") -> Blind:
    """Put a new Blind on the table (scenario set-up, Fade, the Jungle Ghost's Shadow Blinds): the
    elements named go under it (off the table, their stands carried to the marker) and the public
    learns only that a marker appeared. Returns the Blind."""
    s = g.state
    s.next_blind += 1
    bid = f"bl{s.next_blind}"
    while bid in s.blinds:
        s.next_blind += 1
        bid = f"bl{s.next_blind}"
    b = Blind(bid, side, float(x), float(y), bool(dummy) or not elements, sorted(elements), state=state)
    for eid in b.elements:
        el = s.elements[eid]
        stands = s.living(el)
        if stands:
            cx, cy = detection.centre_of(stands)
            for st in stands:
                st.x, st.y = round(st.x - cx + x, 4), round(st.y - cy + y, 4)
        el.blind, el.reserve = bid, False
    s.blinds[bid] = b
    g.emit({"type": "blind_placed", "blind": bid, "side": side, "x": b.x, "y": b.y, "state": b.state,
            "clause": "DD-4.7", "text": f"A Blind appears: {bid}"})
    return b


# -- moving a Blind -------------------------------------------------------------------------------------
def allowance(g: Game, b: Blind, mode: str, path: LineString | Point | None = None) -> float:
    """The marker's allowance for a move along ``path`` (a point, or None for where it stands: the
    terrain under the marker): the mode's inches, halved when a Winded element is under it (DD-3.7),
    cut by the slowest terrain it passes (G-01)."""
    m = g.book.movement
    base = {"patrol": m.patrol, "trail_rush": m.trail_rush, "sprint": m.sprint}[mode]
    if any(e.winded_slow for e in contents(g, b)):
        base /= 2.0
    if mode == "trail_rush":
        return base
    radius = detection.rules().spotting.marker_radius
    if path is None or isinstance(path, Point):
        x, y = (b.x, b.y) if path is None else (path.x, path.y)
        terrains = g.table.terrain_along(disc(x, y, radius), key=("disc", x, y, radius))
    else:
        terrains = g.table.terrain_along(path.buffer(radius))
    from game.rules.weather import unfordable

    if unfordable(g, [t.id for t in terrains]):
        return 0.0  # G-07 (1): the monsoon makes streams unfordable, for a marker as for its stands
    return min(t.allowance(base) for t in terrains)


def _xy(value: Any, name: str) -> tuple[float, float]:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value)):
        raise IllegalAction(f"'{name}' must be [x, y] in inches", "DD-2.8")
    return float(value[0]), float(value[1])


@dataclass(frozen=True)
class BlindMovePlan:
    """A Blind move that passed every check (``BlindMove.check``)."""

    blind: Blind
    mode: str
    cost: dict
    elements: list[Element]
    to: tuple[float, float]
    path: LineString | Point
    radius: float


class BlindMove(SideActionKind):
    """Move a Blind (G-17): the marker and everything under it. Its ``offers`` also list what the
    elements under a real Blind may do from there: fire or assault, which reveals them (DD-4.11)."""

    type = "blind_move"

    def offers(self, g: Game, side: str) -> list[dict]:
        out: list[dict] = []
        for b in g.state.blinds.values():
            if b.side != side:
                continue
            acts, moves = counts(g, b)
            els = contents(g, b)
            cost = _price(g, b, acts, els)
            if cost is None:
                continue
            moved = moves > 0 or any(e.move_actions >= g.book.turn.max_move_actions for e in els)
            # what the marker's offers read besides the Blind and the table: its price, the move used
            # this turn, and its elements' Pinned (no Sprint) and Winded (half moves) marks
            marks = (tuple(e.pinned for e in els), tuple(e.winded_slow for e in els))
            out += g.kept(b, ("marker", *cost.values(), moved, marks),
                          functools.partial(self._marker, g, b, cost, moved))
            if b.dummy:
                continue
            pool = g.state.sides[side]
            for el in els:
                opts = [o for o in activation_costs(g, el) if not o["emergency"]
                        and o["cost"] <= pool.cp + (0 if side == "allied" else 10**6)
                        and o["tokens"] <= pool.ambush_tokens]
                for opt in opts:
                    out += g.kept(el, ("from_blind", b.id, moved, *opt.values()),
                                  functools.partial(self._from_blind, g, b, el, opt, moved))
        return out

    def _marker(self, g: Game, b: Blind, cost: dict, moved: bool) -> list[dict]:
        """The Blind's own moves and Hold/Conceal."""
        pr = f"{cost['cost']} CP" if b.side == "allied" else (
            f"{cost['tokens']} Ambush Token" if cost["tokens"] else "free")
        common = {"blind": b.id, "cost": cost["cost"], "tokens": cost["tokens"], "cost_clause": cost["clause"]}
        out = []
        if not moved:
            els = contents(g, b)
            for mode in ("patrol", "trail_rush", "sprint"):
                if mode == "sprint" and any(e.pinned for e in els):
                    continue
                if mode == "trail_rush" and not g.table.point_on_trail(b.x, b.y):
                    continue
                name, clause = MODES[mode]
                reach = allowance(g, b, mode)
                out.append(Offer({"type": self.type, "mode": mode, **common, "clause": f"{clause}; G-17",
                                  "label": f"Blind {b.id}: {name} up to {reach:g}\" ({pr})",
                                  "params": Offer({"to": Offer({"kind": "point", "max": reach, "from": Items([b.x, b.y]),
                                                                "doc": "the marker's new position"})})}))
        out.append(Offer({"type": "blind_hold", **common, "clause": "DD-4.38; G-32",
                          "label": f"Blind {b.id}: Hold / Conceal ({pr})", "params": Offer()}))
        return out  # read-only as made (game.rules.offers)

    def _from_blind(self, g: Game, b: Blind, el: Element, opt: dict, moved: bool) -> list[dict]:
        """What an element under a real Blind may do from there (``game.FROM_BLIND``)."""
        epr = f"{opt['cost']} CP" if el.side == "allied" else (
            f"{opt['tokens']} Ambush Token" if opt["tokens"] else "free")
        ecommon = {"element": el.id, "cost": opt["cost"], "tokens": opt["tokens"],
                   "emergency": False, "cost_clause": opt["clause"], "from_blind": b.id}
        out = []
        never = g.never_offered(el)  # (``ActionKind.possible``: as for the element's own offers)
        for kind_id in sorted(FROM_BLIND):
            kind = ACTION_KINDS.get(kind_id)
            if kind is None or kind_id in never or (kind.is_move and moved):
                continue
            for a in kind.offers(g, el, ecommon, epr):
                if kind_id not in QUIET_FROM_BLIND:
                    a["label"] = a["label"] + " — reveals the Blind (DD-4.11)"
                out.append(a)
        return out

    def check(self, g: Game, side: str, action: dict) -> BlindMovePlan:
        """Every check of a Blind's move, nothing changed: the plan ``act`` carries out."""
        b = _own_blind(g, side, action)
        mode = action.get("mode")
        if mode not in ("patrol", "trail_rush", "sprint"):
            raise IllegalAction(f"unknown movement mode {mode!r} for a Blind (patrol, trail_rush, sprint)", "G-17")
        cost = _price_or_raise(g, b)
        els = contents(g, b)
        _, moves = counts(g, b)
        if moves > 0 or any(e.move_actions >= g.book.turn.max_move_actions for e in els):
            raise IllegalAction(f"Blind {b.id} has already moved this turn", "G-28 (2)")
        if mode == "sprint" and any(e.pinned for e in els):
            raise IllegalAction(f"Blind {b.id} holds a Pinned element and cannot Sprint", "G-32")
        tx, ty = _xy(action.get("to"), "to")
        r = detection.rules().spotting.marker_radius
        disc = Point(tx, ty).buffer(r)
        if not g.table.within_table(disc):
            raise IllegalAction(f"Blind {b.id} would end off the table", "DD-1.2")
        path: LineString | Point = LineString([(b.x, b.y), (tx, ty)]) if (tx, ty) != (b.x, b.y) else Point(b.x, b.y)
        dist = round(math.hypot(tx - b.x, ty - b.y), 2)
        if mode == "trail_rush" and not g.table.on_trail(path):
            raise IllegalAction("Trail Rush needs the whole move along a trail", "DD-3.2")
        reach = allowance(g, b, mode, path)
        if dist > round(reach, 2) + 1e-9:
            raise IllegalAction(f"Blind {b.id} would move {dist:.2f}\" but a {MODES[mode][0]} allows "
                                f"{reach:.2f}\" here", f"{MODES[mode][1]}; G-01")
        for st in g.state.side_stands(g.state.other(side)):
            if shapes.overlap(base_of(g.book, st), disc) > 1e-6:
                raise IllegalAction(f"Blind {b.id} would end on an enemy stand", "DD-3.20")
        dx, dy = tx - b.x, ty - b.y
        for el in els:
            for st in g.state.living(el):
                moved = Stand(**{**st.__dict__, "x": st.x + dx, "y": st.y + dy})
                if not g.table.within_table(base_of(g.book, moved)):
                    raise IllegalAction(f"Blind {b.id} is too close to the edge: '{st.id}' would be off the "
                                        "table", "DD-1.2")
        return BlindMovePlan(b, mode, cost, els, (tx, ty), path, r)

    def act(self, g: Game, side: str, action: dict) -> None:
        self.resolve(g, side, action, self.check(g, side, action))

    def resolve(self, g: Game, side: str, action: dict, p: BlindMovePlan) -> None:
        """Pay for and carry out a checked Blind move (G-17)."""
        from game.rules.reactions import blind_opportunity_fire, blind_overwatch

        b, mode, cost, els, (tx, ty), path, r = p.blind, p.mode, p.cost, p.elements, p.to, p.path, p.radius
        _pay(g, b, cost, move=True)
        wet = any(t.water for t in g.table.terrain_along(path.buffer(r)))
        frm = [b.x, b.y]
        # DD-2.17: a Blind at speed or in the open inside a live Overwatch zone is frozen there (DD-2.18)
        caught = blind_overwatch(g, b, mode, (tx, ty))
        if caught is not None:
            tx, ty = caught[1]
        weather_winds = None
        if mode == "sprint":
            from game.rules.weather import sprint_winds

            # G-07 (1) the monsoon's open ground as Mud, (6) Scorching Heat: the marker's men as on foot
            crossed = g.table.terrain_along(LineString([(b.x, b.y), (tx, ty)]).buffer(detection.rules().spotting.marker_radius)) \
                if (b.x, b.y) != (tx, ty) else []
            weather_winds = sprint_winds(g, sorted({t.id for t in crossed}))
        dx, dy = tx - b.x, ty - b.y
        b.x, b.y = round(tx, 4), round(ty, 4)
        b.conceal = False
        for el in els:
            el.last_move = mode
            el.conceal = False
            el.winded_slow = False
            for st in g.state.living(el):
                st.x, st.y = round(st.x + dx, 4), round(st.y + dy, 4)
            if mode == "sprint":
                why = "sprinted two turns running" if el.sprinted_last_turn else weather_winds
                if why and not el.winded:
                    el.winded = el.winded_slow = True
                    g.emit({"type": "status", "element": el.id, "status": "winded", "on": True,
                            "clause": "DD-3.6" + ("" if el.sprinted_last_turn else "; G-07"),
                            "text": f"{el.name} is Winded ({why})"}, visible=side)
                el.sprinted_this_turn = True
        g.emit({"type": "blind_move", "blind": b.id, "side": side, "mode": mode, "from": frm, "to": [b.x, b.y],
                "clause": f"{MODES[mode][1]}; G-17", "text": f"Blind {b.id}: {MODES[mode][0]}"})
        if caught is not None:  # flipped for the shot, then the rest of the move (DD-2.19–2.23)
            blind_opportunity_fire(g, b, caught[0], mode, (round(p.to[0] - b.x, 4), round(p.to[1] - b.y, 4)))
            return
        if mode == "sprint":
            b.sprint_turn = g.state.turn
            detection.noise(g, b, "sprint", "DD-4.9 (b); DD-2.10; C-14")
            if b.id in g.state.blinds and detection.sees_marker(g, b, detection.observers_of(g, side)):
                detection.reveal(g, b, "it ends a sprint within an enemy's visual cutoff", "DD-2.10; C-14")
        if wet and b.id in g.state.blinds:
            detection.noise(g, b, "water", "DD-4.9 (b)")


class BlindHold(SideActionKind):
    """Hold/Conceal for a Blind (DD-4.38, G-32): no move; -1 to spot it until it moves."""

    type = "blind_hold"

    def check(self, g: Game, side: str, action: dict) -> tuple[Blind, dict]:
        b = _own_blind(g, side, action)
        return b, _price_or_raise(g, b)

    def act(self, g: Game, side: str, action: dict) -> None:
        self.resolve(g, side, action, self.check(g, side, action))

    def resolve(self, g: Game, side: str, action: dict, plan: tuple[Blind, dict]) -> None:
        b, cost = plan
        _pay(g, b, cost, move=False)
        b.conceal = True
        for el in contents(g, b):
            el.conceal = True
        g.emit({"type": "blind_hold", "blind": b.id, "side": side, "clause": "DD-4.38; G-32",
                "text": f"Blind {b.id} holds and conceals"})


# -- the Reserve Hand (DD-4.8, DD-2.26) -----------------------------------------------------------------
def _in_cover(g: Game, st: Stand) -> bool:
    return g.table.cover_under(base_of(g.book, st)).cover in ("light", "medium", "heavy")


def reserve_placement(g: Game, el: Element, point: dict) -> dict[str, tuple[float, float, float]] | None:
    """Where a reserve element's stands go when sprung at ``point`` (DD-2.26): the stands keep their
    layout, every base within 2" of the point and in cover, on a legal spot (shifted in 0.5" rings)."""
    stands = g.state.living(el)
    if not stands:
        return None
    reach = g.book.command.coherency  # DD-2.26: "within 2\"" (the same 2" as coherency)
    cx, cy = detection.centre_of(stands)
    px, py = point["x"], point["y"]
    pt = Point(px, py)
    steps = [(0.0, 0.0)]
    for r in (0.5, 1.0, 1.5, 2.0):
        n = max(8, int(round(2 * math.pi * r / 0.5)))
        steps += [(r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n)) for k in range(n)]
    for ox, oy in steps:
        moved = {s.id: Stand(**{**s.__dict__, "x": round(s.x - cx + px + ox, 4), "y": round(s.y - cy + py + oy, 4)})
                 for s in stands}
        if not all(base_of(g.book, m).distance(pt) <= reach + 1e-9 and _in_cover(g, m) for m in moved.values()):
            continue
        if g.placement_ok(el, moved):
            return {sid: (m.x, m.y, m.facing) for sid, m in moved.items()}
    return None


def _from_network(g: Game, el: Element, point: dict) -> tuple[str, str] | None:
    """Why an element in the tunnel network may not spring at ``point``, or None (DD-9B.4–9B.5): it went
    down into the tunnels, so it comes up only at an open tunnel trapdoor (and, with the Tunnel Warfare
    module, only by crawling to a surface section, TUN-8); a collapsed or gassed trapdoor is unusable
    (DD-9B.7, G-35)."""
    from game.rules import tunnels

    if tunnels.network(g) is None:
        return None
    if tunnels.section_of(g, el.id) is None:
        if point["kind"] == "tunnel" and point["id"] not in {p["id"] for p in tunnels.fade_entrances(g, [point])}:
            return f"trapdoor {point['id']} is collapsed or gassed", "DD-9B.7; G-35"
        return None
    if tunnels.network(g).module:
        return f"{el.name} is in the tunnels: it crawls to a surface section to come up", "TUN-8"
    if point["kind"] != "tunnel" or point["id"] not in {p["id"] for p in tunnels.fade_entrances(g, [point])}:
        return f"{el.name} is in the tunnels: it comes up at an open tunnel entrance", "DD-9B.5"
    return None


class SpringReserve(SideActionKind):
    """Spring a Green Ghost reserve (DD-2.26, DD-4.8): 1 Ambush Token places a reserve element from the
    Reserve Hand into cover within 2" of an ambush marker or tunnel trapdoor."""

    type = "spring_reserve"

    def _tokens(self, g: Game) -> int:
        from game.rules.fire import combat

        return combat().ambush.tokens

    def offers(self, g: Game, side: str) -> list[dict]:
        s = g.state
        if side != "insurgent" or s.sides[side].ambush_tokens < self._tokens(g) or not s.ambush_points:
            return []
        out = []
        for el in s.elements.values():
            if el.side != side or not el.reserve or not s.living(el):
                continue
            points = [p["id"] for p in s.ambush_points
                      if _from_network(g, el, p) is None and reserve_placement(g, el, p) is not None]
            if points:
                out.append({"type": self.type, "element": el.id, "cost": 0, "tokens": self._tokens(g),
                            "clause": "DD-2.26; DD-4.8",
                            "label": f"Spring {el.name} from the Reserve Hand ({self._tokens(g)} Ambush Token)",
                            "params": {"point": {"kind": "choice", "choices": points,
                                                 "doc": "the ambush marker or tunnel trapdoor (DD-2.26)"}}})
        return out

    def check(self, g: Game, side: str, action: dict) -> tuple[Element, int, dict, dict]:
        """Every check of springing a reserve, nothing changed: the element, the tokens it costs, the
        point and where its stands go."""
        s = g.state
        if side != "insurgent":
            raise IllegalAction("only the Insurgent side holds a Reserve Hand", "DD-4.8")
        eid = action.get("element")
        el = s.elements.get(eid) if isinstance(eid, str) else None
        if el is None or el.side != side or not el.reserve or not s.living(el):
            raise IllegalAction(f"no element {eid!r} in the Reserve Hand", "DD-4.8")
        need = self._tokens(g)
        if s.sides[side].ambush_tokens < need:
            raise IllegalAction(f"springing a reserve costs {need} Ambush Token; "
                                f"{s.sides[side].ambush_tokens} left", "DD-2.26")
        pid = action.get("point")
        point = next((p for p in s.ambush_points if p["id"] == pid), None)
        if point is None:
            raise IllegalAction(f"no ambush marker or trapdoor {pid!r}", "DD-2.26")
        why = _from_network(g, el, point)
        if why is not None:
            raise IllegalAction(why[0], why[1])
        spots = reserve_placement(g, el, point)
        if spots is None:
            raise IllegalAction(f"no cover within 2\" of {pid} where {el.name} fits", "DD-2.26")
        return el, need, point, spots

    def act(self, g: Game, side: str, action: dict) -> None:
        self.resolve(g, side, action, self.check(g, side, action))

    def resolve(self, g: Game, side: str, action: dict, plan: tuple[Element, int, dict, dict]) -> None:
        s = g.state
        el, need, point, spots = plan
        s.sides[side].ambush_tokens -= need
        g.emit({"type": "tokens", "side": side, "spent": need, "tokens": s.sides[side].ambush_tokens,
                "clause": "DD-2.26", "text": f"{need} Ambush Token spent to spring {el.name} "
                                             f"({s.sides[side].ambush_tokens} left)"}, visible=side)
        el.reserve = False
        placed = []
        for st in s.living(el):
            st.x, st.y, st.facing = spots[st.id]
            placed.append({"id": st.id, "type": st.type, "x": st.x, "y": st.y, "facing": st.facing})
        g.emit({"type": "reserve_deployed", "element": el.id, "side": side, "name": el.name, "kind": el.kind,
                "point": point["kind"], "stands": placed, "clause": "DD-2.26; DD-4.8",
                "text": f"{el.name} appears from the jungle"})


for _kind in (BlindMove(), BlindHold(), SpringReserve()):
    register_side(_kind)
