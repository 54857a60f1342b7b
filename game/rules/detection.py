"""The Green Fog: contact states, echoes, spotting, reveals and Recon by Fire (DD-4.7–4.31,
DD-4.38–4.40; C-03, C-04, C-07, C-14, C-16, C-20; G-17, G-23, G-31, G-32, G-34).

Three contact states (DD-4.7–4.11). A conventional **Blind** is a 28 mm marker whose contents (one
or more elements, or nothing: a Dummy) only its owner knows; a Green Ghost **reserve** is an element
in the Insurgent Reserve Hand with no marker at all (``Element.reserve``, game.rules.blinds). A Blind
becomes an **Echo** (``Blind.state == "echo"``) when an opposing unit has it in line of sight within
the visual cutoff (DD-4.9 (a): LOS is cut off at the cutoff, so "in LOS" is the test), or when it
makes noise: it Sprints or crosses water (DD-4.9 (b); trip flares call :func:`noise`). An Echo is
**Confirmed** by a Spotting Test or Recon by Fire, or at once when it fires or assaults (DD-4.11,
DD-4.39): a Dummy is discarded, a real unit's stands are placed at the marker in a legal formation
(DD-4.24) and the marker goes. Everything on the table as miniatures is Confirmed to both sides.

Observers for DD-4.9 (a) are every enemy stand on the table *and every enemy Blind marker*, dummy or
not: if only real Blinds could raise Echoes, an Echo appearing near a lone marker would tell its owner
that marker is real (DD-10.1).

Actions registered here: ``spot`` (DD-4.12–4.18, 4.20–4.24), ``recon_sweep`` (DD-4.19, C-16),
``recon_by_fire`` (DD-4.25–4.31). Hooks called by other modules: :func:`after_action` (the Echo
sweep, at the start of every impulse), :func:`on_fire` (muzzle flash and bloom, from
``fire.resolve_attack``), :func:`reveal` / :func:`reveal_element` (firing or assaulting from a Blind,
the ambush).

The API for the Jungle Ghost (docs/fog.md): :func:`make_echo`, :func:`reveal`, :func:`noise`,
:func:`los`, :func:`observers_of`, :func:`echoes_seen_by`.

What it leaves out: trip flares themselves (DD-9A.2, ``game.rules.night``: :func:`noise` is how a
tripping Blind becomes an Echo; a Sprint's noise is masked in rain, ``weather.effect``), elevation's
+6" (DD-4.41, in the LOS module), colored smoke (DD-4.36–4.37), Resupply. The civilian half of DD-4.28 hits the
village's civilians (``game.rules.village``, G-39), where the scenario has a village.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.rules.data import DATA_DIR, DataError, build, load_sections, one_of
from game.rules.dice import Modifier, natural_success, resolve_test
from game.rules.errors import IllegalAction
from game.rules.game import FROM_BLIND, QUIET_FROM_BLIND, ActionKind, register
from game.rules.memo import table_memo
from game.rules.state import Blind, Element, Stand, base_of, disc
from game.terrain import sight

if TYPE_CHECKING:
    from game.rules.game import Game



# -- the tables (game/data/detection.toml) --------------------------------------------------------------
@dataclass(frozen=True)
class SpottingRules:
    clause: str
    target: int
    critical_radius: float
    sprint_or_fire: int
    optics: int
    isolated: int
    rear: int
    patrol: int
    conceal: int
    night: int
    front_arc: float
    sweep_cost: int
    sweep_squads: int
    marker_radius: float
    formation_search: float


NOISE_RESULTS = ("echo", "confirmed")
"""What a noise makes of a marker (DD-4.9 (b), C-14)."""


@dataclass(frozen=True)
class NoiseRules:
    """What a noise makes of a Blind and of an Echo (DD-4.9 (b), C-14): "echo" or "confirmed"."""

    clause: str
    sprint: str = field(metadata=one_of(NOISE_RESULTS))
    sprint_echo: str = field(metadata=one_of(NOISE_RESULTS))
    water: str = field(metadata=one_of(NOISE_RESULTS))
    water_echo: str = field(metadata=one_of(NOISE_RESULTS))


@dataclass(frozen=True)
class ReconRules:
    clause: str
    radius: float
    drift: int
    drift_civilian: int
    drift_min: int
    drift_max: int


@dataclass(frozen=True)
class ResupplyRules:
    """Where a Low Ammo element resupplies (DD-4.26, G-32): base contact with one of these."""

    clause: str
    element_kinds: tuple[str, ...]
    landed_helicopter: bool


RECON_RESULTS = ("friendly_fire", "empty_jungle", "suppressive_hit", "direct_hit")
"""What a Recon by Fire roll can do (DD-4.28–4.31): the rules act on each."""


@dataclass(frozen=True)
class ReconResult:
    """One row of the Recon by Fire table (DD-4.28–4.31)."""

    low: int
    high: int
    id: str = field(metadata=one_of(RECON_RESULTS))
    name: str
    clause: str
    text: str


@dataclass(frozen=True)
class DetectionRules:
    spotting: SpottingRules
    noise: NoiseRules
    recon_by_fire: ReconRules
    resupply: ResupplyRules
    result: tuple[ReconResult, ...]

    def recon_result(self, die: int) -> ReconResult:
        for row in self.result:
            if row.low <= die <= row.high:
                return row
        raise KeyError(die)


def load_detection(directory: Path = DATA_DIR) -> DetectionRules:
    """Load ``detection.toml`` strictly: known sections and keys only, a clause everywhere, and a
    Recon by Fire table that covers 1–6 exactly once."""
    name = "detection.toml"
    sections = {"spotting": SpottingRules, "noise": NoiseRules, "recon_by_fire": ReconRules,
                "resupply": ResupplyRules}
    built, doc = load_sections(name, sections, directory, also=("result",))
    rows = tuple(build(ReconResult, r, name, f"[[result]] {i}") for i, r in enumerate(doc.get("result", [])))
    covered = sorted(d for r in rows for d in range(r.low, r.high + 1))
    if covered != [1, 2, 3, 4, 5, 6]:
        raise DataError(name, "[[result]]", f"the rows must cover 1-6 exactly once, they cover {covered}")
    for r in rows:
        if not r.clause.strip():
            raise DataError(name, f"[[result]] {r.id}", "field 'clause' must cite a clause")
    return DetectionRules(result=rows, **built)


@cache
def rules() -> DetectionRules:
    """The shipped detection tables, loaded once per process."""
    return load_detection()


# -- line of sight to and from markers ---------------------------------------------------------------
def los(g: Game, a: Stand | Blind, b: Stand | Blind):
    """Line of sight between stands and/or Blind markers (a 28 mm disc, DD-4.7): ``Game.line_of_sight``."""
    return g.line_of_sight(a, b)


def _xy(thing: Stand | Blind) -> tuple[float, float]:
    return thing.x, thing.y


REACH = sight().open.limit + sight().elevation.bonus + 2.0
"""Centre to centre, the farthest two markers can see each other: the longest cutoff (24" +6" elevated,
DD-4.1, DD-4.41; sight.toml) and 2" of slack for measuring from the base edges."""


