/* checkasm's groups at the limits of the arithmetic: overflow inside
 * the test, the early-out tiers for frusta and boxes, and class flips. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "checkasm_depth.h"
#include "config.h"
#include "core/internal.h"
#include "occlusion/occlusion.h"
#include "scalar/cull_scalar.h"
#include "scenes.h"

/*
 * Finite boxes that are not "bad" yet overflow inside the test: an axis
 * A_j = (0, h, h) with h near FLT_MAX is orthogonal to L = (1, 0, 0), so
 * alpha_j = 0 and the box stays cullable, while gamma_j = U.A_j or D.A_j
 * overflows to Inf and a zero extent turns e_j |gamma_j| into NaN. Where
 * min/max or compares treat NaN differently, paths part here.
 */
void group_overflow(scn_rng *r)
{
    static const float cs[3][2] = {{0.6f, 0.8f}, {0.8f, -0.6f}, {-0.28f, 0.96f}};
    for (int k = 0; k < 12; k++) {
        float c = cs[k % 3][0], sn = cs[k % 3][1];
        satc_camera cam;
        memset(&cam, 0, sizeof cam);
        const float L[3] = {1, 0, 0}, U[3] = {0, c, -sn}, D[3] = {0, sn, c};
        for (int q = 0; q < 3; q++) {
            cam.origin[q] = (float)scn_uniform(r, -100, 100);
            cam.left[q] = L[q], cam.up[q] = U[q], cam.dir[q] = D[q];
        }
        cam.orthographic = k % 4 == 3;
        cam.n = cam.orthographic ? -5.0f : 0.5f;
        cam.f = k % 4 == 2 ? INFINITY : 200.0f;
        cam.l0 = -0.6f, cam.l1 = 0.6f, cam.u0 = -0.4f, cam.u1 = 0.4f;
        if (k == 1) /* a bound at 0 makes slope * Inf a NaN */
            cam.l0 = 0.0f, cam.u1 = 0.1f;
        else if (k == 5)
            cam.l1 = 0.0f, cam.u0 = 0.0f;
        if (cam.orthographic)
            cam.l0 *= 100, cam.l1 *= 100, cam.u0 *= 100, cam.u1 *= 100;
        satc_frustum f;
        if (satc_frustum_from_camera(&f, &cam) != SATC_OK) {
            fprintf(stderr, "checkasm: overflow camera rejected\n");
            exit(2);
        }
        scn_scene s;
        make_boundary(&s, &cam, sized(10000), scn_next(r));
        batch b;
        batch_from(&b, &s.boxes, s.count, 3);
        for (size_t i = 0; i < b.n; i++) {
            if (scn_next(r) % 4 == 0)
                continue;
            int j = (int)rnd_below(r, 3);
            static const float hs[4] = {3.0e38f, 2.0e38f, 1.0e38f, 3.4e38f};
            float h = hs[rnd_below(r, 4)];
            b.a[3 + 3 * j][i] = 0.0f;
            b.a[4 + 3 * j][i] = scn_next(r) & 1 ? h : -h;
            b.a[5 + 3 * j][i] = scn_next(r) & 1 ? h : -h;
            uint64_t u = scn_next(r) % 4;
            b.a[12 + j][i] = u == 0 ? 0.0f : u == 1 ? -0.0f : u == 2 ? 1.0f : b.a[12 + j][i];
        }
        compare_case(cam.orthographic ? "ortho" : "perspective", &f, &b, 0, b.n, 0);
        batch_free(&b);
        scn_free(&s);
    }
}

/*
 * The scalar path's early out (kernels/early_out.h) culls an OBB before
 * its load when bounds from above of the radius and S prove the plane
 * tier's "outside". Its bound is tightest for a box whose one non-zero
 * extent runs along the world axis where the plane's |normal| is largest:
 * such boxes are put outside one plane of random cameras (a quarter far
 * from the world's origin) within 2^-8 .. 2^-28 (relative) of the plane
 * tier's boundary (radius + tolerance), either side, so the early out's
 * slack and the reference's boundary are both crossed; other extents are
 * mostly 0, axes of any length.
 */
