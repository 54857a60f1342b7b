"""Resupply (DD-4.26, G-32): the action that takes a Low Ammo marker off.

Recon by Fire costs the firer a Low Ammo marker (DD-4.26): a halved Aimed Fire pool and no Area
Suppression, Grazing Fire or more Recon by Fire "until resupplied". The rulebook names no resupply
action; G-32 proposes one: an activation (1 CP for the Allies) with any stand of the element in base
contact with a source of ammunition, which clears the marker. The sources are data
(``detection.toml [resupply]``): the Platoon HQ and a landed helicopter today; vehicles, boats and
captured caches join that list with the chapters that put them on the table.

What it leaves out: carrying ammunition forward (no ammunition bearers in the stand lists), and
resupplying an element that is not Low Ammo (nothing to clear: the action is not offered).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules import detection
from game.rules.errors import IllegalAction
from game.rules.game import ActionKind, register
from game.rules.state import Element, base_of

if TYPE_CHECKING:
    from game.rules.game import Game


def sources(g: Game, el: Element) -> list[str]:
    """What ``el`` may resupply from now: names of the sources one of its stands touches (G-32)."""
    r = detection.rules().resupply
    contact = g.book.command.base_contact + 1e-9
    mine = [base_of(g.book, s) for s in g.state.living(el)]
    found: list[str] = []
    for other in sorted(g.state.elements.values(), key=lambda e: e.id):
        if other.id == el.id or other.side != el.side or other.kind not in r.element_kinds:
            continue
        theirs = [base_of(g.book, s) for s in g.state.living(other)]
        if any(a.distance(b) <= contact for a in mine for b in theirs):
            found.append(other.name)
    heli = _landed_helicopter(g) if r.landed_helicopter and el.side == "allied" else None
    if heli is not None:
        from shapely.geometry import Point

        pad = Point(heli.x, heli.y).buffer(heli.radius)
        if any(a.distance(pad) <= contact for a in mine):
            found.append("the landed helicopter")
    return found


def _landed_helicopter(g: Game):
    state = g.state.chapters.get("casevac")
    return getattr(state, "helicopter", None)


class Resupply(ActionKind):
    """G-32: an element with Low Ammo in base contact with a source spends the activation to clear it."""

    type = "resupply"

    def offers(self, g: Game, el: Element, common: dict, price: str) -> list[dict]:
        if not el.low_ammo:
            return []
        found = sources(g, el)
        if not found:
            return []
        return [{"type": self.type, **common, "clause": detection.rules().resupply.clause, "params": {},
                 "label": f"{el.name}: Resupply from {found[0]}, clear Low Ammo ({price})"}]

    def check(self, g: Game, el: Element, action: dict) -> list[str]:
        clause = detection.rules().resupply.clause
        if not el.low_ammo:
            raise IllegalAction(f"{el.name} is not Low Ammo: there is nothing to resupply", clause)
        found = sources(g, el)
        if not found:
            kinds = " or ".join(["the Platoon HQ" if k == "hq" else k for k in detection.rules().resupply.element_kinds]
                                + (["a landed helicopter"] if detection.rules().resupply.landed_helicopter else []))
            raise IllegalAction(f"{el.name} must be in base contact with {kinds} to resupply", clause)
        return found

    def resolve(self, g: Game, el: Element, action: dict, plan: list[str]) -> None:
        el.low_ammo = False
        g.emit({"type": "status", "element": el.id, "status": "low_ammo", "on": False,
                "clause": detection.rules().resupply.clause, "text": f"{el.name} resupplies from {plan[0]}: Low Ammo is cleared"},
               visible=g.visibility_of_element(el))


register(Resupply())
