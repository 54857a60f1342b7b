"""Tree prototypes for the table's woods: unit trees (crown radius 1 in plan, height 1) built once by
code, each one mesh with vertex colours, for ``game.client.vegetation`` to plant and instance.

Broadleaf crowns are noise-displaced domes on a short trunk, darker low and inside; the emergent
giant spreads four flat crowns on a tall pale trunk; a bush is two rough blobs; rubber trees have pale
straight trunks under a high, wide crown; coconut palms (about 150 triangles) have a curved ringed trunk
and drooping fronds, bananas broad leaves; bamboo is a clump of thin culms with leaf ribbons; grass is
a tuft of blades; mangrove stands on arched prop roots. Fixed seeds: the same meshes on every machine.
Vertex alpha marks leaves (``LEAF``) and wood (``WOOD``), so
the foliage shader can tint, lift or burn the leaves alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import trimesh.creation as tc

LEAF, WOOD = 1.0, 0.0
"""Vertex alpha marks a prototype's parts: leaves take the tree's tint and go when it burns."""

Mesh = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # vertices, normals, colours (rgba), faces


# -- prototypes: unit trees (crown radius 1 in plan, height 1), built once -----------------------------
def _part(v: np.ndarray, f: np.ndarray, rgb, kind: float, n: np.ndarray | None = None,
          shade: np.ndarray | None = None) -> Mesh:
    if n is None:
        n = _normals(v, f)
    s = np.ones(len(v)) if shade is None else shade
    c = np.c_[np.outer(s, rgb), np.full(len(v), kind)]
    return v, n, c, f


def _normals(v: np.ndarray, f: np.ndarray) -> np.ndarray:
    fn = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    n = np.zeros_like(v)
    for k in range(3):
        np.add.at(n, f[:, k], fn)
    return n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-9)


def _merge(parts: list[Mesh]) -> Mesh:
    vs, ns, cs, fs, base = [], [], [], [], 0
    for v, n, c, f in parts:
        vs.append(v), ns.append(n), cs.append(c), fs.append(f + base)
        base += len(v)
    return np.vstack(vs), np.vstack(ns), np.vstack(cs), np.vstack(fs)


def _blob(rng, centre, radii, subdiv: int = 1, rough: float = 0.16, dark: float = 0.5) -> Mesh:
    """A crown: a squashed icosphere displaced by a few smooth lumps (a cauliflower outline, not a ball),
    flatter below than above, darker low and inside (self-shadowed)."""
    s = tc.icosphere(subdivisions=subdiv)
    d = np.asarray(s.vertices, dtype=float)
    f = np.asarray(s.faces)
    lumps = np.zeros(len(d))
    for _ in range(4):
        w = rng.normal(size=3)
        lumps += np.cos(rng.uniform(2.0, 4.0) * d @ (w / np.linalg.norm(w)) + rng.uniform(0, 2 * math.pi))
    v = d * (1 + rough * (0.7 * lumps / 2 + 0.3 * rng.uniform(-1, 1, len(d))))[:, None]
    v[:, 2] = np.where(v[:, 2] < 0, v[:, 2] * 0.6, v[:, 2])
    up = np.clip((d[:, 2] + 1) / 2, 0, 1)
    shade = (dark + (1 - dark) * up ** 0.8) * (0.92 + 0.1 * np.clip(lumps / 2, -1, 1))
    v = v * np.asarray(radii) + np.asarray(centre)
    return _part(v, f, (1, 1, 1), LEAF, shade=shade * rng.uniform(0.92, 1.04, len(v)))


def _dome(rng, centre, radii, k: int = 8, rough: float = 0.14, dark: float = 0.5) -> Mesh:
    """A cheap crown (48 triangles for k = 8): three lumpy rings between a low apex and a high one,
    broad above its middle and tucked in below, darker low (self-shadowed). Cheaper than an icosphere
    by 40 %, which the software renderer's frame needs; the leaf noise in the shader hides the facets."""
    rings = ((-0.55, 0.62), (-0.05, 1.0), (0.55, 0.72))  # (z, radius) of each ring on the unit crown
    lumps = np.zeros(k)
    for _ in range(2):
        lumps += np.cos(np.arange(k) * 2 * math.pi / k * rng.integers(1, 4) + rng.uniform(0, 2 * math.pi))
    pts = [[0, 0, -0.75]]
    for n, (z, r) in enumerate(rings):
        ang = (np.arange(k) + 0.5 * n) * 2 * math.pi / k + rng.uniform(-0.15, 0.15, k)
        rr = r * (1 + rough * (0.6 * lumps / 2 + 0.4 * rng.uniform(-1, 1, k)))
        zz = z + rough * 0.5 * rng.uniform(-1, 1, k)
        pts += np.c_[rr * np.cos(ang), rr * np.sin(ang), zz].tolist()
    pts.append([0, 0, 1.0])
    v = np.asarray(pts, dtype=float)
    f = [(0, 1 + (j + 1) % k, 1 + j) for j in range(k)]
    for n in range(2):
        a, b = 1 + n * k, 1 + (n + 1) * k
        for j in range(k):
            jn = (j + 1) % k
            f += [(a + j, a + jn, b + j), (a + jn, b + jn, b + j)]
    top = 1 + 3 * k
    f += [(1 + 2 * k + j, 1 + 2 * k + (j + 1) % k, top) for j in range(k)]
    up = np.clip((v[:, 2] + 0.75) / 1.75, 0, 1)
    shade = (dark + (1 - dark) * up ** 0.8) * rng.uniform(0.92, 1.05, len(v))
    n = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-6)  # a sphere's normals: soft shading
    v = v * np.asarray(radii) + np.asarray(centre)
    n = n / np.asarray(radii)
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    return _part(v, np.asarray(f), (1, 1, 1), LEAF, n=n, shade=shade)


