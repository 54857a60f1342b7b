"""What changed in a game's state: counters that every write to the state moves, and a journal to undo.

Every record and container of a live ``GameState`` is tracked. Its dataclasses set their fields
through :func:`tracked_setattr` (the state's own classes inherit :class:`Tracked`; a chapter's records
get it when first put in a state), and its lists and dicts are :class:`TrackedList` and
:class:`TrackedDict`: a plain list or dict stored in the state is stored as a tracked copy, its items
tracked in turn. Whatever writes to the state, a rule or a test by hand, moves one of two counters
(``versions``): the **table**'s or the **rest**'s, as ``game.rules.memo`` splits the state. So the
listing cache (``Game.legal_actions``) knows the state is as it was without imaging it: the counters
and the state object are the same.

A plain list or dict is copied as it goes in, so a rule that stores one and then changes it must
change it through the state (``st.calls.append``), not through the list it stored; every rule does.
A write that changes nothing (the same value, the same items) moves no counter.

Each record of the state's own classes in a state also carries a stamp (:data:`STAMP`) that its own
counted writes, and those to the lists and dicts it holds, move: the listing keeps an element's
offers under it (``Game.kept``) without imaging the element.

A record or container counts only once it is in a state ("attached", with its part): a stand built
to try a placement or an order being filled in moves nothing (a copy of a state, pickled or deep-
copied, counts like the state). Counters are shared by every game in the process (a change to one
game makes the others' listings be made again: never stale, only slower).

While a :class:`Journal` is open, the first write to each tracked object keeps what the object held
before it; :meth:`Journal.undo` writes that back (``game.engine.session``: an unexpected fault in a
resolution puts the state back, copying only what the action touched).

What this module leaves out: which fields are the table's (``memo.field_parts``); the state itself
(``game.rules.state``). Sets and other mutable types are not tracked: the state holds none (it is
JSON; ``tests/rules/test_changes.py`` walks states to check it).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import threading
from typing import Any

TABLE, REST = 0, 1
versions = [0, 0]
"""How many writes the table part and the rest of any state have seen (``memo``): equal counters and
the same state object, an unchanged state."""

PART = "_tpart"
"""A record's own part once it is in a state (the instance attribute; absent while it is not)."""

STAMP = "_tstamp"
"""A record of the state's own classes (:class:`Tracked`) in a state: a number no other record has had,
made anew as it goes into a state, by every counted write to it or to a list or dict it holds
(``TrackedList.owner``), by a copy and by an undo. The same stamp, the same record as it was
(``Game.kept`` keeps an element's offers under it). A record in no state has none yet."""
_tick = itertools.count(1).__next__

_journal: Journal | None = None
_patched: set[type] = set()
_parts: dict[type, dict[str, int] | None] = {}


def field_parts(cls: type) -> dict[str, int] | None:
    """Each field's part for a record type the state splits by field (``memo.field_parts``), else None:
    every field of the record goes with the part it is attached in."""
    try:
        return _parts[cls]
    except KeyError:
        from game.rules.memo import field_parts as split

        out = _parts[cls] = split(cls)
        return out


def _note(obj: Any, saved: Any) -> None:
    j = _journal
    if j is not None and id(obj) not in j.kept and j.thread == threading.get_ident():
        j.kept[id(obj)] = (obj, saved)


def _same(old: Any, new: Any) -> bool:
    """Would writing ``new`` over ``old`` change nothing at all? The same object; an equal int, string,
    flag or None; an equal float of the same sign; a list or dict of the very same items in the same
    order (a list filtered that lost nothing). A write that changes nothing moves no counter."""
    if old is new:
        return True
    cls = old.__class__
    if cls is not new.__class__:
        return cls in _LISTS and new.__class__ in _LISTS and _same_items(old, new)
    if cls in _EXACT:
        return old == new
    if cls is float:
        return old == new and (old != 0.0 or math.copysign(1.0, old) == math.copysign(1.0, new))
    return cls in _LISTS and _same_items(old, new)


def _same_items(old: Any, new: Any) -> bool:
    if len(old) != len(new) or isinstance(old, dict) != isinstance(new, dict):
        return False
    if isinstance(old, dict):
        return all(a == b and old[a] is new[b] for a, b in zip(old, new, strict=True))
    return all(a is b for a, b in zip(old, new, strict=True))


