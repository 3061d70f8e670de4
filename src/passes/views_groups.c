/*
 * satc_cull_views with the caller's groups (RTR 22.14.1; Unity's per-chunk
 * view masks): per group, the set of views it may touch and the set it
 * lies inside, each view deciding each bound once in double
 * (satc_group_decide); a view runs its kernel only on the groups it left
 * undecided. Bounds of bounds first: the union of the groups of each
 * chunk (SATC_CHUNK volumes) and of each block of BLOCK_CHUNKS chunks, so
 * a view far from most of the batch (a player on a large map, a cube
 * face) decides whole blocks at once.
 *
 * Why every view's bits stay its own cull's: a union holds every volume
 * of the groups it joins (each group's bound holds its volumes: the
 * satc_groups precondition), and satc_group_decide's argument
 * (groups.c) holds for any box holding the volumes; so a view that culls
 * or accepts a union would cull or accept each volume in it by its flat
 * plane test, as it would for a group's own bound. Volumes in no group
 * always go to the kernel.
 */
#include <math.h>
#include <string.h>

#include "views_grouped.h"

#define BLOCK_CHUNKS 16

/* A union of group bounds in double; ok: every bound finite, h >= 0;
 * loose: its span also has volumes in no group, which no bound holds. */
typedef struct ubox {
    double lo[3], hi[3];
    int ok, any, loose;
} ubox;

static void ubox_init(ubox *u)
{
    u->ok = 1, u->any = 0, u->loose = 0;
    for (int q = 0; q < 3; q++)
        u->lo[q] = INFINITY, u->hi[q] = -INFINITY;
}

static void ubox_add(ubox *u, const float c[3], const float h[3])
{
    for (int q = 0; q < 3; q++) {
        if (!(fabsf(c[q]) <= 3.4e38f) || !(h[q] >= 0.0f && h[q] <= 3.4e38f)) {
            u->ok = 0;
            return;
        }
    }
    for (int q = 0; q < 3; q++) {
        double l = (double)c[q] - h[q], z = (double)c[q] + h[q]; /* within 2^-53: below */
        u->lo[q] = l < u->lo[q] ? l : u->lo[q];
        u->hi[q] = z > u->hi[q] ? z : u->hi[q];
    }
    u->any = 1;
}

static void ubox_join(ubox *u, const ubox *v)
{
    u->ok &= v->ok;
    u->any |= v->any;
    u->loose |= v->loose;
    for (int q = 0; q < 3; q++) {
        u->lo[q] = v->lo[q] < u->lo[q] ? v->lo[q] : u->lo[q];
        u->hi[q] = v->hi[q] > u->hi[q] ? v->hi[q] : u->hi[q];
    }
}

/* Views of cand outside (*out) and inside (*in) the union. */
static void ubox_decide(const ubox *u, const satc_gview *gv, uint64_t cand, uint64_t *out,
                        uint64_t *in)
{
    *out = *in = 0;
    if (!u->ok || !u->any)
        return;
    float c[3], h[3];
    for (int q = 0; q < 3; q++) {
        c[q] = (float)(0.5 * (u->lo[q] + u->hi[q]));
        double a = u->hi[q] - c[q], z = c[q] - u->lo[q];
        h[q] = satc_float_up((a > z ? a : z) + 0x1p-50 * (fabs(u->lo[q]) + fabs(u->hi[q])));
    }
    for (; cand; cand &= cand - 1) {
        unsigned v = (unsigned)__builtin_ctzll(cand);
        int d = satc_group_decide(&gv[v], c, h);
        if (d < 0)
            *out |= (uint64_t)1 << v;
        else if (d > 0)
            *in |= (uint64_t)1 << v;
    }
}

/* A chunk's pieces: [lo, hi) volume offsets in the chunk, group g or
 * none (SIZE_MAX), and per piece the views it may touch and is inside. */
typedef struct pieces {
    size_t n;
    uint16_t lo[SATC_CHUNK + 1], hi[SATC_CHUNK + 1];
    uint64_t touch[SATC_CHUNK + 1], in[SATC_CHUNK + 1];
    ubox u;      /* the union of its groups */
    uint64_t any; /* the views some piece may touch */
    int skip;     /* its groups outside every view, no volume in no group */
    size_t done, n_vol; /* where the chunk starts in the call, its volumes */
} pieces;

/* Splits [first, first + n) by groups as satc_chunk_run does, and joins
 * the groups' bounds. */
