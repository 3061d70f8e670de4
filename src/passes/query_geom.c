/*
 * The exact half of the sphere and ray queries (queries.c runs them): a candidate cull on the orthographic
 * machinery every path already has (the sphere's bounding cube, the ray's
 * segment, volumes/query_volumes.c), then each candidate refined exactly in double,
 * in the scalar code below that every path shares, so every path gives
 * the same bits as the scalar reference by construction.
 *
 *  - Sphere against a box: RTR 22.13.2 (Arvo: the point of the box
 *    closest to the sphere's center, compared with r), generalised from
 *    an AABB to any parallelepiped c + H s, |s_j| <= 1: the closest point
 *    by active sets, and the decision taken on a lower bound of the
 *    distance (the separating plane through that point, and the face
 *    normals), so no rounding of the solver can drop a touching box.
 *    Sphere against a sphere: RTR 22.13.1 (centers within r1 + r2).
 *  - Ray against a box: RTR 22.7, the slab method (Kay-Kajiya): the ray
 *    is clipped by each slab |N.(x - c)| <= sum_k |N.H_k| of the box,
 *    the entry parameter is the largest entry, a hit when it does not
 *    pass the smallest exit. For a parallelepiped the slabs are those of
 *    its face normals H_j x H_k; flat and thinner ones add the normals
 *    of their edges within their plane, their own axes and the world
 *    axes (every slab contains the box, so extra slabs only tighten).
 *    Ray against a sphere: the chord around the foot of the
 *    perpendicular from the center.
 *
 * Every test runs in double on the stored floats and grows the volume by
 * SATC_QUERY_TOLERANCE times the magnitudes involved, far beyond the
 * double rounding (below 2^-50 of them), so touching is always a hit.
 */
#include <math.h>
#include <string.h>

#include "../core/volume_d.h"
#include "passes.h"

/* ------------------------------------------------------------------ */
/* Vectors in double                                                    */
/* ------------------------------------------------------------------ */

/* Half width of the volume along N: sum_k |N.H_k| (its support). */
static double support(const double N[3], const double H[3][3])
{
    return fabs(satc_dot3_d(N, H[0])) + fabs(satc_dot3_d(N, H[1])) + fabs(satc_dot3_d(N, H[2]));
}

int satc_vol_finite(const satc_vol_d *v)
{
    double s = v->cmag + v->r;
    for (int j = 0; j < 3; j++)
        s += v->c[j] + satc_norm1_d(v->H[j]);
    return isfinite(s);
}

/*
 * The slab normals of the parallelepiped H (up to 27; zero ones left
 * out): the face normals H_j x H_k, which bound a full box; the normals
 * of its edges in its plane (H_j x H_k) x H_l, for a flat one; its axes
 * H_j and the normals e_m x H_j across them, for one along a line; and
 * the world axes e_m, for a point.
 */
static int slab_normals(const double H[3][3], double N[27][3])
{
    int n = 0;
    double F[3][3];
    satc_cross3_d(H[1], H[2], F[0]);
    satc_cross3_d(H[2], H[0], F[1]);
    satc_cross3_d(H[0], H[1], F[2]);
    for (int j = 0; j < 3; j++)
        memcpy(N[n++], F[j], sizeof N[0]);
    for (int j = 0; j < 3; j++)
        for (int l = 0; l < 3; l++)
            satc_cross3_d(F[j], H[l], N[n++]);
    for (int j = 0; j < 3; j++) {
        memcpy(N[n++], H[j], sizeof N[0]);
        for (int m = 0; m < 3; m++) {
            double e[3] = {0, 0, 0};
            e[m] = 1;
            satc_cross3_d(e, H[j], N[n++]);
        }
    }
    for (int m = 0; m < 3; m++) {
        N[n][0] = N[n][1] = N[n][2] = 0;
        N[n++][m] = 1;
    }
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (satc_norm1_d(N[i]) > 0)
            memcpy(N[kept++], N[i], sizeof N[0]);
    }
    return kept;
}

/* ------------------------------------------------------------------ */
/* Sphere against a volume (RTR 22.13.2, 22.13.1)                       */
/* ------------------------------------------------------------------ */

/*
 * Coordinates s in [-1, 1]^3 of the point of the parallelepiped H
 * closest to w (relative to its center): every choice of coordinates held
 * at -1 or +1 (the rest free) is a face, an edge, a vertex or the
 * interior; its least-squares point, when it lies in the box, is a
 * candidate, and the nearest candidate is the closest point (27 cases;
 * singular ones are skipped: a flat direction always has a lower-
 * dimensional case with the same distance).
 */
