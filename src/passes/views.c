/* satc_cull_views: one pass over a batch for many views. Each chunk of
 * volumes is read from memory by the first view's kernel and stays in
 * cache for the others; every view runs the same kernel as satc_cull, so
 * its bits are satc_cull's. */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__GNUC__)
#define SATC_NOINLINE __attribute__((noinline))
#else
#define SATC_NOINLINE
#endif

#include "passes.h"
#include "views_grouped.h"
#include "views_pre.h"

static satc_status check_views(const satc_frustum *views, size_t nviews, const satc_batch *b,
                               size_t first, size_t count, satc_mode mode,
                               const satc_view_results *out)
{
    if (!views || !b || !out)
        return SATC_ERR_NULL;
    if (nviews == 0 || nviews > SATC_MAX_VIEWS)
        return SATC_ERR_RANGE;
    int want_indices = 0;
    for (size_t v = 0; v < nviews; v++)
        want_indices |= out->indices && out->indices[v];
    for (size_t v = 0; v < nviews; v++) {
        satc_status st = satc_check_call(&views[v], b, first, count, mode, want_indices);
        if (st != SATC_OK)
            return st;
    }
    return count ? satc_check_groups(b) : SATC_OK;
}

/* Bit v of the mask word of each visible volume in a chunk (one loop per
 * width: the switch out of the per-bit loop). A full word (a group
 * inside the view) in one loop the compiler vectorises, without the
 * chain of bit scans. */
#define SET_MASKS(T)                                                                              \
    do {                                                                                          \
        T *m_ = (T *)masks + base;                                                                \
        const T b_ = (T)((T)1 << v);                                                              \
        for (size_t w = 0; w < SATC_CHUNK_WORDS; w++) {                                           \
            if (vis[w] == ~(uint64_t)0) {                                                         \
                for (size_t j = 0; j < 64; j++)                                                   \
                    m_[w * 64 + j] |= b_;                                                         \
                continue;                                                                         \
            }                                                                                     \
            for (uint64_t m = vis[w]; m; m &= m - 1)                                              \
                m_[w * 64 + (size_t)__builtin_ctzll(m)] |= b_;                                    \
        }                                                                                         \
    } while (0)

static void set_masks(void *masks, size_t bytes, size_t base, const uint64_t *vis, size_t v)
{
    switch (bytes) {
    case 1: SET_MASKS(uint8_t); break;
    case 2: SET_MASKS(uint16_t); break;
    case 4: SET_MASKS(uint32_t); break;
    default: SET_MASKS(uint64_t); break;
    }
}
#undef SET_MASKS

/* SWAR count (the baseline x86-64 has no POPCNT). */
static size_t count_bits(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (size_t)((x * 0x0101010101010101ull) >> 56);
}

/* Volumes per step of a pass sharing rows (the rows' length), and per
 * step otherwise (the prefilter's chunk, the kernels' most). */
#define SHARE_STEP 512
#define STEP SATC_CHUNK

/* Rows a pass keeps on the stack (the AABB and min/max forms' 6; the
 * OBB and half-axis forms' records are read by each view's kernel). */
#define PRE_ROWS 6

/* The batch of the same form over the rows soa_copy wrote. */
static satc_batch rows_batch(const satc_batch *b, float *rows)
{
    satc_batch r = *b;
    const satc_vec3s *v[5];
    const satc_floats *f;
    int nv = satc_batch_streams(&r, v, &f);
    for (int q = 0; q < nv; q++) {
        float *x = rows + (size_t)(3 * q) * SHARE_STEP;
        *(satc_vec3s *)(void *)v[q] = SATC_VEC3S_SOA(x, x + SHARE_STEP, x + 2 * SHARE_STEP);
    }
    if (f)
        *(satc_floats *)(void *)f = (satc_floats){rows + (size_t)(3 * nv) * SHARE_STEP, sizeof(float)};
    r.groups = NULL;
    return r;
}

/* Whether the views share one copy of each chunk's streams: the loads of
 * records and float3 arrays transpose, and the copy does that once for
 * all views. Not for plain arrays already, nor with groups, which skip
 * most reads anyway, nor for streams that need more than PRE_ROWS rows. */
