"""Vehicles and boats on the table: the model of a vehicle stand with its moving parts, kept in step with
the ``vehicle`` block of the views.

A stand is a vehicle when its view carries ``vehicle`` or its model key is a roster id
(``game/data/vehicles.toml``; the keys of ``models/build_vehicles.py``). The model is loaded with its
node tree kept (``hull``, ``turret``, ``gun``, ``crew``, ``hatch``, ``ramp``, the ACAV's side M60s), so the
presenter can traverse a turret toward what it fires at, recoil a gun, lower a ramp or toss a turret in a
brew-up. A roster id with no model of its own yet is drawn by a stand-in of its kind, scaled to the hull
footprint its base gives (a Sheridan as an M48, a PT-76 as a T-54, a jeep as a truck): drawn plainly, never
as nothing.

What the view says, the kit shows: ``buttoned`` hides the crewman in the hatch; ``weapons_out`` droops the
gun; ``wreck`` scorches the paint a dark grey-brown (``scorch``: the shape still reads), hides the side's token
and rim, knocks the turret askew and lets it smoke for a while
(``WRECK_SMOKE_S``); stands the view lists among a vehicle's ``passengers`` are hidden (they ride inside).
None of it is a rule: the engine decides, the kit draws.

The presenter's armour handlers (``armour_fx``) draw with the parts here: ``toss`` (a turret blown off its
ring in a brew-up), ``figure`` and ``hop`` (crewmen jumping out and going flat), ``rear_of`` (where men get
in and out) and ``wake`` (a craft's foam, a track's dust, timed to ``effects.on_move``'s slide).

What it leaves out: no track animation or turning wheels, no gun elevation toward the target (the table's
ranges are short: the gun stays level), no damage decals short of the wreck.
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import panda3d.core as p3d
from direct.interval.IntervalGlobal import Func, LerpFunctionInterval, Sequence, Wait

from game.client import fx, geom

if TYPE_CHECKING:
    from game.client.presenter import Stage

CRAFT = frozenset({"pbr", "tango", "aspb", "monitor", "ccb", "sampan"})
"""The roster's river craft (``drive = "boat"``): they leave a wake, not dust."""
WHEELED = frozenset({"v100", "m35_truck", "m151_jeep", "btr152", "zil_truck"})
ROSTER = frozenset({"m113_acav", "m113_apc", "m48a3", "m67_zippo", "m50a1_ontos", "m551_sheridan", "m42_duster",
                    "m41", "centurion", "lvtp5", "v100", "m35_truck", "m151_jeep", "pt76", "type63", "t54",
                    "btr50", "btr152", "zsu57", "zil_truck"}) | CRAFT
STAND_IN = {"m67_zippo": "m48a3", "m551_sheridan": "m48a3", "m41": "m48a3", "centurion": "m48a3",
            "m42_duster": "m113_apc", "lvtp5": "m113_apc", "btr50": "m113_apc", "v100": "m35_truck",
            "m151_jeep": "m35_truck", "btr152": "m35_truck", "zil_truck": "m35_truck", "pt76": "t54",
            "type63": "t54", "zsu57": "t54", "aspb": "pbr", "monitor": "tango", "ccb": "tango"}
"""Which built model draws a roster id that has none of its own yet (scaled to its base)."""
WRECK_TINT = (0.82, 0.78, 0.74, 1.0)  # over the scorched paint (``scorch``): a little darker, a little warmer
SCORCHED = (0.47, 0.41, 0.35)  # burnt paint: a grey-brown, its lightness the paint's own (``scorch``)
SCORCH_KEEP = 0.15  # the share of the paint's own colour left in it (an olive hull still reads as olive-ish)
WRECK_SMOKE_S = 40.0  # seconds a wreck smokes after it is made
TRAVERSE_DEG_S = 120.0  # a turret's traverse on screen (faster than life, so a shot never waits long)
BLACK_SMOKE = (0.13, 0.12, 0.11, 0.8)


def roster_of(s: dict) -> str:
    v = s.get("vehicle")
    if isinstance(v, dict) and v.get("roster"):
        return str(v["roster"])
    return str(s.get("model") or s.get("type") or "")


def is_vehicle(s: dict) -> bool:
    return isinstance(s.get("vehicle"), dict) or roster_of(s) in ROSTER


