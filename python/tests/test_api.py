"""Many views against single culls, queries against double-precision
references, group bounds, frusta from intrinsics and matrices, bad input,
and the perception example."""

import importlib.util
import math
import os

import numpy as np
import pytest

import satc
from conftest import QUICK, camera, rotations, scene

HERE = os.path.dirname(os.path.abspath(__file__))


def cameras(k):
    """k cameras of every kind: perspective (some off-center, one with an
    infinite far plane), orthographic, a plane volume."""
    out = []
    for v in range(k):
        a = 2 * math.pi * v / k
        d = [math.cos(a), 0.0, -math.sin(a)]
        L = [d[2], 0.0, -d[0]]  # L x U = D
        if v % 7 == 6:  # a convex volume of planes: a slab wedge, bounded
            out.append(satc.from_planes([[d[0], 0, d[2], -2], [-d[0], 0, -d[2], 50],
                                         [L[0], 0, L[2], 20], [-L[0], 0, -L[2], 20],
                                         [0, 1, 0, 10], [0, -1, 0, 10]], 0.5))
        elif v % 5 == 4:
            out.append(satc.camera([0, 1, 0], L, [0, 1, 0], d, (-20, 25, -10, 12), -5, 80,
                                   orthographic=True))
        elif v % 5 == 3:
            out.append(satc.camera([0.5, 1, 0], L, [0, 1, 0], d, (-0.05, 0.12, -0.06, 0.07), 0.1))
        else:
            out.append(satc.look_at([0, 1, 0], [d[0], 1, d[2]], [0, 1, 0], 0.9, 1.5, 0.3,
                                    90.0 if v % 2 else math.inf))
    return out


@pytest.mark.parametrize("nviews", [1, 6, 13, 64, 70])
def test_views_equal_single_culls(nviews, rng):
    _, h = scene(rng, 3000)
    c = (rng.uniform(-60, 60, (3000, 3))).astype(np.float32)  # around the cameras
    R = rotations(rng, 3000).astype(np.float32)
    batches = [satc.aabbs(c, h), satc.obbs(c, R, h), satc.spheres(c, h[:, 0])]
    views = cameras(nviews)
    for b in batches:
        for mode in ("exact", "conservative"):
            single = np.array([satc.cull(f, b, mode, "classes") for f in views])
            assert single.any() and not single.all()
            assert np.array_equal(satc.cull_views(views, b, mode), single > 0)
            assert np.array_equal(satc.cull_views(views, b, mode, "classes"), single)
            assert np.array_equal(satc.cull_views(views, b, mode, "count"), (single > 0).sum(1))
            idx = satc.cull_views(views, b, mode, "indices")
            assert len(idx) == nviews
            for v in range(nviews):
                assert np.array_equal(idx[v], np.flatnonzero(single[v]))
            sub = satc.cull_views(views, b, mode, first=700, count=1100)
            assert np.array_equal(sub, single[:, 700:1800] > 0)


def aabb_dist(c, h, p):
    """Euclidean distance from point p to each AABB, in double."""
    d = np.maximum(np.abs(p - c) - h, 0)
    return np.linalg.norm(d, axis=1)


def test_query_sphere(rng):
    c = rng.uniform(-50, 50, (5000, 3)).astype(np.float32)
    h = rng.uniform(0.1, 4, (5000, 3)).astype(np.float32)
    b = satc.aabbs(c, h)
    for center, r in (([1.0, 2.0, 3.0], 20.0), ([30.0, -10.0, 5.0], 7.5), ([0.0, 0.0, 0.0], 0.0)):
        got = satc.query_sphere(b, center, r)
        d = aabb_dist(c.astype(np.float64), h.astype(np.float64), np.array(center))
        tol = 1e-6 * (np.abs(c).sum(1) + 100)
        assert got[d <= r - tol].all()  # never a touching box missed
        assert not got[d > r + tol].any()  # exact: nothing beyond the band
        assert np.array_equal(satc.query_sphere(b, center, r, output="indices"), np.flatnonzero(got))
        for isa in satc.isa_runnable():
            assert np.array_equal(satc.query_sphere(b, center, r, isa=isa), got)


