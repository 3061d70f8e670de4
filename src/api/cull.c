/* The API layer: the single-view entry points (satc_cull, its _isa twin
 * and the satc_boxes wrappers), status strings and the version. Entry
 * points pick a kernel table (dispatch/dispatch.c) and hand the call to
 * the one-view runner (passes/run.c); nothing below calls back up here. */
#include <string.h>

#include "../passes/passes.h"

const char *satc_status_string(satc_status s)
{
    switch (s) {
    case SATC_OK: return "ok";
    case SATC_ERR_NULL: return "a required pointer is NULL";
    case SATC_ERR_NONFINITE: return "a frustum parameter is NaN or infinite";
    case SATC_ERR_NEAR: return "near distance must be > 0";
    case SATC_ERR_FAR: return "far distance must be > near (and finite for orthographic and exact plane volumes)";
    case SATC_ERR_BOUNDS: return "frustum bounds are empty, degenerate or too wide";
    case SATC_ERR_FRAME: return "camera frame is not right-handed orthonormal (for a world up and a tilted view, use a look-at builder)";
    case SATC_ERR_MATRIX: return "matrix is not a perspective or orthographic view-projection";
    case SATC_ERR_FLAGS: return "unknown mode, ISA or convention";
    case SATC_ERR_RANGE: return "range or index overflow";
    case SATC_ERR_ISA: return "instruction set not available";
    case SATC_ERR_NOMEM: return "out of memory";
    case SATC_ERR_BOX: return "input does not describe a box";
    case SATC_ERR_LAYOUT: return "batch layout invalid: stride, alignment or matrix layout";
    case SATC_ERR_PYRAMID: return "depth pyramid not set up by satc_pyramid_init, or made for another view";
    case SATC_ERR_UP: return "up vector is zero or parallel to the view direction";
    case SATC_ERR_DIRECTION: return "view direction is zero (the target is the eye)";
    }
    return "unknown status";
}

unsigned satc_version(void)
{
    return SATC_VERSION_MAJOR * 10000u + SATC_VERSION_MINOR * 100u + SATC_VERSION_PATCH;
}

satc_batch satc_batch_from_boxes(const satc_boxes *b)
{
    satc_batch r;
    memset(&r, 0, sizeof r);
    r.form = SATC_FORM_OBB;
    if (!b)
        return r;
    r.obb.center = SATC_VEC3S_SOA(b->center[0], b->center[1], b->center[2]);
    r.obb.extent = SATC_VEC3S_SOA(b->extent[0], b->extent[1], b->extent[2]);
    for (int j = 0; j < 3; j++)
        r.obb.axis[j] = SATC_VEC3S_SOA(b->axis[j][0], b->axis[j][1], b->axis[j][2]);
    return r;
}

satc_status satc_cull_batch(const satc_frustum *f, const satc_boxes *boxes, size_t first,
                            size_t count, satc_mode mode, satc_results *out)
{
    satc_batch b = satc_batch_from_boxes(boxes);
    return satc_cull(f, boxes ? &b : NULL, first, count, mode, out);
}

satc_status satc_cull_batch_isa(satc_isa isa, const satc_frustum *f, const satc_boxes *boxes,
                                size_t first, size_t count, satc_mode mode, satc_results *out)
{
    satc_batch b = satc_batch_from_boxes(boxes);
    return satc_cull_isa(isa, f, boxes ? &b : NULL, first, count, mode, out);
}

satc_status satc_cull(const satc_frustum *f, const satc_batch *b, size_t first, size_t count,
                      satc_mode mode, satc_results *out)
{
    return satc_cull_run(satc_kernels_default_n(count), f, b, first, count, mode, out);
}

satc_status satc_cull_isa(satc_isa isa, const satc_frustum *f, const satc_batch *b, size_t first,
                          size_t count, satc_mode mode, satc_results *out)
{
    satc_status st;
    const satc_kernels *k = satc_kernels_named(isa, &st);
    return k ? satc_cull_run(k, f, b, first, count, mode, out) : st;
}
