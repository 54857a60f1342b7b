"""Vehicles (DD chapter 7; DD-7.1, DD-7.11–7.13, DD-5.14; G-04, G-06, G-14): the roster, a vehicle's
state, its hull on the table, and how it moves and fires at infantry.

A vehicle is a stand: an Element of kind ``vehicle`` holding one Stand whose type (``stands.toml``)
names its roster row (``vehicles.toml``, G-06 A and B, the craft of G-14) in ``vehicle``; the stand's
base is the hull's plan. The chapter ``vehicles`` is active only when the scenario has a vehicle; its
state (:class:`VehiclesState`, ``GameState.chapters["vehicles"]``) holds each vehicle's hit points and
crew state (buttoned up, Stunned, mobility kill, weapons out, abandoned), its passengers, and the wrecks
left on the table. A game without vehicles keeps no state here, so its hash is as it was.

Line of sight asks :func:`hulls_now` for the hulls on the table (living vehicles and wrecks; a sightline
crossing one is blocked, except from or to that hull) and :func:`eye_of` for the crew's eye height.

A vehicle's own weapons fire at infantry through the ordinary fire path (``fire.stand_fp`` asks
:func:`vehicle_fp`): the FP of its working weapons (G-06), the pintle weapons silent while the crew is
Buttoned Up (DD-7.3), none while it is Stunned (DD-7.10), the main weapon gone after a Weapons
Knockout (DD-5.15). Every Allied vehicle has a radio and is In Command (G-06, G-16).

Small arms hurt a soft-skin (Class 1, DD-7.2, G-04): ``fire`` may target it and each hit takes G-04's one
path (:func:`small_arms_hit`). A wreck is impassable to vehicles and shelters a stand in contact with it
(Medium cover, G-01 T15; ``fire.cover_of`` asks :func:`wreck_shelter`); a tracked vehicle crossing dense
jungle may bog (G-01 T9, rule 3). A lost vehicle scores on the VP track (G-30, :meth:`VehiclesChapter.score`).

Craft (kind ``craft``, drive ``boat``) move, see and sink by the river rules (``game.rules.riverine``, DD
chapter 9A §2): :func:`move_allowance` hands their moves to it.

What it leaves out: flame and
canister modes, and the armour rules themselves (``game.rules.armour``) and mounting
(``game.rules.transport``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.rules.chapters import Chapter, Step, register_chapter, set_state, state_of
from game.rules.data import DATA_DIR, SIDES, DataError, Rulebook, build, one_of, read_toml, rulebook
from game.rules.state import Element, Stand
from game.world import shapes

if TYPE_CHECKING:
    from game.rules.game import Game

CLAUSE = "DD-7.11; G-06"
DRIVES = ("tracked", "wheeled", "boat")
GOINGS = ("road", "cross", "paddy", "swim", "river", "canal")


# -- the roster (game/data/vehicles.toml) -------------------------------------------------------------
@dataclass(frozen=True)
class VehicleType:
    """One roster row (G-06, G-14). ``klass`` is the TOML key ``class`` (the armour class of G-04)."""

    id: str
    name: str
    side: str = field(metadata=one_of(SIDES))
    kind: str = field(metadata=one_of(("vehicle", "craft")))
    klass: int
    save: int
    hp: int
    moves: dict[str, float]
    weapons: list[str]
    main: str
    drive: str = field(metadata=one_of(DRIVES))
    height: float
    eye: float
    clause: str
    pintle: list[str] = field(default_factory=list)
    capacity: int = 0
    capacity_medium: int = -1
    riders: bool = False
    cupola: bool = False
    slat: bool = False

    def speed(self, going: str) -> float:
        """Inches per move over this going (0: impassable)."""
        return self.moves.get(going, 0.0)


def load_roster(directory: Path = DATA_DIR) -> dict[str, VehicleType]:
    """Load ``vehicles.toml`` strictly: known keys, a clause in every row, goings and weapons known."""
    from game.rules import armour

    name = "vehicles.toml"
    doc = read_toml(name, directory)
    extra = sorted(set(doc) - {"vehicle"})
    if extra:
        raise DataError(name, "(file)", f"unknown top-level key(s) {', '.join(extra)}")
    weapons = armour.load_armour(directory).weapons
    classes = armour.load_armour(directory).classes
    out: dict[str, VehicleType] = {}
    for i, raw in enumerate(doc.get("vehicle", [])):
        record = f"vehicle[{i}] '{raw.get('id')}'"
        raw = dict(raw)
        if "class" in raw:
            raw["klass"] = raw.pop("class")
        v = build(VehicleType, raw, name, record)
        if not v.clause.strip():
            raise DataError(name, record, "field 'clause' must cite a clause or gap id")
        if v.id in out:
            raise DataError(name, record, f"duplicate id '{v.id}'")
        if v.klass not in classes:
            raise DataError(name, record, f"class {v.klass} is not an armour class of armour.toml")
        if v.save != classes[v.klass].save:
            raise DataError(name, record, f"save {v.save} is not class {v.klass}'s base save {classes[v.klass].save}")
        bad = sorted(set(v.moves) - set(GOINGS))
        if bad:
            raise DataError(name, record, f"moves: unknown going(s) {bad}")
        for w in [*v.weapons, *v.pintle, *([v.main] if v.main else [])]:
            if w not in weapons:
                raise DataError(name, record, f"weapon {w!r} is not defined in armour.toml")
        if v.main and v.main not in v.weapons or any(w not in v.weapons for w in v.pintle):
            raise DataError(name, record, "main and pintle must be among its weapons")
        if v.hp < 1 or v.capacity < 0 or v.height <= 0 or v.eye <= 0:
            raise DataError(name, record, "hp >= 1, capacity >= 0, height and eye > 0")
        out[v.id] = v
    if not out:
        raise DataError(name, "(file)", "no [[vehicle]] records")
    return out


@cache
def roster() -> dict[str, VehicleType]:
    """The shipped roster, loaded once per process."""
    return load_roster()


def check_stand_types(book: Rulebook, vehicles: dict[str, VehicleType]) -> None:
    """Every stand type with ``vehicle`` names a roster row of its side."""
    for st in book.stands.values():
        if not st.vehicle:
            continue
        v = vehicles.get(st.vehicle)
        if v is None:
            raise DataError("stands.toml", f"stand '{st.id}'", f"vehicle {st.vehicle!r} is not in vehicles.toml")
        if v.side != st.side or st.role != "vehicle":
            raise DataError("stands.toml", f"stand '{st.id}'", "a vehicle's stand has its roster side and role 'vehicle'")


# -- its state ------------------------------------------------------------------------------------------
@dataclass
class VehicleRec:
    """One vehicle's state (DD chapter 7)."""

    roster: str
    hp: int
    buttoned: bool = False
    """Buttoned Up (DD-7.3): the pintle weapons are silent until the vehicle pays 1 CP to unbutton."""
    stunned: bool = False
    """Stunned (DD-7.9–7.10): no main gun, coaxial or cupola fire; removed by Rally the Crew or Phase 3."""
    mobility_kill: bool = False
    """Mobility Kill (DD-5.14): speed 0" for good."""
    weapons_out: bool = False
    """Weapons Knockout (DD-5.15): the primary weapon is destroyed."""
    abandoned: bool = False
    """Spall & Bailout (DD-5.16, C-08): the crew has bailed out; no further fire or move."""
    wreck: bool = False
    """Knocked Out or Brewed Up (DD-5.17–5.18): a wreck on the table (Medium cover, blocks sight)."""
    passengers: list[str] = field(default_factory=list)
    """The elements embarked (DD-7.12), hidden from the enemy."""
    at_hits: int = 0
    """Non-penetrating AT hits taken this turn (DD-7.9, G-34 Punch-Drunk counting)."""
    at_turn: int = 0
    """The turn ``at_hits`` counts."""
    fast_turn: int = -9
    """The last turn it moved more than half its speed (G-34: -1 to AT shots at it)."""
    bogged: bool = False
    """Bogged (G-01 T9, rule 3): a temporary Mobility Kill, until ``unbog`` frees it."""
    fired: dict[str, int] = field(default_factory=dict)
    """Rounds fired this game by weapon, for a weapon with a limit (G-06: the Ontos's 6 rifles)."""


