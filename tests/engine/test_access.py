"""Who may read and act, over TCP (DESIGN §6: fog of war is a security boundary, on the network too).

docs/protocol.md, "Who may read and act: tokens": two connections to one ``python -m game engine
--listen`` process. A creates a game and holds its tokens; B, without a token, cannot list it, read
any side of it, act in it, save it or close it, and a made-up game id gives B the same answer as A's
real one (error 4). With a side's token B reads and acts for that side only; with a seat's token only
as that seat (DD-10.16); nobody acts for an AI side; a save document (the whole hidden state) goes
only to a referee token over TCP, and to the local creator on stdio and in process. The same over
TLS; a plain-text client against a TLS server fails cleanly and the server goes on; ``--listen PORT``
binds the loopback address and says so.
"""

from __future__ import annotations

import json
import socket
import ssl
import time

import pytest

from game.engine.client import EngineError, EngineSocket
from game.engine.server import parse_listen
from game.engine.session import Engine
from tests.engine.procs import RawSocket, StdioEngine, TcpEngine

HOTSEAT = {"scenario": "village_sweep", "seed": 11, "referee": True,
           "players": {"allied": "human", "insurgent": "human"}}
COOP = {"scenario": "village_sweep", "seed": 3, "referee": True,
        "players": {"allied": {"seats": ["Ames", "Brody"]}, "insurgent": "ai"}}
SOLO = {"scenario": "search_and_destroy", "seed": 5, "players": {"allied": "human", "insurgent": "ai"}}
MADE_UP = "g999999"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with TcpEngine(tmp_path_factory.mktemp("tcp")) as srv:
        yield srv


@pytest.fixture(scope="module")
def ca():
    trustme = pytest.importorskip("trustme")
    return trustme.CA()


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory, ca):
    home = tmp_path_factory.mktemp("tls")
    pem = home / "server.pem"
    ca.issue_cert("127.0.0.1", "localhost").private_key_and_cert_chain_pem.write_to_path(str(pem))
    with TcpEngine(home, "127.0.0.1:0", "--tls-cert", str(pem), "--tls-key", str(pem)) as srv:
        yield srv


@pytest.fixture(scope="module")
def client_tls(ca):
    ctx = ssl.create_default_context()
    ca.configure_trust(ctx)
    return ctx


def raw(conn: EngineSocket, method: str, **params) -> dict:
    """The whole answer, error or not (with the connection's token, as ``EngineSocket.call`` sends it)."""
    if conn.token is not None and "game" in params:
        params.setdefault("token", conn.token)
    return json.loads(conn.send_raw(json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})))


def err(answer: dict) -> int | None:
    return answer["error"]["code"] if "error" in answer else None


def calls(gid: str, seat: str | None = None) -> list[tuple[str, dict]]:
    """Every call that names a game: each side's view, events, actions, odds, lines of sight, acts
    (the AI's side too, each seat too), a step, a save, a close."""
    out: list[tuple[str, dict]] = []
    for side in ("allied", "insurgent", "referee"):
        out += [("game.view", {"game": gid, "side": side}), ("game.events", {"game": gid, "side": side}),
                ("los.check", {"game": gid, "side": side, "from": [10, 10], "to": [20, 20]}),
                ("game.step", {"game": gid, "side": side})]
    for side in ("allied", "insurgent"):
        for s in ([None, "Ames", "Brody"] if seat else [None]):
            extra = {"seat": s} if s else {}
            out += [("game.actions", {"game": gid, "side": side, **extra}),
                    ("game.act", {"game": gid, "side": side, "action": {"type": "pass"}, **extra}),
                    ("game.act", {"game": gid, "side": side, "action": {"type": "hold", "element": "sq1"}, **extra}),
                    ("game.preview", {"game": gid, "side": side, **extra,
                                      "action": {"type": "fire", "element": "sq1", "target": "vc1_a"}})]
    out += [("game.step", {"game": gid}), ("game.save", {"game": gid}), ("game.save", {"game": gid, "slot": "b"}),
            ("game.close", {"game": gid})]
    return out


def same_answer(real: dict, made_up: dict, gid: str) -> bool:
    return json.dumps(real).replace(gid, "GID") == json.dumps(made_up).replace(MADE_UP, "GID")


def state_hash(conn: EngineSocket, gid: str) -> str:
    return conn.call("game.view", game=gid, side="referee")["hash"]


