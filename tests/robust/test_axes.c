/*
 * Axes that are not unit length or not orthogonal. satc.h: "Other axes
 * describe a parallelepiped: it is still never culled when it touches
 * the frustum, but exact mode's false-positive band assumes the
 * precondition" - in either mode. Checked against a small double-precision
 * oracle on the parallelepiped's actual vertices (separating axes of two
 * convex polyhedra: face normals of both, cross products of their edges):
 * skew, non-unit, nearly coplanar and zero axes, plus every fifth box with
 * orthonormal axes (which also checks the oracle against the library).
 * Every path must agree with the scalar one.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "robust_util.h"
#include "vec3d.h"

#define N 20000

typedef struct poly {
    double v[8][3];
    double edge[6][3]; /* edge directions */
    int nedge;
    double normal[6][3]; /* face normals */
    int nnormal;
} poly;

static double norm(const double a[3]) { return sqrt(dot(a, a)); }

/* The frustum's vertices, edges and face normals, in double from the
 * camera's floats. An infinite far plane is cut at depth far_cut. */
static void frustum_poly(const satc_camera *c, double far_cut, poly *p)
{
    const float *L = c->left, *U = c->up, *D = c->dir;
    double f = isinf(c->f) ? far_cut : c->f;
    double xs[2] = {c->l0, c->l1}, ys[2] = {c->u0, c->u1};
    for (int k = 0; k < 8; k++) {
        double z = k & 4 ? f : c->n;
        double s = c->orthographic ? 1.0 : z / c->n;
        double x = xs[k & 1] * s, y = ys[k >> 1 & 1] * s;
        for (int a = 0; a < 3; a++)
            p->v[k][a] = c->origin[a] + x * L[a] + y * U[a] + z * D[a];
    }
    p->nedge = 0;
    for (int a = 0; a < 3; a++) {
        p->edge[0][a] = L[a];
        p->edge[1][a] = U[a];
    }
    p->nedge = 2;
    for (int k = 0; k < 4; k++) { /* lateral edges: near corner k to far corner k */
        for (int a = 0; a < 3; a++)
            p->edge[2 + k][a] = p->v[4 + k][a] - p->v[k][a];
    }
    p->nedge = 6;
    /* Faces: near, far, and the four sides through lateral edges. */
    static const int face[6][3] = {{0, 1, 2}, {4, 5, 6}, {0, 4, 1}, {2, 3, 6}, {0, 2, 4}, {1, 5, 3}};
    for (int k = 0; k < 6; k++) {
        double e1[3], e2[3];
        for (int a = 0; a < 3; a++) {
            e1[a] = p->v[face[k][1]][a] - p->v[face[k][0]][a];
            e2[a] = p->v[face[k][2]][a] - p->v[face[k][0]][a];
        }
        cross(e1, e2, p->normal[k]);
    }
    p->nnormal = 6;
}

/* The parallelepiped of box i (float fields taken exactly). */
static void box_poly(const satc_box_arrays *b, size_t i, poly *p)
{
    double a[3][3];
    for (int j = 0; j < 3; j++)
        for (int c = 0; c < 3; c++)
            a[j][c] = (double)b->extent[j][i] * b->axis[j][c][i];
    for (int k = 0; k < 8; k++)
        for (int c = 0; c < 3; c++)
            p->v[k][c] = (double)b->center[c][i] + (k & 1 ? a[0][c] : -a[0][c]) +
                         (k & 2 ? a[1][c] : -a[1][c]) + (k & 4 ? a[2][c] : -a[2][c]);
    for (int j = 0; j < 3; j++)
        memcpy(p->edge[j], a[j], sizeof a[j]);
    p->nedge = 3;
    for (int j = 0; j < 3; j++)
        cross(a[j], a[(j + 1) % 3], p->normal[j]);
    p->nnormal = 3;
}

/* 1 when axis m separates the vertex sets (a zero axis never does). */
static int separates(const double m[3], const poly *a, const poly *b)
{
    if (!(norm(m) > 0.0))
        return 0;
    double alo = INFINITY, ahi = -INFINITY, blo = INFINITY, bhi = -INFINITY;
    for (int k = 0; k < 8; k++) {
        double x = dot(m, a->v[k]), y = dot(m, b->v[k]);
        alo = x < alo ? x : alo, ahi = x > ahi ? x : ahi;
        blo = y < blo ? y : blo, bhi = y > bhi ? y : bhi;
    }
    return ahi < blo || bhi < alo;
}

