"""One Brain-Cell through the engine (the ruleset seam): hot_lz played to its end by the computer on both
sides, in-process and through the engine subprocess, every die explained, saved and replayed to its hash;
each side sees only what its men's eyes reach; a chopper at 12" sees over the canopy a man on the ground
cannot see through (los.check); refusals tell nothing hidden."""

from __future__ import annotations

import copy
import tomllib

import pytest

from game.engine.session import BAD_SCENARIO, ILLEGAL_ACTION, INVALID_PARAMS, Engine, RpcError
from game.rules.scenario import SCENARIO_DIR
from game.rulesets.obc import sight
from game.rulesets.obc.scenario import build
from game.rulesets.obc.tables import tables

RAW = tomllib.loads((SCENARIO_DIR / "hot_lz.toml").read_text())
T = tables()


def short(turns: int = 3) -> dict:
    raw = copy.deepcopy(RAW)
    raw["scenario"]["turns"] = turns
    return raw


def seen_by(ref: dict, side: str, los) -> set[str]:
    """What ``side``'s men see, worked out here from the referee's view and the table's ray casts."""
    f = T.figure
    vehicles = {v["id"]: v for v in ref["vehicles"]}
    eyes = []
    for m in ref["men"]:
        if m["side"] != side or m["status"] != "ok" or not m["on_table"]:
            continue
        v = vehicles.get(m["aboard"]) if m["aboard"] else None
        if v is not None and v["status"] != "ok":
            continue
        eyes.append((v["x"], v["y"], v["height"] + f.eye_standing) if v else
                    (m["x"], m["y"], f.eye_lying if m["posture"] == "lying" else f.eye_standing))
    out = set()
    for m in ref["men"]:
        if m["side"] != side and not m["aboard"] and m["on_table"]:
            body = (m["x"], m["y"], f.body_lying if m["posture"] == "lying" else f.body_standing)
            if eyes and sight.visible(los, eyes, [body] * len(eyes)).any():
                out.add(m["id"])
    reserves = {q["id"] for q in ref["squads"] if q["reserve"]}  # off the table until called (OBC-49)
    for v in ref["vehicles"]:
        if v["side"] != side and v["status"] != "gone" and v["squad"] not in reserves:
            if eyes and sight.visible(los, eyes, [(v["x"], v["y"], v["height"] + 0.5)] * len(eyes)).any():
                out.add(v["id"])
    return out


def test_hot_lz_plays_to_its_end_and_its_save_replays():  # OBC-14, OBC-47, G-42; DESIGN §5, §6
    eng = Engine()
    hello = {r["id"]: r for r in eng.call("engine.hello")["rulesets"]}
    assert hello["obc"]["scenarios"] == ["hot_lz"]
    r = eng.call("game.new", {"scenario": short(4), "seed": 5, "referee": True, "side": "referee",
                              "players": {"allied": "ai", "insurgent": "ai"}})
    gid, steps, leaks, told = r["game"], 0, 0, 0
    los = sight.table(build(short(4), "hot_lz"))
    enemy = {side: {m["id"] for m in eng.call("game.view", {"game": gid, "side": "referee"})["men"]
                    if m["side"] != side} for side in ("allied", "insurgent")}
    seen = {"allied": set(), "insurgent": set()}
    while True:
        ref = eng.call("game.view", {"game": gid, "side": "referee"})
        fired = {e["firer"] for e in eng.call("game.events", {"game": gid, "side": "referee"})["events"]
                 if e.get("firer") and e.get("type") == "roll"}
        for side in ("allied", "insurgent"):
            view = eng.call("game.view", {"game": gid, "side": side})
            shown = {m["id"] for m in view["men"] if m["side"] != side} | \
                    {v["id"] for v in view["vehicles"] if v["side"] != side}
            now = seen_by(ref, side, los) | fired
            leaks += len(shown - now)
            seen[side] |= now
            assert all("squad" not in m for m in view["men"] if m["side"] != side)  # orders: the owner's
            assert all(q["side"] == side for q in view["squads"])
        before = {side: len(eng.call("game.events", {"game": gid, "side": side})["events"]) for side in seen}
        st = eng.call("game.step", {"game": gid, "side": "referee"})
        ref = eng.call("game.view", {"game": gid, "side": "referee"})
        for side in seen:  # every enemy a side's events name is one it saw, before the act or after it
            seen[side] |= seen_by(ref, side, los)
            for e in eng.call("game.events", {"game": gid, "side": side, "since": before[side]})["events"]:
                named = {e.get(k) for k in ("man", "target", "firer")} | set(e.get("men") or [])
                told += len((named & enemy[side]) - seen[side] - {e.get("firer")})  # a firer shows himself
        steps += 1
        if st["over"]:
            break
        assert steps < 3000
    assert leaks == 0 and told == 0
    end = eng.call("game.view", {"game": gid, "side": "referee"})
    assert end["over"] and end["result"]["reason"] and "score" in end["result"]
    events = eng.call("game.events", {"game": gid, "side": "referee"})["events"]
    rolls = [e for e in events if e["type"] == "roll"]
    assert {"to hit", "fire effect", "MG burst", "independent men", "first mover"} <= {e["purpose"] for e in rolls}
    assert all(e["clause"] and "result" in e and "modifiers" in e for e in rolls)  # every die explained
    assert all(m["clause"] for e in rolls for m in e["modifiers"])
    assert any(e["type"] == "debus" for e in events) and any(e["type"] == "vehicle_move" for e in events)
    save = eng.call("game.save", {"game": gid})["save"]
    assert save["ruleset"] == "obc"
    assert eng.call("game.load", {"save": save})["hash"] == end["hash"]  # no computer code runs on replay


