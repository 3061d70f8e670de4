/* Godot 4's per-AABB hierarchical-Z test, written from its description
 * (baseline_godot_hzb.c), on a pyramid's levels. */
#ifndef SATC_BENCH_GODOT_HZB_H
#define SATC_BENCH_GODOT_HZB_H

#include <stddef.h>
#include <stdint.h>

typedef struct godot_hzb {
    float vp[16];    /* view-projection, column-major, x to the image's right, y up */
    float eye[3], dir[3], near_z;
    const float *depth; /* the levels, level 0 row 0 at the bottom, column 0 at the left */
    uint32_t levels, level_w[16], level_h[16];
    size_t level_off[16];
} godot_hzb;

/* 1 when the world box (c, h) is occluded. */
int godot_hzb_occluded(const godot_hzb *z, const float c[3], const float h[3]);
/* The boxes idx[0..n) (center, half: float3 arrays): how many are occluded. */
size_t godot_hzb_run(const godot_hzb *z, const uint32_t *idx, size_t n, const float *center,
                     const float *half);

#endif
