"""The terms a sightline is asked and answered in (``game.world.los``): the limits before terrain, the
conditions and observers a question names, an answer (``LosResult``, its evidence made when first read),
and the rows the paths fill (``Trace``, ``Sight``).

What it leaves out: how an answer is found (``game.world.los`` and the modules beside it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from game.terrain import sight as sight_limits
from game.world.features import base_rectangle

EYE_HEIGHT = 0.6
"""A 15mm figure's eye above its base, inches (DESIGN §3: a standing figure is about 0.7")."""
LIMITS = sight_limits()
"""The visual limits before terrain (game/data/sight.toml): open, elevation, weather, time of day."""
OPEN_LIMIT = LIMITS.open.limit  # DD-4.1, DD-4.2
ELEVATION_BONUS = LIMITS.elevation.bonus  # DD-4.41
ELEVATED = LIMITS.elevation.height  # DD-4.41: 2" or more above table level
TIME_CAPS = {t.id: t.cap or None for t in LIMITS.time.values()}  # G-23: None where there is no cap
SOLID_CLEARANCE = 0.01
"""A solid hit this close to the target belongs to the target's own spot (its ground), not between."""
Q = 100.0
"""Quantisation: distances and inches that enter rules are rounded to 0.01" (DESIGN §3)."""
KILL_PLAN = 0.0051
"""Plan inches inside a volume that are sure to count: more than the 0.005" that quantises to 0.01"."""
CACHE_LIMIT = 1_500
MEMO_LIMIT = 3_000
"""Per-observer (and per sightline end) entries a table keeps before its caches start over: a few games'
worth, so a table kept warm between games stops growing early (issue 11)."""

INF = math.inf
NO_BAND = (False, False)
NO_WALL = (-1, -1)


def quantise(x: np.ndarray | float) -> np.ndarray:
    return np.floor(np.asarray(x, float) * Q + 0.5) / Q


class _KeptHash:
    """A frozen dataclass's hash worked out once (it keys every sightline cache, asked many times a
    listing) and left out of its pickles (a ``str`` hashes differently in another process)."""

    def __hash__(self) -> int:
        try:
            return self._hash  # type: ignore[attr-defined]
        except AttributeError:  # the first time (made, or read back from a pickle)
            h = hash(tuple(getattr(self, f) for f in self.__dataclass_fields__))  # type: ignore[attr-defined]
            object.__setattr__(self, "_hash", h)
            return h

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}


@dataclass(frozen=True)
class Conditions(_KeptHash):
    """What limits sight beyond the baked terrain: weather, time of day, smoke, light, burnt ground."""

    __hash__ = _KeptHash.__hash__  # named here, or the dataclass would make its own

    weather: str = "clear"
    """clear | mist | monsoon (DD-3.8, G-07)."""
    time_of_day: str = "day"
    """day | dawn | dusk | night_moonlit | night_dark (G-23)."""
    smoke: tuple[tuple[float, float, float], ...] = ()
    """(x, y, radius) circles of smoke or dust that block sight through them (DD-5.34)."""
    illuminated: tuple[tuple[float, float, float], ...] = ()
    """(x, y, radius) circles lit by a flare, star shell or burning wreck (DD-9A.2, G-23)."""
    burnt: tuple[tuple[float, ...], ...] = ()
    """Polygons of napalm-burnt ground, each its (x, y) points flattened (x0, y0, x1, y1, ...): over them
    sight ignores the vegetation (G-19; ``game.world.burnt``). The table's ray scenes stay as they are."""
    turn: int = 1
    """The game turn: ground mist lifts over the game (G-07)."""
    hulls: tuple[tuple[float, float, float, float, float, float, str], ...] = ()
    """(x, y, facing, length, width, height, id) boxes of the vehicles and wrecks on the table, standing on
    the ground under their centre: a sightline through one is blocked, except from or to a point at that
    hull (G-01 T15; ``game.world.hulls``, ``game.rules.vehicles.hulls_now``)."""

    @classmethod
    def from_scenario(cls, scenario: Any) -> Conditions:
        return cls(weather=scenario.weather, time_of_day=scenario.time_of_day)

    def __post_init__(self) -> None:
        if self.weather not in LIMITS.weather:
            raise ValueError(f"unknown weather {self.weather!r} ({', '.join(LIMITS.weather)})")
        if self.time_of_day not in TIME_CAPS:
            raise ValueError(f"unknown time of day {self.time_of_day!r} ({', '.join(TIME_CAPS)})")

    def weather_cap(self) -> tuple[float | None, str, str]:
        """The weather's cap on any sightline: (inches or None, limit name, clause)."""
        w = LIMITS.weather[self.weather]
        cap = w.cap_on(self.turn)
        return (cap, w.id, w.clause) if cap is not None else (None, "", "")


