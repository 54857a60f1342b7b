"""The engine protocol (DESIGN §4): every method, bad input, in process and through the real subprocess."""

import json

import pytest

from game.engine.client import EngineError, EngineProcess, InProcessEngine
from game.engine.protocol import handle_line
from game.engine.session import Engine


@pytest.fixture(scope="module")
def proc():
    with EngineProcess() as p:
        yield p


@pytest.fixture(params=["inprocess", "subprocess"])
def engine(request, proc):
    return InProcessEngine() if request.param == "inprocess" else proc


def new_game(engine, **kw):
    params = {"scenario": "village_sweep", "seed": 11, "players": {"allied": "human", "insurgent": "human"}}
    params.update(kw)
    return engine.call("game.new", **params)


def fill(action, to):
    a = {k: v for k, v in action.items() if k not in ("params", "label")}
    a["to"] = to
    return a


def test_hello(engine):
    h = engine.call("engine.hello")
    dd = {r["id"]: r for r in h["rulesets"]}["dinky_dau"]  # the rulesets, each with its sides and scenarios
    assert h["protocol"] == 1 and dd["sides"] == ["allied", "insurgent"]
    assert {"village_sweep", "rubber_plantation"} <= {s["id"] for s in h["scenarios"]}
    assert set(dd["scenarios"]) == {s["id"] for s in h["scenarios"] if s["ruleset"] == "dinky_dau"}


def test_hello_lists_a_scenario_file_as_it_is_now(tmp_path):
    # the rows are kept between calls while a file is unchanged; a file changed, broken or removed is seen
    import os
    from pathlib import Path

    from game.rules.scenario import SCENARIO_DIR

    text = (Path(SCENARIO_DIR) / "village_sweep.toml").read_text()
    mine = tmp_path / "my_sweep.toml"
    mine.write_text(text.replace('title = "', 'title = "First ', 1))
    e = Engine(save_dir=tmp_path / "saves", scenario_dirs=[tmp_path])

    def title():
        return {s["id"]: s for s in e.call("engine.hello", {})["scenarios"]}.get("my_sweep", {}).get("title")

    first = title()
    assert first.startswith("First ") and title() == first
    e.call("engine.hello", {})["scenarios"][0]["title"] = "scribbled on"  # an answer is the caller's own
    assert e.call("engine.hello", {})["scenarios"][0]["title"] != "scribbled on"
    mine.write_text(text.replace('title = "', 'title = "Second ', 1))
    os.utime(mine, ns=(mine.stat().st_atime_ns, mine.stat().st_mtime_ns + 10**9))
    assert title().startswith("Second ")
    mine.write_text("not [ toml")
    assert title() is None  # a broken file is not listed
    mine.unlink()
    assert title() is None


def test_new_view_actions_act(engine):
    r = new_game(engine)
    gid, view = r["game"], r["view"]
    assert view["turn"] == 1 and view["phase"] == "engagement" and view["to_act"] == "allied"
    assert len(view["hash"]) == 64
    cp_roll = [e for e in r["events"] if e["type"] == "roll"][0]
    assert cp_roll["clause"] == "DD-2.3" and cp_roll["dice"]
    acts = engine.call("game.actions", game=gid, side="allied")["actions"]
    move = next(a for a in acts if a["type"] == "move" and a["element"] == "hq" and a["mode"] == "patrol")
    assert move["cost"] == 1 and move["clause"] == "DD-2.8" and move["params"]["to"]["kind"] == "point"
    fx, fy = move["params"]["to"]["from"]
    out = engine.call("game.act", game=gid, side="allied", action=fill(move, [fx, fy + 2]))
    assert [e["type"] for e in out["events"]] == ["activate", "move"]
    assert out["view"]["to_act"] == "insurgent"
    assert all(isinstance(e["seq"], int) and e["text"] for e in out["events"])


def test_illegal_action_is_refused_with_reason_and_clause(engine):
    gid = new_game(engine)["game"]
    before = engine.call("game.view", game=gid, side="allied")["hash"]
    with pytest.raises(EngineError) as err:
        engine.call("game.act", game=gid, side="insurgent", action={"type": "pass"})
    assert err.value.code == 1 and err.value.clause == "DD-2.5"
    with pytest.raises(EngineError) as err:
        engine.call("game.act", game=gid, side="allied",
                    action={"type": "move", "mode": "patrol", "element": "vc1", "to": [1, 1]})
    assert err.value.code == 1 and "belongs to the insurgent side" in err.value.reason
    with pytest.raises(EngineError) as err:
        engine.call("game.act", game=gid, side="allied", action={"type": "fly"})
    assert err.value.code == 1
    assert engine.call("game.view", game=gid, side="allied")["hash"] == before


def test_bad_params(engine):
    with pytest.raises(EngineError) as err:
        engine.call("game.view", game="nope", side="allied")
    assert err.value.code == 4
    gid = new_game(engine)["game"]
    with pytest.raises(EngineError) as err:
        engine.call("game.view", game=gid, side="martians")
    assert err.value.code == -32602
    with pytest.raises(EngineError) as err:
        engine.call("game.view", game=gid, side="referee")      # not created with a referee
    assert err.value.code == -32602
    with pytest.raises(EngineError) as err:
        engine.call("game.new", scenario="no_such_scenario")
    assert err.value.code == 2
    with pytest.raises(EngineError) as err:
        engine.call("game.new", scenario="village_sweep", seed="seven")
    assert err.value.code == -32602


