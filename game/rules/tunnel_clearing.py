"""Clearing tunnels from the surface (DD-9B.6–9B.7; G-35; C-28; TUN-17, TUN-22): the Allied actions at a
found entrance, each by an Allied element with a stand within 2" of it (numbers in game/data/tunnels.toml):

* ``gas_tunnel`` (DD-9B.6, G-35): a CS grenade; nothing enters or emerges there until the end of the next
  turn; if Insurgent stands are in the network below it, the Insurgent loses 1 Ambush Token.
* ``tunnel_satchel`` (DD-9B.6): a satchel charge; G-35 gives no roll, so DD-9B.7's 3+ collapses it.
* ``tunnel_rat`` (DD-9B.6, G-35, without the TUN module): a Small stand goes down and rolls 1d6: 1 lost (a
  KIA that cannot be recovered: its Casualty Token is a KIA token at the entrance that no one carries),
  2–3 nothing, 4–5 intelligence (another linked entrance revealed), 6 a cache (Drift +2, VP +1) and the
  entrance collapses if the action asked for it (``collapse``, default true). A trapped entrance not yet
  disarmed springs its trap on the rat first (TUN-7, G-43). With the module, a Tunnel Rat really goes down
  (``game.rules.underground``).
* ``destroy_tunnel`` (DD-9B.7, C-28): any stand; the activation (its 1 CP); 3+ collapses it for good.
* ``set_charges`` (TUN-22, TUN-17, C-28): Engineers, Sappers and Tunnel Rats only; announced, the whole
  activation; the Insurgent's standing Overwatch may fire on the charging stands (G-43 "reactive fire");
  at the end of the initiative (as the next impulse opens, :func:`resolve_charges`) 2+ collapses it, if a
  charging stand still lives, unpinned, within reach; on a 1 the procedure may be repeated later.

What it leaves out: the underground half of TUN-22 (the first adjacent section, ``game.rules.underground``,
which records its charges in ``TunnelState.charging`` and resolves them with :func:`resolve_charges` too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules import tunnels
from game.rules.dice import Modifier, resolve_test
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.state import Element, Stand
from game.rules.tunnel_actions import _near, _params, _pick, _st, in_network, reveal, spring_trap
from game.rules.tunnels import SectionSetup, network, rules

if TYPE_CHECKING:
    from game.rules.game import Game


def _offer(kind: ActionKind, g: Game, el: Element, common: dict, reach: float, clause: str, label: str,
           extra: dict | None = None, stands: callable = None) -> list[dict]:  # type: ignore[valid-type]
    if el.side != "allied" or tunnels.state(g) is None:
        return []
    secs = [s for s, near in _near(g, el, reach, True) if stands is None or stands(g, near)]
    if not secs:
        return []
    return [{"type": kind.type, **common, "clause": clause, "label": f"{el.name}: {label}",
             "params": {**_params(secs, "a found, open tunnel entrance within reach"), **(extra or {})}}]


def _stands_of(g: Game, stands: list[Stand], roles: list[str]) -> list[Stand]:
    return [s for s in stands if g.book.stands[s.type].role in roles]


# -- CS gas (DD-9B.6, G-35) ---------------------------------------------------------------------------------
class GasTunnel(ActionKind):
    type = "gas_tunnel"
    chapter = "tunnels"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        return _offer(self, g, el, common, rules(g).gas.reach, "DD-9B.6; G-35",
                      f"drop a CS gas grenade down a tunnel entrance ({price})")

    def check(self, g: Game, el: Element, action: dict) -> SectionSetup:
        return _pick(g, el, action, rules(g).gas.reach, "DD-9B.6; G-35", "gas")[0]

    def resolve(self, g: Game, el: Element, action: dict, plan: SectionSetup) -> None:
        gas(g, el, plan)


def gas(g: Game, el: Element, sec: SectionSetup) -> None:
    """G-35: CS holds the entrance to the end of the next turn; Insurgent stands below lose it a token."""
    st = _st(g)
    r = rules(g).gas
    until = g.state.turn + r.turns
    st.gassed = dict(sorted({**st.gassed, sec.id: until}.items()))
    g.emit({"type": "tunnel_gas", "section": sec.id, "element": el.id, "x": sec.x, "y": sec.y, "until_turn": until,
            "clause": "DD-9B.6; G-35",
            "text": f"{el.name} drops CS gas down tunnel entrance {sec.id}: nothing enters or emerges there "
                    f"until the end of turn {until}"})
    net = network(g)
    assert net is not None
    below = {sec.id, *net.linked(sec.id)}
    side = g.state.sides["insurgent"]
    if any(st.where[e.id] in below for e in in_network(g)) and side.ambush_tokens > 0:
        lost = min(r.tokens_lost, side.ambush_tokens)
        side.ambush_tokens -= lost
        g.emit({"type": "tokens", "side": "insurgent", "spent": lost, "tokens": side.ambush_tokens,
                "clause": "G-35", "text": f"CS gas in the tunnels: {lost} Ambush Token lost "
                                          f"({side.ambush_tokens} left)"}, visible="insurgent")


# -- the satchel charge (DD-9B.6; DD-9B.7's roll, G-35) -----------------------------------------------------
class TunnelSatchel(ActionKind):
    type = "tunnel_satchel"
    chapter = "tunnels"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        r = rules(g).satchel
        return _offer(self, g, el, common, r.reach, r.clause,
                      f"throw a satchel charge into a tunnel entrance, {r.target}+ collapses it ({price})")

    def check(self, g: Game, el: Element, action: dict) -> SectionSetup:
        return _pick(g, el, action, rules(g).satchel.reach, rules(g).satchel.clause, "blow")[0]

    def resolve(self, g: Game, el: Element, action: dict, plan: SectionSetup) -> None:
        r = rules(g).satchel
        demolition(g, el, plan, r.target, "satchel", r.clause, "Satchel charge")


def demolition(g: Game, el: Element, sec: SectionSetup, target: int, how: str, clause: str, purpose: str,
               modifiers: list[Modifier] | None = None) -> bool:
    """One demolition roll at ``sec`` (public); on a pass the section collapses (``tunnels.collapse``)."""
    ev = resolve_test(g.dice, purpose=purpose, target=target, modifiers=modifiers or [], clause=clause,
                      side=el.side, element=el.id, subject=f"{el.name} at tunnel entrance {sec.id}")
    g.emit(ev)
    if ev["result"] == "pass":
        tunnels.collapse(g, sec.id, how, clause)
        return True
    g.emit({"type": "note", "element": el.id, "clause": clause,
            "text": f"The charge at {sec.id} fails: the tunnel stands"})
    return False


# -- DD-9B.7 (C-28: any stand, 3+) -----------------------------------------------------------------------------
class DestroyTunnel(ActionKind):
    type = "destroy_tunnel"
    chapter = "tunnels"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        r = rules(g).destroy
        return _offer(self, g, el, common, r.reach, r.clause,
                      f"place a demolition charge at a tunnel entrance, {r.target}+ collapses it ({price})")

    def check(self, g: Game, el: Element, action: dict) -> SectionSetup:
        return _pick(g, el, action, rules(g).destroy.reach, rules(g).destroy.clause, "destroy")[0]

    def resolve(self, g: Game, el: Element, action: dict, plan: SectionSetup) -> None:
        r = rules(g).destroy
        demolition(g, el, plan, r.target, "charge", r.clause, "Destroy tunnel")


# -- TUN-22 (C-28: Engineers, Sappers and Tunnel Rats, 2+, the whole initiative) -------------------------------
class SetCharges(ActionKind):
    type = "set_charges"
    chapter = "tunnels"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        r = rules(g).charges
        if el.id in (tunnels.state(g).charging if tunnels.state(g) else {}):
            return []
        return _offer(self, g, el, common, r.reach, r.clause,
                      f"set charges at a tunnel entrance (the whole activation; {r.target}+ at its end) ({price})",
                      stands=lambda g, near: bool(_stands_of(g, near, r.roles)))

    def check(self, g: Game, el: Element, action: dict) -> tuple[SectionSetup, list[Stand]]:
        r = rules(g).charges
        sec, near = _pick(g, el, action, r.reach, r.clause, "set charges at")
        setters = _stands_of(g, near, r.roles)
        if not setters:
            raise IllegalAction(f"{el.name} has no Engineer, Sapper or Tunnel Rat stand within {r.reach:g}\" of "
                                f"{sec.id}: other stands destroy a tunnel with DD-9B.7", "TUN-22; TUN-17; C-28")
        return sec, setters

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[SectionSetup, list[Stand]]) -> None:
        sec, setters = plan
        start_charges(g, el, sec.id)
        reactive_fire(g, el, setters)


def start_charges(g: Game, el: Element, sid: str) -> None:
    """TUN-22: the charges are announced (public); they go off at the end of the initiative."""
    st = _st(g)
    st.charging = dict(sorted({**st.charging, el.id: sid}.items()))
    net = network(g)
    assert net is not None
    sec = net.sections[sid]
    g.emit({"type": "tunnel_charge", "section": sid, "element": el.id, "x": sec.x, "y": sec.y,
            "clause": "TUN-22; C-28",
            "text": f"{el.name} sets charges on {sid}: they go off at the end of the initiative"},
           visible="all" if sid in tunnels.known(g, "allied") else el.side)


def reactive_fire(g: Game, el: Element, setters: list[Stand]) -> None:
    """TUN-22 "it may receive reactive fire" (G-43: Opportunity Fire against Engineers preparing charges):
    each Insurgent element whose standing Overwatch covers a charging stand fires on it (DD-2.17–2.23)."""
    from game.rules import fire
    from game.rules.crew import reaction_fire
    from game.rules.reactions import clear_overwatch, closest_target, overwatch_active, watched_zone
    from game.rules.state import base_of

    for ow in sorted(g.state.elements.values(), key=lambda e: e.id):
        if ow.side == el.side or overwatch_active(g, ow) is None or not g.state.living(el):
            continue
        zone = watched_zone(g, ow, ow.overwatch)
        if not any(base_of(g.book, s).intersects(zone) for s in setters if s.alive):
            continue
        target = closest_target(g, ow, el)
        if target is None:
            continue
        clear_overwatch(g, ow, "it has fired", "DD-2.23")
        reaction_fire(g, ow, target, fire.Context("overwatch", "TUN-22; G-43; DD-2.17-2.22"),
                      f"{ow.name}: Opportunity Fire at {el.name} setting charges")


def resolve_charges(g: Game) -> None:
    """TUN-22 at the end of the initiative: each charge set rolls 2+ to destroy its section, if a charging
    stand still lives (unpinned; on the table within reach, or underground for ``underground``'s)."""
    st = tunnels.state(g)
    if st is None or not st.charging:
        return
    r = rules(g).charges
    net = network(g)
    assert net is not None
    pending, st.charging = sorted(st.charging.items()), {}
    for eid, sid in pending:
        el = g.state.elements[eid]
        sec = net.sections[sid]
        if sid in st.collapsed:
            continue
        ok = not el.pinned and bool(g.state.living(el))
        if ok and g.state.on_table(el):
            ok = bool(_stands_of(g, [s for sec2, near in _near(g, el, r.reach, True) if sec2.id == sid for s in near],
                                 r.roles))
        if not ok:
            g.emit({"type": "note", "element": eid, "clause": r.clause,
                    "text": f"{el.name} could not finish setting the charges on {sid}"},
                   visible="all" if sid in tunnels.known(g, "allied") else el.side)
            continue
        demolition(g, el, sec, r.target, "charge", r.clause, "Tunnel charges")


# -- the Tunnel Rat without the module (DD-9B.6, G-35) -----------------------------------------------------------
class TunnelRat(ActionKind):
    type = "tunnel_rat"
    chapter = "tunnels"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        net = network(g)
        if net is None or net.module:
            return []
        r = rules(g).tunnel_rat
        small = lambda g, near: bool(_small(g, near))  # noqa: E731
        offers = _offer(self, g, el, common, r.reach, r.clause,
                        f"send a Tunnel Rat down a tunnel entrance ({price})", stands=small)
        for o in offers:
            o["params"]["section"]["choices"] = [s for s in o["params"]["section"]["choices"]
                                                 if not tunnels.is_gassed(g, s)]
        offers = [o for o in offers if o["params"]["section"]["choices"]]
        for o in offers:
            stands = sorted({s.id for sec, near in _near(g, el, r.reach, True) for s in _small(g, near)})
            o["params"]["stand"] = {"kind": "stand", "choices": stands, "doc": "the Small stand that goes down"}
            o["params"]["collapse"] = {"kind": "flag", "optional": True,
                                       "doc": "on a 6 (a cache), collapse the entrance (default true)"}
        return offers

    def check(self, g: Game, el: Element, action: dict) -> tuple[SectionSetup, Stand]:
        r = rules(g).tunnel_rat
        net = network(g)
        if net is not None and net.module:
            raise IllegalAction("with the Tunnel Warfare module a Tunnel Rat really goes down", "G-35; G-43")
        sec, near = _pick(g, el, action, r.reach, r.clause, "send a Tunnel Rat down")
        if tunnels.is_gassed(g, sec.id):
            raise IllegalAction(f"tunnel entrance {sec.id} is full of CS gas: nothing enters it until the end of "
                                f"turn {_st(g).gassed[sec.id]}", "DD-9B.6; G-35")
        sid = action.get("stand")
        rat = next((s for s in _small(g, near) if s.id == sid), None)
        if rat is None:
            raise IllegalAction(f"{sid!r} is not a Small stand of {el.name} within {r.reach:g}\" of {sec.id}",
                                r.clause)
        return sec, rat

    def resolve(self, g: Game, el: Element, action: dict, plan: tuple[SectionSetup, Stand]) -> None:
        sec, rat = plan
        tunnel_rat(g, el, sec, rat, action.get("collapse", True) is not False)


def _small(g: Game, stands: list[Stand]) -> list[Stand]:
    return [s for s in stands if g.book.stands[s.type].base == "small" and s.alive]


def tunnel_rat(g: Game, el: Element, sec: SectionSetup, rat: Stand, collapse: bool) -> str:
    """G-35's Tunnel Rat roll for ``rat`` at ``sec``; returns the result."""
    st = _st(g)
    r = rules(g).tunnel_rat
    if sec.trapped and sec.id not in st.disarmed:
        spring_trap(g, el, sec, "TUN-7; G-43")
        if not rat.alive:
            return "lost"
    die = g.dice.d6()
    result = r.results[die - 1]
    g.emit({"type": "roll", "purpose": "Tunnel Rat", "side": "allied", "element": el.id, "stand": rat.id,
            "dice": [die], "target": 0, "modifiers": [], "need": 0, "result": result, "clause": r.clause,
            "text": f"{rat.id} goes down {sec.id} with a pistol and a flashlight: rolled {die}, {result}"})
    g.emit({"type": "tunnel_rat", "element": el.id, "stand": rat.id, "section": sec.id, "result": result,
            "clause": r.clause, "text": _rat_text(rat, sec, result)})
    if result == "lost":
        _lose(g, rat, sec, r.clause)
    elif result == "intel":
        _intel(g, el, sec, r.clause)
    elif result == "cache":
        g.state.sides["allied"].vp += r.cache_vp
        from game.rules.village import drift

        drift(g, r.cache_drift, f"{rat.id} finds a cache in the tunnels", r.clause)
        if collapse:
            tunnels.collapse(g, sec.id, "charge", r.clause)
    return result


def _rat_text(rat: Stand, sec: SectionSetup, result: str) -> str:
    return {"lost": f"{rat.id} does not come back from {sec.id}",
            "nothing": f"{rat.id} finds nothing in {sec.id} and comes back",
            "intel": f"{rat.id} comes back from {sec.id} with intelligence",
            "cache": f"{rat.id} finds a cache beneath {sec.id}"}[result]


def _lose(g: Game, rat: Stand, sec: SectionSetup, clause: str) -> None:
    """G-35 result 1: lost, "a Casualty Token that cannot be recovered; counts as KIA": the stand is gone
    and no token lies on the table for a Litter Team to lift; the chapter's score counts it KIA."""
    st = _st(g)
    el = g.state.elements[rat.element]
    rat.alive = False
    rat.hits = max(rat.hits, g.book.stands[rat.type].hits)
    rat.x, rat.y = sec.x, sec.y
    st.rats_lost = sorted({*st.rats_lost, rat.id})
    g.emit({"type": "casualty", "stand": rat.id, "element": el.id, "state": "kia", "x": sec.x, "y": sec.y,
            "clause": clause, "text": f"{rat.id} is lost in the tunnels: KIA, not recoverable"})
    if not g.state.living(el):
        g.emit({"type": "eliminated", "element": el.id, "clause": clause, "text": f"{el.name} is eliminated"})
        el.overwatch = None


def _intel(g: Game, el: Element, sec: SectionSetup, clause: str) -> None:
    """G-35 results 4–5: one other linked entrance the Allied side does not know is revealed (the nearest)."""
    net = network(g)
    st = _st(g)
    assert net is not None
    surface = set(net.surface())
    left = [net.sections[s] for s in net.linked(sec.id) if s in surface and s not in st.found]
    if not left:
        g.emit({"type": "note", "element": el.id, "clause": clause,
                "text": "The intelligence names no entrance the Allied side does not know"})
        return
    nxt = min(left, key=lambda s: ((s.x - sec.x) ** 2 + (s.y - sec.y) ** 2, s.id))
    reveal(g, nxt, el.id, "tunnel_rat", clause)


for _kind in (GasTunnel(), TunnelSatchel(), DestroyTunnel(), SetCharges(), TunnelRat()):
    register(_kind)
