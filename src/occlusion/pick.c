/* Occluder choice: the volumes a view keeps, ranked by the area of the
 * screen rectangle the occlusion test computes for them (the path's
 * occlusion kernel, the same bits on every path), the largest kept in a
 * bounded heap held in the caller's arrays. */
#include <math.h>
#include <string.h>

#include "occlusion.h"

/* Does (a, i) rank below (b, j)? An area with its sign bit set belongs to
 * a volume outside the caller's first set, which ranks below every volume
 * in it; then smaller area first, then larger index: equal areas keep the
 * lower index. */
static int below(float a, uint32_t i, float b, uint32_t j)
{
    int sa = signbit(a) != 0, sb = signbit(b) != 0;
    if (sa != sb)
        return sa;
    float x = fabsf(a), y = fabsf(b);
    return x < y || (x == y && i > j);
}

static void swap(uint32_t *idx, float *ar, size_t a, size_t b)
{
    uint32_t ti = idx[a];
    float ta = ar[a];
    idx[a] = idx[b], ar[a] = ar[b];
    idx[b] = ti, ar[b] = ta;
}

/* The rank's high word: areas without the sign bit first, larger |area|
 * first (below()'s order of areas), ascending. */
static uint32_t rank_hi(float a)
{
    uint32_t u;
    memcpy(&u, &a, sizeof u);
    return (u & 0x80000000u) | (0x7FFFFFFFu - (u & 0x7FFFFFFFu));
}

/* The rank as an ascending 64-bit key: rank_hi, then lower index. */
static uint64_t rank_key(float a, uint32_t i) { return (uint64_t)rank_hi(a) << 32 | i; }

/* Sorts (idx, ar)[0..n) by rank, best first: an in-place radix sort on
 * the key's bytes from the top (shift 56 first), insertion sort for short
 * runs. The key is a total order, so the result is the heap sort's. */
static void rank_sort(uint32_t *idx, float *ar, size_t n, int shift)
{
    if (n <= 64) {
        for (size_t a = 1; a < n; a++) {
            uint32_t ti = idx[a];
            float ta = ar[a];
            uint64_t k = rank_key(ta, ti);
            size_t b = a;
            for (; b > 0 && rank_key(ar[b - 1], idx[b - 1]) > k; b--)
                idx[b] = idx[b - 1], ar[b] = ar[b - 1];
            idx[b] = ti, ar[b] = ta;
        }
        return;
    }
    uint32_t end[256], next[256];
    memset(end, 0, sizeof end);
    for (size_t e = 0; e < n; e++)
        end[rank_key(ar[e], idx[e]) >> shift & 255]++;
    uint32_t at = 0;
    for (int d = 0; d < 256; d++)
        next[d] = at, at += end[d], end[d] = at;
    for (int d = 0; d < 256; d++) {
        while (next[d] < end[d]) {
            size_t e = next[d];
            unsigned t = (unsigned)(rank_key(ar[e], idx[e]) >> shift & 255);
            if (t == (unsigned)d)
                next[d]++;
            else
                swap(idx, ar, e, next[t]++);
        }
    }
    if (!shift)
        return;
    size_t lo = 0;
    for (int d = 0; d < 256; d++) {
        if (end[d] - lo > 1)
            rank_sort(idx + lo, ar + lo, end[d] - lo, shift - 8);
        lo = end[d];
    }
}

/* rank_sort's order when the entries are in increasing index order and
 * the arrays have room for n more: a stable sort by rank_hi, four byte
 * passes from the low byte through (idx, ar)[n, 2n) and back, so equal
 * areas keep their index order. Passes whose byte is the same for every
 * entry are skipped. */
static void rank_sort_lsd(uint32_t *idx, float *ar, size_t n)
{
    uint32_t cnt[4][256];
    memset(cnt, 0, sizeof cnt);
    for (size_t e = 0; e < n; e++) {
        uint32_t k = rank_hi(ar[e]);
        for (int d = 0; d < 4; d++)
            cnt[d][k >> (8 * d) & 255]++;
    }
    uint32_t *si = idx, *di = idx + n;
    float *sa = ar, *da = ar + n;
    for (int d = 0; d < 4; d++) {
        uint32_t at = 0, one = 0;
        for (int v = 0; v < 256; v++) {
            uint32_t c = cnt[d][v];
            one |= c == n;
            cnt[d][v] = at, at += c;
        }
        if (one)
            continue;
        for (size_t e = 0; e < n; e++) {
            uint32_t t = cnt[d][rank_hi(sa[e]) >> (8 * d) & 255]++;
            di[t] = si[e], da[t] = sa[e];
        }
        uint32_t *ti = si;
        float *ta = sa;
        si = di, sa = da, di = ti, da = ta;
    }
    if (si != idx) {
        memcpy(idx, si, n * sizeof *idx);
        memcpy(ar, sa, n * sizeof *ar);
    }
}

