"""The baked Tet '68 town (game.world.ruins): one geometry, two readers. Rays cast at the .glb's ``blocks``
nodes give the verdict the engine's exposure casts give (TET-16), walls stop sight and doors and windows
do not (TET-3), and the file passes the Khronos validator."""

from __future__ import annotations

import json
import math
import os
import shutil
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest
import trimesh

from game.engine.store import ScenarioFolders
from game.rulesets.tet68.exposure import Figure, points, stops
from game.rulesets.tet68.tables import tables
from game.world import ruins

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = ROOT / ".cache" / "node" / "node_modules" / "gltf-validator"
GRAZE = 1e-3
"""A ray passing this close (inches) to an edge of a wall's face may be read either way: the .glb's
vertices are written to 1e-4"."""


@pytest.fixture(scope="module")
def hue():
    return ScenarioFolders().resolve("hue_street")


@pytest.fixture(scope="module")
def glb(hue) -> bytes:
    return ruins.bake_town_glb(hue)


def _nodes(data: bytes) -> list[dict]:
    length = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20:20 + length])["nodes"]


class Reader:
    """The .glb read back with trimesh alone: the ``blocks`` nodes in the table frame, cast by embree."""

    def __init__(self, data: bytes, kinds: tuple[str, ...] | None = None):
        extras = {n["name"]: n.get("extras", {}) for n in _nodes(data)}
        scene = trimesh.load(trimesh.util.wrap_as_stream(data), file_type="glb", force="scene")
        parts = []
        for name in scene.graph.nodes_geometry:
            ex = extras[name]
            if (ex.get("tet") in kinds) if kinds else ex.get("blocks"):
                transform, geom = scene.graph[name]
                parts.append(scene.geometry[geom].copy().apply_transform(transform))
        mesh = trimesh.util.concatenate(parts)
        v = np.asarray(mesh.vertices)
        mesh = trimesh.Trimesh(np.column_stack([v[:, 0], -v[:, 2], v[:, 1]]), mesh.faces, process=False)
        self.mesh = mesh
        self.ray = trimesh.ray.ray_pyembree.RayMeshIntersector(mesh)

    def first_hits(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """The distance along each ray p -> q to the first face it meets (inf: none)."""
        d = q - p
        length = np.linalg.norm(d, axis=1)
        locs, index, _ = self.ray.intersects_location(p, d / length[:, None], multiple_hits=False)
        out = np.full(len(p), np.inf)
        out[index] = np.linalg.norm(locs - p[index], axis=1)
        return out

    def blocked(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        p, q = np.atleast_2d(np.asarray(p, float)), np.atleast_2d(np.asarray(q, float))
        return self.first_hits(p, q) < np.linalg.norm(q - p, axis=1)


@pytest.fixture(scope="module")
def sight(glb) -> Reader:
    return Reader(glb)


def _graze(walls, p, q) -> float:
    """How close the ray p -> q passes to an edge of a wall's face (its ends, its top and bottom, its
    openings' sides), or lies to a wall's plane at its ends: the rays either reader may read either way."""
    best = math.inf
    for w in walls:
        (ax, ay), (bx, by) = w.a, w.b
        wx, wy = bx - ax, by - ay
        length = math.hypot(wx, wy)
        nx, ny = -wy / length, wx / length
        dp = (p[0] - ax) * nx + (p[1] - ay) * ny
        dq = (q[0] - ax) * nx + (q[1] - ay) * ny
        best = min(best, abs(dp), abs(dq))
        if dp == dq or dp * dq > 0:
            continue
        t = dp / (dp - dq)
        x, y, z = (p[k] + (q[k] - p[k]) * t for k in range(3))
        u = ((x - ax) * wx + (y - ay) * wy) / length
        edges_u = [0.0, length] + [e for o in w.openings for e in (o.start, o.end)]
        edges_z = [0.0, w.height] + [e for o in w.openings for e in (o.bottom, o.top)]
        best = min(best, *(abs(u - e) for e in edges_u), *(abs(z - e) for e in edges_z))
    return best


def _engine_blocked(walls, p, q) -> bool:
    return any(stops(w, tuple(p), tuple(q)) for w in walls)


def test_mesh_and_engine_agree_on_every_ray(hue, sight):
    # TET-16, G-41: the exposure's rays, from many eyes to many figures' places across hue_street, read
    # the same off the .glb's blocking sheets as exposure.stops reads them off the scenario's walls
    t = tables()
    walls = hue.town.walls
    rng = np.random.default_rng(1968)
    poses = list(t.poses)
    openings = [(w, o) for w in walls for o in w.openings]

    def somewhere() -> tuple[float, float]:
        if rng.uniform() < 0.5:  # by a door or window, on either side of it: rays through the openings
            w, o = openings[int(rng.integers(len(openings)))]
            (ax, ay), (bx, by) = w.a, w.b
            u = rng.uniform(o.start - 0.5, o.end + 0.5) / w.length
            off = rng.uniform(-3.0, 3.0)
            nx, ny = -(by - ay) / w.length, (bx - ax) / w.length
            x, y = ax + (bx - ax) * u + nx * off, ay + (by - ay) * u + ny * off
            return float(np.clip(x, 0.0, hue.width)), float(np.clip(y, 0.0, hue.height))
        return float(rng.uniform(0, hue.width)), float(rng.uniform(0, hue.height))

    ps, qs = [], []
    for _ in range(2400):
        fx, fy = somewhere()
        tx, ty = somewhere()
        firer = Figure("f", fx, fy, poses[int(rng.integers(len(poses)))], float(rng.uniform(0, 360)))
        target = Figure("t", tx, ty, poses[int(rng.integers(len(poses)))], float(rng.uniform(0, 360)))
        eye = points(firer, t)["eye"]
        for name, pt in points(target, t).items():
            if name != "eye" and math.dist(eye, pt) > 1e-6:
                ps.append(eye)
                qs.append(pt)
    p, q = np.array(ps), np.array(qs)
    mesh = sight.blocked(p, q)
    engine = np.array([_engine_blocked(walls, a, b) for a, b in zip(ps, qs, strict=True)])
    through = sum(1 for a, b in zip(ps, qs, strict=True) if not _engine_blocked(walls, a, b)
                  and any(_crosses(w, a, b) for w in walls))
    differ = np.flatnonzero(mesh != engine)
    grazing = [i for i in differ if _graze(walls, ps[i], qs[i]) < GRAZE]
    assert len(p) > 11000
    assert 0.2 * len(p) < engine.sum() < 0.8 * len(p)   # both verdicts are tried, many times
    assert through > 500                                # and many rays pass a wall's line at an opening
    assert [int(i) for i in differ if i not in grazing] == []
    assert len(grazing) <= 0.001 * len(p), f"{len(grazing)} grazing rays of {len(p)}"


def _crosses(w, p, q) -> bool:
    """Whether the ray crosses the wall's segment below its height (opening or not)."""
    from game.rulesets.tet68.exposure import Wall

    return stops(Wall(w.id, w.a, w.b, w.height, ()), tuple(p), tuple(q))


def _place(x, y, pose="standing", facing=0.0):
    return points(Figure("x", x, y, pose, facing), tables())


def test_a_window_shows_the_upper_body_and_hides_the_legs(hue, sight):
    # TET-3, TET-16: through noodle_front's window (x 9.5-11, sill 1.2", lintel 1.9") from the street
    eye = _place(10.25, 10.0)["eye"]
    target = _place(10.25, 17.0)
    walls = hue.town.walls
    for place, seen in (("head", True), ("chest", True), ("groin", False), ("boots", False)):
        assert bool(sight.blocked(eye, target[place])[0]) is not seen, place
        assert _engine_blocked(walls, eye, target[place]) is not seen, place


def test_a_door_shows_the_whole_man(hue, sight):
    # TET-3, TET-16: through noodle_front's door (x 7-8, from the floor to 1.9") every place is seen
    eye = _place(7.5, 10.0)["eye"]
    target = _place(7.5, 18.0)
    for place in ("head", "chest", "stomach", "groin", "boots"):
        assert not sight.blocked(eye, target[place])[0], place
        assert not _engine_blocked(hue.town.walls, eye, target[place]), place


def test_a_wall_hides_the_whole_man(hue, sight):
    # TET-3, TET-16: against noodle_front's wall (x 5.5: no opening there) nothing is seen
    eye = _place(5.5, 10.0)["eye"]
    target = _place(5.5, 18.0)
    for place in ("head", "chest", "stomach", "groin", "boots"):
        assert sight.blocked(eye, target[place])[0], place
        assert _engine_blocked(hue.town.walls, eye, target[place]), place


def test_a_man_leaning_from_the_door_shows_more_than_one_behind_the_jamb(hue, sight):
    # TET-16, TET-18: a figure just inside pharmacy_front's door (x 22-23) leaning out past its jamb
    t = tables()
    eye = _place(24.0, 11.0)["eye"]
    hidden = points(Figure("x", 21.6, 15.4, "standing", 90.0), t)
    leaning = points(Figure("x", 21.6, 15.4, "leaning", 90.0, lean_to=0.0), t)
    seen = {name: not sight.blocked(eye, p)[0] for name, p in leaning.items() if name != "eye"}
    assert sum(not sight.blocked(eye, p)[0] for n, p in hidden.items() if n != "eye") < sum(seen.values())
    assert seen == {n: not _engine_blocked(hue.town.walls, eye, p) for n, p in leaning.items() if n != "eye"}


def test_drawn_walls_stand_to_the_engines_height_and_open_where_it_opens(hue, glb):
    # TET-3: the drawn slab is solid to the wall's height outside its openings (its broken top only above
    # it), and open through every door and window at the engine's sill and lintel
    drawn = Reader(glb, kinds=("wall",))
    for w in hue.town.walls:
        (ax, ay), (bx, by) = w.a, w.b
        ux, uy = (bx - ax) / w.length, (by - ay) / w.length
        nx, ny = -uy, ux
        for u in np.linspace(0.05, w.length - 0.05, 40):
            if any(o.start - 0.01 <= u <= o.end + 0.01 for o in w.openings):
                continue
            top = np.array([[ax + ux * u, ay + uy * u, 10.0]])
            down = drawn.first_hits(top, top - [[0, 0, 20.0]])[0]
            assert 10.0 - down >= w.height - 1e-3, (w.id, u)
        for o in w.openings:
            u, z = (o.start + o.end) / 2, (o.bottom + o.top) / 2
            c = np.array([ax + ux * u, ay + uy * u, z])
            n = np.array([nx, ny, 0.0])
            assert not drawn.blocked(c - n, c + n)[0], (w.id, o.kind)
            solid = np.array([ax + ux * (o.start - 0.05), ay + uy * (o.start - 0.05), z]) if o.start > 0.1 else None
            if solid is not None:
                assert drawn.blocked(solid - n, solid + n)[0], (w.id, o.kind)


def test_every_node_names_its_kind_and_only_sight_sheets_block(glb):
    # DESIGN §7: a reader tells what blocks sight from the extras alone
    nodes = _nodes(glb)
    kinds = {n["extras"]["tet"] for n in nodes}
    assert kinds == {"road", "pavement", "tile", "floor", "wall", "sight", "rubble", "debris"}
    assert all(n["extras"]["blocks"] is (n["extras"]["tet"] == "sight") for n in nodes)
    walls = {n["extras"]["wall"] for n in nodes if n["extras"]["tet"] == "wall"}
    assert walls == {n["extras"]["wall"] for n in nodes if n["extras"]["tet"] == "sight"}
    assert all(n["name"] == f"wall:{n['extras']['wall']}" for n in nodes if n["extras"]["tet"] == "wall")


def test_the_bake_is_deterministic_and_cached(hue, glb, tmp_path, monkeypatch):
    assert ruins.bake_town_glb(hue) == glb
    monkeypatch.setenv("DINKYDAU_CACHE", str(tmp_path))
    path = ruins.town_path(hue)
    assert path.parent == tmp_path and path.read_bytes() == glb
    assert ruins.town_path(hue) == path


def test_dinkydau_bake_writes_the_town(tmp_path):
    out = tmp_path / "hue.glb"
    exe = ROOT / ".venv" / "bin" / "dinkydau"
    run = subprocess.run([str(exe), "bake", "hue_street", "--out", str(out)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert {n["extras"]["tet"] for n in _nodes(out.read_bytes())} >= {"wall", "sight"}


def test_validator_finds_no_errors(glb, tmp_path):
    # the Khronos glTF validator passes the baked town
    node = shutil.which("node")
    if node is None or not VALIDATOR.exists():
        pytest.skip("gltf-validator not installed (needs node; run tools/install-gltf-validator.sh)")
    path = tmp_path / "hue.glb"
    path.write_bytes(glb)
    out = subprocess.run([node, str(ROOT / "tools" / "gltf_validate.js"), str(path)], capture_output=True,
                         text=True, timeout=120, env={**os.environ})
    report = json.loads(out.stdout)
    assert report["issues"]["numErrors"] == 0, report["issues"]["messages"][:5]
    assert report["issues"]["numWarnings"] == 0, report["issues"]["messages"][:5]
