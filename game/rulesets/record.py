"""The event record and the state's restore and hash, shared by the games of the rulesets that keep their own
(One Brain-Cell, Tet '68); Dinky Dau keeps its own in ``game.rules.game``.

An event is recorded for a side or for all (``emit``), optionally with the copy the other side reads
(``others``: a roll about a figure whose statistics stay on their owner's roster); ``events_for`` gives a
reader what it may see in its own numbering (1, 2, 3, ... with no gaps, DESIGN §6). What the state holds,
how the dice are made and what the snapshot looks like stay with each game: the game has ``events``,
``state`` (with ``streams``) and ``snapshot()``; ``_dump()`` is the text hashed, by default the snapshot's.
"""

from __future__ import annotations

import copy
import hashlib
import json
from abc import ABC, abstractmethod
from typing import Any

from game.dice import Dice


class Record(ABC):
    events: list[dict]
    state: Any
    dice: Dice

    def emit(self, event: dict, visible: str = "all", owner: str | None = None, others: dict | None = None) -> dict:
        """Record an event for ``visible`` (a side, or all); ``others``: the copy a side other than ``owner``
        reads."""
        ev = {"seq": len(self.events) + 1, **event, "_visible": visible}
        if others is not None and owner is not None:
            ev["_others"] = (owner, others)
        self.events.append(ev)
        return ev

    def events_for(self, reader: str, events: list[dict], since: int = 0) -> list[dict]:
        """What ``reader`` may see, numbered in its own sequence (1, 2, 3, ... with no gaps, DESIGN §6)."""
        out, n = [], 0
        wanted = {id(e) for e in events}
        for ev in self.events:
            if not _reads(reader, ev):
                continue
            n += 1
            if n > since and id(ev) in wanted:
                shown = ev
                if "_others" in ev and reader not in ("referee", ev["_others"][0]):
                    shown = ev["_others"][1]
                out.append({**{k: copy.deepcopy(v) for k, v in shown.items() if not k.startswith("_")}, "seq": n})
        return out

    def seen_count(self, reader: str) -> int:
        """How many events ``reader`` may see (its last sequence number)."""
        return sum(1 for ev in self.events if _reads(reader, ev))

    def put_back(self, state: Any) -> None:
        """Restore a state taken before an act that failed (the engine keeps the game unchanged)."""
        self.state = state
        self.dice = Dice(state.streams)

    @abstractmethod
    def snapshot(self) -> dict:
        """The game's state as plain data (saves and the hash)."""

    def _dump(self) -> str:
        return json.dumps(self.snapshot(), sort_keys=True)

    def hash(self) -> str:
        return hashlib.sha256(self._dump().encode()).hexdigest()


def _reads(reader: str, ev: dict) -> bool:
    return reader == "referee" or ev["_visible"] in ("all", reader)
