"""Reactions during the enemy's move: Opportunity Fire from Overwatch, the Ambush, the water scramble
(DD-2.13, DD-2.17–2.30, DD-3.3, DD-3.19, DD-5.23–5.24; C-17, C-23, C-24; G-29, G-32, G-34).

Engine policy (docs/combat.md): the engine asks nothing in the middle of a move. A reacting side
declares beforehand. Opportunity Fire is declared by setting an Overwatch marker (Set Overwatch, a
90° forward arc or a 2"-wide terrain corridor). An Insurgent element that is concealed (Hold/Conceal)
or under a Blind springs an ambush by itself when its side holds an Ambush Token and an Allied move
comes within 6" of it or into its line of sight (DD-2.25) at a point where it can fire.

``interrupt(g, plan)`` is called by ``movement.apply_move`` before the stands move. It walks the move:
the earliest trigger freezes every stand of the mover at the same fraction of its path (Overwatch: the
midpoint of the stretch inside the watched zone, DD-2.18, DD-5.23; Ambush: the first inch-step at
which the ambusher is triggered and can fire, DD-2.27), resolves the reaction, and either lets the
move go on (looking for the next trigger) or ends it there. In solo play the Jungle Ghost's
A chapter's move listener (``chapters.move_listeners``: the Jungle Ghost's ``on_move``) is asked at each inch-step of an Allied move which of its Echoes would react there
(``probe=True``, no dice); the first such point freezes the move and the hook rolls the Ambush Reaction
Roll (DD-10.7, G-24 B): the Spider Waits lets the move go on, an AMBUSH! ends it there.

What it leaves out: Blinds moving at speed triggering Overwatch (DD-2.17; Blinds move in chapter 4),
Hot Sectors and spider-hole deployment (DD-2.26, G-35).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from game.rules import fire
from game.rules.chapters import move_listeners
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.state import Element, Stand
from game.world.features import apart

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.rules.movement import Plan


# -- Overwatch markers --------------------------------------------------------------------------------
def overwatch_active(g: Game, el: Element) -> dict | None:
    """The element's Overwatch marker if it still stands (G-32: until it fires, the unit next
    activates, or the unit is Pinned)."""
    m = el.overwatch
    if m is None or el.pinned or not g.state.living(el):
        return None
    s = g.state
    if s.turn == m["turn"] and el.activations == m["activations"]:
        return m
    if s.turn > m["turn"] and el.activations == 0:
        return m
    return None


def overwatch_marker_view(g: Game, el: Element) -> dict | None:
    """The live marker as a view shows it (a copy), with what :func:`watched_zone` covers, for drawing:
    an arc's ``arc`` (degrees) and ``reach`` (the longest range of the element's stands), a corridor's
    ``width``."""
    m = overwatch_active(g, el)
    if m is None:
        return None
    ow = fire.combat().overwatch
    if m["kind"] == "corridor":
        return {**m, "width": ow.corridor_width}
    return {**m, "arc": ow.arc, "reach": max(g.book.stands[s.type].range for s in g.state.living(el))}


def clear_overwatch(g: Game, el: Element, why: str, clause: str) -> None:
    if el.overwatch is None:
        return
    el.overwatch = None
    g.emit({"type": "status", "element": el.id, "status": "overwatch", "on": False, "clause": clause,
            "text": f"{el.name} loses its Overwatch marker: {why}"}, visible=g.visibility_of_element(el))


def _sector(x: float, y: float, facing: float, arc: float, radius: float) -> Polygon:
    half = math.radians(arc / 2.0)
    mid = math.radians(facing)
    pts = [(x, y)]
    for k in range(17):
        a = mid - half + 2 * half * k / 16
        pts.append((x + radius * math.cos(a), y + radius * math.sin(a)))
    return Polygon(pts)


def watched_zone(g: Game, el: Element, marker: dict):
    """The ground an Overwatch marker covers (DD-2.13): a 90° arc out to each stand's range, or the
    declared corridor."""
    ow = fire.combat().overwatch
    if marker["kind"] == "corridor":
        return LineString([tuple(marker["from"]), tuple(marker["to"])]).buffer(ow.corridor_width / 2.0)
    arcs = tuple((s.x, s.y, g.book.stands[s.type].range) for s in g.state.living(el))
    # kept for the game: the same marker watches through many moves
    return g.measure(("overwatch arc", marker["facing"], arcs),
                     lambda: unary_union([_sector(x, y, marker["facing"], ow.arc, r) for x, y, r in arcs]))


class SetOverwatch(ActionKind):
    """Set Overwatch, "Sights on Sector" (DD-2.13, DD-5.23): no move and no fire; declare a 90° arc
    (``facing``) or a corridor (``corridor``: [[x, y], [x, y]])."""

    type = "set_overwatch"
    is_move = False

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        if el.pinned:
            return []
        stands = g.state.living(el)
        ow = fire.combat().overwatch
        # what the client draws while aiming: the arc and reach watched_zone() will use, and the corridor width
        reach = max(g.book.stands[s.type].range for s in stands)
        return [{"type": self.type, **common, "clause": "DD-2.13; DD-5.23",
                 "label": f"{el.name}: Set Overwatch ({price})",
                 "params": {
                     "facing": {"kind": "angle", "optional": True, "default": stands[0].facing,
                                "arc": ow.arc, "reach": reach,
                                "doc": f"centre of the {ow.arc:g}° arc, degrees"},
                     "corridor": {"kind": "segment", "optional": True, "width": ow.corridor_width,
                                  "doc": f"instead of an arc: [[x, y], [x, y]], a {ow.corridor_width:g}\"-wide "
                                         "corridor"},
                 }}]

    def check(self, g: Game, el: Element, action: dict) -> dict:
        if el.pinned:
            raise IllegalAction(f"{el.name} is Pinned and cannot Set Overwatch", "G-32")
        corridor = action.get("corridor")
        if corridor is not None:
            ok = (isinstance(corridor, (list, tuple)) and len(corridor) == 2 and all(
                isinstance(p, (list, tuple)) and len(p) == 2
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in p)
                for p in corridor))
            if not ok or tuple(corridor[0]) == tuple(corridor[1]):
                raise IllegalAction("'corridor' must be two different points [[x, y], [x, y]]", "DD-2.13")
            return {"kind": "corridor", "from": [float(v) for v in corridor[0]],
                    "to": [float(v) for v in corridor[1]]}
        facing = action.get("facing", g.state.living(el)[0].facing)
        if not isinstance(facing, (int, float)) or isinstance(facing, bool) or not math.isfinite(facing):
            raise IllegalAction("'facing' must be a number of degrees", "DD-2.13")
        return {"kind": "arc", "facing": float(facing) % 360}

    def resolve(self, g: Game, el: Element, action: dict, plan: dict) -> None:
        el.overwatch = {**plan, "turn": g.state.turn, "activations": el.activations}
        el.conceal = False
        what = ("a 90° arc facing " + f"{plan['facing']:g}°") if plan["kind"] == "arc" else "a corridor"
        g.emit({"type": "status", "element": el.id, "status": "overwatch", "on": True, "marker": el.overwatch,
                "clause": "DD-2.13; DD-5.23", "text": f"{el.name} sets Overwatch on {what}"},
               visible=g.visibility_of_element(el))


register(SetOverwatch())


# -- the move interrupt -------------------------------------------------------------------------------
def _positions(g: Game, plan: Plan, t: float) -> dict[str, tuple[float, float, float]]:
    out = {}
    for sid, (x, y, f) in plan.moves.items():
        s = g.state.stands[sid]
        out[sid] = (round(s.x + (x - s.x) * t, 4), round(s.y + (y - s.y) * t, 4), f if t >= 1 else s.facing)
    return out


class _Placed:
    """Temporarily put the mover's stands at a fraction of their path (restored on exit)."""

    def __init__(self, g: Game, plan: Plan, t: float):
        self.g, self.plan, self.t = g, plan, t

    def __enter__(self):
        self.saved = {}
        for sid, (x, y, f) in _positions(self.g, self.plan, self.t).items():
            s = self.g.state.stands[sid]
            self.saved[sid] = (s.x, s.y, s.facing)
            s.x, s.y, s.facing = x, y, f
        return self

    def __exit__(self, *exc):
        for sid, (x, y, f) in self.saved.items():
            s = self.g.state.stands[sid]
            s.x, s.y, s.facing = x, y, f
        return False


