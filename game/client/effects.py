"""Combat on the table, as presenter handlers: moves, small arms, hits, casualties, ambushes, assaults,
templates, dust, structures, and the small markers of the hidden war (blinds, echoes, reveals).

Each handler turns one engine event into intervals (see ``presenter``); it never decides a rule. Small
arms are told apart by shape and rhythm as well as colour (PRESENCE.md: red and green alone fail for
deuteranopes): Allied tracers are long thin dashes in a steady beat with a four-point star at the muzzle;
insurgent tracers are short, thick paired bolts in a ragged beat with a round bloom at the muzzle. A
machine gun is a long stream, a rifle team a few rounds, a sniper one fast white streak; a grenade is
lobbed on an arc and bursts; an RPG or recoilless round flies straight on a smoke trail with a backblast.
The weapon comes from the shooters' model keys in the view (presentation data), never from a rule.

``Effects`` is the layer the scene owns (``scene.effects``): the root every sequence builds under.
"""

from __future__ import annotations

import math

import panda3d.core as p3d
from direct.interval.IntervalGlobal import Func, LerpFunctionInterval, Parallel, Sequence, Wait

from game.client import fx, geom
from game.client.pieces import SIDE_COLORS, Pieces, text_node
from game.client.presenter import Beat, Stage, handles

FLASH = (1.0, 0.92, 0.55, 1.0)
HIT = (1.0, 0.12, 0.08, 1.0)
ZONE = (1.0, 0.55, 0.15, 1.0)
DUST = (0.72, 0.64, 0.50, 1.0)
DIRT = (0.42, 0.34, 0.24, 1.0)
TRACER = {"allied": (1.0, 0.42, 0.22, 1.0), "insurgent": (0.55, 1.0, 0.42, 1.0)}
# (dash length, thickness, dashes, gap, rounds per stand, seconds between rounds, ragged beat)
TRACER_SHAPE = {"allied": (0.9, 2.0, 1, 0.0, 1.0, 0.085, 0.0), "insurgent": (0.42, 3.6, 2, 0.22, 1.0, 0.11, 0.5)}
MG_MODELS = ("us_mg_team", "vc_rpd_team", "nva_mg_team")
ROUNDS = {"mg": 12, "rifle": 3, "sniper": 1}
SOUND = {("allied", "mg"): "m60", ("allied", "rifle"): "m16", ("insurgent", "mg"): "rpd",
         ("insurgent", "rifle"): "ak47", ("allied", "sniper"): "sniper", ("insurgent", "sniper"): "sniper"}


class Effects:
    """The effects layer of one table: sequences build their nodes under ``root`` and remove them."""

    def __init__(self, parent: p3d.NodePath, pieces: Pieces, height_at):
        self.root = parent.attach_new_node("effects")
        self.pieces = pieces
        self.height_at = height_at

    def count(self) -> int:
        """Nodes alive under the layer (zero between set pieces)."""
        return 0 if self.root.is_empty() else self.root.get_num_children()

    def clear(self) -> None:
        for child in self.root.get_children():
            child.remove_node()

    def destroy(self) -> None:
        self.root.remove_node()

    def update(self) -> None:
        """Kept for callers of the old fade list: intervals now run on the task loop by themselves."""


# -- small pieces ----------------------------------------------------------------------------------------
def fade(node: p3d.NodePath, parent: p3d.NodePath, life: float, fade_s: float = 0.4, grow: float = 0.0,
         animate=None, delay: float = 0.0) -> Sequence:
    """Show ``node`` for ``life`` seconds, growing by ``grow`` and fading out over the last ``fade_s``."""
    node.reparent_to(parent)
    node.set_transparency(p3d.TransparencyAttrib.M_alpha)
    node.hide()
    fade_s = min(fade_s, life)

    def at(k: float) -> None:
        left = (1 - k) * life
        node.set_alpha_scale(max(0.0, min(1.0, left / fade_s)) if fade_s else 1.0)
        if grow:
            node.set_scale(max(0.05, 1.0 + grow * k))
        if animate is not None:
            animate(k)

    return Sequence(Wait(delay), Func(node.show), LerpFunctionInterval(at, life, 0.0, 1.0), Func(node.hide))


