/*
 * The views pass's shared prefilter (src/views_pre.c): bounds of 32
 * volumes built once per chunk and decided per view.
 *
 * 1. Every path's satc_bounds_fn equals a scalar computation in the same
 *    float operations bit for bit (boxes and the instances' extra S term),
 *    in twelve layouts of every form (OBBs with random rotations, half-axis
 *    parallelepipeds, instances in three matrix layouts with a shared local
 *    box, one per instance or a mesh table), and flags groups with a NaN
 *    or infinite field or a mesh id past the table.
 * 2. The decisions are taken: with a kernel that records its calls, a
 *    chunk out of view or deep inside is never given to the kernel, and a
 *    chunk with one crossing group (or one NaN volume, or a tail) gives it
 *    exactly those volumes; for AABBs, and for instances with a local box
 *    each (decided only through the bounds' extra S term).
 * 3. satc_cull_views equals each view's satc_cull bit for bit (mask,
 *    classes, indices, count), every path and mode, where the prefilter
 *    decides at its margin: whole chunks and groups of 32 placed at -8..8
 *    tolerances from a plane (one point for a whole chunk, or for all its
 *    groups, or one per group), on both sides (culled / inside), mixed with
 *    NaN, huge and random volumes, tails and unaligned starts, in the
 *    twelve layouts, against perspective, infinite, orthographic and
 *    plane-volume views; instances whose S is mostly their local center's
 *    offset, swept across a plane; and the coherent city (AABBs, OBBs,
 *    instances) with a camera, cascades, cube faces and 64 and 63
 *    players.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "robust_util.h"
#include "scenes.h"
#include "passes/views_pre.h"
#include "prefilter.h"

static satc_isa g_paths[8];
static int g_npaths;

/* ---- volumes in twelve layouts ---- */

static const char *const g_lname[L_COUNT] = {
    "AABB records", "AABB float3 arrays", "AABB SoA", "min/max records", "sphere records",
    "sphere SoA", "OBB records", "OBB SoA", "half-axis float3 arrays",
    "instances 4x4, shared local box", "instances rows 3x4, local box each",
    "instances 4x3, mesh table"};

static int is_sphere(int L) { return L == L_SPH_REC || L == L_SPH_SOA; }
static int is_inst(int L) { return L >= L_INST_SHARED; }

/* A hash of (i, salt) in [-1, 1). */
static double hash_unit(size_t i, uint64_t salt)
{
    rb_rng g = {(uint64_t)i * 0x9E3779B97F4A7C15ull ^ (salt * 0xD1B54A32D192ED03ull)};
    return rb_uniform(&g, -1, 1);
}

/* Volume i's rotation: rows R[j] are its unit axes (a hashed quaternion). */
void rot_of(size_t i, double R[3][3])
{
    double q[4], n2 = 0;
    for (int k = 0; k < 4; k++)
        q[k] = hash_unit(i, 11 + (uint64_t)k), n2 += q[k] * q[k];
    if (n2 < 1e-3)
        q[0] = 1, n2 = 1 + n2;
    double s = 1.0 / sqrt(n2), x = q[0] * s, y = q[1] * s, z = q[2] * s, w = q[3] * s;
    double M[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
                      {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
                      {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)}};
    memcpy(R, M, sizeof M);
}

/* Local boxes: the shared one, a mesh table of 7, or one per instance;
 * some centers far from their boxes, so that sum |m_rk lc_k| (cancelling
 * against the translation) dominates S. */
static const float g_lc_shared[3] = {250.0f, -60.0f, 130.0f}, g_lh_shared[3] = {0.5f, -1.25f, 0.8f};
static const float g_mesh_c[7][3] = {{0, 0, 0}, {1, 2, -1}, {-3, 0.5f, 0.25f}, {0.1f, -0.2f, 4},
                                     {2, 2, 2}, {-0.5f, 1, -1.5f}, {600, -400, 50}};
static const float g_mesh_h[7][3] = {{1, 1, 1}, {0.5f, 2, 1}, {-1, 0.25f, 0.5f}, {2, 2, 0.125f},
                                     {0.75f, -0.75f, 1.5f}, {3, 1, 1}, {0.5f, 0.5f, -2}};
#define BAD_ID_AT 197 /* the mesh layout's volume with an id past the table */

/* Runs of 8 instances of one mesh. */
static uint32_t mesh_id(size_t i)
{
    return i == BAD_ID_AT ? 7u : (uint32_t)(((i / 8) * 2654435761u) >> 7) % 7u;
}

void local_box(int L, size_t i, float lc[3], float lh[3])
{
    for (int k = 0; k < 3; k++) {
        if (L == L_INST_SHARED) {
            lc[k] = g_lc_shared[k], lh[k] = g_lh_shared[k];
        } else if (L == L_INST_MESH) {
            uint32_t id = mesh_id(i) % 7u;
            lc[k] = g_mesh_c[id][k], lh[k] = g_mesh_h[id][k];
        } else {
            double u = hash_unit(i, 31 + (uint64_t)k), v = hash_unit(i, 41 + (uint64_t)k);
            lc[k] = (float)(2.0 * u * ((i / 32) % 3 ? 1.0 : 300.0)); /* per group of 32 */
            lh[k] = (float)((v < 0 ? -1 : 1) * (0.25 + 1.75 * fabs(v)));
        }
    }
}