def _near(a: Stand | Blind, b: Stand | Blind, reach: float = REACH) -> bool:
    """A cheap bound before a sightline is traced: no cutoff is longer (:data:`REACH`)."""
    return math.hypot(a.x - b.x, a.y - b.y) <= reach


def observers_of(g: Game, side: str) -> list[Stand | Blind]:
    """What watches for ``side``'s Blinds (DD-4.9 (a)): every enemy stand on the table and every enemy
    Blind marker (dummy or not, so an Echo never tells which enemy markers are real)."""
    enemy = g.state.other(side)
    out: list[Stand | Blind] = list(g.state.side_stands(enemy))
    out += [b for b in g.state.blinds.values() if b.side == enemy]
    return out


def sees_marker(g: Game, b: Blind, watchers: list[Stand | Blind]) -> Stand | Blind | None:
    for w in watchers:
        if _near(w, b) and los(g, w, b).visible:
            return w
    return None


def _name(g: Game, w: Stand | Blind) -> str:
    if isinstance(w, Blind):
        return f"Blind {w.id}"
    return g.state.elements[w.element].name


def spotter_name(el: Element) -> str:
    """How a public event names a spotter: by name on the table; under its Blind only as the marker
    (its name, its id, its optics would tell the enemy what is under the marker, DESIGN §6, DD-4.7)."""
    return f"Blind {el.blind}" if el.hidden else el.name


# -- state changes ----------------------------------------------------------------------------------
def make_echo(g: Game, b: Blind, reason: str, clause: str) -> None:
    """State 0 -> State 1 (DD-4.9): the marker becomes a "?" Echo. Public: the marker is on the table."""
    if b.state == "echo" or b.id not in g.state.blinds:
        return
    b.state = "echo"
    g.emit({"type": "echo", "blind": b.id, "side": b.side, "x": b.x, "y": b.y, "reason": reason,
            "clause": clause, "text": f"Blind {b.id} becomes an Echo: {reason}"})


def noise(g: Game, b: Blind, why: str, clause: str = "DD-4.9") -> None:
    """The Blind makes noise (DD-4.9 (b)): ``why`` is "sprint" or "water" (detection.toml [noise]: what
    it makes of a Blind, and of an Echo: a sprinting Echo is Confirmed, C-14). Trip flares (DD-9A.2)
    call this with why="trip flare" (a Blind or an Echo becomes, or stays, an Echo)."""
    if why == "sprint":
        from game.rules.weather import effect

        if effect(g, "noise_masked"):
            return  # G-07 (1), (2): the rain masks a Sprint's noise (water and trip flares still tell)
    n = rules().noise
    result = getattr(n, why + ("_echo" if b.state == "echo" else ""), "echo")
    if result == "confirmed":
        what = "it sprints" if why == "sprint" else f"it makes noise ({why})"
        reveal(g, b, f"{what} while already an Echo", "DD-2.10; C-14")
    else:
        make_echo(g, b, f"noise: {'crossing water' if why == 'water' else why}", clause)


def place_formation(g: Game, el: Element, cx: float, cy: float) -> dict[str, tuple[float, float, float]] | None:
    """A legal formation for an element's stands centred near (cx, cy) (DD-4.24): the stands keep their
    layout and the body shifts the least distance (rings of 0.5") that clears every base on the table
    and keeps 2" coherency. None when nothing within ``formation_search`` works."""
    stands = g.state.living(el)
    mx = sum(s.x for s in stands) / len(stands)
    my = sum(s.y for s in stands) / len(stands)
    search = rules().spotting.formation_search
    steps = [(0.0, 0.0)]
    r = 0.5
    while r <= search + 1e-9:
        n = max(8, int(round(2 * math.pi * r / 0.5)))
        steps += [(r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n)) for k in range(n)]
        r += 0.5
    for ox, oy in steps:
        moved = {s.id: Stand(**{**s.__dict__, "x": round(s.x - mx + cx + ox, 4), "y": round(s.y - my + cy + oy, 4)})
                 for s in stands}
        if g.placement_ok(el, moved):
            return {sid: (m.x, m.y, m.facing) for sid, m in moved.items()}
    return None


