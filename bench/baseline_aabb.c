/*
 * Baseline (c): what most engines do. The OBB becomes a world AABB (seed
 * 002: the extent along world axis x is sum_j e_j |A_j.x|), which is then
 * tested against the six planes with the center/extent test of RTR
 * 22.10.1: s = n.c + d, r = h.|n|, outside when s + r < 0 (inward
 * normals), first plane out ends the test. The conversion is part of each
 * call: the input is the same 60-byte OBB satc reads.
 */
#include <math.h>

#include "baselines.h"

int bl_aabb_box(const bl_frustum *bf, const satc_obb *b)
{
    const float *e = b->extent;
    float h[3];
    for (int c = 0; c < 3; c++)
        h[c] = e[0] * fabsf(b->axis[0][c]) + e[1] * fabsf(b->axis[1][c]) + e[2] * fabsf(b->axis[2][c]);
    for (int p = 0; p < 6; p++) {
        const float *pl = bf->plane[p], *an = bf->absn[p];
        float s = pl[0] * b->center[0] + pl[1] * b->center[1] + pl[2] * b->center[2] + pl[3];
        float r = h[0] * an[0] + h[1] * an[1] + h[2] * an[2];
        if (s + r < 0.0f)
            return 0;
    }
    return 1;
}

BL_BATCH(bl_aabb_batch, bl_aabb_box)