/* Volume i of a derived layout with center c and extents e (their
 * magnitudes; a sign flips an axis): its world half-axis vectors H[j]
 * and, for instances, its linear part M (columns j scaled so that M_j
 * |lh_j| = H_j) and sum_r sum_k |m_rk lc_k|. */
static double shape(int L, size_t i, const float e[3], double H[3][3], double M[3][3])
{
    double R[3][3];
    rot_of(i, R);
    for (int j = 0; j < 3; j++) {
        for (int k = 0; k < 3; k++)
            H[j][k] = R[j][k] * e[j];
    }
    if (L == L_HALF_F3) { /* a parallelepiped */
        for (int k = 0; k < 3; k++)
            H[1][k] += 0.25 * H[0][k];
    }
    if (!is_inst(L))
        return 0.0;
    float lc[3], lh[3];
    local_box(L, i, lc, lh);
    double p = 0;
    for (int r = 0; r < 3; r++) {
        for (int j = 0; j < 3; j++) {
            M[r][j] = H[j][r] / fabsf(lh[j]);
            p += fabs(M[r][j] * lc[j]);
        }
    }
    return p;
}

/* Support of volume i (layout L, center c, extents h) along unit n. */
static double support(int L, size_t i, const float h[3], const double n[3])
{
    double s = 0, H[3][3], M[3][3];
    if (is_sphere(L))
        return fabsf(h[0]);
    if (L < L_OBB_REC) {
        for (int k = 0; k < 3; k++)
            s += fabs(n[k]) * fabsf(h[k]);
        return s;
    }
    shape(L, i, h, H, M);
    for (int j = 0; j < 3; j++)
        s += fabs(H[j][0] * n[0] + H[j][1] * n[1] + H[j][2] * n[2]);
    return s;
}

/* Storage for n volumes given as center c and extents h (spheres: h[0]). */
typedef struct store {
    float *a, *b; /* records or float3 arrays (b: second array) */
    float *s[15]; /* SoA streams, float3 arrays */
    uint32_t *ids;
} store;

static satc_batch store_derived(store *st, int L, const float *c, const float *h, size_t n)
{
    satc_batch b;
    memset(&b, 0, sizeof b);
    double H[3][3], M[3][3];
    switch (L) {
    case L_OBB_REC: /* 15 floats: center, three axes, extents */
    case L_OBB_SOA:
        if (L == L_OBB_REC)
            st->a = malloc(n * 60 + 16);
        else
            for (int q = 0; q < 15; q++)
                st->s[q] = malloc(n * 4 + 4);
        for (size_t i = 0; i < n; i++) {
            double R[3][3];
            rot_of(i, R);
            float v[15];
            for (int k = 0; k < 3; k++) {
                v[k] = c[3 * i + k], v[12 + k] = h[3 * i + k];
                for (int j = 0; j < 3; j++)
                    v[3 + 3 * j + k] = (float)R[j][k];
            }
            for (int q = 0; q < 15; q++) {
                if (L == L_OBB_REC)
                    st->a[15 * i + q] = v[q];
                else
                    st->s[q][i] = v[q];
            }
        }
        b.form = SATC_FORM_OBB;
        if (L == L_OBB_REC) {
            b.obb.center = SATC_VEC3S_AOS(st->a, 60), b.obb.extent = SATC_VEC3S_AOS(st->a + 12, 60);
            for (int j = 0; j < 3; j++)
                b.obb.axis[j] = SATC_VEC3S_AOS(st->a + 3 + 3 * j, 60);
        } else {
            b.obb.center = SATC_VEC3S_SOA(st->s[0], st->s[1], st->s[2]);
            b.obb.extent = SATC_VEC3S_SOA(st->s[12], st->s[13], st->s[14]);
            for (int j = 0; j < 3; j++)
                b.obb.axis[j] = SATC_VEC3S_SOA(st->s[3 + 3 * j], st->s[4 + 3 * j], st->s[5 + 3 * j]);
        }
        break;
    case L_HALF_F3:
        for (int q = 0; q < 4; q++)
            st->s[q] = malloc(n * 12);
        for (size_t i = 0; i < n; i++) {
            shape(L, i, h + 3 * i, H, M);
            for (int k = 0; k < 3; k++) {
                st->s[0][3 * i + k] = c[3 * i + k];
                for (int j = 0; j < 3; j++)
                    st->s[1 + j][3 * i + k] = (float)H[j][k];
            }
        }
        b.form = SATC_FORM_HALF_AXES;
        b.half_axes.center = SATC_VEC3S_AOS(st->s[0], 12);
        for (int j = 0; j < 3; j++)
            b.half_axes.axis[j] = SATC_VEC3S_AOS(st->s[1 + j], 12);
        break;
    default: { /* instances: t = c - M lc, so the world center is c */
        int cs = L == L_INST_SHARED ? 16 : 12; /* floats per matrix */
        st->a = malloc(n * (size_t)cs * 4);
        for (size_t i = 0; i < n; i++) {
            float lc[3], lh[3], m[3][4];
            local_box(L, i, lc, lh);
            shape(L, i, h + 3 * i, H, M);
            for (int r = 0; r < 3; r++) {
                double t = c[3 * i + r];
                for (int j = 0; j < 3; j++)
                    m[r][j] = (float)M[r][j], t -= (double)m[r][j] * lc[j];
                m[r][3] = (float)t;
            }
            float *o = st->a + (size_t)cs * i;
            for (int r = 0; r < 3; r++) {
                for (int col = 0; col < 4; col++) {
                    if (L == L_INST_SHARED)
                        o[col * 4 + r] = m[r][col];
                    else if (L == L_INST_LOCAL)
                        o[r * 4 + col] = m[r][col];
                    else
                        o[col * 3 + r] = m[r][col];
                }
            }
            if (L == L_INST_SHARED)
                o[3] = o[7] = o[11] = 0.0f, o[15] = 1.0f;
        }
        b.form = SATC_FORM_INSTANCES;
        satc_instances *s = &b.instances;
        s->matrix = st->a, s->stride = (size_t)cs * 4;
        if (L == L_INST_SHARED) {
            s->layout = SATC_AFFINE_4X4_COLUMN_MAJOR;
            s->local_center = (satc_vec3s){g_lc_shared, g_lc_shared + 1, g_lc_shared + 2, 0};
            s->local_half = (satc_vec3s){g_lh_shared, g_lh_shared + 1, g_lh_shared + 2, 0};
        } else if (L == L_INST_LOCAL) { /* {lc, lh} records */
            s->layout = SATC_AFFINE_ROWS;
            st->b = malloc(n * 24);
            for (size_t i = 0; i < n; i++)
                local_box(L, i, st->b + 6 * i, st->b + 6 * i + 3);
            s->local_center = SATC_VEC3S_AOS(st->b, 24), s->local_half = SATC_VEC3S_AOS(st->b + 3, 24);
        } else {
            s->layout = SATC_AFFINE_4X3_COLUMN_MAJOR;
            st->ids = malloc(n * 4);
            for (size_t i = 0; i < n; i++)
                st->ids[i] = mesh_id(i);
            s->local_center = SATC_VEC3S_AOS(&g_mesh_c[0][0], 12);
            s->local_half = SATC_VEC3S_AOS(&g_mesh_h[0][0], 12);
            s->mesh = st->ids, s->mesh_stride = 4, s->mesh_count = 7;
        }
        break;
    }
    }
    return b;
}

