"""Small tables built in code for the world tests."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

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
