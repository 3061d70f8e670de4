/* The rasterizer's fill on AVX2: 8 texels per register (the math is in
 * ../kernels/raster_fill.h). No FMA. */
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__AVX2__)
#error "raster_avx2.c must be compiled with -mavx2 on x86"
#endif
#if defined(__FMA__)
#error "raster_avx2.c must not be compiled with FMA"
#endif

#include <simde/x86/avx2.h>

#define W 8
typedef simde__m256 V;
typedef simde__m256 M;
static inline V v_load(const float *p) { return simde_mm256_loadu_ps(p); }
static inline void v_store(float *p, V v) { simde_mm256_storeu_ps(p, v); }
static inline V v_set1(float x) { return simde_mm256_set1_ps(x); }
static inline V v_add(V a, V b) { return simde_mm256_add_ps(a, b); }
static inline V v_mul(V a, V b) { return simde_mm256_mul_ps(a, b); }
static inline V v_div(V a, V b) { return simde_mm256_div_ps(a, b); }
/* Ordered, quiet predicates: false when either operand is NaN. */
static inline M v_gt(V a, V b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GT_OQ); }
static inline M v_ge(V a, V b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GE_OQ); }
static inline M v_le(V a, V b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ); }
static inline M m_and(M a, M b) { return simde_mm256_and_ps(a, b); }
static inline V v_sel(M m, V a, V b) { return simde_mm256_blendv_ps(b, a, m); }
static inline int m_any(M m) { return simde_mm256_movemask_ps(m) != 0; }
static inline unsigned m_bits(M m) { return (unsigned)simde_mm256_movemask_ps(m); }

#define SATC_RASTER_FILL satc_raster_fill_avx2
#include "../kernels/raster_fill.h"

/* The eight-box setup, four boxes a vector (no FMA: the same bits). */
#define SW_L 4
#define SATC_SETUP_WIDE satc_raster_setup_wide_avx2
#include "../kernels/raster_setup_wide.h"
