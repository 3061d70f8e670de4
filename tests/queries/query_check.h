/* The query tests' pass/fail counting and random numbers (splitmix64).
 * Each program defines QUERY_SEED (its own stream) and QUERY_MAX_FAILS
 * (how many failures are printed) before including this header. A
 * program of several files defines QUERY_CHECK_SHARED in each: the one
 * with QUERY_SEED holds the counts and the stream, the others share them. */
#ifndef SATC_QUERY_CHECK_H
#define SATC_QUERY_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#ifdef QUERY_CHECK_SHARED
#define QUERY_LINK
#else
#define QUERY_LINK static
#endif

#if defined(QUERY_CHECK_SHARED) && !defined(QUERY_SEED)
extern long n_pass, n_fail;
void check(int ok, const char *what);
double uni(double lo, double hi);
double logu(double lo, double hi);
#else
QUERY_LINK long n_pass, n_fail;

QUERY_LINK void check(int ok, const char *what)
{
    if (ok) {
        n_pass++;
    } else {
        n_fail++;
        if (n_fail <= QUERY_MAX_FAILS)
            printf("FAIL: %s\n", what);
    }
}

static uint64_t rng_s = QUERY_SEED;
QUERY_LINK double uni(double lo, double hi)
{
    uint64_t z = (rng_s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo + (hi - lo) * ((double)(z >> 11) * 0x1.0p-53);
}
/* Log-uniform in [lo, hi] (0 < lo <= hi). */
QUERY_LINK double logu(double lo, double hi) { return exp(uni(log(lo), log(hi))); }
#endif

#endif
