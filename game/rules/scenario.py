"""Scenarios: the table, the terrain, the forces and the special rules of one game.

A scenario is a TOML file (``scenarios/*.toml``) or the same object sent inline in ``game.new``. The
format is documented in ``docs/scenarios.md``. Loading checks everything and reports *every* problem
at once, each with its location: the file, the line where one can be found, and the field path
(``element[2].stand[0].at``).

What this module leaves out: it only describes the start of a game. The rules that act on it live in
the other ``game.rules`` modules.
"""

from __future__ import annotations

import bisect
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shapely import STRtree
from shapely.geometry import Point

from game.rules.data import SIDES, Rulebook, rulebook
from game.rulesets.base import Problem, ScenarioError  # the seam's: every ruleset reports alike
from game.terrain import sight
from game.world import shapes
from game.world.features import Feature, base_rectangle, canopy_problem

SCENARIO_DIR = Path(__file__).resolve().parent.parent.parent / "scenarios"

SPECIAL_RULES = {
    "no_artillery": "DD-8.3: heavy artillery left out of a patrol clash",
    "meeting_engagement": "DD-4.35: both sides start on Blinds on opposite sides",
    "pacing_exempt": "DD-3.4: this scenario deliberately starts the forces further apart",
    "monsoon_grounds_air": "DD-3.8: all off-board air support is grounded",
    "gunship_on_station": "DD-6.10, G-27: a Cobra or Hog gunship on station escorts the Dustoff",
}
ELEMENT_KINDS = {"hq", "squad", "weapons", "team", "cell", "vehicle"}
INSERTION_KINDS = {
    "heliborne": "DD-3.5, G-27: the landing UH-1 slicks start on the LZ on Turn 1 (game.rules.insertion)",
    "riverine": "DD-3.5: Tango boats beached or within 12\" of the canal bank (not built: no boats yet)",
}
PACING_MIN, PACING_MAX = 12.0, 18.0  # DD-3.4
MAX_PROBLEMS = 1000
"""Problems reported at most for one scenario: a table of thousands of stacked stands has millions of
overlapping pairs (DD-3.20), and listing them all would hold the engine for minutes."""


@dataclass(frozen=True)
class StandSetup:
    id: str
    type: str
    x: float
    y: float
    facing: float


@dataclass(frozen=True)
class ElementSetup:
    id: str
    side: str
    name: str
    kind: str
    quality: str
    stands: tuple[StandSetup, ...]
    blind: str | None = None
    """Id of the Blind this element starts under (DD-4.7), or None when it starts on the table."""
    reserve: bool = False
    """Held off the table in the Insurgent Reserve Hand (Green Ghost, DD-4.8)."""
    embarked: str | None = None
    """The vehicle stand it starts aboard (DD-7.12; ``game.rules.transport``), or None."""
    underground: str | None = None
    """The tunnel section an Insurgent garrison starts in (TUN-13, G-43; ``game.rules.tunnels``): off the
    table, so ``reserve`` is true as well; the ``tunnels`` section reader checks the section exists."""


@dataclass(frozen=True)
class BlindSetup:
    id: str
    side: str
    x: float
    y: float
    dummy: bool
    stealth: bool = False
    """A Stealth Blind: an LRRP, SEAL or MACV-SOG team (DD-4.34)."""


@dataclass(frozen=True)
class AmbushPointSetup:
    """A secret Insurgent map point where reserves are sprung (DD-2.26): an ambush marker or a tunnel
    trapdoor. Never shown to the Allied side."""

    id: str
    x: float
    y: float
    kind: str


@dataclass(frozen=True)
class SideSetup:
    id: str
    faction: str
    name: str
    ambush_tokens: int
    tunnel_entrances: int


OBJECTIVE_KINDS = {
    "hold": "at the end the side has a stand in the area and the enemy has none there (G-30)",
    "clear": "at the end the enemy has no stand and no Blind in the area (G-30)",
}


@dataclass(frozen=True)
class SupportSetup:
    """Fire support a side has on call (DD-8.3, G-19): an off-board asset and how many missions."""

    side: str
    asset: str
    missions: int


@dataclass(frozen=True)
class ObjectiveSetup:
    """A scenario objective scored at the end of the game (G-30: a main objective is worth 3 VP)."""

    id: str
    name: str
    side: str
    kind: str
    vp: int
    polygon: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class InsertionSetup:
    """An assault insertion (DD-3.5, ``[scenario.insertion]``): the LZ, and the Allied elements that start
    on it (``game.rules.insertion``)."""

    kind: str
    x: float
    y: float
    radius: float
    elements: tuple[str, ...]
    feature: str | None = None
    """The terrain feature the LZ was named by, if it was."""


@dataclass(frozen=True)
class TripFlareSetup:
    """A hidden Allied Trip Flare token on the table from the start (``[[trip_flare]]``, DD-9A.2)."""

    id: str
    x: float
    y: float


