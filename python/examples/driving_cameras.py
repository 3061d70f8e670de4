#!/usr/bin/env python3
"""Which annotated 3D boxes does each of a car's six cameras see?

A scene stored the way driving datasets store it (nuScenes, Waymo, Argoverse:
a box is a center, a size width x length x height and a yaw about the vertical
axis; the cameras come with intrinsics K and a pose), answered two ways:

- satc: the exact separating-axis test of each box against each camera's view
  volume (the image rectangle between a near distance and infinity), all six
  cameras in one pass over the boxes (satc.cull_views);
- the 8-corner test many dataset tools use: project the box's 8 corners and
  call it visible when any of them lands in the image in front of the camera.

A box can be in view with every corner outside the image: a bus beside the
car filling a side camera, a wall or a long trailer across the view, a box
whose corners are all behind the near plane while its middle is in front.
The corner test reports those hidden. This script counts them per camera,
checks each by finding a point of the box inside the view, and draws them
(SVG: a bird's-eye view, then some of the missed boxes in their images).
Then it asks which of the boxes in view are hidden behind walls, trucks and
buses: a depth pyramid per camera drawn from those, culled in the same pass.

    python3 driving_cameras.py [--boxes N] [--seed S] [--svg PATH]
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

import satc

WIDTH, HEIGHT = 1600, 900
NEAR = 1.0  # the corner test counts corners more than 1 m in front, as the tools do

# Six cameras around the roof: name, yaw of the optical axis (degrees, 0 =
# forward, positive = left), mounting position (x forward, y left, z up; m),
# focal length in pixels (the rear camera is wider).
CAMERAS = [
    ("FRONT", 0.0, (1.70, 0.00, 1.55), 1266.0),
    ("FRONT_LEFT", 55.0, (1.50, 0.50, 1.55), 1260.0),
    ("BACK_LEFT", 110.0, (1.05, 0.48, 1.55), 1256.0),
    ("BACK", 180.0, (0.05, 0.00, 1.55), 809.0),
    ("BACK_RIGHT", -110.0, (1.05, -0.48, 1.55), 1259.0),
    ("FRONT_RIGHT", -55.0, (1.50, -0.50, 1.55), 1262.0),
]

# Kinds of object: name, share of boxes, size ranges (width, length, height; m).
KINDS = [
    ("car", 0.55, (1.7, 2.1), (4.0, 5.2), (1.4, 1.9)),
    ("pedestrian", 0.20, (0.5, 0.9), (0.5, 0.9), (1.5, 1.9)),
    ("truck or bus", 0.12, (2.4, 3.0), (8.0, 14.0), (2.8, 4.0)),
    ("barrier", 0.08, (0.4, 0.6), (1.5, 3.0), (0.8, 1.2)),
    ("wall or fence", 0.05, (0.2, 0.4), (15.0, 40.0), (2.0, 4.0)),
]


def make_cameras():
    """Each camera's K, camera-to-world rotation (columns: x right, y down,
    z forward in the car's frame) and position."""
    cams = []
    for name, yaw_deg, pos, focal in CAMERAS:
        yaw = math.radians(yaw_deg)
        fwd = np.array([math.cos(yaw), math.sin(yaw), 0.0])
        right = np.array([math.sin(yaw), -math.cos(yaw), 0.0])
        down = np.array([0.0, 0.0, -1.0])
        K = np.array([[focal, 0, WIDTH / 2 + 16], [0, focal, HEIGHT / 2 + 41], [0, 0, 1]])
        cams.append((name, K, np.stack([right, down, fwd], axis=1), np.array(pos)))
    return cams


