/*
 * Boxes behind what is drawn: the box setup skips a box when every texel
 * of its rectangle already holds a depth no farther than the box's
 * nearest point. That must change nothing. Random scenes of oriented
 * boxes, many stacked behind each other, some touching, some grazing the
 * near plane, others around the view's edges, behind the eye and past the
 * far plane, perspective and orthographic views, with and without
 * merged coverage, whole and in row tiles, on the reference fill and the
 * active path: drawn through satc_raster_batch_core (which skips, and
 * sets up only what its frustum pass keeps), the
 * level 0 and the coverage layers must equal, bit for bit, the same boxes
 * set up without the skip and filled one by one. The test also counts
 * the boxes skipped, so it fails if the skip never fires.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raster/raster.h"

#define RASTER_SEED 0x51c1bde5
#include "raster_check.h"

enum { W = 80, H = 48, MAXB = 200 };

typedef struct hbox {
    float c[3], a[3][3];
} hbox;

static hbox g_box[MAXB];
static size_t g_nb;

/* A random rotation applied to the diagonal half axes h. */
static void add_box(const double c[3], const double h[3], int tilt)
{
    hbox *b = &g_box[g_nb++];
    double ang = tilt ? rnd(-3.2, 3.2) : 0, bng = tilt ? rnd(-0.6, 0.6) : 0;
    double R[3][3] = {{cos(ang), 0, sin(ang)}, {0, 1, 0}, {-sin(ang), 0, cos(ang)}};
    double T[3][3] = {{1, 0, 0}, {0, cos(bng), -sin(bng)}, {0, sin(bng), cos(bng)}};
    for (int k = 0; k < 3; k++) {
        b->c[k] = (float)c[k];
        for (int q = 0; q < 3; q++) {
            double v = 0;
            for (int r = 0; r < 3; r++)
                v += T[q][r] * R[r][k];
            b->a[k][q] = (float)(h[k] * v);
        }
    }
}

/* Scene k: rows of walls at increasing depth (most hidden by the first),
 * small boxes scattered behind them, a few reaching the near plane, some
 * touching their neighbours exactly. */
