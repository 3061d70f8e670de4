/* test_prefilter's scenes: instances whose S term is mostly their local
 * center's offset, swept across a plane, and the coherent city with a
 * camera, cascades, cube faces and players; satc_cull_views against each
 * view's single cull. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "prefilter.h"
#include "robust_util.h"
#include "scenes.h"
#include "passes/views_pre.h"

/* Instances whose local centers lie far from their boxes, so that S is
 * mostly sum_r sum_k |m_rk lc_k| (the translation cancels it): groups of
 * 32 tiny ones on one point of a side plane, swept from 8 tolerances
 * inside to 8 outside (both sides of it: one chunk with the near side
 * there, one with the far side), or whole chunks half a tolerance from
 * it; a local box each (rows 3x4) or shared (4x4). Only the bounds'
 * extra S term keeps these groups and chunks undecided. */
void test_extra_s(rb_rng *r)
{
    enum { CH = SATC_PRE_STEP, N = 4 * CH }; /* four of the pass's chunks */
    float *m = malloc(16 * N * sizeof *m), *lb = malloc(6 * N * sizeof *lb);
    satc_camera cam;
    const float eye[3] = {-30.0f, 12.0f, 70.0f};
    rb_camera_persp(&cam, r, eye, 0.1f, 500.0f);
    satc_frustum views[2];
    satc_frustum_from_camera(&views[0], &cam);
    satc_camera cam2;
    rb_camera_ortho(&cam2, r, eye, 150.0f, 150.0f, -150.0f, 150.0f);
    satc_frustum_from_camera(&views[1], &cam2);
    const satc_frustum *f = &views[0];
    float pl[6][4];
    scn_frustum_planes(f, pl); /* near, far, x0, x1, y0, y1 */
    for (int shared = 0; shared < 2; shared++) {
        for (int side = 2; side < 6; side++) { /* the side planes x0, x1, y0, y1 */
            double fz = 60.0, x = side < 4 ? (side == 2 ? f->x0 : f->x1) * fz : 0.0;
            double y = side >= 4 ? (side == 4 ? f->y0 : f->y1) * fz : 0.0, X[3];
            for (int k = 0; k < 3; k++)
                X[k] = cam.origin[k] + cam.left[k] * x + cam.up[k] * y + cam.dir[k] * fz;
            double len = sqrt(pl[side][0] * pl[side][0] + pl[side][1] * pl[side][1] +
                              pl[side][2] * pl[side][2]);
            double dist = (pl[side][0] * X[0] + pl[side][1] * X[1] + pl[side][2] * X[2] +
                           pl[side][3]) / len, n[3];
            for (int k = 0; k < 3; k++)
                n[k] = pl[side][k] / len, X[k] -= n[k] * dist;
            for (size_t i = 0; i < N; i++) {
                /* tiny volumes (their group boxes are no looser than a
                 * tolerance), 2e5 local units from the local origin */
                double R[3][3], half = 1e-4 * (1.0 + 0.5 * (double)(i % 5));
                rot_of(i < 2 * CH ? i : 0, R); /* chunks 2, 3: one rotation, one tolerance */
                float lc[3] = {1.5e5f, -0.9e5f, 2.1e5f}, lh[3] = {1e-3f, 5e-4f, 2e-3f};
                if (!shared)
                    lc[i % 3] *= -0.5f, lh[(i + 1) % 3] *= 1.5f;
                double M[3][3], sup = 0, p = 0, rel = 0;
                for (int j = 0; j < 3; j++) {
                    double hn = 0;
                    for (int rr = 0; rr < 3; rr++) {
                        M[rr][j] = (float)(R[j][rr] * half / lh[j]);
                        hn += M[rr][j] * n[rr];
                        p += fabs(M[rr][j] * lc[j]);
                    }
                    sup += fabs(hn) * lh[j];
                    rel += fabs(X[j] - cam.origin[j]);
                }
                double tol = (double)f->eps_k * (2.0 * rel + 6.0 * half + p) + f->tol_t;
                static const double sweep[16] = {-32, -8, -4, -3, -2, -1.5, -1, -0.5,
                                                 0, 0.25, 0.5, 0.75, 1, 2, 8, 32};
                /* chunks 2 and 3: every group just outside / inside (a whole chunk) */
                double s = i < 2 * CH ? sweep[(i % CH) / 32 % 16] : i < 3 * CH ? 0.5 : -0.5;
                int outer = i < CH || (i >= 2 * CH && i < 3 * CH);
                double off = outer ? sup + s * tol : -sup + s * tol, c[3];
                for (int k = 0; k < 3; k++)
                    c[k] = X[k] - n[k] * off;
                float *o = m + (shared ? 16 : 12) * i;
                for (int rr = 0; rr < 3; rr++) {
                    double t = c[rr];
                    for (int j = 0; j < 3; j++)
                        t -= M[rr][j] * lc[j];
                    for (int j = 0; j < 3; j++)
                        o[shared ? 4 * j + rr : 4 * rr + j] = (float)M[rr][j];
                    o[shared ? 12 + rr : 4 * rr + 3] = (float)t;
                }
                if (shared)
                    o[3] = o[7] = o[11] = 0.0f, o[15] = 1.0f;
                memcpy(lb + 6 * i, lc, 12), memcpy(lb + 6 * i + 3, lh, 12);
            }
            satc_batch b = {.form = SATC_FORM_INSTANCES};
            b.instances.matrix = m;
            b.instances.stride = shared ? 64 : 48;
            b.instances.layout = shared ? SATC_AFFINE_4X4_COLUMN_MAJOR : SATC_AFFINE_ROWS;
            b.instances.local_center = SATC_VEC3S_AOS(lb, shared ? 0 : 24);
            b.instances.local_half = SATC_VEC3S_AOS(lb + 3, shared ? 0 : 24);
            char what[96];
            snprintf(what, sizeof what, "extra S term, %s local box, side plane %d",
                     shared ? "shared" : "own", side);
            compare_views(views, 2, &b, 0, N, what);
        }
    }
    free(m), free(lb);
}

