/*
 * Large worlds in double: a double camera against boxes
 * stored relative to a double batch origin (satc_frustum_from_camera_d),
 * at 10^9 units from the world origin, and the set-ups of Godot's reports
 * (#2408 far from the origin, #32764 meshes at 1.2e7 with near 1e6 and far
 * 1e8, #55070 extreme near/far ratios). Every path, both modes: no false
 * negative against the double oracle, which takes the camera's exact
 * double origin (orc_intersects_at); every path equals scalar.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "oracle.h"
#include "robust_util.h"
#include "scenes.h"

#define COUNT 4096

static satc_isa paths[8];
static int npaths;

typedef struct world {
    satc_camera_d cam; /* origin in double world units */
    double O[3];       /* the batch origin */
    satc_camera local; /* the same camera's float fields (origin unused) */
} world;

static double off_of(const world *w, int k) { return w->O[k] - w->cam.origin[k]; }

static int touches(const world *w, const satc_obb *b)
{
    const double off[3] = {off_of(w, 0), off_of(w, 1), off_of(w, 2)};
    return orc_intersects_at(&w->local, off, b, 0.0);
}

/* A point of the view, depth t along a ray through the frustum's window
 * (u, v in [-1.2, 1.2]: a little outside too), relative to O. */
static void view_point(const world *w, rb_rng *r, double t, double p[3])
{
    const satc_camera *c = &w->local;
    double u = rb_uniform(r, -1.2, 1.2), v = rb_uniform(r, -1.2, 1.2);
    double x = 0.5 * (c->l0 + c->l1) + 0.5 * u * (c->l1 - c->l0);
    double y = 0.5 * (c->u0 + c->u1) + 0.5 * v * (c->u1 - c->u0);
    double s = c->orthographic ? 1.0 : t / c->n;
    for (int k = 0; k < 3; k++) {
        double rel = c->orthographic ? x * c->left[k] + y * c->up[k] + t * c->dir[k]
                                     : s * (x * c->left[k] + y * c->up[k]) + t * c->dir[k];
        p[k] = rel - off_of(w, k);
    }
}

/* Moves box b along the line from its center towards the camera's side
 * until it just touches (bisection on the oracle), half of them barely
 * in and half barely out once rounded to float. */
static void graze(const world *w, rb_rng *r, satc_obb *b, const double dir[3], double reach)
{
    satc_obb t = *b;
    double lo = 0, hi = reach, c0[3] = {b->center[0], b->center[1], b->center[2]};
    if (!touches(w, b))
        return;
    for (int k = 0; k < 3; k++)
        t.center[k] = (float)(c0[k] + hi * dir[k]);
    if (touches(w, &t))
        return;
    for (int it = 0; it < 60; it++) {
        double m = 0.5 * (lo + hi);
        for (int k = 0; k < 3; k++)
            t.center[k] = (float)(c0[k] + m * dir[k]);
        if (touches(w, &t))
            lo = m;
        else
            hi = m;
    }
    double m = rb_uniform(r, 0, 1) < 0.5 ? lo : hi;
    for (int k = 0; k < 3; k++)
        b->center[k] = (float)(c0[k] + m * dir[k]);
}

/* Boxes at depths log-uniform in [tmin, tmax], sizes a fraction of their
 * depth (or absolute), every second one grazing; culled on every path and
 * mode through the double camera. Returns the false negatives. */
