"""The table as play changes it (DD chapter 8): craters and napalm-burnt ground, drawn where the engine
says.

The engine lists every change in each view's ``terrain_changes`` (public: everyone sees craters and
burnt jungle) and announces each as it happens with a ``terrain`` event {change, kind, polygon}. This
layer draws them from either, once per change id, so a loaded game shows the table as it was left:

* ``crater``: churned, dark earth over the polygon with a few shell craters (``models/crater.glb``) in
  it, seeded by the change's id (the engine gives the area, not the holes; G-01 T12c);
* ``burnt``: scorched ground (black ash, grey at the edges, a ragged noisy rim) over the polygon,
  charred stumps where the burnt ground was vegetation, and the canopy over it gone: the canopy's
  triangles over the polygon are dropped and those at its rim blackened (G-19: napalm burns the
  vegetation; line of sight ignores it there, ``game.world.burnt``).

Decals are meshes draped on the ground (the table's ``height_at`` on a 1/4" grid), drawn with the
table's own shader so they take its light. Nothing here decides anything: the polygons are the
engine's, the scatter inside them is cosmetic.
"""

from __future__ import annotations

import math
import random

import numpy as np
import panda3d.core as p3d
import shapely
from shapely.geometry import Point, Polygon

from game.client import geom

ASH = (0.035, 0.03, 0.028)
ASH_EDGE = (0.16, 0.14, 0.12)
EARTH = (0.27, 0.2, 0.13)
EARTH_EDGE = (0.42, 0.34, 0.23)
VEGETATION = ("light", "rubber", "secondary", "dense", "bamboo", "mangrove")
RIM = 0.7  # inches: the canopy blackened round a burnt polygon


def _noise(x: np.ndarray, y: np.ndarray, seed: int) -> np.ndarray:
    """Smooth value noise in [0, 1] at table points (a few sines: cheap, seeded, tileless)."""
    rng = np.random.default_rng(seed)
    out = np.zeros_like(x, dtype=float)
    for f, w in ((0.9, 0.5), (2.1, 0.3), (4.7, 0.2)):
        a, b, c = rng.uniform(0, 2 * np.pi, 3)
        d = rng.uniform(0.6, 1.4)
        out += w * (0.5 + 0.25 * np.sin(f * x * d + a) + 0.25 * np.sin(f * y / d + b + 0.7 * np.sin(f * x * 0.5 + c)))
    return out


def drape(name: str, poly, height_at, inner: tuple, edge: tuple, seed: int, feather: float = 0.6,
          lift: float = 0.035, spacing: float = 0.25, core=None) -> p3d.GeomNode | None:
    """A decal over ``poly`` laid on the ground: colour ``inner`` inside (inside ``core``, where given),
    ``edge`` toward the rim, alpha falling off over ``feather`` inches past a noisy edge."""
    grown = poly.buffer(feather)
    minx, miny, maxx, maxy = grown.bounds
    xs = np.arange(minx, maxx + spacing, spacing)
    ys = np.arange(miny, maxy + spacing, spacing)
    if len(xs) < 2 or len(ys) < 2:
        return None
    gx, gy = np.meshgrid(xs, ys)
    fx, fy = gx.ravel(), gy.ravel()
    inside = shapely.contains_xy(poly, fx, fy)
    d = shapely.distance(shapely.points(fx, fy), poly.exterior)
    signed = np.where(inside, -d, d)  # negative inside
    n = _noise(fx, fy, seed)
    edge_at = (n - 0.5) * feather * 1.2  # a ragged rim
    alpha = np.clip(0.75 - (signed - edge_at) / feather, 0.0, 1.0) ** 1.2
    depth = np.clip((0.3 * feather - signed) / max(feather, 1e-6), 0.0, 1.0)
    if core is not None:  # the colour grades from the core outward, not from the decal's own edge
        cin = shapely.contains_xy(core, fx, fy)
        cd = shapely.distance(shapely.points(fx, fy), core.boundary)
        depth = np.minimum(depth, np.clip((0.3 * feather - np.where(cin, -cd, cd)) / max(feather, 1e-6), 0.0, 1.0))
    inner_c, edge_c = np.array(inner, dtype=float), np.array(edge, dtype=float)
    mix = (depth * (0.6 + 0.4 * n))[:, None]
    rgb = edge_c * (1 - mix) + inner_c * mix
    rgb *= (0.85 + 0.3 * _noise(fx * 3.1, fy * 3.1, seed + 1))[:, None]
    z = _heights(height_at, fx, fy) + lift
    verts = np.stack([fx, fy, z], axis=1)
    normals = np.tile([0.0, 0.0, 1.0], (len(verts), 1))
    colors = np.concatenate([np.clip(rgb, 0, 1), alpha[:, None] * 0.96], axis=1)
    w = len(xs)
    faces = []
    keep = alpha > 0.01
    for j in range(len(ys) - 1):
        for i in range(w - 1):
            a, b, c, e = j * w + i, j * w + i + 1, (j + 1) * w + i + 1, (j + 1) * w + i
            if keep[a] or keep[b] or keep[c] or keep[e]:
                faces += [(a, b, c), (a, c, e)]
    if not faces:
        return None
    return geom.mesh_node(name, verts, normals, colors, np.array(faces))


