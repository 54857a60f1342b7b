"""Fire missions (DD-8.1–8.10, DD-2.2, DD-9A.3, DD-9B.9; G-19, G-37, G-38): mortars and guns.

* **The call** (``call_fire``, DD-8.6): a Forward Observer, an officer or an RTO of the acting element
  pays the activation (1 CP In Command) and names an off-board asset the scenario gives its side with
  missions left (DD-8.3), a round (HE, illumination, WP) and a point. With line of sight from the caller
  to the point the mission is Observed; without it, Unobserved. A Target marker and the delay clock go
  down (DD-8.7: 1 turn for mortars, 2 for guns); the call, the marker and the clock are the caller's
  side's secret (a radio call is not heard across the table).
* **The delay** (DD-8.7, DD-2.2): the clock drops by 1 at the start of each Tension phase; at 0 the
  mission lands (``land``).
* **The on-board 60mm mortar** (``mortar_fire``, G-37): a team on the table fires in its own activation
  at a point 4" or more away, seen by the team itself (on target on 1–3) or by an FO, officer or RTO of
  its side (on target on 1–2); unseen fire is Unobserved. Not in a turn the team moved.
* **Landing** (DD-8.8–8.10): the scatter roll (1–2 on target, else 1d6" on a d8 clock, Unobserved 2d6");
  the impacts of the salvo, for the client; the one template attack (``game.rules.template``) on every
  stand touched, friend or foe; Danger Close for friendly stands within 4" (DD-8.9, G-34); heavy shells
  leave craters (G-01 T12c); illumination lights a 6" circle for the rest of the turn (DD-9A.3, G-38);
  WP blocks sight in the template until the end of the next turn (G-19, G-38); HE within 6" of a village
  moves its Civic Drift by -2 (DD-9B.9).

What everyone sees: the impacts and what they do (they are heard across the table). What only the
caller's side sees: the call, the target marker, the clock, the scatter roll (it tells where the
rounds were meant to land).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shapely.geometry import Point

from game.rules.chapters import state_of, tables
from game.rules.dice import Modifier
from game.rules.errors import IllegalAction
from game.rules.fire_support.tables import Asset, FireSupportRules
from game.rules.game import ActionKind, register
from game.rules.memo import table_memo
from game.rules.state import Blind, Clock, Element, Stand

if TYPE_CHECKING:
    from game.rules.game import Game

CHAPTER_ID = "fire_support"


# -- the chapter's state --------------------------------------------------------------------------------
@dataclass
class Mission:
    """A fire mission called and waiting on its clock (DD-8.6–8.7), or an on-board mortar's (G-37)."""

    id: str
    side: str
    asset: str
    round: str
    caller: str
    """The stand that called it (an FO, officer or RTO; the mortar team itself)."""
    x: float
    y: float
    observed: bool
    turn: int
    on_target: int
    """The scatter die's on-target faces for this mission (DD-8.8, G-19, G-37)."""
    heading: float | None = None
    """An air attack's heading (DD-8.5)."""


@dataclass
class Light:
    """An illuminated circle (DD-9A.3): units under it are spotted as in daylight, to the end of ``turn``."""

    id: str
    x: float
    y: float
    radius: float
    turn: int


def rules(g: Game) -> FireSupportRules:
    return tables(g.book, CHAPTER_ID)


def fs_state(g: Game):
    return state_of(g, CHAPTER_ID)


@table_memo(lambda side: side)
def assets_on_call(g: Game, side: str) -> list[tuple[Asset, int]]:
    """The off-board assets of ``side`` with missions left (DD-8.3), with how many are left. (Remembered
    through a listing while the table stands still: the missions used, the weather and the light are the
    table's; the Threat Level it reads is set as the game is made.)"""
    rows = [sup for sup in g.scenario.support if sup.side == side]
    if not rows:
        return []
    from game.rules.fire_support import air_grounded
    from game.rules.night import air_flies

    fs, r = fs_state(g), rules(g)
    out = []
    for sup in rows:
        a = r.assets[sup.asset]
        if a.threat and g.state.threat < a.threat:
            continue
        if a.kind in ("cas", "gunship") and air_grounded(g):
            continue
        if a.night_only and not g.state.time_of_day.startswith("night"):
            continue
        if a.kind in ("cas", "gunship", "fac") and not air_flies(g, a):
            continue  # G-23: by night only the AC-47 and gunships fly
        left = sup.missions - fs.used.get(f"{side}:{a.id}", 0)
        if left > 0:
            out.append((a, left))
    return out


