"""Close assault and the special weapons of chapter 5 (DD-5.22, DD-5.30–5.36; C-12; G-25, G-34).

Close Assault (DD-5.22, G-34) is a movement action: a Patrol-speed move that ends within 2" of a
Confirmed enemy; Pinned elements cannot assault. (1) A defender that is not Pinned fires one
reaction volley (normal fire, with its Morale test). The assault then goes in whatever the volley did,
as the clause's three steps run in order: an attacker Pinned by the volley still fights the melee (it
has already closed); only an attacker the volley wipes out never reaches it. (2) Both sides roll their current FP (ringed stands halved) at 4+ with no modifiers and no
saves, at the same time. (3) "Casualties" are hits taken: the side that took more falls back 4"
Pinned, a tie goes against the attacker; a loser that cannot fall back 4" to ground more than 2"
from every enemy stand without crossing an enemy base or impassable terrain is surrounded and
eliminated, each stand becoming a casualty token.

Frag grenades (DD-5.30), satchel charges against bunkers (DD-5.31–5.32, C-12), mouseholing through
masonry and the indoor surprise (DD-5.35–5.36), and the recoilless backblast with its dust screen
(DD-5.33–5.34) are actions here too.

What it leaves out: the dust-screen Sprint of another element (G-34; the impulse structure gives no
free activation), flamethrowers, vehicles in assaults.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from shapely.affinity import rotate
from shapely.geometry import Polygon
from shapely.ops import unary_union

from game.rules import fire
from game.rules.dice import Modifier, resolve_test
from game.rules.dice import need as need_of
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.memo import table_memo
from game.rules.state import Element, Stand, base_of, bounds_of
from game.world import shapes
from game.world.features import apart_by

if TYPE_CHECKING:
    from game.rules.game import Game


# -- close assault ------------------------------------------------------------------------------------
def _target_element(g: Game, el: Element, target: Any) -> Element:
    st = g.state.stands.get(target) if isinstance(target, str) else None
    if st is None or st.side == el.side or not st.alive or not g.knows_stand(el.side, st):
        # DESIGN §6: a hidden stand and an id that names nothing get the same words and clause.
        raise IllegalAction(f"no Confirmed enemy stand {target!r} on the table", "DD-5.22; G-34")
    return g.state.elements[st.element]


def melee_pool(g: Game, el: Element) -> list[fire.Group]:
    """Step 2 (DD-5.22, G-34): each stand's current FP, 4+, no modifiers."""
    n = sum(fire.stand_fp(g, s) for s in g.state.living(el))
    return [fire.Group([s.id for s in g.state.living(el)], n, [], fire.combat().fire.to_hit)] if n else []


def melee_context() -> fire.Context:
    """Close assault (DD-5.22): 4+, no modifiers, no saves; the fall-back replaces the pin test."""
    return fire.Context("assault", "DD-5.22; G-34", cover_to_hit=False, saves=False, point_blank=False,
                        morale=False)


