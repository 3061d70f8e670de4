/* Timing: CLOCK_MONOTONIC beside the thread's CPU clock, median of
 * samples, cache scrubbing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

volatile uint32_t bench_sink;
int bench_verbose;

double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double bench_thread_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts a copy: the samples stay in round order, so callers can pair
 * two jobs' samples round by round. */
static bench_stats stats_of(const double *s, int n)
{
    bench_stats st = {0, 0, 0, n, 0};
    if (n <= 0)
        return st;
    if (n > BENCH_MAX_SAMPLES)
        n = st.samples = BENCH_MAX_SAMPLES;
    double q[BENCH_MAX_SAMPLES];
    memcpy(q, s, (size_t)n * sizeof *q);
    qsort(q, (size_t)n, sizeof *q, cmp_double);
    st.min = q[0];
    st.max = q[n - 1];
    st.med = n % 2 ? q[n / 2] : 0.5 * (q[n / 2 - 1] + q[n / 2]);
    return st;
}

/* ------------------------------------------------------------------ */

static uint32_t *scrub_buf;
static size_t scrub_words;

size_t bench_scrub_bytes(void) { return scrub_words * sizeof *scrub_buf; }

/* Size of the last-level cache one core sees: sysfs gives the instance
 * (glibc's sysconf may report the whole package, 256 MiB on a 32 MiB-per-
 * CCD EPYC). 0 when unknown. */
static size_t llc_bytes(void)
{
    for (int i = 0; i < 8; i++) {
        char path[96], buf[32];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        int level = 0;
        if (fscanf(f, "%d", &level) != 1)
            level = 0;
        fclose(f);
        if (level != 3)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        f = fopen(path, "r");
        if (!f)
            break;
        size_t v = 0;
        if (fgets(buf, sizeof buf, f)) {
            char *end;
            v = (size_t)strtoull(buf, &end, 10);
            if (*end == 'K')
                v <<= 10;
            else if (*end == 'M')
                v <<= 20;
        }
        fclose(f);
        if (v)
            return v;
    }
#ifdef _SC_LEVEL3_CACHE_SIZE
    long v = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (v > 0)
        return (size_t)v;
#endif
    return 0;
}

/* Three times the last-level cache (at least 64 MiB, at most 512 MiB): a
 * sweep through it evicts whatever the previous sample left, whatever the
 * replacement policy. */
void bench_scrub_init(void)
{
    size_t bytes = 3 * llc_bytes();
    if (bytes < ((size_t)64 << 20))
        bytes = (size_t)64 << 20;
    if (bytes > ((size_t)512 << 20))
        bytes = (size_t)512 << 20;
    scrub_words = bytes / sizeof *scrub_buf;
    scrub_buf = malloc(bytes);
    if (!scrub_buf) {
        scrub_words = 0;
        return;
    }
    for (size_t i = 0; i < scrub_words; i++)
        scrub_buf[i] = (uint32_t)i * 2654435761u;
}

void bench_scrub_free(void)
{
    free(scrub_buf);
    scrub_buf = NULL;
    scrub_words = 0;
}

void bench_scrub(int part, int parts)
{
    if (!scrub_buf || parts <= 0)
        return;
    size_t lo = scrub_words / (size_t)parts * (size_t)part;
    size_t hi = part == parts - 1 ? scrub_words : scrub_words / (size_t)parts * (size_t)(part + 1);
    uint32_t acc = 0;
    /* One word per 64-byte line is enough to pull every line in. */
    for (size_t i = lo; i < hi; i += 16)
        acc ^= scrub_buf[i];
    bench_sink ^= acc;
}

/* ------------------------------------------------------------------ */

#define TARGET_SAMPLE_NS 1e6

/* Warm up, and for cached batches find the repeat count that makes a
 * sample last about 1 ms. */
static long calibrate(bench_fn fn, void *ctx, int cached)
{
    fn(ctx);
    if (!cached)
        return 1;
    long k = 1;
    for (;;) {
        double t0 = bench_now_ns();
        for (long i = 0; i < k; i++)
            fn(ctx);
        double dt = bench_now_ns() - t0;
        if (dt >= TARGET_SAMPLE_NS || k >= (1L << 20)) {
            double want = TARGET_SAMPLE_NS / (dt / (double)k);
            return want > (double)k ? (long)want : k;
        }
        k *= 2;
    }
}

/* A try counts as preempted when its wall time exceeds the thread's CPU
 * time by more than 10 % and 20 us (the CPU clock's own cost). */
#define PREEMPT_RATIO 1.10
#define PREEMPT_SLACK_NS 2e4
#define SAMPLE_TRIES 3
#define RETRY_MAX_NS 2e7

