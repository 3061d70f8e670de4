/*
 * The library against the double-precision oracle (tests/common/oracle.h),
 * both modes, every runnable path:
 *  - no false negative: a box the oracle finds meeting the frustum (or
 *    within 2^-30 S of it, well inside the header's tolerance) is never
 *    classed SATC_OUTSIDE;
 *  - exact mode: no box kept whose grown copy (every extent + band) still
 *    misses the frustum, band = SATC_EXACT_BAND * K * (S + F);
 *  - SATC_INSIDE only for boxes whose 8 vertices are in the frustum;
 *  - exactly touching boxes (dyadic, built so that touching is exact in
 *    float) are visible.
 * The standard scenes, boundary boxes around random cameras of every kind,
 * and adversarial sets. Prints a table per group and mode, and for exact
 * mode's false positives a lower bound of distance / (K (S + F)) so the
 * band can be calibrated.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "scenes.h"
#include "vec3d.h"

#define PI 3.14159265358979323846
#define MAX_PATHS 8
#define NEAR_GROW 0x1p-30 /* relative to S: "touching" for the header's tolerance */

static int passed, failed;
enum { V_FN, V_NEAR, V_BAND, V_INSIDE, V_TOUCH, V_ORACLE, V_KINDS };
static int dumps_left[V_KINDS] = {4, 4, 6, 4, 4, 4};

static void check(int ok, const char *what, const char *group, int mode)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL: %s [%s, %s]\n", what, group, mode ? "exact" : "conservative");
    }
}

typedef struct stats {
    size_t boxes, visible, truth, fn, fn_near, fp, fp_band, wrong_in, touch_culled;
    size_t ratio_n;
    double max_ratio;
} stats;

typedef struct group {
    const char *name;
    stats st[2];           /* scalar path */
    size_t other[2][5];    /* other paths: fn, fn_near, fp_band, wrong_in, differs from scalar */
    size_t touching;       /* boxes that must be visible by construction */
    size_t oracle_missed;  /* of those, the oracle said "misses" (oracle bug) */
} group;

static unsigned paths[MAX_PATHS];
static int npaths;

/* ------------------------------------------------------------------ */
/* Helpers */

static double box_scale(const satc_camera *c, const satc_obb *b)
{
    /* S = |delta|_1 + |e|_1, as orc_band computes it. */
    double d[3], s = 0;
    for (int k = 0; k < 3; k++)
        d[k] = (double)b->center[k] - (double)c->origin[k];
    const float *fr[3] = {c->left, c->up, c->dir};
    for (int r = 0; r < 3; r++)
        s += fabs(fr[r][0] * d[0] + fr[r][1] * d[1] + fr[r][2] * d[2]);
    return s + fabs((double)b->extent[0]) + fabs((double)b->extent[1]) + fabs((double)b->extent[2]);
}

static void dump(int kind, const char *why, const char *group, int mode, const char *path,
                 const satc_camera *c, const satc_obb *b, unsigned cls)
{
    if (dumps_left[kind] <= 0)
        return;
    dumps_left[kind]--;
    printf("  %s [%s, %s, %s]: class %u, oracle %d, within band %d, inside %d\n", why, group,
           mode ? "exact" : "conservative", path, cls, orc_intersects(c, b, 0),
           orc_intersects(c, b, orc_band(c, b)), orc_inside(c, b));
    printf("    camera E %a %a %a  L %a %a %a  U %a %a %a  D %a %a %a\n", c->origin[0],
           c->origin[1], c->origin[2], c->left[0], c->left[1], c->left[2], c->up[0], c->up[1],
           c->up[2], c->dir[0], c->dir[1], c->dir[2]);
    printf("    l0 %a l1 %a u0 %a u1 %a n %a f %a ortho %d\n", c->l0, c->l1, c->u0, c->u1, c->n, c->f,
           c->orthographic);
    printf("    box C %a %a %a  A0 %a %a %a  A1 %a %a %a  A2 %a %a %a  e %a %a %a\n", b->center[0],
           b->center[1], b->center[2], b->axis[0][0], b->axis[0][1], b->axis[0][2], b->axis[1][0],
           b->axis[1][1], b->axis[1][2], b->axis[2][0], b->axis[2][1], b->axis[2][2], b->extent[0],
           b->extent[1], b->extent[2]);
}

/* Smallest grow at which the box meets the frustum (bisection), over
 * K (S + F): a lower bound of distance / (K (S + F)). */
static double distance_ratio(const satc_camera *c, const satc_obb *b)
{
    double unit = orc_band(c, b) / SATC_EXACT_BAND;
    double lo = 0, hi = orc_band(c, b);
    int k = 0;
    while (!orc_intersects(c, b, hi) && k++ < 80)
        lo = hi, hi *= 2;
    for (int it = 0; it < 40; it++) {
        double m = 0.5 * (lo + hi);
        if (orc_intersects(c, b, m))
            hi = m;
        else
            lo = m;
    }
    return lo / unit;
}

