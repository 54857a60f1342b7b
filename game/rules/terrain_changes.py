"""A table that changes in play (DD chapter 8): craters and napalm-burnt ground.

A heavy shell or bomb leaves a crater (G-01 T12c; G-19: 155mm, 8", naval 5", CAS bombs); napalm burns
the vegetation it lands on (G-19 "CAS napalm"). :func:`change_terrain` records the change in the state
(``GameState.terrain_changes``, so saves and replays carry it) and the whole game answers the changed
table at once:

* the plan-view table (``Game.table``) is rebuilt with the change laid over
  (``TableMap.changed``): cover (``fire.cover_of``), movement, spotting modifiers, the dense command
  radius and every other plan-view question read it;
* line of sight reads burnt ground from the sight conditions (``Game.conditions`` carries it in
  ``Conditions.burnt``; ``game.world.burnt``): the shared ray scene is never touched, and a sightline is
  cached under the conditions it was traced in;
* everything the game kept that depends on the table is dropped.

Everyone sees craters and burnt jungle: the change is a public ``terrain`` event and every view lists it
(``views.render_view``'s ``terrain_changes``). A restored game (``Game.restore``) builds its table with
the state's changes (``Game.__init__``).

Shapes: :func:`crater` (a circle) and :func:`burnt_strip` (napalm's oval along the aircraft's heading,
2" x 6" in G-19, or a rectangle). What it leaves out: the fire support missions that call it (chapter
8's own module), the burning itself (a burning area blocks sight until the end of the turn, G-19 and
G-38: smoke), and the 3D client's drawing of the change.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from shapely.geometry import Polygon

from game.rules.state import GameState, TerrainChange
from game.world.tablemap import CHANGE_KINDS

if TYPE_CHECKING:
    from game.rules.game import Game

CRATER_CLAUSE = "G-01 T12c"
BURNT_CLAUSE = "G-19"
NAPALM_LENGTH, NAPALM_WIDTH = 6.0, 2.0
"""The napalm oval, inches along and across the heading (G-19)."""


def change_terrain(g: Game, kind: str, polygon: Iterable[Sequence[float]], clause: str, cause_text: str
                   ) -> TerrainChange:
    """Change the table: a ``crater`` or ``burnt`` ground over ``polygon`` ([[x, y], ...] inches), for
    ``clause``; ``cause_text`` is the event's text. Returns the change (ids ``tc1``, ``tc2``, ...)."""
    if kind not in CHANGE_KINDS:
        raise ValueError(f"unknown terrain change {kind!r} ({', '.join(CHANGE_KINDS)})")
    points = [[round(float(x) + 0.0, 4), round(float(y) + 0.0, 4)] for x, y in polygon]
    shape = Polygon(points)
    if len(points) < 3 or not math.isfinite(shape.area) or shape.area <= 1e-6:
        raise ValueError(f"a terrain change needs a polygon of 3 or more points with an area, got {points}")
    if shape.exterior.is_ccw is False:
        points.reverse()
    s = g.state
    change = TerrainChange(id=f"tc{len(s.terrain_changes) + 1}", kind=kind, polygon=points, turn=s.turn,
                           clause=clause)
    s.terrain_changes.append(change)
    g.table = g.table.changed([change])
    forget_table(g)
    g.emit({"type": "terrain", "change": change.id, "kind": kind, "polygon": [list(p) for p in points],
            "clause": clause, "text": cause_text})
    return change


def forget_table(g: Game) -> None:
    """Drop every answer the game kept that depends on the table (its terrain, its sight)."""
    g.measured = {}  # its own from now on: the table's shared answers (TableCache.table_map) stay as they are
    g._table = (None, b"", {}, {})
    g._listed = (None, ())
    g._sightlines = (None, {})
    g._prefetched = (None, {})
    g._conditions = None
    g.__dict__.pop("_command_cache", None)  # command.command_status reads the dense radius (DD-1.13)
    if g.listing_memo is not None:
        g.listing_memo.clear()


def burnt_polygons(s: GameState) -> tuple[tuple[float, ...], ...]:
    """The burnt polygons of a state as ``Conditions.burnt`` takes them: each one's points flattened.
    Asked for every sightline (``Game.sight_key``): kept per list of changes while it only grows."""
    changes = s.terrain_changes
    if not changes:
        return ()
    kept = _FLAT.get(id(changes))
    if kept is not None and kept[0] is changes and kept[1] == len(changes) and kept[2] is changes[-1]:
        return kept[3]
    flat = tuple(tuple(float(v) for p in c.polygon for v in p) for c in changes if c.kind == "burnt")
    if len(_FLAT) > 256:
        _FLAT.clear()
    _FLAT[id(changes)] = (changes, len(changes), changes[-1], flat)
    return flat


_FLAT: dict[int, tuple] = {}
"""``burnt_polygons``' answers by the list they were made from (kept with it, so a reused id cannot match)."""


def view_of(s: GameState) -> list[dict]:
    """The changes as a view lists them (public: everyone sees craters and burnt jungle)."""
    return [{"id": c.id, "kind": c.kind, "polygon": [list(p) for p in c.polygon], "turn": c.turn, "clause": c.clause}
            for c in s.terrain_changes]


# -- shapes ---------------------------------------------------------------------------------------------
def crater(x: float, y: float, radius: float, segments: int = 16) -> list[list[float]]:
    """A crater's outline: a circle of ``radius`` inches about (x, y), counter-clockwise (G-01 T12c)."""
    if radius <= 0 or segments < 3:
        raise ValueError("a crater needs a radius above 0 and 3 or more segments")
    return [[round(x + radius * math.cos(2 * math.pi * k / segments), 4),
             round(y + radius * math.sin(2 * math.pi * k / segments), 4)] for k in range(segments)]


def burnt_strip(x: float, y: float, heading: float, length: float = NAPALM_LENGTH, width: float = NAPALM_WIDTH,
                shape: str = "oval", segments: int = 16) -> list[list[float]]:
    """Burnt ground along a heading: an oval (napalm, G-19: 2" x 6" along the heading) or a rectangle
    ``length`` inches along and ``width`` across, centred on (x, y); ``heading`` in degrees (0 = east,
    counter-clockwise, as a facing). Counter-clockwise."""
    if length <= 0 or width <= 0:
        raise ValueError("a burnt strip needs a length and a width above 0")
    c, s = math.cos(math.radians(heading)), math.sin(math.radians(heading))
    if shape == "oval":
        local = [(length / 2 * math.cos(2 * math.pi * k / segments), width / 2 * math.sin(2 * math.pi * k / segments))
                 for k in range(segments)]
    elif shape == "rectangle":
        hl, hw = length / 2, width / 2
        local = [(-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw)]
    else:
        raise ValueError(f"unknown strip shape {shape!r} (oval, rectangle)")
    return [[round(x + u * c - v * s, 4), round(y + u * s + v * c, 4)] for u, v in local]
