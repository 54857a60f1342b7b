"""The river (DD chapter 9A §2: DD-9A.6–9A.10, DD-9A.13–9A.14; G-14, G-36, G-30; C-22, C-25): craft on
the water, sight on and off it, beaching, the ramp and the mud, and boats that sink.

The craft are vehicles (``game.rules.vehicles``: roster rows of kind ``craft``, drive ``boat``, G-14);
this chapter adds what the water does to them. Its tables are ``game/data/riverine.toml``; its state
(:class:`RiverineState`, ``GameState.chapters["riverine"]``) exists only in a game whose scenario has a
craft or a river mine, so a game without either keeps its state, events and hash.

* **Water** (DD-9A.6–9A.8): the scenario's ``river`` and ``stream`` features. A ``river`` 8" wide or more
  is a main river (DD-9A.7), anything narrower a canal; a ``stream`` is always a canal. A craft's centre
  stays on the water the whole move (:func:`boat_allowance`, asked by ``vehicles.move_allowance``): its
  roster ``river`` speed on a main river, its ``canal`` speed once any of the move is on a canal; half in
  Fire & Maneuver, half while Stunned (G-14). A craft run aground does not move.
* **Sight** (DD-9A.7–9A.8, C-25; :func:`water_sight`, asked by ``Game.line_of_sight`` after the table's
  own answer): from a craft on a canal into the bank foliage, at most 3" of the sightline may run inside
  the foliage (both ways, DD-4.5); a stand in a fortification at the waterline (a spider bunker,
  DD-9A.13) is not in the foliage and sees down the canal. Along a main river the 24" open limit does not
  apply; weather and light still do (C-25).
* **Beaching and the ramp** (DD-9A.9–9A.10, C-22, G-36): a craft whose hull is within 0.25" of dry land is
  at a bank. ``drop_ramp`` (a Tango's activation, 1 CP) lowers the ramp and debarks every element aboard
  onto the bank, each stand within 4" of the landing point. Other craft at a bank use ``dismount``
  (``game.rules.transport``), onto the bank the same way. Each debarking element rolls for Mud (1–3: its
  debark and every move the rest of the turn at most 3", C-22), unless it lands on a trail or an Engineer
  stand of its side is on the bank within 4" (``us_engineer_team``).
* **Spider bunkers** (DD-9A.13, C-12): a ``bunker`` feature at the waterline: heavy cover, -2 to hit and
  a 4+ save (terrain.toml), and sight down the canal (the foliage limit above does not reach it). The
  RPG's +1 against a boat within 6" (DD-9A.14) is ``armour.at_modifiers``'s (G-34).
* **Sinking** (G-14, G-30; :func:`boat_lost`, asked by ``armour.apply_result``): a craft at 0 HP, Knocked
  Out or Brewed Up within 2" of a bank is beached and burning (a wreck), else it sinks. Each stand aboard
  is hit on 1–3 (Brewed Up: all KIA, DD-5.18); survivors go Pinned onto the nearer bank within 4", or are
  lost (KIA tokens, -3 each at the end); an Allied craft lost is -2 VP at the end (G-30).

Beaching, the ramp and the mud are ``game.rules.beaching``; river mines (DD-9A.11–9A.12, C-26) are
``game.rules.river_mines``.

What it leaves out: currents (G-14 gives +2"/-2" on main rivers, but a table does not say which way its
rivers run, so there are none); burnt foliage on a canal bank (napalm, G-19) still counts as foliage for
the 3" limit; a Spall & Bailout result on a craft is the armour rule's (the crew stays aboard, adrift);
troops wading or swimming out to a craft.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, unary_union

from game.rules.chapters import Chapter, Step, register_chapter, state_of, tables
from game.rules.data import DATA_DIR, DataError, Rulebook, build, load_sections, one_of
from game.rules.errors import IllegalAction
from game.rules.state import Element, Stand, base_of

if TYPE_CHECKING:
    from game.rules.armour import DamageResult
    from game.rules.game import Game

CHAPTER_ID = "riverine"
EPS = 1e-6


# -- the tables (game/data/riverine.toml) -------------------------------------------------------------
@dataclass(frozen=True)
class WaterRules:
    clause: str
    types: list[str]
    canal_types: list[str]
    main_width: float


@dataclass(frozen=True)
class SightRules:
    clause: str
    canal_foliage: float
    unrestricted: list[str]


@dataclass(frozen=True)
class BankRules:
    clause: str
    touch: float
    debark: float
    ramp_craft: list[str]


@dataclass(frozen=True)
class MudRules:
    clause: str
    mud_on: int
    cap: float
    engineers: list[str]
    engineer_range: float


@dataclass(frozen=True)
class MineRules:
    clause: str
    trigger: float
    tokens: int
    most: int
    orders: list[str]


@dataclass(frozen=True)
class MineResult:
    """One row of the river mine d6 (DD-9A.12, G-36)."""

    id: str = field(metadata=one_of(("premature", "hull_breach", "catastrophic")))
    name: str
    low: int
    high: int
    klass: int
    clause: str
    craft: str = ""
    hits: int = 0
    stun: bool = False
    morale: bool = False
    sink: bool = False
    beach: str = field(default="", metadata=one_of(("", "always", "near")))


@dataclass(frozen=True)
class SinkRules:
    clause: str
    hit_on: int
    beach_range: float
    bank_range: float
    stunned_speed: float


@dataclass(frozen=True)
class RiverineTables:
    water: WaterRules
    sight: SightRules
    bank: BankRules
    mud: MudRules
    mine: MineRules
    sinking: SinkRules
    results: tuple[MineResult, ...]

    def mine_result(self, craft: str, klass: int, roll: int) -> MineResult:
        """The row for this craft and roll: the craft's own, else its class's, else any class's."""
        rows = [r for r in self.results if r.low <= roll <= r.high]
        for pick in (lambda r: r.craft == craft, lambda r: not r.craft and r.klass == klass,
                     lambda r: not r.craft and r.klass == 0):
            found = [r for r in rows if pick(r)]
            if found:
                return found[0]
        raise KeyError((craft, klass, roll))


