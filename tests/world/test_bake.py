"""Baking a table to glTF: determinism, the node convention, closed canopies, the cache, readers
(DESIGN §7; docs/terrain.md)."""

import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from game.world import bake
from game.world.los import Conditions, TableLOS
from game.world.raytrace import TerrainFileError
from tests.world.tables import MIXED

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "terrain" / "copse.gltf"
VALIDATOR = ROOT / ".cache" / "node" / "node_modules" / "gltf-validator"


def gltf_json(glb: bytes) -> dict:
    length = struct.unpack("<I", glb[12:16])[0]
    return json.loads(glb[20:20 + length])


def test_bake_is_byte_identical():
    assert bake.bake_glb(MIXED) == bake.bake_glb(MIXED)


def test_every_node_carries_the_convention():
    tree = gltf_json(bake.bake_glb(MIXED))
    roles = set()
    for node in tree["nodes"]:
        if "mesh" not in node:
            continue
        extras = node["extras"]
        assert {"terrain", "feature", "role"} <= set(extras), node["name"]
        roles.add(extras["role"])
        if extras["role"] == "canopy":
            assert extras["canopy"] in {"dense", "bamboo", "rubber", "light", "secondary"}
    assert {"ground", "canopy", "building", "water", "paddy", "bund", "trail", "trench"} <= roles
    assert tree["asset"]["version"] == "2.0"


def test_canopy_volumes_are_closed_and_follow_the_footprint():
    # G-02: the rulebook measures in plan, so the volume's outline is the feature's footprint
    for node in bake.build_nodes(MIXED):
        if node.extras["role"] == "canopy":
            assert node.mesh.is_watertight and node.mesh.is_winding_consistent and node.mesh.volume > 0, node.name
            feature = next(f for f in MIXED.features if f.id == node.extras["feature"])
            lo = node.mesh.vertices[:, :2].min(axis=0)
            assert lo == pytest.approx(feature.shape().bounds[:2], abs=1e-6)


def test_baked_path_caches_atomically(tmp_path, monkeypatch):
    monkeypatch.setenv("DINKYDAU_CACHE", str(tmp_path))
    first = bake.baked_path(MIXED)
    assert first.parent == tmp_path and first.suffix == ".glb"
    stamp = first.stat().st_mtime_ns
    assert bake.baked_path(MIXED) == first and first.stat().st_mtime_ns == stamp
    assert [p.name for p in tmp_path.iterdir()] == [first.name]


def test_hand_written_fixture_loads():
    # docs/terrain.md: a hand-made glTF (y up, node transforms, extras) gives the same rules
    los = TableLOS.from_glb(FIXTURE, 24.0, 24.0)
    assert los.elevation(2.0, 2.0) == pytest.approx(0.0, abs=1e-4)
    assert los.terrain_at(12.0, 12.0) == "dense"
    r = los.check_points((12.0, 12.0), (12.0, 15.0), Conditions())    # 2" inside, 1" out
    assert r.visible and r.canopy_inches == {"dense": pytest.approx(2.0)}
    assert not los.check_points((12.0, 12.0), (12.0, 15.5), Conditions()).visible
    assert not los.clear_circle(12.0, 12.0) and los.clear_circle(4.0, 4.0)


def test_a_node_without_extras_is_named(tmp_path):
    tree = json.loads(FIXTURE.read_text())
    del tree["nodes"][1]["extras"]
    bad = tmp_path / "bad.gltf"
    bad.write_text(json.dumps(tree))
    with pytest.raises(TerrainFileError, match="node 'copse' has no extras.terrain"):
        TableLOS.from_glb(bad, 24.0, 24.0)


def test_an_open_canopy_is_refused(tmp_path):
    tree = json.loads(FIXTURE.read_text())
    prim = tree["meshes"][1]["primitives"][0]
    tree["accessors"][prim["indices"]]["count"] -= 6  # drop two faces: a hole in the box
    bad = tmp_path / "open.gltf"
    bad.write_text(json.dumps(tree))
    with pytest.raises(TerrainFileError, match="canopy node 'copse' is not a closed volume"):
        TableLOS.from_glb(bad, 24.0, 24.0)


def test_world_does_not_import_panda3d():
    # DESIGN §2: game.world stays free of Panda3D
    code = "import sys, game.world.los, game.world.bake; print(any(m.startswith('panda3d') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_loads_in_panda3d_gltf(tmp_path):
    # DESIGN §7: one geometry, two readers; panda3d-gltf turns glTF's y up into Panda's z up
    pytest.importorskip("panda3d")
    pytest.importorskip("gltf")
    path = tmp_path / "mixed.glb"
    path.write_bytes(bake.bake_glb(MIXED))
    code = f"""
import panda3d.core as p3d
p3d.load_prc_file_data('', 'window-type none\\naudio-library-name null')
import gltf
model = gltf.load_model({str(path)!r})
root = p3d.NodePath(model)
lo, hi = root.get_tight_bounds()
print(round(lo.x, 2), round(lo.y, 2), round(hi.x, 2), round(hi.y, 2), round(lo.z, 2), round(hi.z, 2))
print(root.find('**/canopy:jungle').is_empty())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")
    lox, loy, hix, hiy, loz, hiz = map(float, lines[0].split())
    assert (lox, loy, hix, hiy) == (0.0, 0.0, 36.0, 24.0)  # x east, y north
    assert loz == -bake.SLAB and 3.0 < hiz < 6.0            # z up
    assert lines[1] == "False"


def test_validator_finds_no_errors(tmp_path):
    # the Khronos glTF validator passes the baked table
    node = shutil.which("node")
    if node is None or not VALIDATOR.exists():
        pytest.skip("gltf-validator not installed (needs node; run tools/install-gltf-validator.sh)")
    path = tmp_path / "mixed.glb"
    path.write_bytes(bake.bake_glb(MIXED))
    out = subprocess.run([node, str(ROOT / "tools" / "gltf_validate.js"), str(path)], capture_output=True,
                         text=True, timeout=120, env={**os.environ})
    report = json.loads(out.stdout)
    assert report["issues"]["numErrors"] == 0, report["issues"]["messages"][:5]
    assert report["issues"]["numWarnings"] == 0, report["issues"]["messages"][:5]
