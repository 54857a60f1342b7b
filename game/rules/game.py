"""One game of Dinky Dau: the state, the legal actions, acting, and what each side may know.

``Game`` is the rules engine's single entry point. It holds the state, the rulebook, the plan-view
table and the dice; ``legal_actions(side)`` lists what a side may do now, each action with its CP
cost and clause and its free parameters described; ``check(side, action)`` makes every check the rules
make of one action and returns its :class:`Plan`, changing nothing; ``act(side, action)`` is ``check``
then the plan resolved, and returns the events it caused; ``view(side)`` renders what that side knows
(DESIGN §6). ``check`` is the one rules check: ``act``, the odds preview (``odds.preview``) and the
computer players' ``SideView.check`` (game/ai/facade.py) all ask it.

An activation is one action (C-13): 1 CP In Command, 2 CP Out of Command, or 1 CP and an emergency
Morale test (DD-1.14–1.16); an element activates at most twice a turn with at most one move (G-28).
Insurgent elements activate once a turn free, a second time for an Ambush Token (G-28 (4)).

What it leaves out, for the chapters that fill it: shooting, assault and reactions (ch. 5), spotting
and blinds moving (ch. 4) as action kinds; CASEVAC (ch. 6), fire support (ch. 8) and the Jungle Ghost
(ch. 10) through the chapter seam (``game.rules.chapters``, docs/chapters.md).
"""

from __future__ import annotations

import copy
import functools
import math
import operator
import threading
import weakref
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from game.rules import changes, chapters, memo
from game.rules import turn as turn_rules
from game.rules.changes import REST, TABLE
from game.rules.command import activation_costs, coherent, command_status
from game.rules.data import SIDES, Rulebook, rulebook
from game.rules.dice import Dice, seed_streams
from game.rules.errors import IllegalAction
from game.rules.movement import MODES, apply_move, base_allowance, centre, plan_move
from game.rules.offers import Items, Offer, freeze, freeze_all
from game.rules.scenario import Scenario
from game.rules.state import Blind, Element, GameState, Stand, base_of, bounds_of, initial_state
from game.rules.terrain_changes import burnt_polygons
from game.world import shapes
from game.world.features import apart
from game.world.tablemap import TableMap

RULESET = "dinky_dau"
CORE_ACTIONS = ("move", "take_five", "rally", "hold", "pass")


class Recent:
    """A bounded map that keeps what was asked lately: two generations of at most ``limit`` entries; when
    the young one is full it becomes the old one and the old one is dropped, and a hit in the old one is
    carried into the young one. Memory stays under ``2 * limit`` entries however long the process runs;
    what is asked often (the sightlines of the starting positions) stays."""

    __slots__ = ("limit", "young", "old")

    def __init__(self, limit: int):
        self.limit = limit
        self.young: dict = {}
        self.old: dict = {}

    def __len__(self) -> int:
        return len(self.young) + len(self.old)

    def __contains__(self, key: Any) -> bool:
        return key in self.young or key in self.old

    def get(self, key: Any) -> Any:
        value = self.young.get(key)
        if value is None:
            value = self.old.get(key)
            if value is not None:
                self.put(key, value)
        return value

    def put(self, key: Any, value: Any) -> None:
        if len(self.young) >= self.limit:
            self.old, self.young = self.young, {}
        self.young[key] = value


class TableCache:
    """What every game on one table shares in the process: the table's ray scene (``TableLOS``, built on
    first use), the sightlines traced on it and the ground heights asked (both immutable answers). A game
    holds its table's entry, so the entry lives while a game uses it, or while it is one of the
    ``KEEP_TABLES`` tables opened last (the shipped scenarios stay warm between games); then it goes,
    ray scene and all: a process that plays thousands of distinct inline tables keeps only a few."""

    def __init__(self, key: str):
        self.key = key
        self.los: Any = None
        self.results = Recent(SIGHTLINES_KEPT)
        """Traced sightlines, by (observer, observer, conditions)."""
        self.elevations = Recent(ELEVATIONS_KEPT)
        """Ground heights, by the point rounded to 0.001"."""
        self.lock = threading.Lock()
        """Held while the ray scene is built, so two games opening a table at once build it once."""
        self.maps: dict[int, tuple[Rulebook, TableMap, dict]] = {}
        """The table's terrain in plan view (``TableMap``) and the answers kept by ``Game.measure``, by the
        rulebook read for them (its id; the book held so the id stays its own). Both answer from where
        things stand alone, so every game on the table shares them; a game whose table changed in play
        (craters, burnt ground) has a map and answers of its own."""

    def table_map(self, scenario: Scenario, book: Rulebook) -> tuple[TableMap, dict]:
        """The table's plan-view terrain as ``book`` reads it and the ``Game.measure`` answers on it, made
        once for every game on the table."""
        kept = self.maps.get(id(book))
        if kept is None or kept[0] is not book:
            with self.lock:  # two games opening the table at once make it once
                kept = self.maps.get(id(book))
                if kept is None or kept[0] is not book:
                    kept = self.maps[id(book)] = (book, TableMap(scenario.width, scenario.height, scenario.features,
                                                                 book), {})
        return kept[1], kept[2]


KEEP_TABLES = 4
"""Tables kept after their last game ends (the most recently opened first)."""
SIGHTLINES_KEPT = 1_500
"""Sightlines a table keeps per generation (``Recent``): some ten games' worth of new ones (a result is
most of a KB), so a table kept warm stops growing after its first games."""
ELEVATIONS_KEPT = 10_000
"""Ground heights a table keeps per generation."""
_TABLES: weakref.WeakValueDictionary[str, TableCache] = weakref.WeakValueDictionary()
"""Every table a live game holds, or that is kept in ``_RECENT``, by ``scenario_key``."""
_RECENT: OrderedDict[str, TableCache] = OrderedDict()
"""The ``KEEP_TABLES`` tables opened last, oldest first."""
_TABLES_LOCK = threading.Lock()


def table_cache(key: str) -> TableCache:
    """The shared entry of a table (made if no game holds it and it is not kept), now the most recent."""
    with _TABLES_LOCK:
        entry = _TABLES.get(key)
        if entry is None:
            entry = _TABLES[key] = TableCache(key)
        _RECENT[key] = entry
        _RECENT.move_to_end(key)
        while len(_RECENT) > KEEP_TABLES:
            _RECENT.popitem(last=False)
        return entry


def live_tables() -> list[str]:
    """The keys of the tables held in the process now (by a game, or kept): for tests and benchmarks."""
    with _TABLES_LOCK:
        return list(_TABLES.keys())


def scenario_key(scenario: Scenario) -> str:
    """A key for a scenario's table: the same terrain shares one ray scene in a process."""
    import hashlib
    import json

    blob = json.dumps([scenario.width, scenario.height, [f.__dict__ for f in scenario.features]],
                      sort_keys=True, default=list)
    return hashlib.sha256(blob.encode()).hexdigest()


