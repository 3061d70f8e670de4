/* The views pass with the caller's groups (src/passes/views_groups.c). */
#ifndef SATC_VIEWS_GROUPED_H
#define SATC_VIEWS_GROUPED_H

#include "passes.h"

/* View v's words of the chunk at offset done (n volumes) of the call. */
typedef void (*satc_view_emit_fn)(void *ctx, size_t v, size_t done, size_t n,
                                  const uint64_t *vis, const uint64_t *in);
/* The chunk at offset done (n volumes) is complete: every view emitted. */
typedef void (*satc_view_flush_fn)(void *ctx, size_t done, size_t n);

/* Volumes [first, first + count) of b (b->groups set, the call checked)
 * against nviews views: every view's words through emit, chunk by chunk
 * in order, except chunks a view culls whole (no visible volume: their
 * class bytes are zeroed here), then flush, for every chunk. exact:
 * SATC_K_EXACT or 0. */
void satc_views_grouped(const satc_kernels *k, const satc_frustum *views, size_t nviews,
                        const satc_batch *b, size_t first, size_t count, unsigned exact,
                        const satc_view_results *out, satc_view_emit_fn emit, satc_view_flush_fn flush, void *ectx);

#endif