def load_riverine(directory: Path = DATA_DIR) -> RiverineTables:
    """Load ``riverine.toml`` strictly: known keys, a clause everywhere, and a mine row for every face of
    the d6 for every class of craft in the roster (G-36)."""
    from game.rules.vehicles import load_roster

    name = "riverine.toml"
    sections = {"water": WaterRules, "sight": SightRules, "bank": BankRules, "mud": MudRules, "mine": MineRules,
                "sinking": SinkRules}
    built, doc = load_sections(name, sections, directory, also=("mine_result",))
    rows = []
    for i, raw in enumerate(doc.get("mine_result", [])):
        raw = dict(raw)
        if "class" in raw:
            raw["klass"] = raw.pop("class")
        row = build(MineResult, raw, name, f"mine_result[{i}]")
        if not row.clause.strip() or not 1 <= row.low <= row.high <= 6:
            raise DataError(name, f"mine_result[{i}]", "a clause, and 1 <= low <= high <= 6")
        rows.append(row)
    t = RiverineTables(results=tuple(rows), **built)
    roster = load_roster(directory)
    for v in roster.values():
        if v.kind != "craft":
            continue
        for face in range(1, 7):
            try:
                t.mine_result(v.id, v.klass, face)
            except KeyError:
                raise DataError(name, "[[mine_result]]", f"no row for a {face} against the {v.id} (class {v.klass})") from None
    for cid in t.bank.ramp_craft:
        if cid not in roster or roster[cid].kind != "craft":
            raise DataError(name, "[bank]", f"ramp_craft {cid!r} is not a craft of vehicles.toml")
    if t.mine.orders[:1] != ["detonate"] or t.mine.tokens < 0 or t.mine.most < 1:
        raise DataError(name, "[mine]", "orders start with 'detonate'; tokens >= 0; most >= 1")
    return t


