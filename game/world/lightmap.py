"""Baked light for a table: the sun's shadow and ambient occlusion on the ground, cast with Embree.

A software renderer cannot afford a real-time shadow map (it triples the frame), yet a table without
shadows reads as a flat board. So the light that does not move is baked once per table and sun: for a
grid of points on the ground (``PPI`` per inch, texel centres at ``((i + 0.5) / PPI, (j + 0.5) / PPI)``)
rays are cast from the ground

* toward the sun (a few, spread over a small disc, so shadows have a soft penumbra as under a hall's
  lamps), giving the share of sunlight that reaches it;
* over the hemisphere above it (cosine-weighted, up to ``AO_REACH`` inches), giving the share of sky it
  sees: ambient occlusion, dark under a hootch's eaves, along a woodline, at the foot of a hill.

What casts: the baked ``ground`` (hills shade their lee), ``building`` nodes (solid) and the ``canopy``
volumes, which let a share of the light through by class (``CANOPY_LIGHT_BY_CLASS``), as foliage
does (the trees drawn in them are the canopy's look; the volume is the rules' truth and stands in for them here). Sheets (water, trails,
paddies) cast nothing. The result is a ``(rows, columns, 2)`` uint8 array, row 0 at the table's south
edge: channel 0 the sunlight, channel 1 the sky seen. The client draws it on the ground through world
x/y texture coordinates (``shaders/lit.frag``).

Cached beside the baked .glb (``light-<key>.npy``), keyed by the glb's bytes, the sun's direction,
the resolution and this module's code, so a warm launch only reads a small file. The same input gives
identical bytes: ray directions come from a fixed seed. What this module leaves out: pieces, markers,
smoke and craters (they move or come later; the client gives them blob shadows), and Panda3D.
"""

from __future__ import annotations

import functools
import hashlib
import io
import math
from pathlib import Path

import numpy as np
import trimesh
from trimesh.ray.ray_pyembree import RayMeshIntersector

from game.world.cache_files import load_array, prune_arrays, save_array

LIGHTMAP_VERSION = "1"
"""Bumped whenever the baked light changes; part of the cache key."""
PPI = 6
"""Texels per inch of table (a 6'x4' table: 432 x 288)."""
SUN_RAYS = 4
"""Rays toward the sun per texel, spread over ``SUN_SPREAD``."""
SUN_SPREAD = 0.035
"""Radius of the sun's disc, radians (about 2 degrees: a lamp's soft edge rather than the real sun's)."""
AO_RAYS = 12
"""Hemisphere rays per texel."""
AO_REACH = 4.0
"""How far a solid occluder counts for ambient occlusion, inches."""
CANOPY_REACH = 10.0
"""How far a canopy volume counts for ambient occlusion, inches: from under it every ray is shaded, however
high its lumpy top; from open ground a wood shades the sky low on that side."""
CANOPY_LIGHT = 0.4
"""Share of light that passes through a canopy volume (a class not in ``CANOPY_LIGHT_BY_CLASS``)."""
CANOPY_LIGHT_BY_CLASS = {"dense": 0.35, "secondary": 0.4, "mangrove": 0.4, "bamboo": 0.55, "rubber": 0.5,
                         "light": 0.8}
"""Per canopy class (the glb's ``canopy`` extra): scrub and elephant grass, knee to head high and open,
let most of the sun through; a triple canopy least. Without it a field of scrub cast a wood's shadow."""
SOLID_ROLES = ("ground", "building")
KEEP = 64
"""Light maps kept in a cache folder; older ones are deleted when a new one is written."""
GLTF_TO_TABLE = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
"""glTF (y up) to the table frame (z up): (x, y, z) -> (x, -z, y) (docs/terrain.md)."""


