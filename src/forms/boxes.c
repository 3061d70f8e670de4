/* Box batches and the helpers that build Eberly's center-axis-extent form
 * from what engines hold (Gomez, OBB and segment: OBB from AABB and transforms). */
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

/* Whether a + b is exact in double: Knuth's two-sum, its error term zero. */
static int sum_exact(double a, double b)
{
    double s = a + b, bb = s - a;
    return (a - (s - bb)) + (b - bb) == 0.0;
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

#if defined(__GNUC__)
#define BOXES_NOINLINE __attribute__((noinline))
#else
#define BOXES_NOINLINE
#endif

/* A double >= h + x (x >= 0 as computed): h itself when x is 0, else the
 * rounded sum bumped by at least one ulp, which covers its rounding. */
static double sum_up(double h, double x)
{
    double e = h + x;
    return e + (double)(x > 0.0) * (0x1p-52 * e);
}

/* The matrix's columns and translation in double (exact). */
static void load_matrix(const float m[16], int row, double col[3][3], double t[3])
{
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++)
            col[k][r] = row ? m[r * 4 + k] : m[k * 4 + r];
    for (int r = 0; r < 3; r++)
        t[r] = row ? m[r * 4 + 3] : m[12 + r];
}

/* Why the extents hold the mapped box: a corner is c* + sum_k +-h_k a_k +
 * sum_k d_k col_k, c* the center from the computed local center mid_k,
 * h_k = hd_k |col_k|, a_k the exact unit axes, d_k the rounding of mid_k
 * and hd_k. Against the float box (C, A_k) its offset D = (c* - C) +
 * sum +-h_k (a_k - A_k) + sum d_k col_k is at most G in 2-norm (G a sum
 * of 1-norms); the float axes are orthonormal to about 2^-20
 * (SATC_AXIS_TOLERANCE), so D is at most 1.01 G along each A_k, added to
 * every extent. Each double rounding in G is covered by 2^-50 (8 ulps)
 * of what it rounds; h_k's own (3 ulps) by 2^-49 h_k on the careful way,
 * inside G's 1.01 on the fast one. */

/* The careful way, for boxes on the world axes whose fast bound crosses
 * a float only by its a-priori terms (integer scales and centers: the
 * extent would grow an ulp for roundings that did not happen). It builds
 * the box again, checks each rounding and covers it only when inexact;
 * the axes are quotients, measured. Not inlined: the fast way keeps its
 * values in registers. */
static BOXES_NOINLINE void obb_careful(const float m[16], int row, const float lmin[3], const float lmax[3],
                                       satc_obb *b)
{
    double col[3][3], t[3], mid[3], hd[3], g = 0, h[3];
    int h_exact[3];
    load_matrix(m, row, col, t);
    for (int k = 0; k < 3; k++) {
        mid[k] = 0.5 * ((double)lmin[k] + lmax[k]), hd[k] = 0.5 * ((double)lmax[k] - lmin[k]);
        int local_exact = sum_exact(lmin[k], lmax[k]) & sum_exact(lmax[k], -(double)lmin[k]);
        const double *v = col[k];
        double sq = v[0] * v[0] + v[1] * v[1] + v[2] * v[2], l = sqrt(sq), d1 = 0;
        int len_exact = sum_exact(v[0] * v[0], v[1] * v[1]) & sum_exact(v[0] * v[0] + v[1] * v[1], v[2] * v[2]) &
                        prod_exact(l, l) & (l * l == sq);
        int axis_exact = len_exact;
        for (int r = 0; r < 3; r++) {
            double a = v[r] / l;
            axis_exact &= prod_exact(a, l) & (a * l == v[r]);
            b->axis[k][r] = (float)a;
            d1 += fabs(a - b->axis[k][r]);
        }
        h[k] = hd[k] * l;
        h_exact[k] = len_exact & prod_exact(hd[k], l);
        g += h[k] * (d1 + (axis_exact ? 0.0 : 0x1p-50));
        g += local_exact ? 0.0 : 0x1p-50 * (fabs(mid[k]) + hd[k]) * l;
    }
    for (int r = 0; r < 3; r++) {
        int exact = 1;
        double c = t[r], s = fabs(t[r]);
        for (int k = 0; k < 3; k++) {
            double p = col[k][r] * mid[k];
            exact &= prod_exact(col[k][r], mid[k]) & sum_exact(c, p);
            c += p, s += fabs(p);
        }
        g += fabs(c - b->center[r]) + (exact ? 0.0 : 0x1p-50 * s);
    }
    for (int k = 0; k < 3; k++)
        b->extent[k] = satc_float_up(sum_up(h[k], (h_exact[k] ? 0.0 : 0x1p-49 * h[k]) + 1.01 * g));
}

