/*
 * Exact mode's false positives measured as distances: the benchmark's
 * scenes (city, uniform, boundary; the benchmark's seed) culled in exact
 * mode on every runnable path, and for each box kept that the clipping
 * oracle finds outside, a lower bound of its Euclidean distance to the
 * frustum, computed in double without satc:
 *
 *   dist(B, F) = max over unit u of  min_{x in B} u.x - max_{y in F} u.y,
 *
 * the box's support from its center and axes, the frustum's from its eight
 * corners (built from the camera in double). Every u gives a lower bound;
 * the function is concave in u on the ball, so a pattern search from the
 * best of the box's and the frustum's face normals and their cross
 * products climbs to the distance. Counts the boxes kept farther than
 * 1e-4 + 1e-6 scale (scale = |C - E| + e0 + e1 + e2), the
 * largest distance / scale, and the largest distance / (K (S + F)) (the
 * header's band unit).
 *
 *   fp_scan [--boxes N] [--seed S] [--scene city|uniform|boundary] [--oracle]
 *
 * --oracle adds test_oracle's boundary groups (random cameras of every
 * kind, infinite far planes included).
 *
 * A measurement, not a test: it prints and exits 0 unless a path differs
 * from the scalar reference or a false negative is found (exit 1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "scenes.h"

#define BENCH_SEED 20240601u /* bench/bench.c's SEED */