_EXACT = {int, str, bool, type(None)}
_PLAIN = {int, str, bool, float, type(None), tuple}
_MISSING = object()
_SCALAR_HINTS = {"str", "int", "float", "bool", "str | None", "int | None", "float | None"}


def _write(self: Any, own: int, name: str, value: Any, owner: Any) -> None:
    d = self.__dict__
    old = d.get(name, _MISSING)
    if old is value or _same(old, value):
        return
    cls = self.__class__
    parts = _parts[cls] if cls in _parts else field_parts(cls)
    part = own if parts is None else parts.get(name, TABLE)
    if _journal is not None:
        _note(self, dict(d))
    versions[part] += 1
    object.__setattr__(self, name, value if value.__class__ in _PLAIN else track(value, part, owner))
    if owner is not None:
        _stamp(owner, _tick())


def tracked_setattr(self: Any, name: str, value: Any) -> None:
    """``__setattr__`` of the state's own records (:class:`Tracked`: their part in a slot)."""
    own = self._tpart
    if own is None:  # not in a state: nothing to count; containers are tracked for when it is
        object.__setattr__(self, name, value if value.__class__ in _PLAIN else track(value, None, self))
    else:
        _write(self, own, name, value, self)


def record_setattr(self: Any, name: str, value: Any) -> None:
    """``__setattr__`` of a chapter's record found in the state (its part in its ``__dict__``)."""
    own = self.__dict__.get(PART)
    if own is None:
        object.__setattr__(self, name, track(value, None))
    else:
        _write(self, own, name, value, None)


def tracked_delattr(self: Any, name: str) -> None:
    if _own(self) is not None:
        if _journal is not None:
            _note(self, dict(self.__dict__))
        versions[TABLE] += 1
    object.__delattr__(self, name)
    if isinstance(self, Tracked) and self._tpart is not None:
        _stamp(self, _tick())


def _own(obj: Any) -> int | None:
    return obj._tpart if isinstance(obj, Tracked) else obj.__dict__.get(PART)


class Tracked:
    """Base of the state's dataclasses: every field set goes through :func:`tracked_setattr`; the
    record's part, once it is in a state, is in the slot ``_tpart`` (out of its ``__dict__``, which
    copies of a stand are made from). Decorate the dataclass with :func:`tracked`."""

    __slots__ = (PART, STAMP)
    __setattr__ = tracked_setattr
    __delattr__ = tracked_delattr

    def __getstate__(self) -> Any:
        """Pickle and copy: the fields and the part, not the stamp (a copy gets its own)."""
        return self.__dict__, {PART: getattr(self, PART, None)}

    def __setstate__(self, state: Any) -> None:
        """Pickle and copy: the fields as they were, straight in (no write to count), the lists and dicts
        among them held by this record (their changes move its stamp), and a stamp of its own."""
        d, slots = state if isinstance(state, tuple) else (state, None)
        if d:
            mine = self.__dict__
            mine.update(d)
            for k, v in d.items():  # (a shallow copy's lists and dicts are copied: each record holds its own)
                if v.__class__ is TrackedList or v.__class__ is TrackedDict:
                    mine[k] = track(v, v.part, self)
        object.__setattr__(self, PART, None)
        for k, v in (slots or {}).items():
            if k != STAMP:
                object.__setattr__(self, k, v)
        _stamp(self, _tick())


_stamp = Tracked._tstamp.__set__  # type: ignore[attr-defined]
"""Set a record's stamp (the slot's own setter: a write is made often)."""


def tracked(cls: type) -> type:
    """Give a :class:`Tracked` dataclass an ``__init__`` that writes its fields straight in (a record
    being built is in no state: nothing to count, its lists and dicts made tracked ones), as fast as the
    dataclass's own: a stand is built for every placement a rule tries."""
    args, body = [], [f"    object.__setattr__(self, {PART!r}, None)", "    d = self.__dict__"]
    scope: dict[str, Any] = {"_MISSING": dataclasses.MISSING, "_PLAIN": _PLAIN, "_track": track}
    for f in dataclasses.fields(cls):
        if not f.init or f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: a tracked record takes every field as an argument")
        if f.default is not dataclasses.MISSING:
            scope[f"_d_{f.name}"] = f.default
            args.append(f"{f.name}=_d_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            scope[f"_f_{f.name}"] = f.default_factory
            args.append(f"{f.name}=_MISSING")
            body.append(f"    if {f.name} is _MISSING: {f.name} = _f_{f.name}()")
        else:
            args.append(f.name)
        if str(f.type) in _SCALAR_HINTS:  # a str, a number, a flag: stored as given
            body.append(f"    d[{f.name!r}] = {f.name}")
        else:
            body.append(f"    d[{f.name!r}] = {f.name} if {f.name}.__class__ in _PLAIN else _track({f.name}, None, self)")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    exec(f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body), scope)  # noqa: S102
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    return cls