def rules(g: Game) -> RiverineTables:
    return tables(g.book, CHAPTER_ID)


# -- its state ---------------------------------------------------------------------------------------------
@dataclass
class Boat:
    """A craft's river state (its hull, crew and passengers are ``vehicles.VehicleRec``'s)."""

    ramp: bool = False
    """The ramp is down at a bank (DD-9A.9); it comes up when the craft moves."""
    aground: bool = False
    """Run aground (a mine, DD-9A.12, G-36; or lost by a bank, G-14): it does not move again."""
    burning: bool = False
    """Lost within 2" of a bank: beached and burning, a wreck (G-14)."""
    sunk: bool = False
    """Sunk (G-14): gone from the table."""
    mine_stun: int = 0
    """The turn a mine Stunned it (C-26: the stun lifts at the end of the next turn's Phase 3); 0: none."""


@dataclass
class RiverMine:
    """A River Mine token (DD-9A.11): the Insurgent's secret until it goes off."""

    id: str
    x: float
    y: float
    order: str = "detonate"
    """Its standing order (``set_mine``): ``detonate`` at the first Allied craft within 2", or ``hold``."""
    fired: int = 0
    """The turn it went off (0: not yet). Single use (G-36)."""
    name: str = ""
    """Its public name once it went off (``mine1``, ...: counted over the mines fired)."""


@dataclass
class RiverineState:
    """``GameState.chapters["riverine"]``: each craft's river state, the mines, the mud-bound elements."""

    boats: dict[str, Boat] = field(default_factory=dict)
    mines: list[RiverMine] = field(default_factory=list)
    fired: int = 0
    """Mines gone off so far (their public names)."""
    mud: dict[str, int] = field(default_factory=dict)
    """Element id -> the turn it debarked into mud (DD-9A.10: at most 3" that turn)."""


def rstate(g: Game) -> RiverineState | None:
    return state_of(g, CHAPTER_ID)


def boat_of(g: Game, stand: Stand) -> Boat | None:
    st = rstate(g)
    return st.boats.get(stand.id) if st is not None else None


def is_craft(g: Game, stand: Stand) -> bool:
    from game.rules.vehicles import vehicle_type

    vt = vehicle_type(g, stand)
    return vt is not None and vt.kind == "craft"


# -- the water ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Water:
    """The table's water and land, in plan (from the scenario's features: it never changes)."""

    main: BaseGeometry
    """Main rivers (DD-9A.7), slightly grown so a line along an edge counts as on it."""
    water: BaseGeometry
    """All the water a craft floats on, slightly grown."""
    canal: BaseGeometry
    """Canals (DD-9A.8), slightly grown."""
    land: BaseGeometry
    """The table off the water."""
    foliage: BaseGeometry
    """Vegetation features (terrain.toml ``vegetation``): the bank foliage of DD-9A.8."""
    ways: tuple[tuple[str, bool, BaseGeometry], ...]
    """(feature id, main river?, shape) of every water feature."""


def strip_width(shape: BaseGeometry) -> float:
    """The width of the rectangle with this shape's area and perimeter (a strip's width)."""
    a, p = shape.area, shape.length
    half = p / 2.0
    return (half - math.sqrt(max(0.0, half * half - 4.0 * a))) / 2.0


