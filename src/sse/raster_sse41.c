/* The rasterizer's fill on SSE4.1: 4 texels per register (the math is in
 * ../kernels/raster_fill.h). */
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__SSE4_1__)
#error "raster_sse41.c must be compiled with -msse4.1 on x86"
#endif

#include <simde/x86/sse4.1.h>

#define W 4
typedef simde__m128 V;
typedef simde__m128 M;
static inline V v_load(const float *p) { return simde_mm_loadu_ps(p); }
static inline void v_store(float *p, V v) { simde_mm_storeu_ps(p, v); }
static inline V v_set1(float x) { return simde_mm_set1_ps(x); }
static inline V v_add(V a, V b) { return simde_mm_add_ps(a, b); }
static inline V v_mul(V a, V b) { return simde_mm_mul_ps(a, b); }
static inline V v_div(V a, V b) { return simde_mm_div_ps(a, b); }
static inline M v_gt(V a, V b) { return simde_mm_cmpgt_ps(a, b); }
static inline M v_ge(V a, V b) { return simde_mm_cmpge_ps(a, b); }
static inline M v_le(V a, V b) { return simde_mm_cmple_ps(a, b); }
static inline M m_and(M a, M b) { return simde_mm_and_ps(a, b); }
static inline V v_sel(M m, V a, V b) { return simde_mm_blendv_ps(b, a, m); }
static inline int m_any(M m) { return simde_mm_movemask_ps(m) != 0; }
static inline unsigned m_bits(M m) { return (unsigned)simde_mm_movemask_ps(m); }

#define SATC_RASTER_FILL satc_raster_fill_sse41
#include "../kernels/raster_fill.h"
