"""The wire holds (DESIGN §4: "No bad message ever changes a game or stops the process").

docs/protocol.md, "Errors" and "Limits": every answer is strict JSON with a documented code; -32602
names its field in ``data.field``; a line past ``wire.MAX_LINE`` is -32600 and never held whole;
a number literal past ``MAX_DIGITS`` is -32600; ``NaN``, ``Infinity`` and ``1e999`` are -32700; bytes
that are not UTF-8 are -32700 on stdio and TCP alike. A seeded fuzz run (``tests/engine/wirefuzz.py``;
the long one is ``benchmarks/fuzz.py``) mutates valid requests of every method on a hot-seat, a solo
(the Jungle Ghost) and a co-op game, and checks every answer and every game's hash.
"""

from __future__ import annotations

import io
import json

import pytest

from game.engine import wire
from game.engine.protocol import handle_line
from game.engine.server import serve_stdio
from game.engine.session import Engine
from tests.engine import wirefuzz
from tests.engine.procs import RawSocket, StdioEngine, TcpEngine, rss_kb


def strict(text: str | bytes) -> dict | list:
    """An answer line as JSON, refusing ``NaN``/``Infinity`` (RFC 8259 §6)."""
    return json.loads(text, parse_constant=wirefuzz._no_constant)


def ask(engine: Engine, line: str | bytes) -> dict:
    out = handle_line(engine, line)
    assert out is not None and "\n" not in out
    return strict(out)


def req(method: str, params: dict | None = None, rid=1) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params or {}})


def code(answer: dict) -> int | None:
    return answer["error"]["code"] if "error" in answer else None


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    return Engine(save_dir=tmp_path_factory.mktemp("saves"), scenario_dirs=[])


@pytest.fixture(scope="module")
def games(engine):
    """A hot-seat game (both sides human, with a referee), and a solo game against the Jungle Ghost."""
    hot = engine.call("game.new", dict(wirefuzz.GAMES["hotseat"]))["game"]
    solo = engine.call("game.new", dict(wirefuzz.GAMES["solo"]))["game"]
    return {"hotseat": hot, "solo": solo}


def hashes(engine: Engine) -> dict[str, str]:
    return {gid: s.game.hash() for gid, s in engine.sessions.items()}


@pytest.fixture(scope="module")
def stdio(tmp_path_factory):
    with StdioEngine(tmp_path_factory.mktemp("stdio")) as p:
        yield p


@pytest.fixture(scope="module")
def tcp(tmp_path_factory):
    with TcpEngine(tmp_path_factory.mktemp("tcp")) as p:
        yield p


# -- the fuzz run ------------------------------------------------------------------------------------

def test_fuzzed_messages_of_every_method_are_answered_and_change_nothing(engine):
    # DESIGN §4: every malformed message gets a documented error, and no refused call changes a game.
    fuzz = wirefuzz.Fuzzer(wirefuzz.in_process(engine), seed=20_240_601, big=False,
                           hashes=wirefuzz.engine_hashes(engine))
    counts = fuzz.run(1000)  # benchmarks/fuzz.py runs the long fuzz (50,000 by default)
    assert not fuzz.failures, "\n".join(fuzz.failures[:10])
    assert counts["messages"] == 1000 and counts["failures"] == 0 and counts["answers:-32603"] == 0
    for kind in ("result", -32700, -32600, -32601, -32602, 1, 3, 4):  # every kind of answer was reached
        assert counts[f"answers:{kind}"] > 0, (kind, counts)
    # The engine is fine afterwards: a normal call on each game works, and a legal action still plays.
    for info in fuzz.games.values():
        view = engine.call("game.view", {"game": info.gid, "side": "referee"})
        assert view["hash"] == engine.sessions[info.gid].game.hash()
    hot = fuzz.games["hotseat"]
    side = engine.call("game.view", {"game": hot.gid, "side": "referee"})["to_act"]
    if side:
        engine.call("game.act", {"game": hot.gid, "side": side, "action": {"type": "pass"}})