static int share_loads(const satc_kernels *k, const satc_batch *b, size_t nviews)
{
    const satc_vec3s *v[5];
    const satc_floats *f;
    int nv = satc_batch_streams(b, v, &f);
    if (!k->soa || nviews < 2 || nv < 0 || b->groups || 3 * nv + (f != NULL) > PRE_ROWS)
        return 0;
    int plain = !f || f->stride == sizeof(float);
    for (int q = 0; q < nv; q++)
        plain &= v[q]->stride == sizeof(float);
    return !plain;
}

/* Whether the pass builds bounds of its own (src/views_pre.c): every
 * form, in any layout. Not with the caller's groups, which the views use
 * instead. */
static int prefilter(const satc_kernels *k, const satc_batch *b, size_t nviews)
{
    return k->bounds[b->form] && nviews >= 2 && !b->groups;
}

/* View v's words of the chunk at done into the caller's outputs; its
 * mask bits into masks (words of `bytes`) from word mbase. */
static void emit(const satc_view_results *out, void *masks, size_t bytes, size_t mbase, size_t v,
                 size_t first, size_t done, size_t n, const uint64_t *vis, const uint64_t *in,
                 size_t *visible)
{
    uint8_t *classes = out->classes ? out->classes[v] : NULL;
    uint32_t *indices = out->indices ? out->indices[v] : NULL;
    if (masks)
        set_masks(masks, bytes, mbase, vis, v);
    if (classes)
        satc_put_classes(classes + done, vis, in, n);
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++) {
        if (!indices) {
            *visible += count_bits(vis[w]);
            continue;
        }
        for (uint64_t m = vis[w]; m; m &= m - 1)
            indices[(*visible)++] = (uint32_t)(first + done + w * 64 + (size_t)__builtin_ctzll(m));
    }
}

/* Orthographic views with one origin and frame (bit for bit), in sets of
 * up to SATC_MULTI_MAX that share each volume's load: set[v] is the first
 * view of v's set (v itself when alone). */
static void frame_sets(const satc_kernels *k, const satc_frustum *views, size_t nviews,
                       const satc_batch *b, size_t *set, int *size)
{
    for (size_t v = 0; v < nviews; v++)
        set[v] = v, size[v] = 1;
    if (!k->multi[b->form] || b->groups)
        return;
    for (size_t v = 0; v < nviews; v++) {
        const satc_frustum *f = &views[v];
        if (set[v] != v || f->kind != SATC_FRUSTUM_ORTHOGRAPHIC)
            continue;
        for (size_t u = v + 1; u < nviews && size[v] < SATC_MULTI_MAX; u++) {
            const satc_frustum *g = &views[u];
            if (set[u] == u && size[u] == 1 && g->kind == SATC_FRUSTUM_ORTHOGRAPHIC &&
                !memcmp(f->origin, g->origin, sizeof f->origin) &&
                !memcmp(f->frame, g->frame, sizeof f->frame))
                set[u] = v, size[v]++;
        }
    }
}

/* satc_views_grouped's emit: the caller's outputs, the chunk's mask
 * words gathered in cm (in the caller's width, in L1 while the views of
 * the chunk set their bits) and written once per chunk, every word: no
 * memset of the caller's masks beforehand, no read-modify-write of them. */
typedef struct gemit {
    const satc_view_results *out;
    size_t bytes, first, *visible;
    int stream; /* the masks through streaming stores */
    int dirty;  /* cm holds bits */
    uint64_t cm[SATC_CHUNK];
} gemit;

static void grouped_emit(void *ctx, size_t v, size_t done, size_t n, const uint64_t *vis,
                         const uint64_t *in)
{
    gemit *e = ctx;
    emit(e->out, e->out->masks ? e->cm : NULL, e->bytes, 0, v, e->first, done, n, vis, in,
         &e->visible[v]);
    e->dirty = 1;
}

/* Copies bytes (a multiple of 8, 8-aligned) to d, which no one reads
 * soon: streaming stores on x86 (SSE2, the x86-64 baseline), without
 * the read for ownership of each line a plain store costs. */
