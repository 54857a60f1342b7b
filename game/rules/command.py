"""Command and control (DD chapter 1 §4–5, DD-2.6–2.7; G-16).

The Platoon Commander projects a command radius: 6" measured base edge to base edge, 4" where the
measuring line crosses dense terrain or at night. An element is In Command when one of its stands is
inside the radius and the element is in 2" coherency (DD-1.8, DD-1.11), or when it has a radio link
(an operational RTO in the element, and one in base contact with the commander: G-16). Detached
specialists are their own single-stand elements, so they measure from their own stand (DD-1.12).
Insurgent elements never use command rules (G-16).

Every Allied vehicle has a radio and is always In Command (G-06). What it leaves out: boat radios.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shapely.geometry import LineString

from game.rules.memo import table_memo
from game.rules.state import Element, Stand, base_of, bounds_of
from game.terrain import sight
from game.world import shapes
from game.world.features import apart_by

if TYPE_CHECKING:
    from game.rules.game import Game



def commander(g: Game, side: str) -> Stand | None:
    """The stand projecting the command radius (DD-1.10): the Platoon Commander, else an acting
    commander, the surviving Squad Leader with the lowest id (G-16, "PC lost")."""
    alive = [s for s in g.state.side_stands(side)]
    for role in ("commander", "squad_leader"):
        found = [s for s in alive if g.book.stands[s.type].role == role]
        if found:
            return found[0]
    return None


def in_base_contact(g: Game, a: Stand, b: Stand) -> bool:
    return base_of(g.book, a).distance(base_of(g.book, b)) <= g.book.command.base_contact


def coherent(g: Game, element: Element, positions: dict[str, Stand] | None = None) -> bool:
    """2" coherency (DD-1.8): every stand within 2" of another stand of its element."""
    from game.rules.casevac import litter_bearers

    bearers = litter_bearers(g)  # G-33 (1): Litter Teams ignore coherency
    stands = [positions.get(s.id, s) if positions else s for s in g.state.living(element) if s.id not in bearers]
    if len(stands) < 2:
        return True
    rects = [base_of(g.book, s) for s in stands]
    boxes = [bounds_of(g.book, s) for s in stands]
    limit = g.book.command.coherency + 1e-9
    m = limit + 0.01  # boxes further apart than this: the bases are, and their rounded gap too
    for i, r in enumerate(rects):
        if not any(not apart_by(boxes[i], boxes[j], m) and round(r.distance(o), 2) <= limit
                   for j, o in enumerate(rects) if j != i):
            return False
    return True


def radio_link(g: Game, element: Element, pc: Stand) -> bool:
    """A radio link (DD-2.6, G-16): the element carries an operational radio, and an operational RTO
    is in base contact with the commander."""
    has_radio = any(g.book.stands[s.type].radio for s in g.state.living(element))
    if not has_radio:
        return False
    rtos = [s for s in g.state.side_stands(element.side) if g.book.stands[s.type].role == "rto"]
    return any(in_base_contact(g, r, pc) for r in rtos)


def command_radius(g: Game, line: LineString) -> tuple[float, str]:
    """The radius that applies along a measuring line (DD-1.13, G-16)."""
    c = g.book.command
    if sight().time[g.state.time_of_day].night:
        return c.radius_night, "G-16 (night)"
    if g.table.crosses_dense(line):
        return c.radius_dense, "DD-1.13 (dense terrain)"
    return c.radius_open, "DD-1.13"


@table_memo(lambda element: element.id)
def command_status(g: Game, element: Element) -> dict:
    """Is the element In Command, and why (DD-1.11, DD-1.13, DD-2.6)? Allied only.

    The answer is cached on the game under a key of everything it reads (``command_key``), so it
    never depends on which questions were asked before (DESIGN §5).
    """
    key = command_key(g, element)
    cache = g.__dict__.setdefault("_command_cache", {})
    status = cache.get(key)
    if status is None:
        if len(cache) > 4096:
            cache.clear()
        status = cache[key] = _command_status(g, element)
    return dict(status)


def command_key(g: Game, element: Element) -> tuple:
    """Everything ``_command_status`` reads: the element's side and stands; for each stand of its side
    its id (the commander is the first found, G-16), type (role and radio, DD-2.6), element (the
    commander's own element, DD-1.10), place (radius, coherency, base contact), whether it lives, and
    whether its element is hidden (under a Blind or in reserve: its stands are not on the table and
    project no command, ``GameState.side_stands``); the Litter Teams (they ignore coherency, G-33 (1));
    and the time of day (the night radius, G-16). The terrain and the rulebook are the game's own."""
    return (element.id, element.side, tuple(element.stands), g.state.time_of_day, *_side_key(g, element.side))


@table_memo(lambda side: side)
def _side_key(g: Game, side: str) -> tuple:
    """:func:`command_key`'s part that is the same for every element of a side: its stands and the
    Litter Teams (worked out once a listing, not once an element)."""
    from game.rules.casevac import litter_bearers

    elements = g.state.elements
    return (_Hashed(tuple((s.id, s.type, s.element, s.x, s.y, s.facing, s.alive, elements[s.element].hidden)
                          for s in g.state.stands.values() if s.side == side)),
            tuple(sorted(litter_bearers(g))))


class _Hashed:
    """A long tuple with its hash worked out once: :func:`_side_key`'s stands, hashed for every element
    of the side as it looks up its command status."""

    __slots__ = ("items", "_hash")

    def __init__(self, items: tuple):
        self.items, self._hash = items, hash(items)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is _Hashed and self._hash == other._hash and self.items == other.items)

    def __reduce__(self) -> tuple:  # copied or pickled: hashed again (a str hashes differently elsewhere)
        return _Hashed, (self.items,)