static long run_world(const char *name, const world *w, rb_rng *r, double tmin, double tmax,
                      double size_rel, double size_abs, satc_box_arrays *arr)
{
    static satc_obb box[COUNT];
    satc_frustum f;
    satc_status st = satc_frustum_from_camera_d(&f, &w->cam, w->O);
    if (!rb_check(st == SATC_OK, "%s: frustum from the double camera: %d", name, (int)st))
        return 1;
    for (size_t i = 0; i < COUNT; i++) {
        double t = w->local.orthographic ? rb_uniform(r, tmin, tmax)
                                         : exp(rb_uniform(r, log(tmin), log(tmax))),
               p[3];
        view_point(w, r, t, p);
        double e = size_abs + size_rel * t;
        float q[4], c[3] = {(float)p[0], (float)p[1], (float)p[2]};
        float h[3] = {(float)(e * rb_uniform(r, 0.05, 1)), (float)(e * rb_uniform(r, 0.05, 1)),
                      (float)(e * rb_uniform(r, 0.05, 1))};
        rb_random_quat(r, q);
        satc_obb_from_quat(&box[i], c, q, h);
        if (i % 2) {
            double d[3], len = 0;
            for (int k = 0; k < 3; k++)
                d[k] = rb_uniform(r, -1, 1), len += d[k] * d[k];
            for (int k = 0; k < 3; k++)
                d[k] /= sqrt(len);
            graze(w, r, &box[i], d, 4 * (e + t));
        }
        satc_box_arrays_set(arr, i, &box[i]);
    }
    satc_boxes v = satc_box_arrays_view(arr);
    satc_batch b = satc_batch_from_boxes(&v);
    long fn = 0, touching = 0, kept[2] = {0, 0};
    static uint8_t ref[2][COUNT], got[COUNT];
    for (int mode = 0; mode < 2; mode++) {
        satc_results rr = {NULL, ref[mode], NULL, 0};
        satc_cull_isa(SATC_ISA_SCALAR, &f, &b, 0, COUNT, (satc_mode)mode, &rr);
        for (int p = 0; p < npaths; p++) {
            satc_results g = {NULL, got, NULL, 0};
            st = satc_cull_isa(paths[p], &f, &b, 0, COUNT, (satc_mode)mode, &g);
            rb_check(st == SATC_OK && !memcmp(got, ref[mode], COUNT), "%s: %s mode %d equals scalar",
                     name, satc_isa_name(paths[p]), mode);
        }
    }
    for (size_t i = 0; i < COUNT; i++) {
        int hit = touches(w, &box[i]);
        touching += hit;
        for (int mode = 0; mode < 2; mode++) {
            kept[mode] += ref[mode][i] != SATC_OUTSIDE;
            fn += hit && ref[mode][i] == SATC_OUTSIDE;
        }
    }
    printf("%-34s touching %5ld  kept cons %5ld exact %5ld  false negatives %ld  tol_t %.3g\n",
           name, touching, kept[0], kept[1], fn, (double)f.tol_t);
    rb_check(fn == 0, "%s: no false negative", name);
    rb_check(touching > COUNT / 8 && touching < COUNT, "%s: both answers occur (%ld touching)", name,
             touching);
    return fn;
}

static scn_rng cam_rng;

static void set_camera(world *w, scn_cam_kind kind, const double E[3], double n, double f)
{
    satc_camera c;
    scn_random_camera(&cam_rng, kind, &c);
    double scale = n / c.n;
    if (!c.orthographic) {
        c.l0 = (float)(c.l0 * scale), c.l1 = (float)(c.l1 * scale);
        c.u0 = (float)(c.u0 * scale), c.u1 = (float)(c.u1 * scale);
        c.n = (float)n;
        c.f = isinf(c.f) ? c.f : (float)f;
    }
    w->local = c;
    memcpy(w->cam.left, c.left, sizeof c.left);
    memcpy(w->cam.up, c.up, sizeof c.up);
    memcpy(w->cam.dir, c.dir, sizeof c.dir);
    w->cam.l0 = c.l0, w->cam.l1 = c.l1, w->cam.u0 = c.u0, w->cam.u1 = c.u1;
    w->cam.n = c.n, w->cam.f = c.f, w->cam.orthographic = c.orthographic;
    for (int k = 0; k < 3; k++)
        w->cam.origin[k] = E[k];
}

