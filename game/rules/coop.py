"""Co-op play: several players share one side (DD-10.16–10.17).

DD-10.16: "one player is the Platoon Commander (controls the HQ stand and rolls the master CP pool).
Each of the others commands one squad, vehicle or heavy-weapons attachment. The team jointly chooses
which element activates and pays from the shared CP pool."
DD-10.17: "all players share one VP tally, and leaving a wounded buddy behind costs the team −3 VP".

What the rules already give: one CP pool and one VP tally per side (``SideState.cp``, ``SideState.vp``),
rolled and scored as for one player, so a team shares them by construction; the casualty VP follow the
C-02 reading (KIA −3, a living casualty left on the table −2, ``game.rules.casevac``). What this module
adds is who may send which action: a **seat** commands elements, and a seat may activate only its own
(``check``). Side-wide actions (a pass, anything not bound to one element) may come from any seat of
the team: the team chooses jointly.

The seats are not part of the game state (the state and its hash are the same as a one-player game's);
the engine keeps them beside the game and in saves. Here: the default assignment, the validation of an
explicit one, who commands an element, a Blind or an action, and the refusal.

Elements born during play: the rules as built create none on the Allied side (a Litter Team is a stand
of its element, DD-6.2; split fireteams are stand groups of their squad, DD-4.18; the Jungle Ghost's new
elements are Insurgent and exist only when the AI plays that side). Should one appear, it follows the
element its stands came from (stands are never split, DD-1.5); failing that, the Platoon Commander.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from game.rules.errors import IllegalAction

if TYPE_CHECKING:
    from game.rules.game import Game

CLAUSE = "DD-10.16"
MIN_SEATS, MAX_SEATS = 2, 4
"""DD-10.16: co-op is for 2–4 players."""
SEAT_KINDS = ("squad", "vehicle", "weapons")
"""What each player but the Platoon Commander commands (DD-10.16), squads first. (The rules as built
have no vehicle elements yet; the kind is named so one will take a seat when it exists.)"""
HQ_KIND = "hq"
NAME_MAX = 40


class CoopError(ValueError):
    """A bad seat list: ``field`` says where (``seats[2].commands``), ``message`` what is wrong."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class ElementLike(Protocol):
    """A scenario element setup or a state element: all an assignment needs."""

    id: str
    side: str
    kind: str


@dataclass(frozen=True)
class Seat:
    name: str
    commands: tuple[str, ...]
    """The elements assigned when the game was set up."""
    commander: bool = False
    """The Platoon Commander (DD-10.16): the HQ, and every element born during play with no other link."""


@dataclass(frozen=True)
class Team:
    """The seats of one co-op side; the first is the Platoon Commander."""

    side: str
    seats: tuple[Seat, ...]

    @property
    def commander(self) -> Seat:
        return self.seats[0]

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat(self, name: Any) -> Seat | None:
        return next((s for s in self.seats if s.name == name), None)

    def spec(self) -> list[dict]:
        """The seats in their explicit form (what a save keeps)."""
        return [{"name": s.name, "commands": list(s.commands)} for s in self.seats]


# -- building a team ---------------------------------------------------------------------------------
def assign(side: str, elements: Iterable[ElementLike], spec: Any) -> Team:
    """A team from its protocol form: ``{"seats": ["Ames", "Brody"]}`` (the default assignment) or
    ``{"seats": [{"name": "Ames", "commands": ["hq", "wpn"]}, ...]}`` (explicit, validated)."""
    own = [e for e in elements if e.side == side]
    if not isinstance(spec, dict) or set(spec) != {"seats"}:
        raise CoopError("", 'a co-op side is {"seats": [names]} or {"seats": [{"name", "commands"}, ...]}')
    seats = spec["seats"]
    if not isinstance(seats, list):
        raise CoopError("seats", f"a list of {MIN_SEATS}–{MAX_SEATS} seats, got {type(seats).__name__}")
    _count(seats)
    if all(isinstance(s, str) for s in seats):
        return default_assignment(side, own, seats)
    if all(isinstance(s, dict) for s in seats):
        return explicit_assignment(side, own, seats)
    raise CoopError("seats", "give every seat as a name, or every seat as {\"name\": ..., \"commands\": [...]}")


