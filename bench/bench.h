/* satc benchmark: shared declarations of the harness (timing, roofline,
 * baselines, threads, report). Nothing here is a test: no figure is
 * asserted, a missed target is only printed. */
#ifndef SATC_BENCH_H
#define SATC_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "oracle.h"
#include "satc.h"
#include "scenes.h"

/* ------------------------------------------------------------------ */
/* Timing (timing.c)                                                    */
/* ------------------------------------------------------------------ */

/* Median and range of the samples, in ns per box. */
typedef struct bench_stats {
    double med, min, max;
    int samples;
} bench_stats;

/* One pass over the batch; ctx is the caller's. */
typedef void (*bench_fn)(void *ctx);

/* CLOCK_MONOTONIC in ns. */
double bench_now_ns(void);

#define BENCH_MAX_SAMPLES 1000

/*
 * Times several jobs, each one pass over a batch of n boxes. cached: the
 * batch fits in cache, so a sample repeats the pass until it lasts about
 * 1 ms. Otherwise every sample is one pass preceded by bench_scrub (the
 * data comes from memory). One warm-up pass each, then `reps` rounds, each
 * taking one sample of every job in turn, so that other load on the
 * machine spreads over all jobs alike.
 */
typedef struct bench_job {
    bench_fn fn;
    void *ctx;
    long k;                         /* passes per sample */
    double s[BENCH_MAX_SAMPLES];    /* ns per box */
    bench_stats st;                 /* out */
} bench_job;
void bench_time_jobs(bench_job *jobs, int njobs, size_t n, int cached, int reps);

/* Median, min and max of n samples (sorts them). */
bench_stats bench_stats_from(double *s, int n);

/* Reads a buffer several times the last-level cache, so that nothing of
 * the batch stays cached. part/parts: the slice this thread reads. */
void bench_scrub(int part, int parts);
void bench_scrub_init(void);
void bench_scrub_free(void);
size_t bench_scrub_bytes(void);

/* --verbose: progress lines on stderr. */
extern int bench_verbose;

/* Sink that keeps reductions alive. */
extern volatile uint32_t bench_sink;

/* ------------------------------------------------------------------ */
/* Roofline: a streaming read of the same 15 arrays (stream.c)          */
/* ------------------------------------------------------------------ */

/* ORs the bits of all 15 arrays over boxes [first, first + n). */
uint32_t bench_stream(const satc_boxes *b, size_t first, size_t n);
/* Which loop bench_stream uses ("avx2", "sse2", "c"). */
const char *bench_stream_name(void);
/* ORs `bytes` contiguous bytes (a multiple of 4): one form's roofline. */
uint32_t bench_read(const void *p, size_t bytes);
#if defined(SATC_BENCH_STREAM_AVX2)
uint32_t bench_stream_avx2(const satc_boxes *b, size_t first, size_t n);
uint32_t bench_read_avx2(const void *p, size_t bytes);
#endif

/* ------------------------------------------------------------------ */
/* Baselines (baseline_*.c): one box per call, world-space float math   */
/* ------------------------------------------------------------------ */

enum { BL_EBERLY, BL_HOFF, BL_AABB, BL_CGLM, BL_COUNT };

/* Frustum data every baseline shares, built once per scene in double and
 * rounded to float. Planes are inward: n.X + d >= 0 inside, order near,
 * left, right, bottom, top, far (Hoff's order). */
typedef struct bl_frustum {
    float E[3], L[3], U[3], D[3];
    float l, mu, n, f, ratio;     /* Eberly: symmetric half-extents on the near plane, f / n */
    float plane[6][4];            /* (nx, ny, nz, d), unit normal */
    float absn[6][3];             /* |nx|, |ny|, |nz| */
    float inner[3];               /* a point of the frustum: the near-plane center E + nD */
    float corner[8][3];           /* near 0..3, far 4..7; corner k and k+4 on one lateral edge */
} bl_frustum;

