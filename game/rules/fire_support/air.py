"""Air support along a heading (DD-8.5, DD-8.11, DD-4.36, DD-3.8; G-18, G-19, G-22, G-25, G-38).

* **The call** (``call_air``, DD-8.5–8.7): an FO, officer or RTO of the acting element (``callers``)
  pays the activation and names a CAS or gunship asset on call (DD-8.3), the marked point, the attack
  heading arrow and the marking smoke its element pops (G-18: a coloured grenade thrown up to 4" from
  the caller, its colour chosen secretly; ``none`` leaves the target unmarked). The heading may not
  point within 45° of a friendly stand within 12" of the footprint's centre (G-22; DD-8.5: parallel to
  friendly lines, never toward them). Grounded in the monsoon (DD-3.8); Spooky by night only (G-19).
  A ``fire_mission`` clock with the asset's delay (DD-8.7) brings it: ``missions.on_clock`` calls
  :func:`arrive`, which puts a gunship on station (``gunship``) or flies the strike.
* **The pass** (:func:`strike`): the pilot announces the smoke he sees; the Pass Deviation Roll (G-22:
  1–3 on line, 4 short 1d6" back, 5 long 1d6" forward, 6 yaw 45°, 1–3 left), twice for an unmarked
  target (no smoke and no FAC); a VC spoof on the plume means an RTO Radio Check (4+, DD-4.37) or 2d6"
  more toward the spoof smoke (``spoof``); then the ``air_pass`` event (the aircraft, its track across
  the table, altitude profile, release points, footprint) and the template attack
  (``game.rules.template``): napalm's oval with its own saves (6, bunkers and trenches 5+), bombs'
  Heavy circle and crater, rockets' and the gunship's strip, Spooky's beaten zone and 6" light; Danger
  Close (DD-8.9); napalm burns the canopy (``terrain_changes``) and the fire blocks sight to the end of
  the turn (G-19, G-38: ``burning`` clocks, circles along the oval); napalm near a village moves Civic
  Drift -2 (DD-9B.9).
* **The FAC** (``fac_o1``, DD-8.5, G-18): a ``[[support]]`` row of kind ``fac``; overhead, no strike is
  unmarked and the Radio Check gets +1 (PROPOSAL).

State: the plumes (:class:`Plume`), spoofs (:class:`Spoof`) and gunships on station (:class:`Gunship`)
live in ``FireSupportState``. Fog (docs/fog.md): the call, the smoke's colour, the pilot's words and the
deviation roll are the caller's side's; the plume (without its colour), the pass, the Radio Check and
every effect are public. The odds of a pass: ``air_odds``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shapely.geometry import Point

from game.rules.dice import Modifier, resolve_test
from game.rules.errors import IllegalAction
from game.rules.fire_support.missions import (
    Light,
    Mission,
    _next_id,
    _point,
    caller_of,
    callers,
    fs_state,
    may_call,
    near_village,
    rules,
    salvo,
    sees_point,
    support_of,
)
from game.rules.fire_support.tables import AirRules, Asset
from game.rules.game import ActionKind, register
from game.rules.state import Clock, Element, Stand, base_of

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.rules.template import Template

AIR_KINDS = ("cas", "gunship")


# -- the chapter's state (FireSupportState.plumes, .spoofs, .gunships) ------------------------------------
@dataclass
class Plume:
    """An Allied marking smoke (G-18): public where it is, its colour the caller's side's secret. It stays
    up until the strike it marks arrives (the element keeps a grenade going; G-38 gives each grenade to
    the end of the next turn)."""

    id: str
    side: str
    x: float
    y: float
    colour: str
    stand: str
    mission: str
    turn: int


@dataclass
class Spoof:
    """A VC smoke of the same colour within 4" of an Allied plume (DD-4.37): the Insurgent's secret."""

    id: str
    plume: str
    element: str
    x: float
    y: float
    colour: str
    turn: int


@dataclass
class Gunship:
    """A gunship on station (G-27): until the end of turn ``until`` or its last attack."""

    id: str
    side: str
    asset: str
    x: float
    y: float
    until: int
    attacks: int


