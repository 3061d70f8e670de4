/*
 * satc_frustum_from_matrix (RTR 22.14.1, camera recovered for Eberly's
 * test) against satc_frustum_from_camera.
 *
 * Random cameras (perspective symmetric and off-center, orthographic);
 * for each, view and projection matrices are built in double for every
 * depth convention, multiplied in double, rounded to float and stored
 * column- and row-major. Checked:
 *  - status SATC_OK, and both storages give the same frustum bit for bit;
 *  - the recovered apex, frame, bounds, n and f match the camera within
 *    tolerances derived from float rounding of the matrix (see TOL_*);
 *  - both frusta cull the same boxes in both modes, except boxes within a
 *    stated margin of the boundary (see margin_rel and compare_culls);
 *  - invalid matrices return their status codes and leave *out untouched.
 * Deterministic (fixed seed). Prints per-convention counts, then
 * "N passed, N failed"; exits non-zero on failure.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satc.h"
#define MATRIX_MAX_FAILS 40
#include "matrix_check.h"

#define SEED 0x5a7c3a7121ull
#define BOXES 3000
#define U_F 5.9604644775390625e-08 /* 2^-24: float rounding, relative */

static double dot3d(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static double dot3f(const float *a, const float *b)
{
    return (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
}

/* ------------------------------------------------------------ cameras */

/* Perspective: origin in [-10, 10]^3, n in [0.1, 2], f/n in [10, 10^4];
 * symmetric (fov 20-120 degrees, aspect 0.5-2.5) or off-center (bounds
 * anywhere in [-2n, 2n], possibly not containing the axis). Orthographic:
 * n in [-5, 5], depth 1-200, half sizes 0.5-50, center off the axis by up
 * to 20 when off-center. The frame is orthonormal in double, then rounded. */
static void random_camera(rng *r, int ortho, int offcenter, satc_camera *c)
{
    double R[3][3];
    random_rotation(r, R);
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 3; i++) {
        c->origin[i] = (float)uni(r, -10, 10);
        c->left[i] = (float)R[0][i];
        c->up[i] = (float)R[1][i];
        c->dir[i] = (float)R[2][i];
    }
    if (ortho) {
        c->orthographic = 1;
        double n = uni(r, -5, 5), depth = logu(r, 1, 200);
        double hl = logu(r, 0.5, 50), hu = logu(r, 0.5, 50);
        double cl = offcenter ? uni(r, -20, 20) : 0, cu = offcenter ? uni(r, -20, 20) : 0;
        c->l0 = (float)(cl - hl), c->l1 = (float)(cl + hl);
        c->u0 = (float)(cu - hu), c->u1 = (float)(cu + hu);
        c->n = (float)n, c->f = (float)(n + depth);
        return;
    }
    double n = logu(r, 0.1, 2), f = n * logu(r, 10, 1e4);
    if (offcenter) {
        double a = uni(r, -2, 2), b = uni(r, -2, 2), d = uni(r, -2, 2), e = uni(r, -2, 2);
        if (fabs(a - b) < 0.05)
            b = a + 0.05;
        if (fabs(d - e) < 0.05)
            e = d + 0.05;
        c->l0 = (float)(n * fmin(a, b)), c->l1 = (float)(n * fmax(a, b));
        c->u0 = (float)(n * fmin(d, e)), c->u1 = (float)(n * fmax(d, e));
    } else {
        double fovy = uni(r, 20, 120) * PI / 180, aspect = uni(r, 0.5, 2.5);
        double mu = n * tan(0.5 * fovy);
        c->l0 = (float)(-mu * aspect), c->l1 = (float)(mu * aspect);
        c->u0 = (float)-mu, c->u1 = (float)mu;
    }
    c->n = (float)n, c->f = (float)f;
}

/* The city camera: 60 degree vertical fov, 16:9, n = 0.1, f = 1000. */
static void city_camera(satc_camera *c)
{
    memset(c, 0, sizeof *c);
    const float E[3] = {3.25f, 1.7f, -8.5f};
    double yaw = 0.6, R[3][3] = {{cos(yaw), 0, -sin(yaw)}, {0, 1, 0}, {sin(yaw), 0, cos(yaw)}};
    for (int i = 0; i < 3; i++) {
        c->origin[i] = E[i];
        c->left[i] = (float)R[0][i];
        c->up[i] = (float)R[1][i];
        c->dir[i] = (float)R[2][i];
    }
    double mu = 0.1 * tan(PI / 6);
    c->l0 = (float)(-mu * 16 / 9), c->l1 = (float)(mu * 16 / 9);
    c->u0 = (float)-mu, c->u1 = (float)mu;
    c->n = 0.1f, c->f = 1000.0f;
}

/* -------------------------------------------------------- conventions */

enum {
    P_GL, P_ZO, P_GL_REV, P_ZO_REV, P_GL_INF, P_ZO_INF, P_ZO_REV_INF, P_GL_REV_INF, P_ZO_YFLIP,
    O_GL, O_ZO, O_ZO_REV, NCONV
};

typedef struct conv {
    const char *name;
    unsigned flags;
    int ortho, infinite, yflip;
    /* the far plane is the difference of two nearly equal rows (w - z or
     * w + z with z ~ w): a float matrix knows it only to about u f^2/n */
    int cancel;
} conv;

#define ZO SATC_DEPTH_ZERO_TO_ONE
#define REV SATC_DEPTH_REVERSED
#define INF SATC_DEPTH_INFINITE_FAR

static const conv convs[NCONV] = {
    {"gl [-1,1]", 0, 0, 0, 0, 1},
    {"zero-to-one", ZO, 0, 0, 0, 1},
    {"gl reversed", REV, 0, 0, 0, 1},
    {"zero-to-one reversed", ZO | REV, 0, 0, 0, 0},
    {"gl infinite", INF, 0, 1, 0, 0},
    {"zero-to-one infinite", ZO | INF, 0, 1, 0, 0},
    {"zero-to-one reversed infinite", ZO | REV | INF, 0, 1, 0, 0},
    {"gl reversed infinite", REV | INF, 0, 1, 0, 0},
    {"zero-to-one y-flipped (Vulkan)", ZO, 0, 0, 1, 1},
    {"ortho gl", 0, 1, 0, 0, 0},
    {"ortho zero-to-one", ZO, 1, 0, 0, 0},
    {"ortho zero-to-one reversed", ZO | REV, 1, 0, 0, 0},
};

/* z_clip = A z_view + B (view space looks down -z). */
static void depth_row(int c, double n, double f, double *A, double *B)
{
    switch (c) {
    case P_GL: *A = -(f + n) / (f - n), *B = -2 * f * n / (f - n); break;
    case P_ZO:
    case P_ZO_YFLIP: *A = -f / (f - n), *B = -f * n / (f - n); break;
    case P_GL_REV: *A = (f + n) / (f - n), *B = 2 * f * n / (f - n); break;
    case P_ZO_REV: *A = n / (f - n), *B = f * n / (f - n); break;
    case P_GL_INF: *A = -1, *B = -2 * n; break;
    case P_ZO_INF: *A = -1, *B = -n; break;
    case P_ZO_REV_INF: *A = 0, *B = n; break;
    case P_GL_REV_INF: *A = 1, *B = 2 * n; break;
    case O_GL: *A = -2 / (f - n), *B = -(f + n) / (f - n); break;
    case O_ZO: *A = -1 / (f - n), *B = -n / (f - n); break;
    default: *A = 1 / (f - n), *B = f / (f - n); break; /* O_ZO_REV */
    }
}

/* World to view: x_view = -L (right), y_view = U, z_view = -D. */
static void view_matrix(const satc_camera *c, double V[4][4])
{
    double E[3] = {c->origin[0], c->origin[1], c->origin[2]};
    const float *ax[3] = {c->left, c->up, c->dir};
    const double sg[3] = {-1, 1, -1};
    memset(V, 0, 16 * sizeof(double));
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            V[i][j] = sg[i] * ax[i][j];
        V[i][3] = -dot3d(V[i], E);
    }
    V[3][3] = 1;
}