def closest_target(g: Game, shooter_el: Element, mover: Element) -> Stand | None:
    """The mover's stand a reacting element fires at: its closest visible stand in range."""
    best = None
    for t in g.state.living(mover):
        for s in g.state.living(shooter_el):
            st = g.book.stands[s.type]
            if st.fp <= 0:
                continue
            d = fire.gap(g, s, t)
            if d <= st.range and g.line_of_sight(s, t).visible:
                if best is None or (d, t.id) < best[0]:
                    best = ((d, t.id), t)
    return best[1] if best else None


def _overwatch_candidates(g: Game, plan: Plan) -> list[tuple[float, str, str]]:
    """(t, "overwatch", element id) for each live Overwatch marker the move crosses (DD-2.17)."""
    mover = plan.element
    out = []
    for el in g.state.elements.values():
        if el.side == mover.side or overwatch_active(g, el) is None:
            continue
        zone = watched_zone(g, el, el.overwatch)
        box = zone.bounds
        ts = []
        for sid, (x, y, _) in plan.moves.items():
            s = g.state.stands[sid]
            if not s.alive or (s.x, s.y) == (x, y):
                continue
            if apart((min(s.x, x), min(s.y, y), max(s.x, x), max(s.y, y)), box):
                continue  # the path cannot meet the zone
            path = LineString([(s.x, s.y), (x, y)])
            inside = path.intersection(zone)
            if inside.is_empty or inside.length <= 1e-6:
                continue
            parts = getattr(inside, "geoms", [inside])
            first = min(parts, key=lambda p: path.project(Point(p.coords[0])))
            a = path.project(Point(first.coords[0]))
            b = path.project(Point(first.coords[-1]))
            a, b = min(a, b), max(a, b)
            ts.append(((a + b) / 2.0) / path.length)
        if ts:
            out.append((round(min(ts), 4), "overwatch", el.id))
    return out


