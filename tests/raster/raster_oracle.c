/* The rasterizer's oracle (raster_oracle.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raster_oracle.h"

static double det3(const double m[3][3])
{
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

/* Inverse by cofactors; 0 when singular. */
static int inv3(const double m[3][3], double o[3][3])
{
    double d = det3(m);
    if (d == 0 || !isfinite(d))
        return 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;
            o[r][c] = (m[r1][c1] * m[r2][c2] - m[r1][c2] * m[r2][c1]) / d;
        }
    return 1;
}

void ro_view_init(ro_view *rv, const satc_frustum *f, uint32_t width, uint32_t height)
{
    double F[3][3];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            F[r][c] = f->frame[r][c];
    rv->f = f;
    rv->width = width;
    rv->height = height;
    inv3(F, rv->Finv);
}

static void mulv(const double m[3][3], const double x[3], double o[3])
{
    for (int r = 0; r < 3; r++)
        o[r] = m[r][0] * x[0] + m[r][1] * x[1] + m[r][2] * x[2];
}

/* Ray O + t g through texel point (u, v), t the view depth. */
static void ray(const ro_view *rv, double u, double v, double O[3], double g[3])
{
    const satc_frustum *f = rv->f;
    double a = (double)f->x1 - ((double)f->x1 - (double)f->x0) * u / rv->width;
    double b = (double)f->y0 + ((double)f->y1 - (double)f->y0) * v / rv->height;
    if (f->kind == SATC_FRUSTUM_PERSPECTIVE) {
        double d[3] = {a, b, 1};
        mulv(rv->Finv, d, g);
        for (int k = 0; k < 3; k++)
            O[k] = f->origin[k];
    } else {
        double d[3] = {a, b, 0}, z[3] = {0, 0, 1}, o[3];
        mulv(rv->Finv, d, o);
        mulv(rv->Finv, z, g);
        for (int k = 0; k < 3; k++)
            O[k] = f->origin[k] + o[k];
    }
}

/* Moller-Trumbore, both sides, inclusive edges: parameter or +Inf. */
static double hit_tri(const double O[3], const double g[3], const double v[3][3], double n)
{
    double e1[3], e2[3], p[3], s[3], q[3];
    for (int k = 0; k < 3; k++)
        e1[k] = v[1][k] - v[0][k], e2[k] = v[2][k] - v[0][k], s[k] = O[k] - v[0][k];
    p[0] = g[1] * e2[2] - g[2] * e2[1];
    p[1] = g[2] * e2[0] - g[0] * e2[2];
    p[2] = g[0] * e2[1] - g[1] * e2[0];
    double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (det == 0 || !isfinite(det))
        return INFINITY;
    double bu = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det;
    q[0] = s[1] * e1[2] - s[2] * e1[1];
    q[1] = s[2] * e1[0] - s[0] * e1[2];
    q[2] = s[0] * e1[1] - s[1] * e1[0];
    double bv = (g[0] * q[0] + g[1] * q[1] + g[2] * q[2]) / det;
    double t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
    if (bu < 0 || bv < 0 || bu + bv > 1 || !(t >= n))
        return INFINITY;
    return t;
}

/* The nearest boundary point at t >= n of the interval [tin, tout]. */
static double first_at(double tin, double tout, double n)
{
    if (!(tin <= tout))
        return INFINITY;
    if (tin >= n)
        return tin;
    return tout >= n ? tout : INFINITY;
}

static double hit_box(const double O[3], const double g[3], const double c[3],
                      const double h[3][3], double n)
{
    double A[3][3], Ai[3][3];
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 3; j++)
            A[r][j] = h[j][r];
    if (!inv3(A, Ai)) {
        /* flat: the parallelogram of its two nonzero axes */
        int z = (h[0][0] == 0 && h[0][1] == 0 && h[0][2] == 0) ? 0
                : (h[1][0] == 0 && h[1][1] == 0 && h[1][2] == 0) ? 1 : 2;
        int a = (z + 1) % 3, b = (z + 2) % 3;
        double t1[3][3], t2[3][3];
        for (int k = 0; k < 3; k++) {
            t1[0][k] = c[k] + h[a][k] + h[b][k];
            t1[1][k] = c[k] - h[a][k] + h[b][k];
            t1[2][k] = c[k] - h[a][k] - h[b][k];
            t2[0][k] = t1[0][k], t2[1][k] = t1[2][k];
            t2[2][k] = c[k] + h[a][k] - h[b][k];
        }
        return fmin(hit_tri(O, g, t1, n), hit_tri(O, g, t2, n));
    }
    double d[3] = {O[0] - c[0], O[1] - c[1], O[2] - c[2]}, s0[3], s1[3];
    mulv(Ai, d, s0);
    mulv(Ai, g, s1);
    double tin = -INFINITY, tout = INFINITY;
    for (int j = 0; j < 3; j++) {
        if (s1[j] == 0) {
            if (fabs(s0[j]) > 1)
                return INFINITY;
            continue;
        }
        double ta = (-1 - s0[j]) / s1[j], tb = (1 - s0[j]) / s1[j];
        tin = fmax(tin, fmin(ta, tb));
        tout = fmin(tout, fmax(ta, tb));
    }
    return first_at(tin, tout, n);
}

