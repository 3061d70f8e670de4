/*
 * Exact mode's second stage (issue 23): a volume the float test keeps
 * while some decision of it fell within the float error band (the plane
 * tier's or an exact-tier axis's computed gap above -T, T its tolerance:
 * the band flag of src/scalar/cull_scalar.c and of every SIMD tier) is
 * decided again here, in double, from the stored floats. One scalar
 * routine shared by every path, called per flagged volume, so the bits
 * stay the reference's by construction; only band volumes pay.
 *
 * The geometry is the float tests' own: boxes by the separating axes of
 * the parallelepiped and the frustum (its face normals, the box's face
 * normals and the cross products of their edge directions: Eberly §4-5,
 * seed 004, RTR 22.13), each frustum support taken over its vertices;
 * spheres by the distance from the center to the frustum, bounded below
 * along the directions where the nearest point can lie (face normals, the
 * perpendiculars to the edges' lines, the directions to the vertices).
 * Any direction gives a lower bound, so rounding of the directions never
 * matters; only the projections' rounding does, below 2^-48 of the
 * magnitudes involved (docs/error-bound.md §11), and the tolerance
 * SATC_REDECIDE_REL = 2^-40 of them keeps a volume unless the double gap
 * exceeds it: never a false negative. The frustum's constant term tol_t
 * (an orthographic frustum's size, a double camera's rounded origin, a
 * plane volume's rounded vertices) is geometry, not arithmetic, and is
 * kept in full.
 */
#include <math.h>
#include <string.h>

#include "../core/volume_d.h"

#define SATC_REDECIDE_REL 0x1p-40
/* Absolute floor per unit of |M|_1: under denormals-are-zero a subnormal
 * float input reads as 0 here too (the conversion to double), moving a
 * volume by less than 2^-126 per component (satc.h); 2^-110 covers it. */
#define TINY_D 0x1p-110

/* A convex polytope in frame coordinates: vertices, face normals, edge
 * directions (for boxes) and edges as vertex pairs (for spheres). */
typedef struct poly {
    int nv, nn, ne, nedge;
    double v[SATC_MAX_PLANE_VERTS][3];
    double nrm[SATC_MAX_PLANES + 6][3];
    double edir[SATC_MAX_PLANE_EDGES + 3][3];
    int edge[12][2];
    double vmax; /* max |v|_1 */
} poly;

/* The volume in frame coordinates: center p, half axes H, magnitude Q
 * of everything its projections sum (docs/error-bound.md §11). */
typedef struct vol {
    double p[3], H[3][3], r, q;
    double dev;   /* >= ||F F^T - I||: how far the frame is from orthonormal */
    double reach; /* |p|_1 + sum_j |H_j|_1: bounds |y| of every point y of the volume */
    int sphere;
} vol;

/* Frame coordinates of v about the frustum (rows of the float frame;
 * identity for plane volumes). */
static void to_frame(const satc_frustum *f, const double w[3], double o[3])
{
    for (int r = 0; r < 3; r++)
        o[r] = (double)f->frame[r][0] * w[0] + (double)f->frame[r][1] * w[1] +
               (double)f->frame[r][2] * w[2];
}

static int load(const satc_frustum *f, const satc_batch *b, size_t i, vol *v)
{
    satc_vol_d d;
    if (!satc_volume_d(b, i, &d))
        return 0;
    double w[3];
    for (int k = 0; k < 3; k++)
        w[k] = d.c[k] - (double)f->origin[k];
    to_frame(f, w, v->p);
    double q = satc_norm1_d(v->p) + satc_norm1_d(w) + d.cmag + (fabs(f->origin[0]) + fabs(f->origin[1]) +
                                                  fabs(f->origin[2]));
    double sh = 0;
    for (int j = 0; j < 3; j++) {
        to_frame(f, d.H[j], v->H[j]);
        q += satc_norm1_d(v->H[j]) + satc_norm1_d(d.H[j]);
        sh += satc_norm1_d(v->H[j]);
    }
    /* S as the loaders define it, with room for their rounding (an
     * instance's local-offset term is below cmag). */
    v->reach = (satc_norm1_d(v->p) + sh) * (1 + 0x1p-16);
    /* The frame rows are orthonormal only within SATC_FRAME_TOLERANCE:
     * dev >= ||F F^T - I|| (a sum of entries bounds the spectral norm). A
     * sphere maps to an ellipsoid of radius at most r (1 + dev) in frame
     * coordinates, and the camera's frustum {E + F^T y} to within dev |y|
     * of the frame's (satc_redecide adds that to the tolerance). */
    double dev = 0;
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++) {
            double g = (double)f->frame[a][0] * f->frame[c][0] + (double)f->frame[a][1] * f->frame[c][1] +
                       (double)f->frame[a][2] * f->frame[c][2];
            dev += fabs(g - (a == c));
        }
    v->r = d.r * (1 + dev + SATC_REDECIDE_REL);
    v->dev = dev;
    v->sphere = d.sphere;
    v->q = q + v->r;
    return isfinite(v->q);
}