/* Min-heap (the lowest rank at 0) of n entries: entry k sifted down. */
static void sift_down(uint32_t *idx, float *ar, size_t n, size_t k)
{
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n)
            return;
        if (c + 1 < n && below(ar[c + 1], idx[c + 1], ar[c], idx[c]))
            c++;
        if (!below(ar[c], idx[c], ar[k], idx[k]))
            return;
        swap(idx, ar, k, c);
        k = c;
    }
}

/* Candidates go to the caller's arrays until they hold max; only then
 * do they become a heap, each later candidate replacing the lowest rank
 * it beats. */
static void offer(uint32_t *idx, float *ar, size_t max, size_t *n, int *heap, float area,
                  uint32_t i)
{
    if (*n < max) {
        idx[*n] = i, ar[(*n)++] = area;
        return;
    }
    if (!*heap) {
        for (size_t e = max / 2; e-- > 0;)
            sift_down(idx, ar, max, e);
        *heap = 1;
    }
    if (below(ar[0], idx[0], area, i)) {
        idx[0] = i, ar[0] = area;
        sift_down(idx, ar, max, 0);
    }
}

/* For max <= SATC_PICK_SMALL, candidates go to a buffer on the stack
 * instead of the heap: when it fills, a selection keeps the max best and
 * only candidates ranking above the worst of those are taken after it.
 * The k-th best of a stream changes rarely, so this costs a compare per
 * candidate where the heap paid a sift (with its mispredicted branches)
 * per replacement. Both give the same set; the rank is a total order. */
#define SATC_PICK_SMALL 1024
#define SATC_PICK_BUF 1536

typedef struct cand {
    float area;
    uint32_t i;
} cand;

static int cbelow(cand a, cand b) { return below(a.area, a.i, b.area, b.i); }

/* Moves the k best of c[0..m) (k < m) to c[0..k): quickselect, the
 * median of three as pivot. */
static void select_best(cand *c, size_t m, size_t k)
{
    size_t lo = 0, hi = m;
    while (hi - lo > 1) {
        size_t a = lo, b = lo + (hi - lo) / 2, z = hi - 1, mid;
        if (cbelow(c[a], c[b]))
            mid = cbelow(c[b], c[z]) ? b : cbelow(c[a], c[z]) ? z : a;
        else
            mid = cbelow(c[a], c[z]) ? a : cbelow(c[b], c[z]) ? z : b;
        cand t = c[mid];
        c[mid] = c[z], c[z] = t;
        size_t s = lo;
        for (size_t x = lo; x < z; x++)
            if (cbelow(t, c[x])) {
                cand u = c[x];
                c[x] = c[s], c[s] = u, s++;
            }
        c[z] = c[s], c[s] = t;
        if (s == k)
            return;
        if (k < s)
            hi = s;
        else
            lo = s + 1;
    }
}

typedef struct buf {
    cand c[SATC_PICK_BUF];
    size_t m, k;
    int full;  /* a selection has run: worst holds the threshold */
    cand worst;
} buf;

static void buf_offer(buf *u, float area, uint32_t i)
{
    cand x = {area, i};
    if (u->full && !cbelow(u->worst, x))
        return;
    u->c[u->m++] = x;
    if (u->m < SATC_PICK_BUF)
        return;
    select_best(u->c, u->m, u->k);
    u->m = u->k, u->full = 1;
    u->worst = u->c[0];
    for (size_t e = 1; e < u->k; e++)
        if (cbelow(u->c[e], u->worst))
            u->worst = u->c[e];
}

/* The ranking of both entry points; prev (strictly ascending, nprev of
 * them; NULL: every volume counts as in it) is the first set. */
