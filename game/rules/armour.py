"""Armour (DD-5.7, DD-5.12–5.18, DD-7.2–7.10; G-04, G-05, G-31, G-34; C-06, C-08): fire against vehicles.

The tables are data (``game/data/armour.toml``): the armour classes (G-04), the weapons and their AP
(G-05), which kinds of weapon can damage which classes (G-04 procedure 3), the AT shot's to-hit and
modifiers (DD-7.6, G-34), the exposed-crewman shot (DD-7.3, G-34), Punch-Drunk (DD-7.9) and the Vehicle
Damage Table (DD-5.12–5.18). Every hit on a vehicle takes the one path of G-04: the hit, then the armour
save (base + AP, slat -1 AP against RPG warheads, DD-7.5; a need above 6 is no save, G-31), then, if the
save fails, the Damage Table (:func:`strike`). Small arms cannot hurt Class 2–4 hulls (DD-7.2): the
ordinary fire path refuses them (``fire.plan_fire``); an infantry stand may instead shoot at an exposed
crewman (``crew_shot``).

Action: ``at_fire`` (an AT shot from a stand with an AT weapon or a vehicle's gun). The crew's own
actions and Phase 3 check (``crew_shot``, ``unbutton``, ``rally_crew``) are ``game.rules.crew``.

Engine readings: the Brewed Up blast (DD-5.18, "a 3 FP blast hits every unit within 2"") is a template
attack (``game.rules.template``) of 3 FP dice on every infantry stand whose base is within 2" of the hull,
with the normal to-hit, cover saves and Morale (DD-8.10's convention for a blast); a Knocked Out or Brewed
Up vehicle leaves its hull as a wreck (``vehicles.hulls_now``); the crew tests are the vehicle element's
Morale (its quality, C-06).

Riders outside a tank (G-06 "Riders") make the Hasty Bailout of DD-3.22 when it is hit, before the save
(``transport.riders_bail``). A weapon may fire a salvo and have a round limit (G-06: the Ontos, 2 an
activation, 6 a game; ``vehicles.salvo_shots``), and a recoilless rifle's shot throws the backblast and dust
screen of DD-5.33–5.34 (``assault.backblast``, the same as the infantry recoilless team's).

What it leaves out: the satchel's "stationary vehicle only" (it is refused against a moving one only
by range 0: base contact), AT mines, and an AT shot after a move (G-34's "firer used F&M -1": the
``at_fire`` action is a standing shot).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from game.rules.data import DATA_DIR, DataError, build, load_sections, one_of
from game.rules.dice import Modifier, need, p_success, resolve_test
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.memo import table_memo
from game.rules.state import Element, Stand, base_of
from game.tables import load_rows

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.rules.vehicles import VehicleRec, VehicleType

KINDS = ("small_arms", "hmg", "he", "at", "flame")
RESULTS = ("scrape", "mobility", "weapons", "bailout", "knocked_out", "brewed_up")


# -- the tables (game/data/armour.toml) ------------------------------------------------------------------
@dataclass(frozen=True)
class ArmourClass:
    klass: int
    name: str
    save: int
    hp: int
    clause: str


@dataclass(frozen=True)
class WeaponKind:
    id: str
    name: str
    classes: list[int]
    clause: str


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    kind: str = field(metadata=one_of(KINDS))
    fp: int
    range: float
    ap: int
    clause: str
    slat: bool = False
    at: bool = False
    contact: bool = False
    backblast: bool = False
    """A recoilless rifle: its shot throws the backblast and dust screen (DD-5.33-5.34)."""
    salvo: int = 1
    """Shots one ``at_fire`` may fire (G-06: the Ontos, 2)."""
    rounds: int = 0
    """Shots a game, 0: no limit (G-06: the Ontos, 6)."""


@dataclass(frozen=True)
class ReachRules:
    clause: str
    all_classes_ap: int


@dataclass(frozen=True)
class AtFireRules:
    clause: str
    to_hit: int
    moved_fast: int
    fire_maneuver: int
    half_speed: int
    firer_pinned: int
    boat_close: int
    boat_range: float


@dataclass(frozen=True)
class CrewShotRules:
    clause: str
    modifier: int
    unbutton_cp: int


@dataclass(frozen=True)
class PunchDrunkRules:
    clause: str
    classes: list[int]
    hits: int
    rally_cp: int


@dataclass(frozen=True)
class DamageRules:
    clause: str
    bailout_range: float
    wreck_cover: str


@dataclass(frozen=True)
class RidersRules:
    """G-06 "Riders": the Hasty Bailout (DD-3.22) of troops riding outside a hit tank."""

    clause: str
    hit_on: int
    save: int


@dataclass(frozen=True)
class VictoryRules:
    """G-30: VP for a vehicle Knocked Out, Brewed Up or sunk, by its side."""

    clause: str
    allied_lost: int
    insurgent_lost: int


@dataclass(frozen=True)
class BogRules:
    """G-01 T9 and rule 3: the bog check in dense jungle and freeing a Bogged vehicle."""

    clause: str
    terrain: list[str]
    drives: list[str]
    bogged_on: int
    free_on: int


@dataclass(frozen=True)
class DamageResult:
    """One row of the Vehicle Damage Table (DD-5.13–5.18)."""

    roll: int
    id: str = field(metadata=one_of(RESULTS))
    name: str
    clause: str
    hp: int = 0
    mobility: bool = False
    weapons: bool = False
    passengers_hit_on: int = 0
    bailout: bool = False
    wreck: bool = False
    blast_fp: int = 0
    blast_range: float = 0.0


@dataclass(frozen=True)
class ArmourTables:
    classes: dict[int, ArmourClass]
    kinds: dict[str, WeaponKind]
    weapons: dict[str, Weapon]
    reach: ReachRules
    at_fire: AtFireRules
    crew_shot: CrewShotRules
    punch_drunk: PunchDrunkRules
    damage: DamageRules
    riders: RidersRules
    victory: VictoryRules
    bog: BogRules
    results: tuple[DamageResult, ...]

    def result(self, roll: int) -> DamageResult:
        return self.results[min(6, max(1, roll)) - 1]  # G-31: vehicle table results clamped to 1-6


@cache
def load_armour(directory: Path = DATA_DIR) -> ArmourTables:
    """Load ``armour.toml`` strictly: known keys, a clause everywhere, classes 1-4 once each, a damage
    row for each face 1-6 in order, weapon kinds known."""
    name = "armour.toml"
    sections = {"reach": ReachRules, "at_fire": AtFireRules, "crew_shot": CrewShotRules,
                "punch_drunk": PunchDrunkRules, "damage": DamageRules, "riders": RidersRules,
                "victory": VictoryRules, "bog": BogRules}
    built, doc = load_sections(name, sections, directory, also=("armour_class", "kind", "weapon", "result"))
    classes: dict[int, ArmourClass] = {}
    for i, raw in enumerate(doc.get("armour_class", [])):
        raw = dict(raw)
        raw["klass"] = raw.pop("class", None)
        c = build(ArmourClass, raw, name, f"armour_class[{i}]")
        if c.klass in classes or not c.clause.strip():
            raise DataError(name, f"armour_class[{i}]", "each class once, with a clause")
        classes[c.klass] = c
    if sorted(classes) != [1, 2, 3, 4]:
        raise DataError(name, "[[armour_class]]", "the four classes of DD-7.1 are 1, 2, 3, 4")
    kinds = load_rows(name, "kind", WeaponKind, doc)
    if sorted(kinds) != sorted(KINDS):
        raise DataError(name, "[[kind]]", f"one row for each kind {list(KINDS)}")
    weapons = load_rows(name, "weapon", Weapon, doc)
    results = tuple(build(DamageResult, raw, name, f"result[{i}]") for i, raw in enumerate(doc.get("result", [])))
    if [r.roll for r in results] != [1, 2, 3, 4, 5, 6] or any(not r.clause.strip() for r in results):
        raise DataError(name, "[[result]]", "one row for each face 1-6, in order, each with a clause")
    for kid, k in kinds.items():
        if any(c not in classes for c in k.classes):
            raise DataError(name, f"kind '{kid}'", "classes must be armour classes")
    return ArmourTables(classes, kinds, weapons, results=results, **built)


def tables() -> ArmourTables:
    return load_armour()


# -- the rules -------------------------------------------------------------------------------------------
def can_damage(weapon: Weapon, klass: int) -> bool:
    """Can this weapon damage a hull of this class (G-04 procedure 3, DD-7.2)?"""
    t = tables()
    return klass in t.kinds[weapon.kind].classes or weapon.ap >= t.reach.all_classes_ap


def save_modifiers(weapon: Weapon, vt: VehicleType) -> list[Modifier]:
    """The modifiers to an armour save: the weapon's AP, less 1 against slat armour (DD-7.5)."""
    mods = [Modifier(f"{weapon.name} AP {weapon.ap}", -weapon.ap, "DD-7.4; DD-7.7; G-05")] if weapon.ap else []
    if vt.slat and weapon.slat and weapon.ap:
        mods.append(Modifier("bar / slat armour", 1, "DD-7.5"))
    return mods


