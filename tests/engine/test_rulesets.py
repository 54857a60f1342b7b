"""The ruleset seam below the protocol (game/rulesets; issue 19 part 1): the engine hosts a second rule
system beside Dinky Dau and knows neither. A small test ruleset (a duel of two sides that roll a d100
each until one scores three hits) is registered, then played through the engine's own methods: listed by
``engine.hello``, made by ``game.new`` from a scenario that names it, acted, stepped by its computer
player, saved and replayed to its hash; what it does not offer (odds, line of sight, co-op) is refused
in the protocol's words. Dinky Dau stays behind the same seam (every other engine test, the goldens
among them)."""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import asdict, dataclass, field

import pytest

from game import rulesets
from game.dice import Dice, seed_streams
from game.engine.session import (
    BAD_SAVE,
    BAD_SCENARIO,
    ILLEGAL_ACTION,
    INVALID_PARAMS,
    NOT_AVAILABLE,
    Engine,
    RpcError,
)
from game.rules.errors import IllegalAction
from game.rulesets.base import ParamError, Problem, Ruleset, ScenarioError

SCENARIO = {"scenario": {"ruleset": "duel", "id": "duel_at_dawn", "title": "A duel at dawn", "hits": 3}}


@dataclass
class DuelScenario:
    id: str
    title: str
    hits: int
    raw: dict


@dataclass
class DuelState:
    seed: int
    turn: int = 1
    to_act: str | None = "red"
    over: bool = False
    hits: dict = field(default_factory=lambda: {"red": 0, "blue": 0})
    streams: dict = field(default_factory=dict)


class DuelGame:
    """The whole game object the engine needs (game.rulesets.base)."""

    def __init__(self, scenario: DuelScenario, seed: int):
        self.scenario = scenario
        self.state = DuelState(seed, streams=seed_streams(seed))
        self.events: list[dict] = []
        self.dice = Dice(self.state.streams)  # the engine's seeded streams, in the state: no DD convention

    def hash(self) -> str:
        return hashlib.sha256(json.dumps(self.snapshot(), sort_keys=True).encode()).hexdigest()

    def snapshot(self) -> dict:
        return asdict(self.state)

    def view(self, side: str) -> dict:
        return {"side": side, "turn": self.state.turn, "to_act": self.state.to_act, "over": self.state.over,
                "hash": self.hash(), "hits": dict(self.state.hits), "scenario": {"id": self.scenario.id},
                "seq": len(self.events_for(side, self.events))}

    def legal_actions(self, side: str) -> list[dict]:
        return [{"type": "shoot"}] if side == self.state.to_act and not self.state.over else []

    def act(self, side: str, action: dict) -> list[dict]:
        if self.state.over or side != self.state.to_act:
            raise IllegalAction(f"it is not the {side} side's turn", "DUEL-1")
        if action.get("type") != "shoot":
            raise IllegalAction(f"no action {action.get('type')!r} in a duel (shoot)", "DUEL-2")
        roll = self.dice.die(100)  # d100, no Dinky Dau convention (no natural 6)
        hit = roll <= 40
        ev = {"seq": len(self.events) + 1, "type": "roll", "side": side, "dice": "d100", "target": 40,
              "modifiers": [], "result": roll, "hit": hit, "clause": "DUEL-3", "text": f"{side} rolls {roll}"}
        self.events.append(ev)
        if hit:
            self.state.hits[side] += 1
        self.state.over = self.state.hits[side] >= self.scenario.hits
        self.state.to_act = None if self.state.over else ("blue" if side == "red" else "red")
        self.state.turn += side == "blue"
        return [ev]

    def events_for(self, reader: str, events: list[dict], since: int = 0) -> list[dict]:
        return [copy.deepcopy(e) for e in events if e["seq"] > since]


class Duel(Ruleset):
    id = "duel"
    title = "Duel"
    sides = ("red", "blue")
    default_players = {"red": "human", "blue": "ai"}

    def build_scenario(self, raw: dict, where: str, text: str | None = None) -> DuelScenario:
        head = raw["scenario"]
        if not isinstance(head.get("hits"), int) or head["hits"] < 1:
            raise ScenarioError([Problem(where, "scenario.hits", "a whole number of hits, 1 or more")])
        return DuelScenario(head["id"], head["title"], head["hits"], raw)

    def owns(self, scenario) -> bool:
        return isinstance(scenario, DuelScenario)

    def describe(self, sc) -> dict:
        return {"id": sc.id, "title": sc.title, "briefing": "", "source": "", "table": {}, "turns": None}

    def new_game(self, scenario, seed, options, players):
        return DuelGame(scenario, seed)

    def ai_step(self, game, side):
        return {"type": "shoot"}, game.act(side, {"type": "shoot"}), 0

    def ai_replay(self, game, side, action, stream):
        if side != game.state.to_act:
            raise ParamError("action", f"the {side} side does not have the move on replay")
        game.act(side, action)


@pytest.fixture
def engine():
    rs = rulesets.register(Duel())
    try:
        yield Engine()
    finally:
        rulesets.unregister(rs.id)


