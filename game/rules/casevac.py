"""CASEVAC (DD chapter 6; DD-2.16, DD-3.8–3.10, DD-3.17; G-18, G-27, G-30, G-33; C-01, C-02, C-11).

* **Buddy Aid** (``buddy_aid``, DD-2.16, G-33 (2)): an Allied stand in base contact with a wounded
  Casualty Token spends an action; a Medic stabilizes it automatically, any other stand on 4+.
  Stabilized tokens never bleed again (G-33 (3)); the Phase 3 Bleed itself stays in ``turn.bleed``.
* **Litter Team** (``litter``, DD-6.2–6.3, G-33 (1)): a healthy stand (Small, or Medium without a Red
  Ring) in base contact with a token spends an action to pick it up. The token records its
  ``carrier``; it travels at the carrier's centre. A Litter Team cannot shoot (``fire.can_shoot``),
  moves at most 3" (``movement.stand_allowance``) and ignores coherency (``command.coherent``).
  Dropping the token (``litter_drop``) is a free side action that does not end the impulse.
* **Dustoff** (``pop_smoke``, DD-6.6–6.12, G-27, G-33 (5)–(8)): a stand in a clear 6" LZ (no dense
  trees or buildings, ``TableLOS.clear_circle``) pops coloured smoke (G-18); a Dustoff clock starts
  (1 turn, 2 after a shoot-down). One Dustoff at a time; none in the monsoon (DD-3.8). When the clock
  runs out, at the start of the next turn's Tension phase, the UH-1 touches down on the smoke and the
  Hot LZ roll is made once if an unpinned enemy element has LOS to it within 12" (the nearest fires
  and is Confirmed). The helicopter waits on the LZ through that turn's Engagement phase and leaves
  in the Consolidation phase, before the Bleed, loading up to 3 tokens carried by Litter Teams in
  base contact with it (+2 VP each living one; a KIA token scores 0 and its -3 stands, C-02). A
  damaged helicopter (result 5) loads whoever is in contact and leaves at once.

Everything here is public: the smoke, its colour, the helicopter and the litter teams are seen by
both sides (DESIGN §6); a hidden enemy that fires at the helicopter is revealed first (DD-4.11).
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from shapely.geometry import Point

from game.rules.chapters import Chapter, Step, register_chapter, tables
from game.rules.data import DATA_DIR, DataError, load_sections, one_of
from game.rules.dice import Modifier, natural_success, resolve_test
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, SideActionKind, register, register_side
from game.rules.memo import table_memo
from game.rules.state import TOKEN_RADIUS, Clock, Element, Stand, Token, base_of, bounds_of, token_shape
from game.world.features import apart_by

if TYPE_CHECKING:
    from game.rules.game import Game


# -- the tables (game/data/casevac.toml) ------------------------------------------------------------
@dataclass(frozen=True)
class BuddyAidRules:
    clause: str
    target: int
    medic_automatic: bool


@dataclass(frozen=True)
class WalkingWoundedRules:
    clause: str
    target: int


@dataclass(frozen=True)
class LitterRules:
    clause: str
    max_move: float
    carries: int


@dataclass(frozen=True)
class DustoffRules:
    clause: str
    lz_radius: float
    smoke_reach: float
    colours: list
    default_colour: str
    clock: int
    clock_after_shot_down: int
    footprint: float
    capacity: int
    hot_lz_range: float
    extract_vp: int
    shot_down_vp: int
    crash_tokens: int
    crash_offsets: list
    wreck_radius: float


HOT_LZ_RESULTS = ("wave_off", "scratches", "damaged", "shot_down")
"""What a Hot LZ roll can do to the Dustoff (DD-6.9): the rules act on each."""


@dataclass(frozen=True)
class HotLZRules:
    clause: str
    results: list[str] = field(metadata=one_of(HOT_LZ_RESULTS))
    escort: int
    escort_floor: int


@dataclass(frozen=True)
class CasevacRules:
    buddy_aid: BuddyAidRules
    walking_wounded: WalkingWoundedRules
    litter: LitterRules
    dustoff: DustoffRules
    hot_lz: HotLZRules


def load_casevac(directory: Path = DATA_DIR) -> CasevacRules:
    """Load ``casevac.toml`` strictly: every section present, known keys only, a clause in each."""
    built, _ = load_sections("casevac.toml", typing.get_type_hints(CasevacRules), directory)
    rules = CasevacRules(**built)
    if len(rules.hot_lz.results) != 6:
        raise DataError("casevac.toml", "[hot_lz]", "field 'results' must list six results, one per die score")
    if rules.dustoff.default_colour not in rules.dustoff.colours:
        raise DataError("casevac.toml", "[dustoff]", f"default_colour {rules.dustoff.default_colour!r} is not one "
                        "of its colours")
    return rules


def casevac(g: Game) -> CasevacRules:
    """CASEVAC's tables as this game's rulebook has them (``chapters.tables``)."""
    return tables(g.book, "casevac")


# -- its state ----------------------------------------------------------------------------------------
@dataclass
class Smoke:
    """The coloured smoke marking the LZ (DD-6.7, G-18)."""

    id: str
    x: float
    y: float
    colour: str
    stand: str
    turn: int


@dataclass
class Helicopter:
    """The UH-1 on the LZ (DD-6.8): it waits through the Engagement phase and leaves in Phase 3."""

    id: str
    x: float
    y: float
    colour: str
    radius: float
    damaged: bool
    turn: int


@dataclass
class CasevacState:
    """CASEVAC's state (``GameState.chapters["casevac"]``)."""

    calls: int = 0
    """Dustoff calls made (their ids: ``dustoff1``, ...)."""
    smoke: Smoke | None = None
    helicopter: Helicopter | None = None
    next_clock: int | None = None
    """The next call's clock after a shoot-down (G-33 (7)); None: the usual one."""
    wrecks: int = 0


