"""``dinkydau demo``: the attract mode for a convention table (DESIGN §9).

The AI plays both sides (``players: {allied: ai, insurgent: ai}``, driven by ``game.step``) on the
referee's view, so the crowd sees the whole fight. The director (``director.py``) reads each batch as
the presenter queues it and frames calm shots of several seconds: an establishing shot, the aircraft
followed in, a cut to the impact, hard cuts rather than long sweeps; captions big enough to read
across a room come from the events' own ``text``. Any key or click hands command to whoever walked
up: a solo game as the Allies on the same scenario starts at once. Left idle for ``--idle-minutes``
(default 3), the table goes back to the loop. Each loop is a new seed, and the next scenario.

Made to run for hours: the engine closes each old game, the old table's nodes go with it, logs and
caption queues are bounded, and every timed thing is tied to the game that asked for it.

    dinkydau demo [SCENARIO] [--idle-minutes 3] [--pace 1.0] [--fullscreen]
    dinkydau demo --offscreen --frames 400      # headless run: renders N frames and prints a summary
    dinkydau demo --soak 24 --offscreen         # an accelerated day: the loop on a simulated clock

``--soak HOURS`` runs the loop game after game for that many hours of a simulated clock (each frame
advances it ``--soak-step`` seconds; time spent waiting for the engine does not count) with the
presenter at its instant speed, and prints the games played and the resident memory of this process
and of the engine every simulated hour; then a summary, and exits 0 (issue 11: a convention machine runs
all day).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import re
import sys
import time
from collections import deque

from game.memory import release_freed_memory

CAPTION_EVENTS = ("ambush", "assault", "assault_result", "surrounded", "eliminated", "casualty", "hit", "fire",
                  "structure", "smoke", "retreat", "status", "activate", "turn", "game_over")
QUIET_EVENTS = ("phase", "cp", "pass", "tokens", "clock", "note", "roll")


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="dinkydau demo", description="Attract mode: the AI plays itself on the "
                                "table until someone presses a key.")
    p.add_argument("scenario", nargs="?", help="play only this scenario (default: every shipped one in turn)")
    p.add_argument("--idle-minutes", type=float, default=3.0, help="a walk-up game left alone this long "
                   "goes back to the loop (default 3)")
    p.add_argument("--pace", type=float, default=1.0, help="seconds scale of the pauses between AI steps "
                   "and captions (0: as fast as the engine goes)")
    p.add_argument("--max-game-minutes", type=float, default=25.0, help="start the next loop after this long")
    p.add_argument("--seed", type=int, default=None, help="first seed (default: from the clock)")
    p.add_argument("--threat", type=int, default=2)
    p.add_argument("--size", default=None, help="window size WxH (default 1280x720; 1920x1080 offscreen)")
    p.add_argument("--fullscreen", action="store_true")
    p.add_argument("--offscreen", action="store_true", help="render without a window (EGL)")
    p.add_argument("--frames", type=int, default=0, help="offscreen: render this many frames, then exit")
    p.add_argument("--screenshot", metavar="FILE", help="with --frames: save the last frame")
    p.add_argument("--no-shadows", action="store_true", help="no sun shadows")
    p.add_argument("--shadows", action="store_true", help="sun shadows even on a software renderer")
    p.add_argument("--ui-scale", type=float, default=1.0)
    p.add_argument("--quality", choices=("low", "high"), default=None,
                   help="rendering tier (default: low on a software renderer, high on a GPU)")
    p.add_argument("--no-hud", action="store_true", help="draw the table without the interface (screenshots)")
    p.add_argument("--soak", type=float, default=None, metavar="HOURS", help="run the loop for this many "
                   "hours of a simulated clock, animations instant, printing memory and games as it goes")
    p.add_argument("--soak-step", type=float, default=1.0, metavar="SECONDS",
                   help="with --soak: simulated seconds a frame (default 1)")
    p.add_argument("--soak-report", type=float, default=60.0, metavar="MINUTES",
                   help="with --soak: print a line every this many simulated minutes (default 60)")
    return p.parse_args(argv)


class AttractMode:
    """Runs the loop on a ``DinkyDauApp``: demo games, the camera director, captions, walk-up, idle."""

    def __init__(self, app, scenarios: list[str] | None = None, idle_s: float = 180.0, pace: float = 1.0,
                 seed: int | None = None, threat: int = 2, max_game_s: float = 1500.0, clock=time.monotonic):
        self.app = app
        self.fixed = list(scenarios or [])
        self.scenarios: list[str] = list(self.fixed)
        self.idle_s = idle_s
        self.pace = max(0.0, pace)
        self.threat = threat
        self.max_game_s = max_game_s
        self.clock = clock
        self.rng = random.Random(seed if seed is not None else int(time.time()))
        self.state = "idle"  # "demo" | "player" | "idle" (before the engine answered)
        self.index = -1
        self.scenario: str | None = None
        self.games = 0  # demo games started
        self.finished = 0  # demo games played to their end
        self.steps = 0  # event batches seen in demo games
        self.events_seen = 0
        self.seeds: list[int] = []
        self.captions: deque = deque(maxlen=8)
        self.caption_until = 0.0
        self.game_started = 0.0
        self.last_progress = 0.0
        self.over_at: float | None = None
        self.last_input = clock()
        self.last_mouse = None
        self.styled_hud = None
        from game.client.director import Director

        self.director = Director(app, clock=clock)
        app.listeners.append(self.on_events)
        app.game_over_hook = self.on_game_over
        bt = app.base.buttonThrowers[0].node() if getattr(app.base, "buttonThrowers", None) else None
        if bt is not None:
            bt.set_button_down_event("demo-button")
        app.base.accept("demo-button", self.on_button)
        app.base.task_mgr.add(self._tick, "demo-tick")

    # -- the loop --------------------------------------------------------------------------------
    def start(self) -> None:
        if self.scenarios:
            self.next_game()
            return

        def hello(result):
            from game.client.menu import drawable_scenarios

            self.scenarios = [s["id"] for s in drawable_scenarios(result)]
            self.next_game()

        self.app.link.request("engine.hello", {}, hello, self._engine_error)

    def _engine_error(self, fault) -> None:
        self.app._on_error(fault)

    def next_game(self) -> None:
        """A new demo game: the next scenario, a new seed, both sides played by the AI."""
        if not self.scenarios:
            return
        app = self.app
        self.state = "demo"
        self.director.enabled = True
        self.index = (self.index + 1) % len(self.scenarios)
        self.scenario = self.scenarios[self.index]
        seed = self.rng.randrange(1, 1_000_000)
        self.seeds.append(seed)
        del self.seeds[:-50]
        self.games += 1
        self.captions.clear()
        self.over_at = None
        self.game_started = self.last_progress = self.clock()
        release_freed_memory()  # the last table's meshes and textures are gone: give their heap back
        app.step_pause = 1.4 * self.pace
        app.autosave_enabled = False
        app.start_game(self.scenario, "allied", "watch", self.threat, seed,
                       extra={"referee": True, "side": "referee"})
        app.viewing = "referee"

    def take_command(self) -> None:
        """A walk-up player: a solo game as the Allies on the same scenario, straight away."""
        app = self.app
        self.state = "player"
        self.director.enabled = False  # the player keeps the camera as it is
        self.last_input = self.clock()
        self.captions.clear()
        app.step_pause = 0.05
        app.autosave_enabled = True
        if app.hud is not None:
            app.hud.set_caption("")
        app.start_game(self.scenario or self.scenarios[0], "allied", "solo", self.threat,
                       self.rng.randrange(1, 1_000_000))

    # -- input -----------------------------------------------------------------------------------
    def on_button(self, button: str = "") -> None:
        self.last_input = self.clock()
        if self.state == "demo" and not str(button).startswith("wheel"):
            self.take_command()

    def _mouse_moved(self) -> bool:
        mw = getattr(self.app.base, "mouseWatcherNode", None)
        if mw is None or not mw.has_mouse():
            return False
        m = mw.get_mouse()
        pos = (round(m.x, 3), round(m.y, 3))
        moved = self.last_mouse is not None and pos != self.last_mouse
        self.last_mouse = pos
        return moved

    # -- events: the director and the captions ---------------------------------------------------
    def on_events(self, events: list[dict]) -> None:
        if self.state != "demo" or not events:
            return
        self.steps += 1
        self.events_seen += len(events)
        if any(ev.get("type") not in QUIET_EVENTS for ev in events):
            self.last_progress = self.clock()
        for ev in events:
            if ev.get("type") in CAPTION_EVENTS and ev.get("text"):
                if ev.get("type") == "status" and ev.get("status") not in ("pinned", "overwatch"):
                    continue
                self.captions.append(self.caption(ev))

    def caption(self, ev: dict) -> tuple[str, str, str]:
        """(sentence, number, clause): the event's text in plain words, made short (captions.py)."""
        from game.client.captions import caption_parts

        return caption_parts({**ev, "text": self.plain(ev)})

    def plain(self, ev: dict) -> str:
        """The event's text with stand ids turned into words (``vc1_a`` -> ``Cell Ba's rifle cell``)."""
        text = str(ev.get("text", ""))
        view = self.app.view
        elements = {e["id"]: e.get("name", e["id"]) for e in view.get("elements", [])}
        stands = {s["id"]: f"{elements.get(s.get('element'), s.get('element'))}'s {s.get('name', 'stand')}"
                  for s in view.get("stands", [])}
        ids = sorted(stands, key=len, reverse=True)
        if ids:
            text = re.sub(r"\b(" + "|".join(re.escape(i) for i in ids) + r")\b", lambda m: stands[m.group(1)], text)
        return text

    def on_game_over(self, result: dict) -> None:
        from game.client.hud import SIDE_NAME

        if self.state != "demo":
            self.app.game_over_hook = None
            self.app._game_over(result)
            self.app.game_over_hook = self.on_game_over
            return
        if self.over_at is None:
            self.finished += 1
            winner = result.get("winner")
            head = f"{SIDE_NAME.get(winner, winner)} win!" if winner else "A draw"
            self.captions.append((head, "", str(result.get("reason", ""))[:60]))
            self.over_at = self.clock()
            if self.app.camera is not None:
                self.director.shot = self.director.establishing(self.over_at)
                self.app.camera.goal = self.app.camera.overview()

    # -- per frame -------------------------------------------------------------------------------
    def _tick(self, task):
        now = self.clock()
        app = self.app
        if self._mouse_moved():
            self.last_input = now
        if self.state == "player":
            if now - self.last_input > self.idle_s:
                self.next_game()
            return task.cont
        if self.state != "demo":
            return task.cont
        if app.hud is not None and app.hud is not self.styled_hud:
            self._style(app.hud)
        self._captions(now)
        if self.over_at is not None and now - self.over_at > max(0.5, 9.0 * self.pace):
            self.next_game()
        elif now - self.game_started > self.max_game_s or now - self.last_progress > max(60.0, 90 * self.pace):
            self.next_game()
        return task.cont

    def _style(self, hud) -> None:
        """A table for a crowd: no log, menu, prompt or ticker; the captions, the dice tray and one line
        that invites whoever walks up (at most 8 % of the screen, benchmarks/interface_share.py)."""
        hud.log_frame.hide()
        hud.hide_panel()
        hud.prompt.hide()
        hud.ticker.root.hide()
        hud.dice_anchor.set_z(0.42)  # above the caption
        hud.hint.setText("Press any key to take command of the Allies")
        hud.hint.setFg((0.94, 0.89, 0.26, 1))
        hud.hint.setScale(0.05)
        self.styled_hud = hud

    def _captions(self, now: float) -> None:
        hud = self.app.hud
        if hud is None or now < self.caption_until:
            return
        if not self.captions:
            return  # the last caption stays until there is news
        text, number, clause = self.captions.popleft()
        v = self.app.view
        sub = f"Turn {v.get('turn', '?')} of {v.get('turns', '?')}" + (f"   {clause}" if clause else "")
        hud.set_caption(text, sub, number)
        # a crowd needs time to read: longer captions stay longer; a backlog moves faster
        hold = max(1.2, min(5.0, 0.9 + 0.045 * len(text))) * max(self.pace, 0.05)
        if len(self.captions) > 3:
            hold *= 0.5
        self.caption_until = now + hold

    def stop(self) -> None:
        app = self.app
        app.base.task_mgr.remove("demo-tick")
        self.director.stop()
        app.base.ignore("demo-button")
        if self.on_events in app.listeners:
            app.listeners.remove(self.on_events)
        app.game_over_hook = None

    def summary(self) -> dict:
        return {"state": self.state, "games": self.games, "finished": self.finished, "steps": self.steps,
                "events": self.events_seen,
                "scenario": self.scenario, "seeds": self.seeds[-5:],
                "turn": self.app.view.get("turn"), "geoms": self.app.scene.geom_count() if self.app.scene else 0,
                "effects": self.app.scene.effects.count() if self.app.scene else 0,
                "shots": self.director.shots, "cuts": self.director.cuts}


