/*
 * The occlusion benchmark: the demo's city (100,000 buildings as world
 * matrices of one unit box, five poses of its camera path, 60 degrees,
 * 16:9), frustum only against frustum + occlusion in one pass, single
 * thread. The pyramid's level 0 is made from every building and the
 * ground by the closed-form inner-conservative fill of the tests
 * (tests/occlusion: a texel takes a box's farthest depth where the box
 * covers all of it); the fill is not timed. Quality: volumes kept after
 * occlusion against a ray cast at 1280x720 (what is really visible), and
 * volumes hidden that a ray cast at 4x the pyramid's resolution sees
 * (must be 0). The test alone, in ns per volume tested, against Godot's
 * per-AABB test (bench/baseline_godot_hzb.c, -O2 SSE2) on the same
 * pyramid. Then the whole frame with satc's rasterizer for several
 * occluder choices (every building, or satc_occluders_pick's largest),
 * its time beside its quality. Options: --svg FILE (pose 0 from above),
 * --quick (pose 0 only),
 * --picture FILE (pose 0's picture and counts only), --goals.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_godot_hzb.h"
#include "goals.h"
#include "occ_forms.h"
#include "occ_scene.h"
#include "timing.h"

#define NCITY 100000

typedef struct ctx {
    const satc_pyramid *p;
    const satc_frustum *f;
    const satc_batch *b;
    size_t n;
    uint32_t *idx;
    size_t vis;
    const godot_hzb *gz;
    const uint32_t *kept;
    size_t nkept;
    const float *ac, *ah;
} ctx;

static void run_frustum(void *v)
{
    ctx *c = v;
    satc_results r = {NULL, NULL, c->idx, 0};
    satc_cull(c->f, c->b, 0, c->n, SATC_CONSERVATIVE, &r);
    c->vis = r.visible;
}

static void run_occluded(void *v)
{
    ctx *c = v;
    satc_results r = {NULL, NULL, c->idx, 0};
    satc_cull_occluded(c->p, c->b, 0, c->n, SATC_CONSERVATIVE, &r, NULL, NULL);
    c->vis = r.visible;
}

/* The whole frame: clear, choose and rasterize occluders (and the
 * ground), build, then the frustum and occlusion culls with their visible
 * indices. Occluders: every building whose rectangle spans at least
 * min_texels texels (pick 0: satc_pyramid_rasterize over the batch), or
 * the at most `pick` largest on screen of at least min_texels
 * (satc_occluders_pick, then satc_pyramid_rasterize_list). */
typedef struct frame_ctx {
    satc_pyramid *p;
    const satc_batch *b, *ground;
    size_t n, vis;
    uint32_t *idx;
    float min_texels;
    size_t pick;
    uint32_t *occ;
    float *area;
} frame_ctx;

static void run_frame(void *v)
{
    frame_ctx *c = v;
    satc_pyramid_clear(c->p);
    satc_pyramid_rasterize(c->p, c->ground, 0, 1, NULL);
    if (c->pick) {
        size_t np = 0;
        satc_occluders_pick(c->p, c->b, 0, c->n, c->min_texels, c->pick, c->occ, c->area, &np);
        satc_pyramid_rasterize_list(c->p, c->b, c->occ, np, NULL);
    } else {
        satc_raster_options o = {0, c->min_texels, 0, 0};
        satc_pyramid_rasterize(c->p, c->b, 0, c->n, &o);
    }
    satc_pyramid_build(c->p);
    satc_results r = {NULL, NULL, c->idx, 0};
    satc_cull_occluded(c->p, c->b, 0, c->n, SATC_CONSERVATIVE, &r, NULL, NULL);
    c->vis = r.visible;
}

/* The frame's occluder choices, the one a user should start from (REC)
 * in the goal line. */
typedef struct frame_conf {
    const char *name;
    size_t pick;
    float min_texels;
} frame_conf;
static const frame_conf conf[] = {
    {"every building >= 4 texels", 0, 4},
    {"picked, >= 64 texels", 100000, 64},
    {"picked, the 1024 largest", 1024, 0},
    {"picked, the 256 largest", 256, 0},
};
#define NCONF (int)(sizeof conf / sizeof conf[0])
#define REC 3
typedef struct frame_res {
    double ms, ratio;
    size_t after, hidden;
} frame_res;