static double log_uniform(scn_rng *r, double lo, double hi)
{
    return exp(scn_uniform(r, log(lo), log(hi)));
}

static void unit_vector(scn_rng *r, double *v)
{
    double z = scn_uniform(r, -1, 1), phi = scn_uniform(r, 0, 2 * PI), s = sqrt(1 - z * z);
    v[0] = s * cos(phi), v[1] = s * sin(phi), v[2] = z;
}

/* Orthonormal axes with A0 = u (unit), the others at a random angle. */
static void frame_from(scn_rng *r, const double *u, double A[3][3])
{
    double h[3];
    do
        unit_vector(r, h);
    while (fabs(dot(h, u)) > 0.9);
    double v[3], w[3];
    cross(u, h, v);
    normalize(v);
    cross(u, v, w);
    for (int k = 0; k < 3; k++)
        A[0][k] = u[k], A[1][k] = v[k], A[2][k] = w[k];
}

static void random_axes(scn_rng *r, double A[3][3])
{
    double u[3];
    unit_vector(r, u);
    frame_from(r, u, A);
}

/* A box from a camera-relative center (double), axes and half extents. */
static satc_obb make_box(const satc_camera *c, const double *rel, double A[3][3], const double *h)
{
    satc_obb b;
    for (int k = 0; k < 3; k++) {
        b.center[k] = (float)((double)c->origin[k] + rel[k]);
        b.extent[k] = (float)h[k];
        for (int j = 0; j < 3; j++)
            b.axis[k][j] = (float)A[k][j];
    }
    return b;
}

static int alloc_batch(scn_scene *s, const satc_camera *c, size_t count)
{
    memset(s, 0, sizeof *s);
    s->cam = *c;
    if (satc_frustum_from_camera(&s->frustum, c) != SATC_OK)
        return -1;
    if (satc_box_arrays_alloc(&s->arrays, count) != SATC_OK)
        return -1;
    s->boxes = satc_box_arrays_view(&s->arrays);
    s->count = count;
    return 0;
}

/* Frustum frame coordinates -> camera-relative world (double). */
static void frame_to_world(const satc_camera *c, const double *p, double *w)
{
    for (int k = 0; k < 3; k++)
        w[k] = p[0] * c->left[k] + p[1] * c->up[k] + p[2] * c->dir[k];
}

/* Far depth used for sampling: f, or a large multiple of n when infinite. */
static double far_eff(const satc_camera *c) { return isinf(c->f) ? (double)c->n * 1e5 : c->f; }

/* ------------------------------------------------------------------ */
/* Running one batch through every path and both modes */

