"""Chapter 8's tables (``game/data/fire_support.toml``): the fire-support assets (G-19, G-37) and how a
mission is called, delayed and scattered (DD-8.6–8.9), loaded strictly.

It imports nothing of the game, so the scenario loader can check a scenario's ``[[support]]`` rows
against it. ``[air]`` holds the rules of air attacks (the G-22 Pass Deviation table, the heading
restriction, marking smoke and the VC spoof); the air assets are ``[[asset]]`` rows of kind ``cas``,
``gunship`` and ``fac``. What it leaves out: the rules themselves (``missions``, ``air``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from game.tables import DATA_DIR, DataError, load_rows, load_sections, one_of

ASSET_KINDS = ("onboard", "battery", "cas", "gunship", "fac")
"""How an asset is delivered: an on-board mortar team's own fire (G-37), an off-board battery on a delay
clock (DD-8.7), close air support on a heading (DD-8.5), a gunship's run (G-27), a Forward Air
Controller overhead who marks and verifies (DD-8.5, G-18)."""
ROUNDS = ("he", "illumination", "wp", "napalm", "bombs", "rockets", "guns")
SIDE_NAMES = ("allied", "insurgent")
SHAPES = ("circle", "oval", "strip")
"""A footprint: a circle (``radius``), or an oval or a strip ``length`` x ``width`` along the heading (G-25)."""
COVER_FLAGS = ("all", "vegetation", "building", "water", "fortification")
DEVIATIONS = ("on_line", "short", "long", "yaw")
"""The G-22 Pass Deviation results."""


@dataclass(frozen=True)
class MissionRules:
    clause: str
    call_roles: list[str]
    call_officers: bool
    on_target: int
    drift_dice: int
    unobserved_drift_dice: int
    direction_faces: int
    village_radius: float
    village_drift: int
    village_terrain: list[str]
    salvo_spread_s: float


@dataclass(frozen=True)
class IlluminationRules:
    clause: str
    radius: float


@dataclass(frozen=True)
class SmokeRules:
    clause: str
    turns: int


@dataclass(frozen=True)
class Asset:
    """One row of the Fire Support Assets Overview (G-19)."""

    id: str
    name: str
    clause: str
    sides: list[str] = field(metadata=one_of(SIDE_NAMES))
    kind: str = field(metadata=one_of(ASSET_KINDS))
    delay: int
    fp: int
    rounds: list[str] = field(metadata=one_of(ROUNDS))
    radius: float = 0.0
    """A circular template's radius (G-25); 0 for a footprint laid along a heading."""
    length: float = 0.0
    width: float = 0.0
    """A footprint along the heading (napalm 2"x6", a strafe 2"x6", G-19, G-25)."""
    ap: int = 0
    heavy: bool = False
    craters: bool = False
    burns: bool = False
    min_range: float = 0.0
    on_target: int = 0
    """The scatter die's on-target faces, if not the mission's (DD-8.8): 1 for rockets (G-19)."""
    on_target_seen: int = 0
    """An on-board team that sees the point itself lands on target on this or less (G-37)."""
    drift_dice: int = 0
    """Drift dice if not the mission's (G-19: rockets drift 2d6")."""
    threat: int = 0
    """Available only at this Jungle Ghost Threat Level or above (G-19); 0: always."""
    save: int = 0
    """The save every stand under it takes instead of its cover's, if worse (napalm: 6, G-19); 0: cover."""
    fortified_save: int = 0
    """The save a stand in a fortification keeps under it (napalm: 5+ in bunkers and trenches, G-19)."""
    salvo: int = 1
    """Impacts drawn inside the template for the client (the attack is the one template, DD-8.10)."""
    teams: list[str] = field(default_factory=list)
    """The stand types that fire it from the table (an on-board mortar team, G-37)."""
    night_only: bool = False
    on_station: int = 0
    """Turns a gunship stays on station (G-27)."""
    attacks: int = 0
    """Attacks a gunship makes on station before it leaves (G-27: 3 turns or 2 attacks)."""
    shape: str = field(default="circle", metadata=one_of(SHAPES))
    """The footprint of an air asset along its heading (G-19, G-25): circle, oval (napalm), strip."""
    save_strips: list[str] = field(default_factory=list, metadata=one_of(COVER_FLAGS))
    """Cover whose save ``save`` replaces (napalm: vegetation and hootches, G-19); empty: every cover."""
    look_out_sir: bool = True
    """An explosive footprint: Look Out, Sir! (DD-5.9, G-25); False for gunfire (Spooky, as the beaten zone)."""
    illumination: float = 0.0
    """The radius of an Illumination circle centred on the footprint (AC-47 Spooky's 6", G-19)."""
    model: str = ""
    """The aircraft's model for the client (``models/<model>.glb``)."""
    profile: list[list[float]] = field(default_factory=list)
    """The pass's altitude profile for the client: [inches along the heading from the footprint's centre
    (negative: before it), height in inches] (engine policy, 1" = 10 m)."""


