/*
 * The rasterizer's fill, written once for every instruction set: W texels
 * of a row per vector, each lane running exactly the expressions of
 * raster/fill.c (the reference) in the same order, so every path writes
 * the reference's bits.
 *
 * The including file defines a small vector layer first (see
 * src/sse/raster_sse41.c): W, V (W floats), M (a lane mask), v_load
 * v_store v_set1 v_add v_mul v_div (correctly rounded), ordered
 * compares v_gt v_ge v_le (false on NaN), m_and,
 * v_sel(m, a, b) = m ? a : b, m_any (some lane set), m_bits (bit l set
 * for lane l set), and
 * SATC_RASTER_FILL, the name of the function to define.
 */
#ifndef SATC_RASTER_FILL_H
#define SATC_RASTER_FILL_H

#include "raster_poly.h"

#if defined(__GNUC__) || defined(__clang__)
#define RF_INLINE __attribute__((always_inline))
#else
#define RF_INLINE
#endif

/* The depth of W texels (satc_rpoly_depth lane by lane) from the
 * products pg[k] = fl(g0 * fi) and the row's constant terms vg[2 k + 1]:
 * lanes whose planes fail are cleared from *in; ortho is a constant in
 * each copy of the fill. */
static inline RF_INLINE V raster_depth_p(uint32_t np, int ortho, const V *pg, const V *vg, M *in)
{
    M pass = *in;
    if (ortho) {
        V q = v_set1(-INFINITY);
        for (uint32_t k = 0; k < np; k++) {
            V z = v_add(pg[k], vg[2 * k + 1]);
            pass = m_and(pass, v_ge(z, z));
            q = v_sel(v_gt(z, q), z, q);
        }
        *in = pass;
        return q;
    }
    V q = v_set1(INFINITY);
    for (uint32_t k = 0; k < np; k++) {
        V g = v_add(pg[k], vg[2 * k + 1]);
        pass = m_and(pass, v_gt(g, v_set1(0.0f)));
        q = v_sel(v_gt(q, g), g, q);
    }
    *in = pass;
    V d = v_div(v_set1(1.0f), q);
    return v_add(d, v_add(v_mul(d, v_set1(0x1p-21f)), v_set1(0x1p-100f)));
}

/* The same at columns fi, vg holding each plane's x coefficient at [2 k]. */
static inline RF_INLINE V raster_depth(uint32_t np, int ortho, V fi, const V *vg, M *in)
{
    V pg[SATC_RP_PLANES];
    for (uint32_t k = 0; k < np; k++)
        pg[k] = v_mul(vg[2 * k], fi);
    return raster_depth_p(np, ortho, pg, vg, in);
}

/* W texels of one row from column i, the lanes of live only (the
 * others keep old). */
static inline RF_INLINE V raster_lanes(uint32_t ne, uint32_t np, int ortho, V fi, const V *ve,
                                       const V *vg, V old, M live, M *inp)
{
    M in = m_and(live, v_ge(v_add(v_mul(ve[0], fi), ve[1]), v_set1(0.0f)));
    for (uint32_t k = 1; k < ne; k++)
        in = m_and(in, v_ge(v_add(v_mul(ve[2 * k], fi), ve[2 * k + 1]), v_set1(0.0f)));
    *inp = in;
    if (!m_any(in))
        return old;
    V out = raster_depth(np, ortho, fi, vg, &in);
    V best = v_sel(v_le(old, out), old, out);
    *inp = in;
    return v_sel(in, best, old);
}

/* Whether every texel of old is already no farther than z, the
 * polygon's least depth bound (perspective): its vector keeps its bits. */
static inline RF_INLINE int raster_nearer(V old, V vz, unsigned full, int ortho)
{
    return !ortho && m_bits(v_le(old, vz)) == full;
}

/* The broadcast x coefficients: ve, vg hold each function's at [2 k]
 * (the row's constant term goes to [2 k + 1]). */
static inline RF_INLINE void raster_coef(const satc_rpoly *p, uint32_t ne, uint32_t np, V *ve,
                                         V *vg)
{
    for (uint32_t k = 0; k < ne; k++)
        ve[2 * k] = v_set1(p->e[k][0]);
    for (uint32_t k = 0; k < np; k++)
        vg[2 * k] = v_set1(p->g[k][0]);
}

/* Row constants ahead of the rows that use them: for rows [j, j + n)
 * (n <= RF_ROWS), rc[k][r] = fl(g1 * fj + g2) of edge k (k < ne) and of
 * plane k - ne (after the edges) at row j + r, satc_rpoly_row's
 * expressions W rows per vector (fj = fl(j + r) + lane, exact), so the
 * row loops read each as one broadcast from memory. */