static void run_batch(group *g, scn_scene *s, const uint8_t *must_visible)
{
    size_t n = s->count;
    satc_obb *box = malloc(n * sizeof *box);
    uint8_t *truth = malloc(n), *near = calloc(n, 1), *band = calloc(n, 1), *inside = calloc(n, 1);
    uint8_t *cls = malloc(n), *ref = malloc(n);
    if (!box || !truth || !near || !band || !inside || !cls || !ref) {
        check(0, "allocation", g->name, 0);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        satc_boxes_get(&s->boxes, i, &box[i]);
        truth[i] = (uint8_t)orc_intersects(&s->cam, &box[i], 0);
        if (must_visible && must_visible[i]) {
            g->touching++;
            if (!truth[i]) {
                g->oracle_missed++;
                dump(V_ORACLE, "oracle misses a touching box", g->name, 0, "-", &s->cam, &box[i], 0);
            }
        }
    }
    for (int mode = 0; mode < 2; mode++) {
        for (int p = 0; p < npaths; p++) {
            satc_results r;
            memset(&r, 0, sizeof r);
            r.classes = p == 0 ? ref : cls;
            uint8_t *c = r.classes;
            const char *pname = satc_isa_name((satc_isa)paths[p]);
            satc_status st = satc_cull_batch_isa((satc_isa)paths[p], &s->frustum, &s->boxes, 0, n,
                                                 (satc_mode)mode, &r);
            if (st != SATC_OK) {
                check(0, "satc_cull_batch_isa returned an error", g->name, mode);
                continue;
            }
            size_t vis = 0, v[5] = {0, 0, 0, 0, 0}, fp = 0, touch = 0;
            for (size_t i = 0; i < n; i++) {
                unsigned k = c[i];
                int visible = k != SATC_OUTSIDE;
                vis += visible;
                if (!visible) {
                    if (truth[i]) {
                        v[0]++;
                        if (p == 0 || k != ref[i])
                            dump(V_FN, "false negative", g->name, mode, pname, &s->cam, &box[i], k);
                    }
                    if (!near[i])
                        near[i] = 1 + (uint8_t)orc_intersects(
                                          &s->cam, &box[i], NEAR_GROW * box_scale(&s->cam, &box[i]));
                    if (near[i] == 2 && !truth[i]) {
                        v[1]++;
                        if (p == 0 || k != ref[i])
                            dump(V_NEAR, "culled within 2^-30 S", g->name, mode, pname, &s->cam, &box[i], k);
                    }
                    if (must_visible && must_visible[i]) {
                        touch++;
                        if (p == 0 || k != ref[i])
                            dump(V_TOUCH, "touching box culled", g->name, mode, pname, &s->cam, &box[i], k);
                    }
                } else if (!truth[i]) {
                    fp++;
                    if (mode == SATC_EXACT) {
                        if (!band[i])
                            band[i] = 1 + (uint8_t)!orc_intersects(&s->cam, &box[i],
                                                                   orc_band(&s->cam, &box[i]));
                        if (band[i] == 2) {
                            v[2]++;
                            if (p == 0 || k != ref[i])
                                dump(V_BAND, "exact false positive beyond the band", g->name, mode, pname,
                                 &s->cam, &box[i], k);
                        }
                    }
                }
                if (k == SATC_INSIDE) {
                    if (!inside[i])
                        inside[i] = 1 + (uint8_t)!orc_inside(&s->cam, &box[i]);
                    if (inside[i] == 2) {
                        v[3]++;
                        if (p == 0 || k != ref[i])
                            dump(V_INSIDE, "wrong INSIDE", g->name, mode, pname, &s->cam, &box[i], k);
                    }
                }
                if (k > SATC_INSIDE)
                    v[3]++;
                if (p > 0 && k != ref[i])
                    v[4]++;
            }
            if (r.visible != vis)
                check(0, "visible count matches the classes", g->name, mode);
            if (p == 0) {
                stats *t = &g->st[mode];
                t->boxes += n;
                t->visible += vis;
                for (size_t i = 0; i < n; i++)
                    t->truth += truth[i];
                t->fn += v[0];
                t->fn_near += v[1];
                t->fp += fp;
                t->fp_band += v[2];
                t->wrong_in += v[3];
                t->touch_culled += touch;
                if (mode == SATC_EXACT) {
                    for (size_t i = 0; i < n && t->ratio_n < 20000; i++) {
                        if (ref[i] != SATC_OUTSIDE && !truth[i]) {
                            double q = distance_ratio(&s->cam, &box[i]);
                            t->ratio_n++;
                            if (q > t->max_ratio)
                                t->max_ratio = q;
                        }
                    }
                }
            } else {
                for (int q = 0; q < 5; q++)
                    g->other[mode][q] += v[q];
                g->other[mode][1] += touch;
            }
        }
    }
done:
    free(box), free(truth), free(near), free(band), free(inside), free(cls), free(ref);
}

/* ------------------------------------------------------------------ */
/* Generators: each fills a batch for camera c. */

typedef void (*gen_fn)(scn_rng *r, const satc_camera *c, satc_obb *out);

/* Boxes around the apex (perspective) or the frame origin (orthographic). */
static void gen_apex(scn_rng *r, const satc_camera *c, satc_obb *out)
{
    double s = c->orthographic ? fmax(1.0, fabs((double)c->n)) : c->n;
    double u[3], rel[3], A[3][3], h[3];
    unit_vector(r, u);
    double m = scn_uniform(r, 0, 3 * s);
    for (int k = 0; k < 3; k++)
        rel[k] = u[k] * m, h[k] = s * log_uniform(r, 1e-3, 3);
    random_axes(r, A);
    *out = make_box(c, rel, A, h);
}

/* Points, segments and flat rectangles near faces, edges and corners. */
static void gen_degenerate(scn_rng *r, const satc_camera *c, satc_obb *out)
{
    double p[3], scale, u[3], A[3][3], h[3];
    scn_boundary_point(r, c, p, &scale);
    unsigned zero = 1 + (unsigned)(scn_next(r) % 7); /* non-empty subset of axes */
    for (int k = 0; k < 3; k++)
        h[k] = (zero >> k & 1) ? 0 : 0.5 * scale * log_uniform(r, 1e-3, 0.5);
    double hd = sqrt(dot(h, h)) + scale * 1e-3 * (zero == 7);
    unit_vector(r, u);
    double m = hd * scn_uniform(r, 0, 1.5);
    for (int k = 0; k < 3; k++)
        p[k] += m * u[k];
    random_axes(r, A);
    *out = make_box(c, p, A, h);
}

/* Tiny boxes near the boundary. */
static void gen_tiny(scn_rng *r, const satc_camera *c, satc_obb *out)
{
    double p[3], scale, u[3], A[3][3], h[3];
    scn_boundary_point(r, c, p, &scale);
    for (int k = 0; k < 3; k++)
        h[k] = scale * log_uniform(r, 1e-7, 1e-4);
    unit_vector(r, u);
    double m = sqrt(dot(h, h)) * scn_uniform(r, 0, 1.5);
    for (int k = 0; k < 3; k++)
        p[k] += m * u[k];
    random_axes(r, A);
    *out = make_box(c, p, A, h);
}

