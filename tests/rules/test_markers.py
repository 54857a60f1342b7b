"""The required markers and tokens (DD-1.17; G-15; game/data/markers.toml, game.rules.markers): each G-15
marker the built chapters use reaches the view where the table says, and only the side that may know it
sees it. The rules that place each marker have their own tests; these check that the view shows them."""

from __future__ import annotations

import dataclasses
import shutil

import pytest

from game.rules import casevac, template
from game.rules.data import DATA_DIR, DataError
from game.rules.fire_support.missions import Light, fs_state
from game.rules.markers import GROUPS, load_markers, markers, shown
from game.rules.state import Token
from game.rules.terrain_changes import change_terrain, crater
from tests.builders import element, enemy, game, platoon, scenario, stand
from tests.rules import test_air, test_blinds, test_casevac, test_template


def assert_shown(view: dict, *ids: str) -> None:
    for mid in ids:
        assert shown(view, markers()[mid]), f"{mid} is not in the {view['side']} view"


def assert_hidden(view: dict, *ids: str) -> None:
    for mid in ids:
        assert not shown(view, markers()[mid]), f"{mid} reaches the {view['side']} view"


# -- the table ------------------------------------------------------------------------------------------
def test_the_marker_list_is_g15s_and_cites_it():  # DD-1.17; G-15
    table = markers()
    assert all("G-15" in m.clause for m in table.values())
    assert {m.group for m in table.values()} == set(GROUPS)  # every G-15 group has a marker on the table
    assert {"pinned", "casualty_ring", "casualty_token", "blind", "echo", "delay_die"} <= set(table)


def test_the_marker_list_is_loaded_against_the_contract(tmp_path):  # DD-1.17
    shutil.copy(DATA_DIR / "markers.toml", tmp_path / "markers.toml")
    path = tmp_path / "markers.toml"
    text = path.read_text()
    path.write_text(text.replace('flag = "pinned"', 'flag = "bogged"'))  # a field the view never carries
    with pytest.raises(DataError, match="'bogged' is not declared for 'elements'"):
        load_markers(tmp_path)
    path.write_text(text.replace('part = "elements"\nflag = "pinned"\n', 'part = "elements"\n'))
    with pytest.raises(DataError, match="needs a 'flag' or a 'match'"):
        load_markers(tmp_path)


# -- status, casualties and tracks -------------------------------------------------------------------------
FIRE = ("pinned", "casualty_ring", "casualty_token", "communist_token", "kia", "stabilized", "winded",
        "low_ammo", "exposed", "illuminated", "hold_conceal", "cp_pool", "ambush_tokens", "vp_track",
        "civic_drift", "turn_counter")


def test_status_casualty_and_track_markers_are_shown():  # DD-1.17; G-15; DD-5.11; DD-5.21; G-32
    g = test_template.table([
        element("al", "allied", [stand("al_a", "us_rifle_team", 10, 10), stand("al_b", "us_rifle_team", 12.5, 10)]),
        element("al2", "allied", [stand("al2_a", "us_rifle_team", 30, 10)]),
        element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 10, 30)], kind="cell")])
    def blast(x: float, y: float, fp: int) -> template.Template:
        return dataclasses.replace(template.from_table("small", x, y), fp=fp, look_out_sir=False)

    # al_a: 3 FP, two hits (6, 6, 1), saves 1 and 6 -> one unsaved hit: the Red Ring; Morale 1 fails -> Pinned
    g.dice.force([6, 6, 1, 1, 6, 1])
    template.attack(g, blast(10, 10, 3), side="insurgent")
    # vc_a: two unsaved hits remove it (a Communist Casualty Token); al2_a the same (an Allied one)
    for x, y, side in ((10, 30, "allied"), (30, 10, "insurgent")):
        g.dice.force([6, 6, 1, 1])
        template.attack(g, blast(x, y, 2), side=side)
    assert g.dice.forced_left == 0
    g.state.tokens += [Token("t_kia", "allied", 40, 40, "kia"), Token("t_stab", "allied", 42, 40, "stabilized")]
    el, turn = g.state.elements["al"], g.state.turn
    el.winded, el.low_ammo, el.conceal = True, True, True
    el.exposed_turn = el.illuminated_turn = turn
    allied, insurgent = g.view("allied"), g.view("insurgent")
    assert_shown(allied, *FIRE)
    assert [s["id"] for s in shown(allied, markers()["casualty_ring"])] == ["al_a"]
    assert {t["id"] for t in shown(allied, markers()["casualty_token"])} == {"cas_al2_a"}
    assert {t["id"] for t in shown(allied, markers()["communist_token"])} == {"cas_vc_a"}
    # an Allied element's Hold/Conceal is its own side's to see; the Ambush Tokens the Insurgent's
    assert_hidden(insurgent, "hold_conceal")
    assert shown(insurgent, markers()["ambush_tokens"]) and "ambush_tokens" not in allied["sides"]["insurgent"]


