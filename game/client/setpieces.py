"""The set pieces the engine emits today: artillery and mortar impacts, and Dustoff in all its phases.

* ``impact`` (the Jungle Ghost's 82 mm harassment, G-12) and ``fire_mission`` ``impact`` (DD-8.8-8.10:
  mortars and batteries, the asset naming the calibre): the shriek of each round about 1.2 s before it
  lands, the rounds staggered across the template (a fire mission's at the engine's own ``impacts`` and
  their ``t`` offsets), each with a flash, a fountain of clods, a skirt of dust, a smoke column that rises
  and spreads, a scorch that fades (heavy shells leave the engine's craters: the ``terrain`` event), and
  a camera shake scaled by calibre and by the camera's distance. WP rounds burst in white streamers (the
  screen is the ``smoke`` event's); a star shell pops overhead (its flare is the ``illumination``
  event's). The ``call`` (the caller's side only) is a radio squelch and a ring on the Target marker.
* ``terrain`` {change, kind, polygon}: the table changes as the rounds land (``changes``).
* ``dustoff`` (DD-6.6-6.12, ``game/rules/casevac.py``): ``inbound`` the stand throws coloured smoke onto
  the LZ; ``touchdown`` the Huey comes in from the nearest table edge, flares, its rotor wash throws dust
  and bends the smoke, and it settles on the LZ the engine names (a damaged one trails smoke);
  ``wave_off`` it comes in and goes around; ``crash`` it is hit short of the LZ, trails smoke and
  autorotates, spinning, into the wreck the engine placed; ``departure`` the litter teams' casualties
  are carried aboard and it lifts off and leaves.
* A landed Huey (the view's ``helicopter`` marker, model ``uh1_dustoff``) idles with its rotors turning,
  facing the way it landed, until its departure; a burning wreck smokes.

The engine gives the LZ, wreck and template; the flight paths come from ``flight`` and the table's size,
so every screen draws the same Huey from the same public event.
"""

from __future__ import annotations

import math

import numpy as np
import panda3d.core as p3d
from direct.interval.IntervalGlobal import Func, LerpFunctionInterval, Parallel, Sequence, Wait

from game.client import flight, fx, geom
from game.client.presenter import Beat, Stage, handles

# calibre: (rounds, seconds between, flash size, clods, column height, crater scale, shake, sound)
CALIBRES = {
    "mortar": (4, 0.55, 2.2, 16, 6.0, 0.45, 0.45, "explosion_small"),
    "mortar_60": (3, 0.5, 1.2, 10, 3.5, 0.32, 0.3, "explosion_small"),
    "105": (6, 0.45, 2.2, 18, 7.0, 0.6, 0.7, "explosion"),
    "155": (6, 0.5, 2.8, 22, 9.0, 0.8, 0.9, "explosion_big"),
    "bomb": (1, 0.0, 3.4, 28, 11.0, 1.1, 1.0, "explosion_big"),
}
# a fire-support asset's calibre on the table (presentation only; the asset ids are game/data/fire_support.toml's)
ASSET_CALIBRE = {"mortar_60": "mortar_60", "mortar_81": "mortar", "mortar_82": "mortar", "mortar_107": "105",
                 "battery_105": "105", "heavy_155": "155", "rockets_122": "155"}
SHRIEK = 1.2  # seconds of whistle before a round lands
SMOKE_RGB = {"green": (0.35, 0.78, 0.38), "yellow": (0.95, 0.85, 0.25), "red": (0.9, 0.28, 0.22),
             "violet": (0.62, 0.38, 0.8), "purple": (0.62, 0.38, 0.8), "white": (0.92, 0.92, 0.9)}
DUST = (0.66, 0.58, 0.44, 0.75)
CLOD = (0.28, 0.22, 0.15, 1.0)
BLACK_SMOKE = (0.13, 0.12, 0.11, 0.85)
GREY_SMOKE = (0.5, 0.49, 0.46, 0.7)