def _water(g: Game) -> Water:
    r = rules(g).water
    ways = []
    veg = []
    for f in g.scenario.features:
        t = g.book.terrain[f.type]
        if f.type in r.types:
            width = f.width if f.path is not None else strip_width(f.shape())
            main = f.type not in r.canal_types and width >= r.main_width - 1e-9
            ways.append((f.id, main, f.shape()))
        elif t.vegetation:
            veg.append(f.shape())
    table = shapely.box(0.0, 0.0, g.scenario.width, g.scenario.height)
    water = unary_union([w[2] for w in ways]) if ways else shapely.Polygon()
    main = unary_union([w[2] for w in ways if w[1]]) if any(w[1] for w in ways) else shapely.Polygon()
    canal = unary_union([w[2] for w in ways if not w[1]]) if any(not w[1] for w in ways) else shapely.Polygon()
    return Water(main.buffer(EPS), water.buffer(EPS), canal.buffer(EPS), table.difference(water),
                 unary_union(veg) if veg else shapely.Polygon(), tuple(ways))


def water(g: Game) -> Water:
    return g.measure(("riverine", "water"), lambda: _water(g))


def afloat(g: Game, stand: Stand) -> bool:
    """Is this stand a craft on the water (alive, not sunk)?"""
    return stand.alive and is_craft(g, stand) and water(g).water.covers(Point(stand.x, stand.y))


def on_canal(g: Game, x: float, y: float) -> bool:
    """Is the point on a canal (DD-9A.8), not on a main river?"""
    w = water(g)
    p = Point(x, y)
    return w.water.covers(p) and not w.main.covers(p)


def hull(g: Game, stand: Stand) -> BaseGeometry:
    return base_of(g.book, stand)


def bank_gap(g: Game, stand: Stand) -> float:
    """Inches from a craft's hull to the nearest dry land (0: touching or over it)."""
    land = water(g).land
    return 1e9 if land.is_empty else hull(g, stand).distance(land)


def at_bank(g: Game, stand: Stand) -> bool:
    """DD-9A.9: the craft's hull touches a bank (within ``touch``)."""
    return bank_gap(g, stand) <= rules(g).bank.touch + 1e-9


def landing_point(g: Game, stand: Stand) -> tuple[float, float]:
    """Where a craft's ramp (or its bow) meets the bank: the dry land nearest its hull."""
    _, p = nearest_points(hull(g, stand), water(g).land)
    return round(p.x, 4), round(p.y, 4)


# -- moving on the water (G-14) -------------------------------------------------------------------------------
def boat_allowance(g: Game, stand: Stand, dest: Stand, mode: str) -> tuple[float, list[str], bool]:
    """A craft's allowance for one move (``vehicles.move_allowance`` asks): its centre stays on the water
    (a refusal otherwise), the roster's ``river`` speed on a main river, ``canal`` once any of it is on a
    canal; half in Fire & Maneuver (G-06), half while Stunned (G-14). A craft run aground cannot move."""
    from game.rules.vehicles import rec_of, vehicle_type

    vt = vehicle_type(g, stand)
    assert vt is not None
    w = water(g)
    moved = (stand.x, stand.y) != (dest.x, dest.y)
    path = LineString([(stand.x, stand.y), (dest.x, dest.y)]) if moved else Point(stand.x, stand.y)
    if moved and not w.water.covers(path):
        raise IllegalAction(f"'{stand.id}' is a boat: its move must stay on the water (a river, canal or stream)",
                            "G-14; DD-9A.6")
    boat = boat_of(g, stand)
    if moved and boat is not None and boat.aground:
        raise IllegalAction(f"'{stand.id}' is aground on the bank: it cannot move", "DD-9A.12; G-36")
    going = "river" if w.main.covers(path) else "canal"
    inches = vt.speed(going) * (0.5 if mode == "fire_maneuver" else 1.0)
    ids = [going]
    rec = rec_of(g, stand)
    if rec is not None and rec.stunned:
        inches *= rules(g).sinking.stunned_speed
        ids.append("stunned")
    return inches, ids, False


def top_speed(g: Game, stand: Stand) -> float:
    """A craft's best speed (its ``river`` speed): the reach its move offers show (``movement``)."""
    from game.rules.vehicles import vehicle_type

    vt = vehicle_type(g, stand)
    return vt.speed("river") if vt is not None else 0.0


