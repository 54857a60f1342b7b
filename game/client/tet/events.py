"""Tet '68's events on the table: the presenter's handlers for the ruleset's event types (presenter.py).

A move walks the figure from where it was to where it went (an enemy that came from out of sight fades in
where it is seen); a shot (the d100 ``roll`` "to hit") is a muzzle flash at the firer's eye and tracers to the place on the target, or past him on a miss, the
same dashes and bolts as the Dinky Dau table (effects.rounds: Allied long dashes, insurgent short pairs);
a ``cone`` of automatic fire flashes its triangle on the ground under a sweep of tracers; a ``burst`` (a
grenade, an M79 round) is lobbed to where it lands and blasts a ring as wide as its radius;
the cover roll shows "saved by cover" or a red flash on the man; a wound staggers him, a death drops him;
a duckback sinks him behind his cover with a DUCKED tab; a declared shot, a pass or no shot is a word
over the figure; turn, phase and clearing are banners (the cleared houses are ringed by the view).
Each handler reads the event and the table only; it decides no rule.

``HANDLERS`` and ``LOG_ONLY`` are the kit's registry (``unhandled`` in presenter.py checks them).
"""

from __future__ import annotations

import math

import panda3d.core as p3d
from direct.interval.IntervalGlobal import Func, LerpFunctionInterval, Parallel, Sequence, Wait

from game.client import fx, geom
from game.client.effects import DUST, FLASH, HIT, TRACER, banner, fade, grenade, ring, rounds
from game.client.presenter import Beat, Handler, Stage, registrar
from game.client.tet.figures import HEIGHT

HANDLERS: dict[str, Handler] = {}
LOG_ONLY = frozenset({"game_over", "pass", "hold"})
"""Nothing to show on the table: the log says it (and the app puts up the end of the game)."""
AUTOMATIC = ("m60", "rpd", "smg", "ak47", "m16")
PLACE_Z = {"head": 0.93, "chest": 0.74, "stomach": 0.6, "groin": 0.49, "boots": 0.04}
"""Where on a standing man each place is drawn (a drawing; the engine's evidence gives the real points)."""


handles = registrar(HANDLERS)


def _fig(stage: Stage, fid) -> dict:
    return stage.pieces.elements.get(str(fid or "")) or {}


def _pos(stage: Stage, fid, lift: float = 0.0):
    p = stage.pieces.position(str(fid or ""))
    return None if p is None else (p.x, p.y, p.z + lift)


def _say(stage: Stage, fid, text: str, color=(1.0, 0.82, 0.35, 1), life: float = 1.6, delay: float = 0.0):
    p = _pos(stage, fid)
    if p is None:
        return None
    return banner(stage, text, (p[0], p[1], p[2] - 0.2), color, life=life, scale=0.42, delay=delay)


@handles("move")
def on_move(stage: Stage, ev: dict) -> Beat | None:
    fid = str(ev.get("figure"))
    piece = stage.pieces.figures.get(fid)
    to = ev.get("to")
    if piece is None or not to:
        return None
    start = ev.get("from")
    x1, y1 = float(to[0]), float(to[1])
    if not start:  # it came from where this side could not see: it is simply there
        stage.pieces.place(fid, x1, y1, float(_fig(stage, fid).get("facing", 0.0)))
        piece.node.set_alpha_scale(0.0)
        piece.node.set_transparency(1)
        return Beat(LerpFunctionInterval(piece.node.set_alpha_scale, 0.5, 0.0, 1.0), 0.4)
    x0, y0 = float(start[0]), float(start[1])
    dist = math.hypot(x1 - x0, y1 - y0)
    facing = math.degrees(math.atan2(y1 - y0, x1 - x0)) if dist > 1e-6 else float(_fig(stage, fid).get("facing", 0))
    dur = min(1.6, max(0.35, dist / 7.0))

    def at(k: float) -> None:
        stage.pieces.place(fid, x0 + (x1 - x0) * k, y0 + (y1 - y0) * k, facing)
        piece.node.set_z(piece.node.get_z() + 0.05 * abs(math.sin(k * dist * 2.2)))  # the stride

    stage.focus(0.0, 3, "move", node=piece.node, hold=dur, distance=22.0, path=((x0, y0, 0), (x1, y1, 0)))
    return Beat(Sequence(Func(stage.pieces.place, fid, x0, y0, facing), LerpFunctionInterval(at, dur, 0.0, 1.0)),
                dur)