/* Separating-axis test of two convex polyhedra (either may be flat). */
static int touches(const poly *a, const poly *b)
{
    for (int k = 0; k < a->nnormal; k++)
        if (separates(a->normal[k], a, b))
            return 0;
    for (int k = 0; k < b->nnormal; k++)
        if (separates(b->normal[k], a, b))
            return 0;
    for (int i = 0; i < a->nedge; i++)
        for (int j = 0; j < b->nedge; j++) {
            double m[3];
            cross(a->edge[i], b->edge[j], m);
            if (separates(m, a, b))
                return 0;
        }
    return 1;
}

/* A random vector of length in [lo, hi]. */
static void random_vec(rb_rng *r, double lo, double hi, double v[3])
{
    double len;
    do {
        for (int k = 0; k < 3; k++)
            v[k] = rb_uniform(r, -1, 1);
        len = norm(v);
    } while (len > 1 || len < 1e-3);
    double want = rb_uniform(r, lo, hi);
    for (int k = 0; k < 3; k++)
        v[k] *= want / len;
}

/* A point on the frustum's surface (random face) and that face's outward
 * unit normal. */
static void surface_point(rb_rng *r, const poly *fr, double p[3], double nrm[3])
{
    static const int quad[6][4] = {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                   {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}};
    int face = (int)(rb_next(r) % 6);
    double s = rb_uniform(r, 0, 1), t = rb_uniform(r, 0, 1), e1[3], e2[3], mid[3] = {0, 0, 0};
    for (int a = 0; a < 3; a++) {
        double lo = fr->v[quad[face][0]][a] * (1 - s) + fr->v[quad[face][1]][a] * s;
        double hi = fr->v[quad[face][3]][a] * (1 - s) + fr->v[quad[face][2]][a] * s;
        p[a] = lo * (1 - t) + hi * t;
        e1[a] = fr->v[quad[face][1]][a] - fr->v[quad[face][0]][a];
        e2[a] = fr->v[quad[face][3]][a] - fr->v[quad[face][0]][a];
        for (int k = 0; k < 8; k++)
            mid[a] += fr->v[k][a] / 8;
    }
    cross(e1, e2, nrm);
    double len = norm(nrm), away[3] = {p[0] - mid[0], p[1] - mid[1], p[2] - mid[2]};
    double sgn = dot(nrm, away) < 0 ? -1.0 : 1.0;
    for (int a = 0; a < 3; a++)
        nrm[a] *= sgn / len;
}

