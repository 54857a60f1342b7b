"""The AI sees only its side's view (DESIGN §6) and thinks with its own dice stream (DESIGN §5)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from game.ai import players
from game.ai.facade import SideView, facade_fields
from game.rules.game import Game
from game.rules.scenario import resolve_scenario
from game.rules.state import GameState

AI_DIR = Path(__file__).resolve().parents[2] / "game" / "ai"
DECISION_MODULES = ("ghost.py", "autopilot.py", "tactics.py", "support.py", "tunnels.py", "tunnels_allied.py")


def _game(seed=3):
    return players.new_game(resolve_scenario("village_sweep"), seed, 2, {"allied": "ai", "insurgent": "ai"})


def _walk(obj, seen=None):
    seen = seen if seen is not None else set()
    if id(obj) in seen:
        return
    seen.add(id(obj))
    yield obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _walk(k, seen)
            yield from _walk(v, seen)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _walk(v, seen)


def test_facade_holds_no_state():
    g = _game()
    f = SideView.of(g, "allied")
    assert not hasattr(f, "__dict__")  # slots only: nothing can be stashed on it
    for value in _walk(facade_fields(f)):
        assert not isinstance(value, (Game, GameState))
    assert set(SideView.__slots__) == {"side", "view", "actions", "threat", "_preview", "_check", "_terrain",
                                       "_stand", "_below", "_uniform"}


def test_allied_inputs_carry_no_hidden_insurgent_fact():
    """Shadow Blinds' state, the Doom Clock internals and hidden contents never reach the Allied AI."""
    g = _game()
    for _ in range(12):
        if g.state.over:
            break
        f = SideView.of(g, "allied")
        blob = json.dumps(facade_fields(f))
        assert '"solo"' not in blob and '"shadows"' not in blob and '"doom"' not in blob
        assert '"ambush_tokens"' not in json.dumps(f.view["sides"]["insurgent"])
        for b in f.view["blinds"]:
            if b["side"] == "insurgent":
                assert "dummy" not in b and "elements" not in b, b  # a bare marker (DD-4.7)
        hidden = [e.id for e in g.state.elements.values() if e.side == "insurgent" and e.blind is not None]
        for eid in hidden:
            assert f'"{eid}"' not in blob
        players.take_turn(g, g.state.to_act)


def test_decision_code_touches_only_the_facade():
    """The decision modules never import the rules or reach for a game or its state."""
    for name in DECISION_MODULES:
        src = (AI_DIR / name).read_text()
        tree = ast.parse(src)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                mod = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
                assert not (mod or "").startswith(("game.rules", "game.engine", "random")), (name, mod)
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("state", "dice", "rng", "stands_by_id", "_preview"), (name, node.attr)
    for path in AI_DIR.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert all(a.name != "random" for a in node.names), path.name
            if isinstance(node, ast.ImportFrom):
                assert node.module != "random", path.name


def test_thinking_never_shifts_the_rules_dice():
    g = _game()
    for side in ("allied", "insurgent"):
        before = dict(g.state.rng)
        players.choose(g, side)
        assert g.state.rng["rules"] == before["rules"]


def test_same_seed_same_game():
    a, b = _game(5), _game(5)
    for _ in range(30):
        if a.state.over:
            break
        players.take_turn(a, a.state.to_act)
        players.take_turn(b, b.state.to_act)
    assert a.hash() == b.hash()


def _containers(obj, seen=None):
    """Every dict, list and set reachable from ``obj`` (through the state's dataclasses too)."""
    seen = seen if seen is not None else {}
    stack = [obj]
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        if isinstance(o, dict):
            seen[id(o)] = o
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, (list, set)):
            seen[id(o)] = o
            stack.extend(o)
        elif isinstance(o, tuple):
            stack.extend(o)
        elif hasattr(o, "__dataclass_fields__"):
            seen[id(o)] = o
            stack.extend(vars(o).values())
    return seen


def _scribble(f: SideView) -> None:
    """Change everything the AI was handed, in place."""
    for value in list(_containers(facade_fields(f)).values()):
        if isinstance(value, dict):
            value.clear()
            value["scribbled"] = [1]
        elif isinstance(value, list):
            value[:] = ["scribbled"]
        elif isinstance(value, set):
            value.clear()


