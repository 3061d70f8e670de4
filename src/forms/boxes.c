/* Box batches and the helpers that build Eberly's center-axis-extent form
 * from what engines hold (seed 002: OBB from AABB and transforms). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"

#define ALIGN 64

satc_status satc_box_arrays_alloc(satc_box_arrays *out, size_t capacity)
{
    if (!out)
        return SATC_ERR_NULL;
    size_t stride = capacity + ALIGN / sizeof(float); /* rounded up below */
    stride = (stride + 15) & ~(size_t)15;
    if (capacity > (SIZE_MAX - ALIGN) / 15 / sizeof(float) - 32)
        return SATC_ERR_RANGE;
    size_t bytes = 15 * stride * sizeof(float);
    void *block = aligned_alloc(ALIGN, bytes);
    if (!block)
        return SATC_ERR_NOMEM;
    float *p = block;
    memset(out, 0, sizeof *out);
    for (int k = 0; k < 3; k++) {
        out->center[k] = p + (size_t)k * stride;
        out->extent[k] = p + (size_t)(3 + k) * stride;
        for (int c = 0; c < 3; c++)
            out->axis[k][c] = p + (size_t)(6 + 3 * k + c) * stride;
    }
    out->capacity = capacity;
    out->block = block;
    return SATC_OK;
}

void satc_box_arrays_free(satc_box_arrays *a)
{
    if (!a)
        return;
    free(a->block);
    memset(a, 0, sizeof *a);
}

satc_boxes satc_box_arrays_view(const satc_box_arrays *a)
{
    satc_boxes v;
    memset(&v, 0, sizeof v);
    if (!a)
        return v;
    for (int k = 0; k < 3; k++) {
        v.center[k] = a->center[k];
        v.extent[k] = a->extent[k];
        for (int c = 0; c < 3; c++)
            v.axis[k][c] = a->axis[k][c];
    }
    return v;
}

satc_status satc_box_arrays_set(const satc_box_arrays *a, size_t i, const satc_obb *b)
{
    if (!a || !b)
        return SATC_ERR_NULL;
    if (i >= a->capacity)
        return SATC_ERR_RANGE;
    for (int k = 0; k < 3; k++) {
        if (!a->center[k] || !a->extent[k] || !a->axis[k][0] || !a->axis[k][1] || !a->axis[k][2])
            return SATC_ERR_NULL;
    }
    for (int k = 0; k < 3; k++) {
        a->center[k][i] = b->center[k];
        a->extent[k][i] = b->extent[k];
        for (int c = 0; c < 3; c++)
            a->axis[k][c][i] = b->axis[k][c];
    }
    return SATC_OK;
}

satc_status satc_boxes_get(const satc_boxes *b, size_t i, satc_obb *out)
{
    if (!b || !out)
        return SATC_ERR_NULL;
    for (int k = 0; k < 3; k++) {
        if (!b->center[k] || !b->extent[k] || !b->axis[k][0] || !b->axis[k][1] || !b->axis[k][2])
            return SATC_ERR_NULL;
    }
    for (int k = 0; k < 3; k++) {
        out->center[k] = b->center[k][i];
        out->extent[k] = b->extent[k][i];
        for (int c = 0; c < 3; c++)
            out->axis[k][c] = b->axis[k][c][i];
    }
    return SATC_OK;
}

/* Whether a * b is exact in double: Dekker's product, its error term
 * zero. Exact for the values here (from floats: no overflow of the split,
 * no underflow); inline, where fma() is a library call on targets
 * built without FMA, each call spilling the registers. */
static int prod_exact(double a, double b)
{
    const double split = 134217729.0; /* 2^27 + 1 */
    double p = a * b, ta = split * a, tb = split * b;
    double ah = ta - (ta - a), al = a - ah, bh = tb - (tb - b), bl = b - bh;
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl == 0.0;
}

