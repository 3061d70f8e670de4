/*
 * Threads: workers cull disjoint sub-ranges of one batch, split
 * at multiples of 8, into ONE shared bitmask, ONE shared classes array and
 * one shared indices array (each worker writing at its own offset), while
 * other threads make their first calls (satc_isa_active, satc_cull_batch),
 * so the dispatcher initialises concurrently. Everyone starts behind a
 * barrier. The results must equal a single-threaded run made afterwards.
 * Also built with ThreadSanitizer by .ci/run.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robust_util.h"

#define WORKERS 4
#define STARTERS 3
#define COUNT 100008 /* a multiple of 8; odd rounds use 3 fewer (a partial last byte) */

typedef struct shared {
    pthread_barrier_t barrier;
    const satc_frustum *f;
    const satc_boxes *boxes;
    size_t total;
    satc_mode mode;
    satc_isa isa; /* 0: satc_cull_batch (the dispatched path) */
    size_t cut[WORKERS + 1];
    uint8_t *bitmask, *classes;
    uint32_t *indices;
} shared;

typedef struct worker {
    shared *s;
    int id;
    satc_status st;
    size_t visible;
} worker;

typedef struct starter {
    shared *s;
    satc_isa active;
    satc_status st;
    size_t visible;
} starter;

static void *work(void *arg)
{
    worker *w = arg;
    shared *s = w->s;
    size_t first = s->cut[w->id], count = s->cut[w->id + 1] - first;
    pthread_barrier_wait(&s->barrier);
    satc_results res = {s->bitmask + first / 8, s->classes + first, s->indices + first, 0};
    w->st = s->isa ? satc_cull_batch_isa(s->isa, s->f, s->boxes, first, count, s->mode, &res)
                   : satc_cull_batch(s->f, s->boxes, first, count, s->mode, &res);
    w->visible = res.visible;
    return NULL;
}

/* A first call of its own: the active path, then a small private cull. */
static void *start(void *arg)
{
    starter *t = arg;
    shared *s = t->s;
    uint8_t cls[40];
    pthread_barrier_wait(&s->barrier);
    t->active = satc_isa_active();
    satc_results res = {NULL, cls, NULL, 0};
    t->st = satc_cull_batch(s->f, s->boxes, 100, 40, s->mode, &res);
    t->visible = res.visible;
    return NULL;
}

/* One round: workers (and, if with_starters, starters) run concurrently. */
static void run_round(shared *s, int with_starters, starter *st)
{
    pthread_t wt[WORKERS], tt[STARTERS];
    worker w[WORKERS];
    int n = WORKERS + (with_starters ? STARTERS : 0);
    pthread_barrier_init(&s->barrier, NULL, (unsigned)n);
    for (int i = 0; i < WORKERS; i++) {
        w[i] = (worker){s, i, SATC_OK, 0};
        pthread_create(&wt[i], NULL, work, &w[i]);
    }
    if (with_starters)
        for (int i = 0; i < STARTERS; i++) {
            st[i] = (starter){s, (satc_isa)0, SATC_OK, 0};
            pthread_create(&tt[i], NULL, start, &st[i]);
        }
    for (int i = 0; i < WORKERS; i++) {
        pthread_join(wt[i], NULL);
        rb_check(w[i].st == SATC_OK, "worker %d status %d", i, (int)w[i].st);
    }
    if (with_starters)
        for (int i = 0; i < STARTERS; i++)
            pthread_join(tt[i], NULL);
    pthread_barrier_destroy(&s->barrier);
}

