"""Building blocks of the set pieces, as Panda3D intervals: sprite bursts (flash, dirt, smoke, fire),
streaks (tracers, rocket trails), aircraft that fly a sampled track with turning rotors, and the camera
shake.

Everything here returns an interval (or a node an interval drives) and decides nothing: the handlers in
``effects``, ``setpieces`` and the presenter say where and when, from the engine's events. A burst is a
tiny particle system computed in closed form: each particle's spawn time, life, start point, velocity,
drag, buoyancy and size are drawn once from a seeded ``random.Random`` (cosmetic only, never a rule),
and one ``LerpFunctionInterval`` places every particle at its age on each frame. So a burst can be played
at any speed, finished at once (Space) or built ahead of time, and it leaves nothing behind: its nodes
hide at the end and the sequence's root is removed with them.

Left out: GPU particles and soft-particle depth fades (llvmpipe pays per pixel; PRESENCE.md), lights that
flash with the explosions (one more light costs every lit pixel).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np
import panda3d.core as p3d
from direct.interval.IntervalGlobal import Func, LerpFunctionInterval, Sequence, Wait

Vec = tuple[float, float, float]


# -- textures, made once from fixed seeds -------------------------------------------------------------
def _texture(name: str, rgba: np.ndarray) -> p3d.Texture:
    h, w, _ = rgba.shape
    tex = p3d.Texture(name)
    tex.setup_2d_texture(w, h, p3d.Texture.T_unsigned_byte, p3d.Texture.F_rgba8)
    # Panda wants BGRA, bottom row first
    data = np.ascontiguousarray(rgba[::-1, :, [2, 1, 0, 3]])
    tex.set_ram_image(data.tobytes())
    tex.set_wrap_u(p3d.SamplerState.WM_clamp)
    tex.set_wrap_v(p3d.SamplerState.WM_clamp)
    tex.set_minfilter(p3d.SamplerState.FT_linear_mipmap_linear)
    tex.set_magfilter(p3d.SamplerState.FT_linear)
    return tex


def _radial(size: int) -> np.ndarray:
    ax = (np.arange(size) + 0.5) / size * 2 - 1
    return np.hypot(*np.meshgrid(ax, ax))


@cache
def texture(kind: str) -> p3d.Texture:
    """``puff`` (a soft, lumpy cloud), ``flash`` (a bright core with rays), ``spark`` (a small hot dot),
    ``ring`` (a shock ring)."""
    size = 64
    r = _radial(size)
    rng = np.random.default_rng({"puff": 11, "flash": 12, "spark": 13, "ring": 14}[kind])
    white = np.ones((size, size, 3))
    if kind == "puff":
        lumps = np.zeros((size, size))
        for _ in range(7):
            cx, cy = rng.uniform(-0.35, 0.35, 2)
            rr = rng.uniform(0.3, 0.55)
            ax = (np.arange(size) + 0.5) / size * 2 - 1
            x, y = np.meshgrid(ax, ax)
            lumps = np.maximum(lumps, np.clip(1 - np.hypot(x - cx, y - cy) / rr, 0, 1))
        alpha = np.clip(lumps ** 0.8 * 1.2, 0, 1) * np.clip(1 - r, 0, 1) ** 0.5
        shade = 0.78 + 0.22 * lumps[..., None]
        rgb = white * shade
    elif kind == "flash":
        ang = np.arctan2(*np.meshgrid(np.linspace(-1, 1, size), np.linspace(-1, 1, size)))
        rays = 0.55 + 0.45 * np.cos(ang * 6) ** 8
        alpha = np.clip(1 - r / np.maximum(rays, 0.3), 0, 1) ** 1.5
        alpha = np.maximum(alpha, np.clip(1 - r * 2.2, 0, 1))
        rgb = white
    elif kind == "spark":
        alpha = np.clip(1 - r, 0, 1) ** 3
        rgb = white
    else:
        alpha = np.clip(1 - np.abs(r - 0.8) / 0.15, 0, 1) ** 2
        rgb = white
    rgba = np.concatenate([rgb, alpha[..., None]], axis=2)
    return _texture(kind, (np.clip(rgba, 0, 1) * 255).astype(np.uint8))


@cache
def _card_geom() -> p3d.GeomNode:
    cm = p3d.CardMaker("card")
    cm.set_frame(-1, 1, -1, 1)
    return cm.generate()


def sprite_layer(node: p3d.NodePath, additive: bool = False) -> p3d.NodePath:
    """Unlit, untouched by the table's shader, translucent, drawn after the table, no depth writes."""
    node.set_shader_off(20)
    node.set_light_off(20)
    node.set_depth_write(False)
    node.set_two_sided(True)
    node.set_bin("fixed", 20 if additive else 15)
    if additive:
        node.set_attrib(p3d.ColorBlendAttrib.make(p3d.ColorBlendAttrib.M_add, p3d.ColorBlendAttrib.O_incoming_alpha,
                                                  p3d.ColorBlendAttrib.O_one))
    else:
        node.set_transparency(p3d.TransparencyAttrib.M_alpha)
    return node


