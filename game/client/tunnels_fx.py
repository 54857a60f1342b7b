"""The tunnels and the booby traps in action (DD chapter 9B, the TUN module), as presenter handlers, and
how their markers stand on the table.

Handlers, each from its event's own fields (the contract, docs/protocol.md):

* ``tunnel_found`` {section, x, y}: the hatch's lid is lifted and a ring pulses (DD-9B.3, TUN-5).
* ``tunnel_enter`` / ``tunnel_emerge`` {element, section, x, y}: the lid swings open, the stands slide to
  the hatch and sink into it, or rise out of it to their places (DD-9B.4, TUN-8, DD-2.32).
* ``tunnel_gas`` {section, x, y, until_turn}: CS gas drifts out of the entrance, a pale cloud that grows
  and drifts downwind (DD-9B.6, G-35); the view then hazes the section.
* ``tunnel_charge`` {section, x, y}: the satchel's fuse sputters at the hatch (TUN-22).
* ``tunnel_collapse`` {section, x, y}: a dust plume from the hatch, the ground shakes; the view leaves
  rubble where the hatch was (DD-9B.7, TUN-22).
* ``tunnel_move`` {element, from, to}: the element's figures crawl the tube beneath (TUN-8, TUN-9); the
  crawl's camera rides along (``underground.Crawl``).
* ``tunnel_fight`` {section, result}: muzzle flashes in the section, the loser's figure gone or withdrawn
  (TUN-15..TUN-18); ``tunnel_rat`` {element, section, result}: the G-35 roll's word at the entrance.
* ``booby_trap`` {x, y, result, heading}: a dud's click, a punji pit opening, a grenade's flash, a mine's
  blast, an alarm's rattle, a claymore's fan of pellets along its heading (G-08, DD-9B.1, TUN-7); the
  template's own blast events follow it as for any blast.
* ``trap_found`` {x, y, how}: the chit is lifted into view (DD-9B.2, G-13).

Markers (``pieces.MARKER_DRAWERS``): a ``tunnel_section`` that opens on the table is its hatch (a spider
hole its woven lid), rubble once collapsed, under a pale haze while gassed; the Insurgent's view shows its
concealed hatches ringed faintly. A ``booby_trap`` is a yellow chit once found, faint while hidden (the
Insurgent's own), a sprung pit or scorch once sprung. Underground sections are the cutaway's
(``underground``), never drawn on the surface.

In the attract mode (the presenter's ``auto_cutaway``) the underground events open the cutaway for their
beat (``Underground.peek``).

What it leaves out: no ropes or lights down the shaft, no gas mask on the rats, no smoke from a tunnel's
other entrances after a gassing (the engine does not say which would leak).
"""

from __future__ import annotations

import math

import panda3d.core as p3d
from direct.interval.IntervalGlobal import Func, LerpFunctionInterval, Parallel, Sequence, Wait

from game.client import fx, geom
from game.client.effects import DUST, FLASH, banner, ring
from game.client.presenter import Beat, Stage, handles

GAS = (0.9, 0.93, 0.8, 0.55)
DUST_BROWN = (0.5, 0.4, 0.28, 0.85)
PELLET = (1.0, 0.86, 0.5, 1.0)
WORD = (1.0, 0.82, 0.35, 1)
FOUND = (0.94, 0.89, 0.26, 1.0)  # a found thing's ring: the dice-hit yellow (PRESENCE.md)
LIDS = {"spider_hole": ("spider_hole", "spider_lid", 0.27), "entrance": ("hatch", "hatch_lid", 0.3),
        "bunker": ("hatch", "hatch_lid", 0.3), "trench": ("hatch", "hatch_lid", 0.3)}
"""A surface section's models: its frame, its lid (hinged on its -x edge) and the lid's half width."""
TRAP_WORDS = {"dud": "DUD", "punji": "PUNJI PIT!", "grenade": "GRENADE TRAP!", "mine": "MINE!", "alarm": "ALARM!",
              "claymore": "CLAYMORE!"}
RAT_WORDS = {"cleared": "TUNNEL CLEARED", "killed": "RAT LOST", "lost": "RAT LOST", "nothing": "NOTHING FOUND",
             "found": "CONTACT BELOW", "contact": "CONTACT BELOW"}


