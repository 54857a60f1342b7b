"""One Brain-Cell's events on the table: the presenter's handlers for the ruleset's event types (presenter.py).

A man's ``move`` walks him from where he was to where he went (a man jumping down from a chopper, or one
coming into sight, fades in where he is); a chopper's ``vehicle_move`` flies it along the event's 3D line, so
a landing comes down and a lift-off climbs, and ``left`` flies it off upward; a rifle shot (the ``roll``
"to hit") is tracers from the firer's eye to the target, past him on a miss; an ``MG burst`` is a stream of
tracers into its square (the event's ``at`` and ``square``: 3" for the MG), lit on the ground; a mortar or
blooper bomb's ``scatter`` draws the line from the aim to where it landed, and its ``blast`` a flash and its
1" square (``square``) with dirt thrown up, and a smoke round's ``smoke`` billows along its drift (the next
view stands the cloud there); a casualty drops a man (dead, or disabled) or shows his state
(pinned, stunned); morale outcomes and flight are words over him; a chopper hit flashes, one destroyed
burns; turns are banners. Each handler reads the event and the table only; it decides no rule.

``HANDLERS`` and ``LOG_ONLY`` are the kit's registry (``unhandled`` in presenter.py checks them).
"""

from __future__ import annotations

import math

from direct.interval.IntervalGlobal import Func, LerpFunctionInterval, Parallel, Sequence, Wait

from game.client import fx, geom
from game.client.effects import DIRT, FLASH, HIT, fade
from game.client.obc.figures import HEIGHT
from game.client.presenter import Beat, Handler, Stage, registrar
from game.client.tet import events as tet

HANDLERS: dict[str, Handler] = {}
LOG_ONLY = frozenset({"game_over", "activate", "hold", "orders", "rule", "radio", "arrival", "carry", "evacuated",
                      "embus", "debus", "load", "wind", "smoke_clears", "retreat"})
"""Nothing to show on the table beyond what the next view puts there: the log says it."""
SQUARE = (1.0, 0.55, 0.15, 1)
SCATTER = (1.0, 0.82, 0.35, 1)
SMOKE = (0.86, 0.87, 0.84, 1)
"""A mortar's smoke (OBC-39): white-grey, as the smoke model on the table."""


handles = registrar(HANDLERS)


_pos = tet._pos


def _say(stage: Stage, fid, text: str, color=(1.0, 0.82, 0.35, 1), life: float = 1.6):
    p = _pos(stage, fid)
    if p is None:
        return None
    from game.client.effects import banner

    return banner(stage, text, (p[0], p[1], p[2] - 1.4), color, life=life, scale=0.4)


def _side(stage: Stage, fid) -> str:
    m = stage.pieces.men.get(str(fid or "")) or stage.pieces.vehicles.get(str(fid or "")) or {}
    return m.get("side", "allied")


def square(stage: Stage, x: float, y: float, side: float, color, life: float, fill: float = 0.25,
           delay: float = 0.0):
    """A square ``side`` inches on the table round (x, y), lit a while and faded."""
    h = side / 2
    z = stage.height_at(x, y) + 0.1
    pts = [(x - h, y - h, z), (x + h, y - h, z), (x + h, y + h, z), (x - h, y + h, z), (x - h, y - h, z)]
    node = geom.lines("square", [pts], color, 4.0)
    from game.client.effects import _polygon_fill

    _polygon_fill("square-fill", [p[:2] for p in pts[:4]], z, (*color[:3], fill)).reparent_to(node)
    return fade(node, stage.root, life, 0.8, delay=delay)


@handles("move")
def on_move(stage: Stage, ev: dict) -> Beat | None:
    fid = str(ev.get("man"))
    piece = stage.pieces.figures.get(fid)
    to = ev.get("to")
    if piece is None or not to:
        return None
    facing = float((stage.pieces.elements.get(fid) or {}).get("facing", 90.0))
    x1, y1 = float(to[0]), float(to[1])
    start = ev.get("from")
    if not start:  # down from a chopper, or come into sight: he is simply there
        stage.pieces.place(fid, x1, y1, facing)
        piece.node.set_transparency(1)
        piece.node.set_alpha_scale(0.0)
        return Beat(LerpFunctionInterval(piece.node.set_alpha_scale, 0.4, 0.0, 1.0), 0.12)
    x0, y0 = float(start[0]), float(start[1])
    dist = math.hypot(x1 - x0, y1 - y0)
    if dist > 1e-6:
        facing = math.degrees(math.atan2(y1 - y0, x1 - x0))
    dur = min(1.2, max(0.3, dist / 8.0))

    def at(k: float) -> None:
        stage.pieces.place(fid, x0 + (x1 - x0) * k, y0 + (y1 - y0) * k, facing)

    stage.focus(0.0, 3, "move", node=piece.node, hold=dur, distance=18.0, path=((x0, y0, 0), (x1, y1, 0)))
    return Beat(Sequence(Func(stage.pieces.place, fid, x0, y0, facing), LerpFunctionInterval(at, dur, 0.0, 1.0)),
                dur * 0.5)