def mud_cap(g: Game, el: Element) -> float | None:
    """DD-9A.10, C-22: an element that debarked into mud this turn moves at most 3" (None: no cap)."""
    st = rstate(g)
    if st is None or st.mud.get(el.id) != g.state.turn:
        return None
    return rules(g).mud.cap


# -- sight on the water (DD-9A.7–9A.8; C-25) ------------------------------------------------------------------
def _point_of(thing: Any) -> Point:
    return Point(thing.x, thing.y)


def _in_fortification(g: Game, x: float, y: float) -> bool:
    return any(h.terrain.fortification for h in g.table.features_at(x, y))


def _canal_block(g: Game, boat: Stand, other: Any) -> float | None:
    """The inches of foliage a sightline from a craft on a canal runs through to ``other`` (a stand or a
    Blind on the bank), when that is beyond the 3" of DD-9A.8; else None."""
    w = water(g)
    if w.foliage.is_empty or not on_canal(g, boat.x, boat.y):
        return None
    if w.water.covers(_point_of(other)) or not w.foliage.covers(_point_of(other)):
        return None  # on the water, or not in the bank foliage
    if _in_fortification(g, other.x, other.y):
        return None  # DD-9A.13: a spider bunker at the waterline sees down the canal
    target = base_of(g.book, other) if isinstance(other, Stand) else _point_of(other)
    _, near = nearest_points(_point_of(boat), target)
    inches = round(LineString([(boat.x, boat.y), (near.x, near.y)]).intersection(w.foliage).length, 2)
    return inches if inches > rules(g).sight.canal_foliage + 1e-9 else None


def _along_main(g: Game, a: Any, b: Any) -> bool:
    """Both ends on the same main river and the sightline over its water (DD-9A.7)."""
    seg = LineString([(a.x, a.y), (b.x, b.y)])
    return any(main and shape.buffer(EPS).covers(seg) for _, main, shape in water(g).ways)


def water_sight(g: Game, a: Any, b: Any, res: Any) -> Any:
    """The river's word on a sightline the table answered (``Game.line_of_sight``): the canal foliage
    limit (DD-9A.8) and the main river's open axis (DD-9A.7, C-25). Symmetric in ``a`` and ``b``."""
    from game.world.los import LosResult

    s = rules(g).sight
    if res.visible:
        for boat, other in ((a, b), (b, a)):
            if isinstance(boat, Stand) and afloat(g, boat):
                inches = _canal_block(g, boat, other)
                if inches is not None:
                    return LosResult(False, 0.0, getattr(res, "distance", 0.0), dict(getattr(res, "canopy_inches", {})),
                                     s.canal_foliage, "canal", None, "DD-9A.8; DD-4.5",
                                     f"from the canal only {s.canal_foliage:g}\" into the bank foliage "
                                     f"({inches:g}\" of it on this sightline)")
        return res
    if getattr(res, "limit", "") in s.unrestricted and _along_main(g, a, b):
        if any(isinstance(t, Stand) and afloat(g, t) for t in (a, b)) or all(
                water(g).main.covers(_point_of(t)) for t in (a, b)):
            return LosResult(True, 1.0, res.distance, dict(res.canopy_inches), res.distance, "river", None,
                             "DD-9A.7; C-25", "along the main river: the sightline is unrestricted along its axis")
    return res


