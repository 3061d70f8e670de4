/*
 * Scalar reference: defines every answer the SIMD paths must reproduce
 * bit-for-bit. Each expression below is evaluated exactly in the order
 * written (-ffp-contract=off); the SIMD kernels repeat that order per lane.
 *
 * Notation follows Eberly (seed 000): frame L, U, D; box center C, axes
 * A_j, extents e_j; delta = frame coordinates of C - E; alpha_j, beta_j,
 * gamma_j = frame coordinates of A_j. The perspective frustum is held as
 * slopes (x0, x1, y0, y1) = bounds / n, so its near corners in units of
 * depth are W = (x, y, 1) and the frustum is { t W : n <= t <= f }.
 */
#include <math.h>

#include "../internal.h"
#include "cull_scalar.h"

static inline float min_ref(float a, float b) { return a < b ? a : b; }
static inline float max_ref(float a, float b) { return a > b ? a : b; }

void satc_box_frame_ref(const satc_frustum *f, const satc_boxes *b, size_t i, satc_box_frame *o)
{
    const float *L = f->frame[0], *U = f->frame[1], *D = f->frame[2];
    /* Camera-relative first (SPEC §1.5). */
    float cx = b->center[0][i] - f->origin[0];
    float cy = b->center[1][i] - f->origin[1];
    float cz = b->center[2][i] - f->origin[2];
    o->dx = L[0] * cx + L[1] * cy + L[2] * cz;
    o->dy = U[0] * cx + U[1] * cy + U[2] * cz;
    o->dz = D[0] * cx + D[1] * cy + D[2] * cz;
    for (int j = 0; j < 3; j++) {
        float ax = b->axis[j][0][i], ay = b->axis[j][1][i], az = b->axis[j][2][i];
        o->al[j] = L[0] * ax + L[1] * ay + L[2] * az;
        o->be[j] = U[0] * ax + U[1] * ay + U[2] * az;
        o->ga[j] = D[0] * ax + D[1] * ay + D[2] * az;
        o->e[j] = fabsf(b->extent[j][i]); /* a negative extent means its magnitude */
    }
    float s = fabsf(o->dx) + fabsf(o->dy) + fabsf(o->dz) + o->e[0] + o->e[1] + o->e[2];
    o->s = s;
    /* Non-finite fields make s or the alpha sum non-finite (a NaN or Inf in
     * A_j reaches alpha_j through every frame row); NaN fails the compare. */
    float g = s + fabsf(o->al[0] + o->al[1] + o->al[2]);
    o->bad = !(g < SATC_MAX_MAGNITUDE);
}

/* |M.A| summed with the extents, for M with frame components (mx, 0, mz)
 * written as a - k*c per axis: e0|a0-k c0| + e1|a1-k c1| + e2|a2-k c2|. */
static inline float radius_side(const float *e, const float *a, const float *c, float k)
{
    return e[0] * fabsf(a[0] - k * c[0]) + e[1] * fabsf(a[1] - k * c[1]) +
           e[2] * fabsf(a[2] - k * c[2]);
}

/*
 * Planes of the perspective frustum (RTR 22.10.2, 22.14.3), each as
 * d - R > w (outside) and d + R <= w (inside), R inflated by tol:
 *   near/far  M = D:              d = dz,            R = sum e_j |gamma_j|
 *   x <= x1 z M = (1, 0, -x1):    d = dx - x1 dz,    R = sum e_j |alpha_j - x1 gamma_j|
 *   x >= x0 z M = (-1, 0, x0):    d = x0 dz - dx,    R = sum e_j |alpha_j - x0 gamma_j|
 *   (and the same with y, beta for U).
 */
