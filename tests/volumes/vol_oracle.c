/* See vol_oracle.h. */
#include <math.h>
#include <string.h>

#include "vol_oracle.h"

static unsigned long long rng = 0x2545f4914f6cdd1dull;
void vo_seed(unsigned long long s) { rng = s | 1; }
double vo_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53;
}

void vo_rotation(double a[3][3])
{
    double q[4], len = 0;
    for (int i = 0; i < 4; i++)
        q[i] = vo_rand() - 0.5, len += q[i] * q[i];
    len = sqrt(len);
    double x = q[0] / len, y = q[1] / len, z = q[2] / len, w = q[3] / len;
    double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
                      {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
                      {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)}};
    memcpy(a, m, sizeof m);
}

static void set_plane(vol *v, const double n[3], double d)
{
    for (int q = 0; q < 3; q++)
        v->p[v->n][q] = (float)n[q];
    v->p[v->n][3] = (float)d;
    v->n++;
}

/* Plane n.(x - c) + w >= 0 written as (n, w - n.c). */
static void plane_at(vol *v, const double n[3], const double c[3], double w)
{
    set_plane(v, n, w - (n[0] * c[0] + n[1] * c[1] + n[2] * c[2]));
}

static void far_point(double c[3], double far)
{
    for (int q = 0; q < 3; q++)
        c[q] = far * (vo_rand() - 0.5) + (vo_rand() - 0.5) * 4;
}

void vo_frustum(vol *v, satc_frustum *pf, double far, int drop_far)
{
    for (;;) {
        double a[3][3], c[3];
        vo_rotation(a);
        far_point(c, far);
        float eye[3], dir[3], up[3];
        for (int q = 0; q < 3; q++)
            eye[q] = (float)c[q], dir[q] = (float)a[2][q], up[q] = (float)a[1][q];
        float fovy = (float)(0.4 + vo_rand()), aspect = (float)(0.6 + vo_rand() * 1.4);
        float n = (float)(0.1 + vo_rand()), f = (float)(20 + vo_rand() * 60);
        if (satc_frustum_perspective(pf, eye, dir, up, fovy, aspect, n, f) != SATC_OK)
            continue;
        memset(v, 0, sizeof *v);
        v->name = drop_far ? "frustum without far" : "frustum as 6 planes";
        v->bounded = !drop_far;
        const float *E = pf->origin, *L = pf->frame[0], *U = pf->frame[1], *D = pf->frame[2];
        double e[3] = {E[0], E[1], E[2]}, m[3];
        for (int q = 0; q < 3; q++)
            m[q] = D[q];
        plane_at(v, m, e, -(double)pf->n);
        if (!drop_far) {
            for (int q = 0; q < 3; q++)
                m[q] = -(double)D[q];
            plane_at(v, m, e, pf->f);
        }
        const double s[4] = {pf->x1, pf->x0, pf->y1, pf->y0};
        for (int k = 0; k < 4; k++) {
            const float *A = k < 2 ? L : U;
            double sg = (k & 1) ? 1.0 : -1.0; /* x <= x1 z: x1 z - x >= 0 */
            for (int q = 0; q < 3; q++)
                m[q] = sg * ((double)A[q] - s[k] * D[q]);
            plane_at(v, m, e, 0.0);
        }
        return;
    }
}

void vo_box(vol *v, double far)
{
    double a[3][3], c[3];
    memset(v, 0, sizeof *v);
    v->name = "box as 6 planes";
    v->bounded = 1;
    vo_rotation(a);
    far_point(c, far);
    for (int j = 0; j < 3; j++) {
        double e = 0.3 + 3 * vo_rand(), m[3];
        plane_at(v, a[j], c, e);
        for (int q = 0; q < 3; q++)
            m[q] = -a[j][q];
        plane_at(v, m, c, e);
    }
}

void vo_polytope(vol *v, int k, double far)
{
    double c[3];
    memset(v, 0, sizeof *v);
    v->name = "random polytope";
    v->bounded = -1; /* whatever the normals give */
    far_point(c, far);
    for (int i = 0; i < k; i++) {
        double m[3], len = 0;
        for (int q = 0; q < 3; q++)
            m[q] = vo_rand() - 0.5, len += m[q] * m[q];
        len = sqrt(len);
        for (int q = 0; q < 3; q++)
            m[q] /= len;
        /* Unnormalised coefficients on purpose: the constructor scales. */
        double sc = 0.25 + 4 * vo_rand();
        for (int q = 0; q < 3; q++)
            m[q] *= sc;
        plane_at(v, m, c, sc * (0.5 + 2.5 * vo_rand()));
    }
}

