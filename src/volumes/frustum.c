/* Frustum construction from a camera (Eberly §3, generalised): validation
 * and the per-frustum constants of every box test. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "../core/internal.h"

static int finite3(const float *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

static double dot3(const float *a, const float *b)
{
    return (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
}

/* Right-handed orthonormal within SATC_FRAME_TOLERANCE: unit lengths,
 * pairwise dot products, and L x U = D component-wise. D's length check
 * is implied within about 6 tol by the other two (|L x U| = 1 up to the
 * L and U checks); it only holds D to the same 2 tol as L and U. */
static int frame_ok(const float *L, const float *U, const float *D)
{
    const double tol = SATC_FRAME_TOLERANCE;
    if (fabs(dot3(L, L) - 1.0) > 2 * tol || fabs(dot3(U, U) - 1.0) > 2 * tol ||
        fabs(dot3(D, D) - 1.0) > 2 * tol)
        return 0;
    if (fabs(dot3(L, U)) > tol || fabs(dot3(L, D)) > tol || fabs(dot3(U, D)) > tol)
        return 0;
    double cx = (double)L[1] * U[2] - (double)L[2] * U[1];
    double cy = (double)L[2] * U[0] - (double)L[0] * U[2];
    double cz = (double)L[0] * U[1] - (double)L[1] * U[0];
    return fabs(cx - D[0]) <= 3 * tol && fabs(cy - D[1]) <= 3 * tol && fabs(cz - D[2]) <= 3 * tol;
}

static float maxabs(float a, float b) { return fabsf(a) > fabsf(b) ? fabsf(a) : fabsf(b); }

/* A perspective frustum's slopes, each rounded once to float from s[]
 * (computed in double), and what follows from them. Exact mode's second
 * stage widens each slope by 2^-24 (1 + 2^-20) of itself: one rounding to
 * nearest plus the double error of s[] (below 2^-50 relative) stay inside
 * it (docs/error-bound.md §11). */
static satc_status persp_slopes(satc_frustum *fr, const double s[4])
{
    fr->x0 = (float)s[0], fr->x1 = (float)s[1];
    fr->y0 = (float)s[2], fr->y1 = (float)s[3];
    if (!(maxabs(fr->x0, fr->x1) <= SATC_MAX_SLOPE) || !(maxabs(fr->y0, fr->y1) <= SATC_MAX_SLOPE) ||
        !(fr->x0 < fr->x1) || !(fr->y0 < fr->y1))
        return SATC_ERR_BOUNDS;
    fr->dx = fr->x0 - fr->x1;
    fr->dy = fr->y0 - fr->y1;
    /* K bounds |W|_1 of the near corners W = (x, y, 1): a support over
     * them is at most K |M|_1 for any axis M. docs/error-bound.md §4:
     * every perspective test quantity is within (12 + 4 K) u |M|_1 S
     * of its exact value, below SATC_EPSILON K |M|_1 S = 18 u K. */
    double K = 1.0 + maxabs(fr->x0, fr->x1) + maxabs(fr->y0, fr->y1);
    fr->eps_k = (float)(SATC_EPSILON * K);
    return SATC_OK;
}