def model_key(library, roster: str) -> tuple[str, bool]:
    """The model that draws ``roster`` and whether it is a stand-in."""
    if library.has(roster):
        return roster, False
    alt = STAND_IN.get(roster)
    if alt and library.has(alt):
        return alt, True
    return roster, False


_PROTOTYPES: dict[tuple[str, str], p3d.NodePath] = {}


def prototype(library, key: str) -> p3d.NodePath:
    """The model with its node tree (each part's Geoms merged, the parts kept apart), loaded once."""
    cache = (str(library.models_dir), key)
    if cache not in _PROTOTYPES:
        from game.client.assets import load_glb

        path = library.models_dir / f"{key}.glb"
        np_ = load_glb(path) if path.exists() else p3d.NodePath(p3d.PandaNode(key))
        for part in np_.find_all_matches("**/+GeomNode"):
            part.flatten_light()
        _PROTOTYPES[cache] = np_
    return _PROTOTYPES[cache]


def _part(root: p3d.NodePath, name: str) -> p3d.NodePath | None:
    found = root.find(f"**/{name}")
    return None if found.is_empty() else found


@dataclass
class VehicleKit:
    """One vehicle stand's model and its moving parts, under the stand's node."""

    stand: str
    roster: str
    node: p3d.NodePath  # the stand's node (placed and turned by ``Pieces``)
    root: p3d.NodePath  # the model (tinted, jolted)
    turret: p3d.NodePath | None
    gun: p3d.NodePath | None
    crew: p3d.NodePath | None
    ramp: p3d.NodePath | None
    length: float
    width: float
    deck: float  # the hull top above the ground, inches
    muzzle_x: float  # the gun's tip along its own x
    wreck: bool = False
    buttoned: bool = False
    weapons_out: bool = False
    intervals: list = field(default_factory=list)
    smoke: p3d.NodePath | None = None

    @property
    def craft(self) -> bool:
        return self.roster in CRAFT

    @property
    def drive(self) -> str:
        return "boat" if self.craft else "wheeled" if self.roster in WHEELED else "tracked"

    # -- state from the view --------------------------------------------------------------------------
    def sync(self, v: dict | None) -> None:
        v = v if isinstance(v, dict) else {}
        self.set_buttoned(bool(v.get("buttoned")))
        self.set_weapons_out(bool(v.get("weapons_out")))
        if v.get("wreck") and not self.wreck:
            self.set_wreck(True)

    def set_buttoned(self, on: bool) -> None:
        self.buttoned = on
        if self.crew is not None:
            self.crew.hide() if on or self.wreck else self.crew.show()

    def set_weapons_out(self, on: bool) -> None:
        self.weapons_out = on
        if self.gun is not None and not self.wreck:
            self.gun.set_p(-7.0 if on else 0.0)  # a gun knocked out droops on its trunnions

    def wreck_pose(self) -> tuple[float, float, float]:
        """The turret's pose on a wreck: knocked askew, the same for the same stand on every screen."""
        rng = random.Random(zlib.crc32(self.stand.encode()))
        return rng.uniform(25, 70) * rng.choice((-1, 1)), rng.uniform(-7, -3), rng.uniform(-5, 5)

    def set_wreck(self, on: bool = True, smoke_after: float = 0.0) -> None:
        """Scorch the hull, the turret askew, the crew gone, no side token; smoke for ``WRECK_SMOKE_S`` s."""
        if not on or self.wreck:
            return
        self.wreck = True
        scorch(self.root)
        self.root.set_color_scale(*WRECK_TINT)
        for name in ("side-token", "rim"):  # a wreck is nobody's: its side's token and rim go
            mark = self.node.find(name)
            if not mark.is_empty():
                mark.hide()
        if self.turret is not None:
            self.turret.set_hpr(*self.wreck_pose())
        if self.gun is not None:
            self.gun.set_p(-9.0)
        if self.crew is not None:
            self.crew.hide()
        self._smoke(smoke_after)

    def _smoke(self, delay: float) -> None:
        holder = self.node.attach_new_node("wreck-smoke")
        self.smoke = holder
        period = 4.0
        spec = fx.BurstSpec("puff", count=10, life=(2.5, 4.0), speed=(0.1, 0.4), up=(0.8, 1.0),
                            size=(0.25, 1.3), color=BLACK_SMOKE, rise=1.1, wind=(0.25, 0.1, 0.0), fade_in=0.1)
        burst = fx.Burst(holder, (0.0, 0.0, self.deck), fx.BurstSpec(**{**spec.__dict__, "spawn": period}),
                         random.Random(self.stand), period=period)
        life = WRECK_SMOKE_S

        def at(t: float) -> None:
            burst.set_time(t % period)
            holder.set_alpha_scale(max(0.0, min(1.0, (life - t) / (0.3 * life))))  # it thins out, then stops

        def done() -> None:
            if self.smoke is holder:
                self.smoke = None
            holder.remove_node()

        holder.set_compass()  # the smoke drifts with the wind, whichever way the hull faces
        ival = Sequence(Wait(delay), LerpFunctionInterval(at, life, 0.0, life), Func(done))
        self.intervals.append(ival)
        ival.start()

    def destroy(self) -> None:
        for ival in self.intervals:
            ival.pause()
        self.intervals.clear()
        if self.smoke is not None:
            self.smoke.remove_node()
            self.smoke = None

    # -- where things are ---------------------------------------------------------------------------
    def bearing_to(self, x: float, y: float) -> float:
        """The turret's heading, relative to the hull, that points it at (x, y)."""
        here = self.node.get_pos()
        world = math.degrees(math.atan2(y - here.y, x - here.x))
        return (world - self.node.get_h() + 180.0) % 360.0 - 180.0

    def muzzle(self, aim: tuple[float, float] | None = None) -> p3d.LPoint3:
        """The gun's tip in the table's frame (after the turret has traversed toward ``aim``)."""
        parent = self.node.get_parent()
        if self.gun is None:
            top = self.node.get_pos(parent)
            h = math.radians(self.node.get_h())
            return p3d.LPoint3(top.x + 0.4 * self.length * math.cos(h), top.y + 0.4 * self.length * math.sin(h),
                               top.z + self.deck)
        if aim is None or self.turret is None:
            return parent.get_relative_point(self.gun, p3d.LPoint3(self.muzzle_x, 0, 0))
        was = self.turret.get_hpr()
        self.turret.set_h(self.bearing_to(*aim))
        try:
            return parent.get_relative_point(self.gun, p3d.LPoint3(self.muzzle_x, 0, 0))
        finally:
            self.turret.set_hpr(was)

    def centre(self) -> p3d.LPoint3:
        p = self.node.get_pos(self.node.get_parent())
        return p3d.LPoint3(p.x, p.y, p.z + self.deck * 0.6)

    def struck_at(self, x: float, y: float) -> p3d.LPoint3:
        """Where a round from (x, y) strikes the hull: its side toward the shooter, two-thirds up."""
        c = self.centre()
        d = math.hypot(x - c.x, y - c.y) or 1.0
        r = 0.45 * min(self.length, self.width)
        return p3d.LPoint3(c.x + (x - c.x) / d * r, c.y + (y - c.y) / d * r, c.z + 0.1 * self.deck)

    # -- moving parts ----------------------------------------------------------------------------------
    def traverse(self, x: float, y: float) -> tuple[Sequence | None, float]:
        """An eased turn of the turret toward (x, y), from wherever it points when the turn begins, and
        the seconds it takes (as it points now)."""
        if self.turret is None or self.wreck:
            return None, 0.0
        now = self.turret.get_h()
        goal = self.bearing_to(x, y)
        dur = max(0.2, abs((goal - now + 180) % 360 - 180) / TRAVERSE_DEG_S)
        start = [now]
        end = [goal]

        def begin() -> None:
            start[0] = self.turret.get_h()
            g = self.bearing_to(x, y)
            end[0] = start[0] + ((g - start[0] + 180.0) % 360.0 - 180.0)

        def at(k: float) -> None:
            e = k * k * (3 - 2 * k)
            self.turret.set_h(start[0] + (end[0] - start[0]) * e)

        return Sequence(Func(begin), LerpFunctionInterval(at, dur, 0.0, 1.0)), dur

    def recoil(self, kick: float = 0.12) -> Sequence | None:
        """The gun slamming back and running out; the hull rocking on its suspension."""
        gun, root = self.gun, self.root
        rock = -2.5 if not self.craft else -1.0

        def at(k: float) -> None:
            back = math.exp(-k * 7.0) * math.sin(min(1.0, k * 9.0) * math.pi / 2)
            if gun is not None:
                gun.set_x(self._gun_x - kick * back)
            root.set_p(rock * math.exp(-k * 5.0) * math.cos(k * 11.0))

        return Sequence(LerpFunctionInterval(at, 0.7, 0.0, 1.0), Func(lambda: root.set_p(0.0)))

    def jolt(self, amount: float = 4.0) -> LerpFunctionInterval:
        """The hull shoved by a hit: a roll and pitch that settle."""
        root = self.root

        def at(k: float) -> None:
            d = amount * math.exp(-k * 5.0)
            root.set_hpr(0.0, d * math.sin(k * 17.0) * 0.6, d * math.cos(k * 13.0))

        return LerpFunctionInterval(at, 0.8, 0.0, 1.0)

    def ramp_cycle(self, down: float = 0.6, hold: float = 1.2) -> Sequence | None:
        """Lower the ramp, hold it open, raise it (a Tango's bow ramp)."""
        ramp = self.ramp
        if ramp is None:
            return None

        def at(k: float) -> None:
            ramp.set_r(0.0)
            ramp.set_p(-75.0 * k)

        return Sequence(LerpFunctionInterval(at, down, 0.0, 1.0, blendType="easeInOut"), Wait(hold),
                        LerpFunctionInterval(at, down, 1.0, 0.0, blendType="easeInOut"))

    @property
    def _gun_x(self) -> float:
        return float(self.gun.get_tag("x0") or 0.0) if self.gun is not None else 0.0


