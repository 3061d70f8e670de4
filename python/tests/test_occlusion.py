"""Occlusion from Python: pyramids filled from numpy depth images in every
convention and hole encoding, and drawn from boxes and meshes, against
satc's own pyramids (oracle_occlusion.c) bit for bit, and against a ray
cast in double through the depth image's pixels: no box a ray sees is
reported hidden."""

import os
import subprocess
import tempfile
import threading

import numpy as np
import pytest

import satc
from conftest import QUICK

W, H = 160, 90  # the depth image, pixels
NEAR, FAR = 0.5, 200.0
K = np.array([[120.0, 0, 80.0], [0, 120.0, 45.0], [0, 0, 1]])
FORMATS = {"float": 1, "ndc": 2, "linear": 3, "unorm16": 4, "unorm32": 7}
ZERO_TO_ONE, REVERSED, INFINITE_FAR, TOP_DOWN = 2, 4, 8, 16  # satc's convention bits
NEG_ONE_TO_ONE = 0


def yaw_camera(a, pos=(0.0, 0.0, 1.5)):
    """Dataset extrinsics (x right, y down, z forward; world z up) looking along yaw a."""
    f = np.array([np.cos(a), np.sin(a), 0.0])
    R = np.stack([np.cross(f, [0, 0, 1]), [0, 0, -1], f])
    return R, -R @ np.array(pos)


def scene(rng, n_occ=6, n_box=400):
    """Walls across the view and boxes in front, behind and beside them."""
    R, t = yaw_camera(rng.uniform(0, 2 * np.pi))
    C = -R.T @ t
    fwd, right = R[2], R[0]
    occ_c, occ_h = [], []
    for _ in range(n_occ):
        d = rng.uniform(8, 40)
        c = C + d * fwd + rng.uniform(-0.6, 0.6) * d * right + [0, 0, rng.uniform(-1, 2)]
        h = np.abs(rng.uniform(0.3, 1, 3)) + np.abs(right) * rng.uniform(2, 8) + [0, 0, 1.5]
        occ_c.append(c)
        occ_h.append(h)
    d = rng.uniform(2, 80, n_box)
    c = C + d[:, None] * fwd + (rng.uniform(-0.8, 0.8, n_box) * d)[:, None] * right
    c[:, 2] += rng.uniform(-3, 4, n_box)
    h = rng.uniform(0.1, 1.2, (n_box, 3))
    return (R, t, np.array(occ_c, np.float32), np.array(occ_h, np.float32),
            c.astype(np.float32), h.astype(np.float32))


def seen_by(C, dirs, c, h, zmax):
    """Which boxes a ray meets at a view depth <= zmax[ray] (rays in chunks)."""
    out = np.zeros(len(c), bool)
    for k in range(0, len(dirs), 1024):
        t = ray_hits(C, dirs[k:k + 1024], c, h)
        out |= (np.isfinite(t) & (t <= zmax[k:k + 1024, None])).any(axis=0)
    return out


def nearest_hit(C, dirs, c, h):
    return np.concatenate([ray_hits(C, dirs[k:k + 1024], c, h).min(axis=1)
                           for k in range(0, len(dirs), 1024)])


def ray_hits(C, dirs, c, h):
    """Entry parameter t (>= 0) of each ray into each box (inf: a miss), double."""
    c, h = c.astype(np.float64), h.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / dirs[:, None, :]
        t0 = (c - h - C)[None] * inv
        t1 = (c + h - C)[None] * inv
    lo = np.nanmax(np.minimum(t0, t1), axis=2)
    hi = np.nanmin(np.maximum(t0, t1), axis=2)
    lo = np.maximum(lo, 0)
    return np.where(lo <= hi, lo, np.inf)


def pixel_rays(R, t):
    """World origin and directions through the pixel centers (rows top-down);
    each direction's camera z is 1, so t is the view depth."""
    u, v = np.meshgrid(np.arange(W) + 0.5, np.arange(H) + 0.5)
    dc = np.stack([(u - K[0, 2]) / K[0, 0], (v - K[1, 2]) / K[1, 1], np.ones_like(u)], -1)
    return -R.T @ t, (dc.reshape(-1, 3) @ R)


def f_up(x):
    f = np.asarray(x, np.float64).astype(np.float32)
    return np.where(f.astype(np.float64) < x, np.nextafter(f, np.float32(np.inf)), f)


