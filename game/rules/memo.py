"""What a listing of legal actions depends on, and remembering answers while it stays the same.

Listing the legal actions (``Game.legal_actions``) asks the same questions again and again: targets
in sight, Echoes in sight, who can shoot, what a stand's move would cross. The answers depend on the
state, and most of the state stands still from one listing to the next. So the state is split in two
parts, imaged as bytes that are equal only for equal values:

* **the table**: where every stand, Blind marker and casualty token is, who is hidden, the weather,
  the light and what blocks sight. An element's offers read the table and the element itself;
* **the rest**: each element's orders and marks (activations, Pinned, Overwatch, ...), a Blind's
  activation counts, the sides' pools, the impulse bookkeeping, the dice. No offers read another
  element's orders and marks.

Every field of the state is named in exactly one of the two parts (checked when this module loads),
so a new field is never forgotten. Every write to the table part moves one counter, every write to the
rest another (``game.rules.changes``): answers kept under the same counters (and the same state
object) hold; nothing needs to be told when the state changes. The images remain for checking the
counters and the stamps (:func:`verify`, :func:`verify_stamp`, in tests).
"""

from __future__ import annotations

import dataclasses
import functools
import os
import pickle
from collections.abc import Callable, Hashable
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from game.rules.changes import REST, TABLE
from game.rules.state import Blind, Element, GameState, SideState, Stand

if TYPE_CHECKING:
    from game.rules.game import Game

TABLE_FIELDS = {
    Stand: tuple(f.name for f in dataclasses.fields(Stand)),
    Element: ("id", "side", "name", "kind", "quality", "stands", "blind", "reserve"),
    Blind: ("id", "side", "x", "y", "dummy", "elements", "state", "stealth"),
    GameState: ("scenario_id", "weather", "time_of_day", "tokens", "clocks", "structures",
                "ambush_points", "terrain_changes"),
}
OTHER_FIELDS = {
    Stand: (),
    Element: ("pinned", "winded", "winded_slow", "activations", "move_actions", "sprinted_this_turn",
              "sprinted_last_turn", "hold_position", "conceal", "last_move", "overwatch", "low_ammo", "bank",
              "fired_turn", "exposed_turn", "illuminated_turn"),
    Blind: ("activations", "move_actions", "act_turn", "sprint_turn", "conceal"),
    GameState: ("seed", "turn", "turns", "phase", "to_act", "first_side", "rng", "passes", "impulse", "seq",
                "over", "result", "smoke", "threat", "civic_drift", "next_blind"),
}
"""GameState's ``sides``, ``elements``, ``stands`` and ``blinds`` are imaged object by object (each
side's pools go to the rest); its ``smoke`` enters the table as the clouds that block sight now."""

for _cls, _names in TABLE_FIELDS.items():
    _objects = ("sides", "elements", "stands", "blinds", "chapters") if _cls is GameState else ()
    assert sorted(_names + OTHER_FIELDS[_cls] + _objects) == sorted(f.name for f in dataclasses.fields(_cls)), \
        f"name every field of {_cls.__name__} in TABLE_FIELDS or OTHER_FIELDS"
_GAME_OBJECTS = {"sides": REST, "elements": TABLE, "stands": TABLE, "blinds": TABLE, "chapters": TABLE}
"""GameState's collections: the elements, stands and Blinds there are (and which chapters have a state)
are the table's; the sides' pools the rest's."""


def field_parts(cls: type) -> dict[str, int] | None:
    """Each field's part (``changes.TABLE`` or ``REST``) for a type the state splits by field: the state's
    own classes as above, a chapter's state as its chapter says (``Chapter.table_fields``). None for any
    other record (a token, a clock, a chapter's record): it goes with the field that holds it."""
    if cls in TABLE_FIELDS:
        parts = {n: TABLE for n in TABLE_FIELDS[cls]} | {n: REST for n in OTHER_FIELDS[cls]}
        return parts | _GAME_OBJECTS if cls is GameState else parts
    if cls is SideState:
        return {f.name: REST for f in dataclasses.fields(cls)}
    from game.rules.chapters import CHAPTERS

    for ch in CHAPTERS.values():
        if ch.state_type is cls:
            return {f.name: TABLE if f.name in ch.table_fields else REST for f in dataclasses.fields(cls)}
    return None


_table = {cls: attrgetter(*names) for cls, names in TABLE_FIELDS.items()}
_other = {cls: attrgetter(*names) for cls, names in OTHER_FIELDS.items() if names}
_side = attrgetter(*(f.name for f in dataclasses.fields(SideState)))


