"""Shared helpers: scenes with mixed answers, and satc's own answers from
the C oracle program (oracle.c), which builds its batch from flat arrays
without the extension."""

import os
import subprocess
import tempfile

import numpy as np
import pytest

import satc

FORM_IDS = {"obbs": 1, "aabbs": 2, "minmax": 3, "half_axes": 4, "instances": 5, "spheres": 6,
            "trs": 7}
MODES = {"conservative": 0, "exact": 1}
QUICK = bool(os.environ.get("SATC_TEST_QUICK"))


def oracle_classes(frustum, form, mode, columns, k=0.0, flags=0):
    """Class bytes from the C library called by oracle.c on SoA float32
    columns (the scalar path's and the active path's); k and flags: the
    TRS form's splat size and flags (see oracle.c)."""
    exe = os.environ.get("SATC_PY_ORACLE")
    if not exe:
        pytest.skip("SATC_PY_ORACLE is not set: run through `meson test` (python suite)")
    cols = [np.ascontiguousarray(c, dtype=np.float32) for c in columns]
    n = len(cols[0])
    with tempfile.TemporaryDirectory() as d:
        inp, out = os.path.join(d, "in"), os.path.join(d, "out")
        with open(inp, "wb") as fh:
            fh.write(frustum.raw)
            fh.write(np.array([FORM_IDS[form], MODES[mode]], np.int32).tobytes())
            fh.write(np.array([n], np.int64).tobytes())
            if form == "trs":
                fh.write(np.array([k], np.float32).tobytes())
                fh.write(np.array([flags], np.int32).tobytes())
            for c in cols:
                assert c.shape == (n,)
                fh.write(c.tobytes())
        subprocess.run([exe, inp, out], check=True)
        res = np.fromfile(out, np.uint8)
    assert res.shape == (2 * n,)
    scalar, active = res[:n], res[n:]
    assert np.array_equal(scalar, active), "oracle: the active path differs from scalar"
    return scalar


def camera():
    """A perspective camera with an off-axis view (mixed answers below)."""
    return satc.look_at([1.5, 2.0, -3.0], [20.0, 1.0, -60.0], [0, 1, 0], 1.1, 1.6, 0.5, 120.0)


def rotations(rng, n):
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    R = np.empty((n, 3, 3))
    R[:, 0] = np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], 1)
    R[:, 1] = np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], 1)
    R[:, 2] = np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], 1)
    return R


def scene(rng, n, frustum=None):
    """Centers around the view and straddling its faces (about half of them
    near a plane, where the plane test and the exact test disagree), half
    sizes 0.05-8, a few non-finite volumes."""
    f = frustum or camera()
    E = np.array(f.origin, np.float64)
    L, U, D = (np.array(r, np.float64) for r in f.frame)
    x0, x1, y0, y1 = f.bounds
    depth = rng.uniform(-5, 140, n)
    sx = rng.uniform(x0 - 0.4, x1 + 0.4, n)
    sy = rng.uniform(y0 - 0.4, y1 + 0.4, n)
    edge = rng.random(n) < 0.5
    sx[edge] = np.where(rng.random(edge.sum()) < 0.5, x0, x1) + rng.normal(0, 0.02, edge.sum())
    zc = np.maximum(depth, 0.5)
    c = E + (sx * zc)[:, None] * L + (sy * zc)[:, None] * U + depth[:, None] * D
    h = np.exp(rng.uniform(np.log(0.05), np.log(8), (n, 3)))
    c = c.astype(np.float32)
    h = h.astype(np.float32)
    bad = rng.choice(n, size=max(1, n // 200), replace=False)
    c[bad[: len(bad) // 2 + 1], 1] = np.nan
    h[bad[len(bad) // 2 + 1:], 0] = np.inf
    return c, h


@pytest.fixture
def rng():
    return np.random.default_rng(20261127)
