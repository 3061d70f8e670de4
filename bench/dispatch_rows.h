/*
 * The rows of satc_bench_dispatch (dispatch_rows.c): every main row of
 * satc_bench, satc_bench_views and satc_bench_queries, rebuilt as a pass
 * through the default entry points. dispatch.c times them on every path;
 * this part calls nothing of it.
 */
#ifndef BENCH_DISPATCH_ROWS_H
#define BENCH_DISPATCH_ROWS_H

#include <stddef.h>

#include "timing.h"

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

/* Row builders (dispatch_rows.c): each adds its program's main rows and
 * keeps what they read until dispatch_rows_free. large: the size of
 * the from-memory rows (1 M; less with --quick). */
void dispatch_rows_bench(drows *rs, size_t large);
void dispatch_rows_views(drows *rs, size_t large);
void dispatch_rows_queries(drows *rs, size_t large);
void dispatch_rows_free(void);

#endif
