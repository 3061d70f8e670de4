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
    case SATC_ERR_FAR: return "far distance must be > near (and finite for orthographic and exact plane volumes)";
    case SATC_ERR_BOUNDS: return "frustum bounds are empty, degenerate or too wide";
    case SATC_ERR_FRAME: return "camera frame is not right-handed orthonormal";
    case SATC_ERR_MATRIX: return "matrix is not a perspective or orthographic view-projection";
    case SATC_ERR_FLAGS: return "unknown mode, ISA or convention";
    case SATC_ERR_RANGE: return "range or index overflow";
    case SATC_ERR_ISA: return "instruction set not available";
    case SATC_ERR_NOMEM: return "out of memory";
    case SATC_ERR_BOX: return "input does not describe a box";
    case SATC_ERR_LAYOUT: return "batch layout invalid: stride, alignment or matrix layout";
    }
    return "unknown status";
}

unsigned satc_version(void)
{
    return SATC_VERSION_MAJOR * 10000u + SATC_VERSION_MINOR * 100u + SATC_VERSION_PATCH;
}

static int misaligned(const void *p, size_t stride)
{
    return ((uintptr_t)p % sizeof(float)) != 0 || stride % sizeof(float) != 0;
}

/* A vec3 stream: non-NULL components (else 1), float-aligned, and a float3
 * record no shorter than its three floats (else 2). */
static int check_vec3s(const satc_vec3s *v)
{
    if (!v->x || !v->y || !v->z)
        return 1;
    if (misaligned(v->x, v->stride) || misaligned(v->y, 0) || misaligned(v->z, 0))
        return 2;
    if (v->stride && v->stride < 3 * sizeof(float) && v->y == v->x + 1 && v->z == v->x + 2)
        return 2;
    return 0;
}

/* The smallest stride of a matrix layout (bytes the loaders may read). */
static size_t matrix_bytes(satc_affine lay)
{
    switch (lay) {
    case SATC_AFFINE_4X4_COLUMN_MAJOR: return 16 * sizeof(float);
    case SATC_AFFINE_ROWS: return 12 * sizeof(float);
    case SATC_AFFINE_4X3_COLUMN_MAJOR: return 12 * sizeof(float);
    }
    return 0;
}

/* What the form reads, for count > 0: SATC_ERR_NULL or SATC_ERR_LAYOUT. */
static satc_status check_batch(const satc_batch *b)
{
    int e = 0;
    switch (b->form) {
    case SATC_FORM_OBB:
        e = check_vec3s(&b->obb.center) | check_vec3s(&b->obb.extent);
        for (int j = 0; j < 3; j++)
            e |= check_vec3s(&b->obb.axis[j]);
        break;
    case SATC_FORM_AABB: e = check_vec3s(&b->aabb.center) | check_vec3s(&b->aabb.half); break;
    case SATC_FORM_MINMAX: e = check_vec3s(&b->minmax.min) | check_vec3s(&b->minmax.max); break;
    case SATC_FORM_HALF_AXES:
        e = check_vec3s(&b->half_axes.center);
        for (int j = 0; j < 3; j++)
            e |= check_vec3s(&b->half_axes.axis[j]);
        break;
    case SATC_FORM_INSTANCES: {
        const satc_instances *s = &b->instances;
        e = check_vec3s(&s->local_center) | check_vec3s(&s->local_half);
        if (!s->matrix)
            e |= 1;
        else if (misaligned(s->matrix, s->stride) || !matrix_bytes(s->layout) ||
                 s->stride < matrix_bytes(s->layout))
            e |= 2;
        if (s->mesh && misaligned(s->mesh, s->mesh_stride))
            e |= 2;
        break;
    }
    case SATC_FORM_SPHERES:
        e = check_vec3s(&b->spheres.center);
        if (!b->spheres.radius.p)
            e |= 1;
        else if (misaligned(b->spheres.radius.p, b->spheres.radius.stride))
            e |= 2;
        break;
    }
    return (e & 1) ? SATC_ERR_NULL : (e & 2) ? SATC_ERR_LAYOUT : SATC_OK;
}

satc_status satc_check_vec3s(const satc_vec3s *v)
{
    int e = check_vec3s(v);
    return e == 1 ? SATC_ERR_NULL : e ? SATC_ERR_LAYOUT : SATC_OK;
}

static satc_status check_args(const satc_frustum *f, const satc_batch *b, size_t first,
                              size_t count, satc_mode mode, const satc_results *out)
{
    if (!out)
        return SATC_ERR_NULL;
    satc_status st = satc_check_call(f, b, first, count, mode, out->indices != NULL);
    return st == SATC_OK && count ? satc_check_groups(b) : st;
}

