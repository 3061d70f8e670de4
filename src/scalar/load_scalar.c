/*
 * The scalar reference's loaders: every box form enters the tests as one
 * satc_box_frame (the frame coordinates of its center and half-axis
 * vectors, its radii on the plane normals, and its tolerance scale S).
 * The SIMD loaders (src/kernels/load.h) repeat these expressions per lane,
 * in the same order. Camera-relative first: E is subtracted
 * from world positions before anything is multiplied.
 */
#include <math.h>
#include <string.h>

#include "../core/internal.h"
#include "cull_scalar.h"

static inline const float *at(const float *p, size_t stride, size_t i)
{
    return (const float *)(const void *)((const char *)p + i * stride);
}

static inline void rd3(const satc_vec3s *v, size_t i, float out[3])
{
    out[0] = *at(v->x, v->stride, i);
    out[1] = *at(v->y, v->stride, i);
    out[2] = *at(v->z, v->stride, i);
}

/* Frame coordinates of a world vector: (L.v, U.v, D.v), summed left to right. */
static inline void to_frame(const satc_frustum *f, const float v[3], float *x, float *y, float *z)
{
    const float *L = f->frame[0], *U = f->frame[1], *D = f->frame[2];
    *x = L[0] * v[0] + L[1] * v[1] + L[2] * v[2];
    *y = U[0] * v[0] + U[1] * v[1] + U[2] * v[2];
    *z = D[0] * v[0] + D[1] * v[1] + D[2] * v[2];
}

static inline float sum_abs3(const float *a) { return fabsf(a[0]) + fabsf(a[1]) + fabsf(a[2]); }

/* sum_j |a_j - k c_j|: the radius on a side plane's normal (1, 0, -k). */
static inline float radius_side(const float *a, const float *c, float k)
{
    return fabsf(a[0] - k * c[0]) + fabsf(a[1] - k * c[1]) + fabsf(a[2] - k * c[2]);
}

/* Radii on the plane normals and S from the half-axis vectors. */
static void finish_axes(const satc_frustum *f, satc_box_frame *o)
{
    float ax = sum_abs3(o->hx), ay = sum_abs3(o->hy), az = sum_abs3(o->hz);
    if (f->kind != SATC_FRUSTUM_PERSPECTIVE) {
        o->r[0] = ax, o->r[1] = ay, o->r[2] = az;
        o->r[3] = o->r[4] = 0.0f;
    } else {
        o->r[0] = az;
        o->r[1] = radius_side(o->hx, o->hz, f->x1);
        o->r[2] = radius_side(o->hx, o->hz, f->x0);
        o->r[3] = radius_side(o->hy, o->hz, f->y1);
        o->r[4] = radius_side(o->hy, o->hz, f->y0);
    }
    float sd = fabsf(o->dx) + fabsf(o->dy) + fabsf(o->dz);
    o->s = sd + ax + ay + az + SATC_S_FLOOR;
}

/* An axis-aligned box with camera-relative center c and half extents h
 * (magnitudes): radii from the frustum's |normal| table (RTR 22.10.1),
 * half axes h_j times world axis j. */
static void load_aabb(const satc_frustum *f, const satc_fconsts *k, const float c[3],
                      const float h[3], satc_box_frame *o)
{
    const float *L = f->frame[0], *U = f->frame[1], *D = f->frame[2];
    to_frame(f, c, &o->dx, &o->dy, &o->dz);
    for (int j = 0; j < 3; j++) {
        o->hx[j] = h[j] * L[j];
        o->hy[j] = h[j] * U[j];
        o->hz[j] = h[j] * D[j];
    }
    int np = f->kind != SATC_FRUSTUM_PERSPECTIVE ? 3 : 5;
    for (int p = 0; p < 5; p++)
        o->r[p] = p < np ? h[0] * k->pabs[p][0] + h[1] * k->pabs[p][1] + h[2] * k->pabs[p][2] : 0.0f;
    float sd = fabsf(o->dx) + fabsf(o->dy) + fabsf(o->dz);
    o->s = sd + (h[0] * k->col1[0] + h[1] * k->col1[1] + h[2] * k->col1[2]) + SATC_S_FLOOR;
}

/* Element (r, c) of an affine matrix in layout `lay` (satc_affine). */
static inline float mat_at(const float *m, satc_affine lay, int r, int c)
{
    switch (lay) {
    case SATC_AFFINE_ROWS: return m[r * 4 + c];
    case SATC_AFFINE_4X3_COLUMN_MAJOR: return m[c * 3 + r];
    default: return m[c * 4 + r];
    }
}

