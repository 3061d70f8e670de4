/*
 * satc benchmark: every native path x mode x scene x size,
 * against a streaming read of the same bytes (the roofline) and four
 * per-box baselines, plus 1 and 2 threads, and the engine frame
 * (forms.c). Prints a table, writes JSON and an SVG chart. Figures are
 * information only; the exit status is non-zero when the benchmark cannot
 * run or when a path's output differs from the scalar path's.
 *
 *   bench [--quick | --long] [--reps N] [--threads N] [--goals] [--verbose] [--json PATH] [--svg PATH]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "goals.h"

#define SEED 20240601u
#define SMALL 4096u
#define LARGE 1048576u

static const scn_kind scene_kinds[BENCH_SCENES] = {SCN_CITY, SCN_UNIFORM, SCN_BOUNDARY};
static const int mode_of[BENCH_MODES] = {SATC_CONSERVATIVE, SATC_EXACT, SATC_EXACT};

/* ------------------------------------------------------------------ */
/* What one timed pass does                                             */
/* ------------------------------------------------------------------ */

typedef struct cull_ctx {
    satc_isa isa;
    const satc_frustum *f;
    const satc_boxes *b;
    size_t n;
    satc_mode mode;
    satc_results res;   /* bitmask or classes set by the caller */
    satc_status status;
} cull_ctx;

static void run_cull(void *p)
{
    cull_ctx *c = p;
    c->status = satc_cull_batch_isa(c->isa, c->f, c->b, 0, c->n, c->mode, &c->res);
}

typedef struct stream_ctx {
    const satc_boxes *b;
    size_t n;
} stream_ctx;

static void run_stream(void *p)
{
    stream_ctx *c = p;
    bench_sink ^= bench_stream(c->b, 0, c->n);
}

/* The streaming read of cglm's AABBs: the 24 B per box its test reads. */
typedef struct read_ctx {
    const void *p;
    size_t bytes;
} read_ctx;

static void run_read(void *p)
{
    read_ctx *c = p;
    bench_sink ^= bench_read(c->p, c->bytes);
}

typedef struct base_ctx {
    int which;
    const bl_frustum *bf;
    const bl_cglm *cg;
    size_t (*cglm)(const bl_cglm *c, size_t n, uint8_t *mask); /* the build for the best path */
    const satc_boxes *b;
    size_t n;
    uint8_t *mask;
    size_t visible;
} base_ctx;

static void run_base(void *p)
{
    base_ctx *c = p;
    switch (c->which) {
    case BL_EBERLY: c->visible = bl_eberly_batch(c->bf, c->b, c->n, c->mask); break;
    case BL_HOFF: c->visible = bl_hoff_batch(c->bf, c->b, c->n, c->mask); break;
    case BL_AABB: c->visible = bl_aabb_batch(c->bf, c->b, c->n, c->mask); break;
    case BL_CGLM: c->visible = c->cglm(c->cg, c->n, c->mask); break;
    }
}

/* ------------------------------------------------------------------ */

static int path_index(unsigned bit)
{
    int i = 0;
    while (bit > 1) {
        bit >>= 1;
        i++;
    }
    return i;
}

static void read_cpu_name(char *out, size_t len)
{
    snprintf(out, len, "unknown CPU");
    FILE *fp = fopen("/proc/cpuinfo", "r");
    if (!fp)
        return;
    char line[512];
    while (fgets(line, sizeof line, fp)) {
        if (!strncmp(line, "model name", 10)) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ')
                    c++;
                c[strcspn(c, "\n")] = 0;
                snprintf(out, len, "%s", c);
            }
            break;
        }
    }
    fclose(fp);
}

/* 1-minute load average: other processes on these cores make the figures
 * noisy, so the report states it. -1 when unknown. */
static double load_average(void)
{
    double v = -1.0;
    FILE *fp = fopen("/proc/loadavg", "r");
    if (fp) {
        if (fscanf(fp, "%lf", &v) != 1)
            v = -1.0;
        fclose(fp);
    }
    return v;
}