satc_status satc_check_volumes(const satc_batch *b, size_t first, size_t count)
{
    if (!b)
        return SATC_ERR_NULL;
    if ((unsigned)b->form < 1 || (unsigned)b->form > SATC_NFORMS)
        return SATC_ERR_FLAGS;
    if (count > SIZE_MAX - first)
        return SATC_ERR_RANGE;
    return count ? check_batch(b) : SATC_OK;
}

/* A kind satc builds, with counts that keep the kernels in their arrays. */
static int kind_ok(const satc_frustum *f)
{
    if (f->kind == SATC_FRUSTUM_PLANES)
        return f->nplanes >= 1 && f->nplanes <= SATC_MAX_PLANES &&
               f->nverts <= SATC_MAX_PLANE_VERTS && f->nedges <= SATC_MAX_PLANE_EDGES;
    return f->kind == SATC_FRUSTUM_PERSPECTIVE || f->kind == SATC_FRUSTUM_ORTHOGRAPHIC;
}

satc_status satc_check_call(const satc_frustum *f, const satc_batch *b, size_t first,
                            size_t count, satc_mode mode, int want_indices)
{
    if (!f || !b)
        return SATC_ERR_NULL;
    if ((mode != SATC_CONSERVATIVE && mode != SATC_EXACT) || !kind_ok(f) ||
        (unsigned)b->form < 1 || (unsigned)b->form > SATC_NFORMS)
        return SATC_ERR_FLAGS;
    if (f->kind == SATC_FRUSTUM_PLANES && mode == SATC_EXACT && f->nverts == 0)
        return SATC_ERR_FAR; /* unbounded: no vertices for the exact test */
    if (count > SIZE_MAX - first)
        return SATC_ERR_RANGE;
    if (count == 0)
        return SATC_OK;
    satc_status st = check_batch(b);
    if (st != SATC_OK)
        return st;
    if (want_indices && first + count - 1 > UINT32_MAX)
        return SATC_ERR_RANGE;
    return SATC_OK;
}

satc_batch satc_batch_from_boxes(const satc_boxes *b)
{
    satc_batch r;
    memset(&r, 0, sizeof r);
    r.form = SATC_FORM_OBB;
    if (!b)
        return r;
    r.obb.center = SATC_VEC3S_SOA(b->center[0], b->center[1], b->center[2]);
    r.obb.extent = SATC_VEC3S_SOA(b->extent[0], b->extent[1], b->extent[2]);
    for (int j = 0; j < 3; j++)
        r.obb.axis[j] = SATC_VEC3S_SOA(b->axis[j][0], b->axis[j][1], b->axis[j][2]);
    return r;
}

satc_status satc_cull_batch(const satc_frustum *f, const satc_boxes *boxes, size_t first,
                            size_t count, satc_mode mode, satc_results *out)
{
    satc_batch b = satc_batch_from_boxes(boxes);
    return satc_cull(f, boxes ? &b : NULL, first, count, mode, out);
}

satc_status satc_cull_batch_isa(satc_isa isa, const satc_frustum *f, const satc_boxes *boxes,
                                size_t first, size_t count, satc_mode mode, satc_results *out)
{
    satc_batch b = satc_batch_from_boxes(boxes);
    return satc_cull_isa(isa, f, boxes ? &b : NULL, first, count, mode, out);
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
    satc_status st = check_args(f, b, first, count, mode, out);
    if (st != SATC_OK)
        return st;
    satc_kernel_fn fn = k->fn[b->form][satc_kind_col(f)];
    satc_gview gv;
    if (b->groups)
        satc_gview_init(&gv, f, b);
    unsigned flags = (mode == SATC_EXACT ? SATC_K_EXACT : 0u) | (out->classes ? SATC_K_CLASSIFY : 0u);
    size_t visible = 0;
    uint64_t vis[SATC_CHUNK_WORDS], in[SATC_CHUNK_WORDS];
    for (size_t done = 0; done < count; done += SATC_CHUNK) {
        size_t n = count - done < SATC_CHUNK ? count - done : SATC_CHUNK;
        satc_chunk_run(fn, f, &gv, b, first + done, n,
                       flags | (done + n == count ? SATC_K_LAST : 0u), vis, in);
        if (out->bitmask)
            put_bits(out->bitmask + done / 8, vis, n);
        if (out->classes)
            satc_put_classes(out->classes + done, vis, in, n);
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
