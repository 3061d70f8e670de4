/*
 * Where the occlusion test's excess over a ray cast comes from, on the
 * demo city (every frustum-kept building and the ground as occluders),
 * per pose and pyramid size. Level-0 images, each tested by the library
 * (satc_cull_occluded) and by a plain reference test (every level-0 texel
 * of the box's exact rectangle against its exact nearest depth):
 *   raster:  satc_pyramid_rasterize, one occluder per texel
 *   merged:  the same with merged coverage
 *   boxes:   each box's exact cover (4 corner rays) and farthest corner
 *            depth, the least over boxes: the rasterizer without margins
 *   ideal:   the farthest of the nearest surface over (S+1)^2 rays per
 *            texel (edges included): occluders perfectly merged
 *   center:  the nearest surface at the texel's center (not a bound)
 * and texel statistics of raster and boxes against ideal. A measuring
 * tool, not a benchmark: no times. Options: --quick (pose 0), --s N.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occ_bench.h"
#include "occ_forms.h"
#include "occ_scene.h"

#define NCITY 100000

static float up(double x)
{
    float f = (float)x;
    if ((double)f < x)
        f = nextafterf(f, INFINITY);
    return f;
}

/* Exact screen rectangle (texel coordinates) and nearest depth of box x;
 * 0 when a corner is nearer than n. */
static int box_rect(const occ_view *v, const occ_box *x, uint32_t W, uint32_t H, double r[4],
                    double *zmin)
{
    const satc_frustum *f = &v->f;
    double w = ((double)f->x1 - f->x0) / W, h = ((double)f->y1 - f->y0) / H;
    r[0] = r[2] = INFINITY, r[1] = r[3] = -INFINITY;
    *zmin = INFINITY;
    for (int q = 0; q < 8; q++) {
        double p[3], d[3];
        for (int k = 0; k < 3; k++) {
            p[k] = x->c[k] - v->E[k];
            for (int j = 0; j < 3; j++)
                p[k] += ((q >> j & 1) ? 1 : -1) * x->e[j] * x->a[j][k];
        }
        for (int i = 0; i < 3; i++)
            d[i] = v->F[i][0] * p[0] + v->F[i][1] * p[1] + v->F[i][2] * p[2];
        if (!(d[2] > f->n))
            return 0;
        *zmin = d[2] < *zmin ? d[2] : *zmin;
        double u = (f->x1 - d[0] / d[2]) / w, t = (d[1] / d[2] - f->y0) / h;
        r[0] = u < r[0] ? u : r[0], r[1] = u > r[1] ? u : r[1];
        r[2] = t < r[2] ? t : r[2], r[3] = t > r[3] ? t : r[3];
    }
    return 1;
}

/* The reference test: kept boxes not hidden by level 0 lv. */
static size_t ref_kept(const occ_view *v, const float *lv, uint32_t W, uint32_t H,
                       const occ_box *boxes, const uint32_t *kept, size_t nk)
{
    size_t vis = 0;
    for (size_t q = 0; q < nk; q++) {
        double r[4], z;
        if (!box_rect(v, &boxes[kept[q]], W, H, r, &z)) {
            vis++;
            continue;
        }
        long i0 = (long)floor(r[0]), i1 = (long)ceil(r[1]) - 1;
        long j0 = (long)floor(r[2]), j1 = (long)ceil(r[3]) - 1;
        i0 = i0 < 0 ? 0 : i0, j0 = j0 < 0 ? 0 : j0;
        i1 = i1 >= (long)W ? (long)W - 1 : i1, j1 = j1 >= (long)H ? (long)H - 1 : j1;
        int hid = i0 <= i1 && j0 <= j1;
        for (long j = j0; j <= j1 && hid; j++)
            for (long i = i0; i <= i1 && hid; i++)
                hid = (double)lv[(size_t)j * W + i] < z;
        vis += !hid;
    }
    return vis;
}

static size_t lib_kept(satc_pyramid *p, const satc_batch *b, size_t n)
{
    satc_pyramid_build(p);
    satc_results r = {NULL, NULL, NULL, 0};
    satc_cull_occluded(p, b, 0, n, SATC_CONSERVATIVE, &r, NULL, NULL);
    return r.visible;
}

