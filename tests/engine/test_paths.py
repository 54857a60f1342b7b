"""No protocol call reads or writes outside the engine's own folders (DESIGN §4; docs/protocol.md,
``game.save``/``game.load``, ``game.new``; ``game.engine.store``).

Saves are named slots in the save folder, never paths; scenarios come by id from the scenario folders,
never by path; no link is followed, only regular files are read (a FIFO named ``x.toml`` would
freeze the engine). A read-only file outside every folder is the witness that nothing was written there.
"""

from __future__ import annotations

import json
import os
import stat
import threading
import time
from pathlib import Path

import pytest

from game.engine.protocol import handle_line
from game.engine.session import Engine
from game.engine.store import StoreError, read_regular
from game.rules.scenario import SCENARIO_DIR

HOTSEAT = {"scenario": "village_sweep", "seed": 11, "players": {"allied": "human", "insurgent": "human"}}
SECRET = "SECRET-MARKER-7f3a"


def ask(engine: Engine, method: str, **params) -> dict:
    return json.loads(handle_line(engine, json.dumps({"jsonrpc": "2.0", "id": 1, "method": method,
                                                      "params": params})))


def code(answer: dict) -> int | None:
    return answer["error"]["code"] if "error" in answer else None


def tree(root: Path) -> dict[str, tuple]:
    """Every file under a folder with its bytes and modification time."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_symlink():
            out[str(p)] = ("link", os.readlink(p))
        elif p.is_file():
            out[str(p)] = (p.read_bytes(), p.stat().st_mtime_ns)
    return out


@pytest.fixture
def world(tmp_path):
    """The engine's folders, and outside them a read-only witness and a real scenario file."""
    saves, scenarios, outside = tmp_path / "saves", tmp_path / "scenarios", tmp_path / "outside"
    for d in (saves, scenarios, outside):
        d.mkdir()
    witness = outside / "witness.json"
    witness.write_text('{"untouched": true}')
    witness.chmod(0o444)
    secret = outside / "secret.toml"
    secret.write_text((Path(SCENARIO_DIR) / "village_sweep.toml").read_text()
                      .replace('title = "', f'title = "{SECRET} ', 1))
    engine = Engine(save_dir=saves, scenario_dirs=[scenarios])
    gid = engine.call("game.new", dict(HOTSEAT))["game"]
    return {"engine": engine, "gid": gid, "saves": saves, "scenarios": scenarios, "outside": outside,
            "witness": witness, "secret": secret, "before": tree(outside)}


def test_save_and_load_refuse_a_path(world):
    e, gid, witness = world["engine"], world["gid"], world["witness"]
    for path in (str(witness), str(world["outside"] / "new.json"), "../x.json", "save.json", ""):
        a = ask(e, "game.save", game=gid, path=path)
        assert code(a) == -32602 and a["error"]["data"] == {"field": "path"}
    # game.load says nothing of whether a file exists: the path is refused before anything is looked at.
    answers = {json.dumps(ask(e, "game.load", path=p)) for p in (
        str(witness), "/etc/passwd", "/no/such/file", str(world["outside"] / "missing.json"), "../../etc/shadow")}
    assert len(answers) == 1
    a = json.loads(answers.pop())
    assert code(a) == -32602 and a["error"]["data"] == {"field": "path"}
    assert code(ask(e, "game.load", path=str(witness), save={})) == -32602  # a path next to a document too
    assert not (world["outside"] / "new.json").exists()
    assert tree(world["outside"]) == world["before"]


BAD_SLOTS = ["..", "../x", "../../outside/witness", "a/b", "a\\b", "/etc/passwd", "/tmp/x", "", " ", "x" * 49,
             "a\x00b", "\x00", ".hidden", "-x", "_x", "x.json", "x y", "ü", "\ud800", "~", "C:", 5, 1.5, True, [], {}]


@pytest.mark.parametrize("slot", BAD_SLOTS, ids=[repr(s)[:20] for s in BAD_SLOTS])
def test_a_slot_name_is_never_a_path(world, slot):
    e, gid = world["engine"], world["gid"]
    before_saves = tree(world["saves"])
    a = ask(e, "game.save", game=gid, slot=slot)
    assert code(a) == -32602 and a["error"]["data"] == {"field": "slot"}, a
    a = ask(e, "game.load", slot=slot)
    assert code(a) == -32602 and a["error"]["data"] == {"field": "slot"}, a
    assert tree(world["saves"]) == before_saves
    assert tree(world["outside"]) == world["before"]


def test_a_good_slot_is_written_and_read_in_the_save_folder_only(world):
    e, gid = world["engine"], world["gid"]
    assert ask(e, "game.save", game=gid, slot="x" * 48)["result"]["slot"] == "x" * 48
    a = ask(e, "game.save", game=gid, slot="Game_1-a")["result"]
    assert sorted(p.name for p in world["saves"].iterdir()) == ["Game_1-a.json", "x" * 48 + ".json"]
    loaded = ask(e, "game.load", slot="Game_1-a")["result"]
    assert loaded["hash"] == a["hash"]
    assert code(ask(e, "game.load", slot="missing")) == 3
    assert tree(world["outside"]) == world["before"]


