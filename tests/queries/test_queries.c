/*
 * Query volumes (satc_frustum_from_box, satc_frustum_from_segment) against
 * batches: no false negative on any path or mode, exact mode within the
 * band, every path bit-identical to scalar, bad queries refused.
 *
 * Oracles, in double, not separating axes: box queries use the clipping
 * oracle of tests/common (the query as an orthographic camera); segments
 * are clipped against the box's slabs in the box's own coordinates
 * (Liang-Barsky on the parallelepiped c + sum t_j e_j A_j, |t_j| <= 1).
 *
 *   test_queries [--trials N]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "satc.h"

#define QUERY_SEED 0x71756572ull
#define QUERY_MAX_FAILS 20
#include "query_check.h"

static void random_box(satc_obb *b, const double c[3], double spread, double emin, double emax,
                       int aligned)
{
    float q[4] = {1, 0, 0, 0}, cc[3], h[3];
    if (!aligned) {
        double v[4], len;
        do {
            len = 0;
            for (int k = 0; k < 4; k++)
                v[k] = uni(-1, 1), len += v[k] * v[k];
        } while (len > 1 || len < 1e-6);
        for (int k = 0; k < 4; k++)
            q[k] = (float)(v[k] / sqrt(len));
    }
    for (int k = 0; k < 3; k++) {
        cc[k] = (float)(c[k] + uni(-spread, spread));
        h[k] = (float)logu(emin, emax);
    }
    satc_obb_from_quat(b, cc, q, h);
}

/* The query box as the orthographic camera the clipping oracle takes. */
static void box_camera(const satc_obb *q, satc_camera *cam)
{
    memset(cam, 0, sizeof *cam);
    memcpy(cam->origin, q->center, sizeof cam->origin);
    memcpy(cam->left, q->axis[0], sizeof cam->left);
    memcpy(cam->up, q->axis[1], sizeof cam->up);
    double cr[3] = {(double)q->axis[0][1] * q->axis[1][2] - (double)q->axis[0][2] * q->axis[1][1],
                    (double)q->axis[0][2] * q->axis[1][0] - (double)q->axis[0][0] * q->axis[1][2],
                    (double)q->axis[0][0] * q->axis[1][1] - (double)q->axis[0][1] * q->axis[1][0]};
    double s = cr[0] * q->axis[2][0] + cr[1] * q->axis[2][1] + cr[2] * q->axis[2][2] < 0 ? -1 : 1;
    for (int k = 0; k < 3; k++)
        cam->dir[k] = (float)(s * q->axis[2][k]);
    cam->l0 = -q->extent[0], cam->l1 = q->extent[0];
    cam->u0 = -q->extent[1], cam->u1 = q->extent[1];
    cam->n = -q->extent[2], cam->f = q->extent[2];
    cam->orthographic = 1;
}

/* Segment p0-p1 meets box b with every extent grown by g (double). */
static int seg_hits(const float p0[3], const float p1[3], const satc_obb *b, double g)
{
    /* Columns e_j A_j; solve M t = p - c by Cramer's rule. */
    double M[3][3], d0[3], d1[3];
    for (int j = 0; j < 3; j++) {
        double e = fabs((double)b->extent[j]) + g;
        for (int k = 0; k < 3; k++)
            M[k][j] = e * b->axis[j][k];
    }
    for (int k = 0; k < 3; k++)
        d0[k] = (double)p0[k] - b->center[k], d1[k] = (double)p1[k] - b->center[k];
    double det = M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
                 M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                 M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
    double t0[3], t1[3];
    for (int j = 0; j < 3; j++) {
        double A[3][3], B[3][3];
        memcpy(A, M, sizeof A);
        memcpy(B, M, sizeof B);
        for (int k = 0; k < 3; k++)
            A[k][j] = d0[k], B[k][j] = d1[k];
        double da = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                    A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                    A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
        double db = B[0][0] * (B[1][1] * B[2][2] - B[1][2] * B[2][1]) -
                    B[0][1] * (B[1][0] * B[2][2] - B[1][2] * B[2][0]) +
                    B[0][2] * (B[1][0] * B[2][1] - B[1][1] * B[2][0]);
        t0[j] = da / det, t1[j] = db / det;
    }
    /* Clip s in [0, 1] by -1 <= t0 + s (t1 - t0) <= 1 per axis. */
    double lo = 0, hi = 1;
    for (int j = 0; j < 3; j++) {
        double v = t1[j] - t0[j];
        if (v == 0) {
            if (fabs(t0[j]) > 1)
                return 0;
            continue;
        }
        double a = (-1 - t0[j]) / v, z = (1 - t0[j]) / v;
        if (a > z) {
            double t = a;
            a = z, z = t;
        }
        lo = fmax(lo, a), hi = fmin(hi, z);
    }
    return lo <= hi;
}

