/* Stage 3: the exact tier's separating axes for W lanes (Eberly
 * 4-5 for perspective frusta; Gomez, OBB and OBB for orthographic ones): frustum
 * intervals, cross-product axes, the center-or-vertex test. Fields of
 * packed lanes are read at x[q * st] through hx(m), hy(m), hz(m); those
 * macros stay defined for plane_volumes.h and are removed by kernels.h. */
#ifndef SATC_K_AXES_H
#define SATC_K_AXES_H

/* The axes' verdicts (gaps in the reference): separated lanes, and lanes
 * an axis would separate with 2 T less tolerance (the band). */
typedef struct vgaps {
    M s, b;
} vgaps;

/* take2(): a < m0 or b > m1 separates; with 2 T less, the band. */
SATC_AI void take2_v(vgaps *g, V a, V b, V T, V m0, V m1, V zero)
{
    V u = v_min(v_sub(a, m0), v_sub(m1, b));
    g->s = m_or(g->s, v_lt(u, zero));
    g->b = m_or(g->b, v_lt(u, v_add(T, T)));
}

/* take_sep(): the frustum's interval on M, scaled by fb where it grows. */
SATC_AI void take_sep_v(vgaps *g, V d, V r, V T, V plo, V phi, V n, V fb, V zero)
{
    /* (c ? fb : n) * plo is the same product as c ? fb * plo : n * plo. */
    V m0 = v_mul(v_sel(v_lt(plo, zero), fb, n), plo);
    V m1 = v_mul(v_sel(v_gt(phi, zero), fb, n), phi);
    take2_v(g, v_add(d, r), v_sub(d, r), T, m0, m1, zero);
}

/* One-sided: a < m0 separates (the lower sides of the side planes). */
SATC_AI void take_lo_v(vgaps *g, V a, V T, V m0)
{
    V T2 = v_add(T, T);
    g->s = m_or(g->s, v_lt(a, m0));
    g->b = m_or(g->b, v_lt(v_sub(a, T2), m0));
}

/* One-sided: b > m1 separates (the orthographic axes' |d| > r). */
SATC_AI void take_hi_v(vgaps *g, V b, V T, V m1)
{
    V T2 = v_add(T, T);
    g->s = m_or(g->s, v_gt(b, m1));
    g->b = m_or(g->b, v_gt(v_add(b, T2), m1));
}

/* An exact tier's answer: separated lanes, and kept lanes in the band. */
typedef struct vsep {
    M sep, band;
} vsep;

SATC_AI vsep gaps_result_v(const vconst *k, const vgaps *g)
{
    (void)k;
    vsep r;
    r.sep = g->s;
    r.band = m_andnot(g->b, g->s);
    return r;
}

/* The fields the axes tier reads, where they lie (field q of the lanes at
 * x[q * st]: st = 1 in a vbox, a row in the packed buffer). Read from
 * memory rather than copied: the tier has more live values than registers. */
#define hx(m) x[(F_HX + (m)) * st]
#define hy(m) x[(F_HY + (m)) * st]
#define hz(m) x[(F_HZ + (m)) * st]

/* The other two axis indices of i, increasing (as in the reference). */
static const int satc_oj[3] = {1, 0, 0}, satc_ok[3] = {2, 2, 1};

/* cross_terms: X_ij, Y_ij, Z_ij for i < j (the rest are their negatives). */
typedef struct vcross {
    V X[3][3], Y[3][3], Z[3][3];
} vcross;

SATC_AI void cross_v(vcross *g, const V *x, size_t st)
{
    for (int i = 0; i < 3; i++) {
        for (int j = i + 1; j < 3; j++) {
            g->X[i][j] = v_sub(v_mul(hy(i), hz(j)), v_mul(hz(i), hy(j)));
            g->Y[i][j] = v_sub(v_mul(hz(i), hx(j)), v_mul(hx(i), hz(j)));
            g->Z[i][j] = v_sub(v_mul(hx(i), hy(j)), v_mul(hy(i), hx(j)));
        }
    }
}

