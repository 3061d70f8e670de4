/*
 * Band cases: volumes placed k = -4, -2, -1, 0, 1, 2, 4 float
 * tolerances (SATC_EPSILON K S) from a frustum face, edge or corner,
 * along a direction inside that feature's normal cone, so exactly one
 * computed decision sits in the float test's rounding band; in every form
 * (OBB, AABB records, min/max, half axes, instances, spheres), near the
 * world origin and 10^5 away from it, perspective (symmetric, off-center,
 * infinite far, an exactly orthonormal frame) and orthographic frusta.
 *
 * Judged on the realized floats by an oracle of another method: boxes by
 * tests/common/oracle.c (the box's faces clipped against the frustum's
 * planes, in double), spheres by enumeration (the nearest point of the
 * frustum among its faces, edges and vertices, in double). On every path:
 *  - a volume that meets the frustum is never culled, in either mode;
 *  - exact mode keeps none that stays apart from the frustum when grown by
 *    g = 1e-4 + 1e-6 scale (the tolerance; orthographic frusta add
 *    their documented size term, 2 tol_t);
 *  - every path gives the scalar reference's classes, and two views of
 *    the frustum in one satc_cull_views pass each give the single cull's.
 * Ends with "N passed, N failed".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "oracle.h"
#include "robust_util.h"
#include "vec3d.h"

#define PER 24 /* volumes per (camera, feature, k) */

enum { F_OBB, F_AABB, F_MINMAX, F_HALF, F_INST, F_SPHERE, NF };
static const char *form_name[NF] = {"obb", "aabb", "minmax", "half-axes", "instances", "spheres"};

typedef struct geo {
    double V[8][3]; /* frustum corners, world (far cut for an infinite one) */
    double nrm[6][3], off[6]; /* outward unit normals, inside n.x <= off */
} geo;

static const int face_v[6][4] = {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 2, 6, 4},
                                 {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 3, 7, 6}};