def _command_status(g: Game, element: Element) -> dict:
    if element.side != "allied":
        return {"in_command": None, "reason": "Insurgent elements do not use command rules", "clause": "G-16"}
    if element.kind == "vehicle" and any(g.book.stands[s.type].vehicle for s in g.state.living(element)):
        return {"in_command": True, "reason": "a vehicle's radio: always In Command", "clause": "G-06; G-16"}
    pc = commander(g, element.side)
    if not coherent(g, element):
        return {"in_command": False, "reason": "the element is out of 2\" coherency", "clause": "DD-1.11"}
    if pc is None:
        return {"in_command": False, "reason": "no commander or squad leader survives", "clause": "G-16"}
    if pc.element == element.id:
        return {"in_command": True, "reason": "the element holds the commander", "clause": "DD-1.10"}
    pc_rect = base_of(g.book, pc)
    best = None
    for s in g.state.living(element):
        rect = base_of(g.book, s)
        line = shapes.shortest_line(rect, pc_rect)  # the nearest points (``shapely.ops.nearest_points``)
        dist = round(rect.distance(pc_rect), 2)
        if dist <= 0:
            ax, ay = shapes.coords(line)[0]
            line = shapes.segment(ax, ay, ax + 1e-6, ay)
        radius, clause = command_radius(g, line)
        if dist <= radius + 1e-9:
            return {"in_command": True, "reason": f"{dist:.2f}\" from the commander, within {radius:g}\"",
                    "clause": clause, "distance": dist, "radius": radius}
        if best is None or dist < best[0]:
            best = (dist, radius, clause)
    if radio_link(g, element, pc):
        return {"in_command": True, "reason": "radio link through an RTO", "clause": "DD-2.6; G-16"}
    assert best is not None
    return {"in_command": False,
            "reason": f"{best[0]:.2f}\" from the commander, beyond {best[1]:g}\" with no radio link",
            "clause": best[2], "distance": best[0], "radius": best[1]}


def activation_costs(g: Game, element: Element) -> list[dict]:
    """What activating this element may cost (DD-1.14–1.15, DD-2.6–2.7, G-28)."""
    c = g.book.command
    if element.side == "insurgent":
        if element.activations == 0:
            return [{"cost": 0, "tokens": 0, "emergency": False, "clause": "G-28 (4)"}]
        return [{"cost": 0, "tokens": g.book.turn.second_activation_tokens, "emergency": False,
                 "clause": "G-28 (4)"}]
    status = command_status(g, element)
    if status["in_command"]:
        return [{"cost": c.cost_in_command, "tokens": 0, "emergency": False, "clause": "DD-2.6"}]
    return [
        {"cost": c.cost_out_of_command, "tokens": 0, "emergency": False, "clause": "DD-1.14"},
        {"cost": c.cost_emergency, "tokens": 0, "emergency": True, "clause": "DD-1.15"},
    ]
