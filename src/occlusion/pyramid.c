/* The depth pyramid: layout, set-up and the max reduction of its levels
 * (Greene, Kass and Miller 1993: each texel the farthest depth below it).
 * The reduction kernel is shared by every path (occlusion/reduce.h). */
#include <math.h>
#include <string.h>

#include "occlusion.h"

/* Level sizes of a width x height pyramid: halved (rounded up) down to
 * one texel; returns the number of levels and the total texel count. */
static uint32_t layout(uint32_t width, uint32_t height, uint32_t *lw, uint32_t *lh, size_t *off,
                       size_t *total)
{
    uint32_t k = 0, w = width, h = height;
    size_t t = 0;
    for (;;) {
        lw[k] = w, lh[k] = h, off[k] = t;
        t += (size_t)w * h;
        k++;
        if (w == 1 && h == 1)
            break;
        w = (w + 1) / 2, h = (h + 1) / 2;
    }
    *total = t;
    return k;
}

static int size_ok(uint32_t w, uint32_t h)
{
    return w >= SATC_PYRAMID_MIN_WIDTH && w <= SATC_PYRAMID_MAX_WIDTH &&
           h >= SATC_PYRAMID_MIN_HEIGHT && h <= SATC_PYRAMID_MAX_HEIGHT;
}

size_t satc_pyramid_bytes(uint32_t width, uint32_t height)
{
    if (!size_ok(width, height))
        return 0;
    uint32_t lw[SATC_PYRAMID_MAX_LEVELS], lh[SATC_PYRAMID_MAX_LEVELS];
    size_t off[SATC_PYRAMID_MAX_LEVELS], total;
    layout(width, height, lw, lh, off, &total);
    return total * sizeof(float);
}

static int view_ok(const satc_frustum *f)
{
    return (f->kind == SATC_FRUSTUM_PERSPECTIVE || f->kind == SATC_FRUSTUM_ORTHOGRAPHIC) &&
           f->x0 < f->x1 && f->y0 < f->y1 && isfinite(f->x0) && isfinite(f->x1) &&
           isfinite(f->y0) && isfinite(f->y1);
}

satc_status satc_pyramid_check(const satc_pyramid *p)
{
    if (!p)
        return SATC_ERR_NULL;
    if (!p->depth || !size_ok(p->width, p->height) || !view_ok(&p->view) ||
        ((uintptr_t)p->depth & (sizeof(float) - 1)))
        return SATC_ERR_PYRAMID;
    uint32_t lw[SATC_PYRAMID_MAX_LEVELS], lh[SATC_PYRAMID_MAX_LEVELS];
    size_t off[SATC_PYRAMID_MAX_LEVELS], total;
    uint32_t n = layout(p->width, p->height, lw, lh, off, &total);
    if (p->levels != n)
        return SATC_ERR_PYRAMID;
    for (uint32_t k = 0; k < n; k++)
        if (p->level_w[k] != lw[k] || p->level_h[k] != lh[k] || p->level_off[k] != off[k])
            return SATC_ERR_PYRAMID;
    return SATC_OK;
}

static size_t texels(const satc_pyramid *p)
{
    uint32_t k = p->levels - 1;
    return p->level_off[k] + (size_t)p->level_w[k] * p->level_h[k];
}

satc_status satc_pyramid_init(satc_pyramid *p, const satc_frustum *view, uint32_t width,
                              uint32_t height, float *storage, size_t bytes)
{
    if (!p || !view || !storage)
        return SATC_ERR_NULL;
    if (!view_ok(view))
        return SATC_ERR_FLAGS;
    if (!size_ok(width, height))
        return SATC_ERR_RANGE;
    if (bytes < satc_pyramid_bytes(width, height) || ((uintptr_t)storage & (sizeof(float) - 1)))
        return SATC_ERR_LAYOUT;
    satc_pyramid r;
    memset(&r, 0, sizeof r);
    r.view = *view;
    r.width = width, r.height = height;
    size_t total;
    r.levels = layout(width, height, r.level_w, r.level_h, r.level_off, &total);
    r.depth = storage;
    *p = r;
    for (size_t t = 0; t < total; t++)
        storage[t] = INFINITY;
    return SATC_OK;
}

satc_status satc_pyramid_clear(satc_pyramid *p)
{
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    size_t n = texels(p);
    for (size_t t = 0; t < n; t++)
        p->depth[t] = INFINITY;
    return SATC_OK;
}

/* NaN reads as +Inf (nothing known), so the reduction is the plain
 * "a > b ? a : b" on the mapped values, the same in every lane. */
static inline float known(float v) { return v == v ? v : INFINITY; }
static inline float far2(float a, float b) { return a > b ? a : b; }

void satc_reduce_level_ref(const float *src, uint32_t sw, uint32_t sh, float *dst, uint32_t dw,
                           uint32_t dh)
{
    for (uint32_t j = 0; j < dh; j++) {
        const float *r0 = src + (size_t)(2 * j) * sw;
        const float *r1 = 2 * j + 1 < sh ? r0 + sw : r0;
        for (uint32_t i = 0; i < dw; i++) {
            uint32_t a = 2 * i, b = 2 * i + 1 < sw ? 2 * i + 1 : 2 * i;
            float ma = far2(known(r0[a]), known(r1[a]));
            float mb = far2(known(r0[b]), known(r1[b]));
            dst[(size_t)j * dw + i] = far2(ma, mb);
        }
    }
}

satc_status satc_pyramid_build(satc_pyramid *p)
{
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    const satc_occl_kernels *k = satc_occl_active();
    for (uint32_t l = 1; l < p->levels; l++)
        k->reduce(p->depth + p->level_off[l - 1], p->level_w[l - 1], p->level_h[l - 1],
                  p->depth + p->level_off[l], p->level_w[l], p->level_h[l]);
    return SATC_OK;
}

static const satc_occl_kernels occl_ref = {satc_reduce_level_ref};

const satc_occl_kernels *satc_occl_active(void) { return &occl_ref; }
