/*
 * Occluder choice and drawing by index: satc_occluders_pick against
 * screen rectangles projected in double (every box on screen is picked,
 * each area at least its true rectangle's and barely more, largest
 * first, a smaller max or a min_texels a prefix of the full ranking, the
 * same answer on every native path), satc_pyramid_rasterize_list against
 * satc_pyramid_rasterize (the same bits), and bad arguments (a status,
 * nothing written).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satc.h"

#define RASTER_SEED 0x0cc1d0e5
#include "raster_check.h"

#define NB 400
#define W 128
#define H 64
static float cx[NB], cy[NB], cz[NB], hx[NB], hy[NB], hz[NB];

/* What the oracle knows of box k: on screen (its whole rectangle beyond
 * the near plane, with a width and height), near (it reaches nearer than
 * n), or unsure (too close to n to tell); and its rectangle's clamped
 * width and height in texels, projected in double. */
enum { OFF, ON, NEAR, UNSURE };
typedef struct truth {
    int kind;
    double w, h;
} truth;

static truth project(const satc_frustum *f, int k)
{
    truth t = {OFF, 0, 0};
    double umin = INFINITY, umax = -INFINITY, vmin = INFINITY, vmax = -INFINITY, zmin = INFINITY;
    double zmax = -INFINITY;
    for (int q = 0; q < 8; q++) {
        double p[3] = {(double)cx[k] + (q & 1 ? hx[k] : -(double)hx[k]) - f->origin[0],
                       (double)cy[k] + (q & 2 ? hy[k] : -(double)hy[k]) - f->origin[1],
                       (double)cz[k] + (q & 4 ? hz[k] : -(double)hz[k]) - f->origin[2]};
        double x = 0, y = 0, z = 0;
        for (int j = 0; j < 3; j++)
            x += f->frame[0][j] * p[j], y += f->frame[1][j] * p[j], z += f->frame[2][j] * p[j];
        zmin = fmin(zmin, z), zmax = fmax(zmax, z);
        if (z > 0) {
            /* column 0 is the image's left edge: u grows as a = x / z falls */
            double u = ((double)f->x1 - x / z) * W / ((double)f->x1 - f->x0);
            double v = (y / z - (double)f->y0) * H / ((double)f->y1 - f->y0);
            umin = fmin(umin, u), umax = fmax(umax, u), vmin = fmin(vmin, v), vmax = fmax(vmax, v);
        }
    }
    if (fabs(zmin - f->n) < 1e-3 * (1 + fabs(zmax)))
        return t.kind = UNSURE, t;
    if (zmin <= f->n) {
        t.kind = NEAR;
        return t;
    }
    double c0 = fmin(fmax(umin, 0), W - 1), c1 = fmin(fmax(umax, 0), W - 1);
    double r0 = fmin(fmax(vmin, 0), H - 1), r1 = fmin(fmax(vmax, 0), H - 1);
    t.w = c1 - c0, t.h = r1 - r0;
    /* clearly inside the view (not only kept by the plane test's slack) */
    if (umax > 0.5 && umin < W - 0.5 && vmax > 0.5 && vmin < H - 0.5 && zmax < 900)
        t.kind = ON;
    return t;
}

/* Does (a, i) come before (b, j) in the documented order: larger area
 * first, equal areas lower index first? For qsort. */
typedef struct ranked {
    float area;
    uint32_t i;
} ranked;

static int by_rank(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->area != b->area)
        return a->area > b->area ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* Many candidates, far more than the stack buffer of small picks, with
 * runs of equal areas (identical boxes side by side): the full ranking
 * sorted as documented, and every smaller max its prefix, whichever of
 * the pick's ways (buffer, arrays, heap) it takes. */