static const int edge_v[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                  {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

static void make_geo(const satc_camera *c, double far_cut, geo *g)
{
    double f = isinf(c->f) ? far_cut : c->f, xs[2] = {c->l0, c->l1}, ys[2] = {c->u0, c->u1};
    for (int k = 0; k < 8; k++) {
        double z = k & 4 ? f : c->n, s = c->orthographic ? 1.0 : z / c->n;
        for (int a = 0; a < 3; a++)
            g->V[k][a] = c->origin[a] + xs[k & 1] * s * c->left[a] + ys[k >> 1 & 1] * s * c->up[a] +
                         z * c->dir[a];
    }
    double mid[3] = {0, 0, 0};
    for (int k = 0; k < 8; k++)
        for (int a = 0; a < 3; a++)
            mid[a] += g->V[k][a] / 8;
    for (int q = 0; q < 6; q++) {
        const double *p0 = g->V[face_v[q][0]], *p1 = g->V[face_v[q][1]], *p3 = g->V[face_v[q][3]];
        double e1[3], e2[3];
        for (int a = 0; a < 3; a++)
            e1[a] = p1[a] - p0[a], e2[a] = p3[a] - p0[a];
        cross(e1, e2, g->nrm[q]);
        double l = sqrt(dot(g->nrm[q], g->nrm[q]));
        for (int a = 0; a < 3; a++)
            g->nrm[q][a] /= l;
        g->off[q] = dot(g->nrm[q], p0);
        if (dot(g->nrm[q], mid) > g->off[q]) {
            for (int a = 0; a < 3; a++)
                g->nrm[q][a] = -g->nrm[q][a];
            g->off[q] = -g->off[q];
        }
    }
}

/* Distance from p to the frustum, by enumeration (0 inside). */
static double point_dist(const geo *g, const double p[3])
{
    int inside = 1;
    for (int q = 0; q < 6; q++)
        inside &= dot(g->nrm[q], p) <= g->off[q];
    if (inside)
        return 0;
    double best = INFINITY;
    for (int k = 0; k < 8; k++) {
        double w[3] = {p[0] - g->V[k][0], p[1] - g->V[k][1], p[2] - g->V[k][2]};
        best = fmin(best, sqrt(dot(w, w)));
    }
    for (int e = 0; e < 12; e++) {
        const double *a = g->V[edge_v[e][0]], *b = g->V[edge_v[e][1]];
        double t[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
        double s = dot(w, t) / dot(t, t);
        if (s > 0 && s < 1) {
            double u[3] = {w[0] - s * t[0], w[1] - s * t[1], w[2] - s * t[2]};
            best = fmin(best, sqrt(dot(u, u)));
        }
    }
    for (int q = 0; q < 6; q++) {
        double h = dot(g->nrm[q], p) - g->off[q], x[3];
        if (h <= 0)
            continue;
        for (int a = 0; a < 3; a++)
            x[a] = p[a] - h * g->nrm[q][a];
        int in = 1; /* the foot within the face: inside its four neighbours */
        for (int r = 0; r < 6; r++)
            if (r != q && r != (q ^ 1))
                in &= dot(g->nrm[r], x) <= g->off[r] + 1e-12 * (1 + fabs(g->off[r]));
        if (in)
            best = fmin(best, h);
    }
    return best;
}

static void rand_unit(rb_rng *r, double v[3])
{
    double l;
    do {
        for (int a = 0; a < 3; a++)
            v[a] = rb_uniform(r, -1, 1);
        l = sqrt(dot(v, v));
    } while (l > 1 || l < 1e-3);
    for (int a = 0; a < 3; a++)
        v[a] /= l;
}

/* A feature point q and a direction m inside its normal cone; with
 * nofar, none on the far face (an infinite frustum's is only a cut). */
static void feature(rb_rng *r, const geo *g, int kind, int nofar, double q[3], double m[3])
{
    double w[3] = {0, 0, 0};
    if (kind == 0) { /* face: a point inside it, its normal */
        int f;
        do
            f = (int)(rb_next(r) % 6);
        while (nofar && f == 1);
        double s = rb_uniform(r, 0.1, 0.9), t = rb_uniform(r, 0.1, 0.9);
        for (int a = 0; a < 3; a++) {
            double lo = g->V[face_v[f][0]][a] * (1 - s) + g->V[face_v[f][1]][a] * s;
            double hi = g->V[face_v[f][3]][a] * (1 - s) + g->V[face_v[f][2]][a] * s;
            q[a] = lo * (1 - t) + hi * t;
            m[a] = g->nrm[f][a];
        }
        return;
    }
    if (kind == 1) { /* edge: a point on it; a mix of its two faces' normals */
        int e, fs[2], nf = 0;
        do
            e = (int)(rb_next(r) % 12);
        while (nofar && edge_v[e][0] >= 4);
        double s = rb_uniform(r, 0.1, 0.9);
        for (int a = 0; a < 3; a++)
            q[a] = g->V[edge_v[e][0]][a] * (1 - s) + g->V[edge_v[e][1]][a] * s;
        for (int f = 0; f < 6; f++) {
            int has = 0;
            for (int j = 0; j < 4; j++)
                has += face_v[f][j] == edge_v[e][0] || face_v[f][j] == edge_v[e][1];
            if (has == 2)
                fs[nf++] = f;
        }
        double t = rb_uniform(r, 0.15, 0.85);
        for (int a = 0; a < 3; a++)
            w[a] = t * g->nrm[fs[0]][a] + (1 - t) * g->nrm[fs[1]][a];
    } else { /* corner: a positive mix of its three faces' normals */
        int v = (int)(rb_next(r) % (nofar ? 4 : 8));
        memcpy(q, g->V[v], sizeof g->V[v]);
        for (int f = 0; f < 6; f++) {
            int has = 0;
            for (int j = 0; j < 4; j++)
                has |= face_v[f][j] == v;
            double t = rb_uniform(r, 0.2, 1.0);
            for (int a = 0; has && a < 3; a++)
                w[a] += t * g->nrm[f][a];
        }
    }
    double l = sqrt(dot(w, w));
    for (int a = 0; a < 3; a++)
        m[a] = w[a] / l;
}

typedef struct tally {
    long placed, touch, apart, fn, fp, diff;
} tally;

static tally g_t[NF];

/* One volume of form fm: built so its point farthest along -m is q + d m,
 * stored as floats, judged on every path in both modes. */
static void one(rb_rng *r, const satc_camera *cam, const satc_frustum *fr, const geo *g,
                const rb_batch *scratch, int fm, const double q[3], const double m[3], double size,
                double dk, const satc_isa *paths, int np)
{
    double A[3][3], e[3], C[3];
    if (fm == F_AABB || fm == F_MINMAX) {
        memset(A, 0, sizeof A);
        A[0][0] = A[1][1] = A[2][2] = 1;
    } else {
        rand_unit(r, A[0]);
        double t[3];
        rand_unit(r, t);
        cross(A[0], t, A[1]);
        double l = sqrt(dot(A[1], A[1]));
        for (int a = 0; a < 3; a++)
            A[1][a] /= l;
        cross(A[0], A[1], A[2]);
    }
    for (int j = 0; j < 3; j++)
        e[j] = size * rb_uniform(r, 0.2, 1.0);
    for (int a = 0; a < 3; a++) {
        C[a] = q[a] + dk * m[a];
        if (fm == F_SPHERE)
            C[a] += e[0] * m[a];
        else
            for (int j = 0; j < 3; j++)
                C[a] += e[j] * (dot(A[j], m) > 0 ? 1 : -1) * A[j][a];
    }
    /* Floats, and the realized geometry in double. */
    float Cf[3], Hf[3][3], ef[3], lo[3], hi[3], mat[16], rad = (float)e[0];
    double c[3], H[3][3];
    memset(mat, 0, sizeof mat);
    for (int a = 0; a < 3; a++) {
        Cf[a] = (float)C[a];
        ef[a] = (float)e[a];
        lo[a] = (float)(C[a] - e[a]), hi[a] = (float)(C[a] + e[a]);
        for (int j = 0; j < 3; j++) {
            Hf[j][a] = (float)(e[j] * A[j][a]);
            mat[4 * j + a] = Hf[j][a];
        }
        mat[12 + a] = Cf[a];
    }
    mat[15] = 1;
    float Af[3][3];
    for (int j = 0; j < 3; j++)
        for (int a = 0; a < 3; a++)
            Af[j][a] = (float)A[j][a];
    for (int a = 0; a < 3; a++) {
        c[a] = fm == F_MINMAX ? 0.5 * ((double)lo[a] + hi[a]) : Cf[a];
        for (int j = 0; j < 3; j++) {
            if (fm == F_OBB)
                H[j][a] = (double)ef[j] * Af[j][a];
            else if (fm == F_AABB)
                H[j][a] = j == a ? ef[a] : 0;
            else if (fm == F_MINMAX)
                H[j][a] = j == a ? 0.5 * ((double)hi[a] - lo[a]) : 0;
            else
                H[j][a] = Hf[j][a];
        }
    }
    double scale = 0, ext[3], ax[3][3];
    for (int a = 0; a < 3; a++)
        scale += (c[a] - cam->origin[a]) * (c[a] - cam->origin[a]);
    scale = sqrt(scale);
    for (int j = 0; j < 3; j++) {
        ext[j] = sqrt(dot(H[j], H[j]));
        for (int a = 0; a < 3; a++)
            ax[j][a] = ext[j] > 0 ? H[j][a] / ext[j] : (a == j);
        scale += fm == F_SPHERE ? rad : ext[j];
    }
    double grow = 1e-4 + 1e-6 * scale + (cam->orthographic ? 2.0 * fr->tol_t : 0.0);
    int touch, apart;
    if (fm == F_SPHERE) {
        double dist = point_dist(g, c);
        touch = dist <= rad;
        apart = dist > rad + grow;
    } else {
        touch = orc_intersects_pp(cam, c, ext, ax);
        double eg[3] = {ext[0] + grow, ext[1] + grow, ext[2] + grow};
        apart = !orc_intersects_pp(cam, c, eg, ax);
    }
    /* The batch of one volume in form fm. */
    satc_batch b;
    memset(&b, 0, sizeof b);
    static const float zero3[3] = {0, 0, 0}, one3[3] = {1, 1, 1};
    satc_obb box;
    switch (fm) {
    case F_OBB:
        memcpy(box.center, Cf, sizeof Cf), memcpy(box.axis, Af, sizeof Af), memcpy(box.extent, ef, sizeof ef);
        rb_batch_set((rb_batch *)scratch, 0, &box);
        b = satc_batch_from_boxes(&scratch->v);
        break;
    case F_AABB:
        b.form = SATC_FORM_AABB, b.aabb.center = SATC_VEC3S_AOS(Cf, 0), b.aabb.half = SATC_VEC3S_AOS(ef, 0);
        break;
    case F_MINMAX:
        b.form = SATC_FORM_MINMAX, b.minmax.min = SATC_VEC3S_AOS(lo, 0), b.minmax.max = SATC_VEC3S_AOS(hi, 0);
        break;
    case F_HALF:
        b.form = SATC_FORM_HALF_AXES, b.half_axes.center = SATC_VEC3S_AOS(Cf, 0);
        for (int j = 0; j < 3; j++)
            b.half_axes.axis[j] = SATC_VEC3S_AOS(Hf[j], 0);
        break;
    case F_INST:
        b.form = SATC_FORM_INSTANCES, b.instances.matrix = mat, b.instances.stride = 64;
        b.instances.local_center = SATC_VEC3S_AOS(zero3, 0);
        b.instances.local_half = SATC_VEC3S_AOS(one3, 0);
        break;
    default:
        b.form = SATC_FORM_SPHERES, b.spheres.center = SATC_VEC3S_AOS(Cf, 0);
        b.spheres.radius = (satc_floats){&rad, 0};
    }
    tally *t = &g_t[fm];
    t->placed++, t->touch += touch, t->apart += apart;
    for (int mode = 0; mode < 2; mode++) {
        uint8_t ref = 0xff;
        for (int p = 0; p < np; p++) {
            uint8_t cl = 0xff;
            satc_results res = {NULL, &cl, NULL, 0};
            satc_cull_isa(paths[p], fr, &b, 0, 1, (satc_mode)mode, &res);
            if (p == 0)
                ref = cl;
            else if (cl != ref && t->diff++ < 3)
                printf("  %s %s mode %d: class %u, scalar %u\n", form_name[fm], satc_isa_name(paths[p]), mode,
                       cl, ref);
            if (touch && cl == SATC_OUTSIDE && t->fn++ < 3)
                printf("  FN %s %s mode %d: d %.3e, scale %.3e\n", form_name[fm], satc_isa_name(paths[p]),
                       mode, dk, scale);
            /* Two views of the same frustum in one satc_cull_views pass
             * (a batch of one: the prefilter's chunk, each view's kernel):
             * each view's bit is the single cull's. */
            satc_frustum two[2] = {*fr, *fr};
            uint8_t mask = 0xff;
            satc_view_results vr = {&mask, NULL, NULL, NULL};
            satc_cull_views_isa(paths[p], two, 2, &b, 0, 1, (satc_mode)mode, &vr);
            unsigned want = cl != SATC_OUTSIDE ? 3u : 0u;
            if (mask != want && t->diff++ < 3)
                printf("  %s %s mode %d: views mask %u, single cull %u\n", form_name[fm],
                       satc_isa_name(paths[p]), mode, mask, want);
            if (mode == SATC_EXACT && apart && cl != SATC_OUTSIDE && t->fp++ < 3)
                printf("  FP %s %s: placed %.3e from the frustum (%s), scale %.3e, beyond g %.3e\n",
                       form_name[fm], satc_isa_name(paths[p]), dk,
                       fabs(cam->origin[0]) > 1e3 ? "far from the origin" : "near it", scale, grow);
        }
    }
}

int main(void)
{
    satc_isa paths[8];
    int np = rb_paths(paths);
    rb_rng rng = {0x62616e64ull};
    static const double origins[2][3] = {{1.5, -2.0, 0.5}, {1.25e5, -2.5e5, 7.5e4}};
    static const int ks[7] = {-4, -2, -1, 0, 1, 2, 4};
    rb_batch scratch;
    if (rb_batch_alloc(&scratch, 1))
        return 2;
    for (int o = 0; o < 2; o++) {
        for (int ck = 0; ck < 5; ck++) {
            satc_camera cam;
            float eye[3] = {(float)origins[o][0], (float)origins[o][1], (float)origins[o][2]};
            if (ck == 3) {
                rb_camera_ortho(&cam, &rng, eye, 15.0f, 10.0f, -2.0f, 40.0f);
            } else if (ck == 4) {
                /* An exactly orthonormal frame (the world axes): only the
                 * slopes' rounding (l / n) is left between the float
                 * frustum and the camera's. */
                static const satc_camera axis = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                                 -0.35f, 0.41f, -0.22f, 0.27f, 0.3f, 150.0f, 0};
                cam = axis;
                memcpy(cam.origin, eye, sizeof eye);
            } else {
                rb_camera_persp(&cam, &rng, eye, ck == 2 ? 0.5f : 0.25f, ck == 2 ? INFINITY : 200.0f);
            }
            if (ck == 1) { /* off-center */
                cam.l0 *= 0.3f, cam.u1 *= 1.7f;
            }
            satc_frustum fr;
            if (!rb_check(satc_frustum_from_camera(&fr, &cam) == SATC_OK, "camera %d/%d", o, ck))
                continue;
            geo g, gen; /* the oracle's (an infinite frustum cut far away), the placement's */
            make_geo(&cam, 1e7, &g);
            make_geo(&cam, 150.0, &gen);
            for (int kind = 0; kind < 3; kind++) {
                for (int ki = 0; ki < 7; ki++) {
                    for (int rep = 0; rep < PER; rep++) {
                        double q[3], m[3];
                        feature(&rng, &gen, kind, isinf(cam.f), q, m);
                        double size = exp(rb_uniform(&rng, log(0.05), log(5.0)));
                        double S = 3 * size;
                        for (int a = 0; a < 3; a++)
                            S += fabs(q[a] - cam.origin[a]);
                        double T = (double)fr.eps_k * S + fr.tol_t;
                        for (int fm = 0; fm < NF; fm++)
                            one(&rng, &cam, &fr, &g, &scratch, fm, q, m, size, ks[ki] * T, paths, np);
                    }
                }
            }
        }
    }
    for (int fm = 0; fm < NF; fm++) {
        tally *t = &g_t[fm];
        printf("%-10s %6ld placed: %5ld touching, %5ld apart by more than g; %ld culled touching, "
               "%ld kept apart (exact), %ld path differences\n",
               form_name[fm], t->placed, t->touch, t->apart, t->fn, t->fp, t->diff);
        rb_check(t->fn == 0, "%s: %ld touching volumes culled", form_name[fm], t->fn);
        rb_check(t->fp == 0, "%s: exact mode kept %ld volumes farther than 1e-4 + 1e-6 scale", form_name[fm],
                 t->fp);
        rb_check(t->diff == 0, "%s: %ld classes differ from the scalar reference", form_name[fm], t->diff);
        rb_check(t->touch > t->placed / 8 && t->apart > t->placed / 8,
                 "%s: the placement reaches both sides (%ld touching, %ld apart of %ld)", form_name[fm],
                 t->touch, t->apart, t->placed);
    }
    rb_batch_free(&scratch);
    return rb_finish();
}
