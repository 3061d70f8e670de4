/* The hierarchical-Z test fused into the cull (in progress: the entry
 * points check their input and report SATC_ERR_FLAGS until the test
 * lands). */
#include "occlusion.h"

satc_status satc_pyramid_fill(satc_pyramid *p, const satc_depth_image *img)
{
    if (!p || !img || !img->data)
        return SATC_ERR_NULL;
    satc_status st = satc_pyramid_check(p);
    return st != SATC_OK ? st : SATC_ERR_FLAGS;
}

satc_status satc_cull_occluded_isa(satc_isa isa, const satc_pyramid *p, const satc_batch *b,
                                   size_t first, size_t count, satc_mode mode, satc_results *out,
                                   uint8_t *occluded, size_t *noccluded)
{
    (void)isa, (void)b, (void)first, (void)count, (void)mode, (void)out, (void)occluded,
        (void)noccluded;
    satc_status st = satc_pyramid_check(p);
    return st != SATC_OK ? st : SATC_ERR_FLAGS;
}

satc_status satc_cull_occluded(const satc_pyramid *p, const satc_batch *b, size_t first,
                               size_t count, satc_mode mode, satc_results *out, uint8_t *occluded,
                               size_t *noccluded)
{
    return satc_cull_occluded_isa(satc_isa_active(), p, b, first, count, mode, out, occluded,
                                  noccluded);
}

satc_status satc_cull_views_occluded(const satc_frustum *views,
                                     const satc_pyramid *const *pyramids, size_t nviews,
                                     const satc_batch *b, size_t first, size_t count,
                                     satc_mode mode, satc_view_results *out)
{
    (void)views, (void)nviews, (void)b, (void)first, (void)count, (void)mode, (void)out;
    return pyramids ? SATC_ERR_FLAGS : SATC_ERR_NULL;
}