def test_inputs_share_nothing_with_the_game():
    """What the AI receives is its own: no dict, list or set of it is also the state's or the engine's."""
    for scenario in ("village_sweep", "search_and_destroy"):
        g = players.new_game(resolve_scenario(scenario), 4, 2, {"allied": "ai", "insurgent": "ai"})
        for _ in range(60):
            if g.state.over:
                break
            for side in ("allied", "insurgent"):
                f = SideView.of(g, side)
                engine = _containers(g.state)
                engine.update(_containers(g._listed))
                engine.update(_containers(g._table))
                engine.update(_containers(g.measured))
                shared = set(_containers(facade_fields(f))) & set(engine)
                assert not shared, [engine[i] for i in shared][:3]
            players.take_turn(g, g.state.to_act)


def test_changing_the_inputs_changes_nothing_in_the_game():
    """An AI that scribbles over its view and its actions leaves the game as it was: the same state,
    views and listings, and the same game from there on as a twin that was never scribbled on."""
    a, b = _game(7), _game(7)
    for _ in range(80):
        if a.state.over:
            break
        for side in ("allied", "insurgent"):
            before = (a.hash(), json.dumps(a.view(side)), json.dumps(a.legal_actions(side)))
            _scribble(SideView.of(a, side))
            assert (a.hash(), json.dumps(a.view(side)), json.dumps(a.legal_actions(side))) == before
        assert players.take_turn(a, a.state.to_act)[0] == players.take_turn(b, b.state.to_act)[0]
        assert a.hash() == b.hash()
    assert a.state.over == b.state.over
    assert json.dumps(a.view("referee")) == json.dumps(b.view("referee"))


def test_the_ais_check_of_a_side_action_is_the_engines():
    # DESIGN §6: the AI asks the engine's own checks (a Blind's move, hold, a reserve sprung, a litter
    # dropped: game.rules.blinds, game.rules.casevac), so check() refuses exactly what act() refuses.
    import math

    from game.rules.dice import Dice, seed_streams
    from game.rules.errors import IllegalAction
    from game.rules.game import SIDE_ACTIONS

    rng = Dice(seed_streams(5))
    g = players.new_game(resolve_scenario("rubber_plantation"), 5, 2, {"allied": "ai", "insurgent": "ai"})
    compared = refused = 0
    while not g.state.over and g.state.turn <= 3:
        side = g.state.to_act
        f = SideView.of(g, side)
        for offer in f.actions:
            if offer["type"] not in SIDE_ACTIONS:
                continue
            action = {k: v for k, v in offer.items() if k not in ("params", "label")}
            for name, p in offer.get("params", {}).items():
                if p.get("kind") == "point":  # up to half as far again as allowed: some are refused
                    r, th = 1.5 * p["max"] * rng.uniform("ai"), 2 * math.pi * rng.uniform("ai")
                    action[name] = [p["from"][0] + r * math.cos(th), p["from"][1] + r * math.sin(th)]
                elif p.get("choices"):
                    action[name] = p["choices"][rng.below(len(p["choices"]))]
            twin = Game.restore(g.scenario, g.snapshot(), g.book)
            try:
                twin.act(side, action)
                accepted = True
            except IllegalAction:
                accepted = False
            assert (f.check(action) is None) == accepted, action
            compared += 1
            refused += not accepted
        players.take_turn(g, side)
    assert compared > 30 and refused > 3


def test_the_ais_check_knows_a_pinned_element_cannot_sprint_under_its_blind():
    # G-32: a Blind holding a Pinned element may not Sprint; the AI's check says so, as act does.
    g = players.new_game(resolve_scenario("rubber_plantation"), 5, 2, {"allied": "ai", "insurgent": "ai"})
    b = g.state.blinds["A2"]  # 1st Squad's Blind
    g.state.elements["sq1"].pinned = True
    action = {"type": "blind_move", "blind": "A2", "mode": "sprint", "to": [b.x + 2.0, b.y]}
    reason = SideView.of(g, "allied").check(action)
    assert reason is not None and "Pinned" in reason
