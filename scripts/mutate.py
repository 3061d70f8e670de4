#!/usr/bin/env python3
"""Mutation testing: applies each small mutation (a text edit) of MUTATIONS
to a copy of the tree, one at a time, rebuilds, runs `meson test`, and
reports which were caught (a test failed) and which were not.

    scripts/mutate.py                 # every mutation (slow: about 1 min each)
    scripts/mutate.py --only tol_t,k_persp --jobs 2
    scripts/mutate.py --list

The copy (tracked files of the working tree) is built once with
-Dbench=false; each mutation edits it, rebuilds incrementally and is
reverted. Exit status 1 when a mutation is not caught, or no longer
applies (its text is not found exactly once: update the list).
SATC_HUNT_SECONDS is passed through (the hunter runs 10 s by default).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# (name, class, [(path, old text, new text), ...]); every old text must
# occur exactly once in its file. A mutation of a kernel expression edits
# the scalar reference and the SIMD layer alike where it says "all paths",
# so that the bit-exact comparison alone cannot catch it.
MUTATIONS = [
    # Tolerance terms, both frustum kinds (issue 16).
    ("tol_t", "tolerance", [("src/volumes/frustum.c",
        "fr.tol_t = (float)(SATC_EPSILON * size * (1.0 + 0x1p-20));", "fr.tol_t = 0.0f;")]),
    ("eps_ortho", "tolerance", [("src/volumes/frustum.c",
        "fr.eps_k = SATC_EPSILON;", "fr.eps_k = 0.0f;")]),
    ("eps_persp", "tolerance", [("src/volumes/frustum.c",
        "fr->eps_k = (float)(SATC_EPSILON * K);", "fr->eps_k = 0.0f;")]),
    # The instances' local offset in S (docs/error-bound.md §3.4).
    ("s_offset", "tolerance", [("src/scalar/load_scalar.c",
        "o->s = o->s + ((pl[0] + pl[1]) + pl[2]);", "o->s = o->s;"),
        ("src/kernels/load.h", "x[F_S] = v_add(x[F_S], v_add(v_add(pl[0], pl[1]), pl[2]));",
         "x[F_S] = x[F_S];")]),
    ("k_persp", "tolerance", [("src/volumes/frustum.c",
        "double K = 1.0 + maxabs(fr->x0, fr->x1) + maxabs(fr->y0, fr->y1);", "double K = 1.0;")]),
    ("s_floor", "tolerance", [("src/core/internal.h",
        "#define SATC_S_FLOOR 7.888609052210118e-31f", "#define SATC_S_FLOOR 0.0f")]),
    ("tiny", "tolerance", [("include/satc.h",
        "#define SATC_TINY 7.52316384526264e-37f", "#define SATC_TINY 0.0f")]),
    ("s_no_delta", "tolerance (all paths)", [
        ("src/scalar/load_scalar.c", "o->s = sd + ax + ay + az + SATC_S_FLOOR;",
         "o->s = 0.0f * sd + ax + ay + az + SATC_S_FLOOR;"),
        ("src/kernels/load.h", "x[F_S] = v_add(v_add(v_add(v_add(sum_abs_d(x), ax), ay), az), k->sfloor);",
         "x[F_S] = v_add(v_add(v_add(v_add(v_mul(k->zero, sum_abs_d(x)), ax), ay), az), k->sfloor);")]),
    ("s_no_axes", "tolerance (all paths)", [
        ("src/scalar/load_scalar.c", "o->s = sd + ax + ay + az + SATC_S_FLOOR;",
         "o->s = sd + 0.0f * (ax + ay + az) + SATC_S_FLOOR;"),
        ("src/kernels/load.h", "x[F_S] = v_add(v_add(v_add(v_add(sum_abs_d(x), ax), ay), az), k->sfloor);",
         "x[F_S] = v_add(v_add(sum_abs_d(x), v_mul(k->zero, v_add(v_add(ax, ay), az))), k->sfloor);")]),
    ("max_magnitude_2_64", "tolerance", [("include/satc.h",
        "#define SATC_MAX_MAGNITUDE 1099511627776.0f", "#define SATC_MAX_MAGNITUDE 1.8446744073709552e19f")]),
    # Scalar reference.
    ("drop_face_axis", "scalar reference", [("src/scalar/cull_scalar.c",
        "        axis_persp(f, o, X[j][k], Y[j][k], Z[j][k], tol_s, fb, &g);\n",
        "")]),
    ("near_wrong_side", "scalar reference", [("src/scalar/cull_scalar.c",
        "float gap = max_ref(f->n - zp, zm - f->f);", "float gap = max_ref(f->n - zm, zm - f->f);")]),
    ("eager_inside", "scalar reference", [("src/scalar/cull_scalar.c",
        "    p.inside = inside && !out && !o->bad;\n    /* Crossing",
        "    p.inside = !out && !o->bad;\n    /* Crossing")]),
    ("nan_not_bad", "scalar reference", [("src/scalar/load_scalar.c",
        "o->bad = force_bad | !(o->s < SATC_MAX_MAGNITUDE);",
        "o->bad = force_bad | (o->s >= SATC_MAX_MAGNITUDE);")]),
    ("far_scaling", "scalar reference", [("src/scalar/cull_scalar.c",
        "float m0 = plo < 0.0f ? fb * plo : n * plo;", "float m0 = n * plo;")]),
    ("vertex_accept_far", "scalar reference", [("src/scalar/cull_scalar.c",
        "return (z >= f->n + mg) & (z <= f->f - mg) &", "return (z >= f->n + mg) &")]),
    # SIMD layers.
    ("simd_ortho_tolt", "SIMD", [("src/kernels/plane_tier.h",
        "V tol = v_add(v_mul(k->epsk, x[F_S]), k->tolt);\n    V t[3]",
        "V tol = v_mul(k->epsk, x[F_S]);\n    V t[3]")]),
    ("simd_persp_tol", "SIMD", [("src/kernels/plane_tier.h",
        "    V tol = v_add(v_mul(k->epsk, x[F_S]), k->tolt), ntol = v_neg(tol);",
        "    V tol = k->zero, ntol = v_neg(tol);")]),
    ("simd_aabb_s", "SIMD", [("src/kernels/load.h",
        "x[F_S] = v_add(v_add(sum_abs_d(x), sh), k->sfloor);", "x[F_S] = v_add(sum_abs_d(x), k->sfloor);")]),
    ("simd_maxmag", "SIMD", [("src/kernels/load.h",
        "return m_not(v_lt(x[F_S], k->maxmag));", "return v_lt(k->maxmag, x[F_S]);")]),
    # The scalar path's early decisions (kernels/early_out.h): a bound
    # without its tolerance and rounding terms, a far plane culling its
    # inside, the cap of test 1's tolerance dropped.
    ("eo_box_bound", "scalar path", [("src/kernels/early_out.h",
        "    k->eo_alpha = gg * (f->eps_k * m3 + EO_G * kk);", "    k->eo_alpha = 0.0f;"),
        ("src/kernels/early_out.h", "    k->eo_tcap = (k->eo_alpha * k->eo_scap + k->eo_beta) * (1.0f + EO_G);",
         "    k->eo_tcap = 0.0f;")]),
    ("eo_box_far", "scalar path", [("src/kernels/early_out.h",
        "        off[0] = f->n, off[1] = -f->f;", "        off[0] = f->n, off[1] = -0.5f * f->f;")]),
    ("eo_obb_cap", "scalar path", [("src/kernels/early_out.h",
        "    k->eo_tcap1 = obb_tol(k, k->eo_scap1);", "    k->eo_tcap1 = 0.0f;")]),
    # Frustum from a matrix and the other constructors.
    ("matrix_no_contain", "frustum from matrix", [("src/volumes/frustum_matrix.c",
        "    s = contain(&cam, m0, conventions, &far_in);", "    s = SATC_OK; far_in = INFINITY;")]),
    ("matrix_near_sign", "frustum from matrix", [("src/volumes/frustum_matrix.c",
        "o->n = -hn / an;", "o->n = hn / an;")]),
    ("matrix_slope_margin", "frustum from matrix", [("src/volumes/frustum_matrix.c",
        "cam->l1 = round_dir((hi[0] + CONTAIN_SLOPE * fabs(hi[0]) + g) * n, 1);",
        "cam->l1 = narrow(hi[0] * n);")]),
    ("persp_subnormal_bounds", "frustum", [("src/volumes/frustum.c",
        "if (n > 0.0f && !(fmin(mu, l) >= FLT_MIN && fmax(mu, l) <= FLT_MAX))",
        "if (0)")]),
    ("obb_matrix_nearest", "boxes", [("src/forms/boxes.c",
        "double g1 = 1.01 * (gc + 0x1p-50 * tn + ga);", "double g1 = 0.0;")]),
    ("obb_matrix_axis_term", "boxes", [("src/forms/boxes.c",
        "ga += n1 * (0x1p-24 * hd + 0x1p-49 * (fabs(lo) + fabs(hi)));",
        "ga += n1 * (0x1p-49 * (fabs(lo) + fabs(hi)));")]),
    # Output formatting.
    ("lost_index_offset", "output", [("src/passes/run.c",
        "out->indices[visible++] = (uint32_t)(first + done + w * 64 + ctz64(m));",
        "out->indices[visible++] = (uint32_t)(done + w * 64 + ctz64(m));")]),
    ("visible_count", "output", [("src/passes/run.c",
        "                visible += popcount64(vis[w]);", "                visible += popcount64(vis[w] >> 1);")]),
    # Argument checks.
    ("no_range_check", "arguments", [("src/core/batch.c",
        "for the exact test */\n    if (count > SIZE_MAX - first)\n        return SATC_ERR_RANGE;\n",
        "for the exact test */\n")]),
    ("no_index_range", "arguments", [("src/core/batch.c",
        "    if (want_indices && first + count - 1 > UINT32_MAX)\n        return SATC_ERR_RANGE;\n", "")]),
    ("bad_mode_ok", "arguments", [("src/core/batch.c",
        "if ((mode != SATC_CONSERVATIVE && mode != SATC_EXACT) ||", "if (")]),
    # Sphere and ray queries (issue 12): the refinement in double.
    ("ray_slab_tol", "queries", [("src/passes/query_geom.c",
        "double R = support(N[i], v->H) + SATC_QUERY_TOLERANCE * satc_norm1_d(N[i]) * lam;",
        "double R = support(N[i], v->H);")]),
    ("ray_faces_only", "queries", [("src/passes/query_geom.c",
        "if (satc_norm1_d(N[i]) > 0)", "if (satc_norm1_d(N[i]) > 0 && i < 3)")]),
    ("sphere_no_closest_plane", "queries", [("src/passes/query_geom.c",
        "if (lower_bound(m, w, v->H) > reach)", "if (0)")]),
    ("nearest_tie_last", "queries", [("src/passes/queries.c",
        "if (tf < best_t)", "if (tf <= best_t)")]),
    # The views pass's own bounds (issue 11): the groups' growth, their
    # widening, the NaN flag, the instances' extra S term.
    ("pre_shrink", "views", [("src/passes/views_pre.c",
        "double d = p->any ? 2.0 * (1.0 + 0x1p-9) *", "double d = p->any ? -2.0 * (1.0 + 0x1p-9) *")]),
    ("pre_no_widen", "views", [("src/passes/views_pre.c",
        "double w = 0x1p-22 * (fabs(l[q]) + fabs(h[q]) + (h[q] - l[q]) + x) + 0x1p-120;",
        "double w = 0.0;")]),
    ("pre_nan_kept", "views", [("src/kernels/bounds.h",
        "int ok = m_bits(v_le(v_abs(sum), fmax_)) == SATC_FULL;", "int ok = 1; (void)fmax_;")]),
    ("pre_no_extra_s", "views", [("src/kernels/bounds.h",
        "xs[g] = !ok ? NAN : inst ? h_ext(mp, 1) : 0.0f;", "xs[g] = !ok ? NAN : 0.0f;")]),
    # A matrix frustum's INSIDE against its tilted far plane (issue 23).
    ("far_in_is_f", "inside", [("src/volumes/frustum_matrix.c",
        "tmp.f_in = v < tmp.f ? v : tmp.f;", "tmp.f_in = tmp.f;")]),
    ("group_far_shift", "inside", [("src/passes/groups.c",
        "g->far_shift = (double)f->f - f->f_in;", "g->far_shift = 0.0;")]),
    # Exact mode's second stage (issue 23): skipped, the plane tiers' band
    # dropped (all paths), the slopes not widened, the frame's term dropped.
    ("redecide_off", "second stage", [("src/kernels/redecide.c",
        "    vol v;\n    if (!load(f, b, i, &v))\n        return 0;", "    vol v;\n    if (1 || !load(f, b, i, &v))\n        return 0;")]),
    ("plane_band_off", "second stage (all paths)", [
        ("src/scalar/cull_scalar.c", "p.band = !out && gap > ntol && !o->bad;", "p.band = 0;"),
        ("src/kernels/plane_tier.h", "p.band = m_andnot(v_gt(gap, ntol), m_or(out, bad));", "p.band = m_none(k);")]),
    ("slopes_unwidened", "second stage", [("src/kernels/redecide.c",
        "    double e = fabs(s) * (0x1p-24 + 0x1p-44);", "    double e = 0 * fabs(s);")]),
    # The band flag halved in the reference and the kernels together: a
    # float decision within T of culling (not 2 T) goes to the second
    # stage (perspective plane tier and exact-tier axes).
    ("band_flag_halved", "second stage (all paths)", [
        ("src/scalar/cull_scalar.c", "p.band = !out && gap > ntol && !o->bad;",
         "p.band = !out && gap > 0.0f && !o->bad;"),
        ("src/scalar/cull_scalar.c", "g->b |= u < T + T;", "g->b |= u < T;"),
        ("src/kernels/plane_tier.h", "p.band = m_andnot(v_gt(gap, ntol), m_or(out, bad));",
         "p.band = m_andnot(v_gt(gap, v_sub(ntol, ntol)), m_or(out, bad));"),
        ("src/kernels/axes.h", "g->b = m_or(g->b, v_lt(u, v_add(T, T)));", "g->b = m_or(g->b, v_lt(u, T));"),
        ("src/kernels/axes.h", "    V T2 = v_add(T, T);\n    g->s = m_or(g->s, v_lt(a, m0));",
         "    V T2 = T;\n    g->s = m_or(g->s, v_lt(a, m0));"),
        ("src/kernels/axes.h", "    V T2 = v_add(T, T);\n    g->s = m_or(g->s, v_gt(b, m1));",
         "    V T2 = T;\n    g->s = m_or(g->s, v_gt(b, m1));")]),
    ("frame_dev_off", "second stage", [("src/kernels/redecide.c",
        "    double tol_t = (double)f->tol_t + 2 * v.dev * v.reach;", "    double tol_t = (double)f->tol_t;")]),
    # Path selection.
    ("path_preference", "dispatch", [("src/dispatch/dispatch.c",
        "    if (m & SATC_ISA_AVX2)\n        return SATC_ISA_AVX2;\n    if (m & SATC_ISA_SSE41)\n        return SATC_ISA_SSE41;",
        "    if (m & SATC_ISA_SSE41)\n        return SATC_ISA_SSE41;\n    if (m & SATC_ISA_AVX2)\n        return SATC_ISA_AVX2;")]),
    ("env_over_mask", "dispatch", [("src/dispatch/dispatch.c",
        "(satc_isa_runnable() & mask & isa)", "(satc_isa_runnable() & isa)")]),
]


def run(cmd, cwd, log, timeout=None, env=None):
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT,
                                  timeout=timeout, env=env).returncode
        except subprocess.TimeoutExpired:
            f.write("timeout\n")
            return 124


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated mutation names")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the copy (printed)")
    ap.add_argument("--in-place", metavar="BUILD",
                    help="mutate this tree itself (restored after each mutation) and use its "
                         "configured, built and passing build directory BUILD: no copy, no baseline")
    args = ap.parse_args()
    if args.list:
        for name, cls, edits in MUTATIONS:
            print(f"{name:24} {cls:22} {edits[0][0]}")
        return 0
    chosen = MUTATIONS
    if args.only:
        names = set(args.only.split(","))
        unknown = names - {m[0] for m in MUTATIONS}
        if unknown:
            sys.exit("unknown mutations: " + ", ".join(sorted(unknown)))
        order = args.only.split(",")
        chosen = sorted((m for m in MUTATIONS if m[0] in names), key=lambda m: order.index(m[0]))

    root = subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()
    tmp = tempfile.mkdtemp(prefix="satc-mutate-")
    log = os.path.join(tmp, "log.txt")
    j = f"-j{args.jobs}"
    bdir = "build"
    if args.in_place:
        src, bdir = root, os.path.abspath(args.in_place)
        print(f"mutating {src} in place, build {bdir}, log {log}", flush=True)
    else:
        src = os.path.join(tmp, "src")
        files = subprocess.check_output(["git", "ls-files", "-z"], cwd=root).decode().split("\0")
        for rel in filter(None, files):
            dst = os.path.join(src, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if os.path.isfile(os.path.join(root, rel)):
                shutil.copy2(os.path.join(root, rel), dst)
        print(f"copy in {src}, log {log}; baseline build ...", flush=True)
        if run(["meson", "setup", "build", "-Dbench=false"], src, log) or run(["ninja", "-C", "build", j], src, log):
            sys.exit("baseline build failed (see log)")
    test = ["meson", "test", "-C", bdir, "--no-rebuild", f"--num-processes={args.jobs}"]
    if not args.in_place and run(test, src, log, timeout=900):
        sys.exit("baseline meson test fails: mutations cannot be judged (see log)")

    results = []
    for name, cls, edits in chosen:
        t0 = time.time()
        originals, status = {}, None
        for path, old, new in edits:
            p = os.path.join(src, path)
            text = originals.get(p) or open(p).read()
            originals.setdefault(p, text)
            cur = open(p).read()
            if cur.count(old) != 1:
                status = "stale (text not found once)"
                break
            with open(p, "w") as f:
                f.write(cur.replace(old, new))
        try:
            status = status or judge(name, src, bdir, j, test, tmp, log)
        finally:
            for p, text in originals.items():
                with open(p, "w") as f:
                    f.write(text)
        results.append((name, cls, status))
        print(f"{name:24} {cls:22} {status}  ({time.time() - t0:.0f} s)", flush=True)
    run(["ninja", "-C", bdir, j], src, log)
    caught = sum(1 for r in results if r[2].startswith("caught"))
    print(f"\n{caught} of {len(results)} mutations caught")
    if not args.keep and not args.in_place:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if caught == len(results) else 1


def judge(name, src, bdir, j, test, tmp, log):
    """Builds and tests the mutated tree: caught (and by what) or not."""
    with open(log, "a") as f:
        f.write(f"\n=== mutation {name}\n")
    if run(["ninja", "-C", bdir, j], src, log):
        return "build failed"
    tlog = os.path.join(tmp, f"test-{name}.txt")
    rc = run(test, src, tlog, timeout=900)
    if not rc:
        return "NOT CAUGHT"
    failed = re.findall(r"\d+/\d+ satc:\S+ / (\S+)\s+(?:FAIL|TIMEOUT)", open(tlog).read())
    return "caught by " + ", ".join(failed)


if __name__ == "__main__":
    sys.exit(main())