/* Texels of a against ideal z: +Inf where ideal is finite; finite and
 * farther by more than 1e-4; the mean of a / ideal - 1 there. */
static void compare(const float *a, const float *z, size_t np, double out[3])
{
    size_t inf = 0, far = 0, fin = 0;
    double s = 0;
    for (size_t t = 0; t < np; t++) {
        if (!isfinite(z[t]))
            continue;
        fin++;
        if (!isfinite(a[t]))
            inf++;
        else if (a[t] > z[t] * (1 + 1e-4))
            far++, s += a[t] / z[t] - 1;
    }
    out[0] = 100.0 * inf / fin, out[1] = 100.0 * far / fin, out[2] = far ? s / far : 0;
}


/* Texels that keep a building level 0 a keeps and ideal hides (a texel of
 * its rectangle not nearer in a, nearer in ideal), by what the texel's
 * (S+1)^2 rays see nearest: one box, a box and the ground, two boxes, or
 * more; and the buildings all of whose such texels see one box. */
static void blockers(const occ_view *v, const float *a, const float *ideal, uint32_t W, uint32_t H,
                     int S, const occ_box *ob, size_t nk, const occ_box *boxes,
                     const uint32_t *kept, const char *name)
{
    const satc_frustum *f = &v->f;
    double tw = ((double)f->x1 - f->x0) / W, th = ((double)f->y1 - f->y0) / H;
    double (*rc)[4] = malloc(nk * sizeof *rc);
    for (size_t q = 0; q < nk; q++) {
        double z;
        if (!box_rect(v, &ob[q], W, H, rc[q], &z))
            rc[q][0] = -1e9, rc[q][1] = 1e9, rc[q][2] = -1e9, rc[q][3] = 1e9;
    }
    int8_t *cat = malloc((size_t)W * H);
    memset(cat, -1, (size_t)W * H);
    size_t ncat[5] = {0}, bld = 0, bld1 = 0, texsum = 0;
    for (size_t q = 0; q < nk; q++) {
        double r[4], z;
        if (!box_rect(v, &boxes[kept[q]], W, H, r, &z))
            continue;
        long i0 = (long)floor(r[0]), i1 = (long)ceil(r[1]) - 1;
        long j0 = (long)floor(r[2]), j1 = (long)ceil(r[3]) - 1;
        i0 = i0 < 0 ? 0 : i0, j0 = j0 < 0 ? 0 : j0;
        i1 = i1 >= (long)W ? (long)W - 1 : i1, j1 = j1 >= (long)H ? (long)H - 1 : j1;
        if (i0 > i1 || j0 > j1)
            continue;
        int hid_i = 1, hid_a = 1;
        for (long j = j0; j <= j1; j++)
            for (long i = i0; i <= i1; i++) {
                hid_i &= (double)ideal[(size_t)j * W + i] < z;
                hid_a &= (double)a[(size_t)j * W + i] < z;
            }
        if (!hid_i || hid_a)
            continue;
        bld++;
        int all1 = 1;
        for (long j = j0; j <= j1; j++)
            for (long i = i0; i <= i1; i++) {
                size_t t = (size_t)j * W + i;
                if (!((double)a[t] >= z))
                    continue;
                texsum++;
                if (cat[t] < 0) {
                    long ids[64];
                    int nid = 0;
                    for (int sy = 0; sy <= S; sy++)
                        for (int sx = 0; sx <= S; sx++) {
                            double o[3], d[3], best = INFINITY, t0, t1;
                            long id = -1;
                            occ_ray(v, f->x1 - tw * (i + (double)sx / S), f->y0 + th * (j + (double)sy / S), o, d);
                            double u = i + (double)sx / S, w = j + (double)sy / S;
                            for (size_t c = 0; c <= nk; c++) {
                                if (c < nk && (u < rc[c][0] - 1e-9 || u > rc[c][1] + 1e-9 ||
                                               w < rc[c][2] - 1e-9 || w > rc[c][3] + 1e-9))
                                    continue;
                                if (occ_ray_box(&ob[c], o, d, &t0, &t1) && t1 >= f->n) {
                                    double e = t0 >= f->n ? t0 : t1;
                                    if (e < best)
                                        best = e, id = (long)c;
                                }
                            }
                            int seen = 0;
                            for (int x = 0; x < nid; x++)
                                seen |= ids[x] == id;
                            if (!seen && nid < 64)
                                ids[nid++] = id;
                        }
                    int g = 0;
                    for (int x = 0; x < nid; x++)
                        g |= ids[x] == (long)nk;
                    cat[t] = (int8_t)(nid == 1 ? (g ? 4 : 0) : nid == 2 ? (g ? 1 : 2) : 3);
                    ncat[cat[t]]++;
                }
                all1 &= cat[t] == 0 || cat[t] == 4;
            }
        bld1 += all1;
    }
    size_t tot = ncat[0] + ncat[1] + ncat[2] + ncat[3] + ncat[4];
    printf("      %-8s %zu buildings kept that ideal hides (%zu: every blocking texel sees one "
           "surface), %zu texel reads; %zu texels: one box %.1f%%, ground only %.1f%%, box+ground "
           "%.1f%%, 2 boxes %.1f%%, more %.1f%%\n", name, bld, bld1, texsum, tot,
           100.0 * ncat[0] / tot, 100.0 * ncat[4] / tot, 100.0 * ncat[1] / tot,
           100.0 * ncat[2] / tot, 100.0 * ncat[3] / tot);
    free(rc), free(cat);
}


