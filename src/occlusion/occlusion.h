/* Internal interfaces of the occlusion test: the pyramid's checks and
 * the per-path kernels (reduction, test). */
#ifndef SATC_OCCLUSION_H
#define SATC_OCCLUSION_H

#include "../core/internal.h"

/* SATC_OK, SATC_ERR_NULL or SATC_ERR_PYRAMID (a layout satc_pyramid_init
 * would not have made, or a view it would not take). */
satc_status satc_pyramid_check(const satc_pyramid *p);

/* satc_pyramid_fill (m NULL) or satc_pyramid_fill_matrix (m, layout)
 * texel by texel, each pixel read on its own: what the fill's faster
 * loops must reproduce bit for bit (the tests compare them). */
satc_status satc_pyramid_fill_ref(satc_pyramid *p, const satc_depth_image *img, const float *m,
                                  unsigned layout);

/* The per-call constants of p's kernels. */
void satc_occl_consts_init(const satc_pyramid *p, satc_occl_consts *oc);

/* The kept volumes (vis bits) of volumes [first, first + n) of b that
 * pyramid p hides lose their vis bit and get an occ bit (kernel k's
 * rectangles, then the texel reads). left: the call's remaining texel
 * depth bounds (SATC_TEST_DEPTH_PER_TEXEL), NULL for the plain test. */
void satc_occlude(const satc_kernels *k, const satc_pyramid *p, const satc_occl_consts *oc,
                  const satc_batch *b, size_t first, size_t n, unsigned flags, uint64_t *vis,
                  uint64_t *occ, uint32_t *left);

/* A volume as satc_subdepth reads it: center p and half axes h[j] in the
 * view's frame (coefficients of L, U, D, in double from the stored
 * floats), the frame's Gram matrix g (for spheres), and q, a bound of
 * the magnitudes the bounds sum. */
typedef struct satc_subvol {
    double p[3], h[3][3], g[3][3], r, q;
    double zmax; /* at least the volume's farthest view depth */
    int sphere, ortho, ok;
} satc_subvol;

/* Volume i of b for satc_subdepth against p's view; 0 (and ok = 0) when
 * it cannot be described or is not finite. */
int satc_subdepth_init(const satc_pyramid *p, const satc_batch *b, size_t i, satc_subvol *v);

/* 1 when some lower bound of the view depth D.d of every point of volume
 * v whose direction lies in level-l texel (x, y) of p (its level-0
 * footprint) exceeds lim; 0 when none found does. */
int satc_subdepth_beyond(const satc_pyramid *p, const satc_subvol *v, uint32_t l, int32_t x,
                         int32_t y, double lim);

#endif
