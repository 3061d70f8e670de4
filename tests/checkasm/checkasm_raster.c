/*
 * checkasm for the occluder rasterizer's fill: the reference
 * (satc_raster_fill_ref) and every runnable path (SSE4.1, AVX2, AVX-512
 * and its emulated twin, NEON, native or through SIMDe) draw the same
 * polygons into copies of one level 0, which must then be identical bit
 * for bit, with canaries before and after it untouched; so must a plain
 * loop over every texel of each polygon's rectangle (the fills skip to
 * each row's span of possibly covered texels). Groups:
 *   raster_boxes     boxes of random sizes, turns and distances, set up
 *                    as the rasterizer does (silhouettes, faces at the
 *                    near plane), perspective and orthographic
 *   raster_tris      triangles, also crossing the near plane and the eye
 *   raster_pairs     triangle pairs sharing an edge as one polygon (4
 *                    edges, 2 planes): planar quads, creases, folds
 *   raster_special   raw polygons with NaN, infinite, signed-zero,
 *                    subnormal and huge coefficients, over texels that
 *                    hold NaN, +-Inf and -0, every width and tail
 * Every group also runs with merged coverage: each path from the same
 * random working layers, level 0 and the layers compared after.
 * Each group is reseeded from the seed and its name (--seed N replays),
 * and runs twice: default floating-point environment, then flush-to-zero
 * and denormals-are-zero (x86) or FZ (AArch64).
 *
 *   checkasm_raster [--seed N] [--group NAME]   the test
 *   checkasm_raster --bench                     polygons per ms per path
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "raster/raster.h"

#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE__))
#include <xmmintrin.h>
static unsigned env_enter(int ftz)
{
    unsigned old = _mm_getcsr();
    if (ftz)
        _mm_setcsr(old | 0x8040u);
    return old;
}
static void env_leave(unsigned old) { _mm_setcsr(old); }
#elif defined(__aarch64__)
static unsigned env_enter(int ftz)
{
    uint64_t old;
    __asm__ volatile("mrs %0, fpcr" : "=r"(old));
    if (ftz) {
        uint64_t v = old | (1ull << 24);
        __asm__ volatile("msr fpcr, %0" : : "r"(v));
    }
    return (unsigned)(old >> 24 & 1);
}
static void env_leave(unsigned old)
{
    uint64_t v;
    __asm__ volatile("mrs %0, fpcr" : "=r"(v));
    v = (v & ~(1ull << 24)) | ((uint64_t)old << 24);
    __asm__ volatile("msr fpcr, %0" : : "r"(v));
}
#else
static unsigned env_enter(int ftz) { return (unsigned)ftz; }
static void env_leave(unsigned old) { (void)old; }
#endif

#define NPATHS 6
static const char *const path_name[NPATHS] = {"sse41", "avx2", "avx512", "avx512-emu", "neon", "simd128"};
static satc_raster_fill_fn path_fn(int p)
{
    static const satc_isa isa[NPATHS] = {SATC_ISA_SSE41, SATC_ISA_AVX2, SATC_ISA_AVX512, 0,
                                         SATC_ISA_NEON, SATC_ISA_SIMD128};
    if (p == 3) {
#if SATC_HAVE_AVX512_EMU
        return (satc_isa_native() & SATC_ISA_AVX512) ? satc_raster_fill_avx512_emu : NULL;
#else
        return NULL;
#endif
    }
    return satc_raster_fill_for(isa[p]);
}

static uint64_t g_s;
static uint64_t next(void)
{
    uint64_t z = (g_s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double rnd(double lo, double hi) { return lo + (hi - lo) * (double)(next() >> 11) * 0x1p-53; }
static void reseed(uint64_t seed, const char *name)
{
    g_s = seed;
    for (const char *c = name; *c; c++)
        g_s = (g_s ^ (uint64_t)(unsigned char)*c) * 0x100000001B3ull;
}

/* The reference's expressions over every texel of the polygon's
 * rectangle, without the row spans the fills skip to: the spans must be
 * supersets of the covered texels, so this writes the same bits. */
