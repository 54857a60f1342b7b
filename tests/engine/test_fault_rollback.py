"""A fault while resolving an action leaves the game as it was (DESIGN §4: an unexpected error answers
INTERNAL_ERROR and the game is unchanged; ``session._guarded_act`` keeps the state to put back)."""

import pytest

from game.engine.session import Engine, RpcError


def test_a_fault_mid_action_puts_the_state_back(monkeypatch):
    e = Engine()
    gid = e.call("game.new", {"scenario": "village_sweep", "seed": 5,
                              "players": {"allied": "human", "insurgent": "human"}})["game"]
    s = e.sessions[gid]
    g = s.game
    before, events = g.state.hash(), len(g.events)
    side = g.state.to_act
    real_act = g.act

    def broken(side, action):
        real_act(side, action)  # the action resolves, changes the state, then something fails
        g.state.turn += 7
        raise RuntimeError("boom")

    monkeypatch.setattr(g, "act", broken)
    act = next(a for a in e.call("game.actions", {"game": gid, "side": side})["actions"] if a["type"] == "hold")
    with pytest.raises(RpcError, match="the game is unchanged"):
        e.call("game.act", {"game": gid, "side": side, "action": {k: v for k, v in act.items() if k != "params"}})
    assert s.game.state.hash() == before and len(s.game.events) == events
    monkeypatch.undo()
    # and the game plays on from it
    assert e.call("game.act", {"game": gid, "side": side,
                               "action": {k: v for k, v in act.items() if k != "params"}})["events"]
