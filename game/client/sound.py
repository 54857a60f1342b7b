"""The set pieces' sounds, synthesised by code and played positionally through Panda3D's OpenAL audio.

``synth(name)`` makes each sound once with numpy (fixed seeds, so the same bytes every run): the Huey's
blade slap and turbine whine, a jet's roar, the shriek of an incoming round, explosions by calibre, and
small arms told apart by rhythm (an M16's short bursts, an M60's long steady stream, an AK's slower
crack, an RPD, a sniper's single shot, a grenade, an RPG's whoosh), a tank gun's crack and boom, a round
ricocheting off armour. The WAVs live in a RAM disk mounted
in Panda's virtual file system; nothing is written to the disk.

``SoundBoard`` owns its own OpenAL manager (the window's own stays the null manager its settings ask
for), a listener on the camera, and volume and mute. A sound is attached to a node, so it moves with an
aircraft and its pitch shifts as it passes (Doppler, from the node's velocity). With no sound device it
uses OpenAL's null driver (``ALSOFT_DRIVERS=null``): every call works and nothing is heard, so tests and
offscreen films run the same code. If OpenAL cannot start at all the board is silent and says so.
While ``dinkydau film`` runs, the board also writes every play and stop to a cue sheet
(``mixdown.CueSheet``) from which the film's sound track is mixed offline, with the fall-off and
Doppler laws defined here (``falloff``, ``doppler``) so the track sounds as the table does live.

Left out: reverb, occlusion by the canopy, music.
"""

from __future__ import annotations

import io
import math
import os
import wave
from functools import cache

import numpy as np
import panda3d.core as p3d

RATE = 22050
MOUNT = "/dinkydau-sound"
# one table inch counts as this many metres for fall-off and Doppler (a ground-scale 10 m would make a
# Huey at 9"/s pass at 90 m/s and howl; 1 m would make every pass sound the same)
METRES_PER_INCH = 3.0
# the fall-off OpenAL applies (its inverse-distance-clamped model): full gain within REFERENCE_INCHES,
# then ref / (ref + DROP_OFF * (d - ref)); the film's offline mix uses the same two functions
REFERENCE_INCHES = 1.0
DROP_OFF = 0.4
SPEED_OF_SOUND = 343.3  # metres per second


def falloff(distance_inches):
    """The gain of a sound ``distance_inches`` from the listener (scalar or array)."""
    d = np.maximum(REFERENCE_INCHES, np.asarray(distance_inches, dtype=float))
    return REFERENCE_INCHES / (REFERENCE_INCHES + DROP_OFF * (d - REFERENCE_INCHES))


def doppler(radial_inches_per_s):
    """The pitch factor of a source whose distance grows at this rate (receding: below 1), bounded to
    an octave either way (a jump of the camera never howls)."""
    v = np.asarray(radial_inches_per_s, dtype=float) * METRES_PER_INCH
    return np.clip(SPEED_OF_SOUND / np.maximum(SPEED_OF_SOUND + v, 1e-6), 0.5, 2.0)


def _noise(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, n)


def _lp(x: np.ndarray, cutoff: float, passes: int = 2) -> np.ndarray:
    """A steeper low-pass in the frequency domain (fast for long buffers)."""
    spec = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / RATE)
    spec *= 1 / (1 + (f / cutoff) ** (2 * passes))
    return np.fft.irfft(spec, len(x))


def _hp(x: np.ndarray, cutoff: float) -> np.ndarray:
    spec = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / RATE)
    spec *= (f / cutoff) ** 2 / (1 + (f / cutoff) ** 2)
    return np.fft.irfft(spec, len(x))


def _env(n: int, attack: float, decay: float) -> np.ndarray:
    t = np.arange(n) / RATE
    return np.minimum(1.0, t / max(attack, 1e-4)) * np.exp(-t / decay)


def _bang(seed: int, length: float, body: float, crack: float, thump_hz: float) -> np.ndarray:
    n = int(length * RATE)
    t = np.arange(n) / RATE
    x = _lp(_noise(n, seed), body) * _env(n, 0.002, length / 5)
    x += 0.8 * _noise(n, seed + 1) * _env(n, 0.0005, crack)
    x += 0.9 * np.sin(2 * math.pi * thump_hz * t * (1 - 0.3 * t / length)) * _env(n, 0.004, length / 7)
    return x