/* The best level 0 with whole-cell coverage (S x S cells per texel): a
 * cell takes the least, over boxes whose cone holds its 4 corner rays, of
 * their farthest corner entry depth; a texel the farthest of its cells
 * (+Inf when a cell has no such box). texel_depth: a box's depth over
 * the cell is instead its farthest corner entry over the whole texel
 * (the rasterizer's rule: one depth per polygon and texel). */
static void cell_ideal(const occ_view *v, uint32_t W, uint32_t H, int S, const occ_box *ob,
                       size_t nk, int texel_depth, float *out)
{
    const satc_frustum *f = &v->f;
    double tw = ((double)f->x1 - f->x0) / W, th = ((double)f->y1 - f->y0) / H;
    size_t np = (size_t)W * H, nc = (size_t)S * S;
    double *cell = malloc(np * nc * sizeof *cell);
    for (size_t q = 0; q < np * nc; q++)
        cell[q] = INFINITY;
    double *e = malloc((size_t)(S + 1) * (S + 1) * sizeof *e);
    for (size_t c = 0; c <= nk; c++) {
        double r[4], z;
        long i0 = 0, i1 = W - 1, j0 = 0, j1 = H - 1;
        if (c < nk) {
            if (!box_rect(v, &ob[c], W, H, r, &z))
                continue;
            i0 = (long)floor(r[0]), i1 = (long)ceil(r[1]) - 1;
            j0 = (long)floor(r[2]), j1 = (long)ceil(r[3]) - 1;
            i0 = i0 < 0 ? 0 : i0, j0 = j0 < 0 ? 0 : j0;
            i1 = i1 >= (long)W ? (long)W - 1 : i1, j1 = j1 >= (long)H ? (long)H - 1 : j1;
        }
        for (long j = j0; j <= j1; j++)
            for (long i = i0; i <= i1; i++) {
                double far = 0;
                for (int sy = 0; sy <= S; sy++)
                    for (int sx = 0; sx <= S; sx++) {
                        double o[3], d[3], t0, t1;
                        occ_ray(v, f->x1 - tw * (i + (double)sx / S), f->y0 + th * (j + (double)sy / S), o, d);
                        double x = INFINITY;
                        if (occ_ray_box(&ob[c], o, d, &t0, &t1) && t0 >= f->n)
                            x = t0;
                        e[sy * (S + 1) + sx] = x;
                    }
                if (texel_depth) { /* the farthest entry over the texel's corners */
                    double c4[4] = {e[0], e[S], e[S * (S + 1)], e[S * (S + 1) + S]};
                    for (int q = 0; q < 4; q++)
                        far = c4[q] > far ? c4[q] : far;
                    if (!(far < INFINITY)) { /* a plane's bound over the texel: skip */
                        far = 0;
                        for (int q = 0; q < (S + 1) * (S + 1); q++)
                            far = e[q] < INFINITY && e[q] > far ? e[q] : far;
                        far *= 1.0 + 1.0 / S; /* rough stand-in */
                    }
                }
                double *cl = cell + ((size_t)j * W + i) * nc;
                for (int cy = 0; cy < S; cy++)
                    for (int cx = 0; cx < S; cx++) {
                        double a = e[cy * (S + 1) + cx], b = e[cy * (S + 1) + cx + 1];
                        double g = e[(cy + 1) * (S + 1) + cx], h = e[(cy + 1) * (S + 1) + cx + 1];
                        double m = a > b ? a : b;
                        m = g > m ? g : m, m = h > m ? h : m;
                        if (!(m < INFINITY))
                            continue;
                        if (texel_depth)
                            m = far > m ? far : m;
                        double *t = &cl[cy * S + cx];
                        *t = m < *t ? m : *t;
                    }
            }
    }
    for (size_t t = 0; t < np; t++) {
        double m = 0;
        for (size_t q = 0; q < nc; q++)
            m = cell[t * nc + q] > m ? cell[t * nc + q] : m;
        out[t] = m < f->f ? up(m) : INFINITY;
    }
    free(cell), free(e);
}

