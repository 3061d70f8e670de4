/*
 * Merged coverage against the ray oracle (raster_oracle.c): random scenes
 * of axis boxes touching or leaving gaps narrower than a cell, grazing
 * faces, boxes crossing the near plane, and triangle meshes sharing edges
 * and vertices, drawn over several calls into one coverage buffer.
 * Asserts: no texel is nearer than the nearest hit of a dense grid of
 * rays through it (17 x 17 points, a sixteenth of a texel apart, so a gap
 * a tenth of a texel wide is seen); merging fills texels the whole-texel
 * rule leaves +Inf and lowers none below the unmerged draw; NULL
 * coverage gives today's bits; the reference and the active path agree,
 * and so do row tiles; rectangles narrower than a texel close the texels
 * they cover together; a buffer cleared for another view is refused.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raster/raster.h"
#include "raster_oracle.h"

#define RASTER_SEED 0x3e76ed01
#include "raster_check.h"

enum { W = 64, H = 32, MAXB = 64, MAXV = 400, MAXT = 400, GRID = 17 };

typedef struct hbox {
    float c[3], a[3][3];
} hbox;

static hbox g_box[MAXB];
static ro_occ g_occ[MAXB + MAXT];
static size_t g_nb, g_nocc;
static float g_v[MAXV][3];
static uint32_t g_idx[3 * MAXT];
static size_t g_nv, g_nt;

static void add_box(double x0, double y0, double z0, double x1, double y1, double z1)
{
    if (g_nb >= MAXB)
        return;
    hbox *b = &g_box[g_nb++];
    memset(b, 0, sizeof *b);
    double c[3] = {0.5 * (x0 + x1), 0.5 * (y0 + y1), 0.5 * (z0 + z1)};
    double h[3] = {0.5 * (x1 - x0), 0.5 * (y1 - y0), 0.5 * (z1 - z0)};
    ro_occ *o = &g_occ[g_nocc++];
    memset(o, 0, sizeof *o);
    o->kind = RO_BOX;
    for (int k = 0; k < 3; k++) {
        b->c[k] = (float)c[k];
        b->a[k][k] = (float)h[k];
        /* the oracle takes the stored floats */
        o->c[k] = b->c[k];
        o->h[k][k] = b->a[k][k];
    }
}

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
    ro_occ *o = &g_occ[g_nocc++];
    memset(o, 0, sizeof *o);
    o->kind = RO_TRI;
    uint32_t v[3] = {a, b, c};
    for (int q = 0; q < 3; q++)
        for (int k = 0; k < 3; k++)
            o->v[q][k] = g_v[v[q]][k];
    g_nt++;
}

/* A jittered n x n grid of quads at depth z (two triangles each, every
 * inner edge and vertex shared). */
static void grid(double x0, double y0, double s, double z, int n)
{
    if (g_nv + (size_t)(n + 1) * (n + 1) > MAXV)
        return;
    uint32_t base = (uint32_t)g_nv;
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++)
            vert(x0 + s * (i + rnd(-0.3, 0.3)), y0 + s * (j + rnd(-0.3, 0.3)), z + rnd(-0.5, 0.5));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            uint32_t a = base + (uint32_t)(j * (n + 1) + i), b = a + 1, c = a + (uint32_t)n + 1;
            tri(a, c, b);
            tri(c, c + 1, b);
        }
}

/* A fan around one vertex: every triangle shares it. */
static void fan(double cx, double cy, double z, double r, int n)
{
    if (g_nv + (size_t)n + 1 > MAXV)
        return;
    uint32_t c = vert(cx, cy, z), first = (uint32_t)g_nv;
    for (int k = 0; k < n; k++) {
        double t = 2 * 3.14159265358979 * k / n;
        vert(cx + r * cos(t), cy + r * sin(t), z + rnd(-0.3, 0.3));
    }
    for (int k = 0; k < n; k++)
        tri(c, first + (uint32_t)k, first + (uint32_t)((k + 1) % n));
}

/* The scene's kind k: boxes side by side in x (touching or with gaps a
 * fraction of a cell), stacked in y, grazing (faces almost along the
 * view), crossing the near plane, meshes. */