@dataclass(frozen=True)
class Observer(_KeptHash):
    """A stand as line of sight sees it: its base on the table."""

    __hash__ = _KeptHash.__hash__  # named here, or the dataclass would make its own

    x: float
    y: float
    facing: float = 90.0
    width: float = 1.97
    """Base width across the front, inches (DD-1.7)."""
    depth: float = 1.26
    tree: bool = False
    """A tree sniper: its eye and figure are up in the canopy (DD-4.42)."""
    eye_height: float = EYE_HEIGHT
    body_height: float = 0.0
    """A vehicle's hull top above the ground: the points a sightline aims at on its base stand there
    (0: a stand's figures, ``BODY_HEIGHTS``)."""

    def base(self):
        return base_rectangle(self.x, self.y, self.facing, self.width, self.depth)


@dataclass(frozen=True)
class LosResult:
    """The answer to one line-of-sight question, with its evidence."""

    visible: bool
    fraction: float
    """Share of the sightlines between the two that are clear (1.0 for a single clear sightline)."""
    distance: float
    """Plan distance the rules measure, inches, 0.01" quantised (stand to stand: base edge to edge)."""
    canopy_inches: dict[str, float]
    """Inches (plan) inside each canopy class along the reported sightline, woodline bands left out."""
    cutoff: float
    """The limit applied, inches (0 when something blocks outright)."""
    limit: str
    """What set the limit: open, elevated, a canopy class (dense, bamboo ...), monsoon, mist, dawn,
    dusk, night_moonlit, night_dark, ground, building, hull (a vehicle or a wreck), smoke."""
    blocker: dict | None
    """{"feature", "terrain", "at": [x, y, z]} of what stopped the sightline, or None."""
    clause: str
    reason: str
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __getattr__(self, name: str) -> Any:
        # a field an answer made by _deferred or _answer leaves out until it is first read
        d = self.__dict__
        later = d.get("_later")
        if later is not None and name in _LATER:
            del d["_later"]
            full = later[0](*later[1:]).__dict__
            for k in _LATER:
                if k in full:
                    d[k] = full[k]
            if "_why" in full:
                d["_why"] = full["_why"]
            return getattr(self, name)
        why = d.get("_why")
        if why is not None and name == "reason":
            d["reason"] = text = why[0](*why[1:])
            del d["_why"]
            return text
        raise AttributeError(f"'LosResult' object has no attribute '{name}'")

    def __getstate__(self) -> dict[str, Any]:
        # copied or pickled whole: what _deferred left out is made now (it holds the table)
        if "_later" in self.__dict__:
            self.reason  # noqa: B018
        return self.__dict__

    def to_dict(self) -> dict[str, Any]:
        return {
            "visible": self.visible, "fraction": self.fraction, "distance": self.distance,
            "canopy_inches": dict(self.canopy_inches), "cutoff": self.cutoff, "limit": self.limit,
            "blocker": self.blocker, "clause": self.clause, "reason": self.reason, **self.extra,
        }


def _answer(visible: bool, fraction: float, distance: float, inches: dict[str, float], cutoff: float, limit: str,
            blocker: dict | None, clause: str, why: tuple, extra: dict[str, Any]) -> LosResult:
    """A :class:`LosResult` whose reason is ``why[0](*why[1:])``, worded when first read: most answers
    (the AI's, a stand check's) are never read out, and wording one costs more than the rest of it. It
    equals, prints, copies and pickles as one made with the reason in hand."""
    r = object.__new__(LosResult)
    object.__setattr__(r, "__dict__", {"visible": visible, "fraction": fraction, "distance": distance,
                                       "canopy_inches": inches, "cutoff": cutoff, "limit": limit, "blocker": blocker,
                                       "clause": clause, "_why": why, "extra": extra})
    return r


_LATER = ("canopy_inches", "cutoff", "limit", "blocker", "clause", "reason", "extra")
"""The fields of a :class:`LosResult` from :func:`_deferred` made when one of them is first read."""


def _deferred(visible: bool, fraction: float, distance: float, make: tuple) -> LosResult:
    """A :class:`LosResult` with its answer (visible, fraction rounded to 4 places, distance) in hand and
    the rest of its evidence (``_LATER``) from ``make[0](*make[1:])`` (a full answer with the same three),
    made when one of those is first read: wording the evidence costs as much as the compiled sightline,
    and the computer reads the answer alone. It equals, prints, copies and pickles as the full answer."""
    r = object.__new__(LosResult)
    object.__setattr__(r, "__dict__", {"visible": visible, "fraction": fraction, "distance": distance,
                                       "_later": make})
    return r


def _why_text(text: str) -> str:
    return text


def _why_far(dist: float, cutoff: float, name: str) -> str:
    return f'{dist:.2f}" is beyond the {cutoff:g}" {name} limit, the longest any sightline may be here (terrain not traced)'


def _why_blocked(what: str, at: list[float], walls: str) -> str:
    return f"blocked by {what} at ({at[0]:.2f}, {at[1]:.2f}){walls}"


def _why_limit(visible: bool, dist: float, cutoff: float, name: str, inches: tuple, band: bool, walls: str) -> str:
    inside = ", ".join(f'{v:.2f}" in {c}' for c, v in inches) or "no canopy"
    band_text = " (woodline band ignored, DD-4.2)" if band else ""
    return f'{dist:.2f}" is {"within" if visible else "beyond"} the {cutoff:g}" {name} limit; {inside}{band_text}{walls}'


