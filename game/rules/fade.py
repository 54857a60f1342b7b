"""The Fade (DD-2.32, C-10), Snatch & Fade (DD-3.13) and the body-count dilemma (DD-3.14, G-33 (4), G-30).

Phase 3 of every turn (DD-2.1, DD-2.32): "any Insurgent stand that is not Pinned and not within 4" of an
enemy stand may Fade": its miniatures come off the table and it becomes a Blind marker on a designated
jungle edge or tunnel entrance, or leaves play for survival points. C-10: an Insurgent side played by a
person fades with no roll; the Jungle Ghost fades by its own Disengagement Check (DD-10.11–10.14,
``game.rules.jungle_ghost``), and this chapter stands aside in its games.

The Insurgent chooses during the Engagement phase, as nothing is sent in Phase 3: the free side action
``fade`` {element, into} (no activation, no Ambush Token, the impulse goes on, seen by the Insurgent
alone) gives an element its Fade order, ``into`` one of ``edge`` (a Blind on the designated jungle edge),
the id of one of its tunnel entrances (a Blind there), ``off`` (removed for survival points) or ``stay``
(the order withdrawn). The orders are carried out in the Consolidation & Fade step (:func:`consolidation`,
the chapter step at consolidation 30, after the Bleed and before the Pinned rally, DD-2.31–2.33), where
each element's eligibility is checked again: one Pinned by then, or with an enemy stand within 4", stays
(an Insurgent-only note citing DD-2.32; C-10).

Snatch & Fade (DD-3.13): the fading unit takes every Communist Casualty Token within 4" of its bases
(:func:`snatch`, also the Jungle Ghost's, DD-10.12); a token so taken scores nothing (DD-3.14). Capture
(DD-3.14, G-33 (4), :func:`capture`): a Communist token in base contact with an Allied stand, with no
unpinned Insurgent stand within 2", is taken by the Allies for +1 VP at the start of the step, before any
unit fades (the Allied stand got there first). NVA/VC squads never stop to drag their casualties
(DD-3.12): Litter Drag is Allied only (``casevac.LitterLink`` refuses them, citing DD-3.12), so an Insurgent
element keeps its full move and its full FP whatever tokens lie about it.

Engine policies (docs/fade.md):

* An element fades whole (coherency, DD-1.8): none of its living stands may have an enemy stand within
  4" (base edge to base edge); only stands on the table as miniatures count, since the Insurgent cannot
  know what is under an Allied Blind marker (DD-4.7, DESIGN §6). Only an element on the table fades:
  one under a Blind or in the Reserve Hand has no miniatures to take off.
* The tunnel entrances are the Insurgent's secret trapdoors (ambush points of kind ``tunnel``, DD-2.26).
* The designated jungle edge (no scenario names one): the jungle (``fade.toml [fade] jungle``) within
  ``edge_depth`` of the table edge nearest the Insurgent's set-up (its stands and Blinds in the scenario,
  or the edge opposite the Allied set-up); if no jungle lies along that edge, the jungle along any table
  edge (the nearest jungle edge); if there is none, that edge's strip itself. The Blind goes at the point
  of it nearest the fading element.
* The marker goes on the nearest spot, within ``place_within`` in 0.5" rings, where it and the stands
  under it are on the table and it lies on no enemy stand or other marker (DD-3.20); with no such spot
  the element does not fade.
* Survival points (G-30): −1 on the net VP track for each stand removed from play.
* Fog (DESIGN §6): the public sees the miniatures go (``fade``, with the tokens taken), a bare Blind
  marker appear (``blinds.place_blind``) and the VP move (``survival``); which Blind an element became,
  and where its tunnel is, the Insurgent alone (``fade_into``). The Blinds of one Phase 3 are placed in
  the order of their spots, not of the elements, so their ids tell nothing more.

What it leaves out: fading an element stand by stand, a Blind or reserve element fading, and a scenario
field naming the jungle edges (scenarios name none yet).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from shapely.geometry import Point, box
from shapely.ops import nearest_points, unary_union

from game.rules import fire
from game.rules.chapters import Chapter, Step, register_chapter, set_state, state_of, tables
from game.rules.data import DATA_DIR, Rulebook, check_chapter_refs, load_sections, refers
from game.rules.errors import IllegalAction
from game.rules.game import SideActionKind, register_side
from game.rules.offers import Items, Offer
from game.rules.state import Element, Stand, Token, base_of, token_shape
from game.world import shapes

if TYPE_CHECKING:
    from game.rules.game import Game

EDGES = ("south", "north", "west", "east")
EDGE = "edge"
OFF = "off"
STAY = "stay"
CLAUSE = "DD-2.32; C-10"


# -- the tables (game/data/fade.toml) -----------------------------------------------------------------
@dataclass(frozen=True)
class FadeRules:
    clause: str
    enemy_free: float
    survival_vp: int
    edge_depth: float
    jungle: list[str] = field(metadata=refers("terrain"))
    place_within: float


@dataclass(frozen=True)
class SnatchRules:
    clause: str
    reach: float


@dataclass(frozen=True)
class CaptureRules:
    clause: str
    enemy_free: float
    vp: int


@dataclass(frozen=True)
class FadeTables:
    fade: FadeRules
    snatch: SnatchRules
    capture: CaptureRules


def load_fade(directory: Path = DATA_DIR, book: Rulebook | None = None) -> FadeTables:
    """Load ``fade.toml`` strictly: its three sections, known keys, a clause in each, terrain the rulebook has."""
    name = "fade.toml"
    built, _ = load_sections(name, {"fade": FadeRules, "snatch": SnatchRules, "capture": CaptureRules}, directory)
    check_chapter_refs(name, {f"[{k}]": v for k, v in built.items()}, book)
    return FadeTables(**built)


def rules(g: Game) -> FadeTables:
    return tables(g.book, "fade")


# -- its state ----------------------------------------------------------------------------------------
@dataclass
class FadeState:
    """The Insurgent's Fade orders for this turn's Phase 3, and the elements gone for survival points."""

    orders: dict[str, str] = field(default_factory=dict)
    """Element id -> ``edge``, a tunnel entrance's id, or ``off`` (DD-2.32)."""
    faded: list[str] = field(default_factory=list)
    """Elements removed from play by the Fade (G-30 survival points): not Allied kills."""


