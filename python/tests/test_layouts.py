"""Every form, every layout numpy strides give: satc.cull's answers equal
the C library's own (oracle.c, flat arrays, scalar and active path) bit
for bit, in place where satc's strides express the layout, and through
one conversion otherwise."""

import numpy as np
import pytest

import satc
from conftest import QUICK, camera, oracle_classes, rotations, scene

N = 1500 if QUICK else 4000


def make_form(form, rng, n=N):
    """float32 C arrays for `form` (constructor arguments, in order) and the
    oracle's columns."""
    c, h = scene(rng, n)
    R = rotations(rng, n).astype(np.float32)
    if form == "aabbs":
        return [c, h], [*c.T, *h.T]
    if form == "minmax":
        lo, hi = c - h, c + h
        swap = rng.random(n) < 0.1
        lo[swap], hi[swap] = hi[swap].copy(), lo[swap].copy()
        return [lo, hi], [*lo.T, *hi.T]
    if form == "spheres":
        r = h[:, 0].copy()
        return [c, r], [*c.T, r]
    if form == "obbs":
        return [c, R, h], [*c.T, *R[:, 0].T, *R[:, 1].T, *R[:, 2].T, *h.T]
    if form == "half_axes":
        H = (R * h[:, :, None]).astype(np.float32)
        H[: n // 20, 2] += H[: n // 20, 0] * 0.3  # some sheared
        return [c, H], [*c.T, *H[:, 0].T, *H[:, 1].T, *H[:, 2].T]
    if form == "instances":
        lc = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        lh = rng.uniform(0.1, 2, (n, 3)).astype(np.float32)
        s = rng.uniform(0.5, 4, (n, 1, 3)).astype(np.float32)
        M = np.zeros((n, 4, 4), np.float32)
        M[:, :3, :3] = R * s
        M[:, :3, 3] = c
        M[:, 3, 3] = 1
        rows = [M[:, r, k] for r in range(3) for k in range(4)]
        return [M, lc, lh], [*rows, *lc.T, *lh.T]
    raise AssertionError(form)


def vec3_layout(a, layout):
    """The same values in another memory layout; returns (value, in_place)."""
    n = len(a)
    if layout == "C":
        return a, True
    if layout == "F":
        return np.asfortranarray(a), True
    if layout == "strided":
        big = np.zeros((2 * n, 5), np.float32)
        big[::2, 1:4] = a
        return big[::2, 1:4], True
    if layout in ("records", "records_aligned"):
        dt = np.dtype([("id", "u1"), ("v", "3f4"), ("w", "f8"), ("k", "u2")],
                      align=layout == "records_aligned")
        if layout == "records":  # packed: fields at odd offsets, make v aligned
            dt = np.dtype({"names": ["id", "v", "w"], "formats": ["u4", "3f4", "f8"],
                           "offsets": [0, 4, 16], "itemsize": 28})
        rec = np.zeros(n, dt)
        rec["v"] = a
        return rec["v"], True
    if layout == "soa":
        return tuple(np.ascontiguousarray(a[:, k]) for k in range(3)), True
    if layout == "soa_records":
        rec = np.zeros(n, [("x", "f4"), ("y", "f4"), ("tag", "i4"), ("z", "f4")])
        rec["x"], rec["y"], rec["z"] = a.T
        return (rec["x"], rec["y"], rec["z"]), True
    if layout == "reversed_components":
        b = np.ascontiguousarray(a[:, ::-1])
        return b[:, ::-1], True
    if layout == "float64":
        return a.astype(np.float64), False
    if layout == "negative_stride":
        return np.ascontiguousarray(a[::-1])[::-1], False
    if layout == "big_endian":
        return a.astype(">f4"), False
    if layout == "misaligned":
        return _misaligned(a), False
    if layout == "list":
        return a.tolist(), False
    raise AssertionError(layout)


def _misaligned(a):
    raw = np.zeros(a.nbytes + 2, np.uint8)
    view = np.ndarray(a.shape, np.float32, raw.data, offset=2)
    view[...] = a
    assert view.ctypes.data % 4 != 0
    return view


def mat_layout(m, layout):
    """(N, 3, 3) axes or (N, 4, 4) matrices in another layout."""
    n = len(m)
    if layout == "C":
        return m, True
    if layout == "transposed":  # stored with rows and columns swapped, read as a view
        return np.ascontiguousarray(m.transpose(0, 2, 1)).transpose(0, 2, 1), True
    if layout == "F":
        return np.asfortranarray(m), m.shape[1] == 3 and m.shape[2] == 3
    if layout == "records":
        rec = np.zeros(n, [("tag", "u4"), ("m", m.dtype, m.shape[1:]), ("w", "f4")])
        rec["m"] = m
        return rec["m"], True
    if layout == "float64":
        return m.astype(np.float64), False
    raise AssertionError(layout)


VEC3_LAYOUTS = ["C", "F", "strided", "records", "records_aligned", "soa", "soa_records",
                "reversed_components", "float64", "negative_stride", "big_endian",
                "misaligned", "list"]
FORMS = ["aabbs", "minmax", "spheres", "obbs", "half_axes", "instances"]


def check(frustum, batch, form, cols):
    for mode in ("exact", "conservative"):
        want = oracle_classes(frustum, form, mode, cols)
        got = satc.cull(frustum, batch, mode, "classes")
        assert np.array_equal(got, want), f"{form} {mode}: classes differ"
        # Bool mask, indices, count and bitmask agree with the classes.
        vis = want > 0
        assert np.array_equal(satc.cull(frustum, batch, mode), vis)
        assert np.array_equal(satc.cull(frustum, batch, mode, "indices"), np.flatnonzero(vis))
        assert satc.cull(frustum, batch, mode, "count") == vis.sum()
        assert np.array_equal(satc.cull(frustum, batch, mode, "bitmask"),
                              np.packbits(vis, bitorder="little"))
        # Each runnable path gives the same bits.
        for isa in satc.isa_runnable():
            assert np.array_equal(satc.cull(frustum, batch, mode, "classes", isa=isa), want), isa
    return want


def build(form, args):
    return getattr(satc, form)(*args)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("layout", VEC3_LAYOUTS)
def test_vec3_layouts(form, layout, rng):
    args, cols = make_form(form, rng)
    f = camera()
    new = []
    in_place = True
    for a in args:
        if a.ndim == 2:
            v, ip = vec3_layout(a, layout)
        elif a.ndim == 1:  # radius
            v, ip = (a.astype(np.float64), False) if layout == "float64" else (a, True)
        else:
            v, ip = (a.astype(np.float64), False) if layout == "float64" else (a, True)
        in_place &= ip
        new.append(v)
    batch = build(form, new)
    assert len(batch) == len(args[0])
    assert (batch.converted == ()) == in_place, batch.converted
    want = check(f, batch, form, cols)
    assert 0.05 < (want > 0).mean() < 0.95  # mixed answers: the layouts are tested
    assert (want == 1).any() and (want == 0).any()


@pytest.mark.parametrize("form", ["obbs", "half_axes", "instances"])
@pytest.mark.parametrize("layout", ["C", "transposed", "F", "records", "float64"])
def test_matrix_layouts(form, layout, rng):
    args, cols = make_form(form, rng)
    m, ip = mat_layout(args[1] if form != "instances" else args[0], layout)
    if form == "instances":
        new = [m, args[1], args[2]]
    else:
        new = [args[0], m] + args[2:]
    batch = build(form, new)
    assert (batch.converted == ()) == ip, batch.converted
    check(camera(), batch, form, cols)


@pytest.mark.parametrize("shape", ["rows3", "cols3", "sub3"])
def test_instance_3x4(shape, rng):
    args, cols = make_form("instances", rng)
    M = args[0]
    if shape == "rows3":  # glm-free row-major 3x4 (Bevy-like rows)
        m = np.ascontiguousarray(M[:, :3, :])
    elif shape == "cols3":  # glm mat4x3: four columns of three
        m = np.ascontiguousarray(M[:, :3, :].transpose(0, 2, 1)).transpose(0, 2, 1)
    else:  # the top three rows of 4x4 row-major matrices, as a view
        m = M[:, :3, :]
    batch = satc.instances(m, args[1], args[2])
    assert batch.converted == ()
    check(camera(), batch, "instances", cols)


def test_instances_shared_and_mesh(rng):
    args, cols = make_form("instances", rng)
    M = args[0]
    n = len(M)
    table_c = rng.uniform(-1, 1, (7, 3)).astype(np.float32)
    table_h = rng.uniform(0.1, 3, (7, 3)).astype(np.float32)
    ids = rng.integers(0, 7, n).astype(np.uint32)
    rows = cols[:12]
    batch = satc.instances(M, table_c, table_h, mesh=ids)
    assert batch.converted == ()
    check(camera(), batch, "instances", [*rows, *table_c[ids].T, *table_h[ids].T])
    # int64 ids: converted once after a range check
    b64 = satc.instances(M, table_c, table_h, mesh=ids.astype(np.int64))
    assert b64.converted == ("mesh",)
    check(camera(), b64, "instances", [*rows, *table_c[ids].T, *table_h[ids].T])
    # one local box shared by every instance: a (3,) array, stride 0
    shared = satc.instances(M, table_c[2], table_h[2])
    assert shared.converted == ()
    check(camera(), shared, "instances",
          [*rows, *np.repeat(table_c[2:3], n, 0).T, *np.repeat(table_h[2:3], n, 0).T])


def test_shared_values(rng):
    c, h = scene(rng, N)
    f = camera()
    one = np.float32([0.7, 1.1, 0.4])
    b = satc.aabbs(c, one)
    assert b.converted == ()
    check(f, b, "aabbs", [*c.T, *np.tile(one, (N, 1)).T])
    bb = satc.aabbs(c, np.broadcast_to(one, (N, 3)))  # stride 0 view
    assert bb.converted == ()
    check(f, bb, "aabbs", [*c.T, *np.tile(one, (N, 1)).T])
    s = satc.spheres(c, np.float32(1.5))
    check(f, s, "spheres", [*c.T, np.full(N, 1.5, np.float32)])


def test_in_place_reads_current_values(rng):
    """No copy: writing the arrays after building the batch changes the answer."""
    c, h = scene(rng, 2000)
    f = camera()
    rec = np.zeros(2000, [("center", "3f4"), ("id", "u4"), ("half", "3f4")])
    rec["center"], rec["half"] = c, h
    b = satc.aabbs(rec["center"], rec["half"])
    before = satc.cull(f, b, output="count")
    rec["center"] = np.array(f.origin, np.float32) + 30 * np.array(f.frame[2], np.float32)
    assert satc.cull(f, b, output="count") == 2000 > before
    Fc = np.asfortranarray(c)
    b2 = satc.aabbs(Fc, h)
    Fc[:, 0] = np.nan  # non-finite volumes are never culled
    assert satc.cull(f, b2, output="count") == 2000


def test_range_and_threads(rng):
    """first/count ranges, and threads sharing one batch (the GIL is released)."""
    from concurrent.futures import ThreadPoolExecutor

    c, h = scene(rng, 10000)
    f = camera()
    b = satc.aabbs(c, h)
    whole = satc.cull(f, b, output="classes")
    assert np.array_equal(satc.cull(f, b, output="classes", first=1234, count=4321),
                          whole[1234:1234 + 4321])
    idx = satc.cull(f, b, output="indices", first=500, count=3000)
    assert np.array_equal(idx, 500 + np.flatnonzero(whole[500:3500]))
    with ThreadPoolExecutor(4) as pool:
        parts = list(pool.map(lambda k: satc.cull(f, b, first=k * 2500, count=2500),
                              range(4)))
    assert np.array_equal(np.concatenate(parts), whole > 0)


def test_float64_conversion_contains(rng):
    """float64 volumes whose values are not floats: the converted float32
    volumes contain them (never a false negative for the double boxes)."""
    from fractions import Fraction as Fr

    n = 300
    c = rng.uniform(-1e4, 1e4, (n, 3))
    h = rng.uniform(1e-3, 5, (n, 3))
    b = satc.aabbs(c, h)
    assert b.converted == ("center", "half")
    cf, hf = (np.asarray(a) for a in b.arrays)
    for i in range(n):
        for k in range(3):
            assert Fr(float(cf[i, k])) - Fr(float(hf[i, k])) <= Fr(c[i, k]) - Fr(h[i, k])
            assert Fr(float(cf[i, k])) + Fr(float(hf[i, k])) >= Fr(c[i, k]) + Fr(h[i, k])
    lo, hi = c - h, c + h
    mm = satc.minmax(lo, hi)
    flo, fhi = (np.asarray(a) for a in mm.arrays)
    assert (flo.astype(np.float64) <= lo).all() and (fhi.astype(np.float64) >= hi).all()
    r = h[:, 0]
    sp = satc.spheres(c, r)
    sc, sr = (np.asarray(a) for a in sp.arrays)
    assert (np.linalg.norm(sc.astype(np.float64) - c, axis=1) + r <= sr.astype(np.float64)).all()
    R = rotations(rng, n)
    ob = satc.obbs(c, R, h)
    oc, oa, oe = (np.asarray(a, np.float64) for a in ob.arrays)
    # every corner of the double box lies in the float box (in its axes)
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    for s in signs:
        p = c + np.einsum("nj,njk->nk", s * h, R)
        coef = np.linalg.solve(oa.transpose(0, 2, 1), (p - oc)[:, :, None])[:, :, 0]
        assert (np.abs(coef) <= oe).all()
