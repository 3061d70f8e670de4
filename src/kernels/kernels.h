/*
 * The SIMD kernels, written once for every instruction set. Each lane runs
 * exactly the expressions of src/scalar/cull_scalar.c in the same order so every path gives the reference's bits.
 *
 * The including file defines a vector layer first (see src/sse/cull_sse41.c):
 *   W                       lanes per vector
 *   V, M, P                 float vector, lane mask (all ones / zero), lane permutation
 *   v_load v_store          unaligned load / store of W floats
 *   v_set1 v_add v_sub v_mul v_div (correctly rounded) v_abs (clear the
 *                           sign bit) v_neg (flip it)
 *   v_min v_max             a < b ? a : b and a > b ? a : b, also on NaN
 *   v_div v_sqrt            correctly rounded quotient and square root
 *   v_lt v_gt v_le v_ge     ordered compares: false on NaN
 *   m_and m_or m_andnot(a, b) = a & ~b, m_not, v_sel(m, a, b) = m ? a : b
 *   m_bits                  lane j's mask to bit j of an unsigned
 *   m_cnt_add(c, m)         lane-wise integer c + m (a true mask counts -1)
 *   m_cnt_gt(c, k) m_cnt_eq(c, k)   lane-wise integer compares with k
 *     (a layer whose masks are not vectors, AVX-512's, defines instead a
 *     counter type C with c_zero c_add c_pair(m1, m2) c_gt c_eq and
 *     SATC_VLAYER_COUNT)
 *   p_make(bits) v_perm(v, p)       move the lanes named by bits to the front
 *   SATC_SIMD_TABLE         the name of the satc_kernels table to define
 *
 * Work per chunk: the plane tier (RTR 22.10.2, 22.14.3) on every vector;
 * in exact mode the lanes it leaves undecided (crossing two or more planes)
 * are packed into a small buffer, already transformed, and the remaining
 * separating axes (Eberly §4-5; Gomez, OBB and OBB for orthographic frusta) run on
 * full vectors of them. Tails go through a zero-padded copy.
 *
 * Stages, one header each, included in this order:
 *   consts.h        helpers, per-frustum constants, a volume as lanes
 *   load.h          every form into the shared frame (the loaders)
 *   plane_tier.h    the plane tier
 *   axes.h          the exact separating axes
 *   plane_volumes.h plane volumes (both tiers)
 *   sphere.h        the exact sphere tier
 *   exact_queue.h   undecided lanes queued for the exact tier
 *   early_out.h     one-lane layers: early decisions of culled volumes
 *   chunk.h         step, chunk loop, emitted bits; the kernels of each form
 *   bounds.h        the views pass's rows and bounds
 *   multi.h         views sharing loads
 *   occl.h          occlusion: screen rectangles and depths; the pyramid's reduction
 * This file is what a vector layer (src/sse, src/neon, src/wasm) includes.
 */
#ifndef SATC_KERNELS_H
#define SATC_KERNELS_H

#include "consts.h"
#include "load.h"
#include "plane_tier.h"
#include "axes.h"
#include "plane_volumes.h"

#undef hx
#undef hy
#undef hz
#undef ABS_PAIR

#include "sphere.h"
#include "exact_queue.h"
#include "early_out.h"
#include "chunk.h"
#include "bounds.h"
#include "multi.h"
#include "occl.h"
#include "key16.h"

/* satc_key16_fn: the one loop, vectorized with this file's flags. */
static void key16_loop(const float *d, size_t n, double lo, double scale, uint16_t *k)
{
    satc_key16_loop(d, n, lo, scale, k);
}

const satc_kernels SATC_SIMD_TABLE = {{{NULL, NULL, NULL},
                                       {cull_obb_p, cull_obb_o, cull_obb_v},
                                       {cull_aabb_p, cull_aabb_o, cull_aabb_v},
                                       {cull_minmax_p, cull_minmax_o, cull_minmax_v},
                                       {cull_half_p, cull_half_o, cull_half_v},
                                       {cull_inst_p, cull_inst_o, cull_inst_v},
                                       {cull_sphere_p, cull_sphere_o, cull_sphere_v},
                                       {cull_trs_p, cull_trs_o, cull_trs_v}},
                                      soa_copy,
                                      {NULL, span_bounds, span_bounds, span_bounds, span_bounds,
                                       span_bounds, span_bounds, span_bounds},
                                      {NULL, multi_obb, multi_aabb, multi_minmax, multi_half,
                                       multi_inst, multi_sphere, multi_trs},
                                      {{NULL, NULL},
                                       {occl_obb_p, occl_obb_o},
                                       {occl_aabb_p, occl_aabb_o},
                                       {occl_minmax_p, occl_minmax_o},
                                       {occl_half_p, occl_half_o},
                                       {occl_inst_p, occl_inst_o},
                                       {occl_sphere_p, occl_sphere_o},
                                       {occl_trs_p, occl_trs_o}},
                                      reduce_level,
                                      depth_chunk,
                                      {cull_splat_p, cull_splat_o},
                                      key16_loop};

#endif
