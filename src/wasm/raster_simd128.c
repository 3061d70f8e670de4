/* The rasterizer's fill on WebAssembly SIMD128: 4 texels per register
 * (the math is in ../kernels/raster_fill.h; -msimd128 only, no relaxed
 * SIMD). */
#if !defined(__wasm_simd128__)
#error "raster_simd128.c must be compiled with -msimd128"
#endif

#include <wasm_simd128.h>

#define W 4
typedef v128_t V;
typedef v128_t M;
static inline V v_load(const float *p) { return wasm_v128_load(p); }
static inline void v_store(float *p, V v) { wasm_v128_store(p, v); }
static inline V v_set1(float x) { return wasm_f32x4_splat(x); }
static inline V v_add(V a, V b) { return wasm_f32x4_add(a, b); }
static inline V v_mul(V a, V b) { return wasm_f32x4_mul(a, b); }
static inline V v_div(V a, V b) { return wasm_f32x4_div(a, b); }
static inline M v_gt(V a, V b) { return wasm_f32x4_gt(a, b); }
static inline M v_ge(V a, V b) { return wasm_f32x4_ge(a, b); }
static inline M v_le(V a, V b) { return wasm_f32x4_le(a, b); }
static inline M m_and(M a, M b) { return wasm_v128_and(a, b); }
static inline V v_sel(M m, V a, V b) { return wasm_v128_bitselect(a, b, m); }
static inline int m_any(M m) { return wasm_v128_any_true(m); }
static inline unsigned m_bits(M m) { return (unsigned)wasm_i32x4_bitmask(m); }

#define SATC_RASTER_FILL satc_raster_fill_simd128
#include "../kernels/raster_fill.h"
