"""Stills of a scenario's table for the README and docs/screenshots: the opening (the whole table, and a
close look at one element) and, optionally, a moment later in a real seeded AI-against-AI game (after
the ``until``-th event of a kind: the first ``brew_up`` of thunder_road's ambush, say), each with and
without the interface, as JPEGs.

    .venv/bin/python tools/screenshots.py thunder_road --size 1280x720 --out docs/screenshots \
        --element acav1 --seed 10 --until brew_up:2

writes ``thunder_road_table[_hud]-1280.jpg``, ``thunder_road_column[_hud]-1280.jpg`` and (with
``--until``) ``thunder_road_ambush[_hud]-1280.jpg``. The game is played by the engine's AI on both sides
(``game.step`` on the referee's seat) and shown as the Allied player sees it: every batch is applied at
once (the presenter at its instant speed), then the last one's ``--play`` seconds play at 1x before the
still is taken, so a fireball or a bail-out can be caught in the air. ``--look X,Y,HEADING,PITCH,DIST``
places the camera for the later still (default: over the last event's place). Rendering offscreen
on a software renderer is slow (a few seconds a frame): one still at a time.

``--label`` names the later still (default ``ambush``); ``--underground cutaway`` opens the cutaway over
the tunnels for it and ``--underground crawl`` rides the torch-lit crawl behind the Allied stand below;
``--frames N`` (with ``--play``) takes N stills spread over the played seconds, ``_f1`` … ``_fN``.

    .venv/bin/python tools/screenshots.py cu_chi --seed 3 --threat 2 --skip-opening --until tunnel_move:1 \
        --label crawl --underground crawl --play 2.2 --frames 3

What it leaves out: no films (``dinkydau film``), no choice of the Allied player's moves.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

QUALITY = 80  # JPEG quality: a 1920x1080 still under 300 KB
PLAY_FPS = 10  # frames a second of game time while the last batch plays (``--play``)


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scenario")
    p.add_argument("--size", default="1280x720")
    p.add_argument("--out", default="docs/screenshots")
    p.add_argument("--name", default=None, help="file name prefix (default: the scenario)")
    p.add_argument("--seed", type=int, default=10)
    p.add_argument("--threat", type=int, default=3)
    p.add_argument("--element", default=None, help="the element of the opening's close look")
    p.add_argument("--until", default=None, help="KIND[:N]: play on until the N-th event of KIND")
    p.add_argument("--play", type=float, default=0.0, help="seconds of the last batch played at 1x")
    p.add_argument("--look", default=None, help="X,Y,HEADING,PITCH,DISTANCE of the later still")
    p.add_argument("--skip-opening", action="store_true")
    p.add_argument("--label", default="ambush", help="the later still's name (default: ambush)")
    p.add_argument("--underground", choices=("cutaway", "crawl"), default=None,
                   help="for the later still, open the cutaway over the tunnels, or ride the crawl below")
    p.add_argument("--frames", type=int, default=0,
                   help="with --play: N stills spread over the played seconds (the first, the middle, the last)")
    return p.parse_args(argv)


def shoot(app, path: Path, hud: bool) -> None:
    png = path.with_suffix(".png")
    app.screenshot(str(png), hud=hud)
    import panda3d.core as p3d

    img = p3d.PNMImage()
    img.read(p3d.Filename.from_os_specific(str(png)))
    img.write(p3d.Filename.from_os_specific(str(path)))
    png.unlink()
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)", flush=True)


def opening(app, a, out: Path, tag: str) -> None:
    app.frame_camera("overview")
    app.settle(seconds=0.3)
    shoot(app, out / f"{a.name}_table_hud-{tag}.jpg", True)
    shoot(app, out / f"{a.name}_table-{tag}.jpg", False)
    el = a.element or next(e["id"] for e in app.view["elements"] if e["side"] == app.viewing)
    c = app.scene.pieces.element_centre(el)
    app.select_element(el)
    app.camera.focus(c.x + 3, c.y + 1, 0, 22)
    app.camera.goal.pitch, app.camera.goal.heading = 30, 15
    app.settle(seconds=0.3)
    shoot(app, out / f"{a.name}_column_hud-{tag}.jpg", True)
    shoot(app, out / f"{a.name}_column-{tag}.jpg", False)
    app.select_element(None)


def later(app, a, out: Path, tag: str) -> None:
    """Play the seeded game on until ``--until``, shown to the Allied player, and take the still."""
    from game.client.presenter import INSTANT

    kind, _, n = a.until.partition(":")
    n = int(n or 1)
    link = app.link
    app.close_game()
    r = link.call("game.new", scenario=a.scenario, seed=a.seed, threat=a.threat, referee=True, side="referee",
                  players={"allied": "ai", "insurgent": "ai"})
    game = r["game"]
    app.mode, app.viewing, app.players = "watch", "allied", {"allied": "ai", "insurgent": "ai"}
    app._on_new({**r, "view": link.call("game.view", game=game, side="allied"), "events": []}, advance=False)
    pres = app.presenter
    since = max([e.get("seq", 0) for e in r.get("events", [])], default=0)
    seen, last = 0, None
    for _ in range(4000):
        step = link.call("game.step", game=game, side="referee")
        hits = [e for e in step.get("events", []) if e.get("type") == kind]
        seen += len(hits)
        events = link.call("game.events", game=game, side="allied", since=since)["events"]
        since = max([e.get("seq", 0) for e in events] + [since])
        view = link.call("game.view", game=game, side="allied")
        done = seen >= n or (step.get("view") or {}).get("over")
        pres.set_speed(1.0 if done and a.play > 0 else INSTANT)
        app.handle_events(events, view)
        if done:
            last = hits[-1] if hits else None
            break
        app.base.task_mgr.step()
    if a.look:
        x, y, h, p, d = (float(v) for v in a.look.split(","))
    else:
        x, y = (float(last.get("x", 36)), float(last.get("y", 24))) if last else (36.0, 24.0)
        h, p, d = 20.0, 32.0, 26.0
    app.camera.focus(x, y, 0, d)
    app.camera.goal.heading, app.camera.goal.pitch = h, p
    app.camera.snap()
    if a.underground is not None:
        below(app, a.underground)
    stem = f"{a.name}_{a.label}"
    if a.play > 0:  # on a frame clock (as the film's): the same moment however slow the renderer
        import panda3d.core as p3d

        steps = round(a.play * PLAY_FPS)
        at = {round(k * (steps - 1) / (a.frames - 1)): k + 1 for k in range(a.frames)} if a.frames > 1 else {}
        clock = p3d.ClockObject.get_global_clock()
        clock.set_mode(p3d.ClockObject.M_non_real_time)
        clock.set_frame_rate(PLAY_FPS)
        try:
            for i in range(steps):
                app.base.task_mgr.step()
                if i in at:
                    shoot(app, out / f"{stem}_f{at[i]}_hud-{tag}.jpg", True)
                    shoot(app, out / f"{stem}_f{at[i]}-{tag}.jpg", False)
        finally:
            last = clock.get_frame_time()
            clock.set_mode(p3d.ClockObject.M_normal)
            clock.set_real_time(last)
        if at:
            return
    else:
        app.settle(seconds=0.3)
    if app.scene.underground.crawl is None:
        app.camera.snap()
    shoot(app, out / f"{stem}_hud-{tag}.jpg", True)
    shoot(app, out / f"{stem}-{tag}.jpg", False)


def below(app, how: str) -> None:
    """Open the cutaway over the tunnels (U), and for ``crawl`` ride behind the Allied stand below (U again)."""
    under = app.scene.underground
    if not under.known:
        raise SystemExit("--underground: the Allied side knows no tunnel section at that moment")
    app.toggle_underground()
    if how == "crawl":
        app.toggle_underground()
        if under.crawl is None:
            raise SystemExit("--underground crawl: no Allied stand below at that moment (try a later --until)")


def main(argv: list[str] | None = None) -> int:
    a = parse(list(sys.argv[1:] if argv is None else argv))
    a.name = a.name or a.scenario
    w, h = (int(v) for v in a.size.lower().split("x"))
    import panda3d.core as p3d

    p3d.load_prc_file_data("screenshots", f"jpeg-quality {QUALITY}")
    from game.client.app import DinkyDauApp
    from game.client.settings import ClientSettings

    out = ROOT / a.out if not Path(a.out).is_absolute() else Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    app = DinkyDauApp(ClientSettings(size=(w, h), offscreen=True))
    try:
        if not a.skip_opening:
            app.open_game_sync(a.scenario, seed=a.seed)
            opening(app, a, out, str(w))
        if a.until:
            later(app, a, out, str(w))
    finally:
        app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
