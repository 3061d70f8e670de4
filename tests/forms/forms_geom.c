/* Double-precision answers for the form tests (see forms_geom.h). */
#include <math.h>

#include "forms_geom.h"
#include "oracle.h"
#include "vec3d.h"

/* Unit inward normals and offsets of the frustum's planes, N.P >= c, P
 * relative to the camera origin; returns their number (5 or 6). */
static int planes(const satc_camera *cam, double nrm[6][3], double off[6])
{
    double L[3], U[3], D[3];
    for (int k = 0; k < 3; k++)
        L[k] = cam->left[k], U[k] = cam->up[k], D[k] = cam->dir[k];
    double n = cam->n, lo[2] = {cam->l0, cam->u0}, hi[2] = {cam->l1, cam->u1};
    const double *ax[2] = {L, U};
    int m = 0;
    for (int a = 0; a < 2; a++) {
        for (int s = 0; s < 2; s++) {
            double b = s ? hi[a] : lo[a], sg = s ? -1.0 : 1.0;
            for (int k = 0; k < 3; k++) /* ortho: sg ax; perspective: sg (n ax - b D) */
                nrm[m][k] = cam->orthographic ? sg * ax[a][k] : sg * (n * ax[a][k] - b * D[k]);
            off[m] = cam->orthographic ? sg * b : 0.0;
            double l = sqrt(dot(nrm[m], nrm[m]));
            for (int k = 0; k < 3; k++)
                nrm[m][k] /= l;
            off[m] /= l;
            m++;
        }
    }
    for (int k = 0; k < 3; k++)
        nrm[m][k] = D[k], nrm[m + 1][k] = -D[k];
    off[m] = n, off[m + 1] = -(double)cam->f;
    return isinf(cam->f) ? m + 1 : m + 2;
}

static void rel(const satc_camera *cam, const double p[3], double q[3])
{
    for (int k = 0; k < 3; k++)
        q[k] = p[k] - (double)cam->origin[k];
}

int fg_meets(const satc_camera *cam, const fg_vol *v, double grow)
{
    if (v->sphere)
        return fg_point_dist(cam, v->c) <= v->r + grow;
    double ext[3] = {1, 1, 1}, ax[3][3];
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
            ax[j][k] = v->h[j][k];
    if (grow > 0) {
        /* Each face pair moved out by grow: the slabs' intersection holds
         * the volume grown by a ball. A flat volume has no such slabs: its
         * bounding box grown by grow holds it instead. */
        int flat = 0;
        for (int j = 0; j < 3; j++) {
            double c[3];
            cross(v->h[(j + 1) % 3], v->h[(j + 2) % 3], c);
            double w = fabs(dot(v->h[j], c)) / sqrt(dot(c, c));
            if (!(w > 0) || !isfinite(w))
                flat = 1;
            ext[j] = 1 + grow / w;
        }
        if (flat) {
            for (int j = 0; j < 3; j++) {
                ext[j] = grow;
                for (int k = 0; k < 3; k++) {
                    ax[j][k] = j == k;
                    ext[j] += fabs(v->h[k][j]);
                }
            }
        }
    }
    return orc_intersects_pp(cam, v->c, ext, ax);
}

/* Distance from q to segment [a, b]. */
static double seg_dist(const double q[3], const double a[3], const double b[3])
{
    double ab[3], aq[3];
    for (int k = 0; k < 3; k++)
        ab[k] = b[k] - a[k], aq[k] = q[k] - a[k];
    double l2 = dot(ab, ab), t = l2 > 0 ? dot(aq, ab) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = aq[k] - t * ab[k];
    return sqrt(dot(d, d));
}

/* Distance from q to the convex quad a b c d (in order). */
static double quad_dist(const double q[3], const double *v[4])
{
    double e0[3], e1[3], nrm[3];
    for (int k = 0; k < 3; k++)
        e0[k] = v[2][k] - v[0][k], e1[k] = v[3][k] - v[1][k];
    cross(e0, e1, nrm);
    double l = sqrt(dot(nrm, nrm));
    int pos = 0, neg = 0;
    for (int i = 0; i < 4 && l > 0; i++) {
        double ed[3], qa[3], c[3];
        for (int k = 0; k < 3; k++)
            ed[k] = v[(i + 1) % 4][k] - v[i][k], qa[k] = q[k] - v[i][k];
        cross(ed, qa, c);
        double s = dot(c, nrm);
        pos |= s > 0, neg |= s < 0;
    }
    if (l > 0 && !(pos && neg)) { /* the projection falls inside the face */
        double qa[3];
        for (int k = 0; k < 3; k++)
            qa[k] = q[k] - v[0][k];
        return fabs(dot(qa, nrm)) / l;
    }
    double best = INFINITY;
    for (int i = 0; i < 4; i++) {
        double d = seg_dist(q, v[i], v[(i + 1) % 4]);
        best = d < best ? d : best;
    }
    return best;
}