static void stream_copy(void *d, const void *s, size_t bytes)
{
#if defined(__SSE2__)
    char *p = d;
    const char *q = s;
    if (((uintptr_t)p & 15) && bytes >= 8)
        memcpy(p, q, 8), p += 8, q += 8, bytes -= 8;
    for (; bytes >= 16; p += 16, q += 16, bytes -= 16)
        _mm_stream_si128((__m128i *)(void *)p, _mm_loadu_si128((const __m128i *)(const void *)q));
    memcpy(p, q, bytes);
#else
    memcpy(d, s, bytes);
#endif
}

/* Streaming only where the masks are far larger than the caches' share of
 * them (glibc's memset of the flat pass makes the same choice). */
#define STREAM_BYTES ((size_t)1 << 20)

static void grouped_flush(void *ctx, size_t done, size_t n)
{
    gemit *e = ctx;
    if (!e->out->masks)
        return;
    size_t len = n * e->bytes;
    void *d = (char *)e->out->masks + done * e->bytes;
    if (e->stream && len % 8 == 0)
        stream_copy(d, e->cm, len);
    else
        memcpy(d, e->cm, len);
    if (e->dirty)
        memset(e->cm, 0, len), e->dirty = 0;
}

/* The pass without the caller's groups (its own prefilter, shared rows,
 * frame sets); out of line, so that its 45 KB of stack are not also
 * taken by the pass with groups. */
static SATC_NOINLINE void run_flat(const satc_kernels *k, const satc_frustum *views,
                                   size_t nviews, const satc_batch *b, size_t first,
                                   size_t count, unsigned exact, const satc_view_results *out,
                                   size_t bytes, size_t *visible)
{
    size_t set[SATC_MAX_VIEWS];
    int size[SATC_MAX_VIEWS];
    int pre = prefilter(k, b, nviews), share = share_loads(k, b, nviews);
    frame_sets(k, views, nviews, b, set, size); /* used where the prefilter is off */
    /* The views' plane tests (with the prefilter) and rows for PRE_ROWS
     * streams (shared only where the prefilter is off: the prefilter
     * needs a SIMD path, as the rows do): about 45 KB of stack. */
    satc_gview gv[SATC_MAX_VIEWS];
    float rows[PRE_ROWS * SHARE_STEP];
    for (size_t v = 0; pre && v < nviews; v++)
        satc_gview_init(&gv[v], &views[v], b);
    uint64_t vis[SATC_MULTI_MAX][SATC_CHUNK_WORDS], in[SATC_MULTI_MAX][SATC_CHUNK_WORDS];
    float mlo[3 * SATC_PRE_GROUPS], mhi[3 * SATC_PRE_GROUPS], mxs[SATC_PRE_GROUPS];
    satc_pre pc;
    satc_batch rb;
    if (share)
        rb = rows_batch(b, rows);
    /* The prefilter stays on while it decides at least a quarter of the
     * volumes x views; off, it is tried again every 32nd chunk (a batch in
     * no spatial order pays the bounds for nothing). */
    int pre_on = pre;
    size_t chunk = 0;
    for (size_t done = 0, n; done < count; done += n, chunk++) {
        int on = pre && (pre_on || chunk % 32 == 0), sh = share && !on;
        size_t step = sh ? SHARE_STEP : STEP;
        n = count - done < step ? count - done : step;
        unsigned last = done + n == count ? SATC_K_LAST : 0u;
        const satc_batch *cb = sh ? &rb : b;
        size_t at = sh ? 0 : first + done; /* where the chunk starts in cb */
        unsigned lastc = sh ? SATC_K_LAST : last;
        if (sh)
            k->soa(b, first + done, n, last, rows, SHARE_STEP);
        if (on) {
            k->bounds[b->form](b, first + done, n, SATC_MICRO, last, mlo, mhi, mxs);
            satc_pre_chunk(&pc, mlo, mhi, mxs, n / SATC_MICRO, n, b->form);
        }
        size_t undecided = 0;
        for (size_t v = 0; v < nviews; v++) {
            if (!on && set[v] != v)
                continue; /* run with its set's first view */
            if (!on && size[v] > 1) {
                const satc_frustum *members[SATC_MULTI_MAX];
                size_t ids[SATC_MULTI_MAX];
                unsigned cls = 0;
                int m = 0;
                for (size_t w = v; w < nviews && m < size[v]; w++) {
                    if (set[w] == v) {
                        ids[m] = w, members[m++] = &views[w];
                        cls |= out->classes && out->classes[w] ? SATC_K_CLASSIFY : 0u;
                    }
                }
                k->multi[b->form](members, m, cb, at, n, exact | cls | lastc, vis, in);
                for (int j = 0; j < m; j++)
                    emit(out, out->masks, bytes, done, ids[j], first, done, n, vis[j], in[j],
                         &visible[ids[j]]);
                continue;
            }
            const satc_frustum *f = &views[v];
            unsigned flags = exact | (out->classes && out->classes[v] ? SATC_K_CLASSIFY : 0u);
            satc_kernel_fn fn = k->fn[b->form][satc_kind_col(f)];
            if (on)
                undecided += satc_pre_run(&pc, fn, k->fn[SATC_FORM_AABB][satc_kind_col(f)], f,
                                          &gv[v], b, first + done, n, flags | last, vis[0], in[0]);
            else if (sh)
                fn(f, &rb, 0, n, flags | SATC_K_LAST, vis[0], in[0]);
            else
                fn(f, b, first + done, n, flags | last, vis[0], in[0]);
            emit(out, out->masks, bytes, done, v, first, done, n, vis[0], in[0], &visible[v]);
        }
        if (on)
            pre_on = undecided * 4 <= 3 * nviews * n;
    }
}