def refused(engine, method, **params) -> RpcError:
    with pytest.raises(RpcError) as exc:
        engine.call(method, params)
    return exc.value


def test_hello_lists_every_ruleset_with_its_sides():
    eng = Engine()
    rulesets.register(Duel())
    try:
        got = {r["id"]: r for r in eng.call("engine.hello")["rulesets"]}
    finally:
        rulesets.unregister("duel")
    assert got["duel"]["sides"] == ["red", "blue"] and got["duel"]["scenarios"] == []  # inline only
    assert got["dinky_dau"]["sides"] == ["allied", "insurgent"] and "village_sweep" in got["dinky_dau"]["scenarios"]


def test_a_second_ruleset_plays_saves_and_replays_through_the_engine(engine):
    new = engine.call("game.new", {"scenario": SCENARIO, "seed": 11, "referee": True})
    gid = new["game"]
    assert new["view"]["hits"] == {"red": 0, "blue": 0} and new["view"]["side"] == "referee"
    assert engine.call("game.actions", {"game": gid, "side": "red"})["actions"][0]["preview"] is False
    while True:
        view = engine.call("game.view", {"game": gid, "side": "red"})
        if view["over"]:
            break
        if view["to_act"] == "red":
            res = engine.call("game.act", {"game": gid, "side": "red", "action": {"type": "shoot"}})
            assert res["events"][0]["dice"] == "d100" and res["events"][0]["clause"] == "DUEL-3"
        else:
            assert engine.call("game.step", {"game": gid, "side": "red"})["events"]
    assert max(view["hits"].values()) == 3
    save = engine.call("game.save", {"game": gid})["save"]
    assert save["ruleset"] == "duel" and "threat" not in save
    loaded = engine.call("game.load", {"save": save})
    assert loaded["hash"] == view["hash"]  # the replay (the computer's moves as logged) gives the same state


def test_the_ruleset_decides_the_sides_and_refuses_what_it_does_not_offer(engine):
    gid = engine.call("game.new", {"scenario": SCENARIO, "seed": 1})["game"]
    exc = refused(engine, "game.view", game=gid, side="allied")
    assert exc.code == INVALID_PARAMS and "sides: red, blue" in exc.message
    exc = refused(engine, "game.act", game=gid, side="red", action={"type": "assault"})
    assert exc.code == ILLEGAL_ACTION and exc.data["clause"] == "DUEL-2"
    assert refused(engine, "game.preview", game=gid, side="red", action={"type": "shoot"}).code == NOT_AVAILABLE
    assert refused(engine, "los.check", game=gid, side="red", **{"from": [1, 1], "to": [2, 2]}).code == NOT_AVAILABLE
    exc = refused(engine, "game.new", scenario=SCENARIO, players={"red": {"seats": ["A", "B"]}})
    assert exc.code == INVALID_PARAMS and exc.data["field"] == "players.red.seats"
    exc = refused(engine, "game.new", scenario=SCENARIO, players={"allied": "human"})
    assert exc.code == INVALID_PARAMS and "sides are red/blue" in exc.message


def test_a_scenario_or_a_save_naming_an_unknown_ruleset_is_refused_by_name(engine):
    exc = refused(engine, "game.new", scenario={"scenario": {**SCENARIO["scenario"], "ruleset": "chess"}})
    assert exc.code == BAD_SCENARIO and any("scenario.ruleset" in p and "'chess'" in p for p in exc.data["problems"])
    exc = refused(engine, "game.new", scenario={"scenario": {**SCENARIO["scenario"], "hits": 0}})
    assert exc.code == BAD_SCENARIO and "scenario.hits" in exc.data["problems"][0]
    gid = engine.call("game.new", {"scenario": SCENARIO, "seed": 2})["game"]
    save = engine.call("game.save", {"game": gid})["save"]
    exc = refused(engine, "game.load", save={**save, "ruleset": "chess"})
    assert exc.code == BAD_SAVE and "field 'ruleset'" in exc.message
    exc = refused(engine, "game.load", save={**save, "ruleset": "dinky_dau"})
    assert exc.code == BAD_SAVE and "a duel scenario" in exc.message
    # a Dinky Dau scenario read by Dinky Dau only: it names no ruleset, or its own
    assert engine.call("scenario.validate", {"scenario": "village_sweep"})["valid"]


def test_the_dice_streams_roll_any_die_for_any_ruleset():
    """d3, d6 and d100 from the same seeded streams (game.dice), each face reached, nothing else; a forced
    roll is taken by a die that has that face (tests), and the same seed rolls the same."""
    d = Dice(seed_streams(5))
    for faces in (3, 6, 100):
        got = {d.die(faces) for _ in range(3000)}
        assert got == set(range(1, faces + 1)), faces
    d.force([87], faces=100)
    assert d.d6() in range(1, 7) and d.die(100) == 87  # a d6 leaves a forced 87 to the d100
    with pytest.raises(ValueError):
        d.force([7])
    a, b = Dice(seed_streams(9)), Dice(seed_streams(9))
    assert [a.die(100) for _ in range(20)] == [b.die(100) for _ in range(20)]
