"""Armour and boats in action, as presenter handlers: anti-tank fire, armour results, damage, brew-ups,
wrecks, bail-outs, mounting and dismounting, crew states and mines.

* ``at_fire`` {stand, target, weapon, x0, y0, x1, y1, hit}: a turreted shooter first traverses (eased)
  toward the target. An RPG or LAW is a backblast and a rocket on a smoke trail (``effects.rocket``); a
  tank gun or recoilless rifle a muzzle flash, dust thrown up round the muzzle, the gun recoiling and the
  hull rocking, and a fast tracer (a recoilless rifle's backblast behind it); a heavy MG or autocannon a
  short stream of tracers. A miss flies on past the hull and kicks up the ground beyond.
* ``armour`` {vehicle, result}: a ricochet is a shower of sparks and the spent round whining off upward;
  a penetration a white flash on the hull and a puff of smoke from inside; no effect a dull spark.
* ``vehicle_damage`` {vehicle, result, hp}: the hull jolts, smoke puffs, and a word over it (MOBILITY
  KILL, WEAPONS OUT...) with the hull points left.
* ``brew_up`` {vehicle, x, y, radius}: a fireball, the turret tossed up and falling askew, burning, a
  column of black smoke, the blast ring the engine's radius gives on the ground, a camera shake; the hull
  turns to its wreck at the fireball (``wreck``, which the engine tells first, turns it a moment later,
  with a wisp of smoke). The view then carries the wreck as a ``wreck`` marker drawn by its roster's
  model, burnt (``pieces``), which smokes as long as it stands (``setpieces.Landed``).
* ``bailout`` {vehicle, elements}: crewmen hop out of the hatches and throw themselves flat.
* ``mount`` / ``dismount`` {element, vehicle}: the element's stands slide into the hull's rear, or men
  trot out of it; a craft with a ramp lowers it meanwhile.
* ``crew`` {vehicle, state}: a hatch icon over the vehicle (buttoned: the lid shut on it), a word for a
  stunned or rallied crew; the crewman in the hatch goes or comes back.
* ``mine`` {x, y, result}: on water a geyser of spray and a ring of foam; on land a blast.

The ordinary ``fire`` and ``move`` handlers (``effects``) are wrapped, not copied: a vehicle that fires
its MGs traverses its turret first and its tracers leave the gun, not the ground; a craft that moves
leaves a wake, a tracked or wheeled vehicle a little dust. Every node is built under the batch's root and
goes with it; the only things that outlast a batch are the vehicle's own (a wreck's tint and its smoke:
``game/client/vehicles.py``). Cosmetic randomness is the presenter's seeded ``stage.rng``.

What it leaves out: no gun elevation, no track links flying, no burning fuel pooling on water.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import panda3d.core as p3d
from direct.interval.IntervalGlobal import Func, Parallel, Sequence, Wait

from game.client import fx, geom, vehicles
from game.client.effects import DUST, FLASH, HIT, ZONE, banner, fade, ring, rocket
from game.client.pieces import SIDE_COLORS
from game.client.presenter import HANDLERS, Beat, Stage, handles

BLACK_SMOKE = (0.12, 0.11, 0.1, 0.85)
GREY_SMOKE = (0.45, 0.44, 0.42, 0.75)
FIRE = (1.0, 0.55, 0.15, 0.9)
SPARK = (1.0, 0.85, 0.45, 1.0)
SPRAY = (0.9, 0.94, 0.96, 0.85)
CLOD = (0.28, 0.22, 0.15, 1.0)
TRACER_GUN = (1.0, 0.9, 0.6, 1.0)
ROCKETS = ("rpg", "b40", "b41", "law", "m72", "bazooka")
RECOILLESS = ("rr", "recoilless", "b10", "spg9")  # a weapon id that starts so (game/data/armour.toml: rr57 ...)
BURSTS = ("hmg", "twin", "cannon", "dshk", "m60", "coax", "sgmb", "spotting", "gun40", "mk18", "zpu")
GUN_SPEED = 160.0  # inches a second: a tank round's tracer (a rocket flies at effects.rocket's 30)
WORDS = {"scrape": "SCRAPED", "mobility": "MOBILITY KILL", "weapons": "WEAPONS OUT", "bailout": "BAIL OUT!",
         "knocked_out": "KNOCKED OUT", "brewed_up": "BREWED UP"}
CREW_WORDS = {"buttoned": "BUTTONED UP", "unbuttoned": "UNBUTTONED", "stunned": "CREW STUNNED",
              "rallied": "CREW RALLIED"}
WATER = ("stream", "river", "paddy", "water", "canal", "pond")


# -- what the events name ------------------------------------------------------------------------------
def piece_of(stage: Stage, ref):
    """The stand piece an event names: a stand id, or an element id (its first stand)."""
    if not isinstance(ref, str):
        return None
    piece = stage.pieces.stands.get(ref)
    if piece is None:
        stands = stage.element_stands(ref)
        piece = stage.pieces.stands.get(stands[0]) if stands else None
    return piece


def kit_of(stage: Stage, ref):
    piece = piece_of(stage, ref)
    return None if piece is None else piece.kit


def weapon_kind(weapon) -> str:
    """``rocket`` (RPG, LAW), ``recoilless``, ``burst`` (a heavy MG or autocannon) or ``gun``, from the
    weapon's id (presentation only)."""
    w = str(weapon or "").lower()
    if any(k in w for k in ROCKETS):
        return "rocket"
    if w.startswith(RECOILLESS):
        return "recoilless"
    if any(k in w for k in BURSTS):
        return "burst"
    return "gun"