static satc_batch store_make(store *st, int layout, const float *c, const float *h, size_t n)
{
    memset(st, 0, sizeof *st);
    satc_batch b;
    memset(&b, 0, sizeof b);
    switch (layout) {
    case L_AABB_REC:
    case L_MINMAX_REC:
        st->a = malloc(n * 24 + 16);
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                float x = c[3 * i + k], e = h[3 * i + k];
                st->a[6 * i + k] = layout == L_AABB_REC ? x : x - e;
                st->a[6 * i + 3 + k] = layout == L_AABB_REC ? e : x + e;
            }
        }
        if (layout == L_AABB_REC) {
            b.form = SATC_FORM_AABB;
            b.aabb.center = SATC_VEC3S_AOS(st->a, 24), b.aabb.half = SATC_VEC3S_AOS(st->a + 3, 24);
        } else {
            b.form = SATC_FORM_MINMAX;
            b.minmax.min = SATC_VEC3S_AOS(st->a, 24), b.minmax.max = SATC_VEC3S_AOS(st->a + 3, 24);
        }
        break;
    case L_AABB_F3:
        st->a = malloc(n * 12), st->b = malloc(n * 12);
        memcpy(st->a, c, n * 12), memcpy(st->b, h, n * 12);
        b.form = SATC_FORM_AABB;
        b.aabb.center = SATC_VEC3S_AOS(st->a, 12), b.aabb.half = SATC_VEC3S_AOS(st->b, 12);
        break;
    case L_AABB_SOA:
    case L_SPH_SOA:
        for (int q = 0; q < 7; q++)
            st->s[q] = malloc(n * 4 + 4);
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++)
                st->s[k][i] = c[3 * i + k], st->s[3 + k][i] = h[3 * i + k];
        }
        if (layout == L_AABB_SOA) {
            b.form = SATC_FORM_AABB;
            b.aabb.center = SATC_VEC3S_SOA(st->s[0], st->s[1], st->s[2]);
            b.aabb.half = SATC_VEC3S_SOA(st->s[3], st->s[4], st->s[5]);
        } else {
            b.form = SATC_FORM_SPHERES;
            b.spheres.center = SATC_VEC3S_SOA(st->s[0], st->s[1], st->s[2]);
            b.spheres.radius = (satc_floats){st->s[3], sizeof(float)};
        }
        break;
    case L_SPH_REC: /* x, y, z, r */
        st->a = malloc(n * 16);
        for (size_t i = 0; i < n; i++) {
            memcpy(st->a + 4 * i, c + 3 * i, 12);
            st->a[4 * i + 3] = h[3 * i];
        }
        b.form = SATC_FORM_SPHERES;
        b.spheres.center = SATC_VEC3S_AOS(st->a, 16);
        b.spheres.radius = (satc_floats){st->a + 3, 16};
        break;
    default: return store_derived(st, layout, c, h, n);
    }
    return b;
}