@dataclass(frozen=True)
class Scenario:
    """A validated scenario."""

    id: str
    title: str
    source: str
    briefing: str
    width: float
    height: float
    turns: int
    weather: str
    time_of_day: str
    first_side: str
    features: tuple[Feature, ...]
    sides: dict[str, SideSetup]
    elements: tuple[ElementSetup, ...]
    blinds: tuple[BlindSetup, ...]
    special_rules: tuple[str, ...]
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    """The source object, for saves and the engine protocol."""
    ambush_points: tuple[AmbushPointSetup, ...] = ()
    objectives: tuple[ObjectiveSetup, ...] = ()
    support: tuple[SupportSetup, ...] = ()
    """Off-board fire support on call (DD chapter 8; ``game.rules.fire_support``)."""
    shadow_blinds: int | None = None
    """Solo play: how many Shadow Blinds the Jungle Ghost adds (DD-10.3); None: the engine's policy
    (docs/ai.md, "Shadow Blinds and the scenario's own force")."""
    insertion: InsertionSetup | None = None
    """An assault insertion (DD-3.5): a heliborne LZ the inserted elements start on, or None."""
    trip_flares: tuple[TripFlareSetup, ...] = ()
    """Hidden Allied trip flares on the table from the start (DD-9A.2; ``game.rules.night``)."""
    flares_to_place: int = 0
    """Trip flares the Allied side places at setup (``[scenario] trip_flares``, G-38)."""
    river_mines: tuple = ()
    """The Insurgent's secret River Mine tokens (DD-9A.11; ``game.rules.river_mines.RiverMineSetup``)."""
    sections: dict[str, Any] = field(default_factory=dict, compare=False)
    """What each chapter's own scenario section holds (:data:`SECTIONS`), by section name; a section the
    file does not have is absent."""

    @property
    def solo_only(self) -> bool:
        """A solo table (DD-10.3): no Insurgent force of its own, only the Jungle Ghost's Shadow Blinds, so
        the Insurgent side can only be the Jungle Ghost."""
        return bool(self.shadow_blinds) and not any(e.side == "insurgent" for e in self.elements) \
            and not any(b.side == "insurgent" for b in self.blinds)


# --------------------------------------------------------------------------------------------------
# Locating a field path in the TOML text, so errors can name a line.

class _Lines:
    """An index of a TOML text's lines for :func:`_locate`: where each ``[[header]]``, each ``key =``
    and each ``[section]`` line is. Built once per text, so locating every problem of a big file costs
    a few bisections each, not a scan of the file each (a scenario with thousands of problems)."""

    _HEADER = re.compile(r"^\s*\[\[(.*?)\]\]")
    _KEY = re.compile(r"^\s*([A-Za-z_]+)\s*=")
    _SECTION = re.compile(r"^\s*\[\s*([A-Za-z_]+)\s*\]")

    def __init__(self, text: str):
        self.headers: dict[str, list[int]] = {}
        """``[[header]]`` lines by header, in order."""
        self.names: dict[str, list[int]] = {}
        """``name =`` and ``[name]`` lines by name, in order."""
        self.arrays: list[int] = []
        """Lines that start with ``[[`` (an array-of-tables header, well formed or not)."""
        for i, line in enumerate(text.splitlines()):
            if line.lstrip().startswith("[["):
                self.arrays.append(i)
            m = self._HEADER.match(line)
            if m:
                self.headers.setdefault(m.group(1).strip(), []).append(i)
                continue
            m = self._KEY.match(line) or self._SECTION.match(line)
            if m:
                self.names.setdefault(m.group(1), []).append(i)


def _locate(text: str | None, path: str, index: _Lines | None = None) -> int | None:
    """The line (1-based) where a field path can be found in the TOML text, or None.

    ``element[2].stand[0].at``: the third ``[[element]]``, the first ``[[element.stand]]`` after it, and
    the first ``at =`` after that before the next ``[[`` header; a path that runs out early gives the line
    of the last part found."""
    if not text:
        return None
    lines = index or _Lines(text)
    parts = re.findall(r"([A-Za-z_]+)(?:\[(\d+)\])?", path)
    start, header = 0, ""
    found: int | None = None
    for name, number in parts:
        if number:
            header = f"{header}.{name}" if header else name
            at = lines.headers.get(header, [])
            k = bisect.bisect_left(at, start) + int(number)
            if k >= len(at):
                return found
            start = at[k]
            found = start + 1
        else:
            at = lines.names.get(name, [])
            k = bisect.bisect_left(at, start)
            if k < len(at):
                stop = bisect.bisect_right(lines.arrays, start)
                if not header or stop >= len(lines.arrays) or at[k] < lines.arrays[stop]:
                    return at[k] + 1
            return found
    return found


class _Reader:
    """Collects problems while reading a raw scenario object."""

    def __init__(self, file: str, text: str | None):
        self.file = file
        self.text = text
        self.problems: list[Problem] = []
        self.more = False
        """Problems were left out past ``MAX_PROBLEMS``."""
        self._lines: _Lines | None = None

    @property
    def full(self) -> bool:
        return len(self.problems) >= MAX_PROBLEMS

    def problem(self, path: str, message: str) -> None:
        if self.full:
            self.more = True
            return
        if self.text and self._lines is None:
            self._lines = _Lines(self.text)
        self.problems.append(Problem(self.file, path, message, _locate(self.text, path, self._lines)))

    def fail(self) -> ScenarioError:
        """The error listing every problem found (the first ``MAX_PROBLEMS``, and a line saying so)."""
        problems = list(self.problems)
        if self.more:
            problems.append(Problem(self.file, "", f"more problems not listed: only the first {MAX_PROBLEMS} "
                                                   f"are reported"))
        return ScenarioError(problems)

    def get(self, obj: dict, key: str, path: str, kind: type | tuple, default: Any = ..., ) -> Any:
        if key not in obj:
            if default is ...:
                self.problem(f"{path}{key}", "is required")
                return None
            return default
        value = obj[key]
        ok = isinstance(value, kind) and not (isinstance(value, bool) and kind in (int, float, (int, float)))
        if not ok:
            name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            self.problem(f"{path}{key}", f"should be {name}, got {value!r}")
            return None if default is ... else default
        return value

    def unknown(self, obj: dict, allowed: set[str], path: str) -> None:
        for key in sorted(set(obj) - allowed):
            self.problem(f"{path}{key}", "unknown field")

    def point(self, value: Any, path: str) -> tuple[float, float] | None:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        ):
            self.problem(path, f"should be a point [x, y] in inches, got {value!r}")
            return None
        return (float(value[0]), float(value[1]))

    def placed(self, rows: Any, section: str, what: str, prefix: str, width: float, height: float
               ) -> list[tuple[str, tuple[float, float], str]]:
        """Rows of a ``[[section]]`` of secret tokens placed on the table (trip flares, river mines): each
        an optional ``id`` (default ``prefix`` and its number) and an ``at`` [x, y] on the table, ids
        unique. Problems name the row and field; returns (id, at, the row's path) for the good rows."""
        out: list[tuple[str, tuple[float, float], str]] = []
        if not isinstance(rows, list):
            self.problem(section, f"should be a list of [[{section}]] tables")
            return out
        seen: set[str] = set()
        for i, raw in enumerate(rows):
            p = f"{section}[{i}]."
            if not isinstance(raw, dict):
                self.problem(f"{section}[{i}]", "should be a table")
                continue
            self.unknown(raw, {"id", "at"}, p)
            tid = self.get(raw, "id", p, str, f"{prefix}{i + 1}")
            at = self.point(raw.get("at"), p + "at") if "at" in raw else self.get(raw, "at", p, list)
            if tid in seen:
                self.problem(p + "id", f"duplicate {what} id '{tid}'")
            if tid is None or at is None:
                continue
            seen.add(tid)
            if not (0 <= at[0] <= width and 0 <= at[1] <= height):
                self.problem(p + "at", f"{what} at {list(at)} is off the {width:g}x{height:g} table")
                continue
            out.append((tid, at, p))
        return out

    def points(self, value: Any, path: str, minimum: int) -> tuple[tuple[float, float], ...] | None:
        if not isinstance(value, list) or len(value) < minimum:
            self.problem(path, f"should be a list of at least {minimum} points [x, y]")
            return None
        pts = [self.point(v, f"{path}[{i}]") for i, v in enumerate(value)]
        if any(p is None for p in pts):
            return None
        return tuple(p for p in pts if p is not None)


