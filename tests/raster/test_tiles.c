/*
 * Row tiles give the whole draw's bits: random meshes (jittered grids
 * indexed as three.js's PlaneGeometry, strips, fans, closed boxes, loose
 * triangles sharing vertices at random) in random views, drawn whole and
 * in random row splits (and in a single random tile, which must match
 * the whole draw on its rows and leave the others alone), two-sided and
 * with back faces culled, on the reference fill and on the active path.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raster/raster.h"

#define RASTER_SEED 0x711e5eed
#include "raster_check.h"

enum { MAXV = 600, MAXT = 900, W = 96, H = 48 };
static float g_v[MAXV][3];
static uint32_t g_idx[3 * MAXT];
static size_t g_nv, g_nt;

static uint32_t vert(double x, double y, double z)
{
    g_v[g_nv][0] = (float)x, g_v[g_nv][1] = (float)y, g_v[g_nv][2] = (float)z;
    return (uint32_t)g_nv++;
}

static void tri(uint32_t a, uint32_t b, uint32_t c)
{
    if (g_nt >= MAXT)
        return;
    g_idx[3 * g_nt] = a, g_idx[3 * g_nt + 1] = b, g_idx[3 * g_nt + 2] = c;
    g_nt++;
}

/* A point at distance d ahead of the eye (at the origin, looking +z),
 * spread over the view. */
static void ahead(double d, double p[3])
{
    p[0] = rnd(-0.9, 0.9) * d, p[1] = rnd(-0.5, 0.5) * d, p[2] = d;
}

/* A jittered nx x ny grid through point o along u and v, indexed as
 * PlaneGeometry (two triangles a quad, row by row). */
static void grid(const double o[3], const double u[3], const double v[3], int nx, int ny)
{
    if (g_nv + (size_t)(nx + 1) * (ny + 1) > MAXV)
        return;
    uint32_t base = (uint32_t)g_nv;
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i <= nx; i++) {
            double a = i + rnd(-0.2, 0.2), b = j + rnd(-0.2, 0.2), z = rnd(-0.1, 0.1);
            vert(o[0] + a * u[0] + b * v[0] + z, o[1] + a * u[1] + b * v[1] + z,
                 o[2] + a * u[2] + b * v[2]);
        }
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            uint32_t a = base + (uint32_t)(j * (nx + 1) + i), b = a + 1, c = a + (uint32_t)nx + 1,
                     d = c + 1;
            tri(a, c, b);
            tri(c, d, b);
        }
}