# -- bursts -------------------------------------------------------------------------------------------
@dataclass
class BurstSpec:
    """How a burst's particles are drawn. Times in seconds, lengths in inches (table units)."""

    kind: str = "puff"  # texture
    count: int = 12
    spawn: float = 0.0  # particles appear over this many seconds
    life: tuple[float, float] = (1.0, 2.0)
    speed: tuple[float, float] = (1.0, 3.0)
    up: tuple[float, float] = (0.0, 1.0)  # vertical share of the direction (0: flat, 1: straight up)
    cone: float = 360.0  # the horizontal spread, degrees, around ``heading``
    heading: float = 0.0
    drag: float = 1.5  # 1/s: how fast the initial speed dies away
    gravity: float = 0.0  # inches/s^2 downward (clods)
    rise: float = 0.0  # inches/s upward drift (smoke)
    size: tuple[float, float] = (0.3, 1.5)  # radius at birth and at death
    jitter: float = 0.25  # share of random spread in size and speed
    offset: float = 0.0  # start radius around the origin
    color: tuple = (1, 1, 1, 1)
    fade_in: float = 0.1  # share of the life spent fading in
    fade_out: float = 0.5  # share of the life spent fading out
    additive: bool = False
    wind: Vec = (0.0, 0.0, 0.0)  # inches/s


