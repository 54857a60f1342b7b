"""``dinkydau play``: the title menu, then the table, played against the engine process.

``main(argv)`` parses the command line; ``DinkyDauApp`` is the ShowBase that draws the table, takes the
player's input and turns it into engine calls through ``EngineLink`` (threaded, so the window never
freezes). The flow: ``game.new`` -> while an AI side or the phase machinery has the move, ``game.step``
-> when a human side is to act, its ``game.view`` and ``game.actions`` -> the player picks an action,
fills its parameters on the table (a point with the move ghost, a facing, a target), sees its cost (and
odds from ``game.preview`` where the engine offers it), confirms -> ``game.act`` -> events animate and
fill the log -> autosave -> repeat. Hot-seat hides the table behind a hand-over screen between sides.

Co-op (DD-10.16, docs/coop.md): ``--coop "Ames,Brody,Cruz"`` puts a team on one side and one screen;
selecting an element shows whose it is, and an action goes as the seat the engine names for it.
``--connect HOST:PORT`` plays on an engine serving TCP (``dinkydau engine --listen``); with ``--game ID
--token TOKEN`` it joins a game there as the seat the token names: the engine offers only that seat's
actions, and the client polls ``game.events`` to show what teammates do.

Offscreen (``--offscreen --screenshot FILE``) renders one picture through EGL without a window.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import panda3d.core as p3d

from game.client.settings import ClientSettings, cache_dir
from game.client.team import acting_seat, element_title, parse_address, parse_names, seat_of, team_text, title

SIDES = ("allied", "insurgent")
# Every parameter kind the engine's offers use (docs/protocol.md, game.actions), and how the composer
# fills it. What to draw comes from the offer itself (a point's `radius`, an angle's `arc` and `reach`, a
# corridor's `width`), and whether to ask for odds from its `preview`: the client decides no rule.
PARAM_KINDS = {
    "element": "a click on one of its ringed stands, or its button",
    "stand": "a click on a ringed stand, or its button",
    "blind": "a click on a ringed Blind or Echo marker, or its button",
    "token": "a click on a ringed casualty token, or its button",
    "feature": "a click inside an outlined building, or its button",
    "choice": "a button in the panel (a click on a ringed place when the values are ambush points)",
    "mode": "a button in the panel",
    "flag": "Yes / No buttons",
    "stands": "clicks on ringed stands to add or drop them, then Done",
    "map": "key by key, a click on a ringed marker or a button; the rest left to the engine",
    "point": "a click on the table: the move ghost for a destination, else a cross with the offer's template",
    "angle": "a click toward the direction: the offer's arc out to its reach, or the ghost's facing",
    "segment": "two clicks: start and end, drawn as wide as the offer says",
    "placements": "where the move ghost puts each stand; an optional one is left to the engine (it places from `to`)",
}
# the order parameters are asked for: whom or what first, then where, then which way
PARAM_ORDER = {"point": 1, "angle": 2, "segment": 3, "placements": 4}
POINTER_LENGTH = 4.0  # inches of the pointer drawn for an angle whose offer gives no arc (a drawing, not a rule)
TICKER_QUIET = ("phase", "clock", "note", "tokens", "cp")  # events the log keeps but the table's ticker leaves out
BANNER_EVENTS = {"ambush": ("AMBUSH!", (1.0, 0.35, 0.25, 1)), "assault": ("CLOSE ASSAULT", (1.0, 0.82, 0.35, 1)),
                 "surrounded": ("SURROUNDED", (1.0, 0.35, 0.25, 1))}


def other(side: str) -> str:
    return "insurgent" if side == "allied" else "allied"


def parse_args(argv: list[str]) -> argparse.Namespace:
    if argv and argv[0] == "play":
        argv = argv[1:]
    p = argparse.ArgumentParser(prog="dinkydau play", description="Play Dinky Dau on a 3D table.")
    p.add_argument("scenario", nargs="?", help="scenario id (skips the title menu)")
    p.add_argument("--side", choices=SIDES, default="allied", help="the side you command (solo)")
    p.add_argument("--mode", choices=("solo", "hotseat", "watch", "coop"), default="solo",
                   help="solo against the AI, hot-seat for two players, watch AI against AI, or co-op")
    p.add_argument("--coop", metavar="NAMES", help='co-op (DD-10.16): 2-4 players share the side, e.g. '
                   '"Ames,Brody,Cruz"; the first is the Platoon Commander')
    p.add_argument("--connect", metavar="HOST:PORT",
                   help="play on an engine serving TCP (dinkydau engine --listen HOST:PORT)")
    p.add_argument("--game", metavar="ID", help="with --connect: join this game (e.g. g1) instead of a new one")
    p.add_argument("--seat", metavar="NAME", help="with --connect: your seat in a co-op game")
    p.add_argument("--token", metavar="TOKEN",
                   help="with --connect --game: the seat's token the game's creator handed you (docs/coop.md)")
    p.add_argument("--tls-ca", metavar="PEM",
                   help="with --connect: the engine serves TLS; trust this certificate (or its CA)")
    p.add_argument("--threat", type=int, default=2, help="Jungle Ghost threat level (1-3)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--size", default=None, help="window size WxH (default 1280x720; 1920x1080 offscreen)")
    p.add_argument("--fullscreen", action="store_true")
    p.add_argument("--offscreen", action="store_true", help="render without a window (EGL)")
    p.add_argument("--screenshot", metavar="FILE", help="render the table, save a PNG and exit")
    p.add_argument("--camera", default="overview", help="overview | top | ELEMENT id (screenshot framing)")
    p.add_argument("--select", metavar="ELEMENT", help="select an element before the screenshot")
    p.add_argument("--no-shadows", action="store_true", help="no sun shadows")
    p.add_argument("--shadows", action="store_true",
                   help="sun shadows even on a software renderer (by default they are off there)")
    p.add_argument("--ui-scale", type=float, default=1.0)
    p.add_argument("--quality", choices=("low", "high"), default=None,
                   help="rendering tier (default: low on a software renderer, high on a GPU)")
    p.add_argument("--no-hud", action="store_true", help="draw the table without the interface (screenshots)")
    return p.parse_args(argv)


def has_display() -> bool:
    if sys.platform != "linux":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def software_renderer(base) -> bool:
    """Is the window drawn by a software rasteriser (Mesa llvmpipe/softpipe) rather than a GPU?"""
    gsg = base.win.get_gsg() if base.win is not None else None
    name = (gsg.get_driver_renderer() if gsg is not None else "").lower()
    return any(word in name for word in ("llvmpipe", "softpipe", "software"))


def settings_from(args) -> ClientSettings:
    """Client settings from the command line shared by ``play`` and ``demo`` (--size WxH etc.)."""
    size = (1920, 1080) if args.offscreen else (1280, 720)
    if args.size:
        w, _, h = args.size.lower().partition("x")
        if not (w.isdigit() and h.isdigit() and 64 <= int(w) <= 7680 and 64 <= int(h) <= 4320):
            raise ValueError(f"--size wants WIDTHxHEIGHT such as 1920x1080, got {args.size!r}")
        size = (int(w), int(h))
    shadows = True if getattr(args, "shadows", False) else False if args.no_shadows else None
    return ClientSettings(size=size, fullscreen=args.fullscreen, offscreen=args.offscreen,
                          shadows=shadows, ui_scale=args.ui_scale, quality=getattr(args, "quality", None),
                          hud=not getattr(args, "no_hud", False))


def scenario_file(args) -> None:
    """``dinkydau play my_table.toml``: the engine takes no paths from the wire, so its child process is
    told the file's folder (``--scenarios``) and the game names the file by id."""
    ref = args.scenario
    if not ref or not ref.endswith(".toml") or not Path(ref).is_file() or args.connect:
        return None
    path = Path(ref).resolve()
    args.scenario = path.stem

    def spawn():
        from game.engine.client import EngineProcess  # the protocol client; never game.rules

        return EngineProcess([sys.executable, "-m", "game", "engine", "--scenarios", str(path.parent)])

    return spawn


def engine_factory(args):
    """The engine to talk to: a child process, or with ``--connect`` an engine serving TCP."""
    if (args.game or args.seat or args.token or args.tls_ca) and not args.connect:
        raise ValueError("--game, --seat, --token and --tls-ca are for an engine reached with --connect HOST:PORT")
    if args.game and not args.token:
        raise ValueError("--game needs --token: the token of your seat, from the player who created the game")
    if not args.connect:
        return scenario_file(args)
    host, port = parse_address(args.connect)

    def connect():
        import ssl

        from game.engine.client import EngineSocket  # the protocol client; never game.rules

        tls = ssl.create_default_context(cafile=args.tls_ca) if args.tls_ca else None
        return EngineSocket(host, port, token=args.token, tls=tls)

    return connect


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--demo" in argv or (argv and argv[0] == "demo"):
        from game.client.demo import demo_main

        return demo_main([a for a in argv if a not in ("--demo", "demo")])
    args = parse_args(argv)
    if not args.offscreen and not has_display():
        shot = args.screenshot or "table.png"
        exe = Path(sys.executable).parent / "dinkydau"
        cmd = str(exe) if exe.exists() else "dinkydau"
        print("dinkydau play: no display here (neither DISPLAY nor WAYLAND_DISPLAY is set).\n"
              "To render a picture without a window, run for example:\n"
              f"  {cmd} play --offscreen --screenshot {shot} --size 1920x1080 "
              f"{args.scenario or 'village_sweep'}\n"
              f"or watch the computer play itself into pictures: {cmd} demo --offscreen --frames 300",
              file=sys.stderr)
        return 2
    if args.offscreen and not args.screenshot:
        print("dinkydau play: --offscreen needs --screenshot FILE", file=sys.stderr)
        return 2
    try:
        settings = settings_from(args)
        factory = engine_factory(args)
    except ValueError as exc:
        print(f"dinkydau play: {exc}", file=sys.stderr)
        return 2
    if args.coop:
        args.mode = "coop"
    app = DinkyDauApp(settings, factory)
    if args.scenario and not (args.connect and args.game):
        from game.client.kits import DRAWS

        hello = app.link.call("engine.hello")
        row = next((s for s in hello.get("scenarios", []) if s["id"] == args.scenario), None)
        if row is not None and row.get("ruleset", "dinky_dau") not in DRAWS:
            print(f"dinkydau play: {args.scenario} is a {row['ruleset']} table; this client draws "
                  f"{', '.join(DRAWS)} tables (the engine plays it: game.new through the protocol)", file=sys.stderr)
            app.shutdown()
            return 2
    app.my_seat = args.seat
    app.coop_names = parse_names(args.coop or "")
    app.remote = bool(args.connect)
    try:
        if args.connect and args.game:
            app.join_game(args.game, args.side, args.seat)
            app.run()
            return 0
        if args.screenshot:
            scenario = args.scenario
            if scenario is None:
                from game.client.menu import drawable_scenarios

                scenario = drawable_scenarios(app.link.call("engine.hello"))[0]["id"]
            from game.engine.client import EngineError  # the protocol client; never game.rules

            try:
                app.open_game_sync(scenario, args.side, args.mode, args.threat, args.seed)
            except EngineError as exc:
                print(f"dinkydau play: the engine refused the game: {exc.message}", file=sys.stderr)
                return 2
            if args.select:
                app.select_element(args.select)
            app.frame_camera(args.camera)
            app.settle()
            app.screenshot(args.screenshot)
            w, h = settings.size
            print(f"wrote {args.screenshot} ({w}x{h}, {app.scene.geom_count()} geoms)")
            return 0
        if args.scenario:
            app.start_game(args.scenario, args.side, args.mode, args.threat, args.seed)
        else:
            app.show_menu(args)
        app.run()
        return 0
    finally:
        app.shutdown()


