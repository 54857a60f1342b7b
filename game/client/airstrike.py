"""Fire support from the air and the shells that light or screen: air strikes, gunship runs, white
phosphorus and illumination flares, built from the geometry the fire-support chapter will put in its
events.

The engine does not emit these yet (issue 13 adds them). The builders take exactly the geometry that
issue names, so the handlers below are ready for it and the tests drive the builders with geometry:

* ``air_strike``: ``aircraft`` (``f4_phantom``, ``a1_skyraider``, ``ah1_cobra``, ``uh1c_gunship``),
  ``ordnance`` (``napalm``, ``bombs``, ``rockets``), ``entry`` and ``exit`` [x, y], ``altitude``
  [[share of the way, z], ...], ``release`` [[x, y], ...], ``footprint`` [[x, y], ...] (napalm or bombs)
  or ``corridor`` {from, to, width} (a gunship run), and the FAC's ``mark`` [x, y].
  The FAC's Bird Dog circles and fires a white-phosphorus marking rocket; the aircraft runs in along the
  engine's heading at scale height, banks off after release; bombs fall from the release points; napalm
  rolls along its footprint in fire and black smoke; a gunship walks rockets and tracer down its corridor.
* ``illumination`` {x, y}: a flare swings down under its parachute and lifts the table's ambient light.
* ``impact`` with ``kind: "wp"`` (or the ``white_phosphorus`` event) {x, y, radius}: a starburst of
  burning streamers and a thick white screen.

The event names and fields are this module's reading of issue 13; when the chapter lands, its
declaration of these events decides, and the handlers follow it.
"""

from __future__ import annotations

import math

import numpy as np
from direct.interval.IntervalGlobal import Func, LerpFunctionInterval, Parallel, Sequence, Wait

from game.client import flight, fx
from game.client.presenter import Beat, Stage, handles
from game.client.setpieces import BLACK_SMOKE, blast

FIRE = (1.0, 0.55, 0.15, 0.95)
WP_WHITE = (0.97, 0.97, 0.95, 0.9)
SPEED = {"f4_phantom": 34.0, "a1_skyraider": 22.0, "ah1_cobra": 14.0, "uh1c_gunship": 12.0, "o1_bird_dog": 8.0}
SOUND = {"f4_phantom": "jet", "a1_skyraider": "prop", "ah1_cobra": "rotor", "uh1c_gunship": "rotor",
         "o1_bird_dog": "prop"}


def _xy(v) -> tuple[float, float]:
    return float(v[0]), float(v[1])


def fac_mark(stage: Stage, mark: tuple[float, float], delay: float = 0.0) -> tuple[Sequence, float]:
    """The FAC's O-1 circles the target at 9" and fires a white-phosphorus rocket onto ``mark``; returns the
    sequence and when the smoke is up."""
    g = stage.ground(*mark)
    path = flight.orbit(mark, 12.0, g[2] + 9.0, period=10.0, turns=0.75, start=200.0)
    plane = stage.model("o1_bird_dog")
    loop: list = []
    t_fire = path.duration * 0.55
    muzzle = tuple(path.at(t_fire))
    parts = [stage.cue("prop", plane, loop=True, keep=loop), fx.fly(plane, path, delay),
             Sequence(Wait(delay + t_fire), fx.streak(stage.root, muzzle, g, (1, 1, 0.9, 1), 0.5, 3.0, 30.0)),
             wp_burst(stage, g, 1.2, delay + t_fire + 0.4, linger=6.0)]
    return Sequence(Parallel(*parts), stage.stop(loop)), delay + t_fire + 0.6


def strike_path(ev: dict, ground: float) -> flight.Path:
    entry, exit_ = _xy(ev["entry"]), _xy(ev["exit"])
    profile = [(float(s), float(z) + ground) for s, z in (ev.get("altitude") or [(0, 10), (0.5, 5), (1, 12)])]
    return flight.strike_run(entry, exit_, profile, SPEED.get(str(ev.get("aircraft")), 28.0))


