/*
 * The exact sphere tier for W lanes: satc_sphere_sep_persp_ref and
 * satc_sphere_sep_ortho_ref (src/scalar/cull_scalar.c), expression for
 * expression. Included by kernels.h; fields at x[q * st] as there.
 */
#ifndef SATC_SPHERE_SIMD_H
#define SATC_SPHERE_SIMD_H

/* 2^-100: see SPHERE_D2_FLOOR in the reference. */
#define SATC_SPHERE_D2_FLOOR 7.888609052210118e-31f
/* 2^-126: see SPHERE_CC_FLOOR in the reference. */
#define SATC_SPHERE_CC_FLOOR 1.1754943508222875e-38f

SATC_AI M edge_near_v(const V w[3], const V v[3], V rr, V zero)
{
    V wv = v_add(v_add(v_mul(w[0], v[0]), v_mul(w[1], v[1])), v_mul(w[2], v[2]));
    V vv = v_add(v_add(v_mul(v[0], v[0]), v_mul(v[1], v[1])), v_mul(v[2], v[2]));
    V c0 = v_sub(v_mul(w[1], v[2]), v_mul(w[2], v[1]));
    V c1 = v_sub(v_mul(w[2], v[0]), v_mul(w[0], v[2]));
    V c2 = v_sub(v_mul(w[0], v[1]), v_mul(w[1], v[0]));
    V cc = v_add(v_add(v_mul(c0, c0), v_mul(c1, c1)), v_mul(c2, c2));
    return m_and(m_and(v_gt(wv, zero), v_lt(wv, vv)),
                 v_le(cc, v_add(v_mul(rr, vv), v_set1(SATC_SPHERE_CC_FLOOR))));
}

SATC_AI M side_face_v(V delta, V qz, V v, V v0, V v1, V n, V fb, V tol, V zero)
{
    M m = m_and(v_ge(delta, zero), v_le(v_sub(n, qz), tol));
    m = m_and(m, v_le(v_sub(qz, fb), tol));
    m = m_and(m, v_le(v_sub(v_mul(v0, qz), v), tol));
    return m_and(m, v_le(v_sub(v, v_mul(v1, qz)), tol));
}

/* A rectangle face at depth z (near or far), p beyond it when out >= 0. */
SATC_AI M cap_face_v(const vconst *k, V out, V px, V py, V z, V tol)
{
    M m = m_and(v_ge(out, k->zero), v_le(v_sub(px, v_mul(k->x1, z)), tol));
    m = m_and(m, v_le(v_sub(v_mul(k->x0, z), px), tol));
    m = m_and(m, v_le(v_sub(py, v_mul(k->y1, z)), tol));
    return m_and(m, v_le(v_sub(v_mul(k->y0, z), py), tol));
}

SATC_NI M sphere_sep_persp_v(const vconst *k, const V *x, size_t st)
{
    const V zero = k->zero, n = k->n;
    V px = x[F_DX * st], py = x[F_DY * st], pz = x[F_DZ * st];
    V tol = v_add(v_add(v_mul(k->epsk, x[F_S * st]), k->tolt), k->tiny);
    V rt = v_add(x[F_RAD * st], tol);
    V rr = v_add(v_mul(rt, rt), v_set1(SATC_SPHERE_D2_FLOOR));
    V fb = v_min(v_add(pz, rt), k->f);
    M vis = point_in_v(k, px, py, pz);

    vis = m_or(vis, cap_face_v(k, v_sub(n, pz), px, py, n, tol));
    vis = m_or(vis, cap_face_v(k, v_sub(pz, fb), px, py, fb, tol));
    V dl = v_sub(px, v_mul(k->x1, pz));
    vis = m_or(vis, side_face_v(dl, v_add(pz, v_mul(v_mul(k->x1, dl), k->inv[0])), py, k->y0,
                                k->y1, n, fb, tol, zero));
    dl = v_sub(v_mul(k->x0, pz), px);
    vis = m_or(vis, side_face_v(dl, v_sub(pz, v_mul(v_mul(k->x0, dl), k->inv[1])), py, k->y0,
                                k->y1, n, fb, tol, zero));
    dl = v_sub(py, v_mul(k->y1, pz));
    vis = m_or(vis, side_face_v(dl, v_add(pz, v_mul(v_mul(k->y1, dl), k->inv[2])), px, k->x0,
                                k->x1, n, fb, tol, zero));
    dl = v_sub(v_mul(k->y0, pz), py);
    vis = m_or(vis, side_face_v(dl, v_sub(pz, v_mul(v_mul(k->y0, dl), k->inv[3])), px, k->x0,
                                k->x1, n, fb, tol, zero));

    V xs[2] = {k->x0, k->x1}, ys[2] = {k->y0, k->y1}, zs[2] = {n, fb};
    V Vt[2][2][2][3], w[2][2][2][3];
    for (int c = 0; c < 2; c++) {
        for (int b = 0; b < 2; b++) {
            for (int a = 0; a < 2; a++) {
                V *vv = Vt[c][b][a], *ww = w[c][b][a];
                vv[0] = v_mul(xs[a], zs[c]), vv[1] = v_mul(ys[b], zs[c]), vv[2] = zs[c];
                ww[0] = v_sub(px, vv[0]), ww[1] = v_sub(py, vv[1]), ww[2] = v_sub(pz, vv[2]);
                V d2 = v_add(v_add(v_mul(ww[0], ww[0]), v_mul(ww[1], ww[1])), v_mul(ww[2], ww[2]));
                vis = m_or(vis, v_le(d2, rr));
            }
        }
    }
    for (int c = 0; c < 2; c++) {
        for (int q = 0; q < 2; q++) {
            const V *a0 = Vt[c][q][0], *a1 = Vt[c][q][1];
            V v[3] = {v_sub(a1[0], a0[0]), v_sub(a1[1], a0[1]), v_sub(a1[2], a0[2])};
            vis = m_or(vis, edge_near_v(w[c][q][0], v, rr, zero));
            const V *b0 = Vt[c][0][q], *b1 = Vt[c][1][q];
            V u[3] = {v_sub(b1[0], b0[0]), v_sub(b1[1], b0[1]), v_sub(b1[2], b0[2])};
            vis = m_or(vis, edge_near_v(w[c][0][q], u, rr, zero));
        }
    }
    for (int b = 0; b < 2; b++) {
        for (int a = 0; a < 2; a++) {
            const V *a0 = Vt[0][b][a], *a1 = Vt[1][b][a];
            V v[3] = {v_sub(a1[0], a0[0]), v_sub(a1[1], a0[1]), v_sub(a1[2], a0[2])};
            vis = m_or(vis, edge_near_v(w[0][b][a], v, rr, zero));
        }
    }
    return m_not(vis);
}

SATC_NI M sphere_sep_ortho_v(const vconst *k, const V *x, size_t st)
{
    V tol = v_add(v_add(v_mul(k->epsk, x[F_S * st]), k->tolt), k->tiny);
    V rt = v_add(x[F_RAD * st], tol);
    V rr = v_add(v_mul(rt, rt), v_set1(SATC_SPHERE_D2_FLOOR));
    V t[3] = {v_sub(x[F_DX * st], k->c[0]), v_sub(x[F_DY * st], k->c[1]),
              v_sub(x[F_DZ * st], k->c[2])};
    V d2 = k->zero;
    for (int q = 0; q < 3; q++) {
        V e = v_max(v_sub(v_abs(t[q]), k->h[q]), k->zero);
        d2 = v_add(d2, v_mul(e, e));
    }
    return m_not(v_le(d2, rr));
}

#endif