# -- helpers ---------------------------------------------------------------------------------------
def air_rules(g: Game) -> AirRules:
    return rules(g).air


def _grounded(g: Game) -> bool:
    from game.rules.fire_support import air_grounded

    return air_grounded(g)


def is_night(g: Game) -> bool:
    return g.state.time_of_day.startswith("night")


def fac_overhead(g: Game, side: str) -> bool:
    """DD-8.5, G-18: the scenario gives the side a FAC (a ``[[support]]`` row of kind ``fac``), not grounded
    and not at night (G-23: by night only the AC-47 and gunships fly)."""
    from game.rules.night import air_flies

    r = rules(g)
    return not _grounded(g) and any(s.side == side and r.assets[s.asset].kind == "fac" and air_flies(g, r.assets[s.asset])
                                    for s in g.scenario.support)


def delay_of(g: Game, a: Asset) -> int:
    """An air asset's delay clock (DD-8.7, G-19), with the weather's air delay (G-07 (2)-(4): +1)."""
    from game.rules.weather import effect

    return a.delay + int(effect(g, "air_delay"))


def air_on_call(g: Game, side: str) -> list[tuple[Asset, int]]:
    from game.rules.fire_support.missions import assets_on_call

    return [(a, n) for a, n in assets_on_call(g, side) if a.kind in AIR_KINDS]


def refuse_asset(g: Game, side: str, aid: Any) -> Asset:
    """The air asset named, or IllegalAction with the clause that refuses it."""
    r = rules(g)
    a = r.assets.get(aid) if isinstance(aid, str) else None
    row = next((s for s in g.scenario.support if s.side == side and s.asset == aid), None)
    if a is None or a.kind not in AIR_KINDS or row is None:
        known = ", ".join(sorted(x.id for x, _ in air_on_call(g, side))) or "none"
        raise IllegalAction(f"no air asset {aid!r} on call for the {side} side (on call: {known})", "DD-8.3; G-19")
    if _grounded(g):
        raise IllegalAction(f"the monsoon grounds all air support: no {a.name}", "DD-3.8")
    if a.night_only and not is_night(g):
        raise IllegalAction(f"the {a.name} flies by night only", "G-19")
    from game.rules.night import air_flies

    if not air_flies(g, a):
        raise IllegalAction(f"by night only the AC-47 and gunships fly: no {a.name}", "G-23; DD-9A.1")
    if row.missions - fs_state(g).used.get(f"{side}:{a.id}", 0) <= 0:
        raise IllegalAction(f"no {a.name} missions left ({row.missions} given)", "DD-8.3")
    return a


def friendly_stands(g: Game, side: str) -> list[Stand]:
    """The side's own living stands on the table (under a Blind too: the side knows where they are)."""
    return sorted((s for s in g.state.stands.values()
                   if s.side == side and s.alive and not g.state.elements[s.element].reserve), key=lambda s: s.id)