/* S of the contract in the query's frame plus F (orthographic, K = 1). */
static double band_for(const satc_frustum *f, const satc_obb *b)
{
    double d[3], s = 0, F = 0;
    for (int k = 0; k < 3; k++)
        d[k] = (double)b->center[k] - f->origin[k];
    for (int r = 0; r < 3; r++) {
        s += fabs(f->frame[r][0] * d[0] + f->frame[r][1] * d[1] + f->frame[r][2] * d[2]);
        F += fabs(f->center[r]) + fabs(f->half[r]);
        for (int j = 0; j < 3; j++) {
            double h = 0;
            for (int k = 0; k < 3; k++)
                h += f->frame[r][k] * b->axis[j][k] * fabs((double)b->extent[j]);
            s += fabs(h);
        }
    }
    return SATC_EXACT_BAND * (s + F);
}

#define N 1024

typedef struct batch {
    satc_obb box[N];
    satc_box_arrays arr;
    satc_boxes view;
    float ac[N * 3], ah[N * 3]; /* the same boxes as world AABBs (aligned runs) */
} batch;

static satc_isa paths[8];
static int npaths;

/* Culls with every path and mode; checks paths against scalar; returns the
 * scalar bits of both modes in bits[mode][i]. */
static void cull_all(const satc_frustum *f, const satc_batch *b, size_t n, uint8_t bits[2][N],
                     const char *what)
{
    for (int mode = 0; mode < 2; mode++) {
        uint8_t ref[N / 8 + 1], cls_ref[N], got[N / 8 + 1], cls[N];
        satc_results r = {ref, cls_ref, NULL, 0};
        satc_status st = satc_cull_isa(SATC_ISA_SCALAR, f, b, 0, n, (satc_mode)mode, &r);
        check(st == SATC_OK, what);
        for (size_t i = 0; i < n; i++)
            bits[mode][i] = (uint8_t)(ref[i / 8] >> (i % 8) & 1);
        for (int p = 0; p < npaths; p++) {
            satc_results g = {got, cls, NULL, 0};
            st = satc_cull_isa(paths[p], f, b, 0, n, (satc_mode)mode, &g);
            char msg[160];
            snprintf(msg, sizeof msg, "%s: path %s mode %d equals scalar", what,
                     satc_isa_name(paths[p]), mode);
            check(st == SATC_OK && g.visible == r.visible && !memcmp(got, ref, (n + 7) / 8) &&
                      !memcmp(cls, cls_ref, n),
                  msg);
        }
    }
}

static long fn_total, fp_beyond, kept_exact, hit_total;

/* Moves box b along the line from c0 through its center to where it
 * just touches the query (bisection on the oracle): grazing boxes, half
 * of them barely in, half barely out once rounded to float. */
typedef struct query_ref {
    const satc_camera *cam;     /* a box query, or */
    const float *p0, *p1;       /* a segment */
} query_ref;

static int touches(const query_ref *q, const satc_obb *b)
{
    return q->cam ? orc_intersects(q->cam, b, 0.0) : seg_hits(q->p0, q->p1, b, 0.0);
}

static void graze(const query_ref *q, satc_obb *b, const double c0[3])
{
    double d[3], lo = 0, hi = 1;
    for (int k = 0; k < 3; k++)
        d[k] = b->center[k] - c0[k];
    satc_obb t = *b;
    for (int k = 0; k < 3; k++)
        t.center[k] = (float)(c0[k] + 64 * d[k]);
    if (touches(q, &t))
        return; /* too close to move out */
    hi = 64;
    for (int it = 0; it < 60; it++) {
        double m = 0.5 * (lo + hi);
        for (int k = 0; k < 3; k++)
            t.center[k] = (float)(c0[k] + m * d[k]);
        if (touches(q, &t))
            lo = m;
        else
            hi = m;
    }
    for (int k = 0; k < 3; k++)
        b->center[k] = (float)(c0[k] + (uni(0, 1) < 0.5 ? lo : hi) * d[k]);
}