def _place_revealed(g: Game, el: Element, cx: float, cy: float) -> list[dict]:
    spots = place_formation(g, el, cx, cy)
    out = []
    for s in g.state.living(el):
        if spots is not None:
            s.x, s.y, s.facing = spots[s.id]
        out.append({"id": s.id, "type": s.type, "x": s.x, "y": s.y, "facing": s.facing})
    return out


def reveal(g: Game, b: Blind, reason: str, clause: str, by: Element | None = None) -> list[str]:
    """State 1 (or 0) -> State 2 (DD-4.11, DD-4.24): a Dummy is discarded; each real element has its
    stands placed at the marker in a legal formation and becomes a Confirmed contact. The marker is
    removed. Returns the ids of the elements placed.

    A Jungle Ghost Shadow Blind holds nothing until it is resolved: in solo mode its contents come from
    the Contact Reveal Table (DD-4.24 note, DD-10.8), rolled for ``by`` (the spotter), no ambush."""
    if b.id not in g.state.blinds:
        return []
    if g.state.solo is not None and b.id in g.state.solo.shadows:
        from game.rules import jungle_ghost

        return jungle_ghost.reveal_spotted(g, b.id, by, reason)
    del g.state.blinds[b.id]
    if b.dummy or not b.elements:
        g.emit({"type": "blind_removed", "blind": b.id, "side": b.side, "x": b.x, "y": b.y, "dummy": True,
                "reason": reason, "clause": f"{clause}; DD-4.24",
                "text": f"Blind {b.id} is revealed ({reason}): nothing there, a Dummy"})
        return []
    placed = []
    for eid in b.elements:
        el = g.state.elements[eid]
        el.blind = None
        if not g.state.living(el):
            continue
        stands = _place_revealed(g, el, b.x, b.y)
        placed.append(eid)
        g.emit({"type": "reveal", "blind": b.id, "element": el.id, "side": el.side, "name": el.name,
                "kind": el.kind, "stands": stands, "reason": reason, "clause": f"{clause}; DD-4.24",
                "text": f"Blind {b.id} is revealed ({reason}): {el.name}"})
    return placed


def reveal_element(g: Game, el: Element, reason: str, clause: str) -> None:
    """Reveal the Blind an element is under (firing or assaulting from a Blind, DD-4.11, DD-4.39)."""
    if el.blind is not None and el.blind in g.state.blinds:
        reveal(g, g.state.blinds[el.blind], reason, clause)
    el.blind = None


def after_action(g: Game) -> None:
    """DD-4.9 (a): every Blind that an enemy unit (stand or marker) now has in LOS within its visual
    cutoff becomes an Echo. Called at the start of every impulse, so after every action.

    What it reads is the table (``changes.versions``' counter for it) and what blocks sight
    (``Game.sight_key``): while both stand as they were when it last finished, every marker still a
    Blind was looked at then and not seen, so it is not looked at again (the same answer, for none of
    the sightlines)."""
    from game.rules.changes import TABLE, versions

    s = g.state
    if s.over:
        return
    last = g.echoes_checked
    if last[0] is s and last[1] is g.los_override and last[2] == versions[TABLE] and last[3] == g.sight_key():
        return
    watchers: dict[str, list[Stand | Blind]] = {}  # an Echo appearing moves no one: one list a side
    for b in list(s.blinds.values()):
        if b.state != "blind" or b.id not in s.blinds:
            continue
        if b.side not in watchers:
            watchers[b.side] = observers_of(g, b.side)
        w = sees_marker(g, b, watchers[b.side])
        if w is not None:
            make_echo(g, b, "an enemy unit has it within its visual cutoff", "DD-4.9 (a)")
    g.echoes_checked = (s, g.los_override, versions[TABLE], g.sight_key())


def on_fire(g: Game, attack: Any) -> None:
    """Muzzle flash (DD-4.39): a firing element is Confirmed at once (a firer under a Blind is revealed,
    DD-4.11), and counts as firing for spotting this turn and the next (C-07). At night, automatic
    weapons without flash suppressors are Illuminated to the end of the turn (DD-4.40, DD-9A.4, C-04:
    ``night.blooms`` says which stands bloom, from night.toml)."""
    if attack.firer is None:
        return
    el = g.state.elements.get(attack.firer)
    if el is None:
        return
    el.fired_turn = g.state.turn
    el.conceal = False
    if el.blind is not None:
        reveal_element(g, el, "muzzle flash", "DD-4.39; DD-4.11")
    if sight().time[g.state.time_of_day].night and el.illuminated_turn != g.state.turn:
        from game.rules.night import blooms

        autos = [sid for gr in attack.groups for sid in gr.stands if blooms(g, g.state.stands[sid])]
        if autos:
            el.illuminated_turn = g.state.turn
            g.emit({"type": "status", "element": el.id, "status": "illuminated", "on": True,
                    "stands": sorted(autos), "clause": "DD-4.40; C-04",
                    "text": f"{el.name}: Muzzle Bloom, Illuminated to the end of the turn"})


# -- spotting (DD-4.12–4.24) ------------------------------------------------------------------------
def centre_of(stands: list[Stand]) -> tuple[float, float]:
    return sum(s.x for s in stands) / len(stands), sum(s.y for s in stands) / len(stands)


def march_direction(stands: list[Stand]) -> float:
    """The direction of march (DD-4.20): the facing most of the stands share (ties: the lowest id's)."""
    counts: dict[float, int] = {}
    for s in sorted(stands, key=lambda s: s.id):
        counts[round(s.facing % 360, 1)] = counts.get(round(s.facing % 360, 1), 0) + 1
    best = max(counts.values())
    return next(f for f, n in counts.items() if n == best)