/* |X_ij| for i != j: the magnitude is the same either way round. */
#define ABS_PAIR(T, i, j) v_abs((i) < (j) ? g.T[i][j] : g.T[j][i])

/* The three projections q_j = M.H_j, summed as |q0| + |q1| + |q2|. */
SATC_AI V proj_sum_v(const V *x, size_t st, V mx, V my, V mz)
{
    V q0 = v_add(v_add(v_mul(mx, hx(0)), v_mul(my, hy(0))), v_mul(mz, hz(0)));
    V q1 = v_add(v_add(v_mul(mx, hx(1)), v_mul(my, hy(1))), v_mul(mz, hz(1)));
    V q2 = v_add(v_add(v_mul(mx, hx(2)), v_mul(my, hy(2))), v_mul(mz, hz(2)));
    return v_add(v_add(v_abs(q0), v_abs(q1)), v_abs(q2));
}

/* axis_persp: a general axis against the perspective frustum. */
SATC_AI void axis_persp_v(const vconst *k, const V *x, size_t st, V mx, V my, V mz, V tol, V fb,
                          vgaps *g)
{
    V d = v_add(v_add(v_mul(mx, x[F_DX * st]), v_mul(my, x[F_DY * st])), v_mul(mz, x[F_DZ * st]));
    V T = v_mul(tol, v_add(v_add(v_abs(mx), v_abs(my)), v_abs(mz)));
    V r = v_add(proj_sum_v(x, st, mx, my, mz), T);
    r = v_add(r, k->tiny);
    V mx0 = v_mul(mx, k->x0), mx1 = v_mul(mx, k->x1), my0 = v_mul(my, k->y0), my1 = v_mul(my, k->y1);
    V plo = v_add(v_add(mz, v_min(mx0, mx1)), v_min(my0, my1));
    V phi = v_add(v_add(mz, v_max(mx0, mx1)), v_max(my0, my1));
    take_sep_v(g, d, r, T, plo, phi, k->n, fb, k->zero);
}

