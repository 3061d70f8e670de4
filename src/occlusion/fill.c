/* Level 0 of a pyramid from a GPU depth image: each texel the farthest
 * view depth over the pixels whose centers enclose it, each pixel's depth
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
    double pk[4], qk[4];       /* the coefficients' corners (corners()) */
    double mag;                /* orthographic: the magnitude of depth's terms */
    int kfar;                  /* perspective: the corner of the farthest depth */
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
    if (c->ortho) {
        for (int k = 0; k < 4; k++) {
            double p = c->pk[k], q = c->qk[k];
            double slack = 0x1p-50 * (fabs(z) + fabs(p)), num = z - p; /* z's and p's rounding */
            double d = (q > 0 ? num + slack : num - slack) / q;
            best = d > best ? d : best;
        }
    } else {
        /* d = q / (z - p) grows with |q| and, z - p keeping its sign,
         * toward the p nearer z: the farthest corner is kfar, with the
         * same slack; the other p only checks that the sign holds (else
         * the bound does not exist). One division. */
        double pf = c->pk[c->kfar], po = c->pk[c->kfar ^ 1];
        double sf = 0x1p-50 * (fabs(z) + fabs(pf)), so = 0x1p-50 * (fabs(z) + fabs(po));
        double den = z - pf, dother = z - po;
        if (!(fabs(den) > sf) || !(fabs(dother) > so) || (den > 0) != (dother > 0))
            return INFINITY;
        best = c->qk[c->kfar] / (den > 0 ? den - sf : den + sf);
        if (!(best > 0))
            return INFINITY;
    }
    best += 0x1p-45 * (fabs(best) + c->mag) + 0x1p-1000;
    return satc_float_up(best);
}

/* The four corners of the coefficients' intervals, once per call. */
static void corners(conv *c)
{
    for (int k = 0; k < 4; k++) {
        c->pk[k] = c->P + (k & 1 ? c->rho_p : -c->rho_p) * fabs(c->P);
        c->qk[k] = c->Q + (k & 2 ? c->rho_q : -c->rho_q) * fabs(c->Q);
    }
    c->mag = c->ortho ? (fabs(c->P) + 1) / fabs(c->Q) : 0;
    /* q keeps Q's sign: q+ and p+ (Q > 0) or q- and p- (Q < 0) */
    c->kfar = c->Q > 0 ? 3 : 0;
}

/* The depth that a texel's farthest stored value v stands for, the
 * image's format fmt (c->fmt). */
static inline float convert_as(const conv *c, satc_depth_format fmt, double v)
{
    double s; /* the stored value one unit farther, as a window or NDC depth */
    switch (fmt) {
    case SATC_DEPTH_FORMAT_LINEAR: {
        float x = (float)v; /* NaN was rejected */
        return x < INFINITY ? satc_float_next_up(x) : INFINITY;
    }
    case SATC_DEPTH_FORMAT_UNORM16:
    case SATC_DEPTH_FORMAT_UNORM24:
    case SATC_DEPTH_FORMAT_UNORM24_HIGH:
    case SATC_DEPTH_FORMAT_UNORM32: {
        double top = fmt == SATC_DEPTH_FORMAT_UNORM16 ? 65535.0
                     : fmt == SATC_DEPTH_FORMAT_UNORM32 ? 4294967295.0 : 16777215.0;
        if (c->farther_up ? v >= top : v <= 0) /* the far end: the clear value */
            return INFINITY;
        s = (c->farther_up ? v + 1 : v - 1) / top;
        break;
    }
    default: { /* float window or NDC depth */
        if (c->farther_up ? v >= c->sf : v <= c->sf)
            return INFINITY;
        s = c->farther_up ? satc_float_next_up((float)v) : -satc_float_next_up(-(float)v);
        break;
    }
    }
    int window = c->gl && fmt != SATC_DEPTH_FORMAT_FLOAT_NDC;
    double z = window ? 2 * s - 1 : s;
    double eta = ETA * fabs(z) + (window ? 2 * ETA * fabs(s) : 0);
    z = c->farther_up ? z + eta : z - eta;
    if (c->farther_up ? z < c->zn : z > c->zn) /* nearer than the near end */
        z = c->zn;
    return depth_of(c, z);
}

static float convert(const conv *c, double v) { return convert_as(c, c->fmt, v); }

/* dst[k] = convert(c, far[k]), k < n: one loop per format, each
 * conversion inline with its format a constant. */