# -- artillery --------------------------------------------------------------------------------------------
def blast(stage: Stage, x: float, y: float, calibre: str = "mortar", delay: float = 0.0, crater: bool = True,
          shriek: bool = True) -> Sequence:
    """One round landing at (x, y) ``delay`` seconds from now (its shriek starts before, from ``delay -
    SHRIEK``: callers leave room for it)."""
    _, _, size, clods, column, crater_scale, shake, noise = CALIBRES.get(calibre, CALIBRES["mortar"])
    p = stage.ground(x, y, 0.05)
    rng = stage.rng
    parts = [
        fx.flash(stage.root, (p[0], p[1], p[2] + size * 0.35), size, (1.0, 0.82, 0.5, 1), life=0.22),
        fx.burst(stage.root, p, fx.BurstSpec("puff", count=clods, life=(0.9, 1.4), speed=(8, 14), up=(0.75, 0.98),
                                             size=(0.08, 0.16), color=CLOD, drag=0.5, gravity=26.0, fade_in=0.0,
                                             fade_out=0.2), rng, floor=p[2]),
        fx.burst(stage.root, p, fx.BurstSpec("puff", count=8, life=(0.8, 1.4), speed=(6, 10), up=(0.85, 1.0),
                                             size=(0.3 * size, 0.7 * size), color=(0.45, 0.36, 0.25, 0.9), drag=2.2,
                                             rise=0.5, fade_in=0.05), rng),
        fx.burst(stage.root, p, fx.BurstSpec("puff", count=10, life=(1.2, 2.2), speed=(3, 6), up=(0.02, 0.25),
                                             size=(0.25 * size, 0.8 * size), color=DUST, drag=2.5, rise=0.2), rng),
        fx.burst(stage.root, (p[0], p[1], p[2] + 0.3), fx.BurstSpec(
            "puff", count=12, spawn=0.8, life=(3.0, 5.0), speed=(0.6, 1.4), up=(0.6, 1.0), size=(0.3 * size, 1.1 * size),
            color=GREY_SMOKE, drag=1.0, rise=column / 4.0, wind=(0.25, 0.1, 0.0), fade_in=0.1, fade_out=0.6), rng),
        stage.shake(shake, p),
        stage.cue(noise, p),
    ]
    if crater:
        parts.append(fx.ground_mark(stage.root, stage.model("crater"), (p[0], p[1], p[2] - 0.04), crater_scale,
                                    rng.uniform(0, 360)))
    else:
        parts.append(scorch(stage, p, 0.5 * size))
    body = Sequence(Wait(delay), Parallel(*parts))
    if not shriek:
        return body
    return Parallel(Sequence(Wait(max(0.0, delay - SHRIEK)), stage.cue("shriek", p, gain=0.7)),
                    _falling(stage, p, delay), body)


def scorch(stage: Stage, p, r: float, life: float = 6.0) -> Sequence:
    """A dark blast mark on the ground that fades away (a light round leaves no crater, G-01 T12c)."""
    from game.client.effects import fade

    node = geom.disc("scorch", r, (0.08, 0.07, 0.06, 0.55), n=20)
    node.set_bin("fixed", 1)
    node.set_pos(p[0], p[1], p[2] + 0.04)
    node.set_h(stage.rng.uniform(0, 360))
    node.set_scale(1.0, stage.rng.uniform(0.7, 1.0), 1.0)
    return fade(node, stage.root, life, 2.5)


def _falling(stage: Stage, p, delay: float) -> Sequence:
    """The round itself, a dark streak in the last instant before it lands."""
    top = (p[0] - 0.8, p[1] - 0.5, p[2] + 9.0)
    return Sequence(Wait(max(0.0, delay - 0.16)),
                    fx.streak(stage.root, top, p, (0.15, 0.14, 0.12, 0.9), 1.2, 3.0, 60.0))


def impact_points(x: float, y: float, radius: float, n: int, rng) -> list[tuple[float, float]]:
    """``n`` rounds across a template: the first near the centre, the rest spread inside ``radius``."""
    out = [(x + rng.uniform(-0.2, 0.2) * radius, y + rng.uniform(-0.2, 0.2) * radius)]
    for k in range(1, n):
        a = rng.uniform(0, 2 * math.pi) + k * 2.4
        r = radius * math.sqrt(rng.uniform(0.15, 0.85))
        out.append((x + r * math.cos(a), y + r * math.sin(a)))
    return out


