/*
 * Occluder setup: a box or a triangle becomes convex screen polygons in
 * texel coordinates (raster/raster.h), computed in double and rounded so
 * that the float fill can only under-cover and over-estimate depth.
 *
 * Geometry, in the view's frame (x along L, y along U, z along D, eye at
 * the origin), for a perspective view: a direction d = (a, b, 1) meets a
 * convex planar polygon in front of the eye exactly when it lies on the
 * inner side of every plane through the eye and an edge (homogeneous
 * rasterization: no clipping, no wrap-around for vertices behind the eye).
 * The polygon's plane N.q = h (h > 0 after orienting N) is met at depth
 * z = h / (N.d), so 1 / z is linear in (a, b); the near edge
 * h - n N.d >= 0 keeps the hits at z >= n. An orthographic view is the
 * same with parallel rays: edges are lines in (a, b) = (x, y), depth
 * z = (h - Nx a - Ny b) / Nz. Every such condition is linear in (a, b),
 * so it holds over a whole texel rectangle when it holds at the one
 * corner where it is least; so is 1 / depth (perspective), and depth
 * (orthographic) is greatest at one.
 *
 * A box entirely beyond the near plane is covered through its silhouette
 * (the planes through the eye and the edges between a front and a back
 * face) and its depth is the greatest of its front faces' plane depths
 * (a ray enters a convex body at the farthest of its front planes);
 * a box reaching the near plane is drawn face by face, each front face
 * with the near edge.
 *
 * Error bounds: with M bounding the 1-norm of every vertex (frame
 * coordinates, double) and e the error of each of its components (the
 * rounding of an instance's center or a mesh's model matrix, plus 2^-48 M
 * for the world-to-frame transform), the double values below are within
 * the stated bounds of the exact ones (each about 4 times the first-order
 * terms: 2 e M + 2^-52 M^2 for a cross product of two vertices, and so
 * on); the float margin then adds 2^-20 of the coefficients' magnitudes
 * over the texel range, more than the float evaluation's few units in the
 * last place.
 */
#include <math.h>
#include <string.h>

#include "../kernels/box_sil.h"
#include "raster.h"

#define P2(k) ldexp(1.0, (k))

static double n1(const double v[3]) { return fabs(v[0]) + fabs(v[1]) + fabs(v[2]); }

static void cross(const double a[3], const double b[3], double o[3]) { satc_cross3_d(a, b, o); }

static float float_up(double x) { return satc_float_up(x); }
static float float_down(double x) { return -satc_float_up(-x); }

/* Magnitude M and component error e of a set of vertices. */
typedef struct mg {
    double M, e;
} mg;

/* Error bounds (see above): an edge function's value over the view, a
 * plane normal's components, the plane offset h = N.V0, and the
 * orientation test of an edge against a point. */
static double d_edge(const satc_rview *rv, mg m)
{
    return rv->ortho ? (4 * m.e + P2(-46) * m.M) * (rv->S + 2 * m.M)
                     : (4 * m.e * m.M + P2(-46) * m.M * m.M) * rv->S;
}
static double d_N(mg m) { return 8 * m.e * m.M + P2(-44) * m.M * m.M; }
static double d_h(mg m) { return 12 * m.e * m.M * m.M + P2(-42) * m.M * m.M * m.M; }
static double d_side(const satc_rview *rv, mg m)
{
    return rv->ortho ? (4 * m.e + P2(-46) * m.M) * 4 * m.M
                     : 8 * m.e * m.M * m.M + P2(-42) * m.M * m.M * m.M;
}

void satc_rview_init(satc_rview *rv, const satc_frustum *f, uint32_t width, uint32_t height,
                     uint32_t row0, uint32_t row1, double min_texels, unsigned flags)
{
    rv->ortho = f->kind == SATC_FRUSTUM_ORTHOGRAPHIC;
    rv->width = width;
    rv->height = height;
    rv->row0 = (int32_t)row0;
    rv->row1 = (int32_t)row1;
    /* Column i spans a in [x1 - (i + 1) w, x1 - i w] (L points left, column 0
     * is the image's left edge), row j spans b in [y0 + j h, y0 + (j + 1) h]. */
    rv->a0 = f->x1;
    rv->ak = -((double)f->x1 - (double)f->x0) / width;
    rv->b0 = f->y0;
    rv->bk = ((double)f->y1 - (double)f->y0) / height;
    rv->n = f->n;
    rv->S = satc_dmax(fabs((double)f->x0), fabs((double)f->x1)) +
            satc_dmax(fabs((double)f->y0), fabs((double)f->y1)) + (rv->ortho ? 0.0 : 1.0);
    for (int k = 0; k < 3; k++) {
        rv->E[k] = f->origin[k];
        for (int c = 0; c < 3; c++)
            rv->F[k][c] = f->frame[k][c];
    }
    rv->W1 = (double)width + 1;
    rv->H1 = (double)height + 1;
    rv->tinyWH = P2(-60) * ((double)width + height + 2);
    rv->min_texels = min_texels;
    rv->flags = flags;
    double nd = 0.9375 * ((flags & SATC_RVIEW_CELLS) ? 0.25 : 1.0); /* 15/16 of rv_need() */
    rv->borg[0] = fabs(rv->a0), rv->borg[1] = fabs(rv->b0), rv->blim[0] = nd * fabs(rv->ak);
    rv->blim[1] = nd * fabs(rv->bk), rv->drawn = NULL;
}

