/*
 * The SIMD kernels, written once for every instruction set. Each lane runs
 * exactly the expressions of src/scalar/cull_scalar.c in the same order
 * (SPEC §3), so every path gives the reference's bits.
 *
 * The including file defines a vector layer first (see src/sse/cull_sse41.c):
 *   W                       lanes per vector
 *   V, M, P                 float vector, lane mask (all ones / zero), lane permutation
 *   v_load v_store          unaligned load / store of W floats
 *   v_set1 v_add v_sub v_mul v_abs (clear the sign bit) v_neg (flip it)
 *   v_min v_max             a < b ? a : b and a > b ? a : b, also on NaN
 *   v_lt v_gt v_le v_ge     ordered compares: false on NaN
 *   m_and m_or m_andnot(a, b) = a & ~b, m_not, v_sel(m, a, b) = m ? a : b
 *   m_bits                  lane j's mask to bit j of an unsigned
 *   m_cnt_add(c, m)         lane-wise integer c + m (a true mask counts -1)
 *   m_cnt_gt(c, k) m_cnt_eq(c, k)   lane-wise integer compares with k
 *   p_make(bits) v_perm(v, p)       move the lanes named by bits to the front
 *   SATC_SIMD_TABLE         the name of the satc_kernels table to define
 *
 * Work per chunk: the plane tier (RTR 22.10.2, 22.14.3) on every vector;
 * in exact mode the lanes it leaves undecided (crossing two or more planes)
 * are packed into a small buffer, already transformed, and the remaining
 * separating axes (Eberly §4-5; seed 004 for orthographic frusta) run on
 * full vectors of them. Tails go through a zero-padded copy.
 */
#ifndef SATC_CULL_SIMD_H
#define SATC_CULL_SIMD_H

#include <string.h>

#include "internal.h"

#if defined(__GNUC__)
#define SATC_AI static inline __attribute__((always_inline))
#define SATC_NI static __attribute__((noinline))
#else
#define SATC_AI static inline
#define SATC_NI static
#endif

#define SATC_FULL ((1u << W) - 1u)

/* Set bits of a lane mask (W <= 8): a nibble table in a constant, so no
 * POPCNT instruction is needed. */
static inline unsigned satc_popcount(unsigned x)
{
    const uint64_t nib = 0x4332322132212110ull;
    return (unsigned)((nib >> (4 * (x & 15u))) & 15u) +
           (unsigned)((nib >> (4 * (x >> 4 & 15u))) & 15u);
}

static inline unsigned satc_ctz(unsigned x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctz(x);
#else
    unsigned c = 0;
    while (!(x & 1u)) {
        x >>= 1;
        c++;
    }
    return c;
#endif
}

/* Per-frustum constants, broadcast once per call. */
typedef struct vconst {
    V o[3], L[3], U[3], D[3];
    V x0, x1, y0, y1, n, f, fdx, fdy, nfdx, nfdy, epsk, maxmag, zero;
    V c[3], h[3], nh[3], tolt;
    V lane; /* 0, 1, ..., W - 1 */
} vconst;

static void vconst_init(vconst *k, const satc_frustum *f)
{
    float lane[W];
    for (int j = 0; j < W; j++)
        lane[j] = (float)j;
    k->lane = v_load(lane);
    for (int j = 0; j < 3; j++) {
        k->o[j] = v_set1(f->origin[j]);
        k->L[j] = v_set1(f->frame[0][j]);
        k->U[j] = v_set1(f->frame[1][j]);
        k->D[j] = v_set1(f->frame[2][j]);
        k->c[j] = v_set1(f->center[j]);
        k->h[j] = v_set1(f->half[j]);
        k->nh[j] = v_set1(-f->half[j]);
    }
    k->x0 = v_set1(f->x0), k->x1 = v_set1(f->x1);
    k->y0 = v_set1(f->y0), k->y1 = v_set1(f->y1);
    k->n = v_set1(f->n), k->f = v_set1(f->f);
    k->fdx = v_set1(f->dx), k->fdy = v_set1(f->dy);
    k->nfdx = v_set1(-f->dx), k->nfdy = v_set1(-f->dy);
    k->epsk = v_set1(f->eps_k);
    k->maxmag = v_set1(SATC_MAX_MAGNITUDE);
    k->zero = v_set1(0.0f);
    k->tolt = v_set1(f->tol_t);
}