def save_need(weapon: Weapon, vt: VehicleType) -> int | None:
    """The armour save needed (DD-7.7: base save + AP): None above 6, no save (G-31)."""
    n = vt.save - sum(m.value for m in save_modifiers(weapon, vt))
    return None if n > 6 else n


def at_modifiers(g: Game, el: Element | None, shooter: Stand | None, target: Stand) -> list[Modifier]:
    """The AT shot's to-hit modifiers (DD-7.6, G-34): the target's cover (DD-5.4), a target that moved
    more than half its speed this turn, a Pinned firer, a boat within 6"."""
    from game.rules import fire, vehicles

    r = tables().at_fire
    mods: list[Modifier] = []
    cover = fire.cover_of(g, target)
    if cover.to_hit:
        grade = "Heavy" if cover.cover == "heavy" else "Medium"
        mods.append(Modifier(f"target in {grade} Cover ({cover.name})", cover.to_hit, "DD-5.4; DD-7.6"))
    rec = vehicles.rec_of(g, target)
    if rec is not None and rec.fast_turn == g.state.turn:
        mods.append(Modifier("target moved more than half its speed", r.moved_fast, "G-34"))
    if el is not None and el.pinned:
        mods.append(Modifier("firer Pinned", r.firer_pinned, "DD-5.4"))
    vt = vehicles.vehicle_type(g, target)
    if vt is not None and vt.kind == "craft" and shooter is not None and fire.gap(g, shooter, target) <= r.boat_range:
        mods.append(Modifier("boat within 6\"", r.boat_close, "G-34; DD-9A.14"))
    return mods