OVERWATCH = ("overwatch", "activated")


def test_overwatch_and_the_activation_marker_are_shown():  # DD-1.17; DD-2.13; G-28 (2)
    g = game(scenario(platoon() + enemy()), dice=[4])
    g.act("allied", {"type": "set_overwatch", "element": "sq1", "facing": 90})
    assert_shown(g.view("allied"), *OVERWATCH)
    assert_hidden(g.view("insurgent"), "activated")  # how often an enemy element acted is not shown


# -- CASEVAC ---------------------------------------------------------------------------------------------------
CASEVAC = ("litter_team", "lz_smoke", "delay_die", "wreck")


def test_casevac_markers_are_shown():  # DD-1.17; DD-6.2; DD-6.7; DD-6.9
    g = test_casevac.make([test_casevac.SQUAD, test_casevac.FAR_CELL])
    test_casevac.token(g, "cas1", 20, 11.1)
    test_casevac.allied(g, {"type": "pop_smoke", "element": "sq", "at": [22, 9], "colour": "yellow"})
    view = g.view("insurgent")
    assert_shown(view, "lz_smoke", "delay_die")  # the Dustoff is public (docs/casevac.md)
    assert shown(view, markers()["lz_smoke"])[0]["colour"] == "yellow"
    test_casevac.allied(g, {"type": "litter", "element": "sq", "token": "cas1", "stand": "sq_a"})
    assert [s["id"] for s in shown(g.view("insurgent"), markers()["litter_team"])] == ["sq_a"]
    casevac.crash(g, 30, 30, "yellow")
    assert_shown(g.view("allied"), "wreck")


# -- fire support and templates ------------------------------------------------------------------------------
SUPPORT = ("target_marker", "unobserved", "marking_smoke", "spoof_smoke", "illumination", "dust_cloud")


def test_fire_support_markers_are_shown_to_the_side_that_knows_them():  # DD-1.17; DD-8.7; DD-4.37; G-18
    lurk = element("vcs", "insurgent", [stand("vcs_a", "vc_rifle_cell", 7.0, 7.0, 270)], kind="cell")
    g = test_air.air_game(terrain=(), extra=[lurk])
    g.act("allied", {**test_air.NAPALM, "at": [30.0, 30.0], "heading": 0})
    plume = shown(g.view("insurgent"), markers()["marking_smoke"])[0]
    g.act("insurgent", {"type": "smoke_spoof", "element": "vcs", "plume": plume["id"]})
    fs_state(g).lights.append(Light("light_t", 20, 20, 3.0, g.state.turn))
    s = g.state
    s.smoke.append({"id": "dust_t", "x": 5.0, "y": 5.0, "radius": 1.0, "turn": s.turn, "impulse": s.impulse})
    allied, insurgent = g.view("allied"), g.view("insurgent")
    target = shown(allied, markers()["target_marker"])
    assert target and target[0]["observed"] is False  # the FAC is not up: no observer on the point
    assert_shown(allied, "target_marker", "unobserved", "marking_smoke", "illumination", "dust_cloud", "delay_die")
    assert_shown(insurgent, "spoof_smoke", "marking_smoke")
    assert_hidden(allied, "spoof_smoke")  # DD-4.37: the spoof is the Insurgent's secret
    assert_hidden(insurgent, "target_marker")  # DD-8.6: the call is the caller's


