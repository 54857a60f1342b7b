"""The village: the Civic Drift Engine (DD chapter 9B §3, DD-9B.8–9B.13; G-13, G-35, G-39; C-03).

Chapter ``village``, active when the scenario has a ``[village]`` section (``read_scenario``): its hootches
(default every hootch on the table), its name, its civilians (``[[village.civilian]]`` rows, or
``civilians = "auto"``, the default: one per hootch, up to 4, G-39; ``"none"``: none) and its caches
(``[[village.cache]]`` rows {id, at | feature, kind: rice | weapons}, the Insurgent's secret).

* **The track** (DD-9B.8): :func:`drift` is the one place the Civic Drift track moves, clamped to -5..+5
  (detection.toml), with the ``civic_drift`` event; Recon by Fire (detection.py) and the fire-support
  chapter (missions.py, air.py) call it with their own event fields and texts.
* **Near the village** (DD-9B.9): :func:`near` -- within 6" of one of the village's hootches (without a
  ``[village]``, of any hootch, as before).
* **Burning a hootch** (``burn_hootch``, DD-9B.10, G-35): one action by a stand in base contact with a
  village hootch; it becomes rubble (``structures``), a cache hidden in it is destroyed, and the track
  moves -1 unless contraband was found in it.
* **Civilians** (G-39; ``game.rules.village_civilians``): records of the chapter's state, never stands of a
  side; they cannot be targeted. They are hit by templates (``template.attack`` calls
  :func:`under_template`), grazing fire (``fire.GrazingFire`` calls :func:`grazed`) and Recon by Fire
  result 1 (DD-4.28, C-03: detection's incident asks :func:`nearest_civilian`). A casualty moves the track
  -3 (Recon by Fire, DD-9B.11), -2 (artillery, mortar, napalm; not again where the same fire already paid
  DD-9B.9's -2) or -1.
* **Medcap** (``medcap``, DD-9B.12, G-39): a Medic in base contact with a living civilian, no enemy within
  6": +1, once per civilian.
* **Caches** (DD-9B.13, G-35; ``game.rules.village_caches``): found by a successful Search of their feature or ground (a search finder,
  ``search.register_finder``); secured when an Allied stand ends an activation in contact and no enemy is
  within 4" (+2, VP +1; checked as each impulse opens); ``destroy_cache``: one action, no penalty.
* **Tiers** (G-13; :func:`tier`: the track at the last Tension Phase, as search.py reads it): Hostile, the
  Insurgent +1 Ambush Token a turn and every unsearched village hootch a Hot Sector (``hot_sector``: while an
  Allied element that moved this turn is within 6" of one, a human Insurgent may spend 1 Ambush Token to
  deploy a Reserve Hand element into cover within 2" of it, DD-2.25-2.26); Sullen/Cooperative/Friendly,
  the Search modifiers of search.toml; Cooperative, once a game a villager tip reveals a booby trap within
  6" (``booby_traps.reveal_near``); Friendly, each Tension Phase one hidden booby trap or tunnel entrance
  within 12" (``booby_traps.reveal_near``, ``tunnels.reveal_near``), the Insurgent -1 Ambush Token a turn
  (it keeps 1); the end-game VP of the tier (-3/-1/0/+1/+3) on the Allied score (``score``).

Fog (DESIGN §6): the track, civilians, burning, Medcap and found caches are public; a hidden cache is the
Insurgent's only (its marker); the Hot Sector deployment is the Insurgent's choice, seen as any reserve
that springs. "No enemy within" counts only enemy stands on the table (a hidden enemy gives no sign).

What it leaves out: DD-9B.14 (flavour, out_of_scope.toml); civilians moving, fleeing or carried in sampans
(G-39 gives them no move); beaten zones hit civilians as templates (their own pool of the zone's dice).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shapely.geometry import Point

from game.rules.chapters import Chapter, Step, register_chapter, state_of, tables
from game.rules.data import DATA_DIR, DataError, load_sections
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.state import Element, Stand, base_of, disc
from game.tables import load_rows, read_toml

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.world.tablemap import TerrainHit

CLAUSE = "DD-9B.8; G-13"


# -- the tables (game/data/village.toml) ------------------------------------------------------------------
@dataclass(frozen=True)
class VillageRules:
    clause: str
    hootch_types: list[str]
    near: float
    heavy: list[str]


@dataclass(frozen=True)
class CivilianRules:
    clause: str
    auto_max: int
    base: str
    hp: int
    drift_heavy: int
    drift_other: int


@dataclass(frozen=True)
class BurnRules:
    clause: str
    drift: int


@dataclass(frozen=True)
class MedcapRules:
    clause: str
    role: str
    drift: int
    enemy_radius: float


@dataclass(frozen=True)
class CacheRules:
    clause: str
    kinds: list[str]
    radius: float
    drift: int
    vp: int
    enemy_radius: float


@dataclass(frozen=True)
class RadiusRules:
    clause: str
    radius: float


@dataclass(frozen=True)
class HotSectorRules:
    clause: str
    trigger: float
    tokens: int


@dataclass(frozen=True)
class TierRow:
    """One G-13 tier's effects in play and at the end (the track range and Search modifier: search.toml)."""

    id: str
    clause: str
    vp: int
    tokens: int = 0
    hot_sectors: bool = False
    tip: bool = False
    reveal: bool = False


