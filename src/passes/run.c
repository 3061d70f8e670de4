/* The one-view runner: chunks a range, lets group bounds decide whole
 * groups (groups.c) and runs the kernel on the rest, then formats the bit
 * words as the caller asked (bitmask, classes, indices), the same way for
 * every path. Used by the single cull, the views pass and the queries. */
#include <math.h>
#include <string.h>

#include "passes.h"

size_t satc_group_at(const satc_groups *gs, size_t i)
{
    if (gs->size)
        return i / gs->size < gs->ngroups ? i / gs->size : gs->ngroups;
    size_t lo = 0, hi = gs->ngroups; /* offsets[g + 1] > i for the answer g */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (gs->offsets[mid + 1] > i)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Touches the cache lines of volumes [lo, hi) of stream p (stride bytes
 * apart, 4 bytes each). */
static void fetch(const void *p, size_t stride, size_t lo, size_t hi)
{
    if (!stride || hi <= lo)
        return;
    const char *a = (const char *)p + lo * stride, *e = (const char *)p + (hi - 1) * stride + 4;
    for (; a < e; a += 64)
        __builtin_prefetch(a);
    __builtin_prefetch(e - 1);
}

void satc_prefetch(const satc_batch *b, size_t lo, size_t hi)
{
    const satc_vec3s *v[5];
    const satc_floats *f;
    int nv = satc_batch_streams(b, v, &f);
    if (nv < 0 && b->form == SATC_FORM_TRS) {
        const satc_trs *s = &b->trs;
        v[0] = &s->position, v[1] = &s->scale, nv = 2;
        fetch(s->rotation, s->rotation_stride, lo, hi);
        if (s->local && s->local->mesh)
            fetch(s->local->mesh, s->local->mesh_stride, lo, hi);
        else if (s->local)
            v[2] = &s->local->center, v[3] = &s->local->half, nv = 4;
    } else if (nv < 0) {
        const satc_instances *s = &b->instances;
        fetch(s->matrix, s->stride, lo, hi);
        if (s->mesh)
            fetch(s->mesh, s->mesh_stride, lo, hi);
        else
            v[0] = &s->local_center, v[1] = &s->local_half, nv = 2;
    }
    for (int q = 0; q < nv; q++) {
        fetch(v[q]->x, v[q]->stride, lo, hi);
        if (v[q]->stride < 12) { /* separate component arrays */
            fetch(v[q]->y, v[q]->stride, lo, hi);
            fetch(v[q]->z, v[q]->stride, lo, hi);
        }
    }
    if (f)
        fetch(f->p, f->stride, lo, hi);
}

/* Bits [at, at + n) of dst |= bits [0, n) of src. */
static void or_bits(uint64_t *dst, size_t at, const uint64_t *src, size_t n)
{
    for (size_t j = 0; j < n; j += 64) {
        uint64_t w = src[j / 64];
        if (n - j < 64)
            w &= ((uint64_t)1 << (n - j)) - 1;
        size_t p = at + j, s = p % 64;
        dst[p / 64] |= w << s;
        if (s && p / 64 + 1 < SATC_CHUNK_WORDS)
            dst[p / 64 + 1] |= w >> (64 - s);
    }
}

void satc_set_bits(uint64_t *dst, size_t at, size_t n)
{
    for (size_t p = at; p < at + n;) {
        size_t s = p % 64, len = 64 - s < at + n - p ? 64 - s : at + n - p;
        uint64_t w = len == 64 ? ~(uint64_t)0 : (((uint64_t)1 << len) - 1);
        dst[p / 64] |= w << s;
        p += len;
    }
}

void satc_run_part(satc_kernel_fn fn, const satc_frustum *f, const satc_batch *b, size_t first,
                     size_t end, unsigned flags, size_t lo, size_t hi, uint64_t *vis, uint64_t *in)
{
    uint64_t tv[SATC_CHUNK_WORDS], ti[SATC_CHUNK_WORDS];
    unsigned fl = (flags & ~SATC_K_LAST) | (hi == end ? (flags & SATC_K_LAST) : 0u);
    fn(f, b, lo, hi - lo, fl, tv, ti);
    or_bits(vis, lo - first, tv, hi - lo);
    if (flags & SATC_K_CLASSIFY)
        or_bits(in, lo - first, ti, hi - lo);
}

void satc_chunk_run(satc_kernel_fn fn, const satc_frustum *f, const satc_gview *gv,
                    const satc_batch *b, size_t first, size_t n, unsigned flags, uint64_t *vis,
                    uint64_t *in)
{
    const satc_groups *gs = b->groups;
    if (!gs) {
        fn(f, b, first, n, flags, vis, in);
        return;
    }
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        vis[w] = in[w] = 0;
    size_t end = first + n, run = first; /* [run, i): volumes waiting for the kernel */
    size_t i = first, g = satc_group_at(gs, first);
    while (i < end) {
        size_t lo = end, hi = end;
        if (g < gs->ngroups)
            satc_group_range(gs, g, &lo, &hi);
        if (lo > i) { /* volumes before the next group: one by one */
            i = lo < end ? lo : end;
            continue;
        }
        if (hi > end)
            hi = end;
        float c[3], h[3];
        satc_vec3s_get(&gs->center, g, c);
        satc_vec3s_get(&gs->half, g, h);
        int d = hi > i ? satc_group_decide(gv, c, h) : 0;
        if (d) {
            if (run < i)
                satc_run_part(fn, f, b, first, end, flags, run, i, vis, in);
            if (d > 0) {
                satc_set_bits(vis, i - first, hi - i);
                if (flags & SATC_K_CLASSIFY)
                    satc_set_bits(in, i - first, hi - i);
            }
            run = hi;
        }
        i = hi > i ? hi : i;
        g++;
    }
    if (run < end)
        satc_run_part(fn, f, b, first, end, flags, run, end, vis, in);
}

/* Byte j of the bitmask from bit words: little-endian bit order. Kernels
 * leave bits past n at 0, so the last byte's spare bits come out 0. */
static void put_bits(uint8_t *dst, const uint64_t *w, size_t n)
{
    size_t bytes = (n + 7) / 8, i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; i + 8 <= bytes; i += 8) /* a word's bytes are already in order */
        memcpy(dst + i, &w[i / 8], 8);
#endif
    for (; i < bytes; i++)
        dst[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
}

/* Eight classification bytes from eight bits of each word at once: bit b
 * becomes byte b through a nibble table, then class = vis + inside. */
static const uint32_t spread4[16] = {0x00000000u, 0x00000001u, 0x00000100u, 0x00000101u, 0x00010000u, 0x00010001u, 0x00010100u, 0x00010101u, 0x01000000u, 0x01000001u, 0x01000100u, 0x01000101u, 0x01010000u, 0x01010001u, 0x01010100u, 0x01010101u};

static uint64_t spread8(unsigned bits)
{
    return spread4[bits & 15] | (uint64_t)spread4[bits >> 4 & 15] << 32;
}

void satc_put_classes(uint8_t *dst, const uint64_t *vis, const uint64_t *in, size_t n)
{
    size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        unsigned v = (unsigned)(vis[j / 64] >> (j % 64)) & 0xff;
        unsigned i = (unsigned)(in[j / 64] >> (j % 64)) & 0xff;
        uint64_t c = spread8(v) + spread8(i);
        for (int k = 0; k < 8; k++)
            dst[j + (size_t)k] = (uint8_t)(c >> (8 * k));
    }
    for (; j < n; j++)
        dst[j] = (uint8_t)((vis[j / 64] >> (j % 64) & 1) + (in[j / 64] >> (j % 64) & 1));
}