/* satc_axes_persp_ref for W lanes; stops once every lane is separated. */
SATC_NI vsep axes_persp_v(const vconst *k, const V *x, size_t st)
{
    const V dx = x[F_DX * st], dy = x[F_DY * st], dz = x[F_DZ * st], zero = k->zero, n = k->n;
    V tol = v_add(v_mul(k->epsk, x[F_S * st]), k->tolt);
    V fb = v_min(v_add(dz, v_add(x[F_R * st], tol)), k->f);

    /* Lower sides of the side planes. */
    V mx = v_mul(fb, k->fdx), my = v_mul(fb, k->fdy);
    V rx1 = v_add(x[(F_R + 1) * st], tol), rx0 = v_add(x[(F_R + 2) * st], tol);
    V ry1 = v_add(x[(F_R + 3) * st], tol), ry0 = v_add(x[(F_R + 4) * st], tol);
    vgaps A = {m_none(k), m_none(k)};
    take_lo_v(&A, v_add(v_sub(dx, v_mul(k->x1, dz)), rx1), tol, mx);
    take_lo_v(&A, v_add(v_sub(v_mul(k->x0, dz), dx), rx0), tol, mx);
    take_lo_v(&A, v_add(v_sub(dy, v_mul(k->y1, dz)), ry1), tol, my);
    take_lo_v(&A, v_add(v_sub(v_mul(k->y0, dz), dy), ry0), tol, my);
    if (m_bits(A.s) == SATC_FULL)
        return gaps_result_v(k, &A);

    vcross g;
    cross_v(&g, x, st);
    for (int i = 0; i < 3; i++) {
        int j = satc_oj[i], q = satc_ok[i];
        V ax = v_abs(hx(i)), ay = v_abs(hy(i)), az = v_abs(hz(i));
        /* M = N_i = H_j x H_q. */
        axis_persp_v(k, x, st, g.X[j][q], g.Y[j][q], g.Z[j][q], tol, fb, &A);

        /* M = L x H_i = (0, -hz_i, hy_i). */
        V ng = v_neg(hz(i));
        V d = v_sub(v_mul(hy(i), dz), v_mul(hz(i), dy));
        V T = v_mul(tol, v_add(az, ay));
        V r = v_add(v_add(ABS_PAIR(X, i, j), ABS_PAIR(X, i, q)), T);
        r = v_add(r, k->tiny);
        V gy0 = v_mul(ng, k->y0), gy1 = v_mul(ng, k->y1);
        V plo = v_add(hy(i), v_min(gy0, gy1));
        V phi = v_add(hy(i), v_max(gy0, gy1));
        take_sep_v(&A, d, r, T, plo, phi, n, fb, zero);

        /* M = U x H_i = (hz_i, 0, -hx_i). */
        d = v_sub(v_mul(hz(i), dx), v_mul(hx(i), dz));
        T = v_mul(tol, v_add(az, ax));
        r = v_add(v_add(ABS_PAIR(Y, i, j), ABS_PAIR(Y, i, q)), T);
        r = v_add(r, k->tiny);
        V xg[2] = {v_mul(hz(i), k->x0), v_mul(hz(i), k->x1)};
        plo = v_sub(v_min(xg[0], xg[1]), hx(i));
        phi = v_sub(v_max(xg[0], xg[1]), hx(i));
        take_sep_v(&A, d, r, T, plo, phi, n, fb, zero);

        /* M = W x H_i for the four lateral edges W = (wx, wy, 1); the
         * products with wx, wy are shared between corners. */
        V yg[2] = {v_mul(k->y0, hz(i)), v_mul(k->y1, hz(i))};
        V xb[2] = {v_mul(k->x0, hy(i)), v_mul(k->x1, hy(i))};
        V ya[2] = {v_mul(k->y0, hx(i)), v_mul(k->y1, hx(i))};
        V Mx[2], My[2];
        for (int w = 0; w < 2; w++) {
            Mx[w] = v_sub(yg[w], hy(i));
            My[w] = v_sub(hx(i), xg[w]);
        }
        for (int c = 0; c < 4; c++) {
            int cx = c & 1, cy = c >> 1;
            V Mz = v_sub(xb[cx], ya[cy]);
            axis_persp_v(k, x, st, Mx[cy], My[cx], Mz, tol, fb, &A);
        }
        if (m_bits(A.s) == SATC_FULL)
            break;
    }
    return gaps_result_v(k, &A);
}

/* point_in_persp for W lanes, inside by mg: n + mg, f - mg and -mg. */
typedef struct vmarg {
    V n, f, neg;
} vmarg;

SATC_AI vmarg marg_v(const vconst *k, V mg)
{
    vmarg g = {v_add(k->n, mg), v_sub(k->f, mg), v_neg(mg)};
    return g;
}

SATC_AI M point_in_v(const vconst *k, V x, V y, V z, const vmarg *g)
{
    M m = m_and(v_ge(z, g->n), v_le(z, g->f));
    m = m_and(m, v_le(v_sub(x, v_mul(k->x1, z)), g->neg));
    m = m_and(m, v_le(v_sub(v_mul(k->x0, z), x), g->neg));
    m = m_and(m, v_le(v_sub(y, v_mul(k->y1, z)), g->neg));
    return m_and(m, v_le(v_sub(v_mul(k->y0, z), y), g->neg));
}

/* satc_point_in_persp_ref for W lanes: the center, then the vertices
 * depth first (+-H_0, then +-H_1, then +-H_2; x + (-h) is exactly x - h),
 * so few partial sums are live at once. */
SATC_AI V pm(V a, V h, int plus) { return plus ? v_add(a, h) : v_sub(a, h); }

