"""Golden protocol transcripts (STYLE: golden transcripts replayed line by line).

A transcript is a JSON-lines file of request/response pairs recorded from a fresh engine. The test
replays every request, in process and through the real subprocess, and checks that every response
is exactly the recorded one (apart from the machine-dependent path of the baked table).

Regenerate after a deliberate rules change:

    python -m tests.engine.golden_script
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "golden"

# Each script is a list of (method, params) with "$game" standing for the game id of the last game.new.
SCRIPTS: dict[str, list[tuple[str, dict]]] = {
    "village_sweep_hotseat": [
        ("game.new", {"scenario": "village_sweep", "seed": 5, "players": {"allied": "human", "insurgent": "human"}}),
        ("game.actions", {"game": "$game", "side": "allied"}),
        ("game.act", {"game": "$game", "side": "allied",
                      "action": {"type": "move", "mode": "patrol", "element": "sq1", "to": [16.3, 12.5]}}),
        ("game.act", {"game": "$game", "side": "allied", "action": {"type": "pass"}}),
        ("game.act", {"game": "$game", "side": "insurgent", "action": {"type": "hold", "element": "vc_snp"}}),
        ("game.act", {"game": "$game", "side": "allied",
                      "action": {"type": "move", "mode": "sprint", "element": "sq2", "to": [32, 30]}}),
        ("game.act", {"game": "$game", "side": "allied", "action": {"type": "fire", "element": "wpn", "target": "vc1_a"}}),
        ("game.view", {"game": "$game", "side": "insurgent"}),
        ("game.act", {"game": "$game", "side": "insurgent", "action": {"type": "fire", "element": "vc_mg",
                                                                         "target": "sq1_a"}}),
        ("game.view", {"game": "$game", "side": "allied"}),
    ],
    "rubber_plantation_solo": [
        ("game.new", {"scenario": "rubber_plantation", "seed": 2, "players": {"allied": "human", "insurgent": "ai"}}),
        ("game.act", {"game": "$game", "side": "allied", "action": {"type": "pass"}}),
        ("game.step", {"game": "$game", "side": "allied"}),
        ("game.step", {"game": "$game", "side": "allied"}),
        ("game.save", {"game": "$game"}),
        ("nonsense.method", {}),
        ("game.view", {"game": "$game", "side": "referee"}),
    ],
}


def normalise(obj):
    """Drop what legitimately differs between machines and runs: the baked table's cache path, and the
    secret tokens a new or loaded game hands out (their shape stays: which sides and seats got one)."""
    if isinstance(obj, dict):
        result = obj.get("result")
        if isinstance(result, dict) and isinstance(result.get("tokens"), dict) and "game" in result:
            obj = {**obj, "result": {**result, "tokens": _tokens(result["tokens"])}}
        return {k: normalise(v) for k, v in obj.items() if k != "glb"}
    if isinstance(obj, list):
        return [normalise(v) for v in obj]
    return obj


def _tokens(obj):
    if isinstance(obj, dict):
        return {k: _tokens(v) for k, v in obj.items()}
    return "<token>"


def run(script: list[tuple[str, dict]], call) -> list[dict]:
    """Run a script through ``call(method, params) -> response object``; return request/response pairs."""
    game = None
    out = []
    for i, (method, params) in enumerate(script):
        params = json.loads(json.dumps(params).replace('"$game"', json.dumps(game)))
        req = {"jsonrpc": "2.0", "id": i + 1, "method": method, "params": params}
        resp = call(req)
        if method == "game.new" and "result" in resp:
            game = resp["result"]["game"]
        out.append({"request": req, "response": normalise(resp)})
    return out


def in_process_caller():
    from game.engine.protocol import handle_line
    from game.engine.session import Engine

    engine = Engine()
    return lambda req: json.loads(handle_line(engine, json.dumps(req)))


def record() -> None:
    HERE.mkdir(exist_ok=True)
    for name, script in SCRIPTS.items():
        pairs = run(script, in_process_caller())
        (HERE / f"{name}.jsonl").write_text("".join(json.dumps(p, sort_keys=True) + "\n" for p in pairs))
        print(f"wrote {name}.jsonl ({len(pairs)} exchanges)")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    record()