/* 0 on success, -1 when the camera is not a symmetric finite perspective one. */
int bl_frustum_init(bl_frustum *bf, const satc_camera *cam);

/* Hoff's outcome for one box: how it was decided. */
enum {
    HOFF_REJECT = 0,      /* trivial reject, or nothing found */
    HOFF_ACCEPT = 1,      /* trivial accept: a vertex inside all planes */
    HOFF_EDGE = 2,        /* a frustum edge meets the box */
    HOFF_CONTAINED = 3,   /* the frustum lies in the box */
    HOFF_COMPLETION = 4   /* only a box edge through a frustum face finds it */
};

/* Box i of the SoA batch as one satc_obb (what a per-box API takes). */
static inline void bl_load_box(const satc_boxes *b, size_t i, satc_obb *o)
{
    for (int k = 0; k < 3; k++) {
        o->center[k] = b->center[k][i];
        o->extent[k] = b->extent[k][i];
        for (int c = 0; c < 3; c++)
            o->axis[k][c] = b->axis[k][c][i];
    }
}

int bl_eberly_box(const bl_frustum *bf, const satc_obb *b);
int bl_hoff_box(const bl_frustum *bf, const satc_obb *b);
int bl_aabb_box(const bl_frustum *bf, const satc_obb *b);

/* Batch loops: cull [0, n) into a bitmask (ceil(n/8) bytes); return visible. */
/* One box per call over a batch, into a bitmask (the baselines' shared
 * loop): defines `name`, visible when `visible(bf, &box)` is true. */
#define BL_BATCH(name, visible)                                                                \
    size_t name(const bl_frustum *bf, const satc_boxes *b, size_t n, uint8_t *mask)             \
    {                                                                                          \
        size_t vis = 0;                                                                        \
        for (size_t i0 = 0; i0 < n; i0 += 8) {                                                 \
            unsigned byte = 0;                                                                 \
            for (size_t j = 0; j < 8 && i0 + j < n; j++) {                                     \
                satc_obb o;                                                                    \
                bl_load_box(b, i0 + j, &o);                                                    \
                unsigned v = (visible(bf, &o)) != 0;                                           \
                byte |= v << j;                                                                \
                vis += v;                                                                      \
            }                                                                                  \
            mask[i0 / 8] = (uint8_t)byte;                                                      \
        }                                                                                      \
        return vis;                                                                            \
    }

size_t bl_eberly_batch(const bl_frustum *bf, const satc_boxes *b, size_t n, uint8_t *mask);
size_t bl_hoff_batch(const bl_frustum *bf, const satc_boxes *b, size_t n, uint8_t *mask);
size_t bl_aabb_batch(const bl_frustum *bf, const satc_boxes *b, size_t n, uint8_t *mask);
/* Hoff as written (no completion): the same bitmask minus HOFF_COMPLETION. */
size_t bl_hoff_as_written(const bl_frustum *bf, const satc_boxes *b, size_t n, uint8_t *mask);

/* cglm (baseline_cglm.c): glm_aabb_frustum on world AABBs prepared once. */
int bl_cglm_available(void);
const char *bl_cglm_version(void);
typedef struct bl_cglm bl_cglm;
/* Builds the view-projection matrix in double from cam, extracts cglm's
 * planes and the n world AABBs (min, max) of the boxes. NULL if cglm is
 * absent or allocation fails. */
bl_cglm *bl_cglm_prepare(const satc_camera *cam, const satc_boxes *b, size_t n);
void bl_cglm_free(bl_cglm *c);
/* The prepared AABBs (24 B per box), for the stream of the same bytes. */
const void *bl_cglm_aabb(const bl_cglm *c);
/* cglm's batch built with the project's flags (no -mavx*), as on a machine
 * where satc runs its scalar path. */
size_t bl_cglm_batch_project(const bl_cglm *c, size_t n, uint8_t *mask);

const char *bl_name(int which);
const char *bl_label(int which);

