"""Line-of-sight benchmark on a convention-sized table: prints measured figures.

A 72" x 48" table with 6 hills, 300 irregular canopy features (dense, bamboo, secondary, rubber, scrub)
and 20 buildings. It times the bake and the load (Embree scenes and the plan grid), then:

* the batched call ``TableLOS.batch`` (the AI's path): sightlines per second in process CPU time, the
  best of ``--repeat`` runs with their median beside it (the machine is shared: another tenant's load
  only ever slows a run, so the best run is the figure, as ``timeit`` reports the least time), and the
  wall time of the median run;
* single ``check_points`` calls (full evidence): median and p90 per call, and how many were answered
  from the limit alone (too long) or from the plan grid (open ground), without Embree;
* stand-to-stand ``check`` (12 sightlines): median per call, first with stands it has not seen (no
  cached bases, bodies or ends) and again with the same stands;
* ``check_many`` on the same pairs in one call: per pair;
* the plain reference trace (every sightline in full, nothing skipped), for scale;
* the resident memory of a fresh process with ``rubber_plantation``'s table loaded, line of sight
  compiled ahead of time (``game.world.sightline_native``), by numba, and in plain Python;
* Panda3D's ``CollisionTraverser`` + ``CollisionSegment`` as a peer, first hits only (less work than a
  line-of-sight answer), tuned as /work/shared/MEASURED.md did and further: ``bounds-type best``, the
  same ground, building and canopy triangles as ``CollisionPolygon`` solids in a spatial hierarchy
  (1" leaves under 4" and 16" groups; the best of the layouts tried, see docs/terrain.md), and the
  untuned default (the .glb through panda3d-gltf, colliding with visible geometry) on a few segments.

One core: run it with ``OMP_NUM_THREADS=1``; every Embree query here is a single-threaded call.

    PYTHONPATH=. python benchmarks/los.py [--n 20000] [--singles 2000] [--stands 500] [--panda 2000] [--memory 1]
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from game.world import bake
from game.world.features import Feature
from game.world.los import Conditions, Observer, TableLOS


@dataclass(frozen=True)
class Table:
    width: float
    height: float
    features: tuple[Feature, ...]


def convention_table(seed: int = 1, width: float = 72.0, height: float = 48.0) -> Table:
    """The benchmark table; a larger one (``width`` x ``height``) has the same mix of features at the same
    density (each count scaled by the area; the 72" x 48" table is the same as ever)."""
    rng = np.random.default_rng(seed)
    f = width * height / (72.0 * 48.0)

    def count(n: int) -> int:
        return n if f == 1.0 else int(round(n * f))

    feats: list[Feature] = []
    for i in range(count(6)):
        cx, cy, r = rng.uniform(8, width - 8), rng.uniform(8, height - 8), rng.uniform(4, 7)
        ring = [(cx + r * math.cos(a), cy + 0.8 * r * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 16)[:-1]]
        feats.append(Feature(f"hill{i}", "hill", polygon=tuple(ring), height=float(rng.uniform(1.5, 4.0))))
    kinds = (["dense"] * count(120) + ["bamboo"] * count(20) + ["secondary"] * count(80) + ["rubber"] * count(30)
             + ["light"] * count(50))
    for i, kind in enumerate(kinds):
        cx, cy, r = rng.uniform(2, width - 2), rng.uniform(2, height - 2), rng.uniform(1.0, 3.0)
        ang = np.linspace(0, 2 * math.pi, 13)[:-1]
        rad = r * rng.uniform(0.7, 1.2, 12)
        ring = [(min(max(cx + a * math.cos(t), 0.1), width - 0.1), min(max(cy + a * math.sin(t), 0.1), height - 0.1))
                for a, t in zip(rad, ang, strict=True)]
        feats.append(Feature(f"wood{i}", kind, polygon=tuple(ring)))
    buildings = count(20)
    for i in range(buildings):
        kind = "hootch" if i < buildings * 4 // 5 else "masonry"
        feats.append(Feature(f"bld{i}", kind, point=(float(rng.uniform(3, width - 3)), float(rng.uniform(3, height - 3))),
                             size=(1.5, 1.0), rotation=float(rng.uniform(0, 180))))
    return Table(width, height, tuple(feats))


def sightlines(los: TableLOS, n: int, seed: int = 2) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    hi = [los.width - 1.5, los.height - 1.5]
    a = rng.uniform([1.5, 1.5], hi, size=(n, 2))
    ang = rng.uniform(0, 2 * math.pi, n)
    length = rng.uniform(1.0, 30.0, n)
    b = np.clip(a + np.column_stack([np.cos(ang), np.sin(ang)]) * length[:, None], [1.5, 1.5], hi)
    eyes = np.column_stack([a, los.elevations(a) + 0.6])
    targets = np.column_stack([b, los.elevations(b) + 0.6])
    return eyes, targets


def cpu_runs(fn: Callable[[], object], repeat: int) -> tuple[list[float], list[float]]:
    """Process CPU times and wall times of ``repeat`` runs, seconds."""
    cpu, wall = [], []
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return cpu, wall


def median_cpu(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median process CPU time and median wall time of ``repeat`` runs, seconds."""
    cpu, wall = cpu_runs(fn, repeat)
    return statistics.median(cpu), statistics.median(wall)