def make(library, node: p3d.NodePath, s: dict) -> VehicleKit:
    """The vehicle model of view stand ``s`` under ``node``, with its shadow blended as the stands' is."""
    from game.client.pieces import stand_bin

    roster = roster_of(s)
    key, stand_in = model_key(library, roster)
    root = prototype(library, key).copy_to(node)
    root.set_name(f"vehicle-{roster}")
    root.set_transparency(p3d.TransparencyAttrib.M_alpha, 1)
    root.set_bin(stand_bin(), 0)
    hull = _part(root, "hull") or root
    lo, hi = _bounds(hull, root)
    length, width, deck = hi.x - lo.x, hi.y - lo.y, max(0.3, hi.z)
    base = s.get("base") or {}
    if stand_in and base.get("depth"):  # a stand-in takes the footprint its base gives
        k = float(base["depth"]) / max(0.1, length)
        root.set_scale(k)
        length, width, deck = length * k, width * k, deck * k
    gun = _part(root, "gun")
    muzzle_x = 0.0
    if gun is not None:
        glo, ghi = gun.get_tight_bounds(gun)
        muzzle_x = float(ghi.x)
        gun.set_tag("x0", str(gun.get_x()))
    kit = VehicleKit(str(s.get("id")), roster, node, root, _part(root, "turret"), gun, _part(root, "crew"),
                     _part(root, "ramp"), float(length), float(width), float(deck), muzzle_x)
    kit.sync(s.get("vehicle"))
    return kit