def on_water(stage: Stage, x: float, y: float) -> bool:
    from shapely.geometry import Point

    from game.client.table import feature_shape

    pt = Point(x, y)
    for f in getattr(stage.scene.table, "features", []) or []:
        if str(f.get("type")) in WATER:
            try:
                if feature_shape(f).contains(pt):
                    return True
            except Exception:  # noqa: BLE001 - a malformed feature is no water
                continue
    return False


def _pt(p) -> tuple[float, float, float]:
    return (float(p[0]), float(p[1]), float(p[2]))


# -- anti-tank fire ------------------------------------------------------------------------------------
@handles("at_fire")
def on_at_fire(stage: Stage, ev: dict) -> Beat | None:
    shooter = piece_of(stage, ev.get("stand")) or piece_of(stage, ev.get("element"))
    target = piece_of(stage, ev.get("target"))
    x0, y0 = ev.get("x0"), ev.get("y0")
    x1, y1 = ev.get("x1"), ev.get("y1")
    if x0 is None and shooter is not None:
        x0, y0 = shooter.node.get_x(), shooter.node.get_y()
    if x1 is None and target is not None:
        x1, y1 = target.node.get_x(), target.node.get_y()
    if None in (x0, y0, x1, y1):
        return None
    x0, y0, x1, y1 = float(x0), float(y0), float(x1), float(y1)
    kit = shooter.kit if shooter is not None else None
    tkit = target.kit if target is not None else None
    parts, t = [], 0.0
    if kit is not None:
        trav, t = kit.traverse(x1, y1)
        if trav is not None:
            parts.append(trav)
        start = _pt(kit.muzzle((x1, y1)))
    else:
        start = stage.ground(x0, y0, 0.45)
    if tkit is not None:
        end = _pt(tkit.struck_at(x0, y0))
    else:
        end = stage.ground(x1, y1, 0.5)
    if not ev.get("hit", True):  # a miss flies on past the hull and lands beyond it
        dx, dy = end[0] - start[0], end[1] - start[1]
        d = math.hypot(dx, dy) or 1.0
        side = stage.rng.uniform(-0.6, 0.6)
        mx, my = end[0] + dx / d * 5.0 - dy / d * side, end[1] + dy / d * 5.0 + dx / d * side
        end = stage.ground(mx, my, 0.05)
    kind = weapon_kind(ev.get("weapon"))
    dist = math.hypot(end[0] - start[0], end[1] - start[1])
    if kind == "rocket":
        # effects.rocket lifts its start 0.4" (a man's shoulder) and its end 0.3" (a stand's middle)
        s = SimpleNamespace(x=start[0], y=start[1], z=start[2] - (0.4 if kit is not None else 0.0))
        parts.append(rocket(stage, s, (end[0], end[1], end[2] - 0.3), t))
        fly = max(0.25, dist / 30.0)
    else:
        parts += gun_shot(stage, kit, start, end, kind, t, hit=bool(ev.get("hit", True)))
        fly = max(0.08, dist / GUN_SPEED)
    stage.notes["at_fire"] = {"target": ev.get("target"), "from": (start[0], start[1]), "point": end,
                              "hit": bool(ev.get("hit", True))}
    mid = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, (start[2] + end[2]) / 2)
    stage.focus(0, 8, "at_fire", mid, hold=3.5, distance=max(26.0, min(80.0, dist * 2.0 + 18)),
                subjects=(start, end))
    return Beat(Parallel(*parts), t + fly + 0.05)