class Burst:
    """A set of sprites laid out by a ``BurstSpec`` from ``origin``; ``interval()`` plays it."""

    def __init__(self, parent: p3d.NodePath, origin: Vec, spec: BurstSpec, rng: random.Random,
                 push: Callable[[float, np.ndarray], np.ndarray] | None = None, floor: float | None = None,
                 period: float | None = None):
        self.spec = spec
        self.push = push
        self.floor = floor
        self.period = period  # a burst that repeats seamlessly: each particle is reborn every ``period`` s
        self.root = sprite_layer(parent.attach_new_node(f"burst-{spec.kind}"), spec.additive)
        self.root.set_pos(*origin)
        self.origin = np.array(origin, dtype=float)
        n = spec.count
        j = spec.jitter
        self.t0 = np.array([rng.uniform(0, spec.spawn) for _ in range(n)])
        self.life = np.array([rng.uniform(*spec.life) for _ in range(n)])
        dirs = []
        for _ in range(n):
            a = math.radians(spec.heading + rng.uniform(-spec.cone / 2, spec.cone / 2))
            up = rng.uniform(*spec.up)
            flat = math.sqrt(max(0.0, 1 - up * up))
            s = rng.uniform(*spec.speed)
            dirs.append((flat * math.cos(a) * s, flat * math.sin(a) * s, up * s))
        self.v0 = np.array(dirs)
        self.p0 = np.zeros((n, 3))
        if spec.offset:
            for i in range(n):
                a = rng.uniform(0, 2 * math.pi)
                rr = spec.offset * math.sqrt(rng.random())
                self.p0[i] = (rr * math.cos(a), rr * math.sin(a), 0)
        self.s0 = np.array([spec.size[0] * (1 + rng.uniform(-j, j)) for _ in range(n)])
        self.s1 = np.array([spec.size[1] * (1 + rng.uniform(-j, j)) for _ in range(n)])
        self.spin = np.array([rng.uniform(0, 360) for _ in range(n)])
        self.cards = []
        card = _card_geom()
        tex = texture(spec.kind)
        for i in range(n):
            c = self.root.attach_new_node(card.make_copy())
            c.set_texture(tex)
            c.set_billboard_point_eye()
            c.set_r(self.spin[i])
            c.hide()
            self.cards.append(c)
        self.duration = float(np.max(self.t0 + self.life)) if n else 0.0
        if period:
            self.life = np.minimum(self.life, period)
            self.duration = float(period)

    def positions(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """Particle positions (relative to the origin) at burst time ``t``, and their ages as a share of life."""
        if self.period:
            age = np.mod(t - self.t0, self.period)
            return self._at(age, t), age / self.life
        age = np.clip(t - self.t0, 0, None)
        return self._at(age, t), (t - self.t0) / self.life

    def _at(self, age: np.ndarray, t: float) -> np.ndarray:
        sp = self.spec
        k = sp.drag
        travel = self.v0 * ((1 - np.exp(-k * age)) / k if k > 0 else age)[:, None]
        p = self.p0 + travel
        p[:, 2] += sp.rise * age - 0.5 * sp.gravity * age * age
        p += np.outer(age, sp.wind)
        if self.push is not None:
            p += self.push(t, self.origin + p) * np.clip(age, 0, 1.5)[:, None]
        if self.floor is not None:
            p[:, 2] = np.maximum(p[:, 2], self.floor - self.origin[2])
        return p

    def set_time(self, t: float) -> None:
        sp = self.spec
        p, k = self.positions(t)
        r, g, b, a = sp.color
        for i, c in enumerate(self.cards):
            ki = k[i]
            if ki < 0 or ki >= 1:
                if not c.is_hidden():
                    c.hide()
                continue
            if c.is_hidden():
                c.show()
            alpha = a
            if sp.fade_in and ki < sp.fade_in:
                alpha *= ki / sp.fade_in
            if sp.fade_out and ki > 1 - sp.fade_out:
                alpha *= (1 - ki) / sp.fade_out
            c.set_pos(*p[i])
            c.set_scale(self.s0[i] + (self.s1[i] - self.s0[i]) * math.sqrt(ki))
            c.set_color_scale(r, g, b, max(0.0, alpha))

    def interval(self, delay: float = 0.0) -> Sequence:
        def hide():
            for c in self.cards:
                c.hide()
        return Sequence(Wait(delay), LerpFunctionInterval(self.set_time, self.duration, 0.0, self.duration),
                        Func(hide))


def burst(parent: p3d.NodePath, origin: Vec, spec: BurstSpec, rng: random.Random, delay: float = 0.0,
          **kw) -> Sequence:
    return Burst(parent, origin, spec, rng, **kw).interval(delay)


def cycle(parent: p3d.NodePath, origin: Vec, spec: BurstSpec, rng: random.Random, period: float) -> LerpFunctionInterval:
    """A burst that goes on for as long as it is looped, with no seam: a plume, a fire, a cloud that stays.
    ``spec.spawn`` is ignored (particles are spread over the period); lives are capped at the period."""
    b = Burst(parent, origin, BurstSpec(**{**spec.__dict__, "spawn": period}), rng, period=period)
    return LerpFunctionInterval(b.set_time, period, 0.0, period)


# -- streaks: tracers, rocket trails ------------------------------------------------------------------
def streak(parent: p3d.NodePath, start: Vec, end: Vec, color, length: float, thickness: float, speed: float,
           delay: float = 0.0, dashes: int = 1, gap: float = 0.0) -> Sequence:
    """A glowing segment (``dashes`` of them, ``gap`` apart) flying from ``start`` to ``end`` at ``speed``
    inches a second: a tracer round, or a rocket's glowing motor."""
    s, e = np.array(start, dtype=float), np.array(end, dtype=float)
    d = e - s
    dist = float(np.linalg.norm(d)) or 1e-6
    u = d / dist
    segs = p3d.LineSegs("streak")
    segs.set_thickness(thickness)
    segs.set_color(*color)
    for k in range(dashes):
        back = k * (length + gap)
        segs.move_to(*(-u * back))
        segs.draw_to(*(-u * (back + length)))
    node = sprite_layer(parent.attach_new_node(segs.create()), additive=True)
    node.hide()
    span = dist + dashes * (length + gap)
    dur = span / speed

    def at(k: float) -> None:
        node.set_pos(*(s + u * (k * span)))
        # the head never passes the end: what has arrived disappears
        node.set_color_scale(1, 1, 1, 1.0 if k * span < dist + length else 0.0)

    return Sequence(Wait(delay), Func(node.show), LerpFunctionInterval(at, dur, 0.0, 1.0), Func(node.hide))


def flash(parent: p3d.NodePath, pos: Vec, size: float, color, delay: float = 0.0, life: float = 0.18,
          kind: str = "flash") -> Sequence:
    """A bright additive sprite that swells and dies: a muzzle flash, a detonation's fireball core."""
    node = sprite_layer(parent.attach_new_node(_card_geom().make_copy()), additive=True)
    node.set_texture(texture(kind))
    node.set_billboard_point_eye()
    node.set_pos(*pos)
    node.hide()

    def at(k: float) -> None:
        node.set_scale(size * (0.6 + 0.6 * k))
        node.set_color_scale(color[0], color[1], color[2], (1 - k) ** 1.5)

    return Sequence(Wait(delay), Func(node.show), LerpFunctionInterval(at, life, 0.0, 1.0), Func(node.hide))


def ground_mark(parent: p3d.NodePath, model: p3d.NodePath, pos: Vec, scale: float, heading: float = 0.0,
                delay: float = 0.0, grow: float = 0.25) -> Sequence:
    """A model (a crater) that appears on the ground and grows to its size."""
    model.reparent_to(parent)
    model.set_pos(*pos)
    model.set_h(heading)
    model.hide()

    def at(k: float) -> None:
        model.set_scale(max(0.05, scale * min(1.0, 0.3 + k)))

    return Sequence(Wait(delay), Func(model.show), LerpFunctionInterval(at, grow, 0.0, 1.0))


# -- aircraft on a track --------------------------------------------------------------------------------
def spinners(model: p3d.NodePath) -> list[tuple[p3d.NodePath, int]]:
    """The model's turning parts (rotor_main about z, rotor_tail about y, prop about x) re-rooted on pivots
    at their hubs, so each spins about its own axis; (pivot, axis index into HPR)."""
    out = []
    for name, axis in (("rotor_main", 0), ("rotor_tail", 2), ("prop", 1)):
        part = model.find(f"**/{name}")
        if part.is_empty():
            continue
        pivot = model.attach_new_node(f"{name}-pivot")
        pivot.set_pos(part.get_pos(model))
        part.wrt_reparent_to(pivot)
        out.append((pivot, axis))
    return out


_NOSE = p3d.LQuaternionf()
_NOSE.set_hpr((90.0, 0.0, 0.0))


def aim(node: p3d.NodePath, h: float, p: float, r: float) -> None:
    """Point a model whose nose lies along +x: heading ``h`` (0 = east, counter-clockwise), pitch ``p``
    (nose up), roll ``r`` (right wing down), as an aircraft flies them. Panda's own P and R turn about x
    and y, so for such a model they would swap roll and pitch."""
    q = p3d.LQuaternionf()
    q.set_hpr((h - 90.0, p, r))
    node.set_quat(_NOSE * q)


def fly(model: p3d.NodePath, track, delay: float = 0.0, rotor_rpm: Callable[[float], float] | None = None,
        on_frame: Callable[[float, list], None] | None = None) -> Sequence:
    """Fly ``model`` along ``track`` (a ``flight.Path``; shown at the start, hidden at the end); its rotors and props turn at
    ``rotor_rpm(t)`` revolutions a minute (main rotor; tail rotors and props turn 5x as fast)."""
    spin = spinners(model)
    model.hide()
    angle = [0.0]
    last = [0.0]

    def at(t: float) -> None:
        tt = track.t[0] + t
        pos = [float(np.interp(tt, track.t, track.xyz[:, k])) for k in range(3)]
        model.set_pos(*pos)
        aim(model, *(float(np.interp(tt, track.t, track.hpr[:, k])) for k in range(3)))
        rpm = rotor_rpm(t) if rotor_rpm is not None else 324.0
        dt = max(0.0, t - last[0]) if t >= last[0] else 0.0
        last[0] = t
        # a scale rotor turns slower than a real one, or it strobes into a still disc on screen
        angle[0] = (angle[0] + rpm / 60.0 * 360.0 * dt * 0.12) % 360.0
        for pivot, axis in spin:
            h = [0.0, 0.0, 0.0]
            h[axis] = angle[0] * (5.0 if axis else 1.0)
            pivot.set_hpr(*h)
        if on_frame is not None:
            on_frame(t, pos)

    return Sequence(Wait(delay), Func(model.show), LerpFunctionInterval(at, track.duration, 0.0, track.duration),
                    Func(model.hide))


# -- camera shake -------------------------------------------------------------------------------------
class Shake:
    """Screen shake as trauma (PRESENCE.md): each blast adds trauma; shake = trauma^2 drives smooth noise
    offsets of yaw and pitch (at most 1.5 degrees) and roll (at most 0.4): no bob, no sway. Trauma decays
    by 1 a second. It moves ``base.cam`` (the lens) while the orbit camera moves ``base.camera``."""

    MAX_YAW, MAX_PITCH, MAX_ROLL = 1.5, 1.5, 0.4

    def __init__(self, cam: p3d.NodePath | None, seed: int = 3):
        self.cam = cam
        self.trauma = 0.0
        self.time = 0.0
        rng = random.Random(seed)
        self.phase = [rng.uniform(0, 100) for _ in range(3)]
        self.peak = 0.0  # the largest angle applied since the last reset (tests, benchmarks)

    def add(self, amount: float) -> None:
        self.trauma = min(1.0, self.trauma + max(0.0, amount))

    def offsets(self) -> tuple[float, float, float]:
        s = self.trauma ** 2

        def noise(k: int, f: float) -> float:
            x = self.time * f + self.phase[k]
            return (math.sin(x) + 0.5 * math.sin(2.3 * x + 1.3) + 0.25 * math.sin(4.1 * x + 2.1)) / 1.75

        return (self.MAX_YAW * s * noise(0, 13.0), self.MAX_PITCH * s * noise(1, 15.0),
                self.MAX_ROLL * s * noise(2, 11.0))

    def update(self, dt: float) -> None:
        self.time += dt
        h, p, r = self.offsets() if self.trauma > 0 else (0.0, 0.0, 0.0)
        self.trauma = max(0.0, self.trauma - dt)
        self.peak = max(self.peak, abs(h), abs(p), abs(r))
        if self.cam is not None:
            self.cam.set_hpr(h, p, r)

    def stop(self) -> None:
        self.trauma = 0.0
        if self.cam is not None:
            self.cam.set_hpr(0, 0, 0)
