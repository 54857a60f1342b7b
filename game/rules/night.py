"""Night combat and battlefield illumination (DD chapter 9A §1.1: DD-9A.1–9A.4; G-23, G-38, G-25, C-04).

* **Time of day** (DD-9A.1, G-23): the scenario's ``time_of_day`` row of ``sight.toml`` caps sight outside a
  lit circle (``game.world.los``) and says whether it is night (the night command radius 4", G-16 /
  ``command``). Spotting in poor light is -1 (``detection.spot_modifiers`` asks :func:`poor_light`): at dawn
  and dusk only against a target more than 6" away, never against one inside a lit circle (G-23 "no night
  penalty"). By night only the AC-47 and gunships fly (G-23): :func:`air_flies`, asked by ``fire_support``.
* **Trip flares** (DD-9A.2, G-38): secret Allied tokens, from the scenario's ``[[trip_flare]]`` rows and/or
  placed with ``place_trip_flare`` (a free side action, in the Allied side's first impulse of turn 1, before
  anything of its side activates: the setup of a night-defence scenario that sets ``trip_flares``; the rows
  and the placed flares together at most G-38's count for the table). When an Insurgent stand on the table
  or an Insurgent Blind moves within 2" of one (its base, or the marker's disc, swept along the move), the
  flare fires as that move ends: a 6" circle is lit for the rest of the turn (sight into it by daylight,
  the same lit circles as star shells: :func:`lit_circles` beside ``missions.lights_now`` in
  ``Game.sight_key``), a tripping Blind becomes an Echo (DD-4.9, ``detection.noise``), and units that move
  inside the light lose their cover bonuses (:func:`loses_cover`). Each flare fires once.
* **Star shells** (DD-9A.3) are fire support's (``fire_support.missions``: a 6" circle for the rest of the
  turn, G-38); their circles and the flares' light sightlines alike.
* **Muzzle Bloom** (DD-9A.4, restating DD-4.40; C-04): :func:`blooms` says which stands of a firing element
  bloom at night (automatic weapons without a flash suppressor, ``night.toml``); ``detection.on_fire``
  marks the element Illuminated to the end of the turn, and each blooming stand's base is a lit circle
  while it lasts.

Fog (DESIGN §6): an unfired flare is the Allied side's alone: its marker is in the Allied view only, its
placing event is the Allied side's, and nothing the Insurgent sends is refused or answered by it (a move
is never stopped by a flare). Once fired it is public: the event and the lit circle, under a public name
counted over the flares fired (``flare1``, ...), so the name says nothing of how many are still out.

How a move is watched: the chapter's steps read the ``move``, ``retreat`` and ``blind_move`` events since
it last looked (the Insurgent moves everyone saw), as each impulse opens and at the end of Phase 3.

What it leaves out: the cover lost in the light is answered here, and ``fire.cover_of`` must ask it
(:func:`loses_cover`); flares for the Insurgent side (DD-9A.2 gives them to Free World perimeters);
burning wrecks and napalm as light (G-23 lists them; the wreck of a crashed Dustoff and napalm's fire are
not lit circles yet); a flare tripped by an Allied unit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shapely.geometry import LineString, Point
from shapely.ops import unary_union

from game.rules import detection
from game.rules.chapters import Chapter, Step, register_chapter, state_of, tables
from game.rules.data import (
    DATA_DIR,
    ROLES,
    DataError,
    Rulebook,
    build,
    check_chapter_refs,
    load_sections,
    one_of,
    refers,
    rulebook,
)
from game.rules.errors import IllegalAction
from game.rules.game import SideActionKind, register_side
from game.rules.state import Stand
from game.terrain import sight
from game.world.features import base_rectangle

if TYPE_CHECKING:
    from game.rules.game import Game

FLARE_CLAUSE = "DD-9A.2; G-38"
OWNER = "allied"
"""DD-9A.2: "Free World perimeters and ambushes" place trip flares; the Insurgent trips them."""


# -- the tables (game/data/night.toml) ----------------------------------------------------------------------
@dataclass(frozen=True)
class TimeRules:
    clause: str
    spot_beyond: float
    spot_beyond_times: list[str]
    night_air_kinds: list[str]


@dataclass(frozen=True)
class FlareRules:
    clause: str
    trigger: float
    radius: float


@dataclass(frozen=True)
class FlareCount:
    clause: str
    area: float
    flares: int


@dataclass(frozen=True)
class BloomRules:
    clause: str
    automatic: list[str] = field(metadata=one_of(ROLES))
    suppressed: list[str] = field(metadata=refers("stands"))


@dataclass(frozen=True)
class NightTables:
    time: TimeRules
    flare: FlareRules
    counts: tuple[FlareCount, ...]
    bloom: BloomRules

    def flares_for(self, width: float, height: float) -> int:
        """G-38: the most trip flares a table of this size holds (the last row for a larger table)."""
        area = width * height
        return next((c.flares for c in self.counts if area <= c.area + 1e-9), self.counts[-1].flares)


def load_night(directory: Path = DATA_DIR, book: Rulebook | None = None) -> NightTables:
    """Load ``night.toml`` strictly: known keys, a clause everywhere, times of day ``sight.toml`` has,
    roles and stand types the rulebook has, flare counts by rising area."""
    name = "night.toml"
    sections = {"time_of_day": TimeRules, "trip_flare": FlareRules, "muzzle_bloom": BloomRules}
    built, doc = load_sections(name, sections, directory, also=("flare_count",))
    counts = tuple(build(FlareCount, raw, name, f"[[flare_count]] {i}") for i, raw in enumerate(doc.get("flare_count", [])))
    if not counts:
        raise DataError(name, "[[flare_count]]", "G-38 needs at least one row")
    if [c.area for c in counts] != sorted({c.area for c in counts}) or any(c.flares < 0 for c in counts):
        raise DataError(name, "[[flare_count]]", "rows by rising area, each a count of 0 or more")
    t, f = built["time_of_day"], built["trip_flare"]
    unknown = sorted(set(t.spot_beyond_times) - set(sight().time))
    if unknown:
        raise DataError(name, "[time_of_day]", f"spot_beyond_times {unknown} are not sight.toml times of day")
    if t.spot_beyond < 0 or f.trigger <= 0 or f.radius <= 0:
        raise DataError(name, "[trip_flare]", "trigger and radius are inches above 0, spot_beyond 0 or more")
    check_chapter_refs(name, {"[muzzle_bloom]": built["muzzle_bloom"]}, book or rulebook())
    return NightTables(time=t, flare=f, counts=counts, bloom=built["muzzle_bloom"])


def rules(g: Game) -> NightTables:
    return tables(g.book, "night")


# -- reading the scenario ([[trip_flare]] rows, [scenario] trip_flares) ----------------------------------
def read_trip_flares(r: Any, rows: Any, to_place: Any, width: float, height: float, book: Rulebook) -> tuple:
    """``[[trip_flare]]`` rows (``id``, optional, and ``at`` [x, y] on the table) and ``[scenario]
    trip_flares`` (how many the Allied side places at setup): together at most G-38's count for the
    table. Problems go to the scenario reader ``r``, naming the field. Returns (the rows, the count)."""
    from game.rules.scenario import TripFlareSetup

    out = [TripFlareSetup(fid, float(at[0]), float(at[1]))
           for fid, at, _ in r.placed(rows, "trip_flare", "trip flare", "tf", width, height)]
    n = 0
    if to_place is not None:
        if not isinstance(to_place, int) or isinstance(to_place, bool) or to_place < 0:
            r.problem("scenario.trip_flares", "is how many trip flares the Allied side places at setup: 0 or more")
        else:
            n = to_place
    most = load_night(book=book).flares_for(width, height)
    if len(out) + n > most:
        r.problem("scenario.trip_flares" if n else "trip_flare",
                  f"{len(out)} trip flare(s) on the table and {n} to place: a {width:g}x{height:g} table holds at "
                  f"most {most} (G-38)")
    return tuple(out), n


# -- its state ---------------------------------------------------------------------------------------------
@dataclass
class TripFlare:
    """A Trip Flare token (DD-9A.2): the Allied side's secret until it fires."""

    id: str
    x: float
    y: float
    fired: int = 0
    """The turn it fired (0: not yet). It lights its circle for the rest of that turn (G-38)."""
    lit: str = ""
    """Its public name once fired (``flare1``, ...: counted over the flares fired, DESIGN §6)."""
    by: str = ""
    """What set it off: an Insurgent stand's id or ``Blind <id>``."""


