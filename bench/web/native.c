/* The native side of the web bench (bench/web/bench.mjs): the same boxes
 * and matrix, culled by satc_cull_isa on SSE4.1 (the same 128-bit width
 * as SIMD128), median ns/box of reps runs, and FNV-1a hashes of the
 * bitmasks for the bench's bit-identity line. Prints one JSON line.
 *   satc_web_native FILE REPS    FILE: u32 n, 16 floats (column-major
 *                                view-projection), n AABB records (24 B),
 *                                n 4x4 column-major matrices */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "satc.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint32_t fnv(const uint8_t *p, size_t n)
{
    uint32_t h = 0x811c9dc5u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x01000193u;
    return h;
}

static satc_isa isa = SATC_ISA_SSE41;

static double run(const satc_frustum *f, const satc_batch *b, size_t n, satc_mode mode, int reps,
                  uint8_t *bits, uint32_t *hash)
{
    double t[64];
    satc_results r = {bits, NULL, NULL, 0};
    if (reps > 64)
        reps = 64;
    for (int k = -1; k < reps; k++) { /* one warm-up run */
        double t0 = now();
        if (satc_cull_isa(isa, f, b, 0, n, mode, &r) != SATC_OK)
            exit(1);
        if (k >= 0)
            t[k] = (now() - t0) / (double)n;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp);
    *hash = fnv(bits, (n + 7) / 8);
    return t[reps / 2];
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    FILE *in = fopen(argv[1], "rb");
    uint32_t n;
    float m[16];
    if (!in || fread(&n, 4, 1, in) != 1 || fread(m, 4, 16, in) != 16)
        return 2;
    float *aabb = malloc((size_t)n * 24), *mats = malloc((size_t)n * 64);
    uint8_t *bits = malloc(n / 8 + 8);
    if (!aabb || !mats || !bits || fread(aabb, 24, n, in) != n || fread(mats, 64, n, in) != n)
        return 2;
    fclose(in);
    if (!(satc_isa_runnable() & SATC_ISA_SSE41))
        isa = SATC_ISA_SCALAR;
    satc_frustum f;
    if (satc_frustum_from_matrix(&f, m, 0) != SATC_OK)
        return 1;
    static const float lbox[6] = {0, 0, 0, 1, 1, 1};
    satc_batch ba = {.form = SATC_FORM_AABB,
                     .aabb = {SATC_VEC3S_AOS(aabb, 24), SATC_VEC3S_AOS(aabb + 3, 24)}};
    satc_batch bi = {.form = SATC_FORM_INSTANCES,
                     .instances = {mats, 64, SATC_AFFINE_4X4_COLUMN_MAJOR,
                                   {lbox, lbox + 1, lbox + 2, 0}, {lbox + 3, lbox + 4, lbox + 5, 0},
                                   NULL, 0, 0}};
    int reps = atoi(argv[2]);
    uint32_t h[3];
    double c = run(&f, &ba, n, SATC_CONSERVATIVE, reps, bits, &h[0]);
    double e = run(&f, &ba, n, SATC_EXACT, reps, bits, &h[1]);
    double i = run(&f, &bi, n, SATC_EXACT, reps, bits, &h[2]);
    printf("{\"isa\": \"%s\", \"cons\": %.4f, \"exact\": %.4f, \"inst\": %.4f, \"hashes\": [%u, %u, %u]}\n",
           satc_isa_name(isa), c, e, i, h[0], h[1], h[2]);
    return 0;
}
