/* test_rays' hand-made cases: single volumes on every path and mode,
 * bad calls refused with nothing written, and a batch longer than a
 * block. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satc.h"

#define QUERY_CHECK_SHARED
#define QUERY_MAX_FAILS 30
#include "query_check.h"
#include "rays.h"

/* ------------------------------------------------------------------ */
/* Adversarial cases, by hand                                           */
/* ------------------------------------------------------------------ */

/* One AABB or sphere, every path and mode: hit?, class, t, nearest. */
static void one(const char *what, int ray, const float p[3], const float dr[3], float rt,
                const float c[3], const float h[3], float srad, int want_hit, float want_t)
{
    rec r[2];
    memset(r, 0, sizeof r);
    int form = srad >= 0 ? SATC_FORM_SPHERES : SATC_FORM_AABB;
    for (int i = 0; i < 2; i++) {
        memcpy(r[i].c, c, sizeof r[i].c);
        if (h)
            memcpy(r[i].h, h, sizeof r[i].h);
        if (srad >= 0)
            r[i].h[0] = srad;
    }
    r[1].c[0] = NAN; /* a non-finite neighbour: a hit, never the nearest */
    satc_batch b = batch_of(form, r);
    q_t q = {0};
    q.ray = ray;
    memcpy(q.p, p, sizeof q.p);
    if (ray) {
        memcpy(q.d, dr, sizeof q.d);
        q.tmax = rt;
    } else {
        q.r = rt;
    }
    outs o[2];
    run_all(&q, &b, 2, o, what);
    char msg[200];
    snprintf(msg, sizeof msg, "%s: exact %s", what, want_hit ? "hits" : "misses");
    check(bit(&o[1], 0) == want_hit && bit(&o[0], 0) >= want_hit && bit(&o[1], 1) &&
              o[1].cls[1] == SATC_INTERSECTING,
          msg);
    if (ray && want_hit) {
        /* No later than the true entry; early only within the band
         * (a tangent ray by about sqrt(2 r band)). */
        snprintf(msg, sizeof msg, "%s: t %.9g (want %g), nearest 0", what, o[1].t[0], want_t);
        check(o[1].t[0] <= want_t && o[1].t[0] >= want_t - 1e-4f * (1 + want_t) &&
                  isnan(o[1].t[1]) && o[1].nearest == 0,
              msg);
    }
    if (ray && !want_hit) {
        snprintf(msg, sizeof msg, "%s: no nearest", what);
        check(o[1].nearest == SIZE_MAX && o[1].visible == 1, msg);
    }
}

