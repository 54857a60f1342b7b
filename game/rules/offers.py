"""Read-only offers: what ``Game.legal_actions`` hands out.

A listing is kept while the state stands still and handed out again to whoever asks (the protocol,
the computer players, a test asking twice), so nobody may change what it holds. Its offers are
dicts and lists that refuse every change (``TypeError``, naming how to get a copy to change) and
behave as plain ones otherwise: equal to a plain dict or list with the same contents, written by
``json`` and ``orjson`` as one, pickled and copied as their own kind. The list of offers each caller
gets is its own plain list. Handing out one listing costs a list's copy, where a deep copy of every
offer cost most of a kept listing's answer.
"""

from __future__ import annotations

from typing import Any, NoReturn


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"an offered action is read-only: change a copy ({self._plain.__name__}(offer))")


class _ReadOnly:
    """What the read-only kinds share: pickled as a copy of their plain kind, copied as themselves."""

    __slots__ = ()
    _plain: type

    def __reduce__(self):
        return type(self), (self._plain(self),)

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: dict) -> Any:
        return self


class Offer(_ReadOnly, dict):
    """An offer, or a mapping inside one (its parameters): a dict that refuses every change."""

    __slots__ = ()
    _plain = dict
    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse


class Items(_ReadOnly, list):
    """A list inside an offer (a point, a parameter's choices): a list that refuses every change."""

    __slots__ = ()
    _plain = list
    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = sort = reverse = _refuse
    __iadd__ = __imul__ = _refuse


def freeze(value: Any) -> Any:
    """``value`` with every dict and list in it read-only (what is read-only already is kept as it is)."""
    kind = type(value)
    if kind is dict:
        out = Offer(value)  # one copy; then what may change inside it, made read-only in turn
        for k, v in value.items():
            if type(v) not in _KEPT:
                _put(out, k, freeze(v))
        return out
    if kind is list:
        return Items([v if type(v) in _KEPT else freeze(v) for v in value])
    if kind is tuple:
        return tuple(freeze(v) for v in value)
    return value


_put = dict.__setitem__
_KEPT = frozenset({str, int, float, bool, type(None), Offer, Items})
"""What ``freeze`` keeps as it is: what cannot change, and what is read-only already."""


def freeze_all(offers: list[dict]) -> list[Offer]:
    """Each offer read-only; offers frozen already (kept from an earlier listing) are taken as they are."""
    return [o if type(o) is Offer else freeze(o) for o in offers]


def thaw(value: Any) -> Any:
    """A plain copy of ``value``, every dict and list in it the caller's own to change (a computer
    player's inputs, ``game.ai.facade``)."""
    kind = type(value)
    if kind is dict or kind is Offer:
        return {k: thaw(v) for k, v in value.items()}
    if kind is list or kind is Items:
        return [thaw(v) for v in value]
    if kind is tuple:
        return tuple(thaw(v) for v in value)
    return value