def ghost_plays(g: Game) -> bool:
    """The Jungle Ghost plays the Insurgent side: its own Fade applies (DD-10.11, C-10)."""
    return g.state.solo is not None


# -- shared with the Jungle Ghost: Snatch & Fade and the capture (DD-3.13, DD-3.14) ---------------------
def snatch(g: Game, stands: list[Stand], reach: float) -> list[Token]:
    """DD-3.13 (DD-10.12): every Communist Casualty Token within ``reach`` of one of the fading stands'
    bases is taken with them (removed from the table). Returns the tokens taken."""
    s = g.state
    taken = [t for t in s.tokens if t.side == "insurgent" and t.state == "communist"
             and any(base_of(g.book, st).distance(token_shape(t)) <= reach for st in stands)]
    for t in taken:
        s.tokens.remove(t)
    return taken


def slip_away(g: Game, el: Element, reach: float, clause: str) -> tuple[list[Stand], list[Token]]:
    """A unit fades (DD-2.32, DD-10.12): it snatches its casualties (:func:`snatch`) and the public sees
    its miniatures go. The caller takes the stands off. Returns (its living stands, the tokens taken)."""
    stands = g.state.living(el)
    taken = snatch(g, stands, reach)
    g.emit({"type": "fade", "element": el.id, "stands": [st.id for st in stands], "tokens": [t.id for t in taken],
            "clause": clause,
            "text": f"{el.name} fades into the jungle" + (f", taking {len(taken)} casualty token(s)" if taken else "")})
    return stands, taken


def capture(g: Game, enemy_free: float, vp: int) -> None:
    """DD-3.14, G-33 (4): a Communist Casualty Token in base contact with an Allied stand and with no
    unpinned Insurgent stand within ``enemy_free`` is captured: removed, ``vp`` to the Allies (G-30)."""
    s = g.state
    contact = g.book.command.base_contact
    for t in list(s.tokens):
        if t.side != "insurgent" or t.state != "communist":
            continue
        shape = token_shape(t)
        if not any(base_of(g.book, st).distance(shape) <= contact for st in s.side_stands("allied")):
            continue
        if any(base_of(g.book, st).distance(shape) <= enemy_free for st in s.side_stands("insurgent")
               if not s.elements[st.element].pinned):
            continue
        s.tokens.remove(t)
        s.sides["allied"].vp += vp
        g.emit({"type": "capture", "token": t.id, "vp": s.sides["allied"].vp, "clause": "DD-3.14; G-33 (4); G-30",
                "text": f"Communist casualty token {t.id} captured: +{vp} VP"})