def _shot(stage: Stage, firer, target, hit: bool | None, auto: bool, point=None) -> Beat | None:
    """Flash and tracers from the firer's eye to the target's body (or ``point``); a miss flies past."""
    eye = stage.pieces.eye(str(firer or ""))
    if eye is None:
        return None
    f = _fig(stage, firer)
    side = f.get("side", "allied")
    if point is not None:
        end = stage.ground(point[0], point[1], 0.3)
    else:
        t = _pos(stage, target)
        if t is None:
            return None
        end = (t[0], t[1], t[2] + HEIGHT * 0.7)
        if hit is False:  # past him, a little high and wide
            dx, dy = end[0] - eye[0], end[1] - eye[1]
            d = math.hypot(dx, dy) or 1.0
            side_off = stage.rng.choice((-1, 1)) * 0.5
            end = (end[0] + dx / d * 3 - dy / d * side_off, end[1] + dy / d * 3 + dx / d * side_off, end[2] + 0.4)
    weapon = f.get("weapon", "")
    count = (8 if weapon in ("m60", "rpd") else 5) if auto else 2
    parts = tracers(stage, (eye[0], eye[1], eye[2] - 0.1), end, side, count)
    stage.focus(0.0, 6, "fire", point=end, hold=2.0, distance=24.0, subjects=(eye, end))
    return Beat(Parallel(*parts), 0.55 if not auto else 0.9)


def tracers(stage: Stage, start, end, side: str, count: int, delay: float = 0.0) -> list:
    """Rounds from a muzzle to a point, drawn for the 20 mm table (bigger and slower than Dinky Dau's 15 mm
    streams): Allied long single dashes with a star at the muzzle, insurgent short paired bolts with a
    round bloom, in the sides' tracer colours (effects.TRACER), a puff of plaster where they strike."""
    rng = stage.rng
    color = TRACER.get(side, FLASH)
    length, thick, dashes, gap = (1.3, 4.0, 1, 0.0) if side == "allied" else (0.55, 6.0, 2, 0.3)
    out, t = [], delay
    for _ in range(count):
        e = (end[0] + rng.uniform(-0.15, 0.15), end[1] + rng.uniform(-0.15, 0.15), end[2] + rng.uniform(-0.15, 0.2))
        out.append(fx.streak(stage.root, start, e, color, length, thick, 32.0, delay=t, dashes=dashes, gap=gap))
        out.append(fx.flash(stage.root, start, 0.75 if side == "allied" else 0.95, FLASH, delay=t, life=0.12,
                            kind="flash" if side == "allied" else "spark"))
        t += 0.12 * (1 + rng.uniform(-0.3, 0.3))
    out.append(fx.burst(stage.root, end, fx.BurstSpec("puff", count=6, spawn=t - delay, life=(0.4, 0.8),
                                                      speed=(0.5, 1.2), up=(0.3, 0.8), size=(0.08, 0.25),
                                                      offset=0.3, color=DUST, drag=3.0, gravity=3.0),
                        rng, delay=delay + 0.25))
    return out