/* A local box [lc - lh, lc + lh] mapped by the affine m (rows 0..2):
 * the frame fields but S's local-offset term, which it returns: sum_r
 * sum_k |m_rk lc_k|. Center: (t - E) + M lc, the translation made
 * camera-relative before the local offset is added. The products'
 * magnitudes join S (docs/error-bound.md §3.4): the offset's rounding is
 * relative to them, not to the center, and t - E and M lc may cancel. */
static float load_mapped(const satc_frustum *f, const float m[3][4], const float lc[3],
                         const float lh[3], satc_box_frame *o)
{
    const float *E = f->origin;
    float c[3], v[3], pl[3];
    for (int r = 0; r < 3; r++) {
        float p0 = m[r][0] * lc[0], p1 = m[r][1] * lc[1], p2 = m[r][2] * lc[2];
        float ml = p0 + p1 + p2;
        c[r] = (m[r][3] - E[r]) + ml;
        pl[r] = fabsf(p0) + fabsf(p1) + fabsf(p2);
    }
    to_frame(f, c, &o->dx, &o->dy, &o->dz);
    for (int j = 0; j < 3; j++) {
        float e = fabsf(lh[j]);
        for (int r = 0; r < 3; r++)
            v[r] = m[r][j] * e;
        to_frame(f, v, &o->hx[j], &o->hy[j], &o->hz[j]);
    }
    finish_axes(f, o);
    return (pl[0] + pl[1]) + pl[2];
}

void satc_load_ref(const satc_frustum *f, const satc_fconsts *k, const satc_batch *b, size_t i,
                   satc_box_frame *o)
{
    satc_load_ref_m(f, k, b, i, o, 1);
}

