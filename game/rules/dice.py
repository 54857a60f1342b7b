"""Dice: seeded streams held in the game state, and rolls that explain themselves (DESIGN §5).

Every die the rules roll comes from the seeded streams of ``game.dice`` (``rules``, ``ai``, ``cosmetic``:
each a SplitMix64 generator whose whole state is one integer kept in the game state), so a game is
exactly reproducible from (scenario, seed, actions) and the AI's thinking never shifts a combat die.
Tests force the next rolls with :meth:`Dice.force`. This module holds Dinky Dau's conventions.

A *test* (morale, spotting, to-hit) becomes a ``roll`` event: the dice, the base target, every
modifier with its name and clause, the number actually needed, and the result (G-31 edge cases:
a natural 6 always succeeds and a natural 1 always fails; a target never gets better than 2+). That
convention is data (``rules.toml [dice]``), and :func:`succeeds`, :func:`need` and :func:`p_success` are
the only places that apply it: every rule that rolls against a score asks them.

This module touches no global random state and no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from game.dice import MASK, STREAMS, Dice, _splitmix, seed_streams  # noqa: F401  (the streams: every ruleset's)
from game.rules.data import DiceRules, rulebook


@dataclass(frozen=True)
class Modifier:
    """One named modifier to a roll, with the clause that grants it."""

    name: str
    value: int
    clause: str

    def to_dict(self) -> dict:
        return {"name": self.name, "value": self.value, "clause": self.clause}


@cache
def convention() -> DiceRules:
    """The dice convention (rules.toml [dice], G-31), read once."""
    return rulebook().dice


def natural_success(die: int) -> bool:
    """Is this the face that always succeeds (a natural 6, G-31; a Critical Spot, DD-4.14)?"""
    return die == convention().natural_success


def succeeds(die: int, needed: int) -> bool:
    """Does one die make the score needed? The natural faces win over any score (G-31)."""
    c = convention()
    return die == c.natural_success or (die != c.natural_failure and die >= needed)


@cache
def p_success(needed: int) -> float:
    """P(one d6 succeeds) for a needed score, naturals included (G-31)."""
    return sum(1 for face in range(1, 7) if succeeds(face, needed)) / 6.0


def need(target: int, modifiers: list[Modifier]) -> int:
    """The die score needed after modifiers: never better than 2+ (DD-5.5, G-31); may exceed 6."""
    return max(convention().best_need, target - sum(m.value for m in modifiers))


def resolve_test(
    dice: Dice,
    *,
    purpose: str,
    target: int,
    modifiers: list[Modifier],
    clause: str,
    side: str,
    element: str | None = None,
    subject: str = "",
) -> dict:
    """Roll one die against a target, and return the explained ``roll`` event (G-31 naturals)."""
    die = dice.d6()
    needed = need(target, modifiers)
    c = convention()
    ok = succeeds(die, needed)
    if die == c.natural_success:
        why = f"a natural {die} always succeeds ({c.clause})"
    elif die == c.natural_failure:
        why = f"a natural {die} always fails ({c.clause})"
    else:
        why = ""
    mods = ", ".join(f"{m.name} {m.value:+d} ({m.clause})" for m in modifiers)
    text = (
        f"{subject or element or side}: {purpose} test, {target}+"
        + (f" with {mods}" if mods else "")
        + f", needs {needed}+; rolled {die}: {'pass' if ok else 'fail'}"
        + (f" — {why}" if why else "")
    )
    return {
        "type": "roll",
        "purpose": purpose,
        "side": side,
        "element": element,
        "dice": [die],
        "target": target,
        "modifiers": [m.to_dict() for m in modifiers],
        "need": needed,
        "result": "pass" if ok else "fail",
        "clause": clause,
        "text": text,
    }
