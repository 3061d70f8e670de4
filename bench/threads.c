/*
 * Thread scaling: 1 or N threads cull disjoint ranges of one batch (split
 * at multiples of 64, so bitmask bytes and SIMD vectors stay whole), or
 * stream them for the roofline. N - 1 worker threads persist across
 * samples and meet the main thread at barriers. From memory, every sample
 * first scrubs the caches (each active thread a slice, so each core's own
 * caches are cold too) and makes one pass; in cache, a sample makes
 * `passes` passes over a batch that fits. Samples run round-robin over
 * the configurations so other load spreads over all of them alike.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"
#include "threads.h"
#include "timing.h"

typedef struct thr_shared {
    pthread_barrier_t go, start, end;
    int quit;
    int active;  /* threads working in this sample: 1 or N */
    int nthreads;
    int scrub;   /* from memory: scrub before every sample */
    int passes;  /* passes per sample */
    satc_isa isa;
    const satc_frustum *f;
    const satc_boxes *b;
    size_t n;
    int mode; /* SATC_CONSERVATIVE, SATC_EXACT, or < 0: stream */
    uint8_t *mask;
} thr_shared;

typedef struct thr_worker {
    thr_shared *sh;
    int id;
} thr_worker;

static void work(thr_shared *sh, int id)
{
    size_t split = (sh->n / (size_t)sh->active) & ~(size_t)63;
    size_t first = split * (size_t)id;
    size_t count = id == sh->active - 1 ? sh->n - first : split;
    for (int p = 0; p < sh->passes; p++) {
        if (sh->mode < 0) {
            bench_sink ^= bench_stream(sh->b, first, count);
            continue;
        }
        satc_results res;
        memset(&res, 0, sizeof res);
        res.bitmask = sh->mask + first / 8;
        satc_cull_batch_isa(sh->isa, sh->f, sh->b, first, count, (satc_mode)sh->mode, &res);
    }
}

static void *worker(void *p)
{
    thr_worker *w = p;
    thr_shared *sh = w->sh;
    for (;;) {
        pthread_barrier_wait(&sh->go);
        if (sh->quit)
            break;
        int on = w->id < sh->active;
        if (on && sh->scrub)
            bench_scrub(w->id, sh->active);
        pthread_barrier_wait(&sh->start);
        if (on)
            work(sh, w->id);
        pthread_barrier_wait(&sh->end);
    }
    return NULL;
}

/* One sample with every worker present (idle ones past `threads`). */
static double sample(thr_shared *sh, int mode, int threads)
{
    sh->mode = mode, sh->active = threads;
    pthread_barrier_wait(&sh->go);
    if (sh->scrub)
        bench_scrub(0, threads);
    pthread_barrier_wait(&sh->start);
    double t0 = bench_now_ns();
    work(sh, 0);
    pthread_barrier_wait(&sh->end);
    return (bench_now_ns() - t0) / ((double)sh->n * sh->passes);
}

int bench_threads(satc_isa isa, const satc_frustum *f, const satc_boxes *b, size_t n, int reps,
                  int nthreads, int passes, uint8_t *mask, bench_stats out[3][2])
{
    static double s[3][2][BENCH_MAX_SAMPLES];
    static const int modes[3] = {SATC_CONSERVATIVE, SATC_EXACT, -1};
    if (reps > BENCH_MAX_SAMPLES)
        reps = BENCH_MAX_SAMPLES;
    if (reps < 1)
        reps = 1;
    if (nthreads < 2 || nthreads > BENCH_MAX_THREADS)
        return -1;
    thr_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.isa = isa, sh.f = f, sh.b = b, sh.n = n, sh.mask = mask, sh.nthreads = nthreads;
    sh.scrub = passes <= 0;
    sh.passes = passes > 0 ? passes : 1;
    pthread_barrier_init(&sh.go, NULL, (unsigned)nthreads);
    pthread_barrier_init(&sh.start, NULL, (unsigned)nthreads);
    pthread_barrier_init(&sh.end, NULL, (unsigned)nthreads);
    static pthread_t tid[BENCH_MAX_THREADS];
    static thr_worker wk[BENCH_MAX_THREADS];
    for (int k = 1; k < nthreads; k++) {
        wk[k].sh = &sh, wk[k].id = k;
        if (pthread_create(&tid[k], NULL, worker, &wk[k]) != 0) {
            /* The barriers wait for all N: nothing to return to. */
            fprintf(stderr, "bench: cannot start thread %d of %d\n", k + 1, nthreads);
            exit(2);
        }
    }
    const int counts[2] = {1, nthreads};
    for (int r = -1; r < reps; r++) /* r = -1: warm-up */
        for (int t = 0; t < 2; t++)
            for (int m = 0; m < 3; m++) {
                double v = sample(&sh, modes[m], counts[t]);
                if (r >= 0)
                    s[m][t][r] = v;
            }
    /* Leave the bitmask of an N-thread exact pass for the caller. */
    sample(&sh, SATC_EXACT, counts[1]);
    sh.quit = 1;
    pthread_barrier_wait(&sh.go);
    for (int k = 1; k < nthreads; k++)
        pthread_join(tid[k], NULL);
    pthread_barrier_destroy(&sh.go);
    pthread_barrier_destroy(&sh.start);
    pthread_barrier_destroy(&sh.end);
    for (int m = 0; m < 3; m++)
        for (int t = 0; t < 2; t++)
            out[m][t] = bench_stats_from(s[m][t], reps);
    return 0;
}