def _ambushers(g: Game, mover: Element) -> list[Element]:
    """Insurgent elements ready to spring an ambush on an Allied mover (DD-2.25, G-32 policy)."""
    if mover.side != "allied":
        return []
    side = g.state.sides["insurgent"]
    if side.ambush_tokens < fire.combat().ambush.tokens:
        return []
    return [el for el in g.state.elements.values()
            if el.side == "insurgent" and (el.conceal or el.blind is not None) and not el.pinned
            and g.state.living(el)]


def _samples(g: Game, plan: Plan) -> list[float]:
    """Fractions of a move at which reactions are looked for: every ``sample`` inches of the longest
    stand's path, ending at the end of the move (none for a move that goes nowhere)."""
    length = max((math.hypot(x - g.state.stands[sid].x, y - g.state.stands[sid].y)
                  for sid, (x, y, _) in plan.moves.items() if g.state.stands[sid].alive), default=0.0)
    if length <= 1e-9:
        return []
    n = max(1, math.ceil(length / fire.combat().ambush.sample))
    return [k / n for k in range(1, n + 1)]


def _ambush_candidate(g: Game, plan: Plan, done: set[str]) -> tuple[float, str, str] | None:
    """The first point along the move where a waiting ambusher is triggered and can fire (DD-2.25)."""
    amb = [el for el in _ambushers(g, plan.element) if el.id not in done]
    if not amb:
        return None
    a = fire.combat().ambush
    for t in _samples(g, plan):
        with _Placed(g, plan, t):
            for el in sorted(amb, key=lambda e: e.id):
                mine = g.state.living(el)
                theirs = g.state.living(plan.element)
                near = any(fire.gap(g, s, m) <= a.trigger for s in mine for m in theirs)
                seen = near or any(g.line_of_sight(s, m).visible for s in mine for m in theirs)
                if seen and closest_target(g, el, plan.element) is not None:
                    return (round(t, 4), "ambush", el.id)
    return None


def _ghost_candidate(g: Game, plan: Plan) -> tuple[float, str, str] | None:
    """The first point along an Allied move where a chapter's move listener (the Jungle Ghost's
    ``on_move``, ``chapters.move_listeners``) says an Echo would make its Ambush Reaction Roll (DD-10.7:
    the roll interrupts the move)."""
    hooks = move_listeners(g)
    if not hooks or plan.element.side != "allied":
        return None
    hook = hooks[0]
    for t in _samples(g, plan):
        with _Placed(g, plan, t):
            echoes = hook(g, plan.element, probe=True)
        if echoes:
            return (round(t, 4), "ghost", echoes[0])
    return None


