"""The stills of Tet '68's table in the docs (docs/screenshots/tet_*.jpg): the street from the overview, an
aim at a man at a window with the engine's exposure, the man at the window close to, and a shot across the
street with its rolls in the dice tray.

    .venv/bin/python -m tools.tet_stills [--out docs/screenshots] [--size 1920x1080] [--png]

Each is played through the engine as a player plays it (seed 3, the Allies against the computer): nothing
is staged that the rules would not give. JPEGs are written at quality 80 (each under 300 KB at 1920x1080);
``--png`` keeps PNGs as well, to look at. Leaves out the other tables' stills (tools/screenshots.py).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import panda3d.core as p3d


def _jpeg(png: Path, jpg: Path, keep_png: bool) -> None:
    img = p3d.PNMImage()
    img.read(p3d.Filename.from_os_specific(str(png)))
    p3d.load_prc_file_data("tet-stills", "jpeg-quality 80")  # after the client's own 85 (settings.py)
    img.write(p3d.Filename.from_os_specific(str(jpg)))
    if not keep_png:
        png.unlink()


def fire_phase_save(seed: int = 3) -> dict:
    """hue_street at the Allies' first shot, every Allied figure having held through the move phase (TET-7)."""
    from game.engine.client import InProcessEngine

    eng = InProcessEngine()
    g = eng.call("game.new", scenario="hue_street", seed=seed, players={"allied": "human", "insurgent": "ai"},
                 side="allied")["game"]
    for _ in range(80):
        v = eng.call("game.view", game=g, side="allied")
        if v["to_act"] != "allied":
            eng.call("game.step", game=g, side="allied")
            continue
        acts = eng.call("game.actions", game=g, side="allied")["actions"]
        if any(a["type"] == "snap_fire" for a in acts) or (v["phase"] == "fire" and any(a["type"] == "fire" for a in acts)):
            return eng.call("game.save", game=g)["save"]
        a = next(a for a in acts if a["type"] in ("hold", "pass"))
        eng.call("game.act", game=g, side="allied", action={k: v for k, v in a.items() if k in ("type", "figure")})
    raise SystemExit("no shot offered in 80 acts")


def _look(app, x: float, y: float, z: float, heading: float, pitch: float, distance: float) -> None:
    o = app.camera.goal
    o.x, o.y, o.z, o.heading, o.pitch, o.distance = x, y, z, heading, pitch, distance
    app.camera.snap()
    app.settle()


def main(argv: list[str] | None = None) -> None:
    from game.client import presenter as pr
    from game.client.app import DinkyDauApp
    from game.client.settings import ClientSettings

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/screenshots")
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--png", action="store_true")
    args = ap.parse_args(argv)
    size = tuple(int(v) for v in args.size.split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    app = DinkyDauApp(ClientSettings(size=size, offscreen=True))

    def shot(name: str, hud: bool) -> None:
        png = out / f"{name}.png"
        app.screenshot(str(png), hud=hud)
        _jpeg(png, out / f"{name}.jpg", args.png)
        print(f"wrote {out / name}.jpg ({(out / f'{name}.jpg').stat().st_size // 1024} KB)")

    try:
        app.open_game_sync("hue_street", seed=3)
        app.presenter.set_speed(pr.INSTANT)
        app.frame_camera("overview")
        app.settle()
        shot("tet_street", hud=False)
        app._load_save(fire_phase_save())
        app.settle()
        app.presenter.set_speed(pr.INSTANT)
        fire = next(a for a in app.actions if a["type"] in ("snap_fire", "fire"))
        target = fire["targets"][0]["id"]
        firer = app.scene.pieces.position(fire["figure"])
        man = app.scene.pieces.position(target)
        _look(app, man.x, man.y - 1.0, man.z + 1.1, 0, 14, 6.0)
        shot("tet_window", hud=False)
        app.select_element(fire["figure"])
        app.choose_action(fire)
        _aim(app, target)
        _look(app, man.x - 0.6, man.y - 1.8, man.z + 1.0, 10, 30, 6.5)
        shot("tet_aim", hud=True)
        app.confirm()
        app.settle(seconds=0.5)
        for _ in range(40):  # the other Marines hold their fire until the shots are made (TET-7)
            rolls = [line for line in app.log_history if "d100" in line]
            if rolls or not app.actions:
                break
            hold = next((a for a in app.actions if a["type"] in ("hold", "pass")), None)
            if hold is None:
                break
            app.send_action({k: v for k, v in hold.items() if k in ("type", "figure")})
            app.settle(seconds=0.3)
        app.settle(seconds=0.5)
        app.select_element(None)
        _look(app, (firer.x + man.x) / 2 - 0.5, (firer.y + man.y) / 2 - 0.5, 0.5, 0, 50, 19)
        shot("tet_fire", hud=True)
    finally:
        app.shutdown()


def _aim(app, target: str) -> None:
    """Click the target as a player does (the ringed man), single shots where the engine asks."""
    p = app.scene.pieces.position(target)
    px = app.project((p.x, p.y, p.z + 0.9))
    w, h = app.base.win.get_x_size(), app.base.win.get_y_size()
    app.click_at(app.ray_at(p3d.LPoint2(px[0] / w * 2 - 1, 1 - px[1] / h * 2)))
    if app.kit.play.pending and app.kit.play.pending["todo"]:
        app.kit.play.fill(False)
    app.settle()


if __name__ == "__main__":
    main()