def muzzle_flash(g: Game, el: Element) -> None:
    """DD-4.39: the firer is Confirmed and counts as firing for spotting (``detection.on_fire``)."""
    from types import SimpleNamespace

    from game.rules.detection import on_fire

    on_fire(g, SimpleNamespace(firer=el.id, groups=[]))


def _emit_crew(g: Game, vstand: Stand, state: str, clause: str, text: str) -> None:
    g.emit({"type": "crew", "vehicle": vstand.id, "state": state, "clause": clause, "text": text})


def strike(g: Game, vstand: Stand, weapon: Weapon, clause: str) -> str:
    """One hit on a vehicle (G-04 procedure 1): the armour save, then on a penetration the Damage Table.
    Returns the ``armour`` result: ricochet, penetration or no_effect."""
    from game.rules import transport, vehicles

    vt = vehicles.vehicle_type(g, vstand)
    rec = vehicles.rec_of(g, vstand)
    assert vt is not None and rec is not None
    name = vt.name
    if vt.riders and rec.passengers:  # G-06: riders bail out when the tank is hit, penetrated or not
        transport.riders_bail(g, vstand, f"{tables().riders.clause}; {clause}")
    if not can_damage(weapon, vt.klass):
        cls = tables().classes[vt.klass]
        g.emit({"type": "armour", "vehicle": vstand.id, "weapon": weapon.id, "result": "no_effect",
                "clause": "DD-7.2; G-04", "text": f"{weapon.name} cannot hurt the {name} ({cls.name})"})
        return "no_effect"
    mods = save_modifiers(weapon, vt)
    needed = save_need(weapon, vt)
    if needed is None:
        result = "penetration"
        g.emit({"type": "armour", "vehicle": vstand.id, "weapon": weapon.id, "result": result,
                "clause": "DD-7.7; G-31",
                "text": f"{weapon.name} against the {name}: {vt.save}+ save made worse to "
                        f"{vt.save - sum(m.value for m in mods)}+, no save (G-31): penetration"})
    else:
        ev = resolve_test(g.dice, purpose="Armour save", target=vt.save, modifiers=mods, clause="DD-5.7; DD-7.7; G-31",
                          side=vstand.side, element=vstand.element, subject=name)
        ev["stand"] = vstand.id
        g.emit(ev)
        result = "ricochet" if ev["result"] == "pass" else "penetration"
        g.emit({"type": "armour", "vehicle": vstand.id, "weapon": weapon.id, "result": result, "clause": "DD-7.7",
                "text": f"{weapon.name} against the {name}: "
                        + ("the armour holds" if result == "ricochet" else "penetration")})
    if result == "penetration":
        damage(g, vstand, "DD-5.12; DD-7.8")
    elif weapon.kind in ("at", "he"):
        punch_drunk(g, vstand, rec, vt)
    return result