def gun_shot(stage: Stage, kit, start, end, kind: str, delay: float, hit: bool = True) -> list:
    """A tank gun's or recoilless rifle's round: flash, muzzle dust, recoil, a fast tracer."""
    rng = stage.rng
    dx, dy = end[0] - start[0], end[1] - start[1]
    heading = math.degrees(math.atan2(dy, dx))
    dist = math.hypot(dx, dy) or 1e-6
    fly = max(0.08, dist / GUN_SPEED)
    g = stage.ground(start[0], start[1], 0.05)
    if kind == "burst":  # a heavy MG or an autocannon: a short stream of tracers, small flashes
        out = [Sequence(Wait(delay), stage.cue("m60", start))]
        for k in range(5):
            e = (end[0] + rng.uniform(-0.2, 0.2), end[1] + rng.uniform(-0.2, 0.2), end[2] + rng.uniform(-0.1, 0.2))
            out.append(fx.streak(stage.root, start, e, TRACER_GUN, 0.6, 3.0, GUN_SPEED * 0.6, delay=delay + 0.1 * k))
            out.append(fx.flash(stage.root, start, 0.5, FLASH, delay=delay + 0.1 * k, life=0.08, kind="spark"))
        return out
    out = [
        Sequence(Wait(delay), stage.cue("cannon", start)),
        fx.flash(stage.root, start, 1.3, (1.0, 0.86, 0.5, 1), delay=delay, life=0.16),
        fx.flash(stage.root, (start[0] + 0.4 * dx / dist, start[1] + 0.4 * dy / dist, start[2]), 0.8, FLASH,
                 delay=delay + 0.02, life=0.12, kind="spark"),
        fx.burst(stage.root, g, fx.BurstSpec("puff", count=10, life=(0.8, 1.5), speed=(3, 6), up=(0.0, 0.18),
                                             size=(0.2, 0.9), color=(*DUST[:3], 0.7), drag=2.5, rise=0.2,
                                             cone=200, heading=heading), rng, delay=delay),
        fx.burst(stage.root, start, fx.BurstSpec("puff", count=5, life=(0.6, 1.2), speed=(2, 4), up=(0.0, 0.3),
                                                 size=(0.15, 0.6), color=GREY_SMOKE, drag=3.0, rise=0.3, cone=40,
                                                 heading=heading), rng, delay=delay),
        fx.streak(stage.root, start, end, TRACER_GUN, 0.9, 4.5, GUN_SPEED, delay=delay),
        stage.shake(0.35, start),
    ]
    if kit is not None:
        out.append(Sequence(Wait(delay), kit.recoil()))
    if kind == "recoilless":  # the backblast: a cone of dust and smoke behind the rifle
        out.append(fx.burst(stage.root, start, fx.BurstSpec(
            "puff", count=10, life=(0.7, 1.4), speed=(4, 7), up=(0.0, 0.3), size=(0.2, 0.9),
            color=(0.78, 0.74, 0.66, 0.8), drag=3.0, cone=50, heading=heading + 180.0), rng, delay=delay))
    if not hit:
        out.append(fx.burst(stage.root, end, fx.BurstSpec(
            "puff", count=10, life=(0.7, 1.3), speed=(2, 5), up=(0.6, 1.0), size=(0.15, 0.7), color=CLOD,
            drag=1.5, gravity=14.0, fade_out=0.3), rng, delay=delay + fly))
        out.append(fx.flash(stage.root, end, 0.9, (1, 0.75, 0.4, 1), delay=delay + fly, life=0.15))
    else:
        out.append(fx.flash(stage.root, end, 0.7, SPARK, delay=delay + fly, life=0.1, kind="spark"))
    return out


# -- the armour's answer ---------------------------------------------------------------------------------
def strike_point(stage: Stage, ev: dict, kit) -> tuple[float, float, float] | None:
    last = stage.notes.get("at_fire") or {}
    if last.get("point") is not None and last.get("hit"):
        return _pt(last["point"])
    if kit is not None:
        c = kit.centre()
        return (c.x, c.y, c.z)
    if "x" in ev and "y" in ev:
        return stage.ground(float(ev["x"]), float(ev["y"]), 0.5)
    return None