def bombs(stage: Stage, path: flight.Path, releases: list, delay: float, napalm: bool,
          targets: list | None = None) -> tuple[list, list]:
    """Canisters or bombs let go as the aircraft passes each release point, each falling onto its target
    (the footprint's leading edge for napalm; by default the ground under the release point); returns
    intervals and the (x, y, time) where each lands."""
    out, landings = [], []
    for k, (rx, ry) in enumerate(releases):
        t = path.time_nearest(rx, ry)
        p0 = path.at(t)
        tx, ty = (targets[k % len(targets)] if targets else (rx, ry))
        g = float(stage.height_at(tx, ty))
        drop = flight.fall_to(tuple(p0), (tx, ty), g)
        model = stage.model("smoke_grenade_white" if napalm else "crater")  # a stand-in shape, scaled below
        model.set_scale(2.0 if napalm else 0.05)
        out.append(fx.fly(model, drop, delay + t))
        end = drop.xyz[-1]
        landings.append((float(end[0]), float(end[1]), delay + t + drop.duration))
    return out, landings


def napalm(stage: Stage, footprint: list, heading: float, start: float) -> list:
    """Fire rolling along ``footprint`` from where the canister struck, then black smoke over it."""
    out = []
    for x, y, share in flight.footprint_points(footprint, heading, spacing=1.4):
        t = start + share * 1.2
        g = stage.ground(x, y, 0.1)
        out.append(fx.flash(stage.root, (g[0], g[1], g[2] + 0.6), 1.6, (1, 0.6, 0.2, 1), delay=t, life=0.35))
        out.append(fx.burst(stage.root, g, fx.BurstSpec("flash", count=4, spawn=3.0, life=(0.6, 1.1), speed=(0.2, 0.6),
                                                        up=(0.7, 1.0), size=(0.5, 1.0), color=FIRE, rise=1.2,
                                                        additive=True), stage.rng, delay=t))
        out.append(fx.burst(stage.root, g, fx.BurstSpec("puff", count=3, spawn=3.5, life=(3.0, 4.5), speed=(0.3, 0.7),
                                                        up=(0.8, 1.0), size=(0.6, 2.2), color=BLACK_SMOKE, rise=1.8,
                                                        wind=(0.3, 0.1, 0)), stage.rng, delay=t + 0.3))
    if out:
        c = np.mean(np.array(footprint, dtype=float), axis=0)
        out.append(Sequence(Wait(start), stage.cue("explosion_big", stage.ground(*c))))
        out.append(Sequence(Wait(start), stage.shake(0.7, stage.ground(*c))))
    return out


def gunship_run(stage: Stage, corridor: dict, delay: float) -> tuple[list, float]:
    """Rockets and minigun tracer walked down a gunship's corridor."""
    a, b = _xy(corridor["from"]), _xy(corridor["to"])
    w = float(corridor.get("width", 2.0))
    out = []
    last = delay
    for x, y, share in flight.corridor_points(a, b, w, 8, seed=int(stage.rng.random() * 1e6)):
        t = delay + share * 2.0
        g = stage.ground(x, y, 0.05)
        src = (g[0] - (b[0] - a[0]) * 0.3, g[1] - (b[1] - a[1]) * 0.3, g[2] + 6.0)
        out.append(fx.streak(stage.root, src, g, (1, 0.9, 0.6, 1), 0.6, 4.0, 40.0, delay=t - 0.15))
        out.append(blast(stage, x, y, "mortar_60", delay=t, crater=False, shriek=False))
        out.append(fx.streak(stage.root, src, (g[0] + 0.4, g[1] - 0.3, g[2]), (1.0, 0.45, 0.25, 1), 0.9, 2.0, 60.0,
                             delay=t - 0.05, dashes=3, gap=0.4))
        last = max(last, t)
    return out, last