@table_memo(lambda el: el.id)
def callers(g: Game, el: Element) -> list[Stand]:
    """The stands of an element that may call fire (DD-8.6): FO, officer, RTO."""
    return [st for st in g.state.living(el) if _calls(g, st.type)]


def may_call(g: Game, types: frozenset[str]) -> bool:
    """Could stands of these kinds ever call fire (DD-8.6): is one of them an FO, an officer or an RTO?"""
    return any(_calls(g, t) for t in types)


def _calls(g: Game, stand_type: str) -> bool:
    """Does a stand of this kind call fire (DD-8.6: an FO, an officer or an RTO)?"""
    m, st = rules(g).mission, g.book.stands[stand_type]
    return st.role in m.call_roles or (m.call_officers and st.officer)


def support_of(g: Game, side: str, kinds: tuple[str, ...]) -> bool:
    """Does the scenario give ``side`` an off-board asset of one of these kinds (its ``[[support]]`` rows)?"""
    r = rules(g)
    return any(sup.side == side and r.assets[sup.asset].kind in kinds for sup in g.scenario.support)


def caller_of(g: Game, el: Element, action: dict, what: str) -> Stand:
    """The stand that makes the call (DD-8.6): the one the action names (``stand``), else the element's
    first FO, officer or RTO; refused, with the clause, when there is none or the named one is not."""
    who = callers(g, el)
    if not who:
        raise IllegalAction(f"{el.name} has no Forward Observer, officer or RTO to call {what}", "DD-8.6")
    sid = action.get("stand", who[0].id)
    caller = next((s for s in who if s.id == sid), None)
    if caller is None:
        raise IllegalAction(f"{sid!r} is not a Forward Observer, officer or RTO of {el.name}", "DD-8.6")
    return caller


def point_marker(g: Game, x: float, y: float, side: str) -> Blind:
    """A point on the table as line of sight sees a marker there (a Target marker, DD-8.6). A point at the
    table's edge is looked at with the whole marker on the table (its disc may not hang over the edge)."""
    from game.rules.detection import rules as detection_rules

    r = detection_rules().spotting.marker_radius
    x = min(max(x, r), g.scenario.width - r)
    y = min(max(y, r), g.scenario.height - r)
    return Blind("target", side, x, y, True)


def sees_point(g: Game, stand: Stand, x: float, y: float) -> bool:
    return bool(g.line_of_sight(stand, point_marker(g, x, y, g.state.other(stand.side))).visible)


def _point(g: Game, value: Any, field: str, clause: str) -> tuple[float, float]:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise IllegalAction(f"'{field}' must be a point [x, y] in inches", clause)
    x, y = float(value[0]), float(value[1])
    if not (0 <= x <= g.scenario.width and 0 <= y <= g.scenario.height):
        raise IllegalAction(f"the point ({x:g}, {y:g}) is off the table", clause)
    return round(x, 2), round(y, 2)


def _next_id(g: Game, stem: str) -> str:
    fs = fs_state(g)
    fs.next += 1
    return f"{stem}{fs.next}"