/* Huge boxes, many containing the whole (finite) frustum. */
static void gen_huge(scn_rng *r, const satc_camera *c, satc_obb *out)
{
    double fe = far_eff(c), mid[3], p[3], A[3][3], h[3], u[3];
    double scale;
    if (c->orthographic) {
        p[0] = 0.5 * ((double)c->l0 + c->l1), p[1] = 0.5 * ((double)c->u0 + c->u1);
        p[2] = 0.5 * ((double)c->n + c->f);
        scale = fmax(fmax((double)c->l1 - c->l0, (double)c->u1 - c->u0), (double)c->f - c->n);
    } else {
        double t = 0.5 * (c->n + fe);
        p[0] = t * 0.5 * ((double)c->l0 + c->l1) / c->n, p[1] = t * 0.5 * ((double)c->u0 + c->u1) / c->n;
        p[2] = t;
        scale = fe * (1 + fmax(fabs((double)c->l0), fabs((double)c->l1)) / c->n +
                      fmax(fabs((double)c->u0), fabs((double)c->u1)) / c->n);
    }
    frame_to_world(c, p, mid);
    unit_vector(r, u);
    double m = scale * scn_uniform(r, 0, 1);
    for (int k = 0; k < 3; k++)
        mid[k] += m * u[k], h[k] = scale * scn_uniform(r, 0.3, 5);
    random_axes(r, A);
    *out = make_box(c, mid, A, h);
}

/* Long thin boxes across the view, or passing by a lateral edge: the
 * case a vertex test (Hoff) misses and the edge cross axes decide. */
static void gen_thin(scn_rng *r, const satc_camera *c, satc_obb *out)
{
    double fe = far_eff(c), p[3], w[3], D[3] = {c->dir[0], c->dir[1], c->dir[2]};
    double x0 = c->l0, x1 = c->l1, y0 = c->u0, y1 = c->u1, t = 1, width;
    if (!c->orthographic) {
        x0 /= c->n, x1 /= c->n, y0 /= c->n, y1 /= c->n;
        t = log_uniform(r, c->n, fe);
    }
    width = fmax(x1 - x0, y1 - y0);
    int corner = (int)(scn_next(r) % 3);
    if (corner) {
        /* near a lateral edge (a corner of the cross-section) */
        p[0] = (scn_next(r) & 1 ? x1 : x0) + width * scn_uniform(r, -0.05, 0.05);
        p[1] = (scn_next(r) & 1 ? y1 : y0) + width * scn_uniform(r, -0.05, 0.05);
    } else {
        p[0] = scn_uniform(r, x0, x1), p[1] = scn_uniform(r, y0, y1);
    }
    if (c->orthographic) {
        p[2] = scn_uniform(r, c->n, c->f);
    } else {
        p[0] *= t, p[1] *= t, p[2] = t;
    }
    frame_to_world(c, p, w);
    double u[3], A[3][3], h[3];
    unit_vector(r, u);
    double along = dot(u, D) * scn_uniform(r, 0.8, 1.0);
    for (int k = 0; k < 3; k++)
        u[k] -= along * D[k];
    normalize(u);
    frame_from(r, u, A);
    double scale = c->orthographic ? width : t * width;
    h[0] = scale * scn_uniform(r, 1, 100);
    h[1] = scale * log_uniform(r, 1e-5, 1e-2);
    h[2] = scale * log_uniform(r, 1e-5, 1e-2);
    *out = make_box(c, w, A, h);
}

/* Rotated boxes touching a frustum face from outside, by a face, an edge
 * or a corner, at a point of that face (built in double, so the float box
 * touches within rounding). */
