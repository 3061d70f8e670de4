/*
 * The oracle: polygon clipping instead of separating axes (the method of
 * Hoff, completed: every box face is clipped against the frustum,
 * which covers box edges crossing frustum faces, plus a containment test
 * for a frustum lying inside the box).
 *
 * Coordinates are relative to the camera origin E. A plane is N.P >= c
 * (closed half-space); perspective side planes use unnormalised normals
 * n L - l0 D etc. (the sign is all that matters), so no division by n.
 */
#include <math.h>

#include "oracle.h"

typedef struct orc_plane {
    double nx, ny, nz, c;
} orc_plane;

typedef struct orc_frustum {
    orc_plane p[6];
    int count;
    double corner[3]; /* a point of the frustum: the (l0, u0) near corner */
} orc_frustum;

static double eval(const orc_plane *p, const double *v)
{
    return p->nx * v[0] + p->ny * v[1] + p->nz * v[2] - p->c;
}

static void set_plane(orc_plane *p, const double *a, double sa, const double *b, double sb, double c)
{
    p->nx = sa * a[0] + sb * b[0];
    p->ny = sa * a[1] + sb * b[1];
    p->nz = sa * a[2] + sb * b[2];
    p->c = c;
}

static void build_frustum(const satc_camera *cam, orc_frustum *o)
{
    double L[3], U[3], D[3];
    for (int k = 0; k < 3; k++) {
        L[k] = cam->left[k];
        U[k] = cam->up[k];
        D[k] = cam->dir[k];
    }
    double n = cam->n, f = cam->f;
    double l0 = cam->l0, l1 = cam->l1, u0 = cam->u0, u1 = cam->u1;
    if (cam->orthographic) {
        /* The box l0 <= L.P <= l1, u0 <= U.P <= u1, n <= D.P <= f. */
        set_plane(&o->p[0], L, 1, L, 0, l0);
        set_plane(&o->p[1], L, -1, L, 0, -l1);
        set_plane(&o->p[2], U, 1, U, 0, u0);
        set_plane(&o->p[3], U, -1, U, 0, -u1);
        set_plane(&o->p[4], D, 1, D, 0, n);
        set_plane(&o->p[5], D, -1, D, 0, -f);
        o->count = 6;
    } else {
        /* L.P / D.P >= l0 / n  <=>  (n L - l0 D).P >= 0 (D.P >= n > 0). */
        set_plane(&o->p[0], L, n, D, -l0, 0);
        set_plane(&o->p[1], L, -n, D, l1, 0);
        set_plane(&o->p[2], U, n, D, -u0, 0);
        set_plane(&o->p[3], U, -n, D, u1, 0);
        set_plane(&o->p[4], D, 1, D, 0, n);
        o->count = 5;
        if (!isinf(f)) {
            set_plane(&o->p[5], D, -1, D, 0, -f);
            o->count = 6;
        }
    }
    for (int k = 0; k < 3; k++)
        o->corner[k] = l0 * L[k] + u0 * U[k] + n * D[k];
}

/* The 8 vertices c + sum s_j ext_j A_j (c camera-relative); vertex v has
 * sign s_j = +1 when bit j of v is set. */
static void box_vertices(const double c[3], const double ext[3], const double ax[3][3],
                         double v[8][3])
{
    for (int i = 0; i < 8; i++) {
        for (int k = 0; k < 3; k++) {
            double x = c[k];
            for (int j = 0; j < 3; j++)
                x += ((i >> j) & 1 ? ext[j] : -ext[j]) * ax[j][k];
            v[i][k] = x;
        }
    }
}

/* Sutherland-Hodgman: clips a convex (possibly degenerate) polygon against
 * one closed half-space; returns the count out. Each cut at most doubles
 * the count (rounding can add sign changes), so 4 * 2^6 always fits. */
#define MAXV 256
static int clip(const orc_plane *p, double in[][3], int n, double out[][3])
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        const double *a = in[i], *b = in[(i + 1) % n];
        double da = eval(p, a), db = eval(p, b);
        if (da >= 0) {
            for (int k = 0; k < 3; k++)
                out[m][k] = a[k];
            m++;
        }
        if ((da >= 0) != (db >= 0)) {
            /* The crossing point lies strictly between a and b. */
            double t = da / (da - db);
            for (int k = 0; k < 3; k++)
                out[m][k] = a[k] + t * (b[k] - a[k]);
            m++;
        }
    }
    return m;
}

/* Faces of the box as vertex indices (bit j = sign along A_j). */
static const int faces[6][4] = {
    {0, 2, 6, 4}, {1, 3, 7, 5}, /* s0 = -1, +1 */
    {0, 1, 5, 4}, {2, 3, 7, 6}, /* s1 */
    {0, 1, 3, 2}, {4, 5, 7, 6}, /* s2 */
};

/* Is point q (camera-relative) in the parallelepiped C + sum t_j ext_j A_j,
 * |t_j| <= 1? Solved by Cramer's rule; flat boxes contain no frustum. */