# -- markers ----------------------------------------------------------------------------------------------
def draw_section(pieces, np_: p3d.NodePath, m: dict) -> bool:
    """A tunnel section's hatch on the table (surface kinds only: the rest is the cutaway's)."""
    from game.client.underground_geom import section_kind

    kind = section_kind(m)
    if kind not in LIDS and not m.get("surface"):
        return False
    lib = pieces.library
    frame, lid, half = LIDS.get(kind, LIDS["entrance"])
    state = str(m.get("state") or "open")
    if state == "collapsed":
        if lib.has("rubble"):
            lib.instance("rubble", np_)
        return True
    if lib.has(frame):
        lib.instance(frame, np_)
    if lib.has(lid):
        hinge = np_.attach_new_node("lid")
        hinge.set_pos(-half, 0, 0.02)
        lib.instance(lid, hinge)
    if state == "gassed" and lib.has("smoke"):
        haze = lib.instance("smoke", np_)
        haze.set_scale(0.9, 0.9, 0.5)
        haze.set_color_scale(*GAS[:3], 1)
        haze.set_transparency(p3d.TransparencyAttrib.M_alpha)
        haze.set_alpha_scale(0.45)
        haze.set_bin("transparent", 10)
        haze.set_depth_write(False)
    if m.get("concealed"):  # only the Insurgent's view lists a concealed hatch the Allies have not found
        from game.client.pieces import SIDE_COLORS

        geom.lines("concealed", [geom.circle_points(0, 0, 0.75, 0.05, 32)], (*SIDE_COLORS["insurgent"][:3], 0.55),
                   2.0).reparent_to(np_)
    if m.get("trapped") and lib.has("trap_chit"):  # TUN-7: the Insurgent's own knowledge
        chit = lib.instance("trap_chit", np_)
        chit.set_pos(0.7, -0.5, 0)
        chit.set_scale(0.6)
    return True


def draw_trap(pieces, np_: p3d.NodePath, m: dict) -> bool:
    """A booby trap: hidden (the Insurgent's own: a faint chit), found (the chit), sprung (its scar)."""
    lib = pieces.library
    state = str(m.get("state") or "found")
    if state == "sprung":
        key = "punji_pit" if m.get("result") == "punji" else "crater"
        if lib.has(key):
            scar = lib.instance(key, np_)
            if key == "crater":
                scar.set_scale(0.35)
        return True
    if lib.has("trap_chit"):
        chit = lib.instance("trap_chit", np_)
        if state == "hidden":
            chit.set_transparency(p3d.TransparencyAttrib.M_alpha)
            chit.set_alpha_scale(0.45)
    return True


# -- what the handlers share -------------------------------------------------------------------------------
def layer(stage: Stage):
    return getattr(stage.scene, "underground", None)


def peek(stage: Stage, hold: float):
    """In the attract mode, open the cutaway for this beat (an interval), else None."""
    under = layer(stage)
    if under is None or not getattr(stage.presenter, "auto_cutaway", False) or not under.known:
        return None
    return under.peek(hold)


def hatch_of(stage: Stage, section) -> p3d.NodePath | None:
    """The lid's hinge of a section's hatch on the table, if the view drew one."""
    node = stage.pieces.markers.get(str(section)) if section is not None else None
    if node is None or node.is_empty():
        return None
    lid = node.find("lid")
    return None if lid.is_empty() else lid


def swing(lid: p3d.NodePath | None, seconds: float = 0.5, hold: float = 1.0) -> Sequence | None:
    """The lid swings up on its hinge, stays open ``hold`` seconds, and drops shut."""
    if lid is None:
        return None

    def at(k: float) -> None:
        if not lid.is_empty():
            lid.set_r(-110.0 * k)

    return Sequence(LerpFunctionInterval(at, seconds, 0.0, 1.0, blendType="easeOut"), Wait(hold),
                    LerpFunctionInterval(at, seconds * 0.7, 1.0, 0.0, blendType="easeIn"))


def where(stage: Stage, ev: dict):
    if "x" in ev and "y" in ev:
        return stage.ground(float(ev["x"]), float(ev["y"]), 0.0)
    node = stage.pieces.markers.get(str(ev.get("section")))
    if node is not None and not node.is_empty():
        p = node.get_pos()
        return (p.x, p.y, p.z)
    return None


def _parts(*items) -> list:
    return [i for i in items if i is not None]