def _bounds(hull: p3d.NodePath, root: p3d.NodePath) -> tuple[p3d.LPoint3, p3d.LPoint3]:
    """The hull's own box (its Geoms, not the turret on it nor the shadow beside it)."""
    geoms = [c for c in hull.get_children() if c.node().is_geom_node()] or [hull]
    lo, hi = geoms[0].get_tight_bounds(root)
    return lo, hi


def hide_passengers(pieces, view: dict) -> None:
    """Stands the view lists among a vehicle's passengers ride inside it: hidden, shown again when they
    leave (only the stands this hid: nothing else's)."""
    aboard: set[str] = set()
    for s in view.get("stands") or []:
        v = s.get("vehicle")
        if not isinstance(v, dict):
            continue
        for p in v.get("passengers") or []:
            if isinstance(p, dict):
                aboard |= {str(p.get(k)) for k in ("id", "element", "stand") if p.get(k)}
                aboard |= {str(x) for x in p.get("stands") or []}
            else:
                aboard.add(str(p))
    for piece in pieces.stands.values():
        inside = piece.id in aboard or piece.element in aboard
        if inside and piece.kit is None:
            piece.node.set_tag("aboard", "1")
            piece.node.hide()
        elif piece.node.has_tag("aboard"):
            piece.node.clear_tag("aboard")
            piece.node.show()