@handles("armour")
def on_armour(stage: Stage, ev: dict) -> Beat | None:
    kit = kit_of(stage, ev.get("vehicle"))
    p = strike_point(stage, ev, kit)
    if p is None:
        return None
    rng = stage.rng
    result = str(ev.get("result", ""))
    parts = []
    if result == "ricochet":
        src = (stage.notes.get("at_fire") or {}).get("from") or (p[0] - 1.0, p[1])
        dx, dy = p[0] - src[0], p[1] - src[1]
        d = math.hypot(dx, dy) or 1.0
        turn = math.radians(rng.choice((-1, 1)) * rng.uniform(40, 70))
        ux = (dx * math.cos(turn) - dy * math.sin(turn)) / d
        uy = (dx * math.sin(turn) + dy * math.cos(turn)) / d
        away = (p[0] + ux * 7.0, p[1] + uy * 7.0, p[2] + 4.5)
        parts += [fx.burst(stage.root, p, fx.BurstSpec("spark", count=16, life=(0.2, 0.45), speed=(4, 9),
                                                         up=(0.1, 0.9), size=(0.08, 0.03), color=SPARK, drag=1.0,
                                                         gravity=22.0, fade_in=0.0, additive=True), rng),
                  fx.flash(stage.root, p, 0.6, SPARK, life=0.08, kind="spark"),
                  fx.streak(stage.root, p, away, (1.0, 0.8, 0.5, 0.9), 0.5, 2.5, 45.0, delay=0.02),
                  stage.cue("ricochet", p),
                  banner(stage, "RICOCHET", p, (0.95, 0.9, 0.7, 1), 1.6, 0.45)]
    elif result == "penetration":
        parts += [fx.flash(stage.root, p, 1.6, (1, 1, 0.9, 1), life=0.2),
                  fx.flash(stage.root, p, 0.9, FIRE, delay=0.05, life=0.35, kind="spark"),
                  fx.burst(stage.root, p, fx.BurstSpec("spark", count=10, life=(0.2, 0.5), speed=(2, 5),
                                                         up=(0.2, 0.9), size=(0.07, 0.03), color=SPARK,
                                                         gravity=18.0, fade_in=0.0, additive=True), rng),
                  fx.burst(stage.root, p, fx.BurstSpec("puff", count=7, life=(1.2, 2.2), speed=(0.4, 1.0),
                                                       up=(0.5, 1.0), size=(0.2, 0.9), color=BLACK_SMOKE,
                                                       rise=0.8, fade_in=0.05), rng, delay=0.1),
                  stage.cue("explosion_small", p, gain=0.7),
                  stage.shake(0.25, p),
                  banner(stage, "PENETRATION", p, HIT, 1.8, 0.5)]
        if kit is not None:
            parts.append(kit.jolt(3.0))
    else:  # no effect: the round strikes and does nothing that matters
        parts += [fx.flash(stage.root, p, 0.5, SPARK, life=0.08, kind="spark"),
                  fx.burst(stage.root, p, fx.BurstSpec("puff", count=4, life=(0.6, 1.0), speed=(0.5, 1.2),
                                                       up=(0.2, 0.8), size=(0.1, 0.4), color=GREY_SMOKE), rng)]
    return Beat(Parallel(*parts), 0.4)


@handles("vehicle_damage")
def on_vehicle_damage(stage: Stage, ev: dict) -> Beat | None:
    piece = piece_of(stage, ev.get("vehicle"))
    kit = piece.kit if piece is not None else None
    if kit is None:
        return None
    rng = stage.rng
    result = str(ev.get("result", ""))
    c = kit.centre()
    # its word (two lines with the hull points) stands clear over the armour's (RICOCHET, PENETRATION),
    # never on it; the director's close-up of a bail-out holds both in frame (framing.CLOSE_UPS)
    p = (c.x, c.y, c.z + 1.6)
    word = WORDS.get(result, result.replace("_", " ").upper())
    if ev.get("hp") is not None and result not in ("knocked_out", "brewed_up"):
        word = f"{word}\nHP {ev['hp']}"
    heavy = result in ("knocked_out", "brewed_up", "bailout")
    if result == "brewed_up":  # the brew_up event that follows is the show: the word comes with its fireball
        stage.notes["brewing"] = (c.x, c.y)  # the passengers lost in it fall with the fireball (wrap_casualty)
        return Beat(banner(stage, word, p, HIT, 3.0, 0.55, delay=0.5), 0.1)
    parts = [kit.jolt(5.0 if heavy else 3.0),
             banner(stage, word, p, HIT if heavy else (1.0, 0.82, 0.35, 1), 2.4, 0.55),
             fx.burst(stage.root, (c.x, c.y, c.z + 0.2), fx.BurstSpec(
                 "puff", count=12 if heavy else 6, spawn=0.6, life=(1.4, 2.4), speed=(0.3, 0.8), up=(0.6, 1.0),
                 size=(0.25, 1.1), color=BLACK_SMOKE if heavy else GREY_SMOKE, rise=0.9, fade_in=0.05), rng)]
    if result == "mobility":  # the running gear: dirt and track links kicked out low
        parts.append(fx.burst(stage.root, stage.ground(c.x, c.y, 0.1), fx.BurstSpec(
            "puff", count=8, life=(0.6, 1.1), speed=(2, 4), up=(0.3, 0.8), size=(0.08, 0.2), color=CLOD,
            gravity=16.0, offset=0.5 * kit.width), rng))
    if result == "weapons" and kit.gun is not None:
        g = kit.muzzle()
        parts.append(fx.burst(stage.root, _pt(g), fx.BurstSpec("spark", count=8, life=(0.2, 0.4), speed=(2, 4),
                                                                size=(0.06, 0.02), color=SPARK, gravity=16.0,
                                                                additive=True), rng))
    stage.focus(0, 7, "vehicle_damage", p, hold=3.0, distance=24.0)
    return Beat(Parallel(*parts), 0.6)


