/*
 * The SIMD loaders: W volumes of any form into a vbox, per lane exactly
 * the expressions of src/scalar/load_scalar.c in the same order. Included
 * by kernels.h (stage 1) after consts.h.
 *
 * Reads: a full vector (nl == W) reads each stream with v_load_stride, or
 * with v_load_rec4 (16 bytes per element, then a transpose) for float3
 * records and matrices; rec_ok says the 4 bytes past a float3 (or a 4x3
 * matrix) may be read because another element of the call follows. A
 * tail (nl < W) reads lane by lane; its other lanes are 0.
 */
#ifndef SATC_LOAD_SIMD_H
#define SATC_LOAD_SIMD_H

/* Portable fallbacks of the vector layer's strided loads (a layer with
 * faster ones defines SATC_VLAYER_STRIDE or SATC_VLAYER_REC4; one that
 * reads packed float3 arrays well defines v_load_f3 and SATC_VLAYER_F3). */
#ifndef SATC_VLAYER_STRIDE
static inline V v_load_stride(const float *p, size_t stride)
{
    if (stride == sizeof(float))
        return v_load(p);
    float t[W];
    for (int j = 0; j < W; j++)
        memcpy(&t[j], (const char *)p + (size_t)j * stride, sizeof(float));
    return v_load(t);
}
#endif
#ifndef SATC_VLAYER_REC4
static inline void v_load_rec4(const float *p, size_t stride, V out[4])
{
    float t[4][W];
    for (int j = 0; j < W; j++) {
        for (int c = 0; c < 4; c++)
            memcpy(&t[c][j], (const char *)p + (size_t)j * stride + 4 * (size_t)c, sizeof(float));
    }
    for (int c = 0; c < 4; c++)
        out[c] = v_load(t[c]);
}
#endif

/* The 8 words of W records of 32 bytes (stride >= 32). */
#ifndef SATC_VLAYER_REC8
SATC_AI void v_load_rec8(const float *p, size_t stride, V out[8])
{
    v_load_rec4(p, stride, out);
    v_load_rec4(p + 4, stride, out + 4);
}
#endif

static inline const float *satc_at(const float *p, size_t stride, size_t i)
{
    return (const float *)(const void *)((const char *)p + i * stride);
}

