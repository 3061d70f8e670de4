/* satc benchmarks: one and N threads on one batch (threads.c). */
#ifndef SATC_BENCH_THREADS_H
#define SATC_BENCH_THREADS_H

#include <stddef.h>
#include <stdint.h>
#include "satc.h"
#include "timing.h"

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

#endif
