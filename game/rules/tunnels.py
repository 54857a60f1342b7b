"""Tunnels on the surface and the network model (DD-9B.3–9B.7; G-35; C-28; TUN-1–TUN-7, TUN-13, TUN-22, TUN-24).

The network (TUN-1, TUN-24): a scenario's ``[tunnels]`` lists its sections (``[[tunnels.section]]``: a
length of tunnel, a dug-out, a junction beneath the table; a bunker, a trench, a camouflaged entrance or a
spider hole opening on it) and the links between them (``[[tunnels.link]]``); the engine keeps it as a
graph, the Insurgent's secret (the VC player's Surface and Underground Maps, TUN-24). Its shape is checked
as the scenario is read: a tunnel length runs between two other sections (TUN-2), a junction joins three or
more (TUN-6), a dug-out holds 2, 4, 6 or 8 stands and has a use (TUN-3), a bunker's or trench's entrance
is unconcealed unless marked (TUN-4), an entrance or spider hole is concealed (TUN-5), any section may be
trapped (TUN-7); a garrison element starting ``underground`` is VC and Veteran (TUN-13).

Without the TUN module (``module = false``), the scenario lists surface sections only and every entrance is
linked to every other (G-35) unless links say otherwise; the secret tunnel trapdoors of older scenarios
(ambush points of kind ``tunnel``, DD-2.26) are DD-level entrances too. With the module, the underground
half (moving section by section, fighting, the TUN-22 charge beneath) is ``game.rules.underground``.

The surface rules (DD chapter 9B §2, G-35) are the actions of this chapter; see ``tunnel_actions``.

What it leaves out: see ``tunnel_actions``'s module docstring for the actions; this module is the data, the
state and the reading.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.rules.chapters import Chapter, Step, register_chapter, state_of, tables
from game.rules.data import DATA_DIR, DataError, load_sections
from game.tables import load_rows

if TYPE_CHECKING:
    from game.rules.game import Game

CHAPTER = "tunnels"
SECTION = "tunnels"
"""The scenario section this chapter reads (``scenario.SECTIONS``)."""


# -- the tables (game/data/tunnels.toml) ----------------------------------------------------------------
@dataclass(frozen=True)
class SectionKind:
    """A kind of section (TUN-1): whether it opens on the table, its default depth and concealment."""

    id: str
    name: str
    surface: bool
    depth: float
    concealed: bool
    clause: str


@dataclass(frozen=True)
class NetworkRules:
    clause: str
    tunnel: str
    tunnel_links: int
    junction: str
    junction_links: int
    dugout: str
    capacities: list[int]
    default_capacity: int
    uses: list[str]
    garrison_factions: list[str]
    garrison_quality: str
    module_kinds_only: list[str]


@dataclass(frozen=True)
class FindRules:
    clause: str
    reach: float


@dataclass(frozen=True)
class EnterRules:
    clause: str
    hatch: float
    actions: int


@dataclass(frozen=True)
class EmergeRules:
    clause: str
    radius: float
    ambush_range: float
    ambush_cost: int
    same_turn: bool


@dataclass(frozen=True)
class GasRules:
    clause: str
    reach: float
    turns: int
    tokens_lost: int


@dataclass(frozen=True)
class SatchelRules:
    clause: str
    reach: float
    target: int


RAT_RESULTS = ("lost", "nothing", "intel", "cache")
"""What a G-35 Tunnel Rat roll can find (DD-9B.6): the rules act on each."""


@dataclass(frozen=True)
class RatRules:
    clause: str
    reach: float
    results: list[str]
    cache_vp: int
    cache_drift: int


@dataclass(frozen=True)
class DestroyRules:
    clause: str
    reach: float
    target: int


@dataclass(frozen=True)
class ChargeRules:
    clause: str
    reach: float
    roles: list[str]
    target: int


@dataclass(frozen=True)
class CollapseRules:
    clause: str
    vp: int


@dataclass(frozen=True)
class TunnelTables:
    kinds: dict[str, SectionKind]
    network: NetworkRules
    find: FindRules
    enter: EnterRules
    emerge: EmergeRules
    gas: GasRules
    satchel: SatchelRules
    tunnel_rat: RatRules
    destroy: DestroyRules
    charges: ChargeRules
    collapse: CollapseRules

    def surface_kinds(self) -> tuple[str, ...]:
        return tuple(k for k, v in self.kinds.items() if v.surface)


_SECTIONS = {
    "network": NetworkRules, "find": FindRules, "enter": EnterRules, "emerge": EmergeRules, "gas": GasRules,
    "satchel": SatchelRules, "tunnel_rat": RatRules, "destroy": DestroyRules, "charges": ChargeRules,
    "collapse": CollapseRules,
}


def load_tunnels(directory: Path = DATA_DIR) -> TunnelTables:
    """Load ``tunnels.toml`` strictly: every section, known keys, a clause in each, kinds that the network
    rules name, six Tunnel Rat results of the known kinds."""
    name = "tunnels.toml"
    built, doc = load_sections(name, _SECTIONS, directory, also=("kind",))
    kinds = load_rows(name, "kind", SectionKind, doc)
    t = TunnelTables(kinds=kinds, **built)
    n = t.network
    for f in ("tunnel", "junction", "dugout"):
        if getattr(n, f) not in kinds:
            raise DataError(name, "[network]", f"{f} {getattr(n, f)!r} is not a [[kind]]")
    for k in n.module_kinds_only:
        if k not in kinds or kinds[k].surface:
            raise DataError(name, "[network]", f"module_kinds_only: {k!r} is not an underground [[kind]]")
    if n.default_capacity not in n.capacities:
        raise DataError(name, "[network]", "default_capacity must be one of capacities")
    if len(t.tunnel_rat.results) != 6 or any(r not in RAT_RESULTS for r in t.tunnel_rat.results):
        raise DataError(name, "[tunnel_rat]", f"results must list six results, one per die score, of {RAT_RESULTS}")
    if not t.surface_kinds():
        raise DataError(name, "[[kind]]", "no surface kind")
    return t


def rules(g: Game | None = None) -> TunnelTables:
    """The tunnel tables as this game's rulebook has them (or the shipped ones, for a scenario reader)."""
    if g is None:
        return _shipped()
    return tables(g.book, CHAPTER)


