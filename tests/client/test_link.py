"""The engine link runs calls off the main thread and sorts refusals from a dead engine."""

from __future__ import annotations

import threading
import time

from game.client.link import EngineDied, EngineFault, EngineLink

from .fake_engine import FakeEngine


class SlowEngine(FakeEngine):
    def call(self, method, **params):
        time.sleep(0.3)
        return super().call(method, **params)


def wait(link, seconds=5.0):
    end = time.monotonic() + seconds
    while link.busy and time.monotonic() < end:
        link.poll()
        time.sleep(0.01)


def test_calls_do_not_block_the_caller():
    link = EngineLink(SlowEngine)
    got = []
    t0 = time.monotonic()
    link.request("engine.hello", {}, got.append)
    assert time.monotonic() - t0 < 0.1  # the window keeps drawing while the engine thinks
    assert link.busy
    wait(link)
    assert got and got[0]["name"] == "fake"
    assert threading.current_thread() is threading.main_thread()
    link.close()


def test_refusal_and_death_are_told_apart():
    engine = FakeEngine(die_after=1)
    link = EngineLink(lambda: engine)
    faults = []
    link.request("game.nonsense", {}, None, faults.append)
    link.request("engine.hello", {}, None, faults.append)
    wait(link)
    assert isinstance(faults[0], EngineFault) and faults[0].code == -32601
    assert isinstance(faults[1], EngineDied)
    link.restart()
    assert link.dead is None
    link.close()


def test_a_replaced_engine_dies_only_once():
    # A call that failed on the dead engine but is read after the restart must not report the death
    # again: the player already chose to reload, and a second "engine stopped" would hide the game.
    engines = [FakeEngine(die_after=0), FakeEngine()]
    link = EngineLink(lambda: engines.pop(0))
    faults = []
    link.request("engine.hello", {}, None, faults.append)
    wait(link)
    assert len(faults) == 1 and isinstance(faults[0], EngineDied)
    link.request("engine.hello", {}, None, faults.append)  # sent while the engine is dead
    end = time.monotonic() + 5
    while link._results.empty() and time.monotonic() < end:
        time.sleep(0.01)
    link.restart()
    got = []
    link.request("engine.hello", {}, got.append, faults.append)
    wait(link)
    assert len(faults) == 1 and got and got[0]["name"] == "fake"
    link.close()