@pytest.mark.parametrize("params", [HOTSEAT, COOP], ids=["hotseat", "coop"])
def test_without_a_token_a_game_does_not_exist(server, params):
    with EngineSocket(server.host, server.port, timeout=30) as a, EngineSocket(server.host, server.port, timeout=30) as b:
        gid = a.call("game.new", **params)["game"]
        before = state_hash(a, gid)
        assert b.call("game.list") == {"games": []}
        assert [g["game"] for g in a.call("game.list")["games"]] == [gid]
        coop = isinstance(params["players"]["allied"], dict)
        for method, p in calls(gid, seat="coop" if coop else None):
            real = raw(b, method, **p)
            fake = raw(b, method, **{**p, "game": MADE_UP})
            assert err(real) == 4 and real["error"]["data"] == {"games": []}, (method, p, real)
            assert same_answer(real, fake, gid), (method, real, fake)
        # A wrong token: the same answer for A's game as for a made-up one.
        real = raw(b, "game.view", game=gid, side="allied", token="not-a-token")
        fake = raw(b, "game.view", game=MADE_UP, side="allied", token="not-a-token")
        assert err(real) == 6 and same_answer(real, fake, gid)
        assert b.call("game.list") == {"games": []}
        assert state_hash(a, gid) == before
        a.call("game.close", game=gid)


def test_a_side_token_reads_and_acts_for_that_side_only(server):
    with EngineSocket(server.host, server.port, timeout=30) as a:
        r = a.call("game.new", **HOTSEAT)
        gid, tokens = r["game"], r["tokens"]
        assert set(tokens) == {"allied", "insurgent", "referee"}
        before = state_hash(a, gid)
        with EngineSocket(server.host, server.port, timeout=30, token=tokens["allied"]) as b:
            assert b.call("game.view", game=gid, side="allied")["side"] == "allied"
            assert b.call("game.list")["games"][0]["grants"] == [{"side": "allied"}]
            for method, p in calls(gid):
                side = p.get("side")
                if side == "allied" or (method == "game.step" and side is None):
                    continue
                a_ = raw(b, method, **p)
                assert err(a_) == 6, (method, p, a_)  # another side, the referee, a save, a close
            assert state_hash(a, gid) == before
            # ... and it plays its own side: the allied impulse, then the insurgent's token acts for it.
            hold = next(x for x in b.call("game.actions", game=gid, side="allied")["actions"] if x["type"] == "hold")
            b.call("game.act", game=gid, side="allied", action=hold)
            assert err(raw(b, "game.act", game=gid, side="insurgent", action={"type": "pass"})) == 6
        with EngineSocket(server.host, server.port, timeout=30, token=tokens["insurgent"]) as c:
            c.call("game.act", game=gid, side="insurgent", action={"type": "pass"})
            assert err(raw(c, "game.view", game=gid, side="allied")) == 6
        a.call("game.close", game=gid)


def test_a_seat_token_acts_as_that_seat_only(server):
    with EngineSocket(server.host, server.port, timeout=30) as a:
        r = a.call("game.new", **COOP)
        gid, seats = r["game"], r["tokens"]["seats"]["allied"]
        assert set(r["tokens"]) == {"seats", "referee"}  # the AI's side has no token
        before = state_hash(a, gid)
        with EngineSocket(server.host, server.port, timeout=30, token=seats["Brody"]) as b:
            view = b.call("game.view", game=gid, side="allied")
            assert {s["name"] for s in view["seats"]} == {"Ames", "Brody"}
            assert b.call("game.list")["games"][0]["grants"] == [{"side": "allied", "seat": "Brody"}]
            mine = b.call("game.actions", game=gid, side="allied", seat="Brody")["actions"]
            assert {x["seat"] for x in mine} <= {"Brody", None}
            for side in ("insurgent", "referee"):
                assert err(raw(b, "game.view", game=gid, side=side)) == 6
            ames_hold = {"type": "hold", "element": "hq"}
            brody_hold = {"type": "hold", "element": "sq1"}
            assert err(raw(b, "game.act", game=gid, side="allied", seat="Ames", action=ames_hold)) == 6
            assert err(raw(b, "game.act", game=gid, side="allied", seat="Ames", action=brody_hold)) == 6
            assert err(raw(b, "game.act", game=gid, side="allied", action=brody_hold)) == -32602  # no seat
            refused = raw(b, "game.act", game=gid, side="allied", seat="Brody", action=ames_hold)
            assert err(refused) == 1 and refused["error"]["data"]["clause"] == "DD-10.16"
            assert err(raw(b, "game.act", game=gid, side="insurgent", action={"type": "pass"})) == 6
            assert err(raw(b, "game.save", game=gid)) == 6 and err(raw(b, "game.close", game=gid)) == 6
            assert state_hash(a, gid) == before
            b.call("game.act", game=gid, side="allied", seat="Brody", action=brody_hold)
        assert state_hash(a, gid) != before
        a.call("game.close", game=gid)


