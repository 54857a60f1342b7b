"""Set pieces: frame rate during a Dustoff and a mortar barrage against the idle table, and memory and
scene nodes over 100 set pieces in one process.

    python benchmarks/setpieces.py [--size 1280x720] [--runs 3] [--pieces 100]

The situations come from the real engine the way ``dinkydau film`` finds them (a Dustoff on
village_sweep, the Jungle Ghost's mortar on rubber_plantation). Frame times are wall-clock per rendered
frame on whatever renderer the machine has (llvmpipe here); each figure is the median of ``--runs``.
Target (issue 14): during a set piece the frame rate stays at >= 70% of the idle table's; memory and node
count are flat over 100 set pieces.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--size", default="1280x720")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--pieces", type=int, default=100)
    args = p.parse_args(argv)
    os.environ.setdefault("DINKYDAU_CACHE", str(Path(__file__).resolve().parents[1] / "cache"))
    import panda3d.core as p3d

    from game.client import film
    from game.client.app import DinkyDauApp
    from game.client.presenter import INSTANT
    from game.client.settings import ClientSettings

    w, h = (int(v) for v in args.size.split("x"))
    app = DinkyDauApp(ClientSettings(size=(w, h), offscreen=True, shadows=False))
    clock = p3d.ClockObject.get_global_clock()
    renderer = app.base.win.get_gsg().get_driver_renderer()
    found = {name: film.find(app.link, sc, name, seed, 1, log=lambda *_: None)
             for name, sc, seed in (("dustoff", "village_sweep", 20), ("artillery", "rubber_plantation", 3))}

    def setup(sit):
        app.close_game()
        app.viewing, app.mode = "referee", "watch"
        app._on_new(sit.start, advance=False)
        app.camera.goal = app.camera.overview()
        app.camera.snap()
        pres = app.presenter
        for i, (events, view) in enumerate(sit.batches):
            if i == sit.story[0 if sit.showcase == "artillery" else 1]:  # the mortar; the Huey's touchdown
                return events, view
            pres.set_speed(INSTANT)
            app.handle_events(events, view)
            app.base.task_mgr.step()
        raise SystemExit("no set piece")

    def frame_ms(n: int) -> float:
        times = []
        for _ in range(n):
            t = time.perf_counter()
            app.base.task_mgr.step()
            times.append(time.perf_counter() - t)
        return statistics.median(times) * 1000

    print(f"renderer: {renderer}, {w}x{h}, median of {args.runs} runs")
    for name, sit in found.items():
        idle, busy, nodes = [], [], []
        for _ in range(args.runs):
            events, view = setup(sit)
            app.presenter.set_speed(1.0)
            idle.append(frame_ms(30))
            app.handle_events(events, view)
            times = []
            peak = 0
            while app.presenter.busy:
                t = time.perf_counter()
                app.base.task_mgr.step()
                times.append(time.perf_counter() - t)
                peak = max(peak, app.render.find_all_matches("**").get_num_paths())
            busy.append(statistics.median(times) * 1000)
            nodes.append(peak)
        i, b = statistics.median(idle), statistics.median(busy)
        print(f"{name:10s} idle {i:6.1f} ms ({1000 / i:5.1f} fps)  during {b:6.1f} ms ({1000 / b:5.1f} fps)  "
              f"ratio {i / b:5.0%}  peak nodes {max(nodes)}")

    # 100 set pieces in one process: the timelines run on a frame clock, no pictures needed
    app.base.win.set_active(False)
    clock.set_mode(p3d.ClockObject.M_non_real_time)
    clock.set_frame_rate(15)
    rows = []
    sits = list(found.values())
    for k in range(args.pieces):
        sit = sits[k % len(sits)]
        events, view = setup(sit)
        app.presenter.set_speed(1.0)
        app.handle_events(events, view)
        while app.presenter.busy:
            app.base.task_mgr.step()
        if k % 10 == 9:
            rows.append((k + 1, rss_mb(), app.render.find_all_matches("**").get_num_paths(),
                         app.scene.effects.count()))
    clock.set_mode(p3d.ClockObject.M_normal)
    for n, mb, nodes, live in rows:
        print(f"after {n:3d} set pieces: RSS {mb:7.1f} MB, scene nodes {nodes}, effect nodes left {live}")
    app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