@handles("impact")
def on_impact(stage: Stage, ev: dict) -> Beat | None:
    if "x" not in ev or "y" not in ev:
        return None
    calibre = str(ev.get("calibre") or ev.get("kind") or "mortar")
    if calibre in ("wp", "white_phosphorus"):
        from game.client.airstrike import wp_burst

        g = stage.ground(float(ev["x"]), float(ev["y"]), 0.05)
        stage.focus(0, 8, "smoke", g, hold=5.0, distance=34.0)
        return Beat(wp_burst(stage, g, float(ev.get("radius", 2.0))), 1.5)
    rounds, gap = CALIBRES.get(calibre, CALIBRES["mortar"])[:2]
    rounds = int(ev.get("rounds", rounds))
    x, y, r = float(ev["x"]), float(ev["y"]), float(ev.get("radius", 2.0))
    pts = impact_points(x, y, r, rounds, stage.rng)
    parts = []
    for k, (px, py) in enumerate(pts):
        parts.append(blast(stage, px, py, calibre, delay=SHRIEK + k * gap * (1 + stage.rng.uniform(-0.3, 0.3))))
    stage.focus(0.0, 9, "artillery", stage.ground(x, y), hold=7.0, distance=max(28.0, r * 10))
    total = max(p.get_duration() for p in parts)
    return Beat(Parallel(*parts), min(total, SHRIEK + rounds * gap + 1.2))


@handles("fire_mission")
def on_fire_mission(stage: Stage, ev: dict) -> Beat | None:
    """DD-8.6-8.10: the call (the caller's side only) and the rounds landing; ``aborted`` has nothing to show."""
    phase = ev.get("phase")
    if "x" not in ev or "y" not in ev or phase not in ("call", "impact"):
        return None
    x, y, r = float(ev["x"]), float(ev["y"]), float(ev.get("radius") or 1.5)
    if phase == "call":
        return _call(stage, ev, x, y, r)
    rnd = str(ev.get("round", "he"))
    impacts = [(float(p["x"]), float(p["y"]), float(p.get("t", 0.0))) for p in ev.get("impacts") or []] \
        or [(x, y, 0.0)]
    if rnd == "illumination":  # the star shell bursts high; the flare is the illumination event's
        top = stage.ground(x, y, 20.0)
        return Beat(Parallel(stage.cue("pop", top, gain=0.8),
                             fx.flash(stage.root, top, 1.4, (1, 1, 0.9, 1), life=0.25)), 0.3)
    parts = []
    if rnd == "wp":
        from game.client.airstrike import wp_burst

        for px, py, t in impacts:
            g = stage.ground(px, py, 0.05)
            parts.append(Sequence(Wait(max(0.0, SHRIEK - 1.2 + t)), stage.cue("shriek", g, gain=0.6)))
            parts.append(wp_burst(stage, g, max(0.6, r * 0.6), delay=SHRIEK + t, linger=5.0))
        land = SHRIEK + max(t for *_, t in impacts)
    else:
        calibre = ASSET_CALIBRE.get(str(ev.get("asset")), "105")
        for px, py, t in impacts:
            parts.append(blast(stage, px, py, calibre, delay=SHRIEK + t, crater=False))
        land = SHRIEK + max(t for *_, t in impacts)
    stage.notes["landed"] = max(stage.notes.get("landed", 0.0), stage.now + SHRIEK)
    stage.focus(0.0, 9, "artillery", stage.ground(x, y), hold=land + 4.0, distance=max(30.0, r * 12))
    return Beat(Parallel(*parts), land + 0.4)


