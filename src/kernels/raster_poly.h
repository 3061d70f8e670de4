/* The rasterizer's screen polygon, what its setup (raster/setup.c) hands
 * to the fills: the reference (raster/fill.c) and each path's
 * (kernels/raster_fill.h in the vector layers). */
#ifndef SATC_RASTER_POLY_H
#define SATC_RASTER_POLY_H

#include "../core/internal.h"

/* Most edges of a polygon: a box's silhouette has 6; a face 4 and the
 * near edge; a triangle 3 and the near edge. */
#define SATC_RP_EDGES 6
/* Most depth planes: the front faces of a box. */
#define SATC_RP_PLANES 3

/*
 * One convex screen polygon in texel coordinates (u, v): column i spans
 * u in [i, i + 1], row j spans v in [j, j + 1]. With fi = (float)i and
 * fj = (float)j, every linear function g = (g0, g1, g2) is evaluated in
 * float as
 *     r = fl(g1 * fj + g2)  (once per row),   g(i, j) = fl(fl(g0 * fi) + r).
 * Texel (i, j) is covered when e[k](i, j) >= 0 for every edge k < ne
 * (NaN: not covered); it then takes the depth
 *     max over planes k < np of fl(z[k](i, j) / l[k](i, j))
 * when every l[k](i, j) > 0 (else it is left alone), raised by
 * fl(fl(|q| * 2^-21) + 2^-100), and stores the least of that and the
 * texel's value (a NaN texel counts as +Inf).
 * Setup folds into each constant term the texel corner where the function
 * is least (edges, l) or greatest (z), and a margin covering every
 * rounding, so in exact arithmetic over the texel's whole rectangle:
 * edges >= 0, l >= the value used, z <= the value used.
 */
typedef struct satc_rpoly {
    int32_t i0, i1, j0, j1; /* texels [i0, i1) x [j0, j1) may be covered */
    uint32_t ne, np;
    float e[SATC_RP_EDGES][3];
    float z[SATC_RP_PLANES][3];
    float l[SATC_RP_PLANES][3];
} satc_rpoly;

/* Writes one polygon into level 0 (row stride rv->width floats). */
typedef void (*satc_raster_fill_fn)(const satc_rpoly *p, float *level0, uint32_t width);

void satc_raster_fill_ref(const satc_rpoly *p, float *level0, uint32_t width);
void satc_raster_fill_sse41(const satc_rpoly *p, float *level0, uint32_t width);
void satc_raster_fill_avx2(const satc_rpoly *p, float *level0, uint32_t width);
void satc_raster_fill_avx512(const satc_rpoly *p, float *level0, uint32_t width);
void satc_raster_fill_avx512_emu(const satc_rpoly *p, float *level0, uint32_t width);
void satc_raster_fill_neon(const satc_rpoly *p, float *level0, uint32_t width);
void satc_raster_fill_simd128(const satc_rpoly *p, float *level0, uint32_t width);

/* fmax and fmin inline (the libm calls were a large part of the setup's
 * time): a NaN operand yields the other, equal operands (signed zeros)
 * the second, the same on every platform. */
static inline double satc_dmax(double a, double b) { return a > b || b != b ? a : b; }
static inline double satc_dmin(double a, double b) { return a < b || b != b ? a : b; }

/* Columns [*lo, *hi) of a row outside which no texel passes every edge,
 * from the row's constant terms re[k]: a superset (the per-texel test
 * still decides), so skipping the rest changes no bit. A float value
 * fl(fl(a i) + r) >= 0 implies a i + r >= -slack in exact arithmetic,
 * slack above its rounding (2^-20 of the magnitudes, and 2^-120 for
 * flush-to-zero); non-finite terms keep the whole range. */
static inline void satc_rpoly_span(const satc_rpoly *p, const float *re, int32_t *lo, int32_t *hi)
{
    double l = p->i0, h = p->i1, imax = fabs((double)p->i0) + fabs((double)p->i1) + 1;
    for (uint32_t k = 0; k < p->ne; k++) {
        double a = p->e[k][0], r = re[k];
        if (!isfinite(a) || !isfinite(r))
            continue;
        double slack = 0x1p-20 * (fabs(a) * imax + fabs(r)) + 0x1p-120;
        if (a > 0)
            l = satc_dmax(l, floor((-r - slack) / a) - 1);
        else if (a < 0)
            h = satc_dmin(h, ceil((-r - slack) / a) + 2);
        else if (r < -slack)
            h = l;
    }
    if (!(l < h))
        h = l = p->i0;
    *lo = (int32_t)l;
    *hi = (int32_t)h;
}

#endif
