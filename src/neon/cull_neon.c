/* NEON kernels: 4 boxes per register. The math is in ../kernels/kernels.h; this
 * file maps its vector layer onto AArch64 NEON (through SIMDe: native on
 * AArch64, SIMDe's portable code elsewhere, which is how x86 builds test
 * this path). min/max are compare + select, never vminq/vmaxq. */
#if defined(__aarch64__) && !defined(__ARM_NEON)
#error "cull_neon.c must be compiled with NEON enabled on AArch64"
#endif

#include "../core/internal.h"

#include "neon_ops.h"

typedef simde_uint8x16_t P;

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
