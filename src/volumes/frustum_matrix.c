/*
 * Frustum from a 4x4 view-projection matrix. Real-Time Rendering 22.14.1 reads
 * the six planes off row combinations of M: x = +-w, y = +-w, and the depth
 * planes z = z_near w, z = z_far w. The exact test needs Eberly's camera
 * form (Eberly §3), so we recover it from those rows, in double:
 *
 * Perspective (the w row's xyz is non-zero):
 *   - apex E: where rows x, y and w vanish (a 3x3 solve);
 *   - D: the w row's xyz, normalised (clip w > 0 in front); the rows are
 *     scaled so that w = D.(X - E) is the depth along D;
 *   - U: the y row's xyz orthogonalised against D; L = U x D (right-handed,
 *     so a mirrored projection just mirrors the bounds);
 *   - n, f: where the near and far combinations cross the axis E + tD;
 *   - bounds: the four near-plane corners (x, y = +-w, w = n) unprojected,
 *     their L and U coordinates; min/max give [l0, l1] x [u0, u1].
 * Orthographic (the w row is exactly (0, 0, 0, w), w > 0):
 *   - D: the z row's direction, signed to point from near to far;
 *   - E: the center of the near face (NDC (0, 0, z_near)), so n = 0 and f
 *     is the depth extent (up to rounding: n, f are the min and max depth
 *     of the eight unprojected corners);
 *   - bounds: min/max L and U coordinates of those corners (symmetric
 *     around 0 up to rounding).
 *
 * What is recovered is the clip volume itself: a view part that scales
 * (uniformly or along its own axes) gives the frustum it clips; only shear
 * and oblique planes are refused. Any non-finite entry: SATC_ERR_NONFINITE.
 *
 * Rejected with SATC_ERR_MATRIX (tolerances are SATC_FRAME_TOLERANCE,
 * measured as what a relative perturbation of the rows of that size could
 * explain, so float rounding of a valid matrix always passes):
 *   - singular: |det| of the three solved rows <= 2^-48 times the product
 *     of their lengths (each row at float resolution of the others);
 *   - oblique near/far (e.g. a reflection-clip projection): the z row's xyz
 *     not parallel to the w row's, sine > tol;
 *   - sheared: the x and y rows' parts across D not perpendicular, cosine
 *     > tol * (|x| / |x across D| + |y| / |y across D|); an x or y row
 *     leaning along D is an off-center frustum and is fine;
 *   - orthographic: rows x, y, z not pairwise perpendicular (cosine > tol),
 *     or w <= 0 (nothing has w > 0: the clip volume is empty);
 *   - a depth plane that does not cross the axis (z row degenerate).
 * Far plane: with SATC_DEPTH_INFINITE_FAR, f = +INFINITY; the matrix must
 * keep the apex side of its far combination and have no far plane nearer
 * than n / tol (about 10^6 n; an epsilon-tweaked infinite projection
 * passes, a finite far plane does not: drop the flag for it). Without the
 * flag, a far combination that vanishes within tolerance (an infinite
 * projection, or a far plane beyond what float entries resolve) also gives
 * f = +INFINITY, which only keeps more boxes. A projection made with near
 * and far swapped yields f < n and SATC_ERR_FAR from the camera checks.
 * An orthographic matrix with the infinite flag gives SATC_ERR_FAR.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "../core/internal.h"
#include "clip_corners.h"
#include "dd.h"

#define KNOWN_CONVENTIONS                                                                       \
    (SATC_MATRIX_ROW_MAJOR | SATC_DEPTH_ZERO_TO_ONE | SATC_DEPTH_REVERSED |                    \
     SATC_DEPTH_INFINITE_FAR)

/* 2^-48: both of two independent directions at float resolution (2^-24). */
#define SINGULAR_REL 3.552713678800501e-15

static double len3(const double *a) { return sqrt(satc_dot3_d(a, a)); }

/* a minus its component along the unit vector d. */
static void across(const double *a, const double *d, double *o)
{
    double k = satc_dot3_d(a, d);
    for (int i = 0; i < 3; i++)
        o[i] = a[i] - k * d[i];
}

/* Inverse of the 3x3 matrix with rows a, b, c as its columns inv[0..2]
 * (inv[j] is column j), or 0 when singular (see SINGULAR_REL). */
