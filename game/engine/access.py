"""Who may read and act for what (DESIGN §6): secret tokens for sides, seats and the referee.

A game's creator receives one token for each side it hands out to people (a co-op side one for each
seat instead) and, for a game created with ``referee: true``, a referee token. The AI's side has no
token: nobody reads it or acts for it; ``game.step`` lets the AI act.

Every call comes in on a :class:`Connection`. A connection holds the grants of the tokens it created
or presented (a ``token`` param on any call adds that token's grant for good), and reads and acts
only as they allow. The one local connection of a stdio or in-process engine is a player's own: it
created its games, so it holds their tokens, and it may take their save documents (the player's
own files on their own disk). A TCP connection holds nothing until it creates a game or presents a
token; the games it holds nothing of do not exist for it.
"""

from __future__ import annotations

import hmac
import itertools
import secrets
import time
from dataclasses import dataclass, field

_ids = itertools.count(1)


@dataclass(frozen=True)
class Grant:
    """What one token allows: a side (``seat`` None), one seat of a co-op side, or the referee."""

    side: str
    seat: str | None = None

    @property
    def referee(self) -> bool:
        return self.side == "referee"

    def describe(self) -> dict:
        return {"side": self.side, **({"seat": self.seat} if self.seat else {})}


@dataclass
class Connection:
    """One client of the engine: the stdio pipe, the in-process caller, or one TCP socket."""

    local: bool
    """The player's own pipe (stdio, in process); a network connection is not local."""
    held: dict[str, set[Grant]] = field(default_factory=dict)
    hosted: set[str] = field(default_factory=set)
    """The games this connection created or loaded."""
    open: bool = True
    id: int = field(default_factory=lambda: next(_ids))

    def grants(self, gid: str) -> set[Grant]:
        return self.held.get(gid, set())

    def holds(self, gid: str) -> bool:
        return bool(self.held.get(gid)) or gid in self.hosted


@dataclass
class Keys:
    """The tokens of one game and what each grants."""

    tokens: dict[str, Grant] = field(default_factory=dict)
    last_used: float = field(default_factory=time.monotonic)

    def issue(self, grant: Grant) -> str:
        token = secrets.token_urlsafe(18)
        self.tokens[token] = grant
        return token

    def grant_of(self, token: str) -> Grant | None:
        if not token.isascii():  # every token is URL-safe ASCII; a lone surrogate cannot even be encoded
            return None
        for known, grant in self.tokens.items():  # compared in constant time, every one
            if hmac.compare_digest(known.encode(), token.encode()):
                return grant
        return None


def issue_all(keys: Keys, players: dict[str, str], seats: dict[str, list[str]], referee: bool) -> dict:
    """Tokens for every human side (each seat of a co-op side) and the referee: the creator's answer
    ``tokens`` = {side: token, "seats": {side: {seat: token}}, "referee": token}."""
    out: dict = {}
    for side, who in players.items():
        if who != "human":
            continue
        if side in seats:
            out.setdefault("seats", {})[side] = {name: keys.issue(Grant(side, name)) for name in seats[side]}
        else:
            out[side] = keys.issue(Grant(side))
    if referee:
        out["referee"] = keys.issue(Grant("referee"))
    return out


def grant_all(conn: Connection, gid: str, keys: Keys) -> None:
    """The creator holds every token it was handed."""
    conn.held.setdefault(gid, set()).update(keys.tokens.values())
    conn.hosted.add(gid)


def may_read(grants: set[Grant], side: str) -> bool:
    """A side's view and events: that side's token or one of its seats', or the referee's (who sees all
    there is, and so each side's part of it); the referee's view: the referee's token."""
    return any(g.side == side or g.referee for g in grants)


def may_act(grants: set[Grant], side: str, seat: str | None) -> bool:
    """Acting for a side: its token, or for a co-op side the token of the seat that sends the action."""
    if seat is None:
        return Grant(side) in grants
    return Grant(side, seat) in grants or Grant(side) in grants
