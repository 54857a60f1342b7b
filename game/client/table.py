"""The table: a wooden table top with its mat, and the scenario's terrain on it.

Two sources, one result: the terrain baked by ``game.world`` as a .glb (path given by the engine in
``scenario.glb``), loaded through panda3d-gltf; or, when there is none yet, the scenario's feature list
drawn directly (areas as coloured patches, hills as stepped plateaus the way tabletop hills are made,
woods as translucent canopy volumes over a floor of trees, buildings as boxes with roofs).

Jungle canopy is drawn translucent so that stands beneath stay readable, and can be lifted off the
table altogether (as players lift a tree template) with ``set_canopy_visible``.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import panda3d.core as p3d
import trimesh
import trimesh.creation as tc
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.polygon import orient
from shapely.prepared import prep

from game.client import geom
from game.client.assets import load_glb

# Colours of the mat and the terrain (visual only; the rules' terrain data lives with the engine).
MAT = (0.50, 0.47, 0.30, 1.0)
TABLE_WOOD = (0.32, 0.20, 0.11, 1.0)
GROUND_COLORS: dict[str, tuple[float, float, float, float]] = {
    "open": MAT,
    "trail": (0.66, 0.54, 0.36, 1.0),
    "paddy": (0.38, 0.50, 0.36, 1.0),
    "bund": (0.55, 0.45, 0.29, 1.0),
    "mud": (0.42, 0.33, 0.21, 1.0),
    "stream": (0.22, 0.36, 0.38, 1.0),
    "river": (0.16, 0.28, 0.34, 1.0),
    "light": (0.45, 0.52, 0.24, 1.0),
    "rubber": (0.36, 0.42, 0.20, 1.0),
    "secondary": (0.26, 0.36, 0.16, 1.0),
    "dense": (0.18, 0.28, 0.12, 1.0),
    "bamboo": (0.40, 0.48, 0.20, 1.0),
    "mangrove": (0.22, 0.32, 0.20, 1.0),
    "rubble": (0.50, 0.47, 0.42, 1.0),
    "crater": (0.30, 0.24, 0.16, 1.0),
    "trench": (0.30, 0.24, 0.15, 1.0),
    "spider_hole": (0.12, 0.10, 0.08, 1.0),
    "hill": (0.48, 0.50, 0.28, 1.0),
}
# colours the client puts on baked nodes by role (see Table._tint)
TINTS: dict[str, tuple[float, float, float, float]] = {
    "water": (0.20, 0.34, 0.38, 1.0),
    "paddy": (0.36, 0.50, 0.34, 1.0),
}
CANOPY: dict[str, tuple[float, float, tuple[float, float, float]]] = {
    # type: (canopy bottom, canopy top, colour) -- defaults when the feature does not say
    "light": (0.0, 0.9, (0.42, 0.55, 0.20)),
    "rubber": (1.2, 2.6, (0.26, 0.44, 0.16)),
    "secondary": (0.6, 2.4, (0.20, 0.40, 0.12)),
    "dense": (0.8, 3.6, (0.10, 0.30, 0.08)),
    "bamboo": (0.0, 3.0, (0.42, 0.56, 0.18)),
    "mangrove": (0.3, 2.2, (0.14, 0.32, 0.14)),
}
BUILDINGS: dict[str, tuple[float, tuple[float, float, float, float], tuple[float, float, float, float]]] = {
    # type: (wall height, wall colour, roof colour)
    "hootch": (0.7, (0.62, 0.52, 0.36, 1.0), (0.78, 0.68, 0.42, 1.0)),
    "masonry": (1.4, (0.80, 0.78, 0.70, 1.0), (0.60, 0.32, 0.24, 1.0)),
    "bunker": (0.5, (0.36, 0.30, 0.20, 1.0), (0.30, 0.36, 0.18, 1.0)),
    "wreck": (0.6, (0.30, 0.32, 0.28, 1.0), (0.30, 0.32, 0.28, 1.0)),
}
# terrain the water shader draws, with its colour (the bed shows through toward the shore)
WATER_COLORS: dict[str, tuple[float, float, float]] = {
    "stream": (0.17, 0.22, 0.17),
    "river": (0.14, 0.20, 0.18),
    "paddy": (0.22, 0.25, 0.20),
}
RICE = (0.36, 0.52, 0.18)
RICE_ROWS = 0.22
"""Spacing of the rice rows in a paddy, inches."""
FLOW = 0.25
"""How fast streams flow, inches per second."""
PAINTED_ROLES = ("ground", "trail", "mud", "bund", "crater", "trench", "spider_hole", "rubble")
"""Baked nodes coloured by the painted mat (game/client/mat.py) rather than by their material."""
FRAME_RIM, FRAME_LIP = 1.5, 0.3
"""Width of the wooden frame round the mat, and how far it stands above it, inches."""
FLOOR_Z = -30.0
"""The hall's floor, inches below the table top."""
OVERLAY_ORDER = ["paddy", "mud", "light", "rubber", "secondary", "dense", "bamboo", "mangrove", "rubble",
                 "crater", "stream", "river", "bund", "trail", "trench", "spider_hole"]