/*
 * What the axes tier needs of a box, as lanes: the frame (satc_box_frame
 * without bad) and, for perspective frusta, values the plane tier already
 * has: rz and the four side sums d + R. Kept as an array so undecided
 * lanes can be packed field by field.
 */
enum {
    F_DX, F_DY, F_DZ,
    F_AL, F_BE = F_AL + 3, F_GA = F_BE + 3, F_E = F_GA + 3,
    F_S = F_E + 3,
    F_RZ, F_SX1, F_SX0, F_SY1, F_SY0,
    F_PERSP, /* fields of a perspective box */
    F_ORTHO = F_RZ
};

typedef struct vbox {
    V v[F_PERSP];
} vbox;

/* The 15 input arrays, offset to the chunk: center, axis[j][c], extent. */
typedef struct vsrc {
    const float *p[15];
} vsrc;

static void vsrc_init(vsrc *s, const satc_boxes *b, size_t first)
{
    for (int c = 0; c < 3; c++) {
        s->p[c] = b->center[c] + first;
        s->p[12 + c] = b->extent[c] + first;
        for (int j = 0; j < 3; j++)
            s->p[3 + 3 * j + c] = b->axis[j][c] + first;
    }
}

/* satc_box_frame_ref for W boxes; returns the bad mask. */
SATC_AI M frame_v(const vconst *k, const vsrc *src, size_t i, vbox *o)
{
    const float *const *p = src->p;
    V *x = o->v;
    V cx = v_sub(v_load(p[0] + i), k->o[0]);
    V cy = v_sub(v_load(p[1] + i), k->o[1]);
    V cz = v_sub(v_load(p[2] + i), k->o[2]);
    x[F_DX] = v_add(v_add(v_mul(k->L[0], cx), v_mul(k->L[1], cy)), v_mul(k->L[2], cz));
    x[F_DY] = v_add(v_add(v_mul(k->U[0], cx), v_mul(k->U[1], cy)), v_mul(k->U[2], cz));
    x[F_DZ] = v_add(v_add(v_mul(k->D[0], cx), v_mul(k->D[1], cy)), v_mul(k->D[2], cz));
    for (int j = 0; j < 3; j++) {
        V ax = v_load(p[3 + 3 * j] + i), ay = v_load(p[4 + 3 * j] + i);
        V az = v_load(p[5 + 3 * j] + i);
        x[F_AL + j] = v_add(v_add(v_mul(k->L[0], ax), v_mul(k->L[1], ay)), v_mul(k->L[2], az));
        x[F_BE + j] = v_add(v_add(v_mul(k->U[0], ax), v_mul(k->U[1], ay)), v_mul(k->U[2], az));
        x[F_GA + j] = v_add(v_add(v_mul(k->D[0], ax), v_mul(k->D[1], ay)), v_mul(k->D[2], az));
        x[F_E + j] = v_abs(v_load(p[12 + j] + i));
    }
    V s = v_add(v_add(v_abs(x[F_DX]), v_abs(x[F_DY])), v_abs(x[F_DZ]));
    s = v_add(v_add(v_add(s, x[F_E]), x[F_E + 1]), x[F_E + 2]);
    x[F_S] = s;
    V g = v_add(s, v_abs(v_add(v_add(x[F_AL], x[F_AL + 1]), x[F_AL + 2])));
    return m_not(v_lt(g, k->maxmag));
}

/* A mask with no lane set (0 < 0 is false). */
SATC_AI M m_none(const vconst *k) { return v_lt(k->zero, k->zero); }

/* e0 |a0 - q c0| + e1 |a1 - q c1| + e2 |a2 - q c2| (radius_side). */
SATC_AI V radius_side_v(const V *e, const V *a, const V *c, V q)
{
    V r = v_add(v_mul(e[0], v_abs(v_sub(a[0], v_mul(q, c[0])))),
                v_mul(e[1], v_abs(v_sub(a[1], v_mul(q, c[1])))));
    return v_add(r, v_mul(e[2], v_abs(v_sub(a[2], v_mul(q, c[2])))));
}

