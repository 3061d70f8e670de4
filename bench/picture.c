/*
 * satc_picture: each scene seen from above (along the camera's up axis)
 * as SVG, to show what exact culling buys: the frustum's outline, the
 * boxes exact mode keeps, those only the plane test (conservative mode)
 * keeps, and those only the usual engine test keeps (the box's world AABB
 * against the six planes: the benchmark's baseline (c)).
 *
 * Usage: satc_picture [--boxes N] [DIR]   writes DIR/{city,uniform,boundary}.svg
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"

#define SEED 20240601u /* the benchmark's scenes */
#define W 900.0
#define H 620.0
#define LEGEND_H 110.0
#define MARGIN 16.0

enum { KEPT_EXACT, ONLY_PLANES, ONLY_AABB, CULLED, NCLASS };
/* Kept-for-nothing boxes get a tint, so they stand out of the green. */
static const char *const class_style[NCLASS] = {"stroke-opacity=\"0.6\"", "fill=\"#e69f00\" fill-opacity=\"0.25\"",
                                                "fill=\"#c0392b\" fill-opacity=\"0.25\"", ""};
/* Painting order: the boxes kept for nothing end on top. */
static const int paint_order[NCLASS] = {CULLED, KEPT_EXACT, ONLY_AABB, ONLY_PLANES};

static const char *const class_fill[NCLASS] = {"#2a9d3a", "#e69f00", "#c0392b", "#d5d5d5"};
static const char *const class_label[NCLASS] = {
    "kept by exact mode",
    "kept only by the plane test (conservative mode)",
    "kept only by OBB→AABB + planes",
    "culled by all three",
};

/* The top view: x to the camera's right, y along its direction. */
typedef struct view {
    float E[3], L[3], D[3];
    double xmin, ymax, scale;
} view;

static void to_view(const view *v, const float p[3], double out[2])
{
    double r[3] = {p[0] - v->E[0], p[1] - v->E[1], p[2] - v->E[2]};
    double x = -(r[0] * v->L[0] + r[1] * v->L[1] + r[2] * v->L[2]); /* -L is right */
    double y = r[0] * v->D[0] + r[1] * v->D[1] + r[2] * v->D[2];
    out[0] = MARGIN + (x - v->xmin) * v->scale;
    out[1] = LEGEND_H + (v->ymax - y) * v->scale;
}

static double cross(const double o[2], const double a[2], const double b[2])
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static int by_x(const void *a, const void *b)
{
    const double *p = a, *q = b;
    return p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : (p[1] > q[1]) - (p[1] < q[1]);
}

/* Convex hull of the 8 projected corners (monotone chain); its size. */
static int hull(double pt[8][2], double out[16][2])
{
    qsort(pt, 8, sizeof pt[0], by_x);
    int k = 0;
    for (int i = 0; i < 8; i++) {
        while (k >= 2 && cross(out[k - 2], out[k - 1], pt[i]) <= 0)
            k--;
        memcpy(out[k++], pt[i], sizeof pt[i]);
    }
    for (int i = 6, lo = k + 1; i >= 0; i--) {
        while (k >= lo && cross(out[k - 2], out[k - 1], pt[i]) <= 0)
            k--;
        memcpy(out[k++], pt[i], sizeof pt[i]);
    }
    return k - 1;
}

