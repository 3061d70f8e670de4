/*
 * Scalar reference: defines every answer the SIMD paths must reproduce
 * bit-for-bit. Each expression below is evaluated exactly in the order
 * written (-ffp-contract=off); the SIMD kernels repeat that order per lane.
 *
 * Notation follows Eberly: frame L, U, D; delta = frame
 * coordinates of C - E. A box is held by its half-axis vectors H_j (e_j A_j
 * for Eberly's form) in frame coordinates (hx, hy, hz): a parallelepiped in
 * general, so every test below holds for any axes. The perspective frustum
 * is held as slopes (x0, x1, y0, y1) = bounds / n, so its near corners in
 * units of depth are W = (x, y, 1) and the frustum is { t W : n <= t <= f }.
 *
 * Tolerance: along an axis M the decision is inflated by
 * tol_s |M|_1 + SATC_TINY, tol_s = eps_k S + tol_t (see satc.h; tol_t is
 * the frustum's constant term: an orthographic frustum's size, a double
 * camera's rounded origin, else 0). Every projection is
 * computed directly from M as rounded, so its rounding error is bounded by
 * a multiple of u |M|_1 S plus underflow, whatever M's length.
 */
#include <math.h>

#include "../core/internal.h"
#include "cull_scalar.h"
#include "../kernels/key16.h"

static inline float min_ref(float a, float b) { return a < b ? a : b; }
static inline float max_ref(float a, float b) { return a > b ? a : b; }

/*
 * Planes of the perspective frustum (RTR 22.10.2, 22.14.3), each as
 * d - R > w (outside) and d + R <= w (inside), R inflated by tol; the
 * radii R come from the loader (o->r: D, x1, x0, y1, y0):
 *   near/far  M = D:              d = dz
 *   x <= x1 z M = (1, 0, -x1):    d = dx - x1 dz
 *   x >= x0 z M = (-1, 0, x0):    d = x0 dz - dx
 *   (and the same with y for U).
 */
satc_planes satc_planes_persp_ref(const satc_frustum *f, const satc_box_frame *o)
{
    satc_planes p = {0, 0, 0, 0};
    float tol = f->eps_k * o->s + f->tol_t, ntol = -tol;
    float d1 = o->dx - f->x1 * o->dz, d0 = f->x0 * o->dz - o->dx;
    float g1 = o->dy - f->y1 * o->dz, g0 = f->y0 * o->dz - o->dy;
    float zp = o->dz + o->r[0], zm = o->dz - o->r[0];
    /* The gap: how far the volume lies outside its farthest plane
     * (negative when it reaches every plane's inner side). */
    float gap = max_ref(f->n - zp, zm - f->f);
    gap = max_ref(d1 - o->r[1], gap);
    gap = max_ref(d0 - o->r[2], gap);
    gap = max_ref(g1 - o->r[3], gap);
    gap = max_ref(g0 - o->r[4], gap);
    int out = gap > tol;
    /* Inside the far plane: f_in (a matrix's far plane may tilt below f). */
    int in[6] = {zm - tol >= f->n, zp + tol <= f->f_in, d1 + o->r[1] <= ntol,
                 d0 + o->r[2] <= ntol, g1 + o->r[3] <= ntol, g0 + o->r[4] <= ntol};
    int inside = 1, straddles = 0;
    for (int k = 0; k < 6; k++) {
        inside &= in[k];
        straddles += !in[k];
    }
    p.out = out && !o->bad;
    p.inside = inside && !out && !o->bad;
    /* Crossing one plane while inside the other five means the part of the
     * volume on the inner side lies in the frustum: visible. Only volumes
     * crossing two or more planes need the remaining axes. */
    p.undecided = !out && straddles >= 2 && !o->bad;
    p.band = !out && gap > ntol && !o->bad;
    return p;
}

/* Frustum interval on axis M from its near-corner support [plo, phi] at unit
 * depth (Eberly §4): scaled by the far depth where it grows, the near
 * depth where it shrinks. */