static int inverse3(const double *a, const double *b, const double *c, double inv[3][3])
{
    double bc[3], ca[3], ab[3];
    satc_cross3_d(b, c, bc);
    satc_cross3_d(c, a, ca);
    satc_cross3_d(a, b, ab);
    double det = satc_dot3_d(a, bc);
    double scale = len3(a) * len3(b) * len3(c);
    if (!(fabs(det) > SINGULAR_REL * scale))
        return 0;
    for (int i = 0; i < 3; i++) {
        inv[0][i] = bc[i] / det;
        inv[1][i] = ca[i] / det;
        inv[2][i] = ab[i] / det;
    }
    return 1;
}

/* inv (columns) times v. */
static void apply3(double inv[3][3], const double *v, double *o)
{
    for (int i = 0; i < 3; i++)
        o[i] = inv[0][i] * v[0] + inv[1][i] * v[1] + inv[2][i] * v[2];
}

/* double to float without an out-of-range conversion (undefined in ISO
 * C): beyond FLT_MAX gives +-Inf, which the camera checks reject (or, for
 * f, read as an infinite far plane). */
static float narrow(double v)
{
    if (v > FLT_MAX)
        return INFINITY;
    if (v < -FLT_MAX)
        return -INFINITY;
    return (float)v;
}

static void to_float3(float *dst, const double *src)
{
    for (int i = 0; i < 3; i++)
        dst[i] = narrow(src[i]);
}

/* Recovered frame, apex and bounds, shared by both kinds. */
typedef struct recovered {
    double E[3], L[3], U[3], D[3];
    double l0, l1, u0, u1, n, f;
} recovered;

/* Widens [lo, hi] of frame coordinates to hold q. */
static void take_corner(recovered *r, const double *q, double *tmin, double *tmax)
{
    double l = satc_dot3_d(r->L, q), u = satc_dot3_d(r->U, q), t = satc_dot3_d(r->D, q);
    r->l0 = l < r->l0 ? l : r->l0;
    r->l1 = l > r->l1 ? l : r->l1;
    r->u0 = u < r->u0 ? u : r->u0;
    r->u1 = u > r->u1 ? u : r->u1;
    *tmin = t < *tmin ? t : *tmin;
    *tmax = t > *tmax ? t : *tmax;
}

static void reset_bounds(recovered *r)
{
    r->l0 = r->u0 = INFINITY;
    r->l1 = r->u1 = -INFINITY;
}

/* Depth NDC of the near and far planes under the conventions. */
static void depth_ends(unsigned conv, double *zn, double *zf)
{
    double lo = (conv & SATC_DEPTH_ZERO_TO_ONE) ? 0.0 : -1.0, hi = 1.0;
    int rev = (conv & SATC_DEPTH_REVERSED) != 0;
    *zn = rev ? hi : lo;
    *zf = rev ? lo : hi;
}

