/* Stage 2: the plane tier (RTR 22.10.2, 22.14.3) for W lanes:
 * satc_planes_persp_ref and satc_planes_ortho_ref expression for
 * expression; out, inside and undecided masks. */
#ifndef SATC_K_PLANE_TIER_H
#define SATC_K_PLANE_TIER_H

/* A mask with no lane set (0 < 0 is false). */
SATC_AI M m_none(const vconst *k) { return v_lt(k->zero, k->zero); }

#ifndef SATC_VLAYER_COUNT
/* Plane counters in the mask vectors themselves (a true lane is -1). */
typedef M C;
#define c_zero(k) m_none(k)
#define c_add m_cnt_add
#define c_pair m_cnt_add
#define c_gt m_cnt_gt
#define c_eq m_cnt_eq
#endif

/* Results of the plane tier for W lanes. */
typedef struct vplanes {
    M vis, inside, und;
} vplanes;

/* Counts of planes a lane is inside of to the plane tier's three masks. */
SATC_AI vplanes planes_result(const vconst *k, M out, M bad, C c, const int need_in)
{
    M gone = m_or(out, bad);
    vplanes p;
    p.vis = m_not(m_andnot(out, bad));
    if (need_in) {
        p.inside = m_andnot(c_eq(c, -6), gone);
        p.und = m_andnot(c_gt(c, -5), gone); /* two or more planes crossed */
    } else {
        p.inside = p.und = m_none(k);
    }
    return p;
}

/* satc_planes_persp_ref. */
SATC_AI vplanes planes_persp_v(const vconst *k, const vbox *o, M bad, const int need_in)
{
    const V *x = o->v;
    V tol = v_add(v_mul(k->epsk, x[F_S]), k->tolt);
    V rz = v_add(x[F_R], tol);
    V rx1 = v_add(x[F_R + 1], tol), rx0 = v_add(x[F_R + 2], tol);
    V ry1 = v_add(x[F_R + 3], tol), ry0 = v_add(x[F_R + 4], tol);
    V d1 = v_sub(x[F_DX], v_mul(k->x1, x[F_DZ])), d0 = v_sub(v_mul(k->x0, x[F_DZ]), x[F_DX]);
    V g1 = v_sub(x[F_DY], v_mul(k->y1, x[F_DZ])), g0 = v_sub(v_mul(k->y0, x[F_DZ]), x[F_DY]);
    V zp = v_add(x[F_DZ], rz), zm = v_sub(x[F_DZ], rz);

    M out = m_or(v_lt(zp, k->n), v_gt(zm, k->f));
    out = m_or(out, m_or(v_gt(v_sub(d1, rx1), k->zero), v_gt(v_sub(d0, rx0), k->zero)));
    out = m_or(out, m_or(v_gt(v_sub(g1, ry1), k->zero), v_gt(v_sub(g0, ry0), k->zero)));
    C c = c_zero(k);
    if (need_in) {
        /* Count the planes the volume is inside of: each true mask adds -1. */
        c = c_pair(v_ge(zm, k->n), v_le(zp, k->f));
        c = c_add(c, v_le(v_add(d1, rx1), k->zero));
        c = c_add(c, v_le(v_add(d0, rx0), k->zero));
        c = c_add(c, v_le(v_add(g1, ry1), k->zero));
        c = c_add(c, v_le(v_add(g0, ry0), k->zero));
    }
    return planes_result(k, out, bad, c, need_in);
}

/* satc_planes_ortho_ref. */
SATC_AI vplanes planes_ortho_v(const vconst *k, const vbox *o, M bad, const int need_in)
{
    const V *x = o->v;
    V tol = v_add(v_mul(k->epsk, x[F_S]), k->tolt);
    V t[3] = {v_sub(x[F_DX], k->c[0]), v_sub(x[F_DY], k->c[1]), v_sub(x[F_DZ], k->c[2])};
    M out = m_none(k);
    C c = c_zero(k);
    for (int q = 0; q < 3; q++) {
        V r = v_add(x[F_R + q], tol);
        out = m_or(out, v_gt(v_sub(v_abs(t[q]), r), k->h[q]));
        if (need_in) {
            c = c_add(c, v_le(v_add(t[q], r), k->h[q]));
            c = c_add(c, v_ge(v_sub(t[q], r), k->nh[q]));
        }
    }
    return planes_result(k, out, bad, c, need_in);
}

#endif