@dataclass
class NightState:
    """The trip flares of a game that has them (``GameState.chapters["night"]``)."""

    flares: list[TripFlare] = field(default_factory=list)
    to_place: int = 0
    """Flares the Allied side may still place at setup (``[scenario] trip_flares``)."""
    seen: int = 0
    """The last event (``seq``) whose moves were looked at."""
    fired: int = 0
    """How many flares have fired (their public names)."""
    placed: int = 0
    """How many the Allied side has placed (their secret ids)."""


def _state(g: Game) -> NightState | None:
    return state_of(g, "night")


# -- the light ---------------------------------------------------------------------------------------------
def is_night(g: Game) -> bool:
    return sight().time[g.state.time_of_day].night


def flare_lights(g: Game) -> tuple[tuple[float, float, float], ...]:
    """The circles trip flares light this turn (DD-9A.2, G-38)."""
    st = _state(g)
    if st is None:
        return ()
    r = rules(g).flare.radius
    return tuple((f.x, f.y, r) for f in st.flares if f.fired == g.state.turn)


def blooms(g: Game, stand: Stand) -> bool:
    """Muzzle Flash Bloom (DD-9A.4, DD-4.40): at night, a stand firing an automatic weapon without a flash
    suppressor (``night.toml [muzzle_bloom]``) is Illuminated. By day nothing blooms."""
    if not is_night(g):
        return False
    b = rules(g).bloom
    return g.book.stands[stand.type].role in b.automatic and stand.type not in b.suppressed


