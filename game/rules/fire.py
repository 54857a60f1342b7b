"""Shooting (DD-5.1–5.11, DD-5.19–5.21, DD-5.25–5.29, DD-2.11–2.12, DD-4.42; G-03, G-31, G-34).

The procedure has four steps (DD-5.1): gather the firepower dice of every firing stand with line of
sight and range (G-03; a ringed Medium stand rolls half, rounded up); roll to hit at 4+ with the
chapter's modifiers; give each hit to a stand and roll its save by the cover it stands in; apply the
results (casualty rings, removal and casualty tokens), then every unit hit tests Morale (DD-5.19).

One function, :func:`to_hit_modifiers`, builds the to-hit modifier list for a firing stand and a
target; one function, :func:`hit_step`, gives one hit to a stand and saves it. Both the real roll and
the odds preview (``game.rules.odds``) use them, so the preview is exact for the procedure the engine
really runs. Allocation (DD-5.8–5.10, DD-5.28): hits go to the closest visible stand of the target
element; a Small stand cannot take a hit while a Medium stand of its element is within 2" (Body
Shield); a Small stand hit by an explosive, or hit after all its element's Medium stands are gone,
rolls Look Out, Sir! (2–6: the hit moves to a Medium stand within 2", or is lost if there is none);
snipers choose their stand and ignore both.

Actions registered here: Aimed Fire (DD-2.11), Fire & Maneuver (DD-2.12), Grazing Fire (DD-5.26),
Area Suppression (DD-5.27, rolled as a pooled template by ``game.rules.template``).

What it leaves out: vehicles and their armour saves (DD-5.7, DD-5.12–5.18) and anti-tank shots (G-05):
``game.rules.armour``. Here a vehicle stand fires its roster weapons (``vehicles.vehicle_fp``; moving at
half speed it fires its whole pool at -1, G-06) and is never the target of small arms (DD-7.2) unless it is
a soft-skin (Class 1, G-04), whose hits go to ``vehicles.small_arms_hit``.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.rules.data import (
    DATA_DIR,
    ROLES,
    Rulebook,
    TerrainType,
    check_chapter_refs,
    load_sections,
    one_of,
    refers,
)
from game.rules.dice import Modifier, succeeds
from game.rules.dice import need as need_of
from game.rules.dice import p_success as _p_success
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.memo import table_memo
from game.rules.offers import Items, Offer, freeze
from game.rules.state import Element, Stand, Token, base_of, bounds_of
from game.world import shapes
from game.world.features import apart, apart_by, around

if TYPE_CHECKING:
    from game.rules.game import Game


# -- the tables (game/data/combat.toml) -----------------------------------------------------------
@dataclass(frozen=True)
class FireRules:
    clause: str
    to_hit: int
    point_blank: float
    point_blank_bonus: int
    pinned_firer: int
    fleeting: int
    column_bonus: int
    column_save: int
    column_length: float
    desperate: int
    tree_sniper_to_hit: int
    tree_sniper_save: int
    tree_canopies: list[str] = field(metadata=refers("terrain"))
    body_shield: float
    look_out_sir: int
    min_dice: int


@dataclass(frozen=True)
class GrazingRules:
    clause: str
    width: float
    hits: int
    roles: list[str] = field(metadata=one_of(ROLES))
    terrain: list[str] = field(metadata=refers("terrain"))


@dataclass(frozen=True)
class BeatenZoneRules:
    clause: str
    diameter: float
    fp: int
    roles: list[str] = field(metadata=one_of(ROLES))


@dataclass(frozen=True)
class DangerCloseRules:
    clause: str
    reach: float
    fp: int


@dataclass(frozen=True)
class AssaultRules:
    clause: str
    reach: float
    fall_back: float
    surround: float


@dataclass(frozen=True)
class GrenadeRules:
    clause: str
    reach: float
    land: int
    fp: int
    save: int
    structures: list[str] = field(metadata=refers("terrain"))


@dataclass(frozen=True)
class SatchelRules:
    clause: str
    roll: int
    hits: int
    bunker_hp: int
    occupant_hits: int
    roles: list[str] = field(metadata=one_of(ROLES))
    contact: float


@dataclass(frozen=True)
class BreachRules:
    clause: str
    roll: int
    sapper_roll: int
    contact: float


@dataclass(frozen=True)
class RecoillessRules:
    clause: str
    he_fp: int
    cone_length: float
    cone_width: float
    backblast_fp: int
    backblast_save: int
    dust_size: float


@dataclass(frozen=True)
class OverwatchRules:
    clause: str
    arc: float
    corridor_width: float
    blind_speed: list[str] = field(metadata=one_of(("patrol", "trail_rush", "sprint")))
    """DD-2.17: the Blind moves that are "at speed" (game.rules.reactions)."""
    open_ground: list[str] = field(metadata=refers("terrain"))
    """DD-2.18, DD-2.20, C-15: the terrain that is open ground (game.rules.reactions)."""


@dataclass(frozen=True)
class AmbushRules:
    clause: str
    trigger: float
    tokens: int
    sample: float
    orders: list[str] = field(metadata=one_of(("first", "closest", "within", "open", "hold")))
    """DD-2.25: the standing ambush orders offered, the default first (game.rules.reactions)."""
    within: list[float]
    within_default: float


@dataclass(frozen=True)
class CombatRules:
    fire: FireRules
    grazing: GrazingRules
    beaten_zone: BeatenZoneRules
    assault: AssaultRules
    grenade: GrenadeRules
    satchel: SatchelRules
    breach: BreachRules
    recoilless: RecoillessRules
    overwatch: OverwatchRules
    ambush: AmbushRules
    danger_close: DangerCloseRules
    templates: dict = field(default_factory=dict)
    """G-25 template sizes by id (``[[template]]``; ``game.rules.template.TemplateRow``)."""


def load_combat(directory: Path = DATA_DIR, book: Rulebook | None = None) -> CombatRules:
    """Load ``combat.toml`` strictly: every section present, known keys only, a clause in each, roles
    from the known roles, and terrain that ``book`` (by default the shipped rulebook) has; the
    ``[[template]]`` rows as ``game.rules.template.template_rows`` checks them."""
    from game.rules.template import template_rows

    hints = {k: v for k, v in typing.get_type_hints(CombatRules).items() if k != "templates"}
    built, doc = load_sections("combat.toml", hints, directory, also=("template",))
    check_chapter_refs("combat.toml", {f"[{k}]": v for k, v in built.items()}, book)
    return CombatRules(templates=template_rows(doc), **built)


@cache
def combat() -> CombatRules:
    """The shipped combat tables, loaded once per process."""
    return load_combat()


# -- geometry and terrain helpers -------------------------------------------------------------------
def q(v: float) -> float:
    """Quantise a distance that enters a rule (DESIGN §3)."""
    return round(v + 0.0, 2)


def gap(g: Game, a: Stand, b: Stand) -> float:
    """Base edge to base edge, quantised (DD chapter 3 measuring)."""
    key = ("gap", a.type, a.x, a.y, a.facing, b.type, b.x, b.y, b.facing)
    d = g.measured.get(key)  # the common case first: Game.measure without a closure
    return d if d is not None else g.measure(key, lambda: q(base_of(g.book, a).distance(base_of(g.book, b))))


def within_reach(g: Game, mine: list[Stand], theirs: list[Stand], reach: float) -> list[Stand]:
    """Those of ``theirs`` within ``reach`` of one of ``mine``, base edge to base edge (:func:`gap`), in
    their order. Two bases whose bounding boxes are further apart than ``reach`` (with room for the
    gap's rounding) are out of reach without working the gap out."""
    if not theirs or not mine:
        return []
    book, m = g.book, reach + 0.02
    boxes = [bounds_of(book, s) for s in mine]
    near = around(boxes, m)  # a base apart from it is out of reach of each of ``mine``
    out = []
    for t in theirs:
        box = bounds_of(book, t)
        if apart(box, near):
            continue
        if any(not apart_by(b, box, m) and gap(g, s, t) <= reach for s, b in zip(mine, boxes, strict=True)):
            out.append(t)
    return out


def terrain_at(g: Game, stand: Stand) -> list[TerrainType]:
    """Terrain at a stand's centre (G-01 rule 1), with collapsed bunkers turned to rubble (G-34)."""
    ruined = g.state.structures if hasattr(g.state, "structures") else {}
    hits = g.table.features_at(stand.x, stand.y)
    out_ground, overlays = [], []
    for h in hits:
        t = h.terrain
        if ruined.get(h.feature.id, {}).get("state") == "rubble":
            t = g.book.terrain["rubble"]
        (overlays if t.overlay else out_ground).append(t)
    return [out_ground[-1] if out_ground else g.table.open, *overlays]


def cover_of(g: Game, stand: Stand) -> TerrainType:
    """The terrain that gives a stand its cover (DD-5.4, DD-5.6; the best at its centre)."""
    from game.rules.night import loses_cover
    from game.rules.vehicles import wreck_shelter
    from game.world.tablemap import COVER_ORDER

    if loses_cover(g, stand):  # DD-9A.2: moving inside a fired trip flare's light, no cover bonus
        return g.table.open
    wreck = wreck_shelter(g, stand)  # G-01 T15, DD-5.17: sheltering in contact with a wreck
    return max(terrain_at(g, stand) + ([wreck] if wreck else []), key=lambda t: (COVER_ORDER[t.cover], -t.save, -t.to_hit))


def in_tree(g: Game, stand: Stand) -> bool:
    """A sniper stand in a tree canopy (DD-4.42). Engine policy: every sniper in tree terrain is aloft."""
    if g.book.stands[stand.type].role != "sniper":
        return False
    return any(t.id in combat().fire.tree_canopies for t in terrain_at(g, stand))


def in_column(g: Game, el: Element, moving: str | None = None) -> bool:
    """Column formation (G-34): Trail Rush this turn, or strung out more than 4" along a trail."""
    if moving == "trail_rush" or el.last_move == "trail_rush":
        return True
    stands = g.state.living(el)
    if len(stands) < 2 or not all(g.table.point_on_trail(s.x, s.y) for s in stands):
        return False
    rects = [base_of(g.book, s) for s in stands]
    span = max(a.hausdorff_distance(b) for a in rects for b in rects)
    return q(span) > combat().fire.column_length


HULL_HITS = 99
"""A hull in the allocation model: never removed by the count of hits, the armour rules decide (G-04)."""


def soft_skin(g: Game, stand: Stand) -> bool:
    """A Class 1 hull that small arms may target (DD-7.2, G-04; ``vehicles.soft_skin``)."""
    from game.rules.vehicles import soft_skin as _soft

    return _soft(g, stand)


def stand_fp(g: Game, stand: Stand) -> int:
    """A stand's FP dice (G-03): a ringed Medium stand rolls half, rounded up (DD-5.2)."""
    t = g.book.stands[stand.type]
    if t.vehicle:  # a vehicle fires its working weapons (G-06; game.rules.vehicles)
        from game.rules.vehicles import vehicle_fp

        return vehicle_fp(g, stand)
    if t.hits > 1 and stand.hits >= 1:
        return max(combat().fire.min_dice, math.ceil(t.fp / 2))
    return t.fp


def can_shoot(g: Game, stand: Stand) -> bool:
    """A stand with FP that is not a Litter Team (DD-6.3: a Litter Team cannot shoot), nor a heavy
    crew-served weapon in the water (DD-3.18: no M60 or mortar fire while fording)."""
    from game.rules.casevac import is_bearer

    if g.book.stands[stand.type].vehicle:
        return stand_fp(g, stand) > 0  # G-06, DD-7.3, DD-7.10: its working weapons (game.rules.vehicles)
    return g.book.stands[stand.type].fp > 0 and not is_bearer(g, stand) and not wet_heavy_weapon(g, stand)


def fording(g: Game, stand: Stand) -> bool:
    """DD-3.18: the stand's centre is in fordable water (a stream, a canal, G-01 T4)."""
    return any(t.water for t in terrain_at(g, stand))


def wet_heavy_weapon(g: Game, stand: Stand) -> bool:
    """DD-3.18: a heavy crew-served weapon (M60, mortar: ``heavy_weapon`` in stands.toml) in the water."""
    return g.book.stands[stand.type].heavy_weapon and fording(g, stand)


def refuse_wet_weapons(g: Game, el: Element, stands: list[Stand], what: str) -> None:
    """Refuse an action whose every weapon is a heavy weapon in the water (DD-3.18)."""
    if stands and all(wet_heavy_weapon(g, s) for s in stands):
        raise IllegalAction(f"{el.name} is fording: {what} cannot fire from the water", "DD-3.18")


def is_small(g: Game, stand: Stand) -> bool:
    return g.book.stands[stand.type].base == "small"


# -- context of one attack ------------------------------------------------------------------------
@dataclass(frozen=True)
class SaveOverride:
    """A weapon's own save rule that replaces some cover saves (G-19 napalm: no vegetation or hootch
    saves, 6, but bunkers and trenches 5+; G-25 claymore and canister: no vegetation cover)."""

    strip: tuple[str, ...]
    """Terrain flags (``vegetation``, ``building``, ``water``, ``fortification``) whose cover save the
    weapon ignores, or ``all``."""
    save: int | None = 6
    """The save in stripped cover (None: no save at all)."""
    fortified: int | None = None
    """The save in a fortification (bunker, trench, spider hole) under it; None: its own save."""
    clause: str = "G-19; G-25"

    def need(self, cover: TerrainType) -> tuple[int | None, str] | None:
        """The save in ``cover`` under this weapon, or None where the cover keeps its own."""
        if cover.fortification and self.fortified is not None:
            return self.fortified, f"{cover.name} under this weapon ({self.clause})"
        if "all" in self.strip or any(getattr(cover, flag) for flag in self.strip):
            why = "no cover save" if self.save is None else f"{cover.name} gives no save against it"
            return self.save, f"{why} ({self.clause})"
        return None


@dataclass
class Context:
    """What kind of attack this is: it selects the modifiers and saves that apply."""

    kind: str = "aimed"
    """aimed | fire_maneuver | sniper | overwatch | ambush | desperate | grazing | beaten_zone |
    assault_volley | assault | grenade | satchel | backblast | recoilless"""
    clause: str = "DD-2.11; DD-5.1"
    column: bool = False
    """The target is a trail column caught by ambush or Opportunity Fire (DD-3.3, DD-2.29)."""
    cover_to_hit: bool = True
    """Cover modifies to-hit (not in a beaten zone, G-34, nor close assault)."""
    saves: bool = True
    """False: no saves at all (close assault, DD-5.22)."""
    fixed_save: int | None = None
    """A save that replaces the cover save (grenade 6, backblast 5+)."""
    save_override: SaveOverride | None = None
    """A weapon that strips some cover saves (napalm, claymore; G-19, G-25)."""
    explosive: bool = False
    """An explosive template: Small stands roll Look Out, Sir! (DD-5.9, G-25)."""
    allocation: str = "shield"
    """shield (DD-5.8, DD-5.28) | fixed (a sniper's chosen stand, DD-5.10) | nearest (a pooled template:
    the beaten zone, G-34) | template (each stand under a template takes its own dice, DD-8.10)"""
    point_blank: bool = True
    morale: bool = True
    """Units hit take the Pinning test (DD-5.19); the ambush runs its own Discipline Check."""
    fixed_need: int | None = None
    """Automatic hits (satchel) need no to-hit roll."""


def to_hit_modifiers(g: Game, firer: Element | None, shooter: Stand | None, target: Stand | None,
                     ctx: Context) -> list[Modifier]:
    """Every to-hit modifier for one firing stand at one target stand (DD-5.4, DD-5.5, DD-5.21,
    DD-5.25, DD-2.20, DD-2.28, DD-2.30, DD-3.3, DD-4.42; C-17, C-18). The real roll and the odds
    preview both call this. ``firer`` None: off-board fire (no firer's state); ``target`` None: an area
    attack with no cover modifier (G-34), only the firer's own state counts."""
    if target is None:
        ctx = dataclasses.replace(ctx, cover_to_hit=False, point_blank=False, column=False)
    f = combat().fire
    mods: list[Modifier] = []
    dist = gap(g, shooter, target) if shooter is not None and target is not None else math.inf
    pb = ctx.point_blank and dist <= f.point_blank
    if ctx.cover_to_hit:
        if in_tree(g, target):
            mods.append(Modifier("tree sniper in Heavy Cover", f.tree_sniper_to_hit, "DD-4.42; C-09"))
        else:
            cover = cover_of(g, target)
            if cover.to_hit and not (pb and cover.vegetation):
                grade = "Heavy" if cover.cover == "heavy" else "Medium"
                mods.append(Modifier(f"target in {grade} Cover ({cover.name})", cover.to_hit, "DD-5.4"))
            elif cover.to_hit and pb:
                mods.append(Modifier(f"point blank strips vegetation cover ({cover.name})", 0, "DD-5.25; C-18"))
    if firer is not None and firer.pinned and ctx.kind not in ("assault",):
        mods.append(Modifier("firer Pinned", f.pinned_firer, "DD-5.4; DD-5.21"))
    if pb:
        clause = "DD-2.28; DD-5.5" if ctx.kind == "ambush" else "DD-5.5; DD-5.25"
        mods.append(Modifier("point blank (within 3\")", f.point_blank_bonus, clause))
    if ctx.kind == "overwatch" and target is not None and cover_of(g, target).vegetation and not ctx.column:
        mods.append(Modifier("fleeting target in foliage or brush", f.fleeting, "DD-2.20; DD-5.23"))
    if ctx.column:
        mods.append(Modifier("trail column caught by ambush or Opportunity Fire", f.column_bonus, "DD-3.3; C-17"))
    if ctx.kind == "desperate":
        mods.append(Modifier("Desperate Return Fire", f.desperate, "DD-2.30"))
    if ctx.kind == "fire_maneuver" and shooter is not None and g.book.stands[shooter.type].vehicle:
        from game.rules.armour import tables

        mods.append(Modifier("vehicle at half speed fires", tables().at_fire.half_speed, "G-06"))
    return mods


def save_need(g: Game, target: Stand, ctx: Context, dist: float) -> tuple[int | None, str]:
    """The save a target stand rolls, and why (DD-5.6, DD-4.42, DD-2.29, DD-5.25; C-12, C-15, C-18)."""
    f = combat().fire
    if not ctx.saves:
        return None, "no saves in close assault (DD-5.22)"
    if ctx.fixed_save is not None:
        return ctx.fixed_save, ctx.clause
    if ctx.save_override is not None:
        own = ctx.save_override.need(cover_of(g, target))
        if own is not None:
            return own
    if in_tree(g, target):
        return f.tree_sniper_save, "tree sniper, Heavy Cover (DD-4.42)"
    if ctx.column:
        return f.column_save, "trail column: no cover save (DD-2.29; DD-3.3)"
    cover = cover_of(g, target)
    if ctx.point_blank and dist <= f.point_blank and cover.vegetation:
        return 6, "point blank strips vegetation cover (DD-5.25; C-18)"
    return cover.save, f"{cover.name} ({'DD-5.6; C-15' if cover.water or cover.id == 'paddy' else 'DD-5.6'})"


# -- allocation model ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mark:
    """One stand as allocation sees it (positions fixed for the whole attack)."""

    id: str
    element: str
    small: bool
    medium: bool
    max_hits: int
    hits: int
    dist: float
    visible: bool
    save: int | None
    save_why: str
    buddies: tuple[int, ...]
    """Indices of Medium stands of the same element within 2" (DD-5.8, DD-5.9)."""
    had_medium: bool
    tree: bool


@dataclass
class Model:
    marks: list[Mark]
    ctx: Context
    chosen: int | None = None
    """The sniper's chosen stand (DD-5.10), or the stand a template pool is rolled at, as an index."""
    eligible: tuple[int, ...] | None = None
    """The marks a ``nearest`` allocation may give hits to (those under the template); the others are
    squad mates that only take a hit passed on by Look Out, Sir! (DD-5.9, G-34). None: every mark."""

    def alive(self, dmg: tuple[int, ...], i: int) -> bool:
        m = self.marks[i]
        return m.hits + dmg[i] < m.max_hits

    def allocate(self, dmg: tuple[int, ...]) -> int | None:
        """Which stand the next hit goes to (DD-5.8, DD-5.10, DD-5.28; G-34 beaten zone; DD-8.10)."""
        if self.ctx.allocation in ("fixed", "template"):
            return self.chosen if self.chosen is not None and self.alive(dmg, self.chosen) else None
        live = [i for i, m in enumerate(self.marks) if self.alive(dmg, i)]
        if self.ctx.allocation == "nearest":
            if self.eligible is not None:
                live = [i for i in live if i in self.eligible]
            live.sort(key=lambda i: (self.marks[i].dist, self.marks[i].id))
            return live[0] if live else None

        def shielded(i: int) -> bool:
            return self.marks[i].small and any(self.alive(dmg, b) for b in self.marks[i].buddies)

        for pool in ([i for i in live if self.marks[i].visible], live):
            ok = [i for i in pool if not shielded(i)]
            if ok:
                ok.sort(key=lambda i: (self.marks[i].dist, self.marks[i].id))
                return ok[0]
        return None

    def look_out_sir(self, dmg: tuple[int, ...], i: int) -> bool:
        """Does a Small stand given a hit roll Look Out, Sir! (DD-5.9; C-19; G-34)?"""
        m = self.marks[i]
        if not m.small or self.ctx.allocation == "fixed":
            return False
        if self.ctx.explosive:
            return True
        mediums = [j for j, o in enumerate(self.marks) if o.element == m.element and o.medium]
        return m.had_medium and not any(self.alive(dmg, j) for j in mediums)


Oracle = Callable[[str, int, Mark], bool]


def hit_step(model: Model, dmg: tuple[int, ...], oracle: Oracle) -> tuple[tuple[int, ...], str, int | None]:
    """Give one hit and save it (DD-5.6, DD-5.8–5.10). ``oracle(purpose, need, mark)`` answers each
    d6 test: the real roll rolls a die, the odds preview enumerates both answers. Returns the new
    damage, the outcome (lost | deflected-lost | saved | wounded | killed) and the stand index."""
    i = model.allocate(dmg)
    if i is None:
        return dmg, "lost", None
    if model.look_out_sir(dmg, i):
        if oracle("Look Out, Sir!", combat().fire.look_out_sir, model.marks[i]):
            alive = [b for b in model.marks[i].buddies if model.alive(dmg, b)]
            if not alive:
                return dmg, "deflected-lost", i
            i = min(alive, key=lambda b: (model.marks[b].dist, model.marks[b].id))
    m = model.marks[i]
    if m.save is not None and oracle("save", m.save, m):
        return dmg, "saved", i
    new = list(dmg)
    new[i] += 1
    return tuple(new), "killed" if m.hits + new[i] >= m.max_hits else "wounded", i


def p_success(needed: int) -> float:
    """P(one d6 succeeds) for a needed score, naturals included (G-31; ``game.rules.dice``)."""
    return _p_success(needed)


def build_model(g: Game, targets: list[Stand], shooters: list[Stand], ctx: Context,
                chosen: str | None = None, visible: dict[str, bool] | None = None) -> Model:
    """The allocation model for an attack on ``targets`` by ``shooters`` (positions as given)."""
    f = combat().fire
    marks: list[Mark] = []
    for t in targets:
        dist = min((gap(g, s, t) for s in shooters), default=math.inf)
        sv, why = save_need(g, t, ctx, dist)
        tt = g.book.stands[t.type]
        el = g.state.elements[t.element]
        had_medium = any(g.book.stands[g.state.stands[s].type].base == "medium" for s in el.stands)
        if tt.vehicle:  # a soft-skin's hits go to its armour save and Damage Table (vehicles.small_arms_hit, G-04)
            sv, why = None, "its armour save (G-04)"
        marks.append(Mark(t.id, t.element, tt.base == "small", tt.base == "medium",
                          HULL_HITS if tt.vehicle else tt.hits, t.hits, dist,
                          True if visible is None else visible.get(t.id, False), sv, why, (), had_medium,
                          in_tree(g, t)))
    for i, m in enumerate(marks):
        if not m.small:
            continue
        ti = targets[i]
        buddies = tuple(
            j for j, o in enumerate(marks)
            if o.medium and o.element == m.element and gap(g, ti, targets[j]) <= f.body_shield
        )
        marks[i] = dataclasses.replace(m, buddies=buddies)
    idx = next((i for i, m in enumerate(marks) if m.id == chosen), None)
    return Model(marks, ctx, idx)


# -- the attack ------------------------------------------------------------------------------------
@dataclass
class Group:
    """Firing stands that roll against the same need."""

    stands: list[str]
    dice: int
    modifiers: list[Modifier]
    need: int


@dataclass
class Attack:
    """A checked attack, ready to roll or to preview."""

    side: str
    firer: str | None
    """The firing element id (None for a fixed attack such as backblast)."""
    ctx: Context
    groups: list[Group]
    model: Model
    target: str | None
    """The primary target stand id."""
    label: str
    extra: list[Attack] = field(default_factory=list)
    """Further attacks resolved with this one (grazing fire's corridor hits)."""
    auto_hits: int = 0
    """Hits that need no roll (satchel, grazing corridor)."""
    zone: dict | None = None
    """The elements that test Morale whether hit or not (a grenade's structure, DD-5.30)."""

    @property
    def dice(self) -> int:
        return sum(gr.dice for gr in self.groups)


def visible_from(g: Game, shooters: list[Stand], target: Stand) -> list[Stand]:
    """The shooters that see ``target`` (DD chapter 4 LOS; ``g.line_of_sight``)."""
    return [s for s in shooters if g.line_of_sight(s, target).visible]


@table_memo(lambda side: side)
def enemy_stands(g: Game, side: str) -> list[Stand]:
    """Confirmed enemy stands: on the table, not under a Blind (DD-5.1; views.py: all on-table
    enemy stands are Confirmed until the Green Fog chapter)."""
    return g.state.side_stands(g.state.other(side))


@table_memo(lambda el, shooters: (el.side, tuple((s.id, s.x, s.y, s.facing) for s in shooters)))
def legal_targets(g: Game, el: Element, shooters: list[Stand]) -> list[Stand]:
    """Stands this element may name as a target: snipers any visible Confirmed stand in range
    (DD-5.29); others the closest visible enemy stand's element (DD-5.28)."""
    shooters = [s for s in shooters if can_shoot(g, s)]
    if not shooters:
        return []
    sniper = all(g.book.stands[s.type].role == "sniper" for s in shooters)
    reach = {s.id: g.book.stands[s.type].range for s in shooters}
    cands = []  # (the nearest shooter's gap, the enemy's place in the list, the enemy, each shooter's gap)
    for i, t in enumerate(enemy_stands(g, el.side)):
        if g.book.stands[t.type].vehicle and not soft_skin(g, t):
            continue  # DD-7.2: small arms do not hurt a Class 2-4 hull (game.rules.armour: at_fire, crew_shot)
        dists = [(gap(g, s, t), s) for s in shooters]
        cands.append((min(d for d, _ in dists), i, t, dists))

    def sighted(t: Stand, dists: list) -> list[tuple[float, Stand]]:  # the shooters that see it, with their gaps
        return [(d, s) for d, s in dists if g.line_of_sight(s, t).visible]

    if sniper:  # DD-5.29: any visible Confirmed stand a shooter that sees it has in range
        return [t for _, _, t, dists in cands
                if any(d <= reach[s.id] for d, s in dists) and any(d <= reach[s.id] for d, s in sighted(t, dists))]
    # DD-5.28: the closest visible stand's element(s). Nearest first: an enemy nearer to no shooter than
    # the closest visible one so far cannot be the closest, and its sightlines need not be asked.
    seen: dict[int, tuple[float, bool]] = {}
    closest = math.inf
    for m, i, t, dists in sorted(cands, key=lambda c: (c[0], c[1])):
        if m > closest + 1e-9:
            break
        vis = sighted(t, dists)
        if vis:
            d = min(d for d, _ in vis)
            seen[i] = (d, any(d <= reach[s.id] for d, s in vis))
            closest = min(closest, d)
    elements = {t.element for _, i, t, _ in cands if i in seen and seen[i][0] <= closest + 1e-9 and seen[i][1]}
    # every visible stand of those elements, in the listing's order
    return [t for _, i, t, dists in cands if t.element in elements and (i in seen or sighted(t, dists))]


def plan_fire(g: Game, el: Element, target_id: Any, ctx: Context, shooters: list[Stand] | None = None,
              halve: bool = False, check_target: bool = True) -> Attack:
    """Check a fire action and build its attack (DD-5.1–5.5, DD-5.28–5.29, DD-2.11–2.12); raise
    IllegalAction with the clause before anything changes."""
    shooters = shooters if shooters is not None else g.state.living(el)
    refuse_wet_weapons(g, el, shooters, "its heavy weapons")
    target = g.state.stands.get(target_id) if isinstance(target_id, str) else None
    if target is not None and target.side == el.side:
        raise IllegalAction(f"'{target_id}' is a friendly stand", "DD-5.1")
    if target is None or not target.alive or not g.knows_stand(el.side, target):
        # DESIGN §6: a stand under a Blind, in the Reserve Hand or gone answers exactly as an id that
        # names nothing, so a refusal never tells a hidden stand from a made-up one.
        raise IllegalAction(f"no Confirmed enemy stand {target_id!r} on the table", "DD-5.1; DD-4.10")
    tel = g.state.elements[target.element]
    if g.book.stands[target.type].vehicle and not soft_skin(g, target):
        raise IllegalAction(f"'{target_id}' is a vehicle: small arms cannot hurt its hull; fire at an exposed "
                            f"crewman (crew_shot) or with an anti-tank weapon (at_fire)", "DD-7.2; DD-7.3; G-04")
    if check_target:
        legal = legal_targets(g, el, shooters)
        if target not in legal:
            if not any(g.line_of_sight(s, target).visible for s in shooters):
                raise IllegalAction(f"no firing stand of {el.name} has line of sight to '{target_id}'", "DD-5.1")
            if all(gap(g, s, target) > g.book.stands[s.type].range for s in shooters):
                raise IllegalAction(f"'{target_id}' is beyond the range of every firing stand", "DD-5.1; G-26")
            raise IllegalAction(f"small-arms fire must target the closest visible enemy stand "
                                f"({', '.join(sorted({t.element for t in legal})) or 'none in range'})",
                                "DD-5.28")
    sniper = all(g.book.stands[s.type].role == "sniper" for s in shooters)
    if sniper and ctx.kind in ("aimed", "fire_maneuver"):
        ctx = dataclasses.replace(ctx, kind="sniper", allocation="fixed", clause=ctx.clause + "; DD-5.10; DD-5.29")
    targets = g.state.living(tel)
    vis = {t.id: any(g.line_of_sight(s, t).visible for s in shooters) for t in targets}
    model = build_model(g, targets, shooters, ctx, chosen=target.id, visible=vis)
    if ctx.allocation == "fixed":
        primary = target
    else:
        first = model.allocate(tuple(0 for _ in model.marks))
        primary = targets[first] if first is not None else target
    groups = fire_groups(g, el, shooters, primary, ctx, halve)
    if not groups and primary is not target:
        # The allocation's first mark is a stand no shooter sees within range (a reaction's chosen
        # target is the closest one they do see): the fire is aimed at the chosen stand (DD-5.1).
        primary = target
        groups = fire_groups(g, el, shooters, primary, ctx, halve)
    if not groups:
        raise IllegalAction(f"no stand of {el.name} can see '{primary.id}' within its range", "DD-5.1; G-26")
    return Attack(el.side, el.id, ctx, groups, model, primary.id,
                  f"{el.name} fires at {tel.name}")


def fire_groups(g: Game, el: Element, shooters: list[Stand], primary: Stand, ctx: Context,
                halve: bool) -> list[Group]:
    """Step 1 and the to-hit modifiers of step 2: the dice of each stand that sees the primary target
    within range, grouped by the score they need (DD-5.2–5.5; DD-2.12 and G-32 halve the pool)."""
    f = combat().fire
    per: list[tuple[Stand, int, list[Modifier]]] = []
    for s in sorted(shooters, key=lambda s: s.id):
        t = g.book.stands[s.type]
        if not can_shoot(g, s) or gap(g, s, primary) > t.range or not g.line_of_sight(s, primary).visible:
            continue
        per.append((s, stand_fp(g, s), to_hit_modifiers(g, el, s, primary, ctx)))
    total = sum(n for _, n, _ in per)
    halve = halve and not all(g.book.stands[s.type].vehicle for s, _, _ in per)  # G-06: a vehicle fires at -1
    if total and (halve or el.low_ammo):
        keep = max(f.min_dice, math.ceil(total / 2))
        if halve and el.low_ammo:
            keep = max(f.min_dice, math.ceil(keep / 2))
        trimmed = []
        for s, n, m in per:
            take = min(n, keep)
            keep -= take
            if take:
                trimmed.append((s, take, m))
        per = trimmed
    groups: dict[tuple, Group] = {}
    for s, n, mods in per:
        key = tuple((m.name, m.value, m.clause) for m in mods)
        gr = groups.get(key)
        if gr is None:
            groups[key] = Group([s.id], n, mods, need_of(f.to_hit, mods))
        else:
            gr.stands.append(s.id)
            gr.dice += n
    return list(groups.values())


def _roll_event(g: Game, attack: Attack, gr: Group, dice: list[int], hits: int, visible: str) -> None:
    mods = ", ".join(f"{m.name} {m.value:+d} ({m.clause})" for m in gr.modifiers)
    at = {"stand": attack.target} if attack.ctx.allocation == "template" else {}  # a template's own pool
    g.emit({
        "type": "roll", "purpose": "to hit", "side": attack.side, "element": attack.firer, "stands": gr.stands,
        **at, "dice": dice, "target": combat().fire.to_hit, "modifiers": [m.to_dict() for m in gr.modifiers],
        "need": gr.need, "result": hits, "clause": f"{attack.ctx.clause}; DD-5.3; G-31",
        "text": f"{attack.label}: {gr.dice} FP dice, {combat().fire.to_hit}+"
        + (f" with {mods}" if mods else "") + f", needs {gr.need}+; rolled {dice}: {hits} hit(s)",
    }, visible=visible)


def roll_hits(g: Game, attack: Attack, visible: str = "all") -> int:
    """Step 2 (DD-5.3): roll each group's pool; a natural 6 hits and a natural 1 misses (G-31)."""
    hits = attack.auto_hits
    for gr in attack.groups:
        dice = g.dice.roll(gr.dice)
        n = sum(1 for d in dice if succeeds(d, gr.need))
        _roll_event(g, attack, gr, dice, n, visible)
        hits += n
    return hits


def real_oracle(g: Game, attack: Attack, visible: str) -> Oracle:
    def ask(purpose: str, needed: int, mark: Mark) -> bool:
        die = g.dice.d6()
        ok = succeeds(die, needed)
        if purpose == "save":
            clause, why = "DD-5.6", mark.save_why
            text = f"{mark.id} saves on {needed}+ ({why}): rolled {die}, {'saved' if ok else 'not saved'}"
        else:
            clause = "DD-5.9; G-34"
            text = (f"{mark.id}: Look Out, Sir! on {needed}+: rolled {die}, "
                    + ("the hit goes to a rifle stand" if ok else "the hit stands"))
        g.emit({"type": "roll", "purpose": purpose, "side": g.state.stands[mark.id].side, "element": mark.element,
                "stand": mark.id, "dice": [die], "target": needed, "modifiers": [], "need": needed,
                "result": "pass" if ok else "fail", "clause": clause, "text": text}, visible=visible)
        return ok
    return ask


@dataclass
class Outcome:
    hits: int = 0
    saved: int = 0
    wounded: list[str] = field(default_factory=list)
    killed: list[str] = field(default_factory=list)
    hit_elements: list[str] = field(default_factory=list)
    pinned: list[str] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def resolve_attack(g: Game, attack: Attack, visible: str = "all") -> Outcome:
    """Roll an attack through all four steps (DD-5.1) and apply the results."""
    from game.rules.detection import on_fire

    out = Outcome()
    on_fire(g, attack)  # DD-4.39-4.40: muzzle flash reveals the firer; night muzzle bloom
    target_el = g.state.stands[attack.target].element if attack.target else None
    g.emit({"type": "fire", "kind": attack.ctx.kind, "side": attack.side, "element": attack.firer,
            "target": attack.target, "target_element": target_el, "dice": attack.dice,
            "clause": attack.ctx.clause, "text": attack.label}, visible=visible)
    hits = roll_hits(g, attack, visible)
    out.hits = hits
    dmg, hit_els = allocate_and_save(g, attack, hits, visible, out)
    for extra in attack.extra:
        sub = Outcome()
        d2, h2 = allocate_and_save(g, extra, extra.auto_hits, visible, sub)
        out.saved += sub.saved
        apply_damage(g, extra.model, d2, out, extra.ctx.clause)
        hit_els.extend(e for e in h2 if e not in hit_els)
    apply_damage(g, attack.model, dmg, out, attack.ctx.clause)
    out.hit_elements = sorted(set(hit_els))
    if attack.firer is not None:
        g.state.elements[attack.firer].conceal = False  # G-32: Hold/Conceal is lost when the unit fires
    if attack.ctx.morale:
        after_hits_morale(g, out, attack.ctx.clause)
    return out


def allocate_and_save(g: Game, attack: Attack, hits: int, visible: str, out: Outcome,
                      dmg: tuple[int, ...] | None = None) -> tuple[tuple[int, ...], list[str]]:
    """Steps 3–4 for ``hits`` hits: allocation, Look Out, Sir!, saves (DD-5.6, DD-5.8–5.10). ``dmg``: the
    damage the model's stands already took in this attack (a template's earlier pools, DD-8.10)."""
    dmg = dmg if dmg is not None else tuple(0 for _ in attack.model.marks)
    hit_els: list[str] = []
    oracle = real_oracle(g, attack, visible)
    for _ in range(hits):
        first = attack.model.allocate(dmg)
        if first is None:
            g.emit({"type": "note", "element": attack.firer, "clause": "DD-5.8",
                    "text": "the hit finds no stand to take it"}, visible=visible)
            continue
        el = attack.model.marks[first].element
        if el not in hit_els:
            hit_els.append(el)
        dmg, result, _ = hit_step(attack.model, dmg, oracle)
        if result == "saved":
            out.saved += 1
        elif result == "deflected-lost":
            g.emit({"type": "note", "element": el, "clause": "DD-5.9; G-34",
                    "text": "no Medium stand within 2\" to take the deflected hit: it is lost"}, visible=visible)
    return dmg, hit_els


def apply_damage(g: Game, model: Model, dmg: tuple[int, ...], out: Outcome, clause: str) -> None:
    for i, n in enumerate(dmg):
        for _ in range(n):
            st = g.state.stands[model.marks[i].id]
            if not st.alive:
                break
            if apply_hit(g, st, clause):
                out.killed.append(st.id)
            else:
                out.wounded.append(st.id)


def apply_hit(g: Game, stand: Stand, clause: str) -> bool:
    """One unsaved hit (DD-5.11, C-19, DD-4.42): the 1st on a Medium stand places a Red Casualty Ring;
    the last removes the stand and places a casualty token. Returns True if the stand is removed."""
    t = g.book.stands[stand.type]
    el = g.state.elements[stand.element]
    vis = g.visibility_of_element(el)
    if t.vehicle:  # a hull takes no infantry hits: the armour rules (DD-7.2, G-04; game.rules.armour)
        from game.rules.vehicles import small_arms_hit

        return small_arms_hit(g, stand, clause)
    tree = in_tree(g, stand)
    stand.hits += 1
    if stand.hits < t.hits and not tree:
        g.emit({"type": "hit", "stand": stand.id, "element": el.id, "hits": stand.hits, "ring": True,
                "clause": f"{clause}; DD-5.11",
                "text": f"{stand.id} takes a hit: Red Casualty Ring (half FP)"}, visible=vis)
        return False
    remove_stand(g, stand, "falls from the tree and is eliminated (DD-4.42)" if tree and stand.hits < t.hits
                 else "is removed", f"{clause}; DD-5.11" + ("; DD-4.42" if tree else ""))
    return True


def remove_stand(g: Game, stand: Stand, why: str, clause: str) -> None:
    """Remove a stand and leave its casualty token (DD-5.11, DD-6.1, DD-3.11, C-19)."""
    el = g.state.elements[stand.element]
    stand.alive = False
    stand.hits = max(stand.hits, g.book.stands[stand.type].hits)
    tok = Token(f"cas_{stand.id}", "allied" if stand.side == "allied" else "insurgent", stand.x, stand.y,
                "wounded" if stand.side == "allied" else "communist")
    g.state.tokens.append(tok)
    g.emit({"type": "casualty", "stand": stand.id, "element": el.id, "token": tok.id, "state": tok.state,
            "x": stand.x, "y": stand.y, "clause": clause,
            "text": f"{stand.id} {why}: a casualty token marks the spot"}, visible="all")
    if not g.state.living(el):
        g.emit({"type": "eliminated", "element": el.id, "clause": clause,
                "text": f"{el.name} is eliminated"}, visible="all")
        el.overwatch = None


def after_hits_morale(g: Game, out: Outcome, clause: str) -> None:
    """DD-5.19: every unit that took a hit in the attack, saved or not, tests Morale; a fail pins it
    (or retreats it 3" if already pinned, DD-5.21)."""
    from game.rules.morale import test_or_pin

    for eid in sorted(out.hit_elements):
        el = g.state.elements[eid]
        if not g.state.living(el):
            out.eliminated.append(eid)
            continue
        if el.kind == "vehicle":
            continue  # a hull's hits are the armour rules' (G-04 procedure 1): no Pinning test
        if test_or_pin(g, el, "under fire", f"DD-5.19; {clause}"):
            out.passed.append(eid)
        else:
            out.pinned.append(eid)


def tree_sniper_falls(g: Game, el: Element, clause: str) -> None:
    """DD-4.42: a tree sniper that is suppressed (Pinned) falls and is eliminated."""
    for st in g.state.living(el):
        if in_tree(g, st):
            remove_stand(g, st, "is suppressed and falls from the tree (DD-4.42)", f"{clause}; DD-4.42")


# -- grazing fire and the beaten zone ---------------------------------------------------------------
def corridor(g: Game, a: Stand, b: Stand):
    return shapes.buffer(shapes.segment(a.x, a.y, b.x, b.y), combat().grazing.width / 2.0, flat=True)


def plan_grazing(g: Game, el: Element, target_id: Any) -> Attack:
    """Grazing Fire (DD-5.26, G-34): aimed fire by an MG over open ground or paddy; every other stand,
    friend or foe, whose base touches the 1" corridor takes 1 hit (normal save) and a Pinning test."""
    gz = combat().grazing
    mgs = [s for s in g.state.living(el) if g.book.stands[s.type].role in gz.roles]
    if not mgs:
        raise IllegalAction(f"{el.name} has no M60/RPD/DShK-class machine gun", "DD-5.26")
    refuse_wet_weapons(g, el, mgs, "its machine gun")
    if el.low_ammo:
        raise IllegalAction(f"{el.name} is Low on Ammo: no Grazing Fire until resupplied", "G-32; DD-4.26")
    attack = plan_fire(g, el, target_id, Context("grazing", "DD-5.26; G-34"), shooters=mgs)
    barrel = mgs[0]
    tgt = g.state.stands[attack.target]
    lane = corridor(g, barrel, tgt)
    bad = [t.id for t in g.table.terrain_along(lane) if t.id not in gz.terrain]
    if bad:
        raise IllegalAction(f"Grazing Fire needs flat open ground or paddy; the corridor crosses {', '.join(bad)}",
                            "DD-5.26; G-34")
    others = [
        s for s in g.state.stands.values()
        if s.alive and s.id not in (barrel.id, tgt.id) and not g.state.elements[s.element].hidden
        and s.element != el.id and base_of(g.book, s).intersects(lane)
    ]
    if others:
        ctx = Context("grazing", "DD-5.26; G-34", allocation="nearest")
        for s in sorted(others, key=lambda s: s.id):
            model = build_model(g, [s], mgs, ctx)
            attack.extra.append(Attack(el.side, el.id, ctx, [], model, s.id, f"grazing fire sweeps {s.id}",
                                       auto_hits=gz.hits))
    attack.label = f"{el.name} lays grazing fire on {g.state.elements[tgt.element].name}"
    return attack


def plan_beaten_zone(g: Game, el: Element, point: Any):
    """Area Suppression (DD-5.27, G-34): a 3" circle within range; 3 FP dice at 4+ with no cover
    modifier; hits to stands in the zone nearest the firer first, saves by cover; every unit inside
    tests pinning, even with no hits (a hidden one in secret). A pooled, non-explosive template
    (``game.rules.template``); returns its plan."""
    from game.rules import template

    bz = combat().beaten_zone
    mgs = [s for s in g.state.living(el) if g.book.stands[s.type].role in bz.roles]
    if not mgs:
        raise IllegalAction(f"{el.name} has no machine-gun team", "DD-5.27")
    refuse_wet_weapons(g, el, mgs, "its machine gun")
    if el.low_ammo:
        raise IllegalAction(f"{el.name} is Low on Ammo: no Area Suppression until resupplied", "G-32; DD-4.26")
    if (not isinstance(point, (list, tuple)) or len(point) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in point)):
        raise IllegalAction("'at' must be the zone's centre [x, y]", "DD-5.27")
    gun = mgs[0]
    reach = q(base_of(g.book, gun).distance(shapes.point(float(point[0]), float(point[1]))))
    if reach > g.book.stands[gun.type].range:
        raise IllegalAction(f"the zone's centre is {reach:.2f}\" away, beyond the gun's "
                            f"{g.book.stands[gun.type].range:g}\"", "DD-5.27; G-26")
    zone = template.circle(point[0], point[1], bz.diameter / 2.0, kind="beaten_zone", fp=bz.fp, per_stand=False,
                           cover_to_hit=False, look_out_sir=False, clause=bz.clause, name="beaten zone")
    return template.plan(g, zone, firer=el, shooters=[gun], exclude=(el.id,), label=f"{el.name} hoses a beaten zone")