# -- the call (DD-8.6) -----------------------------------------------------------------------------------
class CallFire(ActionKind):
    """Call for fire (DD-8.6–8.7): an off-board mortar or battery mission on a delay clock."""

    type = "call_fire"

    def possible(self, g: Game, side: str, types: frozenset[str]) -> bool:
        return support_of(g, side, ("battery",)) and may_call(g, types)  # DD-8.3, DD-8.6

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        on_call = [(a, left) for a, left in assets_on_call(g, el.side) if a.kind == "battery"]
        who = callers(g, el)
        if not on_call or not who:
            return []
        out = []
        for a, left in on_call:
            out.append({
                "type": self.type, **common, "asset": a.id, "clause": "DD-8.6; DD-8.7; G-19",
                "label": f"{el.name}: call a {a.name} mission, {a.delay}-turn clock, {left} left ({price})",
                "params": {
                    "asset": {"kind": "choice", "choices": [a.id], "default": a.id, "doc": a.name},
                    "round": {"kind": "choice", "choices": list(a.rounds), "default": a.rounds[0],
                              "doc": "he: high explosive; illumination: a 6\" star shell (DD-9A.3); wp: smoke"},
                    "at": {"kind": "point", "radius": a.radius,
                           "doc": "the target point: observed if the caller sees it (DD-8.6)"},
                    "stand": {"kind": "stand", "choices": sorted(s.id for s in who), "default": who[0].id,
                              "optional": True, "doc": "the FO, officer or RTO who calls it"},
                },
            })
        return out

    def check(self, g: Game, el: Element, action: dict) -> Mission:
        aid = action.get("asset")
        on_call = {a.id: a for a, _ in assets_on_call(g, el.side) if a.kind == "battery"}
        if aid not in on_call:
            known = ", ".join(sorted(on_call)) or "none"
            raise IllegalAction(f"no {aid!r} mission on call for the {el.side} side (on call: {known})", "DD-8.3; G-19")
        a = on_call[aid]
        rnd = action.get("round", a.rounds[0])
        if rnd not in a.rounds:
            raise IllegalAction(f"{a.name} fires {', '.join(a.rounds)}, not {rnd!r}", "G-19; DD-9A.3")
        caller = caller_of(g, el, action, "fire")
        x, y = _point(g, action.get("at"), "at", "DD-8.6")
        observed = sees_point(g, caller, x, y)
        m = rules(g).mission
        return Mission("", el.side, a.id, rnd, caller.id, x, y, observed, g.state.turn,
                       a.on_target or m.on_target)

    def resolve(self, g: Game, el: Element, action: dict, plan: Mission) -> None:
        fs = fs_state(g)
        a = rules(g).assets[plan.asset]
        plan.id = _next_id(g, "fm")
        key = f"{plan.side}:{a.id}"
        fs.used[key] = fs.used.get(key, 0) + 1
        fs.missions[plan.id] = plan
        g.state.clocks.append(Clock(plan.id, "fire_mission", a.delay, f"{a.name} mission", plan.side,
                                    plan.x, plan.y, a.radius, ref=plan.id))
        left = next((n for aa, n in assets_on_call(g, plan.side) if aa.id == a.id), 0)
        g.emit({"type": "fire_mission", "phase": "call", "mission": plan.id, "asset": a.id, "round": plan.round,
                "caller": plan.caller, "x": plan.x, "y": plan.y, "observed": plan.observed, "turns": a.delay,
                "radius": a.radius, "clause": "DD-8.6; DD-8.7",
                "text": f"{plan.caller} calls a {a.name} {plan.round.upper()} mission on ({plan.x:g}, {plan.y:g}): "
                        + ("Observed" if plan.observed else "Unobserved, no line of sight to the point")
                        + f"; lands in {a.delay} turn(s); {left} mission(s) left"},
               visible=plan.side)

    def odds(self, g: Game, el: Element, action: dict, plan: Mission) -> dict:
        """The preview (``odds.preview``): P(on target), the drift outcomes and the template's odds over
        each (``air_odds.mission_odds``)."""
        from game.rules.fire_support import air_odds

        return air_odds.mission_odds(g, el, plan)


# -- the on-board 60mm mortar (G-37) ---------------------------------------------------------------------
def mortar_stands(g: Game, el: Element) -> list[tuple[Stand, Asset]]:
    r = rules(g)
    out = []
    for st in g.state.living(el):
        aid = r.onboard.get(st.type)
        if aid is not None:
            out.append((st, r.assets[aid]))
    return out


