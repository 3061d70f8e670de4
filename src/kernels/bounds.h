/* Stage 6: what the views pass reads once for every view: the
 * transposed rows of a chunk (satc_soa_fn) and the world box of every 32
 * volumes (satc_bounds_fn, views_pre.c), for every form and layout. */
#ifndef SATC_K_BOUNDS_H
#define SATC_K_BOUNDS_H

/* satc_soa_fn: the loaders' transposing reads once per chunk, so every
 * view of a satc_cull_views pass reads plain arrays. */
static void soa_copy(const satc_batch *bp, size_t first, size_t n, unsigned flags, float *rows,
                     size_t len)
{
    const satc_batch bl = *bp, *b = &bl;
    const satc_vec3s *v[5];
    const satc_floats *fl;
    int nv = satc_batch_streams(b, v, &fl);
    size_t rec_end = (flags & SATC_K_LAST) ? n : n + 1;
    for (size_t i = 0; i < n; i += W) {
        unsigned nl = n - i < W ? (unsigned)(n - i) : W;
        V t[16];
        int nt = 0;
        for (int q = 0; q < nv; q++, nt += 3)
            ld3p(v[q], q ? v[0] : NULL, first + i, nl, nl == W && i + W < rec_end, &t[nt], LAY_STREAMS);
        if (fl)
            t[nt++] = ld1s(fl->p, fl->stride, first + i, nl, LAY_STREAMS);
        for (int r = 0; r < nt; r++) {
            float *dst = rows + (size_t)r * len + i;
            if (nl == W) {
                v_store(dst, t[r]);
            } else {
                float tmp[W];
                v_store(tmp, t[r]);
                memcpy(dst, tmp, nl * sizeof(float));
            }
        }
    }
}

/* The least (max 0) or greatest (max 1) lane of v: log2(W) halvings,
 * through the layer's v_fold where it has one, else the packing permute;
 * the same operand order either way, so the same bits. */
SATC_AI float h_ext(V v, const int max)
{
    for (unsigned w = W / 2; w >= 1; w /= 2) {
#ifdef SATC_VLAYER_FOLD
        V u = v_fold(v, w);
#else
        V u = v_perm(v, p_make(((1u << w) - 1u) << w));
#endif
        v = max ? v_max(u, v) : v_min(u, v);
    }
    float t[W];
    v_store(t, v);
    return t[0];
}

/*
 * satc_bounds_fn's world box of W volumes of a derived form: lanes a, z
 * (lower and upper corners) and, for instances, p = sum_r sum_k |m_rk
 * lc_k| as load_v sums it (so it is each volume's own S term; a TRS
 * volume's adds its 16 T). A TRS volume is the instance of its matrix. Arvo's
 * box of a mapped box (Graphics Gems, 1990): center t + M lc, half size
 * |M| |lh| per row; an OBB's or half-axis box's half size sum_j |H_j| per
 * component. Half sizes are sums of non-negative products (a few ulps);
 * an instance's center rounds relative to |t| + p; views_pre.c widens
 * by both. A NaN or infinite field reaches a or z.
 */
