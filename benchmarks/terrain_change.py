"""A table that changes (DD chapter 8): what a crater and a napalm strip cost. Prints measured figures.

On the shipped 72" x 48" ``rubber_plantation`` table it times:

(a) the change itself: ``terrain_changes.change_terrain`` for one crater (G-01 T12c) and one napalm oval
    (G-19, 2" x 6"): the state, the plan-view table rebuilt with the change (``TableMap.changed``), the
    game's table answers dropped, the event; the plan-view rebuild alone, here and on a 72" x 48" table
    of 326 features; then every stand-to-stand and stand-to-marker sightline and every stand's cover
    answered again on the changed table (the re-tracing, for scale), and the same on the table before;
(b) line-of-sight throughput, ``TableLOS.check_many`` over a few thousand random stand pairs, with no
    burnt ground and with the napalm oval, and with a heavier burn (three strips), plus single
    ``check`` calls near and away from the burnt ground.

The targets: under 50 ms for the change itself; check_many with burnt ground within 10% of without.
The best of ``--repeat`` runs in process CPU time, the conditions interleaved (the machine is shared).

    PYTHONPATH=. OMP_NUM_THREADS=1 python benchmarks/terrain_change.py [--pairs 3000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import copy
import math
import statistics
import time
from collections.abc import Callable

import numpy as np

from benchmarks.los import convention_table
from game.rules import fire
from game.rules.game import Game
from game.rules.scenario import resolve_scenario
from game.rules.terrain_changes import burnt_strip, change_terrain, crater
from game.terrain import terrain_book
from game.world.los import Conditions, Observer, TableLOS
from game.world.tablemap import TableMap

NAPALM = burnt_strip(36.0, 26.0, 30.0)  # G-19: the 2" x 6" oval along the heading, over the rubber
HEAVY = (NAPALM, burnt_strip(8.0, 20.0, 80.0, 12.0, 4.0), burnt_strip(56.0, 12.0, -20.0, 10.0, 3.0))


def median(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median process CPU time and median wall time of ``repeat`` runs, seconds."""
    cpu, wall = [], []
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def flat(poly: list[list[float]]) -> tuple[float, ...]:
    return tuple(v for p in poly for v in p)


def random_pairs(w: float, h: float, n: int, seed: int = 4, pool: int = 120) -> list[tuple[Observer, Observer]]:
    """``n`` pairs among ``pool`` stands placed at random (as a game asks many pairs of a few stands), 2" to
    30" apart."""
    rng = np.random.default_rng(seed)
    stands = [Observer(float(x), float(y), float(f)) for x, y, f in
              zip(rng.uniform(2.0, w - 2, pool), rng.uniform(2.0, h - 2, pool), rng.uniform(0, 360, pool), strict=True)]
    pairs = [(a, b) for a in stands for b in stands if a is not b and 2.0 <= math.hypot(a.x - b.x, a.y - b.y) <= 30.0]
    pick = rng.choice(len(pairs), size=min(n, len(pairs)), replace=False)
    return [pairs[i] for i in sorted(pick.tolist())]


