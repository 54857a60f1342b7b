"""Buildings and works drawn as models, over the baked solids the line of sight uses.

The bake (``game.world.bake``) gives each building a plain solid: walls and a roof, a bunker's mound, a
wreck's box. Those stay the rules' truth but are hidden here, and in the same footprint and height the
client draws what a modeller would put on the table:

* hootches: stilts under a bamboo floor, woven bamboo walls with a door, a thatched hip roof laid in
  courses with an overhang and ragged eaves;
* masonry: whitewashed walls on a plinth, shuttered windows, a hipped roof of terracotta tiles;
* bunkers: courses of sandbags under a log-and-earth roof with a dark firing slit;
* trenches: a dark floor, earth walls up to a sandbag parapet, so the trench reads as cut into the ground;
* wrecks: a burnt-out truck.

Everything is merged into one Geom (one draw call), lit by the table's shader. Jitter is seeded from
each feature's id. What this module leaves out: line of sight and cover (the engine's, from the baked
solids), and damage in play.
"""

from __future__ import annotations

import math
import zlib

import numpy as np
import panda3d.core as p3d
from shapely.geometry import Polygon

from game.client import geom
from game.client.table import BUILDINGS, feature_shape
from game.client.vegetation import ground_heights

THATCH = np.array([0.50, 0.42, 0.26])
BAMBOO = np.array([0.70, 0.60, 0.38])
WEAVE = np.array([0.55, 0.45, 0.27])
TIMBER = np.array([0.34, 0.25, 0.16])
PLASTER = np.array([0.84, 0.79, 0.64])
PLINTH = np.array([0.50, 0.47, 0.42])
TILE = np.array([0.46, 0.25, 0.18])
SHUTTER = np.array([0.25, 0.40, 0.38])
DARK = np.array([0.07, 0.06, 0.05])
SANDBAG = np.array([0.55, 0.48, 0.33])
EARTH = np.array([0.30, 0.24, 0.15])
SOD = np.array([0.30, 0.33, 0.17])
RUST = np.array([0.30, 0.18, 0.11])
TRENCH_TYPES = ("trench",)


class Mesh:
    """Flat-shaded triangles with a colour each, gathered for one Geom."""

    def __init__(self, seed: int = 0):
        self.tris: list[np.ndarray] = []
        self.colours: list[np.ndarray] = []
        self.rng = np.random.default_rng(seed)

    def tri(self, a, b, c, rgb) -> None:
        self.tris.append(np.array([a, b, c], dtype=float))
        self.colours.append(np.clip(np.asarray(rgb, dtype=float), 0, 1))

    def quad(self, a, b, c, d, rgb) -> None:
        self.tri(a, b, c, rgb)
        self.tri(a, c, d, rgb)

    def box(self, centre, u, v, half, rgb, jitter: float = 0.0) -> None:
        """A box: centre, unit axes u, v in plan (w up), half extents (hu, hv, hw)."""
        c = np.asarray(centre, float)
        u, v = np.r_[np.asarray(u, float)[:2], 0.0], np.r_[np.asarray(v, float)[:2], 0.0]
        w = np.array([0.0, 0.0, 1.0])
        hu, hv, hw = half
        corner = [c + su * hu * u + sv * hv * v + sw * hw * w for sw in (-1, 1) for sv in (-1, 1) for su in (-1, 1)]
        rgb = np.asarray(rgb) * (1 + self.rng.uniform(-jitter, jitter)) if jitter else rgb
        for i in (0, 1, 2, 3, 4, 5):
            q = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)][i]
            shade = (0.7, 1.0, 0.9, 0.9, 0.85, 0.85)[i]
            self.quad(*[corner[k] for k in q], np.asarray(rgb) * shade)

    def node(self, name: str) -> p3d.GeomNode | None:
        if not self.tris:
            return None
        v = np.concatenate(self.tris)
        fn = np.cross(v[1::3] - v[0::3], v[2::3] - v[0::3])
        fn /= np.maximum(np.linalg.norm(fn, axis=1, keepdims=True), 1e-9)
        n = np.repeat(fn, 3, axis=0)
        c = np.c_[np.repeat(np.asarray(self.colours), 3, axis=0), np.ones(len(v))]
        return geom.mesh_node(name, v.astype(np.float32), n.astype(np.float32), c,
                              np.arange(len(v)).reshape(-1, 3))