def punch_drunk(g: Game, vstand: Stand, rec: VehicleRec, vt: VehicleType) -> None:
    """DD-7.9, G-34: a cast-steel tank's 2nd (and each further) non-penetrating AT hit of a turn: a crew
    Morale test; a failure Stuns it."""
    from game.rules.morale import morale_test

    pd = tables().punch_drunk
    if vt.klass not in pd.classes or rec.wreck or rec.abandoned:
        return
    if rec.at_turn != g.state.turn:
        rec.at_turn, rec.at_hits = g.state.turn, 0
    rec.at_hits += 1
    if rec.at_hits < pd.hits or rec.stunned:
        return
    el = g.state.elements[vstand.element]
    if not morale_test(g, el, f"Punch-Drunk, {rec.at_hits} non-penetrating hits this turn", pd.clause):
        rec.stunned = True
        _emit_crew(g, vstand, "stunned", "DD-7.9; DD-7.10",
                   f"the {vt.name}'s crew is Punch-Drunk: Stunned, no main gun, coaxial or cupola fire")


# -- the Vehicle Damage Table ----------------------------------------------------------------------------
def damage(g: Game, vstand: Stand, clause: str) -> None:
    """Roll the Vehicle Damage Table (DD-5.12) and apply the result."""
    from game.rules import vehicles

    vt = vehicles.vehicle_type(g, vstand)
    assert vt is not None
    die = g.dice.d6()
    row = tables().result(die)
    g.emit({"type": "roll", "purpose": "Vehicle Damage", "side": vstand.side, "element": vstand.element,
            "stand": vstand.id, "dice": [die], "target": None, "modifiers": [], "need": None, "result": row.id,
            "clause": f"{clause}; {row.clause}",
            "text": f"{vt.name}: Vehicle Damage Table, rolled {die}: {row.name}"})
    apply_result(g, vstand, row)


def apply_result(g: Game, vstand: Stand, row: DamageResult) -> None:
    from game.rules import transport, vehicles

    vt = vehicles.vehicle_type(g, vstand)
    rec = vehicles.rec_of(g, vstand)
    assert vt is not None and rec is not None
    rec.hp = max(0, rec.hp - row.hp)
    if row.mobility:
        rec.mobility_kill = True
    if row.weapons:
        rec.weapons_out = True
    g.emit({"type": "vehicle_damage", "vehicle": vstand.id, "result": row.id, "hp": rec.hp, "clause": row.clause,
            "text": f"{vt.name}: {row.name}" + (f", {rec.hp} HP left" if row.hp else "")})
    if row.id == "scrape" and rec.hp <= 0:  # G-04 procedure 2: 0 HP by scrapes is Knocked Out
        apply_result(g, vstand, next(r for r in tables().results if r.id == "knocked_out"))
        return
    if row.wreck and vt.kind == "craft":  # G-14: a boat lost sinks, or beaches burning by a bank
        from game.rules.riverine import boat_lost

        boat_lost(g, vstand, row, row.clause)
        return
    if row.passengers_hit_on or row.bailout:
        transport.emergency_exit(g, vstand, row)
    if row.bailout:
        rec.abandoned = True
    if row.wreck:
        make_wreck(g, vstand, row)