void adversarial(void)
{
    const float z[3] = {0, 0, 0}, one3[3] = {1, 1, 1}, flat[3] = {1, 0, 1}, pt[3] = {0, 0, 0};
    float below2 = nextafterf(2.0f, 0.0f);
    /* Spheres against a box: touching a face, an edge, a corner. */
    one("sphere touches a face", 0, (float[3]){3, 0, 0}, NULL, 2.0f, z, one3, -1, 1, 0);
    one("sphere misses a face by an ulp", 0, (float[3]){3, 0, 0}, NULL, below2, z, one3, -1, 0, 0);
    one("sphere touches an edge", 0, (float[3]){5, 6, 0.5f}, NULL, 5.0f, (float[3]){1, 1, 0}, one3, -1, 1, 0);
    one("sphere misses an edge by an ulp", 0, (float[3]){5, 6, 0.5f}, NULL, nextafterf(5.0f, 0), (float[3]){1, 1, 0}, one3, -1, 0, 0);
    one("sphere touches a corner", 0, (float[3]){3, 3, 2}, NULL, 3.0f, z, one3, -1, 1, 0);
    one("sphere misses a corner by an ulp", 0, (float[3]){3, 3, 2}, NULL, nextafterf(3.0f, 0), z, one3, -1, 0, 0);
    one("point on a face (radius 0)", 0, (float[3]){1, 0.5f, -0.25f}, NULL, 0.0f, z, one3, -1, 1, 0);
    one("point just off a face", 0, (float[3]){nextafterf(1, 2), 0, 0}, NULL, 0.0f, z, one3, -1, 0, 0);
    one("sphere touches a flat box", 0, (float[3]){0, 2, 0}, NULL, 2.0f, z, flat, -1, 1, 0);
    one("sphere touches a point box", 0, (float[3]){0, 3, 4}, NULL, 5.0f, z, pt, -1, 1, 0);
    one("sphere misses a point box", 0, (float[3]){0, 3, 4}, NULL, nextafterf(5.0f, 0), z, pt, -1, 0, 0);
    one("spheres touching", 0, (float[3]){3, 0, 0}, NULL, 2.0f, z, NULL, 1.0f, 1, 0);
    one("spheres an ulp apart", 0, (float[3]){3, 0, 0}, NULL, below2, z, NULL, 1.0f, 0, 0);
    /* Rays. */
    const float px[3] = {1, 0, 0}, mx[3] = {-1, 0, 0}, pz[3] = {0, 0, 1}, zero[3] = {0, 0, 0};
    one("ray through a box", 1, (float[3]){-5, 0.5f, 0}, px, 100, z, one3, -1, 1, 4);
    one("ray along a face", 1, (float[3]){-5, 1, 0}, px, 100, z, one3, -1, 1, 4);
    one("ray along a face, an ulp off", 1, (float[3]){-5, nextafterf(1, 2), 0}, px, 100, z, one3, -1, 0, 0);
    one("ray along an edge", 1, (float[3]){-5, 1, -1}, px, INFINITY, z, one3, -1, 1, 4);
    one("ray grazing a corner", 1, (float[3]){-1, -1, -3}, pz, INFINITY, z, one3, -1, 1, 2);
    one("ray starting inside", 1, (float[3]){0.25f, 0.5f, 0}, px, 100, z, one3, -1, 1, 0);
    one("ray starting on a face, leaving", 1, (float[3]){1, 0, 0}, px, 100, z, one3, -1, 1, 0);
    one("ray pointing away", 1, (float[3]){2, 0, 0}, px, INFINITY, z, one3, -1, 0, 0);
    one("segment ending on the face", 1, (float[3]){-5, 0, 0}, px, 4, z, one3, -1, 1, 4);
    one("segment ending an ulp short", 1, (float[3]){-5, 0, 0}, px, nextafterf(4, 0), z, one3, -1, 0, 0);
    one("zero-length segment on a face", 1, (float[3]){-1, 0.5f, 0.5f}, px, 0, z, one3, -1, 1, 0);
    one("zero direction inside", 1, (float[3]){0.5f, 0, 0}, zero, INFINITY, z, one3, -1, 1, 0);
    one("zero direction outside", 1, (float[3]){1.5f, 0, 0}, zero, INFINITY, z, one3, -1, 0, 0);
    one("ray through a flat box", 1, (float[3]){0, -7, 0.5f}, (float[3]){0, 2, 0}, 10, z, flat, -1, 1, 3.5f);
    one("ray along a flat box", 1, (float[3]){-9, 0, 0}, px, 10, z, flat, -1, 1, 8);
    one("ray through a point box", 1, (float[3]){0, 0, -3}, pz, 10, z, pt, -1, 1, 3);
    one("ray past a point box", 1, (float[3]){0, 1e-6f, -3}, pz, 10, z, pt, -1, 0, 0);
    one("half-line to a far box", 1, (float[3]){0, 0, 0}, mx, INFINITY, (float[3]){-1e6f, 0, 0}, one3, -1, 1, 999999);
    one("ray into a sphere", 1, (float[3]){-5, 0, 0}, (float[3]){2, 0, 0}, INFINITY, z, NULL, 1.0f, 1, 2);
    one("ray tangent to a sphere", 1, (float[3]){-5, 1, 0}, px, INFINITY, z, NULL, 1.0f, 1, 5);
    one("ray an ulp past a sphere", 1, (float[3]){-5, nextafterf(1, 2), 0}, px, INFINITY, z, NULL, 1.0f, 0, 0);
    one("ray from inside a sphere", 1, (float[3]){0.5f, 0, 0}, mx, 1, z, NULL, 1.0f, 1, 0);

    /* Instances picking their local box by mesh id: an id past the table
     * is a non-finite volume (a hit, t NaN, never the nearest). */
    {
        const float mats[3][16] = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -10, 1},
                                   {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -5, 1},
                                   {0, 0, -2, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, -20, 1}};
        const uint32_t ids[3] = {0, 7, 1};
        const float lcen[2][3] = {{0, 0, 0}, {0, 0, 0.5f}}, lhal[2][3] = {{1, 1, 1}, {0.5f, 0.5f, 0.5f}};
        satc_batch ib;
        memset(&ib, 0, sizeof ib);
        ib.form = SATC_FORM_INSTANCES;
        ib.instances.matrix = mats[0];
        ib.instances.stride = sizeof mats[0];
        ib.instances.local_center = (satc_vec3s)SATC_VEC3S_AOS(&lcen[0][0], 12);
        ib.instances.local_half = (satc_vec3s)SATC_VEC3S_AOS(&lhal[0][0], 12);
        ib.instances.mesh = ids;
        ib.instances.mesh_stride = 4;
        ib.instances.mesh_count = 2;
        q_t qi = {0};
        qi.ray = 1, qi.d[2] = -1, qi.tmax = INFINITY;
        outs oi[2];
        run_all(&qi, &ib, 3, oi, "instances by mesh id");
        /* Instance 2: x' = 2 z, z' = -2 x - 20, local box z in [0, 1]:
         * x' in [0, 2], z' in [-21, -19]: the ray along -z from the origin
         * touches its face x' = 0, entering at z' = -19. */
        check(oi[1].visible == 3 && oi[1].t[0] == 9 && isnan(oi[1].t[1]) && oi[1].t[2] == 19 &&
                  oi[1].nearest == 0,
              "instances by mesh id: hits 0 (t 9), 1 (id past the table, t NaN), 2 (t 19)");
    }

    /* Nearest among several: ties go to the smaller index. */
    rec r[4];
    memset(r, 0, sizeof r);
    float cs[4][3] = {{10, 0, 0}, {5, 0, 0}, {5, 0, 0}, {3, 5, 0}};
    for (int i = 0; i < 4; i++)
        memcpy(r[i].c, cs[i], sizeof r[i].c), memcpy(r[i].h, one3, sizeof one3);
    satc_batch b = batch_of(SATC_FORM_AABB, r);
    q_t q = {0};
    q.ray = 1;
    q.d[0] = 1, q.tmax = INFINITY;
    outs o[2];
    run_all(&q, &b, 4, o, "nearest of several");
    check(o[1].visible == 3 && o[1].nearest == 1 && o[1].t[0] == 9 && o[1].t[1] == 4 && o[1].t[2] == 4,
          "nearest of several: index 1 (tie with 2 at t 4)");
}