def per_call(fn: Callable[..., object], calls: list[tuple]) -> list[float]:
    out = []
    for args in calls:
        t0 = time.perf_counter()
        fn(*args)
        out.append(time.perf_counter() - t0)
    return out


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} us"


# -- the Panda3D peer ----------------------------------------------------------------------------------


def _segment_rate(root, eyes: np.ndarray, targets: np.ndarray) -> tuple[float, int]:
    """Seconds per segment through CollisionTraverser + CollisionSegment over ``root``, and the hits."""
    import panda3d.core as p3d

    root.set_collide_mask(p3d.BitMask32.bit(1))
    segment = p3d.CollisionSegment()
    cnode = p3d.CollisionNode("sight")
    cnode.add_solid(segment)
    cnode.set_from_collide_mask(p3d.BitMask32.bit(1))
    cnode.set_into_collide_mask(p3d.BitMask32.all_off())
    cpath = root.attach_new_node(cnode)
    queue = p3d.CollisionHandlerQueue()
    trav = p3d.CollisionTraverser()
    trav.add_collider(cpath, queue)
    hits = 0
    for e, t in zip(eyes[:20], targets[:20], strict=True):  # warm up (bounds are computed lazily)
        segment.set_point_a(*e)
        segment.set_point_b(*t)
        trav.traverse(root)
    t0 = time.perf_counter()
    for e, t in zip(eyes, targets, strict=True):
        segment.set_point_a(*e)
        segment.set_point_b(*t)
        trav.traverse(root)
        hits += queue.get_num_entries() > 0
    return (time.perf_counter() - t0) / len(eyes), hits


def panda_default(glb: bytes, eyes: np.ndarray, targets: np.ndarray) -> tuple[float, int]:
    """Untuned: the .glb loaded through panda3d-gltf, segments against its visible geometry."""
    import panda3d.core as p3d

    p3d.load_prc_file_data("", "window-type none\naudio-library-name null")
    import gltf  # panda3d-gltf

    with tempfile.NamedTemporaryFile(suffix=".glb") as fh:
        fh.write(glb)
        fh.flush()
        model = p3d.NodePath(gltf.load_model(fh.name))
    root = p3d.NodePath("root")
    model.reparent_to(root)
    return _segment_rate(root, eyes, targets)


def panda_tuned(los: TableLOS, eyes: np.ndarray, targets: np.ndarray, leaf: float = 1.0) -> tuple[float, int, float]:
    """Tuned: the ground, building and canopy triangles (the float32 ones Embree holds) as
    CollisionPolygons, in leaves of ``leaf`` inches under 4x and 16x groups (bounds-type best is set
    before anything is built). Seconds per segment, hits, build seconds."""
    import panda3d.core as p3d

    p3d.load_prc_file_data("", "bounds-type best")
    t0 = time.perf_counter()
    tris = np.concatenate([los.geo.solid.tris, los.geo.canopy.tris])
    area = np.linalg.norm(np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]), axis=1)
    tris = tris[area > 1e-9]
    centre = tris.mean(axis=1)[:, :2]
    root = p3d.NodePath("root")

    def build(parent, idx: np.ndarray, size: float) -> None:
        if size < leaf:
            node = p3d.CollisionNode("leaf")
            for a, b, c in tris[idx].tolist():
                node.add_solid(p3d.CollisionPolygon(p3d.LPoint3(*a), p3d.LPoint3(*b), p3d.LPoint3(*c)))
            parent.attach_new_node(node)
            return
        keys = np.floor(centre[idx] / size).astype(np.int64)
        _, group = np.unique(keys, axis=0, return_inverse=True)
        group = group.ravel()
        for g in range(int(group.max()) + 1):
            build(parent.attach_new_node("group"), idx[group == g], size / 4.0)

    build(root, np.arange(len(tris)), 16.0 * leaf)
    built = time.perf_counter() - t0
    per, hits = _segment_rate(root, eyes, targets)
    return per, hits, built