def ring(stage: Stage, x: float, y: float, r: float, color, life: float, grow: float = 0.0, width: float = 4.0,
         fill: float = 0.0, delay: float = 0.0, lift: float = 0.12) -> Sequence:
    node = p3d.NodePath("ring")
    geom.lines("ring-line", [geom.circle_points(0, 0, r, 0, 48)], color, width).reparent_to(node)
    if fill:
        geom.disc("ring-fill", r, (*color[:3], fill)).reparent_to(node)
    node.set_pos(x, y, stage.height_at(x, y) + lift)
    return fade(node, stage.root, life, min(1.0, life / 2), grow, delay=delay)


def banner(stage: Stage, text: str, pos, color, life: float = 2.5, scale: float = 0.9, delay: float = 0.0):
    node = text_node(text, scale, color)
    node.set_pos(pos[0], pos[1], pos[2] + 2.2)
    return fade(node, stage.root, life, 0.6, delay=delay)


def weapon_of(stage: Stage, sid: str) -> str:
    s = next((s for s in stage.pieces.view.get("stands", []) if s.get("id") == sid), {})
    key = str(s.get("model") or s.get("type") or "")
    return "mg" if key in MG_MODELS else "sniper" if "sniper" in key else "rifle"


def muzzle(stage: Stage, pos, side: str, delay: float, size: float = 0.5) -> Sequence:
    """Allied: a four-point star; insurgent: a round bloom."""
    kind = "flash" if side == "allied" else "spark"
    return fx.flash(stage.root, (pos[0], pos[1], pos[2] + 0.35), size * (1.0 if kind == "flash" else 1.3),
                    FLASH, delay=delay, life=0.09)


def rounds(stage: Stage, start, end, side: str, weapon: str, delay: float, count: int | None = None) -> list:
    """A stream of tracers and muzzle flashes from ``start`` to ``end`` (points), shaped by side and weapon."""
    rng = stage.rng
    length, thick, dashes, gap, _, beat, ragged = TRACER_SHAPE.get(side, TRACER_SHAPE["allied"])
    color = TRACER.get(side, FLASH)
    n = count if count is not None else ROUNDS[weapon]
    out = []
    t = delay
    for k in range(n):
        spread = 0.35 if weapon == "mg" else 0.2
        e = (end[0] + rng.uniform(-spread, spread), end[1] + rng.uniform(-spread, spread),
             end[2] + rng.uniform(0.0, 0.4))
        s = (start[0], start[1], start[2] + 0.35)
        if weapon == "sniper":
            out.append(fx.streak(stage.root, s, e, (1, 1, 1, 1), 1.6, 1.5, 140.0, delay=t))
        elif k % (1 if weapon == "mg" else 2) == 0:  # a rifle team's tracer every other round
            out.append(fx.streak(stage.root, s, e, color, length, thick, 55.0, delay=t, dashes=dashes, gap=gap))
        out.append(muzzle(stage, start, side, t, 0.35 if weapon != "mg" else 0.45))
        t += beat * (1 + rng.uniform(-ragged, ragged)) + (0.25 if weapon == "rifle" and k % 3 == 2 else 0)
    out.append(fx.burst(stage.root, (end[0], end[1], stage.height_at(end[0], end[1]) + 0.05),
                        fx.BurstSpec("puff", count=min(10, 2 + n), spawn=t - delay, life=(0.4, 0.8), speed=(0.5, 1.5),
                                     up=(0.5, 1.0), size=(0.08, 0.3), offset=0.6, color=DIRT, drag=3.0, gravity=4.0),
                        rng, delay=delay + 0.08))
    return out


