/*
 * The occluder rasterizer against its oracle (raster_oracle.c): rays in
 * double through a 5 x 5 grid of points of every written texel (corners
 * included) must all meet an occluder no nearer than the texel's depth.
 * Scenes: a wall filling the view (coverage), street-level boxes of every
 * form, closed and open meshes, thin and flat occluders, gaps narrower
 * than a texel, grazing triangles, occluders crossing the near plane and
 * the eye's plane, behind the camera, 10^6 from the origin, texel-aligned
 * edges, orthographic views, triangle pairs sharing an edge (quads,
 * grids, box meshes covering their diagonals; folds and other traps),
 * tiles, the small-occluder threshold, degenerate and non-finite input,
 * bad arguments (a status, nothing written). Every path's fill must write the reference's bits.
 * SATC_TEST_QUICK runs fewer poses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raster/raster.h"
#include "raster_oracle.h"

#define RASTER_SEED 0x5a7c0035
#include "raster_check.h"

static int g_quick;

/* ------------------------------------------------------------------ */
/* Scenes                                                               */
/* ------------------------------------------------------------------ */

#define MAXO 400
#define MAXT 1500
typedef struct scene {
    satc_frustum f;
    uint32_t w, h;
    /* boxes: half-axes records */
    struct boxrec {
        float c[3], a[3][3];
    } box[MAXO];
    size_t nbox;
    /* triangles: a vertex array and 32-bit indices */
    float vtx[3 * 3 * MAXT];
    uint32_t idx[3 * MAXT];
    size_t nvtx, ntri;
    ro_occ occ[MAXT];
    size_t nocc;
} scene;

static void persp(scene *s, const double eye[3], double yaw, double pitch, float fovy, float n,
                  uint32_t w, uint32_t h)
{
    float e[3] = {(float)eye[0], (float)eye[1], (float)eye[2]};
    float d[3] = {(float)(cos(pitch) * sin(yaw)), (float)sin(pitch), (float)(cos(pitch) * cos(yaw))};
    double up[3] = {-sin(pitch) * sin(yaw), cos(pitch), -sin(pitch) * cos(yaw)};
    float u[3] = {(float)up[0], (float)up[1], (float)up[2]};
    satc_status st = satc_frustum_perspective(&s->f, e, d, u, fovy, (float)w / (float)h, n, 1000.0f);
    if (st != SATC_OK) {
        printf("camera: %s\n", satc_status_string(st));
        exit(1);
    }
    s->w = w, s->h = h;
    s->nbox = s->ntri = s->nvtx = s->nocc = 0;
}

static void ortho(scene *s, float hw, float hh, float n, uint32_t w, uint32_t h)
{
    satc_camera c = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, -hw, hw, -hh, hh, n, 500, 1};
    if (satc_frustum_from_camera(&s->f, &c) != SATC_OK)
        exit(1);
    s->w = w, s->h = h;
    s->nbox = s->ntri = s->nvtx = s->nocc = 0;
}

/* A box of center c and half axes a[j] (floats, as stored). */
static void add_box(scene *s, const double c[3], double a[3][3])
{
    struct boxrec *b = &s->box[s->nbox++];
    ro_occ *o = &s->occ[s->nocc++];
    o->kind = RO_BOX;
    for (int k = 0; k < 3; k++) {
        b->c[k] = (float)c[k];
        o->c[k] = b->c[k];
        for (int j = 0; j < 3; j++) {
            b->a[j][k] = (float)a[j][k];
            o->h[j][k] = b->a[j][k];
        }
    }
}

/* A box of half sizes hx, hy, hz turned by yaw about y. */
static void add_yaw_box(scene *s, const double c[3], double hx, double hy, double hz, double yaw)
{
    double a[3][3] = {{hx * cos(yaw), 0, -hx * sin(yaw)}, {0, hy, 0}, {hz * sin(yaw), 0, hz * cos(yaw)}};
    add_box(s, c, a);
}

static uint32_t add_vertex(scene *s, const double p[3])
{
    for (int k = 0; k < 3; k++)
        s->vtx[3 * s->nvtx + k] = (float)p[k];
    return (uint32_t)s->nvtx++;
}

static void add_tri_idx(scene *s, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t id[3] = {a, b, c};
    ro_occ *o = &s->occ[s->nocc++];
    o->kind = RO_TRI;
    for (int q = 0; q < 3; q++) {
        s->idx[3 * s->ntri + q] = id[q];
        for (int k = 0; k < 3; k++)
            o->v[q][k] = s->vtx[3 * id[q] + k];
    }
    s->ntri++;
}

static void add_tri(scene *s, const double p[3], const double q[3], const double r[3])
{
    uint32_t a = add_vertex(s, p), b = add_vertex(s, q), c = add_vertex(s, r);
    add_tri_idx(s, a, b, c);
}

