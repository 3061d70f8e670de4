/* WebAssembly SIMD128 kernels: 4 boxes per register. The math is in
 * ../kernels/kernels.h; this file maps its vector layer onto clang's
 * wasm_simd128.h (-msimd128 only: no relaxed SIMD, whose fused and
 * implementation-defined operations would change the bits). */
#if !defined(__wasm_simd128__)
#error "cull_simd128.c must be compiled with -msimd128"
#endif

#include <wasm_simd128.h>

#include "../core/internal.h"

#define W 4
typedef v128_t V;
typedef v128_t M;
typedef v128_t P;

static inline V v_load(const float *p) { return wasm_v128_load(p); }
static inline void v_store(float *p, V v) { wasm_v128_store(p, v); }
static inline V v_set1(float x) { return wasm_f32x4_splat(x); }
static inline V v_add(V a, V b) { return wasm_f32x4_add(a, b); }
static inline V v_sub(V a, V b) { return wasm_f32x4_sub(a, b); }
static inline V v_mul(V a, V b) { return wasm_f32x4_mul(a, b); }
static inline V v_div(V a, V b) { return wasm_f32x4_div(a, b); }
/* Each lane's four bytes as floats (byte quaternions), unsigned or signed. */
#define SATC_VLAYER_BYTES 1
static inline void v_bytes4(V w, const int sgn, V out[4])
{
    V m = wasm_i32x4_splat(255);
    V b0 = sgn ? wasm_i32x4_shr(wasm_i32x4_shl(w, 24), 24) : wasm_v128_and(w, m);
    V b1 = sgn ? wasm_i32x4_shr(wasm_i32x4_shl(w, 16), 24) : wasm_v128_and(wasm_u32x4_shr(w, 8), m);
    V b2 = sgn ? wasm_i32x4_shr(wasm_i32x4_shl(w, 8), 24) : wasm_v128_and(wasm_u32x4_shr(w, 16), m);
    V b3 = sgn ? wasm_i32x4_shr(w, 24) : wasm_u32x4_shr(w, 24);
    out[0] = wasm_f32x4_convert_i32x4(b0), out[1] = wasm_f32x4_convert_i32x4(b1);
    out[2] = wasm_f32x4_convert_i32x4(b2), out[3] = wasm_f32x4_convert_i32x4(b3);
}
static inline V v_sqrt(V a) { return wasm_f32x4_sqrt(a); }
/* Sign-bit operations on the bits (f32x4.abs and .neg are exactly these). */
static inline V v_abs(V a) { return wasm_f32x4_abs(a); }
static inline V v_neg(V a) { return wasm_f32x4_neg(a); }
/* pmin(x, y) is y < x ? y : x and pmax(x, y) is x < y ? y : x, so with
 * the operands swapped they are the contract's a < b ? a : b and
 * a > b ? a : b, NaN included (f32x4.min/max would propagate NaN). */
static inline V v_min(V a, V b) { return wasm_f32x4_pmin(b, a); }
static inline V v_max(V a, V b) { return wasm_f32x4_pmax(b, a); }
/* Ordered compares: false on NaN. */
static inline M v_lt(V a, V b) { return wasm_f32x4_lt(a, b); }
static inline M v_gt(V a, V b) { return wasm_f32x4_gt(a, b); }
static inline M v_le(V a, V b) { return wasm_f32x4_le(a, b); }
static inline M v_ge(V a, V b) { return wasm_f32x4_ge(a, b); }
static inline M m_or(M a, M b) { return wasm_v128_or(a, b); }
static inline M m_and(M a, M b) { return wasm_v128_and(a, b); }
static inline M m_andnot(M a, M b) { return wasm_v128_andnot(a, b); }
static inline M m_not(M a) { return wasm_v128_not(a); }
static inline V v_sel(M m, V a, V b) { return wasm_v128_bitselect(a, b, m); }
static inline unsigned m_bits(M m) { return (unsigned)wasm_i32x4_bitmask(m); }
static inline M m_cnt_add(M c, M m) { return wasm_i32x4_add(c, m); }
static inline M m_cnt_gt(M c, int k) { return wasm_i32x4_gt(c, wasm_i32x4_splat(k)); }
static inline M m_cnt_eq(M c, int k) { return wasm_i32x4_eq(c, wasm_i32x4_splat(k)); }

#include "../kernels/compress4.h"
static inline P p_make(unsigned bits) { return wasm_v128_load(satc_compress4[bits]); }
/* i8x16.swizzle: every index of the table is < 16, so no lane is zeroed. */
static inline V v_perm(V v, P p) { return wasm_i8x16_swizzle(v, p); }

/* 16 bytes of 4 records: one load each, then a 4x4 transpose. */
#define SATC_VLAYER_REC4 1
SATC_AI void v_load_rec4(const float *p, size_t stride, V out[4])
{
    V a[4];
    for (int q = 0; q < 4; q++)
        a[q] = wasm_v128_load((const char *)p + (size_t)q * stride);
    V t0 = wasm_i32x4_shuffle(a[0], a[1], 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(a[0], a[1], 2, 6, 3, 7);
    V t2 = wasm_i32x4_shuffle(a[2], a[3], 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(a[2], a[3], 2, 6, 3, 7);
    out[0] = wasm_i64x2_shuffle(t0, t2, 0, 2);
    out[1] = wasm_i64x2_shuffle(t0, t2, 1, 3);
    out[2] = wasm_i64x2_shuffle(t1, t3, 0, 2);
    out[3] = wasm_i64x2_shuffle(t1, t3, 1, 3);
}

#define SATC_SIMD_TABLE satc_kernels_simd128
#include "../kernels/kernels.h"
