"""A Tet '68 scenario (``[scenario] ruleset = "tet68"``): the table, the town of tiles and buildings (TET-3),
the two sides and their figures (TET-1, TET-4). Every problem is reported with the file and field.

    [scenario]  ruleset, id, title, briefing?, source?, turns (G-41: 12), table = {width, height}
    [[side]]    id (allied / insurgent), name
    [[tile]]    id, at = [x, y], turned?, building = {id, floor? = [[x, y], ...], walls = [...]}
                a wall: {id, from = [x, y], to = [x, y], height? (2), openings? = [{kind door|window,
                start, end, bottom?, top?}]} (inches along the wall from its first end; a door's bottom 0)
    [[figure]]  id, side, name, weapon, leader? (officer, NCO or Rambo: TET-5, TET-6; G-41), at = [x, y],
                facing? (degrees, 0 east), pose? (standing, kneeling, prone, at_window, leaning), lean_to?,
                troop? (marine, arvn, vc, nva: the figure's dress; allied marine, insurgent vc by default)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shapely.geometry import Polygon

from game.rulesets.base import Problem, ScenarioError
from game.rulesets.tet68.exposure import Opening, Wall
from game.rulesets.tet68.tables import tables
from game.rulesets.tet68.town import Building, Tile, Town, tile

SIDES = ("allied", "insurgent")
TROOPS = {"allied": ("marine", "arvn"), "insurgent": ("vc", "nva")}
"""The troops each side fields (TET-4: US Marines or ARVN against VC and NVA); the first is the default."""


@dataclass(frozen=True)
class FigureSetup:
    id: str
    side: str
    name: str
    weapon: str
    leader: bool
    x: float
    y: float
    facing: float
    pose: str
    lean_to: float | None
    troop: str = "marine"


@dataclass(frozen=True)
class TetScenario:
    id: str
    title: str
    briefing: str
    source: str
    turns: int
    width: float
    height: float
    sides: dict[str, str]
    town: Town
    figures: tuple[FigureSetup, ...]
    raw: dict


class _Reader:
    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []

    def problem(self, path: str, message: str) -> None:
        self.problems.append(Problem(self.file, path, message))

    def get(self, d: Any, key: str, path: str, kind: type | tuple, default: Any = ...) -> Any:
        if not isinstance(d, dict) or key not in d:
            if default is ...:
                self.problem(f"{path}{key}", "is required")
            return None if default is ... else default
        v = d[key]
        ok = isinstance(v, kind) and not (isinstance(v, bool) and kind in (int, float, (int, float)))
        if not ok:
            self.problem(f"{path}{key}", f"should be {getattr(kind, '__name__', 'a number')}, got {type(v).__name__}")
            return None if default is ... else default
        return v

    def point(self, d: Any, key: str, path: str) -> tuple[float, float] | None:
        v = self.get(d, key, path, list)
        if v is None:
            return None
        if len(v) != 2 or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in v):
            self.problem(f"{path}{key}", "should be a point [x, y] in inches")
            return None
        return float(v[0]), float(v[1])

    def unknown(self, d: Any, keys: set[str], path: str) -> None:
        for k in sorted(set(d) - keys) if isinstance(d, dict) else ():
            self.problem(f"{path}{k}", f"unknown field (known: {', '.join(sorted(keys))})")


def _wall(r: _Reader, raw: Any, path: str) -> Wall | None:
    r.unknown(raw, {"id", "from", "to", "height", "openings"}, path)
    wid = r.get(raw, "id", path, str)
    a, b = r.point(raw, "from", path), r.point(raw, "to", path)
    height = float(r.get(raw, "height", path, (int, float), 2.0))
    openings = []
    for i, o in enumerate(r.get(raw, "openings", path, list, [])):
        p = f"{path}openings[{i}]."
        r.unknown(o, {"kind", "start", "end", "bottom", "top"}, p)
        kind = r.get(o, "kind", p, str)
        if kind not in ("door", "window", None):
            r.problem(f"{p}kind", f"a door or a window, not {kind!r}")
        start, end = r.get(o, "start", p, (int, float)), r.get(o, "end", p, (int, float))
        bottom = float(r.get(o, "bottom", p, (int, float), 0.0 if kind == "door" else 1.2))
        top = float(r.get(o, "top", p, (int, float), 1.9))
        if None not in (start, end) and not 0 <= start < end:
            r.problem(f"{p}end", "an opening runs from start to a greater end, in inches along the wall")
        elif None not in (start, end, kind):
            openings.append(Opening(kind, float(start), float(end), bottom, top))
    if None in (wid, a, b):
        return None
    return Wall(wid, a, b, height, tuple(openings))


def build(raw: dict, file: str, text: str | None = None) -> TetScenario:
    """Read a Tet '68 scenario, or raise ``ScenarioError`` listing every problem."""
    r = _Reader(file)
    t = tables()
    r.unknown(raw, {"scenario", "side", "tile", "figure"}, "")
    head = raw.get("scenario")
    r.unknown(head, {"ruleset", "id", "title", "briefing", "source", "turns", "table"}, "scenario.")
    sid = r.get(head, "id", "scenario.", str)
    title = r.get(head, "title", "scenario.", str)
    turns = r.get(head, "turns", "scenario.", int, 12)
    table = r.get(head, "table", "scenario.", dict, {"width": 36, "height": 24})
    width = float(r.get(table, "width", "scenario.table.", (int, float), 36))
    height = float(r.get(table, "height", "scenario.table.", (int, float), 24))
    sides = {}
    for i, s in enumerate(r.get(raw, "side", "", list, [])):
        p = f"side[{i}]."
        r.unknown(s, {"id", "name"}, p)
        side = r.get(s, "id", p, str)
        if side not in SIDES:
            r.problem(f"{p}id", f"the sides are {' and '.join(SIDES)} (TET-4)")
        else:
            sides[side] = r.get(s, "name", p, str, side)
    tiles, ids = [], set()
    for i, tr in enumerate(r.get(raw, "tile", "", list, [])):
        p = f"tile[{i}]."
        r.unknown(tr, {"id", "at", "turned", "building"}, p)
        tid, at = r.get(tr, "id", p, str), r.point(tr, "at", p)
        turned = r.get(tr, "turned", p, bool, False)
        if tid is None or at is None:
            continue
        area = tile(tid, at[0], at[1], turned)
        building = None
        braw = r.get(tr, "building", p, dict, None)
        if braw is not None:
            bp = f"{p}building."
            r.unknown(braw, {"id", "floor", "walls"}, bp)
            bid = r.get(braw, "id", bp, str)
            floor = area
            if "floor" in braw:
                pts = braw["floor"]
                if not (isinstance(pts, list) and len(pts) >= 3 and all(isinstance(q, list) and len(q) == 2 for q in pts)):
                    r.problem(f"{bp}floor", "a polygon [[x, y], ...] of three points or more")
                else:
                    floor = Polygon(pts)
                    if not floor.is_valid or not area.buffer(1e-6).covers(floor):
                        r.problem(f"{bp}floor", f"should be a simple polygon on tile {tid}")
            read = [_wall(r, w, f"{bp}walls[{k}].") for k, w in enumerate(r.get(braw, "walls", bp, list, []))]
            walls = [w for w in read if w is not None]
            for w in walls:
                if w.id in ids:
                    r.problem(f"{bp}walls", f"wall id {w.id!r} is used twice")
                ids.add(w.id)
            if bid is not None:
                building = Building(bid, floor, tuple(walls))
        tiles.append(Tile(tid, area, building))
    figures = []
    for i, fr in enumerate(r.get(raw, "figure", "", list, [])):
        p = f"figure[{i}]."
        r.unknown(fr, {"id", "side", "name", "weapon", "leader", "at", "facing", "pose", "lean_to", "troop"}, p)
        fid, side, name = r.get(fr, "id", p, str), r.get(fr, "side", p, str), r.get(fr, "name", p, str)
        weapon = r.get(fr, "weapon", p, str)
        if weapon is not None and weapon not in t.weapons:
            r.problem(f"{p}weapon", f"unknown weapon {weapon!r} (weapons: {', '.join(t.weapons)}; TET-11)")
        pose = r.get(fr, "pose", p, str, "standing")
        if pose not in t.poses:
            r.problem(f"{p}pose", f"unknown pose {pose!r} (poses: {', '.join(t.poses)})")
        if side is not None and side not in sides:
            r.problem(f"{p}side", f"no [[side]] {side!r}")
        at = r.point(fr, "at", p)
        if at is not None and not (0 <= at[0] <= width and 0 <= at[1] <= height):
            r.problem(f"{p}at", f"off the {width:g}\" x {height:g}\" table")
        if fid in ids:
            r.problem(f"{p}id", f"id {fid!r} is used twice")
        ids.add(fid)
        lean = r.get(fr, "lean_to", p, (int, float), None)
        fields = TROOPS.get(side, ())
        troop = r.get(fr, "troop", p, str, fields[0] if fields else None)
        if fields and troop is not None and troop not in fields:
            r.problem(f"{p}troop", f"unknown troop {troop!r} for the {side} side (troops: {', '.join(fields)}; TET-4)")
        if None not in (fid, side, name, weapon, at):
            figures.append(FigureSetup(fid, side, name, weapon, bool(r.get(fr, "leader", p, bool, False)), at[0], at[1],
                                       float(r.get(fr, "facing", p, (int, float), 0.0)), pose,
                                       None if lean is None else float(lean), str(troop)))
    for side in SIDES:
        if side not in sides:
            r.problem("side", f"the {side} side is missing (TET-4)")
        elif not any(f.side == side for f in figures):
            r.problem("figure", f"the {side} side has no figure")
    if not any(tl.building for tl in tiles):
        r.problem("tile", "a town needs a building to clear (TET-3, TET-4)")
    if r.problems or sid is None or title is None:
        raise ScenarioError(r.problems or [Problem(file, "scenario", "incomplete")])
    return TetScenario(sid, title, str(r.get(head, "briefing", "scenario.", str, "")),
                       str(r.get(head, "source", "scenario.", str, "")), int(turns), width, height, sides,
                       Town(tuple(tiles)), tuple(figures), raw)

