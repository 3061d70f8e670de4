/* Level 0 of a pyramid from a GPU depth image: each texel the farthest
 * view depth over the pixels its rectangle meets, each pixel's depth
 * bounded from above over everything the GPU may have rounded
 * (docs/occlusion.md). The depth is monotone in the stored value, so each
 * texel takes the farthest stored value first and converts it once.
 *
 * The projection's NDC depth is z = P + Q / d (perspective) or P + Q d
 * (orthographic) for view depth d. A stored value gives an NDC interval
 * (one unit of the format, the GPU's division and viewport rounding),
 * the coefficients an interval each (the matrix's float entries and the
 * GPU's evaluation of clip z); the depth is the largest over the corners.
 * z - P is formed from z itself, never from 1 - z: reversed depth keeps
 * every bit of its small values. */
#include <math.h>
#include <string.h>

#include "occlusion.h"

#define KNOWN_CONV (SATC_DEPTH_ZERO_TO_ONE | SATC_DEPTH_REVERSED | SATC_DEPTH_INFINITE_FAR | \
                    SATC_IMAGE_TOP_DOWN)

/* Relative error of the depth coefficients. The GPU's clip z (a product
 * and a sum in float): 2^-23. The matrix's entries against the exact
 * ones for near_z and far_z, when only those are known: 2^-21 more (a
 * few float operations); none with an infinite far plane's exact 0 or
 * +-1. 2^-45 covers this file's own rounding. */
#define RHO_GPU (0x1p-23 + 0x1p-45)
#define RHO_NF (0x1p-21 + RHO_GPU)
/* NDC slack: the GPU's division z / w and GL's viewport transform, each
 * within 2^-23 relative. */
#define ETA 0x1p-23

typedef struct conv {
    satc_depth_format fmt;
    int farther_up; /* farther means a larger stored value */
    int ortho, gl;
    double P, Q, rho_p, rho_q; /* z = P + Q g(d) with relative slacks */
    double sn, sf;             /* stored values at near and far (float formats) */
    double zn;                 /* NDC z at the near end */
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

/* The largest view depth whose NDC z the GPU may have written as z (z
 * already moved to its farthest), rounded up to float; +Inf when the
 * bound does not exist. */
static float depth_of(const conv *c, double z)
{
    double best = -INFINITY;
    for (int k = 0; k < 4; k++) {
        double p = c->P + (k & 1 ? c->rho_p : -c->rho_p) * fabs(c->P);
        double q = c->Q + (k & 2 ? c->rho_q : -c->rho_q) * fabs(c->Q);
        double slack = 0x1p-50 * (fabs(z) + fabs(p)), d; /* z's and p's own rounding */
        if (c->ortho) {
            double num = z - p;
            d = (q > 0 ? num + slack : num - slack) / q;
        } else {
            double den = z - p;
            if (!(fabs(den) > slack))
                return INFINITY;
            d = q / (den > 0 ? den - slack : den + slack);
            if (!(d > 0))
                return INFINITY;
        }
        best = d > best ? d : best;
    }
    double mag = c->ortho ? (fabs(c->P) + 1) / fabs(c->Q) : 0;
    best += 0x1p-45 * (fabs(best) + mag) + 0x1p-1000;
    return satc_float_up(best);
}

/* The depth that a texel's farthest stored value v stands for. */
static float convert(const conv *c, double v)
{
    double s; /* the stored value one unit farther, as a window or NDC depth */
    switch (c->fmt) {
    case SATC_DEPTH_FORMAT_LINEAR: {
        float x = (float)v; /* NaN was rejected */
        return x < INFINITY ? nextafterf(x, INFINITY) : INFINITY;
    }
    case SATC_DEPTH_FORMAT_UNORM16:
    case SATC_DEPTH_FORMAT_UNORM24:
    case SATC_DEPTH_FORMAT_UNORM24_HIGH:
    case SATC_DEPTH_FORMAT_UNORM32: {
        double top = c->fmt == SATC_DEPTH_FORMAT_UNORM16 ? 65535.0
                     : c->fmt == SATC_DEPTH_FORMAT_UNORM32 ? 4294967295.0 : 16777215.0;
        if (c->farther_up ? v >= top : v <= 0) /* the far end: the clear value */
            return INFINITY;
        s = (c->farther_up ? v + 1 : v - 1) / top;
        break;
    }
    default: { /* float window or NDC depth */
        if (c->farther_up ? v >= c->sf : v <= c->sf)
            return INFINITY;
        s = nextafterf((float)v, c->farther_up ? INFINITY : -INFINITY);
        break;
    }
    }
    int window = c->gl && c->fmt != SATC_DEPTH_FORMAT_FLOAT_NDC;
    double z = window ? 2 * s - 1 : s;
    double eta = ETA * fabs(z) + (window ? 2 * ETA * fabs(s) : 0);
    z = c->farther_up ? z + eta : z - eta;
    if (c->farther_up ? z < c->zn : z > c->zn) /* nearer than the near end */
        z = c->zn;
    return depth_of(c, z);
}

/* The coefficients from the near and far distances. */
static void coeffs_nf(conv *c, double n, double f, int inf, double zf)
{
    if (c->ortho) {
        c->Q = (zf - c->zn) / (f - n), c->P = c->zn - c->Q * n;
        c->rho_p = c->rho_q = RHO_NF;
    } else if (inf) {
        c->P = zf, c->Q = (c->zn - zf) * n;
        c->rho_p = RHO_GPU, c->rho_q = RHO_NF;
    } else {
        c->Q = (c->zn - zf) * n * f / (f - n), c->P = zf - c->Q / f;
        c->rho_p = c->rho_q = RHO_NF;
    }
}

/* The coefficients from a projection matrix (element (r, c) at e[r][c]). */
static satc_status coeffs_matrix(conv *c, const float *m, unsigned layout)
{
    double e[4][4];
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 4; k++) {
            e[r][k] = layout & SATC_MATRIX_ROW_MAJOR ? m[r * 4 + k] : m[k * 4 + r];
            if (!isfinite(e[r][k]))
                return SATC_ERR_NONFINITE;
        }
    int rev = !c->farther_up;
    if (e[2][0] != 0 || e[2][1] != 0 || e[3][0] != 0 || e[3][1] != 0)
        return SATC_ERR_MATRIX;
    if (c->ortho) {
        if (e[3][2] != 0 || !(e[3][3] > 0) || e[2][2] == 0)
            return SATC_ERR_MATRIX;
        c->P = e[2][3] / e[3][3];
        c->Q = fabs(e[2][2] / e[3][3]) * (rev ? -1 : 1);
    } else {
        if (e[3][3] != 0 || e[3][2] == 0)
            return SATC_ERR_MATRIX;
        c->P = e[2][2] / e[3][2], c->Q = e[2][3] / fabs(e[3][2]);
        if (rev ? !(c->Q > 0) : !(c->Q < 0))
            return SATC_ERR_MATRIX;
        double dn = c->Q / (c->zn - c->P); /* the near end's depth */
        if (!(dn > 0) || !isfinite(dn))
            return SATC_ERR_NEAR;
    }
    c->rho_p = c->rho_q = RHO_GPU;
    return SATC_OK;
}

