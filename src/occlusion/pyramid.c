/* The depth pyramid: layout, set-up and the max reduction of its levels
 * (Greene, Kass and Miller 1993: each texel the farthest depth below it),
 * run by the active path's kernel (kernels/occl.h). */
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

/* A perspective or orthographic view whose bounds and texel scales are
 * finite (an orthographic view wider than the float range has none). */
static int view_ok(const satc_frustum *f)
{
    return (f->kind == SATC_FRUSTUM_PERSPECTIVE || f->kind == SATC_FRUSTUM_ORTHOGRAPHIC) &&
           f->x0 < f->x1 && f->y0 < f->y1 && isfinite(f->x1 - f->x0) &&
           isfinite(f->y1 - f->y0) && isfinite(f->n) && isfinite(f->eps_k) &&
           isfinite(f->tol_t);
}

satc_status satc_pyramid_check(const satc_pyramid *p)
{
    if (!p)
        return SATC_ERR_NULL;
    if (!p->depth || !size_ok(p->width, p->height) || !view_ok(&p->view) ||
        (p->test & ~SATC_TEST_DEPTH_PER_TEXEL) ||
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

satc_status satc_pyramid_set_test(satc_pyramid *p, unsigned flags, uint32_t budget)
{
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    if (flags & ~SATC_TEST_DEPTH_PER_TEXEL)
        return SATC_ERR_FLAGS;
    p->test = flags;
    p->test_budget = budget;
    return SATC_OK;
}

satc_status satc_pyramid_build(satc_pyramid *p)
{
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    satc_reduce_fn reduce = satc_kernels_for(satc_isa_active())->reduce;
    for (uint32_t l = 1; l < p->levels; l++)
        reduce(p->depth + p->level_off[l - 1], p->level_w[l - 1], p->level_h[l - 1],
               p->depth + p->level_off[l], p->level_w[l], p->level_h[l]);
    return SATC_OK;
}

void satc_occl_consts_init(const satc_pyramid *p, satc_occl_consts *oc)
{
    const satc_frustum *f = &p->view;
    oc->e2 = f->eps_k + f->eps_k;
    oc->sx = (float)p->width / (f->x1 - f->x0);
    oc->sy = (float)p->height / (f->y1 - f->y0);
    oc->wm1 = (float)(p->width - 1);
    oc->hm1 = (float)(p->height - 1);
}
