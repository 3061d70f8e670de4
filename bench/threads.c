/*
 * Thread scaling: 1 or 2 threads cull disjoint ranges of one batch (the
 * split falls on a multiple of 8, so their bitmask bytes are disjoint, as
 * satc.h requires), or stream them for the roofline. One worker thread
 * persists across samples and meets the main thread at barriers; every
 * sample first scrubs the caches (each active thread a slice, so each
 * core's own caches are cold too), then times from the start barrier to
 * the end barrier. The six configurations are sampled round-robin so that
 * other load on the machine spreads over all of them alike.
 */
#include <pthread.h>
#include <string.h>

#include "bench.h"

typedef struct thr_shared {
    pthread_barrier_t go, start, end;
    int quit;
    int active; /* threads working in this sample: 1 or 2 */
    satc_isa isa;
    const satc_frustum *f;
    const satc_boxes *b;
    size_t n;
    int mode; /* SATC_CONSERVATIVE, SATC_EXACT, or < 0: stream */
    uint8_t *mask;
} thr_shared;

static void work(thr_shared *sh, int id)
{
    size_t split = (sh->n / (size_t)sh->active) & ~(size_t)7;
    size_t first = split * (size_t)id;
    size_t count = id == sh->active - 1 ? sh->n - first : split;
    if (sh->mode < 0) {
        bench_sink ^= bench_stream(sh->b, first, count);
        return;
    }
    satc_results res;
    memset(&res, 0, sizeof res);
    res.bitmask = sh->mask + first / 8;
    satc_cull_batch_isa(sh->isa, sh->f, sh->b, first, count, (satc_mode)sh->mode, &res);
}

static void *worker(void *p)
{
    thr_shared *sh = p;
    for (;;) {
        pthread_barrier_wait(&sh->go);
        if (sh->quit)
            break;
        int on = sh->active > 1;
        if (on)
            bench_scrub(1, sh->active);
        pthread_barrier_wait(&sh->start);
        if (on)
            work(sh, 1);
        pthread_barrier_wait(&sh->end);
    }
    return NULL;
}

/* One sample with the worker present (it idles when active is 1). */
static double sample(thr_shared *sh, int mode, int threads)
{
    sh->mode = mode, sh->active = threads;
    pthread_barrier_wait(&sh->go);
    bench_scrub(0, threads);
    pthread_barrier_wait(&sh->start);
    double t0 = bench_now_ns();
    work(sh, 0);
    pthread_barrier_wait(&sh->end);
    return (bench_now_ns() - t0) / (double)sh->n;
}

int bench_threads(satc_isa isa, const satc_frustum *f, const satc_boxes *b, size_t n, int reps,
                  uint8_t *mask, bench_stats out[3][2])
{
    static double s[3][2][BENCH_MAX_SAMPLES];
    static const int modes[3] = {SATC_CONSERVATIVE, SATC_EXACT, -1};
    if (reps > BENCH_MAX_SAMPLES)
        reps = BENCH_MAX_SAMPLES;
    if (reps < 1)
        reps = 1;
    thr_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.isa = isa, sh.f = f, sh.b = b, sh.n = n, sh.mask = mask;
    pthread_barrier_init(&sh.go, NULL, 2);
    pthread_barrier_init(&sh.start, NULL, 2);
    pthread_barrier_init(&sh.end, NULL, 2);
    pthread_t tid;
    if (pthread_create(&tid, NULL, worker, &sh) != 0) {
        pthread_barrier_destroy(&sh.go);
        pthread_barrier_destroy(&sh.start);
        pthread_barrier_destroy(&sh.end);
        return -1;
    }
    for (int r = -1; r < reps; r++) /* r = -1: warm-up */
        for (int t = 1; t <= 2; t++)
            for (int m = 0; m < 3; m++) {
                double v = sample(&sh, modes[m], t);
                if (r >= 0)
                    s[m][t - 1][r] = v;
            }
    /* Leave the bitmask of a 2-thread exact pass for the caller to check. */
    sample(&sh, SATC_EXACT, 2);
    sh.quit = 1;
    pthread_barrier_wait(&sh.go);
    pthread_join(tid, NULL);
    pthread_barrier_destroy(&sh.go);
    pthread_barrier_destroy(&sh.start);
    pthread_barrier_destroy(&sh.end);
    for (int m = 0; m < 3; m++)
        for (int t = 0; t < 2; t++)
            out[m][t] = bench_stats_from(s[m][t], reps);
    return 0;
}