def bloom_lights(g: Game) -> tuple[tuple[float, float, float], ...]:
    """Each blooming stand's own base as a lit circle while its element is Illuminated (DD-9A.4, C-04: to
    the end of the turn; G-23: an Illuminated stand is seen into by daylight)."""
    if not is_night(g):
        return ()
    s = g.state
    out = []
    for el in s.elements.values():
        if el.illuminated_turn != s.turn or el.hidden:
            continue
        for st in s.living(el):
            if blooms(g, st):
                base = g.book.base_of(st.type)
                out.append((st.x, st.y, round(math.hypot(base.width, base.depth) / 2.0, 3)))
    return tuple(out)


def lit_circles(g: Game) -> tuple[tuple[float, float, float], ...]:
    """This chapter's lit circles for sight (``Game.sight_key``, beside the star shells'): the trip
    flares fired this turn and the Muzzle Bloom of Illuminated stands. Empty in a game without either."""
    return flare_lights(g) + bloom_lights(g)


def lit(g: Game, x: float, y: float) -> bool:
    """Is (x, y) inside any lit circle now (star shells, flares, bloom)?"""
    from game.rules.fire_support.missions import lights_now

    return any(math.hypot(x - cx, y - cy) <= r + 1e-9 for cx, cy, r in lights_now(g) + lit_circles(g))


def loses_cover(g: Game, stand: Stand) -> bool:
    """DD-9A.2: a unit that moves inside a fired trip flare's light loses its cover bonuses: its element
    has moved this turn and the stand's centre is inside the circle (for ``fire.cover_of``)."""
    lights = flare_lights(g)
    if not lights:
        return False
    if g.state.elements[stand.element].move_actions <= 0:
        return False
    return any(math.hypot(stand.x - cx, stand.y - cy) <= r + 1e-9 for cx, cy, r in lights)


# -- time of day -----------------------------------------------------------------------------------------
def poor_light(g: Game, stands: list[Stand], b: Any) -> str | None:
    """The name of the poor-light spotting penalty against the marker ``b`` (G-23, DD-9A.1), or None: at
    dawn and dusk only beyond 6" of the nearest spotting stand; never into a lit circle."""
    tod = g.state.time_of_day
    if not sight().time[tod].poor_light:
        return None
    if lit(g, b.x, b.y):
        return None  # G-23: an Illuminated area has no night penalty (DD-9A.2, DD-9A.3)
    t = rules(g).time
    if tod in t.spot_beyond_times and stands:
        from game.rules.state import base_of

        radius = detection.rules().spotting.marker_radius
        gap = min(base_of(g.book, s).distance(Point(b.x, b.y)) for s in stands) - radius
        if round(max(gap, 0.0), 2) <= t.spot_beyond + 1e-9:
            return None
    return f"poor light ({tod})"


def air_flies(g: Game, asset: Any) -> bool:
    """G-23: by night only the AC-47 (an asset marked ``night_only``) and gunships fly. Other assets are
    not asked (a battery fires in any light)."""
    if not is_night(g) or getattr(asset, "night_only", False):
        return True
    return asset.kind in rules(g).time.night_air_kinds