static void gen_touch(scn_rng *r, const satc_camera *c, satc_obb *out)
{
    double x0 = c->l0, x1 = c->l1, y0 = c->u0, y1 = c->u1, n = c->n, fe = far_eff(c);
    int ortho = c->orthographic != 0;
    if (!ortho)
        x0 /= n, x1 /= n, y0 /= n, y1 /= n;
    int planes = ortho || !isinf(c->f) ? 6 : 5;
    int pl = (int)(scn_next(r) % (uint64_t)planes);
    double t = ortho ? scn_uniform(r, c->n, c->f) : log_uniform(r, n, fe);
    double p[3] = {scn_uniform(r, x0, x1), scn_uniform(r, y0, y1), t}, nrm[3] = {0, 0, 0};
    /* outward normals in frame coordinates */
    switch (pl) {
    case 0: p[0] = x0, nrm[0] = -1, nrm[2] = ortho ? 0 : x0; break;
    case 1: p[0] = x1, nrm[0] = 1, nrm[2] = ortho ? 0 : -x1; break;
    case 2: p[1] = y0, nrm[1] = -1, nrm[2] = ortho ? 0 : y0; break;
    case 3: p[1] = y1, nrm[1] = 1, nrm[2] = ortho ? 0 : -y1; break;
    case 4: p[2] = ortho ? c->n : n, nrm[2] = -1; break;
    default: p[2] = c->f, nrm[2] = 1; break;
    }
    if (!ortho)
        p[0] *= p[2], p[1] *= p[2];
    double P[3], N[3], A[3][3], h[3];
    frame_to_world(c, p, P);
    frame_to_world(c, nrm, N);
    normalize(N);
    int how = (int)(scn_next(r) % 3); /* face, edge, corner */
    if (how == 0) {
        frame_from(r, N, A);
    } else if (how == 1) {
        double B[3][3], a = scn_uniform(r, 0, PI / 2), ca = cos(a), sa = sin(a);
        frame_from(r, N, B);
        for (int k = 0; k < 3; k++) {
            A[0][k] = ca * B[0][k] + sa * B[1][k];
            A[1][k] = -sa * B[0][k] + ca * B[1][k];
            A[2][k] = B[2][k];
        }
    } else {
        random_axes(r, A);
    }
    double scale = ortho ? fmax(x1 - x0, y1 - y0) : p[2] * fmax(x1 - x0, y1 - y0);
    for (int k = 0; k < 3; k++)
        h[k] = scale * log_uniform(r, 1e-3, 1);
    /* Center = P minus the offset of the box's point deepest along -N. */
    double C[3] = {P[0], P[1], P[2]};
    for (int j = 0; j < 3; j++) {
        double an = dot(A[j], N);
        double sg = (how == 0 && j > 0) || (how == 1 && j == 2) ? 0 : (an > 0 ? -1 : 1);
        for (int k = 0; k < 3; k++)
            C[k] -= sg * h[j] * A[j][k];
    }
    *out = make_box(c, C, A, h);
}

static void run_generated(group *g, gen_fn gen, int cameras, size_t per_camera, uint64_t seed)
{
    scn_rng r;
    scn_seed(&r, seed);
    for (int ci = 0; ci < cameras; ci++) {
        satc_camera c;
        scn_random_camera(&r, (scn_cam_kind)(ci % 4), &c);
        scn_scene s;
        if (alloc_batch(&s, &c, per_camera) != 0) {
            check(0, "batch", g->name, 0);
            return;
        }
        for (size_t i = 0; i < per_camera; i++) {
            satc_obb b;
            gen(&r, &c, &b);
            satc_box_arrays_set(&s.arrays, i, &b);
        }
        run_batch(g, &s, NULL);
        scn_free(&s);
    }
}

/* ------------------------------------------------------------------ */
/* Exactly touching boxes: frames that are signed permutations of the world
 * axes, dyadic bounds, origins and boxes, so every coordinate is exact in
 * float and the box touches the frustum exactly at a chosen point T. */

static int exact_float(double x) { return (double)(float)x == x; }

static double dy(scn_rng *r, int lo, int hi, double unit) /* unit * integer in [lo, hi] */
{
    return unit * (double)(lo + (int)(scn_next(r) % (uint64_t)(hi - lo + 1)));
}

static void exact_camera(scn_rng *r, int kind, satc_camera *c)
{
    satc_frustum fr;
    do {
        memset(c, 0, sizeof *c);
        int perm[3] = {0, 1, 2};
        for (int i = 2; i > 0; i--) {
            int j = (int)(scn_next(r) % (uint64_t)(i + 1)), t = perm[i];
            perm[i] = perm[j], perm[j] = t;
        }
        double L[3] = {0, 0, 0}, U[3] = {0, 0, 0}, D[3];
        L[perm[0]] = scn_next(r) & 1 ? 1 : -1;
        U[perm[1]] = scn_next(r) & 1 ? 1 : -1;
        cross(L, U, D);
        for (int k = 0; k < 3; k++) {
            c->left[k] = (float)L[k], c->up[k] = (float)U[k], c->dir[k] = (float)D[k];
            c->origin[k] = (float)dy(r, -256, 256, 0.25);
        }
        if (kind == 2) {
            double a = dy(r, -64, 64, 0.25), b = dy(r, -64, 64, 0.25);
            double u = dy(r, -64, 64, 0.25), v = dy(r, -64, 64, 0.25);
            c->l0 = (float)fmin(a, b), c->l1 = (float)fmax(a, b);
            c->u0 = (float)fmin(u, v), c->u1 = (float)fmax(u, v);
            c->n = (float)dy(r, -64, 64, 0.25);
            c->f = c->n + (float)ldexp(1, (int)(scn_next(r) % 8));
            c->orthographic = 1;
        } else {
            double n = ldexp(1, (int)(scn_next(r) % 7) - 3);
            double a = dy(r, -16, 16, 0.125), b = dy(r, -16, 16, 0.125);
            double u = dy(r, -16, 16, 0.125), v = dy(r, -16, 16, 0.125);
            c->l0 = (float)(n * fmin(a, b)), c->l1 = (float)(n * fmax(a, b));
            c->u0 = (float)(n * fmin(u, v)), c->u1 = (float)(n * fmax(u, v));
            c->n = (float)n;
            c->f = kind == 1 ? INFINITY : (float)(n * ldexp(1, 1 + (int)(scn_next(r) % 8)));
        }
    } while (satc_frustum_from_camera(&fr, c) != SATC_OK);
}