def _heights(height_at, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Ground heights under many points: the table's vectorised ``heights`` when ``height_at`` is a
    table's bound method, else one call a point."""
    table = getattr(height_at, "__self__", None)
    if table is not None and hasattr(table, "heights"):
        return table.heights(xs, ys)
    return np.array([height_at(px, py) for px, py in zip(xs, ys, strict=True)])


class TableChanges:
    """The craters and burnt ground on one table; ``sync`` from a view, ``add`` from a ``terrain`` event."""

    def __init__(self, table, parent: p3d.NodePath, library=None, features: list[dict] | None = None):
        self.table = table
        self.library = library
        self.root = parent.attach_new_node("terrain-changes")
        self.root.set_transparency(p3d.TransparencyAttrib.M_alpha)
        self.root.set_depth_write(False)
        self.root.set_depth_offset(2)
        self.root.set_bin("transparent", 0)
        self.root.set_shader_input("u_detail", 0.25)
        self.items: dict[str, p3d.NodePath] = {}
        self.kinds: dict[str, str] = {}
        self.burnt: dict[str, Polygon] = {}
        self.pending: dict[str, Polygon] = {}  # burnt ground built hidden, its canopy not yet cut
        self.woods = [Polygon(f["polygon"]) for f in features or [] if f.get("type") in VEGETATION
                      and f.get("polygon") and len(f["polygon"]) >= 3]
        self._canopy: list[tuple] = []  # (geom node, geom index, primitive index, original indices, vdata, colours)
        self._canopy_read = False

    # -- the view and the events --------------------------------------------------------------------
    def sync(self, changes: list[dict]) -> None:
        """Draw what the view lists that is not drawn yet; drop what it no longer lists."""
        want = {str(c.get("id") or c.get("change")): c for c in changes or [] if c.get("polygon")}
        gone = [k for k in self.items if k not in want]
        for k in gone:
            self.items.pop(k).remove_node()
            self.kinds.pop(k, None)
            self.pending.pop(k, None)
        burnt_gone = [k for k in self.burnt if k not in want]
        for k in burnt_gone:
            self.burnt.pop(k)
        if burnt_gone:
            self._cut_canopy()
        for c in want.values():
            self.add(c)

    def add(self, change: dict, show: bool = True) -> p3d.NodePath | None:
        """Draw one change (a view's entry or a ``terrain`` event); a change already drawn is left (and
        shown). ``show=False`` builds it hidden, its canopy left standing, for ``reveal`` at the moment the
        ordnance lands (a set piece builds its nodes before it plays)."""
        cid = str(change.get("id") or change.get("change"))
        if cid in self.items:
            if show:
                self.reveal(cid)
            return self.items[cid]
        pts = change.get("polygon") or []
        if len(pts) < 3:
            return None
        poly = Polygon(pts)
        if not poly.is_valid:
            poly = poly.buffer(0)
        if poly.is_empty or poly.area <= 1e-6:
            return None
        kind = str(change.get("kind"))
        holder = self.root.attach_new_node(f"change-{cid}")
        holder.set_tag("terrain_change", cid)
        seed = sum(ord(ch) * (k + 1) for k, ch in enumerate(cid)) + int(poly.centroid.x * 100 + poly.centroid.y * 7)
        if kind == "crater":
            self._crater(holder, poly, seed)
        elif kind == "burnt":
            opened = self._cut_canopy(extra=poly, apply=show)
            if show:
                self.burnt[cid] = poly
            else:
                self.pending[cid] = poly
            self._burnt(holder, poly, seed, opened)
        else:
            node = drape(f"{kind}-{cid}", poly, self.table.height_at, EARTH, EARTH_EDGE, seed)
            if node is not None:
                holder.attach_new_node(node)
        self.items[cid] = holder
        self.kinds[cid] = kind
        if not show:
            holder.hide()
        return holder

    def reveal(self, cid: str) -> None:
        """A change built hidden appears (the canopy over burnt ground goes with it)."""
        holder = self.items.get(cid)
        if holder is None:
            return
        holder.show()
        if cid in self.pending:
            self.burnt[cid] = self.pending.pop(cid)
            self._cut_canopy()

    def count(self) -> int:
        return len(self.items)

    def destroy(self) -> None:
        self.root.remove_node()
        self.items.clear()

    # -- craters --------------------------------------------------------------------------------------
    def _crater(self, holder: p3d.NodePath, poly: Polygon, seed: int) -> None:
        node = drape("churned", poly.buffer(-0.15), self.table.height_at, EARTH, EARTH_EDGE, seed, feather=0.7)
        if node is not None:
            holder.attach_new_node(node)
        c = poly.centroid
        r = math.sqrt(poly.area / math.pi)
        rng = random.Random(seed)
        holes = [(c.x + rng.uniform(-0.15, 0.15) * r, c.y + rng.uniform(-0.15, 0.15) * r, 0.42 * r)]
        for k in range(3):
            a = rng.uniform(0, 2 * math.pi) + k * 2.1
            d = r * rng.uniform(0.35, 0.62)
            holes.append((c.x + d * math.cos(a), c.y + d * math.sin(a), r * rng.uniform(0.2, 0.3)))
        for hx, hy, hr in holes:
            if self.library is None:
                break
            m = self.library.instance("crater", holder)
            m.set_tag("crater", cid if (cid := holder.get_tag("terrain_change")) else "1")
            m.set_pos(hx, hy, self.table.height_at(hx, hy) + 0.01)
            m.set_h(rng.uniform(0, 360))
            m.set_scale(hr / 1.5)  # crater.glb is about 3" across
            m.set_depth_write(True)
            m.set_bin("opaque", 0)
            m.set_transparency(p3d.TransparencyAttrib.M_none)
            m.set_depth_offset(3)

    # -- burnt ground ---------------------------------------------------------------------------------
    def _burnt(self, holder: p3d.NodePath, poly: Polygon, seed: int, opened=None) -> None:
        """Ash over the polygon; the ground the canopy's cut opened round it singed brown (the canopy's
        triangles are coarser than the polygon)."""
        area = poly
        if opened is not None and not opened.is_empty:
            area = shapely.union_all([poly, opened.intersection(poly.buffer(2.5))]).buffer(0)
        node = drape("scorched", area, self.table.height_at, ASH, ASH_EDGE, seed, feather=0.8, core=poly)
        if node is not None:
            holder.attach_new_node(node)
        veg = [w.intersection(poly) for w in self.woods if w.intersects(poly)]
        veg = [v for v in veg if not v.is_empty and v.area > 0.05]
        if not veg:
            return
        stumps = self._stumps(veg, seed)
        if stumps is not None:
            np_ = holder.attach_new_node(stumps)
            np_.set_depth_write(True)
            np_.set_bin("opaque", 0)
            np_.set_transparency(p3d.TransparencyAttrib.M_none)

    def _stumps(self, areas, seed: int) -> p3d.GeomNode | None:
        """Charred trunks standing in the burnt vegetation: thin black posts, some snapped, some leaning."""
        import trimesh
        import trimesh.creation as tc

        rng = random.Random(seed + 5)
        parts = []
        for area in areas:
            minx, miny, maxx, maxy = area.bounds
            n = int(min(40, max(2, area.area / 0.9)))
            tries = 0
            placed: list[tuple[float, float]] = []
            while len(placed) < n and tries < n * 20:
                tries += 1
                x, y = rng.uniform(minx, maxx), rng.uniform(miny, maxy)
                if not area.contains(Point(x, y)) or any(math.hypot(x - a, y - b) < 0.45 for a, b in placed):
                    continue
                placed.append((x, y))
                hgt = rng.uniform(0.25, 1.4) if rng.random() < 0.7 else rng.uniform(1.4, 2.4)
                t = tc.cylinder(radius=rng.uniform(0.035, 0.07), height=hgt, sections=5)
                t.apply_translation((0, 0, hgt / 2))
                lean = trimesh.transformations.rotation_matrix(math.radians(rng.uniform(0, 14)),
                                                              (math.cos(rng.uniform(0, 6.3)), math.sin(rng.uniform(0, 6.3)), 0))
                t.apply_transform(lean)
                t.apply_translation((x, y, self.table.height_at(x, y) - 0.05))
                parts.append(t)
        if not parts:
            return None
        mesh = trimesh.util.concatenate(parts)
        return geom.trimesh_node("stumps", mesh, (0.06, 0.05, 0.045, 1.0))

    def _read_canopy(self) -> None:
        """The canopy's triangles as the table built them (kept, so a cut can be redone from them)."""
        self._canopy_read = True
        canopy = getattr(self.table, "canopy", None)
        if canopy is None:
            return
        for gnp in canopy.find_all_matches("**/+GeomNode"):
            node = gnp.node()
            mat = gnp.get_mat(self.table.root)
            for gi in range(node.get_num_geoms()):
                g = node.modify_geom(gi)
                vdata = g.modify_vertex_data()
                read = geom.positions(vdata, mat)
                if read is None:
                    continue
                pts, ai, stride, raw = read
                fmt = vdata.get_format()
                ccol = fmt.get_column(p3d.InternalName.get_color())
                colours = None
                if ccol is not None and ccol.get_numeric_type() == p3d.GeomEnums.NT_uint8 and \
                        fmt.get_array_with(p3d.InternalName.get_color()) == ai:
                    colours = raw[:, ccol.get_start():ccol.get_start() + 4].copy()
                for pi in range(g.get_num_primitives()):
                    prim = g.modify_primitive(pi)
                    if not isinstance(prim, p3d.GeomTriangles):
                        continue
                    prim.make_indexed()
                    idx_type = np.uint32 if prim.get_index_type() == p3d.GeomEnums.NT_uint32 else np.uint16
                    idx = np.frombuffer(memoryview(prim.get_vertices()), dtype=idx_type).copy()
                    self._canopy.append((node, gi, pi, idx, idx_type, pts, vdata, ai, stride,
                                         ccol.get_start() if colours is not None else None, colours))

    def _cut_canopy(self, extra: Polygon | None = None, apply: bool = True):
        """No canopy over burnt ground (and ``extra``): its triangles there dropped, the rim round it
        blackened. Returns the plan-view area the dropped triangles cover (or None); with ``apply=False``
        only that area, the canopy untouched."""
        if not self._canopy_read:
            self._read_canopy()
        polys = list(self.burnt.values()) + ([extra] if extra is not None else [])
        burnt = shapely.union_all(polys) if polys else None
        rim = burnt.buffer(RIM) if burnt is not None else None
        done_colours: set[int] = set()
        dropped = []
        for node, gi, pi, idx, idx_type, xyz, vdata, ai, stride, cstart, colours in self._canopy:
            xy = xyz[:, :2]
            tris = idx.reshape(-1, 3)
            if burnt is not None:
                cx = xy[tris, 0].mean(axis=1)
                cy = xy[tris, 1].mean(axis=1)
                keep = ~shapely.contains_xy(burnt.buffer(0.1), cx, cy)
                gone = tris[~keep]
                if len(gone):
                    dropped.append(shapely.polygons(xy[gone]))
                tris = tris[keep]
            if not apply:
                continue
            prim = node.modify_geom(gi).modify_primitive(pi)
            handle = prim.modify_vertices()
            data = np.ascontiguousarray(tris.ravel(), dtype=idx_type)
            handle.unclean_set_num_rows(len(data))
            if len(data):
                memoryview(handle).cast("B")[:] = data.tobytes()
            if colours is not None and id(vdata) not in done_colours:
                done_colours.add(id(vdata))
                c = colours.astype(float)
                if rim is not None:
                    d = shapely.distance(shapely.points(xy[:, 0], xy[:, 1]), burnt)
                    near = np.clip(1.0 - d / RIM, 0.0, 1.0)
                    c[:, :3] *= (1.0 - 0.85 * near)[:, None]
                arr = vdata.modify_array(ai)
                view = np.frombuffer(memoryview(arr).cast("B"), dtype=np.uint8).reshape(-1, stride)
                view[:, cstart:cstart + 4] = np.clip(c, 0, 255).astype(np.uint8)
        if not dropped:
            return None
        tris = shapely.make_valid(np.concatenate(dropped))
        return shapely.union_all(tris[shapely.area(tris) > 1e-6])