def resolve_beaten_zone(g: Game, plan: Any) -> Outcome:
    """Roll a checked beaten zone (:func:`plan_beaten_zone`) through ``template.attack``."""
    from game.rules import template

    return template.attack(g, plan)


# -- actions ----------------------------------------------------------------------------------------
def _target_param(choices: list[Stand], doc: str) -> Offer:
    """An offer's ``target`` parameter, read-only as made (``game.rules.offers``)."""
    return Offer({"target": Offer({"kind": "stand", "choices": Items([t.id for t in choices]), "doc": doc})})


class AimedFire(ActionKind):
    """Aimed Fire (DD-2.11): the full FP pool at a Confirmed target in LOS and range."""

    type = "fire"
    is_move = False

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        targets = legal_targets(g, el, g.state.living(el))
        if not targets:
            return []
        return [{"type": self.type, **common, "clause": "DD-2.11; DD-5.1",
                 "label": f"{el.name}: Aimed Fire ({price})",
                 "params": _target_param(targets, "an enemy stand: the closest visible (DD-5.28), or any for a "
                                                   "sniper (DD-5.29)")}]

    def check(self, g: Game, el: Element, action: dict) -> Attack:
        return plan_fire(g, el, action.get("target"), Context("aimed", "DD-2.11; DD-5.1"))

    def resolve(self, g: Game, el: Element, action: dict, plan: Attack) -> None:
        from game.rules.reactions import clear_overwatch

        clear_overwatch(g, el, "it activates again", "G-32")
        resolve_attack(g, plan)