double fg_point_dist(const satc_camera *cam, const double p[3])
{
    double q[3], nrm[6][3], off[6];
    rel(cam, p, q);
    int np = planes(cam, nrm, off), in = 1;
    for (int i = 0; i < np; i++)
        in &= dot(nrm[i], q) >= off[i];
    if (in)
        return 0;
    /* Vertices x L + y U + d D; an infinite far is cut where no frustum
     * point can be nearer to q than the near corner is. */
    double L[3], U[3], D[3], corner[3];
    for (int k = 0; k < 3; k++)
        L[k] = cam->left[k], U[k] = cam->up[k], D[k] = cam->dir[k];
    double n = cam->n, f = cam->f;
    for (int k = 0; k < 3; k++)
        corner[k] = cam->l0 * L[k] + cam->u0 * U[k] + n * D[k];
    if (isinf(f)) {
        double dq[3];
        for (int k = 0; k < 3; k++)
            dq[k] = q[k] - corner[k];
        f = fabs(dot(q, D)) + sqrt(dot(dq, dq)) + n + 1;
    }
    double vert[8][3];
    for (int i = 0; i < 8; i++) {
        double d = i & 4 ? f : n, s = cam->orthographic ? 1 : d / n;
        double x = (i & 1 ? cam->l1 : cam->l0) * s, y = (i & 2 ? cam->u1 : cam->u0) * s;
        for (int k = 0; k < 3; k++)
            vert[i][k] = x * L[k] + y * U[k] + d * D[k];
    }
    static const int face[6][4] = {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 2, 6, 4},
                                   {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 3, 7, 6}};
    double best = INFINITY;
    for (int fc = 0; fc < 6; fc++) {
        const double *v[4] = {vert[face[fc][0]], vert[face[fc][1]], vert[face[fc][2]],
                              vert[face[fc][3]]};
        double d = quad_dist(q, v);
        best = d < best ? d : best;
    }
    return best;
}

double fg_band(const satc_camera *cam, const fg_vol *v)
{
    double q[3], s = 0x1p-100, K, F = 0;
    const float *fr[3] = {cam->left, cam->up, cam->dir};
    rel(cam, v->c, q);
    for (int r = 0; r < 3; r++) {
        double row[3] = {fr[r][0], fr[r][1], fr[r][2]};
        s += fabs(dot(row, q));
        for (int j = 0; j < 3 && !v->sphere; j++)
            s += fabs(dot(row, v->h[j]));
    }
    if (v->sphere)
        s += 2 * v->r;
    if (cam->orthographic) {
        double lo[3] = {cam->l0, cam->u0, cam->n}, hi[3] = {cam->l1, cam->u1, cam->f};
        K = 1;
        for (int k = 0; k < 3; k++)
            F += fabs(0.5 * (lo[k] + hi[k])) + fabs(0.5 * (hi[k] - lo[k]));
    } else {
        double n = cam->n;
        K = 1 + fmax(fabs(cam->l0), fabs(cam->l1)) / n + fmax(fabs(cam->u0), fabs(cam->u1)) / n;
        F = n * K;
    }
    return SATC_EXACT_BAND * K * (s + F);
}

/* Support radius of the volume along unit normal nrm. */
static double radius(const fg_vol *v, const double nrm[3])
{
    if (v->sphere)
        return v->r;
    return fabs(dot(nrm, v->h[0])) + fabs(dot(nrm, v->h[1])) + fabs(dot(nrm, v->h[2]));
}

double fg_plane_sep(const satc_camera *cam, const fg_vol *v)
{
    double q[3], nrm[6][3], off[6], sep = -INFINITY;
    rel(cam, v->c, q);
    int np = planes(cam, nrm, off);
    for (int i = 0; i < np; i++) {
        double s = off[i] - dot(nrm[i], q) - radius(v, nrm[i]);
        sep = s > sep ? s : sep;
    }
    return sep;
}

int fg_inside(const satc_camera *cam, const fg_vol *v)
{
    double q[3], nrm[6][3], off[6];
    rel(cam, v->c, q);
    int np = planes(cam, nrm, off);
    for (int i = 0; i < np; i++)
        if (!(dot(nrm[i], q) - radius(v, nrm[i]) >= off[i]))
            return 0;
    return 1;
}