/* SWAR count: the baseline x86-64 has no POPCNT, and libgcc's fallback
 * call cost 2-3 % of an in-cache cull. */
static size_t popcount64(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (size_t)((x * 0x0101010101010101ull) >> 56);
}

static unsigned ctz64(uint64_t x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned c = 0;
    while (!(x & 1)) {
        x >>= 1;
        c++;
    }
    return c;
#endif
}

satc_status satc_cull_run(const satc_kernels *k, const satc_frustum *f, const satc_batch *b,
                          size_t first, size_t count, satc_mode mode, satc_results *out)
{
    satc_status st = satc_check_results(f, b, first, count, mode, out);
    if (st != SATC_OK)
        return st;
    satc_cull_chunks(k, f, b, first, count, mode, out, NULL, NULL);
    return SATC_OK;
}

/* A splat's view depth, D.(p - E) summed left to right: the expression
 * every path's depth kernel evaluates (the same bits). */
static float splat_depth(const satc_frustum *f, const satc_vec3s *pos, size_t i)
{
    float p[3];
    satc_vec3s_get(pos, i, p);
    const float *D = f->frame[2];
    float c0 = p[0] - f->origin[0], c1 = p[1] - f->origin[1], c2 = p[2] - f->origin[2];
    return D[0] * c0 + D[1] * c1 + D[2] * c2;
}