def close_assault(g: Game, attacker: Element, defender: Element, surprise: bool = False) -> dict:
    """DD-5.22 (1)–(3), DD-5.36 (``surprise``: no defensive volley)."""
    res: dict = {"stalled": False, "loser": None}
    if not surprise and not defender.pinned:
        try:
            near = min(g.state.living(attacker), key=lambda s: min(fire.gap(g, s, d) for d in g.state.living(defender)))
            volley = fire.plan_fire(g, defender, near.id, fire.Context("assault_volley", "DD-5.22 (1)"),
                                    check_target=False)
            volley.label = f"{defender.name}: defensive volley at {attacker.name}"
            fire.resolve_attack(g, volley)
        except IllegalAction as exc:
            g.emit({"type": "note", "element": defender.id, "clause": exc.clause,
                    "text": f"{defender.name} cannot fire a defensive volley: {exc.reason}"})
    elif surprise:
        g.emit({"type": "note", "element": defender.id, "clause": "DD-5.36",
                "text": f"{defender.name} is caught by surprise: no defensive fire"})
    if not g.state.living(attacker):
        res["stalled"] = True
        g.emit({"type": "note", "element": attacker.id, "clause": "DD-5.22 (1)",
                "text": f"{attacker.name} is cut down by the defensive volley before it reaches {defender.name}"})
        return res
    if attacker.pinned:
        g.emit({"type": "note", "element": attacker.id, "clause": "DD-5.22 (2)",
                "text": f"{attacker.name} is pinned by the volley, but it has closed: the melee goes on"})
    # (2) simultaneous: both pools are rolled before any result is applied.
    melee = melee_context()
    a_att = fire.Attack(attacker.side, attacker.id, melee, melee_pool(g, attacker),
                        fire.build_model(g, g.state.living(defender), g.state.living(attacker), melee), None,
                        f"{attacker.name} assaults {defender.name}")
    d_att = fire.Attack(defender.side, defender.id, melee, melee_pool(g, defender),
                        fire.build_model(g, g.state.living(attacker), g.state.living(defender), melee), None,
                        f"{defender.name} fights back")
    g.emit({"type": "assault", "element": attacker.id, "target_element": defender.id, "clause": "DD-5.22",
            "text": f"Close assault: {attacker.name} against {defender.name}"})
    taken_d = fire.roll_hits(g, a_att)
    taken_a = fire.roll_hits(g, d_att)
    out = fire.Outcome()
    dmg_d, _ = fire.allocate_and_save(g, a_att, taken_d, "all", out)
    dmg_a, _ = fire.allocate_and_save(g, d_att, taken_a, "all", out)
    fire.apply_damage(g, a_att.model, dmg_d, out, "DD-5.22")
    fire.apply_damage(g, d_att.model, dmg_a, out, "DD-5.22")
    loser, winner = (attacker, defender) if taken_a >= taken_d else (defender, attacker)
    res["loser"] = loser.id
    g.emit({"type": "assault_result", "winner": winner.id, "loser": loser.id, "hits_on_attacker": taken_a,
            "hits_on_defender": taken_d, "clause": "DD-5.22 (3); G-34",
            "text": f"{attacker.name} takes {taken_a} hit(s), {defender.name} {taken_d}: {loser.name} loses"
            + (" (a tie goes against the attacker)" if taken_a == taken_d else "")})
    if g.state.living(loser):
        fall_back(g, loser, winner)
    return res