def interrupt(g: Game, plan: Plan) -> str | None:
    """Walk a move for reactions (DD-2.17–2.30). Returns None when the move goes on to its end, or
    "frozen" / "activation_over" when it ends at a freeze point."""
    mover = plan.element
    _note_bank(g, mover)
    fired: set[str] = set()
    while g.state.living(mover):
        cands = [c for c in _overwatch_candidates(g, plan) if c[2] not in fired]
        amb = _ambush_candidate(g, plan, fired)
        if amb is not None:
            cands.append(amb)
        ghost = _ghost_candidate(g, plan)
        if ghost is not None:
            cands.append(ghost)
        cands.sort(key=lambda c: (c[0], {"ambush": 0, "ghost": 1}.get(c[1], 2), c[2]))
        chosen = None
        for t, kind, eid in cands:
            if kind == "ghost":
                chosen = (t, kind, eid)
                break
            with _Placed(g, plan, t):
                if closest_target(g, g.state.elements[eid], mover) is not None:
                    chosen = (t, kind, eid)
                    break
        if chosen is None:
            return None
        t, kind, eid = chosen
        fired.add(eid)
        _freeze(g, plan, t, kind)
        if kind == "ghost":
            # DD-10.7: the Jungle Ghost rolls for every Echo in trigger distance here; the Spider Waits
            # lets the move go on from this point, an AMBUSH! ends it.
            result = move_listeners(g)[0](g, mover)
        elif kind == "overwatch":
            result = _opportunity_fire(g, plan, g.state.elements[eid])
        else:
            result = _spring_ambush(g, plan, g.state.elements[eid])
        if result is not None:
            return result
    return "frozen"


def _freeze(g: Game, plan: Plan, t: float, kind: str) -> None:
    mover = plan.element
    moved = []
    for sid, (x, y, f) in _positions(g, plan, t).items():
        s = g.state.stands[sid]
        if not s.alive:
            continue
        moved.append({"id": sid, "from": [s.x, s.y, s.facing], "to": [x, y, f]})
        s.x, s.y, s.facing = x, y, f
    clause = {"overwatch": "DD-2.18; DD-5.23", "ghost": "DD-10.7; G-24 B"}.get(kind, "DD-2.27")
    why = {"overwatch": "Opportunity Fire", "ghost": "an Echo stirs: the Ambush Reaction Roll"}.get(kind, "AMBUSH!")
    g.emit({"type": "move", "element": mover.id, "mode": plan.mode, "stands": moved, "frozen": True,
            "reaction": kind, "clause": clause,
            "text": f"{mover.name} is frozen part-way through its move ({why})"},
           visible=g.visibility_of_element(mover))


def _opportunity_fire(g: Game, plan: Plan, ow: Element) -> str | None:
    """DD-2.19–2.23: the Overwatch unit fires its full pool at the frozen mover; a mover that takes a
    hit tests Morale (DD-2.22): on a fail it is Pinned and its move ends here, on a pass it goes on."""
    mover = plan.element
    target = closest_target(g, ow, mover)
    assert target is not None
    col = fire.in_column(g, mover, plan.mode)
    ctx = fire.Context("overwatch", "DD-2.17-2.22; DD-5.23", column=col)
    attack = fire.plan_fire(g, ow, target.id, ctx, check_target=False)
    attack.label = f"{ow.name}: Opportunity Fire at {mover.name}"
    clear_overwatch(g, ow, "it has fired", "DD-2.23")
    out = fire.resolve_attack(g, attack)
    if not g.state.living(mover):
        return "frozen"
    if mover.id in out.pinned:
        return "frozen"
    return None