/* A cache line asked for (a hint; it never faults). */
static inline void prefetch_line(const void *p)
{
#if defined(__GNUC__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

/* Records arrive W per step, many cache lines at once: ask for the lines
 * of the step 8 ahead, where the hardware prefetcher falls behind (the
 * 1 M instance cull ran 1.5-2.5 times faster with it; 8 steps rather than
 * 4 once the matrices' loads got cheaper: 1 M instances 3-4 % faster,
 * other 1 M rows the same or 1-3 % faster on AMD family 1Ah). A prefetch
 * never faults, so asking past the batch is harmless. */
SATC_AI void prefetch_ahead(const void *p, size_t stride)
{
    /* Always inline: GCC 12 left it a call in the largest kernels, and
     * the constant-stride variants' copies lost their prefetches. */
    const char *ahead = (const char *)p + (size_t)(8 * W) * stride;
    for (size_t off = 0; off < (size_t)W * stride; off += 64)
        prefetch_line(ahead + off);
}

/* A kernel's compile-time layout variant (its `lay` parameter): what the
 * call's data is known to be, decided once per call, so the loads of the
 * variant carry no per-vector layout tests. */
enum {
    LAY_STREAMS, /* any strided streams: the loads test their layout */
    LAY_ARRAYS,  /* every stream a plain float array (batch_soa) */
    LAY_REC,     /* one lane, AABB x, y, z records (batch_rec) */
    LAY_SPLAT32, /* 32-byte `.splat` records, conservative mode (splat32_ok) */
    LAY_INST64,  /* 64-byte 4x4 column-major matrices (inst64_ok) */
};

/* W floats of a stream from element i; lanes past nl are 0. */
SATC_NI V ld1_any(const float *p, size_t stride, size_t i, unsigned nl)
{
    const float *q = satc_at(p, stride, i);
    if (nl == W)
        return stride ? v_load_stride(q, stride) : v_set1(*q);
    float t[W];
    for (unsigned j = 0; j < W; j++)
        t[j] = j < nl ? *satc_at(q, stride, j) : 0.0f;
    return v_load(t);
}

/* The plain-array read inline; strides and tails out of line, once per
 * file rather than once per kernel (compile time). */
SATC_AI V ld1s(const float *p, size_t stride, size_t i, unsigned nl, const int lay)
{
#if W == 1 /* one float at any stride: nothing to decide per volume */
    (void)nl;
    return *satc_at(p, lay == LAY_ARRAYS ? sizeof(float) : stride, i);
#endif
    if (nl == W && (lay == LAY_ARRAYS || stride == sizeof(float)))
        return v_load(p + i);
    return ld1_any(p, stride, i, nl);
}

#define ld1(p, stride, i, nl) ld1s(p, stride, i, nl, lay)

SATC_NI void ld3_any(const satc_vec3s *v, size_t i, unsigned nl, V out[3])
{
    out[0] = ld1_any(v->x, v->stride, i, nl);
    out[1] = ld1_any(v->y, v->stride, i, nl);
    out[2] = ld1_any(v->z, v->stride, i, nl);
}

/* Whether stream v lies in the records of stream lead (same stride, its
 * first float less than a record away), so lead's prefetch fetched its
 * lines: a second prefetch of every line of a record costs the memory
 * system as much as the first (48 B half-axis records read 15-25 %
 * faster from memory with one). */
static inline int in_records_of(const satc_vec3s *v, const satc_vec3s *lead)
{
    if (!lead || v->stride != lead->stride)
        return 0;
    const char *a = (const char *)v->x, *b = (const char *)lead->x;
    return (a > b ? (size_t)(a - b) : (size_t)(b - a)) < v->stride;
}

/* A vec3 stream: consecutive components of records go through one
 * transposing load when the 4th float read may be. lead: a stream read
 * just before in the same step (or NULL), whose prefetch may cover v. */
SATC_AI void ld3p(const satc_vec3s *v, const satc_vec3s *lead, size_t i, unsigned nl, int rec_ok,
                  V out[3], const int lay)
{
#if W == 1 /* three floats at any stride, records and shared elements alike */
    const size_t st = lay == LAY_ARRAYS ? sizeof(float) : v->stride;
    (void)nl, (void)rec_ok, (void)lead;
    if (lay == LAY_REC) { /* records (batch_rec): one pointer for the three */
        const float *r = satc_at(v->x, st, i);
        out[0] = r[0], out[1] = r[1], out[2] = r[2];
        return;
    }
    out[0] = *satc_at(v->x, st, i), out[1] = *satc_at(v->y, st, i), out[2] = *satc_at(v->z, st, i);
    return;
#endif
#ifdef SATC_VLAYER_F3
    if (lay == LAY_STREAMS && nl == W && v->stride == 3 * sizeof(float) && v->y == v->x + 1 && v->z == v->x + 2) {
        v_load_f3(satc_at(v->x, v->stride, i), out);
        return;
    }
#endif
    if (lay == LAY_STREAMS && nl == W && rec_ok && v->stride >= 3 * sizeof(float) && v->y == v->x + 1 &&
        v->z == v->x + 2) {
        if (!in_records_of(v, lead))
            prefetch_ahead(satc_at(v->x, v->stride, i), v->stride);
        V t[4];
        v_load_rec4(satc_at(v->x, v->stride, i), v->stride, t);
        out[0] = t[0], out[1] = t[1], out[2] = t[2];
        return;
    }
    if (lay == LAY_STREAMS && nl == W && v->stride == 0) {
        /* one shared element (a shared local box): broadcast, in line (wasm
         * pays for the three out-of-line calls: 14 % of a 1 M instance cull) */
        out[0] = v_set1(*v->x), out[1] = v_set1(*v->y), out[2] = v_set1(*v->z);
        return;
    }
    if (nl == W && (lay == LAY_ARRAYS || v->stride == sizeof(float))) {
        /* plain arrays: also for the kernels without a plain-array variant */
        out[0] = v_load(v->x + i), out[1] = v_load(v->y + i), out[2] = v_load(v->z + i);
        return;
    }
    ld3_any(v, i, nl, out);
}

SATC_AI void ld3s(const satc_vec3s *v, size_t i, unsigned nl, int rec_ok, V out[3], const int lay)
{
    ld3p(v, NULL, i, nl, rec_ok, out, lay);
}

#define ld3(v, i, nl, rec_ok, out) ld3p(v, NULL, i, nl, rec_ok, out, lay)
/* v read after lead in the same step */
#define ld3_after(v, lead, i, nl, rec_ok, out) ld3p(v, lead, i, nl, rec_ok, out, lay)

/* (L.v, U.v, D.v) per lane, summed left to right. */
SATC_AI void to_frame_v(const vconst *k, const V v[3], V *x, V *y, V *z)
{
    *x = v_add(v_add(v_mul(k->L[0], v[0]), v_mul(k->L[1], v[1])), v_mul(k->L[2], v[2]));
    *y = v_add(v_add(v_mul(k->U[0], v[0]), v_mul(k->U[1], v[1])), v_mul(k->U[2], v[2]));
    *z = v_add(v_add(v_mul(k->D[0], v[0]), v_mul(k->D[1], v[1])), v_mul(k->D[2], v[2]));
}

SATC_AI V sum_abs3_v(const V *a) { return v_add(v_add(v_abs(a[0]), v_abs(a[1])), v_abs(a[2])); }

SATC_AI V sum_abs_d(const V *x)
{
    return v_add(v_add(v_abs(x[F_DX]), v_abs(x[F_DY])), v_abs(x[F_DZ]));
}

/* sum_j |a_j - q c_j| (radius_side). */
SATC_AI V radius_side_v(const V *a, const V *c, V q)
{
    V r = v_add(v_abs(v_sub(a[0], v_mul(q, c[0]))), v_abs(v_sub(a[1], v_mul(q, c[1]))));
    return v_add(r, v_abs(v_sub(a[2], v_mul(q, c[2]))));
}

/* finish_axes: radii and S from the half axes. */
SATC_AI void finish_axes_v(const vconst *k, V *x, const int ortho)
{
    const V *hx = x + F_HX, *hy = x + F_HY, *hz = x + F_HZ;
    V ax = sum_abs3_v(hx), ay = sum_abs3_v(hy), az = sum_abs3_v(hz);
    if (ortho) {
        x[F_R] = ax, x[F_R + 1] = ay, x[F_R + 2] = az;
    } else {
        x[F_R] = az;
        x[F_R + 1] = radius_side_v(hx, hz, k->x1);
        x[F_R + 2] = radius_side_v(hx, hz, k->x0);
        x[F_R + 3] = radius_side_v(hy, hz, k->y1);
        x[F_R + 4] = radius_side_v(hy, hz, k->y0);
    }
    x[F_S] = v_add(v_add(v_add(v_add(sum_abs_d(x), ax), ay), az), k->sfloor);
}

/* load_aabb without the half axes (aabb_axes_v fills them when needed). */
SATC_AI void aabb_v(const vconst *k, const V c[3], const V h[3], V *x, const int ortho)
{
    to_frame_v(k, c, &x[F_DX], &x[F_DY], &x[F_DZ]);
    const int np = ortho ? 3 : 5;
    for (int p = 0; p < np; p++)
        x[F_R + p] = v_add(v_add(v_mul(h[0], k->pabs[p][0]), v_mul(h[1], k->pabs[p][1])),
                           v_mul(h[2], k->pabs[p][2]));
    V sh = v_add(v_add(v_mul(h[0], k->col1[0]), v_mul(h[1], k->col1[1])), v_mul(h[2], k->col1[2]));
    x[F_S] = v_add(v_add(sum_abs_d(x), sh), k->sfloor);
    /* Keep h for aabb_axes_v in the half-axis slots it will overwrite. */
    x[F_HX] = h[0], x[F_HX + 1] = h[1], x[F_HX + 2] = h[2];
}

/* The half axes of an AABB: h_j times world axis j in the frame. */
SATC_AI void aabb_axes_v(const vconst *k, V *x)
{
    V h[3] = {x[F_HX], x[F_HX + 1], x[F_HX + 2]};
    for (int j = 0; j < 3; j++) {
        x[F_HX + j] = v_mul(h[j], k->L[j]);
        x[F_HY + j] = v_mul(h[j], k->U[j]);
        x[F_HZ + j] = v_mul(h[j], k->D[j]);
    }
}

/* W half-axis records of 12 consecutive floats (center, H_0, H_1, H_2:
 * the 48 B layout) read as three transposing reads of their 48 bytes
 * rather than four of 16 at the fields (nothing past a record is read);
 * 0 when the batch is not so laid out. */
SATC_AI int ld_half_rec(const satc_half_axes *h, size_t i, unsigned nl, V c[3], V a[3][3])
{
#if W > 1
    const satc_vec3s *cs = &h->center;
    const size_t st = cs->stride;
    if (nl != W || st < 12 * sizeof(float) || cs->y != cs->x + 1 || cs->z != cs->x + 2)
        return 0;
    for (int j = 0; j < 3; j++) {
        const satc_vec3s *v = &h->axis[j];
        if (v->stride != st || v->x != cs->x + 3 + 3 * j || v->y != v->x + 1 || v->z != v->x + 2)
            return 0;
    }
    const float *p = satc_at(cs->x, st, i);
    V t[12];
    prefetch_ahead(p, st);
    for (int q = 0; q < 3; q++)
        v_load_rec4(p + 4 * q, st, &t[4 * q]);
    for (int q = 0; q < 3; q++) {
        c[q] = t[q];
        for (int j = 0; j < 3; j++)
            a[j][q] = t[3 + 3 * j + q];
    }
    return 1;
#else
    (void)h, (void)i, (void)nl, (void)c, (void)a;
    return 0;
#endif
}

/* Element (r, c) of W affine matrices: m[r][c], r < 3. rec_ok: another
 * matrix of the call follows the vector's last, so all 64 bytes from each
 * matrix of at least that stride may be read (not a 4x4's m[15] at the
 * end of the call, which satc.h promises is never read). */
SATC_AI void ld_mat(const satc_instances *s, size_t i, unsigned nl, int rec_ok, V m[3][4],
                    const int c64)
{
    const int lay = LAY_STREAMS;
    const size_t st = c64 ? 64 : s->stride;
    const satc_affine layout = c64 ? SATC_AFFINE_4X4_COLUMN_MAJOR : s->layout;
    const float *base = satc_at(s->matrix, st, i);
    V t[4];
    if (nl == W)
        prefetch_ahead(base, st);
#ifdef SATC_VLAYER_REC16
    /* The 4x4 layouts (each with its own constant indices, so the
     * shuffles of the bottom row are dropped). */
    if (nl == W && rec_ok && st >= 16 * sizeof(float) && layout != SATC_AFFINE_4X3_COLUMN_MAJOR) {
        V e[16];
        v_load_rec16(base, st, e);
        if (layout == SATC_AFFINE_ROWS) {
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++)
                    m[r][c] = e[r * 4 + c];
        } else {
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++)
                    m[r][c] = e[c * 4 + r];
        }
        return;
    }