/* Engine-frame baselines on 4x4 column-major matrices + one local box
 * (baseline_filament.c, baseline_bevy.c), and cglm's batch: each built
 * once per instruction set (bench/meson.build), its symbols suffixed
 * with the build's name (FB_ISA: avx2, avx512, or base where neither
 * exists). fb_filament_cull rounds n up to a multiple of 8, as Filament
 * does: the arrays and out need room for it. */
#define FB_CAT2(a, b) a##_##b
#define FB_CAT(a, b) FB_CAT2(a, b)
#ifdef FB_ISA
#define FB_NAME(f) FB_CAT(f, FB_ISA)
#endif
#define FB_DECLARE(isa)                                                                                          \
    void fb_filament_arvo_##isa(const float *restrict m, size_t n, const float lc[3], const float le[3],       \
                                float *restrict c3, float *restrict e3);                                       \
    size_t fb_filament_cull_##isa(const bl_frustum *bf, const float *restrict c3, const float *restrict e3,    \
                                  size_t n, uint8_t *restrict out);                                            \
    size_t fb_bevy_batch_##isa(const bl_frustum *bf, const float *m, size_t n, const float lc[3],              \
                               const float lh[3], uint8_t *mask);                                              \
    size_t bl_cglm_batch_##isa(const bl_cglm *c, size_t n, uint8_t *mask);
FB_DECLARE(avx2)
FB_DECLARE(avx512)
FB_DECLARE(base)

/* One build of the peers (peers.c): NULL when it was not built or this
 * CPU cannot run it. */
enum { PB_AVX2, PB_AVX512, PB_COUNT };
typedef struct fb_peer {
    const char *name;  /* "avx2", "avx512", or "base" (the project's flags, non-x86) */
    const char *flags; /* the instruction-set flags it was compiled with */
    satc_isa isa;      /* satc's path on the same instruction set */
    void (*arvo)(const float *restrict m, size_t n, const float lc[3], const float le[3], float *restrict c3,
                 float *restrict e3);
    size_t (*cull)(const bl_frustum *bf, const float *restrict c3, const float *restrict e3, size_t n,
                   uint8_t *restrict out);
    size_t (*bevy)(const bl_frustum *bf, const float *m, size_t n, const float lc[3], const float lh[3],
                   uint8_t *mask);
    size_t (*cglm)(const bl_cglm *c, size_t n, uint8_t *mask);
} fb_peer;
const fb_peer *fb_peer_get(int which);
/* The build for satc's path isa (AVX-512 or AVX2 build), else any. */
const fb_peer *fb_peer_for(satc_isa isa);

/* ------------------------------------------------------------------ */
/* Threads (threads.c)                                                  */
/* ------------------------------------------------------------------ */

/* City-style scaling figures: ns per box of the whole batch [0, n) for
 * [mode][0: one thread, 1: nthreads], mode 0 conservative, 1 exact, 2
 * streaming read (the roofline), sampled round-robin. passes <= 0: from
 * memory (caches scrubbed, one pass per sample); else in cache, `passes`
 * passes per sample. The bitmask of a final nthreads exact pass is left
 * in mask. 0 on success, -1 when the threads cannot start. */
#define BENCH_MAX_THREADS 64
int bench_threads(satc_isa isa, const satc_frustum *f, const satc_boxes *b, size_t n, int reps,
                  int nthreads, int passes, uint8_t *mask, bench_stats out[3][2]);

/* ------------------------------------------------------------------ */
/* Results and report (report.c, json.c, svg.c)                        */
/* ------------------------------------------------------------------ */

#define BENCH_PATHS 5  /* scalar, sse41, avx2, neon, avx512: index = log2 of the satc_isa bit */
#define BENCH_MODES 3  /* conservative, exact, classification */
#define BENCH_SCENES 3
#define BENCH_SIZES 2

enum { MODE_CONS, MODE_EXACT, MODE_CLASS };

typedef struct bench_cell {
    int done;
    bench_stats ns;
    double bytes;      /* read + written per box */
    size_t visible;
} bench_cell;

