/*
 * Occlusion stage: the screen rectangle of each volume the frustum kept,
 * in level-0 texels of a depth pyramid, and its nearest view depth, both
 * rounded so the rectangle contains the volume's and the depth is at
 * most its own (docs/occlusion.md proves the margins). Every lane runs
 * the expressions of scalar/occl_ref.c in the same order. Also the
 * pyramid's max reduction. Included by kernels.h after the loaders.
 */
#ifndef SATC_K_OCCL_H
#define SATC_K_OCCL_H

/* 2^-21 = 8 u: a quotient's relative widening; 2^-10 texel: the texel
 * map's rounding (at most 3 u width < 2^-11.4 texel). */
#define SATC_OC_REL 4.76837158203125e-07f
#define SATC_OC_TEX 9.765625e-04f

typedef struct voc {
    V e2, sx, sy, wm1, hm1, rel, tex, one, inf;
} voc;

SATC_AI V oc_down(const vconst *k, const voc *c, V a)
{
    return v_sub(a, v_add(v_mul(v_abs(a), c->rel), k->tiny));
}
SATC_AI V oc_up(const vconst *k, const voc *c, V a)
{
    return v_add(a, v_add(v_mul(v_abs(a), c->rel), k->tiny));
}

/* A box's slopes over its 8 corners (perspective): each corner moved by
 * e on every frame axis, divided by its nearer or farther depth as the
 * sign asks. out: least and greatest a, then b. */
SATC_AI void oc_corners(const vconst *k, const voc *c, const V *x, V e, V out[4])
{
    V lo_a = c->inf, hi_a = v_neg(c->inf), lo_b = c->inf, hi_b = v_neg(c->inf);
    for (int q = 0; q < 8; q++) {
        V cx = x[F_DX], cy = x[F_DY], cz = x[F_DZ];
        for (int j = 0; j < 3; j++) {
            if (q >> j & 1) {
                cx = v_add(cx, x[F_HX + j]), cy = v_add(cy, x[F_HY + j]);
                cz = v_add(cz, x[F_HZ + j]);
            } else {
                cx = v_sub(cx, x[F_HX + j]), cy = v_sub(cy, x[F_HY + j]);
                cz = v_sub(cz, x[F_HZ + j]);
            }
        }
        V rn = v_div(c->one, v_sub(cz, e)), rf = v_div(c->one, v_add(cz, e));
        V xl = v_sub(cx, e), xh = v_add(cx, e), yl = v_sub(cy, e), yh = v_add(cy, e);
        V al = v_mul(xl, v_sel(v_ge(xl, k->zero), rf, rn));
        V ah = v_mul(xh, v_sel(v_ge(xh, k->zero), rn, rf));
        V bl = v_mul(yl, v_sel(v_ge(yl, k->zero), rf, rn));
        V bh = v_mul(yh, v_sel(v_ge(yh, k->zero), rn, rf));
        lo_a = v_min(lo_a, al), hi_a = v_max(hi_a, ah);
        lo_b = v_min(lo_b, bl), hi_b = v_max(hi_b, bh);
    }
    out[0] = oc_down(k, c, lo_a), out[1] = oc_up(k, c, hi_a);
    out[2] = oc_down(k, c, lo_b), out[3] = oc_up(k, c, hi_b);
}

/* A ball's tangent slopes along one axis (perspective): center (u, z),
 * radius r < z: (u z -+ r q) / ((z - r)(z + r)), q = sqrt(u^2 + z^2 - r^2),
 * each widened by a bound on its rounding (the sqrt's argument may
 * cancel, so its error is divided by q). */
SATC_AI void oc_tangent(const vconst *k, const voc *c, V u, V z, V r, V *lo, V *hi)
{
    V den = v_mul(v_sub(z, r), v_add(z, r));
    V uu = v_mul(u, u), zz = v_mul(z, z), rr = v_mul(r, r);
    V q = v_sqrt(v_add(v_sub(zz, rr), uu));
    V p = v_mul(u, z), g = v_mul(r, q);
    V sum = v_add(v_add(uu, zz), rr);
    V m = v_div(v_add(v_mul(c->rel, v_add(v_abs(p), g)), v_div(v_mul(r, v_mul(c->rel, sum)), q)),
                den);
    V ql = v_div(v_sub(p, g), den), qh = v_div(v_add(p, g), den);
    *lo = oc_down(k, c, v_sub(ql, v_add(m, v_mul(v_abs(ql), c->rel))));
    *hi = oc_up(k, c, v_add(qh, v_add(m, v_mul(v_abs(qh), c->rel))));
}