static void scene(int k)
{
    g_nb = g_nocc = g_nv = g_nt = 0;
    double z = rnd(15, 60), texel = z * 4.0 / W; /* a texel's width at depth z */
    switch (k % 5) {
    case 0: /* columns of boxes meeting inside texel columns, tiny gaps between some */
    case 1: {
        double x = rnd(-0.8, -0.4) * z, y0 = rnd(-0.3, 0) * z, y1 = y0 + rnd(0.1, 0.3) * z;
        for (int n = 0; n < 10 && x < 0.8 * z; n++) {
            double w = texel * rnd(0.3, 4), gap = rnd(0, 1) < 0.3 ? texel * rnd(0.05, 0.2) : 0;
            if (k % 5 == 1)
                add_box(-0.5 * z, y0, z, 0.5 * z, y0 + w, z + rnd(0.5, 3)), y0 += w + gap;
            else
                add_box(x, y0, z + rnd(-1, 1), x + w, y1, z + 3), x += w + gap;
        }
        break;
    }
    case 2: /* grazing: long thin boxes receding in depth */
        for (int n = 0; n < 8; n++) {
            double x = rnd(-0.6, 0.6) * z, y = rnd(-0.3, 0.3) * z;
            add_box(x, y, z, x + texel * rnd(0.5, 3), y + texel * rnd(0.5, 3), z + rnd(20, 200));
        }
        break;
    case 3: /* across the near plane */
        for (int n = 0; n < 6; n++) {
            double x = rnd(-1, 1), y = rnd(-0.5, 0.5);
            add_box(x, y, rnd(-2, 0.3), x + rnd(0.05, 1), y + rnd(0.05, 0.7), rnd(0.6, 8));
        }
        break;
    default: /* meshes: a jittered grid and a fan */
        grid(rnd(-0.7, -0.2) * z, rnd(-0.4, -0.1) * z, texel * rnd(1.5, 5), z, 6);
        fan(rnd(-0.3, 0.3) * z, rnd(-0.2, 0.2) * z, z, texel * rnd(2, 8), 9);
        break;
    }
}

static satc_batch boxes(void)
{
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_HALF_AXES;
    b.half_axes.center = SATC_VEC3S_AOS(&g_box[0].c[0], sizeof g_box[0]);
    for (int j = 0; j < 3; j++)
        b.half_axes.axis[j] = SATC_VEC3S_AOS(&g_box[0].a[j][0], sizeof g_box[0]);
    return b;
}

static satc_mesh mesh(size_t t0, size_t nt)
{
    satc_mesh m;
    memset(&m, 0, sizeof m);
    m.positions = &g_v[0][0];
    m.stride = 12;
    m.vertex_count = g_nv;
    m.indices = g_idx + 3 * t0;
    m.index_bits = 32;
    m.triangle_count = nt;
    return m;
}

/* The scene drawn over several calls (boxes two by two, the mesh in two
 * halves) into level with options o. */
static void draw(const satc_frustum *f, float *level, const satc_raster_options *o,
                 satc_raster_fill_fn fill)
{
    for (size_t k = 0; k < g_nb; k += 2) {
        satc_batch b = boxes();
        size_t n = g_nb - k < 2 ? g_nb - k : 2;
        check(satc_raster_batch_core(level, W, H, f, &b, k, n, o, fill) == SATC_OK, "boxes drawn");
    }
    if (g_nt) {
        satc_mesh a = mesh(0, g_nt / 2), b = mesh(g_nt / 2, g_nt - g_nt / 2);
        check(satc_raster_mesh_core(level, W, H, f, &a, o, fill) == SATC_OK, "mesh drawn");
        check(satc_raster_mesh_core(level, W, H, f, &b, o, fill) == SATC_OK, "mesh drawn");
    }
}

/* The farthest of the nearest hits of the rays through texel (i, j). */
static double farthest_hit(const ro_view *rv, uint32_t i, uint32_t j)
{
    double worst = -INFINITY;
    for (int b = 0; b < GRID; b++)
        for (int a = 0; a < GRID; a++) {
            double d = ro_nearest(rv, i + a / (GRID - 1.0), j + b / (GRID - 1.0), g_occ, g_nocc);
            worst = d > worst ? d : worst;
        }
    return worst;
}

