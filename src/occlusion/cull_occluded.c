/* The culls with occlusion: per chunk of volumes, the frustum kernel (and
 * the group bounds), then the occlusion kernel's rectangles of the kept
 * volumes and the hierarchical-Z reads (Greene, Kass and Miller 1993),
 * then the outputs. The reads are one scalar routine every path shares. */
#include <math.h>
#include <string.h>

#include "../passes/passes.h"
#include "occlusion.h"

/* Below the first 4 x 4 read, at most SATC_OC_SPLIT texels that are not
 * nearer are split (a volume with more is nearly always visible, and
 * searching it would only cost reads), with a budget of SATC_OC_READS
 * reads plus SATC_OC_READS_PER per level-0 texel of the rectangle's width
 * and height, at most SATC_OC_READS_MAX: refining costs reads along the
 * edges of what the coarse texels leave undecided, which grow with the
 * rectangle's sides. */
#define SATC_OC_SPLIT 4
#define SATC_OC_READS 32
#define SATC_OC_READS_PER 4
#define SATC_OC_READS_MAX 512u

/* SATC_TEST_DEPTH_PER_TEXEL: a texel not nearer than a volume's nearest
 * depth may still be nearer than every point of the volume within the
 * texel's directions (a volume seen obliquely is farther over most of its
 * footprint). Such texels, when their value is below lim, are set aside
 * while the plain search goes on; only a volume that the plain search
 * leaves undecided on them alone gets their bounds (satc_subdepth), the
 * farthest first, from the call's budget. A bound costs about as much as
 * a few dozen reads, so bounding only where it can decide pays. */
typedef struct oc_set {
    int32_t x, y, l;
    float t;
} oc_set;

typedef struct oc_fine {
    uint32_t *left; /* the call's remaining bounds; NULL: plain test */
    float lim;      /* texel values at or past it are not bounded */
    int n;
    oc_set d[SATC_TEST_TEXELS];
} oc_fine;

/* 1 when texel (x, y, l) of value t is set aside for a bound. */
static int set_aside(oc_fine *s, float t, int32_t x, int32_t y, int32_t l)
{
    if (!(t < s->lim) || s->n == (int)SATC_TEST_TEXELS)
        return 0;
    s->d[s->n++] = (oc_set){x, y, l, t};
    return 1;
}

/* A texel of level l still to be split: it is not nearer than z. */
typedef struct oc_node {
    int32_t x, y, l;
} oc_node;

/* Whether texel (x, y) of level l lies wholly inside the level-0
 * rectangle [i0, i1] x [j0, j1]. A level above 0 holds the farthest of
 * its children, so such a texel that is not nearer than z has a level-0
 * texel inside the rectangle that is not nearer either (or NaN): the
 * plain test's search would end there, not hidden, wherever it went, so
 * it ends now with the same answer. */
static inline int oc_inside(int32_t x, int32_t y, int32_t l, int32_t i0, int32_t i1, int32_t j0,
                            int32_t j1)
{
    return x << l >= i0 && ((x + 1) << l) - 1 <= i1 && y << l >= j0 && ((y + 1) << l) - 1 <= j1;
}

/* The volume's rectangle [i0, i1] x [j0, j1], nearest depth z and the
 * reads left. */
typedef struct oc_rect {
    int32_t i0, i1, j0, j1;
    float z;
    uint32_t reads;
} oc_rect;

/* 1 when volume i of b lies deeper than every texel set aside, each
 * within its own directions, the farthest first. A set-aside texel whose
 * bound fails is split as the plain search would (its children not
 * nearer than z are bounded in turn); one bound of the call's budget per
 * texel bounded, at most SATC_TEST_TEXELS per volume. */
