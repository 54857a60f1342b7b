"""The village on the table (DD-9B.8..9B.14, G-13, G-39): its people, its caches, its burnt hootches, and
the handlers for what happens to them.

Markers (``pieces.MARKER_DRAWERS``):

* ``civilian`` {state: alive|hurt|dead, treated}: a villager in a conical hat on a grey base (neither
  side's colour); hurt, with the casualty ring; dead, lying down; treated (MEDCAP), a red-cross token.
* ``cache`` {kind: rice|weapons, state: hidden|found|secured|destroyed}: rice sacks or ammunition crates
  (the Allied view lists a cache only once found); hidden (the Insurgent's own) faint; secured, ringed in
  the Allied colour; destroyed, a scorch.
* ``burnt_hootch`` / ``hootch_burned`` {x, y, facing}: what a burnt hootch leaves, char and ash.

Handlers: ``civilian_hit`` (a flash of dust and the figure falls), ``medcap`` (a white cross rises over the
villager), ``cache_found`` (the cache comes up out of its hiding place, ringed), ``cache_secured``,
``cache_destroyed`` (a small blast and fire), ``hootch_burned`` (flames and smoke over the hootch, then its
char; the thatch that burns is the event's, the char is the next view's if the engine lists it).

What it leaves out: no villagers walking about (they stand where the view puts them), no livestock, no
hootch model that burns away (the building stays drawn; its char lies round it).
"""

from __future__ import annotations

import math

import panda3d.core as p3d
from direct.interval.IntervalGlobal import Func, LerpFunctionInterval, Parallel, Sequence, Wait

from game.client import fx, geom
from game.client.effects import DUST, FLASH, banner, ring
from game.client.presenter import Beat, Stage, handles

FIRE = (1.0, 0.55, 0.15, 0.9)
SMOKE = (0.18, 0.16, 0.14, 0.8)
FOUND = (0.94, 0.89, 0.26, 1.0)
CIVIL = (0.92, 0.92, 0.88, 1)
CACHE_MODELS = {"rice": "rice_sacks", "weapons": "weapons_crate"}


def _civilian_key(m: dict) -> str:
    """A villager's figure: men and women by a stable pick from the id (cosmetic)."""
    ident = str(m.get("id", ""))
    return "civilian_woman" if sum(map(ord, ident)) % 2 else "civilian"


def draw_civilian(pieces, np_: p3d.NodePath, m: dict) -> bool:
    lib = pieces.library
    state = str(m.get("state") or "alive")
    key = "civilian_down" if state == "dead" else _civilian_key(m)
    if lib.has(key):
        lib.instance(key, np_).set_h(float(m.get("facing") or (sum(map(ord, str(m.get("id", "")))) * 37 % 360)))
    if state in ("hurt", "dead") and lib.has("casualty_ring"):
        r = lib.instance("casualty_ring", np_)
        r.set_scale(0.55, 0.55, 1)
    if m.get("treated") and lib.has("medcap_cross"):
        lib.instance("medcap_cross", np_).set_pos(0.42, 0.3, 0)
    return True


def draw_cache(pieces, np_: p3d.NodePath, m: dict) -> bool:
    lib = pieces.library
    state = str(m.get("state") or "found")
    key = CACHE_MODELS.get(str(m.get("contents") or "rice"), "rice_sacks")  # the view's cache marker (village.py)
    if state == "destroyed":
        if lib.has("crater"):
            lib.instance("crater", np_).set_scale(0.3)
        return True
    if lib.has(key):
        model = lib.instance(key, np_)
        if state == "hidden":
            model.set_transparency(p3d.TransparencyAttrib.M_alpha)
            model.set_alpha_scale(0.45)
    if state == "secured":
        from game.client.pieces import SIDE_COLORS

        geom.lines("secured", [geom.circle_points(0, 0, 0.55, 0.04, 28)], SIDE_COLORS["allied"], 3.0).reparent_to(np_)
    return True