/* The pass with the caller's groups; out of line for its stack (the
 * chunk's mask words), as run_flat. */
static SATC_NOINLINE void run_grouped(const satc_kernels *k, const satc_frustum *views,
                                         size_t nviews, const satc_batch *b, size_t first,
                                         size_t count, unsigned exact,
                                         const satc_view_results *out, size_t bytes,
                                         size_t *visible)
{
    gemit e;
    e.out = out, e.bytes = bytes, e.first = first, e.visible = visible, e.dirty = 0;
    e.stream = count * bytes >= STREAM_BYTES && (uintptr_t)out->masks % 8 == 0;
    memset(e.cm, 0, sizeof e.cm);
    satc_views_grouped(k, views, nviews, b, first, count, exact, out, grouped_emit,
                       grouped_flush, &e);
#if defined(__SSE2__)
    if (e.stream)
        _mm_sfence(); /* the streamed masks ordered before the return */
#endif
}

static satc_status run_views(const satc_kernels *k, const satc_frustum *views, size_t nviews,
                             const satc_batch *b, size_t first, size_t count, satc_mode mode,
                             satc_view_results *out)
{
    satc_status st = check_views(views, nviews, b, first, count, mode, out);
    if (st != SATC_OK)
        return st;
    size_t bytes = nviews <= 8 ? 1 : nviews <= 16 ? 2 : nviews <= 32 ? 4 : 8;
    size_t visible[SATC_MAX_VIEWS] = {0};
    const unsigned exact = mode == SATC_EXACT ? SATC_K_EXACT : 0u;
    if (b->groups && count) {
        run_grouped(k, views, nviews, b, first, count, exact, out, bytes, visible);
    } else if (count) {
        if (out->masks)
            memset(out->masks, 0, count * bytes);
        run_flat(k, views, nviews, b, first, count, exact, out, bytes, visible);
    }
    if (out->visible)
        memcpy(out->visible, visible, nviews * sizeof visible[0]);
    return SATC_OK;
}

satc_status satc_cull_views(const satc_frustum *views, size_t nviews, const satc_batch *b,
                            size_t first, size_t count, satc_mode mode, satc_view_results *out)
{
    return run_views(satc_kernels_default_n(count), views, nviews, b, first, count, mode,
                     out);
}

satc_status satc_cull_views_isa(satc_isa isa, const satc_frustum *views, size_t nviews,
                                const satc_batch *b, size_t first, size_t count, satc_mode mode,
                                satc_view_results *out)
{
    satc_status st;
    const satc_kernels *k = satc_kernels_named(isa, &st);
    return k ? run_views(k, views, nviews, b, first, count, mode, out) : st;
}
