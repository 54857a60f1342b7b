"""A table's glTF as ray scenes: load any .glb that follows ``docs/terrain.md`` and cast rays with Embree.

Loading reads every mesh node through trimesh, converts glTF's y-up frame to the table frame
((x, y, z) glTF -> (x, -z, y) table) and sorts the nodes by their ``extras.role``:

* ``ground`` and ``building`` nodes are *solid*: a sightline that hits one is blocked;
* ``canopy`` nodes are closed volumes: sightlines measure the inches they travel inside them;
* every other role (water, trail, paddy, bund, trench, decor ...) is scenery and ignored here.

Each kind goes into its own Embree scene (via ``embreex``) as one triangle soup, with a face -> node
table, so a cast returns the node and the face normal (entry or exit) of each hit. Canopy volumes also
get a *core*: their plan footprint shrunk by the 1" woodline band (DD-4.2), extruded far up and down so
that a 3D ray crosses it exactly where its plan projection does.

What this module leaves out: the rules. ``game.world.los`` turns hits into line of sight.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import embreex.mesh_construction as embree_mesh
import embreex.rtcore_scene as embree_scene
import numpy as np
import shapely
import trimesh
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from game.rules.data import Rulebook, TerrainType
from game.world.bake import prism, triangulate

WOODLINE_BAND = 1.0
"""Depth of the woodline band, inches (DD-4.2)."""
BAND_SLACK = 0.005
"""A stand exactly 1.00" inside still lines the woodline: the core starts just past the band."""
STEP = 1e-4
"""How far a ray moves past a hit before it is cast again (skips the twin hit on a shared edge)."""
MAX_HITS = 64
SOLID_ROLES = {"ground", "building"}
GLTF_TO_TABLE = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
"""glTF (y up) to the table frame (z up): (x, y, z) -> (x, -z, y)."""


class TerrainFileError(ValueError):
    """A terrain .glb does not follow the convention; the message names the node."""


@dataclass(frozen=True)
class Part:
    """One node of the table as the ray scenes know it."""

    node: str
    feature: str
    terrain: str
    role: str
    canopy: str | None = None
    footprint: BaseGeometry | None = field(default=None, compare=False)