/* One box's footprint as a path; boxes under a pixel become a pixel. */
static void put_box(FILE *f, const view *v, const satc_obb *b)
{
    double pt[8][2], h[16][2];
    for (int c = 0; c < 8; c++) {
        float p[3];
        for (int k = 0; k < 3; k++)
            p[k] = b->center[k] + (c & 1 ? 1 : -1) * b->extent[0] * b->axis[0][k] +
                   (c & 2 ? 1 : -1) * b->extent[1] * b->axis[1][k] +
                   (c & 4 ? 1 : -1) * b->extent[2] * b->axis[2][k];
        to_view(v, p, pt[c]);
    }
    int n = hull(pt, h);
    double x0 = h[0][0], x1 = x0, y0 = h[0][1], y1 = y0;
    for (int i = 1; i < n; i++) {
        x0 = fmin(x0, h[i][0]), x1 = fmax(x1, h[i][0]);
        y0 = fmin(y0, h[i][1]), y1 = fmax(y1, h[i][1]);
    }
    if (x1 < 0 || x0 > W || y1 < LEGEND_H || y0 > H)
        return;
    if (x1 - x0 < 1.0 && y1 - y0 < 1.0) {
        fprintf(f, "M%.1f %.1fh1", (x0 + x1) / 2 - 0.5, (y0 + y1) / 2);
        return;
    }
    fprintf(f, "M%.1f %.1f", h[0][0], h[0][1]);
    for (int i = 1; i < n; i++)
        fprintf(f, "l%.1f %.1f", h[i][0] - h[i - 1][0], h[i][1] - h[i - 1][1]);
    fputc('z', f);
}

static int bit(const uint8_t *m, size_t i) { return m[i / 8] >> (i % 8) & 1; }