# -- moves -------------------------------------------------------------------------------------------
@handles("move", "retreat")
def on_move(stage: Stage, ev: dict) -> Beat:
    parts, dur = [], 0.0
    lead = None  # the first mover and its way: the director's camera runs ahead of it
    for s in ev.get("stands", []):
        piece = stage.pieces.stands.get(s.get("id"))
        to = s.get("to")
        if piece is None or not to:
            continue
        start = s.get("from")
        here = piece.node.get_pos()
        x0, y0 = (start[0], start[1]) if start else (here.x, here.y)
        h0 = float(start[2]) if start and len(start) > 2 else piece.node.get_h()
        x1, y1 = float(to[0]), float(to[1])
        h1 = float(to[2]) if len(to) > 2 else h0
        h1 = h0 + ((h1 - h0 + 180) % 360 - 180)
        d = min(1.6, 0.3 + math.hypot(x1 - x0, y1 - y0) * 0.06)
        node = piece.node
        lead = lead or (node, (stage.ground(x0, y0), stage.ground(x1, y1)))

        def at(k: float, node=node, x0=x0, y0=y0, x1=x1, y1=y1, h0=h0, h1=h1) -> None:
            e = k * k * (3 - 2 * k)
            x, y = x0 + (x1 - x0) * e, y0 + (y1 - y0) * e
            node.set_pos(x, y, stage.height_at(x, y))
            node.set_h(h0 + (h1 - h0) * e)

        parts.append(LerpFunctionInterval(at, d, 0.0, 1.0))
        dur = max(dur, d)
    if ev.get("frozen"):
        stops = [s["to"] for s in ev.get("stands", []) if s.get("to")]
        if stops:
            x = sum(s[0] for s in stops) / len(stops)
            y = sum(s[1] for s in stops) / len(stops)
            why = "AMBUSH!" if ev.get("reaction") == "ambush" else "OPPORTUNITY FIRE"
            parts.append(ring(stage, x, y, 2.6, (1.0, 0.85, 0.2, 1), 4.0, width=5, delay=dur))
            parts.append(banner(stage, f"STOPPED HERE\n{why}", stage.ground(x, y), (1.0, 0.85, 0.2, 1), 4.0, 0.7, dur))
    if parts:
        pts = [s["to"] for s in ev.get("stands", []) if s.get("to")]
        if pts:
            stage.focus(0, 3, "move", stage.ground(sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)),
                        hold=3.0, distance=34.0, node=lead[0] if lead else None, path=lead[1] if lead else None)
    return Beat(Parallel(*parts) if parts else None, dur + (0.4 if ev.get("frozen") else 0.0))


@handles("blind_move")
def on_blind_move(stage: Stage, ev: dict) -> Beat | None:
    node = stage.pieces.blinds.get(ev.get("blind"))
    a, b = ev.get("from"), ev.get("to")
    if node is None or not a or not b:
        return None
    d = min(1.4, 0.3 + math.hypot(b[0] - a[0], b[1] - a[1]) * 0.06)

    def at(k: float) -> None:
        e = k * k * (3 - 2 * k)
        x, y = a[0] + (b[0] - a[0]) * e, a[1] + (b[1] - a[1]) * e
        node.set_pos(x, y, stage.height_at(x, y))

    return Beat(LerpFunctionInterval(at, d, 0.0, 1.0), d * 0.5)


# -- fire ----------------------------------------------------------------------------------------------
def _target_point(stage: Stage, ev: dict):
    p = stage.stand_pos(ev.get("target"))
    if p is not None:
        return (p.x, p.y, p.z)
    if ev.get("blind") in stage.pieces.blinds:
        q = stage.pieces.blinds[ev["blind"]].get_pos()
        return (q.x, q.y, q.z)
    zone = stage.presenter.zones.get(ev.get("element"))
    if zone is not None:
        return stage.ground(*zone, 0.1)
    return None