def track(value: Any, part: int | None, owner: Any = None) -> Any:
    """The value as the state stores it: a plain list or dict as a tracked copy, a record with its
    class tracked; attached in ``part`` (None: not in a state yet). ``owner``: the record of the state's
    own classes that holds it (a list or dict its stamp covers), else None; a tracked list or dict held
    by another such record already goes in as a copy (no two records hold one: the state is JSON)."""
    cls = value.__class__
    if cls in _PLAIN:
        return value
    if cls is list:
        return TrackedList(value, part, owner)
    if cls is dict:
        return TrackedDict(value, part, owner)
    if cls is TrackedList or cls is TrackedDict:
        if owner is not None and value.owner is not owner:
            if value.owner is not None:
                return cls(list(value) if cls is TrackedList else dict(value), part, owner)
            _hold(value, owner)
        if part is not None and (value.part is None or value.part > part):
            attach(value, part)
        return value
    if cls in _patched or (dataclasses.is_dataclass(cls) and _patch(cls)):
        if part is not None:
            own = _own(value)
            if own is None or own > part:
                attach(value, part)
        return value
    return value


def _hold(value: Any, owner: Any) -> None:
    """A tracked list or dict (and those inside it) held by ``owner``: its changes move the owner's stamp."""
    value.owner = owner
    for v in (value.values() if value.__class__ is TrackedDict else value):
        if v.__class__ is TrackedList or v.__class__ is TrackedDict:
            _hold(v, owner)


def _patch(cls: type) -> bool:
    """Track a record type found in the state (a chapter's): False for a frozen one (it never changes)."""
    if cls.__dataclass_params__.frozen or not hasattr(cls, "__dict__"):
        return False
    if not issubclass(cls, Tracked) and cls.__setattr__ is not record_setattr:
        cls.__setattr__ = record_setattr
        cls.__delattr__ = tracked_delattr
        # a record built before its class was tracked holds plain containers: made tracked on attach
    _patched.add(cls)
    return True


def attach(obj: Any, part: int) -> None:
    """Mark an object as in a state, in ``part`` (the table's wins over the rest's), and all it holds."""
    cls = obj.__class__
    if cls is TrackedList:
        obj.part = part if obj.part is None else min(obj.part, part)
        for i, v in enumerate(obj):
            new = track(v, obj.part, obj.owner)
            if new is not v:
                list.__setitem__(obj, i, new)
        return
    if cls is TrackedDict:
        obj.part = part if obj.part is None else min(obj.part, part)
        for k, v in dict.items(obj):
            new = track(v, obj.part, obj.owner)
            if new is not v:
                dict.__setitem__(obj, k, new)
        return
    own = _own(obj)
    own = part if own is None else min(own, part)
    object.__setattr__(obj, PART, own)
    d = obj.__dict__
    parts = field_parts(cls)
    owner = None
    if isinstance(obj, Tracked):
        owner = obj
        _stamp(obj, _tick())
    for f in dataclasses.fields(obj):
        v = d.get(f.name)
        new = track(v, own if parts is None else parts.get(f.name, TABLE), owner)
        if new is not v:
            d[f.name] = new


