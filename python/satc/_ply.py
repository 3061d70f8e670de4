"""3DGS PLY splats read where they lie: the header gives each vertex
property's offset in a record, the records become a structured numpy view
of the file's bytes, and the batch reads its fields with the record's
stride."""

from __future__ import annotations

import os

import numpy as np

from ._satc import Batch, trs

_TYPES = {
    "char": "i1", "int8": "i1", "uchar": "u1", "uint8": "u1", "short": "<i2", "int16": "<i2",
    "ushort": "<u2", "uint16": "<u2", "int": "<i4", "int32": "<i4", "uint": "<u4",
    "uint32": "<u4", "float": "<f4", "float32": "<f4", "double": "<f8", "float64": "<f8",
}
# What the cull reads; a renderer's colour properties, checked when present.
CULL_PROPERTIES = ("x", "y", "z", "scale_0", "scale_1", "scale_2", "rot_0", "rot_1", "rot_2",
                   "rot_3")
_COLOUR = ("f_dc_0", "f_dc_1", "f_dc_2", "opacity")
_MAX_HEADER = 1 << 20


def _header(head: bytes):
    """(vertex count, vertex dtype, byte offset of the vertex records) from
    the file's first bytes (they must hold the whole header)."""
    end = head.find(b"end_header")
    while end > 0 and head[end - 1:end] != b"\n":
        end = head.find(b"end_header", end + 1)
    if end < 0:
        raise ValueError("ply: no end_header line (truncated, or not a PLY header)")
    data = end + len(b"end_header")
    if head[data:data + 1] == b"\r":
        data += 1
    if head[data:data + 1] != b"\n":
        raise ValueError("ply: end_header is not followed by a newline")
    data += 1
    lines = [ln.strip() for ln in head[:end].decode("latin-1").split("\n")]
    if lines[0] != "ply":
        raise ValueError("ply: not a PLY file (no 'ply' line)")
    fmt, elements, cur = None, [], None
    for ln in lines[1:]:
        w = ln.split()
        if not w or w[0] in ("comment", "obj_info"):
            continue
        if w[0] == "format":
            fmt = w[1] if len(w) > 1 else None
        elif w[0] == "element":
            if len(w) != 3 or not w[2].isdigit():
                raise ValueError(f"ply: bad element line {ln!r}")
            cur = {"name": w[1], "count": int(w[2]), "props": [], "list": False}
            elements.append(cur)
        elif w[0] == "property":
            if cur is None:
                raise ValueError(f"ply: property before any element: {ln!r}")
            if len(w) > 1 and w[1] == "list":
                cur["list"] = True
            elif len(w) != 3 or w[1] not in _TYPES:
                raise ValueError(f"ply: bad property line {ln!r}")
            else:
                cur["props"].append((w[2], w[1]))
        else:
            raise ValueError(f"ply: unknown header line {ln!r}")
    if fmt == "ascii":
        raise ValueError("ply: ascii PLY: only binary_little_endian is read")
    if fmt != "binary_little_endian":
        raise ValueError(f"ply: format {fmt}: only binary_little_endian is read")
    skip = 0
    for e in elements:
        if e["name"] == "vertex":
            break
        if e["list"]:
            raise ValueError(f"ply: element {e['name']} before vertex has list properties")
        skip += e["count"] * sum(np.dtype(_TYPES[t]).itemsize for _, t in e["props"])
    else:
        raise ValueError("ply: no vertex element")
    if e["list"]:
        raise ValueError("ply: the vertex element has a list property")
    types = dict(e["props"])
    missing = [n for n in CULL_PROPERTIES if n not in types]
    if missing:
        raise ValueError(f"ply: vertex has no {', '.join(missing)}")
    for n in CULL_PROPERTIES + tuple(c for c in _COLOUR if c in types):
        if _TYPES[types[n]] != "<f4":
            raise TypeError(f"ply: vertex property {n} is {types[n]}, not float")
    dt = np.dtype([(n, _TYPES[t]) for n, t in e["props"]])
    return e["count"], dt, data + skip


def _is_path(src) -> bool:
    return isinstance(src, (str, os.PathLike))


def read_ply(path_or_buffer) -> np.ndarray:
    """The vertex records of a binary little-endian 3DGS PLY file as a 1-D
    structured array (one field per property, little-endian): a view of
    the buffer (bytes, bytearray, memoryview, mmap, a uint8 array), or for
    a path the file read once into memory placed so the records are 4-byte
    aligned. Raises ValueError (ascii or big-endian, a missing x, y, z,
    scale_0..2 or rot_0..3, a truncated file, a malformed header) or
    TypeError (one of those, or f_dc_0..2 / opacity, not float32; not a
    path or buffer)."""
    if _is_path(path_or_buffer):
        with open(path_or_buffer, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            n, dt, off = _header(fh.read(min(size, _MAX_HEADER)))
            need = off + n * dt.itemsize
            if size < need:
                raise ValueError(f"ply: truncated: {size} bytes, the header's {n} vertices need {need}")
            raw = np.empty(size + 4, np.uint8)
            shift = -(raw.ctypes.data + off) % 4
            fh.seek(0)
            if fh.readinto(memoryview(raw)[shift:shift + size]) != size:
                raise ValueError("ply: the file changed while read")
        return np.frombuffer(raw, dt, n, shift + off)
    try:
        mv = memoryview(path_or_buffer)
    except TypeError:
        raise TypeError("read_ply: expected a path or a bytes-like buffer, got "
                        f"{type(path_or_buffer).__name__}") from None
    if mv.ndim != 1 or mv.itemsize != 1:
        mv = mv.cast("B")
    n, dt, off = _header(bytes(mv[:_MAX_HEADER]))
    need = off + n * dt.itemsize
    if mv.nbytes < need:
        raise ValueError(f"ply: truncated: {mv.nbytes} bytes, the header's {n} vertices need {need}")
    return np.frombuffer(mv, dt, n, off)


def load_ply(path_or_buffer, *, k: float = 3.0) -> Batch:
    """A batch of the Gaussian splats of a 3DGS PLY file (see read_ply):
    position x, y, z, log scales scale_0..2 (satc's exp applied) and
    rotation rot_0..3 (w first, need not be unit) read in place with the
    record's stride, other properties skipped; each splat culled as its k
    sigma box [-k, k]^3 in its scaled, rotated frame (k > 0, finite).
    Fields not readable in place (misaligned records, rotation components
    not adjacent) are copied once; batch.converted names them."""
    v = read_ply(path_or_buffer)
    return trs((v["x"], v["y"], v["z"]), (v["rot_0"], v["rot_1"], v["rot_2"], v["rot_3"]),
               (v["scale_0"], v["scale_1"], v["scale_2"]), k=k, log_scale=True, wxyz=True)