/* The 12 triangles of a box as a closed mesh, counter-clockwise outside. */
static void add_box_mesh(scene *s, const double c[3], double a[3][3])
{
    uint32_t v[8];
    for (int q = 0; q < 8; q++) {
        double p[3];
        for (int k = 0; k < 3; k++)
            p[k] = c[k] + (q & 1 ? a[0][k] : -a[0][k]) + (q & 2 ? a[1][k] : -a[1][k]) +
                   (q & 4 ? a[2][k] : -a[2][k]);
        v[q] = add_vertex(s, p);
    }
    /* faces as corner bits: -x, +x, -y, +y, -z, +z (outward for a right-handed a) */
    static const int f[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (int k = 0; k < 6; k++) {
        add_tri_idx(s, v[f[k][0]], v[f[k][1]], v[f[k][2]]);
        add_tri_idx(s, v[f[k][0]], v[f[k][2]], v[f[k][3]]);
    }
}

static satc_batch box_batch(const scene *s)
{
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_HALF_AXES;
    size_t st = sizeof s->box[0];
    b.half_axes.center = SATC_VEC3S_AOS(&s->box[0].c[0], st);
    for (int j = 0; j < 3; j++)
        b.half_axes.axis[j] = SATC_VEC3S_AOS(&s->box[0].a[j][0], st);
    return b;
}

static satc_mesh tri_mesh(const scene *s)
{
    satc_mesh m;
    memset(&m, 0, sizeof m);
    m.positions = s->vtx;
    m.stride = 12;
    m.vertex_count = s->nvtx;
    m.indices = s->idx;
    m.index_bits = 32;
    m.triangle_count = s->ntri;
    return m;
}

/* ------------------------------------------------------------------ */
/* Running and checking                                                 */
/* ------------------------------------------------------------------ */

typedef struct outcome {
    size_t written, full, bad, holes;
} outcome;

/* run()'s asks: count the texels every ray of which hits (WANT_FULL) or
 * the holes (WANT_HOLES, below); draw each triangle as a mesh of its own
 * (ONE_BY_ONE: no shared edge is seen). */
enum { WANT_FULL = 1, WANT_HOLES = 2, ONE_BY_ONE = 4 };

/* Level 0 starts at +Inf, except (mixed) a few texels far (1e30) or NaN. */
static void init_level(float *l, size_t n, int mixed)
{
    for (size_t k = 0; k < n; k++)
        l[k] = INFINITY;
    if (mixed)
        for (size_t k = 0; k < n; k += 7)
            l[k] = k % 3 ? 1e30f : NAN;
}

/* The scene's boxes (boxes = 1) or triangles drawn into level. */
static satc_status draw(const scene *s, int boxes, const satc_raster_options *o, int want,
                        satc_raster_fill_fn fill, float *level)
{
    satc_batch b = box_batch(s);
    satc_mesh m = tri_mesh(s);
    if (boxes)
        return satc_raster_batch_core(level, s->w, s->h, &s->f, &b, 0, s->nbox, o, fill);
    if (!(want & ONE_BY_ONE))
        return satc_raster_mesh_core(level, s->w, s->h, &s->f, &m, o, fill);
    satc_status st = SATC_OK;
    m.triangle_count = 1;
    for (size_t t = 0; t < s->ntri && st == SATC_OK; t++) {
        m.indices = s->idx + 3 * t;
        st = satc_raster_mesh_core(level, s->w, s->h, &s->f, &m, o, fill);
    }
    return st;
}

/* Texels left unwritten though the rays through the four corners of the
 * texel widened by a texel on every side all meet an occluder: for an
 * outline convex on screen, texels inside it by more than a texel. */
static size_t count_holes(const scene *s, const ro_view *rv, const float *level, const float *init)
{
    size_t holes = 0;
    for (uint32_t j = 0; j < s->h; j++) {
        for (uint32_t i = 0; i < s->w; i++) {
            size_t at = (size_t)j * s->w + i;
            if (level[at] < init[at] || (isnan(init[at]) && !isnan(level[at])))
                continue;
            int inside = 1;
            for (int c = 0; c < 4 && inside; c++)
                inside = ro_nearest(rv, i + (c & 1 ? 2.0 : -1.0), j + (c & 2 ? 2.0 : -1.0),
                                    s->occ, s->nocc) < INFINITY;
            holes += (size_t)inside;
        }
    }
    return holes;
}

/* Draws the scene with the reference, checks the oracle, and checks
 * every path writes the same bits. */
static outcome run(const char *name, scene *s, int boxes, const satc_raster_options *o, int want)
{
    size_t n = (size_t)s->w * s->h;
    float *ref = malloc(n * sizeof(float)), *init = malloc(n * sizeof(float)),
          *alt = malloc(n * sizeof(float));
    init_level(init, n, 1);
    memcpy(ref, init, n * sizeof(float));
    satc_status st = draw(s, boxes, o, want, satc_raster_fill_ref, ref);
    char what[160];
    snprintf(what, sizeof what, "%s: status %d", name, (int)st);
    check(st == SATC_OK, what);
    ro_view rv;
    ro_view_init(&rv, &s->f, s->w, s->h);
    outcome r = {0, 0, 0, 0};
    r.bad = ro_check(&rv, ref, init, s->occ, s->nocc, name, &r.written,
                     want & WANT_FULL ? &r.full : NULL);
    if (want & WANT_HOLES)
        r.holes = count_holes(s, &rv, ref, init);
    snprintf(what, sizeof what, "%s: %zu texels deeper-than-visible (of %zu written)", name, r.bad,
             r.written);
    check(r.bad == 0, what);
    for (unsigned isa = SATC_ISA_SSE41; isa <= SATC_ISA_SIMD128; isa <<= 1) {
        satc_raster_fill_fn fill = satc_raster_fill_for((satc_isa)isa);
        if (!fill)
            continue;
        memcpy(alt, init, n * sizeof(float));
        draw(s, boxes, o, want, fill, alt);
        snprintf(what, sizeof what, "%s: path %s writes the reference's bits", name,
                 satc_isa_name((satc_isa)isa));
        check(memcmp(alt, ref, n * sizeof(float)) == 0, what);
    }
    free(ref), free(init), free(alt);
    return r;
}

static void report(const char *name, outcome r)
{
    if (r.full)
        printf("  %-28s %6zu texels written, %6zu fully hit by the oracle's rays (%.1f %%)\n",
               name, r.written, r.full, 100.0 * (double)r.written / (double)r.full);
    else
        printf("  %-28s %6zu texels written\n", name, r.written);
}

/* ------------------------------------------------------------------ */
/* The cases                                                            */
/* ------------------------------------------------------------------ */

static scene S; /* large: one, static */

static void case_wall(void)
{
    const double eye[3] = {0, 1.7, 0};
    persp(&S, eye, 0.3, 0.05, 1.0f, 0.1f, 256, 128);
    double c[3] = {20 * sin(0.3), 1.7, 20 * cos(0.3)};
    add_yaw_box(&S, c, 200, 200, 1, 0.3);
    outcome r = run("wall (box)", &S, 1, NULL, 1);
    report("wall (box)", r);
    check(r.written >= (size_t)(0.95 * 256 * 128), "a box filling the view covers >= 95 % of texels");
    double a[3][3] = {{200 * cos(0.3), 0, -200 * sin(0.3)}, {0, 200, 0}, {0, 0, 0}};
    persp(&S, eye, 0.3, 0.05, 1.0f, 0.1f, 256, 128);
    double p[4][3];
    for (int q = 0; q < 4; q++)
        for (int k = 0; k < 3; k++)
            p[q][k] = c[k] + (q == 0 || q == 3 ? a[0][k] : -a[0][k]) + (q < 2 ? a[1][k] : -a[1][k]);
    add_tri(&S, p[0], p[1], p[2]);
    add_tri(&S, p[0], p[2], p[3]);
    r = run("wall (2 triangles)", &S, 0, NULL, 1);
    report("wall (2 triangles)", r);
    check(r.written >= (size_t)(0.95 * 256 * 128),
          "two triangles filling the view cover >= 95 % of texels");
}

/* Street-level boxes around the camera; also as closed meshes. */
static void city(const double eye[3], double yaw, uint32_t w, uint32_t h, size_t nb, double off)
{
    persp(&S, eye, yaw, 0.02, 1.047f, 0.1f, w, h);
    for (size_t k = 0; k < nb; k++) {
        double c[3], hs = exp(rnd(log(0.5), log(20)));
        double ang = rnd(-0.6, 0.6) + yaw, dist = rnd(3, 150);
        c[0] = eye[0] + dist * sin(ang);
        c[2] = eye[2] + dist * cos(ang);
        c[1] = off + rnd(0.5, 2) * hs;
        /* one draw per statement: argument order would differ by compiler */
        double hx = hs * rnd(0.3, 1);
        double hz = hs * rnd(0.3, 1);
        double turn = rnd(-0.5, 0.5);
        add_yaw_box(&S, c, hx, c[1] - off, hz, turn);
    }
}

static void case_city(void)
{
    int poses = g_quick ? 2 : 5;
    for (int p = 0; p < poses; p++) {
        double eye[3] = {0, 1.7, 0};
        eye[0] = rnd(-5, 5);
        eye[2] = rnd(-5, 5);
        double yaw = rnd(0, 6.28);
        uint64_t keep = g_rng;
        city(eye, yaw, 128, 64, 80, 0);
        outcome r = run("city boxes", &S, 1, NULL, p == 0);
        if (p == 0)
            report("city boxes", r);
        /* the same boxes as closed meshes, back faces culled and not */
        g_rng = keep;
        city(eye, yaw, 128, 64, 80, 0);
        scene *s = &S;
        size_t nb = s->nbox;
        struct boxrec tmp[80];
        memcpy(tmp, s->box, nb * sizeof tmp[0]);
        s->nbox = s->nocc = 0;
        for (size_t k = 0; k < nb; k++) {
            double c[3], a[3][3];
            for (int q = 0; q < 3; q++) {
                c[q] = tmp[k].c[q];
                for (int j = 0; j < 3; j++)
                    a[j][q] = tmp[k].a[j][q];
            }
            add_box_mesh(s, c, a);
        }
        satc_raster_options o = {SATC_RASTER_CULL_BACK, 0, 0, 0};
        outcome r2 = run("city meshes (closed)", &S, 0, &o, 0);
        outcome r3 = run("city meshes (two-sided)", &S, 0, NULL, 0);
        if (p == 0) {
            report("city meshes (closed)", r2);
            report("city meshes (two-sided)", r3);
        }
    }
}

/* Thin and flat boxes, sliver triangles. */
static void case_thin(void)
{
    const double eye[3] = {0, 1, 0};
    persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
    for (int k = 0; k < 60; k++) {
        double c[3] = {rnd(-10, 10), rnd(-4, 6), rnd(4, 30)};
        double t = k % 3 == 0 ? 0 : exp(rnd(log(1e-5), log(1e-2)));
        double a[3][3] = {{rnd(0.5, 4), 0, 0}, {0, rnd(0.5, 4), 0}, {0, 0, t}};
        if (k % 2) { /* turned: thin along a tilted axis */
            double y = rnd(-1.5, 1.5);
            double b[3][3] = {{a[0][0] * cos(y), 0, -a[0][0] * sin(y)}, {0, a[1][1], 0},
                              {t * sin(y), 0, t * cos(y)}};
            memcpy(a, b, sizeof a);
        }
        add_box(&S, c, a);
    }
    report("thin and flat boxes", run("thin and flat boxes", &S, 1, NULL, 0));
    persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
    for (int k = 0; k < 60; k++) {
        double p[3] = {rnd(-10, 10), rnd(-4, 6), rnd(4, 30)}, q[3], r[3];
        for (int j = 0; j < 3; j++)
            q[j] = p[j] + rnd(-6, 6), r[j] = q[j] + (p[j] - q[j]) * 0.5 + rnd(-1e-3, 1e-3);
        add_tri(&S, p, q, r);
    }
    report("sliver triangles", run("sliver triangles", &S, 0, NULL, 0));
}

/* Walls side by side with gaps of a fraction of a texel between them. */
static void case_gaps(void)
{
    const double eye[3] = {0, 0, 0};
    persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
    double z = 20, texel = 2 * z * tan(0.5) * (128.0 / 64.0) / 128.0; /* a texel's width at z */
    double x = -8;
    for (int k = 0; x < 8 && k < 40; k++) {
        double wdt = rnd(0.3, 3), gap = texel * rnd(0.05, 0.9);
        double c[3] = {x + wdt / 2, 0, z + rnd(-0.5, 0.5)};
        double a[3][3] = {{wdt / 2, 0, 0}, {0, 10, 0}, {0, 0, rnd(0, 1)}};
        add_box(&S, c, a);
        x += wdt + gap;
    }
    report("walls with narrow gaps", run("walls with narrow gaps", &S, 1, NULL, 0));
    /* and as triangle pairs */
    persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
    x = -8;
    for (int k = 0; x < 8 && k < 40; k++) {
        double wdt = rnd(0.3, 3), gap = texel * rnd(0.05, 0.9);
        double p[4][3] = {{x, -10, z}, {x + wdt, -10, z}, {x + wdt, 10, z}, {x, 10, z}};
        add_tri(&S, p[0], p[1], p[2]);
        add_tri(&S, p[0], p[2], p[3]);
        x += wdt + gap;
    }
    report("quads with narrow gaps", run("quads with narrow gaps", &S, 0, NULL, 0));
}

/* Triangles whose plane passes near the eye, and a ground seen at a
 * grazing angle. */
static void case_grazing(void)
{
    const double eye[3] = {0, 1.7, 0};
    persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
    for (int k = 0; k < 40; k++) {
        /* two points, and a third nearly on the plane through them and the eye */
        double p[3] = {rnd(-10, 10), rnd(-3, 5), rnd(2, 40)}, q[3] = {rnd(-10, 10), rnd(-3, 5), rnd(2, 40)};
        double t = rnd(0.5, 3), e = rnd(-1e-4, 1e-4), r[3];
        for (int j = 0; j < 3; j++)
            r[j] = eye[j] + t * (p[j] - eye[j]) + (1 - t) * (q[j] - eye[j]) + (j == 1 ? e : 0);
        add_tri(&S, p, q, r);
    }
    /* a ground plane of large triangles just below the eye */
    for (int k = 0; k < 8; k++) {
        double z0 = k * 20.0, h = rnd(1.69, 1.6999);
        double p[4][3] = {{-200, 1.7 - h, z0}, {200, 1.7 - h, z0}, {200, 1.7 - h, z0 + 20},
                          {-200, 1.7 - h, z0 + 20}};
        add_tri(&S, p[0], p[1], p[2]);
        add_tri(&S, p[0], p[2], p[3]);
    }
    report("grazing triangles", run("grazing triangles", &S, 0, NULL, 0));
}

/* Occluders crossing the near plane and the eye's plane; the eye in a box. */
static void case_near(void)
{
    const double eye[3] = {0, 0, 0};
    persp(&S, eye, 0, 0, 1.2f, 0.5f, 128, 64);
    double in[3] = {0.1, -0.1, 0.2};
    add_yaw_box(&S, in, 1, 1, 1, 0.2); /* contains the eye */
    for (int k = 0; k < 50; k++) {
        double c[3] = {rnd(-3, 3), rnd(-2, 2), rnd(-1, 1.5)};
        add_yaw_box(&S, c, rnd(0.1, 2), rnd(0.1, 2), rnd(0.3, 2), rnd(-1, 1));
    }
    report("boxes across the near plane", run("boxes across the near plane", &S, 1, NULL, 0));
    persp(&S, eye, 0, 0, 1.2f, 0.5f, 128, 64);
    for (int k = 0; k < 60; k++) {
        double p[3] = {rnd(-6, 6), rnd(-4, 4), rnd(-5, 6)}, q[3] = {rnd(-6, 6), rnd(-4, 4), rnd(-5, 6)},
               r[3] = {rnd(-6, 6), rnd(-4, 4), rnd(-2, 8)};
        add_tri(&S, p, q, r);
    }
    report("triangles across near / eye", run("triangles across near / eye", &S, 0, NULL, 0));
}

/* Everything behind the camera: nothing may be written. */
static void case_behind(void)
{
    const double eye[3] = {0, 0, 0};
    persp(&S, eye, 0, 0, 1.2f, 0.1f, 128, 64);
    for (int k = 0; k < 30; k++) {
        double c[3] = {rnd(-20, 20), rnd(-10, 10), rnd(-40, -2)};
        add_yaw_box(&S, c, rnd(0.5, 5), rnd(0.5, 5), rnd(0.5, 1.5), rnd(-1, 1));
        double p[3] = {rnd(-20, 20), rnd(-10, 10), rnd(-40, -0.01)}, q[3], r[3];
        for (int j = 0; j < 3; j++)
            q[j] = p[j] + rnd(-10, 10), r[j] = p[j] + rnd(-10, 10);
        q[2] = fmin(q[2], -0.01), r[2] = fmin(r[2], -0.01);
        add_tri(&S, p, q, r);
    }
    outcome a = run("behind the camera (boxes)", &S, 1, NULL, 0);
    outcome b = run("behind the camera (triangles)", &S, 0, NULL, 0);
    check(a.written == 0 && b.written == 0, "nothing behind the camera is drawn");
}

/* 10^6 from the origin. */
static void case_far(void)
{
    int poses = g_quick ? 1 : 3;
    for (int p = 0; p < poses; p++) {
        double eye[3] = {1e6 + rnd(-5, 5), 1.7, -1e6 + rnd(-5, 5)};
        city(eye, rnd(0, 6.28), 128, 64, 60, 0);
        outcome r = run("city at 1e6", &S, 1, NULL, 0);
        if (!p)
            report("city at 1e6", r);
    }
}

/* Orthographic views with texel-aligned box edges (one texel = one unit)
 * moved by a few ulps, and random boxes and triangles. */
static void case_ortho(void)
{
    ortho(&S, 64, 32, -5, 128, 64);
    for (int k = 0; k < 60; k++) {
        float lo[3], hi[3];
        for (int q = 0; q < 2; q++) {
            double a = floor(rnd(-60, 50)), b = a + floor(rnd(1, 12));
            lo[q] = nextafterf((float)a, rnd(0, 1) < 0.5 ? -INFINITY : INFINITY);
            hi[q] = nextafterf((float)b, rnd(0, 1) < 0.5 ? -INFINITY : INFINITY);
            if (rnd(0, 1) < 0.3)
                lo[q] = (float)a, hi[q] = (float)b;
        }
        lo[2] = (float)rnd(-4, 10), hi[2] = lo[2] + (float)rnd(0, 5);
        double c[3], a[3][3] = {{0}};
        for (int q = 0; q < 3; q++) {
            c[q] = 0.5 * ((double)lo[q] + (double)hi[q]);
            a[q][q] = 0.5 * ((double)hi[q] - (double)lo[q]);
        }
        add_box(&S, c, a);
    }
    report("ortho, aligned boxes", run("ortho, aligned boxes", &S, 1, NULL, 0));
    ortho(&S, 64, 32, -5, 128, 64);
    for (int k = 0; k < 40; k++) {
        double c[3] = {rnd(-60, 60), rnd(-30, 30), rnd(-8, 20)};
        double y = rnd(-3, 3), p = rnd(-1, 1);
        double a[3][3] = {{3 * cos(y), 0, -3 * sin(y)}, {0, 4 * cos(p), 4 * sin(p)},
                          {2 * sin(y), -2 * sin(p), 2 * cos(y)}};
        add_box(&S, c, a);
        double q0[3] = {rnd(-60, 60), rnd(-30, 30), rnd(-8, 20)}, q1[3], q2[3];
        for (int j = 0; j < 3; j++)
            q1[j] = q0[j] + rnd(-20, 20), q2[j] = q0[j] + rnd(-20, 20);
        add_tri(&S, q0, q1, q2);
    }
    report("ortho boxes", run("ortho boxes", &S, 1, NULL, 0));
    report("ortho triangles", run("ortho triangles", &S, 0, NULL, 0));
}

/* Perspective edges placed on texel corner rays, moved by an ulp. */
static void case_aligned(void)
{
    const double eye[3] = {0, 0, 0};
    persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
    ro_view rv;
    ro_view_init(&rv, &S.f, 128, 64);
    for (int k = 0; k < 80; k++) {
        double p[3][3];
        for (int q = 0; q < 3; q++) {
            /* a texel corner's ray (the oracle's own ray) at a random depth */
            double u = floor(rnd(0, 129)), v = floor(rnd(0, 65)), t = rnd(2, 50);
            const satc_frustum *f = &S.f;
            double a = (double)f->x1 - ((double)f->x1 - (double)f->x0) * u / 128;
            double b = (double)f->y0 + ((double)f->y1 - (double)f->y0) * v / 64;
            double d[3] = {a * t, b * t, t};
            for (int r = 0; r < 3; r++)
                p[q][r] = rv.Finv[r][0] * d[0] + rv.Finv[r][1] * d[1] + rv.Finv[r][2] * d[2];
        }
        add_tri(&S, p[0], p[1], p[2]);
    }
    report("corner-aligned triangles", run("corner-aligned triangles", &S, 0, NULL, 0));
}

/* ------------------------------------------------------------------ */
/* Shared edges: triangle pairs                                         */
/* ------------------------------------------------------------------ */

/* Two consecutive triangles PQa and QPb sharing the edge PQ: by index
 * (one vertex each) or by position (repeated, bit-identical vertices). */
static void add_pair(scene *s, const double P[3], const double Q[3], const double a[3],
                     const double b[3], int by_index)
{
    if (!by_index) {
        add_tri(s, P, Q, a);
        add_tri(s, Q, P, b);
        return;
    }
    uint32_t p = add_vertex(s, P), q = add_vertex(s, Q), va = add_vertex(s, a), vb = add_vertex(s, b);
    add_tri_idx(s, p, q, va);
    add_tri_idx(s, q, p, vb);
}

/* c + x u + y v */
static void at(const double c[3], const double u[3], const double v[3], double x, double y,
               double o[3])
{
    for (int k = 0; k < 3; k++)
        o[k] = c[k] + x * u[k] + y * v[k];
}

/* A tilted plane's axes (half sizes hu, hv) turned by r about the view. */
static void tilted_axes(double hu, double hv, double r, double u[3], double v[3])
{
    double y = rnd(-0.5, 0.5), p = rnd(-0.4, 0.4);
    double U[3] = {cos(y), 0, -sin(y)}, Vv[3] = {-sin(p) * sin(y), cos(p), -sin(p) * cos(y)};
    for (int k = 0; k < 3; k++) {
        u[k] = hu * (cos(r) * U[k] + sin(r) * Vv[k]);
        v[k] = hv * (-sin(r) * U[k] + cos(r) * Vv[k]);
    }
}

/* A quad as two triangles and a grid of them (as three.js's PlaneGeometry
 * indexes it) facing the camera, and a closed box mesh: the texels on
 * their shared edges are covered, none of the quad's inside is left. */
static void case_shared_edges(void)
{
    const double eye[3] = {0, 0, 0};
    size_t alone = 0, paired = 0;
    int poses = g_quick ? 2 : 4;
    for (int q = 0; q < poses; q++) {
        persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
        double c[3] = {rnd(-2, 2), rnd(-1, 1), rnd(15, 25)}, u[3], v[3], p[4][3];
        tilted_axes(rnd(5, 8), rnd(3, 5), rnd(0, 6.28), u, v);
        for (int k = 0; k < 4; k++)
            at(c, u, v, k == 0 || k == 3 ? -1 : 1, k < 2 ? -1 : 1, p[k]);
        uint32_t id[4];
        for (int k = 0; k < 4; k++)
            id[k] = add_vertex(&S, p[k]);
        add_tri_idx(&S, id[0], id[1], id[2]);
        add_tri_idx(&S, id[0], id[2], id[3]);
        size_t h0 = run("quad, triangles alone", &S, 0, NULL, WANT_HOLES | ONE_BY_ONE).holes;
        size_t h1 = run("quad (2 triangles)", &S, 0, NULL, WANT_HOLES).holes;
        /* the diagonal is some 40 texels long */
        check(h0 >= 10, "a quad's triangles drawn alone leave their diagonal");
        check(h1 == 0, "a quad as two triangles leaves none of its inside unwritten");
        alone += h0, paired += h1;
    }
    printf("  %-28s %6zu texels inside left unwritten (%zu drawing each triangle alone)\n",
           "quads (2 triangles)", paired, alone);

    /* the grid: rows of cells, each two triangles (a, b, d), (b, c, d) */
    persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
    const int gx = 6, gy = 4;
    double c[3] = {0.5, -0.3, 20}, u[3], v[3];
    tilted_axes(8, 5, 0.3, u, v);
    for (int j = 0; j <= gy; j++)
        for (int i = 0; i <= gx; i++) {
            double pt[3];
            at(c, u, v, 2.0 * i / gx - 1, 1 - 2.0 * j / gy, pt);
            add_vertex(&S, pt);
        }
    for (int j = 0; j < gy; j++)
        for (int i = 0; i < gx; i++) {
            uint32_t a = (uint32_t)(i + (gx + 1) * j), b = (uint32_t)(i + (gx + 1) * (j + 1));
            add_tri_idx(&S, a, b, a + 1);
            add_tri_idx(&S, b, b + 1, a + 1);
        }
    outcome g0 = run("grid, triangles alone", &S, 0, NULL, WANT_HOLES | ONE_BY_ONE);
    outcome g1 = run("grid", &S, 0, NULL, WANT_HOLES);
    printf("  %-28s %6zu texels inside left unwritten (%zu drawing each triangle alone)\n",
           "grid 6 x 4 cells", g1.holes, g0.holes);
    check(2 * g1.holes < g0.holes, "a grid's consecutive triangles cover their shared edges");

    /* a closed box, three faces seen */
    persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
    double bc[3] = {0.5, -0.2, 12}, y = 0.6, pt = 0.5;
    double ba[3][3] = {{4 * cos(y), 0, -4 * sin(y)},
                       {-3 * sin(pt) * sin(y), 3 * cos(pt), -3 * sin(pt) * cos(y)},
                       {3 * cos(pt) * sin(y), 3 * sin(pt), 3 * cos(pt) * cos(y)}};
    add_box_mesh(&S, bc, ba);
    satc_raster_options cb = {SATC_RASTER_CULL_BACK, 0, 0, 0};
    for (int two = 0; two < 2; two++) {
        const satc_raster_options *o = two ? NULL : &cb;
        outcome b0 = run("box mesh, triangles alone", &S, 0, o, WANT_HOLES | ONE_BY_ONE);
        outcome b1 = run("box mesh", &S, 0, o, WANT_HOLES);
        printf("  %-28s %6zu texels written, %zu inside unwritten (alone: %zu, %zu)\n",
               two ? "box mesh (two-sided)" : "box mesh (closed)", b1.written, b1.holes,
               b0.written, b0.holes);
        /* closed: the front faces' creases too; two-sided: the back faces do */
        check(b1.written > b0.written && 10 * b1.holes < b0.holes,
              "a box mesh's faces cover their diagonals and creases");
    }
}

/* Pairs made to mislead: folds (b behind a on screen, or the crease seen
 * edge-on), slivers, near-degenerate shared edges, pairs across the near
 * plane and the eye's plane, far from the origin, random non-planar ones,
 * and orthographic views. The oracle checks every written texel. */
static void case_pairs(void)
{
    const double eye[3] = {0, 0, 0};
    persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
    /* a fold: b straight behind a's side; the wedge of the outer edges
     * past PQ holds no triangle */
    const double P[3] = {0, -3, 10}, Q[3] = {0, 3, 10}, a[3] = {3, 0, 10}, b[3] = {3, 0, 16};
    add_pair(&S, P, Q, a, b, 1);
    report("a fold", run("a fold", &S, 0, NULL, 0));
    persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
    for (int k = 0; k < 160; k++) {
        double p[3] = {rnd(-8, 8), rnd(-4, 4), rnd(5, 30)}, q[3], ra[3], rb[3];
        for (int j = 0; j < 3; j++)
            q[j] = p[j] + rnd(-6, 6), ra[j] = p[j] + rnd(-6, 6);
        q[2] = fmax(q[2], 1), ra[2] = fmax(ra[2], 1);
        double t = rnd(1.05, 3), m = rnd(0, 1), e = k % 4 == 0 ? 0 : rnd(-1e-5, 1e-5);
        switch (k % 4) {
        case 0: /* b behind a on screen */
        case 1: /* and moved a little */
            for (int j = 0; j < 3; j++)
                rb[j] = ra[j] * t + (j == 1 ? e * ra[2] : 0);
            break;
        case 2: /* the crease seen edge-on: b nearly in the plane of the eye and PQ */
            for (int j = 0; j < 3; j++)
                rb[j] = t * (p[j] + m * (q[j] - p[j])) + (j == 0 ? e : 0);
            break;
        default: /* a sliver on either side */
            for (int j = 0; j < 3; j++)
                rb[j] = p[j] + m * (q[j] - p[j]) + rnd(-1e-3, 1e-3);
        }
        add_pair(&S, p, q, ra, rb, k & 1);
    }
    report("folded and sliver pairs", run("folded and sliver pairs", &S, 0, NULL, 0));

    persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
    for (int k = 0; k < 120; k++) {
        double p[3] = {rnd(-8, 8), rnd(-4, 4), rnd(3, 30)}, q[3], ra[3], rb[3];
        double d = k % 2 ? exp(rnd(log(1e-7), log(1e-2))) : rnd(1, 8);
        for (int j = 0; j < 3; j++)
            q[j] = p[j] + d * rnd(-1, 1), ra[j] = p[j] + rnd(-6, 6), rb[j] = p[j] + rnd(-6, 6);
        add_pair(&S, p, q, ra, rb, k & 2);
    }
    report("random, tiny shared edges", run("random, tiny shared edges", &S, 0, NULL, 0));

    persp(&S, eye, 0, 0, 1.2f, 0.5f, 128, 64);
    for (int k = 0; k < 120; k++) {
        double p[3] = {rnd(-6, 6), rnd(-4, 4), rnd(-2, 4)}, q[3] = {rnd(-6, 6), rnd(-4, 4), rnd(-1, 5)},
               ra[3] = {rnd(-6, 6), rnd(-4, 4), rnd(-1, 6)}, rb[3];
        if (k % 3 == 0) { /* a plane through (nearly) the eye */
            double t = rnd(0.5, 2), e = rnd(-1e-4, 1e-4);
            for (int j = 0; j < 3; j++)
                rb[j] = t * p[j] + (1 - t) * q[j] + (j == 1 ? e : 0) - 0.3 * (ra[j] - p[j]);
        } else {
            for (int j = 0; j < 3; j++)
                rb[j] = p[j] + q[j] - ra[j] + rnd(-1, 1);
        }
        add_pair(&S, p, q, ra, rb, k & 1);
    }
    report("pairs across near / eye", run("pairs across near / eye", &S, 0, NULL, 0));

    double far_eye[3] = {1e6 + rnd(-5, 5), 1.7, -1e6 + rnd(-5, 5)};
    persp(&S, far_eye, 0.7, 0, 1.0f, 0.1f, 128, 64);
    for (int k = 0; k < 80; k++) {
        double ang = 0.7 + rnd(-0.5, 0.5), dist = exp(rnd(log(5), log(900)));
        double c[3] = {far_eye[0] + dist * sin(ang), 1.7 + rnd(-0.3, 0.3) * dist,
                       far_eye[2] + dist * cos(ang)};
        double u[3], v[3], p[4][3];
        tilted_axes(dist * rnd(0.02, 0.3), dist * rnd(0.02, 0.3), rnd(0, 6.28), u, v);
        for (int j = 0; j < 4; j++)
            at(c, u, v, j == 0 || j == 3 ? -1 : 1, j < 2 ? -1 : 1, p[j]);
        add_pair(&S, p[0], p[2], p[1], p[3], k & 1);
    }
    report("quads at 1e6", run("quads at 1e6", &S, 0, NULL, 0));

    ortho(&S, 64, 32, -5, 128, 64);
    for (int k = 0; k < 80; k++) {
        double p[3] = {rnd(-60, 60), rnd(-30, 30), rnd(-8, 20)}, q[3], ra[3], rb[3];
        for (int j = 0; j < 3; j++)
            q[j] = p[j] + rnd(-20, 20), ra[j] = p[j] + rnd(-20, 20), rb[j] = p[j] + rnd(-20, 20);
        if (k % 3 == 0) /* folded: b behind a along the view */
            rb[0] = ra[0] + rnd(-1e-4, 1e-4), rb[1] = ra[1], rb[2] = ra[2] + rnd(1, 9);
        add_pair(&S, p, q, ra, rb, k & 1);
    }
    report("ortho pairs", run("ortho pairs", &S, 0, NULL, 0));
}

/* Tiles: drawing rows in three ranges gives the whole draw's bits, and
 * rows outside a tile are left alone. min_texels skips small ones. */
static void case_tiles(void)
{
    const double eye[3] = {0, 1.7, 0};
    city(eye, 0.4, 128, 64, 80, 0);
    size_t n = 128 * 64;
    float *full = malloc(n * 4), *tiled = malloc(n * 4), *one = malloc(n * 4);
    satc_batch b = box_batch(&S);
    init_level(full, n, 0);
    init_level(tiled, n, 0);
    init_level(one, n, 0);
    satc_raster_batch_core(full, 128, 64, &S.f, &b, 0, S.nbox, NULL, satc_raster_fill_ref);
    uint32_t cut[4] = {0, 21, 40, 64};
    for (int t = 0; t < 3; t++) {
        satc_raster_options o = {0, 0, cut[t], t == 2 ? 0 : cut[t + 1]};
        satc_raster_batch_core(tiled, 128, 64, &S.f, &b, 0, S.nbox, &o, satc_raster_fill_ref);
    }
    check(memcmp(full, tiled, n * 4) == 0, "three tiles give the whole draw's bits");
    satc_raster_options o = {0, 0, 21, 40};
    satc_raster_batch_core(one, 128, 64, &S.f, &b, 0, S.nbox, &o, satc_raster_fill_ref);
    int outside = 0, inside = 1;
    for (size_t k = 0; k < n; k++) {
        size_t row = k / 128;
        if (row < 21 || row >= 40)
            outside |= !isinf(one[k]);
        else
            inside &= memcmp(&one[k], &full[k], 4) == 0;
    }
    check(!outside && inside, "a tile writes its rows only, with the whole draw's bits");
    satc_raster_options big = {0, 3000, 0, 0};
    size_t raised = 0, lowered = 0;
    init_level(one, n, 0);
    satc_raster_batch_core(one, 128, 64, &S.f, &b, 0, S.nbox, &big, satc_raster_fill_ref);
    for (size_t k = 0; k < n; k++)
        raised += one[k] > full[k], lowered += one[k] < full[k];
    printf("  min_texels 3000: %zu texels farther than without it\n", raised);
    check(raised > 0 && lowered == 0, "min_texels skips small occluders (texels only get farther)");
    outcome r = run("min_texels 3000 (oracle)", &S, 1, &big, 0);
    (void)r;
    free(full), free(tiled), free(one);
}

/* Every form of satc_batch, against the oracle of its own definition. */
static void case_forms(void)
{
    const double eye[3] = {0, 1.7, 0};
    persp(&S, eye, 0, 0, 1.0f, 0.1f, 128, 64);
    enum { N = 40 };
    float aabb[N][6], inst[N][16], sph[N][4];
    const float lc[3] = {0.25f, 0, -0.5f}, lh[3] = {1, 2, 0.5f};
    ro_occ occ[3][N];
    for (int k = 0; k < N; k++) {
        double c[3] = {rnd(-15, 15), rnd(-3, 6), rnd(3, 40)};
        for (int q = 0; q < 3; q++)
            aabb[k][q] = (float)c[q], aabb[k][3 + q] = (float)rnd(0.2, 3);
        occ[0][k].kind = RO_BOX;
        memset(occ[0][k].h, 0, sizeof occ[0][k].h);
        for (int q = 0; q < 3; q++)
            occ[0][k].c[q] = aabb[k][q], occ[0][k].h[q][q] = aabb[k][3 + q];
        /* a 4x4 column-major matrix: yaw, scale, translation */
        double y = rnd(-3, 3), s = rnd(0.5, 3);
        float m[16] = {(float)(s * cos(y)), 0, (float)(-s * sin(y)), 0, 0, (float)s, 0, 0,
                       (float)(s * sin(y)), 0, (float)(s * cos(y)), 0, (float)c[0], (float)c[1],
                       (float)c[2], 1};
        memcpy(inst[k], m, sizeof m);
        occ[1][k].kind = RO_BOX;
        for (int r = 0; r < 3; r++) {
            occ[1][k].c[r] = (double)m[12 + r] + (double)m[r] * lc[0] + (double)m[4 + r] * lc[1] +
                             (double)m[8 + r] * lc[2];
            for (int j = 0; j < 3; j++)
                occ[1][k].h[j][r] = (double)m[4 * j + r] * lh[j];
        }
        for (int q = 0; q < 3; q++)
            sph[k][q] = (float)c[q];
        sph[k][3] = (float)rnd(0.2, 4);
        occ[2][k].kind = RO_SPHERE;
        for (int q = 0; q < 3; q++)
            occ[2][k].c[q] = sph[k][q];
        occ[2][k].h[0][0] = sph[k][3];
    }
    satc_batch b[3];
    memset(b, 0, sizeof b);
    b[0].form = SATC_FORM_AABB;
    b[0].aabb.center = SATC_VEC3S_AOS(&aabb[0][0], 24);
    b[0].aabb.half = SATC_VEC3S_AOS(&aabb[0][3], 24);
    b[1].form = SATC_FORM_INSTANCES;
    b[1].instances.matrix = inst[0];
    b[1].instances.stride = 64;
    b[1].instances.layout = SATC_AFFINE_4X4_COLUMN_MAJOR;
    b[1].instances.local_center = SATC_VEC3S_AOS(lc, 0);
    b[1].instances.local_half = SATC_VEC3S_AOS(lh, 0);
    b[2].form = SATC_FORM_SPHERES;
    b[2].spheres.center = SATC_VEC3S_AOS(&sph[0][0], 16);
    b[2].spheres.radius = (satc_floats){&sph[0][3], 16};
    static const char *names[3] = {"form aabb", "form instances", "form spheres"};
    size_t n = 128 * 64;
    float *l = malloc(n * 4), *init = malloc(n * 4);
    ro_view rv;
    ro_view_init(&rv, &S.f, 128, 64);
    for (int q = 0; q < 3; q++) {
        init_level(init, n, 1);
        memcpy(l, init, n * 4);
        satc_status st = satc_raster_batch_core(l, 128, 64, &S.f, &b[q], 0, N, NULL, satc_raster_fill_ref);
        check(st == SATC_OK, names[q]);
        size_t wr = 0;
        size_t bad = ro_check(&rv, l, init, occ[q], N, names[q], &wr, NULL);
        char what[120];
        snprintf(what, sizeof what, "%s: %zu texels deeper than visible (%zu written)", names[q], bad, wr);
        check(bad == 0 && wr > 0, what);
        printf("  %-28s %6zu texels written\n", names[q], wr);
    }
    free(l), free(init);
}

/* Degenerate and non-finite occluders draw nothing; bad arguments give a
 * status and write nothing. */
static void case_bad(void)
{
    const double eye[3] = {0, 0, 0};
    persp(&S, eye, 0, 0, 1.0f, 0.1f, 64, 32);
    double p[3] = {-1, -1, 5}, q[3] = {1, 1, 5}, r[3] = {3, 3, 5}, z[3] = {0, 0, 5};
    add_tri(&S, p, q, r); /* collinear */
    add_tri(&S, p, p, q); /* repeated vertex */
    add_tri(&S, z, z, z); /* a point */
    double nanv[3] = {NAN, 0, 5}, big[3] = {-50, -50, 5}, big2[3] = {50, -50, 5}, big3[3] = {0, 50, 5};
    add_tri(&S, nanv, big2, big3); /* NaN vertex */
    double inf[3] = {INFINITY, 0, 5};
    add_tri(&S, big, inf, big3);
    double cn[3] = {0, 0, NAN}, a[3][3] = {{50, 0, 0}, {0, 50, 0}, {0, 0, 1}};
    add_box(&S, cn, a);
    double c2[3] = {0, 0, 10}, a2[3][3] = {{50, 0, 0}, {0, NAN, 0}, {0, 0, 1}};
    add_box(&S, c2, a2);
    double a3[3][3] = {{50, 0, 0}, {0, 0, 0}, {0, 0, 0}}; /* a segment */
    add_box(&S, c2, a3);
    outcome t = run("degenerate / non-finite triangles", &S, 0, NULL, 0);
    outcome b = run("non-finite boxes", &S, 1, NULL, 0);
    check(t.written == 0 && b.written == 0, "degenerate and non-finite occluders draw nothing");

    /* bad arguments: a status, level 0 untouched */
    size_t n = 64 * 32;
    float *l = malloc(n * 4), *init = malloc(n * 4);
    init_level(init, n, 1);
    memcpy(l, init, n * 4);
    satc_mesh m = tri_mesh(&S);
    m.triangle_count = 2; /* the valid-looking ones first */
    uint32_t idx[6] = {0, 1, 2, 0, 1, (uint32_t)S.nvtx};
    m.indices = idx;
    check(satc_raster_mesh_core(l, 64, 32, &S.f, &m, NULL, satc_raster_fill_ref) == SATC_ERR_RANGE,
          "an index past vertex_count: SATC_ERR_RANGE");
    uint16_t idx16[6] = {0, 1, 2, 0, 1, 60000};
    m.indices = idx16;
    m.index_bits = 16;
    check(satc_raster_mesh_core(l, 64, 32, &S.f, &m, NULL, satc_raster_fill_ref) == SATC_ERR_RANGE,
          "a 16-bit index past vertex_count: SATC_ERR_RANGE");
    m.index_bits = 8;
    check(satc_raster_mesh_core(l, 64, 32, &S.f, &m, NULL, satc_raster_fill_ref) == SATC_ERR_FLAGS,
          "index_bits 8: SATC_ERR_FLAGS");
    m.index_bits = 32;
    m.indices = NULL;
    m.triangle_count = S.nvtx / 3 + 1;
    check(satc_raster_mesh_core(l, 64, 32, &S.f, &m, NULL, satc_raster_fill_ref) == SATC_ERR_RANGE,
          "more triangles than vertices without indices: SATC_ERR_RANGE");
    m = tri_mesh(&S);
    m.stride = 8;
    check(satc_raster_mesh_core(l, 64, 32, &S.f, &m, NULL, satc_raster_fill_ref) == SATC_ERR_LAYOUT,
          "stride 8: SATC_ERR_LAYOUT");
    m = tri_mesh(&S);
    m.positions = NULL;
    check(satc_raster_mesh_core(l, 64, 32, &S.f, &m, NULL, satc_raster_fill_ref) == SATC_ERR_NULL,
          "positions NULL: SATC_ERR_NULL");
    m = tri_mesh(&S);
    satc_raster_options o = {8u, 0, 0, 0};
    check(satc_raster_mesh_core(l, 64, 32, &S.f, &m, &o, satc_raster_fill_ref) == SATC_ERR_FLAGS,
          "unknown flag: SATC_ERR_FLAGS");
    o.flags = 0, o.min_texels = NAN;
    check(satc_raster_mesh_core(l, 64, 32, &S.f, &m, &o, satc_raster_fill_ref) == SATC_ERR_BOUNDS,
          "min_texels NaN: SATC_ERR_BOUNDS");
    o.min_texels = 0, o.row0 = 10, o.row1 = 5;
    check(satc_raster_mesh_core(l, 64, 32, &S.f, &m, &o, satc_raster_fill_ref) == SATC_ERR_RANGE,
          "row0 > row1: SATC_ERR_RANGE");
    o.row0 = 0, o.row1 = 33;
    satc_batch bb = box_batch(&S);
    check(satc_raster_batch_core(l, 64, 32, &S.f, &bb, 0, S.nbox, &o, satc_raster_fill_ref) ==
              SATC_ERR_RANGE,
          "row1 past the height: SATC_ERR_RANGE");
    bb.form = (satc_form)42;
    check(satc_raster_batch_core(l, 64, 32, &S.f, &bb, 0, 1, NULL, satc_raster_fill_ref) ==
              SATC_ERR_FLAGS,
          "unknown form: SATC_ERR_FLAGS");
    bb = box_batch(&S);
    bb.half_axes.center.x = NULL;
    check(satc_raster_batch_core(l, 64, 32, &S.f, &bb, 0, 1, NULL, satc_raster_fill_ref) ==
              SATC_ERR_NULL,
          "a NULL stream: SATC_ERR_NULL");
    satc_frustum pl;
    const float half[1][4] = {{0, 0, 1, 0}};
    satc_frustum_from_planes(&pl, half, 1, 0);
    check(satc_raster_mesh_core(l, 64, 32, &pl, &m, NULL, satc_raster_fill_ref) == SATC_ERR_FLAGS,
          "a plane volume: SATC_ERR_FLAGS");
    check(memcmp(l, init, n * 4) == 0, "bad arguments write nothing");
    free(l), free(init);
}

/* The public entry points: the pyramid's level 0 gets the reference's
 * bits on the active path, other levels are left to satc_pyramid_build,
 * and a pyramid not set up gets SATC_ERR_PYRAMID with nothing written. */
static void case_public(void)
{
    const double eye[3] = {0, 1.7, 0};
    city(eye, 1.1, 128, 64, 60, 0);
    size_t bytes = satc_pyramid_bytes(128, 64), n = 128 * 64;
    float *store = malloc(bytes), *ref = malloc(n * 4);
    satc_pyramid p;
    check(satc_pyramid_init(&p, &S.f, 128, 64, store, bytes) == SATC_OK, "pyramid set up");
    satc_batch b = box_batch(&S);
    satc_mesh m = tri_mesh(&S);
    init_level(ref, n, 0);
    satc_raster_batch_core(ref, 128, 64, &S.f, &b, 0, S.nbox, NULL, satc_raster_fill_ref);
    check(satc_pyramid_rasterize(&p, &b, 0, S.nbox, NULL) == SATC_OK, "satc_pyramid_rasterize: SATC_OK");
    check(memcmp(p.depth, ref, n * 4) == 0, "satc_pyramid_rasterize writes the reference's bits");
    int rest = 1;
    for (size_t k = n; k < bytes / 4; k++)
        rest &= isinf(store[k]) && store[k] > 0;
    check(rest, "levels above 0 untouched until satc_pyramid_build");
    check(satc_pyramid_rasterize_triangles(&p, &m, NULL) == SATC_OK,
          "satc_pyramid_rasterize_triangles: SATC_OK (no triangles)");
    satc_pyramid bad = p;
    bad.width = 100;
    float *copy = malloc(bytes);
    memcpy(copy, store, bytes);
    check(satc_pyramid_rasterize(&bad, &b, 0, S.nbox, NULL) == SATC_ERR_PYRAMID,
          "a pyramid not set up: SATC_ERR_PYRAMID");
    check(satc_pyramid_rasterize_triangles(&bad, &m, NULL) == SATC_ERR_PYRAMID,
          "a pyramid not set up (triangles): SATC_ERR_PYRAMID");
    check(satc_pyramid_rasterize(NULL, &b, 0, 1, NULL) == SATC_ERR_NULL, "pyramid NULL: SATC_ERR_NULL");
    check(satc_pyramid_rasterize(&p, NULL, 0, 1, NULL) == SATC_ERR_NULL, "batch NULL: SATC_ERR_NULL");
    check(satc_pyramid_rasterize(&p, &b, SIZE_MAX, 2, NULL) == SATC_ERR_RANGE,
          "first + count overflows: SATC_ERR_RANGE");
    check(memcmp(copy, store, bytes) == 0, "errors write nothing");
    free(store), free(ref), free(copy);
}

int main(void)
{
    g_quick = getenv("SATC_TEST_QUICK") != NULL;
    printf("occluder rasterizer against rays in double (5 x 5 per written texel)\n");
    case_wall();
    case_city();
    case_thin();
    case_gaps();
    case_grazing();
    case_near();
    case_behind();
    case_far();
    case_ortho();
    case_aligned();
    case_tiles();
    case_forms();
    case_bad();
    case_public();
    /* last: the earlier cases keep their random draws */
    case_shared_edges();
    case_pairs();
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
