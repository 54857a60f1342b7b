"""The odds of fire support before it is called (DESIGN §4; ``odds.preview`` asks an action's ``odds``).

An air pass (``call_air``, ``gunship_run``): every outcome of the G-22 Pass Deviation Roll (1–3 on
line, 4 short 1d6", 5 long 1d6", 6 yaw 45° left or right; twice for an unmarked target, both applied)
with its probability, each footprint's exact template odds (``template.odds``: to hit, saves, Look Out,
Sir!, rings, removal, Morale) on every stand it touches, friend or foe, weighted by the outcome's
probability, and the Danger Close risk to the caller's own stands (DD-8.9) the same way.

A fire mission (``call_fire``, ``mortar_fire``): the DD-8.8 scatter die (on target on 1–2, or the
asset's own faces), else a drift of 1d6" (Unobserved 2d6", rockets 2d6") toward one of 8 directions,
each footprint weighted alike.

What the side may know only (docs/fog.md): stands under a Blind are not counted (``template.touched``),
and a VC smoke spoof, the Insurgent's secret until the Radio Check, is left out of the Allied odds.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game.rules.fire_support import air
from game.rules.fire_support.missions import Mission, rules
from game.rules.fire_support.tables import AirRules, Asset

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.rules.state import Element
    from game.rules.template import Template

Outcome = tuple[float, float, float, float, list[str]]
"""(probability, x, y, heading, the results that lead there)"""


def sum_distribution(n: int) -> dict[int, float]:
    """P(the sum of n d6 = k)."""
    dist = {0: 1.0}
    for _ in range(n):
        nxt: dict[int, float] = {}
        for k, p in dist.items():
            for face in range(1, 7):
                nxt[k + face] = nxt.get(k + face, 0.0) + p / 6.0
        dist = nxt
    return dist


def _single_legs(r: AirRules) -> list[tuple[float, tuple[str, float, float]]]:
    """One Pass Deviation roll's results with their chances (G-22), equal results merged."""
    out: dict[tuple[str, float, float], float] = {}
    for face in range(1, 7):
        res = r.deviation[face - 1]
        if res in ("short", "long"):
            for dist, p in sum_distribution(r.short_dice if res == "short" else r.long_dice).items():
                leg = air.deviation_leg(r, face, dist, 0)
                out[leg] = out.get(leg, 0.0) + p / 6.0
        elif res == "yaw":
            for side_die in range(1, 7):
                leg = air.deviation_leg(r, face, 0, side_die)
                out[leg] = out.get(leg, 0.0) + 1 / 36.0
        else:
            leg = air.deviation_leg(r, face, 0, 0)
            out[leg] = out.get(leg, 0.0) + 1 / 6.0
    return [(p, leg) for leg, p in out.items()]


def _label(leg: tuple[str, float, float]) -> str:
    name, along, _ = leg
    return f"{name} {abs(along):g}\"" if along else name


def deviation_outcomes(g: Game, x: float, y: float, heading: float, rolls: int) -> list[Outcome]:
    """Every footprint the Pass Deviation Roll(s) can give (G-22), by probability, most likely first."""
    legs = _single_legs(air.air_rules(g))
    states: dict[tuple[float, float, float], tuple[float, list[str]]] = {(x, y, heading): (1.0, [])}
    for _ in range(rolls):
        nxt: dict[tuple[float, float, float], tuple[float, list[str]]] = {}
        for (sx, sy, sh), (p, names) in states.items():
            for pl, leg in legs:
                key = air.apply_leg(g, sx, sy, sh, leg[1], leg[2])
                q, got = nxt.get(key, (0.0, []))
                label = " + ".join([*names[:1], _label(leg)]) if names else _label(leg)
                nxt[key] = (q + p * pl, got if len(got) >= 3 or label in got else [*got, label])
        states = nxt
    return sorted(((p, k[0], k[1], k[2], names) for k, (p, names) in states.items()), key=lambda o: (-o[0], o[1:4]))


def on_target_p(g: Game, mission: Mission) -> float:
    from game.rules.fire_support.missions import on_target_faces

    return on_target_faces(g, mission)[0] / 6.0


def scatter_outcomes(g: Game, mission: Mission, asset: Asset) -> list[Outcome]:
    """Every landing point of a fire mission's scatter (DD-8.8), by probability: on target, or the drift
    dice's sum toward each of the d8 (or d6) directions, clamped to the table as ``missions.scatter``."""
    m = rules(g).mission
    on = on_target_p(g, mission)  # G-07 (1): the monsoon's on target only on a 1
    out: dict[tuple[float, float], tuple[float, list[str]]] = {(mission.x, mission.y): (on, ["on target"])}
    n = asset.drift_dice or m.drift_dice
    if not mission.observed:
        n = max(n, m.unobserved_drift_dice)
    faces = m.direction_faces
    for dist, pd in sum_distribution(n).items():
        for d in range(1, faces + 1):
            b = (d - 1) * 360.0 / faces
            x = round(min(max(mission.x + dist * math.sin(math.radians(b)), 0.0), g.scenario.width), 2)
            y = round(min(max(mission.y + dist * math.cos(math.radians(b)), 0.0), g.scenario.height), 2)
            q, names = out.get((x, y), (0.0, []))
            label = f"drift {dist}\" toward {b:g}°"
            out[(x, y)] = (q + (1 - on) * pd / faces, names if len(names) >= 3 else [*names, label])
    return sorted(((p, k[0], k[1], 0.0, names) for k, (p, names) in out.items()), key=lambda o: (-o[0], o[1:3]))


