"""Line-of-sight benchmark on a convention-sized table (ISSUE 3): prints measured figures.

A 72" x 48" table with 6 hills, 300 irregular canopy features (dense, bamboo, secondary, rubber, scrub)
and 20 buildings. It times the bake, the load into Embree, the batched call (the AI's path), single
in-process sightlines, and the same sightlines through Panda3D's CollisionTraverser + CollisionSegment
as a peer (first hit only, which is less work than a full LOS answer). One core: run it with
``OMP_NUM_THREADS=1``; Embree's ray queries here are single-threaded calls.

    python benchmarks/los.py [--n 20000] [--no-panda]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from dataclasses import dataclass

import numpy as np

from game.world import bake
from game.world.features import Feature
from game.world.los import Conditions, TableLOS


@dataclass(frozen=True)
class Table:
    width: float
    height: float
    features: tuple[Feature, ...]


def convention_table(seed: int = 1) -> Table:
    rng = np.random.default_rng(seed)
    feats: list[Feature] = []
    for i in range(6):
        cx, cy, r = rng.uniform(8, 64), rng.uniform(8, 40), rng.uniform(4, 7)
        ring = [(cx + r * math.cos(a), cy + 0.8 * r * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 16)[:-1]]
        feats.append(Feature(f"hill{i}", "hill", polygon=tuple(ring), height=float(rng.uniform(1.5, 4.0))))
    kinds = ["dense"] * 120 + ["bamboo"] * 20 + ["secondary"] * 80 + ["rubber"] * 30 + ["light"] * 50
    for i, kind in enumerate(kinds):
        cx, cy, r = rng.uniform(2, 70), rng.uniform(2, 46), rng.uniform(1.0, 3.0)
        ang = np.linspace(0, 2 * math.pi, 13)[:-1]
        rad = r * rng.uniform(0.7, 1.2, 12)
        ring = [(min(max(cx + a * math.cos(t), 0.1), 71.9), min(max(cy + a * math.sin(t), 0.1), 47.9))
                for a, t in zip(rad, ang, strict=True)]
        feats.append(Feature(f"wood{i}", kind, polygon=tuple(ring)))
    for i in range(20):
        kind = "hootch" if i < 16 else "masonry"
        feats.append(Feature(f"bld{i}", kind, point=(float(rng.uniform(3, 69)), float(rng.uniform(3, 45))),
                             size=(1.5, 1.0), rotation=float(rng.uniform(0, 180))))
    return Table(72.0, 48.0, tuple(feats))


def sightlines(los: TableLOS, n: int, seed: int = 2) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.uniform([1.5, 1.5], [70.5, 46.5], size=(n, 2))
    ang = rng.uniform(0, 2 * math.pi, n)
    length = rng.uniform(1.0, 30.0, n)
    b = np.clip(a + np.column_stack([np.cos(ang), np.sin(ang)]) * length[:, None], [1.5, 1.5], [70.5, 46.5])
    eyes = np.column_stack([a, los.elevations(a) + 0.6])
    targets = np.column_stack([b, los.elevations(b) + 0.6])
    return eyes, targets


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def panda_peer(glb: bytes, eyes: np.ndarray, targets: np.ndarray) -> tuple[float, int]:
    """Seconds per sightline through CollisionTraverser + CollisionSegment, and how many were hit."""
    import tempfile

    import panda3d.core as p3d

    p3d.load_prc_file_data("", "window-type none\naudio-library-name null")
    import gltf

    with tempfile.NamedTemporaryFile(suffix=".glb") as fh:
        fh.write(glb)
        fh.flush()
        model = p3d.NodePath(gltf.load_model(fh.name))
    model.set_collide_mask(p3d.BitMask32.bit(1))
    segment = p3d.CollisionSegment()
    cnode = p3d.CollisionNode("sight")
    cnode.add_solid(segment)
    cnode.set_from_collide_mask(p3d.BitMask32.bit(1))
    cnode.set_into_collide_mask(p3d.BitMask32.all_off())
    root = p3d.NodePath("root")
    model.reparent_to(root)
    cpath = root.attach_new_node(cnode)
    queue = p3d.CollisionHandlerQueue()
    trav = p3d.CollisionTraverser()
    trav.add_collider(cpath, queue)
    hits = 0
    t0 = time.perf_counter()
    for e, t in zip(eyes, targets, strict=True):
        segment.set_point_a(*e)
        segment.set_point_b(*t)
        trav.traverse(root)
        hits += queue.get_num_entries() > 0
    return (time.perf_counter() - t0) / len(eyes), hits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=20000, help="sightlines in the batch")
    ap.add_argument("--singles", type=int, default=2000)
    ap.add_argument("--panda", type=int, default=2000, help="sightlines through Panda3D (0: skip)")
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
    print(f"bake: {bake_s:.2f} s   load into Embree: {load_s:.2f} s")

    eyes, targets = sightlines(los, args.n)
    los.batch(eyes, targets, cond)  # warm up
    batch_s = best_of(lambda: los.batch(eyes, targets, cond), 5)
    vis = los.batch(eyes, targets, cond)
    print(f"batch: {args.n / batch_s:,.0f} sightlines/s ({batch_s / args.n * 1e6:.2f} us each, "
          f"{vis.mean():.1%} visible, mean length {np.linalg.norm(targets - eyes, axis=1).mean():.1f}\")")

    singles = []
    for e, t in zip(eyes[: args.singles], targets[: args.singles], strict=True):
        t0 = time.perf_counter()
        los.check_points(tuple(e), tuple(t), cond)
        singles.append(time.perf_counter() - t0)
    single_med = statistics.median(singles)
    print(f"single check_points: median {single_med * 1e6:.1f} us, p90 {np.percentile(singles, 90) * 1e6:.1f} us")

    from game.world.los import Observer

    obs = [Observer(float(e[0]), float(e[1]), 0.0) for e in eyes[:500]]
    tgt = [Observer(float(t[0]), float(t[1]), 180.0) for t in targets[:500]]
    stand = []
    for a, b in zip(obs, tgt, strict=True):
        t0 = time.perf_counter()
        los.check(a, b, cond)
        stand.append(time.perf_counter() - t0)
    print(f"stand-to-stand check (12 sightlines): median {statistics.median(stand) * 1e6:.0f} us")

    if args.panda:
        per, hits = panda_peer(glb, eyes[: args.panda], targets[: args.panda])
        print(f"panda3d CollisionTraverser + CollisionSegment (first hits only): {1 / per:,.0f} sightlines/s "
              f"({per * 1e6:.0f} us each, {hits} hit)")
        print(f"ratio batched Embree LOS / Panda3D collision: {per / (batch_s / args.n):.0f}x; "
              f"single / Panda3D: {per / single_med:.1f}x")


if __name__ == "__main__":
    main()