/* World vector (or point less the origin E) to frame coordinates. */
static void vec_frame(const satc_rview *rv, const double v[3], double q[3])
{
    for (int k = 0; k < 3; k++)
        q[k] = satc_dot3_d(rv->F[k], v);
}

/* 2^-k for the least power of two 2^k > s (s > 0 finite), from the bits;
 * 0 when 2^-k would not be a normal double. */
static double inv_pow2_above(double s)
{
    uint64_t u;
    memcpy(&u, &s, sizeof u);
    int k = (int)(u >> 52 & 0x7FF) - 1022; /* s < 2^k <= 2 s for a normal s */
    if (k < -1000 || k > 1000)
        return 0;
    u = (uint64_t)(1023 - k) << 52;
    double r;
    memcpy(&r, &u, sizeof r);
    return r;
}

/*
 * The linear function g(a, b) = A a + B b + C of the view, known within
 * del everywhere on the view, in texel coordinates (ra = A ak, rb = B bk,
 * rc = A a0 + B b0 + C, s >= their magnitudes), scaled by 2^-k, 2^k the
 * least power of two above s (exact, into [-1, 1]), and rounded to float
 * for its least texel corner minus a margin (up = 0: an edge, a
 * perspective plane) or its greatest corner plus a margin (up = 1: an
 * orthographic plane). Returns 0 when it cannot be represented.
 */
static int fold_raw(const satc_rview *rv, double ra, double rb, double rc, double del, double s,
                    int up, float out[3])
{
    double r = inv_pow2_above(s);
    if (!(r > 0))
        return 0;
    double a = ra * r, b = rb * r, c = rc * r;
    del *= r;
    const double tiny = P2(-60);
    double m = del * (1 + P2(-20)) + P2(-20) * (fabs(a) * rv->W1 + fabs(b) * rv->H1 + fabs(c)) +
               rv->tinyWH;
    /* kept normal under flush-to-zero; the margin's last term pays for it */
    a = fabs(a) < tiny ? 0.0 : a, b = fabs(b) < tiny ? 0.0 : b;
    double cc = up ? c + satc_dmax(a, 0) + satc_dmax(b, 0) + m : c + satc_dmin(a, 0) + satc_dmin(b, 0) - m;
    if (!(fabs(cc) <= P2(100)) || fabs(a) > 1 || fabs(b) > 1)
        return 0;
    if (fabs(cc) < tiny)
        cc = up ? tiny : -tiny;
    out[0] = (float)a;
    out[1] = (float)b;
    out[2] = up ? float_up(cc) : float_down(cc);
    return 1;
}
static int fold(const satc_rview *rv, double A, double B, double C, double del, double s, int up,
                float out[3])
{
    return fold_raw(rv, A * rv->ak, B * rv->bk, A * rv->a0 + B * rv->b0 + C, del, s, up, out);
}

static double maxabs3(double a, double b, double c) { return satc_dmax(fabs(a), satc_dmax(fabs(b), fabs(c))); }

/* An edge g >= 0, scaled by its largest coefficient. */
static int add_edge(const satc_rview *rv, satc_rpoly *p, double A, double B, double C, double del)
{
    if (p->ne >= SATC_RP_EDGES)
        return 0;
    double ra = A * rv->ak, rb = B * rv->bk, rc = A * rv->a0 + B * rv->b0 + C;
    /* without branches; a NaN fails in fold_raw whatever s is */
    double s = fabs(ra) > fabs(rb) ? fabs(ra) : fabs(rb);
    s = s > fabs(rc) ? s : fabs(rc);
    return fold_raw(rv, ra, rb, rc, del, s, 0, p->e[p->ne++]);
}