/* Slopes or positions to clamped texel coordinates, then the outputs. */
SATC_AI void oc_store(const vconst *k, const voc *c, const V s[4], V zmin, V zmax,
                      float (*rect)[SATC_CHUNK], size_t at)
{
    V alo = v_min(v_max(s[0], k->x0), k->x1), ahi = v_min(v_max(s[1], k->x0), k->x1);
    V blo = v_min(v_max(s[2], k->y0), k->y1), bhi = v_min(v_max(s[3], k->y0), k->y1);
    V c0 = v_sub(v_mul(v_sub(k->x1, ahi), c->sx), c->tex);
    V c1 = v_add(v_mul(v_sub(k->x1, alo), c->sx), c->tex);
    V r0 = v_sub(v_mul(v_sub(blo, k->y0), c->sy), c->tex);
    V r1 = v_add(v_mul(v_sub(bhi, k->y0), c->sy), c->tex);
    v_store(rect[SATC_OC_COL0] + at, v_min(v_max(c0, k->zero), c->wm1));
    v_store(rect[SATC_OC_COL1] + at, v_min(v_max(c1, k->zero), c->wm1));
    v_store(rect[SATC_OC_ROW0] + at, v_min(v_max(r0, k->zero), c->hm1));
    v_store(rect[SATC_OC_ROW1] + at, v_min(v_max(r1, k->zero), c->hm1));
    v_store(rect[SATC_OC_ZMIN] + at, zmin);
    v_store(rect[SATC_OC_ZMAX] + at, zmax);
}

/* W volumes from i (chunk position at): the rectangle and the testable mask. */
SATC_AI M oc_step(const vconst *k, const voc *c, const satc_batch *b, size_t i, unsigned nl,
                  int rec_ok, float (*rect)[SATC_CHUNK], size_t at, const int form,
                  const int ortho, const int lay)
{
    vbox o;
    M bad = load_v(k, b, i, nl, rec_ok, &o, form, ortho, lay, 1); /* boxes: their axes */
    V *x = o.v;
    const int sphere = form == SATC_FORM_SPHERES;
    if (!sphere && (form == SATC_FORM_AABB || form == SATC_FORM_MINMAX))
        aabb_axes_v(k, x);
    V e = v_add(v_mul(c->e2, x[F_S]), k->tolt);
    V rz = sphere ? x[F_RAD] : sum_abs3_v(x + F_HZ);
    V zmin = v_sub(v_sub(x[F_DZ], rz), v_add(e, e));
    V zmax = v_add(v_add(x[F_DZ], rz), v_add(e, e));
    V s[4];
    if (ortho) {
        V rx = sphere ? x[F_RAD] : sum_abs3_v(x + F_HX);
        V ry = sphere ? x[F_RAD] : sum_abs3_v(x + F_HY);
        s[0] = v_sub(v_sub(x[F_DX], rx), e), s[1] = v_add(v_add(x[F_DX], rx), e);
        s[2] = v_sub(v_sub(x[F_DY], ry), e), s[3] = v_add(v_add(x[F_DY], ry), e);
    } else if (sphere) {
        V r = v_add(x[F_RAD], e);
        oc_tangent(k, c, x[F_DX], x[F_DZ], r, &s[0], &s[1]);
        oc_tangent(k, c, x[F_DY], x[F_DZ], r, &s[2], &s[3]);
    } else {
        oc_corners(k, c, x, e, s);
    }
    oc_store(k, c, s, zmin, zmax, rect, at);
    return m_andnot(v_gt(zmin, k->n), bad);
}