static void case_many(const satc_pyramid *p)
{
    enum { NL = 6000 };
    static float lx[NL], ly[NL], lz[NL], lh[NL];
    for (int k = 0; k < NL; k++) {
        int twin = k % 4 == 3;
        double a = rnd(-0.5, 0.5), d = rnd(5, 400), s = exp(rnd(log(0.1), log(6)));
        lx[k] = twin ? lx[k - 1] : (float)(d * sin(a + 0.3));
        lz[k] = twin ? lz[k - 1] + 0 : (float)(d * cos(a + 0.3));
        lh[k] = twin ? lh[k - 1] : (float)s;
        ly[k] = lh[k];
    }
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_AABB;
    b.aabb.center = (satc_vec3s){lx, ly, lz, sizeof(float)};
    b.aabb.half = (satc_vec3s){lh, lh, lh, sizeof(float)};
    static uint32_t all[NL], top[NL];
    static float area[NL], tarea[NL];
    static ranked r[NL];
    size_t n = 0, m = 0;
    check(satc_occluders_pick(p, &b, 0, NL, 0, NL, all, area, &n) == SATC_OK, "many: SATC_OK");
    size_t ties = 0;
    for (size_t q = 0; q < n; q++)
        r[q].area = area[q], r[q].i = all[q], ties += q && area[q] == area[q - 1];
    qsort(r, n, sizeof r[0], by_rank);
    int sorted = 1;
    for (size_t q = 0; q < n; q++)
        sorted &= r[q].i == all[q] && r[q].area == area[q];
    printf("many: %zu of %d picked, %zu equal to the one before\n", n, NL, ties);
    check(n > 2000 && ties > 100, "many: most boxes picked, with ties");
    check(sorted, "many: the ranking as documented (a sort of its own entries)");
    /* room for twice the picks: the arrays' tail sorts them (a byte sort
     * instead of the in-place one), the same ranking */
    static uint32_t big[2 * NL];
    static float barea[2 * NL];
    check(satc_occluders_pick(p, &b, 0, NL, 0, 2 * NL, big, barea, &m) == SATC_OK && m == n &&
              !memcmp(big, all, n * sizeof all[0]) && !memcmp(barea, area, n * sizeof area[0]),
          "many: with room for twice the picks, the same ranking");
    const size_t maxes[] = {1, 700, 1024, 1025, 1536, 1800, 2500};
    for (size_t e = 0; e < sizeof maxes / sizeof maxes[0]; e++) {
        size_t k = maxes[e] < n ? maxes[e] : n;
        check(satc_occluders_pick(p, &b, 0, NL, 0, maxes[e], top, tarea, &m) == SATC_OK && m == k &&
                  !memcmp(top, all, k * sizeof top[0]) && !memcmp(tarea, area, k * sizeof area[0]),
              "many: a smaller max picks the full ranking's first");
    }
}

static satc_batch batch(void)
{
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_AABB;
    b.aabb.center = (satc_vec3s){cx, cy, cz, sizeof(float)};
    b.aabb.half = (satc_vec3s){hx, hy, hz, sizeof(float)};
    return b;
}

