/*
 * Depth keys and the back-to-front order of the visible volumes (what a
 * splat renderer sorts every frame): satc_cull_depth takes each chunk's
 * depths right after its cull (run.c), satc_sort_depth keys and sorts
 * them. Scalar code shared by every path, so the keys and the order are
 * the same bits everywhere; the sorts are stable (equal keys keep
 * increasing index order), by counting (16-bit keys; for large calls a
 * low-byte pass then a high-byte pass) or by three 11-bit passes (32-bit
 * keys).
 */
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "passes.h"
#include "../kernels/key16.h"

#define HIST16 65536u
#define DIG 11
#define HIST11 (1u << DIG)

static size_t round8(size_t x) { return (x + 7) & ~(size_t)7; }

size_t satc_depth_scratch_bytes(size_t count, unsigned sort)
{
    if (!count || sort > SATC_SORT_32) /* an unknown order needs nothing: the calls reject it */
        return 0;
    if (count > SIZE_MAX / 16 - HIST16)
        return SIZE_MAX;
    size_t b = round8(4 * count); /* depths, when the caller keeps none */
    if (sort == SATC_SORT_16)
        b += round8(2 * count) + 4 * (size_t)HIST16;
    else if (sort == SATC_SORT_32)
        b += 3 * round8(4 * count) + 3 * 4 * (size_t)HIST11;
    return b;
}

/* The float order as an unsigned integer: larger is farther; -0 as +0,
 * NaN above +Inf. */
static inline uint32_t key32_of(float d)
{
    if (d != d)
        return UINT32_MAX;
    if (d == 0.0f)
        d = 0.0f;
    uint32_t u;
    memcpy(&u, &d, sizeof u);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

typedef struct range16 {
    double lo, scale;
} range16;

static range16 range_from(float lo, float hi)
{
    range16 r = {lo, hi > lo ? 65535.0 / ((double)hi - (double)lo) : 0.0};
    return r;
}

/* The least and greatest finite depth, compared as integer orders (the
 * bits with the low 31 flipped when negative; -0 just below +0, which the
 * keys do not tell apart) under masks, so that the loop vectorizes. */
static range16 range_of(const float *depth, size_t n)
{
    int32_t l = INT32_MAX, h = INT32_MIN;
    for (size_t i = 0; i < n; i++) {
        int32_t x;
        memcpy(&x, &depth[i], sizeof x);
        int32_t o = x ^ ((x >> 31) & 0x7fffffff);
        int32_t fin = -(int32_t)((x & 0x7fffffff) < 0x7f800000);
        int32_t a = (o & fin) | (INT32_MAX & ~fin), c = (o & fin) | (INT32_MIN & ~fin);
        l = l < a ? l : a;
        h = h > c ? h : c;
    }
    if (l > h)
        return range_from(INFINITY, -INFINITY);
    int32_t ul = l ^ ((l >> 31) & 0x7fffffff), uh = h ^ ((h >> 31) & 0x7fffffff);
    float lo, hi;
    memcpy(&lo, &ul, sizeof lo), memcpy(&hi, &uh, sizeof hi);
    return range_from(lo, hi);
}


/* Keys of a block small enough to stay in L1 for the counts that follow. */
#define KEY_BLOCK 1024

/* Three ways to the one order (a stable sort by key is unique). From
 * RADIX_MIN keys, two byte passes through write-combining lines: one
 * counting pass over 65536 counters scatters writes that miss the cache
 * once the order outgrows it (Xeon, 2 MB of L2, satc_cull_depth on 1 M
 * splats with 211 k kept: 4.85 against 5.39 ms). Below PLAIN_MAX, the
 * same two passes storing straight to their places: clearing and summing
 * 65536 counters cost more than they do (AMD family 19h, splats in
 * cache: 7.0 against 14.0 ns per splat with 3.6 k kept, 5.6 against 7.9
 * with 29 k). Otherwise, in WebAssembly from 2^15 keys, the counting
 * pass: there the write-combining lines lost at every size (node 20,
 * Xeon, 1 M splats with 524 k kept: 19.7 against 14.3 ms for the call)
 * and the plain passes from about 2^15 (29 k kept: 19.5 against 18.4 ns
 * per splat; 3.6 k kept: 12.9 against 26). */
#if defined(__wasm__)
#define RADIX_MIN SIZE_MAX
#define PLAIN_MAX ((size_t)1 << 15)
#else
#define RADIX_MIN ((size_t)1 << 17)
#define PLAIN_MAX RADIX_MIN
#endif

/* Counts of both bytes of c = 65535 - key, four sub-histograms each (h
 * for the high byte, l for the low, 4 x 256 each), so that equal
 * neighbours do not wait on each other's increments. */
static void count_bytes(const uint16_t *k, size_t n, uint32_t *h, uint32_t *l)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint32_t c0 = 65535u - k[i], c1 = 65535u - k[i + 1];
        uint32_t c2 = 65535u - k[i + 2], c3 = 65535u - k[i + 3];
        h[c0 >> 8]++, l[c0 & 255]++, h[256 + (c1 >> 8)]++, l[256 + (c1 & 255)]++;
        h[512 + (c2 >> 8)]++, l[512 + (c2 & 255)]++, h[768 + (c3 >> 8)]++, l[768 + (c3 & 255)]++;
    }
    for (; i < n; i++) {
        uint32_t c = 65535u - k[i];
        h[c >> 8]++, l[c & 255]++;
    }
}

