"""The one error the rules raise for a refused action: why, and the clause that forbids it."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules refuse (DESIGN §4: an illegal action is a game error with reason and clause)."""

    def __init__(self, reason: str, clause: str):
        self.reason = reason
        self.clause = clause
        super().__init__(f"{reason} ({clause})")

    def __reduce__(self):
        # Picklable with its reason and clause (simulate's worker processes send errors back).
        return (type(self), (self.reason, self.clause))