@pytest.mark.parametrize("params", [SOLO, COOP], ids=["solo", "coop"])
def test_nobody_acts_for_an_ai_side(server, params):
    # The AI's side has no token; game.step lets the AI act. Not even its creator or the referee acts.
    with EngineSocket(server.host, server.port, timeout=30) as a:
        r = a.call("game.new", **{**params, "referee": True})
        gid = r["game"]
        with EngineSocket(server.host, server.port, timeout=30, token=r["tokens"]["referee"]) as ref:
            for conn in (a, ref):
                answer = raw(conn, "game.act", game=gid, side="insurgent", action={"type": "pass"})
                assert err(answer) == 6 and answer["error"]["data"] == {"field": "side"}
        a.call("game.close", game=gid)
    local = Engine()  # in process too
    gid = local.call("game.new", dict(params))["game"]
    with pytest.raises(Exception) as exc:
        local.call("game.act", {"game": gid, "side": "insurgent", "action": {"type": "pass"}})
    assert exc.value.code == 6


def test_autopilot_lets_the_ai_take_a_turn_for_a_human_side_only_for_who_may_act_for_it(server):
    with EngineSocket(server.host, server.port, timeout=30) as a:
        r = a.call("game.new", **HOTSEAT)
        gid, tokens = r["game"], r["tokens"]
        assert a.call("game.view", game=gid, side="allied")["to_act"] == "allied"
        before = state_hash(a, gid)
        with EngineSocket(server.host, server.port, timeout=30, token=tokens["insurgent"]) as c:
            answer = raw(c, "game.step", game=gid, side="insurgent", autopilot=True)
            assert err(answer) == 6 and answer["error"]["data"] == {"field": "autopilot"}
        assert state_hash(a, gid) == before
        plain = a.call("game.step", game=gid, side="allied")  # without autopilot a human side waits
        assert plain["events"] == [] and state_hash(a, gid) == before
        with EngineSocket(server.host, server.port, timeout=30, token=tokens["allied"]) as b:
            took = b.call("game.step", game=gid, side="allied", autopilot=True)
        assert took["events"] and state_hash(a, gid) != before
        save = a.call("game.save", game=gid)["save"]
        assert save["actions"][-1]["by"] == "ai" and save["actions"][-1]["side"] == "allied"  # the AI's action
        assert a.call("game.load", save=save)["hash"] == state_hash(a, gid)  # replayed without AI code
        a.call("game.close", game=gid)


def test_save_documents_go_to_the_referee_over_tcp_and_to_the_local_creator(server, tmp_path):
    with EngineSocket(server.host, server.port, timeout=30) as a:
        plain = a.call("game.new", **{**HOTSEAT, "referee": False})
        assert err(raw(a, "game.save", game=plain["game"])) == 6  # the creator over TCP: no referee token
        ref = a.call("game.new", **HOTSEAT)
        gid, tokens = ref["game"], ref["tokens"]
        assert a.call("game.save", game=gid)["save"]["format"] == "dinkydau-save"
        with EngineSocket(server.host, server.port, timeout=30, token=tokens["allied"]) as b:
            assert err(raw(b, "game.save", game=gid)) == 6
        with EngineSocket(server.host, server.port, timeout=30, token=tokens["referee"]) as r:
            doc = r.call("game.save", game=gid)["save"]
            assert doc["hash"] == state_hash(a, gid)
            assert r.call("game.save", game=gid, slot="refs")["slot"] == "refs"
            # A slot is the host's own file, the whole hidden state: never loaded over the network.
            assert err(raw(r, "game.load", slot="refs")) == 6
        for g in (plain["game"], gid):
            a.call("game.close", game=g)
    with StdioEngine(tmp_path) as proc:  # the local creator on stdio, with no referee at all
        g = proc.call("game.new", **{**HOTSEAT, "referee": False})["result"]["game"]
        assert proc.call("game.save", game=g)["result"]["save"]["format"] == "dinkydau-save"
        assert proc.call("game.load", slot="nothing-here")["error"]["code"] == 3
    local = Engine(save_dir=tmp_path / "saves")
    g = local.call("game.new", {**HOTSEAT, "referee": False})["game"]
    assert local.call("game.save", {"game": g})["save"]["referee"] is False