_SHIPPED: list[TunnelTables] = []


def _shipped() -> TunnelTables:
    if not _SHIPPED:
        _SHIPPED.append(load_tunnels())
    return _SHIPPED[0]


# -- the network ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SectionSetup:
    """One section of a tunnel network (TUN-1) as the scenario places it: a surface section's hatch at
    (x, y) on the table; an underground section's place beneath the table (the cutaway), ``depth`` inches
    down."""

    id: str
    kind: str
    x: float
    y: float
    depth: float
    concealed: bool
    """Its entrance is concealed (found only by a Search, DD-9B.3, TUN-5); surface sections only."""
    capacity: int | None
    """A dug-out's stands (TUN-3: 2, 4, 6 or 8); None for the other kinds."""
    use: str | None
    """A dug-out's use (TUN-3), or None."""
    trapped: bool
    """Booby-trapped (TUN-7; G-43: the G-08 table on entering it)."""
    feature: str | None
    """The terrain feature it lies in (a hootch, a bunker), or None."""


@dataclass(frozen=True)
class Network:
    """A tunnel network: its sections by id and each one's linked sections (adjacency, sorted)."""

    module: bool
    """Played section by section with the TUN module (``game.rules.underground``); else DD-9B.3–9B.7."""
    sections: dict[str, SectionSetup]
    links: dict[str, tuple[str, ...]]

    def surface(self) -> list[str]:
        """The sections that open on the table, by id."""
        kinds = rules().surface_kinds()
        return [sid for sid, s in self.sections.items() if s.kind in kinds]

    def linked(self, sid: str) -> list[str]:
        """Every section reachable from ``sid`` through the network (itself excluded), by id."""
        seen = {sid}
        todo = [sid]
        while todo:
            for nxt in self.links.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return sorted(seen - {sid})