typedef struct bench_base {
    int done;
    bench_stats ns;
    double bytes;
    size_t visible;
    size_t fn, fp;     /* against satc's exact mode */
    size_t fn_true;    /* of fn, boxes the double-precision oracle says meet the frustum */
} bench_base;

/* The engine frame (forms.c): the city in every box form. */
enum { FR_INST, FR_AABB3, FR_AABB24, FR_MINMAX, FR_HALFAX, FR_SPHERE, FR_OBB, FR_FORMS };
/* today's way, Filament end to end, Filament's six-plane pass alone on the
 * stored float3 arrays, Bevy; each peer in its AVX2 build (or the base
 * build where there is no AVX2) and its AVX-512 build. */
enum { FB_TODAY, FB_FILAMENT, FB_FILAMENT_512, FB_FIL_CULL, FB_FIL_CULL_512, FB_BEVY, FB_BEVY_512, FB_COUNT };
/* The peer build of way w (PB_*), -1 for today's way; the way's kind (the
 * enum's first of its pair: FB_FILAMENT, FB_FIL_CULL, FB_BEVY). */
int frame_base_peer(int w);
int frame_base_kind(int w);

typedef struct frame_row {
    int done;
    bench_stats ns;
    size_t visible;
    size_t fp;      /* kept, culled by satc exact on the same data */
    size_t fp_obb;  /* kept, culled by satc exact on the Eberly boxes (the true boxes) */
    size_t fn, fn_true; /* ways only: kept by satc exact, culled; of those, meeting the
                           frustum by the double-precision oracle */
} frame_row;

typedef struct bench_frame {
    int done;
    const char *path;                    /* satc_isa_active(): what satc_cull runs */
    frame_row roof[FR_FORMS][BENCH_SIZES];
    frame_row cull[FR_FORMS][2][BENCH_SIZES]; /* [mode: 0 conservative, 1 exact] */
    frame_row base[FB_COUNT][BENCH_SIZES];
    /* satc on AVX2 when it is not the active path: [0] the matrices exact,
     * [1] the float3 AABB arrays conservative (to set against the AVX2
     * builds of the peers). */
    frame_row sat2[2][BENCH_SIZES];
    frame_row helpers[BENCH_SIZES];      /* satc_obb_from_matrix + satc_box_arrays_set alone */
    int mismatch[FR_FORMS];              /* some path's bitmask differs from scalar's */
    char mismatch_note[FR_FORMS][64];
} bench_frame;

const char *frame_form_name(int form);
double frame_form_bytes(int form);   /* bytes read per box */
const char *frame_base_name(int which);
double frame_base_bytes(int which); /* read + written per box, output included */
/* satc's row way w is compared with (same instruction set), its path's
 * name, and the streaming read of the bytes the way reads (ns per box). */
const frame_row *frame_satc_for(const bench_frame *F, int w, int z);
const char *frame_satc_isa_name(const bench_frame *F, int w);
double frame_base_stream(const bench_frame *F, int w, int z);

