/* Any volume form to world AABBs (Gomez, OBB and segment, "OBB to AABB conversion": the
 * extent along world axis k is sum_j |H_j . e_k|), for engines and
 * baselines that keep world AABBs. Computed in double from the stored
 * floats (their products are exact there), then the center is rounded to
 * nearest and the half size upward, past the center's rounding, so each
 * float AABB contains its volume. */
#include <math.h>
#include <string.h>

#include "../core/volume_d.h"


/* Center c and half size h of volume i in world units, in double; 0 when
 * the volume cannot be bounded (a mesh id past the table). */
static int bounds(const satc_batch *b, size_t i, double c[3], double h[3])
{
    if (b->form == SATC_FORM_TRS && !b->trs.local) {
        /* a splat: the box of its ball, as the kernels bound it (so group
         * bounds built from these decide as the flat cull does) */
        const satc_trs *s = &b->trs;
        float q[4], sc[3], p[3];
        satc_trs_quat(s, i, q);
        satc_vec3s_get(&s->scale, i, sc);
        satc_vec3s_get(&s->position, i, p);
        float n2 = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
        if (!(n2 >= SATC_QUAT_N2_MIN && n2 <= SATC_QUAT_N2_MAX))
            return 0;
        double r = 0;
        for (int j = 0; j < 3; j++)
            r += (s->format & SATC_TRS_LOG_SCALE)
                     ? (double)satc_expf_ref(sc[j]) * (1.0 + 2.0 * SATC_EXP_REL_ERROR)
                     : fabs((double)sc[j]);
        r *= satc_trs_k(s);
        for (int k = 0; k < 3; k++)
            c[k] = p[k], h[k] = r;
        return 1;
    }
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