# -- brew-up and wreck -------------------------------------------------------------------------------------
@handles("brew_up")
def on_brew_up(stage: Stage, ev: dict) -> Beat | None:
    kit = kit_of(stage, ev.get("vehicle"))
    if kit is not None:
        c = kit.centre()
        x, y = c.x, c.y
    elif "x" in ev and "y" in ev:
        x, y = float(ev["x"]), float(ev["y"])
    else:
        return None
    rng = stage.rng
    deck = kit.deck if kit is not None else 0.7
    g = stage.ground(x, y, 0.05)
    top = (x, y, g[2] + deck)
    radius = float(ev.get("radius") or 2.0)
    parts = [
        fx.flash(stage.root, (x, y, top[2] + 0.6), 3.6, (1.0, 0.8, 0.45, 1), life=0.45),
        fx.flash(stage.root, (x, y, top[2] + 1.2), 2.4, FIRE, delay=0.12, life=0.5),
        fx.burst(stage.root, top, fx.BurstSpec("flash", count=18, life=(0.5, 1.1), speed=(2, 4), up=(0.4, 1.0),
                                               size=(0.5, 1.5), color=FIRE, drag=2.0, rise=1.5, additive=True,
                                               fade_in=0.0), rng),
        fx.burst(stage.root, top, fx.BurstSpec("puff", count=14, life=(0.9, 1.5), speed=(8, 14), up=(0.5, 0.98),
                                               size=(0.06, 0.14), color=CLOD, drag=0.5, gravity=26.0, fade_in=0.0,
                                               fade_out=0.2), rng, floor=g[2]),
        # burning: flames licking up out of the hull for a while
        fx.burst(stage.root, top, fx.BurstSpec("flash", count=30, spawn=5.0, life=(0.5, 0.9), speed=(0.2, 0.5),
                                               up=(0.7, 1.0), size=(0.25, 0.6), offset=0.3 * (kit.width if kit else 1),
                                               color=FIRE, rise=1.2, additive=True), rng, delay=0.3),
        # the column of black smoke, leaning with the wind
        fx.burst(stage.root, top, fx.BurstSpec("puff", count=34, spawn=6.0, life=(3.0, 5.0), speed=(0.3, 0.8),
                                               up=(0.7, 1.0), size=(0.4, 2.4), color=BLACK_SMOKE, rise=2.0,
                                               wind=(0.35, 0.12, 0.0), fade_in=0.08), rng, delay=0.15),
        ring(stage, x, y, radius * 0.35, (1.0, 0.7, 0.35, 1), 0.7, grow=1 / 0.35 - 1, width=6),
        ring(stage, x, y, radius, ZONE, 3.0, width=4, fill=0.22, delay=0.2),
        stage.shake(0.9, g),
        stage.cue("explosion_big", g),
        Sequence(Wait(1.6), stage.cue("explosion_small", g, gain=0.6)),  # the ammunition cooking off
        fx.flash(stage.root, (x, y, top[2] + 0.3), 1.2, FIRE, delay=1.6, life=0.2),
        fx.flash(stage.root, (x, y, top[2] + 0.4), 1.0, FIRE, delay=2.4, life=0.2),
    ]
    if kit is not None:
        parts.append(Sequence(Wait(0.05), Func(kit.set_wreck, True, 6.0)))  # its own smoke once this one thins
        if kit.turret is not None:
            parts.append(Sequence(Wait(0.05), vehicles.toss(kit, rng)))
    stage.focus(0, 9, "brew_up", g, hold=6.0, distance=26.0)
    return Beat(Parallel(*parts), 2.5)


