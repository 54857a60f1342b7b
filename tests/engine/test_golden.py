"""Golden protocol transcripts replayed in process and through the real subprocess (DESIGN §4, §5)."""

import json

import pytest

from game.engine.client import EngineProcess
from tests.engine.golden_script import HERE, SCRIPTS, in_process_caller, normalise, run


def recorded(name: str) -> list[dict]:
    return [json.loads(line) for line in (HERE / f"{name}.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_transcript_in_process(name):
    want = recorded(name)
    got = run(SCRIPTS[name], in_process_caller())
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g["request"] == w["request"]
        assert g["response"] == w["response"], f"response to {w['request']['method']} differs"


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_transcript_through_the_subprocess(name):
    want = recorded(name)
    with EngineProcess() as proc:
        got = run(SCRIPTS[name], lambda req: json.loads(proc.send_raw(json.dumps(req))))
    for g, w in zip(got, want, strict=True):
        assert normalise(g["response"]) == w["response"], f"response to {w['request']['method']} differs"


def test_transcripts_cover_refusals_and_unknown_methods():
    codes = [p["response"].get("error", {}).get("code") for name in SCRIPTS for p in recorded(name)]
    assert -32601 in codes
    assert all(p["response"].get("jsonrpc") == "2.0" for name in SCRIPTS for p in recorded(name))
