/*
 * Plane volumes (SATC_FRUSTUM_PLANES) for W lanes: satc_planes_vol_ref and
 * satc_axes_vol_ref (src/scalar/cull_planes.c), expression for expression.
 * Included by kernels.h after axes.h (fields at x[q * st],
 * hx(m) etc. defined); the loaders run with the volume's identity frame.
 */
#ifndef SATC_PLANES_SIMD_H
#define SATC_PLANES_SIMD_H

/* The plane tier; AABB forms still hold h_j in the half-axis slots. */
SATC_AI vplanes planes_vol_v(const vconst *k, const vbox *o, M bad, const int form,
                             const int need_in)
{
    const V *x = o->v;
    const int np = (int)k->fr->nplanes;
    V tol = v_add(v_mul(k->epsk, x[F_S]), k->tolt);
    M out = m_none(k);
    C c = c_zero(k);
    for (int p = 0; p < np; p++) {
        const float *fp = k->fr->plane[p];
        const V pl[4] = {v_set1(fp[0]), v_set1(fp[1]), v_set1(fp[2]), v_set1(fp[3])};
        V s = v_add(v_add(v_add(v_mul(pl[0], x[F_DX]), v_mul(pl[1], x[F_DY])), v_mul(pl[2], x[F_DZ])),
                    pl[3]);
        V r;
        if (form == SATC_FORM_SPHERES) {
            r = x[F_RAD];
        } else if (form == SATC_FORM_AABB || form == SATC_FORM_MINMAX) {
            const V a[3] = {v_abs(pl[0]), v_abs(pl[1]), v_abs(pl[2])};
            r = v_add(v_add(v_mul(a[0], x[F_HX]), v_mul(a[1], x[F_HX + 1])), v_mul(a[2], x[F_HX + 2]));
        } else {
            const size_t st = 1;
            r = proj_sum_v(x, st, pl[0], pl[1], pl[2]);
        }
        V rt = v_add(r, tol);
        out = m_or(out, v_lt(v_add(s, rt), k->zero));
        if (need_in)
            c = c_add(c, v_ge(v_sub(s, rt), k->margin2));
    }
    M gone = m_or(out, bad);
    vplanes res;
    res.vis = m_not(m_andnot(out, bad));
    if (need_in) {
        res.inside = m_andnot(c_eq(c, -np), gone);
        res.und = m_andnot(c_gt(c, 1 - np), gone); /* two or more planes crossed */
    } else {
        res.inside = res.und = m_none(k);
    }
    return res;
}

/* axis_vol: the box's interval on M against the volume's vertices'. */
SATC_AI M axis_vol_v(const vconst *k, const V *x, size_t st, V mx, V my, V mz, V tol)
{
    const satc_frustum *f = k->fr;
    V d = v_add(v_add(v_mul(mx, x[F_DX * st]), v_mul(my, x[F_DY * st])), v_mul(mz, x[F_DZ * st]));
    V r = v_add(proj_sum_v(x, st, mx, my, mz),
                v_mul(tol, v_add(v_add(v_abs(mx), v_abs(my)), v_abs(mz))));
    r = v_add(r, k->tiny);
    const float *v = f->vert[0];
    V lo = v_add(v_add(v_mul(mx, v_set1(v[0])), v_mul(my, v_set1(v[1]))), v_mul(mz, v_set1(v[2])));
    V hi = lo;
    for (uint32_t m = 1; m < f->nverts; m++) {
        v = f->vert[m];
        V p = v_add(v_add(v_mul(mx, v_set1(v[0])), v_mul(my, v_set1(v[1]))), v_mul(mz, v_set1(v[2])));
        lo = v_min(p, lo);
        hi = v_max(p, hi);
    }
    return m_or(v_gt(v_sub(d, r), hi), v_lt(v_add(d, r), lo));
}

/* satc_axes_vol_ref for W lanes; stops once every lane is separated. */
SATC_NI M axes_vol_v(const vconst *k, const V *x, size_t st)
{
    const satc_frustum *f = k->fr;
    V tol = v_add(v_mul(k->epsk, x[F_S * st]), k->tolt);
    vcross g;
    cross_v(&g, x, st);
    M sep = m_none(k);
    for (int i = 0; i < 3; i++) {
        int j = satc_oj[i], q = satc_ok[i];
        sep = m_or(sep, axis_vol_v(k, x, st, g.X[j][q], g.Y[j][q], g.Z[j][q], tol));
    }
    for (uint32_t e = 0; e < f->nedges && m_bits(sep) != SATC_FULL; e++) {
        V ex = v_set1(f->edge[e][0]), ey = v_set1(f->edge[e][1]), ez = v_set1(f->edge[e][2]);
        for (int i = 0; i < 3; i++) {
            V mx = v_sub(v_mul(ey, hz(i)), v_mul(ez, hy(i)));
            V my = v_sub(v_mul(ez, hx(i)), v_mul(ex, hz(i)));
            V mz = v_sub(v_mul(ex, hy(i)), v_mul(ey, hx(i)));
            sep = m_or(sep, axis_vol_v(k, x, st, mx, my, mz, tol));
        }
    }
    return sep;
}

#endif