_ANY_FACING = freeze({"kind": "angle", "optional": True})
_ANY_PLACEMENTS = freeze({"kind": "placements", "optional": True})
"""Fire & Maneuver's parameters that are the same in every offer (read-only)."""


class FireAndManeuver(ActionKind):
    """Fire & Maneuver (DD-2.12): move up to 4", then fire half the pool, rounded up."""

    type = "fire_maneuver"
    is_move = True

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        from game.rules.movement import base_allowance, centre

        foes = enemy_stands(g, el.side)
        if not foes:
            return []
        cx, cy = centre(g.state.living(el))
        reach = base_allowance(g, el, "fire_maneuver")
        return [{"type": self.type, **common, "clause": "DD-2.12",
                 "label": f"{el.name}: Fire & Maneuver, up to {reach:g}\" then half FP ({price})",
                 "params": Offer({
                     "to": Offer({"kind": "point", "max": reach, "from": Items([round(cx, 3), round(cy, 3)]),
                                  "doc": "the element's new centre"}),
                     "facing": _ANY_FACING, "stands": _ANY_PLACEMENTS,
                     **_target_param(foes, "an enemy stand, checked from the new position (DD-5.28)"),
                 })}]

    def check(self, g: Game, el: Element, action: dict):
        from game.rules.movement import plan_move

        plan = plan_move(g, el, "fire_maneuver", action)
        moved = [Stand(**{**s.__dict__, "x": plan.moves[s.id][0], "y": plan.moves[s.id][1],
                          "facing": plan.moves[s.id][2]}) for s in g.state.living(el)]
        attack = plan_fire(g, el, action.get("target"), Context("fire_maneuver", "DD-2.12; DD-5.1"),
                           shooters=moved, halve=True)
        return plan, attack

    def resolve(self, g: Game, el: Element, action: dict, plan) -> None:
        from game.rules.movement import apply_move
        from game.rules.reactions import clear_overwatch

        clear_overwatch(g, el, "it activates again", "G-32")
        move, _ = plan
        apply_move(g, move)
        if move.halted == "activation_over" or not g.state.living(el):
            return
        try:
            attack = plan_fire(g, el, action.get("target"), Context("fire_maneuver", "DD-2.12; DD-5.1"), halve=True)
        except IllegalAction as exc:
            g.emit({"type": "note", "element": el.id, "clause": exc.clause,
                    "text": f"{el.name} cannot fire after moving: {exc.reason}"}, visible=g.visibility_of_element(el))
            return
        resolve_attack(g, attack)


