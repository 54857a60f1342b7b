"""What may come in on the wire (DESIGN §4): bounded lines, strict JSON, typed action fields.

Every limit here is refused with a documented JSON-RPC code (docs/protocol.md, "Limits") before any
game sees the message:

* a line longer than ``MAX_LINE`` bytes is -32600 and is never buffered whole (the transports read it
  in pieces and throw it away);
* bytes that are not UTF-8 are -32700 on every transport;
* ``NaN``, ``Infinity`` and numbers that overflow to them are -32700 (they are not JSON, RFC 8259 §6);
* a number literal longer than ``MAX_DIGITS`` characters, a batch of more than ``MAX_BATCH``
  requests or nesting deeper than ``MAX_DEPTH`` is -32600;
* an action's fields are checked against the types the rules read (``ACTION_FIELDS``); a wrong one is
  -32602 naming the field (``action.to``), and fields no action takes are dropped, so nothing a client
  invents is kept in the game's log or its saves.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602

MAX_LINE = 8 * 1024 * 1024
"""Bytes in one line: room for the largest inline scenario or save document a table needs."""
MAX_BATCH = 64
MAX_DEPTH = 32
MAX_DIGITS = 32
MAX_COORD = 1e6
"""No table is a kilometre wide: coordinates and angles beyond this are refused, not stored."""


class WireError(Exception):
    """A message refused at the wire, with its JSON-RPC code and, where it names one, the field."""

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


def _limit(what: str, limit: int) -> WireError:
    return WireError(INVALID_REQUEST, f"invalid request: {what} (the limit is {limit})",
                     {"limit": what.split(" ")[0], "max": limit})


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise _limit(f"number literal of {len(text)} characters", MAX_DIGITS)
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise _limit(f"number literal of {len(text)} characters", MAX_DIGITS)
    value = float(text)
    if not math.isfinite(value):
        raise WireError(PARSE_ERROR, f"parse error: {text} is not a finite number")
    return value


def _constant(text: str) -> Any:
    raise WireError(PARSE_ERROR, f"parse error: {text} is not JSON (RFC 8259 allows finite numbers only)")


def depth(value: Any) -> int:
    """How deeply arrays and objects nest in a parsed value (a scalar is 0)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            items = v.values()
        elif isinstance(v, list):
            items = v
        else:
            continue
        deepest = max(deepest, d)
        if d > MAX_DEPTH:
            return d
        stack.extend((x, d + 1) for x in items if isinstance(x, (dict, list)))
    return deepest


