"""Seeded dice streams for every ruleset (DESIGN §5): named SplitMix64 generators whose whole state is one
integer each, kept in the game state, so a game is exactly reproducible from (scenario, seed, actions)
and a computer player's thinking never shifts a rules die. Dice of any number of faces (d3, d6, d8,
d100): the conventions of a rule system (Dinky Dau's natural 6, G-31) are its own (``game.rules.dice``).

This module touches no global random state and no clock.
"""

from __future__ import annotations

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


class Dice:
    """Rolls dice from the streams of one game state (a dict of stream name -> integer state)."""

    def __init__(self, streams: dict[str, int]):
        self.streams = streams
        self._forced: list[int] = []

    def force(self, values: list[int], faces: int = 6) -> None:
        """Make the next rules-stream rolls come out as ``values`` (tests only): d6 by default, or dice of
        ``faces`` sides (a d100's forced roll is taken only by a die that has that face)."""
        for v in values:
            if not 1 <= v <= faces:
                raise ValueError(f"a forced d{faces} must be 1..{faces}, got {v}")
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
        if stream == "rules" and self._forced and self._forced[0] <= 6:
            return self._forced.pop(0)
        return self.below(6, stream) + 1

    def die(self, faces: int, stream: str = "rules") -> int:
        """One die of ``faces`` sides (a d3, a d6, the d8 of a scatter direction, a d100). A forced value
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
