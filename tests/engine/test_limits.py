"""Resources (docs/protocol.md, "Limits"; DESIGN §4): games per engine and per connection, memory,
and games nobody uses expire."""

from __future__ import annotations

import time

import pytest

from game.engine import session as session_mod
from game.engine.session import LIMIT, UNKNOWN_GAME, Engine, Limits, RpcError

TINY = {"scenario": "village_sweep", "seed": 1, "players": {"allied": "human", "insurgent": "human"}}


def test_a_network_connection_holds_a_few_games_the_engine_a_few_more():
    e = Engine(limits=Limits(games=3, games_per_connection=2))
    a, b = e.connect(), e.connect()
    for _ in range(2):
        e.call("game.new", dict(TINY), a)
    with pytest.raises(RpcError) as err:
        e.call("game.new", dict(TINY), a)
    assert err.value.code == LIMIT and err.value.data["limit"] == "games_per_connection"
    e.call("game.new", dict(TINY), b)
    with pytest.raises(RpcError) as err:
        e.call("game.new", dict(TINY), b)
    assert err.value.code == LIMIT and err.value.data["limit"] == "games"
    gid = e.call("game.list", {}, a)["games"][0]["game"]
    e.call("game.close", {"game": gid}, a)  # closing one makes room again
    e.call("game.new", dict(TINY), b)


def test_no_new_game_while_the_engine_is_over_its_memory(monkeypatch):
    e = Engine(limits=Limits(max_rss_mb=100))
    monkeypatch.setattr(session_mod, "_rss_mb", lambda: 150.0)
    with pytest.raises(RpcError) as err:
        e.call("game.new", dict(TINY))
    assert err.value.code == LIMIT and err.value.data["limit"] == "memory"
    monkeypatch.setattr(session_mod, "_rss_mb", lambda: 50.0)
    assert e.call("game.new", dict(TINY))["game"]


def test_idle_games_expire_and_a_dropped_players_game_waits_for_them():
    e = Engine(limits=Limits(idle_seconds=1000, orphan_seconds=100))
    local = e.call("game.new", dict(TINY))["game"]
    net = e.connect()
    shared = e.call("game.new", dict(TINY), net)["game"]
    now = time.monotonic()
    assert e.sweep(now + 50) == []
    e.disconnect(net)  # the host's link dropped: its game waits orphan_seconds for a token holder
    assert e.sweep(now + 80) == []
    assert e.sweep(now + 200) == [shared]
    assert local in e.sessions  # the local player's game is theirs until it is idle for idle_seconds
    assert e.sweep(now + 2000) == [local]
    with pytest.raises(RpcError) as err:
        e.call("game.view", {"game": local, "side": "allied"})
    assert err.value.code == UNKNOWN_GAME


def test_a_game_in_use_does_not_expire():
    e = Engine(limits=Limits(idle_seconds=100))
    gid = e.call("game.new", dict(TINY))["game"]
    e.sessions[gid].keys.last_used -= 90
    e.call("game.view", {"game": gid, "side": "allied"})  # a call is a use
    assert e.sweep(time.monotonic() + 20) == []