static void fill_every_texel(const satc_rpoly *p, float *level0, uint32_t width, const satc_rcov *cov)
{
    (void)cov; /* run without merged coverage only */
    for (int32_t j = p->j0; j < p->j1; j++) {
        float re[SATC_RP_EDGES], rg[SATC_RP_PLANES];
        satc_rpoly_row(p, j, re, rg);
        for (int32_t i = p->i0; i < p->i1; i++) {
            float fi = (float)i, out, *t = &level0[(size_t)j * width + (size_t)i];
            int in = 1;
            for (uint32_t k = 0; k < p->ne; k++)
                in &= p->e[k][0] * fi + re[k] >= 0.0f;
            in &= satc_rpoly_depth(p, fi, rg, &out);
            if (in)
                *t = *t <= out ? *t : out;
        }
    }
}

#define CANARY 64
static long g_polys, g_mismatch, g_canary, g_merged, g_wide;
static int g_ftz;

/* Draws polygons p[0..n) with the reference and every path into a
 * width x height level starting as `init`; compares. With merged
 * coverage (cov_init: the layers' depths, two per texel, then their
 * masks as floats) the layers must agree too. */
static void compare_mode(const satc_rpoly *p, size_t n, uint32_t width, uint32_t height,
                         const float *init, const float *cov_init)
{
    size_t cnt = (size_t)width * height, tot = cnt + 2 * CANARY, cl = 2 * cnt;
    float *ref = malloc(tot * 4), *alt = malloc(tot * 4);
    float *rd = malloc(cl * 4 + 4), *ad = malloc(cl * 4 + 4);
    uint16_t *rm = malloc(cl * 2 + 2), *am = malloc(cl * 2 + 2);
    satc_rcov rc = {rd, rm}, ac = {ad, am};
    for (size_t k = 0; k < tot; k++)
        ref[k] = -12345.0f;
    memcpy(ref + CANARY, init, cnt * 4);
    if (cov_init)
        for (size_t k = 0; k < cl; k++)
            rd[k] = cov_init[k], rm[k] = (uint16_t)cov_init[cl + k];
    unsigned env = env_enter(g_ftz);
    for (size_t k = 0; k < n; k++)
        satc_raster_fill_ref(&p[k], ref + CANARY, width, cov_init ? &rc : NULL);
    env_leave(env);
    for (int q = cov_init ? 0 : -1; q < NPATHS; q++) {
        satc_raster_fill_fn fn = q < 0 ? fill_every_texel : path_fn(q);
        if (!fn)
            continue;
        for (size_t k = 0; k < tot; k++)
            alt[k] = -12345.0f;
        memcpy(alt + CANARY, init, cnt * 4);
        if (cov_init)
            for (size_t k = 0; k < cl; k++)
                ad[k] = cov_init[k], am[k] = (uint16_t)cov_init[cl + k];
        env = env_enter(g_ftz);
        for (size_t k = 0; k < n; k++)
            fn(&p[k], alt + CANARY, width, cov_init ? &ac : NULL);
        env_leave(env);
        for (size_t k = 0; k < CANARY; k++)
            g_canary += alt[k] != -12345.0f || alt[CANARY + cnt + k] != -12345.0f;
        if (memcmp(alt + CANARY, ref + CANARY, cnt * 4) ||
            (cov_init && (memcmp(ad, rd, cl * 4) || memcmp(am, rm, cl * 2)))) {
            g_mismatch++;
            printf("  MISMATCH path %s ftz %d coverage %d (%ux%u, %zu polygons)\n",
                   q < 0 ? "every-texel" : path_name[q], g_ftz, cov_init != NULL, width,
                   height, n);
        }
    }
    if (cov_init) {
        /* the merge must act somewhere: a mask changed or emptied */
        for (size_t k = 0; k < cl; k++)
            g_merged += rm[k] != (uint16_t)cov_init[cl + k];
    }
    g_polys += (long)n;
    for (size_t k = 0; k < n; k++) /* rows walked over their spans */
        g_wide += p[k].i1 - p[k].i0 > SATC_RP_SPAN_MIN;
    free(ref), free(alt), free(rd), free(ad), free(rm), free(am);
}