/* The four sub-histograms' sums, as exclusive prefix sums, into h[0, 256). */
static void prefix4(uint32_t *h)
{
    uint32_t at = 0;
    for (size_t v = 0; v < 256; v++) {
        uint32_t c = h[v] + h[256 + v] + h[512 + v] + h[768 + v];
        h[v] = at;
        at += c;
    }
}

/* Software write-combining for a scatter to 256 buckets: each bucket's
 * next words gather in a 64-byte line of the buffer that mirrors their
 * place in dst, and a line goes out whole once filled, so each store of
 * the scatter stays in L1 instead of touching one of 256 pages far
 * apart (a TLB miss on most stores otherwise). at: each bucket's next place
 * (the exclusive prefix sums), first: its start, both in dst's words. */
#define WC_LINE 16u
typedef struct wc_state {
    uint32_t line[256][WC_LINE]; /* 64-byte aligned in the scratch */
    uint32_t at[256], first[256];
    uint32_t *dst;
    uint32_t a0; /* dst's word offset within its 64-byte line */
} wc_state;

static void wc_init(wc_state *w, const uint32_t *at, uint32_t *dst)
{
    w->dst = dst;
    w->a0 = (uint32_t)(((uintptr_t)dst / sizeof *dst) & (WC_LINE - 1));
    for (size_t b = 0; b < 256; b++)
        w->at[b] = w->first[b] = at[b];
}

/* A line of bucket b just filled (its last word at place e - 1, in slot
 * 15): out to dst, without the words before the bucket's start (another
 * bucket's, which that bucket writes itself). */
static void wc_flush(wc_state *w, unsigned b, uint32_t e)
{
    const uint32_t *src = w->line[b];
    if (e - w->first[b] < WC_LINE) {
        uint32_t skip = WC_LINE - (e - w->first[b]);
        memcpy(w->dst + w->first[b], src + skip, (WC_LINE - skip) * sizeof *src);
    } else {
#if defined(__SSE2__)
        /* a whole aligned line: written without reading it first */
        __m128i *d = (__m128i *)(void *)(w->dst + (e - WC_LINE));
        const __m128i *q = (const __m128i *)(const void *)src;
        _mm_stream_si128(d, _mm_load_si128(q));
        _mm_stream_si128(d + 1, _mm_load_si128(q + 1));
        _mm_stream_si128(d + 2, _mm_load_si128(q + 2));
        _mm_stream_si128(d + 3, _mm_load_si128(q + 3));
#else
        memcpy(w->dst + (e - WC_LINE), src, WC_LINE * sizeof *src);
#endif
    }
}

static inline void wc_put(wc_state *w, unsigned b, uint32_t word)
{
    uint32_t at = w->at[b]++;
    uint32_t slot = (at + w->a0) & (WC_LINE - 1);
    w->line[b][slot] = word;
    if (slot == WC_LINE - 1)
        wc_flush(w, b, at + 1);
}

/* The partial lines left at the end. */
static void wc_finish(wc_state *w)
{
    for (unsigned b = 0; b < 256; b++) {
        uint32_t e = w->at[b], s = e - ((e + w->a0) & (WC_LINE - 1));
        if (s < w->first[b])
            s = w->first[b];
        if (e > s)
            memcpy(w->dst + s, &w->line[b][(s + w->a0) & (WC_LINE - 1)], (e - s) * sizeof(uint32_t));
    }
#if defined(__SSE2__)
    _mm_sfence(); /* the streamed lines before any later read */
#endif
}

/* Decreasing key16 order, stable (equal keys in input order). From
 * RADIX_MIN keys, indices below 2^24, with tmp (4 n bytes): the keys and
 * the counts of both bytes of c = 65535 - key in one pass; each index,
 * with c's high byte packed in one word, to its low byte's bucket of tmp;
 * then each word of tmp, in order, to its high byte's place (two stable
 * passes of 256 places written at a time, not 65536, through the
 * write-combining lines above; measured faster than ordering each
 * high-byte bucket by its low byte, which counts every key a second
 * time). Below PLAIN_MAX keys the same two passes without those lines.
 * Otherwise one counting pass. The same permutation every way: a stable
 * sort by key is unique. hist: HIST16 words, 64-byte aligned
 * from its second half on (the write-combining state lies there). */