satc_planes satc_planes_persp_ref(const satc_frustum *f, const satc_box_frame *o)
{
    satc_planes p = {0, 0, 0};
    float tol = f->eps_k * o->s;
    const float *e = o->e;
    float rz = e[0] * fabsf(o->ga[0]) + e[1] * fabsf(o->ga[1]) + e[2] * fabsf(o->ga[2]) + tol;
    float rx1 = radius_side(e, o->al, o->ga, f->x1) + tol;
    float rx0 = radius_side(e, o->al, o->ga, f->x0) + tol;
    float ry1 = radius_side(e, o->be, o->ga, f->y1) + tol;
    float ry0 = radius_side(e, o->be, o->ga, f->y0) + tol;
    float d1 = o->dx - f->x1 * o->dz, d0 = f->x0 * o->dz - o->dx;
    float g1 = o->dy - f->y1 * o->dz, g0 = f->y0 * o->dz - o->dy;

    int out = (o->dz + rz < f->n) | (o->dz - rz > f->f) | (d1 - rx1 > 0.0f) | (d0 - rx0 > 0.0f) |
              (g1 - ry1 > 0.0f) | (g0 - ry0 > 0.0f);
    int in[6] = {o->dz - rz >= f->n, o->dz + rz <= f->f, d1 + rx1 <= 0.0f,
                 d0 + rx0 <= 0.0f,   g1 + ry1 <= 0.0f,   g0 + ry0 <= 0.0f};
    int inside = 1, straddles = 0;
    for (int k = 0; k < 6; k++) {
        inside &= in[k];
        straddles += !in[k];
    }
    p.out = out && !o->bad;
    p.inside = inside && !out && !o->bad;
    /* Crossing one plane while inside the other five means the part of the
     * box on the inner side lies in the frustum: visible. Only boxes
     * crossing two or more planes need the remaining axes. */
    p.undecided = !out && straddles >= 2 && !o->bad;
    return p;
}

/* Frustum interval on axis M from its near-corner support [plo, phi] at unit
 * depth (Eberly §4): scaled by the far depth where it grows, the near
 * depth where it shrinks. */
static inline int separated(float d, float r, float plo, float phi, float n, float fb)
{
    float m0 = plo < 0.0f ? fb * plo : n * plo;
    float m1 = phi > 0.0f ? fb * phi : n * phi;
    return (d + r < m0) | (d - r > m1);
}

/* The other two axis indices of i, increasing: how radii sum over j != i. */
static const int other_j[3] = {1, 0, 0}, other_k[3] = {2, 2, 1};

/*
 * Remaining axes of the perspective test (Eberly §4-5, generalised to
 * asymmetric slopes): the lower sides of the four side planes, the box
 * axes A_i, L x A_i, U x A_i and W x A_i for the four lateral edges W.
 * Far depth fb = min(f, top of the box): the box lies below it, so the
 * truncated frustum meets the box exactly when the frustum does, and an
 * infinite far plane needs no special case.
 *
 * Every projection is computed directly from the axis M as rounded (no
 * identity that assumes orthonormal axes), so its rounding error is
 * proportional to |M|_1 and the tolerance tol_s * |M|_1 covers it however
 * close M comes to zero (a box edge nearly parallel to a frustum edge).
 * The cross terms X_ij = (L x A_i).A_j and Y_ij = (U x A_i).A_j are exact
 * negatives of X_ji, Y_ji in float, so each pair is computed once.
 */