def test_fuzz_through_the_real_process_on_stdio(stdio):
    fuzz = wirefuzz.Fuzzer(wirefuzz.synced(stdio.write, stdio.readline), seed=7, big=False,
                           kinds=("hotseat", "solo"))
    counts = fuzz.run(250, hash_every=5)
    assert not fuzz.failures, "\n".join(fuzz.failures[:10])
    assert counts["crashes"] == 0 and stdio.alive


# -- every param, every action field -------------------------------------------------------------------

WRONG = [5, 1.5, True, [], {}, "x" * 201]


def method_params(games: dict) -> dict[str, tuple[dict, set[str]]]:
    """Each method's valid params, and which of them are required."""
    hot = games["hotseat"]
    game_side = {"game", "side"}
    return {
        "game.new": ({"scenario": "village_sweep", "seed": 1, "players": {"allied": "human", "insurgent": "ai"},
                      "referee": False, "threat": 2, "side": "allied"}, {"scenario"}),
        "game.view": ({"game": hot, "side": "allied"}, game_side),
        "game.actions": ({"game": hot, "side": "allied"}, game_side),
        "game.act": ({"game": hot, "side": "allied", "action": {"type": "pass"}}, game_side | {"action"}),
        "game.step": ({"game": hot, "side": "allied"}, {"game"}),
        "game.preview": ({"game": hot, "side": "allied", "action": {"type": "fire", "element": "sq1", "target": "x"}},
                         game_side | {"action"}),
        "game.events": ({"game": hot, "side": "allied", "since": 0}, game_side),
        "game.save": ({"game": hot, "slot": "ok"}, {"game"}),
        "game.load": ({"save": {}}, {"save"}),
        "game.close": ({"game": hot}, {"game"}),
        "los.check": ({"game": hot, "side": "allied", "from": [1, 1], "to": [2, 2]}, game_side | {"from", "to"}),
    }


def right_type(name: str, value, base) -> bool:
    """Is ``value`` of the type the param takes (a scenario: an id or an inline object)?"""
    if name == "scenario":
        return isinstance(value, (str, dict))
    if isinstance(base, bool) or isinstance(base, int):
        return type(value) is type(base)
    return wirefuzz._kind(value) == wirefuzz._kind(base)


def test_every_param_of_a_wrong_type_is_32602_naming_it(engine, games):
    before = hashes(engine)
    for method, (params, required) in method_params(games).items():
        names = [*params] + (["token"] if "game" in params else [])
        for name in names:
            for value in WRONG:
                if right_type(name, value, params.get(name)):
                    continue
                a = ask(engine, req(method, {**params, name: value}))
                where = f"{method} {name}={str(value)[:20]}"
                assert code(a) == -32602, (where, a)
                assert a["error"]["data"]["field"].startswith(name), (where, a)
        for name in required:  # and every required param missing
            a = ask(engine, req(method, {k: v for k, v in params.items() if k != name}))
            assert code(a) == -32602 and a["error"]["data"]["field"] == name, (method, name, a)
    assert hashes(engine) == before


BAD_FIELDS = {
    wire._text: [5, 1.5, True, [], {}, "x" * 201],
    wire._point: ["a", 5, [1], [1, 2, 3, 4], [1, "a"], [True, 1], [1e7, 0], {}, [None, 1]],
    wire.finite: ["a", True, [], {}, 1e7, -1e7],
    wire._stands: [[], "a", 5, {"s": [1]}, {"s": "a"}, {"s": [1, 2, "f"]}, {f"s{i}": [1, 2] for i in range(65)}],
    wire._segment: [[[1, 2]], [[1, 2], [3]], "a", [[1, 2], [3, 4], [5, 6]], [[1, 2], 5]],
    wire._ids: ["a", [5], {}, ["x"] * 65, [["a"]]],
    wire._assign: [[], "a", {"sq1": 5}, {"sq1": ["e"]}],
    wire._flag: [1, 0, "true", [], {}],
}


