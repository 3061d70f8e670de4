#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_cull.c into tests/fuzz/corpus/.

Each seed encodes a valid scene in the harness's input layout (see the
comment at the top of fuzz_cull.c), so the fuzzer starts from inputs that
build a frustum and cull boxes, plus a few with the bad values it must
handle. Deterministic: run it again and the files come out the same.
Usage: python3 tests/fuzz/make_corpus.py [OUTDIR]
"""
import math
import os
import random
import struct
import sys


def mf(v):
    """mf = int16 / 256 * 2^(e - 16): the finest e that holds v."""
    for e in range(32):
        q = round(v * 256.0 / 2.0 ** (e - 16))
        if -32768 <= q <= 32767:
            return struct.pack('<hB', q, e)
    raise ValueError(v)


def s8(v):
    return struct.pack('<b', v)


SPECIAL = {'nan': 0, '-nan': 1, 'inf': 2, '-inf': 3, '0': 4, '-0': 5, 'min': 6,
           'denorm': 7, 'max': 8, '-max': 9, '1': 10, '-1': 11}


def value(v):
    """A special constant by name, or 4 raw bytes of a float."""
    if isinstance(v, str):
        return bytes([SPECIAL[v]])
    return bytes([200]) + struct.pack('<f', v)


def quat(rng):
    return b''.join(s8(rng.randint(-127, 127)) for _ in range(4))


def camera(rng, origin, lc, lw, uc, uw, n, span):
    out = quat(rng)
    out += b''.join(mf(c) for c in origin)
    out += mf(lc) + mf(lw) + mf(uc) + mf(uw) + mf(n) + mf(span)
    return out


def box_quat(rng, spread, size, corrupt=None):
    kind = 0 | (4 if corrupt else 0)
    out = bytes([kind])
    out += b''.join(mf(rng.uniform(-spread, spread)) for _ in range(3))
    out += quat(rng)
    out += b''.join(mf(size * math.exp(rng.uniform(-3, 0))) for _ in range(3))
    if corrupt:
        out += bytes([corrupt[0]]) + value(corrupt[1])
    return out


def box_aabb(rng, spread, size):
    out = bytes([1])
    for _ in range(3):
        out += mf(rng.uniform(-spread, spread)) + mf(rng.uniform(0, size))
    return out


def box_matrix(rng, spread, size, opt=0):
    out = bytes([2]) + quat(rng)
    out += b''.join(s8(rng.choice([-1, 1]) * rng.randint(4, 40)) for _ in range(3))
    out += bytes([opt])
    out += b''.join(mf(rng.uniform(-spread, spread)) for _ in range(3))
    for _ in range(3):
        out += mf(-size * rng.uniform(0.1, 1)) + mf(size * rng.uniform(0.1, 2))
    return out


def box_raw(values):
    return bytes([3]) + b''.join(value(v) for v in values)


def batch(boxes, first=0):
    return bytes([len(boxes), first]) + b''.join(boxes)


def seeds():
    rng = random.Random(20240605)
    out = {}
    # Perspective camera, boxes from quaternions all around it.
    cam = camera(rng, (3.0, -2.0, 1.5), 0.0, 0.1, 0.0, 0.06, 0.1, 400.0)
    out['persp_quat'] = bytes([0]) + cam + batch(
        [box_quat(rng, 300, 20) for _ in range(40)], 3)
    # Infinite far, off-center bounds, quaternion and AABB boxes.
    cam = camera(rng, (-100.0, 50.0, 7.0), 0.02, 0.08, -0.01, 0.05, 0.05, 1.0)
    out['infinite_mixed'] = bytes([4]) + cam + batch(
        [box_quat(rng, 500, 30) if i % 2 else box_aabb(rng, 500, 30) for i in range(33)])
    # Orthographic camera (n < 0), AABB and world-matrix boxes.
    cam = camera(rng, (10.0, 10.0, 10.0), 5.0, 40.0, -3.0, 25.0, -20.0, 150.0)
    out['ortho_aabb_matrix'] = bytes([2]) + cam + batch(
        [box_matrix(rng, 60, 10) if i % 2 else box_aabb(rng, 60, 10) for i in range(29)], 1)
    # Non-finite box fields among valid boxes.
    cam = camera(rng, (0.0, 0.0, 0.0), 0.0, 0.5, 0.0, 0.3, 0.5, 100.0)
    boxes = [box_quat(rng, 80, 5) for _ in range(12)]
    boxes += [box_quat(rng, 80, 5, corrupt=(k, v))
              for k, v in [(0, 'nan'), (4, 'inf'), (13, '-inf'), (7, '-nan'), (2, 'max')]]
    boxes.append(box_raw(['nan'] * 15))
    boxes.append(box_raw([1.0, 2.0, 30.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0,
                          'denorm', 2.0, -3.0]))
    out['nonfinite_boxes'] = bytes([0]) + cam + batch(boxes)
    # A camera with a NaN near distance (one corruption: field 16 = n).
    cam = camera(rng, (1.0, 1.0, 1.0), 0.0, 0.5, 0.0, 0.3, 0.5, 100.0)
    out['camera_nan'] = bytes([1 << 5]) + cam + bytes([16]) + value('nan') + batch(
        [box_quat(rng, 50, 5) for _ in range(9)])
    # View-projection matrices: OpenGL conventions, and [0, 1] reversed
    # infinite row-major.
    cam = camera(rng, (5.0, -5.0, 2.0), 0.0, 0.2, 0.0, 0.12, 0.2, 300.0)
    out['matrix_gl'] = bytes([1]) + cam + bytes([0]) + batch(
        [box_quat(rng, 200, 15) for _ in range(21)])
    cam = camera(rng, (0.0, 3.0, 0.0), 0.0, 0.2, 0.0, 0.12, 0.2, 300.0)
    out['matrix_reversed_infinite'] = bytes([1]) + cam + bytes([1 | 2 | 4 | 8]) + batch(
        [box_quat(rng, 200, 15) for _ in range(17)])
    # The convenience builder (fovy byte, aspect).
    cam = camera(rng, (0.0, 0.0, 0.0), 0.0, 0.2, 0.0, 0.12, 0.2, 300.0)
    out['perspective_fovy'] = bytes([8]) + cam + bytes([80]) + mf(16 / 9) + batch(
        [box_quat(rng, 200, 15) for _ in range(19)])
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'corpus')
    os.makedirs(outdir, exist_ok=True)
    for name, data in sorted(seeds().items()):
        with open(os.path.join(outdir, name), 'wb') as f:
            f.write(data)
        print(f'{name}: {len(data)} bytes')


if __name__ == '__main__':
    main()