/* One call of satc_isa_native() (the library runs it inside every cull
 * call through satc_kernels_for): worth knowing for small batches. */
static double time_isa_query(void)
{
    unsigned acc = 0;
    double t0 = bench_now_ns();
    for (int i = 0; i < 1000; i++)
        acc += satc_isa_native();
    double dt = bench_now_ns() - t0;
    bench_sink ^= acc;
    return dt / 1000.0;
}

static void usage(const char *argv0)
{
    printf("usage: %s [--quick | --long] [--reps N] [--threads N] [--goals] [--verbose]\n"
           "          [--json PATH] [--svg PATH]\n"
           "  --quick     few samples (smoke run)\n"
           "  --long      many samples (the bench_long Meson option passes this)\n"
           "  --reps N    N samples per figure, cached and in-memory alike\n"
           "  --threads N the thread table compares 1 and N threads (default: every online CPU)\n"
           "  --goals     also print the project's goal lines (as SATC_BENCH_GOALS=1 does)\n"
           "  --verbose   progress on stderr, scene by scene\n"
           "  --json PATH write the figures as JSON\n"
           "  --svg PATH  write the chart as SVG\n",
           argv0);
}

/* Boxes visible to satc's exact mode but not in `mask` that the
 * double-precision oracle (tests/common/oracle.c) says meet the frustum:
 * true misses, as opposed to boxes only satc's tolerance band keeps. */
static size_t true_misses(const scn_scene *sc, const uint8_t *exact, const uint8_t *mask, size_t bytes)
{
    size_t c = 0;
    for (size_t i = 0; i < bytes; i++) {
        unsigned m = exact[i] & (uint8_t)~mask[i];
        for (; m; m &= m - 1) {
            satc_obb o;
            bl_load_box(&sc->boxes, i * 8 + (size_t)__builtin_ctz(m), &o);
            c += orc_intersects(&sc->cam, &o, 0.0) != 0;
        }
    }
    return c;
}

/* ------------------------------------------------------------------ */

