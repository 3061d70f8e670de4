/* The raster tests' pass/fail counting and random numbers (splitmix64,
 * seeded by RASTER_SEED, defined before this header). One test per
 * program: the state is the program's own, static unless
 * RASTER_CHECK_SHARED is defined (a program of several files). */
#ifndef SATC_RASTER_CHECK_H
#define SATC_RASTER_CHECK_H

#include <stdint.h>
#include <stdio.h>

#ifdef RASTER_CHECK_SHARED
#define RASTER_CHECK_LINK
#else
#define RASTER_CHECK_LINK static
#endif

RASTER_CHECK_LINK int g_fail, g_pass;

RASTER_CHECK_LINK void check(int ok, const char *what)
{
    if (ok) {
        g_pass++;
    } else {
        g_fail++;
        printf("FAIL %s\n", what);
    }
}

RASTER_CHECK_LINK uint64_t g_rng = RASTER_SEED;
RASTER_CHECK_LINK double rnd(double lo, double hi)
{
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) * 0x1p-53;
}

#endif