def _fly(stage: Stage, vid: str, a, b, dur: float):
    facing = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) if math.hypot(b[0] - a[0], b[1] - a[1]) > 0.5 \
        else float((stage.pieces.vehicles.get(vid) or {}).get("facing", 90.0))

    def at(k: float) -> None:
        s = k * k * (3 - 2 * k)  # easing in and out: it flares to land
        stage.pieces.put_chopper(vid, a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s,
                                 a[2] + (b[2] - a[2]) * s, facing)

    return LerpFunctionInterval(at, dur, 0.0, 1.0)


@handles("vehicle_move")
def on_vehicle_move(stage: Stage, ev: dict) -> Beat | None:
    vid = str(ev.get("vehicle"))
    a, b = ev.get("from"), ev.get("to")
    if vid not in stage.pieces.choppers or not a or not b:
        return None
    a = (float(a[0]), float(a[1]), float(a[2]) if len(a) > 2 else 0.0)
    b = (float(b[0]), float(b[1]), float(b[2]) if len(b) > 2 else 0.0)
    dur = min(3.0, max(1.0, math.dist(a, b) / 10.0))
    node = stage.pieces.choppers[vid][0]
    stage.focus(0.0, 5, "move", node=node, hold=dur, distance=30.0, path=((a[0], a[1], 0), (b[0], b[1], 0)))
    return Beat(_fly(stage, vid, a, b, dur), dur)


@handles("left")
def on_left(stage: Stage, ev: dict) -> Beat | None:
    vid = str(ev.get("vehicle"))
    p = stage.pieces.chopper_pos(vid)
    if p is None:
        return None
    v = stage.pieces.vehicles.get(vid) or {}
    h = float(v.get("height", 0.0))
    edge = -6.0 if v.get("side") == "allied" else stage.height + 6.0
    return Beat(_fly(stage, vid, (p.x, p.y, h), (p.x, edge, h + 10.0), 2.0), 1.6)


def _shot(stage: Stage, firer, end, count: int, hit: bool | None = None):
    eye = stage.pieces.eye(str(firer or ""))
    if eye is None or end is None:
        return None
    if hit is False:  # past him, a little high and wide
        dx, dy = end[0] - eye[0], end[1] - eye[1]
        d = math.hypot(dx, dy) or 1.0
        off = stage.rng.choice((-1, 1)) * 0.4
        end = (end[0] + dx / d * 2 - dy / d * off, end[1] + dy / d * 2 + dx / d * off, end[2] + 0.3)
    parts = tet.tracers(stage, eye, end, _side(stage, firer), count)
    stage.focus(0.0, 6, "fire", point=end, hold=2.0, distance=24.0, subjects=(eye, end))
    return parts


@handles("roll")
def on_roll(stage: Stage, ev: dict) -> Beat | None:
    purpose = str(ev.get("purpose", ""))
    if purpose == "to hit":
        end = _pos(stage, ev.get("target"), HEIGHT * 0.6)
        parts = _shot(stage, ev.get("firer"), end, 2, bool(ev.get("success")))
        return Beat(Parallel(*parts), 0.45) if parts else None
    if purpose == "MG burst" and ev.get("at"):
        x, y = float(ev["at"][0]), float(ev["at"][1])
        parts = _shot(stage, ev.get("firer"), stage.ground(x, y, 0.2), 8) or []
        parts.append(square(stage, x, y, float(ev.get("square") or 3.0), SQUARE, 2.2, 0.18))
        return Beat(Parallel(*parts), 0.9)
    if purpose == "scatter" and ev.get("landed") and ev.get("heading") is not None:
        lx, ly = float(ev["landed"][0]), float(ev["landed"][1])
        d, h = float(ev.get("result") or 0.0), math.radians(float(ev["heading"]))
        ax, ay = lx - d * math.cos(h), ly - d * math.sin(h)  # the aim, back along the scatter
        line = geom.lines("scatter", [[stage.ground(ax, ay, 0.15), stage.ground(lx, ly, 0.15)]], SCATTER, 3.0)
        mark = fx.flash(stage.root, stage.ground(ax, ay, 0.2), 0.5, SCATTER, life=0.6)
        return Beat(Parallel(fade(line, stage.root, 3.0, 0.8), mark), 0.3)
    return None  # morale, effects, the first mover: the dice tray and the log show them


@handles("blast")
def on_blast(stage: Stage, ev: dict) -> Beat | None:
    at = ev.get("at")
    if not at:
        return None
    x, y = float(at[0]), float(at[1])
    p = stage.ground(x, y, 0.3)
    side = float(ev.get("square") or 1.0)
    fall = stage.cue("explosion", p) if ev.get("square") else None
    parts = [fx.flash(stage.root, p, 2.4, FLASH, life=0.35, delay=0.5),
             fx.burst(stage.root, p, fx.BurstSpec("puff", count=18, spawn=0.1, life=(0.6, 1.3), speed=(1.5, 4.0),
                                                  up=(1.5, 3.5), size=(0.12, 0.4), offset=0.3, color=DIRT,
                                                  drag=1.5, gravity=8.0), stage.rng, delay=0.5),
             square(stage, x, y, side, SQUARE, 3.0, 0.3, delay=0.5)]
    if ev.get("square"):  # the eight squares round it (OBC-36): pinned there, faintly
        parts.append(square(stage, x, y, 3 * side, (1.0, 0.82, 0.35, 1), 3.0, 0.06, delay=0.5))
    if fall is not None:
        parts.append(fall)
    stage.focus(0.0, 7, "blast", point=p, hold=3.0, distance=22.0)
    return Beat(Parallel(*parts), 1.1)