/* Results of the plane tier for W lanes. */
typedef struct vplanes {
    M vis, inside, und;
} vplanes;

/* satc_planes_persp_ref; fills the perspective-only fields of o. */
SATC_AI vplanes planes_persp_v(const vconst *k, vbox *o, M bad, const int need_in)
{
    V *x = o->v;
    const V *e = x + F_E, *al = x + F_AL, *be = x + F_BE, *ga = x + F_GA;
    V tol = v_mul(k->epsk, x[F_S]);
    V rz = v_add(v_add(v_add(v_mul(e[0], v_abs(ga[0])), v_mul(e[1], v_abs(ga[1]))),
                       v_mul(e[2], v_abs(ga[2]))),
                 tol);
    V rx1 = v_add(radius_side_v(e, al, ga, k->x1), tol);
    V rx0 = v_add(radius_side_v(e, al, ga, k->x0), tol);
    V ry1 = v_add(radius_side_v(e, be, ga, k->y1), tol);
    V ry0 = v_add(radius_side_v(e, be, ga, k->y0), tol);
    V d1 = v_sub(x[F_DX], v_mul(k->x1, x[F_DZ])), d0 = v_sub(v_mul(k->x0, x[F_DZ]), x[F_DX]);
    V g1 = v_sub(x[F_DY], v_mul(k->y1, x[F_DZ])), g0 = v_sub(v_mul(k->y0, x[F_DZ]), x[F_DY]);
    V zp = v_add(x[F_DZ], rz), zm = v_sub(x[F_DZ], rz);

    M out = m_or(v_lt(zp, k->n), v_gt(zm, k->f));
    out = m_or(out, m_or(v_gt(v_sub(d1, rx1), k->zero), v_gt(v_sub(d0, rx0), k->zero)));
    out = m_or(out, m_or(v_gt(v_sub(g1, ry1), k->zero), v_gt(v_sub(g0, ry0), k->zero)));
    M gone = m_or(out, bad);
    vplanes p;
    p.vis = m_not(m_andnot(out, bad));
    if (need_in) {
        x[F_RZ] = rz;
        x[F_SX1] = v_add(d1, rx1), x[F_SX0] = v_add(d0, rx0);
        x[F_SY1] = v_add(g1, ry1), x[F_SY0] = v_add(g0, ry0);
        /* Count the planes the box is inside of: each true mask adds -1. */
        M c = m_cnt_add(v_ge(zm, k->n), v_le(zp, k->f));
        c = m_cnt_add(c, v_le(x[F_SX1], k->zero));
        c = m_cnt_add(c, v_le(x[F_SX0], k->zero));
        c = m_cnt_add(c, v_le(x[F_SY1], k->zero));
        c = m_cnt_add(c, v_le(x[F_SY0], k->zero));
        p.inside = m_andnot(m_cnt_eq(c, -6), gone);
        p.und = m_andnot(m_cnt_gt(c, -5), gone); /* two or more planes crossed */
    } else {
        p.inside = p.und = m_none(k);
    }
    return p;
}

/* separated(): the frustum's interval on M, scaled by fb where it grows. */
SATC_AI M separated_v(V d, V r, V plo, V phi, V n, V fb, V zero)
{
    /* (c ? fb : n) * plo is the same product as c ? fb * plo : n * plo. */
    V m0 = v_mul(v_sel(v_lt(plo, zero), fb, n), plo);
    V m1 = v_mul(v_sel(v_gt(phi, zero), fb, n), phi);
    return m_or(v_lt(v_add(d, r), m0), v_gt(v_sub(d, r), m1));
}

/* The fields the axes tier reads, where they lie (field q of the lanes at
 * x[q * st]: st = 1 in a vbox, a row in the packed buffer). Read from
 * memory rather than copied: the tier has more live values than registers. */
#define e(m) x[(F_E + (m)) * st]
#define al(m) x[(F_AL + (m)) * st]
#define be(m) x[(F_BE + (m)) * st]
#define ga(m) x[(F_GA + (m)) * st]

/* The other two axis indices of i, increasing (as in the reference). */
static const int satc_oj[3] = {1, 0, 0}, satc_ok[3] = {2, 2, 1};

