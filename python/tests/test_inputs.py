"""Group bounds after the arrays are written in place, and argument
handling: numpy integers, error messages, the tuple-of-three rule."""

import numpy as np
import pytest

import satc
from conftest import camera


def moving_scene(n=1000):
    """Volumes in view, and a first group of 64 behind the camera."""
    f = camera()
    E = np.array(f.origin)
    D = np.array(f.frame[2])
    rng = np.random.default_rng(7)
    c = (E + D * rng.uniform(5, 60, (n, 1)) + rng.normal(0, 0.5, (n, 3))).astype(np.float32)
    c[:64] = (E - 50 * D).astype(np.float32)
    h = np.full((n, 3), 0.25, np.float32)
    return f, c, h, E, D


def test_grouped_follows_writes():
    f, c, h, E, D = moving_scene()
    flat = satc.aabbs(c, h)
    grouped = flat.grouped(size=64)
    assert satc.cull(f, grouped)[:64].sum() == 0
    before = satc.cull(f, flat, output="count")
    c[:64] = (E + 20 * D).astype(np.float32)  # 64 boxes move into view
    after = satc.cull(f, flat)
    assert after[:64].all() and after.sum() == before + 64
    assert np.array_equal(satc.cull(f, grouped), after)
    assert np.array_equal(satc.cull(f, grouped, "conservative", "classes"),
                          satc.cull(f, flat, "conservative", "classes"))
    assert np.array_equal(satc.cull(f, grouped, first=32, count=100), after[32:132])
    assert np.array_equal(satc.cull_views([f, f], grouped), np.stack([after, after]))
    assert np.array_equal(satc.query_sphere(grouped, E + 20 * D, 1.0),
                          satc.query_sphere(flat, E + 20 * D, 1.0))
    assert np.array_equal(satc.cull_depth(f, grouped)[0], satc.cull_depth(f, flat)[0])
    offs = flat.grouped(offsets=np.array([0, 64, 500, 1000]))
    assert np.array_equal(satc.cull(f, offs), after)


def test_grouped_static_keeps_its_bounds():
    """static=True: the bounds are computed once; moving volumes needs a new grouped()."""
    f, c, h, E, D = moving_scene()
    flat = satc.aabbs(c, h)
    fixed = flat.grouped(size=64, static=True)
    c[:64] = (E + 20 * D).astype(np.float32)
    assert satc.cull(f, flat)[:64].all()
    assert not satc.cull(f, fixed)[:64].any()  # the snapshot: group 0 still behind
    assert np.array_equal(satc.cull(f, flat.grouped(size=64, static=True)), satc.cull(f, flat))


def small_batch(n=100):
    rng = np.random.default_rng(3)
    return satc.aabbs(rng.uniform(-20, 20, (n, 3)).astype(np.float32),
                      np.full((n, 3), 0.5, np.float32))


@pytest.mark.parametrize("it", [np.int64, np.int32, np.uint16, np.intp])
def test_numpy_integers(it):
    f, b = camera(), small_batch()
    full = satc.cull(f, b)
    assert np.array_equal(satc.cull(f, b, first=it(10), count=it(30)), full[10:40])
    assert np.array_equal(satc.cull_views([f], b, count=it(7))[0], full[:7])
    assert np.array_equal(satc.query_sphere(b, [0, 0, 0], it(5), count=it(50)),
                          satc.query_sphere(b, [0, 0, 0], 5.0)[:50])
    assert satc.query_ray(b, [0, 0, 0], [1, 0, 0], it(30), count=it(40))[0].max(initial=0) < 40
    gc, gh = satc.group_bounds(b, size=it(16), count=it(64))
    assert gc.shape == (4, 3)
    assert b.grouped(size=it(16)).ngroups == 7
    assert np.array_equal(satc.to_aabbs(b, it(2), it(3))[0], satc.to_aabbs(b)[0][2:5])
    assert len(satc.cull_depth(f, b, sort=it(32), count=it(20))[0]) == full[:20].sum()
    idx = np.arange(5, dtype=np.uint32)
    assert np.array_equal(satc.sort_depth(np.ones(5, np.float32), idx, sort=it(16))[1], idx)
    assert len(satc.trs(np.zeros((2, 3)), np.array([[0, 0, 0, 1.0]] * 2), np.ones((2, 3)),
                        k=it(2))) == 2