class MortarFire(ActionKind):
    """An on-board mortar team fires (G-37): no clock, minimum range 4", seen by itself or a spotter."""

    type = "mortar_fire"

    def possible(self, g: Game, side: str, types: frozenset[str]) -> bool:
        return any(t in rules(g).onboard for t in types)  # a mortar team's own tube (G-37)

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        from game.rules.fire import wet_heavy_weapon

        tubes = mortar_stands(g, el)
        if not tubes or el.move_actions or wet_heavy_weapon(g, tubes[0][0]):
            return []
        st, a = tubes[0]
        return [{"type": self.type, **common, "clause": "G-37; DD-9A.3",
                 "label": f"{el.name}: fire the {a.name} ({price})",
                 "params": {
                     "round": {"kind": "choice", "choices": list(a.rounds), "default": a.rounds[0],
                               "doc": "he or an illumination round (DD-9A.3)"},
                     "at": {"kind": "point", "radius": a.radius, "min": a.min_range,
                            "from": [round(st.x, 3), round(st.y, 3)],
                            "doc": "4\" or more away; on target on 1-3 if the team sees it (G-37)"},
                 }}]

    def check(self, g: Game, el: Element, action: dict) -> Mission:
        tubes = mortar_stands(g, el)
        if not tubes:
            raise IllegalAction(f"{el.name} has no mortar on the table", "G-37")
        if el.move_actions:
            raise IllegalAction(f"{el.name} moved this turn: a mortar team fires only when it has not moved",
                                "G-37")
        st, a = tubes[0]
        from game.rules.fire import refuse_wet_weapons

        refuse_wet_weapons(g, el, [st], "its mortar")
        rnd = action.get("round", a.rounds[0])
        if rnd not in a.rounds:
            raise IllegalAction(f"{a.name} fires {', '.join(a.rounds)}, not {rnd!r}", "G-37; DD-9A.3")
        x, y = _point(g, action.get("at"), "at", "G-37")
        dist = math.hypot(x - st.x, y - st.y)
        if dist < a.min_range:
            raise IllegalAction(f"the point is {dist:.1f}\" from the mortar: its minimum range is {a.min_range:g}\"",
                                "G-37; G-19")
        m = rules(g).mission
        if sees_point(g, st, x, y):
            observed, on_target = True, a.on_target_seen or m.on_target
        else:
            spotters = [s for s in g.state.side_stands(el.side) if s.element != el.id or s.id != st.id]
            spotters = [s for s in spotters if g.book.stands[s.type].role in m.call_roles
                        or (m.call_officers and g.book.stands[s.type].officer)]
            observed = any(sees_point(g, s, x, y) for s in spotters)
            on_target = m.on_target
        return Mission("", el.side, a.id, rnd, st.id, x, y, observed, g.state.turn, on_target)

    def resolve(self, g: Game, el: Element, action: dict, plan: Mission) -> None:
        plan.id = _next_id(g, "fm")
        a = rules(g).assets[plan.asset]
        g.emit({"type": "fire_mission", "phase": "call", "mission": plan.id, "asset": a.id, "round": plan.round,
                "caller": plan.caller, "x": plan.x, "y": plan.y, "observed": plan.observed, "turns": 0,
                "radius": a.radius, "clause": "G-37",
                "text": f"{el.name} fires its {a.name} at ({plan.x:g}, {plan.y:g})"
                        + ("" if plan.observed else ": Unobserved")},
               visible=el.side)
        land(g, plan)

    def odds(self, g: Game, el: Element, action: dict, plan: Mission) -> dict:
        """The preview (``odds.preview``): P(on target), the drift outcomes and the template's odds over
        each (``air_odds.mission_odds``)."""
        from game.rules.fire_support import air_odds

        return air_odds.mission_odds(g, el, plan)