def describe_time(g: Game) -> dict:
    """The time of day for the view: its id and what it does (G-23, DD-9A.1)."""
    tod = g.state.time_of_day
    row = sight().time[tod]
    out = []
    if row.cap:
        out.append(f"sight at most {row.cap:g}\" outside lit circles")
    if row.poor_light:
        t = rules(g).time
        out.append("spotting -1" + (f" beyond {t.spot_beyond:g}\"" if tod in t.spot_beyond_times else "")
                   + ", none into a lit circle")
    if row.night:
        out += ["command radius 4\"", "Muzzle Bloom: automatic fire is Illuminated to the end of the turn",
                "only the AC-47 and gunships fly"]
    return {"id": tod, "clause": row.clause if not row.night else f"{row.clause}; DD-9A.1", "effects": out}


# -- trip flares -------------------------------------------------------------------------------------------
def _swept(g: Game, sid: str, frm: list, to: list):
    st = g.state.stands.get(sid)
    if st is None:
        return None
    b = g.book.base_of(st.type)
    a = base_rectangle(frm[0], frm[1], frm[2] if len(frm) > 2 else st.facing, b.width, b.depth)
    z = base_rectangle(to[0], to[1], to[2] if len(to) > 2 else st.facing, b.width, b.depth)
    return unary_union([a, z]).convex_hull


def _paths(g: Game, ev: dict) -> list[tuple[str, Any, float, str | None]]:
    """The Insurgent moves in one event everyone saw: (what moved, its swept shape, the slack to add to
    the trigger distance, the Blind's id or None)."""
    kind = ev.get("type")
    if kind == "blind_move":
        if ev.get("side") == OWNER:
            return []
        frm, to = ev["from"], ev["to"]
        path = LineString([frm, to]) if list(frm) != list(to) else Point(frm)
        return [(f"Blind {ev['blind']}", path, detection.rules().spotting.marker_radius, ev["blind"])]
    if kind not in ("move", "retreat") or ev.get("_visible") != "all":
        return []
    el = g.state.elements.get(ev.get("element", ""))
    if el is None or el.side == OWNER:
        return []
    out = []
    for m in ev.get("stands") or []:
        shape = _swept(g, m["id"], m["from"], m["to"])
        if shape is not None:
            out.append((m["id"], shape, 0.0, None))
    return out


def watch(g: Game) -> None:
    """Look at the moves since the last look (DD-9A.2): each unfired flare that an Insurgent stand or
    Blind came within 2" of fires, in the order of the moves."""
    st = _state(g)
    if st is None:
        return
    since, st.seen = st.seen, g.state.seq
    if not any(f.fired == 0 for f in st.flares):
        return
    trigger = rules(g).flare.trigger
    fired_any = False
    new: list[dict] = []
    for e in reversed(g.events):  # the events since the last look, in order
        if e["seq"] <= since:
            break
        new.append(e)
    for ev in reversed(new):
        for who, shape, slack, blind in _paths(g, ev):
            for fl in st.flares:
                if fl.fired == 0 and shape.distance(Point(fl.x, fl.y)) <= trigger + slack + 1e-9:
                    fire_flare(g, fl, who, blind)
                    fired_any = True
    st.seen = g.state.seq
    if fired_any and not g.state.over and g.state.phase == "engagement":
        detection.after_action(g)  # DD-4.9 (a): Blinds now in daylight sight within the cutoff


def fire_flare(g: Game, fl: TripFlare, who: str, blind: str | None) -> None:
    """The flare fires (DD-9A.2): public from now; the circle is lit for the rest of the turn (G-38); a
    Blind that tripped it becomes an Echo (DD-4.9 (b))."""
    st = _state(g)
    assert st is not None
    st.fired += 1
    fl.fired, fl.lit, fl.by = g.state.turn, f"flare{st.fired}", who
    r = rules(g).flare
    g.emit({"type": "trip_flare", "flare": fl.lit, "x": fl.x, "y": fl.y, "radius": r.radius, "turn": g.state.turn,
            "by": who, "clause": FLARE_CLAUSE,
            "text": f"{who} sets off a trip flare: a {2 * r.radius:g}\" circle at ({fl.x:g}, {fl.y:g}) is lit "
                    f"for the rest of the turn"})
    b = g.state.blinds.get(blind) if blind is not None else None
    if b is not None:
        detection.noise(g, b, "trip flare", "DD-9A.2; DD-4.9 (b)")


def markers(g: Game, side: str) -> list[dict]:
    """The unfired flares for their owner (and the referee); a fired flare's light for everyone."""
    st = _state(g)
    if st is None:
        return []
    r = rules(g).flare
    out = [{"id": f.id, "kind": "trip_flare", "side": OWNER, "x": f.x, "y": f.y}
           for f in st.flares if f.fired == 0 and side in ("referee", OWNER)]
    out += [{"id": f.lit, "kind": "illumination", "x": f.x, "y": f.y, "radius": r.radius}
            for f in st.flares if f.fired == g.state.turn]
    return out