/* ------------------------------------------------------------------ */
/* Bad calls: a status and nothing written                              */
/* ------------------------------------------------------------------ */

void bad_calls(void)
{
    rec r[4];
    memset(r, 0, sizeof r);
    satc_batch b = batch_of(SATC_FORM_AABB, r), bad_form = b;
    bad_form.form = (satc_form)99;
    satc_batch null_stream = b;
    null_stream.aabb.half.y = NULL;
    const float p[3] = {0, 0, 0}, d[3] = {1, 0, 0}, nanp[3] = {0, NAN, 0}, infp[3] = {INFINITY, 0, 0};
    const float huge[3] = {1e12f, 1e12f, 0};
    struct {
        const char *what;
        int ray;
        const float *p, *d;
        float x; /* radius or tmax */
        const satc_batch *b;
        size_t first, count;
        int mode, want_idx;
        satc_isa isa;
        satc_status want;
    } cases[] = {
        {"sphere NULL center", 0, NULL, NULL, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NULL},
        {"sphere NULL batch", 0, p, NULL, 1, NULL, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NULL},
        {"sphere NaN center", 0, nanp, NULL, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NONFINITE},
        {"sphere NaN radius", 0, p, NULL, NAN, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NONFINITE},
        {"sphere infinite radius", 0, p, NULL, INFINITY, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NONFINITE},
        {"sphere negative radius", 0, p, NULL, -1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_BOUNDS},
        {"sphere huge radius", 0, p, NULL, 3e38f, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_BOUNDS},
        {"sphere center beyond 2^40", 0, huge, NULL, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_BOUNDS},
        {"sphere bad mode", 0, p, NULL, 1, &b, 0, 4, 7, 1, SATC_ISA_SCALAR, SATC_ERR_FLAGS},
        {"sphere bad form", 0, p, NULL, 1, &bad_form, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_FLAGS},
        {"sphere NULL stream", 0, p, NULL, 1, &null_stream, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NULL},
        {"sphere range overflow", 0, p, NULL, 1, &b, SIZE_MAX, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_RANGE},
        {"sphere indices past 2^32", 0, p, NULL, 1, &b, (size_t)UINT32_MAX, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_RANGE},
        {"sphere no path", 0, p, NULL, 1, &b, 0, 4, 1, 1, (satc_isa)0, SATC_ERR_FLAGS},
        {"sphere two paths", 0, p, NULL, 1, &b, 0, 4, 1, 1, (satc_isa)3, SATC_ERR_FLAGS},
        {"ray NULL origin", 1, NULL, d, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NULL},
        {"ray NULL dir", 1, p, NULL, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NULL},
        {"ray NaN origin", 1, nanp, d, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NONFINITE},
        {"ray infinite dir", 1, p, infp, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NONFINITE},
        {"ray NaN tmax", 1, p, d, NAN, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NONFINITE},
        {"ray negative tmax", 1, p, d, -1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_BOUNDS},
        {"ray -Inf tmax", 1, p, d, -INFINITY, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_BOUNDS},
        {"ray origin beyond 2^40", 1, huge, d, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_BOUNDS},
        {"ray bad mode", 1, p, d, 1, &b, 0, 4, -1, 1, SATC_ISA_SCALAR, SATC_ERR_FLAGS},
        {"ray bad form", 1, p, d, 1, &bad_form, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_FLAGS},
        {"ray NULL stream", 1, p, d, 1, &null_stream, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NULL},
        {"ray range overflow", 1, p, d, 1, &b, SIZE_MAX - 1, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_RANGE},
        {"ray indices past 2^32", 1, p, d, 1, &b, (size_t)UINT32_MAX, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_RANGE},
        {"ray unknown path bit", 1, p, d, 1, &b, 0, 4, 1, 1, (satc_isa)64, SATC_ERR_FLAGS},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint8_t mask[8], cls[8], keep[8];
        uint32_t idx[8];
        float t[8];
        size_t nearest = 12345;
        memset(mask, 0x5a, sizeof mask), memset(cls, 0x5a, sizeof cls), memset(keep, 0x5a, sizeof keep);
        memset(idx, 0x5a, sizeof idx), memset(t, 0x5a, sizeof t);
        satc_results res = {mask, cls, cases[k].want_idx ? idx : NULL, 777};
        satc_status st =
            cases[k].ray ? satc_query_ray_isa(cases[k].isa, cases[k].p, cases[k].d, cases[k].x, cases[k].b,
                                              cases[k].first, cases[k].count, (satc_mode)cases[k].mode,
                                              &res, t, &nearest)
                         : satc_query_sphere_isa(cases[k].isa, cases[k].p, cases[k].x, cases[k].b,
                                                 cases[k].first, cases[k].count,
                                                 (satc_mode)cases[k].mode, &res);
        uint32_t kidx[8];
        float kt[8];
        memset(kidx, 0x5a, sizeof kidx), memset(kt, 0x5a, sizeof kt);
        char msg[160];
        snprintf(msg, sizeof msg, "bad call: %s gives %d (want %d), nothing written", cases[k].what,
                 (int)st, (int)cases[k].want);
        check(st == cases[k].want && !memcmp(mask, keep, 8) && !memcmp(cls, keep, 8) &&
                  !memcmp(idx, kidx, sizeof idx) && !memcmp(t, kt, sizeof t) && nearest == 12345 &&
                  res.visible == 777,
              msg);
    }
    /* NULL results; and the active-path entry points agree with scalar. */
    check(satc_query_sphere(p, 1, &b, 0, 4, SATC_EXACT, NULL) == SATC_ERR_NULL, "sphere NULL out");
    check(satc_query_ray(p, d, 1, &b, 0, 4, SATC_EXACT, NULL, NULL, NULL) == SATC_ERR_NULL, "ray NULL out");
    size_t nearest = 5;
    satc_results res = {0};
    check(satc_query_ray(p, d, 1, &b, 0, 0, SATC_EXACT, &res, NULL, &nearest) == SATC_OK &&
              res.visible == 0 && nearest == SIZE_MAX,
          "ray count 0: nothing visible, no nearest");
    /* Ranges: a sub-range gives the same hits as the whole. */
    rec big[100];
    memset(big, 0, sizeof big);
    for (int i = 0; i < 100; i++)
        big[i].c[0] = (float)i, big[i].h[0] = big[i].h[1] = big[i].h[2] = 0.25f;
    satc_batch bb = batch_of(SATC_FORM_AABB, big);
    uint32_t idx[100];
    float t[100];
    satc_results all = {NULL, NULL, idx, 0};
    const float o[3] = {-10, 0, 0};
    check(satc_query_ray(o, d, INFINITY, &bb, 30, 50, SATC_EXACT, &all, t, &nearest) == SATC_OK &&
              all.visible == 50 && idx[0] == 30 && idx[49] == 79 && nearest == 30 && t[0] == 39.75f,
          "ray over a sub-range: absolute indices, nearest and t");
    satc_results sp = {NULL, NULL, idx, 0};
    const float c[3] = {50, 0, 0};
    check(satc_query_sphere(c, 2.75f, &bb, 0, 100, SATC_EXACT, &sp) == SATC_OK && sp.visible == 7 &&
              idx[0] == 47 && idx[6] == 53,
          "sphere over the batch: the 7 boxes within 2.75 (47 and 53 touching)");
}

