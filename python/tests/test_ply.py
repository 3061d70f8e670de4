"""3DGS PLY files (satc.load_ply, satc.read_ply), written here with numpy
in any property order with extra properties of other types: the batch reads
the file's records in place and gives the same bits as the same splats in
separate float32 arrays (satc.trs: cull_depth's indices, depths, keys and
orders on every runnable path) and as the C library called on flat arrays
(oracle.c); bad files raise ValueError / TypeError."""

import mmap

import numpy as np
import pytest

import satc
from conftest import QUICK, camera, oracle_classes, scene

N = 1500 if QUICK else 4000
CULL = ["x", "y", "z", "scale_0", "scale_1", "scale_2", "rot_0", "rot_1", "rot_2", "rot_3"]
STANDARD = ([("x", "float"), ("y", "float"), ("z", "float"), ("nx", "float"), ("ny", "float"),
             ("nz", "float"), ("f_dc_0", "float"), ("f_dc_1", "float"), ("f_dc_2", "float")]
            + [(f"f_rest_{i}", "float") for i in range(45)]
            + [("opacity", "float"), ("scale_0", "float"), ("scale_1", "float"),
               ("scale_2", "float"), ("rot_0", "float"), ("rot_1", "float"), ("rot_2", "float"),
               ("rot_3", "float")])
# extras of every size between the cull's floats; x, y, z and the scales apart
SHUFFLED = [("red", "uchar"), ("green", "uchar"), ("blue", "uchar"), ("alpha", "uchar"),
            ("z", "float"), ("nx", "double"), ("scale_2", "float"), ("x", "float"),
            ("rot_0", "float"), ("rot_1", "float"), ("rot_2", "float"), ("rot_3", "float"),
            ("id", "uint"), ("scale_0", "float"), ("f_dc_0", "float"), ("opacity", "float"),
            ("y", "float"), ("seg", "short"), ("lvl", "ushort"), ("scale_1", "float")]
NP = {"float": "<f4", "double": "<f8", "uchar": "u1", "char": "i1", "short": "<i2",
      "ushort": "<u2", "int": "<i4", "uint": "<u4"}