#else
    (void)rec_ok;
#endif
    if (nl == W && layout != SATC_AFFINE_ROWS) {
        /* Columns of 4 (4x4) or 3 (4x3) floats, read 16 bytes at a time;
         * the translation column from one float earlier (m[11..14] of a
         * 4x4, m[8..11] of a 4x3), so nothing past it is read: not a 4x4's
         * m[15], not the float after a packed 4x3. */
        const int cs = layout == SATC_AFFINE_4X4_COLUMN_MAJOR ? 4 : 3;
        for (int c = 0; c < 3; c++) {
            v_load_rec4(base + cs * c, st, t);
            m[0][c] = t[0], m[1][c] = t[1], m[2][c] = t[2];
        }
        v_load_rec4(base + 3 * cs - 1, st, t);
        m[0][3] = t[1], m[1][3] = t[2], m[2][3] = t[3];
    } else if (nl == W) { /* rows: 3 x 4 floats */
        for (int r = 0; r < 3; r++) {
            v_load_rec4(base + 4 * r, st, t);
            m[r][0] = t[0], m[r][1] = t[1], m[r][2] = t[2], m[r][3] = t[3];
        }
    } else {
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 4; c++) {
                int off = s->layout == SATC_AFFINE_ROWS ? r * 4 + c
                          : s->layout == SATC_AFFINE_4X3_COLUMN_MAJOR ? c * 3 + r : c * 4 + r;
                m[r][c] = ld1(base + off, s->stride, 0, nl);
            }
        }
    }
}

