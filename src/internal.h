/* Internal interfaces shared by the API, the dispatcher and the kernels. */
#ifndef SATC_INTERNAL_H
#define SATC_INTERNAL_H

#include "satc.h"

/* Boxes per kernel call: the driver formats results per chunk. */
#define SATC_CHUNK 256
#define SATC_CHUNK_WORDS (SATC_CHUNK / 64)

/* Kernel flags. */
#define SATC_K_EXACT 1u    /* full separating-axis test, else planes only */
#define SATC_K_CLASSIFY 2u /* also compute the inside bits */

/*
 * A kernel culls boxes [first, first + n) (n <= SATC_CHUNK) and sets bit j
 * of vis[j / 64] when box first + j is visible and, with SATC_K_CLASSIFY,
 * the same bit of inside[] when it is entirely inside. Both arrays hold
 * SATC_CHUNK_WORDS words and are fully written (bits past n are 0).
 */
typedef void (*satc_kernel_fn)(const satc_frustum *f, const satc_boxes *b, size_t first,
                               size_t n, unsigned flags, uint64_t *vis, uint64_t *inside);

/* One path: a kernel per frustum kind. */
typedef struct satc_kernels {
    satc_kernel_fn perspective;
    satc_kernel_fn orthographic;
} satc_kernels;

/* Kernel tables of each path (defined in the per-ISA files). */
extern const satc_kernels satc_kernels_scalar;
extern const satc_kernels satc_kernels_sse41;
extern const satc_kernels satc_kernels_avx2;
extern const satc_kernels satc_kernels_neon;

/* The table of one runnable path, or NULL. */
const satc_kernels *satc_kernels_for(satc_isa isa);

/* Validates what satc_cull_batch and satc_cull_batch_isa share. */
satc_status satc_cull_run(const satc_kernels *k, const satc_frustum *f, const satc_boxes *boxes,
                          size_t first, size_t count, satc_mode mode, satc_results *out);

#endif
