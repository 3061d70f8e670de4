/*
 * The floor of the 64 players' pass with groups. From each
 * view's own classes: the (group, view) pairs that are neither all
 * outside nor all inside. A pass deciding every other pair from the
 * bounds, for free, still runs the kernel on those pairs' volumes and
 * still writes every mask word; this times exactly that work (the kernel
 * on those pairs, group by group as the pass goes; the write of the
 * masks) and prints the best ratio it leaves against the flat pass. At
 * groups of 32 (each group split) the count of such tests is printed
 * too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "stream.h"
#include "timing.h"

typedef struct pair {
    uint32_t g;
    uint8_t v;
} pair;

/* Counts per group of gsize of view v's outside and inside volumes. */
static void tally(const uint8_t *cls, size_t n, size_t gsize, size_t *mixed, size_t *tests,
                  pair *pairs, size_t *np, int v)
{
    for (size_t g = 0; g < n; g += gsize) {
        size_t e = g + gsize < n ? g + gsize : n, out = 0, in = 0;
        for (size_t i = g; i < e; i++)
            out += cls[i] == SATC_OUTSIDE, in += cls[i] == SATC_INSIDE;
        if (out == e - g || in == e - g)
            continue;
        ++*mixed, *tests += e - g;
        if (pairs)
            pairs[(*np)++] = (pair){(uint32_t)(g / gsize), (uint8_t)v};
    }
}

static int by_group(const void *a, const void *b)
{
    const pair *p = a, *q = b;
    return p->g != q->g ? (p->g < q->g ? -1 : 1) : (p->v > q->v) - (p->v < q->v);
}

typedef struct fctx {
    const satc_frustum *views;
    const satc_batch *b;
    const pair *pairs;
    size_t np, gsize, len; /* len: volumes per call (gsize, or 0: the calls alone) */
    uint8_t *bits;
    void *masks;
    size_t mbytes;
    size_t sink;
} fctx;

static void run_pairs(void *p)
{
    fctx *c = p;
    for (size_t i = 0; i < c->np; i++) {
        satc_results r = {c->bits, NULL, NULL, 0};
        satc_cull(&c->views[c->pairs[i].v], c->b, c->pairs[i].g * c->gsize, c->len, SATC_EXACT, &r);
        c->sink += r.visible;
    }
}

static void run_write(void *p)
{
    fctx *c = p;
    memset(c->masks, 0, c->mbytes);
}

void vp_floor(const satc_frustum *views, int k, const satc_batch *flat, size_t n, size_t gsize,
              double flat_ns, int reps)
{
    uint8_t *cls = malloc(n), *bits = malloc(n / 8 + 1);
    size_t ng = (n + gsize - 1) / gsize, np = 0, mixed = 0, tests = 0, m32 = 0, t32 = 0;
    pair *pairs = malloc(ng * (size_t)k * sizeof *pairs);
    for (int v = 0; v < k; v++) {
        satc_results r = {bits, cls, NULL, 0};
        satc_cull(&views[v], flat, 0, n, SATC_EXACT, &r);
        tally(cls, n, gsize, &mixed, &tests, pairs, &np, v);
        tally(cls, n, 32, &m32, &t32, NULL, NULL, v);
    }
    qsort(pairs, np, sizeof *pairs, by_group);
    fctx a = {views, flat, pairs, np, gsize, gsize, bits, NULL, 0, 0};
    fctx one = a, w = a;
    one.len = 0;
    w.mbytes = n * (k <= 8 ? 1 : k <= 16 ? 2 : k <= 32 ? 4 : 8);
    w.masks = malloc(w.mbytes);
    bench_job jobs[3];
    memset(jobs, 0, sizeof jobs);
    jobs[0].fn = run_pairs, jobs[0].ctx = &a;
    jobs[1].fn = run_pairs, jobs[1].ctx = &one;
    jobs[2].fn = run_write, jobs[2].ctx = &w;
    bench_time_jobs(jobs, 3, n, 0, reps);
    double kern = jobs[0].st.med - jobs[1].st.med, wr = jobs[2].st.med, fl = kern + wr;
    printf("floor of the pass with groups of %zu (perfect decisions): %zu (group, view) pairs\n"
           "  neither all outside nor all inside, %zu volume-view tests (%.3f per box; groups of 32:\n"
           "  %zu, %.3f per box)\n", gsize, mixed, tests, (double)tests / n, t32, (double)t32 / n);
    printf("  the kernel on exactly those pairs %.2f ns/box (%.2f in %zu calls less %.2f for the\n"
           "  API calls alone, %.2f ns per test) + writing the masks %.2f = %.2f ns/box: at most %.2f x\n"
           "  the flat pass (%.2f)\n", kern, jobs[0].st.med, np, jobs[1].st.med,
           tests ? kern * (double)n / (double)tests : 0.0, wr, fl, flat_ns / fl, flat_ns);
    free(cls), free(bits), free(pairs), free(w.masks);
}