void group_early_out(scn_rng *r)
{
    for (int round = 0; round < rounds(8); round++) {
        satc_camera cam[4];
        satc_frustum fr[4];
        random_cameras(r, cam, fr);
        /* The three perspective kinds, then an axis-aligned camera (where
         * the bound of |dx| + |dy| + |dz| is tight). */
        exact_camera(r, 0, round % 3, &cam[3]);
        if (satc_frustum_from_camera(&fr[3], &cam[3]) != SATC_OK)
            continue;
        for (int k = 0; k < 4; k++) {
            if (round % 4 == 3 && !moved_far(r, cam[k], &fr[k]))
                continue;
            const satc_frustum *f = &fr[k];
            const size_t n = sized(3000);
            batch b;
            batch_init(&b, n, (unsigned)round % 3);
            double far = isinf(f->f) ? 1e3 * f->n : (double)f->f;
            for (size_t i = 0; i < n; i++) {
                int p = (int)rnd_below(r, 6); /* near, far, x1, x0, y1, y0 */
                /* Frame-coordinate normal m of the plane (outward) and a
                 * point on it, at a random depth. */
                double m[3] = {0, 0, 0}, q[3];
                persp_plane_point(f, far, p, r, m, q);
                /* World normal w = m in world coordinates; the axis c*
                 * where |w_c| is largest. */
                double w[3], wl = 0;
                int cs = 0;
                for (int c2 = 0; c2 < 3; c2++) {
                    w[c2] = m[0] * f->frame[0][c2] + m[1] * f->frame[1][c2] + m[2] * f->frame[2][c2];
                    if (fabs(w[c2]) > fabs(w[cs]))
                        cs = c2;
                }
                wl = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
                double alen = pow(10.0, scn_uniform(r, -3, 3)), e0 = pow(10.0, scn_uniform(r, -3, 2));
                /* The box's radius on m and the tolerance (m . cf against
                 * radius + tol is the plane tier's test, m not normalised):
                 * m . cf = (reach + tol)(1 + t). */
                double reach = e0 * alen * fabs(w[cs]);
                double col1 = fabs(f->frame[0][cs]) + fabs(f->frame[1][cs]) + fabs(f->frame[2][cs]);
                double sd = fabs(q[0]) + fabs(q[1]) + fabs(q[2]) + reach;
                double tol = f->eps_k * (sd + e0 * alen * col1) + f->tol_t;
                double t = pow(2.0, -scn_uniform(r, 8, 28)) * (scn_next(r) & 1 ? 1 : -1);
                double dist = (reach + tol) * (1 + t) / (wl * wl);
                double cf[3] = {q[0] + m[0] * dist, q[1] + m[1] * dist, q[2] + m[2] * dist};
                for (int c2 = 0; c2 < 3; c2++) {
                    b.a[c2][i] = (float)(f->origin[c2] + cf[0] * f->frame[0][c2] +
                                         cf[1] * f->frame[1][c2] + cf[2] * f->frame[2][c2]);
                    b.a[3 + c2][i] = c2 == cs ? (float)(scn_next(r) & 1 ? alen : -alen) : 0.0f;
                }
                b.a[12][i] = (float)(scn_next(r) & 1 ? e0 : -e0);
                for (int j = 1; j < 3; j++) {
                    /* Any axis, a zero or tiny extent. */
                    for (int c2 = 0; c2 < 3; c2++)
                        b.a[3 + 3 * j + c2][i] = (float)scn_uniform(r, -1, 1) *
                                                 (float)pow(10.0, scn_uniform(r, -3, 3));
                    uint64_t u = scn_next(r) % 8;
                    b.a[12 + j][i] = u == 1 ? 1e-30f : u == 2 ? (float)(e0 * 1e-6) : 0.0f;
                }
            }
            compare_case(k == 3 ? "axis-aligned" : scn_cam_name((scn_cam_kind)k), f, &b, 0, n,
                         round == 0);
            batch_free(&b);
        }
    }
}