def make_scene(n, seed):
    """Boxes as a dataset table stores them: a structured array of records
    (center, size as width/length/height, yaw, kind), float32."""
    rng = np.random.default_rng(seed)
    rec = np.zeros(n, dtype=[("center", "3f4"), ("wlh", "3f4"), ("yaw", "f4"), ("kind", "u1")])
    kinds = rng.choice(len(KINDS), size=n, p=[k[1] for k in KINDS])
    for k, (_, _, w, l, h) in enumerate(KINDS):
        sel = kinds == k
        m = int(sel.sum())
        rec["wlh"][sel] = np.stack([rng.uniform(*w, m), rng.uniform(*l, m), rng.uniform(*h, m)], 1)
    # Most boxes spread over 70 m around the car; a fifth are the traffic in
    # the car's lane and the two beside it, within 25 m ahead and behind.
    r = 70 * np.sqrt(rng.random(n))
    a = rng.uniform(-math.pi, math.pi, n)
    rec["center"][:, 0] = r * np.cos(a)
    rec["center"][:, 1] = r * np.sin(a)
    lane = rng.random(n) < 0.2
    m = int(lane.sum())
    ahead = rng.uniform(4.5, 25, m) * rng.choice([-1, 1], m)
    side = rng.choice([-3.5, 0.0, 3.5], m)
    ahead = np.where(side == 0, ahead, ahead * rng.uniform(0, 1, m))
    rec["center"][lane, 0] = ahead
    rec["center"][lane, 1] = side + rng.normal(0, 0.3, m)
    rec["center"][:, 2] = rec["wlh"][:, 2] / 2 + rng.normal(0, 0.05, n)
    # Vehicles mostly follow the road (yaw near 0 or pi), the rest any way.
    road = lane | (rng.random(n) < 0.6)
    rec["yaw"] = np.where(road, rng.choice([0.0, math.pi], n) + rng.normal(0, 0.05, n),
                          rng.uniform(-math.pi, math.pi, n))
    rec["kind"] = kinds
    return rec


def satc_batch(rec):
    """The boxes as satc oriented boxes: the centers read in place from the
    records; the axes and half extents derived once from yaw and size."""
    c, s = np.cos(rec["yaw"]), np.sin(rec["yaw"])
    axes = np.zeros((len(rec), 3, 3), np.float32)
    axes[:, 0, 0], axes[:, 0, 1] = c, s  # length axis (heading)
    axes[:, 1, 0], axes[:, 1, 1] = -s, c  # width axis
    axes[:, 2, 2] = 1.0
    half = rec["wlh"][:, [1, 0, 2]] / 2  # (length, width, height) / 2
    return satc.obbs(rec["center"], axes, half)


def corners(rec):
    """The 8 corners of every box, (N, 8, 3), in double."""
    w, l, h = (rec["wlh"][:, k].astype(np.float64) for k in range(3))
    sx = np.array([1, 1, 1, 1, -1, -1, -1, -1]) / 2
    sy = np.array([1, -1, -1, 1, 1, -1, -1, 1]) / 2
    sz = np.array([1, 1, -1, -1, 1, 1, -1, -1]) / 2
    x, y, z = l[:, None] * sx, w[:, None] * sy, h[:, None] * sz
    c, s = np.cos(rec["yaw"]).astype(np.float64), np.sin(rec["yaw"]).astype(np.float64)
    out = np.empty((len(rec), 8, 3))
    out[..., 0] = c[:, None] * x - s[:, None] * y + rec["center"][:, 0:1]
    out[..., 1] = s[:, None] * x + c[:, None] * y + rec["center"][:, 1:2]
    out[..., 2] = z + rec["center"][:, 2:3]
    return out