void vo_halfspace(vol *v, double far)
{
    double a[3][3], c[3];
    memset(v, 0, sizeof *v);
    v->name = "half-space";
    vo_rotation(a);
    far_point(c, far);
    plane_at(v, a[0], c, 0.0);
}

void vo_wedge(vol *v, double far, int slab)
{
    double a[3][3], c[3], m[3];
    memset(v, 0, sizeof *v);
    v->name = slab ? "slab" : "wedge";
    vo_rotation(a);
    far_point(c, far);
    plane_at(v, a[0], c, 1.0);
    for (int q = 0; q < 3; q++)
        m[q] = slab ? -a[0][q] : -0.6 * a[0][q] + 0.8 * a[1][q];
    plane_at(v, m, c, 1.0);
}

void vo_plane(const vol *v, int k, double g, double n[3], double *d)
{
    const float *p = v->p[k];
    double len = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
    for (int q = 0; q < 3; q++)
        n[q] = p[q] / len;
    *d = p[3] / len + v->margin + g;
}

void vo_interval(const vol *v, int k, const dbox *b, double *lo, double *hi)
{
    double n[3], d;
    vo_plane(v, k, 0.0, n, &d);
    double mid = n[0] * b->c[0] + n[1] * b->c[1] + n[2] * b->c[2] + d, r = 0;
    for (int j = 0; j < 3; j++)
        r += fabs(n[0] * b->h[j][0] + n[1] * b->h[j][1] + n[2] * b->h[j][2]);
    *lo = mid - r, *hi = mid + r;
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void cross3(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1], c[1] = a[2] * b[0] - a[0] * b[2], c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Rows A s + c >= 0 over s in R^3: the 6 box rows |s_j| <= 1 and one row
 * per plane. Feasible iff some vertex (three tight rows) satisfies all. */
int vo_touch(const vol *v, const dbox *b, double g)
{
    enum { MAXR = 6 + SATC_MAX_PLANES };
    double A[MAXR][3], c[MAXR], scale[MAXR];
    int nr = 0, all_in = 1;
    for (int j = 0; j < 3; j++) {
        for (int sg = -1; sg <= 1; sg += 2) {
            memset(A[nr], 0, sizeof A[nr]);
            A[nr][j] = sg;
            c[nr] = 1, scale[nr] = 2;
            nr++;
        }
    }
    for (int k = 0; k < v->n; k++) {
        double n[3], d;
        vo_plane(v, k, g, n, &d);
        double r = 0;
        for (int j = 0; j < 3; j++) {
            A[nr][j] = dot3(n, b->h[j]);
            r += fabs(A[nr][j]);
        }
        c[nr] = dot3(n, b->c) + d; /* about the box center: no far-world scale below */
        if (c[nr] + r < 0)
            return 0; /* one plane separates */
        all_in &= c[nr] - r >= 0;
        scale[nr] = r + fabs(c[nr]);
        nr++;
    }
    if (all_in)
        return 1;
    for (int i = 0; i < nr; i++) {
        for (int j = i + 1; j < nr; j++) {
            double ij[3];
            cross3(A[i], A[j], ij);
            for (int k = j + 1; k < nr; k++) {
                double det = dot3(A[k], ij);
                double na = sqrt(dot3(A[i], A[i]) * dot3(A[j], A[j]) * dot3(A[k], A[k]));
                if (!(fabs(det) > 1e-12 * na))
                    continue;
                double jk[3], ki[3], s[3];
                cross3(A[j], A[k], jk);
                cross3(A[k], A[i], ki);
                for (int q = 0; q < 3; q++)
                    s[q] = -(c[i] * jk[q] + c[j] * ki[q] + c[k] * ij[q]) / det;
                int ok = 1;
                for (int r = 0; r < nr && ok; r++)
                    ok = dot3(A[r], s) + c[r] >= -1e-9 * scale[r];
                if (ok)
                    return 1;
            }
        }
    }
    return 0;
}