def _tube(path: np.ndarray, radii: np.ndarray, sides: int, rgb, kind: float = WOOD) -> Mesh:
    """A tapered tube along a polyline (no caps): trunks, culms, roots."""
    k = len(path)
    d = np.gradient(path, axis=0)
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    ref = np.where(np.abs(d[:, 2:3]) < 0.9, np.array([[0, 0, 1.0]]), np.array([[1.0, 0, 0]]))
    a = np.cross(d, ref)
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    b = np.cross(d, a)
    ang = np.linspace(0, 2 * math.pi, sides, endpoint=False)
    ring = np.cos(ang)[None, :, None] * a[:, None] + np.sin(ang)[None, :, None] * b[:, None]
    v = (path[:, None] + ring * radii[:, None, None]).reshape(-1, 3)
    n = ring.reshape(-1, 3)
    f = []
    for i in range(k - 1):
        for j in range(sides):
            p, q = i * sides + j, i * sides + (j + 1) % sides
            f += [(p, q, q + sides), (p, q + sides, p + sides)]
    shade = np.repeat(0.75 + 0.25 * np.linspace(0, 1, k), sides)
    return _part(v, np.asarray(f), rgb, kind, n=n, shade=shade)


def _ribbon(path: np.ndarray, width: np.ndarray, side: np.ndarray, rgb, fold: float = 0.3) -> Mesh:
    """A leaf: a strip along ``path``, with a folded midrib (three vertices a section) unless ``fold``
    is 0 (two: a flat blade, half the triangles)."""
    edges = [path - side * width[:, None], path + side * width[:, None]]
    if fold:
        edges.insert(1, path + np.array([0, 0, fold]) * width[:, None] * 0.5)
    w = len(edges)
    v = np.stack(edges, axis=1).reshape(-1, 3)
    f = []
    for i in range(len(path) - 1):
        a, b = i * w, (i + 1) * w
        for e in range(w - 1):
            f += [(a + e, a + e + 1, b + e + 1), (a + e, b + e + 1, b + e)]
    f = np.asarray(f)
    across = [0.85, 1.0, 0.85] if fold else [0.92, 0.92]
    shade = np.tile(across, len(path)) * np.repeat(np.linspace(0.8, 1.0, len(path)), w)
    return _part(v, f, rgb, LEAF, shade=shade)


BARK = (0.30, 0.22, 0.15)


def broadleaf(seed: int) -> Mesh:
    rng = np.random.default_rng(seed)
    t = np.array([[0, 0, 0], [0.02, 0.03, 0.62]])
    return _merge([_tube(t, np.array([0.1, 0.05]), 5, BARK),
                   _dome(rng, (0, 0, 0.66), (1.0, 1.0, 0.34))])


