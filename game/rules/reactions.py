"""Reactions during the enemy's move: Opportunity Fire from Overwatch, the Ambush, the water scramble
(DD-2.13, DD-2.17–2.30, DD-3.3, DD-3.19, DD-5.23–5.24; C-17, C-23, C-24; G-29, G-32, G-34).

Engine policy (docs/combat.md): the engine asks nothing in the middle of a move. A reacting side
declares beforehand. Opportunity Fire is declared by setting an Overwatch marker (Set Overwatch, a
90° forward arc or a 2"-wide terrain corridor). An Insurgent element that is concealed (Hold/Conceal)
or under a Blind springs an ambush by itself when its side holds an Ambush Token and an Allied move
comes within 6" of it or into its line of sight (DD-2.25) at a point where it can fire: at the point
its standing Ambush order names (``game.rules.ambush_orders``: the first such point unless told
otherwise; the closest, the first within a distance, the first with its target in the open, or never).

``interrupt(g, plan)`` is called by ``movement.apply_move`` before the stands move. It walks the move:
the earliest trigger freezes every stand of the mover at the same fraction of its path (Overwatch: the
midpoint of the stretch inside the watched zone, DD-2.18, DD-5.23; Ambush: the inch-step its order
names, DD-2.27), resolves the reaction, and either lets the move go on (looking for the next trigger)
or ends it there. A chapter's move listener (``chapters.move_listeners``: in solo play the Jungle
Ghost's ``on_move``) is asked at each inch-step of an Allied move which of its Echoes would react there
(``probe=True``, no dice); the first such point freezes the move and the hook rolls the Ambush Reaction
Roll (DD-10.7, G-24 B): the Spider Waits lets the move go on, an AMBUSH! ends it there.

An unrevealed Blind draws Opportunity Fire too (DD-2.17) when it moves at speed (combat.toml
``[overwatch] blind_speed``: Trail Rush and Sprint, faster than the 6" Patrol Move) or in the open
(``[overwatch] open_ground``, DD-2.20, C-15) across a live enemy Overwatch zone whose stands see and
reach the marker: ``blinds.BlindMove`` asks :func:`blind_overwatch` for the freeze point (at speed the
midpoint of the stretch inside the zone, otherwise the first inch-step of it in the open, DD-2.18).
Engine policy: the Blind is flipped for the shot (as an ambushing Blind is, DD-2.26; DD-4.24: its
miniatures are placed at the marker, a Dummy is discarded), since Opportunity Fire (DD-2.19–2.22) is
rolled at stands and an Echo may not be targeted unresolved (DD-4.10). The Overwatch fires its full
pool at the nearest revealed element; the rest of the move is its elements' (DD-2.22). A Dummy has drawn
the fire for nothing: the marker is spent (DD-2.23).

What it leaves out: Hot Sectors and spider-hole deployment (DD-2.26, G-35); an Allied Blind walking
into an ambush (the ambush watches Allied elements on the table, DD-2.25).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import shapely
from shapely.geometry import LineString, Polygon

from game.rules import fire
from game.rules.chapters import CHAPTERS, chapters
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.state import Blind, Element, Stand, base_of, disc
from game.world import shapes
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
    return shapes.polygon(pts)  # (quicker than Polygon(...), the same shape)


def watched_zone(g: Game, el: Element, marker: dict):
    """The ground an Overwatch marker covers (DD-2.13): a 90° arc out to each stand's range, or the
    declared corridor."""
    ow = fire.combat().overwatch
    if marker["kind"] == "corridor":
        ends = (tuple(marker["from"]), tuple(marker["to"]))
        return g.measure(("overwatch corridor", ends, ow.corridor_width),
                         lambda: _prepared(LineString(ends).buffer(ow.corridor_width / 2.0)))
    arcs = tuple((s.x, s.y, g.book.stands[s.type].range) for s in g.state.living(el))
    # kept for the game: the same marker watches through many moves
    return g.measure(("overwatch arc", marker["facing"], arcs),
                     lambda: _prepared(shapes.union_all([_sector(x, y, marker["facing"], ow.arc, r) for x, y, r in arcs])))


def _prepared(zone):
    """A watched zone made ready for many questions of whether a path meets it (``shapely.prepare``)."""
    shapely.prepare(zone)
    return zone


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


class Placed:
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
    """The mover's stand a reacting element fires at: its closest visible stand in range (the nearest
    pair first, ties by the stand's id). Its sightlines are asked nearest first: the nearest pair's
    alone, since when any is seen it is nearly always that one; when it is not, the rest are traced in
    one batch (``Game.trace_sightlines``) and asked in turn."""
    stands = g.book.stands
    # a Litter Team, a wet M60, a Buttoned Up or Stunned crew does not shoot (DD-7.3)
    shooters = [s for s in g.state.living(shooter_el) if fire.can_shoot(g, s)]
    pairs = [((d, t.id), s, t) for t in g.state.living(mover) for s in shooters
             if (d := fire.gap(g, s, t)) <= stands[s.type].range]
    if not pairs:
        return None
    pairs.sort(key=lambda p: p[0])
    _, s, t = pairs[0]
    if g.line_of_sight(s, t).visible:
        return t
    g.trace_sightlines([(s, t) for _, s, t in pairs[1:]])
    return next((t for _, s, t in pairs[1:] if g.line_of_sight(s, t).visible), None)


def _stretch(path: LineString, zone) -> tuple[float, float] | None:
    """The first stretch of a path inside a watched zone, as (from, to) distances along the path; None
    when the path does not enter it."""
    if not zone.intersects(path):  # (the zone is prepared, ``watched_zone``: quicker than the intersection)
        return None
    inside = shapes.intersection(path, zone)
    if inside.is_empty or inside.length <= 1e-6:
        return None
    parts = getattr(inside, "geoms", [inside])
    first = min(parts, key=lambda p: shapes.locate(path, shapes.point(*shapes.coords(p)[0])))
    ends = shapes.coords(first)
    a = shapes.locate(path, shapes.point(*ends[0]))
    b = shapes.locate(path, shapes.point(*ends[-1]))
    return min(a, b), max(a, b)


def _overwatch_candidates(g: Game, plan: Plan) -> list[tuple[float, str, str]]:
    """(t, "overwatch", element id) for each live Overwatch marker the move crosses (DD-2.17)."""
    mover = plan.element
    out = []
    for el in g.state.elements.values():
        if el.side == mover.side or overwatch_active(g, el) is None:
            continue
        zone = watched_zone(g, el, el.overwatch)
        box = shapes.bounds(zone)
        ts = []
        for sid, (x, y, _) in plan.moves.items():
            s = g.state.stands[sid]
            if not s.alive or (s.x, s.y) == (x, y):
                continue
            if apart((min(s.x, x), min(s.y, y), max(s.x, x), max(s.y, y)), box):
                continue  # the path cannot meet the zone
            path = shapes.segment(s.x, s.y, x, y)
            span = _stretch(path, zone)
            if span is None:
                continue
            a, b = span
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


def samples(g: Game, plan: Plan) -> list[float]:
    """Fractions of a move at which reactions are looked for: every ``sample`` inches of the longest
    stand's path, ending at the end of the move (none for a move that goes nowhere)."""
    length = max((math.hypot(x - g.state.stands[sid].x, y - g.state.stands[sid].y)
                  for sid, (x, y, _) in plan.moves.items() if g.state.stands[sid].alive), default=0.0)
    if length <= 1e-9:
        return []
    n = max(1, math.ceil(length / fire.combat().ambush.sample))
    return [k / n for k in range(1, n + 1)]