@dataclass
class VehiclesState:
    """The chapter's state (``GameState.chapters["vehicles"]``): every vehicle stand's record, by stand."""

    vehicles: dict[str, VehicleRec] = field(default_factory=dict)


def vstate(g: Game) -> VehiclesState | None:
    return state_of(g, "vehicles")


def vehicle_type(g: Game, stand: Stand) -> VehicleType | None:
    """A stand's roster row, or None for a stand that is not a vehicle."""
    vid = g.book.stands[stand.type].vehicle
    return roster()[vid] if vid else None


def is_vehicle(g: Game, stand: Stand) -> bool:
    return bool(g.book.stands[stand.type].vehicle)


def rec_of(g: Game, stand: Stand) -> VehicleRec | None:
    st = vstate(g)
    return st.vehicles.get(stand.id) if st is not None else None


def vehicle_of(g: Game, el: Element) -> Stand | None:
    """The vehicle stand of a vehicle element (its one stand), else None."""
    if el.kind != "vehicle" or not el.stands:
        return None
    s = g.state.stands[el.stands[0]]
    return s if is_vehicle(g, s) else None


def carrier_of(g: Game, el: Element) -> Stand | None:
    """The vehicle an element is embarked in, or None."""
    st = vstate(g)
    if st is None:
        return None
    for sid, r in st.vehicles.items():
        if el.id in r.passengers:
            return g.state.stands[sid]
    return None