/*
 * Test 3 of the scalar path's early out (kernels/early_out.h) culls an
 * axis-aligned box before its load from world-space planes and a bound of
 * the tolerance, and in conservative mode proves a box visible the same
 * way. Boxes are put outside or inside one plane of random cameras of
 * every kind (a quarter far from the world's origin) within 2^-2 .. 2^-28
 * of the plane tier's boundary (relative to radius + tolerance), either
 * side; extents on one to three world axes or none (points). Every form
 * is compared (the AABB forms read the center and the extents).
 */
void group_early_box(scn_rng *r)
{
    for (int round = 0; round < rounds(8); round++) {
        satc_camera cam[4];
        satc_frustum fr[4];
        random_cameras(r, cam, fr);
        for (int k = 0; k < 4; k++) {
            if (round % 4 == 3 && !moved_far(r, cam[k], &fr[k]))
                continue;
            const satc_frustum *f = &fr[k];
            const int ortho = f->kind != SATC_FRUSTUM_PERSPECTIVE;
            const size_t n = sized(1500);
            batch b;
            batch_init(&b, n, (unsigned)round % 3);
            double far = isinf(f->f) ? 1e3 * f->n : (double)f->f;
            for (size_t i = 0; i < n; i++) {
                int p = (int)rnd_below(r, 6);
                double m[3] = {0, 0, 0}, q[3], e[3];
                if (ortho) { /* face p / 2 of the box, outward normal m */
                    int ax = p / 2;
                    double sg = p & 1 ? -1.0 : 1.0;
                    for (int c2 = 0; c2 < 3; c2++)
                        q[c2] = f->center[c2] + f->half[c2] * scn_uniform(r, -1, 1);
                    q[ax] = f->center[ax] + sg * f->half[ax];
                    m[ax] = sg;
                } else { /* near, far, x1, x0, y1, y0 at a random depth */
                    persp_plane_point(f, far, p, r, m, q);
                }
                /* The box's radius on m (world normal w) and its S. */
                double w[3], reach = 0, sh = 0, sd = 0;
                int shape = (int)rnd_below(r, 8);
                for (int c2 = 0; c2 < 3; c2++) {
                    w[c2] = m[0] * f->frame[0][c2] + m[1] * f->frame[1][c2] + m[2] * f->frame[2][c2];
                    e[c2] = shape == 0 || (shape < 4 && c2 != shape - 1) ? 0.0
                                                                       : pow(10.0, scn_uniform(r, -3, 2));
                    reach += e[c2] * fabs(w[c2]);
                    sh += e[c2] * (fabs(f->frame[0][c2]) + fabs(f->frame[1][c2]) + fabs(f->frame[2][c2]));
                }
                double mm = m[0] * m[0] + m[1] * m[1] + m[2] * m[2];
                double t = pow(2.0, -scn_uniform(r, 2, 28)) * (scn_next(r) & 1 ? 1 : -1);
                for (int it = 0; it < 2; it++) { /* S from the center found in the first pass */
                    double tol = f->eps_k * (sd + sh) + f->tol_t;
                    double dist = (reach + tol) * (1 + t) / mm;
                    sd = 0;
                    for (int c2 = 0; c2 < 3; c2++) {
                        double cf = q[c2] + m[c2] * dist;
                        sd += fabs(cf);
                        b.a[c2][i] = (float)(f->origin[c2] + (q[0] + m[0] * dist) * f->frame[0][c2] +
                                             (q[1] + m[1] * dist) * f->frame[1][c2] +
                                             (q[2] + m[2] * dist) * f->frame[2][c2]);
                    }
                }
                for (int c2 = 0; c2 < 3; c2++) {
                    for (int j = 0; j < 3; j++)
                        b.a[3 + 3 * j + c2][i] = j == c2 ? 1.0f : 0.0f;
                    b.a[12 + c2][i] = (float)(scn_next(r) & 1 ? e[c2] : -e[c2]);
                }
            }
            g_forms = 1;
            compare_case(scn_cam_name((scn_cam_kind)k), f, &b, 0, n, round == 0);
            g_forms = 0;
            batch_free(&b);
        }
    }
}

