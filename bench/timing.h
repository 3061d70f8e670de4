/* satc benchmarks: the clock, round-robin sampling, the cache scrub
 * (timing.c). */
#ifndef SATC_BENCH_TIMING_H
#define SATC_BENCH_TIMING_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Timing (timing.c)                                                    */
/* ------------------------------------------------------------------ */

/* Median and range of the samples, in ns per box (wall time). preempted:
 * samples whose wall time still exceeded the thread's CPU time by more
 * than 10 % after the retries (another process had the core). */
typedef struct bench_stats {
    double med, min, max;
    int samples;
    int preempted;
} bench_stats;

/* One pass over the batch; ctx is the caller's. */
typedef void (*bench_fn)(void *ctx);

/* CLOCK_MONOTONIC in ns. */
double bench_now_ns(void);

/* CPU time of the calling thread in ns (CLOCK_THREAD_CPUTIME_ID): it
 * stops while another process has the core, so wall time well above it
 * means the sample was preempted. */
double bench_thread_ns(void);

#define BENCH_MAX_SAMPLES 1000

/*
 * Times several jobs, each one pass over a batch of n boxes. cached: the
 * batch fits in cache, so a sample repeats the pass until it lasts about
 * 1 ms. Otherwise every sample is one pass preceded by bench_scrub (the
 * data comes from memory). One warm-up pass each, then `reps` rounds, each
 * taking one sample of every job in turn, so that other load on the
 * machine spreads over all jobs alike. Each sample is timed by the wall
 * clock and the thread's CPU clock; a sample shorter than 20 ms that was
 * preempted (wall more than 10 % over CPU time) is taken again, up to
 * twice, and the least disturbed try kept.
 */
typedef struct bench_job {
    bench_fn fn;
    void *ctx;
    long k;                         /* passes per sample */
    double s[BENCH_MAX_SAMPLES];    /* ns per box */
    bench_stats st;                 /* out */
} bench_job;
void bench_time_jobs(bench_job *jobs, int njobs, size_t n, int cached, int reps);

/* As bench_time_jobs, interleaved and resumable: rounds [from, from +
 * reps) of the jobs (from = 0 calibrates and warms them; from > 0 goes on
 * after an earlier call on the same jobs, so some of them can be given
 * more rounds), each round starting one job later than the one before, so
 * that every job runs at every place of a round alike. The stats cover
 * rounds [0, from + reps). */
void bench_time_rounds(bench_job *jobs, int njobs, size_t n, int cached, int from, int reps);

/* The median of the per-round ratios a[r] / b[r] of two jobs timed in one
 * bench_time_jobs call (0 when there is none): each round takes its
 * samples back to back, so load that comes and goes between rounds
 * cancels, as it does not between two medians. */
double bench_paired_ratio(const double *a, const double *b, int reps);

/* Samples taken by bench_time_jobs so far, and of those the ones still
 * preempted after their retries. */
void bench_preempt_counts(long *preempted, long *all);

/* "[min-max]" of s in at most 15 characters (3 significant digits, no
 * exponent below 10^5), into buf. */
const char *bench_range(char *buf, size_t size, const bench_stats *s);

/* Median, min and max of n samples (at most BENCH_MAX_SAMPLES; s is
 * left in its order). */
bench_stats bench_stats_from(const double *s, int n);

/* Reads a buffer several times the last-level cache, so that nothing of
 * the batch stays cached. part/parts: the slice this thread reads. */
void bench_scrub(int part, int parts);
void bench_scrub_init(void);
void bench_scrub_free(void);
size_t bench_scrub_bytes(void);

/* --verbose: progress lines on stderr (set by the driver). */
extern int bench_verbose;

/* Sink that keeps reductions alive. */
extern volatile uint32_t bench_sink;

#endif
