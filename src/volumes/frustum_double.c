/* Large worlds: a double camera against a batch stored relative to a
 * double origin. The subtraction E - O happens once per frustum, in
 * double; what rounding it to float can move the apex by becomes the
 * frustum's constant tolerance term, so the float kernels stay exact. */
#include <math.h>
#include <string.h>

#include "origin.h"

satc_status satc_rebase_origin(const double E[3], const double O[3], float e[3], double *shift)
{
    float r[3];
    double s = 0;
    for (int k = 0; k < 3; k++) {
        if (!isfinite(E[k]) || !isfinite(O[k]))
            return SATC_ERR_NONFINITE;
        double d = E[k] - O[k];
        if (!(fabs(d) <= SATC_MAX_MAGNITUDE))
            return SATC_ERR_BOUNDS;
        r[k] = (float)d;
        /* |float(d) - (E - O)|: the float rounding, exact in double, plus
         * the double subtraction's own rounding (at most 2^-53 |d|). */
        s += fabs((double)r[k] - d) + 0x1p-52 * fabs(d);
    }
    memcpy(e, r, sizeof r);
    *shift = s;
    return SATC_OK;
}

void satc_widen_for_apex(satc_frustum *fr, double shift)
{
    /* Moving the apex by r moves every plane and axis projection by at
     * most K |r|_inf |M|_1 (K = 1 + max slopes; 1 for a box), and
     * |r|_inf <= |r|_1 = shift. Rounded up, with room for the addition. */
    double K = 1;
    if (fr->kind == SATC_FRUSTUM_PERSPECTIVE)
        K = 1.0 + fmax(fabs(fr->x0), fabs(fr->x1)) + fmax(fabs(fr->y0), fabs(fr->y1));
    fr->tol_t = (float)((double)fr->tol_t + K * shift * (1.0 + 0x1p-20));
}

satc_status satc_frustum_from_camera_d(satc_frustum *out, const satc_camera_d *cam,
                                       const double batch_origin[3])
{
    if (!out || !cam || !batch_origin)
        return SATC_ERR_NULL;
    satc_camera c;
    memset(&c, 0, sizeof c);
    double shift = 0;
    satc_status st = satc_rebase_origin(cam->origin, batch_origin, c.origin, &shift);
    if (st != SATC_OK)
        return st;
    memcpy(c.left, cam->left, sizeof c.left);
    memcpy(c.up, cam->up, sizeof c.up);
    memcpy(c.dir, cam->dir, sizeof c.dir);
    c.l0 = cam->l0, c.l1 = cam->l1, c.u0 = cam->u0, c.u1 = cam->u1;
    c.n = cam->n, c.f = cam->f, c.orthographic = cam->orthographic;
    satc_frustum fr;
    st = satc_frustum_from_camera(&fr, &c);
    if (st != SATC_OK)
        return st;
    satc_widen_for_apex(&fr, shift);
    *out = fr;
    return SATC_OK;
}
