"""Regenerate the 1920x1080 screenshots in this folder against the real engine process.

    python docs/screenshots/make_screenshots.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))


def shot(name: str, scenario: str, script) -> None:
    from game.client.app import DinkyDauApp
    from game.client.settings import ClientSettings

    app = DinkyDauApp(ClientSettings(size=(1920, 1080), offscreen=True))
    try:
        app.open_game_sync(scenario, seed=3)
        app.frame_camera("overview")
        script(app)
        app.settle(seconds=0.3)
        app.screenshot(str(HERE / name))
        print("wrote", name)
    finally:
        app.shutdown()


def move_ghost(app) -> None:
    el = next(e["id"] for e in app.view["elements"] if e["side"] == "allied" and app.element_actions(e["id"]))
    app.select_element(el)
    app.frame_camera(el)
    move = next(a for a in app.element_actions(el) if a["type"] == "move")
    app.choose_action(move)
    c = move["params"]["to"].get("from") or [0, 0]
    app.pending["ghost"].follow(c[0] + 3.5, c[1] + 4.0)


def los(app) -> None:
    own = next(s for s in app.view["stands"] if s["side"] == "allied")
    foe = next((s for s in app.view["stands"] if s["side"] == "insurgent"), None)
    app.toggle_tool("los")
    to = foe["id"] if foe else [own["x"] + 10, own["y"] + 20]
    app.check_los(own["id"], to)
    app.settle(seconds=0.3)
    app.camera.focus((own["x"] + (foe or own)["x"]) / 2, (own["y"] + (foe or own)["y"]) / 2, 0, 40)
    app.camera.goal.pitch = 50


def main() -> int:
    shot("table-overview.png", "rubber_plantation", lambda app: None)
    shot("village-sweep.png", "village_sweep", lambda app: None)
    shot("move-ghost.png", "village_sweep", move_ghost)
    shot("line-of-sight.png", "village_sweep", los)
    shot("top-down.png", "rubber_plantation", lambda app: app.frame_camera("top"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