@handles("fire")
def on_fire(stage: Stage, ev: dict) -> Beat:
    kind = ev.get("kind")
    side = ev.get("side", "allied")
    shooters = [s for s in (ev.get("stands") or stage.element_stands(ev.get("element"))) if s in stage.pieces.stands]
    target = _target_point(stage, ev)
    parts = []
    if kind == "grenade" and target is not None:
        for k, sid in enumerate(shooters[:2]):
            parts.append(grenade(stage, stage.stand_pos(sid), target, 0.15 * k))
        lead = 1.2
    elif kind in ("recoilless", "backblast") and target is not None and kind == "recoilless":
        for sid in shooters[:1]:
            parts.append(rocket(stage, stage.stand_pos(sid), target, 0.0))
        lead = 1.0
    else:
        for k, sid in enumerate(shooters):
            p = stage.stand_pos(sid)
            start = (p.x, p.y, p.z)
            weapon = weapon_of(stage, sid)
            delay = 0.03 * k + stage.rng.uniform(0, 0.1)
            if target is None:
                parts.append(muzzle(stage, start, side, delay))
                continue
            parts += rounds(stage, start, target, side, weapon, delay)
            if k == 0 or weapon == "mg":
                parts.append(stage.cue(SOUND.get((side, weapon), "m16"), start))
        lead = 0.6
    if kind == "ambush":
        for sid in shooters:
            p = stage.stand_pos(sid)
            parts.append(ring(stage, p.x, p.y, 1.3, SIDE_COLORS["insurgent"], 1.5, grow=1.0, width=6, fill=0.3))
    if target is not None and shooters:
        a = stage.stand_pos(shooters[0])
        mid = ((a.x + target[0]) / 2, (a.y + target[1]) / 2, (a.z + target[2]) / 2)
        dist = math.hypot(a.x - target[0], a.y - target[1])
        stage.focus(0, 8 if kind == "ambush" else 6, "fire", mid, hold=4.0, distance=max(30.0, min(90.0, dist * 2.2 + 20)),
                    subjects=((a.x, a.y, a.z), target))
    return Beat(Parallel(*parts) if parts else None, lead)


def grenade(stage: Stage, start, target, delay: float) -> Sequence:
    """A grenade lobbed on an arc; a sharp round burst of grey smoke where it lands."""
    if start is None:
        return Sequence()
    ball = geom.disc("grenade", 0.09, (0.15, 0.18, 0.12, 1))
    ball.set_billboard_point_eye()
    ball.reparent_to(stage.root)
    ball.hide()
    sx, sy, sz = start.x, start.y, start.z + 0.5
    tx, ty, tz = target[0], target[1], stage.height_at(target[0], target[1]) + 0.1

    def at(k: float) -> None:
        ball.set_pos(sx + (tx - sx) * k, sy + (ty - sy) * k, sz + (tz - sz) * k + 3.0 * k * (1 - k))

    land = (tx, ty, tz)
    return Sequence(Wait(delay), Func(ball.show), LerpFunctionInterval(at, 0.7, 0.0, 1.0), Func(ball.hide),
                    Parallel(fx.flash(stage.root, land, 0.9, (1, 0.8, 0.5, 1), life=0.15),
                             fx.burst(stage.root, land, fx.BurstSpec("puff", count=8, life=(0.8, 1.4), speed=(1, 2.5),
                                                                     up=(0.2, 0.8), size=(0.2, 0.8),
                                                                     color=(0.55, 0.55, 0.52, 0.9), drag=3.0, rise=0.3),
                                      stage.rng),
                             stage.cue("grenade", land)))