void satc_load_ref_m(const satc_frustum *f, const satc_fconsts *k, const satc_batch *b, size_t i,
                     satc_box_frame *o, int exact)
{
    const float *E = f->origin;
    float c[3], h[3], v[3];
    int force_bad = 0;
    memset(o, 0, sizeof *o);
    switch (b->form) {
    case SATC_FORM_OBB: {
        const satc_obbs *s = &b->obb;
        rd3(&s->center, i, v);
        for (int q = 0; q < 3; q++)
            c[q] = v[q] - E[q];
        to_frame(f, c, &o->dx, &o->dy, &o->dz);
        rd3(&s->extent, i, h);
        for (int j = 0; j < 3; j++) {
            float al, be, ga, e = fabsf(h[j]); /* a negative extent means its magnitude */
            rd3(&s->axis[j], i, v);
            to_frame(f, v, &al, &be, &ga);
            o->hx[j] = e * al, o->hy[j] = e * be, o->hz[j] = e * ga;
        }
        finish_axes(f, o);
        break;
    }
    case SATC_FORM_HALF_AXES: {
        const satc_half_axes *s = &b->half_axes;
        rd3(&s->center, i, v);
        for (int q = 0; q < 3; q++)
            c[q] = v[q] - E[q];
        to_frame(f, c, &o->dx, &o->dy, &o->dz);
        for (int j = 0; j < 3; j++) {
            rd3(&s->axis[j], i, v);
            to_frame(f, v, &o->hx[j], &o->hy[j], &o->hz[j]);
        }
        finish_axes(f, o);
        break;
    }
    case SATC_FORM_AABB:
        rd3(&b->aabb.center, i, v);
        rd3(&b->aabb.half, i, h);
        for (int q = 0; q < 3; q++) {
            c[q] = v[q] - E[q];
            h[q] = fabsf(h[q]);
        }
        load_aabb(f, k, c, h, o);
        break;
    case SATC_FORM_MINMAX: {
        float lo[3], hi[3];
        rd3(&b->minmax.min, i, lo);
        rd3(&b->minmax.max, i, hi);
        for (int q = 0; q < 3; q++) {
            float a = lo[q] - E[q], z = hi[q] - E[q];
            c[q] = (a + z) * 0.5f;
            h[q] = fabsf((z - a) * 0.5f);
        }
        load_aabb(f, k, c, h, o);
        break;
    }
    case SATC_FORM_INSTANCES: {
        const satc_instances *s = &b->instances;
        const float *m = at(s->matrix, s->stride, i);
        size_t li = i;
        float lc[3] = {0, 0, 0}, lh[3] = {0, 0, 0};
        if (s->mesh) {
            li = *(const uint32_t *)(const void *)((const char *)s->mesh + i * s->mesh_stride);
            force_bad = li >= s->mesh_count;
        }
        if (!force_bad) {
            rd3(&s->local_center, li, lc);
            rd3(&s->local_half, li, lh);
        } else { /* as the SIMD loaders: the center NaN too (its depth) */
            lc[0] = lc[1] = lc[2] = NAN;
        }
        float mm[3][4];
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 4; q++)
                mm[r][q] = mat_at(m, s->layout, r, q);
        float pl = load_mapped(f, mm, lc, lh, o);
        o->s = o->s + pl;
        break;
    }
    case SATC_FORM_TRS:
        if (!exact && f->kind != SATC_FRUSTUM_PLANES && !b->trs.local) {
            /* A splat in conservative mode: the ball of radius k |s|_2
             * about p (it holds the box whatever the rotation), tested as
             * a sphere; S adds 16 r for the rounding of r and exp. */
            int ok;
            float rad = satc_trs_ball2(&b->trs, i, &ok);
            rd3(&b->trs.position, i, v);
            for (int j = 0; j < 3; j++)
                c[j] = v[j] - E[j];
            to_frame(f, c, &o->dx, &o->dy, &o->dz);
            o->rad = rad;
            for (int p = 0; p < 5; p++)
                o->r[p] = rad * k->norm2[p];
            float sd = fabsf(o->dx) + fabsf(o->dy) + fabsf(o->dz);
            o->s = (sd + (rad + rad) + SATC_S_FLOOR) + 16.0f * rad;
            if (!ok)
                o->s = NAN;
            break;
        }
        /* fall through */
    {
        /* The instance form's box with M = [R(q) diag(s) | p]; S also
         * counts 16 T for the rounding of R and exp (satc.h). */
        const satc_trs *s = &b->trs;
        float q[4], sc[3], rs[3][3], mm[3][4], lc[3] = {0, 0, 0}, lh[3] = {0, 0, 0};
        satc_trs_quat(s, i, q);
        satc_trs_scale(s, i, sc);
        satc_trs_rot(q, sc, rs);
        rd3(&s->position, i, v);
        for (int r = 0; r < 3; r++) {
            for (int j = 0; j < 3; j++)
                mm[r][j] = rs[r][j];
            mm[r][3] = v[r];
        }
        const satc_local_boxes *lb = s->local;
        if (!lb) {
            lh[0] = lh[1] = lh[2] = satc_trs_k(s);
        } else {
            size_t li = i;
            if (lb->mesh) {
                li = *(const uint32_t *)(const void *)((const char *)lb->mesh + i * lb->mesh_stride);
                force_bad = li >= lb->mesh_count;
            }
            if (!force_bad) {
                rd3(&lb->center, li, lc);
                rd3(&lb->half, li, lh);
            } else {
                lc[0] = lc[1] = lc[2] = NAN;
            }
        }
        float pl = load_mapped(f, mm, lc, lh, o);
        float t[3];
        for (int j = 0; j < 3; j++) {
            float cs = (fabsf(mm[0][j]) + fabsf(mm[1][j])) + fabsf(mm[2][j]);
            t[j] = cs * (fabsf(lc[j]) + fabsf(lh[j]));
        }
        o->s = o->s + (pl + 16.0f * ((t[0] + t[1]) + t[2]));
        break;
    }
    case SATC_FORM_SPHERES: {
        rd3(&b->spheres.center, i, v);
        for (int q = 0; q < 3; q++)
            c[q] = v[q] - E[q];
        to_frame(f, c, &o->dx, &o->dy, &o->dz);
        float rad = fabsf(*at(b->spheres.radius.p, b->spheres.radius.stride, i));
        o->rad = rad;
        for (int p = 0; p < 5; p++)
            o->r[p] = rad * k->norm2[p];
        float sd = fabsf(o->dx) + fabsf(o->dy) + fabsf(o->dz);
        o->s = sd + (rad + rad) + SATC_S_FLOOR;
        break;
    }
    default: force_bad = 1; break;
    }
    /* Any NaN or Inf field reaches S through an absolute value (an axis
     * through |e A|, even with e = 0); NaN fails the compare. What this
     * protects: an infinite center, which a plane would otherwise call
     * outside, and a NaN sphere, which the exact sphere test culls when
     * none of its "near" compares holds. A NaN box would be kept by the
     * planes and axes anyway (every radius holds it and compares false). */
    o->bad = force_bad | !(o->s < SATC_MAX_MAGNITUDE);
}

float satc_depth_ref(const satc_frustum *f, const satc_fconsts *k, const satc_batch *b, size_t i)
{
    satc_box_frame o;
    if (b->form == SATC_FORM_TRS && !b->trs.local) { /* a splat: its position */
        float v[3], c[3];
        rd3(&b->trs.position, i, v);
        for (int j = 0; j < 3; j++)
            c[j] = v[j] - f->origin[j];
        to_frame(f, c, &o.dx, &o.dy, &o.dz);
        return o.dz;
    }
    satc_load_ref(f, k, b, i, &o);
    return o.dz;
}