static void scene(int k, int ortho)
{
    g_nb = 0;
    double zs = ortho ? 0 : 1; /* perspective: spread grows with depth */
    int walls = 3 + k % 4;
    for (int w = 0; w < walls && g_nb < MAXB; w++) {
        double z = 6 + 5 * w + rnd(0, 2), s = zs ? z : 10;
        double c[3] = {rnd(-0.3, 0.3) * s, rnd(-0.2, 0.2) * s, z};
        double h[3] = {rnd(0.3, 0.8) * s, rnd(0.2, 0.6) * s, rnd(0.05, 1.5)};
        add_box(c, h, k % 3 == 0);
    }
    while (g_nb < MAXB - 40) {
        double z = rnd(4, 40), s = zs ? z : 10;
        double c[3] = {rnd(-0.8, 0.8) * s, rnd(-0.5, 0.5) * s, z};
        double e = rnd(0.01, 0.15) * s;
        double h[3] = {e * rnd(0.2, 1), e * rnd(0.2, 1), rnd(0.05, 2)};
        add_box(c, h, 1);
        if (rnd(0, 1) < 0.2) { /* a twin touching it along x */
            double c2[3] = {c[0] + 2 * h[0], c[1], c[2]};
            add_box(c2, h, 0);
        }
    }
    double cn[3] = {rnd(-1, 1), rnd(-1, 1), 0.5}, hn[3] = {0.6, 0.4, 0.3};
    add_box(cn, hn, 1); /* through the near plane */
    /* around the view's edges, behind the eye and past the far plane (the
     * draw's frustum pass must leave exactly what the setup draws) */
    for (int q = 0; q < 30 && g_nb < MAXB; q++) {
        int far = q % 6 == 0, behind = q % 6 == 1;
        double z = far ? rnd(1100, 2000) : behind ? rnd(-40, -1) : rnd(2, 60);
        double s = ortho ? 10 : fabs(z), e = rnd(0.02, 0.2) * s;
        double c[3] = {rnd(-1.8, 1.8) * s, rnd(-1.2, 1.2) * s, z}, h[3] = {e, e * rnd(0.3, 1), e};
        add_box(c, h, q & 1);
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

static int same_poly(const satc_rpoly *a, const satc_rpoly *b)
{
    if (a->i0 != b->i0 || a->i1 != b->i1 || a->j0 != b->j0 || a->j1 != b->j1 || a->ne != b->ne ||
        a->np != b->np || a->ortho != b->ortho)
        return 0;
    return !memcmp(a->e, b->e, sizeof a->e[0] * a->ne) && !memcmp(a->g, b->g, sizeof a->g[0] * a->np);
}

/* The boxes of scene set up without the skip and filled one by one, rows
 * [row0, row1); the count of boxes the skip would have dropped to *skips. */
static void draw_plain(const satc_frustum *f, float *level, const satc_raster_options *o,
                       satc_raster_fill_fn fill, size_t *skips)
{
    satc_batch b = boxes();
    satc_rview rv, rs;
    uint32_t r1 = o->row1 ? o->row1 : H;
    unsigned flags = o->flags | (o->coverage ? SATC_RVIEW_CELLS : 0u);
    satc_rview_init(&rv, f, W, H, o->row0, r1, o->min_texels, flags);
    rs = rv;
    rs.drawn = level;
    satc_rcov cov;
    if (o->coverage) {
        /* the layers end the buffer (12 bytes a texel after its header) */
        cov.depth = (float *)(void *)((char *)o->coverage + (satc_coverage_bytes(W, H) -
                                                             (size_t)W * H * 12));
        cov.mask = (uint16_t *)(void *)(cov.depth + 2 * (size_t)W * H);
    }
    for (size_t i = 0; i < g_nb; i++) {
        double c[3], Hx[3][3], cerr;
        if (!satc_occluder_box(&b, i, c, Hx, &cerr))
            continue;
        satc_rpoly p[3], q[3];
        int np = satc_raster_setup_box(&rv, c, (const double(*)[3])Hx, cerr, p);
        int nq = satc_raster_setup_box(&rs, c, (const double(*)[3])Hx, cerr, q);
        *skips += np > 0 && nq == 0;
        int same = nq == 0 || nq == np;
        for (int k = 0; k < nq && same; k++)
            same = same_poly(&p[k], &q[k]);
        check(same, "a box not skipped is set up as without the skip");
        for (int k = 0; k < np; k++)
            fill(&p[k], level, W, o->coverage ? &cov : NULL);
    }
}

int main(void)
{
    float e[3] = {0, 0, 0}, d[3] = {0, 0, 1}, u[3] = {0, 1, 0};
    satc_frustum views[2];
    check(satc_frustum_perspective(&views[0], e, d, u, 1.4f, (float)W / H, 0.5f, 1000) == SATC_OK &&
              satc_frustum_look_at_ortho(&views[1], e, d, u, -12, 12, -8, 8, 0.5f, 1000) == SATC_OK,
          "views");
    size_t cb = satc_coverage_bytes(W, H);
    check(cb >= (size_t)W * H * 12, "coverage layout as assumed");
    void *cov_a = malloc(cb), *cov_b = malloc(cb);
    static float level_a[W * H], level_b[W * H], store[W * H * 2];
    satc_raster_fill_fn fills[2] = {satc_raster_fill_ref, satc_raster_fill_for(satc_isa_active())};
    size_t skips = 0, mism = 0, runs = 0;
    for (int it = 0; it < 48; it++) {
        int ortho = it & 1, merged = it >> 1 & 1, tiled = it >> 2 & 1;
        const satc_frustum *f = &views[ortho];
        satc_pyramid pyr;
        check(satc_pyramid_init(&pyr, f, W, H, store, sizeof store) == SATC_OK, "pyramid");
        scene(it, ortho);
        satc_batch b = boxes();
        for (int fi = 0; fi < 2; fi++) {
            satc_raster_options o;
            memset(&o, 0, sizeof o);
            for (int k = 0; k < W * H; k++)
                level_a[k] = level_b[k] = INFINITY;
            if (merged) {
                check(satc_coverage_clear(cov_a, cb, &pyr) == SATC_OK, "clear");
                check(satc_coverage_clear(cov_b, cb, &pyr) == SATC_OK, "clear");
            }
            uint32_t cut = tiled ? (uint32_t)(7 + it % (H - 14)) : H;
            for (int t = 0; t < (tiled ? 2 : 1); t++) {
                o.row0 = t ? cut : 0, o.row1 = t ? H : cut;
                o.coverage = merged ? cov_a : NULL;
                check(satc_raster_batch_core(level_a, W, H, f, &b, 0, g_nb, &o, fills[fi]) == SATC_OK,
                      "drawn");
                o.coverage = merged ? cov_b : NULL;
                draw_plain(f, level_b, &o, fills[fi], &skips);
            }
            runs++;
            mism += memcmp(level_a, level_b, sizeof level_a) != 0 ||
                    (merged && memcmp(cov_a, cov_b, cb) != 0);
        }
    }
    printf("skip: %zu boxes skipped over %zu draws, %zu draws differ from the unskipped\n", skips,
           runs, mism);
    check(mism == 0, "skipping boxes behind what is drawn changes no bit of level 0 or the layers");
    check(skips > 20 * runs, "the skip fires on stacked scenes");
    free(cov_a);
    free(cov_b);
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