@lru_cache(maxsize=1 << 11)
def _observer(x: float, y: float, facing: float, width: float, depth: float, eye: float | None = None,
              hull: float = 0.0):
    """An LOS observer (immutable), shared by every question about the same footprint; a vehicle's with
    its crew's ``eye`` height and its ``hull`` top (game.rules.vehicles)."""
    from game.world.los import Observer

    if eye is None:
        return Observer(x=x, y=y, facing=facing, width=width, depth=depth)
    return Observer(x=x, y=y, facing=facing, width=width, depth=depth, eye_height=eye, body_height=hull)


def _footprint(thing: Stand | Blind) -> tuple:
    """What a sightline depends on at one end: a stand's base where it stands, a marker's disc."""
    if isinstance(thing, Blind):
        return None, thing.x, thing.y
    return thing.type, thing.x, thing.y, thing.facing


def _as_stand(thing: Stand | Blind) -> Stand:
    """A Blind marker as a stand-like point, for ``Game.los_override`` (which is called with stands)."""
    if isinstance(thing, Blind):
        return Stand(id=f"blind:{thing.id}", type="", element="", side=thing.side, x=thing.x, y=thing.y,
                     facing=0.0)
    return thing


class ActionKind:
    """An action type added by a rules chapter (shooting, spotting, ...), registered in ``ACTION_KINDS``.

    ``offers`` lists the concrete actions an element may take now (each a dict like the core ones,
    built on ``common``); ``check`` validates a sent action and returns a plan, raising IllegalAction
    before anything is paid; ``resolve`` carries the plan out after the activation is paid.
    ``is_move`` marks actions that use the element's one move of the turn (G-28 (2)).
    """

    type: str = ""
    is_move: bool = False
    chapter: str | None = None
    """The chapter whose rules it belongs to, when they take part in only some games: where that chapter
    is not active (``Chapter.active``) the kind offers nothing, so its ``offers`` is not asked."""

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        return []

    def possible(self, g: Game, side: str, types: frozenset[str]) -> bool:
        """Could ``offers`` ever list anything in this game for an element of ``side`` whose stands are of
        ``types`` (their ``stands.toml`` ids)? Answered from what a game never changes (the scenario, the
        rulebook, the kinds of stand); False spares every listing asking ``offers`` for such an element
        (tests/rules/test_possible.py plays games and checks ``offers`` lists nothing wherever it says
        False). True: ask ``offers``."""
        return True

    def check(self, g: Game, el: Element, action: dict) -> Any:
        return None

    def resolve(self, g: Game, el: Element, action: dict, plan: Any) -> None:
        return None


ACTION_KINDS: dict[str, ActionKind] = {}


class SideActionKind(ABC):
    """An action a side takes with something that is not an element on the table: a Blind marker
    (move, hold), a Green Ghost reserve (spring), registered in ``SIDE_ACTIONS`` (game.rules.blinds).

    ``offers`` lists the concrete actions the side may take now; ``check`` raises IllegalAction for an
    action the rules refuse, changing nothing, else returns its plan (``Game.check`` asks it);
    ``resolve`` pays for a checked plan and carries it out (``Game.act``); ``act`` is the two in one.
    The impulse then ends (unless the kind is ``free``).
    """

    type: str = ""

    def offers(self, g: Game, side: str) -> list[dict]:
        return []

    @abstractmethod
    def check(self, g: Game, side: str, action: dict) -> Any:
        """Raise IllegalAction (with the clause) if the rules refuse the action; else its plan."""

    def resolve(self, g: Game, side: str, action: dict, plan: Any) -> None:
        """Pay for and carry out a plan ``check`` returned for this action, in this state. A kind that
        does not split its ``act`` gets it run whole (its check again, which changes nothing)."""
        self.act(g, side, action)

    @abstractmethod
    def act(self, g: Game, side: str, action: dict) -> None:
        """Check, pay and resolve the action."""


SIDE_ACTIONS: dict[str, SideActionKind] = {}
ELEMENT_BARS: list[Callable[[Game, Element], IllegalAction | None]] = []
"""A chapter's rule that bars an element from acting at all now (TUN-16: Tunnel Rats without their escort):
it answers the refusal, or None; ``activatable`` and ``check`` ask each (registered by the chapter)."""
FROM_BLIND: set[str] = set()
"""Element action types an element may take from under its Blind; they reveal it first (DD-4.11)
unless they are also in ``QUIET_FROM_BLIND`` (spotting: looking gives nothing away)."""
QUIET_FROM_BLIND: set[str] = set()


def register(kind: ActionKind) -> ActionKind:
    ACTION_KINDS[kind.type] = kind
    return kind


def register_side(kind: SideActionKind) -> SideActionKind:
    SIDE_ACTIONS[kind.type] = kind
    return kind


@dataclass(frozen=True)
class Plan:
    """An action ``Game.check`` found legal, with what its checks worked out, for ``Game.act`` to resolve
    in the state it was checked in (a plan is stale once anything has changed)."""

    side: str
    type: str
    action: dict
    element: Element | None = None
    """The acting element (an element action), else None (a pass, a side action)."""
    option: dict | None = None
    """The element's activation option: its CP or Ambush Token cost, whether it takes the emergency
    Morale test (DD-1.14–1.16, G-28 (4))."""
    detail: Any = None
    """The chapter's own plan: a move's placements (``movement.plan_move``), an attack, a Blind's move..."""


READERS = ("allied", "insurgent", "referee", "all")
"""Who reads events, each in its own numbering (``Game.emit``): the two sides, the referee (everything)
and the public ("all": the events visible to all)."""


def _reads(reader: str, visible: str) -> bool:
    """May ``reader`` see an event emitted with ``visible``?"""
    return reader == "referee" or visible == "all" or visible == reader


_STEPS: dict[str, tuple[int, ...]] = {}
"""How each reader's event number moves for an event emitted with ``visible`` (1 where it may read it)."""
_NONE_READ = (0,) * len(READERS)


def vehicle_moves(g: Game, el: Element, mode: str) -> bool:
    """May this vehicle element make a move of this mode (``vehicles.refuse_move``)?"""
    from game.rules.vehicles import refuse_move

    try:
        refuse_move(g, el, mode)
    except IllegalAction:
        return False
    return True


def action_types() -> tuple[str, ...]:
    return _registered()[0]