def splat_values(rng, n):
    """Positions around the camera's view and straddling its faces, log
    scales, unnormalised w-first quaternions (some zero: never culled)."""
    c, h = scene(rng, n)
    v = {"x": c[:, 0], "y": c[:, 1], "z": c[:, 2]}
    with np.errstate(divide="ignore"):
        logs = np.log(h / 3.0).astype(np.float32)
    for i in range(3):
        v[f"scale_{i}"] = logs[:, i]
    q = (rng.normal(size=(n, 4)) * 10.0 ** rng.uniform(-2, 2, (n, 1))).astype(np.float32)
    q[: n // 60] = 0
    for i in range(4):
        v[f"rot_{i}"] = q[:, i]
    return v


def ply_bytes(v, props, fmt="binary_little_endian", count=None, cut=0, after=""):
    n = len(v["x"])
    head = (f"ply\nformat {fmt} 1.0\ncomment written by the satc tests\n"
            f"element vertex {n if count is None else count}\n"
            + "".join(f"property {t} {name}\n" for name, t in props) + after + "end_header\n")
    rec = np.zeros(n, [(name, NP[t]) for name, t in props])
    for name, _ in props:
        rec[name] = v[name] if name in v else (np.arange(n) * 7 + len(name)) % 100
    data = head.encode() + rec.tobytes()
    return data[:len(data) - cut]


def arrays_batch(v):
    p = np.stack([v["x"], v["y"], v["z"]], 1).astype(np.float32)
    s = np.stack([v[f"scale_{i}"] for i in range(3)], 1).astype(np.float32)
    q = np.stack([v[f"rot_{i}"] for i in range(4)], 1).astype(np.float32)
    return satc.trs(p, q, s, log_scale=True, wxyz=True)


def same_depth(f, a, b, isa):
    for mode in ("conservative", "exact"):
        for sort in (16, 32):
            x = satc.cull_depth(f, a, mode, sort, isa=isa)
            y = satc.cull_depth(f, b, mode, sort, isa=isa)
            for u, w, what in zip(x, y, ("indices", "depth", "key", "order")):
                assert u.dtype == w.dtype and u.tobytes() == w.tobytes(), f"{isa} {mode} {sort}: {what}"
            assert N // 10 < len(x[0]) < N, "a share of the splats in view"


@pytest.mark.parametrize("layout", ["standard", "shuffled"])
def test_ply_same_bits_as_arrays_and_c(rng, tmp_path, layout):
    props = STANDARD if layout == "standard" else SHUFFLED
    v = splat_values(rng, N)
    data = ply_bytes(v, props)
    path = tmp_path / "scene.ply"
    path.write_bytes(data)
    f = camera()
    ref = arrays_batch(v)
    qx = [v["rot_1"], v["rot_2"], v["rot_3"], v["rot_0"]]  # the oracle reads (x, y, z, w)
    cols = [v["x"], v["y"], v["z"], *qx, *(v[f"scale_{i}"] for i in range(3)), *np.zeros((6, N))]
    want = {m: oracle_classes(f, "trs", m, cols, flags=1) for m in ("conservative", "exact")}
    for src in (str(path), path, data, bytearray(data), memoryview(data), np.frombuffer(data, np.uint8)):
        b = satc.load_ply(src)
        assert b.form == "trs" and len(b) == N
        for isa in satc.isa_runnable():
            same_depth(f, b, ref, isa)
        for m, w in want.items():
            assert np.array_equal(satc.cull(f, b, m, "classes"), w), f"{type(src).__name__} {m}: C's answer"
    assert satc.load_ply(path).converted == (), "a path is read with its records aligned: in place"


def test_ply_in_place(rng, tmp_path):
    """A write to the buffer is seen by the next cull: no copy."""
    v = splat_values(rng, 200)
    data = ply_bytes(v, STANDARD)
    off = len(data) - 200 * 62 * 4  # put the records at a 4-byte boundary
    raw = np.zeros(len(data) + 16, np.uint8)
    start = (-(raw.ctypes.data + off)) % 4
    raw[start:start + len(data)] = np.frombuffer(data, np.uint8)
    buf = raw[start:start + len(data)]
    b = satc.load_ply(buf)
    assert b.converted == ()
    f = camera()
    vis = np.flatnonzero(satc.cull(f, b, "exact"))
    i = vis[vis > 200 // 60][0]  # a splat with a quaternion (the zero ones are never culled)
    rec = satc.read_ply(buf)
    assert np.shares_memory(rec, buf)
    rec["z"][i] = 1e4  # behind the camera
    assert not satc.cull(f, b, "exact")[i]
    # mmap: the file's pages themselves
    path = tmp_path / "s.ply"
    path.write_bytes(data)
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        bm = satc.load_ply(mm)
        assert np.array_equal(satc.cull(f, bm, "exact"), satc.cull(f, satc.load_ply(data), "exact"))
        del bm


def test_ply_misaligned_copied_once(rng):
    """Records off a 4-byte boundary (a header of any length): the fields
    are copied once, the answers stay the same bits."""
    v = splat_values(rng, 300)
    data = ply_bytes(v, [("flag", "uchar"), *STANDARD])  # stride 249: every other record misaligned
    b = satc.load_ply(data)
    assert "position" in b.converted and "rotation" in b.converted
    f = camera()
    for mode in ("conservative", "exact"):
        x = satc.cull_depth(f, b, mode, 32)
        y = satc.cull_depth(f, arrays_batch(v), mode, 32)
        assert all(u.tobytes() == w.tobytes() for u, w in zip(x, y))


def test_ply_errors(rng, tmp_path):
    v = splat_values(rng, 4)

    def drop(*names):
        return [p for p in STANDARD if p[0] not in names]

    def retype(name, t):
        return [(p, t if p == name else ty) for p, ty in STANDARD]

    cases = [
        (ply_bytes(v, STANDARD, fmt="ascii"), ValueError, "ascii PLY"),
        (ply_bytes(v, STANDARD, fmt="binary_big_endian"), ValueError, "binary_big_endian"),
        (ply_bytes(v, drop("rot_2")), ValueError, "vertex has no rot_2"),
        (ply_bytes(v, drop("x", "scale_1")), ValueError, "vertex has no x, scale_1"),
        (ply_bytes(v, retype("x", "double")), TypeError, "x is double, not float"),
        (ply_bytes(v, retype("scale_0", "uchar")), TypeError, "scale_0 is uchar"),
        (ply_bytes(v, retype("opacity", "int")), TypeError, "opacity is int"),
        (ply_bytes(v, STANDARD, after="property list uchar int idx\n"), ValueError, "list property"),
        (ply_bytes(v, STANDARD, cut=3), ValueError, "truncated"),
        (ply_bytes(v, STANDARD, count=5), ValueError, "truncated"),
        (b"ply\nformat binary_little_endian 1.0\nelement vertex 1\n", ValueError, "no end_header"),
        (b"PLY\nend_header\n", ValueError, "not a PLY"),
    ]
    for i, (data, exc, msg) in enumerate(cases):
        path = tmp_path / f"bad{i}.ply"
        path.write_bytes(data)
        for src in (data, path):
            with pytest.raises(exc, match=msg):
                satc.load_ply(src)
    with pytest.raises(TypeError, match="path or a bytes-like"):
        satc.load_ply(12)
    with pytest.raises(ValueError, match="k"):
        satc.load_ply(ply_bytes(v, STANDARD), k=0)
    assert len(satc.load_ply(ply_bytes(v, STANDARD))) == 4  # the good file of the same values loads
