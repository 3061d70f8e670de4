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
        for (int r = 0; r < 3; r++) {
            float a = M[r], b = M[4 + r], c = M[8 + r];
            c3[3 * i + r] = a * c0 + b * c1 + c * c2 + M[12 + r];
            h3[3 * i + r] = (a < 0 ? -a : a) * e0 + (b < 0 ? -b : b) * e1 + (c < 0 ? -c : c) * e2;
        }
    }
}

/* Inward planes n.X + d >= 0: an object is out when, for some plane,
 * n.c + d + |n|.e < 0. Branch-free over objects; returns the count kept. */
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
    for (size_t i = 0; i < n; i++) {
        float x = c3[3 * i], y = c3[3 * i + 1], z = c3[3 * i + 2];
        float ex = h3[3 * i], ey = h3[3 * i + 1], ez = h3[3 * i + 2];
        int in = 1;
        for (int p = 0; p < 6; p++) {
            float s = P[p][0] * x + P[p][1] * y + P[p][2] * z + P[p][3] + A[p][0] * ex + A[p][1] * ey + A[p][2] * ez;
            in &= s >= 0.0f;
        }
        out[i] = (uint8_t)in;
        vis += (size_t)in;
    }
    return vis;
}
