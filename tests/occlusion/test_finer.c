/*
 * The test's finer reads: a volume whose coarse texels are undecided
 * (they hold a far value from outside its rectangle) is read down to
 * level 0. Hand-made pyramids over one view: near texels everywhere but
 * one +Inf texel beside each side of a box's rectangle (projected in
 * double, widened by a texel), at every offset against the coarse levels'
 * texel boundaries: the box must be occluded. The same with one texel of
 * its true rectangle one float step beyond the box's least depth within
 * it (an enumeration of the box cut by the texel's cone): never occluded;
 * a little nearer than that depth but beyond the box's nearest depth:
 * occluded through the depth per texel. Random pyramids of near and far texels: a box is
 * occluded only when every level-0 texel over its true rectangle is
 * nearer than its nearest depth. Every path gives the scalar bits.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satc.h"

#include "occl_check.h"

static const satc_isa k_isas[] = {SATC_ISA_SCALAR, SATC_ISA_SSE41, SATC_ISA_AVX2,
                                  SATC_ISA_AVX512, SATC_ISA_NEON, SATC_ISA_SIMD128};
#define NISA (sizeof k_isas / sizeof k_isas[0])

enum { PW = 256, PH = 128, NB = 64 };

static uint64_t g_rng = 0x5eed0ccu;
static double urand(void)
{
    g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g_rng >> 11) / 9007199254740992.0;
}

/* A box's true screen rectangle in level-0 texels (closed, as floor of
 * the extreme corners' coordinates) and its nearest view depth. The view
 * looks along +z from the origin, L = +x (so columns grow as x falls). */
typedef struct rect {
    int i0, i1, j0, j1;
    double zmin, zmax;
} rect;

static rect project(const satc_frustum *f, const float c[3], const float h[3])
{
    double u0 = INFINITY, u1 = -INFINITY, v0 = INFINITY, v1 = -INFINITY, zmin = INFINITY;
    double zmax = -INFINITY;
    for (int q = 0; q < 8; q++) {
        double x = (double)c[0] + (q & 1 ? h[0] : -(double)h[0]);
        double y = (double)c[1] + (q & 2 ? h[1] : -(double)h[1]);
        double z = (double)c[2] + (q & 4 ? h[2] : -(double)h[2]);
        double u = ((double)f->x1 - x / z) * PW / ((double)f->x1 - f->x0);
        double v = (y / z - (double)f->y0) * PH / ((double)f->y1 - f->y0);
        u0 = fmin(u0, u), u1 = fmax(u1, u), v0 = fmin(v0, v), v1 = fmax(v1, v), zmin = fmin(zmin, z);
        zmax = fmax(zmax, z);
    }
    rect r = {(int)floor(u0), (int)floor(u1), (int)floor(v0), (int)floor(v1), zmin, zmax};
    return r;
}

/* The least depth of box (c, h) over the directions of level-0 texel
 * (i, j) (the view's frame is the identity), by enumeration: the
 * minimum of a linear function over the box cut by the texel's cone lies
 * at a box corner inside the cone, where a box edge crosses a cone face,
 * or where a cone edge crosses a box face. +Inf: the box misses it. */
