/*
 * Baseline (a): Eberly's TestIntersection ("Intersection of a Box and a Frustum"), one box per call,
 * in float like satc. Written from the article's mathematics rather than the
 * listing (whose text has slips): the 26 axes in the order of the listing,
 * each with the box interval [d - R, d + R] and the frustum interval
 * [m0, m1] of the article, products with n, l and mu cached per box as the article suggests.
 * Symmetric frusta only, no tolerance band. The box is read from the SoA
 * arrays into a satc_obb per call (the same 60 bytes satc reads).
 */
#include <math.h>

#include "baselines.h"

/* Frustum interval on M from n M.D and p = l |M.L| + mu |M.U|:
 * each end is scaled by f/n where it lies on the far side of zero. */
static inline int separated(float dd, float r, float nmd, float p, float ratio)
{
    float m0 = nmd - p, m1 = nmd + p;
    if (m0 < 0.0f)
        m0 *= ratio;
    if (m1 > 0.0f)
        m1 *= ratio;
    return dd + r < m0 || dd - r > m1;
}

int bl_eberly_box(const bl_frustum *bf, const satc_obb *b)
{
    const float *L = bf->L, *U = bf->U, *D = bf->D, *e = b->extent;
    const float l = bf->l, mu = bf->mu, n = bf->n, f = bf->f, ratio = bf->ratio;
    float diff[3] = {b->center[0] - bf->E[0], b->center[1] - bf->E[1], b->center[2] - bf->E[2]};
    float al[3], be[3], ga[3];
    float nA[3], nB[3], lC[3], uC[3];
    float nAmlC[3], nAplC[3], nBmuC[3], nBpuC[3];

    /* M = D: interval [n, f]. */
    float d2 = diff[0] * D[0] + diff[1] * D[1] + diff[2] * D[2];
    for (int i = 0; i < 3; i++)
        ga[i] = b->axis[i][0] * D[0] + b->axis[i][1] * D[1] + b->axis[i][2] * D[2];
    float r = e[0] * fabsf(ga[0]) + e[1] * fabsf(ga[1]) + e[2] * fabsf(ga[2]);
    if (d2 + r < n || d2 - r > f)
        return 0;

    /* M = +-n L - l D: interval [-2 l f, 0]. */
    float d0 = diff[0] * L[0] + diff[1] * L[1] + diff[2] * L[2];
    for (int i = 0; i < 3; i++) {
        al[i] = b->axis[i][0] * L[0] + b->axis[i][1] * L[1] + b->axis[i][2] * L[2];
        nA[i] = n * al[i];
        lC[i] = l * ga[i];
        nAmlC[i] = nA[i] - lC[i];
        nAplC[i] = nA[i] + lC[i];
    }
    float mtwolf = -2.0f * l * f;
    float nd0 = n * d0, ld2 = l * d2;
    r = e[0] * fabsf(nAmlC[0]) + e[1] * fabsf(nAmlC[1]) + e[2] * fabsf(nAmlC[2]);
    float dd = nd0 - ld2;
    if (dd + r < mtwolf || dd - r > 0.0f)
        return 0;
    r = e[0] * fabsf(nAplC[0]) + e[1] * fabsf(nAplC[1]) + e[2] * fabsf(nAplC[2]);
    dd = -nd0 - ld2;
    if (dd + r < mtwolf || dd - r > 0.0f)
        return 0;

    /* M = +-n U - mu D: interval [-2 mu f, 0]. */
    float d1 = diff[0] * U[0] + diff[1] * U[1] + diff[2] * U[2];
    for (int i = 0; i < 3; i++) {
        be[i] = b->axis[i][0] * U[0] + b->axis[i][1] * U[1] + b->axis[i][2] * U[2];
        nB[i] = n * be[i];
        uC[i] = mu * ga[i];
        nBmuC[i] = nB[i] - uC[i];
        nBpuC[i] = nB[i] + uC[i];
    }
    float mtwouf = -2.0f * mu * f;
    float nd1 = n * d1, ud2 = mu * d2;
    r = e[0] * fabsf(nBmuC[0]) + e[1] * fabsf(nBmuC[1]) + e[2] * fabsf(nBmuC[2]);
    dd = nd1 - ud2;
    if (dd + r < mtwouf || dd - r > 0.0f)
        return 0;
    r = e[0] * fabsf(nBpuC[0]) + e[1] * fabsf(nBpuC[1]) + e[2] * fabsf(nBpuC[2]);
    dd = -nd1 - ud2;
    if (dd + r < mtwouf || dd - r > 0.0f)
        return 0;

    /* M = A_i: R = e_i, M.L = alpha_i, M.U = beta_i, M.D = gamma_i. */
    for (int i = 0; i < 3; i++) {
        float p = l * fabsf(al[i]) + mu * fabsf(be[i]);
        dd = al[i] * d0 + be[i] * d1 + ga[i] * d2;
        if (separated(dd, e[i], n * ga[i], p, ratio))
            return 0;
    }

    /* M = L x A_i = (0, -gamma_i, beta_i). */
    for (int i = 0; i < 3; i++) {
        float p = mu * fabsf(ga[i]);
        dd = -ga[i] * d1 + be[i] * d2;
        r = e[0] * fabsf(be[i] * ga[0] - ga[i] * be[0]) + e[1] * fabsf(be[i] * ga[1] - ga[i] * be[1]) +
            e[2] * fabsf(be[i] * ga[2] - ga[i] * be[2]);
        if (separated(dd, r, nB[i], p, ratio))
            return 0;
    }

    /* M = U x A_i = (gamma_i, 0, -alpha_i). */
    for (int i = 0; i < 3; i++) {
        float p = l * fabsf(ga[i]);
        dd = ga[i] * d0 - al[i] * d2;
        r = e[0] * fabsf(ga[i] * al[0] - al[i] * ga[0]) + e[1] * fabsf(ga[i] * al[1] - al[i] * ga[1]) +
            e[2] * fabsf(ga[i] * al[2] - al[i] * ga[2]);
        if (separated(dd, r, -nA[i], p, ratio))
            return 0;
    }

    /* M = W x A_i for the four lateral edges W = t0 l L + t1 mu U + n D:
     * M = (t1 mu gamma_i - n beta_i, n alpha_i - t0 l gamma_i,
     *      t0 l beta_i - t1 mu alpha_i). */
    for (int i = 0; i < 3; i++) {
        float lB = l * be[i], uA = mu * al[i], lCi = l * ga[i], uCi = mu * ga[i];
        for (int t = 0; t < 4; t++) {
            float t0 = (t & 1) ? -1.0f : 1.0f, t1 = (t & 2) ? -1.0f : 1.0f;
            float mx = t1 * uCi - nB[i];
            float my = nA[i] - t0 * lCi;
            float mz = t0 * lB - t1 * uA;
            float p = l * fabsf(mx) + mu * fabsf(my);
            dd = mx * d0 + my * d1 + mz * d2;
            r = e[0] * fabsf(mx * al[0] + my * be[0] + mz * ga[0]) +
                e[1] * fabsf(mx * al[1] + my * be[1] + mz * ga[1]) +
                e[2] * fabsf(mx * al[2] + my * be[2] + mz * ga[2]);
            if (separated(dd, r, n * mz, p, ratio))
                return 0;
        }
    }
    return 1;
}

BL_BATCH(bl_eberly_batch, bl_eberly_box)
