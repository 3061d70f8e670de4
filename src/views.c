/* satc_cull_views: one pass over a batch for many views. Each chunk of
 * volumes is read from memory by the first view's kernel and stays in
 * cache for the others; every view runs the same kernel as satc_cull, so
 * its bits are satc_cull's. */
#include <string.h>

#include "internal.h"

static satc_status check_views(const satc_frustum *views, size_t nviews, const satc_batch *b,
                               size_t first, size_t count, satc_mode mode,
                               const satc_view_results *out)
{
    if (!views || !b || !out)
        return SATC_ERR_NULL;
    if (nviews == 0 || nviews > SATC_MAX_VIEWS)
        return SATC_ERR_RANGE;
    int want_indices = 0;
    for (size_t v = 0; v < nviews; v++)
        want_indices |= out->indices && out->indices[v];
    for (size_t v = 0; v < nviews; v++) {
        satc_status st = satc_check_call(&views[v], b, first, count, mode, want_indices);
        if (st != SATC_OK)
            return st;
    }
    return count ? satc_check_groups(b) : SATC_OK;
}

/* Bit v of the mask word of each visible volume in a chunk. */
static void set_masks(void *masks, size_t bytes, size_t base, const uint64_t *vis, size_t v)
{
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++) {
        for (uint64_t m = vis[w]; m; m &= m - 1) {
            size_t j = base + w * 64 + (size_t)__builtin_ctzll(m);
            switch (bytes) {
            case 1: ((uint8_t *)masks)[j] |= (uint8_t)(1u << v); break;
            case 2: ((uint16_t *)masks)[j] |= (uint16_t)(1u << v); break;
            case 4: ((uint32_t *)masks)[j] |= (uint32_t)1u << v; break;
            default: ((uint64_t *)masks)[j] |= (uint64_t)1 << v; break;
            }
        }
    }
}

static satc_status run_views(const satc_kernels *k, const satc_frustum *views, size_t nviews,
                             const satc_batch *b, size_t first, size_t count, satc_mode mode,
                             satc_view_results *out)
{
    satc_status st = check_views(views, nviews, b, first, count, mode, out);
    if (st != SATC_OK)
        return st;
    size_t bytes = nviews <= 8 ? 1 : nviews <= 16 ? 2 : nviews <= 32 ? 4 : 8;
    if (out->masks && count)
        memset(out->masks, 0, count * bytes);
    size_t visible[SATC_MAX_VIEWS] = {0};
    satc_gview gv[SATC_MAX_VIEWS];
    for (size_t v = 0; b->groups && v < nviews; v++)
        satc_gview_init(&gv[v], &views[v], b);
    uint64_t vis[SATC_CHUNK_WORDS], in[SATC_CHUNK_WORDS];
    for (size_t done = 0; done < count; done += SATC_CHUNK) {
        size_t n = count - done < SATC_CHUNK ? count - done : SATC_CHUNK;
        unsigned last = done + n == count ? SATC_K_LAST : 0u;
        for (size_t v = 0; v < nviews; v++) {
            const satc_frustum *f = &views[v];
            uint8_t *classes = out->classes ? out->classes[v] : NULL;
            uint32_t *indices = out->indices ? out->indices[v] : NULL;
            unsigned flags = (mode == SATC_EXACT ? SATC_K_EXACT : 0u) |
                             (classes ? SATC_K_CLASSIFY : 0u) | last;
            satc_chunk_run(k->fn[b->form][satc_kind_col(f)], f, &gv[v], b,
                           first + done, n, flags, vis, in);
            if (out->masks)
                set_masks(out->masks, bytes, done, vis, v);
            if (classes)
                satc_put_classes(classes + done, vis, in, n);
            for (size_t w = 0; w < SATC_CHUNK_WORDS; w++) {
                for (uint64_t m = vis[w]; m; m &= m - 1) {
                    if (indices)
                        indices[visible[v]] =
                            (uint32_t)(first + done + w * 64 + (size_t)__builtin_ctzll(m));
                    visible[v]++;
                }
            }
        }
    }
    if (out->visible)
        memcpy(out->visible, visible, nviews * sizeof visible[0]);
    return SATC_OK;
}

satc_status satc_cull_views(const satc_frustum *views, size_t nviews, const satc_batch *b,
                            size_t first, size_t count, satc_mode mode, satc_view_results *out)
{
    return run_views(satc_kernels_for(satc_isa_active()), views, nviews, b, first, count, mode,
                     out);
}

satc_status satc_cull_views_isa(satc_isa isa, const satc_frustum *views, size_t nviews,
                                const satc_batch *b, size_t first, size_t count, satc_mode mode,
                                satc_view_results *out)
{
    unsigned v = (unsigned)isa;
    if (!v || (v & (v - 1)) || !strcmp(satc_isa_name(isa), "unknown"))
        return SATC_ERR_FLAGS;
    const satc_kernels *k = satc_kernels_for(isa);
    if (!k)
        return SATC_ERR_ISA;
    return run_views(k, views, nviews, b, first, count, mode, out);
}