static double hit_sphere(const double O[3], const double g[3], const double c[3], double r,
                         double n)
{
    double d[3] = {O[0] - c[0], O[1] - c[1], O[2] - c[2]};
    double A = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
    double B = d[0] * g[0] + d[1] * g[1] + d[2] * g[2];
    double C = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - r * r;
    double disc = B * B - A * C;
    if (disc < 0)
        return INFINITY;
    double s = sqrt(disc);
    return first_at((-B - s) / A, (-B + s) / A, n);
}

/* Texel rectangle [u0, u1] x [v0, v1] outside which no ray meets occluder
 * o (its vertices' projections, when all lie in front of the eye), a
 * little widened; the whole plane otherwise. Only saves time. */
typedef struct rect {
    double u0, u1, v0, v1;
} rect;

static rect reach(const ro_view *rv, const ro_occ *o)
{
    rect all = {-INFINITY, INFINITY, -INFINITY, INFINITY}, r = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    const satc_frustum *f = rv->f;
    double pts[8][3];
    int np = 0;
    if (o->kind == RO_TRI) {
        for (int q = 0; q < 3; q++)
            for (int k = 0; k < 3; k++)
                pts[q][k] = o->v[q][k];
        np = 3;
    } else if (o->kind == RO_BOX) {
        for (int q = 0; q < 8; q++)
            for (int k = 0; k < 3; k++)
                pts[q][k] = o->c[k] + (q & 1 ? o->h[0][k] : -o->h[0][k]) +
                            (q & 2 ? o->h[1][k] : -o->h[1][k]) + (q & 4 ? o->h[2][k] : -o->h[2][k]);
        np = 8;
    } else {
        return all;
    }
    for (int q = 0; q < np; q++) {
        double d[3], x[3];
        for (int k = 0; k < 3; k++)
            d[k] = pts[q][k] - f->origin[k];
        for (int k = 0; k < 3; k++)
            x[k] = f->frame[k][0] * d[0] + f->frame[k][1] * d[1] + f->frame[k][2] * d[2];
        if (!isfinite(x[0] + x[1] + x[2]))
            return all;
        if (f->kind == SATC_FRUSTUM_PERSPECTIVE) {
            if (!(x[2] > 1e-9))
                return all;
            x[0] /= x[2], x[1] /= x[2];
        }
        double u = ((double)f->x1 - x[0]) / ((double)f->x1 - (double)f->x0) * rv->width;
        double v = (x[1] - (double)f->y0) / ((double)f->y1 - (double)f->y0) * rv->height;
        r.u0 = fmin(r.u0, u), r.u1 = fmax(r.u1, u), r.v0 = fmin(r.v0, v), r.v1 = fmax(r.v1, v);
    }
    r.u0 -= 0.5, r.v0 -= 0.5, r.u1 += 0.5, r.v1 += 0.5;
    return r;
}

static double nearest_in(const ro_view *rv, double u, double v, const ro_occ *occ, size_t nocc,
                         const rect *rc);

double ro_nearest(const ro_view *rv, double u, double v, const ro_occ *occ, size_t nocc)
{
    return nearest_in(rv, u, v, occ, nocc, NULL);
}

static double nearest_in(const ro_view *rv, double u, double v, const ro_occ *occ, size_t nocc,
                         const rect *rc)
{
    double O[3], g[3], n = rv->f->n, best = INFINITY;
    ray(rv, u, v, O, g);
    for (size_t k = 0; k < nocc; k++) {
        if (rc && (u < rc[k].u0 || u > rc[k].u1 || v < rc[k].v0 || v > rc[k].v1))
            continue;
        double t = occ[k].kind == RO_TRI   ? hit_tri(O, g, occ[k].v, n)
                   : occ[k].kind == RO_BOX ? hit_box(O, g, occ[k].c, occ[k].h, n)
                                           : hit_sphere(O, g, occ[k].c, occ[k].h[0][0], n);
        best = fmin(best, t);
    }
    return best;
}

size_t ro_check(const ro_view *rv, const float *level0, const float *init, const ro_occ *occ,
                size_t nocc, const char *name, size_t *written, size_t *full)
{
    size_t bad = 0, nw = 0, nf = 0;
    rect *rc = malloc((nocc ? nocc : 1) * sizeof *rc);
    for (size_t k = 0; k < nocc; k++)
        rc[k] = reach(rv, &occ[k]);
    for (uint32_t j = 0; j < rv->height; j++) {
        for (uint32_t i = 0; i < rv->width; i++) {
            size_t at = (size_t)j * rv->width + i;
            float T = level0[at];
            int w = T < init[at] || (isnan(init[at]) && !isnan(T));
            nw += w;
            int all = 1;
            for (int sy = 0; sy <= 4 && (w || full); sy++) {
                for (int sx = 0; sx <= 4; sx++) {
                    double hit = nearest_in(rv, i + sx / 4.0, j + sy / 4.0, occ, nocc, rc);
                    all &= hit < INFINITY;
                    if (w && !((double)T >= hit)) {
                        if (bad < 5)
                            printf("  FAIL %s: texel (%u, %u) holds %.9g, the ray at (%g, %g) "
                                   "meets the nearest occluder at %.9g\n",
                                   name, i, j, (double)T, i + sx / 4.0, j + sy / 4.0, hit);
                        bad++;
                    }
                }
            }
            nf += all;
        }
    }
    free(rc);
    if (written)
        *written = nw;
    if (full)
        *full = nf;
    return bad;
}