# -- helpers ----------------------------------------------------------------------------------------
def contact(g: Game) -> float:
    return g.book.command.base_contact


def carrier_of(g: Game, tok: Token) -> Stand | None:
    """The living stand carrying a token, or None."""
    sid = tok.carrier
    st = g.state.stands.get(sid) if sid else None
    return st if st is not None and st.alive else None


def carried_by(g: Game, stand_id: str) -> Token | None:
    """The token a stand carries (G-33 (1): one at most), or None."""
    for tok in g.state.tokens:
        if tok.carrier == stand_id and tok.state != "extracted":
            return tok
    return None


@table_memo(lambda: ())
def litter_bearers(g: Game) -> set[str]:
    """Ids of the living stands now carrying a Casualty Token (DD-6.2)."""
    return {st.id for tok in g.state.tokens if tok.state != "extracted"
            for st in [carrier_of(g, tok)] if st is not None}


def is_bearer(g: Game, stand: Stand) -> bool:
    return any(tok.carrier == stand.id and tok.state != "extracted" for tok in g.state.tokens) \
        and stand.alive


def healthy(g: Game, stand: Stand) -> bool:
    """G-33 (1): a Medium stand with no Red Ring, or any Small stand."""
    return g.book.stands[stand.type].base == "small" or stand.hits == 0


@table_memo(lambda: ())
def on_table_tokens(g: Game) -> list[dict]:
    """Allied Casualty Tokens still on the table (not extracted)."""
    return [t for t in g.state.tokens if t.side == "allied" and t.state != "extracted"]


def touching(g: Game, stand: Stand, tok: Token) -> bool:
    reach = contact(g) + 1e-9
    # the token's centre further than this from the base's box: out of contact, nothing to work out
    if apart_by(bounds_of(g.book, stand), (tok.x, tok.y, tok.x, tok.y), reach + TOKEN_RADIUS + 1e-6):
        return False
    return base_of(g.book, stand).distance(token_shape(tok)) <= reach


def follow(g: Game) -> None:
    """Carried tokens travel with their Litter Team (DD-6.2); a token whose carrier died is dropped."""
    for tok in g.state.tokens:
        if not tok.carrier:
            continue
        st = carrier_of(g, tok)
        if st is None or tok.state == "extracted":
            if tok.state != "extracted":
                tok.carrier = None
            continue
        tok.x, tok.y = st.x, st.y


def cv_state(g: Game) -> CasevacState:
    return g.state.chapters["casevac"]


def grounded(g: Game) -> bool:
    """DD-3.8: the monsoon grounds all air support, the Dustoff included."""
    return g.state.weather == "monsoon"


def escorted(g: Game) -> bool:
    """DD-6.10, G-27: a gunship on station (a scenario special rule) escorts the Dustoff."""
    return "gunship_on_station" in g.scenario.special_rules and not grounded(g)