def _shots(times: list[float], length: float, seed: int, body: float, crack: float, thump: float) -> np.ndarray:
    n = int(length * RATE)
    out = np.zeros(n)
    for k, t0 in enumerate(times):
        shot = _bang(seed + k, 0.35, body, crack, thump)
        i = int(t0 * RATE)
        m = min(len(shot), n - i)
        if m > 0:
            out[i:i + m] += shot[:m] * (0.85 + 0.15 * ((k * 7) % 3) / 2)
    return out


def synth(name: str) -> np.ndarray:
    """One sound as floats in [-1, 1] at ``RATE`` (see the module docstring for the names)."""
    return _synth(name).copy()


@cache
def _synth(name: str) -> np.ndarray:
    if name == "rotor":
        # two blades at 324 rpm: ~10.8 slaps a second; 22 slaps make a seamless 2 s loop
        n = 2 * RATE
        t = np.arange(n) / RATE
        slap_rate = 11.0
        phase = (t * slap_rate) % 1.0
        slap = np.exp(-phase / 0.035) * _lp(_noise(n, 21), 900)
        thump = np.sin(2 * math.pi * 70 * t) * np.exp(-phase / 0.05)
        whine = 0.08 * np.sin(2 * math.pi * (1350 + 12 * np.sin(2 * math.pi * 0.5 * t)) * t)
        hiss = 0.12 * _lp(_noise(n, 22), 3000)
        x = 1.2 * slap + 0.9 * thump + whine + hiss
    elif name == "jet":
        n = 3 * RATE
        t = np.arange(n) / RATE
        x = _lp(_noise(n, 31), 500) * 1.6 + 0.5 * _hp(_lp(_noise(n, 32), 4000), 1200)
        x += 0.05 * np.sin(2 * math.pi * 2200 * t)
        x *= 0.9 + 0.1 * np.sin(2 * math.pi * t / 3.0)  # period of the loop
    elif name == "prop":
        n = 2 * RATE
        t = np.arange(n) / RATE
        x = 0.7 * np.sign(np.sin(2 * math.pi * 38 * t)) * 0.3 + _lp(_noise(n, 35), 700)
        x += 0.5 * np.sin(2 * math.pi * 76 * t)
    elif name == "shriek":
        n = int(1.3 * RATE)
        t = np.arange(n) / RATE
        f = 1900 - 1200 * (t / 1.3) ** 1.4
        ph = 2 * math.pi * np.cumsum(f) / RATE
        x = np.sin(ph) * (0.15 + 0.85 * (t / 1.3) ** 2) + 0.15 * _lp(_noise(n, 41), 2500) * (t / 1.3)
    elif name.startswith("explosion"):
        big = {"explosion_small": (1.6, 900, 0.02, 55), "explosion": (2.6, 700, 0.03, 42),
               "explosion_big": (3.5, 500, 0.05, 32)}[name]
        x = _bang(51 + len(name), *big)
    elif name == "m16":
        x = _shots([0.0, 0.075, 0.15, 0.45, 0.525, 0.6], 1.0, 60, 2500, 0.01, 120)
    elif name == "m60":
        x = _shots([k * 0.1 for k in range(14)], 1.8, 61, 1800, 0.012, 90)
    elif name == "ak47":
        x = _shots([0.0, 0.1, 0.2, 0.55, 0.65], 1.0, 62, 1500, 0.014, 100)
    elif name == "rpd":
        x = _shots([k * 0.09 for k in range(6)] + [0.75 + k * 0.09 for k in range(6)], 1.6, 63, 1400, 0.012, 85)
    elif name == "sniper":
        x = _shots([0.0], 0.8, 64, 3000, 0.02, 110) * 1.3
    elif name == "grenade":
        x = _bang(65, 1.4, 1200, 0.02, 70)
    elif name == "rpg":
        n = int(1.6 * RATE)
        t = np.arange(n) / RATE
        whoosh = _lp(_noise(n, 66), 1500) * np.clip(1 - t / 0.6, 0, 1) * 1.4
        bang = np.concatenate([np.zeros(int(0.55 * RATE)), _bang(67, 1.6 - 0.55, 1000, 0.02, 60)])
        x = whoosh + np.pad(bang, (0, max(0, n - len(bang))))[:n]
    elif name == "cannon":  # a tank gun or recoilless rifle: a hard crack and a long low boom
        x = _bang(71, 2.2, 600, 0.03, 38) + 0.5 * _bang(72, 2.2, 2500, 0.008, 90)
    elif name == "ricochet":  # a round glancing off armour: a clang, then the whine falling away
        n = int(1.2 * RATE)
        t = np.arange(n) / RATE
        f = 2600 - 1500 * (t / 1.2) ** 0.7
        ph = 2 * math.pi * np.cumsum(f) / RATE
        clang = np.sin(2 * math.pi * 1650 * t) * np.exp(-t / 0.05) + 0.6 * _noise(n, 73) * np.exp(-t / 0.01)
        x = clang + 0.55 * np.sin(ph) * np.exp(-t / 0.45) * np.clip(t / 0.03, 0, 1)
    elif name == "pop":  # a smoke grenade's spoon and fuse, then the hiss
        n = int(2.0 * RATE)
        t = np.arange(n) / RATE
        x = _bang(68, 2.0, 2000, 0.004, 200) * 0.3 + 0.4 * _hp(_noise(n, 69), 2000) * np.clip((t - 0.3) * 3, 0, 1)
    else:
        raise KeyError(f"no such sound {name!r}")
    x = x - x.mean()
    return x / max(1e-9, float(np.max(np.abs(x)))) * 0.9