/* The axes' verdicts: sep when some axis separates (its computed gap
 * exceeds its tolerance T), band when one would with 2 T less (the gap
 * lies above -T: within the float band, for satc_redecide). */
typedef struct gaps {
    int s, b;
} gaps;

static inline void take2(gaps *g, float a, float b, float T, float m0, float m1)
{
    /* u < 0: a < m0 or b > m1 (the difference of two floats has the
     * sign of their order; under flush-to-zero a tiny one may read 0,
     * which keeps). */
    float u = min_ref(a - m0, m1 - b);
    g->s |= u < 0.0f;
    g->b |= u < T + T;
}

static inline void take_sep(gaps *g, float d, float r, float T, float plo, float phi, float n,
                            float fb)
{
    float m0 = plo < 0.0f ? fb * plo : n * plo;
    float m1 = phi > 0.0f ? fb * phi : n * phi;
    take2(g, d + r, d - r, T, m0, m1);
}

static inline int gaps_result(const gaps *g, int *band)
{
    if (band)
        *band = g->b && !g->s;
    return g->s;
}

/* A general axis M = (mx, my, mz) against the perspective frustum. */
static void axis_persp(const satc_frustum *f, const satc_box_frame *o, float mx, float my, float mz,
                       float tol_s, float fb, gaps *g)
{
    float d = mx * o->dx + my * o->dy + mz * o->dz;
    float T, r = satc_axis_radius_ref(o, mx, my, mz, tol_s, &T);
    float mx0 = mx * f->x0, mx1 = mx * f->x1, my0 = my * f->y0, my1 = my * f->y1;
    float plo = mz + min_ref(mx0, mx1) + min_ref(my0, my1);
    float phi = mz + max_ref(mx0, mx1) + max_ref(my0, my1);
    take_sep(g, d, r, T, plo, phi, f->n, fb);
}

/* The other two axis indices of i, increasing: how radii sum over j != i. */
static const int other_j[3] = {1, 0, 0}, other_k[3] = {2, 2, 1};

/* Cross terms of the half axes: X_ij = (L x H_i).H_j, Y_ij = (U x H_i).H_j,
 * Z_ij = (D x H_i).H_j; exact negatives of X_ji etc. in float, and the
 * components of the face normal H_j x H_k are (X_jk, Y_jk, Z_jk). */
static void cross_terms(const satc_box_frame *o, float X[3][3], float Y[3][3], float Z[3][3])
{
    const float *hx = o->hx, *hy = o->hy, *hz = o->hz;
    for (int i = 0; i < 3; i++) {
        X[i][i] = Y[i][i] = Z[i][i] = 0.0f;
        for (int j = i + 1; j < 3; j++) {
            X[i][j] = hy[i] * hz[j] - hz[i] * hy[j];
            Y[i][j] = hz[i] * hx[j] - hx[i] * hz[j];
            Z[i][j] = hx[i] * hy[j] - hy[i] * hx[j];
            X[j][i] = -X[i][j];
            Y[j][i] = -Y[i][j];
            Z[j][i] = -Z[i][j];
        }
    }
}

/*
 * Remaining axes of the perspective test (Eberly §4-5, generalised to
 * asymmetric slopes and to parallelepipeds): the lower sides of the four
 * side planes; the box's face normals N_i = H_j x H_k; L x H_i, U x H_i and
 * W x H_i for the four lateral edges W. Far depth fb = min(f, top of the
 * box): the box lies below it, so the truncated frustum meets the box
 * exactly when the frustum does, and an infinite far plane needs no
 * special case.
 */
