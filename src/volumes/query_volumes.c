/* Query volumes as orthographic frusta: an orthographic frustum is a box
 * (center, frame, half sizes), so a query box or segment against a batch
 * is the orthographic cull, with its 15 axes in exact mode (Gomez, OBB and OBB,
 * RTR 22.13.5; a segment is a box with two zero extents, Gomez, OBB and segment's six
 * axes among them). Every form, output, path and view count comes with it. */
#include <math.h>
#include <string.h>

#include "../core/volume_d.h"

/* The frustum of the box o + sum_k (mid_k + t_k) frame_k, |t_k| <= half_k;
 * the tolerance's constant term as for a camera's box (src/frustum.c). */
static void box_frustum(satc_frustum *out, const float o[3], const float frame[3][3],
                        const float mid[3], const float half[3])
{
    satc_frustum fr;
    memset(&fr, 0, sizeof fr);
    memcpy(fr.origin, o, sizeof fr.origin);
    memcpy(fr.frame, frame, sizeof fr.frame);
    fr.kind = SATC_FRUSTUM_ORTHOGRAPHIC;
    double size = 0;
    for (int k = 0; k < 3; k++) {
        fr.center[k] = mid[k];
        fr.half[k] = half[k];
        size += fabs((double)mid[k]) + half[k];
    }
    fr.x0 = mid[0] - half[0], fr.x1 = mid[0] + half[0];
    fr.y0 = mid[1] - half[1], fr.y1 = mid[1] + half[1];
    fr.n = mid[2] - half[2], fr.f = mid[2] + half[2];
    fr.f_in = fr.f;
    fr.eps_k = SATC_EPSILON;
    fr.tol_t = (float)(SATC_EPSILON * size * (1.0 + 0x1p-20));
    *out = fr;
}

static double dot3(const float *a, const float *b)
{
    return (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
}

satc_status satc_frustum_from_box(satc_frustum *out, const satc_obb *box)
{
    if (!out || !box)
        return SATC_ERR_NULL;
    for (int k = 0; k < 3; k++) {
        if (!isfinite(box->center[k]) || !isfinite(box->extent[k]))
            return SATC_ERR_NONFINITE;
        for (int j = 0; j < 3; j++) {
            if (!isfinite(box->axis[k][j]))
                return SATC_ERR_NONFINITE;
        }
    }
    for (int k = 0; k < 3; k++) {
        if (!(box->extent[k] >= 0.0f) || !(box->extent[k] <= SATC_MAX_MAGNITUDE))
            return SATC_ERR_BOUNDS;
    }
    if (!(fabsf(box->center[0]) + fabsf(box->center[1]) + fabsf(box->center[2]) <= SATC_MAX_MAGNITUDE))
        return SATC_ERR_BOUNDS;
    /* Orthonormal within SATC_FRAME_TOLERANCE, either handedness: a box is
     * symmetric, so a left-handed frame becomes right-handed by negating
     * its third axis without changing the box. */
    const double tol = SATC_FRAME_TOLERANCE;
    const float *a = box->axis[0], *b = box->axis[1], *c = box->axis[2];
    if (fabs(dot3(a, a) - 1.0) > 2 * tol || fabs(dot3(b, b) - 1.0) > 2 * tol ||
        fabs(dot3(c, c) - 1.0) > 2 * tol || fabs(dot3(a, b)) > tol || fabs(dot3(a, c)) > tol ||
        fabs(dot3(b, c)) > tol)
        return SATC_ERR_FRAME;
    double cross[3] = {(double)a[1] * b[2] - (double)a[2] * b[1],
                       (double)a[2] * b[0] - (double)a[0] * b[2],
                       (double)a[0] * b[1] - (double)a[1] * b[0]};
    float frame[3][3];
    double s = cross[0] * c[0] + cross[1] * c[1] + cross[2] * c[2] < 0 ? -1.0 : 1.0;
    for (int j = 0; j < 3; j++) {
        frame[0][j] = a[j], frame[1][j] = b[j], frame[2][j] = (float)(s * c[j]);
        if (fabs(cross[j] - (double)frame[2][j]) > 3 * tol)
            return SATC_ERR_FRAME;
    }
    const float zero[3] = {0, 0, 0};
    box_frustum(out, box->center, frame, zero, box->extent);
    return SATC_OK;
}

/* L, U completing the unit D (double) to a right-handed orthonormal
 * frame (L x U = D): L from the world axis least aligned with D. */
void satc_frame_from_dir(const double D[3], double L[3], double U[3])
{
    int m = fabs(D[0]) <= fabs(D[1]) ? (fabs(D[0]) <= fabs(D[2]) ? 0 : 2)
                                     : (fabs(D[1]) <= fabs(D[2]) ? 1 : 2);
    double e[3] = {0, 0, 0}, t;
    e[m] = 1;
    t = D[m];
    for (int k = 0; k < 3; k++)
        L[k] = e[k] - t * D[k];
    t = sqrt(L[0] * L[0] + L[1] * L[1] + L[2] * L[2]);
    for (int k = 0; k < 3; k++)
        L[k] /= t;
    U[0] = D[1] * L[2] - D[2] * L[1], U[1] = D[2] * L[0] - D[0] * L[2];
    U[2] = D[0] * L[1] - D[1] * L[0];
}

void satc_segment_frustum(satc_frustum *out, const float p0[3], const double D[3], double len)
{
    /* The origin is p0 itself (a float: no rounding there); the segment
     * runs along D from 0 to len in frame coordinates. */
    float frame[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, mid[3] = {0, 0, 0}, half[3] = {0, 0, 0};
    if (len > 0) {
        double L[3], U[3];
        satc_frame_from_dir(D, L, U);
        for (int k = 0; k < 3; k++)
            frame[0][k] = (float)L[k], frame[1][k] = (float)U[k], frame[2][k] = (float)D[k];
        /* Rounding the frame to float moves the far end point by at
         * most (sqrt(3) / 2) 2^-24 len (D's components each within half
         * an ulp); the orthographic tolerance's constant term,
         * SATC_EPSILON size = 18 u len here, of which the arithmetic needs
         * 4 u size (docs/error-bound.md §5), covers that 16 times over. */
        half[2] = (float)(0.5 * len);
        mid[2] = (float)(0.5 * len);
    }
    box_frustum(out, p0, frame, mid, half);
}

satc_status satc_frustum_from_segment(satc_frustum *out, const float p0[3], const float p1[3])
{
    if (!out || !p0 || !p1)
        return SATC_ERR_NULL;
    double d[3], len2 = 0, mag = 0;
    for (int k = 0; k < 3; k++) {
        if (!isfinite(p0[k]) || !isfinite(p1[k]))
            return SATC_ERR_NONFINITE;
        d[k] = (double)p1[k] - p0[k];
        len2 += d[k] * d[k];
        mag += fabs((double)p0[k]);
    }
    double len = sqrt(len2);
    if (!(mag + len <= SATC_MAX_MAGNITUDE))
        return SATC_ERR_BOUNDS;
    double D[3] = {0, 0, 0};
    if (len > 0)
        D[0] = d[0] / len, D[1] = d[1] / len, D[2] = d[2] / len;
    satc_segment_frustum(out, p0, D, len);
    return SATC_OK;
}
