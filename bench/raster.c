/*
 * Rasterizer benchmark: box occluders and triangles per millisecond into
 * a 512 x 256 level 0 and a 1280 x 720 one, on every path, and the
 * microseconds of thread CPU time per box occluder on the active path. Occluders: the city scene's boxes (SPEC's city: street
 * level, 4 km around the camera) that the frustum keeps, as OBBs, and the
 * same boxes as closed meshes of 12 triangles (back faces skipped, and
 * drawn two-sided). Each figure counts every occluder handed in, drawn or
 * not; "setup" times the double-precision setup alone (a fill that
 * writes nothing), eight boxes at a time where the path has that setup,
 * and again one box at a time. The figures are measurements, no goal lines.
 *
 *   satc_bench_raster [--quick]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "goals.h"
#include "raster/raster.h"
#include "scenes.h"
#include "timing.h"

static void fill_none(const satc_rpoly *p, float *level0, uint32_t width, const satc_rcov *cov)
{
    bench_sink += (uint32_t)p->ne + (uint32_t)(level0 != NULL) + width + (uint32_t)(cov != NULL);
}

typedef struct ctx {
    const satc_frustum *f;
    uint32_t w, h;
    float *level;
    const satc_batch *b;
    size_t n;
    const satc_mesh *m;
    satc_raster_options o;
    satc_raster_fill_fn fill;
} ctx;

static void clear(ctx *c)
{
    for (size_t k = 0; k < (size_t)c->w * c->h; k++)
        c->level[k] = INFINITY;
}

static void run_boxes(void *p)
{
    ctx *c = p;
    clear(c);
    satc_raster_batch_core(c->level, c->w, c->h, c->f, c->b, 0, c->n, &c->o, c->fill);
}

static void run_tris(void *p)
{
    ctx *c = p;
    clear(c);
    satc_raster_mesh_core(c->level, c->w, c->h, c->f, c->m, &c->o, c->fill);
}

static double thread_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median thread CPU time of one draw of every box, in microseconds per
 * box handed in (the clear of level 0 excluded). */
static double cpu_us_per_box(ctx *c, int reps)
{
    double t[64];
    reps = reps > 64 ? 64 : reps;
    for (int r = 0; r < reps; r++) {
        clear(c);
        double t0 = thread_ns();
        satc_raster_batch_core(c->level, c->w, c->h, c->f, c->b, 0, c->n, &c->o, c->fill);
        t[r] = (thread_ns() - t0) * 1e-3 / (double)c->n;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_d);
    return t[reps / 2];
}

/* The same for the one-box setup alone, called box by box as a path
 * without the eight-box setup runs it. */
static double cpu_us_one_box(ctx *c, int reps)
{
    double t[64];
    reps = reps > 64 ? 64 : reps;
    satc_rview rv;
    satc_rview_init(&rv, c->f, c->w, c->h, 0, c->h, 0, 0);
    for (int r = 0; r < reps; r++) {
        double t0 = thread_ns();
        for (size_t i = 0; i < c->n; i++) {
            double cc[3], H[3][3], cerr;
            satc_rpoly p[3];
            if (satc_occluder_box(c->b, i, cc, H, &cerr))
                bench_sink += (uint32_t)satc_raster_setup_box(&rv, cc, (const double(*)[3])H, cerr, p);
        }
        t[r] = (thread_ns() - t0) * 1e-3 / (double)c->n;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_d);
    return t[reps / 2];
}

#define NPATH 7
static const char *const pname[NPATH] = {"setup", "scalar", "sse41", "avx2", "avx512", "neon", "simd128"};
static const satc_isa pisa[NPATH] = {0, SATC_ISA_SCALAR, SATC_ISA_SSE41, SATC_ISA_AVX2,
                                     SATC_ISA_AVX512, SATC_ISA_NEON, SATC_ISA_SIMD128};