/* Gram entries G_ij = A_i.A_j and |X_ij|, |Y_ij|, |Z_ij| for i < j, the
 * cross terms (A_i x A_j) components that radii on L/U/Z x A_i need. */
typedef struct vgram {
    V G[3][3];
    V X[3][3], Y[3][3], Z[3][3]; /* absolute values, symmetric */
} vgram;

SATC_AI void gram_v(vgram *g, const V *x, size_t st, const int want_z)
{
    for (int i = 0; i < 3; i++) {
        for (int j = i; j < 3; j++) {
            g->G[i][j] = g->G[j][i] =
                v_add(v_add(v_mul(al(i), al(j)), v_mul(be(i), be(j))), v_mul(ga(i), ga(j)));
            if (j == i)
                continue;
            g->X[i][j] = g->X[j][i] = v_abs(v_sub(v_mul(be(i), ga(j)), v_mul(ga(i), be(j))));
            g->Y[i][j] = g->Y[j][i] = v_abs(v_sub(v_mul(ga(i), al(j)), v_mul(al(i), ga(j))));
            if (want_z)
                g->Z[i][j] = g->Z[j][i] = v_abs(v_sub(v_mul(al(i), be(j)), v_mul(be(i), al(j))));
        }
    }
}

/* e0 |G_i0| + e1 |G_i1| + e2 |G_i2|: the box's radius on its own axis A_i. */
SATC_AI V radius_own_v(const V *x, size_t st, const vgram *g, int i)
{
    return v_add(v_add(v_mul(e(0), v_abs(g->G[i][0])), v_mul(e(1), v_abs(g->G[i][1]))),
                 v_mul(e(2), v_abs(g->G[i][2])));
}