static satc_status perspective(double r[4][4], unsigned conv, recovered *o)
{
    const double tol = SATC_FRAME_TOLERANCE;
    double wl = len3(r[3]);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            r[i][j] /= wl; /* now w = D.(X - E): depth along D */
    double inv[3][3];
    if (!inverse3(r[0], r[1], r[3], inv))
        return SATC_ERR_MATRIX;
    double rhs[3] = {-r[0][3], -r[1][3], -r[3][3]};
    apply3(inv, rhs, o->E);
    memcpy(o->D, r[3], sizeof o->D);

    double yx[3], xx[3];
    across(r[1], o->D, yx);
    across(r[0], o->D, xx);
    double yl = len3(yx), xl = len3(xx);
    if (!(yl > 0.0) || !(xl > 0.0))
        return SATC_ERR_MATRIX;
    for (int i = 0; i < 3; i++)
        o->U[i] = yx[i] / yl;
    satc_cross3_d(o->U, o->D, o->L);
    /* Shear: the angle between x and y across D, against what rounding of
     * either row can explain. */
    double c = fabs(satc_dot3_d(xx, o->U)) / xl;
    if (!(c <= tol * (len3(r[0]) / xl + len3(r[1]) / yl)))
        return SATC_ERR_MATRIX;

    /* Depth planes: z parallel to w (else oblique). */
    double zx[3];
    across(r[2], o->D, zx);
    double zlen = len3(r[2]);
    if (!(len3(zx) <= tol * zlen))
        return SATC_ERR_MATRIX;
    double zn, zf;
    depth_ends(conv, &zn, &zf);
    double sn = (conv & SATC_DEPTH_REVERSED) ? -1.0 : 1.0;
    double zE = satc_dot3_d(r[2], o->E) + r[2][3], wE = satc_dot3_d(r[3], o->E) + r[3][3];
    double zD = satc_dot3_d(r[2], o->D); /* w.D = 1 */
    /* Near: sn (z - zn w) >= 0; crosses the axis at t = -h(E) / h'(D). */
    double an = sn * (zD - zn), hn = sn * (zE - zn * wE);
    if (!(fabs(an) > tol * (zlen + fabs(zn))))
        return SATC_ERR_MATRIX;
    o->n = -hn / an;
    /* Far: -sn (z - zf w) >= 0. */
    double af = -sn * (zD - zf), hf = -sn * (zE - zf * wE);
    int vanishes = fabs(af) <= tol * (zlen + fabs(zf));
    if (conv & SATC_DEPTH_INFINITE_FAR) {
        if (!(hf > 0.0))
            return SATC_ERR_MATRIX;
        if (!vanishes && af < 0.0 && -hf / af < o->n / tol)
            return SATC_ERR_MATRIX; /* a finite far plane */
        o->f = INFINITY;
    } else if (vanishes) {
        if (!(hf > 0.0))
            return SATC_ERR_MATRIX;
        o->f = INFINITY;
    } else {
        o->f = -hf / af;
    }

    /* Near corners: x = +-n, y = +-n, w = n, relative to E. */
    reset_bounds(o);
    double tmin = INFINITY, tmax = -INFINITY;
    for (int k = 0; k < 4; k++) {
        double ndc[3] = {(k & 1) ? o->n : -o->n, (k & 2) ? o->n : -o->n, o->n}, q[3];
        apply3(inv, ndc, q);
        take_corner(o, q, &tmin, &tmax);
    }
    return SATC_OK;
}

static satc_status orthographic(double r[4][4], unsigned conv, recovered *o)
{
    const double tol = SATC_FRAME_TOLERANCE;
    double w = r[3][3];
    if (!(w > 0.0))
        return SATC_ERR_MATRIX;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            r[i][j] /= w;
    double inv[3][3];
    if (!inverse3(r[0], r[1], r[2], inv))
        return SATC_ERR_MATRIX;
    double len[3] = {len3(r[0]), len3(r[1]), len3(r[2])};
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        if (!(fabs(satc_dot3_d(r[i], r[j])) <= tol * len[i] * len[j]))
            return SATC_ERR_MATRIX; /* sheared or oblique */
    }
    double zn, zf;
    depth_ends(conv, &zn, &zf);
    double sgn = zf > zn ? 1.0 : -1.0;
    for (int i = 0; i < 3; i++)
        o->D[i] = sgn * r[2][i] / len[2];
    double yx[3];
    across(r[1], o->D, yx);
    double yl = len3(yx);
    if (!(yl > 0.0))
        return SATC_ERR_MATRIX;
    for (int i = 0; i < 3; i++)
        o->U[i] = yx[i] / yl;
    satc_cross3_d(o->U, o->D, o->L);
    double rhs[3] = {-r[0][3], -r[1][3], zn - r[2][3]};
    apply3(inv, rhs, o->E);

    reset_bounds(o);
    double tmin = INFINITY, tmax = -INFINITY;
    for (int k = 0; k < 8; k++) {
        double ndc[3] = {(k & 1) ? 1.0 : -1.0, (k & 2) ? 1.0 : -1.0, (k & 4) ? zf - zn : 0.0}, q[3];
        apply3(inv, ndc, q);
        take_corner(o, q, &tmin, &tmax);
    }
    o->n = tmin;
    o->f = (conv & SATC_DEPTH_INFINITE_FAR) ? INFINITY : tmax; /* infinite: SATC_ERR_FAR below */
    return SATC_OK;
}

/*
 * The float camera must contain the matrix's own clip volume, evaluated
 * exactly (what the GPU draws): the recovered apex, frame, depths and
 * bounds are rounded, and a far plane of float entries may tilt. So the
 * clip volume's vertices (its 8 corners; for an infinite far its 4 near
 * corners and 4 edge directions) are solved from the matrix in double-
 * double (clip_corners.c), measured in the rounded frame about the rounded origin, and the
 * depths and bounds are taken from them, widened by CONTAIN_REL for the
 * solve's rounding and rounded outward. Perspective bounds also absorb
 * the rounding of the slopes l/n (CONTAIN_SLOPE), so the frustum's own
 * fields contain the volume. A vertex at or behind the rounded apex's
 * depth 0: SATC_ERR_NEAR (no float camera holds it).
 */
