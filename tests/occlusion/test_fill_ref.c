/*
 * satc_pyramid_fill's loops (the rows and columns of pixels reduced in
 * blocks, each conversion once per texel) against its reference, which
 * reads every texel's pixels one by one: the same bits in every texel of
 * every level, and the same status, over random images of every format
 * and convention, both projections, the near/far and the matrix paths,
 * pyramids smaller and larger than the image, padded rows, a texel wider
 * than the loops' block of pixels, and values at and beyond both ends.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/occlusion/occlusion.h"

static int g_fail;
#define CHECK(c, ...)                                                                              \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            g_fail++;                                                                              \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static uint64_t g_rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13, g_rng ^= g_rng >> 7, g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 32);
}
static float urand(void) { return (float)(rnd() >> 8) * 0x1p-24f; }

/* A projection (column-major) for the conventions cv. */
static void projection(int ortho, unsigned cv, float n, float f, float *m)
{
    memset(m, 0, 16 * sizeof *m);
    int gl = !(cv & SATC_DEPTH_ZERO_TO_ONE), rev = (cv & SATC_DEPTH_REVERSED) != 0;
    double lo = gl ? -1 : 0, zn = rev ? 1 : lo, zf = rev ? lo : 1, P, Q;
    m[0] = 1.2f, m[5] = 1.6f;
    if (ortho) {
        Q = (zf - zn) / (f - n), P = zn - Q * n;
        m[10] = (float)-Q, m[14] = (float)P, m[15] = 1; /* right-handed: view z = -depth */
    } else {
        if (cv & SATC_DEPTH_INFINITE_FAR)
            P = zf, Q = (zn - zf) * n;
        else
            Q = (zn - zf) * n * f / (f - n), P = zf - Q / f;
        m[10] = (float)-P, m[14] = (float)Q, m[11] = -1;
    }
}

/* A pixel value of format fmt: mostly inside the range, some at or past its ends. */
static void pixel(int fmt, uint8_t *at)
{
    uint32_t r = rnd(), pick = rnd() % 16;
    if (fmt == SATC_DEPTH_FORMAT_UNORM16) {
        uint16_t v = pick == 0 ? 0 : pick == 1 ? 65535 : (uint16_t)(r >> 16);
        memcpy(at, &v, 2);
        return;
    }
    if (fmt >= SATC_DEPTH_FORMAT_UNORM24) {
        uint32_t v = pick == 0 ? 0 : pick == 1 ? ~0u : r; /* high or low byte garbage too */
        memcpy(at, &v, 4);
        return;
    }
    float v = urand();
    if (fmt == SATC_DEPTH_FORMAT_LINEAR)
        v = pick == 0 ? INFINITY : pick == 1 ? 0.0f : pick == 2 ? -0.0f : 0.05f + 200 * v * v;
    else if (fmt == SATC_DEPTH_FORMAT_FLOAT_NDC)
        v = pick == 0 ? 1.0f : pick == 1 ? -1.0f : pick == 2 ? -0.0f : pick == 3 ? 1.5f : 2 * v - 1;
    else
        v = pick == 0 ? 1.0f : pick == 1 ? 0.0f : pick == 2 ? -0.0f : pick == 3 ? -0.25f : v;
    memcpy(at, &v, 4);
}

static float *g_a, *g_b;
static uint8_t *g_img;
static long g_cases, g_ok;

