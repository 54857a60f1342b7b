"""The compiled line of sight's ways of being quick change no answer (DD-4.1–4.6, DD-4.41, G-01 T10/T11/T15):
an answer whose evidence is made when first read equals the one made at once, and copies and pickles
whole; a batch taken in another order gives each row its own answer; threads sharing a table each write
their own scratch."""

import copy
import pickle
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from game.world import sightline_layout
from game.world.los import LosResult
from tests.world.tables import random_lines
from tests.world.test_compiled_sight import tables
from tests.world.test_fast_paths import CONDITIONS


@pytest.mark.parametrize("name", ["day", "dusk, a flare", "smoke", "hulls"])
def test_an_answer_read_later_is_the_answer_made_at_once(name):
    # DD-4.1, DD-4.4: visible, the distance and the evidence (inches, limit, blocker, clause, reason)
    fast, plain = tables()
    cond = CONDITIONS[name]
    eyes, targets = random_lines(fast, 400, seed=41)
    for e, t in zip(eyes.tolist(), targets.tolist(), strict=True):
        got = fast.check_points(tuple(e), tuple(t), cond)
        assert "_later" in got.__dict__  # the evidence not made yet
        head = (got.visible, got.fraction, got.distance)
        assert "_later" in got.__dict__  # the answer itself is read without making it
        s = plain._sight(tuple(e), tuple(t), cond)
        whole = plain._full_result(s, float(s.visible))
        assert head == (whole.visible, whole.fraction, whole.distance)
        assert got == whole
        assert got.to_dict() == whole.to_dict()


def test_a_stand_check_read_later_is_the_check_made_at_once():
    # DD-4.5: the share of the twelve sightlines clear, and the reported sightline's evidence
    fast, plain = tables()
    from game.world.los import Observer

    eyes, targets = random_lines(fast, 120, seed=42)
    for e, t in zip(eyes.tolist(), targets.tolist(), strict=True):
        a, b = Observer(e[0], e[1], 30.0), Observer(t[0], t[1], 200.0)
        try:
            got = fast.check(a, b, CONDITIONS["day"])
        except ValueError:
            continue  # a base over the table's edge
        head = (got.visible, got.fraction, got.distance)
        full = got.to_dict()
        assert head == (full["visible"], full["fraction"], full["distance"])
        assert got == plain.check(a, b, CONDITIONS["day"])


def test_a_later_answer_copies_and_pickles_whole_without_its_table():
    # DD-4.4: the evidence travels with the answer (a saved event's words), the table does not
    fast, _ = tables()
    eyes, targets = random_lines(fast, 60, seed=43)
    for e, t in zip(eyes.tolist(), targets.tolist(), strict=True):
        got = fast.check_points(tuple(e), tuple(t), CONDITIONS["day"])
        raw = pickle.dumps(got)
        assert len(raw) < 4000  # a TableLOS would be megabytes (or refuse to pickle)
        back = pickle.loads(raw)
        assert type(back) is LosResult and "_later" not in back.__dict__
        assert back == got == copy.deepcopy(got) == copy.copy(got)
        assert back.reason == got.reason and back.reason.strip()


def test_an_unknown_field_is_still_refused():
    fast, _ = tables()
    got = fast.check_points((5.0, 5.0, 1.0), (20.0, 9.0, 1.0), CONDITIONS["day"])
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        got.nothing  # noqa: B018
    assert "_later" in got.__dict__


@pytest.mark.parametrize("early", [True, False])
def test_a_batch_in_any_order_gives_each_row_its_own_answer(early):
    # DD-4.1–4.6: a row's answer is its own whatever the order the batch is cast in
    fast, _ = tables()
    cond = CONDITIONS["day"]
    eyes, targets = random_lines(fast, 3000, seed=44)
    perm = np.random.default_rng(5).permutation(len(eyes))
    a = fast.trace(eyes, targets, cond, early=early)
    b = fast.trace(eyes[perm], targets[perm], cond, early=early)
    assert (a.visible[perm] == b.visible).all() and (a.complete[perm] == b.complete).all()
    both = a.complete[perm] & b.complete
    assert both.sum() > 100
    np.testing.assert_array_equal(a.inches[perm][both], b.inches[both])
    np.testing.assert_array_equal(a.cutoff[perm][both], b.cutoff[both])
    np.testing.assert_array_equal(a.solid_part[perm][both], b.solid_part[both])


