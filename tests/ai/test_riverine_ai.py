"""The boats' computer player (game/ai/riverine.py; DD chapter 9A §2, DD-9A.6–9A.14, G-14, G-36) and the
riverine scenario canal_assault.

The small table is tests/fixtures/scenarios/river_canal.toml (a 4" canal, y 10–14, nipa palm on the north
bank, a Tango with 1st Squad aboard, a PBR), with an Allied objective on the north bank added and the VC
moved out of the way, so the Tango's run to the landing is the thing tested.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from shapely.geometry import Point

from game.ai import autopilot, players, riverine, simulate
from game.ai.facade import SideView
from game.ai.tactics import Picture
from game.rules import vehicles
from game.rules.game import Game
from game.rules.scenario import build_scenario, resolve_scenario

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "scenarios" / "river_canal.toml"


def landing_game(seed: int = 1) -> Game:
    """The canal fixture with a village objective on the north bank at x 20–28 and nothing in the way:
    the VC rifle cell sits far off in the palms, the sampan, the bunker's RPG team and the mine are gone."""
    raw = tomllib.loads(FIXTURE.read_text(encoding="utf-8"))
    raw["element"] = [e for e in raw["element"] if e["id"] not in ("sampan", "rpg")]
    raw["element"][-1]["stand"][0]["at"] = [34, 22]
    raw.pop("river_mine")
    raw["objective"] = [{"id": "village", "name": "Village", "side": "allied", "kind": "hold", "vp": 3,
                         "polygon": [[20, 15], [28, 15], [28, 21], [20, 21]]}]
    return Game(build_scenario(raw), seed)


def play_allied(g: Game, until, steps: int = 80) -> list[dict]:
    """Let the autopilot play the Allies (the Insurgent passes) until ``until(events)`` or the step limit."""
    seen: list[dict] = []
    for _ in range(steps):
        if g.state.over or until(seen):
            break
        side = g.state.to_act
        action = autopilot.decide(SideView.of(g, side)) if side == "allied" else {"type": "pass"}
        seen += g.act(side, action)
    return seen


def test_the_tango_runs_to_the_landing_beaches_and_drops_its_ramp():
    # DD-9A.9: the Tango carries its squad up the canal to the bank beside the objective, drops its ramp
    # there and the squad debarks onto the bank (DD-9A.10: with its Mud roll).
    g = landing_game()
    evs = play_allied(g, lambda seen: any(e["type"] == "ramp" for e in seen))
    ramps = [e for e in evs if e["type"] == "ramp"]
    assert ramps and ramps[0]["vehicle"] == "tango_1" and ramps[0]["down"]
    tango = g.state.stands["tango_1"]
    assert 17.0 <= tango.x <= 31.0  # beside the village (x 20-28), not where it started (x 6)
    assert riverine.water(Picture(SideView.of(g, "allied"))).covers(Point(tango.x, tango.y))
    assert any(e["type"] == "dismount" and e.get("element") == "sq1" for e in evs)
    assert vehicles.vstate(g).vehicles["tango_1"].passengers == []
    squad = [g.state.stands[s] for s in g.state.elements["sq1"].stands]
    assert all(s.y >= 14.0 for s in squad)  # ashore on the north bank (the canal is y 10-14)


def craft_moves(g: Game) -> list[dict]:
    f = SideView.of(g, "allied")
    pic = Picture(f)
    out = []
    for eid in sorted(riverine.craft(pic)):
        if pic.by_element.get(eid):
            out += [a for _, a in riverine.craft_options(pic, eid, 0.0) if a["type"] in ("move", "fire_maneuver")]
    return out


def test_a_craft_only_ever_offers_moves_that_stay_on_the_water():
    # G-14, DD-9A.6: a craft's centre stays on the water; every move the boats' AI proposes is one the
    # engine accepts, and ends on the water, over the first turns of the riverine scenario.
    g = players.new_game(resolve_scenario("canal_assault"), 3, 2, {"allied": "ai", "insurgent": "ai"})
    water = riverine.water(Picture(SideView.of(g, "allied")))
    checked = 0
    while not g.state.over and g.state.turn <= 3:
        if g.state.to_act == "allied":
            f = SideView.of(g, "allied")
            for a in craft_moves(g):
                assert f.check(a) is None, a
                assert water.covers(Point(*a["to"])), a
                checked += 1
        players.take_turn(g, g.state.to_act)
    assert checked >= 4


def test_a_spider_bunker_is_a_waterline_bunker_and_a_hootch_is_not():
    # DD-9A.13: the Ghost's teams in a spider bunker at the waterline hold it (game.ai.ghost asks); the
    # hamlet's Blind is not in one, and a table without water has none (its Ghost plays as before).
    g = players.new_game(resolve_scenario("canal_assault"), 1, 2, {"allied": "ai", "insurgent": "ai"})
    pic = Picture(SideView.of(g, "insurgent"))
    assert riverine.waterline_bunker(pic, (30.0, 24.7)) and riverine.waterline_bunker(pic, (36.0, 17.7))
    assert not riverine.waterline_bunker(pic, (37.0, 31.0))
    dry = players.new_game(resolve_scenario("search_and_destroy"), 1, 2, {"allied": "ai", "insurgent": "ai"})
    assert not riverine.waterline_bunker(Picture(SideView.of(dry, "insurgent")), (22.5, 34.5))


def test_the_riverine_scenario_plays_to_the_end():
    # DD-2.34: the game ends at the turn limit (or sooner), with a G-30 result, for two seeds.
    for seed in (1, 2):
        r = simulate.play("canal_assault", seed, 2)
        assert r["reason"] != "step limit"
        assert 1 <= r["turns"] <= 7
        assert r["winner"] in ("allied", "insurgent", None)