static float float_of_ord(int32_t o)
{
    int32_t u = o ^ ((o >> 31) & 0x7fffffff);
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* Each NaN of d[0, n) as SATC_DEPTH_NAN_BITS (the kernels' NaN bits follow
 * their operands and instruction sets), and the least and greatest
 * finite value into *lo, *hi as orders (the float's bits with the low 31
 * flipped when negative: -0 just below +0, which the keys do not tell
 * apart). Masks rather than branches or float compares, so that the
 * compiler vectorizes the loop with the baseline instruction set. */
static void canon_range(float *d, size_t n, int32_t *lo, int32_t *hi)
{
    int32_t l = *lo, h = *hi;
    for (size_t i = 0; i < n; i++) {
        int32_t x;
        memcpy(&x, &d[i], sizeof x);
        int32_t mag = x & 0x7fffffff, o = x ^ ((x >> 31) & 0x7fffffff);
        int32_t fin = -(int32_t)(mag < 0x7f800000), nan = -(int32_t)(mag > 0x7f800000);
        int32_t a = (o & fin) | (INT32_MAX & ~fin), c = (o & fin) | (INT32_MIN & ~fin);
        l = l < a ? l : a;
        h = h > c ? h : c;
        x = (x & ~nan) | ((int32_t)SATC_DEPTH_NAN_BITS & nan);
        memcpy(&d[i], &x, sizeof x);
    }
    *lo = l, *hi = h;
}

void satc_cull_chunks(const satc_kernels *k, const satc_frustum *f, const satc_batch *b,
                      size_t first, size_t count, satc_mode mode, satc_results *out, float *depth,
                      float *range)
{
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    const int splats = b->form == SATC_FORM_TRS && !b->trs.local;
    satc_kernel_fn fn = k->fn[b->form][satc_kind_col(f)];
    satc_gview gv;
    if (b->groups)
        satc_gview_init(&gv, f, b);
    unsigned flags = (mode == SATC_EXACT ? SATC_K_EXACT : 0u) | (out->classes ? SATC_K_CLASSIFY : 0u);
    size_t visible = 0;
    uint64_t vis[SATC_CHUNK_WORDS], in[SATC_CHUNK_WORDS];
    /* splats with depths: the kernel writes every depth of the chunk as
     * it culls (the position in registers already), no second read */
    satc_splat_fn sfn = depth && splats && !b->groups && !out->classes && f->kind != SATC_FRUSTUM_PLANES
                            ? k->splat[satc_kind_col(f)]
                            : NULL;
    float dz[SATC_CHUNK];
    for (size_t done = 0; done < count; done += SATC_CHUNK) {
        size_t n = count - done < SATC_CHUNK ? count - done : SATC_CHUNK, got = 0;
        unsigned fl = flags | (done + n == count ? SATC_K_LAST : 0u);
        if (sfn)
            got = sfn(f, b, first + done, n, fl, vis, depth + visible, out->indices + visible);
        else
            satc_chunk_run(fn, f, &gv, b, first + done, n, fl, vis, in);
        if (out->bitmask)
            put_bits(out->bitmask + done / 8, vis, n);
        if (out->classes)
            satc_put_classes(out->classes + done, vis, in, n);
        if (depth) { /* the chunk's depths while its volumes are in cache */
            size_t at = visible, nv = 0;
            for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
                nv += popcount64(vis[w]);
            /* below 60 % visible the depths of the visible only (4 M
             * splats, Zen 5: 2-3 % faster at 50 %, 1 % slower at 70 %) */
            if (sfn) {
                at += got;
            } else if (splats && 5 * nv < 3 * n) {
                for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
                    for (uint64_t m = vis[w]; m; m &= m - 1) {
                        size_t i = first + done + w * 64 + ctz64(m);
                        depth[at] = splat_depth(f, &b->trs.position, i);
                        out->indices[at++] = (uint32_t)i;
                    }
            } else if (nv) {
                /* many visible: every depth of the chunk, then the depths
                 * and indices of the visible in one walk of the bits */
                k->depth(f, b, first + done, n, done + n == count ? SATC_K_LAST : 0u, dz);
                uint32_t base = (uint32_t)(first + done);
                for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
                    for (uint64_t m = vis[w]; m; m &= m - 1) {
                        unsigned j = (unsigned)(w * 64) + ctz64(m);
                        depth[at] = dz[j], out->indices[at++] = base + j;
                    }
            }
            canon_range(depth + visible, at - visible, &lo, &hi);
            visible = at;
            continue;
        }
        for (size_t w = 0; w < SATC_CHUNK_WORDS; w++) {
            if (out->indices) {
                for (uint64_t m = vis[w]; m; m &= m - 1)
                    out->indices[visible++] = (uint32_t)(first + done + w * 64 + ctz64(m));
            } else {
                visible += popcount64(vis[w]);
            }
        }
    }
    out->visible = visible;
    if (range && lo <= hi)
        range[0] = float_of_ord(lo), range[1] = float_of_ord(hi);
    else if (range)
        range[0] = INFINITY, range[1] = -INFINITY;
}