@dataclass(frozen=True)
class VillageTables:
    village: VillageRules
    civilians: CivilianRules
    burn: BurnRules
    medcap: MedcapRules
    cache: CacheRules
    tip: RadiusRules
    reveal: RadiusRules
    hot_sector: HotSectorRules
    tiers: dict[str, TierRow]


def load_village(directory: Path = DATA_DIR) -> VillageTables:
    """Load ``village.toml`` strictly: every section, known keys, a clause each, and one tier row for each of
    search.toml's Civic tiers (G-13)."""
    from game.rules.search import load_search

    name = "village.toml"
    secs = {"village": VillageRules, "civilians": CivilianRules, "burn": BurnRules, "medcap": MedcapRules,
            "cache": CacheRules, "tip": RadiusRules, "reveal": RadiusRules, "hot_sector": HotSectorRules}
    built, _ = load_sections(name, secs, directory, also=("tier",))
    tiers = load_rows(name, "tier", TierRow, read_toml(name, directory))
    names = [t.tier.lower() for t in load_search().civic]
    if sorted(tiers) != sorted(names):
        raise DataError(name, "[[tier]]", f"the tiers must be search.toml's Civic tiers {names}, got {sorted(tiers)}")
    return VillageTables(tiers=tiers, **built)


def rules(g: Game) -> VillageTables:
    return tables(g.book, "village")


# -- the scenario section ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class CivilianSetup:
    id: str
    x: float
    y: float


@dataclass(frozen=True)
class CacheSetup:
    id: str
    x: float
    y: float
    kind: str
    feature: str | None = None


@dataclass(frozen=True)
class VillageSetup:
    name: str
    hootches: tuple[str, ...]
    civilians: tuple[CivilianSetup, ...]
    caches: tuple[CacheSetup, ...]


def _centre(f: Any) -> tuple[float, float]:
    c = f.shape().representative_point() if f.point is None else Point(f.point)
    return round(c.x, 3), round(c.y, 3)


def read_scenario(r: Any, raw: Any, ctx: Any) -> VillageSetup | None:
    """The ``[village]`` section (DD-9B.8, G-39, G-35): problems name the row and field."""
    t = load_village()
    if not isinstance(raw, dict):
        r.problem("village", "should be a table [village]")
        return None
    p = "village."
    r.unknown(raw, {"name", "hootches", "civilians", "civilian", "cache"}, p)
    features = {f.id: f for f in ctx.features}
    name = r.get(raw, "name", p, str, "the village")
    ids = r.get(raw, "hootches", p, list, None)
    if ids is None:
        ids = [f.id for f in ctx.features if f.type in t.village.hootch_types]
    hootches: list[str] = []
    for i, fid in enumerate(ids):
        f = features.get(fid) if isinstance(fid, str) else None
        if f is None or f.type not in t.village.hootch_types:
            r.problem(f"{p}hootches[{i}]", f"{fid!r} is no hootch of this scenario")
        elif fid not in hootches:
            hootches.append(fid)
    civilians = _read_civilians(r, raw, ctx, [features[h] for h in hootches], t)
    caches = _read_caches(r, raw.get("cache", []), ctx, features, t)
    return VillageSetup(name or "the village", tuple(hootches), tuple(civilians), tuple(caches))


