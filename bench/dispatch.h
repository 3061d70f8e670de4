/*
 * The dispatch section (satc_bench_dispatch): every main row of
 * satc_bench, satc_bench_views and satc_bench_queries timed on every
 * native path and on the default one (what a call without a path picks:
 * satc_isa_active(), with its per-operation choices on some CPU families),
 * and the default path's time over the fastest path's.
 */
#ifndef BENCH_DISPATCH_H
#define BENCH_DISPATCH_H

#include "bench.h"

/* One row: fn(ctx) is one pass of n volumes through the default entry
 * points (satc_cull, satc_cull_views, satc_query_*, satc_group_bounds);
 * the section picks the path before each sample. */
typedef struct drow {
    char name[72];
    bench_fn fn;
    void *ctx;
    size_t n;
    int cached; /* in cache (1) or from memory (0, scrubbed first) */
} drow;

#define DROW_MAX 160

typedef struct drows {
    drow r[DROW_MAX];
    int n;
} drows;

/* Appends a row (printf-style name); the context must outlive the run. */
void drow_add(drows *rs, bench_fn fn, void *ctx, size_t n, int cached, const char *fmt, ...);

/* Times rows [from, rs->n) (those whose name contains match; all when
 * match is NULL) on the default path and every native path
 * (round-robin, reps samples each) and prints them; the goal lines,
 * `PASS [dispatch]` / `MISS [dispatch]`, when the goals switch is on.
 * Returns the number of rows whose default path is more than 5 % over
 * the fastest. */
int dispatch_time(const drows *rs, int from, int reps, const char *match);

/* Row builders (dispatch_rows.c): each adds its program's main rows and
 * keeps what they read until dispatch_rows_free. large: the size of
 * the from-memory rows (1 M; less with --quick). */
void dispatch_rows_bench(drows *rs, size_t large);
void dispatch_rows_views(drows *rs, size_t large);
void dispatch_rows_queries(drows *rs, size_t large);
void dispatch_rows_free(void);

#endif
