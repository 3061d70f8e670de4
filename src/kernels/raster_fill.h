/*
 * The rasterizer's fill, written once for every instruction set: W texels
 * of a row per vector, each lane running exactly the expressions of
 * raster/fill.c (the reference) in the same order, so every path writes
 * the reference's bits.
 *
 * The including file defines a small vector layer first (see
 * src/sse/raster_sse41.c): W, V (W floats), M (a lane mask), v_load
 * v_store v_set1 v_add v_mul v_div (correctly rounded) v_abs (clear the
 * sign bit), ordered compares v_gt v_ge v_le (false on NaN), m_and,
 * v_sel(m, a, b) = m ? a : b, m_any (some lane set), and
 * SATC_RASTER_FILL, the name of the function to define.
 */
#ifndef SATC_RASTER_FILL_H
#define SATC_RASTER_FILL_H

#include "raster_poly.h"

/* W texels of one row from column i (lanes past the polygon's last
 * column computed but not stored). */
static inline V raster_lanes(const satc_rpoly *p, V fi, const V *ve, const V *vz, const V *vl,
                             V old, M *inp)
{
    M in = v_ge(v_add(v_mul(ve[0], fi), ve[1]), v_set1(0.0f));
    for (uint32_t k = 1; k < p->ne; k++)
        in = m_and(in, v_ge(v_add(v_mul(ve[2 * k], fi), ve[2 * k + 1]), v_set1(0.0f)));
    *inp = in;
    if (!m_any(in))
        return old;
    V q = v_set1(-INFINITY);
    for (uint32_t k = 0; k < p->np; k++) {
        V l = v_add(v_mul(vl[2 * k], fi), vl[2 * k + 1]);
        V z = v_add(v_mul(vz[2 * k], fi), vz[2 * k + 1]);
        in = m_and(in, v_gt(l, v_set1(0.0f)));
        V d = v_div(z, l);
        q = v_sel(v_gt(d, q), d, q);
    }
    V out = v_add(q, v_add(v_mul(v_abs(q), v_set1(0x1p-21f)), v_set1(0x1p-100f)));
    V best = v_sel(v_le(old, out), old, out);
    *inp = in;
    return v_sel(in, best, old);
}

/* Merged coverage: W texels per vector as above, whole texels written
 * in the vector; lanes that might cover some cell (fl(e + offmax) >= 0
 * on every edge, every l > 0) but not the whole texel go one by one
 * through satc_rcov_texel, the reference's own code. */
