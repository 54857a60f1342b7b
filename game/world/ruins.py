"""Bake a Tet '68 town (TET-3) into a glTF binary (.glb): one geometry for the engine and the client.

Public API (``game.world.ruins``; the world never imports Panda3D nor the rules: a scenario is read
through ``TownSpec``, which ``game.rulesets.tet68.scenario.TetScenario`` satisfies):

* ``town_nodes(spec) -> list[Piece]``: every node of the baked town, in a stable order;
* ``bake_town_glb(spec) -> bytes``: the .glb itself (deterministic: the same town, the same bytes);
* ``town_key(spec) -> str`` and ``town_path(spec) -> Path``: the content hash and the cached bake
  (``<cache>/table-<key>.glb``, pruned with Dinky Dau's tables by ``game.world.bake.prune_bakes``);
* ``main_bake_town(spec, out=None) -> Path``: ``dinkydau bake hue_street [--out FILE]``.

Frame and units as Dinky Dau's tables (``docs/terrain.md``): inches (G-41: 1" = 1 m), table x east,
y north, z up, written in glTF's y-up frame as (x, z, -y). z = 0 is the table (the roads); a tile's base
is 3 mm (``BASE``) thick; the engine measures every height from z = 0 (``exposure.py``).

Nodes, named ``kind:id``, each with ``extras`` (``tet`` names the kind; ``blocks`` says whether it stops
a ray as the engine's ``exposure.stops`` does):

* ``road:town`` ``{"tet": "road", "blocks": false}``: the board between the tiles (asphalt, dirt);
* ``pavement:town`` ``{"tet": "pavement", "blocks": false}``: kerbed pavements round the tiles;
* ``tile:<tile>`` ``{"tet": "tile", "tile", "building"?, "blocks": false}``: a base of cork or card;
* ``floor:<building>`` ``{"tet": "floor", "building", "tile", "level": 0, "blocks": false}``: tiled;
* ``wall:<wall>`` ``{"tet": "wall", "wall", "building", "blocks": false, "sight": "sight:<wall>"}``:
  the drawn wall, a ``THICK`` slab centred on the wall's line with its doors and windows cut out at the
  openings' bottoms and tops, and a broken top that only ever rises above the wall's height;
* ``sight:<wall>`` ``{"tet": "sight", "wall", "building", "blocks": true}``: the wall as the engine
  reads it (as thin as its plane): a flat sheet on the wall's line from z = 0 to its height, with the
  same openings cut out; it lies inside the slab, so a client hides it (it is never to be drawn);
* ``rubble:<building>`` and ``debris:<building>`` / ``debris:<tile>`` (its yard) / ``debris:town``
  ``{"tet": "rubble" | "debris", "building"? or "tile"?, "blocks": false}``: heaps of brick and plaster,
  fallen walls as low broken lines, chips, roof tiles, scorched beams.

A ray is blocked exactly when it meets a ``blocks`` node (``tests/world/test_ruins.py`` casts thousands
against ``exposure.py``). To cut a house away, hide its ``wall:`` nodes (and never show ``sight:``).
Colours are vertex colours over a white material. The walls are built in ``ruin_walls``, the colours and
the triangle builder are ``ruin_kit``'s; this module lays the ground, tiles, floors and rubble and writes
the file. What it leaves out: figures (``models/tet_*.glb``), markers, upper storeys (the town has none
yet), anything that changes in play, and line of sight itself.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import time
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import shapely
import trimesh
from shapely.geometry import MultiPoint, box
from shapely.ops import unary_union
from trimesh.visual.material import PBRMaterial

from game.world.bake import TABLE_TO_GLTF, cache_dir, prism, prune_bakes, triangulate, write_atomic
from game.world.ruin_kit import (
    ASPHALT,
    BASE,
    BRICK,
    CONCRETE,
    CORK,
    DIRT,
    DUST,
    FLOOR_LIFT,
    MORTAR,
    PLASTER,
    SOOT,
    TERRACOTTA,
    TILE_A,
    TILE_B,
    TIMBER,
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
from game.world.ruin_walls import THICK, wall_frame, wall_sight, wall_slab

__all__ = ["BASE", "THICK", "Piece", "TownSpec", "bake_town_glb", "main_bake_town", "town_key", "town_nodes",
           "town_path"]

RUINS_VERSION = "1"
"""Bumped whenever the baked town changes; part of the cache key."""
BOARD = 0.75
"""The table board below z = 0, inches."""
KERB = 0.05
"""A pavement's height above the road."""
PAVEMENT = 0.7
"""How far a pavement reaches out from a tile."""


