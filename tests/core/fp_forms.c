/*
 * Exact mode's target: exact mode keeps no volume farther than 1e-4 + 1e-6
 * scale from the frustum (scale = |C - E| + the volume's size: sum of its
 * half-axis lengths, 3 r for a sphere), on the benchmark's boundary scene,
 * in every form and on every runnable path.
 *
 * The scene's boxes (bench/bench.c's seed) are given in each form: Eberly
 * OBB arrays, AABB records (center, half; the boxes unrotated), min/max
 * arrays, half-axis vectors, instances (4x4 column-major matrix of the
 * rotation scaled by the extents, unit local box; and the rotation with a
 * per-instance local box off its origin), bounding spheres. Each form is
 * culled in exact mode on every path (bits compared with the scalar
 * reference), and every kept volume whose center and vertices all lie
 * outside the frustum is measured in double without satc: the distance
 *   max over unit u of  (min over the volume of u.x) - (max over the frustum of u.y)
 * (a lower bound for any u, concave in u: the best of the separating-axis
 * candidates, then a pattern search), the frustum built from the camera
 * in double. Prints one PASS/MISS [exact] line per form (a MISS does not
 * fail), and fails only when a path differs from the reference.
 *
 *   fp_forms [--count N]      (default 100000; the benchmark runs 1048576)
 *
 * Ends with "N passed, N failed".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenes.h"

#define BENCH_SEED 20240601u /* bench/bench.c's SEED */

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross(const double *a, const double *b, double *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* The frustum's corners relative to E, in double from the camera. */
typedef struct frus {
    double V[8][3], nrm[6][3], off[6]; /* inside: nrm . x <= off */
} frus;

/* A volume relative to E: center, half axes, radius (spheres: a = 0). */
typedef struct dvol {
    double c[3], a[3][3], r;
} dvol;

static void make_frus(const satc_camera *cam, frus *F)
{
    double xs[2] = {cam->l0, cam->l1}, ys[2] = {cam->u0, cam->u1};
    const float *L = cam->left, *U = cam->up, *D = cam->dir;
    for (int k = 0; k < 8; k++) {
        double z = k & 4 ? cam->f : cam->n, s = z / cam->n;
        for (int q = 0; q < 3; q++)
            F->V[k][q] = xs[k & 1] * s * L[q] + ys[k >> 1 & 1] * s * U[q] + z * D[q];
    }
    /* Faces: near, far, x0, x1, y0, y1 as vertex triples, outward. */
    static const int fc[6][3] = {{0, 2, 1}, {4, 5, 6}, {0, 4, 2}, {1, 3, 5}, {0, 1, 4}, {2, 6, 3}};
    for (int f = 0; f < 6; f++) {
        double a[3], b[3];
        for (int q = 0; q < 3; q++) {
            a[q] = F->V[fc[f][1]][q] - F->V[fc[f][0]][q];
            b[q] = F->V[fc[f][2]][q] - F->V[fc[f][0]][q];
        }
        cross(a, b, F->nrm[f]);
        F->off[f] = dot(F->nrm[f], F->V[fc[f][0]]);
        /* Orient outward: the centroid is inside. */
        double g[3] = {0, 0, 0};
        for (int k = 0; k < 8; k++)
            for (int q = 0; q < 3; q++)
                g[q] += F->V[k][q] / 8;
        if (dot(F->nrm[f], g) > F->off[f]) {
            for (int q = 0; q < 3; q++)
                F->nrm[f][q] = -F->nrm[f][q];
            F->off[f] = -F->off[f];
        }
    }
}

static int point_in(const frus *F, const double p[3])
{
    for (int f = 0; f < 6; f++)
        if (dot(F->nrm[f], p) > F->off[f])
            return 0;
    return 1;
}

/* Gap along u / |u|, larger side. */
static double gap(const frus *F, const dvol *v, const double u[3])
{
    double len = sqrt(dot(u, u));
    if (!(len > 0))
        return -INFINITY;
    double cb = dot(u, v->c), rb = v->r * len, lo = INFINITY, hi = -INFINITY;
    for (int j = 0; j < 3; j++)
        rb += fabs(dot(u, v->a[j]));
    for (int k = 0; k < 8; k++) {
        double p = dot(u, F->V[k]);
        lo = p < lo ? p : lo;
        hi = p > hi ? p : hi;
    }
    double g1 = (cb - rb) - hi, g2 = lo - (cb + rb);
    return (g1 > g2 ? g1 : g2) / len;
}

static double distance_lb(const frus *F, const dvol *v)
{
    double cand[80][3];
    int nc = 0;
    static const int edges[12][2] = {{0, 1}, {2, 3}, {0, 2}, {1, 3}, {4, 5}, {6, 7},
                                     {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    for (int f = 0; f < 6; f++)
        memcpy(cand[nc++], F->nrm[f], sizeof cand[0]);
    for (int j = 0; j < 3; j++)
        cross(v->a[(j + 1) % 3], v->a[(j + 2) % 3], cand[nc++]);
    for (int e = 0; e < 12; e++) {
        double ev[3];
        for (int q = 0; q < 3; q++)
            ev[q] = F->V[edges[e][1]][q] - F->V[edges[e][0]][q];
        for (int j = 0; j < 3; j++)
            cross(ev, v->a[j], cand[nc++]);
        /* spheres: the perpendicular from the center to the edge's line */
        double w[3], s;
        for (int q = 0; q < 3; q++)
            w[q] = v->c[q] - F->V[edges[e][0]][q];
        s = dot(w, ev) / dot(ev, ev);
        for (int q = 0; q < 3; q++)
            cand[nc][q] = w[q] - s * ev[q];
        nc++;
    }
    for (int k = 0; k < 8 && nc < 80; k++) {
        for (int q = 0; q < 3; q++)
            cand[nc][q] = v->c[q] - F->V[k][q];
        nc++;
    }
    double best = -INFINITY, u[3] = {0, 0, 1};
    for (int k = 0; k < nc; k++) {
        double g = gap(F, v, cand[k]);
        if (g > best)
            best = g, memcpy(u, cand[k], sizeof u);
    }
    if (!(best > 0))
        return best; /* no separating direction among a complete set: they meet */
    double len = sqrt(dot(u, u));
    for (int q = 0; q < 3; q++)
        u[q] /= len;
    for (double step = 0.25; step > 1e-13;) {
        int improved = 0;
        for (int d = 0; d < 6; d++) {
            double t[3] = {u[0], u[1], u[2]};
            t[d / 2] += d & 1 ? -step : step;
            double g = gap(F, v, t);
            if (g > best) {
                double l = sqrt(dot(t, t));
                best = g, improved = 1;
                for (int q = 0; q < 3; q++)
                    u[q] = t[q] / l;
            }
        }
        if (!improved)
            step *= 0.5;
    }
    return best;
}

enum { F_OBB, F_AABB, F_MINMAX, F_HALF, F_INST, F_INST_LOCAL, F_SPHERE, NF };
static const char *form_name[NF] = {"OBB arrays", "AABB records", "min/max arrays", "half axes",
                                    "instances (unit box)", "instances (local box each)", "spheres"};

typedef struct data {
    size_t n;
    float *rec;          /* AABB records: c[3], h[3] */
    float *mn[3], *mx[3];
    float *hc, *ha;      /* half axes: centers (AoS 3), axes (AoS 9) */
    float *m4, *m4l;     /* 4x4 column-major, 16 per instance */
    float *lc, *lh;      /* per-instance local boxes (AoS 3) */
    float *sc, *sr;      /* spheres */
} data;

static float *grab(size_t n)
{
    float *p = calloc(n, sizeof(float));
    if (!p) {
        printf("out of memory\n");
        exit(2);
    }
    return p;
}

static void build(const scn_scene *s, data *d)
{
    size_t n = s->count;
    d->n = n;
    d->rec = grab(6 * n), d->hc = grab(3 * n), d->ha = grab(9 * n);
    d->m4 = grab(16 * n), d->m4l = grab(16 * n), d->lc = grab(3 * n), d->lh = grab(3 * n);
    d->sc = grab(3 * n), d->sr = grab(n);
    for (int k = 0; k < 3; k++)
        d->mn[k] = grab(n), d->mx[k] = grab(n);
    for (size_t i = 0; i < n; i++) {
        satc_obb b;
        satc_boxes_get(&s->boxes, i, &b);
        double e2 = 0;
        for (int k = 0; k < 3; k++) {
            d->rec[6 * i + k] = b.center[k];
            d->rec[6 * i + 3 + k] = b.extent[k];
            d->mn[k][i] = b.center[k] - b.extent[k];
            d->mx[k][i] = b.center[k] + b.extent[k];
            d->hc[3 * i + k] = b.center[k];
            d->sc[3 * i + k] = b.center[k];
            e2 += (double)b.extent[k] * b.extent[k];
            /* local box off its origin by half its size along each axis */
            d->lh[3 * i + k] = b.extent[k];
            d->lc[3 * i + k] = (float)(0.5 * b.extent[k] * ((i >> k & 1) ? 1 : -1));
        }
        d->sr[i] = (float)sqrt(e2);
        for (int j = 0; j < 3; j++) {
            for (int k = 0; k < 3; k++) {
                d->ha[9 * i + 3 * j + k] = b.extent[j] * b.axis[j][k];
                d->m4[16 * i + 4 * j + k] = b.extent[j] * b.axis[j][k];
                d->m4l[16 * i + 4 * j + k] = b.axis[j][k];
            }
        }
        for (int k = 0; k < 3; k++) {
            double t = b.center[k];
            for (int j = 0; j < 3; j++)
                t -= (double)b.axis[j][k] * d->lc[3 * i + j];
            d->m4[16 * i + 12 + k] = b.center[k];
            d->m4l[16 * i + 12 + k] = (float)t;
        }
        d->m4[16 * i + 15] = d->m4l[16 * i + 15] = 1;
    }
}

static void release(data *d)
{
    free(d->rec), free(d->hc), free(d->ha), free(d->m4), free(d->m4l);
    free(d->lc), free(d->lh), free(d->sc), free(d->sr);
    for (int k = 0; k < 3; k++)
        free(d->mn[k]), free(d->mx[k]);
}

static satc_batch batch(const scn_scene *s, const data *d, int form)
{
    satc_batch b;
    memset(&b, 0, sizeof b);
    static const float zero3[3] = {0, 0, 0}, one3[3] = {1, 1, 1};
    switch (form) {
    case F_OBB: return satc_batch_from_boxes(&s->boxes);
    case F_AABB:
        b.form = SATC_FORM_AABB;
        b.aabb.center = SATC_VEC3S_AOS(d->rec, 24);
        b.aabb.half = SATC_VEC3S_AOS(d->rec + 3, 24);
        return b;
    case F_MINMAX:
        b.form = SATC_FORM_MINMAX;
        b.minmax.min = SATC_VEC3S_SOA(d->mn[0], d->mn[1], d->mn[2]);
        b.minmax.max = SATC_VEC3S_SOA(d->mx[0], d->mx[1], d->mx[2]);
        return b;
    case F_HALF:
        b.form = SATC_FORM_HALF_AXES;
        b.half_axes.center = SATC_VEC3S_AOS(d->hc, 12);
        for (int j = 0; j < 3; j++)
            b.half_axes.axis[j] = SATC_VEC3S_AOS(d->ha + 3 * j, 36);
        return b;
    case F_INST:
    case F_INST_LOCAL:
        b.form = SATC_FORM_INSTANCES;
        b.instances.matrix = form == F_INST ? d->m4 : d->m4l;
        b.instances.stride = 64;
        b.instances.layout = SATC_AFFINE_4X4_COLUMN_MAJOR;
        if (form == F_INST) {
            b.instances.local_center = SATC_VEC3S_AOS(zero3, 0);
            b.instances.local_half = SATC_VEC3S_AOS(one3, 0);
        } else {
            b.instances.local_center = SATC_VEC3S_AOS(d->lc, 12);
            b.instances.local_half = SATC_VEC3S_AOS(d->lh, 12);
        }
        return b;
    default:
        b.form = SATC_FORM_SPHERES;
        b.spheres.center = SATC_VEC3S_AOS(d->sc, 12);
        b.spheres.radius = (satc_floats){d->sr, 4};
        return b;
    }
}

/* Volume i of a form in double, relative to E (as the floats describe it). */
static void volume(const scn_scene *s, const data *d, int form, size_t i, dvol *v)
{
    const float *E = s->cam.origin;
    memset(v, 0, sizeof *v);
    size_t q = i;
    for (int k = 0; k < 3; k++) {
        switch (form) {
        case F_AABB: v->c[k] = d->rec[6 * q + k], v->a[k][k] = d->rec[6 * q + 3 + k]; break;
        case F_MINMAX:
            v->c[k] = 0.5 * ((double)d->mn[k][q] + d->mx[k][q]);
            v->a[k][k] = 0.5 * fabs((double)d->mx[k][q] - d->mn[k][q]);
            break;
        case F_HALF:
            v->c[k] = d->hc[3 * q + k];
            for (int j = 0; j < 3; j++)
                v->a[j][k] = d->ha[9 * q + 3 * j + k];
            break;
        case F_INST:
        case F_INST_LOCAL: {
            const float *m = form == F_INST ? d->m4 + 16 * q : d->m4l + 16 * q;
            const float *lc = form == F_INST ? NULL : d->lc + 3 * q, *lh = d->lh + 3 * q;
            v->c[k] = m[12 + k];
            for (int j = 0; j < 3; j++) {
                v->c[k] += lc ? (double)m[4 * j + k] * lc[j] : 0;
                v->a[j][k] = (double)m[4 * j + k] * (lc ? fabs((double)lh[j]) : 1.0);
            }
            break;
        }
        case F_SPHERE: v->c[k] = d->sc[3 * q + k], v->r = d->sr[q]; break;
        default: {
            satc_obb b;
            satc_boxes_get(&s->boxes, q, &b);
            v->c[k] = b.center[k];
            for (int j = 0; j < 3; j++)
                v->a[j][k] = (double)b.extent[j] * b.axis[j][k];
        }
        }
    }
    for (int k = 0; k < 3; k++)
        v->c[k] -= E[k];
}

static int g_pass, g_fail;

static void run_form(const scn_scene *s, const data *d, const frus *F, int form)
{
    size_t n = s->count;
    satc_batch b = batch(s, d, form);
    uint8_t *ref = malloc(n), *cls = malloc(n);
    satc_results r = {NULL, ref, NULL, 0};
    satc_cull_isa(SATC_ISA_SCALAR, &s->frustum, &b, 0, n, SATC_EXACT, &r);
    unsigned run = satc_isa_runnable();
    char paths[64] = "scalar";
    for (unsigned isa = 2; isa <= SATC_ISA_AVX512; isa <<= 1) {
        if (!(run & isa))
            continue;
        r.classes = cls;
        satc_cull_isa((satc_isa)isa, &s->frustum, &b, 0, n, SATC_EXACT, &r);
        int same = !memcmp(ref, cls, n);
        same ? g_pass++ : g_fail++;
        if (!same)
            printf("FAIL: %s on %s differs from the scalar reference\n", form_name[form],
                   satc_isa_name((satc_isa)isa));
        strcat(paths, " "), strcat(paths, satc_isa_name((satc_isa)isa));
    }
    size_t kept = 0, fp = 0, beyond = 0;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        if (ref[i] == SATC_OUTSIDE)
            continue;
        kept++;
        if (ref[i] == SATC_INSIDE)
            continue;
        dvol v;
        volume(s, d, form, i, &v);
        if (point_in(F, v.c))
            continue;
        double dist = distance_lb(F, &v);
        if (!(dist > 0))
            continue;
        fp++;
        double size = v.r * 3;
        for (int j = 0; j < 3; j++)
            size += sqrt(dot(v.a[j], v.a[j]));
        double scale = sqrt(dot(v.c, v.c)) + size;
        if (dist > 1e-4 + 1e-6 * scale)
            beyond++;
        worst = fmax(worst, dist / (1e-4 + 1e-6 * scale));
    }
    printf("%s [exact] boundary scene, %zu %s, paths %s: %zu kept beyond 1e-4 + 1e-6 scale "
           "(target 0; %zu kept, %zu false positives, largest %.2f x the tolerance)\n",
           beyond ? "MISS" : "PASS", n, form_name[form], paths, beyond, kept, fp, worst);
    fflush(stdout);
    free(ref), free(cls);
}

int main(int argc, char **argv)
{
    size_t count = 100000;
    for (int a = 1; a < argc; a++)
        if (!strcmp(argv[a], "--count") && a + 1 < argc)
            count = (size_t)strtoull(argv[++a], NULL, 10);
    scn_scene s;
    if (scn_make(&s, SCN_BOUNDARY, count, BENCH_SEED, NULL) != 0) {
        printf("scene failed\n");
        return 2;
    }
    data d;
    build(&s, &d);
    frus F;
    make_frus(&s.cam, &F);
    for (int form = 0; form < NF; form++)
        run_form(&s, &d, &F, form);
    release(&d);
    scn_free(&s);
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
