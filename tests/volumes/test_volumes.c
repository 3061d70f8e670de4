/*
 * Plane volumes (satc_frustum_from_planes): random boxes of every form
 * against frusta given as 6 planes, boxes as 6 planes, random polytopes
 * of up to 16 planes, half-spaces (with margins) and unbounded volumes,
 * checked against a double oracle (LP feasibility, vol_oracle.c): no
 * false negative, exact mode culls everything beyond its band, classes
 * honour the margin; every path bit-identical to scalar (FTZ/DAZ off and
 * on), tails and sub-ranges; inside satc_cull_views with other kinds and
 * with group bounds; a frustum's 6 planes agree with the frustum; bad
 * input gets its status and writes nothing.
 */
/* Debian's aarch64 gcc 12 crashes vectorizing this file's oracle loops
 * (internal compiler error in vect_transform_reduction): test code, built
 * without the vectorizer there. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__aarch64__)
#pragma GCC optimize("no-tree-vectorize")
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fn_common.h"
#include "vol_oracle.h"
#include "vol_check.h"

static long n_touch, n_exact_only, n_inside, n_bounded; /* what the random cases reached */

enum { N = 301 };
static float ctr[N][3], ext[N][3], axis[3][N][3], haxes[3][N][3], mat[N][16], mn[N][3], mx[N][3],
    sph[N][4];
static const float lc0[3] = {0, 0, 0}, lh1[3] = {1, 1, 1};
static dbox boxes[7][N]; /* per form */

static satc_batch make_batch(int form)
{
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = (satc_form)form;
    switch (form) {
    case SATC_FORM_OBB:
        b.obb.center = SATC_VEC3S_AOS(&ctr[0][0], 12);
        b.obb.extent = SATC_VEC3S_AOS(&ext[0][0], 12);
        for (int j = 0; j < 3; j++)
            b.obb.axis[j] = SATC_VEC3S_AOS(&axis[j][0][0], 12);
        break;
    case SATC_FORM_AABB: b.aabb = (satc_aabbs){SATC_VEC3S_AOS(&ctr[0][0], 12), SATC_VEC3S_AOS(&ext[0][0], 12)}; break;
    case SATC_FORM_MINMAX: b.minmax = (satc_minmax){SATC_VEC3S_AOS(&mn[0][0], 12), SATC_VEC3S_AOS(&mx[0][0], 12)}; break;
    case SATC_FORM_HALF_AXES:
        b.half_axes.center = SATC_VEC3S_AOS(&ctr[0][0], 12);
        for (int j = 0; j < 3; j++)
            b.half_axes.axis[j] = SATC_VEC3S_AOS(&haxes[j][0][0], 12);
        break;
    case SATC_FORM_INSTANCES:
        b.instances = (satc_instances){mat[0], 64, SATC_AFFINE_4X4_COLUMN_MAJOR,
                                       {&lc0[0], &lc0[1], &lc0[2], 0}, {&lh1[0], &lh1[1], &lh1[2], 0},
                                       NULL, 0, 0};
        break;
    default: b.spheres = (satc_spheres){SATC_VEC3S_AOS(&sph[0][0], 16), {&sph[0][3], 16}}; break;
    }
    return b;
}

/* Boxes around the volume: near its vertices (where the exact test
 * works hardest) or anywhere within reach; sizes log-uniform. */