# -- the hulls on the table, for line of sight ----------------------------------------------------------
def hulls_now(g: Game) -> tuple[tuple[float, float, float, float, float, float, str], ...]:
    """Every hull on the table: (x, y, facing_deg, length, width, height, id) of each living vehicle on the
    table and each wreck (DD-5.17), plan centre and length along the facing; ``id`` is the vehicle's stand
    id (a wreck keeps its vehicle's id). Line of sight blocks a sightline that crosses one, except a
    sightline from or to that hull. A read: it changes nothing."""
    st = vstate(g)
    if st is None:
        return ()
    out = []
    for sid, r in st.vehicles.items():
        s = g.state.stands[sid]
        on = r.wreck or (s.alive and not g.state.elements[s.element].hidden)
        if not on:
            continue
        b = g.book.base_of(s.type)
        out.append((s.x, s.y, s.facing, b.depth, b.width, roster()[r.roster].height, sid))
    return tuple(out)


def eye_of(g: Game, stand: Stand) -> float | None:
    """A vehicle stand's eye height above the ground, inches (its roster ``eye``); None for infantry."""
    v = vehicle_type(g, stand)
    return v.eye if v is not None else None


# -- its weapons against infantry (the ordinary fire path) ----------------------------------------------
def working_weapons(g: Game, stand: Stand) -> list[str]:
    """The weapons a vehicle may fire now (G-06): none when abandoned, a wreck or Stunned (DD-7.10); not
    the main weapon after a Weapons Knockout (DD-5.15); not the pintle weapons while Buttoned Up (DD-7.3)."""
    vt, rec = vehicle_type(g, stand), rec_of(g, stand)
    if vt is None or rec is None or rec.abandoned or rec.wreck or rec.stunned:
        return []
    out = []
    for i, w in enumerate(vt.weapons):
        if rec.weapons_out and w == vt.main and vt.weapons.index(w) == i:
            continue
        if rec.buttoned and w in vt.pintle:
            continue
        out.append(w)
    return out


def vehicle_fp(g: Game, stand: Stand) -> int:
    """A vehicle's FP dice at infantry (G-06: it fires all its weapons): the FP of its working weapons
    (``armour.toml``); the AP matters only against vehicles."""
    from game.rules import armour

    ws = armour.tables().weapons
    return sum(ws[w].fp for w in working_weapons(g, stand))


def soft_skin(g: Game, stand: Stand) -> bool:
    """Can the ordinary small-arms fire path hurt this vehicle (DD-7.2, G-04: Class 1, the soft-skins:
    trucks, jeeps, sampans, PBRs)? ``fire`` lets infantry target it and :func:`small_arms_hit` takes
    each hit down G-04 procedure 1."""
    from game.rules import armour

    vt = vehicle_type(g, stand)
    return vt is not None and armour.can_damage(armour.tables().weapons["rifle"], vt.klass)


