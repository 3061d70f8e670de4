/* Occlusion scenes and the double-precision ray oracle (occ_scene.h). */
#include "occ_scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void occ_view_init(occ_view *v, const satc_frustum *f)
{
    v->f = *f;
    v->ortho = f->kind == SATC_FRUSTUM_ORTHOGRAPHIC;
    for (int i = 0; i < 3; i++) {
        v->E[i] = f->origin[i];
        for (int j = 0; j < 3; j++)
            v->F[i][j] = f->frame[i][j];
    }
    double (*m)[3] = v->F, (*r)[3] = v->Finv;
    double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                 m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                 m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
            r[i][j] = (m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1]) / det;
        }
}

static void finv(const occ_view *v, const double q[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = v->Finv[i][0] * q[0] + v->Finv[i][1] * q[1] + v->Finv[i][2] * q[2];
}

void occ_ray(const occ_view *v, double a, double b, double o[3], double d[3])
{
    double q[3] = {v->ortho ? 0 : a, v->ortho ? 0 : b, 1};
    finv(v, q, d);
    if (v->ortho) {
        double p[3] = {a, b, 0}, w[3];
        finv(v, p, w);
        for (int i = 0; i < 3; i++)
            o[i] = v->E[i] + w[i];
    } else {
        memcpy(o, v->E, sizeof v->E);
    }
}

int occ_ray_box(const occ_box *x, const double o[3], const double d[3], double *t0, double *t1)
{
    double lo = -INFINITY, hi = INFINITY;
    for (int k = 0; k < 3; k++) {
        const double *a = x->a[k];
        double p = a[0] * (o[0] - x->c[0]) + a[1] * (o[1] - x->c[1]) + a[2] * (o[2] - x->c[2]);
        double q = a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
        if (q == 0) {
            if (fabs(p) > x->e[k])
                return 0;
            continue;
        }
        double u = (-x->e[k] - p) / q, w = (x->e[k] - p) / q;
        if (u > w) {
            double s = u;
            u = w, w = s;
        }
        lo = u > lo ? u : lo;
        hi = w < hi ? w : hi;
    }
    *t0 = lo, *t1 = hi;
    return lo <= hi;
}

int occ_ray_sphere(const double c[3], double r, const double o[3], const double d[3], double *t0,
                   double *t1)
{
    double m[3] = {o[0] - c[0], o[1] - c[1], o[2] - c[2]};
    double A = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    double B = m[0] * d[0] + m[1] * d[1] + m[2] * d[2];
    double C = m[0] * m[0] + m[1] * m[1] + m[2] * m[2] - r * r;
    double disc = B * B - A * C;
    if (disc < 0)
        return 0;
    double s = sqrt(disc);
    *t0 = (-B - s) / A, *t1 = (-B + s) / A;
    return 1;
}

/* ---- the demo city ---- */

static uint32_t mulberry(uint32_t *a)
{
    *a += 0x6d2b79f5u;
    uint32_t t = *a;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return t ^ (t >> 14);
}
static double rnd(uint32_t *a) { return mulberry(a) / 4294967296.0; }

static uint32_t morton(uint32_t x, uint32_t z)
{
    uint32_t k = 0;
    for (int b = 0; b < 16; b++)
        k |= ((x >> b) & 1u) << (2 * b) | ((z >> b) & 1u) << (2 * b + 1);
    return k;
}

typedef struct pick {
    uint64_t key;
    int gx, gz;
} pick;

static int cmp_pick(const void *a, const void *b)
{
    uint64_t x = ((const pick *)a)->key, y = ((const pick *)b)->key;
    return x < y ? -1 : x > y;
}

#define CITY_SIZE 2400.0

void occ_city(size_t n, uint32_t seed, float *mats, occ_box *boxes, const double shift[3])
{
    uint32_t r = seed;
    const int lot = 7, lots = (int)floor(CITY_SIZE / lot);
    pick *p = malloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++) {
        int gx, gz;
        do {
            gx = (int)floor(rnd(&r) * lots);
            gz = (int)floor(rnd(&r) * lots);
        } while (gx % 9 == 0 || gz % 9 == 0);
        p[i].key = (uint64_t)morton((uint32_t)(gx / 9), (uint32_t)(gz / 9)) * 131072u + i;
        p[i].gx = gx, p[i].gz = gz;
    }
    qsort(p, n, sizeof *p, cmp_pick);
    for (size_t i = 0; i < n; i++) {
        int gx = p[i].gx, gz = p[i].gz;
        double d = hypot(gx - lots / 2.0, gz - lots / 2.0) / (lots / 2.0);
        double dd = 1 - (d < 1 ? d : 1);
        double h = 4 + dd * dd * dd * 110 * rnd(&r) + 12 * rnd(&r);
        double w = 3 + 3 * rnd(&r), dz = 3 + 3 * rnd(&r);
        double px = (gx + 0.5) * lot - CITY_SIZE / 2, pz = (gz + 0.5) * lot - CITY_SIZE / 2;
        double ang = (rnd(&r) - 0.5) * 0.3, cs = cos(ang), sn = sin(ang);
        rnd(&r), rnd(&r), rnd(&r), rnd(&r); /* the colour's draws */
        /* columns: R e_x w, e_y h, R e_z dz; translation (rotation about y) */
        double col[4][3] = {{cs * w, 0, -sn * w}, {0, h, 0}, {sn * dz, 0, cs * dz},
                            {px + shift[0], shift[1], pz + shift[2]}};
        float *m = mats + 16 * i;
        for (int c = 0; c < 4; c++) {
            for (int k = 0; k < 3; k++)
                m[4 * c + k] = (float)col[c][k];
            m[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
        }
        /* the box of the float matrix: unit box [-0.5, 0.5] x [0, 1] x [-0.5, 0.5] */
        occ_box *b = &boxes[i];
        double M[3][4];
        for (int c = 0; c < 4; c++)
            for (int k = 0; k < 3; k++)
                M[k][c] = m[4 * c + k];
        for (int j = 0; j < 3; j++) {
            double len = sqrt(M[0][j] * M[0][j] + M[1][j] * M[1][j] + M[2][j] * M[2][j]);
            for (int k = 0; k < 3; k++)
                b->a[j][k] = M[k][j] / len;
            b->e[j] = 0.5 * len;
        }
        for (int k = 0; k < 3; k++)
            b->c[k] = M[k][3] + 0.5 * M[k][1];
    }
    free(p);
}

void occ_city_ground(occ_box *g, const double shift[3])
{
    memset(g, 0, sizeof *g);
    for (int k = 0; k < 3; k++)
        g->a[k][k] = 1;
    g->c[0] = shift[0], g->c[1] = shift[1] - 5, g->c[2] = shift[2];
    g->e[0] = g->e[2] = CITY_SIZE, g->e[1] = 5;
}

int occ_city_camera(double t, const double shift[3], satc_frustum *out)
{
    double a = t * 0.08, rad = 420 + 120 * sin(t * 0.05);
    double E[3] = {cos(a) * rad, 130 + 30 * sin(t * 0.3), sin(a) * rad};
    double ah = a + 0.7, T[3] = {cos(ah) * rad * 0.55, 0, sin(ah) * rad * 0.55};
    double D[3] = {T[0] - E[0], T[1] - E[1], T[2] - E[2]};
    double l = sqrt(D[0] * D[0] + D[1] * D[1] + D[2] * D[2]);
    for (int k = 0; k < 3; k++)
        D[k] /= l;
    /* up' = (0,1,0) made orthogonal to D */
    double U[3] = {-D[1] * D[0], 1 - D[1] * D[1], -D[1] * D[2]};
    l = sqrt(U[0] * U[0] + U[1] * U[1] + U[2] * U[2]);
    float eye[3], dir[3], up[3];
    for (int k = 0; k < 3; k++) {
        eye[k] = (float)(E[k] + shift[k]);
        dir[k] = (float)D[k];
        up[k] = (float)(U[k] / l);
    }
    return satc_frustum_perspective(out, eye, dir, up, (float)(3.14159265358979323846 / 3), 16.0f / 9.0f, 0.5f,
                                    1200.0f);
}

/* ---- screen bins ---- */

/* The screen box [a0, a1] x [b0, b1] of the part of a box at depth >= n / 2
 * (no ray meets a box nearer than n where it counts: occluders hide from
 * depth n on, volumes are seen from n on): for a perspective view the
 * box is clipped there first, its corners beyond and the points where its
 * edges cross, so a box beside the eye covers only the screen it reaches.
 * *zmin: the nearest corner's depth. */
static void screen_box(const occ_view *v, const occ_box *x, double r[4], double *zmin)
{
    r[0] = r[2] = INFINITY, r[1] = r[3] = -INFINITY;
    *zmin = INFINITY;
    double d[8][3], h = v->f.n * 0.5;
    int ahead = 0;
    for (int q = 0; q < 8; q++) {
        double p[3];
        for (int k = 0; k < 3; k++) {
            p[k] = x->c[k] - v->E[k];
            for (int j = 0; j < 3; j++)
                p[k] += ((q >> j & 1) ? 1 : -1) * x->e[j] * x->a[j][k];
        }
        for (int i = 0; i < 3; i++)
            d[q][i] = v->F[i][0] * p[0] + v->F[i][1] * p[1] + v->F[i][2] * p[2];
        *zmin = d[q][2] < *zmin ? d[q][2] : *zmin;
        ahead |= d[q][2] >= h;
    }
    if (!ahead) /* wholly before the near plane: in no bin */
        return;
    /* The corners at depth >= h, then (perspective) each edge's crossing. */
    double pts[8 + 12][2];
    int np = 0;
    for (int q = 0; q < 8; q++) {
        if (!v->ortho && !(d[q][2] >= h))
            continue;
        double w = v->ortho ? 1 : d[q][2];
        pts[np][0] = d[q][0] / w, pts[np][1] = d[q][1] / w, np++;
    }
    for (int q = 0; q < 8 && !v->ortho; q++)
        for (int j = 0; j < 3; j++) {
            int u = q | 1 << j;
            if (u == q || (d[q][2] >= h) == (d[u][2] >= h))
                continue;
            double t = (h - d[q][2]) / (d[u][2] - d[q][2]);
            pts[np][0] = (d[q][0] + t * (d[u][0] - d[q][0])) / h;
            pts[np][1] = (d[q][1] + t * (d[u][1] - d[q][1])) / h;
            np++;
        }
    for (int k = 0; k < np; k++) {
        r[0] = fmin(r[0], pts[k][0]), r[1] = fmax(r[1], pts[k][0]);
        r[2] = fmin(r[2], pts[k][1]), r[3] = fmax(r[3], pts[k][1]);
    }
    /* wholly beside the view: in no bin */
    if (r[1] < v->f.x0 - 1e-6 * fabs(v->f.x0) || r[0] > v->f.x1 + 1e-6 * fabs(v->f.x1) ||
        r[3] < v->f.y0 - 1e-6 * fabs(v->f.y0) || r[2] > v->f.y1 + 1e-6 * fabs(v->f.y1))
        r[0] = r[2] = INFINITY, r[1] = r[3] = -INFINITY;
}

static void sphere_as_box(const double c[3], double r, occ_box *x)
{
    memset(x, 0, sizeof *x);
    for (int k = 0; k < 3; k++)
        x->c[k] = c[k], x->a[k][k] = 1, x->e[k] = r;
}

/* Screen cells, each listing the items whose screen box meets it, nearest
 * first: zlow[i] is no farther than any point of item i (its nearest
 * corner's depth, less a margin for rounding), so a ray stops looking once
 * an item's zlow is past the depth it needs. */
typedef struct bins {
    int gx, gy;
    double a0, da, b0, db;
    size_t *off, *items;
    double *zlow;
} bins;

static void cell_range(const bins *g, const double r[4], int c[4])
{
    double q[4] = {(r[0] - g->a0) / g->da, (r[1] - g->a0) / g->da, (r[2] - g->b0) / g->db,
                   (r[3] - g->b0) / g->db};
    int lim[4] = {g->gx - 1, g->gx - 1, g->gy - 1, g->gy - 1};
    for (int i = 0; i < 4; i++) {
        double x = floor(q[i]) + (i % 2 ? 1 : -1);
        x = x < 0 ? 0 : x > lim[i] ? lim[i] : x;
        c[i] = (int)x;
    }
}

typedef struct by_depth {
    double z;
    size_t i;
} by_depth;

static int cmp_depth(const void *a, const void *b)
{
    const by_depth *x = a, *y = b;
    return x->z < y->z ? -1 : x->z > y->z ? 1 : (x->i > y->i) - (x->i < y->i);
}

/* zmin[i]: the nearest corner depth of item i (screen_box). */
static void bins_make(bins *g, const occ_view *v, const double (*rects)[4], const double *zmin,
                      size_t n)
{
    g->gx = 256, g->gy = 128;
    g->a0 = v->f.x0, g->da = ((double)v->f.x1 - v->f.x0) / g->gx;
    g->b0 = v->f.y0, g->db = ((double)v->f.y1 - v->f.y0) / g->gy;
    size_t nc = (size_t)g->gx * g->gy;
    g->off = calloc(nc + 1, sizeof *g->off);
    for (int pass = 0; pass < 2; pass++) {
        size_t *fill = pass ? calloc(nc, sizeof *fill) : NULL;
        for (size_t i = 0; i < n; i++) {
            if (!(rects[i][0] <= rects[i][1]))
                continue;
            int c[4];
            cell_range(g, rects[i], c);
            for (int y = c[2]; y <= c[3]; y++)
                for (int x = c[0]; x <= c[1]; x++) {
                    size_t cell = (size_t)y * g->gx + x;
                    if (pass)
                        g->items[g->off[cell] + fill[cell]++] = i;
                    else
                        g->off[cell + 1]++;
                }
        }
        if (!pass) {
            for (size_t c = 0; c < nc; c++)
                g->off[c + 1] += g->off[c];
            g->items = malloc((g->off[nc] + 1) * sizeof *g->items);
        }
        free(fill);
    }
    /* The corners' depths are rounded, and so is a ray's entry: 10^-6 of
     * the depth is far more than either error (about 10^-10 at 10^6
     * from the origin). A NaN depth is never passed. */
    g->zlow = malloc((n + 1) * sizeof *g->zlow);
    for (size_t i = 0; i < n; i++)
        g->zlow[i] = zmin[i] == zmin[i] ? zmin[i] - 1e-6 * (1 + fabs(zmin[i])) : -INFINITY;
    by_depth *tmp = malloc((g->off[nc] + 1) * sizeof *tmp);
    for (size_t c = 0; c < nc; c++) {
        size_t k0 = g->off[c], k1 = g->off[c + 1];
        for (size_t k = k0; k < k1; k++)
            tmp[k - k0] = (by_depth){g->zlow[g->items[k]], g->items[k]};
        qsort(tmp, k1 - k0, sizeof *tmp, cmp_depth);
        for (size_t k = k0; k < k1; k++)
            g->items[k] = tmp[k - k0].i;
    }
    free(tmp);
}

static void bins_free(bins *g) { free(g->off), free(g->items), free(g->zlow); }

static size_t bins_cell(const bins *g, double a, double b)
{
    int x = (int)floor((a - g->a0) / g->da), y = (int)floor((b - g->b0) / g->db);
    x = x < 0 ? 0 : x >= g->gx ? g->gx - 1 : x;
    y = y < 0 ? 0 : y >= g->gy ? g->gy - 1 : y;
    return (size_t)y * g->gx + x;
}

/* ---- a valid level 0 from box occluders ---- */

static float up_float(double x)
{
    float f = (float)x;
    return (double)f < x ? nextafterf(f, INFINITY) : f;
}

void occ_fill_boxes(satc_pyramid *p, const occ_box *occ, size_t nocc)
{
    occ_view v;
    occ_view_init(&v, &p->view);
    double x0 = p->view.x0, x1 = p->view.x1, y0 = p->view.y0, y1 = p->view.y1;
    double w = (x1 - x0) / p->width, h = (y1 - y0) / p->height, n = p->view.n;
    float *lv = p->depth;
    for (size_t t = 0; t < (size_t)p->width * p->height; t++)
        lv[t] = INFINITY;
    for (size_t k = 0; k < nocc; k++) {
        double r[4], zmin;
        occ_box s = occ[k];
        for (int j = 0; j < 3; j++) /* shrunk: a corner ray inside it is well inside */
            s.e[j] = s.e[j] * (1 - 1e-7) - 1e-12 * (fabs(s.c[0]) + fabs(s.c[1]) + fabs(s.c[2]));
        if (s.e[0] <= 0 || s.e[1] <= 0 || s.e[2] <= 0)
            continue;
        screen_box(&v, &s, r, &zmin);
        if (!(zmin > n) || !isfinite(r[0]))
            continue;
        long i0 = (long)floor((x1 - r[1]) / w) - 1, i1 = (long)floor((x1 - r[0]) / w) + 1;
        long j0 = (long)floor((r[2] - y0) / h) - 1, j1 = (long)floor((r[3] - y0) / h) + 1;
        i0 = i0 < 0 ? 0 : i0, j0 = j0 < 0 ? 0 : j0;
        i1 = i1 >= (long)p->width ? (long)p->width - 1 : i1;
        j1 = j1 >= (long)p->height ? (long)p->height - 1 : j1;
        for (long j = j0; j <= j1; j++)
            for (long i = i0; i <= i1; i++) {
                double far = 0;
                int all = 1;
                for (int q = 0; q < 4 && all; q++) {
                    double a = x1 - (i + (q & 1)) * w, b = y0 + (j + (q >> 1)) * h;
                    double o[3], d[3], t0, t1;
                    occ_ray(&v, a, b, o, d);
                    if (!occ_ray_box(&s, o, d, &t0, &t1) || !(t0 >= n))
                        all = 0;
                    else
                        far = t0 > far ? t0 : far;
                }
                if (!all)
                    continue;
                float T = up_float(far * (1 + 1e-9));
                float *dst = &lv[(size_t)j * p->width + i];
                *dst = T < *dst ? T : *dst;
            }
    }
    satc_pyramid_build(p);
}

/* ---- visibility by rays ---- */

static int vol_ray(const occ_vol *x, const double o[3], const double d[3], double *t0, double *t1)
{
    return x->sphere ? occ_ray_sphere(x->c, x->r, o, d, t0, t1) : occ_ray_box(&x->box, o, d, t0, t1);
}

/* The nearest occluder surface on the ray of (a, b) at depth >= n (solid:
 * one crossing the near plane hides from its exit), or f. */
static double occ_depth(const occ_view *v, double a, double b, const bins *go, const occ_box *occ)
{
    double o[3], d[3], n = v->f.n, zocc = v->f.f;
    occ_ray(v, a, b, o, d);
    size_t c = bins_cell(go, a, b);
    for (size_t k = go->off[c]; k < go->off[c + 1]; k++) {
        double t0, t1;
        if (go->zlow[go->items[k]] > zocc)
            break; /* this one and the rest are farther than zocc */
        if (!occ_ray_box(&occ[go->items[k]], o, d, &t0, &t1) || t1 < n)
            continue;
        double z = t0 >= n ? t0 : t1;
        zocc = z < zocc ? z : zocc;
    }
    return zocc;
}

static void one_ray(const occ_view *v, double a, double b, double zocc, const bins *gv,
                    const occ_vol *vols, uint8_t *vis)
{
    double o[3], d[3], n = v->f.n, f = v->f.f;
    occ_ray(v, a, b, o, d);
    size_t c = bins_cell(gv, a, b);
    double zmax = fmin(f, zocc * (1 + 1e-7) + 1e-9); /* the farthest depth that sees */
    for (size_t k = gv->off[c]; k < gv->off[c + 1]; k++) {
        size_t i = gv->items[k];
        if (gv->zlow[i] > zmax)
            break; /* this one and the rest are farther */
        if (vis[i])
            continue;
        double t0, t1;
        if (!vol_ray(&vols[i], o, d, &t0, &t1) || t1 < n)
            continue;
        double z = t0 > n ? t0 : n;
        if (z <= f && z <= zocc * (1 + 1e-7) + 1e-9)
            vis[i] = 1;
    }
}

static void ray_at(const occ_view *v, unsigned rays_x, unsigned rays_y, size_t q, double *a,
                   double *b)
{
    /* staggered: rays on cell corners and centers */
    unsigned i = (unsigned)(q % rays_x), j = (unsigned)(q / rays_x);
    double x0 = v->f.x0, x1 = v->f.x1, y0 = v->f.y0, y1 = v->f.y1;
    *a = x1 - (x1 - x0) * (i + 0.5 * (j & 1)) / rays_x;
    *b = y0 + (y1 - y0) * (j + 0.5 * (i & 1)) / rays_y;
}

double *occ_ray_depths(const occ_view *v, const occ_box *occ, size_t nocc, unsigned rays_x,
                       unsigned rays_y, const double *xa, const double *xb, size_t nextra)
{
    double (*ro)[4] = malloc((nocc + 1) * sizeof *ro), *zo = calloc(nocc + 1, sizeof *zo);
    for (size_t k = 0; k < nocc; k++)
        screen_box(v, &occ[k], ro[k], &zo[k]);
    bins go;
    bins_make(&go, v, (const double(*)[4])ro, zo, nocc);
    size_t nr = (size_t)rays_x * rays_y;
    double *z = malloc((nr + nextra + 1) * sizeof *z);
    for (size_t q = 0; q < nr; q++) {
        double a, b;
        ray_at(v, rays_x, rays_y, q, &a, &b);
        z[q] = occ_depth(v, a, b, &go, occ);
    }
    for (size_t e = 0; e < nextra; e++)
        z[nr + e] = occ_depth(v, xa[e], xb[e], &go, occ);
    bins_free(&go);
    free(ro), free(zo);
    return z;
}

void occ_visible(const occ_view *v, const occ_vol *vols, size_t nvol, const double *zocc,
                 unsigned rays_x, unsigned rays_y, const double *xa, const double *xb,
                 size_t nextra, uint8_t *vis)
{
    double (*rv)[4] = malloc((nvol + 1) * sizeof *rv), *zv = calloc(nvol + 1, sizeof *zv);
    for (size_t k = 0; k < nvol; k++) {
        occ_box b;
        if (vols[k].sphere)
            sphere_as_box(vols[k].c, vols[k].r, &b);
        screen_box(v, vols[k].sphere ? &b : &vols[k].box, rv[k], &zv[k]);
    }
    bins gv;
    bins_make(&gv, v, (const double(*)[4])rv, zv, nvol);
    for (size_t k = 0; k < nvol; k++)
        vis[k] = (uint8_t)(vols[k].camera_in != 0);
    size_t nr = (size_t)rays_x * rays_y;
    for (size_t q = 0; q < nr; q++) {
        double a, b;
        ray_at(v, rays_x, rays_y, q, &a, &b);
        one_ray(v, a, b, zocc[q], &gv, vols, vis);
    }
    for (size_t e = 0; e < nextra; e++)
        one_ray(v, xa[e], xb[e], zocc[nr + e], &gv, vols, vis);
    bins_free(&gv);
    free(rv), free(zv);
}