def _call(stage: Stage, ev: dict, x: float, y: float, r: float) -> Beat:
    """The radio call: a squelch at the caller and a ring drawn down onto the Target marker's point."""
    from game.client.effects import ring

    caller = stage.stand_pos(ev.get("caller"))
    parts = [ring(stage, x, y, max(r, 1.0), (1.0, 0.82, 0.3, 1.0), 1.6, grow=-0.35, width=4)]
    if caller is not None:
        parts.append(ring(stage, caller.x, caller.y, 0.9, (1.0, 0.82, 0.3, 1.0), 0.9, grow=0.6, width=3))
        parts.append(stage.cue("pop", (caller.x, caller.y, caller.z), gain=0.3))
    if ev.get("smoke") not in (None, "none"):
        stage.notes["smoke_colour"] = ev.get("smoke")
    stage.focus(0.0, 6, "call", stage.ground(x, y), hold=2.5, distance=34.0)
    return Beat(Parallel(*parts), 0.5)


@handles("terrain")
def on_terrain(stage: Stage, ev: dict) -> Beat | None:
    """The table changes as the ordnance lands (the view that follows lists the change too)."""
    changes = getattr(stage.scene, "changes", None)
    if changes is None or not ev.get("polygon"):
        return None
    delay = max(0.0, stage.notes.get("landed", stage.now) + 0.15 - stage.now)
    cid = str(ev.get("change"))
    fresh = cid not in changes.items
    changes.add(dict(ev), show=not fresh)  # built now, shown when the rounds land
    return Beat(Sequence(Wait(delay), Func(changes.reveal, cid)), 0.0)


# -- Dustoff ----------------------------------------------------------------------------------------------
def smoke_rgba(colour: str, alpha: float = 0.85) -> tuple:
    return (*SMOKE_RGB.get(str(colour), SMOKE_RGB["violet"]), alpha)


def wash(path: flight.Path | None, t0: float, ground: float, strength: float = 7.0):
    """The rotor wash as a push on particles: outward from under the Huey, strongest when it is low.
    ``t0``: the path's start on the burst's clock."""
    if path is None:
        return None

    def push(t: float, pts: np.ndarray) -> np.ndarray:
        hx, hy, hz = path.at(t - t0)
        low = math.exp(-max(0.0, hz - ground) / 2.5) if t >= t0 else 0.0
        d = pts[:, :2] - np.array([hx, hy])
        dist = np.linalg.norm(d, axis=1)[:, None] + 0.3
        out = np.zeros_like(pts)
        out[:, :2] = d / dist * strength * low * np.exp(-dist / 5.0)
        out[:, 2] = -0.3 * strength * low * np.exp(-dist[:, 0] / 3.0)
        return out
    return push


def lz_smoke(stage: Stage, x: float, y: float, colour: str, seconds: float, delay: float = 0.0,
             path: flight.Path | None = None, path_t0: float = 0.0) -> Sequence:
    """Coloured smoke pouring from a grenade on the LZ, bent by the rotor wash of a Huey on ``path``."""
    g = stage.ground(x, y, 0.05)
    spec = fx.BurstSpec("puff", count=int(8 * seconds), spawn=seconds, life=(2.5, 4.0), speed=(0.3, 0.8),
                        up=(0.5, 0.9), size=(0.15, 1.3), color=smoke_rgba(colour), drag=0.8, rise=0.9,
                        wind=(0.35, 0.15, 0.0), fade_in=0.08, fade_out=0.5)
    return fx.burst(stage.root, g, spec, stage.rng, delay=delay, push=wash(path, path_t0 - delay, g[2]), floor=g[2])


def rotor_dust(stage: Stage, path: flight.Path, x: float, y: float, t0: float, seconds: float) -> Sequence:
    """A ring of dust thrown out from under the Huey while it is within about 2" of the ground."""
    g = stage.ground(x, y, 0.05)
    spec = fx.BurstSpec("puff", count=int(10 * seconds), spawn=seconds, life=(1.0, 1.8), speed=(4, 7), up=(0.0, 0.15),
                        size=(0.2, 1.0), offset=0.8, color=DUST, drag=1.8, rise=0.3, fade_in=0.1)
    return fx.burst(stage.root, g, spec, stage.rng, delay=t0)