def test_query_ray(rng):
    c = rng.uniform(-50, 50, (5000, 3)).astype(np.float32)
    h = rng.uniform(0.5, 4, (5000, 3)).astype(np.float32)
    b = satc.aabbs(c, h)
    o, d = np.array([-60.0, 1.0, 2.0]), np.array([1.0, 0.05, -0.02])
    idx, t, nearest = satc.query_ray(b, o, d, 150.0)
    # slab method in double
    cd, hd = c.astype(np.float64), h.astype(np.float64)
    with np.errstate(divide="ignore"):
        t1 = (cd - hd - o) / d
        t2 = (cd + hd - o) / d
    tn = np.minimum(t1, t2).max(1)
    tf = np.maximum(t1, t2).min(1)
    tn0 = np.maximum(tn, 0)
    hit = (tn0 <= tf) & (tn0 <= 150.0)
    margin = 1e-4
    clear = (tn0 + margin < tf - margin) & (tn0 + margin <= 150.0)
    miss = (tn0 > tf + margin) | (tn0 > 150.0 + margin)
    got = np.zeros(5000, bool)
    got[idx] = True
    assert got[clear].all() and not got[miss].any()
    assert np.allclose(t, tn0[idx], atol=1e-3)
    assert nearest == idx[np.argmin(t)]
    none = satc.query_ray(b, [0, 500, 0], [0, 1, 0])
    assert len(none[0]) == 0 and none[2] is None


def test_query_box_and_segment(rng):
    c = rng.uniform(-50, 50, (5000, 3)).astype(np.float32)
    h = rng.uniform(0.1, 4, (5000, 3)).astype(np.float32)
    b = satc.aabbs(c, h)
    qc, qh = np.array([3.0, -2.0, 10.0]), np.array([12.0, 5.0, 8.0])
    got = satc.query_box(b, qc, qh)
    gap = (np.abs(c.astype(np.float64) - qc) - h - qh).max(1)  # > 0: separated on an axis
    assert got[gap < -1e-4].all() and not got[gap > 1e-4].any()
    seg = satc.query_segment(b, [-40, 0, 0], [40, 0, 0])
    inside_yz = (np.abs(c[:, 1:]) < h[:, 1:] - 1e-4).all(1) & (np.abs(c[:, 0]) < 40 + h[:, 0] - 1e-4)
    assert seg[inside_yz].all()
    far = (np.abs(c[:, 1:]) > h[:, 1:] + 1e-4).any(1)
    assert not seg[far].any()


def test_group_bounds_and_grouped(rng):
    c, h = scene(rng, 6000)
    order = np.argsort(c[:, 0])  # neighbours in memory are neighbours in space
    c, h = c[order].copy(), h[order].copy()
    b = satc.aabbs(c, h)
    f = camera()
    gc, gh = satc.group_bounds(b, size=128)
    assert gc.shape == (47, 3)
    ac, ah = satc.to_aabbs(b)
    for g in range(47):
        sl = slice(128 * g, min(6000, 128 * (g + 1)))
        fin = np.isfinite(ac[sl]).all(1) & np.isfinite(ah[sl]).all(1)
        if not fin.all():
            assert np.isnan(gc[g]).all() and np.isinf(gh[g]).all()
            continue
        assert (gc[g] - gh[g] <= ac[sl] - ah[sl]).all() and (gc[g] + gh[g] >= ac[sl] + ah[sl]).all()
    flat = satc.cull(f, b, output="classes")
    for grouped in (b.grouped(size=128), b.grouped(size=128, center=gc, half=gh),
                    b.grouped(offsets=np.array([0, 10, 10, 3000, 6000]))):
        assert grouped.ngroups is not None
        assert np.array_equal(satc.cull(f, grouped, output="classes"), flat)
        assert np.array_equal(satc.cull_views([f, camera()], grouped), np.stack([flat, flat]) > 0)