static void store_free(store *st)
{
    free(st->a), free(st->b), free(st->ids);
    for (int q = 0; q < 15; q++)
        free(st->s[q]);
}

/* ---- 1. the bounds ---- */

static float rd(const float *p, size_t stride, size_t i)
{
    return *(const float *)(const void *)((const char *)p + i * stride);
}

static void rd3v(const satc_vec3s *v, size_t i, float out[3])
{
    out[0] = rd(v->x, v->stride, i), out[1] = rd(v->y, v->stride, i), out[2] = rd(v->z, v->stride, i);
}

/* Volume i's float corners a, z and extra S term p, in the float
 * operations and order of cull_simd.h's micro_bounds_t / derived_box. */
static void ref_box(const satc_batch *b, size_t i, float a[3], float z[3], float *p)
{
    float x[3], y[3], r = 0;
    *p = 0.0f;
    switch (b->form) {
    case SATC_FORM_AABB:
    case SATC_FORM_MINMAX:
        rd3v(b->form == SATC_FORM_AABB ? &b->aabb.center : &b->minmax.min, i, x);
        rd3v(b->form == SATC_FORM_AABB ? &b->aabb.half : &b->minmax.max, i, y);
        for (int q = 0; q < 3; q++) {
            if (b->form == SATC_FORM_MINMAX)
                a[q] = x[q] < y[q] ? x[q] : y[q], z[q] = x[q] > y[q] ? x[q] : y[q];
            else
                a[q] = x[q] - fabsf(y[q]), z[q] = x[q] + fabsf(y[q]);
        }
        return;
    case SATC_FORM_SPHERES:
        rd3v(&b->spheres.center, i, x);
        r = fabsf(rd(b->spheres.radius.p, b->spheres.radius.stride, i));
        for (int q = 0; q < 3; q++)
            a[q] = x[q] - r, z[q] = x[q] + r;
        return;
    case SATC_FORM_OBB:
    case SATC_FORM_HALF_AXES: {
        int obb = b->form == SATC_FORM_OBB;
        float e[3] = {1, 1, 1}, ax[3], h[3] = {0, 0, 0};
        rd3v(obb ? &b->obb.center : &b->half_axes.center, i, x);
        if (obb)
            rd3v(&b->obb.extent, i, e);
        for (int j = 0; j < 3; j++) {
            rd3v(obb ? &b->obb.axis[j] : &b->half_axes.axis[j], i, ax);
            for (int q = 0; q < 3; q++) {
                float t = obb ? fabsf(ax[q]) * fabsf(e[j]) : fabsf(ax[q]);
                h[q] = j ? h[q] + t : t;
            }
        }
        for (int q = 0; q < 3; q++)
            a[q] = x[q] - h[q], z[q] = x[q] + h[q];
        return;
    }
    default: {
        const satc_instances *s = &b->instances;
        const float *m = (const float *)(const void *)((const char *)s->matrix + i * s->stride);
        float lc[3] = {NAN, NAN, NAN}, lh[3] = {0, 0, 0}, pl[3];
        size_t li = s->mesh ? *(const uint32_t *)(const void *)((const char *)s->mesh +
                                                                 i * s->mesh_stride)
                            : i;
        if (!s->mesh || li < s->mesh_count)
            rd3v(&s->local_center, li, lc), rd3v(&s->local_half, li, lh);
        for (int r = 0; r < 3; r++) {
            float mr[4];
            for (int col = 0; col < 4; col++)
                mr[col] = s->layout == SATC_AFFINE_ROWS ? m[r * 4 + col]
                          : s->layout == SATC_AFFINE_4X3_COLUMN_MAJOR ? m[col * 3 + r]
                                                                      : m[col * 4 + r];
            float p0 = mr[0] * lc[0], p1 = mr[1] * lc[1], p2 = mr[2] * lc[2];
            float c = mr[3] + ((p0 + p1) + p2);
            float h = (fabsf(mr[0]) * fabsf(lh[0]) + fabsf(mr[1]) * fabsf(lh[1])) +
                      fabsf(mr[2]) * fabsf(lh[2]);
            pl[r] = (fabsf(p0) + fabsf(p1)) + fabsf(p2);
            a[r] = c - h, z[r] = c + h;
        }
        *p = (pl[0] + pl[1]) + pl[2];
        return;
    }
    }
}

static int same_bits(float a, float b) { return (isnan(a) && isnan(b)) || !memcmp(&a, &b, 4); }