def _registered() -> tuple[tuple[str, ...], list[tuple[str, ActionKind]]]:
    """(every action type, the element action kinds in a stable order whatever the import order), made
    again when a chapter registers a kind (kinds are only ever added)."""
    global _KINDS
    if _KINDS[0] != (len(ACTION_KINDS), len(SIDE_ACTIONS)):
        _KINDS = ((len(ACTION_KINDS), len(SIDE_ACTIONS)),
                  (CORE_ACTIONS + tuple(sorted(ACTION_KINDS)) + tuple(sorted(SIDE_ACTIONS)),
                   sorted(ACTION_KINDS.items())))
    return _KINDS[1]


_KINDS: tuple = ((-1, -1), ((), []))


_FACING = freeze({"kind": "angle", "optional": True, "doc": "new facing of every stand, degrees"})
_PLACEMENTS = freeze({"kind": "placements", "optional": True,
                      "doc": "instead of 'to': {stand id: [x, y, facing]} for every stand"})
"""A move's parameters that are the same in every offer (read-only, ``game.rules.offers``)."""


_SIGHT_READS: tuple = ()
"""The chapters' readers of what blocks or lights sightlines (``Game.sight_key``), imported when first asked."""


def _sight_reads() -> tuple:
    global _SIGHT_READS
    from game.rules.fire_support.missions import lights_now
    from game.rules.night import lit_circles
    from game.rules.vehicles import hulls_now
    from game.rules.weather import sight_turn

    _SIGHT_READS = (lights_now, lit_circles, hulls_now, sight_turn)
    return _SIGHT_READS


def _pass_offer(side: str) -> Offer:
    return freeze({"type": "pass", "side": side, "cost": 0, "clause": "G-28 (6)", "label": "Pass the impulse",
                   "params": {}})


_PASS = {side: _pass_offer(side) for side in SIDES}
"""Each side's offer to pass its impulse (G-28 (6)): the same at every listing, made read-only once."""


