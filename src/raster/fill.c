/* The rasterizer's fill, reference: every texel of a polygon's rectangle
 * tested and written one at a time, in the order and with the float
 * expressions that kernels/raster_fill.h runs lane by lane (raster/raster.h
 * states them). And the choice of a path's fill. */
#include "config.h"
#include "raster.h"


/* The reference with merged coverage: whole texels as without it, the
 * others through satc_rcov_texel. */
static void fill_ref_cov(const satc_rpoly *p, float *level0, uint32_t width, const satc_rcov *cov)
{
    satc_rcells cl;
    satc_rcells_init(p, &cl);
    for (int32_t j = p->j0; j < p->j1; j++) {
        float re[SATC_RP_EDGES], rg[SATC_RP_PLANES];
        satc_rpoly_row(p, j, re, rg);
        size_t at = (size_t)j * width;
        float *row = level0 + at;
        int32_t lo, hi;
        satc_rpoly_span_cov(p, p->ne, &cl, re, &lo, &hi);
        for (int32_t i = lo; i < hi; i++) {
            float fi = (float)i;
            int in = 1, cand = 1;
            for (uint32_t k = 0; k < p->ne; k++) {
                float e = p->e[k][0] * fi + re[k];
                in &= e >= 0.0f;
                cand &= e + cl.offmax[k] >= 0.0f;
            }
            if (!cand)
                continue;
            float out;
            if (!satc_rpoly_depth(p, fi, rg, &out))
                continue;
            if (in) {
                float old = row[i];
                row[i] = old <= out ? old : out;
            } else {
                satc_rcov_texel(p, &cl, re, i, out, &row[i], cov->depth + 2 * (at + i),
                                cov->mask + 2 * (at + i));
            }
        }
    }
}

void satc_raster_fill_ref(const satc_rpoly *p, float *level0, uint32_t width, const satc_rcov *cov)
{
    if (cov) {
        fill_ref_cov(p, level0, width, cov);
        return;
    }
    for (int32_t j = p->j0; j < p->j1; j++) {
        float re[SATC_RP_EDGES], rg[SATC_RP_PLANES];
        satc_rpoly_row(p, j, re, rg);
        float *row = level0 + (size_t)j * width;
        int32_t lo = p->i0, hi = p->i1;
        if (p->i1 - p->i0 > SATC_RP_SPAN_MIN)
            satc_rpoly_span(p, p->ne, re, &lo, &hi);
        for (int32_t i = lo; i < hi; i++) {
            float fi = (float)i;
            int in = 1;
            for (uint32_t k = 0; k < p->ne; k++)
                in &= p->e[k][0] * fi + re[k] >= 0.0f;
            float out;
            in &= satc_rpoly_depth(p, fi, rg, &out);
            if (!in)
                continue;
            float old = row[i];
            row[i] = old <= out ? old : out;
        }
    }
}

#ifndef SATC_HAVE_SIMD128
#define SATC_HAVE_SIMD128 0
#endif

satc_raster_fill_fn satc_raster_fill_for(satc_isa isa)
{
    if (!(satc_isa_runnable() & (unsigned)isa))
        return NULL;
    switch (isa) {
    case SATC_ISA_SCALAR: return satc_raster_fill_ref;
#if SATC_HAVE_SSE41
    case SATC_ISA_SSE41: return satc_raster_fill_sse41;
#endif
#if SATC_HAVE_AVX2
    case SATC_ISA_AVX2: return satc_raster_fill_avx2;
#endif
#if SATC_HAVE_NEON
    case SATC_ISA_NEON: return satc_raster_fill_neon;
#endif
#if SATC_HAVE_SIMD128
    case SATC_ISA_SIMD128: return satc_raster_fill_simd128;
#endif
#if SATC_HAVE_AVX512
    case SATC_ISA_AVX512:
#if SATC_HAVE_AVX512_EMU
        if (!(satc_isa_native() & SATC_ISA_AVX512))
            return satc_raster_fill_avx512_emu;
#endif
        return satc_raster_fill_avx512;
#endif
    default: return NULL;
    }
}
