"""One template attack: every explosive or area template of the game (DD-8.10, DD-5.9, DD-5.19, DD-5.27,
DD-8.9; G-19, G-25, G-34, G-37).

"Every stand the template touches, friend or foe, takes the listed FP with its own cover save and Look
Out, Sir! (DD-5.9), then Morale or Pinned (DD-8.10)." A :class:`Template` is a shape on the table (a
circle; an oval or a strip along a heading: napalm, a gunship's strafe, canister; a fan: the claymore)
and what it does: ``fp`` dice for **every** stand it touches (``per_stand``, DD-8.10), or one pool of
``fp`` dice for the whole template with hits given nearest the firer first (the beaten zone, G-34);
cover to hit or not (G-34: not in a beaten zone); the weapon's own save rule (G-19 napalm, G-25
claymore); Look Out, Sir! for every explosive template (G-25, last line), not for the beaten zone's MG
fire. Sizes come from combat.toml (``[[template]]``, G-25; ``[beaten_zone]``, DD-5.27).

The dice, modifiers, allocation, saves, Look Out, Sir!, damage and morale are those of
``game.rules.fire`` and ``game.rules.morale`` (``to_hit_modifiers``, ``save_need``, ``Model``,
``hit_step`` through ``allocate_and_save``, ``apply_damage``, ``test_or_pin``); the odds
(:func:`odds`, :func:`expected_hits`) run the same model through ``game.rules.odds``, so the preview is
exact for the attack the engine really rolls.

Fog (G-34, docs/fog.md): a stand of a hidden element (under a Blind) inside the template cannot be hit;
its element takes the pin test secretly (its events visible to its own side only). Reserve elements are
off the table and untouched.

Vehicles are not stands it hits: a hull under a template placed by :func:`attack` takes the template's
dice and AP through the armour rules (``armour.template_on_hulls``, G-04, G-05; infantry saves ignore
AP, DD-5.7). What it leaves out: scatter and drift are the calling chapter's (DD-8.8); the fire-support chapter's
assets and their FP (G-19) are its own rows, not here.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from shapely import affinity
from shapely.geometry import Point, Polygon, box

from game.rules import fire
from game.rules.data import DataError, one_of
from game.rules.dice import need as need_of
from game.rules.state import Element, Stand, base_of
from game.tables import load_rows

if TYPE_CHECKING:
    from game.rules.game import Game

SIDES = ("allied", "insurgent")
_SEGMENTS = 64
"""Quarter-circle segments of a drawn circle or oval (as the beaten zone always drew its circle)."""
SHAPES = ("circle", "oval", "strip", "fan")
COVER_FLAGS = ("all", "vegetation", "building", "water", "fortification")
_SIZES = {"circle": ("diameter",), "oval": ("length", "width"), "strip": ("length", "width"), "fan": ("length", "angle")}


# -- the G-25 sizes table (combat.toml [[template]]) -------------------------------------------------------
@dataclass(frozen=True)
class TemplateRow:
    """One template of the G-25 sizes table: its shape, its size, the weapon's own save rule if the
    gap gives one, and the clauses whose blasts put it down."""

    id: str
    clause: str
    name: str
    shape: str = field(metadata=one_of(SHAPES))
    diameter: float = 0.0
    """circle"""
    length: float = 0.0
    """oval and strip along the heading; fan from its apex"""
    width: float = 0.0
    """oval and strip"""
    angle: float = 0.0
    """fan: the spread, degrees"""
    strip: list[str] = field(default_factory=list, metadata=one_of(COVER_FLAGS))
    """Cover whose save the weapon ignores (G-19, G-25): terrain flags, or ``all``."""
    stripped_save: int = 6
    """The save in stripped cover (0: none at all)."""
    fortified_save: int = 0
    """The save in fortifications under it (0: their own)."""
    used_by: list[str] = field(default_factory=list)
    """Clauses whose blasts put down this template (G-25's "Used by" column; :func:`for_clause`)."""


def template_rows(doc: dict[str, Any]) -> dict[str, TemplateRow]:
    """Build combat.toml's ``[[template]]`` rows strictly (``fire.load_combat`` calls it): known keys, a
    clause each, no id twice, and the sizes each shape needs."""
    rows = load_rows("combat.toml", "template", TemplateRow, doc)
    for i, row in enumerate(rows.values()):
        for key in _SIZES[row.shape]:
            if getattr(row, key) <= 0:
                raise DataError("combat.toml", f"template[{i}] '{row.id}'", f"a {row.shape} needs {key} > 0")
    return rows


# -- the template --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Template:
    """A template on the table and what it does (DD-8.10, G-19, G-25, G-34)."""

    shape: str
    """circle | oval | strip | fan"""
    x: float
    y: float
    """The centre (circle, oval, strip) or the apex (fan)."""
    radius: float = 0.0
    heading: float = 0.0
    """Degrees, as stand facings: 0 along +x, 90 along +y (oval, strip, fan)."""
    length: float = 0.0
    width: float = 0.0
    angle: float = 0.0
    """A fan's spread, degrees."""
    kind: str = "artillery"
    """mortar | artillery | napalm | beaten_zone | booby_trap | ... (the event's ``kind``)"""
    fp: int = 0
    per_stand: bool = True
    """True: every stand touched takes ``fp`` dice (DD-8.10). False: one pool of ``fp`` dice, hits
    given nearest the firer (or the template's centre) first (the beaten zone, G-34)."""
    cover_to_hit: bool = True
    """False: no cover modifier to hit (the beaten zone, G-34)."""
    save_override: fire.SaveOverride | None = None
    """The weapon's own save rule (napalm: no vegetation or hootch saves, bunkers 5+; G-19)."""
    ap: int = 0
    auto_hits: int = 0
    """Hits that need no roll, per stand (per_stand) or for the pool."""
    look_out_sir: bool = True
    """An explosive template: a Small stand hit rolls Look Out, Sir! (DD-5.9, G-25)."""
    clause: str = "DD-8.10; G-19; G-25"
    name: str = "blast"

    @cached_property
    def polygon(self) -> Polygon:
        """The shape as a shapely polygon."""
        if self.shape == "circle":
            return Point(self.x, self.y).buffer(self.radius, _SEGMENTS)
        if self.shape == "fan":
            h, half = math.radians(self.heading), math.radians(self.angle) / 2.0
            arc = [(self.x + self.length * math.cos(h - half + 2 * half * k / 16),
                    self.y + self.length * math.sin(h - half + 2 * half * k / 16)) for k in range(17)]
            return Polygon([(self.x, self.y), *arc])
        if self.shape == "oval":
            unit = affinity.scale(Point(0.0, 0.0).buffer(1.0, _SEGMENTS), self.length / 2.0, self.width / 2.0)
        elif self.shape == "strip":
            unit = box(-self.length / 2.0, -self.width / 2.0, self.length / 2.0, self.width / 2.0)
        else:
            raise ValueError(f"unknown template shape {self.shape!r}")
        return affinity.translate(affinity.rotate(unit, self.heading, origin=(0.0, 0.0)), self.x, self.y)

    def gap(self, geom: Any) -> float:
        """Distance from the template's edge to a base, quantised (0 when they touch; DESIGN §3)."""
        if self.shape == "circle":
            return fire.q(max(0.0, geom.distance(Point(self.x, self.y)) - self.radius))
        return fire.q(geom.distance(self.polygon))

    def touches(self, geom: Any) -> bool:
        return self.gap(geom) <= 0.0

    def to_event(self) -> dict:
        """The geometry for the ``template`` event (its fields in game/data/contract.toml): the centre
        (a fan's apex) and the ``radius`` of a circle, or the heading (``facing``), ``length``, ``width``
        (an oval or strip) and the outline's ``points`` [[x, y], ...] of any other shape."""
        ev: dict[str, Any] = {"x": self.x, "y": self.y}
        if self.shape == "circle":
            return {**ev, "radius": self.radius}
        ev.update(facing=self.heading, length=self.length)
        if self.shape != "fan":
            ev["width"] = self.width
        ev["points"] = [[round(px, 3), round(py, 3)] for px, py in list(self.polygon.exterior.coords)[:-1]]
        return ev

    def describe(self) -> str:
        if self.shape == "circle":
            size = f"a {2 * self.radius:g}\" circle"
        elif self.shape == "fan":
            size = f"a {self.length:g}\" {self.angle:g}° fan toward {self.heading:g}°"
        else:
            size = f"a {self.width:g}\" x {self.length:g}\" {self.shape} along {self.heading:g}°"
        return f"{self.name[:1].upper()}{self.name[1:]}: {size} at ({self.x:g}, {self.y:g})"


def circle(x: float, y: float, radius: float, **what: Any) -> Template:
    return Template("circle", float(x), float(y), radius=float(radius), **what)


def oval(x: float, y: float, heading: float, length: float, width: float, **what: Any) -> Template:
    return Template("oval", float(x), float(y), heading=float(heading), length=float(length), width=float(width),
                    **what)


def strip(x: float, y: float, heading: float, length: float, width: float, **what: Any) -> Template:
    return Template("strip", float(x), float(y), heading=float(heading), length=float(length), width=float(width),
                    **what)


def fan(x: float, y: float, heading: float, length: float, angle: float, **what: Any) -> Template:
    return Template("fan", float(x), float(y), heading=float(heading), length=float(length), angle=float(angle),
                    **what)


def save_rule(row: TemplateRow) -> fire.SaveOverride | None:
    """A ``[[template]]`` row's own save rule (G-19, G-25), or None."""
    if not row.strip and not row.fortified_save:
        return None
    return fire.SaveOverride(tuple(row.strip), row.stripped_save or None, row.fortified_save or None, row.clause)


def from_table(template_id: str, x: float, y: float, heading: float = 0.0, **what: Any) -> Template:
    """A template of the G-25 sizes table (combat.toml ``[[template]]``) at a point, with its own save
    rule and name unless ``what`` gives others."""
    row = fire.combat().templates[template_id]
    what.setdefault("name", row.name)
    what.setdefault("save_override", save_rule(row))
    what.setdefault("clause", row.clause)
    if row.shape == "circle":
        return circle(x, y, row.diameter / 2.0, **what)
    if row.shape == "fan":
        return fan(x, y, heading, row.length, row.angle, **what)
    return (oval if row.shape == "oval" else strip)(x, y, heading, row.length, row.width, **what)


def for_clause(clause: str) -> TemplateRow | None:
    """The ``[[template]]`` row whose ``used_by`` names ``clause`` (G-25's "Used by" column)."""
    return next((row for row in fire.combat().templates.values() if clause in row.used_by), None)


# -- what it touches ---------------------------------------------------------------------------------------
def touched(g: Game, template: Template, sides: Iterable[str] = SIDES, *, exclude: Collection[str] = ()) -> list[Stand]:
    """The stands on the table whose base the template touches, by id: living, of ``sides``, not of an
    element in ``exclude`` (the firer's own) and not hidden (a stand under a Blind cannot be hit, G-34).

    Every stand it touches, not one (DD-1.9): stands bunched closer than a template's width are caught
    together; stands farther apart than its width never are, so with G-25's sizes the text's 1"-2"
    spacing keeps a Small (1") blast, and beyond 2" a mortar's Medium (2") blast, to one stand."""
    sides = tuple(sides)
    return sorted((s for s in g.state.stands.values()
                   if s.alive and s.side in sides and s.element not in exclude
                   and not g.state.elements[s.element].hidden and not g.book.stands[s.type].vehicle
                   and template.touches(base_of(g.book, s))),
                  key=lambda s: s.id)


def hidden_under(g: Game, template: Template, sides: Iterable[str] = SIDES, *,
                 exclude: Collection[str] = ()) -> list[str]:
    """The hidden elements (under a Blind, not in the Reserve Hand) with a stand inside the template:
    they take the pin test secretly (G-34)."""
    sides = tuple(sides)
    out = {s.element for s in g.state.stands.values()
           if s.alive and s.side in sides and s.element not in exclude
           and g.state.elements[s.element].hidden and not g.state.elements[s.element].reserve
           and template.touches(base_of(g.book, s))}
    return sorted(out)


# -- the plan: the attack checked and modelled, ready to roll or to preview ----------------------------
@dataclass
class Plan:
    template: Template
    side: str
    """The side whose weapon it is (it rolls the to-hit dice)."""
    firer: str | None
    model: fire.Model
    """Every stand touched (the eligible marks, by id), then their squad mates (Look Out, Sir!)."""
    pools: list[fire.Attack]
    """One per stand touched (per_stand), or the one pool; each shares the model's marks."""
    volley: fire.Attack
    """Every pool's dice as one attack (the muzzle flash, the ``fire`` event, the odds' summary)."""
    elements: list[str]
    """The elements on the table under the template."""
    hidden: list[str] = field(default_factory=list)
    """Hidden elements inside: pin test in secret (G-34)."""
    test_all: bool = True
    """True: every element under it tests Morale, hit or not (DD-8.10, DD-5.27). False: only those hit
    (DD-5.19; Danger Close, G-34)."""
    label: str = ""


def context(template: Template) -> fire.Context:
    """The fire context of a template (what the to-hit and save machinery asks)."""
    return fire.Context(template.kind, template.clause, cover_to_hit=template.cover_to_hit,
                        save_override=template.save_override, explosive=template.look_out_sir,
                        allocation="template" if template.per_stand else "nearest", point_blank=False,
                        morale=False)


def plan(g: Game, template: Template, *, side: str | None = None, firer: Element | None = None,
         shooters: Iterable[Stand] = (), sides: Iterable[str] = SIDES, exclude: Collection[str] = (),
         stands: list[Stand] | None = None, test_all: bool = True, label: str = "") -> Plan:
    """Model the attack: the stands under the template (or ``stands``), their to-hit modifiers (cover
    unless the template says not, the firer's Pinned state), saves, allocation and Look Out, Sir!.
    ``firer``/``shooters``: the element and stands that fire it (the beaten zone's gun), None for an
    off-board or hidden weapon, then ``side`` names its side."""
    if side is None:
        if firer is None:
            raise ValueError("a template attack needs its side or its firer")
        side = firer.side
    shooters = list(shooters)
    hit = sorted(stands, key=lambda s: s.id) if stands is not None else touched(g, template, sides, exclude=exclude)
    hidden = [] if stands is not None else hidden_under(g, template, sides, exclude=exclude)
    ids = {s.id for s in hit}
    mates = sorted((s for eid in sorted({s.element for s in hit}) for s in g.state.living(g.state.elements[eid])
                    if s.id not in ids), key=lambda s: s.id)
    ctx = context(template)
    model = fire.build_model(g, hit + mates, shooters, ctx)
    if not shooters:  # nearest the template's centre (or apex) first
        centre = Point(template.x, template.y)
        marks = [dataclasses.replace(m, dist=fire.q(base_of(g.book, s).distance(centre)))
                 for m, s in zip(model.marks, hit + mates, strict=True)]
        model = fire.Model(marks, ctx)
    eligible = tuple(range(len(hit)))
    model = fire.Model(model.marks, ctx, eligible=eligible)
    fid = firer.id if firer is not None else None
    gun = [s.id for s in shooters]
    pools: list[fire.Attack] = []
    if template.per_stand:
        for i, st in enumerate(hit):
            mods = fire.to_hit_modifiers(g, firer, None, st, ctx)
            groups = [fire.Group(gun, template.fp, mods, need_of(fire.combat().fire.to_hit, mods))] if template.fp else []
            pools.append(fire.Attack(side, fid, ctx, groups, fire.Model(model.marks, ctx, i, eligible), st.id,
                                     f"{template.name} on {st.id}", auto_hits=template.auto_hits))
    else:
        nearest = model.allocate(tuple(0 for _ in model.marks))
        mods = fire.to_hit_modifiers(g, firer, None, hit[nearest] if nearest is not None else None, ctx)
        groups = [fire.Group(gun, template.fp, mods, need_of(fire.combat().fire.to_hit, mods))] if template.fp else []
        pools.append(fire.Attack(side, fid, ctx, groups, model, None, label or template.name,
                                 auto_hits=template.auto_hits))
    volley = fire.Attack(side, fid, ctx, [gr for pool in pools for gr in pool.groups] or [fire.Group(gun, 0, [], 0)],
                         model, None, label or template.name, auto_hits=sum(pool.auto_hits for pool in pools))
    return Plan(template, side, fid, model, pools, volley, sorted({s.element for s in hit}), hidden, test_all,
                label or template.name)


# -- rolling it ---------------------------------------------------------------------------------------------
def attack(g: Game, what: Template | Plan, **how: Any) -> fire.Outcome:
    """Put the template down and resolve it: the ``template`` event, then :func:`resolve`. ``what``: a
    template (``how`` as :func:`plan`) or a checked plan."""
    p = what if isinstance(what, Plan) else plan(g, what, **how)
    t = p.template
    g.emit({"type": "template", "kind": t.kind, "element": p.firer, **t.to_event(), "clause": t.clause,
            "text": t.describe()})
    out = resolve(g, p)
    if "village" in g.state.chapters:  # civilians under the template take its FP (G-39; game.rules.village)
        from game.rules.village import under_template

        under_template(g, t, p.side)
    if "vehicles" in g.state.chapters:  # a hull under the template takes its AP (G-04, G-05; game.rules.armour)
        from game.rules.armour import template_on_hulls

        template_on_hulls(g, t, p.side)
    return out


def resolve(g: Game, p: Plan, visible: str = "all") -> fire.Outcome:
    """Roll every pool (to hit, allocation, Look Out, Sir!, saves; one damage state for the whole
    attack), apply the damage, then Morale: every element under the template that survives tests, or
    is Pinned (DD-8.10, DD-5.27; a hidden one in secret, G-34); with ``test_all`` False, each element
    hit (DD-5.19)."""
    from game.rules.detection import on_fire
    from game.rules.morale import test_or_pin

    t, ctx = p.template, p.volley.ctx
    out = fire.Outcome()
    if p.firer is not None:
        on_fire(g, p.volley)  # DD-4.39-4.40: muzzle flash reveals the firer; night muzzle bloom
        g.emit({"type": "fire", "kind": ctx.kind, "side": p.side, "element": p.firer, "target": None,
                "target_element": None, "dice": p.volley.dice, "clause": ctx.clause, "text": p.label},
               visible=visible)
    elif not p.pools:
        g.emit({"type": "note", "clause": t.clause, "text": f"{t.name}: no stand under the template"},
               visible=visible)
    dmg = tuple(0 for _ in p.model.marks)
    hit_els: list[str] = []
    for pool in p.pools:
        hits = fire.roll_hits(g, pool, visible)
        out.hits += hits
        dmg, els = fire.allocate_and_save(g, pool, hits, visible, out, dmg)
        hit_els.extend(e for e in els if e not in hit_els)
    fire.apply_damage(g, p.model, dmg, out, ctx.clause)
    out.hit_elements = sorted(set(hit_els))
    if p.firer is not None:
        g.state.elements[p.firer].conceal = False  # G-32: Hold/Conceal is lost when the unit fires
    if not p.test_all:
        fire.after_hits_morale(g, out, ctx.clause)
        return out
    for eid in sorted(set(p.elements) | set(p.hidden)):
        el = g.state.elements[eid]
        if not g.state.living(el):
            out.eliminated.append(eid)
            continue
        # G-34: a hidden element tests in secret: morale.test_or_pin shows its events to its side only
        ok = test_or_pin(g, el, t.name + (", hidden" if el.hidden else ""), t.clause)
        (out.passed if ok else out.pinned).append(eid)
    return out


def danger_close(g: Game, template: Template, friendly_side: str, *, firer: Element | None = None,
                 shooters: Iterable[Stand] = (), reach: float | None = None) -> fire.Outcome:
    """Danger Close (DD-8.9, G-34): the ``friendly_side`` stands on the table within 4" of the
    template's final edge but not under it each take 1 FP die, normal to-hit (cover) and save; any hit
    means a Pinning test (DD-5.19). Look Out, Sir! as the template's own (an explosive's fragments).
    For the fire-support chapter to call after the drift (DD-8.8); ``reach``: its own distance, by
    default combat.toml's ``[danger_close]``."""
    dc = fire.combat().danger_close
    p = danger_close_plan(g, template, friendly_side, firer=firer, shooters=shooters, reach=reach)
    if p is None:
        return fire.Outcome()
    near = [pool.target for pool in p.pools]
    g.emit({"type": "note", "elements": sorted({g.state.stands[s].element for s in near}), "clause": dc.clause,
            "text": f"Danger Close: {len(near)} friendly stand(s) within "
                    f"{dc.reach if reach is None else reach:g}\" of the {template.name}"})
    return resolve(g, p)


def danger_close_plan(g: Game, template: Template, friendly_side: str, *, firer: Element | None = None,
                      shooters: Iterable[Stand] = (), reach: float | None = None) -> Plan | None:
    """The Danger Close attack (:func:`danger_close`) checked and modelled, to roll or to preview
    (:func:`odds`); None when no friendly stand is near."""
    dc = fire.combat().danger_close
    reach = dc.reach if reach is None else reach
    near = sorted((s for s in g.state.side_stands(friendly_side)
                   if 0.0 < template.gap(base_of(g.book, s)) <= reach), key=lambda s: s.id)
    if not near:
        return None
    near_t = dataclasses.replace(template, fp=dc.fp, auto_hits=0, per_stand=True, cover_to_hit=True,
                                 save_override=None, clause=f"{dc.clause}; {template.clause}",
                                 name=f"Danger Close ({template.name})")
    return plan(g, near_t, side=friendly_side, firer=firer, shooters=shooters, stands=near, test_all=False)


# -- the odds (DESIGN §4) -----------------------------------------------------------------------------------
def odds(g: Game, what: Template | Plan, **how: Any) -> dict:
    """The exact outcome of the attack, without rolling: the ``game.rules.odds`` summary (hits, rings,
    stands lost, each stand's chance of a hit, a ring, removal, each element's chance of being Pinned)
    over the real model, every pool chained on one damage state; each stand also carries
    ``expected_hits`` (the hits rolled at it, per_stand; or given to it by the pool's allocation; both
    before Look Out, Sir! and saves) and ``expected_damage`` (unsaved hits it takes)."""
    from game.rules import odds as O

    p = what if isinstance(what, Plan) else plan(g, what, **how)
    n = len(p.model.marks)
    given = [0.0] * n
    dmg: dict[tuple[int, ...], float] = {tuple(0 for _ in range(n)): 1.0}
    for pool in p.pools:
        hits = [0.0] * pool.auto_hits + O.hit_distribution(pool.groups)
        if p.template.per_stand:  # the hits rolled at this stand
            given[pool.model.chosen] += sum(k * pk for k, pk in enumerate(hits))
        dmg = O.damage_distribution(pool.model, hits, start=dmg, given=None if p.template.per_stand else given)
    total = [0.0] * p.volley.auto_hits + O.hit_distribution([gr for pool in p.pools for gr in pool.groups])
    res = O._summary(g, p.volley, total, dmg, p.elements if p.test_all else None)
    res["expected_hits"] = sum(k * pk for k, pk in enumerate(total))
    if not any(pool.groups for pool in p.pools):
        res["groups"] = []
    eligible = set(p.model.eligible or ())
    for i, m in enumerate(p.model.marks):
        row = res["stands"][m.id]
        row["expected_hits"] = given[i]
        row["expected_damage"] = sum(d[i] * pd for d, pd in dmg.items())
        if i not in eligible and not row["p_hit"] and not given[i]:
            del res["stands"][m.id]  # a squad mate outside that no hit can reach
    res["template"] = {"kind": p.template.kind, "shape": p.template.shape, **p.template.to_event()}
    return res


def expected_hits(g: Game, what: Template | Plan, **how: Any) -> dict[str, dict]:
    """Per stand in reach: expected hits at it, expected unsaved hits, P(ring), P(removed) (:func:`odds`)."""
    return {sid: {k: row[k] for k in ("element", "expected_hits", "expected_damage", "p_hit", "p_ring", "p_removed",
                                      "save")}
            for sid, row in odds(g, what, **how)["stands"].items()}