def _read_civilians(r: Any, raw: dict, ctx: Any, hootches: list, t: VillageTables) -> list[CivilianSetup]:
    mode = raw.get("civilians", "auto" if "civilian" not in raw else None)
    if "civilian" in raw:
        if "civilians" in raw:
            r.problem("village.civilians", "give [[village.civilian]] rows or civilians = \"auto\", not both")
        return [CivilianSetup(cid, at[0], at[1])
                for cid, at, _ in r.placed(raw["civilian"], "village.civilian", "civilian", "civ", ctx.width,
                                           ctx.height)]
    if mode == "none":
        return []
    if mode != "auto":
        r.problem("village.civilians", f"should be \"auto\" or \"none\", got {mode!r}")
        return []
    return [CivilianSetup(f"civ{i + 1}", *_centre(f)) for i, f in enumerate(hootches[: t.civilians.auto_max])]


def _read_caches(r: Any, rows: Any, ctx: Any, features: dict, t: VillageTables) -> list[CacheSetup]:
    out: list[CacheSetup] = []
    if not isinstance(rows, list):
        r.problem("village.cache", "should be a list of [[village.cache]] tables")
        return out
    for i, raw in enumerate(rows):
        p = f"village.cache[{i}]."
        if not isinstance(raw, dict):
            r.problem(f"village.cache[{i}]", "should be a table")
            continue
        r.unknown(raw, {"id", "at", "feature", "kind"}, p)
        cid = r.get(raw, "id", p, str, f"cache{i + 1}")
        kind = r.get(raw, "kind", p, str)
        if kind is not None and kind not in t.cache.kinds:
            r.problem(p + "kind", f"should be one of {', '.join(t.cache.kinds)}, got {kind!r}")
            kind = None
        if any(c.id == cid for c in out):
            r.problem(p + "id", f"duplicate cache id '{cid}'")
            continue
        fid, at = raw.get("feature"), None
        if ("at" in raw) == ("feature" in raw):
            r.problem(p + "at", "give at = [x, y] or feature = \"<id>\", one of them")
            continue
        if fid is not None:
            f = features.get(fid) if isinstance(fid, str) else None
            if f is None:
                r.problem(p + "feature", f"no terrain feature {fid!r} in this scenario")
                continue
            at = _centre(f)
        else:
            at = r.point(raw["at"], p + "at")
            if at is not None and not (0 <= at[0] <= ctx.width and 0 <= at[1] <= ctx.height):
                r.problem(p + "at", f"cache at {list(at)} is off the {ctx.width:g}x{ctx.height:g} table")
                at = None
        if at is not None and kind is not None and cid is not None:
            out.append(CacheSetup(cid, at[0], at[1], kind, fid))
    return out


# -- its state ---------------------------------------------------------------------------------------------
@dataclass
class Civilian:
    """A civilian family group (G-39): not a stand of any side; a casualty stays as ``dead``."""

    id: str
    x: float
    y: float
    state: str = "alive"
    """alive | dead (G-39: 1 HP, so a hit that is not saved is a casualty)"""
    treated: bool = False
    """Medcap given (DD-9B.12: +1 once per civilian, G-39)."""


@dataclass
class Cache:
    id: str
    x: float
    y: float
    kind: str
    feature: str | None = None
    state: str = "hidden"
    """hidden | found | secured | destroyed (DD-9B.13, G-35)"""


@dataclass
class VillageState:
    """The village's state (``GameState.chapters["village"]``), made with the game when it has a village."""

    civilians: list[Civilian] = field(default_factory=list)
    caches: list[Cache] = field(default_factory=list)
    contraband: list[str] = field(default_factory=list)
    """Hootches where contraband (a cache) was found (DD-9B.10: burning them costs nothing)."""
    burned: list[str] = field(default_factory=list)
    tip_used: bool = False
    """G-13 Cooperative: the once-a-game villager tip has been given."""


def setup(g: Game) -> VillageSetup | None:
    return g.scenario.sections.get("village") if hasattr(g.scenario, "sections") else None


def active(g: Game) -> bool:
    return setup(g) is not None


def vstate(g: Game) -> VillageState | None:
    return state_of(g, "village")