def dustoff_busy(g: Game) -> bool:
    """G-33 (7): only one Dustoff on its way (or on the LZ) at a time."""
    c = cv_state(g)
    return c.helicopter is not None or any(k.kind == "dustoff" for k in g.state.clocks)


def _event(g: Game, phase: str, x: float, y: float, colour: str, clause: str, text: str, **extra) -> None:
    g.emit({"type": "dustoff", "phase": phase, "x": x, "y": y, "colour": colour, "clause": clause,
            "text": text, **extra})


# -- Buddy Aid (DD-2.16, G-33 (2)) ----------------------------------------------------------------
@table_memo(lambda el: el.id)
def _aid_pairs(g: Game, el: Element) -> list[tuple[Stand, dict]]:
    if el.side != "allied":
        return []
    out = []
    for tok in on_table_tokens(g):
        if tok.state != "wounded":
            continue
        for st in g.state.living(el):
            if touching(g, st, tok):
                out.append((st, tok))
    return out


def _ringed_pairs(g: Game, el: Element) -> list[tuple[Stand, Stand]]:
    """(Medic of ``el``, an active friendly stand with a Red Casualty Ring in base contact) (DD-3.16)."""
    medics = [s for s in g.state.living(el) if g.book.stands[s.type].role == "medic" and not is_bearer(g, s)]
    out = []
    for m in medics:
        for st in g.state.side_stands(el.side):
            if st.hits and st.alive and st.hits < g.book.stands[st.type].hits \
                    and base_of(g.book, st).distance(base_of(g.book, m)) <= contact(g) + 1e-9:
                out.append((m, st))
    return sorted(out, key=lambda p: (p[0].id, p[1].id))


class WalkingWounded(ActionKind):
    """Walking wounded (DD-3.16): a Medic in base contact with an active stand carrying a Red Casualty
    Ring spends the activation (1 CP) and rolls 1d6: on 5+ the ring comes off and the stand fights at
    full FP again; on 1-4 it stays."""

    type = "treat_wounded"

    def possible(self, g: Game, side: str, types: frozenset[str]) -> bool:
        return side == "allied" and any(g.book.stands[t].role == "medic" for t in types)  # DD-3.16

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        pairs = _ringed_pairs(g, el)
        if not pairs or el.side != "allied":
            return []
        need = casevac(g).walking_wounded.target
        return [{"type": self.type, **common, "clause": "DD-3.16",
                 "label": f"{el.name}: the Medic treats a wounded stand, {need}+ removes the ring ({price})",
                 "params": {"stand": {"kind": "stand", "choices": sorted({st.id for _, st in pairs}),
                                      "doc": "a stand with a Red Casualty Ring in base contact with the Medic"}}}]

    def check(self, g: Game, el: Element, action: dict) -> tuple[Stand, Stand]:
        if el.side != "allied":
            raise IllegalAction("only an Allied Medic treats the walking wounded", "DD-3.16")
        pairs = _ringed_pairs(g, el)
        if not pairs:
            raise IllegalAction(f"{el.name} has no Medic in base contact with a stand carrying a Red "
                                "Casualty Ring", "DD-3.16")
        sid = action.get("stand")
        match = [p for p in pairs if p[1].id == sid]
        if not match:
            raise IllegalAction(f"{sid!r} is not a ringed stand in base contact with {el.name}'s Medic",
                                "DD-3.16")
        return match[0]

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[Stand, Stand]) -> None:
        medic, st = plan
        ev = resolve_test(g.dice, purpose="Walking wounded", target=casevac(g).walking_wounded.target,
                          modifiers=[], clause="DD-3.16", side=el.side, element=el.id,
                          subject=f"Medic {medic.id} treats {st.id}")
        g.emit(ev, visible=g.visibility_of_element(el))
        if ev["result"] == "pass":
            st.hits = 0
            g.emit({"type": "hit", "stand": st.id, "element": st.element, "hits": 0, "ring": False,
                    "clause": "DD-3.16", "text": f"{st.id}: the Red Casualty Ring comes off, full FP again"},
                   visible=g.visibility_of_element(g.state.elements[st.element]))


