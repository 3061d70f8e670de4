/* The rasterizer's fill on NEON: 4 texels per register (the math is in
 * ../kernels/raster_fill.h); native on AArch64, SIMDe elsewhere. */
#if defined(__aarch64__) && !defined(__ARM_NEON)
#error "raster_neon.c must be compiled with NEON enabled on AArch64"
#endif

#include <simde/arm/neon.h>

#define W 4
typedef simde_float32x4_t V;
typedef simde_uint32x4_t M;
static inline V v_load(const float *p) { return simde_vld1q_f32(p); }
static inline void v_store(float *p, V v) { simde_vst1q_f32(p, v); }
static inline V v_set1(float x) { return simde_vdupq_n_f32(x); }
static inline V v_add(V a, V b) { return simde_vaddq_f32(a, b); }
static inline V v_mul(V a, V b) { return simde_vmulq_f32(a, b); }
/* SIMDe 0.7.4 has no vdivq_f32: native AArch64 calls the instruction,
 * emulation divides lane by lane (both correctly rounded: the same bits). */
static inline V v_div(V a, V b)
{
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vdivq_f32(a, b);
#else
    float x[4], y[4];
    simde_vst1q_f32(x, a);
    simde_vst1q_f32(y, b);
    for (int l = 0; l < 4; l++)
        x[l] = x[l] / y[l];
    return simde_vld1q_f32(x);
#endif
}
static inline V v_abs(V a)
{
    return simde_vreinterpretq_f32_u32(
        simde_vbicq_u32(simde_vreinterpretq_u32_f32(a), simde_vdupq_n_u32(0x80000000u)));
}
/* Ordered compares: false on NaN. */
static inline M v_gt(V a, V b) { return simde_vcgtq_f32(a, b); }
static inline M v_ge(V a, V b) { return simde_vcgeq_f32(a, b); }
static inline M v_le(V a, V b) { return simde_vcleq_f32(a, b); }
static inline M m_and(M a, M b) { return simde_vandq_u32(a, b); }
static inline V v_sel(M m, V a, V b) { return simde_vbslq_f32(m, a, b); }
static inline int m_any(M m) { return simde_vmaxvq_u32(m) != 0; }

#define SATC_RASTER_FILL satc_raster_fill_neon
#include "../kernels/raster_fill.h"
