"""How much of the screen the interface covers: the same frame drawn with and without the HUD, pixels compared.

    python benchmarks/interface_share.py [SCENARIO]

Budgets (issue 15): at most 15 % of the pixels in play, at most 8 % in attract mode. In play, one of the
player's elements is selected with its actions shown beside it (the first turn's guide, the status and
the newest events are up too); in attract mode the AI plays until a caption is on screen. Each frame is
drawn three times: without the interface, with it, without it again; a pixel counts when the interface
changed it (more than ``THRESHOLD`` in a channel) and the two frames without it agree there (so water
and other animation do not count). Each case runs in a fresh interpreter (one ShowBase per process), at
1280x720 and 1920x1080.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
THRESHOLD = 10
BUDGET = {"play": 0.15, "attract": 0.08}

CHILD = r"""
import json, sys, time
sys.path.insert(0, {repo!r})
import numpy as np
from game.client.app import DinkyDauApp
from game.client.settings import ClientSettings
size, mode, scenario, threshold, shot = {size!r}, {mode!r}, {scenario!r}, {threshold!r}, {shot!r}
app = DinkyDauApp(ClientSettings(size=tuple(size), offscreen=True))

def grab():
    app.base.graphics_engine.render_frame()
    app.base.graphics_engine.render_frame()
    tex = app.base.win.get_screenshot()
    return np.frombuffer(tex.get_ram_image_as("RGB"), np.uint8).reshape(tex.get_y_size(), tex.get_x_size(), 3)

if mode == "play":
    app.open_game_sync(scenario, seed=3)
    app.frame_camera("overview")
    own = [e for e in app.view["elements"] if e.get("side") == app.viewing and e.get("stands")]
    best = max(own, key=lambda e: len(app.element_actions(e["id"])))
    app.select_element(best["id"])
    app.settle(0.3)
    what = best["id"]
else:
    from game.client.demo import AttractMode
    demo = AttractMode(app, [scenario], idle_s=600, pace=0.4, seed=7)
    demo.start()
    end = time.monotonic() + 90
    while time.monotonic() < end and (app.hud is None or app.hud.caption_frame.is_hidden()):
        app.base.task_mgr.step()
    for _ in range(5):
        app.base.task_mgr.step()
    what = app.hud.caption.getText() if app.hud else ""
render2d = app.base.render2d
render2d.hide(); a = grab()
render2d.show(); b = grab()
if shot:
    app.screenshot(shot)
render2d.hide(); c = grab()
render2d.show()
changed = (np.abs(b.astype(int) - a).max(axis=2) > threshold) & (np.abs(c.astype(int) - a).max(axis=2) <= threshold)
print(json.dumps({{"share": float(changed.mean()), "what": what, "geoms": app.scene.geom_count()}}))
app.shutdown()
"""


def run(size, mode: str, scenario: str, shot: str | None = None) -> dict:
    code = CHILD.format(repo=str(REPO), size=list(size), mode=mode, scenario=scenario, threshold=THRESHOLD,
                        shot=shot)
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise SystemExit(r.stderr[-2000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    scenario = argv[0] if argv else "search_and_destroy"
    print(f"interface share of the pixels, {scenario} (budget: play {BUDGET['play']:.0%}, "
          f"attract {BUDGET['attract']:.0%})")
    print("| mode | size | share | budget | on screen |\n|---|---|---:|---:|---|")
    over = False
    for mode in ("play", "attract"):
        for size in ((1280, 720), (1920, 1080)):
            r = run(size, mode, scenario)
            ok = r["share"] <= BUDGET[mode]
            over |= not ok
            print(f"| {mode} | {size[0]}x{size[1]} | {r['share']:.1%} | {BUDGET[mode]:.0%}"
                  f"{'' if ok else ' OVER'} | {r['what'][:40]!s} |")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