static satc_status pick(const satc_pyramid *p, const satc_batch *b, size_t first, size_t count,
                        const uint32_t *prev, size_t nprev, float min_texels, size_t max,
                        uint32_t *indices, float *areas, size_t *npicked)
{
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    if (!npicked || (max && (!indices || !areas)) || (nprev && !prev))
        return SATC_ERR_NULL;
    for (size_t q = 1; q < nprev; q++)
        if (prev[q] <= prev[q - 1])
            return SATC_ERR_RANGE;
    if (!(min_texels >= 0) || min_texels > 3.4e38f)
        return SATC_ERR_BOUNDS;
    st = satc_check_call(&p->view, b, first, count, SATC_CONSERVATIVE, 1);
    if (st != SATC_OK)
        return st;
    const satc_kernels *k = satc_kernels_for(satc_isa_active());
    const satc_frustum *f = &p->view;
    satc_kernel_fn fn = k->fn[b->form][satc_kind_col(f)];
    satc_occl_fn ofn = k->occl[b->form][f->kind == SATC_FRUSTUM_ORTHOGRAPHIC];
    satc_occl_consts oc;
    satc_occl_consts_init(p, &oc);
    /* A volume reaching the near plane has no rectangle the test trusts:
     * it may cover any part of the image, so it ranks as all of it. */
    const float whole = (float)p->width * (float)p->height;
    float rect[SATC_OC_N][SATC_CHUNK];
    uint64_t vis[SATC_CHUNK_WORDS], in[SATC_CHUNK_WORDS], test[SATC_CHUNK_WORDS];
    size_t n = 0, q = 0;
    int heap = 0;
    buf u;
    int small = max <= SATC_PICK_SMALL;
    u.m = 0, u.k = max, u.full = 0;
    for (size_t done = 0; done < count; done += SATC_CHUNK) {
        size_t m = count - done < SATC_CHUNK ? count - done : SATC_CHUNK;
        unsigned fl = done + m == count ? SATC_K_LAST : 0u;
        fn(f, b, first + done, m, fl, vis, in);
        ofn(f, &oc, b, first + done, m, fl, vis, rect, test);
        for (size_t w = 0; w < SATC_CHUNK_WORDS; w++) {
            for (uint64_t bits = vis[w]; bits; bits &= bits - 1) {
                size_t j = w * 64 + (size_t)__builtin_ctzll(bits);
                float area;
                if (test[w] >> (j % 64) & 1) {
                    area = (rect[SATC_OC_COL1][j] - rect[SATC_OC_COL0][j]) *
                           (rect[SATC_OC_ROW1][j] - rect[SATC_OC_ROW0][j]);
                } else {
                    if (!isfinite(rect[SATC_OC_ZMIN][j]))
                        continue; /* non-finite: the rasterizer draws nothing of it */
                    area = whole;
                }
                if (!(area >= min_texels) || !max)
                    continue;
                size_t at = first + done + j;
                if (prev) { /* outside the first set: the sign bit */
                    while (q < nprev && prev[q] < at)
                        q++;
                    if (q == nprev || prev[q] != at)
                        area = -area;
                }
                if (small)
                    buf_offer(&u, area, (uint32_t)at);
                else
                    offer(indices, areas, max, &n, &heap, area, (uint32_t)at);
            }
        }
    }
    if (small) { /* the best max of the buffer, made a heap */
        if (u.m > max)
            select_best(u.c, u.m, max);
        n = u.m < max ? u.m : max;
        for (size_t e = 0; e < n; e++)
            indices[e] = u.c[e].i, areas[e] = u.c[e].area;
    }
    if (!small && !heap && n <= max / 2 && n > 256 && n <= UINT32_MAX) {
        rank_sort_lsd(indices, areas, n); /* in index order: the heap never started */
    } else if (n <= UINT32_MAX) {
        rank_sort(indices, areas, n, 56);
    } else { /* past the radix sort's counts: a heap sort, the lowest rank to the end */
        for (size_t e = n / 2; e-- > 0;)
            sift_down(indices, areas, n, e);
        for (size_t e = n; e > 1; e--) {
            swap(indices, areas, 0, e - 1);
            sift_down(indices, areas, e - 1, 0);
        }
    }
    for (size_t e = 0; e < n; e++)
        areas[e] = fabsf(areas[e]);
    *npicked = n;
    return SATC_OK;
}

satc_status satc_occluders_pick(const satc_pyramid *p, const satc_batch *b, size_t first,
                                size_t count, float min_texels, size_t max, uint32_t *indices,
                                float *areas, size_t *npicked)
{
    return pick(p, b, first, count, NULL, 0, min_texels, max, indices, areas, npicked);
}

satc_status satc_occluders_pick_first(const satc_pyramid *p, const satc_batch *b, size_t first,
                                      size_t count, const uint32_t *prev, size_t nprev,
                                      float min_texels, size_t max, uint32_t *indices,
                                      float *areas, size_t *npicked)
{
    if (nprev && !prev)
        return SATC_ERR_NULL;
    /* an empty first set ranks every volume alike: the plain ranking */
    return pick(p, b, first, count, nprev ? prev : NULL, nprev, min_texels, max, indices, areas,
                npicked);
}
