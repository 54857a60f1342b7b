"""The painter's kit of the baked town (``game.world.ruins``): a piece of the .glb (a mesh in the table
frame with a colour per vertex and its extras), a builder of flat-shaded coloured triangles, the palette
of a ruined street in Hue, and smooth seeded patterns to paint by place. Nothing here knows a wall or a
tile; what the town is made of lives in ``ruins`` and ``ruin_walls``."""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import trimesh

BASE = 0.118
"""A tile's base (TET-3: 3 mm card or cork), inches."""
FLOOR_LIFT = 0.012
"""A floor's tiles above its base."""


Rgb = tuple[int, int, int]
PLASTER: tuple[Rgb, ...] = ((206, 170, 98), (218, 204, 164), (212, 186, 118), (196, 168, 132), (188, 176, 140))
LIMEWASH: Rgb = (222, 216, 198)
BRICK: Rgb = (150, 82, 58)
MORTAR: Rgb = (170, 156, 136)
SOOT: Rgb = (46, 42, 38)
DAMP: Rgb = (104, 100, 72)
TILE_A: Rgb = (150, 90, 66)
TILE_B: Rgb = (196, 184, 156)
DUST: Rgb = (150, 142, 128)
CORK: Rgb = (132, 106, 76)
ASPHALT: Rgb = (66, 66, 64)
DIRT: Rgb = (112, 94, 66)
CONCRETE: Rgb = (152, 148, 138)
TIMBER: Rgb = (52, 38, 28)
TERRACOTTA: Rgb = (172, 94, 60)


@dataclass
class Piece:
    """One baked node: a mesh in the table frame with a colour per vertex, and its extras."""

    name: str
    mesh: trimesh.Trimesh
    colors: np.ndarray
    extras: dict[str, Any]


def seed(*parts: str) -> int:
    return zlib.crc32("/".join(parts).encode("utf-8"))


def mix(a: Rgb, b: Rgb, t: float) -> Rgb:
    t = min(1.0, max(0.0, t))
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def shade(c: Rgb, k: float) -> Rgb:
    return tuple(int(min(255, max(0, round(v * k)))) for v in c)  # type: ignore[return-value]


class Builder:
    """Flat-shaded triangles with a colour each (vertices are not shared)."""

    def __init__(self) -> None:
        self.v: list[np.ndarray] = []
        self.c: list[np.ndarray] = []

    def tris(self, verts: np.ndarray, rgb: Rgb | np.ndarray) -> None:
        """Triangles (3 vertices each) of one colour, or of a colour each (one row per triangle)."""
        verts = np.asarray(verts, float).reshape(-1, 3)
        self.v.append(verts)
        col = np.asarray(rgb, np.uint8)
        self.c.append(np.repeat(col[None, :], len(verts), 0) if col.ndim == 1 else np.repeat(col, 3, 0))

    def painted(self, verts: np.ndarray, paint) -> None:
        """Triangles coloured at each vertex by ``paint(points) -> colours``: a colour that is a function of
        the place blends smoothly across faces."""
        verts = np.asarray(verts, float).reshape(-1, 3)
        self.v.append(verts)
        self.c.append(np.clip(np.round(paint(verts)), 0, 255).astype(np.uint8))

    def quad(self, p0, p1, p2, p3, rgb: Rgb) -> None:
        """A quad p0-p1-p2-p3, counter-clockwise seen from its front."""
        self.tris(np.array([p0, p1, p2, p0, p2, p3]), rgb)

    def mesh(self, mesh: trimesh.Trimesh, rgb: Rgb | np.ndarray) -> None:
        """Every face of ``mesh``: one colour, or one per face."""
        col = np.asarray(rgb, np.uint8)
        self.tris(np.asarray(mesh.vertices)[np.asarray(mesh.faces)].reshape(-1, 3),
                  col if col.ndim == 1 else col)

    def piece(self, name: str, extras: dict[str, Any]) -> Piece | None:
        if not self.v:
            return None
        v = np.vstack(self.v)
        faces = np.arange(len(v)).reshape(-1, 3)
        return Piece(name, trimesh.Trimesh(v, faces, process=False), np.vstack(self.c), extras)


def lerp(a: np.ndarray, b, t: np.ndarray) -> np.ndarray:
    t = np.clip(t, 0.0, 1.0)[:, None]
    return a + (np.asarray(b, float) - a) * t


def smooth(t: np.ndarray) -> np.ndarray:
    t = np.clip(t, 0.0, 1.0)
    return t * t * (3 - 2 * t)


def field(seed: int, wavelength: float, n: int = 4):
    """A smooth pattern over the table (a sum of ``n`` waves, in -1..1), the same for the same seed."""
    rng = np.random.default_rng(seed)
    waves = [(*rng.uniform(0, math.tau, 2), math.tau / (wavelength * rng.uniform(0.6, 1.4))) for _ in range(n)]

    def at(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        x, y = np.asarray(x, float), np.asarray(y, float)
        return sum(np.sin((x * math.cos(a) + y * math.sin(a)) * k + ph) for a, ph, k in waves) / n

    return at
