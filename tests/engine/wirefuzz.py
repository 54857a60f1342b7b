"""Seeded fuzzing of the engine's wire (DESIGN §4; docs/protocol.md, "Errors" and "Limits").

Shared by ``tests/engine/test_wire.py`` (a few thousand messages in process) and ``benchmarks/fuzz.py``
(tens of thousands, through the real subprocess and over TCP). Messages are built by mutating valid
requests of every method: wrong types for every param and every action field, missing and unknown
params, huge and deeply nested values, 5,000-digit numbers, ``1e999``, ``NaN``/``Infinity``, invalid
UTF-8, lone surrogates, control characters, oversized batches, ids of every type and random bytes.

``Fuzzer`` drives any transport through one function ``send(line: bytes) -> list of answer lines``
and checks every answer (:meth:`Fuzzer.check`): strict JSON, a documented code, ``data.field`` on
every -32602, and the games' state hashes unchanged by every refused call.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# docs/protocol.md, "Errors": every code an answer may carry. -32603 is documented, but it is an
# internal fault: bad input must never cause one, so the fuzzer counts it as a failure.
DOCUMENTED = {-32700, -32600, -32601, -32602, -32603, 1, 2, 3, 4, 5, 6, 7}
FAULT = -32603
MUTATING = {"game.act", "game.step", "game.new", "game.load", "game.close"}
"""The methods that may change or open a game when they succeed (every other one only reads)."""

INJECT = "@@INJECT@@"

WEIRD: list[Any] = [
    None, True, False, 0, -1, 1, 7, 2**31, 2**63, -(2**63) - 1, 10**31, 0.5, -0.0, 1e308, -1e308, 5e-324,
    "", "a", " ", "x" * 201, "x" * 5000, "\x00", "\x00allied", "\ud800", "\udfff\ud800", "\u202e", "\ufeff",
    "../../etc/passwd", "/etc/passwd", "C:\\Windows\\win.ini", "g1", "g999", "allied", "insurgent", "referee",
    "human", "ai", "village_sweep", "../scenarios/village_sweep.toml", "%s%n", "null", "[]",
    [], [1], [1, 2], [1, 2, 3], [0.5, "a"], [[1, 2], [3, 4]], ["a"], [None], [True, False], [1e308, 1e308],
    {}, {"a": 1}, {"x": [1, 2]}, {"seats": []}, {"seats": ["A"]}, {"type": "pass"},
]
"""Values of every JSON type, edge numbers and strings: any one of them in the wrong place."""

RAW = [
    "NaN", "-NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1E400", "1" + "0" * 4999, "-" + "9" * 5000,
    "0." + "1" * 5000, "1e" + "9" * 40, "1" * 33, "01", "+1", ".5", "1.", "0x10", "'single'", "undefined",
    "tru", "nul", '"\x01"', '"a\x1fb"', '"\x7f"', '"tab\there"', '"\\ud800"', '"\\udc00\\ud800"', '"\\u0000"',
    '"\\x41"', '"\\uZZZZ"', "[" * 40 + "]" * 40, "[" * 100000, "{" * 50000, '{"a":' * 40 + "1" + "}" * 40,
    "/*c*/1", "1 2", '"unterminated', "[1,]", '{"a":1,}', '{"a" 1}', "{1: 2}", "-", "--1", "1e", "[1e-999]",
]
"""Raw JSON text (most of it not JSON, or past a limit) put where a value belongs."""

BAD_BYTES = [b"\xff", b"\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xc0\xaf", b"\xe2\x82",
             b"\xf8\x88\x80\x80\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xef\xbb\xbf", b"\x00", b"\x1b[2J"]
"""Bytes that are not UTF-8 (an encoded surrogate, overlong forms, a stray continuation), a BOM, NUL."""


def nested(depth: int, leaf: Any = 1) -> Any:
    v = leaf
    for i in range(depth):
        v = [v] if i % 2 else {"k": v}
    return v


def huge(rng: random.Random) -> Any:
    """A large value that still fits a line."""
    return rng.choice([
        lambda: "y" * rng.choice((10_000, 200_000, 2_000_000)),
        lambda: list(range(rng.choice((1000, 100_000)))),
        lambda: {f"k{i}": i for i in range(rng.choice((100, 20_000)))},
        lambda: nested(rng.choice((8, 31, 33, 60))),
        lambda: [[1.5, 2.5]] * 50_000,
        lambda: ["\ud800" * 100] * 100,
    ])()


def _kind(v: Any) -> str:
    return "bool" if isinstance(v, bool) else "num" if isinstance(v, (int, float)) else type(v).__name__


# -- the valid requests ------------------------------------------------------------------------------

@dataclass
class GameInfo:
    gid: str
    kind: str
    """``hotseat``, ``solo`` or ``coop``."""
    sides: list[str]
    """The sides the fuzzer may read (its connection holds every token)."""
    human: list[str]
    seats: dict[str, list[str]] = field(default_factory=dict)
    actions: dict[str, list[dict]] = field(default_factory=dict)
    """Legal actions per side, with their free params filled in."""
    stands: list[str] = field(default_factory=list)
    hash: str = ""
    params: dict = field(default_factory=dict)
    """The game.new params that made it (to make it again)."""


def fill(action: dict) -> dict:
    """A listed action with its free params set (the first choice, or a step from its ``from``)."""
    a = {k: v for k, v in action.items() if k not in ("params", "label")}
    for name, spec in (action.get("params") or {}).items():
        if spec.get("optional"):
            continue
        if spec.get("kind") == "point":
            fx, fy = spec.get("from", [10, 10])
            a[name] = [fx, fy + min(1.0, spec.get("max", 1.0))]
        elif spec.get("choices"):
            a[name] = spec["choices"][0]
    return a


GAMES = {
    "hotseat": {"scenario": "village_sweep", "seed": 11, "referee": True,
                "players": {"allied": "human", "insurgent": "human"}},
    "solo": {"scenario": "search_and_destroy", "seed": 5, "referee": True,
             "players": {"allied": "human", "insurgent": "ai"}},
    "coop": {"scenario": "village_sweep", "seed": 3, "referee": True,
             "players": {"allied": {"seats": ["Ames", "Brody"]}, "insurgent": "ai"}},
}


def inline_scenario() -> dict:
    from tests.builders import enemy, platoon, scenario

    return scenario(platoon() + enemy())


class Fuzzer:
    """Builds mutated messages and checks the answers of one engine through ``send``."""

    def __init__(self, send: Callable[[bytes], list[bytes]], seed: int = 1, kinds=("hotseat", "solo", "coop"),
                 big: bool = True, hashes: Callable[[dict[str, str]], dict[str, str]] | None = None):
        self.send = send
        self._hashes = hashes
        """In process: {kind: game id} -> {kind: state hash}, read from the engine itself (faster)."""
        self.rng = random.Random(seed)
        self.big = big
        """Also lines of megabytes (the slow part of a run)."""
        self.counts: Counter = Counter()
        self.failures: list[str] = []
        self.rid = 0
        self.games: dict[str, GameInfo] = {}
        for k in kinds:
            self.games[k] = self._make(k)
        self.save_doc = self.rpc("game.save", {"game": self.games[kinds[0]].gid})["save"]
        self.inline = inline_scenario()
        self.others = {g["game"] for g in self.rpc("game.list", {})["games"]}
        """The games its connection held before the run (other tests'): never closed by the fuzzer."""

    # -- values --------------------------------------------------------------------------------------
    def weird(self) -> Any:
        if self.big and self.rng.random() < 0.04:
            return huge(self.rng)
        return self.rng.choice(WEIRD)

    def wrong_type(self, value: Any) -> Any:
        """A value of another JSON type than ``value``'s."""
        for _ in range(20):
            w = self.weird()
            if _kind(w) != _kind(value):
                return w
        return None

    # -- plumbing ------------------------------------------------------------------------------------
    def rpc(self, method: str, params: dict) -> Any:
        self.rid += 1
        rid = f"setup-{self.rid}"
        answers = self.send(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}).encode())
        assert len(answers) == 1, (method, answers)
        msg = json.loads(answers[0])
        if "error" in msg:
            raise AssertionError(f"{method} {params}: {msg['error']}")
        return msg["result"]

    def hashes(self) -> dict[str, str]:
        if self._hashes is not None:
            return self._hashes({k: g.gid for k, g in self.games.items()})
        batch = [{"jsonrpc": "2.0", "id": f"h-{k}", "method": "game.view",
                  "params": {"game": g.gid, "side": "referee"}} for k, g in self.games.items()]
        answers = self.send(json.dumps(batch).encode())
        out = {}
        for a in json.loads(answers[0]):
            if "result" in a:
                out[a["id"][2:]] = a["result"]["hash"]
        return out

    def _make(self, kind: str) -> GameInfo:
        params = GAMES[kind]
        r = self.rpc("game.new", params)
        view = r["view"]
        human = [s for s, who in view["players"].items() if who == "human"]
        seats = {s["side"]: [] for s in view.get("seats", [])}
        for s in view.get("seats", []):
            seats[s["side"]].append(s["name"])
        info = GameInfo(r["game"], kind, ["allied", "insurgent", "referee"], human, seats,
                        stands=[s["id"] for s in view["stands"]], hash=view["hash"], params=params)
        self._refresh(info)
        return info

    def _refresh(self, info: GameInfo) -> None:
        for side in info.human:
            acts = self.rpc("game.actions", {"game": info.gid, "side": side})["actions"]
            info.actions[side] = [fill(a) for a in acts] or [{"type": "pass"}]
        info.hash = self.rpc("game.view", {"game": info.gid, "side": "referee"})["hash"]

    # -- messages --------------------------------------------------------------------------------------
    def base(self) -> tuple[str, dict, GameInfo | None]:
        """One valid request: (method, params, the game it names)."""
        rng = self.rng
        g = rng.choice(list(self.games.values()))
        side = rng.choice(g.human)
        seat = {"seat": rng.choice(g.seats[side])} if side in g.seats else {}
        act = rng.choice(g.actions.get(side) or [{"type": "pass"}])
        fire = [a for a in g.actions.get(side, []) if a["type"] in ("fire", "area_fire", "frag_grenade")]
        method = rng.choice([
            "engine.hello", "game.new", "game.list", "game.view", "game.actions", "game.act", "game.act",
            "game.act", "game.step", "game.preview", "game.events", "game.save", "game.load", "game.close",
            "los.check", "scenario.validate",
        ])
        p: dict
        if method == "engine.hello" or method == "game.list":
            p = {}
        elif method == "game.new":
            p = dict(rng.choice(list(GAMES.values())))
            p["side"] = rng.choice(["allied", "insurgent", "referee"])
            p["threat"] = rng.choice([1, 2, 3])
            if rng.random() < 0.3:
                p["scenario"] = json.loads(json.dumps(self.inline))
                p["players"] = {"allied": "human", "insurgent": "human"}
        elif method == "game.view":
            p = {"game": g.gid, "side": rng.choice(g.sides)}
        elif method == "game.actions":
            p = {"game": g.gid, "side": side, **seat}
        elif method == "game.act":
            p = {"game": g.gid, "side": side, "action": dict(act), **seat}
        elif method == "game.step":
            p = {"game": g.gid, "side": rng.choice(g.sides)}
        elif method == "game.preview":
            p = {"game": g.gid, "side": side, "action": dict(rng.choice(fire) if fire else act)}
        elif method == "game.events":
            p = {"game": g.gid, "side": rng.choice(g.sides), "since": rng.randrange(0, 50)}
        elif method == "game.save":
            p = {"game": g.gid, **({"slot": rng.choice(["fuzz", "fuzz-2"])} if rng.random() < 0.3 else {})}
        elif method == "game.load":
            p = {"save": json.loads(json.dumps(self.save_doc))} if rng.random() < 0.7 else {"slot": "fuzz"}
        elif method == "game.close":
            p = {"game": g.gid}
        elif method == "los.check":
            pick = [rng.choice(g.stands), [rng.uniform(0, 48), rng.uniform(0, 48)]]
            p = {"game": g.gid, "side": rng.choice(g.sides), "from": rng.choice(pick), "to": rng.choice(pick)}
        else:
            p = {"scenario": rng.choice(["village_sweep", "rubber_plantation", json.loads(json.dumps(self.inline))])}
        return method, p, g

    def _deep(self, value: Any, depth: int = 0) -> Any:
        """The value with one node somewhere inside it replaced, removed or given a wrong type."""
        rng = self.rng
        if isinstance(value, dict) and value and (depth < 6 and rng.random() < 0.7):
            key = rng.choice(list(value))
            out = dict(value)
            r = rng.random()
            if r < 0.15:
                del out[key]
            elif r < 0.2:
                out[rng.choice(["extra", "__proto__", "", "\ud800", "x" * 300])] = self.weird()
            else:
                out[key] = self._deep(value[key], depth + 1)
            return out
        if isinstance(value, list) and value and (depth < 6 and rng.random() < 0.7):
            i = rng.randrange(len(value))
            out = list(value)
            r = rng.random()
            if r < 0.15:
                del out[i]
            elif r < 0.25:
                out.append(self.weird())
            else:
                out[i] = self._deep(value[i], depth + 1)
            return out
        return self.wrong_type(value) if rng.random() < 0.7 else self.weird()

    def message(self) -> tuple[str, bytes, GameInfo | None]:
        """One mutated message: (the method it started from, the line, the game it names)."""
        rng = self.rng
        method, params, g = self.base()
        self.rid += 1
        req: dict = {"jsonrpc": "2.0", "id": self.rid, "method": method, "params": params}
        r = rng.random()
        raw: str | None = None
        if r < 0.22:  # a param of a wrong type
            if params:
                key = rng.choice(list(params))
                params[key] = self.wrong_type(params[key])
        elif r < 0.37 and isinstance(params.get("action"), dict):  # an action field of a wrong type
            a = params["action"]
            from game.engine.wire import ACTION_FIELDS

            key = rng.choice(list(ACTION_FIELDS) + list(a))
            a[key] = self.wrong_type(a.get(key, 0))
        elif r < 0.47:  # a param missing, or one no method takes
            if params and rng.random() < 0.6:
                del params[rng.choice(list(params))]
            else:
                params[rng.choice(["path", "token", "slot", "seat", "side", "zzz", ""])] = self.weird()
        elif r < 0.6:  # somewhere deep inside (an inline scenario, a save document, a co-op team, an action)
            req["params"] = self._deep(params)
        elif r < 0.7:  # the envelope: id, jsonrpc, method, params of every type
            what = rng.choice(["id", "id", "jsonrpc", "method", "params", "drop"])
            if what == "drop":
                del req[rng.choice(["id", "jsonrpc", "method", "params"])]
            else:
                req[what] = self.weird() if rng.random() < 0.8 else rng.choice(
                    ["2.0", "game.view", "Game.View", "game.", "engine.hello ", "__init__", "call", "methods"])
        elif r < 0.8:  # raw text where a value belongs
            target = rng.choice(["id", "params", "value"])
            if target == "value" and params:
                params[rng.choice(list(params))] = INJECT
            else:
                req["id" if target == "id" else "params"] = INJECT
            raw = rng.choice(RAW)
        elif r < 0.86:  # batches
            n = rng.choice([0, 1, 2, 5, 64, 65, 200] + ([5000] if self.big else []))
            items: list[Any] = []
            for _ in range(min(n, 70)):
                m, p, _g = self.base() if rng.random() < 0.3 else ("game.list", {}, None)
                items.append({"jsonrpc": "2.0", "id": rng.choice([1, "b", None, 2.5]), "method": m,
                              "params": p} if rng.random() < 0.8 else self.weird())
            items = (items * (n // max(len(items), 1) + 1))[:n]
            if rng.random() < 0.1:
                items.append([req])
            line = json.dumps(items).encode()
            return "batch", self._bytes(line), None
        elif r < 0.88 and self.big:  # a line of megabytes, still within the limit
            params[rng.choice(list(params) or ["x"])] = huge(rng)
        elif r < 0.9:  # random bytes
            n = rng.choice([1, 10, 100, 1000] + ([100_000] if self.big else []))
            return "bytes", bytes(rng.randrange(256) for _ in range(n)) if n <= 1000 else rng.randbytes(n), None
        else:  # a valid request, now and then with a notification's missing id
            if rng.random() < 0.2:
                del req["id"]
        text = json.dumps(req, ensure_ascii=rng.random() < 0.7)
        if raw is not None:
            text = text.replace(json.dumps(INJECT), raw, 1)
        line = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.12:
            line = self._bytes(line)
        return method, line, g

    def _bytes(self, line: bytes) -> bytes:
        """Byte-level damage: bad UTF-8 somewhere, a flipped byte, a cut."""
        rng = self.rng
        r = rng.random()
        if r < 0.5:
            i = rng.randrange(len(line) + 1)
            return line[:i] + rng.choice(BAD_BYTES) + line[i:]
        if r < 0.75 and line:
            i = rng.randrange(len(line))
            return line[:i] + bytes([line[i] ^ (1 << rng.randrange(8))]) + line[i + 1:]
        return line[: rng.randrange(len(line) + 1)]

    # -- checking --------------------------------------------------------------------------------------
    def fail(self, why: str) -> None:
        self.counts["failures"] += 1
        if len(self.failures) < 50:
            self.failures.append(why)

    def check(self, method: str, line: bytes, answers: list[bytes]) -> tuple[int, list[dict]]:
        """Check each answer line; returns (the number of successful answers, the answers)."""
        ok = 0
        msgs: list[dict] = []
        for ans in answers:
            try:
                text = ans.decode("ascii")
                msg = json.loads(text, parse_constant=_no_constant)
            except (UnicodeDecodeError, ValueError) as exc:
                self.counts["not_strict_json"] += 1
                self.fail(f"not strict JSON ({exc}): {ans[:200]!r} for {line[:200]!r}")
                continue
            for m in msg if isinstance(msg, list) else [msg]:
                msgs.append(m)
                if not isinstance(m, dict) or m.get("jsonrpc") != "2.0" or ("result" in m) == ("error" in m):
                    self.fail(f"not a JSON-RPC response: {str(m)[:200]} for {line[:200]!r}")
                    continue
                if "result" in m:
                    ok += 1
                    self.counts["answers:result"] += 1
                    continue
                code = m["error"].get("code")
                self.counts[f"answers:{code}"] += 1
                if code == FAULT:
                    self.fail(f"-32603 {m['error'].get('message', '')[:300]} for {line[:300]!r}")
                elif code not in DOCUMENTED:
                    self.counts["undocumented"] += 1
                    self.fail(f"undocumented code {code} for {line[:200]!r}")
                elif code == -32602:
                    data = m["error"].get("data")
                    if not (isinstance(data, dict) and isinstance(data.get("field"), str) and data["field"]):
                        self.counts["no_field"] += 1
                        self.fail(f"-32602 without data.field: {m['error']} for {line[:200]!r}")
        return ok, msgs

    def run(self, n: int, hash_every: int = 1) -> Counter:
        """Send ``n`` messages; after every one that may have changed a game, and every ``hash_every``
        otherwise, the games' hashes must be what they were, unless a call that may change them
        succeeded."""
        for i in range(n):
            method, line, g = self.message()
            self.counts["messages"] += 1
            try:
                answers = self.send(line)
            except EOFError as exc:
                self.counts["crashes"] += 1
                self.fail(f"the engine died on {line[:200]!r}: {exc}")
                raise
            ok, msgs = self.check(method, line, answers)
            # A notification is never answered: whether it was refused cannot be told.
            changed = (ok or not answers) and (method in MUTATING or method == "batch")
            self._tidy(msgs, unanswered=not answers and method in ("game.new", "game.load", "batch"))
            if changed or method in MUTATING or i % hash_every == 0:
                self._compare(changed, line)
        return self.counts

    def _tidy(self, msgs: list[dict], unanswered: bool = False) -> None:
        """Close the games a fuzzed game.new or game.load opened (the engine's limits are not under test);
        after a notification, which is never answered, every game but the fuzzer's own."""
        mine = {g.gid for g in self.games.values()}
        opened = []
        for m in msgs:
            res = m.get("result") if isinstance(m, dict) else None
            gid = res.get("game") if isinstance(res, dict) else None
            if isinstance(gid, str) and isinstance(res.get("tokens"), dict):
                opened.append(gid)
        if unanswered:
            opened += [g["game"] for g in self.rpc("game.list", {})["games"] if g["game"] not in self.others]
        for gid in dict.fromkeys(opened):
            if gid not in mine:
                answers = self.send(json.dumps({"jsonrpc": "2.0", "id": "tidy", "method": "game.close",
                                                "params": {"game": gid}}).encode())
                if b'"closed"' not in answers[0]:
                    self.fail(f"cannot close {gid}: {answers[0][:200]!r}")

    def _compare(self, changed: bool, line: bytes) -> None:
        now = self.hashes()
        for k, g in list(self.games.items()):
            if k not in now:  # closed by a fuzzed game.close that was allowed: make it again
                if not changed:
                    self.counts["changed_games"] += 1
                    self.fail(f"game {k} vanished after a refused call: {line[:200]!r}")
                self.games[k] = self._make(k)
                continue
            if now[k] != g.hash:
                if not changed:
                    self.counts["changed_games"] += 1
                    self.fail(f"game {k} changed after a refused call: {line[:300]!r}")
                g.hash = now[k]
                self._refresh(g)
                if self.rng.random() < 0.02:  # now and then a fresh game, before the old one ends
                    self.rpc("game.close", {"game": g.gid})
                    self.games[k] = self._make(k)


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not strict JSON")


def in_process(engine: Any) -> Callable[[bytes], list[bytes]]:
    """``send`` for an Engine in this process, through ``handle_line`` (bytes or text, at random)."""
    from game.engine.protocol import handle_line

    flip = random.Random(0)

    def send(line: bytes) -> list[bytes]:
        arg: bytes | str = line
        if flip.random() < 0.3:
            try:
                arg = line.decode("utf-8")
            except UnicodeDecodeError:
                pass
        out = handle_line(engine, arg)
        if out is None:
            return []
        assert "\n" not in out, out[:200]
        return [out.encode("utf-8")]

    return send


def engine_hashes(engine: Any) -> Callable[[dict[str, str]], dict[str, str]]:
    """``hashes`` for an Engine in this process: each open game's state hash, read directly."""

    def hashes(gids: dict[str, str]) -> dict[str, str]:
        return {k: engine.sessions[gid].game.hash() for k, gid in gids.items() if gid in engine.sessions}

    return hashes


SYNC = b'{"jsonrpc":"2.0","id":"sync"}'
"""Sent after every message over a transport: its answer (-32600 with id "sync") ends the message's answers
(a notification has none, a batch one line)."""


def synced(write: Callable[[bytes], None], readline: Callable[[], bytes]) -> Callable[[bytes], list[bytes]]:
    """``send`` over a byte stream: the line (its newlines made spaces: one message, one line), then SYNC."""

    def send(line: bytes) -> list[bytes]:
        write(line.replace(b"\n", b" ") + b"\n" + SYNC + b"\n")
        out = []
        while True:
            ans = readline()
            if ans.startswith(b'{"jsonrpc":"2.0","id":"sync",'):
                return out
            out.append(ans)

    return send
