"""A One Brain-Cell scenario (``[scenario] ruleset = "obc"``): the table built of Dinky Dau terrain features
(docs/terrain.md; baked and cast by game.world for line of sight), the sides, and the squads (OBC-2) with
their men, vehicles and one-line orders (OBC-47). Every problem is reported with the file and field.

    [scenario]  ruleset, id, title, briefing?, source?, turns (10), table = {width, height}, wind_from? (one of
                the eight compass points the wind blows from: north, north-east, ... ; without it the game
                rolls it at setup, G-42), for OBC-39's smoke
    [[side]]    id (allied / insurgent), name, edge (north / south / east / west: its own table edge)
    [[terrain]] a Dinky Dau feature: id, type (game/data/terrain.toml), polygon | path + width | point +
                size or radius, rotation?, height?, canopy_bottom?, canopy_top?
    [[squad]]   id, side, name, kind (infantry, mortar, chopper, lorry, apc, tank), order (its line),
                aim? = {kind take | hold | land | support | evac, at = [x, y], radius}, leader? (a man id),
                authority (4-7, OBC-15), zone? (6), elite?, civilian?, answers_to?, supports? (OBC-48),
                aboard? (the vehicle its men start in), reserve? (enters when called by radio), levels? (the
                levels of authority a call to it crosses, OBC-49),
                men = [{id, name, weapon, at?, posture? (lying, standing), team?}],
                vehicle? = {id, name, at, facing?, height?, capacity?}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.rulesets.base import Problem, ScenarioError
from game.rulesets.obc.tables import POSTURES, tables
from game.terrain import terrain_book
from game.world.features import Feature, canopy_problem

SIDES = ("allied", "insurgent")
EDGES = ("north", "south", "east", "west")
KINDS = ("infantry", "mortar", "chopper", "lorry", "apc", "tank")
AIMS = ("take", "hold", "land", "support", "evac")
COMPASS = {"east": 0.0, "north-east": 45.0, "north": 90.0, "north-west": 135.0, "west": 180.0, "south-west": 225.0,
           "south": 270.0, "south-east": 315.0}
"""The eight compass points as headings on the table (degrees, east 0, north 90: +y is north)."""
FEATURE_KEYS = {"id", "type", "polygon", "path", "width", "point", "size", "radius", "rotation", "height",
                "canopy_bottom", "canopy_top"}


@dataclass(frozen=True)
class ManSetup:
    id: str
    name: str
    weapon: str
    x: float
    y: float
    posture: str
    team: str | None


@dataclass(frozen=True)
class VehicleSetup:
    id: str
    name: str
    x: float
    y: float
    facing: float
    height: float
    capacity: int


@dataclass(frozen=True)
class SquadSetup:
    id: str
    side: str
    name: str
    kind: str
    order: str
    aim: dict
    leader: str | None
    authority: int
    zone: float
    elite: bool
    civilian: bool
    answers_to: str | None
    supports: str | None
    aboard: str | None
    reserve: bool
    levels: int
    men: tuple[ManSetup, ...]
    vehicle: VehicleSetup | None


@dataclass(frozen=True)
class ObcScenario:
    id: str
    title: str
    briefing: str
    source: str
    turns: int
    width: float
    height: float
    sides: dict[str, str]
    edges: dict[str, str]
    features: tuple[Feature, ...]
    squads: tuple[SquadSetup, ...]
    raw: dict
    wind_from: str | None = None
    """Where the wind blows from (a ``COMPASS`` point), or None: rolled at setup (OBC-39, G-42)."""


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
        if not isinstance(v, kind) or (isinstance(v, bool) and kind in (int, float, (int, float))):
            self.problem(f"{path}{key}", f"should be {getattr(kind, '__name__', 'a number')}, got {type(v).__name__}")
            return None if default is ... else default
        return v

    def number(self, d: Any, key: str, path: str, default: Any = ...) -> float | None:
        v = self.get(d, key, path, (int, float), default)
        return None if v is None else float(v)

    def point(self, v: Any, path: str) -> tuple[float, float] | None:
        if not (isinstance(v, list) and len(v) == 2 and all(isinstance(c, (int, float)) and not isinstance(c, bool)
                                                             for c in v)):
            self.problem(path, "should be a point [x, y] in inches")
            return None
        return float(v[0]), float(v[1])

    def unknown(self, d: Any, keys: set[str], path: str) -> None:
        for k in sorted(set(d) - keys) if isinstance(d, dict) else ():
            self.problem(f"{path}{k}", f"unknown field (known: {', '.join(sorted(keys))})")


def _feature(r: _Reader, f: Any, p: str) -> Feature | None:
    if not isinstance(f, dict):
        r.problem(p.rstrip("."), "should be a table")
        return None
    r.unknown(f, FEATURE_KEYS, p)
    fid, ftype = r.get(f, "id", p, str), r.get(f, "type", p, str)
    book = terrain_book()
    if ftype is not None and ftype not in book.terrain:
        r.problem(f"{p}type", f"unknown terrain type {ftype!r} (known: {', '.join(sorted(book.terrain))})")
        return None
    shapes = [k for k in ("polygon", "path", "point") if k in f]
    if len(shapes) != 1:
        r.problem(p.rstrip("."), "needs exactly one of polygon, path or point")
        return None
    kw: dict[str, Any] = {}
    key = shapes[0]
    if key in ("polygon", "path"):
        pts = f[key] if isinstance(f[key], list) else []
        got = [r.point(q, f"{p}{key}[{i}]") for i, q in enumerate(pts)]
        if len(got) < (3 if key == "polygon" else 2) or None in got:
            r.problem(f"{p}{key}", "too few points")
            return None
        kw[key] = tuple(got)
        if key == "path":
            kw["width"] = r.number(f, "width", p)
    else:
        kw["point"] = r.point(f["point"], f"{p}point")
        if "size" in f:
            kw["size"] = r.point(f["size"], f"{p}size")
        else:
            kw["radius"] = r.number(f, "radius", p)
    for k in ("rotation", "height", "canopy_bottom", "canopy_top"):
        if k in f:
            kw[k] = r.number(f, k, p)
    if fid is None or ftype is None or any(v is None for v in kw.values()):
        return None
    feat = Feature(id=fid, type=ftype, **kw)
    if feat.shape().is_empty or feat.shape().area <= 0:
        r.problem(p.rstrip("."), "has no area")
        return None
    wrong = canopy_problem(feat, book.terrain[ftype].canopy_bottom, book.terrain[ftype].canopy_top)
    if wrong is not None:
        r.problem(p + wrong[0], wrong[1])
        return None
    return feat


def _squad(r: _Reader, s: Any, p: str, sides: dict, width: float, height: float) -> SquadSetup | None:
    t = tables()
    r.unknown(s, {"id", "side", "name", "kind", "order", "aim", "leader", "authority", "zone", "elite", "civilian",
                  "answers_to", "supports", "aboard", "reserve", "levels", "men", "vehicle"}, p)
    sid, side, name = r.get(s, "id", p, str), r.get(s, "side", p, str), r.get(s, "name", p, str)
    kind, order = r.get(s, "kind", p, str), r.get(s, "order", p, str)
    if side is not None and side not in sides:
        r.problem(f"{p}side", f"no [[side]] {side!r}")
    if kind is not None and kind not in KINDS:
        r.problem(f"{p}kind", f"one of {', '.join(KINDS)} (OBC-2)")
    a = t.authority
    level = r.get(s, "authority", p, int, a.least)
    if level is not None and not a.least - 3 <= level <= a.most:
        r.problem(f"{p}authority", f"an authority level {a.least}-{a.most} (OBC-15)")
    aim = r.get(s, "aim", p, dict, {"kind": "support"})
    if aim.get("kind") not in AIMS:
        r.problem(f"{p}aim.kind", f"one of {', '.join(AIMS)} (OBC-47)")
    elif aim["kind"] != "support":
        at = r.point(aim.get("at"), f"{p}aim.at")
        rad = r.number(aim, "radius", f"{p}aim.", 4.0)
        aim = {"kind": aim["kind"], "at": list(at) if at else [0, 0], "radius": rad}
    men = []
    for i, m in enumerate(r.get(s, "men", p, list, [])):
        mp = f"{p}men[{i}]."
        r.unknown(m, {"id", "name", "weapon", "at", "posture", "team"}, mp)
        mid, mname, weapon = r.get(m, "id", mp, str), r.get(m, "name", mp, str), r.get(m, "weapon", mp, str)
        if weapon is not None and weapon not in t.weapons:
            r.problem(f"{mp}weapon", f"unknown weapon {weapon!r} (weapons: {', '.join(t.weapons)})")
        posture = r.get(m, "posture", mp, str, "standing")
        if posture not in POSTURES:
            r.problem(f"{mp}posture", f"one of {', '.join(POSTURES)}")
        at = r.point(m["at"], f"{mp}at") if isinstance(m, dict) and "at" in m else None
        if at is None and not s.get("aboard"):
            r.problem(f"{mp}at", "is required (or the squad starts aboard a vehicle)")
        if at is not None and not (0 <= at[0] <= width and 0 <= at[1] <= height):
            r.problem(f"{mp}at", f"off the {width:g}\" x {height:g}\" table")
        if None not in (mid, mname, weapon):
            men.append(ManSetup(mid, mname, weapon, *(at or (0.0, 0.0)), posture, r.get(m, "team", mp, str, None)))
    vehicle = None
    if "vehicle" in s:
        v, vp = s["vehicle"], f"{p}vehicle."
        r.unknown(v, {"id", "name", "at", "facing", "height", "capacity"}, vp)
        vid, vname = r.get(v, "id", vp, str), r.get(v, "name", vp, str)
        at = r.point(v.get("at") if isinstance(v, dict) else None, f"{vp}at")
        h = r.number(v, "height", vp, 0.0)
        if kind != "chopper" and h:
            r.problem(f"{vp}height", "only a chopper flies (OBC-13)")
        if None not in (vid, vname, at):
            vehicle = VehicleSetup(vid, vname, at[0], at[1], r.number(v, "facing", vp, 90.0), h,
                                   int(r.get(v, "capacity", vp, int, 10)))
    elif kind in ("chopper", "lorry", "apc", "tank"):
        r.problem(f"{p}vehicle", f"a {kind} squad is one vehicle (OBC-2)")
    leader = r.get(s, "leader", p, str, None)
    if leader is not None and leader not in {m.id for m in men}:
        r.problem(f"{p}leader", f"no man {leader!r} in the squad")
    if None in (sid, side, name, kind, order, level) or side not in sides:
        return None
    return SquadSetup(sid, side, name, kind, order, aim, leader, level, r.number(s, "zone", p, a.zone),
                      bool(r.get(s, "elite", p, bool, False)), bool(r.get(s, "civilian", p, bool, False)),
                      r.get(s, "answers_to", p, str, None), r.get(s, "supports", p, str, None),
                      r.get(s, "aboard", p, str, None), bool(r.get(s, "reserve", p, bool, False)),
                      int(r.get(s, "levels", p, int, 3)), tuple(men), vehicle)


def build(raw: dict, file: str, text: str | None = None) -> ObcScenario:
    """Read a One Brain-Cell scenario, or raise ``ScenarioError`` listing every problem."""
    r = _Reader(file)
    r.unknown(raw, {"scenario", "side", "terrain", "squad"}, "")
    head = raw.get("scenario")
    r.unknown(head, {"ruleset", "id", "title", "briefing", "source", "turns", "table", "wind_from"}, "scenario.")
    wind = r.get(head, "wind_from", "scenario.", str, None)
    if wind is not None and wind not in COMPASS:
        r.problem("scenario.wind_from", f"one of {', '.join(COMPASS)} (OBC-39)")
    sid, title = r.get(head, "id", "scenario.", str), r.get(head, "title", "scenario.", str)
    turns = r.get(head, "turns", "scenario.", int, 10)
    table = r.get(head, "table", "scenario.", dict, {"width": 48, "height": 48})
    width = r.number(table, "width", "scenario.table.", 48.0) or 48.0
    height = r.number(table, "height", "scenario.table.", 48.0) or 48.0
    sides, edges = {}, {}
    for i, s in enumerate(r.get(raw, "side", "", list, [])):
        p = f"side[{i}]."
        r.unknown(s, {"id", "name", "edge"}, p)
        side = r.get(s, "id", p, str)
        if side not in SIDES:
            r.problem(f"{p}id", f"the sides are {' and '.join(SIDES)}")
            continue
        sides[side] = r.get(s, "name", p, str, side)
        edges[side] = r.get(s, "edge", p, str, "south" if side == "allied" else "north")
        if edges[side] not in EDGES:
            r.problem(f"{p}edge", f"one of {', '.join(EDGES)}")
    features, fids = [], set()
    for i, f in enumerate(r.get(raw, "terrain", "", list, [])):
        feat = _feature(r, f, f"terrain[{i}].")
        if feat is not None:
            if feat.id in fids:
                r.problem(f"terrain[{i}].id", f"duplicate feature id {feat.id!r}")
            fids.add(feat.id)
            features.append(feat)
    squads, ids = [], set()
    for i, s in enumerate(r.get(raw, "squad", "", list, [])):
        sq = _squad(r, s, f"squad[{i}].", sides, width, height)
        if sq is None:
            continue
        for thing in [sq.id] + [m.id for m in sq.men] + ([sq.vehicle.id] if sq.vehicle else []):
            if thing in ids:
                r.problem(f"squad[{i}]", f"id {thing!r} is used twice")
            ids.add(thing)
        squads.append(sq)
    vehicles = {sq.vehicle.id: sq for sq in squads if sq.vehicle}
    for i, sq in enumerate(squads):
        if sq.aboard is not None and (sq.aboard not in vehicles or vehicles[sq.aboard].side != sq.side):
            r.problem(f"squad[{i}].aboard", f"no vehicle {sq.aboard!r} of the {sq.side} side")
    for side in SIDES:
        if side not in sides:
            r.problem("side", f"the {side} side is missing")
        elif not any(sq.side == side and sq.men for sq in squads):
            r.problem("squad", f"the {side} side has no men")
    if r.problems or sid is None or title is None:
        raise ScenarioError(r.problems or [Problem(file, "scenario", "incomplete")])
    return ObcScenario(sid, title, str(r.get(head, "briefing", "scenario.", str, "")),
                       str(r.get(head, "source", "scenario.", str, "")), int(turns), width, height, sides, edges,
                       tuple(features), tuple(squads), raw, wind)