int satc_axes_persp_ref(const satc_frustum *f, const satc_box_frame *o, int *band)
{
    const float *hx = o->hx, *hy = o->hy, *hz = o->hz;
    float tol_s = f->eps_k * o->s + f->tol_t;
    float n = f->n;
    float rz = o->r[0] + tol_s;
    float top = o->dz + rz;
    float fb = top < f->f ? top : f->f;
    gaps g = {0, 0};

    /* Lower sides of the side planes: interval [fb * (x0 - x1), 0]. */
    float rx1 = o->r[1] + tol_s, rx0 = o->r[2] + tol_s;
    float ry1 = o->r[3] + tol_s, ry0 = o->r[4] + tol_s;
    float mx = fb * f->dx, my = fb * f->dy;
    take2(&g, o->dx - f->x1 * o->dz + rx1, -INFINITY, tol_s, mx, INFINITY);
    take2(&g, f->x0 * o->dz - o->dx + rx0, -INFINITY, tol_s, mx, INFINITY);
    take2(&g, o->dy - f->y1 * o->dz + ry1, -INFINITY, tol_s, my, INFINITY);
    take2(&g, f->y0 * o->dz - o->dy + ry0, -INFINITY, tol_s, my, INFINITY);

    float X[3][3], Y[3][3], Z[3][3];
    cross_terms(o, X, Y, Z);
    for (int i = 0; i < 3; i++) {
        int j = other_j[i], k = other_k[i];
        float ax = fabsf(hx[i]), ay = fabsf(hy[i]), az = fabsf(hz[i]);
        /* M = N_i = H_j x H_k, the face normal. */
        axis_persp(f, o, X[j][k], Y[j][k], Z[j][k], tol_s, fb, &g);

        /* M = L x H_i = (0, -hz_i, hy_i). */
        float d = hy[i] * o->dz - hz[i] * o->dy;
        float T = tol_s * (az + ay);
        float r = fabsf(X[i][j]) + fabsf(X[i][k]) + T + SATC_TINY;
        float ng = -hz[i];
        float gy0 = ng * f->y0, gy1 = ng * f->y1;
        float plo = hy[i] + min_ref(gy0, gy1);
        float phi = hy[i] + max_ref(gy0, gy1);
        take_sep(&g, d, r, T, plo, phi, n, fb);

        /* M = U x H_i = (hz_i, 0, -hx_i). */
        d = hz[i] * o->dx - hx[i] * o->dz;
        T = tol_s * (az + ax);
        r = fabsf(Y[i][j]) + fabsf(Y[i][k]) + T + SATC_TINY;
        float gx0 = hz[i] * f->x0, gx1 = hz[i] * f->x1;
        plo = min_ref(gx0, gx1) - hx[i];
        phi = max_ref(gx0, gx1) - hx[i];
        take_sep(&g, d, r, T, plo, phi, n, fb);

        /* M = W x H_i, W = (wx, wy, 1) a lateral edge. */
        for (int c = 0; c < 4; c++) {
            float wx = (c & 1) ? f->x1 : f->x0, wy = (c & 2) ? f->y1 : f->y0;
            float Mx = wy * hz[i] - hy[i];
            float My = hx[i] - wx * hz[i];
            float Mz = wx * hy[i] - wy * hx[i];
            axis_persp(f, o, Mx, My, Mz, tol_s, fb, &g);
        }
    }
    return gaps_result(&g, band);
}

/*
 * Orthographic frustum: a box (RTR 22.14.3), tested as OBB against OBB
 * (Gomez, OBB and OBB, RTR 22.13.5) in frame coordinates. t = delta - frustum center.
 * Planes: |t_k| - (R_k + tol) > h_k outside, |t_k| + R_k + tol <= h_k inside.
 */
satc_planes satc_planes_ortho_ref(const satc_frustum *f, const satc_box_frame *o)
{
    satc_planes p = {0, 0, 0, 0};
    const float *h = f->half;
    float tol = f->eps_k * o->s + f->tol_t;
    float t[3] = {o->dx - f->center[0], o->dy - f->center[1], o->dz - f->center[2]};
    int inside = 1, straddles = 0;
    float gap = -INFINITY;
    for (int k = 0; k < 3; k++) {
        float r = o->r[k] + tol;
        gap = max_ref(fabsf(t[k]) - o->r[k] - h[k], gap);
        int hi = t[k] + r <= h[k], lo = t[k] - r >= -h[k];
        inside &= hi & lo;
        straddles += !hi + !lo;
    }
    int out = gap > tol;
    p.out = out && !o->bad;
    p.inside = inside && !out && !o->bad;
    p.undecided = !out && straddles >= 2 && !o->bad;
    p.band = !out && gap > -tol && !o->bad;
    return p;
}