# -- landing (DD-8.8–8.10) ----------------------------------------------------------------------------------
def on_target_faces(g: Game, mission: Mission) -> tuple[int, list[Modifier]]:
    """The scatter die's faces that land the mission on target (DD-8.8), after the weather (G-07 (1): in
    the monsoon only a 1), and the modifier that says why."""
    from game.rules.weather import current, effect

    worst = effect(g, "scatter_on_target")
    if worst and worst < mission.on_target:
        w = current(g)
        return worst, [Modifier(f"{w.name}: on target only on {worst}", 0, w.clause)]
    return mission.on_target, []


def scatter(g: Game, mission: Mission, asset: Asset) -> tuple[float, float]:
    """DD-8.8: 1d6, on target on ``mission.on_target`` or less; else drift 1d6" (Unobserved 2d6", rockets
    2d6", G-19) toward a d8 clock direction (1 north, clockwise). The roll is the caller's side's."""
    m = rules(g).mission
    on_target, mods = on_target_faces(g, mission)
    die = g.dice.d6()
    if die <= on_target:
        g.emit({"type": "roll", "purpose": "Scatter", "side": mission.side, "element": None, "dice": [die],
                "target": on_target, "modifiers": [md.to_dict() for md in mods], "need": None,
                "result": "on target", "mission": mission.id, "drift": [0.0, 0.0], "clause": "DD-8.8",
                "text": f"Scatter: rolled {die} (on target on 1-{on_target}): the rounds land on target"},
               visible=mission.side)
        return mission.x, mission.y
    n = asset.drift_dice or m.drift_dice
    if not mission.observed:
        n = max(n, m.unobserved_drift_dice)
        mods.append(Modifier("Unobserved: 2d6\" drift", 0, "DD-8.8"))
    drift = g.dice.roll(n)
    faces = m.direction_faces
    direction = g.dice.die(faces)
    bearing = (direction - 1) * 360.0 / faces  # 1 = north (+y), clockwise
    dist = float(sum(drift))
    dx, dy = dist * math.sin(math.radians(bearing)), dist * math.cos(math.radians(bearing))
    x = min(max(mission.x + dx, 0.0), g.scenario.width)
    y = min(max(mission.y + dy, 0.0), g.scenario.height)
    x, y = round(x, 2), round(y, 2)
    g.emit({"type": "roll", "purpose": "Scatter", "side": mission.side, "element": None,
            "dice": [die] + drift, "direction": {"die": direction, "faces": faces}, "target": on_target,
            "modifiers": [md.to_dict() for md in mods], "need": None, "result": "drift", "mission": mission.id,
            "drift": [round(x - mission.x, 2), round(y - mission.y, 2)], "distance": dist, "bearing": bearing,
            "clause": "DD-8.8",
            "text": f"Scatter: rolled {die} (on target on 1-{on_target}): drifts {dist:g}\" "
                    f"({n}d6 {drift}) toward {bearing:g}° (d{faces} {direction})"},
           visible=mission.side)
    return x, y


def salvo(g: Game, x: float, y: float, radius: float, count: int) -> list[dict]:
    """Where the rounds of a salvo burst inside the template, for the client (a fixed sunflower pattern:
    no dice, since the attack is the template's, DD-8.10), with their time offsets."""
    spread = rules(g).mission.salvo_spread_s
    out = []
    for i in range(count):
        r = radius * 0.8 * math.sqrt((i + 0.5) / count)
        a = i * 137.508
        out.append({"x": round(x + r * math.cos(math.radians(a)), 2), "y": round(y + r * math.sin(math.radians(a)), 2),
                    "t": round(i * spread, 2)})
    return out


def near_village(g: Game, x: float, y: float) -> bool:
    """DD-9B.9: within 6" of a village (a hootch on the table; with a scenario ``[village]``, one of its
    hootches: ``game.rules.village.near``)."""
    from game.rules import village

    m = rules(g).mission
    if village.active(g):
        return village.near(g, x, y, m.village_radius)
    p = Point(x, y)
    return any(f.type in m.village_terrain and f.shape().distance(p) <= m.village_radius
               for f in g.scenario.features)


