/* AVX-512 kernels (F, VL, DQ, BW: x86-64-v4): 16 boxes per register, lane
 * logic in mask registers, undecided lanes packed by vcompressps. The math
 * is in ../kernels/kernels.h; this file maps its vector layer onto AVX-512
 * through SIMDe: native with -mavx512f/vl/dq/bw, SIMDe's emulation from
 * narrower registers otherwise (built a second time on x86 as
 * satc_kernels_avx512_emu, so machines without AVX-512 run the cross-check
 * too). */
#if defined(SATC_AVX512_NATIVE) && !defined(__AVX512F__)
#error "the native AVX-512 build needs -mavx512f -mavx512vl -mavx512dq -mavx512bw"
#endif
/* No FMA guard here: clang's -mavx512f implies FMA. The bits are kept by
 * -ffp-contract=off, which the build gives every file, and the
 * layer never calls an FMA intrinsic; checkasm compares every lane. */

#include <string.h>

#include <simde/x86/avx512.h>

#include "../core/internal.h"

#define W 16
typedef simde__m512 V;
typedef simde__mmask16 M;
typedef simde__m512i P; /* lane indices */
typedef simde__m512i C; /* plane counters: masks are not vectors here */
#define SATC_VLAYER_COUNT 1
#define SATC_VLAYER_REC4 1

static inline V v_load(const float *p) { return simde_mm512_loadu_ps(p); }
static inline void v_store(float *p, V v) { simde_mm512_storeu_ps(p, v); }
static inline V v_set1(float x) { return simde_mm512_set1_ps(x); }
static inline V v_add(V a, V b) { return simde_mm512_add_ps(a, b); }
static inline V v_sub(V a, V b) { return simde_mm512_sub_ps(a, b); }
static inline V v_mul(V a, V b) { return simde_mm512_mul_ps(a, b); }
static inline V v_div(V a, V b) { return simde_mm512_div_ps(a, b); }
static inline V v_sqrt(V a) { return simde_mm512_sqrt_ps(a); }
static inline V v_abs(V a) { return simde_mm512_andnot_ps(simde_mm512_set1_ps(-0.0f), a); }
static inline V v_neg(V a) { return simde_mm512_xor_ps(a, simde_mm512_set1_ps(-0.0f)); }
/* vminps/vmaxps return the second operand unless the compare holds:
 * exactly a < b ? a : b and a > b ? a : b, NaN included. */
static inline V v_min(V a, V b) { return simde_mm512_min_ps(a, b); }
static inline V v_max(V a, V b) { return simde_mm512_max_ps(a, b); }
/* Ordered, quiet predicates: false when either operand is NaN. */
static inline M v_lt(V a, V b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LT_OQ); }
static inline M v_gt(V a, V b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GT_OQ); }
static inline M v_le(V a, V b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LE_OQ); }
static inline M v_ge(V a, V b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GE_OQ); }
static inline M m_or(M a, M b) { return (M)(a | b); }
static inline M m_and(M a, M b) { return (M)(a & b); }
static inline M m_andnot(M a, M b) { return (M)(a & ~b); }
static inline M m_not(M a) { return (M)~a; }
static inline V v_sel(M m, V a, V b) { return simde_mm512_mask_blend_ps(m, b, a); }
static inline unsigned m_bits(M m) { return (unsigned)m; }

/* Each lane's four bytes as floats (byte quaternions), unsigned or
 * signed; a signed byte b as (b ^ 128) - 128, exact (SIMDe here has no
 * 512-bit arithmetic shift nor signed conversion). */
#define SATC_VLAYER_BYTES 1
static inline void v_bytes4(V w, const int sgn, V out[4])
{
    simde__m512i i = simde_mm512_castps_si512(w), m = simde_mm512_set1_epi32(255);
    simde__m512i x = simde_mm512_set1_epi32(sgn ? 128 : 0);
    simde__m512i b[4] = {simde_mm512_and_si512(i, m),
                         simde_mm512_and_si512(simde_mm512_srli_epi32(i, 8), m),
                         simde_mm512_and_si512(simde_mm512_srli_epi32(i, 16), m),
                         simde_mm512_srli_epi32(i, 24)};
    for (int c = 0; c < 4; c++) {
        out[c] = simde_mm512_cvtepu32_ps(simde_mm512_xor_si512(b[c], x));
        if (sgn)
            out[c] = v_sub(out[c], v_set1(128.0f));
    }
}

/* Counters: each true lane subtracts 1, as the vector layers' -1 masks add. */
static inline C c_zero_v(void) { return simde_mm512_setzero_si512(); }
#define c_zero(k) c_zero_v()
static inline C c_add(C c, M m) { return simde_mm512_mask_sub_epi32(c, m, c, simde_mm512_set1_epi32(1)); }
static inline C c_pair(M a, M b) { return c_add(c_add(c_zero_v(), a), b); }
static inline M c_gt(C c, int k) { return simde_mm512_cmpgt_epi32_mask(c, simde_mm512_set1_epi32(k)); }
static inline M c_eq(C c, int k) { return simde_mm512_cmpeq_epi32_mask(c, simde_mm512_set1_epi32(k)); }