# -- who may fade, and where to (DD-2.32, C-10) ---------------------------------------------------------
def ineligible(g: Game, el: Element) -> str | None:
    """Why ``el`` may not Fade now (DD-2.32, C-10), or None when it may."""
    s = g.state
    if not s.on_table(el):
        return f"{el.name} is not on the table as miniatures"
    if el.pinned:
        return f"{el.name} is Pinned"
    reach = rules(g).fade.enemy_free
    foes = s.side_stands(s.other(el.side))
    if fire.within_reach(g, s.living(el), foes, reach):
        return f"{el.name} has an enemy stand within {reach:g}\""
    return None


def tunnels(g: Game) -> list[dict]:
    """The Insurgent's tunnel entrances, by id: its secret trapdoors (DD-2.26) and the open surface sections
    of its tunnel network (DD-9B.4, ``game.rules.tunnels``); a collapsed or gassed one is refused (DD-9B.7,
    G-35: nothing enters there)."""
    from game.rules.tunnels import fade_entrances

    return fade_entrances(g, [p for p in g.state.ambush_points if p["kind"] == "tunnel"])


def destinations(g: Game) -> list[str]:
    """What ``into`` may name (DD-2.32): the jungle edge, each tunnel entrance, or off the table."""
    return [EDGE, *(p["id"] for p in tunnels(g)), OFF]


def home_edge(g: Game) -> str:
    """The table edge nearest the Insurgent's set-up in the scenario (its stands on the table and its
    Blinds); with none, the edge opposite the one nearest the Allied set-up."""
    sc = g.scenario
    pts = [(st.x, st.y) for e in sc.elements if e.side == "insurgent" and not getattr(e, "reserve", False)
           for st in e.stands] + [(b.x, b.y) for b in sc.blinds if b.side == "insurgent"]
    flip = False
    if not pts:
        pts = [(st.x, st.y) for e in sc.elements if e.side == "allied" for st in e.stands] or [(0.0, sc.height / 2)]
        flip = True
    mx, my = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    d = {"south": my, "north": sc.height - my, "west": mx, "east": sc.width - mx}
    edge = min(d, key=lambda k: (d[k], k))
    return {"south": "north", "north": "south", "west": "east", "east": "west"}[edge] if flip else edge


def jungle_edge(g: Game):
    """The designated jungle edge (engine policy, module docstring): a shape on the table."""
    f = rules(g).fade
    w, h, depth = g.scenario.width, g.scenario.height, f.edge_depth
    strips = {"south": box(0, 0, w, depth), "north": box(0, h - depth, w, h),
              "west": box(0, 0, depth, h), "east": box(w - depth, 0, w, h)}
    jungle = unary_union([hit.shape for hit in g.table.hits if hit.feature.type in f.jungle])
    home = home_edge(g)
    along = strips[home].intersection(jungle)
    if along.area > 0:
        return along
    every = unary_union([strips[e].intersection(jungle) for e in EDGES])
    return every if every.area > 0 else strips[home]


def _start(g: Game, el: Element, into: str) -> tuple[float, float] | None:
    """Where the marker would go before the search for a clear spot."""
    if into == EDGE:
        cx, cy = _centre(g.state.living(el))
        p = nearest_points(jungle_edge(g), Point(cx, cy))[0]
        return round(p.x, 2), round(p.y, 2)
    point = next((p for p in tunnels(g) if p["id"] == into), None)
    return (point["x"], point["y"]) if point is not None else None


def _centre(stands: list[Stand]) -> tuple[float, float]:
    return sum(st.x for st in stands) / len(stands), sum(st.y for st in stands) / len(stands)


def _clear(g: Game, el: Element, x: float, y: float, others: list[tuple[float, float]]) -> bool:
    """May the marker stand here, with ``el``'s stands under it: on the table, on no enemy stand and on
    no other marker (DD-1.2, DD-3.20)?"""
    from game.rules.detection import rules as detection_rules

    r = detection_rules().spotting.marker_radius  # DD-4.7: the marker's disc
    disc = Point(x, y).buffer(r)
    if not g.table.within_table(disc):
        return False
    s = g.state
    if any(shapes.overlap(base_of(g.book, st), disc) > 1e-6 for st in s.side_stands(s.other(el.side))):
        return False
    marks = [(b.x, b.y) for b in s.blinds.values()] + others
    if any(math.hypot(bx - x, by - y) < 2 * r for bx, by in marks):
        return False
    stands = s.living(el)
    cx, cy = _centre(stands)
    return all(g.table.within_table(base_of(g.book, Stand(**{**st.__dict__, "x": st.x - cx + x, "y": st.y - cy + y})))
               for st in stands)