/* The coherent city: a camera and 4 cascades, 6 cube faces, 16 players. */
void test_city(rb_rng *r, int quick)
{
    scn_scene s;
    size_t n = quick ? 30000 : 120000;
    if (!rb_check(scn_make(&s, SCN_CITY, n, 11, NULL) == 0, "city scene"))
        return;
    satc_batch ob = satc_batch_from_boxes(&s.boxes);
    float *c = malloc(3 * n * sizeof *c), *h = malloc(3 * n * sizeof *h);
    satc_to_aabbs(&ob, 0, n, c, h);
    /* coherent order: rows of 32 m cells */
    typedef struct { double key; size_t i; } kv;
    kv *ord = malloc(n * sizeof *ord);
    for (size_t i = 0; i < n; i++)
        ord[i].key = floor(c[3 * i] / 32.0) + 65536.0 * floor(c[3 * i + 2] / 32.0), ord[i].i = i;
    for (size_t w = 1; w < n; w *= 2) { /* bottom-up merge sort: qsort needs a comparator */
        kv *t = malloc(n * sizeof *t);
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t m = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, a = lo,
                   bb = m, o = lo;
            while (a < m || bb < hi)
                t[o++] = (bb >= hi || (a < m && ord[a].key <= ord[bb].key)) ? ord[a++] : ord[bb++];
        }
        memcpy(ord, t, n * sizeof *t);
        free(t);
    }
    float *sc = malloc(3 * n * sizeof *sc), *sh = malloc(3 * n * sizeof *sh);
    for (size_t i = 0; i < n; i++)
        memcpy(sc + 3 * i, c + 3 * ord[i].i, 12), memcpy(sh + 3 * i, h + 3 * ord[i].i, 12);
    /* the same order as OBBs (SoA), and as instances: 4x4 column-major
     * matrices M = [e_j A_j / lh_j | t] of a local box each, {lc, lh} records */
    float *orec = malloc(15 * n * sizeof *orec), *im = malloc(16 * n * sizeof *im);
    float *lb = malloc(6 * n * sizeof *lb);
    for (size_t i = 0; i < n; i++) {
        size_t o = ord[i].i;
        float lc[3], lh[3];
        local_box(L_INST_LOCAL, i, lc, lh);
        for (int k = 0; k < 3; k++) {
            orec[k * n + i] = s.boxes.center[k][o];
            orec[(12 + (size_t)k) * n + i] = s.boxes.extent[k][o];
            for (int j = 0; j < 3; j++)
                orec[(3 + 3 * (size_t)j + (size_t)k) * n + i] = s.boxes.axis[j][k][o];
        }
        for (int r = 0; r < 3; r++) {
            double t = s.boxes.center[r][o];
            for (int j = 0; j < 3; j++) {
                float m = (float)((double)s.boxes.axis[j][r][o] * s.boxes.extent[j][o] / fabsf(lh[j]));
                im[16 * i + 4 * (size_t)j + (size_t)r] = m;
                t -= (double)m * lc[j];
            }
            im[16 * i + 12 + (size_t)r] = (float)t;
            im[16 * i + 4 * (size_t)r + 3] = 0.0f;
        }
        im[16 * i + 15] = 1.0f;
        memcpy(lb + 6 * i, lc, 12), memcpy(lb + 6 * i + 3, lh, 12);
    }
    free(ord);
    satc_batch obb = {.form = SATC_FORM_OBB}, inst = {.form = SATC_FORM_INSTANCES};
    obb.obb.center = SATC_VEC3S_SOA(orec, orec + n, orec + 2 * n);
    obb.obb.extent = SATC_VEC3S_SOA(orec + 12 * n, orec + 13 * n, orec + 14 * n);
    for (int j = 0; j < 3; j++)
        obb.obb.axis[j] = SATC_VEC3S_SOA(orec + (3 + 3 * j) * n, orec + (4 + 3 * j) * n, orec + (5 + 3 * j) * n);
    inst.instances.matrix = im, inst.instances.stride = 64;
    inst.instances.layout = SATC_AFFINE_4X4_COLUMN_MAJOR;
    inst.instances.local_center = SATC_VEC3S_AOS(lb, 24);
    inst.instances.local_half = SATC_VEC3S_AOS(lb + 3, 24);
    satc_frustum views[64];
    satc_frustum_from_camera(&views[0], &s.cam);
    for (int q = 1; q < 5; q++) { /* cascades: orthographic boxes in one light frame */
        satc_camera l;
        const float eye[3] = {s.cam.origin[0], s.cam.origin[1] + 200.0f, s.cam.origin[2]};
        rb_camera_ortho(&l, r, eye, 30.0f * (float)q, 30.0f * (float)q, -400.0f, 400.0f);
        satc_frustum_from_camera(&views[q], &l);
    }
    int bad = compare_views(views, 5, &(satc_batch){.form = SATC_FORM_AABB,
                                                    .aabb = {SATC_VEC3S_AOS(sc, 12),
                                                             SATC_VEC3S_AOS(sh, 12)}},
                            0, n, "city, camera and cascades");
    bad += compare_views(views, 5, &obb, 0, n, "city OBBs, camera and cascades");
    bad += compare_views(views, 5, &inst, 0, n, "city instances, camera and cascades");
    static const float dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int q = 0; q < 6; q++) { /* cube faces of a point light */
        satc_camera cf;
        memset(&cf, 0, sizeof cf);
        float up[3] = {0, 1, 0};
        if (dirs[q][1] != 0)
            up[0] = 0, up[1] = 0, up[2] = 1;
        for (int k = 0; k < 3; k++)
            cf.origin[k] = s.cam.origin[k] + (k == 1 ? 5.0f : 0.0f), cf.dir[k] = dirs[q][k];
        /* L = U x D, then U = D x L */
        cf.left[0] = up[1] * cf.dir[2] - up[2] * cf.dir[1];
        cf.left[1] = up[2] * cf.dir[0] - up[0] * cf.dir[2];
        cf.left[2] = up[0] * cf.dir[1] - up[1] * cf.dir[0];
        cf.up[0] = cf.dir[1] * cf.left[2] - cf.dir[2] * cf.left[1];
        cf.up[1] = cf.dir[2] * cf.left[0] - cf.dir[0] * cf.left[2];
        cf.up[2] = cf.dir[0] * cf.left[1] - cf.dir[1] * cf.left[0];
        cf.l0 = cf.u0 = -1, cf.l1 = cf.u1 = 1, cf.n = 0.05f, cf.f = 60.0f;
        rb_check(satc_frustum_from_camera(&views[q], &cf) == SATC_OK, "cube face %d", q);
    }
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(sc, 12), SATC_VEC3S_AOS(sh, 12)}};
    bad += compare_views(views, 6, &b, 0, n, "city, cube faces");
    for (int q = 0; q < 64; q++) { /* players over the city */
        satc_camera pc;
        float eye[3] = {sc[3 * (size_t)rb_uniform(r, 0, (double)n)], 1.8f,
                        sc[3 * (size_t)rb_uniform(r, 0, (double)n) + 2]};
        rb_camera_persp(&pc, r, eye, 0.1f, 150.0f);
        satc_frustum_from_camera(&views[q], &pc);
    }
    bad += compare_views(views, 64, &b, 0, n, "city, 64 players");
    bad += compare_views(views + 1, 63, &b, 5, n - 5, "city, 63 players");
    bad += compare_views(views, 64, &inst, 0, n, "city instances, 64 players");
    rb_check(bad == 0, "city: %d mismatches", bad);
    free(c), free(h), free(sc), free(sh), free(orec), free(im), free(lb);
    scn_free(&s);
}
