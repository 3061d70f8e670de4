/* satc_cull_views with one pyramid per view: per chunk, the views pass
 * (its shared loads and bounds), then each view's kept volumes through
 * its pyramid. */
#include <string.h>

#include "occlusion.h"

static satc_status check(const satc_frustum *views, const satc_pyramid *const *pyr,
                         size_t nviews)
{
    if (!pyr || !views)
        return SATC_ERR_NULL;
    for (size_t v = 0; v < nviews && v < SATC_MAX_VIEWS; v++) {
        if (!pyr[v])
            continue;
        satc_status st = satc_pyramid_check(pyr[v]);
        if (st != SATC_OK)
            return st;
        if (memcmp(&pyr[v]->view, &views[v], sizeof views[v]))
            return SATC_ERR_PYRAMID;
    }
    return SATC_OK;
}

static uint64_t get_word(const void *m, size_t bytes, size_t j)
{
    const uint8_t *p = (const uint8_t *)m + j * bytes;
    uint64_t x = 0;
    memcpy(&x, p, bytes); /* little-endian: the words' low bytes */
    return x;
}

static void put_word(void *m, size_t bytes, size_t j, uint64_t x)
{
    memcpy((uint8_t *)m + j * bytes, &x, bytes);
}

satc_status satc_cull_views_occluded(const satc_frustum *views,
                                     const satc_pyramid *const *pyramids, size_t nviews,
                                     const satc_batch *b, size_t first, size_t count,
                                     satc_mode mode, satc_view_results *out)
{
    satc_isa isa = satc_isa_active();
    satc_status st = check(views, pyramids, nviews);
    if (st != SATC_OK)
        return st;
    /* The views pass's own checks, on an empty range first: nothing written on error. */
    satc_view_results probe = {NULL, NULL, NULL, NULL};
    st = satc_cull_views_isa(isa, views, nviews, b, first, 0, mode, &probe);
    if (st == SATC_OK)
        st = satc_check_volumes(b, first, count);
    if (st != SATC_OK)
        return st;
    if (!out)
        return SATC_ERR_NULL;
    if (count && out->indices && first + count - 1 > UINT32_MAX)
        return SATC_ERR_RANGE;
    const satc_kernels *k = satc_kernels_named(isa, &st);
    if (!k)
        return st;
    size_t bytes = nviews <= 8 ? 1 : nviews <= 16 ? 2 : nviews <= 32 ? 4 : 8;
    size_t visible[SATC_MAX_VIEWS] = {0};
    satc_occl_consts oc[SATC_MAX_VIEWS];
    uint32_t bounds[SATC_MAX_VIEWS];
    for (size_t v = 0; v < nviews; v++)
        if (pyramids[v]) {
            satc_occl_consts_init(pyramids[v], &oc[v]);
            bounds[v] = pyramids[v]->test_budget;
        }
    uint64_t masks[SATC_CHUNK];
    uint8_t *cls[SATC_MAX_VIEWS];
    for (size_t done = 0; done < count; done += SATC_CHUNK) {
        size_t n = count - done < SATC_CHUNK ? count - done : SATC_CHUNK;
        unsigned fl = done + n == count ? SATC_K_LAST : 0u;
        for (size_t v = 0; v < nviews; v++)
            cls[v] = out->classes && out->classes[v] ? out->classes[v] + done : NULL;
        satc_view_results r = {masks, NULL, out->classes ? cls : NULL, NULL};
        st = satc_cull_views_isa(isa, views, nviews, b, first + done, n, mode, &r);
        if (st != SATC_OK)
            return st; /* not reached: checked above */
        for (size_t v = 0; v < nviews; v++) {
            uint64_t vis[SATC_CHUNK_WORDS] = {0}, occ[SATC_CHUNK_WORDS] = {0};
            for (size_t j = 0; j < n; j++)
                vis[j / 64] |= (get_word(masks, bytes, j) >> v & 1) << (j % 64);
            if (pyramids[v])
                satc_occlude(k, pyramids[v], &oc[v], b, first + done, n, fl, vis, occ,
                             pyramids[v]->test & SATC_TEST_DEPTH_PER_TEXEL ? &bounds[v] : NULL);
            for (size_t w = 0; w < SATC_CHUNK_WORDS; w++) {
                for (uint64_t m = occ[w]; m; m &= m - 1) {
                    size_t j = w * 64 + (size_t)__builtin_ctzll(m);
                    put_word(masks, bytes, j, get_word(masks, bytes, j) & ~(1ull << v));
                    if (cls[v])
                        cls[v][j] = SATC_OCCLUDED;
                }
                for (uint64_t m = vis[w]; m; m &= m - 1) {
                    if (out->indices && out->indices[v])
                        out->indices[v][visible[v]] =
                            (uint32_t)(first + done + w * 64 + (size_t)__builtin_ctzll(m));
                    visible[v]++;
                }
            }
        }
        if (out->masks)
            memcpy((uint8_t *)out->masks + done * bytes, masks, n * bytes);
    }
    if (out->visible)
        memcpy(out->visible, visible, nviews * sizeof visible[0]);
    return SATC_OK;
}