/* satc_axes_persp_ref for W lanes; stops once every lane is separated. */
SATC_NI M axes_persp_v(const vconst *k, const V *x, size_t st)
{
    const V dx = x[F_DX * st], dy = x[F_DY * st], dz = x[F_DZ * st], zero = k->zero, n = k->n;
    V tol = v_mul(k->epsk, x[F_S * st]);
    V fb = v_min(v_add(dz, x[F_RZ * st]), k->f);

    /* Lower sides of the side planes. */
    V mx = v_mul(fb, k->fdx), my = v_mul(fb, k->fdy);
    M sep = m_or(v_lt(x[F_SX1 * st], mx), v_lt(x[F_SX0 * st], mx));
    sep = m_or(sep, m_or(v_lt(x[F_SY1 * st], my), v_lt(x[F_SY0 * st], my)));
    if (m_bits(sep) == SATC_FULL)
        return sep;

    vgram g;
    gram_v(&g, x, st, 0);
    for (int i = 0; i < 3; i++) {
        int j = satc_oj[i], q = satc_ok[i];
        V aa = v_abs(al(i)), ab = v_abs(be(i)), ag = v_abs(ga(i));
        /* M = A_i. */
        V d = v_add(v_add(v_mul(al(i), dx), v_mul(be(i), dy)), v_mul(ga(i), dz));
        V r = v_add(radius_own_v(x, st, &g, i), v_mul(tol, v_add(v_add(aa, ab), ag)));
        V xa0 = v_mul(al(i), k->x0), xa1 = v_mul(al(i), k->x1);
        V yb0 = v_mul(be(i), k->y0), yb1 = v_mul(be(i), k->y1);
        V plo = v_add(v_add(ga(i), v_min(xa0, xa1)), v_min(yb0, yb1));
        V phi = v_add(v_add(ga(i), v_max(xa0, xa1)), v_max(yb0, yb1));
        sep = m_or(sep, separated_v(d, r, plo, phi, n, fb, zero));

        /* M = L x A_i = (0, -gamma_i, beta_i). */
        V ng = v_neg(ga(i));
        d = v_sub(v_mul(be(i), dz), v_mul(ga(i), dy));
        r = v_add(v_add(v_mul(e(j), g.X[i][j]), v_mul(e(q), g.X[i][q])), v_mul(tol, v_add(ag, ab)));
        V gy0 = v_mul(ng, k->y0), gy1 = v_mul(ng, k->y1);
        plo = v_add(be(i), v_min(gy0, gy1));
        phi = v_add(be(i), v_max(gy0, gy1));
        sep = m_or(sep, separated_v(d, r, plo, phi, n, fb, zero));

        /* M = U x A_i = (gamma_i, 0, -alpha_i). */
        d = v_sub(v_mul(ga(i), dx), v_mul(al(i), dz));
        r = v_add(v_add(v_mul(e(j), g.Y[i][j]), v_mul(e(q), g.Y[i][q])), v_mul(tol, v_add(ag, aa)));
        V xg[2] = {v_mul(ga(i), k->x0), v_mul(ga(i), k->x1)};
        plo = v_sub(v_min(xg[0], xg[1]), al(i));
        phi = v_sub(v_max(xg[0], xg[1]), al(i));
        sep = m_or(sep, separated_v(d, r, plo, phi, n, fb, zero));

        /* M = W x A_i for the four lateral edges W = (wx, wy, 1); the
         * products with wx, wy are shared between corners. */
        V yg[2] = {v_mul(k->y0, ga(i)), v_mul(k->y1, ga(i))};
        V xb[2] = {v_mul(k->x0, be(i)), v_mul(k->x1, be(i))};
        V ya[2] = {v_mul(k->y0, al(i)), v_mul(k->y1, al(i))};
        V Mx[2], My[2], aMx[2], aMy[2], Mxd[2], Myd[2];
        V mx0[2], mx1[2], my0[2], my1[2];
        for (int w = 0; w < 2; w++) {
            Mx[w] = v_sub(yg[w], be(i));
            My[w] = v_sub(al(i), xg[w]);
            aMx[w] = v_abs(Mx[w]), aMy[w] = v_abs(My[w]);
            Mxd[w] = v_mul(Mx[w], dx), Myd[w] = v_mul(My[w], dy);
            mx0[w] = v_mul(Mx[w], k->x0), mx1[w] = v_mul(Mx[w], k->x1);
            my0[w] = v_mul(My[w], k->y0), my1[w] = v_mul(My[w], k->y1);
        }
        for (int c = 0; c < 4; c++) {
            int cx = c & 1, cy = c >> 1;
            V Mz = v_sub(xb[cx], ya[cy]);
            d = v_add(v_add(Mxd[cy], Myd[cx]), v_mul(Mz, dz));
            V q0 = v_add(v_add(v_mul(Mx[cy], al(0)), v_mul(My[cx], be(0))), v_mul(Mz, ga(0)));
            V q1 = v_add(v_add(v_mul(Mx[cy], al(1)), v_mul(My[cx], be(1))), v_mul(Mz, ga(1)));
            V q2 = v_add(v_add(v_mul(Mx[cy], al(2)), v_mul(My[cx], be(2))), v_mul(Mz, ga(2)));
            r = v_add(v_add(v_mul(e(0), v_abs(q0)), v_mul(e(1), v_abs(q1))),
                      v_mul(e(2), v_abs(q2)));
            r = v_add(r, v_mul(tol, v_add(v_add(aMx[cy], aMy[cx]), v_abs(Mz))));
            plo = v_add(v_add(Mz, v_min(mx0[cy], mx1[cy])), v_min(my0[cx], my1[cx]));
            phi = v_add(v_add(Mz, v_max(mx0[cy], mx1[cy])), v_max(my0[cx], my1[cx]));
            sep = m_or(sep, separated_v(d, r, plo, phi, n, fb, zero));
        }
        if (m_bits(sep) == SATC_FULL)
            break;
    }
    return sep;
}

/* point_in_persp for W lanes. */
SATC_AI M point_in_v(const vconst *k, V x, V y, V z)
{
    M m = m_and(v_ge(z, k->n), v_le(z, k->f));
    m = m_and(m, v_le(v_sub(x, v_mul(k->x1, z)), k->zero));
    m = m_and(m, v_le(v_sub(v_mul(k->x0, z), x), k->zero));
    m = m_and(m, v_le(v_sub(y, v_mul(k->y1, z)), k->zero));
    return m_and(m, v_le(v_sub(v_mul(k->y0, z), y), k->zero));
}

