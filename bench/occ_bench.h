/* The occlusion benchmark's scene helpers (occ_bench.c): what a ray cast
 * sees of the city, an exact depth image, and the picture from above. */
#ifndef SATC_BENCH_OCC_BENCH_H
#define SATC_BENCH_OCC_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "occ_scene.h"

/* seen[i] = 1 when a ray of an rx x ry cast (staggered) sees building i;
 * count: how many are. */
typedef struct occ_bench_truth {
    uint8_t *seen;
    size_t count;
} occ_bench_truth;

/* Buildings boxes[0..n) (vols: as the oracle sees them) with the ground
 * boxes[n] as occluder; only the kept[0..nk) the conservative frustum test
 * keeps can meet a ray, so only they are cast against. */
void occ_bench_truth_make(occ_bench_truth *t, const satc_frustum *f, const occ_box *boxes,
                          size_t n, const occ_vol *vols, const uint32_t *kept, size_t nk,
                          unsigned rx, unsigned ry);
void occ_bench_truth_free(occ_bench_truth *t);

/* A w x h linear depth image (view depth, +Inf where nothing is hit,
 * row 0 at the bottom) of the nearest occluder at each pixel center,
 * rounded up to float. malloc'd. */
float *occ_bench_depth_image(const satc_frustum *f, const occ_box *boxes, size_t n,
                             const uint32_t *kept, size_t nk, unsigned w, unsigned h);

/* Pose 0 from above as an SVG: each cell takes the class of the buildings
 * on it (kept over occluded over outside), the eye and the view's edges. */
void occ_bench_svg(const char *path, const occ_box *b, size_t n, const uint8_t *cls,
                   const satc_frustum *f, size_t kept, size_t after, size_t seen);

#endif