# -- what the presenter draws round a vehicle: its turret blown off, its crew on foot, its wake ---------
FOAM = (0.86, 0.9, 0.88, 0.6)
DUST = (0.72, 0.64, 0.50, 0.45)


def toss(kit, rng) -> LerpFunctionInterval:
    """The turret blown up off its ring, turning, and falling back askew (the wreck's pose)."""
    turret = kit.turret
    z0 = turret.get_z()
    h1, p1, r1 = kit.wreck_pose()
    h0 = turret.get_h()
    spin = rng.uniform(90, 200) * rng.choice((-1, 1))
    lift = 1.2 + 0.8 * kit.deck

    def at(k: float) -> None:
        turret.set_z(z0 + lift * 4 * k * (1 - k))
        e = k * k * (3 - 2 * k)
        turret.set_hpr(h0 + (h1 + spin * (1 - e) - h0) * e, p1 * e + 25 * math.sin(math.pi * k), r1 * e)

    return LerpFunctionInterval(at, 1.1, 0.0, 1.0)


_FIGURES: dict[str, p3d.NodePath] = {}


def figure(side: str) -> p3d.NodePath:
    """A little crewman (1:100, about 0.66" tall), made once per side: legs, body, head and helmet."""
    if side not in _FIGURES:
        import trimesh.creation as tc

        cloth = (0.32, 0.36, 0.2, 1) if side != "insurgent" else (0.42, 0.41, 0.27, 1)
        hat = (0.29, 0.34, 0.19, 1) if side != "insurgent" else (0.44, 0.47, 0.28, 1)
        root = p3d.NodePath(f"crewman-{side}")
        helmet = tc.icosphere(subdivisions=1, radius=0.058)
        helmet.apply_scale((1.05, 1.05, 0.7))
        for mesh, z, rgb in ((tc.box(extents=(0.07, 0.1, 0.3)), 0.15, cloth),
                             (tc.box(extents=(0.1, 0.16, 0.24)), 0.42, cloth),
                             (tc.icosphere(subdivisions=1, radius=0.05), 0.59, (0.72, 0.55, 0.41, 1)),
                             (helmet, 0.625, hat)):
            mesh = mesh.copy()
            mesh.apply_translation((0, 0, z))
            root.attach_new_node(geom.trimesh_node("crewman", mesh, rgb))
        root.flatten_strong()
        _FIGURES[side] = root
    return _FIGURES[side]


def hop(stage: Stage, side: str, start, end, delay: float, life: float = 2.4, prone: bool = True):
    """A crewman jumping from ``start`` down to ``end`` and throwing himself flat (Pinned), fading out
    as the view's stands take over."""
    holder = p3d.NodePath("crewman")
    man = figure(side).copy_to(holder)
    heading = math.degrees(math.atan2(end[1] - start[1], end[0] - start[0]))
    man.set_h(heading)
    t_jump = 0.55

    def at(k: float) -> None:
        t = k * life
        j = min(1.0, t / t_jump)
        holder.set_pos(start[0] + (end[0] - start[0]) * j, start[1] + (end[1] - start[1]) * j,
                       start[2] + (end[2] - start[2]) * j + 0.7 * 4 * j * (1 - j))
        if prone:
            man.set_p(-80.0 * min(1.0, max(0.0, (t - t_jump) / 0.25)))  # face down, along the way he ran

    from game.client.effects import fade  # effects draws on the pieces, which draw on this

    holder.set_pos(*start)
    return fade(holder, stage.root, life, 0.6, animate=at, delay=delay)


def rear_of(kit, out: float = 0.3) -> tuple[float, float]:
    """The point behind the hull (or before a craft's bow ramp) where men get in and out."""
    p = kit.node.get_pos()
    h = math.radians(kit.node.get_h())
    k = (0.5 * kit.length + out) * (1 if kit.ramp is not None else -1)
    return p.x + k * math.cos(h), p.y + k * math.sin(h)