/* Local boxes picked by mesh ids; an id past the table gives NaN, which
 * makes the lane non-finite as the reference's flag does. */
#define ld_mesh(s, i, nl, lc, lh)                                                                 \
    ld_mesh_t((s)->mesh, (s)->mesh_stride, (s)->mesh_count, &(s)->local_center,                   \
              &(s)->local_half, i, nl, lc, lh)
SATC_AI void ld_mesh_t(const uint32_t *mesh, size_t mesh_stride, size_t mesh_count,
                       const satc_vec3s *a, const satc_vec3s *b, size_t i, unsigned nl, V lc[3],
                       V lh[3])
{
    float c[3][W], h[3][W];
    for (unsigned j = 0; j < W; j++) {
        float cc[3] = {0, 0, 0}, hh[3] = {0, 0, 0};
        if (j < nl) {
            size_t id = *(const uint32_t *)(const void *)((const char *)mesh +
                                                          (i + j) * mesh_stride);
            if (id < mesh_count) {
                cc[0] = *satc_at(a->x, a->stride, id), cc[1] = *satc_at(a->y, a->stride, id);
                cc[2] = *satc_at(a->z, a->stride, id);
                hh[0] = *satc_at(b->x, b->stride, id), hh[1] = *satc_at(b->y, b->stride, id);
                hh[2] = *satc_at(b->z, b->stride, id);
            } else {
                cc[0] = cc[1] = cc[2] = NAN;
            }
        }
        for (int q = 0; q < 3; q++)
            c[q][j] = cc[q], h[q][j] = hh[q];
    }
    for (int q = 0; q < 3; q++)
        lc[q] = v_load(c[q]), lh[q] = v_load(h[q]);
}

