/* The matrix tests' pass/fail counting, random numbers (splitmix64) and
 * random rotations, shared by test_matrix.c and test_matrix_inside.c.
 * Each defines MATRIX_MAX_FAILS (how many failures are printed) before
 * including this header. */
#ifndef SATC_MATRIX_CHECK_H
#define SATC_MATRIX_CHECK_H

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#ifndef PI
#define PI 3.14159265358979323846
#endif

static int g_pass, g_fail;

static void check(int ok, const char *fmt, ...)
{
    if (ok) {
        g_pass++;
        return;
    }
    if (++g_fail > MATRIX_MAX_FAILS)
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

typedef struct rng {
    uint64_t s;
} rng;

static inline uint64_t next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline double uni(rng *r, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(next(r) >> 11) * 0x1.0p-53);
}

static inline double logu(rng *r, double lo, double hi) { return exp(uni(r, log(lo), log(hi))); }

/* Uniform rotation (Shoemake), rows of the matrix: a right-handed frame
 * (rows L, U, D). */
static inline void random_rotation(rng *r, double R[3][3])
{
    double u1 = uni(r, 0, 1), u2 = uni(r, 0, 2 * PI), u3 = uni(r, 0, 2 * PI);
    double x = sqrt(1 - u1) * sin(u2), y = sqrt(1 - u1) * cos(u2);
    double z = sqrt(u1) * sin(u3), w = sqrt(u1) * cos(u3);
    R[0][0] = 1 - 2 * (y * y + z * z), R[0][1] = 2 * (x * y - z * w), R[0][2] = 2 * (x * z + y * w);
    R[1][0] = 2 * (x * y + z * w), R[1][1] = 1 - 2 * (x * x + z * z), R[1][2] = 2 * (y * z - x * w);
    R[2][0] = 2 * (x * z - y * w), R[2][1] = 2 * (y * z + x * w), R[2][2] = 1 - 2 * (x * x + y * y);
}

#endif