#define CONTAIN_REL 0x1p-32
#define CONTAIN_SLOPE 0x1p-24

/* Largest float <= v (down) or smallest float >= v (up), finite v. */
static float round_dir(double v, int up)
{
    float x = narrow(v);
    if (up ? (double)x < v : (double)x > v)
        x = nextafterf(x, up ? INFINITY : -INFINITY);
    return x;
}

/* far_in: the least depth of the 4 far vertices (perspective, finite far;
 * else +Inf). The far plane of float entries tilts; the pyramid's part
 * below that depth lies on the near side of it (each lateral edge leaves
 * the clip volume at or beyond it, and the part is the convex hull of the
 * apex and the edges' points at that depth). */
static satc_status contain(satc_camera *cam, const double m[4][4], unsigned conv, double *far_in)
{
    double zn, zf;
    depth_ends(conv, &zn, &zf);
    int ortho = cam->orthographic, inf = isinf(cam->f);
    const float *F[3] = {cam->left, cam->up, cam->dir};
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double tmin = INFINITY, tmax = -INFINITY, mag = 0;
    *far_in = INFINITY;
    dd mi[4][4];
    satc_clip_minors(m, mi);
    for (int k = 0; k < 8; k++) {
        int far = k >= 4, point = !(far && inf);
        dd x[3];
        double a = (k & 1) ? 1.0 : -1.0, b = (k & 2) ? 1.0 : -1.0;
        if (!(point ? satc_clip_corner(mi, a, b, far ? zf : zn, x) : satc_clip_direction(m, a, b, x)))
            return SATC_ERR_MATRIX;
        if (point)
            for (int i = 0; i < 3; i++)
                x[i] = dd_sub(x[i], dd_d(cam->origin[i]));
        double q[3];
        for (int i = 0; i < 3; i++)
            q[i] = dd_to_d(dd_add(dd_add(dd_mul(dd_d(F[i][0]), x[0]), dd_mul(dd_d(F[i][1]), x[1])),
                                  dd_mul(dd_d(F[i][2]), x[2])));
        if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2]))
            return SATC_ERR_MATRIX;
        if (!ortho && !(q[2] > 0.0))
            return SATC_ERR_NEAR;
        double c[3] = {q[0], q[1], q[2]};
        if (!ortho) /* slopes */
            c[0] = q[0] / q[2], c[1] = q[1] / q[2];
        for (int i = 0; i < 2; i++) {
            lo[i] = c[i] < lo[i] ? c[i] : lo[i];
            hi[i] = c[i] > hi[i] ? c[i] : hi[i];
            mag = fmax(mag, fabs(c[i]));
        }
        if (point) {
            tmin = q[2] < tmin ? q[2] : tmin;
            tmax = q[2] > tmax ? q[2] : tmax;
            mag = fmax(mag, fabs(q[2]));
            if (far && !ortho)
                *far_in = q[2] < *far_in ? q[2] : *far_in;
        }
    }
    if (ortho) {
        double g = CONTAIN_REL * mag;
        cam->n = round_dir(tmin - g, 0);
        cam->f = round_dir(tmax + g, 1);
        cam->l0 = round_dir(lo[0] - g, 0), cam->l1 = round_dir(hi[0] + g, 1);
        cam->u0 = round_dir(lo[1] - g, 0), cam->u1 = round_dir(hi[1] + g, 1);
        return SATC_OK;
    }
    cam->n = round_dir(tmin * (1 - CONTAIN_REL), 0);
    if (!(cam->n > 0.0f))
        return SATC_ERR_NEAR;
    if (!inf)
        cam->f = round_dir(tmax * (1 + CONTAIN_REL), 1);
    double n = cam->n, g = CONTAIN_REL * (1 + mag);
    cam->l0 = round_dir((lo[0] - CONTAIN_SLOPE * fabs(lo[0]) - g) * n, 0);
    cam->l1 = round_dir((hi[0] + CONTAIN_SLOPE * fabs(hi[0]) + g) * n, 1);
    cam->u0 = round_dir((lo[1] - CONTAIN_SLOPE * fabs(lo[1]) - g) * n, 0);
    cam->u1 = round_dir((hi[1] + CONTAIN_SLOPE * fabs(hi[1]) + g) * n, 1);
    return SATC_OK;
}

