/* A volume of any form in world units, in double, from the stored floats
 * (satc_volume_d, core/volume_d.h): shared by the conversions to world
 * AABBs, the queries' refinement and exact mode's second stage (so it
 * sits in the lowest layer). */
#include <math.h>
#include <string.h>

#include "volume_d.h"

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

int satc_trs_frame_d(const satc_trs *s, size_t i, const float qf[4], double R[3][3], double lc[3],
                     double lh[3])
{
    double x = qf[0], y = qf[1], z = qf[2], w = qf[3];
    double t = 2.0 / (x * x + y * y + z * z + w * w);
    R[0][0] = 1.0 - t * (y * y + z * z), R[0][1] = t * (x * y - w * z), R[0][2] = t * (x * z + w * y);
    R[1][0] = t * (x * y + w * z), R[1][1] = 1.0 - t * (x * x + z * z), R[1][2] = t * (y * z - w * x);
    R[2][0] = t * (x * z - w * y), R[2][1] = t * (y * z + w * x), R[2][2] = 1.0 - t * (x * x + y * y);
    lc[0] = lc[1] = lc[2] = 0;
    const satc_local_boxes *lb = s->local;
    if (!lb) {
        lh[0] = lh[1] = lh[2] = satc_trs_k(s);
        return 1;
    }
    size_t id = i;
    if (lb->mesh) {
        id = *(const uint32_t *)(const void *)((const char *)lb->mesh + i * lb->mesh_stride);
        if (id >= lb->mesh_count)
            return 0;
    }
    rd3(&lb->center, id, lc);
    rd3(&lb->half, id, lh);
    return 1;
}


/* Instance i: H_j = column j of the matrix times |lh_j| (products of two
 * floats, exact) and c = t + M lc (three sums, each rounded below 2^-53
 * of the magnitudes summed, whose total is *cmag). 0 for a mesh id past
 * the table. */
int satc_instance_d(const satc_instances *s, size_t i, double c[3], double H[3][3], double *cmag)
{
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
    /* element (r, q) at base[r * rs + q * qs] */
    size_t rs = s->layout == SATC_AFFINE_ROWS ? 4 : 1;
    size_t qs = s->layout == SATC_AFFINE_ROWS                 ? 1
                : s->layout == SATC_AFFINE_4X3_COLUMN_MAJOR ? 3
                                                              : 4;
    for (int r = 0; r < 3; r++)
        for (int q = 0; q < 4; q++)
            m[r][q] = base[(size_t)r * rs + (size_t)q * qs];
    *cmag = 0;
    for (int r = 0; r < 3; r++) {
        c[r] = m[r][3] + m[r][0] * lc[0] + m[r][1] * lc[1] + m[r][2] * lc[2];
        *cmag += fabs(m[r][3]) + fabs(m[r][0] * lc[0]) + fabs(m[r][1] * lc[1]) +
                 fabs(m[r][2] * lc[2]);
        for (int j = 0; j < 3; j++)
            H[j][r] = m[r][j] * fabs(lh[j]);
    }
    return 1;
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
    case SATC_FORM_TRS: {
        /* R(q) in double from the stored q (the exact rotation to about
         * 2^-50); a log scale's float exp widened past its error. A
         * quaternion the float loaders reject cannot be described. */
        const satc_trs *s = &b->trs;
        float qf[4], sf[3];
        satc_trs_quat(s, i, qf);
        satc_vec3s_get(&s->scale, i, sf);
        double sc[3];
        float n2f = ((qf[0] * qf[0] + qf[1] * qf[1]) + qf[2] * qf[2]) + qf[3] * qf[3];
        if (!(n2f >= SATC_QUAT_N2_MIN && n2f <= SATC_QUAT_N2_MAX))
            return 0;
        for (int j = 0; j < 3; j++)
            sc[j] = (s->format & SATC_TRS_LOG_SCALE) ? (double)satc_expf_ref(sf[j]) * (1.0 + 2.0 * SATC_EXP_REL_ERROR)
                                 : (double)sf[j];
        double R[3][3], lc[3], lh[3];
        if (!satc_trs_frame_d(s, i, qf, R, lc, lh))
            return 0;
        double p[3];
        rd3(&s->position, i, p);
        for (int r = 0; r < 3; r++) {
            c[r] = p[r];
            vol->cmag += fabs(p[r]);
            for (int j = 0; j < 3; j++) {
                double mj = R[r][j] * sc[j];
                c[r] += mj * lc[j];
                vol->cmag += fabs(mj * lc[j]);
                H[j][r] = mj * fabs(lh[j]);
            }
        }
        /* R's rounding (below 2^-49 of what it multiplies) moves c and
         * the H_j: every component grows outward by 2^-46 (|H_j|_1 +
         * cmag / 3), so the world AABB of the box holds the exact one. */
        for (int j = 0; j < 3; j++) {
            double g = 0x1p-46 * (satc_norm1_d(H[j]) + vol->cmag / 3.0);
            for (int r = 0; r < 3; r++)
                H[j][r] += H[j][r] < 0 ? -g : g;
        }
        return 1;
    }
    default: /* SATC_FORM_INSTANCES */
        return satc_instance_d(&b->instances, i, c, H, &vol->cmag);
    }
    vol->cmag = fabs(c[0]) + fabs(c[1]) + fabs(c[2]);
    return 1;
}