SATC_NI M points_in_persp_v(const vconst *k, const V *x)
{
    const V *hx = x + F_HX, *hy = x + F_HY, *hz = x + F_HZ;
    vmarg g = marg_v(k, v_add(v_mul(k->epsk, x[F_S]), k->tolt)); /* see the reference */
    M in = point_in_v(k, x[F_DX], x[F_DY], x[F_DZ], &g);
    for (int s0 = 0; s0 < 2; s0++) {
        V x1 = pm(x[F_DX], hx[0], s0), y1 = pm(x[F_DY], hy[0], s0), z1 = pm(x[F_DZ], hz[0], s0);
        for (int s1 = 0; s1 < 2; s1++) {
            V x2 = pm(x1, hx[1], s1), y2 = pm(y1, hy[1], s1), z2 = pm(z1, hz[1], s1);
            for (int s2 = 0; s2 < 2; s2++)
                in = m_or(in, point_in_v(k, pm(x2, hx[2], s2), pm(y2, hy[2], s2), pm(z2, hz[2], s2), &g));
        }
    }
    return in;
}

/* axis_ortho: a general axis against the orthographic frustum box. */
SATC_AI void axis_ortho_v(const vconst *k, const V *x, size_t st, const V *t, V mx, V my, V mz,
                          V tol, vgaps *g)
{
    V d = v_add(v_add(v_mul(mx, t[0]), v_mul(my, t[1])), v_mul(mz, t[2]));
    V amx = v_abs(mx), amy = v_abs(my), amz = v_abs(mz);
    V T = v_mul(tol, v_add(v_add(amx, amy), amz));
    V r = v_add(proj_sum_v(x, st, mx, my, mz), T);
    r = v_add(r, k->tiny);
    r = v_add(r, v_add(v_add(v_mul(k->h[0], amx), v_mul(k->h[1], amy)), v_mul(k->h[2], amz)));
    take_hi_v(g, v_abs(d), T, r);
}

/* satc_axes_ortho_ref for W lanes. */
SATC_NI vsep axes_ortho_v(const vconst *k, const V *x, size_t st)
{
    const V *h = k->h;
    V tol = v_add(v_mul(k->epsk, x[F_S * st]), k->tolt);
    V t[3] = {v_sub(x[F_DX * st], k->c[0]), v_sub(x[F_DY * st], k->c[1]),
              v_sub(x[F_DZ * st], k->c[2])};
    vcross g;
    cross_v(&g, x, st);
    vgaps a = {m_none(k), m_none(k)};
    for (int i = 0; i < 3; i++) {
        int j = satc_oj[i], q = satc_ok[i];
        V ax = v_abs(hx(i)), ay = v_abs(hy(i)), az = v_abs(hz(i));
        /* M = N_i */
        axis_ortho_v(k, x, st, t, g.X[j][q], g.Y[j][q], g.Z[j][q], tol, &a);
        /* M = X x H_i */
        V d = v_sub(v_mul(hy(i), t[2]), v_mul(hz(i), t[1]));
        V T = v_mul(tol, v_add(az, ay));
        V r = v_add(v_add(ABS_PAIR(X, i, j), ABS_PAIR(X, i, q)), T);
        r = v_add(v_add(r, k->tiny), v_add(v_mul(h[1], az), v_mul(h[2], ay)));
        take_hi_v(&a, v_abs(d), T, r);
        /* M = Y x H_i */
        d = v_sub(v_mul(hz(i), t[0]), v_mul(hx(i), t[2]));
        T = v_mul(tol, v_add(az, ax));
        r = v_add(v_add(ABS_PAIR(Y, i, j), ABS_PAIR(Y, i, q)), T);
        r = v_add(v_add(r, k->tiny), v_add(v_mul(h[0], az), v_mul(h[2], ax)));
        take_hi_v(&a, v_abs(d), T, r);
        /* M = Z x H_i */
        d = v_sub(v_mul(hx(i), t[1]), v_mul(hy(i), t[0]));
        T = v_mul(tol, v_add(ay, ax));
        r = v_add(v_add(ABS_PAIR(Z, i, j), ABS_PAIR(Z, i, q)), T);
        r = v_add(v_add(r, k->tiny), v_add(v_mul(h[0], ay), v_mul(h[1], ax)));
        take_hi_v(&a, v_abs(d), T, r);
        if (m_bits(a.s) == SATC_FULL)
            break;
    }
    return gaps_result_v(k, &a);
}

#endif