/* A depth plane in its fill form (satc_rpoly): G = (A, B, C) linear,
 * within dg of the exact function everywhere on the view, bounding the
 * plane's 1 / depth from below (perspective) or its depth from above
 * (orthographic). Folded at the scale fold() uses, 2^-e with 2^e the
 * least power of two above its magnitude, then multiplied back by 2^e:
 * exact in float, and the fill's rounding scales with it (docs/raster.md). */
static int add_plane(const satc_rview *rv, satc_rpoly *p, const double G[3], double dg)
{
    if (p->np >= SATC_RP_PLANES)
        return 0;
    double s = maxabs3(G[0] * rv->ak, G[1] * rv->bk, G[0] * rv->a0 + G[1] * rv->b0 + G[2]);
    if (!(s > 0) || !isfinite(s))
        return 0;
    double r = inv_pow2_above(s); /* fold()'s own scale */
    if (!(r >= P2(-61) && r <= P2(60)))
        return 0;
    float sf = (float)(1 / r); /* 2^e, exact */
    uint32_t k = p->np++;
    float *g = p->g[k];
    if (!fold(rv, G[0], G[1], G[2], dg, s, rv->ortho, g))
        return 0;
    for (int c = 0; c < 3; c++)
        g[c] *= sf; /* 2^e: exact */
    p->ortho = (uint32_t)rv->ortho;
    return isfinite(g[2]) && fabsf(g[2]) <= 0x1p100f;
}

/* The plane N.q = h (oriented: h > 0 for a perspective view, Nz > 0 for
 * an orthographic one) as a depth plane, and with `near` its near edge.
 * The exact plane (N*, h* within dN, dh of N, h) matters only where a ray
 * enters the occluder through it, at depth >= n (docs/raster.md): there
 * perspective 1 / depth = N*.d / h* >= (N.d - dN S) / (h + dh), and
 * orthographic depth - c = (Z* - c Nz*) / Nz* >= 0 with Z = h - Nx a - Ny b
 * and c = min(n, 0) is at most (Z + dz - c Nz + |c| dN) / (Nz - dN):
 * linear bounds, their double rounding (2^-50 of the magnitudes) in dg. */
static int add_depth(const satc_rview *rv, satc_rpoly *p, const double N[3], double h, double dN,
                     double dh, int near)
{
    double S = rv->S, n = rv->n, nN = n1(N);
    if (!rv->ortho) {
        if (near && !add_edge(rv, p, -n * N[0], -n * N[1], h - n * N[2], dh + n * dN * S))
            return 0;
        double H = (h + dh) * (1 + P2(-50));
        if (!(h > 0) || !isfinite(H))
            return 0;
        double G[3] = {N[0] / H, N[1] / H, N[2] / H};
        return add_plane(rv, p, G, (dN * S + P2(-50) * nN * S) / H);
    }
    double dz = dh + dN * S;
    if (near && !add_edge(rv, p, -N[0], -N[1], h - n * N[2], dh + dN * (S + fabs(n))))
        return 0;
    double c = satc_dmin(n, 0), den = (N[2] - dN) * (1 - P2(-50));
    if (!(den > 0) || !isfinite(c))
        return 0;
    double t = h - c * N[2] + dz + fabs(c) * dN;
    double G[3] = {-N[0] / den, -N[1] / den, t / den + c};
    double mag = (nN * S + fabs(h) + 2 * fabs(c) * N[2] + dz) / den + fabs(c);
    return add_plane(rv, p, G, P2(-50) * mag);
}

/* The edge from P to Q, oriented by sign sg (perspective: the plane
 * through the eye; orthographic: the line in (x, y)). */
static void line_coef(const satc_rview *rv, const double P[3], const double Q[3], double g[3])
{
    if (!rv->ortho) {
        cross(P, Q, g);
        return;
    }
    double ex = Q[0] - P[0], ey = Q[1] - P[1];
    g[0] = -ey, g[1] = ex, g[2] = ey * P[0] - ex * P[1];
}
static int add_line(const satc_rview *rv, satc_rpoly *p, const double P[3], const double Q[3],
                    double sg, double del)
{
    double g[3];
    line_coef(rv, P, Q, g);
    return add_edge(rv, p, sg * g[0], sg * g[1], sg * g[2], del);
}

/* Orientation of the edge P-Q (perspective: its plane P x Q) against
 * point C: +-1, or 0 when within d_side of 0. */
static double line_side(const satc_rview *rv, const double P[3], const double Q[3],
                        const double C[3], mg m)
{
    double g[3], tol = d_side(rv, m), v;
    if (!rv->ortho)
        cross(P, Q, g), v = satc_dot3_d(g, C);
    else
        v = (Q[0] - P[0]) * (C[1] - P[1]) - (Q[1] - P[1]) * (C[0] - P[0]);
    return v > tol ? 1.0 : v < -tol ? -1.0 : 0.0;
}