int main(int argc, char **argv)
{
    bench_goals_init(&argc, argv);
    int quick, st = bench_quick_args(argc, argv,
                                     "usage: %s [--quick]\n  --quick  fewer samples (smoke run)\n",
                                     &quick);
    if (st >= 0)
        return st;
    scn_scene s;
    if (scn_make(&s, SCN_CITY, 100000, 2026, NULL)) {
        fprintf(stderr, "scene failed\n");
        return 1;
    }
    /* the frustum's kept boxes are the occluders */
    satc_batch all = satc_batch_from_boxes(&s.boxes);
    uint32_t *idx = malloc(s.count * sizeof *idx);
    satc_results r = {NULL, NULL, idx, 0};
    satc_cull(&s.frustum, &all, 0, s.count, SATC_CONSERVATIVE, &r);
    size_t n = r.visible;
    float (*rec)[15] = malloc(n * sizeof *rec);
    for (size_t k = 0; k < n; k++) {
        satc_obb o;
        satc_boxes_get(&s.boxes, idx[k], &o);
        memcpy(rec[k], o.center, 12);
        memcpy(rec[k] + 3, o.axis, 36);
        memcpy(rec[k] + 12, o.extent, 12);
    }
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_OBB;
    b.obb.center = SATC_VEC3S_AOS(&rec[0][0], 60);
    for (int j = 0; j < 3; j++)
        b.obb.axis[j] = SATC_VEC3S_AOS(&rec[0][3 + 3 * j], 60);
    b.obb.extent = SATC_VEC3S_AOS(&rec[0][12], 60);
    /* the same boxes as closed meshes */
    float *vtx = malloc(n * 8 * 3 * sizeof(float));
    uint32_t *tri = malloc(n * 36 * sizeof(uint32_t));
    static const int face[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                   {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (size_t k = 0; k < n; k++) {
        const float *c = rec[k], *a = rec[k] + 3, *e = rec[k] + 12;
        for (int q = 0; q < 8; q++)
            for (int d = 0; d < 3; d++)
                vtx[(k * 8 + (size_t)q) * 3 + (size_t)d] =
                    c[d] + (q & 1 ? 1 : -1) * e[0] * a[d] + (q & 2 ? 1 : -1) * e[1] * a[3 + d] +
                    (q & 4 ? 1 : -1) * e[2] * a[6 + d];
        /* outward winding needs a right-handed axis set */
        float cr[3] = {a[1] * a[5] - a[2] * a[4], a[2] * a[3] - a[0] * a[5], a[0] * a[4] - a[1] * a[3]};
        int flip = cr[0] * a[6] + cr[1] * a[7] + cr[2] * a[8] < 0;
        for (int f = 0; f < 6; f++) {
            uint32_t v[4];
            for (int q = 0; q < 4; q++)
                v[q] = (uint32_t)(k * 8) + (uint32_t)face[f][q];
            uint32_t *t = tri + k * 36 + (size_t)f * 6;
            t[0] = v[0], t[1] = flip ? v[2] : v[1], t[2] = flip ? v[1] : v[2];
            t[3] = v[0], t[4] = flip ? v[3] : v[2], t[5] = flip ? v[2] : v[3];
        }
    }
    satc_mesh m = {vtx, 12, n * 8, tri, 32, n * 12, NULL, SATC_AFFINE_4X4_COLUMN_MAJOR};

    static const uint32_t dims[2][2] = {{512, 256}, {1280, 720}};
    printf("satc_bench_raster: %zu city boxes kept by the frustum (of %zu) as occluders,\n"
           "%zu triangles as meshes; median of %d rounds\n",
           n, s.count, n * 12, quick ? 5 : 15);
    for (int di = 0; di < 2; di++) {
        uint32_t w = dims[di][0], h = dims[di][1];
        float *level = malloc((size_t)w * h * sizeof(float));
        printf("\n%u x %u                  boxes/ms  triangles/ms (closed)  triangles/ms (two-sided)\n", w, h);
        for (int p = 0; p < NPATH; p++) {
            satc_raster_fill_fn fill = p == 0 ? fill_none : satc_raster_fill_for(pisa[p]);
            if (!fill)
                continue;
            ctx c[3];
            for (int q = 0; q < 3; q++) {
                c[q] = (ctx){&s.frustum, w, h, level, &b, n, &m, {0}, fill};
                if (q == 1)
                    c[q].o.flags = SATC_RASTER_CULL_BACK;
            }
            static bench_job jobs[3];
            memset(jobs, 0, sizeof jobs);
            jobs[0].fn = run_boxes, jobs[1].fn = jobs[2].fn = run_tris;
            for (int q = 0; q < 3; q++)
                jobs[q].ctx = &c[q];
            bench_time_jobs(jobs, 3, n, 1, quick ? 5 : 15);
            double bpm = 1e6 / jobs[0].st.med, tpm = 12e6 / jobs[1].st.med, t2 = 12e6 / jobs[2].st.med;
            int emu = p > 0 && !(satc_isa_native() & (unsigned)pisa[p]);
            printf("%-10s %19.0f %22.0f %25.0f%s\n", pname[p], bpm, tpm, t2, emu ? "  (emulated)" : "");
        }
        ctx cb = {&s.frustum, w, h, level, &b, n, &m, {0},
                  satc_raster_fill_for(satc_isa_active())};
        double us = cpu_us_per_box(&cb, quick ? 5 : 15);
        cb.fill = fill_none;
        double su = cpu_us_per_box(&cb, quick ? 5 : 15), s1 = cpu_us_one_box(&cb, quick ? 5 : 15);
        printf("box occluders, %s path, thread CPU time: %.3f us per box (setup alone %.3f; one box\n"
               "at a time %.3f)\n",
               satc_isa_name(satc_isa_active()), us, su, s1);
        free(level);
    }
    free(idx), free(rec), free(vtx), free(tri);
    scn_free(&s);
    return 0;
}