/* The slope s, rounded once to float from a double within 2^-50 of the
 * requested one (a camera's l / n, a perspective's tan(fovy / 2) aspect:
 * every builder, docs/error-bound.md §11), widened outward to hold it. */
static double widen(double s, int up)
{
    double e = fabs(s) * (0x1p-24 + 0x1p-44);
    return up ? s + e : s - e;
}

/* The perspective frustum cut at depth fb (finite): 8 vertices t (x, y, 1). */
static void persp_poly(const satc_frustum *f, double fb, poly *P)
{
    const double xs[2] = {widen(f->x0, 0), widen(f->x1, 1)}, ys[2] = {widen(f->y0, 0), widen(f->y1, 1)};
    const double zs[2] = {f->n, fb};
    P->nv = 8;
    for (int c = 0; c < 8; c++) {
        double z = zs[c >> 2];
        P->v[c][0] = xs[c & 1] * z, P->v[c][1] = ys[c >> 1 & 1] * z, P->v[c][2] = z;
    }
    const double nrm[5][3] = {{0, 0, 1}, {1, 0, -xs[1]}, {-1, 0, xs[0]}, {0, 1, -ys[1]}, {0, -1, ys[0]}};
    P->nn = 5;
    memcpy(P->nrm, nrm, sizeof nrm);
    P->ne = 6;
    const double e[6][3] = {{1, 0, 0}, {0, 1, 0}, {xs[0], ys[0], 1}, {xs[1], ys[0], 1},
                            {xs[0], ys[1], 1}, {xs[1], ys[1], 1}};
    memcpy(P->edir, e, sizeof e);
}