@pytest.mark.parametrize("name", ["day", "dusk, a flare", "smoke", "hulls"])
def test_a_batch_that_keeps_only_visible_answers_as_the_full_rows(name):
    # DD-4.1–4.6: TableLOS.batch keeps each answer's visible alone (a row one column wide); it is the
    # visible of the full answer, and of the plain reference, row for row
    fast, _ = tables()
    cond = CONDITIONS[name]
    eyes, targets = random_lines(fast, 3000, seed=49)
    got = fast.batch(eyes, targets, cond)
    assert fast._rows_fast(eyes, targets, cond, None, True, lean=True)[2].shape == (3000, 1)
    np.testing.assert_array_equal(got, fast.trace(eyes, targets, cond, early=True).visible)
    np.testing.assert_array_equal(got, fast.trace_reference(eyes, targets, cond).visible)
    assert 100 < got.sum() < 2900


def test_the_batch_order_is_every_row_once_neighbours_together():
    fast, _ = tables()
    eyes, targets = random_lines(fast, 2000, seed=45)
    order = sightline_layout.locality(eyes, targets, fast.width, fast.height)
    assert sorted(order.tolist()) == list(range(2000))
    mid = (eyes[:, :2] + targets[:, :2]) / 2
    step = np.linalg.norm(np.diff(mid[order], axis=0), axis=1).mean()
    assert step < 0.25 * np.linalg.norm(np.diff(mid, axis=0), axis=1).mean()


def test_a_compiled_batch_orders_itself_as_locality_does():
    # the compiled batch fills its own order (a counting sort of the same codes): the order of
    # sightline_layout.locality, row for row, and each row's own answer in it
    from game.world import sightline

    fast, _ = tables()
    eyes, targets = random_lines(fast, 2500, seed=46)
    Qc = fast._fast_conditions(CONDITIONS["day"])
    order, out = np.full(2500, -1, np.int64), np.empty((2500, 1))
    sightline.Caller(fast._fast).sight_many(Qc, eyes, targets, np.full(2500, np.nan), True, False, order, out,
                                            sort=True)
    np.testing.assert_array_equal(order, sightline_layout.locality(eyes, targets, fast.width, fast.height))
    np.testing.assert_array_equal(out[:, 0] != 0.0, fast.trace(eyes, targets, CONDITIONS["day"], early=True).visible)


def test_threads_sharing_a_table_get_the_answers_of_one():
    # DD-4.1: the compiled code runs without the interpreter's lock; each thread writes its own scratch
    fast, _ = tables()
    cond = CONDITIONS["dusk, a flare"]
    eyes, targets = random_lines(fast, 600, seed=46)
    lines = [(tuple(e), tuple(t)) for e, t in zip(eyes.tolist(), targets.tolist(), strict=True)]
    alone = [fast._sight(e, t, cond) for e, t in lines]
    batch = fast.trace(eyes, targets, cond).visible

    def run(k: int) -> tuple[list, np.ndarray]:
        part = lines[k::4]
        return [fast._sight(e, t, cond) for e, t in part], fast.trace(eyes[k::4], targets[k::4], cond).visible

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(run, range(4)))
    for k, (sights, vis) in enumerate(got):
        assert sights == alone[k::4]
        assert (vis == batch[k::4]).all()