def in_open(g: Game, x: float, y: float) -> bool:
    """DD-2.18 "the open kill zone", DD-2.20 open ground, C-15: every terrain at the point is open ground
    (combat.toml ``[overwatch] open_ground``): a paddy or a trail in the open is, a trail in jungle is not."""
    ground = fire.combat().overwatch.open_ground
    probe = Stand("open ground", "", "", "", x, y, 0.0)
    return all(t.id in ground for t in fire.terrain_at(g, probe))


def _ambush_candidate(g: Game, plan: Plan, done: set[str]) -> tuple[float, str, str] | None:
    """The point along the move where a waiting ambusher springs (DD-2.25): each at the point its
    standing order names (``ambush_orders.spring_point``)."""
    from game.rules.ambush_orders import spring_point

    found = spring_point(g, plan, [el for el in _ambushers(g, plan.element) if el.id not in done])
    return None if found is None else (found[0], "ambush", found[1])


def _listeners(g: Game) -> dict[str, Any]:
    """The active chapters' move listeners (``chapters.move_listeners``) by the kind of reaction a move
    frozen for them names: the Jungle Ghost's is "ghost", any other chapter's its id (``booby_traps``)."""
    return {("ghost" if ch.id == "jungle_ghost" else ch.id): ch.on_move for ch in chapters(g) if ch.on_move is not None}