@dataclass(frozen=True)
class SectionContext:
    """What a chapter's scenario section reader may check its rows against (:data:`SECTIONS`)."""

    width: float
    height: float
    features: tuple[Feature, ...]
    elements: tuple[ElementSetup, ...]
    blinds: tuple[BlindSetup, ...]
    book: Rulebook
    sides: dict[str, SideSetup] = field(default_factory=dict)
    """The sides and their factions (TUN-13: an NVA force provides no tunnel garrison)."""


SECTIONS: dict[str, str] = {
    "booby_trap": "game.rules.booby_traps",  # DD-9B.1: [[booby_trap]]
    "tunnels": "game.rules.tunnels",  # DD-9B.3-9B.7, TUN-1-TUN-7, TUN-24: [tunnels], [[tunnels.section]], [[tunnels.link]]
    "village": "game.rules.village",  # DD-9B.8-9B.13, G-35, G-39: [village]
}
"""The chapter seam for scenario files: a top-level table (or array of tables) named here is read by
``read_scenario(r, raw, ctx) -> value`` of the module named, which reports problems through ``r`` (naming the
section, row and field); the value is kept in ``Scenario.sections[name]``."""


def _read_sections(r: _Reader, raw: dict, ctx: SectionContext) -> dict[str, Any]:
    import importlib

    out: dict[str, Any] = {}
    for name, module in sorted(SECTIONS.items()):
        if name in raw:
            out[name] = importlib.import_module(module).read_scenario(r, raw[name], ctx)
    return out


_TOP = {"scenario", "terrain", "side", "element", "blind", "ambush_point", "objective", "support", "trip_flare",
        "river_mine", *SECTIONS}
_SCEN = {
    "ruleset", "id", "title", "source", "briefing", "table", "turns", "weather", "time_of_day", "first_side",
    "special_rules", "shadow_blinds", "insertion", "trip_flares",
}
_FEATURE = {
    "id", "type", "polygon", "path", "width", "point", "size", "radius", "rotation", "height",
    "canopy_bottom", "canopy_top",
}


def _read_features(r: _Reader, raw: list, book: Rulebook) -> list[Feature]:
    out: list[Feature] = []
    seen: set[str] = set()
    for i, f in enumerate(raw):
        p = f"terrain[{i}]."
        if not isinstance(f, dict):
            r.problem(f"terrain[{i}]", "should be a table")
            continue
        r.unknown(f, _FEATURE, p)
        fid = r.get(f, "id", p, str)
        ftype = r.get(f, "type", p, str)
        if fid is not None:
            if fid in seen:
                r.problem(p + "id", f"duplicate feature id '{fid}'")
            seen.add(fid)
        if ftype is not None and ftype not in book.terrain:
            r.problem(p + "type", f"unknown terrain type '{ftype}' (known: {', '.join(sorted(book.terrain))})")
            ftype = None
        shapes = [k for k in ("polygon", "path", "point") if k in f]
        if len(shapes) != 1:
            r.problem(p.rstrip("."), "needs exactly one of polygon, path or point")
            continue
        kw: dict[str, Any] = {}
        if "polygon" in f:
            kw["polygon"] = r.points(f["polygon"], p + "polygon", 3)
        elif "path" in f:
            kw["path"] = r.points(f["path"], p + "path", 2)
            kw["width"] = r.get(f, "width", p, (int, float))
            if kw["width"] is not None and kw["width"] <= 0:
                r.problem(p + "width", "must be positive")
        else:
            kw["point"] = r.point(f["point"], p + "point")
            if "size" in f:
                kw["size"] = r.point(f["size"], p + "size")
            elif "radius" in f:
                kw["radius"] = r.get(f, "radius", p, (int, float))
            else:
                r.problem(p + "size", "a point feature needs size [w, d] or radius")
        for key in ("rotation", "height", "canopy_bottom", "canopy_top"):
            if key in f:
                kw[key] = r.get(f, key, p, (int, float))
        if fid is None or ftype is None or any(v is None for v in kw.values()):
            continue
        kw = {k: (float(v) if isinstance(v, int) else v) for k, v in kw.items()}
        feat = Feature(id=fid, type=ftype, **kw)
        shape = feat.shape()
        if shape.is_empty or shape.area <= 0:
            r.problem(p.rstrip("."), "has no area")
            continue
        wrong = canopy_problem(feat, book.terrain[ftype].canopy_bottom, book.terrain[ftype].canopy_top)
        if wrong is not None:
            r.problem(p + wrong[0], wrong[1])
            continue
        if book.terrain[ftype].elevation and feat.height <= 0:
            r.problem(p + "height", "a hill needs a positive height")
        out.append(feat)
    return out