int main(void)
{
    npaths = rb_paths(paths);
    rb_rng r = {0x776f726c64ull};
    scn_seed(&cam_rng, 0x63616d6572ull);
    satc_box_arrays arr;
    if (satc_box_arrays_alloc(&arr, COUNT) != SATC_OK)
        return 2;
    const scn_cam_kind kinds[4] = {SCN_CAM_SYMMETRIC, SCN_CAM_ASYMMETRIC, SCN_CAM_INFINITE,
                                   SCN_CAM_ORTHO};
    /* 10^9 units from the origin, camera near the boxes; the batch origin
     * on a 4096-unit tile grid, the camera anywhere in its tile. */
    for (int k = 0; k < 4; k++) {
        world w;
        double E[3] = {1e9 + rb_uniform(&r, 0, 4096), -1e9 + rb_uniform(&r, 0, 4096),
                       0.7e9 + rb_uniform(&r, 0, 4096)};
        set_camera(&w, kinds[k], E, 0.1, 3000);
        for (int j = 0; j < 3; j++)
            w.O[j] = 4096.0 * floor(E[j] / 4096.0);
        char name[64];
        snprintf(name, sizeof name, "1e9 from the origin, %s", scn_cam_name(kinds[k]));
        double tmax = w.local.orthographic ? w.local.f : 3000;
        double tmin = w.local.orthographic ? w.local.n : 0.1;
        double rel = w.local.orthographic ? 0 : 0.05;
        double abs = w.local.orthographic ? 0.02 * (w.local.l1 - w.local.l0) : 0.01;
        run_world(name, &w, &r, tmin, tmax, rel, abs, &arr);
    }
    /* Godot #2408: the camera and the scene 10^7-10^8 from the origin with
     * the batch origin at the world origin: the float camera origin is off
     * by up to 4 units, all of it in tol_t. */
    {
        world w;
        double E[3] = {3.3e7 + 0.37, 1.5e7 - 0.61, -2.1e7 + 0.11};
        set_camera(&w, SCN_CAM_SYMMETRIC, E, 0.5, 2000);
        w.O[0] = w.O[1] = w.O[2] = 0;
        run_world("Godot #2408: scene at 3e7, O = 0", &w, &r, 0.5, 2000, 0.05, 0.5, &arr);
    }
    /* Godot #32764: meshes 1.2e7 away, near 1e6, far 1e8. */
    {
        world w;
        double E[3] = {0, 0, 0};
        set_camera(&w, SCN_CAM_SYMMETRIC, E, 1e6, 1e8);
        w.O[0] = w.O[1] = w.O[2] = 0;
        run_world("Godot #32764: 1.2e7 away, n 1e6", &w, &r, 1.0e7, 1.4e7, 0.02, 0, &arr);
    }
    /* Godot #55070: near 1e-4, far 1e7 (a ratio of 1e11). */
    {
        world w;
        double E[3] = {1e5 + 0.25, 2e5, -3e5};
        set_camera(&w, SCN_CAM_SYMMETRIC, E, 1e-4, 1e7);
        w.O[0] = 1e5, w.O[1] = 2e5, w.O[2] = -3e5;
        run_world("Godot #55070: n 1e-4, f 1e7", &w, &r, 1e-4, 1e7, 0.05, 0, &arr);
    }
    /* Bad input: a status, *out untouched. */
    {
        world w;
        double E[3] = {1, 2, 3}, bad[3] = {0, NAN, 0}, huge[3] = {1e30, 0, 0};
        set_camera(&w, SCN_CAM_SYMMETRIC, E, 0.1, 100);
        satc_frustum f, keep;
        memset(&keep, 0x3c, sizeof keep);
        f = keep;
        rb_check(satc_frustum_from_camera_d(&f, &w.cam, bad) == SATC_ERR_NONFINITE &&
                     !memcmp(&f, &keep, sizeof f),
                 "NaN batch origin");
        f = keep;
        rb_check(satc_frustum_from_camera_d(&f, &w.cam, huge) == SATC_ERR_BOUNDS &&
                     !memcmp(&f, &keep, sizeof f),
                 "E - O beyond SATC_MAX_MAGNITUDE");
        w.cam.n = -1;
        f = keep;
        rb_check(satc_frustum_from_camera_d(&f, &w.cam, E) == SATC_ERR_NEAR &&
                     !memcmp(&f, &keep, sizeof f),
                 "the camera's own checks");
        rb_check(satc_frustum_from_camera_d(NULL, &w.cam, E) == SATC_ERR_NULL, "NULL out");
    }
    satc_box_arrays_free(&arr);
    return rb_finish();
}