@pytest.mark.parametrize("kind", ["hotseat", "solo"])
def test_every_action_field_of_a_wrong_type_is_32602_naming_it(engine, games, kind):
    # docs/protocol.md, "Limits": an action's fields are checked against the types the rules read.
    gid = games[kind]
    before = hashes(engine)
    for field, check in wire.ACTION_FIELDS.items():
        for value in BAD_FIELDS[check]:
            action = {"type": "move", "mode": "patrol", "element": "hq", "to": [24, 8], field: value}
            for method in ("game.act", "game.preview"):
                a = ask(engine, req(method, {"game": gid, "side": "allied", "action": action}))
                assert code(a) == -32602, (method, field, value, a)
                assert a["error"]["data"]["field"].startswith(f"action.{field}"), (method, field, a)
    assert hashes(engine) == before
    # A field no action takes is dropped, never kept in the log (nor in a save).
    n = len(engine.sessions[gid].log)
    ask(engine, req("game.act", {"game": gid, "side": "allied",
                                 "action": {"type": "pass", "evil": "x" * 100, "label": "l", "params": {}}}))
    assert [e["action"] for e in engine.sessions[gid].log[n:]] in ([], [{"type": "pass"}])


# -- numbers, literals, text ---------------------------------------------------------------------------

def test_a_5000_digit_number_is_an_invalid_request(engine, games):
    # docs/protocol.md, "Limits": a number literal past 32 characters is -32600, before any game sees it.
    before = hashes(engine)
    big = "1" + "0" * 4999
    for line in (
        f'{{"jsonrpc":"2.0","id":1,"method":"game.events","params":{{"game":"{games["hotseat"]}","side":"allied","since":{big}}}}}',
        f'{{"jsonrpc":"2.0","id":{big},"method":"engine.hello"}}',
        f'{{"jsonrpc":"2.0","id":1,"method":"game.act","params":{{"game":"{games["solo"]}","side":"allied",'
        f'"action":{{"type":"move","to":[0.{big},1]}}}}}}',
        f'[{big}]',
        f'-{big}',
    ):
        a = ask(engine, line)
        assert code(a) == -32600 and a["id"] is None and a["error"]["data"] == {"limit": "number", "max": 32}
    assert code(ask(engine, '{"jsonrpc":"2.0","id":1,"method":"game.list","params":{"x":' + "9" * 32 + "}}")) is None
    assert hashes(engine) == before


@pytest.mark.parametrize("literal", ["NaN", "-NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1E400",
                                     "123456789e999"])
def test_nan_infinity_and_overflow_are_parse_errors(engine, games, literal):
    # RFC 8259 §6: JSON has finite numbers only; Python's json would read these as nan/inf.
    before = hashes(engine)
    gid = games["hotseat"]
    for line in (
        f'{{"jsonrpc":"2.0","id":1,"method":"game.act","params":{{"game":"{gid}","side":"allied",'
        f'"action":{{"type":"move","mode":"patrol","element":"hq","to":[{literal},8]}}}}}}',
        f'{{"jsonrpc":"2.0","id":{literal},"method":"engine.hello"}}',
        f'[{{"jsonrpc":"2.0","id":1,"method":"los.check","params":{{"game":"{gid}","side":"allied",'
        f'"from":[1,{literal}],"to":[2,2]}}}}]',
    ):
        a = ask(engine, line)
        assert code(a) == -32700 and a["id"] is None, a
    assert hashes(engine) == before


def test_an_answer_is_never_nan(engine, monkeypatch):
    # A result the rules got wrong (a NaN) is an internal fault in strict JSON, never a bad line.
    monkeypatch.setitem(engine.methods, "engine.hello", lambda params, conn: {"odds": float("nan")})
    a = ask(engine, req("engine.hello"))
    assert code(a) == -32603 and a["id"] == 1