static void cut(pieces *P, size_t *pg, const satc_groups *gs, size_t first, size_t n)
{
    size_t end = first + n, i = first, g = satc_group_at(gs, first);
    P->n = 0;
    ubox_init(&P->u);
    while (i < end) {
        size_t lo = end, hi = end;
        if (g < gs->ngroups)
            satc_group_range(gs, g, &lo, &hi);
        size_t k = P->n++;
        if (lo > i) { /* volumes in no group */
            P->lo[k] = (uint16_t)(i - first), P->hi[k] = (uint16_t)((lo < end ? lo : end) - first);
            pg[k] = SIZE_MAX;
            P->u.loose = 1;
            i = lo < end ? lo : end;
            continue;
        }
        hi = hi < end ? hi : end;
        if (hi <= i) { /* empty group */
            P->n--, g++;
            continue;
        }
        P->lo[k] = (uint16_t)(i - first), P->hi[k] = (uint16_t)(hi - first), pg[k] = g;
        float c[3], h[3];
        satc_vec3s_get(&gs->center, g, c);
        satc_vec3s_get(&gs->half, g, h);
        ubox_add(&P->u, c, h);
        i = hi, g++;
    }
}

/* Each piece's view masks: the chunk's decisions (out, in), then each
 * group's for the views still open. */
static void decide_pieces(pieces *P, const size_t *pg, const satc_groups *gs,
                          const satc_gview *gv, uint64_t all, uint64_t out, uint64_t in)
{
    uint64_t open = all & ~out & ~in;
    for (size_t k = 0; k < P->n; k++) {
        if (pg[k] == SIZE_MAX) { /* in no group: every view's kernel */
            P->touch[k] = all, P->in[k] = 0;
            continue;
        }
        uint64_t go = 0, gi = 0;
        if (open) {
            float c[3], h[3];
            satc_vec3s_get(&gs->center, pg[k], c);
            satc_vec3s_get(&gs->half, pg[k], h);
            for (uint64_t m = open; m; m &= m - 1) {
                unsigned v = (unsigned)__builtin_ctzll(m);
                int d = satc_group_decide(&gv[v], c, h);
                go |= d < 0 ? (uint64_t)1 << v : 0;
                gi |= d > 0 ? (uint64_t)1 << v : 0;
            }
        }
        P->touch[k] = all & ~out & ~go;
        P->in[k] = in | gi;
    }
}

/* View v's words of the chunk from its pieces: inside pieces set, open
 * ones through the kernel (runs of them joined). */
static void view_words(const pieces *P, unsigned v, satc_kernel_fn fn, const satc_frustum *f,
                       const satc_batch *b, size_t first, size_t n, unsigned flags, uint64_t *vis,
                       uint64_t *in)
{
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        vis[w] = in[w] = 0;
    const uint64_t bit = (uint64_t)1 << v;
    size_t run = 0, runend = 0; /* [run, runend): waiting for the kernel */
    for (size_t k = 0; k < P->n; k++) {
        int t = (P->touch[k] & bit) != 0, i = (P->in[k] & bit) != 0;
        if (t && !i) {
            if (runend != P->lo[k]) {
                if (runend > run)
                    satc_run_part(fn, f, b, first, first + n, flags, first + run,
                                  first + runend, vis, in);
                run = P->lo[k];
            }
            runend = P->hi[k];
            continue;
        }
        if (t) {
            satc_set_bits(vis, P->lo[k], (size_t)(P->hi[k] - P->lo[k]));
            if (flags & SATC_K_CLASSIFY)
                satc_set_bits(in, P->lo[k], (size_t)(P->hi[k] - P->lo[k]));
        }
    }
    if (runend > run)
        satc_run_part(fn, f, b, first, first + n, flags, first + run, first + runend, vis, in);
}

/* The pass's walk: the block being decided and its chunks' unions. */
typedef struct walk {
    const satc_groups *gs;
    const satc_gview *gv;
    const satc_batch *b;
    uint64_t all;
    size_t first, count;
    size_t bs;            /* the block's start (SIZE_MAX: none yet) */
    ubox cu[BLOCK_CHUNKS]; /* its chunks' unions */
    uint64_t bo, bi;      /* views outside, inside the block's union */
    size_t pg[SATC_CHUNK + 1];
} walk;

/* Chunk [done, done + n) of the call into P: pieces and each view's
 * masks (block, chunk, then group decisions). */