/* Floats in increasing order as integers, and back. */
static int64_t float_key(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u >> 31 ? -(int64_t)(u & 0x7fffffffu) : (int64_t)u;
}

static float key_float(int64_t k)
{
    uint32_t u = k < 0 ? (uint32_t)(-k) | 0x80000000u : (uint32_t)k;
    return bits_to_float(u);
}

/* Conservative and exact class of box i of b, as the reference says (fc:
 * f's constants). */
static unsigned ref_classes(const satc_frustum *f, const satc_fconsts *fc, const batch *b, size_t i)
{
    satc_batch bb = satc_batch_from_boxes(&b->view);
    return satc_classify_ref(f, fc, &bb, i, 0) | satc_classify_ref(f, fc, &bb, i, SATC_K_EXACT) << 2;
}

/*
 * Boxes on the reference's decision boundaries: one field of a box is moved
 * between two values where the classes differ, by bisection down to
 * adjacent floats, and both neighbours are kept. Some compare of the
 * reference flips between them (often on an exact tie), so any path that
 * rounds or compares differently shows there.
 */
void group_flips(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    for (int k = 0; k < 6; k++) {
        satc_camera c = k < 4 ? cam[k] : cam[0];
        satc_frustum f = k < 4 ? fr[k] : fr[0];
        if (k >= 4) {
            exact_camera(r, k == 5, 0, &c);
            if (satc_frustum_from_camera(&f, &c) != SATC_OK)
                exit(2);
        }
        satc_fconsts fc;
        satc_frustum_consts(&f, &fc);
        scn_scene s;
        make_boundary(&s, &c, sized(8000), scn_next(r));
        batch b;
        batch_init(&b, 2 * s.count, 0);
        size_t m = 0;
        for (size_t i = 0; i < s.count; i++) {
            batch_copy(&b, m, &s.boxes, i, 1);
            /* A center coordinate (mostly) or an extent, moved by up to a
             * few box sizes. */
            int q = scn_next(r) % 4 ? (int)rnd_below(r, 3) : 12 + (int)rnd_below(r, 3);
            float v0 = b.a[q][m];
            double reach = 4.0 * (fabs((double)b.a[12][m]) + fabs((double)b.a[13][m]) +
                                  fabs((double)b.a[14][m])) + 1e-3;
            float v1 = (float)((double)v0 + scn_uniform(r, -reach, reach));
            unsigned c0 = ref_classes(&f, &fc, &b, m);
            b.a[q][m] = v1;
            if (ref_classes(&f, &fc, &b, m) == c0)
                continue; /* no boundary crossed: the slot is reused */
            int64_t lo = float_key(v0), hi = float_key(v1);
            while (lo + 1 != hi && lo - 1 != hi) {
                int64_t mid = lo + (hi - lo) / 2;
                b.a[q][m] = key_float(mid);
                if (ref_classes(&f, &fc, &b, m) == c0)
                    lo = mid;
                else
                    hi = mid;
            }
            b.a[q][m] = key_float(hi);
            batch_copy(&b, m + 1, &b.view, m, 1);
            b.a[q][m + 1] = key_float(lo);
            m += 2;
        }
        compare_case(k < 4 ? scn_cam_name((scn_cam_kind)k) : "exact camera", &f, &b, 0, m, 0);
        batch_free(&b);
        scn_free(&s);
    }
}
