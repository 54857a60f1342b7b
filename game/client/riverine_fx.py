"""What the river and the night look like on the table (DD chapter 9A): a trip flare popping over the
wire, a Tango boat's ramp dropping onto the bank, a boat running aground or going down.

Handlers for the engine's ``trip_flare`` (DD-9A.2), ``ramp`` (DD-9A.9), ``beached`` and ``sunk`` (G-14)
events; the river mine's geyser is ``armour_fx.on_mine``, the star shell ``airstrike.on_illumination``.
Each draws from the events' own fields and the vehicle pieces' moving parts (``game.client.vehicles``),
and leaves nothing behind once its beat is over but what the next view shows (a wreck marker).

What it leaves out: no sinking animation beyond the hull settling and vanishing under its foam; the
trip flare's stake is not modelled (its light and its rocket are).
"""

from __future__ import annotations

from direct.interval.IntervalGlobal import Func, LerpFunctionInterval, Parallel, Sequence, Wait

from game.client import fx
from game.client.airstrike import flare
from game.client.armour_fx import BLACK_SMOKE, kit_of, ring
from game.client.presenter import Beat, Stage, handles

SPRAY = (0.86, 0.9, 0.9, 0.85)


@handles("trip_flare")
def on_trip_flare(stage: Stage, ev: dict) -> Beat | None:
    """DD-9A.2: the flare hisses up a few inches over its stake and burns down, lighting its 6" circle."""
    if "x" not in ev or "y" not in ev:
        return None
    x, y, r = float(ev["x"]), float(ev["y"]), float(ev.get("radius", 3.0))
    g = stage.ground(x, y, 0.1)
    stage.focus(0.0, 8, "trip_flare", stage.ground(x, y, 3.0), hold=4.0, distance=30.0)
    return Beat(Parallel(
        fx.flash(stage.root, (g[0], g[1], g[2] + 0.3), 0.8, (1.0, 0.95, 0.8, 1), life=0.15),
        stage.cue("pop", g),
        flare(stage, x, y, r, seconds=8.0, top=6.0, low=1.0),
    ), 1.5)


@handles("ramp")
def on_ramp(stage: Stage, ev: dict) -> Beat | None:
    """DD-9A.9: the bow ramp drops onto the bank (it stays down while the troops go ashore)."""
    kit = kit_of(stage, ev.get("vehicle"))
    if kit is None or kit.ramp is None:
        return None
    ramp = kit.ramp
    down = bool(ev.get("down", True))

    def at(k: float) -> None:
        ramp.set_p(-75.0 * (k if down else 1.0 - k))

    c = kit.centre()
    parts = [LerpFunctionInterval(at, 0.8, 0.0, 1.0, blendType="easeInOut")]
    if down and "x" in ev and "y" in ev:
        g = stage.ground(float(ev["x"]), float(ev["y"]), 0.05)
        parts.append(Sequence(Wait(0.7), fx.burst(stage.root, g, fx.BurstSpec(
            "puff", count=8, life=(0.6, 1.1), speed=(1.0, 2.0), up=(0.5, 0.9), size=(0.1, 0.3), color=SPRAY,
            drag=1.5, gravity=6.0), stage.rng)))
    stage.focus(0.0, 6, "ramp", (c.x, c.y, c.z), hold=3.0, distance=22.0)
    return Beat(Parallel(*parts), 0.9)


@handles("beached")
def on_beached(stage: Stage, ev: dict) -> Beat | None:
    """G-14, DD-9A.12: the boat grinds onto the bank; burning, it becomes a wreck there."""
    kit = kit_of(stage, ev.get("vehicle"))
    if kit is None:
        return None
    c = kit.centre()
    parts = [kit.jolt(6.0)]
    if ev.get("burning"):
        parts.append(Sequence(Wait(0.3), Func(kit.set_wreck, True, 1.0)))
        parts.append(fx.burst(stage.root, (c.x, c.y, c.z), fx.BurstSpec(
            "puff", count=10, life=(2.0, 3.0), speed=(0.2, 0.6), up=(0.8, 1.0), size=(0.4, 1.4),
            color=BLACK_SMOKE, rise=1.2), stage.rng))
    stage.focus(0.0, 7, "beached", (c.x, c.y, c.z), hold=3.5, distance=24.0)
    return Beat(Parallel(*parts), 0.6)


@handles("sunk")
def on_sunk(stage: Stage, ev: dict) -> Beat | None:
    """G-14: the boat settles and goes under, leaving foam and a ring on the water."""
    kit = kit_of(stage, ev.get("vehicle"))
    if "x" in ev and "y" in ev:
        x, y = float(ev["x"]), float(ev["y"])
    elif kit is not None:
        c = kit.centre()
        x, y = c.x, c.y
    else:
        return None
    g = stage.ground(x, y, 0.02)
    parts = [
        fx.burst(stage.root, g, fx.BurstSpec("puff", count=14, life=(1.5, 2.5), speed=(0.5, 1.5), up=(0.1, 0.4),
                                             size=(0.3, 1.0), color=SPRAY, drag=1.2), stage.rng),
        ring(stage, x, y, 1.5, (0.92, 0.96, 0.96, 1), 2.5, grow=0.8, width=4, lift=0.05),
    ]
    if kit is not None:
        node = kit.node
        if node is not None and not node.is_empty():
            z0 = node.get_z()
            parts.append(LerpFunctionInterval(lambda k: node.set_z(z0 - 1.2 * k), 2.0, 0.0, 1.0,
                                              blendType="easeIn"))
    stage.focus(0.0, 8, "sunk", g, hold=4.0, distance=24.0)
    return Beat(Parallel(*parts), 1.0)