def test_a_solo_table_needs_the_jungle_ghost(engine):
    # DD-10.3: a table seeded with Shadow Blinds only has no Insurgent force a person could command.
    with pytest.raises(EngineError) as err:
        engine.call("game.new", scenario="search_and_destroy", players={"allied": "human", "insurgent": "human"})
    assert err.value.code == -32602 and "DD-10.3" in err.value.message
    assert err.value.data["field"] == "players.insurgent"
    r = engine.call("game.new", scenario="search_and_destroy", players={"allied": "human", "insurgent": "ai"})
    assert sum(1 for b in r["view"]["blinds"] if b["side"] == "insurgent") == 6


def test_inline_scenario_with_problems_reports_them(engine):
    from tests.builders import element, scenario, stand

    raw = scenario([element("a", "allied", [stand("x", "us_rifle_team", 47.8, 5)]),
                    element("b", "insurgent", [stand("y", "vc_rifle_cell", 20, 30)])])
    with pytest.raises(EngineError) as err:
        engine.call("game.new", scenario=raw)
    assert err.value.code == 2 and any("off the 48x48 table" in p for p in err.value.data["problems"])


def test_malformed_lines_through_the_subprocess(proc):
    gid = new_game(proc)["game"]
    before = proc.call("game.view", game=gid, side="allied")["hash"]
    answers = [json.loads(proc.send_raw(line)) for line in (
        "this is not json",
        "[]",
        '{"jsonrpc": "2.0", "id": 1}',
        '{"jsonrpc": "1.0", "id": 2, "method": "engine.hello"}',
        '{"jsonrpc": "2.0", "id": 3, "method": "engine.explode"}',
        '{"jsonrpc": "2.0", "id": 4, "method": "game.view", "params": [1, 2]}',
        json.dumps({"jsonrpc": "2.0", "id": 5, "method": "game.act",
                    "params": {"game": gid, "side": "allied", "action": "north"}}),
    )]
    codes = [a["error"]["code"] for a in answers]
    assert codes == [-32700, -32600, -32600, -32600, -32601, -32602, -32602]  # an action that is no object: bad params
    assert proc.alive
    assert proc.call("game.view", game=gid, side="allied")["hash"] == before


def test_invalid_utf8_does_not_stop_the_process(proc):
    proc.proc.stdin.buffer.write(b"\xff\xfe{\n") if hasattr(proc.proc.stdin, "buffer") else None
    proc.proc.stdin.flush()
    line = proc.proc.stdout.readline()
    assert json.loads(line)["error"]["code"] == -32700
    assert proc.call("engine.hello")["protocol"] == 1


def test_notifications_get_no_answer_and_batches_do():
    e = Engine()
    assert handle_line(e, '{"jsonrpc": "2.0", "method": "engine.hello"}') is None
    out = json.loads(handle_line(e, '[{"jsonrpc": "2.0", "id": 1, "method": "engine.hello"}, '
                                    '{"jsonrpc": "2.0", "id": 2, "method": "nope"}]'))
    assert out[0]["result"]["protocol"] == 1 and out[1]["error"]["code"] == -32601


def test_referee_view_only_when_created_with_one(engine):
    r = new_game(engine, referee=True)
    ref = engine.call("game.view", game=r["game"], side="referee")
    assert {s["side"] for s in ref["stands"]} == {"allied", "insurgent"}
    assert "ambush_tokens" in ref["sides"]["insurgent"]
    allied = engine.call("game.view", game=r["game"], side="allied")
    assert "ambush_tokens" not in allied["sides"]["insurgent"]
    # DESIGN §6: the Allied player never hears of the Insurgent's Ambush Token income.
    plain = new_game(engine)
    assert plain["view"]["side"] == "allied"
    assert not any(e["type"] == "tokens" for e in plain["events"])
    assert any(e["type"] == "tokens" for e in engine.call("game.events", game=r["game"], side="referee")["events"])


def test_step_lets_the_ai_act(engine):
    r = new_game(engine, players={"allied": "human", "insurgent": "ai"})
    gid = r["game"]
    engine.call("game.act", game=gid, side="allied", action={"type": "pass"})
    step = engine.call("game.step", game=gid, side="allied")
    assert step["events"] and step["to_act"] == "allied"


def test_los_check_answers_with_evidence(engine):
    # DD-4.1-4.6 over the protocol: the answer carries its evidence.
    gid = new_game(engine)["game"]
    res = engine.call("los.check", game=gid, side="allied", **{"from": "sq1_a", "to": "vc1_a"})
    assert set(res) >= {"visible", "fraction", "distance", "canopy_inches", "cutoff", "limit", "blocker", "clause"}
    assert res["visible"] is True and 12 < res["distance"] < 18 and res["cutoff"] == 24
    # Deep in the northern treeline (dense, G-02 3") nothing on the open ground can be seen.
    deep = engine.call("los.check", game=gid, side="allied", **{"from": [24, 46], "to": [24, 30]})
    assert deep["visible"] is False and deep["canopy_inches"].get("dense", 0) > 3
    with pytest.raises(EngineError) as err:
        engine.call("los.check", game=gid, side="allied", **{"from": "sq1_a", "to": [90, 90]})
    assert err.value.code == -32602       # off the table: a clear error, never a wrong answer
    with pytest.raises(EngineError) as err:
        engine.call("los.check", game=gid, side="allied", **{"from": "sq1_a", "to": "nobody"})
    assert err.value.code == -32602