def feature_shape(f: dict):
    """A feature's footprint (shapely) from its view dict: polygon, path + width, or point + size/radius."""
    if f.get("polygon"):
        poly = Polygon(f["polygon"])
        return poly if poly.is_valid else poly.buffer(0)
    if f.get("path"):
        return LineString(f["path"]).buffer(max(f.get("width", 1.0), 0.1) / 2, cap_style="flat",
                                            join_style="round")
    x, y = f.get("point", (0.0, 0.0))
    if f.get("radius"):
        return Point(x, y).buffer(f["radius"], quad_segs=8)
    w, d = f.get("size") or (1.0, 1.0)
    shape = box(x - w / 2, y - d / 2, x + w / 2, y + d / 2)
    return affinity.rotate(shape, f.get("rotation", 0.0), origin=(x, y))


def _at(x: float, y: float, z: float) -> np.ndarray:
    return trimesh.transformations.translation_matrix((x, y, z))


def _texture(name: str, img: np.ndarray, fmt) -> p3d.Texture:
    """A 2D texture over the table from an image array (row 0 south, components in Panda's BGR(A) order)."""
    tex = p3d.Texture(name)
    tex.setup_2d_texture(img.shape[1], img.shape[0], p3d.Texture.T_unsigned_byte, fmt)
    tex.set_ram_image(np.ascontiguousarray(img).tobytes())
    tex.set_wrap_u(p3d.SamplerState.WM_clamp)
    tex.set_wrap_v(p3d.SamplerState.WM_clamp)
    tex.set_minfilter(p3d.SamplerState.FT_linear_mipmap_linear)
    tex.set_magfilter(p3d.SamplerState.FT_linear)
    return tex


def _polys(shape):
    if shape.is_empty:
        return []
    return list(shape.geoms) if hasattr(shape, "geoms") else [shape]


