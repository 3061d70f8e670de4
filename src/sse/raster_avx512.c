/* The rasterizer's fill on AVX-512 (F, VL, DQ, BW): 16 texels per
 * register, lane logic in mask registers (the math is in
 * ../kernels/raster_fill.h). Built twice on x86 like cull_avx512.c:
 * native, and emulated through SIMDe from AVX2. */
#if defined(SATC_AVX512_NATIVE) && !defined(__AVX512F__)
#error "the native AVX-512 build needs -mavx512f -mavx512vl -mavx512dq -mavx512bw"
#endif

#include <simde/x86/avx512.h>

#define W 16
typedef simde__m512 V;
typedef simde__mmask16 M;
static inline V v_load(const float *p) { return simde_mm512_loadu_ps(p); }
static inline void v_store(float *p, V v) { simde_mm512_storeu_ps(p, v); }
static inline V v_set1(float x) { return simde_mm512_set1_ps(x); }
static inline V v_add(V a, V b) { return simde_mm512_add_ps(a, b); }
static inline V v_mul(V a, V b) { return simde_mm512_mul_ps(a, b); }
static inline V v_div(V a, V b) { return simde_mm512_div_ps(a, b); }
static inline M v_gt(V a, V b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GT_OQ); }
static inline M v_ge(V a, V b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GE_OQ); }
static inline M v_le(V a, V b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LE_OQ); }
static inline M m_and(M a, M b) { return (M)(a & b); }
static inline V v_sel(M m, V a, V b) { return simde_mm512_mask_blend_ps(m, b, a); }
static inline int m_any(M m) { return m != 0; }
static inline unsigned m_bits(M m) { return (unsigned)m; }

#if defined(SATC_AVX512_EMU)
#define SATC_RASTER_FILL satc_raster_fill_avx512_emu
#else
#define SATC_RASTER_FILL satc_raster_fill_avx512
#endif
#if defined(SATC_AVX512_NATIVE) && defined(SATC_RF_NARROW_AVX2)
#define RF_NARROW satc_raster_fill_avx2 /* every AVX-512 CPU has AVX2 */
#define RF_NARROW_W 8
#endif
#include "../kernels/raster_fill.h"

#if !defined(SATC_AVX512_EMU) /* the eight-box setup, in 512-bit double vectors */
#define SATC_SETUP_WIDE satc_raster_setup_wide_avx512
#include "../kernels/raster_setup_wide.h"
#endif
