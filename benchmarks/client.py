"""Client figures: launch to first frame, offscreen frames per second per tier (low: the software renderer's
baked light; high: real-time shadows and post passes), Geoms drawn for a full table.

    python benchmarks/client.py [SCENARIO]

Each measurement runs in a fresh interpreter (Panda3D allows one ShowBase per process). The table comes
from the real engine process; if it cannot start, from the test suite's fake engine (a 72" x 48" table),
and the output says so.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {repo!r})
from game.client.app import DinkyDauApp
from game.client.settings import ClientSettings
size, quality, scenario, frames = {size!r}, {quality!r}, {scenario!r}, {frames!r}
factory, source = None, "engine"
try:
    from game.engine.client import EngineProcess
    e = EngineProcess(); e.call("engine.hello"); e.close()
except Exception as exc:
    from tests.client.fake_engine import FakeEngine
    factory, source, scenario = FakeEngine, "fake engine ({{}})".format(type(exc).__name__), "fake_patrol"
app = DinkyDauApp(ClientSettings(size=tuple(size), offscreen=True, quality=quality), engine_factory=factory)
if scenario is None:
    scenarios = app.link.call("engine.hello")["scenarios"]
    scenario = max(scenarios, key=lambda s: s["table"]["width"] * s["table"]["height"])["id"]
app.open_game_sync(scenario)
app.frame_camera("overview")
app.base.graphics_engine.render_frame()
first = time.perf_counter() - t0
for _ in range(3):
    app.base.task_mgr.step()
t = time.perf_counter()
for _ in range(frames):
    app.base.task_mgr.step()
fps = frames / (time.perf_counter() - t)
print(json.dumps({{"first_frame_s": first, "fps": fps, "geoms": app.scene.geom_count(), "source": source,
                  "scenario": scenario, "table": [app.scene.table.width, app.scene.table.height],
                  "table_source": app.scene.table.source}}))
app.shutdown()
"""


def run(size, quality, scenario, frames=40) -> dict:
    code = CHILD.format(repo=str(REPO), size=list(size), quality=quality, scenario=scenario, frames=frames)
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise SystemExit(r.stderr[-2000:])
    out = json.loads(r.stdout.strip().splitlines()[-1])
    out["process_s"] = time.perf_counter() - t
    return out


def main(argv: list[str]) -> int:
    scenario = argv[0] if argv else None
    rows = []
    for size in ((1280, 720), (1920, 1080)):
        for quality in ("low", "high"):
            rows.append((size, quality, run(size, quality, scenario, frames=40 if quality == "low" else 8)))
    first = rows[0][2]
    print(f"table: {first['scenario']} {first['table'][0]:g}\" x {first['table'][1]:g}\" "
          f"(terrain from {first['table_source']}; views from {first['source']})")
    print(f"launch to first frame (1280x720, low tier): {first['first_frame_s'] * 1000:.0f} ms "
          f"(whole process {first['process_s']:.2f} s)")
    print(f"Geoms drawn: {first['geoms']}")
    print("| size | tier | frames/s |\n|---|---|---:|")
    for size, quality, r in rows:
        print(f"| {size[0]}x{size[1]} | {quality} | {r['fps']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