def test_control_characters_and_lone_surrogates(engine, games):
    before = hashes(engine)
    gid = games["hotseat"]
    for raw in ('"a\x01b"', '"tab\there"', '"\x1f"', '"new\nline"'):  # raw control characters: not JSON
        a = ask(engine, f'{{"jsonrpc":"2.0","id":1,"method":"game.view","params":{{"game":{raw},"side":"allied"}}}}')
        assert code(a) == -32700
    # An escaped lone surrogate is JSON; every param it lands in is answered as any wrong value is.
    s = "\ud800"
    for method, params, want in (
        ("game.view", {"game": s, "side": "allied"}, 4),
        ("game.view", {"game": gid, "side": s}, -32602),
        ("game.view", {"game": gid, "side": "allied", "token": s}, 6),
        ("game.view", {"game": gid, "side": "allied", "token": "\udfff\ud800"}, 6),
        ("game.actions", {"game": gid, "side": "allied", "seat": s}, -32602),
        ("los.check", {"game": gid, "side": "allied", "from": s, "to": [1, 1]}, -32602),
        ("game.save", {"game": gid, "slot": "\udfff\ud800"}, -32602),
        ("game.load", {"slot": s}, -32602),
        ("game.new", {"scenario": s}, 2),
        ("game.new", {"scenario": "village_sweep", "players": {s: "human"}}, -32602),
        ("game.new", {"scenario": "village_sweep", "players": {"allied": {"seats": [s, s + "x"]}}}, None),
    ):
        a = ask(engine, req(method, params))
        assert code(a) == want, (method, params, a)
        if a.get("result", {}).get("game"):
            engine.call("game.close", {"game": a["result"]["game"]})
    assert ask(engine, req("scenario.validate", {"scenario": s + ".toml"}))["result"]["valid"] is False
    assert hashes(engine) == before


def test_ids_of_every_type(engine):
    for rid in ("a", "", 0, -5, 2**53, None):
        a = ask(engine, req("game.list", rid=rid))
        assert a["id"] == rid and "result" in a
    for rid in (1.5, True, False, [], [1], {}, {"a": 1}, "x" * 201):
        a = ask(engine, req("game.list", rid=rid))
        assert code(a) == -32600 and a["id"] is None
    assert handle_line(engine, '{"jsonrpc":"2.0","method":"game.list"}') is None  # a notification
    assert handle_line(engine, '{"jsonrpc":"2.0","method":"game.act","params":{"game":5}}') is None


def test_batches_and_envelopes(engine):
    one = {"jsonrpc": "2.0", "id": 1, "method": "game.list"}
    out = strict(handle_line(engine, json.dumps([one] * wire.MAX_BATCH)))
    assert len(out) == wire.MAX_BATCH and all("result" in x for x in out)
    a = ask(engine, json.dumps([one] * (wire.MAX_BATCH + 1)))
    assert code(a) == -32600 and a["error"]["data"] == {"limit": "batch", "max": wire.MAX_BATCH}
    assert code(ask(engine, "[]")) == -32600
    assert handle_line(engine, json.dumps([{"jsonrpc": "2.0", "method": "game.list"}] * 3)) is None
    mixed = strict(handle_line(engine, json.dumps([one, [one], 5, "x", None, {"jsonrpc": "2.0", "id": 2}])))
    assert [code(x) for x in mixed] == [None, -32600, -32600, -32600, -32600, -32600]
    for bad in ({"jsonrpc": "1.0", "id": 1, "method": "game.list"}, {"id": 1, "method": "game.list"},
                {"jsonrpc": "2.0", "id": 1, "method": 5}, {"jsonrpc": "2.0", "id": 1, "method": None}):
        assert code(ask(engine, json.dumps(bad))) == -32600
    for method in ("game.View", "game.", "__init__", "call", "methods", "x" * 10_000):
        a = ask(engine, req(method))
        assert code(a) == -32601 and "game.view" in a["error"]["data"]["methods"]
        assert len(a["error"]["message"]) < 200
    for params in ([1, 2], "x", 5, True):
        a = ask(engine, json.dumps({"jsonrpc": "2.0", "id": 1, "method": "game.list", "params": params}))
        assert code(a) == -32602 and a["error"]["data"]["field"] == "params"


