"""One Brain-Cell line of sight on the Dinky Dau world: the scenario's terrain features baked by
game.world.bake and cast by game.world.los (docs/terrain.md), at OBC's points of view. The scale is the same
(G-42: 1" = 10 m, as DD-1), so the world's sight limits stand as they are (the 24" open limit, 30" from 2" up,
dense canopy's 3", no sight into dense canopy from above). A man is a point: his eye and his body (chest) at
the heights of ``[figure]`` for his posture; a man aboard a flying chopper sees from its height (OBC-13), so
over the canopy that hides the ground from a man standing on it.

What it leaves out: who may act on what is seen (``game``); the ground's going and cover (``ground_at``
only names the Dinky Dau terrain there, ``tables.ground`` reads it).
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
from shapely import prepared
from shapely.geometry import LineString, Point

from game.world.bake import terrain_key
from game.world.los import Conditions, TableLOS

_TABLES: OrderedDict[str, TableLOS] = OrderedDict()
CONDITIONS = Conditions()


def table(scenario) -> TableLOS:
    """The scenario's table, baked on demand (cached by content hash); the last few kept in memory."""
    key = terrain_key(scenario)
    los = _TABLES.get(key)
    if los is None:
        los = TableLOS.from_scenario(scenario)
        _TABLES[key] = los
        while len(_TABLES) > 4:
            _TABLES.popitem(last=False)
    _TABLES.move_to_end(key)
    return los


HEDGES = ("bund", "light")
"""The Dinky Dau line features read as OBC's hedges and low walls (OBC-4, OBC-10, OBC-12): a paddy bund's dyke
and a hedgerow (scrub drawn as a ``path``), engine reading."""


class Ground:
    """Which Dinky Dau terrain is at a point: the last feature listed that holds it, else open (engine
    reading: a scenario lists its features from the ground up). The hedges and low walls (``HEDGES`` drawn
    as lines) are crossed rather than gone through: the going under them is what lies beneath."""

    def __init__(self, features):
        self.shapes = [(f.type, prepared.prep(f.shape()), f.shape()) for f in features]
        self.hedge = [f.type in HEDGES and f.path is not None for f in features]
        self.lines = [(f.id, f.type, LineString(f.path)) for f in features if f.type in HEDGES and f.path is not None]
        self._bare, self._cover = None, None

    def at(self, x: float, y: float, hedges: bool = True) -> str:
        p = Point(x, y)
        for (kind, prep, _), hedge in zip(reversed(self.shapes), reversed(self.hedge), strict=True):
            if (hedges or not hedge) and prep.covers(p):
                return kind
        return "open"

    def hedges_crossed(self, a: tuple[float, float], b: tuple[float, float]) -> list[str]:
        """OBC-4: the hedges and low walls a straight move from a to b crosses, once for each time it crosses
        one's centre line (stepping onto or off it is no crossing)."""
        if a == b or not self.lines:
            return []
        seg = LineString([a, b])
        out = []
        for fid, _, line in self.lines:
            hit = seg.intersection(line)
            if hit.is_empty:
                continue
            pts = [hit] if hit.geom_type == "Point" else [g for g in getattr(hit, "geoms", []) if g.geom_type == "Point"]
            out += [fid for q in pts if min(q.distance(Point(a)), q.distance(Point(b))) > 1e-6]
        return out

    def crossed(self, a: tuple[float, float], b: tuple[float, float]) -> set[str]:
        """The terrain types a straight move from a to b goes through (open where no feature is): each
        feature where it is the ground, not where a later one lies over it; the hedges and low walls are left
        to ``hedges_crossed``."""
        out = {self.at(*a, hedges=False), self.at(*b, hedges=False)}
        if a == b:
            return out
        line = LineString([a, b])
        for kind, prep, shape in self._exposed():
            if prep.intersects(line) and shape.intersection(line).length > 1e-6:
                out.add(kind)
        if self._cover is None or not self._cover.covers(line):
            out.add("open")
        return out

    def _exposed(self) -> list:
        """Each feature's footprint less those listed after it (hedges apart), prepared; built once."""
        if self._bare is None:
            from shapely.ops import unary_union

            ground = [(k, sh) for (k, _, sh), hedge in zip(self.shapes, self.hedge, strict=True) if not hedge]
            bare, above = [], None
            for kind, shape in reversed(ground):
                part = shape if above is None else shape.difference(above)
                above = shape if above is None else unary_union([above, shape])
                if not part.is_empty:
                    bare.append((kind, prepared.prep(part), part))
            self._bare, self._cover = bare, above
        return self._bare

    def all_along(self, a: tuple[float, float], b: tuple[float, float], kind: str) -> bool:
        """Whether the whole straight move lies on features of ``kind`` (a road move, OBC-3)."""
        line = LineString([a, b]) if a != b else None
        shapes = [s for k, _, s in self.shapes if k == kind]
        if not shapes:
            return False
        if line is None:
            return any(s.covers(Point(a)) for s in shapes)
        u = shapes[0]
        for s in shapes[1:]:
            u = u.union(s)
        return u.buffer(1e-6).covers(line)


def visible(los: TableLOS, eyes: list[tuple[float, float, float]], targets: list[tuple[float, float, float]],
            conditions: Conditions = CONDITIONS) -> np.ndarray:
    """For each pair, can the eye (x, y, height above the ground) see the target point (the same)? The world's
    ray casts, batched, through ``conditions`` (the smoke standing, OBC-39); heights are over the ground under
    each point."""
    if not eyes:
        return np.zeros(0, bool)
    e = np.array(eyes, float)
    q = np.array(targets, float)
    e[:, 2] += los.elevations(e[:, :2])
    q[:, 2] += los.elevations(q[:, :2])
    same = np.all(np.abs(e[:, :2] - q[:, :2]) < 1e-6, axis=1)
    q[same, 0] += 1e-3
    return los.batch(e, q, conditions)


def check(los: TableLOS, eye: tuple[float, float, float], target: tuple[float, float, float],
          conditions: Conditions = CONDITIONS) -> dict:
    """One sightline with its evidence (``los.check``): heights over the ground as in :func:`visible`."""
    e = (eye[0], eye[1], eye[2] + los.elevation(eye[0], eye[1]))
    q = (target[0], target[1], target[2] + los.elevation(target[0], target[1]))
    if abs(e[0] - q[0]) < 1e-6 and abs(e[1] - q[1]) < 1e-6:
        q = (q[0] + 1e-3, q[1], q[2])
    return los.check_points(e, q, conditions).to_dict()