typedef struct bench_results {
    /* configuration */
    size_t sizes[BENCH_SIZES];
    int reps_cached, reps_memory;
    const char *run;   /* "quick", "default", "long", "custom" */
    unsigned native, compiled;
    int paths[BENCH_PATHS]; /* native paths timed, in order */
    int npaths;
    int best;          /* index of the best native path */
    char cpu[128];
    double cpuid_ns;   /* cost of one satc_isa_native() call */
    const char *stream_name;
    size_t scrub_bytes;
    double load[2];    /* 1-minute load average at start and end (-1: unknown) */

    bench_stats roof[BENCH_SCENES][BENCH_SIZES];
    bench_cell cell[BENCH_PATHS][BENCH_MODES][BENCH_SCENES][BENCH_SIZES];
    size_t cons_fp[BENCH_SCENES][BENCH_SIZES]; /* conservative-visible, exact-outside */
    int mismatch[BENCH_PATHS][BENCH_SCENES][BENCH_SIZES]; /* bitmask differs from scalar's */
    bench_base base[BL_COUNT][BENCH_SCENES][BENCH_SIZES];
    int have_cglm;
    bench_stats cglm_roof[BENCH_SCENES][BENCH_SIZES]; /* streaming read of cglm's 24 B AABBs */
    size_t hoff_lost[BENCH_SCENES][BENCH_SIZES];   /* visible, lost by Hoff as written */
    size_t hoff_fn_written[BENCH_SCENES][BENCH_SIZES]; /* as written vs satc exact */
    size_t hoff_fn_written_true[BENCH_SCENES][BENCH_SIZES]; /* of those, oracle-visible */

    /* threads: city, 1 M, best path; [mode][threads-1], mode 2 = streaming */
    int threads_done;
    bench_stats thr[3][2];        /* from memory: [mode][1 thread, nthreads] */
    bench_stats thr_cached[3][2]; /* in cache: 4096 boxes per thread */
    int thr_cached_done;
    int nthreads;                 /* --threads N (default: every online CPU) */
    size_t thr_n, thr_cached_n;
    int thr_mismatch;  /* the 2-thread bitmask differs from one call's */

    bench_frame frame;
} bench_results;

const char *bench_mode_name(int mode);
const char *bench_mode_short(int mode);
const char *bench_path_name(int path);
const char *bench_size_label(size_t n); /* "4096", "1M" */
extern const char *const bench_scene_names[BENCH_SCENES];

/* The project's goals, evaluated (printed with --goals only; goals.h). */
typedef struct bench_target {
    char what[112];   /* the target in words */
    char figure[64];  /* the measured figure */
    char note[64];    /* e.g. the path measured when AVX2 is absent */
    double value, limit;
    int avail;        /* 0: not measured */
    int pass;
    const char *tag;  /* the printed tag when not the table's own (e.g. "speed") */
    double bound;     /* > 0: the best value any code reaches here, measured in the same run
                         (value >= bound when le, <= bound otherwise) */
    int le;           /* the goal is value <= limit (else value >= limit) */
} bench_target;

/* Prints one target as a goal line (goals.h; nothing when goals are off):
 * PASS/MISS, or BOUND with the figure and the bound when `bound` shows
 * the limit out of reach; targets not measured here are left out. */
void bench_target_print(const bench_target *t, const char *tag);

#define BENCH_MAX_TARGETS 40
int bench_targets(const bench_results *r, bench_target *t);
/* The engine frame's goals, printed PASS/MISS [forms] with --goals. */
#define FRAME_MAX_TARGETS 28
int frame_targets(const bench_results *r, bench_target *t);
/* Runs the engine frame on the city scene of size index z (forms.c). */
void bench_frame_run(bench_results *R, const scn_scene *sc, int z);
void bench_frame_report(const bench_results *r);
/* The scalar path against the reference and the per-box peers (scalar.c):
 * run on the city scene of size index z; the report prints the [speed]
 * targets and returns 1 when the scalar path's output differs. */
void bench_scalar_run(const bench_results *R, const scn_scene *sc, int z);
int bench_scalar_report(void);
void bench_scalar_goals(void);
void bench_frame_targets_print(const bench_results *r);
/* Nonzero when some output differed from the scalar path's (a bug). */
int bench_any_mismatch(const bench_results *r);

/* The ten-second summary printed before the tables (summary.c). */
void bench_summary(const bench_results *r);
void bench_report(const bench_results *r);
void bench_report_targets(const bench_results *r);
int bench_write_json(const bench_results *r, const char *path);
int bench_write_svg(const bench_results *r, const char *path);

/* Bit helpers shared by the report. */
size_t bench_popcount(const uint8_t *m, size_t bytes);
size_t bench_andnot_count(const uint8_t *a, const uint8_t *b, size_t bytes); /* a & ~b */

#endif