/* glFrustum / glOrtho style with the camera's bounds: view x in [-l1, -l0]. */
static void proj_matrix(int cv, const satc_camera *c, double n, double f, double P[4][4])
{
    double l = -(double)c->l1, r = -(double)c->l0, b = c->u0, t = c->u1, A, B;
    depth_row(cv, n, f, &A, &B);
    memset(P, 0, 16 * sizeof(double));
    if (convs[cv].ortho) {
        P[0][0] = 2 / (r - l), P[0][3] = -(r + l) / (r - l);
        P[1][1] = 2 / (t - b), P[1][3] = -(t + b) / (t - b);
        P[3][3] = 1;
    } else {
        P[0][0] = 2 * n / (r - l), P[0][2] = (r + l) / (r - l);
        P[1][1] = 2 * n / (t - b), P[1][2] = (t + b) / (t - b);
        P[3][2] = -1;
    }
    P[2][2] = A, P[2][3] = B;
    if (convs[cv].yflip)
        for (int j = 0; j < 4; j++)
            P[1][j] = -P[1][j];
}

static void mul4(double A[4][4], double B[4][4], double C[4][4])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            C[i][j] = A[i][0] * B[0][j] + A[i][1] * B[1][j] + A[i][2] * B[2][j] + A[i][3] * B[3][j];
}

static void store(double M[4][4], int row_major, float m[16])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            m[row_major ? i * 4 + j : j * 4 + i] = (float)M[i][j];
}

/* VP of camera c in convention cv, n and f given separately (invalid
 * projections use other values), column-major float. */
static void build_vp(int cv, const satc_camera *c, double n, double f, double VP[4][4])
{
    double V[4][4], P[4][4];
    view_matrix(c, V);
    proj_matrix(cv, c, n, f, P);
    mul4(P, V, VP);
}

/* -------------------------------------------------------------- boxes */

static void random_axes(rng *r, satc_obb *b)
{
    double R[3][3];
    random_rotation(r, R);
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
            b->axis[j][k] = (float)R[j][k];
}

/* Frame coordinates (lambda, mu, t) to world. */
static void to_world(const satc_camera *c, double l, double u, double t, double *P)
{
    for (int k = 0; k < 3; k++)
        P[k] = c->origin[k] + l * c->left[k] + u * c->up[k] + t * c->dir[k];
}

/* A box whose support point along a face's outward normal lies within
 * +-3e-4 (|P - E| + extents) of that face, P a point of the face: the
 * cases where rounding of the matrix can flip the decision. */
