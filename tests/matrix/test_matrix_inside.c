/*
 * SATC_INSIDE from satc_frustum_from_matrix means inside what the float
 * matrix itself clips: a float far
 * plane tilts by about 2^-24 f / (2 n), so the right frustum satc models
 * reaches a few units beyond it near the far corners, and volumes there
 * were classified INSIDE while crossing the matrix's far plane.
 *
 * Oracle: the six clip planes of the float matrix (row 3 +- row i),
 * evaluated in long double (float sums and products are exact there or
 * nearly so): a sphere is inside when its center is at least r |a| inside
 * every plane a, a box when its eight vertices (from its float fields, in
 * long double) are. Every volume the library classifies INSIDE, on every
 * runnable path, in both modes, flat and with group bounds, must pass.
 * Scenes: the far corners of ordinary projections; projections whose
 * float far plane survives though satc culls with f = +Inf (GL n 0.01,
 * f 1e5 and the like); a D3D camera 10^5 from the origin with n 0.05;
 * random matrices with cameras up to 10^7 out, volumes near every side
 * and corner at every depth. SATC_TEST_QUICK=1: 40 random matrices;
 * --long: 4000.
 * Ends with "N passed, N failed"; exits non-zero on failure.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satc.h"
#define MATRIX_MAX_FAILS 30
#include "matrix_check.h"

typedef long double ld;

/* A rotated camera and its float view-projection matrix. */
typedef struct scene {
    double E[3], R[3][3]; /* origin, frame rows L, U, D */
    double n, f, sx, sy;  /* depths, slopes (symmetric) */
    int conv;             /* 0: GL [-1, 1]; 1: [0, 1]; 2: [0, 1] reversed */
    float m[16];          /* column-major */
    ld plane[6][4];       /* clip planes of m: inside a . x + d >= 0 */
    ld plen[6];           /* |a| of each plane */
} scene;

static unsigned conv_flags(int c)
{
    return c == 0 ? 0u : c == 1 ? SATC_DEPTH_ZERO_TO_ONE : SATC_DEPTH_ZERO_TO_ONE | SATC_DEPTH_REVERSED;
}

