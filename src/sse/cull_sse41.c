/* SSE4.1 kernels: 4 boxes per register. The math is in ../kernels/kernels.h; this
 * file maps its vector layer onto SSE4.1 (through SIMDe, native with
 * -msse4.1 on x86, SIMDe's portable code on other machines). */
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__SSE4_1__)
#error "cull_sse41.c must be compiled with -msse4.1 on x86"
#endif

#include <simde/x86/sse4.1.h>

#include "../core/internal.h"

#define W 4
typedef simde__m128 V;
typedef simde__m128 M;
typedef simde__m128i P;

static inline V v_load(const float *p) { return simde_mm_loadu_ps(p); }
static inline void v_store(float *p, V v) { simde_mm_storeu_ps(p, v); }
static inline V v_set1(float x) { return simde_mm_set1_ps(x); }
static inline V v_add(V a, V b) { return simde_mm_add_ps(a, b); }
static inline V v_sub(V a, V b) { return simde_mm_sub_ps(a, b); }
static inline V v_mul(V a, V b) { return simde_mm_mul_ps(a, b); }
static inline V v_div(V a, V b) { return simde_mm_div_ps(a, b); }
/* Each lane's four bytes as floats (byte quaternions), unsigned or signed. */
#define SATC_VLAYER_BYTES 1
static inline void v_bytes4(V w, const int sgn, V out[4])
{
    simde__m128i i = simde_mm_castps_si128(w), m = simde_mm_set1_epi32(255);
    simde__m128i b0 = sgn ? simde_mm_srai_epi32(simde_mm_slli_epi32(i, 24), 24) : simde_mm_and_si128(i, m);
    simde__m128i b1 = sgn ? simde_mm_srai_epi32(simde_mm_slli_epi32(i, 16), 24)
                          : simde_mm_and_si128(simde_mm_srli_epi32(i, 8), m);
    simde__m128i b2 = sgn ? simde_mm_srai_epi32(simde_mm_slli_epi32(i, 8), 24)
                          : simde_mm_and_si128(simde_mm_srli_epi32(i, 16), m);
    simde__m128i b3 = sgn ? simde_mm_srai_epi32(i, 24) : simde_mm_srli_epi32(i, 24);
    out[0] = simde_mm_cvtepi32_ps(b0), out[1] = simde_mm_cvtepi32_ps(b1);
    out[2] = simde_mm_cvtepi32_ps(b2), out[3] = simde_mm_cvtepi32_ps(b3);
}
static inline V v_sqrt(V a) { return simde_mm_sqrt_ps(a); }
static inline V v_abs(V a) { return simde_mm_andnot_ps(simde_mm_set1_ps(-0.0f), a); }
static inline V v_neg(V a) { return simde_mm_xor_ps(a, simde_mm_set1_ps(-0.0f)); }
/* minps/maxps return the second operand unless the compare holds: exactly
 * a < b ? a : b and a > b ? a : b, NaN included. */
static inline V v_min(V a, V b) { return simde_mm_min_ps(a, b); }
static inline V v_max(V a, V b) { return simde_mm_max_ps(a, b); }
static inline M v_lt(V a, V b) { return simde_mm_cmplt_ps(a, b); }
static inline M v_gt(V a, V b) { return simde_mm_cmpgt_ps(a, b); }
static inline M v_le(V a, V b) { return simde_mm_cmple_ps(a, b); }
static inline M v_ge(V a, V b) { return simde_mm_cmpge_ps(a, b); }
static inline M m_or(M a, M b) { return simde_mm_or_ps(a, b); }
static inline M m_and(M a, M b) { return simde_mm_and_ps(a, b); }
static inline M m_andnot(M a, M b) { return simde_mm_andnot_ps(b, a); }
static inline M m_not(M a)
{
    return simde_mm_xor_ps(a, simde_mm_castsi128_ps(simde_mm_set1_epi32(-1)));
}
static inline V v_sel(M m, V a, V b) { return simde_mm_blendv_ps(b, a, m); }
static inline unsigned m_bits(M m) { return (unsigned)simde_mm_movemask_ps(m); }
static inline M m_cnt_add(M c, M m)
{
    return simde_mm_castsi128_ps(
        simde_mm_add_epi32(simde_mm_castps_si128(c), simde_mm_castps_si128(m)));
}
static inline M m_cnt_gt(M c, int k)
{
    return simde_mm_castsi128_ps(
        simde_mm_cmpgt_epi32(simde_mm_castps_si128(c), simde_mm_set1_epi32(k)));
}
static inline M m_cnt_eq(M c, int k)
{
    return simde_mm_castsi128_ps(
        simde_mm_cmpeq_epi32(simde_mm_castps_si128(c), simde_mm_set1_epi32(k)));
}

#include "../kernels/compress4.h"
static inline P p_make(unsigned bits)
{
    return simde_mm_loadu_si128((const void *)satc_compress4[bits]);
}
static inline V v_perm(V v, P p)
{
    return simde_mm_castsi128_ps(simde_mm_shuffle_epi8(simde_mm_castps_si128(v), p));
}

/* 16 bytes of 4 records: one load each, then a 4x4 transpose. */
#define SATC_VLAYER_REC4 1
SATC_AI void v_load_rec4(const float *p, size_t stride, V out[4])
{
    V a[4];
    for (int q = 0; q < 4; q++)
        a[q] = simde_mm_loadu_ps((const float *)(const void *)((const char *)p + (size_t)q * stride));
    V t0 = simde_mm_unpacklo_ps(a[0], a[1]), t1 = simde_mm_unpackhi_ps(a[0], a[1]);
    V t2 = simde_mm_unpacklo_ps(a[2], a[3]), t3 = simde_mm_unpackhi_ps(a[2], a[3]);
    out[0] = simde_mm_movelh_ps(t0, t2);
    out[1] = simde_mm_movehl_ps(t2, t0);
    out[2] = simde_mm_movelh_ps(t1, t3);
    out[3] = simde_mm_movehl_ps(t3, t1);
}

#define SATC_SIMD_TABLE satc_kernels_sse41
#include "../kernels/kernels.h"