static void touching_box(rng *r, const satc_camera *c, satc_box_arrays *a, size_t i)
{
    double lo[3] = {c->l0, c->u0, c->n}, hi[3] = {c->l1, c->u1, c->f}, q[3], nf[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++)
        q[k] = uni(r, lo[k], hi[k]);
    if (!c->orthographic)
        q[2] = logu(r, c->n, c->f);
    int face = (int)(next(r) % 6), coord = face / 2, high = face & 1;
    q[coord] = high ? hi[coord] : lo[coord];
    nf[coord] = high ? 1 : -1;
    if (!c->orthographic) {
        if (coord < 2) /* side plane lambda = x t (or mu): normal (+-1, 0, -+x) */
            nf[2] = -nf[coord] * q[coord] / c->n;
        q[0] *= q[2] / c->n, q[1] *= q[2] / c->n;
    }
    double nl = sqrt(dot3d(nf, nf)), N[3], P[3];
    for (int k = 0; k < 3; k++)
        N[k] = (nf[0] * c->left[k] + nf[1] * c->up[k] + nf[2] * c->dir[k]) / nl;
    to_world(c, q[0], q[1], q[2], P);
    double dist = 0;
    for (int k = 0; k < 3; k++)
        dist += (P[k] - c->origin[k]) * (P[k] - c->origin[k]);
    dist = sqrt(dist);
    double lo_size = c->orthographic ? 0.005 : 0.02, scale = c->orthographic ? hi[0] - lo[0] + hi[1] - lo[1] : dist + c->n;
    double sigma = logu(r, lo_size, 0.3) * scale;
    satc_obb b;
    random_axes(r, &b);
    double R = 0, es = 0;
    for (int j = 0; j < 3; j++) {
        b.extent[j] = (float)(sigma * uni(r, 0.3, 1));
        double an[3] = {b.axis[j][0], b.axis[j][1], b.axis[j][2]};
        R += b.extent[j] * fabs(dot3d(an, N));
        es += b.extent[j];
    }
    double gap = uni(r, -3e-4, 3e-4) * (dist + es);
    for (int k = 0; k < 3; k++)
        b.center[k] = (float)(P[k] + (R + gap) * N[k]);
    satc_box_arrays_set(a, i, &b);
}

/* Boxes around a finite camera's frustum: 30% anywhere in (and around)
 * it, 45% centered near a face, an edge or a corner (1-3 coordinates
 * snapped to the boundary), offset by up to 1.5 box sizes, 25% touching a
 * face (touching_box). Box size is
 * 2-30% of the distance to the apex (orthographic: of the frustum's
 * size), so the margin below stays well inside every extent. */
