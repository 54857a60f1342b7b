"""Trees on the table: the rules' canopy volumes carried by instanced, procedurally built trees.

Each wood keeps its baked canopy volume as the line-of-sight truth (``Table.canopy``); what the player
sees is trees standing inside it, the way a club table's area terrain is a base carrying removable
trees. Every canopy class has its own planting:

* triple canopy (``dense``): an upper storey of broad crowns, emergent giants above it, and a middle
  storey and undergrowth along the wood's edge (the inside is hidden under the crowns);
* secondary jungle: lower, more open broadleaf over thick undergrowth;
* bamboo: clumps of thin culms with leaf sprays;
* rubber: straight jittered rows along the wood's long axis (as the bake lays its crowns), pale straight
  trunks under a high crown, so the rows that let sight run down them show;
* scrub (``light``): bushes and elephant grass; mangrove: crowns on arched prop roots;
* coconut and banana palms round the hootches.

Placement is seeded from each feature's id (``zlib.crc32``), so every machine plants the same table.
Trees stand inside the footprint in plan (a crown never reaches past the edge) and under the baked
volume's top (read from the canopy's own vertices), so what is seen is what the rays use.

Each prototype is one Geom drawn once for all its trees (GLSL instancing: ``set_instance_count`` with
the per-tree columns in a buffer texture, ``shaders/foliage.vert``): about a dozen draw calls for the
whole table, and the triangle total held to the tier's budget by thinning the planting.

Stands under the trees stay findable: round the selected element and the mouse pointer the trees are
lifted off (crowns gone, trunks cut to stumps) in the shader, from ``focus``. Burnt woods
(``apply_changes``, napalm) keep their trunks, charred and leafless. What this module leaves out: the
canopy volume's own drawing (``Table``; the line-of-sight tool shows it, ``tools.CanopyOverlay``),
buildings (``buildings``) and anything the rules decide.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import numpy as np
import panda3d.core as p3d
import shapely
from shapely.geometry import box

from game.client import geom
from game.client.table import CANOPY, feature_shape
from game.client.trees import (  # noqa: F401
    LEAF,
    PROTOTYPES,
    WOOD,
    Mesh,
    prototype_extent,
    prototype_mesh,
    prototype_triangles,
)

TREE_BUDGET = {"low": 100_000, "high": 300_000}
"""Tree triangles per quality tier, never exceeded (the software renderer's frame holds about 100k)."""
TREE_TARGET = {"low": 40_000, "high": 150_000}
"""What a wooded table is thinned to (fewer, wider crowns): on the software renderer every triangle
counts against the frame rate, so a table of big woods gets sparser woods, a small wood its full planting."""
DENSITY = {"low": 1.0, "high": 1.6}
"""Trees per square inch, relative to the storeys' spacings below."""
CLEAR_RADIUS = 3.0
"""Inches round the selected element and the pointer inside which the trees are lifted off."""
RUBBER_ALONG, RUBBER_ACROSS = 1.5, 2.0
"""Spacing of rubber trees in a row and between rows, inches."""
BURN_REACH = 0.5
"""A tree outside burnt ground burns too where its root is within this share of its crown radius of it:
its crown then hangs over the fire (the crowns stand inside their wood, not inside the burnt polygon)."""
KEEP_CLEAR = ("trail", "stream", "river", "paddy", "bund", "crater", "mud", "hootch", "masonry", "bunker",
              "wreck", "trench", "spider_hole")
"""Ground no trunk stands on, wherever it lies in a wood (crowns may still reach over it); ``open``
ground listed after a wood is a clearing in it (the later ground feature wins, ``game.world.tablemap``)."""



def seed_of(*parts: str) -> int:
    """The seed for one feature's planting: the same on every machine (``hash`` is salted per run)."""
    return zlib.crc32("/".join(parts).encode("utf-8"))


# -- planting: where each tree stands (pure numpy and shapely: no panda3d) -----------------------------
COLUMNS = 12
"""Per tree: x, y, z (ground), heading | crown radius, height, lean, 0 | leaf r, g, b, burnt."""
LEAVES = {  # leaf colours per storey
    "dense_top": (0.13, 0.25, 0.085), "dense_mid": (0.10, 0.21, 0.075), "giant": (0.20, 0.29, 0.11),
    "secondary": (0.20, 0.33, 0.115), "under": (0.13, 0.24, 0.09), "bamboo": (0.44, 0.52, 0.19),
    "scrub": (0.36, 0.40, 0.18), "grass": (0.56, 0.52, 0.26), "rubber": (0.17, 0.29, 0.10),
    "palm": (0.36, 0.47, 0.17), "banana": (0.42, 0.60, 0.19), "mangrove": (0.15, 0.30, 0.14),
}


@dataclass
class Stand:
    """Trees of one prototype planted in one feature: their columns (n x COLUMNS)."""

    prototype: str
    feature: str
    rows: np.ndarray


def _grid(poly, spacing: float, rng, jitter: float = 0.42, angle: float = 0.0,
          across: float | None = None) -> np.ndarray:
    """Jittered grid points inside ``poly`` (a cheap blue noise), rotated to ``angle``."""
    across = across or spacing
    c = np.asarray(poly.centroid.coords[0])
    minx, miny, maxx, maxy = poly.bounds
    reach = math.hypot(maxx - minx, maxy - miny) / 2 + spacing
    u = np.arange(-reach, reach, spacing) + rng.uniform(0, spacing)
    v = np.arange(-reach, reach, across) + rng.uniform(0, across)
    uu, vv = np.meshgrid(u, v)
    uu = uu + rng.uniform(-jitter, jitter, uu.shape) * spacing
    vv = vv + rng.uniform(-jitter, jitter, vv.shape) * across
    ca, sa = math.cos(angle), math.sin(angle)
    x = c[0] + uu.ravel() * ca - vv.ravel() * sa
    y = c[1] + uu.ravel() * sa + vv.ravel() * ca
    keep = shapely.contains_xy(poly, x, y)
    return np.c_[x[keep], y[keep]]


def _axis_angle(poly) -> float:
    """The long side's direction of the polygon's minimum rotated rectangle (the bake's rubber rows)."""
    c = np.asarray(poly.minimum_rotated_rectangle.exterior.coords)
    e1, e2 = c[1] - c[0], c[2] - c[1]
    e = e1 if np.hypot(*e1) >= np.hypot(*e2) else e2
    return math.atan2(e[1], e[0])


def _island(g: dict, k: int, n: int, wood) -> bool:
    """A wood listed after a paddy and lying wholly in it is an island of trees in the paddy (the later
    ground wins, as ``game.world.tablemap`` reads it): the paddy clears none of it."""
    return g.get("type") == "paddy" and k < n and feature_shape(g).buffer(1e-6).contains(wood)


class Planting:
    """Where every tree of a table stands: seeded per feature, inside footprints, under canopy tops.

    ``ground(xs, ys)`` and ``top(xs, ys, ftype, fid)`` give heights (inches) under points: the ground,
    and the top of the canopy volume there (absolute)."""

    def __init__(self, features: list[dict], width: float, height: float, ground, top,
                 quality: str = "low"):
        self.features = features
        self.table = box(0, 0, width, height)
        self.ground, self.top = ground, top
        self.quality = quality if quality in TREE_BUDGET else "low"
        self.budget = min(TREE_BUDGET[self.quality], TREE_TARGET[self.quality])
        thin = 1.0
        self.stands = self._plant(DENSITY[self.quality], thin)
        tris = self.triangles()
        for _ in range(3):  # thin the planting until it fits the tier's budget
            if tris <= self.budget:
                break
            thin *= self.budget / tris * 0.96
            self.stands = self._plant(DENSITY[self.quality], thin)
            tris = self.triangles()

    def triangles(self) -> int:
        return sum(len(s.rows) * prototype_triangles(s.prototype) for s in self.stands)

    def by_prototype(self) -> dict[str, np.ndarray]:
        out: dict[str, list[np.ndarray]] = {}
        for s in self.stands:
            if len(s.rows):
                out.setdefault(s.prototype, []).append(s.rows)
        return {k: np.vstack(v) for k, v in out.items()}

    # -- planting -----------------------------------------------------------------------------------
    def _plant(self, density: float, thin: float) -> list[Stand]:
        stands: list[Stand] = []
        k = 1.0 / math.sqrt(density * thin)  # spacing factor
        grow = min(1.35, k ** 0.85)  # fewer trees, wider crowns: the wood stays closed
        k_rows = 1.0 / math.sqrt(thin)  # thinned only to keep the budget
        for n, f in enumerate(self.features):
            ftype, fid = f.get("type"), str(f.get("id", ""))
            if ftype not in CANOPY:
                continue
            shape = feature_shape(f).intersection(self.table)
            clear = [feature_shape(g).buffer(0.25) for k, g in enumerate(self.features)
                     if (g.get("type") in KEEP_CLEAR and not _island(g, k, n, shape))
                     or (g.get("type") == "open" and k > n)]
            clear = [c for c in clear if c.intersects(shape)]
            self._clear = shapely.union_all(clear) if clear else None
            for i, poly in enumerate(getattr(shape, "geoms", [shape])):
                if poly.is_empty or poly.area < 0.2:
                    continue
                rng = np.random.default_rng(seed_of("flora", fid, str(i)))
                for plan in self._storeys(ftype, poly):
                    # rows, canes and scrub keep their spacing (cheap, or the rows' meaning); woods thin
                    full = ftype in ("rubber", "bamboo", "light")
                    stands.extend(self._storey(rng, fid, ftype, poly, k_rows if full else k,
                                               1.0 if full else grow, *plan))
        stands.extend(self._palms())
        return stands

    def _storeys(self, ftype: str, poly) -> list[tuple]:
        """(prototypes, spacing, crown radii, heights, leaf colour, edge band) per storey; heights as a
        share of the local canopy top when under 1.5, else inches capped by it."""
        high = self.quality == "high"
        edge = None if high else 3.0
        if ftype == "dense":
            return [(("giant",), 7.0, (1.5, 1.9), (0.96, 1.02), "giant", None),
                    (("broadleaf_a", "broadleaf_b"), 2.0, (1.0, 1.3), (0.8, 0.95), "dense_top", None),
                    (("broadleaf_a", "broadleaf_b"), 2.0, (0.6, 0.85), (0.5, 0.66), "dense_mid", edge),
                    (("bush", "bush", "banana"), 1.2, (0.3, 0.55), (0.14, 0.22), "under", 2.2)]
        if ftype == "secondary":
            return [(("broadleaf_a", "broadleaf_b"), 1.7, (0.8, 1.15), (0.68, 0.97), "secondary", None),
                    (("bush", "bush", "grass"), 1.5, (0.35, 0.6), (0.18, 0.32), "under", edge)]
        if ftype == "bamboo":
            return [(("bamboo",), 1.1, (0.7, 1.0), (0.78, 0.98), "bamboo", None),
                    (("grass",), 1.4, (0.25, 0.4), (0.12, 0.2), "grass", 1.5)]
        if ftype == "light":
            return [(("bush",), 1.1, (0.35, 0.6), (0.6, 0.95), "scrub", None),
                    (("grass",), 0.6, (0.3, 0.45), (0.6, 0.95), "grass", None)]
        if ftype == "mangrove":
            return [(("mangrove",), 1.6, (0.8, 1.1), (0.8, 0.97), "mangrove", None)]
        if ftype == "rubber":
            return [(("rubber",), RUBBER_ALONG, (0.82, 0.95), (0.93, 0.99), "rubber", None)]
        return []

    def _storey(self, rng, fid, ftype, poly, k, grow, protos, spacing, radii, heights, leaf, edge
                ) -> list[Stand]:
        if ftype == "rubber":
            pts = _grid(poly, RUBBER_ALONG * k, rng, jitter=0.06, angle=_axis_angle(poly),
                        across=RUBBER_ACROSS * k)
        else:
            pts = _grid(poly, spacing * k, rng)
        if not len(pts):
            return []
        x, y = pts[:, 0], pts[:, 1]
        depth = shapely.distance(poly.boundary, shapely.points(x, y))
        keep = np.ones(len(x), bool) if edge is None else depth < edge
        if self._clear is not None:
            keep &= ~shapely.contains_xy(self._clear, x, y)
        r = rng.uniform(*radii, len(x)) * grow
        keep &= depth - 0.05 >= radii[0] * 0.45
        x, y, r, depth = x[keep], y[keep], r[keep], depth[keep]
        if not len(x):
            return []
        g = self.ground(x, y)
        top = np.maximum(self.top(x, y, ftype) - g, 0.2)
        share = rng.uniform(*heights, len(x))
        heading = rng.uniform(0, 2 * math.pi, len(x))
        if ftype == "rubber":  # crowns drawn out along the rows: lanes open between them
            heading = _axis_angle(poly) + rng.normal(0, 0.12, len(x)) + math.pi * rng.integers(0, 2, len(x))
        lean = rng.normal(0, 0.02 if ftype == "rubber" else 0.05, len(x))
        # each tree its own green: brighter or darker, toward yellow or toward blue
        hue = rng.uniform(-1, 1, len(x))[:, None] * np.array([0.12, 0.0, -0.12])
        rgb = np.outer(rng.uniform(0.8, 1.18, len(x)), LEAVES[leaf]) * (1 + hue) * rng.uniform(0.96, 1.04, (len(x), 3))
        choice = rng.integers(0, len(protos), len(x))
        out = []
        for proto in dict.fromkeys(protos):
            m = np.isin(choice, [i for i, p in enumerate(protos) if p == proto])
            reach, ztop = prototype_extent(proto)
            share_m = share[m] * (2.2 if proto == "banana" else 1.0)  # wild bananas stand above the bushes
            hh = np.minimum(share_m * top[m], top[m]) / ztop  # the crown's top under the canopy's
            # the whole crown inside the footprint, lean included
            rr = np.minimum(r[m], (depth[m] - 0.05 - np.abs(lean[m]) * hh) / reach)
            ok = (rr >= radii[0] * 0.45) & (rr >= 0.7 * r[m])  # squeezed at the edge, not to a poplar
            hh = hh * np.sqrt(np.clip(rr / r[m], 0, 1))
            colour = rgb[m] * (np.array(LEAVES["banana"]) / LEAVES[leaf] if proto == "banana" else 1)
            rows = np.c_[x[m], y[m], g[m], heading[m], rr, hh, lean[m], np.zeros(m.sum()), colour,
                         np.zeros(m.sum())][ok]
            out.append(Stand(proto, fid, rows.astype(np.float32)))
        return out

    def _palms(self) -> list[Stand]:
        """Coconut and banana palms in the hootches' yards, outside water, paddies, woods and buildings."""
        hootches = [f for f in self.features if f.get("type") == "hootch"]
        if not hootches:
            return []
        avoid = shapely.union_all([feature_shape(f).buffer(0.4) for f in self.features
                                   if f.get("type") not in ("open", "hill", "light", None)])
        taken = []
        out = {"coconut": [], "banana": []}
        for f in hootches:
            fid = str(f.get("id", ""))
            rng = np.random.default_rng(seed_of("palms", fid))
            cx, cy = f.get("point") or feature_shape(f).centroid.coords[0]
            for proto, n, dist, h, r in (("coconut", 3, (1.8, 3.6), (2.0, 2.8), (0.9, 1.1)),
                                         ("banana", 3, (1.6, 3.0), (0.65, 0.9), (0.45, 0.6))):
                placed = 0
                for _ in range(12):
                    if placed >= n:
                        break
                    a, d = rng.uniform(0, 2 * math.pi), rng.uniform(*dist)
                    x, y = cx + d * math.cos(a), cy + d * math.sin(a)
                    if not (1 < x < self.table.bounds[2] - 1 and 1 < y < self.table.bounds[3] - 1):
                        continue
                    if avoid.contains(shapely.Point(x, y)) or any(math.hypot(x - p, y - q) < 1.0 for p, q in taken):
                        continue
                    taken.append((x, y))
                    placed += 1
                    leaf = np.array(LEAVES["palm" if proto == "coconut" else "banana"]) * rng.uniform(0.9, 1.1)
                    out[proto].append([x, y, 0.0, rng.uniform(0, 2 * math.pi), rng.uniform(*r),
                                       rng.uniform(*h), 0.0, 0.0, *leaf, 0.0])
        stands = []
        for proto, rows in out.items():
            if rows:
                a = np.asarray(rows, dtype=np.float32)
                a[:, 2] = self.ground(a[:, 0], a[:, 1])
                stands.append(Stand(proto, "yards", a))
        return stands


# -- the scene: one instanced Geom per prototype -------------------------------------------------------
def _vertices(root: p3d.NodePath, relative_to: p3d.NodePath, pattern: str = "**/+GeomNode") -> np.ndarray | None:
    pts = []
    for gnp in ([root] if root.node().is_geom_node() else []) + list(root.find_all_matches(pattern)):
        mat = gnp.get_mat(relative_to)
        for gi in range(gnp.node().get_num_geoms()):
            read = geom.positions(gnp.node().get_geom(gi).get_vertex_data(), mat)
            if read is not None:
                pts.append(read[0])
    return np.vstack(pts) if pts else None


def _sampler(xyz: np.ndarray, cell: float, snap: bool):
    """Heights under points from a cloud of vertices: the highest in each ``cell`` (empty cells take their
    neighbours'); ``snap``: the vertices lie on that grid (a heightfield) and are interpolated."""
    to = np.round if snap else np.floor
    i = to(xyz[:, 0] / cell).astype(int)
    j = to(xyz[:, 1] / cell).astype(int)
    i0, j0 = i.min() - 1, j.min() - 1
    grid = np.full((i.max() - i0 + 2, j.max() - j0 + 2), -np.inf)
    np.maximum.at(grid, (i - i0, j - j0), xyz[:, 2])
    for _ in range(2):
        pad = np.pad(grid, 1, constant_values=-np.inf)
        near = np.max([pad[1 + di:pad.shape[0] - 1 + di, 1 + dj:pad.shape[1] - 1 + dj]
                       for di in (-1, 0, 1) for dj in (-1, 0, 1)], axis=0)
        grid = np.where(np.isfinite(grid), grid, near)

    def at(xs, ys):
        fx = np.asarray(xs, dtype=float) / cell - i0
        fy = np.asarray(ys, dtype=float) / cell - j0
        if not snap:
            ii = np.clip(np.floor(fx).astype(int), 0, grid.shape[0] - 1)
            jj = np.clip(np.floor(fy).astype(int), 0, grid.shape[1] - 1)
            return grid[ii, jj]
        ii = np.clip(np.floor(fx).astype(int), 0, grid.shape[0] - 2)
        jj = np.clip(np.floor(fy).astype(int), 0, grid.shape[1] - 2)
        tx, ty = np.clip(fx - ii, 0, 1), np.clip(fy - jj, 0, 1)
        return ((grid[ii, jj] * (1 - tx) + grid[ii + 1, jj] * tx) * (1 - ty)
                + (grid[ii, jj + 1] * (1 - tx) + grid[ii + 1, jj + 1] * tx) * ty)

    return at


def canopy_tops(canopy: p3d.NodePath, relative_to: p3d.NodePath, cell: float = 0.5):
    """The baked canopy volumes' top height under points, from their own vertices (None without any)."""
    xyz = _vertices(canopy, relative_to)
    return None if xyz is None else _sampler(xyz, cell, snap=False)


def ground_heights(table, cell: float = 0.5):
    """The baked ground's height under points from its heightfield's vertices (a grid of ``cell``), or
    the table's own ``heights`` (a triangle search, slower to set up) where there is no baked ground."""
    node = table.root.find("**/ground")
    xyz = _vertices(node, table.root) if not node.is_empty() else None
    if xyz is not None:
        xyz = xyz[xyz[:, 2] > -0.5]  # the heightfield's top, not the board's underside
    if xyz is None or len(xyz) < 16:
        return lambda xs, ys: np.asarray(table.heights(xs, ys), dtype=float)
    return _sampler(xyz, cell, snap=True)


DEPTH_FRAG = "#version 330\nout vec4 o_color;\nvoid main() { o_color = vec4(1.0); }\n"
"""The shadow pass's fragment shader for the trees (the depth is all it keeps)."""


def _geom_node(name: str, mesh: Mesh) -> p3d.GeomNode:
    v, n, c, f = mesh
    return geom.mesh_node(name, v.astype(np.float32), n.astype(np.float32), c, f)


def _buffer(rows: np.ndarray) -> p3d.Texture:
    """The trees' columns as a float buffer texture, three RGBA texels a tree (``foliage.vert``)."""
    tex = p3d.Texture("trees")
    tex.setup_buffer_texture(max(len(rows), 1) * 3, p3d.Texture.T_float, p3d.Texture.F_rgba32,
                             p3d.GeomEnums.UH_static)
    data = np.zeros((max(len(rows), 1), COLUMNS), np.float32)
    data[:len(rows)] = rows
    tex.set_ram_image(data.tobytes())
    return tex


class Flora:
    """The table's trees: one instanced node per prototype under ``root`` (a child of the table).

    ``set_visible`` lifts them off the table (the canopy key); ``focus`` clears them round the selected
    element and the pointer; ``apply_changes`` chars those in burnt ground. Followed each frame when
    given: ``pieces`` for the selection, and ``changes`` (``TableChanges``) for the burnt ground it shows,
    so trees char at the moment the napalm's scorch appears."""

    def __init__(self, table, scenario: dict, settings=None, sun: p3d.NodePath | None = None, pieces=None,
                 changes=None):
        from game.client.scene import load_shader

        self.table = table
        quality = getattr(settings, "quality", None) or "low"
        self.root = table.root.attach_new_node("flora")
        self.root.set_shader(load_shader("foliage"), 10)
        self.root.set_shader_input("u_clear0", p3d.LVector4(0, 0, 0, 0))
        self.root.set_shader_input("u_clear1", p3d.LVector4(0, 0, 0, 0))
        tops = canopy_tops(table.canopy, table.root) if table.source == "glb" else None
        features = list(scenario.get("features") or [])

        ground = ground_heights(table) if table.source == "glb" else (
            lambda xs, ys: np.asarray(table.heights(xs, ys), dtype=float))

        def top(xs, ys, ftype):
            default = ground(xs, ys) + CANOPY.get(ftype, CANOPY["secondary"])[1]
            if tops is None:
                return default
            t = tops(xs, ys)
            return np.where(np.isfinite(t), t, default)

        self.planting = Planting(features, table.width, table.height, ground, top, quality)
        self.nodes: dict[str, p3d.NodePath] = {}
        self.rows: dict[str, np.ndarray] = {}
        self.textures: dict[str, p3d.Texture] = {}
        for name, rows in self.planting.by_prototype().items():
            self._add(name, rows)
        self._shadows(sun)
        # the volumes are the rules' truth, shown by the line-of-sight tool (tools.CanopyOverlay)
        table.set_canopy_visible(False)
        self.pieces, self.changes = pieces, changes
        self.pointer: tuple[float, float] | None = None
        self._task = None
        self._followed: tuple = (None, None)
        self._burnt_keys: tuple = ()
        if pieces is not None or changes is not None:
            self._task = p3d.PythonTask(self._follow, "flora-follow")
            p3d.AsyncTaskManager.get_global_ptr().add(self._task)

    def _add(self, name: str, rows: np.ndarray) -> None:
        node = _geom_node(f"trees-{name}", prototype_mesh(name))
        lo = rows[:, :3].min(axis=0) - [2.5, 2.5, 0.5]
        hi = rows[:, :3].max(axis=0) + [2.5, 2.5, float(rows[:, 5].max()) + 0.5]
        node.set_bounds(p3d.BoundingBox(p3d.LPoint3(*lo), p3d.LPoint3(*hi)))
        node.set_final(True)
        np_ = self.root.attach_new_node(node)
        np_.set_instance_count(len(rows))
        tex = _buffer(rows)
        np_.set_shader_input("u_inst", tex)
        np_.set_tag("flora", name)
        if PROTOTYPES[name].two_sided:
            np_.set_two_sided(True)
        self.nodes[name], self.rows[name], self.textures[name] = np_, rows.copy(), tex

    def _shadows(self, sun: p3d.NodePath | None) -> None:
        """Instanced trees cast their own shadows: the sun's shadow camera draws them with the foliage
        shader and their columns (without it every tree would cast one shadow at the origin)."""
        if sun is None or not isinstance(sun.node(), p3d.LightLensNode) or not sun.node().is_shadow_caster():
            return
        from game.client.settings import SHADERS_DIR

        cam = sun.node()
        cam.set_tag_state_key("flora")
        # depth only: the trees' own vertex shader, a fragment shader that writes nothing that is kept
        shader = p3d.Shader.make(p3d.Shader.SL_GLSL, (SHADERS_DIR / "foliage.vert").read_text(), DEPTH_FRAG)
        off = p3d.LVector4(0, 0, 0, 0)
        for name, tex in self.textures.items():
            attrib = p3d.ShaderAttrib.make(shader, 200).set_shader_input("u_inst", tex)
            attrib = attrib.set_shader_input("u_clear0", off).set_shader_input("u_clear1", off)
            attrib = attrib.set_instance_count(len(self.rows[name]))
            cam.set_tag_state(name, p3d.RenderState.make(attrib, 200))  # over the pass's "no shader" (100)

    # -- play ---------------------------------------------------------------------------------------
    @property
    def visible(self) -> bool:
        return not self.root.is_hidden()

    def set_visible(self, visible: bool) -> None:
        """Trees on the table, or lifted off it (as players lift a tree template to reach the stands)."""
        self.root.show() if visible else self.root.hide()

    def toggle(self) -> None:
        self.set_visible(not self.visible)

    def focus(self, selected: tuple[float, float] | None = None, pointer: tuple[float, float] | None = None,
              radius: float = CLEAR_RADIUS) -> None:
        """Lift the trees (crowns off, trunks cut to stumps) round the selected element and the pointer."""
        for key, p in (("u_clear0", selected), ("u_clear1", pointer)):
            v = p3d.LVector4(p[0], p[1], radius, 1) if p is not None else p3d.LVector4(0, 0, 0, 0)
            self.root.set_shader_input(key, v)

    def set_pointer(self, x: float | None, y: float | None = None) -> None:
        """Where the mouse meets the table (None: off it); the trees round it clear with the next frame."""
        self.pointer = None if x is None or y is None else (float(x), float(y))

    def _follow(self, task):
        sel = None
        pieces = self.pieces
        if pieces is not None and pieces.selected:
            c = pieces.element_centre(pieces.selected)
            sel = (c.x, c.y) if c is not None else None
        burnt = getattr(self.changes, "burnt", None)
        if burnt is not None and tuple(burnt) != self._burnt_keys:
            self._burnt_keys = tuple(burnt)
            self.burn(shapely.union_all(list(burnt.values())) if burnt else None)
        if (sel, self.pointer) != self._followed:  # only on a change: a direct ``focus`` holds till then
            self._followed = (sel, self.pointer)
            self.focus(sel, self.pointer)
        return p3d.AsyncTask.DS_cont

    def apply_changes(self, terrain_changes: list[dict]) -> int:
        """Trees standing in napalm-burnt ground (a view's ``terrain_changes`` of kind ``burnt``) turn to
        charred, leafless trunks; a change no longer listed gives them back. Returns the burnt count."""
        polys = [shapely.make_valid(shapely.Polygon(c["polygon"])) for c in terrain_changes or []
                 if c.get("kind") == "burnt" and len(c.get("polygon") or []) >= 3]
        return self.burn(shapely.union_all(polys) if polys else None)

    def burn(self, burnt) -> int:
        """Char the trees in ``burnt`` (a shapely area, None for none): those standing in it, and those
        whose crowns reach over it by ``BURN_REACH`` of their radius (a bamboo clump on the edge of the
        napalm leans its leaves over the fire); the rest keep or get back their leaves. Returns how
        many are burnt."""
        count = 0
        for name, rows in self.rows.items():
            flag = np.zeros(len(rows), np.float32)
            if burnt is not None:
                d = shapely.distance(burnt, shapely.points(rows[:, 0], rows[:, 1]))
                flag = (d <= BURN_REACH * rows[:, 4]).astype(np.float32)
            if not np.array_equal(flag, rows[:, 11]):
                rows[:, 11] = flag
                data = np.ascontiguousarray(rows, dtype=np.float32)
                self.textures[name].set_ram_image(data.tobytes())
            count += int(flag.sum())
        return count

    def triangles(self) -> int:
        return self.planting.triangles()

    def instances(self) -> int:
        return sum(len(r) for r in self.rows.values())

    def destroy(self) -> None:
        if self._task is not None:
            self._task.remove()
            self._task = None
        self.root.remove_node()