SATC_AI void derived_box(const satc_batch *b, size_t i, int rec_ok, V a[3], V z[3], V *p,
                         const int form, const int lay)
{
    V c[3], h[3];
    if (form == SATC_FORM_TRS && !b->trs.local) {
        /* a splat: the box of its ball (splat_ball_v), which holds the
         * float box too (within the widening: p = 32 r) */
        const satc_trs *s = &b->trs;
        V q[4], sc[3];
        ld_quat(s, i, W, q);
        ld3s(&s->scale, i, W, rec_ok, sc, LAY_STREAMS);
        if (s->format & SATC_TRS_LOG_SCALE)
            for (int j = 0; j < 3; j++)
                sc[j] = exp_v(sc[j]);
        ld3p(&s->position, &s->scale, i, W, rec_ok, c, LAY_STREAMS);
        V n2 = v_add(v_add(v_add(v_mul(q[0], q[0]), v_mul(q[1], q[1])), v_mul(q[2], q[2])),
                     v_mul(q[3], q[3]));
        M ok = m_and(v_ge(n2, v_set1(SATC_QUAT_N2_MIN)), v_le(n2, v_set1(SATC_QUAT_N2_MAX)));
        V rad = v_mul(v_set1(satc_trs_k(s)),
                      v_add(v_add(v_abs(sc[0]), v_abs(sc[1])), v_abs(sc[2])));
        rad = v_sel(ok, rad, v_set1(NAN));
        for (int q = 0; q < 3; q++)
            h[q] = rad;
        *p = v_mul(v_set1(32.0f), rad);
    } else if (form == SATC_FORM_INSTANCES || form == SATC_FORM_TRS) {
        V m[3][4], lc[3], lh[3], pl[3];
        if (form == SATC_FORM_TRS) {
            ld_trs(&b->trs, i, W, rec_ok, m, lc, lh);
        } else {
            ld_inst(&b->instances, i, W, rec_ok, m, lc, lh, 0);
        }
        for (int k = 0; k < 3; k++)
            lh[k] = v_abs(lh[k]);
        for (int r = 0; r < 3; r++) {
            V p0 = v_mul(m[r][0], lc[0]), p1 = v_mul(m[r][1], lc[1]), p2 = v_mul(m[r][2], lc[2]);
            c[r] = v_add(m[r][3], v_add(v_add(p0, p1), p2));
            pl[r] = v_add(v_add(v_abs(p0), v_abs(p1)), v_abs(p2));
            h[r] = v_add(v_add(v_mul(v_abs(m[r][0]), lh[0]), v_mul(v_abs(m[r][1]), lh[1])),
                         v_mul(v_abs(m[r][2]), lh[2]));
        }
        *p = v_add(v_add(pl[0], pl[1]), pl[2]);
        if (form == SATC_FORM_TRS) /* lh already |lh| */
            *p = v_add(*p, trs_t4(m, lc, lh));
    } else {
        const int obb = form == SATC_FORM_OBB;
        const satc_vec3s *as = obb ? b->obb.axis : b->half_axes.axis;
        V e[3], ax[3];
        const satc_vec3s *cs = obb ? &b->obb.center : &b->half_axes.center;
        V ha[3][3];
        const int rec = !obb && ld_half_rec(&b->half_axes, i, W, c, ha);
        if (!rec)
            ld3s(cs, i, W, rec_ok, c, lay);
        if (obb)
            ld3p(&b->obb.extent, cs, i, W, rec_ok, e, lay);
        for (int j = 0; j < 3; j++) {
            if (rec)
                ax[0] = ha[j][0], ax[1] = ha[j][1], ax[2] = ha[j][2];
            else
                ld3p(&as[j], cs, i, W, rec_ok, ax, lay);
            for (int q = 0; q < 3; q++) {
                V t = obb ? v_mul(v_abs(ax[q]), v_abs(e[j])) : v_abs(ax[q]);
                h[q] = j ? v_add(h[q], t) : t;
            }
        }
    }
    for (int q = 0; q < 3; q++)
        a[q] = v_sub(c[q], h[q]), z[q] = v_add(c[q], h[q]);
}

/*
 * satc_bounds_fn: the world box of every SATC_MICRO consecutive volumes
 * of a batch, read once for all the views of a pass (src/views_pre.c
 * widens and uses them).
 */