def rocket(stage: Stage, start, target, delay: float) -> Sequence:
    """An RPG or recoilless round: backblast, a straight smoky trail, a fireball."""
    if start is None:
        return Sequence()
    s = (start.x, start.y, start.z + 0.4)
    e = (target[0], target[1], target[2] + 0.3)
    dist = math.hypot(e[0] - s[0], e[1] - s[1]) or 1e-6
    heading = math.degrees(math.atan2(s[1] - e[1], s[0] - e[0]))
    fly_s = max(0.25, dist / 30.0)
    trail = []
    for i in range(int(dist / 0.8) + 1):  # the smoke trail is left along the line as the round passes
        k = i / max(1, int(dist / 0.8))
        p = (s[0] + (e[0] - s[0]) * k, s[1] + (e[1] - s[1]) * k, s[2] + (e[2] - s[2]) * k)
        trail.append(fx.burst(stage.root, p, fx.BurstSpec("puff", count=1, life=(1.2, 1.8), speed=(0, 0.1),
                                                          size=(0.12, 0.5), color=(0.85, 0.85, 0.82, 0.7), rise=0.2),
                              stage.rng, delay=delay + fly_s * k))
    return Sequence(Wait(delay), Parallel(
        stage.cue("rpg", s),
        fx.burst(stage.root, s, fx.BurstSpec("puff", count=6, life=(0.6, 1.2), speed=(1.5, 3), cone=50, heading=heading,
                                             up=(0.0, 0.3), size=(0.2, 0.7), color=(0.8, 0.78, 0.72, 0.8), drag=3.0),
                 stage.rng),
        fx.streak(stage.root, s, e, (1.0, 0.85, 0.5, 1), 0.35, 5.0, dist / fly_s),
        *trail,
        Sequence(Wait(fly_s), fx.flash(stage.root, e, 1.4, (1, 0.7, 0.3, 1), life=0.25)),
        fx.burst(stage.root, e, fx.BurstSpec("puff", count=8, life=(0.8, 1.6), speed=(1, 2.5), up=(0.3, 1.0),
                                             size=(0.2, 0.9), color=(0.3, 0.28, 0.26, 0.9), rise=0.5, drag=2.0),
                 stage.rng, delay=fly_s)))


@handles("hit")
def on_hit(stage: Stage, ev: dict) -> Beat | None:
    p = stage.stand_pos(ev.get("stand"))
    if p is None:
        return None
    return Beat(ring(stage, p.x, p.y, 1.2, HIT, 1.6, grow=0.6, fill=0.25), 0.25)


@handles("casualty")
def on_casualty(stage: Stage, ev: dict) -> Beat | None:
    piece = stage.pieces.stands.get(ev.get("stand"))
    x, y = ev.get("x"), ev.get("y")
    parts = []
    if piece is not None:
        p = piece.node.get_pos()
        x, y = p.x, p.y
        # the stand leaves the table when the view comes; a copy topples and fades where it stood
        holder = p3d.NodePath("fallen")
        ghost = piece.node.copy_to(holder)
        ghost.set_transparency(p3d.TransparencyAttrib.M_alpha)
        ghost.set_bin("transparent", 25)
        ghost.set_pos(0, 0, 0)
        holder.set_pos(p)
        holder.set_h(piece.node.get_h())
        parts.append(fade(holder, stage.root, 2.2, 1.4, animate=lambda k: ghost.set_r(80 * min(1.0, k * 3.5) ** 2)))
        stage.focus(0, 7, "casualty", (x, y, p.z), hold=3.0, distance=22.0)
    if x is None or y is None:
        return Beat(Parallel(*parts), 0.0) if parts else None
    parts.append(ring(stage, x, y, 1.4, HIT, 2.0, grow=0.8, width=5))
    parts.append(banner(stage, "X", stage.ground(x, y), HIT, 1.8, 0.7))
    return Beat(Parallel(*parts), 0.35)