static void compare(const satc_rpoly *p, size_t n, uint32_t width, uint32_t height, const float *init)
{
    compare_mode(p, n, width, height, init, NULL);
    size_t cnt = (size_t)width * height;
    float *ci = malloc(cnt * 16 + 8);
    static const float sp[] = {INFINITY, NAN, -INFINITY, -0.0f, 0.0f, 1e-40f, 3.0f, 1e30f};
    for (size_t k = 0; k < 2 * cnt; k++) {
        unsigned r = (unsigned)(next() % 8);
        ci[2 * cnt + k] = r < 5 ? 0.0f : (float)(next() % 0xFFFFu);
        ci[k] = r == 7 ? sp[next() % 8] : (float)rnd(0.1, 100);
    }
    compare_mode(p, n, width, height, init, ci);
    free(ci);
}

static void level_init(float *l, size_t n, int special)
{
    static const float sp[] = {INFINITY, NAN, -INFINITY, -0.0f, 0.0f, 1e-40f, 3.0f, 1e30f};
    for (size_t k = 0; k < n; k++)
        l[k] = special ? sp[next() % 8] : (next() % 4 ? INFINITY : (float)rnd(0.1, 100));
}

/* compare over a fresh level 0 drawn by level_init (special values or not). */
static void compare_on_level(const satc_rpoly *p, size_t n, uint32_t w, uint32_t h, int special)
{
    float *init = calloc((size_t)w * h, sizeof *init);
    if (!init)
        abort();
    level_init(init, (size_t)w * h, special);
    compare(p, n, w, h, init);
    free(init);
}

static void view(satc_frustum *f, int ortho)
{
    if (ortho) {
        satc_camera c = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, -40, 40, -20, 20, -5, 500, 1};
        satc_frustum_from_camera(f, &c);
    } else {
        float e[3] = {0, 0, 0}, d[3] = {0, 0, 1}, u[3] = {0, 1, 0};
        satc_frustum_perspective(f, e, d, u, 1.0f, 2.0f, 0.25f, 1000);
    }
}

#define MAXP 600
static satc_rpoly g_p[MAXP];

static void group_boxes(void)
{
    static const uint32_t dims[][2] = {{64, 32}, {131, 37}, {600, 128}};
    for (int it = 0; it < 6; it++) {
        uint32_t w = dims[it % 3][0], h = dims[it % 3][1];
        satc_frustum f;
        view(&f, it & 1);
        satc_rview rv;
        satc_rview_init(&rv, &f, w, h, 0, h, 0, 0);
        size_t n = 0;
        /* the wide level's boxes nearer, so that some rectangles pass
         * every path's span threshold (SATC_RP_SPAN_MIN_PLAIN) */
        double zmax = w > 256 ? 25 : 80;
        for (int k = 0; k < 150 && n + 3 <= MAXP; k++) {
            double c[3] = {rnd(-30, 30), rnd(-15, 15), rnd(-2, zmax)}, H[3][3];
            double y = rnd(-3, 3), p = rnd(-1, 1), s[3] = {rnd(0.1, 6), rnd(0.1, 6), rnd(0.1, 6)};
            double R[3][3] = {{cos(y), 0, -sin(y)}, {sin(y) * sin(p), cos(p), cos(y) * sin(p)},
                              {sin(y) * cos(p), -sin(p), cos(y) * cos(p)}};
            for (int j = 0; j < 3; j++)
                for (int q = 0; q < 3; q++)
                    H[j][q] = (float)(s[j] * R[j][q]);
            for (int q = 0; q < 3; q++)
                c[q] = (float)c[q];
            n += (size_t)satc_raster_setup_box(&rv, c, (const double(*)[3])H, 0, &g_p[n]);
        }
        compare_on_level(g_p, n, w, h, 0);
    }
}