static void sort16(satc_key16_fn keys, const float *depth, range16 rg, uint16_t *k,
                   const uint32_t *idx, size_t n, uint32_t *hist, uint32_t *tmp, uint32_t *sorted,
                   int scan)
{
    uint32_t *hh = hist, *hl = hist + 1024, big = 0;
    scan = scan && (n < PLAIN_MAX || n >= RADIX_MIN);
    memset(hh, 0, 2048 * sizeof *hh);
    for (size_t b = 0; b < n; b += KEY_BLOCK) {
        size_t e = n - b < KEY_BLOCK ? n : b + KEY_BLOCK;
        keys(depth + b, e - b, rg.lo, rg.scale, k + b);
        count_bytes(k + b, e - b, hh, hl);
        if (scan)
            for (size_t i = b; i < e; i++)
                big |= idx[i];
    }
    if (tmp && n < PLAIN_MAX && n < RADIX_MIN && big < (1u << 24)) {
        /* the same two passes, each store straight to its place */
        prefix4(hh), prefix4(hl);
        for (size_t i = 0; i < n; i++) {
            uint32_t c = 65535u - k[i];
            tmp[hl[c & 255]++] = idx[i] << 8 | c >> 8;
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t x = tmp[i];
            sorted[hh[x & 255]++] = x >> 8;
        }
        return;
    }
    if (tmp && n >= RADIX_MIN && big < (1u << 24)) {
        /* 2048 words in, a 64-byte boundary: room for the state */
        uintptr_t a = ((uintptr_t)(hist + 2048) + 63) & ~(uintptr_t)63;
        wc_state *w = (wc_state *)(void *)a;
        prefix4(hh), prefix4(hl);
        wc_init(w, hl, tmp);
        for (size_t i = 0; i < n; i++) {
            uint32_t c = 65535u - k[i];
            wc_put(w, c & 255, idx[i] << 8 | c >> 8);
        }
        wc_finish(w);
        wc_init(w, hh, sorted);
        for (size_t i = 0; i < n; i++) {
            uint32_t x = tmp[i];
            wc_put(w, x & 255, x >> 8);
        }
        wc_finish(w);
        return;
    }
    memset(hist, 0, HIST16 * sizeof *hist);
    for (size_t i = 0; i < n; i++)
        hist[k[i]]++;
    uint32_t at = 0;
    for (size_t v = HIST16; v-- > 0;) {
        uint32_t c = hist[v];
        hist[v] = at;
        at += c;
    }
    for (size_t i = 0; i < n; i++)
        sorted[hist[k[i]]++] = idx[i];
}

/* Decreasing key32 (increasing ~key32), stable: three 11-bit passes. */
static void sort32(const float *depth, const uint32_t *key32, const uint32_t *idx, size_t n,
                   unsigned char *scr, uint32_t *sorted)
{
    uint32_t *ka = (uint32_t *)(void *)scr;
    uint32_t *kb = (uint32_t *)(void *)(scr + round8(4 * n));
    uint32_t *ib = (uint32_t *)(void *)(scr + 2 * round8(4 * n));
    uint32_t *hist = (uint32_t *)(void *)(scr + 3 * round8(4 * n));
    memset(hist, 0, 3 * HIST11 * sizeof *hist);
    for (size_t i = 0; i < n; i++) {
        uint32_t c = ~(key32 ? key32[i] : key32_of(depth[i]));
        hist[c & (HIST11 - 1)]++;
        hist[HIST11 + (c >> DIG & (HIST11 - 1))]++;
        hist[2 * HIST11 + (c >> 2 * DIG)]++;
    }
    for (int p = 0; p < 3; p++) {
        uint32_t at = 0, *h = hist + p * HIST11;
        for (size_t v = 0; v < HIST11; v++) {
            uint32_t c = h[v];
            h[v] = at;
            at += c;
        }
    }
    /* in -> (ka, sorted) -> (kb, ib) -> sorted */
    for (size_t i = 0; i < n; i++) {
        uint32_t c = ~(key32 ? key32[i] : key32_of(depth[i]));
        uint32_t at = hist[c & (HIST11 - 1)]++;
        ka[at] = c, sorted[at] = idx[i];
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t c = ka[i], at = hist[HIST11 + (c >> DIG & (HIST11 - 1))]++;
        kb[at] = c, ib[at] = sorted[i];
    }
    for (size_t i = 0; i < n; i++)
        sorted[hist[2 * HIST11 + (kb[i] >> 2 * DIG)]++] = ib[i];
}

