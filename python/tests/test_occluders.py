"""Choosing occluders from Python: Pyramid.pick_occluders ranks the volumes
in view by screen size, those seen last frame first, and
Pyramid.rasterize(indices=...) draws exactly the volumes listed."""

import numpy as np
import pytest

import satc


def city(rng, n=3000):
    """Buildings on a plane in front of a camera at the origin looking along +y."""
    c = np.stack([rng.uniform(-200, 200, n), rng.uniform(5, 400, n), rng.uniform(0, 10, n)], 1)
    h = np.stack([rng.uniform(1, 12, n), rng.uniform(1, 12, n), rng.uniform(2, 30, n)], 1)
    cam = satc.look_at([0, 0, 8], [0, 100, 6], [0, 0, 1], 1.0, 2.0, 0.5, 1000.0)
    return cam, satc.aabbs(c.astype(np.float32), h.astype(np.float32)), c.astype(np.float32), h.astype(np.float32)


def test_picks_follow_the_documented_order(rng):
    cam, b, _, _ = city(rng)
    p = satc.Pyramid(cam, 256, 128)
    in_view = set(satc.cull(cam, b, "conservative", "indices").tolist())
    full = p.pick_occluders(b, len(b), min_texels=2.0)
    assert full.dtype == np.uint32 and len(set(full.tolist())) == len(full)
    assert set(full.tolist()) <= in_view and 100 < len(full) < len(in_view)
    fewer = p.pick_occluders(b, len(b), min_texels=40.0)
    assert set(fewer.tolist()) < set(full.tolist())
    for k in (0, 1, 17, 300):
        assert np.array_equal(p.pick_occluders(b, k, min_texels=2.0), full[:k])
    # seen last frame: those first, each rank in the order of the full list
    seen = np.sort(rng.choice(len(b), 1500, replace=False))
    s = set(seen.tolist())
    want = [i for i in full if i in s] + [i for i in full if i not in s]
    for k in (1, 50, 400, len(b)):
        got = p.pick_occluders(b, k, min_texels=2.0, seen=seen)
        assert got.tolist() == want[:k], k
    assert np.array_equal(p.pick_occluders(b, 50, min_texels=2.0, seen=[]), full[:50])
    # a range: only its volumes, indices still the batch's
    part = p.pick_occluders(b, 40, first=1000, count=500)
    assert all(1000 <= i < 1500 for i in part) and len(part) > 0


def test_rasterize_indices_draws_exactly_those(rng):
    cam, b, c, h = city(rng)
    pick = satc.Pyramid(cam, 256, 128).pick_occluders(b, 64, min_texels=4.0)
    a = satc.Pyramid(cam, 256, 128).rasterize(b, indices=pick)
    sub = satc.aabbs(c[pick], h[pick])
    ref = satc.Pyramid(cam, 256, 128).rasterize(sub)
    assert np.array_equal(a.depth, ref.depth)
    assert np.isfinite(a.level(0)).sum() > 1000
    # as a list of Python ints, in another order: the same texels
    rev = satc.Pyramid(cam, 256, 128).rasterize(b, indices=[int(i) for i in pick[::-1]])
    assert np.array_equal(rev.depth, ref.depth)
    # what they hide: the occluders picked last frame's visible set first hide as much or more
    kept = satc.cull(a, b, "exact", "indices")
    assert len(kept) < len(satc.cull(cam, b, "exact", "indices"))


def test_bad_input_names_the_argument(rng):
    cam, b, _, _ = city(rng, 200)
    p = satc.Pyramid(cam, 64, 32)
    before = p.depth.copy()
    cases = [
        (lambda: p.pick_occluders(b, -1), ValueError, "max"),
        (lambda: p.pick_occluders(b, 5, min_texels=-1.0), ValueError, "min_texels"),
        (lambda: p.pick_occluders(b, 5, min_texels=float("nan")), ValueError, "min_texels"),
        (lambda: p.pick_occluders(b, 5, seen=[3, 2]), ValueError, "seen"),
        (lambda: p.pick_occluders(b, 5, seen=[1, 1]), ValueError, "seen"),
        (lambda: p.pick_occluders(b, 5, seen=[-1]), ValueError, "seen"),
        (lambda: p.pick_occluders(b, 5, seen=[[1, 2]]), ValueError, "seen"),
        (lambda: p.pick_occluders(b, 5, seen=[0.5]), TypeError, "seen"),
        (lambda: p.pick_occluders(b, "5"), TypeError, "max"),
        (lambda: p.pick_occluders(b, 5, first=150, count=100), ValueError, ""),
        (lambda: p.rasterize(b, indices=[0, 2**33]), ValueError, "indices"),
        (lambda: p.rasterize(b, indices=np.array([0.0])), TypeError, "indices"),
        (lambda: p.rasterize(b, 0, 5, indices=[1]), ValueError, "indices"),
        (lambda: p.rasterize(b, indices=[0, 200]), ValueError, "indices"),
        (lambda: p.pick_occluders(b, 5, seen=[0, 200]), ValueError, "seen"),
    ]
    for fn, err, name in cases:
        with pytest.raises(err, match=name):
            fn()
        assert np.array_equal(p.depth, before)