/* The least width in texels that covers anything: a texel, or a merged cell. */
static double rv_need(const satc_rview *rv) { return (rv->flags & SATC_RVIEW_CELLS) ? 0.25 : 1.0; }

/* The screen rectangle of directions (or orthographic positions) a in
 * [amin, amax], b in [bmin, bmax]: texel range into p, returns the area
 * in texels it covers on the view (0: none, or with keep = 0 none in the
 * tile's rows). */
static double rect_of(const satc_rview *rv, double amin, double amax, double bmin, double bmax,
                      int keep, satc_rpoly *p)
{
    /* u = (a - a0) / ak, rounded, is monotonic in a: mapping the extremes
     * of a gives those of u exactly */
    if (!(amin <= amax) || !(bmin <= bmax))
        return 0;
    double u0 = (amin - rv->a0) / rv->ak, u1 = (amax - rv->a0) / rv->ak;
    double v0 = (bmin - rv->b0) / rv->bk, v1 = (bmax - rv->b0) / rv->bk;
    double umin = satc_dmin(u0, u1), umax = satc_dmax(u0, u1);
    double vmin = satc_dmin(v0, v1), vmax = satc_dmax(v0, v1);
    double W = rv->width, H = rv->height;
    double du = satc_dmin(umax, W) - satc_dmax(umin, 0), dv = satc_dmin(vmax, H) - satc_dmax(vmin, 0);
    /* narrower than a texel (a cell when merging; less the projection's
     * rounding): covers none */
    double need = rv_need(rv) - P2(-30);
    if (!(du > need) || !(dv > need))
        return 0;
    /* slack for the rounding of the clip and projection, a few units in
     * the last place of a and b (2^-30 of the magnitudes is far more): no
     * texel outside the rectangle meets the polygon, so none outside can
     * pass its edges */
    double eps = P2(-30) * ((((fabs(umin) + fabs(umax)) + fabs(vmin)) + fabs(vmax)) + (W + H + 1));
    double i0 = satc_dmax(floor(umin - eps), 0), i1 = satc_dmin(ceil(umax + eps), W);
    double j0 = satc_dmax(floor(vmin - eps), 0), j1 = satc_dmin(ceil(vmax + eps), H);
    if (!(i0 < i1) || !(j0 < j1))
        return 0;
    /* the tile's rows; a triangle outside them is still set up (its rows
     * [j0, j1) then empty), so that its mesh neighbours pair with it
     * whatever the tile */
    j0 = satc_dmax(j0, rv->row0), j1 = satc_dmin(j1, rv->row1);
    if (!(j0 < j1) && !keep)
        return 0;
    p->i0 = (int32_t)i0, p->i1 = (int32_t)i1, p->j0 = (int32_t)j0, p->j1 = (int32_t)j1;
    return du * dv;
}

/* satc_dmin(amin, a) etc. for finite a, b (every vertex here), in the form of minsd / maxsd */
#define ACC(a, b) (amin = amin < (a) ? amin : (a), amax = amax > (a) ? amax : (a), \
                   bmin = bmin < (b) ? bmin : (b), bmax = bmax > (b) ? bmax : (b))

/* Screen rectangle of the points V[0..nv) (a convex polygon in order)
 * clipped to z >= n, as rect_of. */
static double bbox(const satc_rview *rv, const double (*V)[3], int nv, int keep, satc_rpoly *p)
{
    double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
    double n = rv->n;
    for (int k = 0; k < nv; k++) {
        const double *A = V[k], *B = V[k + 1 < nv ? k + 1 : 0];
        if (A[2] >= n) {
            double rz = rv->ortho ? 1.0 : 1 / A[2];
            ACC(A[0] * rz, A[1] * rz);
        }
        if ((A[2] >= n) != (B[2] >= n)) { /* the edge crosses z = n */
            double t = (n - A[2]) / (B[2] - A[2]);
            double a = A[0] + t * (B[0] - A[0]), b = A[1] + t * (B[1] - A[1]);
            if (!rv->ortho)
                a /= n, b /= n;
            ACC(a, b);
        }
    }
    return rect_of(rv, amin, amax, bmin, bmax, keep, p);
}