static int finite_n(const float *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

satc_status satc_obb_from_aabb(satc_obb *out, const float min[3], const float max[3])
{
    if (!out || !min || !max)
        return SATC_ERR_NULL;
    if (!finite_n(min, 3) || !finite_n(max, 3))
        return SATC_ERR_BOX;
    satc_obb b;
    memset(&b, 0, sizeof b);
    for (int k = 0; k < 3; k++) {
        if (!(min[k] <= max[k]))
            return SATC_ERR_BOX;
        /* In double, so the box covers [min, max] after rounding outward. */
        double c = 0.5 * ((double)min[k] + max[k]);
        double h = 0.5 * ((double)max[k] - min[k]);
        b.center[k] = (float)c;
        double need = fmax((double)max[k] - b.center[k], b.center[k] - (double)min[k]);
        float e = (float)(h > need ? h : need);
        /* Grow until center -/+ e, as the culling kernels see it, covers [min, max]. */
        while (isfinite(e) && ((double)b.center[k] - e > min[k] || (double)b.center[k] + e < max[k]))
            e = nextafterf(e, INFINITY);
        if (!isfinite(b.center[k]) || !isfinite(e))
            return SATC_ERR_BOX;
        b.extent[k] = e;
        b.axis[k][k] = 1.0f;
    }
    *out = b;
    return SATC_OK;
}

satc_status satc_obb_from_quat(satc_obb *out, const float center[3], const float q[4],
                               const float half[3])
{
    if (!out || !center || !q || !half)
        return SATC_ERR_NULL;
    if (!finite_n(center, 3) || !finite_n(q, 4) || !finite_n(half, 3))
        return SATC_ERR_BOX;
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double len = sqrt(x * x + y * y + z * z + w * w);
    if (!(len > 0.0))
        return SATC_ERR_BOX;
    x /= len, y /= len, z /= len, w /= len;
    /* Columns of the rotation matrix are the box axes. */
    double r[3][3] = {
        {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
        {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
        {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)},
    };
    satc_obb b;
    for (int k = 0; k < 3; k++) {
        if (!(half[k] >= 0.0f))
            return SATC_ERR_BOX;
        b.center[k] = center[k];
        b.extent[k] = half[k];
        for (int c = 0; c < 3; c++)
            b.axis[k][c] = (float)r[k][c];
    }
    *out = b;
    return SATC_OK;
}

satc_status satc_obb_from_matrix(satc_obb *out, const float m[16], unsigned conventions,
                                 const float lmin[3], const float lmax[3])
{
    if (!out || !m || !lmin || !lmax)
        return SATC_ERR_NULL;
    if (conventions & ~SATC_MATRIX_ROW_MAJOR)
        return SATC_ERR_FLAGS;
    if (!finite_n(m, 16) || !finite_n(lmin, 3) || !finite_n(lmax, 3))
        return SATC_ERR_BOX;
    int row = (conventions & SATC_MATRIX_ROW_MAJOR) != 0;
#define M(r, c) ((double)(row ? m[(r) * 4 + (c)] : m[(c) * 4 + (r)]))
    if (M(3, 0) != 0.0 || M(3, 1) != 0.0 || M(3, 2) != 0.0 || M(3, 3) != 1.0)
        return SATC_ERR_BOX;
    double col[3][3], len[3];
    for (int k = 0; k < 3; k++) {
        if (!(lmin[k] <= lmax[k]))
            return SATC_ERR_BOX;
        for (int r = 0; r < 3; r++)
            col[k][r] = M(r, k);
        len[k] = sqrt(col[k][0] * col[k][0] + col[k][1] * col[k][1] + col[k][2] * col[k][2]);
        if (!(len[k] > 0.0) || !isfinite(len[k]))
            return SATC_ERR_BOX;
    }
    for (int a = 0; a < 3; a++) {
        int b2 = (a + 1) % 3;
        double d = col[a][0] * col[b2][0] + col[a][1] * col[b2][1] + col[a][2] * col[b2][2];
        if (fabs(d) > SATC_AXIS_TOLERANCE * len[a] * len[b2])
            return SATC_ERR_BOX;
    }
    /* Rounded outward: the float box holds the mapped local box. Rounding
     * the center and axes moves a corner by at most g (2-norm, bounded by
     * the 1-norms of the roundings: no square roots); in the float axes
     * (orthonormal to about 2^-23) that is at most 1.01 g per coordinate,
     * added to every extent (with 2^-50 h_k when h_k is inexact). */
    satc_obb b;
    double g = 0, h[3];
    for (int r = 0; r < 3; r++) {
        double c = M(r, 3);
        for (int k = 0; k < 3; k++)
            c += col[k][r] * 0.5 * ((double)lmin[k] + lmax[k]);
        b.center[r] = (float)c;
        if (!isfinite(b.center[r]))
            return SATC_ERR_BOX;
        g += fabs(c - b.center[r]);
    }
    for (int k = 0; k < 3; k++) {
        h[k] = 0.5 * ((double)lmax[k] - lmin[k]) * len[k];
        double d1 = 0;
        for (int r = 0; r < 3; r++) {
            double a = col[k][r] / len[k];
            b.axis[k][r] = (float)a;
            d1 += fabs(a - b.axis[k][r]);
        }
        g += h[k] * d1;
    }
    for (int k = 0; k < 3; k++) {
        /* h_k is exact when len_k and the product are: no margin then.
         * The squares of the float entries are exact in double, so sq is
         * the sum len_k was taken of. */
        double hd = 0.5 * ((double)lmax[k] - lmin[k]), sq = 0;
        for (int r = 0; r < 3; r++)
            sq += col[k][r] * col[k][r];
        int exact = len[k] * len[k] == sq && prod_exact(len[k], len[k]) && prod_exact(hd, len[k]);
        double e = h[k] + 1.01 * g + (exact ? 0.0 : 0x1p-50 * h[k]);
        b.extent[k] = satc_float_up(e);
        if (!isfinite(b.extent[k]))
            return SATC_ERR_BOX;
    }
#undef M
    *out = b;
    return SATC_OK;
}
