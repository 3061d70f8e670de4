/* Any volume form to world AABBs (seed 002, "OBB to AABB conversion": the
 * extent along world axis k is sum_j |H_j . e_k|), for engines and
 * baselines that keep world AABBs. Computed in double from the stored
 * floats (their products are exact there), then the center is rounded to
 * nearest and the half size upward, past the center's rounding, so each
 * float AABB contains its volume. */
#include <math.h>
#include <string.h>

#include "../core/volume_d.h"

static const float *at(const float *p, size_t stride, size_t i)
{
    return (const float *)(const void *)((const char *)p + i * stride);
}

static void rd3(const satc_vec3s *v, size_t i, double out[3])
{
    out[0] = *at(v->x, v->stride, i);
    out[1] = *at(v->y, v->stride, i);
    out[2] = *at(v->z, v->stride, i);
}

int satc_volume_d(const satc_batch *b, size_t i, satc_vol_d *vol)
{
    double(*H)[3] = vol->H, *c = vol->c, v[3], w[3];
    memset(vol, 0, sizeof *vol);
    switch (b->form) {
    case SATC_FORM_OBB:
        rd3(&b->obb.center, i, c);
        rd3(&b->obb.extent, i, w);
        for (int j = 0; j < 3; j++) {
            rd3(&b->obb.axis[j], i, v);
            for (int k = 0; k < 3; k++)
                H[j][k] = fabs(w[j]) * v[k];
        }
        break;
    case SATC_FORM_HALF_AXES:
        rd3(&b->half_axes.center, i, c);
        for (int j = 0; j < 3; j++)
            rd3(&b->half_axes.axis[j], i, H[j]);
        break;
    case SATC_FORM_AABB:
        rd3(&b->aabb.center, i, c);
        rd3(&b->aabb.half, i, w);
        for (int j = 0; j < 3; j++)
            H[j][j] = fabs(w[j]);
        break;
    case SATC_FORM_MINMAX:
        rd3(&b->minmax.min, i, v);
        rd3(&b->minmax.max, i, w);
        for (int k = 0; k < 3; k++) /* exact in double */
            c[k] = 0.5 * (v[k] + w[k]), H[k][k] = 0.5 * fabs(w[k] - v[k]);
        break;
    case SATC_FORM_SPHERES: {
        rd3(&b->spheres.center, i, c);
        double r = fabs((double)*at(b->spheres.radius.p, b->spheres.radius.stride, i));
        for (int j = 0; j < 3; j++)
            H[j][j] = r;
        vol->r = r;
        vol->sphere = 1;
        break;
    }
    default: { /* SATC_FORM_INSTANCES */
        const satc_instances *s = &b->instances;
        size_t id = i;
        if (s->mesh) {
            id = *(const uint32_t *)(const void *)((const char *)s->mesh + i * s->mesh_stride);
            if (id >= s->mesh_count)
                return 0;
        }
        double lc[3], lh[3], m[3][4];
        rd3(&s->local_center, id, lc);
        rd3(&s->local_half, id, lh);
        const float *base = at(s->matrix, s->stride, i);
        for (int r = 0; r < 3; r++) {
            for (int q = 0; q < 4; q++) {
                int off = s->layout == SATC_AFFINE_ROWS                 ? r * 4 + q
                          : s->layout == SATC_AFFINE_4X3_COLUMN_MAJOR ? q * 3 + r
                                                                        : q * 4 + r;
                m[r][q] = base[off];
            }
        }
        for (int r = 0; r < 3; r++) {
            c[r] = m[r][3] + m[r][0] * lc[0] + m[r][1] * lc[1] + m[r][2] * lc[2];
            vol->cmag += fabs(m[r][3]) + fabs(m[r][0] * lc[0]) + fabs(m[r][1] * lc[1]) +
                         fabs(m[r][2] * lc[2]);
            for (int j = 0; j < 3; j++)
                H[j][r] = m[r][j] * fabs(lh[j]);
        }
        return 1;
    }
    }
    vol->cmag = fabs(c[0]) + fabs(c[1]) + fabs(c[2]);
    return 1;
}

/* Center c and half size h of volume i in world units, in double; 0 when
 * the volume cannot be bounded (a mesh id past the table). */
static int bounds(const satc_batch *b, size_t i, double c[3], double h[3])
{
    satc_vol_d v;
    if (!satc_volume_d(b, i, &v))
        return 0;
    for (int k = 0; k < 3; k++) {
        c[k] = v.c[k];
        h[k] = fabs(v.H[0][k]) + fabs(v.H[1][k]) + fabs(v.H[2][k]);
    }
    return 1;
}

satc_status satc_to_aabbs(const satc_batch *b, size_t first, size_t count, float *center,
                          float *half)
{
    satc_status st = satc_check_volumes(b, first, count);
    if (st != SATC_OK)
        return st;
    if (count && (!center || !half))
        return SATC_ERR_NULL;
    for (size_t j = 0; j < count; j++) {
        double c[3] = {0, 0, 0}, h[3] = {0, 0, 0};
        int ok = bounds(b, first + j, c, h);
        float cf[3], hf[3];
        for (int k = 0; k < 3; k++) {
            cf[k] = (float)c[k];
            /* Double sums of up to four exact products: relative error
             * below 2^-50 of the magnitudes involved. */
            double need = h[k] + fabs((double)cf[k] - c[k]) + 0x1p-50 * (fabs(c[k]) + h[k]);
            hf[k] = satc_float_up(need);
            ok &= isfinite(cf[k]) && isfinite(c[k]) && isfinite(h[k]) && !isnan(hf[k]);
        }
        for (int k = 0; k < 3; k++) { /* a non-finite volume: never culled, as itself */
            center[3 * j + (size_t)k] = ok ? cf[k] : NAN;
            half[3 * j + (size_t)k] = ok ? hf[k] : INFINITY;
        }
    }
    return SATC_OK;
}