def _ghost_candidates(g: Game, plan: Plan, hooks: dict[str, Any]) -> list[tuple[float, str, str]]:
    """For each move listener, the first point along an Allied move where it says something of its own
    reacts there (the Jungle Ghost: an Echo would make its Ambush Reaction Roll, DD-10.7, which interrupts
    the move; a hidden booby trap under a stand, DD-9B.2)."""
    if not hooks or plan.element.side != "allied":
        return []
    out = []
    for kind, hook in hooks.items():
        for t in samples(g, plan):
            with Placed(g, plan, t):
                echoes = hook(g, plan.element, probe=True)
            if echoes:
                out.append((round(t, 4), kind, echoes[0]))
                break
    return out


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
        hooks = _listeners(g)
        cands += _ghost_candidates(g, plan, hooks)
        cands.sort(key=lambda c: (c[0], 0 if c[1] == "ambush" else 1 if c[1] in hooks else 2, c[1], c[2]))
        chosen = None
        for t, kind, eid in cands:
            if kind in hooks:
                chosen = (t, kind, eid)
                break
            with Placed(g, plan, t):
                if closest_target(g, g.state.elements[eid], mover) is not None:
                    chosen = (t, kind, eid)
                    break
        if chosen is None:
            return None
        t, kind, eid = chosen
        fired.add(eid)
        _freeze(g, plan, t, kind)
        if kind in hooks:
            # DD-10.7: the Jungle Ghost rolls for every Echo in trigger distance here; the Spider Waits
            # lets the move go on from this point, an AMBUSH! ends it. DD-9B.2: a booby trap springs.
            result = hooks[kind](g, mover)
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
    said = getattr(CHAPTERS.get(kind), "freeze", None)  # a listener's chapter says why (booby_traps)
    clause = said[0] if said else {"overwatch": "DD-2.18; DD-5.23", "ghost": "DD-10.7; G-24 B"}.get(kind, "DD-2.27")
    why = said[1] if said else {"overwatch": "Opportunity Fire", "ghost": "an Echo stirs: the Ambush Reaction Roll"}.get(kind, "AMBUSH!")
    g.emit({"type": "move", "element": mover.id, "mode": plan.mode, "stands": moved, "frozen": True,
            "reaction": kind, "clause": clause,
            "text": f"{mover.name} is frozen part-way through its move ({why})"},
           visible=g.visibility_of_element(mover))


def _opportunity_fire(g: Game, plan: Plan, ow: Element) -> str | None:
    """DD-2.19–2.23: the Overwatch unit fires its full pool at the frozen mover; a mover that takes a
    hit tests Morale (DD-2.22): on a fail it is Pinned and its move ends here, on a pass it goes on."""
    from game.rules.crew import reaction_fire

    mover = plan.element
    target = closest_target(g, ow, mover)
    assert target is not None
    col = fire.in_column(g, mover, plan.mode)
    ctx = fire.Context("overwatch", "DD-2.17-2.22; DD-5.23", column=col)
    clear_overwatch(g, ow, "it has fired", "DD-2.23")
    out = reaction_fire(g, ow, target, ctx, f"{ow.name}: Opportunity Fire at {mover.name}")
    if not g.state.living(mover):
        return "frozen"
    if mover.id in out.pinned:
        return "frozen"
    return None