#include "load_trs.h"

/* An instance's box from its matrix and local box (load_mapped); returns
 * the local offset's S term, which the caller adds. */
SATC_AI V mapped_v(const vconst *k, V m[3][4], const V lc[3], const V lh[3], V *x,
                   const int ortho)
{
    V c[3], v[3], pl[3];
    for (int r = 0; r < 3; r++) {
        V p0 = v_mul(m[r][0], lc[0]), p1 = v_mul(m[r][1], lc[1]), p2 = v_mul(m[r][2], lc[2]);
        V ml = v_add(v_add(p0, p1), p2);
        c[r] = v_add(v_sub(m[r][3], k->o[r]), ml);
        pl[r] = v_add(v_add(v_abs(p0), v_abs(p1)), v_abs(p2));
    }
    to_frame_v(k, c, &x[F_DX], &x[F_DY], &x[F_DZ]);
    for (int j = 0; j < 3; j++) {
        V e = v_abs(lh[j]);
        for (int r = 0; r < 3; r++)
            v[r] = v_mul(m[r][j], e);
        to_frame_v(k, v, &x[F_HX + j], &x[F_HY + j], &x[F_HZ + j]);
    }
    finish_axes_v(k, x, ortho);
    return v_add(v_add(pl[0], pl[1]), pl[2]);
}

/* Whether an instance batch holds 4x4 column-major matrices 64 bytes
 * apart (glm, three.js, Filament, Unity): the kernels' compile-time
 * variant c64 (lay == LAY_INST64), with the stride and layout constant. */
SATC_AI int inst64_ok(const satc_batch *b)
{
    return W > 1 && b->form == SATC_FORM_INSTANCES && b->instances.stride == 64 &&
           b->instances.layout == SATC_AFFINE_4X4_COLUMN_MAJOR;
}