satc_status satc_obb_from_matrix(satc_obb *out, const float m[16], unsigned conventions,
                                 const float lmin[3], const float lmax[3])
{
    if (!out || !m || !lmin || !lmax)
        return SATC_ERR_NULL;
    if (conventions & ~SATC_MATRIX_ROW_MAJOR)
        return SATC_ERR_FLAGS;
    /* Every check folded into one flag and one branch: ordinary input
     * meets no data-dependent branch (at 1M instances they mispredict).
     * A NaN or an infinity fails a test below: in the last row (!= 0,
     * != 1), a column (its length not below +Inf), lmin or lmax (not <=,
     * or a center that is not finite). */
    unsigned bad = 0;
    int row = (conventions & SATC_MATRIX_ROW_MAJOR) != 0;
    /* Element (r, k) of the linear part at m[k cs + r rs]. */
    int cs = row ? 1 : 4, rs = row ? 4 : 1;
#define E(r, k) ((double)m[(k) * cs + (r) * rs])
    uint32_t lb[4]; /* the last row on its bits: +-0, +-0, +-0, 1 */
    for (int c = 0; c < 4; c++)
        memcpy(&lb[c], &m[c * cs + 3 * rs], sizeof lb[c]);
    bad |= (((lb[0] | lb[1] | lb[2]) & 0x7fffffffu) != 0) | (lb[3] != 0x3f800000u);
    double len[3], dot[3];
    for (int k = 0; k < 3; k++) {
        int k2 = (k + 1) % 3;
        bad |= !(lmin[k] <= lmax[k]);
        len[k] = sqrt(E(0, k) * E(0, k) + E(1, k) * E(1, k) + E(2, k) * E(2, k));
        dot[k] = E(0, k) * E(0, k2) + E(1, k) * E(1, k2) + E(2, k) * E(2, k2);
    }
    double lp = len[0] * len[1] * len[2];
    bad |= !(lp > 0.0 && lp < INFINITY);
    /* Room for the axes' rounding to float (each component within 2^-24
     * of itself: the dot product moves by at most 2^-23 + 2^-48), so the
     * axes written are orthogonal within SATC_AXIS_TOLERANCE. */
    for (int a = 0; a < 3; a++)
        bad |= fabs(dot[a]) > (SATC_AXIS_TOLERANCE - 0x1p-23 - 0x1p-40) * len[a] * len[(a + 1) % 3];
    if (bad)
        return SATC_ERR_BOX;
    /* One pass per column. G: the center's float rounding, measured, and
     * a priori 2^-50 of what each double rounding rounds (|t|_1, and per
     * column |col_k|_1 (|mid_k| + hd_k) twice over: center, local box,
     * axis; |lmin| + |lmax| >= |mid| + hd), and the float axes' 2^-24
     * |a_k|_1 times h_k, which is 2^-24 hd_k |col_k|_1 (a subnormal
     * entry's 2^-150 more is far inside the 1.01). */
    satc_obb b;
    double c[3], ga = 0, hh[3];
    unsigned on_axes = 1;
    for (int r = 0; r < 3; r++)
        c[r] = m[3 * cs + r * rs];
    double tn = fabs(c[0]) + fabs(c[1]) + fabs(c[2]);
    for (int k = 0; k < 3; k++) {
        double lo = lmin[k], hi = lmax[k], mid = 0.5 * (lo + hi), hd = 0.5 * (hi - lo);
        double inv = 1.0 / len[k], n1 = 0;
        for (int r = 0; r < 3; r++) {
            double v = E(r, k);
            c[r] += v * mid;
            b.axis[k][r] = (float)(v * inv);
            n1 += fabs(v);
        }
        hh[k] = hd * len[k];
        on_axes &= n1 == len[k];
        ga += n1 * (0x1p-24 * hd + 0x1p-49 * (fabs(lo) + fabs(hi)));
    }
#undef E
    double gc = 0;
    for (int r = 0; r < 3; r++) {
        b.center[r] = (float)c[r];
        gc += fabs(c[r] - b.center[r]);
    }
    /* h_k's own rounding (3 double ulps) and this sum's are far inside
     * G's 1.01, which is at least 2^-24 |col_k|_1 hd_k >= 2^-24 h_k. */
    double g1 = 1.01 * (gc + 0x1p-50 * tn + ga);
    for (int k = 0; k < 3; k++)
        b.extent[k] = satc_float_up(hh[k] + g1);
    /* Every column on a world axis, the float axes exact: the careful way
     * when the a-priori terms alone crossed a float. */
    if (on_axes && !bad) {
        unsigned careful = 0;
        for (int k = 0; k < 3; k++)
            careful |= (double)satc_float_up(sum_up(hh[k], 1.01 * gc)) < (double)b.extent[k];
        if (careful)
            obb_careful(m, row, lmin, lmax, &b);
    }
    /* A float that is not finite makes the sum not finite (no overflow
     * in double). */
    double fs = (double)b.center[0] + b.center[1] + b.center[2] + b.extent[0] + b.extent[1] + b.extent[2];
    bad |= !(fabs(fs) < INFINITY);
    if (bad)
        return SATC_ERR_BOX;
    *out = b;
    return SATC_OK;
}