def test_nesting_past_the_limit(engine):
    def nest(d):
        v = 1
        for _ in range(d):
            v = [v]
        return v

    ok = {"jsonrpc": "2.0", "id": 1, "method": "game.list", "params": {"x": nest(wire.MAX_DEPTH - 2)}}
    assert "result" in ask(engine, json.dumps(ok))
    deep = {"jsonrpc": "2.0", "id": 1, "method": "game.list", "params": {"x": nest(wire.MAX_DEPTH)}}
    assert code(ask(engine, json.dumps(deep))) == -32600
    for line in ("[" * 100_000, "[" * 100_000 + "]" * 100_000, '{"a":' * 50_000):
        a = ask(engine, line)
        assert code(a) == -32600 and a["error"]["data"] == {"limit": "nesting", "max": wire.MAX_DEPTH}


# -- lines past the limit: in pieces, never held whole ------------------------------------------------

class Recorded(io.BytesIO):
    """stdin that records the longest piece a reader took from it."""

    longest = 0

    def readline(self, size: int = -1) -> bytes:
        piece = super().readline(size)
        self.longest = max(self.longest, len(piece))
        return piece


def test_a_line_past_the_limit_is_read_in_pieces_and_refused(engine, monkeypatch):
    # docs/protocol.md, "Limits": a longer line is read in pieces and thrown away, never held whole.
    monkeypatch.setattr(wire, "MAX_LINE", 64 * 1024)
    hello = b'{"jsonrpc":"2.0","id":9,"method":"game.list"}'
    exact = hello[:-1] + b" " * (wire.MAX_LINE - len(hello)) + b"}"
    assert len(exact) == wire.MAX_LINE
    mb = 1 << 20
    lines = [exact, exact + b" ", b"[" + b"1," * (2 * mb) + b"1]", b"x" * (6 * mb + 7), hello]
    stdin = Recorded(b"\n".join(lines) + b"\n" + b"y" * (3 * mb))  # and a last line with no newline
    stdout = io.StringIO()
    assert serve_stdio(engine, stdin=stdin, stdout=stdout) == 0
    answers = [strict(x) for x in stdout.getvalue().splitlines()]
    assert [code(a) for a in answers] == [None, -32600, -32600, -32600, None, -32600]
    assert answers[1]["error"]["data"] == {"limit": "line", "max": wire.MAX_LINE}
    assert answers[0]["id"] == answers[4]["id"] == 9
    # The longest piece ever taken: the limit (and a byte), or the 1 MiB the rest is skipped in.
    assert stdin.longest <= max(wire.MAX_LINE + 1, mb) < 4 * mb


def test_a_64_mb_line_through_the_real_engine_leaves_its_memory_alone(tmp_path):
    # The real size (MAX_LINE is 8 MiB): 64 MiB sent in 1 MiB pieces; the engine's peak memory grows by
    # a piece of the limit at most, not by the line.
    with StdioEngine(tmp_path) as proc:
        assert "result" in proc.call("engine.hello")
        peak = rss_kb(proc.proc.pid)
        chunk = b"z" * (1 << 20)
        for _ in range(64):
            proc.write(chunk)
        a = strict(proc.send(b""))
        assert code(a) == -32600 and a["error"]["data"] == {"limit": "line", "max": wire.MAX_LINE}
        grown = rss_kb(proc.proc.pid) - peak
        assert grown < 32 * 1024, f"the engine's peak memory grew by {grown} KiB for a 64 MiB line"
        assert proc.alive and "result" in proc.call("engine.hello")


# -- bad bytes on every transport ------------------------------------------------------------------------

BAD = [b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xc0\xaf", b"\xe2\x82", b"\xf8\x88\x80\x80\x80",
       b"\x80", b"\xf4\x90\x80\x80"]


def bad_lines(gid: str) -> list[bytes]:
    base = b'{"jsonrpc":"2.0","id":1,"method":"game.view","params":{"game":"' + gid.encode() + b'","side":"allied"}}'
    out = [base[:40] + b + base[40:] for b in BAD]  # inside a string
    out += [b + base for b in BAD[:3]] + [base[:-1] + b + b"}" for b in BAD[:3]]
    return out


