"""The compiled line of sight (``game.world.sightline``) gives the Python path's answers to the last bit
(DESIGN §7; DD-4.1–4.6, DD-4.41, DD-5.34, G-01 T10/T11/T15): the single path, the batched trace and the
stand-to-stand check, by day, at dusk with a flare, in the monsoon, through smoke and among hulls."""

from functools import cache

import pytest

from game.world.los import Observer, TableLOS
from tests.world.tables import convention, random_lines
from tests.world.test_fast_paths import CONDITIONS


@cache
def tables() -> tuple[TableLOS, TableLOS]:
    """The same table twice: compiled, and made to answer in Python."""
    from game.world import bake

    t = convention()
    fast = TableLOS.from_glb(bake.bake_glb(t), t.width, t.height)
    plain = TableLOS.from_glb(bake.bake_glb(t), t.width, t.height)
    plain._fast = None
    return fast, plain


def test_the_compiled_path_is_in_use():
    fast, plain = tables()
    assert fast._fast is not None and plain._fast is None


@pytest.mark.parametrize("name", ["day", "dusk, a flare", "monsoon", "smoke", "hulls"])
def test_single_and_batched_answers_are_the_python_paths(name):
    fast, plain = tables()
    cond = CONDITIONS[name]
    eyes, targets = random_lines(fast, 1200, seed=31)
    for early in (False, True):
        a, b = fast.trace(eyes, targets, cond, early=early), plain.trace(eyes, targets, cond, early=early)
        assert (a.visible == b.visible).all() and (a.complete == b.complete).all()
        for i, (e, t) in enumerate(zip(eyes.tolist(), targets.tolist(), strict=True)):
            s = fast._sight(tuple(e), tuple(t), cond, early=early)
            assert s == plain._sight(tuple(e), tuple(t), cond, early=early), (i, early)
            if s.complete:
                assert s == a.row(i) == b.row(i), (i, early)


def test_stand_checks_are_the_python_paths():
    fast, plain = tables()
    eyes, targets = random_lines(fast, 300, seed=32)
    for cond in (CONDITIONS["day"], CONDITIONS["hulls"]):
        for e, t in zip(eyes.tolist(), targets.tolist(), strict=True):
            a, b = Observer(e[0], e[1], 30.0), Observer(t[0], t[1], 200.0)
            assert _answer(fast, a, b, cond) == _answer(plain, a, b, cond)


def _answer(los: TableLOS, a: Observer, b: Observer, cond) -> object:
    try:
        return los.check(a, b, cond)
    except ValueError as exc:  # a base over the table's edge: refused, in the same words
        return str(exc)


def test_an_end_off_the_table_is_refused_as_before():
    fast, _ = tables()
    with pytest.raises(ValueError, match="off the 48x36 table"):
        fast.check_points((1.0, 1.0, 0.6), (60.0, 1.0, 0.6), CONDITIONS["day"])