#define RF_ROWS 64
#define RF_FUNCS (SATC_RP_EDGES + SATC_RP_PLANES)
static inline RF_INLINE void raster_rows(const satc_rpoly *p, uint32_t ne, uint32_t np, int32_t j,
                                         int32_t n, V iota, float (*rc)[RF_ROWS])
{
    for (int32_t r = 0; r < n; r += W) {
        V fj = v_add(v_set1((float)(j + r)), iota);
        for (uint32_t k = 0; k < ne; k++)
            v_store(&rc[k][r], v_add(v_mul(v_set1(p->e[k][1]), fj), v_set1(p->e[k][2])));
        for (uint32_t k = 0; k < np; k++)
            v_store(&rc[ne + k][r], v_add(v_mul(v_set1(p->g[k][1]), fj), v_set1(p->g[k][2])));
    }
}

/* Row r of a block from raster_rows as raster_row leaves it. */
static inline RF_INLINE void raster_row_at(uint32_t ne, uint32_t np, float (*rc)[RF_ROWS], int32_t r,
                                           float *re, V *ve, V *vg)
{
    for (uint32_t k = 0; k < ne; k++) {
        re[k] = rc[k][r];
        ve[2 * k + 1] = v_set1(re[k]);
    }
    for (uint32_t k = 0; k < np; k++)
        vg[2 * k + 1] = v_set1(rc[ne + k][r]);
}

/* satc_rcov_edge_cells, W cells per vector: the same float add and
 * compare per cell. */
static inline unsigned raster_edge_cells(float e, const float *off)
{
    V ve = v_set1(e), zero = v_set1(0.0f);
    unsigned m = 0;
    for (int q = 0; q < 16; q += W)
        m |= m_bits(v_ge(v_add(ve, v_load(off + q)), zero)) << q;
    return m;
}

/* Merged coverage: W texels per vector as above, whole texels written
 * in the vector; lanes that might cover some cell (fl(e + offmax) >= 0
 * on every edge, every plane passing) but not the whole texel, and that
 * pass satc_rcov_open's tests (run in the vector), go one by one through
 * the reference's satc_rcov_merge, their cells tested W per vector. */
static inline RF_INLINE void raster_fill_cov(const satc_rpoly *p, uint32_t ne, uint32_t np,
                                             int ortho, float *level0, uint32_t width,
                                             const satc_rcov *cov)
{
    satc_rcells cl;
    satc_rcells_init(p, &cl);
    float iota_f[W];
    for (int l = 0; l < W; l++)
        iota_f[l] = (float)l;
    V iota = v_load(iota_f), zero = v_set1(0.0f), vz = v_set1(p->zlo);
    const unsigned full = m_bits(v_ge(iota, zero));
    V ve[2 * SATC_RP_EDGES], vo[SATC_RP_EDGES], vg[2 * SATC_RP_PLANES];
    raster_coef(p, ne, np, ve, vg);
    for (uint32_t k = 0; k < ne; k++)
        vo[k] = v_set1(cl.offmax[k]);
    /* a rectangle one vector wide: every row's one vector at i0 (its
     * span is the whole row), the products fl(g0 * fi) once */
    int one = p->i1 - p->i0 <= W;
    V pe[SATC_RP_EDGES], pg[SATC_RP_PLANES];
    if (one) {
        V f0 = v_add(v_set1((float)p->i0), iota);
        for (uint32_t k = 0; k < ne; k++)
            pe[k] = v_mul(ve[2 * k], f0);
        for (uint32_t k = 0; k < np; k++)
            pg[k] = v_mul(vg[2 * k], f0);
    }
    float rc[RF_FUNCS][RF_ROWS];
    for (int32_t j = p->j0; j < p->j1; j++) {
        int32_t r = (j - p->j0) % RF_ROWS;
        if (!r)
            raster_rows(p, ne, np, j, p->j1 - j < RF_ROWS ? p->j1 - j : RF_ROWS, iota, rc);
        float re[SATC_RP_EDGES];
        raster_row_at(ne, np, rc, r, re, ve, vg);
        size_t at = (size_t)j * width;
        float *row = level0 + at;
        int32_t i, end;
        satc_rpoly_span_cov(p, ne, &cl, re, &i, &end);
        for (; i < end; i += W) {
            int32_t n = end - i < W ? end - i : W;
            /* texels no farther than any bound keep their bits, merged
             * or not (satc_rcov_open leaves them alone) */
            if (i + W <= (int32_t)width && raster_nearer(v_load(row + i), vz, full, ortho))
                continue;
            V fi = v_add(v_set1((float)i), iota), ek[SATC_RP_EDGES];
            ek[0] = v_add(one ? pe[0] : v_mul(ve[0], fi), ve[1]);
            M in = v_ge(ek[0], zero), cand = v_ge(v_add(ek[0], vo[0]), zero);
            if (n < W)
                cand = m_and(cand, v_gt(v_set1((float)n), iota));
            for (uint32_t k = 1; k < ne; k++) {
                ek[k] = v_add(one ? pe[k] : v_mul(ve[2 * k], fi), ve[2 * k + 1]);
                in = m_and(in, v_ge(ek[k], zero));
                cand = m_and(cand, v_ge(v_add(ek[k], vo[k]), zero));
            }
            if (!m_any(cand))
                continue;
            V out = one ? raster_depth_p(np, ortho, pg, vg, &cand)
                        : raster_depth(np, ortho, fi, vg, &cand);
            unsigned bc = m_bits(cand);
            if (!bc)
                continue;
            in = m_and(in, cand);
            unsigned part = bc & ~m_bits(in);
            float tmp[W], fo[W], ev[SATC_RP_EDGES][W];
            float *old_at = row + i;
            /* past the polygon's end: a lane outside cand keeps its bits,
             * in place when the row has room */
            if (n < W && i + W > (int32_t)width) {
                for (int l = 0; l < W; l++)
                    tmp[l] = l < n ? row[i + l] : INFINITY;
                old_at = tmp;
            }
            V old = v_load(old_at);
            M nearer = v_le(old, out);
            v_store(old_at, v_sel(in, v_sel(nearer, old, out), old));
            if (old_at == tmp)
                for (int32_t l = 0; l < n; l++)
                    row[i + l] = tmp[l];
            /* satc_rcov_open's tests in the vector: the partly covered
             * lanes whose texels are nearer already, or whose out is not
             * below +Inf, never reach the cells (the others are open) */
            part &= m_bits(v_gt(v_set1(INFINITY), out)) & ~m_bits(nearer);
            if (!part)
                continue;
            v_store(fo, out);
            for (uint32_t k = 0; k < ne; k++)
                v_store(ev[k], ek[k]);
            if (!cl.ready)
                satc_rcells_table(&cl);
            for (; part; part &= part - 1u) {
                int l = __builtin_ctz(part);
                float *t = &row[i + l];
                unsigned cells = SATC_RC_FULL;
                for (uint32_t k = 0; k < ne; k++) /* no early exit: it mispredicts */
                    cells &= raster_edge_cells(ev[k][l], cl.off[k]);
                satc_rcov_merge(cells, fo[l], t, cov->depth + 2 * (at + i + l),
                                cov->mask + 2 * (at + i + l));
            }
        }
    }
}