def image(obj: Any) -> bytes:
    """Bytes equal only for equal values (a pickle: what it reads back equals ``obj``; an int and a
    float, or 0.0 and -0.0, give different bytes)."""
    return pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)


def state_images(s: GameState, sight: tuple) -> tuple[bytes, bytes]:
    """(the table, the rest): together equal only for equal states. ``sight`` is what blocks sight
    now (``Game.sight_key``), which stands in the table for the raw ``smoke``."""
    table = (
        tuple(s.stands), list(map(_table[Stand], s.stands.values())),
        tuple(s.elements), list(map(_table[Element], s.elements.values())),
        tuple(s.blinds), list(map(_table[Blind], s.blinds.values())),
        _table[GameState](s), sight, _chapter_images(s, True),
    )
    rest = (
        list(map(_other[Element], s.elements.values())), list(map(_other[Blind], s.blinds.values())),
        _other[GameState](s), tuple(s.sides), list(map(_side, s.sides.values())), _chapter_images(s, False),
    )
    return image(table), image(rest)


def _chapter_images(s: GameState, table: bool) -> list:
    """Each chapter's state split as its chapter says (``Chapter.table_fields``): the fields listings
    read go with the table, the rest with the orders and marks."""
    from game.rules.chapters import CHAPTERS

    out = []
    for cid, st in s.chapters.items():
        key = (cid, type(st), table)
        get = _chapter_getters.get(key)
        if get is None:
            names = CHAPTERS[cid].table_fields
            picked = [f.name for f in dataclasses.fields(st) if (f.name in names) == table]
            get = _chapter_getters[key] = (lambda _: ()) if not picked else (
                attrgetter(*picked) if len(picked) > 1 else (lambda o, n=picked[0]: (getattr(o, n),)))
        out.append((cid, list(get(st))))
    return out


_chapter_getters: dict[tuple, Callable[[Any], tuple]] = {}
"""Per chapter, state type and part: what reads the chapter state's fields of that part, in field order."""


_ASKED = object()
"""Not remembered yet (None is an answer)."""


def table_memo(key: Callable[..., Hashable]):
    """Remember a rules function's answers while the table stands still, for listings.

    ``fn(g, *args)`` must read nothing of the state but the table, and ``key(*args)`` must name what
    it reads of its arguments. Offers ask the same questions many times, within a listing and from
    one listing to the next while nothing moves. Outside a listing (checking or resolving an action,
    the AI) the function is simply called. An answer is shared by every caller: callers must not
    change it.
    """

    def decorate(fn):
        @functools.wraps(fn)
        def remembered(g: Game, *args):
            memo = g.listing_memo
            if memo is None:
                return fn(g, *args)
            k = (fn, key(*args))
            answer = memo.get(k, _ASKED)
            if answer is _ASKED:
                answer = memo[k] = fn(g, *args)
            return answer

        return remembered

    return decorate


VERIFY = os.environ.get("DINKYDAU_VERIFY_CHANGES") == "1"
"""Check the change counters against state images (set by tests): ``Game.legal_actions`` then asks
:func:`verify` at every listing."""


_stamped: dict[int, bytes] = {}


def verify_stamp(thing: Any) -> None:
    """A kept offer's key against an image of the element or Blind it was made for: the same stamp
    (``changes.STAMP``) with a different image is a change that moved no stamp, an error."""
    seen = image(tuple(vars(thing).values()))
    was = _stamped.setdefault(thing._tstamp, seen)
    if was != seen:
        raise AssertionError(f"{type(thing).__name__} {thing.id!r} changed with its stamp unmoved (game.rules.changes)")
    if len(_stamped) > 100_000:
        _stamped.clear()


def verify(g: Game, key: tuple) -> None:
    """A kept listing's counters against images of the state: the same counters (``changes.versions``)
    with different images is a write that was never counted, an error naming the part."""
    g._sight = (None, -1, -1, ())  # the sight key made afresh, not kept under the counters checked
    sight = g.sight_key()
    table, rest = state_images(g.state, sight)
    kept = g.__dict__.get("_verified")
    if kept is not None and kept[0][2:4] == key[2:4] and kept[3] == sight and kept[1] != table:
        raise AssertionError("the table part of the state changed with no write counted (game.rules.changes)")
    if kept is not None and kept[0][2:] == key[2:] and kept[2] != rest:
        raise AssertionError("the state changed with no write counted (game.rules.changes)")
    g.__dict__["_verified"] = (key, table, rest, sight)