/* Compares the shared outputs with a single-threaded run. */
static void compare(const shared *s, const char *what)
{
    rb_out ref;
    rb_out_alloc(&ref, s->total);
    satc_results res = {ref.bitmask, ref.classes, ref.indices, 0};
    satc_status st = s->isa ? satc_cull_batch_isa(s->isa, s->f, s->boxes, 0, s->total, s->mode, &res)
                            : satc_cull_batch(s->f, s->boxes, 0, s->total, s->mode, &res);
    rb_check(st == SATC_OK, "%s: single-threaded status %d", what, (int)st);
    rb_check(!memcmp(ref.bitmask, s->bitmask, (s->total + 7) / 8), "%s: shared bitmask differs", what);
    rb_check(!memcmp(ref.classes, s->classes, s->total), "%s: shared classes differ", what);
    /* Each worker's indices start at its own offset: concatenated they
     * must be the single-threaded list. */
    size_t k = 0;
    int ok = 1;
    for (int i = 0; i < WORKERS && ok; i++) {
        size_t m = 0;
        for (size_t j = s->cut[i]; j < s->cut[i + 1]; j++)
            if (ref.bitmask[j / 8] >> (j % 8) & 1) {
                ok &= k < res.visible && s->indices[s->cut[i] + m] == ref.indices[k];
                m++, k++;
            }
    }
    rb_check(ok && k == res.visible, "%s: shared indices differ", what);
    rb_out_free(&ref);
}

int main(void)
{
    rb_rng rng = {0x7468726561647331ull};
    satc_camera cam;
    float eye[3] = {-3.0f, 7.0f, 1.0f};
    rb_camera_persp(&cam, &rng, eye, 0.1f, 300.0f);
    satc_frustum f;
    if (!rb_check(satc_frustum_from_camera(&f, &cam) == SATC_OK, "frustum"))
        return rb_finish();
    rb_batch b;
    if (rb_batch_alloc(&b, COUNT))
        return 2;
    rb_fill_near(&b, COUNT, &rng, &cam);

    shared s;
    memset(&s, 0, sizeof s);
    s.f = &f;
    s.boxes = &b.v;
    s.bitmask = malloc((COUNT + 7) / 8);
    s.classes = malloc(COUNT);
    s.indices = malloc(COUNT * sizeof(uint32_t));
    if (!s.bitmask || !s.classes || !s.indices)
        return 2;

    satc_isa paths[8];
    int npaths = rb_paths(paths);
    starter st[STARTERS];
    int round = 0;
    /* Round 0 has the very first calls of the process: workers through
     * satc_cull_batch, starters through satc_isa_active. */
    for (int p = -1; p < npaths; p++) {
        for (int mode = 0; mode < 2; mode++, round++) {
            s.isa = p < 0 ? (satc_isa)0 : paths[p];
            s.mode = (satc_mode)mode;
            /* Unequal cuts at multiples of 8; the last range may end
             * mid-byte (total not a multiple of 8 in odd rounds). */
            s.total = COUNT - (size_t)(round % 2) * 3;
            s.cut[0] = 0;
            for (int i = 1; i < WORKERS; i++)
                s.cut[i] = s.cut[i - 1] + 8 * (size_t)(300 + rb_next(&rng) % 600);
            s.cut[WORKERS] = s.total;
            memset(s.bitmask, 0xA5, (COUNT + 7) / 8);
            memset(s.classes, 0xA5, COUNT);
            run_round(&s, round == 0, st);
            char what[64];
            snprintf(what, sizeof what, "%s mode %d", p < 0 ? "dispatched" : satc_isa_name(s.isa),
                     mode);
            compare(&s, what);
            if (round == 0) {
                satc_isa a = satc_isa_active();
                for (int i = 0; i < STARTERS; i++) {
                    rb_check(st[i].active == a, "starter %d saw path %s, later %s", i,
                             satc_isa_name(st[i].active), satc_isa_name(a));
                    rb_check(st[i].st == SATC_OK, "starter %d status %d", i, (int)st[i].st);
                    size_t v = 0;
                    for (size_t j = 100; j < 140; j++)
                        v += s.bitmask[j / 8] >> (j % 8) & 1;
                    rb_check(st[i].visible == v, "starter %d counted %zu visible, workers %zu", i,
                             st[i].visible, v);
                }
                printf("active path %s; %d workers and %d starters raced its first use\n",
                       satc_isa_name(a), WORKERS, STARTERS);
            }
        }
    }
    printf("%d rounds of %d boxes\n", round, COUNT);
    free(s.bitmask);
    free(s.classes);
    free(s.indices);
    rb_batch_free(&b);
    return rb_finish();
}