def _seed(fid: str) -> int:
    return zlib.crc32(f"building/{fid}".encode())


def _frame(f: dict):
    """Centre, long axis, across axis, length and width of a feature's footprint rectangle."""
    rect = feature_shape(f).minimum_rotated_rectangle
    c = np.asarray(rect.exterior.coords)[:4]
    centre = c.mean(axis=0)
    e1, e2 = c[1] - c[0], c[2] - c[1]
    e = e1 if np.hypot(*e1) >= np.hypot(*e2) else e2
    ang = math.atan2(e[1], e[0])
    u = np.array([math.cos(ang), math.sin(ang)])
    v = np.array([-u[1], u[0]])
    length = float(np.ptp((c - centre) @ u))
    width = float(np.ptp((c - centre) @ v))
    return centre, u, v, length, width


def _xyz(p2, z) -> np.ndarray:
    return np.array([p2[0], p2[1], z], dtype=float)


def _hip(m: Mesh, centre, u, v, length, width, z0, z1, rgb, courses: int = 3, fringe: float = 0.0,
         strip: float = 0.0, tiles: bool = False) -> None:
    """A hip roof (eaves length x width at z0, ridge at z1), laid in courses, with a ragged fringe."""
    a, w = length / 2, width / 2
    ridge = max(a - 0.8 * w, 0.05)
    eave = [centre + u * sa * a + v * sv * w for sa, sv in ((1, -1), (1, 1), (-1, 1), (-1, -1))]
    top = [centre + u * ridge, centre + u * ridge, centre - u * ridge, centre - u * ridge]
    for i in range(4):  # a dark underlay: no light shows through where the courses' strips meet
        j = (i + 1) % 4
        m.quad(_xyz(eave[i], z0 - 0.012), _xyz(eave[j], z0 - 0.012), _xyz(top[j], z1 - 0.012),
               _xyz(top[i], z1 - 0.012), rgb * 0.45)
    for k in range(courses):
        t0, t1 = k / courses, (k + 1) / courses
        shade = 0.88 + 0.12 * t1 + m.rng.uniform(-0.04, 0.04)
        for i in range(4):
            j = (i + 1) % 4
            # each course starts a little down the slope over the one below it and stands proud of it,
            # as thatch bundles and tiles overlap
            s0 = max(t0 - 0.12 / courses, 0.0) if k else 0.0
            lo_i = eave[i] + (top[i] - eave[i]) * s0
            lo_j = eave[j] + (top[j] - eave[j]) * s0
            hi_i = eave[i] + (top[i] - eave[i]) * t1
            hi_j = eave[j] + (top[j] - eave[j]) * t1
            za, zb = z0 + (z1 - z0) * s0 + (0.018 if k else 0.0), z0 + (z1 - z0) * t1
            side = 1.0 if i % 2 else 0.92  # long and short slopes catch the light differently
            strips = max(1, int(np.linalg.norm(lo_j - lo_i) / strip)) if strip else 1
            for s in range(strips):  # bundles of straw (or rows of tiles) down the slope
                a0, a1 = s / strips, (s + 1) / strips
                p0, p1 = lo_i + (lo_j - lo_i) * a0, lo_i + (lo_j - lo_i) * a1
                q0, q1 = hi_i + (hi_j - hi_i) * a0, hi_i + (hi_j - hi_i) * a1
                if tiles:  # barrel tiles: ridges and troughs down the slope, courses a shade apart
                    bundle = (1.0 if s % 2 else 0.84) * (1.0 if k % 2 else 0.95) * m.rng.uniform(0.97, 1.03)
                else:  # bundles of straw, each its own
                    bundle = m.rng.uniform(0.82, 1.08) if strip else 1.0
                m.quad(_xyz(p0, za), _xyz(p1, za), _xyz(q1, zb), _xyz(q0, zb), rgb * shade * side * bundle)
    m.box(_xyz(centre, z1 + 0.01), u, v, (ridge + 0.04, 0.035, 0.025), rgb * 0.7)
    if fringe > 0:  # ragged eaves: straw hanging in uneven tufts below the eave line
        for i in range(4):
            j = (i + 1) % 4
            edge = eave[j] - eave[i]
            n = max(3, int(np.linalg.norm(edge) / 0.16))
            out = (eave[i] + eave[j]) / 2 - centre
            out = out / max(np.linalg.norm(out), 1e-6) * 0.03
            for s in range(n):
                p, q = eave[i] + edge * s / n, eave[i] + edge * (s + 1) / n
                drop = fringe * m.rng.uniform(0.5, 1.4)
                mid = (p + q) / 2 + out
                m.tri(_xyz(p, z0), _xyz(q, z0), _xyz(mid, z0 - drop), rgb * m.rng.uniform(0.7, 0.85))