@handles("roll")
def on_roll(stage: Stage, ev: dict) -> Beat | None:
    purpose = str(ev.get("purpose", ""))
    if purpose == "to hit":
        if ev.get("at") is not None:  # a grenade or an M79 round: its burst shows it
            return None
        if ev.get("cone"):  # the cone swept its tracers already: a spark on each man it hit
            p = _pos(stage, ev.get("target"), HEIGHT * 0.7)
            return Beat(fx.flash(stage.root, p, 0.4, FLASH, life=0.15), 0.1) if p and ev.get("hits") else None
        return _shot(stage, ev.get("firer"), ev.get("target"), bool(ev.get("hits")), False)
    if purpose == "hand-to-hand":
        words = _say(stage, ev.get("figure") or ev.get("firer"), "HAND TO HAND", (1.0, 0.45, 0.35, 1), 1.6)
        return Beat(words, 0.5) if words else None
    if purpose == "scatter" and ev.get("from") and ev.get("to"):
        a, b = stage.ground(*ev["from"][:2], 0.25), stage.ground(*ev["to"][:2], 0.25)
        line = geom.lines("scatter", [[a, b]], (1.0, 0.82, 0.35, 1), 3.0)
        return Beat(fade(line, stage.root, 1.6, 0.6), 0.3)
    if purpose == "cover":
        p = _pos(stage, ev.get("target"), HEIGHT * 0.7)
        if p is None:
            return None
        if ev.get("success"):
            flash = fx.flash(stage.root, p, 0.5, HIT, life=0.25)
            return Beat(Parallel(flash, _say(stage, ev.get("target"), "HIT", (1.0, 0.4, 0.3, 1), 1.2) or Wait(0)), 0.3)
        puff = fx.flash(stage.root, p, 0.35, FLASH, life=0.15)
        words = _say(stage, ev.get("target"), "saved by cover", (0.8, 0.85, 0.9, 1), 1.4)
        return Beat(Parallel(puff, words) if words else puff, 0.3)
    return None  # Initiative, Weapon Skill, the d3 of a wound: the dice tray and the log show them


@handles("cone")
def on_cone(stage: Stage, ev: dict) -> Beat | None:
    """TET-13: automatic fire as a cone from the firer to the aim point, as wide there as the event says;
    the cone flashes on the ground and a stream of tracers sweeps across it (each target's roll follows)."""
    apex, corners, aim = ev.get("apex"), ev.get("corners") or [], ev.get("aim")
    eye = stage.pieces.eye(str(ev.get("firer") or ""))
    if not apex or len(corners) != 2 or not aim or eye is None:
        return None
    from game.client.effects import _polygon_fill

    z = stage.height_at(apex[0], apex[1]) + 0.15
    fan = _polygon_fill("cone", [tuple(apex[:2]), tuple(corners[0][:2]), tuple(corners[1][:2])], z,
                        (1.0, 0.55, 0.15, 0.28))
    side = _fig(stage, ev.get("firer")).get("side", "allied")
    kind = "mg" if _fig(stage, ev.get("firer")).get("weapon") in ("m60", "rpd") else "rifle"
    parts = [fade(fan, stage.root, 1.4, 0.6)]
    for k in range(5):  # across the cone, corner to corner
        t = k / 4
        x = corners[0][0] + (corners[1][0] - corners[0][0]) * t
        y = corners[0][1] + (corners[1][1] - corners[0][1]) * t
        parts += rounds(stage, (eye[0], eye[1], eye[2] - 0.45), stage.ground(x, y, 0.6), side, kind, 0.12 * k, 1)
    stage.focus(0.0, 6, "fire", point=stage.ground(*aim[:2]), hold=2.0, distance=26.0, subjects=(eye,))
    return Beat(Parallel(*parts), 0.7)


@handles("burst")
def on_burst(stage: Stage, ev: dict) -> Beat | None:
    """TET-14: a grenade thrown or an M79 round lobbed from the firer to where it lands, and its blast as
    wide as the event's radius."""
    at = ev.get("at")
    if not at:
        return None
    x, y = float(at[0]), float(at[1])
    r = float(ev.get("radius") or 1.0)
    start = stage.pieces.position(str(ev.get("firer") or ""))
    if start is not None:
        start = p3d.LPoint3(start.x, start.y, start.z + HEIGHT * 0.6)
    lob = grenade(stage, start, (x, y), 0.0) if start is not None else None
    land = 0.75 if lob is not None else 0.0
    p = stage.ground(x, y, 0.3)
    blast = Parallel(fx.flash(stage.root, p, 1.2 + r, FLASH, life=0.35),
                     ring(stage, x, y, r, (1.0, 0.55, 0.15, 1), 1.6, 0.15, fill=0.18))
    stage.focus(0.0, 7, "blast", point=p, hold=2.5, distance=24.0)
    return Beat(Parallel(*([lob] if lob is not None else []), Sequence(Wait(land), blast)), land + 0.5)