static int bound_set(const satc_pyramid *p, const satc_batch *b, size_t i, oc_fine *s,
                     oc_rect *r)
{
    satc_subvol v;
    if (!satc_subdepth_init(p, b, i, &v))
        return 0;
    oc_set st[SATC_TEST_TEXELS + 3 * SATC_PYRAMID_MAX_LEVELS];
    int top = s->n;
    /* the farthest last, popped first: the likeliest to show the volume */
    for (int q = 0; q < s->n; q++) {
        int x = q;
        while (x > 0 && st[x - 1].t > s->d[q].t)
            st[x] = st[x - 1], x--;
        st[x] = s->d[q];
    }
    uint32_t own = SATC_TEST_TEXELS;
    while (top) {
        oc_set d = st[--top];
        if (d.t < s->lim && own && *s->left) {
            own--, (*s->left)--;
            if ((double)d.t < v.zmax &&
                satc_subdepth_beyond(p, &v, (uint32_t)d.l, d.x, d.y, (double)d.t))
                continue;
        }
        if (d.l == 0)
            return 0;
        int32_t l = d.l - 1;
        int32_t c0 = r->i0 >> l, c1 = r->i1 >> l, w0 = r->j0 >> l, w1 = r->j1 >> l;
        const float *lv = p->depth + p->level_off[l];
        size_t w = p->level_w[l];
        oc_set kid[4];
        int nk = 0;
        for (int32_t cy = 2 * d.y; cy <= 2 * d.y + 1; cy++) {
            if (cy < w0 || cy > w1)
                continue;
            for (int32_t cx = 2 * d.x; cx <= 2 * d.x + 1; cx++) {
                if (cx < c0 || cx > c1)
                    continue;
                if (r->reads == 0)
                    return 0;
                r->reads--;
                float t = lv[(size_t)cy * w + (size_t)cx];
                if (t < r->z)
                    continue;
                if (!(t < s->lim) && l == 0)
                    return 0;
                int q = nk++;
                while (q > 0 && kid[q - 1].t > t)
                    kid[q] = kid[q - 1], q--;
                kid[q] = (oc_set){cx, cy, l, t};
            }
        }
        for (int q = 0; q < nk; q++)
            st[top++] = kid[q];
    }
    return 1;
}
/* Hidden: every level-0 texel over rectangle r = [i0, i1] x [j0, j1] is
 * nearer than z (a texel nearer than z answers for its whole footprint:
 * it holds the largest value below it). Read at the finest level where
 * r spans at most 4 x 4 texels; each texel there that is not nearer (at
 * most SATC_OC_SPLIT of them) is split into its children over r, down to
 * level 0 if need be, depth first (the farthest child first,
 * the likeliest to reach a level-0 texel that is not nearer and end the
 * search), while the budget of reads lasts. on: SATC_TEST_DEPTH_PER_TEXEL
 * (a constant: the plain test compiles without its code). */