def land(g: Game, mission: Mission) -> None:
    """The mission arrives (DD-8.8–8.10): scatter, then what its round does where it lands."""
    from game.rules import template
    from game.rules.terrain_changes import change_terrain, crater

    r = rules(g)
    a = r.assets[mission.asset]
    fs = fs_state(g)
    fs.missions.pop(mission.id, None)
    x, y = scatter(g, mission, a)
    shells = salvo(g, x, y, a.radius, a.salvo)
    g.emit({"type": "fire_mission", "phase": "impact", "mission": mission.id, "asset": a.id, "round": mission.round,
            "x": x, "y": y, "radius": a.radius, "impacts": shells, "side": mission.side,
            "clause": "DD-8.10" if mission.round == "he" else ("DD-9A.3" if mission.round == "illumination" else "G-19"),
            "text": f"{a.name}: {mission.round.upper()} lands at ({x:g}, {y:g})"})
    if mission.round == "illumination":
        lit = r.illumination.radius
        fs.lights.append(Light(f"light{mission.id}", x, y, lit, g.state.turn))
        g.emit({"type": "illumination", "mission": mission.id, "x": x, "y": y, "radius": lit, "turn": g.state.turn,
                "clause": "DD-9A.3; G-38",
                "text": f"A star shell lights a {2 * lit:g}\" circle at ({x:g}, {y:g}) for the rest of the turn"})
        return
    if mission.round == "wp":
        turns = r.smoke.turns
        g.state.clocks.append(Clock(f"wp{mission.id}", "wp_smoke", turns, "WP smoke", "all", x, y, a.radius,
                                    blocks_sight=True))
        g.emit({"type": "smoke", "mission": mission.id, "kind": "wp", "x": x, "y": y, "radius": a.radius,
                "turns": turns, "clause": "G-19; G-38",
                "text": f"White phosphorus: a {2 * a.radius:g}\" cloud blocks sight until the end of next turn"})
        return
    tpl = template.circle(x, y, a.radius, kind=a.id, fp=a.fp, ap=a.ap, name=a.name, clause="DD-8.10; G-19")
    template.attack(g, tpl, side=mission.side)
    template.danger_close(g, tpl, mission.side)
    if a.craters:
        change_terrain(g, "crater", crater(x, y, a.radius), "G-01 T12c; G-19",
                       f"{a.name} leaves a crater at ({x:g}, {y:g})")
    if near_village(g, x, y):
        from game.rules.village import drift

        m = r.mission
        before = g.state.civic_drift
        after = max(-5, min(5, before + m.village_drift))
        drift(g, m.village_drift, "shells near the village", "DD-9B.9; DD-9B.8", extra={"before": before},
              text=f"Shells within {m.village_radius:g}\" of the village: Civic Drift {before:+d} -> {after:+d}")


def on_clock(g: Game, clock: Clock) -> None:
    """DD-8.7: a fire mission's clock reached 0 in the Tension phase: it lands."""
    fs = fs_state(g)
    mission = fs.missions.get(clock.ref or "")
    if mission is None:
        raise ValueError(f"clock {clock.id}: no pending mission {clock.ref!r}")
    if mission.heading is not None:
        from game.rules.fire_support import air

        air.arrive(g, mission)
    else:
        land(g, mission)


def lights_now(g: Game) -> tuple[tuple[float, float, float], ...]:
    """Illuminated circles this turn (DD-9A.3, G-38), for line of sight and spotting."""
    fs = fs_state(g)
    if fs is None:
        return ()
    return tuple((li.x, li.y, li.radius) for li in fs.lights if li.turn == g.state.turn)


def expire(g: Game) -> None:
    """Phase 3: star shells burn out at the end of their turn (G-38)."""
    fs = fs_state(g)
    fs.lights = [li for li in fs.lights if li.turn > g.state.turn]


register(CallFire())
register(MortarFire())
