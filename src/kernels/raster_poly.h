/* The rasterizer's screen polygon, what its setup (raster/setup.c) hands
 * to the fills: the reference (raster/fill.c) and each path's
 * (kernels/raster_fill.h in the vector layers). */
#ifndef SATC_RASTER_POLY_H
#define SATC_RASTER_POLY_H

#include "../core/internal.h"

/* Most edges of a polygon: a box's silhouette has 6; a face 4 and the
 * near edge; a triangle 3 and the near edge. */
#define SATC_RP_EDGES 6
/* Most depth planes: the front faces of a box. */
#define SATC_RP_PLANES 3

/*
 * One convex screen polygon in texel coordinates (u, v): column i spans
 * u in [i, i + 1], row j spans v in [j, j + 1]. With fi = (float)i and
 * fj = (float)j, every linear function g = (g0, g1, g2) is evaluated in
 * float as
 *     r = fl(g1 * fj + g2)  (once per row),   g(i, j) = fl(fl(g0 * fi) + r).
 * Texel (i, j) is covered when e[k](i, j) >= 0 for every edge k < ne
 * (NaN: not covered) and its depth planes g[k], k < np, pass:
 *   perspective (ortho 0): g[k] bounds 1 / depth from below; every
 *     g[k](i, j) > 0, q = min_k g[k](i, j), depth
 *     fl(d + fl(fl(d * 2^-21) + 2^-100)) with d = fl(1 / q);
 *   orthographic (ortho 1): g[k] bounds depth from above; no g[k](i, j)
 *     NaN, depth max_k g[k](i, j).
 * The texel then stores the least of that depth and its value (a NaN
 * texel counts as +Inf).
 * Setup folds into each constant term the texel corner where the function
 * is least (edges, perspective planes) or greatest (orthographic planes)
 * and a margin covering every rounding, so in exact arithmetic over the
 * texel's whole rectangle: edges >= 0, and where a ray enters the
 * occluder through plane k (the farthest front plane it crosses, at
 * depth >= n), perspective g[k] <= 1 / that depth, orthographic
 * g[k] >= it. Hence 1 / q (max_k g[k]) is no nearer than the entry, and
 * the raise by 2^-21 of d more than covers the rounding of d (2^-24):
 * the depth is never nearer than the surface (docs/raster.md, "Depth
 * bounds"). One division per texel (perspective), none (orthographic).
 */
typedef struct satc_rpoly {
    int32_t i0, i1, j0, j1; /* texels [i0, i1) x [j0, j1) may be covered */
    uint32_t ne, np;
    uint32_t ortho; /* the planes' form: 0 perspective, 1 orthographic */
    /* Perspective: a depth no texel's bound is nearer than (0 when
     * unknown: every bound is positive); a texel already no farther
     * keeps its bits, so fills may pass over it. */
    float zlo;
    float e[SATC_RP_EDGES][3];
    float g[SATC_RP_PLANES][3];
} satc_rpoly;

/*
 * Merged coverage: each level-0 texel's two working layers, each the
 * cells of its 4 x 4 grid (cell (x, y) spans u in [i + x/4, i + (x + 1)/4],
 * v likewise; bit 4 y + x) that its polygons have covered whole since it
 * was last emptied, and the farthest depth bound among those polygons.
 * mask 0: empty (depth then means nothing). Texel t's layers are
 * [2 t] and [2 t + 1]; row stride: twice the level's width.
 */
typedef struct satc_rcov {
    float *depth;
    uint16_t *mask;
} satc_rcov;

#define SATC_RC_FULL 0xFFFFu

/*
 * A polygon's cell offsets: off[k][c] added to edge k's texel value
 * e[k](i, j) gives a float whose being >= 0 proves the edge holds over
 * cell c whole (docs/raster.md); offmax[k] >= 0 and >= every off[k][c],
 * so fl(e + offmax) < 0 rules out every cell of the texel.
 */
typedef struct satc_rcells {
    float off[SATC_RP_EDGES][16]; /* filled when first needed (ready) */
    float offmax[SATC_RP_EDGES];
    const satc_rpoly *p;
    int ready;
} satc_rcells;

void satc_rcells_init(const satc_rpoly *p, satc_rcells *c);

/* Fills c->off (c->ready set). */
void satc_rcells_table(satc_rcells *c);

/* A texel that the polygon does not cover whole (depth bound out over
 * the whole texel, every plane passing there; the texel holds old): 0 when the
 * merge cannot change it, else 1 with the offset table ready. */
static inline int satc_rcov_open(satc_rcells *c, float out, float old)
{
    if (!(out < INFINITY))
        return 0; /* NaN or +Inf: nothing to merge */
    if (old <= out)
        return 0; /* the texel is nearer already (a NaN texel counts as +Inf) */
    if (!c->ready)
        satc_rcells_table(c);
    return 1;
}

