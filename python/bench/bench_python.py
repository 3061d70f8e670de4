#!/usr/bin/env python3
"""The Python package's benchmark (`meson test --benchmark`, or run it with
the package importable): what the binding costs over the C library, and
satc against the 8-corner test perception tools use.

1. One million world AABBs (center/half float32 arrays) culled by one
   satc.cull call from Python, against the same satc_cull call timed in C
   on the same memory (bitmask and index outputs; both modes).
2. Six cameras x 100,000 boxes of the driving example: satc.cull_views
   (exact, one pass) against the 8-corner test vectorised with numpy over
   all boxes, and against the same test called per box in a Python loop
   (timed on a sample of boxes and scaled).
3. Occlusion: a 1600x900 float32 depth image filled into a pyramid and
   one million boxes culled against it, from Python (Pyramid.fill, then
   satc.cull) against satc_pyramid_fill and satc_cull_occluded timed in C;
   and a ray cast in double through depth images of random scenes in every
   convention and hole encoding: boxes a ray sees that satc reports hidden.

Times are the calling thread's CPU time (every contender runs on one
thread; wall time on a shared machine would count other jobs' time
slices, which fall on long runs more than on short ones): medians of
samples taken round-robin, each after an untimed call of the same job
(warm caches, as in a loop over frames), with min-max beside them.

    bench_python.py [--quick] [--goals]

--goals (or SATC_BENCH_GOALS=1) adds the project's goal lines, tagged
[python]; they are figures to aim at, not test results.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time

import numpy as np

import satc

HERE = os.path.dirname(os.path.abspath(__file__))


def load_example():
    path = os.path.join(HERE, "..", "examples", "driving_cameras.py")
    spec = importlib.util.spec_from_file_location("driving_cameras", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def fmt(samples, unit=1e-3, name="ms"):
    s = sorted(samples)
    return f"{statistics.median(s) / unit:9.3f} {name} ({s[0] / unit:.3f}-{s[-1] / unit:.3f})"


def round_robin(jobs, rounds):
    """jobs: name -> callable returning seconds of one sample."""
    out = {k: [] for k in jobs}
    for _ in range(rounds):
        for k, fn in jobs.items():
            out[k].append(fn())
    return out


def timed(fn):
    """One sample: an untimed call (warm caches, as in a loop over frames),
    then the timed one."""
    def run():
        fn()
        t0 = time.thread_time_ns()
        fn()
        return (time.thread_time_ns() - t0) * 1e-9
    return run


def binding(n, rounds, goals):
    rng = np.random.default_rng(4)
    # A city-like spread around a street-level camera: 4 km square, sizes
    # 0.3-60 m, about a tenth of the boxes in view.
    c = np.empty((n, 3), np.float32)
    c[:, 0] = rng.uniform(-2000, 2000, n)
    c[:, 2] = rng.uniform(-2000, 2000, n)
    h = np.exp(rng.uniform(np.log(0.15), np.log(30), (n, 3))).astype(np.float32)
    c[:, 1] = h[:, 1]
    f = satc.perspective([0, 1.7, 0], [0, 0, -1], [0, 1, 0], 1.0471976, 16 / 9, 0.1, 1000)
    b = satc.aabbs(c, h)
    assert b.converted == ()
    print(f"\n1. {n} world AABBs (center/half float32 (N, 3) arrays, in place), one frustum, "
          f"path {satc.isa()}:")
    print("   one call from Python vs the same call timed in C")
    print(f"   visible: {satc.cull(f, b, output='count')} exact, "
          f"{satc.cull(f, b, 'conservative', 'count')} conservative")
    print(f"   {'mode':<13} {'output':<8} {'from Python':>26} {'satc_cull in C':>26} "
          f"{'ratio':>6} {'of minima':>9}")
    ratios = {}
    for mode in ("exact", "conservative"):
        for out in ("bitmask", "indices"):
            jobs = {
                "py": timed(lambda: satc.cull(f, b, mode, out)),
                "c": lambda: satc._satc._time_c_cull(f, b, mode, out, 2)[1] * 1e-9,
            }
            satc.cull(f, b, mode, out)
            r = round_robin(jobs, rounds)
            ratio = statistics.median(r["py"]) / statistics.median(r["c"])
            ratios[(mode, out)] = ratio
            rmin = min(r["py"]) / min(r["c"])
            print(f"   {mode:<13} {out:<8} {fmt(r['py']):>26} {fmt(r['c']):>26} {ratio:6.3f} "
                  f"{rmin:9.3f}")
    mask = round_robin({"py": timed(lambda: satc.cull(f, b))}, rounds)["py"]
    print(f"   exact, output='mask' (bool per box, unpacked in C): {fmt(mask)}")
    worst = max(ratios.values())
    if goals:
        print(f"{'PASS' if worst <= 1.2 else 'MISS'} [python] 1 M AABBs from numpy, binding "
              f"overhead: at most 1.2 x the C call's time    worst {worst:.3f} x (medians)")


def cameras_vs_corners(n, rounds, loop_boxes, goals):
    ex = load_example()
    cams = ex.make_cameras()
    rec = ex.make_scene(n, 11)
    frusta = [satc.from_camera_pose(K, Rc, pos, ex.WIDTH, ex.HEIGHT, ex.NEAR)
              for _, K, Rc, pos in cams]
    batch = ex.satc_batch(rec)
    print(f"\n2. {len(cams)} cameras x {n} boxes (the driving example: center, size, yaw; "
          f"{ex.WIDTH}x{ex.HEIGHT} images)")
    cps = ex.corners(rec)
    jobs = {
        "satc": timed(lambda: satc.cull_views(frusta, batch)),
        "satc6": timed(lambda: [satc.cull(fr, batch) for fr in frusta]),
        "corners": timed(lambda: ex.corner_test(cams, ex.corners(rec))),
        "corners_only": timed(lambda: ex.corner_test(cams, cps)),
    }
    r = round_robin(jobs, rounds)
    rng = np.random.default_rng(5)
    sample = rng.choice(n, size=loop_boxes, replace=False)
    t0 = time.thread_time()
    for _, K, Rc, pos in cams:
        for i in sample:
            ex.corner_test_one(K, Rc, pos, rec[i])
    loop = (time.thread_time() - t0) * n / loop_boxes
    seen = satc.cull_views(frusta, batch)
    corner = ex.corner_test(cams, cps)
    t_satc = statistics.median(r["satc"])
    print(f"   satc.cull_views, exact, 6 views in one pass   {fmt(r['satc'])}")
    print(f"   satc.cull per camera, exact, 6 calls          {fmt(r['satc6'])}")
    print(f"   8-corner test, numpy over all boxes           {fmt(r['corners'])}  "
          f"{statistics.median(r['corners']) / t_satc:7.1f} x satc")
    print(f"     of which the projection and test (corners given) "
          f"{fmt(r['corners_only'])}")
    print(f"   8-corner test, per box in a Python loop       {loop * 1e3:9.1f} ms"
          f"  {loop / t_satc:7.0f} x satc   (timed on {loop_boxes} boxes x 6 cameras, scaled)")
    print(f"   in view: {int(seen.sum())} (box, camera) pairs; the corner test misses "
          f"{int((seen & ~corner).sum())} of them and adds {int((corner & ~seen).sum())}")
    vec = statistics.median(r["corners"]) / t_satc
    if goals:
        print(f"{'PASS' if vec >= 30 else 'MISS'} [python] six cameras x {n} boxes: at least "
              f"30 x the 8-corner test vectorised with numpy    {vec:.1f} x")
        print(f"{'PASS' if loop / t_satc >= 1000 else 'MISS'} [python] six cameras x {n} boxes: "
              f"at least 1000 x the 8-corner test in a Python loop    {loop / t_satc:.0f} x")


def occlusion(n, rounds, goals):
    rng = np.random.default_rng(6)
    W, H = 1600, 900
    f = satc.perspective([0, 1.7, 0], [0, 0, -1], [0, 1, 0], 1.0471976, W / H, 0.1, 1000)
    # a street: building fronts 20-200 m away in columns, the ground below the horizon
    cols = np.repeat(rng.uniform(20, 200, W // 40), 40).astype(np.float32)
    tops = np.repeat(rng.integers(50, H // 2, W // 40), 40)
    rows = np.arange(H)[:, None]
    ground = np.where(rows > H // 2, 1.7 * (H / 2) / np.maximum(rows - H // 2, 1) / np.tan(0.5236), np.inf)
    depth = np.where(rows >= tops[None, :], np.minimum(cols[None, :], ground), np.inf).astype(np.float32)
    c = np.empty((n, 3), np.float32)
    c[:, 0] = rng.uniform(-300, 300, n)
    c[:, 2] = rng.uniform(-400, 0, n)
    h = np.exp(rng.uniform(np.log(0.15), np.log(8), (n, 3))).astype(np.float32)
    c[:, 1] = h[:, 1]
    b = satc.aabbs(c, h)
    p = satc.Pyramid(f, 512, 256)
    cls = satc.cull(p.fill(depth), b, output="classes")
    print(f"\n3. occlusion: a {W}x{H} float32 linear depth image (top-down rows) filled into a 512x256 "
          f"pyramid, {n} boxes")
    print(f"   in view {int((cls > 0).sum())}, hidden {int((cls == satc.OCCLUDED).sum())}")
    q = satc.Pyramid(f, 512, 256)
    jobs = {
        "py": timed(lambda: satc.cull(p.fill(depth), b, output="bitmask")),
        "c": lambda: satc._satc._time_c_occlusion(q, depth, b, 2)[1] * 1e-9,
    }
    r = round_robin(jobs, rounds)
    ratio = statistics.median(r["py"]) / statistics.median(r["c"])
    print(f"   fill and cull from Python {fmt(r['py'])}, in C {fmt(r['c'])}: {ratio:.3f} x")
    bad, hidden, checked = ray_check(rng)
    if checked:
        print(f"   ray cast in double, {checked} (scene, convention) pairs: {hidden} boxes hidden, "
              f"{bad} of them seen by a ray")
    if goals:
        print(f"{'PASS' if ratio <= 1.2 else 'MISS'} [python] occlusion from a {W}x{H} depth image, "
              f"{n} boxes: binding overhead at most 1.2 x    {ratio:.3f} x (medians)")
        if checked:
            print(f"{'PASS' if bad == 0 else 'MISS'} [python] ray cast through random scenes, every "
                  f"convention and hole encoding: 0 seen boxes hidden    {bad}")


def ray_check(rng):
    """The test suite's scenes and encodings (python/tests), when importable."""
    sys.path.insert(0, os.path.join(HERE, "..", "tests"))
    try:
        import test_occlusion as T
    except ImportError:
        return 0, 0, 0
    bad = hidden = checked = 0
    for name, (kw, enc, _fmt, _bits) in sorted(T.ENCODINGS.items()):
        for _ in range(3):
            R, t, oc, oh, qc, qh = T.scene(rng)
            cam = satc.from_intrinsics(T.K, R, t, T.W, T.H, T.NEAR, T.FAR)
            C, dirs, z, holes = T.depth_of(R, t, oc, oh, rng)
            img, _ref = enc(z, holes)
            cls = satc.cull(satc.Pyramid(cam, 64, 32).fill(img, **kw), satc.aabbs(qc, qh), output="classes")
            seen = T.seen_by(C, dirs, qc, qh, np.where(holes.ravel(), np.inf, z.ravel()))
            bad += int((seen & (cls == satc.OCCLUDED)).sum())
            hidden += int((cls == satc.OCCLUDED).sum())
            checked += 1
    return bad, hidden, checked


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer samples")
    ap.add_argument("--goals", action="store_true", help="print the project's goal lines")
    a = ap.parse_args(argv)
    env = os.environ.get("SATC_BENCH_GOALS", "")
    goals = a.goals or (env not in ("", "0"))
    # SATC_BENCH_QUICK=1: the short run every benchmark program honours.
    a.quick = a.quick or os.environ.get("SATC_BENCH_QUICK", "") not in ("", "0")
    rounds = 7 if a.quick else 21
    load = os.getloadavg()
    print(f"satc {satc.__version__} for Python {sys.version.split()[0]}, numpy {np.__version__}; "
          f"path {satc.isa()}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"on {os.cpu_count()} CPUs")
    binding(1 << 20, rounds, goals)
    cameras_vs_corners(100_000, max(5, rounds // 3), 100 if a.quick else 300, goals)
    occlusion(1 << 20, max(5, rounds // 3), goals)
    return 0


if __name__ == "__main__":
    sys.exit(main())
