"""The computer players and vehicles (DD chapter 7; game/ai/armour.py): the tracks run the road mounted,
a squad gets out when the enemy is close, the Jungle Ghost's RPG team takes its shot, and the shipped
armour scenario plays to its end."""

from __future__ import annotations

from game.ai import autopilot, ghost, simulate
from game.ai.facade import SideView
from game.ai.tactics import Picture, dist
from game.rules import vehicles
from game.rules.game import Game
from game.rules.scenario import resolve_scenario
from tests.rules.test_armour import make


def test_the_column_runs_the_road_mounted_toward_the_laager():  # DD-7.12; G-06
    g = Game(resolve_scenario("thunder_road"), 1)
    g.state.to_act = "allied"
    g.state.sides["allied"].cp = 6
    choice = autopilot.decide(SideView.of(g, "allied"))
    assert choice["type"] == "move" and g.state.elements[choice["element"]].kind == "vehicle"
    hull = g.state.stands[g.state.elements[choice["element"]].stands[0]]
    assert choice["to"][0] > hull.x + 5  # east, toward the laager
    assert SideView.of(g, "allied").terrain(*choice["to"])["trail"]  # on the road (G-06: road speed)
    assert vehicles.vstate(g).vehicles["acav_1"].passengers == ["sq1"]  # nobody got out: no enemy close


def test_a_squad_dismounts_with_the_enemy_close():  # DD-7.12: an enemy stand within 6"
    g = make("allied")  # the RPG team and the riflemen stand 10" north of the ACAV: move them in
    for sid, (x, y) in {"rpg_a": (10.0, 10.5), "nva_a": (14.0, 10.5), "nva_b": (16.5, 10.5)}.items():
        g.state.stands[sid].x, g.state.stands[sid].y = x, y
    pic = Picture(SideView.of(g, "allied"))
    opts = [o for o in autopilot.element_options(pic, "acav") if o[1]["type"] != "fire"]  # its guns aside
    score, best = max(opts, key=lambda o: o[0])
    assert best == {**best, "type": "dismount", "element": "acav", "passenger": "sq1"} and score >= 2.0


def test_the_ghosts_rpg_team_shoots_the_track():  # DD-7.6; the engine's odds of a penetration
    g = make("insurgent")
    f = SideView.of(g, "insurgent")
    shot = [a for a in f.actions if a["type"] == "at_fire" and a["element"] == "rpg"]
    assert shot, "the RPG team has a shot"
    choice = ghost.decide(f)
    assert choice["type"] == "at_fire" and choice["element"] == "rpg"
    # the better target: the thin-skinned ACAV (saves on a 6) before the Patton (5+), DD-7.7
    assert choice["target"] == "acav_1"
    assert dist((g.state.stands["rpg_a"].x, g.state.stands["rpg_a"].y),
                (g.state.stands["acav_1"].x, g.state.stands["acav_1"].y)) <= 24.0


def test_thunder_road_plays_to_its_end():  # DD-2.34
    for seed in (1, 2):
        r = simulate.play("thunder_road", seed)
        assert r["reason"] != "step limit" and r["turns"] >= 1
