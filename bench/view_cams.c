/* Cameras of the many-view benchmarks, shared by satc_bench_views and
 * satc_bench_dispatch so both time the same views. */
#include <math.h>
#include <string.h>

#include "view_cams.h"

/* A camera at o looking along d (unit), up hint u (not parallel). */
void view_cam_make(satc_camera *c, const double o[3], const double d[3], const double u[3])
{
    memset(c, 0, sizeof *c);
    double du = d[0] * u[0] + d[1] * u[1] + d[2] * u[2], U[3], nu = 0;
    for (int k = 0; k < 3; k++)
        U[k] = u[k] - du * d[k], nu += U[k] * U[k];
    nu = sqrt(nu);
    for (int k = 0; k < 3; k++)
        U[k] /= nu;
    double L[3] = {U[1] * d[2] - U[2] * d[1], U[2] * d[0] - U[0] * d[2], U[0] * d[1] - U[1] * d[0]};
    for (int k = 0; k < 3; k++) {
        c->origin[k] = (float)o[k];
        c->dir[k] = (float)d[k], c->up[k] = (float)U[k], c->left[k] = (float)L[k];
    }
}

void view_cam_persp(satc_camera *c, double n, double f, double tx, double ty)
{
    c->l0 = (float)(-tx * n), c->l1 = (float)(tx * n);
    c->u0 = (float)(-ty * n), c->u1 = (float)(ty * n);
    c->n = (float)n, c->f = (float)f;
}

/* Shadow cascade i of a directional light for the camera's depth slice
 * [z0, z1]: an orthographic box in the light's frame around the slice's
 * corners, reaching 200 m toward the light for casters. */
void view_cam_cascade(satc_camera *out, const satc_camera *cam, const double ld[3], double z0,
                       double z1)
{
    double o[3] = {cam->origin[0], cam->origin[1], cam->origin[2]}, hint[3] = {0, 0, 1};
    view_cam_make(out, o, ld, hint);
    double lo[3] = {1e30, 1e30, 1e30}, hi[3] = {-1e30, -1e30, -1e30};
    for (int c = 0; c < 8; c++) {
        double z = c & 1 ? z1 : z0, x = (c & 2 ? cam->l1 : cam->l0) * z / cam->n,
               y = (c & 4 ? cam->u1 : cam->u0) * z / cam->n, p[3], q[3];
        for (int k = 0; k < 3; k++)
            p[k] = cam->left[k] * x + cam->up[k] * y + cam->dir[k] * z;
        for (int k = 0; k < 3; k++)
            q[k] = 0;
        for (int k = 0; k < 3; k++) {
            q[0] += out->left[k] * p[k], q[1] += out->up[k] * p[k], q[2] += out->dir[k] * p[k];
        }
        /* Comparisons, not fmin/fmax: Debian 12's aarch64 gcc 12.2 stops
         * on fmin/fmax here at -O3 with "internal compiler error: in
         * vect_transform_reduction, at tree-vect-loop.cc:7457" (its loop
         * vectorizer fails on these min/max reductions). The same values:
         * q is finite, lo and hi never NaN. */
        for (int k = 0; k < 3; k++)
            lo[k] = q[k] < lo[k] ? q[k] : lo[k], hi[k] = q[k] > hi[k] ? q[k] : hi[k];
    }
    out->orthographic = 1;
    out->l0 = (float)lo[0], out->l1 = (float)hi[0];
    out->u0 = (float)lo[1], out->u1 = (float)hi[1];
    out->n = (float)(lo[2] - 200.0), out->f = (float)hi[2];
}