def test_invalid_utf8_through_the_real_stdio_engine(stdio):
    gid = stdio.call("game.new", **wirefuzz.GAMES["solo"])["result"]["game"]
    before = stdio.call("game.view", game=gid, side="referee")["result"]["hash"]
    for line in bad_lines(gid):
        a = strict(stdio.send(line))
        assert code(a) == -32700 and a["id"] is None and "UTF-8" in a["error"]["message"], (line, a)
    # An escaped lone surrogate is valid JSON text: answered like any unknown token, not a fault.
    a = strict(stdio.send(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "game.view",
                                      "params": {"game": gid, "side": "allied", "token": "\ud800"}}).encode()))
    assert code(a) == 6
    assert stdio.alive
    assert stdio.call("game.view", game=gid, side="referee")["result"]["hash"] == before


def test_invalid_utf8_over_tcp(tcp):
    with RawSocket(tcp.host, tcp.port) as sock:
        r = strict(sock.send(req("game.new", wirefuzz.GAMES["hotseat"]).encode()))["result"]
        gid = r["game"]
        before = r["view"]["hash"]
        for line in bad_lines(gid):
            a = strict(sock.send(line))
            assert code(a) == -32700 and a["id"] is None, (line, a)
        for literal in ("NaN", "1e999", "1" + "0" * 4999):
            a = strict(sock.send(f'{{"jsonrpc":"2.0","id":1,"method":"game.events","params":{{"since":{literal}}}}}'
                                 .encode()))
            assert code(a) in (-32700, -32600)
        a = strict(sock.send(req("game.view", {"game": gid, "side": "referee"}).encode()))
        assert a["result"]["hash"] == before
    # The server is fine for the next connection too.
    with RawSocket(tcp.host, tcp.port) as sock:
        assert strict(sock.send(req("game.list").encode()))["result"] == {"games": []}
    assert tcp.alive


def test_fuzz_over_tcp(tcp):
    with RawSocket(tcp.host, tcp.port) as sock:
        def write(data: bytes) -> None:
            sock.sock.sendall(data)

        fuzz = wirefuzz.Fuzzer(wirefuzz.synced(write, sock.readline), seed=11, big=False, kinds=("hotseat", "solo"))
        counts = fuzz.run(200, hash_every=5)
    assert not fuzz.failures, "\n".join(fuzz.failures[:10])
    assert counts["crashes"] == 0 and tcp.alive


# -- what the fuzzer found ---------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["terrain", "side", "element", "blind", "ambush_point", "objective"])
@pytest.mark.parametrize("value", [7, 1.5, True, None, {"id": "x"}])
def test_an_inline_scenario_with_a_scalar_for_an_array_is_invalid_not_a_fault(engine, key, value):
    # Found by the fuzzer: "side": 7 reached the builder's loop (TypeError, -32603). Now error 2.
    raw = {**wirefuzz.inline_scenario(), key: value}
    a = ask(engine, req("game.new", {"scenario": raw}))
    assert code(a) == 2 and any(key in p for p in a["error"]["data"]["problems"]), a
    assert ask(engine, req("scenario.validate", {"scenario": raw}))["result"]["valid"] is False


def test_a_save_with_a_bad_scenario_or_a_bad_action_is_error_3_not_a_fault(engine, games):
    # Found by the fuzzer: a save's scenario and its logged actions come from outside as much as the
    # wire does; the integrity digest is no secret (anyone can recompute it), so the replay types them.
    from game.engine import saves

    doc = engine.call("game.save", {"game": games["hotseat"]})["save"]
    n = len(engine.sessions)
    bad_scenario = {**doc, "scenario": {**doc["scenario"], "side": 7}}
    cases = [bad_scenario]
    for field, value in (("to", [[1, 2], 3]), ("mode", ["patrol"]), ("element", {"a": 1}), ("type", 5)):
        edited = json.loads(json.dumps(doc))
        edited["actions"] = [{"side": "allied", "action": {"type": "move", "mode": "patrol", "element": "hq",
                                                           "to": [24, 8], field: value}}]
        cases.append(edited)
    for d in cases:
        d = {**d, "integrity": saves.integrity(d)}
        a = ask(engine, req("game.load", {"save": d}))
        assert code(a) == 3, a
    assert len(engine.sessions) == n