def _fall(stage: Stage, fid: str, dead: bool):
    piece = stage.pieces.figures.get(fid)
    if piece is None:
        return None
    man = piece.man
    grey = 0.5 if dead else 0.15

    def at(k: float) -> None:
        man.set_p(-85.0 * k)
        man.set_color_scale(1 - grey * k, 1 - grey * k, 1 - grey * k, 1)

    return LerpFunctionInterval(at, 0.5, 0.0, 1.0)


@handles("casualty")
def on_casualty(stage: Stage, ev: dict) -> Beat | None:
    fid = str(ev.get("man"))
    p = _pos(stage, fid, HEIGHT * 0.6)
    if p is None:
        return None
    effect = str(ev.get("effect", ""))
    down = effect in ("dead", "disabled") or ev.get("status") in ("dead", "disabled")
    parts = [fx.flash(stage.root, p, 0.5, HIT, life=0.25)]
    words = _say(stage, fid, effect.upper() if effect else str(ev.get("status", "")).upper(),
                 (1.0, 0.4, 0.3, 1) if down else (1.0, 0.82, 0.35, 1))
    if words is not None:
        parts.append(words)
    if down:
        fall = _fall(stage, fid, ev.get("status") == "dead" or effect == "dead")
        if fall is not None:
            parts.append(Sequence(Wait(0.15), fall))
        stage.focus(0.0, 7, "casualty", point=p, hold=2.5, distance=16.0)
    return Beat(Parallel(*parts), 0.5 if down else 0.25)


@handles("morale_outcome", "fled", "leader", "hth")
def on_words(stage: Stage, ev: dict) -> Beat | None:
    fid = ev.get("man") or ev.get("leader") or (ev.get("men") or [None])[0]  # hand-to-hand: the first man
    t = ev.get("type")
    text = {"fled": "FLEES", "leader": "TAKES COMMAND", "hth": "HAND TO HAND"}.get(
        t, str(ev.get("effect", "")).upper())
    words = _say(stage, fid, text, (1.0, 0.82, 0.35, 1) if t != "fled" else (1.0, 0.4, 0.3, 1))
    return Beat(words, 0.3) if words is not None else None


@handles("vehicle_hit", "destroyed")
def on_vehicle_hit(stage: Stage, ev: dict) -> Beat | None:
    vid = str(ev.get("vehicle"))
    p = stage.pieces.chopper_pos(vid)
    if p is None:
        return None
    p = (p.x, p.y, p.z + 0.6)
    parts = [fx.flash(stage.root, p, 1.6, HIT, life=0.35)]
    if ev.get("type") == "destroyed":
        parts.append(fx.burst(stage.root, p, fx.BurstSpec("puff", count=16, spawn=1.0, life=(1.0, 2.2),
                                                          speed=(0.2, 0.8), up=(1.0, 2.0), size=(0.4, 1.2),
                                                          offset=0.6, color=(0.12, 0.11, 0.1, 0.8), drag=1.0,
                                                          gravity=-0.5), stage.rng))
        parts.append(stage.shake(0.4, p))
        stage.focus(0.0, 8, "casualty", point=p, hold=3.0, distance=24.0)
    return Beat(Parallel(*parts), 0.8 if ev.get("type") == "destroyed" else 0.3)


@handles("turn")
def on_turn(stage: Stage, ev: dict) -> Beat:
    show = getattr(stage.scene, "banner", None)
    return Beat(Func(show, f"TURN {ev.get('turn', '?')} OF {ev.get('turns', '?')}", (1.0, 0.82, 0.35, 1))
                if show is not None else None, 0.2)


@handles("smoke")
def on_smoke(stage: Stage, ev: dict) -> Beat | None:
    """OBC-39: a smoke round's cloud billows from where it landed along its drift downwind."""
    if not ev.get("from") or not ev.get("to"):
        return None
    from game.client.obc.figures import cloud_puffs

    parts = []
    for k, (x, y, r) in enumerate(cloud_puffs(ev)):
        spec = fx.BurstSpec("puff", count=6, spawn=0.4, life=(1.6, 2.6), speed=(0.3, 0.9), up=(0.1, 0.4),
                            size=(0.6 * r, 1.4 * r), offset=0.4 * r, color=SMOKE, drag=1.2, rise=0.2, fade_in=0.15)
        parts.append(fx.burst(stage.root, stage.ground(x, y, 0.2), spec, stage.rng, delay=0.08 * k))
    return Beat(Parallel(*parts), 0.5) if parts else None
