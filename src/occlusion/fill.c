/* Level 0 of a pyramid from a GPU depth image: each texel the farthest
 * view depth over the pixels its rectangle meets, each pixel's depth
 * taken one unit of the format farther and rounded up (docs/occlusion.md).
 * The depth is monotone in the stored value, so each texel takes the
 * farthest stored value first and converts it once. */
#include <math.h>
#include <string.h>

#include "occlusion.h"

#define KNOWN_CONV (SATC_DEPTH_ZERO_TO_ONE | SATC_DEPTH_REVERSED | SATC_DEPTH_INFINITE_FAR | \
                    SATC_IMAGE_TOP_DOWN)

typedef struct conv {
    satc_depth_format fmt;
    int farther_up; /* farther means a larger stored value */
    int ortho, inf;
    double n, f;
    double zn, zf; /* stored values at near and far (float formats) */
} conv;

static size_t pixel_size(satc_depth_format f) { return f == SATC_DEPTH_FORMAT_UNORM16 ? 2 : 4; }

/* A pixel's stored value as a number ordered like the format's values. */
static double raw(const conv *c, const void *row, size_t i)
{
    switch (c->fmt) {
    case SATC_DEPTH_FORMAT_UNORM16: {
        uint16_t v;
        memcpy(&v, (const uint8_t *)row + 2 * i, 2);
        return v;
    }
    case SATC_DEPTH_FORMAT_UNORM24:
    case SATC_DEPTH_FORMAT_UNORM24_HIGH:
    case SATC_DEPTH_FORMAT_UNORM32: {
        uint32_t v;
        memcpy(&v, (const uint8_t *)row + 4 * i, 4);
        return c->fmt == SATC_DEPTH_FORMAT_UNORM24 ? (double)(v & 0xffffffu)
               : c->fmt == SATC_DEPTH_FORMAT_UNORM24_HIGH ? (double)(v >> 8)
                                                          : (double)v;
    }
    default: {
        float v;
        memcpy(&v, (const uint8_t *)row + 4 * i, 4);
        return v;
    }
    }
}

/* t in [0, 1] (0 near, 1 far) to a view depth, rounded up to float. */
static float depth_of(const conv *c, double t)
{
    if (t < 0)
        t = 0;
    double d, mag;
    if (c->ortho) {
        d = c->n + t * (c->f - c->n);
        mag = fabs(c->n) + fabs(c->f);
    } else if (c->inf) {
        if (t >= 1)
            return INFINITY;
        d = c->n / (1 - t);
        mag = d;
    } else {
        double den = c->f - t * (c->f - c->n);
        if (!(den > 0))
            return INFINITY;
        d = c->f * c->n / den;
        mag = d + c->f;
    }
    d += 0x1p-40 * mag + 0x1p-1000;
    return satc_float_up(d);
}

/* The depth that a texel's farthest stored value v stands for. */
static float convert(const conv *c, double v)
{
    switch (c->fmt) {
    case SATC_DEPTH_FORMAT_LINEAR: return (float)v;
    case SATC_DEPTH_FORMAT_UNORM16:
    case SATC_DEPTH_FORMAT_UNORM24:
    case SATC_DEPTH_FORMAT_UNORM24_HIGH:
    case SATC_DEPTH_FORMAT_UNORM32: {
        double top = c->fmt == SATC_DEPTH_FORMAT_UNORM16 ? 65535.0
                     : c->fmt == SATC_DEPTH_FORMAT_UNORM32 ? 4294967295.0 : 16777215.0;
        if (c->farther_up) /* far end: top; one unit farther */
            return v >= top ? INFINITY : depth_of(c, (v + 1) / top);
        return v <= 0 ? INFINITY : depth_of(c, 1 - (v - 1) / top);
    }
    default: { /* float window or NDC depth */
        float x = (float)v;
        int at_far = c->farther_up ? v >= c->zf : v <= c->zf;
        if (at_far)
            return INFINITY;
        x = nextafterf(x, c->farther_up ? INFINITY : -INFINITY);
        return depth_of(c, ((double)x - c->zn) / (c->zf - c->zn));
    }
    }
}