static void make_boxes(const satc_frustum *f)
{
    double R = 0;
    for (uint32_t m = 0; m < f->nverts; m++)
        for (int q = 0; q < 3; q++)
            R = fmax(R, fabs(f->vert[m][q]));
    if (R == 0)
        R = 6;
    for (int i = 0; i < N; i++) {
        double c[3], a[3][3];
        int m = f->nverts && vo_rand() < 0.5 ? (int)(vo_rand() * f->nverts) : -1;
        double size = R * exp(log(0.005) + vo_rand() * log(100.0));
        for (int q = 0; q < 3; q++) {
            double base = m >= 0 ? f->vert[m][q] : 1.3 * R * (2 * vo_rand() - 1);
            c[q] = f->origin[q] + base + size * 1.5 * (2 * vo_rand() - 1);
            ctr[i][q] = (float)c[q];
            ext[i][q] = (float)(size * (0.2 + vo_rand()));
        }
        vo_rotation(a);
        int touch = vo_rand() < 0.4; /* a corner on a vertex (or plane 0's foot point) */
        if (touch && vo_rand() < 0.5)
            memset(a, 0, sizeof a), a[0][0] = a[1][1] = a[2][2] = 1;
        for (int j = 0; j < 3; j++) {
            for (int q = 0; q < 3; q++) {
                axis[j][i][q] = (float)a[j][q];
                haxes[j][i][q] = ext[i][j] * axis[j][i][q];
                mat[i][4 * j + q] = haxes[j][i][q];
            }
            mat[i][4 * j + 3] = 0;
        }
        if (touch) {
            double p[3], n[3], len = 0;
            if (f->nverts) {
                m = (int)(vo_rand() * f->nverts);
                for (int q = 0; q < 3; q++)
                    p[q] = (double)f->origin[q] + f->vert[m][q];
            } else { /* plane 0: n.(x - E) + w = 0 */
                for (int q = 0; q < 3; q++)
                    n[q] = f->plane[0][q], len += n[q] * n[q];
                for (int q = 0; q < 3; q++)
                    p[q] = (double)f->origin[q] - f->plane[0][3] * n[q] / len;
            }
            double sg[3];
            for (int j = 0; j < 3; j++)
                sg[j] = vo_rand() < 0.5 ? -1 : 1;
            for (int q = 0; q < 3; q++) {
                double cq = p[q];
                for (int j = 0; j < 3; j++)
                    cq -= sg[j] * haxes[j][i][q];
                ctr[i][q] = (float)cq;
            }
        }
        for (int q = 0; q < 3; q++) {
            mat[i][12 + q] = ctr[i][q];
            mn[i][q] = ctr[i][q] - ext[i][q], mx[i][q] = ctr[i][q] + ext[i][q];
            sph[i][q] = ctr[i][q];
        }
        mat[i][15] = 1, sph[i][3] = ext[i][0];
        for (int form = 1; form <= 6; form++) {
            dbox *b = &boxes[form][i];
            memset(b, 0, sizeof *b);
            for (int q = 0; q < 3; q++) {
                b->c[q] = ctr[i][q];
                for (int j = 0; j < 3; j++) {
                    if (form == SATC_FORM_OBB)
                        b->h[j][q] = (double)ext[i][j] * axis[j][i][q];
                    else if (form == SATC_FORM_HALF_AXES || form == SATC_FORM_INSTANCES)
                        b->h[j][q] = haxes[j][i][q];
                }
            }
            if (form == SATC_FORM_AABB || form == SATC_FORM_SPHERES) {
                for (int q = 0; q < 3; q++)
                    b->h[q][q] = form == SATC_FORM_AABB ? ext[i][q] : ext[i][0] / sqrt(3.0) * (1 - 1e-9);
            } else if (form == SATC_FORM_MINMAX) {
                for (int q = 0; q < 3; q++)
                    b->c[q] = 0.5 * ((double)mn[i][q] + mx[i][q]), b->h[q][q] = 0.5 * ((double)mx[i][q] - mn[i][q]);
            }
        }
    }
}

/* The contract's S (about the volume's origin) and the volume's F. */
static double box_S(const satc_frustum *f, const dbox *b, int form, int i)
{
    double s = 0;
    for (int q = 0; q < 3; q++) {
        s += fabs(b->c[q] - f->origin[q]);
        for (int j = 0; j < 3; j++)
            s += fabs(b->h[j][q]);
    }
    return form == SATC_FORM_SPHERES ? s + 2 * sph[i][3] : s;
}

static double vol_F(const satc_frustum *f)
{
    double F = 0;
    for (uint32_t m = 0; m < f->nverts; m++)
        F = fmax(F, fabs(f->vert[m][0]) + fabs(f->vert[m][1]) + fabs(f->vert[m][2]));
    return F;
}

static uint8_t cls_ref[2][N], cls_q[N], cls_p[N], bits_ref[(N + 7) / 8], bits_p[(N + 7) / 8];
static uint32_t idx_ref[N], idx_p[N];