def trail(stage: Stage, path: flight.Path, start: float, end: float, color=BLACK_SMOKE, every: float = 0.12):
    """Smoke left along ``path`` between two of its times (a hit Huey)."""
    out = []
    for t in np.arange(start, end, every):
        out.append(fx.burst(stage.root, tuple(path.at(t)), fx.BurstSpec(
            "puff", count=1, life=(1.4, 2.2), speed=(0.1, 0.3), size=(0.2, 0.9), color=color, rise=0.4,
            fade_in=0.05), stage.rng, delay=float(t)))
    return out


def huey_flight(stage: Stage, path: flight.Path, key: str = "uh1_dustoff", delay: float = 0.0,
                hold: bool = False) -> tuple[p3d.NodePath, Sequence]:
    """The Huey on ``path`` with its rotor chop attached (Doppler from its motion); ``hold`` keeps it shown at
    the end (the view's landed marker takes over when the batch ends)."""
    model = stage.model(key)
    loop: list = []
    seq = Sequence(stage.cue("rotor", model, loop=True, keep=loop), fx.fly(model, path, delay))
    if hold:
        seq.append(Func(model.show))
    seq.append(stage.stop(loop))
    return model, seq


@handles("dustoff")
def on_dustoff(stage: Stage, ev: dict) -> Beat | None:
    if "x" not in ev or "y" not in ev:
        return None
    phase = ev.get("phase")
    x, y = float(ev["x"]), float(ev["y"])
    colour = str(ev.get("colour", "violet"))
    ground = float(stage.height_at(x, y))
    w, h = stage.width, stage.height
    build = {"inbound": _inbound, "touchdown": _touchdown, "wave_off": _wave_off, "crash": _crash,
             "departure": _departure}.get(str(phase))
    if build is None:
        return None
    return build(stage, ev, x, y, ground, colour, w, h)


def _inbound(stage, ev, x, y, ground, colour, w, h) -> Beat:
    thrower = stage.stand_pos(ev.get("stand"))
    parts = []
    t_land = 0.0
    if thrower is not None:
        can = stage.model(f"smoke_grenade_{colour}" if colour in SMOKE_RGB else "smoke_grenade_violet")
        can.set_scale(2.5)  # a 1:100 grenade is a speck; the throw needs to read
        can.hide()
        sx, sy, sz = thrower.x, thrower.y, thrower.z + 0.6
        gz = ground + 0.05

        def arc(k: float) -> None:
            can.set_pos(sx + (x - sx) * k, sy + (y - sy) * k, sz + (gz - sz) * k + 2.5 * k * (1 - k))
            can.set_hpr(720 * k, 300 * k, 0)

        t_land = 0.9
        parts.append(Sequence(Func(can.show), LerpFunctionInterval(arc, t_land, 0.0, 1.0)))
    parts.append(stage.cue("pop", stage.ground(x, y)))
    parts.append(lz_smoke(stage, x, y, colour, 5.0, delay=t_land))
    stage.focus(0.0, 9, "dustoff", stage.ground(x, y), hold=6.0, distance=26.0)
    return Beat(Parallel(*parts), t_land + 2.5)


def _touchdown(stage, ev, x, y, ground, colour, w, h) -> Beat:
    path = flight.huey_approach(x, y, ground, w, h)
    model, fly_seq = huey_flight(stage, path, hold=True)
    dur = path.duration
    low = _time_below(path, ground + 2.2)
    parts = [Func(stage.presenter.landed.hide_at, x, y), fly_seq, lz_smoke(stage, x, y, colour, dur + 1.0, path=path),
             rotor_dust(stage, path, x, y, low, max(0.5, dur - low))]
    if ev.get("damaged"):
        parts += trail(stage, path, dur * 0.55, dur)
    stage.focus(0.0, 9, "dustoff", node=model, hold=dur * 0.6, distance=30.0)
    stage.focus(dur * 0.6, 9, "dustoff", stage.ground(x, y), hold=dur * 0.5, distance=20.0)
    return Beat(Parallel(*parts), dur + 0.6)


def _time_below(path: flight.Path, z: float) -> float:
    below = np.nonzero(path.xyz[:, 2] <= z)[0]
    return float(path.t[below[0]]) if len(below) else path.duration


