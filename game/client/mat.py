"""The flocked mat: a colour texture painted from the scenario's features, the way a club paints a mat.

The baked ground carries one colour per vertex; a good table is a mat of several flocks blended into one
another, bare red earth where feet and carts pass, mud where water stands, dark leaf litter under the
trees. This module paints that picture as an ``(rows, columns, 4)`` uint8 array over the table
(``PPI`` per inch, row 0 at the south edge), which the lit shader lays on the ground by world x/y:

* open ground: three flocks (green, dry straw, dark green) and rare bare laterite patches, mixed by
  tileable fractal noise (``fractal_noise``: random phases over 1/f^beta) and grained finely;
* each feature's footprint, its outline warped by noise and its edge blurred and broken by grain so
  terrains meet in an irregular "earth blend": damp litter under woods (per canopy class), drier flock on
  hills, packed earth round hootches, mud along streams and paddy edges, red-brown laterite trails,
  earthen bunds, dark trenches and craters, grey rubble;
* the alpha channel: how far inside water a point lies (0 on dry ground, rising to 1 about
  ``SHORE`` inches in), which the water shader uses for its darker shallows and soft shorelines.

Deterministic: the noise is seeded from the table (its size and feature ids), so every machine paints
the same mat. Painted once per table and cached in the client's cache folder. What it leaves out: the
shape of the ground (baked), light (``game.world.lightmap``) and anything that changes in play.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import zlib
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import box

from game.client.table import CANOPY, feature_shape
from game.world.cache_files import load_array, prune_arrays, save_array

MAT_VERSION = "1"
PPI = 8
"""Mat texels per inch (a 6'x4' table: 576 x 384)."""
KEEP = 16
"""Painted mats kept in the cache folder (the oldest deleted when a new one is painted)."""
SHORE = 0.6
"""Inches from a water edge to full depth in the alpha channel."""

Rgb = tuple[float, float, float]
FLOCK: dict[str, Rgb] = {
    "green": (0.33, 0.38, 0.20),
    "straw": (0.50, 0.46, 0.28),
    "dark": (0.24, 0.31, 0.15),
    "laterite": (0.46, 0.30, 0.20),
}
LITTER: dict[str, Rgb] = {
    # the floor under each canopy class
    "dense": (0.24, 0.24, 0.13),
    "secondary": (0.28, 0.29, 0.15),
    "bamboo": (0.42, 0.38, 0.20),
    "rubber": (0.36, 0.27, 0.15),
    "light": (0.40, 0.42, 0.20),
    "mangrove": (0.20, 0.21, 0.14),
}
EARTH: dict[str, Rgb] = {
    "trail": (0.47, 0.29, 0.19),
    "mud": (0.30, 0.23, 0.14),
    "yard": (0.48, 0.36, 0.23),
    "bund": (0.44, 0.38, 0.22),
    "bed": (0.22, 0.19, 0.12),
    "trench": (0.24, 0.18, 0.11),
    "crater": (0.27, 0.21, 0.14),
    "rubble": (0.48, 0.46, 0.42),
    "hill": (0.46, 0.45, 0.25),
}
WATER_TYPES = ("stream", "river", "paddy")


def fractal_noise(shape: tuple[int, int], seed: int, beta: float = 1.8, ppi: float = 1.0,
                  longest: float | None = None) -> np.ndarray:
    """Tileable fractal noise in [0, 1]: random phases with amplitude 1/f^beta (f in cycles per inch at
    ``ppi`` texels per inch), wavelengths longer than ``longest`` inches left out; 0.5 is its median."""
    rng = np.random.default_rng(seed)
    ny, nx = shape
    fy = np.fft.fftfreq(ny, d=1.0 / ppi)[:, None]
    fx = np.fft.rfftfreq(nx, d=1.0 / ppi)[None, :]
    f = np.hypot(fx, fy)
    f[0, 0] = np.inf
    amp = f ** -beta
    if longest:
        amp *= 1.0 - np.exp(-((f * longest) ** 4))
    spec = amp * np.exp(2j * np.pi * rng.random(f.shape))
    img = np.fft.irfft2(spec, s=shape)
    lo, mid, hi = np.percentile(img, [1, 50, 99])
    return np.clip(0.5 + 0.5 * (img - mid) / max(hi - mid, mid - lo, 1e-12), 0.0, 1.0)


def _box_blur(img: np.ndarray, r: int) -> np.ndarray:
    """Three passes of a (2r+1) box each way: close to a Gaussian of sigma ~ r (edges clamped)."""
    if r <= 0:
        return img
    out = img
    for axis in (0, 1):
        for _ in range(3):
            pad = [(0, 0), (0, 0)]
            pad[axis] = (r + 1, r)
            c = np.cumsum(np.pad(out, pad, mode="edge"), axis=axis)
            n = out.shape[axis]
            hi = np.take(c, np.arange(2 * r + 1, 2 * r + 1 + n), axis=axis)
            lo = np.take(c, np.arange(0, n), axis=axis)
            out = (hi - lo) / (2 * r + 1)
    return out


def _smooth(t: np.ndarray, lo: float, hi: float) -> np.ndarray:
    t = np.clip((t - lo) / (hi - lo), 0.0, 1.0)
    return t * t * (3 - 2 * t)


class _Canvas:
    """The mat being painted: colour, water depth, and the noise every layer shares."""

    def __init__(self, width: float, height: float, seed: int, ppi: int):
        self.ppi = ppi
        self.nx, self.ny = max(1, round(width * ppi)), max(1, round(height * ppi))
        shape = (self.ny, self.nx)
        self.blotch = fractal_noise(shape, seed, 1.8, ppi)
        self.patch = fractal_noise(shape, seed + 1, 1.6, ppi)
        self.grain = fractal_noise(shape, seed + 2, 0.9, ppi)
        self.warp_x = fractal_noise(shape, seed + 3, 1.5, ppi) - 0.5
        self.warp_y = fractal_noise(shape, seed + 4, 1.5, ppi) - 0.5
        self.x = (np.arange(self.nx) + 0.5) / ppi
        self.y = (np.arange(self.ny) + 0.5) / ppi
        self.rgb = np.zeros((self.ny, self.nx, 3))
        self.depth = np.zeros(shape)

    def cover(self, shape, warp: float = 0.35, soft: float = 0.12,
              ragged: float = 0.5) -> tuple[slice, slice, np.ndarray] | None:
        """How much of each texel a footprint covers (0..1) on its bounding window: the outline moved by
        ``warp`` inches of noise, blurred over ``soft`` inches and broken by grain (``ragged``)."""
        if shape is None or shape.is_empty:
            return None
        margin = warp + 3 * soft + 0.3
        x0, y0, x1, y1 = shape.bounds
        i0, i1 = np.searchsorted(self.x, [x0 - margin, x1 + margin])
        j0, j1 = np.searchsorted(self.y, [y0 - margin, y1 + margin])
        if i1 <= i0 or j1 <= j0:
            return None
        sj, si = slice(j0, j1), slice(i0, i1)
        gx, gy = np.meshgrid(self.x[si], self.y[sj])
        inside = shapely.contains_xy(shape, (gx + warp * 2 * self.warp_x[sj, si]).ravel(),
                                     (gy + warp * 2 * self.warp_y[sj, si]).ravel()).reshape(gx.shape)
        m = _box_blur(inside.astype(float), max(1, round(soft * self.ppi)))
        m = _smooth(m + ragged * (self.grain[sj, si] - 0.5), 0.35, 0.65) if ragged else m
        return sj, si, m

    def paint(self, shape, rgb: Rgb, strength: float = 1.0, vary: float = 0.12, **cover) -> np.ndarray | None:
        """Lay a colour over a footprint (varied in brightness by the blotch noise); returns its cover."""
        got = self.cover(shape, **cover)
        if got is None:
            return None
        sj, si, m = got
        tone = 1.0 + vary * (self.patch[sj, si] - 0.5) * 2
        colour = np.asarray(rgb)[None, None, :] * tone[..., None]
        a = (m * strength)[..., None]
        self.rgb[sj, si] = self.rgb[sj, si] * (1 - a) + colour * a
        return m


def _flock(c: _Canvas) -> None:
    """Open ground: three flocks and rare laterite, mixed by noise, with a fine grain."""
    f = {k: np.asarray(v)[None, None, :] for k, v in FLOCK.items()}
    dry = _smooth(c.blotch, 0.50, 0.72)[..., None]
    dark = _smooth(c.patch, 0.58, 0.80)[..., None] * 0.8
    bare = _smooth(c.blotch * 0.6 + c.grain * 0.4, 0.74, 0.82)[..., None] * 0.7
    rgb = f["green"] * (1 - dry) + f["straw"] * dry
    rgb = rgb * (1 - dark) + f["dark"] * dark
    rgb = rgb * (1 - bare) + f["laterite"] * bare
    c.rgb[:] = rgb * (0.9 + 0.2 * c.grain)[..., None]


def _seed(width: float, height: float, features: list[dict]) -> int:
    ids = "/".join(str(f.get("id", "")) for f in features)
    return zlib.crc32(f"mat/{width:g}x{height:g}/{ids}".encode())


def paint_mat(features: list[dict], width: float, height: float, ppi: int = PPI) -> np.ndarray:
    """The mat of a table (module docstring): ``(rows, columns, 4)`` uint8, RGB and water depth."""
    c = _Canvas(width, height, _seed(width, height, features), ppi)
    _flock(c)
    table = box(0, 0, width, height)
    shapes = []
    for f in features:
        with contextlib.suppress(Exception):  # a malformed feature paints nothing rather than no mat
            shapes.append((f, feature_shape(f).intersection(table)))
    by_type: dict[str, list] = {}
    for f, s in shapes:
        by_type.setdefault(str(f.get("type")), []).append(s)

    def union(*types: str):
        parts = [s for t in types for s in by_type.get(t, [])]
        return shapely.union_all(parts) if parts else None

    for s in by_type.get("hill", []):
        c.paint(s.buffer(-0.6), EARTH["hill"], 0.55, warp=0.8, soft=0.6)
    for f, s in shapes:  # damp litter under the trees, reaching a little past the woodline
        if f.get("type") in CANOPY:
            c.paint(s.buffer(0.25), LITTER[f["type"]], 0.95, vary=0.2, warp=0.3, soft=0.15)
    for t in ("hootch", "masonry", "bunker"):  # packed earth round buildings
        yard = union(t)
        if yard is not None:
            c.paint(yard.buffer(1.0), EARTH["yard"], 0.8, warp=0.5, soft=0.3, ragged=0.7)
    mud = [s.buffer(0.9) for t in ("stream", "river") for s in by_type.get(t, [])]
    mud += [s.buffer(0.45).difference(s.buffer(-0.3)) for s in by_type.get("paddy", [])]
    mud += by_type.get("mud", [])
    if mud:
        c.paint(shapely.union_all(mud), EARTH["mud"], 0.85, warp=0.35, soft=0.15, ragged=0.7)
    for t in ("rubble",):
        if union(t) is not None:
            c.paint(union(t), EARTH["rubble"], 0.9, vary=0.3)
    water = union(*WATER_TYPES)
    if water is not None:
        c.paint(water, EARTH["bed"], 1.0, warp=0.1, soft=0.1, ragged=0.0)
        got = c.cover(water, warp=0.0, soft=SHORE / 2, ragged=0.0)
        if got is not None:
            sj, si, m = got
            c.depth[sj, si] = np.maximum(c.depth[sj, si], _smooth(m, 0.5, 1.0))
    bunds = [s.buffer(0.18, join_style="mitre").difference(s.buffer(-0.18, join_style="mitre"))
             for s in by_type.get("paddy", [])] + by_type.get("bund", [])
    if bunds:
        c.paint(shapely.union_all(bunds), EARTH["bund"], 1.0, warp=0.05, soft=0.06, ragged=0.3)
    trail = union("trail")
    if trail is not None:  # a grassy verge, then the red earth, worn darker along the wheel ruts
        c.paint(trail.buffer(0.35), FLOCK["straw"], 0.5, warp=0.3, soft=0.2)
        c.paint(trail, EARTH["trail"], 1.0, vary=0.18, warp=0.22, soft=0.1, ragged=0.6)
    for t in ("trench", "crater", "spider_hole"):
        s = union(t)
        if s is not None:
            if t == "trench":
                c.paint(s.buffer(0.3), EARTH["mud"], 0.8, warp=0.1, soft=0.08)
            c.paint(s, EARTH["crater" if t != "trench" else "trench"], 1.0, warp=0.05, soft=0.06, ragged=0.2)
    rgb = np.clip(np.round(c.rgb * 255), 0, 255).astype(np.uint8)
    alpha = np.clip(np.round(c.depth * 255), 0, 255).astype(np.uint8)
    return np.dstack([rgb, alpha])


def _key(features: list[dict], width: float, height: float, ppi: int) -> str:
    code = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    blob = json.dumps([MAT_VERSION, code, width, height, ppi, features], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def mat_image(features: list[dict], width: float, height: float, folder: Path | None = None,
              ppi: int = PPI) -> np.ndarray:
    """The painted mat, from ``folder`` (``mat-<key>.npy``) when painted before, else painted and kept."""
    if folder is None:
        return paint_mat(features, width, height, ppi)
    path = folder / f"mat-{_key(features, width, height, ppi)}.npy"
    cached = load_array(path)
    if cached is not None and cached.dtype == np.uint8 and cached.ndim == 3 and cached.shape[2] == 4:
        return cached
    img = paint_mat(features, width, height, ppi)
    save_array(path, img)
    prune_arrays(folder, "mat-", KEEP)
    return img