static void run_godot(void *v)
{
    ctx *c = v;
    bench_sink += (uint32_t)godot_hzb_run(c->gz, c->kept, c->nkept, c->ac, c->ah);
}

/* Godot's view-projection for frustum f: u = (x1 - a) / (x1 - x0) across
 * the image from the left, v = (b - y0) / (y1 - y0) from the bottom. */
static void godot_setup(godot_hzb *z, const satc_pyramid *p)
{
    const satc_frustum *f = &p->view;
    double L[3], U[3], D[3], E[3], rx[3], ry[3];
    for (int k = 0; k < 3; k++) {
        L[k] = f->frame[0][k], U[k] = f->frame[1][k], D[k] = f->frame[2][k], E[k] = f->origin[k];
        rx[k] = 2 * (f->x1 * D[k] - L[k]) / ((double)f->x1 - f->x0) - D[k];
        ry[k] = 2 * (U[k] - f->y0 * D[k]) / ((double)f->y1 - f->y0) - D[k];
    }
    const double *rows[4] = {rx, ry, D, D};
    for (int r = 0; r < 4; r++) {
        double t = 0;
        for (int k = 0; k < 3; k++) {
            z->vp[4 * k + r] = (float)rows[r][k];
            t -= rows[r][k] * E[k];
        }
        z->vp[12 + r] = (float)t;
    }
    for (int k = 0; k < 3; k++)
        z->eye[k] = f->origin[k], z->dir[k] = f->frame[2][k];
    z->near_z = f->n;
    z->depth = p->depth;
    z->levels = p->levels;
    for (uint32_t k = 0; k < p->levels; k++)
        z->level_w[k] = p->level_w[k], z->level_h[k] = p->level_h[k], z->level_off[k] = p->level_off[k];
}

/* Pose 0 from above, 1400 m across at 7 m a cell (a lot): each cell takes
 * the class of the buildings on it (kept over occluded over outside),
 * drawn as runs per row; the eye and the view's edges. */
