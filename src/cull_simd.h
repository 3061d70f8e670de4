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
 *     (a layer whose masks are not vectors, AVX-512's, defines instead a
 *     counter type C with c_zero c_add c_pair(m1, m2) c_gt c_eq and
 *     SATC_VLAYER_COUNT)
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

#include <math.h>
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

/* Set bits of a lane mask (W <= 16): a nibble table in a constant, so no
 * POPCNT instruction is needed. */
static inline unsigned satc_popcount(unsigned x)
{
    const uint64_t nib = 0x4332322132212110ull;
    unsigned c = (unsigned)((nib >> (4 * (x & 15u))) & 15u) +
                 (unsigned)((nib >> (4 * (x >> 4 & 15u))) & 15u);
#if W > 8
    c += (unsigned)((nib >> (4 * (x >> 8 & 15u))) & 15u) +
         (unsigned)((nib >> (4 * (x >> 12 & 15u))) & 15u);
#endif
    return c;
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
    V x0, x1, y0, y1, n, f, fin, fdx, fdy, epsk, maxmag, zero, half, tiny, sfloor;
    V c[3], h[3], nh[3], tolt;
    V pabs[5][3], col1[3], norm2[5], inv[4];
    V lane; /* 0, 1, ..., W - 1 */
    /* SATC_FRUSTUM_PLANES: margin2 broadcast; planes, vertices and edges
     * are broadcast from fr where used (kept here, 16 planes took 7 KB of
     * stack per view on AVX-512). */
    const satc_frustum *fr;
    V margin2;
} vconst;

static void vconst_init(vconst *k, const satc_frustum *f)
{
    satc_fconsts fc;
    satc_frustum_consts(f, &fc);
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
        k->col1[j] = v_set1(fc.col1[j]);
        for (int p = 0; p < 5; p++)
            k->pabs[p][j] = v_set1(fc.pabs[p][j]);
    }
    for (int p = 0; p < 5; p++)
        k->norm2[p] = v_set1(fc.norm2[p]);
    for (int p = 0; p < 4; p++)
        k->inv[p] = v_set1(fc.inv[p]);
    k->x0 = v_set1(f->x0), k->x1 = v_set1(f->x1);
    k->y0 = v_set1(f->y0), k->y1 = v_set1(f->y1);
    k->n = v_set1(f->n), k->f = v_set1(f->f), k->fin = v_set1(f->f_in);
    k->fdx = v_set1(f->dx), k->fdy = v_set1(f->dy);
    k->epsk = v_set1(f->eps_k);
    k->maxmag = v_set1(SATC_MAX_MAGNITUDE);
    k->zero = v_set1(0.0f);
    k->half = v_set1(0.5f);
    k->tiny = v_set1(SATC_TINY);
    k->sfloor = v_set1(SATC_S_FLOOR);
    k->tolt = v_set1(f->tol_t);
    k->fr = f;
    k->margin2 = v_set1(f->kind == SATC_FRUSTUM_PLANES ? f->margin2 : 0.0f);
}

/*
 * A volume as lanes: satc_box_frame's fields (without bad). Kept as an
 * array so undecided lanes can be packed field by field.
 */
enum {
    F_DX, F_DY, F_DZ,
    F_HX, F_HY = F_HX + 3, F_HZ = F_HY + 3,
    F_R = F_HZ + 3, /* five radii */
    F_S = F_R + 5,
    F_RAD,
    F_N /* fields */
};

typedef struct vbox {
    V v[F_N];
} vbox;

#include "load_simd.h"

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
    M vis, inside, und, band;
} vplanes;