def wake(stage: Stage, kit, a: tuple[float, float], b: tuple[float, float]) -> list:
    """What a vehicle leaves as it moves (timed to ``effects.on_move``'s eased slide): a craft's wake of
    foam from its stern and bow, a track's or wheel's puffs of dust."""
    dist = math.hypot(b[0] - a[0], b[1] - a[1])
    if dist < 0.2:
        return []
    d = min(1.6, 0.3 + dist * 0.06)  # effects.on_move's slide
    ux, uy = (b[0] - a[0]) / dist, (b[1] - a[1]) / dist
    heading = math.degrees(math.atan2(uy, ux))
    n = max(3, min(14, int(dist / 0.7)))
    out = []
    for i in range(n):
        k = i / (n - 1)
        e = k * k * (3 - 2 * k)
        x, y = a[0] + (b[0] - a[0]) * e, a[1] + (b[1] - a[1]) * e
        back = 0.5 * kit.length
        if kit.craft:
            stern = stage.ground(x - ux * back, y - uy * back, 0.04)
            out.append(fx.burst(stage.root, stern, fx.BurstSpec(
                "puff", count=2, life=(1.6, 2.6), speed=(0.3, 0.7), up=(0.0, 0.05), cone=60, heading=heading + 180,
                size=(0.15, 0.8), color=FOAM, drag=1.2, fade_in=0.05), stage.rng, delay=d * k))
            bow = stage.ground(x + ux * back * 0.8, y + uy * back * 0.8, 0.04)
            for side in (90, -90):
                out.append(fx.burst(stage.root, bow, fx.BurstSpec(
                    "puff", count=1, life=(1.0, 1.6), speed=(0.6, 1.0), up=(0.0, 0.05), cone=30,
                    heading=heading + 180 - side * 0.7, size=(0.1, 0.5), color=FOAM, drag=1.0, fade_in=0.05),
                    stage.rng, delay=d * k))
        elif i % 2 == 0:
            rear = stage.ground(x - ux * back, y - uy * back, 0.05)
            out.append(fx.burst(stage.root, rear, fx.BurstSpec(
                "puff", count=2, life=(1.0, 1.8), speed=(0.2, 0.6), up=(0.2, 0.6), size=(0.2, 0.8),
                offset=0.4 * kit.width, color=DUST, drag=1.5, rise=0.2), stage.rng, delay=d * k))
    return out


def burn_wreck_marker(node: p3d.NodePath) -> None:
    """A wreck marker drawn by a vehicle's model: burnt like a wreck on its stand (its soft shadow
    blended, as on a stand)."""
    from game.client.pieces import stand_bin

    scorch(node)
    node.set_color_scale(*WRECK_TINT)
    node.set_transparency(p3d.TransparencyAttrib.M_alpha, 1)
    node.set_bin(stand_bin(), 0)


_SCORCHED_DATA: dict[int, tuple[p3d.GeomVertexData, p3d.GeomVertexData]] = {}


def scorch(node: p3d.NodePath) -> None:
    """Burn the paint of the model under ``node``: each vertex's colour turns to ``SCORCHED`` at the
    paint's own lightness (a dark track stays darker than the hull, so the shape still reads), with
    ``SCORCH_KEEP`` of the paint left; the soft shadow is left as it is. The burnt vertex data is made
    once per model part and shared by its wrecks; the model's own data (its live vehicles') is untouched."""
    import numpy as np

    for gn in node.find_all_matches("**/+GeomNode"):
        if "shadow" in gn.get_name():
            continue
        g = gn.node()
        for i in range(g.get_num_geoms()):
            data = g.get_geom(i).get_vertex_data()
            burnt = _SCORCHED_DATA.get(id(data))
            if burnt is None or burnt[0] is not data:
                column = data.get_format().get_column(p3d.InternalName.get_color())
                if column is None:
                    continue
                copy = p3d.GeomVertexData(data)
                array = copy.modify_array(data.get_format().get_array_with(p3d.InternalName.get_color()))
                stride = array.get_array_format().get_stride()
                raw = np.frombuffer(memoryview(array).cast("B"), np.uint8).reshape(-1, stride)
                at = column.get_start()
                rgb = raw[:, at:at + 3].astype(np.float32) / 255.0
                lum = rgb @ np.array([0.3, 0.59, 0.11], np.float32)
                out = np.outer(0.3 + 1.2 * lum, SCORCHED) * (1.0 - SCORCH_KEEP) + rgb * SCORCH_KEEP
                view = np.asarray(memoryview(array).cast("B")).reshape(-1, stride)
                view[:, at:at + 3] = np.clip(out * 255.0, 0, 255).astype(np.uint8)
                burnt = _SCORCHED_DATA[id(data)] = (data, copy)
            g.modify_geom(i).set_vertex_data(burnt[1])