class TrackedList(list):
    """A list in the state: every change moves its part's counter (``versions``)."""

    __slots__ = ("part", "owner")

    def __init__(self, items: Any = (), part: int | None = None, owner: Any = None):
        self.part, self.owner = part, owner
        list.__init__(self, [track(v, part, owner) for v in items])

    def __reduce_ex__(self, protocol: Any) -> tuple:
        return (TrackedList, (list(self), self.part))

    def _touch(self) -> None:
        if self.part is not None:
            if _journal is not None:
                _note(self, list(self))
            versions[self.part] += 1
            if self.owner is not None:
                _stamp(self.owner, _tick())

    def __setitem__(self, i: Any, v: Any) -> None:
        self._touch()
        if isinstance(i, slice):
            list.__setitem__(self, i, [track(x, self.part, self.owner) for x in v])
        else:
            list.__setitem__(self, i, track(v, self.part, self.owner))

    def __delitem__(self, i: Any) -> None:
        self._touch()
        list.__delitem__(self, i)

    def __iadd__(self, other: Any) -> TrackedList:
        self.extend(other)
        return self

    def __imul__(self, n: Any) -> TrackedList:
        self._touch()
        return list.__imul__(self, n)

    def append(self, v: Any) -> None:
        self._touch()
        list.append(self, track(v, self.part, self.owner))

    def extend(self, items: Any) -> None:
        self._touch()
        list.extend(self, [track(v, self.part, self.owner) for v in items])

    def insert(self, i: Any, v: Any) -> None:
        self._touch()
        list.insert(self, i, track(v, self.part, self.owner))

    def pop(self, *a: Any) -> Any:
        self._touch()
        return list.pop(self, *a)

    def remove(self, v: Any) -> None:
        self._touch()
        list.remove(self, v)

    def clear(self) -> None:
        self._touch()
        list.clear(self)

    def sort(self, *a: Any, **k: Any) -> None:
        self._touch()
        list.sort(self, *a, **k)

    def reverse(self) -> None:
        self._touch()
        list.reverse(self)


class TrackedDict(dict):
    """A dict in the state: every change moves its part's counter (``versions``)."""

    __slots__ = ("part", "owner")

    def __init__(self, items: Any = (), part: int | None = None, owner: Any = None):
        self.part, self.owner = part, owner
        dict.__init__(self, {k: track(v, part, owner) for k, v in dict(items).items()})

    def __reduce_ex__(self, protocol: Any) -> tuple:
        return (TrackedDict, (dict(self), self.part))

    def _touch(self) -> None:
        if self.part is not None:
            if _journal is not None:
                _note(self, dict(self))
            versions[self.part] += 1
            if self.owner is not None:
                _stamp(self.owner, _tick())

    def __setitem__(self, k: Any, v: Any) -> None:
        self._touch()
        dict.__setitem__(self, k, track(v, self.part, self.owner))

    def __delitem__(self, k: Any) -> None:
        self._touch()
        dict.__delitem__(self, k)

    def __ior__(self, other: Any) -> TrackedDict:
        self.update(other)
        return self

    def setdefault(self, k: Any, default: Any = None) -> Any:
        if k in self:
            return dict.__getitem__(self, k)
        self[k] = default
        return dict.__getitem__(self, k)

    def pop(self, *a: Any) -> Any:
        self._touch()
        return dict.pop(self, *a)

    def popitem(self) -> Any:
        self._touch()
        return dict.popitem(self)

    def clear(self) -> None:
        self._touch()
        dict.clear(self)

    def update(self, *a: Any, **k: Any) -> None:
        self._touch()
        for key, v in dict(*a, **k).items():
            dict.__setitem__(self, key, track(v, self.part, self.owner))


_LISTS = {list, dict, TrackedList, TrackedDict}


class Journal:
    """What the state held before each object the state changed since it opened (its first write
    only); :meth:`undo` puts it back. One at a time in a process, bound to the thread that opened it
    (:func:`open_journal`)."""

    def __init__(self) -> None:
        self.kept: dict[int, tuple[Any, Any]] = {}
        self.thread = threading.get_ident()

    def close(self) -> None:
        global _journal
        if _journal is self:
            _journal = None

    def undo(self) -> None:
        """Write back everything kept, without counting it as writes, then move both counters."""
        for obj, saved in self.kept.values():
            if isinstance(obj, TrackedList):
                list.__setitem__(obj, slice(None), saved)
                owner = obj.owner
            elif isinstance(obj, TrackedDict):
                dict.clear(obj)
                dict.update(obj, saved)
                owner = obj.owner
            else:
                obj.__dict__.clear()
                obj.__dict__.update(saved)
                owner = obj if isinstance(obj, Tracked) else None
            if owner is not None:
                _stamp(owner, _tick())
        self.kept.clear()
        versions[TABLE] += 1
        versions[REST] += 1


def open_journal() -> Journal | None:
    """Open the journal of the writes to come (close it when done), or None while one is open."""
    global _journal
    with _lock:
        if _journal is not None:
            return None
        _journal = Journal()
        return _journal


_lock = threading.Lock()