static double texel_min_depth(const satc_frustum *f, const float c[3], const float h[3], int i,
                              int j)
{
    double w = ((double)f->x1 - f->x0) / PW, hh = ((double)f->y1 - f->y0) / PH;
    double a[2] = {f->x1 - (i + 1) * w, f->x1 - i * w}, b[2] = {f->y0 + j * hh, f->y0 + (j + 1) * hh};
    double lo[3], hi[3], best = INFINITY;
    for (int k = 0; k < 3; k++)
        lo[k] = (double)c[k] - h[k], hi[k] = (double)c[k] + h[k];
    const double eps = 1e-12;
#define INSIDE(P)                                                                                  \
    ((P)[2] > 0 && (P)[0] >= a[0] * (P)[2] - eps * (P)[2] && (P)[0] <= a[1] * (P)[2] + eps * (P)[2] && \
     (P)[1] >= b[0] * (P)[2] - eps * (P)[2] && (P)[1] <= b[1] * (P)[2] + eps * (P)[2] &&         \
     (P)[0] >= lo[0] - eps && (P)[0] <= hi[0] + eps && (P)[1] >= lo[1] - eps &&                \
     (P)[1] <= hi[1] + eps && (P)[2] >= lo[2] - eps && (P)[2] <= hi[2] + eps)
    for (int q = 0; q < 8; q++) {
        double P[3] = {q & 1 ? hi[0] : lo[0], q & 2 ? hi[1] : lo[1], q & 4 ? hi[2] : lo[2]};
        if (INSIDE(P))
            best = fmin(best, P[2]);
    }
    /* box edges along axis k against the faces x = s z (k2 = 0) or y = s z */
    for (int k = 0; k < 3; k++)
        for (int q = 0; q < 4; q++) {
            double P[3], Q[3];
            int m = (k + 1) % 3, n = (k + 2) % 3;
            P[m] = Q[m] = q & 1 ? hi[m] : lo[m], P[n] = Q[n] = q & 2 ? hi[n] : lo[n];
            P[k] = lo[k], Q[k] = hi[k];
            for (int ax = 0; ax < 2; ax++)
                for (int e = 0; e < 2; e++) {
                    double s = ax ? b[e] : a[e];
                    double gp = P[ax] - s * P[2], gq = Q[ax] - s * Q[2];
                    if (gp == gq)
                        continue;
                    double t = gp / (gp - gq);
                    if (t < 0 || t > 1)
                        continue;
                    double X[3] = {P[0] + t * (Q[0] - P[0]), P[1] + t * (Q[1] - P[1]),
                                   P[2] + t * (Q[2] - P[2])};
                    if (INSIDE(X))
                        best = fmin(best, X[2]);
                }
        }
    /* cone edges (a, b, 1) t against the box faces */
    for (int e = 0; e < 4; e++) {
        double d[3] = {a[e & 1], b[e >> 1], 1};
        for (int k = 0; k < 3; k++)
            for (int side = 0; side < 2; side++) {
                double t = (side ? hi[k] : lo[k]) / d[k];
                double X[3] = {d[0] * t, d[1] * t, t};
                if (INSIDE(X))
                    best = fmin(best, X[2]);
            }
    }
#undef INSIDE
    return best;
}

