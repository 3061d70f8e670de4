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

#include "raster_scene.h"

/* ------------------------------------------------------------------ */
/* The cases (the shared-edge ones in raster_edges.c)                   */
/* ------------------------------------------------------------------ */

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
        satc_raster_options o = {.flags = SATC_RASTER_CULL_BACK};
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
        satc_raster_options o = {.row0 = cut[t], .row1 = t == 2 ? 0 : cut[t + 1]};
        satc_raster_batch_core(tiled, 128, 64, &S.f, &b, 0, S.nbox, &o, satc_raster_fill_ref);
    }
    check(memcmp(full, tiled, n * 4) == 0, "three tiles give the whole draw's bits");
    satc_raster_options o = {.row0 = 21, .row1 = 40};
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
    satc_raster_options big = {.min_texels = 3000};
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
    satc_raster_options o = {.flags = 8u};
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
