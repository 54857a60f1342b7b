"""The walls of the baked town (``game.world.ruins``; TET-3): each wall drawn as a slab with its doors and
windows cut out and a broken top above its height, painted by place, and the same wall as the engine
reads it (``exposure.stops``: as thin as its plane), the sheet that blocks sight. It leaves out the
ground, the tiles, the floors and the rubble (``ruins``)."""

from __future__ import annotations

import math
from typing import Any, Protocol

import numpy as np
import shapely

from game.world.ruin_kit import (
    BASE,
    BRICK,
    DAMP,
    LIMEWASH,
    MORTAR,
    SOOT,
    Builder,
    Piece,
    Rgb,
    field,
    lerp,
    mix,
    seed,
    shade,
    smooth,
)

THICK = 0.15
"""A drawn wall's thickness, inches (the engine's wall is its plane)."""
RAGGED = 0.55
"""The most a broken wall top rises above the wall's height."""
CELL = 0.25
"""A wall's cells (along it and up it), for its breaks and its stains."""

class WallSpec(Protocol):
    """A wall as ``exposure.Wall``: ``id``, ``a``, ``b``, ``height``, ``openings`` (``kind``, ``start``,
    ``end``, ``bottom``, ``top``)."""

    id: str
    a: tuple[float, float]
    b: tuple[float, float]
    height: float
    openings: tuple[Any, ...]



def _breaks(lo: float, hi: float, fixed: list[float], step: float) -> np.ndarray:
    """Breakpoints from ``lo`` to ``hi``: the ``fixed`` ones within, and more so no gap passes ``step``."""
    pts = sorted({round(v, 6) for v in [lo, hi, *fixed] if lo <= v <= hi})
    out = [pts[0]]
    for p in pts[1:]:
        n = max(1, math.ceil((p - out[-1]) / step - 1e-9))
        out.extend(out[-1] + (p - out[-1]) * k / n for k in range(1, n))
        out.append(p)
    return np.array(out)


def _inside_opening(wall: WallSpec, u: float, z: float) -> bool:
    return any(o.start <= u <= o.end and o.bottom <= z <= o.top for o in wall.openings)