static void raster_fill_cov(const satc_rpoly *p, float *level0, uint32_t width,
                            const satc_rcov *cov)
{
    satc_rcells cl;
    satc_rcells_init(p, &cl);
    float iota_f[W];
    for (int l = 0; l < W; l++)
        iota_f[l] = (float)l;
    V iota = v_load(iota_f), zero = v_set1(0.0f), one = v_set1(1.0f);
    V ve[2 * SATC_RP_EDGES], vo[SATC_RP_EDGES], vz[2 * SATC_RP_PLANES], vl[2 * SATC_RP_PLANES];
    for (uint32_t k = 0; k < p->ne; k++)
        ve[2 * k] = v_set1(p->e[k][0]), vo[k] = v_set1(cl.offmax[k]);
    for (uint32_t k = 0; k < p->np; k++)
        vz[2 * k] = v_set1(p->z[k][0]), vl[2 * k] = v_set1(p->l[k][0]);
    for (int32_t j = p->j0; j < p->j1; j++) {
        float fj = (float)j, re[SATC_RP_EDGES];
        for (uint32_t k = 0; k < p->ne; k++) {
            re[k] = p->e[k][1] * fj + p->e[k][2];
            ve[2 * k + 1] = v_set1(re[k]);
        }
        for (uint32_t k = 0; k < p->np; k++) {
            vz[2 * k + 1] = v_set1(p->z[k][1] * fj + p->z[k][2]);
            vl[2 * k + 1] = v_set1(p->l[k][1] * fj + p->l[k][2]);
        }
        size_t at = (size_t)j * width;
        float *row = level0 + at;
        int32_t i, end;
        satc_rpoly_span_cov(p, &cl, re, &i, &end);
        for (; i < end; i += W) {
            int32_t n = end - i < W ? end - i : W;
            V fi = v_add(v_set1((float)i), iota);
            V e = v_add(v_mul(ve[0], fi), ve[1]);
            M in = v_ge(e, zero), cand = v_ge(v_add(e, vo[0]), zero);
            for (uint32_t k = 1; k < p->ne; k++) {
                e = v_add(v_mul(ve[2 * k], fi), ve[2 * k + 1]);
                in = m_and(in, v_ge(e, zero));
                cand = m_and(cand, v_ge(v_add(e, vo[k]), zero));
            }
            if (!m_any(cand))
                continue;
            V q = v_set1(-INFINITY);
            for (uint32_t k = 0; k < p->np; k++) {
                V l = v_add(v_mul(vl[2 * k], fi), vl[2 * k + 1]);
                V z = v_add(v_mul(vz[2 * k], fi), vz[2 * k + 1]);
                cand = m_and(cand, v_gt(l, zero));
                V d = v_div(z, l);
                q = v_sel(v_gt(d, q), d, q);
            }
            if (!m_any(cand))
                continue;
            in = m_and(in, cand);
            V out = v_add(q, v_add(v_mul(v_abs(q), v_set1(0x1p-21f)), v_set1(0x1p-100f)));
            V part = v_sel(in, zero, v_sel(cand, one, zero));
            if (n == W && !m_any(v_gt(part, zero))) { /* whole texels only */
                V old = v_load(row + i);
                v_store(row + i, v_sel(in, v_sel(v_le(old, out), old, out), old));
                continue;
            }
            float tmp[W], fin[W], fc[W], fo[W];
            for (int l = 0; l < W; l++)
                tmp[l] = l < n ? row[i + l] : INFINITY;
            V old = v_load(tmp);
            v_store(tmp, v_sel(in, v_sel(v_le(old, out), old, out), old));
            v_store(fin, v_sel(in, one, zero));
            v_store(fc, v_sel(cand, one, zero));
            v_store(fo, out);
            for (int32_t l = 0; l < n; l++) {
                if (fin[l] != 0.0f)
                    row[i + l] = tmp[l];
                else if (fc[l] != 0.0f)
                    satc_rcov_texel(p, &cl, re, i + l, fo[l], &row[i + l], cov->depth + at + i + l,
                                    cov->mask + at + i + l);
            }
        }
    }
}

void SATC_RASTER_FILL(const satc_rpoly *p, float *level0, uint32_t width, const satc_rcov *cov)
{
    if (cov) {
        raster_fill_cov(p, level0, width, cov);
        return;
    }
    float iota_f[W];
    for (int l = 0; l < W; l++)
        iota_f[l] = (float)l;
    V iota = v_load(iota_f);
    V ve[2 * SATC_RP_EDGES], vz[2 * SATC_RP_PLANES], vl[2 * SATC_RP_PLANES];
    for (uint32_t k = 0; k < p->ne; k++)
        ve[2 * k] = v_set1(p->e[k][0]);
    for (uint32_t k = 0; k < p->np; k++)
        vz[2 * k] = v_set1(p->z[k][0]), vl[2 * k] = v_set1(p->l[k][0]);
    for (int32_t j = p->j0; j < p->j1; j++) {
        float fj = (float)j, re[SATC_RP_EDGES];
        for (uint32_t k = 0; k < p->ne; k++) {
            re[k] = p->e[k][1] * fj + p->e[k][2];
            ve[2 * k + 1] = v_set1(re[k]);
        }
        for (uint32_t k = 0; k < p->np; k++) {
            vz[2 * k + 1] = v_set1(p->z[k][1] * fj + p->z[k][2]);
            vl[2 * k + 1] = v_set1(p->l[k][1] * fj + p->l[k][2]);
        }
        float *row = level0 + (size_t)j * width;
        int32_t i, end;
        satc_rpoly_span(p, re, &i, &end);
        M in;
        for (; i + W <= end; i += W) {
            V fi = v_add(v_set1((float)i), iota);
            V old = v_load(row + i);
            V r = raster_lanes(p, fi, ve, vz, vl, old, &in);
            if (m_any(in))
                v_store(row + i, r);
        }
        if (i < end) {
            float tmp[W];
            int32_t n = end - i;
            for (int l = 0; l < W; l++)
                tmp[l] = l < n ? row[i + l] : INFINITY;
            V fi = v_add(v_set1((float)i), iota);
            v_store(tmp, raster_lanes(p, fi, ve, vz, vl, v_load(tmp), &in));
            for (int32_t l = 0; l < n; l++)
                row[i + l] = tmp[l];
        }
    }
}

#endif