def giant(seed: int) -> Mesh:
    rng = np.random.default_rng(seed)
    t = np.array([[0, 0, 0], [0, 0, 0.4], [0.02, 0.0, 0.78]])
    parts = [_tube(t, np.array([0.08, 0.045, 0.035]), 6, (0.42, 0.36, 0.28))]
    for ang, r, z in ((0.3, 0.42, 0.84), (2.4, 0.40, 0.86), (4.3, 0.38, 0.82), (0, 0, 0.9)):
        c = (r * math.cos(ang), r * math.sin(ang), z)
        parts.append(_dome(rng, c, (0.58, 0.58, 0.12 if r else 0.1), dark=0.55))
    return _merge(parts)


def bush(seed: int) -> Mesh:
    rng = np.random.default_rng(seed)
    return _merge([_blob(rng, (0.25, 0.1, 0.45), (0.75, 0.75, 0.5), subdiv=0, rough=0.2, dark=0.45),
                   _blob(rng, (-0.3, -0.15, 0.55), (0.65, 0.65, 0.45), subdiv=0, rough=0.2, dark=0.45)])


def rubber(seed: int) -> Mesh:
    """A straight pale trunk under a high, wide crown (a six-sided lens: cheap, a plantation is many)."""
    rng = np.random.default_rng(seed)
    pale = (0.70, 0.68, 0.60)
    parts = [_tube(np.array([[0, 0, 0], [0, 0, 0.66]]), np.array([0.085, 0.06]), 5, pale)]
    k = 6
    ang = np.linspace(0, 2 * math.pi, k, endpoint=False) + 0.2
    r1 = 1.0 * rng.uniform(0.88, 1.08, k)
    r2 = 0.62 * rng.uniform(0.85, 1.1, k)
    sx, sy = 1.12, 0.82  # longer along the row (x) than across it
    v = np.vstack([[0, 0, 0.6], np.c_[sx * r1 * np.cos(ang), sy * r1 * np.sin(ang), np.full(k, 0.72)],
                   np.c_[sx * r2 * np.cos(ang), sy * r2 * np.sin(ang), np.full(k, 0.93)], [0, 0, 1.0]])
    f = []
    for j in range(k):
        jn = (j + 1) % k
        f += [(0, 1 + jn, 1 + j), (1 + j, 1 + jn, 1 + k + jn), (1 + j, 1 + k + jn, 1 + k + j),
              (1 + k + j, 1 + k + jn, 2 * k + 1)]
    shade = np.r_[0.45, np.full(k, 0.7), np.full(k, 0.95), 1.05]
    parts.append(_part(v, np.asarray(f), (1, 1, 1), LEAF, shade=shade))
    return _merge(parts)


def coconut(seed: int) -> Mesh:
    """A coconut palm: a curved ringed trunk and eight drooping fronds (about 150 triangles)."""
    rng = np.random.default_rng(seed)
    s = np.linspace(0, 1, 6)
    trunk = np.c_[0.22 * s ** 2, np.zeros(6), 0.9 * s]
    parts = [_tube(trunk, np.linspace(0.06, 0.035, 6), 4, (0.46, 0.39, 0.29))]
    top = trunk[-1]
    for k in range(8):
        a = 2 * math.pi * k / 8 + rng.uniform(-0.2, 0.2)
        d = np.array([math.cos(a), math.sin(a), 0.0])
        t = np.linspace(0, 1, 4)
        reach = rng.uniform(0.85, 1.0)
        path = top + np.outer(t * reach, d) + np.outer(0.22 * t - 0.6 * t ** 2, [0, 0, 1])
        side = np.tile(np.cross(d, [0, 0, 1]), (4, 1))
        parts.append(_ribbon(path, 0.03 + 0.13 * np.sin(np.pi * np.clip(t, 0.05, 0.95)), side,
                             (1, 1, 1), fold=0.6))
    return _merge(parts)


def banana(seed: int) -> Mesh:
    rng = np.random.default_rng(seed)
    parts = [_tube(np.array([[0, 0, 0], [0, 0, 0.5]]), np.array([0.09, 0.07]), 5, (0.45, 0.50, 0.26))]
    for k in range(6):
        a = 2 * math.pi * k / 6 + rng.uniform(-0.3, 0.3)
        d = np.array([math.cos(a), math.sin(a), 0.0])
        t = np.linspace(0, 1, 3)
        path = np.array([0, 0, 0.45]) + np.outer(t * 0.95, d) + np.outer(0.55 * t - 0.35 * t ** 2, [0, 0, 1])
        side = np.tile(np.cross(d, [0, 0, 1]), (3, 1))
        parts.append(_ribbon(path, np.array([0.06, 0.26, 0.08]), side, (1, 1, 1), fold=0.15))
    return _merge(parts)