def _angle(a: float, b: float) -> float:
    d = abs((a - b) % 360)
    return min(d, 360 - d)


def rear_guard(stands: list[Stand]) -> Stand | None:
    """The rear-security stand (DD-4.21, "Tail-End Charlie"): a stand turned 90° or more from the
    direction of march to face a flank or the rear. It gives the squad 360° security."""
    if len(stands) < 2:
        return None
    march = march_direction(stands)
    turned = [s for s in sorted(stands, key=lambda s: s.id) if _angle(s.facing, march) >= 90 - 1e-6]
    return turned[0] if turned else None


def in_rear(stands: list[Stand], x: float, y: float) -> bool:
    """Is (x, y) in the rear 180° of the squad's direction of march (DD-4.20, DD-4.22)?"""
    cx, cy = centre_of(stands)
    if (x, y) == (cx, cy):
        return False
    bearing = math.degrees(math.atan2(y - cy, x - cx))
    return _angle(bearing, march_direction(stands)) > rules().spotting.front_arc + 1e-6


def marker_terrain(g: Game, b: Blind):
    """The terrain at the marker that modifies spotting (DD-4.23): the worst `spot` value there."""
    terrains = [h.terrain for h in g.table.features_at(b.x, b.y)] or [g.table.open]
    return min(terrains, key=lambda t: (t.spot, t.id))


def _roles(g: Game, stands: list[Stand]) -> set[str]:
    return {g.book.stands[s.type].role for s in stands}


def hq_optics(g: Game, stands: list[Stand]) -> bool:
    """An HQ stand (C-20): the Platoon Commander with an RTO in base contact (DD-4.16)."""
    from game.rules.command import in_base_contact

    pcs = [s for s in stands if g.book.stands[s.type].role == "commander"]
    rtos = [s for s in g.state.side_stands(stands[0].side) if g.book.stands[s.type].role == "rto"]
    return any(in_base_contact(g, r, p) for p in pcs for r in rtos)


def spot_modifiers(g: Game, el: Element, stands: list[Stand], b: Blind) -> list[Modifier]:
    """Every modifier to a Spotting Test by these stands of ``el`` against the Echo ``b`` (DD-4.23)."""
    sp = rules().spotting
    turn = g.state.turn
    mods: list[Modifier] = []
    if b.sprint_turn >= turn - 1:
        mods.append(Modifier("target Sprinted", sp.sprint_or_fire, "DD-4.23; DD-4.38; C-07"))
    elif any(g.state.elements[e].fired_turn >= turn - 1 for e in b.elements if e in g.state.elements):
        mods.append(Modifier("target fired", sp.sprint_or_fire, "DD-4.23; C-07"))
    t = marker_terrain(g, b)
    if t.spot:
        mods.append(Modifier(f"target in {t.name}", t.spot, "DD-4.23"))
    roles = _roles(g, stands)
    if hq_optics(g, stands):
        mods.append(Modifier("Leader Optics (Platoon HQ)", sp.optics, "DD-4.16; C-20"))
    elif "scout" in roles or any(g.book.stands[s.type].officer for s in stands):
        mods.append(Modifier("scout or officer with binoculars", sp.optics, "DD-4.23"))
    if roles and roles <= {"medic", "rto"}:
        mods.append(Modifier("isolated Medic or RTO (Encumbered)", sp.isolated, "DD-4.17; DD-4.23"))
    if in_rear(stands, b.x, b.y) and rear_guard(stands) is None:
        mods.append(Modifier("Blind Spot: unmonitored rear", sp.rear, "DD-4.22; DD-4.23"))
    if el.last_move == "patrol":
        mods.append(Modifier("Patrol Move: cautious", sp.patrol, "DD-2.8; C-07"))
    if b.conceal:
        mods.append(Modifier("target in Hold/Conceal", sp.conceal, "DD-4.38; G-32"))
    from game.rules.night import poor_light

    dim = poor_light(g, stands, b)  # G-23, DD-9A.1: dawn/dusk beyond 6" only; none into a lit circle
    if dim is not None:
        mods.append(Modifier(dim, sp.night, "G-23"))
    return mods


@table_memo(lambda stands, side, exclude=(): (tuple((s.id, s.x, s.y, s.facing) for s in stands), side, exclude))
def echoes_seen_by(g: Game, stands: list[Stand], side: str, exclude: tuple[str, ...] = ()) -> list[Blind]:
    """Enemy Echoes some of these stands have in LOS (DD-4.11, DD-4.13), by id."""
    out = []
    for b in g.state.blinds.values():
        if b.side == side or b.state != "echo" or b.id in exclude:
            continue
        if any(_near(s, b) and los(g, s, b).visible for s in stands):
            out.append(b)
    return out