# -- sinking (G-14; G-30) -------------------------------------------------------------------------------------
def _swim(g: Game, vstand: Stand, all_kia: bool, clause: str) -> None:
    """The passengers of a lost craft (G-14): each stand hit on 1–3 (a brew-up: all KIA, DD-5.18); the
    survivors Pinned on the nearer bank within 4", or lost (KIA casualty tokens)."""
    from game.rules.beaching import bank_spots
    from game.rules.fire import apply_hit, remove_stand
    from game.rules.morale import pin
    from game.rules.transport import set_down
    from game.rules.vehicles import rec_of

    sk = rules(g).sinking
    rec = rec_of(g, vstand)
    assert rec is not None
    for eid in list(rec.passengers):
        pel = g.state.elements[eid]
        first = len(g.state.tokens)
        for s in g.state.living(pel):
            s.x, s.y = vstand.x, vstand.y
            if all_kia:
                remove_stand(g, s, "is killed aboard the burning boat", f"{clause}; DD-5.18")
                g.state.tokens[-1].state = "kia"
                continue
            die = g.dice.d6()
            hit = die <= sk.hit_on
            g.emit({"type": "roll", "purpose": "passenger hit", "side": pel.side, "element": eid, "stand": s.id,
                    "dice": [die], "target": sk.hit_on, "modifiers": [], "need": sk.hit_on,
                    "result": "fail" if hit else "pass", "clause": sk.clause,
                    "text": f"{s.id} aboard the sinking {vstand.id}: hit on {sk.hit_on} or less, rolled {die}: "
                            + ("hit" if hit else "unhurt")}, visible=pel.side)
            if hit:
                apply_hit(g, s, sk.clause)
        spots = bank_spots(g, vstand, pel, sk.bank_range) if g.state.living(pel) else None
        if spots is not None and set_down(g, vstand, pel, sk.clause, spots=spots):
            if not pel.pinned:
                pin(g, pel, sk.clause)
            continue
        lost = g.state.living(pel)
        for s in lost:
            remove_stand(g, s, "is lost in the river", sk.clause)
        if lost or bank_gap(g, vstand) > sk.bank_range + 1e-9:
            for tok in g.state.tokens[first:]:  # G-14: lost, and their casualty tokens with them (KIA, G-30)
                tok.state = "kia"
        rec.passengers.remove(eid)
        pel.reserve = False


def boat_lost(g: Game, vstand: Stand, row: DamageResult | None, clause: str) -> None:
    """A craft at 0 HP, Knocked Out, Brewed Up or sunk by a mine (G-14): its passengers' fate, then within
    2" of a bank beached and burning (a wreck), else sunk. Its VP (G-30) are counted at the end: a wreck's by
    ``VehiclesChapter.score``, a sunk craft's by this chapter's :meth:`RiverineChapter.score`."""
    from game.rules import armour
    from game.rules.vehicles import rec_of, roster

    sk = rules(g).sinking
    rec = rec_of(g, vstand)
    boat = boat_of(g, vstand)
    assert rec is not None and boat is not None
    rec.hp = 0
    near = bank_gap(g, vstand) <= sk.beach_range + 1e-9
    _swim(g, vstand, row is not None and row.passengers_hit_on >= 6, clause)
    name = roster()[rec.roster].name
    boat.ramp = False
    if near:
        boat.aground = boat.burning = True
        wreck = row if row is not None and row.wreck else next(r for r in armour.tables().results if r.id == "knocked_out")
        g.emit({"type": "beached", "vehicle": vstand.id, "x": vstand.x, "y": vstand.y, "burning": True,
                "clause": f"{clause}; {sk.clause}", "text": f"the {name} runs onto the bank, burning"})
        armour.make_wreck(g, vstand, wreck)
    else:
        boat.sunk = True
        rec.abandoned = True
        vstand.alive = False
        g.emit({"type": "sunk", "vehicle": vstand.id, "x": vstand.x, "y": vstand.y, "clause": f"{clause}; {sk.clause}",
                "text": f"the {name} sinks"})
        el = g.state.elements[vstand.element]
        if not g.state.living(el):
            g.emit({"type": "eliminated", "element": el.id, "clause": sk.clause, "text": f"{el.name} is lost"})