def _spring_ambush(g: Game, plan: Plan, amb: Element) -> str | None:
    """DD-2.26–2.30: spend a token, reveal, fire first (+1 within 3", a trail column saves on 6 only),
    then the Allied Discipline Check: pass, drop prone and fire back at -1; fail, Pinned and the
    activation is over. Either way the move ends at the ambush point.

    Ambushers under a Blind are placed at its marker as it is revealed (DD-4.24), not always where they
    were judged to see the mover: placed so that they see no stand of it in range, they cannot fire
    (DD-2.27), nothing fired calls for the Discipline Check, and the move goes on (None), as after a
    tunnel ambush that cannot see its target (``tunnel_actions``)."""
    from game.rules.ambush_orders import spent
    from game.rules.crew import reaction_fire
    from game.rules.morale import morale_test, pin

    a = fire.combat().ambush
    mover = plan.element
    side = g.state.sides["insurgent"]
    side.ambush_tokens -= a.tokens
    spent(g, amb)  # its standing order is used up
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
    if target is None:
        g.emit({"type": "note", "element": amb.id, "clause": "DD-2.27; DD-4.24",
                "text": f"{amb.name}, placed at its Blind's marker, cannot see {mover.name} in range to fire"})
        return None
    col = fire.in_column(g, mover, plan.mode)
    ctx = fire.Context("ambush", "DD-2.27-2.29; DD-3.3; C-17", column=col, morale=False)
    reaction_fire(g, amb, target, ctx, f"{amb.name} ambushes {mover.name}")
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
            reaction_fire(g, mover, back, fire.Context("desperate", "DD-2.30"),
                          f"{mover.name}: Desperate Return Fire at {amb.name}")
    else:
        pin(g, mover, "DD-2.30")
        g.emit({"type": "note", "element": mover.id, "clause": "DD-2.30",
                "text": f"{mover.name} fails its Discipline Check: its activation ends"}, visible="all")
    return "activation_over"


# -- a Blind draws Opportunity Fire (DD-2.17) ----------------------------------------------------------
def _watches_marker(g: Game, ow: Element, b: Blind, x: float, y: float) -> bool:
    """Can a stand of the Overwatch element see the Blind's marker at (x, y) and reach it (DD-2.17)?"""
    from game.rules.detection import rules as fog

    saved = b.x, b.y
    b.x, b.y = x, y
    try:
        mark = disc(x, y, fog().spotting.marker_radius)
        return any(fire.can_shoot(g, s) and base_of(g.book, s).distance(mark) <= g.book.stands[s.type].range
                   and g.line_of_sight(s, b).visible for s in g.state.living(ow))
    finally:
        b.x, b.y = saved


def blind_overwatch(g: Game, b: Blind, mode: str, to: tuple[float, float]) -> tuple[Element, tuple[float, float]] | None:
    """DD-2.17: the enemy element whose live Overwatch marker an unrevealed Blind's move draws
    Opportunity Fire from, and the point where the Blind freezes (DD-2.18), or None. A Blind at speed
    (combat.toml ``[overwatch] blind_speed``: faster than the 6" Patrol Move) freezes at the midpoint of
    its path inside the watched zone, as an element does. A slower Blind draws fire only where that
    stretch crosses open ground (:func:`in_open`), at its first inch-step there ("the moment it enters
    the open kill zone"). An Overwatch stand must see the marker there and reach it. The earliest
    point wins, ties by element id."""
    ow = fire.combat().overwatch
    if (b.x, b.y) == to:
        return None
    path = LineString([(b.x, b.y), to])
    step = fire.combat().ambush.sample
    best: tuple[float, Element, tuple[float, float]] | None = None
    for el in sorted(g.state.elements.values(), key=lambda e: e.id):
        if el.side == b.side or overwatch_active(g, el) is None:
            continue
        span = _stretch(path, watched_zone(g, el, el.overwatch))
        if span is None:
            continue
        a, c = span
        if mode in ow.blind_speed:
            points = [(a + c) / 2.0]
        else:
            n = max(1, math.ceil((c - a) / step))
            points = [d for d in (a + (c - a) * k / n for k in range(n + 1)) if d > 1e-9]  # once it has moved
        for d in points:
            if best is not None and (d, el.id) >= (best[0], best[1].id):
                break
            p = path.interpolate(d)
            x, y = round(p.x, 4), round(p.y, 4)
            if mode not in ow.blind_speed and not in_open(g, x, y):
                continue
            if _watches_marker(g, el, b, x, y):
                best = (d, el, (x, y))
                break
    return None if best is None else (best[1], best[2])