def is_surface(section: SectionSetup) -> bool:
    return rules().kinds[section.kind].surface


def network(g: Game) -> Network | None:
    """The game's tunnel network: the scenario's ``[tunnels]``, or the DD-level entrances made of an older
    scenario's secret tunnel trapdoors (DD-2.26, ambush points of kind ``tunnel``); None without either.
    Made once for each scenario (asked at every listing); like the scenario's own, it is only read."""
    sc = g.scenario
    kept = _networks.get(id(sc))
    if kept is None or kept[0] is not sc:
        if len(_networks) > 64:
            _networks.clear()
        kept = _networks[id(sc)] = (sc, _network(sc))
    return kept[1]


_networks: dict[int, tuple[Any, Network | None]] = {}
"""``network``'s answers, by the scenario (held, so that its id is not taken by another)."""


def _network(scenario: Any) -> Network | None:
    sections = getattr(scenario, "sections", {}) or {}
    net = sections.get(SECTION)
    if net is not None:
        return net
    points = [p for p in getattr(scenario, "ambush_points", ()) if p.kind == "tunnel"]
    if not points:
        return None
    secs = {p.id: SectionSetup(p.id, "entrance", float(p.x), float(p.y), 0.0, True, None, None, False, None)
            for p in sorted(points, key=lambda p: p.id)}
    return Network(False, secs, _all_linked(list(secs)))


def _all_linked(ids: list[str]) -> dict[str, tuple[str, ...]]:
    """G-35: "by default, all entrances in the scenario are linked"."""
    return {a: tuple(sorted(b for b in ids if b != a)) for a in sorted(ids)}


# -- its state ------------------------------------------------------------------------------------------
@dataclass
class TunnelState:
    """The tunnels chapter's state (``GameState.chapters["tunnels"]``)."""

    found: list[str] = field(default_factory=list)
    """The sections the Allied side knows (found entrances, explored sections), sorted."""
    collapsed: list[str] = field(default_factory=list)
    """Sections collapsed for good (DD-9B.7, TUN-22), sorted."""
    gassed: dict[str, int] = field(default_factory=dict)
    """Section -> the last turn CS gas holds it (G-35: until the end of the next turn)."""
    where: dict[str, str] = field(default_factory=dict)
    """Element id -> the section it is in (without the module: the entrance it went down)."""
    entered: dict[str, int] = field(default_factory=dict)
    """Element id -> the turn it went down (G-35: it cannot emerge the same turn)."""
    charging: dict[str, str] = field(default_factory=dict)
    """Element id -> the section its TUN-22 charges are being set on (resolved at the end of its
    activation, C-28)."""
    rats_lost: list[str] = field(default_factory=list)
    """Stands lost underground by a G-35 Tunnel Rat roll of 1 (a KIA that cannot be recovered)."""
    disarmed: list[str] = field(default_factory=list)
    """Trapped sections whose booby trap is found (disarmed) or spent (TUN-7, G-35)."""
    emerged: list[int] = field(default_factory=list)
    """[turn, impulse] of the last emergence (G-35: a unit comes up at the start of its activation)."""


def state(g: Game) -> TunnelState | None:
    return state_of(g, CHAPTER)


def section_of(g: Game, element_id: str) -> str | None:
    """The section an element is in, or None when it is not in the network."""
    st = state(g)
    return st.where.get(element_id) if st is not None else None


def known(g: Game, side: str) -> list[str]:
    """The sections ``side`` knows: the Insurgent all of its network (TUN-24), the Allied side the ones it
    has found or explored."""
    net = network(g)
    if net is None:
        return []
    if side == "insurgent":
        return sorted(net.sections)
    st = state(g)
    return sorted(s for s in (st.found if st else ()) if s in net.sections)


