/* What the passes share: the one-view runner (run.c) and group bounds
 * (groups.c), used by the single cull, the views pass and the queries.
 * Passes sit above the kernels, forms and volumes, and below the API. */
#ifndef SATC_PASSES_H
#define SATC_PASSES_H

#include "../core/internal.h"

/* Volumes [lo, hi) of group g. */
static inline void satc_group_range(const satc_groups *gs, size_t g, size_t *lo, size_t *hi)
{
    if (gs->size) {
        *lo = g * gs->size;
        *hi = *lo + gs->size;
    } else {
        *lo = gs->offsets[g];
        *hi = gs->offsets[g + 1];
    }
}

/* The first group whose range ends after volume i (ngroups if none). */
size_t satc_group_at(const satc_groups *gs, size_t i);

/* Asks the caches for volumes [lo, hi) of b (every stream of its form):
 * scattered groups are read while others are worked on. */
void satc_prefetch(const satc_batch *b, size_t lo, size_t hi);

/* Class bytes of n volumes from a kernel's vis and inside words. */
void satc_put_classes(uint8_t *dst, const uint64_t *vis, const uint64_t *in, size_t n);

/* Validates the call and runs it on kernels k (NULL: SATC_ERR_ISA). */
satc_status satc_cull_run(const satc_kernels *k, const satc_frustum *f, const satc_batch *b,
                          size_t first, size_t count, satc_mode mode, satc_results *out);

/* satc_cull_run on a validated call, also writing depth[k] (k->depth,
 * NaN as SATC_DEPTH_NAN_BITS) for the k-th visible volume when depth is not
 * NULL (out->indices set), and then, when range is not NULL, the least
 * and greatest finite depth written in range[0], range[1] (+Inf, -Inf
 * when none is finite). */
void satc_cull_chunks(const satc_kernels *k, const satc_frustum *f, const satc_batch *b,
                      size_t first, size_t count, satc_mode mode, satc_results *out, float *depth,
                      float *range);

/* satc_cull_depth on kernels k (not NULL), for the tests that compare a
 * path the dispatcher would not pick. */
satc_status satc_cull_depth_k(const satc_kernels *k, const satc_frustum *f, const satc_batch *b,
                              size_t first, size_t count, satc_mode mode, satc_results *out,
                              satc_depth_results *d);

/* A view's plane test in world form for group bounds (passes/groups.c):
 * plane p is g_p(x) = m[p] . (x - O) - off[p], inside where <= 0, in the
 * kernels' units; col1, eps_k, tol_t and rho give a volume's largest
 * tolerance. A plane volume's planes are read from its frustum (vol),
 * the others' 6 at most kept here: 64 views' views fit in 20 KB of stack. */
typedef struct satc_gview {
    int np;
    const satc_frustum *vol; /* SATC_FRUSTUM_PLANES: its planes; else NULL */
    double m[6][3], off[6];
    double in_shift; /* a plane volume's margin2: inside needs this much more */
    int far_p;        /* the far plane's index (-1: none) */
    int in_only;      /* a plane for SATC_INSIDE only, never culling (-1: none) */
    double far_shift; /* what inside needs more there: f - f_in (a matrix frustum's tilted far plane) */
    double O[3], col1[3], eps_k, tol_t;
    double rho; /* instances: the local offsets' share of S per unit of bound size */
    double mnorm; /* min over planes of |m_p|_1: a move d along every axis moves g_p by d |m_p|_1 */
} satc_gview;

void satc_gview_init(satc_gview *g, const satc_frustum *f, const satc_batch *b);

/* -1: every volume in the bound (c, h) is culled by the flat cull; 1:
 * every one is visible and inside; 0: undecided. */
int satc_group_decide(const satc_gview *g, const float c[3], const float h[3]);

/* The same with xs, an upper bound on the extra S term (instances' sum_r
 * sum_k |m_rk lc_k|, as the kernels compute it in float; 0 for other
 * forms) of every volume in the bound, in place of rho sum_k h_k
 * (NaN: undecided). */
int satc_group_decide_x(const satc_gview *g, const float c[3], const float h[3], double xs);

/* The largest tolerance (tol_b, as satc_group_decide uses it) of any
 * volume inside the box [lo, hi] whose extra S term is at most xs (as
 * satc_group_decide_x); +Inf when no volume there is decidable. */
double satc_group_tol(const satc_gview *g, const double lo[3], const double hi[3], double xs);

/* Bits [at, at + n) of dst set. */
void satc_set_bits(uint64_t *dst, size_t at, size_t n);

/* Kernel fn on volumes [lo, hi) of the chunk [first, end), its bits ORed
 * into vis and inside at lo - first (flags as for the whole chunk). */
void satc_run_part(satc_kernel_fn fn, const satc_frustum *f, const satc_batch *b, size_t first,
                   size_t end, unsigned flags, size_t lo, size_t hi, uint64_t *vis, uint64_t *in);

/* A chunk (n <= SATC_CHUNK) through the batch's group bounds, filling
 * vis and inside as kernel fn would (fn itself when there are none). */
void satc_chunk_run(satc_kernel_fn fn, const satc_frustum *f, const satc_gview *gv,
                    const satc_batch *b, size_t first, size_t n, unsigned flags, uint64_t *vis,
                    uint64_t *inside);

#endif
