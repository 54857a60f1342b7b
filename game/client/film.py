"""``dinkydau film SCENARIO --showcase artillery|airstrike|dustoff|armour|all --out FILE``: the set pieces
on film, rendered offscreen from real games.

The film finds its situation by driving the real engine process, never by making events up: it plays
seeded AI-against-AI games (``game.step``) on the referee's view until the engine issues the set piece.
For ``dustoff`` the film takes the Allies' ``pop_smoke`` action whenever the engine offers it (a
scripted choice among the engine's own legal actions), then lets the game run until the Huey lands and
leaves, or is waved off or shot down. For ``artillery`` and ``airstrike`` it plays the scenario with the
fire support the showcase needs added to an in-memory copy (``[[support]]`` rows: a 155 mm battery, or
the 4.2" mortars where the scenario rules heavy artillery out; A-1 napalm with an O-1 FAC overhead,
DD-8.3); the Allied AI calls it on what it sees (``game.ai.support``)
and the film keeps the batch of the call (the marking smoke going up) and the batch where the rounds
land or the aircraft makes its pass. ``harassment`` (for the recorded tests) waits for the Jungle Ghost's 82 mm (G-12).
``armour`` (a scenario with vehicles, e.g. thunder_road) waits for a brew-up after a crew has bailed out:
the film keeps the batch of the first anti-tank shot (``at_fire``) and the last few batches up to the
brew-up where a round struck a hull (``armour``: a ricochet or a penetration), a crew bailed out and a
vehicle brewed up (``ARMOUR_STORY`` in all). It prints the seed and the
step it used.

Then it replays that game on the table: every batch before and between the set pieces is applied at
once, and each batch that holds the set piece plays through the presenter at 1x under the attract-mode
director, one frame every 1/FPS s of game time (the clock is driven by frames, so a slow machine makes
the same film). Frames go to an MP4 (imageio-ffmpeg's own ffmpeg, H.264) or, when ``--out`` is a
folder (or ends in ``/``), to numbered PNGs.

The film carries its sound: the sound board writes every play and stop to a cue sheet, each frame the
sheet notes where each voice is from the camera, and after the last frame ``mixdown.mix`` makes the
stereo track (fall-off, pan, Doppler, a limiter). It is muxed into the MP4 as AAC by the same ffmpeg,
or written as FOLDER.wav beside the PNGs; ``--no-sound`` leaves it out. The film's time is its frame
count, so the track stays in step with the picture across the batches applied at once between set
pieces.

"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

SHOWCASES = ("artillery", "airstrike", "dustoff")
FILM_EPOCH = 1000.0  # the clock's time at the film's first step (seconds; past any window's start-up)
TARGET = {"artillery": {"fire_mission"}, "dustoff": {"dustoff"}, "airstrike": {"air_pass"}, "harassment": {"impact"},
          "armour": {"at_fire", "armour", "bailout", "brew_up"}}
ARMOUR_STORY = 5  # the armour film's batches at most: the first shot, then the last strikes up to the brew-up
# the support a showcase adds to its in-memory copy of the scenario (DD-8.3), and the call the film takes
SUPPORT = {"artillery": (("heavy_155", 2),), "airstrike": (("cas_napalm", 2), ("fac_o1", 1))}
LIGHT = {"heavy_155": "mortar_107"}  # where the scenario's no_artillery rule leaves heavy guns out (DD-8.3)
CALLS = {"artillery": ("call_fire", "heavy_155"), "airstrike": ("call_air", "cas_napalm")}  # the AI's call filmed


@dataclass
class Situation:
    scenario: str
    seed: int
    showcase: str
    start: dict
    batches: list[tuple[list[dict], dict]] = field(default_factory=list)  # (events, view after them)
    story: list[int] = field(default_factory=list)  # the indices of the batches holding the set piece


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="dinkydau film", description="Render the set pieces of a real game to film.")
    p.add_argument("scenario")
    p.add_argument("--showcase", choices=(*SHOWCASES, "harassment", "armour", "all"), default="all",
                   help="harassment: the Jungle Ghost's 82 mm mortar (G-12); armour: an RPG ambush up to a "
                        "brew-up (a scenario with vehicles); all: artillery, airstrike and dustoff")
    p.add_argument("--out", required=True, help="an .mp4 file, or a folder for PNG frames")
    p.add_argument("--size", default="1280x720")
    p.add_argument("--fps", type=int, default=30)
    p.add_argument("--seed", type=int, default=1, help="the first seed to try")
    p.add_argument("--tries", type=int, default=120, help="seeds to try before giving up")
    p.add_argument("--threat", type=int, default=3)
    p.add_argument("--tail", type=float, default=1.5, help="seconds filmed after each set piece ends")
    p.add_argument("--no-sound", action="store_true", help="no sound track")
    return p.parse_args(argv)


def _story_done(showcase: str, events: list[dict], seen: list[dict]) -> bool:
    if showcase == "harassment":
        return any(e.get("type") == "impact" for e in events)
    if showcase == "artillery":
        return any(e.get("type") == "fire_mission" and e.get("phase") == "impact" for e in events)
    if showcase == "airstrike":
        return any(e.get("type") == "air_pass" for e in events)
    if showcase == "armour":  # the whole story: a crew has bailed out by the time a hull brews up
        return any(e.get("type") == "brew_up" for e in events) and any(e.get("type") == "bailout" for e in seen)
    phases = [e.get("phase") for e in seen if e.get("type") == "dustoff"]
    return bool(phases) and phases[-1] in ("departure", "crash")


def _pop_smoke(link, game: str) -> list[dict] | None:
    """Take the Allies' pop_smoke if the engine offers it: the LZ on the throwing stand or a few inches
    round it (the engine refuses an LZ that is not a clear 6" opening). Returns the referee's events."""
    from game.engine.client import EngineError  # the protocol client; never game.rules

    acts = link.call("game.actions", game=game, side="allied").get("actions", [])
    for a in [a for a in acts if a.get("type") == "pop_smoke"]:
        spec = (a.get("params") or {}).get("at") or {}
        fx, fy = (spec.get("from") or [None, None])[:2]
        if fx is None:
            continue
        reach = float(spec.get("max", 1.0))
        for dx, dy in ((0, 0), (reach, 0), (-reach, 0), (0, reach), (0, -reach)):
            action = {"type": "pop_smoke", "element": a.get("element"), "at": [round(fx + dx, 2), round(fy + dy, 2)]}
            try:
                done = link.call("game.act", game=game, side="allied", action=action)
            except EngineError:
                continue
            return done.get("events", [])
    return None


def scenario_with_support(scenario: str, showcase: str):
    """The scenario as ``game.new`` takes it: its id, or for a fire-support showcase an in-memory copy of
    its TOML with the ``[[support]]`` rows the showcase needs added (DD-8.3; the file is not touched)."""
    rows = SUPPORT.get(showcase)
    if not rows:
        return scenario
    import tomllib

    from game.client.settings import REPO

    path = Path(scenario)
    if not path.suffix:
        path = REPO / "scenarios" / f"{scenario}.toml"
    raw = tomllib.loads(path.read_text())
    support = list(raw.get("support") or [])
    have = {(r.get("side"), r.get("asset")) for r in support}
    light = "no_artillery" in ((raw.get("scenario") or {}).get("special_rules") or [])
    rows = [(LIGHT.get(a, a) if light else a, n) for a, n in rows]
    support += [{"side": "allied", "asset": a, "missions": n} for a, n in rows if ("allied", a) not in have]
    raw["support"] = support
    return raw


def showcase_asset(ref, showcase: str) -> str | None:
    """The asset whose call and arrival a fire-support showcase films (its scenario's own row)."""
    if showcase not in CALLS:
        return None
    asset = CALLS[showcase][1]
    rows = {r.get("asset") for r in (ref.get("support") or [])} if isinstance(ref, dict) else set()
    return asset if asset in rows or asset not in LIGHT else LIGHT[asset]


def find(link, scenario: str, showcase: str, first_seed: int = 1, tries: int = 120, threat: int = 3,
         log=print) -> Situation | None:
    """Drive the real engine until it issues ``showcase``; the situation to replay, or None."""
    ref = scenario_with_support(scenario, showcase)
    asset = showcase_asset(ref, showcase)
    for seed in range(first_seed, first_seed + tries):
        # The Dustoff needs one scripted move (the smoke, DD-6.7): the Allies are a human side the AI
        # plays (game.step autopilot), since the engine takes game.act only for a human side.
        allied = "human" if showcase == "dustoff" else "ai"
        r = link.call("game.new", scenario=ref, seed=seed, threat=threat, referee=True, side="referee",
                      players={"allied": allied, "insurgent": "ai"})
        game = r["game"]
        sit = Situation(scenario, seed, showcase, r)
        seen: list[dict] = []
        last_seq = max([e.get("seq", 0) for e in r.get("events", [])], default=0)
        try:
            for _ in range(4000):
                view = sit.batches[-1][1] if sit.batches else r["view"]
                if view.get("over"):
                    break
                events = None
                if showcase == "dustoff" and view.get("to_act") == "allied" and not seen:
                    if _pop_smoke(link, game) is not None:
                        events = link.call("game.events", game=game, side="referee", since=last_seq)["events"]
                        view = link.call("game.view", game=game, side="referee")
                if events is None:
                    step = link.call("game.step", game=game, side="referee", autopilot=allied == "human")
                    events, view = step.get("events", []), step.get("view") or view
                last_seq = max([e.get("seq", 0) for e in events], default=last_seq)
                sit.batches.append((events, view))
                hits = [e for e in events if e.get("type") in TARGET[showcase]]
                if showcase == "armour":  # a miss after the first shot is left out: the strikes tell it
                    hits = [e for e in hits if e.get("type") != "at_fire" or not sit.story]
                if showcase in CALLS:
                    called = [e for e in events if e.get("type") == "fire_mission" and e.get("phase") == "call"
                              and e.get("asset") == asset]
                    hits = [e for e in hits if e.get("asset") == asset and e.get("phase", "impact") == "impact"]
                    if called and not sit.story:
                        sit.story.append(len(sit.batches) - 1)  # the call, and the marking smoke going up
                if hits:
                    if not sit.story or sit.story[-1] != len(sit.batches) - 1:
                        sit.story.append(len(sit.batches) - 1)
                    seen += hits
                if seen and _story_done(showcase, events, seen):
                    if showcase == "armour":
                        sit.story = sit.story[:1] + sit.story[1:][-(ARMOUR_STORY - 1):]
                    log(f"film: {showcase} found in {scenario} seed {seed} at step {len(sit.batches)}")
                    return sit
                if showcase == "dustoff" and seen and len(sit.batches) - sit.story[0] > 400:
                    break
        finally:
            link.call("game.close", game=game)
    return None


class Recorder:
    """Frames from the offscreen window to an MP4 or a folder of PNGs. With ``sound`` the MP4's picture
    goes to a side file first, and ``add_sound`` muxes the track in under the final name."""

    def __init__(self, app, out: str, fps: int, sound: bool = False):
        self.app = app
        self.out = Path(out)
        self.fps = fps
        self.frames = 0
        self.writer = None
        w, h = app.base.win.get_x_size(), app.base.win.get_y_size()
        self.size = (w, h)
        self.video = self.out
        if self.out.suffix.lower() == ".mp4":
            import imageio_ffmpeg

            self.out.parent.mkdir(parents=True, exist_ok=True)
            if sound:
                self.video = self.out.with_name(f".{self.out.stem}.picture.mp4")
            self.writer = imageio_ffmpeg.write_frames(str(self.video), (w, h), fps=fps, codec="libx264",
                                                      pix_fmt_out="yuv420p", quality=8, macro_block_size=8)
            self.writer.send(None)
        else:
            self.out.mkdir(parents=True, exist_ok=True)

    def grab(self) -> None:
        import numpy as np
        import panda3d.core as p3d

        if self.writer is not None:
            tex = self.app.base.win.get_screenshot()
            data = np.frombuffer(bytes(tex.get_ram_image_as("RGB")), np.uint8)
            img = data.reshape(tex.get_y_size(), tex.get_x_size(), 3)[::-1]
            self.writer.send(np.ascontiguousarray(img[: self.size[1], : self.size[0]]).tobytes())
        else:
            path = self.out / f"frame_{self.frames:05d}.png"
            self.app.base.win.save_screenshot(p3d.Filename.from_os_specific(str(path)))
        self.frames += 1

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    @property
    def seconds(self) -> float:
        return self.frames / self.fps

    def add_sound(self, wav: bytes) -> Path:
        """The track beside the PNGs (FOLDER.wav), or muxed into the MP4 as AAC; returns where it went."""
        self.close()
        if self.out.suffix.lower() != ".mp4":
            path = Path(str(self.out).rstrip("/\\") + ".wav")
            path.write_bytes(wav)
            return path
        import imageio_ffmpeg

        track = self.out.with_name(f".{self.out.stem}.sound.wav")
        track.write_bytes(wav)
        try:
            subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-y", "-v", "error", "-i", str(self.video), "-i",
                            str(track), "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-b:a", "160k",
                            "-shortest", str(self.out)], check=True)
        finally:
            track.unlink(missing_ok=True)
        self.video.unlink(missing_ok=True)  # kept when the mux failed: picture_only names it the film
        return self.out

    def picture_only(self) -> None:
        """No track after all: the picture keeps the final name."""
        self.close()
        if self.video != self.out and self.video.exists():
            os.replace(self.video, self.out)


