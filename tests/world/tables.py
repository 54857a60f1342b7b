"""Small tables built in code for the world tests."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from game.world import bake
from game.world.features import Feature
from game.world.los import TableLOS


@dataclass(frozen=True)
class Table:
    width: float
    height: float
    features: tuple[Feature, ...]


WOODLINE = 44.0
"""x of the straight west edge of the dense jungle on WOODS."""

WOODS = Table(72.0, 24.0, (
    Feature("jungle", "dense", polygon=((WOODLINE, 0.0), (72.0, 0.0), (72.0, 24.0), (WOODLINE, 24.0))),
    Feature("copse", "dense", polygon=((12.0, 20.0), (16.0, 20.0), (16.0, 24.0), (12.0, 24.0))),
    Feature("knoll", "hill", polygon=((2.0, 14.0), (10.0, 14.0), (10.0, 22.0), (2.0, 22.0)), height=3.0),
))

MIXED = Table(36.0, 24.0, (
    Feature("ridge", "hill", polygon=((2, 2), (12, 3), (11, 10), (3, 9)), height=3.0),
    Feature("jungle", "dense", polygon=((15, 5), (25, 4), (27, 14), (16, 15))),
    Feature("bamboo", "bamboo", polygon=((28, 16), (33, 16), (33, 21), (28, 21))),
    Feature("rubber", "rubber", polygon=((2, 13), (12, 13), (12, 21), (2, 21))),
    Feature("scrub", "light", polygon=((14, 17), (20, 17), (20, 22), (14, 22))),
    Feature("second", "secondary", polygon=((28, 2), (34, 2), (34, 10), (28, 10))),
    Feature("hootch1", "hootch", point=(22, 19), size=(1.5, 1.0), rotation=20),
    Feature("villa", "masonry", point=(25, 19), size=(2, 1.5)),
    Feature("bunker1", "bunker", point=(13, 11), size=(1, 1)),
    Feature("creek", "stream", path=((0, 12), (10, 11.5), (36, 12.5)), width=1.0),
    Feature("paddy1", "paddy", polygon=((22, 22), (27, 22), (27, 24), (22, 24))),
    Feature("track", "trail", path=((0, 1), (36, 1)), width=0.8),
    Feature("trench1", "trench", path=((5, 23), (10, 23)), width=0.4),
))


@cache
def los_of(table: Table) -> TableLOS:
    return TableLOS.from_glb(bake.bake_glb(table), table.width, table.height)


def convention(seed: int = 3, width: float = 48.0, height: float = 36.0, woods: int = 110) -> Table:
    """A crowded, realistic table in code: hills, woods of every class overlapping one another (some
    clipped at the table edge), hootches and masonry, a stream and paddies that sink the ground."""
    rng = np.random.default_rng(seed)
    feats: list[Feature] = []
    for i in range(4):
        cx, cy, r = rng.uniform(6, width - 6), rng.uniform(6, height - 6), rng.uniform(3, 6)
        ring = [(cx + r * math.cos(a), cy + 0.8 * r * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 16)[:-1]]
        feats.append(Feature(f"hill{i}", "hill", polygon=tuple(ring), height=float(rng.uniform(1.5, 4.0))))
    kinds = ["dense", "bamboo", "secondary", "rubber", "light", "rubble", "mangrove"]
    for i in range(woods):
        kind = kinds[int(rng.choice(len(kinds), p=[0.35, 0.08, 0.22, 0.12, 0.15, 0.04, 0.04]))]
        cx, cy, r = rng.uniform(0, width), rng.uniform(0, height), rng.uniform(0.8, 3.0)
        ang = np.linspace(0, 2 * math.pi, 13)[:-1]
        rad = r * rng.uniform(0.6, 1.2, 12)
        ring = [(min(max(cx + a * math.cos(t), 0.0), width), min(max(cy + a * math.sin(t), 0.0), height))
                for a, t in zip(rad, ang, strict=True)]
        feats.append(Feature(f"wood{i}", kind, polygon=tuple(ring)))
    for i in range(12):
        kind = ("hootch", "masonry", "bunker", "wreck")[i % 4]
        feats.append(Feature(f"bld{i}", kind, point=(float(rng.uniform(2, width - 2)), float(rng.uniform(2, height - 2))),
                             size=(1.5, 1.0), rotation=float(rng.uniform(0, 180))))
    feats.append(Feature("creek", "stream", path=((0.0, height * 0.3), (width * 0.5, height * 0.35), (width, height * 0.2)),
                         width=1.0))
    feats.append(Feature("paddy", "paddy", polygon=((2.0, 2.0), (9.0, 2.0), (9.0, 6.0), (2.0, 6.0))))
    return Table(width, height, tuple(feats))


def random_lines(los: TableLOS, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Eyes and targets: figure height over the ground, some up in towers or low in grass, some short."""
    rng = np.random.default_rng(seed)
    w, h = los.width, los.height
    a = rng.uniform([0.0, 0.0], [w, h], size=(n, 2))
    ang = rng.uniform(0, 2 * math.pi, n)
    length = np.where(rng.random(n) < 0.2, rng.uniform(0.0, 4.0, n), rng.uniform(1.0, 32.0, n))
    b = np.clip(a + np.column_stack([np.cos(ang), np.sin(ang)]) * length[:, None], [0.0, 0.0], [w, h])
    lift = rng.choice([0.6, 0.6, 0.6, 0.3, 0.45, 2.5, 6.0], size=(2, n))
    eyes = np.column_stack([a, los._elevations_cast(a) + lift[0]])
    targets = np.column_stack([b, los._elevations_cast(b) + lift[1]])
    return eyes, targets
