"""The One Brain-Cell tables as data (data/obc.toml): each printed table read at its rows' edges, and the
loader refusing a bad file by its field."""

from __future__ import annotations

import shutil

import pytest

from game.dice import Dice, seed_streams
from game.rulesets.obc import firing
from game.rulesets.obc.dice import half_d6, scatter
from game.rulesets.obc.tables import DATA, FILE, tables
from game.tables import DataError

T = tables()


def dice(*values: int) -> Dice:
    d = Dice(seed_streams(1))
    d.force(list(values))
    return d


@pytest.mark.parametrize(("kind", "going", "inches"), [
    ("infantry", "road", 8), ("infantry", "country", 6), ("infantry", "rough", 4),  # OBC-3
    ("lorry", "road", 24), ("lorry", "country", 10), ("apc", "rough", 5),  # OBC-9
    ("tank", "country", 12), ("chopper", "rough", 32), ("infantry", "impassable", 0)])  # OBC-12, OBC-13
def test_movement_rates(kind, going, inches):  # OBC-3, OBC-9, OBC-12, OBC-13
    assert T.rates[kind].on(going) == inches


def test_the_ground_reads_dinky_dau_terrain_as_going_and_cover():  # OBC-3, OBC-21
    assert (T.ground["trail"].going, T.ground["paddy"].going, T.ground["open"].going) == ("road", "rough", "country")
    assert (T.ground["trench"].cover, T.ground["hootch"].cover, T.ground["open"].cover) == ("hard", "soft", "none")


@pytest.mark.parametrize(("weapon", "distance", "band"), [
    ("rifle", 6, "short"), ("rifle", 6.01, "medium"), ("rifle", 10, "medium"), ("rifle", 10.01, "long"),
    ("rifle", 16, "long"), ("rifle", 16.01, None),  # OBC-20
    ("smg", 8, "medium"), ("smg", 8.01, "long"), ("smg", 14, "long"), ("smg", 14.01, None),  # OBC-20
    ("mg", 10, "short"), ("mg", 16, "medium"), ("mg", 24, "long"), ("mg", 24.01, None),  # OBC-25
    ("blooper", 24, "short"), ("blooper", 24.01, None),  # OBC-27
    ("mortar60", 5.99, None), ("mortar60", 6, "short"), ("mortar60", 48.01, None)])  # G-42
def test_range_bands(weapon, distance, band):
    assert T.weapons[weapon].band(distance) == band


@pytest.mark.parametrize(("band", "col", "need"), [
    ("short", "lying", 5), ("short", "standing", 4), ("short", "soft", 5), ("short", "hard", 6),
    ("short", "soft_blind", 7), ("medium", "lying", 6), ("medium", "standing", 5), ("medium", "soft", 6),
    ("medium", "hard", 7), ("medium", "soft_blind", 0), ("long", "lying", 7), ("long", "standing", 6),
    ("long", "soft", 0), ("long", "hard", 0)])
def test_rifle_table(band, col, need):  # OBC-21
    assert T.rifle_need(band, col) == need


def test_a_seven_is_met_only_with_a_net_plus_one():  # OBC-21, OBC-19
    still = firing.rifle_mods(T, still=True, fleeting=False, out_of_command=False, wounded=False)
    assert firing.chance(7, []) == 0 and firing.chance(7, still) == pytest.approx(1 / 6)
    assert firing.rifle_need(T, "rifle", 16.01, "standing") is None  # out of range
    assert firing.rifle_need(T, "rifle", 12, "soft") is None  # a blank: no shot into soft cover at long range
    ok, evs = firing.rifle_shot(dice(6), "a", "b", "short", 7, still)
    assert ok and evs[0]["result"] == 7 and evs[0]["modifiers"][0]["clause"] == "OBC-19"


@pytest.mark.parametrize(("band", "col", "entry"), [
    ("short", "lying", "1d6"), ("short", "standing", "2d6"), ("short", "soft", "1d6"), ("short", "hard", "half_d6"),
    ("short", "soft_blind", "half_d6"), ("short", "hard_blind", "6+"), ("medium", "lying", "half_d6"),
    ("medium", "standing", "1d6"), ("medium", "soft", "half_d6"), ("medium", "hard", "5+"),
    ("medium", "soft_blind", "-"), ("long", "lying", "5+"), ("long", "standing", "half_d6"), ("long", "soft", "5+"),
    ("long", "hard", "6+")])
def test_mg_table(band, col, entry):  # OBC-26
    assert T.mg_entry(band, col) == entry


def test_mg_half_effect_rounds_down_or_costs_one_on_a_single_score():  # OBC-24, C-34
    hits, _ = firing.mg_burst(dice(5, 4), T, "mg", "short", "standing", [])
    assert hits == 9
    hits, _ = firing.mg_burst(dice(5, 4), T, "mg", "short", "standing", ["fleeting target"])
    assert hits == 4
    hits, _ = firing.mg_burst(dice(5), T, "mg", "medium", "hard", [])
    assert hits == 1
    hits, _ = firing.mg_burst(dice(5), T, "mg", "medium", "hard", ["fleeting target"])
    assert hits == 0  # 5 - 1 misses the 5+
    assert firing.mg_half(T, False, False, "tank", 6.0) == [] and firing.mg_half(T, False, False, "tank", 6.1)
    assert firing.mg_half(T, False, False, "chopper", 10.0) == [] and firing.mg_half(T, False, False, "chopper", 10.1)
    assert firing.mg_half(T, False, False, "lorry", 4.99) == [] and firing.mg_half(T, False, False, "lorry", 5.0)


