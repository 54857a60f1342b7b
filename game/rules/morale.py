"""Morale and pinning (DD-5.19–5.21; C-06; DD-3.7; DD-2.33).

One morale statistic per element: its quality's target (3+ veterans, Marines and NVA regulars; 4+
standard; 5+ militia), used by every passage that asks for a Morale Test (C-06). Winded is -1.
A failed test pins the element; an element already pinned that fails again retreats 3" toward cover
(DD-5.21).

What it leaves out: the firing that causes most tests (chapter 5 shooting) calls in here.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.rules.dice import Modifier, resolve_test
from game.rules.state import Element, Stand, base_of

if TYPE_CHECKING:
    from game.rules.game import Game


def morale_modifiers(g: Game, element: Element) -> list[Modifier]:
    mods = []
    if element.winded:
        mods.append(Modifier("Winded", -1, "DD-3.7"))
    return mods


def morale_test(g: Game, element: Element, why: str, clause: str) -> bool:
    """Roll a Morale Test for an element and emit its explained roll event (DD-5.20, C-06)."""
    q = g.book.qualities[element.quality]
    ev = resolve_test(
        g.dice, purpose=f"Morale ({why})", target=q.morale, modifiers=morale_modifiers(g, element),
        clause=f"{clause}; DD-5.20", side=element.side, element=element.id, subject=element.name,
    )
    ev["quality"] = q.id
    g.emit(ev, visible=g.visibility_of_element(element))
    return ev["result"] == "pass"


def pin(g: Game, element: Element, clause: str) -> None:
    """A failed test (DD-5.21): pin the element, or retreat it 3" toward cover if already pinned.

    Chapter 5 consequences of a failure: a squad in water scrambles back to its bank (DD-3.19); an
    element on Overwatch loses its sights (DD-2.24, DD-5.24); a tree sniper falls (DD-4.42)."""
    from game.rules.fire import tree_sniper_falls
    from game.rules.reactions import clear_overwatch, scramble

    scrambled = scramble(g, element, clause)
    if element.pinned:
        if not scrambled:
            retreat(g, element, clause)
        return
    element.pinned = True
    element.conceal = False
    g.emit({"type": "status", "element": element.id, "status": "pinned", "on": True, "clause": clause,
            "text": f"{element.name} is Pinned"}, visible=g.visibility_of_element(element))
    clear_overwatch(g, element, "it is Pinned: Suppression Breaks Sights", "DD-2.24; DD-5.24")
    tree_sniper_falls(g, element, clause)


def test_or_pin(g: Game, element: Element, why: str, clause: str) -> bool:
    ok = morale_test(g, element, why, clause)
    if not ok:
        pin(g, element, clause)
    return ok


def retreat(g: Game, element: Element, clause: str) -> None:
    """An already-Pinned element that fails again retreats 3" toward cover (DD-5.21).

    The engine tries 16 directions and takes the legal spot with the best cover, away from the
    nearest enemy; if none is legal the element stays where it is, and the event says so.
    """
    from game.world.tablemap import COVER_ORDER

    dist = g.book.movement.pinned_retreat
    enemies = g.state.side_stands(g.state.other(element.side))
    stands = g.state.living(element)
    cx = sum(s.x for s in stands) / len(stands)
    cy = sum(s.y for s in stands) / len(stands)
    best = None
    for k in range(16):
        ang = 2 * math.pi * k / 16
        dx, dy = dist * math.cos(ang), dist * math.sin(ang)
        moved = {s.id: Stand(**{**s.__dict__, "x": s.x + dx, "y": s.y + dy}) for s in stands}
        if not g.placement_ok(element, moved):
            continue
        cover = sum(COVER_ORDER[g.table.cover_under(base_of(g.book, m)).cover] for m in moved.values())
        near_before = min((math.hypot(e.x - cx, e.y - cy) for e in enemies), default=0.0)
        near_after = min((math.hypot(e.x - cx - dx, e.y - cy - dy) for e in enemies), default=0.0)
        if near_after + 1e-9 < near_before:
            continue  # a retreat never goes toward the enemy
        score = (cover, round(near_after, 3), -k)
        if best is None or score > best[0]:
            best = (score, moved)
    if best is None:
        g.emit({"type": "retreat", "element": element.id, "stands": [], "clause": clause,
                "text": f"{element.name} cannot retreat 3\": no clear ground away from the enemy"},
               visible=g.visibility_of_element(element))
        return
    moves = []
    for s in stands:
        m = best[1][s.id]
        moves.append({"id": s.id, "from": [s.x, s.y, s.facing], "to": [round(m.x, 4), round(m.y, 4), s.facing]})
        s.x, s.y = round(m.x, 4), round(m.y, 4)
    g.emit({"type": "retreat", "element": element.id, "stands": moves, "clause": "DD-5.21",
            "text": f"{element.name}, already Pinned, fails again and falls back 3\" toward cover"},
           visible=g.visibility_of_element(element))