def play(app, director, sit: Situation, rec: Recorder, fps: int, tail: float, cues=None) -> None:
    """Replay ``sit`` on the table: set-piece batches filmed at 1x, the rest applied at once. With
    ``cues`` (a ``mixdown.CueSheet``) the sound board records into it and it samples every frame."""
    from game.client.presenter import INSTANT

    app.close_game()
    app.viewing = "referee"
    app.mode = "watch"
    app.players = {"allied": "ai", "insurgent": "ai"}
    app._on_new(sit.start, advance=False)
    app.base.render2d.hide()  # the table alone: a film has no interface,
    if app.scene is not None:
        app.scene.pieces.set_labels_visible(False)  # nor names over the pieces
    pres = app.presenter
    board = app.sound
    if cues is not None and board is not None:
        board.cues = cues
        cues.volume = board.volume
    director.hook()
    story = set(sit.story)

    def frame():
        app.base.task_mgr.step()
        if cues is not None and board is not None:
            cues.sample(board.listener, app.base.render)  # before the grab: the time of this frame
        rec.grab()

    for i, (events, view) in enumerate(sit.batches):
        filmed = i in story
        pres.set_speed(1.0 if filmed else INSTANT)
        app.handle_events(events, view)
        if not filmed:
            app.base.task_mgr.step()
            continue
        steps = 0
        while pres.busy and steps < fps * 90:
            frame()
            steps += 1
        for _ in range(int(tail * fps)):
            frame()