class BuddyAid(ActionKind):
    """Rally / Buddy Aid (DD-2.16, G-33 (2)): stabilize a wounded Casualty Token in base contact."""

    type = "buddy_aid"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        pairs = _aid_pairs(g, el)
        if not pairs:
            return []
        return [{"type": self.type, **common, "clause": "DD-2.16; G-33 (2)",
                 "label": f"{el.name}: Buddy Aid, stabilize a casualty ({price})",
                 "params": {"token": {"kind": "token", "choices": sorted({t.id for _, t in pairs}),
                                      "doc": "a wounded Casualty Token in base contact"},
                            "stand": {"kind": "stand", "optional": True,
                                      "choices": sorted({s.id for s, _ in pairs}),
                                      "doc": "the stand giving aid (a Medic if one is in contact)"}}}]

    def check(self, g: Game, el: Element, action: dict) -> tuple[Stand, dict]:
        if el.side != "allied":
            raise IllegalAction("only Allied stands give Buddy Aid; Insurgent casualties never bleed",
                                "G-33 (9)")
        tid = action.get("token")
        tok = next((t for t in on_table_tokens(g) if t.id == tid), None)
        if tok is None:
            raise IllegalAction(f"no Allied Casualty Token {tid!r} on the table", "DD-2.16")
        if tok.state != "wounded":
            raise IllegalAction(f"casualty {tid} is {tok.state}, not wounded", "DD-2.16; G-33 (3)")
        helpers = [s for s, t in _aid_pairs(g, el) if t is tok]
        if action.get("stand") is not None:
            helpers = [s for s in helpers if s.id == action.get("stand")]
            if not helpers:
                raise IllegalAction(f"stand {action.get('stand')!r} of {el.name} is not in base contact "
                                    f"with casualty {tid}", "DD-2.16; G-33 (2)")
        if not helpers:
            raise IllegalAction(f"no stand of {el.name} is in base contact with casualty {tid}",
                                "DD-2.16; G-33 (2)")
        medics = [s for s in helpers if g.book.stands[s.type].role == "medic"]
        return (medics or helpers)[0], tok

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[Stand, dict]) -> None:
        st, tok = plan
        rules = casevac(g).buddy_aid
        if g.book.stands[st.type].role == "medic" and rules.medic_automatic:
            tok.state = "stabilized"
            g.emit({"type": "casualty", "token": tok.id, "state": "stabilized", "stand": st.id,
                    "clause": "DD-2.16; DD-6.5; G-33 (2)",
                    "text": f"Medic {st.id} stabilizes casualty {tok.id}"})
            return
        ev = resolve_test(g.dice, purpose="Buddy Aid", target=rules.target, modifiers=[],
                          clause="DD-2.16; G-33 (2)", side=el.side, element=el.id,
                          subject=f"{st.id} tends casualty {tok.id}")
        g.emit(ev)
        if ev["result"] == "pass":
            tok.state = "stabilized"
            g.emit({"type": "casualty", "token": tok.id, "state": "stabilized", "stand": st.id,
                    "clause": "DD-2.16; G-33 (2)", "text": f"{st.id} stabilizes casualty {tok.id}"})


# -- Litter Teams (DD-6.2–6.3, G-33 (1)) -----------------------------------------------------------
@table_memo(lambda el: el.id)
def _litter_pairs(g: Game, el: Element) -> list[tuple[Stand, dict]]:
    if el.side != "allied":
        return []
    bearers = litter_bearers(g)
    free = [t for t in on_table_tokens(g) if carrier_of(g, t) is None]
    return [(st, tok) for tok in free for st in g.state.living(el)
            if st.id not in bearers and healthy(g, st) and touching(g, st, tok)]