def _add(into: dict, key: str, row: dict, p: float, fields: tuple[str, ...], **extra: Any) -> None:
    acc = into.setdefault(key, {**extra, **{f: 0.0 for f in fields}})
    for f in fields:
        acc[f] += p * row.get(f, 0.0)


STAND_FIELDS = ("expected_hits", "expected_damage", "p_hit", "p_ring", "p_removed")
ELEMENT_FIELDS = ("p_tested", "p_pinned", "p_retreat", "p_eliminated")


def weigh(g: Game, side: str, outcomes: list[Outcome], make: Callable[[float, float, float], Template | None]) -> dict:
    """Each outcome's template odds, weighted by its probability: per stand (``p_under`` the chance the
    footprint touches it, and the expected hits, damage, P(hit), P(ring), P(removed)), per element
    (P(tested), P(Pinned), P(retreat), P(eliminated)), and the Danger Close risk to ``side``'s own."""
    from game.rules import template

    stands: dict[str, dict] = {}
    elements: dict[str, dict] = {}
    close: dict[str, dict] = {}
    rows = []
    for p, x, y, h, names in outcomes:
        tpl = make(x, y, h)
        row = {"p": p, "x": x, "y": y, "heading": h, "results": names, "expected_hits": 0.0, "stands": []}
        rows.append(row)
        if tpl is None:
            continue
        plan = template.plan(g, tpl, side=side)
        res = template.odds(g, plan)
        row["expected_hits"] = res["expected_hits"]
        eligible = set(plan.model.eligible or ())
        for i, m in enumerate(plan.model.marks):
            st = res["stands"].get(m.id)
            if st is None:
                continue
            under = i in eligible
            if under:
                row["stands"].append(m.id)
            _add(stands, m.id, st, p, STAND_FIELDS, element=m.element, side=g.state.stands[m.id].side, p_under=0.0)
            stands[m.id]["p_under"] += p if under else 0.0
        for eid, er in res["elements"].items():
            _add(elements, eid, er, p, ELEMENT_FIELDS, side=g.state.elements[eid].side)
        dc = template.danger_close_plan(g, tpl, side)
        if dc is not None:
            dres = template.odds(g, dc)
            for i, m in enumerate(dc.model.marks):
                if i in set(dc.model.eligible or ()):
                    _add(close, m.id, dres["stands"][m.id], p, ("p_hit", "p_ring", "p_removed"), element=m.element,
                         p_near=0.0)
                    close[m.id]["p_near"] += p
    return {"outcomes": rows, "stands": stands, "elements": elements, "danger_close": close}


def strike_odds(g: Game, side: str, a: Asset, x: float, y: float, heading: float, marked: bool) -> dict:
    r = air.air_rules(g)
    rolls = 1 if marked else r.unmarked_rolls
    outs = deviation_outcomes(g, x, y, heading, rolls)
    on_line = sum(p for p, ox, oy, oh, _ in outs if (ox, oy, oh) == (x, y, heading))
    res = weigh(g, side, outs, lambda ox, oy, oh: air.footprint(a, ox, oy, oh))
    return {"asset": a.id, "clause": "DESIGN §4; G-22; DD-8.5; DD-8.9", "marked": marked, "rolls": rolls,
            "p_on_line": on_line, "p_on_line_roll": r.deviation.count("on_line") / 6.0,
            "forbidden": air.forbidden_arcs(g, side, x, y), **res}


def call_odds(g: Game, el: Element, plan: air.AirCall) -> dict:
    """``call_air``: the strike's odds; a gunship's call only brings it on station (its runs have odds)."""
    a = rules(g).assets[plan.asset]
    if a.kind == "gunship":
        return {"asset": a.id, "clause": "G-27", "outcomes": [], "stands": {}, "elements": {}, "danger_close": {},
                "on_station": a.on_station, "attacks": a.attacks, "turns": air.delay_of(g, a)}
    marked = plan.smoke != "none" or air.fac_overhead(g, el.side)
    return strike_odds(g, el.side, a, plan.x, plan.y, plan.heading, marked)


def run_odds(g: Game, el: Element, plan: tuple[air.Gunship, air.AirCall]) -> dict:
    """``gunship_run``: one Pass Deviation roll (the gunship follows tracers and clock calls, DD-8.5)."""
    gs, call = plan
    return strike_odds(g, el.side, rules(g).assets[gs.asset], call.x, call.y, call.heading, True)


def mission_odds(g: Game, el: Element, mission: Mission) -> dict:
    """``call_fire`` and ``mortar_fire``: P(on target) and the drift (DD-8.8); the HE template's odds over
    every landing point (an illumination or WP round attacks nothing)."""
    from game.rules import template

    a = rules(g).assets[mission.asset]
    outs = scatter_outcomes(g, mission, a)

    def make(x: float, y: float, _h: float) -> Template | None:
        if mission.round != "he":
            return None
        return template.circle(x, y, a.radius, kind=a.id, fp=a.fp, ap=a.ap, name=a.name, clause="DD-8.10; G-19")

    res = weigh(g, mission.side, outs, make)
    return {"asset": a.id, "round": mission.round, "clause": "DESIGN §4; DD-8.8; DD-8.9; DD-8.10",
            "observed": mission.observed, "p_on_target": on_target_p(g, mission), **res}
