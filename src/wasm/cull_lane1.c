/* The generic kernels one volume per "vector" (W = 1), in plain scalar
 * instructions: the scalar wasm module's path. The same expressions as
 * src/scalar/cull_scalar.c in the same order (the kernels' contract), but
 * batched per chunk like the SIMD paths (per-frustum constants hoisted,
 * the exact axes only for the volumes the planes leave undecided), which
 * the reference's per-volume dispatch is not. */
#include <math.h>
#include <stdint.h>

#include "../core/internal.h"

#define W 1
typedef float V;
typedef int32_t M; /* 0 or -1 */
typedef int P;

static inline V v_load(const float *p) { return *p; }
static inline void v_store(float *p, V v) { *p = v; }
static inline V v_set1(float x) { return x; }
static inline V v_add(V a, V b) { return a + b; }
static inline V v_sub(V a, V b) { return a - b; }
static inline V v_mul(V a, V b) { return a * b; }
static inline V v_abs(V a) { return fabsf(a); }
static inline V v_neg(V a) { return -a; }
static inline V v_min(V a, V b) { return a < b ? a : b; }
static inline V v_max(V a, V b) { return a > b ? a : b; }
static inline M v_lt(V a, V b) { return -(M)(a < b); }
static inline M v_gt(V a, V b) { return -(M)(a > b); }
static inline M v_le(V a, V b) { return -(M)(a <= b); }
static inline M v_ge(V a, V b) { return -(M)(a >= b); }
static inline M m_or(M a, M b) { return a | b; }
static inline M m_and(M a, M b) { return a & b; }
static inline M m_andnot(M a, M b) { return a & ~b; }
static inline M m_not(M a) { return ~a; }
static inline V v_sel(M m, V a, V b) { return m ? a : b; }
static inline unsigned m_bits(M m) { return (unsigned)m & 1u; }
static inline M m_cnt_add(M c, M m) { return c + m; }
static inline M m_cnt_gt(M c, int k) { return -(M)(c > k); }
static inline M m_cnt_eq(M c, int k) { return -(M)(c == k); }
/* One lane: moving the set lanes to the front moves nothing. */
static inline P p_make(unsigned bits) { return (int)bits; }
static inline V v_perm(V v, P p) { return (void)p, v; }

#define SATC_SIMD_TABLE satc_kernels_lane1
#include "../kernels/kernels.h"