/* An instance batch's W matrices and local boxes (c64: inst64_ok). */
SATC_AI void ld_inst(const satc_instances *s, size_t i, unsigned nl, int rec_ok, V m[3][4],
                     V lc[3], V lh[3], const int c64)
{
    const int lay = LAY_STREAMS;
    ld_mat(s, i, nl, rec_ok, m, c64);
    if (s->mesh) {
        ld_mesh(s, i, nl, lc, lh);
    } else {
        ld3(&s->local_center, i, nl, rec_ok, lc);
        ld3_after(&s->local_half, &s->local_center, i, nl, rec_ok, lh);
    }
}

/*
 * satc_load_ref for lanes i .. i + W - 1 (nl of them real); returns the
 * bad mask. AABB forms leave their half axes for aabb_axes_v.
 */
SATC_AI M load_v(const vconst *k, const satc_batch *b, size_t i, unsigned nl, int rec_ok,
                 vbox *o, const int form, const int ortho, const int lay, const int exact)
{
    V *x = o->v;
    V c[3], h[3], v[3];
    switch (form) {
    case SATC_FORM_OBB:
    case SATC_FORM_HALF_AXES: {
        const satc_vec3s *cs = form == SATC_FORM_OBB ? &b->obb.center : &b->half_axes.center;
        const satc_vec3s *as = form == SATC_FORM_OBB ? b->obb.axis : b->half_axes.axis;
        V ha[3][3];
        const int rec = form == SATC_FORM_HALF_AXES && ld_half_rec(&b->half_axes, i, nl, v, ha);
        if (!rec)
            ld3(cs, i, nl, rec_ok, v);
        for (int q = 0; q < 3; q++)
            c[q] = v_sub(v[q], k->o[q]);
        to_frame_v(k, c, &x[F_DX], &x[F_DY], &x[F_DZ]);
        if (form == SATC_FORM_OBB)
            ld3_after(&b->obb.extent, cs, i, nl, rec_ok, h);
        for (int j = 0; j < 3; j++) {
            if (rec)
                v[0] = ha[j][0], v[1] = ha[j][1], v[2] = ha[j][2];
            else
                ld3_after(&as[j], cs, i, nl, rec_ok, v);
            if (form == SATC_FORM_OBB) {
                V al, be, ga, e = v_abs(h[j]);
                to_frame_v(k, v, &al, &be, &ga);
                x[F_HX + j] = v_mul(e, al), x[F_HY + j] = v_mul(e, be), x[F_HZ + j] = v_mul(e, ga);
            } else {
                to_frame_v(k, v, &x[F_HX + j], &x[F_HY + j], &x[F_HZ + j]);
            }
        }
        finish_axes_v(k, x, ortho);
        break;
    }
    case SATC_FORM_AABB:
        ld3(&b->aabb.center, i, nl, rec_ok, v);
        ld3_after(&b->aabb.half, &b->aabb.center, i, nl, rec_ok, h);
        for (int q = 0; q < 3; q++) {
            c[q] = v_sub(v[q], k->o[q]);
            h[q] = v_abs(h[q]);
        }
        aabb_v(k, c, h, x, ortho);
        break;
    case SATC_FORM_MINMAX: {
        V lo[3], hi[3];
        ld3(&b->minmax.min, i, nl, rec_ok, lo);
        ld3_after(&b->minmax.max, &b->minmax.min, i, nl, rec_ok, hi);
        for (int q = 0; q < 3; q++) {
            V a = v_sub(lo[q], k->o[q]), z = v_sub(hi[q], k->o[q]);
            c[q] = v_mul(v_add(a, z), k->half);
            h[q] = v_abs(v_mul(v_sub(z, a), k->half));
        }
        aabb_v(k, c, h, x, ortho);
        break;
    }
    case SATC_FORM_INSTANCES: {
        V m[3][4], lc[3], lh[3];
        ld_inst(&b->instances, i, nl, rec_ok, m, lc, lh, lay == LAY_INST64);
        V pl = mapped_v(k, m, lc, lh, x, ortho);
        x[F_S] = v_add(x[F_S], pl);
        break;
    }
    case SATC_FORM_TRS: {
        if (!exact && ortho != 2 && !b->trs.local) {
            splat_ball_v(k, &b->trs, i, nl, rec_ok, x, ortho, lay == LAY_SPLAT32);
            break;
        }
        V m[3][4], lc[3], lh[3];
        ld_trs(&b->trs, i, nl, rec_ok, m, lc, lh);
        V pl = mapped_v(k, m, lc, lh, x, ortho);
        x[F_S] = v_add(x[F_S], v_add(pl, trs_t4(m, lc, lh)));
        break;
    }
    default: { /* SATC_FORM_SPHERES */
        const satc_vec3s *cs = &b->spheres.center;
        V t[4];
        if (lay == LAY_STREAMS && nl == W && cs->stride >= 4 * sizeof(float) && cs->y == cs->x + 1 &&
            cs->z == cs->x + 2 && b->spheres.radius.p == cs->x + 3 &&
            b->spheres.radius.stride == cs->stride) {
            /* (x, y, z, r) records: one transposing load. */
            v_load_rec4(satc_at(cs->x, cs->stride, i), cs->stride, t);
            v[0] = t[0], v[1] = t[1], v[2] = t[2];
        } else {
            ld3(cs, i, nl, rec_ok, v);
            t[3] = ld1(b->spheres.radius.p, b->spheres.radius.stride, i, nl);
        }
        for (int q = 0; q < 3; q++)
            c[q] = v_sub(v[q], k->o[q]);
        to_frame_v(k, c, &x[F_DX], &x[F_DY], &x[F_DZ]);
        V rad = v_abs(t[3]);
        x[F_RAD] = rad;
        const int np = ortho ? 3 : 5;
        for (int p = 0; p < np; p++)
            x[F_R + p] = v_mul(rad, k->norm2[p]);
        x[F_S] = v_add(v_add(sum_abs_d(x), v_add(rad, rad)), k->sfloor);
        break;
    }
    }
    return m_not(v_lt(x[F_S], k->maxmag));
}