/* ---- SATC_INSIDE: inside every plane of the float matrix ---- */

/* The spacing of floats at magnitude v (subnormal: the least). */
static double float_ulp(double v)
{
    v = fabs(v);
    return v < FLT_MIN ? 0x1p-149 : ldexp(1.0, ilogb(v) - 23);
}

/* a . X + a[3] at a float point, in double-double (X 10^7 out against
 * a plane through a point near it). */
static double plane_at_point(const double a[4], const float X[3])
{
    dd h = dd_d(a[3]);
    for (int k = 0; k < 3; k++)
        h = dd_add(h, dd_two_prod(a[k], X[k]));
    return dd_to_d(h);
}

/* a . (E + G y) + d as h0 + c . y: the plane's value at the apex and its
 * gradient in frame coordinates (G = F^-1 as columns inv[i]). */
static void plane_in_frame(const double a[4], const float E[3], double inv[3][3], double *h0,
                           double c[3])
{
    *h0 = plane_at_point(a, E);
    for (int i = 0; i < 3; i++)
        c[i] = satc_dot3_d(a, inv[i]);
}

/* The matrix's planes, inside where a . X + a[3] >= 0: w - x, w + x,
 * w - y, w + y, near, far (the depth convention's combinations). */
static void matrix_planes(const double m[4][4], unsigned conv, double a[6][4])
{
    double zn, zf;
    depth_ends(conv, &zn, &zf);
    double sn = (conv & SATC_DEPTH_REVERSED) ? -1.0 : 1.0;
    for (int j = 0; j < 4; j++) {
        a[0][j] = m[3][j] - m[0][j], a[1][j] = m[3][j] + m[0][j];
        a[2][j] = m[3][j] - m[1][j], a[3][j] = m[3][j] + m[1][j];
        a[4][j] = sn * (m[2][j] - zn * m[3][j]);
        a[5][j] = -sn * (m[2][j] - zf * m[3][j]);
    }
}

/*
 * The perspective apex, rounded to float. The float matrix's four side
 * planes need not meet in one point, and E rounds to float: about a
 * float point beside them, the slopes that hold the clip volume are
 * wider than the matrix's by that offset over n (6 % for n = 0.05 at
 * 10^5 from the origin), and reach far outside its sides at depth. A
 * float point P on the outer side of all four side planes (h_j(P) <= 0)
 * sees the whole clip volume within the planes' own slopes: the pyramid
 * with apex P and faces parallel to them, {h_j(X) >= h_j(P)}, holds
 * {h_j(X) >= 0}. So E is moved back by b along the view's central
 * direction (xc, yc, 1) in the frame, b doubling from the rounding error
 * over the slopes' half widths until the rounded point passes (checked
 * in double-double); what the frustum then adds to the matrix's is
 * constant in depth, which tol_t absorbs (matrix_inside). Without such a
 * point (eight doublings) the apex is E rounded, as before.
 */
static void apex_back(const recovered *rc, const double m[4][4], unsigned conv, float origin[3])
{
    double x0 = rc->l0 / rc->n, x1 = rc->l1 / rc->n, y0 = rc->u0 / rc->n, y1 = rc->u1 / rc->n;
    double xc = 0.5 * (x0 + x1), yc = 0.5 * (y0 + y1), hw = 0.5 * fmin(x1 - x0, y1 - y0);
    double c[3], err = 0, a[6][4];
    matrix_planes(m, conv, a);
    for (int k = 0; k < 3; k++) {
        c[k] = xc * rc->L[k] + yc * rc->U[k] + rc->D[k];
        err += float_ulp(fabs(rc->E[k]) + 1e-30);
    }
    double b = err * (1 + fabs(xc) + fabs(yc)) / hw;
    to_float3(origin, rc->E);
    for (int tries = 0; tries < 12 && hw > 0 && b < 0.25 * rc->n + 0x1p12 * err; tries++, b *= 2) {
        float P[3];
        double E[3];
        for (int k = 0; k < 3; k++)
            E[k] = rc->E[k] - b * c[k];
        to_float3(P, E);
        int ok = 1;
        for (int j = 0; j < 4; j++)
            ok &= plane_at_point(a[j], P) < 0;
        if (ok) {
            memcpy(origin, P, sizeof P);
            return;
        }
    }
}