def bamboo(seed: int) -> Mesh:
    """A clump: nine thin culms leaning out from a tight base, each with sprays of leaf ribbons."""
    rng = np.random.default_rng(seed)
    parts = []
    for _ in range(9):
        a = rng.uniform(0, 2 * math.pi)
        base = np.array([math.cos(a), math.sin(a), 0]) * rng.uniform(0, 0.22)
        lean = np.array([math.cos(a), math.sin(a), 0]) * rng.uniform(0.25, 0.55)
        h = rng.uniform(0.8, 1.0)
        t = np.linspace(0, 1, 3)[:, None]
        path = base + lean * t ** 1.6 + np.array([0, 0, h]) * t
        parts.append(_tube(path, np.array([0.035, 0.03, 0.02]), 3, (0.56, 0.58, 0.30)))
        for z in (0.6, 0.8, 0.97):
            p = base + lean * z ** 1.6 + np.array([0, 0, h * z])
            b = a + rng.uniform(-1.2, 1.2)
            d = np.array([math.cos(b), math.sin(b), -0.5])
            path2 = np.array([p, p + d * 0.32])
            side = np.tile(np.cross(d, [0, 0, 1]) / np.linalg.norm(np.cross(d, [0, 0, 1])), (2, 1))
            parts.append(_ribbon(path2, np.array([0.09, 0.02]), side, (1, 1, 1), fold=0.0))
    return _merge(parts)


def grass(seed: int) -> Mesh:
    """A tuft of elephant grass: blades bending out from the root."""
    rng = np.random.default_rng(seed)
    parts = []
    for _ in range(7):
        a = rng.uniform(0, 2 * math.pi)
        d = np.array([math.cos(a), math.sin(a), 0])
        t = np.linspace(0, 1, 3)[:, None]
        path = d * 0.15 + d * rng.uniform(0.3, 0.8) * t ** 2 + np.array([0, 0, rng.uniform(0.75, 1.0)]) * t
        side = np.tile(np.cross(d, [0, 0, 1]), (3, 1))
        parts.append(_ribbon(path, np.array([0.07, 0.05, 0.005]), side, (1, 1, 1), fold=0.0))
    return _merge(parts)


def mangrove(seed: int) -> Mesh:
    rng = np.random.default_rng(seed)
    parts = [_tube(np.array([[0, 0, 0.3], [0, 0, 0.62]]), np.array([0.06, 0.05]), 5, BARK),
             _dome(rng, (0, 0, 0.7), (1.0, 1.0, 0.3))]
    for k in range(5):
        a = 2 * math.pi * k / 5 + rng.uniform(-0.3, 0.3)
        d = np.array([math.cos(a), math.sin(a), 0])
        root = np.array([[0, 0, 0.36], d * 0.25 + [0, 0, 0.3], d * 0.42])
        parts.append(_tube(root, np.array([0.03, 0.025, 0.02]), 3, BARK))
    return _merge(parts)


@dataclass(frozen=True)
class Prototype:
    """One kind of tree: how it is built, and whether its leaves are single sheets (drawn both sides)."""

    build: object
    seed: int
    two_sided: bool = False


PROTOTYPES: dict[str, Prototype] = {
    "broadleaf_a": Prototype(broadleaf, 11), "broadleaf_b": Prototype(broadleaf, 12),
    "giant": Prototype(giant, 13), "bush": Prototype(bush, 14), "rubber": Prototype(rubber, 15),
    "coconut": Prototype(coconut, 16, True), "banana": Prototype(banana, 17, True),
    "bamboo": Prototype(bamboo, 18, True), "grass": Prototype(grass, 19, True),
    "mangrove": Prototype(mangrove, 20),
}
_MESHES: dict[str, Mesh] = {}


def prototype_mesh(name: str) -> Mesh:
    if name not in _MESHES:
        p = PROTOTYPES[name]
        _MESHES[name] = p.build(p.seed)
    return _MESHES[name]


def prototype_extent(name: str) -> tuple[float, float]:
    """How far a unit prototype reaches in plan from its root, and how high it stands."""
    v = prototype_mesh(name)[0]
    return float(np.hypot(v[:, 0], v[:, 1]).max()), float(v[:, 2].max())


def prototype_triangles(name: str) -> int:
    return len(prototype_mesh(name)[3])
