/* The occlusion benchmark's scene helpers (see occ_bench.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occ_bench.h"

#define NCITY 100000

/* The kept buildings and the ground, as occluders. */
static occ_box *kept_boxes(const occ_box *boxes, size_t n, const uint32_t *kept, size_t nk)
{
    occ_box *o = malloc((nk + 1) * sizeof *o);
    for (size_t i = 0; i < nk; i++)
        o[i] = boxes[kept[i]];
    o[nk] = boxes[n];
    return o;
}

void occ_bench_truth_make(occ_bench_truth *t, const satc_frustum *f, const occ_box *boxes,
                          size_t n, const occ_vol *vols, const uint32_t *kept, size_t nk,
                          unsigned rx, unsigned ry)
{
    occ_view v;
    occ_view_init(&v, f);
    occ_box *ob = kept_boxes(boxes, n, kept, nk);
    double *z = occ_ray_depths(&v, ob, nk + 1, rx, ry, NULL, NULL, 0);
    occ_vol *kv = malloc((nk + 1) * sizeof *kv);
    for (size_t i = 0; i < nk; i++)
        kv[i] = vols[kept[i]];
    uint8_t *vis = malloc(nk + 1);
    occ_visible(&v, kv, nk, z, rx, ry, NULL, NULL, 0, vis);
    t->seen = calloc(n, 1);
    t->count = 0;
    for (size_t i = 0; i < nk; i++)
        t->seen[kept[i]] = vis[i], t->count += vis[i];
    free(ob), free(z), free(kv), free(vis);
}

void occ_bench_truth_free(occ_bench_truth *t) { free(t->seen); }

float *occ_bench_depth_image(const satc_frustum *f, const occ_box *boxes, size_t n,
                             const uint32_t *kept, size_t nk, unsigned w, unsigned h)
{
    occ_view v;
    occ_view_init(&v, f);
    occ_box *ob = kept_boxes(boxes, n, kept, nk);
    size_t np = (size_t)w * h;
    double *xa = malloc(np * sizeof *xa), *xb = malloc(np * sizeof *xb);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            xa[(size_t)y * w + x] = f->x1 - ((double)f->x1 - f->x0) * (x + 0.5) / w;
            xb[(size_t)y * w + x] = f->y0 + ((double)f->y1 - f->y0) * (y + 0.5) / h;
        }
    double *z = occ_ray_depths(&v, ob, nk + 1, 0, 0, xa, xb, np);
    float *img = malloc(np * sizeof *img);
    for (size_t q = 0; q < np; q++) {
        float d = (float)z[q];
        if (!(z[q] < f->f))
            d = INFINITY;
        else if ((double)d < z[q])
            d = nextafterf(d, INFINITY);
        img[q] = d;
    }
    free(ob), free(xa), free(xb), free(z);
    return img;
}

void occ_bench_svg(const char *path, const occ_box *b, size_t n, const uint8_t *cls,
                   const satc_frustum *f, size_t kept, size_t after, size_t seen)
{
    enum { G = 240 };
    const double cell = 7.0, R = G * cell / 2;
    static uint8_t grid[G][G];
    memset(grid, 0, sizeof grid);
    double hx = f->frame[2][0], hz = f->frame[2][2], hl = sqrt(hx * hx + hz * hz);
    double cx = f->origin[0] + hx / hl * 600, cz = f->origin[2] + hz / hl * 600;
    for (size_t i = 0; i < n; i++) {
        int pr = cls[i] == SATC_OUTSIDE ? 1 : cls[i] == SATC_OCCLUDED ? 2 : 3;
        double ex = fabs(b[i].a[0][0]) * b[i].e[0] + fabs(b[i].a[2][0]) * b[i].e[2];
        double ez = fabs(b[i].a[0][2]) * b[i].e[0] + fabs(b[i].a[2][2]) * b[i].e[2];
        int x0 = (int)floor((b[i].c[0] - ex - cx + R) / cell), x1 = (int)floor((b[i].c[0] + ex - cx + R) / cell);
        int z0 = (int)floor((b[i].c[2] - ez - cz + R) / cell), z1 = (int)floor((b[i].c[2] + ez - cz + R) / cell);
        for (int z = z0 < 0 ? 0 : z0; z <= z1 && z < G; z++)
            for (int x = x0 < 0 ? 0 : x0; x <= x1 && x < G; x++)
                grid[z][x] = (uint8_t)(pr > grid[z][x] ? pr : grid[z][x]);
    }
    FILE *o = fopen(path, "w");
    if (!o)
        return;
    const int px = 4; /* pixels per cell */
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"13\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
            G * px, G * px + 48, G, G + 12);
    const char *col[4] = {"", "#d4d4d4", "#f08a24", "#1f5fa8"};
    for (int c = 1; c <= 3; c++) {
        fprintf(o, "<path fill=\"%s\" d=\"", col[c]);
        for (int z = 0; z < G; z++)
            for (int x = 0; x < G;) {
                if (grid[z][x] != c) {
                    x++;
                    continue;
                }
                int e = x;
                while (e < G && grid[z][e] == c)
                    e++;
                fprintf(o, "M%d %dh%dv1h-%dz", x, z, e - x, e - x);
                x = e;
            }
        fprintf(o, "\"/>\n");
    }
    double ex = (f->origin[0] - cx + R) / cell, ez = (f->origin[2] - cz + R) / cell;
    for (int s = 0; s < 2; s++) {
        double a = s ? f->x0 : f->x1, dx = f->frame[2][0] + a * f->frame[0][0];
        double dz = f->frame[2][2] + a * f->frame[0][2], l = sqrt(dx * dx + dz * dz);
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
                   "stroke-width=\"0.4\" stroke-dasharray=\"2 1.5\"/>\n",
                ex, ez, ex + dx / l * 1200 / cell, ez + dz / l * 1200 / cell);
    }
    fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.5\" fill=\"#c00\"/>\n", ex, ez);
    fprintf(o, "<text x=\"1\" y=\"%d\" font-size=\"4\">The frustum keeps %zu of %d buildings; "
               "with occlusion %zu (blue), %zu hidden (orange).</text>\n"
               "<text x=\"1\" y=\"%d\" font-size=\"4\">A 1280x720 ray cast sees %zu. Grey: "
               "outside the view; the eye in red, 130 m up.</text>\n</svg>\n",
            G + 5, kept, NCITY, after, kept - after, G + 10, seen);
    fclose(o);
}

