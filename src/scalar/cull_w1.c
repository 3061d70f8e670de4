/*
 * The scalar path: the generic kernels (../kernels/kernels.h) on a vector
 * layer one lane wide. Plain C, no intrinsics: what runs where no SIMD
 * layer exists (WebAssembly without SIMD128, RISC-V, builds without SIMDe).
 *
 * Why a width-1 instantiation rather than a second scalar culler: every
 * lane of the kernels already evaluates the reference's expressions in its
 * order (cull_scalar.c), and the kernels decide in tiers: the plane tier on
 * every volume, the exact axes only on volumes that cross two or more
 * planes. With one lane the tiers become early decisions per volume, and
 * the loads, frame transform and plane tier inline into one loop per form
 * (the reference calls the general loader and each tier out of line). No
 * expression is written twice, so the bits are the reference's by the same
 * argument as for every SIMD path; checkasm and the robust tests compare
 * this table with satc_kernels_ref (cull_scalar.c) anyway.
 *
 * Masks are 32-bit words, all ones or zero, so that the plane counters
 * (a true lane counts -1) work as in the 4-lane layers. min/max are the
 * reference's a < b ? a : b; C's ordered compares are false on NaN, as
 * the layer's contract asks. -ffp-contract=off (meson.build) keeps every
 * product rounded on its own.
 */
#include <math.h>
#include <stdint.h>

#include "../core/internal.h"

#define W 1
typedef float V;
typedef uint32_t M;
typedef unsigned P;

static inline V v_load(const float *p) { return *p; }
static inline void v_store(float *p, V v) { *p = v; }
static inline V v_set1(float x) { return x; }
static inline V v_add(V a, V b) { return a + b; }
static inline V v_sub(V a, V b) { return a - b; }
static inline V v_mul(V a, V b) { return a * b; }
static inline V v_div(V a, V b) { return a / b; }
static inline V v_sqrt(V a) { return sqrtf(a); }
/* Sign-bit operations: fabsf clears it, unary minus flips it (NaN too). */
static inline V v_abs(V a) { return fabsf(a); }
static inline V v_neg(V a) { return -a; }
static inline V v_min(V a, V b) { return a < b ? a : b; }
static inline V v_max(V a, V b) { return a > b ? a : b; }
static inline M m_of(int c) { return (M)0 - (M)(c != 0); }
static inline M v_lt(V a, V b) { return m_of(a < b); }
static inline M v_gt(V a, V b) { return m_of(a > b); }
static inline M v_le(V a, V b) { return m_of(a <= b); }
static inline M v_ge(V a, V b) { return m_of(a >= b); }
static inline M m_or(M a, M b) { return a | b; }
static inline M m_and(M a, M b) { return a & b; }
static inline M m_andnot(M a, M b) { return a & ~b; }
static inline M m_not(M a) { return ~a; }
static inline V v_sel(M m, V a, V b) { return m ? a : b; }
static inline unsigned m_bits(M m) { return m & 1u; }
static inline M m_cnt_add(M c, M m) { return c + m; }
static inline M m_cnt_gt(M c, int k) { return m_of((int32_t)c > k); }
static inline M m_cnt_eq(M c, int k) { return m_of((int32_t)c == k); }

/* One lane: compaction moves nothing. */
static inline P p_make(unsigned bits) { return bits; }
static inline V v_perm(V v, P p)
{
    (void)p;
    return v;
}

/* A strided element is one load: no gather through a buffer. */
#define SATC_VLAYER_STRIDE 1
static inline V v_load_stride(const float *p, size_t stride)
{
    (void)stride;
    return *p;
}
#define SATC_VLAYER_REC4 1
static inline void v_load_rec4(const float *p, size_t stride, V out[4])
{
    (void)stride;
    out[0] = p[0], out[1] = p[1], out[2] = p[2], out[3] = p[3];
}

/* GCC cannot see that the micro bounds' first lane initialises their
 * running min/max once the loop over a group is unrolled one lane at a
 * time (kernels/bounds.h, j == 0). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#define SATC_SIMD_TABLE satc_kernels_scalar
#include "../kernels/kernels.h"
