"""Movement (DD-2.8–2.12, DD-3.2, DD-3.6–3.7, DD-3.18, DD-3.20–3.21, DD-5.21; G-01).

An element moves as a body: its stands translate together to a new position (the element's centre
goes to ``to``), or each stand is placed explicitly (``stands``). Each stand's move is measured from
where its base was to where it ends (a straight line), and must fit the allowance of the mode after
terrain: a move pays the slowest rate of any terrain its bases pass through (G-01 rule 2); a stand
whose centre stays on a trail pays trail rates. Trail Rush needs every stand on the trail the whole
way (DD-3.2). Bases may pass through friends but not end overlapping anyone, nor pass through an
enemy (DD-3.20). Passing through a Pinned friend tests both elements (DD-3.21). A Pinned element
never ends nearer the enemy (DD-5.21). Sprinting two turns running, or through paddy or mud,
leaves the element Winded (DD-3.6); a Winded element moves at half speed on its next activation.
The weather (``game.rules.weather``, G-07) may shut streams (the monsoon), make open ground Mud for a
Sprint (the monsoon) or wind any Sprint (Scorching Heat).

A Litter Team carrying a casualty moves at most 3" (DD-6.3, game.rules.casevac).

A vehicle (``game.rules.vehicles``) moves at its roster speed for the going (G-06, G-01 "Tracked /
Wheeled"): its hooks here are the allowance and the refusals. What it leaves out: boats (the river rules).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shapely.geometry import Polygon

from game.rules.errors import IllegalAction
from game.rules.state import Element, Stand, base_of, bounds_of
from game.world import shapes
from game.world.features import apart, around, base_corners

if TYPE_CHECKING:
    from game.rules.game import Game

MODES = {
    "patrol": ("Patrol Move", "DD-2.8"),
    "trail_rush": ("Trail Rush", "DD-2.9; DD-3.2"),
    "sprint": ("Sprint", "DD-2.10"),
}
ACTION_MODES = {
    "fire_maneuver": ("Fire & Maneuver", "DD-2.12"),
}
"""Moves that are part of another action (game.rules.fire), never offered as a bare move."""


def mode_info(mode: str) -> tuple[str, str]:
    return MODES.get(mode) or ACTION_MODES[mode]


def q(v: float) -> float:
    """Quantise a distance that enters a rule (DESIGN §3)."""
    return round(v + 0.0, 2)


def base_allowance(g: Game, element: Element, mode: str) -> float:
    if element.kind == "vehicle":  # G-06: its roster road speed, the most any going allows
        from game.rules.vehicles import vehicle_of

        v = vehicle_of(g, element)
        if v is not None:
            from game.rules.vehicles import vehicle_type

            vt = vehicle_type(g, v)
            road = vt.speed("river" if vt.drive == "boat" else "road")  # type: ignore[union-attr]  (G-14: a craft's best)
            return road / 2.0 if mode == "fire_maneuver" else road
    m = g.book.movement
    inches = {"patrol": m.patrol, "trail_rush": m.trail_rush, "sprint": m.sprint, "fire_maneuver": m.fire_maneuver}[mode]
    if element.winded_slow:
        inches /= 2.0  # DD-3.7: half movement on the next activation
    return inches


@dataclass
class Plan:
    """A checked move, ready to apply."""

    element: Element
    mode: str
    moves: dict[str, tuple[float, float, float]]
    allowance: float
    through_pinned: list[str]
    winds: str | None
    halted: str | None = None
    """Set by a reaction (game.rules.reactions): "frozen" (the move ended at the freeze point) or
    "activation_over" (DD-2.30: and the element's activation ends)."""


def _sweep_key(stand: Stand, dest: Stand) -> tuple:
    return "sweep", stand.type, stand.x, stand.y, stand.facing, dest.x, dest.y, dest.facing


def sweep(g: Game, stand: Stand, dest: Stand) -> Polygon:
    """The area a base sweeps moving in a straight line from one place to another: the convex hull
    of both rectangles' corners (Andrew's monotone chain on eight points). Cached for the game."""
    return g.measure(_sweep_key(stand, dest), lambda: _sweep(g, stand, dest))


def _sweep(g: Game, stand: Stand, dest: Stand) -> Polygon:
    b = g.book.base_of(stand.type)
    pts = sorted(set(base_corners(stand.x, stand.y, stand.facing, b.width, b.depth))
                 | set(base_corners(dest.x, dest.y, dest.facing, b.width, b.depth)))

    def half(points):
        out: list = []
        for p in points:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(reversed(pts))
    return shapes.polygon(lower[:-1] + upper[:-1])  # (quicker than Polygon(...), the same shape)


def centre(stands: list[Stand]) -> tuple[float, float]:
    return (sum(s.x for s in stands) / len(stands), sum(s.y for s in stands) / len(stands))


def stand_allowance(g: Game, element: Element, stand: Stand, dest: Stand, mode: str) -> tuple[float, list[str], bool]:
    """The allowance for one stand's move after terrain (G-01), the terrain ids crossed, and whether
    its centre stayed on a trail (DD-3.2)."""
    if g.book.stands[stand.type].vehicle:  # G-06 speeds over G-01's tracked / wheeled goings
        from game.rules.vehicles import move_allowance

        return move_allowance(g, stand, dest, mode)  # type: ignore[return-value]
    on_trail = g.table.path_on_trail(stand.x, stand.y, dest.x, dest.y)
    base = base_allowance(g, element, mode)
    if on_trail:
        return litter_cap(g, stand, base, ["trail"]) + (True,)
    terrains = g.table.terrain_along(sweep(g, stand, dest), key=_sweep_key(stand, dest))
    allowance = min(t.allowance(base) for t in terrains)
    ids = [t.id for t in terrains]
    from game.rules.weather import unfordable

    if unfordable(g, ids):
        allowance = 0.0  # G-07 (1): the monsoon makes streams unfordable
        ids.append("unfordable")
    if any(t.uphill_half for t in terrains) and climbs(g, stand, dest):
        allowance = min(allowance, base / 2.0)  # G-01 T14: a steep slope is half speed uphill
        ids.append("uphill")
    return litter_cap(g, stand, allowance, ids) + (False,)


def litter_cap(g: Game, stand: Stand, allowance: float, ids: list[str]) -> tuple[float, list[str]]:
    """DD-6.3: a Litter Team moves at most 3" per move (game.rules.casevac)."""
    from game.rules.casevac import casevac, is_bearer

    cap = casevac(g).litter.max_move
    if allowance > cap and is_bearer(g, stand):
        return cap, ids + ["litter"]
    return allowance, ids


CLIMB = 0.25
"""Inches of rise from the start to the end of a move that count as going uphill (G-01 T14)."""


def climbs(g: Game, stand: Stand, dest: Stand) -> bool:
    """Does a move end higher up the slope than it started (G-01 T14)? Elevations come from the
    baked table, the same ground the line of sight uses. An end off the table is left to the
    placement check, which refuses it."""
    w, h = g.scenario.width, g.scenario.height
    if not (0 <= dest.x <= w and 0 <= dest.y <= h):
        return False
    return g.elevation(dest.x, dest.y) - g.elevation(stand.x, stand.y) >= CLIMB


def plan_move(g: Game, element: Element, mode: str, action: dict) -> Plan:
    """Check a move against every movement rule; raise IllegalAction with the clause if it breaks one."""
    if mode not in MODES and mode not in ACTION_MODES:
        raise IllegalAction(f"unknown movement mode '{mode}'", "DD-2.8")
    stands = g.state.living(element)
    if not stands:
        raise IllegalAction("the element has no stands left", "DD-5.11")
    if element.pinned and mode == "sprint":
        raise IllegalAction("a Pinned element cannot Sprint", "G-32")
    if element.kind == "vehicle":
        from game.rules.vehicles import refuse_move

        refuse_move(g, element, mode)  # G-06, DD-5.14
    # Destinations.
    dests: dict[str, Stand] = {}
    if "stands" in action and action["stands"] is not None:
        placed = action["stands"]
        if not isinstance(placed, dict):
            raise IllegalAction("'stands' must map stand ids to [x, y] or [x, y, facing]", "DD-2.8")
        for s in stands:
            if s.id not in placed:
                raise IllegalAction(f"'stands' must place every stand of the element; '{s.id}' is missing", "DD-2.8")
            x, y, f = _xyf(placed[s.id], s.facing, f"stands.{s.id}")
            dests[s.id] = Stand(**{**s.__dict__, "x": x, "y": y, "facing": f})
        extra = sorted(set(placed) - {s.id for s in stands})
        if extra:
            raise IllegalAction(f"'stands' names stands not in this element: {', '.join(extra)}", "DD-2.8")
    else:
        if "to" not in action:
            raise IllegalAction("a move needs 'to': [x, y], the element's new centre", "DD-2.8")
        tx, ty, _ = _xyf(action["to"], 0.0, "to")
        facing = action.get("facing")
        if facing is not None and (not isinstance(facing, (int, float)) or isinstance(facing, bool)):
            raise IllegalAction("'facing' must be a number of degrees", "DD-2.8")
        cx, cy = centre(stands)
        dx, dy = tx - cx, ty - cy
        for s in stands:
            f = float(facing) % 360 if facing is not None else s.facing
            dests[s.id] = Stand(**{**s.__dict__, "x": round(s.x + dx, 4), "y": round(s.y + dy, 4), "facing": f})

    worst = math.inf
    crossed: set[str] = set()
    for s in stands:
        d = dests[s.id]
        dist = q(math.hypot(d.x - s.x, d.y - s.y))
        allowance, terrains, on_trail = stand_allowance(g, element, s, d, mode)
        if "riverine" in g.state.chapters:  # DD-9A.10, C-22: debarked into mud, at most 3" this turn
            from game.rules.riverine import mud_cap

            cap = mud_cap(g, element)
            if cap is not None and allowance > cap:
                allowance, terrains = cap, [*terrains, "mud"]
        crossed.update(terrains)
        if mode == "trail_rush" and not on_trail and dist > 0:
            raise IllegalAction(f"Trail Rush needs the whole move along a trail; '{s.id}' leaves it", "DD-3.2")
        if allowance <= 0 and dist > 0:
            if g.book.stands[s.type].vehicle:
                raise IllegalAction(f"'{s.id}' cannot cross {', '.join(terrains)}: impassable to it", "G-01; G-06")
            if "unfordable" in terrains:
                from game.rules.weather import current, unfordable

                raise IllegalAction(f"'{s.id}' cannot ford {', '.join(unfordable(g, terrains))} in the "
                                    f"{current(g).name}", current(g).clause)
            names = ", ".join(t for t in terrains if t in g.book.terrain and g.book.terrain[t].move == "impassable")
            raise IllegalAction(f"'{s.id}' cannot cross impassable terrain ({names})", "G-01")
        if dist > q(allowance) + 1e-9 and g.book.stands[s.type].vehicle:
            raise IllegalAction(f"'{s.id}' would move {dist:.2f}\" but its speed over {', '.join(terrains)} is "
                                f"{allowance:.2f}\"", "G-06; G-01")
        if dist > q(allowance) + 1e-9:
            slow = [t for t in terrains if t in ("uphill", "litter")
                    or g.book.terrain[t].allowance(base_allowance(g, element, mode)) <= allowance]
            why = f" (terrain: {', '.join(slow)})" if allowance < base_allowance(g, element, mode) else ""
            raise IllegalAction(
                f"'{s.id}' would move {dist:.2f}\" but a {mode_info(mode)[0]} allows {allowance:.2f}\"{why}",
                f"{mode_info(mode)[1]}; G-01" + ("; DD-6.3" if "litter" in terrains else ""),
            )
        worst = min(worst, allowance)

    if not g.placement_ok(element, dests, explain=True):
        raise AssertionError("placement_ok(explain=True) raises on failure")

    # Passage of lines (DD-3.20): never through an enemy base; note pinned friends passed through.
    through_pinned: list[str] = []
    for s in stands:
        d = dests[s.id]
        swept = sweep(g, s, d)
        box = around([bounds_of(g.book, s), bounds_of(g.book, d)])  # (the swept hull's bounds: its corners')
        for o in g.state.stands.values():
            if not o.alive or o.element == element.id or g.state.elements[o.element].hidden:
                continue
            if apart(bounds_of(g.book, o), box) or shapes.overlap(swept, base_of(g.book, o)) <= 1e-6:
                continue
            if o.side != element.side:
                raise IllegalAction(f"'{s.id}' cannot move through enemy stand '{o.id}'", "DD-3.20")
            if g.state.elements[o.element].pinned and o.element not in through_pinned:
                through_pinned.append(o.element)

    # A Pinned element never moves toward the enemy (DD-5.21).
    if element.pinned:
        enemies = [base_of(g.book, e) for e in g.state.side_stands(g.state.other(element.side))]
        if enemies:
            for s in stands:
                before = min(base_of(g.book, s).distance(e) for e in enemies)
                after = min(base_of(g.book, dests[s.id]).distance(e) for e in enemies)
                if q(after) < q(before):
                    raise IllegalAction(f"a Pinned element cannot move toward the enemy ('{s.id}' would close "
                                        f"from {before:.2f}\" to {after:.2f}\")", "DD-5.21")

    winds = None
    if mode == "sprint":
        if element.sprinted_last_turn:
            winds = "sprinted two turns running"
        elif any(g.book.terrain[t].sprint_winds for t in crossed if t in g.book.terrain):
            winds = "sprinted through paddy or mud"
        else:
            from game.rules.weather import sprint_winds

            # G-07 (1) open ground as Mud, (6) Scorching Heat: infantry only (a vehicle is not Winded)
            winds = sprint_winds(g, sorted(crossed)) if element.kind != "vehicle" else None
    moves = {sid: (d.x, d.y, d.facing) for sid, d in dests.items()}
    return Plan(element, mode, moves, worst, sorted(through_pinned), winds)


def _xyf(value, facing: float, name: str) -> tuple[float, float, float]:
    if (
        not isinstance(value, (list, tuple))
        or len(value) not in (2, 3)
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value)
    ):
        raise IllegalAction(f"'{name}' must be [x, y] or [x, y, facing] in inches", "DD-2.8")
    return float(value[0]), float(value[1]), float(value[2]) % 360 if len(value) == 3 else facing