/* The same for a box's 8 vertices, all beyond the near plane (tile rows required). */
static double box_rect(const satc_rview *rv, const double (*V)[3], satc_rpoly *p)
{
    double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
    for (int k = 0; k < 8; k++) {
        double rz = rv->ortho ? 1.0 : 1 / V[k][2];
        ACC(V[k][0] * rz, V[k][1] * rz);
    }
    return rect_of(rv, amin, amax, bmin, bmax, 0, p);
}
#undef ACC

/* A box beyond the near plane whose vertices' rectangle box_rect() would
 * find narrower than rv_need() across u or v, or a texel off the view or
 * the tile's rows, told without its vertices: 1 only then. With D bounding
 * a vertex's offset from C (half axes, plus 2^-50 M for the rounded sums)
 * and zl = C_z - D_z > 0, a vertex's a = V_x / V_z lies within r =
 * (D_x + |C_x| D_z / C_z) / zl of C_x / C_z (orthographic: a = V_x, within
 * D_x). The 2^-40 term pays for the rounding of projection and texel
 * mapping here and in box_rect() (below 15/16 of rv_need(), less 2^-30). */
static int box_below_texel(const satc_rview *rv, const double C[3], const double (*H)[3], double M)
{
    double D[3];
    for (int k = 0; k < 3; k++)
        D[k] = fabs(H[0][k]) + fabs(H[1][k]) + fabs(H[2][k]) + P2(-50) * M;
    double zl = C[2] - D[2], rc = rv->ortho ? 1.0 : 1 / C[2], rl = rv->ortho ? 1.0 : 1 / zl;
    if (!rv->ortho && !(zl > 0))
        return 0;
    const double org[2] = {rv->a0, rv->b0}, step[2] = {rv->ak, rv->bk};
    const double lo[2] = {-1, rv->row0 - 1.0}, hi[2] = {rv->W1, rv->row1 + 1.0};
    for (int k = 0; k < 2; k++) {
        double sc = C[k] * rc, c = fabs(sc), r = rv->ortho ? D[k] : (D[k] + c * D[2]) * rl;
        double slack = P2(-40) * (c + r + rv->borg[k]);
        /* under 15/16 of rv_need() wide, or off the view (in texels) */
        double u = (sc - org[k]) / step[k], ru = (r + slack) / fabs(step[k]);
        if (2 * r + slack < rv->blim[k] || u + ru < lo[k] || u - ru > hi[k])
            return 1;
    }
    return 0;
}

/* The normal (V1 - V0) x (V2 - V0) of a polygon. */
static void poly_normal(const double (*V)[3], double N[3])
{
    double e1[3], e2[3];
    for (int k = 0; k < 3; k++)
        e1[k] = V[1][k] - V[0][k], e2[k] = V[2][k] - V[0][k];
    cross(e1, e2, N);
}

/* A convex planar polygon V[0..nv) (frame coordinates, in order, of
 * magnitudes and errors m, normal N from poly_normal): its edges, near
 * edge and depth plane. */
static int setup_poly_n(const satc_rview *rv, const double (*V)[3], int nv, const double N[3],
                        mg m, int keep, satc_rpoly *p)
{
    p->ne = p->np = 0;
    p->zlo = 0;
    double h = satc_dot3_d(N, V[0]), dN = d_N(m), dh = d_h(m);
    double sg;
    if (!rv->ortho) {
        if (!(fabs(h) > dh)) /* the eye in the polygon's plane, or degenerate */
            return 0;
        sg = h > 0 ? 1.0 : -1.0;
    } else {
        if (!(fabs(N[2]) > dN)) /* seen edge-on */
            return 0;
        sg = N[2] > 0 ? 1.0 : -1.0;
    }
    double area = bbox(rv, V, nv, keep, p);
    if (!(area > 0) || area < rv->min_texels)
        return 0;
    double dedge = d_edge(rv, m);
    for (int k = 0; k < nv; k++)
        if (!add_line(rv, p, V[k], V[k + 1 < nv ? k + 1 : 0], sg, dedge))
            return 0;
    double No[3] = {sg * N[0], sg * N[1], sg * N[2]};
    return add_depth(rv, p, No, sg * h, dN, dh, 1);
}

/* Frame coordinates V[0..n) of the world vertices X[0..n) (mag as for
 * satc_raster_setup_tri) and their magnitude and error bounds: 0 when a
 * vertex is not finite or lies beyond SATC_MAX_MAGNITUDE. */