typedef struct geo {
    double V[8][3]; /* frustum corners relative to E (far ones unused when infinite) */
    double W[4][3]; /* infinite far plane: the lateral edge directions */
    int infinite;
    double c[3];    /* box center relative to E */
    double a[3][3]; /* box half axes e_j A_j */
} geo;

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross(const double *a, const double *b, double *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* gap(u) / |u|: box below minus frustum above along u (or the reverse,
 * whichever is larger). */
static double gap(const geo *g, const double *u)
{
    double len = sqrt(dot(u, u));
    if (!(len > 0))
        return -INFINITY;
    double cb = dot(u, g->c), rb = 0, fmin = INFINITY, fmax = -INFINITY;
    for (int j = 0; j < 3; j++)
        rb += fabs(dot(u, g->a[j]));
    for (int k = 0; k < (g->infinite ? 4 : 8); k++) {
        double p = dot(u, g->V[k]);
        fmin = p < fmin ? p : fmin;
        fmax = p > fmax ? p : fmax;
    }
    for (int k = 0; g->infinite && k < 4; k++) {
        double w = dot(u, g->W[k]);
        if (w > 0)
            fmax = INFINITY;
        if (w < 0)
            fmin = -INFINITY;
    }
    double g1 = (cb - rb) - fmax, g2 = fmin - (cb + rb);
    return (g1 > g2 ? g1 : g2) / len;
}

static double distance_lb(const geo *g)
{
    /* Candidates: frustum face normals (from corners), box axes, crosses
     * of frustum edges with box axes. */
    double cand[64][3];
    int nc = 0;
    static const int edges[12][2] = {{0, 1}, {2, 3}, {0, 2}, {1, 3}, {4, 5}, {6, 7},
                                     {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    double ev[12][3];
    for (int e = 0; e < 12; e++)
        for (int q = 0; q < 3; q++)
            ev[e][q] = g->V[edges[e][1]][q] - g->V[edges[e][0]][q];
    if (g->infinite)
        for (int e = 8; e < 12; e++)
            memcpy(ev[e], g->W[e - 8], sizeof ev[e]);
    for (int j = 0; j < 3; j++)
        memcpy(cand[nc++], g->a[j], sizeof cand[0]);
    for (int e = 0; e < 12; e++)
        for (int j = 0; j < 3; j++)
            cross(ev[e], g->a[j], cand[nc++]);
    /* face normals: near (0,1,2), far (4,5,6), sides */
    static const int faces[6][3] = {{0, 1, 2}, {4, 5, 6}, {0, 1, 4}, {2, 3, 6}, {0, 2, 4}, {1, 3, 5}};
    for (int fc = 0; fc < 6 && nc < 64; fc++) {
        double a[3], b[3];
        for (int q = 0; q < 3; q++) {
            a[q] = g->V[faces[fc][1]][q] - g->V[faces[fc][0]][q];
            b[q] = g->V[faces[fc][2]][q] - g->V[faces[fc][0]][q];
        }
        cross(a, b, cand[nc++]);
    }
    double best = -INFINITY, u[3] = {0, 0, 1};
    for (int k = 0; k < nc; k++) {
        double v = gap(g, cand[k]);
        if (v > best)
            best = v, memcpy(u, cand[k], sizeof u);
    }
    double len = sqrt(dot(u, u));
    for (int q = 0; q < 3; q++)
        u[q] /= len;
    /* Pattern search on the unit sphere (quasi-concave objective). */
    double step = 0.25;
    while (step > 1e-13) {
        int improved = 0;
        for (int d = 0; d < 6; d++) {
            double t[3] = {u[0], u[1], u[2]};
            t[d / 2] += d & 1 ? -step : step;
            double v = gap(g, t);
            if (v > best) {
                best = v;
                double l = sqrt(dot(t, t));
                for (int q = 0; q < 3; q++)
                    u[q] = t[q] / l;
                improved = 1;
            }
        }
        if (!improved)
            step *= 0.5;
    }
    return best;
}

static void make_geo(const satc_camera *cam, const satc_obb *b, geo *g)
{
    const float *L = cam->left, *U = cam->up, *D = cam->dir;
    double xs[2] = {cam->l0, cam->l1}, ys[2] = {cam->u0, cam->u1};
    g->infinite = !cam->orthographic && isinf(cam->f);
    for (int k = 0; k < 4; k++) {
        double x = xs[k & 1] / cam->n, y = ys[k >> 1 & 1] / cam->n;
        for (int q = 0; q < 3; q++)
            g->W[k][q] = x * L[q] + y * U[q] + D[q];
    }
    for (int k = 0; k < 8; k++) {
        int far = k >> 2 & 1;
        if (far && g->infinite) {
            memcpy(g->V[k], g->V[k - 4], sizeof g->V[k]);
            continue;
        }
        double x = xs[k & 1], y = ys[k >> 1 & 1], z = far ? cam->f : cam->n;
        if (!cam->orthographic && far) {
            x *= (double)cam->f / cam->n;
            y *= (double)cam->f / cam->n;
        }
        for (int q = 0; q < 3; q++)
            g->V[k][q] = x * L[q] + y * U[q] + z * D[q];
    }
    for (int q = 0; q < 3; q++) {
        g->c[q] = (double)b->center[q] - (double)cam->origin[q];
        for (int j = 0; j < 3; j++)
            g->a[j][q] = (double)b->extent[j] * b->axis[j][q];
    }
}

static double band_unit(const satc_camera *cam, const satc_obb *b)
{
    return orc_band(cam, b) / SATC_EXACT_BAND;
}

typedef struct tally {
    size_t boxes, kept, fp, beyond, fn;
    double max_scale, max_band;
    int equal;
} tally;

/* Culls the scene in exact mode on every path and adds its false
 * positives to t. */
static void scan(const scn_scene *s, tally *t)
{
    size_t n = s->count;
    unsigned run = satc_isa_runnable();
    uint8_t *ref = malloc(n), *cls = malloc(n);
    satc_results r;
    memset(&r, 0, sizeof r);
    r.classes = ref;
    satc_cull_batch_isa(SATC_ISA_SCALAR, &s->frustum, &s->boxes, 0, n, SATC_EXACT, &r);
    for (unsigned b = 2; b <= SATC_ISA_AVX512; b <<= 1) {
        if (!(run & b))
            continue;
        r.classes = cls;
        satc_cull_batch_isa((satc_isa)b, &s->frustum, &s->boxes, 0, n, SATC_EXACT, &r);
        if (memcmp(cls, ref, n))
            t->equal = 0;
    }
    t->boxes += n;
    for (size_t i = 0; i < n; i++) {
        satc_obb b;
        satc_boxes_get(&s->boxes, i, &b);
        if (ref[i] == SATC_OUTSIDE) {
            /* sampled false-negative check: every 16th culled box */
            if ((i & 15) == 0 && orc_intersects(&s->cam, &b, 0))
                t->fn++;
            continue;
        }
        t->kept++;
        if (ref[i] == SATC_INSIDE || orc_intersects(&s->cam, &b, 0))
            continue;
        t->fp++;
        geo g;
        make_geo(&s->cam, &b, &g);
        double d = distance_lb(&g);
        double scale = sqrt(g.c[0] * g.c[0] + g.c[1] * g.c[1] + g.c[2] * g.c[2]) +
                       fabs((double)b.extent[0]) + fabs((double)b.extent[1]) + fabs((double)b.extent[2]);
        if (d > 1e-4 + 1e-6 * scale)
            t->beyond++;
        if (d / scale > t->max_scale)
            t->max_scale = d / scale;
        if (d / band_unit(&s->cam, &b) > t->max_band)
            t->max_band = d / band_unit(&s->cam, &b);
    }
    free(ref), free(cls);
}

static int print_tally(const char *name, const tally *t)
{
    printf("%-20s %8zu %8zu %8zu %9zu %12.3e %12.3e %s%s\n", name, t->boxes, t->kept, t->fp,
           t->beyond, t->max_scale, t->max_band, t->equal ? "yes" : "NO",
           t->fn ? "  FALSE NEGATIVES" : "");
    return !t->equal || t->fn;
}

int main(int argc, char **argv)
{
    size_t n = 1048576;
    uint64_t seed = BENCH_SEED;
    int only = -1, oracle = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--boxes") && i + 1 < argc)
            n = (size_t)strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--oracle"))
            oracle = 1;
        else if (!strcmp(argv[i], "--scene") && i + 1 < argc) {
            i++;
            for (int k = 0; k < 3; k++)
                if (!strcmp(argv[i], scn_name((scn_kind)k)))
                    only = k;
        } else {
            printf("usage: %s [--boxes N] [--seed S] [--scene city|uniform|boundary] [--oracle]\n"
                   "  --oracle  also test_oracle's boundary groups (64 random cameras of each\n"
                   "            kind, 4000 boxes each, test_oracle's seeds)\n",
                   argv[0]);
            return 2;
        }
    }
    int bad = 0;
    printf("SATC_EPSILON %a, SATC_EXACT_BAND %a\n", (double)SATC_EPSILON, SATC_EXACT_BAND);
    printf("%-20s %8s %8s %8s %9s %12s %12s %s\n", "scene", "boxes", "kept", "FP", ">1e-4+1e-6s",
           "max d/scale", "max d/K(S+F)", "paths equal");
    for (int k = 0; k < 3; k++) {
        if (only >= 0 && k != only)
            continue;
        scn_scene s;
        if (scn_make(&s, (scn_kind)k, n, seed, NULL) != 0)
            return 2;
        tally t = {0, 0, 0, 0, 0, 0, 0, 1};
        scan(&s, &t);
        bad |= print_tally(scn_name((scn_kind)k), &t);
        scn_free(&s);
    }
    static const char *cam_names[4] = {"boundary-symmetric", "boundary-asymmetric",
                                       "boundary-infinite", "boundary-ortho"};
    for (int k = 0; oracle && k < 4; k++) {
        scn_rng r;
        scn_seed(&r, 77 + (uint64_t)k);
        tally t = {0, 0, 0, 0, 0, 0, 0, 1};
        for (int ci = 0; ci < 64; ci++) {
            satc_camera c;
            scn_random_camera(&r, (scn_cam_kind)k, &c);
            scn_scene s;
            if (scn_make_boundary_for(&s, &c, 4000, scn_next(&r)) != 0)
                return 2;
            scan(&s, &t);
            scn_free(&s);
        }
        bad |= print_tally(cam_names[k], &t);
    }
    return bad;
}