SATC_AI void occl_chunk(const satc_frustum *f, const satc_occl_consts *oc, const satc_batch *b,
                        size_t first, size_t n, unsigned flags, const uint64_t *vis,
                        float (*rect)[SATC_CHUNK], uint64_t *test, const int form,
                        const int ortho, const int lay)
{
    vconst k;
    voc c;
    vconst_init(&k, f);
    c.e2 = v_set1(oc->e2), c.sx = v_set1(oc->sx), c.sy = v_set1(oc->sy);
    c.wm1 = v_set1(oc->wm1), c.hm1 = v_set1(oc->hm1);
    c.rel = v_set1(SATC_OC_REL), c.tex = v_set1(SATC_OC_TEX);
    c.one = v_set1(1.0f), c.inf = v_set1(INFINITY);
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        test[w] = 0;
    size_t rec_end = (flags & SATC_K_LAST) ? n : n + 1;
    for (size_t i = 0; i < n; i += W) {
        unsigned nl = n - i < W ? (unsigned)(n - i) : W;
        unsigned want = (unsigned)(vis[i / 64] >> (i % 64)) & ((1u << nl) - 1u);
        if (!want)
            continue;
        M t = oc_step(&k, &c, b, first + i, nl, nl == W && i + W < rec_end, rect, i, form, ortho,
                      lay);
        test[i / 64] |= (uint64_t)(m_bits(t) & want) << (i % 64);
    }
}

#define SATC_OCCL_KERNEL(name, form_, ortho_)                                                     \
    static void name(const satc_frustum *f, const satc_occl_consts *oc, const satc_batch *b,      \
                     size_t first, size_t n, unsigned flags, const uint64_t *vis,                 \
                     float (*rect)[SATC_CHUNK], uint64_t *test)                                   \
    {                                                                                             \
        if (form_ == SATC_FORM_INSTANCES && inst64_ok(b)) /* the cull kernels' variant */         \
            occl_chunk(f, oc, b, first, n, flags, vis, rect, test, form_, ortho_, LAY_INST64);    \
        else                                                                                      \
            occl_chunk(f, oc, b, first, n, flags, vis, rect, test, form_, ortho_, LAY_STREAMS);   \
    }
#define SATC_OCCL_FORM(form, tag)                                                                 \
    SATC_OCCL_KERNEL(occl_##tag##_p, form, 0) SATC_OCCL_KERNEL(occl_##tag##_o, form, 1)
SATC_OCCL_FORM(SATC_FORM_OBB, obb)
SATC_OCCL_FORM(SATC_FORM_AABB, aabb)
SATC_OCCL_FORM(SATC_FORM_MINMAX, minmax)
SATC_OCCL_FORM(SATC_FORM_HALF_AXES, half)
SATC_OCCL_FORM(SATC_FORM_INSTANCES, inst)
SATC_OCCL_FORM(SATC_FORM_SPHERES, sphere)
SATC_OCCL_FORM(SATC_FORM_TRS, trs)

/* The reduction: the two rows per column W at a time, then the pairs of
 * columns (satc_reduce_fn). Each value plus 0 first, as the reference:
 * no -0 and, under flush-to-zero, no denormal reaches a max. */
static void reduce_level(const float *src, uint32_t sw, uint32_t sh, float *dst, uint32_t dw,
                         uint32_t dh)
{
    float row[SATC_PYRAMID_MAX_WIDTH];
    const V inf = v_set1(INFINITY), zero = v_set1(0.0f);
    for (uint32_t j = 0; j < dh; j++) {
        const float *r0 = src + (size_t)(2 * j) * sw;
        const float *r1 = 2 * j + 1 < sh ? r0 + sw : r0;
        uint32_t i = 0;
        for (; i + W <= sw; i += W) {
            V a = v_add(v_load(r0 + i), zero), z = v_add(v_load(r1 + i), zero);
            a = v_sel(v_ge(a, a), a, inf), z = v_sel(v_ge(z, z), z, inf);
            v_store(row + i, v_max(a, z));
        }
        for (; i < sw; i++) {
            float a = r0[i] + 0.0f, z = r1[i] + 0.0f;
            a = a == a ? a : INFINITY, z = z == z ? z : INFINITY;
            row[i] = a > z ? a : z;
        }
        float *d = dst + (size_t)j * dw;
        for (uint32_t q = 0; q < dw; q++) {
            float a = row[2 * q], z = row[2 * q + 1 < sw ? 2 * q + 1 : 2 * q];
            d[q] = a > z ? a : z;
        }
    }
}

#endif
