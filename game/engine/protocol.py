"""JSON-RPC 2.0 over lines (DESIGN §4): one request object per line in, one response per line out.

``handle_line`` turns one line (bytes or text) into the response line (or None for a notification).
Every malformed input is answered with the right JSON-RPC error and leaves the engine as it was:
-32700 for a line that is not JSON or not UTF-8 (``NaN`` and ``Infinity`` are not JSON), -32600 for
something that is not a request or passes a limit of ``game.engine.wire``, -32601 for an unknown
method, -32602 for bad params (naming the field); rules refusals are game errors (code 1) with
``data.reason`` and ``data.clause``. Batches (a JSON array of requests) are answered as arrays.
"""

from __future__ import annotations

import sys
import traceback
from typing import Any

from game.engine import wire
from game.engine.session import INTERNAL_ERROR, INVALID_REQUEST, Connection, Engine, RpcError


def _error(id_: Any, code: int, message: str, data: Any = None) -> dict:
    err: dict = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": id_, "error": err}


def handle_request(engine: Engine, req: Any, conn: Connection | None = None) -> dict | None:
    if not isinstance(req, dict) or req.get("jsonrpc") != "2.0" or not isinstance(req.get("method"), str):
        rid = req.get("id") if isinstance(req, dict) else None
        return _error(rid if isinstance(rid, (str, int)) and not isinstance(rid, bool) else None, INVALID_REQUEST,
                      "invalid request: expected {\"jsonrpc\": \"2.0\", \"method\": str, \"params\"?, \"id\"?}")
    is_notification = "id" not in req
    rid = req.get("id")
    if not is_notification and not (isinstance(rid, (str, int)) and not isinstance(rid, bool)) and rid is not None:
        return _error(None, INVALID_REQUEST, "invalid request: 'id' must be a string, a number or null")
    if isinstance(rid, str) and len(rid) > 200:
        return _error(None, INVALID_REQUEST, "invalid request: 'id' is longer than 200 characters")
    try:
        result = engine.call(req["method"], req.get("params"), conn)
    except RpcError as exc:
        return None if is_notification else _error(rid, exc.code, exc.message, exc.data)
    except Exception as exc:  # a fault in the engine must never stop the process
        traceback.print_exc(file=sys.stderr)
        return None if is_notification else _error(rid, INTERNAL_ERROR, f"internal error: {type(exc).__name__}: {exc}")
    return None if is_notification else {"jsonrpc": "2.0", "id": rid, "result": result}


def _send(resp: Any) -> str:
    try:
        return wire.dumps(resp)
    except (ValueError, TypeError) as exc:  # never a line a strict parser rejects (NaN, Infinity)
        rid = resp.get("id") if isinstance(resp, dict) else None
        return wire.dumps(_error(rid, INTERNAL_ERROR, f"internal error: the answer is not strict JSON ({exc})"))


def handle_line(engine: Engine, line: bytes | str, conn: Connection | None = None) -> str | None:
    """Answer one line of the protocol; None when there is nothing to send back."""
    if not line.strip():
        return None
    try:
        req = wire.parse(line)
    except wire.WireError as exc:
        return _send(_error(None, exc.code, exc.message, exc.data))
    if isinstance(req, list):
        if not req:
            return _send(_error(None, INVALID_REQUEST, "invalid request: an empty batch"))
        out = [r for r in (handle_request(engine, x, conn) for x in req) if r is not None]
        return _send(out) if out else None
    resp = handle_request(engine, req, conn)
    return None if resp is None else _send(resp)


def too_long() -> str:
    """The answer to a line past ``wire.MAX_LINE`` bytes (the transports never read it whole)."""
    return _send(_error(None, INVALID_REQUEST, f"invalid request: a line longer than {wire.MAX_LINE} bytes",
                        {"limit": "line", "max": wire.MAX_LINE}))