/* Box queries: rotated, or axis-aligned against world AABBs. */
static void box_queries(batch *B, int trials, int aligned)
{
    for (int t = 0; t < trials; t++) {
        double c0[3] = {uni(-1e3, 1e3), uni(-1e3, 1e3), uni(-1e3, 1e3)};
        double qe = logu(1e-2, 1e2);
        satc_obb q;
        random_box(&q, c0, 0, qe * 0.05, qe, aligned);
        satc_frustum f;
        check(satc_frustum_from_box(&f, &q) == SATC_OK, "from_box accepts a valid box");
        satc_camera cam;
        box_camera(&q, &cam);
        for (size_t i = 0; i < N; i++) {
            random_box(&B->box[i], c0, 1.5 * qe, qe * 1e-3, qe, aligned);
            if (i % 2)
                graze(&(query_ref){&cam, NULL, NULL}, &B->box[i], c0);
            satc_box_arrays_set(&B->arr, i, &B->box[i]);
            for (int k = 0; k < 3; k++)
                B->ac[3 * i + k] = B->box[i].center[k], B->ah[3 * i + k] = B->box[i].extent[k];
        }
        satc_batch b = satc_batch_from_boxes(&B->view);
        if (aligned) {
            memset(&b, 0, sizeof b);
            b.form = SATC_FORM_AABB;
            b.aabb.center = (satc_vec3s)SATC_VEC3S_AOS(B->ac, 12);
            b.aabb.half = (satc_vec3s)SATC_VEC3S_AOS(B->ah, 12);
        }
        uint8_t bits[2][N];
        cull_all(&f, &b, N, bits, aligned ? "AABB query on world AABBs" : "OBB query on OBBs");
        for (size_t i = 0; i < N; i++) {
            int hit = orc_intersects(&cam, &B->box[i], 0.0);
            hit_total += hit;
            fn_total += hit && !(bits[0][i] && bits[1][i]);
            if (bits[1][i]) {
                kept_exact++;
                fp_beyond += !hit && !orc_intersects(&cam, &B->box[i], band_for(&f, &B->box[i]));
            }
            if (bits[1][i] && !bits[0][i])
                fn_total++; /* exact keeps only what conservative keeps */
        }
    }
}

static long seg_fn, seg_fp, seg_hit;

static void segment_queries(batch *B, int trials)
{
    for (int t = 0; t < trials; t++) {
        double c0[3] = {uni(-1e4, 1e4), uni(-1e4, 1e4), uni(-1e4, 1e4)};
        double len = logu(1e-2, 1e3);
        float p0[3], p1[3];
        double dir[3], dl = 0;
        for (int k = 0; k < 3; k++)
            dir[k] = uni(-1, 1), dl += dir[k] * dir[k];
        /* Every eighth segment is axis-parallel: slabs meet it edge-on. */
        if (t % 8 == 0)
            dir[0] = dir[1] = 0, dir[2] = 1, dl = 1;
        for (int k = 0; k < 3; k++) {
            p0[k] = (float)(c0[k] - 0.5 * len * dir[k] / sqrt(dl));
            p1[k] = (float)(c0[k] + 0.5 * len * dir[k] / sqrt(dl));
        }
        if (t % 16 == 5)
            memcpy(p1, p0, sizeof p1); /* a point query */
        satc_frustum f;
        check(satc_frustum_from_segment(&f, p0, p1) == SATC_OK, "from_segment accepts a segment");
        double e = 0.2 * len + 1e-3;
        for (size_t i = 0; i < N; i++) {
            random_box(&B->box[i], c0, 0.4 * len + e, e * 1e-2, e, 0);
            if (i % 2)
                graze(&(query_ref){NULL, p0, p1}, &B->box[i], c0);
            satc_box_arrays_set(&B->arr, i, &B->box[i]);
        }
        satc_batch b = satc_batch_from_boxes(&B->view);
        uint8_t bits[2][N];
        cull_all(&f, &b, N, bits, "segment query");
        for (size_t i = 0; i < N; i++) {
            int hit = seg_hits(p0, p1, &B->box[i], 0.0);
            seg_hit += hit;
            seg_fn += hit && !(bits[0][i] && bits[1][i]);
            if (bits[1][i] && !hit && !seg_hits(p0, p1, &B->box[i], band_for(&f, &B->box[i]))) {
                if (getenv("SATC_TEST_VERBOSE") && seg_fp < 3)
                    printf("  kept: segment (%g %g %g)-(%g %g %g) box c (%g %g %g) e (%g %g %g)\n",
                           p0[0], p0[1], p0[2], p1[0], p1[1], p1[2], B->box[i].center[0],
                           B->box[i].center[1], B->box[i].center[2], B->box[i].extent[0],
                           B->box[i].extent[1], B->box[i].extent[2]);
                seg_fp++;
            }
        }
    }
}