/* Counts of planes a lane is inside of to the plane tier's three masks. */
SATC_AI vplanes planes_result(const vconst *k, M out, M bad, C c, const int need_in)
{
    M gone = m_or(out, bad);
    vplanes p;
    p.band = m_none(k);
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
    V tol = v_add(v_mul(k->epsk, x[F_S]), k->tolt), ntol = v_neg(tol);
    V d1 = v_sub(x[F_DX], v_mul(k->x1, x[F_DZ])), d0 = v_sub(v_mul(k->x0, x[F_DZ]), x[F_DX]);
    V g1 = v_sub(x[F_DY], v_mul(k->y1, x[F_DZ])), g0 = v_sub(v_mul(k->y0, x[F_DZ]), x[F_DY]);
    V zp = v_add(x[F_DZ], x[F_R]), zm = v_sub(x[F_DZ], x[F_R]);

    V gap = v_max(v_sub(k->n, zp), v_sub(zm, k->f));
    gap = v_max(v_sub(d1, x[F_R + 1]), gap);
    gap = v_max(v_sub(d0, x[F_R + 2]), gap);
    gap = v_max(v_sub(g1, x[F_R + 3]), gap);
    gap = v_max(v_sub(g0, x[F_R + 4]), gap);
    M out = v_gt(gap, tol);
    C c = c_zero(k);
    if (need_in) {
        /* Count the planes the volume is inside of: each true mask adds -1. */
        c = c_pair(v_ge(v_sub(zm, tol), k->n), v_le(v_add(zp, tol), k->fin));
        c = c_add(c, v_le(v_add(d1, x[F_R + 1]), ntol));
        c = c_add(c, v_le(v_add(d0, x[F_R + 2]), ntol));
        c = c_add(c, v_le(v_add(g1, x[F_R + 3]), ntol));
        c = c_add(c, v_le(v_add(g0, x[F_R + 4]), ntol));
    }
    vplanes p = planes_result(k, out, bad, c, need_in);
    p.band = m_andnot(v_gt(gap, ntol), m_or(out, bad));
    return p;
}

/* satc_planes_ortho_ref. */
SATC_AI vplanes planes_ortho_v(const vconst *k, const vbox *o, M bad, const int need_in)
{
    const V *x = o->v;
    V tol = v_add(v_mul(k->epsk, x[F_S]), k->tolt);
    V t[3] = {v_sub(x[F_DX], k->c[0]), v_sub(x[F_DY], k->c[1]), v_sub(x[F_DZ], k->c[2])};
    V gap = v_set1(-INFINITY);
    C c = c_zero(k);
    for (int q = 0; q < 3; q++) {
        V r = v_add(x[F_R + q], tol);
        gap = v_max(v_sub(v_sub(v_abs(t[q]), x[F_R + q]), k->h[q]), gap);
        if (need_in) {
            c = c_add(c, v_le(v_add(t[q], r), k->h[q]));
            c = c_add(c, v_ge(v_sub(t[q], r), k->nh[q]));
        }
    }
    M out = v_gt(gap, tol);
    vplanes p = planes_result(k, out, bad, c, need_in);
    p.band = m_andnot(v_gt(gap, v_neg(tol)), m_or(out, bad));
    return p;
}

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
 * depth first (+-H_0, then +-H_1, then +-H_2; x + (-h) is exactly x - h),
 * so few partial sums are live at once. */
SATC_AI V pm(V a, V h, int plus) { return plus ? v_add(a, h) : v_sub(a, h); }

