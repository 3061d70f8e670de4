/*
 * Baseline (b) of the engine frame, Filament's way, written from the
 * published algorithm (not from Filament's code): each frame the world
 * AABB of every instance by Arvo's method ("Transforming axis-aligned
 * bounding boxes", Graphics Gems 1990) into two float3 arrays, then the
 * six-plane center/extent test (RTR 22.10.1) over all objects, one byte
 * per object. Plain C loops, left to the compiler to vectorize (this file
 * is built at -O3), as Filament's culler is.
 */
#include "bench.h"

/* center' = M c + t, half'_r = sum_j |M_rj| h_j; m: column-major 4x4. */
void fb_filament_arvo(const float *restrict m, size_t n, const float lc[3], const float lh[3],
                      float *restrict c3, float *restrict h3)
{
    const float c0 = lc[0], c1 = lc[1], c2 = lc[2], e0 = lh[0], e1 = lh[1], e2 = lh[2];
    for (size_t i = 0; i < n; i++) {
        const float *M = m + 16 * i;
        /* Whole columns (4 rows): straight-line code the compiler turns
         * into 4-wide vector operations; row 3 is computed and dropped. */
        float c[4], h[4];
        for (int r = 0; r < 4; r++) {
            float a = M[r], b = M[4 + r], d = M[8 + r];
            c[r] = a * c0 + b * c1 + d * c2 + M[12 + r];
            h[r] = (a < 0 ? -a : a) * e0 + (b < 0 ? -b : b) * e1 + (d < 0 ? -d : d) * e2;
        }
        for (int r = 0; r < 3; r++)
            c3[3 * i + r] = c[r], h3[3 * i + r] = h[r];
    }
}

/* Inward planes n.X + d >= 0: an object is out when, for some plane,
 * n.c + d + |n|.e < 0. Branch-free, 16 objects at a time: the float3s are
 * first copied into six 16-float rows (GCC vectorizes the stride-3 form
 * only 2 wide), then the planes run 4 wide into a 32-bit mask per object,
 * then a byte per object. Returns the count kept. */
size_t fb_filament_cull(const bl_frustum *bf, const float *restrict c3, const float *restrict h3, size_t n,
                        uint8_t *restrict out)
{
    float P[6][4], A[6][3];
    for (int p = 0; p < 6; p++) {
        for (int k = 0; k < 4; k++)
            P[p][k] = bf->plane[p][k];
        for (int k = 0; k < 3; k++)
            A[p][k] = bf->absn[p][k];
    }
    size_t vis = 0;
    for (size_t i0 = 0; i0 < n; i0 += 16) {
        size_t m = n - i0 < 16 ? n - i0 : 16;
        const float *c = c3 + 3 * i0, *h = h3 + 3 * i0;
        float s[6][16];
        int32_t t[16];
        for (size_t i = 0; i < 16; i++) {
            size_t j = i < m ? i : 0; /* a short tail repeats object 0 */
            for (int k = 0; k < 3; k++)
                s[k][i] = c[3 * j + k], s[3 + k][i] = h[3 * j + k];
        }
        for (size_t i = 0; i < 16; i++) {
            int32_t in = -1;
            for (int p = 0; p < 6; p++) {
                float v = P[p][0] * s[0][i] + P[p][1] * s[1][i] + P[p][2] * s[2][i] + P[p][3] + A[p][0] * s[3][i] +
                          A[p][1] * s[4][i] + A[p][2] * s[5][i];
                in &= -(int32_t)(v >= 0.0f);
            }
            t[i] = in;
        }
        for (size_t i = 0; i < m; i++) {
            out[i0 + i] = (uint8_t)(t[i] & 1);
            vis += (size_t)(t[i] & 1);
        }
    }
    return vis;
}