/* Bad queries: a status, and *out untouched. */
static void bad_queries(void)
{
    satc_frustum f, keep;
    memset(&keep, 0x5a, sizeof keep);
    satc_obb q;
    const double c0[3] = {0, 0, 0};
    random_box(&q, c0, 1, 1, 2, 0);
    struct {
        int field;
        float v;
        satc_status want;
    } cases[] = {
        {0, NAN, SATC_ERR_NONFINITE},     {1, INFINITY, SATC_ERR_NONFINITE},
        {2, -1.0f, SATC_ERR_BOUNDS},      {2, 3e38f, SATC_ERR_BOUNDS},
        {3, 1.01f, SATC_ERR_FRAME},       {4, 0.1f, SATC_ERR_FRAME},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        satc_obb b = q;
        switch (cases[k].field) {
        case 0: b.center[1] = cases[k].v; break;
        case 1: b.axis[2][0] = cases[k].v; break;
        case 2: b.extent[1] = cases[k].v; break;
        case 3: for (int j = 0; j < 3; j++) b.axis[0][j] *= cases[k].v; break;
        case 4: b.axis[1][0] += cases[k].v; break;
        }
        f = keep;
        satc_status st = satc_frustum_from_box(&f, &b);
        char msg[96];
        snprintf(msg, sizeof msg, "from_box bad case %zu: status %d, output untouched", k, (int)st);
        check(st == cases[k].want && !memcmp(&f, &keep, sizeof f), msg);
    }
    check(satc_frustum_from_box(NULL, &q) == SATC_ERR_NULL, "from_box NULL out");
    f = keep;
    check(satc_frustum_from_box(&f, NULL) == SATC_ERR_NULL && !memcmp(&f, &keep, sizeof f),
          "from_box NULL box");
    /* A left-handed frame is the same box. */
    satc_obb l = q;
    for (int j = 0; j < 3; j++)
        l.axis[2][j] = -l.axis[2][j];
    satc_frustum fr, fl;
    check(satc_frustum_from_box(&fr, &q) == SATC_OK && satc_frustum_from_box(&fl, &l) == SATC_OK &&
              !memcmp(&fr, &fl, sizeof fr),
          "from_box: a left-handed frame gives the same frustum");
    float a[3] = {0, 0, 0}, z[3] = {1, NAN, 0}, big[3] = {1.5e19f, 1.5e19f, 0};
    f = keep;
    check(satc_frustum_from_segment(&f, a, z) == SATC_ERR_NONFINITE && !memcmp(&f, &keep, sizeof f),
          "from_segment NaN");
    f = keep;
    check(satc_frustum_from_segment(&f, a, big) == SATC_ERR_BOUNDS && !memcmp(&f, &keep, sizeof f),
          "from_segment beyond SATC_MAX_MAGNITUDE");
    check(satc_frustum_from_segment(NULL, a, a) == SATC_ERR_NULL, "from_segment NULL");
}

int main(int argc, char **argv)
{
    int trials = 100;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--trials") && i + 1 < argc)
            trials = atoi(argv[++i]);
    }
    if (getenv("SATC_TEST_QUICK"))
        trials = 10;
    unsigned run = satc_isa_runnable();
    for (unsigned isa = SATC_ISA_SSE41; isa <= SATC_ISA_AVX512; isa <<= 1)
        if (run & isa)
            paths[npaths++] = (satc_isa)isa;
    static batch B;
    if (satc_box_arrays_alloc(&B.arr, N) != SATC_OK)
        return 2;
    B.view = satc_box_arrays_view(&B.arr);

    box_queries(&B, trials, 0);
    box_queries(&B, trials, 1);
    printf("box queries: %d x 2 x %d boxes, %ld touching, %ld kept by exact mode, %ld false "
           "negatives, %ld kept beyond the band\n",
           trials, N, hit_total, kept_exact, fn_total, fp_beyond);
    check(fn_total == 0, "box queries: no false negative");
    check(fp_beyond == 0, "box queries: exact mode keeps nothing beyond the band");
    check(hit_total > 0 && hit_total < 2L * trials * N, "box queries: both answers occur");

    segment_queries(&B, 4 * trials);
    printf("segment queries: %d x %d boxes, %ld hit, %ld false negatives, %ld kept beyond the "
           "band\n",
           4 * trials, N, seg_hit, seg_fn, seg_fp);
    check(seg_fn == 0, "segment queries: no false negative");
    check(seg_fp == 0, "segment queries: exact mode keeps nothing beyond the band");
    check(seg_hit > 0 && seg_hit < 4L * trials * N, "segment queries: both answers occur");

    bad_queries();
    satc_box_arrays_free(&B.arr);
    printf("%ld passed, %ld failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