/* The cells of edge k that hold over the texel whose edge value is e:
 * bit q set when fl(e + off[q]) >= 0 (NaN: clear). The vector fills
 * run this expression 4, 8 or 16 cells per vector. */
static inline unsigned satc_rcov_edge_cells(float e, const float off[16])
{
    unsigned m = 0;
    for (int q = 0; q < 16; q++)
        m |= (unsigned)(e + off[q] >= 0.0f) << q;
    return m;
}

/* The texel's covered cells (the AND over its edges) merged into its
 * two layers (lm[0..1], ld[0..1]), the texel *t written when a layer, or
 * the two together, fill it. A layer no nearer than the texel can never
 * lower it: it counts as empty. Cells a layer holds no farther add
 * nothing; a layer no nearer than out takes the cells at no cost (the
 * nearest such; it becomes (cells, out) when the cells hold all of it);
 * else an empty layer starts with them, or the farther layer takes them
 * (its depth rises least), so the nearer one stays as it was.
 * The selections go through satc_rcov_pick, never a min or max
 * instruction: under DAZ those return a subnormal operand as 0 while a
 * compare-and-select keeps its bits, so a compiler's choice between them
 * would change the answer from one build to the next. */
/* c ? a : b where c is a float comparison of a and b: the condition
 * passes through an empty asm, so no compiler can fold the select into
 * a min or max instruction (legal in IEEE arithmetic once the operands
 * are known not to be NaN, but under DAZ those return a subnormal
 * operand as 0, and only some compilations made them: Clang did in the
 * reference and not in the SIMDe builds). */
static inline float satc_rcov_pick(int c, float a, float b)
{
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(c));
#endif
    return c ? a : b;
}

static inline void satc_rcov_merge(unsigned cells, float out, float *t, float *ld, uint16_t *lm)
{
    if (!cells)
        return;
    if (cells == SATC_RC_FULL) {
        *t = out;
        return;
    }
    float old = *t, d[2];
    unsigned m[2];
    for (int k = 0; k < 2; k++) {
        m[k] = lm[k], d[k] = ld[k];
        if (!(d[k] < old))
            m[k] = 0, d[k] = INFINITY;
        if (m[k] && (cells & m[k]) == cells && d[k] <= out)
            return;
    }
    int g = -1;
    for (int k = 0; k < 2; k++)
        if (m[k] && out <= d[k] && (g < 0 || d[k] < d[g]))
            g = k;
    if (g >= 0) {
        if ((cells & m[g]) == m[g])
            d[g] = out;
        m[g] |= cells;
    } else {
        g = !m[0] ? 0 : !m[1] ? 1 : d[0] >= d[1] ? 0 : 1;
        m[g] |= cells;
        d[g] = out;
    }
    float best = INFINITY;
    for (int k = 0; k < 2; k++)
        if (m[k] == SATC_RC_FULL)
            best = satc_rcov_pick(d[k] <= best, d[k], best);
    if (m[0] && m[1] && (m[0] | m[1]) == SATC_RC_FULL) {
        float u = satc_rcov_pick(d[0] >= d[1], d[0], d[1]);
        best = satc_rcov_pick(u <= best, u, best);
    }
    if (best < INFINITY) {
        *t = satc_rcov_pick(best <= old, best, old);
        for (int k = 0; k < 2; k++)
            if (m[k] == SATC_RC_FULL || !(d[k] < *t))
                m[k] = 0, d[k] = INFINITY;
    }
    for (int k = 0; k < 2; k++)
        lm[k] = (uint16_t)m[k], ld[k] = d[k];
}

/* Texel i of a row (edge constant terms re) as satc_rcov_open, the
 * cells above and satc_rcov_merge: the reference's partly covered texel. */
void satc_rcov_texel(const satc_rpoly *p, satc_rcells *c, const float *re, int32_t i, float out,
                     float *t, float *ld, uint16_t *lm);

/* Writes one polygon into level 0 (row stride width floats); cov NULL:
 * whole texels only, else the merged coverage too. */
typedef void (*satc_raster_fill_fn)(const satc_rpoly *p, float *level0, uint32_t width,
                                    const satc_rcov *cov);

void satc_raster_fill_ref(const satc_rpoly *p, float *level0, uint32_t width, const satc_rcov *cov);
void satc_raster_fill_sse41(const satc_rpoly *p, float *level0, uint32_t width, const satc_rcov *cov);
void satc_raster_fill_avx2(const satc_rpoly *p, float *level0, uint32_t width, const satc_rcov *cov);
void satc_raster_fill_avx512(const satc_rpoly *p, float *level0, uint32_t width, const satc_rcov *cov);
void satc_raster_fill_avx512_emu(const satc_rpoly *p, float *level0, uint32_t width,
                                 const satc_rcov *cov);
void satc_raster_fill_neon(const satc_rpoly *p, float *level0, uint32_t width, const satc_rcov *cov);
void satc_raster_fill_simd128(const satc_rpoly *p, float *level0, uint32_t width,
                              const satc_rcov *cov);

