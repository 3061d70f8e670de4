/*
 * The eight-box setup against the one-box setup: for every build of it
 * this machine runs (the baseline one, and the native AVX2 and AVX-512
 * ones), each box it sets up must come out with the bits
 * satc_raster_setup_box() gives it, each box it drops must be one the
 * one-box setup drops, and it may hand a box back only to the one-box
 * setup. Boxes: random sizes, orientations and depths over many orders
 * of magnitude, with boxes through and short of the near plane, behind
 * the eye, around the view's edges, under a texel wide, flat, with a zero
 * axis, seen face-on and edge-on, rounded centers (cerr), and non-finite
 * or huge values; views tilted, of several sizes, whole and in row
 * tiles, with and without merged cells and a least area. The test also
 * counts the boxes each build decides itself, so it fails if the wide
 * path stops taking the common case.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raster/raster.h"

#define RASTER_SEED 0x3a1de5b7
#include "raster_check.h"

enum { NB = 4096 };

static int same_poly(const satc_rpoly *a, const satc_rpoly *b)
{
    if (a->i0 != b->i0 || a->i1 != b->i1 || a->j0 != b->j0 || a->j1 != b->j1 || a->ne != b->ne ||
        a->np != b->np || a->ortho != b->ortho)
        return 0;
    return !memcmp(a->e, b->e, sizeof a->e[0] * a->ne) && !memcmp(a->g, b->g, sizeof a->g[0] * a->np);
}

/* A random rotation's columns. */
static void rotation(double R[3][3])
{
    double q[4], n = 0;
    for (int k = 0; k < 4; k++)
        q[k] = rnd(-1, 1), n += q[k] * q[k];
    n = sqrt(n);
    double x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
    double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                      {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                      {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    memcpy(R, m, sizeof m);
}

/* Box k of a scene seen by a camera at the origin looking along dir. */
static void make_box(int k, const float eye[3], const float dir[3], satc_rbox *b)
{
    double R[3][3], depth, s;
    int kind = k % 16;
    depth = kind == 0 ? rnd(-3, 1.5)            /* through or short of the near plane */
            : kind == 1 ? -rnd(0.5, 50)         /* behind the eye */
            : kind == 2 ? exp(rnd(log(50), log(1e5))) /* far */
                        : exp(rnd(log(1.5), log(400)));
    double off = kind == 3 ? rnd(-3, 3) : rnd(-0.9, 0.9); /* around the view's edges */
    double side[3] = {-dir[2], 0, dir[0]}; /* level, across the view */
    for (int q = 0; q < 3; q++)
        b->c[q] = eye[q] + dir[q] * depth + side[q] * off * fabs(depth) +
                  (q == 1 ? rnd(-0.5, 0.5) * fabs(depth) : 0);
    s = kind == 4 ? exp(rnd(log(1e-5), log(1e-2))) * fabs(depth) /* under a texel */
                  : exp(rnd(log(1e-3), log(0.3))) * (fabs(depth) + 1);
    double h[3] = {s * rnd(0.05, 1), s * rnd(0.05, 1), s * rnd(0.05, 1)};
    if (kind == 5)
        h[k / 16 % 3] = 0; /* a rectangle */
    if (kind == 6)
        h[0] = h[1] = 0;
    if (kind == 7)
        h[k / 16 % 3] = s * 1e-13; /* flat, not exactly */
    rotation(R);
    if (kind == 8) { /* axis-aligned: faces seen face-on or edge-on */
        memset(R, 0, sizeof R);
        R[0][0] = R[1][1] = R[2][2] = 1;
        b->c[1] = (k / 16 % 2) ? eye[1] + h[1] : b->c[1]; /* a face in the eye's plane */
    }
    for (int j = 0; j < 3; j++)
        for (int q = 0; q < 3; q++)
            b->H[j][q] = R[q][j] * h[j];
    b->cerr = kind == 9 ? 0 : rnd(0, 1) < 0.5 ? 0 : 0x1p-50 * (fabs(b->c[0]) + fabs(b->c[2]));
    if (kind == 10 && k / 16 % 4 == 0)
        b->c[k / 64 % 3] = k / 16 % 8 ? NAN : INFINITY;
    if (kind == 10 && k / 16 % 4 == 1)
        b->cerr = INFINITY;
    if (kind == 10 && k / 16 % 4 == 2)
        b->H[0][0] = 3e38; /* past the largest magnitude */
    if (kind == 11) /* a large box around or beside the eye */
        for (int j = 0; j < 3; j++)
            for (int q = 0; q < 3; q++)
                b->H[j][q] *= 200;
}

/* Fills p into level (w x h, reset to +Inf) with the reference, its
 * rectangle grown by g texels each side within rows [r0, r1). */
static float g_cd[2][2 * 512 * 256];
static uint16_t g_cm[2][2 * 512 * 256];

static void fill_grown(const satc_rpoly *p, int g, uint32_t w, uint32_t h, uint32_t r0, uint32_t r1,
                       float *level, int merged)
{
    for (size_t t = 0; t < (size_t)w * h; t++)
        level[t] = INFINITY;
    /* merged: fresh layers, so partly covered texels take cells too */
    satc_rcov cov = {g_cd[g != 0], g_cm[g != 0]};
    for (size_t t = 0; t < 2 * (size_t)w * h; t++)
        cov.depth[t] = INFINITY, cov.mask[t] = 0;
    satc_rpoly q = *p;
    q.i0 = q.i0 - g < 0 ? 0 : q.i0 - g, q.i1 = q.i1 + g > (int32_t)w ? (int32_t)w : q.i1 + g;
    q.j0 = q.j0 - g < (int32_t)r0 ? (int32_t)r0 : q.j0 - g;
    q.j1 = q.j1 + g > (int32_t)r1 ? (int32_t)r1 : q.j1 + g;
    satc_raster_fill_ref(&q, level, w, merged ? &cov : NULL);
}

typedef struct build {
    const char *name;
    satc_raster_wide_fn w;
} build;

int main(void)
{
    build builds[3] = {{"baseline", satc_raster_setup_wide_base}, {"avx2", NULL}, {"avx512", NULL}};
    builds[1].w = satc_raster_wide_for(SATC_ISA_AVX2);
    builds[2].w = satc_raster_wide_for(SATC_ISA_AVX512);
    static satc_rbox box[NB];
    static const uint32_t dims[4][2] = {{512, 256}, {80, 48}, {1280, 720}, {7, 5}};
    for (int bi = 0; bi < 3; bi++) {
        if (!builds[bi].w)
            continue;
        size_t took = 0, drawn = 0, dropped = 0, back = 0, bad = 0, wrong0 = 0, n_ok = 0, bad1 = 0;
        size_t grown_checks = 0, grown_bad = 0, grown_merged = 0, ortho_set = 0;
        g_rng = RASTER_SEED;
        for (int it = 0; it < 24; it++) {
            float eye[3] = {(float)rnd(-100, 100), (float)rnd(0, 30), (float)rnd(-100, 100)};
            double yaw = rnd(-3.1, 3.1), pitch = rnd(-0.7, 0.7);
            float dir[3] = {(float)(cos(pitch) * sin(yaw)), (float)sin(pitch),
                            (float)(cos(pitch) * cos(yaw))};
            float up[3] = {0, 1, 0};
            uint32_t w = dims[it % 4][0], h = dims[it % 4][1];
            satc_frustum f;
            const int ortho = it % 8 == 7; /* handed back whole */
            float tgt[3] = {eye[0] + dir[0], eye[1] + dir[1], eye[2] + dir[2]};
            check(ortho ? satc_frustum_look_at_ortho(&f, eye, tgt, up, -60, 60, -35, 35, 0.5f,
                                                     1000) == SATC_OK
                        : satc_frustum_look_to(&f, eye, dir, up, (float)rnd(0.5, 1.6),
                                               (float)w / h, it % 3 ? 1.0f : 0.05f,
                                               1000) == SATC_OK,
                  "a tilted view");
            uint32_t r0 = 0, r1 = h;
            if (it % 5 == 2)
                r0 = h / 3, r1 = h - h / 4;
            unsigned flags = it % 4 == 1 ? SATC_RVIEW_CELLS : 0u;
            satc_rview rv;
            satc_rview_init(&rv, &f, w, h, r0, r1, it % 7 == 3 ? 6.0 : 0.0, flags);
            for (int k = 0; k < NB; k++)
                make_box(k + it * NB, eye, dir, &box[k]);
            for (int k0 = 0; k0 < NB; k0 += 8) {
                int n = it % 6 == 5 && k0 == 0 ? 3 : 8; /* a short group too */
                satc_rpoly out[8][3];
                double zlo[8];
                int8_t st[8];
                int8_t st1[8];
                builds[bi].w(&rv, &box[k0], n, out, zlo, st1, 1); /* the first pass */
                builds[bi].w(&rv, &box[k0], n, out, zlo, st, 0);
                for (int l = 0; l < n; l++) {
                    const satc_rbox *b = &box[k0 + l];
                    satc_rpoly p[3];
                    int np = satc_raster_setup_box(&rv, b->c, (const double(*)[3])b->H, b->cerr, p);
                    took++;
                    /* the first pass drops only what draws nothing (no skip
                     * without a level 0), and hands back what the whole
                     * setup hands back */
                    bad1 += st1[l] == 0 ? np != 0 : st1[l] == 2 ? st[l] != 2 : st1[l] != 3;
                    n_ok += np > 0 && !ortho;
                    ortho_set += ortho && st[l] == 1;
                    /* the rectangle holds every texel the polygon writes:
                     * grown by three texels it writes the same bits */
                    if (np > 0 && bi == 0 && grown_checks < 6000 && w * h <= 512 * 256) {
                        static float la[512 * 256], lb[512 * 256];
                        for (int k = 0; k < np; k++) {
                            int mg = (flags & SATC_RVIEW_CELLS) != 0;
                            fill_grown(&p[k], 0, w, h, r0, r1, la, mg);
                            fill_grown(&p[k], 3, w, h, r0, r1, lb, mg);
                            grown_bad += memcmp(la, lb, (size_t)w * h * sizeof(float)) != 0 ||
                                         memcmp(g_cd[0], g_cd[1], 2 * (size_t)w * h * 4) != 0 ||
                                         memcmp(g_cm[0], g_cm[1], 2 * (size_t)w * h * 2) != 0;
                            grown_merged += mg;
                            grown_checks++;
                        }
                    }
                    if (st[l] == 2) {
                        back++;
                    } else if (st[l] == 1) {
                        drawn++;
                        bad += np != 1 || !same_poly(&p[0], &out[l][0]);
                    } else if (st[l] == 0) {
                        dropped++;
                        wrong0 += np != 0;
                    } else {
                        bad++;
                    }
                }
            }
        }
        printf("%-8s: %zu boxes, %zu set up (the one-box setup draws %zu), %zu dropped, %zu handed "
               "back; %zu differ, %zu dropped wrongly, %zu wrong in the first pass\n",
               builds[bi].name, took, drawn, n_ok, dropped, back, bad, wrong0, bad1);
        check(bad == 0, "every box the wide setup sets up has the one-box setup's bits");
        check(wrong0 == 0, "every box the wide setup drops, the one-box setup drops");
        check(bad1 == 0, "the first pass drops nothing drawn and agrees on what goes back");
        check(ortho_set == 0, "orthographic views go back to the one-box setup");
        if (bi == 0) {
            printf("rectangles: %zu polygons (%zu merged) filled grown by three texels, %zu differ\n",
                   grown_checks, grown_merged, grown_bad);
            check(grown_checks > 1000 && grown_merged > 200 && grown_bad == 0,
                  "no texel outside a polygon's rectangle is written");
        }
        check(drawn > n_ok * 3 / 4, "the wide setup sets up most drawn boxes itself");
        check(dropped > took / 4 && back < took / 4, "and decides most of the rest itself");
    }
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