_RESIDENT = """
from game.rules.scenario import load_scenario, shipped_scenarios
from game.world.los import Conditions, TableLOS
los = TableLOS.from_scenario(load_scenario(shipped_scenarios()["rubber_plantation"]))
los.check_points((10.0, 10.0), (30.0, 20.0), Conditions()).reason
los.batch([(10.0, 10.0, 1.0)] * 100, [(30.0, 20.0, 1.0)] * 100, Conditions())
print(next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmRSS:")))
"""


def resident(mode: str) -> float:
    """VmRSS (MB) of a fresh process that loads rubber_plantation's table and answers a sightline and a
    batch, with ``DINKYDAU_COMPILED_LOS=mode`` (the engine's own figure is benchmarks/engine.py's)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "DINKYDAU_COMPILED_LOS": mode, "DINKYDAU_SIGHTLINE_BUILD": "0"}
    out = subprocess.run([sys.executable, "-c", _RESIDENT], env=env, capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1]) / 1024


# -- main ----------------------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=20000, help="sightlines in the batch")
    ap.add_argument("--singles", type=int, default=2000, help="check_points calls")
    ap.add_argument("--stands", type=int, default=500, help="stand pairs for check and check_many")
    ap.add_argument("--repeat", type=int, default=15, help="runs of each batched timing (the best is the figure)")
    ap.add_argument("--panda", type=int, default=2000, help="segments through the tuned Panda3D peer (0: skip)")
    ap.add_argument("--memory", type=int, default=1, help="measure a fresh process's memory per path (0: skip)")
    args = ap.parse_args()
    table = convention_table()
    cond = Conditions()

    t0 = time.perf_counter()
    glb = bake.bake_glb(table)
    bake_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    los = TableLOS.from_glb(glb, table.width, table.height)
    load_s = time.perf_counter() - t0
    tris = sum(len(m.faces) for m in (n.mesh for n in bake.build_nodes(table)))
    print(f"table: 72x48, {len(table.features)} features, {tris} triangles, glb {len(glb) / 1e6:.2f} MB")
    print(f"bake: {bake_s:.2f} s   load (Embree scenes, BVHs, plan grid): {load_s:.2f} s")

    # the compiled code's first calls in this process (read from the on-disk cache, or compiled)
    eyes, targets = sightlines(los, args.n)
    t0 = time.perf_counter()
    los.check_points(tuple(eyes[0]), tuple(targets[0]), cond)
    first_single = time.perf_counter() - t0
    t0 = time.perf_counter()
    los.batch(eyes[:2], targets[:2], cond)
    first_batch = time.perf_counter() - t0
    from game.world import los as los_module
    from game.world import sightline_native

    if los._fast is not None and los_module._kernel is sightline_native:
        print(f"compiled line of sight, ahead of time ({sightline_native.path().name}, no numba in the process): "
              f"first single call {first_single * 1e3:.1f} ms, first batched call {first_batch * 1e3:.1f} ms")
    elif los._fast is not None:
        print(f"compiled line of sight by numba (no library built: python -m game.warm): first single call "
              f"{first_single * 1e3:.0f} ms, first batched call {first_batch * 1e3:.0f} ms (read from .cache/numba; "
              "with no cache it compiles on the first call, about 10-15 s here)")
    else:
        print("compiled line of sight: not in use here (no library, numba missing or no direct Embree path): "
              "the Python path")

    # batched
    los.batch(eyes, targets, cond)
    cpus, walls = cpu_runs(lambda: los.batch(eyes, targets, cond), args.repeat)
    cpu, med, wall = min(cpus), statistics.median(cpus), statistics.median(walls)
    vis = los.batch(eyes, targets, cond)
    batch_per, batch_median_per = cpu / args.n, med / args.n
    print(f"batch: {args.n / cpu:,.0f} sightlines/s CPU, the best of {args.repeat} runs ({us(batch_per)} each; "
          f"median {args.n / med:,.0f}/s, its wall {args.n / wall:,.0f}/s), "
          f"{vis.mean():.1%} visible, mean length {np.linalg.norm(targets - eyes, axis=1).mean():.1f}\"   "
          f"[target >= 1,000,000/s]")
    ref_n = min(args.n, 5000)
    ref_cpu, _ = median_cpu(lambda: los.trace_reference(eyes[:ref_n], targets[:ref_n], cond), 3)
    print(f"reference trace (every sightline in full, no shortcuts): {ref_n / ref_cpu:,.0f} sightlines/s CPU")

    # single sightlines, full evidence
    calls = [(tuple(e), tuple(t), cond) for e, t in zip(eyes[:args.singles].tolist(), targets[:args.singles].tolist(),
                                                         strict=True)]
    singles = per_call(los.check_points, calls)
    results = [los.check_points(*c) for c in calls]
    untraced = sum(not r.extra["traced"] for r in results) / len(results)
    clear = sum(los.grid.clear(e[0], e[1], t[0], t[1], min(e[2], t[2])) for e, t, _ in calls) / len(calls)
    single_med = statistics.median(singles)
    print(f"single check_points: median {us(single_med)}, p90 {us(float(np.percentile(singles, 90)))} "
          f"({untraced:.0%} answered from the limit alone, {clear:.0%} over open ground from the grid)   "
          f"[target median <= 10 us]")

    # stand to stand
    obs = [Observer(float(e[0]), float(e[1]), 0.0) for e in eyes[:args.stands]]
    tgt = [Observer(float(t[0]), float(t[1]), 180.0) for t in targets[:args.stands]]
    pairs = list(zip(obs, tgt, strict=True))
    los._bodies.clear()
    los._bases.clear()
    los._memo.clear()
    cold = statistics.median(per_call(lambda a, b: los.check(a, b, cond), pairs))
    warm = statistics.median(per_call(lambda a, b: los.check(a, b, cond), pairs))
    print(f"stand-to-stand check (12 sightlines): median {us(cold)} (new stands), {us(warm)} (stands seen before)")

    def many() -> None:
        los._bodies.clear()
        los._bases.clear()
        los._memo.clear()
        los.check_many(pairs, cond)

    many_cpu, _ = median_cpu(many, max(3, args.repeat // 2))
    warm_cpu, _ = median_cpu(lambda: los.check_many(pairs, cond), max(3, args.repeat // 2))
    print(f"check_many ({len(pairs)} pairs in one call): {us(many_cpu / len(pairs))} per pair (new stands), "
          f"{us(warm_cpu / len(pairs))} (seen before)")

    if args.memory:
        for mode, what in (("1", "ahead of time"), ("numba", "numba"), ("0", "plain Python")):
            print(f"resident memory, a process with rubber_plantation's table loaded, line of sight {what}: "
                  f"{resident(mode):.0f} MB" + ("   [engine target < 150 MB]" if mode == "1" else ""))

    if args.panda:
        n = args.panda
        k = min(n, 100)
        dper, _ = panda_default(glb, eyes[:k], targets[:k])
        print(f"panda3d untuned (the .glb through panda3d-gltf, visible geometry): {1 / dper:,.0f} segments/s "
              f"({us(dper)} each)")
        per, hits, built = panda_tuned(los, eyes[:n], targets[:n])
        print(f"panda3d CollisionTraverser + CollisionSegment, tuned (bounds-type best, CollisionPolygons in a "
              f"1\"/4\"/16\" hierarchy; built in {built:.1f} s): {1 / per:,.0f} segments/s ({us(per)} each, "
              f"{hits / n:.0%} hit something)")
        # (the peer's one timed pass against our median batch run, not our best: like for like)
        print(f"ratio, tuned peer time / ours: batched LOS {per / batch_median_per:,.0f}x; single check_points "
              f"{per / single_med:.1f}x")


if __name__ == "__main__":
    main()