static int draw(const scn_scene *s, scn_kind kind, const char *path)
{
    size_t n = s->count, bytes = (n + 7) / 8;
    uint8_t *exact = calloc(bytes, 1), *planes = calloc(bytes, 1), *cls = malloc(n);
    bl_frustum bf;
    satc_batch batch = satc_batch_from_boxes(&s->boxes);
    satc_results re = {.bitmask = exact}, rp = {.bitmask = planes};
    FILE *f = NULL;
    int rc = -1;
    if (!exact || !planes || !cls || bl_frustum_init(&bf, &s->cam) != 0 ||
        satc_cull(&s->frustum, &batch, 0, n, SATC_EXACT, &re) != SATC_OK ||
        satc_cull(&s->frustum, &batch, 0, n, SATC_CONSERVATIVE, &rp) != SATC_OK)
        goto out;

    size_t count[NCLASS] = {0};
    for (size_t i = 0; i < n; i++) {
        satc_obb b;
        satc_boxes_get(&s->boxes, i, &b);
        cls[i] = bit(exact, i) ? KEPT_EXACT : bit(planes, i) ? ONLY_PLANES
                 : bl_aabb_box(&bf, &b) ? ONLY_AABB : CULLED;
        count[cls[i]]++;
    }

    /* Fit the frustum's footprint: a trapezoid from the near to the far plane. */
    const satc_camera *c = &s->cam;
    double sf = c->f / c->n;
    double xs[4] = {-c->l0, -c->l1, -c->l1 * sf, -c->l0 * sf}, ys[4] = {c->n, c->n, c->f, c->f};
    double xlo = fmin(xs[2], xs[3]), xhi = fmax(xs[2], xs[3]), pad = 0.04 * (c->f - c->n);
    view v = {.xmin = xlo - pad, .ymax = c->f + pad};
    memcpy(v.E, c->origin, sizeof v.E), memcpy(v.L, c->left, sizeof v.L), memcpy(v.D, c->dir, sizeof v.D);
    v.scale = fmin((W - 2 * MARGIN) / (xhi - xlo + 2 * pad), (H - LEGEND_H - MARGIN) / (c->f + 2 * pad));

    if (!(f = fopen(path, "w")))
        goto out;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"13\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
            W, H, W, H);
    fprintf(f, "<text x=\"%.0f\" y=\"20\" font-size=\"15\" font-weight=\"bold\">%s scene, %zu boxes, "
               "seen from above (camera at the bottom, looking up the page)</text>\n",
            MARGIN, scn_name(kind), n);
    for (int k = 0; k < NCLASS; k++) {
        double y = 40 + 17 * k, x = MARGIN;
        fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"11\" height=\"11\" fill=\"%s\"/>"
                   "<text x=\"%.0f\" y=\"%.0f\">%s: %zu</text>\n",
                x, y - 10, class_fill[k], x + 16, y, class_label[k], count[k]);
    }
    size_t kept_planes = count[KEPT_EXACT] + count[ONLY_PLANES], kept_aabb = kept_planes + count[ONLY_AABB];
    double base = count[KEPT_EXACT] ? (double)count[KEPT_EXACT] : 1.0;
    fprintf(f, "<text x=\"%.0f\" y=\"40\" text-anchor=\"end\">drawn for nothing, beyond exact:</text>\n"
               "<text x=\"%.0f\" y=\"57\" text-anchor=\"end\">plane test +%zu (%.1f %%)</text>\n"
               "<text x=\"%.0f\" y=\"74\" text-anchor=\"end\">OBB→AABB + planes +%zu (%.1f %%)</text>\n"
               "<text x=\"%.0f\" y=\"91\" text-anchor=\"end\" fill=\"#555\">(boxes above or below the frustum "
               "show inside its outline)</text>\n",
            W - MARGIN, W - MARGIN, kept_planes - count[KEPT_EXACT], 100.0 * (kept_planes - count[KEPT_EXACT]) / base,
            W - MARGIN, kept_aabb - count[KEPT_EXACT], 100.0 * (kept_aabb - count[KEPT_EXACT]) / base, W - MARGIN);

    /* Outlines, not fills: big boxes would hide the small ones. */
    fprintf(f, "<clipPath id=\"plot\"><rect y=\"%.0f\" width=\"%.0f\" height=\"%.0f\"/></clipPath>\n"
               "<g clip-path=\"url(#plot)\" fill=\"none\" stroke-width=\"0.7\" stroke-linejoin=\"round\">\n",
            LEGEND_H, W, H - LEGEND_H);
    for (int o = 0; o < NCLASS; o++) {
        int k = paint_order[o];
        fprintf(f, "<path stroke=\"%s\" %s d=\"", class_fill[k], class_style[k]);
        for (size_t i = 0; i < n; i++) {
            if (cls[i] != k)
                continue;
            satc_obb b;
            satc_boxes_get(&s->boxes, i, &b);
            put_box(f, &v, &b);
        }
        fputs("\"/>\n", f);
    }
    fprintf(f, "<path stroke=\"#000\" stroke-width=\"1.2\" d=\"");
    for (int k = 0; k < 4; k++) {
        double p[2] = {MARGIN + (xs[k] - v.xmin) * v.scale, LEGEND_H + (v.ymax - ys[k]) * v.scale};
        fprintf(f, "%c%.1f %.1f", k ? 'L' : 'M', p[0], p[1]);
    }
    fputs("z\"/>\n</g>\n</svg>\n", f);
    rc = ferror(f) ? -1 : 0;
    printf("%-8s %zu boxes: exact %zu, +plane test %zu, +OBB->AABB %zu, culled by all %zu -> %s\n",
           scn_name(kind), n, count[KEPT_EXACT], count[ONLY_PLANES], count[ONLY_AABB], count[CULLED], path);
out:
    if (f && fclose(f) != 0)
        rc = -1;
    free(exact), free(planes), free(cls);
    return rc;
}

int main(int argc, char **argv)
{
    size_t boxes = 20000;
    const char *dir = ".";
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--boxes") && a + 1 < argc)
            boxes = strtoul(argv[++a], NULL, 10);
        else
            dir = argv[a];
    }
    const scn_kind kinds[3] = {SCN_CITY, SCN_UNIFORM, SCN_BOUNDARY};
    int failed = 0;
    for (int k = 0; k < 3; k++) {
        scn_scene s;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.svg", dir, scn_name(kinds[k]));
        if (scn_make(&s, kinds[k], boxes, SEED, NULL) != 0 || draw(&s, kinds[k], path) != 0) {
            fprintf(stderr, "satc_picture: %s failed\n", path);
            failed = 1;
        }
        scn_free(&s);
    }
    return failed;
}