static void group_tris(void)
{
    for (int it = 0; it < 6; it++) {
        uint32_t w = it % 2 ? 97 : 128, h = 64;
        satc_frustum f;
        view(&f, it % 3 == 2);
        satc_rview rv;
        satc_rview_init(&rv, &f, w, h, 0, h, 0, it == 4 ? SATC_RASTER_CULL_BACK : 0);
        size_t n = 0;
        for (int k = 0; k < 400 && n < MAXP; k++) {
            double X[3][3], mag[3] = {0, 0, 0};
            for (int q = 0; q < 3; q++) {
                X[q][0] = (float)rnd(-30, 30), X[q][1] = (float)rnd(-15, 15), X[q][2] = (float)rnd(-3, 60);
                if (k % 3)
                    for (int r = 0; r < 3; r++)
                        X[q][r] = (float)(X[0][r] + rnd(-8, 8));
            }
            n += (size_t)satc_raster_setup_tri(&rv, (const double(*)[3])X, mag, &g_p[n]);
        }
        compare_on_level(g_p, n, w, h, 0);
    }
}

/* Two triangles sharing an edge, drawn as a pair's polygon: quads nearly
 * planar or creased, and folds (skipped by the setup, which the count of
 * polygons shows is not every pair). */
static void group_pairs(void)
{
    for (int it = 0; it < 6; it++) {
        uint32_t w = it % 2 ? 97 : 128, h = 64;
        satc_frustum f;
        view(&f, it % 3 == 2);
        satc_rview rv;
        satc_rview_init(&rv, &f, w, h, 0, h, 0, 0);
        size_t n = 0;
        for (int k = 0; k < 400 && n < MAXP; k++) {
            double A[3][3], B[3][3], mag[3] = {0, 0, 0};
            for (int q = 0; q < 3; q++) {
                A[q][0] = (float)rnd(-30, 30), A[q][1] = (float)rnd(-15, 15), A[q][2] = (float)rnd(1, 60);
                if (q)
                    for (int r = 0; r < 3; r++)
                        A[q][r] = (float)(A[0][r] + rnd(-12, 12));
            }
            /* B = (A1, A0, b): b opposite A2 across the edge, lifted by t */
            double t = k % 4 ? rnd(-2, 2) : 0;
            memcpy(B[0], A[1], sizeof B[0]);
            memcpy(B[1], A[0], sizeof B[1]);
            for (int r = 0; r < 3; r++)
                B[2][r] = (float)(A[0][r] + A[1][r] - A[2][r] + (r == 2 ? t : rnd(-1, 1)));
            satc_rpoly pa, pb;
            if (satc_raster_setup_tri(&rv, (const double(*)[3])A, mag, &pa) &&
                satc_raster_setup_tri(&rv, (const double(*)[3])B, mag, &pb))
                n += (size_t)satc_raster_setup_pair(&rv, (const double(*)[3])A, mag, &pa,
                                                    (const double(*)[3])B, mag, &pb, &g_p[n]);
        }
        compare_on_level(g_p, n, w, h, 0);
    }
}

static float special(void)
{
    static const float sp[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -1e-40f, 1e38f,
                               -1e38f, 1.0f, -1.0f, 0.5f, 1e-30f};
    return next() % 3 ? (float)rnd(-2, 2) : sp[next() % 13];
}

static void group_special(void)
{
    for (int it = 0; it < 40; it++) {
        uint32_t w = 1 + (uint32_t)(next() % 70), h = 1 + (uint32_t)(next() % 9);
        size_t n = 0;
        for (int k = 0; k < 20; k++) {
            satc_rpoly *p = &g_p[n++];
            memset(p, 0, sizeof *p);
            p->i0 = (int32_t)(next() % w);
            p->i1 = p->i0 + 1 + (int32_t)(next() % (w - (uint32_t)p->i0));
            p->j0 = (int32_t)(next() % h);
            p->j1 = p->j0 + 1 + (int32_t)(next() % (h - (uint32_t)p->j0));
            p->ne = 1 + (uint32_t)(next() % SATC_RP_EDGES);
            p->np = 1 + (uint32_t)(next() % SATC_RP_PLANES);
            for (uint32_t e = 0; e < p->ne; e++) {
                p->e[e][0] = special() * 0.01f, p->e[e][1] = special() * 0.01f;
                p->e[e][2] = special() + 0.5f;
            }
            p->ortho = (uint32_t)(next() % 2);
            for (uint32_t e = 0; e < p->np; e++)
                for (int q = 0; q < 3; q++)
                    p->g[e][q] = special();
        }
        compare_on_level(g_p, n, w, h, 1);
    }
}