/* The oracle's verdicts on one form's boxes for scalar classes. */
static void check_oracle(const vol *v, const satc_frustum *f, int form, int mode, const uint8_t *cls)
{
    double F = vol_F(f);
    for (int i = 0; i < N; i++) {
        const dbox *b = &boxes[form][i];
        double S = box_S(f, b, form, i), band = SATC_EXACT_BAND * 2 * (S + F);
        /* The oracle's own rounding: n.C + d about a far world, and a local part. */
        double tiny = 1e-13 * (fabs(b->c[0]) + fabs(b->c[1]) + fabs(b->c[2])) + 1e-10 * (1 + S);
        int touch = vo_touch(v, b, -tiny);
        if (form == SATC_FORM_SPHERES) { /* the center, or the inscribed cube */
            dbox p = *b;
            memset(p.h, 0, sizeof p.h);
            touch |= vo_touch(v, &p, -tiny);
        }
        if (touch && cls[i] == SATC_OUTSIDE && getenv("VOL_DEBUG")) {
            printf("vol n=%d margin %a nverts %u\n", v->n, v->margin, f->nverts);
            for (int k = 0; k < v->n; k++)
                printf("  {%a, %a, %a, %a},\n", v->p[k][0], v->p[k][1], v->p[k][2], v->p[k][3]);
            printf("box c %a %a %a\n", b->c[0], b->c[1], b->c[2]);
            for (int j = 0; j < 3; j++)
                printf("  h %a %a %a\n", b->h[j][0], b->h[j][1], b->h[j][2]);
        }
        n_touch += touch;
        n_inside += cls[i] == SATC_INSIDE;
        CHECK(!touch || cls[i] != SATC_OUTSIDE, "%s %s form %d mode %d box %d touches, culled",
              v->name, "", form, mode, i);
        /* Plane k's interval: beyond one plane by the band is culled; past
         * every plane by margin + band is inside; inside means past the margin. */
        int out = 0, in = 1, in_ok = 1;
        double r = form == SATC_FORM_SPHERES ? sph[i][3] : 0;
        for (int k = 0; k < v->n; k++) {
            double lo, hi;
            vo_interval(v, k, b, &lo, &hi);
            if (form == SATC_FORM_SPHERES)
                lo = lo + b->h[0][0] * 0 - r, hi = hi + r; /* h is 0 on the plane test for spheres */
            out |= hi < -band;
            in &= lo > 2 * v->margin + band;
            in_ok &= lo >= 2 * v->margin - band;
        }
        if (form == SATC_FORM_SPHERES) {
            /* the sphere's interval is the center's +- r, recomputed */
            out = 0, in = 1, in_ok = 1;
            for (int k = 0; k < v->n; k++) {
                double n[3], d;
                vo_plane(v, k, 0, n, &d);
                double s = n[0] * b->c[0] + n[1] * b->c[1] + n[2] * b->c[2] + d;
                out |= s + r < -band;
                in &= s - r > 2 * v->margin + band;
                in_ok &= s - r >= 2 * v->margin - band;
            }
        }
        CHECK(!out || cls[i] == SATC_OUTSIDE, "%s form %d mode %d box %d beyond a plane, kept", v->name,
              form, mode, i);
        CHECK(!in || cls[i] == SATC_INSIDE, "%s form %d mode %d box %d inside, class %d", v->name, form,
              mode, i, cls[i]);
        CHECK(in_ok || cls[i] != SATC_INSIDE, "%s form %d mode %d box %d not inside, class 2", v->name,
              form, mode, i);
        if (mode == SATC_EXACT && form != SATC_FORM_SPHERES)
            CHECK(vo_touch(v, b, band) || cls[i] == SATC_OUTSIDE,
                  "%s form %d box %d beyond the exact band, kept", v->name, form, i);
    }
}

/* Every other path against scalar, full range and a sub-range, with and
 * without classes (the inside test is a kernel flag). */
static void check_paths(const vol *v, const satc_frustum *f, const satc_batch *b, int mode, int ftz)
{
    static const size_t ranges[3][2] = {{0, N}, {5, 123}, {17, 1}};
    for (int rg = 0; rg < 3; rg++) {
        size_t first = ranges[rg][0], count = ranges[rg][1];
        for (int cl = 0; cl < 2; cl++) {
            satc_results r0 = {.bitmask = bits_ref, .indices = idx_ref, .classes = cl ? cls_q : NULL};
            satc_status st = satc_cull_isa(SATC_ISA_SCALAR, f, b, first, count, (satc_mode)mode, &r0);
            CHECK(st == SATC_OK, "scalar status %d", (int)st);
            for (unsigned isa = 2; isa <= SATC_ISA_AVX512; isa <<= 1) {
                if (!(satc_isa_runnable() & isa))
                    continue;
                memset(cls_p, 0xEE, sizeof cls_p);
                satc_results r1 = {.bitmask = bits_p, .indices = idx_p, .classes = cl ? cls_p : NULL};
                st = satc_cull_isa((satc_isa)isa, f, b, first, count, (satc_mode)mode, &r1);
                int same = st == SATC_OK && r1.visible == r0.visible &&
                           !memcmp(bits_p, bits_ref, (count + 7) / 8) &&
                           !memcmp(idx_p, idx_ref, r0.visible * sizeof idx_p[0]) &&
                           (!cl || !memcmp(cls_p, cls_q, count));
                CHECK(same, "%s form %d mode %d path %s ftz %d range %zu+%zu classes %d differs",
                      v->name, (int)b->form, mode, satc_isa_name((satc_isa)isa), ftz, first, count, cl);
            }
        }
    }
}