/* Packing: the set lanes of the mask move to the front, in order. One
 * vcompressps of the lane numbers, then a vpermps per field: the queue
 * packs 20 fields by one mask, and vcompressps costs several times a
 * vpermps on some CPUs (AMD family 1Ah: about 2.5 times per field). */
static inline P p_make(unsigned bits)
{
    /* from memory: GCC builds the set form lane by lane at each use */
    static const int32_t lane_no[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const P lanes = simde_mm512_loadu_si512(lane_no);
    return simde_mm512_maskz_compress_epi32((simde__mmask16)bits, lanes);
}
static inline V v_perm(V v, P p) { return simde_mm512_permutexvar_ps(p, v); }

/* A reduction's halving step: lanes [w, 2w) of v in lanes [0, w) (the
 * others any), by shuffles with immediates; the packing permute would
 * need a mask register set from a general one for each step. */
#define SATC_VLAYER_FOLD 1
static inline V v_fold(V v, unsigned w)
{
    switch (w) {
    case 8: return simde_mm512_shuffle_f32x4(v, v, 0xEE); /* blocks 2, 3 */
    case 4: return simde_mm512_shuffle_f32x4(v, v, 0x55); /* block 1 */
    case 2: return simde_mm512_shuffle_ps(v, v, 0xEE);    /* elements 2, 3 of each block */
    default: return simde_mm512_shuffle_ps(v, v, 0x55);   /* element 1 of each block */
    }
}

/* 16 bytes of W records: 128-bit loads, four records per register (record
 * 4L + q in lane L of register q), then a 4x4 transpose in every lane. */
SATC_AI simde__m128 rec_at(const float *p, size_t stride, int j)
{
    return simde_mm_loadu_ps((const float *)(const void *)((const char *)p + (size_t)j * stride));
}
SATC_AI void v_load_rec4(const float *p, size_t stride, V out[4])
{
    V a[4];
    for (int q = 0; q < 4; q++) {
        V r = simde_mm512_castps128_ps512(rec_at(p, stride, q));
        r = simde_mm512_insertf32x4(r, rec_at(p, stride, q + 4), 1);
        r = simde_mm512_insertf32x4(r, rec_at(p, stride, q + 8), 2);
        a[q] = simde_mm512_insertf32x4(r, rec_at(p, stride, q + 12), 3);
    }
    V t0 = simde_mm512_unpacklo_ps(a[0], a[1]), t1 = simde_mm512_unpackhi_ps(a[0], a[1]);
    V t2 = simde_mm512_unpacklo_ps(a[2], a[3]), t3 = simde_mm512_unpackhi_ps(a[2], a[3]);
    out[0] = simde_mm512_shuffle_ps(t0, t2, 0x44);
    out[1] = simde_mm512_shuffle_ps(t0, t2, 0xEE);
    out[2] = simde_mm512_shuffle_ps(t1, t3, 0x44);
    out[3] = simde_mm512_shuffle_ps(t1, t3, 0xEE);
}

/* The 8 words of W records of 32 bytes (stride >= 32): a 64-byte load
 * per record pair when they touch, two 32-byte loads otherwise, then
 * three rounds of shuffles; out[e] holds word e of every record. Two
 * source permutes in the last round put lane L on record L. */
#define SATC_VLAYER_REC8 1
SATC_AI void v_load_rec8(const float *p, size_t stride, V out[8])
{
    V r[8], t[8], u[8];
    for (int j = 0; j < 8; j++) {
        const char *a = (const char *)p + (size_t)(2 * j) * stride;
        if (stride == 32) {
            r[j] = simde_mm512_loadu_ps(a);
        } else {
            V lo = simde_mm512_castps256_ps512(simde_mm256_loadu_ps((const float *)(const void *)a));
            r[j] = simde_mm512_insertf32x8(lo, simde_mm256_loadu_ps((const float *)(const void *)(a + stride)), 1);
        }
    }
    /* records 4g .. 4g + 3 from r[2g], r[2g + 1]: per 128-bit block words
     * e, e + 1 of records 4g, 4g + 2 (blocks 0, 1: words 0-3, 4-7 of the
     * pair's first; 2, 3: of its second) */
    for (int g = 0; g < 4; g++) {
        t[2 * g] = simde_mm512_unpacklo_ps(r[2 * g], r[2 * g + 1]);
        t[2 * g + 1] = simde_mm512_unpackhi_ps(r[2 * g], r[2 * g + 1]);
    }
    /* u[4h + e] (e < 4), records 8h .. 8h + 7: block 0 word e of records
     * 0, 2, 4, 6, block 1 word e + 4 of those, blocks 2, 3 the same of
     * records 1, 3, 5, 7 (all from 8h) */
    for (int h = 0; h < 2; h++) {
        V a0 = t[4 * h], a1 = t[4 * h + 1], b0 = t[4 * h + 2], b1 = t[4 * h + 3];
        u[4 * h + 0] = simde_mm512_shuffle_ps(a0, b0, 0x44);
        u[4 * h + 1] = simde_mm512_shuffle_ps(a0, b0, 0xEE);
        u[4 * h + 2] = simde_mm512_shuffle_ps(a1, b1, 0x44);
        u[4 * h + 3] = simde_mm512_shuffle_ps(a1, b1, 0xEE);
    }
    /* record r of the 16: lane (r & 7) / 2 + 8 (r & 1) (+ 4 for word
     * e + 4) of u[e] (r < 8) or u[4 + e] (r >= 8, + 16 in the permute) */
    int ilo[16], ihi[16];
    for (int r16 = 0; r16 < 16; r16++) {
        int l = ((r16 & 7) >> 1) + 8 * (r16 & 1) + (r16 >= 8 ? 16 : 0);
        ilo[r16] = l, ihi[r16] = l + 4;
    }
    P plo = simde_mm512_loadu_si512(ilo), phi = simde_mm512_loadu_si512(ihi);
    for (int e = 0; e < 4; e++) {
        out[e] = simde_mm512_permutex2var_ps(u[e], plo, u[4 + e]);
        out[e + 4] = simde_mm512_permutex2var_ps(u[e], phi, u[4 + e]);
    }
}

/* W records of 16 floats (64 readable bytes at each, stride >= 64): one
 * load per record, then a 16 x 16 transpose in four rounds of two-source
 * shuffles; out[e] holds element e of every record. A caller's unused
 * outputs are dropped with the shuffles that only they need (a 4x4
 * matrix's bottom row: 52 shuffles where sixteen 16-byte loads, twelve
 * inserts and eight shuffles per four elements took 64 loads and 80). */
#define SATC_VLAYER_REC16 1
static inline void v_load_rec16(const float *p, size_t stride, V out[16])
{
    V r[16], t[16];
    simde__m512d u[4][4];
    for (int j = 0; j < 16; j++)
        r[j] = simde_mm512_loadu_ps((const char *)p + (size_t)j * stride);
    /* 128-bit block q of t[2i], t[2i + 1]: elements 4q, 4q + 1 and 4q + 2,
     * 4q + 3 of records 2i, 2i + 1, interleaved */
    for (int i = 0; i < 8; i++) {
        t[2 * i] = simde_mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = simde_mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    /* u[g][e]: block q holds element 4q + e of records 4g .. 4g + 3 */
    for (int g = 0; g < 4; g++) {
        for (int h = 0; h < 2; h++) {
            simde__m512d a = simde_mm512_castps_pd(t[4 * g + h]);
            simde__m512d b = simde_mm512_castps_pd(t[4 * g + 2 + h]);
            u[g][2 * h] = simde_mm512_unpacklo_pd(a, b);
            u[g][2 * h + 1] = simde_mm512_unpackhi_pd(a, b);
        }
    }
    /* block g of out[4q + e]: block q of u[g][e] (a 4 x 4 block transpose) */
    for (int e = 0; e < 4; e++) {
        V a0 = simde_mm512_castpd_ps(u[0][e]), a1 = simde_mm512_castpd_ps(u[1][e]);
        V a2 = simde_mm512_castpd_ps(u[2][e]), a3 = simde_mm512_castpd_ps(u[3][e]);
        V v0 = simde_mm512_shuffle_f32x4(a0, a1, 0x44), v1 = simde_mm512_shuffle_f32x4(a0, a1, 0xEE);
        V v2 = simde_mm512_shuffle_f32x4(a2, a3, 0x44), v3 = simde_mm512_shuffle_f32x4(a2, a3, 0xEE);
        out[e] = simde_mm512_shuffle_f32x4(v0, v2, 0x88);
        out[4 + e] = simde_mm512_shuffle_f32x4(v0, v2, 0xDD);
        out[8 + e] = simde_mm512_shuffle_f32x4(v1, v3, 0x88);
        out[12 + e] = simde_mm512_shuffle_f32x4(v1, v3, 0xDD);
    }
}

/* W packed float3 (stride 12, the form of float3 arrays): three loads of
 * exactly those 192 bytes, then two permutes per component. */
#define SATC_VLAYER_F3 1
static inline void v_load_f3(const float *p, V out[3])
{
    V l0 = v_load(p), l1 = v_load(p + 16), l2 = v_load(p + 32);
    for (int c = 0; c < 3; c++) {
        int lo[16], hi[16];
        for (int j = 0; j < 16; j++)
            lo[j] = (3 * j + c) & 31, hi[j] = (3 * j + c) & 15;
        V v = simde_mm512_permutex2var_ps(l0, simde_mm512_loadu_si512(lo), l1);
        /* lanes whose float lies in the third load: 3j + c >= 32 */
        simde__mmask16 k = c == 2 ? 0xFC00u : 0xF800u;
        out[c] = simde_mm512_mask_permutexvar_ps(v, k, simde_mm512_loadu_si512(hi), l2);
    }
}

#if defined(SATC_AVX512_EMU)
#define SATC_SIMD_TABLE satc_kernels_avx512_emu
#else
#define SATC_SIMD_TABLE satc_kernels_avx512
#endif
#include "../kernels/kernels.h"