def _count(seats: Sequence[Any]) -> None:
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise CoopError("seats", f"co-op is for {MIN_SEATS}–{MAX_SEATS} players, got {len(seats)} (DD-10.16)")


def _names(names: Sequence[Any], path: Any) -> list[str]:
    out: list[str] = []
    for i, name in enumerate(names):
        where = path(i)
        if not isinstance(name, str) or not name.strip():
            raise CoopError(where, "a seat needs a name (a non-empty string)")
        if name != name.strip() or len(name) > NAME_MAX:
            raise CoopError(where, f"a seat name has no leading or trailing spaces and at most {NAME_MAX} "
                                   f"characters, got {name!r}")
        twin = next((j for j, n in enumerate(out) if n.casefold() == name.casefold()), None)
        if twin is not None:
            raise CoopError(where, f"{name!r} is already the name of seats[{twin}]; names must be unique")
        out.append(name)
    return out


def default_assignment(side: str, elements: Sequence[ElementLike], names: Sequence[Any]) -> Team:
    """DD-10.16: seat 1 is the Platoon Commander (the HQ, and every element no other seat takes); each
    other seat takes one squad, vehicle or heavy-weapons attachment, in order, squads first."""
    _count(names)
    names = _names(names, lambda i: f"seats[{i}]")
    own = [e for e in elements if e.side == side]
    attachments = [e.id for kind in SEAT_KINDS for e in own if e.kind == kind]
    if len(names) - 1 > len(attachments):
        raise CoopError("seats", f"{len(names)} players, but the {side} side has only {len(attachments)} "
                                 f"squad, vehicle or heavy-weapons attachment(s) for the players beside the "
                                 f"Platoon Commander (DD-10.16)")
    taken = dict(zip(names[1:], attachments, strict=False))
    rest = tuple(e.id for e in own if e.id not in taken.values())
    return Team(side, (Seat(names[0], rest, commander=True),
                       *(Seat(n, (taken[n],)) for n in names[1:])))


def explicit_assignment(side: str, elements: Sequence[ElementLike], seats: Sequence[Any]) -> Team:
    """An assignment the team agreed: every element of the side exactly once, the HQ with the Platoon
    Commander (the first seat, DD-10.16), 2–4 seats with unique names."""
    _count(seats)
    for i, s in enumerate(seats):
        if not isinstance(s, dict):
            raise CoopError(f"seats[{i}]", 'a seat is {"name": ..., "commands": [element ids]}')
        extra = sorted(set(s) - {"name", "commands"})
        if extra:
            raise CoopError(f"seats[{i}]", f"unknown field {extra[0]!r} (a seat has name and commands)")
    names = _names([s.get("name") for s in seats], lambda i: f"seats[{i}].name")
    own = {e.id: e for e in elements if e.side == side}
    owner: dict[str, int] = {}
    for i, s in enumerate(seats):
        where = f"seats[{i}].commands"
        cmds = s.get("commands")
        if not isinstance(cmds, list) or not cmds:
            raise CoopError(where, "a seat commands at least one element: a list of element ids (DD-10.16)")
        for eid in cmds:
            if not isinstance(eid, str) or eid not in own:
                raise CoopError(where, f"no element {eid!r} on the {side} side")
            if eid in owner:
                raise CoopError(where, f"{eid!r} is already commanded by seats[{owner[eid]}] "
                                       f"({names[owner[eid]]}); one player per element (DD-10.16)")
            owner[eid] = i
            if own[eid].kind == HQ_KIND and i != 0:
                raise CoopError(where, f"the HQ {eid!r} goes with the Platoon Commander, the first seat "
                                       f"(DD-10.16)")
    missing = [eid for eid in own if eid not in owner]
    if missing:
        raise CoopError("seats", f"no seat commands {missing[0]!r}: every element needs a player (DD-10.16)")
    return Team(side, tuple(Seat(n, tuple(s["commands"]), commander=(i == 0))
                            for i, (n, s) in enumerate(zip(names, seats, strict=True))))