def _wave_off(stage, ev, x, y, ground, colour, w, h) -> Beat:
    path = flight.huey_wave_off(x, y, ground, w, h)
    model, fly_seq = huey_flight(stage, path)
    parts = [Func(stage.presenter.landed.hide_at, x, y), fly_seq,
             lz_smoke(stage, x, y, colour, min(path.duration, 10.0), path=path)]
    stage.focus(0.0, 9, "dustoff", node=model, hold=path.duration * 0.7, distance=40.0)
    return Beat(Parallel(*parts), path.duration * 0.7)


def _crash(stage, ev, x, y, ground, colour, w, h) -> Beat:
    path, hit = flight.huey_crash(x, y, ground, w, h)
    model, fly_seq = huey_flight(stage, path)
    end = path.duration
    hit_pos = tuple(path.at(hit))
    g = stage.ground(x, y, 0.1)
    parts = [Func(stage.presenter.landed.hide_at, x, y), fly_seq, lz_smoke(stage, x, y, colour, end, path=path),
             fx.flash(stage.root, hit_pos, 1.2, (1, 0.7, 0.3, 1), delay=hit, life=0.3),
             Sequence(Wait(hit), stage.cue("explosion_small", hit_pos)),
             *trail(stage, path, hit, end, every=0.08),
             blast(stage, x, y, "105", delay=end, crater=False, shriek=False),
             fx.burst(stage.root, g, fx.BurstSpec("puff", count=30, spawn=4.0, life=(2.5, 4.0), speed=(0.3, 0.8),
                                                  up=(0.6, 1.0), size=(0.4, 2.2), color=BLACK_SMOKE, rise=1.6,
                                                  wind=(0.3, 0.1, 0)), stage.rng, delay=end),
             fx.burst(stage.root, g, fx.BurstSpec("flash", count=16, spawn=4.0, life=(0.5, 0.9), speed=(0.3, 0.8),
                                                  up=(0.7, 1.0), size=(0.3, 0.6), color=(1.0, 0.55, 0.15, 0.9),
                                                  rise=0.8, additive=True), stage.rng, delay=end)]
    stage.focus(0.0, 9, "dustoff", node=model, hold=hit + 1.0, distance=30.0)
    stage.focus(hit + 0.5, 9, "dustoff", g, hold=end - hit + 3.0, distance=24.0)
    return Beat(Parallel(*parts), end + 2.0)


def _departure(stage, ev, x, y, ground, colour, w, h) -> Beat:
    landed = landing_heading(x, y, ground, w, h)
    loads = []
    door = (x + 0.4 * math.cos(math.radians(landed + 90)), y + 0.4 * math.sin(math.radians(landed + 90)))
    for k, tid in enumerate(ev.get("tokens") or []):
        marker = stage.pieces.markers.get(str(tid))
        if marker is None:
            continue
        p = marker.get_pos()

        def carry(kk: float, m=marker, p=p) -> None:
            m.set_pos(p.x + (door[0] - p.x) * kk, p.y + (door[1] - p.y) * kk, stage.height_at(p.x, p.y) + 0.3 * kk)

        loads.append(Sequence(Wait(0.3 * k), LerpFunctionInterval(carry, 1.4, 0.0, 1.0), Func(marker.hide)))
    board = 1.6 + 0.3 * len(loads) if loads else 0.6
    path = flight.huey_departure(x, y, ground, landed, w, h)
    model, fly_seq = huey_flight(stage, path, delay=board)
    hide_landed = Func(stage.presenter.landed.hide_at, x, y)
    parts = [hide_landed, Parallel(*loads) if loads else Wait(0.0),
             Sequence(Wait(board), Func(model.show)), fly_seq,
             rotor_dust(stage, path, x, y, board, 2.5)]
    stage.focus(0.0, 9, "dustoff", stage.ground(x, y), hold=board + 2.0, distance=18.0)
    stage.focus(board + 2.0, 9, "dustoff", node=model, hold=path.duration - 2.0, distance=34.0)
    return Beat(Parallel(*parts), board + path.duration * 0.7)