# -- placing them at setup ---------------------------------------------------------------------------------
def setup_open(g: Game) -> bool:
    """The Allied setup of a night defence (engine reading of "at setup"): turn 1, the Allied side's first
    impulse, before anything of its side has activated."""
    s = g.state
    first = 1 if s.first_side == OWNER else 2
    return s.turn == 1 and s.impulse == first and s.to_act == OWNER


class PlaceTripFlare(SideActionKind):
    """Place a hidden Trip Flare token (DD-9A.2, G-38): free, at setup, at most the scenario's count."""

    type = "place_trip_flare"
    free = True

    def offers(self, g: Game, side: str) -> list[dict]:
        st = _state(g)
        if side != OWNER or st is None or st.to_place <= 0 or not setup_open(g):
            return []
        return [{"type": self.type, "side": side, "cost": 0, "clause": FLARE_CLAUSE,
                 "label": f"Place a hidden trip flare ({st.to_place} left; free, at setup)",
                 "params": {"at": {"kind": "point", "doc": "where the flare goes: on a trail or the wire"}}}]

    def check(self, g: Game, side: str, action: dict) -> tuple[float, float]:
        if side != OWNER:
            raise IllegalAction("trip flares are the Allied side's (Free World perimeters and ambushes)", "DD-9A.2")
        st = _state(g)
        if st is None or st.to_place <= 0:
            raise IllegalAction("no trip flares left to place in this scenario", FLARE_CLAUSE)
        if not setup_open(g):
            raise IllegalAction("trip flares are placed at setup: the Allied side's first impulse of turn 1",
                                FLARE_CLAUSE)
        at = action.get("at")
        if (not isinstance(at, (list, tuple)) or len(at) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in at)):
            raise IllegalAction("'at' must be [x, y] in inches", FLARE_CLAUSE)
        x, y = float(at[0]), float(at[1])
        if not (0 <= x <= g.scenario.width and 0 <= y <= g.scenario.height):
            raise IllegalAction(f"({x:g}, {y:g}) is off the table", "DD-1.2")
        return round(x, 2), round(y, 2)

    def act(self, g: Game, side: str, action: dict) -> None:
        self.resolve(g, side, action, self.check(g, side, action))

    def resolve(self, g: Game, side: str, action: dict, plan: tuple[float, float]) -> None:
        st = _state(g)
        assert st is not None
        st.to_place -= 1
        st.placed += 1
        taken = {f.id for f in st.flares}
        n = st.placed
        while f"placed{n}" in taken:
            n += 1
        fl = TripFlare(f"placed{n}", *plan)
        st.flares.append(fl)
        g.emit({"type": "trip_flare_placed", "flare": fl.id, "x": fl.x, "y": fl.y, "side": OWNER,
                "clause": FLARE_CLAUSE,
                "text": f"A trip flare is set at ({fl.x:g}, {fl.y:g}) ({st.to_place} left to place)"},
               visible=OWNER)


register_side(PlaceTripFlare())


class NightChapter(Chapter):
    """Night and the light (DD-9A.1–9A.4) on the chapter seam: its tables in every game; its state and
    steps only in a game with trip flares."""

    id = "night"
    title = "DD chapter 9A: Night Combat & Battlefield Illumination"
    actions = ("place_trip_flare",)
    state_type = NightState
    table_fields = ("flares",)

    def active(self, g: Game) -> bool:
        return _state(g) is not None

    def new_state(self, g: Game) -> NightState | None:
        sc = g.scenario
        rows = getattr(sc, "trip_flares", ())
        to_place = getattr(sc, "flares_to_place", 0)
        if not rows and not to_place:
            return None  # a game without trip flares keeps the state it had
        return NightState(flares=[TripFlare(f.id, f.x, f.y) for f in rows], to_place=to_place)

    def load_tables(self, book: Rulebook) -> NightTables:
        return load_night(book=book)

    def steps(self) -> tuple[Step, ...]:
        return (Step("after_act", 5, watch, FLARE_CLAUSE, self.id),
                Step("consolidation", 95, watch, FLARE_CLAUSE, self.id))

    def markers(self, g: Game, side: str) -> list[dict]:
        return markers(g, side)


CHAPTER = register_chapter(NightChapter())