#undef ld1
#undef ld3
#undef ld3_after

/* Every stream a plain float array (stride 4): the loads need no strides. */
static inline int batch_soa(const satc_batch *b)
{
    const satc_vec3s *v[5];
    int nv = 0;
    switch (b->form) {
    case SATC_FORM_OBB:
        v[0] = &b->obb.center, v[1] = &b->obb.extent, v[2] = &b->obb.axis[0];
        v[3] = &b->obb.axis[1], v[4] = &b->obb.axis[2], nv = 5;
        break;
    case SATC_FORM_HALF_AXES:
        v[0] = &b->half_axes.center, v[1] = &b->half_axes.axis[0];
        v[2] = &b->half_axes.axis[1], v[3] = &b->half_axes.axis[2], nv = 4;
        break;
    case SATC_FORM_AABB: v[0] = &b->aabb.center, v[1] = &b->aabb.half, nv = 2; break;
    case SATC_FORM_MINMAX: v[0] = &b->minmax.min, v[1] = &b->minmax.max, nv = 2; break;
    case SATC_FORM_SPHERES:
        if (b->spheres.radius.stride != sizeof(float))
            return 0;
        v[0] = &b->spheres.center, nv = 1;
        break;
    default: return 0;
    }
    for (int q = 0; q < nv; q++) {
        if (v[q]->stride != sizeof(float))
            return 0;
    }
    return 1;
}


#if W == 1
/* Every stream of an AABB form an x, y, z record (any stride): the
 * one-lane layer's third variant (lay == LAY_REC) reads them from one pointer. */
static inline int batch_rec(const satc_batch *b)
{
    const satc_vec3s *v[2];
    if (b->form == SATC_FORM_AABB)
        v[0] = &b->aabb.center, v[1] = &b->aabb.half;
    else if (b->form == SATC_FORM_MINMAX)
        v[0] = &b->minmax.min, v[1] = &b->minmax.max;
    else
        return 0;
    for (int q = 0; q < 2; q++) {
        if (v[q]->y != v[q]->x + 1 || v[q]->z != v[q]->x + 2)
            return 0;
    }
    return 1;
}
#endif

#endif
