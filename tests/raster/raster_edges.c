/* The raster test's triangle pairs sharing an edge: quads, grids, box
 * meshes covering their diagonals, folds and other traps (raster_scene.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raster_scene.h"

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
void case_shared_edges(void)
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
    satc_raster_options cb = {.flags = SATC_RASTER_CULL_BACK};
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
void case_pairs(void)
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