/* Row j's constant terms, fl(g1 * fj + g2) for every edge (re) and
 * depth plane (rg): each path's row setup. */
static inline void satc_rpoly_row(const satc_rpoly *p, int32_t j, float *re, float *rg)
{
    float fj = (float)j;
    for (uint32_t k = 0; k < p->ne; k++)
        re[k] = p->e[k][1] * fj + p->e[k][2];
    for (uint32_t k = 0; k < p->np; k++)
        rg[k] = p->g[k][1] * fj + p->g[k][2];
}

/* Texel column fi of a row (plane constant terms rg) as the comment of
 * satc_rpoly states: 1 when every plane passes, the depth in *out. */
static inline int satc_rpoly_depth(const satc_rpoly *p, float fi, const float *rg, float *out)
{
    int pass = 1;
    if (p->ortho) {
        float q = -INFINITY;
        for (uint32_t k = 0; k < p->np; k++) {
            float z = p->g[k][0] * fi + rg[k];
            pass &= z >= z;
            q = z > q ? z : q;
        }
        *out = q;
        return pass;
    }
    float q = INFINITY;
    for (uint32_t k = 0; k < p->np; k++) {
        float g = p->g[k][0] * fi + rg[k];
        pass &= g > 0.0f;
        q = q > g ? g : q;
    }
    float d = 1.0f / q;
    *out = d + (d * 0x1p-21f + 0x1p-100f);
    return pass;
}

/* fmax and fmin inline (the libm calls were a large part of the setup's
 * time): a NaN operand yields the other, equal operands (signed zeros)
 * the second, the same on every platform. */
static inline double satc_dmax(double a, double b) { return a > b || b != b ? a : b; }
static inline double satc_dmin(double a, double b) { return a < b || b != b ? a : b; }

/* Columns [*lo, *hi) of a row outside which no texel passes every edge
 * k < ne (ne = p->ne), from the row's constant terms re[k]: a superset
 * (the per-texel test still decides), so skipping the rest changes no bit. A float value
 * fl(fl(a i) + r) >= 0 implies a i + r >= -slack in exact arithmetic,
 * slack above its rounding (2^-20 of the magnitudes, and 2^-120 for
 * flush-to-zero); non-finite terms keep the whole range. */
static inline void satc_rpoly_span(const satc_rpoly *p, uint32_t ne, const float *re, int32_t *lo,
                                   int32_t *hi)
{
    double l = p->i0, h = p->i1, imax = fabs((double)p->i0) + fabs((double)p->i1) + 1;
    for (uint32_t k = 0; k < ne; k++) {
        double a = p->e[k][0], r = re[k];
        if (!isfinite(a) || !isfinite(r))
            continue;
        double slack = 0x1p-20 * (fabs(a) * imax + fabs(r)) + 0x1p-120;
        if (a > 0)
            l = satc_dmax(l, floor((-r - slack) / a) - 1);
        else if (a < 0)
            h = satc_dmin(h, ceil((-r - slack) / a) + 2);
        else if (r < -slack)
            h = l;
    }
    if (!(l < h))
        h = l = p->i0;
    *lo = (int32_t)l;
    *hi = (int32_t)h;
}

/* Rectangles at most this many columns wide skip the spans: testing
 * each texel of a row costs less than the span's divisions. Merged
 * coverage's spans decide which texels take cells, so every path uses
 * this one; without it a path may pass over more
 * (SATC_RP_SPAN_MIN_PLAIN: 16-lane vectors test a row so fast that the
 * demo city at 1280 x 720 drew 6 % faster with 256 than with 64, while
 * 4 and 8 lanes drew 1-4 % slower). */
#define SATC_RP_SPAN_MIN 64
#define SATC_RP_SPAN_MIN_PLAIN(w) ((w) >= 16 ? 256 : SATC_RP_SPAN_MIN)

/* The span with merged coverage: the whole row of a rectangle at most
 * SATC_RP_SPAN_MIN wide, else the span of the relaxed constants
 * fl(re[k] + offmax[k]). It holds the row's span: offmax >= 0, and each
 * edge's bound only loosens as its constant grows (-r - slack falls
 * with r, every rounding monotone). Texels it leaves out are left alone
 * (safe); every path uses it, so the bits agree. */
static inline void satc_rpoly_span_cov(const satc_rpoly *p, uint32_t ne, const satc_rcells *c,
                                       const float *re, int32_t *lo, int32_t *hi)
{
    if (p->i1 - p->i0 <= SATC_RP_SPAN_MIN) {
        *lo = p->i0;
        *hi = p->i1;
        return;
    }
    float rr[SATC_RP_EDGES];
    for (uint32_t k = 0; k < ne; k++)
        rr[k] = re[k] + c->offmax[k];
    satc_rpoly_span(p, ne, rr, lo, hi);
}

#endif
