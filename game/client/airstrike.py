"""Fire support from the air and the shells that light or screen (DD chapter 8), as the engine gives them.

Handlers, from the events of ``game/rules/fire_support`` (``air``, ``gunship``, ``missions``, ``spoof``):

* ``air_pass`` (kind ``strike``, ``run``, ``escort``): the aircraft (``aircraft``, a model key) comes in
  from beyond the table edge at ``entry``, along ``heading``, at the engine's ``altitude`` profile
  [[inches from the entry, height], ...] above the target's ground; it rolls out of its turn-in, flies
  wings level through the ``release`` points and breaks off banked after the last, out past the far edge.
  With the FAC overhead (``mark``) an O-1 Bird Dog circles first and puts a white-phosphorus rocket on the
  mark. Napalm canisters tumble from each release point onto the engine's ``impacts``, each landing its
  ``t`` seconds after the first (the stick's spacing is the engine's), and the fire rolls along the
  ``footprint`` in orange flame and black smoke; bombs fall onto theirs and burst; rockets streak
  down; a gunship walks rockets and minigun tracer down its ``corridor``; the AC-47 flies a pylon turn
  round the beaten zone pouring tracer into the ``impacts``; an escort strafes the ``impacts``.
* ``gunship`` (``on_station``: it flies in to circle the point; ``leaves``: it flies off).
* ``illumination`` {x, y, radius}: a star shell's flare swings down under its parachute, lighting a pool
  of the table (and at night lifting the whole table's ambient light) while it burns.
* ``smoke``: ``wp`` (a white-phosphorus screen building over the template), ``marking`` (a plume of
  coloured smoke; the colour is the caller's secret, G-18: others see white), ``spoof`` (the VC's, of the
  same colour), ``burning`` (napalm fire along its ``circles``).

What stays between batches (:class:`Standing`, synced after each view like the landed Hueys): marking and
spoof plumes (the view's ``smoke`` markers), gunships circling their station (``gunship`` markers),
flares over the lit circles (``illumination`` markers), the WP cloud and the napalm fires while their
clocks run (the view's ``wp_smoke`` and ``burning`` clocks). The craters and burnt ground are the table's
(``changes``).

Nothing here decides anything: every point, heading, height and time is the engine's; the scatter of
flames and the tumble of a canister are cosmetic (seeded by the event's ``seq``).
"""

from __future__ import annotations

import math
import random
from functools import cache

import numpy as np
import panda3d.core as p3d
from direct.interval.IntervalGlobal import Func, LerpFunctionInterval, Parallel, Sequence, Wait

from game.client import flight, fx, geom
from game.client.presenter import Beat, Stage, handles
from game.client.setpieces import BLACK_SMOKE, SMOKE_RGB, blast

FIRE = (1.0, 0.55, 0.15, 0.95)
FIRE_CORE = (1.0, 0.85, 0.45, 1.0)
FIRE_BODY = (1.0, 0.48, 0.1, 0.92)  # flame drawn as a lit-from-within cloud: orange that stays orange
FIRE_GLOW = (1.0, 0.7, 0.3, 0.45)  # the additive heat over it (more would burn out to white)
WP_WHITE = (0.97, 0.97, 0.95, 0.9)
UNKNOWN_SMOKE = (0.86, 0.86, 0.84)  # a marking plume whose colour this screen's side is not told (G-18)
SPEED = {"f4_phantom": 26.0, "a1_skyraider": 17.0, "ah1_cobra": 11.0, "uh1c_gunship": 9.5, "ac47": 12.0,
         "o1_bird_dog": 7.0}
SOUND = {"f4_phantom": "jet", "a1_skyraider": "prop", "ah1_cobra": "rotor", "uh1c_gunship": "rotor",
         "o1_bird_dog": "prop", "ac47": "prop"}
HELICOPTERS = ("ah1_cobra", "uh1c_gunship", "uh1_dustoff")
STATION = 9.0  # inches over the ground a gunship circles its station at
MIN_FALL = 0.6  # a canister or bomb falls in at least this share of a free fall's time (drops)
LIGHT_POOL = {"day": 0.18, "dawn": 0.45, "dusk": 0.45, "night_moonlit": 0.85, "night_dark": 1.0}


def _xy(v) -> tuple[float, float]:
    if isinstance(v, dict):
        return float(v["x"]), float(v["y"])
    return float(v[0]), float(v[1])


def smoke_light(stage_or_scene) -> float:
    """How bright unlit smoke sprites are drawn at this time of day (a plume glows red in the dark else)."""
    scene = getattr(stage_or_scene, "scene", stage_or_scene)
    tod = str((scene.scenario or {}).get("time_of_day", "day"))
    return {"dawn": 0.8, "dusk": 0.75, "night_moonlit": 0.45, "night_dark": 0.35}.get(tod, 1.0)


def _night(stage_or_scene) -> float:
    scene = getattr(stage_or_scene, "scene", stage_or_scene)
    tod = str((scene.scenario or {}).get("time_of_day", "day"))
    return LIGHT_POOL.get(tod, 0.18)


# -- ordnance models (procedural: a few hundred triangles each) ---------------------------------------------
@cache
def _ordnance_geom(kind: str) -> p3d.GeomNode:
    import trimesh
    import trimesh.creation as tc

    if kind == "napalm":  # an unfinned BLU-1 canister: a long silver teardrop, 1:100 made visible (x3)
        body = tc.capsule(height=0.9, radius=0.14, count=(8, 8))
        body.apply_transform(trimesh.transformations.rotation_matrix(math.pi / 2, (0, 1, 0)))
        return geom.trimesh_node("napalm_can", body, (0.78, 0.78, 0.74, 1.0))
    if kind == "rocket":
        body = tc.cylinder(radius=0.04, height=0.6, sections=6)
        body.apply_transform(trimesh.transformations.rotation_matrix(math.pi / 2, (0, 1, 0)))
        return geom.trimesh_node("rocket", body, (0.85, 0.85, 0.8, 1.0))
    # a Mk 82: olive drab, fat, finned (x2.5 so it reads as it falls)
    body = tc.capsule(height=0.55, radius=0.13, count=(8, 8))
    body.apply_transform(trimesh.transformations.rotation_matrix(math.pi / 2, (0, 1, 0)))
    fins = []
    for a in (0, 90):
        f = tc.box(extents=(0.22, 0.02, 0.38))
        f.apply_transform(trimesh.transformations.rotation_matrix(math.radians(a), (1, 0, 0)))
        f.apply_translation((-0.38, 0, 0))
        fins.append(f)
    mesh = trimesh.util.concatenate([body, *fins])
    return geom.trimesh_node("mk82", mesh, (0.32, 0.34, 0.22, 1.0))