/* A general axis against the orthographic frustum box: |M.t| against the
 * box's and the frustum's radii. */
static void axis_ortho(const satc_frustum *f, const satc_box_frame *o, const float t[3], float mx,
                       float my, float mz, float tol_s, gaps *g)
{
    const float *h = f->half;
    float d = mx * t[0] + my * t[1] + mz * t[2];
    float amx = fabsf(mx), amy = fabsf(my), amz = fabsf(mz);
    float T, r = satc_axis_radius_ref(o, mx, my, mz, tol_s, &T);
    r = r + (h[0] * amx + h[1] * amy + h[2] * amz);
    take2(g, -INFINITY, fabsf(d), T, -INFINITY, r);
}

/* Box face normals and the nine cross axes X_k x H_i of the orthographic
 * test, each projection computed directly from M (see the top comment). */
int satc_axes_ortho_ref(const satc_frustum *f, const satc_box_frame *o, int *band)
{
    const float *h = f->half, *hx = o->hx, *hy = o->hy, *hz = o->hz;
    float tol_s = f->eps_k * o->s + f->tol_t;
    float t[3] = {o->dx - f->center[0], o->dy - f->center[1], o->dz - f->center[2]};
    float X[3][3], Y[3][3], Z[3][3];
    cross_terms(o, X, Y, Z);
    gaps g = {0, 0};
    for (int i = 0; i < 3; i++) {
        int j = other_j[i], k = other_k[i];
        float ax = fabsf(hx[i]), ay = fabsf(hy[i]), az = fabsf(hz[i]);
        /* M = N_i = H_j x H_k */
        axis_ortho(f, o, t, X[j][k], Y[j][k], Z[j][k], tol_s, &g);
        /* M = X x H_i = (0, -hz_i, hy_i) */
        float d = hy[i] * t[2] - hz[i] * t[1];
        float T = tol_s * (az + ay);
        float r = fabsf(X[i][j]) + fabsf(X[i][k]) + T + SATC_TINY;
        r = r + (h[1] * az + h[2] * ay);
        take2(&g, -INFINITY, fabsf(d), T, -INFINITY, r);
        /* M = Y x H_i = (hz_i, 0, -hx_i) */
        d = hz[i] * t[0] - hx[i] * t[2];
        T = tol_s * (az + ax);
        r = fabsf(Y[i][j]) + fabsf(Y[i][k]) + T + SATC_TINY;
        r = r + (h[0] * az + h[2] * ax);
        take2(&g, -INFINITY, fabsf(d), T, -INFINITY, r);
        /* M = Z x H_i = (-hy_i, hx_i, 0) */
        d = hx[i] * t[1] - hy[i] * t[0];
        T = tol_s * (ay + ax);
        r = fabsf(Z[i][j]) + fabsf(Z[i][k]) + T + SATC_TINY;
        r = r + (h[0] * ay + h[1] * ax);
        take2(&g, -INFINITY, fabsf(d), T, -INFINITY, r);
    }
    return gaps_result(&g, band);
}

/* One point (frame coordinates) inside every plane of the perspective
 * frustum by at least mg, with the plane tier's expressions (mg = 0: the
 * plane tests themselves). */
static inline int point_in_persp(const satc_frustum *f, float x, float y, float z, float mg)
{
    float nm = -mg;
    return (z >= f->n + mg) & (z <= f->f - mg) & (x - f->x1 * z <= nm) & (f->x0 * z - x <= nm) &
           (y - f->y1 * z <= nm) & (f->y0 * z - y <= nm);
}

