/* AVX2 kernels: 8 boxes per register. The math is in ../kernels/kernels.h; this
 * file maps its vector layer onto AVX2 (through SIMDe, native with -mavx2
 * on x86 and never with FMA, SIMDe's portable code on other machines). */
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__AVX2__)
#error "cull_avx2.c must be compiled with -mavx2 on x86"
#endif
#if defined(__FMA__)
#error "cull_avx2.c must not be compiled with FMA"
#endif

#include <simde/x86/avx2.h>

#include "../core/internal.h"

#define W 8
typedef simde__m256 V;
typedef simde__m256 M;
typedef simde__m256i P;

static inline V v_load(const float *p) { return simde_mm256_loadu_ps(p); }
static inline void v_store(float *p, V v) { simde_mm256_storeu_ps(p, v); }
static inline V v_set1(float x) { return simde_mm256_set1_ps(x); }
static inline V v_add(V a, V b) { return simde_mm256_add_ps(a, b); }
static inline V v_sub(V a, V b) { return simde_mm256_sub_ps(a, b); }
static inline V v_mul(V a, V b) { return simde_mm256_mul_ps(a, b); }
static inline V v_div(V a, V b) { return simde_mm256_div_ps(a, b); }
/* Each lane's four bytes as floats (byte quaternions), unsigned or signed. */
#define SATC_VLAYER_BYTES 1
static inline void v_bytes4(V w, const int sgn, V out[4])
{
    simde__m256i i = simde_mm256_castps_si256(w), m = simde_mm256_set1_epi32(255);
    simde__m256i b0 = sgn ? simde_mm256_srai_epi32(simde_mm256_slli_epi32(i, 24), 24)
                          : simde_mm256_and_si256(i, m);
    simde__m256i b1 = sgn ? simde_mm256_srai_epi32(simde_mm256_slli_epi32(i, 16), 24)
                          : simde_mm256_and_si256(simde_mm256_srli_epi32(i, 8), m);
    simde__m256i b2 = sgn ? simde_mm256_srai_epi32(simde_mm256_slli_epi32(i, 8), 24)
                          : simde_mm256_and_si256(simde_mm256_srli_epi32(i, 16), m);
    simde__m256i b3 = sgn ? simde_mm256_srai_epi32(i, 24) : simde_mm256_srli_epi32(i, 24);
    out[0] = simde_mm256_cvtepi32_ps(b0), out[1] = simde_mm256_cvtepi32_ps(b1);
    out[2] = simde_mm256_cvtepi32_ps(b2), out[3] = simde_mm256_cvtepi32_ps(b3);
}
static inline V v_sqrt(V a) { return simde_mm256_sqrt_ps(a); }
static inline V v_abs(V a) { return simde_mm256_andnot_ps(simde_mm256_set1_ps(-0.0f), a); }
static inline V v_neg(V a) { return simde_mm256_xor_ps(a, simde_mm256_set1_ps(-0.0f)); }
/* vminps/vmaxps return the second operand unless the compare holds:
 * a < b ? a : b and a > b ? a : b, as min_ref / max_ref. The operand
 * order keeps each lane's bits equal to the scalar's when the operands
 * are -0 and +0 or one is NaN; no decision depends on it (the zeros
 * compare equal, and a box with a NaN is never culled). */
static inline V v_min(V a, V b) { return simde_mm256_min_ps(a, b); }
static inline V v_max(V a, V b) { return simde_mm256_max_ps(a, b); }
/* Ordered, quiet predicates: false when either operand is NaN. */
static inline M v_lt(V a, V b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ); }
static inline M v_gt(V a, V b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GT_OQ); }
static inline M v_le(V a, V b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ); }
static inline M v_ge(V a, V b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GE_OQ); }
static inline M m_or(M a, M b) { return simde_mm256_or_ps(a, b); }
static inline M m_and(M a, M b) { return simde_mm256_and_ps(a, b); }
static inline M m_andnot(M a, M b) { return simde_mm256_andnot_ps(b, a); }
static inline M m_not(M a)
{
    return simde_mm256_xor_ps(a, simde_mm256_castsi256_ps(simde_mm256_set1_epi32(-1)));
}
static inline V v_sel(M m, V a, V b) { return simde_mm256_blendv_ps(b, a, m); }
static inline unsigned m_bits(M m) { return (unsigned)simde_mm256_movemask_ps(m); }
static inline M m_cnt_add(M c, M m)
{
    return simde_mm256_castsi256_ps(
        simde_mm256_add_epi32(simde_mm256_castps_si256(c), simde_mm256_castps_si256(m)));
}
static inline M m_cnt_gt(M c, int k)
{
    return simde_mm256_castsi256_ps(
        simde_mm256_cmpgt_epi32(simde_mm256_castps_si256(c), simde_mm256_set1_epi32(k)));
}
static inline M m_cnt_eq(M c, int k)
{
    return simde_mm256_castsi256_ps(
        simde_mm256_cmpeq_epi32(simde_mm256_castps_si256(c), simde_mm256_set1_epi32(k)));
}