static int frame_verts(const satc_rview *rv, const double (*X)[3], const double *mag, int n,
                       double (*V)[3], mg *m)
{
    m->M = m->e = 0;
    for (int k = 0; k < n; k++) {
        if (!isfinite(mag[k]))
            return 0;
        double d[3] = {X[k][0] - rv->E[0], X[k][1] - rv->E[1], X[k][2] - rv->E[2]};
        vec_frame(rv, d, V[k]);
        /* infinite or NaN for a vertex not finite */
        double Mk = 2 * n1(V[k]) + n1(d);
        if (!(Mk <= (double)SATC_MAX_MAGNITUDE))
            return 0;
        double ek = 4 * P2(-50) * mag[k]; /* a model matrix's rounding */
        m->M = Mk > m->M ? Mk : m->M, m->e = ek > m->e ? ek : m->e; /* neither NaN */
    }
    m->e += P2(-48) * m->M;
    return m->M <= (double)SATC_MAX_MAGNITUDE;
}

int satc_raster_setup_tri(const satc_rview *rv, const double X[3][3], const double mag[3],
                          satc_rpoly *out)
{
    double V[3][3];
    mg m;
    if (!frame_verts(rv, X, mag, 3, V, &m))
        return 0;
    double N[3];
    poly_normal((const double(*)[3])V, N);
    if (rv->flags & SATC_RASTER_CULL_BACK) {
        /* Front faces wind counter-clockwise seen from outside: the outward
         * normal (V1 - V0) x (V2 - V0) points toward the eye. Skipped
         * unless provably front. */
        double s = (rv->flags & SATC_RASTER_FRONT_CW) ? -1.0 : 1.0;
        double facing = rv->ortho ? s * N[2] : s * satc_dot3_d(N, V[0]);
        double tol = rv->ortho ? d_N(m) : d_h(m);
        if (!(facing < -tol))
            return 0;
    }
    return setup_poly_n(rv, (const double(*)[3])V, 3, N, m, 1, out);
}

static int same3(const double a[3], const double b[3])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/*
 * Two triangles A = (P, Q, a) and B = (P, Q, b) sharing the edge PQ, both
 * beyond the near plane, with a and b strictly on opposite sides of the
 * line PQ on screen. Let R be where the two other edges of A and the two
 * other edges of B all hold. A point of R on a's side of PQ passes every
 * edge of A, so lies in A; one on b's side lies in B: R lies in A u B.
 * A texel wholly in R is thus wholly covered by the two triangles, and
 * the farther of A's and B's plane depths over it is no nearer than the
 * surface it sees. Were a and b on the same side (a fold), R would reach
 * past PQ where neither triangle is: such pairs, and those too close to
 * tell, are skipped. The edges and planes are the triangles' own, each
 * conservative by itself (setup_poly_n writes edge k from vertex k to
 * k + 1, then the near edge, which beyond the near plane R needs not).
 * A texel of R on one side of PQ lies in one triangle, which covers it
 * alone: two more edges keep the pair to a band two texels either side
 * of PQ, which only the fill's time sees.
 */
#if SATC_RP_EDGES < 6 || SATC_RP_PLANES < 2
#error "a triangle pair's polygon needs 6 edges and 2 planes"
#endif
int satc_raster_setup_pair(const satc_rview *rv, const double A[3][3], const double amag[3],
                           const satc_rpoly *pa, const double B[3][3], const double bmag[3],
                           const satc_rpoly *pb, satc_rpoly *out)
{
    int shared = 0, used_a = 0, used_b = 0;
    double X[4][3], mag[4];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            if (!same3(A[i], B[j]))
                continue;
            if (shared == 2 || (used_a >> i & 1) || (used_b >> j & 1))
                return 0; /* a repeated vertex, or the same triangle */
            used_a |= 1 << i, used_b |= 1 << j;
            memcpy(X[shared], A[i], sizeof X[0]);
            mag[shared] = satc_dmax(amag[i], bmag[j]);
            shared++;
        }
    }
    if (shared != 2 || pa->ne != 4 || pb->ne != 4 || pa->np != 1 || pb->np != 1)
        return 0;
    /* the third vertices; edge (k + 1) % 3 of each is the shared one */
    int ka = used_a == 3 ? 2 : used_a == 5 ? 1 : 0, kb = used_b == 3 ? 2 : used_b == 5 ? 1 : 0;
    memcpy(X[2], A[ka], sizeof X[0]);
    memcpy(X[3], B[kb], sizeof X[0]);
    mag[2] = amag[ka], mag[3] = bmag[kb];
    double V[4][3];
    mg m;
    if (!frame_verts(rv, (const double(*)[3])X, mag, 4, V, &m))
        return 0;
    double zmin = satc_dmin(satc_dmin(V[0][2], V[1][2]), satc_dmin(V[2][2], V[3][2])) - 4 * m.e;
    if (!(zmin >= rv->n) || (!rv->ortho && !(zmin > 0)))
        return 0; /* reaching the near plane or the eye's plane */
    double sa = line_side(rv, V[0], V[1], V[2], m), sb = line_side(rv, V[0], V[1], V[3], m);
    if (sa == 0 || sb != -sa)
        return 0;
    out->i0 = pa->i0 < pb->i0 ? pa->i0 : pb->i0;
    out->i1 = pa->i1 > pb->i1 ? pa->i1 : pb->i1;
    out->j0 = pa->j0 < pb->j0 ? pa->j0 : pb->j0;
    out->j1 = pa->j1 > pb->j1 ? pa->j1 : pb->j1;
    double g[3];
    line_coef(rv, V[0], V[1], g);
    double band = 2 * (fabs(g[0] * rv->ak) + fabs(g[1] * rv->bk));
    out->ne = 4;
    if (!add_edge(rv, out, g[0], g[1], g[2] + band, 0) ||
        !add_edge(rv, out, -g[0], -g[1], band - g[2], 0))
        return 0;
    memcpy(out->e[0], pa->e[ka], sizeof out->e[0]);
    memcpy(out->e[1], pa->e[(ka + 2) % 3], sizeof out->e[0]);
    memcpy(out->e[2], pb->e[kb], sizeof out->e[0]);
    memcpy(out->e[3], pb->e[(kb + 2) % 3], sizeof out->e[0]);
    out->np = 2;
    out->zlo = 0;
    out->ortho = pa->ortho;
    memcpy(out->g[0], pa->g[0], sizeof out->g[0]);
    memcpy(out->g[1], pb->g[0], sizeof out->g[0]);
    return 1;
}