/*
 * Trivial accept (Hoff): a box whose center or one of whose eight
 * vertices lies inside the frustum meets it. Exact mode tries this on the
 * boxes the planes leave undecided before the remaining axes; it settles
 * most of the visible ones. Vertex v adds +-H_j for j = 0, 1, 2 in turn,
 * + where bit j of v is set.
 */
int satc_point_in_persp_ref(const satc_frustum *f, const satc_box_frame *o)
{
    /* Inside by the tolerance, which exceeds a computed point's rounding
     * (docs/error-bound.md §4.4): an accepted point is truly inside, so
     * exact mode keeps no box here that its second stage should decide. */
    float mg = f->eps_k * o->s + f->tol_t;
    int in = point_in_persp(f, o->dx, o->dy, o->dz, mg);
    for (int v = 0; v < 8; v++) {
        float x, y, z;
        satc_box_corner_ref(o, v, &x, &y, &z);
        in |= point_in_persp(f, x, y, z, mg);
    }
    return in;
}

/* Squared-distance floor of the sphere tests: below 2^-50 world units
 * squares lose their precision to underflow, so such distances count as
 * touching (2^-100). */
#define SPHERE_D2_FLOOR 7.888609052210118e-31f

/* Floor of the edge test's two sides, products of four lengths: below
 * 2^-126 they are subnormal with a few ulps of 2^-149 absolute error (10 %
 * at 1e-44, where the hunter found spheres of 1e-11 culled while touching),
 * or flushed to zero under FTZ/DAZ; such edges count as touching. A normal
 * float, so DAZ does not read it as 0. */
#define SPHERE_CC_FLOOR 1.1754943508222875e-38f

/* The part of segment [A, A + v] nearest to p, strictly between its ends,
 * within sqrt(rr): |w x v|^2 <= rr |v|^2 with w = p - A (no cancellation). */
static inline int edge_near(const float w[3], const float v[3], float rr)
{
    float wv = w[0] * v[0] + w[1] * v[1] + w[2] * v[2];
    float vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    float c0 = w[1] * v[2] - w[2] * v[1];
    float c1 = w[2] * v[0] - w[0] * v[2];
    float c2 = w[0] * v[1] - w[1] * v[0];
    float cc = c0 * c0 + c1 * c1 + c2 * c2;
    return (wv > 0.0f) & (wv < vv) & (cc <= rr * vv + SPHERE_CC_FLOOR);
}

/* A side face u <= s z seen from p: p outside by delta >= 0 and its
 * projection (depth qz, across-coordinate v) inside the face, within tol. */
static inline int side_face(float delta, float qz, float v, float v0, float v1, float n, float fb,
                            float tol)
{
    return (delta >= 0.0f) & (n - qz <= tol) & (qz - fb <= tol) & (v0 * qz - v <= tol) &
           (v - v1 * qz <= tol);
}

/*
 * Exact sphere test on the spheres the planes leave undecided: visible iff
 * the distance from the center p to the frustum is at most the radius r.
 * The planes passed (every plane distance <= r), so the distance is at
 * most r when p is inside, or when its nearest point lies inside a face
 * that p is outside of (that distance is the plane's); otherwise the
 * nearest point is on an edge or a vertex, whose distances are tested
 * here. The frustum is cut at fb = min(f, top of the sphere) as for boxes.
 * Returns 1 when separated.
 */