def _diff(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def forbidden_arcs(g: Game, side: str, x: float, y: float) -> list[dict]:
    """G-22: the headings refused at (x, y): within 45° of the bearing to each friendly stand within
    12" of the centre (DD-8.5: never toward friendly lines). Each {stand, bearing, from, to} in degrees."""
    r = air_rules(g)
    out = []
    for st in friendly_stands(g, side):
        if base_of(g.book, st).distance(Point(x, y)) > r.heading_reach + 1e-9:
            continue
        if math.hypot(st.x - x, st.y - y) < 1e-6:
            out.append({"stand": st.id, "bearing": 0.0, "from": 0.0, "to": 360.0})
            continue
        b = math.degrees(math.atan2(st.y - y, st.x - x)) % 360.0
        out.append({"stand": st.id, "bearing": round(b, 2), "from": round((b - r.heading_arc) % 360.0, 2),
                    "to": round((b + r.heading_arc) % 360.0, 2)})
    return out


def check_heading(g: Game, side: str, x: float, y: float, heading: float) -> None:
    arcs = forbidden_arcs(g, side, x, y)
    bad = [a for a in arcs if a["to"] - a["from"] == 360.0 or _diff(heading, a["bearing"]) <= air_rules(g).heading_arc]
    if bad:
        near = ", ".join(f"{a['stand']} at {a['bearing']:g}°" for a in bad)
        refused = ", ".join(f"{a['from']:g}°-{a['to']:g}°" for a in arcs)
        raise IllegalAction(f"the heading {heading:g}° points toward friendly stands ({near}); headings refused "
                            f"here: {refused}", "G-22; DD-8.5")


def _heading(value: Any, clause: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise IllegalAction("'heading' must be an angle in degrees (0 along +x, 90 along +y)", clause)
    return round(float(value) % 360.0, 2)


def footprint(a: Asset, x: float, y: float, heading: float) -> Template:
    """The asset's template at (x, y) along ``heading`` (G-19, G-25)."""
    from game.rules import fire, template

    save = (fire.SaveOverride(tuple(a.save_strips) or ("all",), a.save, a.fortified_save or None, "G-19")
            if a.save else None)
    what = dict(kind=a.id, fp=a.fp, ap=a.ap, name=a.name, clause=a.clause, save_override=save,
                look_out_sir=a.look_out_sir)
    if a.shape == "circle":
        return template.Template("circle", float(x), float(y), radius=a.radius, heading=float(heading), **what)
    make = template.oval if a.shape == "oval" else template.strip
    return make(x, y, heading, a.length, a.width, **what)


def _clamp(g: Game, x: float, y: float) -> tuple[float, float]:
    return (round(min(max(x, 0.0), g.scenario.width), 2), round(min(max(y, 0.0), g.scenario.height), 2))


def _pose(g: Game, x: float, y: float, h: float, along: float) -> tuple[float, float]:
    return _clamp(g, x + along * math.cos(math.radians(h)), y + along * math.sin(math.radians(h)))


def deviation_leg(r: AirRules, face: int, dist: int, side_die: int) -> tuple[str, float, float]:
    """One Pass Deviation result (G-22): (result, inches along the heading, degrees of turn)."""
    res = r.deviation[face - 1]
    if res == "short":
        return "short", -float(dist), 0.0
    if res == "long":
        return "long", float(dist), 0.0
    if res == "yaw":
        return ("yaw left", 0.0, r.yaw) if side_die <= r.yaw_left else ("yaw right", 0.0, -r.yaw)
    return "on line", 0.0, 0.0


def apply_leg(g: Game, x: float, y: float, h: float, along: float, turn: float) -> tuple[float, float, float]:
    x, y = _pose(g, x, y, h, along)
    return x, y, round((h + turn) % 360.0, 2)


# -- the call (DD-8.5–8.7) ------------------------------------------------------------------------------
@dataclass
class AirCall:
    asset: str
    caller: str
    x: float
    y: float
    heading: float
    smoke: str
    smoke_x: float
    smoke_y: float
    observed: bool


def _heading_param(g: Game, side: str, a: Asset, optional: bool = False) -> dict:
    r = air_rules(g)
    p = {"kind": "angle", "shape": a.shape, "length": a.length, "width": a.width, "radius": a.radius,
         "arc": r.heading_arc, "reach": r.heading_reach,
         "friendly": [[round(s.x, 3), round(s.y, 3)] for s in friendly_stands(g, side)],
         "doc": "the attack heading arrow (0 along +x, 90 along +y): not within 45° of the bearing from the "
                "point to a friendly stand within 12\" of it (G-22, DD-8.5)"}
    if optional:
        p["optional"] = True
    return p


def _at_param(g: Game, st: Stand, a: Asset) -> dict:
    return {"kind": "point", "from": [round(st.x, 3), round(st.y, 3)],
            "max": round(math.hypot(g.scenario.width, g.scenario.height), 2), "shape": a.shape,
            "radius": a.radius, "length": a.length, "width": a.width,
            "doc": "the marked point: the footprint's centre before the Pass Deviation Roll (G-22)"}


class CallAir(ActionKind):
    """Call an air strike or a gunship (DD-8.5–8.7, G-19, G-27)."""

    type = "call_air"

    def possible(self, g: Game, side: str, types: frozenset[str]) -> bool:
        return support_of(g, side, AIR_KINDS) and may_call(g, types)  # DD-8.3, DD-8.5, DD-8.6

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        on_call, who = air_on_call(g, el.side), callers(g, el)
        if not on_call or not who:
            return []
        r, st = air_rules(g), who[0]
        colours = [*r.smoke_colours, "none"]
        out = []
        for a, left in on_call:
            gun = a.kind == "gunship"
            delay = delay_of(g, a)  # G-07: the weather's air delay
            what = (f"a {a.name}: on station in {delay} turn(s)" if gun
                    else f"a {a.name} strike, {delay}-turn clock")
            out.append({
                "type": self.type, **common, "asset": a.id, "clause": "DD-8.5; DD-8.7; G-19; G-22",
                "label": f"{el.name}: call {what}, {left} left ({price})",
                "params": {
                    "asset": {"kind": "choice", "choices": [a.id], "default": a.id, "doc": a.name},
                    "at": _at_param(g, st, a),
                    "heading": _heading_param(g, el.side, a, optional=gun),
                    "smoke": {"kind": "choice", "choices": colours, "default": _default_colour(r),
                              "doc": "the marking smoke the element pops, chosen secretly (G-18); none: the "
                                     "target is unmarked and the pass rolls twice (G-22)"},
                    "smoke_at": {"kind": "point", "optional": True, "from": [round(st.x, 3), round(st.y, 3)],
                                 "max": r.smoke_reach, "doc": "where the grenade lands: within 4\" of the caller"},
                    "stand": {"kind": "stand", "choices": sorted(s.id for s in who), "default": st.id,
                              "optional": True, "doc": "the FO, officer or RTO who calls it"},
                },
            })
        return out

    def check(self, g: Game, el: Element, action: dict) -> AirCall:
        a = refuse_asset(g, el.side, action.get("asset"))
        caller = caller_of(g, el, action, "air support")
        x, y = _point(g, action.get("at"), "at", "DD-8.5")
        if a.kind == "gunship":
            heading = _heading(action.get("heading", 0.0), "G-27")
        else:
            if "heading" not in action:
                raise IllegalAction("an air strike needs its attack heading arrow", "DD-8.5")
            heading = _heading(action["heading"], "DD-8.5")
            check_heading(g, el.side, x, y, heading)
        r = air_rules(g)
        smoke = action.get("smoke", _default_colour(r))
        if smoke != "none" and smoke not in r.smoke_colours:
            raise IllegalAction(f"marking smoke is one of {', '.join(r.smoke_colours)}, or none", "G-18")
        sx, sy = caller.x, caller.y
        if "smoke_at" in action:
            sx, sy = _point(g, action["smoke_at"], "smoke_at", "G-18")
            if math.hypot(sx - caller.x, sy - caller.y) > r.smoke_reach + 1e-9:
                raise IllegalAction(f"a smoke grenade is thrown at most {r.smoke_reach:g}\" from {caller.id}", "G-18")
        return AirCall(a.id, caller.id, x, y, heading, smoke, round(sx, 2), round(sy, 2),
                       sees_point(g, caller, x, y))

    def resolve(self, g: Game, el: Element, action: dict, plan: AirCall) -> None:
        fs, a = fs_state(g), rules(g).assets[plan.asset]
        mid = _next_id(g, "fm")
        key = f"{el.side}:{a.id}"
        fs.used[key] = fs.used.get(key, 0) + 1
        fs.missions[mid] = Mission(mid, el.side, a.id, a.rounds[0], plan.caller, plan.x, plan.y, plan.observed,
                                   g.state.turn, 0, heading=plan.heading)
        delay = delay_of(g, a)  # DD-8.7, G-07: the weather's air delay
        g.state.clocks.append(Clock(mid, "fire_mission", delay, f"{a.name} inbound", el.side, plan.x, plan.y,
                                    a.radius or None, ref=mid))
        plume = None
        if plan.smoke != "none":
            plume = Plume(_next_id(g, "plume"), el.side, plan.smoke_x, plan.smoke_y, plan.smoke, plan.caller, mid,
                          g.state.turn)
            fs.plumes.append(plume)
        left = next((n for aa, n in air_on_call(g, el.side) if aa.id == a.id), 0)
        g.emit({"type": "fire_mission", "phase": "call", "mission": mid, "asset": a.id, "round": a.rounds[0],
                "caller": plan.caller, "x": plan.x, "y": plan.y, "observed": plan.observed, "turns": delay,
                "heading": plan.heading, "smoke": plan.smoke, "aircraft": a.model,
                "clause": "DD-8.5; DD-8.7; G-18",
                "text": f"{plan.caller} calls a {a.name} on ({plan.x:g}, {plan.y:g})"
                        + ("" if a.kind == "gunship" else f", heading {plan.heading:g}°")
                        + (f"; pops {plan.smoke} smoke" if plume else "; no smoke: unmarked")
                        + f"; inbound in {delay} turn(s); {left} left"},
               visible=el.side)
        if plume is not None:  # everyone sees smoke go up; its colour is the caller's secret (G-18)
            g.emit({"type": "smoke", "kind": "marking", "id": plume.id, "x": plume.x, "y": plume.y,
                    "side": el.side, "clause": "G-18", "text": f"{el.name} pops a marking smoke"})

    def odds(self, g: Game, el: Element, action: dict, plan: AirCall) -> dict:
        """The preview (``odds.preview``): the pass's deviation outcomes and what each does (``air_odds``)."""
        from game.rules.fire_support import air_odds

        return air_odds.call_odds(g, el, plan)


def _default_colour(r: AirRules) -> str:
    return "red" if "red" in r.smoke_colours else r.smoke_colours[0]  # G-18: red marks the target for CAS


# -- the pass ----------------------------------------------------------------------------------------------
def arrive(g: Game, mission: Mission) -> None:
    """A called air mission's clock ran out (DD-8.7, from ``missions.on_clock``): a gunship comes on
    station (G-27); a strike flies its pass (:func:`strike`)."""
    fs, a = fs_state(g), rules(g).assets[mission.asset]
    fs.missions.pop(mission.id, None)
    plume = next((p for p in fs.plumes if p.mission == mission.id), None)
    spoof = next((s for s in fs.spoofs if plume is not None and s.plume == plume.id), None)
    fs.plumes = [p for p in fs.plumes if p is not plume]
    fs.spoofs = [s for s in fs.spoofs if s is not spoof]
    if _grounded(g):
        g.emit({"type": "fire_mission", "phase": "aborted", "mission": mission.id, "asset": a.id,
                "clause": "DD-3.8", "text": f"Monsoon: the {a.name} is grounded and turns back"}, visible=mission.side)
        return
    if a.kind == "gunship":
        gun = Gunship(mission.id, mission.side, a.id, mission.x, mission.y, g.state.turn + a.on_station - 1,
                      a.attacks)
        fs.gunships.append(gun)
        g.emit({"type": "gunship", "phase": "on_station", "mission": gun.id, "asset": a.id, "aircraft": a.model,
                "side": gun.side, "x": gun.x, "y": gun.y, "turns": a.on_station, "attacks": gun.attacks,
                "clause": "G-27", "text": f"{a.name} on station: {a.on_station} turns or {a.attacks} attacks"})
        return
    strike(g, mission.side, a, mission.id, mission.x, mission.y, mission.heading or 0.0, plume=plume, spoof=spoof,
           caller=mission.caller)


def strike(g: Game, side: str, a: Asset, ref: str, x: float, y: float, heading: float, *,
           plume: Plume | None = None, spoof: Spoof | None = None, caller: str = "", kind: str = "strike") -> None:
    """One pass (DD-8.5, G-22): the pilot's call, the deviation, the spoof check, the pass and its effects."""
    from game.rules import template
    from game.rules.terrain_changes import burnt_strip, change_terrain, crater

    r = air_rules(g)
    fac = fac_overhead(g, side)
    mods: list[Modifier] = []
    if kind == "run":
        mods.append(Modifier("the gunship follows tracers and clock calls: marked", 0, "DD-8.5"))
    if plume is not None:
        mods.append(Modifier(f"{plume.colour} smoke marks the target", 0, "G-18; G-22"))
    if fac:
        mods.append(Modifier("FAC overhead marks and verifies", 0, "DD-8.5; G-18"))
    marked = bool(mods)
    if not marked:
        mods.append(Modifier("unmarked target (no smoke, no FAC): roll twice, apply both", 0, "G-22"))
    if plume is not None:
        seen = f"two {plume.colour} smokes" if spoof is not None else f"{plume.colour} smoke"
        g.emit({"type": "note", "clause": "G-18; DD-8.5", "text": f"{a.name}: \"I have {seen}\""}, visible=side)
    x0, y0, h0 = x, y, heading
    dice: list[int] = []
    legs = []
    for _ in range(1 if marked else r.unmarked_rolls):
        face = g.dice.d6()
        res = r.deviation[face - 1]
        dist = sum(g.dice.roll(r.short_dice if res == "short" else r.long_dice)) if res in ("short", "long") else 0
        side_die = g.dice.d6() if res == "yaw" else 0
        name, along, turn = deviation_leg(r, face, dist, side_die)
        dice += [face] + ([dist] if dist else []) + ([side_die] if side_die else [])
        x, y, heading = apply_leg(g, x, y, heading, along, turn)
        legs.append({"result": name, "die": face, "along": along, "turn": turn})
    result = " + ".join(leg["result"] for leg in legs)
    g.emit({"type": "roll", "purpose": "Pass Deviation", "side": side, "element": None, "dice": dice,
            "target": None, "modifiers": [m.to_dict() for m in mods], "need": None, "result": result,
            "mission": ref, "legs": legs, "drift": [round(x - x0, 2), round(y - y0, 2)], "heading": heading,
            "clause": "G-22; DD-8.5",
            "text": f"Pass Deviation: {', '.join(str(d) for d in dice)}: {result}"
                    + (f" (unmarked: rolled {len(legs)} times)" if not marked else "")
                    + (f"; the footprint moves to ({x:g}, {y:g})" if (x, y) != (x0, y0) else "")
                    + (f", heading {heading:g}°" if heading != h0 else "")}, visible=side)
    if spoof is not None:
        x, y = _spoof_check(g, side, ref, x, y, spoof, caller, fac)
    tpl = footprint(a, x, y, heading)
    _air_pass(g, side, a, ref, tpl, kind, mark=(x0, y0) if fac and kind == "strike" else None)
    template.attack(g, tpl, side=side)
    template.danger_close(g, tpl, side)
    if a.illumination:
        fs = fs_state(g)
        fs.lights.append(Light(f"light{ref}", x, y, a.illumination, g.state.turn))
        g.emit({"type": "illumination", "mission": ref, "x": x, "y": y, "radius": a.illumination,
                "turn": g.state.turn, "clause": "G-19; DD-9A.3; G-38",
                "text": f"{a.name} lights a {2 * a.illumination:g}\" circle for the rest of the turn"})
    if a.craters:
        change_terrain(g, "crater", crater(x, y, a.radius), "G-01 T12c; G-19",
                       f"{a.name} leaves a crater at ({x:g}, {y:g})")
    if a.burns:
        poly = burnt_strip(x, y, heading, a.length, a.width, "oval" if a.shape == "oval" else "rectangle")
        if _on_vegetation(g, tpl):
            change_terrain(g, "burnt", poly, "G-19", f"{a.name} burns the vegetation along its run")
        _burning(g, ref, a, x, y, heading)
        if near_village(g, x, y):
            _village_drift(g, a)


def _spoof_check(g: Game, side: str, ref: str, x: float, y: float, spoof: Spoof, caller: str,
                 fac: bool) -> tuple[float, float]:
    """DD-4.37: two plumes of the colour: the RTO Radio Check (4+), or 2d6" more toward the spoof (G-22)."""
    r = air_rules(g)
    mods = [Modifier("FAC verifies the smoke with the ground RTO", r.fac_bonus, "DD-8.5; G-18 (PROPOSAL)")] if fac else []
    ev = resolve_test(g.dice, purpose="RTO Radio Check", target=r.radio_check, modifiers=mods,
                      clause="DD-4.37; G-18", side=side, subject=caller or side)
    ev.update(mission=ref, text=ev["text"] + f": a VC spoof smoke of the same colour at ({spoof.x:g}, {spoof.y:g})")
    g.emit(ev)  # the spoof comes out now: both sides see the check
    if ev["result"] == "pass":
        return x, y
    drift = g.dice.roll(r.spoof_drift_dice)
    dist = float(sum(drift))
    gap = math.hypot(spoof.x - x, spoof.y - y)
    nx, ny = (x, y) if gap < 1e-9 else _clamp(g, x + dist * (spoof.x - x) / gap, y + dist * (spoof.y - y) / gap)
    g.emit({"type": "roll", "purpose": "Spoof drift", "side": side, "element": None, "dice": drift,
            "target": None, "modifiers": [], "need": None, "result": "drift", "mission": ref,
            "drift": [round(nx - x, 2), round(ny - y, 2)], "distance": dist, "clause": "DD-4.37; G-22",
            "text": f"The pilot goes for the spoof smoke: {r.spoof_drift_dice}d6 {drift} = {dist:g}\" toward it"},
           visible=side)
    return nx, ny


def _on_vegetation(g: Game, tpl: Template) -> bool:
    shape = tpl.polygon
    return any(h.terrain.vegetation and not h.terrain.overlay and h.shape.intersects(shape) for h in g.table.hits)


def burning_circles(a: Asset, x: float, y: float, heading: float, step: float) -> list[tuple[float, float, float]]:
    """Circles standing in for the burning footprint in sight (Conditions take circles): centres along
    the axis ``step`` apart, each as wide as the oval there (G-19, G-38)."""
    half, hw = a.length / 2.0, a.width / 2.0
    n = max(1, math.ceil(a.length / step))
    c, s = math.cos(math.radians(heading)), math.sin(math.radians(heading))
    out = []
    for k in range(n):
        u = -half + a.length * (k + 0.5) / n
        r = hw * math.sqrt(max(0.0, 1 - (u / half) ** 2)) if a.shape == "oval" else hw
        out.append((round(x + u * c, 3), round(y + u * s, 3), round(max(r, 0.25), 3)))
    return out


def _burning(g: Game, ref: str, a: Asset, x: float, y: float, heading: float) -> None:
    r = air_rules(g)
    circles = burning_circles(a, x, y, heading, r.burning_step)
    for k, (cx, cy, cr) in enumerate(circles):
        g.state.clocks.append(Clock(f"burn{ref}_{k + 1}", "burning", r.burning_turns, "Burning napalm", "all",
                                    cx, cy, cr, blocks_sight=True))
    g.emit({"type": "smoke", "kind": "burning", "id": f"burn{ref}", "mission": ref, "x": x, "y": y,
            "circles": [list(c) for c in circles], "turns": r.burning_turns, "clause": "G-19; G-38",
            "text": f"{a.name}: the burning area blocks sight until the end of the turn"})


def _village_drift(g: Game, a: Asset) -> None:
    from game.rules.village import drift

    m = rules(g).mission
    before = g.state.civic_drift
    after = max(-5, min(5, before + m.village_drift))
    drift(g, m.village_drift, "napalm near the village", "DD-9B.9; DD-9B.8", extra={"before": before},
          text=f"{a.name} within {m.village_radius:g}\" of the village: Civic Drift {before:+d} -> {after:+d}")


def track(g: Game, x: float, y: float, heading: float) -> tuple[float, float]:
    """Where the line through (x, y) along ``heading`` enters and leaves the table: (t_in, t_out), inches
    along the heading from (x, y)."""
    c, s = math.cos(math.radians(heading)), math.sin(math.radians(heading))
    lo, hi = -1e9, 1e9
    for p, d, top in ((x, c, g.scenario.width), (y, s, g.scenario.height)):
        if abs(d) < 1e-12:
            continue
        t0, t1 = (0.0 - p) / d, (top - p) / d
        lo, hi = max(lo, min(t0, t1)), min(hi, max(t0, t1))
    return lo, hi


def _air_pass(g: Game, side: str, a: Asset, ref: str, tpl: Template, kind: str,
              mark: tuple[float, float] | None = None) -> None:
    """The ``air_pass`` event, made to be animated: the aircraft, its track from beyond one table edge to
    beyond the other along the heading, its altitude profile, where it releases, where the ordnance
    lands, the footprint (and a strip's ``corridor``), and the FAC's ``mark`` where one marked it."""
    r = air_rules(g)
    x, y, h = tpl.x, tpl.y, tpl.heading
    t_in, t_out = track(g, x, y, h)
    t0, t1 = t_in - r.edge_margin, t_out + r.edge_margin
    c, s = math.cos(math.radians(h)), math.sin(math.radians(h))

    def at(t: float) -> list[float]:
        return [round(x + t * c, 2), round(y + t * s, 2)]

    prof = [[0.0, a.profile[0][1]]] + [[round(u - t0, 2), z] for u, z in a.profile if t0 < u < t1]
    prof.append([round(t1 - t0, 2), a.profile[-1][1]])
    n, spread = max(1, a.salvo), rules(g).mission.salvo_spread_s
    if a.shape == "circle" and "bombs" not in a.rounds:
        impacts = salvo(g, x, y, a.radius, n)  # a beaten zone's bursts (Spooky)
    else:
        length = a.length if a.shape != "circle" else a.radius
        offs = [0.0] if n == 1 else [(-length / 2 + length * (k + 0.5) / n) * 0.9 for k in range(n)]
        impacts = [{"x": at(u)[0], "y": at(u)[1], "t": round(k * spread, 2)} for k, u in enumerate(offs)]
    release = [[round(p["x"] - r.release_lead * c, 2), round(p["y"] - r.release_lead * s, 2)] for p in impacts]
    extra: dict[str, Any] = {}
    if tpl.shape == "strip":
        extra["corridor"] = {"from": at(-tpl.length / 2), "to": at(tpl.length / 2), "width": tpl.width}
    if mark is not None:
        extra["mark"] = [mark[0], mark[1]]
    g.emit({"type": "air_pass", "kind": kind, "mission": ref, "asset": a.id, "aircraft": a.model, "side": side,
            "ordnance": a.rounds[0], "heading": h, "entry": at(t0), "exit": at(t1), "altitude": prof,
            "release": release, "impacts": impacts,
            "footprint": [[round(px, 3), round(py, 3)] for px, py in list(tpl.polygon.exterior.coords)[:-1]],
            "shape": tpl.shape, "x": x, "y": y, "radius": tpl.radius, "length": tpl.length, "width": tpl.width,
            **extra, "clause": "DD-8.5; G-19",
            "text": f"{a.name} runs in on {h:g}° over ({x:g}, {y:g})"})


# -- the views ----------------------------------------------------------------------------------
def markers(g: Game, side: str) -> list[dict]:
    """Marking smoke (public; its colour the caller's side's), spoofs (the Insurgent's), gunships (public)."""
    fs = fs_state(g)
    out = []
    for p in fs.plumes:
        m = {"id": p.id, "kind": "smoke", "purpose": "marking", "side": p.side, "x": p.x, "y": p.y}
        if side in ("referee", p.side):
            m["colour"] = p.colour
        out.append(m)
    out += [{"id": s.id, "kind": "smoke", "purpose": "spoof", "side": "insurgent", "x": s.x, "y": s.y,
             "colour": s.colour, "element": s.element} for s in fs.spoofs if side in ("referee", "insurgent")]
    for gs in fs.gunships:
        a = rules(g).assets[gs.asset]
        out.append({"id": gs.id, "kind": "gunship", "side": gs.side, "x": gs.x, "y": gs.y, "model": a.model,
                    "turns": gs.until - g.state.turn + 1, "attacks": gs.attacks})
    return out


register(CallAir())