/* A closed box mesh (12 triangles, outward counter-clockwise). */
static void box(const double c[3], double s)
{
    if (g_nv + 8 > MAXV)
        return;
    uint32_t v[8];
    for (int q = 0; q < 8; q++)
        v[q] = vert(c[0] + (q & 1 ? s : -s), c[1] + (q & 2 ? s : -s), c[2] + (q & 4 ? s : -s));
    static const int f[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (int k = 0; k < 6; k++) {
        tri(v[f[k][0]], v[f[k][1]], v[f[k][2]]);
        tri(v[f[k][0]], v[f[k][2]], v[f[k][3]]);
    }
}

static void random_mesh(void)
{
    g_nv = g_nt = 0;
    int parts = 1 + (int)rnd(0, 4);
    for (int k = 0; k < parts; k++) {
        double o[3];
        ahead(rnd(2, 40), o);
        double s = rnd(0.2, 4) * o[2] / 20;
        int kind = (int)rnd(0, 4);
        if (kind == 0) {
            double yaw = rnd(-1.5, 1.5), pitch = rnd(-1.5, 1.5);
            double u[3] = {s * cos(yaw), 0, s * sin(yaw)};
            double v[3] = {0, s * cos(pitch), s * sin(pitch)};
            grid(o, u, v, 1 + (int)rnd(0, 8), 1 + (int)rnd(0, 6));
        } else if (kind == 1) {
            box(o, s);
        } else if (kind == 2) { /* a strip or a fan */
            int n = 3 + (int)rnd(0, 12), fan = rnd(0, 1) < 0.5;
            if (g_nv + (size_t)n + 1 > MAXV)
                continue;
            uint32_t first = (uint32_t)g_nv;
            for (int q = 0; q <= n; q++) {
                double a = fan ? rnd(0, 6.283) : q * s;
                double r = fan && q == 0 ? 0 : s * rnd(0.5, 2);
                vert(o[0] + (fan ? r * cos(a) : a), o[1] + (fan ? r * sin(a) : (q & 1) * s),
                     o[2] + rnd(-s, s));
            }
            for (int q = 1; q < n; q++)
                fan ? tri(first, first + (uint32_t)q, first + (uint32_t)q + 1)
                    : tri(first + (uint32_t)q - 1, first + (uint32_t)q, first + (uint32_t)q + 1);
        } else { /* loose triangles over shared random vertices */
            size_t n0 = g_nv;
            int nv = 4 + (int)rnd(0, 10);
            if (g_nv + (size_t)nv > MAXV)
                continue;
            for (int q = 0; q < nv; q++)
                vert(o[0] + rnd(-s, s) * 3, o[1] + rnd(-s, s) * 3, o[2] + rnd(-s, s));
            int nt = 2 + (int)rnd(0, 20);
            for (int q = 0; q < nt; q++) {
                uint32_t a = (uint32_t)(n0 + (size_t)rnd(0, nv)), b = (uint32_t)(n0 + (size_t)rnd(0, nv)),
                         c = (uint32_t)(n0 + (size_t)rnd(0, nv));
                if (a != b && b != c && a != c)
                    tri(a, b, c);
            }
        }
    }
}

static void fill_inf(float *l)
{
    for (size_t k = 0; k < (size_t)W * H; k++)
        l[k] = INFINITY;
}

int main(void)
{
    static float whole[W * H], tiled[W * H], one[W * H];
    static float store[2 * W * H];
    int nmesh = getenv("SATC_TEST_QUICK") ? 300 : 600;
    size_t differ = 0, differ_path = 0, leaked = 0, texels = 0, paired = 0;
    for (int it = 0; it < nmesh; it++) {
        random_mesh();
        if (!g_nt)
            continue;
        satc_frustum f;
        satc_status st;
        if (it % 5 == 4) {
            satc_camera c = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, -20, 20, -10, 10, 0.5f, 500, 1};
            st = satc_frustum_from_camera(&f, &c);
        } else {
            const float e[3] = {0, 0, 0}, d[3] = {0, 0, 1}, u[3] = {0, 1, 0};
            st = satc_frustum_perspective(&f, e, d, u, 1.0f, 2.0f, 0.5f, 1000.0f);
        }
        if (st != SATC_OK) {
            check(0, "view");
            break;
        }
        satc_mesh m;
        memset(&m, 0, sizeof m);
        m.positions = &g_v[0][0];
        m.stride = 12;
        m.vertex_count = g_nv;
        m.indices = g_idx;
        m.index_bits = 32;
        m.triangle_count = g_nt;
        unsigned flags = it % 3 == 2 ? SATC_RASTER_CULL_BACK : 0u;
        satc_raster_options o = {.flags = flags};
        fill_inf(whole);
        satc_raster_mesh_core(whole, W, H, &f, &m, &o, satc_raster_fill_ref);
        /* what pairing adds: the whole draw against each triangle alone */
        fill_inf(one);
        satc_mesh m1 = m;
        m1.triangle_count = 1;
        for (size_t t = 0; t < g_nt; t++) {
            m1.indices = g_idx + 3 * t;
            satc_raster_mesh_core(one, W, H, &f, &m1, &o, satc_raster_fill_ref);
        }
        for (size_t k = 0; k < (size_t)W * H; k++) {
            texels += whole[k] < INFINITY;
            paired += whole[k] < one[k];
        }
        /* a random split into 2 to 6 tiles */
        uint32_t cut[8];
        int nc = 2 + (int)rnd(0, 5);
        cut[0] = 0;
        for (int q = 1; q < nc; q++)
            cut[q] = (uint32_t)rnd(0, H);
        cut[nc] = H;
        for (int a = 1; a < nc; a++) /* sorted: empty tiles allowed */
            for (int b = a; b > 0 && cut[b] < cut[b - 1]; b--) {
                uint32_t t = cut[b];
                cut[b] = cut[b - 1], cut[b - 1] = t;
            }
        fill_inf(tiled);
        for (int q = 0; q < nc; q++) {
            satc_raster_options to = {.flags = flags, .row0 = cut[q], .row1 = cut[q + 1]};
            if (cut[q] == cut[q + 1])
                continue; /* row1 0 means the last row */
            satc_raster_mesh_core(tiled, W, H, &f, &m, &to, satc_raster_fill_ref);
        }
        differ += memcmp(whole, tiled, sizeof whole) != 0;
        /* one tile on the active path: its rows as the whole draw's */
        uint32_t r0 = (uint32_t)rnd(0, H - 1), r1 = r0 + 1 + (uint32_t)rnd(0, H - r0 - 1);
        satc_pyramid p;
        satc_pyramid_init(&p, &f, W, H, store, sizeof store);
        satc_raster_options to = {.flags = flags, .row0 = r0, .row1 = r1};
        check(satc_pyramid_rasterize_triangles(&p, &m, &to) == SATC_OK, "tile status");
        for (uint32_t j = 0; j < H; j++)
            for (uint32_t i = 0; i < W; i++) {
                size_t k = (size_t)j * W + i;
                if (j < r0 || j >= r1)
                    leaked += !isinf(p.depth[k]);
                else
                    differ_path += memcmp(&p.depth[k], &whole[k], 4) != 0;
            }
    }
    char what[160];
    snprintf(what, sizeof what, "%d meshes: %zu tiled draws differ from the whole draw", nmesh,
             differ);
    check(differ == 0, what);
    snprintf(what, sizeof what, "a single tile on the active path: %zu texels differ, %zu written outside",
             differ_path, leaked);
    check(differ_path == 0 && leaked == 0, what);
    printf("  %zu texels written, %zu by pairs across shared edges\n", texels, paired);
    check(paired > 0, "pairs across shared edges are drawn");
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