class LitterLink(ActionKind):
    """Litter Drag (DD-6.2): a healthy stand in base contact with a token links up with it."""

    type = "litter"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        pairs = _litter_pairs(g, el)
        if not pairs:
            return []
        return [{"type": self.type, **common, "clause": "DD-6.2; G-33 (1)",
                 "label": f"{el.name}: Litter Drag, a stand picks up a casualty ({price})",
                 "params": {"token": {"kind": "token", "choices": sorted({t.id for _, t in pairs}),
                                      "doc": "an Allied Casualty Token in base contact"},
                            "stand": {"kind": "stand", "choices": sorted({s.id for s, _ in pairs}),
                                      "doc": "a healthy stand (Small, or Medium without a Red Ring)"}}}]

    def check(self, g: Game, el: Element, action: dict) -> tuple[Stand, dict]:
        if el.side != "allied":
            raise IllegalAction("NVA/VC squads never stop to drag casualties", "DD-3.12")
        tid, sid = action.get("token"), action.get("stand")
        tok = next((t for t in on_table_tokens(g) if t.id == tid), None)
        if tok is None:
            raise IllegalAction(f"no Allied Casualty Token {tid!r} on the table", "DD-6.2")
        st = g.state.stands.get(sid) if isinstance(sid, str) else None
        if st is None or st.element != el.id or not st.alive:
            raise IllegalAction(f"{el.name} has no living stand {sid!r}", "DD-6.2")
        if carrier_of(g, tok) is not None:
            raise IllegalAction(f"casualty {tid} is already carried by {tok.carrier}", "G-33 (1)")
        if st.id in litter_bearers(g):
            raise IllegalAction(f"{st.id} already carries a casualty; a Litter Team carries one", "G-33 (1)")
        if not healthy(g, st):
            raise IllegalAction(f"{st.id} carries a Red Casualty Ring and is not healthy", "DD-6.2; G-33 (1)")
        if not touching(g, st, tok):
            raise IllegalAction(f"{st.id} is not in base contact with casualty {tid}", "DD-6.2")
        return st, tok

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[Stand, dict]) -> None:
        st, tok = plan
        tok.carrier = st.id
        tok.x, tok.y = st.x, st.y
        g.emit({"type": "litter", "stand": st.id, "element": el.id, "token": tok.id, "on": True,
                "x": st.x, "y": st.y, "clause": "DD-6.2; DD-6.3; G-33 (1)",
                "text": f"{st.id} becomes a Litter Team carrying casualty {tok.id}: no fire, 3\" moves"})


class LitterDrop(SideActionKind):
    """Drop a carried token where its Litter Team stands (G-33 (1): free; the impulse goes on)."""

    type = "litter_drop"
    free = True

    def offers(self, g: Game, side: str) -> list[dict]:
        if side != "allied":
            return []
        carried = [t for t in on_table_tokens(g) if carrier_of(g, t) is not None]
        if not carried:
            return []
        return [{"type": self.type, "side": side, "cost": 0, "clause": "G-33 (1)",
                 "label": "Drop a casualty a Litter Team carries (free)",
                 "params": {"token": {"kind": "token", "choices": [t.id for t in carried],
                                      "doc": "a carried Casualty Token"}}}]

    def check(self, g: Game, side: str, action: dict) -> dict:
        tid = action.get("token")
        tok = next((t for t in on_table_tokens(g) if t.id == tid), None)
        if side != "allied" or tok is None or carrier_of(g, tok) is None:
            raise IllegalAction(f"no carried Allied Casualty Token {tid!r}", "G-33 (1)")
        return tok

    def act(self, g: Game, side: str, action: dict) -> None:
        self.resolve(g, side, action, self.check(g, side, action))

    def resolve(self, g: Game, side: str, action: dict, tok: Token) -> None:
        st = carrier_of(g, tok)
        tok.carrier = None
        g.emit({"type": "litter", "stand": st.id, "element": st.element, "token": tok.id, "on": False,
                "x": tok.x, "y": tok.y, "clause": "G-33 (1)",
                "text": f"{st.id} sets casualty {tok.id} down"})