def blind_opportunity_fire(g: Game, b: Blind, ow: Element, mode: str, rest: tuple[float, float]) -> None:
    """DD-2.17–2.23 for a Blind frozen at its freeze point (the marker and its stands are there): the
    Overwatch declares Opportunity Fire and the Blind is flipped for the shot (as an ambushing Blind
    is, DD-2.26; DD-4.24: its miniatures are placed at the marker; a Dummy is discarded). The Overwatch fires
    its full pool at the revealed element nearest it (DD-2.19–2.21); a hit means a Morale test, and a
    fail pins it at the freeze point (DD-2.22). The Blind's other elements, and the target when it
    passes, complete the move (``rest``: the rest of the marker's move) as elements on the table, meeting
    the reactions any move meets. At a Dummy the Overwatch has fired at shadows: its marker is removed
    (DD-2.23) and nothing is left to move."""
    from game.rules.detection import reveal

    carried = list(b.elements)
    g.emit({"type": "note", "blind": b.id, "element": ow.id, "clause": "DD-2.17; DD-2.18",
            "text": f"Opportunity Fire! {ow.name} fires on Blind {b.id}"})
    placed = reveal(g, b, f"it draws Opportunity Fire from {ow.name}", "DD-2.17", by=ow)
    aims = []
    for eid in placed:
        el = g.state.elements[eid]
        t = closest_target(g, ow, el) if g.state.living(el) else None
        if t is not None:
            aims.append((min(fire.gap(g, s, t) for s in g.state.living(ow)), eid))
    halted: str | None = None
    target = g.state.elements[min(aims)[1]] if aims else None
    if target is not None:
        from game.rules.movement import Plan

        halted = _opportunity_fire(g, Plan(target, mode, {}, 0.0, [], None), ow)
    elif not placed:
        clear_overwatch(g, ow, "it has fired at shadows (a Dummy Blind)", "DD-2.23")
    else:
        g.emit({"type": "note", "element": ow.id, "clause": "DD-2.17",
                "text": f"{ow.name} cannot see the revealed stands to fire: it keeps its Overwatch marker"})
    for eid in carried:
        el = g.state.elements[eid]
        if el.hidden or not g.state.living(el) or (el is target and halted is not None):
            continue
        _complete(g, el, mode, rest)


def _complete(g: Game, el: Element, mode: str, rest: tuple[float, float]) -> None:
    """The rest of a revealed Blind's move for one of its elements (DD-2.22: "it completes the rest of
    its movement"): every stand shifts by ``rest`` if it may stand there, through :func:`interrupt`."""
    dx, dy = rest
    if (dx, dy) == (0.0, 0.0):
        return
    moves = {s.id: (round(s.x + dx, 4), round(s.y + dy, 4), s.facing) for s in g.state.living(el)}
    moved = {sid: Stand(**{**g.state.stands[sid].__dict__, "x": x, "y": y}) for sid, (x, y, _) in moves.items()}
    if not g.placement_ok(el, moved):
        g.emit({"type": "note", "element": el.id, "clause": "DD-2.22; DD-3.20",
                "text": f"{el.name} cannot complete its move from where it was revealed: it stays there"})
        return
    from game.rules.movement import Plan

    plan = Plan(el, mode, moves, 0.0, [], None)
    plan.halted = interrupt(g, plan)
    if plan.halted is None:
        stands = []
        for sid, (x, y, f) in moves.items():
            s = g.state.stands[sid]
            if s.alive:
                stands.append({"id": sid, "from": [s.x, s.y, s.facing], "to": [x, y, f]})
                s.x, s.y, s.facing = x, y, f
        g.emit({"type": "move", "element": el.id, "mode": mode, "stands": stands, "clause": "DD-2.22",
                "text": f"{el.name} completes its move"}, visible=g.visibility_of_element(el))
    after_move(g, plan)


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