def draw_burnt(pieces, np_: p3d.NodePath, m: dict) -> bool:
    if pieces.library.has("burnt_hootch"):
        pieces.library.instance("burnt_hootch", np_)
        np_.set_h(float(m.get("facing") or m.get("rotation") or 0.0))
    return True


def _where(stage: Stage, ev: dict, ref_key: str):
    if "x" in ev and "y" in ev:
        return stage.ground(float(ev["x"]), float(ev["y"]))
    node = stage.pieces.markers.get(str(ev.get(ref_key)))
    if node is not None and not node.is_empty():
        p = node.get_pos()
        return (p.x, p.y, p.z)
    return None


@handles("civilian_hit")
def on_civilian_hit(stage: Stage, ev: dict) -> Beat | None:
    """DD-9B.9, G-39: a villager is caught by the fire; the figure goes down."""
    g = _where(stage, ev, "civilian")
    if g is None:
        return None
    parts = [fx.burst(stage.root, g, fx.BurstSpec("puff", count=6, life=(0.5, 1.0), speed=(0.4, 1.0), up=(0.3, 0.8),
                                                  size=(0.1, 0.3), color=DUST), stage.rng),
             banner(stage, "CIVILIAN HIT", g, CIVIL, 2.4, 0.55)]
    node = stage.pieces.markers.get(str(ev.get("civilian")))
    if node is not None and not node.is_empty():
        def at(k: float) -> None:
            if not node.is_empty():
                node.set_p(-80.0 * k)

        parts.append(LerpFunctionInterval(at, 0.6, 0.0, 1.0, blendType="easeIn"))
    stage.focus(0.0, 7, "civilian_hit", g, hold=3.0, distance=16.0)
    return Beat(Parallel(*parts), 1.0)


@handles("medcap")
def on_medcap(stage: Stage, ev: dict) -> Beat | None:
    """DD-9B.11: the medic treats a villager; a white cross rises over them."""
    g = _where(stage, ev, "civilian")
    if g is None:
        return None
    parts = [ring(stage, g[0], g[1], 0.6, CIVIL, 2.0, grow=0.5, width=3), banner(stage, "MEDCAP", g, CIVIL, 2.2, 0.55)]
    lib = stage.pieces.library
    if lib.has("medcap_cross"):
        cross = lib.instance("medcap_cross", stage.root)
        cross.set_p(90)
        cross.set_billboard_axis()

        def at(k: float) -> None:
            cross.set_pos(g[0], g[1], g[2] + 0.6 + 1.2 * k)
            cross.set_alpha_scale(1.0 - k * k)

        cross.set_transparency(p3d.TransparencyAttrib.M_alpha)
        parts.append(Sequence(LerpFunctionInterval(at, 1.8, 0.0, 1.0), Func(cross.hide)))
    stage.focus(0.0, 5, "medcap", g, hold=3.0, distance=16.0)
    return Beat(Parallel(*parts), 1.0)


@handles("cache_found")
def on_cache_found(stage: Stage, ev: dict) -> Beat | None:
    """DD-9B.12: the search turns up the cache; it comes up out of its hiding place."""
    g = _where(stage, ev, "cache")
    if g is None:
        return None
    key = CACHE_MODELS.get(str(ev.get("kind") or "rice"), "rice_sacks")
    parts = [ring(stage, g[0], g[1], 0.8, FOUND, 2.2, grow=0.6, width=4),
             banner(stage, "WEAPONS CACHE" if key == "weapons_crate" else "RICE CACHE", g, FOUND, 2.4, 0.6)]
    lib = stage.pieces.library
    if lib.has(key):
        model = lib.instance(key, stage.root)

        def at(k: float) -> None:
            model.set_pos(g[0], g[1], g[2] - 0.3 * (1 - k))

        parts.append(Sequence(LerpFunctionInterval(at, 0.9, 0.0, 1.0, blendType="easeOut"), Wait(1.0),
                              Func(model.hide)))
    stage.focus(0.0, 7, "cache_found", g, hold=3.0, distance=16.0)
    return Beat(Parallel(*parts), 1.0)