def spot_test(g: Game, el: Element, stands: list[Stand], b: Blind, purpose: str = "Spotting",
              clause: str = "DD-4.12; DD-4.23") -> tuple[bool, bool]:
    """One Spotting Test with one die (DD-4.12): returns (passed, natural 6). On a pass the Echo is
    flipped (DD-4.24); on a fail it stays."""
    mods = spot_modifiers(g, el, stands, b)
    ev = resolve_test(g.dice, purpose=purpose, target=rules().spotting.target, modifiers=mods, clause=clause,
                      side=el.side, element=el.id, subject=f"{el.name} spots Echo {b.id}")
    ev["blind"] = b.id
    ok = ev["result"] == "pass"
    if el.hidden:
        # A spotter under a Blind: its modifiers (optics, an isolated medic, ...) would tell the enemy
        # what is under the marker, so the enemy hears only that the marker looked, and the outcome.
        # The purpose too: a scout's free test or a Recon Sweep would tell what is under the marker.
        g.emit(ev, visible=el.side)
        g.emit({"type": "roll", "purpose": "Spotting", "side": el.side, "element": None,
                "spotter_blind": el.blind, "blind": b.id, "result": ev["result"], "clause": "DD-4.12; DD-4.23",
                "text": f"Blind {el.blind} spots Echo {b.id}: {ev['result']}"}, visible=g.state.other(el.side))
    else:
        g.emit(ev)
    if ok:
        # The reveal is public: it names a spotter under its Blind only by the marker (DESIGN §6).
        reveal(g, b, f"spotted by {spotter_name(el)}", "DD-4.11; DD-4.24", by=el)
    return ok, natural_success(ev["dice"][0])


def critical_spot(g: Game, el: Element, primary: tuple[float, float], side: str, primary_id: str) -> None:
    """A natural 6 also reveals a second Echo within 4" of the primary (DD-4.14): the nearest."""
    r = rules().spotting.critical_radius
    near = sorted((math.hypot(b.x - primary[0], b.y - primary[1]), b.id) for b in g.state.blinds.values()
                  if b.side != side and b.state == "echo" and b.id != primary_id)
    near = [x for x in near if x[0] <= r + 1e-9]
    if near:
        b = g.state.blinds[near[0][1]]
        g.emit({"type": "note", "element": None if el.hidden else el.id, "blind": b.id, "clause": "DD-4.14",
                "text": f"Critical Spot: the natural 6 also reveals Echo {b.id}"})
        reveal(g, b, f"Critical Spot by {spotter_name(el)}", "DD-4.14", by=el)


@table_memo(lambda el: el.id)
def fireteams(g: Game, el: Element) -> list[list[Stand]]:
    """DD-4.18: a squad split into fireteams in separate terrain features counts as two elements for
    spotting. Teams are the stands grouped by the feature under their centre, when there are two or
    more such groups and the squad is out of 2" coherency between them; otherwise one team."""
    from game.rules.command import coherent

    stands = g.state.living(el)
    if len(stands) < 2 or el.kind != "squad" or coherent(g, el):
        return [stands]
    groups: dict[str, list[Stand]] = {}
    for s in stands:
        hits = [h for h in g.table.features_at(s.x, s.y) if not h.terrain.overlay]
        key = hits[-1].feature.id if hits else "(open)"
        groups.setdefault(key, []).append(s)
    if len(groups) < 2:
        return [stands]
    return [groups[k] for k in sorted(groups)]


def _blind_param(choices: list[Blind], doc: str, name: str = "target", optional: bool = False) -> dict:
    return {name: {"kind": "blind", "choices": [b.id for b in choices], "optional": optional, "doc": doc}}


class Spot(ActionKind):
    """Spotting Test (DD-4.12–4.18): the squad (or one split fireteam, DD-4.18) names one Echo in LOS
    (DD-4.13) and rolls one die; a natural 6 reveals a second Echo within 4" (DD-4.14); an element with
    a scout stand makes one free extra test after a success (DD-4.15)."""

    type = "spot"
    is_move = False

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        out = []
        teams = fireteams(g, el)
        for team in teams:
            seen = echoes_seen_by(g, team, el.side)
            if not seen:
                continue
            params = _blind_param(seen, "an enemy Echo in LOS (DD-4.13)")
            params.update(_blind_param(seen, "scout's free extra test (DD-4.15): another Echo in LOS",
                                       "second", optional=True))
            label = f"{el.name}: Spotting Test ({price})"
            extra: dict = {}
            if len(teams) > 1:
                extra = {"team": [s.id for s in team]}
                params["team"] = {"kind": "stands", "choices": [s.id for s in team],
                                  "min": len(team), "max": len(team),  # check(): the whole fireteam
                                  "doc": "the fireteam that spots (DD-4.18)"}
                label = f"{el.name} fireteam {'+'.join(s.id for s in team)}: Spotting Test ({price})"
            out.append({"type": self.type, **common, **extra, "clause": "DD-4.12; DD-4.23", "label": label,
                        "params": params})
        return out

    def check(self, g: Game, el: Element, action: dict) -> tuple[list[Stand], Blind]:
        teams = fireteams(g, el)
        team = teams[0]
        want = action.get("team")
        if len(teams) > 1:
            match = [t for t in teams if want is not None and sorted(want) == sorted(s.id for s in t)]
            if not match:
                raise IllegalAction(f"{el.name} is split into fireteams: name one with 'team' "
                                    f"({'; '.join(','.join(s.id for s in t) for t in teams)})", "DD-4.18")
            team = match[0]
        bid = action.get("target")
        b = g.state.blinds.get(bid) if isinstance(bid, str) else None
        if b is None or b.side == el.side:
            raise IllegalAction(f"no enemy Blind {bid!r}", "DD-4.13")
        if b.state != "echo":
            raise IllegalAction(f"Blind {bid} is not an Echo yet: only Echoes can be spotted", "DD-4.9; DD-4.11")
        if not any(los(g, s, b).visible for s in team):
            raise IllegalAction(f"no stand of {el.name} has line of sight to Echo {bid}", "DD-4.11")
        return team, b

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[list[Stand], Blind]) -> None:
        team, b = plan
        where = (b.x, b.y)
        ok, six = spot_test(g, el, team, b)
        if ok and six:
            critical_spot(g, el, where, el.side, b.id)
        if ok and "scout" in _roles(g, team):
            others = [o for o in echoes_seen_by(g, team, el.side) if o.id != b.id]
            want = action.get("second")
            pick = [o for o in others if o.id == want] or sorted(
                others, key=lambda o: (math.hypot(o.x - where[0], o.y - where[1]), o.id))
            if pick:
                g.emit({"type": "note", "element": el.id, "clause": "DD-4.15",
                        "text": f"{el.name}'s scout makes a free extra Spotting Test"},
                       visible=g.visibility_of_element(el))
                ok2, six2 = spot_test(g, el, team, pick[0], "Spotting (scout's free test)", "DD-4.15; DD-4.23")
                if ok2 and six2:
                    critical_spot(g, el, (pick[0].x, pick[0].y), el.side, pick[0].id)