class Game:
    """A game in progress."""

    def __init__(self, scenario: Scenario, seed: int, book: Rulebook | None = None,
                 state: GameState | None = None, start: bool = True, threat: int = 2):
        self.scenario = scenario
        self.book = book or rulebook()
        self.scenario_key = scenario_key(scenario)
        self.table, self.measured = self.shared.table_map(scenario, self.book)
        """The table's terrain in plan view, and the answers that depend only on where things stand
        (``measure``): both shared by every game on the table (``TableCache.table_map``) until this
        one's table changes in play (``changed``, ``forget_table``)."""
        self.los_override: Callable[[Stand, Stand], Any] | None = None
        self._conditions: tuple | None = None
        self._sightlines: tuple = (None, {})
        """(the sight conditions, the sightlines answered under them, by the two ends' footprints)."""
        self._prefetched: tuple = (None, {})
        self._los = None
        self._listed: tuple = (None, ())
        """The last listing: (its key: the side, the override, the state and its ``changes.versions``;
        its read-only offers)."""
        self._keyed: tuple = ()
        """The state and override the keys name by id, held so no other object takes their ids."""
        self._table: tuple = (None, b"", {}, {})
        """While the table stands still (its ``changes.versions`` counter, ``sight_key``,
        ``los_override``): (the override, the table's key, ``memo.table_memo`` answers, offers kept per
        element (``kept``))."""
        self._sight: tuple = (None, -1, -1, ())
        """``sight_key`` as last made: (the state, its two ``changes.versions`` counters, the key)."""
        self.echoes_checked: tuple = (None, None, -1, ())
        """When ``detection.after_action`` last finished: (the state, the override, the table's counter,
        ``sight_key``)."""
        self.listing_memo: dict | None = None
        """``memo.table_memo`` answers, while a listing is made (None otherwise)."""
        self._impossible: dict[tuple[str, frozenset[str]], frozenset[str]] = {}
        """``never_offered``'s answers, by side and kinds of stand."""
        self.events: list[dict] = []
        self._numbers: dict[int, tuple[int, ...]] = {}
        """Each reader's event numbers (``READERS``) after the event with this ``seq`` (``emit``)."""
        if state is None:
            if threat not in (1, 2, 3):
                raise ValueError(f"threat level must be 1, 2 or 3 (DD-10.5), got {threat!r}")
            state = initial_state(scenario, seed, seed_streams(seed))
            state.threat = threat
            self.state = state
            state.chapters = chapters.new_states(self)  # each chapter's state in a new game
        self.state = state
        if state.terrain_changes:  # craters and burnt ground made in play (DD ch. 8; terrain_changes.py)
            self.table = self.table.changed(state.terrain_changes)
            self.measured = {}
        self.dice = Dice(self.state.rng)
        if self.state.phase == "setup" and self.state.weather == "roll":
            from game.rules.weather import roll_at_setup

            roll_at_setup(self)  # DD-9A.5, G-07: the Tropical Weather Table, before the first turn
        if start and self.state.turn == 0:
            turn_rules.start_turn(self)

    # -- events ----------------------------------------------------------------------------------
    def emit(self, event: dict, visible: str = "all") -> dict:
        """Record an event. ``visible`` is the side that may see it, or "all" (DESIGN §6).

        ``seq`` (``state.seq``) numbers every event in order: the engine's own ordering, never shown to
        a reader, since a gap in it would count the enemy's hidden events. Each reader (either side,
        the referee, the public) numbers the events it may see 1, 2, 3, ... with no gaps; those
        numbers are kept by ``seq`` (:meth:`events_for`), so a call rolled back (its events deleted,
        the state put back) gives the next event the numbers again."""
        s = self.state
        s.seq += 1
        seq = s.seq
        step = _STEPS.get(visible)
        if step is None:
            step = _STEPS[visible] = tuple(int(_reads(r, visible)) for r in READERS)
        self._numbers[seq] = tuple(map(operator.add, self._numbers.get(seq - 1, _NONE_READ), step))
        ev = {"seq": seq, **event, "_visible": visible}
        self.events.append(ev)
        return ev

    def visibility_of_element(self, element: Element) -> str:
        return element.side if element.hidden else "all"

    def events_for(self, side: str, events: list[dict], since: int = 0) -> list[dict]:
        """The events a side may see, after its number ``since``, without the engine's bookkeeping and
        numbered (``seq``) in the side's own sequence: 1, 2, 3, ... over the events it may see, with no
        gap for an event it may not (DESIGN §6). ``side`` is "allied", "insurgent", "referee" (every
        event) or anything else for the public events only."""
        reader = READERS.index(side if side in READERS else "all")
        out = []
        for ev in events:
            if not _reads(READERS[reader], ev.get("_visible", "all")):
                continue
            numbers = self._numbers.get(ev.get("seq"))
            n = numbers[reader] if numbers is not None else ev.get("seq", 0)
            if n <= since:
                continue
            out.append({"seq": n, **{k: v for k, v in ev.items() if k not in ("seq", "_visible")}})
        return out

    # -- what a side may know of (DESIGN §6) -------------------------------------------------------
    def knows_element(self, side: str, el: Element) -> bool:
        """May ``side`` know that this element exists? Its own; an enemy element only while it is on the
        table as miniatures, as its view lists it (``views.render_view``); the referee all. A refusal
        treats any other id exactly like one that does not exist (DESIGN §6, DD-4.7, DD-4.8)."""
        return side in ("referee", el.side) or (not el.hidden and bool(self.state.living(el)))

    def knows_stand(self, side: str, st: Stand) -> bool:
        """May ``side`` know of this stand? Its own; an enemy stand only while it is alive on the table
        as a miniature (in its view's ``stands``); the referee all (DESIGN §6)."""
        return side in ("referee", st.side) or (st.alive and not self.state.elements[st.element].hidden)

    def seq_for(self, side: str) -> int:
        """The number of the last event ``side`` may see, in its own sequence (the view's ``seq``)."""
        numbers = self._numbers.get(self.state.seq)
        return numbers[READERS.index(side if side in READERS else "all")] if numbers is not None else 0

    # -- line of sight (DD chapter 4; game.world.los) ---------------------------------------------
    def observer(self, thing: Stand | Blind):
        """A stand as the LOS module sees it: its base footprint at its position; a Blind marker as a
        28 mm disc (DD-4.7)."""
        if isinstance(thing, Blind):
            from game.rules.detection import rules as detection_rules

            d = 2 * detection_rules().spotting.marker_radius
            return _observer(thing.x, thing.y, 0.0, d, d)
        b = self.book.base_of(thing.type)
        if self.book.stands[thing.type].vehicle:  # a vehicle sees from its crew's eye, is seen by its hull top
            from game.rules import vehicles

            v = vehicles.vehicle_type(self, thing)
            return _observer(thing.x, thing.y, thing.facing, b.width, b.depth, vehicles.eye_of(self, thing),
                             v.height if v is not None else 0.0)
        return _observer(thing.x, thing.y, thing.facing, b.width, b.depth)

    def prefetch_los(self, reach: float = 32.0) -> None:
        """Answer, in one batched trace, every sightline between the two sides' stands and Blind markers
        within ``reach`` that is not cached yet (no limit reaches further, DD-4.2, DD-4.41). Listing
        legal actions asks many of them; one batch costs a fraction of asking them one by one."""
        if self.los_override is not None:
            return
        s = self.state
        things: dict[str, list] = {"allied": [], "insurgent": []}
        where: dict[str, tuple] = {}
        for st in s.stands.values():
            if st.alive:
                things[st.side].append(st)
                where[st.id] = (st.x, st.y, st.facing)
        for b in s.blinds.values():
            things[b.side].append(b)
            where["blind:" + b.id] = (b.x, b.y)
        cond = self.conditions()
        # Only pairs with an end that moved (or appeared) since the last prefetch can be new.
        last_cond, last_where = self._prefetched
        moved = set(where) if last_cond != cond else {k for k, v in where.items() if last_where.get(k) != v}
        self._prefetched = (cond, where)
        if not moved:
            return
        obs: dict[str, Any] = {}  # each thing's observer, made once for all its pairs
        pairs = []

        def pair(a: Stand | Blind, ka: str, b: Stand | Blind, kb: str) -> None:
            if abs(a.x - b.x) > reach or abs(a.y - b.y) > reach or math.hypot(a.x - b.x, a.y - b.y) > reach:
                return
            oa, ob = obs.get(ka), obs.get(kb)
            if oa is None:
                oa = obs[ka] = self.observer(a)
            if ob is None:
                ob = obs[kb] = self.observer(b)
            pairs.extend(((oa, ob), (ob, oa)))

        allied = [(a, a.id if isinstance(a, Stand) else "blind:" + a.id) for a in things["allied"]]
        insurgent = [(b, b.id if isinstance(b, Stand) else "blind:" + b.id) for b in things["insurgent"]]
        for a, ka in allied:  # every pair with an end that moved, once: an Allied end that moved ...
            if ka in moved:
                for b, kb in insurgent:
                    pair(a, ka, b, kb)
        for b, kb in insurgent:  # ... or an Insurgent end that moved and an Allied one that did not
            if kb in moved:
                for a, ka in allied:
                    if ka not in moved:
                        pair(a, ka, b, kb)
        self._trace_observers(pairs, cond)

    def trace_sightlines(self, pairs: Iterable[tuple[Stand | Blind, Stand | Blind]]) -> None:
        """Answer, in one batched trace, the sightlines of these pairs (from the first to the second)
        that are not known yet, for ``line_of_sight`` to find: the same answers as asking one by one,
        for a fraction of the cost when there are a few of them."""
        if self.los_override is not None:
            return
        self._trace_observers([(self.observer(a), self.observer(b)) for a, b in pairs], self.conditions())

    def _trace_observers(self, pairs: list[tuple], cond: Any) -> None:
        """:meth:`trace_sightlines` for pairs of observers (``observer``) under the conditions ``cond``."""
        results = self.shared.results
        young, old = results.young, results.old  # (``Recent.__contains__``, without a call per pair)
        todo = list(dict.fromkeys(key for a, b in pairs if (key := (a, b, cond)) not in young and key not in old))
        if todo:
            answers = self.los_table().check_many([(k[0], k[1]) for k in todo], cond)
            for k, answer in zip(todo, answers, strict=True):
                results.put(k, answer)

    def sight_key(self) -> tuple:
        """The weather, the light and the smoke and dust that block sight now (DD-3.8, G-23, DD-5.34), the
        ground napalm burnt (G-19), the circles star shells light (DD-9A.3) and the hulls of the vehicles
        and wrecks on the table (G-01 T15; ``vehicles.hulls_now``: () in a game without vehicles)."""
        s, v = self.state, changes.versions
        kept = self._sight
        if kept[0] is s and kept[1] == v[TABLE] and kept[2] == v[REST]:
            return kept[3]  # nothing written since: the same key
        smoke = tuple((m.x, m.y, m.radius) for m in s.clocks if m.blocks_sight)
        # DD-5.34: a dust cloud lasts for the impulse it was raised in
        smoke += tuple((m["x"], m["y"], m["radius"]) for m in s.smoke
                       if (m["turn"], m["impulse"]) == (s.turn, s.impulse))
        lights_now, lit_circles, hulls_now, sight_turn = _SIGHT_READS or _sight_reads()
        # DD-9A.2, DD-9A.4: the trip flares' and Muzzle Bloom's lit circles beside the star shells' (() without);
        # G-07: the turn the weather's caps are read at (1 for a weather whose cap never changes)
        key = (s.weather, s.time_of_day, smoke, burnt_polygons(s), lights_now(self) + lit_circles(self),
               hulls_now(self), sight_turn(self))
        self._sight = (s, v[TABLE], v[REST], key)
        return key

    def conditions(self):
        """The weather, light and smoke that sightlines meet now (DD-3.8, G-23, DD-5.34)."""
        kept, made, v = self._sight, self._conditions, changes.versions
        if made is not None and made[0] is kept[3] and kept[0] is self.state and kept[1] == v[TABLE] and kept[2] == v[REST]:
            return made[1]  # nothing written since they were made for this sight key
        from game.world.los import Conditions

        memo = self.listing_memo
        if memo is not None and "conditions" in memo:
            return memo["conditions"]
        key = self.sight_key()
        if made is None or (made[0] is not key and made[0] != key):
            weather, time_of_day, smoke, burnt, lit, hulls, turn = key
            self._conditions = (key, Conditions(weather=weather, time_of_day=time_of_day, smoke=smoke,
                                                illuminated=lit, burnt=burnt, hulls=hulls, turn=turn))
        elif made[0] is not key:  # an equal key made again: the same conditions, kept under the new key
            self._conditions = (key, made[1])
        if memo is not None:
            memo["conditions"] = self._conditions[1]
        return self._conditions[1]

    def line_of_sight(self, a: Stand | Blind, b: Stand | Blind):
        """LOS between stands and/or Blind markers (a 28 mm disc, DD-4.7) on the real table (DD-4.1–4.6,
        DESIGN §7): a LosResult with visible, fraction, distance, canopy_inches, cutoff, blocker,
        clause. Tests may set ``self.los_override`` to a callable (a, b) -> result on hand-built
        tables; it is called with stands (a marker as a stand-like point)."""
        if self.los_override is not None:
            return self._on_water(a, b, self.los_override(_as_stand(a), _as_stand(b)))
        cond = self.conditions()
        if self._sightlines[0] is not cond:
            self._sightlines = (cond, {})
        seen = self._sightlines[1]
        key = (_footprint(a), _footprint(b))
        res = seen.get(key)
        if res is None:
            # Sightlines depend only on the table, the two ends and the conditions, and results are
            # immutable: one answer serves every game on this table in the process.
            results = self.shared.results
            traced = (self.observer(a), self.observer(b), cond)
            res = results.get(traced)
            if res is None:
                res = self.los_table().check(*traced)
                results.put(traced, res)
            if len(seen) > 100_000:
                seen.clear()
            seen[key] = res
        return self._on_water(a, b, res)

    def _on_water(self, a: Stand | Blind, b: Stand | Blind, res: Any) -> Any:
        """The river's word on a sightline (DD-9A.7–9A.8; ``riverine.water_sight``), in a river game only."""
        if "riverine" not in self.state.chapters:
            return res
        from game.rules.riverine import water_sight

        return water_sight(self, a, b, res)

    def measure(self, key: tuple, work: Callable[[], Any]) -> Any:
        """What ``work()`` answers, kept for the game under ``key``: for answers that depend only on
        where things stand (a gap between two bases, the area a base sweeps), never on the state."""
        answer = self.measured.get(key)
        if answer is None:
            if len(self.measured) > 50_000:
                self.measured.clear()
            answer = self.measured[key] = work()
        return answer

    def elevation(self, x: float, y: float) -> float:
        """Height of the ground at a point of the real table (hills, G-01 T14), cached per table."""
        heights = self.shared.elevations
        key = (round(x, 3), round(y, 3))
        height = heights.get(key)
        if height is None:
            if not any(self.book.terrain[f.type].elevation for f in self.scenario.features):
                return 0.0  # a flat table needs no ray scene
            height = float(self.los_table().elevation(*key))
            heights.put(key, height)
        return height

    @property
    def shared(self) -> TableCache:
        """This table's entry in the process (``TableCache``), held by the game from its first question."""
        entry = self.__dict__.get("_shared")
        if entry is None:
            entry = self.__dict__["_shared"] = table_cache(self.scenario_key)
        return entry

    def los_table(self):
        """The table's ray scene (``game.world.los.TableLOS``), shared by every game on the same table."""
        from game.world.los import TableLOS

        if self._los is None:
            entry = self.shared
            with entry.lock:
                if entry.los is None:
                    entry.los = TableLOS.from_scenario(self.scenario, self.book)
            self._los = entry.los
        return self._los

    # -- geometry helpers used by several chapters -----------------------------------------------
    def placement_ok(self, element: Element, moved: dict[str, Stand], explain: bool = False) -> bool:
        """Can these stands of one element stand here: on the table, overlapping no base (DD-3.20),
        in 2" coherency (DD-1.8)?"""
        try:
            elements = self.state.elements
            others = [(o, bounds_of(self.book, o)) for o in self.state.stands.values()  # each base's box once
                      if o.alive and o.element != element.id and not elements[o.element].hidden]
            for sid, st in moved.items():
                rect, box = base_of(self.book, st), bounds_of(self.book, st)
                if not self.table.within_table(rect):
                    raise IllegalAction(f"'{sid}' would end off the table", "DD-1.2")
                for o, obox in others:
                    if not apart(obox, box) and shapes.overlap(rect, base_of(self.book, o)) > 1e-6:
                        raise IllegalAction(f"'{sid}' would end overlapping '{o.id}'", "DD-3.20")
                for other_id, other in moved.items():
                    if other_id < sid and shapes.overlap(rect, base_of(self.book, other)) > 1e-6:
                        raise IllegalAction(f"'{sid}' would end overlapping '{other_id}'", "DD-3.20")
            if not coherent(self, element, moved):
                raise IllegalAction("every stand must end within 2\" of another stand of its element", "DD-1.8")
        except IllegalAction:
            if explain:
                raise
            return False
        return True

    # -- actions ---------------------------------------------------------------------------------
    def _check_turn(self, side: str) -> None:
        if side not in SIDES:
            raise IllegalAction(f"unknown side '{side}'", "DD-2.5")
        if self.state.over:
            raise IllegalAction("the game is over", "DD-2.34")
        if self.state.phase != "engagement":
            raise IllegalAction(f"no actions in the {self.state.phase} phase", "DD-2.1")
        if self.state.to_act != side:
            raise IllegalAction(f"it is the {self.state.to_act} side's impulse, not the {side} side's", "DD-2.5")

    def activatable(self, side: str) -> list[Element]:
        return [
            e for e in self.state.elements.values()
            if e.side == side and self.state.on_table(e) and e.activations < self.book.turn.max_activations
            and not any(bar(self, e) for bar in ELEMENT_BARS)
        ]

    def legal_actions(self, side: str) -> list[dict]:
        """Every action the side may take now, with cost, clause and free parameters (DESIGN §4).

        A listing depends on the state alone (and on ``los_override``, which must answer from its two
        arguments alone: set a new one to change its answers). So it is kept while the state is the same
        object and no write has touched it (``changes.versions``: a refused action changes nothing;
        players often ask again), and handed out again: each caller gets its own list of the same
        read-only offers (``game.rules.offers``: change a copy, ``dict(offer)``). Within a listing each
        element's offers are kept the same way while the table part of the state stands still, under the
        element's stamp (:meth:`kept`)."""
        s, v = self.state, changes.versions
        key = (side, id(self.los_override), id(s), v[TABLE], v[REST])
        if self._listed[0] != key:
            table = (id(self.los_override), id(s), v[TABLE], self.sight_key())
            if self._table[0] is not self.los_override or self._table[1] != table:
                self._table = (self.los_override, table, {}, {})
                self.prefetch_los()  # the sightlines the listing will ask, in one batch
            self.listing_memo = self._table[2]
            try:
                out = self._list_actions(side)
            finally:
                self.listing_memo = None
            self._listed = (key, tuple(freeze_all(out)))
            self._keyed = (s, self.los_override)  # what the keys name by id lives as long as they do
            if memo.VERIFY:
                memo.verify(self, key)
        elif memo.VERIFY:
            memo.verify(self, key)
        return list(self._listed[1])

    def kept(self, thing: Element | Blind, what: tuple, make: Callable[[], list[dict]]) -> list[dict]:
        """The offers ``make()`` lists for an element or a Blind, kept from an earlier listing while
        neither the table (its counter in ``changes.versions``) nor the thing itself (its stamp,
        ``changes.STAMP``) has changed; ``what`` names all else they read (the activation option, and so on). Only while listing; the offers are
        read-only (``game.rules.offers``), for they are handed out in every listing that keeps them."""
        assert self.listing_memo is not None, "offers are kept only while listing"
        kept = self._table[3]
        key = (what, thing._tstamp)  # the same stamp, the same thing (``changes.STAMP``)
        if memo.VERIFY:
            memo.verify_stamp(thing)
        if key not in kept:
            if len(kept) > 10_000:
                kept.clear()
            kept[key] = freeze_all(make())
        return kept[key]

    def _list_actions(self, side: str) -> list[dict]:
        try:
            self._check_turn(side)
        except IllegalAction:
            return []
        pool = self.state.sides[side]
        out: list[dict] = []
        for el in self.activatable(side):
            for opt in activation_costs(self, el):
                if opt["cost"] > pool.cp and side == "allied":
                    continue
                if opt["tokens"] > pool.ambush_tokens:
                    continue
                out.extend(self.kept(el, tuple(opt.values()), functools.partial(self._element_actions, el, opt)))
        for skind in SIDE_ACTIONS.values():
            out.extend(skind.offers(self, side))
        if side == "allied":  # what the side cannot pay for (a Recon Sweep's 2 CP, DD-4.19) is not offered
            out = [a for a in out if a["cost"] <= pool.cp]
        out.append(_PASS.get(side) or _pass_offer(side))
        return out

    def _element_actions(self, el: Element, opt: dict) -> list[dict]:
        common = {"element": el.id, "cost": opt["cost"], "tokens": opt["tokens"], "emergency": opt["emergency"],
                  "cost_clause": opt["clause"]}
        price = f"{opt['cost']} CP" if el.side == "allied" else (f"{opt['tokens']} Ambush Token" if opt["tokens"] else "free")
        if opt["emergency"]:
            price += " + emergency Morale test"
        acts = []
        if el.hold_position:
            return [{"type": "hold", **common, "clause": "DD-1.16", "params": {},
                     "label": f"{el.name}: Hold / Conceal ({price})"}]
        if el.move_actions < self.book.turn.max_move_actions:
            cx, cy = centre(self.state.living(el))
            for mode, (name, clause) in MODES.items():
                if mode == "sprint" and el.pinned:
                    continue
                if el.kind == "vehicle" and not vehicle_moves(self, el, mode):
                    continue  # G-06, DD-5.14: a vehicle moves at its speed, while it can move
                if mode == "trail_rush" and not all(
                    self.table.point_on_trail(st.x, st.y) for st in self.state.living(el)
                ):
                    continue  # DD-3.2: only an element already on a trail can rush along it
                reach = base_allowance(self, el, mode)
                acts.append(Offer({  # made read-only as it is made (the listing would copy it to be so)
                    "type": "move", "mode": mode, **common, "clause": clause,
                    "label": f"{el.name}: {name} up to {reach:g}\" ({price})",
                    "params": Offer({
                        "to": Offer({"kind": "point", "max": reach, "from": Items([round(cx, 3), round(cy, 3)]),
                                     "doc": "the element's new centre; every stand moves by the same offset"}),
                        "facing": _FACING, "stands": _PLACEMENTS,
                    }),
                }))
        if el.winded:
            acts.append({"type": "take_five", **common, "clause": "DD-3.7", "params": {},
                         "label": f"{el.name}: Take Five, clear Winded ({price})"})
        if el.pinned:
            acts.append({"type": "rally", **common, "clause": "DD-2.16; G-32", "params": {},
                         "label": f"{el.name}: Rally, remove the Pinned marker ({price})"})
        acts.append({"type": "hold", **common, "clause": "G-32", "params": {},
                     "label": f"{el.name}: Hold / Conceal ({price})"})
        never = self.never_offered(el)
        for kind in self._kinds_here():  # a stable order, whatever the import order
            if kind.type in never or (kind.is_move and el.move_actions >= self.book.turn.max_move_actions):
                continue
            acts.extend(kind.offers(self, el, common, price))
        return acts

    def never_offered(self, el: Element) -> frozenset[str]:
        """The element action kinds an element like ``el`` (its side, the kinds of its stands) is never
        offered in this game (``ActionKind.possible``), worked out once for each such element."""
        stands = self.state.stands
        key = (el.side, frozenset(stands[sid].type for sid in el.stands))
        never = self._impossible.get(key)
        if never is None:
            never = self._impossible[key] = frozenset(t for t, k in ACTION_KINDS.items() if not k.possible(self, *key))
        return never

    def _kinds_here(self) -> list[ActionKind]:
        """The element action kinds whose chapter takes part in this game now (``ActionKind.chapter``),
        in ``_registered`` order: worked out once a listing."""
        memo = self.listing_memo
        kinds = memo.get("kinds here") if memo is not None else None
        if kinds is None:
            active = {c.id for c in chapters.chapters(self)}
            kinds = [k for _, k in _registered()[1] if k.chapter is None or k.chapter in active]
            if memo is not None:
                memo["kinds here"] = kinds
        return kinds

    def check(self, side: str, action: Any) -> Plan:
        """Every check the rules make of one action, in ``act``'s order, and nothing changed: no die
        rolled, no event, no state touched. Returns the :class:`Plan` that ``act`` resolves; raises
        IllegalAction (reason and clause) if the rules refuse the action. The one rules check: ``act``,
        ``odds.preview`` and the computer players' ``SideView.check`` all ask it. A refusal names only
        what the side may know (DESIGN §6: ``_element`` refuses a hidden enemy as an id naming nothing).

        A check changes nothing, so while the table is as the last listing found it, the check reads the
        answers that listing remembered (``memo.table_memo``: a target's sightlines, a command status)."""
        if self.listing_memo is not None:
            return self._check(side, action)
        v = changes.versions
        if self._table[0] is not self.los_override or self._table[1] != (
                id(self.los_override), id(self.state), v[TABLE], self.sight_key()):
            return self._check(side, action)
        self.listing_memo = self._table[2]
        try:
            return self._check(side, action)
        finally:
            self.listing_memo = None

    def _check(self, side: str, action: Any) -> Plan:
        if not isinstance(action, dict):
            raise IllegalAction("an action must be an object", "DESIGN §4")
        kind = action.get("type")
        if kind not in action_types():
            raise IllegalAction(f"unknown action type {kind!r} (known: {', '.join(action_types())})", "DESIGN §4")
        self._check_turn(side)  # DD-2.5 (whose impulse), DD-2.1 (the Engagement phase), DD-2.34 (game over)
        if kind == "pass":  # G-28 (6): a side may always pass its impulse
            return Plan(side, kind, action)
        if kind in SIDE_ACTIONS:  # a Blind marker (G-17, DD-4.38), a reserve (DD-2.26), a litter (G-33 (1))
            return Plan(side, kind, action, detail=SIDE_ACTIONS[kind].check(self, side, action))
        el = self._element(side, action, kind)  # DD-2.5: own element, on the table; G-28 (2): activations
        opt = self._cost_option(el, action)  # DD-1.14–1.16: CP (Allied), G-28 (4): Ambush Tokens
        detail = None
        if kind == "move":
            if el.hold_position:
                raise IllegalAction(f"{el.name} failed its emergency check and may only hold position", "DD-1.16")
            if el.move_actions >= self.book.turn.max_move_actions:
                raise IllegalAction(f"{el.name} has already moved this turn", "G-28 (2)")
            detail = plan_move(self, el, action.get("mode", ""), action)  # ch. 3: every movement rule
        elif kind in ACTION_KINDS:
            if el.hold_position:
                raise IllegalAction(f"{el.name} failed its emergency check and may only hold position", "DD-1.16")
            if ACTION_KINDS[kind].is_move and el.move_actions >= self.book.turn.max_move_actions:
                raise IllegalAction(f"{el.name} has already moved this turn", "G-28 (2)")
            detail = ACTION_KINDS[kind].check(self, el, action)  # the chapter's own checks
        elif kind == "take_five" and not el.winded:
            raise IllegalAction(f"{el.name} is not Winded", "DD-3.7")  # DD-3.7 Take Five clears Winded
        elif kind == "rally" and not el.pinned:
            raise IllegalAction(f"{el.name} is not Pinned", "DD-2.16")  # DD-2.16 Rally removes Pinned
        elif el.hold_position and kind != "hold":
            raise IllegalAction(f"{el.name} failed its emergency check and may only hold position", "DD-1.16")
        return Plan(side, kind, action, el, opt, detail)

    def act(self, side: str, action: Any) -> list[dict]:
        """Check (:meth:`check`) and resolve one action for a side; return the events it caused (all of
        them, before filtering for a side). Raises IllegalAction and leaves the game untouched if refused."""
        return self._resolve(self.check(side, action))

    def _resolve(self, plan: Plan) -> list[dict]:
        """Carry out a plan :meth:`check` has just made (in this state): pay, resolve, end the impulse."""
        side, kind, action = plan.side, plan.type, plan.action
        start = len(self.events)
        if kind == "pass":
            self._pass(side)
            return self.events[start:]
        if kind in SIDE_ACTIONS:
            SIDE_ACTIONS[kind].resolve(self, side, action, plan.detail)
            if not getattr(SIDE_ACTIONS[kind], "free", False):  # a free side action (litter_drop, G-33 (1))
                self._end_impulse()
            return self.events[start:]
        el, opt, detail = plan.element, plan.option, plan.detail
        assert el is not None and opt is not None
        self._pay(el, opt)
        if el.blind is not None and kind not in QUIET_FROM_BLIND:
            from game.rules.detection import reveal_element

            reveal_element(self, el, f"{el.name} opens up from its Blind", "DD-4.11")
        if opt["emergency"]:
            from game.rules.morale import morale_test

            if not morale_test(self, el, "emergency initiative", "DD-1.15"):
                el.hold_position = True
                self.emit({"type": "status", "element": el.id, "status": "hold_position", "on": True,
                           "clause": "DD-1.16",
                           "text": f"{el.name} fails its emergency initiative check and holds position"},
                          visible=self.visibility_of_element(el))
                self._end_impulse()
                return self.events[start:]
        if kind == "move":
            assert detail is not None
            apply_move(self, detail)
        elif kind in ACTION_KINDS:
            ACTION_KINDS[kind].resolve(self, el, action, detail)
        elif kind == "take_five":
            el.winded = False
            el.winded_slow = False
            self.emit({"type": "status", "element": el.id, "status": "winded", "on": False, "clause": "DD-3.7",
                       "text": f"{el.name} takes five: no longer Winded"}, visible=self.visibility_of_element(el))
        elif kind == "rally":
            el.pinned = False
            self.emit({"type": "status", "element": el.id, "status": "pinned", "on": False,
                       "clause": "DD-2.16; G-32", "text": f"{el.name} rallies: the Pinned marker is removed"},
                      visible=self.visibility_of_element(el))
        elif kind == "hold":
            el.conceal = True
            self.emit({"type": "status", "element": el.id, "status": "conceal", "on": True, "clause": "G-32",
                       "text": f"{el.name} holds and conceals"}, visible=self.visibility_of_element(el))
        self._end_impulse()
        return self.events[start:]

    def _element(self, side: str, action: dict, kind: str = "") -> Element:
        eid = action.get("element")
        el = self.state.elements.get(eid) if isinstance(eid, str) else None
        if el is None or not self.knows_element(side, el):
            # DESIGN §6: an enemy element under a Blind or in the Reserve Hand is refused exactly as an
            # id that names nothing: same words, same clause, naming only the id sent.
            raise IllegalAction(f"no element {eid!r}", "DD-2.5")
        if el.side != side:
            raise IllegalAction(f"{el.name} belongs to the {el.side} side", "DD-2.5")
        from_blind = (kind in FROM_BLIND and el.blind is not None and not el.reserve
                      and bool(self.state.living(el)))
        if not self.state.on_table(el) and not from_blind:
            raise IllegalAction(f"{el.name} is not on the table", "DD-2.5")
        if el.activations >= self.book.turn.max_activations:
            raise IllegalAction(f"{el.name} has already activated {el.activations} times this turn", "G-28 (2)")
        for bar in ELEMENT_BARS:  # a chapter's bar on the element acting at all (TUN-16)
            refusal = bar(self, el)
            if refusal is not None:
                raise refusal
        return el

    def _cost_option(self, el: Element, action: dict) -> dict:
        options = activation_costs(self, el)
        want = bool(action.get("emergency", False))
        match = [o for o in options if o["emergency"] == want]
        if not match:
            raise IllegalAction(f"{el.name} is In Command: no emergency check is needed", "DD-1.15")
        opt = match[0]
        pool = self.state.sides[el.side]
        if el.side == "allied" and opt["cost"] > pool.cp:
            status = command_status(self, el)
            raise IllegalAction(f"activating {el.name} costs {opt['cost']} CP ({status['reason']}); "
                                f"{pool.cp} CP left", opt["clause"])
        if opt["tokens"] > pool.ambush_tokens:
            raise IllegalAction(f"a second activation costs {opt['tokens']} Ambush Token; "
                                f"{pool.ambush_tokens} left", "G-28 (4)")
        return opt

    def _pay(self, el: Element, opt: dict) -> None:
        pool = self.state.sides[el.side]
        el.activations += 1
        if el.side == "allied":
            pool.cp -= opt["cost"]
        pool.ambush_tokens -= opt["tokens"]
        text = f"{el.name} activates"
        if el.side == "allied":
            text += f" for {opt['cost']} CP ({pool.cp} left)"
        elif opt["tokens"]:
            text += f" again for {opt['tokens']} Ambush Token"
        # CP and Ambush Tokens are private (DESIGN §6): the cost goes to the owner, the bare fact of
        # the activation to everyone when the element is on the table.
        self.emit({"type": "activate", "element": el.id, "side": el.side, "cost": opt["cost"],
                   "tokens": opt["tokens"], "emergency": opt["emergency"], "clause": opt["clause"], "text": text},
                  visible=el.side)
        if not el.hidden:
            self.emit({"type": "activate", "element": el.id, "side": el.side, "clause": "DD-2.5",
                       "text": f"{el.name} activates"}, visible=self.state.other(el.side))

    # -- impulses --------------------------------------------------------------------------------
    def _pass(self, side: str, automatic: bool = False) -> None:
        self.state.passes += 1
        self.emit({"type": "pass", "side": side, "automatic": automatic, "clause": "G-28 (6)",
                   "text": f"{side.capitalize()} passes" + (" (no element can act)" if automatic else "")})
        if self.state.passes >= 2:
            turn_rules.consolidation(self)
            return
        self.state.to_act = self.state.other(side)
        self.begin_impulse()

    def _end_impulse(self) -> None:
        self.state.passes = 0
        self.state.to_act = self.state.other(self.state.to_act or "allied")
        self.begin_impulse()

    def begin_impulse(self) -> None:
        """Open the next impulse; a side with nothing it can do passes automatically (G-28 (6))."""
        s = self.state
        if s.over or s.phase != "engagement" or s.to_act is None:
            return
        from game.rules.detection import after_action

        after_action(self)  # DD-4.9: Blinds within an enemy's visual cutoff become Echoes
        if s.over:
            return
        chapters.run_steps(self, "after_act", ())  # the chapters' steps as an impulse opens (the seam)
        s.impulse += 1
        for el in s.elements.values():
            if el.side == s.to_act:
                el.hold_position = False
        if not self.can_activate(s.to_act):
            self._pass(s.to_act, automatic=True)

    def can_activate(self, side: str) -> bool:
        """Can the side activate any element now? (Cheaper than listing every action.)

        Allied: any activatable element and at least 1 CP, since an Out of Command element may
        always try the 1-CP emergency check (DD-1.15). Insurgent: an element not yet activated, or
        an Ambush Token for a second activation (G-28 (4)).
        """
        from game.rules.blinds import can_act

        elements = self.activatable(side)
        pool = self.state.sides[side]
        if not elements:
            return can_act(self, side) or self._opens(side)
        if side == "allied":
            return pool.cp >= min(self.book.command.cost_in_command, self.book.command.cost_emergency)
        return (any(e.activations == 0 for e in elements)
                or pool.ambush_tokens >= self.book.turn.second_activation_tokens or can_act(self, side)
                or self._opens(side))

    def _opens(self, side: str) -> bool:
        """Does a side action that brings an element onto the table offer something (``opens_impulse``: a unit
        coming up from the tunnels, DD-9B.5)? Then the side does not pass for want of elements."""
        return any(getattr(k, "opens_impulse", False) and k.offers(self, side) for k in SIDE_ACTIONS.values())

    # -- views -----------------------------------------------------------------------------------
    def view(self, side: str) -> dict:
        """What a side knows now (DESIGN §6). ``side`` may be "referee" for the full truth."""
        from game.rules.views import render_view

        return render_view(self, side)

    def hash(self) -> str:
        return self.state.hash()

    def put_back(self, state: GameState) -> None:
        """Return to an earlier state (a fault rolled back, ``session``): the state, its dice, and the
        table as that state has it (its craters and burnt ground), with no answer kept from the other."""
        from game.rules.terrain_changes import forget_table

        self.state = state
        self.dice.streams = state.rng
        table = self.shared.table_map(self.scenario, self.book)[0]
        self.table = table.changed(state.terrain_changes) if state.terrain_changes else table
        forget_table(self)

    def snapshot(self) -> dict:
        return copy.deepcopy(self.state.to_dict())

    @classmethod
    def restore(cls, scenario: Scenario, snapshot: dict, book: Rulebook | None = None) -> Game:
        state = GameState.from_dict(copy.deepcopy(snapshot))
        return cls(scenario, state.seed, book, state=state, start=False)


# Register the chapters and their actions: 5 (fire, reactions, assault), 4 (detection, blinds), 6 (casevac),
# 8 (fire support), 10 (the Jungle Ghost).
from game.rules import ambush_orders, assault, blinds, casevac, detection, fade, fire, fire_support, insertion, jungle_ghost, reactions, resupply, search, vehicles  # noqa: E402,F401,I001
from game.rules import night, weather  # noqa: E402,F401,I001  (9A: night and weather)
from game.rules import riverine  # noqa: E402,F401,I001  (9A §2: the river)
from game.rules import tunnels, tunnel_actions, tunnel_clearing  # noqa: E402,F401,I001  (9B: tunnels on the surface)
from game.rules import booby_traps  # noqa: E402,F401,I001  (9B)
from game.rules import village  # noqa: E402,F401,I001  (9B: the village, Civic Drift)
from game.rules import underground  # noqa: E402,F401,I001  (TUN: the Tunnel Warfare module underground)