def blind_spot(g: Game, el: Element, into: str,
               others: list[tuple[float, float]] | None = None) -> tuple[float, float] | None:
    """Where ``el``'s Blind goes for ``into`` (engine policy): the nearest clear spot, or None."""
    start = _start(g, el, into)
    if start is None:
        return None
    x, y = start
    limit = rules(g).fade.place_within
    for ring in range(0, int(limit / 0.5) + 1):
        rad = ring * 0.5
        steps = 1 if ring == 0 else 8 * ring
        for k in range(steps):
            ang = 2 * math.pi * k / steps
            px, py = round(x + rad * math.cos(ang), 2), round(y + rad * math.sin(ang), 2)
            if _clear(g, el, px, py, others or []):
                return px, py
    return None


def _where(g: Game, into: str) -> str:
    if into == EDGE:
        return "a Blind on the jungle edge"
    if into == OFF:
        return "off the table for survival points"
    return f"a Blind at tunnel entrance {into}"


# -- the action: a Fade order (free, the Insurgent's own) ----------------------------------------------
@dataclass(frozen=True)
class FadePlan:
    element: Element
    into: str


class FadeOrder(SideActionKind):
    """DD-2.32: the Insurgent gives an element its Fade order for Phase 3 (free; the impulse goes on)."""

    type = "fade"
    free = True

    def offers(self, g: Game, side: str) -> list[dict]:
        if side != "insurgent" or ghost_plays(g):
            return []
        st = state_of(g, "fade")
        orders = st.orders if st is not None else {}
        dests = tuple(destinations(g))
        out: list[dict] = []
        for el in g.state.elements.values():
            if el.side != side or not g.state.on_table(el):
                continue
            current = orders.get(el.id)
            # what the offer reads besides the table and the element: its order now, where it may go
            out += g.kept(el, ("fade", current, dests), functools.partial(self._offer, g, el, current, dests))
        return out

    def _offer(self, g: Game, el: Element, current: str | None, dests: tuple[str, ...]) -> list[dict]:
        if ineligible(g, el) is not None:
            choices = [STAY] if current else []
        else:
            choices = [d for d in dests if d != current] + ([STAY] if current else [])
        if not choices:
            return []
        label = (f"{el.name}: change its Fade order (now {_where(g, current)})" if current
                 else f"{el.name}: Fade in Phase 3")
        return [Offer({"type": self.type, "element": el.id, "side": el.side, "cost": 0, "tokens": 0, "clause": CLAUSE,
                       "label": label + " (free)",
                       "params": Offer({"into": Offer({
                           "kind": "choice", "choices": Items(choices),
                           "doc": "edge: a Blind on the designated jungle edge; a tunnel entrance; off: removed for "
                                  "survival points; stay: no Fade"})})})]  # read-only as made (game.rules.offers)

    def check(self, g: Game, side: str, action: dict) -> FadePlan:
        if side != "insurgent":
            raise IllegalAction("only the Insurgent side Fades", "DD-2.32")
        if ghost_plays(g):
            raise IllegalAction("the Jungle Ghost fades by its own Disengagement Check", "DD-10.11; C-10")
        eid = action.get("element")
        el = g.state.elements.get(eid) if isinstance(eid, str) else None
        if el is None or el.side != side:
            raise IllegalAction(f"no Insurgent element {eid!r} to Fade", "DD-2.32")
        into = action.get("into")
        st = state_of(g, "fade")
        if into == STAY:
            if st is None or el.id not in st.orders:
                raise IllegalAction(f"{el.name} has no Fade order to withdraw", "DD-2.32")
            return FadePlan(el, STAY)
        why = ineligible(g, el)
        if why is not None:
            raise IllegalAction(f"{why}: it may not Fade", CLAUSE)
        if not isinstance(into, str) or into not in destinations(g):
            raise IllegalAction(f"no designated jungle edge or tunnel entrance {into!r} (into: edge, off, stay "
                                "or a tunnel entrance)", "DD-2.32")
        if into != OFF and blind_spot(g, el, into) is None:
            raise IllegalAction(f"no room for {el.name}'s Blind marker there", "DD-2.32; DD-3.20")
        return FadePlan(el, into)

    def act(self, g: Game, side: str, action: dict) -> None:
        self.resolve(g, side, action, self.check(g, side, action))

    def resolve(self, g: Game, side: str, action: dict, plan: FadePlan) -> None:
        el, into = plan.element, plan.into
        st = state_of(g, "fade")
        if st is None:
            st = FadeState()
            set_state(g, "fade", st)
        if into == STAY:
            st.orders.pop(el.id, None)
            text = f"{el.name} will not Fade"
        else:
            st.orders[el.id] = into
            st.orders = dict(sorted(st.orders.items()))
            text = f"{el.name} will Fade in Phase 3: {_where(g, into)}"
        g.emit({"type": "fade_declared", "element": el.id, "into": into, "clause": CLAUSE, "text": text},
               visible=side)