@handles("wreck")
def on_wreck(stage: Stage, ev: dict) -> Beat | None:
    kit = kit_of(stage, ev.get("vehicle"))
    parts = []
    if kit is not None:
        c = kit.centre()
        x, y, z = c.x, c.y, c.z
        # the engine tells the wreck before its brew-up: the swap comes under the fireball that follows
        parts.append(Sequence(Wait(0.25), Func(kit.set_wreck, True, 3.0)))
    elif "x" in ev and "y" in ev:
        x, y, z = stage.ground(float(ev["x"]), float(ev["y"]), 0.5)
    else:
        return None
    parts.append(fx.burst(stage.root, (x, y, z), fx.BurstSpec(
        "puff", count=6, life=(1.5, 2.5), speed=(0.2, 0.5), up=(0.8, 1.0), size=(0.3, 1.2), color=BLACK_SMOKE,
        rise=1.0), stage.rng))
    return Beat(Parallel(*parts), 0.1)


# -- crews and passengers ---------------------------------------------------------------------------------
@handles("bailout")
def on_bailout(stage: Stage, ev: dict) -> Beat | None:
    piece = piece_of(stage, ev.get("vehicle"))
    kit = piece.kit if piece is not None else None
    if kit is None:
        return None
    rng = stage.rng
    c = kit.centre()
    elements = ev.get("elements") or []
    n = max(2, min(6, 2 * len(elements)))
    src = (stage.notes.get("at_fire") or {}).get("from")
    away = math.atan2(c.y - src[1], c.x - src[0]) if src else rng.uniform(0, 2 * math.pi)
    parts = []
    if kit.crew is not None:
        parts.append(Func(kit.crew.hide))
    for k in range(n):
        a = away + rng.uniform(-1.1, 1.1)
        r = 0.5 * max(kit.length, kit.width) + rng.uniform(0.5, 1.1)
        end = stage.ground(c.x + r * math.cos(a), c.y + r * math.sin(a))
        start = (c.x + rng.uniform(-0.2, 0.2), c.y + rng.uniform(-0.2, 0.2), c.z + 0.4 * kit.deck)
        parts.append(vehicles.hop(stage, piece.side, start, end, 0.12 * k))
    stage.focus(0, 7, "bailout", (c.x, c.y, c.z), hold=3.0, distance=20.0)
    return Beat(Parallel(*parts), 0.8)


@handles("mount")
def on_mount(stage: Stage, ev: dict) -> Beat | None:
    kit = kit_of(stage, ev.get("vehicle"))
    stands = stage.element_stands(ev.get("element"))
    if kit is None or not stands:
        return None
    door = vehicles.rear_of(kit, 0.0)
    c = kit.centre()
    parts, dur = [], 1.0
    ramp = kit.ramp_cycle(hold=dur)
    if ramp is not None:
        parts.append(ramp)
    for k, sid in enumerate(stands):
        piece = stage.pieces.stands[sid]
        holder = p3d.NodePath("boarding")
        piece.node.copy_to(holder).set_pos(0, 0, 0)
        p0 = piece.node.get_pos()
        holder.set_h(piece.node.get_h())

        def at(kk: float, holder=holder, p0=p0) -> None:
            e = kk * kk * (3 - 2 * kk)
            # to the door, then in: shrinking into the hull
            x = p0.x + (door[0] - p0.x) * min(1.0, e * 1.4)
            y = p0.y + (door[1] - p0.y) * min(1.0, e * 1.4)
            if e > 0.7:
                f = (e - 0.7) / 0.3
                x, y = x + (c.x - x) * f, y + (c.y - y) * f
            holder.set_pos(x, y, stage.height_at(x, y))
            holder.set_scale(max(0.05, 1.0 - 0.8 * max(0.0, (e - 0.6) / 0.4)))

        parts.append(Sequence(Func(piece.node.hide), Func(piece.node.set_tag, "aboard", "1")))
        parts.append(fade(holder, stage.root, dur + 0.1 * k, 0.25, animate=at, delay=0.1 * k))
    return Beat(Parallel(*parts), dur)


@handles("dismount")
def on_dismount(stage: Stage, ev: dict) -> Beat | None:
    piece = piece_of(stage, ev.get("vehicle"))
    kit = piece.kit if piece is not None else None
    if kit is None:
        return None
    rng = stage.rng
    door = vehicles.rear_of(kit, 0.1)
    h = math.radians(kit.node.get_h()) + (0.0 if kit.ramp is not None else math.pi)
    parts = []
    ramp = kit.ramp_cycle(hold=1.4)
    if ramp is not None:
        parts.append(ramp)
    g = stage.ground(*door)
    side = piece.side
    for k in range(4):
        a = h + rng.uniform(-0.7, 0.7)
        r = rng.uniform(1.0, 2.0)
        end = stage.ground(door[0] + r * math.cos(a), door[1] + r * math.sin(a))
        parts.append(vehicles.hop(stage, side, (g[0], g[1], g[2] + 0.1), end, 0.2 + 0.15 * k, life=1.8,
                                  prone=False))
    return Beat(Parallel(*parts), 0.9)