/* One exactly touching box, or 0 when rounding would not be exact. */
static int exact_touch_box(scn_rng *r, const satc_camera *c, satc_obb *out)
{
    int ortho = c->orthographic != 0;
    double n = c->n, lo[3] = {c->l0, c->u0, n}, hi[3] = {c->l1, c->u1, c->f};
    if (!ortho) {
        lo[0] /= n, hi[0] /= n, lo[1] /= n, hi[1] /= n;
        if (isinf(c->f))
            hi[2] = n * 256;
    }
    /* T: each parameter at its lower bound, upper bound or between. */
    int at[3], any = 0;
    double q[3];
    for (int k = 0; k < 3; k++) {
        at[k] = (int)(scn_next(r) % 3); /* 0 lower, 1 upper, 2 between */
        if (k == 2 && !ortho && isinf(c->f) && at[k] == 1)
            at[k] = 0;
        any |= at[k] != 2;
        q[k] = at[k] == 0 ? lo[k] : at[k] == 1 ? hi[k] : lo[k] + (hi[k] - lo[k]) * dy(r, 1, 7, 0.125);
    }
    if (!any)
        return 0;
    double T[3] = {q[0], q[1], q[2]};
    if (!ortho)
        T[0] *= q[2], T[1] *= q[2];
    /* One plane that T lies on keeps the box outside: the box extends from T
     * away from it (sigma), the other axes either way. */
    int k0;
    do
        k0 = (int)(scn_next(r) % 3);
    while (at[k0] == 2);
    double sg[3], e[3];
    for (int k = 0; k < 3; k++) {
        sg[k] = scn_next(r) & 1 ? 1 : -1;
        e[k] = scn_next(r) % 8 == 0 ? 0 : ldexp(ortho ? 1 : q[2], -(int)(scn_next(r) % 6));
    }
    sg[k0] = at[k0] == 1 ? 1 : -1;
    if (!ortho && k0 < 2) {
        /* side plane x <= x1 z (x >= x0 z): z must move so the plane does
         * not catch up: slope * sigma_z <= 0 (>= 0 for the lower side). */
        double slope = at[k0] == 1 ? hi[k0] : lo[k0];
        double need = at[k0] == 1 ? -slope : slope; /* sigma_z * need >= 0 */
        if (need > 0)
            sg[2] = 1;
        else if (need < 0)
            sg[2] = -1;
    }
    double cf[3], w[3];
    for (int k = 0; k < 3; k++)
        cf[k] = T[k] + sg[k] * e[k];
    frame_to_world(c, cf, w);
    satc_obb b;
    memset(&b, 0, sizeof b);
    for (int k = 0; k < 3; k++) {
        double x = (double)c->origin[k] + w[k];
        if (!exact_float(x) || !exact_float(e[k]) || !exact_float(cf[k]) || !exact_float(T[k]))
            return 0;
        b.center[k] = (float)x;
        b.extent[k] = (float)e[k];
        /* box axes = the frame's vectors, so sigma and e apply per frame axis */
        b.axis[0][k] = c->left[k], b.axis[1][k] = c->up[k], b.axis[2][k] = c->dir[k];
    }
    *out = b;
    return 1;
}

static void run_exact_touch(group *g, int cameras, size_t per_camera, uint64_t seed)
{
    scn_rng r;
    scn_seed(&r, seed);
    for (int ci = 0; ci < cameras; ci++) {
        satc_camera c;
        exact_camera(&r, ci % 3, &c);
        scn_scene s;
        uint8_t *must = malloc(per_camera);
        if (!must || alloc_batch(&s, &c, per_camera) != 0) {
            check(0, "batch", g->name, 0);
            free(must);
            return;
        }
        for (size_t i = 0; i < per_camera; i++) {
            satc_obb b;
            int tries = 0;
            while (!exact_touch_box(&r, &c, &b) && ++tries < 1000) {
            }
            if (tries >= 1000) {
                /* keep the batch full with a box that is certainly visible */
                memset(&b, 0, sizeof b);
                for (int k = 0; k < 3; k++)
                    b.center[k] = c.origin[k], b.extent[k] = 1e30f, b.axis[k][k] = 1;
            }
            must[i] = 1;
            satc_box_arrays_set(&s.arrays, i, &b);
        }
        run_batch(g, &s, must);
        scn_free(&s);
        free(must);
    }
}