static inline __attribute__((always_inline)) int
hidden_in(const satc_pyramid *p, const float (*rect)[SATC_CHUNK], size_t j, const satc_batch *b,
          size_t first, uint32_t *left, const int on)
{
    oc_fine fine;
    fine.left = left, fine.n = 0, fine.lim = -INFINITY;
    if (on && *left) {
        float z0 = rect[SATC_OC_ZMIN][j], z1 = rect[SATC_OC_ZMAX][j];
        fine.lim = z0 + (float)SATC_TEST_MARGIN * (z1 - z0);
    }
    int32_t i0 = (int32_t)rect[SATC_OC_COL0][j], i1 = (int32_t)rect[SATC_OC_COL1][j];
    int32_t j0 = (int32_t)rect[SATC_OC_ROW0][j], j1 = (int32_t)rect[SATC_OC_ROW1][j];
    float z = rect[SATC_OC_ZMIN][j];
    if (i0 > i1 || j0 > j1)
        return 0;
    /* the finest level where r spans at most 4 x 4 texels: none below
     * bitlength(D) - 2, D the larger side (2^(k+2) <= D spans 5 or more) */
    uint32_t dm = (uint32_t)(i1 - i0 > j1 - j0 ? i1 - i0 : j1 - j0);
    int32_t k = dm >= 4 ? 30 - __builtin_clz(dm) : 0;
    while ((i1 >> k) - (i0 >> k) > 3 || (j1 >> k) - (j0 >> k) > 3)
        k++;
    /* SATC_OC_SPLIT at the first level, then 3 more per level below */
    oc_node stack[SATC_OC_SPLIT + 3 * SATC_PYRAMID_MAX_LEVELS];
    int top = 0;
    {
        const float *lv = p->depth + p->level_off[k];
        size_t w = p->level_w[k];
        /* the texels wholly inside (oc_inside at level k): columns
         * [cx0, cx1] of rows [cy0, cy1] */
        int32_t cx0 = (i0 + (1 << k) - 1) >> k, cx1 = ((i1 + 1) >> k) - 1;
        int32_t cy0 = (j0 + (1 << k) - 1) >> k, cy1 = ((j1 + 1) >> k) - 1;
        for (int32_t y = j0 >> k; y <= j1 >> k; y++) {
            const float *row = lv + (size_t)y * w;
            int row_in = !on && y >= cy0 && y <= cy1;
            for (int32_t x = i0 >> k; x <= i1 >> k; x++) {
                if (row[x] < z)
                    continue;
                if (k == 0 || top == SATC_OC_SPLIT || (row_in && x >= cx0 && x <= cx1)) {
                    if (on && set_aside(&fine, row[x], x, y, k))
                        continue;
                    return 0;
                }
                stack[top++] = (oc_node){x, y, k};
            }
        }
    }
    if (!top && (!on || !fine.n))
        return 1;
    uint32_t budget = SATC_OC_READS + SATC_OC_READS_PER * (uint32_t)(i1 - i0 + j1 - j0 + 2);
    if (budget > SATC_OC_READS_MAX)
        budget = SATC_OC_READS_MAX;
    while (top) {
        oc_node t = stack[--top];
        int32_t l = t.l - 1;
        int32_t c0 = i0 >> l, c1 = i1 >> l, w0 = j0 >> l, w1 = j1 >> l;
        const float *lv = p->depth + p->level_off[l];
        size_t w = p->level_w[l];
        oc_node kid[4];
        float kv[4];
        int nk = 0;
        for (int32_t cy = 2 * t.y; cy <= 2 * t.y + 1; cy++) {
            if (cy < w0 || cy > w1)
                continue;
            for (int32_t cx = 2 * t.x; cx <= 2 * t.x + 1; cx++) {
                if (cx < c0 || cx > c1)
                    continue;
                if (budget == 0)
                    return 0;
                budget--;
                float v = lv[(size_t)cy * w + (size_t)cx];
                if (v < z)
                    continue;
                if (l == 0 || (!on && oc_inside(cx, cy, l, i0, i1, j0, j1))) {
                    if (on && set_aside(&fine, v, cx, cy, l))
                        continue;
                    return 0;
                }
                /* insertion by value, the farthest last (popped first);
                 * levels above 0 hold no NaN (the reduction reads it as
                 * +Inf), and a NaN at level 0 ends the search above */
                int q = nk++;
                while (q > 0 && kv[q - 1] > v)
                    kid[q] = kid[q - 1], kv[q] = kv[q - 1], q--;
                kid[q] = (oc_node){cx, cy, l}, kv[q] = v;
            }
        }
        for (int q = 0; q < nk; q++)
            stack[top++] = kid[q];
    }
    if (!on || !fine.n)
        return 1;
    oc_rect r = {i0, i1, j0, j1, z, budget};
    return bound_set(p, b, first + j, &fine, &r);
}

static int hidden_plain(const satc_pyramid *p, const float (*rect)[SATC_CHUNK], size_t j)
{
    return hidden_in(p, rect, j, NULL, 0, NULL, 0);
}

static int hidden_depth(const satc_pyramid *p, const float (*rect)[SATC_CHUNK], size_t j,
                        const satc_batch *b, size_t first, uint32_t *left)
{
    return hidden_in(p, rect, j, b, first, left, 1);
}