def fall_back(g: Game, loser: Element, winner: Element) -> None:
    """DD-5.22 (3), G-34: fall back 4" Pinned, or be eliminated if surrounded."""
    a = fire.combat().assault
    stands = g.state.living(loser)
    enemies = g.state.side_stands(winner.side)
    cx = sum(s.x for s in stands) / len(stands)
    cy = sum(s.y for s in stands) / len(stands)
    ex = sum(s.x for s in g.state.living(winner)) / max(1, len(g.state.living(winner)))
    ey = sum(s.y for s in g.state.living(winner)) / max(1, len(g.state.living(winner)))
    away = math.atan2(cy - ey, cx - ex)
    best = None
    for k in range(16):
        ang = away + (math.pi / 8) * ((k + 1) // 2) * (1 if k % 2 else -1)
        dx, dy = a.fall_back * math.cos(ang), a.fall_back * math.sin(ang)
        moved = {s.id: Stand(**{**s.__dict__, "x": round(s.x + dx, 4), "y": round(s.y + dy, 4)}) for s in stands}
        if not g.placement_ok(loser, moved):
            continue
        ok = True
        for s in stands:
            swept = unary_union([base_of(g.book, s), base_of(g.book, moved[s.id])]).convex_hull
            if any(t.move == "impassable" for t in g.table.terrain_along(swept)):
                ok = False
            for e in enemies:
                if shapes.overlap(swept, base_of(g.book, e)) > 1e-6 or fire.gap(g, moved[s.id], e) <= a.surround:
                    ok = False
        if ok:
            best = moved
            break
    if best is None:
        g.emit({"type": "surrounded", "element": loser.id, "clause": "DD-5.22; G-34",
                "text": f"{loser.name} is surrounded and eliminated"})
        for s in stands:
            fire.remove_stand(g, s, "is lost with its surrounded unit", "DD-5.22; G-34")
        return
    moves = []
    for s in stands:
        m = best[s.id]
        moves.append({"id": s.id, "from": [s.x, s.y, s.facing], "to": [m.x, m.y, s.facing]})
        s.x, s.y = m.x, m.y
    loser.pinned = True
    loser.conceal = False
    g.emit({"type": "retreat", "element": loser.id, "stands": moves, "clause": "DD-5.22 (3)",
            "text": f"{loser.name} falls back 4\" and is Pinned"}, visible=g.visibility_of_element(loser))


@table_memo(lambda el, reach: (el.id, reach))
def _within_reach(g: Game, el: Element, reach: float) -> list[Stand]:
    """Confirmed enemy stands within ``reach`` of a stand of the element, base edge to base edge."""
    return fire.within_reach(g, g.state.living(el), fire.enemy_stands(g, el.side), reach)


class Assault(ActionKind):
    """Close Assault (DD-5.22, G-34): a Patrol-speed move ending within 2" of a Confirmed enemy."""

    type = "assault"
    is_move = True

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        from game.rules.movement import base_allowance, centre

        if el.pinned:
            return []
        foes = _within_reach(g, el, base_allowance(g, el, "patrol") + fire.combat().assault.reach)
        if not foes:
            return []
        cx, cy = centre(g.state.living(el))
        return [{"type": self.type, **common, "clause": "DD-5.22; G-34",
                 "label": f"{el.name}: Close Assault ({price})",
                 "params": {"to": {"kind": "point", "max": base_allowance(g, el, "patrol"),
                                   "from": [round(cx, 3), round(cy, 3)], "doc": "the new centre, within 2\" of the enemy"},
                            "stands": {"kind": "placements", "optional": True},
                            "target": {"kind": "stand", "choices": [t.id for t in foes]}}}]

    def check(self, g: Game, el: Element, action: dict):
        from game.rules.movement import plan_move

        if el.pinned:
            raise IllegalAction(f"{el.name} is Pinned and cannot assault", "G-32; G-34")
        tel = _target_element(g, el, action.get("target"))
        plan = plan_move(g, el, "patrol", action)
        dests = [Stand(**{**s.__dict__, "x": plan.moves[s.id][0], "y": plan.moves[s.id][1]}) for s in g.state.living(el)]
        if not fire.within_reach(g, dests, g.state.living(tel), fire.combat().assault.reach):
            raise IllegalAction(f"the move must end within 2\" of {tel.name}", "DD-5.22; G-34")
        return plan, tel

    def resolve(self, g: Game, el: Element, action: dict, plan) -> None:
        from game.rules.movement import apply_move
        from game.rules.reactions import clear_overwatch

        clear_overwatch(g, el, "it activates again", "G-32")
        move, tel = plan
        apply_move(g, move)
        if move.halted or not g.state.living(el) or not g.state.living(tel) or el.pinned \
                or not fire.within_reach(g, g.state.living(el), g.state.living(tel), fire.combat().assault.reach):
            g.emit({"type": "note", "element": el.id, "clause": "DD-5.22",
                    "text": f"{el.name}'s assault is broken up before it closes"})
            return
        close_assault(g, el, tel)


# -- frag grenades ------------------------------------------------------------------------------------
def _in_structure(g: Game, st: Stand) -> bool:
    return any(t.id in fire.combat().grenade.structures for t in fire.terrain_at(g, st))


@table_memo(lambda side: side)
def _enemies_inside(g: Game, side: str) -> list[Stand]:
    """The side's Confirmed enemy stands in a hootch, trench or bunker (DD-5.30), in their order: the
    only stands a grenade may be thrown at, found once for all the side's elements."""
    return [t for t in fire.enemy_stands(g, side) if _in_structure(g, t)]


@table_memo(lambda el: el.id)
def _grenade_targets(g: Game, el: Element) -> list[Stand]:
    """Enemy stands in a structure within a grenade's reach of the element (DD-5.30)."""
    return fire.within_reach(g, g.state.living(el), _enemies_inside(g, el.side), fire.combat().grenade.reach)


def grenade_context(morale: bool = True) -> fire.Context:
    """DD-5.30: landed inside, no cover modifier and no cover save; an explosive (DD-5.9)."""
    return fire.Context("grenade", "DD-5.30", cover_to_hit=False, fixed_save=fire.combat().grenade.save,
                        explosive=True, point_blank=False, morale=morale)


def grenade_attack(g: Game, el: Element, target: Stand) -> fire.Attack:
    gr = fire.combat().grenade
    tel = g.state.elements[target.element]
    thrower = min(g.state.living(el), key=lambda s: (fire.gap(g, s, target), s.id))
    mods = [Modifier("firer Pinned", fire.combat().fire.pinned_firer, "DD-5.21")] if el.pinned else []
    group = fire.Group([thrower.id], gr.fp, mods, need_of(fire.combat().fire.to_hit, mods))
    model = fire.build_model(g, g.state.living(tel), [thrower], grenade_context())
    return fire.Attack(el.side, el.id, grenade_context(), [group], model, target.id,
                       f"{el.name}'s grenade bursts inside among {tel.name}",
                       zone={"elements": [tel.id]})


class FragGrenade(ActionKind):
    """Frag Grenade Pre-Assault (DD-5.30): within 2" of an occupied hootch, trench or bunker."""

    type = "frag_grenade"
    is_move = False

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        targets = _grenade_targets(g, el)
        if not targets:
            return []
        return [{"type": self.type, **common, "clause": "DD-5.30", "label": f"{el.name}: Frag Grenade ({price})",
                 "params": {"target": {"kind": "stand", "choices": [t.id for t in targets]}}}]

    def check(self, g: Game, el: Element, action: dict) -> fire.Attack:
        t = action.get("target")
        if not isinstance(t, str) or t not in {s.id for s in _grenade_targets(g, el)}:
            raise IllegalAction("a grenade needs an enemy stand in a hootch, trench or bunker within 2\"", "DD-5.30")
        return grenade_attack(g, el, g.state.stands[t])

    def resolve(self, g: Game, el: Element, action: dict, plan: fire.Attack) -> None:
        gr = fire.combat().grenade
        ev = resolve_test(g.dice, purpose="grenade lands inside", target=gr.land, modifiers=[], clause="DD-5.30",
                          side=el.side, element=el.id, subject=el.name)
        g.emit(ev)
        el.conceal = False
        if ev["result"] != "pass":
            g.emit({"type": "note", "element": el.id, "clause": "DD-5.30; G-34",
                    "text": "the grenade bounces off: no effect, the action is spent"})
            return
        from game.rules.morale import test_or_pin

        assert plan.zone is not None
        plan.ctx = grenade_context(morale=False)
        fire.resolve_attack(g, plan)
        for eid in plan.zone["elements"]:  # DD-5.30: the defender must test Morale
            tel = g.state.elements[eid]
            if g.state.living(tel):
                test_or_pin(g, tel, "grenade inside", "DD-5.30")


# -- satchel charges and mouseholes -----------------------------------------------------------------
@table_memo(lambda st, types, contact: (st.id, st.x, st.y, st.facing, types, contact))
def _features_touching(g: Game, st: Stand, types: tuple[str, ...], contact: float) -> list:
    rect, box = base_of(g.book, st), bounds_of(g.book, st)
    m = contact + 1e-6  # boxes further apart than this: out of contact, nothing to work out
    out = []
    for h in g.table.of_terrain(types):
        if apart_by(box, h.box, m):
            continue
        if h.shape.distance(rect) <= contact:
            if g.state.structures.get(h.feature.id, {}).get("state") == "rubble":
                continue
            out.append(h)
    return out


class SatchelCharge(ActionKind):
    """Satchel Charge (DD-5.31–5.32, C-12, G-34): a Sapper in base contact with a bunker; 3+ collapses
    it (3 automatic hits on its 3 HP) and every stand inside takes 2 hits."""

    type = "satchel_charge"
    is_move = False

    def possible(self, g: Game, side: str, types: frozenset[str]) -> bool:
        return any(g.book.stands[t].role in fire.combat().satchel.roles for t in types)  # a Sapper (DD-5.32)

    def _options(self, g: Game, el: Element) -> list[tuple[Stand, Any]]:
        sc = fire.combat().satchel
        out = []
        for s in g.state.living(el):
            if g.book.stands[s.type].role in sc.roles:
                out += [(s, h) for h in _features_touching(g, s, ("bunker",), sc.contact)]
        return out

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        opts = self._options(g, el)
        if not opts:
            return []
        return [{"type": self.type, **common, "clause": "DD-5.32", "label": f"{el.name}: Satchel Charge ({price})",
                 "params": {"bunker": {"kind": "feature", "choices": sorted({h.feature.id for _, h in opts})}}}]

    def check(self, g: Game, el: Element, action: dict):
        for s, h in self._options(g, el):
            if h.feature.id == action.get("bunker"):
                return s, h
        raise IllegalAction("a Sapper stand must be in base contact with that bunker", "DD-5.32")

    def resolve(self, g: Game, el: Element, action: dict, plan) -> None:
        sc = fire.combat().satchel
        sapper, h = plan
        ev = resolve_test(g.dice, purpose="satchel charge", target=sc.roll, modifiers=[], clause="DD-5.32",
                          side=el.side, element=el.id, subject=sapper.id)
        g.emit(ev)
        el.conceal = False
        if ev["result"] != "pass":
            g.emit({"type": "note", "element": el.id, "clause": "DD-5.32; G-34",
                    "text": "the charge fails to penetrate: no effect, the action is spent"})
            return
        hp = max(0, sc.bunker_hp - sc.hits)
        g.state.structures[h.feature.id] = {"hp": hp, "state": "rubble"}
        g.emit({"type": "structure", "feature": h.feature.id, "state": "rubble", "hits": sc.hits,
                "clause": "DD-5.31; DD-5.32; C-12",
                "text": f"the satchel charge scores {sc.hits} hits: bunker {h.feature.id} collapses"})
        inside = [s for s in g.state.stands.values() if s.alive and h.shape.contains(base_of(g.book, s).centroid)]
        for s in sorted(inside, key=lambda s: s.id):  # G-34: every stand inside takes 2 hits
            for _ in range(sc.occupant_hits):
                if s.alive:
                    fire.apply_hit(g, s, "DD-5.32; G-34")


class Mousehole(ActionKind):
    """Mousehole Breach (DD-5.35) and the Indoor Assault Surprise (DD-5.36)."""

    type = "mousehole"
    is_move = False

    def _options(self, g: Game, el: Element) -> list[tuple[Stand, Any]]:
        b = fire.combat().breach
        out = []
        for s in g.state.living(el):
            out += [(s, h) for h in _features_touching(g, s, ("masonry",), b.contact)]
        return out

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        opts = self._options(g, el)
        if not opts or el.pinned:
            return []
        return [{"type": self.type, **common, "clause": "DD-5.35", "label": f"{el.name}: Mousehole Breach ({price})",
                 "params": {"wall": {"kind": "feature", "choices": sorted({h.feature.id for _, h in opts})}}}]

    def check(self, g: Game, el: Element, action: dict):
        if el.pinned:
            raise IllegalAction(f"{el.name} is Pinned", "G-32")
        for s, h in self._options(g, el):
            if h.feature.id == action.get("wall"):
                return s, h
        raise IllegalAction("a stand must be in base contact with that masonry wall", "DD-5.35")

    def resolve(self, g: Game, el: Element, action: dict, plan) -> None:
        b = fire.combat().breach
        st, h = plan
        sapper = g.book.stands[st.type].role == "sapper"
        target = b.sapper_roll if sapper else b.roll
        ev = resolve_test(g.dice, purpose="mousehole breach", target=target, modifiers=[], clause="DD-5.35",
                          side=el.side, element=el.id, subject=st.id)
        g.emit(ev)
        if ev["result"] != "pass":
            g.emit({"type": "note", "element": el.id, "clause": "DD-5.35",
                    "text": "the wall cracks but holds; the action is spent"})
            return
        g.state.structures[h.feature.id] = {**g.state.structures.get(h.feature.id, {}), "state": "breached"}
        g.emit({"type": "structure", "feature": h.feature.id, "state": "breached", "x": st.x, "y": st.y,
                "clause": "DD-5.35; G-34", "text": f"a mousehole is blown through {h.feature.id}"})
        inside = sorted({s.element for s in fire.enemy_stands(g, el.side)
                         if h.shape.contains(base_of(g.book, s).centroid)})
        for eid in inside[:1]:  # DD-5.36: straight through into the room, no defensive fire
            close_assault(g, el, g.state.elements[eid], surprise=True)


# -- recoilless rifles --------------------------------------------------------------------------------
def backblast_cone(g: Game, st: Stand) -> Polygon:
    """DD-5.33, G-25: a 2" triangle behind the breech, 2" wide at its far end."""
    rr = fire.combat().recoilless
    depth = g.book.base_of(st.type).depth
    tri = Polygon([(0, 0), (-rr.cone_length, rr.cone_width / 2), (-rr.cone_length, -rr.cone_width / 2)])
    tri = rotate(tri, st.facing, origin=(0, 0))
    back = math.radians(st.facing)
    bx, by = st.x - depth / 2 * math.cos(back), st.y - depth / 2 * math.sin(back)
    return Polygon([(x + bx, y + by) for x, y in tri.exterior.coords])


class RecoillessFire(ActionKind):
    """A recoilless rifle's HE shot (G-25) with its backblast and dust screen (DD-5.33–5.34)."""

    type = "recoilless_fire"
    is_move = False

    def possible(self, g: Game, side: str, types: frozenset[str]) -> bool:
        return any(g.book.stands[t].role == "recoilless" for t in types)  # a recoilless rifle (DD-5.33)

    def _guns(self, g: Game, el: Element) -> list[Stand]:
        return [s for s in g.state.living(el) if g.book.stands[s.type].role == "recoilless"]

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        guns = self._guns(g, el)
        if not guns:
            return []
        targets = fire.legal_targets(g, el, guns)
        if not targets:
            return []
        return [{"type": self.type, **common, "clause": "DD-5.33; G-25",
                 "label": f"{el.name}: Recoilless rifle HE ({price})",
                 "params": {"target": {"kind": "stand", "choices": [t.id for t in targets]}}}]

    def check(self, g: Game, el: Element, action: dict) -> fire.Attack:
        guns = self._guns(g, el)
        if not guns:
            raise IllegalAction(f"{el.name} has no recoilless rifle", "DD-5.33")
        ctx = fire.Context("recoilless", "G-25; DD-5.33", explosive=True)
        attack = fire.plan_fire(g, el, action.get("target"), ctx, shooters=guns)
        rr = fire.combat().recoilless
        for gr in attack.groups:
            gr.dice = rr.he_fp
        return attack

    def resolve(self, g: Game, el: Element, action: dict, plan: fire.Attack) -> None:
        gun = g.state.stands[plan.groups[0].stands[0]]
        fire.resolve_attack(g, plan)
        backblast(g, el, gun)


def backblast(g: Game, el: Element, gun: Stand) -> None:
    """DD-5.33-5.34: a recoilless rifle has fired (this team's HE shot, or an AT shot: the Ontos, an RR
    team, ``armour.resolve_at``): the 2 FP backblast on every friendly stand in the cone behind the
    breech, then the dust cloud behind the firer for the rest of the impulse."""
    rr = fire.combat().recoilless
    cone = backblast_cone(g, gun)
    g.emit({"type": "template", "kind": "backblast", "element": el.id,
            "polygon": [list(p) for p in cone.exterior.coords][:-1], "clause": "DD-5.33; G-25",
            "text": "Backblast: a 2\" cone behind the breech"})
    caught = [s for s in g.state.side_stands(el.side)
              if s.id != gun.id and base_of(g.book, s).intersects(cone)]
    ctx = fire.Context("backblast", "DD-5.33", cover_to_hit=False, fixed_save=rr.backblast_save,
                       point_blank=False)
    for eid in sorted({s.element for s in caught}):
        victims = [s for s in caught if s.element == eid]
        mods: list[Modifier] = []
        model = fire.build_model(g, victims, [gun], dataclass_replace(ctx, allocation="nearest"))
        attack = fire.Attack(el.side, None, dataclass_replace(ctx, allocation="nearest"),
                             [fire.Group([gun.id], rr.backblast_fp, mods, fire.combat().fire.to_hit)],
                             model, victims[0].id, f"backblast catches {g.state.elements[eid].name}")
        fire.resolve_attack(g, attack)
    back = math.radians(gun.facing)
    d = rr.dust_size / 2.0
    # Named after the gun and the impulse, never the engine's event count: a public id made of
    # ``state.seq`` would tell each side how many hidden events there have been (DESIGN §6).
    cloud = {"id": f"dust_{gun.id}_{g.state.turn}_{g.state.impulse}", "x": round(gun.x - d * math.cos(back), 3),
             "y": round(gun.y - d * math.sin(back), 3), "radius": rr.dust_size / 2.0,
             "turn": g.state.turn, "impulse": g.state.impulse}
    g.state.smoke = [m for m in g.state.smoke if (m["turn"], m["impulse"]) == (g.state.turn, g.state.impulse)]
    g.state.smoke.append(cloud)
    g.emit({"type": "smoke", "kind": "dust", **{k: cloud[k] for k in ("id", "x", "y", "radius")},
            "clause": "DD-5.34", "text": "A dust cloud blocks sight for the rest of this impulse"})


def dataclass_replace(ctx: fire.Context, **kw) -> fire.Context:
    import dataclasses

    return dataclasses.replace(ctx, **kw)


# -- odds -------------------------------------------------------------------------------------------
def odds(g: Game, el: Element, plan) -> dict:
    """Close assault odds (DD-5.22): the defensive volley exactly; the melee from each resulting state
    of the attacker, with both pools at 1/2 a die; P(stall: the volley wipes the attacker out),
    P(attacker wins), P(defender wins)."""
    from game.rules import odds as O

    move, tel = plan
    saved = {}
    for sid, (x, y, f) in move.moves.items():
        s = g.state.stands[sid]
        saved[sid] = (s.x, s.y, s.facing)
        s.x, s.y, s.facing = x, y, f
    try:
        res: dict = {"defender": tel.id}
        states: dict[tuple, float]
        p_stall = 0.0
        attackers = g.state.living(el)
        if not tel.pinned:
            near = min(attackers, key=lambda s: min(fire.gap(g, s, d) for d in g.state.living(tel)))
            try:
                volley = fire.plan_fire(g, tel, near.id, fire.Context("assault_volley", "DD-5.22 (1)"),
                                        check_target=False)
                vo = O.attack_odds(g, volley)
                res["volley"] = vo
                hits = O.hit_distribution(volley.groups)
                states = {}
                for d, p in O.damage_distribution(volley.model, hits).items():
                    if any(volley.model.alive(d, i) for i in range(len(d))):
                        states[d] = states.get(d, 0.0) + p
                    else:
                        p_stall += p
                model = volley.model
            except IllegalAction:
                states, model = {(): 1.0}, None
        else:
            states, model = {(): 1.0}, None
        d_pool = sum(fire.stand_fp(g, s) for s in g.state.living(tel))
        p_win = p_lose = 0.0
        for d, p in states.items():
            if model is None or not d:
                a_pool = sum(fire.stand_fp(g, s) for s in attackers)
            else:
                a_pool = 0
                for i, m in enumerate(model.marks):
                    if not model.alive(d, i):
                        continue
                    t = g.book.stands[g.state.stands[m.id].type]
                    ringed = t.hits > 1 and m.hits + d[i] >= 1
                    a_pool += max(1, math.ceil(t.fp / 2)) if ringed else t.fp
            ha = O.hit_distribution([fire.Group([], a_pool, [], 4)])
            hd = O.hit_distribution([fire.Group([], d_pool, [], 4)])
            for i, pa in enumerate(ha):
                for j, pd in enumerate(hd):
                    if i > j:
                        p_win += p * pa * pd
                    else:
                        p_lose += p * pa * pd
        res.update({"p_stall": p_stall, "p_attacker_wins": p_win, "p_defender_wins": p_lose,
                    "note": "the loser falls back 4\" Pinned, or is eliminated if surrounded (G-34)"})
        return res
    finally:
        for sid, (x, y, f) in saved.items():
            s = g.state.stands[sid]
            s.x, s.y, s.facing = x, y, f


def grenade_odds(g: Game, el: Element, attack: fire.Attack) -> dict:
    from game.rules import odds as O

    p_land = fire.p_success(fire.combat().grenade.land)
    inner = O.attack_odds(g, attack)
    return {"p_lands": p_land, "if_it_lands": inner}


for _kind in (Assault(), FragGrenade(), SatchelCharge(), Mousehole(), RecoillessFire()):
    register(_kind)