SATC_NI M points_in_persp_v(const vconst *k, const V *x)
{
    const V *hx = x + F_HX, *hy = x + F_HY, *hz = x + F_HZ;
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

#include "planes_simd.h"

#undef hx
#undef hy
#undef hz
#undef ABS_PAIR

#include "sphere_simd.h"

/*
 * Undecided lanes waiting for the exact tier, packed field by field: row q
 * holds field q of the waiting lanes, the last row their positions in the
 * chunk. A push stores W lanes at the end (only the undecided ones count);
 * once PEND_LANES are waiting, the tier runs on every full vector and the
 * few left over move to the front.
 */
#define PEND_LANES 64
#define PEND_ROW (PEND_LANES / W + 1) /* vectors per row */

typedef struct vpend {
    union {
        V v[F_N + 1][PEND_ROW];
        float f[F_N + 1][PEND_ROW * W];
    };
    uint64_t band[SATC_CHUNK_WORDS]; /* exact mode's band lanes (satc_redecide) */
} vpend;

SATC_AI unsigned pend_push(vpend *pd, unsigned np, const vbox *o, V pos, unsigned bits)
{
    P p = p_make(bits);
    for (int q = 0; q < F_N; q++)
        v_store(&pd->f[q][np], v_perm(o->v[q], p));
    v_store(&pd->f[F_N][np], v_perm(pos, p));
    return np + satc_popcount(bits);
}

/* The exact tier for one kind of volume and frustum (ortho: the kernel
 * column, 0 perspective, 1 orthographic, 2 plane volume). */
SATC_AI vsep exact_v(const vconst *k, const V *x, size_t st, const int sphere, const int ortho)
{
    if (ortho == 2)
        return axes_vol_v(k, x, st); /* spheres never get here: plane test only */
    if (sphere) {
        /* Band: kept, but separated with the tolerance negated. */
        V one = v_set1(1.0f), neg = v_set1(-1.0f);
        vsep r;
        r.sep = ortho ? sphere_sep_ortho_v(k, x, st, one) : sphere_sep_persp_v(k, x, st, one);
        r.band = m_none(k);
        if (m_bits(r.sep) != SATC_FULL)
            r.band = m_andnot(ortho ? sphere_sep_ortho_v(k, x, st, neg)
                                    : sphere_sep_persp_v(k, x, st, neg), r.sep);
        return r;
    }
    return ortho ? axes_ortho_v(k, x, st) : axes_persp_v(k, x, st);
}

/* Band bits of lanes bits of vector v of the waiting lanes, at their
 * chunk positions. */
SATC_AI void set_pos_bits(uint64_t *words, const float *pos, unsigned bits)
{
    for (unsigned b = bits; b; b &= b - 1) {
        unsigned j = (unsigned)pos[satc_ctz(b)];
        words[j >> 6] |= (uint64_t)1 << (j & 63);
    }
}

/* Runs the exact tier on waiting vector v and culls its separated lanes
 * among `valid`. */
SATC_AI void pend_run(const vconst *k, vpend *pd, unsigned v, uint64_t *vis, unsigned valid,
                      const int sphere, const int ortho)
{
    vsep r = exact_v(k, &pd->v[0][v], PEND_ROW, sphere, ortho);
    for (unsigned b = m_bits(r.sep) & valid; b; b &= b - 1) {
        unsigned j = (unsigned)pd->f[F_N][v * W + satc_ctz(b)];
        vis[j >> 6] &= ~((uint64_t)1 << (j & 63));
    }
    set_pos_bits(pd->band, &pd->f[F_N][v * W], m_bits(r.band) & valid);
}

/* Tests every full waiting vector; returns how many lanes are left. With
 * `last`, the lanes left are tested too, padded by repeating the last one.
 * Out of line: it runs once per PEND_LANES waiting lanes, and one copy per
 * kernel rather than per call site keeps compile time down. */
SATC_NI unsigned pend_drain(const vconst *k, vpend *pd, unsigned np, uint64_t *vis,
                            const int sphere, const int ortho, int last)
{
    unsigned full = np / W;
    for (unsigned v = 0; v < full; v++)
        pend_run(k, pd, v, vis, SATC_FULL, sphere, ortho);
    np -= full * W;
    if (np) {
        for (int q = 0; q <= F_N; q++)
            v_store(pd->f[q], v_load(&pd->f[q][full * W]));
    }
    if (last && np) {
        for (int q = 0; q < F_N; q++) {
            for (unsigned j = np; j < W; j++)
                pd->f[q][j] = pd->f[q][np - 1];
        }
        pend_run(k, pd, 0, vis, (1u << np) - 1u, sphere, ortho);
        np = 0;
    }
    return np;
}

/* Exact mode's second stage (src/redecide.c) on the chunk's band lanes
 * still visible: one shared scalar routine, so the bits are the
 * reference's on every path. */
SATC_AI void redecide_v(const satc_frustum *f, const satc_batch *b, size_t first, uint64_t *vis,
                        uint64_t *inside, const uint64_t *band)
{
    uint64_t any = 0;
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        any |= band[w] & vis[w];
    if (any)
        satc_redecide_bits(f, b, first, vis, inside, band);
}

/* One vector of volumes: batch index i, chunk positions pos..pos+nl-1. */
SATC_AI void step_v(const vconst *k, const satc_batch *b, size_t i, size_t pos, unsigned nl,
                    int rec_ok, vpend *pd, unsigned *npend, uint64_t *vis, uint64_t *inside,
                    const int form, const int ortho, const int exact, const int classify,
                    const int soa)
{
    const int need_in = exact || classify;
    const int sphere = form == SATC_FORM_SPHERES;
    const int aabb = form == SATC_FORM_AABB || form == SATC_FORM_MINMAX;
    unsigned valid = nl == W ? SATC_FULL : (1u << nl) - 1u;
    vbox o;
    M bad = load_v(k, b, i, nl, rec_ok, &o, form, ortho, soa);
    vplanes p = ortho == 2 ? planes_vol_v(k, &o, bad, form, need_in)
                : ortho    ? planes_ortho_v(k, &o, bad, need_in)
                           : planes_persp_v(k, &o, bad, need_in);
    unsigned vb = m_bits(p.vis) & valid, ub = 0, bb = 0;
    if (exact && !(sphere && ortho == 2)) {
        ub = m_bits(p.und) & valid;
        bb = m_bits(p.band) & valid; /* the planes' band (visible lanes only) */
        if (ub && aabb)
            aabb_axes_v(k, o.v);
        if (ub && !ortho)
            ub &= ~m_bits(sphere ? point_in_v(k, o.v[F_DX], o.v[F_DY], o.v[F_DZ])
                                 : points_in_persp_v(k, o.v));
        if (ub == SATC_FULL) {
            /* Every lane undecided: test them where they are. */
            vsep r = exact_v(k, o.v, 1, sphere, ortho);
            vb &= ~m_bits(r.sep);
            bb = (bb | m_bits(r.band)) & vb;
            ub = 0;
        }
        pd->band[pos >> 6] |= (uint64_t)bb << (pos & 63);
    }
    vis[pos >> 6] |= (uint64_t)vb << (pos & 63);
    if (classify)
        inside[pos >> 6] |= (uint64_t)(m_bits(p.inside) & valid) << (pos & 63);
    if (ub) {
        unsigned np = pend_push(pd, *npend, &o, v_add(k->lane, v_set1((float)pos)), ub);
        if (np >= PEND_LANES)
            np = pend_drain(k, pd, np, vis, sphere, ortho, 0);
        *npend = np;
    }
}

/* The kernel (satc_kernel_fn) with its form, frustum kind and flags fixed. */
SATC_AI void cull_chunk(const satc_frustum *f, const satc_batch *bp, size_t first, size_t n,
                        unsigned flags, uint64_t *vis, uint64_t *inside, const int form,
                        const int ortho, const int exact, const int classify, const int soa)
{
    const int sphere = form == SATC_FORM_SPHERES;
    /* A local copy: stores to vis cannot alias its strides (size_t and
     * uint64_t are one type here), so they stay in registers. */
    const satc_batch bl = *bp, *b = &bl;
    vconst k;
    vpend pd;
    unsigned np = 0;
    vconst_init(&k, f);
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        vis[w] = inside[w] = pd.band[w] = 0;

    /* Records may be read 4 bytes past their last field before the call's
     * last element: in every vector but the one holding it. */
    size_t rec_end = (flags & SATC_K_LAST) ? n : n + 1;
    /* One call site for full vectors and the tail: the step is inlined
     * once per kernel (compile time and code size). */
    for (size_t i = 0; i < n; i += W) {
        unsigned nl = n - i < W ? (unsigned)(n - i) : W;
        step_v(&k, b, first + i, i, nl, nl == W && i + W < rec_end, &pd, &np, vis, inside, form,
               ortho, exact, classify, soa);
    }
    if (exact && np)
        pend_drain(&k, &pd, np, vis, sphere, ortho, 1);
    if (exact)
        redecide_v(f, b, first, vis, inside, pd.band);
}

/* The kernel (satc_kernel_fn) of one form and frustum kind: exact mode
 * and, for the forms most often stored as plain arrays, the plain-array
 * case are compile-time variants; classification is a run-time flag
 * (each variant costs compile time on every path). */
#define SATC_VARIANT(soa)                                                                         \
    if (flags & SATC_K_EXACT)                                                                     \
        cull_chunk(f, b, first, n, flags, vis, inside, form, ortho, 1, classify, soa);            \
    else                                                                                          \
        cull_chunk(f, b, first, n, flags, vis, inside, form, ortho, 0, classify, soa);

#define SATC_KERNEL(name, form_, ortho_)                                                          \
    static void name(const satc_frustum *f, const satc_batch *b, size_t first, size_t n,          \
                     unsigned flags, uint64_t *vis, uint64_t *inside)                             \
    {                                                                                             \
        const int form = form_, ortho = ortho_, classify = (flags & SATC_K_CLASSIFY) != 0;        \
        if ((form == SATC_FORM_OBB || form == SATC_FORM_AABB) && batch_soa(b)) {                  \
            SATC_VARIANT(1)                                                                       \
        } else {                                                                                  \
            SATC_VARIANT(0)                                                                       \
        }                                                                                         \
    }

/* Plane volumes: one variant per form, exact mode a run-time flag (the
 * exact tier is one out-of-line function), to keep compile time down. */
#define SATC_KERNEL_VOL(name, form_)                                                              \
    static void name(const satc_frustum *f, const satc_batch *b, size_t first, size_t n,          \
                     unsigned flags, uint64_t *vis, uint64_t *inside)                             \
    {                                                                                             \
        cull_chunk(f, b, first, n, flags, vis, inside, form_, 2, (flags & SATC_K_EXACT) != 0,     \
                   (flags & SATC_K_CLASSIFY) != 0, 0);                                            \
    }

#define SATC_KERNEL_FORM(form, tag)                                                               \
    SATC_KERNEL(cull_##tag##_p, form, 0)                                                          \
    SATC_KERNEL(cull_##tag##_o, form, 1) SATC_KERNEL_VOL(cull_##tag##_v, form)
SATC_KERNEL_FORM(SATC_FORM_OBB, obb)
SATC_KERNEL_FORM(SATC_FORM_AABB, aabb)
SATC_KERNEL_FORM(SATC_FORM_MINMAX, minmax)
SATC_KERNEL_FORM(SATC_FORM_HALF_AXES, half)
SATC_KERNEL_FORM(SATC_FORM_INSTANCES, inst)
SATC_KERNEL_FORM(SATC_FORM_SPHERES, sphere)

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
            ld3s(v[q], first + i, nl, nl == W && i + W < rec_end, &t[nt], 0);
        if (fl)
            t[nt++] = ld1s(fl->p, fl->stride, first + i, nl, 0);
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

/* The least (max 0) or greatest (max 1) lane of v: log2(W) halvings
 * through the packing permute (no layer needs a reduction of its own). */
SATC_AI float h_ext(V v, const int max)
{
    for (unsigned w = W / 2; w >= 1; w /= 2) {
        V u = v_perm(v, p_make(((1u << w) - 1u) << w));
        v = max ? v_max(u, v) : v_min(u, v);
    }
    float t[W];
    v_store(t, v);
    return t[0];
}

/*
 * satc_bounds_fn's world box of W volumes of a derived form: lanes a, z
 * (lower and upper corners) and, for instances, p = sum_r sum_k |m_rk
 * lc_k| as load_v sums it (so it is each volume's own S term). Arvo's
 * box of a mapped box (Graphics Gems, 1990): center t + M lc, half size
 * |M| |lh| per row; an OBB's or half-axis box's half size sum_j |H_j| per
 * component. Half sizes are sums of non-negative products (a few ulps);
 * an instance's center rounds relative to |t| + p; views_pre.c widens
 * by both. A NaN or infinite field reaches a or z.
 */
SATC_AI void derived_box(const satc_batch *b, size_t i, int rec_ok, V a[3], V z[3], V *p,
                         const int form, const int soa)
{
    V c[3], h[3];
    if (form == SATC_FORM_INSTANCES) {
        const satc_instances *s = &b->instances;
        V m[3][4], lc[3], lh[3], pl[3];
        ld_mat(s, i, W, m);
        if (s->mesh) {
            ld_mesh(s, i, W, lc, lh);
        } else {
            ld3s(&s->local_center, i, W, rec_ok, lc, 0);
            ld3s(&s->local_half, i, W, rec_ok, lh, 0);
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
    } else {
        const int obb = form == SATC_FORM_OBB;
        const satc_vec3s *as = obb ? b->obb.axis : b->half_axes.axis;
        V e[3], ax[3];
        ld3s(obb ? &b->obb.center : &b->half_axes.center, i, W, rec_ok, c, soa);
        if (obb)
            ld3s(&b->obb.extent, i, W, rec_ok, e, soa);
        for (int j = 0; j < 3; j++) {
            ld3s(&as[j], i, W, rec_ok, ax, soa);
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
                            float *lo, float *hi, float *xs, const int form, const int soa)
{
    const V fmax_ = v_set1(3.40282347e38f);
    const int inst = form == SATC_FORM_INSTANCES;
    const int derived = inst || form == SATC_FORM_OBB || form == SATC_FORM_HALF_AXES;
    size_t nm = n / SATC_MICRO, rec_end = (flags & SATC_K_LAST) ? n : n + 1;
    for (size_t g = 0; g < nm; g++) {
        V mn[3], mx[3], sum = v_set1(0.0f), mp = sum;
        for (size_t j = 0; j < SATC_MICRO; j += W) {
            size_t i = g * SATC_MICRO + j;
            int rec_ok = i + W < rec_end;
            V x[3], y[3], r = sum, p = sum;
            if (derived) {
                derived_box(b, first + i, rec_ok, x, y, &p, form, soa);
            } else if (form == SATC_FORM_AABB) {
                ld3s(&b->aabb.center, first + i, W, rec_ok, x, soa);
                ld3s(&b->aabb.half, first + i, W, rec_ok, y, soa);
            } else if (form == SATC_FORM_MINMAX) {
                ld3s(&b->minmax.min, first + i, W, rec_ok, x, soa);
                ld3s(&b->minmax.max, first + i, W, rec_ok, y, soa);
            } else {
                const satc_vec3s *cs = &b->spheres.center;
                if (!soa && cs->stride >= 4 * sizeof(float) && cs->y == cs->x + 1 &&
                    cs->z == cs->x + 2 && b->spheres.radius.p == cs->x + 3 &&
                    b->spheres.radius.stride == cs->stride) {
                    V t[4];
                    v_load_rec4(satc_at(cs->x, cs->stride, first + i), cs->stride, t);
                    x[0] = t[0], x[1] = t[1], x[2] = t[2], r = t[3];
                } else {
                    ld3s(cs, first + i, W, rec_ok, x, soa);
                    r = ld1s(b->spheres.radius.p, b->spheres.radius.stride, first + i, W, soa);
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
 * get their own (compile time: each variant is on every path). */
static void micro_bounds(const satc_batch *b, size_t first, size_t n, unsigned flags, float *lo,
                         float *hi, float *xs)
{
    const satc_batch bl = *b;
    int soa = batch_soa(&bl);
#define SATC_MB(form_, soa_) micro_bounds_t(&bl, first, n, flags, lo, hi, xs, form_, soa_)
    switch (bl.form) {
    case SATC_FORM_AABB:
        if (soa)
            SATC_MB(SATC_FORM_AABB, 1);
        else
            SATC_MB(SATC_FORM_AABB, 0);
        break;
    case SATC_FORM_OBB:
        if (soa)
            SATC_MB(SATC_FORM_OBB, 1);
        else
            SATC_MB(SATC_FORM_OBB, 0);
        break;
    case SATC_FORM_MINMAX: SATC_MB(SATC_FORM_MINMAX, 0); break;
    case SATC_FORM_HALF_AXES: SATC_MB(SATC_FORM_HALF_AXES, 0); break;
    case SATC_FORM_INSTANCES: SATC_MB(SATC_FORM_INSTANCES, 0); break;
    default: SATC_MB(SATC_FORM_SPHERES, 0); break;
    }
#undef SATC_MB
}

/*
 * satc_multi_fn: orthographic views sharing one origin and frame (the
 * cascades of a light) share the load of each vector of volumes, whose
 * every field depends on the origin and frame alone; each view then runs
 * its own plane tier and exact tier (on the whole vector, its undecided
 * lanes counted), the expressions of step_v, so each view's bits are its
 * single cull's.
 */
SATC_AI void multi_chunk(const satc_frustum *const *views, int nv, const satc_batch *bp,
                         size_t first, size_t n, unsigned flags, uint64_t (*vis)[SATC_CHUNK_WORDS],
                         uint64_t (*inside)[SATC_CHUNK_WORDS], const int form, const int exact)
{
    const int classify = (flags & SATC_K_CLASSIFY) != 0, need_in = exact || classify;
    const int sphere = form == SATC_FORM_SPHERES;
    const int aabb = form == SATC_FORM_AABB || form == SATC_FORM_MINMAX;
    const satc_batch bl = *bp, *b = &bl;
    vconst k[SATC_MULTI_MAX];
    uint64_t band[SATC_MULTI_MAX][SATC_CHUNK_WORDS];
    for (int v = 0; v < nv; v++) {
        vconst_init(&k[v], views[v]);
        for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
            vis[v][w] = inside[v][w] = band[v][w] = 0;
    }
    size_t rec_end = (flags & SATC_K_LAST) ? n : n + 1;
    for (size_t i = 0; i < n; i += W) {
        unsigned nl = n - i < W ? (unsigned)(n - i) : W;
        unsigned valid = nl == W ? SATC_FULL : (1u << nl) - 1u;
        vbox o;
        M bad = load_v(&k[0], b, first + i, nl, nl == W && i + W < rec_end, &o, form, 1, 0);
        int axes = 0;
        for (int v = 0; v < nv; v++) {
            vplanes p = planes_ortho_v(&k[v], &o, bad, need_in);
            unsigned vb = m_bits(p.vis) & valid;
            if (exact) {
                unsigned ub = m_bits(p.und) & valid, bb = m_bits(p.band) & valid;
                if (ub && aabb && !axes)
                    aabb_axes_v(&k[0], o.v), axes = 1; /* frame-only: once */
                if (ub) {
                    vsep r = exact_v(&k[v], o.v, 1, sphere, 1);
                    vb &= ~(m_bits(r.sep) & ub);
                    bb |= m_bits(r.band) & ub;
                }
                band[v][i >> 6] |= (uint64_t)(bb & vb) << (i & 63);
            }
            vis[v][i >> 6] |= (uint64_t)vb << (i & 63);
            if (classify)
                inside[v][i >> 6] |= (uint64_t)(m_bits(p.inside) & valid) << (i & 63);
        }
    }
    if (exact)
        for (int v = 0; v < nv; v++)
            redecide_v(views[v], b, first, vis[v], inside[v], band[v]);
}

#define SATC_MULTI(name, form_)                                                                   \
    static void name(const satc_frustum *const *views, int nv, const satc_batch *b, size_t first,   \
                     size_t n, unsigned flags, uint64_t (*vis)[SATC_CHUNK_WORDS],                   \
                     uint64_t (*inside)[SATC_CHUNK_WORDS])                                          \
    {                                                                                             \
        /* exact at run time: one variant per form (compile time). */                            \
        multi_chunk(views, nv, b, first, n, flags, vis, inside, form_,                            \
                    (flags & SATC_K_EXACT) != 0);                                                 \
    }
SATC_MULTI(multi_obb, SATC_FORM_OBB)
SATC_MULTI(multi_aabb, SATC_FORM_AABB)
SATC_MULTI(multi_minmax, SATC_FORM_MINMAX)
SATC_MULTI(multi_half, SATC_FORM_HALF_AXES)
SATC_MULTI(multi_inst, SATC_FORM_INSTANCES)
SATC_MULTI(multi_sphere, SATC_FORM_SPHERES)

const satc_kernels SATC_SIMD_TABLE = {{{NULL, NULL, NULL},
                                       {cull_obb_p, cull_obb_o, cull_obb_v},
                                       {cull_aabb_p, cull_aabb_o, cull_aabb_v},
                                       {cull_minmax_p, cull_minmax_o, cull_minmax_v},
                                       {cull_half_p, cull_half_o, cull_half_v},
                                       {cull_inst_p, cull_inst_o, cull_inst_v},
                                       {cull_sphere_p, cull_sphere_o, cull_sphere_v}},
                                      soa_copy,
                                      micro_bounds,
                                      {NULL, multi_obb, multi_aabb, multi_minmax, multi_half,
                                       multi_inst, multi_sphere}};

#endif
