/*
 * Gaussian splat benchmark: a synthetic room-sized cloud (10 x 4 x 10 m,
 * sigma about 3 cm, random rotations) in 32-byte `.splat` records, 1 M
 * and 4 M splats from memory, one thread, a camera inside the room placed
 * so that about half (then 80 %) of the splats lie outside its view:
 *  - read:     a streaming read of the records' bytes (the roofline);
 *  - cull:     satc_cull on the records in place (SATC_FORM_TRS, the 3
 *              sigma box), visible indices out;
 *  - sorted:   satc_cull_depth: cull plus the visible indices back to
 *              front by a 16-bit key (depth and order of the visible only);
 *  - viewer:   what web viewers do today, written from the description of
 *              antimatter15/splat's worker: the depth of every splat
 *              (view-projection row times position, scaled by 4096 to an
 *              integer), the range, a 16-bit key per splat and one
 *              counting sort of all of them.
 * The orders are checked before timing: satc's sorted list must be the
 * visible splats, each key16 order back to front. With --goals, prints
 * PASS/MISS [trs] lines; nothing here fails on a figure.
 *
 *   satc_bench_splats [--quick] [--goals]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "goals.h"
#include "satc.h"
#include "scenes.h"
#include "stream.h"
#include "timing.h"

typedef struct cloud {
    size_t n;
    float *rec; /* n records of 8 floats (32 bytes) */
    satc_batch b;
} cloud;

static void *xalloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 64)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