def test_from_intrinsics_against_projection(rng):
    """Tiny boxes at points the pinhole model puts in or out of the image."""
    K = np.array([[1266.4, 0, 816.3], [0, 1266.4, 491.5], [0, 0, 1]])
    R = rotations(rng, 1)[0]
    t = np.array([3.0, -1.0, 20.0])
    W, H, near, far = 1600, 900, 0.5, 80.0
    f = satc.from_intrinsics(K, R, t, W, H, near, far)
    n = 20000
    cam = np.stack([rng.uniform(-1.2, 1.2, n), rng.uniform(-0.7, 0.7, n), rng.uniform(0.1, 100, n)], 1)
    cam[:, :2] *= cam[:, 2:3]
    world = (cam - t) @ R  # x = R^T (x_cam - t)
    u = K[0, 0] * cam[:, 0] / cam[:, 2] + K[0, 2]
    v = K[1, 1] * cam[:, 1] / cam[:, 2] + K[1, 2]
    z = cam[:, 2]
    r = 1e-3
    margin_px = 2.0 * (1 + r * K[0, 0] / z)
    inside = (u > margin_px) & (u < W - margin_px) & (v > margin_px) & (v < H - margin_px) & \
             (z > near + 0.01) & (z < far - 0.01)
    outside = (u < -margin_px) | (u > W + margin_px) | (v < -margin_px) | (v > H + margin_px) | \
              (z < near - 0.01) | (z > far + 0.01)
    b = satc.spheres(world.astype(np.float32), np.float32(r))
    got = satc.cull(f, b)
    assert got[inside].all() and not got[outside].any()
    assert inside.sum() > 1000 and outside.sum() > 1000
    # the same camera from its pose
    g = satc.from_camera_pose(K, R.T, -R.T @ t, W, H, near, far)
    assert np.array_equal(satc.cull(g, b), got)


def test_from_matrix_conventions(rng):
    """An OpenGL and a Vulkan (reversed-Z, infinite) projection of one camera
    give the camera's answers up to satc's band."""
    eye, n, fz = np.array([2.0, 1.0, 3.0]), 0.5, 200.0
    fov, asp = 1.0, 1.5
    f_cam = satc.perspective(eye, [0, 0, -1], [0, 1, 0], fov, asp, n, fz)
    ct = 1 / math.tan(fov / 2)
    V = np.eye(4)
    V[:3, 3] = -eye
    gl = np.array([[ct / asp, 0, 0, 0], [0, ct, 0, 0],
                   [0, 0, (fz + n) / (n - fz), 2 * fz * n / (n - fz)], [0, 0, -1, 0]])
    f_gl = satc.from_matrix(gl @ V)
    rz = np.array([[ct / asp, 0, 0, 0], [0, ct, 0, 0], [0, 0, 0, n], [0, 0, -1, 0]])
    f_rz = satc.from_matrix(rz @ V, zero_to_one=True, reversed=True, infinite_far=True)
    assert f_rz.far == math.inf
    c = (eye + rng.uniform(-150, 150, (20000, 3)) * [1, 1, 1.4] - [0, 0, 100]).astype(np.float32)
    h = rng.uniform(0.1, 3, (20000, 3)).astype(np.float32)
    b = satc.aabbs(c, h)
    a, g, r = satc.cull(f_cam, b), satc.cull(f_gl, b), satc.cull(f_rz, b)
    assert a.sum() > 500
    assert (a != g).sum() <= 2 and ((a & ~r).sum() <= 2)  # only band cases; rz has no far plane