static void make_matrix(scene *s)
{
    double V[4][4] = {{0}}, P[4][4] = {{0}}, M[4][4];
    const double sg[3] = {-1, 1, -1}; /* view x = -L, y = U, z = -D */
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            V[i][j] = sg[i] * s->R[i][j];
        V[i][3] = -(V[i][0] * s->E[0] + V[i][1] * s->E[1] + V[i][2] * s->E[2]);
    }
    V[3][3] = 1;
    double n = s->n, f = s->f, A, B;
    if (s->conv == 0)
        A = -(f + n) / (f - n), B = -2 * f * n / (f - n);
    else if (s->conv == 1)
        A = -f / (f - n), B = -f * n / (f - n);
    else
        A = n / (f - n), B = f * n / (f - n);
    P[0][0] = 1 / s->sx, P[1][1] = 1 / s->sy, P[2][2] = A, P[2][3] = B, P[3][2] = -1;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            M[i][j] = P[i][0] * V[0][j] + P[i][1] * V[1][j] + P[i][2] * V[2][j] + P[i][3] * V[3][j];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            s->m[j * 4 + i] = (float)M[i][j];
    /* The float matrix's planes: w +- x, w +- y; depth per convention. */
    ld row[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            row[i][j] = s->m[j * 4 + i];
    for (int j = 0; j < 4; j++) {
        s->plane[0][j] = row[3][j] + row[0][j];
        s->plane[1][j] = row[3][j] - row[0][j];
        s->plane[2][j] = row[3][j] + row[1][j];
        s->plane[3][j] = row[3][j] - row[1][j];
        if (s->conv == 0) {
            s->plane[4][j] = row[3][j] + row[2][j]; /* z >= -w */
            s->plane[5][j] = row[3][j] - row[2][j]; /* z <= w */
        } else {
            s->plane[4][j] = row[2][j];             /* z >= 0 */
            s->plane[5][j] = row[3][j] - row[2][j]; /* z <= w */
        }
    }
    for (int p = 0; p < 6; p++) {
        const ld *a = s->plane[p];
        s->plen[p] = sqrtl(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    }
}

/* How far point x (long double) is inside plane p, per unit of normal. */
static ld inside_by(const scene *s, int p, const ld x[3])
{
    const ld *a = s->plane[p];
    return (a[0] * x[0] + a[1] * x[1] + a[2] * x[2] + a[3]) / s->plen[p];
}

/* World point at frame coordinates (x, y, z). */
static void world(const scene *s, double x, double y, double z, float out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = (float)(s->E[k] + x * s->R[0][k] + y * s->R[1][k] + z * s->R[2][k]);
}

#define NV 2048

typedef struct vols {
    float sc[NV][3], sr[NV];           /* spheres */
    float bc[NV][3], bh[NV][3];        /* AABBs */
} vols;

/* Volume i: a sphere of radius rr and an AABB about one center within br
 * of the spot (bx, by, bz) in frame coordinates. */
static void put_vol(rng *r, const scene *s, vols *v, int i, double bx, double by, double bz,
                    double br, double rr)
{
    double z = bz + uni(r, -1, 1) * br, x = bx + uni(r, -1, 1) * br, y = by + uni(r, -1, 1) * br;
    world(s, x, y, z, v->sc[i]);
    v->sr[i] = (float)rr;
    memcpy(v->bc[i], v->sc[i], sizeof v->bc[i]);
    for (int k = 0; k < 3; k++)
        v->bh[i][k] = (float)(rr * uni(r, 0.2, 0.57));
}

/* Volumes inside the frustum near the far plane, most near its corners:
 * depth within [0, 3 gap] of f below the far face, laterally 0.3..1 of
 * the way to a side, so many straddle the tilted float far plane. */
static void make_vols(rng *r, const scene *s, double rad, double gap, vols *v)
{
    /* Groups of 16 (the test's group size) share a spot, so some group
     * bounds lie inside the frustum whole and are decided at once. */
    double bz = 0, bx = 0, by = 0, br = 1;
    for (int i = 0; i < NV; i++) {
        if (i % 16 == 0) {
            br = rad > 0 ? rad : logu(r, 0.5, 50);
            bz = s->f - br * 3.0 - uni(r, 0, 3 * gap);
            double fx = i & 16 ? uni(r, 0.3, 1) : uni(r, 0.9, 1), fy = i & 32 ? uni(r, 0.3, 1) : uni(r, 0.9, 1);
            bx = (next(r) & 1 ? 1 : -1) * (fx * s->sx * bz - 6 * br);
            by = (next(r) & 1 ? 1 : -1) * (fy * s->sy * bz - 6 * br);
        }
        put_vol(r, s, v, i, bx, by, bz, br, br * uni(r, 0.5, 1));
    }
}

typedef struct tally {
    long inside, bad;
    double worst; /* deepest violation seen, units */
} tally;

/* The oracle's verdict on each volume of the scene, computed once: every
 * cull of the scene (paths, modes, groups) is judged against the same
 * numbers, and under an emulator long double arithmetic is the cost. */
typedef struct verdicts {
    ld worst[2][NV]; /* [sphere]: how far the volume is inside, < 0 outside */
    uint8_t known[2][NV];
} verdicts;

/* How far volume i is inside every plane (< 0: partly outside). A box's
 * nearest vertex to plane a is c - sign(a) h per axis, so its distance is
 * a . c + d - sum |a_k| h_k: the least over the eight vertices, each
 * product exact in long double. */
static ld oracle_worst(const scene *s, const vols *v, int sphere, int i)
{
    ld worst = INFINITY;
    for (int p = 0; p < 6; p++) {
        const ld *a = s->plane[p];
        ld d;
        if (sphere) {
            ld c[3] = {v->sc[i][0], v->sc[i][1], v->sc[i][2]};
            d = inside_by(s, p, c) - v->sr[i];
        } else {
            ld c[3] = {v->bc[i][0], v->bc[i][1], v->bc[i][2]};
            ld reach = fabsl(a[0]) * v->bh[i][0] + fabsl(a[1]) * v->bh[i][1] + fabsl(a[2]) * v->bh[i][2];
            d = inside_by(s, p, c) - reach / s->plen[p];
        }
        worst = d < worst ? d : worst;
    }
    return worst;
}

/* Checks the INSIDE classes of one cull against the oracle. */
static void judge(const scene *s, const vols *v, int sphere, const uint8_t *cls, verdicts *vd,
                  tally *t)
{
    for (int i = 0; i < NV; i++) {
        if (cls[i] != SATC_INSIDE)
            continue;
        t->inside++;
        if (!vd->known[sphere][i]) {
            vd->worst[sphere][i] = oracle_worst(s, v, sphere, i);
            vd->known[sphere][i] = 1;
        }
        ld worst = vd->worst[sphere][i];
        if (worst < 0) {
            t->bad++;
            t->worst = fmax(t->worst, (double)-worst);
        }
    }
}

/* Volumes anywhere in (and around) the frustum: depth log-uniform over
 * [n, 2 f] (f: the far plane, or 10^6 n for an infinite one), laterally
 * 0.8..1.1 of the way to a side or a corner, sizes 10^-5..10^-2 of the
 * depth; groups of 16 share a spot as in make_vols. */
static void make_vols_all(rng *r, const scene *s, vols *v)
{
    double far = isinf(s->f) ? 1e6 * s->n : 2 * s->f;
    double bz = 0, bx = 0, by = 0, br = 1;
    for (int i = 0; i < NV; i++) {
        if (i % 16 == 0) {
            bz = logu(r, s->n, far);
            br = bz * logu(r, 1e-5, 1e-2);
            double fx = next(r) % 3 ? uni(r, 0.8, 1.1) : uni(r, 0, 1);
            double fy = next(r) % 3 ? uni(r, 0.8, 1.1) : uni(r, 0, 1);
            bx = (next(r) & 1 ? 1 : -1) * fx * s->sx * bz;
            by = (next(r) & 1 ? 1 : -1) * fy * s->sy * bz;
        }
        put_vol(r, s, v, i, bx, by, bz, br, br * uni(r, 0.05, 1));
    }
}

static tally g_t[2][2]; /* [sphere][grouped] */

/* "Nothing INSIDE" (f_in <= n) is the honest answer when the float
 * matrix's far plane is too coarse to certify any region inside it: its
 * z row carries 2^-24 relative rounding, about 2^-24 f / n of the depth at
 * the far end. Up to f / n = 2^14 every matrix that builds a frustum must
 * classify; beyond, the count is reported only. */
#define RESOLVED_RANGE 16384.0
static long g_frusta, g_refused, g_no_inside, g_resolved, g_resolved_no_inside;

static void run_scene(const scene *s, const vols *v)
{
    satc_frustum fr;
    satc_status st = satc_frustum_from_matrix(&fr, s->m, conv_flags(s->conv));
    g_frusta++;
    if (st != SATC_OK) { /* a status is fine (a near plane below the apex's float resolution) */
        g_refused++;
        check(st == SATC_ERR_NEAR || st == SATC_ERR_MATRIX, "from_matrix status %d (n %g f %g)", st,
              s->n, s->f);
        return;
    }
    g_no_inside += !(fr.f_in > fr.n);
    if (s->f / s->n <= RESOLVED_RANGE) {
        g_resolved++;
        g_resolved_no_inside += !(fr.f_in > fr.n);
        check(fr.f_in > fr.n, "conv %d n %g f %g (f / n %g): nothing is INSIDE", s->conv, s->n, s->f,
              s->f / s->n);
    }
    satc_batch b[2];
    memset(b, 0, sizeof b);
    b[1].form = SATC_FORM_SPHERES;
    b[1].spheres.center = SATC_VEC3S_AOS(&v->sc[0][0], 12);
    b[1].spheres.radius = (satc_floats){v->sr, 4};
    b[0].form = SATC_FORM_AABB;
    b[0].aabb.center = SATC_VEC3S_AOS(&v->bc[0][0], 12);
    b[0].aabb.half = SATC_VEC3S_AOS(&v->bh[0][0], 12);
    static float gc[NV / 16][3], gh[NV / 16][3];
    static uint8_t ref[NV], cls[NV];
    static verdicts vd;
    memset(vd.known, 0, sizeof vd.known);
    unsigned paths = satc_isa_runnable();
    for (int sp = 0; sp < 2; sp++) {
        satc_groups g = {16, NULL, NV / 16, SATC_VEC3S_AOS(&gc[0][0], 12), SATC_VEC3S_AOS(&gh[0][0], 12)};
        check(satc_group_bounds(&b[sp], NV, 16, NULL, NV / 16, &gc[0][0], &gh[0][0]) == SATC_OK,
              "group bounds");
        for (int mode = 0; mode < 2; mode++) {
            for (unsigned isa = 1; isa <= SATC_ISA_AVX512; isa <<= 1) {
                if (!(paths & isa))
                    continue;
                for (int grouped = 0; grouped < 2; grouped++) {
                    satc_batch bb = b[sp];
                    bb.groups = grouped ? &g : NULL;
                    satc_results out = {NULL, isa == SATC_ISA_SCALAR && !grouped ? ref : cls, NULL, 0};
                    st = satc_cull_isa((satc_isa)isa, &fr, &bb, 0, NV, (satc_mode)mode, &out);
                    check(st == SATC_OK, "cull status %d", st);
                    judge(s, v, sp, out.classes, &vd, &g_t[sp][grouped]);
                    if (out.classes == cls)
                        check(!memcmp(ref, cls, NV), "%s %s mode %d grouped %d: classes differ from the "
                              "scalar flat cull", satc_isa_name((satc_isa)isa), sp ? "spheres" : "AABBs",
                              mode, grouped);
                }
            }
        }
    }
}

int main(int argc, char **argv)
{
    const char *q = getenv("SATC_TEST_QUICK");
    int nrand = q && *q && *q != '0' ? 40 : 150;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--long"))
            nrand = 4000;
    rng r = {20261125};
    static vols v;
    scene s;
    /* 1. The case: GL, camera at the origin, n ~ 1.018, f ~ 9450,
     * slopes 2.9 and 2.2, spheres of radius 24 (distance ~1.7e4 and more). */
    for (int c = 0; c < 60; c++) {
        memset(&s, 0, sizeof s);
        random_rotation(&r, s.R);
        s.n = 1.018 * uni(&r, 0.99, 1.01), s.f = 9450 * uni(&r, 0.99, 1.01);
        s.sx = 2.9, s.sy = 2.2, s.conv = 0;
        make_matrix(&s);
        make_vols(&r, &s, 24, 4, &v);
        run_scene(&s, &v);
    }
    /* 2. A sweep: random rotations and origins, f / n 10^2..10^5, slopes
     * 0.2..3, three depth conventions, sizes 0.5..50. */
    for (int c = 0; c < 120; c++) {
        memset(&s, 0, sizeof s);
        random_rotation(&r, s.R);
        for (int k = 0; k < 3; k++)
            s.E[k] = uni(&r, -100, 100);
        s.n = logu(&r, 0.05, 3), s.f = s.n * logu(&r, 1e2, 1e5);
        s.sx = logu(&r, 0.2, 3), s.sy = logu(&r, 0.2, 3), s.conv = c % 3;
        make_matrix(&s);
        make_vols(&r, &s, 0, 2e-7 * s.f * s.f / s.n + 1, &v);
        run_scene(&s, &v);
    }
    /* 3. Ordinary projections whose float far plane survives (GL n 0.01
     * f 1e5; D3D n 0.1 f 1e5, n 0.01 f 1e4, n 1 f 1e6; GL n 0.1 f 3e5, n 1
     * f 1e7), and a D3D camera (n 0.05, f 2e4) near (1e5, 3e4, 5e4). */
    static const double cases[7][3] = {{0, 0.01, 1e5}, {1, 0.1, 1e5}, {1, 0.01, 1e4}, {1, 1, 1e6},
                                       {0, 0.1, 3e5}, {0, 1, 1e7}, {1, 0.05, 2e4}};
    for (int c = 0; c < 7 * 8; c++) {
        memset(&s, 0, sizeof s);
        random_rotation(&r, s.R);
        const double *k = cases[c % 7];
        if (c % 7 == 6)
            s.E[0] = 1e5 + uni(&r, -1e3, 1e3), s.E[1] = 3e4 + uni(&r, -1e3, 1e3), s.E[2] = 5e4;
        s.conv = (int)k[0], s.n = k[1], s.f = k[2];
        s.sx = logu(&r, 0.3, 2), s.sy = logu(&r, 0.3, 2);
        make_matrix(&s);
        make_vols_all(&r, &s, &v);
        run_scene(&s, &v);
    }
    /* 4. Random matrices: cameras up to 10^7 from the origin, n 10^-3..10,
     * f / n 10..10^8, slopes 0.1..4, every depth convention; volumes
     * anywhere in the frustum, most near its sides and corners. */
    for (int c = 0; c < nrand; c++) {
        memset(&s, 0, sizeof s);
        random_rotation(&r, s.R);
        double far = pow(10.0, uni(&r, 0, 7));
        for (int k = 0; k < 3; k++)
            s.E[k] = c % 4 ? uni(&r, -far, far) : 0;
        s.n = logu(&r, 1e-3, 10), s.f = s.n * logu(&r, 10, 1e8);
        s.sx = logu(&r, 0.1, 4), s.sy = logu(&r, 0.1, 4), s.conv = c % 3;
        make_matrix(&s);
        make_vols_all(&r, &s, &v);
        run_scene(&s, &v);
    }
    const char *nm[2] = {"AABBs", "spheres"};
    for (int sp = 0; sp < 2; sp++) {
        for (int gr = 0; gr < 2; gr++) {
            tally *t = &g_t[sp][gr];
            printf("%s%s: %ld INSIDE classes checked, %ld beyond the matrix's planes (deepest %.3g)\n",
                   nm[sp], gr ? " with groups" : "", t->inside, t->bad, t->worst);
            check(t->bad == 0, "%s%s: %ld INSIDE volumes cross the float matrix's planes, by up to %g",
                  nm[sp], gr ? " grouped" : "", t->bad, t->worst);
            check(t->inside > 1000, "%s: only %ld INSIDE classes (the sweep must reach them)", nm[sp],
                  t->inside);
        }
    }
    printf("%ld matrices, %ld refused with a status, %ld with nothing INSIDE (%ld of the %ld with "
           "f / n <= %g)\n", g_frusta, g_refused, g_no_inside, g_resolved_no_inside, g_resolved,
           RESOLVED_RANGE);
    check(g_refused * 4 < g_frusta, "most matrices must give a frustum (%ld of %ld refused)", g_refused,
          g_frusta);
    check(g_resolved * 3 > g_frusta, "the sweep must reach resolved matrices (%ld of %ld)", g_resolved,
          g_frusta);
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