class TownSpec(Protocol):
    """What the bake needs of a Tet '68 scenario: its table and its town (``town.tiles``: ``id``,
    ``area``, ``building`` with ``id``, ``floor`` and ``walls``)."""

    width: float
    height: float
    town: Any




# --------------------------------------------------------------------------------------------------
# Ground, tiles, floors


def _flat(poly, z: float, spacing: float | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A triangulated plan shape at height ``z``: (vertices, triangles, points in plan)."""
    pts, tris = triangulate(poly, spacing)
    return np.column_stack([pts, np.full(len(pts), z)]), tris, pts


def _road(spec: TownSpec, tiles_shape) -> Piece:
    """The board between the tiles: asphalt worn to dirt, wet patches, grit, scorched shell holes; the
    board's edge below."""
    road = box(0, 0, spec.width, spec.height)
    road = road.difference(tiles_shape) if tiles_shape is not None else road
    pts, tris = triangulate(road, 0.45)
    solid = prism(pts, tris, np.zeros(len(pts)), np.full(len(pts), -BOARD))
    worn, grit, wet = field(seed("road", "worn"), 3.0), field(seed("road", "grit"), 0.5), field(seed("road", "wet"), 4.0)
    rng = np.random.default_rng(seed("road", "holes"))
    holes = [(rng.uniform(0, spec.width), rng.uniform(0, spec.height), rng.uniform(0.35, 0.7)) for _ in range(6)]

    def paint(p: np.ndarray) -> np.ndarray:
        x, y, z = p[:, 0], p[:, 1], p[:, 2]
        c = lerp(np.repeat(np.array([ASPHALT], float), len(p), 0), DIRT, 0.5 + 0.55 * worn(x, y))
        c = c * (1 + 0.08 * grit(x, y))[:, None]
        c = c * (1 - 0.2 * smooth((wet(x, y) - 0.45) / 0.1))[:, None]
        for hx, hy, r in holes:
            d = np.hypot(x - hx, y - hy) / r
            c = lerp(c, SOOT, 0.75 * smooth(1.3 - d))
            c = lerp(c, DIRT, 0.5 * smooth(1 - abs(d - 1.3) / 0.3))
        return np.where((z < -1e-6)[:, None], np.array([70, 52, 36], float), c)

    b = Builder()
    b.painted(solid.vertices[solid.faces], paint)
    return b.piece("road:town", {"tet": "road", "blocks": False})  # type: ignore[return-value]


def _pavement(spec: TownSpec, tiles_shape) -> Piece | None:
    """Kerbed concrete pavements round the tiles, cracked into flags."""
    if tiles_shape is None:
        return None
    ring = tiles_shape.buffer(PAVEMENT, join_style="mitre").difference(tiles_shape)
    ring = ring.intersection(box(0, 0, spec.width, spec.height))
    b = Builder()
    for poly in getattr(ring, "geoms", [ring]):
        if poly.is_empty or poly.area < 1e-6:
            continue
        pts, tris = triangulate(poly, None)
        solid = prism(pts, tris, np.full(len(pts), KERB), np.zeros(len(pts)))
        mid = solid.vertices[solid.faces].mean(1)
        flag = (np.floor(mid[:, 0] / 0.5) + 3 * np.floor(mid[:, 1] / 0.5)).astype(int)
        shades = np.random.default_rng(seed("flags")).uniform(0.88, 1.08, 4096)
        cols = [shade(CONCRETE, shades[f % 4096] * (0.8 if m[2] < KERB - 1e-6 else 1.0)) for f, m in zip(flag, mid, strict=True)]
        b.mesh(solid, np.array(cols, np.uint8))
    return b.piece("pavement:town", {"tet": "pavement", "blocks": False})


def _tile(tile: Any) -> Piece:
    """A tile's base: a courtyard of beaten earth, cork and weeds on top, card at its edges."""
    pts, tris = triangulate(tile.area, 0.5)
    solid = prism(pts, tris, np.full(len(pts), BASE), np.zeros(len(pts)))
    earth, weeds, grit = (field(seed("tile", tile.id, k), w) for k, w in (("e", 1.5), ("w", 0.7), ("g", 0.3)))

    def paint(p: np.ndarray) -> np.ndarray:
        x, y, z = p[:, 0], p[:, 1], p[:, 2]
        c = lerp(np.repeat(np.array([CORK], float), len(p), 0), DIRT, 0.5 + 0.5 * earth(x, y))
        c = lerp(c, (88, 96, 52), 0.6 * smooth((weeds(x, y) - 0.35) / 0.2))
        c = c * (1 + 0.07 * grit(x, y))[:, None]
        return np.where((z < BASE - 1e-6)[:, None], np.array([176, 164, 138], float), c)

    b = Builder()
    b.painted(solid.vertices[solid.faces], paint)
    extras = {"tet": "tile", "tile": tile.id, "blocks": False}
    if tile.building is not None:
        extras["building"] = tile.building.id
    return b.piece(f"tile:{tile.id}", extras)  # type: ignore[return-value]


def _floor(tile: Any) -> Piece | None:
    """A building's floor: cement tiles in a chequer with a border, dusty, a few lifted or scorched."""
    bld = tile.building
    rng = np.random.default_rng(seed("floor", bld.id))
    minx, miny, maxx, maxy = bld.floor.bounds
    size = 0.25
    z = BASE + FLOOR_LIFT
    dust = field(seed("dust", bld.id), 2.0)
    ni, nj = int(math.ceil((maxx - minx) / size)), int(math.ceil((maxy - miny) / size))
    tris, base = [], []
    for i in range(ni):
        for j in range(nj):
            x0, y0 = minx + i * size, miny + j * size
            x1, y1 = min(maxx, x0 + size), min(maxy, y0 + size)
            cell = box(x0, y0, x1, y1)
            border = min(i, j, ni - 1 - i, nj - 1 - j) == 1
            c = shade((92, 84, 72) if border else TILE_A if (i + j) % 2 else TILE_B, rng.uniform(0.92, 1.05))
            if rng.uniform() < 0.04:
                c = shade(SOOT, 1.6)  # a tile lifted, or scorched
            if bld.floor.contains(cell):  # a whole tile: two triangles
                quad = [(x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)]
                tris.extend([(x, y, z) for x, y in quad])
                base.extend([c] * 6)
                continue
            piece = bld.floor.intersection(cell)
            for poly in getattr(piece, "geoms", [piece]):
                if poly.geom_type != "Polygon" or poly.area < 1e-6:
                    continue
                verts, faces, _ = _flat(poly, z, None)
                tris.extend(map(tuple, verts[faces].reshape(-1, 3)))
                base.extend([c] * (3 * len(faces)))
    if not tris:
        return None
    colours = np.array(base, float)
    b = Builder()
    b.painted(np.array(tris), lambda p: lerp(colours, DUST, 0.4 + 0.3 * dust(p[:, 0], p[:, 1])))
    return b.piece(f"floor:{bld.id}", {"tet": "floor", "building": bld.id, "tile": tile.id, "level": 0, "blocks": False})


# --------------------------------------------------------------------------------------------------
# Rubble and debris


def _lump(rng: np.random.Generator, centre, radius: float, height: float) -> trimesh.Trimesh:
    m = trimesh.creation.icosphere(subdivisions=1, radius=1.0)
    v = m.vertices * rng.uniform(0.8, 1.2, (len(m.vertices), 1))
    v = v * np.array([radius, radius * rng.uniform(0.6, 1.0), height])
    v[:, 2] = np.maximum(v[:, 2], 0.0)
    return trimesh.Trimesh(v + np.array(centre), m.faces, process=False)


_BOX = trimesh.creation.box(extents=(1.0, 1.0, 1.0))
_BOX_V, _BOX_F = np.asarray(_BOX.vertices), np.asarray(_BOX.faces)


def _chunk(rng: np.random.Generator, centre, size: float) -> trimesh.Trimesh:
    """A chip of brick or plaster, turned and tilted as it fell."""
    extents = size * rng.uniform(0.5, 1.0, 3) * np.array([1.6, 1.0, 0.6])
    turn = trimesh.transformations.rotation_matrix(rng.uniform(0, math.tau), [0, 0, 1])[:3, :3]
    tilt = trimesh.transformations.rotation_matrix(rng.uniform(-0.5, 0.5), [1, 0, 0])[:3, :3]
    v = (_BOX_V * extents) @ (tilt @ turn).T + np.array(centre) + [0, 0, size * 0.2]
    return trimesh.Trimesh(v, _BOX_F, process=False)


def _rubble(tile: Any, colour: Rgb) -> Piece | None:
    """Heaps of fallen brick and plaster against the walls, clear of the doors and windows, and low
    (under 0.35"): the engine counts no rubble in sight (TET-3 rubble is ground for movement)."""
    bld = tile.building
    rng = np.random.default_rng(seed("rubble", bld.id))
    inner = bld.floor.buffer(-0.35)
    if inner.is_empty:
        return None
    b = Builder()
    for wall in bld.walls:
        length, n, at = wall_frame(wall)
        mid = np.array(at(length / 2, 0, 0))[:2]
        side = 1.0 if bld.floor.contains(shapely.Point(*(mid + n * 0.3))) else -1.0
        for _ in range(int(rng.integers(1, 3))):
            u = rng.uniform(0.6, max(0.7, length - 0.6))
            if any(o.start - 0.6 <= u <= o.end + 0.6 for o in wall.openings):
                continue
            c = np.array(at(u, side * rng.uniform(0.35, 0.6), BASE + FLOOR_LIFT))
            for _ in range(int(rng.integers(3, 6))):
                off = np.append(rng.normal(0, 0.18, 2), 0.0)
                b.mesh(_lump(rng, c + off, rng.uniform(0.15, 0.32), rng.uniform(0.08, 0.2)),
                       mix(mix(colour, BRICK, rng.uniform(0.1, 0.6)), DUST, rng.uniform(0.3, 0.7)))
            for _ in range(int(rng.integers(6, 12))):
                p = c + np.append(rng.normal(0, 0.3, 2), rng.uniform(0.05, 0.15))
                b.mesh(_chunk(rng, p, rng.uniform(0.06, 0.14)), mix(BRICK, colour, rng.uniform(0, 0.6)))
    _fallen_walls(b, bld, colour, rng)
    return b.piece(f"rubble:{bld.id}", {"tet": "rubble", "building": bld.id, "blocks": False})


def _fallen_walls(b: Builder, bld: Any, colour: Rgb, rng: np.random.Generator) -> None:
    """Where a floor's edge has no wall, the wall that fell: a low, broken line of brick and plaster
    (under 0.2", with gaps a man steps through) along it."""
    standing = unary_union([shapely.LineString([w.a, w.b]) for w in bld.walls]).buffer(0.3) if bld.walls else None
    ring = bld.floor.exterior
    for k in range(len(ring.coords) - 1):
        edge = shapely.LineString([ring.coords[k], ring.coords[k + 1]])
        bare = edge.difference(standing) if standing is not None else edge
        for line in getattr(bare, "geoms", [bare]):
            if line.is_empty or line.length < 0.4:
                continue
            for t in np.arange(0.2, line.length - 0.1, 0.28):
                if rng.uniform() < 0.3:
                    continue
                x, y = line.interpolate(t).coords[0]
                c = np.array([x, y, BASE]) + np.append(rng.normal(0, 0.08, 2), 0.0)
                b.mesh(_lump(rng, c, rng.uniform(0.1, 0.22), rng.uniform(0.05, 0.16)),
                       mix(mix(colour, BRICK, rng.uniform(0.1, 0.7)), DUST, rng.uniform(0.3, 0.65)))
                if rng.uniform() < 0.5:
                    b.mesh(_chunk(rng, c + np.append(rng.normal(0, 0.15, 2), 0.08), rng.uniform(0.06, 0.12)),
                           mix(BRICK, MORTAR, rng.uniform(0, 0.4)))


def _scatter(name: str, shape, n: int, z: float, key: int, colours: tuple[Rgb, ...], extras: dict) -> Piece | None:
    """Chips, tiles and scorched beams scattered over a plan shape."""
    if shape is None or shape.is_empty:
        return None
    rng = np.random.default_rng(key)
    minx, miny, maxx, maxy = shape.bounds
    xs, ys = rng.uniform(minx, maxx, n * 3), rng.uniform(miny, maxy, n * 3)
    keep = shapely.contains_xy(shape, xs, ys)
    b = Builder()
    for x, y in list(zip(xs[keep], ys[keep], strict=True))[:n]:
        beam = None
        if rng.uniform() < 0.08:
            beam = trimesh.creation.box(extents=[rng.uniform(0.8, 1.6), 0.08, 0.06])
            beam.apply_transform(trimesh.transformations.rotation_matrix(rng.uniform(0, math.tau), [0, 0, 1]))
            beam.apply_translation([x, y, z + 0.03])
            if not shape.contains(MultiPoint(beam.vertices[:, :2]).convex_hull):
                beam = None  # it would run into a wall and show its end on the far face as a dark block
        if beam is not None:
            b.mesh(beam, shade(TIMBER, rng.uniform(0.8, 1.2)))
        else:
            b.mesh(_chunk(rng, (x, y, z), rng.uniform(0.04, 0.1)), shade(colours[int(rng.integers(len(colours)))],
                                                                          rng.uniform(0.85, 1.1)))
    return b.piece(name, extras)


# --------------------------------------------------------------------------------------------------
# The town


def _colour(building_id: str) -> Rgb:
    return PLASTER[seed("plaster", building_id) % len(PLASTER)]


def town_nodes(spec: TownSpec) -> list[Piece]:
    """Every node of the baked town, in a stable order: the road, the pavements, then tile by tile its
    base, floor, walls and their sight sheets, rubble and debris; last the street's debris."""
    tiles = list(spec.town.tiles)
    tiles_shape = unary_union([t.area for t in tiles]) if tiles else None
    pieces: list[Piece | None] = [_road(spec, tiles_shape), _pavement(spec, tiles_shape)]
    for tile in tiles:
        pieces.append(_tile(tile))
        bld = tile.building
        if bld is None:
            continue
        colour = _colour(bld.id)
        pieces.append(_floor(tile))
        for wall in bld.walls:
            pieces.append(wall_slab(wall, bld, colour))
            pieces.append(wall_sight(wall, bld))
        pieces.append(_rubble(tile, colour))
        pieces.append(_scatter(f"debris:{bld.id}", bld.floor.buffer(-0.25), 45, BASE + FLOOR_LIFT,
                               seed("debris", bld.id), (BRICK, colour, TERRACOTTA, DUST),
                               {"tet": "debris", "building": bld.id, "blocks": False}))
        yard = tile.area.difference(bld.floor).buffer(-0.2)
        pieces.append(_scatter(f"debris:{tile.id}", yard, 30, BASE, seed("debris", tile.id),
                               (TERRACOTTA, BRICK, colour, DUST), {"tet": "debris", "tile": tile.id, "blocks": False}))
    if tiles_shape is not None:
        street = box(0, 0, spec.width, spec.height).difference(tiles_shape.buffer(PAVEMENT + 0.1))
        pieces.append(_scatter("debris:town", street, 140, 0.0, seed("debris", "town"),
                               (BRICK, TERRACOTTA, DUST, CONCRETE), {"tet": "debris", "blocks": False}))
    return [p for p in pieces if p is not None]


def _export(piece: Piece) -> trimesh.Trimesh:
    """A piece in glTF's frame, flat-shaded, its corners that share a place, a normal and a colour welded
    into one vertex (a flat floor or road keeps a few vertices where it had three a triangle)."""
    v = np.asarray(piece.mesh.vertices, float)
    f = np.asarray(piece.mesh.faces, np.int64)
    fn = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    fn /= np.where((ln := np.linalg.norm(fn, axis=1, keepdims=True)) > 0, ln, 1.0)
    corners = f.reshape(-1)
    pos = np.round(v[corners] @ TABLE_TO_GLTF.T, 4)
    normal = np.round(np.repeat(fn, 3, 0) @ TABLE_TO_GLTF.T, 4)
    rgba = np.column_stack([piece.colors[corners], np.full(len(corners), 255, np.uint8)]).astype(np.uint8)
    key = np.column_stack([pos, normal, rgba])
    _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
    out = trimesh.Trimesh(pos[first], inverse.reshape(-1, 3), process=False)
    out.vertex_normals = normal[first]
    out.visual = trimesh.visual.TextureVisuals(material=PBRMaterial(
        name=piece.extras["tet"], baseColorFactor=[1.0, 1.0, 1.0, 1.0], metallicFactor=0.0, roughnessFactor=0.9))
    out.visual.vertex_attributes["color"] = rgba[first]
    return out


def bake_town_glb(spec: TownSpec) -> bytes:
    """Bake the town to a deterministic .glb (see the module docstring)."""
    pieces = town_nodes(spec)
    scene = trimesh.Scene()
    extras: dict[str, dict[str, Any]] = {}
    for piece in pieces:
        scene.add_geometry(_export(piece), node_name=piece.name, geom_name=piece.name)
        extras[piece.name] = piece.extras
    scene.metadata = {"dinkydau": {"ruins_version": RUINS_VERSION, "units": "inch", "ruleset": "tet68",
                                   "table": [float(spec.width), float(spec.height)], "base": BASE}}

    def post(tree: dict) -> None:
        tree["asset"]["generator"] = f"dinkydau bake town {RUINS_VERSION} (trimesh {trimesh.__version__})"
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


@functools.cache
def _code_hash() -> str:
    """The hash of the bake's code (this module, its walls and its kit), read once: part of the cache key."""
    here = Path(__file__).parent
    return hashlib.sha256(b"".join((here / f).read_bytes() for f in ("ruins.py", "ruin_walls.py", "ruin_kit.py"))).hexdigest()


def _describe(spec: TownSpec) -> dict:
    tiles = []
    for t in spec.town.tiles:
        row: dict[str, Any] = {"id": t.id, "area": list(t.area.exterior.coords)}
        if t.building is not None:
            bld = t.building
            row["building"] = {"id": bld.id, "floor": list(bld.floor.exterior.coords), "walls": [
                {"id": w.id, "a": list(w.a), "b": list(w.b), "height": w.height,
                 "openings": [[o.kind, o.start, o.end, o.bottom, o.top] for o in w.openings]} for w in bld.walls]}
        tiles.append(row)
    return {"table": [spec.width, spec.height], "tiles": tiles}


def town_key(spec: TownSpec) -> str:
    """Content hash of what the bake depends on: the table, its tiles, buildings and walls, this code."""
    blob = {"version": RUINS_VERSION, "code": _code_hash(), "town": _describe(spec)}
    return hashlib.sha256(json.dumps(blob, sort_keys=True, default=list).encode()).hexdigest()[:24]


def town_path(spec: TownSpec) -> Path:
    """The baked .glb of a town, baked on demand and cached by content hash in the folder of Dinky Dau's
    baked tables (named as they are, so ``prune_bakes`` keeps the folder bounded)."""
    path = cache_dir() / f"table-{town_key(spec)}.glb"
    try:
        age = time.time() - path.stat().st_mtime
    except OSError:
        age = None
    if age is None:
        write_atomic(path, bake_town_glb(spec))
        prune_bakes(path.parent)
    elif age > 600.0:
        with contextlib.suppress(OSError):
            os.utime(path)
    return path


def main_bake_town(spec: TownSpec, out: str | Path | None = None) -> Path:
    """``dinkydau bake <tet scenario> [--out FILE]``: the cached bake, or one written to ``out``."""
    if out is None:
        return town_path(spec)
    target = Path(out)
    write_atomic(target, bake_town_glb(spec))
    return target