BAD = [
    (lambda: satc.aabbs(np.zeros((5, 3), np.int32), np.ones((5, 3), np.float32)), TypeError, "center"),
    (lambda: satc.aabbs(np.zeros((5, 3), np.float32), np.ones((5, 4), np.float32)), ValueError, "half"),
    (lambda: satc.aabbs(np.zeros((5, 3), np.float32), np.ones((6, 3), np.float32)), ValueError, "half"),
    (lambda: satc.aabbs(np.zeros(3, np.float32), np.ones(3, np.float32)), ValueError, "number of volumes"),
    (lambda: satc.aabbs(np.zeros((5, 3), np.complex64), np.ones((5, 3))), TypeError, "center"),
    (lambda: satc.obbs(np.zeros((5, 3)), np.zeros((5, 3)), np.ones((5, 3))), ValueError, "axes"),
    (lambda: satc.spheres(np.zeros((5, 3)), np.ones((5, 2))), ValueError, "radius"),
    (lambda: satc.instances(np.zeros((5, 4, 3)), np.zeros(3), np.ones(3)), ValueError, "matrices"),
    (lambda: satc.instances(np.zeros((5, 4, 4)), np.zeros((2, 3)), np.ones((2, 3)), mesh=[0, 1, 2, 1, -1]),
     ValueError, "mesh"),
    (lambda: satc.instances(np.zeros((5, 4, 4)), np.zeros((2, 3)), np.ones((2, 3))), ValueError, "local_center"),
    (lambda: satc.perspective([0, math.nan, 0], [0, 0, -1], [0, 1, 0], 1, 1, 0.1), ValueError, "eye"),
    (lambda: satc.perspective([0, 0, 0], [0, 0, -1], [0, 1, 0], math.inf, 1, 0.1), ValueError, "fovy"),
    (lambda: satc.perspective([0, 0, 0], [0, 0, -1], [0, 1, 0], 1, 1, math.nan), ValueError, "near"),
    (lambda: satc.perspective([0, 0, 0], [0, 0, -1], [0, 1, 0], 1, 1, -1.0), ValueError, "near"),
    (lambda: satc.perspective([0, 0, 0], [0, 0, -1], [0, 1, 0], 1, 1, 1.0, 0.5), ValueError, "far"),
    (lambda: satc.perspective([0, 0, 0], [0, 0, -1], [0, 0.9, 0.1], 1, 1, 0.1), ValueError, "dir, up"),
    (lambda: satc.from_matrix(np.full((4, 4), np.inf)), ValueError, "m"),
    (lambda: satc.from_matrix(np.zeros((4, 4))), ValueError, "m"),
    (lambda: satc.from_matrix(np.eye(3)), ValueError, "m"),
    (lambda: satc.from_intrinsics(np.full((3, 3), np.nan), np.eye(3), np.zeros(3), 10, 10, 0.1),
     ValueError, "K"),
    (lambda: satc.from_intrinsics(np.eye(3), np.eye(3) * 2, np.zeros(3), 10, 10, 0.1), ValueError, "R"),
    (lambda: satc.from_intrinsics(np.eye(3), np.eye(3), [0, 0, np.inf], 10, 10, 0.1), ValueError, "t"),
    (lambda: satc.from_intrinsics(np.eye(3), np.eye(3), np.zeros(3), 10, 10, 0.0), ValueError, "near"),
    (lambda: satc.from_planes(np.zeros((3, 5))), ValueError, "planes"),
    (lambda: satc.box_frustum([0, 0, 0], [1, -1, 1]), ValueError, "half"),
]


@pytest.mark.parametrize("k", range(len(BAD)))
def test_bad_input(k):
    fn, exc, name = BAD[k]
    with pytest.raises(exc, match=name):
        fn()