/* ------------------------------------------------------------------ */
/* Minimal exact-mode cases beyond the band (isolated from the groups
 * below): a segment nearly parallel to a frustum edge, just outside it,
 * straddling the two faces that meet there. The only separating axis is the
 * cross axis (frustum edge x A0), whose length |M| is small. A tolerance
 * not scaled by |M| (as an early version had) becomes tol / |M| in
 * distance and keeps these boxes beyond the band; it must scale with |M|. */

static void minimal_cases(void)
{
    satc_camera cam[2];
    memset(cam, 0, sizeof cam);
    for (int i = 0; i < 2; i++) {
        cam[i].left[0] = 1, cam[i].up[1] = 1, cam[i].dir[2] = 1;
        cam[i].l0 = -1, cam[i].l1 = 1, cam[i].u0 = -1, cam[i].u1 = 1;
    }
    cam[0].n = -1, cam[0].f = 1, cam[0].orthographic = 1; /* the cube [-1, 1]^3 */
    cam[1].n = 1, cam[1].f = 3;                            /* 90 degrees, slopes +-1 */
    const satc_obb box[2] = {
        /* distance 2.97e-3 (axis L x A0, |M| = 1/3), band 1.71e-3 */
        {{0x0p+0f, 0x1.0089ap+0f, 0x1.0089ap+0f},
         {{0x1.e2b7dep-1f, 0x1.e2b7dep-3f, -0x1.e2b7dep-3f},
          {0x1.e2b7dep-3f, 0x1.d48222p-6f, 0x1.f15beep-1f},
          {0x1.e2b7dep-3f, -0x1.f15beep-1f, -0x1.d48222p-6f}},
         {0x1p+1f, 0, 0}},
        /* distance 1.80e-2 (axis W x A0, W = (1, 1, 1), |M| = 0.172), band 7.32e-3 */
        {{0x1.00f0ccp+1f, 0x1.00f0ccp+1f, 0x1.fc3cd2p+0f},
         {{0x1.4a2918p-1f, 0x1.021cb4p-1f, 0x1.2622e6p-1f},
          {-0x1.58846p-3f, 0x1.a7546cp-1f, -0x1.12ce04p-1f},
          {-0x1.7dbb8cp-1f, 0x1.fee7dep-3f, 0x1.3c66e4p-1f}},
         {0x1p+0f, 0, 0}},
    };
    const char *names[2] = {"minimal-ortho", "minimal-persp"};
    for (int i = 0; i < 2; i++) {
        satc_frustum fr;
        satc_box_arrays a;
        if (satc_frustum_from_camera(&fr, &cam[i]) != SATC_OK || satc_box_arrays_alloc(&a, 1) != SATC_OK) {
            check(0, "setup", names[i], 1);
            continue;
        }
        satc_box_arrays_set(&a, 0, &box[i]);
        satc_boxes v = satc_box_arrays_view(&a);
        int beyond = !orc_intersects(&cam[i], &box[i], orc_band(&cam[i], &box[i]));
        check(beyond, "the minimal case lies beyond the band (oracle)", names[i], 1);
        for (int p = 0; p < npaths; p++) {
            uint8_t c = 0xff;
            satc_results r;
            memset(&r, 0, sizeof r);
            r.classes = &c;
            satc_cull_batch_isa((satc_isa)paths[p], &fr, &v, 0, 1, SATC_EXACT, &r);
            if (p == 0)
                printf("%s: band %.6g, distance ratio >= %.3e, exact class %u\n", names[i],
                       orc_band(&cam[i], &box[i]), distance_ratio(&cam[i], &box[i]), c);
            char what[96];
            snprintf(what, sizeof what, "exact mode culls the minimal case (%s)", satc_isa_name((satc_isa)paths[p]));
            check(c == SATC_OUTSIDE, what, names[i], 1);
        }
        satc_box_arrays_free(&a);
    }
}

/* ------------------------------------------------------------------ */

static void print_header(void)
{
    printf("%-22s %-5s %8s %8s %8s %4s %4s %8s %6s %5s %8s %10s\n", "group", "mode", "boxes",
           "visible", "oracle", "FN", "FN~", "FP", "FP>bd", "badIN", "FP rate", "max dist");
}

