"""TRS volumes and Gaussian splats (satc.trs, satc.splats) and depth order
(satc.cull_depth, satc.sort_depth), checked two ways:
 - against an oracle in double built here with numpy by another method:
   each volume's OBB from q / |q| (with a square root, the textbook
   matrix) and the true exp, then the separating-axis gap between that OBB
   and the frustum's 8 vertices over all 26 axes: no touching volume is
   culled in either mode, exact mode keeps nothing far outside;
 - against the C library itself (oracle.c: flat arrays, its own batch
   descriptor), bit for bit, on the scalar and the active path."""

import numpy as np
import pytest

import satc
from conftest import QUICK, camera, oracle_classes, scene

N = 1500 if QUICK else 5000


# ---- the double oracle -------------------------------------------------

def rot_matrices(q):
    """(N, 4) quaternions (x, y, z, w) in double -> (N, 3, 3) rotations of
    q / |q|; NaN rows where |q| is 0 or not finite."""
    q = np.asarray(q, np.float64)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        q = q / np.linalg.norm(q, axis=1, keepdims=True)
    x, y, z, w = q.T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], 1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], 1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], 1)], 1)


def obbs_of(p, q, s, lc, lh):
    """Each volume's OBB in double: center, axes (N, 3, 3) as columns of R,
    extents."""
    R = rot_matrices(q)
    s = np.asarray(s, np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        c = np.asarray(p, np.float64) + np.einsum("nij,nj->ni", R, s * lc)
        e = np.abs(s * lh)
    return c, R, e


def frustum_points(f):
    E = np.array(f.origin, np.float64)
    L, U, D = (np.array(r, np.float64) for r in f.frame)
    x0, x1, y0, y1 = f.bounds
    pts = [E + z * (sx * L + sy * U + D) for z in (f.near, f.far) for sx in (x0, x1)
           for sy in (y0, y1)]
    sides = [sx * L + sy * U + D for sx in (x0, x1) for sy in (y0, y1)]
    return np.array(pts), L, U, D, sides


def sat_gap(f, c, R, e):
    """The largest gap between the OBBs and the frustum over the 26
    separating axes (> 0: apart by that much; <= 0: they touch)."""
    pts, L, U, D, sides = frustum_points(f)
    n = len(c)
    fixed = [D, np.cross(U, sides[0]), np.cross(U, sides[2]), np.cross(L, sides[0]),
             np.cross(L, sides[1])]
    axes = [np.broadcast_to(a, (n, 3)) for a in fixed]
    for j in range(3):
        A = R[:, :, j]
        axes.append(A)
        for d in [L, U] + sides:
            axes.append(np.cross(A, d))
    ax = np.stack(axes, 1)  # (n, 26, 3)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        ln = np.linalg.norm(ax, axis=2)
        ok = ln > 1e-9 * np.max(ln, axis=1, keepdims=True)
        a = ax / np.where(ok, ln, 1)[:, :, None]
        bc = np.einsum("nki,ni->nk", a, c)
        br = np.einsum("nj,nkj->nk", e, np.abs(np.einsum("nki,nij->nkj", a, R)))
        fp = np.einsum("nki,vi->nkv", a, pts)
        gap = np.maximum(bc - br - fp.max(2), fp.min(2) - bc - br)
        gap = np.where(ok, gap, -np.inf)
        return gap.max(1)


def check_oracle(f, batch, p, q, s, lc, lh, valid):
    """Both modes against the double oracle; `valid`: volumes whose
    quaternion and fields are finite and usable (the rest must be kept as
    intersecting)."""
    c, R, e = obbs_of(p, q, s, lc, lh)
    gap = sat_gap(f, c, R, e)
    E = np.array(f.origin)
    size = np.nan_to_num(np.abs(c - E).sum(1) + 3 * e.sum(1), posinf=0) + f.far
    touch = valid & (gap <= 1e-9 * size)
    far_out = valid & (gap > 2.0 ** -12 * size)
    res = {}
    for mode in ("conservative", "exact"):
        cls = satc.cull(f, batch, mode, "classes")
        vis = cls != satc.OUTSIDE
        assert not (touch & ~vis).any(), f"{mode}: culls {np.flatnonzero(touch & ~vis)[:5]}"
        assert (cls[~valid] == satc.INTERSECTING).all(), f"{mode}: an invalid volume culled or inside"
        res[mode] = vis
    assert not (far_out & res["exact"]).any(), "exact mode keeps volumes far outside"
    # the scene is hard enough: mixed answers, and the ball of a splat
    # cube (conservative) keeps some the exact test culls
    assert touch.sum() > len(p) // 10 and far_out.sum() > len(p) // 10
    assert (res["conservative"] & ~res["exact"]).sum() > 0
    return res


# ---- scenes ------------------------------------------------------------

def quats(rng, n):
    """Random rotations (x, y, z, w), unnormalised by factors 10^-3..10^3,
    with a few zero and NaN quaternions (never culled)."""
    q = rng.normal(size=(n, 4))
    q *= 10.0 ** rng.uniform(-3, 3, (n, 1))
    q[: n // 50] = 0
    q[n // 50: n // 40, 2] = np.nan
    return q.astype(np.float32)


def splat_scene(rng, n, k=3.0):
    c, h = scene(rng, n)
    s = (h / k).astype(np.float32)
    s[rng.random((n, 3)) < 0.05] *= -1  # a negative scale mirrors
    return c, quats(rng, n), s


def valid_quat(q):
    q = np.asarray(q, np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        n2 = ((q[:, 0] * q[:, 0] + q[:, 1] * q[:, 1]) + q[:, 2] * q[:, 2]) + q[:, 3] * q[:, 3]
    return np.isfinite(n2) & (n2 >= 2.0 ** -64) & (n2 <= 2.0 ** 64)


def finite_rows(*arrays):
    ok = True
    for a in arrays:
        ok = ok & np.isfinite(np.asarray(a, np.float64)).all(1)
    return ok


def cube(n, k):
    return np.zeros((n, 3)), np.full((n, 3), float(k))


# ---- tests -------------------------------------------------------------

def test_float_arrays_splat_cube(rng):
    f = camera()
    k = 2.5
    p, q, s = splat_scene(rng, N, k)
    b = satc.trs(p, q, s, k=k)
    assert b.form == "trs" and b.converted == () and len(b) == N
    lc, lh = cube(N, k)
    valid = valid_quat(q) & finite_rows(p, s)
    check_oracle(f, b, p, q, s, lc, lh, valid)
    for mode in ("conservative", "exact"):
        want = oracle_classes(f, "trs", mode, [*p.T, *q.T, *s.T, *np.zeros((6, N))], k=k)
        assert np.array_equal(satc.cull(f, b, mode, "classes"), want)


def test_ply_fields_log_scale_wxyz(rng):
    """PLY splats: x, y, z, scale_i (logs), rot_i (w first) as fields of
    one record, read in place."""
    f = camera()
    p, q, s = splat_scene(rng, N)
    s = np.abs(s)
    rec = np.zeros(N, [(nm, "f4") for nm in ("x", "y", "z", "nx", "ny", "nz", "f_dc_0",
                                             "opacity", "scale_0", "scale_1", "scale_2",
                                             "rot_0", "rot_1", "rot_2", "rot_3")])
    rec["x"], rec["y"], rec["z"] = p.T
    with np.errstate(divide="ignore"):
        logs = np.log(s).astype(np.float32)
    rec["scale_0"], rec["scale_1"], rec["scale_2"] = logs.T
    rec["rot_0"], rec["rot_1"], rec["rot_2"], rec["rot_3"] = q[:, 3], q[:, 0], q[:, 1], q[:, 2]
    b = satc.trs((rec["x"], rec["y"], rec["z"]),
                 (rec["rot_0"], rec["rot_1"], rec["rot_2"], rec["rot_3"]),
                 (rec["scale_0"], rec["scale_1"], rec["scale_2"]), log_scale=True, wxyz=True)
    assert b.converted == ()
    lc, lh = cube(N, 3.0)
    valid = valid_quat(q) & finite_rows(p, logs)
    check_oracle(f, b, p, q, np.exp(logs.astype(np.float64)), lc, lh, valid)
    want = oracle_classes(f, "trs", "exact", [*p.T, *q.T, *logs.T, *np.zeros((6, N))], flags=1)
    assert np.array_equal(satc.cull(f, b, "exact", "classes"), want)
    # the same volumes with components not adjacent: one float32 copy
    b2 = satc.trs(p, (q[:, 0].copy(), q[:, 1].copy(), q[:, 2].copy(), q[:, 3].copy()), logs,
                  log_scale=True)
    assert b2.converted == ("rotation",)
    assert np.array_equal(satc.cull(f, b2, "exact", "classes"), want)


def splat_records(p, q, s, rng):
    """32-byte .splat records: position, scale, RGBA, rotation bytes
    (w, x, y, z), each component round((c / |q|) * 128 + 128)."""
    n = len(p)
    dt = np.dtype([("position", "<f4", 3), ("scale", "<f4", 3), ("rgba", "u1", 4),
                   ("rot", "u1", 4)])
    rec = np.zeros(n, dt)
    rec["position"], rec["scale"] = p, np.abs(s)
    rec["rgba"] = rng.integers(0, 256, (n, 4))
    with np.errstate(invalid="ignore", divide="ignore"):
        qn = q / np.linalg.norm(q.astype(np.float64), axis=1, keepdims=True)
    qb = np.clip(np.nan_to_num(np.rint(qn * 128 + 128), nan=128), 0, 255).astype(np.uint8)
    qb[: n // 100] = rng.integers(0, 256, (n // 100, 4))  # unnormalised bytes
    qb[n // 100: n // 100 + 3] = 128  # the zero quaternion
    rec["rot"] = qb[:, [3, 0, 1, 2]]
    return rec, qb


def test_splat_records(rng):
    f = camera()
    p, q, s = splat_scene(rng, N)
    rec, qb = splat_records(p, q, s, rng)
    b = satc.splats(rec)
    assert rec.dtype.itemsize == 32 and b.converted == ()
    qf = qb.astype(np.float64) - 128
    lc, lh = cube(N, 3.0)
    s = np.abs(s)
    valid = np.abs(qf).sum(1) > 0
    valid &= finite_rows(p, s)
    check_oracle(f, b, p, qf, s, lc, lh, valid)
    want = {m: oracle_classes(f, "trs", m, [*p.T, *qb.T.astype(np.float32), *s.T,
                                            *np.zeros((6, N))], k=3.0, flags=4)
            for m in ("conservative", "exact")}
    raw = rec.view(np.uint8).reshape(N, 32)
    raw_b = satc.splats(raw)
    # misaligned bytes: read from one aligned copy
    buf = np.zeros(N * 32 + 2, np.uint8)
    mis = buf[2:].reshape(N, 32)
    mis[...] = raw
    mis_b = satc.splats(mis)
    assert raw_b.converted == () and mis_b.converted == ("records",)
    for m in want:
        for bb in (b, raw_b, mis_b):
            assert np.array_equal(satc.cull(f, bb, m, "classes"), want[m])
    # k: the box is k sigma
    k_b = satc.splats(rec, k=1.5)
    assert np.array_equal(satc.cull(f, k_b, "exact", "classes"),
                          oracle_classes(f, "trs", "exact", [*p.T, *qb.T.astype(np.float32), *s.T,
                                                             *np.zeros((6, N))], k=1.5, flags=4))
    # in place: a change to the records is seen by the next cull
    rec["position"][:] = np.array(f.origin, np.float32) - 1000 * np.array(f.frame[2], np.float32)
    valid = (np.abs(qf).sum(1) > 0) & finite_rows(s)
    assert not satc.cull(f, b)[valid].any() and satc.cull(f, b)[~valid].all()


def test_local_boxes_int8_mesh(rng):
    """Instances with a local box per volume, a shared one, and a table
    picked by mesh ids; int8 quaternions."""
    f = camera()
    c, h = scene(rng, N)
    q8 = rng.integers(-127, 128, (N, 4)).astype(np.int8)
    q8[:3] = 0
    s = rng.uniform(0.3, 3, (N, 3)).astype(np.float32)
    lc = rng.uniform(-1, 1, (N, 3)).astype(np.float32)
    lh = (h / s).astype(np.float32)
    valid = (np.abs(q8.astype(int)).sum(1) > 0) & finite_rows(c, lh)
    b = satc.trs(c, q8, s, lc, lh)
    assert b.converted == ()
    check_oracle(f, b, c, q8.astype(np.float64), s, lc, lh, valid)
    want = oracle_classes(f, "trs", "exact", [*c.T, *q8.T.astype(np.float32), *s.T, *lc.T, *lh.T],
                          flags=2 | 8)
    assert np.array_equal(satc.cull(f, b, "exact", "classes"), want)
    # a mesh table: the same boxes as per-volume ones
    tab_c = rng.uniform(-1, 1, (7, 3)).astype(np.float32)
    tab_h = rng.uniform(0.2, 3, (7, 3)).astype(np.float32)
    ids = rng.integers(0, 7, N)
    bm = satc.trs(c, q8, s, tab_c, tab_h, mesh=ids)
    assert bm.converted == ("mesh",)
    bp = satc.trs(c, q8, s, tab_c[ids], tab_h[ids])
    for m in ("conservative", "exact"):
        assert np.array_equal(satc.cull(f, bm, m, "classes"), satc.cull(f, bp, m, "classes"))
    # shared local box, float64 positions converted once
    bs = satc.trs(c.astype(np.float64), q8, s, [0.1, 0.2, 0.3], [1.0, 2.0, 0.5])
    assert bs.converted == ("position", "scale", "local_center", "local_half")
    ones = np.ones((N, 3))
    check_oracle(f, bs, c, q8.astype(np.float64), s, ones * [0.1, 0.2, 0.3], ones * [1, 2, 0.5],
                 (np.abs(q8.astype(int)).sum(1) > 0) & finite_rows(c))


def test_views_and_range(rng):
    f = camera()
    p, q, s = splat_scene(rng, N)
    b = satc.trs(p, q, s)
    views = [f, satc.look_at([0, 0, 0], [1, 0, -3], [0, 1, 0], 0.9, 1.5, 0.2, 90.0)]
    many = satc.cull_views(views, b, "exact")
    for v, fr in enumerate(views):
        assert np.array_equal(many[v], satc.cull(fr, b, "exact"))
    whole = satc.cull(f, b, "exact", "classes")
    assert np.array_equal(satc.cull(f, b, "exact", "classes", first=100, count=500), whole[100:600])
    for isa in satc.isa_runnable():
        assert np.array_equal(satc.cull(f, b, "exact", "classes", isa=isa), whole)


def key16_of(d):
    """floor((d - lo) * s), s = 65535 / (hi - lo) rounded once, as satc.h
    defines key16."""
    fin = np.isfinite(d)
    lo, hi = (float(d[fin].min()), float(d[fin].max())) if fin.any() else (0.0, 0.0)
    with np.errstate(invalid="ignore"):
        t = np.floor((d.astype(np.float64) - lo) * (65535.0 / (hi - lo))) if hi > lo else np.zeros(len(d))
    t = np.where(np.isnan(d) | (d == np.inf), 65535, np.where(d == -np.inf, 0, t))
    return np.clip(np.nan_to_num(t), 0, 65535).astype(np.uint16)


@pytest.mark.parametrize("records", [False, True])
def test_cull_depth(records, rng):
    f = camera()
    p, q, s = splat_scene(rng, N)
    if records:
        rec, _ = splat_records(p, q, s, rng)
        b = satc.splats(rec)
    else:
        lc = rng.uniform(-1, 1, (N, 3)).astype(np.float32)
        b = satc.trs(p, q, np.abs(s), lc, np.ones(3, np.float32))
    want = satc.cull(f, b, "exact", "indices")
    idx, dep, k16, order = satc.cull_depth(f, b)
    assert np.array_equal(idx, want)
    # depth: D.(center - E), the center in double from the same floats
    E = np.array(f.origin, np.float64)
    D = np.array(f.frame[2], np.float64)
    if records:
        cen = p[idx].astype(np.float64)
    else:
        cen, _, _ = obbs_of(p[idx], q[idx], np.abs(s[idx]), lc[idx], np.ones((len(idx), 3)))
    with np.errstate(invalid="ignore"):
        exact = (cen - E) @ D
    fin = np.isfinite(exact) & np.isfinite(dep)
    assert np.array_equal(np.isfinite(exact), np.isfinite(dep))
    assert (np.abs(dep[fin] - exact[fin]) <= 1e-5 * (np.abs(cen[fin] - E).sum(1) + 1)).all()
    assert np.array_equal(k16, key16_of(dep))
    # back to front: decreasing key, equal keys by increasing index
    assert np.array_equal(order, idx[np.lexsort((idx, -k16.astype(np.int64)))])
    # 32-bit keys: the exact float order, NaN farthest
    idx32, dep32, k32, order32 = satc.cull_depth(f, b, "exact", 32)
    assert np.array_equal(idx32, idx) and np.array_equal(dep32, dep, equal_nan=True)
    far = np.where(np.isnan(dep), np.inf, dep.astype(np.float64))
    nan_first = np.isnan(dep).astype(int)
    assert np.array_equal(order32, idx[np.lexsort((idx, -far, -nan_first))])
    assert k32.dtype == np.uint32 and (np.diff(k32[np.argsort(far, kind="stable")].astype(np.int64))[
        ~np.isnan(dep[np.argsort(far, kind="stable")][1:])] >= 0).all()
    # no sort; a sub-range; sort_depth on the depths alone
    i0, d0, kk, oo = satc.cull_depth(f, b, "conservative", None, first=10, count=300)
    assert kk is None and oo is None
    assert np.array_equal(i0, satc.cull(f, b, "conservative", "indices", first=10, count=300))
    for sort, key, o in ((16, k16, order), (32, k32, order32)):
        k2, o2 = satc.sort_depth(dep, idx, sort)
        assert np.array_equal(k2, key) and np.array_equal(o2, o)
    for isa in satc.isa_runnable():
        r = satc.cull_depth(f, b, "exact", 16, isa=isa)
        assert all(np.array_equal(x, y, equal_nan=True) for x, y in zip(r, (idx, dep, k16, order)))


def test_bad_input(rng):
    p, q, s = splat_scene(rng, 10)
    f = camera()
    b = satc.trs(p, q, s)
    for call, exc, name in [
        (lambda: satc.trs(p, q.astype(np.int32), s), TypeError, "rotation"),
        (lambda: satc.trs(p, q[:, :3], s), ValueError, "rotation"),
        (lambda: satc.trs(p, q[:5], s), ValueError, "rotation"),
        (lambda: satc.trs(p, None, s), TypeError, "rotation"),
        (lambda: satc.trs(p[:, :2], q, s), ValueError, "position"),
        (lambda: satc.trs(p, q, s[:4]), ValueError, "scale"),
        (lambda: satc.trs(p, q, s.astype(np.int64)), TypeError, "scale"),
        (lambda: satc.trs(p, q, s, k=0), ValueError, "k"),
        (lambda: satc.trs(p, q, s, k=float("nan")), ValueError, "k"),
        (lambda: satc.trs(p, q, s, np.zeros(3)), TypeError, "local_center"),
        (lambda: satc.trs(p, q, s, mesh=np.zeros(10, np.uint32)), TypeError, "mesh"),
        (lambda: satc.trs(p, q, s, np.zeros((4, 3)), np.ones((4, 3))), ValueError, "local_center"),
        (lambda: satc.trs(p, q, s, np.zeros((4, 3)), np.ones((4, 3)), mesh=np.zeros(9, int)),
         ValueError, "mesh"),
        (lambda: satc.trs(p, q, s, np.zeros((4, 3)), np.ones((4, 3)), mesh=-np.ones(10, int)),
         ValueError, "mesh"),
        (lambda: satc.splats(np.zeros((10, 31), np.uint8)), TypeError, "records"),
        (lambda: satc.splats(np.zeros((10, 8), np.float32)), TypeError, "records"),
        (lambda: satc.splats(b"\0" * 64), TypeError, "records"),
        (lambda: satc.splats(np.zeros((2, 32), np.uint8), k=-1), ValueError, "k"),
        (lambda: satc.cull_depth(f, b, "exact", 8), ValueError, "sort"),
        (lambda: satc.cull_depth(f, b, "exact", "16"), TypeError, "sort"),
        (lambda: satc.cull_depth(satc.from_planes([[0, 0, -1, 5], [0, 0, 1, 5], [1, 0, 0, 5],
                                                   [-1, 0, 0, 5], [0, 1, 0, 5], [0, -1, 0, 5]]), b),
         ValueError, "frustum"),
        (lambda: satc.cull_depth(f, b, first=11), ValueError, "first"),
        (lambda: satc.sort_depth(np.zeros(3, np.float32), np.arange(4)), ValueError, "indices"),
        (lambda: satc.sort_depth(np.zeros(3, np.float32), np.arange(3), None), TypeError, "sort"),
        (lambda: satc.sort_depth(np.zeros(3, np.float32), np.arange(3) - 1), ValueError, "indices"),
        (lambda: satc.sort_depth(["a"], np.arange(1)), TypeError, "depth"),
    ]:
        with pytest.raises(exc, match=name):
            call()


@pytest.mark.parametrize("case", ["mixed", "nonfinite_only", "one_finite", "wide"])
def test_sort_depth_edges(case, rng):
    """Keys and order of hand-picked depths: NaN, +-Inf, +-0, ties,
    denormals, huge values, none or one finite value."""
    base = {
        "mixed": [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 1.0, 2.0, 1e-45, 3.5, -2.0, np.nan],
        "nonfinite_only": [np.nan, np.inf, -np.inf, np.inf, np.nan],
        "one_finite": [np.inf, 7.25, -np.inf, np.nan, 7.25],
        "wide": [-3e38, 3e38, 0.0, 1e-38, -1e-38, 1e38, np.inf],
    }[case]
    d = np.array(base * 50, np.float32)
    rng.shuffle(d)
    # equal keys keep the order of `indices` (increasing, as culls give them)
    pos = np.arange(len(d))
    for idx in (np.sort(rng.permutation(len(d) * 3)[: len(d)]).astype(np.uint32),
                rng.permutation(len(d)).astype(np.uint32)):
        k16, o16 = satc.sort_depth(d, idx, 16)
        assert np.array_equal(k16, key16_of(d))
        assert np.array_equal(o16, idx[np.lexsort((pos, -k16.astype(np.int64)))])
        k32, o32 = satc.sort_depth(d, idx, 32)
        far = np.where(np.isnan(d), np.inf, d.astype(np.float64))
        assert np.array_equal(o32, idx[np.lexsort((pos, -far, -np.isnan(d).astype(int)))])


def test_grouped_and_aabbs(rng):
    """Group bounds leave the answers as they are (also once the ungrouped
    batch, whose local box the grouped one shares, is gone); to_aabbs
    holds each volume's double OBB."""
    f = camera()
    p, q, s = splat_scene(rng, N)
    lc = rng.uniform(-1, 1, (N, 3)).astype(np.float32)
    lh = rng.uniform(0.1, 2, (N, 3)).astype(np.float32)
    cases = [(satc.trs(p, q, s), np.zeros((N, 3)), np.full((N, 3), 3.0)),
             (satc.trs(p, q, s, lc, lh), lc, lh)]
    for b, c0, h0 in cases:
        want = {m: satc.cull(f, b, m, "classes") for m in ("conservative", "exact")}
        cen, half = satc.to_aabbs(b)
        g = b.grouped(size=128)
        del b
        for m in want:
            assert np.array_equal(satc.cull(f, g, m, "classes"), want[m])
        c, R, e = obbs_of(p, q, s, c0, h0)
        ok = valid_quat(q) & finite_rows(p, s, c0, h0)
        reach = np.einsum("nij,nj->ni", np.abs(R), e)  # the OBB's world half extents
        assert (np.abs(c - cen)[ok] + reach[ok] <= half[ok]).all()