def hatch_icon(stage: Stage, pos, shut: bool) -> Sequence:
    """A hatch seen from above: a ring, its lid closing on it (buttoned) or swinging open."""
    node = p3d.NodePath("hatch-icon")
    geom.lines("hatch-ring", [geom.circle_points(0, 0, 0.35, 0, 24)], (0.95, 0.95, 0.9, 1), 3).reparent_to(node)
    lid = node.attach_new_node("lid")
    geom.disc("hatch-lid", 0.3, (0.35, 0.4, 0.25, 0.95), n=20).reparent_to(lid)
    lid.set_p(90)  # the disc lies flat: stand it up on its hinge
    node.set_pos(pos[0], pos[1], pos[2] + 1.6)
    node.set_billboard_point_eye()
    node.set_p(0)

    def at(k: float) -> None:
        e = min(1.0, k * 3.0)
        lid.set_p(90 * (1 - e) if shut else 90 * e)

    return fade(node, stage.root, 1.8, 0.5, animate=at)


@handles("crew")
def on_crew(stage: Stage, ev: dict) -> Beat | None:
    kit = kit_of(stage, ev.get("vehicle"))
    if kit is None:
        return None
    state = str(ev.get("state", ""))
    c = kit.centre()
    p = (c.x, c.y, c.z)
    parts = [banner(stage, CREW_WORDS.get(state, state.upper()), p, (0.95, 0.9, 0.7, 1), 1.8, 0.45)]
    if state in ("buttoned", "unbuttoned"):
        parts.append(hatch_icon(stage, p, state == "buttoned"))
        parts.append(Sequence(Wait(0.3), Func(kit.set_buttoned, state == "buttoned")))
    elif state == "stunned":
        parts.append(ring(stage, c.x, c.y, 0.6 * max(kit.length, kit.width), (1.0, 0.85, 0.25, 1), 1.6,
                          grow=0.3, width=4))
        for k in range(5):
            a = 2 * math.pi * k / 5
            parts.append(fx.flash(stage.root, (c.x + 0.5 * math.cos(a), c.y + 0.5 * math.sin(a), c.z + 1.0),
                                  0.3, (1, 0.95, 0.5, 1), delay=0.1 * k, life=0.6, kind="spark"))
    else:
        parts.append(ring(stage, c.x, c.y, 0.6 * max(kit.length, kit.width), SIDE_COLORS.get("allied"), 1.4,
                          grow=-0.3, width=4))
    return Beat(Parallel(*parts), 0.3)


# -- mines ---------------------------------------------------------------------------------------------
@handles("mine")
def on_mine(stage: Stage, ev: dict) -> Beat | None:
    if "x" not in ev or "y" not in ev:
        return None
    x, y = float(ev["x"]), float(ev["y"])
    rng = stage.rng
    g = stage.ground(x, y, 0.05)
    small = str(ev.get("result", "")) in ("dud", "none", "no_effect", "miss")
    if not on_water(stage, x, y):
        from game.client.setpieces import blast

        return Beat(blast(stage, x, y, "mortar_60" if small else "mortar", crater=not small, shriek=False), 0.5)
    k = 0.5 if small else 1.0
    parts = [
        fx.flash(stage.root, (x, y, g[2] + 0.2), 1.2 * k, (1.0, 0.95, 0.85, 1), life=0.12),
        fx.burst(stage.root, g, fx.BurstSpec("puff", count=int(28 * k) + 4, life=(1.2, 2.0), speed=(9 * k, 14 * k),
                                             up=(0.94, 1.0), size=(0.15, 0.6), color=SPRAY, drag=0.6,
                                             gravity=14.0, fade_in=0.02, fade_out=0.4), rng, floor=g[2]),
        fx.burst(stage.root, g, fx.BurstSpec("puff", count=12, life=(1.0, 1.8), speed=(3, 5), up=(0.05, 0.35),
                                             size=(0.2, 0.8), color=SPRAY, drag=1.8, gravity=4.0), rng, floor=g[2]),
        fx.burst(stage.root, g, fx.BurstSpec("puff", count=10, spawn=0.8, life=(2.0, 3.2), speed=(0.4, 1.0),
                                             up=(0.0, 0.1), size=(0.3, 1.2), offset=1.0 * k, color=vehicles.FOAM, drag=1.0),
                 rng, delay=0.6),
        ring(stage, x, y, 1.6 * k, (0.92, 0.96, 0.96, 1), 2.2, grow=0.6, width=4, lift=0.06),
        stage.shake(0.5 * k, g),
        stage.cue("explosion" if not small else "explosion_small", g),
    ]
    stage.focus(0, 8, "mine", g, hold=4.0, distance=26.0)
    return Beat(Parallel(*parts), 0.8)