/* One volume: every form, both modes (exact where bounded), oracle, paths. */
static void run_volume(const vol *v)
{
    satc_frustum f;
    satc_status st = satc_frustum_from_planes(&f, (const float(*)[4])v->p, (size_t)v->n, v->margin);
    CHECK(st == SATC_OK, "%s: status %s", v->name, satc_status_string(st));
    if (st != SATC_OK)
        return;
    if (v->bounded >= 0)
        CHECK((f.nverts > 0) == v->bounded, "%s: bounded %u, expected %d", v->name, f.nverts, v->bounded);
    make_boxes(&f);
    n_bounded += f.nverts > 0;
    for (int form = 1; form <= 6; form++) {
        satc_batch b = make_batch(form);
        for (int mode = 0; mode < 2; mode++) {
            satc_results r = {.classes = cls_ref[mode]};
            st = satc_cull_isa(SATC_ISA_SCALAR, &f, &b, 0, N, (satc_mode)mode, &r);
            if (mode == SATC_EXACT && !f.nverts) {
                CHECK(st == SATC_ERR_FAR, "%s: exact on unbounded gives %d", v->name, (int)st);
                continue;
            }
            CHECK(st == SATC_OK, "%s form %d mode %d: %d", v->name, form, mode, (int)st);
            check_oracle(v, &f, form, mode, cls_ref[mode]);
            for (int ftz = 0; ftz <= fn_fp_has_ftz(); ftz++) {
                unsigned long long old = fn_fp_set(ftz);
                if (ftz) { /* FTZ/DAZ: the oracle again, then the paths */
                    satc_results rf = {.classes = cls_p};
                    satc_cull_isa(SATC_ISA_SCALAR, &f, &b, 0, N, (satc_mode)mode, &rf);
                    fn_fp_restore(old);
                    check_oracle(v, &f, form, mode, cls_p);
                    old = fn_fp_set(ftz);
                }
                check_paths(v, &f, &b, mode, ftz);
                fn_fp_restore(old);
            }
        }
        for (int i = 0; f.nverts && i < N; i++)
            n_exact_only += cls_ref[1][i] == SATC_OUTSIDE && cls_ref[0][i] != SATC_OUTSIDE;
        if (form == SATC_FORM_SPHERES && f.nverts)
            CHECK(!memcmp(cls_ref[0], cls_ref[1], N), "%s: spheres exact = plane test", v->name);
    }
}

/* A perspective frustum and its 6 planes: the same answer on boxes
 * clearly inside or outside; returns how many were compared. */
static int frustum_vs_planes(void)
{
    vol v;
    satc_frustum pf, vf;
    vo_frustum(&v, &pf, 50, 0);
    if (satc_frustum_from_planes(&vf, (const float(*)[4])v.p, 6, 0) != SATC_OK)
        return 0;
    make_boxes(&vf);
    int n = 0;
    for (int form = 1; form <= 5; form++) {
        satc_batch b = make_batch(form);
        uint8_t cp[N], cv[N];
        satc_results rp = {.classes = cp}, rv = {.classes = cv};
        satc_cull(&pf, &b, 0, N, SATC_EXACT, &rp);
        satc_cull(&vf, &b, 0, N, SATC_EXACT, &rv);
        for (int i = 0; i < N; i++) {
            const dbox *bx = &boxes[form][i];
            double S = box_S(&vf, bx, form, i), F = vol_F(&vf) + box_S(&pf, bx, form, i);
            double g = 1e-3 * (S + F);
            int in = vo_touch(&v, bx, -g), out = !vo_touch(&v, bx, g);
            if (in || out) {
                n++;
                CHECK((cp[i] != SATC_OUTSIDE) == in && (cv[i] != SATC_OUTSIDE) == in,
                      "frustum vs its planes, form %d box %d: %d %d in %d", form, i, cp[i], cv[i], in);
            }
        }
    }
    return n;
}

/* Plane volumes among other kinds in satc_cull_views, and with group
 * bounds: each view equals its single cull on every path. */
static void views_and_groups(void)
{
    satc_frustum views[5];
    vol v;
    vo_frustum(&v, &views[0], 0, 0);
    CHECK(satc_frustum_from_planes(&views[1], (const float(*)[4])v.p, 6, 0.25f) == SATC_OK, "views: planes");
    vo_polytope(&v, 12, 0);
    int bounded = satc_frustum_from_planes(&views[2], (const float(*)[4])v.p, 12, 0) == SATC_OK &&
                  views[2].nverts;
    satc_obb box = {{1, 2, -3}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {4, 5, 6}};
    satc_frustum_from_box(&views[3], &box);
    vo_halfspace(&v, 0);
    satc_frustum_from_planes(&views[4], (const float(*)[4])v.p, 1, 0.5f);
    make_boxes(&views[1]);
    static float gc[N][3], gh[N][3];
    for (int form = 1; form <= 6; form++) {
        satc_batch b = make_batch(form);
        satc_groups gs = {.size = 16, .ngroups = (N + 15) / 16,
                          .center = SATC_VEC3S_AOS(&gc[0][0], 12), .half = SATC_VEC3S_AOS(&gh[0][0], 12)};
        satc_group_bounds(&b, N, 16, NULL, gs.ngroups, &gc[0][0], &gh[0][0]);
        for (int mode = 0; mode < 2; mode++) {
            /* exact mode takes only bounded volumes: leave out the half-space */
            size_t nv = mode == SATC_EXACT ? (bounded ? 4 : 2) : 5;
            for (unsigned isa = 1; isa <= SATC_ISA_AVX512; isa <<= 1) {
                if (!(satc_isa_runnable() & isa))
                    continue;
                for (int grp = 0; grp < 2; grp++) {
                    satc_batch bb = b;
                    bb.groups = grp ? &gs : NULL;
                    static uint8_t cls[5][N];
                    uint8_t *cp[5] = {cls[0], cls[1], cls[2], cls[3], cls[4]};
                    uint8_t masks[N];
                    size_t vis[5];
                    satc_view_results r = {.masks = masks, .classes = cp, .visible = vis};
                    satc_status st = satc_cull_views_isa((satc_isa)isa, views, nv, &bb, 0, N, (satc_mode)mode, &r);
                    CHECK(st == SATC_OK, "views status %d", (int)st);
                    for (size_t w = 0; w < nv; w++) {
                        uint8_t one[N];
                        satc_results r1 = {.classes = one};
                        satc_cull_isa(SATC_ISA_SCALAR, &views[w], &b, 0, N, (satc_mode)mode, &r1);
                        int ok = r1.visible == vis[w] && !memcmp(one, cls[w], N);
                        for (int i = 0; i < N; i++)
                            ok &= ((masks[i] >> w) & 1) == (one[i] != SATC_OUTSIDE);
                        CHECK(ok, "view %zu form %d mode %d path %u groups %d differs", w, form, mode, isa, grp);
                    }
                }
            }
        }
    }
    /* Exact mode with an unbounded view: the call's status, nothing written. */
    uint8_t masks[8];
    memset(masks, 0x5A, sizeof masks);
    size_t vis[5] = {7, 7, 7, 7, 7};
    satc_view_results r = {.masks = masks, .visible = vis};
    satc_batch b = make_batch(SATC_FORM_AABB);
    CHECK(satc_cull_views(views, 5, &b, 0, 8, SATC_EXACT, &r) == SATC_ERR_FAR && masks[0] == 0x5A && vis[0] == 7,
          "views: exact with a half-space");
}

