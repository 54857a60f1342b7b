"""Determinism and saves (DESIGN §5): same scenario, seed and actions give the same events and hash;
saves replay and check the hash; serialize -> deserialize -> continue equals continuing."""

import json
import math

import pytest

from game.ai.players import new_game, take_turn
from game.engine import saves
from game.engine.client import EngineError, InProcessEngine
from game.engine.session import Engine
from game.rules.dice import Dice, seed_streams
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import resolve_scenario


def random_playout(sid: str, seed: int, steps: int = 400, game: Game | None = None, driver_seed: int = 0):
    """A driver picking random legal actions, filling free params at random."""
    g = game or Game(resolve_scenario(sid), seed)
    rng = Dice(seed_streams(driver_seed or seed + 1000))
    log = []
    for _ in range(steps):
        if g.state.over:
            break
        side = g.state.to_act
        acts = g.legal_actions(side)
        a = {k: v for k, v in acts[rng.below(len(acts))].items() if k not in ("params", "label")}
        if a["type"] == "move":
            spec = next(x for x in acts if x.get("element") == a["element"] and x["type"] == "move")["params"]["to"]
            r, th = spec["max"] * rng.uniform("rules"), rng.uniform("rules") * 2 * math.pi
            a["to"] = [spec["from"][0] + r * math.cos(th), spec["from"][1] + r * math.sin(th)]
        try:
            g.act(side, a)
            log.append({"side": side, "action": a})
        except IllegalAction:
            pass
    return g, log


@pytest.mark.parametrize("sid", ["village_sweep", "rubber_plantation"])
def test_same_seed_same_events_and_hash(sid):
    g1, log1 = random_playout(sid, 5)
    g2, log2 = random_playout(sid, 5)
    assert log1 == log2 and g1.hash() == g2.hash()
    assert g1.events == g2.events
    g3, _ = random_playout(sid, 6)
    assert g3.hash() != g1.hash()


def test_serialize_deserialize_continue_equals_continue():
    sc = resolve_scenario("village_sweep")
    g, _ = random_playout("village_sweep", 9, steps=30)
    snap = json.loads(json.dumps(g.snapshot()))
    restored = Game.restore(sc, snap)
    assert restored.hash() == g.hash()
    a, _ = random_playout("village_sweep", 9, steps=60, game=g, driver_seed=77)
    b, _ = random_playout("village_sweep", 9, steps=60, game=restored, driver_seed=77)
    assert a.hash() == b.hash()
    assert a.events[-5:] == b.events[-5:]


def test_playout_reaches_the_turn_limit_on_every_shipped_scenario():
    for sid in ("village_sweep", "rubber_plantation"):
        g, _ = random_playout(sid, 3, steps=5000)
        assert g.state.over and g.state.turn == g.state.turns


def test_save_round_trip_through_the_protocol(tmp_path):
    e = InProcessEngine(Engine(save_dir=tmp_path / "s"))
    gid = e.call("game.new", scenario="rubber_plantation", seed=4,
                 players={"allied": "human", "insurgent": "ai"})["game"]
    for _ in range(6):
        acts = e.call("game.actions", game=gid, side="allied")["actions"]
        hold = next((a for a in acts if a["type"] == "hold"), acts[-1])
        e.call("game.act", game=gid, side="allied", action={k: v for k, v in hold.items() if k != "params"})
        while e.call("game.step", game=gid)["ai_to_act"]:
            pass
    path = tmp_path / "s" / "game.json"
    saved = e.call("game.save", game=gid, slot="game")
    loaded = e.call("game.load", slot="game")
    assert loaded["hash"] == saved["hash"] and path.is_file()
    assert not list(path.parent.glob(".*.tmp"))   # written atomically, nothing left behind