SOUNDS = ("rotor", "jet", "prop", "shriek", "explosion_small", "explosion", "explosion_big", "m16", "m60", "ak47",
          "rpd", "sniper", "grenade", "rpg", "pop", "cannon", "ricochet")
LOOPS = ("rotor", "jet", "prop")


def wav_bytes(x: np.ndarray) -> bytes:
    """Samples in [-1, 1] as a 16-bit WAV at ``RATE``: ``(n,)`` mono, ``(n, 2)`` stereo."""
    x = np.asarray(x, dtype=float)
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1 if x.ndim == 1 else x.shape[1])
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(np.round(np.clip(x, -1, 1) * 32767).astype("<i2").tobytes())
    return buf.getvalue()


def _no_device() -> bool:
    return not (os.path.exists("/dev/snd") or os.environ.get("PULSE_SERVER") or os.environ.get("PIPEWIRE_REMOTE"))


def prepare() -> None:
    """Before the window opens (Panda3D loads its audio library once, with the first ShowBase): with no
    sound device, OpenAL's null driver, so every call works and nothing is heard."""
    if _no_device():
        os.environ.setdefault("ALSOFT_DRIVERS", "null")


_mounted = False


def _mount() -> None:
    global _mounted
    if _mounted:
        return
    vfs = p3d.VirtualFileSystem.get_global_ptr()
    vfs.mount(p3d.VirtualFileMountRamdisk(), MOUNT, 0)
    _mounted = True


class _Silent:
    """What ``play`` returns with no OpenAL while a cue sheet records: a sound that only stops."""

    def __init__(self, voice):
        self.voice = voice

    def stop(self) -> None:
        pass