def small_arms_hit(g: Game, vstand: Stand, clause: str) -> bool:
    """One hit of the ordinary fire path on a hull (``fire.apply_hit``; DD-7.2, G-04): a soft-skin (Class 1)
    takes it down G-04 procedure 1, its armour save of 6 then the Damage Table (whose Superficial Scrape
    is the HP loss, ``armour.strike``); any other class shrugs it off. True if the hull is destroyed."""
    from game.rules import armour

    rifle = armour.tables().weapons["rifle"]
    if rec_of(g, vstand) is None or not soft_skin(g, vstand):
        g.emit({"type": "armour", "vehicle": vstand.id, "weapon": "rifle", "result": "no_effect",
                "clause": "DD-7.2", "text": f"small-arms hits ring off {vstand.id}'s hull"},
               visible=g.visibility_of_element(g.state.elements[vstand.element]))
        return False
    armour.strike(g, vstand, rifle, f"DD-7.2; G-04; {clause}")
    return not vstand.alive


# -- a weapon's rounds (G-06: the Ontos) -------------------------------------------------------------------
def rounds_left(rec: VehicleRec | None, w: Any) -> int:
    """Shots left this game (G-06: the Ontos's 6 rifles); a weapon without a limit never runs dry."""
    if not w.rounds or rec is None:
        return 99
    return w.rounds - rec.fired.get(w.id, 0)


def salvo_shots(g: Game, shooter: Stand, weapon: Any, salvo: object) -> int:
    """How many shots an ``at_fire`` fires: 1, or ``weapon.salvo`` when ``salvo`` is asked (G-06: the Ontos
    fires up to 2 of its rifles an activation, 6 a game)."""
    from game.rules.errors import IllegalAction

    if salvo is not None and not isinstance(salvo, bool):
        raise IllegalAction("'salvo' is a flag (true or false)", "G-06")
    if not salvo:
        return 1
    if weapon.salvo < 2:
        raise IllegalAction(f"the {weapon.name} fires one shot an activation", "G-06")
    left = rounds_left(rec_of(g, shooter), weapon)
    if left < weapon.salvo:
        raise IllegalAction(f"{shooter.id} has {left} round(s) of its {weapon.name} left", "G-06")
    return weapon.salvo


def vehicle_range(g: Game, stand: Stand) -> float:
    """The longest range of its working anti-personnel weapons (G-26)."""
    from game.rules import armour

    ws = armour.tables().weapons
    return max((ws[w].range for w in working_weapons(g, stand) if ws[w].fp), default=0.0)


# -- movement (G-06 speeds; G-01 "Tracked / Wheeled") ----------------------------------------------------
def going_speed(g: Game, vt: VehicleType, terrain: Any) -> tuple[float, str]:
    """A vehicle's inches over one terrain type, and the going: its roster speed for the terrain's
    ``tracked`` / ``wheeled`` going (G-01), capped by ``vehicle_cap`` (T9)."""
    going = terrain.tracked if vt.drive == "tracked" else terrain.wheeled
    if vt.drive == "boat" or going == "impassable":
        return 0.0, "impassable"
    inches = vt.speed("cross") / 2.0 if going == "half" else vt.speed(going)
    if terrain.vehicle_cap > 0:
        inches = min(inches, terrain.vehicle_cap)
    return inches, going


def move_allowance(g: Game, stand: Stand, dest: Stand, mode: str) -> tuple[float, list[str], bool] | None:
    """A vehicle stand's allowance for one move (``movement.stand_allowance`` asks; None for infantry):
    road speed when it stays on a road or trail, else the slowest going it crosses (G-01 rule 2); 0
    after a Mobility Kill (DD-5.14) or when abandoned. Half of it in Fire & Maneuver (G-06)."""
    from game.rules.movement import sweep

    vt = vehicle_type(g, stand)
    if vt is None:
        return None
    rec = rec_of(g, stand)
    if rec is not None and (rec.mobility_kill or rec.abandoned or rec.wreck or rec.bogged):
        return 0.0, ["mobility kill" if rec.mobility_kill else "bogged" if rec.bogged else "abandoned"], False
    if wreck_in_path(g, stand, dest):
        return 0.0, ["wreck (G-01 T15)"], False
    if vt.drive == "boat":  # G-14: craft move on the water only (the river rules)
        from game.rules.riverine import boat_allowance

        return boat_allowance(g, stand, dest, mode)
    half = 0.5 if mode == "fire_maneuver" else 1.0
    if g.table.path_on_trail(stand.x, stand.y, dest.x, dest.y):
        return vt.speed("road") * half, ["road"], True
    terrains = g.table.terrain_along(sweep(g, stand, dest))
    speeds = [(going_speed(g, vt, t), t.id) for t in terrains if not t.trail]
    if not speeds:
        return vt.speed("road") * half, ["road"], True
    inches = min(sp for (sp, _), _ in speeds)
    ids = [f"{tid} ({going})" for (sp, going), tid in speeds if sp <= inches]
    return inches * half, ids, False