/* Keys and order of validated arguments; scr: the part of the scratch
 * after the depths; tmp: the depths' part (4 n bytes), free once the
 * 16-bit keys are made (the depths may lie there: key32 comes first);
 * scan: the indices may reach 2^24 (0 when known below). */
static void sort_core(satc_key16_fn keys, const float *depth, const uint32_t *idx, size_t n,
                      unsigned sort, uint16_t *key16, uint32_t *key32, uint32_t *sorted,
                      unsigned char *scr, uint32_t *tmp, const float *range, int scan)
{
    if (key32)
        for (size_t i = 0; i < n; i++)
            key32[i] = key32_of(depth[i]);
    if (key16 || (sorted && sort == SATC_SORT_16)) {
        range16 r = range ? range_from(range[0], range[1]) : range_of(depth, n);
        uint16_t *k = key16 ? key16 : (uint16_t *)(void *)scr;
        if (sorted && sort == SATC_SORT_16)
            sort16(keys, depth, r, k, idx, n, (uint32_t *)(void *)(scr + round8(2 * n)), tmp,
                   sorted, scan);
        else
            keys(depth, n, r.lo, r.scale, k);
    }
    if (sorted && sort == SATC_SORT_32)
        sort32(depth, key32, idx, n, scr, sorted);
}

static int sort_known(unsigned sort) { return sort <= SATC_SORT_32; }

satc_status satc_sort_depth(const float *depth, const uint32_t *indices, size_t n, unsigned sort,
                            uint16_t *key16, uint32_t *key32, uint32_t *sorted, void *scratch,
                            size_t scratch_bytes)
{
    if (!sort_known(sort) || (sorted && sort == SATC_SORT_NONE))
        return SATC_ERR_FLAGS;
    if (n > UINT32_MAX)
        return SATC_ERR_RANGE;
    if (!n)
        return SATC_OK;
    size_t need = satc_depth_scratch_bytes(n, sorted ? sort : SATC_SORT_NONE);
    if (!depth || !indices || ((key16 || sorted) && (!scratch || scratch_bytes < need)))
        return SATC_ERR_NULL;
    unsigned char *scr = scratch ? (unsigned char *)scratch + round8(4 * n) : NULL;
    sort_core(satc_kernels_for(satc_isa_active())->key16, depth, indices, n, sort, key16, key32,
              sorted, scr, (uint32_t *)scratch, NULL, 1);
    return SATC_OK;
}

satc_status satc_cull_depth_k(const satc_kernels *k, const satc_frustum *f, const satc_batch *b,
                              size_t first, size_t count, satc_mode mode, satc_results *out,
                              satc_depth_results *d)
{
    satc_status st = satc_check_results(f, b, first, count, mode, out);
    if (st != SATC_OK)
        return st;
    if (!d)
        return SATC_ERR_NULL;
    if (!sort_known(d->sort) || (d->sorted && d->sort == SATC_SORT_NONE) ||
        f->kind == SATC_FRUSTUM_PLANES)
        return SATC_ERR_FLAGS;
    int any = d->depth || d->key16 || d->key32 || d->sorted;
    int need_depth = d->key16 || d->key32 || d->sorted;
    size_t need = satc_depth_scratch_bytes(count, d->sorted ? d->sort : SATC_SORT_NONE);
    if (any && !out->indices)
        return SATC_ERR_NULL;
    if (count && need_depth && (!d->scratch || d->scratch_bytes < need))
        return SATC_ERR_NULL;
    float *depth = d->depth ? d->depth : need_depth && count ? (float *)d->scratch : NULL;
    float range[2];
    satc_cull_chunks(k, f, b, first, count, mode, out, depth, range);
    if (need_depth && out->visible)
        sort_core(k->key16, depth, out->indices, out->visible, d->sort, d->key16, d->key32, d->sorted,
                  (unsigned char *)d->scratch + round8(4 * count), (uint32_t *)d->scratch, range,
                  first + count > ((size_t)1 << 24));
    return SATC_OK;
}

satc_status satc_cull_depth(const satc_frustum *f, const satc_batch *b, size_t first, size_t count,
                            satc_mode mode, satc_results *out, satc_depth_results *d)
{
    return satc_cull_depth_k(satc_kernels_for(satc_isa_active()), f, b, first, count, mode, out, d);
}

satc_status satc_cull_depth_isa(satc_isa isa, const satc_frustum *f, const satc_batch *b,
                                size_t first, size_t count, satc_mode mode, satc_results *out,
                                satc_depth_results *d)
{
    satc_status st;
    const satc_kernels *k = satc_kernels_named(isa, &st);
    return k ? satc_cull_depth_k(k, f, b, first, count, mode, out, d) : st;
}