@pytest.mark.parametrize("call, exc, words", [
    (lambda f, b: satc.cull(f, b, count=2.5), TypeError, ["count", "float"]),
    (lambda f, b: satc.cull(f, b, first="3"), TypeError, ["first", "str"]),
    (lambda f, b: satc.cull(f, b, first=True), TypeError, ["first", "bool"]),
    (lambda f, b: satc.cull(f, b, count=np.int64(2) ** 62), ValueError, ["count"]),
    (lambda f, b: satc.cull_views([f], b, first=1.0), TypeError, ["first"]),
    (lambda f, b: satc.group_bounds(b, size=4.0), TypeError, ["size", "float"]),
    (lambda f, b: b.grouped(size="4"), TypeError, ["size"]),
    (lambda f, b: satc.query_sphere(b, [0, 0, 0], "1"), TypeError, ["radius"]),
    (lambda f, b: satc.query_ray(b, [0, 0, 0], [1, 0, 0], "x"), TypeError, ["tmax"]),
    (lambda f, b: satc.cull_depth(f, b, sort=16.0), TypeError, ["sort"]),
    (lambda f, b: satc.splats(np.zeros((2, 32), np.uint8), k="3"), TypeError, ["k"]),
    (lambda f, b: satc.splats(np.zeros((2, 32), np.uint8), k=-1), ValueError, ["k", "-1"]),
    (lambda f, b: satc.from_planes([[1, 0, 0, 1]], margin="0"), TypeError, ["margin"]),
    (lambda f, b: satc.to_aabbs(b, 1.5), TypeError, ["first"]),
])
def test_errors_name_the_argument(call, exc, words):
    f, b = camera(), small_batch()
    with pytest.raises(exc) as e:
        call(f, b)
    for w in words:
        assert w in str(e.value)


@pytest.mark.parametrize("call, name, value, index", [
    (lambda: satc.perspective([0, float("nan"), 0], [0, 0, -1], [0, 1, 0], 1, 1, 0.1), "eye", "nan", 1),
    (lambda: satc.perspective([0, 0, 0], [0, 0, float("inf")], [0, 1, 0], 1, 1, 0.1), "dir", "inf", 2),
    (lambda: satc.perspective([0, 0, 0], [0, 0, -1], [1e39, 1, 0], 1, 1, 0.1), "up", "1e+39", 0),
    (lambda: satc.query_sphere(small_batch(), [0, 0, float("nan")], 1.0), "center", "nan", 2),
    (lambda: satc.segment_frustum([0, 0, 0], [float("-inf"), 0, 0]), "p1", "-inf", 0),
    (lambda: satc.query_ray(small_batch(), [0, float("nan"), 0], [1, 0, 0]), "origin", "nan", 1),
    (lambda: satc.query_ray(small_batch(), [0, 0, 0], [1, 0, float("nan")]), "dir", "nan", 2),
    (lambda: satc.look_at([0, 0, float("nan")], [0, 0, -1], [0, 1, 0], 1, 1, 0.1), "eye", "nan", 2),
])
def test_finite_errors_print_value_and_index(call, name, value, index):
    with pytest.raises(ValueError) as e:
        call()
    msg = str(e.value)
    assert msg.startswith(name + ":") and "%" not in msg
    assert value in msg and f"index {index}" in msg


def test_tuple_of_three_lists_is_not_read_transposed():
    """Three points as a tuple of three lists: rows or x, y, z columns? Rejected,
    naming the two unambiguous forms; a list of rows and a tuple of arrays work."""
    rows = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]
    with pytest.raises(TypeError) as e:
        satc.aabbs(tuple(rows), np.ones((3, 3), np.float32))
    assert "center" in str(e.value) and "ambiguous" in str(e.value)
    with pytest.raises(TypeError):
        satc.aabbs(np.zeros((3, 3)), (np.ones(3), [1.0, 1.0, 1.0], np.ones(3)))
    with pytest.raises(TypeError) as e:
        satc.trs(np.zeros((4, 3)), tuple([0.0, 0.0, 0.0, 1.0] for _ in range(4)), np.ones((4, 3)))
    assert "rotation" in str(e.value)
    a = np.array(rows)
    from_rows = satc.to_aabbs(satc.aabbs(rows, np.ones((3, 3))))[0]
    from_cols = satc.to_aabbs(satc.aabbs(tuple(a.T.copy()), np.ones((3, 3))))[0]
    assert np.array_equal(from_rows, a.astype(np.float32))
    assert np.array_equal(from_cols, a.astype(np.float32))
    # a plain 3-vector tuple is one shared value, as before
    shared = satc.to_aabbs(satc.aabbs(a, (0.5, 0.5, 0.5)))[1]
    assert shared.shape == (3, 3) and np.all((shared >= 0.5) & (shared < 0.5001))