# -- Dustoff (DD-6.6–6.12) ------------------------------------------------------------------------
class PopSmoke(ActionKind):
    """Pop Smoke (DD-6.6–6.7): a stand at a clear 6" LZ throws coloured smoke and calls the Dustoff."""

    type = "pop_smoke"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        if el.side != "allied" or grounded(g) or dustoff_busy(g) or not on_table_tokens(g):
            return []
        d = casevac(g).dustoff
        st = g.state.living(el)[0]
        return [{"type": self.type, **common, "clause": "DD-6.6; DD-6.7; G-18",
                 "label": f"{el.name}: Pop Smoke and call a Dustoff ({price})",
                 "params": {"at": {"kind": "point", "max": d.smoke_reach, "from": [st.x, st.y],
                                   "radius": d.lz_radius,
                                   "doc": "the LZ centre: a clear 6\" circle with a stand of the element in it"},
                            "colour": {"kind": "choice", "optional": True, "choices": list(d.colours),
                                       "default": d.default_colour,
                                       "doc": f"smoke colour (G-18), default {d.default_colour}"}}}]

    def check(self, g: Game, el: Element, action: dict) -> dict:
        d = casevac(g).dustoff
        if el.side != "allied":
            raise IllegalAction("only the Allies call a Dustoff", "DD-6.7")
        if grounded(g):
            raise IllegalAction("the monsoon grounds all air support, Dustoff included", "DD-3.8")
        if dustoff_busy(g):
            raise IllegalAction("a Dustoff is already on its way; only one at a time", "G-33 (7)")
        at = action.get("at")
        if (not isinstance(at, (list, tuple)) or len(at) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in at)):
            raise IllegalAction("'at' must be [x, y], the LZ centre in inches", "DD-6.7")
        x, y = float(at[0]), float(at[1])
        if not (d.lz_radius <= x <= g.scenario.width - d.lz_radius
                and d.lz_radius <= y <= g.scenario.height - d.lz_radius):
            raise IllegalAction(f"the 6\" LZ around ({x:g}, {y:g}) must lie on the table", "DD-6.6")
        colour = action.get("colour", d.default_colour)
        if colour not in d.colours:
            raise IllegalAction(f"smoke colour must be one of {', '.join(d.colours)}", "G-18")
        thrower = [s for s in g.state.living(el) if Point(s.x, s.y).distance(Point(x, y)) <= d.smoke_reach + 1e-9]
        if not thrower:
            raise IllegalAction(f"no stand of {el.name} stands in the LZ (within {d.smoke_reach:g}\" of its "
                                f"centre)", "DD-6.7")
        if not g.los_table().clear_circle(x, y, d.lz_radius, g.conditions().burnt):  # G-19: burnt trees go
            raise IllegalAction(f"the LZ at ({x:g}, {y:g}) is not a clear 6\" opening: dense trees or "
                                f"buildings inside", "DD-6.6")
        return {"x": x, "y": y, "colour": colour, "stand": sorted(thrower, key=lambda s: s.id)[0].id}

    def resolve(self, g: Game, el: Element, action: dict, plan: dict) -> None:
        d = casevac(g).dustoff
        c = cv_state(g)
        c.calls += 1
        turns = d.clock if c.next_clock is None else c.next_clock
        c.next_clock = None
        c.smoke = Smoke(f"smoke_lz{c.calls}", plan["x"], plan["y"], plan["colour"], plan["stand"], g.state.turn)
        g.state.clocks.append(Clock(f"dustoff{c.calls}", "dustoff", turns, "Dustoff inbound", "all",
                                    plan["x"], plan["y"], colour=plan["colour"]))
        _event(g, "inbound", plan["x"], plan["y"], plan["colour"], "DD-6.7; G-18; G-33 (7)",
               f"{plan['stand']} pops {plan['colour']} smoke: Dustoff inbound in {turns} turn(s)",
               stand=plan["stand"], turns=turns)


def eligible_firers(g: Game, heli: Stand) -> list[tuple[float, Element]]:
    """DD-6.9: unpinned enemy elements on the table (seen or under a Blind) with a stand in LOS of
    the helicopter within 12", nearest first."""
    d = casevac(g).dustoff
    out = []
    hp = Point(heli.x, heli.y).buffer(d.footprint)
    for el in g.state.elements.values():
        if el.side != "insurgent" or el.reserve or el.pinned:
            continue
        best = None
        for st in g.state.living(el):
            dist = base_of(g.book, st).distance(hp)
            if dist <= d.hot_lz_range + 1e-9 and g.line_of_sight(st, heli).visible:
                best = dist if best is None else min(best, dist)
        if best is not None:
            out.append((round(best, 2), el))
    return sorted(out, key=lambda p: (p[0], p[1].id))


def helicopter_stand(g: Game, x: float, y: float) -> Stand:
    """The landed UH-1 as a stand for line of sight (G-27: a ground-level target on the LZ)."""
    return Stand("dustoff", "us_rifle_team", "dustoff", "allied", x, y, 0.0)