def test_edited_or_truncated_saves_are_refused_and_do_not_harm_games(tmp_path):
    e = InProcessEngine(Engine(save_dir=tmp_path))
    gid = e.call("game.new", scenario="village_sweep", seed=2,
                 players={"allied": "human", "insurgent": "human"})["game"]
    e.call("game.act", game=gid, side="allied", action={"type": "hold", "element": "sq1"})
    e.call("game.act", game=gid, side="insurgent", action={"type": "hold", "element": "vc1"})
    doc = e.call("game.save", game=gid)["save"]
    before = e.call("game.view", game=gid, side="allied")["hash"]

    edited = json.loads(json.dumps(doc))
    edited["actions"][1]["action"]["element"] = "vc2"
    with pytest.raises(EngineError) as err:
        e.call("game.load", save=edited)
    assert err.value.code == 3 and "hash mismatch" in err.value.message

    bad_seed = json.loads(json.dumps(doc))
    bad_seed["seed"] = 3
    with pytest.raises(EngineError) as err:
        e.call("game.load", save=bad_seed)
    assert "hash mismatch" in err.value.message

    truncated = tmp_path / "t.json"
    truncated.write_text(json.dumps(doc)[:300])
    with pytest.raises(EngineError) as err:
        e.call("game.load", slot="t")
    assert err.value.code == 3 and "not a valid save file" in err.value.message

    wrong = json.loads(json.dumps(doc))
    wrong["version"] = 99
    with pytest.raises(EngineError) as err:
        e.call("game.load", save=wrong)
    assert "version" in err.value.message
    assert e.call("game.view", game=gid, side="allied")["hash"] == before


def _ai_game(n: int = 80):
    players = {"allied": "ai", "insurgent": "ai"}
    g = new_game(resolve_scenario("village_sweep"), 8, 2, players)   # the Jungle Ghost plays the Insurgent
    log = []
    while not g.state.over and len(log) < n:
        side = g.state.to_act
        turn = take_turn(g, side)
        log.append(saves.log_entry(side, turn.action, True, None, turn.ai_stream))
    return g, saves.make_save(g, log, [], players, False)


def test_ai_moves_replay_without_running_the_ai(monkeypatch):
    # DESIGN §5: saves replay without running AI code, so a save outlives any change to the AI.
    g, doc = _ai_game()
    from game.ai import autopilot, ghost, players

    def no_ai(*_a, **_k):
        raise AssertionError("replay ran AI code")

    for mod, name in ((autopilot, "decide"), (ghost, "decide"), (players, "choose"), (players, "take_turn")):
        monkeypatch.setattr(mod, name, no_ai)
    replayed, _, _ = saves.replay(json.loads(json.dumps(doc)))
    assert replayed.hash() == g.hash()


def test_a_save_from_before_an_ai_change_loads_after_it(monkeypatch):
    g, doc = _ai_game(40)
    from game.ai import autopilot, ghost

    monkeypatch.setattr(autopilot, "decide", lambda f: {"type": "pass"})  # a very different AI
    monkeypatch.setattr(ghost, "decide", lambda f: {"type": "pass"})
    e = InProcessEngine()
    loaded = e.call("game.load", save=json.loads(json.dumps(doc)))
    assert loaded["hash"] == g.hash()


def test_an_ai_move_with_a_changed_stream_or_an_old_version_is_refused():
    _, doc = _ai_game(12)
    ai = next(i for i, a in enumerate(doc["actions"]) if a.get("by") == "ai")
    edited = json.loads(json.dumps(doc))
    edited["actions"][ai]["ai_stream"] = "many"
    with pytest.raises(saves.SaveError, match=rf"actions\[{ai}\]\.ai_stream"):
        saves.replay(edited)
    old = json.loads(json.dumps(doc))
    old["version"] = 1
    with pytest.raises(saves.SaveError, match="version 1 save replayed the computer's moves"):
        saves.replay(old)


def test_a_failing_write_keeps_the_old_save(tmp_path, monkeypatch):
    path = tmp_path / "keep.json"
    saves.write_save(path, {"x": 1})

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(saves.json, "dump", boom)
    with pytest.raises(OSError):
        saves.write_save(path, {"x": 2})
    assert json.loads(path.read_text()) == {"x": 1}
    assert not list(tmp_path.glob(".*.tmp"))
