"""The village's civilians and its tiers (G-39, G-13; DD-9B.9, DD-9B.11, DD-4.28, C-03, DD-2.25–2.26): the
half of chapter ``village`` (``game.rules.village``) that rolls dice.

* **Civilians under fire** (G-39): a civilian is hit only by a template (:func:`under_template`, called by
  ``template.attack``: it takes the template's FP as a Small 1-HP stand, the template's cover rule and
  saves), by grazing fire (:func:`grazed`, called by ``fire.GrazingFire``: 1 hit, normal save, DD-5.26) and
  by Recon by Fire result 1 (detection's incident asks :func:`nearest_civilian` and :func:`fire_at`). Each
  roll is a ``roll`` event naming the ``civilian``. A casualty (``civilian_hit``): Drift -3 (Recon by Fire,
  DD-9B.11: detection moves it, C-03), -2 (artillery, mortar, napalm; G-39 "this includes the near-village
  rule": when the same fire lands within 6" of the village, DD-9B.9's -2 is that penalty and is not paid
  twice), -1 otherwise.
* **Tier effects** (G-13), each Tension Phase after the tier is read (search.py, order 35): Hostile +1
  Ambush Token, Friendly -1 (never below 1; a Jungle Ghost holds none, G-29); Cooperative's once-a-game tip;
  Friendly's reveal. Hot Sectors: the ``hot_sector`` side action.
* **End-game VP** (G-13) through the chapter's ``score``.

Engine reading for the Friendly reveal ("one random hidden booby trap or tunnel entrance within 12""): 1d6
(a ``roll`` event) picks the hootch the villagers come from (die mod the number of hootches) and, odd or
even, whether they name a trap or an entrance first; the first one found within 12" of a hootch, from that
hootch on, is revealed (``booby_traps.reveal_near``, ``tunnels.reveal_near``).

What it leaves out: civilians in a beaten zone roll the zone's pool on their own (not from the stands' pool).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shapely.geometry import Point

from game.rules import fire
from game.rules.dice import Modifier, succeeds
from game.rules.dice import need as need_of
from game.rules.errors import IllegalAction
from game.rules.game import SideActionKind, register_side
from game.rules.village import (
    Civilian,
    _optional,
    active,
    civilian_shape,
    civilians,
    drift,
    hootches,
    near,
    rubble,
    rules,
    setup,
    tier,
    vstate,
)

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.rules.state import Element
    from game.rules.template import Template


# -- rolling at a civilian ---------------------------------------------------------------------------------
def cover_at(g: Game, x: float, y: float) -> Any:
    """The terrain that covers a civilian at (x, y): the best at the point, rubble for a burned hootch."""
    from game.world.tablemap import COVER_ORDER

    ground, overlays = [], []
    for h in g.table.features_at(x, y):
        t = g.book.terrain["rubble"] if rubble(g, h.feature.id) else h.terrain
        (overlays if t.overlay else ground).append(t)
    found = [ground[-1] if ground else g.table.open, *overlays]
    return max(found, key=lambda t: (COVER_ORDER[t.cover], -t.save, -t.to_hit))


def fire_at(g: Game, civ: Civilian, dice: int, side: str, firer: str | None, label: str, clause: str, *,
            cover_to_hit: bool = True, save_override: Any = None, auto_hits: int = 0, visible: str = "all") -> bool:
    """Roll ``dice`` FP at a civilian as at a Small 1-HP stand (G-39): to hit 4+ with its cover (DD-5.4), then a
    save per hit (DD-5.6, the weapon's own save rule) until one fails. True: a casualty (the caller moves the
    track)."""
    f = fire.combat().fire
    cover = cover_at(g, civ.x, civ.y)
    mods = [Modifier(f"civilians in {cover.name}", cover.to_hit, "DD-5.4; G-39")] if cover_to_hit and cover.to_hit else []
    needed = need_of(f.to_hit, mods)
    hits = auto_hits
    if dice:
        rolled = g.dice.roll(dice)
        n = sum(1 for d in rolled if succeeds(d, needed))
        hits += n
        g.emit({"type": "roll", "purpose": "to hit", "side": side, "element": firer, "civilian": civ.id,
                "dice": rolled, "target": f.to_hit, "modifiers": [m.to_dict() for m in mods], "need": needed,
                "result": n, "clause": f"{clause}; G-39; DD-5.3",
                "text": f"{label} on civilians {civ.id}: {dice} FP dice, needs {needed}+; rolled {rolled}: {n} hit(s)"},
               visible=visible)
    own = save_override.need(cover) if save_override is not None else None
    save, why = own if own is not None else (cover.save, f"{cover.name} (DD-5.6)")
    for _ in range(hits):
        if save is None:
            return True
        die = g.dice.d6()
        ok = succeeds(die, save)
        g.emit({"type": "roll", "purpose": "save", "side": side, "element": None, "civilian": civ.id, "dice": [die],
                "target": save, "modifiers": [], "need": save, "result": "pass" if ok else "fail",
                "clause": "DD-5.6; G-39",
                "text": f"civilians {civ.id} save on {save}+ ({why}): rolled {die}, {'saved' if ok else 'not saved'}"},
               visible=visible)
        if not ok:
            return True
    return False


def casualty(g: Game, civ: Civilian, cause: str, clause: str, change: int | None) -> None:
    """A civilian casualty (G-39): the record stays as ``dead``; ``civilian_hit``; the track moves by ``change``
    (None: the caller moves it)."""
    civ.state = "dead"
    g.emit({"type": "civilian_hit", "civilian": civ.id, "x": civ.x, "y": civ.y, "cause": cause,
            "clause": f"{clause}; G-39", "text": f"Civilians at {civ.id} are hit ({cause.replace('_', ' ')})"})
    if change:
        drift(g, change, f"a civilian casualty ({cause.replace('_', ' ')})", f"{clause}; G-39")


def under_template(g: Game, tpl: Template, side: str) -> None:
    """``template.attack``: each living civilian the template touches takes its FP (G-39)."""
    if not active(g):
        return
    r = rules(g)
    heavy = tpl.kind in r.village.heavy
    for civ in civilians(g):
        if civ.state != "alive" or not tpl.touches(civilian_shape(g, civ)):
            continue
        if not fire_at(g, civ, tpl.fp, side, None, tpl.name, tpl.clause, cover_to_hit=tpl.cover_to_hit,
                       save_override=tpl.save_override, auto_hits=tpl.auto_hits):
            continue
        if heavy and near(g, tpl.x, tpl.y):  # G-39: DD-9B.9's -2 for this fire is the penalty (not twice)
            casualty(g, civ, tpl.kind, "DD-9B.9", None)
        else:
            casualty(g, civ, tpl.kind, "DD-9B.9" if heavy else "G-39",
                     r.civilians.drift_heavy if heavy else r.civilians.drift_other)


def grazed(g: Game, el: Element, lane: Any) -> None:
    """``fire.GrazingFire``: each living civilian whose base touches the 1" corridor takes 1 hit, normal save
    (DD-5.26, G-34, G-39): a casualty costs -1."""
    if not active(g):
        return
    gz = fire.combat().grazing
    for civ in civilians(g):
        if civ.state == "alive" and civilian_shape(g, civ).intersects(lane):
            if fire_at(g, civ, 0, el.side, el.id, "grazing fire", "DD-5.26; G-34", auto_hits=gz.hits):
                casualty(g, civ, "grazing_fire", "DD-5.26", rules(g).civilians.drift_other)


def nearest_civilian(g: Game, geom: Any, radius: float) -> tuple[float, Civilian] | None:
    """The nearest living civilian within ``radius`` of ``geom`` (DD-4.28: Recon by Fire's incident), or None."""
    found = sorted((round(civilian_shape(g, c).distance(geom), 3), c.id, c) for c in civilians(g) if c.state == "alive")
    found = [f for f in found if f[0] <= radius + 1e-9]
    return (found[0][0], found[0][2]) if found else None


# -- the tiers in play (G-13) ----------------------------------------------------------------------------------
def _points(g: Game) -> list[tuple[str, float, float]]:
    out = []
    for h in hootches(g):
        c = h.shape.representative_point() if h.feature.point is None else Point(h.feature.point)
        out.append((h.feature.id, round(c.x, 3), round(c.y, 3)))
    return out


def _tokens(g: Game, row: Any) -> None:
    if not row.tokens or g.state.solo is not None:  # G-29: the Jungle Ghost holds no Ambush Tokens
        return
    side = g.state.sides["insurgent"]
    before = side.ambush_tokens
    cap = g.book.turn.ambush_tokens_max
    after = min(cap, before + row.tokens) if row.tokens > 0 else max(min(before, 1), before + row.tokens)
    if after == before:
        return
    side.ambush_tokens = after
    g.emit({"type": "tokens", "side": "insurgent", "income": after - before, "tokens": after, "clause": row.clause,
            "text": f"The village is {row.id}: Insurgent Ambush Tokens {before} -> {after}"}, visible="insurgent")


def _reveal(g: Game, what: list[str], start: int, radius: float, why: str, clause: str) -> str | None:
    pts = _points(g)
    funcs = {"trap": _optional("game.rules.booby_traps", "reveal_near"),
             "tunnel": _optional("game.rules.tunnels", "reveal_near")}
    for k in range(len(pts)):
        _, x, y = pts[(start + k) % len(pts)]
        for kind in what:
            fn = funcs[kind]
            found = fn(g, x, y, radius, why, clause) if fn is not None else None
            if found is not None:
                return found
    return None


def tension(g: Game) -> None:
    """Phase 1, after search.py reads the tier (G-13): the tier's Ambush Tokens, tip and reveal."""
    vs = vstate(g)
    if vs is None or not _points(g):
        return
    row = tier(g)
    _tokens(g, row)
    name = setup(g).name
    if row.tip and not vs.tip_used:
        vs.tip_used = True  # once a game, found or not
        r = rules(g).tip
        found = _reveal(g, ["trap"], 0, r.radius, f"a villager of {name} points out a booby trap", r.clause)
        g.emit({"type": "note", "clause": r.clause, "text": f"{name} is Cooperative: a villager's tip"
                + ("" if found else ": no booby trap near the village")})
    if row.reveal:
        r = rules(g).reveal
        die = g.dice.d6()
        order = ["trap", "tunnel"] if die % 2 else ["tunnel", "trap"]
        g.emit({"type": "roll", "purpose": "villagers' tip", "side": "allied", "element": None, "dice": [die],
                "target": None, "modifiers": [], "need": None, "result": die, "clause": r.clause,
                "text": f"{name} is Friendly: rolled {die} for what the villagers point out"})
        _reveal(g, order, die - 1, r.radius, f"the villagers of {name} point it out", r.clause)


def score(g: Game) -> list[tuple[int, str]]:
    """The end-game VP of the tier in force (G-13), on the Allied score."""
    if vstate(g) is None:
        return []
    row = tier(g)
    return [(row.vp, f"{setup(g).name} is {row.id.capitalize()} {row.vp:+d} (G-13)")] if row.vp else []


# -- Hot Sectors (G-13 (1), DD-2.25–2.26) ------------------------------------------------------------------------
def hot_sectors(g: Game) -> list[dict]:
    """The Hot Sectors in force: in the Hostile tier, every unsearched village hootch (G-13), as an ambush
    point {id, x, y, kind: hot_sector} (DD-2.26 places the ambushers within 2" of it)."""
    from game.rules.search import searched

    if vstate(g) is None or not tier(g).hot_sectors:
        return []
    return [{"id": fid, "x": x, "y": y, "kind": "hot_sector"} for fid, x, y in _points(g)
            if not searched(g, fid) and not rubble(g, fid)]


def _triggered(g: Game, point: dict) -> bool:
    """DD-2.25: an Allied element that moved this turn is within 6" of the Hot Sector."""
    from game.rules.state import base_of

    reach = rules(g).hot_sector.trigger + 1e-9
    hit = next(h for h in hootches(g) if h.feature.id == point["id"])
    return any(el.side == "allied" and el.move_actions > 0 and g.state.on_table(el)
               and any(base_of(g.book, s).distance(hit.shape) <= reach for s in g.state.living(el))
               for el in g.state.elements.values())


def _reserves(g: Game) -> list[Element]:
    section_of = _optional("game.rules.tunnels", "section_of")
    return [el for el in g.state.elements.values() if el.side == "insurgent" and el.reserve and g.state.living(el)
            and (section_of is None or section_of(g, el.id) is None)]


class HotSector(SideActionKind):
    """A Hot Sector ambush (G-13 (1), DD-2.25–2.26): a human Insurgent spends 1 Ambush Token to deploy a
    Reserve Hand element into cover within 2" of an unsearched hootch while the village is Hostile and an Allied
    element that moved this turn is within 6" of it."""

    type = "hot_sector"

    def offers(self, g: Game, side: str) -> list[dict]:
        from game.rules.blinds import reserve_placement

        if side != "insurgent" or g.state.solo is not None or vstate(g) is None:
            return []
        hs = rules(g).hot_sector
        if g.state.sides[side].ambush_tokens < hs.tokens:
            return []
        points = [p for p in hot_sectors(g) if _triggered(g, p)]
        out = []
        for el in _reserves(g):
            ok = [p["id"] for p in points if reserve_placement(g, el, p) is not None]
            if ok:
                out.append({"type": self.type, "element": el.id, "cost": 0, "tokens": hs.tokens, "clause": hs.clause,
                            "label": f"Spring {el.name} at a Hot Sector ({hs.tokens} Ambush Token)",
                            "params": {"feature": {"kind": "feature", "choices": ok,
                                                   "doc": "an unsearched hootch of the Hostile village"}}})
        return out

    def check(self, g: Game, side: str, action: dict) -> tuple:
        from game.rules.blinds import reserve_placement

        hs = rules(g).hot_sector
        if side != "insurgent" or g.state.solo is not None:
            raise IllegalAction("Hot Sectors are a human Insurgent's ambush points", "DD-2.25; C-23")
        if vstate(g) is None or not tier(g).hot_sectors:
            raise IllegalAction("the village is not Hostile: it has no Hot Sectors", "G-13 (1)")
        eid = action.get("element")
        el = next((e for e in _reserves(g) if e.id == eid), None)
        if el is None:
            raise IllegalAction(f"no element {eid!r} in the Reserve Hand", "DD-4.8")
        if g.state.sides[side].ambush_tokens < hs.tokens:
            raise IllegalAction(f"a Hot Sector ambush costs {hs.tokens} Ambush Token", "DD-2.26")
        point = next((p for p in hot_sectors(g) if p["id"] == action.get("feature")), None)
        if point is None:
            raise IllegalAction(f"{action.get('feature')!r} is no unsearched hootch of the village", "G-13 (1)")
        if not _triggered(g, point):
            raise IllegalAction(f"no Allied element that moved this turn is within {hs.trigger:g}\" of "
                                f"{point['id']}", "DD-2.25")
        spots = reserve_placement(g, el, point)
        if spots is None:
            raise IllegalAction(f"no cover within 2\" of {point['id']} where {el.name} fits", "DD-2.26")
        return el, hs.tokens, point, spots

    def act(self, g: Game, side: str, action: dict) -> None:
        self.resolve(g, side, action, self.check(g, side, action))

    def resolve(self, g: Game, side: str, action: dict, plan: tuple) -> None:
        from game.rules.game import SIDE_ACTIONS

        SIDE_ACTIONS["spring_reserve"].resolve(g, side, action, plan)  # DD-2.26: as any reserve that springs


register_side(HotSector())