def adjacent(g: Game, sid: str) -> list[str]:
    """The sections linked to ``sid`` (TUN-8, TUN-12), by id."""
    net = network(g)
    if net is None:
        return []
    return list(net.links.get(sid, ()))


def is_gassed(g: Game, sid: str) -> bool:
    st = state(g)
    return st is not None and st.gassed.get(sid, -99) >= g.state.turn


def is_collapsed(g: Game, sid: str) -> bool:
    st = state(g)
    return st is not None and sid in st.collapsed


def open_sections(g: Game) -> list[str]:
    """The sections neither collapsed nor gassed, by id."""
    net = network(g)
    if net is None:
        return []
    return [sid for sid in sorted(net.sections) if not is_collapsed(g, sid) and not is_gassed(g, sid)]


def section_state(g: Game, sid: str) -> str:
    """open | collapsed | gassed (the ``tunnel_section`` marker's state)."""
    if is_collapsed(g, sid):
        return "collapsed"
    if is_gassed(g, sid):
        return "gassed"
    return "open"


def new_state() -> TunnelState:
    return TunnelState()


# -- reading the scenario (scenario.SECTIONS) ------------------------------------------------------------
def read_scenario(r: Any, raw: Any, ctx: Any) -> Network | None:
    """``[tunnels]`` of a scenario file: the network, checked (TUN-2–TUN-7, TUN-13, G-35;
    ``game.rules.tunnel_map``)."""
    from game.rules.tunnel_map import read_network

    return read_network(r, raw, ctx)


# -- the chapter ------------------------------------------------------------------------------------------
def section_marker(g: Game, sec: SectionSetup, side: str, net: Network, knows: set[str]) -> dict:
    """A ``tunnel_section`` marker: the Insurgent (and the referee) sees all of it, the Allied side the
    sections it knows, linked only to sections it knows (TUN-24)."""
    out = {"id": sec.id, "kind": "tunnel_section", "section_kind": sec.kind, "x": sec.x, "y": sec.y,
           "depth": sec.depth, "links": [o for o in net.links.get(sec.id, ()) if o in knows],
           "state": section_state(g, sec.id), "concealed": sec.concealed, "surface": is_surface(sec)}
    if sec.capacity is not None:
        out["capacity"] = sec.capacity
    if sec.use is not None:
        out["use"] = sec.use
    if side in ("insurgent", "referee"):
        out["trapped"] = sec.trapped
    if side == "referee":  # whether the Allied side has found it (the truth a referee reads, TUN-4, TUN-5)
        st = state(g)
        out["found"] = st is not None and sec.id in st.found
    return out


def markers(g: Game, side: str) -> list[dict]:
    net = network(g)
    if net is None or state(g) is None:
        return []
    knows = set(net.sections) if side in ("insurgent", "referee") else set(known(g, "allied"))
    return [section_marker(g, net.sections[sid], side, net, knows) for sid in sorted(knows)]


def starting_state(g: Game) -> TunnelState:
    """The state at setup: each garrison element where the scenario puts it (TUN-13, ``underground``);
    the unconcealed entrances of bunkers and trenches known to the Allied side from the start (TUN-4:
    an above-ground earthwork with an open entrance is on the table for both to see; engine reading)."""
    net = network(g)
    st = TunnelState()
    for e in sorted(g.scenario.elements, key=lambda e: e.id):
        sid = getattr(e, "underground", None)
        if sid is not None and net is not None and sid in net.sections:
            st.where[e.id] = sid
            st.entered[e.id] = 0
    if net is not None:
        st.found = sorted(sid for sid, s in net.sections.items() if is_surface(s) and not s.concealed)
    return st


ACTIONS = ("enter_tunnel", "emerge_tunnel", "gas_tunnel", "tunnel_satchel", "tunnel_rat", "destroy_tunnel",
           "set_charges")
"""The action types of this chapter (``game.rules.tunnel_actions`` registers them)."""