@handles("cache_secured")
def on_cache_secured(stage: Stage, ev: dict) -> Beat | None:
    """DD-9B.12: the cache is carried off (secured)."""
    g = _where(stage, ev, "cache")
    if g is None:
        return None
    from game.client.pieces import SIDE_COLORS

    stage.focus(0.0, 5, "cache_secured", g, hold=2.5, distance=16.0)
    return Beat(Parallel(ring(stage, g[0], g[1], 0.7, SIDE_COLORS["allied"], 1.8, grow=0.4, width=4),
                         banner(stage, "CACHE SECURED", g, SIDE_COLORS["allied"], 2.0, 0.55)), 0.8)


@handles("cache_destroyed")
def on_cache_destroyed(stage: Stage, ev: dict) -> Beat | None:
    """DD-9B.12: the cache is blown in place: a small blast, a fire that burns down."""
    g = _where(stage, ev, "cache")
    if g is None:
        return None
    parts = [fx.flash(stage.root, (g[0], g[1], g[2] + 0.3), 1.2, FLASH, life=0.2), stage.cue("explosion_small", g),
             fx.burst(stage.root, g, fx.BurstSpec("puff", count=10, spawn=1.5, life=(0.8, 1.4), speed=(0.2, 0.6),
                                                  up=(0.8, 1.0), size=(0.15, 0.5), color=FIRE, additive=True,
                                                  rise=0.8), stage.rng),
             fx.burst(stage.root, g, fx.BurstSpec("puff", count=10, spawn=1.5, life=(1.5, 2.5), speed=(0.2, 0.5),
                                                  up=(0.9, 1.0), size=(0.3, 1.2), color=SMOKE, rise=1.0), stage.rng),
             banner(stage, "CACHE DESTROYED", g, FOUND, 2.0, 0.55)]
    stage.focus(0.0, 6, "cache_destroyed", g, hold=3.0, distance=18.0)
    return Beat(Parallel(*parts), 1.0)


@handles("hootch_burned")
def on_hootch_burned(stage: Stage, ev: dict) -> Beat | None:
    """DD-9B.13: the hootch is put to the torch: flames in its thatch, a column of smoke, its char left."""
    g = _where(stage, ev, "feature")
    f = stage.pieces.features.get(str(ev.get("feature"))) if ev.get("feature") is not None else None
    if g is None and f is not None and f.get("point"):
        g = stage.ground(*f["point"])
    if g is None:
        return None
    rot = float((f or {}).get("rotation") or 0.0)
    parts = [fx.burst(stage.root, (g[0], g[1], g[2] + 1.0), fx.BurstSpec(
        "puff", count=26, spawn=3.0, life=(0.6, 1.2), speed=(0.2, 0.6), up=(0.8, 1.0), size=(0.3, 0.9), offset=1.0,
        color=FIRE, additive=True, rise=1.5), stage.rng),
        fx.burst(stage.root, (g[0], g[1], g[2] + 1.6), fx.BurstSpec(
            "puff", count=18, spawn=3.5, life=(2.5, 4.0), speed=(0.2, 0.5), up=(0.9, 1.0), size=(0.6, 2.2),
            color=SMOKE, rise=1.6, wind=(0.3, 0.1, 0.0)), stage.rng)]
    lib = stage.pieces.library
    if lib.has("burnt_hootch"):
        char = lib.instance("burnt_hootch", stage.root)
        char.set_h(rot)
        parts.append(fx.ground_mark(stage.root, char, (g[0], g[1], g[2] + 0.01), 1.0, heading=rot, delay=1.5,
                                    grow=1.0))
    if ev.get("contraband"):
        parts.append(banner(stage, "CONTRABAND FOUND", g, FOUND, 2.5, 0.55, delay=1.0))
    stage.focus(0.0, 7, "hootch_burned", g, hold=4.5, distance=22.0, heading=20.0 + math.degrees(0.0), pitch=30.0)
    return Beat(Parallel(*parts), 2.0)
