/*
 * Baseline (b) of the engine frame, Filament's way, written from its
 * algorithm (Filament's culler and FScene::prepare read side by side,
 * none of their code): each frame the world box of every instance,
 * center' = U c + t and extent' = |U| e (U the matrix's upper 3x3, Arvo's
 * method for a center/extent box), into two float3 arrays of 12 B per
 * element; then, per object, the six planes against the box's nearest
 * corner, branch-free: the object stays when every plane's
 * n.c - |n|.e + w (outward planes) has its sign bit set; a byte per
 * object. Filament rounds its count up to a multiple of 8 and keeps room
 * for it; the caller here allocates the arrays and the bytes that way.
 *
 * Plain loops, one object per iteration, left to the compiler's
 * vectorizer as Filament leaves them (it hints clang at 4 lanes). This
 * file is compiled once per instruction set (bench/meson.build: -O3 and
 * -mavx2, or -mavx512f -mavx512vl -mavx512dq -mavx512bw), with the
 * project's -ffp-contract=off; FB_ISA names the build and suffixes its
 * symbols, so each row of the benchmark says which build it ran.
 */
#include <string.h>

#include "baselines.h"

/* center' = U c + t, extent' = |U| e; m: column-major 4x4, 64 B each. */
void FB_NAME(fb_filament_arvo)(const float *restrict m, size_t n, const float lc[3], const float le[3],
                               float *restrict c3, float *restrict e3)
{
    const float c0 = lc[0], c1 = lc[1], c2 = lc[2], e0 = le[0], e1 = le[1], e2 = le[2];
    for (size_t i = 0; i < n; i++) {
        const float *M = m + 16 * i;
        for (int r = 0; r < 3; r++) {
            c3[3 * i + r] = M[r] * c0 + M[4 + r] * c1 + M[8 + r] * c2 + M[12 + r];
            e3[3 * i + r] = __builtin_fabsf(M[r]) * e0 + __builtin_fabsf(M[4 + r]) * e1 +
                            __builtin_fabsf(M[8 + r]) * e2;
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
    float P[6][4], A[6][3];
    for (int j = 0; j < 6; j++) {
        for (int k = 0; k < 4; k++)
            P[j][k] = -bf->plane[j][k];
        for (int k = 0; k < 3; k++)
            A[j][k] = bf->absn[j][k];
    }
    size_t count = (n + 7) & ~(size_t)7;
    for (size_t i = 0; i < count; i++) {
        int32_t visible = -1;
        for (int j = 0; j < 6; j++) {
            float dot = P[j][0] * c3[3 * i] - A[j][0] * e3[3 * i] + P[j][1] * c3[3 * i + 1] -
                        A[j][1] * e3[3 * i + 1] + P[j][2] * c3[3 * i + 2] - A[j][2] * e3[3 * i + 2] + P[j][3];
            int32_t bits;
            memcpy(&bits, &dot, sizeof bits);
            visible &= bits >> 31; /* the sign bit, all ones or zero */
        }
        out[i] = (uint8_t)visible;
    }
    size_t vis = 0;
    for (size_t i = 0; i < n; i++)
        vis += out[i] & 1u;
    return vis;
}