def test_the_library_built_ahead_of_time_answers_as_numba(tmp_path):
    # DD-4.1–4.6, DD-4.41, G-01 T15: the same code, compiled ahead of time, gives the same answers bit for bit
    from game.world import sightline, sightline_native

    fast, _ = tables()
    so = tmp_path / "sightline-test.so"
    try:
        symbol = sightline_native.compile_library(so)
    except OSError:
        pytest.skip("no C compiler to link the library")
    so.with_suffix(".sym").write_text(symbol)
    ahead, numba = sightline_native.Caller(fast._fast, sightline_native.load(so)), sightline.Caller(fast._fast)
    eyes, targets = random_lines(fast, 1500, seed=47)
    for name in ("day", "dusk, a flare", "smoke", "hulls"):
        Qc = fast._fast_conditions(CONDITIONS[name])
        for e, t in zip(eyes[:300].tolist(), targets[:300].tolist(), strict=True):
            for early in (False, True):
                a = ahead.sight(Qc, *e, *t, np.nan, early).copy()
                np.testing.assert_array_equal(a, numba.sight(Qc, *e, *t, np.nan, early))
        order = sightline_layout.locality(eyes, targets, fast.width, fast.height)
        dist = np.full(len(eyes), np.nan)
        a, b = np.empty((len(eyes), len(ahead.out))), np.empty((len(eyes), len(ahead.out)))
        ahead.sight_many(Qc, eyes, targets, dist, True, False, order, a)
        numba.sight_many(Qc, eyes, targets, dist, True, False, order, b)
        np.testing.assert_array_equal(a, b)
        la, lb = np.empty((len(eyes), 1)), np.empty((len(eyes), 1))  # a batch keeping visible alone, ordering itself
        oa, ob = np.empty(len(eyes), np.int64), np.empty(len(eyes), np.int64)
        ahead.sight_many(Qc, eyes, targets, dist, True, False, oa, la, sort=True)
        numba.sight_many(Qc, eyes, targets, dist, True, False, ob, lb, sort=True)
        np.testing.assert_array_equal(la, lb)
        np.testing.assert_array_equal(oa, order)
        np.testing.assert_array_equal(ob, order)
        sa, sb, none = np.empty((20, 1)), np.empty((20, 1)), np.zeros(0, np.int64)  # a few rows, no order
        ahead.sight_many(Qc, eyes[:20], targets[:20], dist[:20], True, False, none, sa)
        numba.sight_many(Qc, eyes[:20], targets[:20], dist[:20], True, False, none, sb)
        np.testing.assert_array_equal(sa, sb)
        np.testing.assert_array_equal(sa[:, 0], la[:20, 0])
        np.testing.assert_array_equal(la[:, 0], a[:, sightline_layout.O_VIS])


def test_a_process_answering_line_of_sight_ahead_of_time_never_imports_numba():
    # the engine's memory (numba and LLVM cost a process about 100 MB): the library path imports neither
    import subprocess
    import sys

    from game.world import sightline_native

    if sightline_native.entry() is None:
        pytest.skip("no library built for these sources (python -m game.warm builds it)")
    code = ("import sys; from tests.world.tables import convention, los_of; from game.world.los import Conditions;"
            "t = los_of(convention()); r = t.check_points((5.0, 5.0), (20.0, 9.0), Conditions()); r.reason;"
            "t.batch([(5.0, 5.0, 1.0)] * 80, [(20.0, 9.0, 1.0)] * 80, Conditions());"
            "print(t._fast is not None, 'numba' in sys.modules, 'llvmlite' in sys.modules)")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert got == ["True", "False", "False"]


def test_a_canopy_hit_reads_its_side_off_embrees_normal_as_off_its_own():
    # sightline._faces: whether a sightline enters or leaves a canopy volume (DD-4.2, G-02) is read off the
    # geometric normal Embree returns with the hit, not the face's record; the record is read only where
    # the float32 dot is within 1e-4 of zero. That holds while the two normals are the same way round
    # and agree far inside that margin: the faces' own normals are those of the float32 triangles Embree
    # holds, and Embree's (worked in float32), normalised, agree with them to a few millionths.
    import struct

    fast, _ = tables()
    rs = fast.geo.canopy
    t = rs.tris32.astype(np.float64)
    ng = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
    ng /= np.linalg.norm(ng, axis=1, keepdims=True)
    assert np.linalg.norm(np.cross(ng, rs.normal), axis=1).max() < 1e-6
    assert (np.einsum("ij,ij->i", ng, rs.normal) > 0).all()
    direct = rs._direct
    if direct is None:
        pytest.skip("no direct Embree path")
    raw, off, ptr = direct._buffer()
    rng = np.random.default_rng(11)
    hits, worst = 0, 0.0
    for _ in range(3000):
        o = rng.uniform([0.0, 0.0, 0.2], [fast.width, fast.height, 2.5])
        u = np.array([*rng.normal(size=2), rng.uniform(-0.3, 0.3)])
        u /= np.linalg.norm(u)
        struct.pack_into("<fffffffffIIIfffffIII", raw, off, *o, 0.0, *u, 0.0, 1e6, 0xFFFFFFFF, 0, 0,
                         0.0, 0.0, 0.0, 0.0, 0.0, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF)
        direct._lib.rtcIntersect1(direct.scene, ptr, None)
        got = struct.unpack_from("<fffffffffIIIfffffIII", raw, off)
        prim = got[17]
        if prim == 0xFFFFFFFF:
            continue
        hits += 1
        g = np.array(got[12:15], np.float64)
        worst = max(worst, float(np.linalg.norm(np.cross(g / np.linalg.norm(g), rs.normal[prim]))))
        assert float(g @ rs.normal[prim]) > 0
    assert worst < 2e-5
    assert hits > 1000