# -- who commands what --------------------------------------------------------------------------------
def commander_of(team: Team, game: Game, element_id: str) -> Seat:
    """The seat commanding an element: its assigned seat; for an element born during play, the seat of
    the element its stands came from; failing that, the Platoon Commander (DD-10.16)."""
    for seat in team.seats:
        if element_id in seat.commands:
            return seat
    el = game.state.elements.get(element_id)
    if el is not None:
        origin = {st.id: e.id for e in game.scenario.elements for st in e.stands}
        for sid in el.stands:
            parent = origin.get(sid)
            if parent is not None and parent != element_id:
                return commander_of(team, game, parent)
    return team.commander


def commander_of_blind(team: Team, game: Game, blind_id: str) -> Seat:
    """A Blind moves with the seat commanding the element(s) under it; a Dummy Blind, or one hiding the
    elements of several seats, with the Platoon Commander (DD-10.16)."""
    b = game.state.blinds.get(blind_id)
    if b is None or b.dummy or not b.elements:
        return team.commander
    seats = {commander_of(team, game, eid) for eid in b.elements}
    return seats.pop() if len(seats) == 1 else team.commander


def acting(team: Team, game: Game, action: Any) -> tuple[Seat, str] | None:
    """The seat that commands what an action acts with, and that thing in words; None for a side-wide
    action (a pass, ...) that any seat may send, or for something that does not exist (the rules refuse
    it with their own clause)."""
    if not isinstance(action, dict):
        return None
    # Only the side's own elements and Blinds have a seat: anything else (an enemy element, perhaps
    # one hidden under a Blind) goes on to the rules, which refuse it as they refuse an id that names
    # nothing; naming its commander here would name what the side cannot see (DESIGN §6).
    eid = action.get("element")
    el = game.state.elements.get(eid) if isinstance(eid, str) else None
    if el is not None and el.side == team.side:
        return commander_of(team, game, el.id), f"{el.name} ({el.id})"
    bid = action.get("blind")
    if isinstance(bid, str) and bid in game.state.blinds and game.state.blinds[bid].side == team.side:
        return commander_of_blind(team, game, bid), f"Blind {bid}"
    tid = action.get("token")
    if isinstance(tid, str) and "element" not in action:  # litter_drop: the Litter Team's element
        from game.rules.casevac import carrier_of

        tok = next((t for t in game.state.tokens if t.id == tid), None)
        st = carrier_of(game, tok) if tok is not None else None
        if st is not None and st.side == team.side:
            carrier = game.state.elements[st.element]
            return commander_of(team, game, carrier.id), f"{carrier.name} ({carrier.id}), carrying {tid}"
    return None


def commands(team: Team, game: Game) -> dict[str, list[str]]:
    """Every element of the side now, by the seat commanding it (elements born during play included)."""
    out: dict[str, list[str]] = {s.name: [] for s in team.seats}
    for el in game.state.elements.values():
        if el.side == team.side:
            out[commander_of(team, game, el.id).name].append(el.id)
    return out


def describe(team: Team, game: Game) -> list[dict]:
    """The seats as a view shows them to their own side: name, side, the elements each commands now,
    and which is the Platoon Commander."""
    now = commands(team, game)
    return [{"name": s.name, "side": team.side, "commands": now[s.name], "commander": s.commander}
            for s in team.seats]


def check(team: Team, game: Game, side: str, seat: Any, action: Any) -> None:
    """Refuse an action a seat may not send: an element (or a Blind, or a Litter Team) another seat
    commands (DD-10.16). Side-wide actions pass; the rules then judge the action itself."""
    me = team.seat(seat) if side == team.side else None
    if me is None:
        raise IllegalAction(f"no seat {seat!r} on the {side} side (seats: {', '.join(team.names())})", CLAUSE)
    who = acting(team, game, action)
    if who is None or who[0].name == me.name:
        return
    owner, thing = who
    raise IllegalAction(f"{me.name} does not command {thing}: {owner.name} does. In co-op each player "
                        f"activates only their own elements; the team chooses which one goes", CLAUSE)