def test_bad_cull_arguments(rng):
    c, h = scene(rng, 100)
    b = satc.aabbs(c, h)
    f = camera()
    before = (c.copy(), h.copy())
    for call, exc, name in [
        (lambda: satc.cull(b, f), TypeError, "frustum"),
        (lambda: satc.cull(f, c), TypeError, "batch"),
        (lambda: satc.cull(f, b, "fast"), ValueError, "mode"),
        (lambda: satc.cull(f, b, output="list"), ValueError, "output"),
        (lambda: satc.cull(f, b, first=101), ValueError, "first"),
        (lambda: satc.cull(f, b, first=50, count=51), ValueError, "count"),
        (lambda: satc.cull(f, b, isa="mmx"), ValueError, "isa"),
        (lambda: satc.cull_views([], b), ValueError, "frusta"),
        (lambda: satc.cull_views([f, None], b), TypeError, r"frusta\[1\]"),
        (lambda: satc.cull_views([f], b, output="bitmask"), ValueError, "output"),
        (lambda: satc.query_sphere(b, [0, 0, 0], -1.0), ValueError, "radius"),
        (lambda: satc.query_ray(b, [0, 0, math.nan], [1, 0, 0]), ValueError, "origin"),
        (lambda: satc.group_bounds(b), TypeError, "size"),
        (lambda: b.grouped(offsets=[0, 50, 20]), ValueError, "offsets"),
        (lambda: b.grouped(size=10, center=np.zeros((3, 3)), half=np.zeros((3, 3))), ValueError, "center"),
    ]:
        with pytest.raises(exc, match=name):
            call()
    # the inputs are untouched
    assert np.array_equal(before[0], c, equal_nan=True) and np.array_equal(before[1], h)
    with pytest.raises(ValueError, match="FAR|far"):  # exact mode on an unbounded plane volume
        satc.cull(satc.from_planes([[0, 0, -1, -0.1]]), b)
    with pytest.raises(TypeError):
        satc.Frustum()


def test_exact_is_tighter_and_never_loses(rng):
    c, h = scene(rng, 20000)
    R = rotations(rng, 20000).astype(np.float32)
    f = camera()
    for b in (satc.aabbs(c, h), satc.obbs(c, R, h)):
        ex, co = satc.cull(f, b, "exact"), satc.cull(f, b, "conservative")
        assert (co | ~ex).all()  # exact never keeps what conservative culls
        assert (co & ~ex).sum() > 10  # and culls some the plane test keeps


def load_example():
    path = os.path.join(HERE, "..", "examples", "driving_cameras.py")
    spec = importlib.util.spec_from_file_location("driving_cameras", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_example_driving_cameras(tmp_path):
    ex = load_example()
    r = ex.run(1500 if QUICK else 4000, seed=3, svg=str(tmp_path / "d.svg"), loop_sample=50, quiet=True)
    assert r["missed"] > 0  # the corner test misses boxes in view
    assert r["extra"] == 0  # and never finds one satc culls (same view volume)
    assert r["witnessed"] == r["missed"]  # each missed pair checked in double
    assert (tmp_path / "d.svg").read_text().startswith("<svg")
    assert 0 < r["hidden"] == r["hidden_in_view"] < r["seen"]  # occlusion drops boxes in view only


def test_example_wall_across_the_view():
    """A wall in front of the front camera, wider than its view: every
    corner outside the image, the wall in view."""
    ex = load_example()
    cams = ex.make_cameras()
    rec = np.zeros(1, dtype=[("center", "3f4"), ("wlh", "3f4"), ("yaw", "f4"), ("kind", "u1")])
    rec["center"] = [[12.0, 0.0, 1.5]]
    rec["wlh"] = [[0.3, 60.0, 3.0]]  # 60 m long, across the road
    rec["yaw"] = math.pi / 2
    frusta = [ex.satc.from_camera_pose(K, Rc, pos, ex.WIDTH, ex.HEIGHT, ex.NEAR) for _, K, Rc, pos in cams]
    seen = satc.cull_views(frusta, ex.satc_batch(rec))[:, 0]
    corner = ex.corner_test(cams, ex.corners(rec))[:, 0]
    assert seen[0] and not corner[0]
    assert ex.witness_gap(cams[0], rec[0]) <= 0


def test_example_writes_only_where_told(tmp_path, monkeypatch, capsys):
    """No --svg: nothing written (the working directory stays empty); every
    output line fits 120 columns."""
    ex = load_example()
    monkeypatch.chdir(tmp_path)
    assert ex.main(["--boxes", "400"]) == 0
    out = capsys.readouterr().out
    assert os.listdir(tmp_path) == []
    assert out and max(len(line) for line in out.splitlines()) <= 120
    assert ex.main(["--boxes", "200", "--svg", str(tmp_path / "s.svg")]) == 0
    assert os.listdir(tmp_path) == ["s.svg"]