int satc_sphere_sep_persp_ref(const satc_frustum *f, const satc_fconsts *k, const satc_box_frame *o,
                              float sg)
{
    float tol = (f->eps_k * o->s + f->tol_t + SATC_TINY) * sg;
    float rt = o->rad + tol;
    float rr = rt * rt + SPHERE_D2_FLOOR;
    float top = o->dz + rt;
    float fb = top < f->f ? top : f->f;
    float px = o->dx, py = o->dy, pz = o->dz, n = f->n;
    /* The center inside (by |tol| when the tolerance is negated). */
    int vis = point_in_persp(f, px, py, pz, max_ref(-tol, 0.0f));

    /* Near and far faces. */
    vis |= (n - pz >= 0.0f) & (px - f->x1 * n <= tol) & (f->x0 * n - px <= tol) &
           (py - f->y1 * n <= tol) & (f->y0 * n - py <= tol);
    vis |= (pz - fb >= 0.0f) & (px - f->x1 * fb <= tol) & (f->x0 * fb - px <= tol) &
           (py - f->y1 * fb <= tol) & (f->y0 * fb - py <= tol);
    /* Side faces: p - delta m / |m|^2 has depth pz +- s delta / (1 + s^2). */
    float dl = px - f->x1 * pz;
    vis |= side_face(dl, pz + f->x1 * dl * k->inv[0], py, f->y0, f->y1, n, fb, tol);
    dl = f->x0 * pz - px;
    vis |= side_face(dl, pz - f->x0 * dl * k->inv[1], py, f->y0, f->y1, n, fb, tol);
    dl = py - f->y1 * pz;
    vis |= side_face(dl, pz + f->y1 * dl * k->inv[2], px, f->x0, f->x1, n, fb, tol);
    dl = f->y0 * pz - py;
    vis |= side_face(dl, pz - f->y0 * dl * k->inv[3], px, f->x0, f->x1, n, fb, tol);

    /* Vertices V[c][b][a] = (x_a z_c, y_b z_c, z_c), their offsets w = p - V,
     * then the twelve edges. */
    float xs[2] = {f->x0, f->x1}, ys[2] = {f->y0, f->y1}, zs[2] = {n, fb};
    float V[2][2][2][3], w[2][2][2][3];
    for (int c = 0; c < 2; c++) {
        for (int b = 0; b < 2; b++) {
            for (int a = 0; a < 2; a++) {
                float *vv = V[c][b][a], *ww = w[c][b][a];
                vv[0] = xs[a] * zs[c], vv[1] = ys[b] * zs[c], vv[2] = zs[c];
                ww[0] = px - vv[0], ww[1] = py - vv[1], ww[2] = pz - vv[2];
                vis |= ww[0] * ww[0] + ww[1] * ww[1] + ww[2] * ww[2] <= rr;
            }
        }
    }
    for (int c = 0; c < 2; c++) {
        for (int q = 0; q < 2; q++) {
            /* Along x at y_q, along y at x_q. */
            const float *a0 = V[c][q][0], *a1 = V[c][q][1];
            float v[3] = {a1[0] - a0[0], a1[1] - a0[1], a1[2] - a0[2]};
            vis |= edge_near(w[c][q][0], v, rr);
            const float *b0 = V[c][0][q], *b1 = V[c][1][q];
            float u[3] = {b1[0] - b0[0], b1[1] - b0[1], b1[2] - b0[2]};
            vis |= edge_near(w[c][0][q], u, rr);
        }
    }
    for (int b = 0; b < 2; b++) {
        for (int a = 0; a < 2; a++) {
            const float *a0 = V[0][b][a], *a1 = V[1][b][a];
            float v[3] = {a1[0] - a0[0], a1[1] - a0[1], a1[2] - a0[2]};
            vis |= edge_near(w[0][b][a], v, rr);
        }
    }
    return !vis;
}

/* Orthographic frustum (a box): the nearest point is the clamped center. */
int satc_sphere_sep_ortho_ref(const satc_frustum *f, const satc_box_frame *o, float sg)
{
    float tol = (f->eps_k * o->s + f->tol_t + SATC_TINY) * sg;
    float rt = o->rad + tol;
    float rr = rt * rt + SPHERE_D2_FLOOR;
    float t[3] = {o->dx - f->center[0], o->dy - f->center[1], o->dz - f->center[2]};
    float d2 = 0.0f;
    for (int q = 0; q < 3; q++) {
        float x = max_ref(fabsf(t[q]) - f->half[q], 0.0f);
        d2 = d2 + x * x;
    }
    return !(d2 <= rr);
}