static void bench_scene(bench_results *R, const scn_scene *sc, int s, int z)
{
    size_t n = sc->count, bytes = (n + 7) / 8;
    int cached = z == 0;
    int reps = cached ? R->reps_cached : R->reps_memory;
    uint8_t *mask = calloc(bytes, 1), *ref_mask[2] = {calloc(bytes, 1), calloc(bytes, 1)};
    uint8_t *classes = calloc(n, 1), *ref_classes = calloc(n, 1), *bmask = calloc(bytes, 1);
    uint8_t *written = calloc(bytes, 1);
    enum { MAX_JOBS = 2 + BENCH_PATHS * BENCH_MODES + BL_COUNT };
    bench_job *jobs = calloc(MAX_JOBS, sizeof *jobs);
    if (!mask || !ref_mask[0] || !ref_mask[1] || !classes || !ref_classes || !bmask || !written || !jobs) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    double t_start = bench_now_ns();

    /* 1. Answers, untimed: every path against the scalar reference, every
     * baseline against satc's exact mode. */
    cull_ctx cull[BENCH_PATHS][BENCH_MODES];
    for (int pi = 0; pi < R->npaths; pi++) {
        int p = R->paths[pi];
        for (int m = 0; m < BENCH_MODES; m++) {
            cull_ctx *c = &cull[p][m];
            memset(c, 0, sizeof *c);
            c->isa = (satc_isa)(1u << p), c->f = &sc->frustum, c->b = &sc->boxes, c->n = n;
            c->mode = (satc_mode)mode_of[m];
            if (m == MODE_CLASS)
                c->res.classes = classes;
            else
                c->res.bitmask = mask;
            run_cull(c);
            bench_cell *cell = &R->cell[p][m][s][z];
            if (c->status != SATC_OK) {
                fprintf(stderr, "bench: %s %s: %s\n", bench_path_name(p), bench_mode_name(m),
                        satc_status_string(c->status));
                continue;
            }
            cell->done = 1;
            cell->visible = c->res.visible;
            cell->bytes = 60.0 + (m == MODE_CLASS ? 1.0 : 0.125);
            /* The scalar path comes first and defines every answer. */
            if (p == 0) {
                if (m == MODE_CLASS)
                    memcpy(ref_classes, classes, n);
                else
                    memcpy(ref_mask[m], mask, bytes);
            } else if (m == MODE_CLASS ? memcmp(ref_classes, classes, n) != 0
                                       : memcmp(ref_mask[m], mask, bytes) != 0) {
                R->mismatch[p][s][z] = 1;
            }
        }
    }
    R->cons_fp[s][z] = bench_andnot_count(ref_mask[MODE_CONS], ref_mask[MODE_EXACT], bytes);

    bl_frustum bf;
    bl_cglm *cg = NULL;
    base_ctx base[BL_COUNT];
    int have_bf = bl_frustum_init(&bf, &sc->cam) == 0;
    if (have_bf) {
        cg = bl_cglm_prepare(&sc->cam, &sc->boxes, n);
        for (int w = 0; w < BL_COUNT; w++) {
            base_ctx *c = &base[w];
            const fb_peer *peer = fb_peer_for((satc_isa)(1u << R->best));
            *c = (base_ctx){w, &bf, cg, peer ? peer->cglm : NULL, &sc->boxes, n, bmask, 0};
            if (w == BL_CGLM && (!cg || !peer))
                continue;
            run_base(c);
            bench_base *bb = &R->base[w][s][z];
            bb->done = 1;
            bb->visible = c->visible;
            bb->bytes = (w == BL_CGLM ? 24.0 : 60.0) + 0.125;
            bb->fn = bench_andnot_count(ref_mask[MODE_EXACT], bmask, bytes);
            bb->fp = bench_andnot_count(bmask, ref_mask[MODE_EXACT], bytes);
            bb->fn_true = true_misses(sc, ref_mask[MODE_EXACT], bmask, bytes);
            if (w == BL_HOFF) {
                bl_hoff_as_written(&bf, &sc->boxes, n, written);
                R->hoff_lost[s][z] = bench_andnot_count(bmask, written, bytes);
                R->hoff_fn_written[s][z] = bench_andnot_count(ref_mask[MODE_EXACT], written, bytes);
                R->hoff_fn_written_true[s][z] = true_misses(sc, ref_mask[MODE_EXACT], written, bytes);
            }
        }
    } else {
        fprintf(stderr, "bench: %s: camera not symmetric, baselines skipped\n", scn_name(scene_kinds[s]));
    }

    /* 2. Timings, all jobs of this scene and size sampled round-robin. */
    stream_ctx st = {&sc->boxes, n};
    int nj = 0;
    jobs[nj].fn = run_stream, jobs[nj].ctx = &st, nj++;
    for (int pi = 0; pi < R->npaths; pi++)
        for (int m = 0; m < BENCH_MODES; m++)
            if (R->cell[R->paths[pi]][m][s][z].done)
                jobs[nj].fn = run_cull, jobs[nj].ctx = &cull[R->paths[pi]][m], nj++;
    for (int w = 0; w < BL_COUNT; w++)
        if (R->base[w][s][z].done)
            jobs[nj].fn = run_base, jobs[nj].ctx = &base[w], nj++;
    read_ctx cr = {bl_cglm_aabb(cg), 24 * n};
    if (R->base[BL_CGLM][s][z].done)
        jobs[nj].fn = run_read, jobs[nj].ctx = &cr, nj++;
    bench_time_jobs(jobs, nj, n, cached, reps);
    int j = 0;
    R->roof[s][z] = jobs[j++].st;
    for (int pi = 0; pi < R->npaths; pi++)
        for (int m = 0; m < BENCH_MODES; m++)
            if (R->cell[R->paths[pi]][m][s][z].done)
                R->cell[R->paths[pi]][m][s][z].ns = jobs[j++].st;
    for (int w = 0; w < BL_COUNT; w++)
        if (R->base[w][s][z].done)
            R->base[w][s][z].ns = jobs[j++].st;
    if (R->base[BL_CGLM][s][z].done)
        R->cglm_roof[s][z] = jobs[j++].st;
    bl_cglm_free(cg);
    double t_timed = bench_now_ns();

    /* 3. Threads: city, best path; 1M from memory, and 4096 boxes per
     * thread in cache (the batch's first ones). */
    if (s == 0 && z == BENCH_SIZES - 1 && R->nthreads > 1) {
        satc_isa isa = (satc_isa)(1u << R->best);
        R->thr_n = n;
        if (bench_threads(isa, &sc->frustum, &sc->boxes, n, R->reps_memory, R->nthreads, 0, mask,
                          R->thr) == 0) {
            /* The threads' bitmask (N-thread exact) must equal one call's. */
            if (memcmp(mask, ref_mask[MODE_EXACT], bytes) != 0) {
                fprintf(stderr, "bench: %d-thread exact bitmask differs from 1 thread's\n", R->nthreads);
                R->thr_mismatch = 1;
            }
            R->threads_done = 1;
        }
        size_t nc = (size_t)SMALL * (size_t)R->nthreads;
        R->thr_cached_n = nc;
        if (nc <= n && bench_threads(isa, &sc->frustum, &sc->boxes, nc, R->reps_cached, R->nthreads,
                                     200, mask, R->thr_cached) == 0) {
            if (memcmp(mask, ref_mask[MODE_EXACT], nc / 8) != 0) {
                fprintf(stderr, "bench: %d-thread exact bitmask (in cache) differs\n", R->nthreads);
                R->thr_mismatch = 1;
            }
            R->thr_cached_done = 1;
        }
    }
    double t_end = bench_now_ns();
    if (bench_verbose) {
        fprintf(stderr, "bench: %-8s %7zu boxes: %d jobs x %d samples in %.1f s", scn_name(scene_kinds[s]), n,
                nj, reps, (t_timed - t_start) * 1e-9);
        if (t_end - t_timed > 1e6)
            fprintf(stderr, ", threads %.1f s", (t_end - t_timed) * 1e-9);
        fprintf(stderr, "\n");
    }
    free(mask), free(ref_mask[0]), free(ref_mask[1]), free(classes), free(ref_classes);
    free(bmask), free(written), free(jobs);
}