def _casters(source: str | Path | bytes) -> tuple[trimesh.Trimesh, trimesh.Trimesh, dict[float, trimesh.Trimesh]]:
    """(ground, ground + buildings, canopy volumes by the share of light they let through), in the table
    frame, from a baked .glb."""
    if isinstance(source, bytes):
        scene = trimesh.load(io.BytesIO(source), file_type="glb", force="scene")
    else:
        scene = trimesh.load(str(source), force="scene")
    meta = {child: data.get("metadata") for (_, child), data in scene.graph.transforms.edge_data.items()}
    kinds: dict[str, list[trimesh.Trimesh]] = {"ground": [], "building": [], "canopy": []}
    classes: list[str] = []  # each canopy mesh's class
    for node in sorted(scene.graph.nodes_geometry):
        transform, name = scene.graph[node]
        mesh = scene.geometry[name]
        if not isinstance(mesh, trimesh.Trimesh):
            continue
        extras = meta.get(node) if isinstance(meta.get(node), dict) else mesh.metadata
        role = (extras or {}).get("role")
        if role not in kinds:
            continue
        world = trimesh.Trimesh(mesh.vertices, mesh.faces, process=False)
        world.apply_transform(transform)
        world.vertices = np.asarray(world.vertices) @ GLTF_TO_TABLE.T
        kinds[role].append(world)
        if role == "canopy":
            classes.append(str((extras or {}).get("canopy", "")))
    if not kinds["ground"]:
        raise ValueError("the table has no node with extras.role 'ground' (docs/terrain.md)")
    ground = trimesh.util.concatenate(kinds["ground"])
    solid = trimesh.util.concatenate(kinds["ground"] + kinds["building"])
    by_light: dict[float, list[trimesh.Trimesh]] = {}
    for mesh, cls in zip(kinds["canopy"], classes, strict=True):
        by_light.setdefault(CANOPY_LIGHT_BY_CLASS.get(cls, CANOPY_LIGHT), []).append(mesh)
    canopy = {k: trimesh.util.concatenate(v) for k, v in sorted(by_light.items())}
    return ground, solid, canopy