int satc_axes_persp_ref(const satc_frustum *f, const satc_box_frame *o)
{
    const float *e = o->e, *al = o->al, *be = o->be, *ga = o->ga;
    float tol_s = f->eps_k * o->s;
    float n = f->n;
    float rz = e[0] * fabsf(ga[0]) + e[1] * fabsf(ga[1]) + e[2] * fabsf(ga[2]) + tol_s;
    float top = o->dz + rz;
    float fb = top < f->f ? top : f->f;
    int sep = 0;

    /* Lower sides of the side planes: interval [fb * (x0 - x1), 0]. */
    float rx1 = radius_side(e, al, ga, f->x1) + tol_s;
    float rx0 = radius_side(e, al, ga, f->x0) + tol_s;
    float ry1 = radius_side(e, be, ga, f->y1) + tol_s;
    float ry0 = radius_side(e, be, ga, f->y0) + tol_s;
    float mx = fb * f->dx, my = fb * f->dy;
    sep |= (o->dx - f->x1 * o->dz + rx1 < mx) | (f->x0 * o->dz - o->dx + rx0 < mx);
    sep |= (o->dy - f->y1 * o->dz + ry1 < my) | (f->y0 * o->dz - o->dy + ry0 < my);

    float G[3][3], X[3][3], Y[3][3];
    for (int i = 0; i < 3; i++) {
        for (int j = i; j < 3; j++) {
            G[i][j] = G[j][i] = al[i] * al[j] + be[i] * be[j] + ga[i] * ga[j];
            X[i][j] = be[i] * ga[j] - ga[i] * be[j];
            Y[i][j] = ga[i] * al[j] - al[i] * ga[j];
            X[j][i] = -X[i][j];
            Y[j][i] = -Y[i][j];
        }
    }

    for (int i = 0; i < 3; i++) {
        int j = other_j[i], k = other_k[i];
        float aa = fabsf(al[i]), ab = fabsf(be[i]), ag = fabsf(ga[i]);
        /* M = A_i. */
        float d = al[i] * o->dx + be[i] * o->dy + ga[i] * o->dz;
        float r = e[0] * fabsf(G[i][0]) + e[1] * fabsf(G[i][1]) + e[2] * fabsf(G[i][2]) +
                  tol_s * (aa + ab + ag);
        float ax0 = al[i] * f->x0, ax1 = al[i] * f->x1;
        float by0 = be[i] * f->y0, by1 = be[i] * f->y1;
        float plo = ga[i] + min_ref(ax0, ax1) + min_ref(by0, by1);
        float phi = ga[i] + max_ref(ax0, ax1) + max_ref(by0, by1);
        sep |= separated(d, r, plo, phi, n, fb);

        /* M = L x A_i = (0, -gamma_i, beta_i). */
        float ng = -ga[i];
        d = be[i] * o->dz - ga[i] * o->dy;
        r = e[j] * fabsf(X[i][j]) + e[k] * fabsf(X[i][k]) + tol_s * (ag + ab);
        float gy0 = ng * f->y0, gy1 = ng * f->y1;
        plo = be[i] + min_ref(gy0, gy1);
        phi = be[i] + max_ref(gy0, gy1);
        sep |= separated(d, r, plo, phi, n, fb);

        /* M = U x A_i = (gamma_i, 0, -alpha_i). */
        d = ga[i] * o->dx - al[i] * o->dz;
        r = e[j] * fabsf(Y[i][j]) + e[k] * fabsf(Y[i][k]) + tol_s * (ag + aa);
        float gx0 = ga[i] * f->x0, gx1 = ga[i] * f->x1;
        plo = min_ref(gx0, gx1) - al[i];
        phi = max_ref(gx0, gx1) - al[i];
        sep |= separated(d, r, plo, phi, n, fb);

        /* M = W x A_i, W = (wx, wy, 1) a lateral edge; near corners (x, y, 1)
         * project to Mz + Mx x + My y. */
        for (int c = 0; c < 4; c++) {
            float wx = (c & 1) ? f->x1 : f->x0, wy = (c & 2) ? f->y1 : f->y0;
            float Mx = wy * ga[i] - be[i];
            float My = al[i] - wx * ga[i];
            float Mz = wx * be[i] - wy * al[i];
            d = Mx * o->dx + My * o->dy + Mz * o->dz;
            float q0 = Mx * al[0] + My * be[0] + Mz * ga[0];
            float q1 = Mx * al[1] + My * be[1] + Mz * ga[1];
            float q2 = Mx * al[2] + My * be[2] + Mz * ga[2];
            r = e[0] * fabsf(q0) + e[1] * fabsf(q1) + e[2] * fabsf(q2) +
                tol_s * (fabsf(Mx) + fabsf(My) + fabsf(Mz));
            float mx0 = Mx * f->x0, mx1 = Mx * f->x1;
            float my0 = My * f->y0, my1 = My * f->y1;
            plo = Mz + min_ref(mx0, mx1) + min_ref(my0, my1);
            phi = Mz + max_ref(mx0, mx1) + max_ref(my0, my1);
            sep |= separated(d, r, plo, phi, n, fb);
        }
    }
    return sep;
}

