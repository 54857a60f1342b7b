"""Tet '68 through the engine (the ruleset seam): hue_street played to its end by the computer on both sides,
saved and replayed to its hash; each side sees only what its figures see; refusals tell nothing hidden."""

from __future__ import annotations

import copy
import tomllib

import pytest

from game.engine.session import BAD_SCENARIO, ILLEGAL_ACTION, Engine, RpcError
from game.rules.scenario import SCENARIO_DIR
from game.rulesets.tet68.exposure import Figure, exposure
from game.rulesets.tet68.scenario import build

RAW = tomllib.loads((SCENARIO_DIR / "hue_street.toml").read_text())


def short(turns: int = 3) -> dict:
    raw = copy.deepcopy(RAW)
    raw["scenario"]["turns"] = turns
    return raw


def walls():
    return build(RAW, "hue_street").town.walls


def seen_by(ref: dict, side: str) -> set[str]:
    """What ``side``'s figures see, worked out here from the referee's view and the walls (TET-16, G-41)."""
    mine = [f for f in ref["figures"] if f["side"] == side and f["alive"]]
    out = set()
    for f in ref["figures"]:
        if f["side"] == side or not f["alive"]:
            continue
        target = Figure(f["id"], f["x"], f["y"], f["pose"], f["facing"])
        if any(exposure(Figure(m["id"], m["x"], m["y"], m["pose"], m["facing"]), target, walls()).level for m in mine):
            out.add(f["id"])
    return out


def test_hue_street_plays_to_its_end_and_its_save_replays():  # TET-7, TET-8, G-41; DESIGN §5
    eng = Engine()
    hello = {r["id"]: r for r in eng.call("engine.hello")["rulesets"]}
    assert hello["tet68"]["scenarios"] == ["hue_street"]
    r = eng.call("game.new", {"scenario": short(3), "seed": 4, "referee": True, "side": "referee",
                              "players": {"allied": "ai", "insurgent": "ai"}})
    gid, steps, leaks = r["game"], 0, 0
    while True:
        ref = eng.call("game.view", {"game": gid, "side": "referee"})
        for side in ("allied", "insurgent"):  # fog: a side's view holds the enemy figures its own see, or that fired
            view = eng.call("game.view", {"game": gid, "side": side})
            shown = {f["id"] for f in view["figures"] if f["side"] != side}
            revealed = {e["firer"] for e in eng.call("game.events", {"game": gid, "side": "referee"})["events"]
                        if e.get("purpose") == "to hit" and e.get("firer")}
            leaks += len(shown - seen_by(ref, side) - revealed)
            assert all("ws" not in f for f in view["figures"] if f["side"] != side)  # statistics: the owner's
        st = eng.call("game.step", {"game": gid, "side": "referee"})
        steps += 1
        if st["over"]:
            break
        assert steps < 2000
    assert leaks == 0
    end = eng.call("game.view", {"game": gid, "side": "referee"})
    assert end["over"] and end["result"]["reason"] and end["turn"] == 3
    events = eng.call("game.events", {"game": gid, "side": "referee"})["events"]
    assert any(e["type"] == "roll" and e["purpose"] == "to hit" for e in events)  # they fought
    assert all(e["clause"] for e in events if e["type"] == "roll")  # every die explained
    save = eng.call("game.save", {"game": gid})["save"]
    assert save["ruleset"] == "tet68"
    assert eng.call("game.load", {"save": save})["hash"] == end["hash"]  # no computer code runs on replay


def test_a_hidden_figure_is_refused_as_a_made_up_one():  # DESIGN §6
    eng = Engine()
    gid = eng.call("game.new", {"scenario": short(2), "seed": 1, "referee": True, "side": "referee",
                                "players": {"allied": "human", "insurgent": "human"}})["game"]
    errors = []
    for target in ("nguyen_ba", "nguyen_bq"):  # hidden behind the pharmacy's wall, and nobody at all
        with pytest.raises(RpcError) as exc:
            eng.call("game.act", {"game": gid, "side": "allied",
                                  "action": {"type": "move", "figure": target, "to": [3, 12]}})
        errors.append((exc.value.code, exc.value.message.replace(target, "<id>")))
    assert errors[0] == errors[1] and errors[0][0] == ILLEGAL_ACTION


def test_a_bad_tet_scenario_names_its_field():
    raw = short()
    raw["figure"][0]["weapon"] = "bazooka"
    with pytest.raises(RpcError) as exc:
        Engine().call("game.new", {"scenario": raw})
    assert exc.value.code == BAD_SCENARIO and any("figure[0].weapon" in p for p in exc.value.data["problems"])


def test_hue_street_through_the_engine_subprocess():  # DESIGN §4: the same process the 3D client drives
    from game.engine.client import EngineProcess

    with EngineProcess() as proc:
        gid = proc.call("game.new", scenario="hue_street", seed=9, referee=True, side="referee",
                        players={"allied": "human", "insurgent": "ai"})["game"]
        offers = proc.call("game.actions", game=gid, side="allied")["actions"]
        steps = 0
        while not proc.call("game.view", game=gid, side="referee")["over"] and steps < 400:
            to_act = proc.call("game.view", game=gid, side="referee")["to_act"]
            if to_act == "allied":  # the Marines hold where they are; the computer plays the VC and NVA
                offers = proc.call("game.actions", game=gid, side="allied")["actions"]
                hold = next(o for o in offers if o["type"] in ("hold", "pass"))
                proc.call("game.act", game=gid, side="allied", action={"type": hold["type"], "figure": hold.get("figure")})
            else:
                proc.call("game.step", game=gid, side="allied")
            steps += 1
        end = proc.call("game.view", game=gid, side="referee")
        assert end["over"] and end["result"]["winner"] in ("insurgent", None)  # nobody came to clear a house
        save = proc.call("game.save", game=gid)["save"]
        assert proc.call("game.load", save=save)["hash"] == end["hash"]


def test_los_check_answers_the_exposure_by_ray_casts():  # TET-16, G-41; DESIGN §6
    eng = Engine()
    gid = eng.call("game.new", {"scenario": short(2), "seed": 3, "players": {"allied": "human", "insurgent": "human"}})["game"]
    los = eng.call("los.check", {"game": gid, "side": "insurgent", "from": "hoy_loc", "to": [10.2, 11.0]})
    assert los["exposure"] == 5 and los["visible"]  # a man standing in the street, seen from the window
    raw = short(2)
    next(f for f in raw["figure"] if f["id"] == "nguyen_ba")["at"] = [27.0, 17.0]  # deep in the pharmacy
    gid2 = eng.call("game.new", {"scenario": raw, "seed": 3, "players": {"allied": "human", "insurgent": "human"}})["game"]
    assert "nguyen_ba" not in {f["id"] for f in eng.call("game.view", {"game": gid2, "side": "allied"})["figures"]}
    for target in ("nguyen_ba", "nguyen_bq"):  # hidden behind the pharmacy's wall, or nobody: the same words
        with pytest.raises(RpcError) as exc:
            eng.call("los.check", {"game": gid2, "side": "allied", "from": "sgt_ames", "to": target})
        assert exc.value.data["field"] == "to" and "that the side can see" in exc.value.message
