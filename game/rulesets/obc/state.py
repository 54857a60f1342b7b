"""The state of a One Brain-Cell game: men, vehicles and squads as plain dataclasses (snapshot and hash are
``dataclasses.asdict`` of them), and the little every rule module asks of them.

What it leaves out: the rules themselves (``firing``, ``morale``, ``movement``, ``game``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

ABLE, DEAD, DISABLED, GONE = "ok", "dead", "disabled", "gone"
"""A man's status: able; dead; disabled (G-42: no act, a casualty, to be evacuated, OBC-42); gone off the table."""


@dataclass
class Man:
    id: str
    side: str
    squad: str
    name: str
    weapon: str
    x: float
    y: float
    posture: str = "standing"
    elite: bool = False
    civilian: bool = False
    team: str | None = None
    """The MG or mortar team he crews (OBC-5)."""
    status: str = ABLE
    wounds: int = 0
    stunned: int = 0
    """Pinned or wounded: the moves of his squad he sits out, neither moving nor firing (OBC-30, OBC-46)."""
    pending: str | None = None
    """A failed morale check's effect, applied at the start of his squad's next move (OBC-44, OBC-14)."""
    panicked: bool = False
    """He panics (OBC-45: 5 or 6) until rallied (OBC-46)."""
    fleeing: bool = False
    """Blind panic: he flees to the nearest table edge (OBC-45: 6)."""
    under_fire: bool = False
    """He has been under fire before (OBC-43's first time)."""
    ran_turn: int = 0
    """The last turn he ran (OBC-8: not two turns running)."""
    moved: float = 0.0
    """Inches moved in this turn's activation of his squad."""
    allowance: float = 0.0
    """His move this turn, once his squad is active (OBC-3, OBC-8)."""
    fired: bool = False
    acted: bool = False
    done: bool = False
    """He holds: nothing more from him in this move of his squad."""
    fleeting_turn: int = 0
    """The turn he ran or moved over half his move in the open (G-42's fleeting target)."""
    aboard: str | None = None
    """The vehicle he rides in (OBC-11)."""
    carrying: str | None = None
    """The disabled man he carries (OBC-42)."""
    locked: str | None = None
    """The enemy he is deadlocked with in hand to hand (OBC-51)."""
    evacuated: bool = False

    @property
    def able(self) -> bool:
        return self.status == ABLE

    @property
    def down(self) -> bool:
        return self.status in (DEAD, DISABLED)

    @property
    def wounded(self) -> bool:
        return self.wounds > 0 and self.status == ABLE


@dataclass
class Vehicle:
    id: str
    side: str
    squad: str
    kind: str
    name: str
    x: float
    y: float
    facing: float = 90.0
    height: float = 0.0
    """A chopper's height above the table (OBC-13), marked on its base."""
    crew: list[str] = field(default_factory=list)
    passengers: list[str] = field(default_factory=list)
    capacity: int = 10
    status: str = ABLE
    immobilised_until: int = 0
    hits: int = 0
    hits_move: int = 0
    moved: float = 0.0
    """Inches moved this turn (height change included for a chopper)."""
    moved_turn: int = 0
    exchanged: int = 0
    """Men embussed or debussed this turn (OBC-11)."""

    @property
    def able(self) -> bool:
        return self.status == ABLE

    @property
    def flying(self) -> bool:
        return self.kind == "chopper" and self.height > 0

    @property
    def soft(self) -> bool:
        """A lorry or a chopper: destroyed by hits and by any large-calibre hit (OBC-31, OBC-33, G-42)."""
        return self.kind in ("lorry", "chopper")

    def aboard(self) -> list[str]:
        return self.crew + self.passengers


@dataclass
class Squad:
    id: str
    side: str
    name: str
    kind: str
    """infantry, mortar, chopper, lorry, apc or tank (OBC-2)."""
    leader: str | None
    authority: int
    zone: float
    order: str
    """Its one-line order (OBC-47)."""
    aim: dict = field(default_factory=dict)
    """What the order means on the table: {kind: take | hold | land | support, at: [x, y], radius}."""
    answers_to: str | None = None
    supports: str | None = None
    moved_turn: int = 0
    independent: int = 0
    """This activation's ½d6 of men who act on their own (OBC-16)."""
    in_command_left: int = 0
    independent_left: int = 0
    achieved: bool = False
    sitting: list[str] = field(default_factory=list)
    """Its men who sit this move out, pinned or wounded (OBC-30)."""


def dist(a, b) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)