def ordnance(stage: Stage, kind: str) -> p3d.NodePath:
    node = stage.root.attach_new_node(_ordnance_geom(kind).make_copy())
    node.set_tag("setpiece", f"ordnance:{kind}")
    return node


# -- the FAC -----------------------------------------------------------------------------------------------
def fac_mark(stage: Stage, mark: tuple[float, float], delay: float = 0.0) -> tuple[Sequence, float, p3d.NodePath]:
    """The FAC's O-1 circles the target at 9" and fires a white-phosphorus rocket onto ``mark``; returns
    the sequence, when the smoke is up, and the Bird Dog."""
    g = stage.ground(*mark)
    path = flight.orbit(mark, 10.0, g[2] + 9.0, period=9.0, turns=0.8, start=200.0)
    plane = stage.model("o1_bird_dog")
    loop: list = []
    t_fire = path.duration * 0.5
    muzzle = tuple(path.at(t_fire))
    parts = [stage.cue("prop", plane, loop=True, keep=loop, gain=0.6), fx.fly(plane, path, delay),
             Sequence(Wait(delay + t_fire), stage.cue("rpg", muzzle, gain=0.6)),
             Sequence(Wait(delay + t_fire), fx.streak(stage.root, muzzle, g, (1, 1, 0.9, 1), 0.7, 3.0, 26.0)),
             _rocket_trail(stage, muzzle, g, delay + t_fire, 26.0),
             wp_burst(stage, g, 0.9, delay + t_fire + math.dist(muzzle, g) / 26.0, linger=10.0)]
    stage.focus(delay, 9, "fac", stage.ground(mark[0], mark[1], 3.0), hold=t_fire + 2.0, distance=38.0, pitch=38.0)
    up = delay + t_fire + math.dist(muzzle, g) / 26.0 + 0.6
    return Sequence(Parallel(*parts), stage.stop(loop)), up, plane


def _rocket_trail(stage: Stage, a, b, delay: float, speed: float) -> Sequence:
    """A thin white smoke trail left along a rocket's flight (puffs dropped where the motor was)."""
    a, b = np.array(a, dtype=float), np.array(b, dtype=float)
    dist = float(np.linalg.norm(b - a)) or 1e-6
    n = max(3, int(dist / 1.2))
    spec = fx.BurstSpec("puff", count=1, life=(1.2, 2.0), speed=(0.05, 0.2), size=(0.12, 0.45),
                        color=(0.9, 0.9, 0.88, 0.5), rise=0.15, fade_in=0.05)
    return Parallel(*[fx.burst(stage.root, tuple(a + (b - a) * k / n), spec, stage.rng, delay=delay + dist * k / n / speed)
                      for k in range(n)])


# -- the pass ------------------------------------------------------------------------------------------------
def pass_path(stage: Stage, ev: dict, turn: float | None = None, bank: float | None = None) -> flight.Path:
    aircraft = str(ev.get("aircraft", "f4_phantom"))
    heli = aircraft in HELICOPTERS
    tx, ty = float(ev.get("x", 0.0)), float(ev.get("y", 0.0))
    ground = float(stage.height_at(tx, ty))
    releases = [_xy(r) for r in ev.get("release") or []]
    if turn is None:
        turn = (18.0 if heli else 38.0) * (1 if stage.rng.random() < 0.5 else -1)
    return flight.pass_path(_xy(ev["entry"]), _xy(ev["exit"]), ev.get("altitude") or [], ground,
                            SPEED.get(aircraft, 20.0), stage.width, stage.height, releases, turn=turn,
                            bank=bank if bank is not None else (22.0 if heli else 58.0),
                            roll_in=8.0 if heli else 28.0)


def _fly(stage: Stage, ev: dict, path: flight.Path, delay: float) -> tuple[p3d.NodePath, list]:
    aircraft = str(ev.get("aircraft", "f4_phantom"))
    plane = stage.model(aircraft)
    loop: list = []
    parts = [Sequence(Wait(delay), stage.cue(SOUND.get(aircraft, "jet"), plane, loop=True, keep=loop)),
             fx.fly(plane, path, delay, rotor_rpm=(lambda t: 324.0) if aircraft in HELICOPTERS else (lambda t: 2400.0)),
             Sequence(Wait(delay + path.duration), stage.stop(loop))]
    return plane, parts


def drops(stage: Stage, path: flight.Path, ev: dict, delay: float, kind: str) -> tuple[list, list]:
    """Canisters or bombs, each falling onto the impact the engine pairs with its release point, on the
    engine's clock: the first lands as it falls from the aircraft at the first release point, and each
    other ``t`` seconds after it (the impact's own ``t``, the stick's spacing in time). Each is let go as
    the aircraft passes its release point and falls slower or faster to keep that time (a high-drag
    fall; never under ``MIN_FALL`` of a free fall's time: the aircraft then lets it go later, where it
    is). Returns intervals and the (x, y, time) where each lands."""
    releases = [_xy(r) for r in ev.get("release") or []]
    raw = list(ev.get("impacts") or [])
    impacts = [_xy(p) for p in raw] or releases
    offsets = [float(p.get("t", 0.0)) if isinstance(p, dict) else 0.0 for p in raw] or [0.0] * len(releases)
    out, landings = [], []
    first = None
    for k, (rx, ry) in enumerate(releases):
        j = min(k, len(impacts) - 1)
        tx, ty = impacts[j]
        g = float(stage.height_at(tx, ty)) + 0.1
        t_rel = path.time_nearest(rx, ry)
        free = flight.fall_to(tuple(path.at(t_rel)), (tx, ty), g).duration  # no drag
        if first is None:
            first = t_rel + free - offsets[j]  # the stick's clock: when an impact with t = 0 lands
        land = first + offsets[j]
        if land - t_rel < MIN_FALL * free:  # the aircraft is late for it: it lets go where it is then
            for _ in range(3):
                t_rel = land - MIN_FALL * flight.fall_to(tuple(path.at(t_rel)), (tx, ty), g).duration
        p0 = tuple(path.at(t_rel))
        fall = max(1e-3, land - t_rel)
        drop = flight.fall_to(p0, (tx, ty), g, gravity=2.0 * max(0.01, p0[2] - g) / fall ** 2)
        model = ordnance(stage, kind)
        tumble = stage.rng.uniform(-1, 1)

        def spin(tt: float, node=model, drop=drop, tumble=tumble, kind=kind) -> None:
            pos = drop.at(tt)
            node.set_pos(*pos)
            h = float(np.interp(tt, drop.t, drop.hpr[:, 0]))
            pitch = float(np.interp(tt, drop.t, drop.hpr[:, 1]))
            if kind == "napalm":  # unfinned: it tumbles
                fx.aim(node, h + 40 * tumble * tt, pitch * 0.4 - 220 * tt, 160 * tumble * tt)
            else:
                fx.aim(node, h, pitch, 0.0)

        model.hide()
        out.append(Sequence(Wait(delay + land - drop.duration), Func(model.show),
                            LerpFunctionInterval(spin, drop.duration, 0.0, drop.duration), Func(model.hide)))
        landings.append((tx, ty, delay + land))
    return out, landings