void satc_occlude(const satc_kernels *k, const satc_pyramid *p, const satc_occl_consts *oc,
                    const satc_batch *b, size_t first, size_t n, unsigned flags, uint64_t *vis,
                    uint64_t *occ, uint32_t *left)
{
    float rect[SATC_OC_N][SATC_CHUNK];
    uint64_t test[SATC_CHUNK_WORDS];
    const satc_frustum *f = &p->view;
    k->occl[b->form][f->kind == SATC_FRUSTUM_ORTHOGRAPHIC](f, oc, b, first, n, flags, vis, rect,
                                                            test);
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++) {
        for (uint64_t m = test[w]; m; m &= m - 1) {
            size_t j = w * 64 + (size_t)__builtin_ctzll(m);
            const float(*r)[SATC_CHUNK] = (const float(*)[SATC_CHUNK])rect;
            if (left ? hidden_depth(p, r, j, b, first, left) : hidden_plain(p, r, j)) {
                vis[w] &= ~(1ull << (j % 64));
                occ[w] |= 1ull << (j % 64);
            }
        }
    }
}

/* Is the world box (c, h) occluded? Through the AABB kernel of the path,
 * as a one-volume batch. */
static int bound_hidden(const satc_kernels *k, const satc_pyramid *p,
                        const satc_occl_consts *oc, const float c[3], const float h[3],
                        uint32_t *left)
{
    satc_batch one;
    memset(&one, 0, sizeof one);
    one.form = SATC_FORM_AABB;
    one.aabb.center = (satc_vec3s){&c[0], &c[1], &c[2], 0};
    one.aabb.half = (satc_vec3s){&h[0], &h[1], &h[2], 0};
    uint64_t vis[SATC_CHUNK_WORDS] = {1}, occ[SATC_CHUNK_WORDS] = {0};
    satc_occlude(k, p, oc, &one, 0, 1, SATC_K_LAST, vis, occ, left);
    return (int)(occ[0] & 1);
}

static void run_part(satc_kernel_fn fn, const satc_frustum *f, const satc_batch *b, size_t first,
                     size_t end, unsigned flags, size_t lo, size_t hi, uint64_t *vis,
                     uint64_t *in)
{
    if (lo < hi)
        satc_run_part(fn, f, b, first, end, flags, lo, hi, vis, in);
}

/* satc_chunk_run with occlusion of the group bounds the frustum keeps:
 * an occluded group's volumes get occ bits and are not read. */
static void chunk_groups(const satc_kernels *k, const satc_pyramid *p,
                         const satc_occl_consts *oc, const satc_gview *gv, const satc_batch *b,
                         size_t first, size_t n, unsigned flags, uint64_t *vis, uint64_t *in,
                         uint64_t *occ, uint32_t *left)
{
    const satc_frustum *f = &p->view;
    satc_kernel_fn fn = k->fn[b->form][satc_kind_col(f)];
    const satc_groups *gs = b->groups;
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        vis[w] = in[w] = 0;
    size_t end = first + n, run = first;
    size_t i = first, g = satc_group_at(gs, first);
    while (i < end) {
        size_t lo = end, hi = end;
        if (g < gs->ngroups)
            satc_group_range(gs, g, &lo, &hi);
        if (lo > i) {
            i = lo < end ? lo : end;
            continue;
        }
        if (hi > end)
            hi = end;
        if (hi > i) {
            float c[3], h[3];
            satc_vec3s_get(&gs->center, g, c);
            satc_vec3s_get(&gs->half, g, h);
            int d = satc_group_decide(gv, c, h);
            if (d >= 0 && bound_hidden(k, p, oc, c, h, left)) {
                run_part(fn, f, b, first, end, flags, run, i, vis, in);
                satc_set_bits(occ, i - first, hi - i);
                run = hi;
            } else if (d) {
                run_part(fn, f, b, first, end, flags, run, i, vis, in);
                if (d > 0) {
                    satc_set_bits(vis, i - first, hi - i);
                    if (flags & SATC_K_CLASSIFY)
                        satc_set_bits(in, i - first, hi - i);
                }
                run = hi;
            }
            i = hi;
        }
        g++;
    }
    run_part(fn, f, b, first, end, flags, run, end, vis, in);
}