static void prepare(walk *w, pieces *P, size_t done)
{
    const size_t block = (size_t)BLOCK_CHUNKS * SATC_CHUNK;
    size_t bs = done / block * block;
    if (w->bs != bs) { /* a new block: the chunks' unions, then the block's */
        size_t bn = w->count - bs < block ? w->count - bs : block;
        ubox ub;
        ubox_init(&ub);
        for (size_t c = 0; c * SATC_CHUNK < bn; c++) {
            size_t n = bn - c * SATC_CHUNK < SATC_CHUNK ? bn - c * SATC_CHUNK : SATC_CHUNK;
            cut(P, w->pg, w->gs, w->first + bs + c * SATC_CHUNK, n);
            w->cu[c] = P->u;
            ubox_join(&ub, &P->u);
        }
        ubox_decide(&ub, w->gv, w->all, &w->bo, &w->bi);
        w->bs = bs;
    }
    size_t n = w->count - done < SATC_CHUNK ? w->count - done : SATC_CHUNK;
    P->done = done, P->n_vol = n;
    uint64_t co = w->bo, ci = w->bi;
    if ((co | ci) != w->all) {
        uint64_t o2, i2;
        ubox_decide(&w->cu[(done - bs) / SATC_CHUNK], w->gv, w->all & ~co & ~ci, &o2, &i2);
        co |= o2, ci |= i2;
    }
    /* A chunk with volumes in no group is never skipped whole: a view
     * outside its groups' union may still see those volumes. */
    P->skip = co == w->all && !w->cu[(done - bs) / SATC_CHUNK].loose;
    if (P->skip)
        return;
    cut(P, w->pg, w->gs, w->first + done, n);
    decide_pieces(P, w->pg, w->gs, w->gv, w->all, co, ci);
    P->any = 0;
    for (size_t q = 0; q < P->n; q++)
        P->any |= P->touch[q];
}

/* Asks for the lines of the pieces some view will read (a chunk ahead:
 * the groups that cross a view's edge are scattered over the batch, a
 * pattern the hardware's stream prefetch does not follow). */
static void prefetch(const satc_batch *b, const pieces *P, size_t at)
{
    for (size_t k = 0; k < P->n; k++)
        if (P->touch[k] & ~P->in[k])
            satc_prefetch(b, at + P->lo[k], at + P->hi[k]);
}

void satc_views_grouped(const satc_kernels *k, const satc_frustum *views, size_t nviews,
                        const satc_batch *b, size_t first, size_t count, unsigned exact,
                        const satc_view_results *out, satc_view_emit_fn emit, satc_view_flush_fn flush,
                        void *ectx)
{
    walk w;
    satc_gview gv[SATC_MAX_VIEWS];
    for (size_t v = 0; v < nviews; v++)
        satc_gview_init(&gv[v], &views[v], b);
    w.gs = b->groups, w.gv = gv, w.b = b, w.first = first, w.count = count, w.bs = SIZE_MAX;
    w.all = nviews == 64 ? ~(uint64_t)0 : (((uint64_t)1 << nviews) - 1);
    /* Chunk done in P[cur], the next one decided (and its lines asked
     * for) before done's kernels run. */
    pieces P[2];
    uint64_t vis[SATC_CHUNK_WORDS], in[SATC_CHUNK_WORDS];
    prepare(&w, &P[0], 0);
    for (size_t done = 0, cur = 0; done < count; done += SATC_CHUNK, cur ^= 1) {
        pieces *X = &P[cur];
        if (done + SATC_CHUNK < count) {
            prepare(&w, &P[cur ^ 1], done + SATC_CHUNK);
            if (!P[cur ^ 1].skip)
                prefetch(b, &P[cur ^ 1], first + done + SATC_CHUNK);
        }
        size_t n = X->n_vol;
        unsigned last = done + n == count ? SATC_K_LAST : 0u;
        for (size_t v = 0; v < nviews; v++) {
            const satc_frustum *f = &views[v];
            int cls = out->classes && out->classes[v];
            if (X->skip || !(X->any >> v & 1)) {
                /* culled whole: no bits, class bytes 0 */
                if (cls)
                    memset(out->classes[v] + done, 0, n);
                continue;
            }
            unsigned flags = exact | (cls ? SATC_K_CLASSIFY : 0u) | last;
            view_words(X, (unsigned)v, k->fn[b->form][satc_kind_col(f)], f, b, first + done, n,
                       flags, vis, in);
            emit(ectx, v, done, n, vis, in);
        }
        flush(ectx, done, n);
    }
}