SATC_AI void micro_bounds_t(const satc_batch *b, size_t first, size_t n, unsigned flags,
                            float *lo, float *hi, float *xs, const int form, const int lay,
                            const size_t span)
{
    const V fmax_ = v_set1(3.40282347e38f);
    const int inst = form == SATC_FORM_INSTANCES || form == SATC_FORM_TRS;
    const int derived = inst || form == SATC_FORM_OBB || form == SATC_FORM_HALF_AXES;
    size_t nm = n / span, rec_end = (flags & SATC_K_LAST) ? n : n + 1;
    for (size_t g = 0; g < nm; g++) {
        V mn[3], mx[3], sum = v_set1(0.0f), mp = sum;
        for (size_t j = 0; j < span; j += W) {
            size_t i = g * span + j;
            int rec_ok = i + W < rec_end;
            V x[3], y[3], r = sum, p = sum;
            if (derived) {
                derived_box(b, first + i, rec_ok, x, y, &p, form, lay);
            } else if (form == SATC_FORM_AABB) {
                ld3s(&b->aabb.center, first + i, W, rec_ok, x, lay);
                ld3p(&b->aabb.half, &b->aabb.center, first + i, W, rec_ok, y, lay);
            } else if (form == SATC_FORM_MINMAX) {
                ld3s(&b->minmax.min, first + i, W, rec_ok, x, lay);
                ld3p(&b->minmax.max, &b->minmax.min, first + i, W, rec_ok, y, lay);
            } else {
                const satc_vec3s *cs = &b->spheres.center;
                if (lay == LAY_STREAMS && cs->stride >= 4 * sizeof(float) && cs->y == cs->x + 1 &&
                    cs->z == cs->x + 2 && b->spheres.radius.p == cs->x + 3 &&
                    b->spheres.radius.stride == cs->stride) {
                    V t[4];
                    v_load_rec4(satc_at(cs->x, cs->stride, first + i), cs->stride, t);
                    x[0] = t[0], x[1] = t[1], x[2] = t[2], r = t[3];
                } else {
                    ld3s(cs, first + i, W, rec_ok, x, lay);
                    r = ld1s(b->spheres.radius.p, b->spheres.radius.stride, first + i, W, lay);
                }
                r = v_abs(r);
            }
            for (int q = 0; q < 3; q++) {
                V a, z;
                if (derived) {
                    a = x[q], z = y[q];
                } else if (form == SATC_FORM_MINMAX) {
                    a = v_min(x[q], y[q]), z = v_max(x[q], y[q]);
                } else {
                    V e = form == SATC_FORM_AABB ? v_abs(y[q]) : r;
                    a = v_sub(x[q], e), z = v_add(x[q], e);
                }
                /* NaN and infinity reach the sum (min and max may drop them) */
                sum = v_add(sum, v_add(a, z));
                mn[q] = j ? v_min(a, mn[q]) : a;
                mx[q] = j ? v_max(z, mx[q]) : z;
            }
            if (inst) {
                sum = v_add(sum, p);
                mp = j ? v_max(p, mp) : p;
            }
        }
        int ok = m_bits(v_le(v_abs(sum), fmax_)) == SATC_FULL;
        for (int q = 0; q < 3; q++) {
            lo[(size_t)q * nm + g] = ok ? h_ext(mn[q], 0) : NAN;
            hi[(size_t)q * nm + g] = ok ? h_ext(mx[q], 1) : NAN;
        }
        if (xs)
            xs[g] = !ok ? NAN : inst ? h_ext(mp, 1) : 0.0f;
    }
}

/* One variant per form; plain arrays of the forms most often stored so
 * get their own (compile time: each variant is on every path). span: the
 * volumes per box (SATC_MICRO for the views pass; a group's length, a
 * multiple of SATC_MICRO, for satc_group_bounds: one lane reduction per
 * group, the cost of the boxes of 32 on AVX-512). */
static void span_bounds(const satc_batch *b, size_t first, size_t n, size_t span, unsigned flags,
                        float *lo, float *hi, float *xs)
{
    const satc_batch bl = *b;
    const int arrays = batch_soa(&bl);
#define SATC_MB(form_, lay_) micro_bounds_t(&bl, first, n, flags, lo, hi, xs, form_, lay_, span)
    switch (bl.form) {
    case SATC_FORM_AABB:
        if (arrays)
            SATC_MB(SATC_FORM_AABB, LAY_ARRAYS);
        else
            SATC_MB(SATC_FORM_AABB, LAY_STREAMS);
        break;
    case SATC_FORM_OBB:
        if (arrays)
            SATC_MB(SATC_FORM_OBB, LAY_ARRAYS);
        else
            SATC_MB(SATC_FORM_OBB, LAY_STREAMS);
        break;
    case SATC_FORM_MINMAX: SATC_MB(SATC_FORM_MINMAX, LAY_STREAMS); break;
    case SATC_FORM_HALF_AXES: SATC_MB(SATC_FORM_HALF_AXES, LAY_STREAMS); break;
    case SATC_FORM_INSTANCES: SATC_MB(SATC_FORM_INSTANCES, LAY_STREAMS); break;
    case SATC_FORM_TRS: SATC_MB(SATC_FORM_TRS, LAY_STREAMS); break;
    default: SATC_MB(SATC_FORM_SPHERES, LAY_STREAMS); break;
    }
#undef SATC_MB
}

#endif
