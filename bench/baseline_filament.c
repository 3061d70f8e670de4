/*
 * Baseline (b) of the engine frame, Filament's way, written from its
 * algorithm (Filament's culler and its scene's per-frame preparation read
 * side by side, none of their code). Two passes over arrays, as Filament's
 * renderer runs them each frame:
 *
 * 1. the transform pass: for every renderable, its own local box (center
 *    and half extent, 24 B, as the renderable manager stores one per
 *    renderable) and its 4x4 world matrix give the world box by Arvo's
 *    method, center' = U c + t and extent' = |U| e (U the upper 3x3), into
 *    two float3 arrays (12 B per element each);
 * 2. the culler over those arrays: per object, the six planes against the
 *    box's nearest corner, branch-free: the object stays when every
 *    plane's n.c - |n|.e + w (outward planes) has its sign bit set; the
 *    answer goes into bit 0 of the object's result byte, the other bits
 *    kept (read, modify, write). The count is rounded up to a multiple of
 *    8 and the arrays have room for it, as Filament's culler requires.
 *
 * Filament's preparation also computes, per renderable, things culling
 * does not use (the winding from the determinant, a scale from three
 * lengths, the double-precision world transform): left out, so this pass
 * is at least as fast as Filament's. Plain loops, one object per
 * iteration, left to the compiler's vectorizer; clang, which Filament is
 * built with, gets Filament's width hint (4 lanes). This file is compiled
 * once per instruction set (bench/meson.build: -O3 and -mavx2, or
 * -mavx512f -mavx512vl -mavx512dq -mavx512bw; clang when it is installed,
 * else gcc), with the project's -ffp-contract=off; FB_ISA names the build
 * and suffixes its symbols, so each row of the benchmark says which build
 * it ran.
 */
#include <string.h>

#include "baselines.h"

#if defined(__clang__)
#define FB_VECTOR_HINT _Pragma("clang loop vectorize_width(4)")
#else
#define FB_VECTOR_HINT
#endif

/* lbox: n records {center[3], half[3]}; m: column-major 4x4, 64 B each. */
void FB_NAME(fb_filament_arvo)(const float *restrict m, const float *restrict lbox, size_t n,
                               float *restrict c3, float *restrict e3)
{
    for (size_t i = 0; i < n; i++) {
        const float *M = m + 16 * i, *B = lbox + 6 * i;
        for (int r = 0; r < 3; r++) {
            c3[3 * i + r] = M[r] * B[0] + M[4 + r] * B[1] + M[8 + r] * B[2] + M[12 + r];
            e3[3 * i + r] = __builtin_fabsf(M[r]) * B[3] + __builtin_fabsf(M[4 + r]) * B[4] +
                            __builtin_fabsf(M[8 + r]) * B[5];
        }
    }
}

/* The bench's planes are inward (n.X + d >= 0 inside); Filament's point
 * out. Negating them is exact, so the test is the same. n is rounded up
 * to a multiple of 8 (the arrays and out have room); returns the count
 * kept among the first n. */
size_t FB_NAME(fb_filament_cull)(const bl_frustum *bf, const float *restrict c3, const float *restrict e3,
                                 size_t n, uint8_t *restrict out)
{
    float P[6][4];
    for (int j = 0; j < 6; j++)
        for (int k = 0; k < 4; k++)
            P[j][k] = -bf->plane[j][k];
    const unsigned bit = 0; /* the frustum's bit of the result byte */
    size_t count = (n + 7) & ~(size_t)7;
    FB_VECTOR_HINT
    for (size_t i = 0; i < count; i++) {
        int32_t visible = -1;
        for (int j = 0; j < 6; j++) {
            float dot = P[j][0] * c3[3 * i] - __builtin_fabsf(P[j][0]) * e3[3 * i] + P[j][1] * c3[3 * i + 1] -
                        __builtin_fabsf(P[j][1]) * e3[3 * i + 1] + P[j][2] * c3[3 * i + 2] -
                        __builtin_fabsf(P[j][2]) * e3[3 * i + 2] + P[j][3];
            int32_t bits;
            memcpy(&bits, &dot, sizeof bits);
            visible &= (int32_t)((uint32_t)bits >> 31) << bit; /* the sign bit */
        }
        uint8_t r = out[i];
        r &= (uint8_t)~(1u << bit);
        r |= (uint8_t)visible;
        out[i] = r;
    }
    size_t vis = 0;
    for (size_t i = 0; i < n; i++)
        vis += out[i] & 1u;
    return vis;
}