def _woven_wall(m: Mesh, p, q, z0, z1, door: bool = False) -> None:
    """A wall of woven bamboo panels between plan points p and q (outward normal to the right)."""
    length = float(np.linalg.norm(q - p))
    cols = max(2, int(length / 0.16))
    rows = max(2, int((z1 - z0) / 0.12))
    door_at = cols // 2 if door else -1
    for i in range(cols):
        a, b = p + (q - p) * i / cols, p + (q - p) * (i + 1) / cols
        for k in range(rows):
            za, zb = z0 + (z1 - z0) * k / rows, z0 + (z1 - z0) * (k + 1) / rows
            if i in (door_at, door_at + 1) and k < rows * 0.8:
                rgb = DARK
            else:
                rgb = (BAMBOO if (i + k) % 2 else WEAVE) * m.rng.uniform(0.92, 1.06)
            m.quad(_xyz(a, za), _xyz(b, za), _xyz(b, zb), _xyz(a, zb), rgb)


def hootch(m: Mesh, f: dict, base: float, height: float) -> None:
    centre, u, v, length, width = _frame(f)
    eave = base + 0.05 + 0.45 * height  # the bake's eave line
    floor = base + 0.14
    for su in (-1, 0, 1):
        for sv in (-1, 1):
            p = centre + u * su * (length / 2 - 0.12) + v * sv * (width / 2 - 0.12)
            m.box(_xyz(p, (base + floor) / 2), u, v, (0.03, 0.03, (floor - base) / 2), TIMBER)
    m.box(_xyz(centre, floor), u, v, (length / 2 - 0.04, width / 2 - 0.04, 0.025), TIMBER * 1.2)
    a, w = length / 2 - 0.1, width / 2 - 0.1
    corners = [centre + u * sa * a + v * sv * w for sa, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    for i in range(4):
        _woven_wall(m, corners[i], corners[(i + 1) % 4], floor + 0.025, eave, door=(i == 0))
        m.box(_xyz(corners[i], (floor + eave) / 2), u, v, (0.03, 0.03, (eave - floor) / 2), TIMBER)
    _hip(m, centre, u, v, length + 0.3, width + 0.3, eave - 0.06, base + height,
         THATCH * m.rng.uniform(0.92, 1.05), courses=4, fringe=0.09, strip=0.14)


def masonry(m: Mesh, f: dict, base: float, height: float) -> None:
    centre, u, v, length, width = _frame(f)
    wall_top = base + 0.7 * height
    a, w = length / 2, width / 2
    m.box(_xyz(centre, base + 0.06), u, v, (a + 0.03, w + 0.03, 0.08), PLINTH)
    m.box(_xyz(centre, (base + wall_top) / 2), u, v, (a, w, (wall_top - base) / 2), PLASTER)
    for axis, across, half, other in ((u, v, a, w), (v, u, w, a)):
        for side in (-1, 1):
            n = max(1, int(2 * half / 0.75))
            for k in range(n):
                s = -half + (k + 0.5) * 2 * half / n
                p = centre + axis * s + across * side * (other + 0.012)
                z = base + 0.45 * (wall_top - base) + 0.12
                is_door = axis is u and side == -1 and k == n // 2
                hz = 0.32 if is_door else 0.16
                zc = base + 0.08 + hz if is_door else z
                m.box(_xyz(p, zc), axis, across, (0.11, 0.012, hz), DARK)
                if not is_door:
                    for sh in (-1, 1):
                        m.box(_xyz(p + axis * sh * 0.17, z), axis, across, (0.05, 0.016, 0.16), SHUTTER)
    _hip(m, centre, u, v, length + 0.24, width + 0.24, wall_top, base + height, TILE, courses=8, strip=0.09,
         tiles=True)


def _bags(m: Mesh, path: np.ndarray, z0: float, courses: int, ground=None) -> None:
    """Courses of sandbags laid along a polyline, each course offset half a bag."""
    bag = 0.22
    for k in range(courses):
        for i in range(len(path) - 1):
            p, q = path[i], path[i + 1]
            seg = float(np.linalg.norm(q - p))
            if seg < 1e-6:
                continue
            d = (q - p) / seg
            n = np.array([-d[1], d[0]])
            count = max(1, int(seg / bag))
            for b in range(count):
                t = (b + 0.5 + 0.5 * (k % 2)) / count
                if t > 1:
                    continue
                c2 = p + (q - p) * t
                zb = (ground(c2) if ground else z0) + 0.04 + k * 0.075
                m.box(_xyz(c2, zb), d, n, (bag * 0.46, 0.06, 0.036), SANDBAG * m.rng.uniform(0.85, 1.1))


def bunker(m: Mesh, f: dict, base: float, height: float) -> None:
    centre, u, v, length, width = _frame(f)
    a, w = length / 2, width / 2
    ring = np.array([centre + u * sa * a + v * sv * w for sa, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1))])
    wall = 0.6 * height
    _bags(m, ring, base, courses=max(2, int(wall / 0.075)))
    slit = base + wall
    m.box(_xyz(centre - v * (w - 0.05), slit + 0.03), u, v, (a * 0.7, 0.05, 0.035), DARK)
    roof = base + height
    for k in range(max(3, int(length / 0.14))):  # the log roof, ends showing under the earth
        s = -a + 0.05 + k * (2 * a - 0.1) / max(1, int(length / 0.14) - 1)
        m.box(_xyz(centre + u * s, slit + 0.08), v, u, (w + 0.06, 0.045, 0.04), TIMBER * m.rng.uniform(0.8, 1.1))
    lo = [centre + u * sa * (a + 0.05) + v * sv * (w + 0.05) for sa, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    hi = [centre + u * sa * (a - 0.35) + v * sv * (w - 0.35) for sa, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    z_lo = slit + 0.12
    for i in range(4):
        j = (i + 1) % 4
        m.quad(_xyz(lo[i], z_lo), _xyz(lo[j], z_lo), _xyz(hi[j], roof), _xyz(hi[i], roof), SOD * (0.9 + 0.05 * i))
    m.quad(*[_xyz(p, roof) for p in hi], SOD * 1.05)


def trench(m: Mesh, f: dict, ground) -> None:
    """A dark floor and earth walls rising to a sandbag parapet along both sides."""
    shape = feature_shape(f)
    for poly in getattr(shape, "geoms", [shape]):
        if not isinstance(poly, Polygon) or poly.is_empty:
            continue
        ring = np.asarray(poly.exterior.coords)
        if not poly.exterior.is_ccw:
            ring = ring[::-1]
        parapet = 0.13
        for i in range(len(ring) - 1):
            p, q = ring[i], ring[i + 1]
            gp, gq = ground(p), ground(q)
            # counter-clockwise ring: the inside is to the left, so the wall faces it
            m.quad(_xyz(q, gq + 0.02), _xyz(p, gp + 0.02), _xyz(p, gp + parapet), _xyz(q, gq + parapet),
                   EARTH * 0.55)
        floor = poly.buffer(-0.02)
        if not floor.is_empty:
            import trimesh.creation as tc

            top = tc.extrude_polygon(floor, 0.001)
            for t in top.faces:
                tri = top.vertices[t]
                if np.allclose(tri[:, 2], 0.001):
                    pts = [_xyz(p[:2], ground(p[:2]) + 0.025) for p in tri]
                    m.tri(*pts, DARK * 1.6)
        outer = np.asarray(poly.buffer(0.12, join_style="mitre").exterior.coords)
        _bags(m, outer, 0.0, courses=2, ground=lambda c: ground(c) + 0.02)


def wreck(m: Mesh, f: dict, base: float, height: float) -> None:
    """A burnt-out truck: chassis, cab, an open bed, wheels, rust and soot."""
    centre, u, v, length, width = _frame(f)
    a, w = length / 2, width / 2
    z = base + 0.12
    m.box(_xyz(centre, z), u, v, (a * 0.95, w * 0.7, 0.04), DARK * 2)
    for su in (-0.7, -0.1, 0.6):
        for sv in (-1, 1):
            m.box(_xyz(centre + u * su * a + v * sv * w * 0.8, base + 0.1), u, v, (0.1, 0.05, 0.1), DARK)
    cab = centre + u * a * 0.6
    m.box(_xyz(cab, z + 0.04 + 0.22 * height), u, v, (a * 0.3, w * 0.8, 0.22 * height), RUST)
    bed = centre - u * a * 0.3
    for sv in (-1, 1):
        m.box(_xyz(bed + v * sv * w * 0.8, z + 0.12), u, v, (a * 0.6, 0.02, 0.1), RUST * 0.8)
    m.box(_xyz(bed, z + 0.05), u, v, (a * 0.6, w * 0.8, 0.02), RUST * 0.6)


class Buildings:
    """The table's buildings and works as one merged model; the baked solids hidden under it."""

    def __init__(self, table, scenario: dict):
        self.table = table
        self.root = table.root.attach_new_node("buildings")
        self.root.set_shader_input("u_detail", 0.2)
        self.root.set_shader_input("u_paint", 0.0)
        self.root.set_two_sided(True)  # thin parts (fringes, trench walls) are seen from both sides
        features = list(scenario.get("features") or [])
        solids = self._hide_solids(features)
        m = Mesh()

        heights = ground_heights(table) if table.source == "glb" else table.heights

        def ground(p2):
            return float(heights([p2[0]], [p2[1]])[0])

        self.drawn: list[str] = []
        for f in features:
            ftype, fid = f.get("type"), str(f.get("id", ""))
            m.rng = np.random.default_rng(_seed(fid))
            if ftype in TRENCH_TYPES:
                trench(m, f, ground)
                self.drawn.append(fid)
                continue
            if ftype not in BUILDINGS:
                continue
            base, top = solids.get(fid, (None, None))
            if base is None:
                rect = np.asarray(feature_shape(f).minimum_rotated_rectangle.exterior.coords)[:4]
                base = float(heights(rect[:, 0], rect[:, 1]).min())
                top = base + float(f.get("height") or BUILDINGS[ftype][0])
            height = top - base
            {"hootch": hootch, "masonry": masonry, "bunker": bunker, "wreck": wreck}[ftype](m, f, base, height)
            self.drawn.append(fid)
        node = m.node("buildings")
        self.triangles = len(m.tris)
        if node is not None:
            self.root.attach_new_node(node)

    def _hide_solids(self, features: list[dict]) -> dict[str, tuple[float, float]]:
        """Hide the baked building solids (``building:<id>...``), returning each one's base and top."""
        ids = {str(f.get("id")) for f in features if f.get("type") in BUILDINGS}
        found: dict[str, tuple[float, float]] = {}
        for np_ in self.table.root.find_all_matches("**/+GeomNode"):
            name = np_.get_name()
            parts = name.split(":")
            fid = parts[1] if parts[0] == "building" and len(parts) > 1 else name.rsplit("-", 1)[0]
            if fid not in ids or not (parts[0] == "building" or name.endswith(("-walls", "-roof"))):
                continue
            lo, hi = np_.get_tight_bounds(self.table.root)
            if fid in found:
                lo.z, hi.z = min(lo.z, found[fid][0]), max(hi.z, found[fid][1])
            found[fid] = (float(lo.z), float(hi.z))
            np_.hide()
        return found