def make_wreck(g: Game, vstand: Stand, row: DamageResult) -> None:
    """Knocked Out or Brewed Up (DD-5.17–5.18): the hull stays as a wreck; a brew-up's blast."""
    from game.rules import template, vehicles

    rec = vehicles.rec_of(g, vstand)
    assert rec is not None
    rec.wreck = True
    rec.abandoned = True
    vstand.alive = False
    el = g.state.elements[vstand.element]
    g.emit({"type": "wreck", "vehicle": vstand.id, "x": vstand.x, "y": vstand.y, "facing": vstand.facing,
            "clause": row.clause, "text": f"the {vehicles.roster()[rec.roster].name} is a smoking wreck"})
    if not g.state.living(el):
        g.emit({"type": "eliminated", "element": el.id, "clause": row.clause, "text": f"{el.name} is lost"})
    if not row.blast_fp:
        return
    hull = base_of(g.book, vstand)
    b = g.book.base_of(vstand.type)
    radius = round(math.hypot(b.width, b.depth) / 2 + row.blast_range, 3)
    g.emit({"type": "brew_up", "vehicle": vstand.id, "x": vstand.x, "y": vstand.y, "radius": radius,
            "clause": row.clause, "text": f"the {vehicles.roster()[rec.roster].name} brews up: a {row.blast_fp} FP "
                                          f"blast on every stand within {row.blast_range:g}\""})
    near = [s for s in g.state.stands.values()
            if s.alive and not g.state.elements[s.element].hidden and not vehicles.is_vehicle(g, s)
            and hull.distance(base_of(g.book, s)) <= row.blast_range + 1e-9]
    if not near:
        return
    t = template.circle(vstand.x, vstand.y, radius, kind="brew_up", fp=row.blast_fp, clause=row.clause,
                        name="brew-up blast")
    template.resolve(g, template.plan(g, t, side=vstand.side, stands=near))


def template_on_hulls(g: Game, t, side: str) -> None:
    """An HE template on vehicles (G-04, G-05): each living hull it touches takes its FP dice to hit
    (4+, cover as an AT shot's), and each hit strikes the armour with the template's AP (AP 1 or less
    hurts Class 1-2 only)."""
    from game.rules import vehicles
    from game.rules.fire import combat

    hulls = [s for s in g.state.stands.values() if s.alive and vehicles.is_vehicle(g, s)
             and not g.state.elements[s.element].hidden and t.touches(base_of(g.book, s))]
    if not hulls or not t.fp:
        return
    shell = Weapon(f"he_{t.kind}", t.name, "he", 0, 0.0, t.ap, t.clause)
    for hull in sorted(hulls, key=lambda s: s.id):
        mods = at_modifiers(g, None, None, hull)
        needed = need(combat().fire.to_hit, mods)
        from game.rules.dice import succeeds

        dice = g.dice.roll(t.fp)
        hits = sum(1 for d in dice if succeeds(d, needed))
        g.emit({"type": "roll", "purpose": "to hit", "side": side, "element": None, "stand": hull.id, "dice": dice,
                "target": combat().fire.to_hit, "modifiers": [m.to_dict() for m in mods], "need": needed,
                "result": hits, "clause": f"{t.clause}; G-04; G-05",
                "text": f"{t.name} on {hull.id}: {t.fp} FP dice, needs {needed}+; rolled {dice}: {hits} hit(s)"})
        for _ in range(hits):
            if not hull.alive:
                break
            strike(g, hull, shell, t.clause)


# -- actions ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AtPlan:
    shooter: Stand
    target: Stand
    weapon: Weapon
    modifiers: list[Modifier]
    need: int
    shots: int = 1
    """G-06: the Ontos may fire 2 rifles in one activation (``salvo``)."""