def _ragged(wall: WallSpec, us: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The broken top over each column of the wall, at or above its height: a walk of fallen brick with
    a pier left standing here and there."""
    n = len(us) - 1
    walk = np.cumsum(rng.normal(0.0, 0.09, n))
    walk = walk - walk.min()
    tops = wall.height + np.clip(walk, 0.0, RAGGED * 0.6)
    for _ in range(rng.integers(0, 3)):
        k = int(rng.integers(0, n))
        tops[k] = wall.height + RAGGED * rng.uniform(0.6, 1.0)
    tops[rng.uniform(0, 1, n) < 0.25] = wall.height
    return np.maximum(np.round(tops / 0.05) * 0.05, wall.height)


def wall_frame(wall: WallSpec):
    a = np.array(wall.a, float)
    d = np.array(wall.b, float) - a
    length = float(np.linalg.norm(d))
    d = d / length
    n = np.array([-d[1], d[0]])

    def at(u: float, w: float, z: float) -> np.ndarray:
        p = a + d * u + n * w
        return np.array([p[0], p[1], z])

    return length, n, at


def _plaster(wall: WallSpec, colour: Rgb, inner: Rgb | None):
    """The paint of a wall's face, by place (u along it, z up it): plaster (limewash on the inside),
    mottled, damp at its foot, sooted over its doors and windows, streaked under its sills, fallen away
    to the brick in patches; brick wherever it rises above the wall's height."""
    key = seed("plaster", wall.id, "in" if inner else "out")
    mottle, grain, loss, line = (field(key + k, w) for k, w in ((1, 0.9), (2, 0.22), (3, 0.8), (4, 1.6)))
    base = np.array(inner or colour, float)

    def paint(u: np.ndarray, z: np.ndarray) -> np.ndarray:
        c = base * (1 + 0.07 * mottle(u, z) + 0.035 * grain(u, z))[:, None]
        damp = 0.32 + 0.1 * line(u, 0 * u)
        c = lerp(c, DAMP, 0.55 * smooth((damp - z) / 0.22))
        for o in wall.openings:
            near = smooth(1 - np.maximum(o.start - u, u - o.end) / 0.3)
            c = lerp(c, SOOT, 0.65 * near * smooth(1 - (z - o.top) / 0.7) * (z >= o.top - 1e-6))
            if o.bottom > 0:
                c = lerp(c, DAMP, 0.35 * near * smooth(1 - (o.bottom - z) / 0.9) * (z <= o.bottom + 1e-6))
        fallen = smooth((loss(u, z) - 0.42) / 0.08) if inner is None else smooth((loss(u, z) - 0.55) / 0.08)
        brick = lerp(np.repeat(np.array([BRICK], float), len(u), 0), MORTAR, 0.25 + 0.2 * grain(u, z))
        c = c * (1 - fallen[:, None]) + brick * fallen[:, None]
        high = (z > wall.height + 1e-6)[:, None]
        return np.where(high, brick, c)

    return paint


def wall_slab(wall: WallSpec, building: Any, colour: Rgb) -> Piece | None:
    """The drawn wall: cells of ``CELL`` along and up it, solid outside its openings and under its
    broken top, painted by ``_plaster`` (a colour per vertex, by place) with shell pocks on both faces."""
    length, n, at = wall_frame(wall)
    rng = np.random.default_rng(seed("wall", wall.id))
    half = THICK / 2
    opens = [v for o in wall.openings for v in (o.start, o.end)]
    us = np.concatenate([[-half], _breaks(0.0, length, opens, CELL), [length + half]])
    above = [wall.height + 0.05 * k for k in range(1, int(RAGGED / 0.05) + 1)]
    zs = _breaks(0.0, wall.height, [BASE, *[v for o in wall.openings for v in (o.bottom, o.top)]], CELL)
    zs = np.concatenate([zs, above])
    tops = _ragged(wall, us, rng)
    nu, nz = len(us) - 1, len(zs) - 1
    solid = np.zeros((nu, nz), bool)
    for i in range(nu):
        um = (us[i] + us[i + 1]) / 2
        for j in range(nz):
            zm = (zs[j] + zs[j + 1]) / 2
            solid[i, j] = zm < tops[i] and not (0 <= um <= length and _inside_opening(wall, um, zm))
    mid = np.array(at(length / 2, 0.0, 0.0))[:2]
    inside = 1.0 if building.floor.buffer(-1e-3).contains(shapely.Point(*(mid + n * 0.3))) else -1.0
    faces = {1.0: _plaster(wall, colour, LIMEWASH if inside > 0 else None),
             -1.0: _plaster(wall, colour, LIMEWASH if inside < 0 else None)}
    a, d = np.array(wall.a, float), (np.array(wall.b, float) - np.array(wall.a, float)) / length

    def local(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (pts[:, :2] - a) @ d, pts[:, 2]

    def face(side: float):
        return lambda pts: faces[side](*local(pts))

    b = Builder()
    fronts: dict[float, list] = {1.0: [], -1.0: []}
    for i in range(nu):
        for j in range(nz):
            if not solid[i, j]:
                continue
            u0, u1, z0, z1 = us[i], us[i + 1], zs[j], zs[j + 1]
            fronts[1.0].append([at(u0, half, z0), at(u0, half, z1), at(u1, half, z1),
                                at(u0, half, z0), at(u1, half, z1), at(u1, half, z0)])
            fronts[-1.0].append([at(u0, -half, z0), at(u1, -half, z0), at(u1, -half, z1),
                                 at(u0, -half, z0), at(u1, -half, z1), at(u0, -half, z1)])
            brick = mix(BRICK, MORTAR, rng.uniform(0, 0.4))
            if i == 0 or not solid[i - 1, j]:
                b.quad(at(u0, -half, z0), at(u0, -half, z1), at(u0, half, z1), at(u0, half, z0), brick)
            if i == nu - 1 or not solid[i + 1, j]:
                b.quad(at(u1, -half, z0), at(u1, half, z0), at(u1, half, z1), at(u1, -half, z1), brick)
            if j == nz - 1 or not solid[i, j + 1]:
                b.quad(at(u0, -half, z1), at(u0, half, z1), at(u1, half, z1), at(u1, -half, z1), brick)
            if j > 0 and not solid[i, j - 1]:
                b.quad(at(u0, -half, z0), at(u1, -half, z0), at(u1, half, z0), at(u0, half, z0), shade(colour, 0.8))
    for side, quads in fronts.items():
        if quads:
            b.painted(np.array(quads), face(side))
        _pocks(b, wall, rng, at, side * (half + 0.004), int(rng.integers(8, 18)))
    return b.piece(f"wall:{wall.id}", {"tet": "wall", "wall": wall.id, "building": building.id, "blocks": False,
                                       "sight": f"sight:{wall.id}"})


def _pocks(b: Builder, wall: WallSpec, rng: np.random.Generator, at, w: float, count: int) -> None:
    """Bullet and shell-splinter pocks on a face: small dark craters with a ring of fresh plaster."""
    length = math.dist(wall.a, wall.b)
    k = np.linspace(0, math.tau, 9)[:-1]
    for _ in range(count):
        u, z = rng.uniform(0.1, length - 0.1), rng.uniform(BASE + 0.1, wall.height - 0.08)
        r = rng.uniform(0.02, 0.06) * (2.2 if rng.uniform() < 0.12 else 1.0)
        if any(o.start - r <= u <= o.end + r and o.bottom - r <= z <= o.top + r for o in wall.openings):
            continue
        ring = [at(u + r * math.cos(t), w, z + r * math.sin(t)) for t in k]
        centre = at(u, w, z)
        tri = []
        for m in range(8):
            p, q = ring[m], ring[(m + 1) % 8]
            tri.extend([centre, q, p] if w > 0 else [centre, p, q])
        cols = np.tile(np.array([[78, 48, 38], [196, 180, 150], [196, 180, 150]], float), (8, 1))
        b.v.append(np.array(tri, float))
        b.c.append(cols.astype(np.uint8))


def wall_sight(wall: WallSpec, building: Any) -> Piece | None:
    """The wall as ``exposure.stops`` reads it: its plane from z = 0 to its height, less its openings."""
    length, _, at = wall_frame(wall)
    opens = [v for o in wall.openings for v in (o.start, o.end)]
    us = _breaks(0.0, length, opens, length)
    zs = _breaks(0.0, wall.height, [v for o in wall.openings for v in (o.bottom, o.top)], wall.height)
    b = Builder()
    for i in range(len(us) - 1):
        for j in range(len(zs) - 1):
            u0, u1, z0, z1 = us[i], us[i + 1], zs[j], zs[j + 1]
            if _inside_opening(wall, (u0 + u1) / 2, (z0 + z1) / 2):
                continue
            b.quad(at(u0, 0, z0), at(u1, 0, z0), at(u1, 0, z1), at(u0, 0, z1), (255, 0, 255))
    return b.piece(f"sight:{wall.id}", {"tet": "sight", "wall": wall.id, "building": building.id, "blocks": True})
