"""Fire support through the engine process alone (DD chapter 8), in the scenario built around it
(firebase_relief): a call, its clock, the impact and the casualties with every die explained; an air
strike on a legal heading burns the canopy and `los.check` across the burnt strip passes where it failed
before; a heading toward friendly stands is refused with its clause; a save made after the strike loads
to the same hash."""

from __future__ import annotations

import pytest

from game.engine.client import EngineError, EngineProcess
from tests.engine.test_full_game import check_roll

HOT = {"allied": "human", "insurgent": "human"}


def act(e, gid, side, action):
    return e.call("game.act", game=gid, side=side, action=action)


def pass_until(e, gid, pred, limit=40):
    """Both sides pass until an answer's events satisfy ``pred``; return those events."""
    seen = []
    for _ in range(limit):
        view = e.call("game.view", game=gid, side="allied")
        out = act(e, gid, view["to_act"], {"type": "pass"})
        seen += out["events"]
        if pred(out["events"]):
            return seen
    raise AssertionError("it never happened")


@pytest.fixture(scope="module")
def engine():
    with EngineProcess() as e:
        yield e


def test_a_mission_its_clock_and_its_impact_every_die_explained(engine):  # DD-8.6, DD-8.7, DD-8.10
    r = engine.call("game.new", scenario="firebase_relief", seed=11, players=HOT)
    gid = r["game"]
    acts = engine.call("game.actions", game=gid, side="allied")["actions"]
    call = [a for a in acts if a["type"] == "call_fire" and a["asset"] == "mortar_81"][0]
    out = act(engine, gid, "allied", {"type": "call_fire", "element": call["element"], "asset": "mortar_81",
                                      "at": [21.0, 20.0]})  # the tree line west of the road
    called = [ev for ev in out["events"] if ev["type"] == "fire_mission"][0]
    assert called["phase"] == "call" and called["turns"] == 1 and "DD-8.6" in called["clause"]
    events = pass_until(engine, gid, lambda evs: any(ev["type"] == "fire_mission" and ev.get("phase") == "impact"
                                                     for ev in evs))
    assert [ev for ev in events if ev["type"] == "clock" and ev["turns"] == 0]  # DD-8.7
    rolls = [ev for ev in events if ev["type"] == "roll"]
    for ev in rolls:
        check_roll(ev)
    assert [ev for ev in rolls if ev["purpose"] == "Scatter" and ev["clause"] == "DD-8.8"]
    assert [ev for ev in events if ev["type"] == "template"]  # the one template attack (DD-8.10)


def _axis(polygon):
    """A line along a footprint's long axis, 0.5" inside each end."""
    pts = [tuple(p) for p in polygon]
    p, q = max(((p, q) for p in pts for q in pts), key=lambda pq: (pq[0][0] - pq[1][0]) ** 2 + (pq[0][1] - pq[1][1]) ** 2)
    d = ((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5
    ux, uy = (q[0] - p[0]) / d, (q[1] - p[1]) / d
    return [round(p[0] + 0.5 * ux, 2), round(p[1] + 0.5 * uy, 2)], [round(q[0] - 0.5 * ux, 2), round(q[1] - 0.5 * uy, 2)]


def test_an_air_strike_burns_the_canopy_and_los_then_passes(engine):  # DD-8.5, G-19, G-22
    r = engine.call("game.new", scenario="firebase_relief", seed=12, players=HOT)
    gid = r["game"]
    acts = engine.call("game.actions", game=gid, side="allied")["actions"]
    call = [x for x in acts if x["type"] == "call_air" and x["asset"] == "cas_napalm"][0]
    with pytest.raises(EngineError) as exc:  # over the paddy, heading at the 1st Platoon's rifle team (G-22)
        act(engine, gid, "allied", {"type": "call_air", "element": call["element"], "asset": "cas_napalm",
                                    "at": [30.0, 12.0], "heading": 270, "smoke": "none"})
    assert exc.value.code == 1 and ("G-22" in exc.value.clause or "DD-8.5" in exc.value.clause)
    act(engine, gid, "allied", {"type": "call_air", "element": call["element"], "asset": "cas_napalm",
                                "at": [10.0, 14.0], "heading": 90, "smoke": "none"})  # into the western jungle
    events = pass_until(engine, gid, lambda evs: any(ev["type"] == "air_pass" for ev in evs))
    burnt = [ev for ev in events if ev["type"] == "terrain" and ev["kind"] == "burnt"]
    assert burnt and [ev for ev in events if ev["type"] == "air_pass"]
    for ev in events:
        if ev["type"] == "roll":
            check_roll(ev)
    pass_until(engine, gid, lambda evs: any(ev["type"] == "turn" for ev in evs))  # the fire burns out (G-38)
    view = engine.call("game.view", game=gid, side="allied")
    assert view["terrain_changes"]
    a, b = _axis(burnt[0]["polygon"])
    after = engine.call("los.check", game=gid, side="allied", **{"from": a, "to": b})
    fresh = engine.call("game.new", scenario="firebase_relief", seed=12, players=HOT)["game"]
    before = engine.call("los.check", game=fresh, side="allied", **{"from": a, "to": b})
    assert not before["visible"] and after["visible"]  # through triple canopy it failed; burnt, it passes
    save = engine.call("game.save", game=gid)["save"]
    loaded = engine.call("game.load", save=save)
    assert loaded["hash"] == save["hash"]
    # the side's view hash is of its own view (DESIGN §6): the replayed game shows the Allies the same
    assert engine.call("game.view", game=loaded["game"], side="allied")["hash"] == view["hash"]