# -- the tunnels -------------------------------------------------------------------------------------------
@handles("tunnel_found")
def on_tunnel_found(stage: Stage, ev: dict) -> Beat | None:
    """DD-9B.3, TUN-5: the search turns up a hatch; its lid comes up, a ring pulses round it."""
    g = where(stage, ev)
    if g is None:
        return None
    stage.focus(0.0, 7, "tunnel_found", g, hold=3.5, distance=18.0)
    return Beat(Parallel(*_parts(swing(hatch_of(stage, ev.get("section")), 0.6, 1.6),
                                 ring(stage, g[0], g[1], 0.9, FOUND, 2.2, grow=0.8, width=4),
                                 banner(stage, "TUNNEL FOUND", g, WORD, 2.2, 0.6))), 1.2)


def _sink(stage: Stage, element, g, down: bool, stands: list | None = None):
    """The element's stands slide to the hatch and sink into it (``down``), or rise from it to where the
    event (or the next view) puts them."""
    ids = stage.element_stands(element)
    parts = []
    for i, sid in enumerate(ids):
        piece = stage.pieces.stands.get(sid)
        if piece is None:
            continue
        node = piece.node
        start = node.get_pos()
        end = next(((float(s["x"]), float(s["y"])) for s in stands or [] if s.get("id") == sid), (start.x, start.y))
        z_end = stage.height_at(*end)

        def at(k, node=node, start=start, end=end, z_end=z_end):
            if node.is_empty():
                return
            if down:
                if k < 0.6:
                    q = k / 0.6
                    node.set_pos(start.x + (g[0] - start.x) * q, start.y + (g[1] - start.y) * q, start.z)
                else:
                    node.set_pos(g[0], g[1], g[2] - 1.2 * (k - 0.6) / 0.4)
            else:
                if k < 0.4:
                    node.set_pos(g[0], g[1], g[2] - 1.2 * (1 - k / 0.4))
                else:
                    q = (k - 0.4) / 0.6
                    node.set_pos(g[0] + (end[0] - g[0]) * q, g[1] + (end[1] - g[1]) * q, g[2] + (z_end - g[2]) * q)

        parts.append(Sequence(Wait(0.25 * i), Func(node.show), LerpFunctionInterval(at, 1.4, 0.0, 1.0),
                              Func(node.hide) if down else Wait(0)))
    return parts


@handles("tunnel_enter")
def on_tunnel_enter(stage: Stage, ev: dict) -> Beat | None:
    """DD-9B.4, TUN-8: the lid opens and the element goes down into the hatch."""
    g = where(stage, ev)
    if g is None:
        return None
    parts = _parts(swing(hatch_of(stage, ev.get("section")), 0.5, 1.6), peek(stage, 4.0))
    parts += _sink(stage, ev.get("element"), g, True)
    stage.focus(0.0, 6, "tunnel_enter", g, hold=3.0, distance=16.0)
    return Beat(Parallel(*parts), 1.6)


@handles("tunnel_emerge")
def on_tunnel_emerge(stage: Stage, ev: dict) -> Beat | None:
    """DD-9B.4, TUN-8, DD-2.32: the lid opens and the element climbs out to its places."""
    g = where(stage, ev)
    if g is None:
        return None
    parts = _parts(swing(hatch_of(stage, ev.get("section")), 0.4, 1.8),
                   fx.burst(stage.root, g, fx.BurstSpec("puff", count=6, life=(0.6, 1.0), speed=(0.5, 1.0),
                                                        up=(0.6, 1.0), size=(0.1, 0.35), color=DUST), stage.rng))
    parts += _sink(stage, ev.get("element"), g, False, ev.get("stands"))
    stage.focus(0.0, 7, "tunnel_emerge", g, hold=3.0, distance=16.0)
    return Beat(Parallel(*parts), 1.4)


@handles("tunnel_gas")
def on_tunnel_gas(stage: Stage, ev: dict) -> Beat | None:
    """DD-9B.6, G-35: CS gas pours out of the entrance, a pale cloud growing and drifting for its turns."""
    g = where(stage, ev)
    if g is None:
        return None
    wind = (0.35, 0.2, 0.0)
    cloud = fx.burst(stage.root, (g[0], g[1], g[2] + 0.1), fx.BurstSpec(
        "puff", count=18, spawn=2.5, life=(2.5, 4.0), speed=(0.3, 0.9), up=(0.3, 0.7), size=(0.3, 1.6),
        color=GAS, drag=0.8, rise=0.15, wind=wind, fade_in=0.2, fade_out=0.6), stage.rng)
    turns = ev.get("until_turn")
    text = f"CS GAS (TO TURN {turns})" if turns is not None else "CS GAS"
    stage.focus(0.0, 7, "tunnel_gas", g, hold=4.0, distance=20.0)
    return Beat(Parallel(*_parts(cloud, stage.cue("pop", g), banner(stage, text, g, (0.92, 0.95, 0.8, 1), 2.5, 0.55),
                                 peek(stage, 4.0))), 1.5)