static void test_bounds(rb_rng *r)
{
    enum { N = 32 * 21 + 5 };
    float *c = malloc(3 * N * sizeof *c), *h = malloc(3 * N * sizeof *h);
    float lo[3 * 32], hi[3 * 32], xs[32], elo[3 * 32], ehi[3 * 32], exs[32];
    for (int round = 0; round < 12; round++) {
        for (size_t i = 0; i < 3 * N; i++) {
            c[i] = (float)rb_uniform(r, -1e3, 1e3) * (round % 3 ? 1.0f : 1e4f);
            h[i] = (float)rb_uniform(r, -10, 10); /* negative sizes mean their magnitude */
        }
        size_t bad1 = 32 * 3 + 7, bad2 = 32 * 9 + 31; /* NaN, infinite */
        c[3 * bad1 + (size_t)round % 3] = NAN;
        h[3 * bad2] = INFINITY;
        for (int L = 0; L < L_COUNT; L++) {
            store st;
            satc_batch b = store_make(&st, L, c, h, N);
            for (size_t first = 0; first < 64; first += 37) {
                size_t n = N - first < 512 ? N - first : 512, ng = n / 32;
                /* the expected boxes, in float as the kernels round */
                for (size_t g = 0; g < ng; g++) {
                    int ok = 1;
                    float l[3] = {INFINITY, INFINITY, INFINITY}, u[3] = {-INFINITY, -INFINITY, -INFINITY};
                    float pm = 0.0f;
                    for (size_t j = 0; j < 32; j++) {
                        float a[3], z[3], p;
                        ref_box(&b, first + g * 32 + j, a, z, &p);
                        ok &= isfinite(p);
                        for (int q = 0; q < 3; q++) {
                            ok &= isfinite(a[q]) && isfinite(z[q]);
                            l[q] = a[q] < l[q] ? a[q] : l[q], u[q] = z[q] > u[q] ? z[q] : u[q];
                        }
                        pm = p > pm ? p : pm;
                    }
                    for (int q = 0; q < 3; q++)
                        elo[q * ng + g] = ok ? l[q] : NAN, ehi[q * ng + g] = ok ? u[q] : NAN;
                    exs[g] = ok ? pm : NAN;
                }
                for (int p = 0; p < g_npaths; p++) {
                    const satc_kernels *k = satc_kernels_for(g_paths[p]);
                    if (!k || !k->bounds[b.form])
                        continue;
                    unsigned fl = first + n == N ? SATC_K_LAST : 0u;
                    k->bounds[b.form](&b, first, n, SATC_MICRO, fl, lo, hi, xs);
                    int same = 1;
                    for (size_t j = 0; j < 3 * ng; j++)
                        same &= same_bits(elo[j], lo[j]) && same_bits(ehi[j], hi[j]);
                    for (size_t g = 0; g < ng; g++)
                        same &= same_bits(exs[g], xs[g]);
                    rb_check(same, "bounds %s, %s, first %zu: differ from the scalar min/max",
                             satc_isa_name(g_paths[p]), g_lname[L], first);
                    /* xs is optional: the boxes without it are the same */
                    float lo2[3 * 32], hi2[3 * 32];
                    k->bounds[b.form](&b, first, n, SATC_MICRO, fl, lo2, hi2, NULL);
                    same = 1;
                    for (size_t j = 0; j < 3 * ng; j++)
                        same &= same_bits(lo2[j], lo[j]) && same_bits(hi2[j], hi[j]);
                    rb_check(same, "bounds %s, %s, first %zu: differ without xs",
                             satc_isa_name(g_paths[p]), g_lname[L], first);
                    /* Boxes of 128 (satc_group_bounds' span): the least and
                     * greatest of their four boxes of 32, bit for bit (NaN
                     * when one of them is). */
                    size_t n4 = n / 128 * 128, g4 = n4 / 128;
                    float lo4[3 * 8], hi4[3 * 8], xs4[8];
                    if (g4) {
                        k->bounds[b.form](&b, first, n4, 128, first + n4 == N ? SATC_K_LAST : 0u, lo4, hi4, xs4);
                        same = 1;
                        for (size_t g = 0; g < g4; g++) {
                            int bad = 0;
                            float pm = 0.0f;
                            for (size_t u = 4 * g; u < 4 * g + 4; u++)
                                bad |= isnan(xs[u]), pm = xs[u] > pm ? xs[u] : pm;
                            same &= bad ? isnan(xs4[g]) : same_bits(xs4[g], pm);
                            for (int q = 0; q < 3; q++) {
                                float l = INFINITY, u2 = -INFINITY;
                                for (size_t u = 4 * g; u < 4 * g + 4; u++) {
                                    l = lo[(size_t)q * ng + u] < l ? lo[(size_t)q * ng + u] : l;
                                    u2 = hi[(size_t)q * ng + u] > u2 ? hi[(size_t)q * ng + u] : u2;
                                }
                                same &= bad ? isnan(lo4[(size_t)q * g4 + g]) && isnan(hi4[(size_t)q * g4 + g])
                                            : same_bits(lo4[(size_t)q * g4 + g], l) && same_bits(hi4[(size_t)q * g4 + g], u2);
                            }
                        }
                        rb_check(same, "bounds of 128 %s, %s, first %zu: not the union of those of 32",
                                 satc_isa_name(g_paths[p]), g_lname[L], first);
                    }
                }
            }
            store_free(&st);
        }
    }
    free(c), free(h);
}

/* ---- 2. the decisions, seen through a kernel that records its calls ---- */