/* Texels nearer than the nearest hit of some ray through them. */
static size_t invalid(const ro_view *rv, const float *level)
{
    size_t bad = 0;
    for (uint32_t j = 0; j < H; j++)
        for (uint32_t i = 0; i < W; i++) {
            float t = level[j * W + i];
            if (!(t < INFINITY))
                continue;
            double worst = -INFINITY;
            for (int b = 0; b < GRID; b++)
                for (int a = 0; a < GRID; a++) {
                    double d = ro_nearest(rv, i + a / (GRID - 1.0), j + b / (GRID - 1.0), g_occ, g_nocc);
                    worst = d > worst ? d : worst;
                }
            /* every ray through the texel meets an occluder by depth t */
            if (!(worst <= (double)t)) {
                if (bad < 3)
                    printf("  texel (%u, %u) = %.9g, a ray meets nothing before %.9g\n", i, j, t, worst);
                bad++;
            }
        }
    return bad;
}

int main(void)
{
    float e[3] = {0, 0, 0}, d[3] = {0, 0, 1}, u[3] = {0, 1, 0};
    satc_frustum f, g;
    satc_frustum_perspective(&f, e, d, u, 2.0f * atanf(1.0f), 2.0f, 0.5f, 1000);
    satc_frustum_perspective(&g, e, d, u, 2.0f * atanf(1.0f), 2.0f, 0.25f, 1000);
    ro_view rv;
    ro_view_init(&rv, &f, W, H);
    satc_pyramid pyr;
    static float store[W * H * 2];
    check(satc_pyramid_init(&pyr, &f, W, H, store, sizeof store) == SATC_OK, "pyramid");
    size_t cb = satc_coverage_bytes(W, H);
    check(cb >= (size_t)W * H * 6 && satc_coverage_bytes(0, H) == 0, "coverage bytes");
    void *cov = malloc(cb), *cov2 = malloc(cb);
    check(satc_coverage_clear(cov, cb - 1, &pyr) == SATC_ERR_LAYOUT, "short buffer refused");
    check(satc_coverage_clear(NULL, cb, &pyr) == SATC_ERR_NULL, "NULL buffer refused");
    static float plain[W * H], merged[W * H], alt[W * H], none[W * H];
    size_t bad = 0, filled = 0, lowered_below = 0, mismatch = 0, tiles = 0;
    satc_raster_fill_fn act = satc_raster_fill_for(satc_isa_active());
    for (int it = 0; it < 60; it++) {
        scene(it);
        for (int k = 0; k < W * H; k++)
            plain[k] = merged[k] = alt[k] = none[k] = INFINITY;
        satc_raster_options o0, o;
        memset(&o0, 0, sizeof o0);
        memset(&o, 0, sizeof o);
        o.coverage = cov;
        draw(&f, plain, &o0, satc_raster_fill_ref);
        draw(&f, none, NULL, satc_raster_fill_ref);
        check(satc_coverage_clear(cov, cb, &pyr) == SATC_OK, "clear");
        draw(&f, merged, &o, satc_raster_fill_ref);
        /* the active path, in two row tiles, from a fresh buffer */
        o.coverage = cov2;
        check(satc_coverage_clear(cov2, cb, &pyr) == SATC_OK, "clear");
        o.row0 = 0, o.row1 = (uint32_t)(it % (H - 1)) + 1;
        draw(&f, alt, &o, act);
        o.row0 = o.row1, o.row1 = 0;
        draw(&f, alt, &o, act);
        mismatch += memcmp(plain, none, sizeof plain) != 0;
        tiles += memcmp(merged, alt, sizeof alt) != 0 || memcmp(cov, cov2, cb) != 0;
        for (int k = 0; k < W * H; k++) {
            filled += !(plain[k] < INFINITY) && merged[k] < INFINITY;
            lowered_below += !(merged[k] <= plain[k]);
        }
        bad += invalid(&rv, merged);
    }
    printf("merged: %zu invalid texels, %zu texels filled that the whole-texel rule left +Inf\n", bad,
           filled);
    check(bad == 0, "no merged texel nearer than the surface its rays meet");
    check(filled > 0, "merging fills texels the whole-texel rule leaves +Inf");
    check(lowered_below == 0, "merged texels are never farther than the unmerged draw's");
    check(mismatch == 0, "coverage NULL and no coverage field give the same bits");
    check(tiles == 0, "the active path in row tiles gives the reference's whole-draw bits and layers");

    /* two thin boxes meeting inside a texel column, the farther one's
     * edge 0.275 texel behind the nearer one's (a cell is 0.25; the side
     * face it shows stays inside the column): neither covers the texels
     * on the seam, together they do */
    g_nb = g_nocc = g_nv = g_nt = 0;
    double z = 20, texel = z * 4.0 / W, seam = 8.375 * texel; /* 3/8 into a column */
    add_box(-2 * texel, -5 * texel, z, seam, 5 * texel, z + 0.2);
    add_box(8.1 * texel * (z + 1) / z, -5 * texel, z + 1, 18 * texel, 5 * texel, z + 1.2);
    for (int k = 0; k < W * H; k++)
        plain[k] = merged[k] = INFINITY;
    satc_raster_options o;
    memset(&o, 0, sizeof o);
    draw(&f, plain, &o, satc_raster_fill_ref);
    o.coverage = cov;
    check(satc_coverage_clear(cov, cb, &pyr) == SATC_OK, "clear");
    draw(&f, merged, &o, satc_raster_fill_ref);
    size_t seam_open = 0, seam_closed = 0;
    for (int j = 12; j < 20; j++)
        for (int i = 12; i < 52; i++)
            if (!(plain[j * W + i] < INFINITY) && farthest_hit(&rv, (uint32_t)i, (uint32_t)j) < INFINITY)
                seam_open++, seam_closed += merged[j * W + i] < INFINITY;
    printf("seam: %zu texels open without merging, %zu of them closed\n", seam_open, seam_closed);
    check(seam_open > 0 && seam_closed == seam_open, "a seam inside a texel column is closed");
    check(invalid(&rv, merged) == 0, "the seam's values are valid");

    /* upright rectangles 3/4 of a texel wide every 3/8 of a texel: no
     * rectangle covers a texel (nor is one drawn without merging: its
     * screen rectangle is narrower than a texel), neighbours overlap by
     * more than a cell, so merged they close every texel of the band */
    g_nb = g_nocc = g_nv = g_nt = 0;
    for (double x = 20.1 * texel; x < 44 * texel; x += 0.375 * texel)
        add_box(x - 32 * texel, -4 * texel, z, x - 32 * texel + 0.75 * texel, 4 * texel, z);
    for (int k = 0; k < W * H; k++)
        plain[k] = merged[k] = INFINITY;
    memset(&o, 0, sizeof o);
    draw(&f, plain, &o, satc_raster_fill_ref);
    o.coverage = cov;
    check(satc_coverage_clear(cov, cb, &pyr) == SATC_OK, "clear");
    draw(&f, merged, &o, satc_raster_fill_ref);
    size_t narrow_plain = 0, narrow_closed = 0, narrow_band = 0;
    for (int k = 0; k < W * H; k++)
        narrow_plain += plain[k] < INFINITY;
    for (int j = 13; j < 19; j++)
        for (int i = 22; i < 42; i++)
            narrow_band++, narrow_closed += merged[j * W + i] < INFINITY;
    printf("narrow: %zu texels written without merging, %zu of %zu closed merged\n", narrow_plain,
           narrow_closed, narrow_band);
    check(narrow_plain == 0 && narrow_closed == narrow_band,
          "rectangles narrower than a texel merge into whole texels");
    check(invalid(&rv, merged) == 0, "the narrow rectangles' values are valid");

    /* a buffer cleared for another view is refused, nothing written */
    satc_pyramid other;
    static float store2[W * H * 2];
    check(satc_pyramid_init(&other, &g, W, H, store2, sizeof store2) == SATC_OK, "pyramid");
    check(satc_coverage_clear(cov, cb, &other) == SATC_OK, "clear");
    memcpy(alt, merged, sizeof alt);
    satc_batch b = boxes();
    check(satc_raster_batch_core(merged, W, H, &f, &b, 0, g_nb, &o, satc_raster_fill_ref) ==
              SATC_ERR_LAYOUT && !memcmp(alt, merged, sizeof alt),
          "a buffer of another view is refused");
    free(cov), free(cov2);
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