static void closest_point(const double H[3][3], const double w[3], double best_s[3])
{
    double best = INFINITY;
    best_s[0] = best_s[1] = best_s[2] = 0;
    for (int code = 0; code < 27; code++) {
        int sig[3] = {code % 3, code / 3 % 3, code / 9}; /* 0 free, 1 at -1, 2 at +1 */
        double s[3], r[3];
        int freej[3], nf = 0;
        memcpy(r, w, sizeof r);
        for (int j = 0; j < 3; j++) {
            if (sig[j] == 0) {
                freej[nf++] = j;
                s[j] = 0;
            } else {
                s[j] = sig[j] == 1 ? -1.0 : 1.0;
                for (int k = 0; k < 3; k++)
                    r[k] -= s[j] * H[j][k];
            }
        }
        if (nf == 1) {
            const double *a = H[freej[0]];
            double g = satc_dot3_d(a, a);
            if (!(g > 0))
                continue;
            s[freej[0]] = satc_dot3_d(a, r) / g;
        } else if (nf == 2) {
            const double *a = H[freej[0]], *b = H[freej[1]];
            double aa = satc_dot3_d(a, a), ab = satc_dot3_d(a, b), bb = satc_dot3_d(b, b), ar = satc_dot3_d(a, r), br = satc_dot3_d(b, r);
            double det = aa * bb - ab * ab;
            if (!(det > 0))
                continue;
            s[freej[0]] = (ar * bb - br * ab) / det;
            s[freej[1]] = (aa * br - ab * ar) / det;
        } else if (nf == 3) {
            double X[3][3];
            satc_cross3_d(H[1], H[2], X[0]);
            satc_cross3_d(H[2], H[0], X[1]);
            satc_cross3_d(H[0], H[1], X[2]);
            double det = satc_dot3_d(H[0], X[0]);
            if (det == 0 || !isfinite(det))
                continue;
            for (int j = 0; j < 3; j++)
                s[j] = satc_dot3_d(w, X[j]) / det;
        }
        int inside = 1;
        for (int j = 0; j < 3; j++) {
            if (!(fabs(s[j]) <= 1.0 + 0x1p-30))
                inside = 0;
            s[j] = s[j] < -1.0 ? -1.0 : s[j] > 1.0 ? 1.0 : s[j];
        }
        if (!inside)
            continue;
        double m[3], d2;
        for (int k = 0; k < 3; k++)
            m[k] = w[k] - s[0] * H[0][k] - s[1] * H[1][k] - s[2] * H[2][k];
        d2 = satc_dot3_d(m, m);
        if (d2 < best) {
            best = d2;
            memcpy(best_s, s, sizeof s);
        }
    }
}

/* Lower bound of the distance from w to the volume along the direction
 * N (either sign): |N.w| - support, over |N|. */
static double lower_bound(const double N[3], const double w[3], const double H[3][3])
{
    double n2 = sqrt(satc_dot3_d(N, N));
    if (!(n2 > 0))
        return 0;
    return (fabs(satc_dot3_d(N, w)) - support(N, H)) / n2;
}

/* Sphere (center p, |p|_1 = pmag, radius r) against volume v: touching
 * (distance <= r) is always 1; 1 only within the band. *inside: the
 * volume lies inside the sphere with the tolerance to spare. */