int main(int argc, char **argv)
{
    int quick = 0, S = 4;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--s") && i + 1 < argc)
            S = atoi(argv[++i]);
    }
    size_t n = NCITY;
    float *mats = malloc(n * 16 * sizeof(float));
    occ_box *boxes = malloc((n + 1) * sizeof *boxes);
    const double zero[3] = {0, 0, 0};
    occ_city(n, 2026, mats, boxes, zero);
    occ_city_ground(&boxes[n], zero);
    const float lc[3] = {0, 0.5f, 0}, lh[3] = {0.5f, 0.5f, 0.5f};
    occ_forms fm;
    occ_forms_make(&fm, boxes, n, mats, lc, lh);
    satc_batch b = occ_forms_batch(&fm, SATC_FORM_INSTANCES);
    float gc[3] = {0, -5, 0}, gh[3] = {2400, 5, 2400};
    satc_batch ground;
    memset(&ground, 0, sizeof ground);
    ground.form = SATC_FORM_AABB;
    ground.aabb.center = (satc_vec3s){&gc[0], &gc[1], &gc[2], 0};
    ground.aabb.half = (satc_vec3s){&gh[0], &gh[1], &gh[2], 0};
    uint32_t *kept = malloc(n * sizeof *kept);
    const double poses[5] = {0, 15, 30, 45, 60};
    const uint32_t sw[2] = {512, 1280}, sh[2] = {256, 720};
    printf("kept / a 1280x720 ray cast; lib: satc_cull_occluded, ref: every level-0 texel of the "
           "exact rectangle; ideal: %dx%d cells per texel\n", S, S);
    printf("%-5s %-9s %-8s %7s %7s   %s\n", "pose", "pyramid", "level 0", "lib", "ref",
           "texels vs ideal: +Inf %, farther %, mean excess there");
    for (int k = 0; k < (quick ? 1 : 5); k++) {
        satc_frustum f;
        occ_city_camera(poses[k], zero, &f);
        satc_results rk = {NULL, NULL, kept, 0};
        satc_cull(&f, &b, 0, n, SATC_CONSERVATIVE, &rk);
        size_t nk = rk.visible;
        occ_bench_truth t;
        occ_bench_truth_make(&t, &f, boxes, n, fm.vols[SATC_FORM_INSTANCES], kept, nk, 1280, 720);
        double truth = (double)t.count;
        occ_box *ob = malloc((nk + 1) * sizeof *ob);
        for (size_t i = 0; i < nk; i++)
            ob[i] = boxes[kept[i]];
        ob[nk] = boxes[n];
        occ_view v;
        occ_view_init(&v, &f);
        for (int z = 0; z < 2; z++) {
            uint32_t W = sw[z], H = sh[z];
            size_t np = (size_t)W * H;
            float *st = aligned_alloc(64, (satc_pyramid_bytes(W, H) + 63) / 64 * 64);
            satc_pyramid p;
            satc_pyramid_init(&p, &f, W, H, st, satc_pyramid_bytes(W, H));
            float *img[7];
            for (int q = 0; q < 7; q++)
                img[q] = malloc(np * sizeof(float));
            /* raster */
            satc_pyramid_clear(&p);
            satc_pyramid_rasterize(&p, &ground, 0, 1, NULL);
            satc_pyramid_rasterize(&p, &b, 0, n, NULL);
            memcpy(img[0], p.depth, np * sizeof(float));
            /* merged */
            size_t cb = satc_coverage_bytes(W, H);
            void *cov = aligned_alloc(64, (cb + 63) / 64 * 64);
            satc_pyramid_clear(&p);
            satc_coverage_clear(cov, cb, &p);
            satc_raster_options mo;
            memset(&mo, 0, sizeof mo);
            mo.coverage = cov;
            satc_pyramid_rasterize(&p, &ground, 0, 1, &mo);
            satc_pyramid_rasterize(&p, &b, 0, n, &mo);
            memcpy(img[1], p.depth, np * sizeof(float));
            free(cov);
            /* boxes */
            occ_fill_boxes(&p, ob, nk + 1);
            memcpy(img[2], p.depth, np * sizeof(float));
            /* ideal and center */
            size_t gx = (size_t)W * S + 1, gy = (size_t)H * S + 1, ng = gx * gy;
            double *xa = malloc((ng + np) * sizeof *xa), *xb = malloc((ng + np) * sizeof *xb);
            double tw = ((double)f.x1 - f.x0) / W, th = ((double)f.y1 - f.y0) / H;
            for (size_t y = 0; y < gy; y++)
                for (size_t x = 0; x < gx; x++)
                    xa[y * gx + x] = f.x1 - tw * x / S, xb[y * gx + x] = f.y0 + th * y / S;
            for (size_t y = 0; y < H; y++)
                for (size_t x = 0; x < W; x++)
                    xa[ng + y * W + x] = f.x1 - tw * (x + 0.5), xb[ng + y * W + x] = f.y0 + th * (y + 0.5);
            double *d = occ_ray_depths(&v, ob, nk + 1, 0, 0, xa, xb, ng + np);
            for (size_t y = 0; y < H; y++)
                for (size_t x = 0; x < W; x++) {
                    double m = 0;
                    for (int sy = 0; sy <= S; sy++)
                        for (int sx = 0; sx <= S; sx++) {
                            double e = d[(y * S + sy) * gx + x * S + sx];
                            m = e > m ? e : m;
                        }
                    img[3][y * W + x] = m < f.f ? up(m) : INFINITY;
                    double c = d[ng + y * W + x];
                    img[4][y * W + x] = c < f.f ? up(c) : INFINITY;
                }
            free(xa), free(xb), free(d);
            cell_ideal(&v, W, H, 4, ob, nk, 0, img[5]);
            cell_ideal(&v, W, H, 4, ob, nk, 1, img[6]);
            const char *name[7] = {"raster", "merged", "boxes", "ideal", "center", "cells", "cells-tx"};
            for (int q = 0; q < 7; q++) {
                satc_pyramid_clear(&p);
                memcpy(p.depth, img[q], np * sizeof(float));
                size_t lk = lib_kept(&p, &b, n);
                size_t rk2 = ref_kept(&v, img[q], W, H, boxes, kept, nk);
                double c[3] = {0, 0, 0};
                if (q != 3)
                    compare(img[q], img[3], np, c);
                printf("%-5g %4ux%-4u %-8s %7.2f %7.2f   %6.2f %6.2f %8.4f\n", poses[k], W, H,
                       name[q], lk / truth, rk2 / truth, c[0], c[1], c[2]);
            }
            blockers(&v, img[0], img[3], W, H, S, ob, nk, boxes, kept, "raster");
            blockers(&v, img[1], img[3], W, H, S, ob, nk, boxes, kept, "merged");
            fflush(stdout);
            for (int q = 0; q < 7; q++)
                free(img[q]);
            free(st);
        }
        free(ob);
        occ_bench_truth_free(&t);
    }
    occ_forms_free(&fm);
    free(mats), free(boxes), free(kept);
    return 0;
}