/* The class of one volume: SATC_OUTSIDE, SATC_INTERSECTING or SATC_INSIDE. */
unsigned satc_classify_ref(const satc_frustum *f, const satc_fconsts *k, const satc_batch *b,
                           size_t i, unsigned flags)
{
    satc_box_frame o;
    int exact = (flags & SATC_K_EXACT) != 0, band = 0;
    satc_load_ref_m(f, k, b, i, &o, exact);
    unsigned c;
    if (f->kind == SATC_FRUSTUM_PLANES) {
        c = satc_classify_vol_ref(f, &o, (int)b->form, flags, &band);
    } else {
        int ortho = f->kind == SATC_FRUSTUM_ORTHOGRAPHIC;
        satc_planes p = ortho ? satc_planes_ortho_ref(f, &o) : satc_planes_persp_ref(f, &o);
        if (p.out)
            return SATC_OUTSIDE;
        band = p.band;
        if (exact && p.undecided) {
            int sep, tb = 0;
            if (b->form == SATC_FORM_SPHERES) {
                sep = ortho ? satc_sphere_sep_ortho_ref(f, &o, 1.0f)
                            : satc_sphere_sep_persp_ref(f, k, &o, 1.0f);
                /* Band: kept, but separated with the tolerance negated. */
                if (!sep)
                    tb = ortho ? satc_sphere_sep_ortho_ref(f, &o, -1.0f)
                               : satc_sphere_sep_persp_ref(f, k, &o, -1.0f);
            } else {
                sep = ortho ? satc_axes_ortho_ref(f, &o, &tb)
                            : !satc_point_in_persp_ref(f, &o) && satc_axes_persp_ref(f, &o, &tb);
            }
            if (sep)
                return SATC_OUTSIDE;
            band |= tb;
        }
        c = p.inside ? SATC_INSIDE : SATC_INTERSECTING;
    }
    /* Exact mode's second stage: band cases decided again in double. */
    if (exact && band && c != SATC_OUTSIDE && satc_redecide(f, b, i))
        return SATC_OUTSIDE;
    return c;
}

static void cull_scalar(const satc_frustum *f, const satc_batch *b, size_t first, size_t n,
                        unsigned flags, uint64_t *vis, uint64_t *inside)
{
    satc_fconsts k;
    satc_frustum_consts(f, &k);
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        vis[w] = inside[w] = 0;
    for (size_t j = 0; j < n; j++) {
        unsigned c = satc_classify_ref(f, &k, b, first + j, flags);
        vis[j / 64] |= (uint64_t)(c != SATC_OUTSIDE) << (j % 64);
        if (flags & SATC_K_CLASSIFY)
            inside[j / 64] |= (uint64_t)(c == SATC_INSIDE) << (j % 64);
    }
}

/* satc_depth_fn: the reference loader's frame z. */
static void depth_scalar(const satc_frustum *f, const satc_batch *b, size_t first, size_t n,
                         unsigned flags, float *out)
{
    satc_fconsts k;
    (void)flags;
    satc_frustum_consts(f, &k);
    for (size_t j = 0; j < n; j++)
        out[j] = satc_depth_ref(f, &k, b, first + j);
}

static void key16_scalar(const float *d, size_t n, double lo, double scale, uint16_t *k)
{
    satc_key16_loop(d, n, lo, scale, k);
}

/* The reference as a kernel table: what tests and the benchmark compare
 * every path with, the scalar path (cull_w1.c) included. */
#define ROW3 {cull_scalar, cull_scalar, cull_scalar}
#define OCC2 {satc_occl_ref, satc_occl_ref}
const satc_kernels satc_kernels_ref = {{{NULL, NULL, NULL}, ROW3, ROW3, ROW3, ROW3, ROW3, ROW3, ROW3},
                                       NULL,
                                       {NULL},
                                       {NULL},
                                       {{NULL, NULL}, OCC2, OCC2, OCC2, OCC2, OCC2, OCC2, OCC2},
                                       satc_reduce_level_ref,
                                       depth_scalar,
                                       {NULL, NULL},
                                       key16_scalar};