int main(int argc, char **argv)
{
    const char *json = NULL, *svg = NULL;
    int quick = 0, lng = 0, reps = 0, threads = 0;
    bench_goals_init(&argc, argv);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            quick = 1;
        } else if (!strcmp(argv[i], "--long")) {
            lng = 1;
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
            if (reps < 1 || reps > 1000) {
                fprintf(stderr, "bench: --reps wants 1..1000\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            threads = atoi(argv[++i]);
            if (threads < 1 || threads > BENCH_MAX_THREADS) {
                fprintf(stderr, "bench: --threads wants 1..%d\n", BENCH_MAX_THREADS);
                return 2;
            }
        } else if (!strcmp(argv[i], "--verbose")) {
            bench_verbose = 1;
        } else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
            json = argv[++i];
        } else if (!strcmp(argv[i], "--svg") && i + 1 < argc) {
            svg = argv[++i];
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(argv[0]);
            return 0;
        } else {
            fprintf(stderr, "bench: unknown argument '%s'\n", argv[i]);
            usage(argv[0]);
            return 2;
        }
    }

    quick |= bench_quick_env() && !lng;
    bench_results *R = calloc(1, sizeof *R);
    if (!R)
        return 1;
    R->sizes[0] = SMALL, R->sizes[1] = LARGE;
    if (!threads) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        threads = online < 1 ? 1 : online > BENCH_MAX_THREADS ? BENCH_MAX_THREADS : (int)online;
    }
    R->nthreads = threads;
    /* Later flags win over the long/quick presets only through --reps. */
    if (lng)
        R->reps_cached = 51, R->reps_memory = 25, R->run = "long";
    else if (quick)
        R->reps_cached = 5, R->reps_memory = 3, R->run = "quick";
    else
        R->reps_cached = 15, R->reps_memory = 7, R->run = "default";
    if (reps)
        R->reps_cached = R->reps_memory = reps, R->run = "custom";
    /* The engine frame from memory: more samples (25 jobs; preemption
     * spoils single passes most), but not in a quick run. */
    R->frame_reps_memory = quick && !reps ? R->reps_memory : 2 * R->reps_memory + 1;


    R->native = satc_isa_native();
    R->compiled = satc_isa_compiled();
    static const unsigned order[BENCH_PATHS] = {SATC_ISA_SCALAR, SATC_ISA_SSE41, SATC_ISA_AVX2,
                                                SATC_ISA_NEON, SATC_ISA_AVX512};
    for (int i = 0; i < BENCH_PATHS; i++)
        if (R->native & order[i])
            R->paths[R->npaths++] = path_index(order[i]);
    /* The same preference as the library's dispatcher. */
    R->best = 0;
    if (R->native & SATC_ISA_NEON)
        R->best = path_index(SATC_ISA_NEON);
    if (R->native & SATC_ISA_SSE41)
        R->best = path_index(SATC_ISA_SSE41);
    if (R->native & SATC_ISA_AVX2)
        R->best = path_index(SATC_ISA_AVX2);
    if (R->native & SATC_ISA_AVX512)
        R->best = path_index(SATC_ISA_AVX512);
    read_cpu_name(R->cpu, sizeof R->cpu);
    R->cpuid_ns = time_isa_query();
    R->stream_name = bench_stream_name();
    R->have_cglm = bl_cglm_available();

    fprintf(stderr, "satc_bench: timing %d paths on 3 scenes, 4096 and 1 M boxes (%s run, %s on a busy\n"
                    "            2-core machine); the headline and the summary print first when done\n",
            R->npaths, R->run, quick ? "about 1 minute" : lng ? "5-10 minutes" : "about 2 minutes");
    R->load[0] = load_average();
    bench_scrub_init();
    R->scrub_bytes = bench_scrub_bytes();
    for (int s = 0; s < BENCH_SCENES; s++) {
        for (int z = 0; z < BENCH_SIZES; z++) {
            scn_scene sc;
            double t0 = bench_now_ns();
            if (scn_make(&sc, scene_kinds[s], R->sizes[z], SEED, NULL) != 0) {
                fprintf(stderr, "bench: cannot make scene %s of %zu boxes\n", scn_name(scene_kinds[s]),
                        R->sizes[z]);
                return 1;
            }
            if (z == BENCH_SIZES - 1 && bench_verbose)
                fprintf(stderr, "bench: %-8s %7zu boxes: scene made in %.1f s\n",
                        scn_name(scene_kinds[s]), R->sizes[z], (bench_now_ns() - t0) * 1e-9);
            bench_scene(R, &sc, s, z);
            if (scene_kinds[s] == SCN_CITY) {
                bench_frame_run(R, &sc, z);
                bench_scalar_run(R, &sc, z);
            }
            scn_free(&sc);
        }
    }
    bench_scrub_free();
    R->load[1] = load_average();

    bench_headline(R);
    bench_summary(R);
    bench_report(R);
    bench_frame_report(R);
    int scalar_bad = bench_scalar_report();
    bench_report_targets(R);
    bench_frame_targets_print(R);
    bench_scalar_goals();
    bench_goals_hint();
    if (json) {
        if (bench_write_json(R, json) == 0)
            printf("\nJSON: %s\n", json);
        else
            fprintf(stderr, "bench: cannot write %s\n", json);
    }
    if (svg) {
        if (bench_write_svg(R, svg) == 0)
            printf("SVG:  %s\n", svg);
        else
            fprintf(stderr, "bench: cannot write %s\n", svg);
    }
    /* A path that disagrees with scalar is a bug, not a figure. */
    int bad = bench_any_mismatch(R) || scalar_bad;
    if (bad)
        printf("\nbench: FAILED: some path's output differs from the scalar path's (see above)\n");
    free(R);
    return bad ? 3 : 0;
}
