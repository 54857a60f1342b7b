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

import bisect
import ctypes
import io
import math
import os
import struct
import threading
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import embreex.mesh_construction as embree_mesh
import embreex.rtcore_scene as embree_scene
import numpy as np
import shapely
import trimesh
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from game.terrain import TerrainBook, TerrainType, sight
from game.world import canopy_reading
from game.world.bake import prism, triangulate

WOODLINE_BAND = sight().woodline.band
"""Depth of the woodline band, inches (DD-4.2; sight.toml [woodline])."""
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
        del verts
        self.owner = np.concatenate([np.full(len(m.faces), o) for m, o in zip(meshes, owners, strict=True)]
                                    ) if meshes else np.zeros(0, int)
        self.tris32 = tris.astype(np.float32)
        """Each face's corners as Embree stores them (float32), n x 3 x 3."""
        n = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]) if len(tris) else np.zeros((0, 3))
        del tris
        self.normal = n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-30)
        del n
        self.scene = embree_scene.EmbreeScene()
        if not self.empty:
            embree_mesh.TriangleMesh(self.scene, self.tris32)
        # compact mirrors for the single-ray path: indexing an array.array gives a plain Python number
        self.owner_list = array("i", self.owner.astype(np.int32).tobytes())
        """Each face's owner, as an ``array('i')``."""
        self.nx_list, self.ny_list, self.nz_list = (array("d", np.ascontiguousarray(self.normal[:, k]).tobytes())
                                                    for k in range(3))
        """Each face's unit normal, one ``array('d')`` a component (the same float64 values)."""
        self._local = threading.local()
        self._direct: _Direct | None = None
        if not self.empty:
            # embreex builds its BVH on the first query: build it now, then try the direct path
            self.scene.run(np.zeros((1, 3), np.float32), np.array([[0.0, 0.0, 1.0]], np.float32))
            self._direct = _Direct.attach(self)

    @property
    def tris(self) -> np.ndarray:
        """Each face's corners as Embree stores them, as float64 (a fresh n x 3 x 3 array each call)."""
        return self.tris32.astype(np.float64)

    def first(self, origins: np.ndarray, dirs: np.ndarray, tmax: np.ndarray | float = 1e6, dirs32: bool = False
              ) -> tuple[np.ndarray, np.ndarray]:
        """First hit of each ray within ``tmax``: (t, face index or -1). ``dirs32``: ``dirs`` is already
        the float32 array Embree takes."""
        n = len(origins)
        if self.empty or n == 0:
            return np.full(n, np.inf), np.full(n, -1)
        dist = np.empty(n, np.float32)
        dist[...] = tmax
        res = self.scene.run(origins.astype(np.float32), dirs if dirs32 else dirs.astype(np.float32), dists=dist,
                             output=1)
        prim = res["primID"].astype(np.int64)
        t = np.where(prim >= 0, dist.astype(np.float64), np.inf)  # Embree writes each hit's t into dist
        return t, prim

    def first1(self, o: tuple[float, float, float], d: tuple[float, float, float], tmax: float = 1e6
               ) -> tuple[float, int]:
        """:meth:`first` for one ray, without the array work: (t or inf, face index or -1)."""
        if self.empty:
            return math.inf, -1
        if self._direct is not None:
            return self._direct.first(o, d, tmax)
        return self._first1_embreex(o, d, tmax)

    def _first1_embreex(self, o: tuple[float, float, float], d: tuple[float, float, float], tmax: float
                        ) -> tuple[float, int]:
        buf = self._buffers()
        buf[0][0], buf[1][0], buf[2][0] = o, d, tmax
        prim = int(self.scene.run(buf[0], buf[1], dists=buf[2], output=1)["primID"][0])
        return (float(buf[2][0]), prim) if prim >= 0 else (math.inf, -1)

    def blocked1(self, o: tuple[float, float, float], d: tuple[float, float, float], tmax: float) -> bool:
        """:meth:`blocked` for one ray."""
        if self.empty:
            return False
        if self._direct is not None:
            return self._direct.blocked(o, d, tmax)
        return self._blocked1_embreex(o, d, tmax)

    def _blocked1_embreex(self, o: tuple[float, float, float], d: tuple[float, float, float], tmax: float) -> bool:
        buf = self._buffers()
        buf[0][0], buf[1][0], buf[2][0] = o, d, tmax
        return bool(self.scene.run(buf[0], buf[1], dists=buf[2], query="OCCLUDED")[0] >= 0)

    def casters(self) -> tuple[Callable[..., tuple[float, int]], Callable[..., bool]]:
        """Single-ray functions (see :meth:`_Direct.casters`), through ctypes where it could attach."""
        if self._direct is not None:
            return self._direct.casters()
        if self.empty:
            return (lambda *_: (math.inf, -1)), (lambda *_: False)
        return ((lambda ox, oy, oz, dx, dy, dz, tmax: self._first1_embreex((ox, oy, oz), (dx, dy, dz), tmax)),
                (lambda ox, oy, oz, dx, dy, dz, tmax: self._blocked1_embreex((ox, oy, oz), (dx, dy, dz), tmax)))

    def raw_first(self) -> tuple | None:
        """:meth:`first1` in pieces, for a caller's own loop (see :meth:`_Direct.raw`), or None where the
        direct path is not in use."""
        return self._direct.raw() if self._direct is not None else None

    def _buffers(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        buf = getattr(self._local, "buf", None)
        if buf is None:
            buf = self._local.buf = (np.zeros((1, 3), np.float32), np.zeros((1, 3), np.float32), np.zeros(1, np.float32))
        return buf

    def blocked(self, origins: np.ndarray, dirs: np.ndarray, tmax: np.ndarray | float, dirs32: bool = False
                ) -> np.ndarray:
        """Does each ray hit anything within ``tmax``? (Embree's occlusion query: any hit, not the first.)"""
        n = len(origins)
        if self.empty or n == 0:
            return np.zeros(n, bool)
        dist = np.empty(n, np.float32)
        dist[...] = tmax
        return self.scene.run(origins.astype(np.float32), dirs if dirs32 else dirs.astype(np.float32), dists=dist,
                              query="OCCLUDED") >= 0

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


_INVALID = 0xFFFFFFFF
_RAYHIT = struct.Struct("<8ff3I5f3I")
"""Embree 4's RTCRayHit up to instID[0]: org, tnear, dir, time, tfar, mask, id, flags; Ng, u, v, primID,
geomID, instID."""
_RAY = struct.Struct("<8ff3I")
_TFAR_PRIM = struct.Struct("<f32xI")
_TFAR = struct.Struct("<f")


class _Direct:
    """Single rays cast straight into the Embree scene embreex built, through ``ctypes``.

    ``embreex`` answers one ray in about 6 µs, nearly all of it building and reading numpy arrays; the
    same ``rtcIntersect1`` called here takes about 1.4 µs. The scene is embreex's own (its C pointer read
    off the ``EmbreeScene`` object), so the answers are the same rays on the same BVH. The layout is
    checked before use (object size, a probe of the field after the pointer, 64 rays compared with
    embreex); if anything differs, or ``DINKYDAU_EMBREE_DIRECT=0``, :class:`RayScene` keeps to embreex.
    """

    _lib: ctypes.CDLL | None = None
    _tried = False

    def __init__(self, scene_ptr: int):
        self.scene = ctypes.c_void_p(scene_ptr)
        self._local = threading.local()

    @classmethod
    def library(cls) -> ctypes.CDLL | None:
        if not cls._tried:
            cls._tried = True
            try:
                with open("/proc/self/maps") as fh:
                    paths = {line.split()[-1] for line in fh if "libembree4" in line and "/" in line}
                if len(paths) == 1:
                    lib = ctypes.CDLL(paths.pop())
                    for name, args in (("rtcIntersect1", 3), ("rtcOccluded1", 3)):
                        fn = getattr(lib, name)
                        fn.argtypes = [ctypes.c_void_p] * args
                        fn.restype = None
                    cls._lib = lib
            except OSError:
                cls._lib = None
        return cls._lib

    @classmethod
    def attach(cls, rs: RayScene) -> _Direct | None:
        if os.environ.get("DINKYDAU_EMBREE_DIRECT", "1") == "0" or cls.library() is None:
            return None
        obj = rs.scene
        if type(obj).__basicsize__ != 40 or not obj.is_committed:
            return None
        base = id(obj)
        # EmbreeScene is {PyObject_HEAD; RTCScene scene_i; int is_committed; EmbreeDevice device}
        probe = ctypes.c_int.from_address(base + 24)
        saved = obj.is_committed
        obj.is_committed = 0x5EED
        layout_ok = probe.value == 0x5EED
        obj.is_committed = saved
        if not layout_ok:
            return None
        direct = cls(ctypes.c_void_p.from_address(base + 16).value or 0)
        if not direct.scene.value:
            return None
        rng = np.random.default_rng(0)
        corners = rs.tris32.reshape(-1, 3).astype(np.float64)
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        origins = rng.uniform(lo, hi, (64, 3))
        dirs = rng.normal(size=(64, 3))
        dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
        for o, d in zip(origins.tolist(), dirs.tolist(), strict=True):
            if direct.first(o, d, 1e6) != rs._first1_embreex(o, d, 1e6):
                return None
            if direct.blocked(o, d, 5.0) != rs._blocked1_embreex(o, d, 5.0):
                return None
        return direct

    def casters(self) -> tuple[Callable[..., tuple[float, int]], Callable[..., bool]]:
        """Single-ray functions for the calling thread: ``first(ox, oy, oz, dx, dy, dz, tmax)`` ->
        (t or inf, face or -1) and ``blocked(ox, oy, oz, dx, dy, dz, tmax)`` -> bool."""
        fns = getattr(self._local, "fns", None)
        if fns is None:
            raw, off, ptr = self._buffer()
            scene, isect, occl = self.scene, self._lib.rtcIntersect1, self._lib.rtcOccluded1  # type: ignore[union-attr]
            pack_hit, pack_ray, read_hit, read_t = _RAYHIT.pack_into, _RAY.pack_into, _TFAR_PRIM.unpack_from, _TFAR.unpack_from
            inv, inf, at = _INVALID, math.inf, off + 32

            def first(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, tmax: float
                      ) -> tuple[float, int]:
                pack_hit(raw, off, ox, oy, oz, 0.0, dx, dy, dz, 0.0, tmax, inv, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0,
                         inv, inv, inv)
                isect(scene, ptr, None)
                t, prim = read_hit(raw, at)
                return (t, prim) if prim != inv else (inf, -1)

            def blocked(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, tmax: float) -> bool:
                pack_ray(raw, off, ox, oy, oz, 0.0, dx, dy, dz, 0.0, tmax, inv, 0, 0)
                occl(scene, ptr, None)
                return read_t(raw, at)[0] == -inf

            fns = self._local.fns = (first, blocked)
        return fns

    def raw(self) -> tuple:
        """The first-hit cast of :meth:`casters` in pieces, for the calling thread: (pack, buffer, offset,
        rtcIntersect1, scene, ray pointer, read, offset of tfar). A cast is ``pack(buffer, offset, ox, oy, oz,
        0.0, dx, dy, dz, 0.0, tmax, _INVALID, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, _INVALID, _INVALID, _INVALID)``,
        ``rtcIntersect1(scene, ray pointer, None)``, then ``t, prim = read(buffer, offset of tfar)``:
        ``prim == _INVALID`` is a miss."""
        raw, off, ptr = self._buffer()
        return (_RAYHIT.pack_into, raw, off, self._lib.rtcIntersect1, self.scene, ptr,  # type: ignore[union-attr]
                _TFAR_PRIM.unpack_from, off + 32)

    def _buffer(self) -> tuple[ctypes.Array, int, ctypes.c_void_p]:
        buf = getattr(self._local, "buf", None)
        if buf is None:
            raw = ctypes.create_string_buffer(256)
            off = (-ctypes.addressof(raw)) % 16
            buf = self._local.buf = (raw, off, ctypes.c_void_p(ctypes.addressof(raw) + off))
        return buf

    def first(self, o: Sequence[float], d: Sequence[float], tmax: float) -> tuple[float, int]:
        raw, off, ptr = self._buffer()
        _RAYHIT.pack_into(raw, off, o[0], o[1], o[2], 0.0, d[0], d[1], d[2], 0.0, tmax, _INVALID, 0, 0,
                          0.0, 0.0, 0.0, 0.0, 0.0, _INVALID, _INVALID, _INVALID)
        self._lib.rtcIntersect1(self.scene, ptr, None)  # type: ignore[union-attr]
        t, prim = _TFAR_PRIM.unpack_from(raw, off + 32)
        return (t, prim) if prim != _INVALID else (math.inf, -1)

    def blocked(self, o: Sequence[float], d: Sequence[float], tmax: float) -> bool:
        raw, off, ptr = self._buffer()
        _RAY.pack_into(raw, off, o[0], o[1], o[2], 0.0, d[0], d[1], d[2], 0.0, tmax, _INVALID, 0, 0)
        self._lib.rtcOccluded1(self.scene, ptr, None)  # type: ignore[union-attr]
        return _TFAR.unpack_from(raw, off + 32)[0] == -math.inf


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
    def load(cls, source: str | Path | bytes, width: float, height: float, book: TerrainBook) -> TableGeometry:
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
        ground = RayScene(grounds, ground_own)
        volumes = canopy_reading.read(volumes, ground, top, width, height)
        return cls(width, height, parts, ground, RayScene(solids, solid_own), RayScene(volumes, vol_own),
                   RayScene(core_meshes, core_own), top)



# --------------------------------------------------------------------------------------------------
# The plan-view grid: what each cell of the table may hold, so that most questions skip Embree.

GRID_CELL = 0.25
"""Plan grid cell size, inches."""
GRID_EPS = 1e-3
"""Triangles' plan boxes are grown by this much before they are binned (float32 vertices, edge points)."""
Z_MARGIN = 1e-3
"""A point this close to a canopy's top or bottom bound is asked of Embree, not of the grid."""
CLEAR_LEVELS = (0.05, 0.3, 0.55, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0)
"""Heights above which a sightline clears bare ground, for the clearance maps."""
CLEAR_MAX = 64
"""Clearance maps count up to this many cells."""


def _bin_triangles(tris: np.ndarray, h: float, nx: int, ny: int, big: int = 256
                   ) -> tuple[np.ndarray, np.ndarray, list[tuple[int, slice, slice]]]:
    """Cells whose square may meet each triangle's (grown) plan box.

    Returns (triangle index, flat cell index) pairs for small triangles, and (triangle, rows, columns)
    for the few large ones (a table's floor), which are handled as rectangles.
    """
    lo = tris[:, :, :2].min(axis=1) - GRID_EPS
    hi = tris[:, :, :2].max(axis=1) + GRID_EPS
    i0 = np.clip(np.floor(lo[:, 0] / h).astype(np.int64), 0, nx - 1)
    i1 = np.clip(np.floor(hi[:, 0] / h).astype(np.int64), 0, nx - 1)
    j0 = np.clip(np.floor(lo[:, 1] / h).astype(np.int64), 0, ny - 1)
    j1 = np.clip(np.floor(hi[:, 1] / h).astype(np.int64), 0, ny - 1)
    ni, nj = i1 - i0 + 1, j1 - j0 + 1
    count = ni * nj
    small = np.nonzero(count <= big)[0]
    c = count[small]
    tri = np.repeat(small, c)
    k = np.arange(int(c.sum())) - np.repeat(np.cumsum(c) - c, c)
    cell = (j0[tri] + k // ni[tri]) * nx + i0[tri] + k % ni[tri]
    large = [(int(f), slice(int(j0[f]), int(j1[f]) + 1), slice(int(i0[f]), int(i1[f]) + 1))
             for f in np.nonzero(count > big)[0]]
    return tri, cell, large


def _cell_max(values: np.ndarray, tri: np.ndarray, cell: np.ndarray, large: list, shape: tuple[int, int],
              empty: float) -> np.ndarray:
    out = np.full(shape[0] * shape[1], empty)
    np.maximum.at(out, cell, values[tri])
    out = out.reshape(shape)
    for f, rows, cols in large:
        out[rows, cols] = np.maximum(out[rows, cols], values[f])
    return out


def _cell_min(values: np.ndarray, tri: np.ndarray, cell: np.ndarray, large: list, shape: tuple[int, int],
              empty: float) -> np.ndarray:
    return -_cell_max(-values, tri, cell, large, shape, -empty)


def _dilate(mask: np.ndarray) -> np.ndarray:
    """Grow a boolean grid by one cell in the 8 directions."""
    out = mask.copy()
    out[1:, :] |= mask[:-1, :]
    out[:-1, :] |= mask[1:, :]
    wide = out.copy()
    wide[:, 1:] |= out[:, :-1]
    wide[:, :-1] |= out[:, 1:]
    return wide


def _chebyshev(obstacle: np.ndarray) -> np.ndarray:
    """Cells from each cell to the nearest obstacle cell (chessboard metric), capped at CLEAR_MAX."""
    dist = np.full(obstacle.shape, CLEAR_MAX, np.int16)
    reach = obstacle.copy()
    dist[reach] = 0
    for k in range(1, CLEAR_MAX):
        if reach.all():
            break
        grown = _dilate(reach)
        dist[grown & ~reach] = k
        reach = grown
    return dist


class PlanGrid:
    """A plan grid over the table (``GRID_CELL`` squares) of conservative bounds of what each cell holds.

    Every bound is taken over the float32 triangles Embree itself uses, each grown by ``GRID_EPS``, so an
    answer read from the grid is the one a ray cast would give; where the grid cannot tell, the caller
    casts. What it holds, per cell:

    * ``ground_max``: the highest ground vertex over the cell (an upper bound of ``elevation`` there);
    * ``ground_flat``: the cell's elevation where every ground face over it is level at one height (the
      value a downward cast returns, to the 0.0001" the elevations are rounded to), else NaN;
    * ``canopy_part`` / ``inside_lo`` / ``inside_hi`` / ``outside_lo`` / ``outside_hi``: where a single
      canopy volume covers the whole cell and no wall of it crosses the cell, that volume, and the z
      bounds between which a point is certainly inside it (outside them, certainly not); -1 where no
      canopy face comes near the cell, -2 where Embree must be asked;
    * ``clearance[k]``: chessboard distance in cells to the nearest cell holding canopy, a building, or
      ground higher than ``CLEAR_LEVELS[k]``: a sightline that runs above that level and stays that far
      from such cells meets nothing.
    """

    def __init__(self, width: float, height: float, ground: RayScene, solid: RayScene, canopy: RayScene,
                 elevations: Callable[[np.ndarray], np.ndarray], cell: float = GRID_CELL):
        self.h = cell
        self.nx = int(math.floor(width / cell)) + 1
        self.ny = int(math.floor(height / cell)) + 1
        shape = (self.ny, self.nx)

        # ground: highest vertex, and level cells
        g = ground.tris
        tri, cells, large = _bin_triangles(g, cell, self.nx, self.ny)
        zmax = g[:, :, 2].max(axis=1)
        zmin = g[:, :, 2].min(axis=1)
        self.ground_max = _cell_max(zmax, tri, cells, large, shape, 0.0) if len(g) else np.zeros(shape)
        up = ground.normal[:, 2] > 1e-6 if len(g) else np.zeros(0, bool)
        level_lo = _cell_min(np.where(up, zmin, np.inf), tri, cells, large, shape, np.inf)
        level_hi = _cell_max(np.where(up, zmax, -np.inf), tri, cells, large, shape, -np.inf)
        other_hi = _cell_max(np.where(up, -np.inf, zmax), tri, cells, large, shape, -np.inf)
        flat = (level_lo == level_hi) & (other_hi < level_lo - 0.01)
        self.ground_flat = np.full(shape, np.nan)
        jj, ii = np.nonzero(flat)
        if len(jj):
            centre = np.column_stack([(ii + 0.5) * cell, (jj + 0.5) * cell])
            inside = (centre[:, 0] <= width) & (centre[:, 1] <= height)
            got = elevations(centre[inside])
            ok = np.abs(got - level_lo[jj[inside], ii[inside]]) < 1e-4
            self.ground_flat[jj[inside][ok], ii[inside][ok]] = got[ok]

        # solids (ground and buildings): highest vertex; buildings: where they are
        s = solid.tris
        tri, cells, large = _bin_triangles(s, cell, self.nx, self.ny)
        building = np.isin(solid.owner, np.unique(ground.owner), invert=True)
        solid_max = _cell_max(s[:, :, 2].max(axis=1), tri, cells, large, shape, 0.0) if len(s) else np.zeros(shape)
        has_building = _cell_max(building.astype(float), tri, cells, large, shape, 0.0) > 0

        # canopy: which volume covers each cell, and its z bounds there
        c = canopy.tris
        self.canopy_part = np.full(shape, -1, np.int64)
        self.inside_lo = np.full(shape, np.inf)
        self.inside_hi = np.full(shape, -np.inf)
        self.outside_lo = np.full(shape, np.inf)
        self.outside_hi = np.full(shape, -np.inf)
        has_canopy = np.zeros(shape, bool)
        if len(c):
            tri, cells, large = _bin_triangles(c, cell, self.nx, self.ny, big=1 << 30)
            owner = canopy.owner[tri]
            nz = canopy.normal[tri, 2]
            flat_cells = shape[0] * shape[1]
            has_canopy.flat[cells] = True
            # cells touched by more than one volume, or by a steep face, are Embree's
            first_owner = np.full(flat_cells, -1, np.int64)
            first_owner[cells] = owner
            mixed = np.zeros(flat_cells, bool)
            mixed[cells[owner != first_owner[cells]]] = True
            mixed[cells[np.abs(nz) <= 0.05]] = True
            zlo = c[:, :, 2].min(axis=1)[tri]
            zhi = c[:, :, 2].max(axis=1)[tri]
            upf, dnf = nz > 0.05, nz < -0.05
            up_lo = np.full(flat_cells, np.inf)
            up_hi = np.full(flat_cells, -np.inf)
            dn_lo = np.full(flat_cells, np.inf)
            dn_hi = np.full(flat_cells, -np.inf)
            np.minimum.at(up_lo, cells[upf], zlo[upf])
            np.maximum.at(up_hi, cells[upf], zhi[upf])
            np.minimum.at(dn_lo, cells[dnf], zlo[dnf])
            np.maximum.at(dn_hi, cells[dnf], zhi[dnf])
            simple = has_canopy.ravel() & ~mixed & (up_lo > dn_hi)
            # a simple cell's centre lies under one of the volume's upward faces, or under none of them
            sel = np.nonzero(upf & simple[cells])[0]
            at = cells[sel]
            covered = np.zeros(flat_cells, bool)
            covered[at[_in_triangle(c[tri[sel], :, :2], (at % self.nx + 0.5) * cell, (at // self.nx + 0.5) * cell)]] = True
            part = np.where(simple & covered, first_owner, np.where(simple, -1, -2))
            part[~has_canopy.ravel()] = -1
            self.canopy_part = part.reshape(shape)
            keep = simple & covered
            self.inside_lo.flat[keep] = dn_hi[keep]
            self.inside_hi.flat[keep] = up_lo[keep]
            self.outside_lo.flat[keep] = dn_lo[keep]
            self.outside_hi.flat[keep] = up_hi[keep]
        self.has_canopy = has_canopy

        # clearance maps for sightlines over open ground
        blocked = has_canopy | has_building
        self.clearance = np.stack([_chebyshev(blocked | (solid_max > level - Z_MARGIN)) for level in CLEAR_LEVELS])
        self._clear_rows = [array("h", m.ravel().astype(np.int16).tobytes()) for m in self.clearance]

    def cells(self, xy: np.ndarray) -> np.ndarray:
        """Flat cell index of each plan point (points just off the table go to the edge cell)."""
        ij = (xy[:, :2] / self.h).astype(np.int64)  # (both columns at once: asked for every batch of sightlines)
        np.clip(ij, 0, (self.nx - 1, self.ny - 1), out=ij)
        return ij[:, 1] * self.nx + ij[:, 0]

    def cell(self, x: float, y: float) -> int:
        i, j, nx = int(x / self.h), int(y / self.h), self.nx
        i = 0 if i < 0 else nx - 1 if i >= nx else i
        j = 0 if j < 0 else self.ny - 1 if j >= self.ny else j
        return j * nx + i

    def clear(self, ex: float, ey: float, tx: float, ty: float, zmin: float, steps: int = 48) -> bool:
        """Does the plan segment stay clear of canopy, buildings and ground up to ``zmin`` (the lowest
        height of the sightline)? True only when certain: it steps along the segment by the clearance
        read at each point, and gives up (False) next to anything or after ``steps`` steps."""
        level = bisect.bisect_left(CLEAR_LEVELS, zmin - Z_MARGIN) - 1
        if level < 0:
            return False
        rows = self._clear_rows[level]
        first = rows[self.cell(ex, ey)]
        if first <= 1:
            return False
        dx, dy = tx - ex, ty - ey
        plan = math.sqrt(dx * dx + dy * dy)
        if plan <= 0.0:
            return True  # first > 1
        ux, uy = dx / plan, dy / plan
        h, nx, ny = self.h, self.nx - 1, self.ny - 1
        t = 0.0
        for _ in range(steps):
            x, y = ex + ux * t, ey + uy * t
            i, j = int(x / h), int(y / h)
            i = 0 if i < 0 else nx if i > nx else i
            j = 0 if j < 0 else ny if j > ny else j
            k = rows[j * self.nx + i]
            if k <= 1:
                return False
            t += (k - 1) * h * 0.999
            if t > plan:
                return True
        return False


def _in_triangle(tri: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Is each plan point (x, y) inside (or on) its plan triangle tri (n x 3 x 2)?"""
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    d1 = (b[:, 0] - a[:, 0]) * (y - a[:, 1]) - (b[:, 1] - a[:, 1]) * (x - a[:, 0])
    d2 = (c[:, 0] - b[:, 0]) * (y - b[:, 1]) - (c[:, 1] - b[:, 1]) * (x - b[:, 0])
    d3 = (a[:, 0] - c[:, 0]) * (y - c[:, 1]) - (a[:, 1] - c[:, 1]) * (x - c[:, 0])
    neg = (d1 < 0) | (d2 < 0) | (d3 < 0)
    pos = (d1 > 0) | (d2 > 0) | (d3 > 0)
    return ~(neg & pos)