def _spring_ambush(g: Game, plan: Plan, amb: Element) -> str:
    """DD-2.26–2.30: spend a token, reveal, fire first (+1 within 3", a trail column saves on 6 only),
    then the Allied Discipline Check: pass, drop prone and fire back at -1; fail, Pinned and the
    activation is over. Either way the move ends at the ambush point."""
    from game.rules.morale import morale_test, pin

    a = fire.combat().ambush
    mover = plan.element
    side = g.state.sides["insurgent"]
    side.ambush_tokens -= a.tokens
    if amb.blind is not None:
        from game.rules.detection import reveal_element

        reveal_element(g, amb, "it springs an ambush", "DD-2.26; DD-4.11")
    amb.conceal = False
    # The token pool is private (DESIGN §6): the count goes to the Insurgent side only.
    g.emit({"type": "tokens", "side": "insurgent", "spent": a.tokens, "tokens": side.ambush_tokens,
            "clause": "DD-2.26", "text": f"{a.tokens} Ambush Token spent ({side.ambush_tokens} left)"},
           visible="insurgent")
    g.emit({"type": "ambush", "element": amb.id, "target_element": mover.id,
            "clause": "DD-2.25; DD-2.26; C-23",
            "text": f"AMBUSH! {amb.name} springs on {mover.name} ({a.tokens} Ambush Token spent)"})
    target = closest_target(g, amb, mover)
    assert target is not None
    col = fire.in_column(g, mover, plan.mode)
    ctx = fire.Context("ambush", "DD-2.27-2.29; DD-3.3; C-17", column=col, morale=False)
    attack = fire.plan_fire(g, amb, target.id, ctx, check_target=False)
    attack.label = f"{amb.name} ambushes {mover.name}"
    fire.resolve_attack(g, attack)
    if not g.state.living(mover):
        return "activation_over"
    if morale_test(g, mover, "ambush Discipline Check", "DD-2.30; C-24"):
        g.emit({"type": "note", "element": mover.id, "clause": "DD-2.30",
                "text": f"{mover.name} drops prone and fires back"}, visible="all")
        back = closest_target(g, mover, amb)
        if back is None:
            g.emit({"type": "note", "element": mover.id, "clause": "DD-2.30",
                    "text": f"{mover.name} cannot see the ambushers to fire back"}, visible="all")
        else:
            ret = fire.plan_fire(g, mover, back.id, fire.Context("desperate", "DD-2.30"), check_target=False)
            ret.label = f"{mover.name}: Desperate Return Fire at {amb.name}"
            fire.resolve_attack(g, ret)
    else:
        pin(g, mover, "DD-2.30")
        g.emit({"type": "note", "element": mover.id, "clause": "DD-2.30",
                "text": f"{mover.name} fails its Discipline Check: its activation ends"}, visible="all")
    return "activation_over"


# -- water (DD-3.19) --------------------------------------------------------------------------------
def _in_water(g: Game, el: Element) -> bool:
    return any(any(t.water for t in fire.terrain_at(g, s)) for s in g.state.living(el))


def _note_bank(g: Game, el: Element) -> None:
    if not _in_water(g, el):
        el.bank = {s.id: [s.x, s.y, s.facing] for s in g.state.living(el)}


def after_move(g: Game, plan: Any) -> None:
    """Forget the bank once the element is out of the water (DD-3.19)."""
    if not _in_water(g, plan.element):
        plan.element.bank = None


def scramble(g: Game, el: Element, clause: str) -> bool:
    """DD-3.19: a squad in the water that fails a Morale test goes back to the bank it started from.
    Returns True if it did."""
    if el.bank is None or not _in_water(g, el):
        return False
    moved = {s.id: Stand(**{**s.__dict__, "x": el.bank[s.id][0], "y": el.bank[s.id][1], "facing": el.bank[s.id][2]})
             for s in g.state.living(el) if s.id in el.bank}
    if len(moved) != len(g.state.living(el)) or not g.placement_ok(el, moved):
        return False
    moves = []
    for sid, m in moved.items():
        s = g.state.stands[sid]
        moves.append({"id": sid, "from": [s.x, s.y, s.facing], "to": [m.x, m.y, m.facing]})
        s.x, s.y, s.facing = m.x, m.y, m.facing
    el.bank = None
    g.emit({"type": "retreat", "element": el.id, "stands": moves, "clause": f"DD-3.19; {clause}",
            "text": f"{el.name} fails Morale in the water and scrambles back to its bank"},
           visible=g.visibility_of_element(el))
    return True