def test_over_tls(tls_server, client_tls):
    srv = tls_server
    assert "(TLS)" in srv.banner
    with EngineSocket(srv.host, srv.port, timeout=30, tls=client_tls) as a, \
            EngineSocket(srv.host, srv.port, timeout=30, tls=client_tls) as b:
        r = a.call("game.new", **HOTSEAT)
        gid = r["game"]
        before = state_hash(a, gid)
        assert b.call("game.list") == {"games": []}
        real, fake = raw(b, "game.view", game=gid, side="allied"), raw(b, "game.view", game=MADE_UP, side="allied")
        assert err(real) == 4 and same_answer(real, fake, gid)
        with EngineSocket(srv.host, srv.port, timeout=30, tls=client_tls, token=r["tokens"]["insurgent"]) as c:
            assert c.call("game.view", game=gid, side="insurgent")["side"] == "insurgent"
            assert err(raw(c, "game.view", game=gid, side="allied")) == 6
        # A plain-text client against the TLS server fails cleanly: an error, not a hang...
        with pytest.raises(EngineError):
            with EngineSocket(srv.host, srv.port, timeout=10) as plain:
                plain.call("game.list")
        with RawSocket(srv.host, srv.port, timeout=10) as rs, pytest.raises((EOFError, OSError, ValueError)):
            json.loads(rs.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "game.view",
                                           "params": {"game": gid, "side": "allied"}}).encode()))
        # ... and harms nothing: the server serves, A's connection and game are as they were.
        assert srv.alive and state_hash(a, gid) == before
        with EngineSocket(srv.host, srv.port, timeout=30, tls=client_tls) as d:
            assert d.call("engine.hello")["protocol"] == 1
    assert "dropped" in srv.stderr()


def test_listen_with_a_port_only_binds_the_loopback_address(tmp_path):
    assert parse_listen("7777") == ("127.0.0.1", 7777)
    assert parse_listen("0.0.0.0:7777") == ("0.0.0.0", 7777)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with TcpEngine(tmp_path, str(port)) as srv:
        assert srv.host == "127.0.0.1" and srv.port == port
        assert f"listening on 127.0.0.1:{port}" in srv.banner and "loopback only" in srv.banner
        with EngineSocket("127.0.0.1", port, timeout=30) as c:
            assert c.call("game.list") == {"games": []}
        # Bound to 127.0.0.1 itself, not to every address: another loopback address is refused.
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.2", port), timeout=5).close()


def test_a_stalled_handshake_and_a_crowd_of_sockets_do_not_hold_the_engine(monkeypatch):
    # DESIGN §4: no client holds the engine. A TLS client that never finishes its handshake is let go
    # after HANDSHAKE_SECONDS; connections past MAX_CONNECTIONS are told so (code 7) and closed.
    import socket as _socket
    import threading as _threading

    import trustme

    from game.engine import server

    monkeypatch.setattr(server, "HANDSHAKE_SECONDS", 0.5)
    monkeypatch.setattr(server, "MAX_CONNECTIONS", 2)
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    cert.configure_cert(ctx)
    ready, bound = _threading.Event(), []
    t = _threading.Thread(target=server.serve_tcp, args=("127.0.0.1", 0), kwargs=dict(ready=ready, tls=ctx, bound=bound),
                          daemon=True)
    t.start()
    assert ready.wait(10)
    port = bound[0]
    stalled = _socket.create_connection(("127.0.0.1", port))  # says nothing: no handshake
    second = _socket.create_connection(("127.0.0.1", port))
    time.sleep(0.2)
    third = _socket.create_connection(("127.0.0.1", port))
    third.settimeout(5)
    answer = json.loads(third.makefile("rb").readline())
    assert answer["error"]["code"] == 7 and answer["error"]["data"]["limit"] == "connections"
    stalled.settimeout(5)
    assert stalled.recv(1) == b""  # closed by the server after the handshake timeout
    second.close()
    time.sleep(0.8)  # both slots free again
    client_ctx = ssl.create_default_context()
    ca.configure_trust(client_ctx)
    from game.engine.client import EngineSocket

    with EngineSocket("127.0.0.1", port, tls=client_ctx) as ok:
        assert ok.call("engine.hello")["protocol"] == 1
    for s in (stalled, third):
        s.close()