def test_the_same_seed_and_actions_give_the_same_game():  # DESIGN §5
    hashes = []
    for _ in range(2):
        eng = Engine()
        gid = eng.call("game.new", {"scenario": short(2), "seed": 11, "players": {"allied": "ai", "insurgent": "ai"},
                                    "referee": True, "side": "referee"})["game"]
        while not eng.call("game.step", {"game": gid, "side": "referee"})["over"]:
            pass
        hashes.append(eng.call("game.view", {"game": gid, "side": "referee"})["hash"])
    assert hashes[0] == hashes[1]


def test_hot_lz_through_the_engine_subprocess():  # DESIGN §4: the same process the 3D client drives
    from game.engine.client import EngineProcess

    with EngineProcess() as proc:
        gid = proc.call("game.new", scenario=short(2), seed=9, referee=True, side="referee",
                        players={"allied": "human", "insurgent": "ai"})["game"]
        steps = 0
        while not proc.call("game.view", game=gid, side="referee")["over"] and steps < 400:
            if proc.call("game.view", game=gid, side="referee")["to_act"] == "allied":
                offers = proc.call("game.actions", game=gid, side="allied")["actions"]
                pick = next(o for o in offers if o["type"] in ("activate", "done"))
                proc.call("game.act", game=gid, side="allied", action={"type": pick["type"], "squad": pick.get("squad")})
            else:
                proc.call("game.step", game=gid, side="allied")
            steps += 1
        end = proc.call("game.view", game=gid, side="referee")
        assert end["over"] and end["turn"] == 2
        # nobody flew in: the Hueys hang at the table edge; the VC hold the village (G-42)
        assert end["result"]["winner"] == "insurgent"
        save = proc.call("game.save", game=gid)["save"]
        assert proc.call("game.load", save=save)["hash"] == end["hash"]


def lz_with_a_man_under_the_chopper() -> dict:
    """Huey 1 hovers at 12" over the west edge of the jungle island's row; a rifleman stands under it, and a
    VC man waits 6" past the island's far side."""
    raw = short(2)
    chalk = next(q for q in raw["squad"] if q["id"] == "chalk_1")
    chalk["vehicle"]["at"] = [0.5, 12]
    for m in chalk["men"]:
        m["at"] = [0.5, 12]
    sq = next(q for q in raw["squad"] if q["id"] == "squad_1")
    del sq["aboard"]
    for k, m in enumerate(sq["men"]):
        m["at"] = [0.5 + 0.0 * k, 12.0 + 0.6 * k]
    vc = next(q for q in raw["squad"] if q["id"] == "vc_village")
    vc["men"][0]["at"] = [14, 12]
    return raw