static int clampi(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

/* Level 0 near (at zn) but for one +Inf texel beside each side of r
 * widened by a texel (each at a random place along the side), so the
 * coarse texels over r that hold one cannot decide alone. */
static void paint(satc_pyramid *p, const rect *r, float zn)
{
    for (size_t t = 0; t < (size_t)PW * PH; t++)
        p->depth[t] = zn;
    int ri = r->i0 + (int)(urand() * (r->i1 - r->i0 + 1));
    int rj = r->j0 + (int)(urand() * (r->j1 - r->j0 + 1));
    int si = r->i0 + (int)(urand() * (r->i1 - r->i0 + 1));
    int sj = r->j0 + (int)(urand() * (r->j1 - r->j0 + 1));
    p->depth[(size_t)(r->j0 - 2) * PW + ri] = INFINITY;
    p->depth[(size_t)(r->j1 + 2) * PW + si] = INFINITY;
    p->depth[(size_t)rj * PW + r->i0 - 2] = INFINITY;
    p->depth[(size_t)sj * PW + r->i1 + 2] = INFINITY;
}

/* Every compiled path's occluded bits for boxes (cs, hs) [0, n) against
 * p; 1 when they all agree, and agree with satc_cull_views_occluded
 * (the scalar bits to occ). */
static int cull_all(const satc_pyramid *p, const satc_batch *b, size_t n, uint8_t *occ)
{
    uint8_t mine[NB / 8 + 1], vw[NB / 8 + 1] = {0};
    int agree = 1, ran = 0;
    {
        const satc_pyramid *pv[1] = {p};
        uint8_t cls[NB];
        uint8_t *cv[1] = {cls};
        satc_view_results vr = {NULL, NULL, cv, NULL};
        if (satc_cull_views_occluded(&p->view, pv, 1, b, 0, n, SATC_CONSERVATIVE, &vr) != SATC_OK)
            return 0;
        for (size_t i = 0; i < n; i++)
            vw[i / 8] |= (uint8_t)((cls[i] == SATC_OCCLUDED) << (i % 8));
    }
    for (size_t s = 0; s < NISA; s++) {
        satc_results r = {NULL, NULL, NULL, 0};
        memset(mine, 0, sizeof mine);
        satc_status st = satc_cull_occluded_isa(k_isas[s], p, b, 0, n, SATC_CONSERVATIVE, &r, mine,
                                                NULL);
        if (st == SATC_ERR_ISA)
            continue;
        if (st != SATC_OK)
            return 0;
        if (!ran)
            memcpy(occ, mine, sizeof mine);
        else if (memcmp(occ, mine, (n + 7) / 8))
            agree = 0;
        ran = 1;
    }
    return agree && ran && !memcmp(occ, vw, (n + 7) / 8);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    satc_camera cam = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, -0.8f, 0.8f, -0.45f, 0.45f,
                       0.25f, 1000.0f, 0};
    satc_frustum f;
    satc_frustum_from_camera(&f, &cam);
    size_t bytes = satc_pyramid_bytes(PW, PH);
    float *st = aligned_alloc(64, (bytes + 63) / 64 * 64);
    satc_pyramid p;
    satc_pyramid_init(&p, &f, PW, PH, st, bytes);
    satc_pyramid_set_test(&p, SATC_TEST_DEPTH_PER_TEXEL, 1000);
    static float cx[NB], cy[NB], cz[NB], hx[NB], hy[NB], hz[NB];
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_AABB;
    b.aabb.center = (satc_vec3s){cx, cy, cz, sizeof(float)};
    b.aabb.half = (satc_vec3s){hx, hy, hz, sizeof(float)};
    size_t hid = 0, cases = 0, unsound = 0, leaked = 0, total = 0, tight = 0;
    size_t deep = 0, deep_hid[3] = {0, 0, 0}, edge = 0;
    for (int round = 0; round < 40; round++) {
        /* one box per pyramid: its rectangle painted near, the rest far */
        for (int t = 0; t < NB; t++) {
            double z = 20 + 40 * urand();
            double s = (0.02 + 0.2 * urand()) * z; /* 3 to 40 texels across */
            cx[t] = (float)((urand() - 0.5) * 1.2 * z), cy[t] = (float)((urand() - 0.5) * 0.6 * z);
            cz[t] = (float)z;
            hx[t] = (float)(s * (0.3 + urand())), hy[t] = (float)(s * (0.3 + urand()));
            hz[t] = (float)(s * urand());
            if (t % 4 == 1) /* tiny: under a texel or two */
                hx[t] = hy[t] = hz[t] = (float)(0.003 * z * (0.2 + urand()));
            else if (t % 4 == 2) /* a slab along the line of sight, seen grazing */
                hy[t] = (float)(s * 0.01 * urand()), hz[t] = (float)(s * (1 + 3 * urand()));
            else if (t % 8 == 3) /* huge: mostly off screen */
                hx[t] *= 4, hy[t] *= 4, hz[t] *= 4;
        }
        uint8_t occ[NB / 8 + 1];
        for (int t = 0; t < NB; t++) {
            float c[3] = {cx[t], cy[t], cz[t]}, h[3] = {hx[t], hy[t], hz[t]};
            rect r = project(&f, c, h);
            if (r.i0 < 2 || r.i1 > PW - 3 || r.j0 < 2 || r.j1 > PH - 3)
                continue; /* wholly on screen only: its rectangle is not clipped */
            float zn = (float)(r.zmin * 0.5);
            paint(&p, &r, zn);
            satc_pyramid_build(&p);
            CHECK(cull_all(&p, &b, NB, occ), "paths differ (round %d, box %d)", round, t);
            cases++;
            hid += occ[t / 8] >> (t % 8) & 1;
            /* a texel of the true rectangle just beyond the box's least
             * depth within it (the box shows there), then a little nearer
             * than that depth but beyond the box's nearest depth: only the
             * depth per texel hides it */
            int fi = clampi(r.i0 + (int)(urand() * (r.i1 - r.i0 + 1)), r.i0, r.i1);
            int fj = clampi(r.j0 + (int)(urand() * (r.j1 - r.j0 + 1)), r.j0, r.j1);
            double dm = texel_min_depth(&f, c, h, fi, fj);
            if (!(dm < INFINITY))
                continue;
            float far = nextafterf((float)dm, INFINITY);
            p.depth[(size_t)fj * PW + fi] = far;
            satc_pyramid_build(&p);
            for (int on = 0; on < 2; on++) {
                satc_pyramid_set_test(&p, on ? SATC_TEST_DEPTH_PER_TEXEL : 0, 1000);
                CHECK(cull_all(&p, &b, NB, occ), "paths differ (round %d, box %d)", round, t);
                unsound += occ[t / 8] >> (t % 8) & 1;
            }
            edge++;
            /* between the nearest depth and the least depth there, within
             * the margin of the volume's depth range the option bounds */
            double lo = r.zmin * 1.001, zl = r.zmin + (SATC_TEST_MARGIN - 0.05) * (r.zmax - r.zmin);
            double hi = fmin(dm * 0.999, zl);
            if (hi > lo) {
                p.depth[(size_t)fj * PW + fi] = (float)(lo + 0.9 * (hi - lo));
                satc_pyramid_build(&p);
                /* off, on with no budget, on */
                const unsigned fl[3] = {0, SATC_TEST_DEPTH_PER_TEXEL, SATC_TEST_DEPTH_PER_TEXEL};
                const uint32_t bu[3] = {1000, 0, 1000};
                for (int m = 0; m < 3; m++) {
                    satc_pyramid_set_test(&p, fl[m], bu[m]);
                    CHECK(cull_all(&p, &b, NB, occ), "paths differ (round %d, box %d)", round, t);
                    deep_hid[m] += occ[t / 8] >> (t % 8) & 1;
                }
                deep++;
            }
            satc_pyramid_set_test(&p, SATC_TEST_DEPTH_PER_TEXEL, 1000);
        }
        /* random level 0 near or far per texel, the whole batch at once */
        for (int j = 0; j < PH; j++)
            for (int i = 0; i < PW; i++)
                st[(size_t)j * PW + i] = urand() < 0.995 ? 5.0f : INFINITY;
        satc_pyramid_build(&p);
        CHECK(cull_all(&p, &b, NB, occ), "paths differ (round %d, random)", round);
        for (int t = 0; t < NB; t++) {
            float c[3] = {cx[t], cy[t], cz[t]}, h[3] = {hx[t], hy[t], hz[t]};
            rect r = project(&f, c, h);
            int all = 1;
            for (int j = clampi(r.j0, 0, PH - 1); j <= clampi(r.j1, 0, PH - 1); j++)
                for (int i = clampi(r.i0, 0, PW - 1); i <= clampi(r.i1, 0, PW - 1); i++)
                    all &= st[(size_t)j * PW + i] < r.zmin;
            int o = occ[t / 8] >> (t % 8) & 1;
            total++;
            leaked += o && !all;
            tight += all && o;
        }
    }
    printf("%zu boxes, %zu occluded over near rectangles; %zu of %zu random-pyramid boxes occluded\n",
           cases, hid, tight, total);
    CHECK(cases > 500, "enough boxes wholly on screen: %zu", cases);
    CHECK(hid == cases, "boxes over near rectangles read down to level 0: %zu of %zu occluded",
          hid, cases);
    CHECK(unsound == 0, "boxes occluded with a texel just beyond their least depth there: %zu of %zu",
          unsound, edge);
    printf("%zu of %zu boxes occluded with one texel between their nearest depth and their least "
           "depth within it (plain test %zu, no budget %zu)\n", deep_hid[2], deep, deep_hid[0],
           deep_hid[1]);
    CHECK(deep > 100 && deep_hid[2] * 2 > deep, "depth per texel: %zu of %zu occluded", deep_hid[2],
          deep);
    CHECK(deep_hid[0] == 0 && deep_hid[1] == 0,
          "a texel beyond the nearest depth hides nothing without the option (%zu) or budget (%zu)",
          deep_hid[0], deep_hid[1]);
    CHECK(leaked == 0, "random pyramids: %zu boxes occluded with a far texel over them", leaked);
    free(st);
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail != 0;
}