static void make_boxes(rng *r, const satc_camera *c, satc_box_arrays *a)
{
    double lo[3] = {c->l0, c->u0, c->n}, hi[3] = {c->l1, c->u1, c->f};
    double size = fmax(fmax(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
    for (size_t i = 0; i < BOXES; i++) {
        /* q: (lambda, mu, t) for orthographic; for perspective the near-plane
         * coordinates (lambda, mu at t = n) and t, scaled by t / n below. */
        double q[3], P[3];
        unsigned kind = (unsigned)(next(r) % 20);
        if (kind >= 15) {
            touching_box(r, c, a, i);
            continue;
        }
        int any = kind < 6;
        for (int k = 0; k < 3; k++) {
            double w = 0.2 * (hi[k] - lo[k]);
            q[k] = any ? uni(r, lo[k] - w, hi[k] + w) : uni(r, lo[k], hi[k]);
        }
        if (!c->orthographic) /* depth log-uniform */
            q[2] = (any ? uni(r, 0.5, 1.2) : 1.0) * logu(r, c->n, c->f);
        if (!any) {
            int snaps = 1 + (int)(next(r) % 3);
            for (int k = 0; k < snaps; k++) {
                int coord = (int)(next(r) % 3);
                q[coord] = (next(r) & 1) ? hi[coord] : lo[coord];
            }
        }
        if (!c->orthographic)
            q[0] *= q[2] / c->n, q[1] *= q[2] / c->n;
        to_world(c, q[0], q[1], q[2], P);
        double dist = 0;
        for (int k = 0; k < 3; k++)
            dist += (P[k] - c->origin[k]) * (P[k] - c->origin[k]);
        dist = sqrt(dist);
        double sigma = (c->orthographic ? logu(r, 0.005, 0.3) * size : logu(r, 0.02, 0.3) * (dist + c->n));
        satc_obb b;
        random_axes(r, &b);
        double dir[3] = {uni(r, -1, 1), uni(r, -1, 1), uni(r, -1, 1)};
        double dl = sqrt(dot3d(dir, dir)) + 1e-300, off = uni(r, -1.5, 1.5) * sigma;
        for (int k = 0; k < 3; k++) {
            b.center[k] = (float)(P[k] + off * dir[k] / dl);
            b.extent[k] = (float)(sigma * uni(r, 0.3, 1));
        }
        satc_box_arrays_set(a, i, &b);
    }
}

/* ----------------------------------------------------- cull comparison */

typedef struct stats {
    long compared, exact, within, shrink_skipped;
    double e_origin, e_frame, e_bounds, e_n, e_f; /* max errors in units of their tolerance scale */
    int cases;
} stats;

static stats g_stats[NCONV];

static void cull(const satc_frustum *f, const satc_boxes *b, satc_mode mode, uint8_t *classes)
{
    satc_results res;
    memset(&res, 0, sizeof res);
    res.classes = classes;
    satc_status s = satc_cull_batch(f, b, 0, BOXES, mode, &res);
    check(s == SATC_OK, "satc_cull_batch status %d", (int)s);
}

/*
 * Agreement up to float rounding of the matrix. The matrix frustum lies
 * within delta = margin_rel * (|C - E| + sum of extents) of the camera
 * frustum near box i, so: when the decisions differ, the camera form must
 * say visible for the box grown by delta (every extent + delta) when the
 * matrix form says visible, and outside for the box shrunk by delta when
 * the matrix form says outside. Boxes are made large enough that no
 * extent drops below delta (counted in shrink_skipped if one did).
 *
 * margin_rel = 1e-4: rounding the matrix to float moves apex, frame and
 * bounds by a few u K (|E| + n) (u = 2^-24, |E| <= 17, n >= 0.1,
 * K <= 7.1: below 2e-5 relative to the smallest |C - E| ~ n), 5x room. For
 * depth conventions whose far plane is a difference of nearly equal rows
 * (convs[].cancel) the far plane is known only to about
 * 2 u f (f + |E|) / n: margin_rel adds 8 u (f + |E|) / n for them.
 */
static double margin_rel(const conv *cv, const satc_camera *c)
{
    double m = 1e-4;
    if (cv->cancel) {
        double e = sqrt(dot3f(c->origin, c->origin));
        m += 8 * U_F * ((double)c->f + e) / c->n;
    }
    return m;
}

static void compare_culls(int ci, const satc_camera *ref_cam, const satc_frustum *ref,
                          const satc_frustum *mat, const satc_box_arrays *base, satc_box_arrays *grown,
                          satc_box_arrays *shrunk, const char *what)
{
    static uint8_t c_ref[BOXES], c_mat[BOXES], c_grown[BOXES], c_shrunk[BOXES];
    static uint8_t skip[BOXES];
    stats *st = &g_stats[ci];
    double m = margin_rel(&convs[ci], ref_cam);
    for (size_t i = 0; i < BOXES; i++) {
        double d2 = 0, es = 0;
        for (int k = 0; k < 3; k++) {
            double d = (double)base->center[k][i] - ref_cam->origin[k];
            d2 += d * d;
            es += base->extent[k][i];
        }
        double delta = m * (sqrt(d2) + es);
        skip[i] = 0;
        for (int k = 0; k < 3; k++) {
            double e = base->extent[k][i];
            grown->extent[k][i] = (float)(e + delta);
            shrunk->extent[k][i] = (float)fmax(e - delta, 0.0);
            if (e - delta < 0)
                skip[i] = 1;
        }
    }
    satc_boxes vb = satc_box_arrays_view(base), vg = satc_box_arrays_view(grown),
               vs = satc_box_arrays_view(shrunk);
    for (int mode = 0; mode < 2; mode++) {
        cull(ref, &vb, (satc_mode)mode, c_ref);
        cull(mat, &vb, (satc_mode)mode, c_mat);
        cull(ref, &vg, (satc_mode)mode, c_grown);
        cull(ref, &vs, (satc_mode)mode, c_shrunk);
        int bad = 0;
        for (size_t i = 0; i < BOXES; i++) {
            int vr = c_ref[i] != SATC_OUTSIDE, vm = c_mat[i] != SATC_OUTSIDE;
            st->compared++;
            if (vr == vm) {
                st->exact++;
                continue;
            }
            st->within++;
            if (vm && c_grown[i] == SATC_OUTSIDE)
                bad++;
            if (!vm && skip[i])
                st->shrink_skipped++;
            else if (!vm && c_shrunk[i] != SATC_OUTSIDE)
                bad++;
        }
        st->within -= bad;
        check(bad == 0, "%s, %s mode: %d boxes differ beyond the margin %.3g", what,
              mode ? "exact" : "conservative", bad, m);
    }
}

/* ------------------------------------------------- parameter recovery */

/*
 * Tolerances, in units of u = 2^-24 times a condition scale (each error is
 * divided by its scale and must stay below TOL_UNITS):
 *  - frame (components): u K, K = 1 + max|x slope| + max|y slope| (the
 *    library's K): the x and y rows mix L or U with D in the ratio of the
 *    center slopes, so removing D costs up to K in relative precision;
 *  - bounds (slopes): u K (K + (|E| + n) / n): the same loss on bounds of
 *    size up to K, plus the rounded apex (error u K (|E| + n)) seen from
 *    the near plane: the bounds are widened so the frustum about the
 *    rounded apex contains the matrix's clip volume;
 *  - apex: u K (|E| + n): the translation column holds -row.E, rounded to
 *    u |row| |E|; solving with rows of condition ~K;
 *  - n: u K (|E| + n), the same through the depth row;
 *  - f: finite, u (f + |E|) f / n with cancellation (convs[].cancel), else
 *    u K (f + |E|) (reversed zero-to-one: no cancellation).
 * Orthographic: frame u; box center in world and half sizes u (|E| + S),
 * S = |l0|+|l1|+|u0|+|u1|+|n|+|f|.
 * TOL_UNITS = 4: the derivation's constants are about 1-2 (observed maxima
 * are printed).
 */
#define TOL_UNITS 4.0

static double maxdiff3(const float *a, const double *b)
{
    double m = 0;
    for (int k = 0; k < 3; k++)
        m = fmax(m, fabs((double)a[k] - b[k]));
    return m;
}

static void note(double *slot, double err, const char *what, const char *qty)
{
    if (err > *slot)
        *slot = err;
    check(err <= TOL_UNITS, "%s: %s error %.3g tolerance units (limit %g)", what, qty, err, TOL_UNITS);
}

static void check_params(int ci, const satc_camera *c, const satc_frustum *f, const char *what)
{
    stats *st = &g_stats[ci];
    const conv *cv = &convs[ci];
    double E[3] = {c->origin[0], c->origin[1], c->origin[2]};
    double e = sqrt(dot3d(E, E));
    double sg = cv->yflip ? -1 : 1;
    double L[3], U[3], D[3];
    for (int k = 0; k < 3; k++)
        L[k] = sg * c->left[k], U[k] = sg * c->up[k], D[k] = c->dir[k];
    check(f->kind == (cv->ortho ? SATC_FRUSTUM_ORTHOGRAPHIC : SATC_FRUSTUM_PERSPECTIVE),
          "%s: kind %u", what, f->kind);
    check(f->infinite == (unsigned)cv->infinite, "%s: infinite %u", what, f->infinite);
    if (cv->ortho) {
        double l0 = c->l0, l1 = c->l1, u0 = c->u0, u1 = c->u1, n = c->n, ff = c->f;
        double S = fabs(l0) + fabs(l1) + fabs(u0) + fabs(u1) + fabs(n) + fabs(ff);
        double cw[3], mw[3];
        to_world(c, 0.5 * (l0 + l1), 0.5 * (u0 + u1), 0.5 * (n + ff), cw);
        for (int k = 0; k < 3; k++)
            mw[k] = (double)f->origin[k] + (double)f->center[0] * f->frame[0][k] +
                    (double)f->center[1] * f->frame[1][k] + (double)f->center[2] * f->frame[2][k];
        double fe = fmax(fmax(maxdiff3(f->frame[0], L), maxdiff3(f->frame[1], U)),
                         maxdiff3(f->frame[2], D));
        note(&st->e_frame, fe / U_F, what, "frame");
        double ce = 0;
        for (int k = 0; k < 3; k++)
            ce = fmax(ce, fabs(mw[k] - cw[k]));
        note(&st->e_origin, ce / (U_F * (e + S)), what, "box center");
        double he = fmax(fmax(fabs(f->half[0] - 0.5 * (l1 - l0)), fabs(f->half[1] - 0.5 * (u1 - u0))),
                         fabs(f->half[2] - 0.5 * (ff - n)));
        note(&st->e_bounds, he / (U_F * (e + S)), what, "half sizes");
        return;
    }
    double n = c->n, ff = c->f;
    double x0 = c->l0 / n, x1 = c->l1 / n, y0 = c->u0 / n, y1 = c->u1 / n;
    if (cv->yflip) {
        double t = x0;
        x0 = -x1, x1 = -t, t = y0, y0 = -y1, y1 = -t;
    }
    double K = 1 + fmax(fabs(x0), fabs(x1)) + fmax(fabs(y0), fabs(y1));
    /* The apex may sit back by t along the central direction (xc, yc, 1)
     * (the library moves it so that its rounding needs no wider slopes):
     * t is at most a few u |E| (1 + |xc| + |yc|) / h, h the least half
     * width of the slopes; off that line only rounding. */
    double xc = 0.5 * (x0 + x1), yc = 0.5 * (y0 + y1);
    double h = 0.5 * fmin(x1 - x0, y1 - y0), back = 0, lat = 0;
    for (int k = 0; k < 3; k++)
        back += D[k] * (E[k] - (double)f->origin[k]);
    for (int k = 0; k < 3; k++)
        lat = fmax(lat, fabs((double)f->origin[k] + back * (xc * L[k] + yc * U[k] + D[k]) - E[k]));
    double tmax = 64 * U_F * (e + n) * (1 + fabs(xc) + fabs(yc)) / h;
    note(&st->e_origin, lat / (U_F * K * (e + n)), what, "apex off the central line");
    check(back >= -U_F * K * (e + n) * TOL_UNITS && back <= tmax,
          "%s: apex moved back by %.3g (limit %.3g)", what, back, tmax);
    n += back; /* depths are measured from the apex */
    double fe = fmax(fmax(maxdiff3(f->frame[0], L), maxdiff3(f->frame[1], U)),
                     maxdiff3(f->frame[2], D));
    note(&st->e_frame, fe / (U_F * K), what, "frame");
    double be = fmax(fmax(fabs(f->x0 - x0), fabs(f->x1 - x1)), fmax(fabs(f->y0 - y0), fabs(f->y1 - y1)));
    note(&st->e_bounds, be / (U_F * K * (K + (e + n) / n)), what, "slopes");
    note(&st->e_n, fabs(f->n - n) / (U_F * K * (e + n)), what, "near");
    if (cv->infinite) {
        check(isinf(f->f) && f->f > 0, "%s: f = %g, want +inf", what, f->f);
    } else {
        double scale = cv->cancel ? U_F * (ff + e) * ff / n : U_F * K * (ff + e);
        note(&st->e_f, fabs(f->f - ff) / scale, what, "far");
    }
}

/* ----------------------------------------------------------- valid cases */

static satc_camera recentre(const satc_camera *c)
{
    satc_camera o = *c;
    double E[3];
    to_world(c, 0.5 * ((double)c->l0 + c->l1), 0.5 * ((double)c->u0 + c->u1), c->n, E);
    for (int k = 0; k < 3; k++)
        o.origin[k] = (float)E[k];
    o.l1 = (float)(0.5 * ((double)c->l1 - c->l0)), o.l0 = -o.l1;
    o.u1 = (float)(0.5 * ((double)c->u1 - c->u0)), o.u0 = -o.u1;
    o.n = 0, o.f = (float)((double)c->f - c->n);
    return o;
}

static void run_camera(const satc_camera *cam, int cam_id, const satc_box_arrays *base,
                       satc_box_arrays *grown, satc_box_arrays *shrunk)
{
    for (int ci = 0; ci < NCONV; ci++) {
        if (convs[ci].ortho != (cam->orthographic != 0))
            continue;
        satc_camera rc = *cam, cc;
        if (convs[ci].infinite)
            rc.f = INFINITY;
        /* Orthographic: the matrix form puts its origin at the near face's
         * center; the culling band grows with the frustum box's offset from
         * the origin (satc.h), so compare culls with the same box expressed
         * there (an identity of sets up to rounding E to float). */
        cc = cam->orthographic ? recentre(cam) : rc;
        satc_frustum ref, fm[2];
        satc_status s = satc_frustum_from_camera(&ref, &cc);
        check(s == SATC_OK, "camera %d: from_camera status %d", cam_id, (int)s);
        double VP[4][4];
        build_vp(ci, cam, cam->n, rc.f, VP);
        for (int rm = 0; rm < 2; rm++) {
            char what[160];
            snprintf(what, sizeof what, "camera %d, %s, %s", cam_id, convs[ci].name,
                     rm ? "row-major" : "column-major");
            float m[16];
            store(VP, rm, m);
            s = satc_frustum_from_matrix(&fm[rm], m, convs[ci].flags | (rm ? SATC_MATRIX_ROW_MAJOR : 0));
            check(s == SATC_OK, "%s: status %d (%s)", what, (int)s, satc_status_string(s));
            if (s != SATC_OK)
                continue;
            g_stats[ci].cases++;
            check_params(ci, &rc, &fm[rm], what);
            compare_culls(ci, &cc, &ref, &fm[rm], base, grown, shrunk, what);
            if (rm == 1)
                check(memcmp(&fm[0], &fm[1], sizeof fm[0]) == 0,
                      "%s: row- and column-major frusta differ", what);
        }
        /* Scaling M by a power of two changes no rounding: same frustum. */
        float m[16];
        double S[4][4];
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                S[i][j] = VP[i][j] * 1024.0;
        store(S, 0, m);
        satc_frustum fs;
        s = satc_frustum_from_matrix(&fs, m, convs[ci].flags);
        check(s == SATC_OK && memcmp(&fs, &fm[0], sizeof fs) == 0,
              "camera %d, %s: 1024 M gives a different frustum", cam_id, convs[ci].name);
    }
}

static void valid_cases(rng *r)
{
    satc_box_arrays base, grown, shrunk;
    if (satc_box_arrays_alloc(&base, BOXES) || satc_box_arrays_alloc(&grown, BOXES) ||
        satc_box_arrays_alloc(&shrunk, BOXES)) {
        check(0, "allocation");
        return;
    }
    /* 1 city camera, 8 symmetric and 8 off-center perspective, 4 + 4 ortho. */
    for (int id = 0; id < 25; id++) {
        satc_camera cam;
        if (id == 0)
            city_camera(&cam);
        else /* ids 1-8 symmetric, 9-16 off-center, 17-20 and 21-24 ortho */
            random_camera(r, id >= 17, (id >= 9 && id < 17) || id >= 21, &cam);
        make_boxes(r, &cam, &base);
        for (int k = 0; k < 3; k++) {
            memcpy(grown.center[k], base.center[k], BOXES * sizeof(float));
            memcpy(shrunk.center[k], base.center[k], BOXES * sizeof(float));
            for (int j = 0; j < 3; j++) {
                memcpy(grown.axis[k][j], base.axis[k][j], BOXES * sizeof(float));
                memcpy(shrunk.axis[k][j], base.axis[k][j], BOXES * sizeof(float));
            }
        }
        run_camera(&cam, id, &base, &grown, &shrunk);
    }
    satc_box_arrays_free(&base);
    satc_box_arrays_free(&grown);
    satc_box_arrays_free(&shrunk);
}

static void print_stats(void)
{
    printf("%-31s %5s %8s %8s %7s %6s | max error / tolerance scale: apex frame bounds near far\n",
           "convention", "cases", "compared", "exact", "within", "skip");
    for (int ci = 0; ci < NCONV; ci++) {
        const stats *s = &g_stats[ci];
        printf("%-31s %5d %8ld %8ld %7ld %6ld | %5.2f %5.2f %5.2f %5.2f %5.2f\n", convs[ci].name,
               s->cases, s->compared, s->exact, s->within, s->shrink_skipped, s->e_origin,
               s->e_frame, s->e_bounds, s->e_n, s->e_f);
    }
}

/* --------------------------------------------------------- invalid cases */

/* from_matrix on m must return want; on error *out must be untouched. */
static void expect_f(const char *what, const float m[16], unsigned flags, satc_status want,
                     satc_frustum *got)
{
    satc_frustum out, before;
    memset(&out, 0xa5, sizeof out);
    before = out;
    satc_status s = satc_frustum_from_matrix(&out, m, flags);
    check(s == want, "%s: status %d (%s), want %d (%s)", what, (int)s, satc_status_string(s),
          (int)want, satc_status_string(want));
    if (s != SATC_OK)
        check(memcmp(&out, &before, sizeof out) == 0, "%s: output written on error", what);
    if (got)
        *got = out;
    printf("  %-62s %s\n", what, satc_status_string(s));
}

static void expect(const char *what, double M[4][4], unsigned flags, satc_status want, satc_frustum *got)
{
    float m[16];
    store(M, (flags & SATC_MATRIX_ROW_MAJOR) != 0, m);
    expect_f(what, m, flags, want, got);
}

/* Lengyel's oblique near-plane clipping (reflection rendering): the GL
 * projection's z row replaced so that the near plane is the view-space
 * plane C (camera on its negative side). */
static void oblique_near(double P[4][4], const double C[4])
{
    double q[4] = {((C[0] > 0) - (C[0] < 0) + P[0][2]) / P[0][0],
                   ((C[1] > 0) - (C[1] < 0) + P[1][2]) / P[1][1], -1, (1 + P[2][2]) / P[2][3]};
    double k = 2 / (C[0] * q[0] + C[1] * q[1] + C[2] * q[2] + C[3] * q[3]);
    P[2][0] = k * C[0], P[2][1] = k * C[1], P[2][2] = k * C[2] + 1, P[2][3] = k * C[3];
}

static void invalid_cases(void)
{
    satc_camera cam, oc;
    city_camera(&cam);
    oc = cam;
    oc.orthographic = 1, oc.l0 = -40, oc.l1 = 25, oc.u0 = -10, oc.u1 = 30, oc.n = -3, oc.f = 150;
    double n = cam.n, f = cam.f, VP[4][4], V[4][4], P[4][4], M[4][4];
    float m[16];
    satc_frustum got;
    char what[96];
    printf("invalid and edge-case matrices:\n");

    build_vp(P_GL, &cam, n, f, VP);
    store(VP, 0, m);
    expect_f("valid GL city camera (baseline)", m, 0, SATC_OK, NULL);
    int nan_ok = 1, inf_ok = 1;
    for (int i = 0; i < 16; i++) {
        float t[16];
        memcpy(t, m, sizeof t);
        t[i] = NAN;
        satc_frustum out;
        memset(&out, 0xa5, sizeof out);
        satc_frustum before = out;
        nan_ok &= satc_frustum_from_matrix(&out, t, i & 1 ? SATC_MATRIX_ROW_MAJOR : 0) == SATC_ERR_NONFINITE &&
                  memcmp(&out, &before, sizeof out) == 0;
        t[i] = (i & 1) ? -INFINITY : INFINITY;
        inf_ok &= satc_frustum_from_matrix(&out, t, ZO) == SATC_ERR_NONFINITE &&
                  memcmp(&out, &before, sizeof out) == 0;
    }
    check(nan_ok, "NaN in some entry not reported as SATC_ERR_NONFINITE (or output written)");
    check(inf_ok, "Inf in some entry not reported as SATC_ERR_NONFINITE (or output written)");
    printf("  %-62s %s\n", "NaN / +-Inf in each of the 16 entries", nan_ok && inf_ok ? "non-finite" : "WRONG");

    memset(M, 0, sizeof M);
    expect("all-zero matrix", M, 0, SATC_ERR_MATRIX, NULL);
    view_matrix(&cam, V);
    proj_matrix(P_GL, &cam, n, f, P);
    memset(P[0], 0, sizeof P[0]);
    mul4(P, V, M);
    expect("singular: x row zero", M, 0, SATC_ERR_MATRIX, NULL);
    proj_matrix(P_GL, &cam, n, f, P);
    memcpy(P[1], P[0], sizeof P[0]);
    mul4(P, V, M);
    expect("singular: y row = x row", M, 0, SATC_ERR_MATRIX, NULL);
    proj_matrix(P_GL, &cam, n, f, P);
    memset(P[3], 0, sizeof P[3]);
    mul4(P, V, M);
    expect("w row zero (neither perspective nor orthographic)", M, 0, SATC_ERR_MATRIX, NULL);
    build_vp(O_GL, &oc, oc.n, oc.f, VP);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            M[i][j] = -VP[i][j];
    expect("orthographic negated (w < 0: empty clip volume)", M, 0, SATC_ERR_MATRIX, NULL);

    const double C[4] = {0.3, 0.2, -1, -5 * n};
    proj_matrix(P_GL, &cam, n, f, P);
    oblique_near(P, C);
    mul4(P, V, M);
    expect("oblique near plane (Lengyel reflection clip)", M, 0, SATC_ERR_MATRIX, NULL);
    const double tilts[2] = {1e-9, 1e-4};
    for (int k = 0; k < 2; k++) {
        proj_matrix(P_ZO, &cam, n, f, P);
        P[2][0] += tilts[k] * fabs(P[2][2]);
        mul4(P, V, M);
        snprintf(what, sizeof what, "depth row tilted by %g (tolerance 2^-20)", tilts[k]);
        expect(what, M, ZO, k ? SATC_ERR_MATRIX : SATC_OK, NULL);
    }
    const double shears[2] = {1e-9, 1e-2};
    for (int k = 0; k < 2; k++) {
        double Sh[4][4] = {{1, shears[k], 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}, SV[4][4];
        mul4(Sh, V, SV);
        proj_matrix(P_GL, &cam, n, f, P);
        mul4(P, SV, M);
        snprintf(what, sizeof what, "view sheared (x += %g y)", shears[k]);
        expect(what, M, 0, k ? SATC_ERR_MATRIX : SATC_OK, NULL);
    }
    {
        double Sh[4][4] = {{1, 0, 0.2, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}, SV[4][4];
        mul4(Sh, V, SV);
        proj_matrix(P_GL, &cam, n, f, P);
        mul4(P, SV, M);
        expect("view x += 0.2 z (perspective: an off-center frustum)", M, 0, SATC_OK, NULL);
        proj_matrix(O_GL, &oc, oc.n, oc.f, P);
        mul4(P, SV, M);
        expect("view x += 0.2 z (orthographic: oblique box)", M, 0, SATC_ERR_MATRIX, NULL);
    }

    build_vp(P_GL, &cam, 10 * n, n, M);
    expect("GL projection made with near > far", M, 0, SATC_ERR_FAR, NULL);
    build_vp(P_ZO, &cam, 10 * n, n, M);
    expect("zero-to-one projection made with near > far", M, ZO, SATC_ERR_FAR, NULL);
    build_vp(P_GL, &cam, n, f, M);
    expect("GL matrix passed as reversed", M, REV, SATC_ERR_FAR, NULL);
    build_vp(P_ZO_REV, &cam, n, f, M);
    expect("reversed zero-to-one matrix passed as not reversed", M, ZO, SATC_ERR_FAR, NULL);
    build_vp(P_ZO_REV_INF, &cam, n, f, M);
    expect("reversed infinite matrix passed as not reversed", M, ZO | INF, SATC_ERR_MATRIX, NULL);
    build_vp(P_GL, &cam, n, n, M);
    expect("near == far (entries infinite)", M, 0, SATC_ERR_NONFINITE, NULL);
    build_vp(P_GL, &cam, -n, f, M);
    expect("negative near", M, 0, SATC_ERR_NEAR, NULL);

    build_vp(P_GL, &cam, n, 100 * n, M);
    expect("infinite flag on a finite projection (f = 100 n)", M, INF, SATC_ERR_MATRIX, NULL);
    build_vp(P_GL_INF, &cam, n, f, M);
    expect("infinite GL projection without the flag (taken as infinite)", M, 0, SATC_OK, &got);
    check(got.infinite == 1 && isinf(got.f), "infinite GL projection without the flag: f = %g", got.f);
    view_matrix(&cam, V);
    proj_matrix(P_GL_INF, &cam, n, f, P);
    P[2][2] = 0x1p-22 - 1, P[2][3] = (0x1p-22 - 2) * n; /* Lengyel's epsilon: far ~ 2^23 n */
    mul4(P, V, M);
    expect("epsilon-tweaked infinite projection, infinite flag", M, INF, SATC_OK, &got);
    check(got.infinite == 1, "epsilon-tweaked infinite projection: not infinite");
    build_vp(O_GL, &oc, oc.n, oc.f, M);
    expect("orthographic with the infinite flag", M, INF, SATC_ERR_FAR, NULL);
    build_vp(O_GL, &oc, oc.f, oc.n, M);
    expect("orthographic made with near > far (the same box, D reversed)", M, 0, SATC_OK, &got);
    check(fabs(got.half[2] - 0.5 * (oc.f - oc.n)) <= 1e-4 * (oc.f - oc.n),
          "orthographic near > far: depth half size %g", got.half[2]);

    build_vp(P_GL, &cam, n, f, M);
    const unsigned bad[3] = {16u, 0x80000000u, ~0u};
    for (int k = 0; k < 3; k++) {
        snprintf(what, sizeof what, "unknown convention bits %#x", bad[k]);
        expect(what, M, bad[k], SATC_ERR_FLAGS, NULL);
    }
    store(M, 0, m);
    check(satc_frustum_from_matrix(NULL, m, 0) == SATC_ERR_NULL, "NULL out");
    memset(&got, 0xa5, sizeof got);
    satc_frustum before = got;
    check(satc_frustum_from_matrix(&got, NULL, 0) == SATC_ERR_NULL &&
              memcmp(&got, &before, sizeof got) == 0,
          "NULL matrix");
    printf("  %-62s %s\n", "NULL out / NULL matrix", satc_status_string(SATC_ERR_NULL));
}

int main(void)
{
    rng r = {SEED};
    printf("seed %#llx, %d boxes per case, both modes\n", (unsigned long long)SEED, BOXES);
    valid_cases(&r);
    print_stats();
    invalid_cases();
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail != 0;
}