class GrazingFire(ActionKind):
    """Grazing Fire (DD-5.26): MG aimed fire over open ground that sweeps its 1" corridor."""

    type = "grazing_fire"
    is_move = False

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        gz = combat().grazing
        mgs = [s for s in g.state.living(el) if g.book.stands[s.type].role in gz.roles]
        if not mgs or el.low_ammo:
            return []
        targets = legal_targets(g, el, mgs)
        if not targets:
            return []
        return [{"type": self.type, **common, "clause": "DD-5.26; G-34",
                 "label": f"{el.name}: Grazing Fire ({price})",
                 "params": _target_param(targets, "the closest visible enemy stand; the 1\" corridor to it "
                                                   "must cross only open ground or paddy")}]

    def check(self, g: Game, el: Element, action: dict) -> Attack:
        return plan_grazing(g, el, action.get("target"))

    def resolve(self, g: Game, el: Element, action: dict, plan: Attack) -> None:
        from game.rules.reactions import clear_overwatch

        clear_overwatch(g, el, "it activates again", "G-32")
        tgt = g.state.stands[plan.target]
        gun = g.state.stands[plan.groups[0].stands[0]]
        g.emit({"type": "template", "kind": "grazing_corridor", "element": el.id,
                "from": [gun.x, gun.y], "to": [tgt.x, tgt.y], "width": combat().grazing.width,
                "clause": "DD-5.26; G-25", "text": "Grazing fire: a 1\" corridor from barrel to target"})
        resolve_attack(g, plan)
        if "village" in g.state.chapters:  # civilians in the corridor take 1 hit (G-39; game.rules.village)
            from game.rules.village import grazed

            grazed(g, el, corridor(g, gun, tgt))