def test_a_link_in_the_save_folder_is_not_followed_on_write(world):
    e, gid, witness, saves = world["engine"], world["gid"], world["witness"], world["saves"]
    (saves / "evil.json").symlink_to(witness)
    (saves / "dir-link.json").symlink_to(world["outside"])
    a = ask(e, "game.save", game=gid, slot="evil")
    assert a["result"]["slot"] == "evil"
    link = saves / "evil.json"
    assert not link.is_symlink() and stat.S_ISREG(link.lstat().st_mode)  # the link was replaced...
    assert json.loads(link.read_text())["format"] == "dinkydau-save"
    assert witness.read_text() == '{"untouched": true}'  # ... its target untouched
    assert ask(e, "game.save", game=gid, slot="dir-link")["result"]["slot"] == "dir-link"  # a link to a folder:
    assert not (saves / "dir-link.json").is_symlink()  # replaced too, never entered
    assert tree(world["outside"]) == world["before"]
    assert not list(saves.glob(".*.tmp"))  # no temporary file left behind


def test_a_link_in_the_save_folder_is_not_followed_on_read(world):
    e, gid, saves, outside = world["engine"], world["gid"], world["saves"], world["outside"]
    doc = e.call("game.save", {"game": gid})["save"]
    real = outside / "real-save.json"
    real.write_text(json.dumps(doc))
    (saves / "linked.json").symlink_to(real)
    (saves / "dangling.json").symlink_to(outside / "nothing-there.json")
    (saves / "passwd.json").symlink_to("/etc/passwd")
    n = len(e.sessions)
    for slot in ("linked", "dangling", "passwd"):
        a = ask(e, "game.load", slot=slot)
        assert code(a) == 3 and a["error"]["data"] == {"field": "slot"}, a
        assert "root:" not in json.dumps(a)
    assert len(e.sessions) == n
    # The same save as a regular file in the folder loads: it was the link that was refused.
    (saves / "plain.json").write_text(json.dumps(doc))
    assert ask(e, "game.load", slot="plain")["result"]["hash"] == doc["hash"]


def test_a_scenario_is_named_by_id_never_by_path(world):
    e, secret = world["engine"], world["secret"]
    (world["scenarios"] / "leak.toml").symlink_to(secret)  # a link in a scenario folder: not followed
    (world["scenarios"] / "pw.toml").symlink_to("/etc/passwd")
    unknown = ask(e, "game.new", scenario="no_such_scenario")
    assert code(unknown) == 2
    shape = unknown["error"]["data"]["problems"][0].replace("no_such_scenario", "REF")
    refs = ["../x.toml", "/etc/passwd", str(secret), str(secret.with_suffix("")), "../outside/secret.toml",
            "../outside/secret", "scenarios/village_sweep.toml", str(Path(SCENARIO_DIR) / "village_sweep.toml"),
            "secret", "leak", "leak.toml", "pw", "./village_sweep", "village_sweep/", "~/x.toml", "\x00.toml", ".toml"]
    n = len(e.sessions)
    for ref in refs:
        a = ask(e, "game.new", scenario=ref, players=HOTSEAT["players"])
        assert code(a) == 2, (ref, a)
        problems = a["error"]["data"]["problems"]
        assert len(problems) == 1 and problems[0].replace(repr(ref[:60])[1:-1], "REF") == shape, (ref, problems)
        v = ask(e, "scenario.validate", scenario=ref)["result"]
        assert v["valid"] is False and v["problems"] == problems
        for text in (json.dumps(a), json.dumps(v)):  # no file's content is echoed
            assert SECRET not in text and "root:" not in text
    assert len(e.sessions) == n
    assert tree(world["outside"]) == world["before"]
    # The same file copied into a scenario folder is a scenario by id.
    (world["scenarios"] / "copied.toml").write_text(secret.read_text())
    assert ask(e, "scenario.validate", scenario="copied")["result"]["valid"] is True


def in_time(fn, seconds: float = 1.0):
    """fn's answer and how long it took, failing (not hanging) past ``seconds``; fn's exception is raised."""
    box: list = []

    def run() -> None:
        try:
            box.append(("ok", fn()))
        except Exception as exc:  # handed to the test's thread
            box.append(("raised", exc))

    t = threading.Thread(target=run, daemon=True)
    t0 = time.monotonic()
    t.start()
    t.join(seconds)
    assert box, f"no answer within {seconds} s"
    kind, value = box[0]
    if kind == "raised":
        raise value
    return value, time.monotonic() - t0


def test_a_fifo_in_a_scenario_folder_does_not_freeze_the_engine(world):
    e = world["engine"]
    fifo = world["scenarios"] / "x.toml"
    os.mkfifo(fifo)
    a, took = in_time(lambda: ask(e, "game.new", scenario="x", players=HOTSEAT["players"]))
    assert code(a) == 2 and took < 1.0
    a, _ = in_time(lambda: ask(e, "game.new", scenario="x.toml"))
    assert code(a) == 2
    v, _ = in_time(lambda: ask(e, "scenario.validate", scenario="x"))
    assert v["result"]["valid"] is False
    hello, _ = in_time(lambda: ask(e, "engine.hello"), 5.0)  # lists the folders' scenarios; x is none
    assert "x" not in {s["id"] for s in hello["result"]["scenarios"]}
    # The last guard, should a FIFO take a checked file's place: it is opened without waiting, refused.
    with pytest.raises(StoreError, match="not a regular file"):
        in_time(lambda: read_regular(fifo, "x.toml"))


def test_a_fifo_or_a_device_as_a_save_slot_does_not_freeze_the_engine(world):
    e = world["engine"]
    os.mkfifo(world["saves"] / "pipe.json")
    (world["saves"] / "null.json").symlink_to("/dev/zero")
    for slot in ("pipe", "null"):
        a, took = in_time(lambda s=slot: ask(e, "game.load", slot=s))
        assert code(a) == 3 and took < 1.0, a