def _read_support(r: _Reader, raw: Any, specials: list) -> list[SupportSetup]:
    """``[[support]]`` rows (DD-8.3): each names a side, an off-board asset of ``fire_support.toml``
    (G-19) that side may have, and its missions (at least 1). ``no_artillery`` leaves heavy guns out."""
    from game.rules.fire_support.tables import load_fire_support

    out: list[SupportSetup] = []
    if not isinstance(raw, list):
        r.problem("support", "should be a list of [[support]] tables")
        return out
    assets = load_fire_support().assets
    seen: set[tuple[str, str]] = set()
    for i, o in enumerate(raw):
        p = f"support[{i}]."
        if not isinstance(o, dict):
            r.problem(f"support[{i}]", "should be a table")
            continue
        r.unknown(o, {"side", "asset", "missions"}, p)
        side = r.get(o, "side", p, str)
        aid = r.get(o, "asset", p, str)
        missions = r.get(o, "missions", p, int)
        asset = assets.get(aid) if isinstance(aid, str) else None
        if aid is not None and asset is None:
            r.problem(p + "asset", f"unknown asset '{aid}' (known: {', '.join(assets)})")
        if side is not None and side not in SIDES:
            r.problem(p + "side", f"'{side}' is not a side")
        if None in (side, aid, missions) or asset is None or side not in SIDES:
            continue
        if side not in asset.sides:
            r.problem(p + "asset", f"the {side} side has no {asset.name} (G-19: {', '.join(asset.sides)})")
        if asset.kind == "onboard":
            r.problem(p + "asset", f"{asset.name} is a team on the table, not an asset on call (G-37)")
        if missions < 1:
            r.problem(p + "missions", "at least 1 mission (DD-8.3)")
        if asset.heavy and "no_artillery" in (specials or []):
            r.problem(p + "asset", f"{asset.name} is heavy artillery, and the scenario's no_artillery rule "
                                   "leaves it out (DD-8.3)")
        if (side, aid) in seen:
            r.problem(p + "asset", f"'{aid}' is listed twice for the {side} side")
        seen.add((side, aid))
        out.append(SupportSetup(side, aid, missions))
    return out


def _read_objectives(r: _Reader, raw: Any, width: float, height: float) -> list[ObjectiveSetup]:
    out: list[ObjectiveSetup] = []
    if not isinstance(raw, list):
        r.problem("objective", "should be a list of [[objective]] tables")
        return out
    for i, o in enumerate(raw):
        p = f"objective[{i}]."
        if not isinstance(o, dict):
            r.problem(f"objective[{i}]", "should be a table")
            continue
        r.unknown(o, {"id", "name", "side", "kind", "vp", "polygon", "point", "radius"}, p)
        oid = r.get(o, "id", p, str)
        side = r.get(o, "side", p, str)
        kind = r.get(o, "kind", p, str, "hold")
        vp = r.get(o, "vp", p, int, 3)
        if side is not None and side not in SIDES:
            r.problem(p + "side", f"'{side}' is not a side")
        if kind not in OBJECTIVE_KINDS:
            r.problem(p + "kind", f"unknown objective kind '{kind}' (known: {', '.join(OBJECTIVE_KINDS)})")
        if vp is not None and vp <= 0:
            r.problem(p + "vp", "an objective is worth a positive number of VP to its side")
        if "polygon" in o:
            poly = r.points(o["polygon"], p + "polygon", 3)
        elif "point" in o:
            centre = r.point(o["point"], p + "point")
            radius = r.get(o, "radius", p, (int, float))
            poly = None
            if centre is not None and radius:
                ring = Point(centre).buffer(float(radius), quad_segs=8)
                poly = tuple((round(x, 4), round(y, 4)) for x, y in ring.exterior.coords[:-1])
        else:
            r.problem(p.rstrip("."), "an objective needs a polygon, or a point and a radius")
            continue
        if None in (oid, side, kind, vp, poly) or side not in SIDES or kind not in OBJECTIVE_KINDS:
            continue
        if any(not (0 <= x <= width and 0 <= y <= height) for x, y in poly):
            r.problem(p.rstrip("."), "the objective's area runs off the table")
        out.append(ObjectiveSetup(oid, r.get(o, "name", p, str, oid), side, kind, vp, poly))
    return out