/* satc_point_in_persp_ref for W lanes: the center, then the vertices
 * depth first (+-e_0 A_0, then +-e_1 A_1, then +-e_2 A_2; x + (-h) is
 * exactly x - h), so few partial sums are live at once. */
SATC_AI V pm(V a, V h, int plus) { return plus ? v_add(a, h) : v_sub(a, h); }

SATC_NI M points_in_persp_v(const vconst *k, const V *x)
{
    V hx[3], hy[3], hz[3];
    for (int j = 0; j < 3; j++) {
        hx[j] = v_mul(x[F_E + j], x[F_AL + j]);
        hy[j] = v_mul(x[F_E + j], x[F_BE + j]);
        hz[j] = v_mul(x[F_E + j], x[F_GA + j]);
    }
    M in = point_in_v(k, x[F_DX], x[F_DY], x[F_DZ]);
    for (int s0 = 0; s0 < 2; s0++) {
        V x1 = pm(x[F_DX], hx[0], s0), y1 = pm(x[F_DY], hy[0], s0), z1 = pm(x[F_DZ], hz[0], s0);
        for (int s1 = 0; s1 < 2; s1++) {
            V x2 = pm(x1, hx[1], s1), y2 = pm(y1, hy[1], s1), z2 = pm(z1, hz[1], s1);
            for (int s2 = 0; s2 < 2; s2++)
                in = m_or(in, point_in_v(k, pm(x2, hx[2], s2), pm(y2, hy[2], s2), pm(z2, hz[2], s2)));
        }
    }
    return in;
}

/* satc_planes_ortho_ref for W lanes. */
SATC_AI vplanes planes_ortho_v(const vconst *k, vbox *o, M bad, const int need_in)
{
    V *x = o->v;
    const V *e = x + F_E;
    V tol = v_add(v_mul(k->epsk, x[F_S]), k->tolt);
    V t[3] = {v_sub(x[F_DX], k->c[0]), v_sub(x[F_DY], k->c[1]), v_sub(x[F_DZ], k->c[2])};
    M out = m_none(k), c = m_none(k);
    for (int q = 0; q < 3; q++) {
        const V *a = x + F_AL + 3 * q;
        V r = v_add(v_add(v_add(v_mul(e[0], v_abs(a[0])), v_mul(e[1], v_abs(a[1]))),
                          v_mul(e[2], v_abs(a[2]))),
                    tol);
        out = m_or(out, v_gt(v_sub(v_abs(t[q]), r), k->h[q]));
        if (need_in) {
            c = m_cnt_add(c, v_le(v_add(t[q], r), k->h[q]));
            c = m_cnt_add(c, v_ge(v_sub(t[q], r), k->nh[q]));
        }
    }
    M gone = m_or(out, bad);
    vplanes p;
    p.vis = m_not(m_andnot(out, bad));
    if (need_in) {
        p.inside = m_andnot(m_cnt_eq(c, -6), gone);
        p.und = m_andnot(m_cnt_gt(c, -5), gone);
    } else {
        p.inside = p.und = m_none(k);
    }
    return p;
}

