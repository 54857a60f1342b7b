"""The VC smoke spoof (DD-4.37, DD-4.36; G-18, G-22, G-29).

An Insurgent element within 4" of an Allied marking plume (``air.Plume``, popped with a ``call_air``)
spends 1 Ambush Token (``smoke_spoof``, a side action: no element activates) and pops smoke of the
same colour beside its stand nearest the plume. It is the Insurgent's secret (its events and marker
are theirs) until the strike arrives: then the pilot sees two plumes of the colour and the Allied RTO
makes a Radio Check (4+, +1 with a FAC overhead); a failure drifts the strike 2d6" more toward the
spoof smoke (``air.strike``). One spoof a plume. What it leaves out: the solo AI's automatic spoof
(G-29: on 4+ with an AI stand within 4"); the Jungle Ghost spends no tokens here.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shapely.geometry import Point

from game.rules.errors import IllegalAction
from game.rules.fire_support.air import Plume, Spoof, air_rules
from game.rules.fire_support.missions import _next_id, fs_state
from game.rules.game import SideActionKind, register_side
from game.rules.state import Element, base_of

if TYPE_CHECKING:
    from game.rules.game import Game


def _spoofers(g: Game, plume: Plume) -> list[Element]:
    r = air_rules(g)
    p = Point(plume.x, plume.y)
    return sorted((el for el in g.state.elements.values()
                   if el.side == "insurgent" and not el.reserve and g.state.living(el)
                   and any(base_of(g.book, s).distance(p) <= r.spoof_reach + 1e-9 for s in g.state.living(el))),
                  key=lambda e: e.id)


class SmokeSpoof(SideActionKind):
    """DD-4.37: an Insurgent element within 4" of an Allied marking plume spends 1 Ambush Token and pops
    smoke of the same colour; the incoming strike may go for it (the RTO Radio Check, :func:`strike`)."""

    type = "smoke_spoof"

    def offers(self, g: Game, side: str) -> list[dict]:
        fs, r = fs_state(g), air_rules(g)
        if side != "insurgent" or fs is None or g.state.sides[side].ambush_tokens < r.spoof_tokens:
            return []
        spoofed = {s.plume for s in fs.spoofs}
        by_el: dict[str, list[str]] = {}
        for pl in fs.plumes:
            if pl.id not in spoofed:
                for el in _spoofers(g, pl):
                    by_el.setdefault(el.id, []).append(pl.id)
        return [{"type": self.type, "side": side, "element": eid, "cost": 0, "tokens": r.spoof_tokens,
                 "clause": "DD-4.37; G-18; G-29",
                 "label": f"{g.state.elements[eid].name}: spoof the Allied smoke ({r.spoof_tokens} Ambush Token)",
                 "params": {"plume": {"kind": "choice", "choices": ids, "default": ids[0],
                                      "doc": "an Allied marking smoke within 4\": yours copies its colour"}}}
                for eid, ids in sorted(by_el.items())]

    def check(self, g: Game, side: str, action: dict) -> tuple[Element, Plume]:
        fs, r = fs_state(g), air_rules(g)
        if side != "insurgent":
            raise IllegalAction("only the Insurgent side spoofs smoke", "DD-4.37")
        el = g.state.elements.get(action.get("element")) if isinstance(action.get("element"), str) else None
        if el is None or el.side != side or not g.knows_element(side, el):
            raise IllegalAction(f"no element {action.get('element')!r}", "DD-2.5")
        plume = next((p for p in fs.plumes if p.id == action.get("plume")), None)
        if plume is None:
            raise IllegalAction(f"no Allied marking smoke {action.get('plume')!r}", "DD-4.37")
        if any(s.plume == plume.id for s in fs.spoofs):
            raise IllegalAction(f"smoke {plume.id} is already spoofed", "DD-4.37")
        if el not in _spoofers(g, plume):
            raise IllegalAction(f"{el.name} is not within {r.spoof_reach:g}\" of smoke {plume.id}", "DD-4.37")
        if g.state.sides[side].ambush_tokens < r.spoof_tokens:
            raise IllegalAction(f"a spoof costs {r.spoof_tokens} Ambush Token; "
                                f"{g.state.sides[side].ambush_tokens} left", "DD-4.37; G-29")
        return el, plume

    def act(self, g: Game, side: str, action: dict) -> None:
        self.resolve(g, side, action, self.check(g, side, action))

    def resolve(self, g: Game, side: str, action: dict, plan: tuple[Element, Plume]) -> None:
        el, plume = plan
        fs, r, s = fs_state(g), air_rules(g), g.state
        s.sides[side].ambush_tokens -= r.spoof_tokens
        g.emit({"type": "tokens", "side": side, "spent": r.spoof_tokens, "tokens": s.sides[side].ambush_tokens,
                "clause": "DD-4.37; G-29", "text": f"{r.spoof_tokens} Ambush Token spent on a smoke spoof"},
               visible=side)
        st = min(s.living(el), key=lambda x: (math.hypot(x.x - plume.x, x.y - plume.y), x.id))
        spoof = Spoof(_next_id(g, "spoof"), plume.id, el.id, round(st.x, 2), round(st.y, 2), plume.colour, s.turn)
        fs.spoofs.append(spoof)
        g.emit({"type": "smoke", "kind": "spoof", "id": spoof.id, "x": spoof.x, "y": spoof.y, "side": side,
                "colour": spoof.colour, "element": el.id, "clause": "DD-4.37; G-18",
                "text": f"{el.name} pops {spoof.colour} smoke to spoof the Allied marker"}, visible=side)


register_side(SmokeSpoof())