class SoundBoard:
    """Positional sounds for one window: ``play(name, node_or_point)``, ``volume``, ``mute``."""

    def __init__(self, base, listener: p3d.NodePath, volume: float = 0.8, muted: bool = False):
        self.base = base
        self.listener = listener
        self.cues = None  # a mixdown.CueSheet while filming: every play and stop is written to it
        self.volume = volume
        self.muted = muted
        self.playing: list = []
        # what each playing sound carries (Panda's AudioSound takes no Python attributes): its fixed-point
        # anchor node and its cue-sheet voice, by id (the sound itself is held, so the id stays its own)
        self._extra: dict[int, tuple[object, p3d.NodePath | None, object]] = {}
        self.manager = None
        self.audio3d = None
        self.problem = ""
        prepare()
        try:
            p3d.load_prc_file_data("dinkydau-sound", "audio-library-name p3openal_audio")
            manager = p3d.AudioManager.create_AudioManager()
        except Exception as exc:  # noqa: BLE001 - any failure to start audio leaves a silent board
            manager, self.problem = None, str(exc)
        if manager is None or not manager.is_valid():
            self.problem = self.problem or "OpenAL could not start: the set pieces play silently"
            return
        from direct.showbase.Audio3DManager import Audio3DManager

        self.manager = manager
        self.manager.set_volume(0.0 if muted else volume)
        self.audio3d = Audio3DManager(manager, listener, root=base.render)
        self.audio3d.set_distance_factor(1.0 / METRES_PER_INCH)  # Panda 1.10 counts units per metre
        self.audio3d.set_drop_off_factor(DROP_OFF)
        self.audio3d.set_listener_velocity_auto()
        self.sounds: dict[str, object] = {}
        _mount()
        base.task_mgr.add(self._update, "dinkydau-sound", sort=50)

    @property
    def live(self) -> bool:
        return self.manager is not None

    def _sound(self, name: str):
        path = f"{MOUNT}/{name}.wav"
        vfs = p3d.VirtualFileSystem.get_global_ptr()
        if not vfs.exists(path):
            vfs.write_file(path, wav_bytes(_synth(name)), False)
        return self.audio3d.load_sfx(path)

    def play(self, name: str, where, loop: bool = False, rate: float = 1.0, gain: float = 1.0):
        """Play ``name`` at a node (it follows the node, Doppler included) or a fixed point; returns the sound
        (stop a loop with ``stop``) or, when silent, None (a stand-in that only stops while a cue sheet
        records, so the film's track hears what the board could not play)."""
        voice = None if self.cues is None else self.cues.start(name, where, loop=loop, rate=rate, gain=gain)
        if not self.live:
            return None if voice is None else _Silent(voice)
        snd = self._sound(name)
        anchor = None
        if isinstance(where, p3d.NodePath):
            self.audio3d.attach_sound_to_object(snd, where)
            self.audio3d.set_sound_velocity_auto(snd)
        else:
            anchor = self.base.render.attach_new_node("sound")
            anchor.set_pos(*where)
            self.audio3d.attach_sound_to_object(snd, anchor)
        snd.set_loop(loop)
        snd.set_play_rate(rate)
        snd.set_volume(gain)
        snd.set_3d_min_distance(REFERENCE_INCHES)
        snd.play()
        self.playing.append(snd)
        self._extra[id(snd)] = (snd, anchor, voice)  # the anchor is removed when the sound is dropped
        return snd

    def stop(self, snd) -> None:
        if snd is None:
            return
        if self.cues is not None:
            self.cues.stop(snd.voice if isinstance(snd, _Silent) else self._extra.get(id(snd), (None,) * 3)[2])
        snd.stop()
        self._drop(snd)

    def _drop(self, snd) -> None:
        if snd in self.playing:
            self.playing.remove(snd)
        if self.audio3d is not None:
            self.audio3d.detach_sound(snd)
        anchor = self._extra.pop(id(snd), (None, None, None))[1]
        if anchor is not None:
            anchor.remove_node()

    def set_volume(self, volume: float) -> None:
        self.volume = min(1.0, max(0.0, volume))
        if self.manager is not None and not self.muted:
            self.manager.set_volume(self.volume)

    def toggle_mute(self) -> bool:
        self.muted = not self.muted
        if self.manager is not None:
            self.manager.set_volume(0.0 if self.muted else self.volume)
        return self.muted

    def stop_all(self) -> None:
        for snd in list(self.playing):
            self.stop(snd)

    def _update(self, task):
        for snd in list(self.playing):
            if snd.status() != snd.PLAYING:
                self._drop(snd)
        self.manager.update()
        return task.cont

    def destroy(self) -> None:
        self.stop_all()
        if self.manager is not None:
            self.base.task_mgr.remove("dinkydau-sound")
            self.manager.shutdown()
            self.manager = None
