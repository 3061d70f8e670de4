/* satc_cull_batch: argument checks, chunking and the output forms. The
 * kernels decide visibility; this file only formats their bit words, the
 * same way for every path. */
#include <string.h>

#include "internal.h"

const char *satc_status_string(satc_status s)
{
    switch (s) {
    case SATC_OK: return "ok";
    case SATC_ERR_NULL: return "a required pointer is NULL";
    case SATC_ERR_NONFINITE: return "a frustum parameter is NaN or infinite";
    case SATC_ERR_NEAR: return "near distance must be > 0";
    case SATC_ERR_FAR: return "far distance must be > near (and finite for orthographic)";
    case SATC_ERR_BOUNDS: return "frustum bounds are empty or too wide";
    case SATC_ERR_FRAME: return "camera frame is not right-handed orthonormal";
    case SATC_ERR_MATRIX: return "matrix is not a perspective or orthographic view-projection";
    case SATC_ERR_FLAGS: return "unknown mode, ISA or convention";
    case SATC_ERR_RANGE: return "range or index overflow";
    case SATC_ERR_ISA: return "instruction set not available";
    case SATC_ERR_NOMEM: return "out of memory";
    case SATC_ERR_BOX: return "input does not describe a box";
    }
    return "unknown status";
}

unsigned satc_version(void)
{
    return SATC_VERSION_MAJOR * 10000u + SATC_VERSION_MINOR * 100u + SATC_VERSION_PATCH;
}

static satc_status check_args(const satc_frustum *f, const satc_boxes *b, size_t first,
                              size_t count, satc_mode mode, const satc_results *out)
{
    if (!f || !b || !out)
        return SATC_ERR_NULL;
    if ((mode != SATC_CONSERVATIVE && mode != SATC_EXACT) ||
        (f->kind != SATC_FRUSTUM_PERSPECTIVE && f->kind != SATC_FRUSTUM_ORTHOGRAPHIC))
        return SATC_ERR_FLAGS;
    if (count > SIZE_MAX - first)
        return SATC_ERR_RANGE;
    if (count == 0)
        return SATC_OK;
    for (int k = 0; k < 3; k++) {
        if (!b->center[k] || !b->extent[k] || !b->axis[k][0] || !b->axis[k][1] || !b->axis[k][2])
            return SATC_ERR_NULL;
    }
    if (out->indices && first + count - 1 > UINT32_MAX)
        return SATC_ERR_RANGE;
    return SATC_OK;
}

/* Byte j of the bitmask from bit words: little-endian bit order. Kernels
 * leave bits past n at 0, so the last byte's spare bits come out 0. */
static void put_bits(uint8_t *dst, const uint64_t *w, size_t n)
{
    size_t bytes = (n + 7) / 8;
    for (size_t i = 0; i < bytes; i++)
        dst[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
}

/* Eight classification bytes from eight bits of each word at once: bit b
 * becomes byte b through a nibble table, then class = vis + inside. */
static const uint32_t spread4[16] = {0x00000000u, 0x00000001u, 0x00000100u, 0x00000101u, 0x00010000u, 0x00010001u, 0x00010100u, 0x00010101u, 0x01000000u, 0x01000001u, 0x01000100u, 0x01000101u, 0x01010000u, 0x01010001u, 0x01010100u, 0x01010101u};

static uint64_t spread8(unsigned bits)
{
    return spread4[bits & 15] | (uint64_t)spread4[bits >> 4 & 15] << 32;
}

static void put_classes(uint8_t *dst, const uint64_t *vis, const uint64_t *in, size_t n)
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

static size_t popcount64(uint64_t x)
{
#if defined(__GNUC__)
    return (size_t)__builtin_popcountll(x);
#else
    size_t c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
#endif
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

satc_status satc_cull_run(const satc_kernels *k, const satc_frustum *f, const satc_boxes *b,
                          size_t first, size_t count, satc_mode mode, satc_results *out)
{
    satc_status st = check_args(f, b, first, count, mode, out);
    if (st != SATC_OK)
        return st;
    satc_kernel_fn fn = f->kind == SATC_FRUSTUM_ORTHOGRAPHIC ? k->orthographic : k->perspective;
    unsigned flags = (mode == SATC_EXACT ? SATC_K_EXACT : 0u) | (out->classes ? SATC_K_CLASSIFY : 0u);
    size_t visible = 0;
    uint64_t vis[SATC_CHUNK_WORDS], in[SATC_CHUNK_WORDS];
    for (size_t done = 0; done < count; done += SATC_CHUNK) {
        size_t n = count - done < SATC_CHUNK ? count - done : SATC_CHUNK;
        fn(f, b, first + done, n, flags, vis, in);
        if (out->bitmask)
            put_bits(out->bitmask + done / 8, vis, n);
        if (out->classes)
            put_classes(out->classes + done, vis, in, n);
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
    return SATC_OK;
}