def _read_insertion(r: _Reader, raw: Any, features: list[Feature], elements: list[ElementSetup], width: float,
                    height: float, weather: str, book: Rulebook) -> InsertionSetup | None:
    """``[scenario.insertion]`` (DD-3.5): ``kind`` (``heliborne``; ``riverine`` needs boats, not built yet),
    ``lz`` (a point [x, y] or a terrain feature's id: its centre), ``radius`` (default ``insertion.toml``)
    and ``elements`` (Allied ids; default every Allied element on the table at the start). Every stand of
    an inserted element must start with its centre on the LZ, and the LZ must lie on the table."""
    from game.rules.insertion import heliborne_rules

    p = "scenario.insertion."
    if not isinstance(raw, dict):
        r.problem("scenario.insertion", "should be a table: kind, lz, and optionally radius and elements")
        return None
    r.unknown(raw, {"kind", "lz", "radius", "elements"}, p)
    kind = r.get(raw, "kind", p, str)
    if kind is None:
        return None
    if kind not in INSERTION_KINDS:
        r.problem(p + "kind", f"unknown insertion kind '{kind}' (known: {', '.join(INSERTION_KINDS)})")
        return None
    if kind == "riverine":
        r.problem(p + "kind", "a riverine insertion needs Tango boats beached or within 12\" of the canal bank "
                              "(DD-3.5), and boats are not built yet")
        return None
    if weather == "monsoon":
        r.problem(p + "kind", "the monsoon grounds all air support: no heliborne insertion (DD-3.8)")
    elif weather == "roll":
        r.problem(p + "kind", "a rolled weather may be the monsoon, which grounds the insertion: choose the "
                              "scenario's weather (DD-3.8, DD-9A.5)")
    feature = None
    lz = raw.get("lz")
    if lz is None:
        r.problem(p + "lz", "is required: the LZ's centre [x, y] or a terrain feature's id")
        return None
    if isinstance(lz, str):
        match = next((f for f in features if f.id == lz), None)
        if match is None:
            r.problem(p + "lz", f"no terrain feature '{lz}' to land on")
            return None
        c = match.shape().centroid
        feature, centre = lz, (round(c.x, 3), round(c.y, 3))
    else:
        centre = r.point(lz, p + "lz")
        if centre is None:
            return None
    radius = r.get(raw, "radius", p, (int, float), heliborne_rules().lz_radius)
    if radius is None:
        return None
    if radius <= 0:
        r.problem(p + "radius", "the LZ's radius must be positive")
        return None
    x, y, radius = centre[0], centre[1], float(radius)
    if not (radius <= x <= width - radius and radius <= y <= height - radius):
        r.problem(p + "lz", f"the LZ (radius {radius:g}\") around [{x:g}, {y:g}] runs off the {width:g}x{height:g} "
                            f"table")
    allied = {e.id: e for e in elements if e.side == "allied"}
    names = r.get(raw, "elements", p, list, None)
    if names is None:
        names = [e.id for e in elements if e.side == "allied" and e.blind is None]
    picked: list[str] = []
    for i, eid in enumerate(names):
        el = allied.get(eid) if isinstance(eid, str) else None
        if el is None:
            r.problem(f"{p}elements[{i}]", f"no Allied element {eid!r}")
        elif el.blind is not None:
            r.problem(f"{p}elements[{i}]", f"'{eid}' starts under Blind '{el.blind}': an inserted element lands on "
                                           f"the LZ as miniatures (DD-3.5)")
        elif eid in picked:
            r.problem(f"{p}elements[{i}]", f"'{eid}' is listed twice")
        else:
            picked.append(eid)
    if not picked:
        r.problem(p + "elements", "no Allied element inserts (DD-3.5)")
    for i, el in enumerate(elements):
        if el.id not in picked:
            continue
        for j, st in enumerate(el.stands):
            off = math.hypot(st.x - x, st.y - y)
            if off > radius + 1e-9:
                r.problem(f"element[{i}].stand[{j}].at", f"stand '{st.id}' of inserted element '{el.id}' starts "
                                                         f"{off:.2f}\" from the LZ's centre [{x:g}, {y:g}], outside "
                                                         f"its {radius:g}\" radius (DD-3.5: it lands on the LZ)")
    return InsertionSetup(kind, x, y, radius, tuple(picked), feature)


def _check_vehicles(r: _Reader, elements: list[ElementSetup], book: Rulebook) -> None:
    """DD chapter 7: a ``vehicle`` element is one vehicle stand, and a vehicle stand is one element of its
    own; an ``embarked`` element starts aboard a vehicle stand of its side, not under a Blind."""
    hulls = {st.id: el for el in elements for st in el.stands if book.stands[st.type].vehicle}
    for i, el in enumerate(elements):
        p = f"element[{i}]."
        vehicle_stands = [st for st in el.stands if book.stands[st.type].vehicle]
        if el.kind == "vehicle" and (len(el.stands) != 1 or not vehicle_stands):
            r.problem(p + "kind", "a vehicle element holds exactly one vehicle stand (DD chapter 7)")
        if vehicle_stands and el.kind != "vehicle":
            r.problem(p + "kind", f"'{vehicle_stands[0].id}' is a vehicle: its element's kind is 'vehicle'")
        if el.embarked is not None:
            carrier = hulls.get(el.embarked)
            if carrier is None or carrier.side != el.side:
                r.problem(p + "embarked", f"no vehicle stand '{el.embarked}' of the {el.side} side")
            if el.blind is not None or el.reserve or el.kind == "vehicle":
                r.problem(p + "embarked", "an embarked element is neither a vehicle, under a Blind nor in reserve")


def _check_bases(r: _Reader, elements: list[ElementSetup], book: Rulebook, width: float, height: float) -> None:
    """Every stand on the table, and no two bases on the table overlapping (DD-3.20); stands under a Blind
    or in reserve are not on the table yet. Each stand is checked against the stands before it, in order,
    found through a spatial index (near-linear in the number of stands: only bases whose bounds meet are
    compared)."""
    stands = []
    for i, el in enumerate(elements):
        for j, st in enumerate(el.stands):
            b = book.base_of(st.type)
            stands.append((f"element[{i}].stand[{j}].at", st, base_rectangle(st.x, st.y, st.facing, b.width, b.depth),
                           el.blind is None and not el.reserve and el.embarked is None))
    placed = [(st.id, rect) for _, st, rect, on_table in stands if on_table]
    tree = STRtree([rect for _, rect in placed]) if placed else None
    k = 0  # how many placed stands come before this one
    for path, st, rect, on_table in stands:
        minx, miny, maxx, maxy = rect.bounds
        if minx < 0 or miny < 0 or maxx > width or maxy > height:
            r.problem(path, f"stand '{st.id}' at {[st.x, st.y]} is off the {width:g}x{height:g} table")
        if not on_table:
            continue
        if not r.full:  # past the limit the rest are not listed (and not looked for)
            for n in sorted(int(n) for n in tree.query(rect) if n < k):
                other_id, other_rect = placed[n]
                if shapes.overlap(rect, other_rect) > 1e-6:
                    r.problem(path, f"stand '{st.id}' overlaps stand '{other_id}' (DD-3.20)")
        k += 1