/*
 * Orthographic frustum: a box (RTR 22.14.3), tested as OBB against OBB
 * (seed 004, RTR 22.13.5) in frame coordinates. t = delta - frustum center.
 * Planes: |t_k| - (R_k + tol) > h_k outside, |t_k| + R_k + tol <= h_k inside.
 */
satc_planes satc_planes_ortho_ref(const satc_frustum *f, const satc_box_frame *o)
{
    satc_planes p = {0, 0, 0};
    const float *e = o->e, *h = f->half;
    float tol = f->eps_k * o->s + f->tol_t;
    float t[3] = {o->dx - f->center[0], o->dy - f->center[1], o->dz - f->center[2]};
    const float *comp[3] = {o->al, o->be, o->ga};
    int out = 0, inside = 1, straddles = 0;
    for (int k = 0; k < 3; k++) {
        const float *a = comp[k];
        float r = e[0] * fabsf(a[0]) + e[1] * fabsf(a[1]) + e[2] * fabsf(a[2]) + tol;
        out |= fabsf(t[k]) - r > h[k];
        int hi = t[k] + r <= h[k], lo = t[k] - r >= -h[k];
        inside &= hi & lo;
        straddles += !hi + !lo;
    }
    p.out = out && !o->bad;
    p.inside = inside && !out && !o->bad;
    p.undecided = !out && straddles >= 2 && !o->bad;
    return p;
}

/* Box axes and the nine cross axes X_k x A_i of the orthographic test,
 * each projection computed directly from M with tolerance tol_s * |M|_1
 * (see satc_axes_persp_ref); Z_ij = (Z x A_i).A_j. */
int satc_axes_ortho_ref(const satc_frustum *f, const satc_box_frame *o)
{
    const float *e = o->e, *h = f->half, *al = o->al, *be = o->be, *ga = o->ga;
    float tol_s = f->eps_k * o->s + f->tol_t;
    float tx = o->dx - f->center[0], ty = o->dy - f->center[1], tz = o->dz - f->center[2];
    float G[3][3], X[3][3], Y[3][3], Z[3][3];
    for (int i = 0; i < 3; i++) {
        for (int j = i; j < 3; j++) {
            G[i][j] = G[j][i] = al[i] * al[j] + be[i] * be[j] + ga[i] * ga[j];
            X[i][j] = be[i] * ga[j] - ga[i] * be[j];
            Y[i][j] = ga[i] * al[j] - al[i] * ga[j];
            Z[i][j] = al[i] * be[j] - be[i] * al[j];
            X[j][i] = -X[i][j];
            Y[j][i] = -Y[i][j];
            Z[j][i] = -Z[i][j];
        }
    }
    int sep = 0;
    for (int i = 0; i < 3; i++) {
        int j = other_j[i], k = other_k[i];
        float aa = fabsf(al[i]), ab = fabsf(be[i]), ag = fabsf(ga[i]);
        /* M = A_i */
        float d = al[i] * tx + be[i] * ty + ga[i] * tz;
        float r = e[0] * fabsf(G[i][0]) + e[1] * fabsf(G[i][1]) + e[2] * fabsf(G[i][2]) +
                  tol_s * (aa + ab + ag) + (h[0] * aa + h[1] * ab + h[2] * ag);
        sep |= fabsf(d) > r;
        /* M = X x A_i = (0, -gamma_i, beta_i) */
        d = be[i] * tz - ga[i] * ty;
        r = e[j] * fabsf(X[i][j]) + e[k] * fabsf(X[i][k]) + tol_s * (ag + ab) +
            (h[1] * ag + h[2] * ab);
        sep |= fabsf(d) > r;
        /* M = Y x A_i = (gamma_i, 0, -alpha_i) */
        d = ga[i] * tx - al[i] * tz;
        r = e[j] * fabsf(Y[i][j]) + e[k] * fabsf(Y[i][k]) + tol_s * (ag + aa) +
            (h[0] * ag + h[2] * aa);
        sep |= fabsf(d) > r;
        /* M = Z x A_i = (-beta_i, alpha_i, 0) */
        d = al[i] * ty - be[i] * tx;
        r = e[j] * fabsf(Z[i][j]) + e[k] * fabsf(Z[i][k]) + tol_s * (ab + aa) +
            (h[0] * ab + h[1] * aa);
        sep |= fabsf(d) > r;
    }
    return sep;
}