def apply_move(g: Game, plan: Plan) -> None:
    """Move the stands, then apply the consequences: passage of lines, Winded (DD-3.6, DD-3.21).

    Reactions (DD-2.17–2.30) may freeze the move part-way: ``reactions.interrupt`` moves the stands to
    the freeze point, resolves the reaction fire, and says whether the move goes on."""
    from game.rules.morale import test_or_pin
    from game.rules.reactions import after_move, interrupt

    el = plan.element
    name, clause = mode_info(plan.mode)
    el.move_actions += 1
    el.last_move = plan.mode
    el.conceal = False
    el.winded_slow = False
    if plan.mode == "sprint":
        el.sprinted_this_turn = True
    if el.kind == "vehicle" and "riverine" in g.state.chapters:
        from game.rules.river_mines import boat_move

        plan.halted = boat_move(g, plan)  # DD-9A.12: a river mine may stop a boat; then the reactions
    else:
        plan.halted = interrupt(g, plan)
    if el.kind == "vehicle":
        from game.rules.vehicles import after_move as vehicle_moved

        vehicle_moved(g, el, plan)  # G-34: more than half its speed
    if plan.halted is None:
        moved = []
        for sid, (x, y, f) in plan.moves.items():
            s = g.state.stands[sid]
            if not s.alive:
                continue
            moved.append({"id": sid, "from": [s.x, s.y, s.facing], "to": [x, y, f]})
            s.x, s.y, s.facing = x, y, f
        g.emit({"type": "move", "element": el.id, "mode": plan.mode, "stands": moved, "clause": clause,
                "text": f"{el.name}: {name}"}, visible=g.visibility_of_element(el))
    from game.rules.casevac import follow

    follow(g)  # DD-6.2: a carried casualty travels with its Litter Team
    if plan.winds:
        el.winded = True
        el.winded_slow = True
        g.emit({"type": "status", "element": el.id, "status": "winded", "on": True, "clause": "DD-3.6",
                "text": f"{el.name} is Winded ({plan.winds}): half move next activation, -1 Morale until Take Five"},
               visible=g.visibility_of_element(el))
    if plan.halted is None:
        for other_id in plan.through_pinned:
            other = g.state.elements[other_id]
            g.emit({"type": "note", "element": el.id, "clause": "DD-3.21",
                    "text": f"{el.name} moves through Pinned {other.name}: both test Morale"},
                   visible=g.visibility_of_element(el))
            test_or_pin(g, el, "passage through a Pinned friend", "DD-3.21")
            test_or_pin(g, other, "passage through a Pinned friend", "DD-3.21")
    after_move(g, plan)