def landing_heading(x: float, y: float, ground: float, w: float, h: float) -> float:
    """The heading a Huey that landed at (x, y) faces: the end of its approach."""
    return float(flight.huey_approach(x, y, ground, w, h).hpr[-1, 0])


# -- what stays on the table between batches -------------------------------------------------------------
class Landed:
    """Idle Hueys on the view's ``helicopter`` markers (rotors turning, facing the way they landed), a plume
    of coloured smoke on a Dustoff LZ's ``smoke`` marker, and smoke over a burning ``wreck``. Synced after
    every view; cleared with the table."""

    def __init__(self, presenter):
        self.presenter = presenter
        self.root = presenter.scene.effects.root.get_parent().attach_new_node("landed")
        self.items: dict[str, tuple[p3d.NodePath, object, tuple[float, float]]] = {}
        presenter.after_view.append(self.sync)

    def sync(self) -> None:
        pieces = self.presenter.scene.pieces
        want = {}
        for m in pieces.view.get("markers") or []:
            lz = m.get("kind") == "smoke" and m.get("purpose") == "dustoff"
            if (m.get("kind") in ("helicopter", "wreck") or lz) and "x" in m and "y" in m:
                want[str(m.get("id"))] = m
        for mid in [k for k in self.items if k not in want]:
            self._drop(mid)
        for mid, m in want.items():
            node = pieces.markers.get(mid)
            if m["kind"] in ("helicopter", "smoke") and node is not None:
                for child in node.get_children():
                    child.hide()  # the static marker: an idling Huey, a plume of the LZ's colour in its place
            if mid not in self.items:
                self.items[mid] = self._make(m)
            self.items[mid][0].show()  # back after a batch that had it give way

    def _make(self, m: dict) -> tuple[p3d.NodePath, object, tuple[float, float]]:
        table = self.presenter.scene.table
        x, y = float(m["x"]), float(m["y"])
        g = float(table.height_at(x, y))
        holder = self.root.attach_new_node(f"landed-{m.get('id')}")
        if m["kind"] == "helicopter":
            model = self.presenter.models.instance(str(m.get("model") or "uh1_dustoff"), holder)
            model.set_pos(x, y, g)
            model.set_h(landing_heading(x, y, g, table.width, table.height))
            spin = fx.spinners(model)

            def idle(k: float) -> None:
                for pivot, axis in spin:
                    hpr = [0.0, 0.0, 0.0]
                    hpr[axis] = 360.0 * 4 * k * (5.0 if axis else 1.0)
                    pivot.set_hpr(*hpr)
            ival = LerpFunctionInterval(idle, 4.0, 0.0, 1.0)
        elif m["kind"] == "smoke":
            import random

            spec = fx.BurstSpec("puff", count=24, spawn=4.0, life=(2.5, 4.0), speed=(0.3, 0.8), up=(0.5, 0.9),
                                size=(0.15, 1.3), color=smoke_rgba(str(m.get("colour", "violet"))), drag=0.8, rise=0.9,
                                wind=(0.35, 0.15, 0.0), fade_in=0.08)
            ival = fx.burst(holder, (x, y, g + 0.05), spec, random.Random(str(m.get("id"))))
        else:
            import random

            spec = fx.BurstSpec("puff", count=24, spawn=6.0, life=(3.0, 5.0), speed=(0.2, 0.6), up=(0.7, 1.0),
                                size=(0.4, 2.0), color=BLACK_SMOKE, rise=1.2, wind=(0.3, 0.1, 0.0))
            ival = fx.burst(holder, (x, y, g + 0.5), spec, random.Random(str(m.get("id"))))
        ival.loop()
        return holder, ival, (x, y)

    def hide_at(self, x: float, y: float) -> None:
        """What stands at (x, y) gives way to a batch's own: a Huey that takes off, a plume the wash bends."""
        for holder, _, (hx, hy) in self.items.values():
            if math.hypot(hx - x, hy - y) < 1.0:
                holder.hide()

    def _drop(self, mid: str) -> None:
        holder, ival, _ = self.items.pop(mid)
        ival.pause()
        holder.remove_node()

    def clear(self) -> None:
        for mid in list(self.items):
            self._drop(mid)
        self.root.remove_node()