@dataclass(frozen=True)
class AirRules:
    """Air attacks along a heading (DD-8.5; G-18, G-22, G-27; DD-4.37)."""

    clause: str
    deviation: list[str] = field(metadata=one_of(DEVIATIONS))
    """The Pass Deviation result by d6 face 1..6 (G-22)."""
    short_dice: int
    long_dice: int
    """Short: the footprint moves this many d6 inches back along the heading; long: forward (G-22)."""
    yaw: float
    """Degrees the footprint turns about its centre on a yaw (G-22: 45)."""
    yaw_left: int
    """A second d6 up to this turns it left (counter-clockwise), above it right (G-22: 1-3 left)."""
    unmarked_rolls: int
    """Rolls for a target marked by neither smoke nor a FAC (G-22: twice, apply both)."""
    heading_arc: float
    heading_reach: float
    """G-22: the heading may not point within ``heading_arc`` degrees of a friendly stand within
    ``heading_reach`` inches of the footprint's centre (DD-8.5: never toward friendly lines)."""
    smoke_colours: list[str]
    """The coloured marking smoke a caller may pop (G-18); "none" leaves the target unmarked."""
    smoke_reach: float
    """How far from the caller the marking grenade may be thrown (G-18: thrown up to 4")."""
    radio_check: int
    """The RTO Radio Check against a spoof (DD-4.37: 4+)."""
    fac_bonus: int
    """The FAC's modifier to the Radio Check (PROPOSAL on DD-8.5, G-18: the FAC verifies the colour)."""
    spoof_reach: float
    spoof_tokens: int
    spoof_drift_dice: int
    """DD-4.37: an Insurgent element within 4" of an Allied plume spends 1 Ambush Token; a failed
    check drifts the strike 2d6" toward the spoof smoke (G-22)."""
    burning_turns: int
    """A napalm fire blocks sight for the rest of the turn (G-19, G-38): a clock of 1."""
    burning_step: float
    """Spacing of the circles that stand in for the burning oval in sight (engine policy)."""
    edge_margin: float
    """The pass enters and leaves this far beyond the table's edges (for the client)."""
    release_lead: float
    """The ordnance is released this far before it lands, along the heading (for the client)."""


@dataclass(frozen=True)
class FireSupportRules:
    mission: MissionRules
    illumination: IlluminationRules
    smoke: SmokeRules
    air: AirRules
    assets: dict[str, Asset]

    @functools.cached_property
    def onboard(self) -> dict[str, str]:
        """The asset each on-board team's stand type fires (G-37), by stand type (made once: read only)."""
        return {t: a.id for a in self.assets.values() for t in a.teams}


def load_fire_support(directory: Path = DATA_DIR, stands: dict | None = None) -> FireSupportRules:
    """Load ``fire_support.toml`` strictly: every section present, known keys only, a clause in each;
    with ``stands`` (a rulebook's stand types), the teams named must be among them."""
    name = "fire_support.toml"
    built, doc = load_sections(name, {"mission": MissionRules, "illumination": IlluminationRules,
                                      "smoke": SmokeRules, "air": AirRules}, directory, also=("asset",))
    assets = load_rows(name, "asset", Asset, doc)
    m = built["mission"]
    if not 1 <= m.on_target <= 6 or m.direction_faces not in (6, 8):
        raise DataError(name, "[mission]", "on_target must be a d6 face and direction_faces 6 or 8")
    air = built["air"]
    if len(air.deviation) != 6 or not 0 <= air.yaw_left <= 6 or air.unmarked_rolls < 1:
        raise DataError(name, "[air]", "deviation needs one result per d6 face, yaw_left a face, unmarked_rolls >= 1")
    if "none" in air.smoke_colours or not air.smoke_colours:
        raise DataError(name, "[air]", "smoke_colours lists the colours; 'none' (unmarked) is always offered")
    for a in assets.values():
        rec = f"asset '{a.id}'"
        if a.kind in ("onboard", "battery") and a.radius <= 0:
            raise DataError(name, rec, "a mortar or battery needs a circular template (radius > 0)")
        if a.kind in ("cas", "gunship"):
            if (a.radius <= 0) if a.shape == "circle" else (a.length <= 0 or a.width <= 0):
                raise DataError(name, rec, "an air asset needs a footprint: a circle's radius, or an oval's "
                                           "or a strip's length and width")
            if not a.model or any(len(p) != 2 for p in a.profile) or len(a.profile) < 2:
                raise DataError(name, rec, "an air asset needs its model and an altitude profile of [along, height]")
        if a.kind == "gunship" and (a.on_station < 1 or a.attacks < 1):
            raise DataError(name, rec, "a gunship stays on station for turns and attacks (G-27)")
        if a.kind == "fac" and (a.fp or a.delay or a.rounds):
            raise DataError(name, rec, "a FAC marks and verifies: no fp, delay or rounds (DD-8.5, G-18)")
        if a.delay < 0 or a.fp < 0 or not 0 <= a.on_target <= 6 or not 0 <= a.on_target_seen <= 6:
            raise DataError(name, rec, "delay and fp must be >= 0, on_target faces 0-6")
        if a.kind == "onboard" and a.delay:
            raise DataError(name, rec, "an on-board mortar has no delay clock (G-37)")
        if a.teams and a.kind != "onboard":
            raise DataError(name, rec, "only an on-board asset is fired by teams on the table (G-37)")
        for t in a.teams:
            if stands is not None and t not in stands:
                raise DataError(name, rec, f"teams: no stand type {t!r} in stands.toml")
    return FireSupportRules(assets=assets, **built)