def wreck_hulls(g: Game, but: str = "") -> list[Any]:
    """The plans of the wrecks on the table (DD-5.17), but the stand ``but``."""
    from game.rules.state import base_of

    st = vstate(g)
    if st is None:
        return []
    return [base_of(g.book, g.state.stands[sid]) for sid, r in sorted(st.vehicles.items()) if r.wreck and sid != but]


def wreck_in_path(g: Game, stand: Stand, dest: Stand) -> bool:
    """G-01 T15: a wreck is impassable to vehicles: does this move's swept plan cross one?"""
    from game.rules.movement import sweep

    hulls = wreck_hulls(g, stand.id)
    if not hulls:
        return False
    swept = sweep(g, stand, dest)
    return any(shapes.overlap(swept, h) > 1e-6 for h in hulls)


def wreck_shelter(g: Game, stand: Stand) -> Any:
    """G-01 T15 ("a stand may shelter in contact"), DD-5.17 ("Medium cover"): the ``wreck`` terrain row
    for a stand whose base touches a wreck's hull, else None (``fire.cover_of`` asks). A read."""
    from game.rules.state import base_of

    hulls = wreck_hulls(g, stand.id)
    if not hulls:
        return None
    plan = base_of(g.book, stand)
    reach = g.book.command.base_contact
    return g.book.terrain["wreck"] if any(plan.distance(h) <= reach + 1e-9 for h in hulls) else None


def after_move(g: Game, element: Element, plan: Any) -> None:
    """G-34: a vehicle that moves more than half its speed (the allowance of the going it crossed) is
    harder to hit for the rest of the turn (``fast_turn``); a tracked vehicle whose move crossed dense
    jungle rolls the bog check (G-01 T9: 1 on a d6 is Bogged, ``armour.toml`` ``[bog]``)."""
    import math

    v = vehicle_of(g, element)
    rec = rec_of(g, v) if v is not None else None
    if rec is None or v is None or v.id not in plan.moves:
        return
    x, y, f = plan.moves[v.id]
    if math.hypot(x - v.x, y - v.y) > plan.allowance / 2.0 + 1e-9:
        rec.fast_turn = g.state.turn
    if getattr(plan, "halted", None) is None:  # a move frozen part-way is checked no further
        bog_check(g, element, v, rec, Stand(**{**v.__dict__, "x": x, "y": y, "facing": f}))


def bog_check(g: Game, element: Element, v: Stand, rec: VehicleRec, dest: Stand) -> None:
    """G-01 T9, rule 3: the bog check of a move through dense jungle."""
    from game.rules import armour
    from game.rules.movement import sweep

    bog = armour.tables().bog
    vt = roster()[rec.roster]
    if vt.drive not in bog.drives or (dest.x, dest.y) == (v.x, v.y):
        return
    crossed = [t.id for t in g.table.terrain_along(sweep(g, v, dest)) if t.id in bog.terrain]
    if not crossed:
        return
    die = g.dice.d6()
    stuck = die <= bog.bogged_on
    g.emit({"type": "roll", "purpose": "bog check", "side": v.side, "element": element.id, "stand": v.id,
            "dice": [die], "target": bog.bogged_on, "modifiers": [], "need": bog.bogged_on + 1,
            "result": "fail" if stuck else "pass", "clause": bog.clause,
            "text": f"{element.name} through {crossed[0]}: bogged on {bog.bogged_on}, rolled {die}: "
                    + ("Bogged" if stuck else "pushes through")})
    if stuck:
        rec.bogged = True
        g.emit({"type": "status", "element": element.id, "status": "bogged", "on": True, "clause": bog.clause,
                "text": f"{element.name} is Bogged: speed 0\" until it is freed (1 CP, 4+)"})


