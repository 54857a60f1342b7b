"""Baked light (game/world/lightmap.py): shade where things stand, the same bytes every time, a cache."""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest

from game.world import bake, lightmap
from game.world.features import Feature
from tests.world.tables import Table

# A sun in the south-east, 40 degrees up: shadows fall to the north-west.
SUN = (math.cos(math.radians(40)) * math.sin(math.radians(35)),
       -math.cos(math.radians(40)) * math.cos(math.radians(35)), math.sin(math.radians(40)))
HAMLET = Table(24.0, 16.0, (
    Feature("hootch1", "hootch", point=(6.0, 8.0), size=(2.0, 1.5)),
    Feature("jungle", "dense", polygon=((14.0, 4.0), (20.0, 4.0), (20.0, 12.0), (14.0, 12.0))),
))


@cache
def glb() -> bytes:
    return bake.bake_glb(HAMLET)


@cache
def light() -> np.ndarray:
    return lightmap.bake_light(glb(), HAMLET.width, HAMLET.height, SUN)


def texel(x: float, y: float) -> np.ndarray:
    """The light map's (sunlight, sky) at a table point, as floats 0..1."""
    i, j = int(x * lightmap.PPI), int(y * lightmap.PPI)
    return light()[j, i].astype(float) / 255


def test_shape_and_orientation():
    assert light().shape == (16 * lightmap.PPI, 24 * lightmap.PPI, 2)
    assert light().dtype == np.uint8


def test_open_ground_is_lit():
    sun, sky = texel(3.0, 2.0)
    assert sun > 0.95
    assert sky > 0.9


def test_under_a_hootch_is_darker_than_open_ground():
    open_sun, open_sky = texel(3.0, 2.0)
    sun, sky = texel(6.0, 8.0)
    assert sun < 0.2 < open_sun
    assert sky < 0.5 * open_sky


def test_a_hootch_darkens_the_ground_at_its_foot():
    """Ambient occlusion: the sky seen beside the wall is less than in the open."""
    assert texel(6.0, 9.1)[1] < texel(3.0, 2.0)[1] - 0.05


def test_a_wood_casts_its_shadow_away_from_the_sun():
    """North-west of the jungle's north-west corner (canopy top 3.6"), the sun is behind the foliage; on
    the sunny side (south-east of the wood's south edge) it is not."""
    shaded = texel(13.4, 12.6)[0]
    sunny = texel(17.0, 3.0)[0]
    assert shaded < 0.6 < sunny
    assert shaded >= lightmap.CANOPY_LIGHT_BY_CLASS["dense"] - 0.05, "foliage lets some light through"


def test_under_the_canopy_is_dim_but_not_black():
    sun, sky = texel(17.0, 8.0)
    assert sun < 0.5 and sky < 0.5
    assert sun > 0.1 and sky > 0.1


def test_same_input_same_bytes():
    again = lightmap.bake_light(glb(), HAMLET.width, HAMLET.height, SUN)
    assert again.tobytes() == light().tobytes()


def test_the_sun_is_part_of_the_key():
    low = (SUN[0], SUN[1], 0.2)
    assert lightmap.light_key(glb(), 24, 16, SUN) != lightmap.light_key(glb(), 24, 16, low)
    assert lightmap.light_key(glb(), 24, 16, SUN) == lightmap.light_key(glb(), 24, 16, SUN)


def test_cached_beside_the_glb_and_reused(tmp_path, monkeypatch):
    path = tmp_path / "table-0123456789abcdef01234567.glb"
    path.write_bytes(glb())
    first, cached = lightmap.light_map(path, HAMLET.width, HAMLET.height, SUN)
    assert cached.parent == tmp_path and cached.exists()
    assert first.tobytes() == light().tobytes()

    def fail(*args, **kwargs):
        raise AssertionError("baked again instead of reading the cache")

    monkeypatch.setattr(lightmap, "bake_light", fail)
    second, again = lightmap.light_map(path, HAMLET.width, HAMLET.height, SUN)
    assert again == cached
    assert second.tobytes() == first.tobytes()
    with pytest.raises(AssertionError):  # another sun is another map
        lightmap.light_map(path, HAMLET.width, HAMLET.height, (0.0, 0.0, 1.0))


def test_a_damaged_cache_file_is_baked_again(tmp_path):
    path = tmp_path / "t.glb"
    path.write_bytes(glb())
    _, cached = lightmap.light_map(path, HAMLET.width, HAMLET.height, SUN)
    cached.write_bytes(b"not a light map")
    again, _ = lightmap.light_map(path, HAMLET.width, HAMLET.height, SUN)
    assert again.tobytes() == light().tobytes()


def test_prune_keeps_the_newest(tmp_path):
    import os

    for i in range(5):
        f = tmp_path / f"light-{i:024d}.npy"
        f.write_bytes(b"x")
        os.utime(f, (1000 + i, 1000 + i))
    (tmp_path / "table-x.glb").write_bytes(b"keep me")
    removed = lightmap.prune_light(tmp_path, keep=2)
    assert sorted(p.name for p in removed) == [f"light-{i:024d}.npy" for i in range(3)]
    assert (tmp_path / "table-x.glb").exists()


def test_scrub_lets_more_sun_through_than_triple_canopy():
    """CANOPY_LIGHT_BY_CLASS: under knee-high scrub the ground is barely shaded; under a triple canopy
    of the same footprint it is in deep shade."""
    table = Table(24.0, 12.0, (
        Feature("scrub", "light", polygon=((2.0, 2.0), (8.0, 2.0), (8.0, 8.0), (2.0, 8.0))),
        Feature("jungle", "dense", polygon=((14.0, 2.0), (20.0, 2.0), (20.0, 8.0), (14.0, 8.0))),
    ))
    lm = lightmap.bake_light(bake.bake_glb(table), table.width, table.height, SUN).astype(float) / 255
    under_scrub = lm[int(5 * lightmap.PPI), int(5 * lightmap.PPI), 0]
    under_jungle = lm[int(5 * lightmap.PPI), int(17 * lightmap.PPI), 0]
    assert under_scrub >= lightmap.CANOPY_LIGHT_BY_CLASS["light"] - 0.05
    assert under_jungle <= lightmap.CANOPY_LIGHT_BY_CLASS["dense"] + 0.05