def everything(g: Game) -> None:
    """Every sightline between two things on the table (stands, Blind markers) and every stand's cover."""
    things = [st for st in g.state.stands.values() if st.alive] + list(g.state.blinds.values())
    g.trace_sightlines([(a, b) for a in things for b in things if a is not b])
    for a in things:
        for b in things:
            if a is not b:
                g.line_of_sight(a, b)
    for st in g.state.stands.values():
        if st.alive:
            fire.cover_of(g, st)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()
    sc = resolve_scenario("rubber_plantation")
    g0 = Game(sc, 1)
    snap = g0.snapshot()
    los: TableLOS = g0.los_table()
    things = sum(st.alive for st in g0.state.stands.values()) + len(g0.state.blinds)
    print(f"rubber_plantation: {sc.width:g}x{sc.height:g}, {len(sc.features)} features, {things} stands and markers")

    # (a) the change itself
    def change() -> Game:
        g = Game.restore(sc, copy.deepcopy(snap))
        g.table.features_at(24.0, 12.0)
        c0 = time.process_time()
        change_terrain(g, "crater", crater(30.0, 14.0, 1.5), "G-01 T12c", "A 155mm shell leaves a crater")
        change_terrain(g, "burnt", NAPALM, "G-19", "Napalm burns a strip of the plantation")
        g.spent = time.process_time() - c0  # type: ignore[attr-defined]
        return g

    change()
    spent = sorted(change().spent for _ in range(args.repeat * 3))  # type: ignore[attr-defined]
    print(f"(a) change_terrain, one crater and one napalm oval: median {ms(statistics.median(spent))}, "
          f"max {ms(spent[-1])} (target < 50 ms)")
    book = terrain_book()
    base = TableMap(sc.width, sc.height, sc.features, book)
    changes = change().state.terrain_changes
    cpu, _ = median(lambda: base.changed(changes), args.repeat * 5)
    print(f"    TableMap.changed alone: {ms(cpu)} on this table", end="")
    big = convention_table()
    big_map = TableMap(big.width, big.height, big.features, book)
    cpu, _ = median(lambda: big_map.changed(changes), args.repeat)
    print(f"; {ms(cpu)} on a {big.width:g}x{big.height:g} table of {len(big.features)} features")

    def answer(changed: bool) -> None:
        g = change() if changed else Game.restore(sc, copy.deepcopy(snap))
        g.shared.results.young.clear()  # the re-tracing, not the cache
        g.shared.results.old.clear()
        c0 = time.process_time()
        everything(g)
        answer.spent.append(time.process_time() - c0)  # type: ignore[attr-defined]

    for changed in (False, True):
        answer.spent = []  # type: ignore[attr-defined]
        for _ in range(args.repeat):
            answer(changed)
        print(f"    every sightline and cover answered again, {'after' if changed else 'before'} the change: "
              f"{ms(statistics.median(answer.spent))}")  # type: ignore[attr-defined]

    # (b) throughput
    pairs = random_pairs(sc.width, sc.height, args.pairs)
    conds = {"no burnt ground": Conditions(), "the napalm oval": Conditions(burnt=(flat(NAPALM),)),
             "three strips": Conditions(burnt=tuple(flat(p) for p in HEAVY))}
    for c in conds.values():
        los.check_many(pairs[:50], c)  # warm
    # interleaved, so that a busy spell of the shared machine falls on every condition alike
    spent: dict[str, list[float]] = {name: [] for name in conds}
    for _ in range(args.repeat):
        for name, c in conds.items():
            c0 = time.process_time()
            los.check_many(pairs, c)
            spent[name].append(time.process_time() - c0)
    base = min(spent["no burnt ground"])
    for name, times in spent.items():
        best = min(times)
        print(f"(b) check_many, {len(pairs)} pairs, {name}: best {ms(best)} cpu (median {ms(statistics.median(times))}), "
              f"{best / len(pairs) * 1e6:.1f} us a pair, {100 * (best / base - 1):+.1f}%")
    from game.world.burnt import burnt_of

    near = burnt_of((flat(NAPALM),))
    xy_a = np.array([[a.x, a.y] for a, _ in pairs])
    xy_b = np.array([[b.x, b.y] for _, b in pairs])
    close = near.near(xy_a, xy_b)
    print(f"    pairs whose line comes near the napalm oval's box: {close.sum()} of {len(pairs)}")
    for label, sel in (("near the burnt ground", np.nonzero(close)[0][:300]), ("away from it", np.nonzero(~close)[0][:300])):
        some = [pairs[i] for i in sel]
        one: dict[str, list[float]] = {"no burnt ground": [], "the napalm oval": []}
        for _ in range(args.repeat):
            for name in one:
                c0 = time.process_time()
                for a, b in some:
                    los.check(a, b, conds[name])
                one[name].append(time.process_time() - c0)
        print(f"    check one at a time, {len(some)} pairs {label}: "
              + ", ".join(f"{name} {min(t) / len(some) * 1e6:.1f} us a pair" for name, t in one.items()))

if __name__ == "__main__":
    main()