int main(void)
{
    satc_isa paths[8];
    int npaths = rb_paths(paths);
    rb_rng rng = {0x6178657321ull};
    float eye[3] = {2.0f, -1.0f, 7.0f};
    satc_camera cams[3];
    const char *fr_name[3] = {"perspective", "infinite", "orthographic"};
    rb_camera_persp(&cams[0], &rng, eye, 1.0f, 60.0f);
    rb_camera_persp(&cams[1], &rng, eye, 1.0f, INFINITY);
    rb_camera_ortho(&cams[2], &rng, eye, 15.0f, 10.0f, -2.0f, 40.0f);

    for (int c = 0; c < 3; c++) {
        satc_frustum f;
        if (!rb_check(satc_frustum_from_camera(&f, &cams[c]) == SATC_OK, "build %s", fr_name[c]))
            continue;
        /* Boxes are placed on the frustum cut at depth 200; the oracle
         * cuts an infinite one at 1e4, beyond every box. */
        poly fr, gen;
        frustum_poly(&cams[c], 1e4, &fr);
        frustum_poly(&cams[c], 200.0, &gen);
        rb_batch b;
        if (rb_batch_alloc(&b, N))
            return 2;
        int touch[N];
        for (size_t i = 0; i < N; i++) {
            double scale = exp(rb_uniform(&rng, log(0.05), log(8.0)));
            double p[3], nrm[3], ax[3][3], ext[3];
            surface_point(&rng, &gen, p, nrm);
            int kind = (int)(i % 5);
            for (int j = 0; j < 3; j++)
                random_vec(&rng, 0.2, 3.0, ax[j]); /* 0: skew, non-unit */
            if (kind == 1) { /* nearly coplanar axes: a flat parallelepiped */
                for (int a = 0; a < 3; a++)
                    ax[2][a] = 0.5 * ax[0][a] - 0.7 * ax[1][a] + 1e-3 * ax[2][a];
            } else if (kind == 2) { /* orthogonal but not unit */
                double u[3];
                cross(ax[0], ax[1], ax[2]);
                cross(ax[2], ax[0], u);
                double nu = norm(u), n2 = norm(ax[2]);
                for (int a = 0; a < 3; a++) {
                    ax[1][a] = u[a] / nu * 1.7;
                    ax[2][a] = ax[2][a] / n2 * 0.6;
                }
            } else if (kind == 3) { /* one zero axis, the others skew */
                memset(ax[(i / 5) % 3], 0, sizeof ax[0]);
            } else if (kind == 4) { /* orthonormal: exact mode's precondition holds */
                float q[4], zc[3] = {0, 0, 0}, h[3] = {1, 1, 1};
                satc_obb r;
                rb_random_quat(&rng, q);
                satc_obb_from_quat(&r, zc, q, h);
                for (int j = 0; j < 3; j++)
                    for (int a = 0; a < 3; a++)
                        ax[j][a] = r.axis[j][a];
            }
            /* The center goes out along the face normal by the box's reach
             * in that direction plus a gap, log-uniform from 1e-5 to 1 of
             * the size, half of them negative (overlapping): near touching. */
            double reach = 0;
            for (int j = 0; j < 3; j++) {
                ext[j] = scale * rb_uniform(&rng, 0.2, 1.0);
                reach += ext[j] * fabs(dot(ax[j], nrm));
            }
            double gap = scale * exp(rb_uniform(&rng, log(1e-5), 0.0));
            if (rb_next(&rng) & 1)
                gap = -gap;
            satc_obb box;
            for (int a = 0; a < 3; a++) {
                box.center[a] = (float)(p[a] + (reach + gap) * nrm[a]);
                for (int j = 0; j < 3; j++)
                    box.axis[j][a] = (float)ax[j][a];
                box.extent[a] = (float)ext[a];
            }
            rb_batch_set(&b, i, &box);
            poly bp;
            box_poly(&b.a, i, &bp);
            touch[i] = touches(&bp, &fr);
        }
        for (int mode = 0; mode < 2; mode++) {
            rb_out o;
            rb_out_alloc(&o, N);
            rb_reference(&f, &b.v, 0, N, (satc_mode)mode, &o);
            long n_touch = 0, n_fn = 0, n_fp = 0, n_sep = 0;
            size_t first_bad = N;
            for (size_t i = 0; i < N; i++) {
                int vis = o.classes[i] != SATC_OUTSIDE;
                n_touch += touch[i];
                n_sep += !touch[i];
                n_fp += !touch[i] && vis;
                if (touch[i] && !vis) {
                    n_fn++;
                    first_bad = first_bad < i ? first_bad : i;
                }
            }
            rb_check(n_fn == 0, "%s %s: %ld touching boxes culled (first: box %zu)", fr_name[c],
                     mode ? "exact" : "conservative", n_fn, first_bad);
            printf("%-12s %-12s touching %5ld, culled of those %3ld; separated %5ld, kept %5ld\n",
                   fr_name[c], mode ? "exact" : "conservative", n_touch, n_fn, n_sep, n_fp);
            for (int p = 1; p < npaths; p++) {
                rb_out g;
                rb_out_alloc(&g, N);
                satc_results res = {g.bitmask, g.classes, g.indices, 0};
                satc_status st = satc_cull_batch_isa(paths[p], &f, &b.v, 0, N, (satc_mode)mode, &res);
                rb_check(st == SATC_OK && res.visible == o.visible &&
                             !memcmp(g.classes, o.classes, N) &&
                             !memcmp(g.indices, o.indices, o.visible * sizeof(uint32_t)),
                         "%s differs from scalar (%s mode %d)", satc_isa_name(paths[p]),
                         fr_name[c], mode);
                rb_out_free(&g);
            }
            rb_out_free(&o);
        }
        rb_batch_free(&b);
    }
    return rb_finish();
}