class TunnelsChapter(Chapter):
    """DD chapter 9B §2, Tunnels: active when the scenario has a network (``[tunnels]``, or the tunnel
    trapdoors of DD-2.26)."""

    id = CHAPTER
    title = "DD chapter 9B: Tunnels"
    actions = ACTIONS
    state_type = TunnelState
    table_fields = ("found", "collapsed", "gassed", "where", "entered", "charging", "emerged")

    def active(self, g: Game) -> bool:
        return network(g) is not None

    def new_state(self, g: Game) -> TunnelState | None:
        return starting_state(g) if network(g) is not None else None

    def load_tables(self, book: Any) -> TunnelTables:
        return load_tunnels()

    def markers(self, g: Game, side: str) -> list[dict]:
        return markers(g, side)

    def steps(self) -> tuple[Step, ...]:
        from game.rules.tunnel_clearing import resolve_charges

        return (Step("after_act", 20, resolve_charges, "TUN-22; C-28", self.id),)

    def score(self, g: Game) -> list[tuple[int, str]]:
        """G-35: a Tunnel Rat lost underground counts as KIA (DD-3.17), though no token lies on the table."""
        st = state(g)
        kia = g.book.victory.kia
        return [(kia, f"Tunnel Rat {sid} lost in the tunnels: KIA {kia:+d} (G-35; DD-3.17)")
                for sid in (st.rats_lost if st else ())]


register_chapter(TunnelsChapter())


def fade_entrances(g: Game, trapdoors: list[dict]) -> list[dict]:
    """The tunnel entrances an element may Fade into (DD-2.32; ``fade.tunnels``): the trapdoors (ambush
    points of kind ``tunnel``) and the surface sections of the network, open ones only (DD-9B.7: a
    collapsed entrance is unusable; G-35: nothing enters a gassed one), by id. A game with no network
    gets its trapdoors unchanged."""
    net = network(g)
    if net is None or state(g) is None:
        return sorted(trapdoors, key=lambda p: p["id"])
    out = {p["id"]: p for p in trapdoors}
    for sid in net.surface():
        sec = net.sections[sid]
        out.setdefault(sid, {"id": sid, "x": sec.x, "y": sec.y, "kind": "tunnel"})
    usable = set(open_sections(g))
    return [out[k] for k in sorted(out) if k in usable or k not in net.sections]


def collapse(g: Game, sid: str, how: str, clause: str = "DD-9B.7") -> list[str]:
    """A section is destroyed for good (DD-9B.7: "collapses permanently and is unusable for the rest of the
    game"; TUN-22): ``how`` is ``charge`` or ``satchel``. Public (it is a known entrance, or a section the
    Allied side reached); +1 VP (G-30). The one place a section collapses: the underground half of TUN-22
    calls it too. Returns the elements inside it (without the module they stay in the network, which is
    every other entrance; with it, ``game.rules.underground`` decides)."""
    st = state(g)
    net = network(g)
    assert st is not None and net is not None and sid in net.sections
    if sid in st.collapsed:
        return []
    sec = net.sections[sid]
    st.collapsed = sorted({*st.collapsed, sid})
    st.gassed = {k: v for k, v in st.gassed.items() if k != sid}
    st.charging = {k: v for k, v in st.charging.items() if v != sid}
    if sid not in st.found:
        st.found = sorted({*st.found, sid})
    vp = rules(g).collapse.vp
    g.state.sides["allied"].vp += vp
    name = rules(g).kinds[sec.kind].name
    g.emit({"type": "tunnel_collapse", "section": sid, "x": sec.x, "y": sec.y, "how": how, "vp": vp,
            "clause": f"{clause}; G-30",
            "text": f"The {name} {sid} collapses ({'demolition charge' if how == 'charge' else 'satchel charge'}): "
                    f"unusable for the rest of the game, {vp:+d} VP"})
    return sorted(e for e, where in st.where.items() if where == sid)