/* satc_axes_ortho_ref for W lanes. */
SATC_NI M axes_ortho_v(const vconst *k, const V *x, size_t st)
{
    const V *h = k->h;
    V tol = v_add(v_mul(k->epsk, x[F_S * st]), k->tolt);
    V tx = v_sub(x[F_DX * st], k->c[0]), ty = v_sub(x[F_DY * st], k->c[1]);
    V tz = v_sub(x[F_DZ * st], k->c[2]);
    vgram g;
    gram_v(&g, x, st, 1);
    M sep = m_none(k);
    for (int i = 0; i < 3; i++) {
        int j = satc_oj[i], q = satc_ok[i];
        V aa = v_abs(al(i)), ab = v_abs(be(i)), ag = v_abs(ga(i));
        /* M = A_i */
        V d = v_add(v_add(v_mul(al(i), tx), v_mul(be(i), ty)), v_mul(ga(i), tz));
        V r = v_add(radius_own_v(x, st, &g, i), v_mul(tol, v_add(v_add(aa, ab), ag)));
        r = v_add(r, v_add(v_add(v_mul(h[0], aa), v_mul(h[1], ab)), v_mul(h[2], ag)));
        sep = m_or(sep, v_gt(v_abs(d), r));
        /* M = X x A_i */
        d = v_sub(v_mul(be(i), tz), v_mul(ga(i), ty));
        r = v_add(v_add(v_mul(e(j), g.X[i][j]), v_mul(e(q), g.X[i][q])), v_mul(tol, v_add(ag, ab)));
        r = v_add(r, v_add(v_mul(h[1], ag), v_mul(h[2], ab)));
        sep = m_or(sep, v_gt(v_abs(d), r));
        /* M = Y x A_i */
        d = v_sub(v_mul(ga(i), tx), v_mul(al(i), tz));
        r = v_add(v_add(v_mul(e(j), g.Y[i][j]), v_mul(e(q), g.Y[i][q])), v_mul(tol, v_add(ag, aa)));
        r = v_add(r, v_add(v_mul(h[0], ag), v_mul(h[2], aa)));
        sep = m_or(sep, v_gt(v_abs(d), r));
        /* M = Z x A_i */
        d = v_sub(v_mul(al(i), ty), v_mul(be(i), tx));
        r = v_add(v_add(v_mul(e(j), g.Z[i][j]), v_mul(e(q), g.Z[i][q])), v_mul(tol, v_add(ab, aa)));
        r = v_add(r, v_add(v_mul(h[0], ab), v_mul(h[1], aa)));
        sep = m_or(sep, v_gt(v_abs(d), r));
        if (m_bits(sep) == SATC_FULL)
            break;
    }
    return sep;
}

#undef e
#undef al
#undef be
#undef ga

/*
 * Undecided lanes waiting for the axes tier, packed field by field: row q
 * holds field q of the waiting lanes, the last row their positions in the
 * chunk. A push stores W lanes at the end (only the undecided ones count);
 * once PEND_LANES are waiting, the axes tier runs on every full vector and
 * the few left over move to the front.
 */
#define PEND_LANES 64
#define PEND_ROW (PEND_LANES / W + 1) /* vectors per row */

typedef union vpend {
    V v[F_PERSP + 1][PEND_ROW];
    float f[F_PERSP + 1][PEND_ROW * W];
} vpend;

SATC_AI unsigned pend_push(vpend *pd, unsigned np, const vbox *o, V pos, unsigned bits,
                           const int nf)
{
    P p = p_make(bits);
    for (int q = 0; q < nf; q++)
        v_store(&pd->f[q][np], v_perm(o->v[q], p));
    v_store(&pd->f[F_PERSP][np], v_perm(pos, p));
    return np + satc_popcount(bits);
}

/* Runs the axes tier on waiting vector v and culls its separated lanes
 * among `valid`. */
SATC_AI void pend_run(const vconst *k, const vpend *pd, unsigned v, uint64_t *vis,
                      unsigned valid, const int ortho)
{
    const V *x = &pd->v[0][v];
    M sep = ortho ? axes_ortho_v(k, x, PEND_ROW) : axes_persp_v(k, x, PEND_ROW);
    for (unsigned b = m_bits(sep) & valid; b; b &= b - 1) {
        unsigned j = (unsigned)pd->f[F_PERSP][v * W + satc_ctz(b)];
        vis[j >> 6] &= ~((uint64_t)1 << (j & 63));
    }
}

/* Tests every full waiting vector; returns how many lanes are left. */
SATC_AI unsigned pend_drain(const vconst *k, vpend *pd, unsigned np, uint64_t *vis,
                            const int ortho)
{
    const int nf = ortho ? F_ORTHO : F_PERSP;
    unsigned full = np / W;
    for (unsigned v = 0; v < full; v++)
        pend_run(k, pd, v, vis, SATC_FULL, ortho);
    np -= full * W;
    if (np) {
        for (int q = 0; q < nf; q++)
            v_store(pd->f[q], v_load(&pd->f[q][full * W]));
        v_store(pd->f[F_PERSP], v_load(&pd->f[F_PERSP][full * W]));
    }
    return np;
}

/* One vector of boxes: src at offset off, chunk positions pos..pos+W-1,
 * lanes outside `valid` ignored. */