/* The one-plane classes of RTR 22.10 with a margin: z >= 0, margin 1. */
static void one_plane(void)
{
    const float pl[1][4] = {{0, 0, 2, 0}};
    satc_frustum f;
    CHECK(satc_frustum_from_planes(&f, pl, 1, 1.0f) == SATC_OK, "one plane");
    const float z[6] = {-5, -1.5f, -0.5f, 0, 0.5f, 5}, want[6] = {0, 0, 1, 1, 1, 2};
    float c[6][3], h[6][3];
    for (int i = 0; i < 6; i++)
        c[i][0] = 100, c[i][1] = -3, c[i][2] = z[i], h[i][0] = h[i][1] = 7, h[i][2] = 0.25f;
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(&c[0][0], 12), SATC_VEC3S_AOS(&h[0][0], 12)}};
    for (unsigned isa = 1; isa <= SATC_ISA_AVX512; isa <<= 1) {
        if (!(satc_isa_runnable() & isa))
            continue;
        uint8_t cls[6];
        satc_results r = {.classes = cls};
        CHECK(satc_cull_isa((satc_isa)isa, &f, &b, 0, 6, SATC_CONSERVATIVE, &r) == SATC_OK, "one plane cull");
        for (int i = 0; i < 6; i++)
            CHECK(cls[i] == want[i], "one plane, path %u, z %g: class %d, want %g", isa, z[i], cls[i], want[i]);
    }
}

/* Non-finite boxes and boxes past SATC_MAX_MAGNITUDE are never culled:
 * class SATC_INTERSECTING on every path, both modes. */
static void nonfinite_boxes(void)
{
    const float pl[6][4] = {{1, 0, 0, 1}, {-1, 0, 0, 1}, {0, 1, 0, 1}, {0, -1, 0, 1}, {0, 0, 1, 1}, {0, 0, -1, 1}};
    satc_frustum f;
    satc_frustum_from_planes(&f, pl, 6, 0);
    const float bad[6] = {NAN, INFINITY, -INFINITY, 3e12f, -NAN, 1e30f};
    float c[18][3], h[18][3];
    for (int i = 0; i < 18; i++) {
        c[i][0] = 50, c[i][1] = c[i][2] = 0, h[i][0] = h[i][1] = h[i][2] = 1; /* far outside */
        if (i < 12)
            c[i][i % 3] = bad[i / 2 % 6];
        else
            h[i][i % 3] = bad[i % 6];
    }
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(&c[0][0], 12), SATC_VEC3S_AOS(&h[0][0], 12)}};
    for (unsigned isa = 1; isa <= SATC_ISA_AVX512; isa <<= 1) {
        if (!(satc_isa_runnable() & isa))
            continue;
        for (int mode = 0; mode < 2; mode++) {
            uint8_t cls[18];
            satc_results r = {.classes = cls};
            satc_cull_isa((satc_isa)isa, &f, &b, 0, 18, (satc_mode)mode, &r);
            for (int i = 0; i < 18; i++)
                CHECK(cls[i] == SATC_INTERSECTING, "non-finite box %d path %u mode %d: class %d", i, isa, mode, cls[i]);
        }
    }
}

/* Emptiness: random planes about the origin (offsets of either sign), the
 * status against the oracle on a box much larger than any vertex: a
 * volume that clearly meets it is built, one clearly empty is refused. */