int satc_sphere_vol_test(const double p[3], double pmag, double r, const satc_vol_d *v,
                         int want_inside, int *inside)
{
    double w[3];
    for (int k = 0; k < 3; k++)
        w[k] = p[k] - v->c[k];
    double lam = pmag + v->cmag + satc_norm1_d(w) + r;
    if (v->sphere) {
        lam += 2 * v->r;
        double tol = SATC_QUERY_TOLERANCE * lam, dist = sqrt(satc_dot3_d(w, w));
        *inside = dist + v->r <= r - tol;
        return dist <= r + v->r + tol;
    }
    for (int j = 0; j < 3; j++)
        lam += satc_norm1_d(v->H[j]);
    double tol = SATC_QUERY_TOLERANCE * lam, reach = r + tol;
    *inside = 0;
    /* The volume's center within reach: a hit at once. Else the face
     * normals: a box well apart along one is a miss at once. */
    double F[3];
    for (int j = 0; j < 3 && satc_dot3_d(w, w) > reach * reach; j++) {
        satc_cross3_d(v->H[(j + 1) % 3], v->H[(j + 2) % 3], F);
        if (lower_bound(F, w, v->H) > reach)
            return 0;
    }
    /* Arvo's point first (RTR 22.13.2: each coordinate clamped on its own
     * axis), the closest point when the axes are orthogonal: within
     * reach, a hit (a point of the volume that near); its separating
     * plane farther, a miss. Only what lies between (sheared boxes)
     * takes the active-set solver. */
    double s[3], m[3];
    for (int j = 0; j < 3; j++) {
        double g = satc_dot3_d(v->H[j], v->H[j]), x = g > 0 ? satc_dot3_d(w, v->H[j]) / g : 0;
        s[j] = x < -1.0 ? -1.0 : x > 1.0 ? 1.0 : x;
    }
    for (int pass = 0; pass < 2 && satc_dot3_d(w, w) > reach * reach; pass++) {
        if (pass)
            closest_point(v->H, w, s);
        for (int k = 0; k < 3; k++)
            m[k] = w[k] - s[0] * v->H[0][k] - s[1] * v->H[1][k] - s[2] * v->H[2][k];
        if (lower_bound(m, w, v->H) > reach)
            return 0;
        if (satc_dot3_d(m, m) <= reach * reach)
            break;
    }
    /* Inside: every vertex within r - tol of the center. */
    if (want_inside && r > tol) {
        double lim = (r - tol) * (r - tol);
        int in = 1;
        for (int vtx = 0; vtx < 8 && in; vtx++) {
            double q[3];
            for (int k = 0; k < 3; k++)
                q[k] = w[k] - ((vtx & 1) ? 1 : -1) * v->H[0][k] - ((vtx & 2) ? 1 : -1) * v->H[1][k] -
                       ((vtx & 4) ? 1 : -1) * v->H[2][k];
            in = satc_dot3_d(q, q) <= lim;
        }
        *inside = in;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Ray against a volume (RTR 22.7)                                      */
/* ------------------------------------------------------------------ */

/*
 * Ray o + t d, 0 <= t <= T (T may be +Inf), against volume v: 1 and the
 * entry parameter *tin (0 when o is in the volume) on a hit. Computed
 * about the foot tf of the perpendicular from the volume's center, so
 * the rounding is relative to the distances near the volume, not to T.
 */
int satc_ray_vol_test(const double o[3], double omag, const double d[3], double T,
                      const satc_vol_d *v, double *tin)
{
    double w0[3], w[3], A = satc_dot3_d(d, d), tf = 0;
    for (int k = 0; k < 3; k++)
        w0[k] = o[k] - v->c[k];
    if (A > 0)
        tf = -satc_dot3_d(w0, d) / A;
    for (int k = 0; k < 3; k++)
        w[k] = w0[k] + tf * d[k];
    double lam = omag + v->cmag + satc_norm1_d(w0) + fabs(tf) * satc_norm1_d(d) + satc_norm1_d(w);
    double lo = -tf, hi = T - tf; /* t - tf */
    if (v->sphere) {
        double R = v->r + SATC_QUERY_TOLERANCE * (lam + 2 * v->r);
        double h2 = satc_dot3_d(w, w);
        if (!(h2 <= R * R))
            return 0;
        if (A > 0) {
            double half = sqrt((R * R - h2) / A);
            lo = lo > -half ? lo : -half;
            hi = hi < half ? hi : half;
        }
    } else {
        double N[27][3];
        for (int j = 0; j < 3; j++)
            lam += satc_norm1_d(v->H[j]);
        int n = slab_normals(v->H, N);
        for (int i = 0; i < n && lo <= hi; i++) {
            double a = satc_dot3_d(N[i], w), b = satc_dot3_d(N[i], d);
            double R = support(N[i], v->H) + SATC_QUERY_TOLERANCE * satc_norm1_d(N[i]) * lam;
            if (b == 0) {
                if (!(fabs(a) <= R))
                    return 0;
                continue;
            }
            double u1 = (-R - a) / b, u2 = (R - a) / b;
            if (u1 > u2) {
                double x = u1;
                u1 = u2, u2 = x;
            }
            lo = lo > u1 ? lo : u1;
            hi = hi < u2 ? hi : u2;
        }
    }
    if (!(lo <= hi))
        return 0;
    double t = tf + lo;
    *tin = t > 0 ? t : 0;
    return 1;
}
