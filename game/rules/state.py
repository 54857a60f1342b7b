"""The state of one game: stands, elements, sides, blinds, clocks, dice streams.

Plain dataclasses that serialise to JSON-able dicts and back exactly, so a state can be hashed, saved,
restored and continued (DESIGN §5). Every write to a state is counted (``game.rules.changes``: its
lists and dicts are tracked ones, its records count their field writes once they are in it). Ids are strings; every collection is kept in a dict sorted by
id, so iteration order is stable and never depends on sets or memory addresses.

What this module leaves out: no rules. The modules named after the rulebook act on this state.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from game.rules.changes import REST, TABLE, Tracked, attach, tracked, versions
from game.rules.data import Rulebook
from game.rules.scenario import Scenario
from game.world import shapes
from game.world.features import base_bounds, base_rectangle


@tracked
@dataclass
class Stand(Tracked):
    """One base on the table (DD-1.5): never split, losses shown by markers."""

    id: str
    type: str
    element: str
    side: str
    x: float
    y: float
    facing: float
    hits: int = 0
    """Hits taken: a Medium stand with 1 hit carries a Red Casualty Ring (DD-5.11)."""
    alive: bool = True


@tracked
@dataclass
class Element(Tracked):
    """A tactical element: a squad, an HQ, a weapon team (DD-1.11, DD-2.5)."""

    id: str
    side: str
    name: str
    kind: str
    quality: str
    stands: list[str]
    blind: str | None = None
    pinned: bool = False
    winded: bool = False
    """Winded (DD-3.6): -1 Morale until Take Five."""
    winded_slow: bool = False
    """Half movement on the next activation (DD-3.7)."""
    activations: int = 0
    move_actions: int = 0
    sprinted_this_turn: bool = False
    sprinted_last_turn: bool = False
    hold_position: bool = False
    """Failed emergency initiative (DD-1.16): holds position for the rest of this impulse."""
    conceal: bool = False
    """Hold/Conceal (G-32)."""
    last_move: str | None = None
    overwatch: dict | None = None
    """Overwatch marker (DD-2.13, G-32): {"kind": "arc"|"corridor", geometry, "turn", "activations"}."""
    low_ammo: bool = False
    """Low Ammo (DD-4.26, G-32): half Aimed Fire pool; no Area Suppression or Grazing Fire."""
    bank: dict | None = None
    """Where its stands stood before the move that took it into water (DD-3.19): {stand: [x, y, f]}."""
    reserve: bool = False
    """A Green Ghost reserve held off the table in the Insurgent Reserve Hand (DD-4.8)."""
    fired_turn: int = -9
    """The last turn it fired (DD-4.23, C-07: +1 to spot it this turn and the next)."""
    exposed_turn: int = -9
    """Exposed (DD-4.27, G-32) for the turn it recon-fired."""
    illuminated_turn: int = -9
    """Illuminated by its own Muzzle Bloom (DD-4.40, C-04) to the end of this turn."""

    @property
    def hidden(self) -> bool:
        """Not on the table as miniatures: under a Blind (DD-4.7) or in the Reserve Hand (DD-4.8)."""
        return self.blind is not None or self.reserve


@tracked
@dataclass
class SideState(Tracked):
    id: str
    faction: str
    name: str
    cp: int = 0
    ambush_tokens: int = 0
    vp: int = 0
    tunnel_entrances: int = 0


@tracked
@dataclass
class Blind(Tracked):
    """A conventional Blind on the table (DD-4.7): its contents are hidden from the other side."""

    id: str
    side: str
    x: float
    y: float
    dummy: bool
    elements: list[str] = field(default_factory=list)
    state: str = "blind"
    """Contact state (DD-4.7-4.11): "blind" (State 0) or "echo" (State 1); Confirmed removes the marker."""
    activations: int = 0
    move_actions: int = 0
    act_turn: int = 0
    """The turn the two counters above belong to (they reset when a new turn's counts start)."""
    sprint_turn: int = -9
    """The last turn it sprinted (noise, DD-4.9; +1 to spot it this turn and the next, C-07)."""
    conceal: bool = False
    """Hold/Conceal (DD-4.38, G-32): -1 to spot it; lost when it moves."""
    stealth: bool = False
    """A Stealth Blind (LRRP, SEAL, MACV-SOG, DD-4.34): scenario marking, shown to its owner."""


@tracked
@dataclass
class Token(Tracked):
    """A casualty token on the table (DD-5.11, DD-6.1; C-19): where a stand fell."""

    id: str
    side: str
    x: float
    y: float
    state: str
    """wounded | stabilized | kia | extracted (Allied, DD-6.4–6.5, DD-6.12) | communist (DD-3.14)"""
    carrier: str | None = None
    """The Litter Team stand carrying it (DD-6.2, G-33 (1)); it travels at the carrier's centre."""
    extracted: bool = False
    """A KIA token lifted out by the Dustoff: it scores 0 and its -3 stands (C-02)."""


@tracked
@dataclass
class Clock(Tracked):
    """A clock on the table (DD-2.2, DD-8.7): a d6 beside a marker, dropping by 1 at the start of each
    Tension phase; at 0 the chapter that owns its ``kind`` resolves it (``game.rules.chapters``)."""

    id: str
    kind: str
    """What runs out: ``dustoff`` (DD-6.8), ``wreck`` (a burning wreck, G-38), ``fire_mission``..."""
    turns: int
    name: str
    side: str = "all"
    """Who sees it: "all", or the side whose secret it is."""
    x: float | None = None
    y: float | None = None
    radius: float | None = None
    """Where it acts on the table, if anywhere: a circle (a smoke or wreck cloud blocks sight in it)."""
    colour: str | None = None
    blocks_sight: bool = False
    """A cloud on the table while the clock runs (a burning wreck, G-38; WP smoke, G-18): sightlines
    through its circle are blocked (DD-5.34)."""
    ref: str | None = None
    """The record of the owning chapter's state that the clock resolves (a fire mission's id)."""

    def to_view(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v not in (None, False) and k != "ref"}


@tracked
@dataclass
class TerrainChange(Tracked):
    """A change to the table made in play (DD chapter 8): a crater left by a heavy shell (G-01 T12c) or
    vegetation burnt by napalm (G-19). The rules, the plan-view table and line of sight all answer the
    changed table (``game.rules.terrain_changes``)."""

    id: str
    kind: str
    """crater | burnt"""
    polygon: list[list[float]]
    """The changed area, [[x, y], ...] inches, counter-clockwise."""
    turn: int
    clause: str


_LIVING: list = [None, -1, {}]
"""``GameState.living``'s answers: the state they are of, the table's counter they were made at, and
the living stands by element id (with the element they were made for). One state's at a time."""


@tracked
@dataclass
class GameState(Tracked):
    scenario_id: str
    seed: int
    turn: int
    turns: int
    phase: str
    to_act: str | None
    first_side: str
    weather: str
    time_of_day: str
    sides: dict[str, SideState]
    elements: dict[str, Element]
    stands: dict[str, Stand]
    blinds: dict[str, Blind]
    rng: dict[str, int]
    passes: int = 0
    """Consecutive passes in the Engagement phase (G-28 (6): two in a row end the phase)."""
    impulse: int = 0
    seq: int = 0
    tokens: list[Token] = field(default_factory=list)
    """Casualty tokens on the table (DD-5.11, DD-6.1)."""
    clocks: list[Clock] = field(default_factory=list)
    """Pending off-board fire-support and Dustoff clocks (DD-2.2, DD-8.7)."""
    over: bool = False
    result: dict | None = None
    smoke: list[dict] = field(default_factory=list)
    """LOS-blocking clouds on the table (DD-5.34 dust): {"id", "x", "y", "radius", "turn", "impulse"}."""
    structures: dict = field(default_factory=dict)
    threat: int = 2
    """The Jungle Ghost's Threat Level, 1-3 (DD-10.5), chosen when the game is created."""
    """Damage to terrain features by id (DD-5.31–5.32, DD-5.35): {"hp", "state": "rubble"|"breached"}."""
    civic_drift: int = 0
    """Hamlet loyalty, -5..+5, starting Neutral (DD-9B.8); Recon by Fire incidents lower it (C-03)."""
    ambush_points: list[dict] = field(default_factory=list)
    """Secret Insurgent map points (DD-2.26): {"id", "x", "y", "kind": "ambush"|"tunnel"}."""
    next_blind: int = 0
    """Counter for the ids of Blinds placed during play (``blinds.place_blind``)."""
    terrain_changes: list[TerrainChange] = field(default_factory=list)
    """Craters and burnt ground made in play, in the order they happened (DD chapter 8)."""
    chapters: dict[str, Any] = field(default_factory=dict)
    """Each chapter's own typed state, by chapter id (``game.rules.chapters``): CASEVAC's Dustoff
    (``casevac.CasevacState``), the Jungle Ghost's when it plays a side (``jungle_ghost.GhostState``)..."""

    def __post_init__(self) -> None:
        attach(self, REST)  # in play from now on: every write to it is counted (``game.rules.changes``)

    # -- convenience -----------------------------------------------------------------------------
    @property
    def solo(self) -> Any:
        """The Jungle Ghost's state (DD chapter 10) when it plays the Insurgent side, else None."""
        return self.chapters.get("jungle_ghost")

    def other(self, side: str) -> str:
        return "insurgent" if side == "allied" else "allied"

    def living(self, element: Element) -> list[Stand]:
        """The element's stands still alive (the caller's own list). Asked some hundreds of times an
        action: kept per element while no write touches the table (``changes.versions``)."""
        v = versions[TABLE]
        if _LIVING[0] is not self or _LIVING[1] != v:  # another state, or a write since: start over
            _LIVING[:] = [self, v, {}]
        kept = _LIVING[2]
        out = kept.get(element.id)
        if out is None or out[0] is not element:
            stands = self.stands
            out = kept[element.id] = (element, [st for st in map(stands.__getitem__, element.stands) if st.alive])
        return out[1][:]

    def on_table(self, element: Element) -> bool:
        return not element.hidden and bool(self.living(element))

    def side_stands(self, side: str) -> list[Stand]:
        """Living stands of a side that are on the table (not under a blind, not in reserve)."""
        return [
            s for s in self.stands.values()
            if s.side == side and s.alive and not self.elements[s.element].hidden
        ]

    # -- serialisation ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        d = dict(d)
        d["sides"] = {k: SideState(**v) for k, v in d["sides"].items()}
        d["elements"] = {k: Element(**v) for k, v in d["elements"].items()}
        d["stands"] = {k: Stand(**v) for k, v in d["stands"].items()}
        d["blinds"] = {k: Blind(**v) for k, v in d["blinds"].items()}
        d["rng"] = dict(d["rng"])
        d["terrain_changes"] = [TerrainChange(**c) for c in d.get("terrain_changes", ())]
        d["clocks"] = [Clock(**c) for c in d.get("clocks", ())]
        d["tokens"] = [Token(**t) for t in d.get("tokens", ())]
        from game.rules.chapters import restore_states

        d["chapters"] = restore_states(d.get("chapters", {}))
        return cls(**d)

    def hash(self) -> str:
        """A hash of the whole state (DESIGN §5): equal states, equal hashes. The JSON of ``to_dict()``,
        written straight from the dataclasses (no copy of the state on the way)."""
        blob = json.dumps(self, default=_fields, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()


def _fields(obj: Any) -> dict[str, Any]:
    """``json.dumps``'s hook for the state's dataclasses: their fields, as ``dataclasses.asdict`` has them."""
    names = _field_names(type(obj))
    if names is None:
        raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")
    return {name: getattr(obj, name) for name in names}


@cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    return tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) else None


def build_dataclass(cls: type, raw: Any) -> Any:
    """A dataclass of ``cls`` from its ``dataclasses.asdict`` form, nested dataclasses (also inside
    ``X | None``, ``list[X]`` and ``dict[str, X]``) built again; unknown fields are an error."""
    from game.tables import field_types

    if not isinstance(raw, dict):
        raise ValueError(f"{cls.__name__}: expected an object, got {type(raw).__name__}")
    hints = field_types(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    extra = sorted(set(raw) - names)
    if extra:
        raise ValueError(f"{cls.__name__}: unknown field(s) {', '.join(extra)}")
    return cls(**{k: _build(hints[k], v) for k, v in raw.items()})


def _build(hint: Any, value: Any) -> Any:
    import types
    import typing

    if value is None:
        return None
    origin = typing.get_origin(hint)
    if dataclasses.is_dataclass(hint):
        return build_dataclass(hint, value)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(hint):
            if dataclasses.is_dataclass(arg):
                return build_dataclass(arg, value)
        return value
    if origin is list:
        (arg,) = typing.get_args(hint) or (Any,)
        return [_build(arg, v) for v in value] if dataclasses.is_dataclass(arg) else list(value)
    if origin is dict:
        args = typing.get_args(hint)
        arg = args[1] if len(args) == 2 else Any
        return {k: _build(arg, v) for k, v in value.items()} if dataclasses.is_dataclass(arg) else dict(value)
    return value


def base_of(book: Rulebook, stand: Stand):
    """A stand's base rectangle (DD-1.7)."""
    b = book.base_of(stand.type)
    return base_rectangle(stand.x, stand.y, stand.facing, b.width, b.depth)


def bounds_of(book: Rulebook, stand: Stand) -> tuple[float, float, float, float]:
    """The bounds of a stand's base rectangle: (min x, min y, max x, max y)."""
    b = book.base_of(stand.type)
    return base_bounds(stand.x, stand.y, stand.facing, b.width, b.depth)


TOKEN_RADIUS = 0.5
"""A casualty token is a 25 mm disc (G-15)."""


def token_shape(token: Token):
    """The footprint of a casualty token on the table."""
    return disc(token.x, token.y, TOKEN_RADIUS)


@lru_cache(maxsize=1024)
def disc(x: float, y: float, radius: float):
    """A round footprint on the table (a casualty token, a Blind marker): immutable, so cached by
    position."""
    return shapes.buffer(shapes.point(x, y), radius, quad_segs=8)


def initial_state(scenario: Scenario, seed: int, streams: dict[str, int]) -> GameState:
    """The state before turn 1's Tension phase."""
    sides = {
        sid: SideState(sid, s.faction, s.name, ambush_tokens=s.ambush_tokens if sid == "insurgent" else 0,
                       tunnel_entrances=s.tunnel_entrances)
        for sid, s in sorted(scenario.sides.items())
    }
    elements: dict[str, Element] = {}
    stands: dict[str, Stand] = {}
    for e in sorted(scenario.elements, key=lambda e: e.id):
        elements[e.id] = Element(e.id, e.side, e.name, e.kind, e.quality, [s.id for s in e.stands], e.blind,
                                 reserve=getattr(e, "reserve", False))
        for s in e.stands:
            stands[s.id] = Stand(s.id, s.type, e.id, e.side, s.x, s.y, s.facing)
    stands = dict(sorted(stands.items()))
    blinds = {}
    for b in sorted(scenario.blinds, key=lambda b: b.id):
        blinds[b.id] = Blind(b.id, b.side, b.x, b.y, b.dummy,
                             sorted(e.id for e in scenario.elements if e.blind == b.id),
                             stealth=getattr(b, "stealth", False))
    points = [{"id": p.id, "x": p.x, "y": p.y, "kind": p.kind}
              for p in sorted(getattr(scenario, "ambush_points", ()), key=lambda p: p.id)]
    return GameState(
        scenario_id=scenario.id, seed=seed, turn=0, turns=scenario.turns, phase="setup", to_act=None,
        first_side=scenario.first_side, weather=scenario.weather, time_of_day=scenario.time_of_day,
        sides=sides, elements=elements, stands=stands, blinds=blinds, rng=streams, ambush_points=points,
    )