def civilians(g: Game) -> list[Civilian]:
    """The village's civilians, living and dead (G-39); empty without a village."""
    st = vstate(g)
    return list(st.civilians) if st is not None else []


def caches(g: Game) -> list[Cache]:
    st = vstate(g)
    return list(st.caches) if st is not None else []


# -- the track (DD-9B.8) -----------------------------------------------------------------------------------
def drift(g: Game, delta: int, why: str, clause: str, *, text: str | None = None,
          extra: dict[str, Any] | None = None) -> int:
    """Move the Civic Drift track by ``delta``, clamped to -5..+5 (DD-9B.8): the one place it moves. Emits
    ``civic_drift`` {drift, change, clause, text} (plus ``extra``: the fire-support chapter's ``before``);
    ``text`` replaces the default text. Returns the change made."""
    from game.rules.detection import rules as detection_rules

    rb = detection_rules().recon_by_fire
    before = g.state.civic_drift
    g.state.civic_drift = max(rb.drift_min, min(rb.drift_max, before + delta))
    change = g.state.civic_drift - before
    g.emit({"type": "civic_drift", "drift": g.state.civic_drift, "change": change, **(extra or {}),
            "clause": clause,
            "text": text if text is not None else f"Civic Drift {before:+d} -> {g.state.civic_drift:+d}: {why}"})
    return change


def tier(g: Game) -> TierRow:
    """The G-13 tier in force: the track as the last Tension Phase found it (search.py reads the same)."""
    from game.rules import search

    row = search.rules(g).tier(search.civic_drift_in_force(g))
    return rules(g).tiers[row.tier.lower()]


def hootches(g: Game) -> list[TerrainHit]:
    """The village's hootches on the table (the scenario's; without a [village], every hootch)."""
    s = setup(g)
    kinds = rules(g).village.hootch_types
    if s is None:
        return [h for h in g.table.hits if h.feature.type in kinds]
    by = {h.feature.id: h for h in g.table.hits}
    return [by[fid] for fid in s.hootches if fid in by]


def near(g: Game, x: float, y: float, radius: float | None = None) -> bool:
    """DD-9B.9: is (x, y) within ``radius`` (6") of the village, i.e. of one of its hootches?"""
    reach = rules(g).village.near if radius is None else radius
    p = Point(x, y)
    return any(h.shape.distance(p) <= reach + 1e-9 for h in hootches(g))


def rubble(g: Game, fid: str) -> bool:
    return g.state.structures.get(fid, {}).get("state") == "rubble"


# -- helpers ------------------------------------------------------------------------------------------------
def contact(g: Game) -> float:
    return g.book.command.base_contact


def enemy_within(g: Game, side: str, geom: Any, radius: float) -> bool:
    """An enemy stand on the table (Confirmed: a hidden one gives no sign, DESIGN §6) within ``radius``."""
    return any(base_of(g.book, s).distance(geom) <= radius + 1e-9 for s in g.state.side_stands(g.state.other(side)))


def cache_shape(g: Game, c: Cache) -> Any:
    """Where a cache is: the feature it lies in, else a 1" token on the ground (G-35)."""
    if c.feature is not None:
        hit = next((h for h in g.table.hits if h.feature.id == c.feature), None)
        if hit is not None:
            return hit.shape
    return disc(c.x, c.y, rules(g).cache.radius)


def _optional(module: str, name: str) -> Any:
    """A function of a sibling chapter that may not be built yet (booby traps, tunnels), or None."""
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None


# -- Burn a hootch (DD-9B.10, G-35) ---------------------------------------------------------------------------
def _burnable(g: Game, el: Element) -> list[tuple[TerrainHit, Stand]]:
    if el.side != "allied" or not active(g):
        return []
    reach = contact(g) + 1e-9
    out = []
    for h in hootches(g):
        if rubble(g, h.feature.id):
            continue
        st = next((s for s in g.state.living(el) if base_of(g.book, s).distance(h.shape) <= reach), None)
        if st is not None:
            out.append((h, st))
    return out