def at_weapons(g: Game, stand: Stand) -> list[Weapon]:
    """The AT weapons a stand may fire now: an infantry AT team's (``stands.toml`` ``at``), or a vehicle's
    AT guns that work (not after a Weapons Knockout of its main gun, not while Stunned, DD-5.15, DD-7.10)."""
    from game.rules import vehicles

    t = tables()
    st = g.book.stands[stand.type]
    if st.at:
        return [t.weapons[st.at]]
    vt = vehicles.vehicle_type(g, stand)
    rec = vehicles.rec_of(g, stand)
    if vt is None or rec is None or rec.stunned or rec.abandoned or rec.wreck:
        return []
    out = []
    for wid in dict.fromkeys(vt.weapons):
        w = t.weapons[wid]
        if w.at and not (rec.weapons_out and wid == vt.main) and not (rec.buttoned and wid in vt.pintle) \
                and vehicles.rounds_left(rec, w) > 0:
            out.append(w)
    return out


@table_memo(lambda side: side)
def vehicle_targets(g: Game, side: str) -> list[Stand]:
    """The enemy vehicles on the table (Confirmed stands of a vehicle type), in state order."""
    from game.rules import vehicles

    return [s for s in g.state.side_stands(g.state.other(side)) if vehicles.is_vehicle(g, s)]


def plan_at(g: Game, el: Element, action: dict) -> AtPlan:
    """Check an AT shot (DD-7.6): a stand of the element with the weapon, a Confirmed enemy vehicle in
    its line of sight and range."""
    from game.rules import fire, vehicles

    sid = action.get("stand")
    shooters = [s for s in g.state.living(el) if at_weapons(g, s)]
    if not shooters:
        raise IllegalAction(f"{el.name} has no anti-tank weapon that can fire", "DD-7.4; DD-7.10; DD-5.15")
    shooter = next((s for s in shooters if s.id == sid), None) if sid is not None else shooters[0]
    if shooter is None:
        raise IllegalAction(f"{sid!r} is not a stand of {el.name} with an anti-tank weapon", "DD-7.4")
    weapons = {w.id: w for w in at_weapons(g, shooter)}
    wid = action.get("weapon", next(iter(weapons)))
    weapon = weapons.get(wid) if isinstance(wid, str) else None
    if weapon is None:
        raise IllegalAction(f"{shooter.id} cannot fire {wid!r} now (it fires {', '.join(weapons)})", "DD-7.4")
    tid = action.get("target")
    target = g.state.stands.get(tid) if isinstance(tid, str) else None
    if target is None or not target.alive or not g.knows_stand(el.side, target) or target.side == el.side:
        raise IllegalAction(f"no Confirmed enemy vehicle {tid!r} on the table", "DD-5.1; DD-7.6")
    if not vehicles.is_vehicle(g, target):
        raise IllegalAction(f"'{tid}' is not a vehicle: anti-tank fire is at vehicles", "DD-7.6")
    dist = fire.gap(g, shooter, target)
    if dist > weapon.range + 1e-9:
        raise IllegalAction(f"'{tid}' is {dist:.2f}\" away, beyond the {weapon.name}'s {weapon.range:g}\"", "G-05; G-26")
    if not g.line_of_sight(shooter, target).visible:
        raise IllegalAction(f"{shooter.id} has no line of sight to '{tid}'", "DD-5.1")
    shots = vehicles.salvo_shots(g, shooter, weapon, action.get("salvo"))
    mods = at_modifiers(g, el, shooter, target)
    return AtPlan(shooter, target, weapon, mods, need(tables().at_fire.to_hit, mods), shots)


def resolve_at(g: Game, el: Element, p: AtPlan) -> bool:
    """Fire the AT shot(s) (:func:`at_shot`), count the rounds (G-06), then a recoilless rifle's one
    backblast and dust screen behind the firer (DD-5.33-5.34, ``assault.backblast``). True if any hit."""
    from game.rules import vehicles
    from game.rules.assault import backblast

    hit, fired = False, 0
    for _ in range(p.shots):
        if not p.target.alive:
            break  # the salvo's next rifle is kept: the target is already a wreck
        hit = at_shot(g, el, p) or hit
        fired += 1
    rec = vehicles.rec_of(g, p.shooter)
    if p.weapon.rounds and rec is not None:
        rec.fired[p.weapon.id] = rec.fired.get(p.weapon.id, 0) + fired
    if p.weapon.backblast:
        backblast(g, el, p.shooter)
    return hit