class ReconSweep(ActionKind):
    """Coordinated Platoon Recon Sweep (DD-4.19, C-16): the Platoon Commander pays 2 CP; up to three
    squads In Command each make a Spotting Test against one Echo in their own sector, with Critical
    Spots. ``assign`` maps squad ids to Echo ids; unassigned squads take their nearest Echo in LOS."""

    type = "recon_sweep"
    is_move = False

    def possible(self, g: Game, side: str, types: frozenset[str]) -> bool:
        return any(g.book.stands[t].role == "commander" for t in types)  # the Platoon Commander's (DD-4.19)

    def _squads(self, g: Game, el: Element) -> list[Element]:
        from game.rules.command import command_status

        out = []
        if not any(b.side != el.side and b.state == "echo" for b in g.state.blinds.values()):
            return out  # no enemy Echo on the table for any squad to sweep
        for o in g.state.elements.values():
            if o.side != el.side or o.id == el.id or o.reserve or not g.state.living(o) or o.kind == "hq":
                continue
            if not echoes_seen_by(g, g.state.living(o), o.side):
                continue
            if el.side == "allied" and not command_status(g, o)["in_command"]:
                continue
            out.append(o)
        return out

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        if "commander" not in _roles(g, g.state.living(el)):
            return []
        squads = self._squads(g, el)
        if not squads:
            return []
        n = rules().spotting.sweep_squads
        return [{"type": self.type, **common, "cost": max(common["cost"], rules().spotting.sweep_cost)
                 if el.side == "allied" else common["cost"], "clause": "DD-4.19; C-16",
                 "label": f"{el.name}: Platoon Recon Sweep, up to {n} squads ({rules().spotting.sweep_cost} CP)",
                 "params": {"assign": {"kind": "map", "optional": True,
                                       "keys": [s.id for s in squads][:], "max": n,
                                       "choices": {s.id: [b.id for b in echoes_seen_by(g, g.state.living(s), s.side)]
                                                   for s in squads},
                                       "doc": "squad id -> Echo id in its own sector; default nearest"}}}]

    def check(self, g: Game, el: Element, action: dict) -> list[tuple[Element, Blind]]:
        if "commander" not in _roles(g, g.state.living(el)):
            raise IllegalAction(f"{el.name} holds no Platoon Commander", "DD-4.19")
        sp = rules().spotting
        if el.side == "allied" and g.state.sides["allied"].cp < sp.sweep_cost:
            raise IllegalAction(f"a Recon Sweep costs {sp.sweep_cost} CP; "
                                f"{g.state.sides['allied'].cp} left", "DD-4.19")
        squads = {s.id: s for s in self._squads(g, el)}
        assign = action.get("assign") or {}
        if not isinstance(assign, dict):
            raise IllegalAction("'assign' must map squad ids to Echo ids", "DD-4.19")
        plan: list[tuple[Element, Blind]] = []
        used: set[str] = set()
        for sid in sorted(assign):
            if sid not in squads:
                raise IllegalAction(f"'{sid}' is not a squad In Command with an Echo in LOS", "DD-4.19; C-16")
            seen = {b.id: b for b in echoes_seen_by(g, g.state.living(squads[sid]), el.side)}
            bid = assign[sid]
            if bid not in seen or bid in used:
                raise IllegalAction(f"{sid} cannot sweep Echo {bid!r} (not in its sector, or taken)", "DD-4.19")
            used.add(bid)
            plan.append((squads[sid], seen[bid]))
        for sid in sorted(squads):
            if len(plan) >= sp.sweep_squads:
                break
            if sid in assign:
                continue
            sq = squads[sid]
            cx, cy = centre_of(g.state.living(sq))
            free = [b for b in echoes_seen_by(g, g.state.living(sq), el.side) if b.id not in used]
            if free:
                b = min(free, key=lambda b: (math.hypot(b.x - cx, b.y - cy), b.id))
                used.add(b.id)
                plan.append((sq, b))
        if len(plan) > sp.sweep_squads:
            raise IllegalAction(f"a sweep takes at most {sp.sweep_squads} squads", "DD-4.19")
        if not plan:
            raise IllegalAction("no squad In Command has an Echo in its sector", "DD-4.19")
        return plan

    def resolve(self, g: Game, el: Element, action: dict, plan: list[tuple[Element, Blind]]) -> None:
        sp = rules().spotting
        if el.side == "allied":
            pool = g.state.sides["allied"]
            extra = max(0, sp.sweep_cost - g.book.command.cost_in_command)
            pool.cp -= min(extra, pool.cp)
            g.emit({"type": "cp", "side": "allied", "cp": pool.cp, "spent": extra, "clause": "DD-4.19",
                    "text": f"Recon Sweep: {extra} more CP ({pool.cp} left)"}, visible="allied")
        ev = {"type": "sweep", "element": el.id, "squads": [sq.id for sq, _ in plan],
              "echoes": [b.id for _, b in plan], "clause": "DD-4.19; C-16",
              "text": f"{el.name} directs a Platoon Recon Sweep"}
        g.emit(ev, visible=el.side)
        g.emit({**ev, "element": el.blind or el.id, "squads": [sq.blind or sq.id for sq, _ in plan],
                "text": "A Platoon Recon Sweep"}, visible=g.state.other(el.side))
        for sq, b in plan:
            if b.id not in g.state.blinds:
                continue  # already flipped by a Critical Spot
            where = (b.x, b.y)
            ok, six = spot_test(g, sq, g.state.living(sq), b, "Spotting (Recon Sweep)", "DD-4.19; DD-4.23")
            if ok and six:
                critical_spot(g, sq, where, sq.side, b.id)