def refuse_move(g: Game, element: Element, mode: str) -> None:
    """A vehicle moves (``patrol``: its full speed) or half speed and fires (``fire_maneuver``, G-06); it
    does not Sprint or Trail Rush (those are the infantry's, DD-2.9–2.10)."""
    from game.rules.errors import IllegalAction

    v = vehicle_of(g, element)
    if v is None:
        return
    if mode in ("sprint", "trail_rush"):
        raise IllegalAction(f"{element.name} is a vehicle: it moves at its speed, not by {mode}", "G-06")
    rec = rec_of(g, v)
    if rec is not None and rec.mobility_kill:
        raise IllegalAction(f"{element.name} has a Mobility Kill: its speed is 0\"", "DD-5.14")
    if rec is not None and rec.bogged:
        raise IllegalAction(f"{element.name} is Bogged: its speed is 0\" until it is freed (unbog)", "G-01 T9; G-01 rule 3")
    if rec is not None and (rec.abandoned or rec.wreck):
        raise IllegalAction(f"{element.name} is abandoned by its crew", "DD-5.16; C-08")


# -- the chapter ----------------------------------------------------------------------------------------
def has_vehicles(g: Game) -> bool:
    return any(g.book.stands[s.type].vehicle for s in g.state.stands.values())


class VehiclesChapter(Chapter):
    """Vehicles and armour (DD chapter 7) on the chapter seam: active when the scenario has vehicles."""

    id = "vehicles"
    title = "DD chapter 7: Vehicles & Armor"
    actions = ()
    state_type = VehiclesState
    table_fields = ("vehicles",)

    def active(self, g: Game) -> bool:
        return vstate(g) is not None

    def new_state(self, g: Game) -> VehiclesState | None:
        if not has_vehicles(g):
            return None  # a game without vehicles keeps no state here (its hash is unchanged)
        st = VehiclesState()
        for sid, s in sorted(g.state.stands.items()):
            v = vehicle_type(g, s)
            if v is not None:
                st.vehicles[sid] = VehicleRec(roster=v.id, hp=v.hp)
        for e in sorted(g.scenario.elements, key=lambda e: e.id):  # those that start aboard (DD-7.12)
            carrier = getattr(e, "embarked", None)
            if carrier is not None:
                st.vehicles[carrier].passengers.append(e.id)
                g.state.elements[e.id].reserve = True  # off the table, inside
        return st

    def load_tables(self, book: Rulebook) -> dict[str, VehicleType]:
        from game.rules import armour

        vs = roster() if book is rulebook() else load_roster()
        check_stand_types(book, vs)
        bad = sorted(set(armour.tables().bog.terrain) - set(book.terrain)) + ([] if "wreck" in book.terrain else ["wreck"])
        if bad:
            raise DataError("armour.toml", "[bog]", f"terrain {bad} is not in terrain.toml")
        return vs

    def score(self, g: Game) -> list[tuple[int, str]]:
        """G-30: each vehicle or boat Knocked Out, Brewed Up or sunk, by its side's ``armour.toml``
        ``[victory]`` value (none for a 0 value); the end-of-game VP breakdown lists them (``turn.end_game``)."""
        from game.rules import armour

        v = armour.tables().victory
        out = []
        for sid, r in vstate(g).vehicles.items():  # type: ignore[union-attr]
            if not (r.wreck or getattr(r, "sunk", False)):
                continue
            s = g.state.stands[sid]
            vp = v.allied_lost if s.side == "allied" else v.insurgent_lost
            if vp:
                out.append((vp, f"{s.side.capitalize()} {roster()[r.roster].name} {sid} lost {vp:+d} (G-30)"))
        return out

    def steps(self) -> tuple[Step, ...]:
        from game.rules import crew

        return (Step("consolidation", 45, crew.consolidation, "DD-7.10", self.id),)

    def markers(self, g: Game, side: str) -> list[dict]:
        """Public: each wreck on the table (DD-5.17; a smoking wreck, Medium cover)."""
        st = vstate(g)
        if st is None:
            return []
        out = []
        for sid, r in st.vehicles.items():
            if r.wreck:
                s = g.state.stands[sid]
                out.append({"id": f"wreck_{sid}", "kind": "wreck", "x": s.x, "y": s.y, "facing": s.facing,
                            "model": r.roster})
        return out


CHAPTER = register_chapter(VehiclesChapter())


def set_vstate(g: Game, value: VehiclesState) -> None:
    set_state(g, "vehicles", value)


from game.rules import armour as _armour  # noqa: E402,F401  (registers the armour actions)
from game.rules import transport as _transport  # noqa: E402,F401  (registers mount / dismount)