def test_mg_hits_one_a_man_nearest_first_and_twice_the_men_at_most():  # G-42
    assert firing.allocate(5, ["a", "b", "c"], 2) == ["a", "b", "c", "a", "b"]
    assert firing.allocate(12, ["a", "b"], 2) == ["a", "b", "a", "b"]
    assert firing.in_square(10, 10, 3, 11.5, 8.5) and not firing.in_square(10, 10, 3, 11.51, 10)


@pytest.mark.parametrize(("d6", "result"), [(1, "pinned"), (2, "pinned"), (3, "wounded"), (4, "wounded"),
                                            (5, "disabled"), (6, "dead")])
def test_fire_effects(d6, result):  # OBC-29
    assert firing.effect(dice(d6), T, "m", "m")[0] == result


def test_hits_on_a_lorry_have_half_effect_ignoring_pins():  # OBC-32
    assert firing.effect(dice(2), T, "m", "m", ignore_pin=True)[0] is None


@pytest.mark.parametrize(("distance", "need"), [(0, 1), (5.99, 1), (6, 2), (11.99, 2), (12, 3), (24, 5), (29.99, 5),
                                                (30, 6), (35, 6), (35.01, None)])
def test_large_calibre_to_hit(distance, need):  # OBC-34, C-33
    assert T.lcg_need(distance) == need


@pytest.mark.parametrize(("distance", "score", "result"), [
    (10, 0, "none"), (10, 1, "immobilised"), (10, 2, "immobilised"), (10, 3, "destroyed"),  # G-42's 0-10" row
    (10.01, 1, "none"), (20, 2, "immobilised"), (20, 3, "immobilised"), (20, 4, "destroyed"),
    (20.01, 2, "none"), (30, 3, "immobilised"), (30, 4, "immobilised"), (30, 5, "destroyed"), (30.01, 6, None)])
def test_effect_on_armour(distance, score, result):  # OBC-35
    assert T.armour_effect(distance, score) == result


def test_armour_aspect_modifiers():  # OBC-35
    assert firing.armour_effect(dice(3), T, "rpg", 25, "rear", False)[0] == "immobilised"  # 3 + 1
    assert firing.armour_effect(dice(3), T, "rpg", 25, "front", False)[0] == "none"  # 3 - 1


@pytest.mark.parametrize(("what", "d6", "ok"), [("lorry", 3, False), ("lorry", 4, True), ("hootch", 4, True),
                                                ("room", 3, False), ("armour", 4, False), ("armour", 5, True)])
def test_grenades(what, d6, ok):  # OBC-41
    assert firing.grenade(dice(d6), T, "g", what)[0] is ok


def test_occupants_of_a_destroyed_lorry():  # OBC-31
    assert firing.occupants(dice(3), T, "m", "m")[0] and not firing.occupants(dice(4), T, "m", "m")[0]


@pytest.mark.parametrize(("cause", "need"), [("first_fire", 3), ("friend_down", 4), ("first_wound", 4),
                                             ("out_of_command", 3), ("rally", 4)])
def test_morale_checks(cause, need):  # OBC-43, OBC-46, G-42
    assert T.morale_checks[cause].need == need


@pytest.mark.parametrize(("score", "result"), [(0, "pinned"), (2, "pinned"), (3, "cover"), (4, "cover"), (5, "panic"),
                                               (6, "blind_panic"), (7, "blind_panic")])
def test_morale_effects(score, result):  # OBC-45
    assert T.morale_effect(score).id == result


@pytest.mark.parametrize(("diff", "result"), [(0, None), (1, "pinned"), (2, "pinned"), (3, "wounded"), (4, "wounded"),
                                              (5, "disabled"), (9, "disabled")])
def test_hand_to_hand_results(diff, result):  # OBC-51
    row = T.hth_result(diff)
    assert (row.id if row else None) == result


def test_half_d6_and_the_scatter_die():  # G-42, OBC-27
    assert [half_d6(dice(v))[0] for v in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert scatter(dice(2), T, (5.0, 5.0), "m")[0] == (5.0, 5.0)  # a "hit" face
    d = dice(3, 1, 4)  # an arrow, the first heading (east), 4"
    assert scatter(d, T, (5.0, 5.0), "m")[0] == (9.0, 5.0)


def test_a_bad_table_names_its_field(tmp_path):  # non-negotiable 8
    shutil.copy(DATA / FILE, tmp_path / FILE)
    text = (tmp_path / FILE).read_text().replace('hard_blind = "6+"', 'hard_blind = "7+"', 1)
    (tmp_path / FILE).write_text(text)
    with pytest.raises(DataError, match="hard_blind"):
        tables.__wrapped__(tmp_path)