def air_strike(stage: Stage, ev: dict) -> tuple[Parallel, float]:
    """The whole strike from the event's geometry (see the module docstring); returns it and its length."""
    aircraft = str(ev.get("aircraft", "f4_phantom"))
    entry = _xy(ev["entry"])
    mark = _xy(ev.get("mark") or (ev.get("release") or [entry])[0])
    parts = []
    t = 0.0
    if ev.get("mark") is not None:
        fac, t = fac_mark(stage, mark)
        parts.append(fac)
    ground = float(stage.height_at(*mark))
    path = strike_path(ev, ground)
    plane = stage.model(aircraft)
    loop: list = []
    parts += [Sequence(Wait(t), stage.cue(SOUND.get(aircraft, "jet"), plane, loop=True, keep=loop)),
              fx.fly(plane, path, t), Sequence(Wait(t + path.duration), stage.stop(loop))]
    stage.focus(t, 9, "airstrike", node=plane, hold=path.duration * 0.5, distance=50.0)
    ordnance = str(ev.get("ordnance", "bombs"))
    end = t + path.duration
    if ordnance in ("napalm", "bombs") and ev.get("release"):
        targets = None
        if ordnance == "napalm" and ev.get("footprint"):
            lead = flight.footprint_points([_xy(p) for p in ev["footprint"]], math.degrees(math.atan2(
                path.xyz[-1, 1] - path.xyz[0, 1], path.xyz[-1, 0] - path.xyz[0, 0])))
            targets = [lead[0][:2]] if lead else None
        drops, landings = bombs(stage, path, [_xy(r) for r in ev["release"]], t, ordnance == "napalm", targets)
        parts += drops
        if landings:
            first = min(lt for _, _, lt in landings)
            stage.focus(first - 0.3, 9, "impact", stage.ground(*landings[0][:2]), hold=5.0, distance=36.0)
        if ordnance == "napalm" and ev.get("footprint"):
            heading = math.degrees(math.atan2(path.xyz[-1, 1] - path.xyz[0, 1], path.xyz[-1, 0] - path.xyz[0, 0]))
            parts += napalm(stage, [_xy(p) for p in ev["footprint"]], heading, min(lt for *_, lt in landings))
        else:
            for x, y, lt in landings:
                parts.append(blast(stage, x, y, "bomb", delay=lt, shriek=False))
        end = max(end, max(lt for *_, lt in landings) + 4.0)
    elif ordnance == "rockets" and ev.get("corridor"):
        runs, last = gunship_run(stage, ev["corridor"], t + path.duration * 0.35)
        parts += runs
        end = max(end, last + 3.0)
    return Parallel(*parts), end


@handles("air_strike")
def on_air_strike(stage: Stage, ev: dict) -> Beat | None:
    if not ev.get("entry") or not ev.get("exit"):
        return None
    seq, end = air_strike(stage, ev)
    return Beat(seq, end)


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


@handles("white_phosphorus")
def on_white_phosphorus(stage: Stage, ev: dict) -> Beat | None:
    if "x" not in ev:
        return None
    g = stage.ground(float(ev["x"]), float(ev["y"]), 0.05)
    stage.focus(0, 8, "smoke", g, hold=5.0, distance=34.0)
    return Beat(wp_burst(stage, g, float(ev.get("radius", 2.0))), 1.5)


def illumination(stage: Stage, x: float, y: float, seconds: float = 14.0, delay: float = 0.0) -> Sequence:
    """A parachute flare: pops high over (x, y), swings down slowly, brightens the table's ambient light,
    and dies out near the ground."""
    top = float(stage.height_at(x, y)) + 22.0
    flare = fx.sprite_layer(stage.root.attach_new_node("flare"), additive=True)
    glow = fx.flash(flare, (0, 0, 0), 1.0, (1, 1, 0.9, 1), life=seconds)
    scene_root = stage.scene.root
    sky0 = scene_root.get_shader_input("u_sky")
    ground0 = scene_root.get_shader_input("u_ground")
    base_sky = sky0.get_vector() if sky0 is not None and hasattr(sky0, "get_vector") else None
    base_ground = ground0.get_vector() if ground0 is not None and hasattr(ground0, "get_vector") else None

    def at(k: float) -> None:
        swing = math.sin(k * seconds * 1.6) * 1.2
        flare.set_pos(x + swing, y + 0.4 * swing, top - (top - stage.height_at(x, y) - 3.0) * k)
        light = math.sin(math.pi * min(1.0, k * 1.1)) ** 0.5
        flare.set_color_scale(1, 1, 0.95, light)
        if base_sky is not None:
            lift = 0.55 * light
            scene_root.set_shader_input("u_sky", (base_sky[0] + lift, base_sky[1] + lift, base_sky[2] + lift * 0.9))
        if base_ground is not None:
            scene_root.set_shader_input("u_ground", (base_ground[0] + 0.3 * light, base_ground[1] + 0.3 * light,
                                                     base_ground[2] + 0.25 * light))

    def restore() -> None:
        if base_sky is not None:
            scene_root.set_shader_input("u_sky", base_sky.get_xyz())
        if base_ground is not None:
            scene_root.set_shader_input("u_ground", base_ground.get_xyz())
        flare.hide()

    return Sequence(Wait(delay), Parallel(LerpFunctionInterval(at, seconds, 0.0, 1.0), glow), Func(restore))


@handles("illumination")
def on_illumination(stage: Stage, ev: dict) -> Beat | None:
    if "x" not in ev:
        return None
    secs = float(ev.get("seconds", 14.0))
    return Beat(illumination(stage, float(ev["x"]), float(ev["y"]), secs), 2.0)