def corner_test(cams, corner_pts):
    """The 8-corner test over all boxes at once (numpy): (cameras, N) bool."""
    out = np.empty((len(cams), len(corner_pts)), bool)
    for v, (_, K, Rc, pos) in enumerate(cams):
        # camera coordinates (x right, y down, z forward), one matrix product
        p = ((corner_pts.reshape(-1, 3) - pos) @ Rc).reshape(corner_pts.shape)
        z = p[..., 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            u = K[0, 0] * p[..., 0] / z + K[0, 2]
            w = K[1, 1] * p[..., 1] / z + K[1, 2]
        inside = (z > NEAR) & (u > 0) & (u < WIDTH) & (w > 0) & (w < HEIGHT)
        out[v] = inside.any(axis=1)
    return out


def corner_test_one(K, Rc, pos, box):
    """The 8-corner test of one box against one camera, as per-box tools
    write it (a Python function called in a loop)."""
    (cx, cy, cz), (w, l, h), yaw = box["center"], box["wlh"], box["yaw"]
    c, s = math.cos(yaw), math.sin(yaw)
    x = l / 2 * np.array([1, 1, 1, 1, -1, -1, -1, -1])
    y = w / 2 * np.array([1, -1, -1, 1, 1, -1, -1, 1])
    z = h / 2 * np.array([1, 1, -1, -1, 1, 1, -1, -1])
    pts = np.stack([c * x - s * y + cx, s * x + c * y + cy, z + cz], axis=1)
    p = (pts - pos) @ Rc
    depth = p[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        u = K[0, 0] * p[:, 0] / depth + K[0, 2]
        v = K[1, 1] * p[:, 1] / depth + K[1, 2]
    return bool(np.any((depth > NEAR) & (u > 0) & (u < WIDTH) & (v > 0) & (v < HEIGHT)))


def in_view(cam, pts):
    """Which points (M, 3) lie in a camera's view volume."""
    _, K, Rc, pos = cam
    p = (pts - pos) @ Rc
    z = p[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        u = K[0, 0] * p[:, 0] / z + K[0, 2]
        v = K[1, 1] * p[:, 1] / z + K[1, 2]
    return (z >= NEAR) & (u >= 0) & (u <= WIDTH) & (v >= 0) & (v <= HEIGHT)


def halfspaces(cam, box):
    """The 11 half-spaces a.x <= b whose intersection is box and view volume:
    the box's 6 faces, the near plane and the image's 4 sides (u in [0,
    width], v in [0, height] multiplied by the depth), in double."""
    _, K, Rc, pos = cam
    c, s = math.cos(box["yaw"]), math.sin(box["yaw"])
    axes = np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])
    half = np.array([box["wlh"][1], box["wlh"][0], box["wlh"][2]], np.float64) / 2
    ctr = np.array(box["center"], np.float64)
    A = [axes, -axes]
    B = [axes @ ctr + half, -(axes @ ctr) + half]
    X, Y, Z = Rc[:, 0], Rc[:, 1], Rc[:, 2]  # p = Rc^T (x - pos)
    rows = [-Z,  # z >= near
            -(K[0, 0] * X + K[0, 2] * Z),  # u >= 0
            K[0, 0] * X + (K[0, 2] - WIDTH) * Z,  # u <= width
            -(K[1, 1] * Y + K[1, 2] * Z),  # v >= 0
            K[1, 1] * Y + (K[1, 2] - HEIGHT) * Z]  # v <= height
    A.append(np.array(rows))
    B.append(np.array([-NEAR] + [0.0] * 4) + np.array(rows) @ pos)
    return np.concatenate(A), np.concatenate(B)


def witness_gap(cam, box):
    """How far the best vertex of the planes' arrangement is outside box and
    view (m, <= 0 when a common point exists): the polytope box & view,
    bounded by the box, is nonempty exactly when one of its vertices (a
    triple of the 11 planes) satisfies every half-space."""
    A, b = halfspaces(cam, box)
    norm = np.linalg.norm(A, axis=1)
    A, b = A / norm[:, None], b / norm
    tri = np.array([(i, j, k) for i in range(11) for j in range(i + 1, 11) for k in range(j + 1, 11)])
    M, r = A[tri], b[tri]
    ok = np.abs(np.linalg.det(M)) > 1e-12
    x = np.linalg.solve(M[ok], r[ok][:, :, None])[:, :, 0]
    gap = (x @ A.T - b).max(axis=1)
    return float(gap.min())


# ---------------------------------------------------------------- drawing


def svg_scene(rec, cams, seen, corner, path, panels=4):
    """Bird's-eye view (boxes coloured by the two answers) and a few of the
    boxes the corner test misses, drawn in their camera's image."""
    W, top = 1000, 720
    scale = top / 100.0  # 100 m across
    ox, oy = W / 2 - 140, top / 2

    def to_px(x, y):  # car frame (x forward = up on the page, y left)
        return ox - y * scale, oy - x * scale

    missed = seen & ~corner
    any_seen, any_missed = seen.any(0), missed.any(0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{top + 260}" '
           'font-family="sans-serif" font-size="13">',
           f'<rect width="{W}" height="{top + 260}" fill="white"/>']
    for name, K, Rc, pos in cams:  # view wedges, 60 m long
        fwd = Rc[:, 2]
        half = math.atan2(WIDTH / 2, K[0, 0])
        pts = [to_px(pos[0], pos[1])]
        for a in (-half, half):
            d = np.array([fwd[0] * math.cos(a) - fwd[1] * math.sin(a),
                          fwd[0] * math.sin(a) + fwd[1] * math.cos(a)])
            pts.append(to_px(pos[0] + 60 * d[0], pos[1] + 60 * d[1]))
        out.append('<polygon points="%s" fill="#4a90d9" fill-opacity="0.06" stroke="#4a90d9" '
                   'stroke-opacity="0.4"/>' % " ".join(f"{x:.1f},{y:.1f}" for x, y in pts))
    cps = corners(rec)
    order = np.argsort(any_missed)  # missed boxes drawn last, on top
    for i in order:
        if abs(rec["center"][i, 0]) > 48 or abs(rec["center"][i, 1]) > 48:
            continue
        col = "#d62728" if any_missed[i] else ("#2ca02c" if any_seen[i] else "#bbbbbb")
        p = [to_px(*cps[i, k, :2]) for k in (0, 1, 5, 4)]
        out.append('<polygon points="%s" fill="%s" fill-opacity="0.45" stroke="%s" '
                   'stroke-width="0.6"/>' % (" ".join(f"{x:.1f},{y:.1f}" for x, y in p), col, col))
    car = [to_px(x, y) for x, y in ((2.4, 0.95), (2.4, -0.95), (-1.6, -0.95), (-1.6, 0.95))]
    out.append('<polygon points="%s" fill="black"/>' % " ".join(f"{x:.1f},{y:.1f}" for x, y in car))
    lx = W - 270
    out.append(f'<rect x="{lx - 10}" y="8" width="280" height="170" fill="white" fill-opacity="0.9"/>')
    out += [f'<text x="{lx}" y="30" font-size="15" font-weight="bold">Six cameras, {len(rec)} boxes</text>',
            f'<text x="{lx}" y="52">(bird\'s-eye view, 100 m across)</text>']
    for k, (col, text) in enumerate((("#2ca02c", "seen, both tests agree"),
                                     ("#d62728", "seen (satc), corner test: hidden"),
                                     ("#bbbbbb", "in no camera's view"))):
        out.append(f'<rect x="{lx}" y="{70 + 22 * k}" width="14" height="14" fill="{col}"/>'
                   f'<text x="{lx + 20}" y="{82 + 22 * k}">{text}</text>')
    out.append(f'<text x="{lx}" y="150">{int(missed.sum())} (box, camera) pairs the corner</text>')
    out.append(f'<text x="{lx}" y="168">test calls hidden are in view.</text>')

    # Image panels: missed boxes of different kinds and cameras, in their
    # camera's image.
    pairs, used = [], set()
    for v, i in np.argwhere(missed):
        key = (rec["kind"][i], v)
        if rec["kind"][i] not in {k for k, _ in used} and v not in {c for _, c in used}:
            pairs.append((v, i))
            used.add(key)
    for v, i in np.argwhere(missed):
        if len(pairs) >= panels:
            break
        if v not in {c for _, c in used}:
            pairs.append((v, i))
            used.add((rec["kind"][i], v))
    pairs = pairs[:panels]
    pw, ph = 220, 124
    for k, (v, i) in enumerate(pairs):
        name, K, Rc, pos = cams[v]
        x0, y0 = 20 + k * (pw + 25), top + 40
        s = pw / WIDTH
        out.append(f'<text x="{x0}" y="{y0 - 8}" font-size="12">{name}: {KINDS[rec["kind"][i]][0]}, '
                   f'{rec["wlh"][i, 1]:.0f} m</text>')
        out.append(f'<rect x="{x0}" y="{y0}" width="{pw}" height="{ph}" fill="#f4f4f4" '
                   'stroke="black"/>')
        out.append(f'<clipPath id="c{k}"><rect x="{x0}" y="{y0}" width="{pw}" height="{ph}"/></clipPath>')
        cam_pts = (cps[i] - pos) @ Rc
        for a, b in ((0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4),
                     (0, 4), (1, 5), (2, 6), (3, 7)):
            p, q = cam_pts[a], cam_pts[b]
            if p[2] < NEAR and q[2] < NEAR:
                continue
            # clip the edge to the near plane, then project
            if p[2] < NEAR:
                p = p + (q - p) * (NEAR - p[2]) / (q[2] - p[2])
            if q[2] < NEAR:
                q = q + (p - q) * (NEAR - q[2]) / (p[2] - q[2])
            (u1, v1), (u2, v2) = [(K[0, 0] * r[0] / r[2] + K[0, 2], K[1, 1] * r[1] / r[2] + K[1, 2])
                                  for r in (p, q)]
            out.append(f'<line x1="{x0 + u1 * s:.1f}" y1="{y0 + v1 * s:.1f}" x2="{x0 + u2 * s:.1f}" '
                       f'y2="{y0 + v2 * s:.1f}" stroke="#d62728" stroke-width="1.5" '
                       f'clip-path="url(#c{k})"/>')
        inside = int(in_view(cams[v], cps[i]).sum())
        out.append(f'<text x="{x0}" y="{y0 + ph + 18}">{inside} of 8 corners in the image</text>')
    out.append("</svg>")
    with open(path, "w") as fh:
        fh.write("\n".join(out))


# ---------------------------------------------------------------- main


def run(n=3000, seed=7, svg=None, loop_sample=300, quiet=False):
    """Runs the comparison; returns a dict of the counts (the tests use it)."""
    say = (lambda *a: None) if quiet else print
    cams = make_cameras()
    rec = make_scene(n, seed)
    frusta = [satc.from_camera_pose(K, Rc, pos, WIDTH, HEIGHT, NEAR) for _, K, Rc, pos in cams]
    batch = satc_batch(rec)

    t0 = time.perf_counter()
    seen = satc.cull_views(frusta, batch)  # (6, n) bool, exact
    t_satc = time.perf_counter() - t0
    cps = corners(rec)
    t0 = time.perf_counter()
    corner = corner_test(cams, cps)
    t_vec = time.perf_counter() - t0 + 0.0
    rng = np.random.default_rng(seed + 1)
    sample = rng.choice(n, size=min(loop_sample, n), replace=False)
    t0 = time.perf_counter()
    loop = [[corner_test_one(K, Rc, pos, rec[i]) for i in sample] for _, K, Rc, pos in cams]
    t_loop = (time.perf_counter() - t0) * n / len(sample)
    assert np.array_equal(np.array(loop), corner[:, sample]), "the two corner tests disagree"

    missed = seen & ~corner
    extra = corner & ~seen
    say(f"{len(cams)} cameras x {n} boxes (center, width/length/height, yaw), "
        f"{WIDTH}x{HEIGHT} images, near {NEAR} m; satc path {satc.isa()}")
    say(f"{'camera':<12} {'satc':>7} {'corners':>8} {'missed':>7}  missed by kind")
    for v, (name, *_rest) in enumerate(cams):
        kinds = np.bincount(rec["kind"][missed[v]], minlength=len(KINDS))
        text = ", ".join(f"{c} {KINDS[k][0]}" for k, c in enumerate(kinds) if c)
        say(f"{name:<12} {int(seen[v].sum()):>7} {int(corner[v].sum()):>8} "
            f"{int(missed[v].sum()):>7}  {text}")
    found, worst = 0, 0.0
    for v, i in np.argwhere(missed):
        gap = witness_gap(cams[v], rec[i])
        found += gap <= 1e-9
        worst = max(worst, gap)
    say(f"total: {int(seen.sum())} (box, camera) pairs in view; the corner test finds "
        f"{int(corner.sum())} and misses {int(missed.sum())} "
        f"({100 * missed.sum() / max(1, seen.sum()):.1f} %)")
    say(f"       it reports {int(extra.sum())} that satc culls")
    say(f"checked in double (the vertices of box and view volume): {found} of the "
        f"{int(missed.sum())} missed pairs share a point with the view"
        + (f";\n       the others lie within {worst * 1e3:.3f} mm of it" if found < missed.sum() else ""))
    say(f"time: satc {t_satc * 1e3:.2f} ms (six cameras, one pass), corner test vectorised "
        f"{t_vec * 1e3:.1f} ms,")
    say(f"      the corner test in a Python loop {t_loop:.1f} s (timed on {len(sample)} boxes)")
    hidden, vis = occlusion(rec, frusta, batch)
    say("\nocclusion: walls, fences, trucks and buses (90 % of their boxes) drawn as occluders")
    say(f"into a {PYRAMID[0]}x{PYRAMID[1]} depth pyramid per camera; the boxes in view and those they hide:")
    say(f"{'camera':<12} {'in view':>8} {'hidden':>7} {'seen':>6}  {'under 25 % visible':>18}")
    for v, (name, *_rest) in enumerate(cams):
        n_view = int(seen[v].sum())
        n_hid = int(hidden[v].sum())
        low = int(((vis[v] > 0) & (vis[v] < 0.25)).sum())
        say(f"{name:<12} {n_view:>8} {n_hid:>7} {n_view - n_hid:>6}  {low:>18}")
    if svg:
        svg_scene(rec, cams, seen, corner, svg)
        say(f"wrote {svg}")
    return {"seen": int(seen.sum()), "corner": int(corner.sum()), "missed": int(missed.sum()),
            "extra": int(extra.sum()), "witnessed": found, "worst_gap": worst,
            "hidden": int(hidden.sum()), "hidden_in_view": int((hidden & seen).sum())}


PYRAMID = (400, 225)  # texels: a quarter of the image each way


def occlusion(rec, frusta, batch):
    """Which boxes in view are hidden behind the large ones? Each camera gets a
    depth pyramid drawn from the walls, fences, trucks and buses (shrunk to 90 %:
    an occluder must lie inside opaque matter); the cull then drops what they
    hide, and visibility() gives each box's share of its screen rectangle where
    it may be in front. Returns (cameras, N) hidden masks and visibilities."""
    big = np.flatnonzero(rec["kind"] >= 2)
    big = big[rec["kind"][big] != 3]  # barriers are low: not occluders
    occ = rec[big].copy()
    occ["wlh"] *= 0.9
    occluders = satc_batch(occ)
    pyramids = [satc.Pyramid(f, *PYRAMID).rasterize(occluders) for f in frusta]
    classes = satc.cull_views(pyramids, batch, output="classes")
    vis = np.stack([satc.visibility(p, batch) for p in pyramids])
    return classes == satc.OCCLUDED, vis


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boxes", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--svg", metavar="PATH", help="draw the scene into this SVG file (default: no drawing)")
    a = ap.parse_args(argv)
    r = run(a.boxes, a.seed, a.svg or None)
    return 0 if r["extra"] == 0 and r["witnessed"] == r["missed"] else 1


if __name__ == "__main__":
    sys.exit(main())
