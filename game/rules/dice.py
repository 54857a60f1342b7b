"""Dice: seeded streams held in the game state, and rolls that explain themselves (DESIGN §5).

Every die the rules roll comes from here. Three named streams (``rules``, ``ai``, ``cosmetic``) are
each a SplitMix64 generator whose whole state is one integer kept in the game state, so a game is
exactly reproducible from (scenario, seed, actions) and the AI's thinking never shifts a combat die.
Tests force the next rolls with :meth:`Dice.force`.

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

from game.rules.data import DiceRules, rulebook

MASK = (1 << 64) - 1
STREAMS = ("rules", "ai", "cosmetic")


def _splitmix(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def seed_streams(seed: int) -> dict[str, int]:
    """Independent starting states for each stream, derived from the game seed."""
    out = {}
    for i, name in enumerate(STREAMS):
        _, derived = _splitmix((seed * 0x100000001B3 + i * 0xA0761D6478BD642F) & MASK)
        out[name] = derived
    return out


@dataclass(frozen=True)
class Modifier:
    """One named modifier to a roll, with the clause that grants it."""

    name: str
    value: int
    clause: str

    def to_dict(self) -> dict:
        return {"name": self.name, "value": self.value, "clause": self.clause}


class Dice:
    """Rolls d6 from the streams of one game state (a dict of stream name -> integer state)."""

    def __init__(self, streams: dict[str, int]):
        self.streams = streams
        self._forced: list[int] = []

    def force(self, values: list[int]) -> None:
        """Make the next rules-stream d6 rolls come out as ``values`` (tests only)."""
        for v in values:
            if not 1 <= v <= 6:
                raise ValueError(f"a forced d6 must be 1..6, got {v}")
        self._forced.extend(values)

    @property
    def forced_left(self) -> int:
        return len(self._forced)

    def _next(self, stream: str) -> int:
        state, out = _splitmix(self.streams[stream])
        self.streams[stream] = state
        return out

    def below(self, n: int, stream: str = "rules") -> int:
        """A uniform integer in 0..n-1 (rejection sampling, no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self._next(stream)
            if v < limit:
                return v % n

    def d6(self, stream: str = "rules") -> int:
        if stream == "rules" and self._forced:
            return self._forced.pop(0)
        return self.below(6, stream) + 1

    def die(self, faces: int, stream: str = "rules") -> int:
        """One die of ``faces`` sides: a d6, or the d8 of a scatter direction (DD-8.8). A forced value
        (tests) is taken when it is a face of this die."""
        if faces == 6:
            return self.d6(stream)
        if stream == "rules" and self._forced and self._forced[0] <= faces:
            return self._forced.pop(0)
        return self.below(faces, stream) + 1

    def roll(self, n: int, stream: str = "rules") -> list[int]:
        return [self.d6(stream) for _ in range(n)]

    def uniform(self, stream: str) -> float:
        """A float in [0, 1) for the ai and cosmetic streams."""
        return self._next(stream) / float(1 << 64)


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
