"""Each shipped scenario plays from turn 1 to the turn limit through the engine process alone, both
sides driven by JSON-RPC calls, with every die explained and every refusal citing its clause. A solo
table (Shadow Blinds only, DD-10.3) has no Insurgent force for a human to move: there the Jungle Ghost
plays the Insurgent side through ``game.step``."""

import math

import pytest

from game.engine.client import EngineError, EngineProcess
from game.rules.dice import Dice, seed_streams
from game.rules.scenario import load_scenario, shipped_scenarios


def check_roll(ev: dict) -> None:
    """Every die is explained (non-negotiable 3): what was rolled, against what, each modifier's clause."""
    assert ev["dice"] and all(1 <= d <= 6 for d in ev["dice"]), ev
    assert ev["clause"] and ev["text"] and ev["purpose"], ev
    assert "target" in ev and "modifiers" in ev and "result" in ev, ev
    for m in ev["modifiers"]:
        assert m["name"] and isinstance(m["value"], int) and m["clause"], ev


def fill(action: dict, rng: Dice) -> dict:
    a = {k: v for k, v in action.items() if k not in ("params", "label")}
    for name, spec in action.get("params", {}).items():
        kind = spec.get("kind")
        if spec.get("optional"):
            continue
        if kind == "point":
            fx, fy = spec.get("from", [24, 24])
            r, th = spec.get("max", 6) * rng.uniform("rules"), rng.uniform("rules") * 2 * math.pi
            a[name] = [round(fx + r * math.cos(th), 2), round(fy + r * math.sin(th), 2)]
        elif kind in ("stand", "element", "feature", "choice") and spec.get("choices"):
            a[name] = spec["choices"][rng.below(len(spec["choices"]))]
        elif kind == "angle":
            a[name] = rng.below(360)
    return a


@pytest.fixture(scope="module")
def engine():
    """One engine process for the module: each scenario's game is a session of its own in it, closed at
    its end, as a player's next game would be."""
    with EngineProcess() as e:
        yield e


@pytest.mark.parametrize("sid", sorted(shipped_scenarios()))
def test_whole_game_through_the_engine_process(sid, engine):
    rng = Dice(seed_streams(31))
    rolls = refusals = actions = 0
    solo = load_scenario(shipped_scenarios()[sid]).solo_only
    players = {"allied": "human", "insurgent": "ai" if solo else "human"}
    e = engine
    r = e.call("game.new", scenario=sid, seed=31, players=players)
    gid, view = r["game"], r["view"]
    for ev in r["events"]:
        if ev["type"] == "roll":
            check_roll(ev)
            rolls += 1

    def explained(events: list[dict]) -> int:
        """Every event has its text; every roll its target, modifiers and clause: the rolls seen."""
        n = 0
        for ev in events:
            assert ev["text"] and isinstance(ev["seq"], int)
            if ev["type"] == "roll" and ev.get("dice"):
                check_roll(ev)
                n += 1
        return n

    while not view["over"]:
        side = view["to_act"]
        if players[side] == "ai":
            out = e.call("game.step", game=gid, side="allied")
            rolls += explained(out["events"])
            view = out["view"]
            continue
        acts = e.call("game.actions", game=gid, side=side)["actions"]
        # Mostly cheap actions, some moves and fire, so the game reaches its turn limit quickly.
        choice = acts[rng.below(len(acts))]
        try:
            out = e.call("game.act", game=gid, side=side, action=fill(choice, rng))
        except EngineError as err:
            assert err.code == 1 and err.reason and err.clause, err
            refusals += 1
            if refusals > 2000:
                raise
            continue
        actions += 1
        rolls += explained(out["events"])
        view = out["view"]
    assert view["turn"] == view["turns"] or view["result"]["reason"]
    assert view["result"] is not None and "vp" in view["result"]
    e.call("game.close", game=gid)
    assert actions > 20 and rolls > 6