/* The region R(t) of matrix_inside at tolerance t: its depth range and
 * its lateral bounds per unit depth and constant. Returns whether each
 * side and near plane of m (rows j < 5 of h, gradients c) stays above
 * slack at every vertex of R(t) (and along its edges when it has no far
 * end). R(t) shrinks as t grows, so the answer is monotone in t. */
static int region_ok(const satc_frustum *fr, double t, const double h[5], const double c[5][3],
                     const double slack[5])
{
    double e = fr->eps_k / 3.0, t3 = t / 3.0;
    double kx[2] = {fr->x0 + e, fr->x1 - e}, ky[2] = {fr->y0 + e, fr->y1 - e};
    double z[2] = {(fr->n + t3) / (1 - e), (fr->f_in - t3) / (1 + e)};
    /* the lateral ranges are empty nearer than where they close */
    double wx = kx[1] - kx[0], wy = ky[1] - ky[0];
    if (!(wx > 0) || !(wy > 0))
        return 1; /* R is empty */
    z[0] = fmax(z[0], fmax(2 * t3 / wx, 2 * t3 / wy));
    int inf = !(z[1] < INFINITY);
    if (!inf && z[1] < z[0])
        return 1;
    for (int v = 0; v < 8; v++) {
        int s = v & 1, u = v >> 1 & 1, far = v >> 2;
        double q[3];
        if (far && inf) { /* the edge direction */
            q[0] = kx[s], q[1] = ky[u], q[2] = 1;
        } else {
            double zz = z[far];
            q[0] = kx[s] * zz + (s ? -t3 : t3), q[1] = ky[u] * zz + (u ? -t3 : t3), q[2] = zz;
        }
        for (int j = 0; j < 5; j++) {
            double g = satc_dot3_d(c[j], q);
            if (far && inf ? g < -slack[j] * 0x1p-20 : h[j] + g < slack[j] * (1 + satc_norm1_d(q)))
                return 0;
        }
    }
    return 1;
}

/*
 * f_in and tol_t of a perspective frustum fr from the float matrix m, so
 * that SATC_INSIDE implies inside every plane of m (evaluated exactly).
 * - f_in: where m's far plane (if it has one in front: also a projection
 *   whose far combination satc treats as infinite, since its float rows
 *   still clip at some depth) first crosses one of fr's four lateral
 *   edges. The apex is on its inner side, so each cross-section of fr
 *   nearer than that, the hull of four edge points on the inner side, is
 *   too.
 * - tol_t: a point the kernels call inside lies inside each of fr's
 *   planes by at least a third of its tolerance, e_k S + tol_t (the plane
 *   tier's rounding is below 7/12 of it, docs/error-bound.md §4.2), with
 *   S >= its depth z. So INSIDE points lie in the region R(t): n + t/3 <=
 *   z (1 - e/3), z (1 + e/3) <= f_in - t/3, (x0 + e/3) z + t/3 <= x <=
 *   (x1 - e/3) z - t/3 (and y), e = eps_k. tol_t becomes the least t
 *   (within 2^-10, found by doubling and halving) for which every vertex
 *   of R(t) lies inside m's side and near planes (and its edges point
 *   inside them when f_in is infinite), with 2^-40 relative slack for
 *   the evaluation. When no t up to 2^-10 of the depths does, f_in
 *   becomes 0: nothing is INSIDE.
 */