@handles("tunnel_charge")
def on_tunnel_charge(stage: Stage, ev: dict) -> Beat | None:
    """TUN-22: a satchel is set at the hatch; its fuse sputters."""
    g = where(stage, ev)
    if g is None:
        return None
    sparks = fx.burst(stage.root, (g[0] + 0.2, g[1], g[2] + 0.15), fx.BurstSpec(
        "spark", count=16, spawn=1.6, life=(0.2, 0.4), speed=(0.6, 1.4), up=(0.5, 1.0), size=(0.05, 0.02),
        color=PELLET, additive=True, gravity=3.0), stage.rng)
    stage.focus(0.0, 6, "tunnel_charge", g, hold=3.0, distance=16.0)
    return Beat(Parallel(sparks, banner(stage, "CHARGES SET", g, WORD, 2.0, 0.55)), 1.0)


@handles("tunnel_collapse")
def on_tunnel_collapse(stage: Stage, ev: dict) -> Beat | None:
    """DD-9B.7, TUN-22: the charge goes; a plume of dust from the hatch, the ground shakes, the hatch is
    gone (the view leaves its rubble)."""
    g = where(stage, ev)
    if g is None:
        return None
    node = stage.pieces.markers.get(str(ev.get("section")))
    parts = [fx.flash(stage.root, (g[0], g[1], g[2] + 0.3), 1.6, FLASH, life=0.2),
             fx.burst(stage.root, g, fx.BurstSpec("puff", count=22, life=(1.8, 3.2), speed=(1.0, 3.0), up=(0.7, 1.0),
                                                  cone=360, size=(0.3, 1.8), color=DUST_BROWN, drag=1.2, rise=0.6),
                      stage.rng),
             fx.burst(stage.root, g, fx.BurstSpec("puff", count=10, life=(0.6, 1.2), speed=(2.0, 4.0), up=(0.3, 0.8),
                                                  size=(0.08, 0.15), color=(0.3, 0.22, 0.14, 1), gravity=9.0), stage.rng),
             stage.cue("explosion", g), stage.shake(0.6, g),
             ring(stage, g[0], g[1], 1.2, DUST_BROWN, 1.2, grow=1.5, width=5)]
    if node is not None and not node.is_empty():
        parts.append(Sequence(Wait(0.15), Func(node.hide)))
    under = layer(stage)
    if under is not None and under.is_open and under.point(ev.get("section")) is not None:
        c = under.point(ev.get("section"))
        parts.append(fx.burst(under.fx, c, fx.BurstSpec("puff", count=10, life=(1.0, 2.0), speed=(0.3, 0.8),
                                                             size=(0.2, 0.6), color=DUST_BROWN), stage.rng))
    stage.focus(0.0, 8, "tunnel_collapse", g, hold=4.0, distance=20.0)
    return Beat(Parallel(*_parts(*parts, peek(stage, 3.0))), 1.2)


@handles("tunnel_move")
def on_tunnel_move(stage: Stage, ev: dict) -> Beat | None:
    """TUN-8, TUN-9: the element's figures crawl from section to section under the table."""
    from game.client.underground import animate_figure

    under = layer(stage)
    a, b = ev.get("from"), ev.get("to")
    if under is None or a is None or b is None:
        return None
    crawl = animate_figure(under, str(ev.get("element")), str(a), str(b), 2.2)
    if crawl is None:
        return None
    c = under.point(b)
    stage.focus(0.0, 4, "tunnel_move", c, hold=2.5, distance=14.0)
    return Beat(Parallel(*_parts(crawl, peek(stage, 2.6))), 2.2)


def flashes(stage: Stage, parent: p3d.NodePath, c, n: int = 8) -> list:
    """Muzzle flashes round a point, a short ragged exchange (cosmetic dice: the stage's seeded rng)."""
    out, t = [], 0.0
    for k in range(n):
        p = (c[0] + stage.rng.uniform(-0.4, 0.4), c[1] + stage.rng.uniform(-0.4, 0.4), c[2] + stage.rng.uniform(0, 0.3))
        out.append(fx.flash(parent, p, 0.45 if k % 2 else 0.3, FLASH, delay=t, life=0.08,
                            kind="flash" if k % 2 else "spark"))
        t += 0.12 + stage.rng.uniform(0.0, 0.15)
    return out