class RayScene:
    """One Embree scene over a triangle soup, with each face's owner and unit normal."""

    def __init__(self, meshes: list[trimesh.Trimesh], owners: list[int]):
        verts = [m.vertices[m.faces] for m in meshes if len(m.faces)]
        self.empty = not verts
        tris = np.concatenate(verts) if verts else np.zeros((0, 3, 3))
        self.owner = np.concatenate([np.full(len(m.faces), o) for m, o in zip(meshes, owners, strict=True)]
                                    ) if meshes else np.zeros(0, int)
        n = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]) if len(tris) else np.zeros((0, 3))
        self.normal = n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-30)
        self.scene = embree_scene.EmbreeScene()
        if not self.empty:
            embree_mesh.TriangleMesh(self.scene, tris.astype(np.float32))

    def first(self, origins: np.ndarray, dirs: np.ndarray, tmax: np.ndarray | float = 1e6
              ) -> tuple[np.ndarray, np.ndarray]:
        """First hit of each ray within ``tmax``: (t, face index or -1)."""
        n = len(origins)
        if self.empty or n == 0:
            return np.full(n, np.inf), np.full(n, -1)
        dist = np.broadcast_to(np.asarray(tmax, np.float32), (n,)).astype(np.float32)
        res = self.scene.run(origins.astype(np.float32), dirs.astype(np.float32), dists=dist, output=1)
        prim = res["primID"].astype(np.int64)
        t = np.where(prim >= 0, res["tfar"].astype(np.float64), np.inf)
        return t, prim

    def all_hits(self, origins: np.ndarray, dirs: np.ndarray, tmax: np.ndarray,
                 stop: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every hit along each ray up to ``tmax``: (ray index, t, face index), unsorted.

        ``stop(rays, faces)`` may end rays early: those it marks are not cast again.
        """
        rays, ts, prims = [], [], []
        if self.empty:
            return np.zeros(0, int), np.zeros(0), np.zeros(0, int)
        live = np.nonzero(tmax > 0)[0]
        start = np.zeros(len(origins))
        for _ in range(MAX_HITS):
            if not len(live):
                break
            o = origins[live] + dirs[live] * start[live, None]
            t, prim = self.first(o, dirs[live], tmax[live] - start[live])
            hit = prim >= 0
            live, t, prim = live[hit], t[hit], prim[hit]
            rays.append(live)
            ts.append(start[live] + t)
            prims.append(prim)
            start[live] += t + STEP
            if stop is not None:
                live = live[~stop(live, prim)]
        return np.concatenate(rays), np.concatenate(ts), np.concatenate(prims)


def _footprint(mesh: trimesh.Trimesh) -> BaseGeometry:
    """Plan outline of a volume: the union of its upward faces seen from above."""
    tris = mesh.vertices[mesh.faces][:, :, :2]
    up = mesh.face_normals[:, 2] > 1e-6
    polys = shapely.polygons(np.concatenate([tris[up], tris[up][:, :1]], axis=1))
    return shapely.union_all(polys[shapely.area(polys) > 1e-12], grid_size=1e-5).buffer(0)


def _core(footprint: BaseGeometry) -> trimesh.Trimesh | None:
    """The footprint less the woodline band, as a tall prism (DD-4.2)."""
    inner = footprint.buffer(-(WOODLINE_BAND + BAND_SLACK), quad_segs=8)
    meshes = []
    for poly in (inner.geoms if isinstance(inner, MultiPolygon) else [inner]):
        if isinstance(poly, Polygon) and not poly.is_empty and poly.area > 1e-6:
            pts, tris = triangulate(poly, None)
            meshes.append(prism(pts, tris, np.full(len(pts), 500.0), np.full(len(pts), -500.0)))
    return trimesh.util.concatenate(meshes) if meshes else None


def _as_footprint(value: object, node: str) -> BaseGeometry:
    try:
        polys = [Polygon(ring) for ring in value]  # type: ignore[union-attr]
    except (TypeError, ValueError) as exc:
        raise TerrainFileError(f"node '{node}': extras.footprint should be a list of [[x, y], ...] rings") from exc
    return shapely.union_all(polys).buffer(0)


@dataclass
class TableGeometry:
    """The parts of a table and its four ray scenes."""

    width: float
    height: float
    parts: list[Part]
    ground: RayScene
    solid: RayScene
    canopy: RayScene
    core: RayScene
    top: float
    """Highest z of any solid or canopy, inches."""

    @classmethod
    def load(cls, source: str | Path | bytes, width: float, height: float, book: Rulebook) -> TableGeometry:
        """Read a .glb following ``docs/terrain.md``; raise TerrainFileError naming the bad node."""
        name = "<bytes>" if isinstance(source, bytes) else str(source)
        try:
            if isinstance(source, bytes):
                scene = trimesh.load(io.BytesIO(source), file_type="glb", force="scene")
            else:
                scene = trimesh.load(str(source), force="scene")
        except Exception as exc:  # trimesh raises many kinds on a bad file
            raise TerrainFileError(f"{name}: not a readable glTF file: {exc}") from exc
        parts: list[Part] = []
        solids: list[trimesh.Trimesh] = []
        grounds: list[trimesh.Trimesh] = []
        volumes: list[trimesh.Trimesh] = []
        solid_own: list[int] = []
        vol_own: list[int] = []
        core_meshes: list[trimesh.Trimesh] = []
        core_own: list[int] = []
        node_meta = {child: data.get("metadata") for (_, child), data in scene.graph.transforms.edge_data.items()}
        for node in sorted(scene.graph.nodes_geometry):
            transform, geom_name = scene.graph[node]
            mesh = scene.geometry[geom_name]
            if not isinstance(mesh, trimesh.Trimesh):
                continue
            extras = node_meta.get(node)
            if not isinstance(extras, dict):
                extras = mesh.metadata if isinstance(mesh.metadata, dict) else {}
            for key in ("terrain", "feature", "role"):
                if not isinstance(extras.get(key), str):
                    raise TerrainFileError(f"{name}: node '{node}' has no extras.{key} (see docs/terrain.md)")
            terrain = extras["terrain"]
            if terrain not in book.terrain:
                raise TerrainFileError(f"{name}: node '{node}': unknown terrain '{terrain}' in extras.terrain")
            role = extras["role"]
            if role not in SOLID_ROLES and role != "canopy":
                continue
            world = mesh.copy()
            world.apply_transform(transform)
            world.vertices = world.vertices @ GLTF_TO_TABLE.T
            index = len(parts)
            if role == "canopy":
                tt: TerrainType = book.terrain[terrain]
                cls_name = extras.get("canopy") or (tt.canopy if tt.canopy != "none" else terrain)
                world.merge_vertices()
                if not world.is_watertight:
                    raise TerrainFileError(
                        f"{name}: canopy node '{node}' is not a closed volume (every edge must join two faces)")
                if world.volume < 0:
                    world.invert()  # inside-out: the convention asks for outward normals; the fix is unambiguous
                footprint = _as_footprint(extras["footprint"], node) if "footprint" in extras else _footprint(world)
                parts.append(Part(node, extras["feature"], terrain, role, str(cls_name), footprint))
                volumes.append(world)
                vol_own.append(index)
                core = _core(footprint)
                if core is not None:
                    core_meshes.append(core)
                    core_own.append(index)
            else:
                plan = shapely.MultiPoint(world.vertices[:, :2]).convex_hull if role == "building" else None
                parts.append(Part(node, extras["feature"], terrain, role, None, plan))
                solids.append(world)
                solid_own.append(index)
                if role == "ground":
                    grounds.append(world)
        if not grounds:
            raise TerrainFileError(f"{name}: no node with extras.role 'ground'")
        ground_own = [i for i in solid_own if parts[i].role == "ground"]
        top = max([float(m.vertices[:, 2].max()) for m in solids + volumes])
        return cls(width, height, parts, RayScene(grounds, ground_own), RayScene(solids, solid_own),
                   RayScene(volumes, vol_own), RayScene(core_meshes, core_own), top)