class BurnHootch(ActionKind):
    """Burn or destroy a thatch hootch (DD-9B.10, G-35): one action by a stand in base contact."""

    type = "burn_hootch"
    chapter = "village"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        found = _burnable(g, el)
        if not found:
            return []
        return [{"type": self.type, **common, "clause": "DD-9B.10; G-35",
                 "label": f"{el.name}: burn a hootch (Civic Drift -1 unless contraband was found in it) ({price})",
                 "params": {"feature": {"kind": "feature", "choices": [h.feature.id for h, _ in found],
                                        "doc": "a village hootch in base contact"}}}]

    def check(self, g: Game, el: Element, action: dict) -> tuple[TerrainHit, Stand]:
        if el.side != "allied":
            raise IllegalAction("burning a hootch is an Allied action", "DD-9B.10")
        if not active(g):
            raise IllegalAction("this scenario has no village", "DD-9B.8")
        fid = action.get("feature")
        if not any(h.feature.id == fid for h in hootches(g)):
            raise IllegalAction(f"{fid!r} is no hootch of {setup(g).name}", "DD-9B.10")
        if rubble(g, fid):
            raise IllegalAction(f"hootch {fid} is already rubble", "DD-9B.10; G-35")
        for h, st in _burnable(g, el):
            if h.feature.id == fid:
                return h, st
        raise IllegalAction(f"no stand of {el.name} is in base contact with hootch {fid}", "DD-9B.10; G-35")

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[TerrainHit, Stand]) -> None:
        h, st = plan
        vs = vstate(g)
        fid = h.feature.id
        found = fid in vs.contraband
        g.state.structures[fid] = {**g.state.structures.get(fid, {}), "state": "rubble"}
        vs.burned.append(fid)
        c = h.shape.representative_point() if h.feature.point is None else Point(h.feature.point)
        g.emit({"type": "hootch_burned", "feature": fid, "x": round(c.x, 3), "y": round(c.y, 3), "element": el.id,
                "contraband": found, "clause": "DD-9B.10; G-35",
                "text": f"{st.id} of {el.name} burns hootch {fid} to the ground"
                        + (": contraband was found there" if found else "")})
        for cache in vs.caches:  # what was hidden in it burns with it
            if cache.feature == fid and cache.state in ("hidden", "found"):
                cache.state = "destroyed"
                g.emit({"type": "cache_destroyed", "cache": cache.id, "x": cache.x, "y": cache.y,
                        "clause": "DD-9B.10; G-35", "text": f"cache {cache.id} burns with hootch {fid}"})
        if not found:
            drift(g, rules(g).burn.drift, f"hootch {fid} burned without finding contraband", "DD-9B.10; G-35")


# -- Medcap (DD-9B.12, G-39) ---------------------------------------------------------------------------------
def civilian_shape(g: Game, civ: Civilian) -> Any:
    """A civilian's base: a Small stand's, facing 0 (G-39)."""
    from game.world.features import base_rectangle

    b = g.book.bases[rules(g).civilians.base]
    return base_rectangle(civ.x, civ.y, 0.0, b.width, b.depth)


def _medics(g: Game, el: Element) -> list[Stand]:
    role = rules(g).medcap.role
    return [s for s in g.state.living(el) if g.book.stands[s.type].role == role]


def _medcap_pairs(g: Game, el: Element) -> list[tuple[Stand, Civilian]]:
    if el.side != "allied" or not active(g):
        return []
    reach = contact(g) + 1e-9
    return [(m, c) for c in civilians(g) if c.state == "alive" and not c.treated for m in _medics(g, el)
            if base_of(g.book, m).distance(civilian_shape(g, c)) <= reach]