@handles("fade")
def on_fade(stage: Stage, ev: dict) -> Beat | None:
    parts = []
    for sid in ev.get("stands") or []:
        piece = stage.pieces.stands.get(sid)
        if piece is None:
            continue
        holder = p3d.NodePath("fading")
        piece.node.copy_to(holder).set_pos(0, 0, 0)
        holder.set_pos(piece.node.get_pos())
        holder.set_h(piece.node.get_h())
        parts.append(fade(holder, stage.root, 1.6, 1.5))
    return Beat(Parallel(*parts), 0.3) if parts else None


@handles("eliminated")
def on_eliminated(stage: Stage, ev: dict) -> Beat:
    return Beat(None, 0.3)


@handles("ambush")
def on_ambush(stage: Stage, ev: dict) -> Beat | None:
    stands = stage.element_stands(ev.get("element"))
    parts = []
    for sid in stands:
        p = stage.stand_pos(sid)
        parts.append(ring(stage, p.x, p.y, 1.3, SIDE_COLORS["insurgent"], 1.5, grow=1.0, width=6, fill=0.3))
        for burst_ in range(4):
            parts.append(fx.flash(stage.root, (p.x, p.y, p.z + 0.4), 0.8, FLASH, delay=0.1 * burst_, life=0.12,
                                  kind="spark"))
    if not stands:
        return None
    p = stage.stand_pos(stands[0])
    parts.append(banner(stage, "AMBUSH!", (p.x, p.y, p.z), (1.0, 0.3, 0.2, 1), 3.0, 1.4))
    stage.focus(0, 8, "ambush", (p.x, p.y, p.z), hold=5.0, distance=40.0)
    return Beat(Parallel(*parts), 0.8)


@handles("assault")
def on_assault(stage: Stage, ev: dict) -> Beat | None:
    a = stage.pieces.element_centre(ev.get("element") or "")
    d = stage.pieces.element_centre(ev.get("target_element") or "")
    if a is None or d is None:
        return None
    mid = (a + d) / 2
    parts = [fx.flash(stage.root, (mid.x, mid.y, mid.z + 0.5), 1.0, (1.0, 0.75, 0.3, 1), delay=0.15 * k)
             for k in range(4)]
    parts.append(ring(stage, mid.x, mid.y, 2.0, (1.0, 0.75, 0.3, 1), 1.6, grow=0.5, width=5))
    parts.append(banner(stage, "CLOSE ASSAULT", (mid.x, mid.y, mid.z), (1.0, 0.82, 0.35, 1), 2.5, 1.0))
    stage.focus(0, 8, "assault", (mid.x, mid.y, mid.z), hold=5.0, distance=28.0)
    return Beat(Parallel(*parts), 0.8)


@handles("assault_result")
def on_assault_result(stage: Stage, ev: dict) -> Beat | None:
    w = stage.pieces.element_centre(ev.get("winner") or "")
    return None if w is None else Beat(ring(stage, w.x, w.y, 2.5, (1.0, 0.9, 0.4, 1), 2.0, grow=0.3, width=5), 0.5)


@handles("surrounded")
def on_surrounded(stage: Stage, ev: dict) -> Beat | None:
    c = stage.pieces.element_centre(ev.get("element") or "")
    return None if c is None else Beat(ring(stage, c.x, c.y, 3.0, HIT, 2.0, grow=-0.5, width=6), 0.3)