static long samples_all, samples_pre;

void bench_preempt_counts(long *preempted, long *all)
{
    *preempted = samples_pre, *all = samples_all;
}

static double one_sample(bench_fn fn, void *ctx, long k, size_t n, int cached, int *preempted)
{
    double best = 0, best_excess = 0;
    for (int t = 0; t < SAMPLE_TRIES; t++) {
        if (!cached)
            bench_scrub(0, 1);
        double c0 = bench_thread_ns(), t0 = bench_now_ns();
        for (long i = 0; i < k; i++)
            fn(ctx);
        double wall = bench_now_ns() - t0, cpu = bench_thread_ns() - c0;
        double excess = wall - cpu * PREEMPT_RATIO - PREEMPT_SLACK_NS;
        if (t == 0 || excess < best_excess)
            best = wall, best_excess = excess;
        /* A pass of 20 ms or more is nearly always preempted on a busy
         * machine: trying again would cost much and rarely help. */
        if (excess <= 0 || wall > RETRY_MAX_NS)
            break;
    }
    *preempted += best_excess > 0;
    samples_all++, samples_pre += best_excess > 0;
    return best / ((double)k * (double)n);
}

void bench_time_jobs(bench_job *jobs, int njobs, size_t n, int cached, int reps)
{
    if (reps > BENCH_MAX_SAMPLES)
        reps = BENCH_MAX_SAMPLES;
    if (reps < 1)
        reps = 1;
    if (n == 0)
        n = 1;
    for (int j = 0; j < njobs; j++)
        jobs[j].k = calibrate(jobs[j].fn, jobs[j].ctx, cached);
    /* Round-robin: sample r of every job, then sample r + 1. Whatever else
     * runs on the machine meanwhile spreads over all jobs alike, which
     * keeps their ratios honest. */
    int pre[njobs > 0 ? njobs : 1];
    memset(pre, 0, sizeof pre);
    for (int r = 0; r < reps; r++)
        for (int j = 0; j < njobs; j++)
            jobs[j].s[r] = one_sample(jobs[j].fn, jobs[j].ctx, jobs[j].k, n, cached, &pre[j]);
    for (int j = 0; j < njobs; j++) {
        jobs[j].st = stats_of(jobs[j].s, reps);
        jobs[j].st.preempted = pre[j];
    }
}

void bench_time_rounds(bench_job *jobs, int njobs, size_t n, int cached, int from, int reps)
{
    if (from < 0)
        from = 0;
    if (from + reps > BENCH_MAX_SAMPLES)
        reps = BENCH_MAX_SAMPLES - from;
    if (reps < 1 || njobs < 1)
        return;
    if (n == 0)
        n = 1;
    for (int j = 0; j < njobs; j++)
        if (from == 0 || jobs[j].k <= 0)
            jobs[j].k = calibrate(jobs[j].fn, jobs[j].ctx, cached);
    /* Round r starts at job r mod njobs: a job that would always come
     * first (after a switch, say) does so in one round of njobs only. */
    int pre[njobs];
    memset(pre, 0, sizeof pre);
    for (int r = from; r < from + reps; r++)
        for (int t = 0; t < njobs; t++) {
            int j = (r + t) % njobs;
            jobs[j].s[r] = one_sample(jobs[j].fn, jobs[j].ctx, jobs[j].k, n, cached, &pre[j]);
        }
    for (int j = 0; j < njobs; j++) {
        int p = from ? jobs[j].st.preempted : 0;
        jobs[j].st = stats_of(jobs[j].s, from + reps);
        jobs[j].st.preempted = p + pre[j];
    }
}

bench_stats bench_stats_from(const double *s, int n) { return stats_of(s, n); }

double bench_paired_ratio(const double *a, const double *b, int reps)
{
    double q[BENCH_MAX_SAMPLES];
    int n = 0;
    for (int r = 0; r < reps && r < BENCH_MAX_SAMPLES; r++)
        if (b[r] > 0)
            q[n++] = a[r] / b[r];
    return n ? stats_of(q, n).med : 0;
}

/* 3 significant digits; whole numbers from 1000 on (1350, not 1.35e+03). */
static void put3(char *buf, size_t size, double v)
{
    if (v >= 1000 && v < 1e5)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.3g", v);
}

const char *bench_range(char *buf, size_t size, const bench_stats *s)
{
    char a[16], b[16];
    put3(a, sizeof a, s->min);
    put3(b, sizeof b, s->max);
    snprintf(buf, size, "[%s-%s]", a, b);
    return buf;
}