def build_scenario(raw: Any, file: str = "<inline>", text: str | None = None, book: Rulebook | None = None) -> Scenario:
    """Validate a raw scenario object and build a :class:`Scenario`, or raise :class:`ScenarioError`."""
    book = book or rulebook()
    r = _Reader(file, text)
    if not isinstance(raw, dict):
        raise ScenarioError([Problem(file, "", "a scenario must be a table/object")])
    r.unknown(raw, _TOP, "")
    head = raw.get("scenario")
    if not isinstance(head, dict):
        r.problem("scenario", "the [scenario] table is required")
        raise r.fail()
    r.unknown(head, _SCEN, "scenario.")
    if head.get("ruleset", "dinky_dau") != "dinky_dau":  # the registry picks the reader (game.rulesets)
        r.problem("scenario.ruleset", f"a Dinky Dau scenario, not {str(head.get('ruleset'))[:40]!r}")
    sid = r.get(head, "id", "scenario.", str)
    title = r.get(head, "title", "scenario.", str)
    source = r.get(head, "source", "scenario.", str, "")
    briefing = r.get(head, "briefing", "scenario.", str, "")
    table = r.get(head, "table", "scenario.", dict)
    width = height = 48.0
    if table is not None:
        r.unknown(table, {"width", "height"}, "scenario.table.")
        width = r.get(table, "width", "scenario.table.", (int, float)) or 48.0
        height = r.get(table, "height", "scenario.table.", (int, float)) or 48.0
        if width <= 0 or height <= 0 or width > 240 or height > 240:
            r.problem("scenario.table", f"table size {width}x{height} is not sensible (DD-1.2)")
    turns = r.get(head, "turns", "scenario.", int, book.turn.default_turns)
    if turns is not None and not 1 <= turns <= 20:
        r.problem("scenario.turns", f"{turns} turns is outside 1..20 (DD-1.4: typically 5-7)")
    weather = r.get(head, "weather", "scenario.", str, "clear")
    weathers, times = sight().weather, sight().time  # sight.toml: the weathers and times the rules know
    if weather not in weathers and weather != "roll":  # DD-9A.5: "roll" rolls the Tropical Weather Table
        r.problem("scenario.weather", f"unknown weather '{weather}' (known: {', '.join(weathers)}, or roll)")
    tod = r.get(head, "time_of_day", "scenario.", str, "day")
    if tod not in times:
        r.problem("scenario.time_of_day", f"unknown time of day '{tod}' (known: {', '.join(times)})")
    first = r.get(head, "first_side", "scenario.", str, book.turn.first_side)
    if first not in SIDES:
        r.problem("scenario.first_side", f"'{first}' is not a side ({', '.join(SIDES)})")
    specials = r.get(head, "special_rules", "scenario.", list, [])
    for i, s in enumerate(specials or []):
        if s not in SPECIAL_RULES:
            r.problem(f"scenario.special_rules[{i}]", f"unknown special rule {s!r} (known: {', '.join(SPECIAL_RULES)})")

    shadows = r.get(head, "shadow_blinds", "scenario.", int, None)
    if shadows is not None and not 0 <= shadows <= 16:
        r.problem("scenario.shadow_blinds", f"{shadows} Shadow Blinds is outside 0..16 (DD-10.3: 6 or 8)")

    features = _read_features(r, raw.get("terrain", []) if isinstance(raw.get("terrain", []), list) else [], book)

    sides: dict[str, SideSetup] = {}
    for i, s in enumerate(raw.get("side", [])):
        p = f"side[{i}]."
        if not isinstance(s, dict):
            r.problem(f"side[{i}]", "should be a table")
            continue
        r.unknown(s, {"id", "faction", "name", "ambush_tokens", "tunnel_entrances"}, p)
        side_id = r.get(s, "id", p, str)
        faction = r.get(s, "faction", p, str)
        if side_id is not None and side_id not in SIDES:
            r.problem(p + "id", f"'{side_id}' is not a side ({', '.join(SIDES)})")
            continue
        if faction is not None and faction not in book.factions:
            r.problem(p + "faction", f"unknown faction '{faction}'")
            continue
        if side_id is None or faction is None:
            continue
        if book.factions[faction].side != side_id:
            r.problem(p + "faction", f"faction '{faction}' fights on the {book.factions[faction].side} side")
        if side_id in sides:
            r.problem(p + "id", f"side '{side_id}' is defined twice")
        sides[side_id] = SideSetup(
            id=side_id,
            faction=faction,
            name=r.get(s, "name", p, str, book.factions[faction].name),
            ambush_tokens=r.get(s, "ambush_tokens", p, int, book.turn.ambush_tokens_start),
            tunnel_entrances=r.get(s, "tunnel_entrances", p, int, 0),
        )
    for side_id in SIDES:
        if side_id not in sides:
            r.problem("side", f"side '{side_id}' is missing")

    blinds: list[BlindSetup] = []
    blind_ids: set[str] = set()
    for i, b in enumerate(raw.get("blind", [])):
        p = f"blind[{i}]."
        if not isinstance(b, dict):
            r.problem(f"blind[{i}]", "should be a table")
            continue
        r.unknown(b, {"id", "side", "at", "dummy", "stealth"}, p)
        bid = r.get(b, "id", p, str)
        bside = r.get(b, "side", p, str)
        at = r.point(b.get("at"), p + "at") if "at" in b else r.get(b, "at", p, list)
        dummy = r.get(b, "dummy", p, bool, False)
        stealth = r.get(b, "stealth", p, bool, False)
        if bside is not None and bside not in SIDES:
            r.problem(p + "side", f"'{bside}' is not a side")
        if bid is not None and bid in blind_ids:
            r.problem(p + "id", f"duplicate blind id '{bid}'")
        if bid is None or bside is None or at is None:
            continue
        blind_ids.add(bid)
        if not (0 <= at[0] <= width and 0 <= at[1] <= height):
            r.problem(p + "at", f"blind at {list(at)} is off the {width}x{height} table")
        blinds.append(BlindSetup(bid, bside, at[0], at[1], bool(dummy), bool(stealth)))

    points: list[AmbushPointSetup] = []
    for i, a in enumerate(raw.get("ambush_point", [])):
        p = f"ambush_point[{i}]."
        if not isinstance(a, dict):
            r.problem(f"ambush_point[{i}]", "should be a table")
            continue
        r.unknown(a, {"id", "at", "kind"}, p)
        aid = r.get(a, "id", p, str)
        at = r.point(a.get("at"), p + "at") if "at" in a else r.get(a, "at", p, list)
        akind = r.get(a, "kind", p, str, "ambush")
        if akind not in ("ambush", "tunnel"):
            r.problem(p + "kind", f"'{akind}' is not ambush or tunnel (DD-2.26)")
        if aid is None or at is None:
            continue
        if not (0 <= at[0] <= width and 0 <= at[1] <= height):
            r.problem(p + "at", f"ambush point at {list(at)} is off the {width}x{height} table")
        points.append(AmbushPointSetup(aid, at[0], at[1], akind))

    elements: list[ElementSetup] = []
    ids: set[str] = set(blind_ids)
    blind_by_id: dict[str, BlindSetup] = {}
    for b in blinds:
        blind_by_id.setdefault(b.id, b)  # the first of a duplicated id, as before
    for i, e in enumerate(raw.get("element", [])):
        p = f"element[{i}]."
        if not isinstance(e, dict):
            r.problem(f"element[{i}]", "should be a table")
            continue
        r.unknown(e, {"id", "side", "name", "kind", "quality", "stand", "blind", "reserve", "embarked",
                      "underground"}, p)
        eid = r.get(e, "id", p, str)
        eside = r.get(e, "side", p, str)
        kind = r.get(e, "kind", p, str, "squad")
        if kind not in ELEMENT_KINDS:
            r.problem(p + "kind", f"unknown element kind '{kind}' (known: {', '.join(sorted(ELEMENT_KINDS))})")
        if eid is not None:
            if eid in ids:
                r.problem(p + "id", f"duplicate id '{eid}'")
            ids.add(eid)
        if eside is not None and eside not in SIDES:
            r.problem(p + "side", f"'{eside}' is not a side")
            eside = None
        quality = r.get(e, "quality", p, str, None)
        if quality is None and eside in sides:
            quality = book.factions[sides[eside].faction].quality
        if quality is not None and quality not in book.qualities:
            r.problem(p + "quality", f"unknown quality '{quality}'")
        blind = r.get(e, "blind", p, str, None)
        reserve = bool(r.get(e, "reserve", p, bool, False))
        underground = r.get(e, "underground", p, str, None)
        if underground is not None:
            if eside not in (None, "insurgent"):
                r.problem(p + "underground", "only an Insurgent garrison starts in the tunnels (TUN-13)")
            if blind is not None:
                r.problem(p + "underground", "a garrison in the tunnels cannot also be under a blind (TUN-13)")
            if "tunnels" not in raw:
                r.problem(p + "underground", f"section '{underground}': the scenario has no [tunnels]")
            elif eside != "allied" and blind is None:
                reserve = True  # off the table (G-43): the tunnels chapter knows where
        if reserve and eside not in (None, "insurgent"):
            r.problem(p + "reserve", "only the Insurgent side holds a Reserve Hand (DD-4.8)")
        if reserve and blind is not None:
            r.problem(p + "reserve", "a reserve is off the table and cannot also be under a blind (DD-4.8)")
        if blind is not None:
            match = blind_by_id.get(blind)
            if match is None:
                r.problem(p + "blind", f"no blind '{blind}'")
            elif match.dummy:
                r.problem(p + "blind", f"blind '{blind}' is a dummy and holds nothing")
            elif eside is not None and match.side != eside:
                r.problem(p + "blind", f"blind '{blind}' belongs to the {match.side} side")
        stands: list[StandSetup] = []
        raw_stands = e.get("stand", [])
        if not isinstance(raw_stands, list) or not raw_stands:
            r.problem(p + "stand", "an element needs at least one [[element.stand]]")
            raw_stands = []
        for j, st in enumerate(raw_stands):
            q = f"element[{i}].stand[{j}]."
            if not isinstance(st, dict):
                r.problem(q.rstrip("."), "should be a table")
                continue
            r.unknown(st, {"id", "type", "at", "facing"}, q)
            stid = r.get(st, "id", q, str)
            stype = r.get(st, "type", q, str)
            at = r.point(st["at"], q + "at") if "at" in st else r.get(st, "at", q, list)
            facing = r.get(st, "facing", q, (int, float), 90.0)
            if stid is not None:
                if stid in ids:
                    r.problem(q + "id", f"duplicate id '{stid}'")
                ids.add(stid)
            if stype is not None and stype not in book.stands:
                r.problem(q + "type", f"unknown stand type '{stype}'")
                stype = None
            if stype is not None and eside is not None and book.stands[stype].side != eside:
                r.problem(q + "type", f"stand type '{stype}' belongs to the {book.stands[stype].side} side")
            if None in (stid, stype, at, facing):
                continue
            stands.append(StandSetup(stid, stype, at[0], at[1], float(facing)))
        if eid is None or eside is None or quality is None:
            continue
        elements.append(
            ElementSetup(eid, eside, r.get(e, "name", p, str, eid), kind, quality, tuple(stands), blind, reserve,
                         r.get(e, "embarked", p, str, None), underground)
        )

    _check_vehicles(r, elements, book)
    # Geometry checks: on the table, no overlapping bases (DD-3.20), at least one element each side.
    _check_bases(r, elements, book, width, height)
    for side_id in SIDES:
        if sides and not any(e.side == side_id for e in elements) and not any(b.side == side_id for b in blinds):
            if side_id == "insurgent" and shadows:
                continue  # DD-10.3: a solo table seeded with the Jungle Ghost's Shadow Blinds only
            r.problem("element", f"side '{side_id}' has no elements or blinds")

    insertion = None
    if "insertion" in head:
        insertion = _read_insertion(r, head["insertion"], features, elements, float(width), float(height),
                                    weather, book)
    objectives = _read_objectives(r, raw.get("objective", []), float(width), float(height))
    support = _read_support(r, raw.get("support", []), specials or [])
    from game.rules.night import read_trip_flares  # DD-9A.2, G-38

    flares, to_place = read_trip_flares(r, raw.get("trip_flare", []), head.get("trip_flares"), float(width),
                                        float(height), book)
    from game.rules.river_mines import check_afloat, read_river_mines  # DD-9A.11, G-14

    mines = read_river_mines(r, raw.get("river_mine", []), features, float(width), float(height), book)
    check_afloat(r, elements, features, book)  # G-14: a craft starts on the water
    sections = _read_sections(r, raw, SectionContext(float(width), float(height), tuple(features), tuple(elements),
                                                     tuple(blinds), book, sides))
    if r.problems:
        raise r.fail()
    return Scenario(
        id=sid, title=title, source=source, briefing=briefing, width=float(width), height=float(height),
        turns=turns, weather=weather, time_of_day=tod, first_side=first, features=tuple(features),
        sides=sides, elements=tuple(elements), blinds=tuple(blinds), special_rules=tuple(specials or []),
        raw=raw, ambush_points=tuple(points), objectives=tuple(objectives), support=tuple(support),
        shadow_blinds=shadows, insertion=insertion, trip_flares=flares, flares_to_place=to_place,
        river_mines=mines, sections=sections,
    )