@handles("template")
def on_template(stage: Stage, ev: dict) -> Beat | None:
    kind = ev.get("kind")
    if kind == "beaten_zone" and "x" in ev:
        x, y, r = float(ev["x"]), float(ev["y"]), float(ev.get("radius", 1.5))
        if ev.get("element"):
            stage.presenter.zones[ev["element"]] = (x, y)
        spurts = [fx.burst(stage.root, stage.ground(x + r * 0.8 * math.cos(a), y + r * 0.8 * math.sin(a), 0.05),
                           fx.BurstSpec("puff", count=3, life=(0.4, 0.8), speed=(0.5, 1.2), up=(0.7, 1.0),
                                        size=(0.08, 0.3), color=DIRT, gravity=4.0), stage.rng, delay=0.3 + 0.12 * k)
                  for k, a in enumerate(stage.rng.uniform(0, 2 * math.pi) for _ in range(8))]
        return Beat(Parallel(ring(stage, x, y, r, ZONE, 4.0, width=4, fill=0.28), *spurts), 0.3)
    if kind == "backblast" and ev.get("polygon"):
        pts = [(float(px), float(py)) for px, py in ev["polygon"]]
        z = max(stage.height_at(px, py) for px, py in pts) + 0.12
        node = _polygon_fill("backblast", pts, z, (*ZONE[:3], 0.35))
        geom.lines("backblast-edge", [[(px, py, z) for px, py in pts + pts[:1]]], ZONE, 3).reparent_to(node)
        return Beat(fade(node, stage.root, 3.5, 1.5), 0.3)
    if kind == "grazing_corridor" and ev.get("from") and ev.get("to"):
        (x0, y0), (x1, y1) = ev["from"][:2], ev["to"][:2]
        node = corridor_node(x0, y0, x1, y1, float(ev.get("width", 1.0)), stage.height_at, (*ZONE[:3], 0.3))
        return Beat(fade(node, stage.root, 3.0, 1.5), 0.3)
    if "landed" in stage.notes and "x" in ev and (ev.get("radius") or ev.get("points")):
        # a fire-support template (DD-8.10): its outline shows once the rounds are down, then fades
        delay = max(0.0, stage.notes["landed"] + 1.0 - stage.now)
        if ev.get("points"):
            pts = [(float(px), float(py)) for px, py in ev["points"]]
        else:
            r = float(ev["radius"])
            pts = [(float(ev["x"]) + r * math.cos(a), float(ev["y"]) + r * math.sin(a))
                   for a in (2 * math.pi * k / 40 for k in range(40))]
        z = max(stage.height_at(px, py) for px, py in pts[::4]) + 0.15
        node = geom.lines("template-edge", [[(px, py, z) for px, py in pts + pts[:1]]], (*ZONE[:3], 0.8), 2.5)
        return Beat(fade(node, stage.root, 4.0, 1.5, delay=delay), 0.0)
    return None


@handles("smoke")
def on_smoke(stage: Stage, ev: dict) -> Beat | None:
    if "x" not in ev:
        return None
    if ev.get("kind") in ("wp", "marking", "spoof", "burning"):  # fire support's (DD chapter 8)
        from game.client.airstrike import on_smoke_kind

        return on_smoke_kind(stage, ev)
    x, y, r = float(ev["x"]), float(ev["y"]), float(ev.get("radius", 1.0))
    spec = fx.BurstSpec("puff", count=14, spawn=0.6, life=(2.0, 3.2), speed=(0.5, 1.5), up=(0.1, 0.5),
                        size=(0.4 * r, 1.1 * r), offset=0.5 * r, color=DUST, drag=1.2, rise=0.25, fade_in=0.15)
    return Beat(fx.burst(stage.root, stage.ground(x, y, 0.3), spec, stage.rng), 0.4)


@handles("structure")
def on_structure(stage: Stage, ev: dict) -> Beat | None:
    x, y = ev.get("x"), ev.get("y")
    if x is None or y is None:
        return None
    p = stage.ground(float(x), float(y), 0.1)
    parts = [fx.flash(stage.root, (p[0], p[1], p[2] + 0.6), 1.6, (1.0, 0.6, 0.2, 1), delay=0.08 * k, life=0.3)
             for k in range(4)]
    parts.append(fx.burst(stage.root, p, fx.BurstSpec("puff", count=14, life=(1.5, 2.6), speed=(1, 3), up=(0.3, 0.9),
                                                      size=(0.4, 1.4), color=DUST, drag=1.5, rise=0.3), stage.rng))
    parts.append(banner(stage, str(ev.get("state", "")).upper(), p, (1.0, 0.75, 0.4, 1), 2.5, 0.8))
    parts.append(stage.cue("explosion_small", p))
    stage.focus(0, 8, "structure", p, hold=4.0, distance=30.0)
    return Beat(Parallel(*parts), 0.6)


