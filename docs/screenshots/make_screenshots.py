"""Regenerate the screenshots in this folder (PNG, 1280x720) against the real engine process.

    python docs/screenshots/make_screenshots.py [NAME ...]

``hero.png`` (the README's first picture) and ``*-table.png`` / ``*-squad.png`` show each shipped scenario
from the overview with the interface and close to a squad without it; the rest show one feature each.
"""

from __future__ import annotations

import sys
import time
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))


def _app():
    from game.client.app import DinkyDauApp
    from game.client.settings import ClientSettings

    return DinkyDauApp(ClientSettings(size=(1280, 720), offscreen=True))


def shot(name: str, scenario: str, script, seed: int = 3, hud: bool = True) -> None:
    app = _app()
    try:
        app.open_game_sync(scenario, seed=seed)
        app.frame_camera("overview")
        script(app)
        app.settle(seconds=0.3)
        app.screenshot(str(HERE / name), hud=hud)
        print("wrote", name, (HERE / name).stat().st_size // 1024, "KB")
    finally:
        app.shutdown()


def frame_between(app, a, b, pitch=52.0, heading=0.0) -> None:
    mid_x, mid_y = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    sep = ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
    app.camera.focus(mid_x, mid_y - sep * 0.08, 0, sep * 2.4 + 22)
    app.camera.goal.pitch = pitch
    app.camera.goal.heading = heading


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
    frame_between(app, (own["x"], own["y"]), ((foe or own)["x"], (foe or own)["y"]), 50)


def _fire(app, element="sq1"):
    fire = next(a for a in app.element_actions(element) if a["type"] == "fire")
    target = fire["params"]["target"]["choices"][0]
    c = app.scene.pieces.element_centre(element)
    t = app.scene.pieces.stands[target].node.get_pos()
    frame_between(app, (c.x, c.y), (t.x, t.y))
    app.select_element(element)
    app.choose_action(fire)
    return fire, target


def odds(app) -> None:
    fire, target = _fire(app)
    app.fill_param(target)
    app.settle(seconds=0.3)


def firefight(app) -> None:
    fire, target = _fire(app)
    app.fill_param(target)
    app.settle(seconds=0.2)
    now = [time.monotonic()]
    app.scene.effects.clock = lambda: now[0]  # hold the picture while the tracers are in the air
    app.step_pause = 1e6  # and keep the AI from answering before the picture is taken
    app.confirm()
    while app.link.busy:
        app.base.task_mgr.step()
        time.sleep(0.005)
    now[0] += 0.5


def overwatch(app) -> None:
    ow = next(a for a in app.element_actions("sq2") if a["type"] == "set_overwatch")
    app.choose_action(ow)
    c = app.scene.pieces.element_centre("sq2")
    app.hover_at(c.x - 2, c.y + 10)
    app.frame_camera("sq2")
    app.camera.focus(c.x, c.y + 8, 0, 42)
    app.camera.goal.pitch = 55


def demo(name: str) -> None:
    from game.client.demo import AttractMode

    app = _app()
    try:
        d = AttractMode(app, ["rubber_plantation"], pace=0.6, seed=4)
        d.start()
        end = time.monotonic() + 150
        fired = []
        app.listeners.append(lambda evs: fired.extend(e for e in evs if e.get("type") == "fire"))
        while time.monotonic() < end and not fired:
            app.base.task_mgr.step()
            time.sleep(0.005)
        app.scene.effects.clock = (lambda t0: lambda: t0 + 0.5)(time.monotonic())
        app.step_pause = 1e6
        for _ in range(6):
            app.base.task_mgr.step()
        app.screenshot(str(HERE / name))
        print("wrote", name, (HERE / name).stat().st_size // 1024, "KB")
    finally:
        app.shutdown()


def coop(name: str) -> None:
    """Co-op on one screen (DD-10.16): the team box and whose squad is selected."""
    app = _app()
    try:
        app.open_game_sync("village_sweep", mode="coop", seed=3, team=["Ames", "Brody", "Cruz"])
        app.select_element("sq1")
        app.frame_camera("sq1")
        app.settle(seconds=0.3)
        app.screenshot(str(HERE / name))
        print("wrote", name, (HERE / name).stat().st_size // 1024, "KB")
    finally:
        app.shutdown()


def hero(app) -> None:
    """Low over the hamlet, the platoon in the foreground: the table as a visitor first sees it."""
    app.camera.focus(24, 19, 0, 40)
    app.camera.goal.pitch = 27
    app.camera.goal.heading = 0


def close_to_squad(element: str):
    def script(app) -> None:
        c = app.scene.pieces.element_centre(element)
        app.select_element(element)
        app.camera.focus(c.x, c.y + 2, 0, 16)
        app.camera.goal.pitch = 32
        app.camera.goal.heading = 20
    return script


def overview(name: str, scenario: str) -> None:
    shot(name, scenario, lambda app: None)


def squad(name: str, scenario: str, element: str) -> None:
    shot(name, scenario, close_to_squad(element), hud=False)


SCENARIOS = {"village_sweep": "sq1", "rubber_plantation": "sq1", "search_and_destroy": "sq1",
             "firebase_relief": "p1"}
SHOTS = {
    "hero.png": lambda n: shot(n, "village_sweep", hero, hud=False),
    **{f"{sc.replace('_', '-')}-table.png": partial(overview, scenario=sc) for sc in SCENARIOS},
    **{f"{sc.replace('_', '-')}-squad.png": partial(squad, scenario=sc, element=el) for sc, el in SCENARIOS.items()},
    "top-down.png": lambda n: shot(n, "rubber_plantation", lambda app: app.frame_camera("top"), hud=False),
    "move-ghost.png": lambda n: shot(n, "village_sweep", move_ghost),
    "line-of-sight.png": lambda n: shot(n, "village_sweep", los),
    "odds-preview.png": lambda n: shot(n, "village_sweep", odds),
    "firefight.png": lambda n: shot(n, "village_sweep", firefight),
    "overwatch-arc.png": lambda n: shot(n, "village_sweep", overwatch),
    "demo-mode.png": demo,
    "coop-team.png": coop,
}


def main(argv: list[str]) -> int:
    for name in argv or list(SHOTS):
        SHOTS[name](name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