/* A rectangle one vector wide whose row has room: the same columns on
 * every row, so the products fl(g0 * fi) once for all rows. */
static inline RF_INLINE void raster_fill_one(const satc_rpoly *p, uint32_t ne, uint32_t np,
                                             int ortho, float *level0, uint32_t width, V iota,
                                             V *ve, V *vg)
{
    V fi = v_add(v_set1((float)p->i0), iota), pe[SATC_RP_EDGES], pg[SATC_RP_PLANES];
    M live = v_gt(v_set1((float)(p->i1 - p->i0)), iota);
    V vz = v_set1(p->zlo);
    const unsigned full = m_bits(v_ge(iota, v_set1(0.0f)));
    for (uint32_t k = 0; k < ne; k++)
        pe[k] = v_mul(ve[2 * k], fi);
    for (uint32_t k = 0; k < np; k++)
        pg[k] = v_mul(vg[2 * k], fi);
    float rc[RF_FUNCS][RF_ROWS];
    for (int32_t jb = p->j0; jb < p->j1; jb += RF_ROWS) {
        int32_t nr = p->j1 - jb < RF_ROWS ? p->j1 - jb : RF_ROWS;
        raster_rows(p, ne, np, jb, nr, iota, rc);
        float *at = level0 + (size_t)jb * width + p->i0;
        for (int32_t r = 0; r < nr; r++, at += width) {
            V old = v_load(at);
            if (raster_nearer(old, vz, full, ortho))
                continue; /* no farther than any bound already */
            M in = live;
            for (uint32_t k = 0; k < ne; k++)
                in = m_and(in, v_ge(v_add(pe[k], v_set1(rc[k][r])), v_set1(0.0f)));
            if (!m_any(in))
                continue;
            for (uint32_t k = 0; k < np; k++)
                vg[2 * k + 1] = v_set1(rc[ne + k][r]);
            V out = raster_depth_p(np, ortho, pg, vg, &in);
            v_store(at, v_sel(in, v_sel(v_le(old, out), old, out), old));
        }
    }
}