def napalm(stage: Stage, footprint: list, heading: float, landings: list) -> list:
    """Each canister bursts in a rolling fireball where it lands, splashing on along the heading; the fire
    spreads over the footprint, boiling orange under a column of black smoke, and lights the ground."""
    out = []
    start = min(lt for *_, lt in landings)
    end = max(lt for *_, lt in landings)
    for x, y, lt in landings:
        g = stage.ground(x, y, 0.15)
        out.append(fx.flash(stage.root, (g[0], g[1], g[2] + 1.0), 3.6, (1, 0.62, 0.25, 1), delay=lt, life=0.4))
        out.append(fx.burst(stage.root, g, fx.BurstSpec(  # the fireball, rolling forward and up
            "puff", count=12, life=(0.9, 1.6), speed=(3.0, 6.5), up=(0.1, 0.55), cone=80, heading=heading,
            size=(0.7, 2.4), color=FIRE_BODY, drag=2.0, rise=1.8, fade_in=0.05, fade_out=0.7), stage.rng, delay=lt))
        out.append(fx.burst(stage.root, g, fx.BurstSpec(
            "flash", count=6, life=(0.4, 0.9), speed=(1.0, 3.0), up=(0.3, 0.9), cone=90, heading=heading,
            size=(0.8, 1.8), color=FIRE_GLOW, drag=2.0, rise=2.0, additive=True), stage.rng, delay=lt))
        out.append(fx.burst(stage.root, g, fx.BurstSpec(  # the first oily smoke off the fireball
            "puff", count=6, life=(2.5, 3.5), speed=(1.0, 2.5), up=(0.5, 1.0), cone=100, heading=heading,
            size=(0.8, 2.6), color=BLACK_SMOKE, drag=1.5, rise=2.4, wind=(0.3, 0.1, 0)), stage.rng, delay=lt + 0.3))
        out.append(Sequence(Wait(lt), stage.cue("explosion", g, gain=0.8)))
    burn = 5.0
    from game.client.changes import _heights

    pts = flight.footprint_points(footprint, heading, spacing=0.75)
    zs = _heights(stage.height_at, np.array([p[0] for p in pts]), np.array([p[1] for p in pts])) if pts else []
    for (x, y, share), z in zip(pts, zs, strict=True):
        t = start + share * (end - start + 0.35)
        g = (x, y, float(z) + 0.05)
        out.append(fx.burst(stage.root, g, fx.BurstSpec(  # tongues of flame
            "puff", count=8, spawn=burn, life=(0.5, 1.0), speed=(0.1, 0.4), up=(0.85, 1.0), size=(0.4, 1.2),
            offset=0.4, color=FIRE_BODY, rise=2.0, fade_in=0.12, fade_out=0.7), stage.rng, delay=t))
        out.append(fx.burst(stage.root, g, fx.BurstSpec(  # their hot glow
            "flash", count=3, spawn=burn, life=(0.4, 0.8), speed=(0.1, 0.3), up=(0.9, 1.0), size=(0.5, 1.0),
            offset=0.3, color=FIRE_GLOW, rise=1.4, fade_in=0.1, additive=True), stage.rng, delay=t))
        out.append(fx.burst(stage.root, g, fx.BurstSpec(
            "puff", count=4, spawn=burn, life=(3.5, 5.0), speed=(0.2, 0.5), up=(0.8, 1.0), size=(0.7, 2.8),
            color=BLACK_SMOKE, rise=2.6, wind=(0.4, 0.14, 0), fade_in=0.12), stage.rng, delay=t + 0.5))
    if landings:
        c = np.mean(np.array(footprint, dtype=float), axis=0)
        span = max(math.dist(footprint[0], p) for p in footprint) if footprint else 3.0
        glow = light_pool(stage.root, float(c[0]), float(c[1]), max(2.5, span * 0.75), stage.height_at)
        glow.hide()

        def flicker(k: float) -> None:
            on = min(1.0, k * 8) * (1 - max(0.0, (k - 0.7) / 0.3))
            glow.set_color_scale(1.0, 0.55, 0.2, (0.55 + 0.1 * math.sin(k * 90)) * on)

        out.append(Sequence(Wait(start), Func(glow.show), LerpFunctionInterval(flicker, burn + 1.0, 0.0, 1.0),
                            Func(glow.hide)))
        out.append(Sequence(Wait(start), stage.shake(0.55, stage.ground(*c))))
    return out


def rockets(stage: Stage, path: flight.Path, delay: float, targets: list, first: float, last: float,
            salvo: int = 2) -> list:
    """Pairs of rockets fired from the aircraft between ``first`` and ``last`` seconds of its path, each
    streaking on its smoke trail into one of ``targets`` and bursting."""
    out = []
    n = len(targets)
    for k, (tx, ty) in enumerate(targets):
        t = first + (last - first) * (k / max(1, n - 1)) if n > 1 else first
        src = tuple(path.at(t))
        g = stage.ground(tx, ty, 0.05)
        speed = 55.0
        fly = math.dist(src, g) / speed
        out.append(Sequence(Wait(delay + t), stage.cue("rpg", src, gain=0.5)))
        out.append(fx.flash(stage.root, src, 0.7, (1, 0.8, 0.5, 1), delay=delay + t, life=0.12))
        out.append(fx.streak(stage.root, src, g, (1.0, 0.75, 0.4, 1), 0.8, 3.0, speed, delay=delay + t))
        out.append(_rocket_trail(stage, src, g, delay + t, speed))
        out.append(blast(stage, tx, ty, "mortar_60", delay=delay + t + fly, crater=False, shriek=False))
    return out