static size_t g_call_lo[64], g_call_n[64];
static int g_calls;

static void recording_kernel(const satc_frustum *f, const satc_batch *b, size_t first, size_t n,
                             unsigned flags, uint64_t *vis, uint64_t *in)
{
    (void)f, (void)b, (void)flags;
    if (g_calls < 64)
        g_call_lo[g_calls] = first, g_call_n[g_calls] = n;
    g_calls++;
    memset(vis, 0, SATC_CHUNK_WORDS * 8), memset(in, 0, SATC_CHUNK_WORDS * 8);
    for (size_t j = 0; j < n; j++)
        vis[j / 64] |= (uint64_t)1 << (j % 64); /* "visible": marks what the kernel saw */
}

/* A world point from camera-frame coordinates. */
static void frame_point(const satc_camera *cam, double x, double y, double z, float out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = (float)(cam->origin[k] + cam->left[k] * x + cam->up[k] * y + cam->dir[k] * z);
}

static int bits_equal(const uint64_t *w, size_t lo, size_t hi, int want)
{
    for (size_t j = lo; j < hi; j++) {
        if ((int)(w[j / 64] >> (j % 64) & 1) != want)
            return 0;
    }
    return 1;
}

static void test_decisions(rb_rng *r)
{
    enum { N = 512 };
    float c[3 * N], h[3 * N], lo[3 * 16], hi[3 * 16], xs[16];
    satc_camera cam;
    const float eye[3] = {120.0f, 5.0f, -40.0f};
    rb_camera_persp(&cam, r, eye, 0.1f, 1000.0f);
    satc_frustum f;
    satc_frustum_from_camera(&f, &cam);
    satc_gview gv;
    /* kinds of group: 0 out (behind), 1 deep inside, 2 across the right side */
    static const int cases[5][16] = {
        {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
        {0, 0, 0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0},
        {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, /* with a NaN volume in group 5 */
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, /* 505 volumes: a tail of 25 */
    };
    /* AABBs, then instances with a local box each (rho infinite: only the
     * bounds' own extra S term lets them be decided) */
    for (int tc = 0; tc < 5 + 3; tc++) {
        int cs = tc < 5 ? tc : tc - 5, inst = tc >= 5;
        for (size_t i = 0; i < N; i++) {
            int kind = cases[cs][i / 32];
            double z = 40.0 + (double)(i % 32) * 0.1;
            if (kind == 0)
                frame_point(&cam, 0, 0, -z, c + 3 * i);
            else if (kind == 1)
                frame_point(&cam, 0, 0, z, c + 3 * i);
            else
                frame_point(&cam, f.x1 * 40.0, 0, 40.0, c + 3 * i);
            h[3 * i] = h[3 * i + 1] = h[3 * i + 2] = kind == 2 ? 1.0f : 0.01f;
        }
        if (cs == 3)
            c[3 * (5 * 32 + 4) + 1] = NAN;
        size_t n = cs == 4 ? 505 : N;
        store st;
        satc_batch b = store_make(&st, inst ? L_INST_LOCAL : L_AABB_F3, c, h, N);
        satc_gview_init(&gv, &f, &b);
        for (int p = 0; p < g_npaths; p++) {
            const satc_kernels *k = satc_kernels_for(g_paths[p]);
            if (!k || !k->bounds[b.form])
                continue;
            for (int cls = 0; cls < 2; cls++) {
                satc_pre pc;
                uint64_t vis[SATC_CHUNK_WORDS], in[SATC_CHUNK_WORDS];
                k->bounds[b.form](&b, 0, n, SATC_MICRO, SATC_K_LAST, lo, hi, xs);
                satc_pre_chunk(&pc, lo, hi, xs, n / 32, n, b.form);
                g_calls = 0;
                unsigned flags = SATC_K_LAST | (cls ? SATC_K_CLASSIFY : 0u);
                satc_pre_run(&pc, recording_kernel, k->fn[SATC_FORM_AABB][0], &f, &gv, &b, 0, n,
                             flags, vis, in);
                const char *path = satc_isa_name(g_paths[p]);
                int ok;
                switch (cs) {
                case 0: ok = g_calls == 0 && bits_equal(vis, 0, SATC_CHUNK, 0); break;
                case 1:
                    ok = g_calls == 0 && bits_equal(vis, 0, N, 1) &&
                         bits_equal(in, 0, N, cls) && bits_equal(vis, N, SATC_CHUNK, 0);
                    break;
                case 2:
                    ok = g_calls == 1 && g_call_lo[0] == 96 && g_call_n[0] == 32 &&
                         bits_equal(vis, 0, 96, 0) && bits_equal(vis, 96, 448, 1) &&
                         bits_equal(vis, 448, N, 0) && bits_equal(in, 96, 128, 0) &&
                         bits_equal(in, 128, 448, cls);
                    break;
                case 3:
                    ok = g_calls == 1 && g_call_lo[0] == 160 && g_call_n[0] == 32 &&
                         bits_equal(vis, 0, 160, 0) && bits_equal(vis, 192, N, 0);
                    break;
                default:
                    ok = g_calls == 1 && g_call_lo[0] == 480 && g_call_n[0] == 25 &&
                         bits_equal(vis, 0, 505, 1) && bits_equal(in, 0, 480, cls);
                    break;
                }
                rb_check(ok, "decisions, %s case %d, %s, classes %d: %d kernel calls (first at"
                         " %zu, %zu volumes)", inst ? "instances" : "AABBs", cs, path, cls,
                         g_calls, g_calls ? g_call_lo[0] : 0, g_calls ? g_call_n[0] : 0);
            }
        }
        store_free(&st);
    }
}

/* ---- 3. the pass against each view's own cull ---- */

typedef struct outs {
    uint8_t *mask, *cls;
    uint32_t *idx;
} outs;

/* satc_cull_views over [first, first + count) against K single culls,
 * every path and mode; returns the mismatches. */
int compare_views(const satc_frustum *views, int K, const satc_batch *b, size_t first,
                         size_t count, const char *what)
{
    uint64_t *masks = calloc(count + 1, 8);
    uint8_t *bm = calloc(count / 8 + 2, 1), *cl1 = calloc(count + 1, 1);
    uint32_t *ix1 = calloc(count + 1, 4);
    uint8_t *cls[SATC_MAX_VIEWS];
    uint32_t *idx[SATC_MAX_VIEWS];
    for (int v = 0; v < K; v++)
        cls[v] = calloc(count + 1, 1), idx[v] = calloc(count + 1, 4);
    size_t bytes = K <= 8 ? 1 : K <= 16 ? 2 : K <= 32 ? 4 : 8;
    int bad = 0;
    for (int p = 0; p < g_npaths; p++) {
        for (int mode = 0; mode < 2; mode++) {
            if (mode == 1 && views[K - 1].kind == SATC_FRUSTUM_PLANES && !views[K - 1].nverts)
                continue; /* unbounded plane volume: exact mode is refused */
            size_t visible[SATC_MAX_VIEWS];
            uint8_t *clsp[SATC_MAX_VIEWS];
            for (int v = 0; v < K; v++)
                clsp[v] = (v + mode) % 2 ? cls[v] : NULL;
            satc_view_results o = {masks, idx, clsp, visible};
            satc_status st = satc_cull_views_isa(g_paths[p], views, (size_t)K, b, first, count,
                                                 (satc_mode)mode, &o);
            if (!rb_check(st == SATC_OK, "%s: satc_cull_views status %d", what, st)) {
                bad++;
                continue;
            }
            for (int v = 0; v < K; v++) {
                satc_results r1 = {bm, clsp[v] ? cl1 : NULL, ix1, 0};
                satc_cull_isa(g_paths[p], &views[v], b, first, count, (satc_mode)mode, &r1);
                int same = r1.visible == visible[v] &&
                           !memcmp(ix1, idx[v], visible[v] * sizeof *ix1) &&
                           (!clsp[v] || !memcmp(cl1, cls[v], count));
                for (size_t j = 0; same && j < count; j++) {
                    uint64_t w = 0;
                    memcpy(&w, (const char *)masks + j * bytes, bytes);
                    same = (int)(w >> v & 1) == (bm[j / 8] >> (j % 8) & 1);
                }
                if (!rb_check(same, "%s: view %d differs from its own cull (%s, mode %d, first %zu,"
                              " count %zu, visible %zu vs %zu)", what, v,
                              satc_isa_name(g_paths[p]), mode, first, count, visible[v], r1.visible))
                    bad++;
            }
        }
    }
    for (int v = 0; v < K; v++)
        free(cls[v]), free(idx[v]);
    free(masks), free(bm), free(cl1), free(ix1);
    return bad;
}

/* Volume i of layout L, extents `half`, placed against plane pl (inside
 * where n.x + d >= 0) through P: its near side s tolerances outside
 * (outer), or its far side s tolerances beyond the plane (inner). */
static void place(int L, size_t i, const float pl[4], const double P[3], double s, double tol,
                  int outer, float half, float c[3], float h[3])
{
    double n[3] = {pl[0], pl[1], pl[2]}, len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; k++)
        n[k] /= len, h[k] = half;
    double sup = support(L, i, h, n);
    double off = outer ? sup + s * tol : -sup + s * tol; /* along the outward normal */
    for (int k = 0; k < 3; k++)
        c[k] = (float)(P[k] - n[k] * off);
}

static void test_margins(rb_rng *r, int quick)
{
    enum { CH = SATC_PRE_STEP, NCH = 6, N = CH * NCH + 77 }; /* the pass's chunks */
    float *c = malloc(3 * N * sizeof *c), *h = malloc(3 * N * sizeof *h);
    int rounds = quick ? 3 : 8;
    for (int L = 0; L < L_COUNT; L++) {
        for (int round = 0; round < rounds; round++) {
            int kind = round % 4; /* 0 finite, 1 infinite far, 2 orthographic, 3 far world */
            float eye[3] = {(float)rb_uniform(r, -1e3, 1e3), (float)rb_uniform(r, -10, 10),
                            (float)rb_uniform(r, -1e3, 1e3)};
            if (kind == 3)
                eye[0] += 1e6f, eye[2] -= 2e6f;
            satc_camera cam;
            if (kind == 2)
                rb_camera_ortho(&cam, r, eye, 60.0f, 35.0f, 0.5f, 300.0f);
            else
                rb_camera_persp(&cam, r, eye, 0.1f, kind == 1 ? INFINITY : 400.0f);
            satc_frustum views[3];
            satc_frustum_from_camera(&views[0], &cam);
            float pl[6][4];
            int np = scn_frustum_planes(&views[0], pl);
            satc_camera cam2;
            rb_camera_ortho(&cam2, r, eye, 80.0f, 80.0f, -200.0f, 200.0f);
            satc_frustum_from_camera(&views[1], &cam2);
            satc_frustum_from_planes(&views[2], (const float(*)[4])pl, (size_t)np, 0.0f);
            const satc_frustum *f = &views[0];
            for (size_t i = 0; i < N; i++) {
                size_t chunk = i / CH, g = (i % CH) / 32;
                /* what this volume's group (or chunk) shares: a plane, a point on it, a size */
                rb_rng gr = {(uint64_t)(round * 1000 + (int)chunk * 64 + (int)g + 1) * 7919u};
                if (chunk == 0 || chunk == 3)
                    gr.s = (uint64_t)(round * 1000 + (int)chunk + 1) * 104729u; /* whole chunk */
                int plane = (int)rb_uniform(&gr, 0, np);
                double fz = kind == 2 ? rb_uniform(&gr, 1, 299) : rb_uniform(&gr, 1, 300);
                double fx = rb_uniform(&gr, -1, 1), fy = rb_uniform(&gr, -1, 1);
                double x = kind == 2 ? fx * 60.0 : fx * f->x1 * fz, y = kind == 2 ? fy * 35.0 : fy * f->y1 * fz;
                double X[3];
                for (int k = 0; k < 3; k++)
                    X[k] = cam.origin[k] + cam.left[k] * x + cam.up[k] * y + cam.dir[k] * fz;
                double len = sqrt(pl[plane][0] * pl[plane][0] + pl[plane][1] * pl[plane][1] +
                                  pl[plane][2] * pl[plane][2]);
                double dist = (pl[plane][0] * X[0] + pl[plane][1] * X[1] + pl[plane][2] * X[2] +
                               pl[plane][3]) / len;
                double P[3];
                for (int k = 0; k < 3; k++)
                    P[k] = X[k] - pl[plane][k] / len * dist; /* X moved onto the plane */
                /* rotated volumes down to 1e-5: group boxes no looser than a tolerance */
                float half = (float)pow(10.0, rb_uniform(&gr, L >= L_OBB_REC ? -5 : -2, 1));
                double rel = fabs(P[0] - cam.origin[0]) + fabs(P[1] - cam.origin[1]) +
                             fabs(P[2] - cam.origin[2]);
                double H[3][3], M[3][3];
                float hf[3] = {half, half, half};
                double extra = L >= L_OBB_REC ? shape(L, i, hf, H, M) : 0.0; /* instances' S term */
                double tol = (double)f->eps_k * (2.0 * rel + 6.0 * half + extra) + f->tol_t;
                int outer = rb_uniform(&gr, 0, 1) < 0.5;
                double s = rb_uniform(&gr, -8, 8); /* the group's (chunk's) distance */
                if (chunk == 2 || chunk == 5)
                    s = rb_uniform(r, -8, 8); /* each volume its own */
                if (chunk == 3) { /* groups near one point (a small chunk box), s swept -4..4 */
                    rb_rng gs = {(uint64_t)(round * 1000 + (int)g + 1) * 15485863u};
                    s = 0.5 * ((double)g - 8.0) + rb_uniform(&gs, -0.25, 0.25);
                }
                if (chunk == 4 && (i % 32) == 0)
                    s += 1000; /* groups spread across the plane */
                place(L, i, pl[plane], P, s, tol, outer, half, c + 3 * i, h + 3 * i);
                if (i >= CH * NCH) { /* the tail: random volumes near the view */
                    for (int k = 0; k < 3; k++)
                        c[3 * i + k] = (float)(X[k] + rb_uniform(r, -20, 20));
                }
            }
            c[3 * (CH * 1 + 32 * 7 + 3)] = NAN;         /* a NaN volume */
            c[3 * (CH * 4 + 32 * 2 + 9) + 1] = 1e30f;   /* a huge one */
            h[3 * (CH * 5 + 32 * 11 + 30)] = INFINITY;  /* an infinite one */
            store st;
            satc_batch b = store_make(&st, L, c, h, N);
            char what[96];
            snprintf(what, sizeof what, "margins, %s, round %d", g_lname[L], round);
            compare_views(views, 3, &b, 0, N, what);
            compare_views(views, 2, &b, 3, N - 3 - 40, what); /* unaligned, shorter */
            store_free(&st);
        }
    }
    free(c), free(h);
}

int main(void)
{
    int quick = rb_quick();
    g_npaths = rb_paths(g_paths);
    rb_rng r = {20261123};
    test_bounds(&r);
    test_decisions(&r);
    test_margins(&r, quick);
    test_extra_s(&r);
    test_city(&r, quick);
    return rb_finish();
}