static void write_svg(const char *path, const occ_box *b, size_t n, const uint8_t *cls,
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

int main(int argc, char **argv)
{
    bench_goals_init(&argc, argv);
    const char *svg = NULL;
    int quick = 0, picture = 0;
    uint32_t W = 512, H = 256;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--svg") && i + 1 < argc)
            svg = argv[++i];
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--picture") && i + 1 < argc)
            svg = argv[++i], picture = quick = 1;
    }
    quick |= bench_quick_env();
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
    float *ac = malloc(n * 3 * sizeof(float)), *ah = malloc(n * 3 * sizeof(float));
    satc_to_aabbs(&b, 0, n, ac, ah);
    float *st = aligned_alloc(64, (satc_pyramid_bytes(W, H) + 63) / 64 * 64);
    uint32_t *idx = malloc(n * sizeof *idx), *kept = malloc(n * sizeof *kept);
    uint8_t *cls = malloc(n), *vis = malloc(n);
    printf("occlusion: the demo city, %d buildings (instances: matrices + unit box), "
           "pyramid %ux%u, path %s, single thread\n", NCITY, W, H, satc_isa_name(satc_isa_active()));
    printf("%-6s %8s %8s %8s %7s %6s %9s %9s %8s %8s %8s\n", "pose", "kept", "after", "rays",
           "ratio", "hidden", "frustum", "+occl", "test", "godot", "speedup");
    printf("%-6s %8s %8s %8s %7s %6s %9s %9s %8s %8s %8s\n", "t (s)", "", "", "1280x720", "",
           "seen4x", "ms/frame", "ms/frame", "ns/vol", "ns/vol", "");
    float gc[3] = {0, -5, 0}, gh[3] = {2400, 5, 2400};
    satc_batch ground;
    memset(&ground, 0, sizeof ground);
    ground.form = SATC_FORM_AABB;
    ground.aabb.center = (satc_vec3s){&gc[0], &gc[1], &gc[2], 0};
    ground.aabb.half = (satc_vec3s){&gh[0], &gh[1], &gh[2], 0};
    frame_res fres[NCONF];
    memset(fres, 0, sizeof fres);
    uint32_t *occ = malloc(n * sizeof *occ);
    float *area = malloc(n * sizeof *area);
    const double poses[5] = {0, 15, 30, 45, 60};
    double worst_ratio = 0, worst_test = 0, worst_speed = 1e30;
    size_t hidden_total = 0;
    for (int k = 0; k < (quick ? 1 : 5); k++) {
        satc_frustum f;
        occ_city_camera(poses[k], zero, &f);
        satc_pyramid p;
        satc_pyramid_init(&p, &f, W, H, st, satc_pyramid_bytes(W, H));
        occ_fill_boxes(&p, boxes, n + 1);
        satc_results rc = {NULL, cls, NULL, 0};
        size_t nocc = 0;
        satc_cull_occluded(&p, &b, 0, n, SATC_CONSERVATIVE, &rc, NULL, &nocc);
        size_t after = rc.visible, nk = 0;
        for (size_t i = 0; i < n; i++)
            if (cls[i] != SATC_OUTSIDE)
                kept[nk++] = (uint32_t)i;
        occ_view v;
        occ_view_init(&v, &f);
        double *z = occ_ray_depths(&v, boxes, n + 1, 1280, 720, NULL, NULL, 0);
        occ_visible(&v, fm.vols[SATC_FORM_INSTANCES], n, z, 1280, 720, NULL, NULL, 0, vis);
        size_t seen = 0;
        for (size_t i = 0; i < n; i++)
            seen += vis[i];
        free(z);
        if (picture) {
            write_svg(svg, boxes, n, cls, &f, nk, after, seen);
            printf("pose %g: kept %zu, after occlusion %zu, a 1280x720 ray cast sees %zu\n",
                   poses[k], nk, after, seen);
            break;
        }
        z = occ_ray_depths(&v, boxes, n + 1, 4 * W, 4 * H, NULL, NULL, 0);
        occ_visible(&v, fm.vols[SATC_FORM_INSTANCES], n, z, 4 * W, 4 * H, NULL, NULL, 0, vis);
        size_t hidden = 0;
        for (size_t i = 0; i < n; i++)
            hidden += vis[i] && cls[i] == SATC_OCCLUDED;
        free(z);
        for (int q = 0; q < NCONF; q++) {
            /* the whole frame with satc's rasterizer, in a pyramid of its own */
            static float *st2;
            if (!st2)
                st2 = aligned_alloc(64, (satc_pyramid_bytes(W, H) + 63) / 64 * 64);
            satc_pyramid p2;
            satc_pyramid_init(&p2, &f, W, H, st2, satc_pyramid_bytes(W, H));
            frame_ctx fc = {&p2, &b, &ground, n, 0, idx, conf[q].min_texels, conf[q].pick,
                            occ, area};
            static bench_job fj[1];
            fj[0].fn = run_frame, fj[0].ctx = &fc;
            bench_time_jobs(fj, 1, n, 1, 9);
            uint8_t *c2 = malloc(n);
            satc_results r2 = {NULL, c2, NULL, 0};
            satc_cull_occluded(&p2, &b, 0, n, SATC_CONSERVATIVE, &r2, NULL, NULL);
            size_t h2 = 0;
            for (size_t i = 0; i < n; i++)
                h2 += vis[i] && c2[i] == SATC_OCCLUDED;
            free(c2);
            frame_res *fr = &fres[q];
            double ms = fj[0].st.med * n * 1e-6, rt = (double)r2.visible / (double)seen;
            fr->ms = ms > fr->ms ? ms : fr->ms;
            fr->ratio = rt > fr->ratio ? rt : fr->ratio;
            fr->after += r2.visible;
            fr->hidden += h2;
        }
        godot_hzb gz;
        godot_setup(&gz, &p);
        ctx c = {&p, &f, &b, n, idx, 0, &gz, kept, nk, ac, ah};
        static bench_job jobs[3];
        jobs[0].fn = run_frustum, jobs[1].fn = run_occluded, jobs[2].fn = run_godot;
        jobs[0].ctx = jobs[1].ctx = jobs[2].ctx = &c;
        bench_time_jobs(jobs, 3, n, 1, 15);
        double tf = jobs[0].st.med * n * 1e-6, to = jobs[1].st.med * n * 1e-6;
        double test = (jobs[1].st.med - jobs[0].st.med) * n / (double)nk;
        double godot = jobs[2].st.med * n / (double)nk;
        double ratio = (double)after / (double)seen;
        printf("%-6g %8zu %8zu %8zu %7.2f %6zu %9.3f %9.3f %8.1f %8.1f %8.1f\n", poses[k], nk,
               after, seen, ratio, hidden, tf, to, test, godot, godot / test);
        worst_ratio = ratio > worst_ratio ? ratio : worst_ratio;
        worst_test = test > worst_test ? test : worst_test;
        worst_speed = godot / test < worst_speed ? godot / test : worst_speed;
        hidden_total += hidden;
        if (k == 0 && svg)
            write_svg(svg, boxes, n, cls, &f, nk, after, seen);
        (void)nocc;
    }
    printf("kept: what the frustum keeps; after: kept and not occluded; rays: buildings a ray\n"
           "cast at 1280x720 sees; hidden seen4x: occluded buildings a ray cast at 4x the\n"
           "pyramid sees (must be 0); test: the occlusion test's time per kept building\n"
           "(frustum + occlusion minus frustum); godot: its per-AABB test on the same pyramid\n"
           "(-O2, SSE2). Level 0 from the closed-form fill of the tests (not timed).\n");
    printf("\nwhole frame with satc's rasterizer (clear, the ground and the occluders, build,\n"
           "frustum + occlusion, indices), pyramid %ux%u, worst pose:\n", W, H);
    printf("%-34s %9s %8s %7s %6s\n", "occluders", "ms/frame", "after", "ratio", "hidden");
    for (int q = 0; q < NCONF; q++)
        printf("%-34s %9.3f %8zu %7.2f %6zu\n", conf[q].name, fres[q].ms,
               fres[q].after / (size_t)(quick ? 1 : 5), fres[q].ratio, fres[q].hidden);
    printf("after: mean over the poses; ratio: the worst pose's after / rays.\n");
    const frame_res *rec = &fres[REC];
    bench_goals_heading("occlusion (the demo city, 100,000 buildings)");
    bench_goal(worst_ratio <= 1.5, "occlusion",
               "kept after occlusion <= 1.5x what a 1280x720 ray cast sees: worst pose %.2fx",
               worst_ratio);
    bench_goal(hidden_total == 0, "occlusion",
               "0 hidden buildings a ray cast at 4x the pyramid sees: %zu", hidden_total);
    int avx2 = satc_isa_active() == SATC_ISA_AVX2;
    bench_goal(worst_test <= 12 && avx2, "occlusion",
               "the test <= 12 ns per volume on AVX2: %.1f ns (path %s)", worst_test,
               satc_isa_name(satc_isa_active()));
    bench_goal(worst_speed >= 8, "occlusion", "the test >= 8x Godot's per-AABB test: %.1fx",
               worst_speed);
    int avx512 = satc_isa_active() == SATC_ISA_AVX512;
    bench_goal(rec->ms <= (avx512 ? 1.5 : 2.0) && (avx2 || avx512), "occlusion",
               "whole frame (frustum + pick + rasterize occluders + test + indices) <= 2 ms AVX2, "
               "1.5 ms AVX-512, %s: %.2f ms (path %s), kept %.2fx the ray cast, %zu hidden but "
               "seen",
               conf[REC].name, rec->ms, satc_isa_name(satc_isa_active()), rec->ratio, rec->hidden);
    free(mats), free(boxes), free(ac), free(ah), free(st), free(idx), free(kept), free(cls),
        free(vis), free(occ), free(area);
    occ_forms_free(&fm);
    return 0;
}