@handles("declare")
def on_declare(stage: Stage, ev: dict) -> Beat | None:
    words = _say(stage, ev.get("figure"), "takes aim", (1.0, 0.82, 0.35, 1), 1.0)
    return Beat(words, 0.25) if words else None


@handles("no_shot")
def on_no_shot(stage: Stage, ev: dict) -> Beat | None:
    words = _say(stage, ev.get("firer"), "no shot", (0.8, 0.8, 0.8, 1), 1.2)
    return Beat(words, 0.3) if words else None


def _fall(stage: Stage, fid: str, dur: float = 0.6):
    piece = stage.pieces.figures.get(fid)
    if piece is None:
        return None
    man = piece.man

    def at(k: float) -> None:
        man.set_p(-85.0 * k)
        man.set_color_scale(1 - 0.5 * k, 1 - 0.5 * k, 1 - 0.5 * k, 1)

    return LerpFunctionInterval(at, dur, 0.0, 1.0)


@handles("wound")
def on_wound(stage: Stage, ev: dict) -> Beat | None:
    fid = str(ev.get("figure"))
    p = _pos(stage, fid, HEIGHT * 0.7)
    if p is None:
        return None
    dead = ev.get("state") == "dead"
    parts = [fx.flash(stage.root, p, 0.6, HIT, life=0.3)]
    words = _say(stage, fid, "DEAD" if dead else f"-{ev.get('loss', '?')} Initiative", (1.0, 0.4, 0.3, 1), 1.8)
    if words is not None:
        parts.append(words)
    if dead:
        fall = _fall(stage, fid)
        if fall is not None:
            parts.append(Sequence(Wait(0.2), fall))
        stage.focus(0.0, 7, "casualty", point=p, hold=2.5, distance=20.0)
    else:
        piece = stage.pieces.figures[fid]
        parts.append(Sequence(LerpFunctionInterval(piece.man.set_r, 0.12, 0.0, 12.0),
                              LerpFunctionInterval(piece.man.set_r, 0.3, 12.0, 0.0)))
    return Beat(Parallel(*parts), 0.7 if dead else 0.4)


@handles("duckback")
def on_duckback(stage: Stage, ev: dict) -> Beat | None:
    fid = str(ev.get("figure"))
    piece = stage.pieces.figures.get(fid)
    if piece is None:
        return None
    sink = Sequence(LerpFunctionInterval(piece.man.set_sz, 0.25, 1.0, 0.6),
                    LerpFunctionInterval(piece.man.set_sz, 0.4, 0.6, 1.0))
    words = _say(stage, fid, "DUCKS BACK", (1.0, 0.82, 0.35, 1), 1.6)
    return Beat(Parallel(sink, words) if words else sink, 0.5)


def _banner(stage: Stage, text: str, color=(1.0, 0.82, 0.35, 1)) -> Beat:
    show = getattr(stage.scene, "banner", None)
    return Beat(Func(show, text, color) if show is not None else None, 0.2)


@handles("turn")
def on_turn(stage: Stage, ev: dict) -> Beat:
    return _banner(stage, f"TURN {ev.get('turn', '?')} OF {ev.get('turns', '?')}")


@handles("phase")
def on_phase(stage: Stage, ev: dict) -> Beat:
    return _banner(stage, str(ev.get("text") or ev.get("phase", "")).upper())


@handles("clearing")
def on_clearing(stage: Stage, ev: dict) -> Beat:
    n = len(ev.get("cleared") or [])
    total = n + len(ev.get("held") or [])
    return _banner(stage, f"{n} OF {total} HOUSES CLEARED" if total else "END OF TURN", (0.34, 0.71, 0.91, 1))