@dataclass
class Trace:
    """Per-sightline arrays from one batched cast (see :meth:`TableLOS.trace`)."""

    visible: np.ndarray
    distance: np.ndarray
    cutoff: np.ndarray
    limit: np.ndarray
    """Index into ``TableLOS.limit_names``."""
    inches: np.ndarray
    """N x classes, plan inches inside each canopy class (bands left out), quantised."""
    solid_t: np.ndarray
    solid_part: np.ndarray
    smoke: np.ndarray
    above_part: np.ndarray
    above_t: np.ndarray
    eyes: np.ndarray
    dirs: np.ndarray
    length: np.ndarray
    elevated: np.ndarray
    band: np.ndarray
    """N x 2: did the eye / the target line a woodline (DD-4.2)?"""
    far: np.ndarray
    """Longer than every limit that applies before any terrain: answered without tracing."""
    complete: np.ndarray
    """Is the evidence (inches, blocker, limit) complete? Always, except for sightlines a batched call
    dropped as soon as it knew they were not visible."""
    wall: np.ndarray | None = None
    """N x 2: the building (index into ``TableLOS.walls``) of the eye / the target one of whose walls
    was left out of the sightline, the end seeing out through it (G-01 T10/T11), else -1; None: none
    was left out of any sightline."""
    hull: np.ndarray | None = None
    """The hull (index into ``hull_ids``) that blocks each sightline, else -1; None: no hulls."""
    hull_t: np.ndarray | None = None
    """Where along each sightline it enters that hull (3D inches from the eye), else inf."""
    hull_ids: tuple[str, ...] = ()

    def rows(self, index: np.ndarray) -> list[Sight]:
        """:meth:`row` for each of ``index``, read column by column (the same rows, for less)."""
        idx = np.asarray(index, dtype=np.intp)
        n = len(idx)
        band = self.band[idx].astype(bool, copy=False).tolist()
        walls = [NO_WALL] * n if self.wall is None else list(map(tuple, self.wall[idx].astype(int).tolist()))
        hulls: list[tuple[str, float]] = [("", math.inf)] * n
        if self.hull is not None and self.hull_t is not None:
            ids = self.hull_ids
            hulls = [(ids[h], t) if h >= 0 else ("", math.inf)
                     for h, t in zip(self.hull[idx].astype(int).tolist(), self.hull_t[idx].astype(float).tolist(),
                                     strict=True)]

        def col(a: np.ndarray, kind: type) -> list:  # the Python type row() makes of each value
            return a[idx].astype(kind, copy=False).tolist()

        return [Sight(*cols, (b[0], b[1]), far, done, wall, hull, hull_t)
                for *cols, b, far, done, wall, (hull, hull_t) in zip(
                    col(self.visible, bool), col(self.distance, float), col(self.cutoff, float),
                    col(self.limit, int), map(tuple, col(self.inches, float)), col(self.solid_t, float),
                    col(self.solid_part, int), col(self.smoke, bool), col(self.above_part, int),
                    col(self.above_t, float), map(tuple, col(self.eyes, float)), map(tuple, col(self.dirs, float)),
                    col(self.elevated, bool), band, col(self.far, bool), col(self.complete, bool), walls, hulls,
                    strict=True)]

    def row(self, i: int) -> Sight:
        band = self.band[i].tolist()
        wall = NO_WALL if self.wall is None else (int(self.wall[i, 0]), int(self.wall[i, 1]))
        hull, hull_t = "", math.inf
        if self.hull is not None and self.hull_t is not None and self.hull[i] >= 0:
            hull, hull_t = self.hull_ids[int(self.hull[i])], float(self.hull_t[i])
        return Sight(bool(self.visible[i]), float(self.distance[i]), float(self.cutoff[i]), int(self.limit[i]),
                     tuple(self.inches[i].tolist()), float(self.solid_t[i]), int(self.solid_part[i]),
                     bool(self.smoke[i]), int(self.above_part[i]), float(self.above_t[i]), tuple(self.eyes[i].tolist()),
                     tuple(self.dirs[i].tolist()), bool(self.elevated[i]), (band[0], band[1]), bool(self.far[i]),
                     bool(self.complete[i]), wall, hull, hull_t)


class Sight(NamedTuple):
    """One row of a :class:`Trace`: one sightline's answer and evidence."""

    visible: bool
    distance: float
    cutoff: float
    limit: int
    inches: tuple[float, ...]
    solid_t: float
    solid_part: int
    smoke: bool
    above_part: int
    above_t: float
    eye: tuple[float, ...]
    dir: tuple[float, ...]
    elevated: bool
    band: tuple[bool, bool]
    far: bool
    complete: bool
    wall: tuple[int, int] = (-1, -1)
    """The building of each end one of whose walls was left out, the end seeing out through it (index
    into ``TableLOS.walls``), else -1."""
    hull: str = ""
    """The id of the vehicle or wreck whose hull blocks the sightline (G-01 T15), else ""."""
    hull_t: float = math.inf
    """Where the sightline enters that hull, 3D inches from the eye."""