static satc_status check(const satc_pyramid *p, const satc_depth_image *img, const float *m,
                         unsigned layout, conv *c)
{
    if (!p || !img || !img->data)
        return SATC_ERR_NULL;
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    unsigned cv = img->conventions;
    if (img->format < SATC_DEPTH_FORMAT_FLOAT || img->format > SATC_DEPTH_FORMAT_UNORM32 ||
        (cv & ~(unsigned)KNOWN_CONV) || (layout & ~(unsigned)SATC_MATRIX_ROW_MAJOR))
        return SATC_ERR_FLAGS;
    memset(c, 0, sizeof *c);
    c->fmt = img->format;
    c->ortho = p->view.kind == SATC_FRUSTUM_ORTHOGRAPHIC;
    int inf = (cv & SATC_DEPTH_INFINITE_FAR) != 0 && !m;
    int linear = img->format == SATC_DEPTH_FORMAT_LINEAR;
    if (!linear && inf && c->ortho)
        return SATC_ERR_FLAGS;
    if (img->width < 1 || img->height < 1 || img->width > 65536 || img->height > 65536)
        return SATC_ERR_RANGE;
    size_t ps = pixel_size(img->format);
    if (img->row_bytes < (size_t)img->width * ps || img->row_bytes % ps ||
        (uintptr_t)img->data % ps)
        return SATC_ERR_LAYOUT;
    if (!linear && !m) {
        if (!isfinite(img->near_z) || (!inf && !isfinite(img->far_z)))
            return SATC_ERR_NONFINITE;
        if (!c->ortho && !(img->near_z > 0))
            return SATC_ERR_NEAR;
        if (!inf && !(img->far_z > img->near_z))
            return SATC_ERR_FAR;
    }
    int rev = (cv & SATC_DEPTH_REVERSED) != 0;
    c->gl = !(cv & SATC_DEPTH_ZERO_TO_ONE);
    double lo = c->gl ? -1 : 0, zf = rev ? lo : 1;
    c->zn = rev ? 1 : lo;
    /* the stored far end: window depth, or NDC for SATC_DEPTH_FORMAT_FLOAT_NDC */
    double wlo = img->format == SATC_DEPTH_FORMAT_FLOAT_NDC ? lo : 0;
    c->sn = rev ? 1 : wlo, c->sf = rev ? wlo : 1;
    c->farther_up = linear || !rev;
    if (!linear) {
        if (m) {
            st = coeffs_matrix(c, m, layout);
            if (st != SATC_OK)
                return st;
        } else {
            coeffs_nf(c, img->near_z, img->far_z, inf, zf);
        }
    }
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

static satc_status fill(satc_pyramid *p, const satc_depth_image *img, const float *m,
                        unsigned layout)
{
    conv c;
    satc_status st = check(p, img, m, layout, &c);
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

satc_status satc_pyramid_fill(satc_pyramid *p, const satc_depth_image *img)
{
    return fill(p, img, NULL, 0);
}

satc_status satc_pyramid_fill_matrix(satc_pyramid *p, const satc_depth_image *img,
                                     const float proj[16], unsigned layout)
{
    if (!proj)
        return SATC_ERR_NULL;
    return fill(p, img, proj, layout);
}