static void put_mask(uint8_t *dst, const uint64_t *w, size_t n)
{
    for (size_t i = 0; i < (n + 7) / 8; i++)
        dst[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
}

static size_t count_bits(uint64_t x)
{
    size_t c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}

static satc_status run_occluded(const satc_kernels *k, const satc_pyramid *p, const satc_batch *b,
                                size_t first, size_t count, satc_mode mode, satc_results *out,
                                uint8_t *occluded, size_t *noccluded)
{
    if (!k)
        return SATC_ERR_ISA;
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    const satc_frustum *f = &p->view;
    st = satc_check_results(f, b, first, count, mode, out);
    if (st != SATC_OK)
        return st;
    satc_occl_consts oc;
    satc_occl_consts_init(p, &oc);
    satc_kernel_fn fn = k->fn[b->form][satc_kind_col(f)];
    satc_gview gv;
    if (b->groups)
        satc_gview_init(&gv, f, b);
    unsigned flags = (mode == SATC_EXACT ? SATC_K_EXACT : 0u) | (out->classes ? SATC_K_CLASSIFY : 0u);
    size_t visible = 0, nocc = 0;
    uint32_t bounds = p->test_budget, *left = p->test & SATC_TEST_DEPTH_PER_TEXEL ? &bounds : NULL;
    uint64_t vis[SATC_CHUNK_WORDS], in[SATC_CHUNK_WORDS], occ[SATC_CHUNK_WORDS];
    for (size_t done = 0; done < count; done += SATC_CHUNK) {
        size_t n = count - done < SATC_CHUNK ? count - done : SATC_CHUNK;
        unsigned fl = flags | (done + n == count ? SATC_K_LAST : 0u);
        memset(occ, 0, sizeof occ);
        if (b->groups)
            chunk_groups(k, p, &oc, &gv, b, first + done, n, fl, vis, in, occ, left);
        else
            fn(f, b, first + done, n, fl, vis, in);
        satc_occlude(k, p, &oc, b, first + done, n, fl, vis, occ, left);
        if (out->bitmask)
            put_mask(out->bitmask + done / 8, vis, n);
        if (occluded)
            put_mask(occluded + done / 8, occ, n);
        if (out->classes) {
            for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
                in[w] &= vis[w];
            satc_put_classes(out->classes + done, vis, in, n);
            for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
                for (uint64_t m = occ[w]; m; m &= m - 1)
                    out->classes[done + w * 64 + (size_t)__builtin_ctzll(m)] = SATC_OCCLUDED;
        }
        for (size_t w = 0; w < SATC_CHUNK_WORDS; w++) {
            nocc += count_bits(occ[w]);
            if (out->indices) {
                for (uint64_t m = vis[w]; m; m &= m - 1)
                    out->indices[visible++] =
                        (uint32_t)(first + done + w * 64 + (size_t)__builtin_ctzll(m));
            } else {
                visible += count_bits(vis[w]);
            }
        }
    }
    out->visible = visible;
    if (noccluded)
        *noccluded = nocc;
    return SATC_OK;
}

satc_status satc_cull_occluded_isa(satc_isa isa, const satc_pyramid *p, const satc_batch *b,
                                   size_t first, size_t count, satc_mode mode, satc_results *out,
                                   uint8_t *occluded, size_t *noccluded)
{
    satc_status st;
    const satc_kernels *k = satc_kernels_named(isa, &st);
    if (!k)
        return st;
    return run_occluded(k, p, b, first, count, mode, out, occluded, noccluded);
}

satc_status satc_cull_occluded(const satc_pyramid *p, const satc_batch *b, size_t first,
                               size_t count, satc_mode mode, satc_results *out, uint8_t *occluded,
                               size_t *noccluded)
{
    return run_occluded(satc_kernels_for(satc_isa_active()), p, b, first, count, mode, out,
                        occluded, noccluded);
}