@handles("tunnel_fight")
def on_tunnel_fight(stage: Stage, ev: dict) -> Beat | None:
    """TUN-15..TUN-18: close combat in the section: flashes in the dark, then the loser's word."""
    under = layer(stage)
    c = under.point(ev.get("section")) if under is not None else None
    parts = []
    if c is not None:
        fx_root = under.fx.attach_new_node("fight")
        from game.client.underground import BIN_FX

        fx_root.set_bin(BIN_FX, 0, 40)
        # the holder goes once its last flash has died, never while one is still to come
        parts.append(Sequence(Parallel(*flashes(stage, fx_root, c)), Func(fx_root.remove_node)))
    g = where(stage, ev) or (stage.ground(c[0], c[1]) if c is not None else None)
    if g is None:
        return None
    word = {"destroyed": "DESTROYED BELOW", "withdrew": "WITHDRAWS BELOW"}.get(str(ev.get("result")), "FIGHT BELOW")
    parts += [stage.cue("grenade", g), banner(stage, word, g, WORD, 2.2, 0.55)]
    stage.focus(0.0, 8, "tunnel_fight", c or g, hold=3.5, distance=14.0)
    return Beat(Parallel(*_parts(*parts, peek(stage, 3.0))), 1.8)


@handles("tunnel_rat")
def on_tunnel_rat(stage: Stage, ev: dict) -> Beat | None:
    """G-35 (the rat's roll without the module): the result said at the entrance."""
    g = where(stage, ev)
    if g is None:
        stands = stage.element_stands(ev.get("element"))
        p = stage.stand_pos(stands[0]) if stands else None
        g = (p.x, p.y, p.z) if p is not None else None
    if g is None:
        return None
    word = RAT_WORDS.get(str(ev.get("result")), str(ev.get("result") or "TUNNEL RAT").upper().replace("_", " "))
    stage.focus(0.0, 6, "tunnel_rat", g, hold=3.0, distance=18.0)
    return Beat(Parallel(*_parts(swing(hatch_of(stage, ev.get("section")), 0.4, 1.0),
                                 banner(stage, word, g, WORD, 2.4, 0.55))), 1.2)


# -- booby traps ---------------------------------------------------------------------------------------------
def claymore_fan(stage: Stage, g, heading: float, reach: float = 6.0, n: int = 14) -> list:
    """A claymore's pellets fanned 60 degrees along its heading (the view's: 0 east, counter-clockwise)."""
    out = []
    for k in range(n):
        a = math.radians(heading - 30.0 + 60.0 * k / (n - 1) + stage.rng.uniform(-2, 2))
        end = (g[0] + reach * math.cos(a), g[1] + reach * math.sin(a), g[2] + 0.25 + stage.rng.uniform(-0.1, 0.2))
        out.append(fx.streak(stage.root, (g[0], g[1], g[2] + 0.25), end, PELLET, 0.6, 1.5, 90.0,
                             delay=stage.rng.uniform(0, 0.04)))
    return out


@handles("booby_trap")
def on_booby_trap(stage: Stage, ev: dict) -> Beat | None:
    """G-08, DD-9B.1: a trap springs under the stand that set it off, by its result."""
    g = where(stage, ev)
    if g is None:
        return None
    result = str(ev.get("result") or "dud")
    parts = [banner(stage, TRAP_WORDS.get(result, result.upper()), g, (1.0, 0.45, 0.3, 1), 2.2, 0.6)]
    if result == "dud":
        parts.append(fx.burst(stage.root, g, fx.BurstSpec("puff", count=5, life=(0.5, 0.9), speed=(0.2, 0.5),
                                                          size=(0.1, 0.3), color=DUST), stage.rng))
    elif result == "punji":
        pit = stage.pieces.library.instance("punji_pit", stage.root) if stage.pieces.library.has("punji_pit") else None
        if pit is not None:
            parts.append(fx.ground_mark(stage.root, pit, (g[0], g[1], g[2] + 0.01), 1.0, grow=0.35))
        parts.append(fx.burst(stage.root, g, fx.BurstSpec("puff", count=6, life=(0.5, 0.9), speed=(0.3, 0.8),
                                                          up=(0.3, 0.8), size=(0.1, 0.3), color=DUST), stage.rng))
    elif result == "alarm":
        parts += [ring(stage, g[0], g[1], 0.5, WORD, 1.4, grow=3.0, width=3, delay=0.3 * k) for k in range(3)]
    else:
        size = {"grenade": 1.0, "mine": 1.6, "claymore": 1.2}.get(result, 1.0)
        parts += [fx.flash(stage.root, (g[0], g[1], g[2] + 0.3), size, FLASH, life=0.18),
                  fx.burst(stage.root, g, fx.BurstSpec("puff", count=12, life=(0.8, 1.6), speed=(1.0, 2.5),
                                                       up=(0.5, 1.0), size=(0.2, 0.9 * size), color=DUST_BROWN,
                                                       drag=1.5, rise=0.3), stage.rng),
                  stage.cue("explosion_small" if result != "mine" else "explosion", g), stage.shake(0.3 * size, g)]
        if result == "claymore":
            parts += claymore_fan(stage, g, float(ev.get("heading") or 0.0))
    stage.focus(0.0, 8, "booby_trap", g, hold=3.5, distance=18.0)
    return Beat(Parallel(*parts), 1.0)


