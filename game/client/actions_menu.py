"""The selected piece's actions as a short menu beside it: grouped Move, Fire, Spot, Special, then the side's.

The offers are the engine's (``game.actions``): their ``label``, ``cost`` (CP), ``tokens`` (Ambush tokens),
``emergency`` and ``preview`` (the engine answers odds for it) are shown as they come; this module only
sorts them into groups by their ``type`` and shortens the label (the element's name is the menu's
title already). A group with more offers than ``INLINE`` collapses into one entry ("Move: 5 ways"), which
opens in place; the side's actions (Pass the impulse, a reserve, a litter) go last, small.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

GROUPS = ("Move", "Fire", "Spot", "Special")
INLINE = 3  # offers a group shows before it collapses into one entry


@dataclass
class Row:
    """One line of the menu: a group's heading, an offer, a collapsed group, or a side action."""

    kind: str
    """"heading", "action", "group" (a collapsed group: opens it) or "side" (drawn small)."""
    label: str
    cost: str = ""
    """The offer's price as the engine gives it ("1 CP", "1 CP + 1 token"), right-aligned."""
    note: str = ""
    """A small word after the label: "odds" (the engine previews it), "emergency"."""
    callback: Callable[[], None] | None = None
    enabled: bool = True
    actions: list[dict] = field(default_factory=list)


def group_of(action: dict) -> str | None:
    """Which group an offer belongs to, from its ``type``; None for a side action (a pass)."""
    kind = str(action.get("type", ""))
    if kind == "pass":
        return None
    if "move" in kind or kind in ("sprint", "crawl", "withdraw", "mount", "dismount"):
        return "Move"
    if "fire" in kind or "assault" in kind or "grenade" in kind or kind in ("shoot", "strike", "air_strike"):
        return "Fire"
    if "spot" in kind or "sweep" in kind or "search" in kind:
        return "Spot"
    return "Special"


def group_actions(actions: list[dict]) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {g: [] for g in GROUPS}
    for a in actions:
        g = group_of(a)
        groups.setdefault(g or "Special", []).append(a)
    return {g: acts for g, acts in groups.items() if acts}


def cost_text(action: dict) -> str:
    """The price the offer names: its CP and Ambush tokens."""
    parts = []
    cost = action.get("cost")
    if isinstance(cost, int | float) and not isinstance(cost, bool) and cost:
        parts.append(f"{cost:g} CP")
    tokens = action.get("tokens")
    if isinstance(tokens, int) and not isinstance(tokens, bool) and tokens:
        parts.append(f"{tokens} token{'s' if tokens != 1 else ''}")
    return " + ".join(parts) or ("free" if cost == 0 else "")


def entry_label(action: dict) -> str:
    """The offer's label without its actor (``Patrol HQ: ``, ``Blind A1: ``) and the price in brackets
    (the menu shows the price in its own column)."""
    label = str(action.get("label") or action.get("type", "")).strip()
    if ": " in label and (action.get("element") or action.get("blind")):
        label = label.split(": ", 1)[1]
    label = re.sub(r"\s*\((\d+ CP|free|\d+ CP[^)]*)\)", "", label)
    return label[:1].upper() + label[1:]


def note_text(action: dict) -> str:
    words = []
    if action.get("preview"):
        words.append("odds")
    if action.get("emergency"):
        words.append("emergency")
    return ", ".join(words)


def menu_rows(actions: list[dict], side: list[dict], choose: Callable[[dict], None],
              open_group: Callable[[str | None], None], expanded: str | None = None) -> list[Row]:
    """The rows for one piece's offers (``actions``) and the side's (``side``): headings and entries;
    a group of more than ``INLINE`` offers is one entry unless it is ``expanded``."""
    rows: list[Row] = []
    for g, acts in group_actions(actions).items():
        if len(acts) > INLINE and g != expanded:
            costs = sorted({cost_text(a) for a in acts if cost_text(a)})
            rows.append(Row("group", f"{g}: {len(acts)} ways  >", costs[0] if len(costs) == 1 else "",
                            callback=lambda g=g: open_group(g), actions=acts))
            continue
        rows.append(Row("heading", g.upper()))
        rows += [Row("action", entry_label(a), cost_text(a), note_text(a), lambda a=a: choose(a), actions=[a])
                 for a in acts]
        if len(acts) > INLINE:
            rows.append(Row("group", "fewer  <", callback=lambda: open_group(None)))
    for a in side:
        rows.append(Row("side", entry_label(a) + ("  (P)" if a.get("type") == "pass" else ""), cost_text(a),
                        note_text(a), lambda a=a: choose(a), actions=[a]))
    return rows