def at_shot(g: Game, el: Element, p: AtPlan) -> bool:
    """Roll one AT shot; a hit strikes the vehicle (:func:`strike`)."""
    r = tables().at_fire
    ev = resolve_test(g.dice, purpose="AT to hit", target=r.to_hit, modifiers=p.modifiers, clause=r.clause,
                      side=el.side, element=el.id, subject=f"{p.shooter.id} ({p.weapon.name})")
    ev["stand"] = p.shooter.id
    g.emit(ev)
    hit = ev["result"] == "pass"
    g.emit({"type": "at_fire", "side": el.side, "element": el.id, "stand": p.shooter.id, "target": p.target.id,
            "weapon": p.weapon.id, "x0": p.shooter.x, "y0": p.shooter.y, "x1": p.target.x, "y1": p.target.y,
            "hit": hit, "clause": "DD-7.6",
            "text": f"{p.shooter.id} fires its {p.weapon.name} at {p.target.id}: " + ("a hit" if hit else "a miss")})
    muzzle_flash(g, el)
    if hit:
        strike(g, p.target, p.weapon, "DD-7.6")
    return hit


class AtFire(ActionKind):
    """An anti-tank shot (DD-7.6–7.8): RPG, LAW, recoilless rifle or a vehicle's gun at a vehicle."""

    type = "at_fire"

    def possible(self, g: Game, side: str, types: frozenset[str]) -> bool:
        # DD-7.6: an infantry AT team's weapon, or a vehicle's guns (``at_weapons``)
        return any(g.book.stands[t].at or g.book.stands[t].vehicle for t in types)

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        if not vehicle_targets(g, el.side):
            return []  # no enemy vehicle to shoot at
        shooters = [s for s in g.state.living(el) if at_weapons(g, s)]
        if not shooters:
            return []
        out = []
        for s in shooters:
            for w in at_weapons(g, s):
                from game.rules import fire, vehicles

                targets = [t.id for t in vehicle_targets(g, el.side)
                           if fire.gap(g, s, t) <= w.range + 1e-9 and g.line_of_sight(s, t).visible]
                if not targets:
                    continue
                out.append({"type": self.type, **common, "clause": "DD-7.6; G-05",
                            "label": f"{el.name}: {w.name} at a vehicle, {tables().at_fire.to_hit}+ to hit, "
                                     f"AP {w.ap} ({price})",
                            "params": {"stand": {"kind": "stand", "choices": [s.id], "doc": "the firing stand"},
                                       "weapon": {"kind": "choice", "choices": [w.id], "doc": "the AT weapon"},
                                       "target": {"kind": "stand", "choices": targets,
                                                  "doc": "an enemy vehicle in sight and range"},
                                       **({"salvo": {"kind": "flag", "optional": True,
                                                     "doc": f"fire {w.salvo} rifles at once (G-06)"}}
                                          if w.salvo > 1 and vehicles.rounds_left(vehicles.rec_of(g, s), w) >= w.salvo
                                          else {})}})
        return out

    def check(self, g: Game, el: Element, action: dict) -> AtPlan:
        return plan_at(g, el, action)

    def resolve(self, g: Game, el: Element, action: dict, plan: AtPlan) -> None:
        resolve_at(g, el, plan)
        el.conceal = False
        el.fired_turn = g.state.turn

    def odds(self, g: Game, el: Element, action: dict, plan: AtPlan) -> dict:
        """The chance of the shot and of a penetration, from what the firer may know (the vehicle's
        type and the modifiers; never who is inside)."""
        from game.rules import vehicles

        vt = vehicles.vehicle_type(g, plan.target)
        assert vt is not None
        p_hit = p_success(plan.need)
        sv = save_need(plan.weapon, vt) if can_damage(plan.weapon, vt.klass) else 0
        p_pen = 0.0 if sv == 0 else (1.0 if sv is None else 1.0 - p_success(sv))
        return {"target": plan.target.id, "weapon": plan.weapon.id, "base": tables().at_fire.to_hit,
                "need": plan.need, "modifiers": [m.to_dict() for m in plan.modifiers], "p_hit": p_hit,
                "save": sv, "shots": plan.shots, "p_penetration": 1.0 - (1.0 - p_hit * p_pen) ** plan.shots}


ACTIONS = ("at_fire",)
register(AtFire())

from game.rules import crew as _crew  # noqa: E402,F401  (crew_shot, unbutton, rally_crew; Phase 3)