# -- Phase 3 (DD-2.32) ----------------------------------------------------------------------------------
def consolidation(g: Game) -> None:
    """The Consolidation & Fade step for an Insurgent played by a person: the Allies' captures (DD-3.14),
    then every Fade order, eligibility checked again (DD-2.32, C-10), with Snatch & Fade (DD-3.13)."""
    if ghost_plays(g):
        return
    t = rules(g)
    capture(g, t.capture.enemy_free, t.capture.vp)
    st = state_of(g, "fade")
    if st is None or not st.orders:
        return
    s = g.state
    orders, st.orders = sorted(st.orders.items()), {}
    going: list[tuple[Element, str]] = []
    for eid, into in orders:
        el = s.elements[eid]
        why = ineligible(g, el)
        if why is None and into != OFF and _start(g, el, into) is None:
            why = f"no tunnel entrance {into}"
        if why is not None:
            g.emit({"type": "note", "element": eid, "clause": CLAUSE, "text": f"{why}: it does not Fade"},
                   visible=el.side)
            continue
        going.append((el, into))
    spots: dict[str, tuple[float, float]] = {}
    bound = sorted(((_start(g, el, into), el.id, el, into) for el, into in going if into != OFF),
                   key=lambda x: (x[0], x[1]))
    for _, eid, el, into in bound:
        spot = blind_spot(g, el, into, list(spots.values()))
        if spot is None:
            g.emit({"type": "note", "element": eid, "clause": f"{CLAUSE}; DD-3.20",
                    "text": f"No room for {el.name}'s Blind marker: it does not Fade"}, visible=el.side)
            continue
        spots[eid] = spot
    for el, into in going:
        if into != OFF and el.id not in spots:
            continue
        stands, _ = slip_away(g, el, t.snatch.reach, f"{CLAUSE}; DD-3.13")
        if into == OFF:
            for x in stands:
                x.alive = False
            st.faded.append(el.id)
            s.sides["allied"].vp += t.fade.survival_vp * len(stands)
            g.emit({"type": "survival", "element": el.id, "stands": [x.id for x in stands],
                    "vp": s.sides["allied"].vp, "clause": "DD-2.32; G-30",
                    "text": f"{el.name} slips away for good: {t.fade.survival_vp * len(stands):+d} VP"})
    from game.rules.blinds import place_blind

    placed = sorted(spots.items(), key=lambda kv: (kv[1], kv[0]))
    for eid, (x, y) in placed:
        b = place_blind(g, "insurgent", x, y, elements=[eid])
        into = dict(orders)[eid]
        g.emit({"type": "fade_into", "element": eid, "into": into, "blind": b.id, "x": b.x, "y": b.y,
                "clause": CLAUSE, "text": f"{s.elements[eid].name} is now Blind {b.id} ({_where(g, into)})"},
               visible="insurgent")


class FadeChapter(Chapter):
    """DD-2.32, DD-3.13–3.14 on the chapter seam: the Fade of an Insurgent side played by a person."""

    id = "fade"
    title = "DD-2.32: the Fade"
    actions = ("fade",)
    state_type = FadeState

    def active(self, g: Game) -> bool:
        return not ghost_plays(g)

    def new_state(self, g: Game) -> None:
        return None  # made by the first Fade order, so a game without one keeps its state (and hash)

    def load_tables(self, book: Rulebook) -> FadeTables:
        return load_fade(book=book)

    def steps(self) -> tuple[Step, ...]:
        return (Step("consolidation", 30, consolidation, "DD-2.32; DD-3.13; DD-3.14", self.id),)


register_side(FadeOrder())
CHAPTER = register_chapter(FadeChapter())