# -- the chapter ----------------------------------------------------------------------------------------------
def consolidation(g: Game) -> None:
    """Phase 3 (C-26): a mine's stun lifts at the end of the next turn's Phase 3 (after the crew's own test,
    ``crew.consolidation``)."""
    from game.rules.armour import _emit_crew
    from game.rules.vehicles import rec_of

    st = rstate(g)
    if st is None:
        return
    for sid, boat in st.boats.items():
        if not boat.mine_stun:
            continue
        rec = rec_of(g, g.state.stands[sid])
        if rec is None or not rec.stunned:
            boat.mine_stun = 0  # lifted earlier by the normal means (DD-7.10)
        elif g.state.turn > boat.mine_stun:
            rec.stunned = False
            boat.mine_stun = 0
            _emit_crew(g, g.state.stands[sid], "rallied", "C-26; DD-9A.12",
                       f"{g.state.elements[g.state.stands[sid].element].name} recovers from the mine blast")


class RiverineChapter(Chapter):
    """The river (DD chapter 9A §2) on the chapter seam: active when the scenario has a craft or a mine."""

    id = CHAPTER_ID
    title = "DD chapter 9A §2: Riverine Operations"
    actions = ("drop_ramp", "set_mine")
    state_type = RiverineState
    table_fields = ("boats", "mud")

    def active(self, g: Game) -> bool:
        return rstate(g) is not None

    def new_state(self, g: Game) -> RiverineState | None:
        mines = getattr(g.scenario, "river_mines", ())
        boats = {sid: Boat() for sid, s in sorted(g.state.stands.items()) if is_craft(g, s)}
        if not boats and not mines:
            return None  # a game without craft or mines keeps no state here (its hash is unchanged)
        return RiverineState(boats=boats, mines=[RiverMine(m.id, m.x, m.y) for m in mines])

    def load_tables(self, book: Rulebook) -> RiverineTables:
        return load_riverine()

    def steps(self) -> tuple[Step, ...]:
        return (Step("consolidation", 46, consolidation, "C-26", self.id),)

    def score(self, g: Game) -> list[tuple[int, str]]:
        """G-30: each sunk craft (no wreck left for ``VehiclesChapter.score`` to count), by its side's
        ``armour.toml [victory]`` value (none for a 0 value)."""
        from game.rules import armour
        from game.rules.vehicles import rec_of, roster

        v = armour.tables().victory
        out = []
        for sid, boat in (rstate(g) or RiverineState()).boats.items():
            s = g.state.stands[sid]
            rec = rec_of(g, s)
            vp = v.allied_lost if s.side == "allied" else v.insurgent_lost
            if boat.sunk and vp and rec is not None and not rec.wreck:
                out.append((vp, f"{s.side.capitalize()} {roster()[rec.roster].name} {sid} sunk {vp:+d} (G-30)"))
        return out

    def markers(self, g: Game, side: str) -> list[dict]:
        from game.rules.river_mines import mine_markers
        from game.rules.vehicles import rec_of

        st = rstate(g)
        if st is None:
            return []
        out = mine_markers(g, side)
        for sid, boat in st.boats.items():
            s = g.state.stands[sid]
            rec = rec_of(g, s)
            if boat.aground and rec is not None:
                out.append({"id": f"beached_{sid}", "kind": "beached", "x": s.x, "y": s.y, "facing": s.facing,
                            "model": rec.roster, "state": "burning" if boat.burning else "aground"})
        return out


CHAPTER = register_chapter(RiverineChapter())


def boat_view(g: Game, stand: Stand) -> dict:
    """A craft's river state for the views (public: anyone sees a ramp down or a boat aground)."""
    boat = boat_of(g, stand)
    if boat is None:
        return {}
    return {"ramp": boat.ramp, "aground": boat.aground}


from game.rules import beaching as _beaching  # noqa: E402,F401  (registers drop_ramp)
from game.rules import river_mines as _river_mines  # noqa: E402,F401  (registers set_mine)