# -- Recon by Fire (DD-4.25–4.31) -------------------------------------------------------------------
def civic_drift(g: Game, delta: int, why: str, clause: str) -> None:
    """Move the Civic Drift track (DD-9B.8: -5..+5) through ``village.drift``, the one place it moves."""
    from game.rules.village import drift

    drift(g, delta, why, clause)


@table_memo(lambda el, b: (el.id, b.id))
def _shooters(g: Game, el: Element, b: Blind) -> list[Stand]:
    out = []
    for s in g.state.living(el):
        t = g.book.stands[s.type]
        if t.fp <= 0:
            continue
        d = base_of(g.book, s).distance(_disc(b))
        if d <= t.range and los(g, s, b).visible:
            out.append(s)
    return out


def _disc(b: Blind):
    """A Blind marker's footprint."""
    return disc(b.x, b.y, rules().spotting.marker_radius)


class ReconByFire(ActionKind):
    """Recon by Fire (DD-4.25–4.31): spray an Echo in LOS without a Spotting Test. The firer goes Low
    on Ammo (DD-4.26) and is Exposed (DD-4.27); roll 1d6 on the table in detection.toml."""

    type = "recon_by_fire"
    is_move = False

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        if el.low_ammo:
            return []  # G-32: Low Ammo forbids Recon by Fire
        targets = [b for b in g.state.blinds.values()
                   if b.side != el.side and b.state == "echo" and _shooters(g, el, b)]
        if not targets:
            return []
        return [{"type": self.type, **common, "clause": "DD-4.25; DD-2.14",
                 "label": f"{el.name}: Recon by Fire, costs Low Ammo ({price})",
                 "params": _blind_param(targets, "an enemy Echo in LOS and range")}]

    def check(self, g: Game, el: Element, action: dict) -> tuple[Blind, list[Stand]]:
        if el.low_ammo:
            raise IllegalAction(f"{el.name} is Low on Ammo and cannot Recon by Fire", "DD-4.26; G-32")
        bid = action.get("target")
        b = g.state.blinds.get(bid) if isinstance(bid, str) else None
        if b is None or b.side == el.side:
            raise IllegalAction(f"no enemy Blind {bid!r}", "DD-4.25")
        if b.state != "echo":
            raise IllegalAction(f"Blind {bid} is not an Echo", "DD-4.10; DD-4.25")
        shooters = _shooters(g, el, b)
        if not shooters:
            raise IllegalAction(f"no stand of {el.name} has LOS and range to Echo {bid}", "DD-4.25")
        return b, shooters

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[Blind, list[Stand]]) -> None:
        from game.rules.reactions import clear_overwatch

        b, shooters = plan
        clear_overwatch(g, el, "it activates again", "G-32")
        turn = g.state.turn
        el.low_ammo = True
        el.exposed_turn = turn
        el.fired_turn = turn
        el.conceal = False
        g.emit({"type": "fire", "kind": "recon_by_fire", "side": el.side, "element": el.id, "blind": b.id,
                "stands": [s.id for s in shooters], "x": b.x, "y": b.y, "clause": "DD-4.25",
                "text": f"{el.name} fires Recon by Fire into Echo {b.id}"})
        g.emit({"type": "status", "element": el.id, "status": "low_ammo", "on": True, "clause": "DD-4.26; G-32",
                "text": f"{el.name} is Low on Ammo"})
        g.emit({"type": "status", "element": el.id, "status": "exposed", "on": True, "clause": "DD-4.27; G-32",
                "text": f"{el.name} is Exposed to the end of the turn"})
        die = g.dice.d6()
        row = rules().recon_result(die)
        g.emit({"type": "roll", "purpose": "Recon by Fire", "side": el.side, "element": el.id, "blind": b.id,
                "dice": [die], "target": None, "modifiers": [], "need": None, "result": row.id,
                "clause": row.clause, "text": f"Recon by Fire: rolled {die}: {row.name} — {row.text}"})
        if row.id == "friendly_fire":
            self._incident(g, el, b, shooters)
        elif row.id == "empty_jungle":
            self._fade(g, b, row.clause)
        elif row.id == "suppressive_hit":
            self._suppress(g, b, row.clause)
        else:
            placed = reveal(g, b, "Recon by Fire: Direct Hit", row.clause, by=el)
            self._ring(g, el, placed, row.clause)

    def _incident(self, g: Game, el: Element, b: Blind, shooters: list[Stand]) -> None:
        """DD-4.28, G-34, C-03: the firer's full FP at the nearest friendly or civilian stand within 4"."""
        from game.rules import fire, village

        rb = rules().recon_by_fire
        disc = _disc(b)
        near = sorted((round(base_of(g.book, s).distance(disc), 3), s.id) for s in g.state.stands.values()
                      if s.alive and not g.state.elements[s.element].hidden and s.element != el.id
                      and s.side == el.side)
        near = [n for n in near if n[0] <= rb.radius + 1e-9]
        civ = village.nearest_civilian(g, disc, rb.radius)  # G-39: the village's civilians (none without one)
        if civ is not None and (not near or civ[0] < near[0][0]):
            self._civilians(g, el, shooters, civ[1])
            return
        if not near:
            g.emit({"type": "note", "element": el.id, "clause": "DD-4.28",
                    "text": "no friendlies or civilians within 4\" of the marker: the rounds go nowhere"})
            return
        victim = g.state.stands[near[0][1]]
        targets = g.state.living(g.state.elements[victim.element])
        ctx = fire.Context("aimed", "DD-4.28; G-34", point_blank=False)
        model = fire.build_model(g, targets, shooters, ctx, chosen=victim.id, visible={t.id: True for t in targets})
        dice = sum(fire.stand_fp(g, s) for s in shooters)
        group = fire.Group([s.id for s in shooters], dice, [], fire.combat().fire.to_hit)
        attack = fire.Attack(el.side, el.id, ctx, [group], model, victim.id,
                             f"{el.name}'s Recon by Fire strays into {g.state.elements[victim.element].name}")
        fire.resolve_attack(g, attack)
        civic_drift(g, rb.drift, "a Recon by Fire incident", "DD-4.28; C-03")

    def _civilians(self, g: Game, el: Element, shooters: list[Stand], civ: Any) -> None:
        """DD-4.28, G-39, C-03: the nearest within 4" is a civilian: the firer's full FP at it, as at a Small
        1-HP stand; a casualty costs -3 instead of -1 (DD-9B.11, not both)."""
        from game.rules import fire, village_civilians

        rb = rules().recon_by_fire
        dice = sum(fire.stand_fp(g, s) for s in shooters)
        hit = village_civilians.fire_at(g, civ, dice, el.side, el.id, f"{el.name}'s Recon by Fire strays",
                                        "DD-4.28; G-34")
        if hit:
            village_civilians.casualty(g, civ, "recon_by_fire", "DD-9B.11", None)
            civic_drift(g, rb.drift_civilian, "civilian casualties from Recon by Fire", "DD-9B.11; C-03")
        else:
            civic_drift(g, rb.drift, "a Recon by Fire incident", "DD-4.28; C-03")

    def _fade(self, g: Game, b: Blind, clause: str) -> None:
        """DD-4.29, G-34: the Echo marker goes; the unit, real or Dummy, reverts to State 0 in place (so
        the result never tells the firer which it was, DD-10.1)."""
        b.state = "blind"
        if g.state.solo is not None and b.id in g.state.solo.shadows:
            g.state.solo.shadows[b.id] = "shadow"  # a Jungle Ghost Shadow Blind fades back likewise
        g.emit({"type": "echo_lost", "blind": b.id, "side": b.side, "x": b.x, "y": b.y, "clause": clause,
                "text": f"Empty jungle: Echo {b.id} fades back to a Blind"})

    def _suppress(self, g: Game, b: Blind, clause: str) -> None:
        """DD-4.30: a real enemy takes a Pinned marker and tests Morale, in secret (its side sees the
        dice); on a fail it slips away: an Insurgent into the Reserve Hand (a spider hole, G-34), an
        Allied unit back to State 0."""
        from game.rules.morale import morale_test

        g.emit({"type": "note", "blind": b.id, "clause": clause,
                "text": f"Suppressive fire rakes Echo {b.id}"})
        if b.dummy or not b.elements:
            return
        slipped = True
        for eid in b.elements:
            el = g.state.elements[eid]
            if not g.state.living(el):
                continue
            if not el.pinned:
                el.pinned = True
                g.emit({"type": "status", "element": el.id, "status": "pinned", "on": True, "clause": clause,
                        "text": f"{el.name} is Pinned"}, visible=el.side)
            if morale_test(g, el, "suppressed by Recon by Fire", clause):
                slipped = False
        if not slipped:
            return
        if b.side == "insurgent":
            del g.state.blinds[b.id]
            for eid in b.elements:
                el = g.state.elements[eid]
                el.blind = None
                el.reserve = True
            g.emit({"type": "blind_removed", "blind": b.id, "side": b.side, "x": b.x, "y": b.y,
                    "reason": "it slips away", "clause": f"{clause}; G-34",
                    "text": f"Echo {b.id} slips away into the jungle"})
            g.emit({"type": "note", "elements": list(b.elements), "clause": f"{clause}; G-34",
                    "text": "back into a spider hole: the unit returns to the Reserve Hand"}, visible="insurgent")
        else:
            self._fade(g, b, clause)

    def _ring(self, g: Game, el: Element, placed: list[str], clause: str) -> None:
        """DD-4.31: one casualty ring on the revealed unit (its stand nearest the firer)."""
        from game.rules import fire

        stands = [s for eid in placed for s in g.state.living(g.state.elements[eid])]
        if not stands:
            return
        cx, cy = centre_of(g.state.living(el))
        victim = min(stands, key=lambda s: (math.hypot(s.x - cx, s.y - cy), s.id))
        fire.apply_hit(g, victim, clause)


for _kind in (Spot(), ReconSweep(), ReconByFire()):
    register(_kind)

FROM_BLIND.update({"fire", "fire_maneuver", "grazing_fire", "area_fire", "assault", "frag_grenade",
                   "recoilless_fire", "recon_by_fire", "spot", "recon_sweep"})
QUIET_FROM_BLIND.update({"spot", "recon_sweep"})  # DD-4.11: only firing or assaulting reveals