def touchdown(g: Game, clock: Clock) -> None:
    d, h = casevac(g).dustoff, casevac(g).hot_lz
    c = cv_state(g)
    x, y, colour = clock.x, clock.y, clock.colour
    if grounded(g):
        c.smoke = None
        _event(g, "wave_off", x, y, colour, "DD-3.8", "Monsoon: the Dustoff is grounded and turns back")
        return
    heli = helicopter_stand(g, x, y)
    firers = eligible_firers(g, heli)
    result = "scratches"
    if firers:
        _, firer = firers[0]
        if firer.hidden:
            from game.rules.detection import reveal_element

            reveal_element(g, firer, f"{firer.name} opens fire on the Dustoff (muzzle flash)", "DD-6.9; G-33 (5)")
        from game.rules.fire_support import gunship

        escort = escorted(g) or gunship.escort_on_station(g)  # DD-6.10: a scenario's gunship, or one called (G-27)
        die = g.dice.d6()
        mods: list[Modifier] = []
        score = die
        if escort:
            mods.append(Modifier("gunship escort on station", h.escort, "DD-6.10; C-11"))
            score = die if natural_success(die) else max(h.escort_floor, die + h.escort)  # C-11, G-31
        result = h.results[max(1, min(6, score)) - 1]
        g.emit({"type": "roll", "purpose": "Hot LZ", "side": "insurgent", "element": firer.id, "dice": [die],
                "target": None, "modifiers": [m.to_dict() for m in mods], "need": None, "result": result,
                "score": score, "clause": "DD-6.9; G-33 (5)" + ("; DD-6.10; C-11" if mods else ""),
                "text": f"Hot LZ: {firer.name} fires on the Dustoff; rolled {die}"
                + (f", escort {h.escort:+d} (natural 6 unmodified, floor {h.escort_floor}) = {score}" if mods else "")
                + f": {result.replace('_', ' ')}"})
        if escort:  # DD-6.11: the escort strafes the stand that revealed itself, a free 4 FP volley
            gunship.escort_strafe(g, firer, heli)
    else:
        g.emit({"type": "note", "clause": "DD-6.9",
                "text": "Cold LZ: no unsuppressed enemy has the helicopter in sight within 12\""})
    if result == "wave_off":
        g.state.clocks.append(dataclasses.replace(clock, turns=1))
        _event(g, "wave_off", x, y, colour, "DD-6.9; G-33 (7)",
               "Waved off: the Dustoff aborts and returns to orbit; it tries again next turn")
        return
    if result == "shot_down":
        crash(g, x, y, colour)
        return
    c.helicopter = Helicopter(clock.id, x, y, colour, d.footprint, result == "damaged", g.state.turn)
    _event(g, "touchdown", x, y, colour, "DD-6.8" + ("; DD-6.9" if firers else ""),
           "The UH-1 touches down on the smoke" + (" with the co-pilot hit: it loads and leaves at once"
                                                    if result == "damaged" else ""),
           damaged=result == "damaged", radius=d.footprint)
    if result == "damaged":
        departure(g)


def crash(g: Game, x: float, y: float, colour: str) -> None:
    """DD-6.9 result 6, G-33 (7)–(8), G-30: the Dustoff crashes in the LZ."""
    d = casevac(g).dustoff
    s, c = g.state, cv_state(g)
    c.smoke = None
    c.next_clock = d.clock_after_shot_down
    c.wrecks += 1
    n = c.wrecks
    s.clocks.append(Clock(f"wreck{n}", "wreck", 1, "Burning wreck", "all", x, y, d.wreck_radius,
                          blocks_sight=True))
    offs = d.crash_offsets
    placed = []
    for i in range(d.crash_tokens):
        ox, oy = offs[(2 * i) % len(offs)], offs[(2 * i + 1) % len(offs)]
        tok = Token(f"cas_dustoff{n}_{i + 1}", "allied", x + ox, y + oy, "wounded")
        s.tokens.append(tok)
        placed.append(tok.id)
    s.sides["allied"].vp += d.shot_down_vp
    _event(g, "crash", x, y, colour, "DD-6.9; G-33 (8); G-30",
           f"Shot down! The Huey crashes in the LZ: burning wreck, casualties {', '.join(placed)}; "
           f"{d.shot_down_vp:+d} VP; the next call takes {d.clock_after_shot_down} turns",
           tokens=placed, radius=d.wreck_radius, vp=s.sides["allied"].vp)


