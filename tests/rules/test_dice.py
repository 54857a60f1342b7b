"""Dice (DESIGN §5, G-31): seeded streams in the state, forced rolls, explained tests."""

from game.rules.dice import Dice, Modifier, need, resolve_test, seed_streams


def test_same_seed_same_rolls_and_streams_are_independent():
    a, b = Dice(seed_streams(42)), Dice(seed_streams(42))
    assert a.roll(50) == b.roll(50)
    c = Dice(seed_streams(42))
    c.roll(5, "ai")  # AI thinking never shifts the rules dice (STYLE: dice)
    assert c.roll(50) == Dice(seed_streams(42)).roll(50)
    assert Dice(seed_streams(1)).roll(20) != Dice(seed_streams(2)).roll(20)


def test_d6_is_fair_enough():
    d = Dice(seed_streams(7))
    counts = [0] * 6
    for v in d.roll(60000):
        counts[v - 1] += 1
    assert all(9500 < c < 10500 for c in counts), counts


def test_forced_rolls_come_first():
    d = Dice(seed_streams(1))
    d.force([6, 1, 4])
    assert d.roll(3) == [6, 1, 4]


def test_need_is_never_better_than_two_plus():
    # DD-5.5 / G-31: no shot can need better than 2+.
    assert need(4, [Modifier("point blank", 1, "DD-5.5"), Modifier("column", 1, "DD-3.3"),
                    Modifier("x", 1, "DD-5.5")]) == 2
    assert need(4, [Modifier("heavy cover", -2, "DD-5.4"), Modifier("pinned", -1, "DD-5.4")]) == 7


def test_naturals_follow_g31_and_the_event_explains_itself():
    d = Dice(seed_streams(1))
    d.force([6, 1, 3])
    mods = [Modifier("heavy cover", -2, "DD-5.4"), Modifier("pinned", -1, "DD-5.4")]
    ev = resolve_test(d, purpose="to hit", target=4, modifiers=mods, clause="DD-5.3", side="allied")
    assert ev["result"] == "pass" and ev["need"] == 7          # G-31: a natural 6 always succeeds
    ev = resolve_test(d, purpose="morale", target=2, modifiers=[], clause="DD-5.20", side="allied")
    assert ev["result"] == "fail"                              # G-31: a natural 1 always fails
    ev = resolve_test(d, purpose="morale", target=4, modifiers=[Modifier("Winded", -1, "DD-3.7")],
                      clause="DD-5.20", side="allied")
    assert ev["dice"] == [3] and ev["need"] == 5 and ev["result"] == "fail"
    assert ev["modifiers"] == [{"name": "Winded", "value": -1, "clause": "DD-3.7"}]
    assert "Winded -1 (DD-3.7)" in ev["text"]
