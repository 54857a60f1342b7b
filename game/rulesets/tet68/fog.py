"""What the other side reads of a Tet '68 event about a figure it does not own (DESIGN §6; TET-5, TET-6,
TET-15, TET-17).

At the table the dice of a shot and the number the firer needs are called out (TET-15), the exposure the
cover roll needs is in plain sight (TET-16) and so is the effect die (TET-17); the figures' statistics are on
their owner's roster (TET-5, TET-6). So the enemy's copy of a to-hit or hand-to-hand roll keeps the dice,
the target number, the automatic hits and the range band, and names the Weapon Skill without its value;
its copy of a wound keeps the loss and whether the figure is dead, not the Initiative left (the owner's
roster: the view shows an enemy neither). Which events a side reads at all is the game's (``game.py``).
"""

from __future__ import annotations

ROSTER = "Weapon Skill (on the firer's roster)"


def roll_seen_by_enemy(ev: dict) -> dict | None:
    """The firer's enemy's copy of a roll event (None: the same as the firer's side reads)."""
    if ev.get("type") != "roll" or not any(m.get("clause") == "TET-6" for m in ev.get("modifiers", ())):
        return None
    return {**ev, "modifiers": [{"name": ROSTER, "value": None, "clause": "TET-6"} if m.get("clause") == "TET-6"
                                else m for m in ev["modifiers"]]}


def wound_seen_by_enemy(ev: dict) -> dict:
    """The wounded figure's enemy's copy of a wound: the loss, dead or not."""
    dead = ev["state"] == "dead"
    out = {k: v for k, v in ev.items() if k != "initiative"}
    out["state"] = "dead" if dead else "hit"
    name = ev["text"].split(" is down to")[0]
    out["text"] = f"{name} loses {ev['loss']} Initiative" + (": dead" if dead else "")
    return out
