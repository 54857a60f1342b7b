"""The village's caches (DD-9B.13, G-35): the half of chapter ``village`` (``game.rules.village``) that finds,
secures and destroys the Insurgent's rice and weapons caches.

* **Found** by a successful Search (DD-2.15, G-35) of the feature it lies in, or of the ground over it: the
  search finder :func:`find_caches` (``search.register_finder``), public ``cache_found``; a cache found in a
  hootch is contraband found there (DD-9B.10: burning that hootch costs nothing).
* **Secured** (:func:`secure_caches`, as each impulse opens, so after every activation ends): a found cache
  with an Allied stand in contact and no enemy stand on the table within 4" (a hidden one gives no sign):
  Civic Drift +2 and VP +1, once; not if its hootch was burned ("without harming homes").
* **Destroyed** (``destroy_cache``): one action by a stand in contact with a found cache, no penalty.

Fog (DESIGN §6): a hidden cache is the Insurgent's only; ``destroy_cache`` refuses it as one that does not
exist. What it leaves out: caches carried or moved by the Insurgent (no rule gives them a move).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.state import base_of
from game.rules.village import Cache, cache_shape, caches, contact, drift, enemy_within, rubble, rules, vstate

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.rules.state import Element, Stand


# -- caches (DD-9B.13, G-35) ---------------------------------------------------------------------------------
def find_caches(g: Game, el: Element, area: Any, stands: list[Stand], feature_id: str | None) -> list[str]:
    """The search finder (``search.register_finder``): a successful Search finds every hidden cache in the
    feature searched, or on the ground searched (G-35); public ``cache_found``."""
    vs = vstate(g)
    if vs is None:
        return []
    out = []
    for c in vs.caches:
        if c.state != "hidden":
            continue
        inside = c.feature == feature_id if c.feature is not None else area.intersects(cache_shape(g, c))
        if not inside:
            continue
        c.state = "found"
        if c.feature is not None and c.feature not in vs.contraband:
            vs.contraband.append(c.feature)
        g.emit({"type": "cache_found", "cache": c.id, "x": c.x, "y": c.y, "kind": c.kind, "element": el.id,
                "feature": c.feature, "clause": "DD-9B.13; G-35",
                "text": f"{el.name} finds a {c.kind} cache ({c.id})"})
        out.append(f"a {c.kind} cache")
    return out


def _touching(g: Game, el: Element, c: Cache) -> Stand | None:
    shape = cache_shape(g, c)
    reach = contact(g) + 1e-9
    return next((s for s in g.state.living(el) if base_of(g.book, s).distance(shape) <= reach), None)


def secure_caches(g: Game) -> None:
    """As each impulse opens (after an activation ends): a found cache with an Allied stand in contact and no
    enemy within 4" is secured, +2 Drift and VP +1, unless its hootch was burned (DD-9B.13 "without
    harming homes", G-35)."""
    vs = vstate(g)
    if vs is None:
        return
    r = rules(g).cache
    for c in vs.caches:
        if c.state != "found" or (c.feature is not None and rubble(g, c.feature)):
            continue
        shape = cache_shape(g, c)
        st = next((s for el in g.state.elements.values() if el.side == "allied" and g.state.on_table(el)
                   for s in [_touching(g, el, c)] if s is not None), None)
        if st is None or enemy_within(g, "allied", shape, r.enemy_radius):
            continue
        c.state = "secured"
        g.state.sides["allied"].vp += r.vp
        g.emit({"type": "cache_secured", "cache": c.id, "x": c.x, "y": c.y, "stand": st.id, "vp": r.vp,
                "clause": "DD-9B.13; G-35", "text": f"{st.id} secures the {c.kind} cache {c.id} (VP {r.vp:+d})"})
        drift(g, r.drift, f"the {c.kind} cache {c.id} is secured", "DD-9B.13; G-35")


def _destroyable(g: Game, el: Element) -> list[tuple[Cache, Stand]]:
    if el.side != "allied":
        return []
    return [(c, st) for c in caches(g) if c.state == "found" for st in [_touching(g, el, c)] if st is not None]


class DestroyCache(ActionKind):
    """Destroy a found cache (G-35): one action by a stand in contact, no Drift penalty."""

    type = "destroy_cache"
    chapter = "village"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        found = _destroyable(g, el)
        if not found:
            return []
        return [{"type": self.type, **common, "clause": "DD-9B.13; G-35",
                 "label": f"{el.name}: destroy a cache ({price})",
                 "params": {"cache": {"kind": "token", "choices": [c.id for c, _ in found],
                                      "doc": "a found cache in contact"}}}]

    def check(self, g: Game, el: Element, action: dict) -> tuple[Cache, Stand]:
        if el.side != "allied":
            raise IllegalAction("destroying a cache is an Allied action", "G-35")
        cid = action.get("cache")
        c = next((c for c in caches(g) if c.id == cid and c.state != "hidden"), None)
        if c is None:  # a hidden cache is refused as one that does not exist (DESIGN §6)
            raise IllegalAction(f"no found cache {cid!r}", "DD-9B.13; G-35")
        if c.state != "found":
            raise IllegalAction(f"cache {cid} is {c.state} already", "G-35")
        st = _touching(g, el, c)
        if st is None:
            raise IllegalAction(f"no stand of {el.name} is in contact with cache {cid}", "G-35")
        return c, st

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[Cache, Stand]) -> None:
        c, st = plan
        c.state = "destroyed"
        g.emit({"type": "cache_destroyed", "cache": c.id, "x": c.x, "y": c.y, "stand": st.id, "clause": "G-35",
                "text": f"{st.id} destroys the {c.kind} cache {c.id} (no Civic Drift penalty)"})


register(DestroyCache())
