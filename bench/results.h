/* satc benchmarks: what satc_bench measures, as the report, the summary,
 * the JSON and the chart read it; names and bit counts (report.c). */
#ifndef SATC_BENCH_RESULTS_H
#define SATC_BENCH_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include "satc.h"
#include "baselines.h"
#include "timing.h"

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

typedef struct frame_row {
    int done;
    bench_stats ns;
    size_t visible;
    size_t fp;      /* kept, culled by satc exact on the same data */
    size_t fp_obb;  /* kept, culled by satc exact on the Eberly boxes (the true boxes) */
    double x_satc;  /* ways only: the way's time over satc's (frame_satc_for), the median
                       of the per-round ratios */
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
    frame_row fil_streams[BENCH_SIZES];  /* Filament's memory streams, copied without its arithmetic */
    int mismatch[FR_FORMS];              /* some path's bitmask differs from scalar's */
    char mismatch_note[FR_FORMS][64];
} bench_frame;

typedef struct bench_results {
    /* configuration */
    size_t sizes[BENCH_SIZES];
    int reps_cached, reps_memory;
    int frame_reps_memory; /* the engine frame's samples from memory */
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

/* Bit helpers shared by the report. */
size_t bench_popcount(const uint8_t *m, size_t bytes);
size_t bench_andnot_count(const uint8_t *a, const uint8_t *b, size_t bytes); /* a & ~b */

#endif