static satc_status check(const satc_pyramid *p, const satc_depth_image *img, conv *c)
{
    if (!p || !img || !img->data)
        return SATC_ERR_NULL;
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    unsigned cv = img->conventions;
    if (img->format < SATC_DEPTH_FORMAT_FLOAT || img->format > SATC_DEPTH_FORMAT_UNORM32 ||
        (cv & ~(unsigned)KNOWN_CONV))
        return SATC_ERR_FLAGS;
    memset(c, 0, sizeof *c);
    c->fmt = img->format;
    c->ortho = p->view.kind == SATC_FRUSTUM_ORTHOGRAPHIC;
    c->inf = (cv & SATC_DEPTH_INFINITE_FAR) != 0;
    int linear = img->format == SATC_DEPTH_FORMAT_LINEAR;
    if (!linear && c->inf && c->ortho)
        return SATC_ERR_FLAGS;
    if (img->width < 1 || img->height < 1 || img->width > 65536 || img->height > 65536)
        return SATC_ERR_RANGE;
    size_t ps = pixel_size(img->format);
    if (img->row_bytes < (size_t)img->width * ps || img->row_bytes % ps ||
        (uintptr_t)img->data % ps)
        return SATC_ERR_LAYOUT;
    if (!linear) {
        if (!isfinite(img->near_z) || (!c->inf && !isfinite(img->far_z)))
            return SATC_ERR_NONFINITE;
        if (!c->ortho && !(img->near_z > 0))
            return SATC_ERR_NEAR;
        if (!c->inf && !(img->far_z > img->near_z))
            return SATC_ERR_FAR;
    }
    c->n = img->near_z, c->f = img->far_z;
    int rev = (cv & SATC_DEPTH_REVERSED) != 0;
    double lo = img->format == SATC_DEPTH_FORMAT_FLOAT_NDC && !(cv & SATC_DEPTH_ZERO_TO_ONE) ? -1 : 0;
    c->zn = rev ? 1 : lo, c->zf = rev ? lo : 1;
    c->farther_up = linear || !rev;
    if (img->format <= SATC_DEPTH_FORMAT_LINEAR) { /* float pixels: no NaN */
        for (uint32_t y = 0; y < img->height; y++) {
            const uint8_t *row = (const uint8_t *)img->data + (size_t)y * img->row_bytes;
            for (uint32_t x = 0; x < img->width; x++) {
                float v;
                memcpy(&v, row + 4 * (size_t)x, 4);
                if (v != v)
                    return SATC_ERR_NONFINITE;
            }
        }
    }
    return SATC_OK;
}

/* Pixels [lo, hi] of an image of `src` pixels whose rectangles meet
 * texel i's closed rectangle among `dst` texels. */
static void span(uint64_t i, uint64_t dst, uint64_t src, uint32_t *lo, uint32_t *hi)
{
    uint64_t a = (i * src + dst - 1) / dst, z = ((i + 1) * src) / dst;
    *lo = (uint32_t)(a > 0 ? a - 1 : 0);
    *hi = (uint32_t)(z < src - 1 ? z : src - 1);
}

satc_status satc_pyramid_fill(satc_pyramid *p, const satc_depth_image *img)
{
    conv c;
    satc_status st = check(p, img, &c);
    if (st != SATC_OK)
        return st;
    int top_down = (img->conventions & SATC_IMAGE_TOP_DOWN) != 0;
    for (uint32_t j = 0; j < p->height; j++) {
        uint32_t q0, q1;
        span(j, p->height, img->height, &q0, &q1);
        float *dst = p->depth + (size_t)j * p->width;
        for (uint32_t i = 0; i < p->width; i++) {
            uint32_t x0, x1;
            span(i, p->width, img->width, &x0, &x1);
            double far = c.farther_up ? -INFINITY : INFINITY;
            for (uint32_t q = q0; q <= q1; q++) {
                uint32_t y = top_down ? img->height - 1 - q : q;
                const void *row = (const uint8_t *)img->data + (size_t)y * img->row_bytes;
                for (uint32_t x = x0; x <= x1; x++) {
                    double v = raw(&c, row, x);
                    far = c.farther_up ? (v > far ? v : far) : (v < far ? v : far);
                }
            }
            dst[i] = convert(&c, far);
        }
    }
    return satc_pyramid_build(p);
}
