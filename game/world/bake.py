"""Bake a scenario's terrain into a glTF 2.0 binary (.glb): one geometry for the engine and the client.

What it builds (the convention is in ``docs/terrain.md``):

* the ground: a heightfield slab over the whole table, with each hill a smooth mound over its footprint
  (crest at the feature's ``height``), slightly sunken under water and paddies;
* one closed (watertight) canopy volume per vegetated feature (dense jungle, bamboo, secondary jungle,
  rubber, scrub / tall grass) and rubble: its plan outline is exactly the feature's footprint, so the
  line-of-sight rules measure depth in the wood as the rulebook does (in plan); its top is lumpy like
  foliage, lower at the rim, with rows of crowns for a rubber plantation;
* buildings (hootch walls and thatched roof, masonry, bunkers, wrecks) as solid nodes;
* flat draped sheets for water, paddies and their bunds, trails, mud, trenches, craters.

Every node carries glTF ``extras``: ``terrain``, ``feature``, ``role`` and, for canopy, ``canopy`` (its
class) and ``footprint`` (its plan outline). Units are inches. Vertices are written in glTF's y-up
frame: table (x east, y north, z up) -> glTF (x, z, -y).

The same input gives byte-identical output: shapes come from the scenario, and the foliage noise from
generators seeded with each feature's id. What this module leaves out: figures, markers, smoke and
anything that changes in play; line of sight itself (``game.world.los``).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import re
import tempfile
import time
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import shapely
import trimesh
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry
from trimesh.visual.material import PBRMaterial

from game.terrain import TerrainBook, TerrainType, sight, terrain_book
from game.world.features import Feature, canopy_heights

BAKE_VERSION = "1"
"""Bumped whenever the baked output changes; part of the cache key."""
GRID = 0.5
"""Ground heightfield spacing, inches."""
SLAB = 0.75
"""Thickness of the table board below z = 0, inches."""
WATER_SINK = 0.12
"""How far the ground is lowered under water and paddies, inches."""
CROWN_RIM = 0.25
"""A canopy raised on its trunks keeps at least this share of its depth (top less underside) at the rim,
where a low rim would otherwise dip under the foliage's underside."""
CANOPY_FLOOR = 0.1
"""How far a canopy volume reaches below the ground, so no sightline slips under it on a slope."""

Rgba = tuple[float, float, float, float]


class TableSpec(Protocol):
    """What baking needs of a scenario: its size and its terrain features."""

    width: float
    height: float
    features: tuple[Feature, ...]


# --------------------------------------------------------------------------------------------------
# Looks: base colours per role / canopy class (sRGB-ish linear factors) and vertex-colour shading.

PALETTE: dict[str, Rgba] = {
    "ground": (0.46, 0.42, 0.26, 1.0),
    "hill": (0.50, 0.47, 0.28, 1.0),
    "dense": (0.10, 0.26, 0.10, 1.0),
    "bamboo": (0.42, 0.52, 0.18, 1.0),
    "secondary": (0.22, 0.40, 0.15, 1.0),
    "rubber": (0.18, 0.34, 0.14, 1.0),
    "light": (0.55, 0.55, 0.26, 1.0),
    "rubble": (0.48, 0.45, 0.40, 1.0),
    "thatch": (0.66, 0.56, 0.32, 1.0),
    "walls": (0.55, 0.45, 0.30, 1.0),
    "masonry": (0.78, 0.74, 0.66, 1.0),
    "roof": (0.55, 0.32, 0.24, 1.0),
    "bunker": (0.36, 0.30, 0.20, 1.0),
    "wreck": (0.20, 0.20, 0.18, 1.0),
    "water": (0.24, 0.27, 0.18, 1.0),
    "paddy": (0.36, 0.36, 0.22, 1.0),
    "bund": (0.45, 0.40, 0.26, 1.0),
    "trail": (0.55, 0.42, 0.27, 1.0),
    "mud": (0.34, 0.27, 0.18, 1.0),
    "trench": (0.28, 0.22, 0.15, 1.0),
    "crater": (0.30, 0.25, 0.18, 1.0),
}


@dataclass(frozen=True)
class FoliageStyle:
    """How one canopy class is shaped."""

    spacing: float
    """Interior vertex spacing, inches."""
    rim: float
    """Top height at the footprint edge, as a share of the full height."""
    lumps: float
    """Relative amplitude of the broad lumps of the top."""
    wavelength: float
    """Typical lump size, inches."""
    jitter: float
    """Relative per-vertex roughness (bamboo spikes, grass tufts)."""