static void convert_row(const conv *c, const double *far, float *dst, uint32_t n)
{
#define CONVERT_CASE(f)                                                                            \
    case f:                                                                                        \
        for (uint32_t k = 0; k < n; k++)                                                           \
            dst[k] = convert_as(c, f, far[k]);                                                     \
        break;
    switch (c->fmt) {
        CONVERT_CASE(SATC_DEPTH_FORMAT_FLOAT)
        CONVERT_CASE(SATC_DEPTH_FORMAT_FLOAT_NDC)
        CONVERT_CASE(SATC_DEPTH_FORMAT_LINEAR)
        CONVERT_CASE(SATC_DEPTH_FORMAT_UNORM16)
        CONVERT_CASE(SATC_DEPTH_FORMAT_UNORM24)
        CONVERT_CASE(SATC_DEPTH_FORMAT_UNORM24_HIGH)
        CONVERT_CASE(SATC_DEPTH_FORMAT_UNORM32)
    }
#undef CONVERT_CASE
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

/* Pixels as raw() reads them, one loader per pixel type (rows are
 * aligned for their type: check() saw to it). */
static inline float px_float(const uint8_t *r, size_t x) { return ((const float *)(const void *)r)[x]; }
static inline uint32_t px_u32(const uint8_t *r, size_t x)
{
    return ((const uint32_t *)(const void *)r)[x];
}
static inline uint32_t px_u16(const uint8_t *r, size_t x)
{
    return ((const uint16_t *)(const void *)r)[x];
}
static inline uint32_t px_u24(const uint8_t *r, size_t x) { return px_u32(r, x) & 0xffffffu; }
static inline uint32_t px_u24_high(const uint8_t *r, size_t x) { return px_u32(r, x) >> 8; }

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
        corners(c);
    }
    if (img->format <= SATC_DEPTH_FORMAT_LINEAR) { /* float pixels: no NaN */
        for (uint32_t y = 0; y < img->height; y++) {
            const uint8_t *row = (const uint8_t *)img->data + (size_t)y * img->row_bytes;
            int nan = 0; /* a row at a time, without a branch per pixel */
            for (uint32_t x = 0; x < img->width; x++) {
                float v = px_float(row, x);
                nan |= v != v;
            }
            if (nan)
                return SATC_ERR_NONFINITE;
        }
    }
    return SATC_OK;
}

/* Pixels [lo, hi] of an image of `src` pixels that bound texel i of
 * `dst`: a pixel's value is the depth at its center, so every point of
 * the texel must lie between two centers taken (a plane's depth between
 * them is at most the farther one's). `slack` (pixels) absorbs the view
 * being rounded outward against the projection. */
static void span(uint64_t i, uint64_t dst, uint64_t src, double slack, uint32_t *lo, uint32_t *hi)
{
    double a = floor((double)(i * src) / (double)dst - 0.5 - slack);
    double z = ceil((double)((i + 1) * src) / (double)dst - 0.5 + slack);
    *lo = a > 0 ? (uint32_t)a : 0;
    *hi = z < (double)(src - 1) ? (uint32_t)z : (uint32_t)(src - 1);
}

/* The slack of span for one axis of the view, bounds v0 .. v1: a few
 * float steps of the bounds over the image's size. */
static double span_slack(float v0, float v1, uint32_t src)
{
    return 0x1p-8 + (double)src * 0x1p-20 * (fabs(v0) + fabs(v1)) / fabs((double)v1 - v0);
}

/* A texel's pixel columns [lo, hi]. */
typedef struct window {
    uint32_t lo, hi;
} window;

/* For each of n texels, the farthest stored value over its columns w[k]
 * (lo and hi never decrease with k) of nr rows from row0 (row_bytes
 * apart): the values raw() gives, compared in their own type, exact.
 * The rows first, column by column into col (w[0].lo .. w[n - 1].hi),
 * then each texel's columns: a maximum, so the order cannot matter.
 * Values are compared as keys that grow farther: the value itself, or
 * (nearer up) its negation or its bits flipped (KEY_OP with key()). */
#define FARTHEST_FN(name, T, get, key)                                                            \
    static void name(const uint8_t *row0, size_t rb, uint32_t nr, const window *w, uint32_t n,   \
                     int up, T *col, double *out)                                                 \
    {                                                                                             \
        uint32_t a = w[0].lo, len = w[n - 1].hi - a + 1;                                          \
        T flip = key(up);                                                                         \
        for (uint32_t x = 0; x < len; x++)                                                        \
            col[x] = get(row0, (size_t)a + x) KEY_OP flip;                                        \
        const uint8_t *r = row0 + rb;                                                             \
        for (uint32_t q = 1; q < nr; q++, r += rb)                                                \
            for (uint32_t x = 0; x < len; x++) {                                                  \
                T v = get(r, (size_t)a + x) KEY_OP flip, f = col[x];                              \
                col[x] = v > f ? v : f;                                                           \
            }                                                                                     \
        for (uint32_t k = 0; k < n; k++) {                                                        \
            const T *c = col + (w[k].lo - a);                                                     \
            T far = c[0];                                                                         \
            for (uint32_t x = 1; x <= w[k].hi - w[k].lo; x++)                                     \
                far = c[x] > far ? c[x] : far;                                                    \
            out[k] = (double)(far KEY_OP flip);                                                   \
        }                                                                                         \
    }
