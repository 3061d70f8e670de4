/* Large worlds: a double camera against a batch stored relative to a
 * double origin. The subtraction E - O happens once per frustum, in
 * double; what rounding it to float can move the apex by becomes the
 * frustum's constant tolerance term, so the float kernels stay exact. */
#include <math.h>
#include <string.h>

#include "../core/internal.h"

satc_status satc_frustum_from_camera_d(satc_frustum *out, const satc_camera_d *cam,
                                       const double batch_origin[3])
{
    if (!out || !cam || !batch_origin)
        return SATC_ERR_NULL;
    satc_camera c;
    memset(&c, 0, sizeof c);
    double shift = 0;
    for (int k = 0; k < 3; k++) {
        if (!isfinite(cam->origin[k]) || !isfinite(batch_origin[k]))
            return SATC_ERR_NONFINITE;
        double d = cam->origin[k] - batch_origin[k];
        if (!(fabs(d) <= SATC_MAX_MAGNITUDE))
            return SATC_ERR_BOUNDS;
        c.origin[k] = (float)d;
        /* |float(d) - (E - O)|: the float rounding, exact in double, plus
         * the double subtraction's own rounding (at most 2^-53 |d|). */
        shift += fabs((double)c.origin[k] - d) + 0x1p-52 * fabs(d);
    }
    memcpy(c.left, cam->left, sizeof c.left);
    memcpy(c.up, cam->up, sizeof c.up);
    memcpy(c.dir, cam->dir, sizeof c.dir);
    c.l0 = cam->l0, c.l1 = cam->l1, c.u0 = cam->u0, c.u1 = cam->u1;
    c.n = cam->n, c.f = cam->f, c.orthographic = cam->orthographic;
    satc_frustum fr;
    satc_status st = satc_frustum_from_camera(&fr, &c);
    if (st != SATC_OK)
        return st;
    /* Moving the apex by r moves every plane and axis projection by at
     * most K |r|_inf |M|_1 (K = 1 + max slopes; 1 for a box), and
     * |r|_inf <= |r|_1 = shift. Rounded up, with room for the addition. */
    double K = 1;
    if (fr.kind == SATC_FRUSTUM_PERSPECTIVE)
        K = 1.0 + fmax(fabs(fr.x0), fabs(fr.x1)) + fmax(fabs(fr.y0), fabs(fr.y1));
    fr.tol_t = (float)((double)fr.tol_t + K * shift * (1.0 + 0x1p-20));
    *out = fr;
    return SATC_OK;
}