def _hemisphere(n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` stratified cosine-weighted directions about +z (a fixed pattern, rotated per texel later)."""
    u = (np.arange(n) + rng.random(n)) / n
    phi = 2 * math.pi * ((np.arange(n) * 0.618034) % 1.0)
    r = np.sqrt(u)
    return np.column_stack([r * np.cos(phi), r * np.sin(phi), np.sqrt(np.maximum(1 - u, 0.0))])


def _frame(normals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two unit tangents per normal (any pair orthogonal to it)."""
    helper = np.where(np.abs(normals[:, :1]) < 0.9, [[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0]])
    t1 = np.cross(normals, helper)
    t1 /= np.linalg.norm(t1, axis=1, keepdims=True)
    return t1, np.cross(normals, t1)


def _light_through(origins: np.ndarray, dirs: np.ndarray, solid: RayMeshIntersector,
                   canopy: dict[float, RayMeshIntersector], reach: tuple[float, float] | None) -> np.ndarray:
    """Share of light arriving along each ray: 0 past a solid, the least share of the foliage it passes
    (``CANOPY_LIGHT_BY_CLASS``), 1 clear. With ``reach`` (solid, canopy), only occluders nearer count."""
    out = np.ones(len(origins))
    layers = [(solid, 0.0, reach and reach[0])] + [(rt, keep, reach and reach[1]) for keep, rt in canopy.items()]
    for scene, keep, far in layers:
        if scene is None:
            continue
        if far is None:
            hit = scene.intersects_any(origins, dirs)
        else:
            hit = np.zeros(len(origins), dtype=bool)
            _, rays, locs = scene.intersects_id(origins, dirs, multiple_hits=False, return_locations=True)
            if len(rays):
                hit[rays[np.linalg.norm(locs - origins[rays], axis=1) < far]] = True
        out = np.where(hit, np.minimum(out, keep), out)
    return out


def _blur(img: np.ndarray) -> np.ndarray:
    """A 3x3 binomial blur, edges clamped: softens texel steps into the penumbra."""
    p = np.pad(img, 1, mode="edge")
    rows = 0.25 * p[:-2] + 0.5 * p[1:-1] + 0.25 * p[2:]
    return 0.25 * rows[:, :-2] + 0.5 * rows[:, 1:-1] + 0.25 * rows[:, 2:]


def bake_light(source: str | Path | bytes, width: float, height: float, sun: tuple[float, float, float],
               ppi: int = PPI) -> np.ndarray:
    """The light map of a baked table (path or .glb bytes) under a sun (unit vector toward it, table
    frame): ``(rows, columns, 2)`` uint8, sunlight and sky seen, row 0 at y = 0 (module docstring)."""
    ground, solid, canopy = _casters(source)
    ground_rt = RayMeshIntersector(ground)
    solid_rt = RayMeshIntersector(solid)
    canopy_rt = {keep: RayMeshIntersector(mesh) for keep, mesh in canopy.items()}
    nx, ny = max(1, round(width * ppi)), max(1, round(height * ppi))
    gx, gy = np.meshgrid((np.arange(nx) + 0.5) / ppi, (np.arange(ny) + 0.5) / ppi)
    top = float(solid.vertices[:, 2].max()) + 1.0
    origins = np.column_stack([gx.ravel(), gy.ravel(), np.full(gx.size, top)])
    down = np.tile([0.0, 0.0, -1.0], (len(origins), 1))
    tri, rays, locs = ground_rt.intersects_id(origins, down, multiple_hits=False, return_locations=True)
    points = origins.copy()
    points[:, 2] = 0.0
    normals = np.tile([0.0, 0.0, 1.0], (len(origins), 1))
    points[rays] = locs
    face_n = np.asarray(ground.face_normals)[tri]
    face_n *= np.sign(face_n[:, 2:3] + 1e-9)  # upward, whatever the winding
    normals[rays] = face_n
    start = points + normals * 0.02
    rng = np.random.default_rng(20260)
    t1, t2 = _frame(normals)

    s = np.asarray(sun, dtype=float)
    s /= np.linalg.norm(s)
    (s1,), (s2,) = _frame(s[None, :])
    sunlight = np.zeros(len(start))
    for k in range(SUN_RAYS):
        a = 2 * math.pi * (k + 0.5) / SUN_RAYS
        r = SUN_SPREAD * math.sqrt((k + 0.5) / SUN_RAYS)
        d = s + r * (math.cos(a) * s1 + math.sin(a) * s2)
        d /= np.linalg.norm(d)
        dirs = np.tile(d, (len(start), 1))
        sunlight += _light_through(start, dirs, solid_rt, canopy_rt, None)
    sunlight /= SUN_RAYS

    pattern = _hemisphere(AO_RAYS, rng)
    spin = rng.random(len(start)) * 2 * math.pi  # per-texel rotation of the pattern: noise, not bands
    cs, sn = np.cos(spin)[:, None], np.sin(spin)[:, None]
    sky = np.zeros(len(start))
    for px, py, pz in pattern:
        lx, ly = px * cs - py * sn, px * sn + py * cs
        dirs = lx * t1 + ly * t2 + pz * normals
        sky += _light_through(start, dirs, solid_rt, canopy_rt, (AO_REACH, CANOPY_REACH))
    sky /= AO_RAYS

    light = np.stack([_blur(sunlight.reshape(ny, nx)), _blur(sky.reshape(ny, nx))], axis=-1)
    return np.clip(np.round(light * 255), 0, 255).astype(np.uint8)


@functools.cache
def _code_hash() -> str:
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()


def light_key(glb: bytes, width: float, height: float, sun: tuple[float, float, float],
              ppi: int = PPI) -> str:
    """What a light map depends on: the table's bytes and size, the sun (to 1e-4), the resolution and
    this code."""
    h = hashlib.sha256(glb)
    h.update(repr((LIGHTMAP_VERSION, _code_hash(), round(width, 4), round(height, 4),
                   tuple(round(float(c), 4) for c in sun), ppi)).encode())
    return h.hexdigest()[:24]


def light_map(glb_path: str | Path, width: float, height: float, sun: tuple[float, float, float],
              ppi: int = PPI) -> tuple[np.ndarray, Path]:
    """The light map of a baked table under a sun, read from beside the .glb or baked and written there
    (atomically; a read-only folder just bakes it again next time). Returns the map and its cache path."""
    glb_path = Path(glb_path)
    data = glb_path.read_bytes()
    path = glb_path.parent / f"light-{light_key(data, width, height, sun, ppi)}.npy"
    cached = load_array(path)
    if cached is not None and cached.dtype == np.uint8 and cached.ndim == 3 and cached.shape[2] == 2:
        return cached, path
    light = bake_light(data, width, height, sun, ppi)
    save_array(path, light)
    prune_light(path.parent)
    return light, path


def prune_light(folder: Path, keep: int = KEEP) -> list[Path]:
    """Delete all but the ``keep`` newest light maps (``light-<key>.npy``, regular files) in a folder."""
    return prune_arrays(folder, "light-", keep)