typedef struct group {
    const char *name;
    void (*fn)(void);
} group;
static const group groups[] = {{"raster_boxes", group_boxes},
                               {"raster_tris", group_tris},
                               {"raster_pairs", group_pairs},
                               {"raster_special", group_special}};
#define NGROUPS (sizeof groups / sizeof groups[0])

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int run_bench(void)
{
    printf("checkasm_raster --bench: box polygons of a 512x256 level 0, median per path\n");
    reseed(1, "bench");
    satc_frustum f;
    view(&f, 0);
    satc_rview rv;
    satc_rview_init(&rv, &f, 512, 256, 0, 256, 0, 0);
    size_t n = 0;
    while (n + 3 <= MAXP) {
        double c[3] = {(float)rnd(-30, 30), (float)rnd(-15, 15), (float)rnd(10, 80)},
               H[3][3] = {{rnd(0.5, 4), 0, 0}, {0, rnd(0.5, 4), 0}, {0, 0, rnd(0.5, 4)}};
        n += (size_t)satc_raster_setup_box(&rv, c, (const double(*)[3])H, 0, &g_p[n]);
    }
    float *l = malloc(512 * 256 * 4), *cd = malloc(2 * 512 * 256 * 4);
    uint16_t *cm = malloc(2 * 512 * 256 * 2);
    satc_rcov cov = {cd, cm};
    for (int q = -1; q < 2 * NPATHS + 1; q++) {
        int merged = q >= NPATHS;
        int path = merged ? q - NPATHS - 1 : q;
        satc_raster_fill_fn fn = path < 0 ? satc_raster_fill_ref : path_fn(path);
        if (!fn)
            continue;
        double t[9];
        for (int r = 0; r < 9; r++) {
            for (size_t k = 0; k < 512 * 256; k++)
                l[k] = INFINITY, cd[2 * k] = cd[2 * k + 1] = INFINITY, cm[2 * k] = cm[2 * k + 1] = 0;
            double t0 = now();
            for (size_t k = 0; k < n; k++)
                fn(&g_p[k], l, 512, merged ? &cov : NULL);
            t[r] = now() - t0;
        }
        for (int a = 0; a < 9; a++)
            for (int b = a + 1; b < 9; b++)
                if (t[b] < t[a]) {
                    double x = t[a];
                    t[a] = t[b], t[b] = x;
                }
        printf("%-10s %-7s %8.0f polygons/ms\n", path < 0 ? "reference" : path_name[path],
               merged ? "merged" : "whole", (double)n / (t[4] * 1e3));
    }
    free(l), free(cd), free(cm);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t seed = 0x5a7c0035;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--group") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--bench"))
            return run_bench();
        else {
            fprintf(stderr, "usage: %s [--seed N] [--group NAME] | --bench\n", argv[0]);
            return 2;
        }
    }
    int found = 0, passed = 0, failed = 0;
    printf("checkasm_raster: seed 0x%llx\n", (unsigned long long)seed);
    for (size_t g = 0; g < NGROUPS; g++) {
        if (only && strcmp(only, groups[g].name))
            continue;
        found = 1;
        for (g_ftz = 0; g_ftz < 2; g_ftz++) {
            g_polys = g_mismatch = g_canary = g_merged = g_wide = 0;
            reseed(seed, groups[g].name);
            groups[g].fn();
            /* drawn geometry must exercise the layers (raw polygons may
             * not); boxes both the narrow rectangles and the spans */
            int ok = !g_mismatch && !g_canary && (g_merged > 0 || groups[g].fn == group_special) &&
                     (groups[g].fn != group_boxes || (g_wide > 0 && g_wide < g_polys));
            ok ? passed++ : failed++;
            printf("  %-4s %-15s ftz %d %6ld polygons (%ld wide) %ld mismatches %ld canary hits %ld layers "
                   "changed\n",
                   ok ? "ok" : "FAIL", groups[g].name, g_ftz, g_polys, g_wide, g_mismatch, g_canary,
                   g_merged);
        }
    }
    if (!found) {
        fprintf(stderr, "checkasm_raster: unknown group '%s'\n", only);
        return 2;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