def load_scenario(path: str | Path, book: Rulebook | None = None) -> Scenario:
    """Load and validate a scenario file."""
    path = Path(path)
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError([Problem(name, "", f"cannot read the file: {exc.strerror}")]) from exc
    return scenario_from_text(text, name, book)


def scenario_from_text(text: str, name: str, book: Rulebook | None = None) -> Scenario:
    """Validate the text of a scenario file called ``name`` (in every problem) and build it."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ScenarioError([Problem(name, "", f"not valid TOML: {exc}", int(m.group(1)) if m else None)]) from exc
    return build_scenario(raw, name, text, book)


def shipped_scenarios() -> dict[str, Path]:
    """The Dinky Dau scenario files that ship with the game, by id (file stem): those that name no other
    ruleset (``[scenario] ruleset``; the others are their rulesets', game.rulesets)."""
    return {p.stem: p for p in sorted(SCENARIO_DIR.glob("*.toml")) if _ruleset_of(p) == "dinky_dau"}


def _ruleset_of(path: Path) -> str:
    try:
        head = tomllib.loads(path.read_text(encoding="utf-8")).get("scenario", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "dinky_dau"  # unreadable: Dinky Dau's reader reports it, with the file and line
    rid = head.get("ruleset", "dinky_dau") if isinstance(head, dict) else "dinky_dau"
    return rid if isinstance(rid, str) else "dinky_dau"


def resolve_scenario(ref: Any, book: Rulebook | None = None) -> Scenario:
    """A scenario from an id of a shipped scenario, a file path, or an inline object."""
    if isinstance(ref, dict):
        return build_scenario(ref, "<inline>", None, book)
    if not isinstance(ref, str):
        raise ScenarioError([Problem("<request>", "scenario", "should be a scenario id, a path or an object")])
    shipped = shipped_scenarios()
    if ref in shipped:
        return load_scenario(shipped[ref], book)
    if ref.endswith(".toml"):
        return load_scenario(ref, book)
    raise ScenarioError([Problem("<request>", "scenario", f"unknown scenario '{ref}' (shipped: {', '.join(shipped)})")])


def pacing_gap(s: Scenario, book: Rulebook | None = None) -> float:
    """The closest distance between the two sides' starting forces or blinds (DD-3.4), inches."""
    book = book or rulebook()
    shapes: dict[str, list] = {side: [] for side in SIDES}
    for el in s.elements:
        if el.blind is not None or el.reserve:
            continue
        for st in el.stands:
            b = book.base_of(st.type)
            shapes[el.side].append(base_rectangle(st.x, st.y, st.facing, b.width, b.depth))
    for bl in s.blinds:
        shapes[bl.side].append(Point(bl.x, bl.y).buffer(0.55))  # 28 mm disc (DD-4.7)
    allied, insurgent = shapes["allied"], shapes["insurgent"]
    if not allied or not insurgent:
        return math.inf
    # The nearest insurgent shape to each allied one, through a spatial index; then, to answer exactly
    # what comparing every pair answers, every pair within that gap (and a hair) measured as before.
    tree = STRtree(insurgent)
    _, gaps = tree.query_nearest(allied, return_distance=True)
    reach = float(gaps.min())
    reach += 1e-9 * max(1.0, reach)
    near = tree.query(allied, predicate="dwithin", distance=reach)
    return min(allied[int(a)].distance(insurgent[int(b)]) for a, b in zip(*near, strict=True))
