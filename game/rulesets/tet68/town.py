"""The ruined town (TET-3): building tiles with their buildings, and the roads between them.

A tile is an 8" x 12" base (3 mm card or cork) at a place on the table, turned by a multiple of 90
degrees. A building stands on it: a floor (a polygon on the tile; the whole tile unless the scenario says
otherwise) and its walls, 2" high, with doors and windows cut in them (``exposure.Wall``). The gaps
between tiles are the roads. ``ground_at`` answers where a point lies, as movement needs it (TET-9):
``building`` (on a floor), ``tile`` (on a tile, outside its building) or ``open``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from shapely.geometry import Point, Polygon, box
from shapely.ops import unary_union

from game.rulesets.tet68.exposure import Wall


@dataclass(frozen=True)
class Building:
    id: str
    floor: Polygon
    walls: tuple[Wall, ...]


@dataclass(frozen=True)
class Tile:
    id: str
    area: Polygon
    building: Building | None = None


@dataclass(frozen=True)
class Town:
    tiles: tuple[Tile, ...]

    def outlines(self):
        """(the buildings' floors, the tiles), each as one shape (None: none), for cutting a path by."""
        return self._outlines

    @cached_property
    def _outlines(self):
        floors = [t.building.floor for t in self.tiles if t.building is not None]
        return (unary_union(floors) if floors else None, unary_union([t.area for t in self.tiles]) if self.tiles else None)

    @property
    def walls(self) -> list[Wall]:
        return [w for t in self.tiles if t.building for w in t.building.walls]

    def ground_at(self, x: float, y: float) -> str:
        """TET-9: ``building``, ``tile`` or ``open`` (a road, the open ground)."""
        p = Point(x, y)
        for t in self.tiles:
            if t.building is not None and t.building.floor.covers(p):
                return "building"
        return "tile" if any(t.area.covers(p) for t in self.tiles) else "open"

    def building_at(self, x: float, y: float) -> Building | None:
        p = Point(x, y)
        return next((t.building for t in self.tiles if t.building and t.building.floor.covers(p)), None)


def tile(tid: str, x: float, y: float, turned: bool = False, width: float = 8.0, depth: float = 12.0) -> Polygon:
    """A tile's area: ``width`` x ``depth`` inches from its corner (``x``, ``y``), or turned a quarter."""
    w, d = (depth, width) if turned else (width, depth)
    return box(x, y, x + w, y + d)