static void random_emptiness(void)
{
    dbox big;
    memset(&big, 0, sizeof big);
    for (int q = 0; q < 3; q++)
        big.h[q][q] = 1e4;
    int built = 0, refused = 0;
    for (int t = 0; t < 400; t++) {
        vol v;
        memset(&v, 0, sizeof v);
        v.name = "random planes";
        v.n = 2 + t % 7;
        for (int k = 0; k < v.n; k++) {
            double a[3][3];
            vo_rotation(a);
            for (int q = 0; q < 3; q++)
                v.p[k][q] = (float)a[0][q];
            v.p[k][3] = (float)(2 * vo_rand() - 1.3);
        }
        satc_frustum f;
        satc_status st = satc_frustum_from_planes(&f, (const float(*)[4])v.p, (size_t)v.n, 0);
        if (vo_touch(&v, &big, -1e-6))
            CHECK(st == SATC_OK, "nonempty random planes refused: %s", satc_status_string(st));
        else if (!vo_touch(&v, &big, 1e-6))
            CHECK(st == SATC_ERR_BOUNDS, "empty random planes gave %s", satc_status_string(st));
        built += st == SATC_OK, refused += st == SATC_ERR_BOUNDS;
    }
    CHECK(built > 50 && refused > 50, "random planes: %d built, %d refused", built, refused);
}