static void make_cloud(cloud *c, size_t n, uint64_t seed)
{
    scn_rng r;
    scn_seed(&r, seed);
    c->n = n;
    c->rec = xalloc(n * 32);
    for (size_t i = 0; i < n; i++) {
        float *f = c->rec + 8 * i;
        f[0] = (float)scn_uniform(&r, -5, 5), f[1] = (float)scn_uniform(&r, 0, 4);
        f[2] = (float)scn_uniform(&r, -5, 5);
        for (int k = 0; k < 3; k++) /* log-normal sigma around 3 cm */
            f[3 + k] = (float)exp(-3.5 + 0.7 * (scn_uniform(&r, -1, 1) + scn_uniform(&r, -1, 1)));
        double q[4], n2 = 0;
        for (int k = 0; k < 4; k++)
            q[k] = scn_uniform(&r, -1, 1), n2 += q[k] * q[k];
        unsigned char *b = (unsigned char *)(f + 6);
        b[0] = 200, b[1] = 180, b[2] = 160, b[3] = 255; /* rgba */
        for (int k = 0; k < 4; k++) { /* w, x, y, z as the format stores them */
            double v = q[(k + 3) & 3] / sqrt(n2) * 128.0 + 128.0;
            b[4 + k] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    }
    memset(&c->b, 0, sizeof c->b);
    c->b.form = SATC_FORM_TRS;
    c->b.trs.position = SATC_VEC3S_AOS(c->rec, 32);
    c->b.trs.scale = SATC_VEC3S_AOS(c->rec + 3, 32);
    c->b.trs.rotation = (const unsigned char *)(c->rec + 7);
    c->b.trs.rotation_stride = 32;
    c->b.trs.format = SATC_QUAT_U8 | SATC_QUAT_WXYZ;
}

/* A camera at height 1.6 m on the room's axis at z, looking along +z
 * (60 degrees vertical, 16:9), and its view-projection's depth row. */
typedef struct view {
    satc_frustum f;
    float vp_z[3]; /* the clip depth row's xyz (what the viewer dots with positions) */
} view;

static void make_view(view *v, float z)
{
    const float eye[3] = {0.0f, 1.6f, z}, dir[3] = {0, 0, 1}, up[3] = {0, 1, 0};
    satc_frustum_perspective(&v->f, eye, dir, up, 1.0471976f, 16.0f / 9.0f, 0.1f, 100.0f);
    v->vp_z[0] = 0, v->vp_z[1] = 0, v->vp_z[2] = 1; /* view z along +z */
}

/* The fraction of splats outside v (conservative cull). */
static double outside(const cloud *c, const view *v)
{
    satc_results r = {NULL, NULL, NULL, 0};
    satc_cull(&v->f, &c->b, 0, c->n, SATC_CONSERVATIVE, &r);
    return 1.0 - (double)r.visible / (double)c->n;
}

/* The camera z whose view leaves `frac` of the cloud outside (bisection
 * on the first 64 k splats: moving forward leaves more behind). */
static void place(const cloud *c, view *v, double frac)
{
    cloud s = *c;
    s.n = c->n < 65536 ? c->n : 65536;
    float lo = -30.0f, hi = 6.0f;
    for (int it = 0; it < 30; it++) {
        float mid = 0.5f * (lo + hi);
        make_view(v, mid);
        if (outside(&s, v) < frac)
            lo = mid;
        else
            hi = mid;
    }
    make_view(v, 0.5f * (lo + hi));
}

/* ---- the jobs ---- */

typedef struct job_ctx {
    const cloud *c;
    const view *v;
    satc_mode mode;
    uint32_t *idx, *sorted;
    void *scratch;
    size_t scratch_bytes, visible;
    /* the viewer's arrays */
    int32_t *depth;
    uint32_t *counts, *order;
} job_ctx;

static void job_read(void *p)
{
    job_ctx *x = p;
    bench_sink ^= bench_read(x->c->rec, x->c->n * 32);
}

static void job_cull(void *p)
{
    job_ctx *x = p;
    satc_results r = {NULL, NULL, x->idx, 0};
    satc_cull(&x->v->f, &x->c->b, 0, x->c->n, x->mode, &r);
    x->visible = r.visible;
}

static void job_sorted(void *p)
{
    job_ctx *x = p;
    satc_results r = {NULL, NULL, x->idx, 0};
    satc_depth_results d = {NULL, NULL, NULL, x->sorted, SATC_SORT_16, x->scratch, x->scratch_bytes};
    satc_cull_depth(&x->v->f, &x->c->b, 0, x->c->n, x->mode, &r, &d);
    x->visible = r.visible;
}

/* antimatter15/splat's sort, from its description: integer depths of all
 * splats, their range, one 16-bit counting sort of all of them. */
static void job_viewer(void *p)
{
    job_ctx *x = p;
    const float *f = x->c->rec, *m = x->v->vp_z;
    size_t n = x->c->n;
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (size_t i = 0; i < n; i++) {
        const float *q = f + 8 * i;
        int32_t d = (int32_t)((m[0] * q[0] + m[1] * q[1] + m[2] * q[2]) * 4096.0f);
        x->depth[i] = d;
        lo = d < lo ? d : lo, hi = d > hi ? d : hi;
    }
    float inv = (256.0f * 256.0f - 1.0f) / (float)(hi - lo ? hi - lo : 1);
    memset(x->counts, 0, 65536 * sizeof *x->counts);
    for (size_t i = 0; i < n; i++) {
        uint32_t k = (uint32_t)((float)(x->depth[i] - lo) * inv);
        x->depth[i] = (int32_t)k;
        x->counts[k]++;
    }
    uint32_t at = 0;
    for (size_t k = 0; k < 65536; k++) {
        uint32_t c = x->counts[k];
        x->counts[k] = at;
        at += c;
    }
    for (size_t i = 0; i < n; i++)
        x->order[x->counts[x->depth[i]]++] = (uint32_t)i;
    x->visible = n;
}

/* satc's sorted list: the cull's visible set, back to front by depth. */
static int check_sorted(job_ctx *x)
{
    job_sorted(x);
    size_t v = x->visible;
    satc_results r = {NULL, NULL, x->idx, 0};
    satc_cull(&x->v->f, &x->c->b, 0, x->c->n, x->mode, &r);
    if (r.visible != v)
        return 0;
    unsigned char *seen = calloc(x->c->n, 1);
    int ok = seen != NULL;
    for (size_t j = 0; ok && j < v; j++)
        ok = x->sorted[j] < x->c->n && !seen[x->sorted[j]]++;
    for (size_t j = 0; ok && j < v; j++)
        ok = seen[x->idx[j]];
    /* back to front: depth along +z decreases, within one key's width */
    double span = 0;
    for (size_t j = 0; ok && j + 1 < v; j++) {
        double a = x->c->rec[8 * x->sorted[j] + 2], b = x->c->rec[8 * x->sorted[j + 1] + 2];
        span = a - b < span ? a - b : span;
    }
    free(seen);
    return ok && span > -0.01; /* a key is (range / 65535) wide: far below 1 cm here */
}

int main(int argc, char **argv)
{
    bench_goals_init(&argc, argv);
    int quick = (argc > 1 && !strcmp(argv[1], "--quick")) || bench_quick_env();
    int reps = quick ? 3 : 7;
    bench_scrub_init();
    printf("satc splat benchmark: path %s, one thread\n", satc_isa_name(satc_isa_active()));
    static const size_t sizes[2] = {1u << 20, 4u << 20};
    static const double fracs[2] = {0.5, 0.8};
    int bad = 0;
    for (int s = 0; s < (quick ? 1 : 2); s++) {
        size_t n = quick ? (size_t)1 << 18 : sizes[s];
        cloud c;
        make_cloud(&c, n, 0x73706c6174ull);
        job_ctx x;
        memset(&x, 0, sizeof x);
        x.c = &c;
        x.idx = xalloc(n * 4), x.sorted = xalloc(n * 4), x.order = xalloc(n * 4);
        x.depth = xalloc(n * 4), x.counts = xalloc(65536 * 4);
        x.scratch_bytes = satc_depth_scratch_bytes(n, SATC_SORT_16);
        x.scratch = xalloc(x.scratch_bytes);
        for (int fi = 0; fi < 2; fi++) {
            view v;
            place(&c, &v, fracs[fi]);
            x.v = &v;
            double out = outside(&c, &v);
            job_ctx xs[6];
            for (int j = 0; j < 6; j++)
                xs[j] = x;
            xs[2].mode = xs[4].mode = SATC_EXACT;
            xs[1].mode = xs[3].mode = SATC_CONSERVATIVE;
            if (!check_sorted(&xs[3]) || !check_sorted(&xs[4])) {
                printf("ERROR: satc_cull_depth's order is not the visible set back to front\n");
                bad = 1;
            }
            static bench_job jobs[6];
            const bench_fn fns[6] = {job_read, job_cull, job_cull, job_sorted, job_sorted, job_viewer};
            for (int j = 0; j < 6; j++) {
                memset(&jobs[j], 0, sizeof jobs[j]);
                jobs[j].fn = fns[j], jobs[j].ctx = &xs[j], jobs[j].k = 1;
            }
            bench_time_jobs(jobs, 6, n, 0, reps);
            const char *names[6] = {"read of the 32-byte records", "cull, conservative",
                                    "cull, exact", "cull + sorted (16-bit), conservative",
                                    "cull + sorted (16-bit), exact",
                                    "viewer: depth of all + 16-bit counting sort of all"};
            printf("\n%zu splats (%.0f MB), %.1f %% outside the view:\n", n, n * 32 / 1e6,
                   100.0 * out);
            for (int j = 0; j < 6; j++)
                printf("  %-52s %7.2f ns/splat (%.2f-%.2f)  %6.2f ms\n", names[j], jobs[j].st.med,
                       jobs[j].st.min, jobs[j].st.max, jobs[j].st.med * n / 1e6);
            double rd = jobs[0].st.med, cull = jobs[1].st.med, viewer = jobs[5].st.med;
            double sorted = jobs[3].st.med;
            printf("  cull / read %.2f; viewer / (cull + sorted) %.2f (exact %.2f)\n", cull / rd,
                   viewer / sorted, viewer / jobs[4].st.med);
            bench_goals_heading("splats");
            char what[64];
            snprintf(what, sizeof what, "%zu M splats, %.0f %% outside", n >> 20, 100.0 * out);
            if (fi == 0)
                bench_goal(cull <= 1.5 * rd, "trs", "%s: cull from the records <= 1.5 x their read: %.2f x",
                           what, cull / rd);
            double goal = fi == 0 ? 1.6 : 3.0;
            bench_goal(viewer >= goal * sorted, "trs",
                       "%s: cull + sorted indices >= %.1f x faster than the viewer's sort of all: %.2f x",
                       what, goal, viewer / sorted);
        }
        free(x.idx), free(x.sorted), free(x.order), free(x.depth), free(x.counts), free(x.scratch);
        free(c.rec);
    }
    bench_scrub_free();
    return bad ? 3 : 0;
}
