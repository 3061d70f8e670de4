/* Cameras aimed the way scene code aims them (glm::lookAt, three.js's
 * Object3D.lookAt, DirectX's LookTo): an eye, a target point or a view
 * direction, and any up vector not parallel to it. The right-handed frame
 * is built here in double and rounded once to float; the frustum is then
 * built by satc_frustum_perspective or satc_frustum_from_camera. */
#include <math.h>
#include <string.h>

#include "origin.h"

static double dot3d(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross3d(const double *a, const double *b, double *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* D = d / |d|, L = up x D / |up x D|, U = D x L (so L x U = D): L points
 * to the camera's left, U is up projected off D. An up within
 * SATC_FRAME_TOLERANCE radians of +-D (or zero) leaves the roll undefined:
 * SATC_ERR_UP. A zero d: SATC_ERR_DIRECTION. */
static satc_status look_frame(const double d[3], const float up[3], float L[3], float U[3], float D[3])
{
    for (int k = 0; k < 3; k++) {
        if (!isfinite(d[k]) || !isfinite(up[k]))
            return SATC_ERR_NONFINITE;
    }
    /* Scaled by its largest component first: |d|^2 of a double
     * difference may overflow. */
    double m = fmax(fabs(d[0]), fmax(fabs(d[1]), fabs(d[2])));
    if (!(m > 0))
        return SATC_ERR_DIRECTION;
    double dn[3] = {d[0] / m, d[1] / m, d[2] / m};
    double dl = sqrt(dot3d(dn, dn));
    for (int k = 0; k < 3; k++)
        dn[k] /= dl;
    double u[3] = {up[0], up[1], up[2]}, c[3], ud[3];
    cross3d(u, dn, c);
    double cl = sqrt(dot3d(c, c));
    if (!(cl > SATC_FRAME_TOLERANCE * sqrt(dot3d(u, u))))
        return SATC_ERR_UP;
    for (int k = 0; k < 3; k++)
        c[k] /= cl;
    cross3d(dn, c, ud);
    for (int k = 0; k < 3; k++) {
        L[k] = (float)c[k];
        U[k] = (float)ud[k];
        D[k] = (float)dn[k];
    }
    return SATC_OK;
}

static int finite3f(const float *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

/* The box l0 <= L.(X-E) <= l1 ... of a view whose camera x axis points
 * right (-L): left..right along x is -right..-left along L. */
static satc_status ortho_frame(satc_frustum *out, const float eye[3], const float L[3],
                               const float U[3], const float D[3], float left, float right,
                               float bottom, float top, float n, float f)
{
    satc_camera c;
    memset(&c, 0, sizeof c);
    memcpy(c.origin, eye, sizeof c.origin);
    memcpy(c.left, L, sizeof c.left);
    memcpy(c.up, U, sizeof c.up);
    memcpy(c.dir, D, sizeof c.dir);
    c.l0 = -right, c.l1 = -left, c.u0 = bottom, c.u1 = top;
    c.n = n, c.f = f;
    c.orthographic = 1;
    return satc_frustum_from_camera(out, &c);
}

satc_status satc_frustum_look_to(satc_frustum *out, const float eye[3], const float dir[3],
                                 const float up[3], float fovy, float aspect, float n, float f)
{
    if (!out || !eye || !dir || !up)
        return SATC_ERR_NULL;
    if (!finite3f(eye))
        return SATC_ERR_NONFINITE;
    const double d[3] = {dir[0], dir[1], dir[2]};
    float L[3], U[3], D[3];
    satc_status st = look_frame(d, up, L, U, D);
    if (st != SATC_OK)
        return st;
    return satc_frustum_perspective(out, eye, D, U, fovy, aspect, n, f);
}

/* The checks and frame of the float look-at builders: T - E is exact in
 * double (both are floats). */
static satc_status target_frame(const satc_frustum *out, const float eye[3], const float target[3],
                                const float up[3], float L[3], float U[3], float D[3])
{
    if (!out || !eye || !target || !up)
        return SATC_ERR_NULL;
    if (!finite3f(eye) || !finite3f(target))
        return SATC_ERR_NONFINITE;
    const double d[3] = {(double)target[0] - eye[0], (double)target[1] - eye[1], (double)target[2] - eye[2]};
    return look_frame(d, up, L, U, D);
}

satc_status satc_frustum_look_at(satc_frustum *out, const float eye[3], const float target[3],
                                 const float up[3], float fovy, float aspect, float n, float f)
{
    float L[3], U[3], D[3];
    satc_status st = target_frame(out, eye, target, up, L, U, D);
    if (st != SATC_OK)
        return st;
    return satc_frustum_perspective(out, eye, D, U, fovy, aspect, n, f);
}

satc_status satc_frustum_look_at_ortho(satc_frustum *out, const float eye[3], const float target[3],
                                       const float up[3], float left, float right, float bottom,
                                       float top, float n, float f)
{
    float L[3], U[3], D[3];
    satc_status st = target_frame(out, eye, target, up, L, U, D);
    if (st != SATC_OK)
        return st;
    return ortho_frame(out, eye, L, U, D, left, right, bottom, top, n, f);
}

/* The double variants: the direction T - E in double, the apex E - O
 * rounded to float with its rounding in the tolerance. */
static satc_status look_at_d(satc_frustum *out, const double eye[3], const double target[3],
                             const float up[3], const double batch_origin[3], float *e, float *L,
                             float *U, float *D, double *shift)
{
    if (!out || !eye || !target || !up || !batch_origin)
        return SATC_ERR_NULL;
    satc_status st = satc_rebase_origin(eye, batch_origin, e, shift);
    if (st != SATC_OK)
        return st;
    double d[3];
    for (int k = 0; k < 3; k++) {
        if (!isfinite(target[k]))
            return SATC_ERR_NONFINITE;
        d[k] = target[k] - eye[k];
    }
    return look_frame(d, up, L, U, D);
}

/* A double builder's end: on success fr widened by the apex's rounding
 * into *out; on error st, and *out untouched. */
static satc_status widened(satc_frustum *out, satc_frustum *fr, satc_status st, double shift)
{
    if (st != SATC_OK)
        return st;
    satc_widen_for_apex(fr, shift);
    *out = *fr;
    return SATC_OK;
}

satc_status satc_frustum_look_at_d(satc_frustum *out, const double eye[3], const double target[3],
                                   const float up[3], float fovy, float aspect, float n, float f,
                                   const double batch_origin[3])
{
    float e[3], L[3], U[3], D[3];
    double shift = 0;
    satc_status st = look_at_d(out, eye, target, up, batch_origin, e, L, U, D, &shift);
    satc_frustum fr;
    if (st == SATC_OK)
        st = satc_frustum_perspective(&fr, e, D, U, fovy, aspect, n, f);
    return widened(out, &fr, st, shift);
}

satc_status satc_frustum_look_at_ortho_d(satc_frustum *out, const double eye[3],
                                         const double target[3], const float up[3], float left,
                                         float right, float bottom, float top, float n, float f,
                                         const double batch_origin[3])
{
    float e[3], L[3], U[3], D[3];
    double shift = 0;
    satc_status st = look_at_d(out, eye, target, up, batch_origin, e, L, U, D, &shift);
    satc_frustum fr;
    if (st == SATC_OK)
        st = ortho_frame(&fr, e, L, U, D, left, right, bottom, top, n, f);
    return widened(out, &fr, st, shift);
}