class Medcap(ActionKind):
    """Medcap Mission (DD-9B.12, G-39): a Medic treats villagers: +1 Civic Drift, once per civilian."""

    type = "medcap"
    chapter = "village"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        pairs = [(m, c) for m, c in _medcap_pairs(g, el)
                 if not enemy_within(g, el.side, base_of(g.book, m), rules(g).medcap.enemy_radius)]
        if not pairs:
            return []
        return [{"type": self.type, **common, "clause": "DD-9B.12; G-39",
                 "label": f"{el.name}: Medcap, treat the villagers (Civic Drift +1) ({price})",
                 "params": {"civilian": {"kind": "token", "choices": sorted({c.id for _, c in pairs}),
                                         "doc": "a civilian in base contact with the Medic, not yet treated"}}}]

    def check(self, g: Game, el: Element, action: dict) -> tuple[Stand, Civilian]:
        r = rules(g).medcap
        if el.side != "allied":
            raise IllegalAction("Medcap is an Allied Medic's action", "DD-9B.12")
        cid = action.get("civilian")
        civ = next((c for c in civilians(g) if c.id == cid), None)
        if civ is None:
            raise IllegalAction(f"no civilian {cid!r} in this village", "G-39")
        if civ.state != "alive":
            raise IllegalAction(f"civilian {cid} is a casualty: nobody is left to treat", "G-39")
        if civ.treated:
            raise IllegalAction(f"civilian {cid} has been treated already: +1 once per civilian", "DD-9B.12; G-39")
        if not _medics(g, el):
            raise IllegalAction(f"{el.name} has no Medic", "DD-9B.12")
        pair = next(((m, c) for m, c in _medcap_pairs(g, el) if c is civ), None)
        if pair is None:
            raise IllegalAction(f"no Medic of {el.name} is in base contact with civilian {cid}", "DD-9B.12; G-39")
        if enemy_within(g, el.side, base_of(g.book, pair[0]), r.enemy_radius):
            raise IllegalAction(f"an enemy is within {r.enemy_radius:g}\" of the Medic", "G-39")
        return pair

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[Stand, Civilian]) -> None:
        medic, civ = plan
        civ.treated = True
        g.emit({"type": "medcap", "element": el.id, "stand": medic.id, "civilian": civ.id, "clause": "DD-9B.12; G-39",
                "text": f"Medic {medic.id} treats the villagers of {civ.id} (Medcap)"})
        drift(g, rules(g).medcap.drift, f"a Medcap Mission treats {civ.id}", "DD-9B.12; G-39")


for _kind in (BurnHootch(), Medcap()):
    register(_kind)

from game.rules import village_caches, village_civilians  # noqa: E402,F401,I001  (G-35 caches; G-39, G-13)
from game.rules.village_caches import find_caches, secure_caches  # noqa: E402
from game.rules.village_civilians import grazed, nearest_civilian, score, tension, under_template  # noqa: E402


# -- the chapter ---------------------------------------------------------------------------------------------
def markers(g: Game, side: str) -> list[dict]:
    """``civilian`` (public) and ``cache`` (Insurgent and referee: all; Allied: found, secured or destroyed ones)."""
    out = [{"id": c.id, "kind": "civilian", "x": c.x, "y": c.y, "state": c.state, "treated": c.treated}
           for c in civilians(g)]
    for c in caches(g):
        if c.state == "hidden" and side not in ("insurgent", "referee"):
            continue
        out.append({"id": c.id, "kind": "cache", "x": c.x, "y": c.y, "contents": c.kind, "state": c.state})
    return out


def _register_finder() -> None:
    from game.rules import search

    if hasattr(search, "register_finder"):
        search.register_finder("village", find_caches)


class VillageChapter(Chapter):
    """DD chapter 9B §3 (the village) on the chapter seam: active with a ``[village]`` section."""

    id = "village"
    title = "DD chapter 9B: the village (Civic Drift)"
    actions = ("burn_hootch", "medcap", "destroy_cache", "hot_sector")
    state_type = VillageState
    table_fields = ("civilians", "caches", "contraband", "burned")

    def active(self, g: Game) -> bool:
        return vstate(g) is not None

    def new_state(self, g: Game) -> VillageState | None:
        s = setup(g)
        if s is None:
            return None
        return VillageState(civilians=[Civilian(c.id, c.x, c.y) for c in s.civilians],
                            caches=[Cache(c.id, c.x, c.y, c.kind, c.feature) for c in s.caches])

    def load_tables(self, book: Any) -> VillageTables:
        return load_village()

    def steps(self) -> tuple[Step, ...]:
        return (Step("tension", 36, tension, "G-13", self.id),
                Step("after_act", 30, secure_caches, "DD-9B.13; G-35", self.id))

    def markers(self, g: Game, side: str) -> list[dict]:
        return markers(g, side)

    def score(self, g: Game) -> list[tuple[int, str]]:
        return score(g)


CHAPTER = register_chapter(VillageChapter())
_register_finder()
__all__ = ["drift", "tier", "near", "civilians", "caches", "grazed", "nearest_civilian", "under_template"]