class Table:
    """The table's scene graph and the ground height under any point."""

    def __init__(self, parent: p3d.NodePath, scenario: dict, canopy_alpha: float = 0.55):
        table = scenario.get("table") or {}
        self.width = float(table.get("width", 72.0))
        self.height = float(table.get("height", 48.0))
        self.root = parent.attach_new_node("table")
        self.canopy = self.root.attach_new_node("canopy")
        self.canopy_alpha = canopy_alpha
        self.features = list(scenario.get("features") or [])
        self._hills: list[tuple[object, float]] = []
        self._ground_np: p3d.NodePath | None = None
        self._height_cache: dict[tuple[int, int], float] = {}
        self.source = "features"
        self._build_frame()
        glb = scenario.get("glb")
        self.glb = Path(glb) if glb else None
        if self.glb is not None and self.glb.exists():
            self._load_glb(self.glb)
            self.source = "glb"
        else:
            self._build_from_features()
        self._style_canopy()

    # -- building ------------------------------------------------------------------------------
    def _build_frame(self) -> None:
        """The wooden table: a top under the mat, a raised frame round it, legs, and the hall's floor."""
        w, h = self.width, self.height
        rim, lip, depth = FRAME_RIM, FRAME_LIP, 1.2
        # the top lies below the baked ground's slab, which sinks under water and paddies
        wood = [tc.box(extents=(w, h, depth), transform=_at(w / 2, h / 2, -0.8 - depth / 2))]
        z0, z1 = -0.8 - depth, lip
        for cx, cy, ex, ey in ((w / 2, -rim / 2, w + 2 * rim, rim), (w / 2, h + rim / 2, w + 2 * rim, rim),
                               (-rim / 2, h / 2, rim, h), (w + rim / 2, h / 2, rim, h)):
            wood.append(tc.box(extents=(ex, ey, z1 - z0), transform=_at(cx, cy, (z0 + z1) / 2)))
        for lx in (2.0, w - 2.0):
            for ly in (2.0, h - 2.0):
                leg = tc.box(extents=(2.5, 2.5, z0 - FLOOR_Z), transform=_at(lx, ly, (z0 + FLOOR_Z) / 2))
                wood.append(leg)
        frame = trimesh.util.concatenate(wood)
        node = self.root.attach_new_node(geom.trimesh_node("table-top", frame, TABLE_WOOD))
        node.set_tag("ground", "1")
        node.set_shader_input("u_wood", 1.0)
        mat = tc.box(extents=(w, h, 0.04))
        mat.apply_translation((w / 2, h / 2, -0.02))
        self.mat = self.root.attach_new_node(geom.trimesh_node("mat", mat, MAT))
        self.mat.set_shader_input("u_paint", 1.0)
        self.mat.set_shader_input("u_baked", 1.0)
        # the floor of the hall, far below, so the table stands in a room rather than in the void
        floor = tc.box(extents=(w * 30, h * 30, 1))
        floor.apply_translation((w / 2, h / 2, FLOOR_Z - 0.5))
        self.root.attach_new_node(geom.trimesh_node("floor", floor, (0.16, 0.14, 0.12, 1)))

    def _load_glb(self, path: Path) -> None:
        model = load_glb(path)
        model.reparent_to(self.root)
        self._tint(model)
        for np_ in model.find_all_matches("**"):
            tags = " ".join(f"{k}={np_.get_tag(k)}" for k in np_.node().get_tag_keys()).lower()
            name = np_.get_name().lower()
            if "canopy" in tags or "canopy" in name or any(f"={c}" in tags for c in CANOPY):
                if np_.node().is_geom_node() or np_.get_num_children():
                    np_.reparent_to(self.canopy)
        self._ground_np = model
        self.mat.hide()
        self.canopy.flatten_strong()
        model.flatten_strong()

    def _tint(self, model: p3d.NodePath) -> None:
        """Water and flooded paddies read as water, the ground as the painted mat. The bake's colours are
        the world engineer's, but a stream baked mud-brown reads as a trail from across the room: water
        nodes get the water shader (shaders/water.frag), with the stream's flow and the paddy's rice rows;
        the ground and the earthen sheets on it (trails, bunds, mud) take their colour from the mat. Nodes
        are named ``role:feature`` (docs/terrain.md); their ``role``/``terrain`` extras, where the loader
        keeps them as tags, win."""
        from game.client.scene import load_shader

        by_id = {str(f.get("id")): f for f in self.features}
        water_shader = None
        for np_ in model.find_all_matches("**/+GeomNode"):
            parts = np_.get_name().split(":")
            role = np_.get_net_tag("role") or parts[0]
            feature = parts[1] if len(parts) > 1 else ""
            terrain = np_.get_net_tag("terrain") or (by_id.get(feature) or {}).get("type") or role
            berm = role == "trench" and len(parts) > 2  # (a trench's berm keeps its colour)
            if role in PAINTED_ROLES and not berm:
                np_.set_shader_input("u_paint", 1.0)
                np_.set_shader_input("u_baked", 1.0)
                if role == "bund":  # bunds lie on the paddy's water, which is drawn pulled forward (below)
                    np_.set_depth_offset(3)
                continue
            color = TINTS.get(role) or (TINTS.get(terrain) if role in ("water", "paddy") else None)
            if role == "water":
                color = GROUND_COLORS.get(terrain) if terrain in ("stream", "river") else color
            if color is None:
                continue
            # the colour comes from the glTF material (x vertex colours): replace both
            mat = p3d.Material(f"tint-{role}")
            mat.set_base_color(color)
            np_.set_material(mat, 2)
            np_.set_color((1, 1, 1, 1), 2)
            # the ground's own vertex colours lie in the same plane: draw the water over them
            np_.set_depth_offset(2)
            np_.set_z(np_.get_z() + 0.015)
            water_shader = water_shader or load_shader("water")
            np_.set_shader(water_shader, 1)
            for name, value in self._water_inputs(role, terrain, by_id.get(feature) or {}).items():
                np_.set_shader_input(name, value)

    @staticmethod
    def _water_inputs(role: str, terrain: str, feature: dict) -> dict:
        """The water shader's inputs for one stream or paddy: its colour, its flow, its rice rows."""
        inputs = {"u_water": p3d.LVector3(*WATER_COLORS.get(terrain, WATER_COLORS["stream"])),
                  "u_flow": p3d.LVector2(0, 0), "u_rows": p3d.LVector4(1, 0, RICE_ROWS, 0),
                  "u_rice": p3d.LVector3(*RICE)}
        path = feature.get("path") or []
        if role == "water" and len(path) >= 2:
            # one direction per stream: from its first point to its last (seeded streams are drawn downhill)
            d = np.subtract(path[-1], path[0]).astype(float)
            if np.hypot(*d) > 1e-6:
                d *= FLOW / np.hypot(*d)
                inputs["u_flow"] = p3d.LVector2(*d)
        if role == "paddy" or terrain == "paddy":
            with_shape = feature_shape(feature) if feature else None
            if with_shape is not None and not with_shape.is_empty:
                rect = np.asarray(with_shape.minimum_rotated_rectangle.exterior.coords)
                e1, e2 = rect[1] - rect[0], rect[2] - rect[1]
                e = e1 if np.hypot(*e1) >= np.hypot(*e2) else e2
                e = e / max(np.hypot(*e), 1e-9)
                inputs["u_rows"] = p3d.LVector4(float(e[0]), float(e[1]), RICE_ROWS, 0.75)
            else:
                inputs["u_rows"] = p3d.LVector4(1, 0, RICE_ROWS, 0.75)
            inputs["u_water"] = p3d.LVector3(*WATER_COLORS["paddy"])
        return inputs

    def dress(self, sun: tuple[float, float, float],
              cache: Path | None = None) -> tuple[p3d.Texture, p3d.Texture]:
        """The painted mat and the baked light (for a baked table) as textures over the table, for the
        lit and water shaders (``u_mat``, ``u_light``). ``sun``: unit vector toward the sun, table frame;
        ``cache``: where the painted mat is kept between launches."""
        from game.client.mat import mat_image

        img = mat_image(self.features, self.width, self.height, cache)
        self.mat_texture = _texture("mat", img[:, :, [2, 1, 0, 3]], p3d.Texture.F_rgba)
        light = None
        if self.source == "glb":
            from game.world.lightmap import light_map

            try:
                light, _ = light_map(self.glb, self.width, self.height, sun)
            except (OSError, ValueError):  # a table the light cannot be cast on is drawn unshaded
                light = None
        if light is None:
            light = np.full((1, 1, 2), 255, np.uint8)
        rgb = np.dstack([np.zeros(light.shape[:2], np.uint8), light[:, :, 1], light[:, :, 0]])  # BGR
        self.light_texture = _texture("light", rgb, p3d.Texture.F_rgb)
        return self.mat_texture, self.light_texture

    def _build_from_features(self) -> None:
        patches = self.root.attach_new_node("patches")
        order = {t: i for i, t in enumerate(OVERLAY_ORDER)}
        flat = [f for f in self.features if f.get("type") in GROUND_COLORS and f.get("type") != "hill"]
        flat.sort(key=lambda f: order.get(f.get("type"), 0))
        for i, f in enumerate(flat):
            color = GROUND_COLORS[f["type"]]
            for poly in _polys(feature_shape(f).intersection(box(0, 0, self.width, self.height))):
                mesh = tc.extrude_polygon(poly, 0.02 + 0.004 * i)
                patches.attach_new_node(geom.trimesh_node(f"{f.get('id')}", mesh, color))
        for f in self.features:
            ftype = f.get("type")
            if ftype == "hill":
                self._hill(f)
            elif ftype in CANOPY:
                self._woods(f)
            elif ftype in BUILDINGS:
                self._building(f)
        patches.set_shader_input("u_paint", 1.0)
        patches.set_shader_input("u_baked", 1.0)
        patches.flatten_strong()
        self.canopy.flatten_strong()

    def _hill(self, f: dict) -> None:
        height = float(f.get("height") or 1.0)
        shape = feature_shape(f)
        steps = max(1, round(height / 0.75))
        for k in range(steps):
            layer = shape.buffer(-0.9 * k, join_style="round")
            z = height * (k + 1) / steps
            for poly in _polys(layer):
                mesh = tc.extrude_polygon(poly.simplify(0.05), z)
                shade = 0.92 + 0.08 * (k + 1) / steps
                color = tuple(c * shade for c in GROUND_COLORS["hill"][:3]) + (1.0,)
                self.root.attach_new_node(geom.trimesh_node(f"{f.get('id')}-{k}", mesh, color))
            self._hills.append((prep(layer), z))

    def _woods(self, f: dict) -> None:
        bottom, top, rgb = CANOPY[f["type"]]
        bottom = float(f.get("canopy_bottom", bottom) if f.get("canopy_bottom") is not None else bottom)
        top = float(f.get("canopy_top", top) if f.get("canopy_top") is not None else top)
        shape = feature_shape(f)
        seed = sum(ord(c) for c in str(f.get("id", "")))
        rng = np.random.default_rng(seed)
        trunks = []
        for poly in _polys(shape):
            body = tc.extrude_polygon(poly.simplify(0.05), max(top - bottom, 0.2))
            body.apply_translation((0, 0, bottom))
            # canopy high above the ground (rubber, tall jungle) is drawn thinner: the stands under it
            # must stay readable from above
            alpha = 0.5 if bottom >= 1.0 else 1.0
            self.canopy.attach_new_node(geom.trimesh_node(f"{f.get('id')}-canopy", body, (*rgb, alpha)))
            # trunks, so the wood reads as trees from the side
            minx, miny, maxx, maxy = poly.bounds
            pp = prep(poly)
            count = int(min(80, poly.area / 2.5))
            for _ in range(count * 3):
                if len(trunks) >= count:
                    break
                x, y = rng.uniform(minx, maxx), rng.uniform(miny, maxy)
                if pp.contains(Point(x, y)):
                    t = tc.cylinder(radius=0.07, height=max(bottom, 0.3) + 0.4, sections=5)
                    t.apply_translation((x, y, (max(bottom, 0.3) + 0.4) / 2))
                    trunks.append(t)
        if trunks:
            mesh = trimesh.util.concatenate(trunks)
            self.root.attach_new_node(geom.trimesh_node(f"{f.get('id')}-trunks", mesh, (0.30, 0.22, 0.14, 1)))

    def _building(self, f: dict) -> None:
        wall_h, wall, roof = BUILDINGS[f["type"]]
        wall_h = float(f.get("height") or wall_h)
        shape = feature_shape(f)
        for poly in _polys(shape):
            poly = orient(poly.simplify(0.01), 1.0)
            base_z = self.height_at(*poly.centroid.coords[0])
            walls = tc.extrude_polygon(poly, wall_h * 0.65)
            walls.apply_translation((0, 0, base_z))
            self.root.attach_new_node(geom.trimesh_node(f"{f.get('id')}-walls", walls, wall))
            # a hipped roof: the outline scaled to a ridge
            ridge = affinity.scale(poly, 0.35, 0.35)
            lower = np.array(poly.exterior.coords[:-1])
            upper = np.array(ridge.exterior.coords[:-1])
            n = len(lower)
            verts = np.vstack([np.c_[lower, np.full(n, wall_h * 0.65 + base_z)],
                               np.c_[upper, np.full(n, wall_h + base_z)]])
            faces = []
            for i in range(n):
                j = (i + 1) % n
                faces += [[i, j, n + j], [i, n + j, n + i]]
            faces += [[n, n + i, n + i + 1] for i in range(1, n - 1)]
            roof_mesh = trimesh.Trimesh(verts, faces, process=False)
            self.root.attach_new_node(geom.trimesh_node(f"{f.get('id')}-roof", roof_mesh, roof))

    def _style_canopy(self) -> None:
        self.canopy.set_transparency(p3d.TransparencyAttrib.M_alpha)
        self.canopy.set_alpha_scale(self.canopy_alpha)
        self.canopy.set_depth_write(False)
        self.canopy.set_bin("transparent", 5)
        self.canopy.set_two_sided(True)
        self.canopy.set_shader_input("u_backlight", 0.5)

    # -- queries ---------------------------------------------------------------------------------
    def set_canopy_visible(self, visible: bool) -> None:
        self.canopy.show() if visible else self.canopy.hide()

    def height_at(self, x: float, y: float) -> float:
        """Ground height (inches) under a point: hills for a drawn table, a ray cast on a baked one."""
        key = (int(math.floor(x * 4)), int(math.floor(y * 4)))
        if key in self._height_cache:
            return self._height_cache[key]
        z = 0.0
        if self._ground_np is not None:
            # the bucketed triangles first (microseconds), a collision ray where they have none (ms)
            z = float(self._bucket_heights(np.array([x]), np.array([y]))[0])
            z = max(0.0, z) if math.isfinite(z) else self._ray_height(x, y)
        else:
            pt = Point(x, y)
            for shape, top in self._hills:
                if top > z and shape.contains(pt):
                    z = top
        self._height_cache[key] = z
        return z

    def heights(self, xs, ys) -> np.ndarray:
        """Ground heights under many points at once (decals draped on the ground): the top of the baked
        ground's triangles under each, by a plan-view bucket search (a ray per point through the
        collision traverser costs milliseconds each); ``height_at`` where no triangle is found."""
        xs, ys = np.asarray(xs, dtype=float).ravel(), np.asarray(ys, dtype=float).ravel()
        if self._ground_np is None:
            return np.array([self.height_at(x, y) for x, y in zip(xs, ys, strict=True)])
        out = self._bucket_heights(xs, ys)
        miss = ~np.isfinite(out)
        for i in np.nonzero(miss)[0]:
            out[i] = self.height_at(xs[i], ys[i])
        return np.maximum(out, 0.0)

    def _bucket_heights(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """The top of the baked ground's triangles under each point; -inf where none lies under it."""
        if not hasattr(self, "_buckets"):
            self._buckets = self._bucket_ground()
        tris, start, order, cell, nx = self._buckets
        out = np.full(len(xs), -np.inf)
        if len(tris):
            ci = np.clip((xs // cell).astype(int), 0, nx - 1)
            cj = np.clip((ys // cell).astype(int), 0, len(start) // nx - 1)
            c = cj * nx + ci
            n = start[c + 1] - start[c]
            pts = np.repeat(np.arange(len(xs)), n)
            offs = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
            cand = order[np.repeat(start[c], n) + offs]
            a, b, cc = tris[cand, 0], tris[cand, 1], tris[cand, 2]
            px, py = xs[pts], ys[pts]
            d = (b[:, 1] - cc[:, 1]) * (a[:, 0] - cc[:, 0]) + (cc[:, 0] - b[:, 0]) * (a[:, 1] - cc[:, 1])
            ok = np.abs(d) > 1e-12
            d = np.where(ok, d, 1.0)
            l1 = ((b[:, 1] - cc[:, 1]) * (px - cc[:, 0]) + (cc[:, 0] - b[:, 0]) * (py - cc[:, 1])) / d
            l2 = ((cc[:, 1] - a[:, 1]) * (px - cc[:, 0]) + (a[:, 0] - cc[:, 0]) * (py - cc[:, 1])) / d
            l3 = 1 - l1 - l2
            inside = ok & (l1 >= -1e-6) & (l2 >= -1e-6) & (l3 >= -1e-6)
            z = l1 * a[:, 2] + l2 * b[:, 2] + l3 * cc[:, 2]
            np.maximum.at(out, pts[inside], z[inside])
        return out

    def _bucket_ground(self, cell: float = 1.0):
        """The ground's triangles in table inches, and which lie over each ``cell``-inch square (CSR)."""
        tris = []
        for gnp in self._ground_np.find_all_matches("**/+GeomNode"):
            mat = gnp.get_mat(self.root)
            node = gnp.node()
            for gi in range(node.get_num_geoms()):
                g = node.get_geom(gi).decompose()
                read = geom.positions(g.get_vertex_data(), mat)
                if read is None:
                    continue
                xyz = read[0]
                for pi in range(g.get_num_primitives()):
                    prim = g.get_primitive(pi)
                    if not isinstance(prim, p3d.GeomTriangles):
                        continue
                    prim = prim.make_copy()
                    prim.make_indexed()
                    kind = np.uint32 if prim.get_index_type() == p3d.GeomEnums.NT_uint32 else np.uint16
                    idx = np.frombuffer(memoryview(prim.get_vertices()), dtype=kind).reshape(-1, 3)
                    tris.append(xyz[idx])
        nx, ny = int(math.ceil(self.width / cell)) + 1, int(math.ceil(self.height / cell)) + 1
        if not tris:
            return np.zeros((0, 3, 3)), np.zeros(nx * ny + 1, dtype=int), np.zeros(0, dtype=int), cell, nx
        t = np.concatenate(tris)
        lo = np.floor(t[:, :, :2].min(axis=1) / cell).astype(int)
        hi = np.floor(t[:, :, :2].max(axis=1) / cell).astype(int)
        lo = np.clip(lo, 0, [nx - 1, ny - 1])
        hi = np.clip(hi, 0, [nx - 1, ny - 1])
        cells, ids = [], []
        for di in range(int((hi - lo)[:, 0].max()) + 1):
            for dj in range(int((hi - lo)[:, 1].max()) + 1):
                keep = (lo[:, 0] + di <= hi[:, 0]) & (lo[:, 1] + dj <= hi[:, 1])
                cells.append((lo[keep, 1] + dj) * nx + lo[keep, 0] + di)
                ids.append(np.nonzero(keep)[0])
        cells, ids = np.concatenate(cells), np.concatenate(ids)
        order = ids[np.argsort(cells, kind="stable")]
        start = np.r_[0, np.cumsum(np.bincount(cells, minlength=nx * ny))]
        return t, start, order, cell, nx

    def _ray_height(self, x: float, y: float) -> float:
        if not hasattr(self, "_trav"):
            self._trav = p3d.CollisionTraverser("ground")
            self._queue = p3d.CollisionHandlerQueue()
            ray_node = p3d.CollisionNode("ground-ray")
            self._ray = p3d.CollisionRay(0, 0, 100, 0, 0, -1)
            ray_node.add_solid(self._ray)
            ray_node.set_from_collide_mask(p3d.BitMask32.bit(5))
            ray_node.set_into_collide_mask(p3d.BitMask32.all_off())
            self._ray_np = self.root.attach_new_node(ray_node)
            self._trav.add_collider(self._ray_np, self._queue)
            self._ground_np.set_collide_mask(p3d.BitMask32.bit(5))
        self._ray.set_origin(x, y, 100)
        self._trav.traverse(self._ground_np)
        if self._queue.get_num_entries() == 0:
            return 0.0
        self._queue.sort_entries()
        return max(0.0, self._queue.get_entry(0).get_surface_point(self.root).z)