/* Face (k, s) of a box in frame coordinates: center, outward normal,
 * vertices in order. */
static void face(const double C[3], const double (*H)[3], double sd, int k, double s,
                 double F[3], double N[3], double V[4][3])
{
    int a = (k + 1) % 3, b = (k + 2) % 3;
    cross(H[a], H[b], N);
    for (int c = 0; c < 3; c++) {
        N[c] *= s * sd;
        F[c] = C[c] + s * H[k][c];
        V[0][c] = F[c] + H[a][c] + H[b][c];
        V[1][c] = F[c] - H[a][c] + H[b][c];
        V[2][c] = F[c] - H[a][c] - H[b][c];
        V[3][c] = F[c] + H[a][c] - H[b][c];
    }
}

int satc_raster_setup_box(const satc_rview *rv, const double c[3], const double H[3][3],
                          double cerr, satc_rpoly out[3])
{
    double C[3], Hq[3][3], hn[3];
    if (!isfinite(cerr))
        return 0;
    /* an infinite or NaN component of c or H makes M infinite or NaN:
     * the magnitude test below rejects it */
    double d[3] = {c[0] - rv->E[0], c[1] - rv->E[1], c[2] - rv->E[2]};
    vec_frame(rv, d, C);
    double M = 2 * n1(C);
    for (int j = 0; j < 3; j++) {
        vec_frame(rv, H[j], Hq[j]);
        hn[j] = n1(Hq[j]);
        M += 2 * hn[j];
    }
    M += n1(d);
    mg m = {M, 4 * cerr + P2(-48) * M};
    if (!(M <= (double)SATC_MAX_MAGNITUDE))
        return 0;
    /* every vertex (rounding inside 4 e) short of the near plane: nothing drawn */
    if (C[2] + (fabs(Hq[0][2]) + fabs(Hq[1][2]) + fabs(Hq[2][2])) + 4 * m.e < rv->n)
        return 0;
    double zmin = C[2] - fabs(Hq[0][2]) - fabs(Hq[1][2]) - fabs(Hq[2][2]);
    int beyond = zmin - 4 * m.e >= rv->n;
    double V[8][3];
    satc_rpoly *p = &out[0];
    if (beyond) {
        /* Most boxes are small on screen: their vertices' rectangle decides
         * before any face is looked at. */
        if (box_below_texel(rv, C, (const double(*)[3])Hq, M))
            return 0;
        /* ((C +- H0) +- H1) +- H2, the partial sums shared */
        double t1[2][3], t2[4][3];
        for (int k = 0; k < 3; k++) {
            t1[0][k] = C[k] + Hq[0][k], t1[1][k] = C[k] + -Hq[0][k];
            for (int q = 0; q < 2; q++)
                t2[q][k] = t1[q][k] + Hq[1][k], t2[q + 2][k] = t1[q][k] + -Hq[1][k];
            for (int q = 0; q < 4; q++)
                V[q][k] = t2[q][k] + Hq[2][k], V[q + 4][k] = t2[q][k] + -Hq[2][k];
        }
        double area = box_rect(rv, (const double(*)[3])V, p);
        if (!(area > 0) || area < rv->min_texels || satc_raster_box_hidden(rv, p, zmin - 4 * m.e))
            return 0;
    }
    int zero = (hn[0] == 0) + (hn[1] == 0) + (hn[2] == 0);
    if (zero >= 2)
        return 0;
    if (zero == 1) { /* a rectangle (a quad occluder): the face of the two other axes */
        int k = hn[0] == 0 ? 0 : hn[1] == 0 ? 1 : 2;
        double F[3], N[3], V[4][3];
        face(C, (const double(*)[3])Hq, 1.0, k, 1.0, F, N, V);
        poly_normal((const double(*)[3])V, N);
        return setup_poly_n(rv, (const double(*)[3])V, 4, N, m, 0, &out[0]);
    }
    /* X[k] = H_(k+1) x H_(k+2): the face normals' directions, X[0] the
     * determinant's too */
    double X[3][3];
    for (int k = 0; k < 3; k++)
        cross(Hq[(k + 1) % 3], Hq[(k + 2) % 3], X[k]);
    double det = satc_dot3_d(Hq[0], X[0]);
    if (!(fabs(det) > P2(-40) * hn[0] * hn[1] * hn[2]))
        return 0; /* flat but not exactly: not drawn */
    double sd = det > 0 ? 1.0 : -1.0;
    double dN = d_N(m), dh = d_h(m);
    /* Face (k, s), s = +-1: outward normal s sd X[k], plane offset
     * hf = s sd X[k].(C + s H_k) = s sd X[k].C + |det| (X[k].H_k = det
     * for every k: one dot per axis, the rounding well inside dh). front:
     * bit 2k + si (s = 1 - 2 si) set for a provably front face; unsure:
     * too close. */
    unsigned front = 0, unsure = 0;
    double hf[3][2], adet = fabs(det);
    for (int k = 0; k < 3; k++) {
        double xc = sd * satc_dot3_d(X[k], C);
        hf[k][0] = xc + adet, hf[k][1] = adet - xc;
        for (int si = 0; si < 2; si++) {
            double s = si ? -sd : sd;
            double v = rv->ortho ? s * X[k][2] : hf[k][si];
            double tol = rv->ortho ? dN : dh;
            front |= (unsigned)(v < -tol) << (2 * k + si);
            unsure |= (unsigned)(!(v < -tol) & !(v > tol)) << (2 * k + si);
        }
    }
    if (!front)
        return 0; /* the eye inside the box, or no face provably facing it */
    if (!unsure && beyond) {
        /* Beyond the near plane: the silhouette (box_sil) and the front
         * planes' depth. */
        p->ne = p->np = 0;
        p->zlo = float_down(zmin - 4 * m.e);
        double dedge = d_edge(rv, m), sdv[2] = {sd, -sd};
        const uint8_t *e = box_sil[front];
        if (e[0] > SATC_RP_EDGES)
            return 0;
        for (int q = 1; q <= e[0]; q++) {
            const double *P = V[(e[q] & 7) | 1 << (e[q] >> 3 & 3)], *Q = V[e[q] & 7];
            double g[3];
            line_coef(rv, P, Q, g);
            double sg = sdv[e[q] >> 6];
            if (!add_edge(rv, p, sg * g[0], sg * g[1], sg * g[2], dedge))
                return 0;
        }
        for (int k = 0; k < 3; k++) {
            for (int si = 0; si < 2; si++) {
                if (!(front >> (2 * k + si) & 1))
                    continue;
                double s = si ? sd : -sd; /* the inward normal */
                double No[3] = {s * X[k][0], s * X[k][1], s * X[k][2]};
                if (!add_depth(rv, p, No, -hf[k][si], dN, dh, 0))
                    return 0;
            }
        }
        return p->ne >= 4 ? 1 : 0;
    }
    /* Reaching the near plane (or a face seen edge-on): each front face alone. */
    int np = 0;
    for (int k = 0; k < 3; k++) {
        for (int si = 0; si < 2; si++) {
            if (!(front >> (2 * k + si) & 1))
                continue;
            double F[3], N[3], V[4][3];
            face(C, (const double(*)[3])Hq, sd, k, si ? -1.0 : 1.0, F, N, V);
            poly_normal((const double(*)[3])V, N);
            if (setup_poly_n(rv, (const double(*)[3])V, 4, N, m, 0, &out[np]))
                np++;
        }
    }
    return np;
}