/* The keys: floats times 1 or -1 (exact), unsigned values XOR 0 or ~0. */
static inline float key_float(int up) { return up ? 1.0f : -1.0f; }
static inline uint32_t key_u(int up) { return up ? 0u : ~0u; }
#define KEY_OP *
FARTHEST_FN(farthest_float, float, px_float, key_float)
#undef KEY_OP
#define KEY_OP ^
FARTHEST_FN(farthest_u16, uint32_t, px_u16, key_u)
FARTHEST_FN(farthest_u24, uint32_t, px_u24, key_u)
FARTHEST_FN(farthest_u24_high, uint32_t, px_u24_high, key_u)
FARTHEST_FN(farthest_u32, uint32_t, px_u32, key_u)
#undef KEY_OP

/* Pixel columns a call of farthest takes at most (col's size). */
#define FILL_PIX 2048
_Static_assert(65536 / SATC_PYRAMID_MIN_WIDTH + 3 < FILL_PIX, "a texel's columns fit col");

static void farthest(const conv *c, const uint8_t *row0, size_t rb, uint32_t nr, const window *w,
                     uint32_t n, double *out)
{
    union {
        float f[FILL_PIX];
        uint32_t u[FILL_PIX];
    } col;
    int up = c->farther_up;
    switch (c->fmt) {
    case SATC_DEPTH_FORMAT_UNORM16: farthest_u16(row0, rb, nr, w, n, up, col.u, out); break;
    case SATC_DEPTH_FORMAT_UNORM24: farthest_u24(row0, rb, nr, w, n, up, col.u, out); break;
    case SATC_DEPTH_FORMAT_UNORM24_HIGH:
        farthest_u24_high(row0, rb, nr, w, n, up, col.u, out);
        break;
    case SATC_DEPTH_FORMAT_UNORM32: farthest_u32(row0, rb, nr, w, n, up, col.u, out); break;
    default: farthest_float(row0, rb, nr, w, n, up, col.f, out); break;
    }
}

/* Texel columns this many at a time at most: their windows on the stack,
 * which stays small (the web build's is 64 KB). */
#define FILL_COLS 256

/* A fill's checks and constants: the conversion, the row order and the
 * slacks of span() across and up. */
typedef struct fill_setup {
    conv c;
    int top_down;
    double sx, sy;
} fill_setup;

static satc_status setup(const satc_pyramid *p, const satc_depth_image *img, const float *m,
                         unsigned layout, fill_setup *f)
{
    satc_status st = check(p, img, m, layout, &f->c);
    if (st != SATC_OK)
        return st;
    f->top_down = (img->conventions & SATC_IMAGE_TOP_DOWN) != 0;
    f->sx = span_slack(p->view.x0, p->view.x1, img->width);
    f->sy = span_slack(p->view.y0, p->view.y1, img->height);
    return SATC_OK;
}

static satc_status fill(satc_pyramid *p, const satc_depth_image *img, const float *m,
                        unsigned layout)
{
    fill_setup f;
    satc_status st = setup(p, img, m, layout, &f);
    if (st != SATC_OK)
        return st;
    const conv c = f.c;
    const int top_down = f.top_down;
    const double sx = f.sx, sy = f.sy;
    window w[FILL_COLS];
    double far[FILL_COLS];
    for (uint32_t i0 = 0, n; i0 < p->width; i0 += n) {
        /* as many columns as fit FILL_COLS and FILL_PIX: at least one,
         * a texel's pixels being at most 65536 / SATC_PYRAMID_MIN_WIDTH
         * + 3 columns */
        for (n = 0; i0 + n < p->width && n < FILL_COLS; n++) {
            span(i0 + n, p->width, img->width, sx, &w[n].lo, &w[n].hi);
            if (w[n].hi - w[0].lo >= FILL_PIX)
                break;
        }
        for (uint32_t j = 0; j < p->height; j++) {
            uint32_t q0, q1;
            span(j, p->height, img->height, sy, &q0, &q1);
            uint32_t y0 = top_down ? img->height - 1 - q1 : q0; /* the rows' lowest address */
            const uint8_t *row0 = (const uint8_t *)img->data + (size_t)y0 * img->row_bytes;
            farthest(&c, row0, img->row_bytes, q1 - q0 + 1, w, n, far);
            convert_row(&c, far, p->depth + (size_t)j * p->width + i0, n);
        }
    }
    return satc_pyramid_build(p);
}

/* The reference: every texel's pixels read one by one through raw(). */
satc_status satc_pyramid_fill_ref(satc_pyramid *p, const satc_depth_image *img, const float *m,
                                  unsigned layout)
{
    fill_setup f;
    satc_status st = setup(p, img, m, layout, &f);
    if (st != SATC_OK)
        return st;
    const conv c = f.c;
    for (uint32_t j = 0; j < p->height; j++) {
        uint32_t q0, q1;
        span(j, p->height, img->height, f.sy, &q0, &q1);
        float *dst = p->depth + (size_t)j * p->width;
        for (uint32_t i = 0; i < p->width; i++) {
            uint32_t x0, x1;
            span(i, p->width, img->width, f.sx, &x0, &x1);
            double far = c.farther_up ? -INFINITY : INFINITY;
            for (uint32_t q = q0; q <= q1; q++) {
                uint32_t y = f.top_down ? img->height - 1 - q : q;
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