satc_status satc_frustum_from_camera(satc_frustum *out, const satc_camera *cam)
{
    if (!out || !cam)
        return SATC_ERR_NULL;
    int ortho = cam->orthographic != 0;
    if (!finite3(cam->origin) || !finite3(cam->left) || !finite3(cam->up) ||
        !finite3(cam->dir) || !isfinite(cam->l0) || !isfinite(cam->l1) ||
        !isfinite(cam->u0) || !isfinite(cam->u1) || !isfinite(cam->n) || isnan(cam->f) ||
        cam->f == -INFINITY)
        return SATC_ERR_NONFINITE;
    if (!ortho && !(cam->n > 0.0f))
        return SATC_ERR_NEAR;
    if (!(cam->f > cam->n) || (ortho && isinf(cam->f)))
        return SATC_ERR_FAR;
    if (!(cam->l0 < cam->l1) || !(cam->u0 < cam->u1))
        return SATC_ERR_BOUNDS;
    if (!frame_ok(cam->left, cam->up, cam->dir))
        return SATC_ERR_FRAME;

    satc_frustum fr;
    memset(&fr, 0, sizeof fr);
    memcpy(fr.origin, cam->origin, sizeof fr.origin);
    memcpy(fr.frame[0], cam->left, sizeof fr.frame[0]);
    memcpy(fr.frame[1], cam->up, sizeof fr.frame[1]);
    memcpy(fr.frame[2], cam->dir, sizeof fr.frame[2]);
    fr.n = cam->n;
    fr.f = cam->f;
    fr.f_in = cam->f;
    if (ortho) {
        fr.kind = SATC_FRUSTUM_ORTHOGRAPHIC;
        fr.x0 = cam->l0, fr.x1 = cam->l1, fr.y0 = cam->u0, fr.y1 = cam->u1;
        double lo[3] = {cam->l0, cam->u0, cam->n}, hi[3] = {cam->l1, cam->u1, cam->f};
        double size = 0;
        for (int k = 0; k < 3; k++) {
            fr.center[k] = (float)(0.5 * (lo[k] + hi[k]));
            fr.half[k] = (float)(0.5 * (hi[k] - lo[k]));
            if (!isfinite(fr.center[k]) || !isfinite(fr.half[k]))
                return SATC_ERR_BOUNDS;
            size += fabs(fr.center[k]) + fabs(fr.half[k]);
        }
        /* docs/error-bound.md §5: every orthographic test quantity is
         * within (12 S + 4 size) u |M|_1 of its exact value; K = 1. */
        fr.eps_k = SATC_EPSILON;
        fr.tol_t = (float)(SATC_EPSILON * size * (1.0 + 0x1p-20));
    } else {
        fr.kind = SATC_FRUSTUM_PERSPECTIVE;
        fr.infinite = isinf(cam->f) ? 1u : 0u;
        double n = cam->n;
        const double s[4] = {cam->l0 / n, cam->l1 / n, cam->u0 / n, cam->u1 / n};
        satc_status st = persp_slopes(&fr, s);
        if (st != SATC_OK)
            return st;
    }
    *out = fr;
    return SATC_OK;
}

satc_status satc_frustum_perspective(satc_frustum *out, const float eye[3], const float dir[3],
                                     const float up[3], float fovy, float aspect, float n, float f)
{
    if (!out || !eye || !dir || !up)
        return SATC_ERR_NULL;
    for (int k = 0; k < 3; k++) {
        if (!isfinite(eye[k]) || !isfinite(dir[k]) || !isfinite(up[k]))
            return SATC_ERR_NONFINITE;
    }
    if (!isfinite(fovy) || !isfinite(aspect) || isnan(n) || isnan(f) || isinf(n) || f == -INFINITY)
        return SATC_ERR_NONFINITE;
    if (!(fovy > 0.0f) || !(fovy < 3.14159265f) || !(aspect > 0.0f))
        return SATC_ERR_BOUNDS;
    satc_camera c;
    memset(&c, 0, sizeof c);
    memcpy(c.origin, eye, sizeof c.origin);
    memcpy(c.dir, dir, sizeof c.dir);
    memcpy(c.up, up, sizeof c.up);
    /* L = U x D makes (L, U, D) right-handed. */
    double lx = (double)up[1] * dir[2] - (double)up[2] * dir[1];
    double ly = (double)up[2] * dir[0] - (double)up[0] * dir[2];
    double lz = (double)up[0] * dir[1] - (double)up[1] * dir[0];
    c.left[0] = (float)lx, c.left[1] = (float)ly, c.left[2] = (float)lz;
    double mu = tan(0.5 * (double)fovy) * n;
    double l = mu * aspect;
    /* Bounds beyond float range, or subnormal ones (whose rounding would
     * move the slopes far beyond the tolerance): not representable. */
    if (n > 0.0f && !(fmin(mu, l) >= FLT_MIN && fmax(mu, l) <= FLT_MAX))
        return SATC_ERR_BOUNDS;
    c.l0 = (float)-l, c.l1 = (float)l, c.u0 = (float)-mu, c.u1 = (float)mu;
    c.n = n, c.f = f;
    satc_frustum fr;
    satc_status st = satc_frustum_from_camera(&fr, &c);
    if (st != SATC_OK)
        return st;
    /* The slopes from tan(fovy/2) and aspect directly, rounded once: the
     * camera's bounds l and mu were rounded to float already, and l / n
     * rounded again would stray up to twice the second stage's widening
     * from the requested planes. */
    double t = tan(0.5 * (double)fovy), xs = t * aspect;
    const double s[4] = {-xs, xs, -t, t};
    st = persp_slopes(&fr, s);
    if (st != SATC_OK)
        return st;
    *out = fr;
    return SATC_OK;
}
