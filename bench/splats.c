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
 *  - sort-all: what web viewers do today (antimatter15/splat's worker):
 *              the depth of every splat, a 16-bit counting sort of all;
 *  - ball:     a careful viewer's cull then sort: center and radius
 *              3 max(sigma) against the six planes, then a 16-bit
 *              counting sort of the kept, back to front.
 * Then the same at 8 k and 64 k splats in cache (the quick run: 8 k),
 * without goals: a viewer's small scene, where fixed costs show.
 * Both viewers are plain C built with the instruction set of the satc
 * path (splat_viewers.c). Each row gives the wall time and the thread's
 * CPU time (the medians; the goals use CPU time, which other load on the
 * machine disturbs less) and the splats each way hands the renderer. The
 * orders are checked before timing: satc's sorted list must be the
 * visible splats back to front, the ball viewer's its kept ones back to
 * front. With --goals, prints PASS/MISS [trs] lines; nothing here fails
 * on a figure.
 *
 *   satc_bench_splats [--quick] [--goals]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "goals.h"
#include "satc.h"
#include "scenes.h"
#include "splat_viewers.h"
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
 * (60 degrees vertical, 16:9), and the six planes and view direction a
 * viewer derives from it. */
typedef struct view {
    satc_frustum f;
    sv_planes pl;
} view;

#define FOVY 1.0471976f
#define ASPECT (16.0f / 9.0f)
#define ZNEAR 0.1f
#define ZFAR 100.0f

static void make_view(view *v, float z)
{
    const float eye[3] = {0.0f, 1.6f, z}, dir[3] = {0, 0, 1}, up[3] = {0, 1, 0};
    satc_frustum_perspective(&v->f, eye, dir, up, FOVY, ASPECT, ZNEAR, ZFAR);
    /* view axes x (right), y (up), z (dir) are the world's here */
    float ty = tanf(0.5f * FOVY), tx = ASPECT * ty;
    float cx = 1.0f / sqrtf(1.0f + tx * tx), cy = 1.0f / sqrtf(1.0f + ty * ty);
    const float pl[6][4] = {{cx, 0, tx * cx, 0},  {-cx, 0, tx * cx, 0}, {0, cy, ty * cy, 0},
                            {0, -cy, ty * cy, 0}, {0, 0, 1, -ZNEAR},   {0, 0, -1, ZFAR}};
    for (int p = 0; p < 6; p++) { /* planes through the eye: d = -n.E */
        for (int c = 0; c < 4; c++)
            v->pl.p[p][c] = pl[p][c];
        v->pl.p[p][3] -= pl[p][0] * eye[0] + pl[p][1] * eye[1] + pl[p][2] * eye[2];
    }
    v->pl.dir[0] = 0, v->pl.dir[1] = 0, v->pl.dir[2] = 1;
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

/* The viewers' build for the active satc path (the same instruction set). */
static sv_sort_all_fn sort_all_fn;
static sv_ball_fn ball_fn;
static const char *viewer_flags;

static void pick_viewers(void)
{
    unsigned run = satc_isa_runnable();
    (void)run;
#if defined(SATC_BENCH_PEER_AVX512)
    if (satc_isa_active() == SATC_ISA_AVX512 && (run & SATC_ISA_AVX512)) {
        sort_all_fn = sv_sort_all_avx512, ball_fn = sv_ball_avx512;
        viewer_flags = "-O3 -mavx512f -mavx512vl -mavx512dq -mavx512bw";
        return;
    }
#endif
#if defined(SATC_BENCH_PEER_AVX2)
    if (run & SATC_ISA_AVX2) {
        sort_all_fn = sv_sort_all_avx2, ball_fn = sv_ball_avx2, viewer_flags = "-O3 -mavx2";
        return;
    }
#endif
#if defined(SATC_BENCH_PEER_BASE)
    sort_all_fn = sv_sort_all_base, ball_fn = sv_ball_base;
    viewer_flags = "-O3 (the project's target flags)";
#endif
}

/* ---- the jobs ---- */

typedef struct job_ctx {
    const cloud *c;
    const view *v;
    satc_mode mode;
    uint32_t *idx, *sorted;
    void *scratch;
    size_t scratch_bytes, visible;
    /* the viewers' arrays */
    int32_t *depth;
    float *kd;
    uint16_t *key;
    uint32_t *counts, *order;
} job_ctx;

static void job_read(void *p)
{
    job_ctx *x = p;
    bench_sink ^= bench_read(x->c->rec, x->c->n * 32);
    x->visible = x->c->n;
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

static void job_sort_all(void *p)
{
    job_ctx *x = p;
    x->visible = sort_all_fn(x->c->rec, x->c->n, x->v->pl.dir, x->depth, x->counts, x->order);
}

static void job_ball(void *p)
{
    job_ctx *x = p;
    x->visible = ball_fn(&x->v->pl, x->c->rec, x->c->n, x->kd, x->idx, x->key, x->counts, x->order);
}

/* Thread CPU time of each pass, besides bench_time_jobs' wall clock. */
typedef struct timed {
    bench_fn fn;
    void *ctx;
    int ns;
    double cpu[BENCH_MAX_SAMPLES + 1];
} timed;

static double cpu_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void job_timed(void *p)
{
    timed *t = p;
    double t0 = cpu_now_ns();
    t->fn(t->ctx);
    if (t->ns <= BENCH_MAX_SAMPLES)
        t->cpu[t->ns++] = cpu_now_ns() - t0;
}

/* Every index in [0, n) at most once (seen: n bytes, zeroed). */
static int distinct(const uint32_t *a, size_t v, size_t n, unsigned char *seen)
{
    int ok = 1;
    for (size_t j = 0; ok && j < v; j++)
        ok = a[j] < n && !seen[a[j]]++;
    return ok;
}

/* Back to front along +z, within one key's width (range / 65535: far
 * below 1 cm here). */
static int back_to_front(const cloud *c, const uint32_t *o, size_t v)
{
    double span = 0;
    for (size_t j = 0; j + 1 < v; j++) {
        double a = c->rec[8 * o[j] + 2], b = c->rec[8 * o[j + 1] + 2];
        span = a - b < span ? a - b : span;
    }
    return span > -0.01;
}

/* satc's sorted list: the cull's visible set, back to front by depth. */
static int check_sorted(job_ctx *x)
{
    job_sorted(x);
    size_t v = x->visible;
    satc_results r = {NULL, NULL, x->idx, 0};
    satc_cull(&x->v->f, &x->c->b, 0, x->c->n, x->mode, &r);
    unsigned char *seen = calloc(x->c->n, 1);
    int ok = seen && r.visible == v && distinct(x->sorted, v, x->c->n, seen);
    for (size_t j = 0; ok && j < v; j++)
        ok = seen[x->idx[j]];
    free(seen);
    return ok && back_to_front(x->c, x->sorted, v);
}

/* The ball viewer's order: its kept splats, distinct, back to front. */
static int check_ball(job_ctx *x)
{
    job_ball(x);
    unsigned char *seen = calloc(x->c->n, 1);
    int ok = seen && distinct(x->order, x->visible, x->c->n, seen);
    free(seen);
    return ok && back_to_front(x->c, x->order, x->visible);
}

enum { J_READ, J_CULL_C, J_CULL_E, J_SORT_C, J_SORT_E, J_ALL, J_BALL, NJOBS };

static const char *const job_names[NJOBS] = {
    "read of the 32-byte records",      "satc cull, conservative",
    "satc cull, exact",                 "satc cull + sorted (16-bit), conservative",
    "satc cull + sorted (16-bit), exact", "viewer: sort-all (depth + 16-bit sort of all)",
    "viewer: ball test, then 16-bit sort of the kept"};

static void goals(const char *what, double frac, const double *cpu)
{
    bench_goals_heading("splats");
    double rd = cpu[J_READ], sc = cpu[J_SORT_C], se = cpu[J_SORT_E];
    bench_goal(cpu[J_BALL] >= 1.3 * sc, "trs",
               "%s: cull + sorted >= 1.3 x faster than the ball-test viewer: %.2f x (exact %.2f x)",
               what, cpu[J_BALL] / sc, cpu[J_BALL] / se);
    double g = frac < 0.65 ? 1.6 : 3.0;
    bench_goal(cpu[J_ALL] >= g * sc, "trs",
               "%s: cull + sorted >= %.1f x faster than sort-all: %.2f x (exact %.2f x)", what, g,
               cpu[J_ALL] / sc, cpu[J_ALL] / se);
    bench_goal(cpu[J_CULL_C] <= 1.3 * rd, "trs",
               "%s: conservative cull <= 1.3 x the read of the records: %.2f x", what,
               cpu[J_CULL_C] / rd);
    bench_goal(cpu[J_CULL_E] <= 1.3 * rd, "trs", "%s: exact cull <= 1.3 x the read of the records: %.2f x",
               what, cpu[J_CULL_E] / rd);
}

/* One cloud of n splats, 50 % and 80 % outside: checks the orders, times
 * every job (cached: in cache, else from memory) and prints the table and,
 * from memory, the goals. Returns 1 when an order was wrong. */
static int run_cloud(size_t n, int cached, int reps)
{
    static const double fracs[2] = {0.5, 0.8};
    int bad = 0;
    cloud c;
    make_cloud(&c, n, 0x73706c6174ull);
    job_ctx x;
    memset(&x, 0, sizeof x);
    x.c = &c;
    x.idx = xalloc(n * 4), x.sorted = xalloc(n * 4), x.order = xalloc(n * 4);
    x.depth = xalloc(n * 4), x.counts = xalloc(65536 * 4);
    x.kd = xalloc(n * 4), x.key = xalloc(n * 2);
    x.scratch_bytes = satc_depth_scratch_bytes(n, SATC_SORT_16);
    x.scratch = xalloc(x.scratch_bytes);
    for (int fi = 0; fi < 2; fi++) {
        view v;
        place(&c, &v, fracs[fi]);
        x.v = &v;
        double out = outside(&c, &v);
        job_ctx xs[NJOBS];
        for (int j = 0; j < NJOBS; j++)
            xs[j] = x;
        xs[J_CULL_E].mode = xs[J_SORT_E].mode = SATC_EXACT;
        xs[J_CULL_C].mode = xs[J_SORT_C].mode = SATC_CONSERVATIVE;
        if (!check_sorted(&xs[J_SORT_C]) || !check_sorted(&xs[J_SORT_E])) {
            printf("ERROR: satc_cull_depth's order is not the visible set back to front\n");
            bad = 1;
        }
        if (!check_ball(&xs[J_BALL])) {
            printf("ERROR: the ball viewer's order is not its kept set back to front\n");
            bad = 1;
        }
        static bench_job jobs[NJOBS];
        static timed tm[NJOBS];
        const bench_fn fns[NJOBS] = {job_read,   job_cull,     job_cull, job_sorted,
                                     job_sorted, job_sort_all, job_ball};
        for (int j = 0; j < NJOBS; j++) {
            memset(&jobs[j], 0, sizeof jobs[j]);
            tm[j].fn = fns[j], tm[j].ctx = &xs[j], tm[j].ns = 0;
            jobs[j].fn = job_timed, jobs[j].ctx = &tm[j], jobs[j].k = 1;
        }
        bench_time_jobs(jobs, NJOBS, n, cached, reps);
        if (cached)
            printf("\n%zu splats (%.0f KB, in cache), %.1f %% outside the view:\n", n, n * 32 / 1e3,
                   100.0 * out);
        else
            printf("\n%zu splats (%.0f MB), %.1f %% outside the view (satc conservative):\n", n,
                   n * 32 / 1e6, 100.0 * out);
        printf("  %-47s %8s %8s %9s %9s\n", "ns per splat (medians)", "wall", "CPU", "CPU ms",
               "handed");
        double cpu[NJOBS];
        for (int j = 0; j < NJOBS; j++) {
            /* the first pass is bench_time_jobs' warm-up */
            bench_stats cs = bench_stats_from(tm[j].cpu + 1, tm[j].ns - 1);
            cpu[j] = cs.med / (double)n;
            if (j == J_READ)
                printf("  %-47s %8.2f %8.2f %9.3f\n", job_names[j], jobs[j].st.med, cpu[j],
                       cs.med / 1e6);
            else
                printf("  %-47s %8.2f %8.2f %9.3f %9zu\n", job_names[j], jobs[j].st.med, cpu[j],
                       cs.med / 1e6, xs[j].visible);
        }
        printf("  CPU time ratios: cull / read %.2f (exact %.2f); ball viewer / read %.2f;\n"
               "  ball viewer / (satc cull + sorted) %.2f (exact %.2f); sort-all / (satc cull + "
               "sorted) %.2f (exact %.2f)\n",
               cpu[J_CULL_C] / cpu[J_READ], cpu[J_CULL_E] / cpu[J_READ],
               cpu[J_BALL] / cpu[J_READ], cpu[J_BALL] / cpu[J_SORT_C],
               cpu[J_BALL] / cpu[J_SORT_E], cpu[J_ALL] / cpu[J_SORT_C],
               cpu[J_ALL] / cpu[J_SORT_E]);
        char what[64];
        if (n >= (size_t)1 << 20)
            snprintf(what, sizeof what, "%zu M splats, %.0f %% outside", n >> 20, 100.0 * out);
        else
            snprintf(what, sizeof what, "%zu k splats, %.0f %% outside", n >> 10, 100.0 * out);
        if (!cached)
            goals(what, out, cpu);
    }
    free(x.idx), free(x.sorted), free(x.order), free(x.depth), free(x.counts), free(x.scratch);
    free(x.kd), free(x.key);
    free(c.rec);
    return bad;
}

int main(int argc, char **argv)
{
    bench_goals_init(&argc, argv);
    int quick, st = bench_quick_args(argc, argv,
                                     "usage: %s [--quick] [--goals]\n"
                                     "  --quick  fewer samples (smoke run)\n"
                                     "  --goals  also print the [trs] goal lines\n",
                                     &quick);
    if (st >= 0)
        return st;
    int reps = quick ? 3 : 7;
    bench_scrub_init();
    pick_viewers();
    printf("satc splat benchmark: path %s, one thread; viewers built with %s\n",
           satc_isa_name(satc_isa_active()), viewer_flags ? viewer_flags : "(none)");
    if (!sort_all_fn) {
        printf("ERROR: no build of the viewers\n");
        return 3;
    }
    /* From memory: the sizes the goals name; then small batches in cache
     * (a viewer's chunk, a small scene), where the sort's fixed costs show. */
    static const size_t sizes[2] = {1u << 20, 4u << 20}, small[2] = {8192, 65536};
    int bad = 0;
    for (int s = 0; s < (quick ? 1 : 2); s++)
        bad |= run_cloud(quick ? (size_t)1 << 18 : sizes[s], 0, reps);
    printf("\nsmall batches, in cache (no goals):\n");
    for (int s = 0; s < (quick ? 1 : 2); s++)
        bad |= run_cloud(small[s], 1, reps);
    bench_scrub_free();
    return bad ? 3 : 0;
}
