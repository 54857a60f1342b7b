"""Co-op on the client (DD-10.16–10.17, docs/coop.md): who commands what, in words, from the view.

The engine decides everything: the seats come in the view (``seats``), every action the engine offers
names the seat that may send it (``seat``; null: any seat of the team), and ``game.act`` refuses a seat
that acts with another seat's element. The client only shows it: whose element is selected, the seat
list with the shared CP pool and VP tally, and which seat to send an action as.
"""

from __future__ import annotations


def parse_names(text: str) -> list[str]:
    """``"Ames, Brody,Cruz"`` -> ``["Ames", "Brody", "Cruz"]`` (the engine checks count and names)."""
    return [n.strip() for n in text.split(",") if n.strip()]


def parse_address(text: str) -> tuple[str, int]:
    """``"127.0.0.1:7777"`` -> ``("127.0.0.1", 7777)``; ValueError otherwise."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--connect wants HOST:PORT, such as 127.0.0.1:7777, got {text!r}")
    return host, int(port)


def seat_of(seats: list[dict], element: str | None) -> dict | None:
    """The seat commanding an element, from the view."""
    return next((s for s in seats if element in (s.get("commands") or [])), None)


def commander(seats: list[dict]) -> dict | None:
    return next((s for s in seats if s.get("commander")), seats[0] if seats else None)


def title(seat: dict) -> str:
    """A seat as the table calls its player: the Platoon Commander a lieutenant, the others sergeants."""
    return f"{'Lt.' if seat.get('commander') else 'Sgt.'} {seat['name']}"


def element_title(seats: list[dict], element: str, name: str) -> str:
    """``1st Squad — Sgt. Brody`` for an element of a co-op side; the bare name otherwise."""
    seat = seat_of(seats, element)
    return f"{name} — {title(seat)}" if seat else name


def acting_seat(seats: list[dict], action: dict, mine: str | None, selected: str | None) -> str | None:
    """The seat to send an action as: your own seat on a networked table; on one shared screen the seat
    the engine named for the action, else (a side-wide action: the team chooses) the seat of the
    selected element, else the Platoon Commander."""
    if not seats:
        return None
    if mine:
        return mine
    chosen = action.get("seat") or (seat_of(seats, selected) or {}).get("name")
    return chosen or (commander(seats) or {}).get("name")


def team_text(seats: list[dict], view: dict, names: dict[str, str], mine: str | None = None,
              selected: str | None = None) -> str:
    """The seat list for the HUD: the shared CP pool and VP tally, then each seat and its elements."""
    side = seats[0].get("side", "allied") if seats else "allied"
    pool = (view.get("sides") or {}).get(side) or {}
    head = "Team" + (f" — shared CP {pool['cp']}" if "cp" in pool else "") + f", VP {pool.get('vp', 0)}"
    lines = [head]
    selected_seat = (seat_of(seats, selected) or {}).get("name")
    for s in seats:
        mark = "> " if s["name"] == selected_seat else "  "
        you = "  (you)" if s["name"] == mine else ""
        role = " (Platoon Commander)" if s.get("commander") else ""
        els = ", ".join(names.get(e, e) for e in s.get("commands") or [])
        lines.append(f"{mark}{title(s)}{role}{you}: {els}")
    return "\n".join(lines)