# -- fog of war and hidden hazards ---------------------------------------------------------------------------
FOG = ("blind", "echo", "dummy", "ambush_marker", "tunnel_entrance")


def test_blinds_echoes_dummies_and_the_secret_points_are_shown_to_whom_they_belong():  # DD-1.17; DD-4.7; DD-2.26
    sq, vc = test_blinds.squad("sq", "allied", 10, 10), test_blinds.squad("vc", "insurgent", 40, 40, "i1")
    points = [{"id": "amb1", "at": [30, 30], "kind": "ambush"}, {"id": "tun1", "at": [34, 30], "kind": "tunnel"}]
    g = test_blinds.make_fog([test_blinds.HQ, sq, vc],
                             [{"id": "i1", "side": "insurgent", "at": [40, 40]},
                              {"id": "i2", "side": "insurgent", "at": [26, 10], "dummy": True}],
                             points=points, dice=[4])
    g.act("allied", {"type": "move", "element": "sq", "mode": "patrol", "to": [15, 10]})  # i2 within 12": an Echo
    allied, insurgent = g.view("allied"), g.view("insurgent")
    assert [b["id"] for b in shown(allied, markers()["echo"])] == ["i2"]
    assert [b["id"] for b in shown(allied, markers()["blind"])] == ["i1"]
    assert_hidden(allied, "dummy", "ambush_marker", "tunnel_entrance")
    assert_shown(insurgent, *FOG)
    assert [b["id"] for b in shown(insurgent, markers()["dummy"])] == ["i2"]


def test_a_trip_flare_is_its_owners_until_it_fires():  # DD-1.17; DD-9A.2; G-38
    from tests.rules import test_night

    g = test_night.night_game()
    assert_shown(g.view("allied"), "trip_flare")
    assert_hidden(g.view("insurgent"), "trip_flare", "illumination")
    test_night.vc_move(g)  # it fires: its light is public, the token spent
    assert_hidden(g.view("allied"), "trip_flare")
    assert_shown(g.view("insurgent"), "illumination")


NIGHT = ("trip_flare",)
RIVER = ("river_mine", "beached_boat")  # checked in tests/rules/test_riverine.py (DD-9A.11, G-14)


# -- terrain state -------------------------------------------------------------------------------------------
TERRAIN = ("crater", "rubble", "mousehole")
UNDERNEATH = ("booby_trap", "civilian", "cache", "tunnel_section", "tunnel_collapsed", "tunnel_gassed", "tunnel_casualty",
              "tunnel_rats_smoke")  # checked in tests/rules/test_booby_traps.py, test_village.py, test_tunnels.py and
#                                     test_underground.py (DD-9B.1, DD-9B.13, G-39, DD-9B.3-9B.7, TUN-21, TUN-15)


def test_terrain_state_markers_are_shown():  # DD-1.17; G-01 T12c; DD-5.31; DD-5.35
    g = test_template.table([element("al", "allied", [stand("al_a", "us_rifle_team", 10, 10)])])
    change_terrain(g, "crater", crater(30, 30, 1.0), "G-01 T12c", "a crater")
    g.state.structures.update({"hut1": {"hp": 0, "state": "rubble"}, "villa": {"state": "breached"}})
    assert_shown(g.view("insurgent"), *TERRAIN)


def test_every_marker_of_the_table_is_checked_here():  # DD-1.17
    assert set(FIRE + OVERWATCH + CASEVAC + SUPPORT + FOG + NIGHT + RIVER + TERRAIN + UNDERNEATH) == set(markers())