/* One point (frame coordinates) inside every plane of the perspective
 * frustum, with the plane tier's expressions. */
static inline int point_in_persp(const satc_frustum *f, float x, float y, float z)
{
    return (z >= f->n) & (z <= f->f) & (x - f->x1 * z <= 0.0f) & (f->x0 * z - x <= 0.0f) &
           (y - f->y1 * z <= 0.0f) & (f->y0 * z - y <= 0.0f);
}

/*
 * Trivial accept (Hoff, seed 001): a box whose center or one of whose eight
 * vertices lies inside the frustum meets it. Exact mode tries this on the
 * boxes the planes leave undecided before the remaining axes; it settles
 * most of the visible ones. Vertex v adds +-e_j A_j for j = 0, 1, 2 in
 * turn, + where bit j of v is set.
 */
int satc_point_in_persp_ref(const satc_frustum *f, const satc_box_frame *o)
{
    float hx[3], hy[3], hz[3];
    for (int j = 0; j < 3; j++) {
        hx[j] = o->e[j] * o->al[j];
        hy[j] = o->e[j] * o->be[j];
        hz[j] = o->e[j] * o->ga[j];
    }
    int in = point_in_persp(f, o->dx, o->dy, o->dz);
    for (int v = 0; v < 8; v++) {
        float x = o->dx, y = o->dy, z = o->dz;
        for (int j = 0; j < 3; j++) {
            if (v >> j & 1)
                x = x + hx[j], y = y + hy[j], z = z + hz[j];
            else
                x = x - hx[j], y = y - hy[j], z = z - hz[j];
        }
        in |= point_in_persp(f, x, y, z);
    }
    return in;
}

/* The class of one box: SATC_OUTSIDE, SATC_INTERSECTING or SATC_INSIDE. */
unsigned satc_classify_ref(const satc_frustum *f, const satc_boxes *b, size_t i, unsigned flags)
{
    satc_box_frame o;
    satc_box_frame_ref(f, b, i, &o);
    int ortho = f->kind == SATC_FRUSTUM_ORTHOGRAPHIC;
    satc_planes p = ortho ? satc_planes_ortho_ref(f, &o) : satc_planes_persp_ref(f, &o);
    if (p.out)
        return SATC_OUTSIDE;
    if ((flags & SATC_K_EXACT) && p.undecided &&
        (ortho ? satc_axes_ortho_ref(f, &o)
               : !satc_point_in_persp_ref(f, &o) && satc_axes_persp_ref(f, &o)))
        return SATC_OUTSIDE;
    return p.inside ? SATC_INSIDE : SATC_INTERSECTING;
}

static void cull_scalar(const satc_frustum *f, const satc_boxes *b, size_t first, size_t n,
                        unsigned flags, uint64_t *vis, uint64_t *inside)
{
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        vis[w] = inside[w] = 0;
    for (size_t j = 0; j < n; j++) {
        unsigned c = satc_classify_ref(f, b, first + j, flags);
        vis[j / 64] |= (uint64_t)(c != SATC_OUTSIDE) << (j % 64);
        if (flags & SATC_K_CLASSIFY)
            inside[j / 64] |= (uint64_t)(c == SATC_INSIDE) << (j % 64);
    }
}

const satc_kernels satc_kernels_scalar = {cull_scalar, cull_scalar};