@handles("trap_found")
def on_trap_found(stage: Stage, ev: dict) -> Beat | None:
    """DD-9B.2, G-13: a hidden trap is found and disarmed; its chit is lifted into view."""
    g = where(stage, ev)
    if g is None:
        return None
    lib = stage.pieces.library
    parts = [ring(stage, g[0], g[1], 0.7, FOUND, 2.0, grow=0.6, width=4),
             banner(stage, "TRAP FOUND", g, FOUND, 2.0, 0.55)]
    if lib.has("trap_chit"):
        chit = lib.instance("trap_chit", stage.root)
        chit.set_pos(*g)

        def at(k: float) -> None:
            chit.set_z(g[2] + 0.9 * math.sin(math.pi * k))
            chit.set_h(360.0 * k)

        parts.append(Sequence(LerpFunctionInterval(at, 1.2, 0.0, 1.0), Func(chit.hide)))
    stage.focus(0.0, 6, "trap_found", g, hold=3.0, distance=16.0)
    return Beat(Parallel(*parts), 0.9)


RATS_WORDS = {"inbound": "TUNNEL RATS INBOUND", "wave_off": "RATS WAVE OFF", "crash": "RATS' HUEY DOWN",
              "touchdown": "TUNNEL RATS LAND"}


@handles("tunnel_rats")
def on_tunnel_rats(stage: Stage, ev: dict) -> Beat | None:
    """TUN-14, G-43: the Tunnel Rats called in by helicopter: the smoke's ring and the word at the LZ (the
    Huey itself is not flown here: what is left out)."""
    g = where(stage, ev)
    if g is None:
        return None
    phase = str(ev.get("phase") or "inbound")
    crash = phase == "crash"
    parts = [ring(stage, g[0], g[1], 1.2, WORD, 2.4, grow=0.5, width=4),
             banner(stage, RATS_WORDS.get(phase, phase.upper()), g, (1.0, 0.45, 0.3, 1) if crash else WORD, 2.4, 0.6)]
    if crash:
        parts += [fx.flash(stage.root, (g[0], g[1], g[2] + 0.4), 2.0, FLASH, life=0.25), stage.cue("explosion", g),
                  stage.shake(0.5, g)]
    stage.focus(0.0, 8 if crash else 5, "tunnel_rats", g, hold=3.0, distance=24.0)
    return Beat(Parallel(*parts), 1.0)


@handles("tunnel_casualty")
def on_tunnel_casualty(stage: Stage, ev: dict) -> Beat | None:
    """TUN-18: a stand falls underground; its casualty must be brought out before the next push."""
    under = layer(stage)
    c = under.point(ev.get("section")) if under is not None else None
    if c is None:
        return None
    g = stage.ground(c[0], c[1])
    fx_root = under.fx.attach_new_node("casualty")
    from game.client.underground import BIN_FX

    fx_root.set_bin(BIN_FX, 0, 40)
    parts = [Sequence(fx.flash(fx_root, c, 0.6, (1.0, 0.3, 0.2, 1), life=0.3), Func(fx_root.remove_node)),
             banner(stage, "CASUALTY BELOW", g, (1.0, 0.45, 0.3, 1), 2.2, 0.55)]
    stage.focus(0.0, 7, "tunnel_casualty", c, hold=3.0, distance=14.0)
    return Beat(Parallel(*_parts(*parts, peek(stage, 2.5))), 1.0)