/* Without merged coverage. */
static inline RF_INLINE void raster_fill_whole(const satc_rpoly *p, uint32_t ne, uint32_t np,
                                               int ortho, float *level0, uint32_t width)
{
    float iota_f[W];
    for (int l = 0; l < W; l++)
        iota_f[l] = (float)l;
    V iota = v_load(iota_f);
    M all = v_ge(iota, v_set1(0.0f));
    V vz = v_set1(p->zlo);
    const unsigned full = m_bits(all);
    V ve[2 * SATC_RP_EDGES], vg[2 * SATC_RP_PLANES];
    raster_coef(p, ne, np, ve, vg);
    if (p->i1 - p->i0 <= W && p->i0 + W <= (int32_t)width) {
        raster_fill_one(p, ne, np, ortho, level0, width, iota, ve, vg);
        return;
    }
    /* the span is a superset of the covered texels: skipping it changes
     * no bit, and saves time on narrow rectangles */
    int narrow = p->i1 - p->i0 <= SATC_RP_SPAN_MIN_PLAIN(W);
    float rc[RF_FUNCS][RF_ROWS];
    for (int32_t j = p->j0; j < p->j1; j++) {
        int32_t r = (j - p->j0) % RF_ROWS;
        if (!r)
            raster_rows(p, ne, np, j, p->j1 - j < RF_ROWS ? p->j1 - j : RF_ROWS, iota, rc);
        float re[SATC_RP_EDGES];
        raster_row_at(ne, np, rc, r, re, ve, vg);
        float *row = level0 + (size_t)j * width;
        int32_t i = p->i0, end = p->i1;
        if (!narrow)
            satc_rpoly_span(p, ne, re, &i, &end);
        M in;
        for (; i + W <= end; i += W) {
            V old = v_load(row + i);
            if (raster_nearer(old, vz, full, ortho))
                continue; /* no farther than any bound already */
            V fi = v_add(v_set1((float)i), iota);
            V r = raster_lanes(ne, np, ortho, fi, ve, vg, old, all, &in);
            if (m_any(in))
                v_store(row + i, r);
        }
        if (i >= end)
            continue;
        int32_t n = end - i;
        V fi = v_add(v_set1((float)i), iota);
        M live = v_gt(v_set1((float)n), iota);
        if (i + W <= (int32_t)width) {
            /* the row has room: the lanes past the end keep their bits */
            V old = v_load(row + i);
            if (raster_nearer(old, vz, full, ortho))
                continue;
            V r = raster_lanes(ne, np, ortho, fi, ve, vg, old, live, &in);
            if (m_any(in))
                v_store(row + i, r);
            continue;
        }
        float tmp[W];
        for (int l = 0; l < W; l++)
            tmp[l] = l < n ? row[i + l] : INFINITY;
        v_store(tmp, raster_lanes(ne, np, ortho, fi, ve, vg, v_load(tmp), live, &in));
        for (int32_t l = 0; l < n; l++)
            row[i + l] = tmp[l];
    }
}

/* The common shapes each their own copy, loops unrolled: triangles
 * (3 edges, or 4 with the near edge), faces with the near edge (5),
 * box silhouettes (4 edges and 1 plane, 6 and 2 or 3) and pairs (6, 2). */
#define RF_SHAPES(call, o, ...)                                                                    \
    switch (p->ne * 4 + p->np) {                                                                   \
    case 3 * 4 + 1: call(p, 3, 1, o, __VA_ARGS__); break;                                          \
    case 4 * 4 + 1: call(p, 4, 1, o, __VA_ARGS__); break;                                          \
    case 5 * 4 + 1: call(p, 5, 1, o, __VA_ARGS__); break;                                          \
    case 6 * 4 + 2: call(p, 6, 2, o, __VA_ARGS__); break;                                          \
    case 6 * 4 + 3: call(p, 6, 3, o, __VA_ARGS__); break;                                          \
    default: call(p, p->ne, p->np, o, __VA_ARGS__); break;                                         \
    }

void SATC_RASTER_FILL(const satc_rpoly *p, float *level0, uint32_t width, const satc_rcov *cov)
{
#ifdef RF_NARROW
    /* a path with narrower vectors writes the same bits, and costs less
     * (its division above all) on rectangles that fit in one of them */
    if (p->i1 - p->i0 <= RF_NARROW_W) {
        RF_NARROW(p, level0, width, cov);
        return;
    }
#endif
    if (cov) {
        if (p->ortho) {
            RF_SHAPES(raster_fill_cov, 1, level0, width, cov)
        } else {
            RF_SHAPES(raster_fill_cov, 0, level0, width, cov)
        }
    } else if (p->ortho) {
        RF_SHAPES(raster_fill_whole, 1, level0, width)
    } else {
        RF_SHAPES(raster_fill_whole, 0, level0, width)
    }
}

#endif