static void matrix_inside(satc_frustum *fr, const double m[4][4], unsigned conv)
{
    double a[6][4], inv[3][3], F[3][3];
    matrix_planes(m, conv, a);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            F[i][k] = fr->frame[i][k];
    if (!inverse3(F[0], F[1], F[2], inv)) {
        fr->f_in = 0.0f;
        return;
    }
    /* f_in: the far plane against fr's edges. */
    const double sx[4] = {fr->x0, fr->x1, fr->x0, fr->x1}, sy[4] = {fr->y0, fr->y0, fr->y1, fr->y1};
    double h0, c0[3], fin = INFINITY;
    plane_in_frame(a[5], fr->origin, inv, &h0, c0);
    if (!(h0 > 0)) {
        fr->f_in = 0.0f;
        return;
    }
    for (int e = 0; e < 4; e++) {
        double g = c0[0] * sx[e] + c0[1] * sy[e] + c0[2];
        if (g < 0)
            fin = fmin(fin, h0 / -g * (1 - 0x1p-30));
    }
    if (fin < fr->f_in)
        fr->f_in = round_dir(fin, 0);
    /* tol_t: the least t whose region lies inside the other planes. */
    double h[5], c[5][3], slack[5];
    double Em = fabs(fr->origin[0]) + fabs(fr->origin[1]) + fabs(fr->origin[2]);
    for (int j = 0; j < 5; j++) {
        plane_in_frame(a[j], fr->origin, inv, &h[j], c[j]);
        slack[j] = 0x1p-40 * (fabs(h[j]) + (fabs(a[j][0]) + fabs(a[j][1]) + fabs(a[j][2])) * (1 + Em));
    }
    double t = fr->tol_t;
    if (!region_ok(fr, t, h, c, slack)) {
        double lo = t, hi = fmax(t, 0x1p-30 * (fr->n + Em));
        double cap = 0x1p-10 * (fr->n + (fr->f_in < INFINITY ? fr->f_in : 0) + Em);
        while (!region_ok(fr, hi, h, c, slack)) {
            lo = hi, hi *= 2;
            if (!(hi <= cap)) {
                fr->f_in = 0.0f;
                return;
            }
        }
        while (hi - lo > 0x1p-10 * hi) {
            double mid = 0.5 * (lo + hi);
            if (region_ok(fr, mid, h, c, slack))
                hi = mid;
            else
                lo = mid;
        }
        t = hi;
    }
    fr->tol_t = round_dir(t, 1);
}

satc_status satc_frustum_from_matrix(satc_frustum *out, const float m[16], unsigned conventions)
{
    if (!out || !m)
        return SATC_ERR_NULL;
    if (conventions & ~KNOWN_CONVENTIONS)
        return SATC_ERR_FLAGS;
    double r[4][4]; /* r[row][col] */
    int row_major = (conventions & SATC_MATRIX_ROW_MAJOR) != 0;
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) {
            float v = row_major ? m[i * 4 + j] : m[j * 4 + i];
            if (!isfinite(v))
                return SATC_ERR_NONFINITE;
            r[i][j] = v;
        }
    }
    double m0[4][4];
    memcpy(m0, r, sizeof m0);
    recovered rc;
    int ortho = r[3][0] == 0.0 && r[3][1] == 0.0 && r[3][2] == 0.0;
    satc_status s = ortho ? orthographic(r, conventions, &rc) : perspective(r, conventions, &rc);
    if (s != SATC_OK)
        return s;

    satc_camera cam;
    memset(&cam, 0, sizeof cam);
    if (ortho)
        to_float3(cam.origin, rc.E);
    else
        apex_back(&rc, m0, conventions, cam.origin);
    to_float3(cam.left, rc.L);
    to_float3(cam.up, rc.U);
    to_float3(cam.dir, rc.D);
    cam.l0 = narrow(rc.l0), cam.l1 = narrow(rc.l1);
    cam.u0 = narrow(rc.u0), cam.u1 = narrow(rc.u1);
    cam.n = narrow(rc.n), cam.f = narrow(rc.f);
    cam.orthographic = ortho;
    /* The recovered camera's own status first (near > far, ...). */
    satc_frustum tmp;
    s = satc_frustum_from_camera(&tmp, &cam);
    if (s != SATC_OK)
        return s;
    double far_in;
    s = contain(&cam, m0, conventions, &far_in);
    if (s != SATC_OK)
        return s;
    s = satc_frustum_from_camera(&tmp, &cam);
    if (s != SATC_OK)
        return s;
    /* SATC_INSIDE is decided against f_in: the far vertices' least depth,
     * lowered by the solve's rounding (CONTAIN_REL, as for the bounds) and
     * by what the frustum's wider sides let a volume reach beyond the
     * matrix's edges (the tilt, at most (f - far_in), times their relative
     * lean; 2^-20 covers it), rounded down. */
    if (!tmp.infinite) {
        double slack = (double)tmp.f - far_in;
        double fi = far_in * (1 - CONTAIN_REL) - 0x1p-20 * (slack > 0 ? slack : 0);
        float v = round_dir(fi, 0);
        tmp.f_in = v < tmp.f ? v : tmp.f;
    }
    if (!ortho)
        matrix_inside(&tmp, m0, conventions);
    *out = tmp;
    return SATC_OK;
}