def minigun(stage: Stage, path: flight.Path, delay: float, targets: list, first: float, last: float,
            color=(1.0, 0.45, 0.2, 1), every: float = 0.06, tracer_every: int = 2, length: float = 1.8) -> list:
    """A stream of tracer from the aircraft into ``targets`` (walked along them in order), with the dust
    it kicks up and the buzz of the guns."""
    out = []
    if not targets or last <= first:
        return out
    from game.client.changes import _heights

    ts = np.arange(first, last, every)
    aim = [targets[min(len(targets) - 1, int(i / len(ts) * len(targets)))] for i in range(len(ts))]
    ex = np.array([tx + stage.rng.uniform(-0.6, 0.6) for tx, _ in aim])
    ey = np.array([ty + stage.rng.uniform(-0.6, 0.6) for _, ty in aim])
    ez = _heights(stage.height_at, ex, ey) + 0.02  # one look-up for the whole stream
    for i, t in enumerate(ts):
        src = tuple(path.at(float(t)))
        e = (float(ex[i]), float(ey[i]), float(ez[i]))
        if i % tracer_every == 0:
            out.append(fx.streak(stage.root, src, e, color, length, 3.2, 70.0, delay=delay + float(t)))
        if i % 4 == 0:
            out.append(fx.flash(stage.root, src, 0.6, (1, 0.8, 0.5, 1), delay=delay + float(t), life=0.08))
        if i % 3 == 0:
            out.append(fx.burst(stage.root, e, fx.BurstSpec("puff", count=2, life=(0.4, 0.8), speed=(0.6, 1.6),
                                                            up=(0.6, 1.0), size=(0.08, 0.3), color=(0.5, 0.42, 0.3, 0.8),
                                                            drag=3.0, gravity=4.0), stage.rng,
                                delay=delay + float(t) + math.dist(src, e) / 80.0))
    for t in np.arange(first, last, 0.9):
        out.append(Sequence(Wait(delay + float(t)), stage.cue("m60", tuple(path.at(float(t))), gain=0.7)))
    return out


def strike(stage: Stage, ev: dict) -> tuple[Parallel, float, float]:
    """A fast mover's pass: returns the interval, when its ordnance first lands, and when it is all over."""
    ordnance_kind = str(ev.get("ordnance", "bombs"))
    parts = []
    t = 0.0
    if ev.get("mark") is not None:
        fac, t, _ = fac_mark(stage, _xy(ev["mark"]))
        parts.append(fac)
    path = pass_path(stage, ev)
    plane, flying = _fly(stage, ev, path, t)
    parts += flying
    releases = [_xy(r) for r in ev.get("release") or []]
    t_rel = [path.time_nearest(*r) for r in releases] or [path.duration / 2]
    heading = float(ev.get("heading", 0.0))
    x, y = float(ev.get("x", 0.0)), float(ev.get("y", 0.0))
    # the hero shot: from beyond the target, looking back down the run at the aircraft coming in
    over = [i for i, (px, py, _) in enumerate(path.xyz) if not flight.off_table(px, py, stage.width, stage.height, 0.0)]
    inbound = float(path.t[over[0]]) if over else 0.0
    stage.focus(t + max(0.0, inbound - 1.2), 9, "airstrike", stage.ground(x, y, 1.0),
                hold=max(2.5, min(t_rel) - inbound + 1.5), distance=40.0, heading=heading + 90.0, pitch=24.0)
    fp = [_xy(p) for p in ev.get("footprint") or []]
    end = t + path.duration
    first = t + min(t_rel)
    if ordnance_kind in ("napalm", "bombs"):
        falling, landings = drops(stage, path, ev, t, "napalm" if ordnance_kind == "napalm" else "bomb")
        parts += falling
        if landings:
            first = min(lt for *_, lt in landings)
            if ordnance_kind == "napalm" and fp:
                parts += napalm(stage, fp, heading, landings)
            else:
                for bx, by, lt in landings:
                    parts.append(blast(stage, bx, by, "bomb", delay=lt, crater=False, shriek=False))
            end = max(end, max(lt for *_, lt in landings) + 4.5)
    elif ordnance_kind == "rockets":
        targets = [_xy(p) for p in ev.get("impacts") or []] or releases
        lo, hi = min(t_rel) - 0.5, max(t_rel) - 0.2
        parts += rockets(stage, path, t, targets, max(0.1, lo), max(0.2, hi))
        first = t + max(0.1, lo) + 0.3
        end = max(end, first + 4.0)
    stage.focus(first - 0.2, 9, "impact", stage.ground(x, y), hold=6.5, distance=30.0,
                heading=across(stage, x, y, heading, 30.0, 40.0), pitch=40.0)
    return Parallel(*parts), first, end


def across(stage: Stage, x: float, y: float, run: float, distance: float, pitch: float) -> float:
    """The camera heading that looks across a run on ``run`` degrees at (x, y), from whichever side keeps
    the camera nearer the middle of the table."""
    back = distance * math.cos(math.radians(pitch))
    best = None
    for h in (run, run + 180.0):
        cx, cy = x + math.sin(math.radians(h)) * back, y - math.cos(math.radians(h)) * back
        d = math.hypot(cx - stage.width / 2, cy - stage.height / 2)
        if best is None or d < best[0]:
            best = (d, h % 360.0)
    return best[1]