static void bad_input(void)
{
    satc_frustum f, keep;
    memset(&keep, 0x3C, sizeof keep);
    float ok6[6][4] = {{1, 0, 0, 1}, {-1, 0, 0, 1}, {0, 1, 0, 1}, {0, -1, 0, 1}, {0, 0, 1, 1}, {0, 0, -1, 1}};
    float p[17][4];
    for (int k = 0; k < 17; k++)
        memcpy(p[k], ok6[k % 6], sizeof p[k]);
    struct {
        int what, k, q;
        float val, margin;
        size_t n;
        satc_status want;
        const char *name;
    } cases[] = {
        {0, 0, 0, 0, 0, 0, SATC_ERR_RANGE, "no planes"},
        {0, 0, 0, 0, 0, 17, SATC_ERR_RANGE, "17 planes"},
        {1, 2, 1, NAN, 0, 6, SATC_ERR_NONFINITE, "NaN normal"},
        {1, 3, 3, INFINITY, 0, 6, SATC_ERR_NONFINITE, "infinite offset"},
        {0, 0, 0, 0, NAN, 6, SATC_ERR_NONFINITE, "NaN margin"},
        {0, 0, 0, 0, -1, 6, SATC_ERR_BOUNDS, "negative margin"},
        {2, 4, 0, 0, 0, 6, SATC_ERR_BOUNDS, "zero normal"},
        {1, 0, 3, -3, 0, 6, SATC_ERR_BOUNDS, "empty: x >= 3 and x <= 1"},
        {3, 0, 0, 0, 0, 2, SATC_ERR_BOUNDS, "empty slab"},
        {1, 0, 3, 2e38f, 0, 6, SATC_ERR_BOUNDS, "vertex beyond SATC_MAX_MAGNITUDE"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        float q[17][4];
        memcpy(q, p, sizeof q);
        if (cases[c].what == 1)
            q[cases[c].k][cases[c].q] = cases[c].val;
        if (cases[c].what == 2)
            q[cases[c].k][0] = q[cases[c].k][1] = q[cases[c].k][2] = 0;
        if (cases[c].what == 3)
            q[1][3] = -3; /* x >= -1 and x <= -3 */
        if (cases[c].what == 1 && cases[c].val == 2e38f)
            q[1][3] = 2e38f;
        f = keep;
        satc_status st = satc_frustum_from_planes(&f, (const float(*)[4])q, cases[c].n, cases[c].margin);
        CHECK(st == cases[c].want && !memcmp(&f, &keep, sizeof f), "%s: %s", cases[c].name, satc_status_string(st));
    }
    CHECK(satc_frustum_from_planes(NULL, (const float(*)[4])p, 6, 0) == SATC_ERR_NULL, "NULL out");
    CHECK(satc_frustum_from_planes(&f, NULL, 6, 0) == SATC_ERR_NULL, "NULL planes");
    /* Cull-time: exact on an unbounded volume, a damaged plane count. */
    CHECK(satc_frustum_from_planes(&f, (const float(*)[4])p, 5, 0) == SATC_OK && f.nverts == 0, "5 box planes");
    satc_batch b = make_batch(SATC_FORM_AABB);
    uint8_t bits[8];
    memset(bits, 0x77, sizeof bits);
    satc_results r = {.bitmask = bits, .visible = 99};
    CHECK(satc_cull(&f, &b, 0, 40, SATC_EXACT, &r) == SATC_ERR_FAR && bits[0] == 0x77 && r.visible == 99,
          "exact on unbounded: status, nothing written");
    CHECK(satc_cull(&f, &b, 0, 40, SATC_CONSERVATIVE, &r) == SATC_OK, "conservative on unbounded");
    f.nplanes = 17;
    CHECK(satc_cull(&f, &b, 0, 40, SATC_CONSERVATIVE, &r) == SATC_ERR_FLAGS, "17 planes in a built volume");
    /* The header's Bevy example. */
    const float bevy[6][4] = {{0, 0, -1, -0.1f}, {1, 0, -1, 0}, {-1, 0, -1, 0},
                              {0, 1, -1, 0},     {0, -1, -1, 0}, {0, 0, 1, 100}};
    CHECK(satc_frustum_from_planes(&f, bevy, 5, 0.0f) == SATC_OK && f.nverts == 0, "bevy 5 planes");
    CHECK(satc_frustum_from_planes(&f, bevy, 6, 0.0f) == SATC_OK && f.nverts == 8 && f.nedges == 6,
          "bevy with a far plane: %u vertices %u edges", f.nverts, f.nedges);
}

/* Degenerate and extreme shapes: a pyramid (four planes through the
 * apex), a portal frustum with 8 sides, a 14-sided prism (16 planes, 28
 * vertices, 8 edge directions: opposite sides are parallel), duplicated and rescaled planes, and a
 * knife edge (two planes 2^-22 radians apart). */
static void special_volumes(void)
{
    vol v;
    memset(&v, 0, sizeof v);
    const float pyr[5][4] = {{0, 0, 1, 0}, {2, 0, -1, 2}, {-2, 0, -1, 2}, {0, 2, -1, 2}, {0, -2, -1, 2}};
    v.name = "pyramid", v.n = 5, v.bounded = 1;
    memcpy(v.p, pyr, sizeof pyr);
    satc_frustum f;
    CHECK(satc_frustum_from_planes(&f, (const float(*)[4])v.p, 5, 0) == SATC_OK && f.nverts == 5 && f.nedges == 6,
          "pyramid: %u vertices %u edges", f.nverts, f.nedges);
    run_volume(&v);
    /* A portal: the eye at (1, 2, 3), an octagon 10 units ahead (-z), near and far. */
    memset(&v, 0, sizeof v);
    v.name = "portal frustum", v.bounded = 1;
    double eye[3] = {1, 2, 3}, poly[8][3];
    for (int k = 0; k < 8; k++)
        poly[k][0] = eye[0] + 3 * cos(k * 0.785398), poly[k][1] = eye[1] + 2 * sin(k * 0.785398), poly[k][2] = eye[2] - 10;
    for (int k = 0; k < 8; k++) {
        double a[3], b[3], n[3];
        for (int q = 0; q < 3; q++)
            a[q] = poly[k][q] - eye[q], b[q] = poly[(k + 1) % 8][q] - eye[q];
        n[0] = a[2] * b[1] - a[1] * b[2], n[1] = a[0] * b[2] - a[2] * b[0], n[2] = a[1] * b[0] - a[0] * b[1];
        for (int q = 0; q < 3; q++)
            v.p[k][q] = (float)n[q];
        v.p[k][3] = (float)-(n[0] * eye[0] + n[1] * eye[1] + n[2] * eye[2]);
    }
    const float nf[2][4] = {{0, 0, -1, eye[2] - 10}, {0, 0, 1, -(eye[2] - 60)}}; /* z <= eye - 10, z >= eye - 60 */
    memcpy(v.p[8], nf, sizeof nf);
    v.n = 10;
    CHECK(satc_frustum_from_planes(&f, (const float(*)[4])v.p, 10, 0) == SATC_OK && f.nverts == 16,
          "portal: %u vertices", f.nverts);
    run_volume(&v);
    /* A prism of 14 sides with two caps. */
    memset(&v, 0, sizeof v);
    v.name = "14-sided prism", v.n = 16, v.bounded = 1;
    for (int k = 0; k < 14; k++) {
        double a = k * 6.2831853 / 14;
        v.p[k][0] = (float)-cos(a), v.p[k][1] = (float)-sin(a), v.p[k][2] = 0, v.p[k][3] = 4;
    }
    const float caps[2][4] = {{0, 0, 1, 3}, {0, 0, -1, 3}};
    memcpy(v.p[14], caps, sizeof caps);
    CHECK(satc_frustum_from_planes(&f, (const float(*)[4])v.p, 16, 0) == SATC_OK && f.nverts == 28 && f.nedges == 8,
          "prism: %u vertices %u edges", f.nverts, f.nedges);
    run_volume(&v);
    /* The box planes twice, the copies rescaled by 3 and 0.5. */
    memset(&v, 0, sizeof v);
    v.name = "duplicated planes", v.n = 12, v.bounded = 1;
    const float bx[6][4] = {{1, 0, 0, 1}, {-1, 0, 0, 2}, {0, 1, 0, 1}, {0, -1, 0, 3}, {0, 0, 1, 1}, {0, 0, -1, 1}};
    for (int k = 0; k < 12; k++)
        for (int q = 0; q < 4; q++)
            v.p[k][q] = bx[k % 6][q] * (k < 6 ? 1.0f : k % 2 ? 3.0f : 0.5f);
    CHECK(satc_frustum_from_planes(&f, (const float(*)[4])v.p, 12, 0) == SATC_OK && f.nverts == 8 && f.nedges == 3,
          "duplicated: %u vertices %u edges", f.nverts, f.nedges);
    run_volume(&v);
    /* A knife edge: y >= 0 and y <= 2^-22 x, cut by x <= 5, |z| <= 1. */
    memset(&v, 0, sizeof v);
    v.name = "knife edge", v.n = 5, v.bounded = -1;
    const float kn[5][4] = {{0, 1, 0, 0}, {0x1p-22f, -1, 0, 0}, {-1, 0, 0, 5}, {0, 0, 1, 1}, {0, 0, -1, 1}};
    memcpy(v.p, kn, sizeof kn);
    run_volume(&v);
}

/* A thin, wide slab (600 x 600 x 0.02, rotated) with tiny boxes touching
 * its faces from outside near its origin E: tiny S, vertices 400 away. */
static void thin_slab(void)
{
    double a[3][3], c[3] = {0, 0, 0};
    vo_rotation(a);
    const double e[3] = {300, 300, 0.01};
    vol v;
    memset(&v, 0, sizeof v);
    v.name = "thin slab", v.n = 6, v.bounded = 1;
    for (int j = 0; j < 3; j++) {
        for (int q = 0; q < 3; q++)
            v.p[2 * j][q] = (float)a[j][q], v.p[2 * j + 1][q] = (float)-a[j][q];
        v.p[2 * j][3] = v.p[2 * j + 1][3] = (float)e[j];
    }
    satc_frustum f;
    CHECK(satc_frustum_from_planes(&f, (const float(*)[4])v.p, 6, 0) == SATC_OK, "thin slab");
    for (int i = 0; i < N; i++) {
        double r[3][3], size = 1e-3 * (1 + 9 * vo_rand()), p[3], hs[3][3];
        vo_rotation(r);
        for (int j = 0; j < 3; j++) {
            ext[i][j] = (float)size;
            for (int q = 0; q < 3; q++)
                axis[j][i][q] = (float)r[j][q];
        }
        double sg = vo_rand() < 0.5 ? 1 : -1; /* which face */
        for (int q = 0; q < 3; q++)
            p[q] = sg * 0.01 * a[2][q] + (vo_rand() - 0.5) * (a[0][q] + a[1][q]);
        /* the box's corner deepest along the face's inward normal -sg a2 on p */
        for (int q = 0; q < 3; q++)
            for (int j = 0; j < 3; j++)
                hs[j][q] = (double)ext[i][j] * axis[j][i][q];
        for (int q = 0; q < 3; q++) {
            double cq = p[q];
            for (int j = 0; j < 3; j++) {
                double dn = sg * (hs[j][0] * a[2][0] + hs[j][1] * a[2][1] + hs[j][2] * a[2][2]);
                cq += (dn < 0 ? -1 : 1) * hs[j][q];
            }
            ctr[i][q] = (float)(c[q] + cq);
        }
        dbox *b = &boxes[SATC_FORM_OBB][i];
        for (int q = 0; q < 3; q++) {
            b->c[q] = ctr[i][q];
            for (int j = 0; j < 3; j++)
                b->h[j][q] = hs[j][q];
        }
    }
    satc_batch b = make_batch(SATC_FORM_OBB);
    for (int mode = 0; mode < 2; mode++) {
        satc_results r = {.classes = cls_ref[mode]};
        CHECK(satc_cull(&f, &b, 0, N, (satc_mode)mode, &r) == SATC_OK, "thin slab cull");
        check_oracle(&v, &f, SATC_FORM_OBB, mode, cls_ref[mode]);
    }
}

int main(void)
{
    vo_seed(20261123);
    bad_input();
    one_plane();
    nonfinite_boxes();
    random_emptiness();
    int compared = 0;
    for (int t = 0; t < 6; t++)
        compared += frustum_vs_planes();
    CHECK(compared > 1000, "frustum vs planes compared %d boxes", compared);
    views_and_groups();
    special_volumes();
    thin_slab();
    for (int t = 0; t < 42; t++) {
        vol v;
        satc_frustum pf;
        double far = t % 4 == 3 ? (t % 8 == 7 ? 1e6 : 3e4) : 20; /* large worlds too */
        switch (t % 7) {
        case 0: vo_frustum(&v, &pf, far, 0); break;
        case 1: vo_box(&v, far); break;
        case 2: vo_polytope(&v, 4 + t % 13, far); break;
        case 3: vo_halfspace(&v, far); v.margin = (float)(vo_rand()); break;
        case 4: vo_frustum(&v, &pf, far, 1); break;
        case 5: vo_wedge(&v, far, t & 1); break;
        default: vo_polytope(&v, 16, far); v.margin = 0.1f; break;
        }
        run_volume(&v);
    }
    printf("reached: %ld touching boxes, %ld culled by exact mode only, %ld inside, %ld bounded "
           "volumes\n", n_touch, n_exact_only, n_inside, n_bounded);
    CHECK(n_touch > 1000 && n_exact_only > 100 && n_inside > 1000 && n_bounded > 20, "coverage");
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail != 0;
}
