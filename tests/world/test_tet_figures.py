"""Tet '68's 20 mm figures (models/build_tet_figures.py): each pose holds the head, chest, stomach, groin and
boots where the engine's exposure rays look for them (TET-16), at the scale of tet68.toml's [figure]
(G-41), and the committed models are the script's."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import trimesh
from trimesh.triangles import closest_point

from game.rulesets.tet68.exposure import Figure, points
from game.rulesets.tet68.tables import tables

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
VALIDATOR = ROOT / ".cache" / "node" / "node_modules" / "gltf-validator"


@pytest.fixture(scope="module")
def builder():
    spec = importlib.util.spec_from_file_location("build_tet_figures", MODELS / "build_tet_figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load(path: Path) -> trimesh.Trimesh:
    m = trimesh.load(path, force="mesh")
    v = m.vertices  # glTF y-up back to the table's z-up
    return trimesh.Trimesh(np.column_stack([v[:, 0], -v[:, 2], v[:, 1]]), m.faces, process=False)


def _distance(mesh: trimesh.Trimesh, p) -> float:
    tri = mesh.triangles
    near = closest_point(tri, np.repeat(np.asarray(p, float)[None], len(tri), 0))
    return float(np.min(np.linalg.norm(near - np.asarray(p), axis=1)))


def test_the_script_reads_the_engines_figure(builder):
    # G-41, TET-16: the builder's copy of the figure, its five places and the poses is tet68.toml's
    t = tables()
    assert (builder.HEIGHT, builder.EYE) == (t.figure.height, t.figure.eye)
    assert builder.BODY == {b.id: b.height for b in t.body.values()}
    assert builder.POSES == {p.id: (p.scale, p.lean) for p in t.poses.values()}


@pytest.mark.parametrize("troop", ["marine", "arvn", "vc", "nva"])
@pytest.mark.parametrize("pose", ["standing", "kneeling", "prone", "at_window", "leaning"])
def test_every_place_the_engine_looks_at_is_on_the_figure(builder, troop, pose):
    # TET-16: the engine's head, chest, stomach, groin and boots for a figure at the model's origin facing
    # +x (leaning: toward +y, the model's convention) lie in the model, or within 0.1" of its surface
    mesh = _load(MODELS / f"tet_{troop}_{pose}.glb")
    fig = Figure("x", 0.0, 0.0, pose, 0.0, lean_to=90.0 if pose == "leaning" else None)
    for name, p in points(fig, tables()).items():
        if name != "eye":
            assert _distance(mesh, p) < 0.1, (name, _distance(mesh, p))
    top = mesh.bounds[1][2]
    head = points(fig, tables())["head"][2]
    assert head < top < head + 0.3  # the helmet's crown over the head, no higher
    assert mesh.bounds[0][2] > -1e-3  # nothing under the base


def test_a_standing_man_is_a_20mm_man(builder):
    # TET-1, G-41: 1.8" from the base's underside to the crown of his head, the helmet a little over it
    mesh = _load(MODELS / "tet_marine_standing.glb")
    assert 1.78 < mesh.bounds[1][2] < 1.9
    lean = _load(MODELS / "tet_marine_leaning.glb")
    assert lean.bounds[1][1] > 0.5  # his head and shoulders out past the jamb, to his left
    right = _load(MODELS / "tet_marine_leaning_right.glb")
    assert right.bounds[0][1] < -0.5 and right.bounds[1][1] < 0.45  # and the mirror, to his right


def test_leaning_right_shows_what_the_engine_looks_at(builder):
    # TET-16: a lean to the right of where he faces (lean_to = facing - 90) is the mirrored model's
    mesh = _load(MODELS / "tet_vc_leaning_right.glb")
    fig = Figure("x", 0.0, 0.0, "leaning", 0.0, lean_to=-90.0)
    for name, p in points(fig, tables()).items():
        if name != "eye":
            assert _distance(mesh, p) < 0.1, name


def test_the_committed_models_are_the_scripts(builder, tmp_path):
    written = builder.build(tmp_path)
    assert len(written) == 48
    for f in written:
        committed = MODELS / f.name
        assert committed.exists(), f"{f.name} is missing: run models/build_tet_figures.py"
        assert f.read_bytes() == committed.read_bytes(), f"{f.name} is stale: run models/build_tet_figures.py"
        assert f.stat().st_size < 100_000


def test_validator_finds_no_errors():
    node = shutil.which("node")
    if node is None or not VALIDATOR.exists():
        pytest.skip("gltf-validator not installed (needs node; run tools/install-gltf-validator.sh)")
    for name in ("tet_marine_standing", "tet_vc_smg_leaning", "tet_nva_prone"):
        out = subprocess.run([node, str(ROOT / "tools" / "gltf_validate.js"), str(MODELS / f"{name}.glb")],
                             capture_output=True, text=True, timeout=120, env={**os.environ})
        report = json.loads(out.stdout)
        assert report["issues"]["numErrors"] == 0, (name, report["issues"]["messages"][:5])