# -- the ordinary handlers, for vehicles ------------------------------------------------------------------
class _FromTheGun:
    """The stage as ``effects.on_fire`` sees it for a vehicle's MGs: a vehicle shooter stands where its
    gun's muzzle is (less the lift the small-arms tracers add), everything else as the stage has it."""

    def __init__(self, stage: Stage, aim: dict):
        self._stage = stage
        self._aim = aim

    def __getattr__(self, name):
        return getattr(self._stage, name)

    def stand_pos(self, sid):
        aim = self._aim.get(sid)
        if aim is not None:
            kit, (x, y) = aim
            m = kit.muzzle((x, y))
            return p3d.LPoint3(m.x, m.y, m.z - 0.35)
        return self._stage.stand_pos(sid)


def wrap_fire(inner):
    def on_fire(stage: Stage, ev: dict) -> Beat | None:
        shooters = ev.get("stands") or stage.element_stands(ev.get("element"))
        target = stage.stand_pos(ev.get("target"))
        if target is None and ev.get("blind") in stage.pieces.blinds:
            target = stage.pieces.blinds[ev["blind"]].get_pos()
        aim, turns, t = {}, [], 0.0
        for sid in shooters or []:
            piece = stage.pieces.stands.get(sid)
            if piece is None or piece.kit is None or target is None:
                continue
            aim[sid] = (piece.kit, (target.x, target.y))
            trav, dur = piece.kit.traverse(target.x, target.y)
            if trav is not None:
                turns.append(trav)
                t = max(t, dur)
        if not aim:
            return inner(stage, ev)
        beat = inner(_FromTheGun(stage, aim), ev)
        if beat is None:
            return Beat(Parallel(*turns), t) if turns else None
        body = Sequence(Wait(t), beat.interval) if beat.interval is not None and t > 0 else beat.interval
        return Beat(Parallel(*turns, body) if turns and body is not None else body or Parallel(*turns),
                    beat.lead + t)
    on_fire.wrapped = inner
    return on_fire


def wrap_move(inner):
    def on_move(stage: Stage, ev: dict) -> Beat | None:
        trails = []
        for s in ev.get("stands") or []:
            piece = stage.pieces.stands.get(s.get("id"))
            if piece is None or piece.kit is None or not s.get("to"):
                continue
            here = piece.node.get_pos()
            a = s.get("from") or (here.x, here.y, piece.node.get_h())
            trails += vehicles.wake(stage, piece.kit, (float(a[0]), float(a[1])), (float(s["to"][0]), float(s["to"][1])))
        beat = inner(stage, ev)
        if not trails:
            return beat
        if beat is None:
            return Beat(Parallel(*trails), 0.0)
        return Beat(Parallel(*(i for i in (beat.interval, *trails) if i is not None)), beat.lead)
    on_move.wrapped = inner
    return on_move


def wrap_casualty(inner):
    """The passengers lost in a hull that brews up (DD-7.13: the engine tells their casualties between the
    damage and the brew-up, at the hull's place) take no time of their own: their marks come with the
    fireball instead of holding it back."""
    def on_casualty(stage: Stage, ev: dict) -> Beat | None:
        beat = inner(stage, ev)
        hull = stage.notes.get("brewing")
        if beat is None or hull is None or ev.get("x") is None or ev.get("y") is None:
            return beat
        if math.hypot(float(ev["x"]) - hull[0], float(ev["y"]) - hull[1]) > 1.0:
            return beat
        return Beat(beat.interval, 0.0)
    on_casualty.wrapped = inner
    return on_casualty


def _wrap() -> None:
    """Wrap ``effects``' fire, move and casualty handlers once (they are registered on import, before this)."""
    for kind, wrapper in (("fire", wrap_fire), ("move", wrap_move), ("retreat", wrap_move),
                          ("casualty", wrap_casualty)):
        fn = HANDLERS.get(kind)
        if fn is not None and not hasattr(fn, "wrapped"):
            HANDLERS[kind] = wrapper(fn)


_wrap()