def departure(g: Game) -> None:
    """DD-6.12: Litter Teams in base contact with the landed helicopter load (3 tokens, G-33 (6)); it
    leaves; each living casualty scores +2 VP (DD-3.10), a KIA 0 (its -3 stands, C-02)."""
    c = cv_state(g)
    heli = c.helicopter
    if heli is None:
        return
    d = casevac(g).dustoff
    follow(g)
    pad = Point(heli.x, heli.y).buffer(heli.radius)
    order = {"wounded": 0, "stabilized": 1, "kia": 2}
    cands = []
    for tok in on_table_tokens(g):
        st = carrier_of(g, tok)
        if st is not None and base_of(g.book, st).distance(pad) <= contact(g) + 1e-9:
            cands.append(tok)
    cands.sort(key=lambda t: (order.get(t.state, 3), t.id))
    loaded, gained = [], 0
    for tok in cands[:d.capacity]:
        if tok.state == "kia":
            tok.extracted = True  # C-02: KIA extracted scores 0; the -3 stands at the end
        else:
            tok.state = "extracted"
            gained += d.extract_vp
        loaded.append(tok.id)
    g.state.sides["allied"].vp += gained
    c.helicopter = None
    c.smoke = None
    left = [t.id for t in cands[d.capacity:]]
    _event(g, "departure", heli.x, heli.y, heli.colour, "DD-6.12; DD-3.10; G-33 (6); C-02",
           f"The Dustoff lifts off with {len(loaded)} casualt{'y' if len(loaded) == 1 else 'ies'}"
           + (f" ({', '.join(loaded)}), {gained:+d} VP" if loaded else "")
           + (f"; no room for {', '.join(left)}" if left else ""),
           tokens=loaded, vp_gained=gained, vp=g.state.sides["allied"].vp)


def consolidation(g: Game) -> None:
    """Phase 3, before the Bleed: carried tokens follow their teams; a landed Dustoff loads and leaves."""
    follow(g)
    departure(g)


# -- views -------------------------------------------------------------------------------------------
def markers(g: Game) -> list[dict]:
    """Public CASEVAC markers: the smoke, the landed helicopter, the burning wreck (DESIGN §6)."""
    c = cv_state(g)
    out: list[dict] = []
    if c.smoke is not None:
        sm = c.smoke
        out.append({"id": sm.id, "kind": "smoke", "purpose": "dustoff", "x": sm.x, "y": sm.y,
                    "colour": sm.colour, "radius": casevac(g).dustoff.lz_radius})
    if c.helicopter is not None:
        h = c.helicopter
        out.append({"id": h.id, "kind": "helicopter", "model": "uh1_dustoff", "x": h.x, "y": h.y,
                    "radius": h.radius, "damaged": h.damaged, "colour": h.colour})
    for k in g.state.clocks:
        if k.kind == "wreck":
            out.append({"id": k.id, "kind": "wreck", "x": k.x, "y": k.y, "radius": k.radius})
    return out


def token_fields(g: Game, tok: Token, side: str) -> dict:
    """The Litter Team carrying a token, when the viewing side may see that stand (DESIGN §6)."""
    st = carrier_of(g, tok)
    if st is None or (g.state.elements[st.element].hidden and side not in ("referee", st.side)):
        return {}
    return {"carried_by": st.id}


for _kind in (BuddyAid(), WalkingWounded(), LitterLink(), PopSmoke()):
    register(_kind)
register_side(LitterDrop())



class CasevacChapter(Chapter):
    """DD chapter 6 on the chapter seam: in every game."""

    id = "casevac"
    title = "DD chapter 6: CASEVAC"
    actions = ("buddy_aid", "treat_wounded", "litter", "litter_drop", "pop_smoke")
    state_type = CasevacState
    table_fields = ("calls", "smoke", "helicopter", "next_clock", "wrecks")
    clock_kinds = ("dustoff", "wreck")

    def load_tables(self, book) -> CasevacRules:
        return load_casevac()

    def steps(self) -> tuple[Step, ...]:
        return (Step("consolidation", 10, consolidation, "DD-6.12", self.id),)

    def on_clock(self, g: Game, clock: Clock) -> None:
        """Tension phase (DD-2.2): the Dustoff touches down (DD-6.8); a wreck stops burning (G-38)."""
        if clock.kind == "dustoff":
            touchdown(g, clock)

    def markers(self, g: Game, side: str) -> list[dict]:
        return markers(g)


CHAPTER = register_chapter(CasevacChapter())