STYLES: dict[str, FoliageStyle] = {
    "dense": FoliageStyle(0.7, 0.7, 0.16, 3.5, 0.04),
    "bamboo": FoliageStyle(0.5, 0.88, 0.06, 2.0, 0.12),
    "secondary": FoliageStyle(0.6, 0.72, 0.14, 2.5, 0.05),
    "rubber": FoliageStyle(0.33, 0.55, 0.03, 4.0, 0.02),
    "light": FoliageStyle(0.5, 0.9, 0.06, 1.5, 0.06),
    "rubble": FoliageStyle(0.5, 0.85, 0.1, 1.0, 0.1),
}
RUBBER_ROW = 1.0
"""Distance between rubber tree rows and between trees in a row, inches."""


def _seed(*parts: str) -> int:
    return zlib.crc32("/".join(parts).encode("utf-8"))


def _smoothstep(t: np.ndarray) -> np.ndarray:
    t = np.clip(t, 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def _waves(rng: np.random.Generator, x: np.ndarray, y: np.ndarray, wavelength: float, n: int = 5) -> np.ndarray:
    """Smooth deterministic noise in about [-1, 1]: a sum of plane waves with random directions."""
    out = np.zeros_like(x)
    for _ in range(n):
        ang = rng.uniform(0, 2 * math.pi)
        k = 2 * math.pi / (wavelength * rng.uniform(0.6, 1.5))
        out += np.sin(k * (x * math.cos(ang) + y * math.sin(ang)) + rng.uniform(0, 2 * math.pi))
    return out / math.sqrt(n / 2.0)


# --------------------------------------------------------------------------------------------------
# Ground


class Ground:
    """The table's heightfield: hills as smooth mounds, water sunk slightly."""

    def __init__(self, width: float, height: float, hills: Sequence[Feature], sunk: Sequence[BaseGeometry]):
        self.width, self.height = width, height
        self.nx = max(2, math.ceil(width / GRID) + 1)
        self.ny = max(2, math.ceil(height / GRID) + 1)
        self.xs = np.linspace(0.0, width, self.nx)
        self.ys = np.linspace(0.0, height, self.ny)
        gx, gy = np.meshgrid(self.xs, self.ys)
        z = np.zeros_like(gx)
        for hill in hills:
            z = np.maximum(z, _mound(hill, gx, gy))
        self.dry = z.copy()
        for shape in sunk:
            inside = shapely.contains_xy(shape, gx, gy)
            z[inside] -= WATER_SINK
        self.z = z

    def _interp(self, field: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Height on the mesh's own triangles (cells split along the (i, j)-(i+1, j+1) diagonal)."""
        fx = np.clip(np.asarray(x, float) / (self.xs[1] - self.xs[0]), 0, self.nx - 1 - 1e-9)
        fy = np.clip(np.asarray(y, float) / (self.ys[1] - self.ys[0]), 0, self.ny - 1 - 1e-9)
        i, j = fx.astype(int), fy.astype(int)
        u, v = fx - i, fy - j
        z00, z10 = field[j, i], field[j, i + 1]
        z01, z11 = field[j + 1, i], field[j + 1, i + 1]
        lower = u >= v
        return np.where(lower, z00 + u * (z10 - z00) + v * (z11 - z10), z00 + v * (z01 - z00) + u * (z11 - z01))

    def at(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return self._interp(self.z, x, y)

    def dry_at(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Height before water was sunk in."""
        return self._interp(self.dry, x, y)

    def mesh(self) -> trimesh.Trimesh:
        """The board: the heightfield on top, walls down to ``-SLAB`` and a bottom."""
        nx, ny = self.nx, self.ny
        gx, gy = np.meshgrid(self.xs, self.ys)
        top = np.column_stack([gx.ravel(), gy.ravel(), self.z.ravel()])
        idx = np.arange(nx * ny).reshape(ny, nx)
        a, b, c, d = idx[:-1, :-1].ravel(), idx[:-1, 1:].ravel(), idx[1:, 1:].ravel(), idx[1:, :-1].ravel()
        faces = [np.column_stack([a, b, c]), np.column_stack([a, c, d])]
        # Skirt: the boundary ring counter-clockwise, dropped to the bottom of the slab.
        ring = np.concatenate([idx[0, :], idx[1:, -1], idx[-1, -2::-1], idx[-2:0:-1, 0]])
        base = len(top)
        bottom = top[ring].copy()
        bottom[:, 2] = -SLAB
        verts = np.vstack([top, bottom])
        n = len(ring)
        k = np.arange(n)
        k1 = (k + 1) % n
        faces.append(np.column_stack([ring[k], base + k, base + k1]))
        faces.append(np.column_stack([ring[k], base + k1, ring[k1]]))
        floor = _cap(Polygon(bottom[:, :2]), -SLAB, up=False)
        mesh = trimesh.Trimesh(verts, np.vstack(faces), process=False)
        return trimesh.util.concatenate([mesh, floor])


def _mound(hill: Feature, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """A smooth mound over the hill's footprint, crest at its height (G-01 T14)."""
    shape = hill.shape()
    inside = shapely.contains_xy(shape, gx, gy)
    z = np.zeros_like(gx)
    if not inside.any():
        return z
    d = shapely.distance(shape.boundary, shapely.points(gx[inside], gy[inside]))
    radius = max(float(d.max()), 1e-6)
    z[inside] = hill.height * _smoothstep(d / radius)
    return z


# --------------------------------------------------------------------------------------------------
# Triangulation helpers


def _parts(shape: BaseGeometry) -> list[Polygon]:
    if isinstance(shape, Polygon):
        return [shape] if not shape.is_empty else []
    if isinstance(shape, MultiPolygon):
        return [p for p in shape.geoms if not p.is_empty]
    return [g for g in getattr(shape, "geoms", []) if isinstance(g, Polygon) and not g.is_empty]


def triangulate(poly: Polygon, spacing: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Triangulate a polygon in plan, with interior points every ``spacing`` inches (None: none).

    The boundary is kept exactly (densified, never moved), so a volume built on it has the feature's
    outline. Returns (points Nx2, triangles Mx3) with triangles counter-clockwise.
    """
    edge = spacing / 2.0 if spacing else 0.5
    poly = shapely.segmentize(shapely.set_precision(poly, 1e-6), edge)
    boundary = [np.asarray(r.coords)[:-1] for r in [poly.exterior, *poly.interiors]]
    pts = np.vstack(boundary)
    if spacing:
        minx, miny, maxx, maxy = poly.bounds
        gx, gy = np.meshgrid(np.arange(minx + spacing / 2, maxx, spacing), np.arange(miny + spacing / 2, maxy, spacing))
        gx, gy = gx.ravel(), gy.ravel()
        keep = shapely.contains_xy(poly, gx, gy)
        gx, gy = gx[keep], gy[keep]
        if len(gx):
            far = shapely.distance(poly.boundary, shapely.points(gx, gy)) > 0.6 * spacing
            pts = np.vstack([pts, np.column_stack([gx[far], gy[far]])])
        tris = _delaunay_inside(poly, pts, boundary)
        if tris is not None:
            return pts, tris
        pts = np.vstack(boundary)
    cdt = shapely.constrained_delaunay_triangles(Polygon(*_rings(poly)))
    return _index_triangles(cdt, pts)


def _rings(poly: Polygon) -> tuple[list, list]:
    return list(poly.exterior.coords), [list(r.coords) for r in poly.interiors]


def _index_triangles(collection: BaseGeometry, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lookup = {(float(x), float(y)): i for i, (x, y) in enumerate(pts)}
    tris = []
    for tri in collection.geoms:
        c = np.asarray(tri.exterior.coords)[:3]
        ids = [lookup[(float(x), float(y))] for x, y in c]
        area = (c[1, 0] - c[0, 0]) * (c[2, 1] - c[0, 1]) - (c[2, 0] - c[0, 0]) * (c[1, 1] - c[0, 1])
        if abs(area) < 1e-12:
            continue
        tris.append(ids if area > 0 else ids[::-1])
    return pts, np.asarray(tris, dtype=np.int64).reshape(-1, 3)


def _delaunay_inside(poly: Polygon, pts: np.ndarray, boundary: list[np.ndarray]) -> np.ndarray | None:
    """Delaunay triangles of the points that lie inside the polygon, or None when a boundary edge is
    missing from the triangulation (then the caller falls back to a constrained triangulation)."""
    _, tris = _index_triangles(shapely.delaunay_triangles(shapely.multipoints(pts)), pts)
    cen = pts[tris].mean(axis=1)
    tris = tris[shapely.contains_xy(poly, cen[:, 0], cen[:, 1])]
    want: set[tuple[int, int]] = set()
    start = 0
    for ring in boundary:
        n = len(ring)
        for k in range(n):
            a, b = start + k, start + (k + 1) % n
            want.add((min(a, b), max(a, b)))
        start += n
    edges = np.sort(np.vstack([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]]), axis=1)
    uniq, counts = np.unique(edges, axis=0, return_counts=True)
    once = {(int(a), int(b)) for a, b in uniq[counts == 1]}
    return tris if once == want else None


def _cap(poly: Polygon, z: float, up: bool = True) -> trimesh.Trimesh:
    pts, tris = triangulate(poly, None)
    verts = np.column_stack([pts, np.full(len(pts), z)])
    return trimesh.Trimesh(verts, tris if up else tris[:, ::-1], process=False)


def prism(pts: np.ndarray, tris: np.ndarray, z_top: np.ndarray, z_bottom: np.ndarray) -> trimesh.Trimesh:
    """A closed volume over a plan triangulation: top at ``z_top``, bottom at ``z_bottom``, walls
    along the boundary edges."""
    n = len(pts)
    verts = np.vstack([np.column_stack([pts, z_top]), np.column_stack([pts, z_bottom])])
    faces = [tris, tris[:, ::-1] + n]
    directed = np.vstack([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]])
    key = directed[:, 0] * n + directed[:, 1]
    rev = directed[:, 1] * n + directed[:, 0]
    outer = directed[~np.isin(key, rev)]
    a, b = outer[:, 0], outer[:, 1]
    faces.append(np.column_stack([a, a + n, b + n]))
    faces.append(np.column_stack([a, b + n, b]))
    return trimesh.Trimesh(verts, np.vstack(faces), process=False)


def _drape(shape: BaseGeometry, ground: Ground, lift: float, dry: bool = False) -> trimesh.Trimesh | None:
    """A sheet over a plan shape, following the ground ``lift`` inches above it."""
    meshes = []
    for poly in _parts(shape):
        pts, tris = triangulate(poly, 1.0 if poly.area > 4 else None)
        z = (ground.dry_at if dry else ground.at)(pts[:, 0], pts[:, 1]) + lift
        meshes.append(trimesh.Trimesh(np.column_stack([pts, z]), tris, process=False))
    return trimesh.util.concatenate(meshes) if meshes else None


# --------------------------------------------------------------------------------------------------
# Features


@dataclass
class Node:
    """One baked node: a mesh in the table frame, its material key and its extras."""

    name: str
    mesh: trimesh.Trimesh
    look: str
    extras: dict[str, Any]
    smooth: bool = True
    shade: np.ndarray | None = None
    """Per-vertex brightness multipliers (vertex colours), or None for flat colour."""


def _canopy(feature: Feature, terrain: TerrainType, cls: str, ground: Ground, shape: BaseGeometry) -> Node:
    """A closed foliage volume over the feature's footprint (DD-4.1, G-02)."""
    style = STYLES.get(cls, STYLES["secondary"])
    bottom, top = canopy_heights(feature, terrain.canopy_bottom, terrain.canopy_top)
    rng = np.random.default_rng(_seed("canopy", feature.id))
    meshes, shades = [], []
    for poly in _parts(shape):
        pts, tris = triangulate(poly, style.spacing)
        x, y = pts[:, 0], pts[:, 1]
        depth = shapely.distance(poly.boundary, shapely.points(x, y))
        profile = style.rim + (1 - style.rim) * _smoothstep(depth / 1.5)
        if cls == "rubber":
            ang = _axis_angle(poly)
            u = x * math.cos(ang) + y * math.sin(ang)
            v = -x * math.sin(ang) + y * math.cos(ang)
            crowns = (np.abs(np.cos(math.pi * u / RUBBER_ROW)) * np.abs(np.cos(math.pi * v / RUBBER_ROW))) ** 0.6
            profile = np.where(depth > 0.2, style.rim + (1 - style.rim) * crowns, style.rim)
        shape_noise = 1 + style.lumps * _waves(rng, x, y, style.wavelength)
        jitter = 1 + style.jitter * rng.uniform(-1, 1, len(x))
        jitter[depth < 1e-6] = 1.0  # keep the rim even so walls are not spiky
        h = top * profile * shape_noise * jitter
        h = np.clip(h, 0.75 * top * style.rim, 1.35 * top)
        if bottom > 0:  # crowns up on their trunks: the rim's foliage stays above its own underside
            h = np.maximum(h, bottom + CROWN_RIM * (top - bottom))
        g = ground.dry_at(x, y)
        z_bottom = g + bottom - CANOPY_FLOOR if bottom <= 0 else g + bottom
        meshes.append(prism(pts, tris, g + h, z_bottom))
        rel = (h - h.min()) / max(float(np.ptp(h)), 1e-6)
        shade_top = 0.72 + 0.38 * rel + rng.uniform(-0.05, 0.05, len(x))
        shades.append(np.concatenate([shade_top, np.full(len(x), 0.55)]))
    mesh = trimesh.util.concatenate(meshes)
    extras = {
        "terrain": feature.type, "feature": feature.id, "role": "canopy", "canopy": cls,
        "footprint": [[[round(px, 4), round(py, 4)] for px, py in p.exterior.coords[:-1]] for p in _parts(shape)],
    }
    return Node(f"canopy:{feature.id}", mesh, cls, extras, True, np.concatenate(shades))


def _axis_angle(poly: Polygon) -> float:
    """Direction of the long side of a polygon's minimum rotated rectangle, radians."""
    c = np.asarray(poly.minimum_rotated_rectangle.exterior.coords)
    e1, e2 = c[1] - c[0], c[2] - c[1]
    e = e1 if np.hypot(*e1) >= np.hypot(*e2) else e2
    return math.atan2(e[1], e[0])


def _rectangle(feature: Feature) -> tuple[np.ndarray, float]:
    """Corners (counter-clockwise, 4x2) and long-axis angle of a building's footprint."""
    rect = feature.shape().minimum_rotated_rectangle
    c = np.asarray(rect.exterior.coords)[:4]
    if Polygon(c).exterior.is_ccw is False:
        c = c[::-1]
    return c, _axis_angle(rect)


def _convex(verts: np.ndarray, faces: list[tuple[int, int, int]]) -> trimesh.Trimesh:
    """A convex solid from its faces, each turned to face away from the centre."""
    f = np.asarray(faces, dtype=np.int64)
    centre = verts.mean(axis=0)
    normal = np.cross(verts[f[:, 1]] - verts[f[:, 0]], verts[f[:, 2]] - verts[f[:, 0]])
    inward = np.einsum("ij,ij->i", normal, verts[f].mean(axis=1) - centre) < 0
    f[inward] = f[inward][:, ::-1]
    return trimesh.Trimesh(verts, f, process=False)


def _frustum(lower: np.ndarray, z0: float, upper: np.ndarray, z1: float) -> trimesh.Trimesh:
    """A box or frustum between two counter-clockwise quadrilaterals."""
    verts = np.vstack([np.column_stack([lower, np.full(4, z0)]), np.column_stack([upper, np.full(4, z1)])])
    faces = [(0, 1, 2), (0, 2, 3), (4, 5, 6), (4, 6, 7)]
    for i in range(4):
        j = (i + 1) % 4
        faces += [(i, j, 4 + j), (i, 4 + j, 4 + i)]
    return _convex(verts, faces)


def _hip_roof(centre: np.ndarray, axis: np.ndarray, length: float, width: float, z0: float, z1: float
              ) -> trimesh.Trimesh:
    """A thatched hip roof: eaves ``length`` x ``width`` at ``z0``, ridge along ``axis`` at ``z1``."""
    perp = np.array([-axis[1], axis[0]])
    a, w = length / 2.0, width / 2.0
    ridge = max(a - 0.8 * w, 0.05)
    plan = [centre + axis * sa + perp * sp for sa, sp in ((a, -w), (a, w), (-a, w), (-a, -w))]
    plan += [centre + axis * ridge, centre - axis * ridge]
    z = [z0] * 4 + [z1, z1]
    verts = np.column_stack([np.asarray(plan), z])
    faces = [(1, 2, 5), (1, 5, 4), (3, 0, 4), (3, 4, 5), (0, 1, 4), (2, 3, 5), (0, 1, 2), (0, 2, 3)]
    return _convex(verts, faces)


def _building(feature: Feature, terrain: TerrainType, ground: Ground) -> list[Node]:
    """Hootch, masonry building, bunker or wreck: solid nodes that block sight (G-01 T10/T11/T13/T15)."""
    corners, ang = _rectangle(feature)
    height = feature.height if feature.height > 0 else terrain.building_height
    base = float(ground.dry_at(corners[:, 0], corners[:, 1]).min()) - 0.05
    centre = corners.mean(axis=0)
    extras = {"terrain": feature.type, "feature": feature.id, "role": "building"}

    def box(c: np.ndarray, z0: float, z1: float) -> trimesh.Trimesh:
        return _frustum(c, z0, c, z1)

    def grow(c: np.ndarray, by: float) -> np.ndarray:
        out = c - centre
        return centre + out * (1 + by / max(float(np.linalg.norm(out, axis=1).min()), 1e-6))

    axis = np.array([math.cos(ang), math.sin(ang)])
    length = float(np.ptp((corners - centre) @ axis))
    width = float(np.ptp((corners - centre) @ np.array([-axis[1], axis[0]])))
    if terrain.id == "hootch":
        eave = base + 0.05 + 0.45 * height
        walls = box(corners, base, eave + 0.02)
        roof = _hip_roof(centre, axis, length + 0.3, width + 0.3, eave - 0.06, base + height)
        return [Node(f"building:{feature.id}:walls", walls, "walls", extras, False),
                Node(f"building:{feature.id}:roof", roof, "thatch", extras, False)]
    if terrain.fortification:
        mound = _frustum(grow(corners, 0.15), base, grow(corners, -0.2), base + 0.05 + height)
        return [Node(f"building:{feature.id}", mound, "bunker", extras, False)]
    if terrain.id == "wreck":
        return [Node(f"building:{feature.id}", box(corners, base, base + height), "wreck", extras, False)]
    walls = box(corners, base, base + height)
    roof = box(grow(corners, 0.04), base + height - 0.02, base + height + 0.06)
    return [Node(f"building:{feature.id}:walls", walls, "masonry", extras, False),
            Node(f"building:{feature.id}:roof", roof, "roof", extras, False)]


def _sheet(feature: Feature, role: str, look: str, ground: Ground, lift: float, dry: bool = False,
           shape: BaseGeometry | None = None, suffix: str = "") -> list[Node]:
    table = shapely.box(0.0, 0.0, ground.width, ground.height)
    mesh = _drape((shape if shape is not None else feature.shape()).intersection(table), ground, lift, dry)
    if mesh is None or len(mesh.faces) == 0:
        return []
    extras = {"terrain": feature.type, "feature": feature.id, "role": role}
    return [Node(f"{role}:{feature.id}{suffix}", mesh, look, extras, False)]


def canopy_class(terrain: TerrainType) -> str | None:
    """The class a terrain's LOS volume is baked as: its canopy, or its id when it limits sight
    without foliage (rubble, G-02); None when it is not a volume."""
    if terrain.canopy != "none":
        return terrain.canopy
    if not terrain.building and 0 < terrain.los_cutoff < sight().open.limit and not terrain.overlay:
        return terrain.id
    return None


def build_nodes(spec: TableSpec, book: TerrainBook | None = None) -> list[Node]:
    """Every node of the baked table, in a stable order: ground, then features in scenario order."""
    book = book or terrain_book()
    terrains = [(f, book.terrain[f.type]) for f in spec.features]
    hills = [f for f, t in terrains if t.elevation]
    sunk = [f.shape() for f, t in terrains if t.water or t.id == "paddy"]
    ground = Ground(spec.width, spec.height, hills, sunk)
    gmesh = ground.mesh()
    gz = gmesh.vertices[:, 2]
    g_shade = 0.85 + 0.25 * _smoothstep(gz / 3.0) + np.random.default_rng(_seed("ground")).uniform(-0.04, 0.04, len(gz))
    g_shade[gz < -0.01] = 0.7
    nodes = [Node("ground", gmesh, "ground", {"terrain": "open", "feature": "table", "role": "ground",
                                              "hills": [f.id for f in hills]}, True, g_shade)]
    for feature, terrain in terrains:
        cls = canopy_class(terrain)
        if terrain.elevation:
            continue
        if cls is not None:
            table = shapely.box(0.0, 0.0, spec.width, spec.height)
            nodes.append(_canopy(feature, terrain, cls, ground, feature.shape().intersection(table)))
        elif terrain.building:
            nodes.extend(_building(feature, terrain, ground))
        elif terrain.water:
            nodes.extend(_sheet(feature, "water", "water", ground, -0.04, dry=True))
        elif terrain.id == "paddy":
            shape = feature.shape()
            nodes.extend(_sheet(feature, "paddy", "paddy", ground, -0.03, dry=True))
            ring = shape.buffer(0.15, join_style="mitre").difference(shape.buffer(-0.15, join_style="mitre"))
            nodes.extend(_sheet(feature, "bund", "bund", ground, 0.07, dry=True, shape=ring, suffix=":bunds"))
        elif terrain.id == "bund":
            nodes.extend(_sheet(feature, "bund", "bund", ground, 0.07, dry=True))
        elif terrain.trail:
            nodes.extend(_sheet(feature, "trail", "trail", ground, 0.02))
        elif terrain.id == "trench":
            shape = feature.shape()
            nodes.extend(_sheet(feature, "trench", "trench", ground, 0.015))
            berm = shape.buffer(0.2).difference(shape)
            nodes.extend(_sheet(feature, "trench", "bunker", ground, 0.1, shape=berm, suffix=":berm"))
        elif terrain.id in ("crater", "spider_hole", "mud"):
            nodes.extend(_sheet(feature, terrain.id, "crater" if terrain.id != "mud" else "mud", ground, 0.015))
        else:
            nodes.extend(_sheet(feature, terrain.id, "trail", ground, 0.015))
    return nodes


# --------------------------------------------------------------------------------------------------
# Export

TABLE_TO_GLTF = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]])
"""Table frame (x east, y north, z up) to glTF (y up): (x, y, z) -> (x, z, -y). A rotation."""


def _vertex_normals(v: np.ndarray, f: np.ndarray) -> np.ndarray:
    fn = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    vn = np.zeros_like(v)
    for k in range(3):
        np.add.at(vn, f[:, k], fn)
    length = np.linalg.norm(vn, axis=1, keepdims=True)
    return vn / np.where(length > 0, length, 1.0)


def _material(look: str) -> PBRMaterial:
    r, g, b, a = PALETTE[look]
    return PBRMaterial(name=look, baseColorFactor=[r, g, b, a], metallicFactor=0.0, roughnessFactor=0.92)


def _export(node: Node) -> trimesh.Trimesh:
    mesh = node.mesh
    v = np.asarray(mesh.vertices, float)
    f = np.asarray(mesh.faces, np.int64)
    shade = node.shade
    if not node.smooth:
        v, f = v[f].reshape(-1, 3), np.arange(len(f) * 3).reshape(-1, 3)
        shade = None if shade is None else shade[np.asarray(mesh.faces).ravel()]
    normals = _vertex_normals(v, f)
    out = trimesh.Trimesh(np.round(v @ TABLE_TO_GLTF.T, 4), f, process=False)
    out.vertex_normals = np.round(normals @ TABLE_TO_GLTF.T, 5)
    out.visual = trimesh.visual.TextureVisuals(material=_material(node.look))
    if shade is not None:
        level = np.clip(np.round(np.asarray(shade) * 200), 0, 255).astype(np.uint8)
        out.visual.vertex_attributes["color"] = np.column_stack([level, level, level, np.full(len(level), 255, np.uint8)])
    return out


def bake_glb(scenario: TableSpec, book: TerrainBook | None = None) -> bytes:
    """Bake the scenario's terrain to a deterministic .glb (see the module docstring)."""
    nodes = build_nodes(scenario, book)
    scene = trimesh.Scene()
    extras: dict[str, dict[str, Any]] = {}
    for node in nodes:
        scene.add_geometry(_export(node), node_name=node.name, geom_name=node.name)
        extras[node.name] = node.extras
    scene.metadata = {"dinkydau": {"bake_version": BAKE_VERSION, "units": "inch",
                                   "table": [float(scenario.width), float(scenario.height)]}}

    def post(tree: dict) -> None:
        tree["asset"]["generator"] = f"dinkydau bake {BAKE_VERSION} (trimesh {trimesh.__version__})"
        for key in ("images", "textures"):
            if not tree.get(key):
                tree.pop(key, None)
        views = tree.get("bufferViews", [])
        for mesh in tree.get("meshes", []):
            for prim in mesh["primitives"]:
                for acc in prim["attributes"].values():
                    views[tree["accessors"][acc]["bufferView"]]["target"] = 34962  # ARRAY_BUFFER
                if "indices" in prim:
                    views[tree["accessors"][prim["indices"]]["bufferView"]]["target"] = 34963  # ELEMENT_ARRAY
        for gnode in tree.get("nodes", []):
            if gnode.get("name") in extras:
                gnode["extras"] = extras[gnode["name"]]

    return trimesh.exchange.gltf.export_glb(scene, include_normals=True, tree_postprocessor=post)


# --------------------------------------------------------------------------------------------------
# Cache and command line


def cache_dir() -> Path:
    """``$DINKYDAU_CACHE`` or ``~/.cache/dinkydau``."""
    env = os.environ.get("DINKYDAU_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "dinkydau"


@functools.cache
def _code_hash() -> str:
    """The hash of the bake's source, this module's and ``game.world.features``' (whose
    ``canopy_heights`` it bakes by): part of the cache key."""
    from game.world import features

    return hashlib.sha256(b"".join(Path(f).read_bytes() for f in (__file__, features.__file__))).hexdigest()


def terrain_key(scenario: TableSpec, book: TerrainBook | None = None) -> str:
    """Content hash of what the bake depends on: the table, its features, their terrain rows, this code."""
    book = book or terrain_book()
    used = sorted({f.type for f in scenario.features})
    blob = {
        "version": BAKE_VERSION,
        "code": _code_hash(),
        "table": [scenario.width, scenario.height],
        "features": [asdict(f) for f in scenario.features],
        "terrain": {t: asdict(book.terrain[t]) for t in used},
    }
    return hashlib.sha256(json.dumps(blob, sort_keys=True, default=list).encode()).hexdigest()[:24]


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` at ``path`` through a temporary file and a rename: a reader sees all or nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


KEEP_BAKES = 32
"""Baked tables kept in the cache folder: when a new one is baked, all but the ``KEEP_BAKES`` most
recently used are deleted (a few MB each; a process fed thousands of inline tables would fill the disk)."""
TOUCH_AFTER = 600.0
"""A bake found older than this (seconds) is touched when it is used again, so it counts as recent."""
STALE_TMP = 3600.0
"""A half-written bake (``table-*.glb.*.tmp``, left by a process that died writing it) older than this
(seconds) is deleted too."""
_BAKED = re.compile(r"table-[0-9a-f]{24}\.glb")
_PARTIAL = re.compile(r"table-[0-9a-f]{24}\.glb\..+\.tmp")
_HANDED: OrderedDict[Path, None] = OrderedDict()
"""The bakes this process handed out last (never deleted while among the ``KEEP_BAKES`` latest)."""


def baked_path(scenario: TableSpec, book: TerrainBook | None = None) -> Path:
    """The baked .glb of a scenario's table, baking it on demand; cached by content hash, and at most
    ``KEEP_BAKES`` (and the ones this process used last) kept (:func:`prune_bakes`)."""
    path = cache_dir() / f"table-{terrain_key(scenario, book)}.glb"
    try:
        age = time.time() - path.stat().st_mtime
    except OSError:
        age = None
    _HANDED[path] = None
    _HANDED.move_to_end(path)
    while len(_HANDED) > KEEP_BAKES:
        _HANDED.popitem(last=False)
    if age is None:
        write_atomic(path, bake_glb(scenario, book))
        prune_bakes(path.parent)
    elif age > TOUCH_AFTER:
        with contextlib.suppress(OSError):  # a read-only cache still serves its bakes
            os.utime(path)
    return path


def prune_bakes(folder: Path | None = None, keep: int | None = None) -> list[Path]:
    """Delete the baked tables in the cache folder beyond the ``keep`` most recently used (by modification
    time; those this process handed out last are kept too), and half-written ones left long ago. Only
    regular files directly in the folder and named as a bake (``table-<hash>.glb``) are ever deleted:
    nothing else in the folder (the client's models and saves may share it), nothing outside it, no link.
    Returns what was deleted."""
    folder = cache_dir() if folder is None else folder
    keep = KEEP_BAKES if keep is None else keep
    bakes: list[tuple[int, str]] = []
    partial: list[str] = []
    now = time.time()
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                whole = _BAKED.fullmatch(name) is not None
                if not whole and _PARTIAL.fullmatch(name) is None:
                    continue
                try:
                    if not entry.is_file(follow_symlinks=False):
                        continue
                    mtime = entry.stat(follow_symlinks=False).st_mtime_ns
                except OSError:
                    continue
                if whole:
                    bakes.append((mtime, name))
                elif now - mtime / 1e9 > STALE_TMP:
                    partial.append(name)
    except OSError:
        return []
    bakes.sort(reverse=True)
    handed = {p.name for p in _HANDED if p.parent == folder}
    doomed = [name for _, name in bakes[keep:] if name not in handed] + partial
    removed = []
    for name in doomed:
        target = folder / name
        try:
            target.unlink()
        except OSError:
            continue
        removed.append(target)
    return removed


def main_bake(scenario: TableSpec, out: str | Path | None = None) -> Path:
    """``dinkydau bake SCENARIO [--out FILE]``: bake a scenario's table (``game.cli`` resolves the
    scenario, by id or file, so the world never imports the rules)."""
    if out is None:
        return baked_path(scenario)
    target = Path(out)
    write_atomic(target, bake_glb(scenario))
    return target
