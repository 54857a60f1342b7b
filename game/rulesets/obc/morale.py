"""One Brain-Cell morale and hand to hand (OBC-43 - OBC-46, OBC-50, OBC-51, G-42), as pure functions: a man's
check and, when it fails, the effect he will carry out in his next move; the rally of a panicked man; the
HTH scores and what the loser suffers.

What it leaves out: when a check is called and carrying its effect out (``game``).
"""

from __future__ import annotations

from game.dice import Dice
from game.rulesets.obc.dice import mod, test
from game.rulesets.obc.state import Man
from game.rulesets.obc.tables import Tables

CAUSES = {"first_fire": "the first time under fire", "friend_down": "a friend goes down within 4\"",
          "first_wound": "wounded for the first time", "out_of_command": "under fire and out of command",
          "rally": "rally"}


def check(dice: Dice, t: Tables, man: Man, cause: str, out_of_command: bool) -> tuple[str | None, list[dict]]:
    """OBC-43 - OBC-45: the check for ``cause``; on a failure the effect roll at once (applied in his next
    move, OBC-44). Returns (the effect or None, the events)."""
    m = t.morale
    need = t.morale_checks[cause]
    mods = ([mod("elite", m.elite, "OBC-43")] if man.elite else []) + \
           ([mod("civilian", m.civilian, "OBC-43")] if man.civilian else [])
    ok, _, ev = test(dice, f"morale: {CAUSES[cause]}", need.need, mods, need.clause, man.name, man=man.id)
    if ok:
        return None, [ev]
    emods = ([mod("elite", m.effect_elite, "OBC-45")] if man.elite else []) + \
            ([mod("civilian", m.effect_civilian, "OBC-45")] if man.civilian else []) + \
            ([mod("out of command", m.effect_out_of_command, "OBC-17")] if out_of_command else [])
    d6 = dice.d6()
    score = d6 + sum(x["value"] for x in emods)
    row = t.morale_effect(score)
    return row.id, [ev, {"type": "roll", "purpose": "morale effect", "man": man.id, "dice": "d6", "rolls": [d6],
                         "modifiers": emods, "result": score, "effect": row.id, "clause": "OBC-45",
                         "text": f"{man.name}: morale effect {d6} -> {score}: {row.id.replace('_', ' ')}"}]


def rally(dice: Dice, t: Tables, man: Man) -> tuple[bool, list[dict]]:
    """OBC-46, G-42: a panicked man in his leader's zone tests 4+ (elite +1, civilians -1)."""
    m = t.morale
    mods = ([mod("elite", m.elite, "OBC-43")] if man.elite else []) + \
           ([mod("civilian", m.civilian, "OBC-43")] if man.civilian else [])
    ok, _, ev = test(dice, "rally", t.morale_checks["rally"].need, mods, "OBC-46; G-42", man.name, man=man.id)
    return ok, [ev]


def hth_mods(t: Tables, man: Man, surprised: bool) -> list[dict]:
    """OBC-50: civilian -1, elite +2, barehanded -1, surprised -1, wounded -1."""
    h = t.hth_mods
    out = []
    for key, on in (("civilian", man.civilian), ("elite", man.elite), ("barehanded", man.weapon in ("none",)),
                    ("surprised", surprised), ("wounded", man.wounds > 0)):
        if on:
            out.append(mod(key, h[key].value, h[key].clause))
    return out


def hth(dice: Dice, t: Tables, a: Man, b: Man, a_surprised: bool, b_surprised: bool
        ) -> tuple[Man | None, str | None, list[dict]]:
    """OBC-50, OBC-51: both roll a d6 with their modifiers; (the loser, what he suffers, the events), or
    (None, None, ...) on a tie: deadlock, the fight goes on next turn."""
    scores, events = [], []
    for man, surprised in ((a, a_surprised), (b, b_surprised)):
        mods = hth_mods(t, man, surprised)
        d6 = dice.d6()
        s = d6 + sum(m["value"] for m in mods)
        scores.append(s)
        events.append({"type": "roll", "purpose": "hand to hand", "man": man.id, "dice": "d6", "rolls": [d6],
                       "modifiers": mods, "result": s, "clause": "OBC-50",
                       "text": f"{man.name}: hand to hand {d6} -> {s}"})
    diff = abs(scores[0] - scores[1])
    row = t.hth_result(diff)
    if row is None:
        events.append({"type": "hth", "men": [a.id, b.id], "result": "deadlock", "clause": "OBC-51",
                       "text": f"{a.name} and {b.name} are deadlocked"})
        return None, None, events
    loser = a if scores[0] < scores[1] else b
    events.append({"type": "hth", "men": [a.id, b.id], "loser": loser.id, "difference": diff, "result": row.id,
                   "clause": row.clause, "text": f"{loser.name} loses by {diff}: {row.id}"})
    return loser, row.id, events
