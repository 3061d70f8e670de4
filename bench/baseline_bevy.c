/*
 * Baseline (c) of the engine frame, Bevy's way, written from the published
 * algorithm (not from Bevy's code): one instance at a time, the six planes
 * against the affine map and the local AABB. For each plane the box's
 * projected radius is r = sum_j |n . M_j| h_j (M_j the columns of the
 * linear part) and the instance is out when n . (M c + t) + d < -r,
 * leaving at the first such plane. Bevy also tests a world sphere first;
 * that pre-test is left out here (it only adds work on this scene).
 * Compiled once per instruction set, like baseline_filament.c (FB_NAME).
 */
#include "baselines.h"

static int bevy_one(const bl_frustum *bf, const float *M, const float lc[3], const float lh[3])
{
    float w[3];
    for (int r = 0; r < 3; r++)
        w[r] = M[r] * lc[0] + M[4 + r] * lc[1] + M[8 + r] * lc[2] + M[12 + r];
    for (int p = 0; p < 6; p++) {
        const float *n = bf->plane[p];
        float r = 0.0f;
        for (int j = 0; j < 3; j++) {
            float t = n[0] * M[4 * j] + n[1] * M[4 * j + 1] + n[2] * M[4 * j + 2];
            r += (t < 0 ? -t : t) * lh[j];
        }
        if (n[0] * w[0] + n[1] * w[1] + n[2] * w[2] + n[3] < -r)
            return 0;
    }
    return 1;
}

size_t FB_NAME(fb_bevy_batch)(const bl_frustum *bf, const float *m, size_t n, const float lc[3], const float lh[3],
                     uint8_t *mask)
{
    size_t vis = 0;
    for (size_t i0 = 0; i0 < n; i0 += 8) {
        unsigned byte = 0;
        for (size_t j = 0; j < 8 && i0 + j < n; j++) {
            unsigned v = (unsigned)bevy_one(bf, m + 16 * (i0 + j), lc, lh);
            byte |= v << j;
            vis += v;
        }
        mask[i0 / 8] = (uint8_t)byte;
    }
    return vis;
}