def window(z, z01, rev, inf):
    """Window depth in [0, 1] of view depth z for a projection with NEAR, FAR."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return _window(z, z01, rev, inf)


def _window(z, z01, rev, inf):
    if inf:
        d = NEAR / z if rev else 1 - NEAR / z
    else:
        d = FAR / (FAR - NEAR) - FAR * NEAR / ((FAR - NEAR) * z)
        if rev:
            d = NEAR * (FAR - z) / ((FAR - NEAR) * z)
    return np.where(np.isfinite(z), d, 0.0 if rev else 1.0)


# name: (fill kwargs, encode(z, holes) -> image, the image satc's fill gets, its format and bits)
def encodings():
    out = {}
    for hole in ("nan", "zero"):
        def lin(z, holes, hole=hole):
            img = np.where(np.isfinite(z), z, np.nan if hole == "nan" else 0).astype(np.float32)
            img[holes] = np.nan if hole == "nan" else 0
            ref = np.where(np.isfinite(img) & (img > 0), img, np.inf).astype(np.float32)
            return img, ref
        out[f"linear-f32-{hole}"] = ({"kind": "linear"}, lin, "linear", 0)

    def mm(z, holes):
        img = np.where(np.isfinite(z), np.minimum(np.round(z * 1000), 65535), 0).astype(np.uint16)
        img[holes] = 0
        ref = np.where(img > 0, f_up((img.astype(np.float64) + 1) * 0.001), np.inf).astype(np.float32)
        return img, ref
    out["linear-u16-mm"] = ({"kind": "linear"}, mm, "linear", 0)
    for z01 in (False, True):
        for rev in (False, True):
            for inf in ((False, True) if rev else (False,)):
                def win(z, holes, z01=z01, rev=rev, inf=inf):
                    img = window(z, z01, rev, inf).astype(np.float32)
                    img[holes] = np.nan
                    ref = np.where(np.isnan(img), np.float32(0 if rev else 1), img).astype(np.float32)
                    return img, ref
                bits = (ZERO_TO_ONE if z01 else NEG_ONE_TO_ONE) | (REVERSED if rev else 0) | \
                    (INFINITE_FAR if inf else 0)
                kw = {"kind": "window", "near": NEAR, "far": FAR, "zero_to_one": z01, "reversed": rev,
                      "infinite_far": inf}
                out[f"window-f32-{'d3d' if z01 else 'gl'}{'-rev' if rev else ''}{'-inf' if inf else ''}"] = \
                    (kw, win, "float", bits)

    def u16(z, holes):  # holes as a chosen value (0 here), given as hole=0
        img = np.round(window(z, True, False, False) * 65535).astype(np.uint16)
        img[holes] = 0
        return img, np.where(img == 0, np.uint16(65535), img)
    out["window-unorm16-hole0"] = ({"kind": "window", "near": NEAR, "far": FAR, "zero_to_one": True,
                                    "hole": 0}, u16, "unorm16", ZERO_TO_ONE)

    def ndc(z, holes):
        img = (2 * window(z, False, False, False) - 1).astype(np.float32)
        img[holes] = np.nan
        ref = np.where(np.isnan(img), np.float32(1), img).astype(np.float32)
        return img, ref
    out["ndc-gl"] = ({"kind": "ndc", "near": NEAR, "far": FAR}, ndc, "ndc", NEG_ONE_TO_ONE)
    return out


ENCODINGS = encodings()


def oracle(frustum, pw, ph, op, payload, mode, qc, qh, test=(0, 0)):
    """satc's pyramid levels and occlusion classes (scalar and active path);
    test: the flags and budget of satc_pyramid_set_test."""
    exe = os.environ.get("SATC_PY_ORACLE_OCCLUSION")
    if not exe:
        pytest.skip("SATC_PY_ORACLE_OCCLUSION is not set: run through `meson test` (python suite)")
    with tempfile.TemporaryDirectory() as d:
        inp, out = os.path.join(d, "in"), os.path.join(d, "out")
        with open(inp, "wb") as fh:
            fh.write(frustum.raw)
            fh.write(np.array([pw, ph], np.uint32).tobytes() + np.array([op], np.int32).tobytes())
            fh.write(payload)
            fh.write(np.array(test, np.uint32).tobytes())
            fh.write(np.array([{"exact": 1, "conservative": 0}[mode]], np.int32).tobytes())
            fh.write(np.array([len(qc)], np.int64).tobytes())
            fh.write(np.ascontiguousarray(np.concatenate([qc.T, qh.T]), np.float32).tobytes())
        subprocess.run([exe, inp, out], check=True)
        res = np.fromfile(out, np.uint8)
    n = len(qc)
    texels = res[: len(res) - 2 * n].view(np.float32)
    scalar, active = res[len(res) - 2 * n: len(res) - n], res[len(res) - n:]
    assert np.array_equal(scalar, active), "oracle: the active path differs from scalar"
    return texels, scalar


def levels(p):
    return np.concatenate([p.level(k).ravel() for k in range(p.levels)])


def image_payload(ref, fmt, bits):
    es = ref.dtype.itemsize
    return (np.array([FORMATS[fmt]], np.int32).tobytes() + np.array([bits | TOP_DOWN], np.uint32).tobytes()
            + np.array([NEAR, FAR], np.float32).tobytes() + np.array([W, H], np.uint32).tobytes()
            + np.array([es], np.int32).tobytes() + np.ascontiguousarray(ref).tobytes())


def depth_of(R, t, oc, oh, rng):
    C, dirs = pixel_rays(R, t)
    z = nearest_hit(C, dirs, oc, oh)
    holes = np.zeros(W * H, bool)
    holes[rng.choice(W * H, W * H // 20, replace=False)] = True  # sensor dropouts
    return C, dirs, z.reshape(H, W), holes.reshape(H, W)


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_fill_against_c_and_rays(name, rng):
    kw, enc, fmt, bits = ENCODINGS[name]
    hidden_total = 0
    for trial in range(1 if QUICK else 2):
        R, t, oc, oh, qc, qh = scene(rng)
        cam = satc.from_intrinsics(K, R, t, W, H, NEAR, FAR)
        C, dirs, z, holes = depth_of(R, t, oc, oh, rng)
        img, ref = enc(z, holes)
        before = img.copy()
        p = satc.Pyramid(cam, 64 + 16 * trial, 32 + 8 * trial).fill(img, **kw)
        assert np.array_equal(img, before, equal_nan=img.dtype.kind == "f")  # read only
        boxes = satc.aabbs(qc, qh)
        for mode in ("exact", "conservative"):
            texels, cls = oracle(cam, p.width, p.height, 1, image_payload(ref, fmt, bits), mode, qc, qh)
            assert np.array_equal(levels(p), texels)
            got = satc.cull(p, boxes, mode, "classes")
            assert np.array_equal(got, cls)
            for isa in satc.isa_runnable() if mode == "exact" else ():
                assert np.array_equal(satc.cull(p, boxes, mode, "classes", isa=isa), cls)
        # rays through the pixels the image holds: a box a ray meets before the
        # surface the pixel saw (or through a hole) is never hidden
        zq = np.where(holes.ravel(), np.inf, z.ravel())
        seen = seen_by(C, dirs, qc, qh, zq)
        cls = satc.cull(p, boxes, "exact", "classes")
        assert not (seen & (cls == satc.OCCLUDED)).any()
        vis = satc.visibility(p, boxes)
        assert (vis[seen] > 0).all() and ((vis >= 0) & (vis <= 1)).all()
        assert (vis[cls == satc.OCCLUDED] == 0).all() and (vis[cls == 0] == 0).all()
        hidden_total += int((cls == satc.OCCLUDED).sum())
        # the same image upside down with top_down=False, read in place: the same pyramid
        q = satc.Pyramid(cam, p.width, p.height).fill(img[::-1], **kw, top_down=False)
        assert np.array_equal(levels(q), levels(p))
    assert hidden_total > 0  # the scenes hide something


def projection_of(z01, rev, inf):
    """The float32 projection of the window encodings' depth (rows: x, y, z,
    w; the camera looks along +z, so w = z): NDC z = P + Q / d."""
    lo = 0.0 if z01 else -1.0
    zn, zf = (1.0, lo) if rev else (lo, 1.0)
    if inf:
        P, Q = zf, (zn - zf) * NEAR
    else:
        Q = (zn - zf) * NEAR * FAR / (FAR - NEAR)
        P = zf - Q / FAR
    m = np.zeros((4, 4))
    m[0, 0], m[1, 1], m[2, 2], m[2, 3], m[3, 2] = 1.0, 1.0, P, Q, 1.0
    return m.astype(np.float32)


@pytest.mark.parametrize("name", sorted(n for n, e in ENCODINGS.items() if e[0]["kind"] != "linear"))
def test_fill_by_projection_against_c_and_rays(name, rng):
    kw, enc, fmt, bits = ENCODINGS[name]
    m = projection_of(kw.get("zero_to_one", False), kw.get("reversed", False), kw.get("infinite_far", False))
    by_matrix = {k: v for k, v in kw.items() if k not in ("near", "far", "infinite_far")}
    R, t, oc, oh, qc, qh = scene(rng)
    cam = satc.from_intrinsics(K, R, t, W, H, NEAR, FAR)
    C, dirs, z, holes = depth_of(R, t, oc, oh, rng)
    img, ref = enc(z, holes)
    p = satc.Pyramid(cam, 64, 32).fill(img, **by_matrix, projection=m)
    boxes = satc.aabbs(qc, qh)
    payload = image_payload(ref, fmt, bits & ~INFINITE_FAR) + m.tobytes()
    texels, cls = oracle(cam, 64, 32, 5, payload, "exact", qc, qh)
    assert np.array_equal(levels(p), texels)
    assert np.array_equal(satc.cull(p, boxes, "exact", "classes"), cls)
    seen = seen_by(C, dirs, qc, qh, np.where(holes.ravel(), np.inf, z.ravel()))
    assert not (seen & (cls == satc.OCCLUDED)).any()
    # a column-major list of 16 goes through reshape and transpose
    q = satc.Pyramid(cam, 64, 32).fill(img, **by_matrix, projection=np.reshape(m.T.ravel(), (4, 4)).T)
    assert np.array_equal(levels(q), texels)


def test_fill_projection_errors():
    cam = satc.perspective([0, 0, 0], [0, 0, 1], [0, 1, 0], 1.0, 16 / 9, NEAR, FAR)
    img = np.full((9, 16), 0.5, np.float32)
    m = projection_of(False, False, False)
    p = satc.Pyramid(cam, 64, 32)
    with pytest.raises(TypeError, match="linear depth needs none"):
        p.fill(img * 10, "linear", projection=m)
    with pytest.raises(TypeError, match="replaces near, far"):
        p.fill(img, "window", near=NEAR, projection=m)
    with pytest.raises(TypeError, match="replaces near, far"):
        p.fill(img, "window", infinite_far=True, projection=m)
    with pytest.raises(ValueError, match=r"projection: expected shape \(4, 4\)"):
        p.fill(img, "window", projection=m[:3, :3])
    with pytest.raises(TypeError, match="projection: expected a 4x4 array"):
        p.fill(img, "window", projection="m")
    bad = m.copy()
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match=r"element \(1, 2\) is not finite"):
        p.fill(img, "window", projection=bad)
    # x in w: not a perspective the pyramid's view fits; nothing written
    bad = m.copy()
    bad[3, 0] = 0.5
    with pytest.raises(ValueError, match="fill: projection"):
        p.fill(img, "window", projection=bad)
    assert np.isinf(p.depth).all()
    # a window depth of 0.5 through the projection: the wall's depth, never nearer
    p.fill(img, "window", projection=m)
    ndc = 2 * 0.5 - 1
    wall = (2 * FAR * NEAR / (FAR - NEAR)) / ((FAR + NEAR) / (FAR - NEAR) - ndc)
    assert (p.depth >= np.float32(wall) * (1 - 1e-6)).all() and (p.depth < wall * 1.001).all()


def test_rasterized_occluders_against_c(rng):
    for trial in range(3):
        R, t, oc, oh, qc, qh = scene(rng)
        cam = satc.from_intrinsics(K, R, t, W, H, NEAR)
        p = satc.Pyramid(cam, 128, 64).rasterize(satc.aabbs(oc, oh))
        payload = np.array([len(oc)], np.int64).tobytes() + np.ascontiguousarray(
            np.concatenate([oc.T, oh.T]), np.float32).tobytes()
        texels, cls = oracle(cam, 128, 64, 2, payload, "exact", qc, qh)
        assert np.array_equal(levels(p), texels)
        assert np.array_equal(satc.cull(p, satc.aabbs(qc, qh), output="classes"), cls)
        assert (cls == satc.OCCLUDED).any()
        # the boxes as triangle meshes ((V, 3), (F, 3)), int64 faces converted
        corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], np.float64)
        quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
        tri = np.array([[a, b, c] for q in quads for a, b, c in ((q[0], q[1], q[2]), (q[0], q[2], q[3]))])
        V = np.concatenate([oc[i] + corners * oh[i] for i in range(len(oc))]).astype(np.float32)
        F = np.concatenate([tri + 8 * i for i in range(len(oc))]).astype(np.int64)
        m = satc.Pyramid(cam, 128, 64).rasterize_mesh(V, F)
        payload = (np.array([len(V)], np.int64).tobytes() + V.tobytes() +
                   np.array([len(F)], np.int64).tobytes() + F.astype(np.uint32).tobytes() +
                   np.array([0], np.uint32).tobytes())
        texels, cls = oracle(cam, 128, 64, 3, payload, "exact", qc, qh)
        assert np.array_equal(levels(m), texels)
        assert np.array_equal(satc.cull(m, satc.aabbs(qc, qh), output="classes"), cls)
        assert np.array_equal(levels(satc.Pyramid(cam, 128, 64).rasterize_mesh(V, F.astype(np.uint32))),
                              texels)


def strips(n=100, depth=30.0):
    """Upright boxes across the view of merge_camera() at 128 x 64 texels, each
    3/4 of a texel wide, every 3/8 of a texel: no box covers a texel's width
    alone, but neighbours overlap by more than a cell (1/4 of a texel)."""
    texel = 2 * depth * np.tan(0.6) * 2.0 / 128
    x = (np.arange(n) - n / 2 + 0.5) * 0.375 * texel
    c = np.stack([x, np.zeros(n), np.full(n, depth)], 1).astype(np.float32)
    h = np.tile([0.375 * texel, 4.0, 0.5], (n, 1)).astype(np.float32)
    return c, h


def merge_camera():
    return satc.perspective([0, 0, 0], [0, 0, 1], [0, 1, 0], 1.2, 2.0, 0.5, 500)


def test_merged_occluders_against_c(rng):
    cam = merge_camera()
    for trial in range(3):
        c, h = strips(n=int(rng.integers(60, 150)), depth=float(rng.uniform(10, 60)))
        order = rng.permutation(len(c))
        c, h = c[order], h[order]
        split = int(rng.integers(1, len(c)))
        p = satc.Pyramid(cam, 128, 64, merge=True)
        assert p.merge and "merged" in repr(p)
        p.rasterize(satc.aabbs(c[:split], h[:split])).rasterize(satc.aabbs(c[split:], h[split:]))
        # queries behind the strips (and a few in front of them)
        ext = float(np.abs(c[:, 0]).max()) * 80.0 / float(c[0, 2])
        qc = np.stack([rng.uniform(-ext, ext, 300), rng.uniform(-5, 5, 300),
                       np.where(np.arange(300) % 10 == 0, 5.0, 80.0)], 1).astype(np.float32)
        qh = np.full((300, 3), 0.3, np.float32)
        payload = (np.array([split, len(c)], np.int64).tobytes() +
                   np.ascontiguousarray(np.concatenate([c.T, h.T]), np.float32).tobytes())
        texels, cls = oracle(cam, 128, 64, 4, payload, "exact", qc, qh)
        assert np.array_equal(levels(p), texels)
        assert np.array_equal(satc.cull(p, satc.aabbs(qc, qh), output="classes"), cls)
        # merged, the strips hide more than drawn one at a time
        plain = satc.Pyramid(cam, 128, 64).rasterize(satc.aabbs(c, h))
        assert np.isfinite(p.depth).sum() > np.isfinite(plain.depth).sum()
        hidden = cls == satc.OCCLUDED
        hidden_plain = satc.cull(plain, satc.aabbs(qc, qh), output="classes") == satc.OCCLUDED
        assert (hidden >= hidden_plain).all() and hidden.sum() > hidden_plain.sum()
        assert not hidden[::10].any()  # in front of the strips


def test_merged_layers_start_again_on_clear_and_fill():
    cam = merge_camera()
    c, h = strips()
    odd, even = satc.aabbs(c[1::2], h[1::2]), satc.aabbs(c[::2], h[::2])
    alone = satc.Pyramid(cam, 128, 64, merge=True).rasterize(even).depth.copy()
    p = satc.Pyramid(cam, 128, 64, merge=True).rasterize(odd)
    both = p.rasterize(even).depth.copy()
    assert np.isfinite(both).sum() > np.isfinite(alone).sum()
    # after clear(), the odd strips' cells are gone: the even ones alone
    assert np.array_equal(p.clear().rasterize(even).depth, alone)
    # after fill(), likewise (a far image: every texel finite, the strips nearer)
    p.clear().rasterize(odd)
    far = np.full((64, 128), 400.0, np.float32)
    filled = satc.Pyramid(cam, 128, 64, merge=True).fill(far).rasterize(even).depth
    assert np.array_equal(p.fill(far).rasterize(even).depth, filled)
    assert not satc.Pyramid(cam, 128, 64).merge


def oblique_scene():
    """A long box seen obliquely (x in [8, 9], z in [23, 79]) in a linear depth
    image of merge_camera(): 20 where |x/z| >= 0.14 at a column's center, 28
    nearer the axis. Its nearest depth 23 is beyond the outer texels only; the
    last box, in front of the image, is seen."""
    cam = merge_camera()
    u = ((np.arange(128) + 0.5) / 128 * 2 - 1) * np.tan(0.6) * 2.0
    img = np.tile(np.where(np.abs(u) < 0.14, 28.0, 20.0), (64, 1)).astype(np.float32)
    qc = np.array([[8.5, 0, 51], [-8.5, 0, 51], [8.5, 0, 15.5]], np.float32)
    qh = np.array([[0.5, 0.75, 28], [0.5, 0.75, 28], [0.5, 0.75, 3]], np.float32)
    return cam, img, qc, qh


def seen_in_image(img, qc, qh, sub=8):
    """Which boxes a ray through the image meets before its pixel's depth: rays
    (x/z, y/z) = (u, v) on a sub x sub grid per pixel, pixel edges included, in
    double (the image is constant down its columns)."""
    hu, hv = np.tan(0.6) * 2.0, np.tan(0.6)
    g = np.linspace(0, 1, sub)
    u = ((np.arange(128)[:, None] + g) / 128 * 2 - 1).ravel() * hu
    v = ((np.arange(64)[:, None] + g) / 64 * 2 - 1).ravel() * hv
    zpix = np.repeat(img[0].astype(np.float64), sub)
    lo, hi = qc.astype(np.float64) - qh, qc.astype(np.float64) + qh
    seen = []
    with np.errstate(divide="ignore"):  # u or v = 0: the slab is all or nothing
        zu = [np.sort(np.stack([lo[k, 0] / u, hi[k, 0] / u]), axis=0) for k in range(len(qc))]
        zv = [np.sort(np.stack([lo[k, 1] / v, hi[k, 1] / v]), axis=0) for k in range(len(qc))]
    for k in range(len(qc)):
        # the ray z (u, v, 1) is in the box for z in [max of the entries, min of the exits]
        z0 = np.maximum(np.maximum(zu[k][0][:, None], zv[k][0][None, :]), lo[k, 2])
        z1 = np.minimum(np.minimum(zu[k][1][:, None], zv[k][1][None, :]), hi[k, 2])
        seen.append(bool(((z0 <= z1) & (z0 <= zpix[:, None])).any()))
    return np.array(seen)


def test_depth_per_texel_against_c(rng):
    cases = [(None, 4096), (0, 0), (3, 3), (10 ** 6, 10 ** 6)]
    for trial, (budget, want) in enumerate(cases):
        R, t, oc, oh, qc, qh = scene(rng, n_box=600)
        # long boxes along the view, some of them: the option's case
        qh[::3] *= np.array([1, 1, 1], np.float32) + 8 * np.abs(R[2]).astype(np.float32)
        cam = satc.from_intrinsics(K, R, t, W, H, NEAR)
        p = satc.Pyramid(cam, 128, 64, depth_per_texel=True, test_budget=budget)
        assert p.depth_per_texel and p.test_budget == want and "depth per texel" in repr(p)
        p.rasterize(satc.aabbs(oc, oh))
        payload = np.array([len(oc)], np.int64).tobytes() + np.ascontiguousarray(
            np.concatenate([oc.T, oh.T]), np.float32).tobytes()
        b = satc.aabbs(qc, qh)
        plain = satc.cull(satc.Pyramid(cam, 128, 64).rasterize(satc.aabbs(oc, oh)), b,
                          output="classes") == satc.OCCLUDED
        for mode in ("exact", "conservative"):
            texels, cls = oracle(cam, 128, 64, 2, payload, mode, qc, qh, test=(1, want))
            assert np.array_equal(levels(p), texels)
            assert np.array_equal(satc.cull(p, b, mode, "classes"), cls)
            for isa in satc.isa_runnable():
                assert np.array_equal(satc.cull(p, b, mode, "classes", isa=isa), cls)
        hidden = satc.cull(p, b, output="classes") == satc.OCCLUDED
        assert (hidden >= plain).all()
        if want == 0:
            assert np.array_equal(hidden, plain)
    # boxes along the view (some seen obliquely) behind a two-depth image
    cam = merge_camera()
    u = ((np.arange(128) + 0.5) / 128 * 2 - 1) * np.tan(0.6) * 2.0
    n, more_total = 800 if QUICK else 3000, 0
    for budget, want in cases:
        x0, w, zn = rng.uniform(0.5, 10, n), rng.uniform(0.2, 3, n), rng.uniform(10, 40, n)
        L, hy = rng.uniform(5, 200, n), rng.uniform(0.2, 3, n)
        qc = np.stack([(x0 + w / 2) * rng.choice([-1, 1], n), np.zeros(n), zn + L / 2], 1).astype(np.float32)
        qh = np.stack([w / 2, hy, L / 2], 1).astype(np.float32)
        b = satc.aabbs(qc, qh)
        img = np.tile(np.where(np.abs(u) < rng.uniform(0.1, 0.3), rng.uniform(22, 30), rng.uniform(8, 20)),
                      (64, 1)).astype(np.float32)
        p = satc.Pyramid(cam, 128, 64, depth_per_texel=True, test_budget=budget).fill(img)
        payload = (np.array([FORMATS["linear"], TOP_DOWN], np.int32).tobytes() + np.zeros(2, np.float32).tobytes()
                   + np.array([128, 64, 4], np.int32).tobytes() + img.tobytes())
        texels, cls = oracle(cam, 128, 64, 1, payload, "exact", qc, qh, test=(1, want))
        assert np.array_equal(levels(p), texels)
        for isa in satc.isa_runnable():
            assert np.array_equal(satc.cull(p, b, output="classes", isa=isa), cls)
        plain = satc.cull(satc.Pyramid(cam, 128, 64).fill(img), b, output="classes") == satc.OCCLUDED
        more = (cls == satc.OCCLUDED) & ~plain
        assert ((cls == satc.OCCLUDED) >= plain).all()
        assert more.sum() <= want  # each volume hidden only per texel spent a bound
        k = np.flatnonzero(more)[:40]
        assert not seen_in_image(img, qc[k], qh[k], sub=4).any()  # rays see none of them
        more_total += int(more.sum()) if want >= 4096 else 0
    assert more_total > 0


def test_depth_per_texel_hides_the_oblique_box():
    cam, img, qc, qh = oblique_scene()
    b = satc.aabbs(qc, qh)
    assert list(seen_in_image(img, qc, qh)) == [False, False, True]
    assert list(seen_in_image(img * 0 + 100, qc, qh)) == [True, True, True]  # the check can fail
    plain = satc.Pyramid(cam, 128, 64).fill(img)
    assert not plain.depth_per_texel and plain.test_budget is None
    assert list(satc.cull(plain, b, output="classes") == satc.OCCLUDED) == [False, False, False]
    p = satc.Pyramid(cam, 128, 64, depth_per_texel=True).fill(img)
    want = [True, True, False]
    assert list(satc.cull(p, b, output="classes") == satc.OCCLUDED) == want
    payload = (np.array([FORMATS["linear"], TOP_DOWN], np.int32).tobytes() + np.zeros(2, np.float32).tobytes()
               + np.array([128, 64, 4], np.int32).tobytes() + img.tobytes())
    _, cls = oracle(cam, 128, 64, 1, payload, "exact", qc, qh, test=(1, 4096))
    assert np.array_equal(satc.cull(p, b, output="classes"), cls)
    # each view of cull_views tests as its own pyramid says
    got = satc.cull_views([p, plain, p], b, output="classes")
    assert np.array_equal(got[0], cls) and np.array_equal(got[2], cls)
    assert np.array_equal(got[1], satc.cull(plain, b, output="classes"))
    # the option lasts through clear(), fill() and draws
    p.clear()
    assert not (satc.cull(p, b, output="classes") == satc.OCCLUDED).any()
    assert list(satc.cull(p.fill(img), b, output="classes") == satc.OCCLUDED) == want
    assert p.depth_per_texel and p.test_budget == 4096
    # a budget of 0: the plain test
    z = satc.Pyramid(cam, 128, 64, depth_per_texel=True, test_budget=0).fill(img)
    assert not (satc.cull(z, b, output="classes") == satc.OCCLUDED).any()


def test_views_and_groups_with_pyramids(rng):
    R, t, oc, oh, qc, qh = scene(rng)
    cam = satc.from_intrinsics(K, R, t, W, H, NEAR)
    p = satc.Pyramid(cam).rasterize(satc.aabbs(oc, oh))
    b = satc.aabbs(qc, qh)
    one = satc.cull(p, b, output="classes")
    other = satc.look_at([0, 0, 1.5], [1, 0, 1.5], [0, 0, 1], 1.0, 1.6, 0.5)
    got = satc.cull_views([p, other, p], b, output="classes")
    assert np.array_equal(got[0], one) and np.array_equal(got[2], one)
    assert np.array_equal(got[1], satc.cull(other, b, output="classes"))
    assert np.array_equal(satc.cull_views([p], b), one[None] % 3 > 0)
    assert np.array_equal(satc.cull(p, b, output="indices"), np.flatnonzero(one % 3 > 0))
    # threads cull one pyramid at once
    res = [None] * 4
    q = len(qc) // 4

    def work(k):
        res[k] = satc.cull(p, b, output="classes", first=k * q, count=q)
    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    [x.start() for x in ts]
    [x.join() for x in ts]
    assert np.array_equal(np.concatenate(res), one[: 4 * q])


def test_bad_input_names_the_argument_and_writes_nothing(rng):
    R, t, oc, oh, qc, qh = scene(rng)
    cam = satc.from_intrinsics(K, R, t, W, H, NEAR)
    p = satc.Pyramid(cam, 64, 32).rasterize(satc.aabbs(oc, oh))
    kept = levels(p).copy()
    img = np.full((H, W), 10, np.float32)
    bad = [
        (lambda: satc.Pyramid(cam, 32, 32), ValueError, "width"),
        (lambda: satc.Pyramid(cam, 64, 2048), ValueError, "height"),
        (lambda: satc.Pyramid(cam, 64.0, 32), TypeError, "width"),
        (lambda: satc.Pyramid(satc.from_planes([[1, 0, 0, 1]]), 64, 32), ValueError, "frustum"),
        (lambda: satc.Pyramid("cam"), TypeError, "frustum"),
        (lambda: satc.Pyramid(cam, 64, 32, test_budget=10), TypeError, "test_budget"),
        (lambda: satc.Pyramid(cam, 64, 32, depth_per_texel=True, test_budget=-1), ValueError, "test_budget"),
        (lambda: satc.Pyramid(cam, 64, 32, depth_per_texel=True, test_budget=2 ** 32), ValueError,
         "test_budget"),
        (lambda: satc.Pyramid(cam, 64, 32, depth_per_texel=True, test_budget=2 ** 70), ValueError,
         "test_budget"),
        (lambda: satc.Pyramid(cam, 64, 32, depth_per_texel=True, test_budget=1.0), TypeError, "test_budget"),
        (lambda: satc.Pyramid(cam, 64, 32, depth_per_texel=True, test_budget=True), TypeError, "test_budget"),
        (lambda: p.fill(img.astype(np.int8)), TypeError, "depth"),
        (lambda: p.fill(img[0]), ValueError, "depth"),
        (lambda: p.fill(img, "meters"), ValueError, "kind"),
        (lambda: p.fill(img, "window", far=10), TypeError, "near"),
        (lambda: p.fill(img, "window", near=1), TypeError, "far"),
        (lambda: p.fill(img, "window", near=1, far=0.5), ValueError, "far"),
        (lambda: p.fill(img, "window", near=-1, far=5), ValueError, "near"),
        (lambda: p.fill(img, scale=0), ValueError, "scale"),
        (lambda: p.fill(img, "window", near=1, far=5, scale=2), TypeError, "scale"),
        (lambda: p.fill(img, hole="x"), TypeError, "hole"),
        (lambda: p.rasterize(qc), TypeError, "batch"),
        (lambda: p.rasterize(satc.aabbs(qc, qh), min_texels=-1), ValueError, "min_texels"),
        (lambda: p.rasterize(satc.aabbs(qc, qh), count=10 ** 6), ValueError, "count"),
        (lambda: p.rasterize_mesh(np.zeros((3, 2))), ValueError, "vertices"),
        (lambda: p.rasterize_mesh(np.zeros((4, 3))), ValueError, "vertices"),
        (lambda: p.rasterize_mesh(np.zeros((3, 3)), np.array([[0, 1, 5]])), ValueError, "faces"),
        (lambda: p.rasterize_mesh(np.zeros((3, 3)), np.array([[0, 1, 2.0]])), TypeError, "faces"),
        (lambda: p.rasterize_mesh(np.zeros((3, 3)), np.array([[0, 1, 3]], np.uint32)), ValueError, "faces"),
        (lambda: p.level(p.levels), ValueError, "level"),
        (lambda: satc.visibility(cam, satc.aabbs(qc, qh)), TypeError, "pyramid"),
        (lambda: satc.cull_views([p], satc.aabbs(qc, qh), isa="scalar"), ValueError, "isa"),
        (lambda: satc.cull(oc, satc.aabbs(qc, qh)), TypeError, "frustum"),
    ]
    for call, exc, word in bad:
        with pytest.raises(exc) as e:
            call()
        assert str(e.value).startswith(word) or f"{word}:" in str(e.value), (word, str(e.value))
    assert np.array_equal(levels(p), kept)
    with pytest.raises(ValueError):
        p.depth[0, 0] = 1.0  # read-only views