def parse(line: bytes | str) -> Any:
    """One line of the protocol as a JSON value, or WireError with the code to answer."""
    if isinstance(line, bytes):
        size = len(line) - line.endswith(b"\n")  # the line's own bytes: a transport's newline is not one
        if size > MAX_LINE:
            raise _limit(f"line of {size} bytes", MAX_LINE)
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise WireError(PARSE_ERROR, f"parse error: not UTF-8 (byte {exc.start} of the line)") from exc
    elif (size := len(line) - line.endswith("\n")) > MAX_LINE:
        raise _limit(f"line of {size} characters", MAX_LINE)
    try:
        value = json.loads(line, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise WireError(PARSE_ERROR, f"parse error: {exc}") from exc
    except RecursionError as exc:
        raise _limit("nesting deeper than the parser allows", MAX_DEPTH) from exc
    if depth(value) > MAX_DEPTH:
        raise _limit("nesting too deep", MAX_DEPTH)
    if isinstance(value, list) and len(value) > MAX_BATCH:
        raise _limit(f"batch of {len(value)} requests", MAX_BATCH)
    return value


def dumps(value: Any) -> str:
    """A response line: strict JSON (never NaN: ValueError), compact. Written by orjson (a fraction of
    the time for a view); orjson writes a NaN or an infinity as ``null``, so an answer with a ``null``
    in it is read back and must equal what was asked for, else the standard library writes it (and
    refuses the NaN). Text past ASCII is escaped as the standard library escapes it."""
    try:
        out = orjson.dumps(value, option=orjson.OPT_PASSTHROUGH_DATACLASS)
    except TypeError:  # a key that is not a string, an integer past 64 bits, an object: the slow way
        pass
    else:
        if b"null" not in out or orjson.loads(out) == value:
            return out.decode() if out.isascii() else _NON_ASCII.sub(_escape, out.decode())
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _escape(m: re.Match) -> str:
    """A character past ASCII as JSON's ``\\u`` escape (a pair of them past the BMP): the wire is ASCII."""
    n = ord(m.group())
    if n < 0x10000:
        return f"\\u{n:04x}"
    n -= 0x10000
    return f"\\u{0xD800 | (n >> 10):04x}\\u{0xDC00 | (n & 0x3FF):04x}"


# -- action fields -------------------------------------------------------------------------------

def finite(value: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or abs(value) > MAX_COORD:
        raise WireError(INVALID_PARAMS, f"param '{field}' should be a finite number, got {_show(value)}",
                        {"field": field})
    return float(value) if isinstance(value, float) else value


def _point(value: Any, field: str, sizes: tuple[int, ...] = (2,)) -> list:
    if not isinstance(value, list) or len(value) not in sizes:
        want = " or ".join(f"{n} numbers" for n in sizes)
        raise WireError(INVALID_PARAMS, f"param '{field}' should be a point [x, y] ({want}), got {_show(value)}",
                        {"field": field})
    return [finite(v, f"{field}[{i}]") for i, v in enumerate(value)]


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise WireError(INVALID_PARAMS, f"param '{field}' should be an id (a string of at most 200 characters), "
                                        f"got {_show(value)}", {"field": field})
    return value


def _flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise WireError(INVALID_PARAMS, f"param '{field}' should be true or false, got {_show(value)}",
                        {"field": field})
    return value


def _stands(value: Any, field: str) -> dict:
    if not isinstance(value, dict) or len(value) > 64:
        raise WireError(INVALID_PARAMS, f"param '{field}' should be {{stand id: [x, y, facing]}}, got "
                                        f"{_show(value)}", {"field": field})
    return {_text(k, f"{field} key"): _point(v, f"{field}.{k}", (2, 3)) for k, v in value.items()}


def _segment(value: Any, field: str) -> list:
    if not isinstance(value, list) or len(value) != 2:
        raise WireError(INVALID_PARAMS, f"param '{field}' should be two points [[x, y], [x, y]], got "
                                        f"{_show(value)}", {"field": field})
    return [_point(p, f"{field}[{i}]") for i, p in enumerate(value)]


def _ids(value: Any, field: str) -> list:
    if not isinstance(value, list) or len(value) > 64:
        raise WireError(INVALID_PARAMS, f"param '{field}' should be a list of stand ids, got {_show(value)}",
                        {"field": field})
    return [_text(v, f"{field}[{i}]") for i, v in enumerate(value)]


def _assign(value: Any, field: str) -> dict:
    if not isinstance(value, dict) or len(value) > 64:
        raise WireError(INVALID_PARAMS, f"param '{field}' should be {{element id: Echo id}}, got {_show(value)}",
                        {"field": field})
    return {_text(k, f"{field} key"): _text(v, f"{field}.{k}") for k, v in value.items()}


WIRE_CHECKS = {"id": _text, "point": _point, "angle": finite, "placements": _stands, "segment": _segment,
               "ids": _ids, "map": _assign, "flag": _flag}
"""How each wire kind of ``game/data/contract.toml`` is checked."""


def _action_fields() -> dict:
    from game.rules.contract import contract

    return {name: WIRE_CHECKS[wire] for name, wire in contract().wire_kinds().items()}


ACTION_FIELDS = _action_fields()
"""Every field an action of the rules reads, with its check: declared once, in the contract. An
offer's ``cost``, ``tokens``, ``label``, ``params``, ``clause`` and the rest may be sent back and are
dropped, as is any field no action takes."""


def clean_action(action: Any, field: str = "action", fields: dict[str, str] | None = None) -> dict:
    """The action as the rules will read it: every field it may carry, typed; nothing else. ``fields``: a
    ruleset's own {field: wire kind} (``Ruleset.action_fields``); none: Dinky Dau's contract."""
    checks = ACTION_FIELDS if fields is None else {k: WIRE_CHECKS[v] for k, v in fields.items()}
    if not isinstance(action, dict):
        raise WireError(INVALID_PARAMS, f"param '{field}' should be an object, got {_show(action)}",
                        {"field": field})
    if "type" not in action:
        raise WireError(INVALID_PARAMS, f"param '{field}.type' is missing", {"field": f"{field}.type"})
    out = {}
    for key, value in action.items():
        check = checks.get(key)
        if check is None:
            continue  # an offer's own fields, or a field no action takes
        if value is None and key != "type":
            continue  # an optional field left empty
        out[key] = check(value, f"{field}.{key}")
    return out


def _show(value: Any) -> str:
    text = json.dumps(value, allow_nan=True) if not isinstance(value, (dict, list)) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."