# -- the hidden war: blinds, echoes, reveals (positions the event itself gives) ------------------------
@handles("echo", "echo_lost", "blind_removed", "blind_placed", "blind")
def on_marker(stage: Stage, ev: dict) -> Beat | None:
    x, y = ev.get("x"), ev.get("y")
    if x is None and isinstance(ev.get("to"), list):
        x, y = ev["to"][:2]
    if x is None or y is None:
        return None
    color = SIDE_COLORS.get(ev.get("side"), (0.95, 0.88, 0.55, 1))
    return Beat(ring(stage, float(x), float(y), 1.0, color, 1.2, grow=0.8, width=4), 0.1)


@handles("reveal")
def on_reveal(stage: Stage, ev: dict) -> Beat | None:
    parts = []
    for s in ev.get("stands") or []:
        if "x" in s and "y" in s:
            parts.append(ring(stage, float(s["x"]), float(s["y"]), 1.2, SIDE_COLORS.get(ev.get("side"), FLASH), 1.4,
                              grow=-0.4, width=5))
    if not parts:
        return None
    s0 = ev["stands"][0]
    stage.focus(0, 5, "reveal", stage.ground(s0["x"], s0["y"]), hold=3.0, distance=30.0)
    return Beat(Parallel(*parts), 0.3)


@handles("litter")
def on_litter(stage: Stage, ev: dict) -> Beat | None:
    if "x" not in ev:
        return None
    color = (0.95, 0.95, 0.95, 1) if ev.get("on") else (0.6, 0.6, 0.6, 1)
    return Beat(ring(stage, float(ev["x"]), float(ev["y"]), 0.9, color, 1.2, width=4, fill=0.2), 0.2)


def _polygon_fill(name: str, pts: list[tuple[float, float]], z: float, color) -> p3d.NodePath:
    """A flat convex-ish fan over ``pts`` (templates are convex: cones, corridors)."""
    fmt = p3d.GeomVertexFormat.get_v3c4()
    vdata = p3d.GeomVertexData(name, fmt, p3d.Geom.UH_static)
    vw = p3d.GeomVertexWriter(vdata, "vertex")
    cw = p3d.GeomVertexWriter(vdata, "color")
    for x, y in pts:
        vw.add_data3(x, y, z)
        cw.add_data4(*color)
    tris = p3d.GeomTriangles(p3d.Geom.UH_static)
    for i in range(1, len(pts) - 1):
        tris.add_vertices(0, i, i + 1)
    g = p3d.Geom(vdata)
    g.add_primitive(tris)
    node = p3d.GeomNode(name)
    node.add_geom(g)
    np_ = geom.overlay(p3d.NodePath(node))
    np_.set_two_sided(True)
    return np_


def corridor_node(x0: float, y0: float, x1: float, y1: float, width: float, height_at, color) -> p3d.NodePath:
    """A flat strip ``width`` wide from (x0, y0) to (x1, y1): grazing fire, an Overwatch corridor."""
    length = math.hypot(x1 - x0, y1 - y0) or 1e-6
    nx, ny = -(y1 - y0) / length * width / 2, (x1 - x0) / length * width / 2
    z = max(height_at(x0, y0), height_at(x1, y1), height_at((x0 + x1) / 2, (y0 + y1) / 2)) + 0.1
    pts = [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)]
    node = _polygon_fill("corridor", pts, z, color)
    geom.lines("corridor-edge", [[(px, py, z) for px, py in pts + pts[:1]]], (*color[:3], 1.0), 2.5).reparent_to(node)
    return node
