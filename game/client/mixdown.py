"""The film's sound track: the set pieces' sounds recorded as cues while filming, then mixed offline.

While ``dinkydau film`` renders, the ``SoundBoard`` hands every ``play`` and ``stop`` to a ``CueSheet``
(the sound, the time on the film, the node it follows or the point it sits at, its rate and gain, and
whether it loops). After each film frame the sheet samples every voice still sounding: its distance
from the camera, how far to the right it lies, and its radial speed (from the change in distance).

``mix(sheet, length)`` then builds a stereo track with numpy alone, the way OpenAL would have played it
live: each voice's samples from ``synth(name)`` placed at its start, a loop repeated until its stop,
the gain of ``sound.falloff`` (the law ``SoundBoard`` sets on OpenAL, in ``METRES_PER_INCH``), an
equal-power pan by the camera-relative side, and Doppler by resampling at the per-frame rate of
``sound.doppler`` through a continuous read head (the pitch glides, never jumps). The film lifts the
whole mix by a fixed ``level()`` and a look-ahead limiter holds the sum under full scale, so a stick of
bombs does not clip. No clock, no randomness: the same cues give the same bytes.

Left out: reverb, air absorption, occlusion by the canopy (as live).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from game.client.sound import RATE, doppler, falloff, synth

# The film is levelled as if the sounds at this distance played at full gain: the fall-off the board
# sets leaves a sound 24" off at a tenth of its gain (-20 dB), right for a table beside other sounds,
# far too quiet for a clip. A fixed gain, not a normalisation, so louder set pieces stay louder.
LEVEL_INCHES = 24.0
CEILING = 0.89  # the limiter's ceiling (about -1 dBFS)
BLOCK = 128  # the limiter's gain is set per block of samples (5.8 ms)
RELEASE = 0.12  # seconds for the limiter's gain to recover by a factor e
FADE = 0.015  # seconds of fade where a loop stops (no click)
CUT_SPEED = 40.0  # inches a second: faster than an F-4 (26"/s) and the camera together, so a camera cut


@dataclass
class Voice:
    """One sound on the film: when it starts (and a loop's stop), and where it was each frame."""

    name: str
    start: float
    loop: bool = False
    rate: float = 1.0
    gain: float = 1.0
    end: float | None = None  # a loop's stop; a one-shot ends with its samples
    times: list[float] = field(default_factory=list)
    distance: list[float] = field(default_factory=list)  # inches from the camera
    side: list[float] = field(default_factory=list)  # -1 full left .. +1 full right
    speed: list[float] = field(default_factory=list)  # radial, inches per second (+ receding)
    node: object = field(default=None, repr=False)  # the NodePath followed (None: a fixed point)
    point: tuple | None = field(default=None, repr=False)  # the fixed point, in the table's frame

    def sounding(self, t: float, samples: int) -> bool:
        """Whether the voice may still be heard at ``t`` (a one-shot of ``samples``, read at half speed
        at the slowest)."""
        if self.end is not None and t > self.end:
            return False
        return self.loop or t <= self.start + samples / RATE / max(0.25, self.rate) * 2.0 + 0.1

    def place(self, t: float, distance: float, side: float) -> None:
        """Add one sample of where the voice is (its radial speed from the last sample)."""
        speed = 0.0
        if self.times and t > self.times[-1]:
            speed = (distance - self.distance[-1]) / (t - self.times[-1])
            if abs(speed) > CUT_SPEED:
                speed = 0.0  # the camera cut: nothing moved that fast
        self.times.append(t)
        self.distance.append(float(distance))
        self.side.append(float(max(-1.0, min(1.0, side))))
        self.speed.append(float(speed))


class CueSheet:
    """What a ``SoundBoard`` played while filming. ``clock()`` gives the film time of the frame being made
    (the film counts frames, so set pieces filmed back to back stay in step with the picture);
    ``sources`` maps a name to its samples where they are not ``synth(name)``."""

    def __init__(self, clock, volume: float = 1.0, sources: dict[str, np.ndarray] | None = None):
        self.clock = clock
        self.volume = volume
        self.voices: list[Voice] = []
        self.sources = dict(sources or {})

    def source(self, name: str) -> np.ndarray:
        if name not in self.sources:
            self.sources[name] = synth(name)
        return self.sources[name]

    def start(self, name: str, where, loop: bool = False, rate: float = 1.0, gain: float = 1.0) -> Voice:
        """Record a play: ``where`` is a NodePath to follow or a fixed (x, y, z) on the table."""
        node = where if hasattr(where, "get_pos") else None
        point = None if node is not None else tuple(float(c) for c in where)
        v = Voice(name, float(self.clock()), loop=bool(loop), rate=float(rate),
                  gain=float(gain), node=node, point=point)
        self.voices.append(v)
        return v

    def stop(self, voice: Voice | None) -> None:
        if voice is not None and voice.end is None:
            voice.end = max(voice.start, float(self.clock()))

    def sample(self, listener, root) -> None:
        """After a frame: where each sounding voice is relative to ``listener`` (the camera NodePath);
        ``root`` is the frame the fixed points are given in. A node since removed keeps its last place."""
        t = float(self.clock())
        for v in self.voices:
            if t < v.start or not v.sounding(t, len(self.source(v.name))):
                continue
            if v.node is not None:
                if v.node.is_empty():
                    if v.times:
                        v.place(t, v.distance[-1], v.side[-1])
                    continue
                p = v.node.get_pos(listener)
            else:
                p = listener.get_relative_point(root, v.point)
            d = math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2])
            v.place(t, d, p[0] / d if d > 1e-6 else 0.0)