class AreaSuppression(ActionKind):
    """Area Suppression (DD-5.27): the beaten zone."""

    type = "area_fire"
    is_move = False

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        bz = combat().beaten_zone
        mgs = [s for s in g.state.living(el) if g.book.stands[s.type].role in bz.roles]
        if not mgs or el.low_ammo or all(wet_heavy_weapon(g, s) for s in mgs):  # DD-3.18
            return []
        return [{"type": self.type, **common, "clause": "DD-5.27; G-34",
                 "label": f"{el.name}: Area Suppression, 3\" beaten zone ({price})",
                 "params": {"at": {"kind": "point", "max": g.book.stands[mgs[0].type].range,
                                   "from": [mgs[0].x, mgs[0].y], "radius": bz.diameter / 2.0,
                                   "doc": f"centre of the {bz.diameter:g}\" circle"}}}]

    def check(self, g: Game, el: Element, action: dict) -> Attack:
        return plan_beaten_zone(g, el, action.get("at"))

    def resolve(self, g: Game, el: Element, action: dict, plan: Attack) -> None:
        from game.rules.reactions import clear_overwatch

        clear_overwatch(g, el, "it activates again", "G-32")
        resolve_beaten_zone(g, plan)


for _kind in (AimedFire(), FireAndManeuver(), GrazingFire(), AreaSuppression()):
    register(_kind)
