/* NEON kernels: 4 boxes per register. The math is in ../kernels/kernels.h; this
 * file maps its vector layer onto AArch64 NEON (through SIMDe: native on
 * AArch64, SIMDe's portable code elsewhere, which is how x86 builds test
 * this path). min/max are compare + select, never vminq/vmaxq (SPEC §3). */
#if defined(__aarch64__) && !defined(__ARM_NEON)
#error "cull_neon.c must be compiled with NEON enabled on AArch64"
#endif

#include <simde/arm/neon.h>

#include "../core/internal.h"

#define W 4
typedef simde_float32x4_t V;
typedef simde_uint32x4_t M;
typedef simde_uint8x16_t P;

static inline V v_load(const float *p) { return simde_vld1q_f32(p); }
static inline void v_store(float *p, V v) { simde_vst1q_f32(p, v); }
static inline V v_set1(float x) { return simde_vdupq_n_f32(x); }
static inline V v_add(V a, V b) { return simde_vaddq_f32(a, b); }
static inline V v_sub(V a, V b) { return simde_vsubq_f32(a, b); }
static inline V v_mul(V a, V b) { return simde_vmulq_f32(a, b); }
static inline V v_div(V a, V b) { return simde_vdivq_f32(a, b); }
static inline V v_sqrt(V a) { return simde_vsqrtq_f32(a); }
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
static inline unsigned m_bits(M m)
{
    static const uint32_t weight[4] = {1, 2, 4, 8};
    return (unsigned)simde_vaddvq_u32(simde_vandq_u32(m, simde_vld1q_u32(weight)));
}
static inline M m_cnt_add(M c, M m) { return simde_vaddq_u32(c, m); }
static inline M m_cnt_gt(M c, int k)
{
    return simde_vcgtq_s32(simde_vreinterpretq_s32_u32(c), simde_vdupq_n_s32(k));
}
static inline M m_cnt_eq(M c, int k)
{
    return simde_vceqq_s32(simde_vreinterpretq_s32_u32(c), simde_vdupq_n_s32(k));
}

#include "../kernels/compress4.h"
static inline P p_make(unsigned bits) { return simde_vld1q_u8(satc_compress4[bits]); }
static inline V v_perm(V v, P p)
{
    return simde_vreinterpretq_f32_u8(simde_vqtbl1q_u8(simde_vreinterpretq_u8_f32(v), p));
}

#define SATC_SIMD_TABLE satc_kernels_neon
#include "../kernels/kernels.h"