static int point_in_box(const double c[3], const double ext[3], const double ax[3][3],
                        const double *q)
{
    double m[3][3], r[3];
    for (int j = 0; j < 3; j++) {
        if (!(ext[j] > 0))
            return 0;
        for (int k = 0; k < 3; k++)
            m[k][j] = ext[j] * ax[j][k];
    }
    for (int k = 0; k < 3; k++)
        r[k] = q[k] - c[k];
    double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                 m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                 m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    if (!(fabs(det) > 0))
        return 0;
    for (int j = 0; j < 3; j++) {
        double a[3][3];
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 3; i++)
                a[k][i] = i == j ? r[k] : m[k][i];
        double dj = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                    a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                    a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
        if (!(fabs(dj) <= fabs(det)))
            return 0;
    }
    return 1;
}

/* The parallelepiped c + sum s_j ext_j A_j, |s_j| <= 1, c camera-relative. */
static int intersects(const satc_camera *cam, const double c[3], const double ext[3],
                      const double ax[3][3])
{
    orc_frustum fr;
    double v[8][3], val[6][8];
    build_frustum(cam, &fr);
    box_vertices(c, ext, ax, v);

    /* Quick answers: all vertices outside one plane, or one vertex inside all. */
    unsigned in_all = 0xff;
    for (int p = 0; p < fr.count; p++) {
        unsigned in = 0;
        for (int i = 0; i < 8; i++) {
            val[p][i] = eval(&fr.p[p], v[i]);
            in |= (unsigned)(val[p][i] >= 0) << i;
        }
        if (!in)
            return 0;
        in_all &= in;
    }
    if (in_all)
        return 1;

    for (int fc = 0; fc < 6; fc++) {
        double bufa[MAXV][3], bufb[MAXV][3];
        double(*a)[3] = bufa, (*b)[3] = bufb, (*t)[3];
        int m = 4;
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < 3; k++)
                a[i][k] = v[faces[fc][i]][k];
        for (int p = 0; p < fr.count && m > 0; p++) {
            m = clip(&fr.p[p], a, m, b);
            t = a, a = b, b = t;
        }
        if (m > 0)
            return 1;
    }
    return point_in_box(c, ext, ax, fr.corner);
}

/* A float box as the doubles the oracle works in. */
static void box_doubles(const satc_camera *cam, const satc_obb *b, double grow, double c[3],
                        double ext[3], double ax[3][3])
{
    for (int k = 0; k < 3; k++) {
        c[k] = (double)b->center[k] - (double)cam->origin[k];
        ext[k] = (double)b->extent[k] + grow;
        for (int j = 0; j < 3; j++)
            ax[j][k] = b->axis[j][k];
    }
}

int orc_intersects(const satc_camera *cam, const satc_obb *box, double grow)
{
    double c[3], ext[3], ax[3][3];
    box_doubles(cam, box, grow, c, ext, ax);
    return intersects(cam, c, ext, ax);
}

int orc_intersects_pp(const satc_camera *cam, const double center[3], const double ext[3],
                      const double axis[3][3])
{
    double c[3];
    for (int k = 0; k < 3; k++)
        c[k] = center[k] - (double)cam->origin[k];
    return intersects(cam, c, ext, axis);
}

int orc_inside(const satc_camera *cam, const satc_obb *box)
{
    orc_frustum fr;
    double v[8][3], c[3], ext[3], ax[3][3];
    build_frustum(cam, &fr);
    box_doubles(cam, box, 0.0, c, ext, ax);
    box_vertices(c, ext, ax, v);
    for (int p = 0; p < fr.count; p++)
        for (int i = 0; i < 8; i++)
            if (!(eval(&fr.p[p], v[i]) >= 0))
                return 0;
    return 1;
}

double orc_band(const satc_camera *cam, const satc_obb *box)
{
    double c[3], s = 0, K, F;
    for (int k = 0; k < 3; k++)
        c[k] = (double)box->center[k] - (double)cam->origin[k];
    const float *fr[3] = {cam->left, cam->up, cam->dir};
    for (int r = 0; r < 3; r++)
        s += fabs(fr[r][0] * c[0] + fr[r][1] * c[1] + fr[r][2] * c[2]);
    for (int j = 0; j < 3; j++)
        s += fabs((double)box->extent[j]);
    double n = cam->n;
    if (cam->orthographic) {
        double lo[3] = {cam->l0, cam->u0, cam->n}, hi[3] = {cam->l1, cam->u1, cam->f};
        K = 1;
        F = 0;
        for (int k = 0; k < 3; k++)
            F += fabs(0.5 * (lo[k] + hi[k])) + fabs(0.5 * (hi[k] - lo[k]));
    } else {
        K = 1 + fmax(fabs(cam->l0), fabs(cam->l1)) / n + fmax(fabs(cam->u0), fabs(cam->u1)) / n;
        F = n * K;
    }
    return SATC_EXACT_BAND * K * (s + F);
}

int orc_intersects_at(const satc_camera *cam, const double off[3], const satc_obb *box, double grow)
{
    double c[3], ext[3], ax[3][3];
    box_doubles(cam, box, grow, c, ext, ax);
    for (int k = 0; k < 3; k++)
        c[k] = (double)box->center[k] + off[k];
    return intersects(cam, c, ext, ax);
}