def gun_run(stage: Stage, ev: dict) -> tuple[Parallel, float, float]:
    """A gunship's strafing run (G-27) or an escort's volley (DD-6.11): rockets into the first part of the
    corridor, then the minigun walked down it (an escort: guns onto its impacts)."""
    path = pass_path(stage, ev)
    plane, parts = _fly(stage, ev, path, 0.0)
    parts.insert(0, Func(stage.presenter.support.hide_kind, "gunship"))
    corridor = ev.get("corridor")
    impacts = [_xy(p) for p in ev.get("impacts") or []]
    if corridor:
        a, b = _xy(corridor["from"]), _xy(corridor["to"])
        w = float(corridor.get("width", 2.0))
        along = flight.corridor_points(a, b, w, 12, seed=int(stage.rng.random() * 1e6))
        line = [(x, y) for x, y, _ in along]
        aim = a
    else:
        line = impacts or [(float(ev["x"]), float(ev["y"]))]
        aim = line[0]
    t_aim = path.time_nearest(*aim)
    open_fire = max(0.2, t_aim - 1.8)
    cease = max(open_fire + 0.8, t_aim + 0.4)
    if corridor and str(ev.get("kind")) == "run":
        half = max(1, len(line) // 3)
        parts += rockets(stage, path, 0.0, line[:half], open_fire, open_fire + 0.6)
        parts += minigun(stage, path, 0.0, line[half:], open_fire + 0.5, cease)
    else:
        parts += minigun(stage, path, 0.0, line, open_fire, cease)
    stage.focus(0.0, 9, "gunship", node=plane, hold=max(2.0, open_fire), distance=36.0)
    x, y = float(ev.get("x", aim[0])), float(ev.get("y", aim[1]))
    stage.focus(open_fire, 9, "impact", stage.ground(x, y), hold=4.0, distance=30.0)
    return Parallel(*parts), open_fire + 0.4, max(path.duration, cease + 2.5)


def spooky(stage: Stage, ev: dict) -> tuple[Parallel, float, float]:
    """The AC-47 (G-19): a pylon turn round the beaten zone, its side guns pouring a stream of tracer into
    the engine's impacts (at their ``t``) while it circles."""
    x, y = float(ev["x"]), float(ev["y"])
    prof = ev.get("altitude") or [[0, 30.0]]
    z = float(stage.height_at(x, y)) + float(np.median([p[1] for p in prof]))
    path, t0, t1 = flight.circuit((x, y), _xy(ev["entry"]), _xy(ev["exit"]), 16.0, z, SPEED["ac47"])
    plane, parts = _fly(stage, ev, path, 0.0)
    impacts = ev.get("impacts") or [{"x": x, "y": y, "t": 0.0}]
    span = max(0.5, t1 - t0 - 1.0)
    fire_at = t0 + 0.5
    targets = [(float(p["x"]), float(p["y"])) for p in sorted(impacts, key=lambda p: p.get("t", 0.0))]
    # "Puff the Magic Dragon": the miniguns' tracer reads as one unbroken stream from the sky
    parts += minigun(stage, path, 0.0, targets, fire_at, fire_at + span, color=(1.0, 0.35, 0.15, 1), every=0.035,
                     tracer_every=1, length=3.2)
    stage.focus(0.0, 9, "spooky", node=plane, hold=t0 + 1.0, distance=60.0)
    stage.focus(fire_at, 9, "impact", stage.ground(x, y), hold=span, distance=40.0)
    return Parallel(*parts), fire_at + 0.5, max(path.duration, fire_at + span + 2.0)


@handles("air_pass")
def on_air_pass(stage: Stage, ev: dict) -> Beat | None:
    if not ev.get("entry") or not ev.get("exit"):
        return None
    kind = str(ev.get("kind", "strike"))
    if str(ev.get("aircraft")) == "ac47" or (ev.get("shape") == "circle" and ev.get("ordnance") == "guns"
                                              and kind == "strike"):
        seq, first, end = spooky(stage, ev)
    elif kind in ("run", "escort"):
        seq, first, end = gun_run(stage, ev)
    else:
        seq, first, end = strike(stage, ev)
    stage.notes["landed"] = max(stage.notes.get("landed", 0.0), stage.now + first)
    return Beat(seq, first + 0.5)


# -- gunships on station --------------------------------------------------------------------------------------
def station_path(x: float, y: float, ground: float, radius: float = 11.0, period: float = 14.0) -> flight.Path:
    return flight.orbit((x, y), radius, ground + STATION, period=period, turns=1.0, start=0.0)


@handles("gunship")
def on_gunship(stage: Stage, ev: dict) -> Beat | None:
    if "x" not in ev or "y" not in ev:
        return None
    x, y = float(ev["x"]), float(ev["y"])
    ground = float(stage.height_at(x, y))
    key = str(ev.get("aircraft") or "ah1_cobra")
    sx, sy = flight.entry_point(x, y, stage.width, stage.height, out=14.0)
    r = 11.0
    if ev.get("phase") == "on_station":
        a = math.atan2(sy - y, sx - x)
        join = (x + r * math.cos(a), y + r * math.sin(a))
        h = math.degrees(math.atan2(join[1] - sy, join[0] - sx))
        d = math.hypot(join[0] - sx, join[1] - sy)
        keys = [(0.0, sx, sy, ground + STATION + 3, h, -6, 0), (d / SPEED.get(key, 10.0), *join, ground + STATION,
                                                                 math.degrees(a) + 90, 0, -18)]
    elif ev.get("phase") == "leaves":
        a = math.atan2(sy - y, sx - x)
        start = (x + r * math.cos(a), y + r * math.sin(a))
        d = math.hypot(sx - start[0], sy - start[1])
        h = math.degrees(math.atan2(sy - start[1], sx - start[0]))
        keys = [(0.0, *start, ground + STATION, h, -4, 0), (d / SPEED.get(key, 10.0), sx, sy, ground + STATION + 4, h,
                                                           -8, 0)]
    else:
        return None
    path = flight.hermite(keys, stop_at_end=False)
    model = stage.model(key)
    loop: list = []
    parts = [Func(stage.presenter.support.hide_kind, "gunship"),
             stage.cue("rotor", model, loop=True, keep=loop), fx.fly(model, path), stage.stop(loop)]
    stage.focus(0.0, 8, "gunship", node=model, hold=path.duration, distance=36.0)
    return Beat(Sequence(Parallel(*parts[:3]), parts[3]), min(2.0, path.duration))


# -- illumination ----------------------------------------------------------------------------------------------
@cache
def _pool_texture() -> p3d.Texture:
    from game.client.fx import _radial, _texture

    r = _radial(128)
    a = np.clip(1 - r, 0, 1) ** 1.6
    rgba = np.stack([np.ones_like(a), np.full_like(a, 0.96), np.full_like(a, 0.85), a], axis=-1)
    return _texture("light_pool", (rgba * 255).astype(np.uint8))


def light_pool(parent: p3d.NodePath, x: float, y: float, radius: float, height_at) -> p3d.NodePath:
    """A pool of flare light on the table: an additive disc draped on the ground (radius ``radius``)."""
    from game.client.changes import _heights

    n = 14
    xs = np.linspace(-radius, radius, n)
    gx, gy = np.meshgrid(x + xs, y + xs)
    gz = _heights(height_at, gx.ravel(), gy.ravel()).reshape(n, n)
    fmt = p3d.GeomVertexFormat.get_v3t2()
    vdata = p3d.GeomVertexData("pool", fmt, p3d.Geom.UH_static)
    vw = p3d.GeomVertexWriter(vdata, "vertex")
    tw = p3d.GeomVertexWriter(vdata, "texcoord")
    for j in range(n):
        for i in range(n):
            vw.add_data3(float(gx[j, i]), float(gy[j, i]), float(gz[j, i]) + 0.06)
            tw.add_data2(i / (n - 1), j / (n - 1))
    tris = p3d.GeomTriangles(p3d.Geom.UH_static)
    for j in range(n - 1):
        for i in range(n - 1):
            a = j * n + i
            tris.add_vertices(a, a + 1, a + n + 1)
            tris.add_vertices(a, a + n + 1, a + n)
    g = p3d.Geom(vdata)
    g.add_primitive(tris)
    node = p3d.GeomNode("light-pool")
    node.add_geom(g)
    np_ = fx.sprite_layer(parent.attach_new_node(node), additive=True)
    np_.set_bin("fixed", 12)
    np_.set_texture(_pool_texture())
    return np_


class AmbientLift:
    """Lifts the table's ambient light (``u_sky``/``u_ground`` on the scene root) while flares burn: each
    flare adds its share, the most any gets is capped, and the base comes back when they are out."""

    def __init__(self, scene):
        self.scene = scene
        self.shares: dict[int, float] = {}
        self.base = None

    def set(self, key: int, amount: float) -> None:
        root = self.scene.root
        if root.is_empty():
            return
        if self.base is None:
            sky, ground = root.get_shader_input("u_sky"), root.get_shader_input("u_ground")
            self.base = (p3d.LVector3(*sky.get_vector().get_xyz()), p3d.LVector3(*ground.get_vector().get_xyz()))
        if amount <= 0:
            self.shares.pop(key, None)
        else:
            self.shares[key] = amount
        lift = min(1.0, sum(self.shares.values()))
        sky, ground = self.base
        root.set_shader_input("u_sky", sky + p3d.LVector3(0.5, 0.5, 0.45) * lift)
        root.set_shader_input("u_ground", ground + p3d.LVector3(0.28, 0.27, 0.24) * lift)

    def clear(self) -> None:
        self.shares.clear()
        if self.base is not None and not self.scene.root.is_empty():
            self.scene.root.set_shader_input("u_sky", self.base[0])
            self.scene.root.set_shader_input("u_ground", self.base[1])


def _chute(parent: p3d.NodePath) -> p3d.NodePath:
    """A small white parachute canopy with its shroud lines over a hanging flare."""
    import trimesh.creation as tc

    dome = tc.icosphere(subdivisions=1, radius=0.45)
    dome.vertices[:, 2] = np.maximum(dome.vertices[:, 2], 0.0) * 0.6
    node = parent.attach_new_node(geom.trimesh_node("chute", dome, (0.92, 0.92, 0.88, 1)))
    node.set_z(1.1)
    lines = geom.lines("shrouds", [[(0, 0, 0), (0.42 * math.cos(a), 0.42 * math.sin(a), 1.1)]
                                   for a in np.linspace(0, 2 * math.pi, 6, endpoint=False)], (0.8, 0.8, 0.75, 0.9), 1.0)
    lines.reparent_to(parent)
    return node


def flare(stage: Stage, x: float, y: float, radius: float, seconds: float = 12.0, delay: float = 0.0,
          top: float = 20.0, low: float = 6.0) -> Sequence:
    """A star shell: it pops high over (x, y), the flare swings down under its parachute, a pool of white
    light follows it over the lit circle, the table's ambient light rises with it (at night), and it
    gutters out near the ground. ``top`` and ``low``: its height above the ground at the pop and at the end
    (a trip flare is a small rocket on a stake: lower and shorter)."""
    ground = float(stage.height_at(x, y))
    top = ground + top
    low = ground + low
    holder = stage.root.attach_new_node("flare")
    _chute(holder)
    glow = fx.sprite_layer(holder.attach_new_node(fx._card_geom().make_copy()), additive=True)
    glow.set_texture(fx.texture("flash"))
    glow.set_billboard_point_eye()
    halo = fx.sprite_layer(holder.attach_new_node(fx._card_geom().make_copy()), additive=True)
    halo.set_texture(fx.texture("spark"))
    halo.set_billboard_point_eye()
    pool = light_pool(stage.root, x, y, radius * 1.6, stage.height_at)
    night = _night(stage)
    lift = stage.presenter.support.ambient
    key = id(holder)
    holder.hide()
    pool.hide()
    rng = stage.rng
    phase = rng.uniform(0, 6.3)
    drift = (rng.uniform(-1, 1), rng.uniform(-1, 1))

    def at(k: float) -> None:
        swing = math.sin(k * seconds * 1.3 + phase)
        fx_, fy_ = x + drift[0] * 3 * k + swing * 0.6, y + drift[1] * 3 * k + 0.3 * swing
        holder.set_pos(fx_, fy_, top - (top - low) * k)
        holder.set_r(swing * 10)
        burn = min(1.0, k * 12) * (1 - max(0.0, (k - 0.85) / 0.15)) * (0.9 + 0.1 * math.sin(k * 97))
        glow.set_scale(1.2 + 0.4 * burn)
        glow.set_color_scale(1, 1, 0.92, burn)
        halo.set_scale(5.0 * burn + 0.1)
        halo.set_color_scale(1, 0.98, 0.85, 0.35 * burn)
        pool.set_pos(fx_ - x, fy_ - y, 0)
        pool.set_color_scale(1, 1, 1, burn * night)
        lift.set(key, 0.55 * burn * night if night > 0.4 else 0.0)

    def done() -> None:
        holder.hide()
        pool.hide()
        lift.set(key, 0.0)

    return Sequence(Wait(delay), Func(holder.show), Func(pool.show), stage.cue("pop", (x, y, top), gain=0.6),
                    LerpFunctionInterval(at, seconds, 0.0, 1.0), Func(done))


@handles("illumination")
def on_illumination(stage: Stage, ev: dict) -> Beat | None:
    if "x" not in ev:
        return None
    x, y, r = float(ev["x"]), float(ev["y"]), float(ev.get("radius", 3.0))
    stage.focus(0.0, 8, "illumination", stage.ground(x, y, 6.0), hold=5.0, distance=40.0)
    return Beat(flare(stage, x, y, r, float(ev.get("seconds", 12.0))), 2.5)


# -- smoke -------------------------------------------------------------------------------------------------------
def wp_burst(stage: Stage, at, radius: float, delay: float = 0.0, linger: float = 8.0) -> Parallel:
    """White phosphorus: a blinding flash, burning streamers arcing out, a thick white screen that lingers."""
    return Parallel(
        fx.flash(stage.root, (at[0], at[1], at[2] + 0.6), 2.2, (1, 1, 0.95, 1), delay=delay, life=0.3),
        fx.burst(stage.root, at, fx.BurstSpec("spark", count=18, life=(0.8, 1.3), speed=(5, 9), up=(0.4, 0.95),
                                              size=(0.12, 0.2), color=(1, 1, 0.9, 1), drag=0.8, gravity=14.0,
                                              additive=True), stage.rng, delay=delay),
        fx.burst(stage.root, at, fx.BurstSpec("puff", count=16, life=(1.2, 2.2), speed=(4, 7), up=(0.3, 0.9),
                                              size=(0.2, 0.6), color=WP_WHITE, drag=1.0, gravity=6.0), stage.rng,
                 delay=delay + 0.05),
        fx.burst(stage.root, at, fx.BurstSpec("puff", count=24, spawn=linger * 0.4, life=(linger * 0.6, linger),
                                              speed=(0.4, 1.0), up=(0.3, 0.8), size=(0.5 * radius, 1.6 * radius),
                                              offset=radius * 0.6, color=WP_WHITE, rise=0.5, drag=1.0,
                                              wind=(0.2, 0.08, 0)), stage.rng, delay=delay + 0.2),
        Sequence(Wait(delay), stage.cue("explosion_small", at)))


def plume_spec(rgb, seconds: float, strength: float = 1.0) -> fx.BurstSpec:
    """A marking grenade's plume: a thin, dense stem that climbs, leans downwind and spreads thin."""
    return fx.BurstSpec("puff", count=int(8 * seconds * strength), spawn=seconds, life=(3.5, 5.0), speed=(0.2, 0.5),
                        up=(0.8, 1.0), size=(0.12, 1.5), color=(*rgb, 0.7), drag=1.2, rise=1.7,
                        wind=(0.55, 0.2, 0.0), fade_in=0.15, fade_out=0.6)


def smoke_rgb(colour, light: float = 1.0) -> tuple:
    rgb = SMOKE_RGB.get(str(colour), UNKNOWN_SMOKE) if colour else UNKNOWN_SMOKE
    return tuple(c * light for c in rgb)


def fire_spec(r: float, seconds: float) -> tuple[fx.BurstSpec, fx.BurstSpec]:
    flames = fx.BurstSpec("puff", count=int(5 * seconds * max(0.6, r)), spawn=seconds, life=(0.5, 1.0),
                          speed=(0.1, 0.4), up=(0.8, 1.0), size=(0.3 * max(r, 0.6), 0.8 * max(r, 0.6)),
                          offset=r * 0.8, color=FIRE_BODY, rise=1.6, fade_in=0.15, fade_out=0.7)
    smoke = fx.BurstSpec("puff", count=int(1.6 * seconds * max(0.6, r)), spawn=seconds, life=(3.0, 4.5),
                         speed=(0.2, 0.5), up=(0.8, 1.0), size=(0.5, 2.2), offset=r * 0.6, color=BLACK_SMOKE,
                         rise=2.0, wind=(0.35, 0.12, 0))
    return flames, smoke


def on_smoke_kind(stage: Stage, ev: dict) -> Beat | None:
    """The fire-support kinds of the ``smoke`` event (``effects.on_smoke`` hands them here)."""
    kind = ev.get("kind")
    x, y = float(ev["x"]), float(ev["y"])
    if kind == "wp":
        r = float(ev.get("radius", 1.5))
        g = stage.ground(x, y, 0.1)
        spec = fx.BurstSpec("puff", count=40, spawn=2.5, life=(4.0, 6.0), speed=(0.5, 1.4), up=(0.1, 0.6),
                            size=(0.4 * r, 1.3 * r), offset=r * 0.8, color=WP_WHITE, rise=0.35, drag=1.0,
                            wind=(0.2, 0.08, 0), fade_in=0.15)
        stage.focus(0.0, 8, "smoke", g, hold=4.0, distance=max(28.0, r * 12))
        return Beat(fx.burst(stage.root, g, spec, stage.rng), 1.0)
    if kind in ("marking", "spoof"):
        colour = ev.get("colour") or stage.notes.get("smoke_colour")
        g = stage.ground(x, y, 0.05)
        can = stage.model(f"smoke_grenade_{colour}" if colour in SMOKE_RGB else "smoke_grenade_white")
        can.set_scale(2.5)
        can.set_pos(*g)
        spec = plume_spec(smoke_rgb(colour, smoke_light(stage)), 2.0)
        spec.life = (2.5, 3.5)
        stage.focus(0.0, 6, "smoke", g, hold=3.0, distance=26.0)
        return Beat(Parallel(stage.cue("pop", g), fx.burst(stage.root, g, spec, stage.rng, floor=g[2])), 0.8)
    if kind == "burning":
        delay = max(0.0, stage.notes.get("landed", stage.now) + 1.2 - stage.now)
        parts = []
        for cx, cy, cr in ev.get("circles") or [(x, y, 1.0)]:
            g = stage.ground(float(cx), float(cy), 0.1)
            flames, _ = fire_spec(float(cr), 8.5)  # burning on until the batch ends and the view's fire takes over
            _, smoke = fire_spec(float(cr), 5.0)
            parts += [fx.burst(stage.root, g, flames, stage.rng, delay=delay),
                      fx.burst(stage.root, g, smoke, stage.rng, delay=delay + 0.4)]
        return Beat(Parallel(*parts), 0.3)
    return None


# -- what stays on the table between batches --------------------------------------------------------------------
class Standing:
    """Fire support the view says is still there: marking and spoof plumes, gunships on station, flares
    over lit circles, the WP screen and the napalm fires while their clocks run. Synced after every view;
    a batch may hide some while it flies its own (``hide_kind``); cleared with the table."""

    KINDS = ("smoke", "gunship", "illumination")

    def __init__(self, presenter):
        self.presenter = presenter
        self.root = presenter.scene.effects.root.get_parent().attach_new_node("standing-support")
        self.items: dict[str, tuple[p3d.NodePath, object, str]] = {}
        self.ambient = AmbientLift(presenter.scene)
        presenter.after_view.append(self.sync)

    def _wanted(self) -> dict[str, dict]:
        view = self.presenter.scene.pieces.view
        want: dict[str, dict] = {}
        for m in view.get("markers") or []:
            if "x" not in m or "y" not in m:
                continue
            kind = m.get("kind")
            if kind == "smoke" and m.get("purpose") in ("marking", "spoof"):
                want[f"m:{m.get('id')}"] = {**m, "_kind": "plume"}
            elif kind == "gunship":
                want[f"m:{m.get('id')}"] = {**m, "_kind": "gunship"}
            elif kind == "illumination":
                want[f"m:{m.get('id')}"] = {**m, "_kind": "flare"}
        for c in view.get("clocks") or []:
            if c.get("kind") == "wp_smoke" and "x" in c:
                want[f"c:{c.get('id')}"] = {**c, "_kind": "wp"}
            elif c.get("kind") == "burning" and "x" in c:
                want[f"c:{c.get('id')}"] = {**c, "_kind": "fire"}
        return want

    def sync(self) -> None:
        pieces = self.presenter.scene.pieces
        want = self._wanted()
        for key in [k for k in self.items if k not in want]:
            self._drop(key)
        for key, m in want.items():
            if key.startswith("m:"):
                node = pieces.markers.get(str(m.get("id")))
                if node is not None and m["_kind"] in ("plume", "gunship", "flare"):
                    for child in node.get_children():
                        child.hide()  # drawn here instead: a plume, a circling gunship, a hanging flare
            if key not in self.items:
                self.items[key] = self._make(key, m)
            self.items[key][0].show()

    def hide_kind(self, kind: str) -> None:
        for holder, _, k in self.items.values():
            if k == kind:
                holder.hide()

    def _make(self, key: str, m: dict) -> tuple[p3d.NodePath, object, str]:
        table = self.presenter.scene.table
        x, y = float(m["x"]), float(m["y"])
        g = float(table.height_at(x, y))
        holder = self.root.attach_new_node(f"standing-{key}")
        rng = random.Random(key)
        kind = m["_kind"]
        if kind == "plume":
            rgb = smoke_rgb(m.get("colour"), smoke_light(self.presenter.scene))
            ival = fx.cycle(holder, (x, y, g + 0.1), plume_spec(rgb, 5.0, 0.8), rng, 5.0)
            can = self.presenter.models.instance(
                f"smoke_grenade_{m['colour']}" if m.get("colour") in SMOKE_RGB else "smoke_grenade_white", holder)
            can.set_pos(x, y, g)
            can.set_scale(2.5)
        elif kind == "gunship":
            model = self.presenter.models.instance(str(m.get("model") or "ah1_cobra"), holder)
            path = station_path(x, y, g)
            ival = fx.fly(model, path)
            holder.set_tag("gunship", str(m.get("id")))
            kind = "gunship"
        elif kind == "flare":
            r = float(m.get("radius", 3.0))
            ival = self._hanging_flare(holder, x, y, g, r, key)
        elif kind == "wp":
            r = float(m.get("radius", 1.5))
            spec = fx.BurstSpec("puff", count=26, life=(4.0, 6.0), speed=(0.1, 0.35), up=(0.1, 0.6),
                                size=(0.6 * r, 1.3 * r), offset=r * 0.8, color=WP_WHITE, rise=0.2, drag=1.0,
                                wind=(0.15, 0.06, 0), fade_in=0.2)
            ival = fx.cycle(holder, (x, y, g + 0.1), spec, rng, 6.0)
        else:  # napalm still burning
            r = float(m.get("radius", 1.0))
            flames, smoke = fire_spec(r, 5.0)
            flames.count = max(3, int(flames.count * 0.6))
            smoke.count = max(2, int(smoke.count * 0.6))
            ival = Parallel(fx.cycle(holder, (x, y, g + 0.1), flames, rng, 5.0),
                            fx.cycle(holder, (x, y, g + 0.1), smoke, rng, 5.0))
        ival.loop()
        return holder, ival, kind

    def _hanging_flare(self, holder: p3d.NodePath, x: float, y: float, g: float, r: float, key: str):
        """A flare that burns on over its lit circle for the rest of the turn: it hangs and drifts round a
        small circle, its pool of light on the table, the ambient lifted at night."""
        scene = self.presenter.scene
        flare_np = holder.attach_new_node("hanging")
        _chute(flare_np)
        glow = fx.sprite_layer(flare_np.attach_new_node(fx._card_geom().make_copy()), additive=True)
        glow.set_texture(fx.texture("flash"))
        glow.set_billboard_point_eye()
        pool = light_pool(holder, x, y, r * 1.5, scene.table.height_at)
        night = _night(scene)
        lift_key = hash(key)

        def at(k: float) -> None:
            a = 2 * math.pi * k
            px, py = x + 0.8 * math.cos(a), y + 0.8 * math.sin(a)
            flare_np.set_pos(px, py, g + 11.0 + 0.6 * math.sin(2 * a))
            flare_np.set_r(6 * math.sin(3 * a))
            flicker = 0.9 + 0.1 * math.sin(k * 230)
            glow.set_scale(1.3)
            glow.set_color_scale(1, 1, 0.92, flicker)
            pool.set_pos(px - x, py - y, 0)
            pool.set_color_scale(1, 1, 1, 0.8 * night * flicker)
            if night > 0.4:
                self.ambient.set(lift_key, 0.4 * night)

        holder.set_python_tag("lift_key", lift_key)
        return LerpFunctionInterval(at, 9.0, 0.0, 1.0)

    def _drop(self, key: str) -> None:
        holder, ival, _ = self.items.pop(key)
        ival.pause()
        lift_key = holder.get_python_tag("lift_key")
        if lift_key is not None:
            self.ambient.set(lift_key, 0.0)
        holder.remove_node()

    def clear(self) -> None:
        for key in list(self.items):
            self._drop(key)
        self.ambient.clear()
        self.root.remove_node()