static void report(group *g)
{
    for (int mode = 0; mode < 2; mode++) {
        stats *t = &g->st[mode];
        size_t outside = t->boxes - t->truth;
        double rate = outside ? (double)t->fp / (double)outside : 0.0;
        char ratio[32] = "-";
        if (mode == SATC_EXACT && t->ratio_n)
            snprintf(ratio, sizeof ratio, "%.3e", t->max_ratio);
        printf("%-22s %-5s %8zu %8zu %8zu %4zu %4zu %8zu %6zu %5zu %8.5f %10s\n", g->name,
               mode ? "exact" : "cons", t->boxes, t->visible, t->truth, t->fn, t->fn_near, t->fp,
               t->fp_band, t->wrong_in, rate, ratio);
        check(t->fn == 0 && g->other[mode][0] == 0, "no false negative", g->name, mode);
        check(t->fn_near == 0 && t->touch_culled == 0 && g->other[mode][1] == 0,
              "no box culled within 2^-30 S of the frustum", g->name, mode);
        if (mode == SATC_EXACT)
            check(t->fp_band == 0 && g->other[mode][2] == 0, "no exact false positive beyond the band",
                  g->name, mode);
        check(t->wrong_in == 0 && g->other[mode][3] == 0, "SATC_INSIDE only inside", g->name, mode);
        if (npaths > 1)
            check(g->other[mode][4] == 0, "every path gives the scalar classes", g->name, mode);
        if (npaths > 1 && (g->other[mode][0] | g->other[mode][1] | g->other[mode][2] |
                           g->other[mode][3] | g->other[mode][4]))
            printf("    other paths: FN %zu, culled near %zu, FP>band %zu, bad INSIDE %zu, differ %zu\n",
                   g->other[mode][0], g->other[mode][1], g->other[mode][2], g->other[mode][3],
                   g->other[mode][4]);
    }
    if (g->touching) {
        check(g->oracle_missed == 0, "oracle finds every exactly touching box", g->name, 0);
        printf("    %zu exactly touching boxes, oracle missed %zu\n", g->touching, g->oracle_missed);
    }
}

int main(void)
{
    unsigned run = satc_isa_runnable();
    paths[npaths++] = SATC_ISA_SCALAR;
    for (unsigned b = 2; b <= SATC_ISA_AVX512; b <<= 1)
        if (run & b)
            paths[npaths++] = b;
    printf("paths:");
    for (int p = 0; p < npaths; p++)
        printf(" %s", satc_isa_name((satc_isa)paths[p]));
    printf("\nFN: culled but meeting; FN~: culled within 2^-30 S; FP: kept but missing (grow 0);\n"
           "FP>bd: exact mode kept beyond SATC_EXACT_BAND K (S+F); FP rate: FP / boxes outside;\n"
           "max dist: largest lower bound of distance / (K (S+F)) over exact false positives\n"
           "(the band is %.3e)\n\n",
           SATC_EXACT_BAND);

    minimal_cases();
    printf("\n");
    print_header();

    static group groups[32];
    int ng = 0;

    for (int k = 0; k < 3; k++) {
        group *g = &groups[ng++];
        g->name = scn_name((scn_kind)k);
        scn_scene s;
        if (scn_make(&s, (scn_kind)k, 250000, 2024 + (uint64_t)k, NULL) != 0) {
            check(0, "scn_make", g->name, 0);
            continue;
        }
        run_batch(g, &s, NULL);
        scn_free(&s);
        report(g);
    }

    static const char *cam_names[4] = {"boundary-symmetric", "boundary-asymmetric",
                                       "boundary-infinite", "boundary-ortho"};
    for (int k = 0; k < 4; k++) {
        group *g = &groups[ng++];
        g->name = cam_names[k];
        scn_rng r;
        scn_seed(&r, 77 + (uint64_t)k);
        for (int ci = 0; ci < 64; ci++) {
            satc_camera c;
            scn_random_camera(&r, (scn_cam_kind)k, &c);
            scn_scene s;
            if (scn_make_boundary_for(&s, &c, 4000, scn_next(&r)) != 0) {
                check(0, "scn_make_boundary_for", g->name, 0);
                break;
            }
            run_batch(g, &s, NULL);
            scn_free(&s);
        }
        report(g);
    }

    struct {
        const char *name;
        gen_fn gen;
    } adv[] = {
        {"touch-face/edge/corner", gen_touch}, {"apex", gen_apex}, {"zero-extents", gen_degenerate},
        {"long-thin", gen_thin},               {"huge", gen_huge}, {"tiny", gen_tiny},
    };
    for (size_t a = 0; a < sizeof adv / sizeof adv[0]; a++) {
        group *g = &groups[ng++];
        g->name = adv[a].name;
        run_generated(g, adv[a].gen, 64, 2000, 500 + a);
        report(g);
    }

    {
        group *g = &groups[ng++];
        g->name = "touch-exact";
        run_exact_touch(g, 63, 2000, 900);
        report(g);
    }

    size_t total[2] = {0, 0};
    for (int i = 0; i < ng; i++)
        for (int m = 0; m < 2; m++)
            total[m] += groups[i].st[m].boxes;
    printf("\nboxes per mode: %zu conservative, %zu exact\n", total[0], total[1]);
    check(total[0] >= 1000000 && total[1] >= 1000000, "at least 10^6 boxes per mode", "all", 0);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