def film_main(argv: list[str] | None = None) -> int:
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    wanted = list(SHOWCASES) if args.showcase == "all" else [args.showcase]
    import panda3d.core as p3d

    from game.client.app import DinkyDauApp
    from game.client.director import Director
    from game.client.mixdown import CueSheet, level, mix, peak_dbfs
    from game.client.settings import ClientSettings
    from game.client.sound import RATE, wav_bytes

    w, _, h = args.size.lower().partition("x")
    if not (w.isdigit() and h.isdigit()):
        print(f"dinkydau film: --size wants WIDTHxHEIGHT, got {args.size!r}", file=sys.stderr)
        return 2
    clock = p3d.ClockObject.get_global_clock()
    app = DinkyDauApp(ClientSettings(size=(int(w), int(h)), offscreen=True, shadows=False))
    clock.set_mode(p3d.ClockObject.M_non_real_time)
    clock.set_frame_rate(args.fps)
    # from a fixed epoch, not the seconds the window took to open: every frame's time is then the same
    # float on every run, and so is each cut the director times by it (and the track that follows)
    p3d.load_prc_file_data("dinkydau-film", "notify-level-util error")
    clock.set_frame_time(FILM_EPOCH)
    director = Director(app, clock=clock.get_frame_time)
    rec = None
    try:
        t0 = time.monotonic()
        sits = []
        for name in wanted:
            sit = find(app.link, args.scenario, name, args.seed, args.tries, args.threat)
            if sit is None:
                print(f"dinkydau film: no {name} in {args.tries} seeds of {args.scenario} from {args.seed}",
                      file=sys.stderr)
                return 1
            sits.append(sit)
        rec = Recorder(app, args.out, args.fps, sound=not args.no_sound)
        cues = None if args.no_sound else CueSheet(lambda: rec.frames / args.fps)
        for sit in sits:
            play(app, director, sit, rec, args.fps, args.tail, cues)
        heard = "no sound"
        if cues is not None:
            if app.sound is not None:
                app.sound.cues = None
            track = mix(cues, rec.seconds, level())
            where = rec.add_sound(wav_bytes(track))
            heard = (f"sound {len(track) / RATE:.1f} s stereo, peak {peak_dbfs(track):.1f} dBFS, "
                     f"{len(cues.voices)} cues" + ("" if where == rec.out else f" in {where}"))
        print(f"wrote {args.out}: {rec.frames} frames at {args.fps} fps ({rec.seconds:.1f} s), {heard}, "
              f"{', '.join(f'{s.showcase} seed {s.seed}' for s in sits)}, in {time.monotonic() - t0:.0f} s")
        return 0
    finally:
        if rec is not None:
            rec.picture_only()
        # back to real time from the film's last frame, not from the real clock: time never runs
        # backwards for the tasks and intervals scheduled on it (the process may go on, as tests do)
        last = clock.get_frame_time()
        clock.set_mode(p3d.ClockObject.M_normal)
        clock.set_real_time(last)
        app.shutdown()


if __name__ == "__main__":
    sys.exit(film_main())