def test_a_chopper_at_12_inches_sees_over_the_canopy_a_man_on_the_ground_cannot():  # OBC-13, G-42; DD-4.41
    eng = Engine()
    gid = eng.call("game.new", {"scenario": lz_with_a_man_under_the_chopper(), "seed": 3,
                                "players": {"allied": "human", "insurgent": "human"}})["game"]
    air = eng.call("los.check", {"game": gid, "side": "allied", "from": "huey_1", "to": [14, 12]})
    ground = eng.call("los.check", {"game": gid, "side": "allied", "from": "s1_1", "to": [14, 12]})
    assert air["visible"] and air["eye"][2] == pytest.approx(12.6)
    assert not ground["visible"] and ground["limit"] == "dense"  # 6" of triple canopy: its 3" cutoff
    seen = {m["id"] for m in eng.call("game.view", {"game": gid, "side": "allied"})["men"]}
    assert "vv1" in seen  # the side sees him: through the door gunners' eyes at 12"
    assert eng.call("los.check", {"game": gid, "side": "allied", "from": "huey_1", "to": "vv1"})["visible"]


def test_los_check_refuses_a_hidden_man_as_a_made_up_one():  # DESIGN §6
    eng = Engine()
    gid = eng.call("game.new", {"scenario": short(2), "seed": 3, "players": {"allied": "human", "insurgent": "human"}})["game"]
    msgs = []
    for target in ("vm1", "vm9"):  # the mortar behind the village, and nobody
        with pytest.raises(RpcError) as exc:
            eng.call("los.check", {"game": gid, "side": "allied", "from": "huey_2", "to": target})
        assert exc.value.code == INVALID_PARAMS and exc.value.data["field"] == "to"
        msgs.append(exc.value.message.replace(target, "<id>"))
    assert msgs[0] == msgs[1]


def test_refusals_cite_their_clause_and_hide_nothing():  # OBC-2, OBC-15; DESIGN §6
    eng = Engine()
    gid = eng.call("game.new", {"scenario": short(2), "seed": 1, "referee": True, "side": "referee",
                                "players": {"allied": "human", "insurgent": "human"}})["game"]
    to_act = eng.call("game.view", {"game": gid, "side": "referee"})["to_act"]
    with pytest.raises(RpcError) as exc:
        eng.call("game.act", {"game": gid, "side": to_act, "action": {"type": "move", "man": "vw1", "to": [1, 1]}})
    assert exc.value.code == ILLEGAL_ACTION and exc.value.data["clause"] == "OBC-2"
    other = "insurgent" if to_act == "allied" else "allied"
    with pytest.raises(RpcError) as exc:
        eng.call("game.act", {"game": gid, "side": other, "action": {"type": "activate", "squad": "squad_1"}})
    assert "OBC-14" in exc.value.data["clause"]


def test_a_bad_obc_scenario_names_its_field():  # non-negotiable 8
    raw = short()
    raw["squad"][3]["men"][0]["weapon"] = "bazooka"
    raw["terrain"][0]["type"] = "lava"
    with pytest.raises(RpcError) as exc:
        Engine().call("game.new", {"scenario": raw})
    problems = exc.value.data["problems"]
    assert exc.value.code == BAD_SCENARIO and any("squad[3].men[0].weapon" in p for p in problems)
    assert any("terrain[0].type" in p for p in problems)


def test_an_obc_wood_whose_foliage_is_upside_down_names_its_field():  # non-negotiable 8; DD-4.1
    raw = short()
    k = next(i for i, f in enumerate(raw["terrain"]) if f["type"] in ("dense", "secondary", "bamboo", "light"))
    raw["terrain"][k]["canopy_bottom"], raw["terrain"][k]["canopy_top"] = 2.0, 1.5
    with pytest.raises(RpcError) as exc:
        Engine().call("game.new", {"scenario": raw})
    assert exc.value.code == BAD_SCENARIO
    assert [p for p in exc.value.data["problems"] if "canopy" in p] == [
        next(p for p in exc.value.data["problems"] if f"terrain[{k}].canopy_bottom" in p)]
