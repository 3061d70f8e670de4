/* Internal interfaces of the occlusion test: the pyramid's checks and
 * the per-path kernels (reduction, test). */
#ifndef SATC_OCCLUSION_H
#define SATC_OCCLUSION_H

#include "../core/internal.h"

/* SATC_OK, SATC_ERR_NULL or SATC_ERR_PYRAMID (a layout satc_pyramid_init
 * would not have made, or a view it would not take). */
satc_status satc_pyramid_check(const satc_pyramid *p);

/* The per-call constants of p's kernels. */
void satc_occl_consts_init(const satc_pyramid *p, satc_occl_consts *oc);

/* The kept volumes (vis bits) of volumes [first, first + n) of b that
 * pyramid p hides lose their vis bit and get an occ bit (kernel k's
 * rectangles, then the texel reads). */
void satc_occlude(const satc_kernels *k, const satc_pyramid *p, const satc_occl_consts *oc,
                  const satc_batch *b, size_t first, size_t n, unsigned flags, uint64_t *vis,
                  uint64_t *occ);

#endif
