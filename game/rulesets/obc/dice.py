"""The One Brain-Cell dice conventions on the seeded streams (game.dice): a d6 against a need with its named
modifiers, ½d6 (G-42: ceil(d6 / 2)), dice totals for the MG table, and the GW scatter die (G-42). Every
die is an event: what it was for, the need, each modifier by name and clause, and the result.

What it leaves out: which need applies (``firing``, ``morale``).
"""

from __future__ import annotations

import math

from game.dice import Dice
from game.rulesets.obc.tables import Tables


def mod(name: str, value: int, clause: str) -> dict:
    return {"name": name, "value": value, "clause": clause}


def test(dice: Dice, purpose: str, need: int, mods: list[dict], clause: str, who: str, **ids) -> tuple[bool, int, dict]:
    """A d6 plus its modifiers against ``need`` (OBC's "roll 4,5,6"): (success, the modified score, the event)."""
    d6 = dice.d6()
    score = d6 + sum(m["value"] for m in mods)
    ok = score >= need
    shown = "".join(f" {m['value']:+d} {m['name']}" for m in mods)
    return ok, score, {"type": "roll", "purpose": purpose, "dice": "d6", "rolls": [d6], "target_number": need,
                       "modifiers": mods, "result": score, "success": ok, "clause": clause, **ids,
                       "text": f"{who}: {purpose}, needs {need}+, rolls {d6}{shown} = {score}: "
                               f"{'passed' if ok else 'failed'}"}


def half_d6(dice: Dice) -> tuple[int, int]:
    """½d6 (G-42: ceil(d6 / 2)): (the value, the d6 rolled)."""
    d6 = dice.d6()
    return (d6 + 1) // 2, d6


def total(dice: Dice, entry: str) -> tuple[int, list[int]]:
    """The MG table's dice ("2d6", "1d6", "half_d6"): (their total, the d6s rolled)."""
    if entry == "half_d6":
        v, d6 = half_d6(dice)
        return v, [d6]
    n = int(entry[0])
    rolls = [dice.d6() for _ in range(n)]
    return sum(rolls), rolls


def scatter(dice: Dice, t: Tables, at: tuple[float, float], who: str) -> tuple[tuple[float, float], list[dict]]:
    """G-42's scatter: the GW die (its "hit" faces on target; otherwise its arrow, read to the nearest of
    ``directions`` headings, a d8) and 1d6" of distance (OBC-27). Returns where the bomb lands."""
    b = t.bombs
    face = dice.d6()
    if face <= b.hit_faces:
        return at, [{"type": "roll", "purpose": "scatter", "dice": "d6", "rolls": [face], "target_number": b.hit_faces,
                     "modifiers": [], "result": face, "success": True, "clause": "OBC-27; G-42",
                     "text": f"{who}: the scatter die shows a hit: on target"}]
    heading = dice.die(b.directions)
    dist = dice.d6()
    ang = 2 * math.pi * (heading - 1) / b.directions
    land = (round(at[0] + dist * math.cos(ang), 3), round(at[1] + dist * math.sin(ang), 3))
    return land, [{"type": "roll", "purpose": "scatter", "dice": "d6+d8+d6", "rolls": [face, heading, dist],
                   "target_number": b.hit_faces, "modifiers": [], "result": dist, "success": False,
                   "heading": round(math.degrees(ang), 1), "landed": list(land), "clause": "OBC-27; G-42",
                   "text": f"{who}: the bomb scatters {dist}\" toward {round(math.degrees(ang))} degrees"}]