int main(void)
{
    const float eye[3] = {0, 1.7f, 0}, dir[3] = {(float)sin(0.3), 0, (float)cos(0.3)};
    const float up[3] = {0, 1, 0};
    satc_frustum f;
    if (satc_frustum_perspective(&f, eye, dir, up, 1.0f, 2.0f, 0.1f, 1000.0f) != SATC_OK) {
        printf("FAIL camera\n");
        return 1;
    }
    /* street boxes all around (some behind, some across the near plane),
     * a few large ones, one NaN */
    for (int k = 0; k < NB; k++) {
        double a = rnd(0, 6.2832), d = k % 50 == 0 ? rnd(0, 2) : rnd(2, 300);
        double s = exp(rnd(log(0.2), log(k % 17 == 0 ? 80 : 15)));
        cx[k] = (float)(d * sin(a)), cz[k] = (float)(d * cos(a));
        hx[k] = (float)(s * rnd(0.3, 1)), hz[k] = (float)(s * rnd(0.3, 1));
        hy[k] = (float)(s * rnd(0.5, 2)), cy[k] = hy[k];
    }
    cx[7] = NAN;
    satc_batch b = batch();
    size_t bytes = satc_pyramid_bytes(W, H);
    float *store = malloc(bytes), *ref = malloc(bytes);
    satc_pyramid p;
    check(satc_pyramid_init(&p, &f, W, H, store, bytes) == SATC_OK, "pyramid set up");

    uint32_t all[NB], top[NB];
    float area[NB], tarea[NB];
    size_t n = 0, m = 0;
    check(satc_occluders_pick(&p, &b, 0, NB, 0, NB, all, area, &n) == SATC_OK, "pick: SATC_OK");
    int order = 1, nan_out = 1, on_in = 1, close = 1, nearfull = 1, unique = 1, non = 0, nnear = 0;
    uint8_t seen[NB] = {0};
    for (size_t q = 0; q < n; q++) {
        if (q && !(area[q] < area[q - 1] || (area[q] == area[q - 1] && all[q] > all[q - 1])))
            order = 0;
        unique &= all[q] < NB && !seen[all[q]];
        seen[all[q] % NB] = 1;
        nan_out &= all[q] != 7;
    }
    for (int k = 0; k < NB; k++) {
        if (k == 7)
            continue;
        truth t = project(&f, k);
        float got = -1;
        for (size_t q = 0; q < n; q++)
            if (all[q] == (uint32_t)k)
                got = area[q];
        if (t.kind == ON) {
            non++;
            on_in &= got >= 0;
            /* an outer rectangle: never smaller, and its margins are tiny */
            double lo = t.w * t.h, hi = (t.w + 0.01) * (t.h + 0.01);
            if (got >= 0 && !(got >= lo * (1 - 1e-5) - 1e-6 && got <= hi)) {
                close = 0;
                printf("  box %d: area %g, projected %g\n", k, got, lo);
            }
        } else if (t.kind == NEAR && got >= 0) {
            nearfull &= got == (float)(W * H);
            nnear++;
        }
    }
    printf("picked %zu of %d boxes (largest %g texels); %d on screen, %d reaching the near plane\n",
           n, NB, n ? area[0] : 0, non, nnear);
    check(n > 20 && non > 20 && nnear > 0, "boxes on screen and reaching the near plane picked");
    check(order, "largest area first, equal areas lower index first");
    check(unique, "each index once, in range");
    check(nan_out, "a NaN box is not picked");
    check(on_in, "every box on screen is picked (max large, min_texels 0)");
    check(close, "each area covers its box's projected rectangle, within 0.01 texel");
    check(nearfull, "a box reaching the near plane ranks as the whole image");

    check(satc_occluders_pick(&p, &b, 0, NB, 0, 10, top, tarea, &m) == SATC_OK && m == 10 &&
              !memcmp(top, all, 10 * sizeof top[0]) && !memcmp(tarea, area, 10 * sizeof tarea[0]),
          "max 10: the 10 first of the full ranking");
    size_t above = 0;
    while (above < n && area[above] >= 50)
        above++;
    check(satc_occluders_pick(&p, &b, 0, NB, 50, NB, top, tarea, &m) == SATC_OK && m == above &&
              !memcmp(top, all, m * sizeof top[0]),
          "min_texels 50: the full ranking's areas >= 50");
    check(satc_occluders_pick(&p, &b, 100, 200, 0, NB, top, tarea, &m) == SATC_OK, "a sub-range");
    int sub = 1;
    for (size_t q = 0, r = 0; q < n; q++)
        if (all[q] >= 100 && all[q] < 300)
            sub &= r < m && top[r++] == all[q];
    check(sub, "a sub-range ranks its volumes as the whole batch does, batch indices");
    check(satc_occluders_pick(&p, &b, 0, NB, 0, 0, NULL, NULL, &m) == SATC_OK && m == 0,
          "max 0: nothing picked, arrays may be NULL");

    case_many(&p);

    /* every native path: the same answer */
    unsigned native = satc_isa_native();
    for (unsigned isa = 1; isa <= SATC_ISA_SIMD128; isa <<= 1) {
        if (!(native & isa) && isa != SATC_ISA_SCALAR)
            continue;
        satc_isa_set_mask(isa);
        if (satc_isa_active() != (satc_isa)isa)
            continue;
        satc_occluders_pick(&p, &b, 0, NB, 0, NB, top, tarea, &m);
        char what[80];
        snprintf(what, sizeof what, "path %s picks the same", satc_isa_name((satc_isa)isa));
        check(m == n && !memcmp(top, all, n * sizeof top[0]) && !memcmp(tarea, area, n * 4), what);
    }
    satc_isa_set_mask(~0u);

    /* drawing by index: the same bits as by range */
    uint32_t ids[NB];
    for (uint32_t k = 0; k < NB; k++)
        ids[k] = NB - 1 - k;
    satc_pyramid_clear(&p);
    check(satc_pyramid_rasterize(&p, &b, 0, NB, NULL) == SATC_OK, "rasterize: SATC_OK");
    memcpy(ref, store, bytes);
    satc_pyramid_clear(&p);
    check(satc_pyramid_rasterize_list(&p, &b, ids, NB, NULL) == SATC_OK, "rasterize_list: SATC_OK");
    check(!memcmp(ref, store, bytes), "every index, reversed: the bits of the range");
    satc_pyramid_clear(&p);
    for (size_t q = 0; q < 10; q++)
        satc_pyramid_rasterize(&p, &b, all[q], 1, NULL);
    memcpy(ref, store, bytes);
    satc_pyramid_clear(&p);
    satc_raster_options o = {.row0 = 8, .row1 = 40};
    satc_pyramid_rasterize_list(&p, &b, all, 10, NULL);
    check(!memcmp(ref, store, bytes), "the 10 largest: the bits of drawing them one by one");
    int wrote = 0;
    for (size_t t = 0; t < (size_t)W * H; t++)
        wrote += store[t] < INFINITY;
    printf("the 10 largest cover %d of %d texels\n", wrote, W * H);
    check(wrote > W * H / 10, "the 10 largest cover over a tenth of level 0");
    satc_pyramid_clear(&p);
    satc_pyramid_rasterize(&p, &b, 0, NB, &o);
    memcpy(ref, store, bytes);
    satc_pyramid_clear(&p);
    satc_pyramid_rasterize_list(&p, &b, ids, NB, &o);
    check(!memcmp(ref, store, bytes), "a tile of rows: the bits of the range");

    /* bad arguments: a status, nothing written */
    memcpy(ref, store, bytes);
    uint32_t canary[4] = {1, 2, 3, 4};
    float fc[4] = {5, 6, 7, 8};
    size_t cn = 99;
    check(satc_occluders_pick(&p, &b, 0, NB, 0, 4, canary, fc, NULL) == SATC_ERR_NULL,
          "npicked NULL: SATC_ERR_NULL");
    check(satc_occluders_pick(&p, &b, 0, NB, 0, 4, NULL, fc, &cn) == SATC_ERR_NULL,
          "indices NULL: SATC_ERR_NULL");
    check(satc_occluders_pick(&p, &b, 0, NB, 0, 4, canary, NULL, &cn) == SATC_ERR_NULL,
          "areas NULL: SATC_ERR_NULL");
    check(satc_occluders_pick(&p, NULL, 0, NB, 0, 4, canary, fc, &cn) == SATC_ERR_NULL,
          "batch NULL: SATC_ERR_NULL");
    check(satc_occluders_pick(&p, &b, 0, NB, NAN, 4, canary, fc, &cn) == SATC_ERR_BOUNDS,
          "min_texels NaN: SATC_ERR_BOUNDS");
    check(satc_occluders_pick(&p, &b, 0, NB, -1, 4, canary, fc, &cn) == SATC_ERR_BOUNDS,
          "min_texels negative: SATC_ERR_BOUNDS");
    check(satc_occluders_pick(&p, &b, 0, NB, INFINITY, 4, canary, fc, &cn) == SATC_ERR_BOUNDS,
          "min_texels infinite: SATC_ERR_BOUNDS");
    check(satc_occluders_pick(&p, &b, SIZE_MAX, 2, 0, 4, canary, fc, &cn) == SATC_ERR_RANGE,
          "first + count overflows: SATC_ERR_RANGE");
    check(satc_occluders_pick(&p, &b, (size_t)UINT32_MAX, 2, 0, 4, canary, fc, &cn) ==
              SATC_ERR_RANGE,
          "an index past UINT32_MAX: SATC_ERR_RANGE");
    satc_batch bad = b;
    bad.form = (satc_form)42;
    check(satc_occluders_pick(&p, &bad, 0, NB, 0, 4, canary, fc, &cn) == SATC_ERR_FLAGS,
          "unknown form: SATC_ERR_FLAGS");
    bad = b;
    bad.aabb.center.x = NULL;
    check(satc_occluders_pick(&p, &bad, 0, NB, 0, 4, canary, fc, &cn) == SATC_ERR_NULL,
          "a NULL stream: SATC_ERR_NULL");
    satc_pyramid bp = p;
    bp.width = 100;
    check(satc_occluders_pick(&bp, &b, 0, NB, 0, 4, canary, fc, &cn) == SATC_ERR_PYRAMID,
          "a pyramid not set up: SATC_ERR_PYRAMID");
    check(satc_occluders_pick(NULL, &b, 0, NB, 0, 4, canary, fc, &cn) == SATC_ERR_NULL,
          "pyramid NULL: SATC_ERR_NULL");
    check(canary[0] == 1 && canary[3] == 4 && fc[0] == 5 && fc[3] == 8 && cn == 99,
          "pick errors write nothing");
    check(satc_pyramid_rasterize_list(&p, &b, NULL, 3, NULL) == SATC_ERR_NULL,
          "rasterize_list: indices NULL: SATC_ERR_NULL");
    check(satc_pyramid_rasterize_list(&bp, &b, ids, 3, NULL) == SATC_ERR_PYRAMID,
          "rasterize_list: a pyramid not set up: SATC_ERR_PYRAMID");
    bad = b;
    bad.aabb.half.y = NULL;
    check(satc_pyramid_rasterize_list(&p, &bad, ids, 3, NULL) == SATC_ERR_NULL,
          "rasterize_list: a NULL stream: SATC_ERR_NULL");
    o.row0 = 50, o.row1 = 10;
    check(satc_pyramid_rasterize_list(&p, &b, ids, 3, &o) == SATC_ERR_RANGE,
          "rasterize_list: row0 > row1: SATC_ERR_RANGE");
    check(satc_pyramid_rasterize_list(&p, &b, NULL, 0, NULL) == SATC_OK,
          "rasterize_list: nothing to draw: SATC_OK");
    check(!memcmp(ref, store, bytes), "rasterize_list errors write nothing");

    printf("%d passed, %d failed\n", g_pass, g_fail);
    free(store), free(ref);
    return g_fail ? 1 : 0;
}