/* A batch longer than the candidate blocks (16384 volumes), from an odd
 * first: the same answer as two calls on its halves, counts as computed
 * by hand, every path. */
void long_batch(void)
{
    enum { M = 40003 };
    static float rec6[M][6];
    static uint8_t m1[M / 8 + 2], m2[M / 8 + 2];
    static uint32_t i1[M], i2[M];
    static float t1[M], t2[M];
    for (int i = 0; i < M; i++) {
        rec6[i][0] = 0.5f * (float)i, rec6[i][1] = rec6[i][2] = 0;
        rec6[i][3] = 0.125f, rec6[i][4] = rec6[i][5] = 0.25f;
    }
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_AABB;
    b.aabb.center = (satc_vec3s)SATC_VEC3S_AOS(&rec6[0][0], sizeof rec6[0]);
    b.aabb.half = (satc_vec3s)SATC_VEC3S_AOS(&rec6[0][3], sizeof rec6[0]);
    const float o[3] = {-1, 0.25f, 0}, d[3] = {1, 0, 0}, c[3] = {10000, 0, 0};
    size_t first = 3, count = M - 3, half = 20000;
    for (int p = -1; p < npaths; p++) {
        satc_isa isa = p < 0 ? SATC_ISA_SCALAR : paths[p];
        size_t n1 = 0, n2 = 0;
        satc_results a = {m1, NULL, i1, 0}, x = {m2, NULL, i2, 0}, y = {m2 + half / 8, NULL, i2, 0};
        int ok = satc_query_ray_isa(isa, o, d, INFINITY, &b, first, count, SATC_EXACT, &a, t1, &n1) == SATC_OK;
        ok &= satc_query_ray_isa(isa, o, d, INFINITY, &b, first, half, SATC_EXACT, &x, t2, &n2) == SATC_OK;
        size_t v1 = x.visible;
        ok &= satc_query_ray_isa(isa, o, d, INFINITY, &b, first + half, count - half, SATC_EXACT, &y,
                                 t2 + v1, NULL) == SATC_OK;
        /* The ray grazes every box's top face: all hit, box i entered at
         * x = 0.5 i - 0.125, t = 0.5 i + 0.875. */
        ok &= a.visible == count && v1 + y.visible == count && n1 == first && n2 == first &&
              !memcmp(m1, m2, (count + 7) / 8) && !memcmp(t1 + v1, t2 + v1, y.visible * sizeof *t1) &&
              !memcmp(t1, t2, v1 * sizeof *t1) && t1[count - 1] == 0.5f * (float)(M - 1) + 0.875f &&
              i1[count - 1] == M - 1 && i1[0] == first;
        char msg[120];
        snprintf(msg, sizeof msg, "long batch: ray over %zu boxes on %s", count, satc_isa_name(isa));
        check(ok, msg);
        /* Sphere of radius 100 at x = 10000: |0.5 i - 10000| <= 100.125,
         * i in [19800, 20200] (both ends touching). */
        satc_results s = {m1, NULL, i1, 0};
        ok = satc_query_sphere_isa(isa, c, 100, &b, first, count, SATC_EXACT, &s) == SATC_OK &&
             s.visible == 401 && i1[0] == 19800 && i1[400] == 20200;
        snprintf(msg, sizeof msg, "long batch: sphere over %zu boxes on %s", count, satc_isa_name(isa));
        check(ok, msg);
    }
}
