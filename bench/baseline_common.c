/* Frustum data of the baselines: planes, corners and Eberly's symmetric
 * parameters, from the scene camera in double, rounded to float once. */
#include <math.h>
#include <string.h>

#include "baselines.h"

static double dotd(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

int bl_frustum_init(bl_frustum *bf, const satc_camera *cam)
{
    memset(bf, 0, sizeof *bf);
    if (cam->orthographic || !isfinite(cam->f) || !(cam->n > 0.0f))
        return -1;
    double E[3], L[3], U[3], D[3];
    for (int k = 0; k < 3; k++) {
        E[k] = cam->origin[k], L[k] = cam->left[k], U[k] = cam->up[k], D[k] = cam->dir[k];
        bf->E[k] = cam->origin[k], bf->L[k] = cam->left[k];
        bf->U[k] = cam->up[k], bf->D[k] = cam->dir[k];
    }
    double n = cam->n, f = cam->f;
    /* Eberly's frustum is symmetric: l0 = -l1, u0 = -u1. */
    if (cam->l0 != -cam->l1 || cam->u0 != -cam->u1)
        return -1;
    bf->l = cam->l1, bf->mu = cam->u1, bf->n = cam->n, bf->f = cam->f;
    bf->ratio = (float)(f / n);

    /* Slopes x0..x1 along L, y0..y1 along U; frame coordinates x = L.(X-E),
     * y = U.(X-E), z = D.(X-E). Inward planes, Hoff's order:
     * near z >= n, left x <= x1 z, right x >= x0 z, bottom y >= y0 z,
     * top y <= y1 z, far z <= f. */
    double x0 = cam->l0 / n, x1 = cam->l1 / n, y0 = cam->u0 / n, y1 = cam->u1 / n;
    double N[6][3], c[6];
    for (int k = 0; k < 3; k++) {
        N[0][k] = D[k];
        N[1][k] = x1 * D[k] - L[k];
        N[2][k] = L[k] - x0 * D[k];
        N[3][k] = U[k] - y0 * D[k];
        N[4][k] = y1 * D[k] - U[k];
        N[5][k] = -D[k];
    }
    /* n.X + d >= 0 with d = -n.E plus the plane's offset in frame units. */
    c[0] = -n, c[1] = c[2] = c[3] = c[4] = 0.0, c[5] = f;
    for (int p = 0; p < 6; p++) {
        double len = sqrt(dotd(N[p], N[p]));
        double d = (c[p] - dotd(N[p], E)) / len;
        for (int k = 0; k < 3; k++) {
            bf->plane[p][k] = (float)(N[p][k] / len);
            bf->absn[p][k] = fabsf(bf->plane[p][k]);
        }
        bf->plane[p][3] = (float)d;
    }
    for (int k = 0; k < 4; k++) {
        double x = (k & 1) ? x1 : x0, y = (k & 2) ? y1 : y0;
        for (int j = 0; j < 3; j++) {
            double w = x * L[j] + y * U[j] + D[j];
            bf->corner[k][j] = (float)(E[j] + n * w);
            bf->corner[k + 4][j] = (float)(E[j] + f * w);
        }
    }
    for (int j = 0; j < 3; j++)
        bf->inner[j] = (float)(E[j] + n * D[j]);
    return 0;
}

const char *bl_name(int which)
{
    switch (which) {
    case BL_EBERLY: return "eberly";
    case BL_HOFF: return "hoff";
    case BL_AABB: return "aabb";
    case BL_CGLM: return "cglm";
    }
    return "unknown";
}

const char *bl_label(int which)
{
    switch (which) {
    case BL_EBERLY: return "(a) Eberly TestIntersection, 26 axes, per box";
    case BL_HOFF: return "(b) Hoff 8-vertex out-codes + edges, completed";
    case BL_AABB: return "(c) OBB->world AABB, 6 planes (RTR 22.10.1)";
    case BL_CGLM: return "(d) cglm glm_aabb_frustum on world AABBs";
    }
    return "unknown";
}
