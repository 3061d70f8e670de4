/* Internal interfaces of the occlusion test: the pyramid's checks and
 * the per-path kernels (reduction, test). */
#ifndef SATC_OCCLUSION_H
#define SATC_OCCLUSION_H

#include "../core/internal.h"

/* SATC_OK, SATC_ERR_NULL or SATC_ERR_PYRAMID (a layout satc_pyramid_init
 * would not have made, or a view it would not take). */
satc_status satc_pyramid_check(const satc_pyramid *p);

/* One level from the one below: dst texel (i, j) = the largest of src
 * texels (2i..2i+1, 2j..2j+1) that exist, NaN read as +Inf; first the
 * two rows per column, then the two columns. */
typedef void (*satc_reduce_fn)(const float *src, uint32_t sw, uint32_t sh, float *dst,
                               uint32_t dw, uint32_t dh);
void satc_reduce_level_ref(const float *src, uint32_t sw, uint32_t sh, float *dst, uint32_t dw,
                           uint32_t dh);

typedef struct satc_occl_kernels {
    satc_reduce_fn reduce;
} satc_occl_kernels;

const satc_occl_kernels *satc_occl_active(void);

#endif