class DinkyDauApp:
    """The game window (or offscreen buffer) and everything on it. Wraps a ShowBase; no builtins."""

    def __init__(self, settings: ClientSettings, engine_factory=None):
        p3d.load_prc_file_data("dinkydau-client", settings.prc())
        if settings.offscreen:
            p3d.load_prc_file_data("dinkydau-offscreen", "load-display p3headlessgl\nnotify-level-device fatal")
        from direct.showbase.ShowBase import ShowBase

        from game.client import sound
        from game.client.assets import ModelLibrary
        from game.client.link import EngineLink, default_factory

        # the engine's process starts first and loads while the window opens (launch to first frame)
        self.link = EngineLink(engine_factory or default_factory)
        self.link.start()
        sound.prepare()
        self.base = ShowBase(windowType="offscreen" if settings.offscreen else None)
        self.settings = settings = settings.resolve(software_renderer(self.base))
        self.base.disable_mouse()
        self.library = ModelLibrary()
        self.scene = None
        self.kit = None  # the table kit of the game's ruleset (kits.py)
        self.camera = None
        self.hud = None
        self.menu = None
        self.game: str | None = None
        self.view: dict = {}
        self.actions: list[dict] = []
        self.players: dict[str, str] = {"allied": "human", "insurgent": "ai"}
        self.mode = "solo"
        self.coop_names: list[str] = []  # co-op (DD-10.16): the team asked for at game.new
        self.seats: list[dict] = []  # the co-op seats of the side in view, from the engine
        self.my_seat: str | None = None  # a networked seat; None on one shared screen
        self.remote = False  # the engine serves TCP and other players share its games
        self.shown: set[int] = set()  # event numbers already shown (polls and answers overlap)
        self.poll_since = 0
        self.viewing: str | None = None
        self.scenario_id: str | None = None
        self.threat = 2
        self.seed: int | None = None
        self.pending: dict | None = None  # the action being filled in
        self.selected_blind: str | None = None  # one of the side's own Blind markers, clicked
        self.tool: str | None = None
        self.tool_state: dict = {}
        self.overlay_nodes: list = []
        self.last_save: dict | None = None
        self.log_history: list[str] = []
        self.drag: tuple[str, float, float] | None = None
        self.keys: set[str] = set()
        self.preview_supported = True
        self.closing = False
        self.generation = 0  # a new game makes every answer still on its way for the old one stale
        self.step_pause = 0.05  # seconds between AI steps beyond the animations (attract mode: more)
        self.listeners: list = []  # callables given each batch of events (the attract mode's director)
        self.game_over_hook = None  # the attract mode takes the end of a game itself
        self.autosave_enabled = True
        self._presenter = None  # plays each batch of events on the table (presenter.py)
        self.sound = None  # the set pieces' positional sound (sound.py), started with the first table
        self.guide = None  # the first-turn hints (guide.py), one per table
        self.briefing = None  # the briefing card (briefing.py) while it is up
        self.menu_group: str | None = None  # the action group opened in the menu (actions_menu.py)
        self.sent: dict | None = None  # the action last sent to the engine (the guide hears of it)
        self.shake = None
        self.base.win.set_clear_color((0.12, 0.13, 0.12, 1))
        lens = self.base.cam.node().get_lens()
        lens.set_fov(40)
        lens.set_near_far(0.5, 2000)
        self._pointing = False  # the flora's clearing follows the mouse (see _tick)
        self.base.task_mgr.add(self._tick, "dinkydau-tick")
        self.base.task_mgr.do_method_later(1.0, self._poll_remote, "dinkydau-remote-poll")
        self._bind_keys()
        # A ShowBase made after another in one process can inherit its 2D layers' hidden state (a film
        # hides the interface): show them, then --no-hud alone decides.
        self.base.render2d.show()
        self.base.aspect2d.show()
        if not settings.hud:  # --no-hud: nothing of the interface is drawn, screenshots included
            self.base.render2d.hide()

    # -- attributes ShowBase keeps ---------------------------------------------------------------
    @property
    def render(self) -> p3d.NodePath:
        return self.base.render

    def run(self) -> None:
        self.base.run()

    def shutdown(self) -> None:
        self.closing = True
        if self._presenter is not None:
            self._presenter.clear()
        # the interval manager outlives the app (one per process): nothing of this table's may play on
        from direct.interval.IntervalGlobal import ivalMgr

        ivalMgr.pauseIntervalsMatching("*")
        if self.sound is not None:
            self.sound.destroy()
        self.link.close()
        if self.hud is not None:
            self.hud.destroy()
        self.base.destroy()

    # -- per frame -------------------------------------------------------------------------------
    def _tick(self, task):
        if self.closing:  # the task manager outlives a shut-down app (one per process, tests make several)
            return task.done
        self.link.poll()
        dt = min(self.base.clock.get_dt(), 0.1)
        if self.camera is not None:
            self._keys_move(dt)
            self._mouse_drag()
            self.camera.update(dt)
            self._mouse_hover()
            watcher = self.base.mouseWatcherNode
            if self.scene is not None and watcher is not None and (watcher.has_mouse() or self._pointing):
                # the trees clear round the mouse pointer, so a stand in a wood is found; off the window,
                # the clearing goes (a window with no mouse leaves the flora's pointer alone)
                at = self.ground_point() if watcher.has_mouse() else None
                self._pointing = at is not None
                self.kit.pointer(self, at)
        if self.shake is not None:
            self.shake.update(dt)
        if self.hud is not None:
            dots = "." * (1 + int(time.monotonic() * 3) % 3)
            self.hud.set_busy(f"engine thinking{dots}" if self.link.busy else "")
            self.hud.update()
        if self.guide is not None:
            self.guide.refresh()
        return task.cont

    def settle(self, seconds: float = 0.0, frames: int = 3) -> None:
        """Drive the task loop until the engine link is idle, animations ran and frames were drawn."""
        end = time.monotonic() + seconds
        deadline = time.monotonic() + 60
        while (self.link.busy or time.monotonic() < end or (self._presenter is not None and self._presenter.busy)) \
                and time.monotonic() < deadline:
            self.base.task_mgr.step()
            time.sleep(0.005)
        if self.camera is not None:
            self.camera.snap()
        for _ in range(frames):
            self.base.task_mgr.step()

    def screenshot(self, path: str, hud: bool | None = None) -> None:
        """Save the frame as a PNG; ``hud`` False leaves the interface out of this one picture (None: as
        the settings say, so ``--no-hud`` pictures have none)."""
        shown = not self.base.render2d.is_hidden()
        pieces = self.scene.pieces if self.scene is not None else None
        labels = pieces.labels_visible if pieces is not None else False
        if hud is not None and hud != shown:
            self.base.render2d.show() if hud else self.base.render2d.hide()
        if hud is False and labels:  # the names over the pieces are interface too
            pieces.set_labels_visible(False)
        try:
            self._save_frame(path)
        finally:
            if hud is not None and hud != shown:
                self.base.render2d.show() if shown else self.base.render2d.hide()
            if hud is False and labels:
                pieces.set_labels_visible(True)

    def _save_frame(self, path: str) -> None:
        self.base.graphics_engine.render_frame()
        self.base.graphics_engine.render_frame()
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        if not self.base.win.save_screenshot(p3d.Filename.from_os_specific(str(path))):
            raise RuntimeError(f"could not write screenshot {path}")

    # -- input -----------------------------------------------------------------------------------
    def _bind_keys(self) -> None:
        b = self.base
        for key in ("w", "a", "s", "d", "q", "e", "r", "f", "arrow_up", "arrow_down", "arrow_left",
                    "arrow_right", "=", "+", "-"):
            b.accept(key, self.keys.add, [key])
            b.accept(key + "-up", self.keys.discard, [key])
        b.accept("mouse1", self.on_click)
        b.accept("mouse3", self._drag_start, ["orbit"])
        b.accept("shift-mouse3", self._drag_start, ["pan"])
        b.accept("mouse2", self._drag_start, ["pan"])
        for k in ("mouse3-up", "mouse2-up"):
            b.accept(k, self._drag_end)
        b.accept("wheel_up", self._zoom, [0.88])
        b.accept("wheel_down", self._zoom, [1.0 / 0.88])
        b.accept("t", self._cam, ["top"])
        b.accept("home", self._cam, ["reset"])
        b.accept("space", self.skip_or_focus)
        b.accept("x", self.cycle_speed)
        b.accept("v", self.toggle_mute)
        b.accept("tab", self.next_element)
        b.accept("l", self.toggle_tool, ["los"])
        b.accept("m", self.toggle_tool, ["tape"])
        b.accept("c", self.toggle_canopy)
        b.accept("n", self.toggle_names)
        b.accept("u", self.toggle_underground)
        b.accept("h", self._help)
        b.accept("f1", self._help)
        b.accept("escape", self.cancel)
        b.accept("enter", self.confirm)
        b.accept("p", self.quick_pass)
        b.accept("f5", self.save_game)
        b.accept("f9", self.load_latest)
        b.accept("f11", self.toggle_fullscreen)
        b.accept("b", self.toggle_briefing)
        b.accept("j", self._toggle_log)
        b.accept("g", self._toggle_guide)
        b.accept("[", self._ui_scale, [1 / 1.1])
        b.accept("]", self._ui_scale, [1.1])

    def _keys_move(self, dt: float) -> None:
        k, c = self.keys, self.camera
        step = 40 * dt
        right = (("d" in k) or ("arrow_right" in k)) - (("a" in k) or ("arrow_left" in k))
        fwd = (("w" in k) or ("arrow_up" in k)) - (("s" in k) or ("arrow_down" in k))
        if right or fwd:
            c.pan(right * step, fwd * step)
        if "q" in k or "e" in k:
            c.orbit((("q" in k) - ("e" in k)) * 90 * dt, 0)
        if "r" in k or "f" in k:
            c.orbit(0, (("r" in k) - ("f" in k)) * 60 * dt)
        if k & {"=", "+"}:
            c.zoom(1 - 1.5 * dt)
        if "-" in k:
            c.zoom(1 + 1.5 * dt)

    def _zoom(self, factor: float) -> None:
        if self.camera is not None:
            self.camera.zoom(factor)

    def _cam(self, what: str) -> None:
        if self.camera is None:
            return
        self.camera.toggle_top_down() if what == "top" else self.camera.reset()

    def _has_mouse(self) -> bool:
        mw = getattr(self.base, "mouseWatcherNode", None)
        return mw is not None and mw.has_mouse()

    def _drag_start(self, kind: str) -> None:
        if self._has_mouse():
            m = self.base.mouseWatcherNode.get_mouse()
            self.drag = (kind, m.x, m.y)

    def _drag_end(self) -> None:
        self.drag = None

    def _mouse_drag(self) -> None:
        if self.drag is None or not self._has_mouse():
            return
        kind, x0, y0 = self.drag
        m = self.base.mouseWatcherNode.get_mouse()
        dx, dy = m.x - x0, m.y - y0
        if kind == "orbit":
            self.camera.orbit(-dx * 120, dy * 60)
        else:
            self.camera.pan(-dx * 25, -dy * 25)
        self.drag = (kind, m.x, m.y)

    def _help(self) -> None:
        if self.hud is not None:
            self.hud.toggle_help()

    def _toggle_log(self) -> None:
        if self.hud is not None:
            self.hud.toggle_log()

    def _toggle_guide(self) -> None:
        if self.guide is not None:
            self.guide.toggle()

    def toggle_briefing(self) -> None:
        """B: the briefing card, again (or away)."""
        if self.briefing is not None and self.briefing.open:
            self.briefing.close()
            return
        if self.hud is None or self.scene is None:
            return
        from game.client.briefing import BriefingCard

        self.briefing = BriefingCard(self.hud, self.kit.briefing(self.view), self.viewing
                                     if self.viewing in SIDES else None)

    def _ui_scale(self, factor: float) -> None:
        if self.hud is not None:
            self.hud.set_scale(self.hud.scale * factor)

    def toggle_fullscreen(self) -> None:
        if self.settings.offscreen:
            return
        props = p3d.WindowProperties()
        full = not self.base.win.get_properties().get_fullscreen()
        props.set_fullscreen(full)
        if full:
            pipe = self.base.pipe
            props.set_size(pipe.get_display_width(), pipe.get_display_height())
        else:
            props.set_size(*self.settings.size)
        self.base.win.request_properties(props)

    def toggle_canopy(self) -> None:
        """Lift the trees off the table (as players lift a tree template) or put them back."""
        if self.scene is not None:
            self.kit.lift(self)

    def toggle_underground(self) -> None:
        """U: the cutaway over the tunnels; again (an Allied stand below): the torch-lit crawl; again: off."""
        if self.scene is not None:
            text = self.kit.below(self)
            if text and self.hud is not None:
                self.hud.set_prompt(text)

    def toggle_names(self) -> None:
        if self.scene is not None:
            self.scene.pieces.set_labels_visible(not self.scene.pieces.labels_visible)

    def mouse_ray(self) -> tuple[p3d.LPoint3, p3d.LVector3] | None:
        if not self._has_mouse():
            return None
        return self.ray_at(self.base.mouseWatcherNode.get_mouse())

    def ray_at(self, film: p3d.LPoint2) -> tuple[p3d.LPoint3, p3d.LVector3]:
        near, far = p3d.LPoint3(), p3d.LPoint3()
        self.base.camLens.extrude(film, near, far)
        near = self.render.get_relative_point(self.base.cam, near)
        far = self.render.get_relative_point(self.base.cam, far)
        d = far - near
        d.normalize()
        return near, d

    def ground_point(self, ray=None) -> tuple[float, float] | None:
        ray = ray or self.mouse_ray()
        if ray is None or self.scene is None:
            return None
        origin, d = ray
        if d.z > -1e-4:
            return None
        z = 0.0
        for _ in range(3):
            t = (z - origin.z) / d.z
            x, y = origin.x + d.x * t, origin.y + d.y * t
            z = self.scene.table.height_at(x, y)
        t = (z - origin.z) / d.z
        return origin.x + d.x * t, origin.y + d.y * t

    def project(self, point) -> tuple[float, float] | None:
        """Pixel position (x right, y down) of a world point, or None off screen."""
        p = self.base.cam.get_relative_point(self.render, p3d.LPoint3(*point))
        film = p3d.LPoint2()
        if not self.base.camLens.project(p, film):
            return None
        w, h = self.base.win.get_x_size(), self.base.win.get_y_size()
        return (film.x + 1) / 2 * w, (1 - film.y) / 2 * h

    # -- menu ------------------------------------------------------------------------------------
    def show_menu(self, args) -> None:
        from game.client.menu import TitleMenu

        self.menu = TitleMenu(self, args)

    # -- starting a game -------------------------------------------------------------------------
    def _new_params(self, scenario: str, side: str, mode: str, threat: int, seed: int | None) -> dict:
        self.mode = mode
        self.scenario_id = scenario
        self.threat = threat
        self.seed = seed  # None: the engine draws one from the operating system, and keeps it to itself
        if mode == "hotseat":
            self.players = {"allied": "human", "insurgent": "human"}
        elif mode == "watch":
            self.players = {"allied": "ai", "insurgent": "ai"}
        else:
            self.players = {side: "human", other(side): "ai"}
        self.viewing = side if mode != "watch" else "allied"
        players: dict = dict(self.players)
        if mode == "coop":  # DD-10.16: the team's names; the engine assigns and checks the seats
            players[side] = {"seats": list(self.coop_names)}
        return {"scenario": scenario, **({"seed": seed} if seed is not None else {}), "players": players,
                "threat": threat, "side": self.viewing}

    def start_game(self, scenario: str, side: str = "allied", mode: str = "solo", threat: int = 2,
                   seed: int | None = None, extra: dict | None = None, team: list[str] | None = None) -> None:
        """A new game; ``team`` names the co-op players (mode ``coop``, DD-10.16)."""
        self.close_game()
        if team is not None:
            self.coop_names = list(team)
        params = self._new_params(scenario, side, mode, threat, seed)
        params.update(extra or {})
        self._ensure_hud_message(f"Setting up {scenario}...")
        self.link.request("game.new", params, self._cb(self._on_new), self._on_error)

    def close_game(self) -> None:
        """Forget the current game (the engine frees it, unless other players share it over TCP);
        answers still on their way are dropped."""
        self.generation += 1
        self.base.task_mgr.remove("advance")
        if self._presenter is not None:
            self._presenter.clear()
        if self.kit is not None:
            self.kit.clear(self)
        if self.pending is not None:
            self._clear_pending()
        if self.game is not None and not self.link.dead and not self.remote:
            self.link.request("game.close", {"game": self.game}, None, lambda fault: None)
        self.game = None
        self.shown, self.poll_since = set(), 0

    def _cb(self, fn):
        """Wrap a callback so it runs only if no other game has started since the request was made."""
        gen = self.generation

        def run(*args):
            if gen == self.generation and not self.closing:
                fn(*args)
        return run

    def _later(self, seconds: float, fn) -> None:
        gen = self.generation

        def run(task):
            if gen == self.generation and not self.closing:
                fn()
        self.base.task_mgr.do_method_later(max(seconds, 0.0), run, "advance")

    def open_game_sync(self, scenario: str, side: str = "allied", mode: str = "solo", threat: int = 2,
                       seed: int | None = None, team: list[str] | None = None) -> None:
        """Start a game with blocking calls (screenshots, scripts); the table is ready on return."""
        self.close_game()
        if team is not None:
            self.coop_names = list(team)
        params = self._new_params(scenario, side, mode, threat, 1 if seed is None else seed)
        result = self.link.call("game.new", **params)
        self._on_new(result, advance=False)
        if self.viewing and self.viewing != result["view"].get("side"):
            self._on_view(self.link.call("game.view", game=self.game, side=self.viewing))
        if self.viewing and self.view.get("to_act") == self.viewing:
            self.actions = self.link.call("game.actions", **self._actions_params(self.viewing)).get("actions", [])
            self._refresh_panel()

    def _ensure_hud_message(self, text: str) -> None:
        if self.menu is not None:
            self.menu.set_message(text)

    def _on_new(self, result: dict, advance: bool = True) -> None:
        if self.menu is not None:
            self.menu.destroy()
            self.menu = None
        self.game = result["game"]
        self._build_table(result["view"])
        self._on_view(result["view"], first=True)
        self.handle_events(result.get("events", []))  # the table is built: nothing of its own to apply
        brief = result["view"].get("scenario", {}).get("briefing")
        if brief:
            self.hud.log(brief, (0.8, 0.85, 0.7, 1))
            if advance and self.mode != "watch" and self.settings.hud:  # a game a player starts: the card
                self.toggle_briefing()
        if self.remote and self.seats:
            for side, seats in (result.get("tokens") or {}).get("seats", {}).items():
                for name, token in seats.items():
                    if name != self.my_seat:
                        self.hud.log(f"{name} joins with  dinkydau play --connect HOST:PORT --game {self.game} "
                                     f"--side {side} --token {token}", (1.0, 0.82, 0.35, 1))
        if advance:
            self.autosave()
            self.advance()

    def _build_table(self, view: dict) -> None:
        from game.client import post
        from game.client.camera import OrbitCamera
        from game.client.hud import Hud
        from game.client.kits import kit_for

        if self.scene is not None:
            self.scene.destroy()
        if self.hud is not None:
            self.hud.destroy()
        if self.kit is not None:
            self.kit.clear(self)
        self.kit = kit_for(view.get("ruleset"))
        self.scene = self.kit.scene(self, view)
        self.base.win.set_clear_color((*self.scene.background, 1))
        self.camera = OrbitCamera(self.base.camera, self.scene.table.width, self.scene.table.height,
                                  self.base.camLens)
        post.install(self.base, self.settings, self.camera)  # the GPU tier's post passes; none on low
        self.hud = Hud(self.base, self.settings.ui_scale)
        self.hud.anchor = self._menu_anchor
        self.hud.hide_panel()
        if self.guide is not None:
            self.guide.destroy()
        self.guide = self.kit.guide(self)
        self.briefing = None
        if not self.settings.hud:
            self.scene.pieces.set_labels_visible(False)  # the names are interface too

    def _menu_anchor(self) -> tuple[float, float] | None:
        """Where on screen the menu's piece is (pixels): the selection, the Blind, or the action's own."""
        if self.scene is None:
            return None
        pieces = self.scene.pieces
        element = pieces.selected
        if element is None and self.pending is not None:
            element = self.pending["action"].get("element")
        c = pieces.element_centre(element) if element else None
        if c is None:
            blind = self.selected_blind or (self.pending or {}).get("action", {}).get("blind")
            node = pieces.blinds.get(blind) if blind else None
            c = node.get_pos() if node is not None else None
        return self.project((c.x, c.y, c.z + 0.5)) if c is not None else None

    # -- the flow of play ------------------------------------------------------------------------
    def _on_view(self, view: dict, first: bool = False) -> None:
        self.view = view
        self.seats = view.get("seats") or []
        self.kit.apply_view(self, view)  # the pieces, the markers, the status line
        self._show_team()
        if view.get("over") and view.get("result"):
            r = view["result"]
            self.hud.set_prompt(f"Game over: {r.get('winner', '?')} wins - {r.get('reason', '')}")

    def human(self, side: str | None) -> bool:
        return side is not None and self.players.get(side) == "human"

    def advance(self) -> None:
        """Decide what happens next: the AI steps, or a human side gets its actions."""
        if self.closing or self.game is None:
            return
        v = self.view
        if v.get("over"):
            self._game_over(v.get("result") or {})
            return
        to_act = v.get("to_act")
        if to_act is None or not self.human(to_act):
            self.hud.set_prompt("The enemy is moving..." if to_act else "")
            self.link.request("game.step", {"game": self.game, "side": self.viewing or "allied"},
                              self._cb(self._on_step), self._on_error)
            return
        if self.remote and to_act != self.viewing:
            self.hud.set_prompt(f"Waiting for the {to_act} player...")  # their moves arrive by polling
            return
        if self.mode == "hotseat" and to_act != self.viewing:
            self._hand_over(to_act)
            return
        self.viewing = to_act
        self.link.request("game.view", {"game": self.game, "side": to_act}, self._cb(self._on_view), self._on_error)
        self.link.request("game.actions", self._actions_params(to_act), self._cb(self._on_actions),
                          self._on_error)

    def _actions_params(self, side: str) -> dict:
        """``game.actions`` for a side; a networked seat asks for its own actions only (DD-10.16)."""
        return {"game": self.game, "side": side, **({"seat": self.my_seat} if self.my_seat else {})}

    # -- co-op (DD-10.16, docs/coop.md) ---------------------------------------------------------
    def join_game(self, game_id: str, side: str = "allied", seat: str | None = None) -> None:
        """Join a game already on the engine (over TCP) as one seat of a co-op side."""
        self.close_game()
        self.remote = True
        self.game, self.viewing, self.my_seat, self.mode = game_id, side, seat, "coop"

        def joined(view: dict) -> None:
            if self.menu is not None:
                self.menu.destroy()
                self.menu = None
            self.players = dict(view.get("players") or self.players)
            self._build_table(view)
            self._on_view(view, first=True)
            names = [s["name"] for s in self.seats]
            if names and self.my_seat not in names:
                self.link.request("game.list", {}, self._cb(lambda listing: seat_from(listing, names)),
                                  self._on_error)
                return
            go_on()

        def seat_from(listing: dict, names: list[str]) -> None:
            """The seat the token names (docs/coop.md); a whole side's token picks one on screen."""
            held = next((g for g in listing.get("games", []) if g["game"] == game_id), {"grants": []})
            seats = [g["seat"] for g in held["grants"] if g.get("seat") in names]
            if len(seats) == 1:
                self.my_seat = seats[0]
                go_on()
                return
            names = seats or names
            if names:
                self.hud.show_overlay(f"Game {game_id}: which seat is yours?",
                                      "Each player commands their own elements; the team shares the CP pool "
                                      "and the VP tally (DD-10.16-10.17).",
                                      [(n, lambda n=n: self._take_seat(n)) for n in names])

        def go_on() -> None:
            if not self.seats:
                self.my_seat = None
            self.hud.log(f"Joined game {game_id}" + (f" as {self.my_seat}" if self.my_seat else ""), (1.0, 0.82, 0.35, 1))
            self.advance()

        self.link.request("game.view", {"game": game_id, "side": side}, self._cb(joined), self._on_error)

    def _take_seat(self, name: str) -> None:
        self.hud.hide_overlay()
        self.my_seat = name
        self._show_team()
        self.hud.log(f"Joined game {self.game} as {name}", (1.0, 0.82, 0.35, 1))
        self.advance()

    def _show_team(self) -> None:
        if self.hud is None:
            return
        sel = self.scene.pieces.selected if self.scene is not None else None
        self.hud.set_team(team_text(self.seats, self.view, self._names(), self.my_seat, sel) if self.seats else "")

    def _poll_remote(self, task):
        """Over TCP, teammates act too: fetch the events since the last poll and catch up."""
        if (self.remote and self.game and self.scene is not None and not self.link.busy and self.pending is None
                and not self.view.get("over") and self.viewing in SIDES):
            self.link.request("game.events", {"game": self.game, "side": self.viewing, "since": self.poll_since},
                              self._cb(self._on_polled), self._quiet_error)
        return task.again

    def _on_polled(self, result: dict) -> None:
        events = result.get("events", [])
        if events:
            self.poll_since = max(self.poll_since, *(e.get("seq", 0) for e in events))
        if [e for e in events if e.get("seq") not in self.shown]:
            self.handle_events(events, after=self.advance)

    def _on_step(self, result: dict) -> None:
        events = result.get("events", [])
        if result.get("view") is not None:  # the step answers with the view of the side it was asked for
            self._present_then(events, result["view"])
            return
        self.link.request("game.view", {"game": self.game, "side": self.viewing or "allied"},
                          self._cb(lambda v: self._present_then(events, v)), self._on_error)

    def _present_then(self, events: list[dict], view: dict) -> None:
        """Play a step's events, apply its view as the last step, then let the next step come."""
        gen = self.generation
        self.handle_events(events, view, after=lambda: gen == self.generation and self._after_step(view, bool(events)))

    def _after_step(self, view: dict, progressed: bool) -> None:
        wait = self.step_pause
        if not progressed and not self.human(view.get("to_act")) and not view.get("over"):
            wait = max(wait, 0.5)  # the engine had nothing to do: ask again shortly rather than spin
        self._later(max(wait, 0.05), self.advance)

    def _on_actions(self, result: dict) -> None:
        self.actions = result.get("actions", [])
        self.hud.set_prompt(self.kit.prompt(self))
        self._refresh_panel()

    def _hand_over(self, side: str) -> None:
        from game.client.hud import SIDE_NAME

        self.scene.root.hide()
        self.hud.show_overlay(f"Hand over to the {SIDE_NAME[side]} player",
                              "The other player looks away now. The table is hidden until you are ready.",
                              [(f"I am the {SIDE_NAME[side]} player", lambda: self._take_over(side))],
                              opaque=True)

    def _take_over(self, side: str) -> None:
        self.hud.hide_overlay()
        self.viewing = side
        self.scene.pieces.select(None)
        self.link.request("game.view", {"game": self.game, "side": side},
                          lambda v: (self._on_view(v), self.scene.root.show()), self._on_error)
        self.link.request("game.actions", self._actions_params(side), self._on_actions, self._on_error)

    def _game_over(self, result: dict) -> None:
        from game.client.hud import SIDE_NAME

        if self.game_over_hook is not None:
            self.game_over_hook(result)
            return
        names = self.kit.side_names(self.view) or SIDE_NAME
        winner = names.get(result.get("winner"), result.get("winner") or "nobody")
        self.hud.show_overlay(f"{winner} win" if result.get("winner") else "Game over", self.kit.result_text(result),
                              [("Look at the table", self.hud.hide_overlay), ("Quit", self.base.userExit)])

    # -- events ----------------------------------------------------------------------------------
    # -- the presenter: each batch played on the table, its view applied last ------------------------
    @property
    def presenter(self):
        """The presenter of the table on screen (a new table gets a new one; sound and shake stay)."""
        if self.scene is None:
            return None
        if self._presenter is None or self._presenter.scene is not self.scene:
            from game.client.fx import Shake
            from game.client.sound import SoundBoard

            if self._presenter is not None:
                self._presenter.clear()
            if self.sound is None:
                self.sound = SoundBoard(self.base, self.base.camera)
            if self.shake is None:
                self.shake = Shake(self.base.cam)
            speed = self._presenter.speed if self._presenter is not None else 1.0
            self._presenter = self.kit.presenter(self)  # with the handlers of the ruleset's events
            self._presenter.speed = speed
        return self._presenter

    def report_fault(self, text: str) -> None:
        """A fault the table survives (an event it could not show): told on stderr."""
        print(f"dinkydau: {text}", file=sys.stderr)

    def skip_or_focus(self) -> None:
        """Space: finish the set piece playing now; with nothing playing, frame the selected element."""
        if self._presenter is not None and self._presenter.finish():
            return
        self.focus_selection()

    def cycle_speed(self) -> None:
        from game.client.presenter import INSTANT

        if self.presenter is None:
            return
        speed = self.presenter.cycle_speed()
        if self.hud is not None:
            self.hud.set_prompt("Animations: " + ("instant" if speed == INSTANT else f"{speed:g}x speed")
                                + "   (X: change, Space: skip)")

    def toggle_mute(self) -> None:
        if self.sound is None:
            return
        muted = self.sound.toggle_mute()
        if self.hud is not None:
            self.hud.set_prompt("Sound off (V)" if muted else "Sound on (V)")

    def handle_events(self, events: list[dict], view: dict | None = None, after=None) -> None:
        """Log every event in plain words (the rolls go to the dice tray), then play the batch on the table
        through the presenter; ``view`` is applied as the batch's last step, then ``after`` runs."""
        from game.client.hud import SIDE_INK

        rolls = []
        names = {e["id"]: e.get("name", e["id"]) for e in self.view.get("elements", [])}
        if self.remote:  # polls and answers overlap: show each event once
            events = [ev for ev in events if ev.get("seq") is None or ev["seq"] not in self.shown]
            self.shown.update(ev["seq"] for ev in events if ev.get("seq") is not None)
        for ev in events:
            text = ev.get("text") or ev.get("type", "event")
            if ev.get("clause"):
                text += f"  [{ev['clause']}]"
            color = SIDE_INK.get(ev.get("side"), (0.95, 0.93, 0.86, 1))
            if ev.get("type") in ("turn", "phase"):
                color = (1.0, 0.82, 0.35, 1)
            self.hud.log(text, color, event=ev if ev.get("type") not in TICKER_QUIET else None)
            self.log_history.append(text)
            kind = ev.get("type")
            if kind == "roll":
                rolls.append(ev)
            elif kind == "game_over":
                self.view["over"] = True
            if kind in BANNER_EVENTS:
                self.hud.banner(*BANNER_EVENTS[kind])
            elif kind == "eliminated":
                self.hud.banner(f"{names.get(ev.get('element'), ev.get('element'))} eliminated",
                                (1.0, 0.45, 0.35, 1))
            elif kind == "air_pass":
                self.hud.banner({"run": "GUNSHIP RUN", "escort": "ESCORT STRAFES"}.get(ev.get("kind"), "AIR STRIKE"),
                                (1.0, 0.82, 0.35, 1))
            elif kind == "fire_mission" and ev.get("phase") == "impact":
                self.hud.banner("INCOMING!", (1.0, 0.82, 0.35, 1))
            elif kind == "assault_result" and ev.get("winner"):
                self.hud.banner(f"{names.get(ev['winner'], ev['winner'])} wins the assault", (1.0, 0.82, 0.35, 1))
        if rolls:
            self.hud.show_rolls(rolls)
        if len(self.log_history) > 2000:
            del self.log_history[:-1000]
        for listener in list(self.listeners):
            listener(events)
        apply = (lambda: self._on_view(view)) if view is not None else None
        self.presenter.present(events, apply, after)

    def _on_error(self, fault) -> None:
        from game.client.link import EngineDied

        if isinstance(fault, EngineDied):
            self._engine_died(fault.message)
            return
        msg = f"Engine: {fault.reason}"
        if self.hud is not None:
            self.hud.log(msg, (1.0, 0.5, 0.4, 1))
            self.hud.set_prompt(msg)
        elif self.menu is not None:
            self.menu.set_message(msg)

    def _engine_died(self, message: str) -> None:
        body = (f"The rules engine stopped ({message}).\n"
                + ("Your game was autosaved after the last action: reload it to go on."
                   if self.last_save else "There is no autosave of this game yet."))
        buttons = []
        if self.last_save:
            buttons.append(("Restart engine and reload", self.reload_autosave))
        buttons.append(("Quit", self.base.userExit))
        if self.hud is None:
            from game.client.hud import Hud

            self.hud = Hud(self.base, self.settings.ui_scale)
            self.hud.hide_panel()
        self.hud.show_overlay("The engine stopped", body, buttons)

    def reload_autosave(self) -> None:
        self.hud.hide_overlay()
        self.link.restart()
        self._load_save(self.last_save)

    # -- selection and actions -------------------------------------------------------------------
    def select_element(self, element: str | None) -> None:
        if self.kit.select(self, element):
            return
        if element != self.scene.pieces.selected:
            self.menu_group = None
        self.selected_blind = None
        self.scene.pieces.select(element)
        self._refresh_panel()
        self._show_team()
        e = self.scene.pieces.elements.get(element) if element else None
        if self.guide is not None and e is not None and e.get("side") == self.viewing:
            self.guide.note("selected")

    def select_blind(self, blind: str) -> None:
        """One of the side's own Blind markers, picked on the table like a stand: ringed, its moves and
        Hold in the menu beside it (G-17, DD-4.38)."""
        if blind != self.selected_blind:
            self.menu_group = None
        self.scene.pieces.select_blind(blind)
        self.selected_blind = blind
        self._refresh_panel()
        if self.guide is not None:
            self.guide.note("selected")

    def open_group(self, group: str | None) -> None:
        """Open (or close, None) a collapsed group of the menu."""
        self.menu_group = group
        self._refresh_panel()

    def side_actions(self) -> list[dict]:
        """What no piece on the table acts with: a pass, dropping a litter, springing a reserve from the
        Reserve Hand (its element has no stands on the table, DD-4.8). A Blind's own moves are its own."""
        elements = self.scene.pieces.elements
        return [a for a in self.actions
                if (a.get("element") is None and not a.get("blind"))
                or (a.get("element") is not None and not elements.get(a["element"], {}).get("stands"))]

    def blind_actions(self, blind: str | None = None) -> list[dict]:
        """The offers a Blind marker acts with (``blind`` set, no element): one marker's, or all."""
        return [a for a in self.actions if a.get("blind") and not a.get("element")
                and (blind is None or a["blind"] == blind)]

    def focus_selection(self) -> None:
        sel = self.scene and self.scene.pieces.selected
        if sel:
            c = self.scene.pieces.element_centre(sel)
            if c is not None:
                self.camera.focus(c.x, c.y, c.z, distance=min(self.camera.goal.distance, 26))

    def next_element(self) -> None:
        if self.scene is None or not self.viewing:
            return
        own = [e["id"] for e in self.view.get("elements", []) if e.get("side") == self.viewing]
        if not own:
            return
        cur = self.scene.pieces.selected
        nxt = own[(own.index(cur) + 1) % len(own)] if cur in own else own[0]
        self.select_element(nxt)
        self.focus_selection()

    def element_actions(self, element: str | None) -> list[dict]:
        return [a for a in self.actions if a.get("element") == element]

    def _refresh_panel(self) -> None:
        """The menu beside the selected piece (actions_menu.py): its offers grouped, each with its price;
        with nothing selected, the side's own actions only, small, at the edge."""
        from game.client.actions_menu import menu_rows
        from game.client.hud import SIDE_INK

        if self.kit.refresh_panel(self):
            return
        pieces = self.scene.pieces
        sel = pieces.selected
        side_actions = self.side_actions()
        ours = self.human(self.view.get("to_act"))
        if sel is None:
            blind = self.selected_blind
            mine = self.blind_actions(blind) if blind else []
            if mine:
                self.hud.show_menu(f"Blind {blind}", "the marker and whatever is under it",
                                   menu_rows(mine, side_actions, self.choose_action, self.open_group, self.menu_group),
                                   title_color=SIDE_INK.get(self.viewing, (1, 1, 1, 1)))
            elif side_actions and ours:
                hint = "or click one of your pieces" + (" or Blinds" if self.blind_actions() else "")
                self.hud.show_menu(f"{self.viewing.capitalize()} impulse", hint,
                                   menu_rows([], side_actions, self.choose_action, self.open_group))
            else:
                self.hud.hide_panel()
            return
        e = pieces.elements[sel]
        flags = [k.replace("_", " ") for k in ("pinned", "winded", "hold", "low_ammo", "stunned") if e.get(k)]
        body = [f"{len(e.get('stands', []))} stands"]
        seat = seat_of(self.seats, sel)
        teammate = bool(seat and self.my_seat and seat["name"] != self.my_seat)
        if teammate:
            body.append(f"a teammate's element: {title(seat)} commands it")
        if e.get("in_command") is not None:
            body.append("in command" if e["in_command"] else "OUT OF COMMAND")
        body += flags
        if e.get("activations"):
            body.append(f"activations {e['activations']}")
        acts = self.element_actions(sel)
        if e.get("blind"):  # under its own Blind: the marker's moves too (G-17), it moves with everything under it
            acts = acts + self.blind_actions(e["blind"])
        if not acts and not teammate:
            body.append("no actions now" if e.get("side") == self.viewing else "enemy element")
        rows = menu_rows(acts, side_actions if ours else [], self.choose_action, self.open_group, self.menu_group)
        self.hud.show_menu(element_title(self.seats, sel, e.get("name", sel)), ", ".join(body), rows,
                           title_color=SIDE_INK.get(e.get("side"), (1, 1, 1, 1)))

    def choose_action(self, action: dict) -> None:
        """Start filling in an action's parameters, one at a time, on the table: whom or what first (a
        highlighted stand or feature), then where (a point), then which way (an angle or a corridor)."""
        if self.kit.choose(self, action):
            return
        self.cancel()
        params = list((action.get("params") or {}).items())
        params.sort(key=lambda kv: PARAM_ORDER.get(kv[1].get("kind"), 0))
        self.pending = {"action": action, "values": {}, "todo": params}
        if self.hud is not None:
            self.hud.hide_panel()  # the table shows the ring or the targets; a choice brings its own panel
        self._next_param()

    def _names(self) -> dict[str, str]:
        names = {s["id"]: s.get("name", s["id"]) for s in self.view.get("stands", [])}
        names.update({e["id"]: e.get("name", e["id"]) for e in self.view.get("elements", [])})
        for f in self.view.get("scenario", {}).get("features") or []:
            names.setdefault(str(f.get("id")), f"{f.get('type', 'feature')} {f.get('id')}".replace("_", " "))
        return names

    def _param_tool_clear(self) -> None:
        p = self.pending
        if p is not None and p.get("tool") is not None:
            p.pop("tool").destroy()
        self.scene.pieces.clear_highlight()
        for node in self.overlay_nodes:
            node.remove_node()
        self.overlay_nodes = []

    def _next_param(self) -> None:
        """Ask for the next parameter of the pending action (``PARAM_KINDS`` says how each kind is
        picked); with none left, the odds (where the offer says ``preview``) or the action goes."""
        from game.client.tools import AimArc, MoveGhost, PointPicker, SegmentPicker

        p = self.pending
        if p is None:
            return
        self._param_tool_clear()
        if not p["todo"]:
            self._before_act()
            return
        name, spec = p["todo"][0]
        kind = spec.get("kind")
        a = p["action"]
        if kind not in PARAM_KINDS or (kind == "placements" and spec.get("optional")):
            if spec.get("optional"):  # left to the engine (per-stand placements: the engine places from `to`)
                p["todo"].pop(0)
                self._next_param()
                return
            self.hud.set_prompt(f"This action needs a '{kind}' the client cannot set yet")
            return
        if kind == "segment" and spec.get("optional") and any(
                s2.get("kind") == "angle" and n2 in p["values"] for n2, s2 in (a.get("params") or {}).items()):
            p["todo"].pop(0)  # a corridor is the alternative to an arc already aimed
            self._next_param()
            return
        element = a.get("element")
        pieces = self.scene.pieces
        label = a.get("label") or a.get("type")
        doc = str(spec.get("doc") or "")
        if kind in ("point", "placements") and (name == "to" or kind == "placements") and element in pieces.elements:
            if "ghost" not in p:
                p["ghost"] = MoveGhost(self.scene.overlays, pieces, element, spec.get("max"),
                                       self.scene.table.height_at, spec.get("from"))
            self.hud.set_prompt(f"{label}: click where to go"
                                + (f' (up to {spec["max"]:g}")' if spec.get("max") else "") + "   Esc: cancel")
        elif kind in ("point", "placements"):
            c = pieces.element_centre(element) if element in pieces.elements else None
            centre = tuple(spec["from"][:2]) if spec.get("from") else ((c.x, c.y) if c is not None else None)
            p["tool"] = PointPicker(self.scene.overlays, self.scene.table.height_at, centre, spec.get("max"),
                                    spec.get("radius"))
            what = f' (a {2 * spec["radius"]:g}" circle)' if spec.get("radius") else ""
            self.hud.set_prompt(f"{label}: click the point{what}" + (f' (within {spec["max"]:g}")' if spec.get("max")
                                                                    else "") + "   Esc: cancel")
        elif kind == "angle":
            alt = next((n2 for n2, s2 in p["todo"][1:] if s2.get("kind") == "segment"), None)
            if p.get("ghost") is None and element in pieces.elements:
                c = pieces.element_centre(element)
                p["tool"] = AimArc(self.scene.overlays, c, spec.get("reach") or POINTER_LENGTH, spec.get("arc"))
                if spec.get("default") is not None:
                    p["tool"].arc.set_h(float(spec["default"]))
            words = "Click (or drag) toward where to look" if p.get("ghost") is None else "Click to set the facing"
            keep = "   Enter: keep as it is" if spec.get("optional") else ""
            self.hud.set_prompt(f"{words}{keep}   Esc: cancel")
            if alt is not None:
                arc = f'the {spec["arc"]:g}° arc' if spec.get("arc") else "the facing"
                self.hud.show_panel(label, f"Aim {arc} with the mouse and click, or watch a corridor instead.",
                                    [(f"Aim {arc}: click a direction", lambda: None, False),
                                     ("A corridor instead: click two points", self._corridor_instead, True),
                                     ("Keep the facing (Enter)", lambda: self.fill_param(None), True),
                                     ("Cancel", self.cancel, True)])
        elif kind == "segment":
            width = spec.get("width")
            p["tool"] = SegmentPicker(self.scene.overlays, self.scene.table.height_at, width or 0.3)
            wide = f' ({width:g}" wide)' if width else ""
            self.hud.set_prompt(f"Corridor: click its start, then its end{wide}   Esc: cancel")
        elif kind in ("stand", "element", "blind", "token"):
            self._ask_pick(name, spec, label, doc)
        elif kind == "feature":
            choices = [str(c) for c in spec.get("choices") or []]
            names = self._names()
            self._outline_features(choices)
            self.hud.show_panel(f"{label}", f"choose the {name}:",
                                [(names.get(c, c), lambda c=c: self.fill_param(c), True) for c in choices]
                                + self._skip(spec) + [("Cancel", self.cancel, True)])
            self.hud.set_prompt(f"Pick the {name}: click an outlined building (or a button)   Esc: cancel")
        elif kind in ("choice", "mode", "flag"):
            self._ask_choice(name, spec, label, doc)
        elif kind == "stands":
            self._ask_stands(name, spec, label, doc)
        elif kind == "map":
            self._ask_map(name, spec, label, doc)

    def _skip(self, spec: dict) -> list[tuple]:
        """The button that leaves an optional parameter to the engine (its default, when it names one)."""
        if not spec.get("optional"):
            return []
        default = spec.get("default")
        words = f"Keep the default: {default} (Enter)" if default is not None else "Skip: leave it to the engine (Enter)"
        return [(words, lambda: self.fill_param(None), True)]

    def _thing_names(self) -> dict[str, str]:
        """Plain names for what a parameter may name: stands, elements, Blinds and Echoes, casualty tokens."""
        names = self._names()
        for b in self.view.get("blinds", []):
            names.setdefault(b["id"], f"{'Echo' if b.get('state') == 'echo' else 'Blind'} {b['id']}")
        for m in self.view.get("markers", []):
            if m.get("kind") in ("casualty_token", "casualty") and m.get("id") is not None:
                names.setdefault(str(m["id"]), f"casualty {m['id']} ({m.get('state', '?')})")
        for pt in self.view.get("ambush_points") or []:
            names.setdefault(str(pt["id"]), f"{pt.get('kind', 'ambush')} point {pt['id']}")
        return names

    def _ask_pick(self, name: str, spec: dict, label: str, doc: str) -> None:
        """Whom or what: the listed stands, elements, Blinds/Echoes or casualty tokens are ringed on the
        table; a click on one (or its button) names it."""
        kind = spec.get("kind")
        pieces = self.scene.pieces
        choices = [str(c) for c in spec.get("choices") or []]
        names = self._thing_names()
        if kind in ("stand", "element"):
            stands = []
            for c in choices:
                stands += pieces.elements[c]["stands"] if c in pieces.elements and kind == "element" else [c]
            pieces.highlight(stands)
        else:
            pieces.highlight(choices, what="blind" if kind == "blind" else "marker")
        what = {"blind": "Blind or Echo marker", "token": "casualty token"}.get(kind, "stand")
        body = f"choose the {name}" + (f" ({doc})" if doc else "") + ":"
        self.hud.show_panel(f"{label}", body, [(names.get(c, c), lambda c=c: self.fill_param(c), True) for c in choices]
                            + self._skip(spec) + [("Cancel", self.cancel, True)])
        self.hud.set_prompt(f"Pick the {name}: click a ringed {what} (or a button)"
                            + ("   Enter: skip" if spec.get("optional") else "") + "   Esc: cancel")

    def _ask_choice(self, name: str, spec: dict, label: str, doc: str) -> None:
        """One of the listed values, as buttons (an ambush point, a smoke colour); values that are places
        on the table (the ambush points the view shows) are ringed there too, and a click picks them."""
        if spec.get("kind") == "flag":
            choices: list = [True, False]
            words = {True: "Yes", False: "No"}
        else:
            choices = list(spec.get("choices") or [])
            names = self._thing_names()
            words = {c: names.get(str(c), str(c)) for c in choices}
        places = self._choice_places(choices)
        if places:
            self.scene.pieces.highlight_points(places, labels={k: words[k] for k in places})
        body = f"choose the {name}" + (f" ({doc})" if doc else "") + ":"
        self.hud.show_panel(f"{label}", body, [(words[c], lambda c=c: self.fill_param(c), True) for c in choices]
                            + self._skip(spec) + [("Cancel", self.cancel, True)])
        self.hud.set_prompt(f"Choose the {name} in the panel" + (" or click a ringed place" if places else "")
                            + ("   Enter: keep the default" if spec.get("optional") else "") + "   Esc: cancel")

    def _choice_places(self, choices: list) -> dict[str, tuple[float, float]]:
        points = {str(pt["id"]): (float(pt["x"]), float(pt["y"])) for pt in self.view.get("ambush_points") or []
                  if "x" in pt and "y" in pt}
        return {c: points[c] for c in choices if isinstance(c, str) and c in points}

    def _ask_stands(self, name: str, spec: dict, label: str, doc: str) -> None:
        """A set of the listed stands (a fireteam, DD-4.18): the chosen ones ringed bright, the others dim;
        a click (or a button) adds or drops one, Done sends the set (as many as the offer's min/max)."""
        p = self.pending
        choices = [str(c) for c in spec.get("choices") or []]
        if "stands" not in p:
            given = p["action"].get(name)  # the offer names the set already (a split squad's fireteam)
            p["stands"] = [c for c in choices if not isinstance(given, list) or c in given]
        chosen = p["stands"]
        lo, hi = int(spec.get("min", 1)), int(spec.get("max", len(choices)))
        pieces = self.scene.pieces
        pieces.highlight(chosen)
        pieces.highlight([c for c in choices if c not in chosen], color=(0.6, 0.6, 0.6, 1.0), keep=True)
        names = self._thing_names()
        ok = lo <= len(chosen) <= hi
        buttons = [(("[x] " if c in chosen else "[ ] ") + names.get(c, c), lambda c=c: self._toggle_stand(c), True)
                   for c in choices]
        need = f"{lo}" if lo == hi else f"{lo}-{hi}"
        buttons += [(f"Done: {len(chosen)} stands (Enter)", self._stands_done, ok)]
        self.hud.show_panel(f"{label}", f"choose the {name}: {need} of the ringed stands"
                            + (f" ({doc})" if doc else ""), buttons + self._skip(spec) + [("Cancel", self.cancel, True)])
        self.hud.set_prompt(f"Pick the {name}: click a ringed stand to add or drop it, Enter when done   Esc: cancel")

    def _toggle_stand(self, sid: str) -> None:
        p = self.pending
        if p is None or "stands" not in p:
            return
        p["stands"] = [c for c in p["stands"] if c != sid] if sid in p["stands"] else p["stands"] + [sid]
        self._next_param()

    def _stands_done(self) -> None:
        p = self.pending
        if p is None or not p["todo"] or p["todo"][0][1].get("kind") != "stands":
            return
        spec = p["todo"][0][1]
        choices = [str(c) for c in spec.get("choices") or []]
        picked = p.pop("stands", [])
        chosen = [c for c in choices if c in picked]
        if not int(spec.get("min", 1)) <= len(chosen) <= int(spec.get("max", len(choices))):
            p["stands"] = chosen
            return
        self.fill_param(chosen)

    def _ask_map(self, name: str, spec: dict, label: str, doc: str) -> None:
        """Key by key (a squad of a Recon Sweep), one of that key's listed values (an Echo in its sector):
        the key's stands and its values are ringed; a click on a ringed marker (or a button) assigns it.
        A key left out takes the engine's default (the nearest Echo); at most ``max`` keys."""
        p = self.pending
        state = p.setdefault("map", {"value": {}, "left": [str(k) for k in spec.get("keys") or []]})
        value, left = state["value"], state["left"]
        most = spec.get("max")
        if not left or (most is not None and len(value) >= most):
            self._map_done()
            return
        key = left[0]
        used = set(value.values())
        options = [str(c) for c in (spec.get("choices") or {}).get(key, []) if c not in used]
        pieces = self.scene.pieces
        names = self._thing_names()
        pieces.highlight(list(pieces.elements.get(key, {}).get("stands", [])), color=(0.35, 0.8, 1.0, 1.0))
        pieces.highlight(options, what="blind", keep=True)
        body = (f"{names.get(key, key)}: which one?" + (f" ({doc})" if doc else "")
                + (f"  {len(value)} of at most {most} set" if most is not None else ""))
        self.hud.show_panel(f"{label}", body,
                            [(names.get(c, c), lambda c=c: self._map_set(c), True) for c in options]
                            + [(f"{names.get(key, key)}: the engine's choice", lambda: self._map_set(None), True),
                               ("Done: the engine chooses the rest (Enter)", self._map_done, True),
                               ("Cancel", self.cancel, True)])
        self.hud.set_prompt(f"{names.get(key, key)}: click a ringed marker (or a button)   Enter: done   Esc: cancel")

    def _map_set(self, value) -> None:
        p = self.pending
        if p is None or "map" not in p:
            return
        key = p["map"]["left"].pop(0)
        if value is not None:
            p["map"]["value"][key] = value
        self._next_param()

    def _map_done(self) -> None:
        p = self.pending
        if p is None or not p["todo"] or p["todo"][0][1].get("kind") != "map":
            return
        value = p.pop("map", {"value": {}})["value"]
        self.fill_param(value or None)

    def _outline_features(self, ids: list[str]) -> None:
        from game.client import geom
        from game.client.table import _polys, feature_shape

        feats = {str(f.get("id")): f for f in self.view.get("scenario", {}).get("features") or []}
        h = self.scene.table.height_at
        for fid in ids:
            if fid not in feats:
                continue
            for poly in _polys(feature_shape(feats[fid]).buffer(0.4)):
                pts = [(x, y, h(x, y) + 0.3) for x, y in poly.exterior.coords]
                node = geom.lines(f"feature-{fid}", [pts], (1.0, 0.35, 0.25, 1.0), 5)
                node.reparent_to(self.scene.overlays)
                self.overlay_nodes.append(node)

    def _feature_at(self, x: float, y: float, choices: list[str]) -> str | None:
        from shapely.geometry import Point

        from game.client.table import feature_shape

        feats = {str(f.get("id")): f for f in self.view.get("scenario", {}).get("features") or []}
        best = None
        for fid in choices:
            if fid in feats:
                d = feature_shape(feats[fid]).distance(Point(x, y))
                if d <= 1.0 and (best is None or d < best[0]):
                    best = (d, fid)
        return None if best is None else best[1]

    def _corridor_instead(self) -> None:
        p = self.pending
        if p is None or not p["todo"] or p["todo"][0][1].get("kind") != "angle":
            return
        p["todo"].pop(0)
        self._next_param()

    def fill_param(self, value) -> None:
        p = self.pending
        if p is None or not p["todo"]:
            return
        name, spec = p["todo"].pop(0)
        if value is not None:
            p["values"][name] = value
        self._next_param()

    def _before_act(self) -> None:
        p = self.pending
        action = dict(p["action"])
        action.update(p["values"])  # each parameter's value under its own name, beside the spec
        p["final"] = action
        if action.get("preview") and self.preview_supported:  # the offer says game.preview answers it
            self.hud.set_prompt("asking the engine for the odds...")
            self.link.request("game.preview", {"game": self.game, "side": self.viewing, "action": action},
                              self._cb(self._on_preview), self._on_preview_error)
        else:
            self.send_action(action)

    def _on_preview(self, result: dict) -> None:
        from game.client.hud import _pct, describe_odds

        if self.pending is None:
            return
        text = describe_odds(result, self._names())
        if result.get("clause"):
            text += f"\n[{result['clause']}]"
        a = self.pending["final"]
        self.pending["odds"] = result
        labels = {sid: f"{_pct(st.get('p_removed'))} lost" for sid, st in (result.get("stands") or {}).items()
                  if isinstance(st, dict) and (st.get("p_hit") or 0) > 0}
        if labels:
            self.scene.pieces.highlight(list(labels), labels=labels)
        from game.client.actions_menu import Row, entry_label
        from game.client.captions import odds_headline

        self.hud.show_menu(entry_label(a), _short(text, 700),
                           [Row("action", f"Confirm ({a.get('cost', 0)} CP)", callback=self.confirm),
                            Row("action", "Cancel", callback=self.cancel)], big=odds_headline(result))
        self.hud.set_prompt("The odds, from the engine.   Enter: confirm   Esc: cancel")
        self.pending["confirm"] = True

    def _on_preview_error(self, fault) -> None:
        from game.client.link import METHOD_NOT_FOUND, EngineDied

        if isinstance(fault, EngineDied):
            self._engine_died(fault.message)
            return
        if fault.code == METHOD_NOT_FOUND:
            self.preview_supported = False
        if self.pending is not None:
            a = self.pending["final"]
            why = "no odds from the engine" if fault.code != 1 else f"the engine says: {fault.reason}"
            self.hud.show_panel(a.get("label", "Confirm"), f"cost {a.get('cost', 0)} CP ({why})",
                                [("Confirm", self.confirm, True), ("Cancel", self.cancel, True)])
            self.pending["confirm"] = True

    def confirm(self) -> None:
        if self.briefing is not None and self.briefing.open:
            self.briefing.close()
            return
        if self.kit is not None and self.kit.confirm(self):
            return
        p = self.pending
        if p is None:
            return
        kind = p["todo"][0][1].get("kind") if p["todo"] else None
        if p.get("confirm"):
            self.send_action(p["final"])
        elif kind == "stands":
            self._stands_done()
        elif kind == "map":
            self._map_done()
        elif p["todo"] and p["todo"][0][1].get("optional"):
            self.fill_param(None)

    def send_action(self, action: dict) -> None:
        self.sent = action
        self._clear_pending()
        self.hud.set_prompt("")
        seat = acting_seat(self.seats, action, self.my_seat, self.scene.pieces.selected if self.scene else None)
        self.link.request("game.act", {"game": self.game, "side": self.viewing, "action": action,
                                       **({"seat": seat} if seat else {})},
                          self._cb(self._on_acted), self._on_act_error)

    def _on_acted(self, result: dict) -> None:
        if self.guide is not None and self.sent is not None:
            self.guide.note("acted", self.sent)
        self.actions = []
        self._refresh_panel()
        gen = self.generation

        def after() -> None:
            if gen == self.generation:
                self.autosave()
                self._later(0.05, self.advance)

        self.handle_events(result.get("events", []), result["view"], after)

    def _on_act_error(self, fault) -> None:
        self._on_error(fault)
        if getattr(fault, "code", None) is not None and self.game:
            def refreshed(result):  # new actions, and the refusal stays on screen
                self._on_actions(result)
                self.hud.set_prompt(f"Not allowed: {fault.reason}")

            self.link.request("game.actions", self._actions_params(self.viewing), refreshed, self._on_error)

    def quick_pass(self) -> None:
        for a in self.actions:
            if a.get("type") == "pass" and not a.get("params"):
                self.send_action(a)
                return

    def _clear_pending(self) -> None:
        if self.pending is not None:
            if self.scene is not None:
                self._param_tool_clear()
            if self.pending.get("ghost") is not None:
                self.pending["ghost"].destroy()
        self.pending = None

    def cancel(self) -> None:
        if self.briefing is not None and self.briefing.open:
            self.briefing.close()
            return
        if self.hud is not None and self.hud.help_frame is not None:
            self.hud.toggle_help()
            return
        if self.kit is not None and self.kit.cancel(self):
            return
        if self.pending is not None:
            self._clear_pending()
            self.hud.set_prompt("")
            self._refresh_panel()
            return
        if self.tool is not None:
            self.toggle_tool(self.tool)
            return
        if self.scene is not None and (self.scene.pieces.selected or self.selected_blind):
            self.select_element(None)

    # -- clicks ----------------------------------------------------------------------------------
    def on_click(self) -> None:
        if self.briefing is not None and self.briefing.open:
            self.briefing.close()  # "Click to begin": this click only puts the card away
            return
        if self.scene is None or (self.hud and self.hud.overlay is not None):
            return
        ray = self.mouse_ray()
        if ray is None:
            return
        self.click_at(ray)

    def click_at(self, ray) -> None:
        if self.kit.click(self, ray):
            return
        hit = self.scene.pieces.pick(*ray)
        ground = self.ground_point(ray)
        if self.tool is not None:
            self._tool_click(hit, ground)
            return
        p = self.pending
        if p is not None and p["todo"]:
            name, spec = p["todo"][0]
            kind = spec.get("kind")
            tool = p.get("tool")
            choices = [str(c) for c in spec.get("choices") or []] if isinstance(spec.get("choices"), list) else []
            pieces = self.scene.pieces
            if kind == "point" and ground is not None:
                if tool is not None:
                    target = tool.follow(*ground)
                else:
                    ghost = p.get("ghost")
                    target = ghost.follow(*ground) if ghost else ground
                self.fill_param([round(target[0], 2), round(target[1], 2)])
            elif kind == "placements" and ground is not None and p.get("ghost") is not None:
                p["ghost"].follow(*ground)
                self.fill_param(p["ghost"].placements())
            elif kind in ("blind", "token"):
                # a marker under a stand (a casualty token beside its squad) is still the one meant
                mark = pieces.pick(*ray, only=("blind",) if kind == "blind" else ("marker",))
                if mark is not None and mark[1] in choices:
                    self.fill_param(mark[1])
            elif kind == "map":
                mark = pieces.pick(*ray, only=("blind",))
                state = p.get("map") or {}
                key = (state.get("left") or [None])[0]
                allowed = [str(c) for c in (spec.get("choices") or {}).get(key, [])]
                if mark is not None and mark[1] in allowed and mark[1] not in state["value"].values():
                    self._map_set(mark[1])
            elif kind == "stands" and hit is not None and hit[0] == "stand" and hit[1] in choices:
                self._toggle_stand(hit[1])
            elif kind == "choice" and ground is not None:
                places = self._choice_places(list(spec.get("choices") or []))
                near = sorted((math.hypot(x - ground[0], y - ground[1]), k) for k, (x, y) in places.items())
                if near and near[0][0] <= 1.5:
                    self.fill_param(near[0][1])
            elif kind == "angle" and ground is not None:
                ghost = p.get("ghost")
                aim = ghost if ghost is not None else tool
                facing = aim.aim(*ground) if aim is not None else 0.0
                self.fill_param(round(facing, 1))
            elif kind == "segment" and ground is not None and tool is not None:
                tool.follow(*ground)
                seg = tool.click(*ground)
                if seg is not None:
                    self.fill_param(seg)
                else:
                    self.hud.set_prompt("Corridor: now click its end   Esc: cancel")
            elif kind in ("stand", "element") and hit is not None and hit[0] == "stand":
                sid = hit[1]
                value = sid if kind == "stand" else self.scene.pieces.stands[sid].element
                if value in (spec.get("choices") or []):
                    self.fill_param(value)
            elif kind == "feature" and ground is not None:
                fid = self._feature_at(*ground, [str(c) for c in spec.get("choices") or []])
                if fid is not None:
                    self.fill_param(fid)
            return
        if hit is not None and hit[0] == "stand":
            self.select_element(self.scene.pieces.stands[hit[1]].element)
        elif hit is not None and hit[0] == "blind" and self.blind_actions(hit[1]):
            self.select_blind(hit[1])
        else:
            self.select_element(None)

    def _mouse_hover(self) -> None:
        if self.kit.hover(self):
            return
        p = self.pending
        if self.tool is None and (p is None or not p["todo"] or ("ghost" not in p and p.get("tool") is None)):
            return
        ground = self.ground_point()
        if ground is None:
            return
        if self.tool == "tape":
            self.tool_state["tape"].update(*ground)
        elif p is not None and p["todo"]:
            self.hover_at(*ground)

    def hover_at(self, x: float, y: float) -> None:
        """The mouse is over the table at (x, y): the parameter being filled follows it."""
        p = self.pending
        if p is None or not p["todo"]:
            return
        kind = p["todo"][0][1].get("kind")
        tool, ghost = p.get("tool"), p.get("ghost")
        if kind in ("point", "placements"):
            (tool or ghost).follow(x, y) if (tool or ghost) is not None else None
        elif kind == "angle":
            aim = ghost if ghost is not None else tool
            if aim is not None:
                aim.aim(x, y)
        elif kind == "segment" and tool is not None:
            tool.follow(x, y)

    # -- tools -----------------------------------------------------------------------------------
    def toggle_tool(self, tool: str) -> None:
        if self.scene is None:
            return
        for node in self.tool_state.values():
            if hasattr(node, "destroy"):
                node.destroy()
        self.tool_state = {}
        if self.tool == tool:
            self.tool = None
            self.hud.set_prompt("")
            return
        self.tool = tool
        if tool == "tape":
            from game.client.tools import Tape

            scale = (self.view or {}).get("scenario", {}).get("scale") or {}  # the engine's ground scale
            self.tool_state["tape"] = Tape(self.scene.overlays, self.scene.table.height_at,
                                           float(scale.get("metres_per_inch", 10.0)))
            self.hud.set_prompt("Tape measure: click a stand or a point to measure from   M/Esc: put it away")
        else:
            from game.client.tools import CanopyOverlay

            # the canopy volumes the engine's rays use, shown while the tool is out (why a line is blocked)
            self.tool_state["canopy"] = CanopyOverlay(self.scene.table)
            self.hud.set_prompt("Line of sight: click the spotter (a stand or a point), then the target   "
                                "L/Esc: done")

    def _tool_click(self, hit, ground) -> None:
        pieces = self.scene.pieces
        if self.tool == "tape":
            tape = self.tool_state["tape"]
            if hit is not None and hit[0] == "stand":
                s = pieces.stands[hit[1]]
                pos = s.node.get_pos()
                tape.set_start(pos.x, pos.y, (pos.x, pos.y, s.node.get_h(), s.width, s.depth))
            elif ground is not None:
                tape.set_start(*ground)
            return
        # line of sight
        if hit is not None and hit[0] == "stand":
            end = hit[1]
        elif ground is not None:
            end = [round(ground[0], 2), round(ground[1], 2)]
        else:
            return
        if "from" not in self.tool_state or "line" in self.tool_state:
            if "line" in self.tool_state:
                self.tool_state.pop("line").destroy()
            self.tool_state["from"] = end
            self.hud.set_prompt("Line of sight: now click the target")
            return
        self.check_los(self.tool_state["from"], end)

    def _point_of(self, ref) -> tuple[float, float, float]:
        if isinstance(ref, str):
            p = self.scene.pieces.stands[ref].node.get_pos()
            return p.x, p.y, p.z
        return ref[0], ref[1], self.scene.table.height_at(ref[0], ref[1])

    def check_los(self, a, b) -> None:
        from game.client.tools import SightLine

        pa, pb = self._point_of(a), self._point_of(b)
        self.tool_state["line"] = SightLine(self.scene.overlays, pa, pb, None)

        def done(result):
            if self.tool != "los":
                return
            if "line" in self.tool_state:
                self.tool_state.pop("line").destroy()
            self.tool_state["line"] = SightLine(self.scene.overlays, pa, pb, result)
            self.hud.set_prompt(self.tool_state["line"].text.replace("\n", "  |  "))
            self.tool_state.pop("from", None)

        def failed(fault):
            from game.client.link import EngineDied

            if isinstance(fault, EngineDied):
                self._engine_died(fault.message)
                return
            if "line" in self.tool_state:
                self.tool_state.pop("line").destroy()
            self.tool_state["line"] = SightLine(self.scene.overlays, pa, pb, None,
                                                f"no answer: {fault.reason}")
            self.hud.set_prompt(f"Line of sight not available from the engine: {fault.reason}")
            self.tool_state.pop("from", None)

        self.link.request("los.check", {"game": self.game, "side": self.viewing or "allied", "from": a, "to": b},
                          done, failed)

    # -- camera framing for screenshots ----------------------------------------------------------
    def frame_camera(self, how: str) -> None:
        if self.camera is None:
            return
        if how == "top":
            self.camera.goal = self.camera.top_down()
        elif how in self.scene.pieces.elements:
            c = self.scene.pieces.element_centre(how)
            self.camera.focus(c.x, c.y, c.z, distance=22)
            self.camera.goal.pitch = 38
            self.camera.goal.heading = 20
        else:
            self.camera.goal = self.camera.overview()
        self.camera.snap()

    # -- saves -----------------------------------------------------------------------------------
    def saves_dir(self) -> Path:
        d = cache_dir() / "saves"
        d.mkdir(parents=True, exist_ok=True)
        return d

    def autosave(self) -> None:
        if self.game is None or not self.autosave_enabled:
            return

        def done(result):
            self.last_save = result.get("save", result)
            path = self.saves_dir() / "autosave.json"
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.last_save))
            tmp.replace(path)

        self.link.request("game.save", {"game": self.game}, done, self._quiet_error)

    def _quiet_error(self, fault) -> None:
        from game.client.link import EngineDied

        if isinstance(fault, EngineDied):
            self._engine_died(fault.message)

    def save_game(self) -> None:
        if self.game is None:
            return

        def done(result):
            save = result.get("save", result)
            self.last_save = save
            path = self.saves_dir() / f"{self.scenario_id or 'game'}-{time.strftime('%Y%m%d-%H%M%S')}.json"
            path.write_text(json.dumps(save))
            self.hud.log(f"Saved to {path}")
            self.hud.set_prompt(f"Saved: {path.name}")

        self.link.request("game.save", {"game": self.game}, done, self._on_error)

    def load_latest(self) -> None:
        saves = sorted(self.saves_dir().glob("*.json"), key=lambda p: p.stat().st_mtime)
        if not saves:
            if self.hud:
                self.hud.set_prompt("No saved game yet (F5 saves)")
            return
        self._load_save(json.loads(saves[-1].read_text()))

    def _load_save(self, save: dict) -> None:
        if self.scene is not None:
            self.close_game()  # the engine frees the game the save replaces

        def done(result):
            self.game = result["game"]
            self.shown, self.poll_since = set(), 0
            view = result.get("view") or {}
            if self.scene is None:
                self._build_table(view)
            self._on_view(view)
            self.hud.log("Game loaded.", (1.0, 0.82, 0.35, 1))
            self.last_save = save
            self.advance()

        self.link.request("game.load", {"save": save}, done, self._on_error)


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


if __name__ == "__main__":
    sys.exit(main())