/* The orthographic frustum box. */
static void ortho_poly(const satc_frustum *f, poly *P)
{
    /* The box as bounds (a camera's) and as center and half sizes rounded
     * from them (a query box's own fields): the union holds either. */
    const double lo[3] = {f->x0, f->y0, f->n}, hi[3] = {f->x1, f->y1, f->f};
    double a[3], z[3];
    for (int k = 0; k < 3; k++) {
        double c = f->center[k], h = f->half[k];
        a[k] = fmin(lo[k], c - h), z[k] = fmax(hi[k], c + h);
    }
    P->nv = 8;
    for (int c = 0; c < 8; c++)
        for (int k = 0; k < 3; k++)
            P->v[c][k] = (c >> k & 1) ? z[k] : a[k];
    const double I[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    P->nn = P->ne = 3;
    memcpy(P->nrm, I, sizeof I);
    memcpy(P->edir, I, sizeof I);
}

static void vol_poly(const satc_frustum *f, poly *P)
{
    P->nv = (int)f->nverts, P->nn = (int)f->nplanes, P->ne = (int)f->nedges;
    for (int m = 0; m < P->nv; m++)
        for (int k = 0; k < 3; k++)
            P->v[m][k] = f->vert[m][k];
    for (int m = 0; m < P->nn; m++)
        for (int k = 0; k < 3; k++)
            P->nrm[m][k] = f->plane[m][k];
    for (int m = 0; m < P->ne; m++)
        for (int k = 0; k < 3; k++)
            P->edir[m][k] = f->edge[m][k];
}

/* A box (hexahedron with vertex bits c) has edges between vertices that
 * differ in one bit. */
static void hex_edges(poly *P)
{
    P->nedge = 0;
    for (int c = 0; c < 8; c++)
        for (int k = 0; k < 3; k++)
            if (!(c >> k & 1)) {
                P->edge[P->nedge][0] = c;
                P->edge[P->nedge++][1] = c | 1 << k;
            }
}

static void finish(poly *P)
{
    P->vmax = 0;
    for (int m = 0; m < P->nv; m++)
        P->vmax = fmax(P->vmax, satc_norm1_d(P->v[m]));
}

/* Separating gap of the box along M, less its tolerance: > 0 separates.
 * tol_t here is the whole per-unit-|M|_1 keep term (keep_tol). */
static double box_gap(const poly *P, const vol *v, const double M[3], double tol_t)
{
    double a = satc_norm1_d(M);
    if (!(a > 0))
        return -1;
    double d = satc_dot3_d(M, v->p);
    double r = fabs(satc_dot3_d(M, v->H[0])) + fabs(satc_dot3_d(M, v->H[1])) + fabs(satc_dot3_d(M, v->H[2]));
    double lo = INFINITY, hi = -INFINITY;
    for (int m = 0; m < P->nv; m++) {
        double s = satc_dot3_d(M, P->v[m]);
        lo = s < lo ? s : lo;
        hi = s > hi ? s : hi;
    }
    double T = a * (SATC_REDECIDE_REL * (v->q + P->vmax) + tol_t + TINY_D);
    double g1 = lo - (d + r), g2 = (d - r) - hi;
    return (g1 > g2 ? g1 : g2) - T;
}

static int box_separated(const poly *P, const vol *v, double tol_t)
{
    double N[3][3];
    satc_cross3_d(v->H[1], v->H[2], N[0]);
    satc_cross3_d(v->H[2], v->H[0], N[1]);
    satc_cross3_d(v->H[0], v->H[1], N[2]);
    for (int j = 0; j < P->nn; j++)
        if (box_gap(P, v, P->nrm[j], tol_t) > 0)
            return 1;
    for (int j = 0; j < 3; j++)
        if (box_gap(P, v, N[j], tol_t) > 0)
            return 1;
    for (int e = 0; e < P->ne; e++) {
        for (int j = 0; j < 3; j++) {
            double M[3];
            satc_cross3_d(P->edir[e], v->H[j], M);
            if (box_gap(P, v, M, tol_t) > 0)
                return 1;
        }
    }
    /* A flat or thin box: its face normals vanish; the edge normals
     * within its plane and across its axes (every one a valid axis). */
    for (int j = 0; j < 3; j++) {
        for (int l = 0; l < 3; l++) {
            double M[3];
            satc_cross3_d(N[j], v->H[l], M);
            if (box_gap(P, v, M, tol_t) > 0)
                return 1;
        }
    }
    return 0;
}

/* How far the sphere's center lies beyond the polytope along u, less
 * radius and tolerance: > 0 separates. */
static double sphere_gap(const poly *P, const vol *v, const double u[3], double tol_t)
{
    double a = satc_norm1_d(u);
    if (!(a > 0))
        return -1;
    double hi = -INFINITY;
    for (int m = 0; m < P->nv; m++) {
        double s = satc_dot3_d(u, P->v[m]);
        hi = s > hi ? s : hi;
    }
    double len = sqrt(satc_dot3_d(u, u)) * (1 + SATC_REDECIDE_REL);
    double T = a * (SATC_REDECIDE_REL * (satc_norm1_d(v->p) + P->vmax + v->r) + TINY_D);
    return (satc_dot3_d(u, v->p) - hi) - (v->r + tol_t) * len - T;
}

static int sphere_separated(const poly *P, const vol *v, double tol_t)
{
    for (int j = 0; j < P->nn; j++) {
        if (sphere_gap(P, v, P->nrm[j], tol_t) > 0)
            return 1;
        double m[3] = {-P->nrm[j][0], -P->nrm[j][1], -P->nrm[j][2]};
        if (sphere_gap(P, v, m, tol_t) > 0)
            return 1;
    }
    for (int m = 0; m < P->nv; m++) {
        double u[3] = {v->p[0] - P->v[m][0], v->p[1] - P->v[m][1], v->p[2] - P->v[m][2]};
        if (sphere_gap(P, v, u, tol_t) > 0)
            return 1;
    }
    for (int e = 0; e < P->nedge; e++) {
        const double *a = P->v[P->edge[e][0]], *b = P->v[P->edge[e][1]];
        double t[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double w[3] = {v->p[0] - a[0], v->p[1] - a[1], v->p[2] - a[2]};
        double tt = satc_dot3_d(t, t);
        if (!(tt > 0))
            continue;
        double s = satc_dot3_d(w, t) / tt, u[3];
        for (int k = 0; k < 3; k++)
            u[k] = w[k] - s * t[k];
        if (sphere_gap(P, v, u, tol_t) > 0)
            return 1;
    }
    return 0;
}

int satc_redecide(const satc_frustum *f, const satc_batch *b, size_t i)
{
    vol v;
    if (!load(f, b, i, &v))
        return 0;
    static const poly zero;
    poly P = zero;
    /* The constant term: the frustum's tol_t (geometry), and the frame's
     * distance from orthonormal over the volume's reach (see load). */
    double tol_t = (double)f->tol_t + 2 * v.dev * v.reach;
    if (f->kind == SATC_FRUSTUM_PLANES) {
        if (v.sphere || f->nverts == 0)
            return 0; /* spheres: the plane test alone (satc.h) */
        vol_poly(f, &P);
    } else if (f->kind == SATC_FRUSTUM_ORTHOGRAPHIC) {
        ortho_poly(f, &P);
        hex_edges(&P);
    } else {
        /* Cut at the volume's top (above any point it reaches). */
        double top = v.p[2] + fabs(v.H[0][2]) + fabs(v.H[1][2]) + fabs(v.H[2][2]);
        top += SATC_REDECIDE_REL * v.q + tol_t + TINY_D;
        double fb = top < (double)f->f ? top : (double)f->f;
        if (!(fb > (double)f->n))
            fb = f->n; /* at most touching the near face: the near plane decides */
        persp_poly(f, fb, &P);
        hex_edges(&P);
    }
    finish(&P);
    if (!isfinite(P.vmax))
        return 0;
    return v.sphere ? sphere_separated(&P, &v, tol_t) : box_separated(&P, &v, tol_t);
}

void satc_redecide_bits(const satc_frustum *f, const satc_batch *b, size_t first, uint64_t *vis,
                        uint64_t *inside, const uint64_t *band)
{
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++) {
        uint64_t m = band[w] & vis[w];
        for (unsigned bit = 0; m; bit++, m >>= 1) {
            if ((m & 1u) && satc_redecide(f, b, first + w * 64 + bit)) {
                vis[w] &= ~((uint64_t)1 << bit);
                inside[w] &= ~((uint64_t)1 << bit);
            }
        }
    }
}