def simulated_clock(app, step: float):
    """Put the frame clock on simulated time: each frame advances it ``step`` seconds, however long it
    took (Panda3D's non-real-time mode: the tasks, the intervals, the presenter and the director all
    follow it). Returns the clock for the attract mode."""
    import panda3d.core as p3d

    clock = app.base.clock
    clock.set_mode(p3d.ClockObject.M_non_real_time)
    clock.set_frame_rate(1.0 / step)
    return clock.get_frame_time


def rss_mb(pid: int | str = "self") -> float:
    """Resident memory of a process, MB (``/proc/PID/statm``; 0 where there is none)."""
    import os

    try:
        with open(f"/proc/{pid}/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def _engine_pid(app) -> int | None:
    proc = getattr(getattr(app.link, "engine", None), "proc", None)
    return getattr(proc, "pid", None)


def _wait_for_engine(app, limit: float = 120.0) -> None:
    """Deliver the engine's answers until none is outstanding, in real time: on the simulated clock the
    engine answers at once (its thinking is not attract-mode time)."""
    deadline = time.monotonic() + limit
    while app.link.busy and time.monotonic() < deadline:
        if not app.link.poll():
            time.sleep(0.001)


def soak(app, demo: AttractMode, hours: float, report_s: float = 3600.0, out=None) -> dict:
    """The attract loop for ``hours`` of simulated time (``simulated_clock``), the presenter instant: a
    line with the games and the memory every ``report_s`` simulated seconds, and a summary at the end."""
    from game.client.presenter import INSTANT

    out = out or sys.stdout
    clock = app.base.clock
    start, t0 = clock.get_frame_time(), time.monotonic()
    end, next_report = start + hours * 3600.0, start + report_s
    first: tuple[float, float] | None = None

    def line(now: float) -> tuple[float, float]:
        client, engine = rss_mb(), rss_mb(_engine_pid(app) or 0)
        nodes = len(app.render.find_all_matches("**")) + len(app.base.aspect2d.find_all_matches("**"))
        print(f"soak: {(now - start) / 3600:6.2f} h simulated, {time.monotonic() - t0:7.1f} s real: "
              f"{demo.games:5d} games ({demo.finished} to the end), client RSS {client:7.1f} MB, "
              f"engine RSS {engine:7.1f} MB; {nodes} nodes, {len(app.base.task_mgr.getAllTasks())} tasks, "
              f"{len(gc.get_objects())} Python objects", file=out, flush=True)
        return client, engine

    frames = 0
    while clock.get_frame_time() < end:
        _wait_for_engine(app)
        presenter = app.presenter
        if presenter is not None and presenter.speed != INSTANT:
            presenter.set_speed(INSTANT)
        app.base.task_mgr.step()
        frames += 1
        now = clock.get_frame_time()
        if now >= next_report:
            mem = line(now)
            first = first or mem
            next_report += report_s
    last = line(clock.get_frame_time())
    summary = {**demo.summary(), "soak_hours": hours, "frames": frames,
               "real_seconds": round(time.monotonic() - t0, 1), "client_rss_mb": round(last[0], 1),
               "engine_rss_mb": round(last[1], 1)}
    if first is not None:
        summary["first_report_rss_mb"] = [round(first[0], 1), round(first[1], 1)]
    print(json.dumps(summary), file=out, flush=True)
    return summary


def demo_main(argv: list[str] | None = None) -> int:
    """The ``dinkydau demo`` subcommand (also ``dinkydau play --demo``)."""
    from game.client.app import DinkyDauApp, has_display, settings_from

    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    if not args.offscreen and not has_display():
        print("dinkydau demo: no display here (neither DISPLAY nor WAYLAND_DISPLAY is set).\n"
              "To run it headless, for example:\n  dinkydau demo --offscreen --frames 400", file=sys.stderr)
        return 2
    if args.offscreen and not args.frames and args.soak is None:
        print("dinkydau demo: --offscreen needs --frames N (or --soak HOURS)", file=sys.stderr)
        return 2
    if args.soak is not None and (args.soak <= 0 or args.soak_step <= 0 or args.soak_report <= 0):
        print("dinkydau demo: --soak, --soak-step and --soak-report must be positive", file=sys.stderr)
        return 2
    try:
        settings = settings_from(args)
    except ValueError as exc:
        print(f"dinkydau demo: {exc}", file=sys.stderr)
        return 2
    app = DinkyDauApp(settings)
    try:
        clock = time.monotonic
        if args.soak is not None:
            clock = simulated_clock(app, args.soak_step)
        demo = AttractMode(app, [args.scenario] if args.scenario else None, idle_s=args.idle_minutes * 60,
                           pace=args.pace, seed=args.seed, threat=args.threat,
                           max_game_s=args.max_game_minutes * 60, clock=clock)
        if (args.frames or args.soak is not None) and not args.scenario:
            # headless: ask for the scenarios before counting frames
            from game.client.menu import drawable_scenarios

            demo.scenarios = [s["id"] for s in drawable_scenarios(app.link.call("engine.hello"))]
        demo.start()
        if args.soak is not None:
            soak(app, demo, args.soak, args.soak_report * 60)
            return 0
        if args.frames:
            for _ in range(args.frames):  # at most 60 frames a second, as a screen would show them
                t = time.monotonic()
                app.base.task_mgr.step()
                time.sleep(max(0.0, 1 / 60 - (time.monotonic() - t)))
            if args.screenshot:
                app.screenshot(args.screenshot)
            print(json.dumps(demo.summary()))
            return 0
        app.run()
        return 0
    finally:
        app.shutdown()


if __name__ == "__main__":
    sys.exit(demo_main())