/*
 * Lane compression: entry m packs, one nibble per output slot, the indices
 * of the set bits of m in increasing order (slot s holds the lane of the
 * s-th set bit; unused slots 0). Built by the preprocessor.
 */
#define POP_BELOW(m, b) (((m) & ((1u << (b)) - 1u) & 0x01u ? 1u : 0u) + \
                         ((m) & ((1u << (b)) - 1u) & 0x02u ? 1u : 0u) + \
                         ((m) & ((1u << (b)) - 1u) & 0x04u ? 1u : 0u) + \
                         ((m) & ((1u << (b)) - 1u) & 0x08u ? 1u : 0u) + \
                         ((m) & ((1u << (b)) - 1u) & 0x10u ? 1u : 0u) + \
                         ((m) & ((1u << (b)) - 1u) & 0x20u ? 1u : 0u) + \
                         ((m) & ((1u << (b)) - 1u) & 0x40u ? 1u : 0u))
#define SLOT(m, b) (((m) >> (b) & 1u) ? (uint32_t)(b) << (4u * POP_BELOW(m, b)) : 0u)
#define PACK(m) (SLOT(m, 0) | SLOT(m, 1) | SLOT(m, 2) | SLOT(m, 3) | SLOT(m, 4) | SLOT(m, 5) | \
                 SLOT(m, 6) | SLOT(m, 7))
#define ROW(m) PACK((m) + 0u), PACK((m) + 1u), PACK((m) + 2u), PACK((m) + 3u), \
               PACK((m) + 4u), PACK((m) + 5u), PACK((m) + 6u), PACK((m) + 7u)
static const uint32_t satc_compress8[256] = {
    ROW(0),   ROW(8),   ROW(16),  ROW(24),  ROW(32),  ROW(40),  ROW(48),  ROW(56),
    ROW(64),  ROW(72),  ROW(80),  ROW(88),  ROW(96),  ROW(104), ROW(112), ROW(120),
    ROW(128), ROW(136), ROW(144), ROW(152), ROW(160), ROW(168), ROW(176), ROW(184),
    ROW(192), ROW(200), ROW(208), ROW(216), ROW(224), ROW(232), ROW(240), ROW(248),
};
#undef ROW
#undef PACK
#undef SLOT
#undef POP_BELOW

static inline P p_make(unsigned bits)
{
    return simde_mm256_srlv_epi32(simde_mm256_set1_epi32((int)satc_compress8[bits]),
                                  simde_mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28));
}
/* vpermps reads the low three bits of each index. */
static inline V v_perm(V v, P p) { return simde_mm256_permutevar8x32_ps(v, p); }

/* 16 bytes of W records: 128-bit loads, records j and j + 4 in the two
 * halves of register j, then a 4x4 transpose in each half. */
#define SATC_VLAYER_REC4 1
SATC_AI simde__m128 rec_at(const float *p, size_t stride, int j)
{
    return simde_mm_loadu_ps((const float *)(const void *)((const char *)p + (size_t)j * stride));
}
SATC_AI void v_load_rec4(const float *p, size_t stride, V out[4])
{
    /* written out: in the largest kernels GCC keeps a loop here, and the
     * rows in memory */
    V a0 = simde_mm256_set_m128(rec_at(p, stride, 4), rec_at(p, stride, 0));
    V a1 = simde_mm256_set_m128(rec_at(p, stride, 5), rec_at(p, stride, 1));
    V a2 = simde_mm256_set_m128(rec_at(p, stride, 6), rec_at(p, stride, 2));
    V a3 = simde_mm256_set_m128(rec_at(p, stride, 7), rec_at(p, stride, 3));
    V t0 = simde_mm256_unpacklo_ps(a0, a1), t1 = simde_mm256_unpackhi_ps(a0, a1);
    V t2 = simde_mm256_unpacklo_ps(a2, a3), t3 = simde_mm256_unpackhi_ps(a2, a3);
    out[0] = simde_mm256_shuffle_ps(t0, t2, 0x44);
    out[1] = simde_mm256_shuffle_ps(t0, t2, 0xEE);
    out[2] = simde_mm256_shuffle_ps(t1, t3, 0x44);
    out[3] = simde_mm256_shuffle_ps(t1, t3, 0xEE);
}

#define SATC_SIMD_TABLE satc_kernels_avx2
#include "../kernels/kernels.h"