static void one_case(uint32_t iw, uint32_t ih, uint32_t pw, uint32_t ph)
{
    int fmt = 1 + (int)(rnd() % 7), ortho = rnd() % 4 == 0, use_matrix = rnd() % 2;
    unsigned cv = (rnd() % 2 ? SATC_DEPTH_ZERO_TO_ONE : 0u) | (rnd() % 2 ? SATC_DEPTH_REVERSED : 0u) |
                  (!ortho && rnd() % 3 == 0 ? SATC_DEPTH_INFINITE_FAR : 0u) |
                  (rnd() % 2 ? SATC_IMAGE_TOP_DOWN : 0u);
    float n = 0.01f + 2 * urand(), f = n * (2 + 1000 * urand()), m[16];
    projection(ortho, cv & ~(unsigned)SATC_IMAGE_TOP_DOWN, n, f, m);
    satc_frustum view;
    satc_status st = satc_frustum_from_matrix(&view, m, SATC_MATRIX_COLUMN_MAJOR |
                                                            (cv & ~(unsigned)SATC_IMAGE_TOP_DOWN));
    CHECK(st == SATC_OK, "view: status %d", (int)st);
    if (st != SATC_OK)
        return;
    size_t ps = fmt == SATC_DEPTH_FORMAT_UNORM16 ? 2 : 4, rb = (iw + rnd() % 3) * ps;
    for (uint32_t y = 0; y < ih; y++)
        for (uint32_t x = 0; x < iw; x++)
            pixel(fmt, g_img + y * rb + x * ps);
    satc_depth_image di = {g_img, iw, ih, rb, (satc_depth_format)fmt, cv, n, f};
    size_t bytes = satc_pyramid_bytes(pw, ph);
    satc_pyramid pa, pb;
    CHECK(satc_pyramid_init(&pa, &view, pw, ph, g_a, bytes) == SATC_OK, "init");
    CHECK(satc_pyramid_init(&pb, &view, pw, ph, g_b, bytes) == SATC_OK, "init");
    satc_status sa = use_matrix ? satc_pyramid_fill_matrix(&pa, &di, m, SATC_MATRIX_COLUMN_MAJOR)
                                : satc_pyramid_fill(&pa, &di);
    satc_status sb = satc_pyramid_fill_ref(&pb, &di, use_matrix ? m : NULL, SATC_MATRIX_COLUMN_MAJOR);
    g_cases++;
    CHECK(sa == sb, "status %d, reference %d (format %d, conventions %#x)", (int)sa, (int)sb, fmt, cv);
    if (sa != SATC_OK || sb != SATC_OK)
        return;
    g_ok++;
    CHECK(!memcmp(g_a, g_b, bytes),
          "%ux%u image (format %d, conventions %#x, %s) into %ux%u: texels differ", iw, ih, fmt, cv,
          ortho ? "orthographic" : "perspective", pw, ph);
}

int main(void)
{
    size_t max_img = 65536 * 2 * 4 + 64 * 9000 * 4 + 64, max_pyr = satc_pyramid_bytes(640, 400);
    g_img = malloc(max_img);
    g_a = malloc(max_pyr), g_b = malloc(max_pyr);
    if (!g_img || !g_a || !g_b)
        return 1;
    for (int c = 0; c < 400; c++) {
        uint32_t iw = 1 + rnd() % 300, ih = 1 + rnd() % 120;
        uint32_t pw = 64 + rnd() % 320, ph = 32 + rnd() % 160;
        one_case(iw, ih, pw, ph);
    }
    /* as large as the benchmark's, down and up */
    one_case(1280, 72, 512, 32);
    one_case(300, 200, 640, 400);
    /* the widest texels (about 1000 pixels each: a few per block of
     * pixels) and the tallest */
    for (int c = 0; c < 4; c++)
        one_case(65536 - rnd() % 3000, 1 + rnd() % 2, 64 + rnd() % 3, 32);
    one_case(64, 9000, 64, 32);
    /* NaN: both refuse, nothing written */
    float nan_img[4] = {0.5f, NAN, 0.5f, 0.5f};
    satc_frustum view;
    float m[16];
    projection(0, SATC_DEPTH_ZERO_TO_ONE, 0.1f, 100, m);
    satc_frustum_from_matrix(&view, m, SATC_MATRIX_COLUMN_MAJOR | SATC_DEPTH_ZERO_TO_ONE);
    satc_pyramid p;
    satc_pyramid_init(&p, &view, 64, 32, g_a, satc_pyramid_bytes(64, 32));
    satc_depth_image di = {nan_img, 2, 2, 8, SATC_DEPTH_FORMAT_FLOAT, SATC_DEPTH_ZERO_TO_ONE, 0.1f, 100};
    CHECK(satc_pyramid_fill(&p, &di) == SATC_ERR_NONFINITE, "a NaN pixel");
    CHECK(isinf(p.depth[0]) && p.depth[0] > 0, "nothing written on error");
    printf("fill_ref: %ld cases (%ld filled), every texel the reference's bits: %s\n", g_cases, g_ok,
           g_fail ? "FAILED" : "ok");
    CHECK(g_ok > g_cases / 2, "most cases must fill (%ld of %ld)", g_ok, g_cases);
    free(g_img), free(g_a), free(g_b);
    return g_fail ? 1 : 0;
}