SATC_AI void step_v(const vconst *k, const vsrc *src, size_t off, size_t pos, unsigned valid,
                    vpend *pd, unsigned *npend, uint64_t *vis, uint64_t *inside,
                    const int ortho, const int exact, const int classify)
{
    const int need_in = exact || classify;
    const int nf = ortho ? F_ORTHO : F_PERSP;
    vbox o;
    M bad = frame_v(k, src, off, &o);
    vplanes p = ortho ? planes_ortho_v(k, &o, bad, need_in) : planes_persp_v(k, &o, bad, need_in);
    unsigned vb = m_bits(p.vis) & valid, ub = 0;
    if (exact) {
        ub = m_bits(p.und) & valid;
        if (ub && !ortho)
            ub &= ~m_bits(points_in_persp_v(k, o.v));
        if (ub == SATC_FULL) {
            /* Every lane undecided: test them where they are. */
            vb &= ~m_bits(ortho ? axes_ortho_v(k, o.v, 1) : axes_persp_v(k, o.v, 1));
            ub = 0;
        }
    }
    vis[pos >> 6] |= (uint64_t)vb << (pos & 63);
    if (classify)
        inside[pos >> 6] |= (uint64_t)(m_bits(p.inside) & valid) << (pos & 63);
    if (ub) {
        unsigned np = pend_push(pd, *npend, &o, v_add(k->lane, v_set1((float)pos)), ub, nf);
        if (np >= PEND_LANES)
            np = pend_drain(k, pd, np, vis, ortho);
        *npend = np;
    }
}

/* The kernel (satc_kernel_fn) with its frustum kind and flags fixed. */
SATC_AI void cull_chunk(const satc_frustum *f, const satc_boxes *b, size_t first, size_t n,
                        uint64_t *vis, uint64_t *inside, const int ortho, const int exact,
                        const int classify)
{
    vconst k;
    vsrc src;
    vpend pd;
    unsigned np = 0;
    vconst_init(&k, f);
    vsrc_init(&src, b, first);
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        vis[w] = inside[w] = 0;

    size_t i = 0;
    for (; i + W <= n; i += W)
        step_v(&k, &src, i, i, SATC_FULL, &pd, &np, vis, inside, ortho, exact, classify);
    if (i < n) {
        /* The tail through a zero-padded copy: nothing read past the last box. */
        float tail[15][W];
        vsrc ts;
        memset(tail, 0, sizeof tail);
        for (int q = 0; q < 15; q++) {
            for (size_t j = 0; j < n - i; j++)
                tail[q][j] = src.p[q][i + j];
            ts.p[q] = tail[q];
        }
        step_v(&k, &ts, 0, i, (1u << (n - i)) - 1u, &pd, &np, vis, inside, ortho, exact, classify);
    }
    if (exact && np) {
        np = pend_drain(&k, &pd, np, vis, ortho);
        if (np) {
            /* The last lanes, padded by repeating the last one. */
            const int nf = ortho ? F_ORTHO : F_PERSP;
            for (int q = 0; q < nf; q++) {
                for (unsigned j = np; j < W; j++)
                    pd.f[q][j] = pd.f[q][np - 1];
            }
            pend_run(&k, &pd, 0, vis, (1u << np) - 1u, ortho);
        }
    }
}

#define SATC_KERNEL(name, ortho)                                                                  \
    static void name(const satc_frustum *f, const satc_boxes *b, size_t first, size_t n,          \
                     unsigned flags, uint64_t *vis, uint64_t *inside)                             \
    {                                                                                             \
        switch (flags & (SATC_K_EXACT | SATC_K_CLASSIFY)) {                                       \
        case 0: cull_chunk(f, b, first, n, vis, inside, ortho, 0, 0); break;                     \
        case SATC_K_CLASSIFY: cull_chunk(f, b, first, n, vis, inside, ortho, 0, 1); break;       \
        case SATC_K_EXACT: cull_chunk(f, b, first, n, vis, inside, ortho, 1, 0); break;          \
        default: cull_chunk(f, b, first, n, vis, inside, ortho, 1, 1); break;                    \
        }                                                                                         \
    }

SATC_KERNEL(cull_persp_v, 0)
SATC_KERNEL(cull_ortho_v, 1)

const satc_kernels SATC_SIMD_TABLE = {cull_persp_v, cull_ortho_v};

#endif
