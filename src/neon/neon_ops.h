/* NEON's vector layer shared by the culling kernels and the rasterizer's
 * fill: 4 floats per register, through SIMDe (native on AArch64, SIMDe's
 * portable code elsewhere). min/max are compare + select, never
 * vminq/vmaxq. */
#ifndef SATC_NEON_OPS_H
#define SATC_NEON_OPS_H

#include <math.h>
#include <simde/arm/neon.h>

#define W 4
typedef simde_float32x4_t V;
typedef simde_uint32x4_t M;

static inline V v_load(const float *p) { return simde_vld1q_f32(p); }
static inline void v_store(float *p, V v) { simde_vst1q_f32(p, v); }
static inline V v_set1(float x) { return simde_vdupq_n_f32(x); }
static inline V v_add(V a, V b) { return simde_vaddq_f32(a, b); }
static inline V v_sub(V a, V b) { return simde_vsubq_f32(a, b); }
static inline V v_mul(V a, V b) { return simde_vmulq_f32(a, b); }
/* SIMDe 0.7.4 has neither vdivq_f32 nor vsqrtq_f32: native AArch64 runs
 * the instructions, emulation the C operators lane by lane (all correctly
 * rounded: the same bits). */
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
static inline V v_sqrt(V a)
{
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vsqrtq_f32(a);
#else
    float x[4];
    simde_vst1q_f32(x, a);
    for (int l = 0; l < 4; l++)
        x[l] = sqrtf(x[l]);
    return simde_vld1q_f32(x);
#endif
}
/* Sign-bit operations on the bits. */
static inline V v_abs(V a)
{
    return simde_vreinterpretq_f32_u32(
        simde_vbicq_u32(simde_vreinterpretq_u32_f32(a), simde_vdupq_n_u32(0x80000000u)));
}
static inline V v_neg(V a)
{
    return simde_vreinterpretq_f32_u32(
        simde_veorq_u32(simde_vreinterpretq_u32_f32(a), simde_vdupq_n_u32(0x80000000u)));
}
/* Ordered compares: false on NaN. */
static inline M v_lt(V a, V b) { return simde_vcltq_f32(a, b); }
static inline M v_gt(V a, V b) { return simde_vcgtq_f32(a, b); }
static inline M v_le(V a, V b) { return simde_vcleq_f32(a, b); }
static inline M v_ge(V a, V b) { return simde_vcgeq_f32(a, b); }
static inline M m_or(M a, M b) { return simde_vorrq_u32(a, b); }
static inline M m_and(M a, M b) { return simde_vandq_u32(a, b); }
static inline M m_andnot(M a, M b) { return simde_vbicq_u32(a, b); }
static inline M m_not(M a) { return simde_vmvnq_u32(a); }
static inline V v_sel(M m, V a, V b) { return simde_vbslq_f32(m, a, b); }
/* a < b ? a : b: NEON's own min would return NaN where this returns b. */
static inline V v_min(V a, V b) { return v_sel(v_lt(a, b), a, b); }
static inline V v_max(V a, V b) { return v_sel(v_gt(a, b), a, b); }
#endif