def _track(v: Voice, t: np.ndarray, what: list[float], default: float) -> np.ndarray:
    if not v.times:
        return np.full(len(t), default)
    return np.interp(t, np.asarray(v.times), np.asarray(what))


def _voice(v: Voice, src: np.ndarray, n_out: int, volume: float) -> tuple[int, np.ndarray, np.ndarray] | None:
    """One voice rendered from its samples ``src``: (first output sample, left, right)."""
    i0 = int(round(v.start * RATE))
    if i0 >= n_out or len(src) < 2:
        return None
    last = n_out if v.end is None else min(n_out, int(round(v.end * RATE)) + 1)
    if not v.loop:
        # long enough for the slowest read the Doppler bounds allow
        last = min(last, i0 + int(len(src) / max(0.25, v.rate) / 0.5) + 2)
    n = last - i0
    if n <= 0:
        return None
    t = v.start + np.arange(n) / RATE
    inc = v.rate * doppler(_track(v, t, v.speed, 0.0))
    head = np.concatenate([[0.0], np.cumsum(inc[:-1])])  # the read head, continuous through pitch changes
    if v.loop:
        head = np.mod(head, len(src))
        nxt = (np.floor(head).astype(np.int64) + 1) % len(src)
    else:
        keep = head < len(src) - 1
        if not keep.any():
            return None
        n = int(np.argmin(keep)) if not keep.all() else n
        head, t = head[:n], t[:n]
        nxt = np.floor(head).astype(np.int64) + 1
    k = np.floor(head).astype(np.int64)
    frac = head - k
    x = src[k] * (1.0 - frac) + src[nxt] * frac
    if v.end is not None and v.loop:
        fade = np.clip((v.end - t) / FADE, 0.0, 1.0)
        x = x * fade
    g = v.gain * volume * falloff(_track(v, t, v.distance, 1.0))
    theta = (_track(v, t, v.side, 0.0) + 1.0) * (math.pi / 4)  # equal power: cos^2 + sin^2 = 1
    return i0, x * g * np.cos(theta), x * g * np.sin(theta)


def limit(x: np.ndarray, ceiling: float = CEILING) -> np.ndarray:
    """A look-ahead peak limiter over (n, 2) samples: the gain falls before a peak arrives (one block
    early), recovers with ``RELEASE``, and a last soft knee catches what is left, so nothing clips."""
    n = len(x)
    if n == 0:
        return x
    blocks = -(-n // BLOCK)
    pad = np.zeros((blocks * BLOCK, x.shape[1]))
    pad[:n] = x
    peak = np.abs(pad).reshape(blocks, BLOCK * x.shape[1]).max(axis=1)
    want = np.minimum(1.0, ceiling / np.maximum(peak, 1e-12))
    want = np.minimum(want, np.concatenate([want[1:], [1.0]]))  # look one block ahead
    rec = math.exp(-BLOCK / (RATE * RELEASE))
    gain = np.empty(blocks)
    g = 1.0
    for i, w in enumerate(want):  # instant attack, smooth release
        g = w if w < g else w + (g - w) * rec
        gain[i] = g
    centres = (np.arange(blocks) + 0.5) * BLOCK
    # smooth between block centres, never above the block's own gain (so no peak slips through)
    per = np.minimum(np.interp(np.arange(n), centres, gain), np.repeat(gain, BLOCK)[:n])
    y = x * per[:, None]
    knee = 0.8 * ceiling  # soft above the knee, never past the ceiling
    a = np.abs(y)
    over = a > knee
    y[over] = np.sign(y[over]) * (knee + (ceiling - knee) * np.tanh((a[over] - knee) / (ceiling - knee)))
    return y


def level(distance_inches: float = LEVEL_INCHES) -> float:
    """The film's make-up gain: what brings a sound ``distance_inches`` off back to full gain."""
    return float(1.0 / falloff(distance_inches))


def mix(sheet: CueSheet, length: float, gain: float = 1.0) -> np.ndarray:
    """The sheet's voices as (n, 2) floats at ``RATE``, ``length`` seconds long, times ``gain`` (the
    film passes ``level()``), limited."""
    n_out = max(0, int(round(length * RATE)))
    out = np.zeros((n_out, 2))
    for v in sheet.voices:
        got = _voice(v, sheet.source(v.name), n_out, sheet.volume * gain)
        if got is None:
            continue
        i0, left, right = got
        m = min(len(left), n_out - i0)
        out[i0:i0 + m, 0] += left[:m]
        out[i0:i0 + m, 1] += right[:m]
    return limit(out)


def peak_dbfs(stereo: np.ndarray) -> float:
    peak = float(np.max(np.abs(stereo))) if stereo.size else 0.0
    return 20 * math.log10(peak) if peak > 0 else -math.inf
